"""Check a student's answer against a metric and say what went wrong.

:func:`check` reads the answer with :mod:`ltr_teach.teaching.answers` (never as code), compares it with the
exact value, and when it is wrong recomputes the same metric under the usual mistakes (linear gain
for 2^rel - 1, the natural log, the other discount, DCG for NDCG, the ideal from the returned list,
a sum for a mean, AP over the relevant retrieved, precision and recall swapped, the documents' F
formulas, ties counted 0 or 1, ERR with the DCG discount, an off-by-one rank ...). Every mistaken
value comes from the library itself, called with the mistaken setting; the one that matches the
answer is named in a sentence.

How answers are compared
------------------------
* A lone decimal (``0.944``, ``94.4%``) is right when the exact value rounds to it at the
  precision written (half a unit in its last place, either way); it needs at least three
  significant digits unless it is exactly the value (``0.5`` for 1/2).
* Anything else (``599/840``, ``7 + 3/log2(3)``) must be exactly the value. Rational values are
  compared as Rationals. Values with logarithms are compared at 50 significant digits: deciding
  symbolically that two log expressions are equal needs ``simplify``, which can be slow and is
  not guaranteed to decide; two different expressions built from the small numbers an answer can
  hold do not agree to 45 digits, so the numeric test is exact in practice and always fast.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import mpmath
import sympy
from sympy import Integer, Rational

from ..core.exact import to_float
from ..core.explanation import Explanation
from ..metrics import binary, graded
from ..metrics.graded import DISCOUNTS, GAINS
from . import exercises
from .answers import EXAMPLES, ParsedAnswer, UnreadableAnswer, parse_answer
from .hints import GENERIC_HINTS, expected_text

_DIGITS = 50
MIN_SIGNIFICANT = 3


def _high(x) -> mpmath.mpf:
    with mpmath.workdps(_DIGITS + 10):
        return mpmath.mpf(sympy.N(x, _DIGITS + 10))


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
    with mpmath.workdps(_DIGITS + 10):
        half_unit = mpmath.mpf(5) / mpmath.mpf(10) ** (answer.decimals + 1)
        written = mpmath.mpf(int(answer.value.p)) / int(answer.value.q)
        return abs(_high(value) - written) <= half_unit * (1 + mpmath.mpf(10) ** -30)


def _far_apart(answer: ParsedAnswer, value) -> bool:
    """A quick float test that rules out most candidates before the 50-digit comparison."""
    try:
        x, y = to_float(answer.value), to_float(value)
    except OverflowError:
        return False
    slack = 1e-9 * max(1.0, abs(y)) + (0.5 * 10.0 ** -answer.decimals if answer.is_rounded else 0.0)
    return abs(x - y) > slack


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
    if equal(answer.value, value):
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


def _col(ex: Explanation, key: str) -> list:
    return [row[key] for row in ex.steps if key in row]


def _other_gain(gain: str) -> str:
    return "linear" if gain == "exp2" else "exp2"


def _gain_sentence(gain: str, grades) -> str:
    """The gain slip's sentence; for exponential gains, worked on the highest grade of ``grades``."""
    if gain == "linear":
        return "You used gains 2^rel - 1; this exercise uses the grade itself as the gain (linear gain)."
    sentence = "You used the grade itself as the gain (linear gain); this exercise uses gains 2^rel - 1"
    top = max(grades, default=0)
    if top >= 2 and int(top) == top:  # grades 0 and 1 are worth the same under both gains
        top = int(top)
        return f"{sentence}, so a grade-{top} item is worth {2**top - 1}, not {top}."
    return f"{sentence}."
_DISCOUNT_SENTENCE = {
    "jarvelin": "You left rank 1 undiscounted and divided rank i by log2(i) (the Järvelin discount, or a rank "
                "off by one); this exercise divides rank i by log2(i + 1).",
    "log2": "You divided rank i by log2(i + 1); this exercise uses the Järvelin discount: rank 1 undiscounted, "
            "then log2(i).",
}
_SHIFT_SENTENCE = ("Your ranks are off by one: you divided rank i by log2(i + 2), as if counting ranks from 2 "
                   "(or from 0 with an extra + 1); rank 1 divides by log2(2) = 1.")


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


