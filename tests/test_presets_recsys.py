"""Presets for the tools recommender-systems students meet: MS MARCO, RecBole, Microsoft Recommenders.

MS MARCO's script ships with ir_measures and is run here; RecBole (needs torch) and Recommenders are
checked against their source (the formulas cited in ``metrics/conventions.py``) on hand-computed queries.
"""

import math
import random

import pytest
import sympy
from ir_measures.bin import msmarco_eval

import ltr_teach as lt
from ltr_teach.core.exact import ln, log2

from parity_data import random_collection


def test_msmarco_mrr_at_10_is_the_official_script():
    qrels, run = random_collection(seed=73, n_queries=300)
    rng = random.Random(73)
    # MS MARCO runs are lists in rank order: insertion order by score, ties in a random order the file keeps
    ranked = {}
    for qid, docs in run.items():
        items = list(docs.items())
        rng.shuffle(items)
        ranked[qid] = dict(sorted(items, key=lambda item: -item[1]))
    for qid in ("3", "4", "5"):
        del ranked[qid]  # queries the run never answered: 0 in the official mean
    relevant = {q: [d for d, g in judged.items() if g >= 1] for q, judged in qrels.items()}
    relevant = {q: docs for q, docs in relevant.items() if docs}  # an MS MARCO qrels file lists relevant passages
    official = msmarco_eval.compute_metrics(relevant, {q: list(docs) for q, docs in ranked.items()}, max_rank=10)
    by_query = official["MRR @10 by query"]
    judged = {q: qrels[q] for q in relevant}
    ours = lt.evaluate(judged, ranked, "mrr@10", convention="msmarco")
    for qid, value in by_query.items():
        assert ours.per_query[qid]["mrr@10"] == pytest.approx(value, abs=1e-15), qid
    # the official mean divides by every query of the qrels, the unanswered ones included
    assert ours.mean["mrr@10"] == pytest.approx(sum(by_query.values()) / len(relevant), abs=1e-15)
    assert len(ours.queries) == len(relevant) > len(by_query)


def test_msmarco_keeps_the_run_order_where_trec_eval_reorders_ties():
    qrels = {"1": {"b": 1}}
    run = {"1": {"b": 0.5, "a": 0.5}}   # the file ranks b first
    assert lt.evaluate(qrels, run, "mrr@10", convention="msmarco").mean["mrr@10"] == 1.0
    assert lt.evaluate(qrels, run, "mrr@10", convention="trec_eval").mean["mrr@10"] == 1.0   # b > a: b first too
    run = {"1": {"a": 0.5, "b": 0.5}}   # now a is first in the file; trec_eval still puts b (docno descending) first
    assert lt.evaluate(qrels, run, "mrr@10", convention="msmarco").mean["mrr@10"] == 0.5
    assert lt.evaluate(qrels, run, "mrr@10", convention="trec_eval").mean["mrr@10"] == 1.0


# A user with R = 3 relevant test items (a, b, c); the model ranks x, a, y, b, z (c never shown).
QRELS = {"u": {"a": 1, "b": 1, "c": 1}}
RUN = {"u": {"x": 0.9, "a": 0.8, "y": 0.7, "b": 0.6, "z": 0.5}}


def test_recbole_map_divides_by_min_r_k():
    values = lt.evaluate(QRELS, RUN, ["map@5", "map@2", "ndcg@5", "ndcg@2", "p@5", "recall@5", "success@1"],
                         convention="recbole").mean
    # MAP.metric_info: precisions at the hits 1/2 (rank 2) and 2/4 (rank 4), divided by min(3, 5) = 3
    assert values["map@5"] == pytest.approx((1 / 2 + 2 / 4) / 3, abs=1e-15)
    # @2: only the hit at rank 2 (1/2), divided by min(3, 2) = 2
    assert values["map@2"] == pytest.approx((1 / 2) / 2, abs=1e-15)
    # NDCG.metric_info: 1/log2(3) + 1/log2(5) over the ideal min(3, 5) = 3 hits: 1 + 1/log2(3) + 1/2
    assert values["ndcg@5"] == pytest.approx((1 / math.log2(3) + 1 / math.log2(5)) / (1 + 1 / math.log2(3) + 1 / 2),
                                             abs=1e-15)
    assert values["ndcg@2"] == pytest.approx((1 / math.log2(3)) / (1 + 1 / math.log2(3)), abs=1e-15)
    assert values["p@5"] == pytest.approx(2 / 5) and values["recall@5"] == pytest.approx(2 / 3)
    assert values["success@1"] == 0.0   # Hit@1: x is not relevant


def test_recbole_exact_functions_agree():
    grades, scores, docids = [0, 1, 0, 1, 0], [0.9, 0.8, 0.7, 0.6, 0.5], ["x", "a", "y", "b", "z"]
    kw = {"scores": scores, "docids": docids, "convention": "recbole"}
    assert lt.average_precision(grades, n_relevant=3, k=2, **kw).exact == sympy.Rational(1, 4)
    ndcg = lt.ndcg(grades, k=5, ideal=[1, 1, 1], **kw)
    assert sympy.simplify(ndcg.exact - (1 / log2(3) + 1 / log2(5)) / (1 + 1 / log2(3) + sympy.Rational(1, 2))) == 0


