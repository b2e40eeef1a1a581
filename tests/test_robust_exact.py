"""Issue 11, exact path: bounded size, huge and tiny floats, long fractions, g_max, the tie order of ids.

Oracles are independent of the library: mpmath at 50 digits, ``fractions.Fraction``, pytrec_eval.
Timing is measured in ``benchmarks/bench_limits.py``, never asserted here.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import mpmath
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

import ltr_teach as lt
from ltr_teach.core.exact import RunningSum, fmt_exact, is_long, over
from ltr_teach.core.validate import MAX_ITEMS, MAX_TOTAL_ITEMS
from ltr_teach.metrics.compare import COMPARE_MAX_ITEMS
from ltr_teach.metrics.graded import ERR_MAX_BITS

mpmath.mp.dps = 50


def mp_ndcg_linear(grades, log=mpmath.log):
    """Linear-gain NDCG with discount log(i + 1), in mpmath (unbounded exponents): the oracle."""
    def dcg(gs):
        return mpmath.fsum(mpmath.mpf(g) / log(i + 2) for i, g in enumerate(gs))
    return dcg(grades) / dcg(sorted(grades, reverse=True))


# -- size limits -------------------------------------------------------------------------------------------------
def test_an_exact_explanation_takes_up_to_max_items():
    ex = lt.ndcg([1] * MAX_ITEMS)               # every order of equal grades is ideal: NDCG = 1 exactly
    assert ex.exact == 1
    assert str(ex).endswith("NDCG = 1") and ex.latex() and ex._repr_html_()


@pytest.mark.parametrize("call", [
    lambda: lt.ndcg([1] * (MAX_ITEMS + 1)),
    lambda: lt.dcg([1] * 10**6),
    lambda: lt.average_precision([1, 0] * 10_000),   # str() of it failed inside SymPy's printer
    lambda: lt.auc([1, 0] * 600, [0.5] * 1200),
    lambda: lt.ndcg(iter(int, 1)),                    # an endless iterator: refused, not read forever
], ids=["ndcg", "dcg-million", "ap-20000", "auc", "endless"])
def test_beyond_max_items_is_a_value_error_pointing_to_evaluate(call):
    with pytest.raises(ValueError, match=r"(grades|rels|labels) has .*items.*at most 1000.*lt\.evaluate"):
        call()


def test_queries_together_are_bounded_too():
    queries = [[1, 0] * 500] * (MAX_TOTAL_ITEMS // 1000 + 1)
    with pytest.raises(ValueError, match=r"list_of_rels \(all queries together\) has 11000 items"):
        lt.mean_average_precision(queries)


def test_compare_conventions_is_bounded():
    with pytest.raises(ValueError, match=f"grades has {COMPARE_MAX_ITEMS + 1} items; .*at most {COMPARE_MAX_ITEMS}"):
        lt.compare_conventions([1] * (COMPARE_MAX_ITEMS + 1))


def test_dcg_of_max_items_equals_mpmath():
    rng = random.Random(4)
    grades = [rng.randint(0, 4) for _ in range(MAX_ITEMS)]
    ex = lt.dcg(grades)
    oracle = mpmath.fsum((2**g - 1) / mpmath.log(i + 2, 2) for i, g in enumerate(grades))
    assert ex.value == pytest.approx(float(oracle), rel=1e-14)
    # every partial sum in the table, not only the last
    for row in ex.steps[::97]:
        partial = mpmath.fsum((2**g - 1) / mpmath.log(i + 2, 2) for i, g in enumerate(grades[:row["rank"]]))
        assert float(row["cumulative"]) == pytest.approx(float(partial), rel=1e-14)


def test_long_sums_print_exactly_and_parse_back():
    # 60 ranks: printed term by term (FAST_PRINT_TERMS); the text must still be the exact value
    grades = [(i * 7) % 4 for i in range(60)]
    ex = lt.ndcg(grades)
    text = fmt_exact(ex.exact)
    back = sympy.sympify(text, locals={"log2": lt.log2})
    assert sympy.simplify(back.rewrite(sympy.log) - ex.exact.rewrite(sympy.log)) == 0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(-6, 9), st.integers(1, 4), st.sampled_from(["log2", "ln", "rational"]),
                          st.integers(2, 12)), min_size=1, max_size=25))
def test_running_sum_equals_sympy_add(spec):
    terms = []
    for p, q, kind, m in spec:
        c = sympy.Rational(p, q)
        terms.append(c if kind == "rational" else c / {"log2": lt.log2, "ln": lt.ln}[kind](m))
    total = RunningSum()
    for i, t in enumerate(terms):
        total.add(t)
        expected = sympy.Add(*terms[:i + 1])
        assert total.value() == expected and total.value().args == expected.args


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 50), st.integers(1, 7), st.sampled_from(["log2", "ln"]), st.integers(2, 5000))
def test_over_equals_division(p, q, kind, m):
    numerator, divisor = sympy.Rational(p, q), {"log2": lt.log2, "ln": lt.ln}[kind](m)
    assert over(numerator, divisor) == numerator / divisor
    assert fmt_exact(over(numerator, divisor)) == sympy.sstr(numerator / divisor)


# -- huge and tiny numbers ------------------------------------------------------------------------------------
def test_integers_beyond_the_float_range_are_refused():
    with pytest.raises(ValueError, match=r"grades\[0\] = an integer of about 400 digits is outside what a float"):
        lt.ndcg([10**400, 1], gain="linear")
    with pytest.raises(ValueError, match=r"scores\[1\] = .* outside what a float can hold"):
        lt.auc([1, 0], [0.5, Fraction(1, 10**400)])


def test_a_sum_beyond_the_largest_float_has_no_float_but_prints():
    ex = lt.cg([1e308, 1e308])
    assert ex.exact == 2 * 10**308
    with pytest.raises(ValueError, match=r"CG = 2e\+308 is beyond the largest float"):
        float(ex)
    assert "CG ≈ 2e+308" in str(ex) and ex.to_dict()["value"] is None and ex.latex()
    dcg = lt.dcg([1.7e308] * 2, gain="linear")    # 1.7e308 (1 + 1/log2(3)) ≈ 2.772581e308
    oracle = mpmath.nstr(mpmath.mpf("1.7e308") * (1 + 1 / mpmath.log(3, 2)), 7)
    assert oracle == "2.772581e+308" and oracle in str(dcg)
    with pytest.raises(ValueError, match="beyond the largest float"):
        _ = dcg.value  # reading the float is what raises


@pytest.mark.parametrize("grades, discount", [
    ([1, 1.7e308], "ln"),              # gave 0.0 (true 0.6309)
    ([1.3e308, 0, 1.2e308], "ln"),     # gave nan (true 0.9236)
    ([1.7e308, 1.7e308, 1], "log2"),
    ([5e-324, 0, 5e-324], "log2"),     # subnormals: a float sum would keep one digit
    ([1e-320, 3e-321, 0, 1e-300], "log2"),
])
def test_ndcg_of_huge_and_tiny_grades_is_right(grades, discount):
    log = mpmath.log if discount == "ln" else (lambda x: mpmath.log(x, 2))
    oracle = mp_ndcg_linear([mpmath.mpf(repr(g)) for g in grades], log)
    assert float(lt.ndcg(grades, gain="linear", discount=discount)) == pytest.approx(float(oracle), rel=1e-14)


def test_issue_values():
    assert float(lt.ndcg([1, 1.7e308], gain="linear", discount="ln")) == pytest.approx(0.6309297535714574, rel=1e-14)
    assert float(lt.ndcg([1.3e308, 0, 1.2e308], gain="linear", discount="ln")) == pytest.approx(0.9236, abs=1e-4)


# -- long fractions --------------------------------------------------------------------------------------------
def err_fraction(grades, g_max):
    """ERR with Fractions: sum over ranks of R_i/i * prod_{j<i} (1 - R_j), R = (2^g - 1)/2^g_max."""
    total, reach = Fraction(0), Fraction(1)
    for i, g in enumerate(grades, start=1):
        r = Fraction(2**g - 1, 2**g_max)
        total += reach * r / i
        reach *= 1 - r
    return total


def test_err_with_g_max_1000_prints_its_decimal():
    ex = lt.err([1] * 15, g_max=1000)     # denominators 2^15000: 4,516 digits, beyond Python's str limit
    expected = err_fraction([1] * 15, 1000)
    assert ex.exact == sympy.Rational(expected.numerator, expected.denominator)
    assert is_long(ex.exact)
    text, tex, page = str(ex), ex.latex(), ex._repr_html_()
    assert "ERR ≈ 0 (the exact number is too long to print" in text and r"\approx 0" in tex and "ERR" in page
    assert ex.value == float(expected)


def test_long_ap_prints_its_decimal():
    rels = [1, 0] * 500
    hits, total = 0, Fraction(0)
    for i, r in enumerate(rels, start=1):   # precision at each hit, summed, over the 500 relevant
        hits += r
        total += Fraction(hits, i) if r else 0
    ex = lt.average_precision(rels)
    assert ex.exact == sympy.Rational((total / 500).numerator, (total / 500).denominator)
    assert f"AP ≈ {float(total / 500):.6f}" in str(ex)


def test_err_size_is_bounded_by_g_max_times_ranks():
    lt.err([1] * 20, g_max=1000)                 # 20,000 bits: allowed
    with pytest.raises(ValueError, match=r"g_max = 1000 over 21 ranks .* at most 20000 .*at most 20 ranks"):
        lt.err([1] * 21, g_max=1000)
    assert lt.err([1] * 21, g_max=1000, k=20).name == "ERR@20"
    assert ERR_MAX_BITS == 20_000


@pytest.mark.parametrize("g_max, message", [
    (float("nan"), r"g_max must be an integer >= 1; got nan"),
    (3.5, r"g_max must be an integer >= 1; got 3.5"),
    (True, r"g_max must be an integer >= 1; got True"),
    ("3", r"g_max must be an integer >= 1; got '3'"),
    (1100, r"g_max = 1100 is too large for an exponent"),
    (0, r"g_max must be an integer >= 1; got 0"),
    (2, r"grades\[0\] = 3 is above g_max = 2"),
])
def test_g_max_is_validated(g_max, message):
    with pytest.raises(ValueError, match=message):
        lt.err([3, 1], g_max=g_max)


# -- one tie rule: docids compared as text, descending (trec_eval's strcmp) ------------------------------------
def test_integer_docids_tie_as_text_like_trec_eval():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    grades, ids = [1, 0, 2], [1, 2, 10]             # every score tied: "2" > "10" > "1"
    ex = lt.ndcg(grades, scores=[0.5, 0.5, 0.5], docids=ids, convention="trec_eval")
    assert ex.params["order"] == ("2", "10", "1")
    qrels = {"q": {str(d): g for d, g in zip(ids, grades)}}
    run = {"q": {str(d): 0.5 for d in ids}}
    reference = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg"}).evaluate(run)["q"]["ndcg"]
    assert float(ex) == pytest.approx(reference, abs=1e-12)
    # by hand: ranks hold grades 0 ("2"), 2 ("10"), 1 ("1"): (2/log2(3) + 1/2) / (2 + 1/log2(3))
    assert ex.exact == (2 / lt.log2(3) + sympy.Rational(1, 2)) / (2 + 1 / lt.log2(3))


def test_tuple_docids_tie_by_their_text():
    ex = lt.ndcg([1, 0, 2], scores=[1, 1, 1], docids=[(1, 2), (1, 10), ("a", 1)], ties="docid_desc")
    assert ex.params["order"] == tuple(sorted(["(1, 2)", "(1, 10)", "('a', 1)"], reverse=True))


def test_docids_alike_as_text_are_refused():
    with pytest.raises(ValueError, match=r"docids\[1\] = '1' repeats an earlier id"):
        lt.ndcg([1, 0], scores=[1, 1], docids=[1, "1"], ties="docid_desc")


def test_values_are_floats_of_the_exact():
    # the fast float path and the exact one agree on ordinary input
    for grades in ([3, 2, 3, 0, 1, 2, 2], [0, 0, 1], [4] * 50):
        ex = lt.ndcg(grades)
        assert math.isclose(ex.value, float(sympy.N(ex.exact, 30)), rel_tol=1e-15)


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 12).flatmap(lambda g_max: st.tuples(st.just(g_max),
                                                         st.lists(st.integers(0, g_max), min_size=1, max_size=30))))
def test_err_rows_equal_fractions_in_lowest_terms(case):
    g_max, grades = case
    reach, total = Fraction(1), Fraction(0)
    for row, g in zip(lt.err(grades, g_max=g_max).steps, grades):
        r = Fraction(2**g - 1, 2**g_max)
        stop = reach * r
        total += stop / row["rank"]
        for key, expected in (("reach", reach), ("stop", stop), ("contribution", stop / row["rank"]),
                              ("cumulative", total)):
            assert (int(row[key].p), int(row[key].q)) == (expected.numerator, expected.denominator), key
        reach *= 1 - r
