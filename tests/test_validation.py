"""Bad input: every public function raises ValueError naming the argument, the value and what is allowed."""

import math
from fractions import Fraction

import numpy as np
import pytest
import sympy

import ltr_teach as lt

GRADED = {
    "cg": lambda g, **kw: lt.cg(g, **kw),
    "dcg": lambda g, **kw: lt.dcg(g, **kw),
    "idcg": lambda g, **kw: lt.idcg(g, **kw),
    "ndcg": lambda g, **kw: lt.ndcg(g, **kw),
    "err": lambda g, **kw: lt.err(g, g_max=3, **kw),
}
BINARY = {
    "reciprocal_rank": lambda r, **kw: lt.reciprocal_rank(r, **kw),
    "mrr": lambda r, **kw: lt.mrr([r], **kw),
    "precision_at_k": lambda r, **kw: lt.precision_at_k(r, **{"k": 2, **kw}),
    "recall_at_k": lambda r, **kw: lt.recall_at_k(r, **{"k": 2, **kw}),
    "f_beta": lambda r, **kw: lt.f_beta(r, **{"k": 2, **kw}),
    "average_precision": lambda r, **kw: lt.average_precision(r, **kw),
    "mean_average_precision": lambda r, **kw: lt.mean_average_precision([r], **kw),
}
WITH_K = {**GRADED, **{n: f for n, f in BINARY.items()}}
graded = pytest.mark.parametrize("metric", GRADED.values(), ids=GRADED.keys())
binary = pytest.mark.parametrize("metric", BINARY.values(), ids=BINARY.keys())


class TestEmpty:
    @graded
    def test_graded(self, metric):
        with pytest.raises(ValueError, match=r"^grades must not be empty; got \[\]$"):
            metric([])

    @binary
    def test_binary(self, metric):
        # mrr and map wrap the ranking in a list of one query: the message names that query
        where = r"list_of_rels\[0\]" if metric in (BINARY["mrr"], BINARY["mean_average_precision"]) else "rels"
        with pytest.raises(ValueError, match=rf"^{where} must not be empty"):
            metric([])

    def test_interpolated(self):
        with pytest.raises(ValueError, match=r"^rels must not be empty"):
            lt.interpolated_precision([])
        with pytest.raises(ValueError, match=r"^rels must not be empty"):
            lt.eleven_point_ap([])

    def test_no_queries(self):
        with pytest.raises(ValueError, match=r"^list_of_rels must not be empty"):
            lt.mrr([])
        with pytest.raises(ValueError, match=r"^list_of_rels must hold at least one query"):
            lt.mean_average_precision({})

    @pytest.mark.parametrize("func", [lt.mrr, lt.mean_average_precision])
    @pytest.mark.parametrize("bad", [[1, 0, 1], {"q": 1}])
    def test_one_ranking_where_queries_are_expected(self, func, bad):
        with pytest.raises(ValueError, match=r"^list_of_rels must hold one ranking per query, e\.g\. \[\[0, 1, 0\], "
                                             r"\[1, 0, 0\]\]; got .*which holds numbers"):
            func(bad)

    @pytest.mark.parametrize("func", [lt.auc, lt.roc_curve])
    def test_roc(self, func):
        with pytest.raises(ValueError, match=r"^labels must not be empty"):
            func([], [])


class TestNotANumber:
    @graded
    @pytest.mark.parametrize("bad, shown", [
        (float("nan"), "nan"), (float("inf"), "inf"), (-math.inf, "-inf"), (np.nan, "nan"),
        (sympy.nan, "nan"), (sympy.oo, "oo"),
    ])
    def test_nan_and_inf(self, metric, bad, shown):
        with pytest.raises(ValueError, match=rf"^grades\[1\] = {shown} is not allowed; values must be finite numbers"):
            metric([1, bad])

    @binary
    def test_nan_rels(self, metric):
        with pytest.raises(ValueError, match=r"^rels\[0\] = nan is not allowed"):
            metric([float("nan"), 1])

    @pytest.mark.parametrize("func", [lt.auc, lt.roc_curve])
    def test_nan_score(self, func):
        with pytest.raises(ValueError, match=r"^scores\[1\] = nan is not allowed"):
            func([1, 0], [0.5, float("nan")])
        with pytest.raises(ValueError, match=r"^scores\[0\] = inf is not allowed"):
            func([1, 0], [float("inf"), 0.5])

    @graded
    @pytest.mark.parametrize("bad", ["3", None, [1, 2], object()])
    def test_not_a_number(self, metric, bad):
        with pytest.raises(ValueError, match=r"^grades\[0\] = .* is not a number; give an int, a float or a fraction"):
            metric([bad])

    def test_irrational_grade(self):
        with pytest.raises(ValueError, match=r"^grades\[1\] = sqrt\(2\) is not a rational number"):
            lt.dcg([1, sympy.sqrt(2)], gain="linear")

    @graded
    @pytest.mark.parametrize("bad", ["3 2 1", 3, None, {3, 2, 1}, {"a": 3}])
    def test_not_a_ranking(self, metric, bad):
        with pytest.raises(ValueError, match=r"^grades must be a list of numbers in ranked order; got "):
            metric(bad)


