"""Misordered pairs, LambdaRank swap weights, sampled metrics and Cohen's kappa: by hand, by brute
force and against scikit-learn."""

import itertools
import math
import random
from typing import ClassVar

import pytest
import sympy
from sklearn.metrics import cohen_kappa_score, roc_auc_score
from sympy import Rational

import ltr_teach as lt
from ltr_teach.core.exact import log2


class TestMisorderedPairs:
    def test_by_hand_is_one_minus_auc(self):
        # pairs (better, worse): (1,2) 0.9 > 0.8 right; (1,4) right; (3,2) 0.8 = 0.8 tie: 1/2; (3,4) right
        ex = lt.misordered_pairs([1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1])
        assert ex.exact == Rational(1, 8) == 1 - lt.auc([1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1]).exact
        # RankNet loss of the tied pair: ln(1 + e^0) = ln 2
        assert ex.steps[2]["logistic"] == sympy.log(2)

    def test_equals_one_minus_sklearn_auc(self):
        rng = random.Random(3)
        for _ in range(30):
            n = rng.randint(2, 25)
            labels = [rng.randint(0, 1) for _ in range(n)]
            labels[0], labels[1] = 0, 1
            scores = [rng.choice([0.1, 0.3, 0.5, 0.7]) for _ in range(n)]
            assert lt.misordered_pairs(labels, scores).value == pytest.approx(1 - roc_auc_score(labels, scores))

    def test_graded_pairs_and_logistic_mean(self):
        # grades 2, 1, 0 scored 1, 3, 2: pairs (1,2) wrong, (1,3) wrong, (2,3) right -> 2/3
        ex = lt.misordered_pairs([2, 1, 0], [1, 3, 2])
        assert ex.exact == Rational(2, 3)
        expected = (math.log1p(math.exp(2)) + math.log1p(math.exp(1)) + math.log1p(math.exp(-1))) / 3
        assert ex.params["logistic_loss"] == pytest.approx(expected, rel=1e-12)

    def test_bad_input(self):
        with pytest.raises(ValueError, match="are all equal"):
            lt.misordered_pairs([1, 1], [0.2, 0.3])
        with pytest.raises(ValueError, match="same length; got 2 grades and 1 scores"):
            lt.misordered_pairs([1, 0], [0.2])


class TestSwapDeltas:
    def test_two_items_by_hand(self):
        # grades 0, 1: NDCG = (1/log2 3)/1; swapped it is ideal, NDCG 1
        assert lt.swap_deltas([0, 1]).matrix[0][1] == 1 - 1 / log2(3)

    @pytest.mark.parametrize("k", [None, 3])
    @pytest.mark.parametrize("gain", ["exp2", "linear"])
    def test_each_entry_is_the_ndcg_change_of_the_swap(self, k, gain):
        rng = random.Random(7)
        for _ in range(8):
            grades = [rng.randint(0, 3) for _ in range(rng.randint(2, 7))]
            if not any(grades):
                continue
            sd = lt.swap_deltas(grades, k=k, gain=gain)
            before = lt.ndcg(grades, k=k, gain=gain).value
            for i, j in itertools.combinations(range(len(grades)), 2):
                swapped = list(grades)
                swapped[i], swapped[j] = swapped[j], swapped[i]
                change = abs(lt.ndcg(swapped, k=k, gain=gain).value - before)
                assert sd.values[i][j] == pytest.approx(change, abs=1e-12)
                assert sd.matrix[i][j] == sd.matrix[j][i]

    def test_largest_and_display(self):
        # grades 0, 0, 3: moving the 3 from rank 3 to rank 1 changes NDCG most
        sd = lt.swap_deltas([0, 0, 3])
        assert sd.largest() == (1, 3)
        assert "1 (0)" in str(sd) and "ltr-swap-deltas" in sd._repr_html_()

    def test_no_gain_is_refused(self):
        with pytest.raises(ValueError, match="IDCG = 0"):
            lt.swap_deltas([0, 0])


