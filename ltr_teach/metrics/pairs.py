"""Pairs: from AUC to learning to rank.

- :func:`misordered_pairs`: the share of pairs (a better and a worse item) that the scores put in the
  wrong order, ties worth 1/2; with 0/1 labels it is exactly 1 − AUC. Beside it, RankNet's pairwise
  logistic loss, the smooth surrogate that a learner can follow downhill.
- :func:`swap_deltas`: LambdaRank's swap weights, ``|ΔNDCG|`` for exchanging the items at ranks i and j
  (Burges 2010, "From RankNet to LambdaRank to LambdaMART: An Overview", which post 000 cites).
"""

from __future__ import annotations

import html
import math
from collections import Counter

import sympy
from sympy import Integer, Rational

from ..core.exact import fmt_decimal, fmt_value, to_exact, to_float
from ..core.explanation import Column, Explanation
from ..core.i18n import N_, Message, _
from ..core.table import aligned_lines
from ..core.validate import as_grades, as_sequence
from .gains import as_discount, as_gain
from .graded import ndcg

#: Up to this many pairs the RankNet column holds exact ``log(1 + exp(-lead))``; beyond, floats.
EXACT_LOGISTIC_PAIRS = 1000
#: The most pairs :func:`misordered_pairs` tabulates (one row each; 5,000 pairs print in about 1.5 s).
MAX_PAIRS = 5000


def misordered_pairs(grades, scores) -> Explanation:
    """The share of pairs the scores misorder, and RankNet's pairwise logistic loss.

    A pair is two items whose grades differ; the scores misorder it when the worse item scores higher
    (a tie counts 1/2). With 0/1 labels the pairs are exactly the positive–negative pairs of AUC, so
    the share is 1 − AUC. The count is piecewise constant in the scores, so a learner gets no gradient
    from it; RankNet replaces each pair's 0/1 by :math:`\\ln(1 + e^{-(s_i - s_j)})` (i the better
    item), which is smooth and shrinks as the better item's lead grows.

    Parameters
    ----------
    grades : sequence of non-negative numbers
        Each item's grade (0/1 labels work too); at least one pair must differ.
    scores : sequence of numbers
        The model's score for each item, one per grade.

    Returns
    -------
    Explanation
        ``.exact`` is the misordered share, a fraction; ``.steps`` has one row per pair (better item
        first): the two items, their scores, ``misordered`` (0, 1/2 or 1) and the ``logistic`` loss
        (exact, ``log(1 + exp(...))``, up to :data:`EXACT_LOGISTIC_PAIRS` pairs; a float beyond);
        ``.params["logistic_loss"]`` is the mean logistic loss.

    Examples
    --------
    Labels 1, 0, 1, 0 scored 0.9, 0.8, 0.8, 0.1: pairs (1,2) right, (1,4) right, (3,2) tied (1/2),
    (3,4) right. Misordered: 1/2 of 4 pairs = 1/8, and AUC = 7/8.

    >>> import ltr_teach as lt
    >>> lt.misordered_pairs([1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1]).exact
    1/8
    """
    grades = as_grades(grades, "grades")
    scores = as_sequence(scores, "scores")
    if len(grades) != len(scores):
        raise ValueError(f"grades and scores must have the same length; got {len(grades)} grades and "
                         f"{len(scores)} scores")
    scores = [to_exact(s, f"scores[{i}]") for i, s in enumerate(scores)]
    rows, wrong, loss_sum = [], Integer(0), 0.0
    order = sorted(range(len(grades)), key=lambda i: -grades[i])
    counts = Counter(grades)
    n_pairs = (len(grades) ** 2 - sum(c * c for c in counts.values())) // 2
    if n_pairs > MAX_PAIRS:
        raise ValueError(f"grades make {n_pairs} pairs of a better and a worse item; misordered_pairs shows one exact "
                         f"row per pair, at most {MAX_PAIRS} (about 100 items; answers within 2 s): for the share "
                         "alone of a longer list use lt.auc (0/1 labels) or lt.evaluate")
    exact_loss = n_pairs <= EXACT_LOGISTIC_PAIRS
    for a in order:
        for b in range(len(grades)):
            if grades[a] <= grades[b]:
                continue
            lead = scores[a] - scores[b]
            miss = Integer(1) if lead < 0 else Rational(1, 2) if lead == 0 else Integer(0)
            x = float(lead)
            loss = math.log1p(math.exp(-x)) if x >= 0 else -x + math.log1p(math.exp(x))
            # exact log(1 + e^-lead) for a small table; beyond EXACT_LOGISTIC_PAIRS pairs a float (building 20,000
            # SymPy logarithms took 35 s, and the column shows decimals either way)
            logistic = sympy.log(1 + sympy.exp(-lead)) if exact_loss else sympy.Float(loss)
            wrong += miss
            loss_sum += loss
            rows.append({"better": a + 1, "worse": b + 1, "s_better": scores[a], "s_worse": scores[b],
                         "misordered": miss, "logistic": logistic, "count": wrong})
    if not rows:
        raise ValueError(f"grades = {list(grades)} are all equal: there is no pair of a better and a worse item")
    return Explanation(
        metric="misordered_pairs", name=_("misordered pairs"), exact=wrong / len(rows),
        columns=(Column("better", "better #"), Column("worse", "worse #"),
                 Column("s_better", "s better"), Column("s_worse", "s worse"),
                 Column("misordered", "misordered"), Column("logistic", "RankNet loss", exact=False),
                 Column("count", "so far")),
        steps=tuple(rows), params={"pairs": len(rows), "logistic_loss": loss_sum / len(rows)},
        formula=r"\frac{\#\{(i,j): g_i > g_j,\ s_i < s_j\} + \tfrac12\,\#\{(i,j): g_i > g_j,\ s_i = s_j\}}"
                r"{\#\{(i,j): g_i > g_j\}}",
        substitution=r"\frac{%s}{%d}" % (sympy.latex(wrong), len(rows)),
        notes=(Message(N_("mean RankNet loss over the {n} pairs ≈ {loss}"), n=len(rows),
                       loss=fmt_value(loss_sum / len(rows))),),
    )


