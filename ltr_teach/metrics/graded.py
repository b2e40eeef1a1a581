"""Graded-relevance metrics: CG, DCG, IDCG, NDCG and ERR (the cascade model).

Grades are given in ranked order (rank 1 first). Gains and discounts are named entries of
:data:`GAINS` and :data:`DISCOUNTS` (defined in :mod:`.gains`, each with its exact and its NumPy
form); the widget controls, the command line and the error messages are generated from them.

References
----------
Järvelin, K. & Kekäläinen, J. (2002). Cumulated gain-based evaluation of IR techniques. ACM TOIS.
Burges, C. et al. (2005). Learning to rank using gradient descent. ICML.
Chapelle, O., Metzler, D., Zhang, Y. & Grinspan, P. (2009). Expected reciprocal rank for graded
relevance. CIKM.
"""

from __future__ import annotations

import math
from collections import Counter

import sympy
from sympy import Integer

from ..core.exact import RunningSum, fmt_latex, fmt_value, over
from ..core.explanation import Column, Explanation, Terms
from ..core.i18n import N_, Message
from ..core.validate import (
    MAX_EXPONENT,
    MAX_ITEMS,
    MAX_POOL,
    as_choice,
    as_count,
    as_grades,
    as_k,
    read_negative_grades,
)
from .conventions import negative_rule, resolve, unset

# GAINS and DISCOUNTS are re-exported: lt.GAINS, the widgets and the checker read them from here
from .gains import DISCOUNTS, GAINS, Discount, Gain, as_discount, as_gain  # noqa: F401
from .ordering import annotate, ranked_from_scores

ZERO_RULES = {
    "zero": N_("an IDCG of 0 (no relevant item) gives NDCG 0 (trec_eval, scikit-learn)"),
    "one": N_("an IDCG of 0 gives NDCG 1 (LightGBM, XGBoost)"),
    "nan": N_("an IDCG of 0 gives NaN (undefined)"),
    "raise": N_("an IDCG of 0 raises ValueError"),
}


#: ERR's fractions have denominators 2^(g_max·rank): g_max × ranks bounds their size, and with it the time
#: (20,000 bits: 1,000 ranks of a 0..20 scale in about 0.3 s with text and LaTeX; benchmarks/bench_limits.py).
ERR_MAX_BITS = 20_000


def _at(name: str, k) -> str:
    return name if k is None else f"{name}@{k}"


def _setup(grades, k, gain, discount, name="grades", limit=MAX_ITEMS):
    gain, discount = as_gain(gain), as_discount(discount)
    k = as_k(k)
    grades = as_grades(grades, name, integer=gain.integer_grades, limit=limit)
    return grades, k, gain, discount


def _grades_limit(k, scores) -> int:
    """How many grades a DCG/NDCG reads: with a cut-off and no scores its table shows k rows, so the ranks
    below k are only read (for the ideal list), up to MAX_POOL; otherwise one row per item, up to MAX_ITEMS."""
    return MAX_POOL if as_k(k) is not None and scores is None else MAX_ITEMS


def _best_first(pool, gain: Gain, keep=None) -> list:
    """The ``keep`` (all when None) items of ``pool`` with the largest gains, best first: sorted by the gain of
    each distinct grade (a pool of 20,000 judged grades has a handful of distinct ones), not item by item."""
    counts = Counter(pool)
    out = []
    for value in sorted(counts, key=lambda v: (gain.exact(v), v), reverse=True):
        take = counts[value] if keep is None else min(counts[value], keep - len(out))
        out.extend([value] * take)
        if keep is not None and len(out) >= keep:
            break
    return out


