"""Check a student's answer against a metric and say what went wrong.

:func:`check` reads the answer with :mod:`ltr_teach.teaching.answers` (never as code), compares it with the
exact value, and when it is wrong recomputes the same metric under the usual mistakes, declared once
in the catalogue :data:`SLIPS`: each :class:`Slip` has a key, the metrics it applies to, its message,
and how to recompute it (keyword overrides of the same call, such as ``gain="linear"`` or
``discount="ln"``, or a recomputation: a sum for a mean, each term rounded, the posts' F formulas,
ERR with R_i where the cascade has 1 - R_i ...). The slip whose value matches the answer is named in
a sentence.

How answers are compared
------------------------
* A lone decimal (``0.944``, ``94.4%``) is right when the exact value rounds to it at the
  precision written (half a unit in its last place, either way); it needs at least three
  significant digits unless it is exactly the value (``0.5`` for 1/2).
* A decimal with 15 or more significant digits is right when it is the double nearest the exact
  value, within :data:`FLOAT_ULPS` units in the last place (``float(answer)`` and its repr).
* A decimal cut instead of rounded (``0.8666`` for 13/15) is right, with a note on rounding; it is
  never diagnosed as a slip.
* Anything else (``599/840``, ``7 + 3/log2(3)``) must be exactly the value. Rational values are
  compared as Rationals. Values with logarithms are compared at 50 significant digits: deciding
  symbolically that two log expressions are equal needs ``simplify``, which can be slow and is
  not guaranteed to decide; two different expressions built from the small numbers an answer can
  hold do not agree to 45 digits, so the numeric test is exact in practice and always fast.
* Every comparison starts with a float test, and slips are recomputed only up to
  :data:`MAX_DIAGNOSED_ITEMS` items and :data:`MAX_DIAGNOSED_GRADE`: the answer comes within 2 s.
"""

from __future__ import annotations

import html
import math
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction

import mpmath
import sympy
from sympy import Integer, Rational

from ..core.exact import ln, log2, to_float
from ..core.explanation import Explanation
from ..core.i18n import N_, _, translate, using_language
from ..metrics import binary, graded
from ..metrics.graded import DISCOUNTS, GAINS
from . import exercises
from .answers import EXAMPLES, RANKING_EXAMPLES, ParsedAnswer, UnreadableAnswer, parse_answer, parse_rankings
from .hints import GENERIC_HINTS, expected_text

_DIGITS = 50
MIN_SIGNIFICANT = 3


def _high(x) -> mpmath.mpf:
    """``x`` to 60 significant digits (the caller holds ``mpmath.workdps(60)`` or sets it here).

    Sums, products, whole powers, rationals and the exact logarithms are evaluated node by node in
    mpmath at 80 digits, so 60 correct digits survive the cancellation in a sum of a few hundred
    terms; SymPy's adaptive ``N`` takes seconds on the long sums of logs a 200-item NDCG holds.
    """
    with mpmath.workdps(_DIGITS + 30):
        try:
            value = _tree_mpf(x)
        except (TypeError, ValueError, ZeroDivisionError):
            value = mpmath.mpf(sympy.N(x, _DIGITS + 10))
    with mpmath.workdps(_DIGITS + 10):
        return +value


def _tree_mpf(e) -> mpmath.mpf:
    if isinstance(e, Rational):
        return mpmath.mpf(int(e.p)) / int(e.q)
    if isinstance(e, sympy.Add):
        return mpmath.fsum(_tree_mpf(a) for a in e.args)
    if isinstance(e, sympy.Mul):
        return mpmath.fprod(_tree_mpf(a) for a in e.args)
    if isinstance(e, sympy.Pow) and e.exp.is_Integer:
        return _tree_mpf(e.base) ** int(e.exp)
    if isinstance(e, (log2, ln, sympy.log)) and len(e.args) == 1 and e.args[0].is_Rational:
        arg = _tree_mpf(e.args[0])
        return mpmath.log(arg, 2) if isinstance(e, log2) else mpmath.log(arg)
    if e is sympy.E:
        return mpmath.e
    return mpmath.mpf(sympy.N(e, _DIGITS + 30))


def equal(a, b) -> bool:
    """Whether two exact values are equal: as Rationals, or to 50 significant digits with logs.

    Parameters
    ----------
    a, b : SymPy numbers
        Exact values (Rationals, or expressions with logarithms).

    Returns
    -------
    bool
        ``a == b`` for two Rationals; otherwise agreement to 50 significant digits, which no
        rounding slip reaches.

    Examples
    --------
    2/4 reduces to 1/2; log2(8) is 3, so log2(8)/3 is 1; 1/log2(3) = ln(2)/ln(3) by the change of base.

    >>> import sympy
    >>> from ltr_teach.core.exact import log2
    >>> equal(sympy.Rational(2, 4), sympy.Rational(1, 2)), equal(log2(8) / 3, sympy.Integer(1))
    (True, True)
    >>> equal(1 / log2(3), sympy.log(2) / sympy.log(3))
    True
    """
    if a.is_Rational and b.is_Rational:
        return a == b
    with mpmath.workdps(_DIGITS + 10):
        x, y = _high(a), _high(b)
        return abs(x - y) <= mpmath.mpf(10) ** (-(_DIGITS - 5)) * max(1, abs(y))


def rounds_to(value, answer: ParsedAnswer) -> bool:
    """Whether ``value`` rounds to the lone decimal ``answer`` at the precision it is written.

    Parameters
    ----------
    value : SymPy number
        The exact value.
    answer : ParsedAnswer
        A decimal as :func:`ltr_teach.teaching.answers.parse_answer` reads it.

    Returns
    -------
    bool
        Whether ``value`` lies within half a unit of the answer's last decimal.

    Examples
    --------
    599/840 = 0.713095...: written with 3 decimals it is 0.713 (off by 0.000095, under half of
    0.001), not 0.714.

    >>> import sympy
    >>> from ltr_teach.teaching.answers import parse_answer
    >>> rounds_to(sympy.Rational(599, 840), parse_answer("0.713"))
    True
    >>> rounds_to(sympy.Rational(599, 840), parse_answer("0.714"))
    False
    """
    if _far_apart(answer, value):  # a float test first: 50 digits of a long sum of logs take a while
        return False
    with mpmath.workdps(_DIGITS + 10):
        half_unit = mpmath.mpf(5) / mpmath.mpf(10) ** (answer.decimals + 1)
        written = mpmath.mpf(int(answer.value.p)) / int(answer.value.q)
        return abs(_high(value) - written) <= half_unit * (1 + mpmath.mpf(10) ** -30)


def _safe_float(value) -> float:
    """The float of an exact value; ±inf past the float range, NaN when it is undefined."""
    try:
        return to_float(value)
    except OverflowError:
        return math.copysign(math.inf, 1 if sympy.N(value, 15) > 0 else -1)
    except (ZeroDivisionError, ValueError, TypeError):
        return math.nan


def _far_apart(answer: ParsedAnswer, value) -> bool:
    """A quick float test that rules out most candidates before the 50-digit comparison."""
    x, y = _safe_float(answer.value), _safe_float(value)
    if not (math.isfinite(x) and math.isfinite(y)):
        return False
    slack = 1e-9 * max(1.0, abs(y)) + (10.0 ** -answer.decimals if answer.is_rounded else 0.0)
    return abs(x - y) > slack


def nearest_double(value) -> float:
    """The double nearest the exact value (correctly rounded from 40 significant digits).

    Examples
    --------
    13/15 = 0.8666...: its nearest double prints as 0.8666666666666667.

    >>> import sympy
    >>> nearest_double(sympy.Rational(13, 15))
    0.8666666666666667
    """
    if value.is_Rational:
        return float(Fraction(int(value.p), int(value.q)))
    return float(Fraction(mpmath.nstr(_high(value), 45, min_fixed=-mpmath.inf, max_fixed=mpmath.inf)))


#: How many units in the last place a float answer may be from the double nearest the exact value.
FLOAT_ULPS = 4


def is_the_double(answer: ParsedAnswer, value) -> bool:
    """Whether a lone decimal is ``value`` as a double: the nearest double (``float(answer)``, or its
    repr typed out), or within :data:`FLOAT_ULPS` units in its last place of it.

    A float has no more digits to give: ``0.8666666666666667`` is 13/15 as exactly as a double can
    hold it, although 13/15 rounds to ...6667 at 16 decimals only by luck of the last digit.

    Examples
    --------
    >>> import sympy
    >>> from ltr_teach.teaching.answers import parse_answer
    >>> is_the_double(parse_answer(repr(6 / 11)), sympy.Rational(6, 11))
    True
    """
    if not answer.is_rounded or answer.significant < 15:
        return False
    try:
        typed, nearest = float(Fraction(int(answer.value.p), int(answer.value.q))), nearest_double(value)
    except (OverflowError, ValueError, TypeError):
        return False
    # a float computation (the library's float path, NumPy) lands within a few units in the last place
    return abs(typed - nearest) <= FLOAT_ULPS * math.ulp(nearest)


def truncates_to(value, answer: ParsedAnswer) -> bool:
    """Whether the lone decimal ``answer`` is ``value`` cut (not rounded) at the decimals written.

    Examples
    --------
    13/15 = 0.866666...: cut after four decimals it is 0.8666; rounded it would be 0.8667.

    >>> import sympy
    >>> from ltr_teach.teaching.answers import parse_answer
    >>> truncates_to(sympy.Rational(13, 15), parse_answer("0.8666"))
    True
    >>> truncates_to(sympy.Rational(13, 15), parse_answer("0.8665"))
    False
    """
    if not answer.is_rounded:
        return False
    if value.is_Rational:  # exactly: a value such as 2/5 must not pass for 0.399999 by binary noise
        unit = Rational(1, 10**answer.decimals)
        gap = (value - answer.value) * (1 if answer.value >= 0 else -1)
        return bool(0 <= gap < unit)
    if _far_apart(answer, value):
        return False
    with mpmath.workdps(_DIGITS + 10):
        unit = mpmath.mpf(1) / mpmath.mpf(10) ** answer.decimals
        written = mpmath.mpf(int(answer.value.p)) / int(answer.value.q)
        gap = (_high(value) - written) * (1 if written >= 0 else -1)
        return 0 <= gap < unit


