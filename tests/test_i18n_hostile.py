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


#: What each output shows for a sign it cannot encode (issue 32: a GBK pipe printed ✓ as \\u2713): √ and × where
#: the encoding has them (GBK has both; Latin-1 and cp1252 only ×), else ASCII look-alikes.
SHOWN_AS = {"gbk": {"✓": "√", "✗": "×"}, "latin-1": {"✓": "v", "✗": "×", "≈": "~"}, "cp1252": {"✓": "v", "✗": "×", "≈": "~"},
            "ascii": {"✓": "v", "✗": "x", "≈": "~"}}


def _as_shown(text: str, encoding: str) -> str:
    for sign, shown in SHOWN_AS.get(encoding, {}).items():
        text = text.replace(sign, shown)
    return text.encode(encoding, "backslashreplace").decode(encoding)


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
    # the English text, with the signs the output cannot encode (the ✓ and ✗, a ≈) as signs it can, not an error
    assert done.stdout.decode(encoding) == _as_shown(english, encoding)
    assert done.stderr.decode(encoding) == NOTE.format(shown)


def test_lang_zh_on_an_ascii_output_prints_english_too(capsys):
    done = _cli("--lang", "zh", "check", "p-at-5", "3/5", PYTHONIOENCODING="ascii")
    assert done.returncode == 0
    assert done.stdout.decode("ascii") == _english(["check", "p-at-5", "3/5"], capsys).replace("✓", "v")
    assert done.stderr.decode("ascii") == NOTE.format("ascii")


@pytest.mark.parametrize("encoding", ["gbk", "gb18030", "utf-8"])
def test_an_output_that_can_show_chinese_gets_chinese(encoding, capsys):
    done = _cli("check", "p-at-5", "3/5", LTR_TEACH_LANG="zh", PYTHONIOENCODING=encoding)
    assert main(["--lang", "zh", "check", "p-at-5", "3/5"]) == 0
    chinese = capsys.readouterr().out
    assert "正确" in chinese
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout.decode(encoding) == _as_shown(chinese, encoding)


@pytest.mark.parametrize(("encoding", "right", "wrong"), [("gbk", "√", "×"), ("cp1252", "v", "×"), ("ascii", "v", "x")])
def test_a_pipe_that_cannot_encode_the_ticks_gets_signs_it_can(encoding, right, wrong):
    """Issue 32: on a GBK pipe (a Chinese Windows' code page) ✓ printed as \\u2713; the output's own signs now."""
    agrees = _cli("check", "p-at-5", "3/5", LTR_TEACH_LANG="en", PYTHONIOENCODING=encoding)
    disagrees = _cli("check", "p-at-5", "4/7", LTR_TEACH_LANG="en", PYTHONIOENCODING=encoding)
    assert agrees.stdout.decode(encoding).startswith(f"{right} p-at-5: right")
    assert disagrees.stdout.decode(encoding).startswith(f"{wrong} p-at-5: not right")
    assert b"\\u" not in agrees.stdout + disagrees.stdout


@pytest.mark.parametrize(("encoding", "expected"), [("gbk", "√ × ≈ - 正 \\u270e"), ("cp1252", "v × ~ - \\u6b63 \\u270e"),
                                                    ("ascii", "v x ~ - \\u6b63 \\u270e")])
def test_the_error_handler_writes_what_the_stream_can_encode(encoding, expected):
    import codecs
    import io

    from ltr_teach import cli

    codecs.register_error(cli._ESCAPE, cli._escape)
    stream = io.TextIOWrapper(io.BytesIO(), encoding=encoding, errors=cli._ESCAPE)
    stream.write("✓ ✗ ≈ − 正 ✎")
    stream.flush()
    assert stream.buffer.getvalue().decode(encoding) == expected


@pytest.mark.parametrize(("langid", "language"), [(0x0804, "zh"), (0x0404, "zh"), (0x0C04, "zh"), (0x0409, "en"),
                                                  (0x0411, "en"), (0x0000, "en")])
def test_windows_ui_language_decides_when_no_locale_variable_is_set(langid, language, monkeypatch, tmp_path, capsys):
    """Issue 32, simulated: Windows sets no LANG; its UI language (a LANGID: zh-CN 0x0804, zh-TW 0x0404, zh-HK
    0x0C04, en-US 0x0409, ja-JP 0x0411; the low 10 bits 0x04 are Chinese) gives the CLI's default language."""
    import ctypes
    import types

    calls = []
    kernel32 = types.SimpleNamespace(GetUserDefaultUILanguage=lambda: calls.append(1) or langid)
    monkeypatch.setattr(ctypes, "windll", types.SimpleNamespace(kernel32=kernel32), raising=False)
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(i18n, "_windows_ui", None)
    for variable in ("LTR_TEACH_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.chdir(tmp_path)  # no course edition file here
    i18n.set_language(None)
    assert i18n.get_language() == language
    assert main(["check", "p-at-5", "3/5"]) == 0
    assert ("正确" in capsys.readouterr().out) == (language == "zh")
    assert len(calls) == 1  # read once per process
    monkeypatch.setenv("LANG", "en_US.UTF-8")  # a LANG-style variable, where one is set (Git Bash), still decides
    assert i18n.get_language() == "en"


def test_windows_ui_language_is_not_read_elsewhere(monkeypatch):

    monkeypatch.setattr(sys, "platform", "linux")
    assert i18n.windows_ui_language() is None
