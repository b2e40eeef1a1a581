"""Fixtures for the real-browser tests: a JupyterLab server on loopback and Debian's Chromium.

In CI (the ``CI`` environment variable is set) a missing Chromium or Playwright is an error:
``make test`` installs both there, so a skip would hide a broken setup. Elsewhere the tests
skip and say how to enable them.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from lab_driver import (
    CHROMIUM,
    CHROMIUM_ARGS,
    ENABLE_HINT,
    UI_TIMEOUT_MS,
    JupyterLabServer,
    PageWatch,
    full_notebook_screenshot,
    launch_chromium,
    missing_requirements,
)

REPO = Path(__file__).resolve().parents[2]

#: Screenshot paths saved during the run, listed again in the terminal summary.
SAVED_SCREENSHOTS: list[Path] = []


def require_browser() -> None:
    """Skip (outside CI) or fail (in CI) when Chromium or Playwright is missing."""
    missing = missing_requirements()
    if not missing:
        return
    what = "; ".join(missing)
    if os.environ.get("CI"):
        pytest.fail(
            f"browser tests must run in CI but this machine lacks {what}: {ENABLE_HINT}", pytrace=False
        )
    pytest.skip(f"browser tests need {what}: {ENABLE_HINT}")


@pytest.fixture(scope="session")
def lab_server(tmp_path_factory):
    """JupyterLab on 127.0.0.1 serving a temporary copy of ``notebooks/``.

    The copy keeps the repository's notebooks untouched when JupyterLab saves; the kernel
    imports the repository's ``ltr_teach`` through ``PYTHONPATH`` and runs on this Python.
    """
    require_browser()
    root = tmp_path_factory.mktemp("lab_root")
    shutil.copytree(REPO / "notebooks", root, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    server = JupyterLabServer(root_dir=root, python_path=[REPO]).start()
    yield server
    server.stop()
    server.cleanup()


@pytest.fixture(scope="session")
def playwright_driver():
    """The one Playwright of the session: a second sync_playwright() while one runs is refused
    ("Sync API inside the asyncio loop"), so every browser fixture launches through this one."""
    require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def chromium(playwright_driver):
    """Debian's Chromium, headless, launched through Playwright (no browser download)."""
    browser = launch_chromium(playwright_driver)
    yield browser
    browser.close()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


def _fresh_page(request, browser, screenshot_dir, **context_options):
    """A fresh browser tab and the :class:`PageWatch` recording its errors and requests.

    When the test fails, the tab is saved as a screenshot and its path added to the failure's
    report, to see what the browser showed (a dialog, a traceback, a widget that never rendered).
    """
    context = browser.new_context(viewport={"width": 1280, "height": 900}, **context_options)
    context.set_default_timeout(UI_TIMEOUT_MS)
    page = context.new_page()
    watch = PageWatch().attach(context, page)
    yield page, watch
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        path = screenshot_dir / f"FAILED-{request.node.name}.png"
        page.screenshot(path=str(path))
        SAVED_SCREENSHOTS.append(path)
        problems = "\n".join(watch.problems())
        report.sections.append(("browser", f"screenshot at failure: {path}\n{problems}"))
    context.close()


@pytest.fixture
def lab_page(request, chromium, lab_server, screenshot_dir):
    """A fresh tab of the usual Chromium, with the JupyterLab server running (see :func:`_fresh_page`)."""
    yield from _fresh_page(request, chromium, screenshot_dir, locale="en-US")


@pytest.fixture
def page_without_cjk(request, chromium_without_cjk, screenshot_dir):
    """A fresh tab of the Chromium that has no CJK font (see :func:`_fresh_page`); the test starts its server."""
    yield from _fresh_page(request, chromium_without_cjk, screenshot_dir)


@pytest.fixture(scope="session")
def screenshot_dir() -> Path:
    """A new temporary folder per run, kept afterwards (pytest's own tmp folders are pruned
    after three runs), so the screenshots can be looked at after the tests."""
    return Path(tempfile.mkdtemp(prefix="ltr_teach_browser_screenshots_"))


@pytest.fixture
def save_screenshot(screenshot_dir, capsys):
    """``save_screenshot(page, stem, what, close_up=None)``: PNGs of the notebook; prints paths.

    ``stem.png`` is the whole notebook; ``stem-close-up.png`` is the element ``close_up`` (a
    Playwright locator), readable at full size. The paths are printed at once (past pytest's
    capture) and again in the terminal summary.
    """

    def save(page, stem: str, what: str, close_up=None) -> list[Path]:
        paths = [full_notebook_screenshot(page, screenshot_dir / f"{stem}.png")]
        if close_up is not None:
            viewport = page.viewport_size
            page.set_viewport_size({"width": viewport["width"], "height": 2400})
            close_up.scroll_into_view_if_needed()
            paths.append(screenshot_dir / f"{stem}-close-up.png")
            close_up.screenshot(path=str(paths[-1]))
            page.set_viewport_size(viewport)
        SAVED_SCREENSHOTS.extend(paths)
        with capsys.disabled():
            print(f"\n{what}: " + ", ".join(map(str, paths)))
        return paths

    return save


def pytest_terminal_summary(terminalreporter):
    if SAVED_SCREENSHOTS:
        terminalreporter.section("browser screenshots")
        for path in SAVED_SCREENSHOTS:
            terminalreporter.write_line(str(path))


def _fonts_conf(folder: Path) -> Path:
    conf = folder / "fonts.conf"
    conf.write_text(
        "<?xml version='1.0'?><!DOCTYPE fontconfig SYSTEM 'fonts.dtd'><fontconfig>"
        "<dir>/usr/share/fonts/truetype/dejavu</dir><dir>/usr/share/fonts/truetype/liberation</dir>"
        f"<cachedir>{folder / 'cache'}</cachedir></fontconfig>", encoding="utf-8")
    return conf


@pytest.fixture(scope="module")
def chromium_without_cjk(playwright_driver, tmp_path_factory):
    """Debian's Chromium, headless, seeing only DejaVu and Liberation (FONTCONFIG_FILE)."""
    conf = _fonts_conf(tmp_path_factory.mktemp("fontconfig"))
    browser = playwright_driver.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS,
                                                env={**os.environ, "FONTCONFIG_FILE": str(conf)})
    yield browser
    browser.close()