def matches(answer: ParsedAnswer, value) -> bool:
    """Whether ``answer`` states ``value``: exactly, or as a fine enough rounded decimal.

    Parameters
    ----------
    answer : ParsedAnswer
        What the student wrote, as :func:`ltr_teach.teaching.answers.parse_answer` reads it.
    value : SymPy number
        The exact value (``sympy.nan`` matches nothing).

    Returns
    -------
    bool
        ``True`` when the answer is exactly ``value``, or is a decimal of at least
        ``MIN_SIGNIFICANT`` (3) significant digits that ``value`` rounds to.

    Examples
    --------
    599/840 = 0.713095...: the fraction itself and 0.713 (3 significant digits) match; 0.7 has
    only one significant digit, too coarse to tell 599/840 from its neighbours.

    >>> import sympy
    >>> from ltr_teach.teaching.answers import parse_answer
    >>> value = sympy.Rational(599, 840)
    >>> [matches(parse_answer(text), value) for text in ("599/840", "0.713", "0.7")]
    [True, True, False]
    """
    if value is sympy.nan or _far_apart(answer, value):
        return False
    if equal(answer.value, value) or is_the_double(answer, value):
        return True
    return answer.is_rounded and answer.significant >= MIN_SIGNIFICANT and rounds_to(value, answer)


# -- mistakes -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Mistake:
    """A usual slip: the value it produces and the sentence that names it.

    Attributes
    ----------
    key : str
        Short name of the slip (``"gain"``, ``"shift"``, ``"k"``).
    value : SymPy number
        What a student who makes the slip gets.
    sentence : str
        The feedback that names the slip.

    Examples
    --------
    P@2 of 1, 0, 1 is 1/2; counting the top 3 instead gives 2/3:

    >>> import ltr_teach as lt
    >>> slip = mistakes(lt.precision_at_k([1, 0, 1], k=2), {"rels": [1, 0, 1]})[1]
    >>> slip.key, slip.value
    ('k', 2/3)
    """

    key: str
    value: object
    sentence: str


@dataclass(frozen=True)
class Slip:
    """One entry of the catalogue of usual slips (:data:`SLIPS`).

    A slip is either the same library call with some keyword arguments changed (``overrides``:
    ``{"gain": "linear"}``, ``{"discount": "ln"}``, ``{"k": k + 1}``), or a recomputation that is
    not a keyword of the call (``recompute``: a sum for a mean, each term rounded, the documents'
    F formulas ...).

    Attributes
    ----------
    key : str
        Short name of the slip, reported in :attr:`Feedback.mistakes`.
    metrics : tuple of str
        The metrics (``Explanation.metric``) the slip applies to.
    message : str or callable
        The sentence that names the slip: a template filled with the facts of the computation
        (``{k}``, ``{g_max}``, ``{n_rel}`` ... and what ``recompute`` returns), or a function of
        those facts.
    overrides : mapping or callable, optional
        Keyword arguments changed in the call that recomputes the exercise (see :func:`_rerun`); a
        callable gets the facts and returns a list of such mappings (one mistaken value each).
    recompute : callable, optional
        ``recompute(facts)`` returns a list of ``(value, extra facts)`` pairs.
    when : callable, optional
        ``when(facts)``: whether the slip can be made here at all.

    Examples
    --------
    The linear-gain slip on an NDCG with exponential gain is the same call with ``gain="linear"``:

    >>> slip = next(s for s in SLIPS if s.key == "gain" and "ndcg" in s.metrics)
    >>> slip.overrides({"gain": "exp2"})
    [{'gain': 'linear'}]
    """

    key: str
    metrics: tuple
    message: object
    overrides: object = None
    recompute: Callable | None = None
    when: Callable | None = None

    def mistakes(self, facts: dict) -> list[Mistake]:
        """The mistaken values this slip gives for the computation described by ``facts``."""
        if self.when is not None and not self.when(facts):
            return []
        if self.overrides is not None:
            changes = self.overrides(facts) if callable(self.overrides) else [self.overrides]
            found = [(_rerun(facts, change), {}) for change in changes]
        else:
            found = self.recompute(facts)
        out = []
        for value, extra in found:
            if value is None:
                continue
            every = {**facts, **extra}
            text = self.message(every) if callable(self.message) else _(self.message).format(**every)
            out.append(Mistake(self.key, value, text))
        return out


def _col(ex: Explanation, key: str) -> list:
    return [row[key] for row in ex.steps if key in row]


def _other_gain(gain: str) -> str:
    return "linear" if gain == "exp2" else "exp2"


def _gain_sentence(gain: str, grades) -> str:
    """The gain slip's sentence; for exponential gains, worked on the highest grade of ``grades``."""
    if gain == "linear":
        return _("You used gains 2^rel - 1; this exercise uses the grade itself as the gain (linear gain).")
    top = max(grades, default=0)
    if top >= 2 and int(top) == top:  # grades 0 and 1 are worth the same under both gains
        top = int(top)
        return _("You used the grade itself as the gain (linear gain); this exercise uses gains 2^rel - 1, so a "
                 "grade-{top} item is worth {worth}, not {top}.").format(top=top, worth=2**top - 1)
    return _("You used the grade itself as the gain (linear gain); this exercise uses gains 2^rel - 1.")


_DISCOUNT_SENTENCE = {
    "jarvelin": N_("You left rank 1 undiscounted and divided rank i by log2(i) (the Järvelin discount, or a rank "
                   "off by one); this exercise divides rank i by log2(i + 1)."),
    "log2": N_("You divided rank i by log2(i + 1); this exercise uses the Järvelin discount: rank 1 undiscounted, "
               "then log2(i)."),
}
_SHIFT_SENTENCE = N_("Your ranks are off by one: you divided rank i by log2(i + 2), as if counting ranks from 2 "
                   "(or from 0 with an extra + 1); rank 1 divides by log2(2) = 1.")
_ROUNDED_SENTENCE = N_("You rounded each term to {places} decimal{s} before adding (as post 004 does); the "
                     "rounding errors add up. Keep fractions and logs exact, or six decimals, until the end.")


def _graded_lists(ex: Explanation):
    """The ranking's top k (as the DCG saw it), the ideal top k, the cut-off and the judged pool."""
    k = ex.params.get("k")
    ranking = _col(ex.parts["dcg"] if ex.metric == "ndcg" else ex, "grade") if ex.metric != "idcg" else []
    ideal_top = _col(ex.parts["idcg"] if ex.metric == "ndcg" else ex, "grade") if ex.metric != "dcg" else []
    return ranking, k, ideal_top, ex.params.get("ideal")


def _whole_list(ranking, k, context) -> list | None:
    """The whole returned list: from the context, or the ranking itself when no cut-off hid its tail."""
    if context.get("grades"):
        return list(context["grades"])
    if k is None or len(ranking) < k:
        return list(ranking)
    return None


def _dcg_value(grades, k, gain, discount):
    if not grades:
        return Integer(0)
    return graded.dcg(grades, k=k, gain=gain, discount=discount).exact


def _shifted_dcg(grades, gain, discount):
    """DCG with every rank one lower: the same list behind an item of grade 0."""
    return _dcg_value([0] + list(grades), None, gain, discount)


def _rounded_sum(contributions, places: int):
    """The sum after rounding every term to ``places`` decimals, as a hand computation does."""
    return sum((Rational(round(Fraction(str(sympy.N(c, 30))), places)) for c in contributions), Integer(0))


def _cut(value, places: int):
    """``value`` cut (not rounded) after ``places`` decimals."""
    if isinstance(value, Rational):  # exactly, in integers (a sum of rounded terms, a ratio of two)
        scaled = abs(value.p) * 10**places // value.q
        return Rational(scaled if value.p >= 0 else -scaled, 10**places)
    scaled = sympy.N(value * 10**places, 30)
    return Rational(int(sympy.floor(scaled)) if scaled >= 0 else int(sympy.ceiling(scaled)), 10**places)


def _ratio(num, den):
    """``num / den``, or NaN (no answer can match it) when ``den`` is 0."""
    return num / den if den != 0 else sympy.nan


def _base_scale(base) -> object:
    """DCG with log_b(i + 1) discounts is DCG with log2(i + 1) discounts times log2(b)."""
    return sympy.log(base) / sympy.log(2)


def _cascade_err(stop_probabilities, reach_factor=lambda i, r: 1 - r):
    """ERR from each rank's stop probability R_i: the sum of reach_i * R_i / i, where reach_i is the
    product of ``reach_factor(j, R_j)`` over the ranks j above (1 - R_j in the cascade model)."""
    total, reach = Integer(0), Integer(1)
    for i, r in enumerate(stop_probabilities, start=1):
        total += reach * r / i
        reach *= reach_factor(i, r)
    return total


def _stop_probabilities(grades, g_max, denominator=None):
    return [Rational(2**int(g) - 1, denominator or 2**g_max) for g in grades]


def _slipped_ks(k: int, whole_list) -> list[int]:
    """The cut-offs one off from ``k`` whose value can be known: k + 1 needs rank k + 1, which the
    explanation's steps (cut at k) do not hold, so only the whole returned list can give it."""
    return [kk for kk in (k - 1, k + 1) if kk >= 1 and (kk <= k or whole_list is not None)]


