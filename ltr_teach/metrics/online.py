"""Online evaluation: A/B tests and interleaving, with simulated users from a click model.

Offline metrics score a ranking with judgments; online evaluation lets users decide. An **A/B test** shows
each user one system and compares the two groups on a metric of their behaviour: the share of users who click
(the one used here), clicks per user, abandoned queries, time to the first click, revenue ... (Kohavi, Longbotham,
Sommerfield & Henne 2009). **Interleaving** shows each user one list merged from both systems and credits each
click to the system that contributed the clicked result (Joachims 2002; Radlinski, Kurup & Joachims 2008;
Chapelle, Joachims, Radlinski & Yue 2012): every user compares the two systems side by side, so far fewer users
are needed.

Two ways to merge:

- **team draft** (Radlinski et al. 2008, their Algorithm 2): while *both* lists still hold a result not yet
  shown, the team with fewer picks adds its highest-ranked result not yet shown (a coin decides when the teams
  are even: once per round); the merge **stops as soon as one list has nothing new left**, so the other list's
  remaining results are not shown. The system whose team gets **more clicks** wins the impression.
- **balanced** (Joachims 2002): the two lists are walked in turn, starting with a coin's choice, each adding its
  next result not yet shown, until one list is used up. For the deepest click, at rank k_A in A and k_B in B,
  let k = min(k_A, k_B); the system with more clicked results in its own top k wins.

The simulated user follows a **click model**. By default it is the cascade model of ERR (Craswell, Zoeter, Taylor
& Ramsey 2008; Chapelle et al. 2009): read from the top, click result i with probability
R_i = (2^g_i − 1)/2^g_max and stop there. ``click`` gives a click probability per grade instead (noisy clicks: a
non-relevant result may be clicked, a perfect one skipped), and ``keep_reading`` is the chance to read on after a
click, as in the dependent click model (Guo, Liu & Wang 2009, with one λ for every rank): 0 is the cascade's
single click, more gives several clicks. Without a click the user reads on. The outcome is exact:
:func:`interleaving_preference` sums, over every coin outcome, the chances of each click pattern, as fractions.
:func:`users_needed` compares how many users each method needs to detect the difference, and :func:`simulate`
draws users to show the fractions at work.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist

from ..core.explanation import Column, Explanation
from ..core.i18n import N_, Message, _
from ..core.plain import _brief
from ..core.validate import as_choice
from .interleave import (
    MAX_LIST,
    MAX_UNION,
    ClickModel,
    Interleaving,
    _check_grades,
    _check_ranking,
    _check_rankings,
    _check_union,
    _click_model,
    _outcomes,
    _rational,
    balanced,
    team_draft,
)

METHODS = {
    "team_draft": N_("team draft: while both lists have a result not yet shown, the team with fewer picks adds its "
                     "best such result (a coin decides when the teams are even); the team with more clicks wins"),
    "balanced": N_("balanced: the lists are walked in turn from a coin's first pick until one is used up; for the "
                   "deepest click, the system with more clicked results in its top k = min(k_A, k_B) wins"),
}
#: The most users :func:`simulate` draws (about 2 s for 10^6 users of a five-result query).
MAX_USERS = 10**6


# -- the exact outcome of one merged list ---------------------------------------------------------------------
def _add(table: dict, key, value) -> None:
    table[key] = table.get(key, 0) + value


def _team_draft_outcome(merged: Interleaving, model: ClickModel, memo: dict) -> tuple:
    """P(A wins), P(B wins), P(tie): the distribution of (A's clicks − B's clicks), carried rank by rank.

    Whole numbers over one denominator: every click probability is a multiple of 1/D and ``keep_reading`` of 1/K,
    so after i ranks every mass is a whole number over (D·K)^i (exact, and about ten times faster than fractions).
    ``memo`` keeps the distribution after each prefix of a merged list: the coin outcomes of one merge share their
    first rounds, so each round's two results are read once, not once per outcome."""
    denominator = math.lcm(*(c.denominator for c in model.click.values()))
    keep, per_rank = model.keep_reading, denominator * model.keep_reading.denominator
    reading, done, start = {0: 1}, {}, 0
    pairs = tuple(zip(merged.results, merged.teams))
    for end in range(len(pairs), 0, -1):
        if pairs[:end] in memo:
            (reading, done), start = memo[pairs[:end]], end
            break
    probs = model.probabilities(merged.results)
    for i in range(start, len(pairs)):
        click = int(probs[i] * denominator)
        step = 1 if pairs[i][1] == "A" else -1 if pairs[i][1] == "B" else 0
        go_on, stop = click * keep.numerator, click * (keep.denominator - keep.numerator)
        skip = (denominator - click) * keep.denominator
        after, done = {}, {diff: mass * per_rank for diff, mass in done.items()}
        for diff, mass in reading.items():
            if click:
                _add(after, diff + step, mass * go_on)
                _add(done, diff + step, mass * stop)
            _add(after, diff, mass * skip)
        reading = after
        memo[pairs[:i + 1]] = (reading, done)
    done = dict(done)
    for diff, mass in reading.items():
        _add(done, diff, mass)
    whole = per_rank ** len(pairs)
    return tuple(Fraction(share, whole) for share in _signs(done))


