"""Issue 11, the run path: every reproduction of a crash, a hang or a silent change of data in
``lt.evaluate``, the TREC readers and ``ltr-teach eval`` ends as the right answer or one clear error.

Expected values come from pytrec_eval (trec_eval's C code) or from hand arithmetic in the comments.
"""

from __future__ import annotations

import math
import os
import random
import subprocess
import sys

import pytest

import ltr_teach as lt
from ltr_teach.runs.trec import MAX_LINE_BYTES, _read_lines, read_columns, read_qrels, read_run

pytrec_eval = pytest.importorskip("pytrec_eval")

QRELS = {"q": {"a": 1}}
RUN = {"q": {"a": 1.0, "b": 0.5}}


def pytrec(qrels, run, measures=("ndcg", "map", "recip_rank")):
    return pytrec_eval.RelevanceEvaluator(qrels, set(measures)).evaluate(run)


def cli(*args, stdin=None, timeout=60):
    """Run the real console entry in a child process: (exit code, stdout, stderr)."""
    env = {**os.environ, "PYTHONPATH": os.getcwd() + os.pathsep + os.environ.get("PYTHONPATH", ""),
           "PYTHONIOENCODING": "utf-8"}
    proc = subprocess.run([sys.executable, "-m", "ltr_teach.cli", *map(str, args)], capture_output=True,
                          text=True, encoding="utf-8", timeout=timeout, env=env, stdin=stdin, check=False)
    return proc.returncode, proc.stdout, proc.stderr


# -- lt.evaluate with dicts ------------------------------------------------------------------------------

@pytest.mark.parametrize("bad, shown", [([1, 2], "list"), ({1, 2}, "set"), ("ab", "str"), (None, "NoneType")])
@pytest.mark.parametrize("side", ["qrels", "run"])
def test_a_query_that_is_not_a_dict_is_named(bad, shown, side):
    args = {"qrels": QRELS, "run": RUN, side: {"q": bad}}
    with pytest.raises(ValueError, match=rf"{side}\['q'\] must be a dict .*; got {shown}"):
        lt.evaluate(args["qrels"], args["run"], "ndcg")


@pytest.mark.parametrize("side, what", [("qrels", "grade"), ("run", "score")])
def test_a_number_beyond_a_double_is_refused_by_name(side, what):
    args = {"qrels": {"q": {"a": 1}}, "run": {"q": {"a": 1.0}}}
    args[side]["q"]["a"] = 10**400
    with pytest.raises(ValueError, match=rf"{side}\['q'\]: {what} 1000.* is not allowed"):
        lt.evaluate(args["qrels"], args["run"], "map")


def test_text_grades_are_refused_not_read_as_numbers():
    with pytest.raises(ValueError, match=r"qrels\['q'\]: grade '1' is not allowed; grades must be numbers"):
        lt.evaluate({"q": {"a": "1"}}, RUN, "map")


def test_err_with_grades_and_g_max_beyond_1023_does_not_overflow():
    # one document of grade 1099 under g_max = 1100: R = (2^1099 - 1) / 2^1100 = 1/2 - 2^-1100, which is
    # 0.5 as a double; ERR = R / 1
    result = lt.evaluate({"q": {"a": 1099}}, {"q": {"a": 1.0}}, "err", g_max=1100)
    assert result.mean["err"] == 0.5
    # grade 2000 with g_max defaulting to the top grade: R = 1 - 2^-2000, 1.0 as a double
    assert lt.evaluate({"q": {"a": 2000}}, {"q": {"a": 1.0}}, "err").mean["err"] == 1.0


@pytest.mark.parametrize("g_max", [float("nan"), 3.5, 0, True, "4"])
def test_g_max_must_be_a_whole_number(g_max):
    with pytest.raises(ValueError, match="g_max = .* is not allowed; it must be a whole number >= 1"):
        lt.evaluate(QRELS, RUN, "err", g_max=g_max)


