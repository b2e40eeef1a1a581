"""Click-through metrics: GAUC and log loss, by hand and against scikit-learn."""

import math
import random
from fractions import Fraction

import numpy as np
import pytest
from sklearn.metrics import log_loss as sk_log_loss
from sklearn.metrics import roc_auc_score
from sympy import Rational

import ltr_teach as lt
from ltr_teach.core.exact import ln

LABELS = [1, 0, 0, 1, 0, 1, 0, 0]
SCORES = [0.9, 0.8, 0.2, 0.3, 0.4, 0.1, 0.2, 0.5]
USERS = ["a", "a", "a", "b", "b", "b", "b", "c"]


class TestGAUC:
    def test_by_hand(self):
        # a: click 0.9 beats non-clicks 0.8 and 0.2 -> AUC 2/2 = 1, 3 impressions, 1 click
        # b: clicks 0.3, 0.1; non-clicks 0.4, 0.2 -> only 0.3 > 0.2 -> AUC 1/4, 4 impressions, 2 clicks
        # c: one impression, no click -> skipped
        by_impressions = lt.gauc(LABELS, SCORES, USERS)
        assert by_impressions.exact == Rational(3 * 1 + 4 * Rational(1, 4), 3 + 4)        # 4/7
        assert lt.gauc(LABELS, SCORES, USERS, weight="clicks").exact == Rational(1 + 2 * Rational(1, 4), 1 + 2)
        assert lt.gauc(LABELS, SCORES, USERS, weight="users").exact == Rational(1 + Rational(1, 4), 2)
        assert [r["auc"] for r in by_impressions.steps] == [1, Rational(1, 4), None]
        assert by_impressions.params["n_skipped"] == 1
        assert any("1 of 3 groups" in note and ": c" in note for note in by_impressions.notes)

    def test_ties_count_one_half_within_a_user(self):
        # one user: click 0.5 ties non-click 0.5 -> 1/2
        assert lt.gauc([1, 0], [0.5, 0.5], ["u", "u"]).exact == Rational(1, 2)

    @pytest.mark.parametrize("weight", ["impressions", "clicks", "users"])
    def test_equals_sklearn_roc_auc_score_per_user(self, weight):
        rng = random.Random(13)
        for _ in range(40):
            n = rng.randint(2, 60)
            users = [rng.choice("uvwxyz") for _ in range(n)]
            labels = [rng.randint(0, 1) for _ in range(n)]
            scores = [rng.choice([0.1, 0.2, 0.3, 0.5, 0.7, 0.9]) for _ in range(n)]  # many ties
            total = weights = 0.0
            for u in sorted(set(users)):
                y = [lab for lab, g in zip(labels, users) if g == u]
                s = [sc for sc, g in zip(scores, users) if g == u]
                if len(set(y)) < 2:
                    continue
                w = {"impressions": len(y), "clicks": sum(y), "users": 1}[weight]
                total += w * roc_auc_score(y, s)
                weights += w
            if weights == 0:
                with pytest.raises(ValueError, match="no group in groups has both a click"):
                    lt.gauc(labels, scores, users, weight=weight)
                continue
            assert lt.gauc(labels, scores, users, weight=weight).value == pytest.approx(total / weights, rel=1e-12)

    def test_one_user_is_plain_auc(self):
        labels, scores = [1, 0, 1, 0, 1], [0.7, 0.5, 0.4, 0.2, 0.1]
        assert lt.gauc(labels, scores, [7] * 5).exact == lt.auc(labels, scores).exact

    def test_bad_input(self):
        with pytest.raises(ValueError, match="same length; got 2 labels, 2 scores and 1 groups"):
            lt.gauc([1, 0], [1, 2], ["a"])
        with pytest.raises(ValueError, match="weight must be one of 'impressions', 'clicks', 'users'; got 'views'"):
            lt.gauc([1, 0], [1, 2], ["a", "a"], weight="views")
        with pytest.raises(ValueError, match=r"labels\[1\] = 2 is not 0 or 1"):
            lt.gauc([1, 2], [1, 2], ["a", "a"])
        with pytest.raises(ValueError, match="no group in groups has both a click"):
            lt.gauc([1, 0], [1, 2], ["a", "b"])
        with pytest.raises(ValueError, match="print alike"):
            lt.gauc([1, 0, 1, 0], [1, 2, 1, 2], [1, 1, "1", "1"])
        with pytest.raises(ValueError, match=r"groups\[0\] = \[1\] is not hashable"):
            lt.gauc([1, 0], [1, 2], [[1], [1]])


class TestLogLoss:
    def test_by_hand(self):
        # click at 1/2: ln 2; non-click at 1/10: ln(10/9); click at 4/5: ln(5/4)
        ex = lt.log_loss([1, 0, 1], [0.5, 0.1, 0.8])
        assert ex.exact == (ln(2) + ln(Rational(10, 9)) + ln(Rational(5, 4))) / 3
        assert ex.value == pytest.approx((math.log(2) + math.log(10 / 9) + math.log(5 / 4)) / 3, rel=1e-15)

    def test_certain_and_right_costs_nothing(self):
        assert lt.log_loss([1, 0], [1, 0]).exact == 0

    def test_equals_sklearn(self):
        rng = np.random.default_rng(5)
        for _ in range(50):
            n = int(rng.integers(2, 80))
            labels = rng.integers(0, 2, n)
            labels[0], labels[1] = 0, 1  # scikit-learn needs both classes unless told the labels
            probabilities = rng.random(n)
            expected = sk_log_loss(labels, probabilities)
            assert lt.log_loss(labels, probabilities).value == pytest.approx(expected, rel=1e-12)

    def test_eps_reproduces_sklearn_clipping(self):
        # scikit-learn clips at float64's machine epsilon: a click at 0 costs -ln(2^-52) = 52 ln 2
        labels, probabilities = [1, 0, 1, 0], [0.0, 0.3, 1.0, 1e-300]
        ex = lt.log_loss(labels, probabilities, eps=2**-52)
        assert ex.value == pytest.approx(sk_log_loss(labels, probabilities), rel=1e-12)
        exact_eps = lt.log_loss(labels, probabilities, eps=Fraction(1, 2**52))  # a float eps is read as its decimal
        assert exact_eps.steps[0]["term"] == ln(2**52)
        assert ex.params["clipped"] == 3 and "3 of 4 changed" in ex.notes[0]

    def test_infinite_loss_is_refused_without_eps(self):
        with pytest.raises(ValueError, match=r"probabilities\[0\] = 0 with labels\[0\] = 1: a click .* infinite"):
            lt.log_loss([1, 0], [0, 0.5])
        with pytest.raises(ValueError, match=r"a non-click \(label 0\) predicted at 1"):
            lt.log_loss([1, 0], [0.5, 1])

    def test_bad_input(self):
        with pytest.raises(ValueError, match=r"probabilities\[1\] = 1.5 is not a probability"):
            lt.log_loss([1, 0], [0.5, 1.5])
        with pytest.raises(ValueError, match="same length; got 2 labels and 1 probabilities"):
            lt.log_loss([1, 0], [0.5])
        with pytest.raises(ValueError, match="eps = 0.5 must be between 0 and 1/2"):
            lt.log_loss([1, 0], [0.5, 0.5], eps=0.5)
