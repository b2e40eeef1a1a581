"""ROC curve and AUC: exact points and areas, ties worth one half."""

from fractions import Fraction

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
