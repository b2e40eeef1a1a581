"""CG, DCG, IDCG, NDCG and ERR against closed forms computed by hand.

The oracle never calls ltr_teach's own logarithms: expected values are built from SymPy's
``log`` and compared to 30 significant digits (or exactly, where the value is rational).
"""

import math

import numpy as np
import pytest
import sympy
from sympy import Integer, Rational, log

import ltr_teach as lt

# MAC口红, document 000, query 1: grades in ranked order.
GRADES = [3, 2, 3, 0, 1, 2, 2]
# The same grades sorted best first: the ideal order.
IDEAL = [3, 3, 2, 2, 2, 1, 0]

# Gain of each grade, by hand.
GAIN_BY_HAND = {
    # 2^3-1, 2^2-1, 2^3-1, 2^0-1, 2^1-1, 2^2-1, 2^2-1
    "exp2": {"ranking": [7, 3, 7, 0, 1, 3, 3], "ideal": [7, 7, 3, 3, 3, 1, 0]},
    # the grades themselves
    "linear": {"ranking": [3, 2, 3, 0, 1, 2, 2], "ideal": [3, 3, 2, 2, 2, 1, 0]},
}


def _lg(x):
    return log(x) / log(2)


# Divisor at ranks 1..7, by hand.
DISCOUNT_BY_HAND = {
    # log2(2), log2(3), log2(4), log2(5), log2(6), log2(7), log2(8)
    "log2": [1, _lg(3), 2, _lg(5), _lg(6), _lg(7), 3],
    # ln(2) .. ln(8)
    "ln": [log(2), log(3), log(4), log(5), log(6), log(7), log(8)],
    # rank 1 undiscounted, then log2(2), log2(3), log2(4), log2(5), log2(6), log2(7)
    "jarvelin": [1, 1, _lg(3), 2, _lg(5), _lg(6), _lg(7)],
}

ALL_GAINS = pytest.mark.parametrize("gain", ["exp2", "linear"])
ALL_DISCOUNTS = pytest.mark.parametrize("discount", ["log2", "ln", "jarvelin"])
CUTOFFS = pytest.mark.parametrize("k, n", [(None, 7), (1, 1), (3, 3), (7, 7), (20, 7)])


def assert_same(actual, expected):
    """Equal to 30 significant digits (exact logs cannot always be compared symbolically)."""
    a, b = sympy.N(actual, 40), sympy.N(expected, 40)
    assert abs(a - b) <= sympy.Float("1e-30", 40) * max(1, abs(b)), (actual, expected)


def by_hand(gains, discounts, n):
    return sum((Integer(g) / d for g, d in zip(gains[:n], discounts[:n])), Integer(0))


class TestCG:
    def test_whole_list_sums_the_grades(self):
        assert lt.cg(GRADES).exact == 13  # 3 + 2 + 3 + 0 + 1 + 2 + 2

    def test_order_does_not_matter(self):
        assert lt.cg([5, 3, 2, 1, 2]).exact == lt.cg([2, 1, 2, 3, 5]).exact == 13

    @pytest.mark.parametrize("k, expected", [(1, 3), (3, 8), (7, 13), (100, 13)])
    def test_cutoff(self, k, expected):
        # running sums 3, 5, 8, 8, 9, 11, 13; k beyond the list is the whole list
        assert lt.cg(GRADES, k=k).exact == expected

    def test_fractional_grades_stay_exact(self):
        assert lt.cg([0.5, 1.25]).exact == Rational(7, 4)


