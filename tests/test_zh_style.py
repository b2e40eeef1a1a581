"""Issue 22 item 6: every Chinese surface a student reads follows the house style of ``docs/zh_style.md``.

Surfaces: the markdown cells of ``notebooks/zh/*.ipynb`` and ``exercises/zh/*.ipynb`` (as built, so the generated
headers and 00's map are included), every msgstr of the zh_CN catalogue and ``docs/teacher_guide.zh.md``.

Rules (outside code, math, link URLs, HTML tags and the catalogue's placeholders):

``cjk-latin``        a Chinese character directly touching a Latin letter or a digit: ``共3个`` → ``共 3 个``;
``corner-quotes``    「」 or 『』: the course quotes with “…” (and ‘…’ inside);
``straight-quotes``  straight double quotes around Chinese text: ``"眼霜"`` → ``“眼霜”``;
``half-width-punct`` a half-width , ; ? ! right after a Chinese character: ``排名,`` → ``排名，`` (except inside a
                     quotation “…”, which keeps the quoted post's punctuation);
``xianxiu``          先修: the heading is 预备知识.

The checker is tested on small good and bad strings first, so each rule can fail.
"""

import html
import importlib.util
import json
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("zh_style", ROOT / "tools" / "zh_style.py")
zh_style = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(zh_style)
violations, bank_messages, PO, GUIDE = zh_style.violations, zh_style.bank_messages, zh_style.PO, zh_style.GUIDE


# ---------------------------------------------------------------------------------------------- the rules themselves

@pytest.mark.parametrize("bad, rule", [
    ("共3个查询", "cjk-latin"), ("用MRR打分", "cjk-latin"), ("NDCG@10是", "cjk-latin"), ("第 2位", "cjk-latin"),
    ("AUC**平均**是 0.5", "cjk-latin"), ("**平均**0.5", "cjk-latin"),
    ("搜「眼霜」的用户", "corner-quotes"), ("『页面 A』", "corner-quotes"),
    ('搜 "眼霜" 的用户', "straight-quotes"), ('所谓"价值减半"', "straight-quotes"),
    ('"NDCG"不止一个，见"NDCG 的差异"一节', "straight-quotes"), ("预测'不点击'的模型", "straight-quotes"),
    ("排名,然后", "half-width-punct"), ("对吗?", "half-width-punct"), ("好!", "half-width-punct"),
    ("见下;", "half-width-punct"), ("“好”之后,然后", "half-width-punct"), ("**先修**：01", "xianxiu"),
])
def test_each_rule_catches_its_break(bad, rule):
    assert rule in {r for r, _, _ in violations(bad)}, bad


@pytest.mark.parametrize("good", [
    "共 3 个查询，用 MRR 打分：NDCG@10 是 0.5。",
    "AUC **平均**是 0.5，这个查询**全部**的相关文档",
    "搜“眼霜”的用户说“我要‘那一款’”。",
    "**倒数排名**（RR）用 $1/r$ 打分，第$r$位，$$\\mathrm{RR}=1/r$$。",
    "运行 `lt.mrr(x)`，或`lt.ap(x)`返回值，见[02](02_mrr.ipynb)和<br>下文<b>粗体</b>。",
    "```python\nx = \"眼霜\"  # 中文,注释\n```\n好。",
    "打开 https://example.org/a1b2 即可。<!-- 先修a -->",
    "占比 30%，P@3 为 2/3。",
    '“NDCG”在 "a" 和 "b" 里不同。',
    "**预备知识**：01 · 精确率",
    "博文 000 说“相关度得分都是 0,N 也变成了 0,那么答案将出错”。",
])
def test_the_style_spares_what_it_allows(good):
    assert violations(good) == []


def test_placeholders_are_spared_only_in_the_catalogue():
    assert violations("第{rank}位，共%(n)d个，%s条", placeholders=True) == []
    assert {r for r, _, _ in violations("第{rank}位", placeholders=False)} == set()  # braces are no letters
    assert {r for r, _, _ in violations("共%(n)d个", placeholders=False)} == {"cjk-latin"}
    assert {r for r, _, _ in violations("第{rank}位,共3个", placeholders=True)} == {"cjk-latin", "half-width-punct"}


def test_line_numbers_survive_skipped_blocks():
    text = "好。\n```\na\nb\n```\n$$x\ny$$\n共3个"
    assert violations(text) == [("cjk-latin", 8, "共3个")]


def test_the_fixer_inserts_spaces_and_swaps_marks_only():
    fix = zh_style.fix
    assert fix('搜「眼霜」的用户,第2位是"好"吗?') == "搜“眼霜”的用户，第 2 位是“好”吗？"
    assert fix("（召回率, 精确率）用`x1`和$r$算") == "（召回率，精确率）用`x1`和$r$算"
    assert fix("博文说“得分都是0,N 也是0”") == "博文说“得分都是 0,N 也是 0”"  # a quotation keeps its comma
    assert fix("第{rank}位", placeholders=True) == "第{rank}位"
    assert fix("模型 AUC**平均**是，AP**低于**C 的，**平均**0.5") == "模型 AUC **平均**是，AP **低于** C 的，**平均** 0.5"
    source = "<!-- zh -->\n共3个\n<!-- en -->\n眼霜1\n<!-- code -->\nx = '共3个'\n"
    assert zh_style.fix_source(source) == source.replace("共3个\n<", "共 3 个\n<")


