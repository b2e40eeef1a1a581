"""lt.compare_runs and ``ltr-teach compare``: every statistic equals SciPy's (and ranx's t-test), the
exact p-values are the fractions counted by hand, and the resampling is seeded."""

from __future__ import annotations

import importlib
import math
from fractions import Fraction

import numpy as np
import pytest

import ltr_teach as lt
from ltr_teach.cli import main

stats = pytest.importorskip("scipy.stats")
compare = importlib.import_module("ltr_teach.runs.compare")  # the module, not lt.compare (lazy names)


def differences(n: int, seed: int, decimals=None) -> np.ndarray:
    d = np.random.default_rng(seed).normal(0.03, 0.2, n)
    return np.round(d, decimals) if decimals is not None else d


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@pytest.mark.parametrize("n, seed", [(3, 0), (8, 1), (25, 2), (300, 3)])
def test_paired_t_equals_scipy(n, seed, alternative):
    d = differences(n, seed)
    ours = compare.paired_t(d, alternative)
    theirs = stats.ttest_rel(d, np.zeros(n), alternative=alternative)
    assert ours.statistic == pytest.approx(theirs.statistic, rel=1e-12)
    assert ours.p_value == pytest.approx(theirs.pvalue, rel=1e-9, abs=1e-300)


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@pytest.mark.parametrize("n, seed, decimals", [
    (9, 0, None),     # no ties, no zeros: exact distribution
    (40, 1, None),    # still exact (n <= 50)
    (60, 2, None),    # beyond 50: normal approximation
    (11, 3, 1),       # ties and zeros, n <= 13: all sign flips
    (30, 4, 1),       # ties and zeros, larger: normal approximation with the tie correction
    (500, 5, 2),
])
def test_wilcoxon_equals_scipy_auto(n, seed, decimals, alternative):
    d = differences(n, seed, decimals)
    ours = compare.wilcoxon(d, alternative)
    theirs = stats.wilcoxon(d, alternative=alternative)  # zero_method="wilcox", correction=False, method="auto"
    assert ours.statistic == theirs.statistic
    assert ours.p_value == pytest.approx(theirs.pvalue, rel=1e-9)


def test_wilcoxon_exact_p_is_a_fraction_counted_by_hand():
    # d = 1, 2, -3: ranks 1, 2, 3, W+ = 1 + 2 = 3. Of the 2^3 = 8 sign patterns, W+ <= 3 for
    # {}, {1}, {2}, {3}, {1,2} (5 patterns) and W+ >= 3 for {3}, {1,2}, {1,3}, {2,3}, {1,2,3} (5):
    # two-sided p = min(1, 2 * 5/8) = 1
    assert compare.wilcoxon(np.array([1.0, 2.0, -3.0])).exact == 1
    # d = 1, 2, 3, 4: W+ = 10, only the all-positive pattern of 16 reaches it: p = 2/16 = 1/8
    result = compare.wilcoxon(np.array([1.0, 2.0, 3.0, 4.0]))
    assert result.exact == Fraction(1, 8) and result.p_value == 0.125


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@pytest.mark.parametrize("n, seed, decimals", [(5, 0, None), (12, 1, 2), (16, 2, None)])
def test_exact_permutation_equals_scipy(n, seed, decimals, alternative):
    d = differences(n, seed, decimals)
    ours = compare.permutation(d, alternative)
    theirs = stats.permutation_test((d,), np.mean, permutation_type="samples", n_resamples=np.inf,
                                    vectorized=True, axis=-1, alternative=alternative)
    assert ours.statistic == pytest.approx(theirs.statistic, rel=1e-12)
    assert ours.p_value == theirs.pvalue
    assert ours.exact.denominator <= 2 ** n and float(ours.exact) == ours.p_value


def test_exact_permutation_p_counted_by_hand():
    # d = 0.5, 0.5, 0.5, -1/6 (the docstring example): mean 1/3; of 16 sign flips only the observed one and
    # the one flipping -1/6 give a mean >= 1/3, so p = 2 * 2/16 = 1/4
    assert compare.permutation(np.array([0.5, 0.5, 0.5, -1 / 6])).exact == Fraction(1, 4)