class TestDCG:
    @ALL_GAINS
    @ALL_DISCOUNTS
    @CUTOFFS
    def test_closed_form(self, gain, discount, k, n):
        expected = by_hand(GAIN_BY_HAND[gain]["ranking"], DISCOUNT_BY_HAND[discount], n)
        ex = lt.dcg(GRADES, k=k, gain=gain, discount=discount)
        assert_same(ex.exact, expected)
        assert len(ex.steps) == n

    @ALL_GAINS
    @ALL_DISCOUNTS
    def test_each_row(self, gain, discount):
        ex = lt.dcg(GRADES, gain=gain, discount=discount)
        gains, discounts = GAIN_BY_HAND[gain]["ranking"], DISCOUNT_BY_HAND[discount]
        running = Integer(0)
        for i, row in enumerate(ex.steps):
            assert row["rank"] == i + 1
            assert row["grade"] == GRADES[i]
            assert row["gain"] == gains[i]
            assert_same(row["discount"], discounts[i])
            assert_same(row["contribution"], Integer(gains[i]) / discounts[i])
            running += Integer(gains[i]) / discounts[i]
            assert_same(row["cumulative"], running)
        assert ex.exact == ex.steps[-1]["cumulative"]

    def test_rational_when_every_discount_is_a_power_of_two(self):
        # rank 1: 2^1-1 = 1 over log2(2) = 1 -> 1
        # rank 3: 2^2-1 = 3 over log2(4) = 2 -> 3/2
        # rank 7: 2^3-1 = 7 over log2(8) = 3 -> 7/3
        ex = lt.dcg([1, 0, 2, 0, 0, 0, 3])
        assert ex.exact == Rational(29, 6)
        assert isinstance(ex.exact, sympy.Rational)

    def test_linear_gain_takes_fractional_grades(self):
        # rank 1: 1/2 over 1; rank 2: 3/2 over log2(3)
        assert_same(lt.dcg([0.5, 1.5], gain="linear").exact, Rational(1, 2) + Rational(3, 2) / _lg(3))

    def test_exp2_accepts_whole_floats(self):
        assert lt.dcg([3.0, 2.0]).exact == lt.dcg([3, 2]).exact

    def test_document_000_natural_log_values(self):
        # Document 000 prints DCG 21.421516 with ln; 1/ln 2 times the log2 value 14.848264
        ex = lt.dcg(GRADES, discount="ln")
        assert_same(ex.exact, by_hand(GAIN_BY_HAND["exp2"]["ranking"], DISCOUNT_BY_HAND["ln"], 7))
        assert float(ex) == pytest.approx(float(lt.dcg(GRADES)) / math.log(2), rel=1e-12)

    def test_all_zero_grades(self):
        assert lt.dcg([0, 0, 0]).exact == 0

    def test_params_record_the_settings(self):
        ex = lt.dcg(GRADES, k=3, gain="linear", discount="ln")
        assert dict(ex.params) == {"k": 3, "gain": "linear", "discount": "ln"}
        assert ex.name == "DCG@3"
        assert lt.dcg(GRADES).name == "DCG"


class TestIDCG:
    @ALL_GAINS
    @ALL_DISCOUNTS
    @CUTOFFS
    def test_default_ideal_is_the_ranking_sorted(self, gain, discount, k, n):
        expected = by_hand(GAIN_BY_HAND[gain]["ideal"], DISCOUNT_BY_HAND[discount], n)
        ex = lt.idcg(GRADES, k=k, gain=gain, discount=discount)
        assert_same(ex.exact, expected)
        assert [r["grade"] for r in ex.steps] == IDEAL[:n]

    def test_pool_adds_items_the_ranking_missed(self):
        # the ranking 3, 2, 0 missed a grade-3 item: the ideal top 3 is 3, 3, 2
        # rank 1: 7/1; rank 2: 7/log2(3); rank 3: 3/log2(4) = 3/2
        ex = lt.idcg([3, 2, 0], k=3, ideal=[3, 2, 0, 3])
        assert_same(ex.exact, 7 + 7 / _lg(3) + Rational(3, 2))
        assert ex.params["ideal"] == (3, 3, 2, 0)

    def test_movie_example_pool(self):
        # shown 5, 3, 2, 1, 2; rated 5, 3, 2, 1, 2, 4, 0; ideal top 5: 5, 4, 3, 2, 2
        # 31/1 + 15/log2(3) + 7/2 + 3/log2(5) + 3/log2(6)
        ex = lt.idcg([5, 3, 2, 1, 2], k=5, ideal=[5, 3, 2, 1, 2, 4, 0])
        assert_same(ex.exact, 31 + 15 / _lg(3) + Rational(7, 2) + 3 / _lg(5) + 3 / _lg(6))

    def test_pool_without_cutoff_uses_every_judged_item(self):
        # linear gain; pool 2, 1, 1 over ranks 1..3: 2 + 1/log2(3) + 1/2
        assert_same(lt.idcg([1, 2], gain="linear", ideal=[1, 2, 1]).exact, 2 + 1 / _lg(3) + Rational(1, 2))

    def test_empty_pool_of_a_zero_ranking(self):
        assert lt.idcg([0, 0], ideal=[]).exact == 0


