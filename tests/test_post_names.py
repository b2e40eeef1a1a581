"""Issue 22: the five source posts are "博文 000" … "博文 004" / "post 000" … "post 004", never "文档 000" /
"document 000", so that 文档 / document always means a ranked document.

Checked wherever a student reads them: the notebook and exercise-sheet sources, the library's cards, panels and
tables of the errata and worked examples (both languages), the glossary, and every catalogue message the library
uses, the exercise bank's prompts included.
"""

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

from ltr_teach import examples
from ltr_teach.core.glossary import TERMS
from ltr_teach.core.i18n import _, using_language
from ltr_teach.interactive.panels import errata_panel, erratum_html
from ltr_teach.interactive.widgets import erratum_card, example_card
from ltr_teach.teaching.tables import documents_table, examples_table, glossary_table

ROOT = Path(__file__).resolve().parents[1]
#: a post's number, not a file name (000_b1a3...txt) nor an erratum id's tail (000-rank-m-document 000_...)
ZH_POST_AS_DOCUMENT = re.compile(r"文档\s*00[0-4](?![_\d])")
EN_POST_AS_DOCUMENT = re.compile(r"(?<![-\w])documents?\s+00[0-4](?![_\d])", re.IGNORECASE)


def _wrong_names(text: str) -> list[str]:
    return ZH_POST_AS_DOCUMENT.findall(text) + EN_POST_AS_DOCUMENT.findall(text)


def test_the_patterns_catch_the_old_names_and_spare_the_new_ones():
    assert _wrong_names("文档 000 和文档004；Document 001's MAP; documents 002 and 003") == [
        "文档 000", "文档004", "Document 001", "documents 002"]
    assert _wrong_names("博文 000 的 MAP；post 001；相关文档 3 篇；document 3 (grade 1); the 1000 documents") == []
    assert _wrong_names("000-rank-m-document  000_b1a303f0d127bb54.txt; document 0001") == []


@pytest.mark.parametrize("source", sorted((ROOT / "course").glob("*/[0-9][0-9]_*.md")), ids=lambda p: p.stem)
def test_course_sources_name_the_posts(source):
    assert _wrong_names(source.read_text(encoding="utf-8")) == [], source.name


def _displays(language: str) -> list[str]:
    """Every card, panel and table of the errata and worked examples, as text and HTML, in one language."""
    with using_language(language):
        shown = [str(erratum_card(e)) + erratum_html(e) for e in examples.ERRATA]
        shown += [str(example_card(ex)) + example_card(ex)._repr_html_() for ex in examples.WORKED_EXAMPLES]
        shown += [str(errata_panel(number)) + errata_panel(number).html for number in examples.POSTS]
        shown += [str(documents_table()), documents_table()._repr_html_(), str(glossary_table()),
                  examples.format_errata(), examples.format_examples()]
        shown += [str(examples_table(ex.id)) for ex in examples.WORKED_EXAMPLES]
    return shown


@pytest.mark.parametrize("language", ["en", "zh"])
def test_cards_panels_and_tables_name_the_posts(language):
    wrong = sorted({name for text in _displays(language) for name in _wrong_names(text)})
    assert wrong == []


# --- issue 30: a post is shown by its title, never by its file name in the seeds ---------------------------

SEEDS = ROOT.parent / "shared" / "seeds"
if not SEEDS.is_dir():  # a worktree or a clone beside the shared folder
    SEEDS = Path("/work/shared/seeds")
#: a seed's file name: the post's number and 16 hex digits (``000_b1a303f0d127bb54.txt``)
HASHED_NAME = re.compile(r"\b\d{3}_[0-9a-f]{16}\b")


