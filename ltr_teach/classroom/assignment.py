"""One exercise notebook per student (``ltr-teach assign``), the teacher's key and the assignment record."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from ..core.i18n import N_, _, get_language, using_language
from ..teaching import exercises
from ..teaching.answers import RANKING_EXAMPLES
from ..teaching.kinds import CHOICE_KINDS
from .files import _csv_safe, _read_text, _short, _shown, csv_text, through_link, write_inside
from .points import parse_partial
from .roster import DEFAULT_COURSE, MAX_ROSTER_BYTES, MAX_SEED, STUDENT_ID, Student, read_roster
from .tutorial import LANGUAGES

#: The assignment record's format name, checked when grading.
RECORD_FORMAT = "ltr_teach-assignment-1"


#: The tag of an answer cell; its metadata ``ltr_teach`` holds the exercise id and points.
ANSWER_TAG = "ltr-teach-answer"


def parse_exercise_list(text) -> list[tuple[str, int]]:
    """Exercise ids and families (``ndcg-lipstick,map-doc000:2,err``) as ``(id, points)`` pairs.

    A family name (``dcg_ndcg``) stands for all its exercises; ``:N`` after an id or a family gives
    the points (default 1).

    Examples
    --------
    The family ``err`` expands to its exercises in the sheet's order, each worth 1 point:

    >>> pairs = parse_exercise_list("map-doc000:2,err")
    >>> pairs[:3], all(points == 1 for _, points in pairs[1:])
    ([('map-doc000', 2), ('err-lipstick', 1), ('err-doc003', 1)], True)
    """
    pieces = text.split(",") if isinstance(text, str) else list(text)
    chosen: dict[str, int] = {}
    for piece in pieces:
        piece = str(piece).strip()
        if not piece:
            continue
        name, _, points_text = piece.partition(":")
        name = name.strip()
        points = 1
        if points_text:
            # read as text first: int() of 5,000 digits raises Python's own message, and "²" is a digit to isdigit()
            if not re.fullmatch(r"[0-9]{1,4}", points_text.strip()) or not 0 < int(points_text) <= 1000:
                raise ValueError(f"exercises: points {_shown(repr(_short(points_text, 40)))} for "
                                 f"{_shown(repr(_short(name, 80)))} must be a whole number from 1 to 1000")
            points = int(points_text)
        if name in exercises.FAMILIES:
            ids = [e.id for e in exercises.all() if e.family == name]
        else:
            ids = [exercises.get(name).id]
        for exercise_id in ids:
            chosen[exercise_id] = points
    if not chosen:
        raise ValueError(f"exercises = {text!r} names no exercise; give ids or families "
                         f"({', '.join(exercises.FAMILIES)})")
    return list(chosen.items())


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def _cell(kind: str, cell_id: str, source: str, metadata: dict | None = None) -> dict:
    cell = {"cell_type": kind, "id": cell_id, "metadata": metadata or {}, "source": _lines(source)}
    if kind == "code":
        cell.update(execution_count=None, outputs=[])
    return cell


def _notebook(cells: list, metadata: dict) -> dict:
    # the display name ipykernel gives its kernel: JupyterLab rewrites any other and marks the notebook modified
    return {"cells": cells, "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python",
                                                        "name": "python3"},
                                         "language_info": {"name": "python"}, "ltr_teach": metadata},
            "nbformat": 4, "nbformat_minor": 5}


def _other_kinds_note(chosen) -> str:
    """How to answer a question with options or a ranking to build, when the assignment has one."""
    kinds = {exercises.get(exercise_id).kind for exercise_id, _points in chosen}
    note = ""
    if kinds & set(CHOICE_KINDS):
        note += _("For a question with options, replace None by the name of one option, in quotes. ")
    if "create" in kinds:
        note += _("For a ranking to build, type its grades between the quotes, rank 1 first, as in [3, 0, 2]. ")
    if "written" in kinds:
        note += _("For a written answer, write a few sentences between the triple quotes; your teacher marks it. ")
    return note


def _options_markdown(ex) -> str:
    """A choice exercise's options under its prompt (the key to answer with, then the text); none marked right."""
    if ex.kind not in CHOICE_KINDS:
        return ""
    return "\n\n" + "\n".join(f"- `{key}`: {ex.option_text(key)}" for key in ex.options)


def answer_cell_source(ex, number: int) -> str:
    """The empty answer cell of an exercise: a string for a number or a ranking, ``None`` for a choice, with a
    comment saying what to write (every option's key for a choice, so the comment never points at one).

    Examples
    --------
    >>> import ltr_teach as lt
    >>> print(answer_cell_source(lt.exercises.get("dcg-append-item"), 3))
    answer_3 = None  # one of "rise", "fall", "same", "depends"
    >>> print(answer_cell_source(lt.exercises.get("ndcg-perfect-with-a-zero"), 4))
    answer_4 = ""  # a ranking, as in [3, 0, 2]
    """
    if ex.kind in CHOICE_KINDS:
        return f"answer_{number} = None  # one of " + ", ".join(f'"{key}"' for key in ex.options)
    if ex.kind == "create":
        return f'answer_{number} = ""  # {"a ranking" if ex.shape == "ranking" else "two rankings"}, as in ' \
               f"{RANKING_EXAMPLES[ex.shape]}"
    if ex.kind == "written":
        return f'answer_{number} = """\n"""  # a few sentences, marked by the teacher'
    return f'answer_{number} = ""'