@pytest.mark.parametrize("convention", ["lightgbm", "ranx_burges"])
def test_a_grade_beyond_exp2_gain_is_a_clear_error(convention):
    with pytest.raises(ValueError, match="grade 1024 is too large for exponential gain"):
        lt.evaluate({"q": {"a": 1024}}, RUN, "ndcg@10", convention=convention)


@pytest.mark.parametrize("chunk_size", [-1, 0, 1.5, "10", True, None])
def test_chunk_size_must_be_a_whole_number(chunk_size):
    with pytest.raises(ValueError, match=r"chunk_size = .* is not allowed; it must be a whole number >= 1"):
        lt.evaluate(QRELS, RUN, "map", chunk_size=chunk_size)


def test_mixed_int_and_str_query_ids_are_compared_as_text():
    qrels = {1: {"a": 1}, "x": {"b": 1}}
    run = {1: {"a": 1.0, "c": 2.0}, "x": {"b": 1.0}}
    result = lt.evaluate(qrels, run, "mrr")
    # query 1: a at rank 2 -> 1/2; query x: b at rank 1 -> 1
    assert result.per_query == {"1": {"mrr": 0.5}, "x": {"mrr": 1.0}}


def test_an_int_docid_matches_the_same_id_as_text():
    # qrels judge document 1 (an int), the run retrieves "1" (a str): the same document, as in a TREC file
    assert lt.evaluate({"q": {1: 1}}, {"q": {"1": 1.0}}, "map").mean["map"] == 1.0


def test_two_ids_with_one_text_are_an_error_not_a_merge():
    with pytest.raises(ValueError, match=r"qrels\['q'\] has two document ids that read the same as text"):
        lt.evaluate({"q": {1: 1, "1": 0}}, RUN, "map")
    with pytest.raises(ValueError, match="two query ids that read '1' as text"):
        lt.evaluate({1: {"a": 1}, "1": {"a": 1}}, RUN, "map")


def test_tied_integer_docids_are_ordered_as_text_like_trec_eval():
    # d 1, 2 and 10 tie; trec_eval orders by docno descending as strings: "2" > "10" > "1"
    qrels = {"q": {1: 0, 2: 0, 10: 3}}
    run = {"q": {1: 0.5, 2: 0.5, 10: 0.5}}
    ours = lt.evaluate(qrels, run, ["ndcg", "map"]).per_query["q"]
    theirs = pytrec({"q": {"1": 0, "2": 0, "10": 3}}, {"q": {"1": 0.5, "2": 0.5, "10": 0.5}}, ("ndcg", "map"))["q"]
    # grade 3 lands at rank 2: NDCG = (3/log2(3)) / 3 = 1/log2(3); AP = 1/2
    assert ours["ndcg"] == pytest.approx(1 / math.log2(3), abs=1e-15) == pytest.approx(theirs["ndcg"], abs=1e-15)
    assert ours["map"] == 0.5 == theirs["map"]
    exact = lt.ndcg([0, 0, 3], scores=[0.5] * 3, docids=[1, 2, 10], ideal=[0, 0, 3], convention="trec_eval")
    assert float(exact) == pytest.approx(ours["ndcg"], abs=1e-15)


def test_negative_grades_count_as_not_relevant_like_trec_eval():
    qrels = {"q": {"a": -1, "b": 2, "c": -2, "d": 0, "e": 1}}
    run = {"q": {"a": 0.9, "b": 0.8, "c": 0.7, "d": 0.6, "e": 0.5}}
    ours = lt.evaluate(qrels, run, ["ndcg", "map", "mrr", "p@2"]).per_query["q"]
    theirs = pytrec(qrels, run, ("ndcg", "map", "recip_rank", "P_2"))["q"]
    # relevant b at rank 2 and e at rank 5: AP = (1/2 + 2/5) / 2 = 0.45; RR = 1/2; P@2 = 1/2
    assert ours["map"] == pytest.approx(0.45) == pytest.approx(theirs["map"])
    assert ours["mrr"] == 0.5 == theirs["recip_rank"]
    assert ours["p@2"] == 0.5 == theirs["P_2"]
    assert ours["ndcg"] == pytest.approx(theirs["ndcg"], abs=1e-15)


