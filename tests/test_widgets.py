"""RankingEditor driven without a browser: every new value is checked against an independent oracle.

Oracles: hand arithmetic with a comment per rank (fractions and math.log2), or the library called
on the grades the editor should now hold (which tests the editor's bookkeeping, not the metric).
"""

from __future__ import annotations

import html
import math
import re
import warnings
from fractions import Fraction

import matplotlib
import pytest
import sympy
from fontTools.ttLib import TTFont
from matplotlib.figure import Figure

import ltr_teach as lt
from ltr_teach.interactive.plots import FONT_DIR, legend_html, plot_explanation, render_png
from ltr_teach.widgets import MultiQueryEditor, RankingEditor, erratum_card, example_card

# Document 000's MAC口红 query with the names the documents use.
NAMES = ["小棕瓶眼霜", "MAC口红", "神仙水", "兰蔻粉水", "芦荟霜", "面膜", "眼霜"]
GRADES = [3, 2, 3, 0, 1, 2, 2]


def find(widget, css_class):
    """Every widget under ``widget`` (depth first) that carries ``css_class``."""
    found = [widget] if css_class in widget._dom_classes else []
    for child in getattr(widget, "children", ()):
        found += find(child, css_class)
    return found


def table_rows(editor):
    """The explanation table's body as lists of cell texts."""
    body = editor.table.value.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [[html.unescape(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row)] for row in body.split("</tr>") if row]


def exp2_dcg(grades):
    """Slow, obviously right DCG with gain 2^g - 1 and discount log2(i + 1)."""
    return sum((2**g - 1) / math.log2(i + 1) for i, g in enumerate(grades, start=1))


# -- graded metrics ---------------------------------------------------------------------------------
def test_set_grade_updates_value_table_and_plot():
    ed = RankingEditor(NAMES, GRADES, k=7)
    png_before = bytes(ed.plot.value)
    ed.set_grade(3, 3)                     # 兰蔻粉水: 0 -> 3
    assert ed.grades == (3, 2, 3, 3, 1, 2, 2)
    # ranks 1..7: gains 7, 3, 7, 7, 1, 3, 3 over log2(2..8); ideal 3, 3, 3, 2, 2, 2, 1
    expected = exp2_dcg([3, 2, 3, 3, 1, 2, 2]) / exp2_dcg([3, 3, 3, 2, 2, 2, 1])
    assert float(ed.explanation) == pytest.approx(expected, rel=1e-12)
    assert ed.explanation.exact == lt.ndcg([3, 2, 3, 3, 1, 2, 2], k=7).exact
    rows = table_rows(ed)
    assert rows[3][:3] == ["4", "3", "7"]   # rank 4 now has grade 3 and gain 2^3 - 1 = 7
    assert html.escape(ed.explanation.result_line()) in ed.table.value
    assert bytes(ed.plot.value).startswith(b"\x89PNG") and bytes(ed.plot.value) != png_before


def test_small_ranking_by_hand():
    ed = RankingEditor(["MAC口红", "神仙水", "面膜"], [0, 1, 0])
    # DCG = 0/1 + 1/log2(3) + 0; the ideal 1, 0, 0 has IDCG = 1
    assert ed.explanation.exact == sympy.Integer(1) / lt.log2(3)
    ed.set_grade(0, 1)                     # now 1, 1, 0: the ideal order itself
    assert ed.explanation.exact == 1


def test_move_reorders_items_and_grades():
    ed = RankingEditor(NAMES, GRADES, k=7)
    ed.move(2, 0)                          # 神仙水 (grade 3) to the top
    assert ed.items == ("神仙水", "小棕瓶眼霜", "MAC口红", "兰蔻粉水", "芦荟霜", "面膜", "眼霜")
    assert ed.grades == (3, 3, 2, 0, 1, 2, 2)
    expected = exp2_dcg([3, 3, 2, 0, 1, 2, 2]) / exp2_dcg([3, 3, 2, 2, 2, 1, 0])
    assert float(ed.explanation) == pytest.approx(expected, rel=1e-12)
    ed.move(0, 6)                          # and down to the bottom
    assert ed.items[-1] == "神仙水" and ed.grades == (3, 2, 0, 1, 2, 2, 3)
    assert [row[1] for row in table_rows(ed)] == ["3", "2", "0", "1", "2", "2", "3"]


