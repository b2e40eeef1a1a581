"""The "trec_eval" convention against trec_eval itself (pytrec_eval runs trec_eval's C code).

Random queries with tied scores, unjudged documents, judged documents never retrieved, queries
whose judgments are all 0, and cut-offs beyond the list. Both paths are checked: the exact
step-by-step functions (``lt.ndcg(..., convention="trec_eval")``) and the bulk ``lt.evaluate``.
"""

import pytest
import pytrec_eval

import ltr_teach as lt

from parity_data import random_collection, split

KS = (1, 3, 5, 10, 20)
TREC_NAMES = {"ndcg": "ndcg", "map": "map", "mrr": "recip_rank"}
TREC_NAMES.update({f"ndcg@{k}": f"ndcg_cut_{k}" for k in KS})
TREC_NAMES.update({f"p@{k}": f"P_{k}" for k in KS})
TREC_NAMES.update({f"recall@{k}": f"recall_{k}" for k in KS})


@pytest.fixture(scope="module")
def collection():
    qrels, run = random_collection(seed=5, n_queries=400)
    reference = pytrec_eval.RelevanceEvaluator(qrels, set(TREC_NAMES.values())).evaluate(run)
    return qrels, run, reference


def test_collection_has_the_hard_cases(collection):
    qrels, run, _ = collection
    ties = sum(len(set(r.values())) < len(r) for r in run.values())
    all_zero = sum(not any(g > 0 for g in j.values()) for j in qrels.values())
    unretrieved = sum(any(d not in run[q] and g > 0 for d, g in qrels[q].items()) for q in qrels)
    unjudged = sum(any(d not in qrels[q] for d in run[q]) for q in run)
    short = sum(len(r) < 10 for r in run.values())
    assert min(ties, all_zero, unretrieved, unjudged, short) >= 20


def test_evaluate_matches_trec_eval_on_every_query(collection):
    qrels, run, reference = collection
    ours = lt.evaluate(qrels, run, list(TREC_NAMES), convention="trec_eval")
    assert set(ours.per_query) == set(reference)
    for qid, values in reference.items():
        for name, trec_name in TREC_NAMES.items():
            assert ours.per_query[qid][name] == pytest.approx(values[trec_name], abs=1e-9), (qid, name)


def test_exact_functions_match_trec_eval(collection):
    qrels, run, reference = collection
    for qid in list(reference)[:150]:
        docids, scores, grades, pool = split(qrels, run, qid)
        kw = {"scores": scores, "docids": docids, "convention": "trec_eval"}
        assert lt.ndcg(grades, ideal=pool, **kw).value == pytest.approx(reference[qid]["ndcg"], abs=1e-9)
        assert lt.ndcg(grades, k=3, ideal=pool, **kw).value == pytest.approx(reference[qid]["ndcg_cut_3"], abs=1e-9)
        n_rel = sum(g >= 1 for g in pool)
        assert lt.average_precision(grades, n_relevant=n_rel, **kw).value == pytest.approx(reference[qid]["map"],
                                                                                            abs=1e-9)
        assert lt.reciprocal_rank(grades, **kw).value == pytest.approx(reference[qid]["recip_rank"], abs=1e-9)
        assert lt.precision_at_k(grades, 5, **kw).value == pytest.approx(reference[qid]["P_5"], abs=1e-9)
        assert lt.recall_at_k(grades, 10, n_relevant=n_rel, **kw).value == pytest.approx(
            reference[qid]["recall_10"], abs=1e-9)


def test_renaming_tied_documents_changes_trec_eval_ndcg():
    # trec_eval#22, pytrec_eval#51: same scores, only the docnos differ, so the tie goes the other way.
    qrels = {"1": {"a": 2, "b": 0}}
    swapped = {"1": {"b": 2, "a": 0}}
    run = {"1": {"a": 0.5, "b": 0.5}}
    first = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg"}).evaluate(run)["1"]["ndcg"]
    second = pytrec_eval.RelevanceEvaluator(swapped, {"ndcg"}).evaluate(run)["1"]["ndcg"]
    assert first != second
    assert lt.evaluate(qrels, run, "ndcg").per_query["1"]["ndcg"] == pytest.approx(first, abs=1e-12)
    assert lt.evaluate(swapped, run, "ndcg").per_query["1"]["ndcg"] == pytest.approx(second, abs=1e-12)


