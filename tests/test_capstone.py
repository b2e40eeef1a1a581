"""Notebook 17's library: the collection loader, the two rankers, run files and the command line.

The rankers are checked against scores worked out by hand on a three-document example; the loader on the
shipped sample (read again here with plain Python), on tiny Glasgow-format files and on hostile input;
run files against the exact metrics and against pytrec_eval; and ``ir_datasets`` blocked.
"""

from __future__ import annotations

import math
import os
import sys
import time
import types
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import ltr_teach as lt
from ltr_teach.runs import collection as col

DOCS = {"d1": "Red lipstick.", "d2": "red RED sunscreen", "d3": "the sunscreen"}  # "the" is a stop word


def test_tokens_lower_case_split_and_stop_words():
    assert col.tokens("The SPF-50 sunscreen, for oily skin!") == ["spf", "50", "sunscreen", "oily", "skin"]


def test_index_counts_by_hand():
    index = col.build_index(DOCS)
    assert index.terms == ["lipstick", "red", "sunscreen"]
    assert index.counts.tolist() == [[1, 1, 0], [0, 2, 1], [0, 0, 1]]
    assert index.vectors(["red lipstick red", "blue moon"]).tolist() == [[1, 2, 0], [0, 0, 0]]


def test_bm25_by_hand():
    # N = 3, lengths 2, 3, 1, avgdl = 2; k1 = 1.2, b = 0.75
    # idf(lipstick) = ln(1 + 2.5/1.5) = ln(8/3); idf(red) = ln(1 + 1.5/2.5) = ln(8/5)
    # d1: K = 1.2 (0.25 + 0.75 * 2/2) = 6/5, tf = 1 for both words: 1 * 2.2 / (1 + 1.2) = 1 each
    # d2: K = 1.2 (0.25 + 0.75 * 3/2) = 33/20, tf(red) = 2: 2 * 2.2 / (2 + 1.65) = 88/73
    index = col.build_index(DOCS)
    scores = col.bm25_scores(index, index.vectors(["red lipstick"]), k1=1.2, b=0.75)
    expected = [math.log(8 / 3) + math.log(8 / 5), float(Fraction(88, 73)) * math.log(8 / 5), 0.0]
    assert scores.shape == (1, 3)
    assert scores[0].tolist() == pytest.approx(expected, rel=1e-12, abs=1e-15)


def test_bm25_k1_zero_is_the_binary_model_and_b_zero_ignores_length():
    index = col.build_index(DOCS)
    q = index.vectors(["red lipstick"])
    # k1 = 0: each query word present adds its idf, whatever its count
    assert col.bm25_scores(index, q, k1=0, b=0.75)[0].tolist() == pytest.approx(
        [math.log(8 / 3) + math.log(8 / 5), math.log(8 / 5), 0.0], rel=1e-12)
    # b = 0: K = k1 = 1.2 everywhere; d2's red: 2 * 2.2 / (2 + 1.2) = 11/8
    assert col.bm25_scores(index, q, k1=1.2, b=0)[0, 1] == pytest.approx(11 / 8 * math.log(8 / 5), rel=1e-12)
    with pytest.raises(ValueError, match=r"b = 2; b must be a number from 0 to 1 \(usually 0.75\)"):
        col.bm25_scores(index, q, b=2)


def test_tfidf_cosine_by_hand():
    # idf = ln(3/df): lipstick ln 3, red ln 1.5, sunscreen ln 1.5
    # q = d1 = (ln 3, ln 1.5, 0); d2 = (0, 2 ln 1.5, ln 1.5); d3 = (0, 0, ln 1.5)
    index = col.build_index(DOCS)
    scores = col.tfidf_scores(index, index.vectors(["red lipstick", "blue"]))
    a, c = math.log(3), math.log(1.5)
    cos_d2 = (2 * c * c) / (math.sqrt(a * a + c * c) * math.sqrt(5) * c)
    assert scores[0].tolist() == pytest.approx([1.0, cos_d2, 0.0], rel=1e-12, abs=1e-15)
    assert scores[1].tolist() == [0.0, 0.0, 0.0]  # no known word: zeros, not NaN


def test_an_empty_document_scores_zero_not_nan():
    index = col.build_index({"a": "red", "b": "the of and"})
    q = index.vectors(["red"])
    assert col.tfidf_scores(index, q)[0, 1] == 0 and col.bm25_scores(index, q)[0, 1] == 0
    assert not np.isnan(col.tfidf_scores(index, q)).any()


