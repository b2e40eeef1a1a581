"""Grading a class (``ltr-teach grade``): every returned notebook read as JSON (never run), every answer rechecked
from the student's seed in the record, the teacher's overrides applied."""

from __future__ import annotations

import ast
import csv
import io
import re
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

from ..core.i18n import using_language
from ..teaching import exercises
from ..teaching.checker import check
from .assignment import read_record
from .collect import (
    _answer_cells,
    _claim,
    _collect,
    _ids_in_name,
    _Item,
    _read_submission,
    find_record,
    is_checkpoint,
    match_id_pattern,
    resubmission_number,
)
from .files import _read_text, _short, _shown
from .gradebook import Gradebook, GradeRow, Submission
from .points import _whole, exact_share, parse_partial
from .roster import DEFAULT_COURSE, MAX_ROSTER_BYTES, Student, read_roster

#: Answer text longer than this is not passed to the checker (which reads at most 200 characters).
MAX_ANSWER_CELL = 2_000


#: Quotes an input method types, read as ASCII quotes when the cell is not Python as typed.
_IME_QUOTES = str.maketrans({c: '"' for c in "“”„‟＂「」『』〝〞"} | {c: "'" for c in "‘’‚‛＇"})


def answer_from_cell(source: str) -> str:
    """What a student answered in an answer cell, read without running it.

    The cell holds ``answer_3 = "..."``: a string literal gives its text, any other expression its
    source text (``599/840`` written without quotes); a cell that is not an assignment gives its
    whole text, which the checker then reports as unreadable.

    Examples
    --------
    >>> answer_from_cell('answer_1 = "599/840"'), answer_from_cell("answer_1 = 0.713"), answer_from_cell('answer_1 = ""')
    ('599/840', '0.713', '')
    >>> answer_from_cell('answer_5 = “0.4444”'), answer_from_cell('answer_2 = ＂rise＂')
    ('0.4444', 'rise')
    >>> answer_from_cell("import os; os.system('rm -rf ~')")
    "import os; os.system('rm -rf ~')"
    """
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        # a Chinese input method types “0.4444” or ＂rise＂ where Python wants "...": read them as quotes
        source = source.translate(_IME_QUOTES)
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return source.strip()
    for node in reversed(tree.body):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and node.targets[0].id.startswith("answer"):
            value = node.value
            if isinstance(value, ast.Constant) and value.value is None:  # a choice's answer cell left as it came
                return ""
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                return value.value.strip()
            return (ast.get_source_segment(source, value) or "").strip()
    return source.strip()


def _grade_answer(student, exercise_id: str, points: int, source: str, file: str, partial: dict) -> GradeRow:
    base = {"student": student.id, "name": student.name, "exercise": exercise_id, "max_points": points, "file": file}
    if len(source) > MAX_ANSWER_CELL:
        return GradeRow(**base, answer=_short(source), status="unreadable",
                        diagnosis=f"the answer cell holds {len(source)} characters; an answer has at most 200")
    answer = answer_from_cell(source)
    feedback = check(exercise_id, answer, seed=student.seed)
    diagnosis = feedback.diagnosis or (feedback.message if feedback.status in ("wrong", "too coarse", "unreadable")
                                       else "")
    slip = "+".join(feedback.mistakes)
    earned = points if feedback.correct else 0
    if feedback.status == "too coarse" and "too coarse" in partial:
        earned = _whole(points * Fraction(partial["too coarse"]))
    elif feedback.status == "wrong" and slip and "slip" in partial and exercises.get(exercise_id).kind == "compute":
        earned = _whole(points * Fraction(partial["slip"]))
    if feedback.status == "to mark":  # a written answer: the teacher reads all of it (overrides give the points)
        return GradeRow(**base, answer=_short(answer, MAX_ANSWER_CELL), status="to mark", points=0)
    return GradeRow(**base, answer=_short(answer), status=feedback.status, slip=slip,
                    diagnosis=diagnosis, hint=feedback.hint or "", points=earned)


