"""Interleaving's merges and the door of :mod:`ltr_teach.metrics.online`: team draft (Radlinski, Kurup & Joachims
2008, their Algorithm 2) and balanced interleaving (Joachims 2002), the checks of rankings, grades and click models,
and every coin outcome of a merge with its probability. The module's docstring there tells the rules."""

from __future__ import annotations

import itertools
import math
import numbers
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from ..core.plain import _brief
from ..core.validate import as_choice, to_exact

#: The most results one system's list may hold.
MAX_LIST = 20
#: The most different results two lists may hold together for an exact team-draft outcome: each coin round
#: shows two new results, so at most 2^10 = 1024 coin outcomes (rows), answered within about a second.
MAX_UNION = 20
#: The top grade (2^20 − 1 gains are still small exact numbers).
MAX_GRADE = 20
_TIE = "tie"


@dataclass(frozen=True)
class Interleaving:
    """One merged list: the results in order and, for each, the system it counts for (``"A"``, ``"B"``, ``"tie"``);
    ``coins`` are the coins the merge used (team draft: one per round; balanced: the first pick)."""

    results: tuple
    teams: tuple
    method: str
    coins: str = ""

    def winner(self, clicked_rank, ranking_a, ranking_b) -> str:
        """``"A"``, ``"B"`` or ``"tie"`` for one click at ``clicked_rank`` (1 to the list's length; None: no click)."""
        if clicked_rank is None:
            return _TIE
        if isinstance(clicked_rank, bool) or not isinstance(clicked_rank, numbers.Integral) \
                or not 1 <= clicked_rank <= len(self.results):
            raise ValueError(f"clicked_rank = {_brief(clicked_rank)} is not allowed; it must be a whole number from 1 "
                             f"to {len(self.results)} (the merged list's length), or None for no click")
        if self.method == "team_draft":
            return self.teams[int(clicked_rank) - 1]
        return _higher(self.results[int(clicked_rank) - 1], _check_ranking(ranking_a, "ranking_a"),
                       _check_ranking(ranking_b, "ranking_b"))


def _higher(doc, a: list, b: list) -> str:
    """The system that ranks ``doc`` higher (``"tie"`` when both rank it the same)."""
    in_a = a.index(doc) if doc in a else math.inf
    in_b = b.index(doc) if doc in b else math.inf
    return "A" if in_a < in_b else "B" if in_b < in_a else _TIE


# -- the door --------------------------------------------------------------------------------------------------
def _check_ranking(ranking, name: str) -> list:
    """The ids, read at most ``MAX_LIST + 1`` of them (an endless iterator is refused, never drained)."""
    if isinstance(ranking, (str, bytes, Mapping)) or not hasattr(ranking, "__iter__"):
        raise ValueError(f"{name} must be a list of result ids in ranked order; got {_brief(ranking)}")
    items = list(itertools.islice(iter(ranking), MAX_LIST + 1))
    if not items or len(items) > MAX_LIST:
        count = "more than" if len(items) > MAX_LIST else str(len(items))
        raise ValueError(f"{name} must hold 1 to {MAX_LIST} results; got {count}"
                         + (f" {MAX_LIST}" if len(items) > MAX_LIST else ""))
    ids = []
    for i, item in enumerate(items):
        if isinstance(item, bool) or not isinstance(item, (str, numbers.Integral)):
            raise ValueError(f"{name}[{i}] = {_brief(item)} is not allowed; a result id is a text or a whole number")
        ids.append(item if isinstance(item, str) else int(item))
    if len(set(ids)) < len(ids):
        raise ValueError(f"{name} lists a result twice: {ids}")
    return ids


def _check_rankings(ranking_a, ranking_b):
    return _check_ranking(ranking_a, "ranking_a"), _check_ranking(ranking_b, "ranking_b")


def _check_union(a: list, b: list) -> None:
    together = len(set(a) | set(b))
    if together > MAX_UNION:
        raise ValueError(f"ranking_a and ranking_b hold {together} different results together; an exact team-draft "
                         f"outcome allows at most {MAX_UNION} (at most 2^{MAX_UNION // 2} coin outcomes): shorten the "
                         "lists, or use method='balanced' (two merged lists whatever their length)")


def _check_grades(grades, g_max) -> tuple:
    """``{id: grade}`` with whole grades 0 to 20 (NumPy integers read as ints) and the scale's top grade."""
    if not isinstance(grades, Mapping):
        raise ValueError(f"grades must be a dict {{result: grade}}; got {_brief(grades)}")
    clean = {}
    for doc, g in grades.items():
        if isinstance(g, bool) or not isinstance(g, numbers.Integral) or not 0 <= g <= MAX_GRADE:
            raise ValueError(f"grades[{doc!r}] = {_brief(g)} is not allowed; grades are whole numbers from 0 to "
                             f"{MAX_GRADE}")
        clean[int(doc) if isinstance(doc, numbers.Integral) and not isinstance(doc, bool) else doc] = int(g)
    top = max(clean.values(), default=0)
    if g_max is None:
        g_max = max(1, top)  # all grades 0: nothing satisfies; any scale gives R = 0 for every result
    if isinstance(g_max, bool) or not isinstance(g_max, numbers.Integral) or not max(1, top) <= g_max <= MAX_GRADE:
        raise ValueError(f"g_max = {_brief(g_max)} is not allowed; it must be a whole number from the top grade "
                         f"({max(1, top)}) to {MAX_GRADE}")
    return clean, int(g_max)


def _probability(value, name: str) -> Fraction:
    exact = to_exact(value, name) if not isinstance(value, bool) else None
    if exact is None or not 0 <= exact <= 1:
        raise ValueError(f"{name} = {_brief(value)} is not allowed; it must be a probability from 0 to 1 (an int, a "
                         "float or a fraction)")
    return Fraction(int(exact.p), int(exact.q))