_ROUNDED_SENTENCE = ("You rounded each term to {places} decimal{s} before adding (as document 004 does); the "
                     "rounding errors add up. Keep fractions and logs exact, or six decimals, until the end.")


def _ratio(num, den):
    """``num / den``, or NaN (no answer can match it) when ``den`` is 0."""
    return num / den if den != 0 else sympy.nan


def _base_scale(base) -> object:
    """DCG with log_b(i + 1) discounts is DCG with log2(i + 1) discounts times log2(b)."""
    return sympy.log(base) / sympy.log(2)


def _graded_mistakes(ex: Explanation, context: dict) -> list[Mistake]:
    gain, discount = ex.params["gain"], ex.params["discount"]
    ranking, k, ideal_top, pool = _graded_lists(ex)
    other_discount = "log2" if discount == "jarvelin" else "jarvelin"
    out = []
    if ex.metric == "ndcg":
        variants = [
            ("gain", _other_gain(gain), discount,
             _gain_sentence(gain, ranking if max(ranking, default=0) >= 2 else ranking + ideal_top)),
            ("discount", gain, other_discount, _DISCOUNT_SENTENCE[other_discount]),
        ]
        for key, g, d, sentence in variants:
            if g == "exp2" and any(int(x) != x for x in ranking + ideal_top):
                continue
            out.append(Mistake(key, _ratio(_dcg_value(ranking, None, g, d), _dcg_value(ideal_top, None, g, d)),
                               sentence))
        if discount != "jarvelin":  # shifted Järvelin ranks are exactly the log2(i + 1) discount, named above
            out.append(Mistake("shift", _ratio(_shifted_dcg(ranking, gain, discount),
                                              _shifted_dcg(ideal_top, gain, discount)), _SHIFT_SENTENCE))
        dcg_v, idcg_v = ex.parts["dcg"].exact, ex.parts["idcg"].exact
        for places in (1, 2):
            rounded = _ratio(_rounded_sum(_col(ex.parts["dcg"], "contribution"), places),
                             _rounded_sum(_col(ex.parts["idcg"], "contribution"), places))
            sentence = _ROUNDED_SENTENCE.format(places=places, s="" if places == 1 else "s")
            out.append(Mistake("rounded_terms", rounded, sentence))
            cut = None if rounded is sympy.nan else Rational(int(rounded * 1000), 1000)
            if cut is not None and cut != Rational(int(ex.exact * 1000), 1000):  # document 004 cuts 0.82796 to 0.827
                out.append(Mistake("rounded_terms", cut,
                                   sentence + " You also cut the quotient after three decimals instead of rounding "
                                              "it."))
        out.append(Mistake("dcg_for_ndcg", dcg_v, "That is the DCG; NDCG divides it by the ideal DCG (IDCG)."))
        out.append(Mistake("idcg_for_ndcg", idcg_v, "That is the ideal DCG (IDCG); NDCG is DCG divided by IDCG."))
        out.append(Mistake("inverted", _ratio(idcg_v, dcg_v),
                           "You divided IDCG by DCG; NDCG is DCG / IDCG (at most 1)."))
        for base, name in ((sympy.E, "the natural log ln"), (Integer(10), "log10")):
            out.append(Mistake("base_dcg", dcg_v * _base_scale(base),
                               f"That is the DCG with {name} discounts; the question asks for NDCG (DCG / IDCG), "
                               "in which the base of the log cancels."))
        returned = _whole_list(ranking, k, context)
        from_list = None
        if pool is not None and returned:
            from_list = _ratio(dcg_v, _dcg_value(sorted(returned, reverse=True), k, gain, discount))
            out.append(Mistake("ideal_from_list", from_list,
                               "You built the ideal order from the returned list only; the ideal DCG sorts every "
                               "judged item of the query (the pool), including relevant items the ranking missed."))
        from_top_k = _ratio(dcg_v, _dcg_value(sorted(ranking, reverse=True), None, gain, discount))
        if k is not None and ranking and (from_list is None or not equal(from_top_k, from_list)):
            out.append(Mistake("ideal_from_top_k", from_top_k,
                               f"You sorted only the top {k} of the returned list to build the ideal; the ideal "
                               f"top {k} sorts every judged item of the query (the whole list, or the pool), "
                               f"including good items ranked below {k}."))
        if returned and k is not None and len(returned) > k:
            out.append(Mistake("k_ignored", graded.ndcg(returned, ideal=pool, gain=gain, discount=discount).exact,
                               f"You used the whole list; NDCG@{k} counts only the top {k} ranks, of the ranking "
                               "and of the ideal."))
        full_pool = sorted(pool if pool is not None else (returned or ranking), reverse=True)
        if k is not None and len(full_pool) > k:
            out.append(Mistake("ideal_uncut", _ratio(dcg_v, _dcg_value(full_pool, None, gain, discount)),
                               f"You did not cut the ideal list at k = {k}: IDCG@{k} sums only the top {k} ideal "
                               "ranks."))
        return out

    rows = ranking if ex.metric == "dcg" else ideal_top
    what = "DCG" if ex.metric == "dcg" else "ideal DCG"
    if not (gain == "linear" and any(int(x) != x for x in rows)):
        out.append(Mistake("gain", _dcg_value(rows, None, _other_gain(gain), discount), _gain_sentence(gain, rows)))
    out.append(Mistake("discount", _dcg_value(rows, None, gain, other_discount), _DISCOUNT_SENTENCE[other_discount]))
    if discount != "jarvelin":
        out.append(Mistake("shift", _shifted_dcg(rows, gain, discount), _SHIFT_SENTENCE))
    if discount == "log2":
        out.append(Mistake("base", _dcg_value(rows, None, gain, "ln"),
                           "You used the natural log ln(i + 1) as the discount; this exercise uses log2(i + 1). "
                           f"(The base changes the {what}, though it cancels in NDCG.)"))
        out.append(Mistake("base", ex.exact * _base_scale(10),
                           f"You used log10(i + 1) as the discount; this exercise uses log2(i + 1). (The base "
                           f"changes the {what}, though it cancels in NDCG.)"))
    elif discount == "ln":
        out.append(Mistake("base", _dcg_value(rows, None, gain, "log2"),
                           "You used log2(i + 1) as the discount; this exercise uses the natural log ln(i + 1)."))
    for places in (1, 2):
        out.append(Mistake("rounded_terms", _rounded_sum(_col(ex, "contribution"), places),
                           _ROUNDED_SENTENCE.format(places=places, s="" if places == 1 else "s")))
    out.append(Mistake("no_discount", sum((GAINS[gain].fn(g) for g in rows), Integer(0)),
                       "You added the gains without dividing by the discount: that is the cumulative gain of the "
                       "gains; DCG divides the gain at rank i by its discount."))
    returned = list(context.get("grades") or [])
    if ex.metric == "dcg" and k is not None and len(returned) > k:
        out.append(Mistake("k_ignored", _dcg_value(returned, None, gain, discount),
                           f"You added every rank of the list; DCG@{k} stops at rank {k}."))
    if ex.metric == "idcg" and returned:
        if pool is not None:
            out.append(Mistake("ideal_from_list", _dcg_value(sorted(returned, reverse=True), k, gain, discount),
                               "You sorted the returned list only; the ideal order sorts every judged item of the "
                               "query (the pool), including relevant items the ranking missed."))
        out.append(Mistake("unsorted", _dcg_value(returned, k, gain, discount),
                           "That is the DCG of the ranking as returned; the ideal DCG first sorts the grades best "
                           "first."))
    return out


