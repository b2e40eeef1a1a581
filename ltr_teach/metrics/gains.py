"""Gains and discounts of DCG, each defined once: its exact form and its NumPy form side by side.

The exact library (``lt.dcg``, ``lt.ndcg``) calls :meth:`Gain.exact` and :meth:`Discount.exact`
on SymPy numbers; the bulk evaluator (``lt.evaluate``) calls :meth:`Gain.array` and
:meth:`Discount.array` on NumPy arrays. Both forms live in one entry, so the two paths cannot
drift; ``tests/test_gains.py`` checks that they agree on many values.

A per-grade gain table (trec_eval's ``-m ndcg.1=3,2=9``, ir_measures' ``nDCG(gains={...})``) is a
:class:`Gain` too: :func:`gain_table` builds one.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from ..core.i18n import N_
from ..core.validate import to_exact


# SymPy is imported on first use, not with this module (to_exact, from validate, likewise): the float path of
# whole runs (lt.evaluate, ltr-teach eval) reads the NumPy forms below and never needs an exact number
# (SymPy's import is about 0.2 s of every `ltr-teach eval`).
def Integer(n):
    from sympy import Integer as integer
    return integer(n)


def Rational(p, q=1):
    from sympy import Rational as rational
    return rational(p, q)


def ln(x):
    from ..core.exact import ln as exact_ln
    return exact_ln(x)


def log2(x):
    from ..core.exact import log2 as exact_log2
    return exact_log2(x)


class _NumPy:
    """NumPy, imported when a NumPy form first runs: the exact path (``lt.dcg``, the checker, ``ltr-teach
    check``) never needs it, and importing it costs a tenth of a second at start-up (issue 21)."""

    def __getattr__(self, name):
        import numpy

        globals()["np"] = numpy  # from now on the forms look NumPy up directly
        return getattr(numpy, name)


np = _NumPy()


def _whole(value) -> bool:
    """An ``int`` or a NumPy integer (which exists only once NumPy is imported: this does not import it)."""
    numpy = sys.modules.get("numpy")
    return isinstance(value, int) or (numpy is not None and isinstance(value, numpy.integer))


@dataclass(frozen=True)
class Gain:
    """How a grade becomes a gain.

    Attributes
    ----------
    name : str
        The key users pass as ``gain=``.
    description : str
        One line, shown in widget tooltips and error messages.
    latex : str
        The gain of rank i in LaTeX, in terms of ``rel_i``.
    integer_grades : bool
        Whether grades must be whole numbers (an exponent, or a table's keys).
    exact : callable
        SymPy number -> SymPy number.
    array : callable
        NumPy float array -> NumPy float array, the same function in floating point.
    table : dict or None
        For a per-grade table, ``{grade: gain}`` as given (other grades keep their own value).
    phrase : str
        The gain in a few words, as an exercise's prompt names it (``"gain 2^rel − 1"``).
    """

    name: str
    description: str
    latex: str
    integer_grades: bool
    exact: Callable
    array: Callable
    table: dict | None = field(default=None, compare=False)
    phrase: str = ""

    @property
    def fn(self) -> Callable:
        """The exact form (the name the metric modules and the checker use)."""
        return self.exact

    def __call__(self, grade):
        """The exact gain of ``grade``: ``lt.gain("exp2")(3)`` is 2^3 − 1 = 7.

        >>> GAINS["exp2"](3), GAINS["linear"](3), GAINS["binary"](3)
        (7, 3, 1)
        """
        return self.exact(to_exact(grade, "grade"))


@dataclass(frozen=True)
class Discount:
    """How the gain at rank i is discounted (the divisor at rank i).

    ``exact(i)`` takes a rank (a Python int >= 1) and returns a SymPy number; ``array(ranks)`` takes
    a float array of ranks and returns the divisors as floats; ``phrase`` names the discount in a few
    words, as an exercise's prompt does.
    """

    name: str
    description: str
    latex: str
    exact: Callable
    array: Callable
    phrase: str = ""

    @property
    def fn(self) -> Callable:
        """The exact form (the name the metric modules and the checker use)."""
        return self.exact

    def __call__(self, rank: int):
        """The exact divisor at ``rank`` (1, 2, ...): ``lt.discount("log2")(3)`` is log2(4) = 2.

        >>> DISCOUNTS["log2"](3), DISCOUNTS["jarvelin"](1)
        (2, 1)
        """
        if isinstance(rank, bool) or not isinstance(rank, int) or rank < 1:
            raise ValueError(f"rank = {rank!r} is not a rank; ranks are whole numbers 1, 2, ...")
        return self.exact(rank)


GAINS = {
    "exp2": Gain("exp2", N_("2^grade - 1 (Burges et al. 2005): a grade-3 item is worth 7, a grade-1 item 1"),
                 r"2^{rel_i}-1", True, lambda g: 2**g - 1, lambda g: np.exp2(g) - 1.0, phrase=N_("gain 2^rel − 1")),
    "linear": Gain("linear", N_("the grade itself (Järvelin & Kekäläinen 2002; trec_eval, scikit-learn)"),
                   r"rel_i", False, lambda g: g, lambda g: np.asarray(g, dtype=np.float64),
                   phrase=N_("linear gain (the grade itself)")),
    "binary": Gain("binary", N_("1 for any grade >= 1, else 0: relevant or not (RecBole, Microsoft Recommenders)"),
                   r"[rel_i \ge 1]", False, lambda g: Integer(1 if g >= 1 else 0),
                   lambda g: (np.asarray(g, dtype=np.float64) >= 1).astype(np.float64),
                   phrase=N_("binary gain (1 for any grade >= 1)")),
}

DISCOUNTS = {
    "log2": Discount("log2", N_("log2(i + 1): rank 1 divides by 1, rank 3 by 2, rank 7 by 3"),
                     r"\log_2(i+1)", lambda i: log2(Integer(i + 1)), lambda r: np.log2(r + 1.0),
                     phrase=N_("discount log2(i + 1)")),
    "ln": Discount("ln", N_("ln(i + 1), the natural log: every discount is log2's times ln 2 (NDCG is unchanged)"),
                   r"\ln(i+1)", lambda i: ln(Integer(i + 1)), lambda r: np.log(r + 1.0), phrase=N_("discount ln(i + 1)")),
    "jarvelin": Discount("jarvelin", N_("rank 1 undiscounted, then log2(i) (Järvelin & Kekäläinen 2002)"),
                         r"\max(1, \log_2 i)", lambda i: Integer(1) if i == 1 else log2(Integer(i)),
                         lambda r: np.where(r == 1, 1.0, np.log2(np.maximum(r, 1.0))),
                         phrase=N_("rank 1 undiscounted, then discount log2(i)")),
}


@dataclass(frozen=True)
class RankWeight:
    """The weight a metric gives rank i: what one unit of gain there is worth, rank 1 being worth 1.

    Each metric's weight is its model of a reader: DCG's 1/log2(i + 1) is a patient reader whose
    attention fades slowly; 1/i (reciprocal rank, and ERR's 1/r) one who values the first good
    result far above the rest; Järvelin & Kekäläinen's 1/max(1, log2 i) one who reads the top two
    results with equal care; RBP's p^(i-1) one who reads on to the next rank with probability p.
    ``exact(i, p)`` takes a rank (a Python int >= 1) and the persistence ``p`` (only the geometric
    weight uses it) and returns a SymPy number; the two DCG weights are 1 over :data:`DISCOUNTS`'
    divisors, so they cannot drift from what ``lt.dcg`` divides by.
    """

    name: str
    label: str
    metrics: str
    exact: Callable


RANK_WEIGHTS = {
    "log2": RankWeight("log2", N_("1/log2(i + 1)"), N_("DCG, NDCG"),
                       lambda i, p: 1 / DISCOUNTS["log2"].exact(i)),
    "jarvelin": RankWeight("jarvelin", N_("1/max(1, log2 i)"),
                           N_("Järvelin & Kekäläinen's DCG"), lambda i, p: 1 / DISCOUNTS["jarvelin"].exact(i)),
    "reciprocal": RankWeight("reciprocal", N_("1/i"), N_("reciprocal rank; ERR's 1/r"),
                             lambda i, p: Rational(1, i)),
    "geometric": RankWeight("geometric", N_("p^(i − 1)"), N_("RBP"),
                            lambda i, p: p ** (i - 1)),
}


def rank_weights(n: int, p) -> dict:
    """The exact weight of ranks 1..n under each of :data:`RANK_WEIGHTS`, rank 1 weighing 1 in all.

    Parameters
    ----------
    n : int >= 1
        How many ranks.
    p : number in (0, 1)
        The persistence of the geometric (RBP) weight; a decimal is read exactly (0.8 is 4/5).

    Returns
    -------
    dict
        ``{name: (w_1, ..., w_n)}`` in the order of :data:`RANK_WEIGHTS`, SymPy numbers.

    Examples
    --------
    Rank 3: log2(3 + 1) = 2, so DCG weighs it 1/2; Järvelin's divides by log2 3; 1/i gives 1/3;
    RBP with p = 4/5 reads rank 3 with probability (4/5)^2 = 16/25.

    >>> weights = rank_weights(3, p=0.8)
    >>> [str(weights[name][2]) for name in RANK_WEIGHTS]
    ['1/2', '1/log2(3)', '1/3', '16/25']

    Ranks 1 and 2 weigh the same under Järvelin's discount, which is why swapping them costs nothing:

    >>> rank_weights(2, p=0.8)["jarvelin"]
    (1, 1)
    """
    if isinstance(n, bool) or not _whole(n) or n < 1:
        raise ValueError(f"n must be a whole number of ranks >= 1; got {n!r}")
    persistence = to_exact(p, "p")
    if not 0 < persistence < 1:
        raise ValueError(f"p = {p} must lie strictly between 0 and 1 (the chance of reading on to the next rank)")
    return {name: tuple(w.exact(i, persistence) for i in range(1, int(n) + 1)) for name, w in RANK_WEIGHTS.items()}


def gain_table(gains) -> Gain:
    """A per-grade gain: ``{grade: gain}``; a grade not listed keeps its own value (trec_eval's rule).

    trec_eval's ``-m ndcg.1=3.5,2=9`` gives grade 1 gain 3.5, grade 2 gain 9 and grade 3 gain 3
    (m_ndcg.c, ``setup_gains``); ir_measures' ``nDCG(gains={0: 0, 1: 1, 2: 3})`` is the same table.

    Parameters
    ----------
    gains : mapping of int -> number >= 0, or a string ``"1=3,2=9"``
        Grades (whole numbers >= 0) and their gains.

    Returns
    -------
    Gain
        ``integer_grades`` is true: a table is looked up by whole grades.

    Examples
    --------
    >>> g = gain_table({1: 3, 2: 9})
    >>> g.name, [g.exact(x) for x in (0, 1, 2, 3)]
    ('table(1=3,2=9)', [0, 3, 9, 3])
    >>> g.array(np.array([0.0, 1.0, 2.0, 3.0])).tolist()
    [0.0, 3.0, 9.0, 3.0]
    """
    if isinstance(gains, str):
        gains = _parse_table(gains)
    if not isinstance(gains, Mapping) or not gains:
        raise ValueError(f"gains must map grades to gains, e.g. {{1: 3, 2: 9}} or '1=3,2=9'; got {gains!r}")
    table = {}
    for grade, value in gains.items():
        if isinstance(grade, bool) or not _whole(grade) or grade < 0:
            raise ValueError(f"gains: grade {grade!r} must be a whole number >= 0")
        exact = to_exact(value, f"gains[{grade}]")
        if exact < 0:
            raise ValueError(f"gains[{grade}] = {value!r} must be >= 0 (an ideal list cannot place a negative gain)")
        table[int(grade)] = exact
    keys = sorted(table)
    values = np.array([float(table[g]) for g in keys])
    key_array = np.array(keys, dtype=np.float64)

    def exact_gain(g):
        return table.get(int(g), g) if g == int(g) else g

    def array_gain(g):
        g = np.asarray(g, dtype=np.float64)
        at = np.searchsorted(key_array, g)
        at_clipped = np.minimum(at, len(keys) - 1)
        listed = key_array[at_clipped] == g
        return np.where(listed, values[at_clipped], g)

    text = ",".join(f"{g}={table[g]}" for g in keys)
    return Gain(f"table({text})", f"per-grade gains {text}; other grades keep their own value (trec_eval ndcg.{text})",
                r"\mathrm{gain}(rel_i)", True, exact_gain, array_gain, table=dict(table))


def _parse_table(text: str) -> dict:
    out = {}
    for piece in text.split(","):
        grade, sep, value = piece.partition("=")
        if not sep or not grade.strip().isdigit():
            raise ValueError(f"gains {text!r}: write grade=gain pairs separated by commas, e.g. 1=3,2=9")
        try:
            out[int(grade)] = float(value) if "." in value or "e" in value.lower() else int(value)
        except ValueError:
            raise ValueError(f"gains {text!r}: {value.strip()!r} is not a number") from None
    return out


def as_gain(gain) -> Gain:
    """A :class:`Gain` from a name of :data:`GAINS`, a :class:`Gain`, or a ``{grade: gain}`` table."""
    if isinstance(gain, Gain):
        return gain
    if isinstance(gain, Mapping):
        return gain_table(gain)
    if not isinstance(gain, str) or gain not in GAINS:
        names = ", ".join(repr(a) for a in GAINS)
        raise ValueError(f"gain must be one of {names}; got {gain!r}")
    return GAINS[gain]


def as_discount(discount) -> Discount:
    """A :class:`Discount` from a name of :data:`DISCOUNTS` (or the object itself)."""
    if isinstance(discount, Discount):
        return discount
    if not isinstance(discount, str) or discount not in DISCOUNTS:
        names = ", ".join(repr(a) for a in DISCOUNTS)
        raise ValueError(f"discount must be one of {names}; got {discount!r}")
    return DISCOUNTS[discount]


def gain(name) -> Gain:
    """The gain called ``name`` (a key of :data:`GAINS`, or a ``{grade: gain}`` table): call it on a grade.

    >>> import ltr_teach as lt
    >>> exp2 = lt.gain("exp2")
    >>> exp2(3), exp2(2), exp2(0)
    (7, 3, 0)
    >>> lt.gain("exponential")
    Traceback (most recent call last):
    ...
    ValueError: gain must be one of 'exp2', 'linear', 'binary'; got 'exponential'
    """
    return as_gain(name)


def discount(name) -> Discount:
    """The discount called ``name`` (a key of :data:`DISCOUNTS`): call it on a rank to get its divisor.

    >>> import ltr_teach as lt
    >>> log2_discount = lt.discount("log2")
    >>> [log2_discount(r) for r in (1, 3, 7)]
    [1, 2, 3]
    """
    return as_discount(name)


__all__ = ["Gain", "Discount", "gain", "discount", "GAINS", "DISCOUNTS", "RankWeight", "RANK_WEIGHTS", "rank_weights", "gain_table",
           "as_gain", "as_discount"]
