"""Issue 25, speed: the fast path from TREC files to per-query values agrees with the line-by-line oracle.

The run-file reader splits a block in the usual shape (one blank between fields, LF line ends) from its
blanks alone, gathers fields as 8-byte words and fills its columns in place; the evaluator finds a
chunk's judgments and repeated documents through hashed words. Every result here is compared with
``trec._read_lines`` (the plain reader: ``bytes.split`` per line) and with ``lt.evaluate`` on the dicts it
reads, which ``tests/test_evaluate.py`` ties to the exact metrics and pytrec_eval. No timing is asserted.
"""

from __future__ import annotations

import math
import os
import random
import sys

import pytest

import ltr_teach as lt
from ltr_teach.runs import trec
from ltr_teach.runs.trec import _read_lines, read_columns, read_qrels, read_run

METRICS = ["ndcg@10", "ndcg", "map", "mrr", "p@5", "bpref", "judged@10", "rbp_residual", "err@20", "auc"]


def _evaluate_module():
    import importlib

    return importlib.import_module("ltr_teach.runs.evaluate")


def write(path, data: bytes):
    path.write_bytes(data)
    return path


def random_files(rng: random.Random, n_queries: int, n_docs: int, *, messy: bool, long_ids: bool,
                 interleave: bool, bom: bool = False):
    """(qrels bytes, run bytes): scores with one decimal (many ties), some judged documents unretrieved and
    many retrieved ones unjudged; ``messy``: tabs, runs of blanks, CRLF, trailing blanks, comments."""
    run_lines, qrels_lines = [], []
    for q in range(n_queries):
        qid = f"{rng.choice(['', 'q', 'topic-'])}{q}"
        docs = rng.sample(range(10**7), n_docs)
        names = [f"clueweb09-en{d:010d}" if long_ids and rng.random() < 0.5 else
                 rng.choice([f"{d}", f"D{d}", f"d{d % 1000}x{d}"]) for d in docs]
        for rank, docid in enumerate(names):
            score = rng.choice([round(rng.random(), 1), rng.randint(-3, 3), rng.uniform(-1e3, 1e3)])
            fields = [qid, "Q0", docid, str(rank + 1), repr(float(score)) if rng.random() < 0.5 else str(score), "tag"]
            if messy:
                sep = rng.choice([" ", "\t", "  ", " \t "])
                line = sep.join(fields) + rng.choice(["", " ", "\t", " extra", "\r"])
            else:
                line = " ".join(fields)
            run_lines.append(line)
        for docid in rng.sample(names, min(len(names), rng.randint(0, 4))) + [f"unretrieved{q}"]:
            qrels_lines.append(f"{qid} 0 {docid} {rng.choice([-1, 0, 0, 1, 2, 3])}")
    if interleave:
        rng.shuffle(run_lines)
    if messy:
        at = rng.randrange(len(run_lines) + 1)
        run_lines[at:at] = ["# a comment", "", "   "]
    run = ("\n".join(run_lines) + "\n").encode()
    return ("\n".join(qrels_lines) + "\n").encode(), (b"\xef\xbb\xbf" if bom else b"") + run


def assert_same_values(got, want):
    assert got.queries == want.queries and got.metrics == want.metrics
    for q in want.per_query:
        for m in want.metrics:
            a, b = got.per_query[q][m], want.per_query[q][m]
            assert (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b, rel=1e-12, abs=1e-12), (q, m)


