"""The collection loader and ``ltr_teach_command`` under the hostile input of issue 32, each with its reproduction."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest

import ltr_teach as lt
from ltr_teach.core.i18n import using_language
from ltr_teach.runs import collection as col

QUERIES = ".I 1\n.W\nflutter\n"
QRELS = "1 1 1\n"


def _folder(tmp_path: Path, docs=".I 1\n.W\nwing flutter\n", queries=QUERIES, qrels=QRELS) -> Path:
    folder = tmp_path / "cran"
    folder.mkdir(exist_ok=True)
    for name, text in zip(col.GLASGOW_FILES, (docs, queries, qrels)):
        (folder / name).write_text(text, encoding="utf-8")
    return folder


@pytest.mark.parametrize(("line", "shown"), [
    (".I", "'.I'"),                    # was record '0'
    (".I   ", "'.I   '"),
    (".I ١٢", "'.I ١٢'"),              # Arabic-Indic digits: str.isdigit() says yes
    (".I ²", "'.I ²'"),                # a superscript two
    (".I １", "'.I １'"),              # a full-width one
    (".I 1 2", "'.I 1 2'"),
    (".I -3", "'.I -3'"),
])
def test_a_record_number_is_ascii_digits(tmp_path, line, shown):
    folder = _folder(tmp_path, docs=f".I 1\n.W\nwing\n{line}\n.W\nheat\n")
    with pytest.raises(ValueError, match=rf"cran\.all\.1400', line 4: \.I must be followed by a number \(digits 0 to 9\); "
                                         rf"got {shown}"):
        col.load(folder)


def test_leading_zeros_still_name_the_same_record(tmp_path):
    c = col.load(_folder(tmp_path, docs=".I 001\n.W\nwing\n.I 0\n.W\nheat\n"))
    assert c.docs == {"1": "wing", "0": "heat"}


def test_a_document_judged_twice_with_different_codes_is_refused(tmp_path):
    folder = _folder(tmp_path, docs=".I 1\n.W\nwing\n.I 2\n.W\nheat\n", qrels="1 1 1\n1 2 3\n1 1 4\n")
    with pytest.raises(ValueError, match=r"cranqrel', line 3: query '1' judges document '1' twice, grades 4 and 1; "
                                         r"a document has one judgment per query"):
        col.load(folder)


def test_the_same_judgment_repeated_is_one_judgment(tmp_path):
    c = col.load(_folder(tmp_path, qrels="1 1 2\n1 1 2\n"))
    assert c.qrels == {"1": {"1": 3}}


def test_ir_datasets_judging_a_document_twice_is_refused(monkeypatch):
    record = types.SimpleNamespace
    dataset = record(docs_iter=lambda: iter([record(doc_id="1", text="wing")]),
                     queries_iter=lambda: iter([record(query_id="1", text="wing")]),
                     qrels_iter=lambda: iter([record(query_id="1", doc_id="1", relevance=1),
                                              record(query_id="1", doc_id="1", relevance=-1)]))
    fake = types.ModuleType("ir_datasets")
    fake.load = lambda name: dataset
    monkeypatch.setitem(sys.modules, "ir_datasets", fake)
    with pytest.raises(ValueError, match="ir_datasets cranfield qrels: query '1' judges document '1' twice, grades 4 and 0"):
        col.load("cranfield")


def test_a_path_of_5000_characters_is_a_value_error(tmp_path):
    long = str(tmp_path / ("x" * 5000))
    with pytest.raises(ValueError, match=r"source = '/.*'\.\.\.'x+' \(5,\d{3} characters\) cannot be a folder: "
                                         r"File name too long; give 'sample', 'cranfield' or a folder's path"):
        col.load(long)
    with pytest.raises(ValueError, match=r"documents = '.*' \(5,\d{3} characters\) cannot be read: File name too long"):
        col.read_records(long)


def test_a_nul_in_a_path_is_a_value_error_naming_it(tmp_path):
    with pytest.raises(ValueError, match=r"source = '.*a\\x00b' is neither 'sample', 'cranfield' nor a folder"):
        col.load(str(tmp_path / "a\0b"))
    with pytest.raises(ValueError, match=r"documents = '.*a\\x00b' cannot be read: .*null byte"):
        col.read_records(str(tmp_path / "a\0b"))


def test_the_message_of_a_missing_ir_datasets_says_the_archive_size(monkeypatch):
    # ir_datasets' own record of Cranfield's archive (etc/downloads.json in ir_datasets 0.5, "size_hint": 506960 bytes)
    monkeypatch.setitem(sys.modules, "ir_datasets", None)
    with pytest.raises(ImportError, match=r"downloads a 0\.5 MB archive once, 1\.6 MB unpacked"):
        col.load("cranfield")


# --- ltr_teach_command on a system whose pipes are not UTF-8 ---------------------------------------------------

def test_a_child_on_a_chinese_windows_code_page_is_read(monkeypatch):
    # Windows' Python writes to a pipe in the ANSI code page: PYTHONIOENCODING=cp936 makes a Linux child do
    # the same. Before, the Chinese edition's output (GBK bytes) failed to decode as UTF-8.
    monkeypatch.setenv("PYTHONPATH", str(Path(lt.__file__).parent.parent))
    monkeypatch.setenv("PYTHONIOENCODING", "cp936")
    with using_language("zh"):
        out = col.ltr_teach_command("--help")
    assert out.splitlines()[:2] == ["$ ltr-teach --help", "用法：ltr-teach [-h] [--lang {en,zh}]"]
    assert "打印指标的计算步骤表、精确值和小数值" in out and "\ufffd" not in out


def test_a_child_on_a_western_code_page_still_prints_chinese(monkeypatch):
    # cp1252 cannot encode Chinese: before, the child fell back to English with a note on stderr
    monkeypatch.setenv("PYTHONPATH", str(Path(lt.__file__).parent.parent))
    monkeypatch.setenv("PYTHONIOENCODING", "cp1252")
    with using_language("zh"):
        out = col.ltr_teach_command("--help")
    assert "位置参数" in out and "cannot show Chinese" not in out


def test_a_child_writing_bytes_that_are_not_utf8_does_not_stop_the_notebook(tmp_path, monkeypatch):
    # a stand-in ltr_teach.cli first on the path writes Latin-1 bytes, as a program ignoring PYTHONIOENCODING would
    fake = tmp_path / "fake" / "ltr_teach"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("", encoding="utf-8")
    (fake / "cli.py").write_text("import sys\nsys.stdout.buffer.write(b'caf\\xe9 \\xe2\\x89\\x88 ok\\n')\n",
                                 encoding="utf-8")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path / "fake"))
    out = col.ltr_teach_command("eval", cwd=tmp_path)
    assert out.splitlines() == ["$ ltr-teach eval", "caf\ufffd ≈ ok"]
