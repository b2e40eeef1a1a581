"""The Chinese edition as a Chinese-reading student meets it: JupyterLab's own menus in Chinese (the
zh-CN language pack, selected as ``make tutorial TUTORIAL_LANG=zh`` selects it), a Chinese notebook run
top to bottom, a grade slider moved and the editor's table read back, on a Chromium that has no CJK
system font, so every Chinese label must be drawn with the font the library serves to the page.

The value the page must show is computed here by the library for the grades on screen, not copied
from a saved output.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from lab_driver import UI_TIMEOUT_MS, JupyterLabServer, cell_stderr, open_notebook, run_all_cells
from test_page_font import CJK_RUN_WIDTHS_JS, NO_TOFU_JS, _tofu

import ltr_teach as lt
from conftest import require_browser
from ltr_teach.classroom import LAB_LOCALES
from ltr_teach.core.i18n import using_language

REPO = Path(__file__).resolve().parents[2]
NOTEBOOK = "zh/04_dcg_ndcg.ipynb"


def _lab_label(english: str) -> str:
    """A JupyterLab label as its zh-CN language pack shows it."""
    from jupyterlab_server.translation_utils import get_language_pack

    strings = get_language_pack(LAB_LOCALES["zh"])[0]["jupyterlab"]
    return strings.get(english, [english])[0]


@pytest.fixture(scope="module")
def chinese_lab(tmp_path_factory):
    """JupyterLab in Chinese serving a copy of the tutorial: the translation plugin's locale is zh_CN."""
    require_browser()
    root = tmp_path_factory.mktemp("zh_lab_root")
    shutil.copytree(REPO / "notebooks", root, dirs_exist_ok=True, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    server = JupyterLabServer(root_dir=root, python_path=[REPO]).start()
    plugin = server.state_dir / "settings" / "@jupyterlab" / "translation-extension" / "plugin.jupyterlab-settings"
    plugin.parent.mkdir(parents=True, exist_ok=True)
    plugin.write_text(json.dumps({"locale": LAB_LOCALES["zh"]}), encoding="utf-8")
    yield server
    server.stop()
    server.cleanup()


def _grades(editor) -> list[int]:
    handles = editor.locator(".ltr-grade-slider .noUi-handle")
    return [round(float(handles.nth(i).get_attribute("aria-valuenow"))) for i in range(handles.count())]


def test_a_chinese_notebook_in_chinese_jupyterlab_without_a_cjk_font(page_without_cjk, chinese_lab,
                                                                    screenshot_dir, capsys):
    from playwright.sync_api import expect

    page, _ = page_without_cjk
    open_notebook(page, chinese_lab, NOTEBOOK, label=_lab_label)
    # JupyterLab itself speaks Chinese: its menu bar reads 文件 / 编辑 / 运行 ...
    for menu in ("Edit", "Run"):
        assert _lab_label(menu) != menu
        expect(page.locator(".lm-MenuBar-item", has_text=_lab_label(menu)).first).to_be_visible()
    run_all_cells(page, label=_lab_label)
    assert cell_stderr(page) == []

    editor = page.locator(".ltr-editor").first
    editor.scroll_into_view_if_needed()
    page.wait_for_function("() => document.querySelector('.ltr-editor .ltr-table table') !== null")
    table = editor.locator(".ltr-table")
    grades = _grades(editor)
    with using_language("zh"):
        before = lt.ndcg(grades)
        header = lt.ndcg(grades).columns[1].header
    expect(table).to_contain_text(before.decimal_str[:6], timeout=UI_TIMEOUT_MS)

    # one step of the first grade slider, with the keyboard on its handle
    handle = editor.locator(".ltr-grade-slider .noUi-handle").first
    handle.focus()
    page.keyboard.press("ArrowLeft" if grades[0] > 0 else "ArrowRight")
    moved = [grades[0] - 1 if grades[0] > 0 else grades[0] + 1] + grades[1:]
    expect(handle).to_have_attribute("aria-valuetext", str(moved[0]), timeout=UI_TIMEOUT_MS)
    after = lt.ndcg(moved)
    assert after.decimal_str != before.decimal_str
    expect(table).to_contain_text(after.decimal_str[:6], timeout=UI_TIMEOUT_MS)

    # the table reads in Chinese, and no Chinese run of the editor is a missing-glyph box
    with using_language("zh"):
        from ltr_teach.core.i18n import translate

        expect(table).to_contain_text(translate(header))
    page.wait_for_function(NO_TOFU_JS, arg=".ltr-editor", timeout=30_000)
    runs = page.evaluate(CJK_RUN_WIDTHS_JS, ".ltr-editor")
    assert runs and not _tofu(runs), _tofu(runs)
    shot = screenshot_dir / "chinese-edition-04.png"
    page.screenshot(path=str(shot))
    with capsys.disabled():
        print(f"\nnotebook zh/04 in Chinese JupyterLab without a CJK font, after a slider step: {shot}")