def _balanced_outcome(merged: Interleaving, model: ClickModel, a: list, b: list) -> tuple:
    """Joachims' rule, summed over the deepest click l: the clicks above l are each made and read past (c·λ) or
    skipped (1 − c); the one at l is made, then the user stops or reads on without clicking again."""
    probs, keep = model.probabilities(merged.results), model.keep_reading
    n, done = len(probs), {}
    below = [Fraction(1)] * (n + 1)   # below[l]: no click at rank l or under it
    for i in range(n - 1, -1, -1):
        below[i] = below[i + 1] * (1 - probs[i])
    _add(done, 0, below[0])  # no click at all
    rank_in = ({d: i + 1 for i, d in enumerate(a)}, {d: i + 1 for i, d in enumerate(b)})
    for last, doc in enumerate(merged.results):
        k = min(rank_in[0].get(doc, math.inf), rank_in[1].get(doc, math.inf))
        top_a, top_b = set(a[:k]), set(b[:k])
        credit = [(d in top_a) - (d in top_b) for d in merged.results[:last + 1]]
        dist = {credit[last]: probs[last] * ((1 - keep) + keep * below[last + 1])}
        for i in range(last - 1, -1, -1):
            shifted = {}
            for diff, mass in dist.items():
                _add(shifted, diff + credit[i], mass * probs[i] * keep)
                _add(shifted, diff, mass * (1 - probs[i]))
            dist = shifted
        for diff, mass in dist.items():
            _add(done, diff, mass)
    return tuple(Fraction(share) for share in _signs(done))


def _signs(done: dict) -> tuple:
    """The mass of A ahead, B ahead, and even."""
    return (sum(m for d, m in done.items() if d > 0), sum(m for d, m in done.items() if d < 0),
            sum(m for d, m in done.items() if d == 0))


def _outcome(merged: Interleaving, model: ClickModel, a: list, b: list, memo: dict) -> tuple:
    if merged.method == "team_draft":
        return _team_draft_outcome(merged, model, memo)
    return _balanced_outcome(merged, model, a, b)


def _prepare(ranking_a, ranking_b, grades, g_max, method, click, keep_reading):
    a, b = _check_rankings(ranking_a, ranking_b)
    method = as_choice(method, "method", METHODS)
    if method == "team_draft":
        _check_union(a, b)
    return a, b, method, _click_model(grades, g_max, click, keep_reading)


