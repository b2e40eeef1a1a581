"""The course exists in two editions built from one source (tools/build_course.py).

Each source in ``course/`` is rebuilt in memory and compared with the committed notebooks of both
editions: a notebook edited by hand instead of through its source, a missing edition, code cells that
differ between the editions, or a Chinese edition whose prose is not Chinese fails here.
"""

import importlib.util
import sys
from pathlib import Path

import nbformat
import pytest

from ltr_teach.core import i18n
from ltr_teach.core.glossary import PROPER_NAMES

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("build_course", ROOT / "tools" / "build_course.py")
build_course = importlib.util.module_from_spec(_spec)
sys.modules["build_course"] = build_course  # dataclasses look their module up while the file runs
_spec.loader.exec_module(build_course)

SOURCES = build_course.sources()
EDITIONS = [(source, language) for source in SOURCES for language in build_course.LANGUAGES]
#: The issue's floor for a Chinese edition's prose (code, formulas and names not counted).
MIN_CHINESE_SHARE = 0.85


def _label(value):
    return f"{value.parent.name}/{value.stem}" if isinstance(value, Path) else str(value)


def _committed(source, language):
    return nbformat.read(build_course.edition_path(source, language), as_version=4)


def test_the_course_has_its_sources():
    # the exercise sheets of the five original families at least, and every source parses
    names = {path.stem for path in SOURCES if path.parent.name == "exercises"}
    assert {"01_precision_recall_f", "02_mrr_map", "03_dcg_ndcg", "04_err", "05_roc_auc"} <= names
    for path in SOURCES:
        assert build_course.parse(path)


@pytest.mark.parametrize(("source", "language"), EDITIONS, ids=_label)
def test_each_edition_is_built_from_its_source(source, language):
    built = build_course.build(source, language)
    committed = _committed(source, language)
    assert [(c.cell_type, c.source) for c in committed.cells] == [(c.cell_type, c.source) for c in built.cells], (
        f"{build_course.edition_path(source, language).relative_to(ROOT)} differs from {source.relative_to(ROOT)}: "
        "edit the source and run python tools/build_course.py")


@pytest.mark.parametrize("source", SOURCES, ids=_label)
def test_both_editions_run_the_same_code(source):
    zh, en = (_committed(source, language) for language in ("zh", "en"))
    code = [[c.source for c in nb.cells if c.cell_type == "code"] for nb in (zh, en)]
    assert code[0] == code[1]
    assert [c.cell_type for c in zh.cells] == [c.cell_type for c in en.cells]


@pytest.mark.parametrize("source", SOURCES, ids=_label)
def test_the_chinese_edition_is_written_in_chinese(source):
    markdown = "\n\n".join(c.source for c in _committed(source, "zh").cells if c.cell_type == "markdown")
    share = build_course.chinese_share(markdown, PROPER_NAMES)
    assert share >= MIN_CHINESE_SHARE, f"{share:.0%} Chinese"


def test_every_edition_notebook_has_a_source():
    expected = {build_course.edition_path(s, lang) for s, lang in EDITIONS}
    found = {path for folder in build_course.FOLDERS.values() for lang in build_course.LANGUAGES
             for path in (folder / lang).glob("*.ipynb")}
    assert found - expected == set(), "a notebook in an edition folder without a source in course/"


@pytest.mark.parametrize(("source", "language"), EDITIONS, ids=_label)
def test_each_edition_folder_names_its_language(source, language):
    assert i18n.edition_language(build_course.edition_path(source, language).parent) == language


def test_tutorial_code_cells_are_short():
    # issue 13: no code cell longer than ten lines in a tutorial notebook (exercise sheets are generated)
    long_cells = [(source.stem, language, c.source) for source, language in EDITIONS
                  if source.parent.name == "notebooks" for c in _committed(source, language).cells
                  if c.cell_type == "code" and len(c.source.splitlines()) > 10]
    assert long_cells == []


def test_the_kernel_language_follows_set_language_then_env_then_edition_then_locale(tmp_path, monkeypatch):
    (tmp_path / i18n.EDITION_FILE).write_text("zh\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("LTR_TEACH_LANG", raising=False)
    monkeypatch.setenv("LANGUAGE", "en_US")
    i18n.set_language(None)
    assert i18n.get_language() == "zh"           # the edition beats the locale
    monkeypatch.setenv("LTR_TEACH_LANG", "en")
    assert i18n.get_language() == "en"           # the environment variable beats the edition
    i18n.set_language("zh")
    monkeypatch.setenv("LTR_TEACH_LANG", "en")
    assert i18n.get_language() == "zh"           # set_language beats everything
    i18n.set_language(None)
    monkeypatch.delenv("LTR_TEACH_LANG")
    (tmp_path / i18n.EDITION_FILE).write_text("klingon\n", encoding="utf-8")
    assert i18n.get_language() == "en"           # an unknown edition falls back to the locale


@pytest.mark.parametrize(("text", "complaint"), [
    ("<!-- zh -->\n中文\n<!-- code -->\nx = 1\n", "must be followed by its <!-- en --> partner"),
    ("<!-- en -->\nEnglish\n", "must follow its <!-- zh --> partner"),
    ("<!-- zh -->\n中文\n<!-- en -->\n\n<!-- code -->\nx\n", "an empty <!-- en --> block"),
    ("stray text\n<!-- code -->\nx = 1\n", "text before the first marker"),
    ("<!-- exercises -->\n", "write <!-- exercises family=KEY -->"),
])
def test_a_malformed_source_names_the_file_the_line_and_the_rule(tmp_path, text, complaint):
    source = tmp_path / "99_broken.md"
    source.write_text(text, encoding="utf-8")
    with pytest.raises(build_course.SourceError, match="99_broken.md:[0-9]+: ") as raised:
        build_course.parse(source)
    assert complaint in str(raised.value)


def test_chinese_share_counts_prose_only():
    # 16 Chinese characters; NDCG (abbreviation), $...$, `code` and the link target are not prose
    text = "NDCG 把每个位置的增益 $2^{rel}-1$ 除以 `log2(i+1)`，见 [第四节](04_dcg_ndcg.ipynb)。"
    assert build_course.chinese_share(text, PROPER_NAMES) == 1.0
    # 2 Chinese characters against "the" + "normalised" (13 Latin letters): 2 / 15
    assert build_course.chinese_share("定义 the normalised", PROPER_NAMES) == pytest.approx(2 / 15)