class TestGrades:
    @graded
    def test_negative(self, metric):
        with pytest.raises(ValueError, match=r"^grades\[2\] = -1 is negative; grades must be non-negative"):
            metric([1, 0, -1])

    @pytest.mark.parametrize("func", [lt.dcg, lt.idcg, lt.ndcg])
    def test_fractional_with_exp2(self, func):
        with pytest.raises(ValueError, match=r"^grades\[1\] = 1\.5 is not a whole number; exponential gain "
                                             r"2\^grade - 1 needs integer grades \(use gain='linear'"):
            func([2, 1.5])

    @pytest.mark.parametrize("func", [lt.dcg, lt.idcg, lt.ndcg])
    def test_fractional_with_linear_is_fine(self, func):
        assert func([2, 1.5], gain="linear").exact > 0

    def test_fractional_in_the_pool(self):
        with pytest.raises(ValueError, match=r"^ideal\[0\] = 0\.5 is not a whole number"):
            lt.ndcg([1], ideal=[0.5, 1])

    def test_negative_in_the_pool(self):
        with pytest.raises(ValueError, match=r"^ideal\[1\] = -2 is negative"):
            lt.idcg([1], ideal=[1, -2])

    def test_pool_missing_a_graded_item(self):
        with pytest.raises(ValueError, match=r"^ideal must hold every judged grade of the ranking.*grade 2 appears 1 "
                                             r"time\(s\) in grades but 0 time\(s\) in ideal"):
            lt.ndcg([3, 2], ideal=[3, 1])

    @pytest.mark.parametrize("func", [lt.dcg, lt.idcg, lt.ndcg, lambda g: lt.err(g, g_max=1000)])
    def test_grade_too_large_for_an_exponent(self, func):
        # 2^1001 - 1 has no float (and 2^(10^9) would never finish): refuse before computing
        with pytest.raises(ValueError, match=r"^grades\[1\] = 1001 is too large for an exponent 2\^grade "
                                             r"\(at most 1000\)"):
            func([3, 1001])

    def test_grade_1000_still_has_a_float(self):
        assert float(lt.dcg([1000])) == pytest.approx(2.0**1000)
        assert float(lt.dcg([1001], gain="linear")) == 1001

    def test_g_max_too_large(self):
        with pytest.raises(ValueError, match=r"^g_max = 1001 is too large for an exponent 2\^g_max \(at most 1000\)$"):
            lt.err([1], g_max=1001)

    def test_err_fractional(self):
        with pytest.raises(ValueError, match=r"^grades\[0\] = 1\.5 is not a whole number; ERR grades are whole numbers "
                                             r"in 0\.\.g_max"):
            lt.err([1.5], g_max=2)

    def test_err_grade_above_g_max(self):
        with pytest.raises(ValueError, match=r"^grades\[1\] = 4 is above g_max = 3; grades must lie in 0\.\.g_max"):
            lt.err([3, 4], g_max=3)

    @pytest.mark.parametrize("g_max, shown", [(0, "0"), (-1, "-1"), (2.0, "2.0"), (None, "None"), (True, "True")])
    def test_err_bad_g_max(self, g_max, shown):
        with pytest.raises(ValueError, match=rf"^g_max must be .*an integer >= 1.*; got {shown}$"):
            lt.err([1], g_max=g_max)