def interleaving_preference(ranking_a, ranking_b, grades, g_max=None, method: str = "team_draft", click=None,
                            keep_reading=0) -> Explanation:
    """The exact chance that a user's clicks make system A win, B win, or neither, under interleaving.

    Parameters
    ----------
    ranking_a, ranking_b : list
        The two systems' results for one query, in ranked order (ids: texts or whole numbers; 1 to 20 each, and
        for team draft at most 20 different results together).
    grades : dict
        ``{result: grade}``, whole grades 0 to 20; a result without a grade counts as grade 0. All grades 0 is
        allowed: nothing satisfies the cascade user, nobody clicks, and every impression is a tie.
    g_max : int, optional
        The top grade of the scale (default the highest grade given, at least 1).
    method : {"team_draft", "balanced"}
    click : dict, optional
        ``{grade: probability of a click when the result is read}`` (default the cascade's (2^g − 1)/2^g_max).
    keep_reading : probability, optional
        The chance to read on after a click (default 0: one click at most).

    Returns
    -------
    Explanation
        The value is P(A wins) − P(B wins); ``parts`` hold P(A wins), P(B wins) and P(tie); one row per coin
        outcome.

    Examples
    --------
    A ranks the perfect result first, B second. Under team draft, A's first result is always shown at rank 1 or
    2; a user stops at a grade-3 result with probability 7/8:

    >>> ex = interleaving_preference(["p", "x"], ["x", "p"], {"p": 3, "x": 0}, g_max=3)
    >>> ex.parts["a_wins"].exact, ex.parts["b_wins"].exact, ex.exact
    (7/8, 0, 7/8)
    """
    a, b, method, model = _prepare(ranking_a, ranking_b, grades, g_max, method, click, keep_reading)
    rows, totals, memo = [], [Fraction(0)] * 3, {}
    for merged, weight in _outcomes(method, a, b):
        shares = _outcome(merged, model, a, b, memo)
        totals = [t + weight * s for t, s in zip(totals, shares)]
        rows.append({"coins": merged.coins, "probability": _rational(weight),
                     "list": " ".join(f"{d}[{t}]" for d, t in zip(merged.results, merged.teams)),
                     "a": _rational(shares[0]), "b": _rational(shares[1]), "tie": _rational(shares[2])})
    columns = (Column("coins", N_("coins")), Column("probability", N_("probability")),
               Column("list", N_("list [team]")), Column("a", "P(A ≻ B)"), Column("b", "P(B ≻ A)"),
               Column("tie", "P(A = B)"))

    def part(key, name, value):
        return Explanation(metric=key, name=name, exact=_rational(value), columns=(), steps=())

    return Explanation(
        metric="interleaving", name="P(A ≻ B) − P(B ≻ A)", exact=_rational(totals[0] - totals[1]),
        columns=columns, steps=tuple(rows),
        # notation for names (a name is printed as it is): A ≻ B, A wins the impression; A = B, a tie
        parts={"a_wins": part("a_wins", "P(A ≻ B)", totals[0]), "b_wins": part("b_wins", "P(B ≻ A)", totals[1]),
               "tie": part("tie", "P(A = B)", totals[2])},
        params={"method": method, "g_max": _check_grades(grades, g_max)[1], "keep_reading": _rational(model.keep_reading)},
        formula=r"\Delta = \sum_{\text{coins}} P(\text{coins})\,\bigl(P(A \succ B \mid \text{coins}) - "
                r"P(B \succ A \mid \text{coins})\bigr)",
        notes=(Message(METHODS[method]),))


def click_rate(ranking, grades, g_max=None, click=None) -> Explanation:
    """The chance that a user shown ``ranking`` clicks at least once: 1 − Π (1 − c_i), exact.

    A user without a click reads on, so the first click comes at rank i with probability c_i · Π_{j<i} (1 − c_j),
    whatever happens after a click: the rate does not depend on ``keep_reading``, nor on the order of the results.

    Examples
    --------
    >>> click_rate(["p", "x"], {"p": 3, "x": 0}, g_max=3).exact
    7/8
    """
    items = _check_ranking(ranking, "ranking")
    model = _click_model(grades, g_max, click, 0)
    rows, total, reach = [], Fraction(0), Fraction(1)
    for rank, (doc, c) in enumerate(zip(items, model.probabilities(items)), start=1):
        total += reach * c
        rows.append({"rank": rank, "result": doc, "stop": _rational(c), "click": _rational(reach * c),
                     "so_far": _rational(total)})
        reach *= 1 - c
    return Explanation(metric="click_rate", name="1 − ∏(1 − c_i)", exact=_rational(total),
                       columns=(Column("rank", N_("rank")), Column("result", N_("result")), Column("stop", "c_i"),
                                Column("click", N_("P(first click at i)")),
                                Column("so_far", N_("P(click) so far"))),
                       steps=tuple(rows), params={"g_max": _check_grades(grades, g_max)[1]},
                       formula=r"P(\text{click}) = 1 - \prod_i (1 - c_i)")