# -- the facts of a computation, and the call that recomputes it ---------------------------------------
def _facts(ex: Explanation, context: dict) -> dict:
    """What the slips need to know about a computation: its lists, cut-off, options and context."""
    facts = {"ex": ex, "context": context, "metric": ex.metric, "exact": ex.exact, "k": ex.params.get("k")}
    m = ex.metric
    if m in ("dcg", "idcg", "ndcg"):
        ranking, k, ideal_top, pool = _graded_lists(ex)
        gain, discount = ex.params["gain"], ex.params["discount"]
        rows = ranking if m == "dcg" else ideal_top
        facts.update(gain=gain, discount=discount, ranking=ranking, ideal_top=ideal_top, pool=pool, rows=rows,
                     other_discount="log2" if discount == "jarvelin" else "jarvelin",
                     what="DCG" if m == "dcg" else N_("ideal DCG"), returned_ctx=list(context.get("grades") or []),
                     returned=_whole_list(ranking, k, context) if m == "ndcg" else None,
                     grades_seen=ranking + ideal_top)
        if m == "ndcg":
            facts.update(dcg_v=ex.parts["dcg"].exact, idcg_v=ex.parts["idcg"].exact,
                         call=(_ndcg_of, {"grades": ranking, "ideal": ideal_top, "gain": gain,
                                          "discount": discount}))
        else:
            facts["call"] = (graded.dcg, {"grades": rows, "gain": gain, "discount": discount})
    elif m == "cg":
        grades = _col(ex, "grade")
        facts.update(grades=grades, full=list(context.get("grades") or grades), grades_seen=grades,
                     call=(graded.cg, {"grades": list(context.get("grades") or grades), "k": facts["k"]}))
    elif m == "err":
        grades, g_max = _col(ex, "grade"), ex.params["g_max"]
        facts.update(grades=grades, g_max=g_max, stops=_col(ex, "stop"), whole=context.get("grades"),
                     grades_seen=list(context.get("grades") or grades) + [g_max],
                     call=(graded.err, {"grades": grades, "g_max": g_max}))
    elif m in ("reciprocal_rank", "precision_at_k", "recall_at_k", "average_precision", "interpolated_precision",
               "eleven_point_ap"):
        rels = _col(ex, "rel")
        full = list(context.get("rels") or rels)
        facts.update(rels=rels, full=full, n_rel=ex.params.get("n_relevant"),
                     found=sum(full) if m == "recall_at_k" else sum(rels))
        facts["call"] = {
            "reciprocal_rank": (binary.reciprocal_rank, {"rels": rels}),
            "precision_at_k": (binary.precision_at_k, {"rels": full, "k": facts["k"]}),
            "recall_at_k": (binary.recall_at_k, {"rels": full, "k": facts["k"], "n_relevant": facts["n_rel"]}),
            "average_precision": (binary.average_precision, {"rels": rels, "n_relevant": facts["n_rel"]}),
        }.get(m)
    elif m in ("mrr", "mean_average_precision"):
        queries = [_col(p, "rel") for p in ex.parts.values()]
        values = [p.exact for p in ex.parts.values()]
        counts = [p.params.get("n_relevant") for p in ex.parts.values()]
        facts.update(queries=queries, values=values, counts=counts, n_queries=len(values))
        facts["call"] = (binary.mrr, {"list_of_rels": queries}) if m == "mrr" else \
            (binary.mean_average_precision, {"list_of_rels": queries, "n_relevant": counts})
    elif m == "f_beta":
        p, r, b = ex.parts["precision"].exact, ex.parts["recall"].exact, ex.params["beta"]
        facts.update(p=p, r=r, b=b, b2=b**2)
    elif m in ("roc_curve", "auc"):
        facts.update(pairs=ex.params["n_pos"] * ex.params["n_neg"])
    elif m == "cohen_kappa":
        facts.update(p_agree=ex.params["p_agree"], p_chance=ex.params["p_chance"], marginals=ex.params["marginals"])
    return facts


def _rerun(facts: dict, changes: dict):
    """The computation's own library call again, with some keyword arguments changed."""
    function, kwargs = facts["call"]
    result = function(**{**kwargs, **changes})
    return result.exact if isinstance(result, Explanation) else result


def _ndcg_of(grades, ideal, gain, discount, k=None):
    """NDCG as DCG / IDCG of two lists: the library's NDCG without its check that the ideal pool holds
    every grade of the ranking (a slip's ideal, such as the top k sorted, need not)."""
    return _ratio(_dcg_value(list(grades), k, gain, discount),
                  _dcg_value(sorted(ideal, reverse=True), k, gain, discount))


#: Above these sizes the checker judges the answer but recomputes no slip: the exact recomputations
#: grow faster than linearly with the list, and 2^grade with the grade (the answer stays within 2 s).
MAX_DIAGNOSED_ITEMS = 30
MAX_DIAGNOSED_GRADE = 64


def _diagnosable(ex: Explanation, facts: dict) -> bool:
    context = facts["context"]
    items = max([len(ex.steps), len(context.get("grades") or ()), len(context.get("rels") or ())]
                + [len(p.steps) for p in ex.parts.values()])
    items *= max(1, len(ex.parts)) if ex.metric in ("mrr", "mean_average_precision") else 1  # one list per query
    grades = [abs(g) for g in facts.get("grades_seen", ())]
    return items <= MAX_DIAGNOSED_ITEMS and max(grades, default=0) <= MAX_DIAGNOSED_GRADE


def _integer_grades(facts) -> bool:
    return all(int(x) == x for x in facts["grades_seen"])


def _ndcg_rounded(facts):
    ex, out = facts["ex"], []
    exact_cut = _cut(ex.exact, 3)
    for places in (1, 2):
        rounded = _ratio(_rounded_sum(_col(ex.parts["dcg"], "contribution"), places),
                         _rounded_sum(_col(ex.parts["idcg"], "contribution"), places))
        extra = {"places": places, "s": "" if places == 1 else "s", "cut": ""}  # "s": English plural only
        out.append((rounded, extra))
        # post 004 also cut 38.5/46.5 = 0.82796 to 0.827; name that only where the rounded terms alone
        # already change the third decimal, else a cut quotient is a guess, not a diagnosis
        if rounded is not sympy.nan and _cut(rounded, 3) != exact_cut \
                and _rounded_text(rounded, 3) != _rounded_text(ex.exact, 3):
            out.append((_cut(rounded, 3), {**extra, "cut": " " + _("You also cut the quotient after three "
                                                                         "decimals instead of rounding it.")}))
    return out


def _reach_with_r(facts):
    """Post 000's ERR: the reach product multiplies by R_i where the cascade has 1 - R_i, from rank 2 on
    (7/8 + 3/128 + 7/512 + 21/16384 = 14965/16384 ≈ 0.913391), or at every rank."""
    stops = _stop_probabilities(facts["grades"], facts["g_max"])
    return [(_cascade_err(stops, lambda i, r: 1 - r if i == 1 else r), {}),
            (_cascade_err(stops, lambda i, r: r), {})]


def _unsorted_ideal(facts):
    source = facts["pool"] if facts["pool"] is not None else (facts["returned"] or facts["ranking"])
    k = facts["k"]
    return [(_ratio(facts["dcg_v"], _dcg_value(list(source), k, facts["gain"], facts["discount"])), {})]


def _ideal_from_top_k(facts):
    k, ranking, returned, pool = facts["k"], facts["ranking"], facts["returned"], facts["pool"]
    if k is None or not ranking:
        return []
    from_top_k = _rerun(facts, {"ideal": ranking})
    if pool is not None and returned:
        from_list = _rerun(facts, {"ideal": returned, "k": k})
        if equal(from_top_k, from_list):
            return []
    return [(from_top_k, {})]


def _all_of(*keys):
    return lambda f: all(f.get(key) for key in keys)


_GRADED = ("dcg", "idcg", "ndcg")
_DCG_IDCG = ("dcg", "idcg")
_PLAIN_BASE = N_("You used {name} as the discount; this exercise uses {right}. (The base changes the {what}, "
                 "though it cancels in NDCG.)")

