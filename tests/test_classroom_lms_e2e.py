"""A class of 30 through an LMS (issue 23): a Canvas-style .zip, partial credit, overrides, feedback, LMS exports.

Thirty students with Chinese names (two share one), hostile names (a spreadsheet formula, HTML with script)
are assigned in English and in Chinese with the CLI; the answers are planted by this test (right, too coarse,
a named slip, a wrong option, unanswered, typed with an input method's quotes or an option's Chinese label);
the notebooks go into a zip named as Canvas names its downloads, with a late resubmission, a copy, a
renamed "Copy1", a path that climbs out, and a zip bomb. ``ltr-teach grade`` reads the zip, applies the
partial-credit rule and an overrides file, writes the gradebook, a Canvas and a Moodle CSV, and one feedback
page per student, which Chromium opens with JavaScript off. Every expected point is computed here from what
was planted, in fractions.
"""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys
import zipfile
from fractions import Fraction
from pathlib import Path

import pytest
import sympy

import ltr_teach as lt
from ltr_teach.cli import main
from ltr_teach.core.i18n import translate, using_language
from ltr_teach.teaching.checker import mistakes

EXERCISES = [("ndcg-lipstick", 4), ("p-at-5", 2), ("dcg-append-item", 1)]
PARTIAL = {"too coarse": Fraction(1, 2), "slip": Fraction(1, 4)}
COURSE = "IR-2026-lms"
IDS = [f"2026{n:03}" for n in range(1, 31)]
NAMES = {i: f"学生{n}" for n, i in enumerate(IDS, start=1)}
NAMES[IDS[1]] = NAMES[IDS[2]] = "王伟"  # two students share a name
NAMES[IDS[3]] = "=cmd|' /C calc'!A1"
NAMES[IDS[4]] = "<script>alert('x')</script>李雷"
MISSING, TWICE, COPIED, COPY1, LATE = 13, 14, 15, 7, 11  # student numbers
OVERRIDES = [(IDS[1], "p-at-5", "2", "regraded: the question had a typo"), (IDS[19], "dcg-append-item", "1", "")]


def seed_of(student_id: str) -> int:
    import hashlib

    return int(hashlib.sha256(f"{COURSE}/{student_id}".encode()).hexdigest(), 16) % 1_000_000


def coarse(value) -> str | None:
    text = f"{float(sympy.N(value, 30)):.1g}"
    if "." not in text or "e" in text or sympy.Rational(text) == value:
        return None
    return text


def slip_of(variant):
    """A slip's value that neither the right value nor another slip gives (so the slip is named)."""
    found = mistakes(variant.explanation(), variant.context)
    values = [float(sympy.N(m.value, 30)) for m in found]
    right = float(sympy.N(variant.answer, 30))
    for n, m in enumerate(found):
        if abs(values[n] - right) > 1e-6 and all(abs(values[n] - v) > 1e-6 for j, v in enumerate(values) if j != n):
            return m.key, m.value
    return None


def decimal(value) -> str:
    """Nine decimals, rounded from a 40-digit value (sympy's N(v, 12) may leave its last digit off by one)."""
    return f"{float(sympy.N(value, 40)):.9f}"


