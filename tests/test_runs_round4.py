"""Issue 32, round 4: tables, many systems and the paired tests under hostile input, each item reproduced.

Values are checked against SciPy (permutation_test, wilcoxon, studentized_range, bootstrap) or worked out by hand;
Markdown output is rendered by markdown-it (CommonMark with GFM tables) to see what a reader sees."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet
import pytest
from markdown_it import MarkdownIt
from scipy import stats

import ltr_teach as lt
from ltr_teach.runs import tables
from ltr_teach.runs.compare import exact_differences, permutation, wilcoxon
from ltr_teach.runs.studentized import studentized_range_sf

# --- tables -------------------------------------------------------------------------------------------------------

QRELS = {"q1": {"d1": 1, "d2": 0, "d3": 1}, "q2": {"d4": 1}}
# q1: d1 (relevant) at 1, d2 at 2, d3 (relevant) at 3: AP = (1/1 + 2/3) / 2 = 5/6; q2: d4 at 2: AP = 1/2
ROWS = [("q1", "d1", 3.0), ("q1", "d2", 2.0), ("q1", "d3", 1.0), ("q2", "x", 2.0), ("q2", "d4", 1.0)]
MAP = float((Fraction(5, 6) + Fraction(1, 2)) / 2)


def _frame(rows=ROWS, columns=("query", "doc", "score")):
    return pd.DataFrame(rows, columns=list(columns))


def test_bytes_ids_are_read_as_utf8_text():
    frame = _frame([(q.encode(), d.encode(), s) for q, d, s in ROWS])
    assert lt.evaluate(QRELS, frame, ["map"]).mean["map"] == pytest.approx(MAP, rel=1e-15)
    arrow = pa.table({"query": pa.array([q.encode() for q, _, _ in ROWS], pa.binary()),
                      "doc": pa.array([d.encode() for _, d, _ in ROWS], pa.binary()),
                      "score": [s for *_, s in ROWS]})
    assert lt.evaluate(QRELS, arrow, ["map"]).mean["map"] == pytest.approx(MAP, rel=1e-15)
    with pytest.raises(ValueError, match="not UTF-8"):
        lt.evaluate(QRELS, _frame([("q1", b"\xff", 1.0)]), ["map"])


@pytest.mark.parametrize(("frame", "message"), [
    (pd.DataFrame({"query": pd.array(["q1", pd.NA], dtype="string"), "doc": ["d1", "d2"], "score": [1.0, 2.0]}),
     r"row 1: the query id is missing \(<NA>\)"),
    (pd.DataFrame({"query": ["q1", "q1"], "doc": [pd.NaT, pd.Timestamp("2020-01-01")], "score": [1.0, 2.0]}),
     r"row 0: the document id is missing \(NaT\)"),
    (pd.DataFrame({"query": ["q1"], "doc": [pd.Timestamp("2020-01-01")], "score": [1.0]}),
     "document id .* is a Timestamp; ids are text or whole numbers"),
    (pd.DataFrame({"query": [["q1"]], "doc": ["d1"], "score": [1.0]}), r"query id \['q1'\] is a list"),
    (pd.DataFrame({"query": ["q1"], "doc": [{"a": 1}], "score": [1.0]}), "document id {'a': 1} is a dict"),
    (pd.DataFrame({"query": ["q1"], "doc": ["d" * 600], "score": [1.0]}), "more than 512 bytes"),
    (pd.DataFrame([["q1", "d1", 1.0, "x"]], columns=["query", "doc", "score", "query"]),
     "2 columns that could be the query: 'query', 'query'"),
    (pd.DataFrame([["q1", "d1", 1.0, "text"]], columns=["qid", "doc", "score", "query"]),
     "2 columns that could be the query: 'qid', 'query'"),
    (pd.DataFrame([["q1", "d1", "d1", 1.0]], columns=["qid", "docid", "docno", "score"]),
     "could be the document: 'docid', 'docno'"),
    (pa.table([["q1"], ["d1"], [1.0], [2.0]], names=["query", "doc", "score", "SCORE"]),
     "could be the score: 'score', 'SCORE'"),
])
def test_a_bad_id_or_column_gets_one_clear_message(frame, message):
    with pytest.raises(ValueError, match=message):
        lt.evaluate(QRELS, frame, ["map"])


def test_a_polars_lazyframe_is_read_like_its_dataframe():
    frame = pl.from_pandas(_frame())
    assert lt.evaluate(QRELS, frame.lazy(), ["map"]).mean["map"] == pytest.approx(MAP, rel=1e-15)
    broken = pl.LazyFrame({"query": ["q1"]}).with_columns(pl.col("query").cast(pl.Int64, strict=True))
    with pytest.raises(ValueError, match="LazyFrame.*cannot be computed"):
        lt.evaluate(QRELS, broken, ["map"])


def test_a_table_is_bounded_before_it_is_converted(monkeypatch):
    monkeypatch.setattr(tables, "MAX_TABLE_ROWS", 4)
    with pytest.raises(ValueError, match="has 5 rows; a run table here holds at most 4"):
        lt.evaluate(QRELS, _frame(), ["map"])
    with pytest.raises(ValueError, match="has 5 rows"):
        lt.evaluate(QRELS, pl.from_pandas(_frame()).lazy(), ["map"])


def test_a_small_parquet_file_of_forty_million_rows_is_refused_from_its_footer(tmp_path):
    path = tmp_path / "big.parquet"
    schema = pa.schema([("query", pa.dictionary(pa.int8(), pa.string())), ("doc", pa.dictionary(pa.int8(), pa.string())),
                        ("score", pa.float64())])
    chunk = 4_000_000
    batch = pa.record_batch([pa.DictionaryArray.from_arrays(np.zeros(chunk, np.int8), ["q1"]),
                             pa.DictionaryArray.from_arrays(np.zeros(chunk, np.int8), ["d1"]),
                             pa.array(np.ones(chunk))], schema=schema)
    with pyarrow.parquet.ParquetWriter(path, schema) as writer:
        for _ in range(10):
            writer.write_batch(batch)
    assert path.stat().st_size < 2_000_000  # a small file that decodes huge
    with pytest.raises(ValueError, match="has 40,000,000 rows; a run table here holds at most 10,000,000"):
        lt.evaluate(QRELS, path, ["map"])


def test_a_corrupt_parquet_file_is_one_line_and_exit_2_on_the_command_line(tmp_path):
    bad = tmp_path / "bad.parquet"
    bad.write_bytes(b"PAR1" + bytes(range(100)) + b"PAR1")
    for name in ("a.txt", "b.txt"):
        lt.write_run({"q1": {"d1": 1.0}}, tmp_path / name)
    done = subprocess.run([sys.executable, "-m", "ltr_teach.cli", "compare", str(bad), str(tmp_path / "a.txt"),
                           str(tmp_path / "b.txt"), "-m", "map"], capture_output=True, text=True, encoding="utf-8", check=False)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "is not a readable Parquet file" in done.stderr


def test_compare_systems_takes_the_tables_compare_runs_takes():
    qrels = {q: {"good": 1} for q in "uvwxyz"}
    a = {q: {"bad": 2.0, "good": 1.0} for q in "uvwxyz"}
    c = {q: {"good": 2.0} for q in "uvwxyz"}
    b = {q: ({"good": 2.0, "bad": 1.0} if q in "uvw" else {"bad": 2.0, "good": 1.0}) for q in "uvwxyz"}

    def frame(mapping, value):
        return pd.DataFrame([(q, d, v) for q, inner in mapping.items() for d, v in inner.items()],
                            columns=["query", "doc", value])

    from_dicts = lt.compare_systems(qrels, {"A": a, "B": b, "C": c}, "mrr")
    from_tables = lt.compare_systems(frame(qrels, "grade"), {"A": frame(a, "score"), "B": pl.from_pandas(
        frame(b, "score")), "C": pa.Table.from_pandas(frame(c, "score"))}, "mrr")
    assert from_tables.to_dict() == from_dicts.to_dict()
    assert from_tables.means == {"A": 0.5, "B": 0.75, "C": 1.0}


# --- many systems -------------------------------------------------------------------------------------------------

def test_a_rounding_residue_is_no_variance():
    # the mean of [0.1, 0.1, 0.1] is 0.10000000000000002: the squares of the residues sum to about 1e-33
    result = lt.tukey_hsd([[0.1] * 3, [0.7] * 3])
    assert result.mse == 0.0
    assert result.pvalue.tolist() == [[1.0, 0.0], [0.0, 1.0]]
    assert lt.tukey_hsd([[0.1] * 3, [0.1 + 0.0] * 3, [0.7] * 4]).pvalue[0, 1] == 1.0


def test_compare_systems_with_constant_scores_explains_the_degenerate_tests():
    qrels = {q: {"good": 1} for q in "uvwx"}
    first = {q: {"good": 2.0} for q in "uvwx"}                    # RR 1 everywhere
    second = {q: {"bad": 2.0, "good": 1.0} for q in "uvwx"}       # RR 1/2 everywhere
    result = lt.compare_systems(qrels, {"A": first, "B": second, "C": dict(first)}, "mrr", test="t-test")
    text = str(result)
    assert all("nan" not in cell for row in result.pair_rows() + result.report_rows() for cell in row)
    pair = next(p for p in result.pairs if (p.first, p.second) == ("A", "C"))
    assert np.isnan(pair.p_value) and np.isnan(stats.ttest_rel([1.0] * 4, [1.0] * 4).pvalue)  # SciPy: nan too
    assert "standard deviation of 0: their p is undefined (shown as —" in text
    assert "no system's score varies across the queries" in text
    assert result.tukey.pvalue[0, 1] == 0.0 and result.tukey.pvalue[0, 2] == 1.0


def test_compare_runs_shows_an_undefined_t_test_as_undefined():
    qrels = {q: {"d": 1} for q in "abc"}
    run = {q: {"d": 2.0} for q in "abc"}
    result = lt.compare_runs(qrels, {"A": run, "B": dict(run)}, "mrr")
    assert np.isnan(result["B"].tests["t-test"].p_value) and np.isnan(stats.ttest_rel([1.0] * 3, [1.0] * 3).pvalue)
    text = str(result)
    assert "nan" not in text.replace("SciPy: nan", "")
    assert "B, t-test: statistic —, p = — (undefined: every difference is 0" in text


@pytest.mark.parametrize(("samples", "message"), [
    ([["a", "b"], [1, 2]], "sample 1, value 1 = 'a' is not a number"),
    ([[1e308, -1e308], [1, 2]], "value 1 = 1e\\+308 is not allowed"),
    ([[-1e308, 1.0], [1, 2]], "is not allowed"),
    ([[10**400, 1], [1, 2]], "an integer of about 400 digits is not allowed"),
    ([[1, 2], [3, float("nan")]], "sample 2, value 2 = nan"),
    ([[True, False], [1, 2]], "True is not a number"),
    ([[1, 2], [3, None]], "None is not a number"),
    ([[[1, 2], [3, 4]], [1, 2]], r"\[1, 2\] is not a number"),
    ([np.float32(1), [1, 2]], "must be a list of numbers"),
    (5, "samples must be a list of samples"),
    ("abc", "samples must be a list of samples"),
    ([[1, 2]], "at least two samples"),
    ([[1], [1, 2]], "sample 1 must hold at least two numbers"),
])
def test_tukey_hsd_refuses_what_is_not_a_sample(samples, message):
    with pytest.raises(ValueError, match=message):
        lt.tukey_hsd(samples)


def test_tukey_hsd_takes_numpy_numbers_and_stops_an_endless_list():
    result = lt.tukey_hsd([np.array([1, 2, 3], dtype=np.int64), [np.float32(4.0), np.float64(5.0), 6]])
    expected = stats.tukey_hsd([1, 2, 3], [4.0, 5.0, 6.0])
    np.testing.assert_allclose(result.pvalue, expected.pvalue, rtol=1e-7)
    import itertools

    with pytest.raises(ValueError, match="more than 1000 samples"):
        lt.tukey_hsd(itertools.repeat([1.0, 2.0]))


@pytest.mark.parametrize("k", [20, 50])
def test_the_studentized_range_of_many_means_equals_scipys(k):
    q = np.array([1.0, 3.0, 4.5, 5.5, 7.0])
    for df in (20, 200, 2000):
        ours, theirs = studentized_range_sf(q, k, df), stats.studentized_range.sf(q, k, df)
        keep = theirs > 1e-6
        np.testing.assert_allclose(ours[keep], theirs[keep], rtol=1e-7)
        np.testing.assert_allclose(ours[~keep], theirs[~keep], rtol=1e-4, atol=1e-12)


def test_fifty_systems_get_an_answer():
    rng = np.random.default_rng(50)
    samples = [rng.normal(0.4 + 0.005 * i, 0.2, size=30) for i in range(50)]
    ours, theirs = lt.tukey_hsd(samples), stats.tukey_hsd(*samples)
    keep = theirs.pvalue > 1e-6
    np.testing.assert_allclose(ours.pvalue[keep], theirs.pvalue[keep], rtol=1e-7)


HOSTILE_NAMES = ["a\\|b", "two\nlines", "blank\n\nline", "<script>alert(1)</script>", "*bold* _it_ `code`",
                 "[link](http://x)", "x\r\ny", "& &amp; #", "ｆｕｌｌ｜width", "\u2028sep"]


def _cells(markdown: str) -> list[list[str]]:
    """The text of every cell of the first table markdown-it renders (GFM tables), and whether raw HTML came out."""
    tokens = MarkdownIt("commonmark").enable("table").parse(markdown)
    rows, row, inside = [], None, False
    for token in tokens:
        if token.type == "table_close":
            break
        if token.type == "tr_open":
            row = []
        elif token.type == "tr_close":
            rows.append(row)
        elif token.type in ("td_open", "th_open"):
            inside = True
            row.append("")
        elif token.type in ("td_close", "th_close"):
            inside = False
        elif token.type == "inline" and inside:
            for child in token.children:
                assert child.type in ("text", "html_inline", "softbreak"), child.type  # no emphasis, link, code
                if child.type == "html_inline":
                    assert child.content == "<br>", child.content
                    row[-1] += "\n"
                else:
                    row[-1] += child.content
    return rows


def test_markdown_shows_every_name_as_written():
    qrels = {q: {"good": 1} for q in "uvw"}
    runs = {name: {q: {"good": 2.0 + i, "bad": 3.0} for q in "uvw"} for i, name in enumerate(HOSTILE_NAMES)}
    result = lt.compare_systems(qrels, runs, "mrr")
    rows = _cells(result.to_markdown())
    assert len(rows) == len(HOSTILE_NAMES) + 1 and all(len(r) == 4 for r in rows)
    breaks = str.maketrans({c: "\n" for c in "\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"})
    assert [r[1] for r in rows[1:]] == [name.replace("\r\n", "\n").translate(breaks) for name in HOSTILE_NAMES]
    html = MarkdownIt("commonmark").enable("table").render(result.to_markdown())
    assert "<script>" not in html and "&lt;script&gt;" in html


def test_latex_keeps_every_name_on_its_row():
    qrels = {q: {"good": 1} for q in "uvw"}
    runs = {name: {q: {"good": 2.0 + i, "bad": 3.0} for q in "uvw"} for i, name in enumerate(HOSTILE_NAMES)}
    latex = lt.compare_systems(qrels, runs, "mrr").to_latex()
    lines = latex.splitlines()
    assert all(line.strip() for line in lines)  # no blank line: no \par inside the tabular
    assert len(lines) == 4 + len(HOSTILE_NAMES) + 3
    assert lines[-1].startswith("% ") and "\\textbackslash{}" in latex and "\\_it\\_" in latex


def test_the_command_line_markdown_shows_a_file_name_as_written(tmp_path):
    qrels = {q: {"good": 1} for q in "uvw"}
    lt.write_qrels(qrels, tmp_path / "qrels.txt")
    names = ["<script>x.txt", "a|b.txt", "c_d.txt", "*e*.txt"]
    for i, name in enumerate(names):
        lt.write_run({q: {"good": 2.0 + i, "bad": 3.0} for q in "uvw"}, tmp_path / name)
    done = subprocess.run([sys.executable, "-m", "ltr_teach.cli", "compare", str(tmp_path / "qrels.txt"),
                           *(str(tmp_path / n) for n in names), "-m", "mrr", "--markdown", str(tmp_path / "out.md")],
                          capture_output=True, text=True, encoding="utf-8", check=False)
    assert done.returncode == 0, done.stderr
    rows = _cells((tmp_path / "out.md").read_text(encoding="utf-8"))
    assert [r[1] for r in rows[1:]] == names


# --- the paired tests against SciPy ---------------------------------------------------------------------------------

def test_sign_flips_reads_float_noise_as_the_intended_values():
    # 1/5, -1/5, 3/10: six of the eight sums ±1/5 ±1/5 ±3/10 are at least 3/10 away from 0 (by hand)
    flips = lt.sign_flips([0.19999999999999996, -0.19999999999999998, 0.3])
    assert flips.p_value == Fraction(3, 4)


def _noisy_ndcg_like(seed, n):
    """Per-query values of two runs with logarithmic discounts (no short fraction): differences tie up to noise."""
    rng = np.random.default_rng(seed)
    gains = 1 / np.log2(np.arange(2, 8))
    base = np.array([gains[rng.integers(0, 6)] + gains[rng.integers(0, 6)] for _ in range(n)]) / 3
    swap = rng.integers(0, 6, (n, 2))
    run = base + (gains[swap[:, 0]] - gains[swap[:, 1]]) / 3
    return run, base


def test_the_exact_permutation_test_counts_float_ties_as_scipy_does():
    for seed in range(40):
        run, base = _noisy_ndcg_like(seed, 10)
        d = run - base
        ours = permutation(d, "two-sided", exact_up_to=20)
        theirs = stats.permutation_test((d,), np.mean, permutation_type="samples", n_resamples=np.inf)
        assert ours.p_value == pytest.approx(theirs.pvalue, abs=1e-15), seed
        for alternative in ("greater", "less"):
            one = stats.permutation_test((d,), np.mean, permutation_type="samples", n_resamples=np.inf,
                                         alternative=alternative)
            assert permutation(d, alternative).p_value == pytest.approx(one.pvalue, abs=1e-15)


def test_sign_flips_counts_float_ties_as_scipy_does():
    for seed in range(10):
        run, base = _noisy_ndcg_like(seed, 10)
        d = run - base
        theirs = stats.permutation_test((d,), np.mean, permutation_type="samples", n_resamples=np.inf).pvalue
        assert float(lt.sign_flips(d.tolist()).p_value) == pytest.approx(theirs, abs=1e-15), seed


def test_wilcoxon_equals_scipy_on_the_differences_with_zeros_and_noisy_ties():
    rng = np.random.default_rng(14)
    for _ in range(30):
        n = 14
        base = rng.integers(0, 10, n) / 10
        run = np.clip(base + rng.integers(-4, 5, n) / 10, 0, 1)   # 0.3 - 0.1 and 0.5 - 0.3: equal but for noise
        qrels = {f"q{i:02d}": {"r": 1} for i in range(n)}
        # P@10 of a run retrieving the relevant document plus (10 × value − 1) judged-relevant ones is the value
        qrels = {q: {f"r{j}": 1 for j in range(10)} for q in qrels}
        as_run = {name: {f"q{i:02d}": {f"r{j}": 1.0 for j in range(round(v * 10))} | {"x": 0.5}
                         for i, v in enumerate(values)} for name, values in (("base", base), ("run", run))}
        result = lt.compare_runs(qrels, as_run, "p@10")
        pair = result["run"]
        d = np.array(pair.differences)
        theirs = stats.wilcoxon(d, zero_method="wilcox", correction=False, method="auto")
        assert pair.tests["wilcoxon"].p_value == pytest.approx(theirs.pvalue, rel=1e-12, abs=1e-15)
        assert pair.tests["wilcoxon"].statistic == theirs.statistic


def test_the_documented_difference_from_wilcoxon_on_raw_floats():
    # SciPy on raw floats separates 0.3 - 0.1 from 0.5 - 0.3 (0.19999999999999998 against 0.2): no ties, so its
    # exact distribution; read exactly they tie, so the normal approximation (14 > 13 queries with ties)
    base = np.array([0.1, 0.3, 0.2, 0.4, 0.1, 0.6, 0.2, 0.3, 0.1, 0.2, 0.7, 0.4, 0.2, 0.1])
    steps = np.array([0.2, 0.2, -0.1, 0.3, 0.4, -0.5, 0.6, 0.1, 0.7, -0.2, 0.1, 0.5, 0.3, 0.8])
    run = base + steps
    d = np.array([float(x) for x in exact_differences(run - base, scale=np.maximum(run, base))])
    ours = wilcoxon(d)
    assert ours.p_value == pytest.approx(stats.wilcoxon(d, correction=False).pvalue, rel=1e-12)
    assert len(set(np.abs(d))) == 8 and len(set(np.abs(run - base))) == 12  # noise separates 4 ties for SciPy
    assert "normal approximation" in str(ours.method)
    raw = stats.wilcoxon(run, base, correction=False).pvalue                 # exact distribution: 0.0258 vs 0.0276
    assert raw == pytest.approx(0.025769774809161667, rel=1e-9) and ours.p_value == pytest.approx(0.0276223, rel=1e-5)


def test_compare_runs_on_thirty_thousand_queries_answers():
    rng = np.random.default_rng(0)
    n = 30_000
    qrels = {f"q{i}": {"d": 1} for i in range(n)}
    runs = {name: {f"q{i}": {"d": 1.0, "e": float(rng.integers(0, 3))} for i in range(n)} for name in "AB"}
    pair = lt.compare_runs(qrels, runs, "mrr")["B"]
    d = np.array(pair.differences)
    theirs = stats.bootstrap((d,), np.mean, method="percentile", rng=np.random.default_rng(0))
    width = theirs.confidence_interval.high - theirs.confidence_interval.low
    # other draws (a multinomial over the distinct differences), the same distribution: intervals agree closely
    assert pair.ci[0] == pytest.approx(theirs.confidence_interval.low, abs=0.05 * width)
    assert pair.ci[1] == pytest.approx(theirs.confidence_interval.high, abs=0.05 * width)
    assert pair.tests["permutation"].p_value == pytest.approx(
        stats.permutation_test((d,), np.mean, permutation_type="samples", n_resamples=9999,
                               rng=np.random.default_rng(1)).pvalue, abs=0.03)


def test_ten_million_resamples_on_a_thousand_queries_are_refused_with_what_fits():
    qrels = {f"q{i}": {"d": 1} for i in range(1000)}
    runs = {name: {f"q{i}": {"d": 1.0, "e": float(i % (3 + j))} for i in range(1000)} for j, name in enumerate("AB")}
    with pytest.raises(ValueError, match=r"n_resamples = 10,000,000 on 1,000 queries .* give n_resamples = [\d,]+ "
                                         "or fewer"):
        lt.compare_runs(qrels, runs, "mrr", n_resamples=10**7)
    with pytest.raises(ValueError, match="n_resamples = 10,000,000 on 1,000 queries and 3 pairs"):
        lt.compare_systems(qrels, {**runs, "C": runs["A"]}, "mrr", n_resamples=10**7)


@pytest.mark.parametrize("qrels", [None, 5, 3.5, ["q1"]])
def test_qrels_that_are_not_qrels_get_a_message(qrels):
    runs = {"A": {"q1": {"d": 1.0}}, "B": {"q1": {"d": 2.0}}}
    with pytest.raises(ValueError, match="qrels must be a dict"):
        lt.compare_runs(qrels, runs, "map")
    with pytest.raises(ValueError, match="qrels must be a dict"):
        lt.compare_systems(qrels, runs, "map")


def test_adjustment_steps_of_a_bare_number_says_what_it_takes():
    with pytest.raises(ValueError, match="p_values must be a list of 1 to 50 p-values; got 5"):
        lt.adjustment_steps(5)