#: The catalogue of usual slips, in the order the feedback names them. One fact lives here once: a new
#: slip is a new entry (see ARCHITECTURE.md).
SLIPS = (
    # -- graded: DCG, IDCG, NDCG --------------------------------------------------------------------
    Slip("gain", ("ndcg",), lambda f: _gain_sentence(f["gain"], f["ranking"] if max(f["ranking"], default=0) >= 2
                                                     else f["ranking"] + f["ideal_top"]),
         overrides=lambda f: [{"gain": _other_gain(f["gain"])}],
         when=lambda f: f["gain"] != "linear" or _integer_grades(f)),
    Slip("discount", ("ndcg",), lambda f: translate(_DISCOUNT_SENTENCE[f["other_discount"]]),
         overrides=lambda f: [{"discount": f["other_discount"]}],
         when=lambda f: f["gain"] != "exp2" or _integer_grades(f)),
    Slip("shift", ("ndcg",), _SHIFT_SENTENCE, when=lambda f: f["discount"] != "jarvelin",  # shifted Järvelin = log2
         recompute=lambda f: [(_ratio(_shifted_dcg(f["ranking"], f["gain"], f["discount"]),
                                      _shifted_dcg(f["ideal_top"], f["gain"], f["discount"])), {})]),
    Slip("rounded_terms", ("ndcg",), lambda f: _(_ROUNDED_SENTENCE).format(**f) + f["cut"], recompute=_ndcg_rounded),
    Slip("dcg_for_ndcg", ("ndcg",), N_("That is the DCG; NDCG divides it by the ideal DCG (IDCG)."),
         recompute=lambda f: [(f["dcg_v"], {})]),
    Slip("idcg_for_ndcg", ("ndcg",), N_("That is the ideal DCG (IDCG); NDCG is DCG divided by IDCG."),
         recompute=lambda f: [(f["idcg_v"], {})]),
    Slip("inverted", ("ndcg",), N_("You divided IDCG by DCG; NDCG is DCG / IDCG (at most 1)."),
         recompute=lambda f: [(_ratio(f["idcg_v"], f["dcg_v"]), {})]),
    Slip("base_dcg", ("ndcg",), N_("That is the DCG with {name} discounts; the question asks for NDCG (DCG / IDCG), "
                                "in which the base of the log cancels."),
         recompute=lambda f: [(f["dcg_v"] * _base_scale(base), {"name": name})
                              for base, name in ((sympy.E, _("the natural log ln")), (Integer(10), "log10"))]),
    Slip("ideal_unsorted", ("ndcg",), N_("You divided by the DCG of the grades in the order given, as post 003's "
                                      "code does (`best = dcg_score(y_true, k, gains)`); the ideal DCG sorts them "
                                      "best first, so NDCG is 1 only for an ideal order."),
         recompute=_unsorted_ideal),
    Slip("ideal_from_list", ("ndcg",), N_("You built the ideal order from the returned list only; the ideal DCG sorts "
                                       "every judged item of the query (the pool), including relevant items the "
                                       "ranking missed."),
         overrides=lambda f: [{"ideal": f["returned"], "k": f["k"]}], when=_all_of("pool", "returned")),
    Slip("ideal_from_top_k", ("ndcg",), N_("You sorted only the top {k} of the returned list to build the ideal; the "
                                        "ideal top {k} sorts every judged item of the query (the whole list, or "
                                        "the pool), including good items ranked below {k}."),
         recompute=_ideal_from_top_k),
    Slip("k_ignored", ("ndcg",), N_("You used the whole list; NDCG@{k} counts only the top {k} ranks, of the ranking "
                                 "and of the ideal."),
         overrides=lambda f: [{"grades": f["returned"], "ideal": f["returned"] if f["pool"] is None else f["pool"]}],
         when=lambda f: f["returned"] and f["k"] is not None and len(f["returned"]) > f["k"]),
    Slip("ideal_uncut", ("ndcg",), N_("You did not cut the ideal list at k = {k}: IDCG@{k} sums only the top {k} ideal "
                                   "ranks."),
         overrides=lambda f: [{"ideal": f["pool"] if f["pool"] is not None else (f["returned"] or f["ranking"])}],
         when=lambda f: f["k"] is not None
         and len(f["pool"] if f["pool"] is not None else (f["returned"] or f["ranking"])) > f["k"]),
    Slip("gain", _DCG_IDCG, lambda f: _gain_sentence(f["gain"], f["rows"]),
         overrides=lambda f: [{"gain": _other_gain(f["gain"])}],
         when=lambda f: not (f["gain"] == "linear" and any(int(x) != x for x in f["rows"]))),
    Slip("discount", _DCG_IDCG, lambda f: translate(_DISCOUNT_SENTENCE[f["other_discount"]]),
         overrides=lambda f: [{"discount": f["other_discount"]}]),
    Slip("shift", _DCG_IDCG, _SHIFT_SENTENCE, when=lambda f: f["discount"] != "jarvelin",
         recompute=lambda f: [(_shifted_dcg(f["rows"], f["gain"], f["discount"]), {})]),
    Slip("base", _DCG_IDCG,
         lambda f: _(_PLAIN_BASE).format(name=_("the natural log ln(i + 1)"), right="log2(i + 1)", what=translate(f["what"])),
         overrides={"discount": "ln"}, when=lambda f: f["discount"] == "log2"),
    Slip("base", _DCG_IDCG, lambda f: _(_PLAIN_BASE).format(name="log10(i + 1)", right="log2(i + 1)", what=translate(f["what"])),
         recompute=lambda f: [(f["exact"] * _base_scale(10), {})], when=lambda f: f["discount"] == "log2"),
    Slip("base", _DCG_IDCG, N_("You used log2(i + 1) as the discount; this exercise uses the natural log ln(i + 1)."),
         overrides={"discount": "log2"}, when=lambda f: f["discount"] == "ln"),
    Slip("rounded_terms", _DCG_IDCG, _ROUNDED_SENTENCE,
         recompute=lambda f: [(_rounded_sum(_col(f["ex"], "contribution"), places),
                               {"places": places, "s": "" if places == 1 else "s"}) for places in (1, 2)]),
    Slip("no_discount", _DCG_IDCG, N_("You added the gains without dividing by the discount: that is the cumulative "
                                   "gain of the gains; DCG divides the gain at rank i by its discount."),
         recompute=lambda f: [(sum((GAINS[f["gain"]].fn(g) for g in f["rows"]), Integer(0)), {})]),
    Slip("k_ignored", ("dcg",), N_("You added every rank of the list; DCG@{k} stops at rank {k}."),
         overrides=lambda f: [{"grades": f["returned_ctx"]}],
         when=lambda f: f["k"] is not None and len(f["returned_ctx"]) > f["k"]),
    Slip("ideal_from_list", ("idcg",), N_("You sorted the returned list only; the ideal order sorts every judged item "
                                       "of the query (the pool), including relevant items the ranking missed."),
         overrides=lambda f: [{"grades": sorted(f["returned_ctx"], reverse=True), "k": f["k"]}],
         when=lambda f: f["pool"] is not None and f["returned_ctx"]),
    Slip("unsorted", ("idcg",), N_("That is the DCG of the ranking as returned; the ideal DCG first sorts the grades "
                                "best first."),
         overrides=lambda f: [{"grades": f["returned_ctx"], "k": f["k"]}], when=_all_of("returned_ctx")),
    # -- CG --------------------------------------------------------------------------------------------
    Slip("dcg_for_cg", ("cg",), N_("You discounted the grades; CG simply adds the grades of the top k, whatever their "
                                "order."),
         recompute=lambda f: [(graded.dcg(f["grades"], gain="linear").exact, {})]),
    Slip("gain", ("cg",), N_("You added gains 2^rel - 1; CG adds the grades themselves."),
         recompute=lambda f: [(sum((2**int(g) - 1 for g in f["grades"]), Integer(0)), {})],
         when=_integer_grades),
    Slip("k", ("cg",), N_("You added the top {kk} grades; CG@{k} adds exactly the top {k}."),
         recompute=lambda f: [(_rerun(f, {"k": kk}), {"kk": kk}) for kk in (f["k"] - 1, f["k"] + 1)
                              if 1 <= kk <= len(f["full"])],
         when=lambda f: f["k"] is not None),
    # -- ERR -------------------------------------------------------------------------------------------
    Slip("err_reach_r", ("err",), N_("You multiplied by R_i where the cascade needs 1 − R_i: the user reaches rank r "
                                  "only if every rank above did not satisfy them, with probability "
                                  "(1 − R_1)...(1 − R_(r−1)) (post 000's 0.913391 is this slip)."),
         recompute=_reach_with_r),
    Slip("err_dcg_discount", ("err",), N_("You divided each stopping probability by log2(i + 1), the DCG discount; ERR "
                                       "divides by the rank i itself (it is the expected reciprocal rank)."),
         recompute=lambda f: [(sum((s / DISCOUNTS["log2"].fn(i) for i, s in enumerate(f["stops"], start=1)),
                                   Integer(0)), {})]),
    Slip("shift", ("err",), N_("Your ranks are off by one: you divided by i + 1; the first item is rank 1, divided by 1."),
         overrides=lambda f: [{"grades": [0] + f["grades"]}]),
    Slip("err_no_cascade", ("err",), N_("You left out the cascade: rank i counts only if the user did not stop "
                                     "earlier, so multiply R_i by (1 - R_1)...(1 - R_(i-1))."),
         recompute=lambda f: [(sum((r / i for i, r in enumerate(_stop_probabilities(f["grades"], f["g_max"]), 1)),
                                   Integer(0)), {})]),
    Slip("err_linear", ("err",), N_("You took R_i = grade / {g_max}; the cascade model uses R_i = (2^grade - 1) / "
                                 "2^{g_max}."),
         recompute=lambda f: [(_cascade_err(Rational(g, f["g_max"]) for g in f["grades"]), {})]),
    Slip("err_gmax", ("err",), N_("You used a maximum grade of 4 (as gdeval does); this scale's maximum grade is "
                               "{g_max}."),
         overrides={"g_max": 4}, when=lambda f: f["g_max"] != 4 and max(f["grades"]) <= 4),
    Slip("err_gmax_minus", ("err",), N_("You divided 2^grade - 1 by 2^{g_max} - 1; the cascade model divides by "
                                     "2^{g_max}, so even a perfect item lets some users read on."),
         recompute=lambda f: [(_cascade_err(_stop_probabilities(f["grades"], f["g_max"], 2**f["g_max"] - 1)), {})]),
    Slip("err_gmax_list", ("err",), N_("You took the highest grade in the list ({top}) as g_max; R_i divides by "
                                    "2^g_max with g_max = {g_max}, the top of the grading scale, whatever grades "
                                    "this list holds."),
         recompute=lambda f: [(_rerun(f, {"g_max": top}), {"top": top})
                              for top in [max(f["whole"] or f["grades"])]
                              if 1 <= top < f["g_max"] and top != 4]),  # 4 is gdeval's maximum, named above
    Slip("k_ignored", ("err",), N_("You added every rank of the list; ERR@{k} stops at rank {k}."),
         overrides=lambda f: [{"grades": f["whole"]}],
         when=lambda f: f["whole"] is not None and f["k"] is not None and len(f["whole"]) > f["k"]),
    # -- reciprocal rank and MRR ----------------------------------------------------------------------------
    Slip("shift", ("reciprocal_rank",), N_("Your rank is off by one: the first item is rank 1, so the reciprocal rank "
                                        "is 1 / rank."),
         overrides=lambda f: [{"rels": [0] + f["rels"]}]),
    Slip("rank_not_reciprocal", ("reciprocal_rank",), N_("That is the rank of the first relevant item; the reciprocal "
                                                      "rank is 1 / that rank."),
         recompute=lambda f: [(1 / f["exact"], {})], when=lambda f: f["exact"] != 0),
    Slip("sum_not_mean", ("mrr",), N_("You added the reciprocal ranks; MRR is their mean: divide the sum by the "
                                   "{n_queries} queries."),
         recompute=lambda f: [(sum(f["values"], Integer(0)), {})]),
    Slip("shift", ("mrr",), N_("Your ranks are off by one: the first item is rank 1, so its reciprocal rank is 1."),
         overrides=lambda f: [{"list_of_rels": [[0] + q for q in f["queries"]]}]),
    Slip("mrr_dropped_miss", ("mrr",), N_("You left out the {missed_text} without a hit; a query with no relevant result "
                                       "still counts, with reciprocal rank 0: divide by all {n_queries} queries."),
         recompute=lambda f: [(sum(hit, Integer(0)) / len(hit),
                               {"missed_text": _("query") if len(f["values"]) - len(hit) == 1
                                else _("{n} queries").format(n=len(f["values"]) - len(hit))})
                              for hit in [[v for v in f["values"] if v != 0]] if hit and len(hit) < len(f["values"])]),
    Slip("mean_rank", ("mrr",), N_("You averaged the ranks and then took 1 / mean; MRR averages the reciprocal ranks "
                                "1/rank of each query."),
         recompute=lambda f: [(len(f["values"]) / sum((1 / v for v in f["values"]), Integer(0)), {})],
         when=lambda f: all(v != 0 for v in f["values"])),
    # -- precision, recall, F ---------------------------------------------------------------------------------
    Slip("swapped", ("precision_at_k",), N_("That is the recall (hits / all relevant); precision divides the hits in "
                                         "the top k by k."),
         recompute=lambda f: [(binary.recall_at_k(f["full"], f["k"], n_relevant=f["context"]["n_relevant"]).exact,
                               {})],
         when=lambda f: f["context"].get("n_relevant")),
    Slip("k", ("precision_at_k",), N_("You counted the top {kk}; P@{k} looks at exactly the top {k}."),
         recompute=lambda f: [(_rerun(f, {"k": kk}), {"kk": kk})
                              for kk in _slipped_ks(f["k"], f["context"].get("rels"))]),
    Slip("short_list", ("precision_at_k",), N_("You divided by the {n} items returned; P@{k} always divides by k = {k} "
                                            "(the empty ranks count as not relevant)."),
         recompute=lambda f: [(Rational(sum(f["rels"]), len(f["rels"])), {"n": len(f["rels"])})],
         when=lambda f: len(f["rels"]) < f["k"]),
    Slip("swapped", ("recall_at_k",), N_("That is the precision (hits / k); recall divides the hits by the number of "
                                      "relevant documents."),
         recompute=lambda f: [(binary.precision_at_k(f["full"], f["k"]).exact, {})]),
    Slip("retrieved_only", ("recall_at_k",), N_("You divided by the {found} relevant items in the list; recall divides "
                                             "by all {n_rel} relevant documents of the collection, found or not."),
         overrides={"n_relevant": None}, recompute=None,
         when=lambda f: (f["context"].get("rels") is not None or len(f["rels"]) < f["k"])  # else steps stop at k
         and sum(f["full"]) and f["n_rel"] > sum(f["full"])),
    Slip("k", ("recall_at_k",), N_("You counted the top {kk}; R@{k} looks at exactly the top {k}."),
         recompute=lambda f: [(_rerun(f, {"k": kk}), {"kk": kk})
                              for kk in _slipped_ks(f["k"], f["context"].get("rels"))]),
    Slip("f_doc000", ("f_beta",), N_("You used post 000's formula (1 + β²)(P + R) / (β²P + R); the numerator is a "
                                  "product: F = (1 + β²)·P·R / (β²·P + R)."),
         recompute=lambda f: [(_ratio((1 + f["b2"]) * (f["p"] + f["r"]), f["b2"] * f["p"] + f["r"]), {})]),
    Slip("f_doc003", ("f_beta",), N_("You used post 003's formula (β² + 1)PR / (β²(P + R)); the denominator is "
                                  "β²·P + R, with β² on P only."),
         recompute=lambda f: [(_ratio((f["b2"] + 1) * f["p"] * f["r"], f["b2"] * (f["p"] + f["r"])), {})]),
    Slip("f_arithmetic", ("f_beta",), N_("You took the arithmetic mean (P + R) / 2; F is a harmonic mean: "
                                      "(1 + β²)·P·R / (β²·P + R)."),
         recompute=lambda f: [((f["p"] + f["r"]) / 2, {})]),
    Slip("f_swapped", ("f_beta",), N_("You put β² on the recall; F-beta is (1 + β²)·P·R / (β²·P + R): β² multiplies P "
                                   "in the denominator, so β > 1 favours recall."),
         recompute=lambda f: [(_ratio((1 + f["b2"]) * f["p"] * f["r"], f["b2"] * f["r"] + f["p"]), {})],
         when=lambda f: f["b"] != 1),
    Slip("f_beta_not_squared", ("f_beta",), N_("You used β where the formula has β²."),
         recompute=lambda f: [(_ratio((1 + f["b"]) * f["p"] * f["r"], f["b"] * f["p"] + f["r"]), {})],
         when=lambda f: f["b"] != 1),
    Slip("f1", ("f_beta",), N_("That is F1; this exercise asks for β = {b}."),
         recompute=lambda f: [(_ratio(2 * f["p"] * f["r"], f["p"] + f["r"]), {})], when=lambda f: f["b"] != 1),
    Slip("swapped_p", ("f_beta",), N_("That is the precision alone; F combines precision and recall."),
         recompute=lambda f: [(f["p"], {})]),
    Slip("swapped_r", ("f_beta",), N_("That is the recall alone; F combines precision and recall."),
         recompute=lambda f: [(f["r"], {})]),
    # -- AP and MAP -------------------------------------------------------------------------------------------
    Slip("ap_retrieved", ("average_precision",), N_("You divided by the {found} relevant items retrieved; AP divides "
                                                 "by all {n_rel} relevant documents (each one never retrieved adds "
                                                 "precision 0)."),
         overrides={"n_relevant": None}, when=lambda f: sum(f["rels"]) and f["n_rel"] > sum(f["rels"])),
    Slip("shift", ("average_precision",), N_("Your ranks are off by one: the precision at rank i is hits / i with the "
                                          "first item at rank 1."),
         overrides=lambda f: [{"rels": [0] + f["rels"]}]),
    Slip("ap_all_ranks", ("average_precision",), N_("You averaged the precision at every rank; AP averages it only at "
                                                 "the ranks of relevant items."),
         recompute=lambda f: [(sum(_col(f["ex"], "precision"), Integer(0)) / len(f["rels"]), {})]),
    Slip("sum_not_mean", ("average_precision",), N_("You added the precisions but did not divide by the {n_rel} "
                                                 "relevant documents."),
         recompute=lambda f: [(f["ex"].steps[-1]["sum"], {})]),
    Slip("sum_not_mean", ("mean_average_precision",), N_("You added the average precisions; MAP is their mean: divide "
                                                      "by the {n_queries} queries."),
         recompute=lambda f: [(sum(f["values"], Integer(0)), {})]),
    Slip("ap_retrieved", ("mean_average_precision",), N_("You divided each AP by the relevant items retrieved; AP "
                                                      "divides by all relevant documents of the query (each one "
                                                      "never retrieved adds precision 0)."),
         overrides={"n_relevant": None},
         when=lambda f: any(n > sum(q) for n, q in zip(f["counts"], f["queries"]))),
    Slip("shift", ("mean_average_precision",), N_("Your ranks are off by one: the precision at rank i is hits / i with "
                                               "the first item at rank 1."),
         overrides=lambda f: [{"list_of_rels": [[0] + q for q in f["queries"]]}]),
    # -- interpolated precision -------------------------------------------------------------------------------
    Slip("not_interpolated", ("interpolated_precision",), N_("That is the plain (non-interpolated) AP; interpolate "
                                                          "first: at each relevant rank take the best precision at "
                                                          "that rank or below it."),
         recompute=lambda f: [(binary.average_precision(f["rels"], n_relevant=f["n_rel"]).exact, {})],
         when=lambda f: f["ex"].params.get("recall") is None),
    Slip("not_interpolated", ("interpolated_precision",), N_("That is the precision where the recall first reaches the "
                                                          "level; interpolated precision takes the best precision at "
                                                          "any recall >= the level."),
         recompute=lambda f: [(row["precision"], {}) for row in f["ex"].steps
                              if row["recall"] >= f["ex"].params["recall"]][:1],
         when=lambda f: f["ex"].params.get("recall") is not None),
    Slip("eleven_ten", ("eleven_point_ap",), N_("You divided by 10; there are 11 recall levels 0, 0.1, ..., 1.0."),
         recompute=lambda f: [(sum(_col(f["ex"], "interpolated"), Integer(0)) / 10, {})]),
    Slip("eleven_skip0", ("eleven_point_ap",), N_("You left out recall level 0; the 11 levels are 0, 0.1, ..., 1.0."),
         recompute=lambda f: [(sum(_col(f["ex"], "interpolated")[1:], Integer(0)) / 10, {})]),
    Slip("not_interpolated", ("eleven_point_ap",), N_("That is the all-point interpolated AP; the 11-point AP averages "
                                                   "the interpolated precision at the 11 recall levels 0, 0.1, ..., "
                                                   "1.0."),
         recompute=lambda f: [(f["ex"].parts["pr"].exact, {})]),
    # -- ROC and AUC ------------------------------------------------------------------------------------------
    Slip("ties_zero", ("roc_curve", "auc"), N_("You counted a tied positive-negative pair as 0; a tie is worth 1/2 "
                                            "(the ROC curve crosses a tied block diagonally)."),
         recompute=lambda f: [(f["exact"] - _tied_credit(f["ex"]), {})]),
    Slip("ties_one", ("roc_curve", "auc"), N_("You counted a tied positive-negative pair as a win (1); a tie is worth "
                                           "1/2."),
         recompute=lambda f: [(f["exact"] + _tied_credit(f["ex"]), {})]),
    Slip("reversed", ("roc_curve", "auc"), N_("You counted the pairs where the negative scores higher: AUC counts the "
                                           "pairs where the positive scores higher."),
         recompute=lambda f: [(1 - f["exact"], {})]),
    Slip("not_divided", ("roc_curve", "auc"), N_("You counted the pairs won but did not divide by the {pairs} "
                                              "positive-negative pairs."),
         recompute=lambda f: [(f["exact"] * f["pairs"], {})]),
    # -- Cohen's kappa ------------------------------------------------------------------------------------------
    Slip("kappa_marginals", ("cohen_kappa",), lambda f: translate(_KAPPA_MARGINALS_SENTENCE[f["marginals"]]),
         recompute=lambda f: [(_kappa_other_marginals(f["ex"]), {})]),
    Slip("kappa_agreement", ("cohen_kappa",), N_("That is P(A), the share of items the two judges agree on; kappa "
                                                 "takes away the agreement expected by chance: (P(A) − P(E)) / "
                                                 "(1 − P(E))."),
         recompute=lambda f: [(f["p_agree"], {})]),
    Slip("kappa_not_divided", ("cohen_kappa",), N_("That is P(A) − P(E); kappa divides it by 1 − P(E), the most "
                                                   "agreement beyond chance there could be."),
         recompute=lambda f: [(f["p_agree"] - f["p_chance"], {})]),
    # -- bpref ------------------------------------------------------------------------------------------------------
    Slip("bpref_unjudged", ("bpref",), N_("You counted the unjudged documents as judged non-relevant; bpref skips "
                                          "them: only judged non-relevant documents above a relevant one count."),
         recompute=lambda f: [(_bpref_unjudged_as_nonrelevant(f["context"]), {})],
         when=lambda f: None in (f["context"].get("judgments") or ())),
    # -- judged@k of a system scored against a pool ---------------------------------------------------------------
    Slip("pool_depth", ("judged_at_k",), N_("You pooled each system's top {used}; this pool goes down to depth "
                                            "{depth}."),
         recompute=lambda f: _judged_at_other_depths(f), when=lambda f: "pool_runs" in f["context"]),
    # -- every metric ----------------------------------------------------------------------------------------
    Slip("percent", ("*",), N_("You gave a percentage without the percent sign: write “%” after it, or divide by 100."),
         recompute=lambda f: [(f["exact"] * 100, {})]),
)