def test_queries_in_common_are_needed():
    with pytest.raises(ValueError, match="nothing to evaluate: no query id is both in the run"):
        lt.evaluate({"q1": {"a": 1}}, {"q2": {"a": 1.0}}, "map")
    with pytest.raises(ValueError, match="nothing to evaluate: the run holds no retrieved document"):
        lt.evaluate({"q1": {"a": 1}}, {}, "map")


# -- files -----------------------------------------------------------------------------------------------

def write(path, data: bytes):
    path.write_bytes(data)
    return path


@pytest.fixture
def qrels_file(tmp_path):
    return write(tmp_path / "qrels", b"q1 0 d1 1\nq1 0 d2 0\n")


def test_a_byte_order_mark_is_not_part_of_the_first_query_id(tmp_path, qrels_file):
    run = write(tmp_path / "run", b"\xef\xbb\xbfq1 Q0 d1 1 1.0 r\nq1 Q0 d2 2 0.5 r\n")
    assert list(read_run(run)) == ["q1"]
    assert lt.evaluate(qrels_file, run, "ndcg").mean["ndcg"] == 1.0


def test_comments_blank_lines_and_fields_after_the_tag_are_accepted_as_trec_eval_10_does(tmp_path, qrels_file):
    run = write(tmp_path / "run", b"# produced by bm25\n\nq1 Q0 d2 1 2.0 r extra 7\r\n  # indented comment\n"
                                  b"q1\tQ0\td1\t2\t1.5\tr\n")
    assert read_run(run) == {"q1": {"d2": 2.0, "d1": 1.5}}
    assert lt.evaluate(qrels_file, run, "mrr").mean["mrr"] == 0.5  # d1 (relevant) at rank 2
    qrels = write(tmp_path / "q2", b"# judged by X\nq1 0 d1 1\n")
    assert read_qrels(qrels) == {"q1": {"d1": 1}}


@pytest.mark.parametrize("line, message", [
    (b"q1 Q0 d1 1 1_0 r\n", r"run:1: score '1_0' is not a number"),
    (b"q1 Q0 d1 1 nan r\n", r"run:1: score 'nan' is not a number"),
    (b"q1 Q0 d1 1 0x10 r\n", r"run:1: score '0x10' is not a number"),
    (b"q1 Q0 d1 1 1e999 r\n", r"run:1: score '1e999' must be a finite number"),
    (b"q1 Q0 d1 1\n", r"run:1: a run line has at least 6 fields \(qid Q0 docid rank score tag\); got 4"),
    (b"q1 Q0 d1 1 1 r\nq1 Q0 d\xe9 2 0.5 r\n", r"run:2: the text is not UTF-8 \(byte 0xe9\)"),
    (b"q1 Q0 d1 1 1 r\nq1 Q0 d\x00 2 0.5 r\n", r"run:2: control character 0x00"),
    (b"q1 Q0 d1 1 1 r\nq1 Q0 d1 2 0.5 r\n", r"run:2: document 'd1' is retrieved twice for query 'q1'"),
])
def test_a_bad_run_line_is_named_by_file_and_line(tmp_path, line, message):
    run = write(tmp_path / "run", line)
    with pytest.raises(ValueError, match=message):
        read_run(run)
    code, out, err = cli("eval", write(tmp_path / "qrels", b"q1 0 d1 1\n"), run, "-m", "map")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("ltr-teach: error: ") and str(tmp_path / "run") in err


