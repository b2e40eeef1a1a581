"""The widget notebooks, used the way a student uses them: JupyterLab in Chromium.

For each notebook: open it, clear the saved outputs and run every cell from the Run menu, then
on the notebook's ranking editor move one grade slider with the keyboard and press one "up"
button. After each action the explanation table must show the exact value that the library
computes (in this test process) for the ranking the action should have produced, and the plot
image must have changed. No cell may print an error or a warning, the page may log no error,
and no request may leave 127.0.0.1. A full screenshot of each notebook is saved and its path
printed.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from collections.abc import Callable

import pytest

import ltr_teach as lt
from lab_driver import UI_TIMEOUT_MS, cell_stderr, open_notebook, run_all_cells


@dataclass(frozen=True)
class EditorCase:
    """A notebook and the library function its first ranking editor shows.

    The editor's settings are read from its controls as the student sees them after every cell
    has run (a later cell may have changed them from code); the value shown must be
    ``metric(grades, **settings)`` for the grades on the sliders.
    """

    notebook: str
    metric: Callable[..., lt.Explanation]

    def expected(self, grades, settings) -> lt.Explanation:
        return self.metric(list(grades), **settings)


CASES = [
    EditorCase("04_dcg_ndcg.ipynb", lt.ndcg),
    EditorCase("06_err_cascade.ipynb", lt.err),
]


def _shown_settings(editor) -> dict:
    """The metric keywords the editor's controls show: toggles, drop-downs, sliders."""
    settings = {}
    for name in ("gain", "discount"):
        active = editor.locator(f".ltr-option-{name} .widget-toggle-button.mod-active")
        if active.count():
            settings[name] = active.inner_text().strip()
    for name in ("k", "zero", "beta"):
        select = editor.locator(f".ltr-option-{name} select")
        if select.count():
            text = select.evaluate("s => s.selectedIndex < 0 ? null : s.options[s.selectedIndex].text")
            assert text is not None, f"the {name!r} drop-down shows an empty box (no choice selected)"
            settings[name] = None if text == "all" else (int(text) if text.isdigit() else text)
    for name in ("g_max", "n_relevant"):
        readout = editor.locator(f".ltr-option-{name} .widget-readout")
        if readout.count():
            settings[name] = int(readout.inner_text())
    return settings


def _names(editor) -> list[str]:
    return [name.inner_text().strip() for name in editor.locator(".ltr-name").all()]


def _grades(editor) -> list[int]:
    return [int(readout.inner_text()) for readout in editor.locator(".ltr-grade-slider .widget-readout").all()]


def _plot_digest(page, editor) -> tuple[str, str]:
    """The plot's blob URL and the SHA-256 of the PNG bytes the browser holds for it."""
    return page.evaluate(
        """async (img) => {
             const bytes = new Uint8Array(await (await fetch(img.src)).arrayBuffer());
             const digest = await crypto.subtle.digest('SHA-256', bytes);
             return [img.src, [...new Uint8Array(digest)].map(b => b.toString(16).padStart(2, '0')).join('')];
           }""",
        editor.locator("img.ltr-plot").element_handle(),
    )


def _wait_for_new_plot(page, editor, old_src: str) -> None:
    page.wait_for_function(
        "([img, old]) => img.src !== old && img.complete && img.naturalWidth > 0",
        arg=[editor.locator("img.ltr-plot").element_handle(), old_src],
        timeout=UI_TIMEOUT_MS,
    )


def _expect_value(editor, explanation: lt.Explanation) -> None:
    """The headline and the table's last line both show the library's exact result."""
    from playwright.sync_api import expect

    line = explanation.result_line()
    expect(editor.locator(".ltr-result")).to_have_text(line, timeout=UI_TIMEOUT_MS)
    expect(editor.locator(".ltr-table")).to_contain_text(line, timeout=UI_TIMEOUT_MS)


def _a_grade_change(case, grades, settings, top) -> tuple[int, str, list[int]]:
    """A slider (row index), the key to press and the grades it gives, chosen so the value moves.

    A change the metric cannot see (say below a cut-off) would let a stale table pass.
    """
    before = case.expected(grades, settings).exact
    for row, grade in enumerate(grades):
        for key, step in (("ArrowRight", 1), ("ArrowLeft", -1)):
            if 0 <= grade + step <= top:
                changed = grades[:row] + [grade + step] + grades[row + 1:]
                if case.expected(changed, settings).exact != before:
                    return row, key, changed
    raise AssertionError(f"no single grade step changes {case.notebook}'s value for grades {grades}")


