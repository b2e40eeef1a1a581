"""The teaching pieces of notebook 11: every sign flip listed (lt.sign_flips), the run comparison's tables,
the sample collection, and the sign-flip explorer."""

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ltr_teach as lt
from ltr_teach.runs.compare import permutation
from ltr_teach.widgets import SignFlipExplorer, plot_sign_flips


def brute_force_p(differences, alternative="two-sided"):
    """The oracle: every sign pattern by itertools.product, means as exact fractions, counted directly."""
    d = [Fraction(str(x)) for x in differences]
    observed = sum(d) / len(d)
    means = [sum(s * x for s, x in zip(signs, d)) / len(d) for signs in itertools.product((1, -1), repeat=len(d))]
    if alternative == "greater":
        hits = sum(m >= observed for m in means)
    elif alternative == "less":
        hits = sum(m <= observed for m in means)
    else:
        hits = sum(abs(m) >= abs(observed) for m in means)
    return Fraction(hits, len(means))


def test_three_queries_by_hand():
    # d = +0.2, +0.1, -0.05: sums over the 8 patterns are ±.25, ±.15, ±.05, ±.35 (each once with each sign)
    # observed sum .25; |sum| >= .25: .25, -.25, .35, -.35 -> 4 of 8
    flips = lt.sign_flips([0.2, 0.1, -0.05])
    assert flips.total == 8
    assert flips.observed == Fraction(1, 12)
    assert sorted(flips.means) == sorted(Fraction(s, 60) for s in (5, -5, 3, -3, 1, -1, 7, -7))
    assert flips.count == 4 and flips.p_value == Fraction(1, 2)
    # one-sided: sums >= .25 are .25 and .35
    assert lt.sign_flips([0.2, 0.1, -0.05], alternative="greater").p_value == Fraction(1, 4)
    # sums <= .25: all but .35
    assert lt.sign_flips([0.2, 0.1, -0.05], alternative="less").p_value == Fraction(7, 8)


def test_all_positive_differences_give_the_smallest_p():
    # 5 positive differences: only the observed pattern and its mirror reach |mean| >= observed: 2/32
    assert lt.sign_flips([0.1, 0.2, 0.3, 0.1, 0.05]).p_value == Fraction(2, 32)


def test_the_table_lists_every_pattern_once_highest_mean_first():
    flips = lt.sign_flips([0.2, 0.2, 0.4, -0.2], queries=["口红", "面霜", "眼霜", "粉底液"])
    table = flips.table()
    assert len(table.rows) == 16
    assert table.header[1:5] == ("口红", "面霜", "眼霜", "粉底液")
    assert table.rows[0][:5] == ("粉底液", "+0.2", "+0.2", "+0.4", "+0.2")   # every sign positive: mean 1.0/4
    assert table.rows[0][5] == "+0.25"
    labels = [row[0] for row in table.rows]
    assert labels.count("none (observed)") == 1
    # p: .4 kept positive, at most one .2 negative: sums 1.0, .6 (x3); and their mirrors -> 8 of 16
    assert sum(row[-1] == "yes" for row in table.rows) == 8 == flips.count
    assert "8 of 16" in str(flips)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-20, 20), min_size=1, max_size=9), st.sampled_from(["two-sided", "greater", "less"]))
def test_equal_to_the_oracle_and_to_the_permutation_test(twentieths, alternative):
    differences = [x / 20 for x in twentieths]
    flips = lt.sign_flips(differences, alternative=alternative)
    assert flips.p_value == brute_force_p(differences, alternative)
    if flips.observed != 0:
        # permutation() sums floats with SciPy's tolerance relative to the observed mean, which is no
        # tolerance at all when the mean is exactly 0 (its float sums of "zero" patterns land at ±1e-17)
        assert flips.p_value == permutation(np.array(differences), alternative).exact


def test_equal_to_scipy_on_a_few_queries():
    scipy_stats = pytest.importorskip("scipy.stats")
    d = np.array([0.2, 0.2, 0.4, -0.2, 0.0, 0.35])
    expected = scipy_stats.permutation_test((d,), np.mean, permutation_type="samples", n_resamples=np.inf).pvalue
    assert float(lt.sign_flips(d.tolist()).p_value) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("bad, match", [
    ([], "1 to 12"), (list(range(13)), "1 to 12"), ("0.1 0.2", "list of numbers"), ([0.1, "x"], r"differences\[1\]"),
    ([0.1, float("nan")], r"differences\[1\]"),
])
def test_bad_differences(bad, match):
    with pytest.raises(ValueError, match=match):
        lt.sign_flips(bad)