@pytest.mark.parametrize("line, message", [
    (b"q1 0 d1 1_0\n", r"qrels:1: grade '1_0' is not a number"),
    (b"q1 0 d1 1.5\n", r"qrels:1: grade '1.5' is not a number \(a whole number"),
    (b"q1 0 d1 1 extra\n", r"qrels:1: a qrels line has 4 fields"),
])
def test_a_bad_qrels_line_is_named_by_file_and_line(tmp_path, line, message):
    with pytest.raises(ValueError, match=message):
        read_qrels(write(tmp_path / "qrels", line))


def test_negative_grades_in_a_file_are_read_and_count_as_not_relevant(tmp_path):
    qrels = write(tmp_path / "qrels", b"q1 0 d1 -1\nq1 0 d2 -2\nq1 0 d3 1\n")
    run = write(tmp_path / "run", b"q1 Q0 d1 1 3 r\nq1 Q0 d2 2 2 r\nq1 Q0 d3 3 1 r\n")
    assert read_qrels(qrels) == {"q1": {"d1": -1, "d2": -2, "d3": 1}}
    ours = lt.evaluate(qrels, run, ["map", "ndcg"]).per_query["q1"]
    theirs = pytrec(read_qrels(qrels), read_run(run), ("map", "ndcg"))["q1"]
    assert ours["map"] == pytest.approx(1 / 3) == pytest.approx(theirs["map"])  # d3 at rank 3: 1/3
    assert ours["ndcg"] == pytest.approx(theirs["ndcg"], abs=1e-15)


@pytest.mark.parametrize("run_bytes", [b"", b"\n\n# only a comment\n"])
def test_an_empty_run_is_an_error_not_nan(tmp_path, qrels_file, run_bytes):
    run = write(tmp_path / "run", run_bytes)
    code, out, err = cli("eval", qrels_file, run, "-m", "map")
    assert (code, out) == (2, "")
    assert err == (f"ltr-teach: error: nothing to evaluate: the run holds no retrieved document (run file {str(run)!r}: "
                   "empty, only comments, or a pipe nobody writes to?)\n")


def test_dev_null_and_no_query_in_common_exit_2(tmp_path, qrels_file):
    code, _, err = cli("eval", qrels_file, "/dev/null", "-m", "map")
    assert code == 2 and "nothing to evaluate" in err
    code, _, err = cli("eval", qrels_file, write(tmp_path / "run", b"q9 Q0 d1 1 1 r\n"), "-m", "map")
    assert code == 2 and err.startswith("ltr-teach: error: nothing to evaluate: no query id is both in the run")


def test_queries_left_out_are_said_on_stderr(tmp_path):
    qrels = write(tmp_path / "qrels", b"q1 0 d1 1\nq2 0 d1 1\n")
    run = write(tmp_path / "run", b"q1 Q0 d1 1 1 r\nq3 Q0 d1 1 1 r\n")
    code, out, err = cli("eval", qrels, run, "-m", "map")
    assert code == 0 and "map                   \tall\t1.0000" in out
    assert "ltr-teach: warning: 1 judged queries absent from the run: left out of the mean" in err
    assert "ltr-teach: warning: 1 queries of the run have no judgments in the qrels and are ignored ('q3')" in err


def test_a_fifo_without_a_writer_does_not_hang(tmp_path, qrels_file):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    code, _, err = cli("eval", qrels_file, fifo, "-m", "map", timeout=30)
    assert code == 2 and f"nothing to evaluate: the run holds no retrieved document (run file {str(fifo)!r}" in err


def test_a_fifo_with_a_writer_is_read(tmp_path, qrels_file):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", f"printf 'q1 Q0 d1 1 1 r\\n' > {fifo}"])
    code, out, _ = cli("eval", qrels_file, fifo, "-m", "map", timeout=30)
    writer.wait(timeout=30)
    assert code == 0 and "map                   \tall\t1.0000" in out