def _dcg_rows(grades, k, gain: Gain, discount: Discount, ranked=None) -> list[dict]:
    """Rows of a DCG table; the last row's ``cumulative`` is the DCG (0 for an empty list).

    With a ``ranked`` whose tie rule averages, each rank's gain is the mean gain of its tie group.
    """
    n = len(grades) if k is None else min(k, len(grades))
    if ranked is not None and ranked.averaged:
        gains = ranked.group_mean([gain.fn(g) for g in grades])
    else:
        gains = [gain.fn(g) for g in grades[:n]]  # the ranks below k are not shown: no gain to compute
    rows, total = [], RunningSum()  # each partial sum in linear time: a 1,000-rank table stays fast
    for i in range(1, n + 1):
        g = grades[i - 1]
        gv = gains[i - 1]
        dv = discount.fn(i)
        c = over(gv, dv)
        total.add(c)
        rows.append({"rank": i, "grade": g, "gain": gv, "discount": dv, "contribution": c,
                     "cumulative": total.value()})
    return rows


def _sum_latex(rows) -> str:
    if not rows:
        return "0"
    return " + ".join(r"\frac{%s}{%s}" % (fmt_latex(r["gain"]), fmt_latex(r["discount"])) for r in rows)


def _dcg_formula(label: str, k, gain: Gain, discount: Discount, star: str = "") -> str:
    upper = "k" if k is not None else "n"
    rel = gain.latex.replace("rel_i", "rel^{*}_i") if star else gain.latex
    return r"\mathrm{%s} = \sum_{i=1}^{%s} \frac{%s}{%s}" % (label, upper, rel, discount.latex)


_DCG_COLUMNS = (
    Column("rank", "rank"),
    Column("grade", "grade"),
    Column("gain", "gain"),
    Column("discount", "discount"),
    Column("contribution", "gain/discount"),
    Column("cumulative", "DCG so far", exact=False, sums="contribution"),
)


def _terms(rows, key: str = "contribution", over=None):
    """The value's terms in rank order, one per rank (a 0 included)."""
    return Terms(tuple(r[key] for r in rows), over) if rows else None


def cg(grades, k=None) -> Explanation:
    """Cumulative gain: the sum of the grades of the top ``k``; blind to their order.

    Parameters
    ----------
    grades : sequence of non-negative numbers
        Graded relevance in ranked order.
    k : int >= 1 or None
        Cut-off; ``None`` (or a ``k`` beyond the list) means the whole list.

    Returns
    -------
    Explanation
        ``.exact`` is the sum (a SymPy number); ``.steps`` has one row per rank with the grade and
        the running total ``cumulative``.

    Examples
    --------
    The movie example: ratings 5, 3, 2, 1, 2 add up to 13, whatever their order.

    >>> import ltr_teach as lt
    >>> lt.cg([5, 3, 2, 1, 2]).exact
    13
    >>> lt.cg([5, 2, 3, 1, 2], k=2).exact   # 5 + 2
    7
    """
    k = as_k(k)
    grades = as_grades(grades)
    n = len(grades) if k is None else min(k, len(grades))
    rows, total = [], Integer(0)
    for i in range(1, n + 1):
        total = total + grades[i - 1]
        rows.append({"rank": i, "grade": grades[i - 1], "cumulative": total})
    name = _at("CG", k)
    return Explanation(
        metric="cg", name=name, exact=rows[-1]["cumulative"],
        columns=(Column("rank", "rank"), Column("grade", "grade"), Column("cumulative", "CG so far", sums="grade")),
        steps=tuple(rows), params={"k": k}, terms=_terms(rows, "grade"),
        formula=r"\mathrm{%s} = \sum_{i=1}^{%s} rel_i" % (name, "k" if k else "n"),
        substitution=" + ".join(fmt_latex(r["grade"]) for r in rows),
    )