def test_gain_discount_and_k_options():
    ed = RankingEditor(["a", "b", "c"], [3, 2, 3], metric="dcg")
    # exp2 / log2: 7/1 + 3/log2(3) + 7/2
    assert float(ed.explanation) == pytest.approx(7 + 3 / math.log2(3) + 3.5, rel=1e-12)
    ed.set_option("gain", "linear")        # 3/1 + 2/log2(3) + 3/2
    assert float(ed.explanation) == pytest.approx(3 + 2 / math.log2(3) + 1.5, rel=1e-12)
    ed.set_option("discount", "ln")        # 3/ln 2 + 2/ln 3 + 3/ln 4
    assert float(ed.explanation) == pytest.approx(3 / math.log(2) + 2 / math.log(3) + 3 / math.log(4), rel=1e-12)
    ed.set_option("discount", "jarvelin")  # ranks 1 and 2 undiscounted, rank 3 by log2(3): 3 + 2 + 3/log2(3)
    assert float(ed.explanation) == pytest.approx(5 + 3 / math.log2(3), rel=1e-12)
    ed.set_option("k", 2)                  # 3 + 2
    assert ed.explanation.exact == 5 and ed.explanation.name == "DCG@2"
    assert "DCG@2 = 3 + 2 = 5" in ed.table.value     # the terms in rank order, then the sum


def test_ndcg_discount_base_cancels():
    ed = RankingEditor(NAMES, GRADES, k=7)
    before = float(ed.explanation)
    ed.set_option("discount", "ln")
    assert float(ed.explanation) == pytest.approx(before, rel=1e-12)
    assert float(ed.explanation.parts["dcg"]) == pytest.approx(exp2_dcg(GRADES) / math.log(2), rel=1e-12)


def test_ideal_pool_toggle():
    # The movie example: five films rated 5, 3, 2, 1, 2 were shown; two more judged films (4, 0) were not.
    ed = RankingEditor(["m1", "m2", "m3", "m4", "m5"], [5, 3, 2, 1, 2], k=5, max_grade=5,
                       ideal=[5, 3, 2, 1, 2, 4, 0])
    with_pool = exp2_dcg([5, 3, 2, 1, 2]) / exp2_dcg([5, 4, 3, 2, 2])
    assert float(ed.explanation) == pytest.approx(with_pool, rel=1e-12)
    ed.set_option("ideal", False)          # the ideal from the shown list only: 5, 3, 2, 2, 1
    assert float(ed.explanation) == pytest.approx(exp2_dcg([5, 3, 2, 1, 2]) / exp2_dcg([5, 3, 2, 2, 1]), rel=1e-12)
    ed.set_option("ideal", True)
    ed.set_grade(4, 5)                     # the pool follows the edited grades: 5, 3, 2, 1, 5 plus 4, 0
    assert float(ed.explanation) == pytest.approx(exp2_dcg([5, 3, 2, 1, 5]) / exp2_dcg([5, 5, 4, 3, 2]), rel=1e-12)


def test_zero_rule_and_refused_change_keeps_state():
    ed = RankingEditor(["a", "b"], [0, 1], zero="raise")
    with pytest.raises(ValueError, match="IDCG is 0"):
        ed.set_grade(1, 0)                 # would leave no relevant item
    assert ed.grades == (0, 1) and ed.explanation.exact == 1 / lt.log2(3)
    ed.set_option("zero", "one")
    ed.set_grade(1, 0)
    assert ed.explanation.exact == 1


