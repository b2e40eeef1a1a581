"""A class of 30: assign with the CLI, fill every notebook, grade with the CLI, check every row.

Each student's answers are planted by this test: the right value (exact, as a decimal, with or
without quotes), every slip the checker's catalogue knows for each exercise (its value recomputed
by the library under the slip), too-coarse decimals, unreadable and hostile text (code, HTML/JS,
spreadsheet formulas, huge strings), empty answers; and whole submissions that are renamed,
tampered with, malformed, without metadata, too large, doubled or missing. The expected gradebook
is computed from what was planted, not from the grader's output.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
import sympy

import ltr_teach as lt
from ltr_teach.cli import main
from ltr_teach.teaching.checker import mistakes

EXERCISES = [("ndcg-lipstick", 2), ("map-doc000", 1), ("ap-doc004-topic2", 1), ("err-lipstick", 2),
             ("f1-doc000", 1), ("auc-tie", 1), ("p-at-5", 1), ("r-at-5", 1)]
COURSE = "IR-2026-spring"
N_STUDENTS = 30

UNREADABLE = ["about half", "0.7.1", "import os; os.system('touch PWNED')",
              "<script>alert('x')</script>", "=HYPERLINK(\"http://evil\",\"click\")", "@SUM(A1:A9)"]
HUGE = "9" * 100_000

# Whole-submission problems, by student number: what happens to that student's file.
RENAMED, TAMPERED, MALFORMED, NO_METADATA, TOO_LARGE, DOUBLED, MISSING = 8, 9, 10, 11, 12, 13, 14
# DOUBLED hands in the same notebook twice, the copy in late/ saved a minute later: that one is graded (issue 31)
PROBLEM_STUDENTS = {RENAMED, TAMPERED, MALFORMED, NO_METADATA, TOO_LARGE, MISSING}


def seed_of(student_id: str) -> int:
    return int(hashlib.sha256(f"{COURSE}/{student_id}".encode()).hexdigest(), 16) % 1_000_000


def exact_text(value) -> str:
    """A rational as p/q; an irrational (logs) as a 12-significant-digit decimal."""
    return f"{value.p}/{value.q}" if value.is_Rational else str(sympy.N(value, 12))


def coarse(value) -> str | None:
    """The value rounded to one significant digit (0.7 for 0.713), when that is a decimal other than the value."""
    text = f"{float(sympy.N(value, 30)):.1g}"
    if "." not in text or "e" in text or sympy.Rational(text) == value:
        return None
    return text


def unique_slips(variant) -> dict[str, object]:
    """The slips whose value no other slip (and not the right value) gives, by key: one diagnosis each."""
    found = mistakes(variant.explanation(), variant.context)
    values = [float(sympy.N(m.value, 30)) for m in found]
    right = float(sympy.N(variant.answer, 30))
    unique = {}
    for n, m in enumerate(found):
        if abs(values[n] - right) < 1e-6 or any(abs(values[n] - v) < 1e-6 for j, v in enumerate(values) if j != n):
            continue
        unique.setdefault(m.key, m.value)
    return unique


@pytest.fixture(scope="module")
def graded_class(tmp_path_factory):
    """Assign, plant the answers, grade; returns the planted answers and the paths."""
    root = tmp_path_factory.mktemp("class")
    roster = root / "roster.csv"
    ids = [f"stu{n:02}" for n in range(1, N_STUDENTS + 1)]
    names = {i: f"学生{n}" if n % 3 else f"=cmd|' /C calc'!A{n}" for n, i in enumerate(ids, start=1)}
    with open(roster, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([["id", "name"]] + [[i, names[i]] for i in ids])
    exercise_list = ",".join(f"{i}:{p}" for i, p in EXERCISES)
    assert main(["assign", "--exercises", exercise_list, "--roster", str(roster), "--out", str(root / "hw"),
                 "--course", COURSE]) == 0
    handed = root / "handed_in"
    handed.mkdir()
    # Every slip of every exercise goes to one graded student whose numbers give it a value of its own.
    slip_for = {}
    graded = [s for n, s in enumerate(ids, start=1) if n not in PROBLEM_STUDENTS]
    for exercise_id, _ in EXERCISES:
        for student in graded:
            slips = unique_slips(lt.exercises.variant(exercise_id, seed_of(student)))
            for key in sorted(set(slips) - {k for (s, e), (k, _v) in slip_for.items() if e == exercise_id}):
                if (student, exercise_id) not in slip_for:
                    slip_for[(student, exercise_id)] = (key, slips[key])
    planted = {}  # (student, exercise) -> (cell source, expected status, expected slip, answer in the csv)
    for n, student in enumerate(ids, start=1):
        notebook = json.loads((root / "hw" / "students" / f"{student}.ipynb").read_text(encoding="utf-8"))
        cells = {c["metadata"]["ltr_teach"]["exercise"]: c for c in notebook["cells"]
                 if "ltr_teach" in c["metadata"]}
        for j, (exercise_id, _points) in enumerate(EXERCISES):
            variant = lt.exercises.variant(exercise_id, seed_of(student))
            case = (n + j) % 6
            if (student, exercise_id) in slip_for:
                key, value = slip_for[(student, exercise_id)]
                text = exact_text(value)
                plant = (f'answer_{j + 1} = "{text}"', "wrong", key, text)
            elif case in (0, 3):
                text = exact_text(variant.answer)
                plant = (f'answer_{j + 1} = "{text}"', "right", "", text)
            elif case == 1:  # a decimal without quotes: Python would read a float, the grader reads the text
                text = f"{float(sympy.N(variant.answer, 30)):.5f}"
                plant = (f"answer_{j + 1} = {text}", "right", "", text)
            elif case == 2:
                text = UNREADABLE[n % len(UNREADABLE)]
                source = text if text.startswith("import") else f"answer_{j + 1} = {json.dumps(text)}"
                plant = (source, "unreadable", "", text)
            elif case == 4 and coarse(variant.answer) and n % 2:
                text = coarse(variant.answer)
                plant = (f'answer_{j + 1} = "{text}"', "too coarse", "", text)
            elif case == 4:
                plant = (f'answer_{j + 1} = ""', "not answered", "", "")
            else:
                source = f'answer_{j + 1} = "{HUGE}"'
                plant = (source, "unreadable", "", source[:200] + f"… ({len(source)} characters)")
            cells[exercise_id]["source"] = [plant[0]]
            planted[(student, exercise_id)] = plant
        path = handed / f"{student}.ipynb"
        if n == MISSING:
            continue
        if n == TAMPERED:
            notebook["metadata"]["ltr_teach"]["seed"] += 1
        if n == NO_METADATA:
            del notebook["metadata"]["ltr_teach"]
        text = json.dumps(notebook, ensure_ascii=False)
        if n == MALFORMED:
            text = text[: len(text) // 2]
        if n == TOO_LARGE:
            notebook["cells"].append({"cell_type": "markdown", "metadata": {}, "source": ["x" * 6_000_000]})
            text = json.dumps(notebook)
        if n == RENAMED:  # student 8 hands in student 7's notebook under their own name
            shutil.copy(handed / f"{ids[RENAMED - 2]}.ipynb", path)
            continue
        path.write_text(text, encoding="utf-8")
        if n == DOUBLED:
            (handed / "late").mkdir()
            (handed / "late" / f"{student}.ipynb").write_text(text, encoding="utf-8")
            later = path.stat().st_mtime + 60
            os.utime(handed / "late" / f"{student}.ipynb", (later, later))
    # Every slip the catalogue has for these variants is planted somewhere (at least a few per exercise).
    for exercise_id, _ in EXERCISES:
        assert len({k for (s, e), (k, _v) in slip_for.items() if e == exercise_id}) >= 3, exercise_id
    # Guard for the hostile cell "import os; os.system('touch PWNED')": were it run, the file would appear.
    assert not (root / "PWNED").exists()
    assert main(["grade", str(handed), "--roster", str(roster), "--assignment", str(root / "hw" / "key" / "assignment.json"),
                 "--out", str(root / "grades.csv"), "--report", str(root / "report.html")]) == 0
    assert not (root / "PWNED").exists() and not Path("PWNED").exists()  # nothing was run
    statuses = Counter(p[1] for (s, _e), p in planted.items() if int(s[3:]) not in PROBLEM_STUDENTS)
    assert set(statuses) == {"right", "wrong", "too coarse", "unreadable", "not answered"}, statuses
    return {"root": root, "ids": ids, "names": names, "planted": planted}


def csv_safe(text: str) -> str:
    if re.fullmatch(r"[+-]?(\d+(\.\d+)?|\.\d+)", text) and len(text) < 30:  # a plain number stays a number
        return text
    return "'" + text if text[:1] in "=+-@" and text else text


def test_every_gradebook_row_matches_what_was_planted(graded_class):
    with open(graded_class["root"] / "grades.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    ids, planted, names = graded_class["ids"], graded_class["planted"], graded_class["names"]
    assert [(r["student"], r["exercise"]) for r in rows] == [(s, e) for s in ids for e, _ in EXERCISES]
    points = dict(EXERCISES)
    for row in rows:
        n = int(row["student"][3:])
        assert row["name"] == csv_safe(names[row["student"]])
        assert row["max_points"] == str(points[row["exercise"]])
        if n in PROBLEM_STUDENTS:
            assert (row["status"], row["right"], row["points"], row["answer"]) == ("not graded", "no", "0", "")
            assert row["problem"]
            continue
        _source, status, slip, answer = planted[(row["student"], row["exercise"])]
        assert row["status"] == status, row
        assert row["slip"] == slip, row
        assert row["answer"] == csv_safe(answer), row
        assert row["right"] == ("yes" if status == "right" else "no")
        assert row["points"] == (str(points[row["exercise"]]) if status == "right" else "0")
        assert bool(row["diagnosis"]) == (status != "right" and status != "not answered")


def test_each_submission_problem_is_reported_for_its_student_and_nothing_else_is_graded(graded_class):
    with open(graded_class["root"] / "grades.csv", newline="", encoding="utf-8") as handle:
        problems = {r["student"]: r["problem"] for r in csv.DictReader(handle) if r["status"] == "not graded"}
    assert set(problems) == {f"stu{n:02}" for n in PROBLEM_STUDENTS}
    # student 8 handed in a copy of student 7's notebook, and student 7 handed in their own: never advise
    # renaming it onto stu07.ipynb (issue 23)
    assert "holds the notebook of student 'stu07', who handed in stu07.ipynb too: a copy" in problems["stu08"]
    assert "rename it back" not in problems["stu08"]
    assert "tampered with: its seed" in problems["stu09"]
    assert "is not a notebook (not JSON" in problems["stu10"]
    assert "has no ltr_teach metadata" in problems["stu11"]
    assert "over the 5,000,000-byte limit" in problems["stu12"]
    assert "stu13" not in problems
    assert problems["stu14"] == "no submission"
    # Student 13's later copy is graded, and the report says which and why
    with open(graded_class["root"] / "grades.csv", newline="", encoding="utf-8") as handle:
        assert {r["file"] for r in csv.DictReader(handle) if r["student"] == "stu13"} == {"late/stu13.ipynb"}
    report = (graded_class["root"] / "report.html").read_text(encoding="utf-8")
    assert ("the newest of 2 notebooks (it was saved last; not graded: stu13.ipynb)" in report)
    # Student 7's own notebook is graded once, as student 7's.
    with open(graded_class["root"] / "grades.csv", newline="", encoding="utf-8") as handle:
        seven = [r for r in csv.DictReader(handle) if r["student"] == "stu07"]
    assert all(r["file"] == "stu07.ipynb" for r in seven)


def test_the_report_counts_each_slip_as_planted(graded_class):
    report = (graded_class["root"] / "report.html").read_text(encoding="utf-8")
    planted = graded_class["planted"]
    for exercise_id, _ in EXERCISES:
        expected = Counter(p[2] for (s, e), p in planted.items()
                           if e == exercise_id and p[2] and int(s[3:]) not in PROBLEM_STUDENTS)
        table = re.search(rf"<table class='slips' data-exercise='{re.escape(exercise_id)}'>(.*?)</table>", report, re.DOTALL)
        shown = Counter()
        if table:
            for slip, count in re.findall(r"<tr data-slip='([^']*)'><td><code>[^<]*</code></td><td class='n'>(\d+)</td>",
                                          table.group(1)):
                shown[slip] = int(count)
        assert shown == expected, exercise_id
        right = sum(1 for (s, e), p in planted.items() if e == exercise_id and p[1] == "right"
                    and int(s[3:]) not in PROBLEM_STUDENTS)
        assert re.search(rf"<tr data-exercise='{re.escape(exercise_id)}'><td><code>[^<]*</code></td><td class='n'>\d+</td>"
                         rf"<td class='n'>{right}</td><td>{round(100 * right / N_STUDENTS)}%", report), exercise_id


def test_the_report_is_self_contained_and_escapes_every_student_text(graded_class):
    report = (graded_class["root"] / "report.html").read_text(encoding="utf-8")
    assert "<script" not in report and "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in report
    assert not re.search(r"""(src|href)\s*=\s*['"](?!data:)""", report)  # nothing fetched from elsewhere
    assert report.count("data:image/png;base64,") == 2
    assert "<h2>Who needs which hint</h2>" in report and "stu" in report