def test_which_queries_trec_eval_scores():
    # Quirk: pytrec_eval (like trec_eval without -c) returns nothing for a judged topic absent from the
    # run, and nothing for a run topic without judgments; a judged topic whose grades are all 0 scores 0.
    # trec_eval's help for -c: "Average over the complete set of queries in the relevance judgements
    # instead of the queries in the intersection of relevance judgements and results. Missing queries
    # will contribute a value of 0". (conventions.md says trec_eval 10 exits with an error on topics
    # missing from the run unless -c; no trec_eval 10 binary is installed here to check it.)
    qrels = {"1": {"a": 1}, "2": {"a": 0}, "3": {"z": 1}}
    run = {"1": {"a": 1.0}, "2": {"a": 1.0}, "4": {"a": 1.0}}
    reference = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg", "map"}).evaluate(run)
    ours = lt.evaluate(qrels, run, ["ndcg", "map"])
    assert set(reference) == set(ours.per_query) == {"1", "2"}
    assert ours.ignored == ("4", "3")
    assert reference["2"] == {"ndcg": 0.0, "map": 0.0} and ours.per_query["2"] == {"ndcg": 0.0, "map": 0.0}
    # trec_eval -c averages topic 3 in as 0: missing="zero"
    assert lt.evaluate(qrels, run, "map", missing="zero").mean["map"] == pytest.approx((1 + 0 + 0) / 3)


def test_conventions_md_example_with_trec_eval():
    qrels = {"q1": {"d1": 3, "d2": 2, "d3": 0, "d4": 1, "d5": 2}}
    run = {"q1": {"d3": 1.0, "d1": 0.8, "d2": 0.8, "d4": 0.5, "d9": 0.4}}
    measures = {"ndcg": "ndcg", "map": "map", "mrr": "recip_rank", "p@3": "P_3", "p@10": "P_10",
                "recall@10": "recall_10"}
    reference = pytrec_eval.RelevanceEvaluator(qrels, set(measures.values())).evaluate(run)["q1"]
    printed = {"ndcg": 0.5608, "map": 0.4792, "recip_rank": 0.5, "P_3": 0.6667, "P_10": 0.3, "recall_10": 0.75}
    ours = lt.evaluate(qrels, run, list(measures)).per_query["q1"]
    for name, trec_name in measures.items():
        assert round(reference[trec_name], 4) == printed[trec_name]
        assert ours[name] == pytest.approx(reference[trec_name], abs=1e-12)


def test_cli_on_trec_files_agrees_with_trec_eval(tmp_path, capsys):
    from ltr_teach.cli import main
    from ltr_teach.runs.trec import write_qrels, write_run

    qrels, run = random_collection(seed=37, n_queries=200)
    write_qrels(qrels, tmp_path / "qrels.txt")
    write_run(run, tmp_path / "run.txt")
    with open(tmp_path / "qrels.txt", encoding="utf-8") as f_qrels, open(tmp_path / "run.txt", encoding="utf-8") as f_run:
        trec_qrels, trec_run = pytrec_eval.parse_qrel(f_qrels), pytrec_eval.parse_run(f_run)
    reference = pytrec_eval.RelevanceEvaluator(trec_qrels, {"ndcg_cut_10", "map", "P_5"}).evaluate(trec_run)
    assert main(["eval", str(tmp_path / "qrels.txt"), str(tmp_path / "run.txt"), "-m", "ndcg@10", "-m", "map",
                 "-m", "p@5", "--per-query"]) == 0
    printed = {}
    for line in capsys.readouterr().out.splitlines():
        metric, qid, value = (cell.strip() for cell in line.split("\t"))
        printed[(metric, qid)] = value
    for qid, values in reference.items():
        for ours, theirs in (("ndcg@10", "ndcg_cut_10"), ("map", "map"), ("p@5", "P_5")):
            assert printed[(ours, qid)] == f"{values[theirs]:.4f}", (qid, ours)
    for ours, theirs in (("ndcg@10", "ndcg_cut_10"), ("map", "map")):
        mean = sum(v[theirs] for v in reference.values()) / len(reference)
        assert printed[(ours, "all")] == f"{mean:.4f}"
    assert printed[("num_q", "all")] == str(len(reference))