def test_each_post_is_labelled_by_the_title_it_writes():
    for number, post in examples.POSTS.items():
        first = next(line for line in (SEEDS / post.file).read_text(encoding="utf-8").splitlines() if line.strip())
        # a markdown heading mark is not part of a title; post 000 has no title line, its opening sentence stands
        assert post.title == first.strip().lstrip("#").strip().removesuffix("。"), number
    assert [str(post.label) for post in examples.POSTS.values()] == [
        "post 000 · 最近想要总结一下 LTR的算法", "post 001 · 使用NDCG评估关键词推荐系统的相关性",
        "post 002 · Ranking算法评估指标:NDCG", "post 003 · 排序学习评价指标解析",
        "post 004 · IR的评价指标-MAP,MRR和NDCG的形象理解"]
    with using_language("zh"):
        shown = [_(post.label) for post in examples.POSTS.values()]
    # the Chinese edition quotes the same words, spaced between Chinese and Latin by its house style (docs/zh_style.md)
    assert shown == ["博文 000 · 最近想要总结一下 LTR 的算法", "博文 001 · 使用 NDCG 评估关键词推荐系统的相关性",
                     "博文 002 · Ranking 算法评估指标:NDCG", "博文 003 · 排序学习评价指标解析",
                     "博文 004 · IR 的评价指标-MAP,MRR 和 NDCG 的形象理解"]
    assert [text.split(" · ")[1].replace(" ", "") for text in shown] == [
        post.title.replace(" ", "") for post in examples.POSTS.values()]


def test_the_hashed_name_pattern_finds_a_file_name_and_nothing_else():
    assert HASHED_NAME.findall("erratum 000-map-value (000_b1a303f0d127bb54.txt); 004_3f068810c7945fd7") == [
        "000_b1a303f0d127bb54", "004_3f068810c7945fd7"]
    assert HASHED_NAME.findall("post 000 · 最近想要总结一下 LTR的算法; 000-map-value; 1000_b1a303f0d127bb54; "
                               "000_b1a303f0d127bb5") == []


@pytest.mark.parametrize("language", ["en", "zh"])
def test_no_library_display_shows_a_file_name(language):
    shown = _displays(language)
    assert [name for text in shown for name in HASHED_NAME.findall(text)] == []
    title = {"en": "post 004 · IR的评价指标-MAP,MRR和NDCG的形象理解", "zh": "博文 004 · IR 的评价指标-MAP,MRR 和 NDCG 的形象理解"}
    assert sum(title[language] in text for text in shown) >= 5   # the cards, the panel and the tables show titles


def test_no_saved_notebook_or_exercise_shows_a_file_name():
    saved = sorted(ROOT.glob("notebooks/**/*.ipynb")) + sorted(ROOT.glob("exercises/**/*.ipynb"))
    saved += sorted(ROOT.glob("course/**/*.md"))
    assert len(saved) > 40                                       # both editions of every notebook and sheet
    found = {path.relative_to(ROOT).as_posix(): HASHED_NAME.findall(path.read_text(encoding="utf-8"))
             for path in saved}
    assert {path: names for path, names in found.items() if names} == {}


def test_the_card_labels_say_post():
    assert "post says" in str(erratum_card("000-map-value"))
    with using_language("zh"):
        assert "博文原文" in str(erratum_card("000-map-value")) and "博文此处有误" in str(erratum_card("000-map-value"))


def test_the_glossary_names_the_posts():
    notes = [m.why for term in TERMS.values() for m in term.wrong]
    assert notes and [n for n in notes if _wrong_names(n)] == []


def _library_messages() -> set:
    """Every message id the library extracts (as tools/catalogs.py extracts them)."""
    keywords = {"_": None, "N_": None, "Column": (2,)}
    ids = set()
    for path in (ROOT / "ltr_teach").rglob("*.py"):
        for _line, message, _comments, _context in extract_from_file("python", str(path), keywords=keywords):
            ids.add(message[0] if isinstance(message, tuple) else message)
    return ids


def test_the_catalogue_names_the_posts():
    used = _library_messages()
    with open(ROOT / "ltr_teach" / "locale" / "zh_CN" / "LC_MESSAGES" / "ltr_teach.po", "rb") as po:
        catalogue = read_po(po)
    checked = [(m.id, m.string) for m in catalogue if m.id and m.id in used]
    assert len(checked) > 1000                                   # the library's messages, not an empty selection
    wrong = [(msgid, text) for msgid, text in checked if _wrong_names(msgid) or _wrong_names(text)]
    assert wrong == []
