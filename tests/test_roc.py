"""ROC curve and AUC: exact points and areas, ties worth one half."""

import random
from fractions import Fraction

import pytest
import sklearn.metrics
from sympy import Rational

import ltr_teach as lt

# Positives score 0.9 and 0.8, negatives 0.8 and 0.1.
LABELS = [1, 0, 1, 0]
SCORES = [0.9, 0.8, 0.8, 0.1]


class TestAUC:
    def test_tie_counts_one_half(self):
        # positive 0.9 beats both negatives: 2
        # positive 0.8 beats 0.1 and ties 0.8: 1 + 1/2
        # (2 + 3/2) / (2 positives * 2 negatives)
        ex = lt.auc(LABELS, SCORES)
        assert ex.exact == Rational(7, 8)
        assert [(r["below"], r["tied"], r["credit"]) for r in ex.steps] == [(2, 0, 2), (1, 1, Rational(3, 2))]

    def test_perfect_reversed_and_all_tied(self):
        assert lt.auc([1, 1, 0], [3, 2, 1]).exact == 1
        assert lt.auc([0, 0, 1], [3, 2, 1]).exact == 0
        assert lt.auc([1, 0, 1, 0], [5, 5, 5, 5]).exact == Rational(1, 2)

    def test_three_by_two(self):
        # positives 0.7, 0.4, 0.2; negatives 0.5, 0.1
        # 0.7 beats 2; 0.4 beats 1 (0.1); 0.2 beats 1 (0.1) -> 4 of 6 pairs
        assert lt.auc([1, 0, 1, 1, 0], [0.7, 0.5, 0.4, 0.2, 0.1]).exact == Rational(2, 3)

    def test_exact_score_types(self):
        as_float = lt.auc(LABELS, SCORES).exact
        assert lt.auc(LABELS, [Fraction(9, 10), Fraction(4, 5), Fraction(4, 5), Fraction(1, 10)]).exact == as_float
        assert lt.auc(LABELS, [9, 8, 8, 1]).exact == as_float

    def test_close_floats_are_not_tied(self):
        # 0.1 + 0.2 and 0.3 differ as floats: the positive wins outright
        assert lt.auc([1, 0], [0.1 + 0.2, 0.3]).exact == 1

    def test_labels_may_be_booleans_or_numpy(self):
        import numpy as np

        assert lt.auc([True, False, True, False], SCORES).exact == Rational(7, 8)
        assert lt.auc(np.array(LABELS), np.array(SCORES)).exact == Rational(7, 8)

    def test_roc_part_has_the_same_area(self):
        ex = lt.auc(LABELS, SCORES)
        assert ex.parts["roc"].exact == ex.exact


class TestROCCurve:
    def test_points(self):
        # start (0, 0); score 0.9: one positive -> (0, 1/2); score 0.8: a positive and a negative
        # move diagonally -> (1/2, 1); score 0.1: the last negative -> (1, 1)
        ex = lt.roc_curve(LABELS, SCORES)
        points = [(r["fpr"], r["tpr"]) for r in ex.steps]
        assert points == [(0, 0), (0, Rational(1, 2)), (Rational(1, 2), 1), (1, 1)]
        # trapezoids: 0 (vertical), 1/2 * (1/2 + 1)/2 = 3/8, 1/2 * (1 + 1)/2 = 1/2
        assert [r["area"] for r in ex.steps[1:]] == [0, Rational(3, 8), Rational(1, 2)]
        assert ex.exact == Rational(7, 8)

    def test_thresholds_descend(self):
        ex = lt.roc_curve([0, 1, 0, 1], [1, 4, 2, 3])
        assert [r["threshold"] for r in ex.steps] == ["start", 4, 3, 2, 1]
        assert ex.exact == 1

    def test_counts(self):
        ex = lt.roc_curve(LABELS, SCORES)
        assert ex.params["n_pos"] == 2 and ex.params["n_neg"] == 2
        assert ex.steps[-1]["tp"] == 2 and ex.steps[-1]["fp"] == 2


class TestPRCurve:
    def test_points_by_hand(self):
        # labels 1, 0, 1, 1, 0 with scores 0.9, 0.8, 0.8, 0.5, 0.2 (3 positives)
        # >= 0.9: TP 1, FP 0 -> P 1,   R 1/3, rectangle 1/3 * 1
        # >= 0.8: TP 2, FP 1 -> P 2/3, R 2/3, rectangle 1/3 * 2/3 (the tied block enters as one threshold)
        # >= 0.5: TP 3, FP 1 -> P 3/4, R 1,   rectangle 1/3 * 3/4
        # >= 0.2: TP 3, FP 2 -> P 3/5, R 1,   rectangle 0
        ex = lt.pr_curve([1, 0, 1, 1, 0], [0.9, 0.8, 0.8, 0.5, 0.2])
        assert [(r["precision"], r["recall"]) for r in ex.steps] == [
            (1, Rational(1, 3)), (Rational(2, 3), Rational(2, 3)), (Rational(3, 4), 1), (Rational(3, 5), 1)]
        assert ex.exact == Rational(1, 3) + Rational(2, 9) + Rational(1, 4)
        assert ex.params["base_rate"] == Rational(3, 5)

    def test_without_ties_the_area_is_the_rank_ap(self):
        # scores strictly decreasing: the curve's area is AP of the labels in that order
        labels = [0, 1, 1, 0, 0, 1, 1]
        scores = [7, 6, 5, 4, 3, 2, 1]
        assert lt.pr_curve(labels, scores).exact == lt.average_precision(labels).exact == Rational(47, 84)

    def test_equals_scikit_learn(self):
        rng = random.Random(11)
        for _ in range(200):
            n = rng.randint(2, 12)
            labels = [rng.randint(0, 1) for _ in range(n)]
            if len(set(labels)) < 2:
                labels[0], labels[-1] = 0, 1
            scores = [rng.randint(0, 5) / 5 for _ in range(n)]   # few distinct scores: many ties
            ex = lt.pr_curve(labels, scores)
            assert float(ex) == pytest.approx(sklearn.metrics.average_precision_score(labels, scores), abs=1e-12)
            precision, recall, thresholds = sklearn.metrics.precision_recall_curve(labels, scores)
            # scikit-learn lists thresholds ascending and ends with its extra point (recall 0, precision 1)
            ours = [float(r[key]) for r in ex.steps for key in ("threshold", "precision", "recall")]
            theirs = [float(x) for point in sorted(zip(thresholds, precision[:-1], recall[:-1]), reverse=True)
                      for x in point]
            assert ours == pytest.approx(theirs, abs=1e-12)

    def test_one_class_is_refused(self):
        with pytest.raises(ValueError, match="labels holds only one class"):
            lt.pr_curve([1, 1], [0.2, 0.1])
        with pytest.raises(ValueError, match="same length"):
            lt.pr_curve([1, 0], [0.2])