def test_to_run_keeps_the_depth_best_above_zero():
    scores = np.array([[0.5, 0.0, 2.0, 1.0], [0.0, 0.0, 0.0, 0.0]])
    assert col.to_run(scores, ["q1", "q2"], list("abcd"), depth=2) == {"q1": {"c": 2.0, "d": 1.0}, "q2": {}}
    with pytest.raises(ValueError, match="depth = 0"):
        col.to_run(scores, ["q1", "q2"], list("abcd"), depth=0)
    with pytest.raises(ValueError, match=r"query_ids has 1 ids; the scores have 2 \(one id each\)"):
        col.to_run(scores, ["q1"], list("abcd"))


def _plain_sample():
    """The shipped sample read with plain Python, independently of the loader."""
    data = Path(col.__file__).parent / "data"
    docs = (data / "skincare.all").read_text(encoding="utf-8")
    queries = (data / "skincare.qry").read_text(encoding="utf-8").split(".I ")[1:]
    qrels: dict = {}
    for line in (data / "skincare.qrels").read_text(encoding="utf-8").splitlines():
        q, _zero, d, g = line.split()
        qrels.setdefault(q, {})[d] = int(g)
    return docs.count(".I "), [q.split(".W\n")[1].strip() for q in queries], qrels


def test_the_sample_loads_as_written():
    n_docs, queries, qrels = _plain_sample()
    c = col.load("sample")
    assert (len(c.docs), len(c.queries), sum(map(len, c.qrels.values()))) == (n_docs, len(queries), 78) == (63, 14, 78)
    assert list(c.queries.values()) == queries and list(c.queries) == [str(i) for i in range(1, 15)]
    assert c.qrels == qrels
    assert c.docs["62"].startswith("A complete guide to skin:") and "\n" not in c.docs["62"]
    assert all(d in c.docs for judged in c.qrels.values() for d in judged)  # every judged document exists
    assert "63 documents, 14 queries, 78 judgments (65 relevant)" in str(c)
    assert (Path(col.__file__).parent / "data" / "README.md").read_text(encoding="utf-8").count("MIT") >= 1


def _sample_runs():
    c = col.load("sample")
    index = col.build_index(c.docs)
    q = index.vectors(list(c.queries.values()))
    return c, {name: col.to_run(scores, list(c.queries), index.doc_ids)
               for name, scores in (("tfidf", col.tfidf_scores(index, q)), ("bm25", col.bm25_scores(index, q)))}


def test_run_files_round_trip_to_the_exact_metrics(tmp_path):
    c, runs = _sample_runs()
    lt.write_qrels(c.qrels, tmp_path / "qrels.txt")
    for name, run in runs.items():
        lt.write_run(run, tmp_path / f"{name}.run", tag=name)
        assert lt.read_run(tmp_path / f"{name}.run") == run  # scores written exactly (repr)
        result = lt.evaluate(tmp_path / "qrels.txt", tmp_path / f"{name}.run", ["ndcg@10", "map"])
        assert result.queries == tuple(sorted(c.qrels))
        for qid in c.qrels:
            ranked = sorted(run[qid], key=lambda d: (-run[qid][d], [-ord(ch) for ch in d]))  # trec_eval: docid desc
            grades = [c.qrels[qid].get(d, 0) for d in ranked]
            ndcg = lt.ndcg(grades, k=10, ideal=list(c.qrels[qid].values()), convention="trec_eval")
            n_rel = sum(g > 0 for g in c.qrels[qid].values())
            ap = lt.average_precision([int(g > 0) for g in grades], n_relevant=n_rel)
            assert result.per_query[qid]["ndcg@10"] == pytest.approx(float(ndcg.exact), rel=1e-12)
            assert result.per_query[qid]["map"] == pytest.approx(float(ap.exact), rel=1e-12)


def test_the_sample_runs_agree_with_pytrec_eval():
    import pytrec_eval

    c, runs = _sample_runs()
    evaluator = pytrec_eval.RelevanceEvaluator(c.qrels, {"ndcg_cut.10", "map", "P.5"})
    for run in runs.values():
        peer = evaluator.evaluate(run)
        ours = lt.evaluate(c.qrels, run, ["ndcg@10", "map", "p@5"]).per_query
        for qid in c.qrels:
            assert ours[qid]["ndcg@10"] == pytest.approx(peer[qid]["ndcg_cut_10"], abs=1e-12)
            assert ours[qid]["map"] == pytest.approx(peer[qid]["map"], abs=1e-12)
            assert ours[qid]["p@5"] == pytest.approx(peer[qid]["P_5"], abs=1e-12)