class TestRels:
    @binary
    @pytest.mark.parametrize("bad", [2, 0.5, -1])
    def test_not_binary(self, metric, bad):
        with pytest.raises(ValueError, match=r"^rels\[1\] = .* is not 0 or 1; binary metrics take 0/1 relevance "
                                             r"\(pass threshold=1"):
            metric([0, bad])

    @binary
    @pytest.mark.parametrize("threshold", [0, -1])
    def test_threshold_must_be_positive(self, metric, threshold):
        with pytest.raises(ValueError, match=rf"^threshold = {threshold} must be > 0"):
            metric([0, 2], threshold=threshold)

    def test_threshold_checks_grades(self):
        with pytest.raises(ValueError, match=r"^rels\[0\] = -2 is negative"):
            lt.precision_at_k([-2, 1], k=1, threshold=1)


class TestK:
    @pytest.mark.parametrize("metric", WITH_K.values(), ids=WITH_K.keys())
    @pytest.mark.parametrize("k, shown", [
        (0, "0"), (-3, "-3"), (2.0, "2.0"), (True, "True"), ("3", "'3'"), (1.5, "1.5"),
    ])
    def test_bad_k(self, metric, k, shown):
        data = [1, 0, 1]
        with pytest.raises(ValueError, match=rf"^k must be an integer >= 1.*; got {shown}$"):
            metric(data, k=k)

    @pytest.mark.parametrize("func", [lt.precision_at_k, lt.recall_at_k, lt.f_beta])
    def test_k_is_required_where_a_cutoff_defines_the_metric(self, func):
        with pytest.raises(ValueError, match=r"^k must be an integer >= 1; got None$"):
            func([1, 0], k=None)

    def test_numpy_integer_k_is_an_int(self):
        assert lt.ndcg([3, 2, 1], k=np.int64(2)).params["k"] == 2


class TestNRelevant:
    @pytest.mark.parametrize("func", [
        lambda n: lt.recall_at_k([1, 0, 1], k=2, n_relevant=n),
        lambda n: lt.f_beta([1, 0, 1], k=2, n_relevant=n),
        lambda n: lt.average_precision([1, 0, 1], n_relevant=n),
        lambda n: lt.mean_average_precision([[1, 0, 1]], n_relevant=n),
        lambda n: lt.interpolated_precision([1, 0, 1], n_relevant=n),
        lambda n: lt.eleven_point_ap([1, 0, 1], n_relevant=n),
    ])
    def test_smaller_than_the_hits(self, func):
        with pytest.raises(ValueError, match=r"^n_relevant = 1 is smaller than the 2 relevant items already in "
                                             r"the list"):
            func(1)

    @pytest.mark.parametrize("n, shown", [(-1, "-1"), (2.0, "2.0"), (True, "True"), ("2", "'2'")])
    def test_not_a_count(self, n, shown):
        with pytest.raises(ValueError, match=rf"^n_relevant must be an integer >= 0; got {shown}$"):
            lt.average_precision([1, 0], n_relevant=n)
        with pytest.raises(ValueError, match=rf"^n_relevant must be an integer >= 0; got {shown}$"):
            lt.mean_average_precision([[1, 0]], n_relevant=n)

    def test_one_count_per_query(self):
        with pytest.raises(ValueError, match=r"^n_relevant has 1 counts but there are 2 queries"):
            lt.mean_average_precision([[1], [1]], n_relevant=[1])
        with pytest.raises(ValueError, match=r"^n_relevant has no entry for query 'a'"):
            lt.mean_average_precision({"a": [1]}, n_relevant={"b": 1})

    def test_numpy_count(self):
        assert lt.mean_average_precision([[1, 0]], n_relevant=np.int64(2)).exact == sympy.Rational(1, 2)

    def test_nothing_to_interpolate(self):
        with pytest.raises(ValueError, match=r"^rels has no relevant item and n_relevant is 0"):
            lt.interpolated_precision([0, 0])


class TestOtherParameters:
    @pytest.mark.parametrize("beta, message", [
        (0, r"^beta = 0 must be > 0"), (-1, r"^beta = -1 must be > 0"),
        (float("nan"), r"^beta = nan is not allowed"), ("2", r"^beta = '2' is not a number"),
    ])
    def test_beta(self, beta, message):
        with pytest.raises(ValueError, match=message):
            lt.f_beta([1, 0], k=2, beta=beta)

    @pytest.mark.parametrize("recall", [-0.1, 1.5, Fraction(11, 10)])
    def test_recall_level(self, recall):
        with pytest.raises(ValueError, match=r"^recall = .* must lie in \[0, 1\]"):
            lt.interpolated_precision([1, 0], recall=recall)


