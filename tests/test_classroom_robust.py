"""Grading a class survives any file in the folder (issue 23): each reproduction of the issue is a test here.

FIFOs, links to devices, huge or malformed rosters and records, notebooks with a byte-order mark, answers typed
with an input method's quotes, file names that forge terminal lines, copies and duplicates; and the tutorial
items of issue 24 (a dangling link in the tutorial folder, the port's range).
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest

import ltr_teach as lt
from ltr_teach import classroom
from ltr_teach.cli import main

REPO = Path(__file__).resolve().parents[1]
EXERCISES = "p-at-5:2,dcg-append-item"
COURSE = "IR-robust"


def run_cli(*args, timeout=90) -> subprocess.CompletedProcess:
    """``ltr-teach ARGS`` in a child process: a hang fails the test (TimeoutExpired) instead of stalling it."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "LTR_TEACH_LANG": "en"}
    return subprocess.run([sys.executable, "-m", "ltr_teach.cli", *map(str, args)], check=False, capture_output=True,
                          text=True, timeout=timeout, env=env, encoding="utf-8")


@pytest.fixture
def homework(tmp_path):
    """Three students a, b, c with their notebooks; returns the folder, roster and record."""
    roster = tmp_path / "roster.csv"
    roster.write_text("id,name\na,Ann\nb,Bob\nc,陈晨\n", encoding="utf-8")
    done = classroom.assign(EXERCISES, roster, tmp_path / "hw", course=COURSE)
    return {"root": tmp_path, "roster": roster, "record": done.record, "students": done.students,
            "seeds": {s.id: s.seed for s in classroom.read_roster(roster, COURSE)}}


def answer(notebook_path: Path, answers: dict) -> dict:
    """Write ``answers`` (exercise id -> cell source) into a notebook; returns the notebook."""
    notebook = json.loads(notebook_path.read_text(encoding="utf-8"))
    for cell in notebook["cells"]:
        meta = cell["metadata"].get("ltr_teach")
        if meta and meta["exercise"] in answers:
            cell["source"] = [answers[meta["exercise"]]]
    notebook_path.write_text(json.dumps(notebook, ensure_ascii=False), encoding="utf-8")
    return notebook


def p_at_5(seed: int) -> Fraction:
    """The student's P@5, recomputed from the variant's ranking (hits in the top 5, divided by 5)."""
    variant = lt.exercises.variant("p-at-5", seed)
    value = Fraction(str(variant.answer))
    assert value.denominator in (1, 5)  # P@5 is a count of hits over 5
    return value


# -- files that are not regular files ---------------------------------------------------------------------

@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs exist on POSIX only")
def test_a_fifo_and_links_to_devices_among_the_submissions_are_listed_and_grading_goes_on(homework):
    folder = homework["root"] / "hw" / "students"
    answer(folder / "a.ipynb", {"p-at-5": f'answer_1 = "{p_at_5(homework["seeds"]["a"])}"'})
    (folder / "b.ipynb").unlink()
    os.mkfifo(folder / "b.ipynb")  # b hands in a FIFO: reading it would wait forever
    (folder / "c.ipynb").unlink()
    (folder / "c.ipynb").symlink_to("/dev/zero")  # stat says 0 bytes; reading it never ends
    (folder / "urandom.ipynb").symlink_to("/dev/urandom")
    (folder / "dangling.ipynb").symlink_to(folder / "nowhere.ipynb")
    start = time.monotonic()
    done = run_cli("grade", folder, "--roster", homework["roster"], "--assignment", homework["record"],
                   "--out", homework["root"] / "g.csv")
    assert time.monotonic() - start < 60
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    out = done.stdout
    assert "b.ipynb is a FIFO, not a regular file: not read" in out
    assert "c.ipynb is a symbolic link, not a regular file: not read" in out
    assert "urandom.ipynb is a symbolic link" in out and "dangling.ipynb is a symbolic link" in out
    with open(homework["root"] / "g.csv", encoding="utf-8", newline="") as handle:
        rows = {(r["student"], r["exercise"]): r for r in csv.DictReader(handle)}
    assert rows[("a", "p-at-5")]["status"] == "right" and rows[("a", "p-at-5")]["points"] == "2"
    assert rows[("b", "p-at-5")]["status"] == "not graded" and "FIFO" in rows[("b", "p-at-5")]["problem"]