def dcg(grades, k=None, gain=unset("exp2"), discount=unset("log2"), *, scores=None, docids=None, ties=None,
        convention=None) -> Explanation:
    """Discounted cumulative gain: each gain divided by its rank's discount, summed.

    Parameters
    ----------
    grades : sequence of non-negative numbers
        Graded relevance in ranked order (whole numbers for ``gain="exp2"``).
    k : int >= 1 or None
        Cut-off; ``None`` (or a ``k`` beyond the list) means the whole list.
    gain : {"exp2", "linear", "binary"} or dict
        ``"exp2"``: 2^grade - 1 (default); ``"linear"``: the grade itself; ``"binary"``: 1 for a grade
        >= 1; a ``{grade: gain}`` table (trec_eval's ``ndcg.1=3,2=9``: grades not listed keep their value).
    discount : {"log2", "ln", "jarvelin"}
        ``"log2"``: log2(i + 1) (default); ``"ln"``: ln(i + 1); ``"jarvelin"``: 1 at rank 1,
        then log2(i).
    scores : sequence of numbers, optional
        The model's score for each item; ``grades`` are then in any order and the ranking is
        score descending.
    docids : sequence of str, optional
        Document ids, shown in the steps and used by ``ties="docid_desc"``.
    ties : {"stable", "docid_desc", "average", "pessimistic", "optimistic"}, optional
        How tied scores are ordered (``lt.TIE_RULES``); default ``"stable"`` (input order).
    convention : str, optional
        A preset of ``lt.CONVENTIONS`` supplying gain, discount and ties; explicit keywords win.

    Returns
    -------
    Explanation
        ``.exact`` is the DCG as exact logs; ``.steps`` has one row per rank: ``grade``, ``gain``,
        ``discount``, ``contribution`` (gain/discount) and the running ``cumulative`` DCG.
        With ``scores`` the steps also show each rank's document, score and tie group, and
        ``.params["order"]`` holds the document ids in ranked order.

    Examples
    --------
    Grades 3, 2, 3 with exponential gain: 7/log2(2) + 3/log2(3) + 7/log2(4) = 7 + 3/log2(3) + 7/2.

    >>> import ltr_teach as lt
    >>> ex = lt.dcg([3, 2, 3])
    >>> ex.exact
    3/log2(3) + 21/2
    >>> round(float(ex), 6)
    12.392789

    With linear gain and the Järvelin discount, ranks 1 and 2 are both divided by 1 and rank 4 by 2:

    >>> lt.dcg([3, 2, 0, 1], gain="linear", discount="jarvelin").exact   # 3 + 2 + 0 + 1/2
    11/2

    scikit-learn averages tied scores: grades 1 and 0 tie at the top, so each of ranks 1 and 2 gets
    gain (1 + 0)/2 and DCG = 1/2·(1/log2(2) + 1/log2(3)):

    >>> lt.dcg([1, 0], scores=[0.5, 0.5], convention="sklearn").exact
    1/(2*log2(3)) + 1/2
    """
    s = resolve(convention, gain=gain, discount=discount, ties=ties)
    limit = _grades_limit(k, scores)
    grades, read_notes = read_negative_grades(grades, "grades", negative_rule(convention), "not_relevant", limit=limit)
    grades, k, g, d = _setup(grades, k, s["gain"], s["discount"], limit=limit)
    ranked = ranked_from_scores(grades, scores, docids, s["ties"] if scores is not None else ties, "dcg")
    return _dcg_explanation(grades, k, g, d, ranked, read_notes)


def _dcg_explanation(grades, k, g: Gain, d: Discount, ranked, read_notes=()) -> Explanation:
    rows = _dcg_rows(list(ranked.grades) if ranked else grades, k, g, d, ranked)
    name = _at("DCG", k)
    ex = Explanation(
        metric="dcg", name=name, exact=rows[-1]["cumulative"], columns=_DCG_COLUMNS, steps=tuple(rows),
        params={"k": k, "gain": g.name, "discount": d.name},
        formula=_dcg_formula(name, k, g, d), substitution=_sum_latex(rows), terms=_terms(rows),
        notes=tuple(read_notes) + _average_note(ranked),
    )
    return annotate(ex, ranked) if ranked else ex


