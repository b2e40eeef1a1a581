"""The "sklearn" convention against scikit-learn's ndcg_score and dcg_score.

scikit-learn sees only the row it is given (the retrieved documents, unjudged ones as 0), averages
the gains of tied scores (McSherry & Najork), and gives 0 to a row without any relevant item.
"""

import numpy as np
import pytest
import sympy
from sklearn.metrics import dcg_score, ndcg_score, roc_auc_score

import ltr_teach as lt

from parity_data import random_collection, split


@pytest.fixture(scope="module")
def rows():
    qrels, run = random_collection(seed=7, n_queries=300)
    return [split(qrels, run, q) for q in run if len(run[q]) > 1]  # scikit-learn needs two or more items


@pytest.mark.parametrize("k", [None, 1, 3, 10, 20])
def test_ndcg_matches_scikit_learn(rows, k):
    for docids, scores, grades, _ in rows:
        theirs = ndcg_score([grades], [scores], k=k)
        ours = lt.ndcg(grades, k=k, scores=scores, convention="sklearn")
        assert ours.value == pytest.approx(theirs, abs=1e-9), (grades, scores, k)


@pytest.mark.parametrize("k", [None, 3])
def test_dcg_matches_scikit_learn(rows, k):
    for docids, scores, grades, _ in rows:
        theirs = dcg_score([grades], [scores], k=k)
        assert lt.dcg(grades, k=k, scores=scores, convention="sklearn").value == pytest.approx(theirs, abs=1e-9)


def test_bulk_evaluate_matches_scikit_learn(rows):
    qrels = {str(i): dict(zip(d, g)) for i, (d, s, g, _) in enumerate(rows)}
    run = {str(i): dict(zip(d, s)) for i, (d, s, g, _) in enumerate(rows)}
    ours = lt.evaluate(qrels, run, ["ndcg", "ndcg@5"], convention="sklearn")
    for i, (docids, scores, grades, _) in enumerate(rows):
        assert ours.per_query[str(i)]["ndcg@5"] == pytest.approx(ndcg_score([grades], [scores], k=5), abs=1e-9)
        assert ours.per_query[str(i)]["ndcg"] == pytest.approx(ndcg_score([grades], [scores]), abs=1e-9)


def test_all_zero_row_scores_zero():
    # scikit-learn#29521: a row without relevant items gives 0.0 (no warning), as zero="zero"
    assert ndcg_score([[0, 0, 0]], [[0.3, 0.2, 0.1]]) == 0.0
    assert lt.ndcg([0, 0, 0], scores=[0.3, 0.2, 0.1], convention="sklearn").value == 0.0


def test_ties_are_averaged_not_ordered():
    grades, scores = [0, 3, 2, 1, 0], [1.0, 0.8, 0.8, 0.5, 0.4]
    theirs = ndcg_score([grades], [scores])
    assert round(theirs, 4) == 0.6842  # conventions.md
    assert lt.ndcg(grades, scores=scores, convention="sklearn").value == pytest.approx(theirs, abs=1e-12)
    # ignore_ties=True leaves the order of the tie unspecified: it equals one of the two strict orders
    strict = {round(lt.ndcg(g, gain="linear").value, 12) for g in ([0, 3, 2, 1, 0], [0, 2, 3, 1, 0])}
    assert round(ndcg_score([grades], [scores], ignore_ties=True), 12) in strict


def test_log_base_only_rescales_dcg():
    grades, scores = [3, 2, 0, 1], [0.9, 0.7, 0.5, 0.1]
    ratio = dcg_score([grades], [scores], log_base=np.e) / dcg_score([grades], [scores])
    # dividing by ln(i + 1) instead of log2(i + 1) multiplies every term by 1/ln 2
    assert ratio == pytest.approx(float(lt.dcg(grades, gain="linear", discount="ln"))
                                  / float(lt.dcg(grades, gain="linear", discount="log2")), abs=1e-12)


def test_bulk_auc_matches_roc_auc_score(rows):
    # per query, over the retrieved documents: relevant = grade >= 1, a tied pair is worth 1/2
    qrels = {str(i): dict(zip(d, g)) for i, (d, s, g, _) in enumerate(rows)}
    run = {str(i): dict(zip(d, s)) for i, (d, s, g, _) in enumerate(rows)}
    ours = lt.evaluate(qrels, run, "auc").per_query
    checked = 0
    for i, (docids, scores, grades, _) in enumerate(rows):
        labels = [int(g >= 1) for g in grades]
        if 0 < sum(labels) < len(labels):
            assert ours[str(i)]["auc"] == pytest.approx(roc_auc_score(labels, scores), abs=1e-12)
            checked += 1
        else:
            assert np.isnan(ours[str(i)]["auc"])  # one class only: scikit-learn warns and gives nan too
    assert checked >= 100


def test_average_precision_matches_scikit_learn_with_tied_blocks(rows):
    # scikit-learn's average_precision_score: a block of tied scores is one threshold. Its value can
    # exceed every strict order of the block; the preset reproduces it (ties="average" for AP).
    import warnings

    from sklearn.metrics import average_precision_score

    qrels, run = random_collection(seed=7, n_queries=300)
    bulk = lt.evaluate(qrels, run, ["map"], convention="sklearn").per_query
    checked = tied = 0
    for qid in run:
        docids, scores, grades, _ = split(qrels, run, qid)
        labels = [int(g >= 1) for g in grades]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # rows without a positive: "recall is set to one", value 0
            theirs = average_precision_score(labels, scores)
        ours = lt.average_precision(grades, scores=scores, convention="sklearn")
        assert ours.value == pytest.approx(theirs, abs=1e-12), (labels, scores)
        assert bulk[qid]["map"] == pytest.approx(theirs, abs=1e-12), qid
        strict = lt.average_precision(grades, scores=scores, docids=docids, convention="trec_eval",
                                      n_relevant=sum(labels) or None)
        tied += sum(labels) > 0 and abs(strict.value - theirs) > 1e-9
        checked += 1
    assert checked == len(run) and tied >= 20   # the tie rule matters on many of these rows


def test_average_precision_block_by_hand():
    # labels 0, 1, 1, 0 all tied, then a 1: the block's precision 2/4 counts for both of its hits;
    # the last hit at rank 5 has precision 3/5. AP = (1/2 + 1/2 + 3/5) / 3 = 8/15.
    from sklearn.metrics import average_precision_score

    labels, scores = [0, 1, 1, 0, 1], [0.5, 0.5, 0.5, 0.5, 0.1]
    assert average_precision_score(labels, scores) == pytest.approx(8 / 15, abs=1e-15)
    assert lt.average_precision(labels, scores=scores, convention="sklearn").exact == sympy.Rational(8, 15)