def test_a_link_to_a_device_is_not_read_even_when_followed(tmp_path):
    with pytest.raises(classroom.NotARegularFile, match="a device"):
        classroom.read_bytes_at_most("/dev/zero", 10)
    (tmp_path / "z").symlink_to("/dev/zero")
    with pytest.raises(classroom.NotARegularFile, match="a device"):
        classroom.read_bytes_at_most(tmp_path / "z", 10)
    with pytest.raises(classroom.NotARegularFile, match="symbolic link"):
        classroom.read_bytes_at_most(tmp_path / "z", 10, follow_links=False)
    (tmp_path / "big").write_bytes(b"x" * 1000)
    assert classroom.read_bytes_at_most(tmp_path / "big", 10) == b"x" * 11  # the limit plus one byte, no more


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs exist on POSIX only")
@pytest.mark.parametrize("which", ["--roster", "--assignment"])
@pytest.mark.parametrize("kind", ["fifo", "/dev/zero"])
def test_a_roster_or_record_that_is_a_fifo_or_dev_zero_is_one_line_and_exit_2(homework, which, kind):
    bad = homework["root"] / "bad"
    if kind == "fifo":
        os.mkfifo(bad)
    else:
        bad.symlink_to(kind)
    args = {"--roster": homework["roster"], "--assignment": homework["record"]}
    args[which] = bad
    done = run_cli("grade", homework["root"] / "hw" / "students", "--roster", args["--roster"],
                   "--assignment", args["--assignment"], "--out", homework["root"] / "g.csv", timeout=60)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    expected = "a FIFO" if kind == "fifo" else "a device"
    assert f"{which[2:]} = '{bad}' cannot be read: '{bad}' is {expected}, not a regular file" in done.stderr


# -- rosters and records --------------------------------------------------------------------------------

