"""Runs and qrels as tables (pandas, Polars, Arrow; Parquet and Arrow files) give exactly the numbers of the same
rows as TREC files, with ties and unjudged documents; bad tables get one clear message; without the libraries the
course works and a Parquet file gets a message saying what to install."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.feather
import pyarrow.parquet
import pytest

import ltr_teach as lt
from ltr_teach.runs.trec import write_qrels, write_run

METRICS = ["ndcg@10", "map", "mrr", "p@5", "recall@10", "err@10", "bpref", "judged@5", "auc"]


def _random_case(seed):
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    for q in range(30):
        docs = [f"d{j}" for j in range(int(rng.integers(5, 25)))]
        judged = rng.choice(docs, size=max(1, len(docs) // 2), replace=False)   # the rest are unjudged
        qrels[f"q{q}"] = {d: int(rng.integers(0, 4)) for d in judged}
        # scores rounded to one decimal: many ties, which each tool breaks by its rule
        run[f"q{q}"] = {d: float(np.round(rng.normal(), 1)) for d in docs}
    return qrels, run


def _frame(mapping, value):
    rows = [(q, d, v) for q, inner in mapping.items() for d, v in inner.items()]
    return pd.DataFrame(rows, columns=["query", "doc", value])


@pytest.fixture(scope="module", params=[1, 2])
def case(request, tmp_path_factory):
    qrels, run = _random_case(request.param)
    folder = tmp_path_factory.mktemp(f"case{request.param}")
    write_qrels(qrels, folder / "qrels.txt")
    write_run(run, folder / "run.txt")
    return qrels, run, folder


@pytest.mark.parametrize("convention", ["trec_eval", "ir_measures", "ranx", "lightgbm"])
@pytest.mark.parametrize("form", ["pandas", "polars", "arrow", "parquet", "feather"])
def test_a_table_gives_the_numbers_of_the_trec_files(case, form, convention):
    qrels, run, folder = case
    expected = lt.evaluate(folder / "qrels.txt", folder / "run.txt", METRICS, convention=convention).per_query
    q_frame, r_frame = _frame(qrels, "grade"), _frame(run, "score")
    if form == "pandas":
        q_in, r_in = q_frame, r_frame
    elif form == "polars":
        q_in, r_in = pl.from_pandas(q_frame), pl.from_pandas(r_frame)
    else:
        q_in, r_in = pa.Table.from_pandas(q_frame), pa.Table.from_pandas(r_frame)
        if form != "arrow":
            suffix, write = (".parquet", pyarrow.parquet.write_table) if form == "parquet" else \
                (".feather", pyarrow.feather.write_feather)
            write(q_in, folder / f"qrels{suffix}")
            write(r_in, folder / f"run{suffix}")
            q_in, r_in = folder / f"qrels{suffix}", str(folder / f"run{suffix}")
    assert lt.evaluate(q_in, r_in, METRICS, convention=convention).per_query == expected


def test_the_command_line_reads_parquet_as_it_reads_trec_files(case):
    qrels, run, folder = case
    pyarrow.parquet.write_table(pa.Table.from_pandas(_frame(qrels, "relevance")), folder / "q.parquet")
    pyarrow.parquet.write_table(pa.Table.from_pandas(_frame(run, "score").rename(columns={"query": "qid",
                                                                                         "doc": "docno"})),
                                folder / "r.parquet")

    def run_cli(*args):
        done = subprocess.run([sys.executable, "-m", "ltr_teach.cli", "--lang", "en", "eval", *map(str, args), "-m",
                               "ndcg@10", "-m", "map", "--per-query"], capture_output=True, text=True, encoding="utf-8",
                              check=False)
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert run_cli(folder / "q.parquet", folder / "r.parquet") == run_cli(folder / "qrels.txt", folder / "run.txt")


def test_compare_runs_takes_tables_too(case):
    qrels, run, folder = case
    other = {q: {d: -s for d, s in inner.items()} for q, inner in run.items()}
    from_files = lt.compare_runs(folder / "qrels.txt", {"A": run, "B": other}, "map")
    from_tables = lt.compare_runs(_frame(qrels, "grade"), {"A": _frame(run, "score"), "B": pl.from_pandas(
        _frame(other, "score"))}, "map")
    assert from_tables["B"].differences == from_files["B"].differences


@pytest.mark.parametrize(("table", "message"), [
    (pd.DataFrame({"query": ["q1", "q1"], "doc": ["d1", "d1"], "score": [1.0, 2.0]}),
     "row 1: document 'd1' is retrieved twice for query 'q1'"),
    (pd.DataFrame({"query": ["q1"], "document": ["d1"], "score": [1.0]}), "has no document column: name one of doc"),
    (pd.DataFrame({"query": ["q1"], "doc": ["d1"], "points": [1.0]}), "has no score column"),
    (pd.DataFrame({"query": ["q1"], "doc": ["d1"], "score": [float("nan")]}), "score nan is not allowed"),
    (pd.DataFrame({"query": ["q1"], "doc": ["d1"], "score": ["high"]}), "score 'high' is not allowed"),
    (pd.DataFrame({"query": [None], "doc": ["d1"], "score": [1.0]}), "row 0: the query id is missing"),
    (pd.DataFrame({"query": [1.0], "doc": ["d1"], "score": [1.0]}), "the query id 1.0 is a float"),
    (pd.DataFrame({"query": [], "doc": [], "score": []}), "has no rows"),
    (pl.DataFrame({"query": ["q1"], "doc": ["d1"], "score": [None]}, schema={"query": pl.String, "doc": pl.String,
                                                                            "score": pl.Float64}), "score None"),
    (pd.DataFrame({"query": ["q1"], "doc": ["d1"], "score": [1e400]}), "inf"),
])
def test_a_bad_table_gets_one_clear_message(table, message):
    qrels = {"q1": {"d1": 1}}
    with pytest.raises(ValueError, match=message):
        lt.evaluate(qrels, table, ["map"])


def test_a_bad_file_gets_one_clear_message(tmp_path):
    qrels = {"q1": {"d1": 1}}
    (tmp_path / "text.parquet").write_text("q1 Q0 d1 1 1.0 run\n", encoding="utf-8")
    with pytest.raises(ValueError, match="is not a readable Parquet file"):
        lt.evaluate(qrels, tmp_path / "text.parquet", ["map"])
    os.mkfifo(tmp_path / "pipe.parquet")
    with pytest.raises(ValueError, match="is not a regular file"):
        lt.evaluate(qrels, tmp_path / "pipe.parquet", ["map"])
    with pytest.raises(ValueError, match="cannot be read"):
        lt.evaluate(qrels, tmp_path / "absent.arrow", ["map"])
    os.symlink("/dev/zero", tmp_path / "zero.feather")
    with pytest.raises(ValueError, match="is not a regular file"):
        lt.evaluate(qrels, tmp_path / "zero.feather", ["map"])


BLOCKED = """
import sys
class _Blocked:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("pandas", "polars", "pyarrow"):
            raise ModuleNotFoundError(f"No module named {name!r}")
sys.meta_path.insert(0, _Blocked())
"""


def test_without_the_libraries_the_course_works_and_parquet_says_what_to_install(tmp_path):
    pyarrow.parquet.write_table(pa.table({"query": ["q1"], "doc": ["d1"], "score": [1.0]}), tmp_path / "r.parquet")
    script = BLOCKED + f"""
import ltr_teach as lt
print(lt.evaluate({{"q1": {{"d1": 1}}}}, {{"q1": {{"d1": 2.0}}}}, ["map"]).per_query)
try:
    lt.evaluate({{"q1": {{"d1": 1}}}}, {str(tmp_path / "r.parquet")!r}, ["map"])
except ValueError as exc:
    print(exc)
print(sorted(m for m in sys.modules if m.split(".")[0] in ("pandas", "polars", "pyarrow")))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, encoding="utf-8",
                          check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "{'q1': {'map': 1.0}}"
    assert "needs pyarrow or polars" in lines[1] and 'pip install "ltr_teach[tables]"' in lines[1]
    assert lines[2] == "[]"