def _average_note(ranked) -> tuple:
    if ranked is None or not ranked.averaged or not ranked.tied_groups():
        return ()
    return (Message(N_("ties='average': every rank of a tied group gets the group's mean gain, the mean DCG over "
                       "all orders of the tied items")),)


def _ideal_pool(grades, ideal, integer: bool):
    """The judged pool (unsorted); checks that it holds every positive grade of the list."""
    if ideal is None:
        return grades
    pool = as_grades(ideal, "ideal", integer=integer, allow_empty=True, limit=MAX_POOL)
    have, need = Counter(g for g in pool if g > 0), Counter(g for g in grades if g > 0)
    for grade, count in sorted(need.items(), reverse=True):
        if have[grade] < count:
            raise ValueError(
                f"ideal must hold every judged grade of the ranking (it is the query's whole judged pool); "
                f"grade {grade} appears {count} time(s) in grades but {have[grade]} time(s) in ideal"
            )
    return pool


def idcg(grades, k=None, gain=unset("exp2"), discount=unset("log2"), ideal=None, *, convention=None) -> Explanation:
    """Ideal DCG: the DCG of the best possible order of the judged pool.

    Parameters
    ----------
    grades : sequence of non-negative numbers
        Graded relevance in ranked order.
    k, gain, discount
        As in :func:`dcg`.
    ideal : sequence of non-negative numbers, optional
        Every judged grade of the query, retrieved or not (the pool). By default the ideal order
        is the given grades sorted best first, which cannot see relevant items the ranking missed.
    convention : str, optional
        A preset of ``lt.CONVENTIONS`` supplying gain and discount; explicit keywords win.

    Returns
    -------
    Explanation
        ``.exact`` is the ideal DCG (0 when nothing is relevant); ``.steps`` are the rows of the
        ideal order, as in :func:`dcg`; ``.params["ideal"]`` is the sorted pool when ``ideal`` was given.

    Examples
    --------
    The movie example: five films rated 5, 3, 2, 1, 2 were shown, but the user rated seven
    (5, 3, 2, 1, 2, 4, 0). The ideal top 5 is 5, 4, 3, 2, 2:

    >>> import ltr_teach as lt
    >>> ex = lt.idcg([5, 3, 2, 1, 2], k=5, ideal=[5, 3, 2, 1, 2, 4, 0])
    >>> [int(r["grade"]) for r in ex.steps]
    [5, 4, 3, 2, 2]
    >>> round(float(ex), 4)   # 31 + 15/log2(3) + 7/2 + 3/log2(5) + 3/log2(6)
    46.4165
    """
    s = resolve(convention, gain=gain, discount=discount)
    rule = negative_rule(convention)
    limit = _grades_limit(k, None)
    grades, read_notes = read_negative_grades(grades, "grades", rule, "not_relevant", limit=limit)
    if ideal is not None:
        ideal, ideal_notes = read_negative_grades(ideal, "ideal", rule, "dropped", allow_empty=True, limit=MAX_POOL)
        read_notes += ideal_notes
    grades, k, g, d = _setup(grades, k, s["gain"], s["discount"], limit=limit)
    return _idcg_explanation(grades, k, g, d, ideal, read_notes)


