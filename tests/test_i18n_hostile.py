"""The course's language under hostile surroundings (issue 24): a deleted working directory, an edition file
that is a FIFO, a device or a directory, a message shown thousands of times, and an output that cannot
encode Chinese."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import ltr_teach as lt
from ltr_teach.cli import main
from ltr_teach.core import i18n

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def no_choice(monkeypatch):
    """No set_language, no LTR_TEACH_LANG, an English locale: only the edition file can say Chinese."""
    monkeypatch.delenv("LTR_TEACH_LANG", raising=False)
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    i18n.set_language(None)


def test_a_deleted_working_directory_is_no_edition(tmp_path, monkeypatch, no_choice):
    english = str(lt.ndcg([3, 2, 0]))  # shown in the test's own folder (no edition file there: English)
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()  # os.getcwd() now raises FileNotFoundError
    with pytest.raises(FileNotFoundError):
        os.getcwd()
    assert i18n.get_language() == "en"
    assert str(lt.ndcg([3, 2, 0])) == english


def _memory_limit():
    """In the child: at most 3 GB of address space, so that reading an endless file fails fast, not the machine."""
    import resource  # Unix-only: imported where used

    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))


def _language_in(folder: Path, timeout: float = 60) -> subprocess.CompletedProcess:
    """A child started in ``folder`` prints its language and a translated word; it must not wait (nor, where
    the system can cap it, take more than 3 GB)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LANG": "en_US.UTF-8", "PYTHONIOENCODING": "utf-8"}
    for variable in ("LTR_TEACH_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        env.pop(variable, None)
    code = "from ltr_teach.core import i18n; print(i18n.get_language(), i18n._('hint'), i18n._('expected'))"
    return subprocess.run([sys.executable, "-c", code], cwd=folder, env=env, capture_output=True, encoding="utf-8",
                          timeout=timeout, check=True,
                          preexec_fn=_memory_limit if os.name == "posix" else None)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="a FIFO is a Unix file (os.mkfifo)")
def test_a_fifo_named_like_the_edition_file_neither_hangs_nor_counts(tmp_path):
    os.mkfifo(tmp_path / i18n.EDITION_FILE)  # nobody ever writes to it: reading it would wait forever
    assert _language_in(tmp_path).stdout == "en hint expected\n"


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_an_edition_file_linked_to_an_endless_device_is_not_read(tmp_path):
    (tmp_path / i18n.EDITION_FILE).symlink_to("/dev/zero")  # read_text() would fill the memory
    assert _language_in(tmp_path).stdout == "en hint expected\n"


def test_a_folder_named_like_the_edition_file_is_no_edition(tmp_path, no_choice, monkeypatch):
    (tmp_path / i18n.EDITION_FILE).mkdir()
    monkeypatch.chdir(tmp_path)
    assert i18n.get_language() == "en"


def test_a_linked_edition_file_is_read_and_a_large_one_only_at_its_start(tmp_path, no_choice, monkeypatch):
    (tmp_path / "real").write_text("zh\n", encoding="utf-8")
    (tmp_path / i18n.EDITION_FILE).symlink_to(tmp_path / "real")  # a link to a regular file is read
    monkeypatch.chdir(tmp_path)
    assert i18n.get_language() == "zh"
    asked = []
    real_read = os.read
    monkeypatch.setattr(os, "read", lambda fd, n: (asked.append(n), real_read(fd, n))[1])
    (tmp_path / "real").write_text("en\n" + "\n" * 50_000_000, encoding="utf-8")  # 50 MB: a file gone wrong
    assert i18n.get_language() == "en"
    assert len(asked) == 1 and asked[0] <= 64


