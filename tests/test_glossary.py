"""The glossary is the one place for the field's Chinese terms: the registry, the errata and the
catalogue follow it, and no catalogue or notebook uses a term it marks wrong (outside a quotation).

The rule (``ltr_teach.core.glossary.misused_terms``): a wrong name is a use when it appears outside
「」, 『』, “”, ‘’, "" or `code`; a document's wrong term is quoted (“瀑布模型”) when the text talks
about it. A name that is right for another concept (准确率 is accuracy) is a use only where it
stands for the term (准确率 beside 召回率, or glossed as Precision).
"""

import json
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from ltr_teach.core.glossary import TERMS, misused_terms, zh, zh_all
from ltr_teach.metrics.registry import METRICS
from ltr_teach.teaching.examples import ERRATA

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = [p for folder in ("notebooks", "exercises") for p in sorted((ROOT / folder).rglob("*.ipynb"))
             if ".ipynb_checkpoints" not in p.parts]
MISNOMERS = [m for term in TERMS.values() for m in term.wrong]


@pytest.mark.parametrize(("text", "wrong"), [
    ("ERR 基于瀑布模型：用户从上往下看。", ["瀑布模型"]),
    ("期望倒数排序（ERR）", ["期望倒数排序"]),
    ("准确率(Precesion, P)", ["准确率"]),
    ("将准确率与召回率联立", ["准确率"]),
    ("召回率和准确率", ["准确率"]),
    ("查全率 precision = TP/(TP+FP)", ["查全率"]),
    ("召回率(查准率) recall = TP/(TP+FN)", ["查准率"]),
])
def test_a_wrong_term_in_running_text_is_found(text, wrong):
    assert [m.wrong for m in misused_terms(text)] == wrong


@pytest.mark.parametrize("text", [
    "文档 003 把级联模型叫作「瀑布模型」。",
    "Document 003 calls it “瀑布模型” (\"waterfall model\").",
    "准确率是 (TP+TN)/总数，即 accuracy。",  # 准确率 for accuracy is right
    "精确率和召回率；查准率、查全率。",
    "`期望倒数排序`",
])
def test_a_quoted_or_rightly_used_term_is_not_a_use(text):
    assert misused_terms(text) == []


def test_every_wrong_term_says_why_and_is_one_the_documents_use():
    quoted = " ".join(f"{e.where} {e.printed}" for e in ERRATA if e.kind == "terminology")
    for m in MISNOMERS:
        assert len(m.why) > 20
        assert m.wrong in quoted, f"{m.wrong} is in no terminology erratum: which document uses it?"


def test_a_wrong_name_that_is_right_elsewhere_has_a_pattern_for_its_wrong_use():
    used = {name for term in TERMS.values() for name in (term.zh, *term.alternatives)}
    # 准确率 is accuracy, 查全率 recall, 查准率 precision: each is wrong only for the other concept, so a bare
    # search for the word would flag the right uses; a context pattern finds only the wrong one
    both = [m for m in MISNOMERS if m.wrong in used]
    assert {m.wrong for m in both} == {"准确率", "查全率", "查准率"}
    assert all(m.pattern for m in both)
    assert misused_terms("准确率（accuracy）、查全率（recall）、查准率（precision）") == []


def test_the_chinese_catalogue_uses_no_wrong_term():
    with open(ROOT / "ltr_teach/locale/zh_CN/LC_MESSAGES/ltr_teach.po", "rb") as fh:
        catalogue = read_po(fh)
    bad = [(m.id, [w.wrong for w in misused_terms(m.string)]) for m in catalogue if m.id and misused_terms(m.string)]
    assert not bad


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_notebook_markdown_uses_no_wrong_term(path):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    bad = [(n, [m.wrong for m in misused_terms("".join(c["source"]))])
           for n, c in enumerate(cells) if c["cell_type"] == "markdown" and misused_terms("".join(c["source"]))]
    assert not bad, f"quote the document's term (“...”) or use the glossary's: {bad}"


def test_registry_titles_read_the_glossary():
    assert METRICS["ndcg"].title == f"Normalised DCG ({zh('ndcg')})" == "Normalised DCG (归一化折损累计增益)"
    assert METRICS["precision_at_k"].title == "Precision at k (精确率/查准率)" == f"Precision at k ({zh_all('precision')})"
    assert METRICS["err"].title.endswith(f"({zh('err')})")


def test_terminology_errata_read_the_glossary():
    by_id = {e.id: e for e in ERRATA}
    assert by_id["003-cascade-name"].correct.startswith(zh("cascade_model"))
    assert by_id["003-cascade-name"].printed == TERMS["cascade_model"].wrong[0].wrong
    assert zh_all("precision") in by_id["000-precision-recall-names"].correct


def test_glossary_table_shows_each_term_once_with_its_wrong_names():
    from ltr_teach.teaching.tables import glossary_table

    rows = {row[2]: row for row in glossary_table().rows}
    # written out by hand from the documents: 003 calls the cascade model 瀑布模型; 000 gives 查全率 to
    # precision and 查准率 to recall; 003 calls precision 准确率
    assert rows["cascade model"] == ("级联模型", "–", "cascade model", "瀑布模型")
    assert rows["precision"] == ("精确率", "查准率", "precision", "准确率、查全率")
    assert rows["recall"] == ("召回率", "查全率", "recall", "查准率")
    assert rows["accuracy"] == ("准确率", "精度", "accuracy", "–")
    assert len(glossary_table().rows) == len(TERMS)