@pytest.mark.skipif(not os.path.exists("/proc/self/mem"), reason="needs Linux /proc")
def test_a_read_error_is_one_line(qrels_file):
    code, _, err = cli("eval", qrels_file, "/proc/self/mem", "-m", "map")
    assert code == 2 and err == "ltr-teach: error: run = '/proc/self/mem' cannot be read: Input/output error\n"


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_dev_zero_stops_at_the_line_length_bound(qrels_file):
    code, _, err = cli("eval", qrels_file, "/dev/zero", "-m", "map", timeout=60)
    assert code == 2
    assert err == f"ltr-teach: error: /dev/zero:1: the line is longer than {MAX_LINE_BYTES} bytes; " \
                  "a TREC run file has short text lines\n"


def test_a_directory_is_named(tmp_path, qrels_file):
    code, _, err = cli("eval", qrels_file, tmp_path, "-m", "map")
    assert code == 2 and err == f"ltr-teach: error: run = '{tmp_path}' is a directory, not a TREC run file\n"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_on_stdout_is_one_line():
    with open("/dev/full", "wb") as full:
        proc = subprocess.run([sys.executable, "-m", "ltr_teach.cli", "examples"], stdout=full, stderr=subprocess.PIPE,
                              text=True, encoding="utf-8", timeout=60,
                              env={**os.environ, "PYTHONPATH": os.getcwd(), "PYTHONIOENCODING": "utf-8"}, check=False)
    assert proc.returncode == 2
    assert proc.stderr == "ltr-teach: error: cannot write the output: No space left on device\n"


def test_a_grade_beyond_exp2_gain_exits_2_on_the_cli(tmp_path):
    qrels = write(tmp_path / "qrels", b"q1 0 d1 1024\n")
    run = write(tmp_path / "run", b"q1 Q0 d1 1 1 r\n")
    code, out, err = cli("eval", qrels, run, "-m", "ndcg@10", "--convention", "lightgbm")
    assert (code, out) == (2, "") and "grade 1024 is too large for exponential gain" in err


# -- the vectorised reader agrees with the plain one, and the evaluator with pytrec_eval -------------------

def _messy_run(rng: random.Random, n_queries: int, n_docs: int) -> tuple[bytes, dict]:
    """Run lines in shuffled order (queries interleaved), odd blanks, comments, extra fields, CRLF."""
    lines, truth = [], {}
    for q in range(n_queries):
        qid = f"{rng.choice(['', 'Q', 'topic-'])}{q}"
        docs = rng.sample(range(10**6), n_docs)
        truth[qid] = {}
        for rank, d in enumerate(docs):
            docid = rng.choice([f"d{d}", f"DOC-{d:07d}", f"{d}", f"clueweb09-en{d:010d}-{rank}"])
            score = rng.choice([round(rng.random(), 2), rng.randint(-5, 5), rng.uniform(-1e3, 1e3), 1.25e-5])
            truth[qid][docid] = float(score)
            sep = rng.choice([" ", "\t", "  ", " \t "])
            text = sep.join([qid, "Q0", docid, str(rank + 1), repr(score), "tag"])
            text += rng.choice(["", " extra", "\r"])
            lines.append(text)
    rng.shuffle(lines)
    at = rng.randrange(len(lines))
    lines[at:at] = ["# a comment", "", "   "]
    return ("\n".join(lines) + rng.choice(["\n", ""])).encode(), truth


@pytest.mark.parametrize("seed", range(4))
def test_the_vectorised_reader_equals_the_line_reader(tmp_path, seed):
    data, truth = _messy_run(random.Random(seed), 30, 40)
    path = write(tmp_path / "run", data)
    assert _read_lines(path, "run") == truth
    assert read_run(path) == truth


def test_the_reader_splits_long_files_at_line_ends(tmp_path, monkeypatch):
    from ltr_teach.runs import trec

    monkeypatch.setattr(trec, "_BLOCK_BYTES", 97)  # blocks end mid-line: the carry must join them
    data, truth = _messy_run(random.Random(7), 20, 15)
    path = write(tmp_path / "run", data)
    assert read_run(path) == truth
    columns = read_columns(path, "run")
    assert sorted(columns.qids) == sorted(truth)