def _cg_mistakes(ex: Explanation, context: dict) -> list[Mistake]:
    grades, k = _col(ex, "grade"), ex.params.get("k")
    full = list(context.get("grades") or grades)
    out = [Mistake("dcg_for_cg", graded.dcg(grades, gain="linear").exact,
                   "You discounted the grades; CG simply adds the grades of the top k, whatever their order.")]
    if all(int(g) == g for g in grades):
        out.append(Mistake("gain", sum((2**int(g) - 1 for g in grades), Integer(0)),
                           "You added gains 2^rel - 1; CG adds the grades themselves."))
    if k is not None:
        for kk in (k - 1, k + 1):
            if 1 <= kk <= len(full):
                out.append(Mistake("k", graded.cg(full, k=kk).exact,
                                   f"You added the top {kk} grades; CG@{k} adds exactly the top {k}."))
    return out


def _err_mistakes(ex: Explanation, context: dict) -> list[Mistake]:
    grades, g_max = _col(ex, "grade"), ex.params["g_max"]
    stops = _col(ex, "stop")
    out = [
        Mistake("err_dcg_discount",
                sum((s / DISCOUNTS["log2"].fn(i) for i, s in enumerate(stops, start=1)), Integer(0)),
                "You divided each stopping probability by log2(i + 1), the DCG discount; ERR divides by the rank "
                "i itself (it is the expected reciprocal rank)."),
        Mistake("shift", graded.err([0] + grades, g_max=g_max).exact,
                "Your ranks are off by one: you divided by i + 1; the first item is rank 1, divided by 1."),
        Mistake("err_no_cascade", sum((Rational(2**int(g) - 1, 2**g_max) / i for i, g in enumerate(grades, 1)),
                                      Integer(0)),
                "You left out the cascade: rank i counts only if the user did not stop earlier, so multiply "
                "R_i by (1 - R_1)...(1 - R_(i-1))."),
        Mistake("err_linear", _linear_err(grades, g_max),
                f"You took R_i = grade / {g_max}; the cascade model uses R_i = (2^grade - 1) / 2^{g_max}."),
    ]
    if g_max != 4 and max(grades) <= 4:
        out.append(Mistake("err_gmax", graded.err(grades, g_max=4).exact,
                           f"You used a maximum grade of 4 (as gdeval does); this scale's maximum grade is {g_max}."))
    out.append(Mistake("err_gmax_minus", _err_with_denominator(grades, 2**g_max - 1),
                       f"You divided 2^grade - 1 by 2^{g_max} - 1; the cascade model divides by 2^{g_max}, so even "
                       "a perfect item lets some users read on."))
    whole, k = context.get("grades"), ex.params.get("k")
    top = max(whole or grades)
    if 1 <= top < g_max and top != 4:  # a top grade of 4 is gdeval's maximum, named above
        out.append(Mistake("err_gmax_list", graded.err(grades, g_max=top).exact,
                           f"You took the highest grade in the list ({top}) as g_max; R_i divides by 2^g_max with "
                           f"g_max = {g_max}, the top of the grading scale, whatever grades this list holds."))
    if whole is not None and k is not None and len(whole) > k:
        out.append(Mistake("k_ignored", graded.err(whole, g_max=g_max).exact,
                           f"You added every rank of the list; ERR@{k} stops at rank {k}."))
    return out