@dataclass(frozen=True)
class UsersNeeded:
    """How many users an A/B test and an interleaving experiment need to detect A ≠ B (normal approximations);
    ``math.inf`` where a method cannot see the difference at all."""

    ab_per_arm: float
    ab_total: float
    interleaving_total: float
    click_rate_a: float
    click_rate_b: float
    decisive_share: float
    preference: float
    alpha: float
    power: float

    @property
    def ratio(self) -> float:
        """How many times more users the A/B test needs (``inf`` when only interleaving sees the difference, 0 when
        only the A/B test does)."""
        return self.ab_total / self.interleaving_total

    def __str__(self) -> str:
        def users(n, digits=0):
            return _("no number of users") if math.isinf(n) else f"{n:,.{digits}f}"

        return "\n".join([
            _("A/B test: {total} users ({per_arm} per system)").format(total=users(self.ab_total),
                                                                      per_arm=users(self.ab_per_arm)),
            _("interleaving: {total} users").format(total=users(self.interleaving_total, 1)),
            _("the A/B test needs {ratio} times as many").format(
                ratio="∞" if math.isinf(self.ratio) else f"{self.ratio:,.0f}")])


def _level(value, name: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not low <= float(value) <= high:
        raise ValueError(f"{name} = {_brief(value)} is not allowed; it must be a number from {low:g} to {high:g}")
    return float(value)


def _probability_float(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0 <= float(value) <= 1:
        raise ValueError(f"{name} = {_brief(value)} is not allowed; it must be a probability from 0 to 1")
    return float(value)


def ab_users_per_arm(p_a, p_b, alpha: float = 0.05, power: float = 0.8) -> float:
    """Users per system an A/B test on click rates ``p_a``, ``p_b`` needs: the two-proportion z-test at ``alpha``
    (two-sided, 1e-9 to 0.5) with ``power`` (0.5 to 1 − 1e-9), a normal approximation (``math.inf`` when p_a = p_b):

    n = (z_{1−α/2}·sqrt(2·p̄(1 − p̄)) + z_{power}·sqrt(p_A(1 − p_A) + p_B(1 − p_B)))² / (p_A − p_B)².

    Examples
    --------
    Click rates 0.30 and 0.32: a difference of 0.02 needs about 8,400 users per system.

    >>> round(ab_users_per_arm(0.30, 0.32))
    8393
    """
    pa, pb = _probability_float(p_a, "p_a"), _probability_float(p_b, "p_b")
    alpha, power = _level(alpha, "alpha", 1e-9, 0.5), _level(power, "power", 0.5, 1 - 1e-9)
    if pa == pb:
        return math.inf
    z_alpha, z_power = NormalDist().inv_cdf(1 - alpha / 2), NormalDist().inv_cdf(power)
    mean = (pa + pb) / 2
    return (z_alpha * math.sqrt(2 * mean * (1 - mean)) + z_power * math.sqrt(pa * (1 - pa) + pb * (1 - pb))) ** 2 \
        / (pa - pb) ** 2


def interleaving_users(wins_a, wins_b, alpha: float = 0.05, power: float = 0.8) -> float:
    """Users an interleaving experiment needs when A wins a share ``wins_a`` of the impressions and B ``wins_b``:
    the sign test on the decisive ones (share d = wins_a + wins_b, q = wins_a/d),
    m = (z_{1−α/2}·0.5 + z_{power}·sqrt(q(1 − q)))² / (q − 1/2)² decisive users, m/d in all (``math.inf`` when
    wins_a = wins_b), a normal approximation.

    Examples
    --------
    >>> round(interleaving_users(0.6, 0.2), 1)
    36.1
    """
    wins_a, wins_b = _probability_float(wins_a, "wins_a"), _probability_float(wins_b, "wins_b")
    if wins_a + wins_b > 1:
        raise ValueError(f"wins_a + wins_b = {wins_a + wins_b:g} is not allowed; the two shares add up to at most 1")
    alpha, power = _level(alpha, "alpha", 1e-9, 0.5), _level(power, "power", 0.5, 1 - 1e-9)
    if wins_a == wins_b:
        return math.inf
    z_alpha, z_power = NormalDist().inv_cdf(1 - alpha / 2), NormalDist().inv_cdf(power)
    decisive = wins_a + wins_b
    q = wins_a / decisive
    return (z_alpha * 0.5 + z_power * math.sqrt(q * (1 - q))) ** 2 / (q - 0.5) ** 2 / decisive


def users_needed(ranking_a, ranking_b, grades, g_max=None, method: str = "team_draft", alpha: float = 0.05,
                 power: float = 0.8, click=None, keep_reading=0) -> UsersNeeded:
    """Users needed to detect the difference with a two-sided test at ``alpha`` (1e-9 to 0.5) with the given
    ``power`` (0.5 to 1 − 1e-9): :func:`ab_users_per_arm` on the two click rates, and :func:`interleaving_users` on
    the exact chances that A and B win an impression. Floats: the normal approximations are not exact. Two systems
    that neither method can tell apart (the same click rate and no interleaving preference) are refused: no number
    of users detects a difference.
    """
    alpha = _level(alpha, "alpha", 1e-9, 0.5)
    power = _level(power, "power", 0.5, 1 - 1e-9)
    pa = float(click_rate(ranking_a, grades, g_max, click).exact)
    pb = float(click_rate(ranking_b, grades, g_max, click).exact)
    pref = interleaving_preference(ranking_a, ranking_b, grades, g_max, method, click, keep_reading)
    wins_a, wins_b = float(pref.parts["a_wins"].exact), float(pref.parts["b_wins"].exact)
    ab, inter = ab_users_per_arm(pa, pb, alpha, power), interleaving_users(wins_a, wins_b, alpha, power)
    if math.isinf(ab) and math.isinf(inter):
        raise ValueError(f"ranking_a and ranking_b cannot be told apart by this user: the same click rate ({pa:.4g}) "
                         f"and P(A wins) = P(B wins) = {wins_a:.4g}; no number of users detects a difference "
                         "(allowed: two systems that differ in click rate or in interleaving preference)")
    decisive = wins_a + wins_b
    return UsersNeeded(ab_per_arm=ab, ab_total=2 * ab, interleaving_total=inter, click_rate_a=pa, click_rate_b=pb,
                       decisive_share=decisive, preference=wins_a / decisive if decisive else 0.5, alpha=alpha,
                       power=power)


def simulate(ranking_a, ranking_b, grades, g_max=None, method: str = "team_draft", n_users: int = 1000,
             seed: int = 0, click=None, keep_reading=0):
    """Draw ``n_users`` users (1 to 10^6) from the click model, seeded (a whole number >= 0): each sees one merged
    list; half of them again see A alone and half B alone, for the A/B test. See
    :func:`ltr_teach.metrics.online_simulation.simulate_users`.

    Examples
    --------
    >>> simulate(["p", "x"], ["x", "p"], {"p": 3, "x": 0}, g_max=3, n_users=8, seed=1).interleaving["B"]
    0
    """
    from .online_simulation import simulate_users  # NumPy, imported when users are drawn

    a, b, method, model = _prepare(ranking_a, ranking_b, grades, g_max, method, click, keep_reading)
    if isinstance(n_users, bool) or not isinstance(n_users, numbers.Integral) or not 1 <= n_users <= MAX_USERS:
        raise ValueError(f"n_users = {_brief(n_users)} is not allowed; it must be a whole number from 1 to "
                         f"{MAX_USERS:,}")
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or not 0 <= seed < 2**63:
        raise ValueError(f"seed = {_brief(seed)} is not allowed; it must be a whole number from 0 to 2^63 − 1")
    return simulate_users(_outcomes(method, a, b), model, a, b, int(n_users), int(seed))


__all__ = ["team_draft", "balanced", "Interleaving", "interleaving_preference", "click_rate", "users_needed",
           "ab_users_per_arm", "interleaving_users",
           "UsersNeeded", "simulate", "METHODS", "MAX_LIST", "MAX_UNION", "MAX_USERS"]