def test_the_edition_file_is_read_once_until_the_folder_or_the_file_changes(tmp_path, no_choice, monkeypatch):
    opened = []
    real_open = os.open
    monkeypatch.setattr(os, "open", lambda path, *args, **kw: (opened.append(str(path)), real_open(path, *args, **kw))[1])
    zh, en = tmp_path / "zh", tmp_path / "en"
    for folder, language in ((zh, "zh"), (en, "en")):
        folder.mkdir()
        (folder / i18n.EDITION_FILE).write_text(language + "\n", encoding="utf-8")
    monkeypatch.chdir(zh)
    assert [i18n._("hint") for _ in range(1000)] == ["提示"] * 1000
    assert opened == [str(zh / i18n.EDITION_FILE)]
    monkeypatch.chdir(en)  # %cd in a kernel
    assert i18n._("hint") == "hint"
    monkeypatch.chdir(zh)
    assert i18n._("hint") == "提示"
    assert opened == [str(zh / i18n.EDITION_FILE), str(en / i18n.EDITION_FILE), str(zh / i18n.EDITION_FILE)]
    (zh / i18n.EDITION_FILE).write_text("en\r\n", encoding="utf-8")  # rewritten: another size
    assert i18n._("hint") == "hint"
    (zh / i18n.EDITION_FILE).unlink()
    assert i18n._("hint") == "hint" and len(opened) == 4


# -- an output that cannot encode Chinese -------------------------------------------------------------------

def _cli(*args, **env_changes) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), **env_changes}
    env.pop("LANGUAGE", None)
    return subprocess.run([sys.executable, "-m", "ltr_teach.cli", *args], env=env, capture_output=True, timeout=120,
                          check=False)  # bytes: what the pipe received


def _english(argv, capsys) -> str:
    assert main(["--lang", "en", *argv]) in (0, 1)
    return capsys.readouterr().out


NOTE = ("ltr-teach: note: the output's encoding ({}) cannot show Chinese, so this is in English; "
        "set PYTHONIOENCODING=utf-8 for Chinese\n")


@pytest.mark.parametrize(("environment", "encoding", "shown"), [
    ({"LTR_TEACH_LANG": "zh", "PYTHONIOENCODING": "ascii"}, "ascii", "ascii"),
    ({"LTR_TEACH_LANG": "zh", "PYTHONIOENCODING": "latin-1"}, "latin-1", "iso8859-1"),
    # a C locale without UTF-8 mode, output to a pipe: Python's stdout is ASCII (with surrogateescape)
    ({"LTR_TEACH_LANG": "zh", "LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}, "ascii",
     "ascii"),
])
@pytest.mark.parametrize("argv", [["check", "p-at-5", "3/5"], ["check", "p-at-5", "4/7"], ["explain", "ndcg", "3", "2", "0"]])
def test_chinese_asked_for_an_output_that_cannot_show_it_prints_english(environment, encoding, shown, argv, capsys):
    done = _cli(*argv, **environment)
    english = _english(argv, capsys)
    assert done.returncode == (1 if argv[-1] == "4/7" else 0), done.stderr
    # the English text, with what the output cannot encode (the ✓ and ✗, a ≈) as \u escapes, not an error
    assert done.stdout.decode(encoding) == english.encode(encoding, "backslashreplace").decode(encoding)
    assert done.stderr.decode(encoding) == NOTE.format(shown)


def test_lang_zh_on_an_ascii_output_prints_english_too(capsys):
    done = _cli("--lang", "zh", "check", "p-at-5", "3/5", PYTHONIOENCODING="ascii")
    assert done.returncode == 0
    assert done.stdout.decode("ascii") == _english(["check", "p-at-5", "3/5"], capsys).replace("✓", "\\u2713")
    assert done.stderr.decode("ascii") == NOTE.format("ascii")


@pytest.mark.parametrize("encoding", ["gbk", "gb18030", "utf-8"])
def test_an_output_that_can_show_chinese_gets_chinese(encoding, capsys):
    done = _cli("check", "p-at-5", "3/5", LTR_TEACH_LANG="zh", PYTHONIOENCODING=encoding)
    assert main(["--lang", "zh", "check", "p-at-5", "3/5"]) == 0
    chinese = capsys.readouterr().out
    assert "正确" in chinese
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout.decode(encoding) == chinese.encode(encoding, "backslashreplace").decode(encoding)