def _cascade_err(stop_probabilities):
    """ERR from each rank's stop probability R_i: the sum of reach_i * R_i / i, where reach_i is the
    product of (1 - R_j) over the ranks above."""
    total, reach = Integer(0), Integer(1)
    for i, r in enumerate(stop_probabilities, start=1):
        total += reach * r / i
        reach *= 1 - r
    return total


def _linear_err(grades, g_max):
    return _cascade_err(Rational(g, g_max) for g in grades)


def _err_with_denominator(grades, denominator):
    return _cascade_err(Rational(2**int(g) - 1, denominator) for g in grades)


def _rr_mistakes(ex: Explanation, context: dict) -> list[Mistake]:
    rels = _col(ex, "rel")
    out = [Mistake("shift", binary.reciprocal_rank([0] + rels).exact,
                   "Your rank is off by one: the first item is rank 1, so the reciprocal rank is 1 / rank.")]
    if ex.exact != 0:
        out.append(Mistake("rank_not_reciprocal", 1 / ex.exact,
                           "That is the rank of the first relevant item; the reciprocal rank is 1 / that rank."))
    return out


def _mrr_mistakes(ex: Explanation, context: dict) -> list[Mistake]:
    queries = [_col(p, "rel") for p in ex.parts.values()]
    rrs = [p.exact for p in ex.parts.values()]
    out = [
        Mistake("sum_not_mean", sum(rrs, Integer(0)),
                f"You added the reciprocal ranks; MRR is their mean: divide the sum by the {len(rrs)} queries."),
        Mistake("shift", binary.mrr([[0] + q for q in queries]).exact,
                "Your ranks are off by one: the first item is rank 1, so its reciprocal rank is 1."),
    ]
    answered = [r for r in rrs if r != 0]
    if answered and len(answered) < len(rrs):
        missed = len(rrs) - len(answered)
        out.append(Mistake("mrr_dropped_miss", sum(answered, Integer(0)) / len(answered),
                           f"You left out the {'query' if missed == 1 else f'{missed} queries'} without a hit; a query "
                           "with no relevant result still counts, with reciprocal rank 0: divide by all "
                           f"{len(rrs)} queries."))
    if all(r != 0 for r in rrs):
        out.append(Mistake("mean_rank", len(rrs) / sum((1 / r for r in rrs), Integer(0)),
                           "You averaged the ranks and then took 1 / mean; MRR averages the reciprocal ranks "
                           "1/rank of each query."))
    return out