def plant(n: int, student: str):
    """Cell sources and expected (status, points) per exercise for student number n."""
    seed = seed_of(student)
    ndcg = lt.exercises.variant("ndcg-lipstick", seed)
    p5 = lt.exercises.variant("p-at-5", seed)
    ndcg_text = decimal(ndcg.answer)
    p5_text = f"{p5.answer.p}/{p5.answer.q}" if p5.answer.is_Rational else str(p5.answer)
    cells, expected = {}, {}
    case = n % 5
    if case == 1 and coarse(ndcg.answer):
        cells["ndcg-lipstick"], expected["ndcg-lipstick"] = f'answer_1 = "{coarse(ndcg.answer)}"', ("too coarse", Fraction(4) * PARTIAL["too coarse"])
    elif case == 2 and slip_of(ndcg):
        _key, value = slip_of(ndcg)
        cells["ndcg-lipstick"], expected["ndcg-lipstick"] = f'answer_1 = "{decimal(value)}"', ("wrong", Fraction(4) * PARTIAL["slip"])
    elif case == 3:
        cells["ndcg-lipstick"], expected["ndcg-lipstick"] = f"answer_1 = “{ndcg_text}”", ("right", Fraction(4))
    else:
        cells["ndcg-lipstick"], expected["ndcg-lipstick"] = f'answer_1 = "{ndcg_text}"', ("right", Fraction(4))
    if case == 2:
        cells["p-at-5"], expected["p-at-5"] = 'answer_2 = ""', ("not answered", Fraction(0))
    else:
        cells["p-at-5"], expected["p-at-5"] = f'answer_2 = "{p5_text}"', ("right", Fraction(2))
    # appending an item adds gain/discount >= 0: DCG rises ("rise"); "fall" is a wrong option (no partial credit)
    if case == 4:
        cells["dcg-append-item"], expected["dcg-append-item"] = 'answer_3 = "fall"', ("wrong", Fraction(0))
    elif case == 3:
        cells["dcg-append-item"], expected["dcg-append-item"] = 'answer_3 = "上升"', ("right", Fraction(1))
    else:
        cells["dcg-append-item"], expected["dcg-append-item"] = 'answer_3 = ＂ｒｉｓｅ＂', ("right", Fraction(1))
    return cells, expected, p5_text


def canvas_name(n: int, student: str, original: str, late: bool = False) -> str:
    """Canvas names a downloaded submission lastnamefirstname[_LATE]_userid_submissionid_originalname."""
    return f"student{n}{'_LATE' if late else ''}_{10000 + n}_{50000 + n}_{original}"


