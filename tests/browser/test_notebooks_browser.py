"""The widget notebooks, used the way a student uses them: JupyterLab in Chromium.

For each notebook: open it, clear the saved outputs and run every cell from the Run menu, then
on the notebook's ranking editor move one grade slider with the keyboard and press one "up"
button. After each action the explanation table must show the exact value that the library
computes (in this test process) for the ranking the action should have produced, and the plot
image must have changed (for 03, whose editor is one tab of a two-query MAP editor, the MAP
panel too). No cell may print an error or a warning, no item name may be drawn as missing-glyph
boxes, the page may log no error, and no request may leave 127.0.0.1. A screenshot of the whole
notebook and a close-up of the editor are saved after the interaction and their paths printed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from lab_driver import UI_TIMEOUT_MS, cell_stderr, open_notebook, run_all_cells

import ltr_teach as lt


@dataclass(frozen=True)
class EditorCase:
    """A notebook and the library functions its first ranking editor shows.

    The editor's settings are read from its controls as the student sees them after every cell
    has run (a later cell may have changed them from code); the value shown must be
    ``metric(grades, **settings)`` for the grades on the sliders. For a notebook whose editor
    is one tab of a multi-query editor, ``mean(rankings, settings)`` (both dicts keyed by the
    tab titles) is the value the multi-query panel must show.
    """

    notebook: str
    metric: Callable[..., lt.Explanation]
    mean: Callable[[dict, dict], lt.Explanation] | None = None

    def expected(self, grades, settings) -> lt.Explanation:
        return self.metric(list(grades), **settings)


def _map_over_tabs(rankings: dict, settings: dict) -> lt.Explanation:
    return lt.mean_average_precision(rankings, n_relevant={q: s["n_relevant"] for q, s in settings.items()})


CASES = [
    EditorCase("en/04_dcg_ndcg.ipynb", lt.ndcg),
    EditorCase("en/06_err_cascade.ipynb", lt.err),
    EditorCase("en/03_ap_map.ipynb", lt.average_precision, mean=_map_over_tabs),
]


@dataclass(frozen=True)
class Panel:
    """Where a value is shown: the headline, the explanation table and the plot image."""

    result: object
    table: object
    plot: object

    @classmethod
    def of_editor(cls, editor) -> Panel:
        return cls(editor.locator(".ltr-result"), editor.locator(".ltr-table"), editor.locator("img.ltr-plot"))

    @classmethod
    def of_multi_editor(cls, multi) -> Panel:
        # Its own children only: the per-query editors in its tabs have a headline and plot too.
        return cls(multi.locator(":scope > .ltr-result"), multi.locator(":scope > .ltr-table"),
                   multi.locator(":scope > img.ltr-plot"))


def _text(locator) -> str:
    """Text of an element, also in a tab that is not shown (innerText is empty there)."""
    return locator.text_content().strip()


def _option_keys() -> dict:
    """The library keyword behind each option label an editor shows, in either language (指数, exponential: exp2)."""
    from ltr_teach.core.i18n import translate, using_language
    from ltr_teach.interactive.widgets import _OPTION_LABELS

    keys = {}
    for language in ("en", "zh"):
        with using_language(language):
            keys.update({translate(label): key for key, label in _OPTION_LABELS.items()})
    return keys


def _shown_settings(editor) -> dict:
    """The metric keywords the editor's controls show: toggles, drop-downs, sliders."""
    settings, keys = {}, _option_keys()
    for name in ("gain", "discount"):
        active = editor.locator(f".ltr-option-{name} .widget-toggle-button.mod-active")
        if active.count():
            settings[name] = keys.get(_text(active), _text(active))
    for name in ("k", "zero", "beta"):
        select = editor.locator(f".ltr-option-{name} select")
        if select.count():
            text = select.evaluate("s => s.selectedIndex < 0 ? null : s.options[s.selectedIndex].text")
            assert text is not None, f"the {name!r} drop-down shows an empty box (no choice selected)"
            if name == "zero":
                settings[name] = keys[text]
            else:
                settings[name] = None if text in ("all", "全部") else (int(text) if text.isdigit() else text)
    for name in ("g_max", "n_relevant"):
        readout = editor.locator(f".ltr-option-{name} .widget-readout")
        if readout.count():
            settings[name] = int(_text(readout))
    return settings


def _settings_after(settings: dict, old: list[int], new: list[int]) -> dict:
    """``n_relevant`` counts the relevant documents of the whole collection: the ones the ranking
    misses stay missed, so it follows the number of relevant items on the sliders."""
    if "n_relevant" not in settings:
        return settings
    found = sum(g > 0 for g in new) - sum(g > 0 for g in old)
    return {**settings, "n_relevant": settings["n_relevant"] + found}


def _names(editor) -> list[str]:
    return [_text(name) for name in editor.locator(".ltr-name").all()]


def _grades(editor) -> list[int]:
    return [int(_text(readout)) for readout in editor.locator(".ltr-grade-slider .widget-readout").all()]


def _tabs(multi) -> tuple[dict, dict]:
    """Grades and settings of every query of a multi-query editor, keyed by tab title."""
    titles = [_text(t) for t in multi.locator(".ltr-query-tabs .lm-TabBar-tab .lm-TabBar-tabLabel").all()]
    editors = multi.locator(".ltr-query-tabs .ltr-editor").all()
    assert titles and len(titles) == len(editors), (titles, len(editors))
    return ({t: _grades(e) for t, e in zip(titles, editors)}, {t: _shown_settings(e) for t, e in zip(titles, editors)})