class SwapDeltas:
    """The ``|ΔNDCG|`` of swapping the items at every two ranks: LambdaRank's swap weights.

    Attributes
    ----------
    grades : tuple
        The ranking's grades, rank 1 first.
    matrix : tuple of tuple
        ``matrix[i][j]``: the exact ``|ΔNDCG|`` of swapping ranks i+1 and j+1 (symmetric, 0 on the
        diagonal and between equal grades).
    ndcg : Explanation
        The ranking's NDCG under the same settings.
    """

    def __init__(self, grades, matrix, ndcg_ex, values=None):
        # matrix: the exact tuple of tuples, or a function building it (built on first use of .matrix: 40,000
        # exact quotients of logs take half a minute at 200 items; the table and .values use the floats)
        self.grades, self._matrix, self.ndcg = tuple(grades), matrix, ndcg_ex
        self._values = values

    @property
    def matrix(self) -> tuple:
        """The exact ``|ΔNDCG|`` of every swap (built on first use)."""
        if callable(self._matrix):
            self._matrix = self._matrix()
        return self._matrix

    @property
    def values(self) -> list:
        """The matrix as floats (computed in floats from the gains, discounts and IDCG: each the exact value
        rounded, within a few units in the last place)."""
        if self._values is None:
            self._values = [[to_float(x) for x in row] for row in self.matrix]
        return [list(row) for row in self._values]

    def largest(self) -> tuple:
        """``(i, j)``, 1-based ranks with i < j, of the swap that changes NDCG most (the first such pair, by the
        floats)."""
        values = self.values
        n = len(self.grades)
        pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
        i, j = max(pairs, key=lambda p: (values[p[0]][p[1]], -p[0], -p[1]))
        return i + 1, j + 1

    def _cells(self) -> tuple:
        header = [_("rank (grade)")] + [f"{j + 1} ({g})" for j, g in enumerate(self.grades)]
        rows = [[f"{i + 1} ({g})"] + ["·" if i == j else fmt_decimal(x, 3) for j, x in enumerate(row)]
                for i, (g, row) in enumerate(zip(self.grades, self.values))]
        return header, rows

    def __str__(self) -> str:
        header, rows = self._cells()
        return "\n".join([self._ndcg_line(), ""] + aligned_lines(header, rows, left=1))

    def _ndcg_line(self) -> str:
        """The NDCG's decimal (its exact form is a long quotient of logs)."""
        return f"{self.ndcg.name} ≈ {self.ndcg.decimal_str}"

    def __repr__(self) -> str:
        return f"<SwapDeltas {list(self.grades)}: largest |ΔNDCG| at ranks {self.largest()}>"

    def _repr_html_(self) -> str:
        header, rows = self._cells()
        values = self.values
        top = max((x for row in values for x in row), default=0.0) or 1.0
        cells = []
        for i, row in enumerate(values):
            tds = [f"<th style='padding:2px 8px;text-align:right'>{html.escape(rows[i][0])}</th>"]
            for j, x in enumerate(row):
                # a grey scale (no hue): darker = larger weight; the number is always printed beside it
                shade = 255 - int(160 * x / top)
                tds.append(f"<td style='padding:2px 8px;text-align:right;background:rgb({shade},{shade},{shade});"
                           f"color:{'#fff' if shade < 150 else '#000'}'>{html.escape(rows[i][j + 1])}</td>")
            cells.append("<tr>" + "".join(tds) + "</tr>")
        head = "".join(f"<th style='padding:2px 8px;text-align:right'>{html.escape(h)}</th>" for h in header)
        caption = html.escape(_("|ΔNDCG| of swapping the items at two ranks (darker = larger)"))
        return (f"<div class='ltr-swap-deltas'><p><b>{html.escape(self._ndcg_line())}</b></p>"
                f"<table style='border-collapse:collapse' aria-label='{caption}'><caption>{caption}</caption>"
                f"<tr>{head}</tr>{''.join(cells)}</table></div>")