def test_the_command_line_prints_the_library_numbers(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(Path(lt.__file__).parent.parent))
    c, runs = _sample_runs()
    lt.write_qrels(c.qrels, tmp_path / "qrels.txt")
    lt.write_run(runs["bm25"], tmp_path / "bm25.run")
    out = col.ltr_teach_command("eval", "qrels.txt", "bm25.run", "-m", "ndcg@10", "-m", "map", cwd=tmp_path)
    mean = lt.evaluate(c.qrels, runs["bm25"], ["ndcg@10", "map"]).mean
    assert out.splitlines()[0] == "$ ltr-teach eval qrels.txt bm25.run -m ndcg@10 -m map"
    assert f"ndcg@10               \tall\t{mean['ndcg@10']:.4f}" in out
    assert f"map                   \tall\t{mean['map']:.4f}" in out


def _glasgow(folder: Path, docs=None, queries=None, qrels=None) -> Path:
    folder.mkdir(exist_ok=True)
    (folder / "cran.all.1400").write_text(docs if docs is not None else (
        ".I 1\n.T\nwing flutter\n.A\nsmith\n.B\nj. ae. 1958\n.W\nwing flutter\nat high speed .\n"
        ".I 2\n.T\nheat\n.W\nheat transfer in a boundary layer .\n"), encoding="utf-8")
    (folder / "cran.qry").write_text(queries if queries is not None else (
        ".I 001\n.W\nflutter of wings ?\n.I 002\n.W\nheat transfer\n.I 004\n.W\nboundary layer\n"), encoding="utf-8")
    (folder / "cranqrel").write_text(qrels if qrels is not None else "1 1 1\n2 2 4\n3 2 -1\n3 1 2 \n",
                                     encoding="utf-8")
    return folder


def test_glasgow_files_renumber_queries_and_turn_codes_into_grades(tmp_path):
    c = col.load(_glasgow(tmp_path / "cran"))
    assert c.docs == {"1": "wing flutter at high speed .", "2": "heat transfer in a boundary layer ."}
    # .I 004 is the third query, which the judgments call 3
    assert c.queries == {"1": "flutter of wings ?", "2": "heat transfer", "3": "boundary layer"}
    # code 1 (a complete answer) -> 4, 4 (minimum interest) -> 1, 2 -> 3, -1 (no interest) -> 0
    assert c.qrels == {"1": {"1": 4}, "2": {"2": 1}, "3": {"2": 0, "1": 3}}


def test_a_bom_is_dropped(tmp_path):
    folder = _glasgow(tmp_path / "cran")
    for name in col.GLASGOW_FILES:
        path = folder / name
        path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    c = col.load(folder)
    assert list(c.docs) == ["1", "2"] and c.qrels["1"] == {"1": 4}


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"docs": "wing flutter\n.I 1\n.W\nx\n"}, "text before the first .I line"),
    ({"docs": ".I one\n.W\nx\n"}, ".I must be followed by a number"),
    ({"docs": ".I 1\n.W\nx\n.I 1\n.W\ny\n"}, "record 1 appears twice"),
    ({"docs": ""}, "holds no .I record"),
    ({"qrels": "1 1 5\n"}, "a relevance code must be 1, 2, 3, 4 or -1; got '5'"),
    ({"qrels": "1 1\n"}, "expected 3 columns"),
])
def test_malformed_glasgow_files_are_refused(tmp_path, kwargs, message):
    with pytest.raises(ValueError, match=message.replace(".", r"\.").replace("(", r"\(")):
        col.load(_glasgow(tmp_path / "cran", **kwargs))


def test_a_missing_folder_or_file_is_named(tmp_path):
    with pytest.raises(ValueError, match="neither 'sample', 'cranfield' nor a folder"):
        col.load(tmp_path / "nowhere")
    folder = _glasgow(tmp_path / "cran")
    (folder / "cranqrel").unlink()
    with pytest.raises(ValueError, match="lacks cranqrel"):
        col.load(folder)
    with pytest.raises(ValueError, match="source must be"):
        col.load(3)


def test_not_utf8_is_refused_with_its_line(tmp_path):
    folder = _glasgow(tmp_path / "cran")
    (folder / "cran.qry").write_bytes(b".I 1\n.W\nok\n.I 2\n.W\n\xff\xfe bad\n")
    with pytest.raises(ValueError, match=r"cran\.qry\' is not UTF-8 text \(line 6\)"):
        col.load(folder)


