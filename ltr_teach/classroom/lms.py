"""The totals in an LMS's own files: Canvas's gradebook import and Moodle's "Import grades from CSV file" written from
scratch (:func:`export`), or the teacher's own Canvas gradebook export and Moodle grading worksheet filled in
(:func:`fill_canvas_gradebook`, :func:`fill_moodle_worksheet`), every other byte as the LMS wrote it.

What the LMSs do with these files, from their sources:

- Canvas, ``app/models/gradebook_importer.rb``: the header must start ``Student``, ``ID`` (``row_has_student_headers?``),
  then optionally ``SIS User ID`` and ``SIS Login ID`` (``update_column_count``), and ``Section`` ends the student
  columns; a row whose first cell holds "Points Possible" describes the assignments; a student is found by ``ID``
  (Canvas's user id), then ``SIS User ID``, then ``SIS Login ID``, then by name (``process_student``), and a row
  found by none becomes a new, unknown student; an assignment column ``Title (12345)`` is matched by its id, then by
  its exact title, and otherwise a new assignment is created (``parse_assignments``); Current/Final Score columns
  are ignored; an empty cell or ``-`` is no score (``no_score?``).
- Moodle, ``grade/import/csv/classes/load_data.php``: one column is mapped to the user's id, username, ID number or
  e-mail; a value that finds no user aborts the whole import (``usermappingerrorusernotfound``), and a row with an
  empty identifier keeps the previous row's user; a grade of ``''`` or ``-`` is no grade, anything else must read
  as a number (``unformat_float``) or the import stops (``badgrade``).
- Moodle's grading worksheet, ``mod/assign/feedback/offline/importgradeslib.php``: the columns ``Identifier``
  ("Participant N", N the participant id the submissions' download carries), ``Grade`` and ``Last modified
  (grade)``; a row whose participant is unknown is skipped, and (``locallib.php``) an empty grade, a grade above the
  maximum or one changed in Moodle after the worksheet was downloaded is skipped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from .files import _csv_safe, _read_teacher_bytes, _short, _shown, csv_text
from .points import points_text
from .roster import Student

#: The LMS grade-import formats :func:`export` writes.
EXPORTS = ("canvas", "moodle")

#: A teacher's LMS export larger than this is refused (a class of 1,000 with 100 assignments is about 1 MB).
MAX_LMS_FILE_BYTES = 50_000_000

#: Canvas's title with its assignment id, as its gradebook export writes a column: ``HW1 (12345)``.
CANVAS_COLUMN = re.compile(r"(?P<title>.*) \((?P<id>[0-9]{1,20})\)")


def _total(book, student: str):
    """The student's total as an LMS cell: the points, or ``""`` (no grade) for a student with none."""
    for who, _name, points, _most in book.totals():
        if who == student:
            return points_text(points) if book.has_grade(student) else ""
    return ""


def _students(book) -> list:
    """The gradebook's students with their roster columns (a gradebook made by hand has only its rows' ids)."""
    return book.students or [Student(s, name, 0) for s, name, _points, _most in book.totals()]


def _canvas_user(book, student) -> str:
    return student.lms_id("canvas_id") or book.lms_ids.get(student.id, {}).get("canvas", "")