def _idcg_explanation(grades, k, g: Gain, d: Discount, ideal, read_notes=()) -> Explanation:
    # best gain first: a per-grade gain table need not grow with the grade (trec_eval sorts by gain too)
    pool = _best_first(_ideal_pool(grades, ideal, g.integer_grades), g)  # the whole pool in ideal order
    shown, notes = pool, ()
    if k is None and len(pool) > MAX_ITEMS:
        # Uncut (trec_eval's ndcg) over a long pool: the ideal list's tail of gain-0 items adds nothing to IDCG, so
        # its ranks are folded into one note and only the items with a gain get an exact row each (a TREC topic
        # judges 1,000-3,000 documents, most of them not relevant). A short pool keeps a row per item.
        with_gain = sum(1 for v in pool if g.exact(v) != 0)
        if with_gain > MAX_ITEMS:
            raise ValueError(f"ideal has {with_gain} items with a gain above 0; without k the ideal list shows one "
                             f"exact row per such item, at most {MAX_ITEMS}: pass k= (an NDCG@k reads up to "
                             f"{MAX_POOL} judged grades and shows k rows)")
        if with_gain < len(pool):
            shown = pool[:with_gain]
            notes = (Message(N_("ideal ranks {first}–{last} hold the judged pool's {count} items of gain 0: they add "
                                "nothing to IDCG and are not shown"),
                             first=with_gain + 1, last=len(pool), count=len(pool) - with_gain),)
    rows = _dcg_rows(shown, k, g, d)
    name = _at("IDCG", k)
    return Explanation(
        metric="idcg", name=name, exact=rows[-1]["cumulative"] if rows else Integer(0),
        columns=_DCG_COLUMNS[:-1] + (Column("cumulative", "IDCG so far", exact=False, sums="contribution"),),
        steps=tuple(rows), terms=_terms(rows),
        params={"k": k, "gain": g.name, "discount": d.name, "ideal": None if ideal is None else tuple(pool)},
        formula=_dcg_formula(name, k, g, d, star="*"), substitution=_sum_latex(rows),
        notes=tuple(read_notes) + (() if ideal is None else
                                    (Message(N_("the ideal order comes from the judged pool (ideal=), not from the ranking")),))
        + notes,
    )


