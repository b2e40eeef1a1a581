"""The "ranx" and "ranx_burges" conventions against ranx.

ranx takes the ideal list from the qrels (grades >= 1), cuts it at k, and needs the qrels and
the run to hold the same query ids. Quirk: it orders tied scores with numba's unstable argsort,
which keeps the input order on short lists (up to ~15 items here) but not on long ones; the
preset's "stable" rule reproduces ranx on the short, tie-rich lists below and the test shows where it
stops doing so.
"""

import importlib.metadata

import numpy as np
import pytest
import ranx

import ltr_teach as lt

from parity_data import random_collection

PAIRS = {"ndcg": "ndcg", "ndcg@5": "ndcg@5", "map": "map", "map@5": "map@5", "mrr": "mrr", "mrr@3": "mrr@3",
         "p@5": "precision@5", "recall@10": "recall@10"}


def ranx_per_query(qrels, run, metrics):
    values = ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), metrics, return_mean=False)
    order = sorted(qrels)  # ranx returns its arrays in sorted query-id order
    return {m: dict(zip(order, values[m])) for m in metrics}


@pytest.mark.parametrize("tie_prone", [False, True])
def test_ranx_metrics(tie_prone):
    qrels, run = random_collection(seed=17, n_queries=300, tie_prone=tie_prone)
    theirs = ranx_per_query(qrels, run, list(PAIRS.values()))
    ours = lt.evaluate(qrels, run, list(PAIRS), convention="ranx").per_query
    for qid in qrels:
        for name, ranx_name in PAIRS.items():
            assert ours[qid][name] == pytest.approx(theirs[ranx_name][qid], abs=1e-9), (qid, name)


def test_ranx_burges():
    qrels, run = random_collection(seed=19, n_queries=300)
    theirs = ranx_per_query(qrels, run, ["ndcg_burges", "ndcg_burges@10"])
    ours = lt.evaluate(qrels, run, ["ndcg", "ndcg@10"], convention="ranx_burges").per_query
    for qid in qrels:
        assert ours[qid]["ndcg"] == pytest.approx(theirs["ndcg_burges"][qid], abs=1e-9)
        assert ours[qid]["ndcg@10"] == pytest.approx(theirs["ndcg_burges@10"][qid], abs=1e-9)


def test_ranx_exact_function_on_the_conventions_md_example():
    qrels = {"q1": {"d1": 3, "d2": 2, "d3": 0, "d4": 1, "d5": 2}}
    run = {"q1": {"d3": 1.0, "d1": 0.8, "d2": 0.8, "d4": 0.5, "d9": 0.4}}
    theirs = ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), "ndcg")
    assert round(float(theirs), 4) == 0.5838
    ours = lt.ndcg([0, 3, 2, 1, 0], scores=[1.0, 0.8, 0.8, 0.5, 0.4], ideal=[3, 2, 0, 1, 2], convention="ranx")
    assert ours.value == pytest.approx(float(theirs), abs=1e-12)


def test_long_tied_lists_leave_input_order_in_ranx():
    # 40 documents, all scored 0.5, the relevant one first: a stable sort gives RR 1; ranx does not.
    qrels = {"1": {f"d{i}": int(i == 0) for i in range(40)}}
    run = {"1": {f"d{i}": 0.5 for i in range(40)}}
    assert float(ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), "mrr")) < 1.0
    # notebook 10 quotes ranx 0.3.21's value: the relevant document lands at rank 21
    if importlib.metadata.version("ranx") == "0.3.21":
        assert float(ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), "mrr")) == pytest.approx(1 / 21)
    assert lt.evaluate(qrels, run, "mrr", convention="ranx").mean["mrr"] == 1.0


def test_ranx_requires_the_same_query_ids():
    with pytest.raises(AssertionError, match="query ids do not match"):
        ranx.evaluate(ranx.Qrels({"1": {"a": 1}, "2": {"a": 1}}), ranx.Run({"1": {"a": 1.0}}), "ndcg")
    assert np.isclose(lt.evaluate({"1": {"a": 1}, "2": {"a": 1}}, {"1": {"a": 1.0}}, "ndcg",
                                  convention="ranx").mean["ndcg"], 1.0)
