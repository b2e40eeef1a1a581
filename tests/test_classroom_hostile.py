"""The classroom under hostile input, round 4 (issue 32): each reproduction of the issue is a test here.

CSV cells a spreadsheet would run, links planted in the output folders, a teacher's regular expression that
backtracks for ever, exact shares written as ``0.5/2``, an unclosed quote, a huge roster, 5,000-digit points, ids that
one file system cannot tell apart, and Ctrl+C on ``ltr-teach tutorial`` (JupyterLab must get to remove its
``jpserver-PID.json``), simulated with a child process that behaves as jupyter_server does.
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

from ltr_teach import classroom
from ltr_teach.classroom import collect, tutorial
from ltr_teach.classroom.files import _csv_safe
from ltr_teach.cli import main

REPO = Path(__file__).resolve().parents[1]
COURSE = "IR-hostile"


@pytest.fixture
def homework(tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text("id,name\na,=HYPERLINK(\"http://x\")\nb,@SUM(1)\nc,+1-1\n", encoding="utf-8")
    done = classroom.assign("p-at-5:2,dcg-append-item", roster, tmp_path / "hw", course=COURSE)
    return {"root": tmp_path, "roster": roster, "record": done.record}


def cells_of(path: Path, encoding: str = "utf-8") -> list[list[str]]:
    with open(path, newline="", encoding=encoding) as handle:
        return list(csv.reader(handle))


# -- CSV injection (OWASP: a cell starting with = + - @ tab or CR is quoted with ') ---------------------------

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def is_plain_number(text: str) -> bool:
    try:
        Fraction(text)
    except ValueError:
        return False
    return True


def test_no_csv_the_classroom_writes_has_a_cell_a_spreadsheet_would_run(homework):
    root = homework["root"]
    folder = root / "hw" / "students"
    notebook = json.loads((folder / "a.ipynb").read_text(encoding="utf-8"))
    for cell in notebook["cells"]:
        if cell["metadata"].get("ltr_teach", {}).get("exercise") == "p-at-5":
            cell["source"] = ['answer_1 = "-1-1"']  # a formula typed as the answer
    (folder / "a.ipynb").write_text(json.dumps(notebook), encoding="utf-8")
    out = root / "grades.csv"
    assert main(["grade", str(folder), "--roster", str(homework["roster"]), "--out", str(out),
                 "--export", "canvas", "--export", "moodle"]) == 0
    written = [out, root / "grades.canvas.csv", root / "grades.moodle.csv", root / "hw" / "key" / "key.csv"]
    for path in written:
        for row in cells_of(path):
            for cell in row:
                # a plain number (-3, +0.5) is a number to a spreadsheet; anything else must not start a formula
                assert not cell.startswith(FORMULA_STARTS) or is_plain_number(cell), (path.name, cell)
    grades = {(r[0], r[2]): r for r in cells_of(out)}
    assert grades[("a", "p-at-5")][3] == "'-1-1"
    names = [r[1] for r in cells_of(out)[1:]]
    assert "'=HYPERLINK(\"http://x\")" in names and "'@SUM(1)" in names and "'+1-1" in names


def test_the_lms_files_keep_grades_and_ids_readable_as_the_importers_read_them(homework):
    # Canvas (gradebook_importer.rb) strips a grade and reads "-?[0-9.,]+"; Moodle (load_data.php) calls
    # unformat_float: a grade with a leading ' would be refused ("badgrade"), an id with one would match nobody.
    book = classroom.grade(homework["root"] / "hw" / "students", homework["roster"], assignment=homework["record"])
    for lms in ("canvas", "moodle"):
        path = homework["root"] / f"{lms}.csv"
        book.export(path, lms)
        rows = cells_of(path)
        grade_column = rows[0].index("Ranking evaluation exercises")
        for row in rows[1:]:
            assert row[grade_column] == "" or is_plain_number(row[grade_column]), row
            assert not row[grade_column].startswith("-")
    canvas = cells_of(homework["root"] / "canvas.csv")
    assert [r[2] for r in canvas[2:]] == ["a", "b", "c"]  # SIS User ID: the roster ids, as written


@pytest.mark.parametrize("bad", ["-1-1", "=1+1", "+x", "@a"])
def test_a_roster_id_or_lms_id_that_starts_a_formula_is_refused(tmp_path, bad):
    roster = tmp_path / "r.csv"
    roster.write_text(f"id,name\n{bad},x\n", encoding="utf-8")
    with pytest.raises(ValueError, match="line 2: id = "):
        classroom.read_roster(roster)
    roster.write_text(f"id,name,email\nok,x,{bad}\n", encoding="utf-8")
    with pytest.raises(ValueError, match="line 2: email = .* not start with = \\+ - @"):
        classroom.read_roster(roster)


# -- links planted in the output folders ---------------------------------------------------------------------

def test_assign_refuses_a_link_planted_in_its_output_folder_and_writes_nothing_through_it(tmp_path):
    roster = tmp_path / "r.csv"
    roster.write_text("id\na\nb\n", encoding="utf-8")
    outside = tmp_path / "outside"
    outside.mkdir()
    out = tmp_path / "hw"
    (out / "students").mkdir(parents=True)
    (out / "students" / "b.ipynb").symlink_to(outside / "victim.ipynb")
    with pytest.raises(ValueError, match=r"out = '.*hw': students/b.ipynb is, or is inside, a symbolic link"):
        classroom.assign("p-at-5", roster, out)
    assert list(outside.iterdir()) == [] and not (out / "students" / "a.ipynb").exists()  # checked before writing
    (out / "students" / "b.ipynb").unlink()
    (out / "key").symlink_to(outside, target_is_directory=True)  # a whole folder on the way
    with pytest.raises(ValueError, match="key/assignment.json is, or is inside, a symbolic link"):
        classroom.assign("p-at-5", roster, out)
    assert list(outside.iterdir()) == []


def test_feedback_refuses_a_planted_link_and_names_a_file_given_as_its_folder(homework, capsys):
    root = homework["root"]
    outside = root / "outside"
    outside.mkdir()
    feedback = root / "feedback"
    feedback.mkdir()
    (feedback / "a.html").symlink_to(outside / "a.html")
    args = ["grade", str(root / "hw" / "students"), "--roster", str(homework["roster"]), "--out", str(root / "g.csv")]
    assert main([*args, "--feedback", str(feedback)]) == 2
    assert "a.html is, or is inside, a symbolic link" in capsys.readouterr().err
    assert not (outside / "a.html").exists()
    (root / "afile").write_text("x", encoding="utf-8")
    assert main([*args, "--feedback", str(root / "afile")]) == 2
    err = capsys.readouterr().err
    assert f"feedback = '{root / 'afile'}' is a file, not a folder" in err and err.count("\n") == 1


# -- a teacher's regular expression that backtracks ------------------------------------------------------------

def test_an_id_pattern_with_nested_repeats_is_stopped_with_a_message_instead_of_hanging(homework, monkeypatch):
    folder = homework["root"] / "hw" / "students"
    (folder / ("a" * 60 + "!.ipynb")).write_text("{}", encoding="utf-8")  # (a+)+$ tries 2**60 ways on this name
    monkeypatch.setattr(collect, "ID_PATTERN_SECONDS", 3.0)
    start = time.monotonic()
    with pytest.raises(ValueError, match=r"id_pattern = '\(a\+\)\+\$' did not finish matching .* in 3 s"):
        classroom.grade(folder, homework["roster"], assignment=homework["record"], id_pattern="(a+)+$")
    assert time.monotonic() - start < 60  # stopped, not hung (a generous bound: the machine may be busy)


def test_an_id_pattern_still_finds_the_ids_and_sees_at_most_1000_characters(homework):
    assert collect.match_id_pattern(r"(?P<id>[a-c])\.ipynb$", ["x/a.ipynb", "b.ipynb", "z.ipynb", "q" * 2000 + "c.ipynb"]) \
        == ["a", "b", "", ""]
    folder = homework["root"] / "hw" / "students"
    book = classroom.grade(folder, homework["roster"], assignment=homework["record"], id_pattern=r"^(\w)\.ipynb$")
    assert set(book.submissions) == {"a", "b", "c"}


# -- exact shares, quotes, huge numbers ---------------------------------------------------------------------------

def test_a_decimal_over_a_divisor_is_read_exactly_in_overrides_and_partial(homework):
    overrides = homework["root"] / "o.csv"
    overrides.write_text("student,exercise,points,note\na,p-at-5,0.5/2,half of a half\n", encoding="utf-8")
    book = classroom.grade(homework["root"] / "hw" / "students", homework["roster"], assignment=homework["record"],
                           overrides=overrides)
    assert next(r.points for r in book.rows if (r.student, r.exercise) == ("a", "p-at-5")) == Fraction(1, 4)
    assert classroom.parse_partial("too coarse=0.5/2") == {"too coarse": "1/4"}
    overrides.write_text("student,exercise,points\na,p-at-5,1/0\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"o.csv' line 2: points = '1/0' divides by zero"):
        classroom.grade(homework["root"] / "hw" / "students", homework["roster"], assignment=homework["record"],
                        overrides=overrides)


def test_an_overrides_file_with_an_unclosed_quote_is_refused_with_its_line(homework):
    overrides = homework["root"] / "o.csv"
    overrides.write_text('student,exercise,points,note\na,p-at-5,1,"forgot to close\nb,p-at-5,2,x\n',
                         encoding="utf-8")
    with pytest.raises(ValueError, match=r"o.csv' line 2: a quote \(\"\) opened on this line runs on to line 3"):
        classroom.grade(homework["root"] / "hw" / "students", homework["roster"], assignment=homework["record"],
                        overrides=overrides)


@pytest.mark.parametrize("points", ["9" * 5000, "²", "1e3", "-1"])
def test_points_that_are_not_a_small_whole_number_get_our_message(points):
    with pytest.raises(ValueError, match="must be a whole number from 1 to 1000"):
        classroom.parse_exercise_list(f"p-at-5:{points}")


def test_assign_refuses_a_roster_too_large_to_write_at_once_before_computing_anything(tmp_path):
    roster = tmp_path / "big.csv"
    roster.write_text("id\n" + "".join(f"s{n}\n" for n in range(100_000)), encoding="utf-8")
    start = time.monotonic()
    with pytest.raises(ValueError, match="lists 100,000 students; assign writes at most 3,000"):
        classroom.assign("p-at-5", roster, tmp_path / "hw")
    assert time.monotonic() - start < 120 and not (tmp_path / "hw").exists()


@pytest.mark.parametrize(("ids", "reason"), [(["ab1", "AB1"], "differs from 'ab1' only in case"),
                                             (["CON"], "the name of a device on Windows"),
                                             (["nul.x"], "the name of a device on Windows"),
                                             (["com1"], "the name of a device on Windows")])
def test_ids_one_file_system_cannot_tell_apart_are_refused(tmp_path, ids, reason):
    roster = tmp_path / "r.csv"
    roster.write_text("id\n" + "\n".join(ids) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=reason):
        classroom.read_roster(roster)


# -- Ctrl+C on ltr-teach tutorial -------------------------------------------------------------------------------

#: A stand-in for JupyterLab: it writes its jpserver-PID.json, and as jupyter_server does (ServerApp.init_signal,
#: _signal_stop, start_ioloop) removes it when SIGTERM or SIGINT stops it; SIGKILL would leave it behind.
_FAKE_SERVER = """
import os, signal, sys, time
info = os.path.join(sys.argv[1], f"jpserver-{os.getpid()}.json")
open(info, "w").write("{}")
def stop(signum, frame):
    os.remove(info)
    sys.exit(0)