def export(book, path, lms: str, bom: bool = False, lms_assignment: str | None = None) -> None:
    """The total per student in an LMS's grade-import CSV: ``canvas`` or ``moodle``.

    A student with no grade (nothing of theirs was graded) gets an empty cell, which both LMSs read as "no grade";
    a 0 would be stored as a real zero. ``lms_assignment`` names the column (Canvas: ``Title (id)``, matched by its
    id); the default is the assignment's title.

    Canvas: ``ID`` is Canvas's user id (the roster's ``canvas_id``, or the id in the student's file names in the
    Canvas download), ``SIS User ID`` the roster's ``sis_user_id`` (else the roster id), ``SIS Login ID`` the
    roster's ``sis_login_id``. Moodle: ``ID number`` is the roster's ``idnumber`` (else the roster id), and
    ``Username`` and ``Email address`` are written when every student has one; map one of them at import.
    """
    if lms not in EXPORTS:
        raise ValueError(f"export = {lms!r} is not a supported LMS; choose one of {', '.join(EXPORTS)}")
    column = _csv_safe(_short(lms_assignment or book.assignment, 255))
    rows = []
    if lms == "canvas":
        rows.append(["Student", "ID", "SIS User ID", "SIS Login ID", "Section", column])
        rows.append(["    Points Possible", "", "", "", "", points_text(sum(p for _, p in book.exercises))])
        for student in _students(book):
            rows.append([_csv_safe(student.name or student.id), _canvas_user(book, student),
                         student.lms_id("sis_user_id") or student.id, student.lms_id("sis_login_id"), "",
                         _total(book, student.id)])
    else:
        extra = [(c, header) for c, header in (("username", "Username"), ("email", "Email address"))
                 if _students(book) and all(s.lms_id(c) for s in _students(book))]
        rows.append(["ID number", *(header for _c, header in extra), "Full name", column, f"{column} (feedback)"])
        overridden = book.override_notes()
        for student in _students(book):
            notes = "; ".join(overridden.get(student.id, []))
            rows.append([student.lms_id("idnumber") or student.id, *(student.lms_id(c) for c, _h in extra),
                         _csv_safe(student.name), _total(book, student.id), _csv_safe(notes)])
    Path(path).write_bytes((b"\xef\xbb\xbf" if bom else b"") + csv_text(rows).encode("utf-8"))


# -- the teacher's own LMS files, filled in ---------------------------------------------------------------------


def csv_cells(text: str, delimiter: str = ",") -> list[list[tuple[str, int, int]]]:
    """Every cell of a CSV text with where it stands: ``(value, start, end)`` per cell, per row (RFC 4180 quoting),
    so one cell can be replaced and every other byte kept.

    >>> csv_cells('a,"b ""c"" d",\\r\\n1,2,3')
    [[('a', 0, 1), ('b "c" d', 2, 13), ('', 14, 14)], [('1', 16, 17), ('2', 18, 19), ('3', 20, 21)]]
    """
    rows, row, i, n = [], [], 0, len(text)
    while True:
        start = i
        if i < n and text[i] == '"':
            pieces, j = [], i + 1
            while True:
                k = text.find('"', j)
                if k < 0:
                    line = text.count("\n", 0, start) + 1
                    raise ValueError(f"line {line}: a quote (\") opened here is never closed")
                pieces.append(text[j:k])
                if text.startswith('""', k):
                    pieces.append('"')
                    j = k + 2
                    continue
                i = k + 1
                break
            value = "".join(pieces)
        else:
            j = i
            while j < n and text[j] not in (delimiter, "\r", "\n"):
                j += 1
            value, i = text[start:j], j
        row.append((value, start, i))
        if i >= n:
            rows.append(row)
            break
        if text[i] == delimiter:
            i += 1
            continue
        if text[i] not in "\r\n":
            line = text.count("\n", 0, i) + 1
            raise ValueError(f"line {line}: text after a closing quote")
        i += 2 if text.startswith("\r\n", i) else 1
        rows.append(row)
        row = []
        if i >= n:
            break
    return rows


@dataclass
class Filled:
    """What filling in an LMS file did: the students whose cell got a grade, those left as the file had them (no
    grade here), the file's rows this gradebook does not know, and the students the file does not hold."""

    path: Path
    column: str
    filled: list = field(default_factory=list)
    left: list = field(default_factory=list)
    unknown_rows: list = field(default_factory=list)
    not_in_file: list = field(default_factory=list)
    notes: list = field(default_factory=list)