def _a_move_up(case, grades, settings) -> int:
    """The first row (index >= 1) whose "up" button changes the value."""
    before = case.expected(grades, settings).exact
    for row in range(1, len(grades)):
        moved = grades[:row - 1] + [grades[row], grades[row - 1]] + grades[row + 1:]
        if case.expected(moved, settings).exact != before:
            return row
    raise AssertionError(f"no move up changes {case.notebook}'s value for grades {grades}")


def _unrenderable_characters(page, element) -> list[str]:
    """Characters of ``element``'s text that its font stack draws as the missing-glyph box.

    Each character is drawn on a canvas with the element's computed font and compared with a
    code point no font has (U+10FFFD, private use): an identical drawing means "tofu".
    """
    return page.evaluate(
        """(el) => {
             const font = getComputedStyle(el).font;
             const canvas = document.createElement('canvas');
             canvas.width = 64; canvas.height = 64;
             const ctx = canvas.getContext('2d', {willReadFrequently: true});
             const draw = (ch) => {
               ctx.clearRect(0, 0, 64, 64);
               ctx.font = font; ctx.textBaseline = 'top'; ctx.fillText(ch, 4, 4);
               return ctx.getImageData(0, 0, 64, 64).data.join(',');
             };
             const tofu = draw(String.fromCodePoint(0x10FFFD));
             return [...new Set(el.innerText)].filter(ch => ch.trim() && draw(ch) === tofu);
           }""",
        element.element_handle(),
    )


@pytest.mark.parametrize("case", CASES, ids=[c.notebook for c in CASES])
def test_ranking_editor_in_jupyterlab(case, lab_server, lab_page, save_screenshot):
    from playwright.sync_api import expect

    page, watch = lab_page
    open_notebook(page, lab_server, case.notebook)
    run_all_cells(page)

    editor = page.locator(".ltr-editor").first
    editor.scroll_into_view_if_needed()
    expect(editor.locator("img.ltr-plot")).to_be_visible()
    names, grades, settings = _names(editor), _grades(editor), _shown_settings(editor)
    assert names and len(names) == len(grades), (names, grades)

    # Before any interaction: the library's value for the grades and settings on screen.
    _expect_value(editor, case.expected(grades, settings))

    # 1. A grade slider, moved one step with the keyboard on its handle.
    handle = editor.locator(".ltr-grade-slider .noUi-handle")
    top = round(float(handle.first.get_attribute("aria-valuemax")))
    row, key, new_grades = _a_grade_change(case, grades, settings, top)
    src, digest = _plot_digest(page, editor)
    shot = editor.locator("img.ltr-plot").screenshot()
    handle.nth(row).focus()
    page.keyboard.press(key)
    _expect_value(editor, case.expected(new_grades, settings))
    assert _grades(editor) == new_grades
    _wait_for_new_plot(page, editor, src)
    src_after, digest_after = _plot_digest(page, editor)
    assert digest_after != digest, "the plot's PNG did not change after the slider moved"
    assert editor.locator("img.ltr-plot").screenshot() != shot, "the plot on screen did not change"

    # 2. The "up" button of a row: that item and the one above it swap ranks.
    up_row = _a_move_up(case, new_grades, settings)
    moved_grades = new_grades[:up_row - 1] + [new_grades[up_row], new_grades[up_row - 1]] + new_grades[up_row + 1:]
    moved_names = names[:up_row - 1] + [names[up_row], names[up_row - 1]] + names[up_row + 1:]
    shot = editor.locator("img.ltr-plot").screenshot()
    editor.locator(".ltr-move-up").nth(up_row).click()
    _expect_value(editor, case.expected(moved_grades, settings))
    assert _grades(editor) == moved_grades
    assert _names(editor) == moved_names
    _wait_for_new_plot(page, editor, src_after)
    assert _plot_digest(page, editor)[1] != digest_after, "the plot's PNG did not change after the move"
    assert editor.locator("img.ltr-plot").screenshot() != shot, "the plot on screen did not change"

    # What the student reads: names drawn with real glyphs, no warning or traceback in a cell.
    for name in editor.locator(".ltr-name").all():
        assert _unrenderable_characters(page, name) == [], f"{name.inner_text()!r} shows missing-glyph boxes"
    assert _unrenderable_characters(page, editor.locator(".ltr-table")) == []
    assert cell_stderr(page) == []

    save_screenshot(page, case.notebook.removesuffix(".ipynb"), f"{case.notebook} after a slider step and a move up",
                    close_up=editor)

    assert watch.problems() == []