signal.signal(signal.SIGTERM, stop)
signal.signal(signal.SIGINT, stop)
open(os.path.join(sys.argv[1], "ready"), "w").write("")
while True:
    time.sleep(0.05)
"""


class InterruptedOnce(subprocess.Popen):
    """A Popen whose first wait() is interrupted by Ctrl+C, once the child is ready (as a student presses it)."""

    def wait(self, timeout=None):
        if not getattr(self, "interrupted", False):
            self.interrupted = True
            folder = Path(self.args[-1])
            deadline = time.monotonic() + 60
            while not (folder / "ready").exists() and time.monotonic() < deadline:
                time.sleep(0.05)
            raise KeyboardInterrupt
        return super().wait(timeout)


@pytest.mark.skipif(os.name == "nt", reason="SIGTERM is the POSIX path; the Windows path is tested with a fake")
def test_ctrl_c_lets_jupyterlab_shut_down_and_remove_its_server_file(tmp_path):
    command = [sys.executable, "-c", _FAKE_SERVER, str(tmp_path)]
    processes = []

    def popen(args):
        processes.append(InterruptedOnce(args))
        return processes[-1]

    assert tutorial.run_until_interrupted(command, popen=popen) == 0
    assert processes[0].returncode == 0  # it stopped by itself (killed, it would be -9)
    assert not list(tmp_path.glob("jpserver-*.json"))


@pytest.mark.skipif(os.name == "nt", reason="the POSIX reproduction (SIGKILL); Windows is tested with a fake")
def test_subprocess_call_would_have_left_the_server_file_behind(tmp_path, monkeypatch):
    # the bug's reproduction: subprocess.call kills its child on KeyboardInterrupt, before it can clean up
    monkeypatch.setattr(subprocess, "Popen", InterruptedOnce)
    with pytest.raises(KeyboardInterrupt):
        subprocess.call([sys.executable, "-c", _FAKE_SERVER, str(tmp_path)])
    assert len(list(tmp_path.glob("jpserver-*.json"))) == 1


class FakeWindowsServer:
    """What the parent sees on Windows: the console's Ctrl+C reached the child too; it stops in time, or hangs."""

    def __init__(self, stops: bool):
        self.stops, self.calls = stops, []

    def wait(self, timeout=None):
        self.calls.append(("wait", timeout))
        if len(self.calls) == 1:
            raise KeyboardInterrupt  # the student's Ctrl+C
        if not self.stops and ("terminate",) not in self.calls:
            raise subprocess.TimeoutExpired("jupyterlab", timeout)
        return 0

    def send_signal(self, sig):
        self.calls.append(("signal", sig))

    def terminate(self):
        self.calls.append(("terminate",))

    def kill(self):
        self.calls.append(("kill",))


