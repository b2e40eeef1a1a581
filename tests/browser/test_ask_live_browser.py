"""Issue 21 in a real JupyterLab: the checked answer is the typed one, sliders have names, notebooks open clean.

- ``lt.ask``: typing and clicking 检查 with no pause, 20 times with answers alternately right and wrong, gives
  20 verdicts that each match the text typed (the box used to send its text only on blur, and a click could
  be checked against the text before); Enter checks too.
- A course notebook opens without the "modified" marker: nothing JupyterLab rewrites on opening differs.
"""

from __future__ import annotations

import nbformat
from lab_driver import UI_TIMEOUT_MS, cell_stderr, open_notebook, run_all_cells, wait_for_kernel_idle

KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}

#: cg-at-2-swapped: grades [5, 2, 3, 1, 2], CG@2 = 5 + 2 = 7 (by hand). Right and wrong alternate, and no two
#: answers in a row are the same text, so each click must produce a new verdict.
ANSWERS = ["7", "8", "7.00", "6", "14/2", "5", "7.0", "72", "3 + 4", "0.7", "7", "17", "7.000", "9", "21/3", "4",
           "70/10", "7.5", "7.00", "10"]
RIGHT = {"7", "7.00", "14/2", "7.0", "3 + 4", "7.000", "21/3", "70/10"}


def _write(server, name: str, code: str) -> None:
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)])
    notebook.metadata["kernelspec"] = dict(KERNELSPEC)
    nbformat.write(notebook, server.root_dir / name)


def _verdict(page, typed: str, before: str) -> str:
    """The feedback once it has changed and names ``typed`` (every verdict quotes the answer checked)."""
    page.wait_for_function(
        """([before, typed]) => { const f = document.querySelector('.ltr-ask-feedback').innerText;
             return f !== before && f.includes(typed); }""", arg=[before, typed], timeout=UI_TIMEOUT_MS)
    return page.locator(".ltr-ask-feedback").inner_text()


def test_every_verdict_is_for_the_text_typed_and_enter_checks(lab_server, lab_page):
    page, watch = lab_page
    _write(lab_server, "ask_stale.ipynb", 'import ltr_teach as lt\nlt.set_language("zh")\nlt.ask("cg-at-2-swapped")')
    open_notebook(page, lab_server, "ask_stale.ipynb")
    run_all_cells(page)
    assert cell_stderr(page) == []
    field, check = page.locator(".ltr-ask-input input"), page.locator("button.ltr-ask-check")
    field.wait_for(timeout=UI_TIMEOUT_MS)
    # the live box replaces the saved question: JupyterLab shows one of the output's forms, the widget
    assert page.locator(".ltr-ask").count() == 1 and page.locator(".ltr-ask-static").count() == 0
    verdicts = []
    for number, typed in enumerate(ANSWERS):
        before = page.locator(".ltr-ask-feedback").inner_text()
        field.fill("")
        if number % 2:
            field.press_sequentially(typed, delay=0)  # key by key, as a student types
        else:
            field.fill(typed)
        check.click()  # no pause
        shown = _verdict(page, typed, before)
        verdicts.append((typed, ("正确" in shown and "不对" not in shown) == (typed in RIGHT), shown))
    wrong = [v for v in verdicts if not v[1]]
    assert not wrong, f"{len(ANSWERS) - len(wrong)}/{len(ANSWERS)} verdicts match the text typed; wrong: {wrong}"
    for typed in ("6", "7"):  # Enter checks, with no click
        before = page.locator(".ltr-ask-feedback").inner_text()
        field.fill("")
        field.press_sequentially(typed, delay=0)
        field.press("Enter")
        shown = _verdict(page, typed, before)
        assert ("正确" in shown and "不对" not in shown) == (typed in RIGHT), shown
    assert [p for p in watch.problems() if "jupyterlite" not in p] == []  # an installed JupyterLite extension logs one


def test_a_course_notebook_opens_unmodified(lab_server, lab_page):
    page, _watch = lab_page
    open_notebook(page, lab_server, "zh/02_mrr.ipynb")
    wait_for_kernel_idle(page)
    page.wait_for_timeout(3000)  # anything JupyterLab rewrites on opening (metadata from the kernel) is done
    tab = page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab.lm-mod-current")
    assert "jp-mod-dirty" not in (tab.get_attribute("class") or "")
    assert page.locator(".lm-DockPanel-tabBar .jp-mod-dirty").count() == 0