#: The kappa slip of the other chance agreement, by the convention the exercise uses.
_KAPPA_MARGINALS_SENTENCE = {
    "separate": N_("You pooled the two judges' shares (P(E) = Σ p(c)², as Manning et al. do); this question uses "
                   "each judge's own shares, as Cohen does: P(E) = Σ p_A(c)·p_B(c)."),
    "pooled": N_("You used each judge's own shares (P(E) = Σ p_A(c)·p_B(c), as Cohen does); this question pools the "
                 "two judges' shares, as Manning et al. do: P(E) = Σ p(c)²."),
}


def _kappa_other_marginals(ex: Explanation):
    """Kappa with the other convention's chance agreement, from the step table's per-category counts."""
    n, p_agree = ex.params["n"], ex.params["p_agree"]
    if ex.params["marginals"] == "separate":
        p_chance = sum(Rational(row["a"] + row["b"], 2 * n) ** 2 for row in ex.steps)
    else:
        p_chance = sum(Rational(row["a"] * row["b"], n * n) for row in ex.steps)
    return None if p_chance == 1 else (p_agree - p_chance) / (1 - p_chance)


def _bpref_unjudged_as_nonrelevant(context):
    """bpref with every unjudged document of the exercise's list read as judged non-relevant."""
    judgments = [0 if j is None else j for j in context["judgments"]]
    n_nonrelevant = max(context.get("n_nonrelevant") or 0, sum(j == 0 for j in judgments))
    return binary.bpref(judgments, n_relevant=context.get("n_relevant"), n_nonrelevant=n_nonrelevant).exact