def test_on_windows_the_server_is_waited_for_and_terminated_only_if_it_does_not_stop():
    clean = FakeWindowsServer(stops=True)
    assert tutorial.run_until_interrupted(["jupyterlab"], grace=15, windows=True, popen=lambda c: clean) == 0
    assert clean.calls == [("wait", None), ("wait", 15)]  # no signal (no SIGTERM on Windows), no terminate
    hung = FakeWindowsServer(stops=False)
    assert tutorial.run_until_interrupted(["jupyterlab"], grace=15, windows=True, popen=lambda c: hung) == 0
    assert hung.calls == [("wait", None), ("wait", 15), ("terminate",), ("wait", 5)]


def test_the_tutorial_command_runs_jupyterlab_through_the_clean_shutdown(tmp_path, monkeypatch):
    started = []
    monkeypatch.setattr(tutorial, "run_until_interrupted", lambda command: started.append(command) or 0)
    assert main(["tutorial", str(tmp_path), "--no-browser"]) == 0
    assert started and started[0][1:3] == ["-m", "jupyterlab"]


def test_the_csv_safe_rule_matches_owasp_for_every_start(tmp_path):
    for start in FORMULA_STARTS:
        assert _csv_safe(start + "x") == "'" + start + "x"
    assert _csv_safe("-0.5") == "-0.5" and _csv_safe("+3") == "+3" and _csv_safe("a=b") == "a=b"