class TestNames:
    @pytest.mark.parametrize("func", [lt.dcg, lt.idcg, lt.ndcg])
    @pytest.mark.parametrize("bad", ["exp", "Linear", None, 2])
    def test_unknown_gain(self, func, bad):
        with pytest.raises(ValueError, match=rf"^gain must be one of 'exp2', 'linear', 'binary'; got {bad!r}$"):
            func([1, 0], gain=bad)

    @pytest.mark.parametrize("func", [lt.dcg, lt.idcg, lt.ndcg])
    @pytest.mark.parametrize("bad", ["log", "log10", None])
    def test_unknown_discount(self, func, bad):
        with pytest.raises(ValueError, match=rf"^discount must be one of 'log2', 'ln', 'jarvelin'; got {bad!r}$"):
            func([1, 0], discount=bad)

    @pytest.mark.parametrize("bad", ["0", "none", None, 0])
    def test_unknown_zero_rule(self, bad):
        with pytest.raises(ValueError, match=rf"^zero must be one of 'zero', 'one', 'nan', 'raise'; got {bad!r}$"):
            lt.ndcg([1, 0], zero=bad)

    def test_zero_rule_is_checked_even_when_idcg_is_positive(self):
        with pytest.raises(ValueError, match=r"^zero must be one of"):
            lt.ndcg([3, 2], zero="zeros")


class TestLabelsAndScores:
    @pytest.mark.parametrize("func", [lt.auc, lt.roc_curve])
    def test_lengths_differ(self, func):
        with pytest.raises(ValueError, match=r"^labels and scores must have the same length; "
                                             r"got 3 labels and 2 scores$"):
            func([1, 0, 1], [0.5, 0.4])

    @pytest.mark.parametrize("func", [lt.auc, lt.roc_curve])
    @pytest.mark.parametrize("labels, only", [([1, 1], "positive"), ([0, 0, 0], "negative")])
    def test_single_class(self, func, labels, only):
        with pytest.raises(ValueError, match=rf"^labels holds only one class \(every label is {only}"
                                             r".*at least one positive and one negative"):
            func(labels, [0.1] * len(labels))

    @pytest.mark.parametrize("func", [lt.auc, lt.roc_curve])
    def test_label_not_binary(self, func):
        with pytest.raises(ValueError, match=r"^labels\[2\] = 2 is not 0 or 1; "
                                             r"labels are 1 \(positive\) or 0 \(negative\)$"):
            func([1, 0, 2], [0.3, 0.2, 0.1])

    def test_scores_not_a_list(self):
        with pytest.raises(ValueError, match=r"^scores must be a list"):
            lt.auc([1, 0], "0.5 0.4")


class TestQueryNames:
    """MRR and MAP name the query that is wrong, and refuse two queries that print alike."""

    @pytest.mark.parametrize("func", [lt.mrr, lt.mean_average_precision])
    def test_empty_query_named_in_a_dict(self, func):
        with pytest.raises(ValueError, match=r"^list_of_rels\['面膜'\] must not be empty"):
            func({"眼霜": [0, 1, 0], "面膜": []})

    @pytest.mark.parametrize("func", [lt.mrr, lt.mean_average_precision])
    def test_empty_query_named_in_a_list(self, func):
        with pytest.raises(ValueError, match=r"^list_of_rels\[1\] must not be empty"):
            func([[1, 0], []])

    @pytest.mark.parametrize("func", [lt.mrr, lt.mean_average_precision])
    def test_names_that_collide_as_text(self, func):
        with pytest.raises(ValueError, match=r"^list_of_rels has two queries named '1' \(1 and '1'\); "
                                             r"query names must differ as text"):
            func({1: [1, 0], "1": [0, 1]})

    def test_n_relevant_keys_that_collide_as_text(self):
        with pytest.raises(ValueError, match=r"^n_relevant has two queries named '1' \(1 and '1'\)"):
            lt.mean_average_precision({1: [1, 0]}, n_relevant={1: 2, "1": 3})

    def test_n_relevant_keyed_like_the_queries(self):
        # query 1 (an int key): one hit at rank 1 of 2 relevant in the collection: AP = (1/1) / 2
        assert lt.mean_average_precision({1: [1, 0]}, n_relevant={1: 2}).exact == sympy.Rational(1, 2)