def _slipped_ks(k: int, whole_list) -> list[int]:
    """The cut-offs one off from ``k`` whose value can be known: k + 1 needs rank k + 1, which the
    explanation's steps (cut at k) do not hold, so only the whole returned list can give it."""
    return [kk for kk in (k - 1, k + 1) if kk >= 1 and (kk <= k or whole_list is not None)]


def _precision_mistakes(ex: Explanation, context: dict) -> list[Mistake]:
    rels, k = _col(ex, "rel"), ex.params["k"]
    full = list(context.get("rels") or rels)
    out = []
    if context.get("n_relevant"):
        out.append(Mistake("swapped", binary.recall_at_k(full, k, n_relevant=context["n_relevant"]).exact,
                           "That is the recall (hits / all relevant); precision divides the hits in the top k by k."))
    for kk in _slipped_ks(k, context.get("rels")):
        out.append(Mistake("k", binary.precision_at_k(full, kk).exact,
                           f"You counted the top {kk}; P@{k} looks at exactly the top {k}."))
    if len(rels) < k:
        out.append(Mistake("short_list", Rational(sum(rels), len(rels)),
                           f"You divided by the {len(rels)} items returned; P@{k} always divides by k = {k} (the "
                           "empty ranks count as not relevant)."))
    return out


def _recall_mistakes(ex: Explanation, context: dict) -> list[Mistake]:
    rels, k, n_rel = _col(ex, "rel"), ex.params["k"], ex.params["n_relevant"]
    full = list(context.get("rels") or rels)
    out = [Mistake("swapped", binary.precision_at_k(full, k).exact,
                   "That is the precision (hits / k); recall divides the hits by the number of relevant documents.")]
    found = sum(full)
    whole_known = context.get("rels") is not None or len(rels) < k  # else the steps stop at rank k
    if whole_known and found and n_rel > found:
        out.append(Mistake("retrieved_only", binary.recall_at_k(full, k).exact,
                           f"You divided by the {found} relevant items in the list; recall divides by all {n_rel} "
                           "relevant documents of the collection, found or not."))
    for kk in _slipped_ks(k, context.get("rels")):
        out.append(Mistake("k", binary.recall_at_k(full, kk, n_relevant=n_rel).exact,
                           f"You counted the top {kk}; R@{k} looks at exactly the top {k}."))
    return out


def _f_mistakes(ex: Explanation, context: dict) -> list[Mistake]:
    p, r = ex.parts["precision"].exact, ex.parts["recall"].exact
    b2 = ex.params["beta"] ** 2
    b = ex.params["beta"]
    out = [
        Mistake("f_doc000", _ratio((1 + b2) * (p + r), b2 * p + r),
                "You used document 000's formula (1 + β²)(P + R) / (β²P + R); the numerator is a product: "
                "F = (1 + β²)·P·R / (β²·P + R)."),
        Mistake("f_doc003", _ratio((b2 + 1) * p * r, b2 * (p + r)),
                "You used document 003's formula (β² + 1)PR / (β²(P + R)); the denominator is β²·P + R, "
                "with β² on P only."),
        Mistake("f_arithmetic", (p + r) / 2, "You took the arithmetic mean (P + R) / 2; F is a harmonic mean: "
                                            "(1 + β²)·P·R / (β²·P + R)."),
    ]
    if b != 1:
        out.append(Mistake("f_swapped", _ratio((1 + b2) * p * r, b2 * r + p),
                           "You put β² on the recall; F-beta is (1 + β²)·P·R / (β²·P + R): β² multiplies P in the "
                           "denominator, so β > 1 favours recall."))
        out.append(Mistake("f_beta_not_squared", _ratio((1 + b) * p * r, b * p + r),
                           "You used β where the formula has β²."))
        out.append(Mistake("f1", _ratio(2 * p * r, p + r), f"That is F1; this exercise asks for β = {b}."))
    out.append(Mistake("swapped_p", p, "That is the precision alone; F combines precision and recall."))
    out.append(Mistake("swapped_r", r, "That is the recall alone; F combines precision and recall."))
    return out