def grade(submissions, roster, assignment=None, id_pattern=None, overrides=None) -> Gradebook:
    """Grade the returned notebooks of a class without running them.

    Each notebook is read as JSON; its metadata names the student, and the student's seed comes
    from the teacher's record (never from the notebook). A submission is not graded, and the
    problem is reported, when it is too large, not a regular file (a FIFO, a device, a link), not a
    notebook, without the metadata, renamed or copied (the file's name does not name the student id it
    holds), a checkpoint copy, for a student not in the record, or tampered with (its seed or assignment
    differs from the record). Of several notebooks of one student the newest is graded (see :func:`_newest`);
    the gradebook's ``submissions`` say which and why.

    A file's name names a student when it is the id (``2026001.ipynb``) or holds the id between separators
    (``2026001-Copy1.ipynb``); ``id_pattern`` (a regular expression whose group ``id``, or first group, is the id)
    replaces that rule. The names Canvas and Moodle give their downloads (:func:`.collect.lms_name`) say which LMS
    account handed a file in: that account is a roster student by the roster's ``canvas_id``, by the id its file
    names hold, or by its name when one roster student has it; a notebook renamed by the student is graded when its
    metadata names a student the account may be (two students called 张伟: the metadata decides between them).

    Parameters
    ----------
    submissions : str, Path or list of them
        A folder (searched recursively for ``*.ipynb``), notebook files, or a ``.zip`` as an LMS
        (Canvas, Moodle, Blackboard) downloads it (read in memory, never extracted).
    roster : str, Path or list of Student
        Who should have handed in (names; seeds must agree with the record).
    assignment : str or Path, optional
        The record ``key/assignment.json``; by default looked for in the submissions folder and its
        parent.
    id_pattern : str, optional
        The teacher's regular expression for the student id in a file's path.
    overrides : str or Path, optional
        A CSV ``student,exercise,points,note`` whose points replace the graded ones (see :func:`read_overrides`).

    Returns
    -------
    Gradebook
    """
    record_path = Path(assignment) if assignment else find_record(submissions)
    if record_path is None:
        raise ValueError("grade needs the assignment record (--assignment DIR/key/assignment.json, written by "
                         "`ltr-teach assign`): it holds the exercises, the points and every student's seed")
    record = read_record(record_path)
    pattern = None
    if id_pattern is not None:
        try:
            pattern = re.compile(id_pattern)
        except (re.error, RecursionError, OverflowError) as exc:
            raise ValueError(f"id_pattern = {_shown(_short(repr(id_pattern), 80))} is not a regular expression: "
                             f"{_shown(exc)}") from None
    partial = parse_partial(record.get("partial") or {})
    chosen = [(e["id"], int(e["points"])) for e in record["exercises"]]
    assigned = {s["id"]: Student(s["id"], s.get("name", ""), int(s["seed"])) for s in record["students"]}
    students = read_roster(roster, record.get("course", DEFAULT_COURSE)) if not isinstance(roster, list) else roster
    changes = read_overrides(overrides, {s.id for s in students}, dict(chosen)) if overrides else {}
    problems: list[tuple[str, str]] = []
    trouble_of: dict[str, list[str]] = defaultdict(list)

    def problem(who: str, text: str) -> None:
        problems.append((_shown(who), text))
        trouble_of[who].append(text)

    items = _collect(submissions)
    paths = [item.path or item.shown for item in items]
    if pattern is not None:
        found = match_id_pattern(id_pattern, paths)
        named = {id(item): ([who] if who else []) for item, who in zip(items, found)}
    else:
        named = {id(item): _ids_in_name(path, assigned) for item, path in zip(items, paths)}
    submitters = _submitters(items, named, students)
    handed: dict[str, list[_Item]] = defaultdict(list)  # who a file's name (or its LMS submitter) says handed it in
    for item in items:
        for who in _said_by_name(item, named, submitters):
            handed[who].append(item)
    by_student: dict[str, list[tuple[_Item, dict, str]]] = defaultdict(list)
    checkpoints: dict[str, list[str]] = defaultdict(list)
    lms_ids: dict[str, dict[str, str]] = defaultdict(dict)
    with using_language(record.get("lang")):
        for item, path in zip(items, paths):
            shown = _shown(item.shown)
            who_named = _said_by_name(item, named, submitters)
            label = who_named[0] if len(who_named) == 1 else item.name
            if item.trouble:
                problem(label, f"{shown} {item.trouble}")
                continue
            notebook, trouble = _read_submission(item.data)
            if trouble:
                problem(label, f"{shown} {trouble}")
                continue
            meta, trouble = _claim(notebook)
            if trouble:
                problem(label, f"{shown} {trouble}")
                continue
            claimed = meta["student"]
            claimed_shown = _shown(_short(claimed, 64))
            if is_checkpoint(path):  # Jupyter's own copy of the notebook: said, never graded
                checkpoints[claimed if claimed in assigned else label].append(item.shown)
                continue
            lms = item.lms
            submitter = submitters.get((lms.lms, lms.user)) if lms else None
            why = ""
            if lms is not None and not submitter and claimed in assigned:
                # the LMS's submitter is not on the roster by id or name: the notebook's metadata decides, unless the
                # LMS's name is another roster student's
                owners = _students_named(lms.name, students)
                if not owners or claimed in owners:
                    who_named = [claimed]
                    why = (f"the notebook's metadata and the LMS's name {_shown(lms.name)} agree" if owners else
                           f"the notebook's metadata (the LMS's name {_shown(lms.name)} is on no roster line)")
            if claimed not in who_named:
                others = [i for i in handed.get(claimed, []) if i is not item]
                if others:
                    problem(label, (f"{shown} holds the notebook of student {claimed_shown!r}, who handed in "
                                    f"{', '.join(_shown(i.shown) for i in others)} too: a copy; not graded "
                                    "(talk to both students before renaming anything)"))
                elif not who_named:
                    problem(label, (f"{shown}: its name holds no student id; it holds the notebook of student "
                                    f"{claimed_shown!r}; not graded (name it {claimed_shown}.ipynb if that is right, "
                                    "or give --id-pattern)"))
                elif lms is not None:
                    problem(label, (f"{shown} holds the notebook of student {claimed_shown!r}, but the LMS says "
                                    f"{_shown(lms.name)} ({who_named[0]}) handed it in: a copy; not graded"))
                else:
                    problem(label, (f"{shown} is renamed: it holds the notebook of student {claimed_shown!r}; not "
                                    f"graded (rename it back to {claimed_shown}.ipynb if that is right)"))
                continue
            if claimed not in assigned:
                problem(claimed, f"{shown}: student {claimed_shown!r} is not in the assignment record")
                continue
            if meta["seed"] != assigned[claimed].seed:
                problem(claimed, (f"{shown} is tampered with: its seed {_shown(_short(str(meta['seed']), 40))} is "
                                  f"not the seed {assigned[claimed].seed} the record gave {claimed}; not graded"))
                continue
            if meta.get("assignment") != record["assignment"]:
                problem(claimed, (f"{shown} belongs to another assignment "
                                  f"({_shown(_short(str(meta.get('assignment')), 60))!r}); not graded"))
                continue
            if lms is not None:
                lms_ids[claimed].setdefault(lms.lms, lms.user)
            by_student[claimed].append((item, notebook, why))
        rows = []
        taken: dict[str, Submission] = {}
        on_roster = {s.id for s in students}
        for claimed, handed_in in by_student.items():
            if claimed not in on_roster:
                problem(claimed, (f"{', '.join(_shown(i.shown) for i, _n, _w in handed_in)}: {claimed} is in the "
                                  "assignment record but not on the roster; not graded"))
        for student in students:
            record_student = assigned.get(student.id)
            if record_student is None:
                problem(student.id, "is on the roster but not in the assignment record: assign them first")
                continue
            if student.seed_given and student.seed != record_student.seed:
                raise ValueError(f"roster: student {student.id!r} has seed {student.seed} but the assignment record "
                                 f"gave seed {record_student.seed}: use the roster and course the assignment was "
                                 "made with")
            student = Student(student.id, student.name or record_student.name, record_student.seed, lms=student.lms)
            handed_in = by_student.get(student.id, [])
            submitted_by = {(i.lms.lms, i.lms.user) for i, _n, _w in handed_in if i.lms is not None}
            if len(submitted_by) > 1:  # two LMS accounts handed in this student's notebook: one is a copy
                problem(student.id, "the notebook of this student was handed in by several LMS accounts ("
                        + ", ".join(_shown(i.shown) for i, _n, _w in handed_in) + "): a copy; none graded")
                handed_in = []
            elif not handed_in:
                if checkpoints.get(student.id):
                    problem(student.id, "handed in only a checkpoint copy (" + ", ".join(
                        _shown(s) for s in checkpoints[student.id]) + "), which Jupyter keeps beside a notebook and is "
                        "never a submission; not graded")
                elif student.id not in trouble_of:
                    problem(student.id, "no submission")
            if not handed_in:
                reported = "; ".join(trouble_of[student.id])
                student_rows = [GradeRow(student.id, student.name, i, p, problem=reported) for i, p in chosen]
            else:
                item, notebook, reason = _newest(handed_in)
                lms = item.lms
                taken[student.id] = Submission(student.id, item.shown, reason, late=bool(lms and lms.late),
                                               ignored=tuple(i.shown for i, _n, _w in handed_in if i is not item)
                                               + tuple(checkpoints.get(student.id, ())))
                cells = _answer_cells(notebook)
                student_rows = []
                for exercise_id, points in chosen:
                    sources = cells.get(exercise_id, [])
                    if not sources:
                        student_rows.append(GradeRow(student.id, student.name, exercise_id, points,
                                                     status="not answered", file=item.shown,
                                                     problem="the answer cell is missing"))
                    elif len(sources) > 1:
                        student_rows.append(GradeRow(student.id, student.name, exercise_id, points,
                                                     status="unreadable", file=item.shown,
                                                     problem=f"{len(sources)} answer cells for this exercise"))
                    else:
                        student_rows.append(_grade_answer(student, exercise_id, points, sources[0], item.shown,
                                                          partial))
            for row in student_rows:
                change = changes.get((row.student, row.exercise))
                rows.append(row if change is None else
                            GradeRow(**{**row.__dict__, "points": change[0], "override": change[1] or "override"}))
    return Gradebook(assignment=record["assignment"], exercises=chosen, rows=rows, problems=problems,
                     partial=partial, lang=record.get("lang"), submissions=taken,
                     lms_ids={s: dict(ids) for s, ids in lms_ids.items()},
                     students=[s for s in students if s.id in assigned])