def test_err_cascade_and_g_max():
    def err_oracle(grades, g_max):
        total, reach = Fraction(0), Fraction(1)
        for i, g in enumerate(grades, start=1):
            r = Fraction(2**g - 1, 2**g_max)
            total += reach * r / i
            reach *= 1 - r
        return total

    ed = RankingEditor(["MAC口红", "神仙水", "兰蔻粉水", "芦荟霜"], [3, 2, 3, 1], metric="err", g_max=3)
    # R = 7/8, 3/8, 7/8, 1/8: 7/8 + (1/2)(1/8)(3/8) + (1/3)(1/8)(5/8)(7/8) + (1/4)(1/8)(5/8)(1/8)(1/8)
    hand = Fraction(7, 8) + Fraction(1, 2) * Fraction(3, 64) + Fraction(1, 3) * Fraction(35, 512) \
        + Fraction(1, 4) * Fraction(5, 4096)
    assert ed.explanation.exact == sympy.Rational(hand.numerator, hand.denominator)
    ed.set_option("g_max", 4)
    assert ed.max_grade == 4
    assert ed.explanation.exact == sympy.Rational(*_nd(err_oracle([3, 2, 3, 1], 4)))
    ed.set_grade(0, 4)
    assert ed.explanation.exact == sympy.Rational(*_nd(err_oracle([4, 2, 3, 1], 4)))
    with pytest.raises(ValueError, match="g_max = 3 must be an integer >= 4"):
        ed.set_option("g_max", 3)


def _nd(f: Fraction):
    return f.numerator, f.denominator


# -- binary metrics ----------------------------------------------------------------------------------
def test_average_precision_and_unretrieved_relevant():
    ed = RankingEditor(NAMES, [1, 1, 0, 0, 1, 0, 0], metric="ap")
    assert ed.explanation.exact == sympy.Rational(13, 15)      # (1/1 + 2/2 + 3/5) / 3
    ed.set_option("n_relevant", 4)                             # one relevant document never retrieved
    assert ed.explanation.exact == sympy.Rational(13, 20)      # (1 + 1 + 3/5) / 4
    ed.set_grade(6, 1)                                         # 眼霜 becomes relevant: hit 4 at rank 7
    assert ed.options["n_relevant"] == 5
    assert ed.explanation.exact == (1 + 1 + sympy.Rational(3, 5) + sympy.Rational(4, 7)) / 5
    with pytest.raises(ValueError, match="n_relevant = 2 must be an integer >= 4"):
        ed.set_option("n_relevant", 2)


def test_precision_and_f_beta_options():
    ed = RankingEditor(NAMES, [1, 0, 1, 1, 0, 0, 1], metric="f1", k=4, n_relevant=5)
    # top 4 = 1, 0, 1, 1: P = 3/4; 5 relevant in all: R = 3/5; F1 = 2PR/(P+R) = 2/3
    assert ed.explanation.exact == sympy.Rational(2, 3)
    ed.set_option("beta", 2)               # 5PR / (4P + R) = (9/4) / (3 + 3/5) = 5/8
    assert ed.explanation.exact == sympy.Rational(5, 8)
    p = RankingEditor(NAMES, [1, 0, 1, 1, 0, 0, 1], metric="p", k=3)
    assert p.explanation.exact == sympy.Rational(2, 3)
    p.set_option("k", 7)
    assert p.explanation.exact == sympy.Rational(4, 7)


# -- AUC ------------------------------------------------------------------------------------------------
def test_auc_labels_and_scores():
    ed = RankingEditor(["小棕瓶眼霜", "MAC口红", "神仙水", "兰蔻粉水"], [1, 0, 1, 0], metric="auc",
                       scores=[0.9, 0.8, 0.8, 0.1])
    # positives 0.9 (beats 0.8 and 0.1: 2) and 0.8 (beats 0.1, ties 0.8: 1.5) out of 2 x 2 pairs
    assert ed.explanation.exact == sympy.Rational(7, 8)
    ed.set_score(3, 0.95)                  # the negative 兰蔻粉水 now outscores both positives
    # 0.9 beats 0.8 only (1); 0.8 ties 0.8 (1/2): 1.5 / 4
    assert ed.explanation.exact == sympy.Rational(3, 8)
    ed.set_grade(1, 1)                     # MAC口红 becomes positive: positives 0.9, 0.8, 0.8; negative 0.95
    assert ed.explanation.exact == 0
    assert len(find(ed.widget, "ltr-score-slider")) == 4 and not find(ed.widget, "ltr-move-up")


