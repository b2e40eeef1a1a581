"""`ltr-teach tutorial DIR --no-browser` copies the course, serves it, and the links between notebooks work.

The command runs as a student runs it (a subprocess, no display, so JupyterLab prints the address
instead of opening a browser). Chromium then opens the printed address, follows notebook 10's link
to the exercises folder and an exercise sheet's link back to its tutorial notebook.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
import urllib.request
from pathlib import Path

import pytest
from lab_driver import LOOPBACK, UI_TIMEOUT_MS, free_port, isolated_jupyter_env, printed_server

from conftest import SAVED_SCREENSHOTS, require_browser
from ltr_teach import classroom
from ltr_teach.teaching import course_path

REPO = Path(__file__).resolve().parents[2]
START = classroom.start_page(None, root=REPO)  # the page offering both editions
TUTORIAL_FILES = len(classroom.tutorial_files())
TEN = "notebooks/en/10_why_tools_disagree.ipynb"


@pytest.fixture(scope="module")
def served():
    """(port, printed URL, course folder) of a running `ltr-teach tutorial`."""
    require_browser()
    port = free_port()
    state = Path(tempfile.mkdtemp(prefix="ltr_teach_tutorial_cmd_"))
    env = isolated_jupyter_env(state, [REPO])
    course = state / "course"
    log_path = state / "tutorial.log"
    command = [sys.executable, "-m", "ltr_teach.cli", "tutorial", str(course), "--no-browser", "--port", str(port)]
    with printed_server(command, cwd=state, env=env, log_path=log_path, what="ltr-teach tutorial",
                        address=rf"http://{re.escape(LOOPBACK)}:{port}/lab\S*token=\w+") as url:
        yield port, url, course, log_path


def test_the_printed_address_serves_the_copied_course(served):
    port, url, course, log_path = served
    assert url.startswith(f"http://127.0.0.1:{port}/lab/tree/{START}?token="), url
    token = url.rsplit("token=", 1)[1]
    for notebook in (START, "exercises/zh/05_roc_auc.ipynb", "exercises/en/05_roc_auc.ipynb"):
        assert (course / notebook).is_file()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/contents/{notebook}?content=0&token={token}") as got:
            assert json.load(got)["type"] == "notebook"
    log = log_path.read_text(encoding="utf-8", errors="replace")
    assert f"{TUTORIAL_FILES} copied" in log and "Traceback" not in log


def test_links_between_tutorial_and_exercises_open_in_jupyterlab(served, chromium, screenshot_dir):
    from playwright.sync_api import expect

    port, url, _course, _log = served
    token = url.rsplit("token=", 1)[1]
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(UI_TIMEOUT_MS)
    page = context.new_page()
    try:
        # An exercise sheet links back to its tutorial notebook: the link opens it in a new tab.
        page.goto(f"http://127.0.0.1:{port}/lab/tree/exercises/en/01_precision_recall_f.ipynb?reset&token={token}")
        page.locator(".jp-NotebookPanel .jp-Cell").first.wait_for()
        # JupyterLab rewrites a relative href to its own address: find the link by its text.
        # the sheet's header names the notebook by its heading in the course path (one fact, one place)
        heading = course_path.notebook(1).heading("en")
        page.locator(".jp-RenderedMarkdown a", has_text=heading).first.click()
        tab = page.locator(".lm-TabBar-tab.lm-mod-current .lm-TabBar-tabLabel", has_text="01_precision_recall_f.ipynb")
        expect(tab.first).to_be_visible(timeout=UI_TIMEOUT_MS)
        expect(page.locator(".jp-NotebookPanel:visible h1").first).to_contain_text(course_path.notebook(1).title["en"],
                                                                                    timeout=UI_TIMEOUT_MS)
        # Notebook 10 links to its exercise sheet in the other folder (a link to the folder itself gave
        # "exercises is a directory, not a file" in JupyterLab).
        page.goto(f"http://127.0.0.1:{port}/lab/tree/{TEN}?reset&token={token}")
        page.locator(".jp-NotebookPanel .jp-Cell").first.wait_for()
        link = page.locator(".jp-RenderedMarkdown a", has_text="06 · comparing metrics and tools").last
        link.scroll_into_view_if_needed()
        link.click()
        expect(page.locator(".lm-TabBar-tab.lm-mod-current .lm-TabBar-tabLabel", has_text="06_comparing_and_tools.ipynb")
               .first).to_be_visible(timeout=UI_TIMEOUT_MS)
        expect(page.locator(".jp-NotebookPanel:visible h1").first).to_contain_text("Exercises", timeout=UI_TIMEOUT_MS)
        assert page.locator(".jp-Dialog").count() == 0  # no "File Load Error"
        shot = screenshot_dir / "tutorial-exercises-link.png"
        page.screenshot(path=str(shot))
        SAVED_SCREENSHOTS.append(shot)
    finally:
        context.close()