class TestSampledMetric:
    @pytest.mark.parametrize("metric", ["hit_rate", "ndcg"])
    def test_equals_enumerating_every_sample(self, metric):
        # catalogue of 8 items, 3 sampled negatives: enumerate all C(7, 3) = 35 samples
        n_items, n_neg, k = 8, 3, 2
        for rank in range(1, n_items + 1):
            others = [r for r in range(1, n_items + 1) if r != rank]
            total = 0
            for sample in itertools.combinations(others, n_neg):
                sampled_rank = 1 + sum(1 for r in sample if r < rank)
                if sampled_rank <= k:
                    total += 1 if metric == "hit_rate" else 1 / math.log2(sampled_rank + 1)
            expected = total / math.comb(7, 3)
            got = lt.sampled_metric([rank], n_items, n_neg, k=k, metric=metric)
            assert got.value == pytest.approx(expected, abs=1e-12)

    def test_the_winner_flips(self):
        # A: 40 users at rank 1, 60 far away (5000 of 10000); B: every user at rank 50
        a = lt.sampled_metric([1] * 40 + [5000] * 60, 10_000)
        b = lt.sampled_metric([50] * 100, 10_000)
        assert a.params["full"] == Rational(2, 5) and b.params["full"] == 0   # full catalogue: A wins
        assert b.value > a.value                                               # sampled: B wins

    def test_bad_input(self):
        with pytest.raises(ValueError, match=r"full_ranks\[0\] = 11 is outside 1..n_items = 1..10"):
            lt.sampled_metric([11], 10, 5)
        with pytest.raises(ValueError, match="n_negatives = 10 is more than"):
            lt.sampled_metric([1], 10, 10)
        with pytest.raises(ValueError, match="metric must be one of"):
            lt.sampled_metric([1], 10, 5, metric="map")


class TestCohenKappa:
    TABLE = ((70, 10), (20, 300))   # Manning et al. Table 8.2: rows judge 1 (no, yes), columns judge 2

    def test_textbook_example(self):
        # P(A) = (300 + 70)/400 = 0.925; pooled P(rel) = (320 + 310)/800 = 0.7875, P(nonrel) = 0.2125
        ex = lt.cohen_kappa(counts=self.TABLE, marginals="pooled")
        assert ex.params["p_agree"] == Rational(37, 40)
        assert ex.params["p_chance"] == Rational(7875, 10000) ** 2 + Rational(2125, 10000) ** 2
        assert round(float(ex.params["p_chance"]), 3) == 0.665       # the book prints 0.665
        assert round(ex.value, 3) == 0.776                            # and kappa = 0.776

    def test_cohen_equals_sklearn(self):
        a = [0] * 70 + [0] * 10 + [1] * 20 + [1] * 300
        b = [0] * 70 + [1] * 10 + [0] * 20 + [1] * 300
        assert lt.cohen_kappa(a, b).exact == lt.cohen_kappa(counts=self.TABLE).exact == Rational(52, 67)
        assert lt.cohen_kappa(a, b).value == pytest.approx(cohen_kappa_score(a, b), rel=1e-12)
        rng = random.Random(11)
        for _ in range(30):
            n = rng.randint(5, 60)
            a = [rng.choice("xyz") for _ in range(n)]
            b = [x if rng.random() < 0.6 else rng.choice("xyz") for x in a]
            if len(set(a) | set(b)) < 2:
                continue
            assert lt.cohen_kappa(a, b).value == pytest.approx(cohen_kappa_score(a, b), rel=1e-12)

    def test_bad_input(self):
        with pytest.raises(ValueError, match="same items; got 2 and 1"):
            lt.cohen_kappa([1, 0], [1])
        with pytest.raises(ValueError, match="kappa is 0/0"):
            lt.cohen_kappa([1, 1], [1, 1])
        with pytest.raises(ValueError, match="must be square"):
            lt.cohen_kappa(counts=[[1, 2], [3]])
        with pytest.raises(ValueError, match="not both"):
            lt.cohen_kappa([1], [1], counts=[[1]])


class TestPool:
    RUNS: ClassVar[dict] = {"A": {"q1": {"d1": 0.9, "d2": 0.8, "d3": 0.7, "d6": 0.1}},
                            "B": {"q1": {"d4": 0.9, "d1": 0.5, "d5": 0.5, "d3": 0.2}}}

    def test_by_hand(self):
        # A's top 2: d1, d2; B's top 2: d4, then d5 and d1 tie at 0.5 -> docno descending puts d5 first
        assert lt.pool(self.RUNS, 2) == {"q1": ["d1", "d2", "d4", "d5"]}
        assert lt.pool(self.RUNS, 2, truth={"q1": {"d3": 2, "d5": 1}}) == {"q1": {"d1": 0, "d2": 0, "d4": 0, "d5": 1}}

    def test_every_contributing_run_is_judged_to_the_depth(self):
        qrels = lt.pool(self.RUNS, 3, truth={"q1": {"d1": 1}})
        for run in self.RUNS.values():
            assert lt.evaluate(qrels, run, ["judged@3"]).mean["judged@3"] == 1

    def test_bad_input(self):
        with pytest.raises(ValueError, match="depth must be an integer >= 1"):
            lt.pool(self.RUNS, 0)
        with pytest.raises(ValueError, match="runs must be a non-empty dict"):
            lt.pool({}, 2)
