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
from ltr_teach.core.i18n import using_language
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


@pytest.mark.parametrize("language", ["en", "zh"])
def test_cards_panels_and_tables_name_the_posts(language):
    with using_language(language):
        shown = [str(erratum_card(e)) + erratum_html(e) for e in examples.ERRATA]
        shown += [str(example_card(ex)) + example_card(ex)._repr_html_() for ex in examples.WORKED_EXAMPLES]
        shown += [str(errata_panel(number)) + errata_panel(number).html for number in examples.DOCUMENTS]
        shown += [str(documents_table()), str(glossary_table()), examples.format_errata(), examples.format_examples()]
        shown += [str(examples_table(ex.id)) for ex in examples.WORKED_EXAMPLES]
    wrong = sorted({name for text in shown for name in _wrong_names(text)})
    assert wrong == []


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