def test_sampled_permutation_is_seeded_and_close_to_scipy():
    d = differences(60, 7)
    first, again = compare.permutation(d, seed=3), compare.permutation(d, seed=3)
    assert first.p_value == again.p_value and first.exact is None
    theirs = stats.permutation_test((d,), np.mean, permutation_type="samples", n_resamples=9999, vectorized=True,
                                    axis=-1, rng=np.random.default_rng(1)).pvalue
    # two Monte Carlo estimates of one p (about 0.2 here) from 9999 flips each: standard error ~0.004
    assert abs(first.p_value - theirs) < 0.03


@pytest.mark.parametrize("n, confidence", [(7, 0.95), (40, 0.9), (400, 0.99)])
def test_bootstrap_interval_equals_scipy_percentile(n, confidence):
    d = differences(n, n)
    ours = compare.bootstrap_ci(d, confidence, 9999, seed=5)
    theirs = stats.bootstrap((d,), np.mean, method="percentile", n_resamples=9999, confidence_level=confidence,
                             rng=np.random.default_rng(5), vectorized=True, axis=-1).confidence_interval
    assert ours == (pytest.approx(theirs.low, rel=1e-12), pytest.approx(theirs.high, rel=1e-12))


def test_holm_and_bonferroni_by_hand():
    p = [0.01, 0.04, 0.03]
    # Holm: sorted 0.01, 0.03, 0.04 times 3, 2, 1 -> 0.03, 0.06, 0.04, then never below an earlier one -> 0.06
    assert compare.adjust(p, "holm") == pytest.approx([0.03, 0.06, 0.06])
    assert compare.adjust(p, "bonferroni") == pytest.approx([0.03, 0.12, 0.09])
    assert compare.adjust([0.5, 0.9], "bonferroni") == [1.0, 1.0]


def random_runs(n_queries=30, n_runs=3, seed=0):
    rng = np.random.default_rng(seed)
    qrels = {f"q{i}": {f"d{j}": int(rng.integers(0, 3)) for j in range(10)} for i in range(n_queries)}
    runs = {f"r{k}": {q: {f"d{j}": float(rng.random()) for j in range(15)} for q in qrels} for k in range(n_runs)}
    return qrels, runs


def test_compare_runs_end_to_end_equals_scipy():
    qrels, runs = random_runs()
    result = lt.compare_runs(qrels, runs, "ndcg@10")
    per_run = {name: lt.evaluate(qrels, run, "ndcg@10").per_query for name, run in runs.items()}
    queries = sorted(qrels)
    base = np.array([per_run["r0"][q]["ndcg@10"] for q in queries])
    raw = {}
    for name in ("r1", "r2"):
        pair = result[name]
        other = np.array([per_run[name][q]["ndcg@10"] for q in queries])
        d = other - base
        assert pair.differences == tuple(d)
        assert (pair.wins, pair.ties, pair.losses) == (int((d > 0).sum()), int((d == 0).sum()), int((d < 0).sum()))
        assert pair.tests["t-test"].p_value == pytest.approx(stats.ttest_rel(other, base).pvalue, rel=1e-9)
        assert pair.tests["wilcoxon"].p_value == pytest.approx(stats.wilcoxon(other, base).pvalue, rel=1e-9)
        assert pair.effect_size == pytest.approx(d.mean() / d.std(ddof=1))
        raw[name] = {t: pair.tests[t].p_value for t in compare.TESTS}
    for t in compare.TESTS:  # Holm over the two runs
        low, high = sorted([raw["r1"][t], raw["r2"][t]])
        expected = {low: min(1.0, 2 * low), high: max(min(1.0, 2 * low), min(1.0, high))}
        for name in ("r1", "r2"):
            assert result[name].tests[t].adjusted == pytest.approx(expected[raw[name][t]])
    assert lt.compare_runs(qrels, runs, "ndcg@10").to_dict() == result.to_dict()  # seeded: the same numbers