def test_bad_alternative_and_queries():
    with pytest.raises(ValueError, match="alternative must be one of"):
        lt.sign_flips([0.1, 0.2], alternative="bigger")
    with pytest.raises(ValueError, match="queries names 1 queries but differences holds 2"):
        lt.sign_flips([0.1, 0.2], queries=["口红"])


def test_sample_collection_by_hand():
    qrels, runs = lt.samples.skincare_collection()
    # 口红: grades a..h = 3 0 2 0 1 0 0 2; the baseline's top five a b d f h -> 3 0 0 0 2: P@5 = 2/5
    # run A's top five a c b h d -> 3 2 0 2 0: P@5 = 3/5
    result = lt.compare_runs(qrels, {"base": runs["base"], "A": runs["A"]}, "p@5")
    pair = result["A"]
    at = pair.queries.index("口红")
    assert (pair.baseline_values[at], pair.run_values[at]) == (0.4, 0.6)
    assert len(pair.queries) == 10
    with pytest.raises(ValueError, match="runs must name some of"):
        lt.samples.skincare_collection(["Z"])


def test_per_query_and_summary_tables_show_the_comparisons_numbers():
    qrels, runs = lt.samples.skincare_collection()
    result = lt.compare_runs(qrels, runs, "p@5")
    per_query = result.per_query("A")
    pair = result["A"]
    assert [row[0] for row in per_query.rows] == list(pair.queries)
    assert [float(row[3]) for row in per_query.rows] == pytest.approx([round(d, 4) for d in pair.differences])
    summary = result.summary()
    assert [row[0] for row in summary.rows] == ["base (baseline)", "A", "B", "C"]
    # the last column is Holm's adjusted permutation p of each run
    assert [float(row[-1]) for row in summary.rows[1:]] == pytest.approx(
        [float(f"{result[r].tests['permutation'].adjusted:.4g}") for r in ("A", "B", "C")])
    with pytest.raises(ValueError, match="run = 'Z' is not one of the compared runs"):
        result.per_query("Z")
    with pytest.raises(ValueError, match="test must be one of"):
        result.summary("z-test")


def test_explorer_follows_its_sliders():
    explorer = SignFlipExplorer([0.2, 0.1, -0.05], queries=["口红", "面霜", "眼霜"])
    assert explorer.flips.p_value == Fraction(1, 2)
    first_png = explorer.plot.value
    explorer._sliders[2].value = 0.05          # what the browser does: 眼霜 now +0.05, every difference positive
    assert explorer.flips.differences[2] == Fraction(1, 20)
    assert explorer.flips.p_value == Fraction(1, 4)
    assert "p = 1/4" in explorer._result.value and explorer.plot.value != first_png
    explorer._sliders[0].value = 0.15000000000000002   # a float slider's value is read as hundredths
    assert explorer.flips.differences[0] == Fraction(3, 20)


def test_explorer_refuses_bad_input():
    with pytest.raises(ValueError, match="2 to 8 queries"):
        SignFlipExplorer([0.1])
    with pytest.raises(ValueError, match="outside"):
        SignFlipExplorer([0.1, 1.5])
    explorer = SignFlipExplorer([0.1, 0.2])
    with pytest.raises(ValueError, match="between -1 and 1"):
        explorer.set_difference(0, 2)
    with pytest.raises(ValueError, match="position, 0 to 1"):
        explorer.set_difference(2, 0.1)
    assert explorer.flips.differences == (Fraction(1, 10), Fraction(1, 5))   # unchanged