def _ap_mistakes(ex: Explanation, context: dict) -> list[Mistake]:
    rels, n_rel = _col(ex, "rel"), ex.params["n_relevant"]
    found = sum(rels)
    out = []
    if found and n_rel > found:
        out.append(Mistake("ap_retrieved", binary.average_precision(rels).exact,
                           f"You divided by the {found} relevant items retrieved; AP divides by all {n_rel} relevant "
                           "documents (each one never retrieved adds precision 0)."))
    out.append(Mistake("shift", binary.average_precision([0] + rels, n_relevant=n_rel).exact,
                       "Your ranks are off by one: the precision at rank i is hits / i with the first item at rank 1."))
    out.append(Mistake("ap_all_ranks", sum(_col(ex, "precision"), Integer(0)) / len(rels),
                       "You averaged the precision at every rank; AP averages it only at the ranks of relevant "
                       "items."))
    out.append(Mistake("sum_not_mean", ex.steps[-1]["sum"],
                       f"You added the precisions but did not divide by the {n_rel} relevant documents."))
    return out


def _map_mistakes(ex: Explanation, context: dict) -> list[Mistake]:
    aps = [p.exact for p in ex.parts.values()]
    queries = [_col(p, "rel") for p in ex.parts.values()]
    counts = [p.params["n_relevant"] for p in ex.parts.values()]
    out = [Mistake("sum_not_mean", sum(aps, Integer(0)),
                   f"You added the average precisions; MAP is their mean: divide by the {len(aps)} queries.")]
    if any(n > sum(q) for n, q in zip(counts, queries)):
        out.append(Mistake("ap_retrieved", binary.mean_average_precision(queries).exact,
                           "You divided each AP by the relevant items retrieved; AP divides by all relevant "
                           "documents of the query (each one never retrieved adds precision 0)."))
    out.append(Mistake("shift", binary.mean_average_precision([[0] + q for q in queries], n_relevant=counts).exact,
                       "Your ranks are off by one: the precision at rank i is hits / i with the first item at rank 1."))
    return out


def _interp_mistakes(ex: Explanation, context: dict) -> list[Mistake]:
    rels, n_rel = _col(ex, "rel"), ex.params["n_relevant"]
    out = []
    level = ex.params.get("recall")
    if level is None:
        out.append(Mistake("not_interpolated", binary.average_precision(rels, n_relevant=n_rel).exact,
                           "That is the plain (non-interpolated) AP; interpolate first: at each relevant rank take "
                           "the best precision at that rank or below it."))
    else:
        reached = [row for row in ex.steps if row["recall"] >= level]
        if reached:
            out.append(Mistake("not_interpolated", reached[0]["precision"],
                               "That is the precision where the recall first reaches the level; interpolated "
                               "precision takes the best precision at any recall >= the level."))
    return out


def _eleven_mistakes(ex: Explanation, context: dict) -> list[Mistake]:
    values = _col(ex, "interpolated")
    total = sum(values, Integer(0))
    return [
        Mistake("eleven_ten", total / 10, "You divided by 10; there are 11 recall levels 0, 0.1, ..., 1.0."),
        Mistake("eleven_skip0", sum(values[1:], Integer(0)) / 10,
                "You left out recall level 0; the 11 levels are 0, 0.1, ..., 1.0."),
        Mistake("not_interpolated", ex.parts["pr"].exact,
                "That is the all-point interpolated AP; the 11-point AP averages the interpolated precision at "
                "the 11 recall levels 0, 0.1, ..., 1.0."),
    ]


