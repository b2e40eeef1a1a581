"""Several metrics on the same rankings: side by side, one swap at a time, and how often they agree.

A :class:`MetricSuite` is a named set of metric calls (``{"AP": ("average_precision",
{"threshold": 2})}``) taken from the one registry (:mod:`.registry`). It evaluates a ranking of
grades under every metric, prints a table of several rankings, the change each swap makes, and a
Kendall-style agreement table: over every pair of rankings, the share of pairs that two metrics
order the same way (:func:`agreement`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import sympy

from ..core.i18n import N_
from ..core.table import Table
from .registry import lookup

#: Values closer than this count as equal when two rankings are compared. Exact NDCGs are sums of
#: logarithms whose equality SymPy cannot always decide, so the comparison uses the floats (derived
#: from the exact values); two distinct values of a six-item ranking differ by far more than this.
TIE_TOLERANCE = 1e-12


@dataclass(frozen=True)
class Agreement:
    """How two metrics order the pairs of a set of rankings.

    ``agree`` + ``disagree`` pairs are ordered by both metrics (``decided``); ``tied`` pairs are
    tied by at least one of them and left out of :attr:`share`.
    """

    agree: int
    disagree: int
    tied: int

    @property
    def decided(self) -> int:
        """Pairs that neither metric ties."""
        return self.agree + self.disagree

    @property
    def share(self):
        """agree / decided as a SymPy Rational (``None`` if every pair is tied)."""
        return None if self.decided == 0 else sympy.Rational(self.agree, self.decided)


def _sign(a: float, b: float) -> int:
    difference = a - b
    if abs(difference) <= TIE_TOLERANCE:
        return 0
    return 1 if difference > 0 else -1


def agreement(first, second) -> Agreement:
    """Over every pair of items, whether two lists of values order the pair the same way.

    Parameters
    ----------
    first, second : sequence of numbers
        Two metrics' values on the same rankings, in the same order. Values within
        :data:`TIE_TOLERANCE` of each other count as a tie.

    Returns
    -------
    Agreement
        Pairs ordered the same way (``agree``), the opposite way (``disagree``), and tied by
        either metric (``tied``). Kendall's tau-a over the decided pairs is
        (agree − disagree) / decided.

    Examples
    --------
    Three rankings scored 1, 2, 3 by one metric and 1, 3, 2 by another: the pairs (1st, 2nd) and
    (1st, 3rd) go the same way, (2nd, 3rd) the other way, so 2 of 3 pairs agree.

    >>> result = agreement([1, 2, 3], [1, 3, 2])
    >>> result.agree, result.disagree, result.tied, result.share
    (2, 1, 0, 2/3)

    A tie on either side leaves the pair out: values 1, 1, 2 against 1, 2, 3 decide 2 pairs.

    >>> agreement([1, 1, 2], [1, 2, 3])
    Agreement(agree=2, disagree=0, tied=1)
    """
    first, second = [float(v) for v in first], [float(v) for v in second]
    if len(first) != len(second):
        raise ValueError(f"first and second must have the same length; got {len(first)} and {len(second)}")
    agree = disagree = tied = 0
    for i, j in itertools.combinations(range(len(first)), 2):
        a, b = _sign(first[i], first[j]), _sign(second[i], second[j])
        if a == 0 or b == 0:
            tied += 1
        elif a == b:
            agree += 1
        else:
            disagree += 1
    return Agreement(agree, disagree, tied)


def _percent(share) -> str:
    return "–" if share is None else f"{float(share):.0%}"


class MetricSuite:
    """Named metric calls applied together to rankings of grades.

    Parameters
    ----------
    metrics : dict
        ``{label: (registry name, keywords)}``, e.g. ``{"P@3": ("precision_at_k", {"k": 3,
        "threshold": 2})}``; each name is looked up in ``lt.METRICS`` (aliases work) and called
        as ``func(grades, **keywords)``.

    Examples
    --------
    Grades 0, 2, 1 with relevance at grade >= 2: the first relevant item is at rank 2
    (RR = 1/2), one of the top 2 is relevant (P@2 = 1/2), and AP = (1/2) / 1 = 1/2.

    >>> suite = MetricSuite({"RR": ("reciprocal_rank", {"threshold": 2}),
    ...                      "P@2": ("precision_at_k", {"k": 2, "threshold": 2}),
    ...                      "AP": ("average_precision", {"threshold": 2})})
    >>> {label: ex.exact for label, ex in suite.evaluate([0, 2, 1]).items()}
    {'RR': 1/2, 'P@2': 1/2, 'AP': 1/2}
    """

    def __init__(self, metrics):
        if not isinstance(metrics, dict) or not metrics:
            raise ValueError(f"metrics must be a non-empty dict {{label: (metric name, keywords)}}; got {metrics!r}")
        self._calls = {}
        for label, spec in metrics.items():
            if not isinstance(spec, (tuple, list)) or len(spec) != 2 or not isinstance(spec[1], dict):
                raise ValueError(f"metrics[{label!r}] must be a pair (metric name, keywords dict); got {spec!r}")
            info = lookup(spec[0])
            unknown = [key for key in spec[1] if key not in info.options]
            if unknown:
                raise ValueError(f"metrics[{label!r}]: {info.name!r} takes the keywords {', '.join(info.options)}; "
                                 f"got {unknown[0]}=")
            self._calls[label] = (info, dict(spec[1]))

    @property
    def labels(self) -> tuple:
        """The metrics' labels, in the order given."""
        return tuple(self._calls)

    def evaluate(self, grades) -> dict:
        """``{label: Explanation}`` for one ranking of grades (rank 1 first)."""
        return {label: info.func(list(grades), **kwargs) for label, (info, kwargs) in self._calls.items()}

    def values(self, rankings) -> dict:
        """``{ranking name: {label: Explanation}}`` for a dict of rankings."""
        return {name: self.evaluate(grades) for name, grades in rankings.items()}

    def table(self, rankings) -> Table:
        """One row per ranking: its grades and every metric's value (six decimals).

        Examples
        --------
        A's first hit is at rank 1 (RR = 1), B's at rank 2 (RR = 1/2); each has one hit in its top 2
        (P@2 = 1/2).

        >>> suite = MetricSuite({"RR": ("reciprocal_rank", {}), "P@2": ("precision_at_k", {"k": 2})})
        >>> print(suite.table({"A": [1, 0, 0], "B": [0, 1, 1]}))
        ranking  grades      RR  P@2
        -------  ---------  ---  ---
        A        [1, 0, 0]    1  0.5
        B        [0, 1, 1]  0.5  0.5
        """
        rows = []
        for name, results in self.values(rankings).items():
            rows.append((name, str(list(rankings[name])), *(results[label].decimal_str for label in self.labels)))
        return Table((N_("ranking"), N_("grades"), *self.labels), tuple(rows), left=2)

    def places(self, rankings) -> dict:
        """Each metric's order of the rankings, best first; tied rankings share a place (``"B > A = C"``).

        Examples
        --------
        RR of [1, 0], [0, 1], [1, 1] is 1, 1/2, 1: A and C tie for first.

        >>> MetricSuite({"RR": ("reciprocal_rank", {})}).places({"A": [1, 0], "B": [0, 1], "C": [1, 1]})
        {'RR': 'A = C > B'}
        """
        results = self.values(rankings)
        out = {}
        for label in self.labels:
            levels = []
            for name in rankings:
                value = results[name][label].value
                for level in levels:
                    if _sign(level[0], value) == 0:
                        level[1].append(name)
                        break
                else:
                    levels.append((value, [name]))
            levels.sort(key=lambda level: -level[0])
            out[label] = " > ".join(" = ".join(names) for _, names in levels)
        return out

    def swaps(self, grades, swaps) -> Table:
        """The change in every metric when two ranks of ``grades`` are exchanged, one swap at a time.

        Parameters
        ----------
        grades : sequence
            The starting ranking.
        swaps : dict
            ``{label: (i, j)}``: exchange positions ``i`` and ``j`` (0 is rank 1).

        Returns
        -------
        Table
            The value after minus the value before (4 decimals), ``·`` where the metric does not move.

        Examples
        --------
        Swapping ranks 1 and 2 of [0, 1, 0] brings the hit to the top: RR goes 1/2 -> 1 (+0.5),
        P@2 stays 1/2.

        >>> suite = MetricSuite({"RR": ("reciprocal_rank", {}), "P@2": ("precision_at_k", {"k": 2})})
        >>> print(suite.swaps([0, 1, 0], {"ranks 1 and 2": (0, 1)}))
        swap                 RR  P@2
        -------------  -------  ---
        ranks 1 and 2  +0.5000    ·
        """
        grades = list(grades)
        before = self.evaluate(grades)
        rows = []
        for label, pair in swaps.items():
            if (not isinstance(pair, (tuple, list)) or len(pair) != 2
                    or not all(isinstance(p, int) and 0 <= p < len(grades) for p in pair)):
                raise ValueError(f"swaps[{label!r}] = {pair!r} must be two positions 0..{len(grades) - 1}")
            i, j = pair
            swapped = list(grades)
            swapped[i], swapped[j] = swapped[j], swapped[i]
            after = self.evaluate(swapped)
            cells = []
            for metric in self.labels:
                change = after[metric].value - before[metric].value
                cells.append("·" if abs(change) <= TIE_TOLERANCE else f"{change:+.4f}")
            rows.append((label, *cells))
        return Table((N_("swap"), *self.labels), tuple(rows))

    def agreement(self, rankings) -> Table:
        """Share of the pairs of ``rankings`` that two metrics order the same way (ties left out).

        ``rankings`` is a list of grade lists (or a dict, whose values are used). Row ``m1``,
        column ``m2`` is :func:`agreement` of the two metrics' values, as a percentage.

        Examples
        --------
        Over the three rankings [1, 0], [0, 1], [1, 1], RR gives 1, 1/2, 1 and P@1 gives 1, 0, 1:
        the two pairs they decide ((1st, 2nd) and (2nd, 3rd)) go the same way.

        >>> suite = MetricSuite({"RR": ("reciprocal_rank", {}), "P@1": ("precision_at_k", {"k": 1})})
        >>> print(suite.agreement([[1, 0], [0, 1], [1, 1]]))
                RR   P@1
        ---  ----  ----
        RR   100%  100%
        P@1  100%  100%
        """
        columns = self._columns(rankings)
        rows = tuple((m1, *(_percent(agreement(columns[m1], columns[m2]).share) for m2 in self.labels))
                     for m1 in self.labels)
        return Table(("", *self.labels), rows)

    def ties(self, rankings) -> Table:
        """Per metric, the share of the pairs of ``rankings`` it scores as a tie (cannot separate).

        Examples
        --------
        RR of [1, 0], [0, 1], [1, 1] is 1, 1/2, 1: one of the three pairs is tied.

        >>> print(MetricSuite({"RR": ("reciprocal_rank", {})}).ties([[1, 0], [0, 1], [1, 1]]))
        metric  tied pairs  share
        ------  ----------  -----
        RR             1/3    33%
        """
        columns = self._columns(rankings)
        rows = []
        for label in self.labels:
            values = columns[label]
            pairs = len(values) * (len(values) - 1) // 2
            tied = sum(1 for a, b in itertools.combinations(values, 2) if _sign(a, b) == 0)
            rows.append((label, f"{tied}/{pairs}", _percent(sympy.Rational(tied, pairs) if pairs else None)))
        return Table((N_("metric"), N_("tied pairs"), N_("share")), tuple(rows))

    def _columns(self, rankings) -> dict:
        rankings = list(rankings.values()) if isinstance(rankings, dict) else list(rankings)
        if len(rankings) < 2:
            raise ValueError(f"rankings must hold at least two rankings to form a pair; got {len(rankings)}")
        results = [self.evaluate(grades) for grades in rankings]
        return {label: [r[label].value for r in results] for label in self.labels}

    def line(self, grades, label: str = "") -> str:
        """One line: the grades, each metric's decimal (10 columns wide) and a label."""
        results = self.evaluate(grades)
        cells = "".join(f"{results[m].decimal_str:>10}" for m in self.labels)
        return f"{list(grades)!s:<20}{cells}   {label}".rstrip()

    def header(self) -> str:
        """The column titles of :meth:`line`."""
        return f"{'grades':<20}" + "".join(f"{m:>10}" for m in self.labels)

    def __repr__(self) -> str:
        calls = ", ".join(f"{label}={info.name}({', '.join(f'{k}={v!r}' for k, v in kwargs.items())})"
                          for label, (info, kwargs) in self._calls.items())
        return f"<MetricSuite {calls}>"


__all__ = ["Agreement", "MetricSuite", "TIE_TOLERANCE", "agreement"]