def _said_by_name(item: _Item, named: dict, submitters: dict) -> list[str]:
    """Who handed a file in, by its name: the LMS submitter's student when known, else the ids its name holds."""
    lms = item.lms
    if lms is not None and submitters.get((lms.lms, lms.user)):
        return [submitters[(lms.lms, lms.user)]]
    return named[id(item)]


def _name_key(name: str) -> str:
    """A name as both LMSs and a roster may write it: case, spaces, commas and ``_`` aside (Canvas writes the
    sortable name "Sun, Wukong" as ``sunwukong``, Moodle the full name "Wukong Sun")."""
    return "".join(c for c in name.casefold() if c.isalnum())


def _students_named(lms_name_text: str, students) -> list[str]:
    """The roster's students whose name is the LMS's name (first and last name in either order)."""
    key = _name_key(lms_name_text)
    if not key:
        return []
    found = []
    for student in students:
        words = student.name.replace(",", " ").split()
        if key in (_name_key(student.name), _name_key("".join(reversed(words)))):
            found.append(student.id)
    return found


def _submitters(items, named: dict, students) -> dict:
    """Who each LMS account that handed files in is, as far as the names tell: ``(lms, user) -> student id or ""``.

    By the roster's ``canvas_id`` column; else by the one roster id its files' names hold; else by its LMS name when
    exactly one roster student has that name (two students called 张伟 leave it open: their notebooks decide).
    """
    by_canvas_id = {s.lms_id("canvas_id"): s.id for s in students if s.lms_id("canvas_id")}
    accounts: dict[tuple, list[_Item]] = defaultdict(list)
    for item in items:
        if item.lms is not None:
            accounts[(item.lms.lms, item.lms.user)].append(item)
    found = {}
    for (lms, user), handed_in in accounts.items():
        if lms == "canvas" and user in by_canvas_id:
            found[(lms, user)] = by_canvas_id[user]
            continue
        ids = {who for item in handed_in if not is_checkpoint(item.path or item.shown) for who in named[id(item)]}
        if len(ids) == 1:
            found[(lms, user)] = ids.pop()
            continue
        owners = _students_named(handed_in[0].lms.name, students)
        found[(lms, user)] = owners[0] if len(owners) == 1 and not ids else ""
    return found


