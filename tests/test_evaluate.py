"""lt.evaluate (NumPy, floats) against the exact step-by-step library, TREC files and the CLI."""

import importlib
import math

import numpy as np
import pytest

import ltr_teach as lt
from ltr_teach.cli import main
from ltr_teach.metrics.conventions import CONVENTIONS
from ltr_teach.runs.trec import read_qrels, read_run, write_qrels, write_run

from parity_data import random_collection, split

EVALUATE_MODULE = importlib.import_module("ltr_teach.runs.evaluate")  # the package exports the function by that name
METRICS = ["ndcg", "ndcg@3", "ndcg@20", "map", "map@3", "mrr", "mrr@2", "p@5", "recall@5", "err@5", "auc"]


def exact_values(qrels, run, qid, conv, g_max):
    """One query's metrics from the exact library, under the same convention."""
    docids, scores, grades, pool = split(qrels, run, qid)
    kw = {"scores": scores, "docids": docids, "convention": conv.name}
    ideal = pool if conv.ideal == "pool" else None
    # pool conventions count every relevant judged document; list conventions only those retrieved
    n_rel = sum(g >= conv.threshold for g in (pool if conv.ideal == "pool" else grades))
    empty = 1.0 if conv.zero == "one" else 0.0
    out = {
        "ndcg": lt.ndcg(grades, ideal=ideal, **kw).value,
        "ndcg@3": lt.ndcg(grades, k=3, ideal=ideal, **kw).value,
        "ndcg@20": lt.ndcg(grades, k=20, ideal=ideal, **kw).value,
    }
    if conv.ties == "average":
        return out
    # the convention's divisor (all relevant, or min(relevant, k) for LightGBM and RecBole) applies to n_rel
    out["map"] = lt.average_precision(grades, n_relevant=n_rel, **kw).value if n_rel else empty
    out["map@3"] = lt.average_precision(grades, n_relevant=n_rel, k=3, **kw).value if n_rel else empty
    labels = [int(g >= conv.threshold) for g in grades]
    out.update({
        "mrr": lt.reciprocal_rank(grades, **kw).value,
        "mrr@2": lt.reciprocal_rank(grades, k=2, **kw).value,
        "p@5": lt.precision_at_k(grades, 5, **kw).value,
        "recall@5": lt.recall_at_k(grades, 5, n_relevant=n_rel, **kw).value,
        "err@5": lt.err(grades, g_max=g_max, k=5, **kw).value,
        "auc": lt.auc(labels, scores).value if 0 < sum(labels) < len(labels) else math.nan,
    })
    return out


@pytest.mark.parametrize("name", sorted(CONVENTIONS))
def test_bulk_equals_exact_on_random_queries(name):
    conv = CONVENTIONS[name]
    qrels, run = random_collection(seed=23, n_queries=60)
    metrics = ["ndcg", "ndcg@3", "ndcg@20"] if conv.ties == "average" else METRICS
    result = lt.evaluate(qrels, run, metrics, convention=name, g_max=4)
    for qid in run:
        if qid not in result.per_query:  # gdeval.pl leaves out the topics without a judgment > 0
            assert conv.skip_unjudged_topics and not any(g > 0 for g in qrels[qid].values()), (name, qid)
            continue
        expected = exact_values(qrels, run, qid, conv, g_max=conv.g_max or 4)
        for metric in metrics:
            got = result.per_query[qid][metric]
            if math.isnan(expected[metric]):
                assert math.isnan(got), (qid, metric)
            else:
                assert got == pytest.approx(expected[metric], abs=1e-12), (name, qid, metric)




# Grades are read two ways: whole numbers 0-254 by bytes() (a fast C pass that also marks unjudged documents
# with 255), anything else as floats. Each reader is checked against the exact library on the same queries.
GRADE_FORMS = {  # name: (the grade of each judgment, read by bytes())
    "whole numbers 0-4": (lambda g: g, True),
    "floats": (float, False),
    "a grade of 255 present (the bytes reader's mark of an unjudged document)": (lambda g: 255 if g == 4 else g, False),
    "NumPy integers and bools": (lambda g: bool(g) if g < 2 else np.int64(g), True),
}


@pytest.mark.parametrize("form", sorted(GRADE_FORMS))
def test_each_grade_reader_equals_the_exact_library(form):
    qrels, run = random_collection(seed=31, n_queries=60)
    grade_of, by_bytes = GRADE_FORMS[form]
    qrels = {q: {d: grade_of(g) for d, g in judged.items()} for q, judged in qrels.items()}
    conv = CONVENTIONS["trec_eval"]
    metrics = ["ndcg", "ndcg@3", "map", "mrr", "p@5", "recall@5", "auc"]
    assert EVALUATE_MODULE._Pools.read(qrels).small == by_bytes  # the reader this form is meant to reach
    result = lt.evaluate(qrels, run, metrics)
    assert set(result.per_query) == set(run)
    for qid in run:
        expected = exact_values(qrels, run, qid, conv, g_max=255)
        for metric in metrics:
            got, want = result.per_query[qid][metric], expected[metric]
            assert (math.isnan(got) and math.isnan(want)) or got == pytest.approx(want, abs=1e-12), (form, qid, metric)


