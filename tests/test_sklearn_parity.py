"""Parity with scikit-learn on seeded random inputs.

scikit-learn ranks the items by ``y_score``; ltr_teach takes the grades already in ranked order,
so each case sorts the grades by descending score first. Scores are drawn without ties where
scikit-learn's tie handling (averaging over tied groups) would differ from a fixed order.
"""

import numpy as np
import pytest
from sklearn.metrics import average_precision_score, dcg_score, ndcg_score, roc_auc_score

import ltr_teach as lt

CASES = 150


def random_cases(seed, min_len=1):
    rng = np.random.default_rng(seed)
    for _ in range(CASES):
        n = int(rng.integers(min_len, 12))
        grades = rng.integers(0, 5, size=n)
        scores = rng.permutation(n).astype(float) + rng.random()  # distinct: no ties
        yield rng, grades, scores


def ranked(values, scores):
    return [int(v) for v in np.asarray(values)[np.argsort(-scores, kind="stable")]]


@pytest.mark.parametrize("seed", [0, 1])
def test_roc_auc_score_with_ties(seed):
    rng = np.random.default_rng(seed)
    checked = 0
    for _ in range(CASES):
        n = int(rng.integers(2, 15))
        labels = rng.integers(0, 2, size=n)
        if labels.min() == labels.max():
            continue
        scores = rng.integers(0, 5, size=n) / 4  # few distinct values: many ties, each worth 1/2
        expected = roc_auc_score(labels, scores)
        assert float(lt.auc(labels.tolist(), scores.tolist())) == pytest.approx(expected, abs=1e-12)
        checked += 1
    assert checked > CASES // 2


@pytest.mark.parametrize("seed", [2, 3])
def test_roc_auc_score_continuous(seed):
    for rng, grades, scores in random_cases(seed, min_len=2):
        labels = (grades >= 2).astype(int)
        if labels.min() == labels.max():
            continue
        expected = roc_auc_score(labels, scores)
        assert float(lt.auc(labels.tolist(), scores.tolist())) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("seed", [4, 5])
def test_ndcg_score_linear_gain(seed):
    for rng, grades, scores in random_cases(seed, min_len=2):  # scikit-learn refuses a single document
        k = None if rng.random() < 0.3 else int(rng.integers(1, 14))
        expected = ndcg_score([grades], [scores], k=k)
        got = lt.ndcg(ranked(grades, scores), k=k, gain="linear")
        assert float(got) == pytest.approx(expected, abs=1e-12), (grades, scores, k)


@pytest.mark.parametrize("seed", [6, 7])
def test_dcg_score_linear_gain(seed):
    for rng, grades, scores in random_cases(seed, min_len=2):  # scikit-learn refuses a single document
        k = None if rng.random() < 0.3 else int(rng.integers(1, 14))
        expected = dcg_score([grades], [scores], k=k)
        got = lt.dcg(ranked(grades, scores), k=k, gain="linear")
        assert float(got) == pytest.approx(expected, rel=1e-12, abs=1e-12), (grades, scores, k)


def test_all_zero_row_is_zero_in_both():
    assert ndcg_score([[0, 0, 0]], [[0.3, 0.2, 0.1]]) == 0.0
    assert lt.ndcg([0, 0, 0], gain="linear").exact == 0


@pytest.mark.parametrize("seed", [8, 9])
def test_average_precision_score(seed):
    for rng, grades, scores in random_cases(seed):
        labels = (grades >= 3).astype(int)
        if labels.sum() == 0:
            continue
        expected = average_precision_score(labels, scores)
        assert float(lt.average_precision(ranked(labels, scores))) == pytest.approx(expected, abs=1e-12)