def _auc_mistakes(ex: Explanation, context: dict) -> list[Mistake]:
    pairs = ex.params["n_pos"] * ex.params["n_neg"]
    if ex.metric == "roc_curve":
        # a block of tied scores moves the curve diagonally: half of its rectangle is the ties' 1/2 credit
        tied_area = sum((Rational(r["neg"], ex.params["n_neg"]) * Rational(r["pos"], ex.params["n_pos"]) / 2
                         for r in ex.steps[1:]), Integer(0))
        zero, one = ex.exact - tied_area, ex.exact + tied_area
    else:
        below = sum(_col(ex, "below"), Integer(0))
        tied = sum(_col(ex, "tied"), Integer(0))
        zero, one = Rational(below, pairs), Rational(below + tied, pairs)
    return [
        Mistake("ties_zero", zero, "You counted a tied positive-negative pair as 0; a tie is worth 1/2 "
                                   "(the ROC curve crosses a tied block diagonally)."),
        Mistake("ties_one", one, "You counted a tied positive-negative pair as a win (1); a tie is worth 1/2."),
        Mistake("reversed", 1 - ex.exact, "You counted the pairs where the negative scores higher: AUC counts "
                                          "the pairs where the positive scores higher."),
        Mistake("not_divided", ex.exact * pairs, f"You counted the pairs won but did not divide by the {pairs} "
                                                  "positive-negative pairs."),
    ]