def test_plot_marks_the_extreme_patterns():
    from matplotlib.figure import Figure

    ax = plot_sign_flips(lt.sign_flips([0.2, 0.2, 0.4, -0.2]), ax=Figure().add_subplot())
    extreme, other, star = ax.collections
    assert len(extreme.get_offsets()) == 8 and len(other.get_offsets()) == 8
    assert tuple(star.get_offsets()[0]) == (pytest.approx(0.15), pytest.approx(star.get_offsets()[0][1]))
    assert sorted(line.get_xdata()[0] for line in ax.lines) == pytest.approx([-0.15, 0.15])
    with pytest.raises(TypeError, match="lt.sign_flips"):
        plot_sign_flips([0.1, 0.2])
    assert math.isclose(float(lt.sign_flips([0.2, 0.2, 0.4, -0.2]).observed), 0.15)


def test_places_rounds_float_noise_away():
    # 0.6 - 0.4 is 0.19999999999999996 in floats; the P@5 difference is exactly 1/5 (issue 24: a float within 64
    # ulps of a fraction with denominator <= 10^6 is read as it, so permutation() and sign_flips agree)
    noisy = [0.6 - 0.4, 0.8 - 0.6, -(0.6 - 0.4)]
    assert lt.sign_flips(noisy).differences[0] == Fraction(1, 5)
    assert lt.sign_flips([0.123456789012345]).differences[0] == Fraction("0.123456789012345")
    flips = lt.sign_flips(noisy, places=2)
    assert flips.differences == (Fraction(1, 5), Fraction(1, 5), Fraction(-1, 5))
    assert "rounded to 2 decimals" in str(flips)
    with pytest.raises(ValueError, match="places = -1 must be a whole number"):
        lt.sign_flips([0.1], places=-1)


def test_holm_steps_by_hand():
    # p = .01, .04, .03, .20, m = 4. Sorted: .01 x4 = .04; .03 x3 = .09; .04 x2 = .08 -> max(.09, .08) = .09;
    # .20 x1 = .20. Below .05: only the first.
    table = lt.adjustment_steps([0.01, 0.04, 0.03, 0.20], names=["A", "B", "C", "D"])
    assert [row[0] for row in table.rows] == ["A", "C", "B", "D"]
    assert [row[2] for row in table.rows] == ["4", "3", "2", "1"]
    assert [row[4] for row in table.rows] == ["0.04", "0.09", "0.09", "0.2"]
    assert [row[5] for row in table.rows] == ["yes", "", "", ""]


def test_bonferroni_steps_by_hand_and_both_equal_adjust():
    from ltr_teach.runs.compare import adjust

    # Bonferroni: every p times m = 3, capped at 1: .02 -> .06, .5 -> 1, .01 -> .03
    table = lt.adjustment_steps([0.02, 0.5, 0.01], correction="bonferroni")
    assert [(row[0], row[4]) for row in table.rows] == [("3", "0.03"), ("1", "0.06"), ("2", "1")]
    p_values = [0.013, 0.2, 0.04, 0.011, 0.9]
    for correction in ("holm", "bonferroni"):
        rows = {row[0]: float(row[4]) for row in lt.adjustment_steps(p_values, correction).rows}
        expected = adjust(p_values, correction)
        assert [rows[str(i + 1)] for i in range(5)] == pytest.approx(expected, rel=1e-3)


def test_holm_steps_equal_the_definition():
    # Holm (1979): the j-th smallest p gets max over i <= j of min(1, (m - i + 1) p_(i))
    p_values = [Fraction(13, 1000), Fraction(1, 5), Fraction(1, 25), Fraction(11, 1000), Fraction(9, 10),
                Fraction(1, 2500)]
    m = len(p_values)
    ordered = sorted(p_values)
    definition = {p: max(min(1, (m - i) * ordered[i]) for i in range(j + 1)) for j, p in enumerate(ordered)}
    rows = {row[0]: Fraction(row[4]) for row in lt.adjustment_steps([float(p) for p in p_values]).rows}
    assert [rows[str(i + 1)] for i in range(m)] == [definition[p] for p in p_values]


@pytest.mark.parametrize("kwargs, match", [
    ({"p_values": []}, "1 to 50 p-values"), ({"p_values": [1.2]}, "not a probability"),
    ({"p_values": [0.1], "correction": "none"}, "correction must be one of"),
    ({"p_values": [0.1], "level": 1}, "level = 1 must lie strictly between"),
    ({"p_values": [0.1, 0.2], "names": ["A"]}, "names names 1 comparisons"),
])
def test_adjustment_steps_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        lt.adjustment_steps(**kwargs)