class TestNDCG:
    def test_document_000_value(self):
        dcg = by_hand(GAIN_BY_HAND["exp2"]["ranking"], DISCOUNT_BY_HAND["log2"], 7)
        idcg = by_hand(GAIN_BY_HAND["exp2"]["ideal"], DISCOUNT_BY_HAND["log2"], 7)
        ex = lt.ndcg(GRADES, k=7)
        assert_same(ex.exact, dcg / idcg)
        assert float(ex) == pytest.approx(0.944227, abs=5e-7)
        assert_same(ex.parts["dcg"].exact, dcg)
        assert_same(ex.parts["idcg"].exact, idcg)

    @ALL_GAINS
    @ALL_DISCOUNTS
    @CUTOFFS
    def test_closed_form(self, gain, discount, k, n):
        dcg = by_hand(GAIN_BY_HAND[gain]["ranking"], DISCOUNT_BY_HAND[discount], n)
        idcg = by_hand(GAIN_BY_HAND[gain]["ideal"], DISCOUNT_BY_HAND[discount], n)
        assert_same(lt.ndcg(GRADES, k=k, gain=gain, discount=discount).exact, dcg / idcg)

    @ALL_GAINS
    def test_log_base_cancels(self, gain):
        assert_same(lt.ndcg(GRADES, gain=gain, discount="ln").exact, lt.ndcg(GRADES, gain=gain).exact)

    @ALL_GAINS
    @ALL_DISCOUNTS
    def test_ideal_order_gives_exactly_one(self, gain, discount):
        assert lt.ndcg(IDEAL, gain=gain, discount=discount).exact == 1

    def test_k_beyond_the_list_is_the_whole_list(self):
        assert lt.ndcg(GRADES, k=50).exact == lt.ndcg(GRADES).exact

    @pytest.mark.parametrize("make", [tuple, iter, lambda g: (x for x in g), np.array])
    def test_any_iterable_of_grades(self, make):
        # an iterator is read once, so DCG and IDCG must see the same grades
        assert lt.ndcg(make(GRADES)).exact == lt.ndcg(GRADES).exact

    def test_k_one(self):
        # rank 1 holds grade 3, the best grade: NDCG@1 = 7/7
        assert lt.ndcg(GRADES, k=1).exact == 1
        # rank 1 holds grade 2 but a 3 exists: (2^2-1)/(2^3-1) = 3/7
        assert lt.ndcg([2, 3], k=1).exact == Rational(3, 7)

    def test_pool_lowers_ndcg(self):
        # linear gain, ranking 0, 1; pool 0, 1, 2 (the grade-2 item was not retrieved)
        # DCG = 0/1 + 1/log2(3); IDCG = 2/1 + 1/log2(3) + 0/2
        ex = lt.ndcg([0, 1], gain="linear", ideal=[0, 1, 2])
        assert_same(ex.exact, (1 / _lg(3)) / (2 + 1 / _lg(3)))
        assert any("judged pool" in n for n in ex.notes)
        # with k = 2 the ideal is cut at 2 too: IDCG@2 = 2 + 1/log2(3)
        assert_same(lt.ndcg([0, 1], k=2, gain="linear", ideal=[0, 1, 2]).exact, (1 / _lg(3)) / (2 + 1 / _lg(3)))

    def test_pool_turns_a_perfect_looking_ranking_imperfect(self):
        assert lt.ndcg([3, 2, 1]).exact == 1
        assert float(lt.ndcg([3, 2, 1], ideal=[3, 3, 2, 1])) < 1

    @pytest.mark.parametrize("rule, expected", [("zero", Integer(0)), ("one", Integer(1))])
    def test_zero_rules(self, rule, expected):
        ex = lt.ndcg([0, 0, 0], zero=rule)
        assert ex.exact == expected
        assert any("IDCG is 0" in n for n in ex.notes)

    def test_zero_rule_nan(self):
        ex = lt.ndcg([0, 0, 0], zero="nan")
        assert ex.exact is sympy.nan
        assert math.isnan(float(ex))

    def test_zero_rule_raise(self):
        with pytest.raises(ValueError, match=r"IDCG is 0.*zero="):
            lt.ndcg([0, 0, 0], zero="raise")

    def test_zero_rule_only_applies_when_idcg_is_zero(self):
        # a relevant item in the pool but none retrieved: IDCG > 0, NDCG is 0 whatever the rule
        assert lt.ndcg([0, 0], ideal=[0, 0, 1], zero="one").exact == 0

    def test_rows_pair_ranking_and_ideal(self):
        ex = lt.ndcg(GRADES)
        assert [r["grade"] for r in ex.steps] == GRADES
        assert [r["ideal_grade"] for r in ex.steps] == IDEAL
        assert ex.steps[-1]["dcg"] == ex.parts["dcg"].exact
        assert ex.steps[-1]["idcg"] == ex.parts["idcg"].exact