def ndcg(grades, k=None, gain=unset("exp2"), discount=unset("log2"), ideal=None, zero=unset("zero"), *,
         scores=None, docids=None, ties=None, convention=None) -> Explanation:
    """Normalised DCG: DCG divided by the ideal DCG, 1 for the best possible order.

    Parameters
    ----------
    grades, k, gain, discount, ideal
        As in :func:`dcg` and :func:`idcg`.
    zero : {"zero", "one", "nan", "raise"}
        What NDCG is when IDCG is 0 (no relevant item): 0 (default, trec_eval and scikit-learn),
        1 (LightGBM, XGBoost), NaN, or raise ``ValueError``.
    scores, docids, ties
        Rank by the model's scores and break ties by a rule, as in :func:`dcg`.
    convention : str, optional
        A preset of ``lt.CONVENTIONS`` (``"trec_eval"``, ``"sklearn"``, ``"lightgbm"`` ...) supplying
        gain, discount, ties and zero; explicit keywords win over it.

    Returns
    -------
    Explanation
        ``.exact`` is DCG/IDCG (or the ``zero`` rule's value); ``.steps`` put each rank's DCG row
        beside the ideal list's (``ideal_grade``, ``ideal_contribution``, ``idcg``);
        ``.parts["dcg"]`` and ``.parts["idcg"]`` are the two explanations divided.
        With ``scores``, document columns as in :func:`dcg`.

    Examples
    --------
    MAC口红 (post 000, query 1): grades 3, 2, 3, 0, 1, 2, 2; the ideal order is 3, 3, 2, 2, 2, 1, 0.

    >>> import ltr_teach as lt
    >>> ex = lt.ndcg([3, 2, 3, 0, 1, 2, 2], k=7)
    >>> round(float(ex), 6)
    0.944227
    >>> round(float(ex.parts["dcg"]), 6), round(float(ex.parts["idcg"]), 6)
    (14.848264, 15.725304)

    The base of the logarithm cancels: with ``discount="ln"`` DCG and IDCG are both 1/ln 2 ≈ 1.4427 times larger
    (post 000 printed 21.421516 and 22.686817), and NDCG is the same.

    >>> round(float(lt.ndcg([3, 2, 3, 0, 1, 2, 2], k=7, discount="ln")), 6)
    0.944227

    One ranking, two tools. Scores 1.0, 0.8, 0.8 for grades 0, 3, 2 and a judged d5 (grade 2) never
    retrieved: trec_eval ranks the tie by docid descending (d2 before d1) and takes the ideal from
    every judged document; LightGBM keeps the input order and sees only the group.

    >>> grades, scores, ids = [0, 3, 2, 1, 0], [1.0, 0.8, 0.8, 0.5, 0.4], ["d3", "d1", "d2", "d4", "d9"]
    >>> round(float(lt.ndcg(grades, scores=scores, docids=ids, ideal=[3, 2, 0, 1, 2], convention="trec_eval")), 4)
    0.5608
    >>> round(float(lt.ndcg(grades, k=10, scores=scores, docids=ids, convention="lightgbm")), 4)
    0.6758
    """
    s = resolve(convention, gain=gain, discount=discount, zero=zero, ties=ties)
    zero = as_choice(s["zero"], "zero", ZERO_RULES)
    rule = negative_rule(convention)
    # read once (an iterator would be empty for the IDCG); TREC's negative judgments as trec_eval reads them
    limit = _grades_limit(k, scores)
    grades, read_notes = read_negative_grades(grades, "grades", rule, "not_relevant", limit=limit)
    ideal_notes = ()
    if ideal is not None:
        ideal, ideal_notes = read_negative_grades(ideal, "ideal", rule, "dropped", allow_empty=True, limit=MAX_POOL)
    exact_grades, k, g, d = _setup(grades, k, s["gain"], s["discount"], limit=limit)
    ranked = ranked_from_scores(exact_grades, scores, docids, s["ties"] if scores is not None else ties, "ndcg")
    d_ex = _dcg_explanation(exact_grades, k, g, d, ranked)
    i_ex = _idcg_explanation(exact_grades, k, g, d, ideal)
    rows = []
    for i in range(max(len(d_ex.steps), len(i_ex.steps))):
        row = {"rank": i + 1}
        if i < len(d_ex.steps):
            s = d_ex.steps[i]
            row.update(grade=s["grade"], gain=s["gain"], discount=s["discount"],
                       contribution=s["contribution"], dcg=s["cumulative"])
        if i < len(i_ex.steps):
            s = i_ex.steps[i]
            row.update(ideal_grade=s["grade"], ideal_contribution=s["contribution"], idcg=s["cumulative"])
            row.setdefault("discount", s["discount"])
        rows.append(row)
    dcg_value = d_ex.steps[-1]["cumulative"]
    idcg_value = i_ex.steps[-1]["cumulative"] if i_ex.steps else Integer(0)
    notes = list(read_notes) + list(ideal_notes) + list(i_ex.notes)
    if idcg_value == 0:
        notes.append(Message(N_("IDCG is 0 (no relevant item); zero={zero}: {rule_text}"), zero=repr(zero),
                             rule_text=Message(ZERO_RULES[zero])))
        if zero == "raise":
            raise ValueError(
                "IDCG is 0 because no item is relevant, so NDCG is 0/0; pass zero='zero', 'one' or 'nan' "
                "to choose a value"
            )
        exact = {"zero": Integer(0), "one": Integer(1), "nan": sympy.nan}[zero]
    else:
        exact = dcg_value / idcg_value
    name = _at("NDCG", k)
    terms = Terms(d_ex.terms.terms, i_ex.terms) if idcg_value != 0 and d_ex.terms and i_ex.terms else None
    if len(i_ex.steps) > len(d_ex.steps):
        notes.append(Message(N_("the judged pool fills {ideal_ranks} ranks of the ideal list but the ranking has only "
                                "{ranks}: the missing ranks count as gain 0 in DCG"),
                             ideal_ranks=len(i_ex.steps), ranks=len(d_ex.steps)))
    ex = Explanation(
        metric="ndcg", name=name, exact=exact,
        columns=(
            Column("rank", "rank"), Column("grade", "grade"), Column("gain", "gain"),
            Column("discount", "discount"), Column("contribution", "gain/discount"),
            Column("dcg", "DCG so far", exact=False, sums="contribution"), Column("ideal_grade", "ideal grade"),
            Column("ideal_contribution", "ideal gain/discount"),
            Column("idcg", "IDCG so far", exact=False, sums="ideal_contribution"),
        ),
        steps=tuple(rows), parts={"dcg": d_ex, "idcg": i_ex}, terms=terms,
        params={**i_ex.params, "zero": zero},
        formula=r"\mathrm{%s} = \frac{\mathrm{%s}}{\mathrm{%s}}" % (name, d_ex.name, i_ex.name),
        # the rank-order terms over each other; the decimals when they cannot be shown (long sums)
        substitution=(terms and terms.latex()) or r"\frac{%s}{%s}" % (fmt_value(dcg_value), fmt_value(idcg_value)),
        notes=tuple(notes) + _average_note(ranked),
    )
    return annotate(ex, ranked) if ranked else ex


