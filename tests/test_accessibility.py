"""Issue 13's accessibility: one colour-blind-safe palette with a second cue, alt text, accessible names, text sizes.

* every plot the library draws colours its data only from :data:`ltr_teach.core.palette.PALETTE`, its lines
  differ in line style or marker, and bars of two colours side by side differ in hatch too;
* every plot carries a description (``figure.ltr_alt_text``) naming the metric, each series with how it is
  drawn, and the result, in English and in Chinese; the editors' image has it as its title, kept current;
* every control of the editors and panels (slider, button, drop-down, toggle, check box) has a non-empty
  accessible name (its description or tooltip, each toggle button its tooltip) in both languages, and the
  Chinese one is Chinese;
* no text of a plot is smaller than 10 pt (11 px at the editors' 80 dpi).
* (issue 21) every slider of an editor row has its number in a box beside it whose hidden label names the
  rank, the item and what the slider sets, in both languages, and follows moves and grade changes (the
  browser check of the accessible name Chromium computes is tests/browser/test_slider_names_browser.py).
"""

import re

import ipywidgets as W
import matplotlib
import pytest
from matplotlib.colors import to_hex
from matplotlib.figure import Figure

import ltr_teach as lt
from ltr_teach.core.glossary import english_sentences
from ltr_teach.core.i18n import using_language
from ltr_teach.core.palette import PALETTE
from ltr_teach.interactive import panels, plots
from ltr_teach.interactive.widgets import MultiQueryEditor, RankingEditor

matplotlib.use("Agg")

QRELS = {"q1": {"a": 1, "b": 0}, "q2": {"a": 1, "b": 1}, "q3": {"b": 1}, "q4": {"a": 2, "c": 1}}
RUNS = {"A": {"q1": {"a": 1.0, "b": 2.0}, "q2": {"a": 2.0, "b": 1.0}, "q3": {"a": 1.0, "b": 0.5}, "q4": {"c": 2.0, "a": 1.0}},
        "B": {"q1": {"a": 2.0, "b": 1.0}, "q2": {"a": 2.0, "b": 1.0}, "q3": {"b": 1.0, "a": 0.5}, "q4": {"a": 1.0, "c": 2.0}}}

#: One explanation per plotter (and per branch of the precision plotter).
EXPLANATIONS = {
    "ndcg": lambda: lt.ndcg([3, 2, 3, 0, 1, 2, 2], k=7), "dcg": lambda: lt.dcg([3, 2, 3]), "cg": lambda: lt.cg([3, 2]),
    "idcg": lambda: lt.idcg([3, 2]), "err": lambda: lt.err([3, 2, 3, 1], g_max=3),
    "ap": lambda: lt.average_precision([1, 0, 1, 0]), "rr": lambda: lt.reciprocal_rank([0, 1, 0]),
    "p": lambda: lt.precision_at_k([1, 0, 1], k=3), "r": lambda: lt.recall_at_k([1, 0, 1], k=3, n_relevant=3),
    "mrr": lambda: lt.mrr([[0, 1], [1, 0]]), "map": lambda: lt.mean_average_precision([[0, 1], [1, 0]]),
    "auc": lambda: lt.auc([1, 0, 1, 0], [0.9, 0.8, 0.4, 0.2]),
    "iprec": lambda: lt.interpolated_precision([1, 0, 1, 0], n_relevant=2),
}


def _drawn(name):
    if name == "run differences":
        return plots.plot_run_differences(lt.compare_runs(QRELS, RUNS, "mrr"), ax=Figure().add_subplot())
    return plots.plot_explanation(EXPLANATIONS[name](), ax=Figure().add_subplot(), names=None)


PLOTS = [*EXPLANATIONS, "run differences"]
PALETTE_HEX = {c.lower() for c in PALETTE.values()}


def _colours(ax):
    """Every colour the data artists use (faces of bars and areas, lines), as hex without alpha."""
    found = []
    for patch in ax.patches:
        found.append(to_hex(patch.get_facecolor()))
    for line in ax.lines:
        found.append(to_hex(line.get_color()))
    for collection in ax.collections:
        found += [to_hex(c) for c in collection.get_facecolors()]
    return found


@pytest.mark.parametrize("name", PLOTS)
def test_every_plot_colours_its_data_from_the_palette(name):
    colours = _colours(_drawn(name))
    assert colours and set(colours) <= PALETTE_HEX, set(colours) - PALETTE_HEX


