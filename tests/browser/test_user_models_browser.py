"""Notebook 12 (English edition) in JupyterLab: the persistence slider, and a "create" exercise answered
through its ``lt.ask`` box, first wrong then right.

What the page shows is compared with the library's own numbers for the same input (``lt.rbp`` and
``lt.check``), computed here in the test process, never with text copied from a saved output.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from lab_driver import UI_TIMEOUT_MS, cell_stderr, open_notebook, run_all_cells

import ltr_teach as lt
from ltr_teach.interactive.plots import short_title

NOTEBOOK = "en/12_user_models.ipynb"
#: Post 000's lipstick grades, as the notebook's explorer holds them.
LIPSTICK = [3, 2, 3, 0, 1, 2, 2]
CREATE_ID = "err-prefers-a-rbp-prefers-b"
#: Reversed: ERR prefers B here, so the verifier refuses it; then the right way round.
WRONG, RIGHT = "[1, 1, 1, 1, 1] [3, 0, 0, 0, 0]", "[3, 0, 0, 0, 0] [1, 1, 1, 1, 1]"


@pytest.fixture
def english():
    """The test's own library messages in English, as the English edition's kernel shows them."""
    before = lt.get_language()
    lt.set_language("en")
    yield
    lt.set_language(before)


def _plot_source(explorer) -> str:
    return explorer.locator("img.ltr-plot").get_attribute("src") or ""


def test_persistence_slider_and_a_create_exercise(lab_server, lab_page, save_screenshot, english):
    from playwright.sync_api import expect

    page, watch = lab_page
    open_notebook(page, lab_server, NOTEBOOK)
    run_all_cells(page)

    # -- the persistence explorer, in its starting state after Run All: p = 0.5
    explorer = page.locator(".ltr-persistence-explorer").first
    explorer.scroll_into_view_if_needed()
    result = explorer.locator(".ltr-result")
    readout = explorer.locator(".ltr-persistence-slider .widget-readout")
    expect(readout).to_have_text("0.50", timeout=UI_TIMEOUT_MS)
    # the result line as the explorer shows it: the exact value while it is short (119/128), else the decimal
    expect(result).to_contain_text(short_title(lt.rbp(LIPSTICK, p=Fraction(1, 2)), limit=16), timeout=UI_TIMEOUT_MS)
    plot_before = _plot_source(explorer)

    # one step right with the keyboard on the slider's handle: p = 0.55, everything recomputed
    handle = explorer.locator(".ltr-persistence-slider .noUi-handle")
    handle.focus()
    page.keyboard.press("ArrowRight")
    expect(readout).to_have_text("0.55", timeout=UI_TIMEOUT_MS)
    moved = lt.rbp(LIPSTICK, p=Fraction(11, 20))
    expect(result).to_contain_text(f"RBP(p=11/20) ≈ {moved.decimal_str}", timeout=UI_TIMEOUT_MS)
    # the residual and the endless list's depth 1/(1 - 0.55) = 2.222 follow too
    expect(result).to_contain_text(f"residual {moved.parts['residual'].decimal_str}")
    expect(result).to_contain_text("2.222")
    page.wait_for_function("([el, old]) => el.getAttribute('src') !== old",
                           arg=[explorer.locator("img.ltr-plot").element_handle(), plot_before], timeout=UI_TIMEOUT_MS)
    save_screenshot(page, "12_user_models-persistence", "notebook 12 after one step of the persistence slider",
                    close_up=explorer)

    # -- the create exercise's ask box: a wrong pair, then a right one
    box = page.locator(".ltr-ask", has_text=CREATE_ID).first
    box.scroll_into_view_if_needed()
    field = box.locator(".ltr-ask-input input")
    feedback = box.locator(".ltr-ask-feedback")
    expect(box.locator(".ltr-ask-reveal")).to_be_disabled()      # no answer before a first attempt

    wrong = lt.check(CREATE_ID, WRONG)
    assert not wrong.correct
    field.fill(WRONG)
    field.press("Enter")
    box.locator(".ltr-ask-check").click()
    # the verifier's reason, from the library: ERR does not prefer A, with both ERRs
    expect(feedback).to_contain_text("ERR does not prefer A", timeout=UI_TIMEOUT_MS)
    expect(feedback).to_contain_text(lt.err([1, 1, 1, 1, 1], g_max=3).decimal_str)
    expect(box.locator(".ltr-ask-reveal")).to_be_enabled()
    save_screenshot(page, "12_user_models-create-wrong", "the create exercise after a wrong pair", close_up=box)

    right = lt.check(CREATE_ID, RIGHT)
    assert right.correct
    field.fill(RIGHT)
    field.press("Enter")
    box.locator(".ltr-ask-check").click()
    expect(feedback).not_to_contain_text("ERR does not prefer A", timeout=UI_TIMEOUT_MS)
    expect(feedback).to_contain_text(right.message.split(".")[0], timeout=UI_TIMEOUT_MS)
    save_screenshot(page, "12_user_models-create-right", "the create exercise after a right pair", close_up=box)

    assert cell_stderr(page) == []
    assert watch.problems() == []