def test_recbole_ndcg_ignores_the_grade():
    # binary gain: a grade-3 and a grade-1 hit are worth the same
    graded = {"u": {"a": 3, "b": 1, "c": 2}}
    assert lt.evaluate(graded, RUN, "ndcg@5", convention="recbole").mean["ndcg@5"] == pytest.approx(
        lt.evaluate(QRELS, RUN, "ndcg@5", convention="recbole").mean["ndcg@5"], abs=1e-15)


def test_ms_recommenders_ndcg_binary_natural_log():
    values = lt.evaluate(QRELS, RUN, ["ndcg@4", "map@4", "map"], convention="ms_recommenders").mean
    # ndcg_at_k: rel = 1 for the hits at ranks 2 and 4 over ln(1 + rank); ideal: the 3 true items at ranks 1..3
    dcg = 1 / math.log(3) + 1 / math.log(5)
    idcg = 1 / math.log(2) + 1 / math.log(3) + 1 / math.log(4)
    assert values["ndcg@4"] == pytest.approx(dcg / idcg, abs=1e-15)
    # map_at_k: (1/2 + 2/4) / min(3, 4); map (no k): divided by all 3
    assert values["map@4"] == pytest.approx(1 / 3, abs=1e-15) and values["map"] == pytest.approx(1 / 3, abs=1e-15)
    ex = lt.ndcg([0, 1, 0, 1], k=4, ideal=[1, 1, 1], convention="ms_recommenders")
    by_hand = (1 / ln(3) + 1 / ln(5)) / (1 / ln(2) + 1 / ln(3) + 1 / ln(4))
    assert sympy.simplify(ex.exact - by_hand) == 0


def test_torchmetrics_ndcg_averages_ties_and_ap_divides_by_the_hits_in_the_top_k():
    # retrieval_normalized_dcg: targets 0, 2, 1, 0 with predictions 0.9, 0.8, 0.8, 0.1: ranks 2 and 3 tie, each
    # gets the mean gain (2 + 1)/2 (scikit-learn's _tie_average_dcg); ideal: 2, 1 from the group's targets.
    qrels = {"g": {"a": 0, "b": 2, "c": 1, "d": 0}}
    run = {"g": {"a": 0.9, "b": 0.8, "c": 0.8, "d": 0.1}}
    ndcg = lt.evaluate(qrels, run, "ndcg", convention="torchmetrics").mean["ndcg"]
    assert ndcg == pytest.approx((1.5 / math.log2(3) + 1.5 / 2) / (2 + 1 / math.log2(3)), abs=1e-15)
    # retrieval_average_precision(top_k=3): relevant b (rank 2) only in the top 3: precision 1/2 over 1 hit
    qrels = {"g": {"a": 0, "b": 1, "c": 0, "d": 1}}
    run = {"g": {"a": 0.9, "b": 0.8, "c": 0.7, "d": 0.1}}
    values = lt.evaluate(qrels, run, ["map@3", "map", "p@3", "recall@3", "mrr"], convention="torchmetrics").mean
    assert values["map@3"] == pytest.approx(1 / 2) and values["map"] == pytest.approx((1 / 2 + 2 / 4) / 2)
    assert values["p@3"] == pytest.approx(1 / 3) and values["recall@3"] == pytest.approx(1 / 2)
    assert values["mrr"] == pytest.approx(1 / 2)
    # trec_eval's map_cut_3 divides by both relevant documents instead
    assert lt.evaluate(qrels, run, "map@3").mean["map@3"] == pytest.approx(1 / 4)
    assert lt.average_precision([0, 1, 0, 1], k=3, convention="torchmetrics").exact == sympy.Rational(1, 2)


def test_tf_ranking_precision_divides_by_the_list_length_and_gain_is_exponential():
    qrels = {"l": {"a": 1, "b": 0}}
    run = {"l": {"a": 0.9, "b": 0.5}}
    # _per_list_precision: one hit over min(5, 2 valid items) = 1/2 (trec_eval's P_5: 1/5)
    assert lt.evaluate(qrels, run, "p@5", convention="tf_ranking").mean["p@5"] == pytest.approx(1 / 2)
    assert lt.evaluate(qrels, run, "p@5").mean["p@5"] == pytest.approx(1 / 5)
    assert lt.precision_at_k([1, 0], 5, convention="tf_ranking").exact == sympy.Rational(1, 2)
    # NDCGMetric: labels 2, 0, 1 in ranked order: DCG = 3/1 + 0 + 1/2; ideal 2, 1, 0: 3 + 1/log2(3)
    qrels = {"l": {"a": 2, "b": 0, "c": 1}}
    run = {"l": {"a": 0.9, "b": 0.8, "c": 0.7}}
    values = lt.evaluate(qrels, run, ["ndcg", "map@1", "map"], convention="tf_ranking").mean
    assert values["ndcg"] == pytest.approx((3 + 1 / 2) / (3 + 1 / math.log2(3)), abs=1e-15)
    # MeanAveragePrecisionMetric: precisions within topn, divided by every relevant label of the list
    assert values["map@1"] == pytest.approx(1 / 2) and values["map"] == pytest.approx((1 + 2 / 3) / 2)
