"""The roster (``id,name[,seed]``) and each student's seed."""

from __future__ import annotations

import csv
import hashlib
import io
import re
from dataclasses import dataclass, field

from .files import FORMULA_STARTS, _read_text, _short, _shown

#: A student id is used as a file name and written in CSV files: letters, digits, ``.``, ``_`` and ``-``, starting
#: with a letter, a digit or ``_`` (not ``.``, a hidden file; not ``-``, which a spreadsheet reads as a formula).
STUDENT_ID = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]{0,63}")

#: Names Windows gives to devices, with or without an extension (``nul.ipynb`` is the null device there).
WINDOWS_DEVICES = frozenset({"CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"}
                            | {f"{port}{n}" for port in ("COM", "LPT") for n in "123456789¹²³"})

#: The roster's optional columns that identify a student in an LMS (Canvas: its user id, SIS User ID, SIS Login
#: ID; Moodle: e-mail, username, ID number), written into the grade files ``ltr-teach grade --export`` makes.
LMS_COLUMNS = ("canvas_id", "sis_user_id", "sis_login_id", "email", "username", "idnumber")


DEFAULT_COURSE = "ltr_teach"


def student_seed(student_id: str, course: str = DEFAULT_COURSE) -> int:
    """The seed of a student without a ``seed`` column: a hash of the course salt and the id.

    Parameters
    ----------
    student_id : str
        The roster's id.
    course : str
        The teacher's salt for this course and term.

    Returns
    -------
    int
        ``int(sha256(f"{course}/{student_id}").hexdigest(), 16) % 1_000_000``.

    Examples
    --------
    >>> import hashlib
    >>> student_seed("s01", "IR-2026") == int(hashlib.sha256(b"IR-2026/s01").hexdigest(), 16) % 1_000_000
    True
    """
    return int(hashlib.sha256(f"{course}/{student_id}".encode()).hexdigest(), 16) % 1_000_000


@dataclass(frozen=True)
class Student:
    """One roster line: the id (also the notebook's file name), the name and the seed.

    ``seed_given`` says whether the seed came from the roster's ``seed`` column (``False``: derived
    by :func:`student_seed`).
    """

    id: str
    name: str
    seed: int
    seed_given: bool = field(default=False, compare=False)
    #: the roster's LMS identifiers (:data:`LMS_COLUMNS`) that are filled in, as ``(column, value)`` pairs
    lms: tuple = field(default=(), compare=False)

    def lms_id(self, column: str) -> str:
        """The roster's value of an LMS column (:data:`LMS_COLUMNS`), or ``""``."""
        return dict(self.lms).get(column, "")


_ID_COLUMNS = ("id", "student", "student_id")


#: The largest seed a roster or record may give (18 digits: ``exercises.variant`` takes any int, but a
#: seed is a number to copy, not a data store).
MAX_SEED = 10**18 - 1


SEED_TEXT = re.compile(r"[0-9]{1,18}")


#: A roster or an assignment record larger than this is refused (100,000 students take about 4 MB).
MAX_ROSTER_BYTES = 50_000_000


