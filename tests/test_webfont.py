"""The page's CJK font (ltr_teach.core.webfont): what it holds, when it is served, and that nbval ignores it."""

import base64
import importlib.util
import io
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from fontTools.ttLib import TTFont

import ltr_teach as lt
from ltr_teach.core import webfont

ROOT = Path(__file__).resolve().parents[1]
PLOT_FONT = ROOT / "ltr_teach" / "interactive" / "fonts" / "NotoSansCJKsc-Regular-subset.otf"


def _tool():
    spec = importlib.util.spec_from_file_location("make_font_subset", ROOT / "tools" / "make_font_subset.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(autouse=True)
def _fresh_kernel():
    from ltr_teach.interactive import starting_state

    webfont.enabled, webfont._served = True, False
    yield
    webfont.enabled, webfont._served = None, False
    starting_state.forget()  # the widgets these tests display and then change are no notebook's


def _cmap(path):
    return set(TTFont(str(path)).getBestCmap())


def test_the_web_font_holds_every_chinese_character_of_the_catalogue():
    # read independently of the tool: every character of every Chinese translation
    with open(ROOT / "ltr_teach" / "locale" / "zh_CN" / "LC_MESSAGES" / "ltr_teach.po", "rb") as fh:
        chinese = {c for m in read_po(fh) if m.id for c in m.string if re.match(r"[\u3000-\u9fff\uff00-\uffef]", c)}
    missing = sorted(c for c in chinese if ord(c) not in _cmap(webfont.WEB_FONT))
    assert len(chinese) > 500 and not missing, f"run `python tools/make_font_subset.py --web`: missing {''.join(missing)}"


def test_the_web_font_holds_every_character_the_library_and_the_course_code_show():
    wanted = {ord(c) for c in _tool().web_characters()} & _cmap(PLOT_FONT)   # the plot font has what exists
    for name in ("小棕瓶眼霜", "神仙水", "口红", "级联模型", "归一化折损累计增益"):   # items, glossary terms
        assert {ord(c) for c in name} <= wanted
    missing = sorted(wanted - _cmap(webfont.WEB_FONT))
    assert not missing, f"run `python tools/make_font_subset.py --web`: missing {''.join(map(chr, missing))}"


def test_the_web_font_is_a_small_subset_of_the_bundled_font_with_its_licence():
    web, plot = TTFont(str(webfont.WEB_FONT)), TTFont(str(PLOT_FONT))
    assert web.flavor == "woff" and set(web.getBestCmap()) < set(plot.getBestCmap())
    assert web["name"].getDebugName(1) == plot["name"].getDebugName(1) == "Noto Sans CJK SC"
    assert "SIL Open Font License" in (web["name"].getDebugName(13) or "")
    # the same outline for a character as the plot font's (a subset, not another font)
    glyph = web.getBestCmap()[ord("霜")]
    assert web["hmtx"][glyph] == plot["hmtx"][plot.getBestCmap()[ord("霜")]]
    size = webfont.WEB_FONT.stat().st_size
    assert size < 200_000 and size < PLOT_FONT.stat().st_size / 20   # ~116 KB against 4.1 MB


def test_the_style_element_carries_exactly_the_web_font():
    style = webfont.style_element()
    data = re.search(r"url\(data:font/woff;base64,([A-Za-z0-9+/=]+)\)", style).group(1)
    assert base64.b64decode(data) == webfont.WEB_FONT.read_bytes()
    TTFont(io.BytesIO(base64.b64decode(data)))  # a font a parser reads
    assert "\n" not in style  # one line: nbval's sanitizer pattern matches it


def test_the_stack_puts_the_served_font_after_the_system_fonts():
    stack = [f.strip().strip("'") for f in re.sub(r"var\([^)]*\)", "JUPYTER", webfont.FONT_STACK).split(",")]
    assert stack[0] == "JUPYTER" and stack[-1] == "sans-serif" and stack[-2] == webfont.FAMILY
    assert {"PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC"} <= set(stack[1:-2])


def test_served_once_with_the_first_chinese_output_of_the_kernel():
    english = lt.ndcg([3, 2, 3])._repr_html_()
    assert "ltr-teach-font" not in english  # nothing Chinese: no font
    lt.set_language("zh")
    try:
        first = lt.ndcg([3, 2, 3])._repr_html_()
        second = lt.ndcg([3, 2, 3])._repr_html_()
    finally:
        lt.set_language(None)
    assert first.startswith(webfont.style_element()) and "ltr-teach-font" not in second
    assert first[len(webfont.style_element()):] == second


def test_outside_a_kernel_nothing_is_served():
    from ltr_teach.interactive.widgets import example_card

    webfont.enabled = None  # auto: this test process is not a Jupyter kernel
    markup = example_card("000-map-two-queries")._repr_html_()
    assert "查询1 MAC 口红" in markup and "ltr-teach-font" not in markup
    webfont.enabled = True  # the same card in a kernel carries the font
    assert example_card("000-map-two-queries")._repr_html_().startswith(webfont.style_element())


def test_the_first_widget_carries_the_font_in_a_hidden_first_child_and_its_table_never_does():
    from ltr_teach.interactive.widgets import RankingEditor

    editor = RankingEditor(["口红", "面霜", "神仙水"], [3, 0, 2], "ndcg")
    bundle = editor._repr_mimebundle_()
    first = editor.widget.children[0]
    assert "ltr-font" in first._dom_classes and first.value == webfont.style_element()
    assert first.layout.display == "none" and "application/vnd.jupyter.widget-view+json" in bundle
    editor.move(2, 0)  # the table is redrawn: the font is never part of the table's HTML
    assert "ltr-teach-font" not in editor.table.value
    other = RankingEditor(["眼霜"], [1], "ndcg")
    other._repr_mimebundle_()
    assert not [w for w in other.widget.children if "ltr-font" in w._dom_classes]  # once per kernel


def test_html_inside_a_panel_is_held():
    from ltr_teach.interactive.panels import side_by_side

    lt.set_language("zh")
    try:
        panel = side_by_side(("A", lt.ndcg([3, 2])), ("B", lt.ndcg([2, 3])))
        markup = panel._repr_html_()
    finally:
        lt.set_language(None)
    assert markup.count("<style id='ltr-teach-font'>") == 1 and markup.startswith(webfont.style_element())


def test_nbval_ignores_the_served_style():
    cfg = (ROOT / "tests" / "nbval_sanitize.cfg").read_text(encoding="utf-8")
    pairs = re.findall(r"^regex: (.*)$\n^replace: (.*)$", cfg, re.MULTILINE)  # nbval's own reading of the file
    shown = webfont.style_element() + "<div class='ltr-teach-table'>口红</div>"
    for regex, replace in pairs:
        shown = re.sub(regex, replace, shown)
    assert shown == "<div class='ltr-teach-table'>口红</div>"