def _read_lms_file(path, what: str, out) -> tuple[str, str, str]:
    """An LMS's CSV export: its text, its byte-order mark (kept when writing back) and its delimiter."""
    if Path(out).exists() and Path(out).resolve() == Path(path).resolve():
        raise ValueError(f"{what} = '{_shown(path)}' is the file the filled-in copy would be written to; keep the LMS's "
                         "export under another name (the copy is written beside the gradebook)")
    data = _read_teacher_bytes(path, what, MAX_LMS_FILE_BYTES)
    bom = "\ufeff" if data.startswith(b"\xef\xbb\xbf") else ""
    try:
        text = data.decode("utf-8")[len(bom):]
    except UnicodeDecodeError as exc:
        raise ValueError(f"{what} = '{_shown(path)}' is not UTF-8 text ({exc.reason} at byte {exc.start}); give the "
                         "file as the LMS exported it") from None
    first = text.split("\n", 1)[0]
    # Canvas's importer reads a file whose first lines split into more fields on ";" as semicolon-separated
    delimiter = ";" if first.count(";") > first.count(",") else ","
    return text, bom, delimiter


def _parse(text: str, path, what: str, delimiter: str):
    try:
        return csv_cells(text, delimiter)
    except ValueError as exc:
        raise ValueError(f"{what} = '{_shown(path)}' {exc}") from None


def _write_filled(out, text: str, bom: str, edits: dict) -> None:
    """``text`` with each ``(start, end)`` span replaced by its new value, and the byte-order mark it came with."""
    pieces, at = [], 0
    for (start, end), value in sorted(edits.items()):
        pieces += [text[at:start], value]
        at = end
    pieces.append(text[at:])
    Path(out).write_bytes((bom + "".join(pieces)).encode("utf-8"))


def fill_canvas_gradebook(book, gradebook_path, out, lms_assignment: str | None = None) -> Filled:
    """The teacher's Canvas gradebook export with this assignment's column filled in, every other cell as exported.

    The column is ``lms_assignment`` (the header as Canvas wrote it, ``HW1 (12345)``) or the one whose title is the
    assignment's. A row is this gradebook's student by ``ID`` (Canvas's user id: the roster's ``canvas_id`` or the id
    in the student's Canvas file names), then ``SIS User ID`` (the roster's ``sis_user_id``, else its id), then
    ``SIS Login ID``, as Canvas's importer matches them, never by name (two students may share one). A student with
    no grade keeps the cell the export had: an empty cell would clear a grade already in Canvas.
    """
    what = "canvas_gradebook"
    text, bom, delimiter = _read_lms_file(gradebook_path, what, out)
    rows = _parse(text, gradebook_path, what, delimiter)
    header = [value.strip() for value, _s, _e in rows[0]]
    if len(header) < 4 or "Student" not in header[0] or "ID" not in header[1]:
        raise ValueError(f"{what} = '{_shown(gradebook_path)}' is not a Canvas gradebook export: its first line must "
                         f"start Student, ID (it starts {_shown(_short(', '.join(header[:3]), 80))})")
    column = _find_column(header, lms_assignment, book.assignment, gradebook_path, what)
    sis_user = header.index("SIS User ID") if "SIS User ID" in header else None
    sis_login = header.index("SIS Login ID") if "SIS Login ID" in header else None
    by_key: dict[tuple, str] = {}
    for student in _students(book):
        if _canvas_user(book, student):
            by_key[("id", _canvas_user(book, student))] = student.id
        by_key[("sis", student.lms_id("sis_user_id") or student.id)] = student.id
        if student.lms_id("sis_login_id"):
            by_key[("login", student.lms_id("sis_login_id"))] = student.id
    result = Filled(Path(out), header[column])
    edits, seen = {}, set()
    for row in rows[1:]:
        values = [value.strip() for value, _s, _e in row]
        if not any(values) or "Points Possible" in values[0] or all(
                re.fullmatch(r"\s*(Muted|Manual Posting.*)?\s*", v, re.IGNORECASE) for v in values):
            continue  # the rows gradebook_importer.rb's check_for_non_student_row passes over
        keys = [("id", values[1])]
        if sis_user is not None and sis_user < len(values):
            keys.append(("sis", values[sis_user]))
        if sis_login is not None and sis_login < len(values):
            keys.append(("login", values[sis_login]))
        student = next((by_key[k] for k in keys if k[1] and k in by_key), None)
        if student is None:
            result.unknown_rows.append(values[0])
            continue
        seen.add(student)
        if column >= len(row):
            raise ValueError(f"{what} = '{_shown(gradebook_path)}': the row of {_shown(values[0])} has no cell under "
                             f"{_shown(header[column])}")
        total = _total(book, student)
        if total:
            _value, start, end = row[column]
            edits[(start, end)] = total
            result.filled.append(student)
        else:
            result.left.append(student)
    result.not_in_file = [s.id for s in _students(book) if s.id not in seen]
    _write_filled(out, text, bom, edits)
    return result