def _judged_at_other_depths(facts) -> list:
    """judged@k of the exercise's new system against the pool one rank shallower and one deeper (the context holds
    the pooled systems' lists, the pool depth and the new system's list)."""
    context, k = facts["context"], facts["k"]
    depth, new_run = context["pool_depth"], list(context["new_run"])[:k]
    out = []
    for used in (depth - 1, depth + 1):
        if used >= 1:
            pooled = {doc for ranking in context["pool_runs"].values() for doc in list(ranking)[:used]}
            out.append((Rational(sum(doc in pooled for doc in new_run), k), {"used": used, "depth": depth}))
    return out


def _tied_credit(ex: Explanation):
    """The half credit the tied positive-negative pairs bring to AUC."""
    if ex.metric == "roc_curve":
        # a block of tied scores moves the curve diagonally: half of its rectangle is the ties' 1/2 credit
        return sum((Rational(r["neg"], ex.params["n_neg"]) * Rational(r["pos"], ex.params["n_pos"]) / 2
                    for r in ex.steps[1:]), Integer(0))
    return Rational(sum(_col(ex, "tied"), Integer(0)), 2 * ex.params["n_pos"] * ex.params["n_neg"])


def _distinct_from(value, right) -> bool:
    """Whether a slip's value can be told from the right value (a float test first, 50 digits when close)."""
    if value is sympy.nan or value.has(sympy.zoo, sympy.oo, sympy.nan):
        return False
    x, y = _safe_float(value), _safe_float(right)
    if math.isfinite(x) and math.isfinite(y) and abs(x - y) > 1e-9 * max(1.0, abs(y)):
        return True
    return not equal(value, right)


def candidate_slips(ex: Explanation, context: dict):
    """Every (Mistake) the catalogue gives for ``ex``, lazily, the cheap percent slip for oversized input."""
    facts = _facts(ex, context)
    diagnosable = _diagnosable(ex, facts)
    for slip in SLIPS:
        if ex.metric not in slip.metrics and "*" not in slip.metrics:
            continue
        if not diagnosable and slip.key != "percent":
            continue
        yield from slip.mistakes(facts)


def mistakes(ex: Explanation, context: dict | None = None) -> list[Mistake]:
    """The usual mistakes for ``ex``, each with the value it gives, distinct from the right value.

    Parameters
    ----------
    ex : Explanation
        The right computation.
    context : dict, optional
        What the explanation cannot show: the whole returned list (``grades`` / ``rels``) when a
        cut-off hides its tail, or ``n_relevant`` for a precision exercise.

    Returns
    -------
    list of Mistake
        Each slip of :data:`SLIPS` that applies: its ``key``, the ``value`` it gives and the
        ``sentence`` that names it; a slip whose value equals the right value is left out. For a
        list longer than :data:`MAX_DIAGNOSED_ITEMS` items, or a grade above
        :data:`MAX_DIAGNOSED_GRADE`, only the percentage slip is recomputed.

    Examples
    --------
    P@2 of the list 1, 0, 1 is 1/2. Counting the top 1 gives 1/1 = 1, the top 3 gives 2/3 (the
    context shows rank 3, which the P@2 steps cut off), and the share as a percentage gives 50.

    >>> import ltr_teach as lt
    >>> ex = lt.precision_at_k([1, 0, 1], k=2)
    >>> [(m.key, m.value) for m in mistakes(ex, {"rels": [1, 0, 1]})]
    [('k', 1), ('k', 2/3), ('percent', 50)]
    """
    return [m for m in candidate_slips(ex, context or {}) if _distinct_from(m.value, ex.exact)]


# -- feedback -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Feedback:
    """What :func:`check` says about one answer.

    ``bool(feedback)`` is ``feedback.correct``. ``status`` is one of ``"right"``, ``"wrong"``,
    ``"too coarse"``, ``"unreadable"``, ``"not answered"`` (``"to mark"`` for a written answer, ``"revealed"``
    for the answer a page shows on request). ``expected`` is ``None`` unless the
    check was asked to reveal it. ``mistakes`` holds the keys of the slips that give the answer
    (``("gain",)``), empty when none matches.

    Examples
    --------
    NDCG@7 of the lipstick ranking 3, 2, 3, 0, 1, 2, 2 is 0.944227...; 0.944 rounds it at the
    three decimals written:

    >>> import ltr_teach as lt
    >>> feedback = judge(lt.ndcg([3, 2, 3, 0, 1, 2, 2], k=7), "0.944")
    >>> feedback, feedback.status, bool(feedback)
    (<Feedback right: NDCG@7>, 'right', True)
    """

    correct: bool
    status: str
    message: str
    target: str
    answer: str | None = None
    diagnosis: str | None = None
    hint: str | None = None
    expected: str | None = None
    mistakes: tuple = ()
    #: Why the right answer is right (a choice or create exercise): shown after a right answer or a reveal.
    explanation: str | None = None

    def __bool__(self) -> bool:
        return self.correct

    def _mark(self) -> str:
        return {"right": "✓", "not answered": "…", "to mark": "✎", "revealed": "→"}.get(self.status, "✗")

    def _details(self) -> list[tuple[str, str]]:
        """The ``(label, text)`` lines shown under the verdict, those that are set."""
        details = ((N_("likely mistake"), self.diagnosis), (N_("hint"), self.hint), (N_("expected"), self.expected),
                   (N_("why"), self.explanation))
        return [(_(label), text) for label, text in details if text]

    def __str__(self) -> str:
        colon = _(": ")  # a full-width colon in Chinese
        lines = [f"{self._mark()} {self.target}{colon}{self.message}"]
        lines += [f"  {label}{colon}{text}" for label, text in self._details()]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<Feedback {self.status}: {self.target}>"

    def _repr_html_(self) -> str:
        colour, background = {
            "right": ("#1b5e20", "#e8f5e9"), "not answered": ("#37474f", "#eceff1"),
            "too coarse": ("#8d6e00", "#fff8e1"), "revealed": ("#0d47a1", "#e3f2fd"),
        }.get(self.status, ("#b71c1c", "#ffebee"))
        esc = html.escape
        colon = _(": ")
        rows = [f"<b>{self._mark()} {esc(self.target)}</b>{colon}{esc(self.message)}"]
        rows += [f"<b>{esc(label[:1].upper() + label[1:])}{colon.rstrip()}</b> {esc(text)}"
                 for label, text in self._details()]
        body = "".join(f"<div style='margin:2px 0'>{r}</div>" for r in rows)
        return (f"<div class='ltr-teach-feedback' style='border-left:4px solid {colour};background:{background};"
                f"color:{colour};padding:6px 10px;margin:4px 0'>{body}</div>")


