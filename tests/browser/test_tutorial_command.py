"""`make tutorial` serves JupyterLab on 127.0.0.1:$PORT and lands on notebooks/00_start_here.ipynb.

The server's root is the repository, so the exercises (exercises/) are reachable beside the tutorial.

The test runs the Makefile's own command line (read with ``make -n``, with this interpreter's
environment as VENV and a free port as PORT), so a change to the Makefile is what gets tested.
On a machine without a display JupyterLab cannot launch a browser: it prints the address
instead, and that printed address must open the start notebook too.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest
from lab_driver import LOOPBACK, UI_TIMEOUT_MS, PageWatch, free_port, wait_for_kernel_idle

REPO = Path(__file__).resolve().parents[2]
START = "notebooks/00_start_here.ipynb"
EXERCISES = "exercises/01_precision_recall_f.ipynb"


def tutorial_command(port: int) -> str:
    """The command ``make tutorial`` runs once the package is installed."""
    dry_run = subprocess.run(
        ["make", "--no-print-directory", "-n", "tutorial", f"VENV={sys.prefix}", f"PORT={port}"],
        cwd=REPO, capture_output=True, text=True, check=True,
    ).stdout
    commands = [line for line in dry_run.splitlines() if "jupyter lab" in line]
    assert len(commands) == 1, dry_run
    return commands[0]


@pytest.fixture(scope="module")
def tutorial():
    """The tutorial server, started by the Makefile's command; yields (port, printed URL, log)."""
    port = free_port()
    state = Path(tempfile.mkdtemp(prefix="ltr_teach_tutorial_"))
    env = dict(os.environ)
    # Keep a developer's own JupyterLab state (open tabs, settings) out of the test, and the
    # test's out of theirs; no display, as on a server or in CI.
    for name, variable in (("runtime", "JUPYTER_RUNTIME_DIR"), ("workspaces", "JUPYTERLAB_WORKSPACES_DIR"),
                           ("settings", "JUPYTERLAB_SETTINGS_DIR"), ("config", "JUPYTER_CONFIG_DIR")):
        (state / name).mkdir()
        env[variable] = str(state / name)
    env.pop("DISPLAY", None)
    env.pop("BROWSER", None)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    log_path = state / "tutorial.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(["bash", "-c", tutorial_command(port)], cwd=REPO, env=env, stdout=log,
                                   stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
    printed = re.compile(rf"http://{re.escape(LOOPBACK)}:{port}/\S+")
    url = None
    deadline = time.monotonic() + 120
    while url is None and time.monotonic() < deadline and process.poll() is None:
        found = printed.search(log_path.read_text(errors="replace"))
        url = found.group(0) if found else None
        time.sleep(0.25)
    try:
        assert url is not None, f"make tutorial printed no address on port {port}; log:\n{log_path.read_text()}"
        yield port, url, log_path
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=30)


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
    log = log_path.read_text(errors="replace")
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