def student_notebook(student: Student, chosen: list[tuple[str, int]], assignment: str, checks: bool = True) -> dict:
    """One student's exercise notebook (nbformat 4 as a dict): prompts with the student's numbers, answer cells.

    Nothing in it is an answer: the prompts state the data, the answer cells are empty and the
    optional check cells call :func:`ltr_teach.check` with the student's seed.
    """
    total = sum(points for _, points in chosen)
    name_part = f" ({student.name})" if student.name else ""
    intro = (f"# {assignment}\n\n"
             + _("Student: **{id}**{name} · seed **{seed}** · {n} exercise(s), {total} point(s)").format(
                 id=student.id, name=name_part, seed=student.seed, n=len(chosen), total=total) + "\n\n"
             + _("These are your own numbers: another student's notebook has different ones. Write each answer "
                 "between the quotes of its answer cell: a fraction (p/q), a decimal with at least three significant "
                 "digits, a percentage, or a small expression with log2. ")
             + _other_kinds_note(chosen)
             + (_("Run the cell below it to see whether it is right. ") if checks else "")
             + _("Save the notebook and hand it in under the same file name; do not change the notebook's "
                 "metadata (it holds your id and seed)."))
    if get_language() != "zh":
        intro += ("\n\n这些是你自己的题目数据。在每个答案单元格的引号中写答案（分数、至少三位有效数字的小数、百分数或含 log2 "
                  "的简单表达式），保存后以原文件名提交，不要修改笔记本的元数据。")
    cells = [_cell("markdown", "intro", intro),
             _cell("code", "setup", f"import ltr_teach as lt\n\nSEED = {student.seed}  # "
                   + _("your seed: do not change it"))]
    for number, (exercise_id, points) in enumerate(chosen, start=1):
        ex = exercises.variant(exercise_id, student.seed)
        cells.append(_cell("markdown", f"prompt-{number}",
                           f"## {number}. {ex.title} · `{ex.id}` · " + _("{n} point(s)").format(n=points) + "\n\n"
                           f"{ex.prompt}{_options_markdown(ex)}"))
        cells.append(_cell("code", f"answer-{number}", answer_cell_source(ex, number),
                           {"tags": [ANSWER_TAG], "ltr_teach": {"exercise": ex.id, "points": points}}))
        if checks:
            cells.append(_cell("code", f"check-{number}", f'lt.check("{ex.id}", answer_{number}, seed=SEED)'))
    metadata = {"assignment": assignment, "student": student.id, "seed": student.seed}
    return _notebook(cells, metadata)


@dataclass
class Assignment:
    """What :func:`assign` wrote: the students' notebooks and the key's files."""

    folder: Path
    students: dict
    record: Path
    key: Path


#: At most this many students are assigned at once: a notebook and its key take about 15 ms a student, so 3,000
#: take under a minute (a roster of 100,000 would run for half an hour).
MAX_ASSIGNED = 3_000

#: The title of an assignment not given one (in the sheets' language).
DEFAULT_TITLE = N_("Ranking evaluation exercises")


def assign(exercise_list, roster, out, course: str = DEFAULT_COURSE, name: str = DEFAULT_TITLE,
           checks: bool = True, lang: str | None = None, partial=None) -> Assignment:
    """Write one exercise notebook per student and the teacher's key, kept apart.

    ``out/students/<id>.ipynb`` go to the students; ``out/key/`` stays with the teacher: the
    assignment record ``assignment.json`` (exercises, points, each student's seed; :func:`grade`
    reads it) and ``key.md`` / ``key.csv`` (every student's answers and the library calls).

    Parameters
    ----------
    exercise_list : str or list
        Ids and families as :func:`parse_exercise_list` reads them.
    roster : str, Path or list of Student
        The roster CSV (see :func:`read_roster`) or the students.
    out : str or Path
        The output folder.
    course : str
        The seed salt for students without a ``seed`` column.
    name : str
        The assignment's title.
    checks : bool
        Put a ``lt.check`` cell under every answer cell, so students see at once whether an answer
        is right (formative work); ``False`` for a test.
    lang : {"en", "zh"} or None
        The language of the sheets (introduction, headings, prompts) and of the feedback pages; None: the
        current language.
    partial : str or dict, optional
        The partial-credit rule (see :func:`parse_partial`), kept in the record and applied by :func:`grade`.

    Returns
    -------
    Assignment
    """
    if lang not in (None, *LANGUAGES):
        raise ValueError(f"lang = {lang!r} is not a course language; choose one of {', '.join(LANGUAGES)}")
    partial = parse_partial(partial or {})
    with using_language(lang):
        return _assign(exercise_list, roster, out, course, name, checks, lang, partial)