def judge(ex: Explanation, answer, reveal: bool = False, context: dict | None = None,
          target: str | None = None, hints=(), slips=None) -> Feedback:
    """Compare ``answer`` with ``ex.exact`` and build the :class:`Feedback` (see :func:`check`).

    Parameters
    ----------
    ex : Explanation
        The right computation.
    answer : str or number or None
        What the student wrote.
    reveal : bool
        Show the expected value in the feedback.
    context : dict, optional
        As in :func:`mistakes`.
    target : str, optional
        What the answer is for (default ``ex.name``).
    hints : sequence of str
        Hints shown with a wrong answer.
    slips : list of Mistake, optional
        The slips of ``ex`` already computed (``list(candidate_slips(ex, context))``): a caller that judges
        many answers to one computation (the website's self-tests) recomputes them once, not per answer.

    Returns
    -------
    Feedback
        Its ``status`` is ``"right"``, ``"not answered"``, ``"unreadable"``, ``"too coarse"`` or
        ``"wrong"``; a wrong answer that matches a usual slip names it.

    Examples
    --------
    P@2 of the list 1, 0, 1: one hit in the top 2, so 1/2 = 0.5. The answer 2/3 is two hits
    over three ranks, P@3, and the feedback names that slip.

    >>> import ltr_teach as lt
    >>> ex = lt.precision_at_k([1, 0, 1], k=2)
    >>> print(judge(ex, "0.5"))
    ✓ P@2: right: 0.5 is P@2 exactly.
    >>> print(judge(ex, "2/3", context={"rels": [1, 0, 1]}))
    ✗ P@2: not right: 2/3 is not P@2.
      likely mistake: You counted the top 3; P@2 looks at exactly the top 2.
    """
    target = target or ex.name
    expected = expected_text(ex.exact) if reveal else None
    if answer is None or (isinstance(answer, str) and not answer.strip()):
        return Feedback(False, "not answered", _("not answered yet: write your answer as text (a fraction, a decimal "
                                                 "or a percentage) and run the cell again."), target, expected=expected)
    shown = answer if isinstance(answer, str) else repr(answer)
    try:
        parsed = parse_answer(answer)
    except UnreadableAnswer as exc:
        return Feedback(False, "unreadable", _("could not read that answer: {reason}. Write for example {examples}.")
                        .format(reason=exc.reason(), examples=translate(EXAMPLES)), target, answer=shown[:80], expected=expected)
    right = ex.exact
    if right is sympy.nan:
        return Feedback(False, "wrong", _("{name} is undefined (NaN) for this input, so no number is right: {notes}")
                        .format(name=ex.name, notes=" ".join(translate(n) for n in ex.notes)), target, answer=shown,
                        expected=expected)
    if matches(parsed, right):
        if equal(parsed.value, right):
            how = _("right: {answer} is {name} exactly.")
        elif is_the_double(parsed, right):
            how = _("right: {answer} is {name} as exactly as a float can hold it.")
        elif parsed.decimals == 1:
            how = _("right: {answer} is {name} to 1 decimal place.")
        else:
            how = _("right: {answer} is {name} to {places} decimal places.")
        return Feedback(True, "right", how.format(answer=parsed.text, name=ex.name, places=parsed.decimals), target,
                        answer=shown, expected=expected)
    if parsed.is_rounded and parsed.significant >= MIN_SIGNIFICANT and truncates_to(right, parsed):
        rounded = _rounded_text(right, parsed.decimals)
        return Feedback(True, "right", _("right: {answer} is {name} to the {places} decimals written, but cut rather "
                                         "than rounded: rounded, it is {rounded}.").format(
                            answer=parsed.text, name=ex.name, places=parsed.decimals, rounded=rounded),
                        target, answer=shown, expected=expected)
    if parsed.is_rounded and rounds_to(right, parsed):
        coarse = (_("{answer} is too coarse: it has 1 significant digit; give at least {least} (or the exact "
                    "fraction).") if parsed.significant == 1 else
                  _("{answer} is too coarse: it has {digits} significant digits; give at least {least} (or the "
                    "exact fraction)."))
        return Feedback(False, "too coarse", coarse.format(answer=parsed.text, digits=parsed.significant,
                                                           least=MIN_SIGNIFICANT),
                        target, answer=shown, expected=expected)
    found = []
    for mistake in (candidate_slips(ex, context or {}) if slips is None else slips):
        if matches(parsed, mistake.value) and mistake.sentence not in [m.sentence for m in found]:
            found.append(mistake)
    if len(found) == 1:
        diagnosis = found[0].sentence
    elif found:
        diagnosis = _("{count} different slips give this number.").format(count=len(found)) + " " + " ".join(
            f"({n}) {m.sentence}" for n, m in enumerate(found, start=1))
    else:
        diagnosis = None
    message = _("not right: {answer} is not {name}.").format(answer=parsed.text, name=ex.name)
    if diagnosis is None and parsed.has_decimal_inside and _close(parsed.value, right):
        message += " " + _("It is close, but decimals inside an expression are taken literally (0.33 is 33/100): "
                           "keep fractions and logs exact, or give the final decimal alone.")
    elif diagnosis is None and parsed.value.is_Integer and not right.is_Integer and _close(parsed.value, right, 0.5):
        message += " " + _("If you rounded, give at least three significant digits.")
    generic = GENERIC_HINTS.get(ex.metric)
    hint = None if diagnosis else translate(hints[0] if hints else generic or "") or None
    return Feedback(False, "wrong", message, target, answer=shown, diagnosis=diagnosis, hint=hint,
                    expected=expected, mistakes=tuple(m.key for m in found))