CASES = [{"messy": False, "long_ids": False, "interleave": False}, {"messy": False, "long_ids": True, "interleave": False},
         {"messy": False, "long_ids": False, "interleave": True}, {"messy": True, "long_ids": True, "interleave": True},
         {"messy": False, "long_ids": True, "interleave": False, "bom": True}]


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("case", range(len(CASES)))
@pytest.mark.parametrize("block", [97, 4096, 1 << 21])
def test_the_fast_reader_equals_the_line_reader(tmp_path, monkeypatch, seed, case, block):
    monkeypatch.setattr(trec, "_BLOCK_BYTES", block)  # blocks end mid-line; some blocks regular, some not
    qrels_bytes, run_bytes = random_files(random.Random(seed), 25, 30, **CASES[case])
    run_path, qrels_path = write(tmp_path / "run", run_bytes), write(tmp_path / "qrels", qrels_bytes)
    assert read_run(run_path) == _read_lines(run_path, "run")
    assert read_qrels(qrels_path) == _read_lines(qrels_path, "qrels")
    columns = read_columns(run_path, "run")
    oracle = _read_lines(run_path, "run")
    assert list(columns.qids) == list(oracle)  # in the order of first appearance
    assert len(columns.values) == sum(map(len, oracle.values()))


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("case", range(len(CASES)))
@pytest.mark.parametrize("convention", ["trec_eval", "ir_measures", "ranx", "lightgbm", "sklearn"])
def test_evaluate_from_files_equals_evaluate_from_the_oracles_dicts(tmp_path, seed, case, convention):
    qrels_bytes, run_bytes = random_files(random.Random(100 + seed), 40, 25, **CASES[case])
    run_path, qrels_path = write(tmp_path / "run", run_bytes), write(tmp_path / "qrels", qrels_bytes)
    metrics = ["ndcg@10", "ndcg", "map"] if convention == "sklearn" else METRICS
    if convention in ("ranx", "lightgbm", "sklearn"):  # grades must be >= 0 outside trec_eval's conventions
        qrels_path = write(tmp_path / "qrels", qrels_bytes.replace(b" -1\n", b" 0\n"))
    got = lt.evaluate(qrels_path, run_path, metrics, convention=convention)
    want = lt.evaluate(_read_lines(qrels_path, "qrels"), _read_lines(run_path, "run"), metrics, convention=convention)
    assert_same_values(got, want)


def test_ties_between_long_document_ids_follow_trec_eval_docid_order(tmp_path):
    # three documents tied at 0.5, ids longer than 8 bytes that share their first 8: trec_eval ranks tied
    # documents by docid descending (strcmp), so doc-0000000003 (unjudged) comes first, then ...2 (grade 1)
    # and ...1 (grade 0): the reciprocal rank is 1/2 and P@1 is 0
    run = write(tmp_path / "run", b"".join(f"q Q0 doc-000000000{i} {i} 0.5 t\n".encode() for i in (1, 2, 3)))
    qrels = write(tmp_path / "qrels", b"q 0 doc-0000000002 1\nq 0 doc-0000000001 0\n")
    result = lt.evaluate(qrels, run, ["mrr", "p@1"])
    assert result.per_query["q"] == {"mrr": 0.5, "p@1": 0.0}


def test_hash_collisions_are_checked_against_the_ids(tmp_path, monkeypatch):
    """Every document hashed alike: no document is called repeated and every judgment is still found,
    because equal hashes only make candidates that the ids themselves confirm or reject."""
    module = _evaluate_module()
    qrels_bytes, run_bytes = random_files(random.Random(5), 30, 20, messy=False, long_ids=True, interleave=True)
    run_path, qrels_path = write(tmp_path / "run", run_bytes), write(tmp_path / "qrels", qrels_bytes)
    want = lt.evaluate(_read_lines(qrels_path, "qrels"), _read_lines(run_path, "run"), METRICS)
    monkeypatch.setattr(module, "_word_hash", lambda words: (words[:, 0] & 0).copy())
    assert_same_values(lt.evaluate(qrels_path, run_path, METRICS), want)


@pytest.mark.parametrize("docid", [b"d1", b"clueweb09-en0000-00-00001"])
def test_a_document_twice_in_a_regular_file_is_named_by_its_line(tmp_path, docid):
    lines = [b"q1 Q0 other 1 2 r", b"q1 Q0 " + docid + b" 2 1 r", b"q2 Q0 x 1 1 r", b"q1 Q0 " + docid + b" 3 0.5 r"]
    run = write(tmp_path / "run", b"\n".join(lines) + b"\n")
    qrels = write(tmp_path / "qrels", b"q1 0 other 1\n")
    with pytest.raises(ValueError, match=rf"run:4: document '{docid.decode()}' is retrieved twice for query 'q1'"):
        lt.evaluate(qrels, run, "map")


