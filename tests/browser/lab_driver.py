"""Start JupyterLab on loopback and drive it with Debian's Chromium through Playwright.

The browser tests use these helpers the way a student uses the tutorial: open a notebook in
JupyterLab, run every cell from the Run menu, then touch the widgets. Nothing here may reach the
internet: the server is configured not to fetch news, update checks or extension listings, and
Chromium resolves every host name but 127.0.0.1 to "not found" so a stray fetch fails at once
(and is recorded by :class:`PageWatch`) instead of hanging on the closed network.

Playwright is imported inside the functions that need it, so that ``pytest --doctest-modules``
can import this module on a machine without Playwright.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, urlsplit

CHROMIUM = Path("/usr/bin/chromium")
LOOPBACK = "127.0.0.1"

#: How to get what the browser tests need, for the skip message outside CI.
ENABLE_HINT = (
    "install Debian's Chromium and a CJK font (as root: `apt-get install -y chromium fonts-noto-cjk`) "
    "and the test extra (`pip install -e .[test]`, which brings Playwright; no browser download "
    "is needed), or run `make test` with CI=1, which does both"
)

#: Flags that keep Chromium off the network on this closed machine (see the machine notes):
#: without the background-networking flags Chromium keeps opening connections that are refused.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--disable-features=Translate,OptimizationHints,MediaRouter",
    f"--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE {LOOPBACK}",
]

#: Generous, because two cores are shared with other work: JupyterLab's first page load and a
#: kernel importing SymPy and Matplotlib can each take tens of seconds on a busy machine.
SERVER_START_TIMEOUT_S = 120
UI_TIMEOUT_MS = 90_000


def missing_requirements() -> list[str]:
    """Name what the browser tests need and this machine lacks (empty when all is there)."""
    missing = []
    if not CHROMIUM.exists():
        missing.append(f"{CHROMIUM} (Debian package chromium)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing.append("the Python package playwright")
    # Without a Chinese font the item names are drawn as boxes and the tests fail on that;
    # fc-list (fontconfig) tells, when it is there to ask.
    if shutil.which("fc-list"):
        chinese = subprocess.run(["fc-list", ":lang=zh", "family"], capture_output=True, text=True,
                                 encoding="utf-8", errors="replace", check=False).stdout
        if not chinese.strip():
            missing.append("a Chinese font (Debian package fonts-noto-cjk)")
    return missing


def free_port() -> int:
    """Ask the kernel for a free TCP port on loopback."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((LOOPBACK, 0))
        return sock.getsockname()[1]


def isolated_jupyter_env(state: Path, python_path: list[Path]) -> dict:
    """This process's environment with Jupyter's runtime, workspaces, settings and config in ``state``.

    Keeps a developer's own JupyterLab state (open tabs, settings) out of a test and the test's out
    of theirs; no display and no browser, as on a server or in CI.
    """
    env = dict(os.environ)
    for name, variable in (("runtime", "JUPYTER_RUNTIME_DIR"), ("workspaces", "JUPYTERLAB_WORKSPACES_DIR"),
                           ("settings", "JUPYTERLAB_SETTINGS_DIR"), ("config", "JUPYTER_CONFIG_DIR")):
        (state / name).mkdir()
        env[variable] = str(state / name)
    env.pop("DISPLAY", None)
    env.pop("BROWSER", None)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [*map(str, python_path), env.get("PYTHONPATH")]))
    return env


@contextmanager
def printed_server(command: list[str], *, cwd: Path, env: dict, log_path: Path, address: str,
                   what: str) -> Iterator[str]:
    """Run ``command`` (a command that starts JupyterLab) in its own process group and yield the first
    address matching the regular expression ``address`` it prints; stop the whole group afterwards."""
    with open(log_path, "wb") as log:
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, start_new_session=True)
    printed = re.compile(address)
    url = None
    deadline = time.monotonic() + SERVER_START_TIMEOUT_S
    while url is None and time.monotonic() < deadline and process.poll() is None:
        found = printed.search(log_path.read_text(encoding="utf-8", errors="replace"))
        url = found.group(0) if found else None
        time.sleep(0.25)
    try:
        assert url is not None, f"{what} printed no address; log:\n{log_path.read_text(encoding='utf-8', errors='replace')}"
        yield url
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=30)


