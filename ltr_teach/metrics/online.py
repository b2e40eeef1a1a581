"""Online evaluation: A/B tests on clicks and interleaving, with a simulated user from the cascade model.

Offline metrics score a ranking with judgments; online evaluation lets users decide. An **A/B test** shows
each user one system and compares the share of users who click (Manning et al. 2008, section 8.6).
**Interleaving** shows each user one list merged from both systems and credits each click to the system
that contributed the clicked result (Joachims 2002; Radlinski, Kurup & Joachims 2008; Chapelle, Joachims,
Radlinski & Yue 2012): every user compares the two systems side by side, so far fewer users are needed.

Two ways to merge:

- **team draft** (Radlinski et al. 2008): in each round a coin decides which system picks first; each picks
  its highest-ranked result not yet in the list, and that result joins its team. A click counts for the team.
- **balanced** (Joachims 2002): the two lists are walked in turn, starting with a coin's choice, each adding
  its next result not yet shown. A click on a result counts for the system that ranks it higher (the rule
  k = min(k_A, k_B) with one click).

The simulated user is the cascade model of ERR (Chapelle et al. 2009): they read from the top, stop at rank
i with probability R_i = (2^g_i − 1)/2^g_max (satisfied: a click) and otherwise read on. With at most one
click the outcome is exact: :func:`interleaving_preference` sums, over every coin sequence, the probability
of a click on each team's results, as a fraction. :func:`users_needed` compares how many users each method
needs to detect the difference, and :func:`simulate` draws users to show the fractions at work.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from statistics import NormalDist

from sympy import Integer, Rational

from ..core.explanation import Column, Explanation
from ..core.i18n import N_, Message
from ..core.validate import as_choice

METHODS = {
    "team_draft": N_("team draft: a coin per round decides which system picks first; a click counts for the "
                     "team of the clicked result"),
    "balanced": N_("balanced: the lists are walked in turn from a coin's first pick; a click counts for the "
                   "system that ranks the clicked result higher"),
}
#: Team-draft enumerates 2^rounds coin sequences: 2^10 at most, lists of up to 20 results.
MAX_LIST = 20
_TIE = "tie"


@dataclass(frozen=True)
class Interleaving:
    """One merged list: the results in order and, for each, the system it counts for (``"A"``, ``"B"``)."""

    results: tuple
    teams: tuple
    method: str

    def winner(self, clicked_rank: int | None, ranking_a, ranking_b) -> str:
        """``"A"``, ``"B"`` or ``"tie"`` for one click at ``clicked_rank`` (1-based; None: no click)."""
        if clicked_rank is None:
            return _TIE
        if self.method == "team_draft":
            return self.teams[clicked_rank - 1]
        doc = self.results[clicked_rank - 1]
        in_a = list(ranking_a).index(doc) if doc in ranking_a else math.inf
        in_b = list(ranking_b).index(doc) if doc in ranking_b else math.inf
        return "A" if in_a < in_b else "B" if in_b < in_a else _TIE


def _check_ranking(ranking, name: str) -> list:
    if isinstance(ranking, (str, bytes)) or not hasattr(ranking, "__iter__"):
        raise ValueError(f"{name} must be a list of result ids in ranked order; got {type(ranking).__name__}")
    items = list(ranking)
    if not items or len(items) > MAX_LIST:
        raise ValueError(f"{name} must hold 1 to {MAX_LIST} results; got {len(items)}")
    if len(set(items)) < len(items):
        raise ValueError(f"{name} lists a result twice: {items}")
    return items


def _check_rankings(ranking_a, ranking_b):
    return _check_ranking(ranking_a, "ranking_a"), _check_ranking(ranking_b, "ranking_b")


def team_draft(ranking_a, ranking_b, coins) -> Interleaving:
    """Team-draft interleaving with the given coins (``"A"`` or ``"B"``: who picks first in each round).

    Examples
    --------
    Round 1, A first: A adds a1, B adds s. Round 2, B first: B adds b2, A adds a3 (s is shown). Then A has
    nothing left and B adds b3:

    >>> team_draft(["a1", "s", "a3"], ["s", "b2", "b3"], coins="AB")
    Interleaving(results=('a1', 's', 'b2', 'a3', 'b3'), teams=('A', 'B', 'B', 'A', 'B'), method='team_draft')
    """
    a, b = _check_rankings(ranking_a, ranking_b)
    coins = list(coins)
    if any(c not in ("A", "B") for c in coins):
        raise ValueError(f"coins must be a sequence of 'A' and 'B'; got {coins!r}")
    results, teams, shown = [], [], set()
    lists = {"A": a, "B": b}
    for coin in itertools.chain(coins, itertools.cycle("AB")):
        picked = False
        for team in (coin, "B" if coin == "A" else "A"):
            nxt = next((d for d in lists[team] if d not in shown), None)
            if nxt is not None:
                results.append(nxt)
                teams.append(team)
                shown.add(nxt)
                picked = True
        if not picked:
            break
    return Interleaving(tuple(results), tuple(teams), "team_draft")


def balanced(ranking_a, ranking_b, first: str = "A") -> Interleaving:
    """Balanced interleaving (Joachims 2002): the lists in turn, ``first`` starting, skipping results already shown.

    Each result's team is the system that ranks it higher (``"tie"`` when both rank it the same).

    Examples
    --------
    A's a1, B's s, A's s (shown: nothing added), B's b2, A's a3; A is then exhausted and the merge stops:

    >>> merged = balanced(["a1", "s", "a3"], ["s", "b2", "b3"], first="A")
    >>> merged.results, merged.teams
    (('a1', 's', 'b2', 'a3'), ('A', 'B', 'B', 'A'))
    """
    a, b = _check_rankings(ranking_a, ranking_b)
    first = as_choice(first, "first", {"A": "", "B": ""})
    results, shown, ka, kb = [], set(), 0, 0
    while ka < len(a) and kb < len(b):  # Joachims' loop: a turn whose result is already shown adds nothing
        if ka < kb or (ka == kb and first == "A"):
            doc, ka = a[ka], ka + 1
        else:
            doc, kb = b[kb], kb + 1
        if doc not in shown:
            results.append(doc)
            shown.add(doc)
    teams = tuple(Interleaving(tuple(results), (), "balanced").winner(i, a, b) for i in range(1, len(results) + 1))
    return Interleaving(tuple(results), teams, "balanced")


def _stop_probabilities(results, grades, g_max) -> list:
    """R_i = (2^g − 1)/2^g_max of each result (an unjudged result has grade 0), exact."""
    out = []
    for doc in results:
        g = grades.get(doc, 0)
        out.append(Rational(2 ** g - 1, 2 ** g_max))
    return out


def _click_probabilities(stops) -> list:
    """P(the cascade user clicks rank i) = R_i · Π_{j<i} (1 − R_j)."""
    out, reach = [], Integer(1)
    for r in stops:
        out.append(reach * r)
        reach *= 1 - r
    return out


def _check_grades(grades, g_max):
    if not isinstance(grades, dict):
        raise ValueError(f"grades must be a dict {{result: grade}}; got {type(grades).__name__}")
    for doc, g in grades.items():
        if isinstance(g, bool) or not isinstance(g, int) or g < 0:
            raise ValueError(f"grades[{doc!r}] = {g!r} is not allowed; grades are whole numbers >= 0")
    top = max(grades.values(), default=0)
    if g_max is None:
        g_max = top
    if isinstance(g_max, bool) or not isinstance(g_max, int) or not max(1, top) <= g_max <= 20:
        raise ValueError(f"g_max = {g_max!r} is not allowed; it must be a whole number from the top grade "
                         f"({max(1, top)}) to 20")
    return g_max


def _patterns(method: str, a, b):
    """Every coin outcome of ``method`` with its probability: ``(coins, Interleaving, probability)``."""
    if method == "balanced":
        for first in "AB":
            yield first, balanced(a, b, first), Rational(1, 2)
        return
    rounds = (len(set(a) | set(b)) + 1) // 2
    for coins in itertools.product("AB", repeat=rounds):
        yield "".join(coins), team_draft(a, b, coins), Rational(1, 2 ** rounds)


def interleaving_preference(ranking_a, ranking_b, grades, g_max=None, method: str = "team_draft") -> Explanation:
    """The exact chance that a cascade user's click credits system A, B, or neither, under interleaving.

    Parameters
    ----------
    ranking_a, ranking_b : list
        The two systems' results for one query, in ranked order (ids; 1 to 20 each).
    grades : dict
        ``{result: grade}``; a result without a grade counts as grade 0 (never clicked).
    g_max : int, optional
        The top grade of the scale (default the highest grade given).
    method : {"team_draft", "balanced"}

    Returns
    -------
    Explanation
        The value is P(A wins) − P(B wins), the expected credit per user; ``parts`` hold P(A wins),
        P(B wins) and P(tie); one row per coin outcome.

    Examples
    --------
    A ranks the perfect result first, B second. Under team draft, A's first result is always shown at rank 1 or
    2; a user stops at a grade-3 result with probability 7/8:

    >>> ex = interleaving_preference(["p", "x"], ["x", "p"], {"p": 3, "x": 0}, g_max=3)
    >>> ex.parts["a_wins"].exact, ex.parts["b_wins"].exact, ex.exact
    (7/8, 0, 7/8)
    """
    a, b = _check_rankings(ranking_a, ranking_b)
    g_max = _check_grades(grades, g_max)
    method = as_choice(method, "method", METHODS)
    rows, totals = [], {"A": Integer(0), "B": Integer(0), _TIE: Integer(0)}
    for coins, merged, weight in _patterns(method, a, b):
        clicks = _click_probabilities(_stop_probabilities(merged.results, grades, g_max))
        share = {"A": Integer(0), "B": Integer(0)}
        for rank, p in enumerate(clicks, start=1):
            team = merged.winner(rank, a, b)
            if team in share:
                share[team] += p
        tie = 1 - share["A"] - share["B"]
        for key, value in (("A", share["A"]), ("B", share["B"]), (_TIE, tie)):
            totals[key] += weight * value
        rows.append({"coins": coins, "probability": weight, "list": " ".join(
            f"{d}[{t}]" for d, t in zip(merged.results, merged.teams)), "a": share["A"], "b": share["B"], "tie": tie})
    columns = (Column("coins", "coins"), Column("probability", "probability"), Column("list", "list [team]"),
               Column("a", "P(A ≻ B)"), Column("b", "P(B ≻ A)"), Column("tie", "P(no click)"))

    def part(key, name, value):
        return Explanation(metric=key, name=name, exact=value, columns=(), steps=())

    difference = totals["A"] - totals["B"]
    return Explanation(
        metric="interleaving", name="P(A ≻ B) − P(B ≻ A)", exact=difference,
        columns=columns, steps=tuple(rows),
        # notation for names (a name is printed as it is): A ≻ B, a click credits A; A = B, no click decides
        parts={"a_wins": part("a_wins", "P(A ≻ B)", totals["A"]), "b_wins": part("b_wins", "P(B ≻ A)", totals["B"]),
               "tie": part("tie", "P(A = B)", totals[_TIE])},
        params={"method": method, "g_max": g_max},
        formula=r"\Delta = \sum_{\text{coins}} P(\text{coins}) \sum_i R_i \prod_{j<i}(1-R_j)\,"
                r"\bigl([\text{team}_i = A] - [\text{team}_i = B]\bigr)",
        notes=(Message(METHODS[method]),))


def click_rate(ranking, grades, g_max=None) -> Explanation:
    """The chance that a cascade user shown ``ranking`` clicks at all: 1 − Π (1 − R_i), exact.

    Examples
    --------
    >>> click_rate(["p", "x"], {"p": 3, "x": 0}, g_max=3).exact
    7/8
    """
    items = _check_ranking(ranking, "ranking")
    g_max = _check_grades(grades, g_max)
    stops = _stop_probabilities(items, grades, g_max)
    clicks = _click_probabilities(stops)
    rows, total = [], Integer(0)
    for rank, (doc, r, p) in enumerate(zip(items, stops, clicks), start=1):
        total += p
        rows.append({"rank": rank, "result": doc, "stop": r, "click": p, "so_far": total})
    return Explanation(metric="click_rate", name="P(click)", exact=total,
                       columns=(Column("rank", "rank"), Column("result", "result"), Column("stop", "R_i"),
                                Column("click", "P(click at i)"), Column("so_far", "P(click) so far")),
                       steps=tuple(rows), params={"g_max": g_max},
                       formula=r"P(\text{click}) = 1 - \prod_i (1 - R_i)")


@dataclass(frozen=True)
class UsersNeeded:
    """How many users an A/B test and an interleaving experiment need to detect A ≠ B (normal approximations)."""

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
        """How many times more users the A/B test needs."""
        return self.ab_total / self.interleaving_total


def users_needed(ranking_a, ranking_b, grades, g_max=None, method: str = "team_draft", alpha: float = 0.05,
                 power: float = 0.8) -> UsersNeeded:
    """Users needed to detect the difference with a two-sided test at ``alpha`` with the given ``power``.

    A/B: the two-proportion z-test on the click rates p_A, p_B, n per arm =
    (z_{1−α/2}·sqrt(2·p̄(1 − p̄)) + z_{power}·sqrt(p_A(1 − p_A) + p_B(1 − p_B)))² / (p_A − p_B)².
    Interleaving: the sign test on users whose click decides (share d = P(A wins) + P(B wins)), with
    q = P(A wins)/d: m = (z_{1−α/2}·0.5 + z_{power}·sqrt(q(1 − q)))² / (q − 1/2)² decisive users, m/d in all.
    Floats: the normal approximations are not exact.
    """
    for name, value in (("alpha", alpha), ("power", power)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < 1:
            raise ValueError(f"{name} = {value!r} is not allowed; it must be a number between 0 and 1")
    pa = float(click_rate(ranking_a, grades, g_max).exact)
    pb = float(click_rate(ranking_b, grades, g_max).exact)
    pref = interleaving_preference(ranking_a, ranking_b, grades, g_max, method)
    wins_a, wins_b = float(pref.parts["a_wins"].exact), float(pref.parts["b_wins"].exact)
    z_alpha, z_power = NormalDist().inv_cdf(1 - alpha / 2), NormalDist().inv_cdf(power)
    mean = (pa + pb) / 2
    ab = (z_alpha * math.sqrt(2 * mean * (1 - mean)) + z_power * math.sqrt(pa * (1 - pa) + pb * (1 - pb))) ** 2 \
        / (pa - pb) ** 2 if pa != pb else math.inf
    decisive = wins_a + wins_b
    q = wins_a / decisive if decisive else 0.5
    inter = (z_alpha * 0.5 + z_power * math.sqrt(q * (1 - q))) ** 2 / (q - 0.5) ** 2 / decisive \
        if q != 0.5 else math.inf
    return UsersNeeded(ab_per_arm=ab, ab_total=2 * ab, interleaving_total=inter, click_rate_a=pa, click_rate_b=pb,
                       decisive_share=decisive, preference=q, alpha=alpha, power=power)


def simulate(ranking_a, ranking_b, grades, g_max=None, method: str = "team_draft", n_users: int = 1000,
             seed: int = 0) -> dict:
    """Draw ``n_users`` cascade users: ``{"interleaving": {"A": wins, "B": wins, "tie": n}, "ab": {"A": clicks of
    n/2 users shown A, "B": clicks of n/2 users shown B}}``, seeded.

    Examples
    --------
    >>> simulate(["p", "x"], ["x", "p"], {"p": 3, "x": 0}, g_max=3, n_users=8, seed=1)["interleaving"]["B"]
    0
    """
    a, b = _check_rankings(ranking_a, ranking_b)
    g_max = _check_grades(grades, g_max)
    method = as_choice(method, "method", METHODS)
    if isinstance(n_users, bool) or not isinstance(n_users, int) or not 1 <= n_users <= 10**6:
        raise ValueError(f"n_users = {n_users!r} is not allowed; it must be a whole number from 1 to 1000000")
    rng = random.Random(seed)

    def clicked_rank(results):
        for rank, doc in enumerate(results, start=1):
            if rng.random() < (2 ** grades.get(doc, 0) - 1) / 2 ** g_max:
                return rank
        return None

    inter = {"A": 0, "B": 0, _TIE: 0}
    rounds = (len(set(a) | set(b)) + 1) // 2
    for _ in range(n_users):
        merged = team_draft(a, b, [rng.choice("AB") for _ in range(rounds)]) if method == "team_draft" else \
            balanced(a, b, rng.choice("AB"))
        inter[merged.winner(clicked_rank(merged.results), a, b)] += 1
    ab = {"A": sum(clicked_rank(a) is not None for _ in range(n_users // 2)),
          "B": sum(clicked_rank(b) is not None for _ in range(n_users - n_users // 2))}
    return {"interleaving": inter, "ab": ab}


__all__ = ["team_draft", "balanced", "Interleaving", "interleaving_preference", "click_rate", "users_needed",
           "UsersNeeded", "simulate", "METHODS"]