@pytest.mark.parametrize("seed", range(3))
def test_files_give_pytrec_eval_values_per_query(tmp_path, seed):
    rng = random.Random(seed)
    _, run = _messy_run(rng, 60, 50)
    qrels = {q: {d: rng.choice([-1, 0, 0, 1, 2, 3]) for d in rng.sample(sorted(docs), 12)} | {f"unret{q}": 2}
             for q, docs in run.items()}
    for d in rng.sample(sorted(run), 5):  # ties: every document of a few queries shares one score
        run[d] = dict.fromkeys(run[d], 0.5)
    lines = [f"{q} Q0 {d} 0 {s!r} t" for q, docs in run.items() for d, s in docs.items()]
    rng.shuffle(lines)
    run_path = write(tmp_path / "run", ("\n".join(lines) + "\n").encode())
    qrels_path = write(tmp_path / "qrels", "".join(f"{q} 0 {d} {g}\n" for q, j in qrels.items()
                                                    for d, g in j.items()).encode())
    metrics = {"ndcg": "ndcg", "ndcg@10": "ndcg_cut_10", "map": "map", "mrr": "recip_rank", "p@5": "P_5",
               "recall@20": "recall_20"}
    theirs = pytrec(qrels, run, metrics.values())
    from_files = lt.evaluate(qrels_path, run_path, list(metrics)).per_query
    from_dicts = lt.evaluate(qrels, run, list(metrics)).per_query
    assert sorted(from_files) == sorted(theirs)
    for q in theirs:
        for ours_name, their_name in metrics.items():
            assert from_files[q][ours_name] == pytest.approx(theirs[q][their_name], abs=1e-12), (q, ours_name)
            assert from_dicts[q][ours_name] == pytest.approx(theirs[q][their_name], abs=1e-12), (q, ours_name)


def test_progress_bars_on_request(tmp_path, qrels_file):
    run = write(tmp_path / "run", b"q1 Q0 d1 1 1 r\n")
    code, out, err = cli("eval", qrels_file, run, "-m", "map", "--progress")
    assert code == 0 and "map                   \tall\t1.0000" in out
    assert "reading run [" in err and "evaluating [" in err
    code, _, err = cli("eval", qrels_file, run, "-m", "map")  # stderr is a pipe here: no bar
    assert err == ""


# -- junk: a value or a ValueError, never another exception ----------------------------------------------

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

_junk_numbers = st.one_of(st.integers(-3, 5), st.floats(allow_nan=True, allow_infinity=True), st.just(10**400),
                          st.booleans(), st.none(), st.text(max_size=3), st.lists(st.integers(), max_size=2))
_ids = st.one_of(st.text(min_size=1, max_size=3), st.integers(0, 20))
_queries = st.one_of(st.dictionaries(_ids, _junk_numbers, max_size=4), _junk_numbers)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(qrels=st.dictionaries(_ids, _queries, max_size=3), run=st.dictionaries(_ids, _queries, max_size=3),
       metric=st.sampled_from(["ndcg@3", "map", "mrr", "err", "auc", "p@2"]),
       convention=st.sampled_from(sorted(lt.CONVENTIONS)))
def test_junk_dicts_give_a_value_or_a_value_error(qrels, run, metric, convention):
    try:
        result = lt.evaluate(qrels, run, metric, convention=convention)
    except ValueError as exc:
        assert str(exc)
        return
    assert set(result.mean) == {metric}


@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=200))
def test_junk_files_give_a_value_or_a_value_error(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("junk") / "run"
    path.write_bytes(data)
    try:
        fast = read_run(path)
    except ValueError as exc:
        with pytest.raises(ValueError, match=str(exc).split(":")[0]):  # the line reader fails alike
            _read_lines(path, "run")
        return
    assert fast == _read_lines(path, "run")