def _server_config() -> dict:
    """Jupyter server settings: loopback, no token, and no call to any outside service."""
    return {
        "ServerApp": {
            "ip": LOOPBACK,
            "open_browser": False,
            "port_retries": 0,
            "password": "",
            # CI runs as root, and JupyterLab refuses to start as root unless told.
            "allow_root": True,
        },
        "IdentityProvider": {"token": ""},
        "LabApp": {
            # The server would fetch the news feed from GitHub and ask PyPI for a newer
            # JupyterLab; both off (the page's "receive news?" prompt is answered in settings).
            "news_url": None,
            "check_for_updates_class": "jupyterlab.handlers.announcements.NeverCheckForUpdate",
            # "pypi" would list extensions from pypi.org when the sidebar opens.
            "extension_manager": "readonly",
        },
    }


@dataclass
class JupyterLabServer:
    """A JupyterLab server on 127.0.0.1 serving ``root_dir``, run by ``python``.

    Parameters
    ----------
    root_dir : Path
        Folder the server shows (a temporary copy of the notebooks).
    python_path : list of Path
        Folders put first on ``PYTHONPATH`` of the server and so of every kernel it starts,
        so that the kernel imports the repository's ``ltr_teach``.
    python : str
        Interpreter that runs ``-m jupyter lab``; the kernel runs on the same one (jupyter_client
        replaces the kernelspec's bare ``python`` by the server's ``sys.executable``).
    """

    root_dir: Path
    python_path: list[Path] = field(default_factory=list)
    python: str = sys.executable
    port: int = 0
    process: subprocess.Popen | None = None
    state_dir: Path | None = None

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    @property
    def log_path(self) -> Path:
        assert self.state_dir is not None
        return self.state_dir / "server.log"

    def log(self) -> str:
        """The server's output so far (for failure messages)."""
        return self.log_path.read_text(encoding="utf-8", errors="replace") if self.log_path.exists() else ""

    def _environment(self) -> dict[str, str]:
        assert self.state_dir is not None
        env = dict(os.environ)
        # Private config, data, runtime, settings and workspace folders: a user's own
        # JupyterLab settings or remembered open tabs must not change what the test sees.
        for name in ("config", "data", "runtime", "settings", "workspaces"):
            (self.state_dir / name).mkdir(exist_ok=True)
        env["JUPYTER_CONFIG_DIR"] = str(self.state_dir / "config")
        env["JUPYTER_DATA_DIR"] = str(self.state_dir / "data")
        env["JUPYTER_RUNTIME_DIR"] = str(self.state_dir / "runtime")
        env["JUPYTERLAB_SETTINGS_DIR"] = str(self.state_dir / "settings")
        env["JUPYTERLAB_WORKSPACES_DIR"] = str(self.state_dir / "workspaces")
        # The folder layout jupyter_core is moving to; set, it stops warning about the move.
        env["JUPYTER_PLATFORM_DIRS"] = "1"
        # The page itself asks "get notified about official Jupyter news?" unless the user has
        # answered; answer "never" so no toast covers the screenshots and nothing is fetched.
        notification = self.state_dir / "settings" / "@jupyterlab" / "apputils-extension"
        notification.mkdir(parents=True, exist_ok=True)
        (notification / "notification.jupyterlab-settings").write_text(
            json.dumps({"fetchNews": "false", "checkForUpdates": False}), encoding="utf-8"
        )
        env["PYTHONPATH"] = os.pathsep.join(
            [str(p) for p in self.python_path] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])
        )
        env.pop("BROWSER", None)
        env.pop("DISPLAY", None)
        return env

    def start(self, timeout_s: float = SERVER_START_TIMEOUT_S) -> JupyterLabServer:
        """Start the server and wait until its REST API answers; raise with its log if not."""
        self.state_dir = Path(tempfile.mkdtemp(prefix="ltr_teach_lab_state_"))
        env = self._environment()
        config_file = self.state_dir / "config" / "jupyter_server_config.json"
        config_file.write_text(json.dumps(_server_config(), indent=1), encoding="utf-8")
        # A free port can be taken between asking and binding; port_retries=0 makes the server
        # exit instead of moving silently to another port, and we try again with a new one.
        for _attempt in range(3):
            self.port = free_port()
            command = [
                self.python, "-m", "jupyter", "lab",
                f"--port={self.port}", f"--ServerApp.root_dir={self.root_dir}",
            ]
            with open(self.log_path, "ab") as log:
                self.process = subprocess.Popen(
                    command, cwd=self.root_dir, env=env, stdout=log, stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL, start_new_session=True,
                )
            if self._wait_until_answering(timeout_s):
                return self
            if "already in use" not in self.log():
                break
        self.stop()
        raise RuntimeError(f"JupyterLab did not start on {self.url}; its log:\n{self.log()}")

    def _wait_until_answering(self, timeout_s: float) -> bool:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False
            try:
                with urllib.request.urlopen(f"{self.url}/api/status", timeout=5) as response:
                    if response.status == 200:
                        return True
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.25)
        return False

    def stop(self) -> None:
        """Stop the server (it shuts its kernels down on SIGTERM), then anything left in its group."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                pass
        if self.process is not None:
            try:
                # The server was started in a session of its own: its process group holds only
                # it and the kernels it started.
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.process.wait(timeout=30)

    def cleanup(self) -> None:
        if self.state_dir is not None:
            shutil.rmtree(self.state_dir, ignore_errors=True)


def launch_chromium(playwright):
    """Debian's Chromium, headless, with the flags that keep it off the network."""
    return playwright.chromium.launch(
        executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS,
    )