# -- the ipywidgets controls call the same methods ------------------------------------------------------
def test_controls_drive_the_editor():
    ed = RankingEditor(NAMES, GRADES, k=7)
    assert len(find(ed.widget, "ltr-row")) == 7
    find(ed.widget, "ltr-grade-slider")[3].value = 3
    assert ed.grades[3] == 3
    find(ed.widget, "ltr-move-up")[2].click()          # 神仙水 from rank 3 to rank 2
    assert ed.items[:3] == ("小棕瓶眼霜", "神仙水", "MAC口红")
    assert find(ed.widget, "ltr-move-up")[0].disabled and find(ed.widget, "ltr-move-down")[6].disabled
    find(ed.widget, "ltr-option-gain")[0].value = "linear"
    find(ed.widget, "ltr-option-k")[0].value = 3
    # grades 3, 3, 2, 3, 1, 2, 2 with linear gain, top 3: DCG@3 = 3/1 + 3/log2(3) + 2/2; the ideal
    # top 3 is 3, 3, 3: IDCG@3 = 3/1 + 3/log2(3) + 3/2
    log2_3 = lt.log2(3)
    assert ed.options["gain"] == "linear"
    assert ed.explanation.exact == (4 + 3 / log2_3) / (sympy.Rational(9, 2) + 3 / log2_3)
    names = [html.unescape(w.value) for w in find(ed.widget, "ltr-name")]
    assert names[:3] == ["小棕瓶眼霜", "神仙水", "MAC口红"]
    assert find(ed.widget, "ltr-grade-slider")[1].tooltip == "grade of 神仙水 (rank 2)"
    assert "NDCG@3 = (3 + 3/log2(3) + 1)/(3 + 3/log2(3) + 3/2) = (3/log2(3) + 4)/(3/log2(3) + 9/2) ≈ 0.921787" in find(ed.widget, "ltr-result")[0].value


def test_refused_control_change_is_reported_and_reverted():
    ed = RankingEditor(["a", "b"], [0, 1], zero="raise")
    slider = find(ed.widget, "ltr-grade-slider")[1]
    slider.value = 0
    assert ed.grades == (0, 1) and slider.value == 1
    assert "not applied" in find(ed.widget, "ltr-error")[0].value