def read_roster(path, course: str = DEFAULT_COURSE) -> list[Student]:
    """The students of a roster CSV: an ``id`` column, optional ``name`` and ``seed`` columns.

    Parameters
    ----------
    path : str or Path
        A CSV file (UTF-8, a spreadsheet's byte-order mark allowed) with a header row.
    course : str
        The salt for :func:`student_seed`, used where the ``seed`` column is absent or empty.

    Returns
    -------
    list of Student
        In the roster's order.
    """
    text = _read_text(path, "roster", MAX_ROSTER_BYTES)
    reader = csv.DictReader(io.StringIO(text))
    try:
        fieldnames = reader.fieldnames
    except csv.Error as exc:
        raise ValueError(f"roster = '{_shown(path)}' line 1 is not CSV: {exc}") from None
    columns = {(c or "").strip().lower(): c for c in fieldnames or []}
    id_column = next((columns[c] for c in _ID_COLUMNS if c in columns), None)
    if id_column is None:
        raise ValueError(f"roster = '{_shown(path)}' has no id column (its header is {_shown(_short(str(list(columns)), 200))}); "
                         "the first line must name the columns: id,name[,seed]")
    seed_column = columns.get("seed")
    name_column = columns.get("name")
    students, seen = [], {}
    lms_columns = {c: columns[c] for c in LMS_COLUMNS if c in columns}
    lms_seen: dict = {}
    rows = iter(reader)
    while True:
        line = reader.line_num + 1
        try:
            row = next(rows)
        except StopIteration:
            break
        except csv.Error as exc:
            raise ValueError(f"roster = '{_shown(path)}' line {line} is not CSV ({exc}): a roster line holds an id, "
                             "a name and a seed, each under 131,072 characters") from None
        values = [v for v in row.values() if isinstance(v, str)] + [v for v in row.get(None) or [] if isinstance(v, str)]
        if any("\n" in v or "\r" in v for v in values):
            raise ValueError(f"roster = '{_shown(path)}' line {line}: a quote (\") opened on this line runs on to "
                             f"line {reader.line_num}, so those lines would become one student; close the quote or "
                             "remove it")
        student_id = (row.get(id_column) or "").strip()
        if not student_id and not any(v.strip() for v in values):
            continue  # a blank line
        if not STUDENT_ID.fullmatch(student_id):
            raise ValueError(f"roster = '{_shown(path)}' line {line}: id = {_shown(repr(_short(student_id, 80)))} must "
                             "be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter, a digit or '_' (it "
                             "becomes the notebook's file name)")
        stem = student_id.partition(".")[0]
        if len(stem) <= 7 and stem.upper() in WINDOWS_DEVICES:
            raise ValueError(f"roster = '{_shown(path)}' line {line}: id = {student_id!r} is the name of a device on "
                             "Windows (its notebook could not be written there); give the student another id")
        folded = student_id.casefold()
        if folded in seen:
            same = "appears twice" if seen[folded] == student_id else f"differs from {seen[folded]!r} only in case"
            raise ValueError(f"roster = '{_shown(path)}' line {line}: id = {student_id!r} {same} (on Windows and macOS "
                             "the two notebooks would be one file)")
        seen[folded] = student_id
        raw_seed = (row.get(seed_column) or "").strip() if seed_column else ""
        if raw_seed and not SEED_TEXT.fullmatch(raw_seed):
            raise ValueError(f"roster = '{_shown(path)}' line {line}: seed = {_shown(repr(_short(raw_seed, 40)))} must "
                             f"be a whole number from 0 to {MAX_SEED:,}")
        seed = int(raw_seed) if raw_seed else student_seed(student_id, course)
        name = (row.get(name_column) or "").strip() if name_column else ""
        lms = []
        for column, header in lms_columns.items():
            value = (row.get(header) or "").strip()
            if not value:
                continue
            if value.startswith(FORMULA_STARTS) or len(value) > 254:
                raise ValueError(f"roster = '{_shown(path)}' line {line}: {column} = {_shown(repr(_short(value, 40)))} "
                                 "must be at most 254 characters and not start with = + - @ (an LMS identifier is "
                                 "written into the grade file as it is, and a spreadsheet runs such a cell)")
            if (column, value.casefold()) in lms_seen:
                raise ValueError(f"roster = '{_shown(path)}' line {line}: {column} = {_shown(repr(value))} is also "
                                 f"student {lms_seen[(column, value.casefold())]!r}'s")
            lms_seen[(column, value.casefold())] = student_id
            lms.append((column, value))
        students.append(Student(student_id, name, seed, seed_given=bool(raw_seed), lms=tuple(lms)))
    if not students:
        raise ValueError(f"roster = '{path}' lists no students")
    return students
