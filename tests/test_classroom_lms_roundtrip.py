"""A real class on Canvas and Moodle with no hand work (issue 31, "Done when").

Thirty students (Chinese and Latin names, accents, hyphens, apostrophes, two called 张伟, one who hands in nothing)
are assigned with the CLI; their answers are planted here and the expected total of each is computed from what was
planted, in fractions. The notebooks are packed as the LMSs pack them, from their sources:

- Canvas's "Download Submissions" (instructure/canvas-lms ``lib/content_zipper.rb``: ``get_filename`` joins the
  sortable name with every non-word character removed, ``LATE`` when late and the user id, lower-cases it, and
  ``add_upload_submission`` appends ``_<attachment id>_<display name>``; a file uploaded again under the same name is
  ``name-1`` (``Attachment.make_unique_filename``);
- Moodle's "Download all submissions" in its three layouts (moodle/moodle ``mod/assign/classes/downloader.php``:
  ``<full name>_<participant id>_assignsubmission_file/`` (4.1+), ``…_file_/`` (3.x), or flat ``…_file_<name>``), a
  "Rename" resubmission ``name (1).ipynb``, and one zip whose names are GBK without the UTF-8 flag (Windows Chinese).

In each: a resubmission, a checkpoint copy, a late file (Canvas), renamed files, the two 张伟, and the student with
no file. ``ltr-teach grade`` reads them with no file renamed; each export is then read by a model of the importer
written from its source (cited at each model), and the filled-in Canvas gradebook and Moodle worksheet are compared
byte for byte with what the LMS exported.
"""

from __future__ import annotations

import csv
import io
import json
import re
import zipfile
from fractions import Fraction
from pathlib import Path

import pytest

import ltr_teach as lt
from ltr_teach.classroom.lms import csv_cells
from ltr_teach.cli import main

COURSE = "IR-2026-lms-roundtrip"
TITLE = "Ranking evaluation exercises"
CANVAS_ASSIGNMENT_ID = "12345"
EXERCISES = [("p-at-5", 2), ("dcg-append-item", 1)]
IDS = [f"2026{n:03}" for n in range(1, 31)]
NAMES = ["李雷", "张伟", "张伟", "Seán O'Brien", "Zoë Martin-Lévy", "王芳", "Jean-Luc Picard", "孙悟空",
         "D'Angelo Russo", "Ærin Håkonsen", "欧阳娜娜", "François Dupré", "Mary-Jane Watson", "陈晨", "Łukasz Wójcik",
         "Nguyễn Văn An", "O'Neil Smith", "赵敏", "José Álvarez", "Anne-Marie Côté", "刘洋", "Björn Ångström",
         "Siobhán Ní Bhriain", "黄晓明", "Renée Zellweger", "Ma Long", "Ðorđe Petrović", "周杰伦", "İlkay Gündoğan",
         "Nobody Handedin"]
STUDENTS = dict(zip(IDS, NAMES))
RESUBMITTED, CHECKPOINTED, LATE, RENAMED, ZHANG_RENAMED, NOTHING = 5, 6, 7, 8, 3, 30
CANVAS_USER = {i: str(5000 + n) for n, i in enumerate(IDS, start=1)}
PARTICIPANT = {i: str(700000 + 37 * n) for n, i in enumerate(IDS, start=1)}  # Moodle's ids are not in roster order


def seed_of(student: str) -> int:
    import hashlib

    return int(hashlib.sha256(f"{COURSE}/{student}".encode()).hexdigest(), 16) % 1_000_000


def planted(n: int, student: str) -> tuple[dict, Fraction]:
    """Answer cells of student n and the total they earn: P@5 right unless n % 3 == 0; the DCG question right
    (appending a document adds gain x discount >= 0: DCG does not fall, "rise") when n is even, "fall" otherwise."""
    p5 = lt.exercises.variant("p-at-5", seed_of(student)).answer
    right_p5 = n % 3 != 0
    cells = {"p-at-5": f'answer_1 = "{p5 if right_p5 else "0.123"}"',
             "dcg-append-item": 'answer_2 = "rise"' if n % 2 == 0 else 'answer_2 = "fall"'}
    return cells, Fraction(2 * right_p5 + (n % 2 == 0))


