"""Exact sums are shown term by term in rank order, unsimplified, then simplified (issue 21).

Every expected string below is written by hand from the metric's definition: rank i's term of a DCG
is (2^g - 1)/log2(i + 1); every rank has its term, a 0 included, so the sum reads line by line
against the table.
"""

import html
import math

import pytest

import ltr_teach as lt

# DCG of grades 5, 1, 3, 2, 4: gains 31, 1, 7, 3, 15 over discounts 1, log2(3), 2, log2(5), log2(6)
DCG_TERMS = "31 + 1/log2(3) + 7/2 + 3/log2(5) + 15/log2(6)"
DCG_SIMPLIFIED = "1/log2(3) + 3/log2(5) + 15/log2(6) + 69/2"      # 31 + 7/2 = 69/2
DCG_FLOAT = 31 + 1 / math.log2(3) + 3.5 + 3 / math.log2(5) + 15 / math.log2(6)
# the ideal order 5, 4, 3, 2, 1: gains 31, 15, 7, 3, 1
IDCG_TERMS = "31 + 15/log2(3) + 7/2 + 3/log2(5) + 1/log2(6)"
IDCG_FLOAT = 31 + 15 / math.log2(3) + 3.5 + 3 / math.log2(5) + 1 / math.log2(6)
DCG_TEX = r"31 + \frac{1}{\log_2 3} + \frac{7}{2} + \frac{3}{\log_2 5} + \frac{15}{\log_2 6}"


def test_the_issue_example_prints_its_five_terms_in_rank_order_then_the_value():
    text = str(lt.dcg([5, 1, 3, 2, 4]))
    assert f"{DCG_FLOAT:.6f}" == "42.225752"
    assert text.endswith(f"DCG = {DCG_TERMS} = {DCG_SIMPLIFIED} ≈ 42.225752")


def test_the_so_far_column_adds_one_term_per_rank():
    rows = lt.dcg([5, 1, 3, 2, 4]).table_rows()
    so_far = [row[-1] for row in rows]
    assert so_far == [
        "31",
        f"31 + 1/log2(3) ≈ {31 + 1 / math.log2(3):.5f}",                        # 31.63093
        f"31 + 1/log2(3) + 7/2 ≈ {34.5 + 1 / math.log2(3):.5f}",                # 35.13093
        f"31 + 1/log2(3) + 7/2 + 3/log2(5) ≈ {34.5 + 1 / math.log2(3) + 3 / math.log2(5):.6f}",
        f"{DCG_TERMS} ≈ 42.225752",
    ]


def test_html_shows_the_terms_in_the_table_and_the_result_line():
    page = html.unescape(lt.dcg([5, 1, 3, 2, 4])._repr_html_())
    assert "31 + 1/log2(3) + 7/2 ≈ 35.13093" in page
    assert f"DCG = {DCG_TERMS} = {DCG_SIMPLIFIED} ≈ 42.225752" in page


def test_latex_shows_the_terms_in_rank_order_then_the_simplified_value():
    tex = lt.dcg([5, 1, 3, 2, 4]).latex()
    assert (f"= {DCG_TEX} = " r"\frac{1}{\log_2 3} + \frac{3}{\log_2 5} + \frac{15}{\log_2 6} + \frac{69}{2}"
            r" \approx 42.225752") in tex