def _newest(handed_in: list) -> tuple:
    """Of one student's notebooks, the one that counts, and why: the LMS's numbering of a resubmitted file (Canvas
    ``-1``, ``-2``; Moodle ``(1)``), then Canvas's later upload (a larger attachment id), then the later saved time."""
    item, notebook, why = handed_in[0]
    if len(handed_in) == 1:
        return item, notebook, why or "the only notebook handed in"

    def order(entry):
        candidate = entry[0]
        lms = candidate.lms
        original = lms.original if lms else candidate.name
        return resubmission_number(original), (lms.attachment if lms else 0), candidate.mtime

    ranked = sorted(handed_in, key=order)
    item, notebook, why = ranked[-1]
    newest, before = order(ranked[-1]), order(ranked[-2])
    others = ", ".join(_shown(i.shown) for i, _n, _w in ranked[:-1])
    if newest[0] != before[0]:
        rule = "the LMS numbered it as the later upload of the same file"
    elif newest[1] != before[1]:
        rule = "Canvas uploaded it later (a larger attachment id)"
    elif newest[2] != before[2]:
        rule = "it was saved last"
    else:
        rule = "the files are alike in name and time; the last one in the download is taken"
    return item, notebook, f"the newest of {len(ranked)} notebooks ({rule}; not graded: {others})"