@pytest.mark.parametrize("block", [b"a Q0 d 1 2 t\nb Q0 e 1 3 t\n", b"a Q0 d 1 2 t x\nb\tQ0\te\t1\t3\tt\ty\n"])
def test_a_regular_block_is_split_as_the_general_path_splits_it(monkeypatch, block):
    buf, controls = trec._text_bytes(block, 1, "run", "run", with_controls=True)
    assert trec._split_regular(buf, controls, 1, 6, None, range(6)) is not None  # the fast path takes it
    regular = trec._split(block, 1, "run", "run")
    monkeypatch.setattr(trec, "_split_regular", lambda *args: None)
    general = trec._split(block, 1, "run", "run")
    assert regular[1].tolist() == general[1].tolist()
    for j in range(6):
        assert regular[2][j].tolist() == general[2][j].tolist() and regular[3][j].tolist() == general[3][j].tolist()


@pytest.mark.parametrize("block", [b"a Q0 d 1 2 t\r\n", b"a Q0  d 1 2 t\n", b" a Q0 d 1 2 t\n", b"#a Q0 d 1 2 t\n",
                                   b"a Q0 d 1 2 t\n\n", b"a Q0 d 1 2\x0bt\n", b"a Q0 d 1 2 t x\nb Q0 e 1 3\n",
                                   b"a Q0 d 1 2 t\nb Q0 e 1 3 t u v\n"])
def test_blocks_outside_the_usual_shape_take_the_general_path(block):
    buf, controls = trec._text_bytes(block, 1, "run", "run", with_controls=True)
    assert trec._split_regular(buf, controls, 1, 6, None, range(6)) is None


def test_columns_grow_wider_and_change_type_in_later_blocks(tmp_path, monkeypatch):
    """Ids grow from 2 to 30 bytes after the first blocks (the document matrix widens), and a huge grade in a
    later block turns the qrels' grades into Python ints, as the line reader reads them."""
    monkeypatch.setattr(trec, "_BLOCK_BYTES", 4096)
    lines = [f"q{i % 7} Q0 d{i} {i} {i / 8} t\n" for i in range(3000)]
    lines += [f"q{i % 7} Q0 {'x' * 28}{i} {i} {i / 8} t\n" for i in range(3000, 3100)]
    run = write(tmp_path / "run", "".join(lines).encode())
    assert read_run(run) == _read_lines(run, "run")
    qrels = write(tmp_path / "qrels", b"".join(f"q 0 d{i} 1\n".encode() for i in range(2000))
                  + b"q 0 big 99999999999999999999999\n")
    assert read_qrels(qrels) == _read_lines(qrels, "qrels")
    assert read_qrels(qrels)["q"]["big"] == 99999999999999999999999


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="opens a FIFO read-write, which Linux allows")
def test_a_pipe_longer_than_the_first_guess_is_read_whole(tmp_path, monkeypatch):
    """A FIFO has no size: the columns start at 1,024 rows and double. The test holds the FIFO open
    read-write before the reader opens it, so the reader always finds a writer (no race with a thread)."""
    import threading

    monkeypatch.setattr(trec, "_BLOCK_BYTES", 4096)
    data = "".join(f"q{i % 7} Q0 d{i} {i} {i / 8} t\n" for i in range(5000)).encode()
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    held = os.open(fifo, os.O_RDWR)
    got = {}
    reader = threading.Thread(target=lambda: got.update(run=read_run(fifo)))
    reader.start()
    try:
        view = memoryview(data)
        while view:  # blocks while the pipe is full, until the reader takes its bytes
            view = view[os.write(held, view):]
    finally:
        os.close(held)
        reader.join(timeout=60)
    assert got["run"] == _read_lines(write(tmp_path / "run", data), "run")
