"""``lt.ask`` in a real JupyterLab: a "create" question is answered, checked, hinted and revealed in Chromium.

Issue 13 asks the browser tests to cover one "create" exercise: the student types a ranking into the
widget, clicks Check, reads the verdict, walks the hint ladder and, only after a first attempt, shows
the answer.
"""

from __future__ import annotations

import re

import nbformat
from lab_driver import UI_TIMEOUT_MS, cell_stderr, open_notebook, run_all_cells

NAME = "ask_create_exercise.ipynb"


def _feedback(page) -> str:
    return page.locator(".ltr-ask-feedback").inner_text()


def _type_and_check(page, text: str) -> str:
    field = page.locator(".ltr-ask-input input")
    before = _feedback(page)
    field.fill(text)  # the box sends its text as it is typed (Enter would check it too)
    page.locator("button.ltr-ask-check").click()
    page.wait_for_function("(before) => document.querySelector('.ltr-ask-feedback').innerText !== before", arg=before,
                           timeout=UI_TIMEOUT_MS)
    return _feedback(page)


def test_a_create_question_is_checked_hinted_and_revealed(lab_server, lab_page, save_screenshot):
    page, watch = lab_page
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        'import ltr_teach as lt\nlt.set_language("en")\nlt.ask("ndcg-perfect-with-a-zero")')])
    # named like the course's notebooks, so JupyterLab starts the kernel instead of asking which one
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    nbformat.write(notebook, lab_server.root_dir / NAME)
    open_notebook(page, lab_server, NAME)
    run_all_cells(page)
    assert cell_stderr(page) == []
    box = page.locator(".ltr-ask")
    box.wait_for(timeout=UI_TIMEOUT_MS)
    assert "NDCG@4" in box.locator(".ltr-ask-prompt").inner_text()
    reveal = page.locator("button.ltr-ask-reveal")
    assert reveal.is_disabled()  # no answer to show before a first attempt
    assert _feedback(page).strip() == ""

    # 0, 3, 2, 2 holds a 0 but is not sorted best first: its NDCG@4 is below 1
    verdict = _type_and_check(page, "[0, 3, 2, 2]")
    assert "not right: [0, 3, 2, 2] does not have the property asked for" in verdict
    assert re.search(r"its NDCG@4 is 0\.\d+, not 1", verdict), verdict
    assert not reveal.is_disabled()

    hint = page.locator("button.ltr-ask-hint")
    for step in range(1, 4):
        hint.click()
        page.wait_for_function("(n) => document.querySelectorAll('.ltr-ask-hints li').length === n", arg=step,
                               timeout=UI_TIMEOUT_MS)
    assert hint.is_disabled()
    assert "[3, 2, 2, 0]" not in page.locator(".ltr-ask").inner_text()  # no hint gives the example away

    reveal.click()
    page.wait_for_function("() => document.querySelector('.ltr-ask-feedback').innerText.includes('for example')",
                           timeout=UI_TIMEOUT_MS)
    assert "for example [3, 2, 2, 0]" in _feedback(page)

    # 3, 3, 1, 0 never increases down the list and holds a 0: NDCG@4 = 1
    assert "right: [3, 3, 1, 0] has the property asked for" in _type_and_check(page, "[3, 3, 1, 0]")
    save_screenshot(page, "ask-create", "lt.ask with a create exercise", close_up=box)
    assert watch.problems() == []
