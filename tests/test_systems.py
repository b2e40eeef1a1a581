"""Many systems at once (lt.compare_systems, lt.tukey_hsd, ltr-teach compare with three runs), checked against
SciPy (the studentized range, tukey_hsd, ttest_rel, wilcoxon) and Holm's method written out here."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from scipy import stats

import ltr_teach as lt
from ltr_teach.core.i18n import using_language
from ltr_teach.runs.studentized import studentized_range_ppf, studentized_range_sf
from ltr_teach.runs.trec import write_qrels, write_run


@pytest.mark.parametrize("k", [2, 3, 5, 10])
@pytest.mark.parametrize("df", [1, 2, 5, 10, 30, 100, 1000])
def test_the_studentized_range_equals_scipys(k, df):
    q = np.array([0.3, 1.0, 2.0, 3.0, 4.0, 6.0, 9.0])
    ours, theirs = studentized_range_sf(q, k, df), stats.studentized_range.sf(q, k, df)
    # SciPy integrates to a tolerance: below p = 1e-6 its values move by about 1e-6 relative (ours do not change
    # with more quadrature nodes: checked with 60 nodes a panel instead of 24)
    keep = theirs > 1e-6
    np.testing.assert_allclose(ours[keep], theirs[keep], rtol=1e-7)
    np.testing.assert_allclose(ours[~keep], theirs[~keep], rtol=1e-4, atol=1e-12)


@pytest.mark.parametrize(("probability", "k", "df"), [(0.95, 3, 10), (0.99, 5, 40), (0.9, 2, 3), (0.95, 8, 200)])
def test_the_critical_value_equals_scipys(probability, k, df):
    assert studentized_range_ppf(probability, k, df) == pytest.approx(stats.studentized_range.ppf(probability, k, df),
                                                                     rel=1e-8)


@pytest.mark.parametrize("sizes", [(12, 12, 12), (5, 9, 7, 11), (30, 30)])
def test_tukey_hsd_equals_scipys(sizes):
    rng = np.random.default_rng(sum(sizes))
    samples = [rng.normal(loc=0.1 * i, scale=0.3, size=n) for i, n in enumerate(sizes)]
    ours, theirs = lt.tukey_hsd(samples), stats.tukey_hsd(*samples)
    np.testing.assert_allclose(ours.statistic, theirs.statistic, rtol=1e-12)
    np.testing.assert_allclose(ours.pvalue, theirs.pvalue, rtol=1e-7, atol=1e-12)
    low, high = ours.confidence_interval(0.95)
    ci = theirs.confidence_interval(0.95)
    np.testing.assert_allclose(low, ci.low, rtol=1e-7, atol=1e-12)
    np.testing.assert_allclose(high, ci.high, rtol=1e-7, atol=1e-12)


def _random_runs(n_systems=4, n_queries=15, seed=3):
    rng = np.random.default_rng(seed)
    qrels = {f"q{i}": {f"d{j}": int(rng.integers(0, 3)) for j in range(8)} for i in range(n_queries)}
    runs = {}
    for s in range(n_systems):
        runs[f"sys_{s}"] = {q: {d: float(rng.normal(loc=g * 0.3 * s, scale=1.0)) for d, g in docs.items()}
                            for q, docs in qrels.items()}
    return qrels, runs


def _holm(p):
    """Holm's step-down adjustment, written out: the i-th smallest times (m - i), never below an earlier one."""
    m, order, out, running = len(p), np.argsort(p, kind="stable"), [0.0] * len(p), 0.0
    for step, i in enumerate(order):
        running = max(running, min(1.0, (m - step) * p[i]))
        out[i] = running
    return out


@pytest.mark.parametrize(("test", "scipy_test"), [("t-test", lambda b, a: stats.ttest_rel(b, a).pvalue),
                                                  ("wilcoxon", lambda b, a: stats.wilcoxon(b, a).pvalue)])
def test_every_pair_is_tested_and_corrected_together(test, scipy_test):
    qrels, runs = _random_runs()
    result = lt.compare_systems(qrels, runs, "ndcg@5", test=test)
    per_query = {name: lt.evaluate(qrels, run, "ndcg@5").per_query for name, run in runs.items()}
    queries = sorted(qrels)
    scores = {name: np.array([per_query[name][q]["ndcg@5"] for q in queries]) for name in runs}
    assert len(result.pairs) == 6  # 4 systems: 4 · 3 / 2 pairs
    expected = [scipy_test(scores[p.second], scores[p.first]) for p in result.pairs]
    np.testing.assert_allclose([p.p_value for p in result.pairs], expected, rtol=1e-9)
    np.testing.assert_allclose([p.adjusted for p in result.pairs], _holm(expected), rtol=1e-9)
    tukey = stats.tukey_hsd(*(scores[name] for name in runs))
    names = list(runs)
    np.testing.assert_allclose([p.tukey_p for p in result.pairs],
                               [tukey.pvalue[names.index(p.first), names.index(p.second)] for p in result.pairs],
                               rtol=1e-7, atol=1e-12)
    for name in runs:
        assert result.means[name] == pytest.approx(scores[name].mean(), rel=1e-12)