def test_mean_is_over_the_averaged_queries_and_auc_skips_undefined():
    qrels = {"1": {"a": 1, "b": 0}, "2": {"a": 1}, "3": {"x": 1}}
    run = {"1": {"a": 0.9, "b": 0.1}, "2": {"a": 0.5}, "9": {"a": 1.0}}
    result = lt.evaluate(qrels, run, ["map", "auc"])
    assert result.queries == ("1", "2") and result.ignored == ("9", "3")
    assert result.mean["map"] == 1.0          # (1 + 1) / 2
    assert math.isnan(result.per_query["2"]["auc"])  # one class only: AUC undefined
    assert result.mean["auc"] == 1.0          # over query 1 only
    with_missing = lt.evaluate(qrels, run, ["map"], missing="zero")
    assert with_missing.per_query["3"]["map"] == 0.0 and with_missing.mean["map"] == pytest.approx(2 / 3)


def test_trec_files_round_trip_and_match_dicts(tmp_path):
    qrels, run = random_collection(seed=29, n_queries=40, tie_prone=False)
    write_qrels(qrels, tmp_path / "qrels.txt")
    write_run(run, tmp_path / "run.txt")
    assert read_qrels(tmp_path / "qrels.txt") == qrels
    assert {q: dict(sorted(d.items())) for q, d in read_run(tmp_path / "run.txt").items()} == \
        {q: dict(sorted(d.items())) for q, d in run.items()}
    from_files = lt.evaluate(str(tmp_path / "qrels.txt"), tmp_path / "run.txt", ["ndcg@10", "map"])
    from_dicts = lt.evaluate(qrels, run, ["ndcg@10", "map"])
    assert from_files.per_query == from_dicts.per_query


def test_cli_prints_a_trec_eval_table(tmp_path, capsys):
    qrels = {"q1": {"d1": 3, "d2": 2, "d3": 0, "d4": 1, "d5": 2}}
    run = {"q1": {"d3": 1.0, "d1": 0.8, "d2": 0.8, "d4": 0.5, "d9": 0.4}}
    write_qrels(qrels, tmp_path / "qrels")
    write_run(run, tmp_path / "run")
    assert main(["eval", str(tmp_path / "qrels"), str(tmp_path / "run"), "-m", "ndcg", "-m", "map",
                 "--per-query"]) == 0
    lines = [line.split("\t") for line in capsys.readouterr().out.splitlines()]
    # trec_eval on this pair: ndcg .5608, map .4792 (see test_parity_trec_eval)
    assert [[c.strip() for c in line] for line in lines] == [
        ["ndcg", "q1", "0.5608"], ["map", "q1", "0.4792"], ["num_q", "all", "1"],
        ["ndcg", "all", "0.5608"], ["map", "all", "0.4792"]]
    assert main(["eval", str(tmp_path / "qrels"), str(tmp_path / "run"), "-m", "ndcg@10",
                 "--convention", "lightgbm"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].split("\t")[-1] == "0.6758"


def test_cli_reports_bad_input_in_one_line(tmp_path, capsys):
    (tmp_path / "run").write_text("q1 Q0 d1 1\n", encoding="utf-8")
    write_qrels({"q1": {"d1": 1}}, tmp_path / "qrels")
    assert main(["eval", str(tmp_path / "qrels"), str(tmp_path / "run"), "-m", "map"]) == 2
    assert "run:1: a run line has at least 6 fields" in capsys.readouterr().err


def test_progress_bar_goes_to_stderr_only_when_asked(capsys):
    qrels, run = random_collection(seed=31, n_queries=30)
    lt.evaluate(qrels, run, "map", progress=True, chunk_size=10)
    captured = capsys.readouterr()
    assert captured.out == "" and "30/30 queries" in captured.err and "10/30" in captured.err
    lt.evaluate(qrels, run, "map", progress=False)
    assert capsys.readouterr().err == ""
    lt.evaluate(qrels, run, "map")  # stderr is not a terminal under pytest: no bar
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("kwargs, message", [
    ({"metrics": "ndgc"}, "metric 'ndgc' is not one of dcg, ndcg, err, mrr, p, recall, map"),
    ({"metrics": "p"}, "needs a cut-off, e.g. p@10"),
    ({"metrics": "ndcg@0"}, "k must be >= 1"),
    ({"metrics": "auc@5"}, "auc takes no cut-off"),
    ({"metrics": []}, "at least one metric"),
    ({"metrics": "map", "convention": "trec"}, "convention must be one of"),
    ({"metrics": "mrr", "convention": "sklearn"}, "averages tied scores"),
    ({"metrics": "map", "missing": "drop"}, "missing must be one of"),
    ({"metrics": "map", "qrels": {"1": {"a": "1"}}}, r"qrels\['1'\]: grade '1' is not allowed"),
    ({"metrics": "map", "qrels": {"1": {"a": -1}}, "convention": "lightgbm"}, r"qrels\['1'\]: grade -1 is not allowed"),
    ({"metrics": "map", "run": {"1": {"a": float("nan")}}}, r"run\['1'\]: score nan is not allowed"),
    ({"metrics": "err@5", "g_max": 1, "qrels": {"1": {"a": 3}}}, "above g_max = 1"),
    ({"metrics": "map", "run": 42}, "run must be a dict or the path"),
])
def test_bad_input_names_the_argument(kwargs, message):
    args = {"qrels": {"1": {"a": 1}}, "run": {"1": {"a": 1.0}}, **kwargs}
    with pytest.raises(ValueError, match=message):
        lt.evaluate(**args)


def test_malformed_files_name_the_line(tmp_path):
    (tmp_path / "q").write_text("1 0 a 1\n1 0 a 2\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"q:2: document 'a' is judged twice"):
        read_qrels(tmp_path / "q")
    (tmp_path / "r").write_text("1 Q0 a 1 high run\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"r:1: score 'high' is not a number"):
        read_run(tmp_path / "r")