def notebook_bytes(root: Path, student: str, cells: dict) -> bytes:
    notebook = json.loads((root / "hw" / "students" / f"{student}.ipynb").read_text(encoding="utf-8"))
    for cell in notebook["cells"]:
        exercise = cell["metadata"].get("ltr_teach", {}).get("exercise")
        if exercise:
            cell["source"] = [cells[exercise]]
    return json.dumps(notebook, ensure_ascii=False).encode("utf-8")


def canvas_sortable(name: str) -> str:
    """Canvas's sortable name ("Last, First" for a Latin name) as content_zipper.rb writes it: non-word characters
    removed (``[^[[:word:]]]``), lower-cased."""
    words = name.split()
    sortable = f"{words[-1]}, {' '.join(words[:-1])}" if len(words) > 1 else name
    return re.sub(r"[^\w]", "", sortable).lower()


class Gbk(zipfile.ZipInfo):
    """A zip member named in GBK without the UTF-8 flag, as Windows' Chinese zip tool writes it."""

    def _encodeFilenameFlags(self):
        return self.filename.encode("gbk", errors="replace"), self.flag_bits & ~0x800  # "ë" becomes "?", as there


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    root = tmp_path_factory.mktemp("roundtrip")
    roster = root / "roster.csv"
    with open(roster, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([["id", "name", "email", "username"]]
                                     + [[i, STUDENTS[i], f"s{i}@uni.example", f"u{i}"] for i in IDS])
    exercise_list = ",".join(f"{i}:{p}" for i, p in EXERCISES)
    assert main(["assign", "--exercises", exercise_list, "--roster", str(roster), "--out", str(root / "hw"),
                 "--course", COURSE]) == 0
    data, totals, older = {}, {}, {}
    for n, student in enumerate(IDS, start=1):
        cells, totals[student] = planted(n, student)
        data[student] = notebook_bytes(root, student, cells)
        # what an older version or a checkpoint copy holds: every answer wrong (graded, it would score 0)
        older[student] = notebook_bytes(root, student, {"p-at-5": 'answer_1 = "0.999"',
                                                        "dcg-append-item": 'answer_2 = "fall"'})
    return {"root": root, "roster": roster, "data": data, "older": older, "totals": totals}


def canvas_zip(course) -> Path:
    path = course["root"] / "canvas.zip"
    with zipfile.ZipFile(path, "w") as archive:
        for n, student in enumerate(IDS, start=1):
            if n == NOTHING:
                continue
            prefix = f"{canvas_sortable(STUDENTS[student])}{'_late' if n == LATE else ''}_{CANVAS_USER[student]}"
            attachment = 90000 + 10 * n
            original = f"{student}.ipynb"
            if n == RENAMED:
                original = "孙悟空-作业1.ipynb"
            if n == ZHANG_RENAMED:
                original = "作业1.ipynb"
            if n == RESUBMITTED:  # uploaded twice under one name: the first upload, then Canvas's "-1"
                archive.writestr(f"{prefix}_{attachment}_{original}", course["older"][student])
                archive.writestr(f"{prefix}_{attachment + 1}_{student}-1.ipynb", course["data"][student])
                continue
            if n == CHECKPOINTED:  # the checkpoint copy Jupyter kept, uploaded beside the notebook
                archive.writestr(f"{prefix}_{attachment + 1}_{student}-checkpoint.ipynb", course["older"][student])
            archive.writestr(f"{prefix}_{attachment}_{original}", course["data"][student])
    return path


MOODLE_LAYOUTS = {"4.1": "{prefix}_assignsubmission_file/{name}", "3.x": "{prefix}_assignsubmission_file_/{name}",
                  "flat": "{prefix}_assignsubmission_file_{name}"}


def moodle_zip(course, layout: str, gbk: bool = False) -> Path:
    path = course["root"] / f"moodle-{layout}.zip"
    with zipfile.ZipFile(path, "w") as archive:
        def put(member: str, data: bytes) -> None:
            if gbk:
                archive.writestr(Gbk(member, date_time=(2026, 3, 1, 12, 0, 0)), data)
            else:
                archive.writestr(member, data)

        for n, student in enumerate(IDS, start=1):
            if n == NOTHING:
                continue
            prefix = f"{STUDENTS[student].replace('_', ' ')}_{PARTICIPANT[student]}"
            name = "孙悟空-作业1.ipynb" if n == RENAMED else f"{student}.ipynb"
            if n == RESUBMITTED:  # the file picker's "Rename": the second upload is "name (1)"
                put(MOODLE_LAYOUTS[layout].format(prefix=prefix, name=name), course["older"][student])
                put(MOODLE_LAYOUTS[layout].format(prefix=prefix, name=f"{student} (1).ipynb"), course["data"][student])
                continue
            if n == CHECKPOINTED:
                put(MOODLE_LAYOUTS[layout].format(prefix=prefix, name=f"{student}-checkpoint.ipynb"),
                    course["older"][student])
            put(MOODLE_LAYOUTS[layout].format(prefix=prefix, name=name), course["data"][student])
    return path


def grade(course, zip_path: Path, stem: str, *options: str) -> Path:
    out = course["root"] / f"{stem}.csv"
    assert main(["grade", str(zip_path), "--roster", str(course["roster"]), "--assignment",
                 str(course["root"] / "hw" / "key" / "assignment.json"), "--out", str(out),
                 "--report", str(course["root"] / f"{stem}.html"), *options]) == 0
    return out


def read_rows(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8-sig") as handle:
        return list(csv.DictReader(handle))


def check_attribution(course, out: Path, report: str, lms: str) -> None:
    """30/30: each of 29 students graded from their own (newest, non-checkpoint) notebook with the planted totals,
    the 30th listed with no submission and left empty."""
    rows = read_rows(out)
    got = {}
    for row in rows:
        got.setdefault(row["student"], Fraction(0))
        got[row["student"]] += Fraction(row["points"])
        if row["student"] != IDS[NOTHING - 1]:
            assert row["status"] != "not graded", row
    assert got == {s: (course["totals"][s] if s != IDS[NOTHING - 1] else 0) for s in IDS}
    files = {r["student"]: r["file"] for r in rows}
    assert files[IDS[RESUBMITTED - 1]].endswith(("2026005-1.ipynb", "2026005 (1).ipynb"))
    assert "checkpoint" not in files[IDS[CHECKPOINTED - 1]]
    assert files[IDS[RENAMED - 1]].endswith("孙悟空-作业1.ipynb")
    assert files[IDS[NOTHING - 1]] == ""
    assert "the LMS numbered it as the later upload of the same file" in report
    assert f"{IDS[NOTHING - 1]} (Nobody Handedin): no notebook of theirs was graded" in report
    assert "<td>2026030</td><td>no submission</td>" in report
    if lms == "canvas":
        assert "<p id='late'>2026007</p>" in report
        assert "the notebook&#x27;s metadata and the LMS&#x27;s name 张伟 agree" in report


# -- models of the importers, from their sources ----------------------------------------------------------------

def canvas_import(text: str, course_students: list[dict], assignments: dict) -> dict:
    """What Canvas's gradebook importer (app/models/gradebook_importer.rb) makes of a CSV: {user id: grade or None}.

    ``row_has_student_headers?``: row[0] holds "Student", row[1] "ID"; ``update_column_count``: "SIS User ID" then
    "SIS Login ID" at 2 and 3; the last student column holds "Section"; ``strip_non_assignment_columns`` drops
    Current/Final Score...; ``parse_assignments`` reads ``Title (id)`` by id, then the exact title, else a new
    assignment (which this model refuses); ``check_for_non_student_row`` skips "Points Possible"; ``process_student``
    matches ID, then SIS User ID, then SIS Login ID, then the name, else a new student (refused here);
    ``no_score?``: blank or "-" is no score."""
    rows = list(csv.reader(io.StringIO(text)))
    header = rows[0]
    assert len(header) > 3 and "Student" in header[0] and "ID" in header[1]
    columns = 3
    if re.search(r"SIS\s+User\s+ID", header[2]) and re.search(r"SIS\s+Login\s+ID", header[3]):
        columns += 2
    assert "Section" in header[columns - 1]
    assignment_columns = {}
    for index, name in enumerate(header[columns:], start=columns):
        if re.search("Current Score|Current Points|Current Grade|Final Score|Final Points|Final Grade", name):
            continue
        match = re.fullmatch(r"(.*) \((\d+)\)", name)
        found = match.group(2) if match and match.group(2) in assignments else next(
            (i for i, title in assignments.items() if title == name), None)
        assert found is not None, f"Canvas would create a new assignment {name!r}"
        assignment_columns[found] = index
    by_id = {s["id"]: s for s in course_students}
    by_sis = {s["sis_user_id"]: s for s in course_students}
    grades = {}
    for row in rows[1:]:
        if "Points Possible" in row[0]:
            continue
        student = by_id.get(row[1]) if row[1] else None
        if student is None and columns == 5:
            student = by_sis.get(row[2]) if row[2] else None
        if student is None:
            named = [s for s in course_students if row[0] in (s["name"], s["sortable_name"])]
            assert len(named) == 1, f"Canvas would take {row[0]!r} for a new student (or the first of several)"
            student = named[0]
        for assignment, index in assignment_columns.items():
            value = row[index].strip()
            grades[(student["id"], assignment)] = None if value in ("", "-") else value
    return grades


def moodle_csv_import(text: str, column: str, field: str, users: list[dict], item: str) -> dict:
    """What Moodle's grade import (grade/import/csv/classes/load_data.php) makes of a CSV mapped by ``column`` to the
    user ``field``: {user: grade or None}. ``check_user_exists``: a value that finds no user aborts the import; a
    blank identifier leaves the previous row's user (``map_user_data_with_value`` skips the lookup) — refused here;
    ``update_grade_item``: '' or '-' is no grade, otherwise ``unformat_float`` must read a number or it aborts."""
    rows = list(csv.reader(io.StringIO(text)))
    header = rows[0]
    who, where = header.index(column), header.index(item)
    by_field = {u[field]: u for u in users}
    grades = {}
    for row in rows[1:]:
        if len(row) <= 1:
            continue
        value = row[who].strip()
        assert value, "a blank identifier: Moodle would give this grade to the previous row's student"
        assert value in by_field, f"Moodle aborts the whole import: no user with {field} {value!r}"
        grade = row[where].strip()
        if grade in ("", "-"):
            grades[by_field[value]["id"]] = None
        else:
            grades[by_field[value]["id"]] = float(grade)  # unformat_float: a number, or "badgrade"
    return grades


def moodle_worksheet_import(text: str, participants: dict) -> dict:
    """mod/assign/feedback/offline/importgradeslib.php (``init``, ``next``) and locallib.php
    (``process_import_grades``): the columns Identifier, Grade, Last modified (grade); the id is what follows
    "Participant "; an unknown participant is skipped; an empty grade, or one above the maximum, is skipped."""
    rows = list(csv.reader(io.StringIO(text)))
    header = rows[0]
    identifier, grade, _modified = (header.index(c) for c in ("Identifier", "Grade", "Last modified (grade)"))
    maximum = header.index("Maximum Grade")
    found = {}
    for row in rows[1:]:
        participant = row[identifier][len("Participant "):]
        if participant not in participants:
            continue
        value = row[grade].strip()
        if value == "" or float(value) > float(row[maximum]):
            continue
        found[participants[participant]] = float(value)
    return found


def canvas_course() -> list[dict]:
    return [{"id": CANVAS_USER[i], "sis_user_id": i, "name": STUDENTS[i], "sortable_name": STUDENTS[i]} for i in IDS]


def expected_export(course, student: str):
    return None if student == IDS[NOTHING - 1] else course["totals"][student]


# -- the tests ---------------------------------------------------------------------------------------------------

def test_canvas_zip_is_attributed_30_of_30_and_its_export_reads_as_canvas_reads_it(course):
    out = grade(course, canvas_zip(course), "canvas-grades", "--export", "canvas", "--export", "moodle",
                "--lms-assignment", f"{TITLE} ({CANVAS_ASSIGNMENT_ID})")
    report = (course["root"] / "canvas-grades.html").read_text(encoding="utf-8")
    check_attribution(course, out, report, "canvas")
    text = (course["root"] / "canvas-grades.canvas.csv").read_text(encoding="utf-8")
    grades = canvas_import(text, canvas_course(), {CANVAS_ASSIGNMENT_ID: TITLE, "111": "Other HW"})
    for student in IDS:
        value = grades[(CANVAS_USER[student], CANVAS_ASSIGNMENT_ID)]
        assert (None if value is None else Fraction(value)) == expected_export(course, student), student
    rows = list(csv.reader(io.StringIO(text)))
    # the Canvas user id of every student who handed in comes from the download's names (both 张伟 apart)
    assert [r[1] for r in rows[2:]] == [CANVAS_USER[i] if i != IDS[NOTHING - 1] else "" for i in IDS]
    # Moodle's CSV, mapped by e-mail (every roster line has one): no abort, the same totals, the 30th no grade
    moodle = (course["root"] / "canvas-grades.moodle.csv").read_text(encoding="utf-8")
    users = [{"id": i, "email": f"s{i}@uni.example", "username": f"u{i}", "idnumber": i} for i in IDS]
    for column, field in (("Email address", "email"), ("Username", "username"), ("ID number", "idnumber")):
        got = moodle_csv_import(moodle, column, field, users, f"{TITLE} ({CANVAS_ASSIGNMENT_ID})")  # --lms-assignment
        assert got == {i: (None if expected_export(course, i) is None else float(expected_export(course, i)))
                       for i in IDS}


def canvas_gradebook_export(course) -> bytes:
    """A Canvas gradebook export as Canvas writes it: BOM, CRLF, quoted names with commas, another assignment, the
    Points Possible row, Current/Final Score, a test student, and old values in this assignment's column."""
    lines = [('Student,ID,SIS User ID,SIS Login ID,Section,Other HW (111),'
              f'{TITLE} ({CANVAS_ASSIGNMENT_ID}),Current Score,Unposted Current Score,Final Score'),
             '    Points Possible,,,,,10.00,3.00,(read only),(read only),(read only)']
    for n, student in enumerate(IDS, start=1):
        name = STUDENTS[student]
        cell = f'"{name.split()[-1]}, {" ".join(name.split()[:-1])}"' if " " in name else name
        old = "" if n % 4 else "1.00"
        lines.append(f'{cell},{CANVAS_USER[student]},{student},s{student}@uni.example,IR 2026,{n % 10}.50,{old},'
                     f'"{n}.25",{n}.25,{n}.25')
    lines.append('"Student, Test",9999,,,IR 2026,,,,,')
    return ("\ufeff" + "\r\n".join(lines) + "\r\n").encode("utf-8")


def unchanged_apart_from(original: str, filled: str, column: int) -> tuple[str, str, list]:
    """Both texts with the cells of ``column`` cut out, and the filled file's cells of that column."""
    def cut(text):
        rows = csv_cells(text)
        spans = [row[column][1:] for row in rows if len(row) > column]
        pieces, at = [], 0
        for start, end in spans:
            pieces += [text[at:start], "\x00"]
            at = end
        return "".join(pieces) + text[at:], [row[column][0] for row in rows if len(row) > column]

    (a, _old), (b, new) = cut(original), cut(filled)
    return a, b, new


def test_the_filled_canvas_gradebook_keeps_every_other_byte_and_imports_the_totals(course):
    export = course["root"] / "canvas-export.csv"
    export.write_bytes(canvas_gradebook_export(course))
    grade(course, canvas_zip(course), "canvas-filled", "--canvas-gradebook", str(export))
    filled = (course["root"] / "canvas-filled.canvas.csv").read_bytes()
    assert filled.startswith(b"\xef\xbb\xbf")
    original_text, filled_text = export.read_bytes().decode("utf-8")[1:], filled.decode("utf-8")[1:]
    before, after, column = unchanged_apart_from(original_text, filled_text, 6)
    assert before == after  # every other byte as Canvas wrote it
    old = [row[6][0] for row in csv_cells(original_text)]
    assert column[0] == old[0] and column[1] == old[1]  # the header and the Points Possible row
    for n, student in enumerate(IDS, start=1):
        wanted = expected_export(course, student)
        assert column[n + 1] == (old[n + 1] if wanted is None else str(wanted)), student  # no grade: left as it was
    assert column[-2] == old[-2]  # the test student, not on the roster
    grades = canvas_import(filled_text, canvas_course() + [{"id": "9999", "sis_user_id": "", "name": "Test Student",
                                                             "sortable_name": "Student, Test"}],
                           {CANVAS_ASSIGNMENT_ID: TITLE, "111": "Other HW"})
    for student in IDS[:-1]:
        assert Fraction(grades[(CANVAS_USER[student], CANVAS_ASSIGNMENT_ID)]) == course["totals"][student]


def moodle_worksheet(course) -> bytes:
    """The assignment's grading worksheet as Moodle's offline grading writes it (gradingtable export)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["Identifier", "Full name", "Email address", "Status", "Grade", "Maximum Grade",
                     "Grade can be changed", "Last modified (submission)", "Last modified (grade)", "Feedback comments"])
    for n, student in enumerate(IDS, start=1):
        writer.writerow([f"Participant {PARTICIPANT[student]}", STUDENTS[student], f"s{student}@uni.example",
                         "Submitted for grading" if n != NOTHING else "No submission", "", "3.00", "Yes",
                         "Friday, 1 March 2026, 12:00 PM", "-", "<p>see you, \"friend\"</p>" if n == 4 else ""])
    return out.getvalue().encode("utf-8")


@pytest.mark.parametrize(("layout", "gbk"), [("4.1", False), ("3.x", False), ("flat", True)])
def test_each_moodle_layout_is_attributed_and_fills_the_worksheet_by_participant(course, layout, gbk):
    zip_path = moodle_zip(course, layout, gbk=gbk)
    if gbk:  # the names really are GBK without the UTF-8 flag: Python alone reads them as cp437
        assert all(not info.flag_bits & 0x800 for info in zipfile.ZipFile(zip_path).infolist())
        assert "孙悟空" not in "".join(zipfile.ZipFile(zip_path).namelist())
    worksheet = course["root"] / f"worksheet-{layout}.csv"
    worksheet.write_bytes(moodle_worksheet(course))
    stem = f"moodle-{layout}"
    out = grade(course, zip_path, stem, "--moodle-worksheet", str(worksheet), "--export", "canvas")
    report = (course["root"] / f"{stem}.html").read_text(encoding="utf-8")
    check_attribution(course, out, report, "moodle")
    if gbk:
        assert "孙悟空_" in report  # the names are shown as written, not garbled
    filled = (course["root"] / f"{stem}.moodle.csv").read_bytes().decode("utf-8")
    before, after, column = unchanged_apart_from(worksheet.read_bytes().decode("utf-8"), filled, 4)
    assert before == after
    for n, student in enumerate(IDS, start=1):
        wanted = expected_export(course, student)
        assert column[n] == ("" if wanted is None else str(wanted)), student
    got = moodle_worksheet_import(filled, {p: s for s, p in PARTICIPANT.items()})
    assert got == {s: float(course["totals"][s]) for s in IDS if s != IDS[NOTHING - 1]}


def test_an_export_keyed_on_a_moodle_column_the_roster_lacks_is_not_written(course, tmp_path):
    # Moodle aborts at the first identifier it cannot find: without an e-mail for every student the e-mail column is
    # left out, so it cannot be mapped by mistake; ID number (the roster id) is always there
    roster = tmp_path / "roster.csv"
    with open(roster, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([["id", "name", "email"]] + [[i, STUDENTS[i], f"s{i}@uni.example" if n > 1 else ""]
                                                                  for n, i in enumerate(IDS, start=1)])
    out = tmp_path / "g.csv"
    assert main(["grade", str(canvas_zip(course)), "--roster", str(roster), "--assignment",
                 str(course["root"] / "hw" / "key" / "assignment.json"), "--out", str(out), "--export", "moodle"]) == 0
    header = next(csv.reader(io.StringIO((tmp_path / "g.moodle.csv").read_text(encoding="utf-8"))))
    assert header == ["ID number", "Full name", TITLE, f"{TITLE} (feedback)"]


def test_a_canvas_gradebook_without_the_assignment_names_its_columns(course, capsys):
    export = course["root"] / "canvas-other.csv"
    export.write_text("Student,ID,SIS User ID,SIS Login ID,Section,Quiz 1 (7)\r\n", encoding="utf-8")
    out = course["root"] / "x.csv"
    assert main(["grade", str(canvas_zip(course)), "--roster", str(course["roster"]), "--assignment",
                 str(course["root"] / "hw" / "key" / "assignment.json"), "--out", str(out),
                 "--canvas-gradebook", str(export)]) == 2
    err = capsys.readouterr().err
    assert "has no column 'Ranking evaluation exercises'" in err and "Quiz 1 (7)" in err and err.count("\n") == 1