# -- the teacher's LMS files (issue 31's round trips) under hostile input ----------------------------------------

@pytest.fixture
def graded(homework):
    return classroom.grade(homework["root"] / "hw" / "students", homework["roster"], assignment=homework["record"])


@pytest.mark.parametrize(("content", "message"), [
    (b'Student,ID,Section,Ranking evaluation exercises\r\n"Li, Lei,1,A,\r\n', "line 2: a quote .* is never closed"),
    (b"\xff\xfeS\x00t\x00", "is not UTF-8 text"),
    (b"Name,Score\r\nLi,3\r\n", "is not a Canvas gradebook export: its first line must start Student, ID"),
    (b'Student,ID,Section,"A"x\r\n', "line 1: text after a closing quote"),
])
def test_a_broken_canvas_export_gets_one_clear_message(graded, tmp_path, content, message):
    from ltr_teach.classroom.lms import fill_canvas_gradebook

    path = tmp_path / "export.csv"
    path.write_bytes(content)
    with pytest.raises(ValueError, match=f"canvas_gradebook = '.*export.csv' .*{message}|{message}"):
        fill_canvas_gradebook(graded, path, tmp_path / "out.csv")
    assert not (tmp_path / "out.csv").exists()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_fifo_or_a_device_given_as_an_lms_file_is_refused_without_blocking(graded, tmp_path):
    from ltr_teach.classroom.lms import fill_canvas_gradebook, fill_moodle_worksheet

    os.mkfifo(tmp_path / "fifo")
    for path in (tmp_path / "fifo", Path("/dev/zero")):
        with pytest.raises(ValueError, match="cannot be read: .*(FIFO|device)"):
            fill_moodle_worksheet(graded, path, tmp_path / "out.csv")
        with pytest.raises(ValueError, match="cannot be read"):
            fill_canvas_gradebook(graded, path, tmp_path / "out.csv")