# -- plots and the CJK font -------------------------------------------------------------------------------
def test_chinese_names_render_without_missing_glyphs():
    # the documents' names, then brand names beyond GB2312 level 1 (黛) and in traditional script
    names = ["小棕瓶眼霜", "MAC口红", "神仙水", "兰蔻粉水", "芦荟霜", "雅诗兰黛", "資生堂", "蘭蔻"]
    cmap = TTFont(next(FONT_DIR.glob("*.otf"))).getBestCmap()
    assert all(ord(c) in cmap for c in "".join(names))
    assert "Noto Sans CJK SC" in matplotlib.rcParams["font.family"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        png = render_png(lt.ndcg([3, 2, 3, 0, 1]), names=names)
    assert png.startswith(b"\x89PNG")
    assert not [w for w in caught if "missing from font" in str(w.message)]


def test_missing_glyph_check_can_fail():
    # The same check sees the warning when a character is in no registered font (U+E000: private use).
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        render_png(lt.ndcg([3, 2]), names=["\ue000", "b"])
    assert [w for w in caught if "missing from font" in str(w.message)]


@pytest.mark.parametrize("ex", [
    lt.cg([3, 2]), lt.dcg([3, 2]), lt.idcg([3, 2]), lt.err([3, 2], g_max=3), lt.precision_at_k([1, 0], 2),
    lt.recall_at_k([1, 0], 2), lt.f_beta([1, 0], 2), lt.average_precision([1, 0, 1]), lt.reciprocal_rank([0, 1]),
    lt.mrr([[0, 1], [1]]), lt.mean_average_precision([[0, 1], [1]]), lt.interpolated_precision([1, 0, 1]),
    lt.eleven_point_ap([1, 0, 1]), lt.roc_curve([1, 0], [0.2, 0.1]), lt.auc([1, 0], [0.2, 0.1]),
], ids=lambda ex: ex.metric)
def test_every_metric_has_a_plot(ex):
    ax = plot_explanation(ex, ax=Figure().add_subplot())
    assert ax.get_title() and (ax.patches or ax.lines)


def test_legend_html_lists_the_series():
    fig = Figure()
    render_png(lt.ndcg([3, 2, 3]), figure=fig, legend=False)
    text = legend_html(fig)
    assert [t for t in ("DCG so far", "IDCG so far (ideal order)", "gain / discount") if t in text] == \
        ["DCG so far", "IDCG so far (ideal order)", "gain / discount"]
    assert fig.axes[0].get_legend() is None


# -- bad input ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("args, kwargs, message", [
    ((["a", "b"], [1]), {}, "items and grades must have the same length; got 2 items and 1 grades"),
    ((["a"], [1]), {"metric": "nope"}, "metric must be one of"),
    ((["a"], [1]), {"metric": "mrr"}, "averages over several queries"),
    (([], []), {}, "items must not be empty"),
    ((["a", 3], [1, 2]), {}, r"items\[1\] = 3 must be a non-empty item name"),
    ((["a"], [-1]), {}, r"grades\[0\] = -1 is negative"),
    ((["a", "b"], [1, 2]), {"metric": "ap"}, r"grades\[1\] = 2 is not 0 or 1"),
    ((["a"], [4]), {"max_grade": 3}, "max_grade = 3 is below the highest grade given"),
    ((["a"], [1]), {"color": "red"}, "metric 'ndcg' takes the keywords k, gain, discount, ideal, zero; got color="),
    ((["a"], [1]), {"gain": "cubic"}, "gain must be one of 'exp2', 'linear', 'binary'; got 'cubic'"),
    ((["a", "b"], [3, 2]), {"ideal": [2]}, "ideal must hold every judged grade"),
    ((["a", "b"], [1, 0]), {"metric": "auc"}, "needs scores"),
    ((["a", "b"], [1, 0]), {"metric": "auc", "scores": [0.5]}, "items and scores must have the same length"),
    ((["a", "b"], [1, 0]), {"metric": "auc", "scores": [0.5, 2]}, r"scores\[1\] = 2 must be a number in \[0, 1\]"),
    ((["a", "b"], [1, 0]), {"scores": [0.5, 0.2]}, "scores is only for metric 'auc'"),
    ((["a", "b"], [1, 1]), {"metric": "ap", "n_relevant": 1}, "n_relevant = 1 must be an integer >= 2"),
    ((["a", "b"], [4, 1]), {"metric": "err", "g_max": 3}, r"above g_max = 3"),
])
def test_bad_construction_raises(args, kwargs, message):
    with pytest.raises(ValueError, match=message):
        RankingEditor(*args, **kwargs)


def test_bad_actions_raise():
    ed = RankingEditor(["a", "b", "c"], [3, 2, 0])
    with pytest.raises(ValueError, match=r"i = 3 must be a position 0..2"):
        ed.set_grade(3, 1)
    with pytest.raises(ValueError, match=r"grade g = 4 must be a whole number 0..3"):
        ed.set_grade(0, 4)
    with pytest.raises(ValueError, match=r"grade g = 1.5 must be a whole number"):
        ed.set_grade(0, 1.5)
    with pytest.raises(ValueError, match=r"j = -1 must be a position"):
        ed.move(0, -1)
    with pytest.raises(ValueError, match="option name must be one of gain, discount, k, zero"):
        ed.set_option("beta", 2)
    with pytest.raises(ValueError, match="k must be an integer >= 1 or None"):
        ed.set_option("k", 0)
    with pytest.raises(ValueError, match="set_score is for metric 'auc'"):
        ed.set_score(0, 0.5)
    assert ed.grades == (3, 2, 0) and ed.options["k"] is None