@pytest.fixture(scope="module", params=["en", "zh"])
def lms_class(request, tmp_path_factory):
    lang = request.param
    root = tmp_path_factory.mktemp(f"lms_{lang}")
    roster = root / "roster.csv"
    with open(roster, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([["id", "name"]] + [[i, NAMES[i]] for i in IDS])
    exercise_list = ",".join(f"{i}:{p}" for i, p in EXERCISES)
    assert main(["assign", "--exercises", exercise_list, "--roster", str(roster), "--out", str(root / "hw"),
                 "--course", COURSE, "--lang", lang, "--partial", "too coarse=1/2,slip=1/4"]) == 0
    expected, p5_texts, members = {}, {}, {}
    for n, student in enumerate(IDS, start=1):
        path = root / "hw" / "students" / f"{student}.ipynb"
        notebook = json.loads(path.read_text(encoding="utf-8"))
        cells, wanted, p5_texts[student] = plant(n, student)
        for cell in notebook["cells"]:
            exercise_id = cell["metadata"].get("ltr_teach", {}).get("exercise")
            if exercise_id:
                cell["source"] = [cells[exercise_id]]
        data = json.dumps(notebook, ensure_ascii=False).encode("utf-8")
        expected[student] = wanted
        if n == MISSING:
            continue
        if n == COPIED:  # hands in student 16's notebook under their own id
            continue
        original = f"{student}-Copy1.ipynb" if n == COPY1 else f"{student}.ipynb"
        members[canvas_name(n, student, original, late=n == LATE)] = data
        if n == TWICE:
            members[canvas_name(n, student, f"{student}-1.ipynb")] = data
    members[canvas_name(COPIED, IDS[COPIED - 1], f"{IDS[COPIED - 1]}.ipynb")] = members[
        canvas_name(COPIED + 1, IDS[COPIED], f"{IDS[COPIED]}.ipynb")]
    zip_path = root / "submissions.zip"
    with zipfile.ZipFile(zip_path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
        archive.writestr("../../escape_2026020.ipynb", members[canvas_name(20, IDS[19], f"{IDS[19]}.ipynb")])
        archive.writestr("bomb_2026021.ipynb", b"0" * 60_000_000)  # 60 MB of zeros, a few kB compressed
        archive.writestr("__MACOSX/._x.ipynb", b"junk")
        archive.writestr(canvas_name(MISSING, IDS[MISSING - 1], "homework.pdf"), b"%PDF-1.4")  # not a notebook
    assert zip_path.stat().st_size < 1_000_000
    overrides = root / "overrides.csv"
    with open(overrides, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([["student", "exercise", "points", "note"], *OVERRIDES])
    out = root / "grades.csv"
    assert main(["grade", str(zip_path), "--roster", str(roster), "--assignment", str(root / "hw" / "key" / "assignment.json"),
                 "--out", str(out), "--report", str(root / "report.html"), "--overrides", str(overrides),
                 "--feedback", str(root / "feedback"), "--export", "canvas", "--export", "moodle", "--bom"]) == 0
    # who is not graded, and why
    # 2026020 and 2026021 handed in their own notebook too: the escaping and the bomb files are listed, they are graded
    # (student 14's two files: Canvas numbered the second upload of the same name "-1": that one is graded, issue 31)
    not_graded = {IDS[MISSING - 1], IDS[COPIED - 1]}
    for student in not_graded:
        expected[student] = {e: ("not graded", Fraction(0)) for e, _ in EXERCISES}
    for student, exercise_id, points, _note in OVERRIDES:
        expected[student][exercise_id] = (expected[student][exercise_id][0], Fraction(points))
    return {"root": root, "lang": lang, "expected": expected, "p5": p5_texts, "out": out, "not_graded": not_graded}


def read_csv(path: Path) -> list[dict]:
    raw = path.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # --bom: Excel reads the Chinese names right
    with open(path, newline="", encoding="utf-8-sig") as handle:
        return list(csv.DictReader(handle))


def test_every_row_gets_the_planted_points_with_partial_credit_and_overrides(lms_class):
    rows = read_csv(lms_class["out"])
    assert [(r["student"], r["exercise"]) for r in rows] == [(s, e) for s in IDS for e, _ in EXERCISES]
    overridden = {(s, e): note or "override" for s, e, _p, note in OVERRIDES}
    for row in rows:
        status, points = lms_class["expected"][row["student"]][row["exercise"]]
        assert row["status"] == status, row
        assert Fraction(row["points"]) == points, row
        assert row["override"] == overridden.get((row["student"], row["exercise"]), ""), row


def test_the_zips_problems_are_listed_and_nothing_was_extracted(lms_class):
    root = lms_class["root"]
    report = (root / "report.html").read_text(encoding="utf-8")
    assert "escape_2026020.ipynb has an unsafe path in the zip" in report
    assert "bomb_2026021.ipynb is over the 5,000,000-byte limit" in report or "unpacks to over" in report
    assert ("the newest of 2 notebooks (the LMS numbered it as the later upload of the same file; not graded: "
            f"submissions.zip:{canvas_name(TWICE, IDS[TWICE - 1], IDS[TWICE - 1] + '.ipynb')})") in report
    assert "a copy; not graded" in report
    # student 13 handed in a PDF: said under their id, instead of "no submission"
    assert "student13_10013_50013_homework.pdf is not a notebook (.ipynb): not read" in report
    assert not (root.parent / "escape_2026020.ipynb").exists() and not list(root.rglob("escape*"))
    rows = {(r["student"], r["exercise"]): r for r in read_csv(lms_class["out"])}
    assert rows[(IDS[COPY1 - 1], "p-at-5")]["status"] == "not answered"  # 2026007-Copy1.ipynb is 2026007's (graded)
    assert rows[(IDS[LATE - 1], "p-at-5")]["status"] == "right"  # the _LATE_ name of Canvas
    assert "Partial credit, as the assignment states: too coarse: 1/2 of the points, slip: 1/4" in report
    assert "王伟" in report and "&lt;script&gt;" in report and "<script>alert" not in report


def test_the_canvas_and_moodle_files_hold_each_students_total(lms_class):
    totals = {s: sum(p for _st, p in lms_class["expected"][s].values()) for s in IDS}
    # issue 31: a student with no graded notebook is left empty (no grade), not 0; an override is a grade
    empty = lms_class["not_graded"] - {s for s, _e, _p, _n in OVERRIDES}
    canvas = read_csv(lms_class["out"].with_name("grades.canvas.csv"))
    title = "排序评价练习" if lms_class["lang"] == "zh" else "Ranking evaluation exercises"  # the default title
    assert list(canvas[0]) == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", title]
    assert canvas[0]["Student"].strip() == "Points Possible" and canvas[0][title] == "7"
    assert [r["SIS User ID"] for r in canvas[1:]] == IDS
    for n, row in enumerate(canvas[1:], start=1):
        student = row["SIS User ID"]
        assert row[title] == ("" if student in empty else row[title]), row
        if student not in empty:
            assert Fraction(row[title]) == totals[student], row
        # the Canvas user id each graded student's file names carry (canvas_name: 10000 + n)
        assert row["ID"] == ("" if student in lms_class["not_graded"] else str(10000 + n)), row
    assert canvas[4]["Student"] == "'=cmd|' /C calc'!A1"  # a formula is quoted
    moodle = read_csv(lms_class["out"].with_name("grades.moodle.csv"))
    assert list(moodle[0]) == ["ID number", "Full name", title, f"{title} (feedback)"]
    assert [r["ID number"] for r in moodle] == IDS
    for row in moodle:
        if row["ID number"] in empty:
            assert row[title] == "", row
        else:
            assert Fraction(row[title]) == totals[row["ID number"]], row
    assert moodle[1]["Full name"] == "王伟" and "regraded" in moodle[1][f"{title} (feedback)"]


#: Opens feedback pages in Chromium with JavaScript off and prints what each shows, as JSON. A child process: the
#: browser tests' session keeps a Playwright running, and a second one in the same process is refused.
_READ_PAGES = """
import json, sys
from playwright.sync_api import sync_playwright
paths = json.loads(sys.argv[1])
out, requests, dialogs = [], [], []
with sync_playwright() as driver:
    browser = driver.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                     args=["--no-sandbox", "--disable-gpu"])
    page = browser.new_context(java_script_enabled=False).new_page()
    page.on("request", lambda request: requests.append(request.url))
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    for path in paths:
        page.goto(path)
        out.append({"body": page.inner_text("body"), "lang": page.get_attribute("html", "lang"),
                    "row": page.inner_text("tr[data-exercise='p-at-5']")})
    browser.close()
print(json.dumps({"pages": out, "requests": requests, "dialogs": dialogs}))
"""


def test_feedback_pages_open_in_chromium_without_script_and_hold_only_their_student(lms_class):
    folder = lms_class["root"] / "feedback"
    pages = sorted(folder.glob("*.html"))
    assert [p.stem for p in pages] == sorted(IDS)
    for path in pages:
        text = path.read_text(encoding="utf-8")
        assert "<script" not in text.lower()  # the hostile name is escaped, and no page has a script
        for other in IDS:
            if other != path.stem:
                assert other not in text, (path.stem, other)
    students = (IDS[0], IDS[1], IDS[4], IDS[MISSING - 1], IDS[17])
    uris = [(folder / f"{student}.html").as_uri() for student in students]
    done = subprocess.run([sys.executable, "-c", _READ_PAGES, json.dumps(uris)], capture_output=True, text=True,
                          encoding="utf-8", check=False, timeout=300)
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout)
    for student, page in zip(students, shown["pages"]):
        body = page["body"]
        assert student in body and NAMES[student] in body
        if lms_class["lang"] == "zh":
            assert "反馈" in body and page["lang"] == "zh-CN"
        else:
            assert "Feedback" in body and page["lang"] == "en"
        status, _points = lms_class["expected"][student]["p-at-5"]
        if status in ("not answered", "not graded"):  # never the key of an unanswered question
            assert lms_class["p5"][student] not in page["row"]
        if status != "right":  # the first step of the hint ladder, in the assignment's language
            with using_language(lms_class["lang"]):
                concept = translate(lt.exercises.get("p-at-5").hints[0])
            assert concept in page["row"] and (("精确率" in concept) == (lms_class["lang"] == "zh"))
    # student 18 (case 3): typed with the input method's quotes, graded right; the page says so
    assert ("正确" if lms_class["lang"] == "zh" else "right") in shown["pages"][-1]["body"]
    assert shown["requests"] == uris
    assert shown["dialogs"] == []
    # the page of a student whose submission was a copy names no other student's file
    copied = (folder / f"{IDS[COPIED - 1]}.html").read_text(encoding="utf-8")
    assert IDS[COPIED] not in copied and re.search(r"\.ipynb", copied) is None
