"""The class report of ``ltr-teach grade`` in Chromium: it renders offline, plots load, student text stays text.

A small class is assigned and graded through ``lt.classroom``; two students answer with hostile
HTML/JavaScript. The page must show its tables and both plots, fetch nothing but itself, open no
dialog and run no script. A full-page screenshot is saved (its path is printed) to look at.
"""

from __future__ import annotations

import json

import pytest

import ltr_teach as lt
from conftest import SAVED_SCREENSHOTS, require_browser
from ltr_teach.teaching.checker import mistakes

HOSTILE = ["<img src=x onerror=alert(1)>", "<script>alert(2)</script>"]


@pytest.fixture
def report(tmp_path):
    require_browser()
    roster = tmp_path / "roster.csv"
    roster.write_text("id,name\n" + "".join(f"s{n},学生{n}\n" for n in range(1, 7)), encoding="utf-8")
    chosen = ["ndcg-lipstick", "map-doc000", "auc-tie"]
    done = lt.classroom.assign(",".join(chosen), roster, tmp_path / "hw", course="browser")
    record = json.loads(done.record.read_text(encoding="utf-8"))
    for n, student in enumerate(record["students"]):
        path = tmp_path / "hw" / student["file"]
        notebook = json.loads(path.read_text(encoding="utf-8"))
        for cell in notebook["cells"]:
            exercise_id = cell["metadata"].get("ltr_teach", {}).get("exercise")
            if exercise_id is None:
                continue
            variant = lt.exercises.variant(exercise_id, student["seed"])
            if n < 2:
                answer = HOSTILE[n]
            elif n < 4:
                answer = str(mistakes(variant.explanation(), variant.context)[0].value.evalf(12))
            else:
                answer = str(variant.answer.evalf(12))
            cell["source"] = [f"answer = {json.dumps(answer)}"]
        path.write_text(json.dumps(notebook), encoding="utf-8")
    book = lt.classroom.grade(tmp_path / "hw" / "students", roster)
    path = tmp_path / "report.html"
    book.write_report(path)
    return path, book


def test_the_report_renders_offline_in_chromium(report, chromium, screenshot_dir, capsys):
    path, book = report
    context = chromium.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    dialogs, requests = [], []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.on("request", lambda request: requests.append(request.url))
    try:
        page.goto(path.as_uri())
        page.wait_for_load_state("load")
        assert page.title() == f"Class report: {book.assignment}"
        widths = page.eval_on_selector_all("img", "images => images.map(i => i.complete && i.naturalWidth)")
        assert len(widths) == 2 and all(w > 300 for w in widths)
        rows = page.locator("#summary tr[data-exercise]")
        assert rows.count() == 3
        # 2 of the 6 students answered right (students 5 and 6): 33% on each exercise.
        for n in range(3):
            assert rows.nth(n).locator("td").nth(2).inner_text() == "2"
            assert rows.nth(n).locator("td").nth(3).inner_text().startswith("33%")
        hints = page.locator("#hints").inner_text()
        assert HOSTILE[0] in hints and HOSTILE[1] in hints  # shown as text ...
        assert page.locator("#hints img, #hints script").count() == 0  # ... never as markup
        assert dialogs == []
        assert all(url.startswith(("file://", "data:")) for url in requests), requests
        shot = screenshot_dir / "class-report.png"
        page.screenshot(path=str(shot), full_page=True)
        SAVED_SCREENSHOTS.append(shot)
        with capsys.disabled():
            print(f"\nclass report: {shot}")
    finally:
        context.close()
