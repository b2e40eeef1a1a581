"""Every saved widget output shows its starting state without a kernel (issue 29): never a one-line repr.

A saved notebook keeps a widget's view without its state, so GitHub, nbviewer and the website show the
output's other forms. Scanned here: every output of every notebook of both editions (tutorials, start page,
exercise sheets) that holds a widget view must carry HTML that shows it: an ``lt.ask`` question, or the
snapshot of an editor or panel (``ltr-still-widget``), whose plots are inline images with alt text. Then
:func:`~ltr_teach.interactive.static_html.widget_html` itself, on the editors and on hostile widgets.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import ipywidgets as W
import pytest

from ltr_teach.interactive.static_html import widget_html
from ltr_teach.interactive.widgets import MultiQueryEditor, RankingEditor

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted([*REPO.glob("notebooks/*.ipynb"), *REPO.glob("notebooks/*/*.ipynb"), *REPO.glob("exercises/*/*.ipynb")])
WIDGET = "application/vnd.jupyter.widget-view+json"


def _widget_outputs():
    for path in NOTEBOOKS:
        notebook = json.loads(path.read_text(encoding="utf-8"))
        for n, cell in enumerate(notebook["cells"]):
            for output in cell.get("outputs", []):
                if WIDGET in output.get("data", {}):
                    yield path.relative_to(REPO), n, output["data"]


def test_both_editions_are_scanned():
    editions = {path.relative_to(REPO).parts[1] for path in NOTEBOOKS if len(path.relative_to(REPO).parts) == 3}
    assert {"zh", "en"} <= editions


def test_no_saved_widget_output_is_a_one_line_repr():
    found = 0
    for path, cell, data in _widget_outputs():
        shown = "".join(data.get("text/html", []))
        assert shown, f"{path} cell {cell}: a widget saved with text only: {''.join(data['text/plain'])[:80]!r}"
        assert "ltr-still-widget" in shown or "ltr-ask-static" in shown, f"{path} cell {cell}"
        found += 1
    assert found >= 2 * 19 + 2 * 80   # the 19 editors and panels and the self-tests of each edition


def test_every_saved_plot_has_its_alt_text():
    plots = 0
    for path, cell, data in _widget_outputs():
        shown = "".join(data.get("text/html", []))
        for image in re.findall(r"<img [^>]*>", shown):
            assert "src='data:image/png;base64," in image, f"{path} cell {cell}: an image not inline"
            alt = re.search(r"alt='([^']*)'", image)
            assert alt and len(alt.group(1)) > 20, f"{path} cell {cell}: a plot without alt text"
            plots += 1
    assert plots >= 2 * 12


def test_an_editor_snapshot_shows_its_table_plot_and_grades():
    editor = RankingEditor(["a", "b", "c"], [3, 0, 1], metric="ndcg")
    shown = editor._repr_mimebundle_()["text/html"]
    assert "<table" in shown and "data:image/png;base64," in shown
    # the grades as set, in rank order, each a disabled control a screen reader names
    assert re.findall(r"<input type='number' value='(\d)' disabled aria-label='rank (\d)", shown) == [
        ("3", "1"), ("0", "2"), ("1", "3")]
    # the result line as the editor prints it: NDCG of 3, 0, 1 = (7 + 0 + 1/2) / (7 + 1/log2 3 + 0) = 0.982842...
    assert "0.982842" in shown
    assert "<script" not in shown.lower()


def test_the_snapshot_is_the_state_at_display():
    editor = MultiQueryEditor({"q1": (["a", "b"], [1, 0]), "q2": (["c", "d"], [0, 1])}, metric="mrr")
    before = widget_html(editor.widget)
    assert "3/4" in before      # MRR of ranks 1 and 2: (1 + 1/2) / 2
    assert widget_html(editor.widget) == before   # the same state gives the same HTML, byte for byte


@pytest.mark.parametrize("widget, absent, present", [
    (W.Label("<script>alert(1)</script>"), "<script>", "&lt;script&gt;"),
    (W.Text(value="' onfocus='x", description="a\"b"), "' onfocus='x'", "&#x27; onfocus=&#x27;x"),
    (W.Image(value=b""), "<img", ""),
    (W.HTML("shown", layout=W.Layout(display="none")), "shown", ""),
    (W.Tab(children=[W.Label("one"), W.Label("two")], titles=("A", "B")), "two", "one"),
    (W.Tab(children=[]), "<li", "ltr-still-tabs"),
    (W.Dropdown(options=[("x", 1), ("y", 2)], value=2, description="pick"), ">x<", ">y<"),
    (W.IntProgress(value=3, max=10, description="made"), "<script", ">3<"),
])
def test_hostile_and_unusual_widgets(widget, absent, present):
    shown = widget_html(W.VBox([widget]), css=False)
    assert absent not in shown
    assert present in shown