def test_a_roster_field_over_the_csv_limit_is_one_clear_line(tmp_path, capsys):
    roster = tmp_path / "r.csv"
    roster.write_text("id,name\na," + "x" * 131_073 + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"line 2 is not CSV .*under 131,072 characters"):
        classroom.read_roster(roster)
    assert main(["assign", "--exercises", "p-at-5", "--roster", str(roster), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "_csv.Error" not in err and "line 2 is not CSV" in err


def test_an_unclosed_quote_does_not_swallow_the_following_students(tmp_path):
    roster = tmp_path / "r.csv"
    roster.write_text('id,name\nann,"Ann\nbob,Bob\ncid,Cid\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"line 2: a quote .* opened on this line runs on to line 4"):
        classroom.read_roster(roster)
    # a quoted name with a comma is still fine
    roster.write_text('id,name\nann,"Li, Ann"\nbob,Bob\n', encoding="utf-8")
    assert [(s.id, s.name) for s in classroom.read_roster(roster)] == [("ann", "Li, Ann"), ("bob", "Bob")]


def test_a_deeply_nested_record_is_refused_without_recursion_error(tmp_path, capsys):
    record = tmp_path / "assignment.json"
    record.write_text("[" * 200_000 + "]" * 200_000, encoding="utf-8")
    with pytest.raises(ValueError, match="nested too deeply"):
        classroom.read_record(record)
    roster = tmp_path / "r.csv"
    roster.write_text("id\na\n", encoding="utf-8")
    assert main(["grade", str(tmp_path), "--roster", str(roster), "--assignment", str(record),
                 "--out", str(tmp_path / "g.csv")]) == 2
    assert "nested too deeply" in capsys.readouterr().err


def test_a_5000_digit_seed_is_a_clear_message(tmp_path, homework):
    roster = tmp_path / "r.csv"
    roster.write_text("id,seed\na," + "7" * 5000 + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"line 2: seed = '7{40}… \(5000 characters\)' must be a whole number from 0 "
                                         r"to 999,999,999,999,999,999"):
        classroom.read_roster(roster)
    record = json.loads(homework["record"].read_text(encoding="utf-8"))
    record["students"][0]["seed"] = 10**5000 if sys.version_info < (3, 11) else 10**18
    homework["record"].write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(ValueError, match=r"seed .* of student 'a' \(a whole number from 0 to 999,999,999,999,999,999\)"):
        classroom.read_record(homework["record"])
    roster.write_text("id,seed\na,²\n", encoding="utf-8")  # str.isdigit() says yes; int() says no
    with pytest.raises(ValueError, match="seed = '²' must be a whole number"):
        classroom.read_roster(roster)


def test_a_100000_line_roster_is_read_and_graded_without_hanging(homework, tmp_path):
    # A guard against a hang (the roster once took minutes), not a speed target: a shared CI machine runs several
    # times slower than a quiet one.
    roster = tmp_path / "big.csv"
    ids = [f"s{n:06}" for n in range(100_000)]
    roster.write_text("id,name\n" + "".join(f"{i},Name {i}\n" for i in ids), encoding="utf-8")
    start = time.monotonic()
    students = classroom.read_roster(roster, COURSE)
    assert time.monotonic() - start < 60
    assert [s.id for s in students] == ids
    start = time.monotonic()
    book = classroom.grade(homework["root"] / "hw" / "students", roster, assignment=homework["record"])
    assert time.monotonic() - start < 120
    # the record knows a, b, c; none of the 100,000 is in it; a, b, c are not on this roster
    assert len(book.problems) == 100_000 + 3


# -- what a notebook and its answers may look like ------------------------------------------------------

def test_a_notebook_saved_with_a_byte_order_mark_is_read(homework):
    path = homework["students"]["a"]
    answer(path, {"p-at-5": f'answer_1 = "{p_at_5(homework["seeds"]["a"])}"'})
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    book = classroom.grade(path, homework["roster"], assignment=homework["record"])
    assert [(r.student, r.exercise, r.status) for r in book.rows if r.student == "a"] == [
        ("a", "p-at-5", "right"), ("a", "dcg-append-item", "not answered")]


@pytest.mark.parametrize("cell, choice", [
    ('answer_1 = “{v}”', 'answer_2 = “rise”'),
    ('answer_1 = ＂{v}＂', 'answer_2 = ＂rise＂'),
    ('answer_1 = "{v}"', 'answer_2 = "ｒｉｓｅ"'),
    ('answer_1 = "{v}"', 'answer_2 = "上升"'),
    ('answer_1 = "{v}"', 'answer_2 = "DCG 上升"'),
    ('answer_1 = "{v}"', 'answer_2 = "DCG rises"'),
])
def test_answers_typed_with_an_input_methods_quotes_and_labels_are_read(homework, cell, choice):
    # dcg-append-item: appending an item to a ranking can only add gain/discount >= 0, so DCG rises ("rise")
    value = p_at_5(homework["seeds"]["a"])
    decimal = f"{float(value):.4f}"
    answer(homework["students"]["a"], {"p-at-5": cell.format(v=decimal), "dcg-append-item": choice})
    book = classroom.grade(homework["students"]["a"], homework["roster"], assignment=homework["record"])
    assert [(r.exercise, r.status, r.points) for r in book.rows if r.student == "a"] == [
        ("p-at-5", "right", 2), ("dcg-append-item", "right", 1)]


def test_a_label_shared_by_several_options_is_not_an_answer():
    assert lt.check("dcg-append-item", "DCG").status == "unreadable"  # DCG rises / falls / stays: which?
    assert lt.check("dcg-append-item", "下降").status == "wrong"


# -- what is printed about files ------------------------------------------------------------------------

def test_a_file_name_cannot_forge_a_line_on_the_terminal(homework, capsys):
    folder = homework["root"] / "hw" / "students"
    forged = "x.ipynb\n  b: graded, 8 of 8 points\n\x1b[2K.ipynb"
    (folder / forged).write_text("{}", encoding="utf-8")
    assert main(["grade", str(folder), "--roster", str(homework["roster"]), "--assignment", str(homework["record"]),
                 "--out", str(homework["root"] / "g.csv")]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out
    assert not any(line.strip().startswith("b: graded") for line in out.splitlines())
    assert "x.ipynb\\n  b: graded, 8 of 8 points\\n\\x1b[2K.ipynb is not a notebook" in out


def test_a_copied_notebook_is_never_advised_onto_the_other_students_file(homework):
    folder = homework["root"] / "hw" / "students"
    (folder / "b.ipynb").write_bytes((folder / "a.ipynb").read_bytes())  # b hands in a's notebook
    book = classroom.grade(folder, homework["roster"], assignment=homework["record"])
    text = dict(book.problems)["b"]
    assert "rename" not in text and "a copy" in text and "a.ipynb" in text
    # a alone handing in is graded
    assert {r.status for r in book.rows if r.student == "a"} == {"not answered"}
    # renamed without a copy: the advice to rename back stays
    (folder / "a.ipynb").rename(folder / "x-a.ipynb")
    (folder / "b.ipynb").unlink()
    (folder / "b.ipynb").write_bytes((folder / "x-a.ipynb").read_bytes())
    (folder / "x-a.ipynb").unlink()
    book = classroom.grade(folder, homework["roster"], assignment=homework["record"])
    assert "rename it back to a.ipynb" in dict(book.problems)["b"]


def test_of_two_versions_of_a_notebook_the_one_saved_last_is_graded_and_the_report_says_why(homework):
    # issue 31: two files of one student graded nobody; the newer one counts, the other is listed
    folder = homework["root"] / "hw" / "students"
    (folder / "late").mkdir()
    (folder / "late" / "a.ipynb").write_bytes((folder / "a.ipynb").read_bytes())
    answer(folder / "late" / "a.ipynb", {"p-at-5": f'answer_1 = "{p_at_5(homework["seeds"]["a"])}"'})
    later = (folder / "a.ipynb").stat().st_mtime + 60
    os.utime(folder / "late" / "a.ipynb", (later, later))
    book = classroom.grade(folder, homework["roster"], assignment=homework["record"])
    taken = book.submissions["a"]
    assert (taken.file, taken.ignored) == ("late/a.ipynb", ("a.ipynb",))
    assert taken.reason == "the newest of 2 notebooks (it was saved last; not graded: a.ipynb)"
    assert {r.exercise: r.status for r in book.rows if r.student == "a"}["p-at-5"] == "right"
    assert not [p for p in book.problems if p[0] == "a"]


# -- the tutorial (issue 24) ----------------------------------------------------------------------------

def test_copy_only_does_not_follow_a_dangling_link_out_of_the_folder(tmp_path, capsys):
    folder, outside = tmp_path / "tutorial", tmp_path / "outside"
    folder.mkdir()
    outside.mkdir()
    name = "notebooks/zh/00_start_here.ipynb"
    (folder / "notebooks" / "zh").mkdir(parents=True)
    (folder / name).symlink_to(outside / "written.ipynb")  # dangling: points at a file that does not exist
    (folder / "exercises").symlink_to(outside)  # a folder link: nothing may be written through it
    assert main(["tutorial", str(folder), "--copy-only"]) == 0
    assert list(outside.iterdir()) == []
    assert (folder / name).is_symlink() and not (folder / name).exists()
    assert (folder / "notebooks" / "en" / "00_start_here.ipynb").is_file()
    out = capsys.readouterr().out
    assert f"not written {name}: it is a symbolic link" in out
    assert "not written exercises/en/.ltr-teach-language: it is a symbolic link" in out


@pytest.mark.parametrize("port", ["-1", "0", "70000", "65536", "1e999999999", "8888.5", "1e3"])
def test_a_port_outside_1_to_65535_is_one_line_and_exit_2(tmp_path, port):
    start = time.monotonic()
    done = run_cli("tutorial", tmp_path / "t", "--copy-only", f"--port={port}", timeout=60)
    assert time.monotonic() - start < 30
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "must be a whole number from 1 to 65535" in done.stderr
    assert not (tmp_path / "t").exists()


# -- the workflow's options ---------------------------------------------------------------------------------

def test_assign_in_chinese_writes_the_introduction_and_headings_in_chinese(tmp_path):
    roster = tmp_path / "r.csv"
    roster.write_text("id,name\na,李雷\n", encoding="utf-8")
    assert main(["assign", "--exercises", "p-at-5:2,dcg-append-item", "--roster", str(roster), "--out",
                 str(tmp_path / "hw"), "--lang", "zh"]) == 0
    notebook = json.loads((tmp_path / "hw" / "students" / "a.ipynb").read_text(encoding="utf-8"))
    markdown = ["".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "markdown"]
    assert markdown[0].startswith("# 排序评价练习\n\n学生：**a** (李雷)")
    assert "共 2 道题，3 分" in markdown[0] and "保存笔记本并以原文件名提交" in markdown[0]
    assert "These are your own numbers" not in markdown[0]
    assert markdown[1].startswith("## 1. ") and markdown[1].split("\n")[0].endswith("· 2 分")
    assert markdown[2].split("\n")[0].endswith("· 1 分")
    record = json.loads((tmp_path / "hw" / "key" / "assignment.json").read_text(encoding="utf-8"))
    assert record["lang"] == "zh" and record["assignment"] == "排序评价练习"


def test_an_id_pattern_of_the_teacher_matches_files_to_students(homework):
    folder = homework["root"] / "lms"
    folder.mkdir()
    (folder / "hw1-a-final.ipynb").write_bytes(homework["students"]["a"].read_bytes())
    book = classroom.grade(folder, homework["roster"], assignment=homework["record"], id_pattern=r"hw1-(?P<id>\w+)-final")
    assert {r.status for r in book.rows if r.student == "a"} == {"not answered"}  # graded: a's empty notebook
    book = classroom.grade(folder, homework["roster"], assignment=homework["record"])  # "a" stands alone: matched too
    assert {r.status for r in book.rows if r.student == "a"} == {"not answered"}
    with pytest.raises(ValueError, match=r"id_pattern = '\(' is not a regular expression"):
        classroom.grade(folder, homework["roster"], assignment=homework["record"], id_pattern="(")


@pytest.mark.parametrize("line, message", [
    ("zed,p-at-5,1,x", "line 2: student 'zed' is not on the roster"),
    ("a,nope,1,x", "line 2: exercise 'nope' is not in the assignment"),
    ("a,p-at-5,3,x", "line 2: points = 3 must be from 0 to 2"),
    ("a,p-at-5,1e999999,x", "line 2: points = '1e999999' must be a number from 0 to 2"),
])
def test_a_bad_override_is_one_line_naming_the_line(homework, capsys, line, message):
    overrides = homework["root"] / "overrides.csv"
    overrides.write_text("student,exercise,points,note\n" + line + "\n", encoding="utf-8")
    assert main(["grade", str(homework["root"] / "hw" / "students"), "--roster", str(homework["roster"]),
                 "--assignment", str(homework["record"]), "--out", str(homework["root"] / "g.csv"),
                 "--overrides", str(overrides)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


def test_a_zip_that_is_not_a_zip_is_one_line(homework, capsys):
    bad = homework["root"] / "download.zip"
    bad.write_bytes(b"PK\x03\x04 not really")
    assert main(["grade", str(bad), "--roster", str(homework["roster"]), "--assignment", str(homework["record"]),
                 "--out", str(homework["root"] / "g.csv")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not a readable zip file" in err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs exist on POSIX only")
def test_a_gradebook_path_that_is_a_fifo_is_refused_before_writing(homework):
    out = homework["root"] / "out.csv"
    os.mkfifo(out)
    done = run_cli("grade", homework["root"] / "hw" / "students", "--roster", homework["roster"], "--assignment",
                   homework["record"], "--out", out, timeout=60)
    assert done.returncode == 2
    assert done.stderr == f"ltr-teach: error: --out = {str(out)!r} exists and is not a regular file\n"