def _find_column(header: list, lms_assignment, title: str, path, what: str) -> int:
    if lms_assignment:
        wanted = [i for i, h in enumerate(header) if h == lms_assignment.strip()]
    else:
        wanted = [i for i, h in enumerate(header)
                  if h == title or (CANVAS_COLUMN.fullmatch(h) and CANVAS_COLUMN.fullmatch(h)["title"] == title)]
    if len(wanted) != 1:
        shown = ", ".join(_shown(_short(h, 60)) for h in header[:40])
        name = lms_assignment or title
        raise ValueError(f"{what} = '{_shown(path)}' has {'no' if not wanted else 'more than one'} column "
                         f"{_shown(_short(name, 80))!r}; its columns are {shown}; give the column as the file names it "
                         "(--lms-assignment \"HW1 (12345)\")")
    return wanted[0]


def fill_moodle_worksheet(book, worksheet_path, out) -> Filled:
    """The teacher's Moodle grading worksheet (the assignment's "Download grading worksheet") with ``Grade`` filled
    in, every other cell as Moodle wrote it. A row is matched by its ``Identifier`` ("Participant N"): N is the
    participant id in the student's folder or file name of Moodle's "Download all submissions". A student with no
    grade keeps the cell as it was (Moodle skips an empty grade)."""
    what = "moodle_worksheet"
    text, bom, delimiter = _read_lms_file(worksheet_path, what, out)
    rows = _parse(text, worksheet_path, what, delimiter)
    header = [value.strip() for value, _s, _e in rows[0]]
    missing = [c for c in ("Identifier", "Grade") if c not in header]
    if missing:
        raise ValueError(f"{what} = '{_shown(worksheet_path)}' is not a Moodle grading worksheet: it has no "
                         f"{' or '.join(missing)} column (its columns are {_shown(_short(', '.join(header), 200))}); "
                         "download it in English (the columns are matched by their English names)")
    identifier, grade_column = header.index("Identifier"), header.index("Grade")
    maximum = header.index("Maximum Grade") if "Maximum Grade" in header else None
    by_participant = {ids["moodle"]: student for student, ids in book.lms_ids.items() if "moodle" in ids}
    result = Filled(Path(out), "Grade")
    edits, seen = {}, set()
    for row in rows[1:]:
        values = [value.strip() for value, _s, _e in row]
        if not any(values):
            continue
        match = re.fullmatch(r"\D*?([0-9]{1,20})", values[identifier]) if identifier < len(values) else None
        student = by_participant.get(match.group(1)) if match else None
        if student is None:
            result.unknown_rows.append(values[identifier] if identifier < len(values) else "")
            continue
        seen.add(student)
        total = _total(book, student)
        if not total:
            result.left.append(student)
            continue
        if maximum is not None and maximum < len(values):
            try:
                most = Fraction(values[maximum].replace(",", ""))
            except (ValueError, ZeroDivisionError):
                most = None
            if most is not None and Fraction(total) > most:
                result.notes.append(f"{student}: {total} points is above the worksheet's maximum grade "
                                    f"{values[maximum]}; Moodle skips it (scale the assignment's grade in Moodle to "
                                    "the points, or regrade)")
        _value, start, end = row[grade_column]
        edits[(start, end)] = total
        result.filled.append(student)
    result.not_in_file = [s.id for s in _students(book) if s.id not in seen]
    _write_filled(out, text, bom, edits)
    return result