_MISTAKES: dict[str, Callable] = {
    "cg": _cg_mistakes, "dcg": _graded_mistakes, "idcg": _graded_mistakes, "ndcg": _graded_mistakes,
    "err": _err_mistakes, "reciprocal_rank": _rr_mistakes, "mrr": _mrr_mistakes,
    "precision_at_k": _precision_mistakes, "recall_at_k": _recall_mistakes, "f_beta": _f_mistakes,
    "average_precision": _ap_mistakes, "mean_average_precision": _map_mistakes,
    "interpolated_precision": _interp_mistakes, "eleven_point_ap": _eleven_mistakes,
    "roc_curve": _auc_mistakes, "auc": _auc_mistakes,
}


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
        Each slip's ``key``, the ``value`` it gives and the ``sentence`` that names it; a slip
        whose value equals the right value (or another slip's) is left out.

    Examples
    --------
    P@2 of the list 1, 0, 1 is 1/2. Counting the top 1 gives 1/1 = 1, the top 3 gives 2/3 (the
    context shows rank 3, which the P@2 steps cut off), and the share as a percentage gives 50.

    >>> import ltr_teach as lt
    >>> ex = lt.precision_at_k([1, 0, 1], k=2)
    >>> [(m.key, m.value) for m in mistakes(ex, {"rels": [1, 0, 1]})]
    [('k', 1), ('k', 2/3), ('percent', 50)]
    """
    context = context or {}
    found = list(_MISTAKES[ex.metric](ex, context)) if ex.metric in _MISTAKES else []
    found.append(Mistake("percent", ex.exact * 100,
                         "You gave a percentage without the % sign: add % or divide by 100."))
    kept = []
    for m in found:
        if m.value is sympy.nan or m.value.has(sympy.zoo, sympy.oo) or equal(m.value, ex.exact):
            continue
        kept.append(m)
    return kept


# -- feedback -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Feedback:
    """What :func:`check` says about one answer.

    ``bool(feedback)`` is ``feedback.correct``. ``status`` is one of ``"right"``, ``"wrong"``,
    ``"too coarse"``, ``"unreadable"``, ``"not answered"``. ``expected`` is ``None`` unless the
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

    def __bool__(self) -> bool:
        return self.correct

    def _mark(self) -> str:
        return {"right": "✓", "not answered": "…"}.get(self.status, "✗")

    def _details(self) -> list[tuple[str, str]]:
        """The ``(label, text)`` lines shown under the verdict, those that are set."""
        details = (("likely mistake", self.diagnosis), ("hint", self.hint), ("expected", self.expected))
        return [(label, text) for label, text in details if text]

    def __str__(self) -> str:
        lines = [f"{self._mark()} {self.target}: {self.message}"]
        lines += [f"  {label}: {text}" for label, text in self._details()]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<Feedback {self.status}: {self.target}>"

    def _repr_html_(self) -> str:
        colour, background = {
            "right": ("#1b5e20", "#e8f5e9"), "not answered": ("#37474f", "#eceff1"),
            "too coarse": ("#8d6e00", "#fff8e1"),
        }.get(self.status, ("#b71c1c", "#ffebee"))
        esc = html.escape
        rows = [f"<b>{self._mark()} {esc(self.target)}</b>: {esc(self.message)}"]
        rows += [f"<b>{label.capitalize()}:</b> {esc(text)}" for label, text in self._details()]
        body = "".join(f"<div style='margin:2px 0'>{r}</div>" for r in rows)
        return (f"<div class='ltr-teach-feedback' style='border-left:4px solid {colour};background:{background};"
                f"color:{colour};padding:6px 10px;margin:4px 0'>{body}</div>")


def judge(ex: Explanation, answer, reveal: bool = False, context: dict | None = None,
          target: str | None = None, hints=()) -> Feedback:
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
        return Feedback(False, "not answered", "not answered yet: write your answer as text (a fraction, a decimal "
                        "or a percentage) and run the cell again.", target, expected=expected)
    shown = answer if isinstance(answer, str) else repr(answer)
    try:
        parsed = parse_answer(answer)
    except UnreadableAnswer as exc:
        return Feedback(False, "unreadable", f"could not read that answer: {exc}. Write for example {EXAMPLES}.",
                        target, answer=shown[:80], expected=expected)
    right = ex.exact
    if right is sympy.nan:
        return Feedback(False, "wrong", f"{ex.name} is undefined (NaN) for this input, so no number is right: "
                        f"{' '.join(ex.notes)}", target, answer=shown, expected=expected)
    if matches(parsed, right):
        how = "exactly" if equal(parsed.value, right) else \
            f"to {parsed.decimals} decimal place{'' if parsed.decimals == 1 else 's'}"
        return Feedback(True, "right", f"right: {parsed.text} is {ex.name} {how}.", target, answer=shown,
                        expected=expected)
    if parsed.is_rounded and rounds_to(right, parsed):
        return Feedback(False, "too coarse", f"{parsed.text} is too coarse: it has {parsed.significant} significant "
                        f"digit{'s' if parsed.significant > 1 else ''}; give at least {MIN_SIGNIFICANT} "
                        "(or the exact fraction).", target, answer=shown, expected=expected)
    found = []
    for mistake in mistakes(ex, context):
        if matches(parsed, mistake.value) and mistake.sentence not in [m.sentence for m in found]:
            found.append(mistake)
    if len(found) == 1:
        diagnosis = found[0].sentence
    elif found:
        diagnosis = f"{len(found)} different slips give this number. " + " ".join(
            f"({n}) {m.sentence}" for n, m in enumerate(found, start=1))
    else:
        diagnosis = None
    message = f"not right: {parsed.text} is not {ex.name}."
    if diagnosis is None and parsed.has_decimal_inside and _close(parsed.value, right):
        message += (" It is close, but decimals inside an expression are taken literally (0.33 is 33/100): "
                    "keep fractions and logs exact, or give the final decimal alone.")
    elif diagnosis is None and parsed.value.is_Integer and not right.is_Integer and _close(parsed.value, right, 0.5):
        message += " If you rounded, give at least three significant digits."
    hint = None if diagnosis else (hints[0] if hints else GENERIC_HINTS.get(ex.metric))
    return Feedback(False, "wrong", message, target, answer=shown, diagnosis=diagnosis, hint=hint,
                    expected=expected, mistakes=tuple(m.key for m in found))


def _close(a, b, tolerance=None) -> bool:
    x, y = to_float(a), to_float(b)
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
    if isinstance(target, exercises.Exercise):
        exercise = target if seed is None else exercises.variant(target.id, seed)
    else:
        exercise = exercises.variant(target, seed) if seed is not None else exercises.get(target)
    return judge(exercise.explanation(), answer, reveal=reveal, context=exercise.context,
                 target=exercise.label, hints=exercise.hints)