class TestERR:
    def test_document_000_lipstick(self):
        # g_max = 3, R_i = (2^g - 1)/8
        # rank 1: grade 3, R = 7/8, reach 1,                     stop 7/8,             contributes 7/8
        # rank 2: grade 2, R = 3/8, reach 1/8,                   stop 3/64,            contributes 3/128
        # rank 3: grade 3, R = 7/8, reach 1/8 * 5/8 = 5/64,      stop 35/512,          contributes 35/1536
        # rank 4: grade 1, R = 1/8, reach 5/64 * 1/8 = 5/512,    stop 5/4096,          contributes 5/16384
        expected = Rational(7, 8) + Rational(3, 128) + Rational(35, 1536) + Rational(5, 16384)
        ex = lt.err([3, 2, 3, 1], g_max=3)
        assert ex.exact == expected
        assert [r["R"] for r in ex.steps] == [Rational(7, 8), Rational(3, 8), Rational(7, 8), Rational(1, 8)]
        assert [r["reach"] for r in ex.steps] == [1, Rational(1, 8), Rational(5, 64), Rational(5, 512)]
        assert [r["stop"] for r in ex.steps] == [Rational(7, 8), Rational(3, 64), Rational(35, 512), Rational(5, 4096)]

    def test_cutoff(self):
        # only ranks 1 and 2 of the example above: 7/8 + 3/128
        assert lt.err([3, 2, 3, 1], g_max=3, k=2).exact == Rational(115, 128)
        assert lt.err([3, 2, 3, 1], g_max=3, k=9).exact == lt.err([3, 2, 3, 1], g_max=3).exact

    def test_gdeval_scale(self):
        # g_max = 4 as gdeval fixes it
        # rank 1: grade 4, R = 15/16, contributes 15/16
        # rank 2: grade 0, R = 0, contributes 0, reach stays 1/16
        # rank 3: grade 2, R = 3/16, stop 1/16 * 3/16 = 3/256, contributes 1/256
        assert lt.err([4, 0, 2], g_max=4).exact == Rational(241, 256)

    def test_nothing_relevant(self):
        assert lt.err([0, 0], g_max=2).exact == 0

    def test_name_and_params(self):
        ex = lt.err([1, 2], g_max=2, k=1)
        assert ex.name == "ERR@1"
        assert dict(ex.params) == {"g_max": 2, "k": 1}
