"""The page's CJK font in a browser that has no CJK font of its own.

Chromium is started with a fontconfig file that lists only DejaVu and Liberation (no Noto CJK), so a
Chinese character has no system glyph and is drawn as a missing-glyph box ("tofu"), about 0.4 em wide,
where a CJK glyph is 1 em wide. The tests measure every run of Chinese characters a page draws (a DOM
Range around it) and divide its width by characters × font size:

* the control: the same text without the served style, and JupyterLab's own code cell, are tofu (the
  system fonts are hidden);
* the library's card and table, shown as a kernel shows them (the style element first), and a real
  ranking editor in JupyterLab (its title, item names, slider labels, buttons, options and table) draw
  every run at 1 em per character, with the served face ``ltr-teach CJK`` loaded.

Screenshots of the pages with and without the served font are saved and their paths printed.
"""

from __future__ import annotations

import json
import re

from lab_driver import UI_TIMEOUT_MS, open_notebook, run_all_cells

import ltr_teach as lt
from ltr_teach.core import webfont

#: Every run of 2+ Chinese characters drawn under ``root``: [text, width / (characters × font size)].
CJK_RUN_WIDTHS_JS = """(root) => {
    const out = [];
    const walker = document.createTreeWalker(document.querySelector(root), NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
        const node = walker.currentNode, runs = /[\\u4e00-\\u9fff]{2,}/g;
        let m;
        while ((m = runs.exec(node.data))) {
            const range = document.createRange();
            range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
            const width = range.getBoundingClientRect().width;
            if (!width) continue;  // not drawn (a hidden label)
            const size = parseFloat(getComputedStyle(node.parentElement).fontSize);
            out.push([m[0], Math.round(100 * width / (m[0].length * size)) / 100]);
        }
    }
    return out;
}"""

SERVED_FACE_LOADED_JS = f"""async () => {{
    await document.fonts.ready;
    const faces = [...document.fonts].filter(f => f.family.replace(/["']/g, '') === '{webfont.FAMILY}');
    await Promise.all(faces.map(f => f.load()));
    return faces.map(f => f.status);
}}"""

#: True once no run of Chinese under ``root`` is tofu (the redraw animation of the style runs in its first seconds).
NO_TOFU_JS = f"(root) => ({CJK_RUN_WIDTHS_JS})(root).every(run => run[1] >= 0.9)"


def _tofu(runs):
    """The runs drawn narrower than a CJK glyph (missing-glyph boxes are ~0.4 em, CJK glyphs 1 em)."""
    return [(text, ratio) for text, ratio in runs if ratio < 0.9]


def _library_page() -> str:
    """A page with what a kernel shows first in Chinese: the served style, then a card and a table."""
    from ltr_teach.interactive.widgets import example_card
    from ltr_teach.teaching import tables

    webfont.enabled, webfont._served = True, False
    lt.set_language("zh")
    try:
        card = example_card("000-ndcg-mac-lipstick")._repr_html_()
        table = tables.documents_table()._repr_html_()
    finally:
        lt.set_language(None)
        webfont.enabled, webfont._served = None, False
    assert card.startswith(webfont.style_element()) and webfont.STYLE_ID not in table
    return f"<html><body style='font-family:sans-serif'><div id='shown'>{card}{table}</div></body></html>"


def test_the_library_html_draws_chinese_with_the_served_font(chromium_without_cjk, screenshot_dir, capsys):
    page = chromium_without_cjk.new_page(viewport={"width": 1000, "height": 420})
    markup = _library_page()
    page.set_content(markup.replace(webfont.style_element(), ""))
    control = page.evaluate(CJK_RUN_WIDTHS_JS, "#shown")
    assert len(control) > 10 and len(_tofu(control)) == len(control), f"a CJK system font is there: {control}"
    tofu = screenshot_dir / "page-font-without-served-font.png"
    page.screenshot(path=str(tofu))

    page.set_content(markup)
    assert set(page.evaluate(SERVED_FACE_LOADED_JS)) == {"loaded"}  # in the output, and its copy in the head
    page.wait_for_function(NO_TOFU_JS, arg="#shown", timeout=15_000)
    runs = page.evaluate(CJK_RUN_WIDTHS_JS, "#shown")
    shown = {text for text, _ in runs}
    assert {"查询", "口红", "对数的底数在", "博文原文", "合计"} <= shown, shown  # title, note, label, table
    assert len(runs) == len(control) and not _tofu(runs), _tofu(runs)
    served = screenshot_dir / "page-font-served.png"
    page.screenshot(path=str(served))
    with capsys.disabled():
        print(f"\nlibrary HTML without and with the served font: {tofu}, {served}")
    page.close()


NOTEBOOK = {
    "cells": [{"cell_type": "code", "execution_count": None, "id": "c1", "metadata": {}, "outputs": [],
               "source": ["import ltr_teach as lt\n", "lt.set_language('zh')\n",
                          "from ltr_teach.widgets import RankingEditor\n",
                          "RankingEditor(['口红', '面霜', '神仙水'], [3, 0, 2], 'ndcg')"]}],
    "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}},
    "nbformat": 4, "nbformat_minor": 5,
}


def test_a_ranking_editor_in_jupyterlab_draws_every_chinese_label(page_without_cjk, lab_server, screenshot_dir,
                                                                  capsys):
    (lab_server.root_dir / "page_font.ipynb").write_text(json.dumps(NOTEBOOK, ensure_ascii=False), encoding="utf-8")
    page, _ = page_without_cjk
    open_notebook(page, lab_server, "page_font.ipynb")
    run_all_cells(page)
    editor = page.locator(".ltr-editor").first
    editor.wait_for(timeout=UI_TIMEOUT_MS)
    page.wait_for_function("() => document.querySelector('.ltr-editor .ltr-table table') !== null")
    assert set(page.evaluate(SERVED_FACE_LOADED_JS)) == {"loaded"}
    page.wait_for_function(NO_TOFU_JS, arg=".ltr-editor", timeout=15_000)
    code = page.evaluate(CJK_RUN_WIDTHS_JS, ".jp-NotebookPanel .jp-InputArea")
    assert code and len(_tofu(code)) == len(code), f"the code cell draws Chinese: a CJK system font is there {code}"
    runs = page.evaluate(CJK_RUN_WIDTHS_JS, ".ltr-editor")
    shown = {text for text, _ in runs}
    assert {"口红", "面霜", "神仙水", "等级", "上移", "增益", "归一化折损累计增益"} <= shown, shown
    assert not _tofu(runs), _tofu(runs)
    # the plot's accessible name is its description (issue 13's alt text), in Chinese
    plot = page.get_by_role("img", name=re.compile("按名次逐位画出的 NDCG.*口红.*结果：NDCG"))
    assert plot.count() == 1
    item = page.locator(".ltr-editor .widget-html-content", has_text="口红").first
    assert webfont.FAMILY in item.evaluate("e => getComputedStyle(e).fontFamily")
    shot = screenshot_dir / "page-font-editor.png"
    editor.screenshot(path=str(shot))
    with capsys.disabled():
        print(f"\nranking editor in JupyterLab without a CJK system font: {shot}")
