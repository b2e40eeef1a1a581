"""Issue 21: what a screen reader hears on an editor row names the row's item and its rank, in both editions.

What holds, honestly: ipywidgets 8.1 renders a slider with noUiSlider, whose handle (``role="slider"``) gets no
``aria-label``/``aria-labelledby`` and whose ``aria-valuetext`` is the bare number (noUiSlider formats it with the
slider's own ``Math.round``; a ``SelectionSlider``'s is the option's index, not its label). Neither the handle's
accessible name nor its value text can carry the item without JavaScript of our own. So every slider of a row has
its number in a box beside it (``BoundedIntText``/``BoundedFloatText``, the slider's readout), whose ``<label>``
ipywidgets links to the ``<input>``: the box's accessible name is "rank 2, MAC口红: grade" (zh "第 2 位，MAC口红：等级"),
read from a visually hidden label. This test asserts, for every grade and score slider, that the **accessible name
of the number box beside it** (role spinbutton, computed by Chromium) contains the item's name and its rank, that
the box shows the slider's value, that the names follow a move, that the arrow keys in the box move the slider and
the result, and that the hidden label takes no room on screen. It does not (cannot) assert a name on the slider
handle itself.

The notebook is generated here in each edition's folder, so its kernel speaks the edition's language the way a
course notebook's does (``.ltr-teach-language``); the expected words ("rank 2", "第 2 位") are written here, not
taken from the catalogue.
"""

from __future__ import annotations

import re

import nbformat
import pytest
from lab_driver import UI_TIMEOUT_MS, cell_stderr, open_notebook, run_all_cells

KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}

#: A graded editor (Chinese item names, as in document 000), a 0/1 one and the AUC editor (a label and a score
#: slider per row, no move buttons).
CODE = """\
from ltr_teach.widgets import RankingEditor
graded = RankingEditor(["MAC口红", "小棕瓶眼霜", "神仙水", "YSL 小金条"], [3, 0, 2, 1], "ndcg")
graded"""
CODE_BINARY = 'RankingEditor(["面霜", "skII 神仙水", "芦荟霜"], [0, 1, 1], "average_precision")'
CODE_AUC = 'RankingEditor(["a1", "b2", "c3"], [1, 0, 1], "auc", scores=[0.9, 0.5, 0.2])'

#: How each edition says "rank r" (written here by hand).
RANK_WORDS = {"en": "rank {rank},", "zh": "第 {rank} 位"}


def _write(server, lang: str) -> str:
    name = f"{lang}/a11y_slider_names.ipynb"
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in (CODE, CODE_BINARY, CODE_AUC)])
    notebook.metadata["kernelspec"] = dict(KERNELSPEC)
    nbformat.write(notebook, server.root_dir / name)
    return name


def _box_names(editor) -> list[tuple[str, str]]:
    """(accessible name, value) of every spinbutton of the editor, from Chromium's accessibility tree."""
    found = re.findall(r'^\s*- \'?spinbutton "([^"]*)"\'?: "?([^"\n]*)"?$', editor.aria_snapshot(), flags=re.MULTILINE)
    return [(name, value.strip("'\"")) for name, value in found]


def _rows(editor) -> list[dict]:
    """What each row shows to the eye: its item name and, per slider, its visible description and value."""
    rows = []
    for r in range(editor.locator(".ltr-row").count()):
        row = editor.locator(f".ltr-row-{r + 1}")
        sliders = []
        for kind in ("grade", "score"):
            slider = row.locator(f".ltr-{kind}-slider")
            if slider.count():
                sliders.append({"what": slider.locator(".widget-label").inner_text().strip(),
                                "now": float(slider.locator(".noUi-handle").get_attribute("aria-valuenow")),
                                "box": row.locator(f".ltr-{kind}-box input")})
        rows.append({"item": row.locator(".ltr-name").inner_text().strip(), "sliders": sliders})
    return rows


def _assert_every_slider_named(editor, lang: str) -> list[dict]:
    rows = _rows(editor)
    names = _box_names(editor)
    expected = [(r + 1, row["item"], s) for r, row in enumerate(rows) for s in row["sliders"]]
    assert rows and len(names) == len(expected), (names, rows)
    for (rank, item, slider), (name, value) in zip(expected, names, strict=True):
        assert item and item in name, f"row {rank}: the box's name {name!r} does not name its item {item!r}"
        assert RANK_WORDS[lang].format(rank=rank) in name, f"row {rank}: {name!r} does not give the rank"
        assert slider["what"] in name, f"row {rank}: {name!r} does not say what it sets ({slider['what']!r})"
        assert float(value) == slider["now"], f"row {rank}: the box shows {value}, its slider {slider['now']}"
    return rows


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_row_slider_has_a_box_named_by_its_item_and_rank(lang, lab_server, lab_page, save_screenshot):
    from playwright.sync_api import expect

    page, watch = lab_page
    open_notebook(page, lab_server, _write(lab_server, lang))
    run_all_cells(page)
    assert cell_stderr(page) == []
    editors = page.locator(".ltr-editor")
    expect(editors).to_have_count(3, timeout=UI_TIMEOUT_MS)
    for e in range(3):
        editors.nth(e).locator(".ltr-grade-box input").first.wait_for(timeout=UI_TIMEOUT_MS)
        _assert_every_slider_named(editors.nth(e), lang)
    graded = editors.first
    if lang == "zh":  # the edition speaks Chinese: the slider's word is 等级, and so is the name's
        assert "等级" in _box_names(graded)[0][0]

    # the hidden label takes no room: the row is as wide as without it, nothing of it drawn
    widths = page.evaluate("""() => [...document.querySelectorAll('.ltr-grade-box label span')]
                                    .map(s => s.getBoundingClientRect().width)""")
    assert widths and max(widths) <= 1, widths

    # a move: the item moved up is named with its new rank, the one it passed with the old one
    before = _rows(graded)
    graded.locator(".ltr-move-up").nth(1).click()
    expect(graded.locator(".ltr-row-1 .ltr-name")).to_have_text(before[1]["item"], timeout=UI_TIMEOUT_MS)
    expect(graded.locator(".ltr-row-1 .ltr-grade-box input")).to_have_accessible_name(
        re.compile(re.escape(RANK_WORDS[lang].format(rank=1)) + ".*" + re.escape(before[1]["item"])),
        timeout=UI_TIMEOUT_MS)
    rows = _assert_every_slider_named(graded, lang)
    assert [r["item"] for r in rows[:2]] == [before[1]["item"], before[0]["item"]]

    # the keyboard: ArrowUp in a box raises the grade; its slider and the result line follow (the kernel answers)
    box = graded.locator(".ltr-row-3 .ltr-grade-box input")
    old = int(box.input_value())
    result = graded.locator(".ltr-result").inner_text()
    box.focus()
    page.keyboard.press("ArrowUp")
    expect(graded.locator(".ltr-row-3 .ltr-grade-slider .noUi-handle")).to_have_attribute(
        "aria-valuenow", f"{old + 1:.1f}", timeout=UI_TIMEOUT_MS)
    expect(graded.locator(".ltr-result")).not_to_have_text(result, timeout=UI_TIMEOUT_MS)
    _assert_every_slider_named(graded, lang)

    save_screenshot(page, f"slider-names-{lang}", f"{lang}: editors whose sliders have named boxes",
                    close_up=graded)
    assert watch.problems() == []