def _plot_digest(page, panel: Panel) -> tuple[str, str]:
    """The plot's blob URL and the SHA-256 of the PNG bytes the browser holds for it."""
    return page.evaluate(
        """async (img) => {
             const bytes = new Uint8Array(await (await fetch(img.src)).arrayBuffer());
             const digest = await crypto.subtle.digest('SHA-256', bytes);
             return [img.src, [...new Uint8Array(digest)].map(b => b.toString(16).padStart(2, '0')).join('')];
           }""",
        panel.plot.element_handle(),
    )


def _expect_value(panel: Panel, explanation: lt.Explanation) -> None:
    """The headline and the table's last line both show the library's exact result."""
    from playwright.sync_api import expect

    line = explanation.result_line()
    expect(panel.result).to_have_text(line, timeout=UI_TIMEOUT_MS)
    expect(panel.table).to_contain_text(line, timeout=UI_TIMEOUT_MS)


class PlotWatch:
    """Remembers a panel's plot (PNG bytes and pixels on screen) to assert it was redrawn."""

    def __init__(self, page, panel: Panel):
        self.page, self.panel = page, panel
        self.src, self.digest = _plot_digest(page, panel)
        self.pixels = panel.plot.screenshot()

    def assert_redrawn(self, action: str) -> None:
        self.page.wait_for_function(
            "([img, old]) => img.src !== old && img.complete && img.naturalWidth > 0",
            arg=[self.panel.plot.element_handle(), self.src],
            timeout=UI_TIMEOUT_MS,
        )
        assert _plot_digest(self.page, self.panel)[1] != self.digest, f"the plot's PNG did not change after {action}"
        assert self.panel.plot.screenshot() != self.pixels, f"the plot on screen did not change after {action}"


def _a_grade_change(case, grades, settings, top) -> tuple[int, str, list[int]]:
    """A slider (row index), the key to press and the grades it gives, chosen so the value moves.

    A change the metric cannot see (say below a cut-off) would let a stale table pass.
    """
    before = case.expected(grades, settings).exact
    for row, grade in enumerate(grades):
        for key, step in (("ArrowRight", 1), ("ArrowLeft", -1)):
            if 0 <= grade + step <= top:
                changed = grades[:row] + [grade + step] + grades[row + 1:]
                if case.expected(changed, _settings_after(settings, grades, changed)).exact != before:
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

    multi = page.locator(".ltr-multi-editor").first if case.mean else None
    editor = (multi if multi else page).locator(".ltr-editor").first
    editor.scroll_into_view_if_needed()
    expect(editor.locator("img.ltr-plot")).to_be_visible(timeout=UI_TIMEOUT_MS)
    names, grades, settings = _names(editor), _grades(editor), _shown_settings(editor)
    assert names and len(names) == len(grades), (names, grades)
    panels = [Panel.of_editor(editor)] + ([Panel.of_multi_editor(multi)] if multi else [])
    if multi:
        tab_grades, tab_settings = _tabs(multi)
        first_tab = next(iter(tab_grades))
        assert tab_grades[first_tab] == grades, "the first editor is not the first tab's"

    def check(new_grades, new_settings) -> None:
        """Editor (and multi-query panel) show the library's values for ``new_grades``."""
        _expect_value(panels[0], case.expected(new_grades, new_settings))
        assert _grades(editor) == new_grades
        assert _shown_settings(editor) == new_settings
        if multi:
            _expect_value(panels[1], case.mean({**tab_grades, first_tab: new_grades},
                                               {**tab_settings, first_tab: new_settings}))

    # Before any interaction: the library's value for the grades and settings on screen.
    check(grades, settings)

    # 1. A grade slider, moved one step with the keyboard on its handle.
    handle = editor.locator(".ltr-grade-slider .noUi-handle")
    top = round(float(handle.first.get_attribute("aria-valuemax")))
    row, key, new_grades = _a_grade_change(case, grades, settings, top)
    new_settings = _settings_after(settings, grades, new_grades)
    plots = [PlotWatch(page, panel) for panel in panels]
    handle.nth(row).focus()
    page.keyboard.press(key)
    check(new_grades, new_settings)
    for plot in plots:
        plot.assert_redrawn(f"{key} on the grade slider of row {row + 1}")

    # 2. The "up" button of a row: that item and the one above it swap ranks.
    up_row = _a_move_up(case, new_grades, new_settings)
    moved_grades = new_grades[:up_row - 1] + [new_grades[up_row], new_grades[up_row - 1]] + new_grades[up_row + 1:]
    moved_names = names[:up_row - 1] + [names[up_row], names[up_row - 1]] + names[up_row + 1:]
    plots = [PlotWatch(page, panel) for panel in panels]
    editor.locator(".ltr-move-up").nth(up_row).click()
    check(moved_grades, new_settings)
    assert _names(editor) == moved_names
    for plot in plots:
        plot.assert_redrawn(f"'up' on row {up_row + 1}")

    # What the student reads: names drawn with real glyphs, no warning or traceback in a cell.
    for name in editor.locator(".ltr-name").all():
        assert _unrenderable_characters(page, name) == [], f"{name.inner_text()!r} shows missing-glyph boxes"
    for panel in panels:
        assert _unrenderable_characters(page, panel.table) == []
    assert cell_stderr(page) == []

    save_screenshot(page, case.notebook.removesuffix(".ipynb"), f"{case.notebook} after a slider step and a move up",
                    close_up=multi if multi else editor)

    assert watch.problems() == []