def test_the_report_marks_the_systems_each_one_beats_in_markdown_and_latex():
    qrels = {q: {"good": 1} for q in "uvwxyz"}
    a = {q: {"bad": 2.0, "good": 1.0} for q in "uvwxyz"}          # RR 1/2 everywhere
    c = {q: {"good": 2.0} for q in "uvwxyz"}                        # RR 1 everywhere
    b = {q: {"bad": 2.0, "good": 1.0} for q in "uvwxyz"}
    result = lt.compare_systems(qrels, {"base_a": a, "b%": b, "C": c}, "mrr", correction="none", test="t-test")
    # C − A and C − B are 1/2 on every query: no spread, the t-test's p is 0; A and B are identical (p NaN)
    assert result.beats() == {"base_a": [], "b%": [], "C": ["base_a", "b%"]}
    markdown = result.to_markdown()
    assert "| c | C | 1.0000 | ab |" in markdown and "| a | base_a | 0.5000 |  |" in markdown
    latex = result.to_latex()
    assert r"(a) & base\_a & 0.5000 \\" in latex and r"(b) & b\% & 0.5000 \\" in latex
    assert r"(c) & C & 1.0000$^{ab}$ \\" in latex
    assert latex.startswith(r"\begin{tabular}{llr}")


def test_the_report_reads_in_chinese():
    qrels, runs = _random_runs(3, 8)
    with using_language("zh"):
        text = str(lt.compare_systems(qrels, runs, "map"))
    first_lines = "\n".join(text.splitlines()[:3])
    assert "系统" in first_lines and "个查询" in first_lines
    assert "system" not in first_lines and "queries" not in first_lines


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"level": 2}, "level = 2 is not allowed"), ({"test": "anova"}, "test"), ({"correction": "sidak"}, "correction"),
    ({"seed": -1}, "seed = -1"), ({"metric": 5}, "metric must be"),
])
def test_bad_arguments_name_themselves(kwargs, message):
    qrels, runs = _random_runs(3, 4)
    with pytest.raises(ValueError, match=message):
        lt.compare_systems(qrels, runs, **{"metric": "map", **kwargs})


def test_tukey_hsd_refuses_what_it_cannot_use():
    with pytest.raises(ValueError, match="at least two samples"):
        lt.tukey_hsd([[1, 2, 3]])
    with pytest.raises(ValueError, match="sample 2, value 1 = nan is not allowed; scores are finite numbers"):
        lt.tukey_hsd([[1, 2], [float("nan"), 1]])


def _write_files(folder, qrels, runs) -> list:
    """qrels.txt and one NAME.run per run in ``folder``; the run files' paths, in order."""
    write_qrels(qrels, folder / "qrels.txt")
    for name, run in runs.items():
        write_run(run, folder / f"{name}.run")
    return [str(folder / f"{name}.run") for name in runs]


def test_the_command_line_compares_three_runs_and_writes_markdown_and_latex(tmp_path):
    qrels, runs = _random_runs(3, 10)
    paths = _write_files(tmp_path, qrels, runs)
    done = subprocess.run([sys.executable, "-m", "ltr_teach.cli", "--lang", "en", "compare", str(tmp_path / "qrels.txt"),
                           *paths, "-m", "map", "--markdown", str(tmp_path / "r.md"), "--latex",
                           str(tmp_path / "r.tex")], capture_output=True, text=True, encoding="utf-8", check=False)
    assert done.returncode == 0, done.stderr
    assert "every pair compared" in done.stdout and "Tukey HSD p" in done.stdout
    expected = lt.compare_systems(qrels, {f"{n}.run": r for n, r in runs.items()}, "map")
    assert (tmp_path / "r.md").read_text(encoding="utf-8") == expected.to_markdown()
    assert (tmp_path / "r.tex").read_text(encoding="utf-8") == expected.to_latex()


@pytest.mark.parametrize("target", ["fifo", "directory", "/dev/full"])
def test_the_report_is_not_written_where_it_would_hang_or_fail(tmp_path, target):
    import os

    qrels, runs = _random_runs(3, 4)
    paths = _write_files(tmp_path, qrels, runs)
    if target == "fifo":
        os.mkfifo(tmp_path / "out.md")
        target = str(tmp_path / "out.md")
    elif target == "directory":
        target = str(tmp_path)
    done = subprocess.run([sys.executable, "-m", "ltr_teach.cli", "compare", str(tmp_path / "qrels.txt"), *paths,
                           "-m", "map", "--markdown", target], capture_output=True, text=True, encoding="utf-8",
                          check=False, timeout=120)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "cannot write" in done.stderr