def test_the_catalogue_fixer_keeps_each_line():
    po = 'msgid "a"\nmsgstr ""\n"共3个"\n"查询,"\n\nmsgid "b"\nmsgstr "\\"好\\"吗?"\n'
    fixed, changed = zh_style.fix_catalogue(po, bank=True)
    assert fixed == 'msgid "a"\nmsgstr ""\n"共 3 个"\n"查询，"\n\nmsgid "b"\nmsgstr "“好”吗？"\n' and changed == 2


# ---------------------------------------------------------------------------------------------- the surfaces

def _notebook_violations(path: Path) -> list[str]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    found = []
    for index, cell in enumerate(cells):
        if cell["cell_type"] == "markdown":
            source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            found += [f"{path.relative_to(ROOT)} cell {index} line {line}: [{rule}] {snippet!r}"
                      for rule, line, snippet in violations(source)]
    return found


NOTEBOOKS = sorted((ROOT / "notebooks" / "zh").glob("*.ipynb")) + sorted((ROOT / "exercises" / "zh").glob("*.ipynb"))


def test_there_are_zh_notebooks_to_check():
    assert len(NOTEBOOKS) >= 28


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_zh_notebook_follows_the_house_style(path):
    found = _notebook_violations(path)
    assert found == [], "\n".join(found)


#: Headings of the posts' own sections, printed as the posts write them (post 000's 1.2, post 001's 一、MAP),
#: and post 000's query name as its data spell it (a plot's legend).
POST_HEADINGS = ("查询1 MAC 口红", "查询2 神仙水", "主题1", "主题2", "MAC口红")


def output_prose(output: dict) -> str:
    """The prose of one saved output, one text node a line: HTML without its tags, code, scripts and the
    library calls a panel shows as code (``lt.mrr({'眼霜': …})``); a stream as printed; a plain repr is data."""
    data = output.get("data", {})
    join = lambda v: "".join(v) if isinstance(v, list) else v
    if "text/html" in data:
        text = re.sub(r"<(script|style|code|pre|kbd|math)\b.*?</\1>", " ", join(data["text/html"]), flags=re.DOTALL | re.IGNORECASE)
        text = html.unescape(re.sub(r"<[^<>]*>", "\n", text))
        text = re.sub(r"\b(?:lt|ltr_teach|np)\.\w[\w.]*\(.*", " ", text)
    elif output.get("output_type") == "stream" and output.get("name") == "stdout":
        text = join(output.get("text", ""))
    else:
        return ""
    for heading in POST_HEADINGS:
        text = text.replace(heading, " ")
    # a “…” in an output is an erratum card quoting a post verbatim (the course's own quoted words are msgstr,
    # checked in full by test_catalogue_*)
    return re.sub(r"“[^”]*”", " ", text)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_zh_notebook_outputs_follow_the_house_style(path):
    found = []
    for index, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
        for output in cell.get("outputs", []):
            found += [f"{path.relative_to(ROOT)} cell {index} output: [{rule}] {snippet.strip()!r}"
                      for rule, _, snippet in violations(output_prose(output))]
    assert found == [], "\n".join(found)


def test_output_prose_keeps_text_and_drops_code():
    panel = {"output_type": "display_data", "data": {"text/html": "<td>第3名</td><td>lt.mrr({&#x27;眼霜&#x27;: [0]})</td>"
                                                                   "<code>x = '中文'</code><b>好</b>"}}
    assert [rule for rule, _, _ in violations(output_prose(panel))] == ["cjk-latin"]  # 第3名 only
    assert violations(output_prose({"output_type": "stream", "name": "stdout", "text": "共 3 个查询，MRR 是 0.5。"})) == []
    assert violations(output_prose({"output_type": "stream", "name": "stdout", "text": "博文写道：“AUC的最小值为0.5”"})) == []


def test_teacher_guide_follows_the_house_style():
    text = GUIDE.read_text(encoding="utf-8")
    found = [f"{GUIDE.relative_to(ROOT)}:{line}: [{rule}] {snippet!r}" for rule, line, snippet in violations(text)]
    assert found == [], "\n".join(found)


def _catalogue_violations(bank: bool) -> list[str]:
    with PO.open("rb") as handle:
        catalogue = read_po(handle, locale="zh_CN")
    in_bank = bank_messages()
    assert len(in_bank) > 50
    found = []
    for message in catalogue:
        if not message.id or not message.string:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        if any(i in in_bank for i in ids) != bank:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for string in strings:
            found += [f"{PO.relative_to(ROOT)}:{message.lineno}: [{rule}] {snippet!r}"
                      for rule, _, snippet in violations(string, placeholders=True)]
    return found


def test_catalogue_follows_the_house_style():
    found = _catalogue_violations(bank=False)
    assert found == [], "\n".join(found)


def test_catalogue_bank_prompts_follow_the_house_style():
    found = _catalogue_violations(bank=True)
    assert found == [], "\n".join(found)


def test_the_style_sheet_exists_and_names_the_rules():
    sheet = (ROOT / "docs" / "zh_style.md").read_text(encoding="utf-8")
    for word in ("“", "预备知识", "先修", "博文 000", "glossary.py", "NDCG@10"):
        assert word in sheet, word