@dataclass
class PageWatch:
    """Everything a page did that a test should fail on.

    Records uncaught page errors, console errors and every request whose host is not
    127.0.0.1 (http(s) and websockets; ``data:`` and ``blob:`` URLs never leave the page).
    """

    page_errors: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    outside_requests: list[str] = field(default_factory=list)

    def attach(self, context, page) -> PageWatch:
        page.on("pageerror", lambda error: self.page_errors.append(str(error)))
        page.on("console", self._on_console)
        context.on("request", lambda request: self._check_url(request.url))
        page.on("websocket", lambda socket_: self._check_url(socket_.url))
        return self

    def _on_console(self, message) -> None:
        if message.type == "error":
            self.console_errors.append(f"{message.text} ({message.location.get('url', '')})")

    def _check_url(self, url: str) -> None:
        parts = urlsplit(url)
        if parts.scheme in ("data", "blob", "about", "chrome-error"):
            return
        if parts.hostname != LOOPBACK:
            self.outside_requests.append(url)

    def problems(self) -> list[str]:
        return (
            [f"page error: {e}" for e in self.page_errors]
            + [f"console error: {e}" for e in self.console_errors]
            + [f"request left {LOOPBACK}: {u}" for u in self.outside_requests]
        )


def open_notebook(page, server: JupyterLabServer, name: str, label=str) -> None:
    """Open ``name`` alone in JupyterLab and wait until its kernel is idle.

    ``?reset`` starts from an empty workspace: otherwise JupyterLab reopens the notebooks an
    earlier test left open, and their cells would mix with this one's in the page.
    """
    page.goto(f"{server.url}/lab/tree/{quote(name)}?reset", timeout=UI_TIMEOUT_MS)
    page.locator(".jp-NotebookPanel .jp-Notebook .jp-Cell").first.wait_for(timeout=UI_TIMEOUT_MS)
    panels = page.locator(".jp-NotebookPanel").count()
    assert panels == 1, f"expected only {name} open, found {panels} notebook panels"
    # Fold the file browser away: the notebook gets the whole width, as in the screenshots a
    # student would share.
    open_left_tab = page.locator(".jp-SideBar.jp-mod-left .lm-TabBar-tab.lm-mod-current")
    if open_left_tab.count():
        open_left_tab.first.click()
    wait_for_kernel_idle(page, label)


def wait_for_kernel_idle(page, label=str) -> None:
    """Wait until the open notebook is connected to its kernel and the kernel is idle.

    The toolbar's execution indicator says "idle" before any kernel has started, so the test
    also waits for the status bar to name the kernel ("Python 3 (ipykernel) | Idle", not
    "No Kernel | Initializing").
    """
    states = [label(state) for state in ("Idle", "Busy", "Starting", "Initializing", "Connecting", "Restarting",
                                         "Unknown", "Dead")]
    page.wait_for_function(
        """([states, noKernel]) => {
             const indicator = document.querySelector('.jp-NotebookPanel .jp-Notebook-ExecutionIndicator');
             const status = [...document.querySelectorAll('.jp-StatusBar-TextItem')]
               .map(item => item.textContent.trim())
               .find(text => states.some(state => text.endsWith('| ' + state)));
             return indicator && indicator.dataset.status === 'idle'
               && status !== undefined && !status.startsWith(noKernel) && status.endsWith('| ' + states[0]);
           }""",
        arg=[states, label("No Kernel")],
        timeout=UI_TIMEOUT_MS,
    )


