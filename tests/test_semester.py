"""The 14-week plan (``SEMESTER`` in ``ltr_teach/teaching/course_path.py``) is a plan a teacher can run: every
notebook taught after its prerequisites, two 45-minute lectures a week at most, every exercise sheet in exactly one
week after its notebooks, the capstone's milestones after the capstone starts, and both teacher guides showing the
plan as it is (read back from the guides' tables with patterns of this test's own)."""

import re
from pathlib import Path

import pytest

from ltr_teach.teaching import course_path as cp

ROOT = Path(__file__).resolve().parent.parent
GUIDES = {"en": ROOT / "docs" / "teacher_guide.md", "zh": ROOT / "docs" / "teacher_guide.zh.md"}
LECTURE_MINUTES = 2 * 45


def _taught_in():
    """notebook number -> the weeks it is lectured in."""
    weeks = {}
    for week in cp.SEMESTER:
        for number in week.lectures:
            weeks.setdefault(number, []).append(week.number)
    return weeks


def test_fourteen_weeks_in_order():
    assert [week.number for week in cp.SEMESTER] == list(range(1, 15))


def test_every_notebook_is_taught_after_its_prerequisites():
    taught = _taught_in()
    assert sorted(taught) == [nb.number for nb in cp.NOTEBOOKS]  # a semester covers every notebook
    order = [n for week in cp.SEMESTER for n in week.lectures]
    for nb in cp.NOTEBOOKS:
        first = order.index(nb.number)
        for before in nb.prerequisites:
            # done by the end of an earlier lecture: a notebook split over two weeks counts when its second half ends
            last_of_prerequisite = len(order) - 1 - order[::-1].index(before)
            assert last_of_prerequisite < first, f"{nb.number:02d} is taught before its prerequisite {before:02d}"


def test_a_week_holds_two_lectures_at_most():
    taught = _taught_in()
    for week in cp.SEMESTER:
        minutes = sum(cp.notebook(n).minutes / len(taught[n]) for n in week.lectures)
        assert minutes <= LECTURE_MINUTES, f"week {week.number}: {minutes} minutes of lectures"
    # the notebook taught over two weeks is the one that overran a lecture (11: bootstrap, three tests, Holm)
    split = {n for n, weeks in taught.items() if len(weeks) > 1}
    assert split == {11} and cp.notebook(11).minutes > 45
    assert all(week.part is not None and week.lectures[0] == 11 for week in cp.SEMESTER if 11 in week.lectures)


def test_every_sheet_lands_in_one_week_after_its_notebooks():
    taught = _taught_in()
    placed = {}
    for week in cp.SEMESTER:
        for sheet in cp.week_sheets(week):
            assert sheet.slug not in placed
            placed[sheet.slug] = week.number
            assert all(max(taught[n]) <= week.number for n in sheet.notebooks)
    assert sorted(placed) == sorted(s.slug for s in cp.SHEETS)


def test_core_path_holds_the_test_collections_and_the_capstone():
    core = {nb.number for nb in cp.NOTEBOOKS if nb.core}
    assert {14, 17} <= core
    for nb in cp.NOTEBOOKS:  # the core path is closed under prerequisites: nothing core needs an elective
        if nb.core:
            assert set(nb.prerequisites) <= core, nb.number
    for sheet in cp.SHEETS:  # a sheet's prerequisites are notebooks of the path, none of them later than it
        assert all(n in {nb.number for nb in cp.NOTEBOOKS} for n in sheet.notebooks)
    dcg_sheet = cp.sheet("03_dcg_ndcg")
    assert dcg_sheet.notebooks == (4,)  # not the elective 05: a core-path class does sheet 03


def test_capstone_milestones_and_exams():
    capstone_week = min(_taught_in()[17])
    milestones = [week.number for week in cp.SEMESTER if week.milestone]
    assert len(milestones) == 3 and min(milestones) >= capstone_week
    exams = [week.number for week in cp.SEMESTER if week.exam]
    assert exams[-1] == 14 and len(exams) == 2


_ROW = re.compile(r"^\| (\d+) \| (.*?) \| (.*?) \| (.*?) \|$", re.MULTILINE)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_guides_show_the_plan(language):
    text = GUIDES[language].read_text(encoding="utf-8")
    region = text.split("<!-- semester -->", 1)[1].split("<!-- /semester -->", 1)[0]
    rows = _ROW.findall(region)
    assert [int(week) for week, *_ in rows] == list(range(1, 15))
    for (week, lectures, lab, extra), planned in zip(rows, cp.SEMESTER):
        assert [int(n) for n in re.findall(r"(?:^|<br>)(\d{2}) · ", lectures)] == list(planned.lectures)
        for sheet in cp.week_sheets(planned):
            assert f"{sheet.number:02d} · {sheet.title[language]}" in lab
        if planned.exam:
            assert planned.exam[language] in extra