def test_t_test_equals_ranx_compare():
    ranx = pytest.importorskip("ranx")
    qrels, runs = random_runs(seed=1)
    report = ranx.compare(ranx.Qrels(qrels), [ranx.Run(r, name=n) for n, r in runs.items()], ["ndcg@10"],
                          stat_test="student", max_p=0.05)
    ours = lt.compare_runs(qrels, runs, "ndcg@10", convention="ranx", correction="none")
    for name in ("r1", "r2"):
        theirs = report.comparisons[frozenset({"r0", name})]["ndcg@10"]["p_value"]
        assert ours[name].tests["t-test"].p_value == pytest.approx(theirs, rel=1e-9)


def test_the_result_reads_as_a_table_and_html():
    qrels, runs = random_runs(n_queries=12, n_runs=2)
    result = lt.compare_runs(qrels, runs, "map")
    text = str(result)
    assert text.startswith("map over 12 queries, convention trec_eval, two-sided tests")
    assert "r0 (baseline)" in text and f"{result['r1'].tests['permutation'].exact} ≈" in text
    assert "exact: all 2^12 = 4096 sign flips" in text
    page = result._repr_html_()
    assert page.startswith("<div class='ltr-teach-comparison'>") and "r0 (baseline)" in page


@pytest.mark.parametrize("kwargs, message", [
    ({"runs": {"a": {"q": {"d": 1.0}}}}, "at least two runs"),
    ({"runs": {"q": {"d": 1.0}}}, "got a single run"),
    ({"runs": 3}, "runs must be a dict"),
    ({"baseline": "zz"}, "baseline = 'zz' is not one of the runs"),
    ({"alternative": "bigger"}, "alternative must be one of"),
    ({"correction": "sidak"}, "correction must be one of"),
    ({"confidence": 95}, "confidence = 95 is not allowed"),
    ({"n_resamples": 0}, "n_resamples = 0 is not allowed"),
    ({"exact_up_to": 30}, "exact_up_to = 30 is not allowed"),
    ({"metric": "ndgc"}, "metric 'ndgc' is not one of"),
])
def test_bad_input_names_the_argument(kwargs, message):
    qrels, runs = random_runs(n_queries=5, n_runs=2)
    args = {"qrels": qrels, "runs": runs, "metric": "map", **kwargs}
    with pytest.raises(ValueError, match=message):
        lt.compare_runs(**args)


def test_cli_compare(tmp_path, capsys):
    qrels, runs = random_runs(n_queries=10, n_runs=3, seed=2)
    lt.write_qrels(qrels, tmp_path / "qrels")
    for name, run in runs.items():
        lt.write_run(run, tmp_path / name)
    args = ["compare", str(tmp_path / "qrels"), *(str(tmp_path / n) for n in runs), "-m", "ndcg@10", "--per-query"]
    assert main(args) == 0
    out = capsys.readouterr().out
    expected = lt.compare_runs(tmp_path / "qrels", {n: tmp_path / n for n in runs}, "ndcg@10")
    assert str(expected) in out
    assert "holm p permutation" in out and "q0  " in out
    assert main(["compare", str(tmp_path / "qrels"), str(tmp_path / "r0"), "-m", "map"]) == 2
    assert capsys.readouterr().err == ("ltr-teach: error: runs must hold at least two runs (a baseline and one "
                                       "to compare); got 1\n")


def test_plot_shows_the_sorted_differences():
    from matplotlib.figure import Figure

    from ltr_teach.interactive.plots import plot_run_differences

    qrels, runs = random_runs(n_queries=8, n_runs=2)
    result = lt.compare_runs(qrels, runs, "mrr")
    ax = plot_run_differences(result, ax=Figure().add_subplot())
    heights = [float(bar.get_height()) for bar in ax.containers[0]]
    assert heights == sorted(result["r1"].differences)
    assert math.isclose(ax.get_lines()[1].get_ydata()[0], result["r1"].mean_difference)
    with pytest.raises(ValueError, match="run = 'nope' is not one of the compared runs"):
        plot_run_differences(result, run="nope", ax=Figure().add_subplot())