@dataclass(frozen=True)
class ClickModel:
    """A user: ``click[g]``, the chance to click a result of grade g when reading it, and ``keep_reading``, the
    chance to read on after a click (0: stop at the first click, the cascade model)."""

    click: Mapping
    keep_reading: Fraction
    cascade: bool
    grades: Mapping

    def probabilities(self, results) -> list:
        """Each result's click probability (an unjudged result has grade 0)."""
        return [self.click[self.grades.get(doc, 0)] for doc in results]


def _click_model(grades, g_max, click, keep_reading) -> ClickModel:
    grades, g_max = _check_grades(grades, g_max)
    keep = _probability(keep_reading, "keep_reading")
    used = set(grades.values()) | {0}
    if click is None:
        table = {g: Fraction(2 ** g - 1, 2 ** g_max) for g in used}
    else:
        if not isinstance(click, Mapping):
            raise ValueError(f"click must be a dict {{grade: probability of a click}}; got {_brief(click)}")
        table = {}
        for g in sorted(used):
            if g not in click:
                raise ValueError(f"click has no probability for grade {g} (used by grades, or an unjudged result); "
                                 f"it gives grades {sorted(k for k in click if isinstance(k, int))}")
            table[g] = _probability(click[g], f"click[{g}]")
    return ClickModel(click=table, keep_reading=keep, cascade=click is None, grades=grades)


def _rational(value: Fraction):
    from sympy import Rational

    return Rational(value.numerator, value.denominator)


# -- the merges ------------------------------------------------------------------------------------------------
class _OutOfCoins(Exception):
    pass


def _team_draft(a: list, b: list, coins) -> Interleaving:
    """Radlinski et al.'s Algorithm 2; ``coins`` an iterator, read only when the teams are even."""
    results, teams, shown, used = [], [], set(), []
    picks = {"A": 0, "B": 0}
    lists, position = {"A": a, "B": b}, {"A": 0, "B": 0}
    while True:
        for team in "AB":
            while position[team] < len(lists[team]) and lists[team][position[team]] in shown:
                position[team] += 1
        if position["A"] == len(a) or position["B"] == len(b):
            break
        if picks["A"] != picks["B"]:
            team = "A" if picks["A"] < picks["B"] else "B"
        else:
            coin = next(coins, None)
            if coin is None:
                raise _OutOfCoins(len(used))
            if coin not in ("A", "B"):
                raise ValueError(f"coins[{len(used)}] = {_brief(coin)} is not allowed; coins are 'A' or 'B'")
            used.append(coin)
            team = coin
        doc = lists[team][position[team]]
        results.append(doc)
        teams.append(team)
        shown.add(doc)
        picks[team] += 1
    return Interleaving(tuple(results), tuple(teams), "team_draft", "".join(used))


def team_draft(ranking_a, ranking_b, coins) -> Interleaving:
    """Team-draft interleaving (Radlinski et al. 2008) with the given coins: ``"A"`` or ``"B"``, who picks first in
    each round. The coins are read one per round as the merge needs them (an endless iterator is fine); the merge
    stops when either list has no result left that is not yet shown.

    Examples
    --------
    Round 1, A first: A adds a1, B adds s. Round 2, B first: B adds b2, A adds a3 (s is shown). A has nothing new
    left, so the merge stops: B's b3 is not shown, and the third coin is never read:

    >>> team_draft(["a1", "s", "a3"], ["s", "b2", "b3"], coins="ABA")
    Interleaving(results=('a1', 's', 'b2', 'a3'), teams=('A', 'B', 'B', 'A'), method='team_draft', coins='AB')
    """
    a, b = _check_rankings(ranking_a, ranking_b)
    if isinstance(coins, (bytes, Mapping)) or not hasattr(coins, "__iter__"):
        raise ValueError(f"coins must be a sequence of 'A' and 'B' (one per round); got {_brief(coins)}")
    try:
        return _team_draft(a, b, iter(coins))
    except _OutOfCoins as out:
        raise ValueError(f"coins ran out after {out.args[0]}: this merge needs one coin ('A' or 'B') per round, "
                         "more than were given") from None


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
    return _balanced(a, b, first)


def _balanced(a: list, b: list, first: str) -> Interleaving:
    results, shown, ka, kb = [], set(), 0, 0
    while ka < len(a) and kb < len(b):  # Joachims' loop: a turn whose result is already shown adds nothing
        if ka < kb or (ka == kb and first == "A"):
            doc, ka = a[ka], ka + 1
        else:
            doc, kb = b[kb], kb + 1
        if doc not in shown:
            results.append(doc)
            shown.add(doc)
    return Interleaving(tuple(results), tuple(_higher(d, a, b) for d in results), "balanced", first)


def _outcomes(method: str, a: list, b: list):
    """Every coin outcome of ``method`` with its probability: ``(Interleaving, probability)``; team draft tries
    each coin prefix and extends those that run out, so a merge that stops early is one outcome, not many."""
    if method == "balanced":
        return [(_balanced(a, b, first), Fraction(1, 2)) for first in "AB"]
    found, prefixes = [], [""]
    while prefixes:
        prefix = prefixes.pop()
        try:
            merged = _team_draft(a, b, iter(prefix))
        except _OutOfCoins:
            prefixes.extend((prefix + "B", prefix + "A"))
            continue
        found.append((merged, Fraction(1, 2 ** len(prefix))))
    return found


__all__ = ["Interleaving", "ClickModel", "team_draft", "balanced", "MAX_LIST", "MAX_UNION", "MAX_GRADE"]
