"""Several metrics side by side (MetricSuite, agreement) and the notebooks' panels."""

import itertools

import pytest
import sympy

import ltr_teach as lt
from ltr_teach.widgets import (
    ConventionSwitcher,
    EditorSnapshot,
    ErratumBrowser,
    MetricsDashboard,
    RankingEditor,
    errata_panel,
    erratum_html,
    side_by_side,
)

SUITE = lt.MetricSuite({
    "RR": ("reciprocal_rank", {"threshold": 2}),
    "P@2": ("precision_at_k", {"k": 2, "threshold": 2}),
    "ERR": ("err", {"g_max": 3}),
})


def test_suite_values_by_hand():
    values = SUITE.evaluate([1, 3, 0])
    # first grade >= 2 at rank 2: RR = 1/2; one of the top 2 relevant: P@2 = 1/2
    # ERR: R = 1/8, 7/8, 0 -> 1/8 + (7/8)(7/8)/2 = 1/8 + 49/128 = 65/128
    assert {label: ex.exact for label, ex in values.items()} == {
        "RR": sympy.Rational(1, 2), "P@2": sympy.Rational(1, 2), "ERR": sympy.Rational(65, 128)}


def test_suite_table_places_and_swaps():
    rankings = {"A": [3, 0, 0], "B": [0, 3, 0], "C": [0, 0, 3]}
    table = SUITE.table(rankings)
    assert table.column("RR") == ["1", "0.5", "0.333333"]
    assert table.column("P@2") == ["0.5", "0.5", "0"]
    # RR: 1 > 1/2 > 1/3; P@2 ties A and B at 1/2
    assert SUITE.places(rankings) == {"RR": "A > B > C", "P@2": "A = B > C", "ERR": "A > B > C"}
    swaps = SUITE.swaps([0, 3, 0], {"1-2": (0, 1), "1-3": (0, 2)})
    # 1-2 brings the 3 to rank 1: RR 1/2 -> 1, P@2 unchanged, ERR 7/16 -> 7/8
    # 1-3 swaps two zeros: nothing moves
    assert swaps.rows == (("1-2", "+0.5000", "·", "+0.4375"), ("1-3", "·", "·", "·"))
    with pytest.raises(ValueError, match=r"swaps\['x'\] = \(0, 5\) must be two positions 0\.\.2"):
        SUITE.swaps([0, 3, 0], {"x": (0, 5)})


def _kendall_counts(first, second):
    """Slow oracle: count concordant, discordant and tied pairs one by one with exact comparisons."""
    agree = disagree = tied = 0
    for i, j in itertools.combinations(range(len(first)), 2):
        a = (first[i] > first[j]) - (first[i] < first[j])
        b = (second[i] > second[j]) - (second[i] < second[j])
        if a == 0 or b == 0:
            tied += 1
        elif a == b:
            agree += 1
        else:
            disagree += 1
    return agree, disagree, tied


def test_agreement_matches_a_pair_by_pair_count_and_scipy_tau():
    scipy_stats = pytest.importorskip("scipy.stats")
    first = [3, 1, 4, 1, 5, 9, 2, 6]
    second = [2, 7, 1, 8, 2, 8, 1, 8]
    result = lt.agreement(first, second)
    assert (result.agree, result.disagree, result.tied) == _kendall_counts(first, second)
    # without ties on either side, (agree - disagree) / decided is Kendall's tau (tau-a = tau-b)
    distinct_a, distinct_b = [1, 2, 3, 4, 5], [2, 1, 4, 3, 5]
    r = lt.agreement(distinct_a, distinct_b)
    tau = scipy_stats.kendalltau(distinct_a, distinct_b).statistic
    assert (r.agree - r.disagree) / r.decided == pytest.approx(tau)
    assert r.share == sympy.Rational(8, 10)   # 10 pairs, two swapped neighbours disagree


def test_agreement_and_ties_tables():
    rankings = [[3, 0, 0], [0, 3, 0], [0, 0, 3]]
    # RR 1, 1/2, 1/3 and P@2 1/2, 1/2, 0: P@2 ties the first pair; the two decided pairs agree
    assert SUITE.agreement(rankings).rows[0] == ("RR", "100%", "100%", "100%")
    assert SUITE.ties(rankings).rows == (("RR", "0/3", "0%"), ("P@2", "1/3", "33%"), ("ERR", "0/3", "0%"))
    with pytest.raises(ValueError, match="at least two rankings"):
        SUITE.agreement([[1, 0]])
    with pytest.raises(ValueError, match="same length"):
        lt.agreement([1, 2], [1])


@pytest.mark.parametrize(
    ("metrics", "message"),
    [
        ({}, "non-empty dict"),
        ({"X": "ndcg"}, r"metrics\['X'\] must be a pair"),
        ({"X": ("ndcg", {"g_max": 3})}, r"'ndcg' takes the keywords .*; got g_max="),
    ],
)
def test_suite_bad_input(metrics, message):
    with pytest.raises(ValueError, match=message):
        lt.MetricSuite(metrics)


# -- panels ----------------------------------------------------------------------------------------

def test_side_by_side_shows_each_table():
    a, b = lt.reciprocal_rank([1, 0]), lt.reciprocal_rank([0, 1])
    panel = side_by_side(("first", a), ("second", b))
    assert panel._repr_html_().count("ltr-teach-explanation") == 2
    assert str(panel) == "first: RR = 1\nsecond: RR = 1/2 = 0.5"
    with pytest.raises(ValueError, match=r"labelled\[0\] must be a pair"):
        side_by_side("not a pair")