def read_overrides(path, students, points: dict) -> dict:
    """The teacher's overrides: a CSV ``student,exercise,points,note``, by (student, exercise).

    Applied on every regrade: the points replace the graded ones and the row is marked with the note.
    """
    text = _read_text(path, "overrides", MAX_ROSTER_BYTES)
    reader = csv.reader(io.StringIO(text))
    changes = {}
    rows = iter(reader)
    while True:
        line = reader.line_num + 1
        try:
            row = next(rows)
        except StopIteration:
            break
        except csv.Error as exc:
            raise ValueError(f"overrides = '{_shown(path)}' line {line} is not CSV: {exc}") from None
        where = f"overrides = '{_shown(path)}' line {line}"
        if any("\n" in v or "\r" in v for v in row):  # csv reads an unclosed quote on to the end of the file
            raise ValueError(f"{where}: a quote (\") opened on this line runs on to line {reader.line_num}, so those "
                             "lines would become one override; close the quote or remove it")
        if not any(v.strip() for v in row):
            continue
        cells = [v.strip() for v in row] + ["", "", "", ""]
        if line == 1 and cells[0].lower() in ("student", "id", "student_id"):
            continue
        student, exercise_id, given, note = cells[:4]
        if student not in students:
            raise ValueError(f"{where}: student {_shown(_short(student, 64))!r} is not on the roster")
        if exercise_id not in points:
            raise ValueError(f"{where}: exercise {_shown(_short(exercise_id, 64))!r} is not in the assignment "
                             f"({', '.join(points)})")
        if not re.fullmatch(r"[0-9]{1,4}(?:\.[0-9]{1,4})?(?:/[0-9]{1,4})?", given):
            raise ValueError(f"{where}: points = {_shown(_short(given, 40))!r} must be a number from 0 to "
                             f"{points[exercise_id]} (such as 2, 1.5 or 3/2)")
        try:
            value = exact_share(given)
        except ZeroDivisionError:
            raise ValueError(f"{where}: points = {given!r} divides by zero") from None
        if not 0 <= value <= points[exercise_id]:
            raise ValueError(f"{where}: points = {given} must be from 0 to {points[exercise_id]}, the "
                             "exercise's points")
        changes[(student, exercise_id)] = (_whole(value), _short(note, 200))
    return changes