def _rounded_text(value, places: int) -> str:
    """``value`` rounded half-up at ``places`` decimals, from 40 significant digits."""
    digits = mpmath.nstr(_high(value), 45, min_fixed=-mpmath.inf, max_fixed=mpmath.inf)
    with localcontext() as ctx:
        ctx.prec = 100
        return str(Decimal(digits).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


def _close(a, b, tolerance=None) -> bool:
    x, y = _safe_float(a), _safe_float(b)
    if tolerance is not None:
        return abs(x - y) <= tolerance
    return abs(x - y) <= 1e-2 * max(1.0, abs(y))


def check(target, answer, reveal: bool = False, seed=None) -> Feedback:
    """Check an answer to an exercise or to any computation, and say what went wrong.

    Parameters
    ----------
    target : str, Exercise or Explanation
        An exercise id (see ``lt.exercises.all()``), an exercise (``lt.exercises.variant(id, seed)``),
        or any explanation object, such as ``lt.ndcg([3, 2, 3, 0, 1, 2, 2], k=7)``.
    answer : str, number or None
        What the student typed: ``"599/840"``, ``"0.713"``, ``"71.3%"``, ``"7 + 3/log2(3)"``.
        ``None`` or an empty string means "not answered yet" (no error, so notebooks run).
    reveal : bool
        Show the expected value in the feedback.
    seed : int, optional
        Check the answer to the student's variant ``lt.exercises.variant(target, seed)``.

    Returns
    -------
    Feedback
        ``.correct`` (also ``bool(feedback)``), ``.message``, ``.diagnosis``, ``.hint``,
        ``.expected`` (only with ``reveal=True``).

    Examples
    --------
    The lipstick query's NDCG@7 is 0.944227..., so 0.944 is right at three decimals:

    >>> import ltr_teach as lt
    >>> ex = lt.ndcg([3, 2, 3, 0, 1, 2, 2], k=7)
    >>> bool(lt.check(ex, "0.944"))
    True

    The same ranking with linear gains gives 0.9548...; the checker recomputes NDCG with linear
    gains, finds the match and says so:

    >>> round(float(lt.ndcg([3, 2, 3, 0, 1, 2, 2], k=7, gain="linear")), 4)
    0.9548
    >>> print(lt.check(ex, "0.9548").diagnosis)
    You used the grade itself as the gain (linear gain); this exercise uses gains 2^rel - 1, so a grade-3 item is worth 7, not 3.
    >>> print(lt.check(ex, "0.9"))
    ✗ NDCG@7: 0.9 is too coarse: it has 1 significant digit; give at least 3 (or the exact fraction).
    """
    if isinstance(target, Explanation):
        if seed is not None:
            raise ValueError("seed only applies to an exercise id; an explanation is already one computation")
        return judge(target, answer, reveal=reveal)
    if isinstance(target, (exercises.Exercise, exercises.ChoiceExercise, exercises.CreateExercise,
                           exercises.WrittenExercise)):
        exercise = target if seed is None else exercises.variant(target.id, seed)
    else:
        exercise = exercises.variant(target, seed) if seed is not None else exercises.get(target)
    if exercise.kind == "create":
        return judge_creation(exercise, answer, reveal=reveal)
    if exercise.kind == "written":
        return judge_written(exercise, answer, reveal=reveal)
    if exercise.kind != "compute":
        return judge_choice(exercise, answer, reveal=reveal)
    return judge(exercise.explanation(), answer, reveal=reveal, context=exercise.context,
                 target=exercise.label, hints=exercise.procedure)  # the ladder's step 2


# -- choice and create exercises ------------------------------------------------------------------------------
#: The longest option answer read, in characters.
MAX_CHOICE_LENGTH = 200


def _option_key(exercise, answer) -> str:
    """The option a student chose: its key (any case), its text, or its letter a, b, c ... when no key is a
    single letter (so a letter never means two options); :class:`UnreadableAnswer` otherwise."""
    keys = list(exercise.options)
    if not isinstance(answer, str):
        raise UnreadableAnswer(N_("an answer is one of the options' names ({options}); got a {type}"),
                               options=", ".join(keys), type=type(answer).__name__)
    if len(answer) > MAX_CHOICE_LENGTH:
        raise UnreadableAnswer(N_("it is {n} characters long; an answer has at most {most}"), n=len(answer),
                               most=MAX_CHOICE_LENGTH)
    # NFKC folds what an input method types (ｒｉｓｅ, ＂rise＂) onto the key's letters
    typed = " ".join(unicodedata.normalize("NFKC", answer).strip().strip("\"'“”‘’「」『』。.").split()).casefold()
    by_key = {k.casefold(): k for k in keys}
    if typed in by_key:
        return by_key[typed]
    by_text = {}
    for language in ("en", "zh"):  # an option's own label, in either language of the course
        with using_language(language):
            for k in keys:
                label = unicodedata.normalize("NFKC", exercise.option_text(k))
                by_text.setdefault(" ".join(label.split()).casefold(), k)
    by_text.update({" ".join(unicodedata.normalize("NFKC", exercise.option_text(k)).split()).casefold(): k
                    for k in keys})
    if typed in by_text:
        return by_text[typed]
    # the words that set one option apart (上升 of “DCG 上升”): a run of whole words found in one option only
    runs: dict[str, set] = {}
    for label, k in by_text.items():
        words = label.split()
        for i in range(len(words)):
            for j in range(i + 1, len(words) + 1):
                runs.setdefault(" ".join(words[i:j]), set()).add(k)
    if len(typed) >= 2 and len(runs.get(typed, ())) == 1:
        return next(iter(runs[typed]))
    letters = "abcdefghijklmnopqrstuvwxyz"[:len(keys)]
    if len(typed) == 1 and typed in letters and not any(len(k) == 1 for k in keys):
        return keys[letters.index(typed)]
    raise UnreadableAnswer(N_("{answer} is not one of the options; answer with one of: {options}"),
                           answer=repr(answer.strip()[:40]), options=", ".join(keys))


def judge_choice(exercise, answer, reveal: bool = False) -> Feedback:
    """Check the option a student chose; a wrong option gets its own diagnosis (see :func:`check`).

    Examples
    --------
    >>> from ltr_teach.teaching.kinds import choice
    >>> ex = choice("demo-more", family="dcg_ndcg", kind="predict", title="t", question="A longer list?",
    ...             options={"rise": "DCG rises", "same": "DCG stays"}, correct="rise",
    ...             why={"same": "Every added item adds gain/discount >= 0."}, explanation="Terms only add.",
    ...             hints=("a", "b", "c"))
    >>> print(judge_choice(ex, "Same"))
    ✗ demo-more: not right: “DCG stays”.
      likely mistake: Every added item adds gain/discount >= 0.
    >>> print(judge_choice(ex, "a"))
    ✓ demo-more: right: “DCG rises”.
      why: Terms only add.
    """
    target = exercise.label
    # a verdict quotes the option as the student read it, in their language; the key is the code's name for it
    expected = _("“{text}”").format(text=exercise.option_text(exercise.correct)) if reveal else None
    explanation = exercise.explanation if reveal else None
    if answer is None or (isinstance(answer, str) and not answer.strip()):
        return Feedback(False, "not answered", _("not answered yet: choose one of {options}.").format(
            options=", ".join(exercise.options)), target, expected=expected, explanation=explanation)
    try:
        key = _option_key(exercise, answer)
    except UnreadableAnswer as exc:
        return Feedback(False, "unreadable", _("could not read that answer: {reason}.").format(reason=exc.reason()),
                        target, answer=str(answer)[:80], expected=expected, explanation=explanation)
    chosen = _("“{text}”").format(text=exercise.option_text(key))
    if key == exercise.correct:
        return Feedback(True, "right", _("right: {choice}.").format(choice=chosen), target, answer=key,
                        expected=expected, explanation=exercise.explanation)
    return Feedback(False, "wrong", _("not right: {choice}.").format(choice=chosen), target, answer=key,
                    diagnosis=exercise.why_text(key), expected=expected, explanation=explanation,
                    mistakes=(key,))


#: The longest written answer read, in characters (a few sentences; an essay is not this kind's).
MAX_WRITTEN_LENGTH = 2000


def judge_written(exercise, answer, reveal: bool = False) -> Feedback:
    """A written answer is never graded here: it is recorded as ``"to mark"`` by the teacher (see :func:`check`);
    the model answer is shown only when asked to reveal it.

    Examples
    --------
    >>> from ltr_teach.teaching.kinds import written
    >>> ex = written("demo-why", family="dcg_ndcg", title="t", question="Why a discount?",
    ...              model="Users read from the top.", hints=("a", "b", "c"),
    ...              rubric=((1, "names the reading order"), (1, "ties it to the discount")))
    >>> print(judge_written(ex, "Because lower ranks are read less."))
    ✎ demo-why: recorded: a written answer is marked by the teacher, not by the checker.
    >>> print(judge_written(ex, "Because lower ranks are read less.", reveal=True).expected)
    Users read from the top.
    Rubric (points in brackets): [1] names the reading order; [1] ties it to the discount
    """
    from .kinds import rubric_text

    target = exercise.label
    expected = exercise.model if reveal else None
    if reveal and exercise.rubric_ids:  # what the teacher will give points for, beside the model answer
        expected += "\n" + _("Rubric (points in brackets): {rubric}").format(rubric=rubric_text(exercise.rubric_ids))
    if answer is None or (isinstance(answer, str) and not answer.strip()):
        return Feedback(False, "not answered", _("not answered yet: write a few sentences."), target,
                        expected=expected)
    if not isinstance(answer, str):
        return Feedback(False, "unreadable", _("could not read that answer: a written answer is text, not a {type}.")
                        .format(type=type(answer).__name__), target, expected=expected)
    if len(answer) > MAX_WRITTEN_LENGTH:
        return Feedback(False, "unreadable", _("could not read that answer: it is {n} characters long; a written "
                                               "answer has at most {most}.").format(n=len(answer),
                                                                                     most=MAX_WRITTEN_LENGTH),
                        target, answer=answer[:80], expected=expected)
    return Feedback(False, "to mark", _("recorded: a written answer is marked by the teacher, not by the checker."),
                    target, answer=" ".join(answer.split())[:200], expected=expected)


def judge_creation(exercise, answer, reveal: bool = False) -> Feedback:
    """Read a typed ranking (no evaluation) and run the exercise's verifier on it (see :func:`check`).

    Examples
    --------
    >>> from ltr_teach.teaching.kinds import create
    >>> ex = create("demo-sorted", family="dcg_ndcg", title="t", question="Three grades, best first.",
    ...             shape="ranking", example=[2, 1, 0], hints=("a", "b", "c"),
    ...             verify=lambda r: None if list(r) == sorted(r, reverse=True) else "it is not sorted best first")
    >>> print(judge_creation(ex, "[0, 1, 2]"))
    ✗ demo-sorted: not right: [0, 1, 2] does not have the property asked for.
      likely mistake: it is not sorted best first
    >>> bool(judge_creation(ex, "3 3 1"))
    True
    """
    target = exercise.label
    expected = _("for example {example}").format(example=exercise.answer) if reveal else None
    explanation = (exercise.explanation or None) if reveal else None
    if answer is None or (isinstance(answer, str) and not answer.strip()):
        return Feedback(False, "not answered", _("not answered yet: type a ranking such as {example}.").format(
            example=RANKING_EXAMPLES[exercise.shape]), target, expected=expected, explanation=explanation)
    try:
        parsed = parse_rankings(answer, exercise.shape)
    except UnreadableAnswer as exc:
        return Feedback(False, "unreadable", _("could not read that answer: {reason}. Write for example {examples}.")
                        .format(reason=exc.reason(), examples=RANKING_EXAMPLES[exercise.shape]), target,
                        answer=str(answer)[:80], expected=expected, explanation=explanation)
    shown = exercises.example_text(parsed, exercise.shape)
    try:
        problem = exercise.verify(parsed)
    except ValueError as exc:  # the library refuses the ranking (an empty list ...): say why, as a wrong answer
        problem = _("the library cannot score it: {reason}").format(reason=exc)
    if problem is None:
        return Feedback(True, "right", _("right: {answer} has the property asked for.").format(answer=shown), target,
                        answer=shown, expected=expected, explanation=exercise.explanation or None)
    return Feedback(False, "wrong", _("not right: {answer} does not have the property asked for.").format(answer=shown),
                    target, answer=shown, diagnosis=translate(problem), expected=expected, explanation=explanation)
