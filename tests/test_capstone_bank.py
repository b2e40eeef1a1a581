"""Notebook 17 on the clinical-trials collection: what its questions quote is what the library computes.

The capstone family's questions quote numbers of notebook 17 (``bank/capstone.py``'s ``HELD_OUT`` and the top 10
of topic 20152); each is recomputed here from the shipped collection, the same way the notebook does, so a change
of the collection, the tokeniser or a ranker that moves a number fails here rather than leaving a question
quoting a number the notebook no longer prints. The runs are also checked against pytrec_eval, as the notebook says.
"""

from __future__ import annotations

import pytest

import ltr_teach as lt
from ltr_teach.teaching.bank import capstone


@pytest.fixture(scope="module")
def notebook():
    """Notebook 17's pipeline: the collection, four systems, the held-out runs."""
    collection = lt.collection.load("clinical-trials")
    index = lt.collection.build_index(collection.docs)
    topics = list(collection.queries)
    queries = index.vectors([collection.queries[q] for q in topics])
    train = [q for q in topics if q.startswith("2014")]
    test = [q for q in topics if q.startswith("2015")]
    grid = {}
    for k1 in (0.6, 0.9, 1.2, 1.5, 2.0, 3.0):
        for b in (0.25, 0.5, 0.75, 1.0):
            run = lt.collection.to_run(lt.collection.bm25_scores(index, queries, k1=k1, b=b), topics, index.doc_ids)
            grid[k1, b] = lt.evaluate({q: collection.qrels[q] for q in train}, {q: run[q] for q in train},
                                      "ndcg@10").mean["ndcg@10"]
    best = max(grid, key=grid.get)
    scores = {"overlap": lt.collection.overlap_scores(index, queries),
              "TF-IDF": lt.collection.tfidf_scores(index, queries),
              "BM25": lt.collection.bm25_scores(index, queries, k1=1.2, b=0.75),
              "BM25 tuned": lt.collection.bm25_scores(index, queries, k1=best[0], b=best[1])}
    runs = {name: lt.collection.to_run(s, topics, index.doc_ids, depth=100) for name, s in scores.items()}
    test_qrels = {q: collection.qrels[q] for q in test}
    held_out = {name: {q: run[q] for q in test} for name, run in runs.items()}
    return {"collection": collection, "runs": runs, "held_out": held_out, "test_qrels": test_qrels, "best": best,
            "train": train, "test": test}


def test_the_split_and_the_tuned_pair(notebook):
    assert (len(notebook["train"]), len(notebook["test"])) == (29, 30)
    assert notebook["best"] == (2.0, 0.5)


def test_judged_at_10_of_topic_20152_is_bm25s_real_top_10(notebook):
    top = list(notebook["runs"]["BM25"]["20152"])[:10]
    assert [notebook["collection"].qrels["20152"].get(d) for d in top] == capstone._TOPIC_20152


def test_the_numbers_the_questions_quote(notebook):
    qrels, held = notebook["test_qrels"], notebook["held_out"]
    plain = {n: lt.evaluate(qrels, r, ["ndcg@10", "judged@10"]).mean for n, r in held.items()}
    condensed = {n: lt.evaluate(qrels, r, "ndcg@10", judged_only=True).mean["ndcg@10"] for n, r in held.items()}
    pairs = {(p.first, p.second): p for p in lt.compare_systems(qrels, held, "ndcg@10").pairs}
    quoted = capstone.HELD_OUT
    assert quoted["overlap_judged"] == f"{plain['overlap']['judged@10']:.2f}"
    assert quoted["bm25_judged"] == f"{plain['BM25']['judged@10']:.2f}"
    assert quoted["gap_plain"] == f"{plain['BM25']['ndcg@10'] - plain['overlap']['ndcg@10']:.3f}"
    assert quoted["gap_condensed"] == f"{condensed['BM25'] - condensed['overlap']:.3f}"
    assert quoted["p_tuned_overlap"] == f"{pairs['overlap', 'BM25 tuned'].p_value:.3f}"
    assert quoted["p_bm25_overlap"] == f"{pairs['overlap', 'BM25'].p_value:.3f}"
    assert quoted["p_tfidf_overlap"] == f"{pairs['overlap', 'TF-IDF'].p_value:.3f}"
    assert quoted["holm_tuned_overlap"] == f"{pairs['overlap', 'BM25 tuned'].adjusted:.3f}"
    others = [p.p_value for key, p in pairs.items() if "overlap" not in key]
    assert min(others) > 0.5  # "the other three pairs more than 0.5"
    assert all(p.adjusted >= 0.05 for p in pairs.values())  # "no pair differs ... after Holm's correction"
    means = sorted(m["ndcg@10"] for m in plain.values())
    assert (quoted["lowest_mean"], quoted["highest_mean"]) == (f"{means[0]:.2f}", f"{means[-1]:.2f}")
    assert all(condensed[n] > 2 * plain[n]["ndcg@10"] for n in held)  # "more than double every score"


def test_the_runs_agree_with_pytrec_eval(notebook):
    import pytrec_eval

    qrels = notebook["test_qrels"]
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10", "map"})
    for run in notebook["held_out"].values():
        theirs = evaluator.evaluate(run)
        ours = lt.evaluate(qrels, run, ["ndcg@10", "map"]).per_query
        for q in qrels:
            if q in theirs:
                assert ours[q]["ndcg@10"] == pytest.approx(theirs[q]["ndcg_cut_10"], abs=1e-12)
                assert ours[q]["map"] == pytest.approx(theirs[q]["map"], abs=1e-12)