#: Up to this many items :func:`swap_deltas` builds its exact matrix at once; beyond, on first use of ``.matrix``
#: (the table, ``.values`` and ``.largest()`` use floats computed from the gains, the discounts and IDCG).
EXACT_SWAP_ITEMS = 30
#: The most items :func:`swap_deltas` takes: its table has n × n cells (200 items: 40,000 cells in about 0.4 s).
MAX_SWAP_ITEMS = 200


def swap_deltas(grades, k=None, gain="exp2", discount="log2") -> SwapDeltas:
    """LambdaRank's swap weights: ``|ΔNDCG|`` for swapping the items at ranks i and j, for every pair.

    NDCG changes only when two items cross, so its gradient in the scores is zero almost everywhere.
    LambdaRank (Burges 2010) keeps RankNet's pairwise gradient and multiplies each pair's by how much
    NDCG would change if the two items swapped places:

    .. math:: |\\Delta\\mathrm{NDCG}_{ij}| = \\frac{|G_i - G_j|\\,\\bigl|\\frac{1}{D_i} - \\frac{1}{D_j}\\bigr|}{\\mathrm{IDCG}}

    with :math:`G` the gain of each item's grade and :math:`1/D` the discount of its rank (0 beyond
    ``k``). Swapping only the two items leaves every other rank's contribution unchanged, which is why
    only their gains and discounts appear.

    Parameters
    ----------
    grades : sequence of non-negative numbers
        Graded relevance in ranked order.
    k : int >= 1, optional
        NDCG@k: ranks beyond k have discount 0 (swaps among them change nothing).
    gain, discount : str
        As in :func:`~ltr_teach.metrics.graded.ndcg`.

    Returns
    -------
    SwapDeltas
        ``.matrix`` exact, ``.values`` floats, ``.ndcg`` the ranking's NDCG, ``.largest()`` the pair
        with the largest weight; prints as a table, shows as a grey-scale heat map in a notebook.

    Raises
    ------
    ValueError
        As :func:`~ltr_teach.metrics.graded.ndcg` for bad grades; also when every grade is 0 (IDCG = 0:
        no swap can change anything and the weights are undefined).

    Examples
    --------
    Grades 0, 1 (exponential gain, log2 discount): NDCG = (1/log2 3) / 1; swapped, the ranking is ideal,
    NDCG = 1. So ``|ΔNDCG|`` = 1 − 1/log2(3) ≈ 0.369.

    >>> import ltr_teach as lt
    >>> sd = lt.swap_deltas([0, 1])
    >>> sd.matrix[0][1]
    1 - 1/log2(3)
    >>> f"{sd.values[0][1]:.6f}"
    '0.369070'
    """
    grades = as_sequence(grades, "grades")
    if len(grades) > MAX_SWAP_ITEMS:
        raise ValueError(f"grades has {len(grades)} items; swap_deltas prints an n × n table, at most "
                         f"{MAX_SWAP_ITEMS} items (answers within 2 s)")
    ex = ndcg(grades, k=k, gain=gain, discount=discount)
    idcg = ex.parts["idcg"].exact
    if idcg == 0:
        raise ValueError(f"grades = {list(grades)} have no gain (IDCG = 0): NDCG is undefined and no swap changes "
                         "it, so there are no swap weights")
    g = as_gain(gain)
    d = as_discount(discount)
    values = as_grades(grades, "grades", integer=g.integer_grades)
    cut = len(values) if k is None else min(k, len(values))
    gains = [g.exact(x) for x in values]
    weights = [1 / d.exact(i + 1) if i < cut else Integer(0) for i in range(len(values))]
    n = len(values)

    def delta(i, j):  # i < j: the discount never grows with the rank, so weights[i] - weights[j] >= 0
        if gains[i] == gains[j] or weights[i] == weights[j]:
            return Integer(0)
        value = abs(gains[i] - gains[j]) * (weights[i] - weights[j]) / idcg
        return sympy.expand(value) if idcg.is_Rational else value

    def matrix():
        upper = {(i, j): delta(i, j) for i in range(n) for j in range(i + 1, n)}
        return tuple(tuple(Integer(0) if i == j else upper[min(i, j), max(i, j)] for j in range(n)) for i in range(n))

    # the floats from float gains, discounts and IDCG (NumPy, n^2 cells in microseconds; imported here, as
    # misordered_pairs and the exercises that use it need no NumPy: issue 21)
    import numpy as np

    g_f = np.array([to_float(x) for x in gains])
    w_f = np.array([to_float(x) for x in weights])
    floats = np.abs(g_f[:, None] - g_f[None, :]) * np.abs(w_f[:, None] - w_f[None, :]) / to_float(idcg)
    same = (np.array(gains, dtype=object)[:, None] == np.array(gains, dtype=object)[None, :]) | \
        (np.array(weights, dtype=object)[:, None] == np.array(weights, dtype=object)[None, :])
    floats[same] = 0.0  # equal gains or equal discounts: exactly 0, as the exact matrix says
    return SwapDeltas(values, matrix if n > EXACT_SWAP_ITEMS else matrix(), ex, floats.tolist())


__all__ = ["misordered_pairs", "swap_deltas", "SwapDeltas"]