def test_errata_cards_hold_the_library_value():
    markup = erratum_html("000-map-value")
    assert "599/840" in markup and "lt.mean_average_precision" in markup
    assert "the post is wrong here" in markup            # an error says so
    convention = erratum_html("000-ndcg-log-base")
    assert "convention" in convention and "the post is wrong" not in convention
    assert ">usual<" in convention and ">correct<" not in convention
    panel = errata_panel("000")
    records = [e for e in lt.examples.ERRATA if e.id.startswith("000-")]
    errors = sum(e.kind == "error" for e in records)
    assert str(panel).splitlines()[0].startswith(f"{len(records)} records in post 000 · 最近想要总结一下 LTR的算法 ({errors} error")
    assert panel._repr_html_().count("class='ltr-erratum ") == len(records)
    assert panel._repr_html_().count("the post is wrong here") == errors
    with pytest.raises(ValueError, match="document = '007' must be one of"):
        errata_panel("007")


def test_erratum_browser_follows_the_choice():
    browser = ErratumBrowser()
    assert len(browser.picker.options) == len(lt.examples.ERRATA)
    browser.select("000-map-value")
    assert "599/840" in browser.detail.value and "MAP" in browser.detail.value
    with pytest.raises(ValueError, match="is not an erratum id"):
        browser.select("no-such-id")


def test_convention_switcher_shows_the_chosen_tool():
    grades, scores, docids, pool = [0, 3, 2, 1, 0], [1.0, 0.8, 0.8, 0.5, 0.4], ["d3", "d1", "d2", "d4", "d9"], [3, 2, 0, 1, 2]
    table = lt.compare_conventions(grades, scores=scores, docids=docids, ideal=pool, k=10)
    switcher = ConventionSwitcher(table, start="trec_eval")
    for name in ("trec_eval", "sklearn", "gdeval"):
        switcher.select(name)
        assert switcher.explanation.value == table.value(name)
        assert switcher.explanation.result_line() in switcher.panel.value
    with pytest.raises(ValueError, match="name = 'nope' must be one of"):
        switcher.select("nope")


def test_dashboard_follows_the_editor_and_snapshot_restores_it():
    editor = RankingEditor(["a", "b", "c"], [1, 3, 0], metric="ndcg")
    board = MetricsDashboard(editor, SUITE)
    start = EditorSnapshot(editor)
    assert "RR = 1/2" in board.panel.value
    editor.move(1, 0)                        # the grade-3 item to the top: RR = 1
    assert "RR = 1<" in board.panel.value and board.values()["RR"].exact == 1
    editor.set_grade(2, 2)
    editor.set_option("gain", "linear")
    assert not start.restored
    start.restore()
    assert start.restored and editor.items == ("a", "b", "c") and editor.grades == (1, 3, 0)
    assert editor.options["gain"] == "exp2"
    assert board.line("start") == SUITE.line([1, 3, 0], "start")


def test_snapshot_restores_scores_and_n_relevant():
    auc = RankingEditor(["w", "x", "y", "z"], [1, 0, 1, 0], metric="auc", scores=[0.9, 0.5, 0.1, 0.3])
    start = EditorSnapshot(auc)
    auc.set_score(2, 0.95)
    auc.set_grade(1, 1)
    start.restore()
    assert start.restored and auc.scores == (0.9, 0.5, 0.1, 0.3) and auc.grades == (1, 0, 1, 0)
    f1 = RankingEditor(["x", "y", "z"], [1, 0, 1], metric="f_beta", k=2, n_relevant=2)
    start = EditorSnapshot(f1)
    f1.set_option("n_relevant", 5)
    f1.set_grade(1, 1)
    start.restore()
    assert start.restored and f1.options["n_relevant"] == 2


def test_side_by_side_columns_keep_only_the_named_columns():
    # DCG of 1, 0 and of 0, 1: with columns rank and gain the discount column is gone, the values stay
    panel = side_by_side(("1, 0", lt.dcg([1, 0])), ("0, 1", lt.dcg([0, 1])), columns=("rank", "gain"))
    assert "discount" not in panel.html and "gain" in panel.html
    # each rank's term (a 0 included), then the value
    assert str(panel) == "1, 0: DCG = 1 + 0 = 1\n0, 1: DCG = 0 + 1/log2(3) = 1/log2(3) ≈ 0.63093"
    with pytest.raises(ValueError, match="'score' is not a step column of labelled\\[0\\]"):
        side_by_side(("1, 0", lt.dcg([1, 0])), columns=("score",))


def test_plot_suite_one_hatch_per_metric():
    from matplotlib.figure import Figure

    from ltr_teach.interactive.plots import plot_suite

    suite = lt.MetricSuite({"RR": ("reciprocal_rank", {}), "P@2": ("precision_at_k", {"k": 2}),
                         "AP": ("average_precision", {})})
    ax = plot_suite(suite, {"A": [1, 0, 0], "B": [0, 1, 1]}, ax=Figure().add_subplot())
    # A: RR 1, P@2 1/2, AP 1; B: RR 1/2, P@2 1/2, AP (1/2 + 2/3)/2 = 7/12
    heights = [[float(bar.get_height()) for bar in bars] for bars in ax.containers]
    assert heights == [[1.0, 0.5], [0.5, 0.5], [1.0, pytest.approx(7 / 12)]]
    hatches = [bars.patches[0].get_hatch() or "" for bars in ax.containers]
    assert len(set(hatches)) == 3    # told apart without colour