#: A Rational from coprime integers, without SymPy's gcd (``Rational.from_coprime_ints``, SymPy >= 1.13).
_coprime = getattr(sympy.Rational, "from_coprime_ints", sympy.Rational)


def _reduced(numerator: int, odd_part: int, power_of_two: int) -> sympy.Rational:
    """numerator / (odd_part·2^power_of_two) in lowest terms, without a gcd of two huge numbers: the gcd
    with ``odd_part`` (at most lcm(1..1000), 1,400 bits) is cheap, the power of two cancels by bit counts."""
    if numerator == 0:
        return Integer(0)
    common = math.gcd(numerator, odd_part)
    numerator, odd_part = numerator // common, odd_part // common
    twos = min((numerator & -numerator).bit_length() - 1, power_of_two)  # numerator's trailing zero bits
    return _coprime(numerator >> twos, odd_part << (power_of_two - twos))


def err(grades, g_max=None, k=None, *, scores=None, docids=None, ties=None, convention=None) -> Explanation:
    """Expected reciprocal rank under the cascade model (Chapelle et al. 2009).

    The user reads from the top and stops at rank i with probability R_i = (2^g_i - 1) / 2^g_max,
    having not stopped before; ERR is the expected 1/(stopping rank).

    Parameters
    ----------
    grades : sequence of whole numbers in [0, g_max]
        Graded relevance in ranked order.
    g_max : int >= 1
        The highest grade of the scale (gdeval fixes it at 4); required unless the convention sets it.
    k : int >= 1 or None
        Cut-off; ``None`` means the whole list.
    scores, docids, ties
        Rank by the model's scores, as in :func:`dcg` (``ties="average"`` is not defined for ERR).
    convention : str, optional
        ``"gdeval"`` fixes ``g_max`` at 4 and orders ties by docid descending.

    Returns
    -------
    Explanation
        ``.exact`` is the ERR, a fraction; ``.steps`` has one row per rank: ``R`` (the stop
        probability of its grade), ``reach`` (the chance the user gets there), ``stop``,
        ``contribution`` (stop / rank) and the running ``cumulative`` ERR.
        With ``scores``, document columns as in :func:`dcg`.

    Examples
    --------
    Post 000's lipstick query, g_max = 3: R = 7/8, 3/8, 7/8, 1/8.
    ERR = 7/8 + (1/2)(1/8)(3/8) + (1/3)(1/8)(5/8)(7/8) + (1/4)(1/8)(5/8)(1/8)(1/8).

    >>> import ltr_teach as lt
    >>> ex = lt.err([3, 2, 3, 1], g_max=3)
    >>> ex.exact
    45295/49152
    >>> [str(r["R"]) for r in ex.steps]
    ['7/8', '3/8', '7/8', '1/8']

    gdeval (TREC Web track) fixes g_max at 4 whatever the scale, so a grade-3 item stops the user with
    probability 7/16 only:

    >>> lt.err([3, 0], convention="gdeval").exact
    7/16
    """
    s = resolve(convention, g_max=g_max, ties=ties)
    if s["g_max"] is None:
        raise ValueError("g_max must be given (the highest grade of the scale, an integer >= 1); got None")
    g_max = as_count(s["g_max"], "g_max", minimum=1)
    if g_max > MAX_EXPONENT:
        raise ValueError(f"g_max = {g_max} is too large for an exponent 2^g_max (at most {MAX_EXPONENT})")
    k = as_k(k)
    grades, read_notes = read_negative_grades(grades, "grades", negative_rule(convention), "not_relevant")
    grades = as_grades(grades, integer=True, integer_reason="ERR grades are whole numbers in 0..g_max")
    for i, g in enumerate(grades):
        if g > g_max:
            raise ValueError(f"grades[{i}] = {g} is above g_max = {g_max}; grades must lie in 0..g_max")
    ranked = ranked_from_scores(grades, scores, docids, s["ties"] if scores is not None else ties, "err",
                                additive=False)
    if ranked is not None:
        grades = list(ranked.grades)
    n = len(grades) if k is None else min(k, len(grades))
    if g_max * n > ERR_MAX_BITS:
        raise ValueError(
            f"g_max = {g_max} over {n} ranks is too much for exact ERR: the chance of reaching rank i is a fraction "
            f"over 2^(g_max·(i-1)), so g_max × ranks is at most {ERR_MAX_BITS} (here at most "
            f"{ERR_MAX_BITS // g_max} ranks: pass k=, or score the run with lt.evaluate)"
        )
    rows = []
    # Exact fractions kept as integers over known denominators: P(reach i) = reach_num / 2^(g_max·(i-1)),
    # P(stop at i) = stop_num / 2^(g_max·i), and ERR so far = total_num / (lcm(1..i)·2^(g_max·i)); each row's
    # fraction is reduced once, cheaply (SymPy's own sums reduced 20,000-bit fractions at every step).
    reach_num, total_num, lcm = 1, 0, 1
    for i in range(1, n + 1):
        g = grades[i - 1]
        r = sympy.Rational(2**int(g) - 1, 2**g_max)
        stop_num = reach_num * (2**int(g) - 1)
        new_lcm = lcm * i // math.gcd(lcm, i)
        total_num = (total_num * (new_lcm // lcm) << g_max) + stop_num * (new_lcm // i)
        lcm = new_lcm
        rows.append({"rank": i, "grade": g, "R": r, "reach": _reduced(reach_num, 1, g_max * (i - 1)),
                     "stop": _reduced(stop_num, 1, g_max * i), "contribution": _reduced(stop_num, i, g_max * i),
                     "cumulative": _reduced(total_num, lcm, g_max * i)})
        reach_num *= 2**g_max - 2**int(g) + 1
    name = _at("ERR", k)
    ex = Explanation(
        metric="err", name=name, exact=rows[-1]["cumulative"],
        columns=(
            Column("rank", "rank"), Column("grade", "grade"), Column("R", "R_i = (2^g-1)/2^gmax"),
            Column("reach", "P(reach i)"), Column("stop", "P(stop at i)"),
            Column("contribution", "P(stop)/i"), Column("cumulative", "ERR so far", sums="contribution"),
        ),
        steps=tuple(rows), terms=_terms(rows), params={"g_max": g_max, "k": k},
        formula=r"\mathrm{%s} = \sum_{i=1}^{%s} \frac{1}{i} R_i \prod_{j=1}^{i-1} (1 - R_j),\quad R_i = \frac{2^{g_i}-1}{2^{%d}}"
        % (name, "k" if k else "n", g_max),
        substitution=" + ".join(
            r"\frac{1}{%d}\cdot %s" % (r["rank"], fmt_latex(r["stop"])) for r in rows
        ),
        notes=read_notes,
    )
    return annotate(ex, ranked) if ranked else ex