# -- several queries ----------------------------------------------------------------------------------------
def test_multi_query_editor_mrr_follows_each_query():
    ed = MultiQueryEditor({"眼霜": (["小棕瓶精华", "小棕瓶眼霜", "面霜"], [0, 1, 0]),
                           "神仙水": (["skII 神仙水", "兰蔻粉水", "菌菇水"], [1, 0, 0]),
                           "面膜": (["芦荟霜", "高保湿面霜", "skii面膜"], [0, 0, 1])})
    assert ed.explanation.exact == sympy.Rational(11, 18)          # (1/2 + 1 + 1/3) / 3
    png = bytes(ed.plot.value)
    find(ed.widget, "ltr-move-up")[8].click()                       # 面膜 tab: skii面膜 from rank 3 to 2
    assert ed.editors["面膜"].items[1] == "skii面膜"
    assert ed.explanation.exact == sympy.Rational(2, 3)            # (1/2 + 1 + 1/2) / 3
    assert "MRR = (1/2 + 1 + 1/2)/3 = 2/3" in html.unescape(ed.table.value) and bytes(ed.plot.value) != png
    ed.editors["眼霜"].set_grade(1, 0)                              # no relevant result left: RR 0
    assert ed.explanation.exact == sympy.Rational(1, 2)            # (0 + 1 + 1/2) / 3


def test_multi_query_editor_map_keeps_n_relevant_per_query():
    names = [f"d{i}" for i in range(1, 6)]
    ed = MultiQueryEditor({"主题1": (names, [1, 1, 0, 1, 0]), "主题2": (names, [1, 0, 1, 0, 1])}, metric="map",
                          n_relevant={"主题2": 5})
    # topic 1: (1 + 1 + 3/4) / 3 = 11/12; topic 2: (1 + 2/3 + 3/5) / 5 = 34/75
    assert ed.explanation.exact == (sympy.Rational(11, 12) + sympy.Rational(34, 75)) / 2
    ed.editors["主题1"].set_option("n_relevant", 4)                   # (1 + 1 + 3/4) / 4 = 11/16
    assert ed.explanation.exact == (sympy.Rational(11, 16) + sympy.Rational(34, 75)) / 2


@pytest.mark.parametrize("kwargs, message", [
    ({"queries": {}}, "queries must be a non-empty dict"),
    ({"queries": {"q": (["a"], [1])}, "metric": "err"}, "metric must be 'mrr', 'map' or 'ndcg'"),
    ({"queries": {"q": ["a"]}}, r"queries\['q'\] must be a pair"),
    ({"queries": {"q": (["a"], [1])}, "n_relevant": {"q": 2}}, "n_relevant is for metric 'map' only"),
    ({"queries": {"q": (["a"], [1])}, "metric": "map", "n_relevant": {"x": 2}}, "names query 'x'"),
])
def test_multi_query_editor_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        MultiQueryEditor(**kwargs)


# -- the documents' numbers beside the exact ones ------------------------------------------------------------
def test_example_card_flags_a_wrong_printed_value():
    card = example_card("000-map-two-queries")
    text = str(card)
    # MAP = (13/15 + 47/84) / 2 = (364 + 235) / 420 / 2 = 599/840; the document printed 599/420
    assert "post says          599/420" in text and "599/840 ≈ 0.713095" in text
    assert not card.ok and "the post is wrong here" in card._repr_html_()
    assert example_card("000-mrr-three-queries").ok                  # 11/18 printed and exact


