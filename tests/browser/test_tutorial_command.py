"""`make tutorial` serves JupyterLab on 127.0.0.1:$PORT and lands on notebooks/00_start_here.ipynb.

The server's root is the repository, so the exercises (exercises/) are reachable beside the tutorial.

The test runs the Makefile's own command line (read with ``make -n``, with this interpreter's
environment as VENV and a free port as PORT), so a change to the Makefile is what gets tested.
On a machine without a display JupyterLab cannot launch a browser: it prints the address
instead, and that printed address must open the start notebook too.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

import pytest
from lab_driver import (
    LOOPBACK,
    UI_TIMEOUT_MS,
    PageWatch,
    free_port,
    isolated_jupyter_env,
    printed_server,
    wait_for_kernel_idle,
)

from ltr_teach import classroom

REPO = Path(__file__).resolve().parents[2]
START = classroom.start_page(None, root=REPO)  # TUTORIAL_LANG unset: the page offering both editions
EXERCISES = "exercises/en/01_precision_recall_f.ipynb"


def tutorial_command(port: int) -> str:
    """The command ``make tutorial`` runs once the package is installed."""
    dry_run = subprocess.run(
        ["make", "--no-print-directory", "-n", "tutorial", f"VENV={sys.prefix}", f"PORT={port}"],
        cwd=REPO, capture_output=True, text=True, encoding="utf-8", check=True,
    ).stdout
    commands = [line for line in dry_run.splitlines() if "jupyter lab" in line]
    assert len(commands) == 1, dry_run
    return commands[0]


@pytest.fixture(scope="module")
def tutorial():
    """The tutorial server, started by the Makefile's command; yields (port, printed URL, log)."""
    port = free_port()
    state = Path(tempfile.mkdtemp(prefix="ltr_teach_tutorial_"))
    env = isolated_jupyter_env(state, [REPO])
    log_path = state / "tutorial.log"
    with printed_server(["bash", "-c", tutorial_command(port)], cwd=REPO, env=env, log_path=log_path,
                        what=f"make tutorial on port {port}", address=rf"http://{re.escape(LOOPBACK)}:{port}/\S+") as url:
        yield port, url, log_path


def test_make_tutorial_prints_the_start_notebook_address(tutorial):
    port, url, log_path = tutorial
    assert re.fullmatch(rf"http://127\.0\.0\.1:{port}/lab/tree/{re.escape(START)}\?token=\w+", url), url
    token = url.rsplit("token=", 1)[1]
    # The server's root is the repository: the start notebook and the exercise sheets are both in it.
    for notebook in (START, EXERCISES):
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/contents/{notebook}?content=0&token={token}") as answer:
            assert json.load(answer)["type"] == "notebook"
    # The bare address lands on the start notebook as well.
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/?token={token}") as answer:
        assert answer.url.startswith(f"http://127.0.0.1:{port}/lab/tree/{START}")
    log = log_path.read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in log, log


def test_make_tutorial_address_opens_the_start_notebook_in_chromium(tutorial, chromium):
    from playwright.sync_api import expect

    _port, url, _log = tutorial
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(UI_TIMEOUT_MS)
    page = context.new_page()
    watch = PageWatch().attach(context, page)
    try:
        page.goto(url, timeout=UI_TIMEOUT_MS)
        # expect() waits 5 s unless told: too short for JupyterLab on a busy machine.
        start_tab = page.locator(".jp-mod-current .lm-TabBar-tabLabel", has_text=START.rsplit("/", 1)[1]).first
        expect(start_tab).to_be_visible(timeout=UI_TIMEOUT_MS)
        page.locator(".jp-NotebookPanel .jp-Cell").first.wait_for()
        wait_for_kernel_idle(page)
        assert page.locator(".jp-NotebookPanel").count() == 1
        assert watch.problems() == []
    finally:
        context.close()