def test_a_semicolon_canvas_export_with_a_bom_is_filled_in_its_own_delimiter(graded, tmp_path):
    # gradebook_importer.rb's semicolon_delimited?: a file whose first lines split into more fields on ";" is read so
    from ltr_teach.classroom.lms import fill_canvas_gradebook

    text = ("\ufeffStudent;ID;SIS User ID;SIS Login ID;Section;Ranking evaluation exercises (9)\r\n"
            "x;;a;;S;\r\ny;;b;;S;\r\n")
    (tmp_path / "e.csv").write_bytes(text.encode("utf-8"))
    done = fill_canvas_gradebook(graded, tmp_path / "e.csv", tmp_path / "o.csv")
    assert done.filled == ["a", "b"] and done.not_in_file == ["c"]
    assert (tmp_path / "o.csv").read_bytes().decode("utf-8") == text.replace(";S;\r\n", ";S;0\r\n")


def test_a_worksheet_in_another_language_says_which_columns_it_needs(graded, tmp_path):
    from ltr_teach.classroom.lms import fill_moodle_worksheet

    (tmp_path / "w.csv").write_text("标识符,全名,成绩\r\n参与者 1,张伟,\r\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no Identifier or Grade column .* download it in English"):
        fill_moodle_worksheet(graded, tmp_path / "w.csv", tmp_path / "o.csv")


def test_an_ungraded_students_feedback_page_says_not_graded_instead_of_zero_points(homework):
    # issue 31 item 7: "Points: 0 of 3" read as a zero; a student with nothing graded has no points yet
    (homework["root"] / "hw" / "students" / "c.ipynb").unlink()
    book = classroom.grade(homework["root"] / "hw" / "students", homework["roster"], assignment=homework["record"])
    pages = book.write_feedback(homework["root"] / "feedback")
    ungraded = pages["c"].read_text(encoding="utf-8")
    assert "Points: none yet (not graded; the assignment has 3)" in ungraded and "Points: 0 of" not in ungraded
    assert "Points: 0 of 3" in pages["a"].read_text(encoding="utf-8")  # a graded notebook with no answer right
    assert book.ungraded() == ["c"]


def test_an_lms_export_named_like_the_filled_copy_is_not_overwritten(graded, tmp_path):
    from ltr_teach.classroom.lms import fill_canvas_gradebook

    export = tmp_path / "grades.canvas.csv"
    export.write_bytes(b"Student,ID,SIS User ID,SIS Login ID,Section,Ranking evaluation exercises\r\n")
    with pytest.raises(ValueError, match="is the file the filled-in copy would be written to"):
        fill_canvas_gradebook(graded, export, tmp_path / "grades.canvas.csv")
    assert export.read_bytes().endswith(b"exercises\r\n")