def _assign(exercise_list, roster, out, course, name, checks, lang, partial) -> Assignment:
    if name == DEFAULT_TITLE:
        name = _(DEFAULT_TITLE)  # the default title in the sheets' language
    chosen = parse_exercise_list(exercise_list)
    students = roster if isinstance(roster, list) else read_roster(roster, course)
    if len(students) > MAX_ASSIGNED:
        raise ValueError(f"roster = '{_shown(roster if not isinstance(roster, list) else 'the list')}' lists "
                         f"{len(students):,} students; assign writes at most {MAX_ASSIGNED:,} notebooks at once (each "
                         "takes about 15 ms to compute): split the roster, one assign per section")
    out = Path(out)
    names = [f"students/{s.id}.ipynb" for s in students] + ["key/assignment.json", "key/key.md", "key/key.csv"]
    for target in names:  # before anything is written: a link planted in the output folder would write outside it
        if through_link(out, target):
            write_inside(out, target, "", "out")  # raises, naming the link
    written = {}
    key_md = [f"# Answer key: {name}", "", f"Exercises: {', '.join(f'{i} ({p} pt)' for i, p in chosen)}", ""]
    key_rows = [["student", "name", "seed", "exercise", "points", "answer", "call"]]
    for student in students:
        notebook = student_notebook(student, chosen, name, checks)
        written[student.id] = write_inside(out, f"students/{student.id}.ipynb",
                                           json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", "out")
        key_md += [f"## {student.id} {student.name} (seed {student.seed})".rstrip(), "",
                   "| exercise | points | answer | library call |", "|---|---|---|---|"]
        for exercise_id, points in chosen:
            ex = exercises.variant(exercise_id, student.seed)
            answer, call = exercises.answer_text(ex), exercises.call_text(ex)
            key_md.append(f"| {exercise_id} | {points} | {answer} | {call} |")
            key_rows.append([student.id, student.name, student.seed, exercise_id, points, answer, call.strip("`")])
        key_md.append("")
    record = {"format": RECORD_FORMAT, "assignment": name, "course": course, "checks": checks, "lang": lang,
              "partial": partial,
              "exercises": [{"id": i, "points": p} for i, p in chosen],
              "students": [{"id": s.id, "name": s.name, "seed": s.seed, "file": f"students/{s.id}.ipynb"}
                           for s in students]}
    record_path = write_inside(out, "key/assignment.json", json.dumps(record, indent=1, ensure_ascii=False) + "\n",
                               "out")
    key = write_inside(out, "key/key.md", "\n".join(key_md) + "\n", "out")
    write_inside(out, "key/key.csv", csv_text([[_csv_safe(v) for v in row] for row in key_rows]), "out")
    return Assignment(folder=out, students=written, record=record_path, key=key)


def read_record(path) -> dict:
    """The assignment record written by :func:`assign`, checked for shape."""
    text = _read_text(path, "assignment", MAX_ROSTER_BYTES)
    try:
        record = json.loads(text)
    except (ValueError, RecursionError) as exc:
        reason = "nested too deeply" if isinstance(exc, RecursionError) else _short(str(exc), 120)
        raise ValueError(f"assignment = '{_shown(path)}' cannot be read as an assignment record: "
                         f"{_shown(reason)}") from None
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise ValueError(f"assignment = '{_shown(path)}' is not an assignment record of `ltr-teach assign` "
                         f"(format {RECORD_FORMAT})")
    try:
        for entry in record["exercises"]:
            exercises.get(entry["id"])
            if type(entry["points"]) is not int or not 0 < entry["points"] <= 1000:
                raise ValueError(f"points {_short(str(entry['points']), 40)!r} of {entry['id']!r}")
        for entry in record["students"]:
            if not isinstance(entry["id"], str) or not STUDENT_ID.fullmatch(entry["id"]):
                raise ValueError(f"student id {_short(str(entry['id']), 80)!r}")
            if type(entry["seed"]) is not int or not 0 <= entry["seed"] <= MAX_SEED:
                raise ValueError(f"seed {_short(str(entry['seed']), 40)!r} of student {entry['id']!r} (a whole number "
                                 f"from 0 to {MAX_SEED:,})")
        if not isinstance(record["assignment"], str):
            raise ValueError("assignment title")
        if record.get("lang") not in (None, *LANGUAGES):
            raise ValueError(f"lang {_short(str(record.get('lang')), 20)!r}")
        parse_partial(record.get("partial") or {})
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ValueError(f"assignment = '{_shown(path)}' is not an assignment record of `ltr-teach assign`: "
                         f"{type(exc).__name__} {_shown(_short(str(exc), 160))}") from None
    return record