def test_idcg_and_ndcg_numerator_and_denominator():
    ex = lt.ndcg([5, 1, 3, 2, 4])
    text = str(ex)
    assert f"\nIDCG = {IDCG_TERMS} = 1/log2(6) + 3/log2(5) + 15/log2(3) + 69/2 ≈ {IDCG_FLOAT:.6f}\n" in text
    assert f"\nDCG = {DCG_TERMS} = {DCG_SIMPLIFIED} ≈ 42.225752\n" in text
    assert ex.result_line().startswith(f"NDCG = ({DCG_TERMS})/({IDCG_TERMS}) = ({DCG_SIMPLIFIED})/(")
    assert ex.result_line().endswith(f"≈ {DCG_FLOAT / IDCG_FLOAT:.6f}")
    ideal_so_far = [row[-1] for row in ex.table_rows()]
    assert ideal_so_far[2] == f"31 + 15/log2(3) + 7/2 ≈ {34.5 + 15 / math.log2(3):.6f}"
    tex = ex.latex()
    assert (r"\frac{" + DCG_TEX + "}{" + r"31 + \frac{15}{\log_2 3} + \frac{7}{2} + \frac{3}{\log_2 5} + "
            r"\frac{1}{\log_2 6}}") in tex
    assert "<b>" + html.escape(ex.result_line()) + "</b>" in ex._repr_html_()


def test_a_zero_gain_rank_shows_its_zero_term():
    # grades 0, 2: terms 0/1 = 0 and 3/log2(3)
    assert lt.dcg([0, 2]).result_line() == f"DCG = 0 + 3/log2(3) = 3/log2(3) ≈ {3 / math.log2(3):.6f}"


def test_err_terms_are_the_stop_probabilities_over_the_rank():
    # g_max 3: R = 7/8, 0, 3/8; P(stop) = 7/8, 0, (1/8)(3/8) = 3/64; over the rank: 7/8, 0, 1/64
    ex = lt.err([3, 0, 2], g_max=3)
    assert ex.result_line() == "ERR = 7/8 + 0 + 1/64 = 57/64 = 0.890625"
    assert [row[-1] for row in ex.table_rows()] == ["7/8 = 0.875", "7/8 + 0 = 7/8 = 0.875",
                                                    "7/8 + 0 + 1/64 = 57/64 = 0.890625"]
    assert r"\frac{7}{8} + 0 + \frac{1}{64} = \frac{57}{64} = 0.890625" in ex.latex()


def test_ap_terms_are_every_ranks_counted_precision_over_the_divisor():
    # hits at ranks 1, 3, 4: precisions 1, 2/3, 3/4; 0 at the miss; (1 + 2/3 + 3/4)/3 = (29/12)/3
    ex = lt.average_precision([1, 0, 1, 1])
    assert ex.result_line() == "AP = (1 + 0 + 2/3 + 3/4)/3 = 29/36 ≈ 0.805556"
    assert [row[-1] for row in ex.table_rows()] == ["1", "1 + 0 = 1", "1 + 0 + 2/3 = 5/3 ≈ 1.666667",
                                                    "1 + 0 + 2/3 + 3/4 = 29/12 ≈ 2.416667"]
    assert ex.latex().endswith(r"= \frac{1 + 0 + \frac{2}{3} + \frac{3}{4}}{3} = \frac{29}{36} \approx 0.805556")
    assert "(1 + 0 + 2/3 + 3/4)/3 = 29/36" in html.unescape(ex._repr_html_())


def test_cg_and_mrr():
    assert lt.cg([5, 3, 2]).result_line() == "CG = 5 + 3 + 2 = 10"
    # first hits at ranks 2, 1, 3
    assert lt.mrr([[0, 1], [1, 0], [0, 0, 1]]).result_line() == "MRR = (1/2 + 1 + 1/3)/3 = 11/18 ≈ 0.611111"


def test_value_and_exact_number_are_unchanged():
    ex = lt.dcg([5, 1, 3, 2, 4])
    assert str(ex.exact) == DCG_SIMPLIFIED and ex.value == pytest.approx(DCG_FLOAT, rel=1e-15)


def test_long_lists_fall_back_to_the_value_on_every_row():
    # 30 ranks: too many terms for a line, and each so-far cell would be hundreds of characters
    ex = lt.dcg([1] * 30)
    assert ex.result_line().startswith("DCG = 1/log2(31) + ") and " + 1 + 1/log2(3) + " not in ex.result_line()
    assert all(" + " not in row[-1] for row in ex.table_rows())