@pytest.mark.parametrize("name", PLOTS)
def test_colour_is_never_the_only_cue(name):
    ax = _drawn(name)
    lines = [(line.get_linestyle(), str(line.get_marker())) for line in ax.lines
             if not (line.get_linestyle() == "-" and str(line.get_marker()) == "None" and to_hex(line.get_color()) == "#000000")]
    assert len(set(lines)) == len(lines), f"two lines differ only in colour: {lines}"
    for container in ax.containers:
        styles = {}
        for bar in container.patches:
            styles.setdefault(to_hex(bar.get_facecolor()), set()).add(bar.get_hatch() or "")
        hatches = [h for hs in styles.values() for h in hs]
        assert len(hatches) == len(styles) == len(set(hatches)), f"bars of colours {list(styles)} share a hatch"


def test_the_precision_plot_hatches_exactly_the_non_relevant_bars():
    # rels 1, 0, 1, 0: ranks 2 and 4 are not relevant
    ax = _drawn("ap")
    assert [bool(bar.get_hatch()) for bar in ax.containers[0].patches] == [False, True, False, True]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", PLOTS)
def test_every_plot_has_alt_text_naming_metric_series_and_result(name, lang):
    with using_language(lang):
        ax = _drawn(name)
        alt = ax.figure.ltr_alt_text
        labels = ax.get_legend_handles_labels()[1]
    assert len(alt) > 30 and all(label in alt for label in labels), alt
    if name != "run differences":
        assert plots.short_title(EXPLANATIONS[name]()) in alt
    if lang == "zh":
        assert re.search(r"[\u4e00-\u9fff]", alt) and not english_sentences(alt), alt


def test_the_alt_text_says_which_bars_are_relevant_without_colour():
    with using_language("zh"):
        alt = _drawn("p").figure.ltr_alt_text
    assert "灰色斜线柱：不相关" in alt and "带圆点" not in alt and "圆点" in alt  # hits are circles, no line


def test_the_editor_image_carries_the_alt_text_and_keeps_it_current():
    editor = RankingEditor(["口红", "面霜", "神仙水"], [3, 0, 2], "ndcg")
    assert editor.plot.tooltip == editor._figure.ltr_alt_text and "口红" in editor.plot.tooltip
    editor.set_grade(1, 3)  # 3, 3, 2 is ideal: NDCG = 1
    assert editor.plot.tooltip.endswith("Result: NDCG = 1.") and editor.plot.tooltip == editor._figure.ltr_alt_text


@pytest.mark.parametrize("name", PLOTS)
def test_no_plot_text_is_smaller_than_10_points(name):
    ax = _drawn(name)
    texts = [ax.title, ax.xaxis.label, ax.yaxis.label, *ax.get_xticklabels(), *ax.get_yticklabels()]
    if ax.get_legend():
        texts += ax.get_legend().get_texts()
    sizes = {t.get_text(): t.get_fontsize() for t in texts if t.get_text()}
    assert sizes and min(sizes.values()) >= 10, sizes
    assert min(sizes.values()) * 80 / 72 >= 11  # pixels at the editors' 80 dpi


# -- accessible names of the controls ---------------------------------------------------------------------

def _editors():
    yield "ndcg editor", lambda: RankingEditor(["口红", "面霜", "神仙水"], [3, 0, 2], "ndcg", ideal=[3, 2, 2, 1])
    yield "err editor", lambda: RankingEditor(["a", "b"], [2, 1], "err", g_max=3)
    yield "ap editor", lambda: RankingEditor(["a", "b", "c"], [1, 0, 1], "average_precision", n_relevant=4)
    yield "f editor", lambda: RankingEditor(["a", "b", "c"], [1, 0, 1], "f_beta", k=2)
    yield "auc editor", lambda: RankingEditor(["a", "b", "c"], [1, 0, 1], "auc", scores=[0.9, 0.5, 0.2])
    yield "map editor", lambda: MultiQueryEditor({"眼霜": (["小棕瓶精华", "小棕瓶眼霜"], [0, 1]),
                                                  "神仙水": (["skII 神仙水", "兰蔻粉水"], [1, 0])}, "map")
    yield "errata browser", panels.ErratumBrowser
    yield "convention switcher", lambda: panels.ConventionSwitcher(lt.compare_conventions([0, 3, 2], ideal=[3, 2, 0, 2]))
    yield "dashboard", lambda: panels.MetricsDashboard(
        RankingEditor(["a", "b", "c"], [0, 2, 1]),
        lt.MetricSuite({"RR": ("reciprocal_rank", {"threshold": 2}), "P@2": ("precision_at_k", {"k": 2, "threshold": 2})}))


EDITORS = dict(_editors())
CONTROLS = (W.Button, W.IntSlider, W.FloatSlider, W.Dropdown, W.ToggleButtons, W.Checkbox, W.IntText, W.Text,
            W.BoundedIntText, W.BoundedFloatText)


def _controls(widget):
    found = [widget] if isinstance(widget, CONTROLS) else []
    for child in getattr(widget, "children", ()):
        found += _controls(child)
    return found