def test_dev_zero_as_a_file_is_refused_at_once(tmp_path):
    if not os.path.exists("/dev/zero"):  # Windows: the null device stands in
        device = "NUL"
    else:
        device = "/dev/zero"
    start = time.monotonic()
    with pytest.raises(ValueError, match="not a regular file|cannot be read"):
        col.read_records(device)
    assert time.monotonic() - start < 5


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs exist on POSIX only")
def test_a_fifo_in_the_folder_is_refused_without_waiting(tmp_path):
    folder = _glasgow(tmp_path / "cran")
    (folder / "cran.all.1400").unlink()
    os.mkfifo(folder / "cran.all.1400")  # no writer: opening it for reading would wait for ever
    start = time.monotonic()
    with pytest.raises(ValueError, match="is not a regular file"):
        col.load(folder)
    assert time.monotonic() - start < 5


def test_a_huge_file_is_refused_before_it_is_read(tmp_path, monkeypatch):
    folder = _glasgow(tmp_path / "cran")
    with open(folder / "cran.all.1400", "r+b") as f:  # sparse: a size past the bound, no disk used
        f.truncate(col.MAX_FILE_BYTES + 1)
    with pytest.raises(ValueError, match="at most 33,554,432 are allowed"):
        col.load(folder)
    monkeypatch.setattr(col, "MAX_FILE_BYTES", 20)
    small = _glasgow(tmp_path / "cran2")
    size = (small / "cran.all.1400").stat().st_size
    with pytest.raises(ValueError, match=f"cran.all.1400' has {size} bytes; at most 20 are allowed"):
        col.load(small)


def test_without_ir_datasets_the_sample_still_loads(monkeypatch):
    monkeypatch.setitem(sys.modules, "ir_datasets", None)  # import ir_datasets now raises ImportError
    c = col.load("sample")
    assert len(c.docs) == 63
    with pytest.raises(ImportError, match="pip install ir_datasets.*load\\('sample'\\) works offline"):
        col.load("cranfield")


def test_ir_datasets_records_are_renumbered_and_graded(monkeypatch):
    record = types.SimpleNamespace
    dataset = record(
        docs_iter=lambda: iter([record(doc_id="1", text="wing flutter"), record(doc_id="2", text="heat")]),
        queries_iter=lambda: iter([record(query_id="1", text="flutter"), record(query_id="4", text="heat")]),
        qrels_iter=lambda: iter([record(query_id="2", doc_id="2", relevance=1),
                                 record(query_id="1", doc_id="1", relevance=-1)]))
    fake = types.ModuleType("ir_datasets")
    fake.load = lambda name: dataset if name == "cranfield" else None
    monkeypatch.setitem(sys.modules, "ir_datasets", fake)
    c = col.load("Cranfield")
    assert c.queries == {"1": "flutter", "2": "heat"} and c.qrels == {"2": {"2": 4}, "1": {"1": 0}}
    assert c.docs == {"1": "wing flutter", "2": "heat"}


def test_the_sample_runs_agree_with_ir_measures_as_the_notebook_shows(tmp_path):
    import ir_measures
    from ir_measures import AP, P, nDCG

    c, runs = _sample_runs()
    lt.write_qrels(c.qrels, tmp_path / "qrels.txt")
    for name, run in runs.items():
        lt.write_run(run, tmp_path / f"{name}.run")
        peer = ir_measures.calc_aggregate([nDCG @ 10, AP, P @ 5], ir_measures.read_trec_qrels(str(tmp_path / "qrels.txt")),
                                          ir_measures.read_trec_run(str(tmp_path / f"{name}.run")))
        ours = lt.evaluate(tmp_path / "qrels.txt", tmp_path / f"{name}.run", ["ndcg@10", "map", "p@5"]).mean
        assert [ours["ndcg@10"], ours["map"], ours["p@5"]] == pytest.approx(
            [peer[nDCG @ 10], peer[AP], peer[P @ 5]], abs=1e-12)


def test_the_command_says_so_where_no_process_can_start(monkeypatch):
    def refuse(*args, **kwargs):
        raise OSError(38, "Function not implemented")  # what Pyodide's subprocess raises

    monkeypatch.setattr(col.subprocess, "run", refuse)
    out = col.ltr_teach_command("eval", "qrels.txt", "bm25.run", "-m", "map")
    assert out.splitlines() == ["$ ltr-teach eval qrels.txt bm25.run -m map",
                                ("(this Python cannot start a process, as in the browser edition: type the command in "
                                 "a terminal, or use lt.evaluate, which prints the same numbers)")]