def test_erratum_card_and_bad_ids():
    text = str(erratum_card("000-precision-recall-names"))          # a terminology record: not "wrong"
    assert "查准率" in text and "terminology" in text and "the post is wrong here" not in text
    assert "the post is wrong here" in str(erratum_card("000-map-value"))
    with pytest.raises(ValueError, match="is not a worked example or erratum"):
        example_card("no-such-example")


def test_option_values_beyond_the_listed_choices():
    ed = RankingEditor(["a", "b", "c"], [1, 0, 1], metric="p", k=2)
    ed.set_option("k", 6)                  # 2 hits in 6 slots (ranks 4..6 are empty)
    assert ed.explanation.exact == sympy.Rational(1, 3)
    assert find(ed.widget, "ltr-option-k")[0].value == 6
    f = RankingEditor(["a", "b", "c"], [1, 0, 1], metric="f1", k=3)
    f.set_option("beta", sympy.Rational(3, 2))   # P = 2/3, R = 2/2: (13/4)(2/3) / ((9/4)(2/3) + 1) = 13/15
    assert f.explanation.exact == sympy.Rational(13, 15) and f.explanation.name == "F3/2@3"


@pytest.mark.parametrize("before, after", [
    (lt.ndcg([3, 2, 3, 0, 1, 2, 2]), lt.ndcg([3, 2, 3, 1, 1, 2, 2])),
    (lt.err([3, 2, 3, 1], g_max=3), lt.err([3, 3, 3, 1], g_max=3)),
    (lt.average_precision([1, 0, 1, 0, 1, 0, 0]), lt.average_precision([1, 1, 1, 0, 1, 0, 0])),
    (lt.auc([1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1]), lt.auc([1, 0, 1, 0], [0.9, 0.85, 0.8, 0.1])),
], ids=lambda ex: ex.metric)
def test_fast_redraw_matches_a_fresh_drawing(before, after):
    # A widget redraws over a cached image of its axes; the pixels must equal a full draw from scratch.
    import io

    import numpy as np
    from PIL import Image

    names = None if after.metric == "auc" else NAMES[:len(after.steps)]
    reused = Figure(figsize=(7, 3.6), dpi=80)
    render_png(before, names=names, figure=reused, legend=False)
    redrawn = render_png(after, names=names, figure=reused, legend=False)
    fresh = render_png(after, names=names, legend=False)
    pixels = [np.asarray(Image.open(io.BytesIO(png)).convert("RGBA")) for png in (redrawn, fresh)]
    assert pixels[0].shape == pixels[1].shape
    assert (pixels[0] != pixels[1]).any(axis=2).sum() == 0


def test_multi_query_editor_mean_ndcg_shares_its_variants():
    # Document 000's two queries at k = 7; the oracle is the slow exp2 / log2 DCG above.
    mac, sxs = [3, 2, 3, 0, 1, 2, 2], [2, 2, 3, 1, 2, 3, 1]
    ed = MultiQueryEditor({"MAC口红": (NAMES, mac), "神仙水": (NAMES, sxs)}, metric="ndcg", k=7)
    expected = (exp2_dcg(mac) / exp2_dcg(sorted(mac, reverse=True))
                + exp2_dcg(sxs) / exp2_dcg(sorted(sxs, reverse=True))) / 2
    assert float(ed.explanation) == pytest.approx(expected, rel=1e-12)
    ed.editors["神仙水"].set_option("discount", "ln")          # copied to the MAC口红 tab; NDCG ignores the base
    assert ed.editors["MAC口红"].options["discount"] == "ln"
    assert float(ed.explanation) == pytest.approx(expected, rel=1e-12)
    ed.editors["MAC口红"].set_option("k", 1)                  # both at k = 1: grades 3 and 2 against ideal 3 and 3
    assert ed.editors["神仙水"].options["k"] == 1
    assert ed.explanation.exact == (1 + sympy.Rational(3, 7)) / 2
    with pytest.raises(ValueError, match="ideal .* differs per query"):
        MultiQueryEditor({"q": (["a"], [1])}, metric="ndcg", ideal=[1, 2])