def _names(control):
    """The accessible names of a control: its description or tooltip; a toggle's buttons: each tooltip."""
    if isinstance(control, W.ToggleButtons):
        return [tip for tip in control.tooltips] + [control.description]
    return [control.tooltip or control.description]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", list(EDITORS))
def test_every_control_has_an_accessible_name(name, lang):
    with using_language(lang):
        shown = EDITORS[name]()
        controls = _controls(shown.widget)
        names = [(type(c).__name__, n) for c in controls for n in _names(c)]
    assert controls and all(n and n.strip() for _, n in names), names
    if isinstance(shown, (RankingEditor, MultiQueryEditor)):
        assert any(isinstance(c, W.IntSlider) for c in controls) and any(isinstance(c, W.Button) for c in controls) \
            or name == "auc editor"
    if lang == "zh":
        english = [(kind, n) for kind, n in names if english_sentences(n) or not re.search(r"[\u4e00-\u9fff]", n)]
        assert not english, english


def test_a_row_control_names_its_item_and_rank():
    with using_language("zh"):
        editor = RankingEditor(["口红", "面霜"], [3, 0], "ndcg")
        expected = lt.core.i18n._("{what} of {name} (rank {rank})").format(what="等级", name="面霜", rank=2)
    second = editor._rows[1]
    assert second["grade"].tooltip == expected and "面霜" in expected and "2" in expected
    assert "面霜" in second["up"].tooltip and "面霜" in second["down"].tooltip


# -- the row's number box: the control a screen reader names (issue 21) -------------------------------------

def _hidden_text(description: str) -> str:
    """The words of a box's description: one visually hidden span (its style checked), the text inside."""
    match = re.fullmatch(r'<span style="([^"]*)">([^<]*)</span>', description)
    assert match, description
    assert "position:absolute" in match[1] and "width:1px" in match[1] and "overflow:hidden" in match[1], match[1]
    return match[2].replace("&amp;", "&")


@pytest.mark.parametrize(("lang", "expected", "moved"), [
    ("en", ["rank 1, MAC口红: grade", "rank 2, A&B 面霜: grade", "rank 3, 神仙水: grade"],
     ["rank 1, A&B 面霜: grade", "rank 2, MAC口红: grade", "rank 3, 神仙水: grade"]),
    ("zh", ["第 1 位，MAC口红：等级", "第 2 位，A&B 面霜：等级", "第 3 位，神仙水：等级"],
     ["第 1 位，A&B 面霜：等级", "第 2 位，MAC口红：等级", "第 3 位，神仙水：等级"]),
])
def test_every_grade_slider_has_a_number_box_named_by_rank_and_item(lang, expected, moved):
    with using_language(lang):
        editor = RankingEditor(["MAC口红", "A&B 面霜", "神仙水"], [3, 0, 2], "ndcg")
        rows = editor._rows
        assert [_hidden_text(r["grade_box"].description) for r in rows] == expected
        assert [(r["grade"].value, r["grade_box"].value, r["grade_box"].max) for r in rows] == [(3, 3, 3), (0, 0, 3), (2, 2, 3)]
        assert all(r["grade"].readout is False for r in rows)  # the box is the readout: the number is shown once
        editor.move(1, 0)  # A&B 面霜 up to rank 1: the names follow the items
        assert [_hidden_text(r["grade_box"].description) for r in rows] == moved
        rows[2]["grade_box"].value = 1  # typed (or arrowed) in the box: the grade, the slider and the value follow
        assert list(editor.grades) == [0, 3, 1] and rows[2]["grade"].value == 1
        assert editor.explanation.exact == lt.ndcg([0, 3, 1]).exact
        rows[0]["grade"].value = 2  # the slider moved: its box follows
        assert rows[0]["grade_box"].value == 2 and list(editor.grades) == [2, 3, 1]


def test_the_auc_editor_names_its_label_and_score_boxes():
    with using_language("zh"):
        editor = RankingEditor(["a", "b"], [1, 0], "auc", scores=[0.9, 0.2])
        row = editor._rows[1]
        assert _hidden_text(row["grade_box"].description) == "第 2 位，b：标签"
        assert _hidden_text(row["score_box"].description) == "第 2 位，b：得分"
    row["score_box"].value = 0.65
    assert editor.scores[1] == 0.65 and row["score"].value == 0.65
    # AUC of labels [1, 0] with scores [0.9, 0.65]: the positive outranks the negative, so 1 (by hand)
    assert editor.explanation.exact == 1


def test_a_new_top_grade_raises_the_boxes_maximum_too():
    editor = RankingEditor(["a", "b"], [2, 1], "err", g_max=3)
    editor.set_option("g_max", 5)  # ERR's top grade widens the grade scale
    assert all(r["grade"].max == r["grade_box"].max == editor.max_grade for r in editor._rows)
    assert editor.max_grade == 5