def _menu_command(page, menu: str, item: str) -> None:
    page.locator(".lm-MenuBar-item", has_text=menu).first.click()
    page.locator(".lm-Menu-item .lm-Menu-itemLabel").get_by_text(item, exact=True).click()


_PROMPTS_JS = "[...document.querySelectorAll('.jp-NotebookPanel .jp-CodeCell .jp-InputPrompt')].map(p => p.textContent.trim())"
_STDERR_JS = (
    "[...document.querySelectorAll('.jp-NotebookPanel "
    ".jp-OutputArea-output[data-mime-type=\"application/vnd.jupyter.stderr\"]')].map(o => o.innerText)"
)


def cell_stderr(page) -> list[str]:
    """What the notebook's cells wrote to stderr: tracebacks and warnings."""
    return page.evaluate(_STDERR_JS)


def run_all_cells(page, label=str) -> None:
    """Clear the saved outputs, run every cell from the Run menu, wait until all have run.

    Clearing first turns every prompt into ``[ ]:``, so "every code cell shows ``[n]:``" proves
    that this run (not the saved notebook) produced the outputs. A cell that raises stops the
    run (the cells below keep ``[ ]:``): that is reported with the traceback at once, instead
    of waiting for the timeout. ``label`` gives a menu label as JupyterLab shows it (its translation
    when JupyterLab runs in another language).
    """
    _menu_command(page, label("Edit"), label("Clear Outputs of All Cells"))
    try:
        page.wait_for_function(f"() => {_PROMPTS_JS}.every(p => !/\\d/.test(p))", timeout=UI_TIMEOUT_MS)
    except Exception as exc:
        raise AssertionError(f"outputs not cleared; prompts: {page.evaluate(_PROMPTS_JS)}") from exc
    _menu_command(page, label("Run"), label("Run All Cells"))
    finished = f"""() => {{
        const prompts = {_PROMPTS_JS};
        const numbered = prompts.length > 0 && prompts.every(p => /\\[\\d+\\]/.test(p));
        const stopped = {_STDERR_JS}.length > 0 && !prompts.some(p => p.includes('*'));
        return numbered || stopped;
    }}"""
    try:
        page.wait_for_function(finished, timeout=UI_TIMEOUT_MS)
    except Exception as exc:
        raise AssertionError(f"run all cells did not finish; prompts: {page.evaluate(_PROMPTS_JS)}") from exc
    prompts = page.evaluate(_PROMPTS_JS)
    if not all(re.fullmatch(r"\[\d+\]:", p) for p in prompts):
        raise AssertionError(f"a cell failed; prompts {prompts}; stderr:\n" + "\n".join(cell_stderr(page)))
    wait_for_kernel_idle(page, label)


def full_notebook_screenshot(page, path: Path) -> Path:
    """Screenshot of the whole notebook, not only the visible part of its scroll area.

    JupyterLab scrolls the notebook inside a fixed-height panel, so a "full page" screenshot
    shows one screen. The window is made as tall as the notebook instead; cells that were off
    screen only take their real height once drawn, so the height is measured again until it
    stops growing.
    """
    measure = """() => {
        const scroller = document.querySelector('.jp-NotebookPanel .jp-WindowedPanel-outer');
        scroller.scrollTop = 0;
        const cells = scroller.querySelectorAll('.jp-Cell');
        const statusBar = document.querySelector('#jp-main-statusbar');
        const below = statusBar ? statusBar.getBoundingClientRect().height : 0;
        return Math.ceil(cells[cells.length - 1].getBoundingClientRect().bottom + below + 40);
    }"""
    viewport = page.viewport_size
    height = viewport["height"]
    for _attempt in range(6):
        wanted = min(max(viewport["height"], page.evaluate(measure)), 30000)
        if wanted <= height:
            break
        height = wanted
        page.set_viewport_size({"width": viewport["width"], "height": height})
        page.wait_for_timeout(300)
    page.evaluate(measure)
    page.screenshot(path=str(path), full_page=True)
    page.set_viewport_size(viewport)
    return path
