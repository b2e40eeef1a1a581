"""The classroom: the tutorial copy, every link between notebooks, rosters and seeds, assignments.

Grading a whole class is in ``test_classroom_e2e.py``; the wheel in ``test_classroom_wheel.py``.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest
import sympy

import ltr_teach as lt
from ltr_teach import classroom
from ltr_teach.cli import main

REPO = Path(__file__).resolve().parents[1]
# every notebook of both editions, and each edition folder's language file
TUTORIAL = sorted(p.relative_to(REPO).as_posix() for folder in ("notebooks", "exercises")
                  for p in (REPO / folder).rglob("*")
                  if p.is_file() and (p.suffix == ".ipynb" or p.name == ".ltr-teach-language")
                  and ".ipynb_checkpoints" not in p.parts)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# -- links between notebooks -------------------------------------------------------------------------
MARKDOWN_LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML_LINK = re.compile(r"""href\s*=\s*["']([^"']+)["']""")


def _markdown(notebook: Path) -> list[str]:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]


def _anchors(notebook: Path) -> set[str]:
    """The heading anchors JupyterLab gives a notebook: the heading's text with spaces as '-'."""
    anchors = set()
    for text in _markdown(notebook):
        for line in text.splitlines():
            heading = re.match(r"#{1,6}\s+(.*)", line)
            if heading:
                plain = re.sub(r"[*`]", "", heading.group(1)).strip()
                anchors.add(plain.replace(" ", "-"))
        anchors |= set(re.findall(r"""<a\s+(?:id|name)\s*=\s*["']([^"']+)["']""", text))
    return anchors


def dead_links(root: Path) -> list[str]:
    """Every relative link (markdown or HTML href) of every notebook under ``root`` that leads nowhere."""
    dead = []
    for notebook in sorted(root.rglob("*.ipynb")):
        if ".ipynb_checkpoints" in notebook.parts:  # JupyterLab's own copies, not the tutorial
            continue
        for text in _markdown(notebook):
            for target in MARKDOWN_LINK.findall(text) + HTML_LINK.findall(text):
                if re.match(r"[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):
                    continue  # http:, https:, mailto: ... leave the tutorial
                path_part, _, anchor = target.partition("#")
                goal = (notebook.parent / path_part).resolve() if path_part else notebook
                where = f"{notebook.relative_to(root)} -> {target}"
                if not goal.exists():
                    dead.append(f"{where} (no such file)")
                elif goal.is_dir():  # JupyterLab answers a link to a folder with "is a directory, not a file"
                    dead.append(f"{where} (a folder: JupyterLab opens only links to files)")
                elif anchor and goal.suffix == ".ipynb" and anchor not in _anchors(goal):
                    dead.append(f"{where} (no heading {anchor!r})")
    return dead


def test_every_link_of_the_repository_notebooks_works():
    # make tutorial serves the repository's root, so these are the links a student follows there.
    links = sum(len(MARKDOWN_LINK.findall(t)) for folder in ("notebooks", "exercises")
                for p in (REPO / folder).rglob("*.ipynb") for t in _markdown(p))
    assert links > 40  # the start page alone links to the ten notebooks
    assert dead_links(REPO / "notebooks") + dead_links(REPO / "exercises") == []


def test_every_link_of_the_copied_tutorial_works(tmp_path):
    classroom.copy_tutorial(tmp_path)
    assert dead_links(tmp_path) == []


def test_a_dead_link_or_anchor_is_found(tmp_path):
    classroom.copy_tutorial(tmp_path)
    page = tmp_path / "notebooks" / "en" / "00_start_here.ipynb"
    notebook = json.loads(page.read_text(encoding="utf-8"))
    notebook["cells"].append({"cell_type": "markdown", "metadata": {}, "id": "x",
                              "source": [("[gone](../../exercises/en/99_missing.ipynb) "
                                          "<a href='01_precision_recall_f.ipynb#Nowhere'>x</a> [folder](../../exercises/)")]})
    page.write_text(json.dumps(notebook), encoding="utf-8")
    assert dead_links(tmp_path) == [
        "notebooks/en/00_start_here.ipynb -> ../../exercises/en/99_missing.ipynb (no such file)",
        "notebooks/en/00_start_here.ipynb -> ../../exercises/ (a folder: JupyterLab opens only links to files)",
        "notebooks/en/00_start_here.ipynb -> 01_precision_recall_f.ipynb#Nowhere (no heading 'Nowhere')",
    ]


# -- the tutorial copy ----------------------------------------------------------------------------------
def test_a_fresh_copy_holds_every_notebook_byte_for_byte_and_a_manifest(tmp_path):
    done = classroom.copy_tutorial(tmp_path / "course")
    assert sorted(done.copied) == TUTORIAL and done.kept == done.updated == []
    assert {"exercises/zh/.ltr-teach-language", "exercises/en/03_dcg_ndcg.ipynb"} <= set(TUTORIAL)
    for name in TUTORIAL:
        assert (tmp_path / "course" / name).read_bytes() == (REPO / name).read_bytes()
    manifest = json.loads((tmp_path / "course" / classroom.MANIFEST).read_text(encoding="utf-8"))["files"]
    assert manifest == {name: sha256(REPO / name) for name in TUTORIAL}


def test_a_second_copy_keeps_what_the_student_changed_and_says_so(tmp_path):
    classroom.copy_tutorial(tmp_path)
    changed = tmp_path / "exercises" / "zh" / "03_dcg_ndcg.ipynb"
    notebook = json.loads(changed.read_text(encoding="utf-8"))
    notebook["cells"].append({"cell_type": "markdown", "id": "mine", "metadata": {}, "source": ["my notes"]})
    changed.write_text(json.dumps(notebook), encoding="utf-8")
    mine = changed.read_bytes()
    (tmp_path / "notebooks" / "en" / "02_mrr.ipynb").unlink()  # deleted: the shipped one comes back
    done = classroom.copy_tutorial(tmp_path)
    assert done.kept == ["exercises/zh/03_dcg_ndcg.ipynb"] and done.copied == ["notebooks/en/02_mrr.ipynb"]
    assert len(done.unchanged) == len(TUTORIAL) - 2
    assert changed.read_bytes() == mine
    assert "kept exercises/zh/03_dcg_ndcg.ipynb: you changed it" in done.summary()


def test_a_file_an_older_copy_gave_is_updated_and_a_file_it_never_gave_is_kept(tmp_path):
    classroom.copy_tutorial(tmp_path)
    manifest_path = tmp_path / classroom.MANIFEST
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    # An older release gave this text; the student never touched it, so the new one replaces it.
    old = tmp_path / "notebooks" / "en" / "04_dcg_ndcg.ipynb"
    old.write_text("an older release's notebook", encoding="utf-8")
    manifest["files"]["notebooks/en/04_dcg_ndcg.ipynb"] = hashlib.sha256(b"an older release's notebook").hexdigest()
    # A file of the same name that no copy gave (the manifest forgot it): the student's, kept.
    stranger = tmp_path / "notebooks" / "en" / "05_ndcg_variants.ipynb"
    stranger.write_text("my own notes", encoding="utf-8")
    del manifest["files"]["notebooks/en/05_ndcg_variants.ipynb"]
    manifest_path.write_text(json.dumps(manifest), encoding="utf-8")
    done = classroom.copy_tutorial(tmp_path)
    assert done.updated == ["notebooks/en/04_dcg_ndcg.ipynb"] and done.kept == ["notebooks/en/05_ndcg_variants.ipynb"]
    assert old.read_bytes() == (REPO / "notebooks" / "en" / "04_dcg_ndcg.ipynb").read_bytes()
    assert stranger.read_text(encoding="utf-8") == "my own notes"


def test_a_broken_manifest_writes_only_missing_files(tmp_path):
    classroom.copy_tutorial(tmp_path)
    (tmp_path / classroom.MANIFEST).write_text("{not json", encoding="utf-8")
    page = tmp_path / "notebooks" / "en" / "00_start_here.ipynb"
    page.write_text("changed", encoding="utf-8")
    done = classroom.copy_tutorial(tmp_path)
    assert done.kept == ["notebooks/en/00_start_here.ipynb"] and page.read_text(encoding="utf-8") == "changed"


def test_the_start_page_is_the_edition_asked_for_else_the_page_offering_both(tmp_path):
    for page in ("notebooks/start_here.ipynb", "notebooks/zh/00_start_here.ipynb"):
        (tmp_path / page).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / page).write_text("{}", encoding="utf-8")
    assert classroom.start_page("zh", root=tmp_path) == "notebooks/zh/00_start_here.ipynb"
    assert classroom.start_page(None, root=tmp_path) == "notebooks/start_here.ipynb"
    assert classroom.start_page("en", root=tmp_path) == "notebooks/start_here.ipynb"  # no English edition here
    with pytest.raises(ValueError, match="lang = 'fr' is not a tutorial language; choose one of en, zh"):
        classroom.start_page("fr", root=tmp_path)


def test_tutorial_command_copy_only(tmp_path, capsys):
    assert main(["tutorial", str(tmp_path / "t"), "--copy-only", "--lang", "zh"]) == 0
    out = capsys.readouterr().out
    assert f"{len(TUTORIAL)} copied" in out
    assert main(["tutorial", str(tmp_path / "t"), "--copy-only"]) == 0
    assert f"{len(TUTORIAL)} already up to date, 0 kept" in capsys.readouterr().out
    (tmp_path / "file").write_text("x", encoding="utf-8")
    assert main(["tutorial", str(tmp_path / "file"), "--copy-only"]) == 2
    assert capsys.readouterr().err.startswith("ltr-teach: error: folder = ")


def test_tutorial_command_starts_jupyterlab_on_the_start_page(tmp_path, monkeypatch, capsys):
    from ltr_teach.classroom import tutorial

    started = []
    monkeypatch.setattr(tutorial, "run_until_interrupted", lambda command: started.append(command) or 0)
    assert main(["tutorial", str(tmp_path), "--port", "8891", "--no-browser"]) == 0
    command = started[0]
    assert command[1:3] == ["-m", "jupyterlab"] and "--port=8891" in command and "--no-browser" in command
    assert f"--ServerApp.root_dir={tmp_path}" in command
    page = classroom.start_page(None, root=tmp_path)
    assert f"--LabApp.default_url=/lab/tree/{page}" in command and (tmp_path / page).is_file()
    assert not any(part.startswith("--LabApp.user_settings_dir") for part in command)


def test_tutorial_command_in_chinese_opens_the_chinese_edition_with_jupyterlab_in_chinese(tmp_path, monkeypatch):
    from ltr_teach.classroom import tutorial

    started = []
    monkeypatch.setattr(tutorial, "run_until_interrupted", lambda command: started.append(command) or 0)
    assert main(["tutorial", str(tmp_path), "--lang", "zh", "--no-browser"]) == 0
    settings = [part.partition("=")[2] for part in started[0] if part.startswith("--LabApp.user_settings_dir=")]
    plugin = Path(settings[0]) / "@jupyterlab" / "translation-extension" / "plugin.jupyterlab-settings"
    assert json.loads(plugin.read_text(encoding="utf-8")) == {"locale": "zh_CN"}
    assert f"--LabApp.default_url=/lab/tree/{classroom.start_page('zh', root=tmp_path)}" in started[0]


# -- rosters and seeds -------------------------------------------------------------------------------------
def write_roster(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_seeds_come_from_the_seed_column_or_a_hash_of_course_and_id(tmp_path):
    roster = write_roster(tmp_path / "r.csv", "\ufeffID,Name,Seed\na1,李雷,17\nb2,韩梅梅,\n\n")
    students = classroom.read_roster(roster, course="IR-2026")
    # sha256("IR-2026/b2") taken modulo one million, computed here with hashlib
    expected = int(hashlib.sha256(b"IR-2026/b2").hexdigest(), 16) % 1_000_000
    assert students == [classroom.Student("a1", "李雷", 17), classroom.Student("b2", "韩梅梅", expected)]
    assert classroom.read_roster(roster, course="other")[1].seed != expected


@pytest.mark.parametrize("text, message", [
    ("name\nx\n", "has no id column"),
    ("id\n../evil\n", r"line 2: id = '\.\./evil' must be 1 to 64 letters"),
    ("id\na\na\n", "line 3: id = 'a' appears twice"),
    ("id,seed\na,-3\n", r"line 2: seed = '-3' must be a whole number from 0 to 999,999,999,999,999,999"),
    ("id\n", "lists no students"),
])
def test_a_bad_roster_names_the_line_and_what_is_allowed(tmp_path, text, message):
    with pytest.raises(ValueError, match=message):
        classroom.read_roster(write_roster(tmp_path / "r.csv", text))


def test_exercise_lists_take_ids_families_and_points():
    family = [e.id for e in lt.exercises.all() if e.family == "roc_auc"]
    assert classroom.parse_exercise_list("ndcg-lipstick:3, roc_auc") == [("ndcg-lipstick", 3)] + [(i, 1) for i in family]
    with pytest.raises(ValueError, match="did you mean ndcg-lipstick"):
        classroom.parse_exercise_list("ndcg-lipstik")
    with pytest.raises(ValueError, match="points 'x' for 'map-doc000' must be a whole number from 1 to 1000"):
        classroom.parse_exercise_list("map-doc000:x")


# -- assignments ------------------------------------------------------------------------------------------
def answer_forms(value) -> set[str]:
    """How an answer could be written: exact, and as decimals of 2 to 6 places (with and without 0)."""
    forms = {str(value)}
    if value.is_Rational:
        forms.add(f"{value.p}/{value.q}")
    number = float(sympy.N(value, 30))
    for places in range(2, 7):
        text = f"{number:.{places}f}"
        forms |= {text, text.rstrip("0").rstrip(".")}
        if text.startswith("0."):
            forms.add(text[1:])
    forms.add(repr(number))
    return {f for f in forms if len(f) >= 3}


def test_assign_writes_the_students_notebooks_and_the_key_apart(tmp_path, capsys):
    roster = write_roster(tmp_path / "roster.csv", "id,name\n" + "".join(f"s{n:02},Student {n}\n" for n in range(1, 7)))
    assert main(["assign", "--exercises", ",".join(lt.exercises.FAMILIES),
                 "--roster", str(roster), "--out", str(tmp_path / "hw"), "--course", "c1"]) == 0
    assert capsys.readouterr().out.startswith("6 notebook(s) in")
    students = sorted((tmp_path / "hw" / "students").iterdir())
    assert [p.name for p in students] == [f"s{n:02}.ipynb" for n in range(1, 7)]
    assert sorted(p.name for p in (tmp_path / "hw" / "key").iterdir()) == ["assignment.json", "key.csv", "key.md"]
    record = json.loads((tmp_path / "hw" / "key" / "assignment.json").read_text(encoding="utf-8"))
    assert [e["id"] for e in record["exercises"]] == lt.exercises.ids()
    leaks = []
    for path, entry in zip(students, record["students"]):
        assert entry["seed"] == int(hashlib.sha256(f"c1/{path.stem}".encode()).hexdigest(), 16) % 1_000_000
        notebook = json.loads(path.read_text(encoding="utf-8"))
        assert notebook["metadata"]["ltr_teach"] == {"assignment": record["assignment"], "student": path.stem,
                                                     "seed": entry["seed"]}
        tagged = [c["metadata"]["ltr_teach"] for c in notebook["cells"] if classroom.ANSWER_TAG in
                  c["metadata"].get("tags", [])]
        assert tagged == [{"exercise": i, "points": 1} for i in lt.exercises.ids()]
        # The prompts and a question's options state the data, and data may look like an answer (a score of
        # 0.5, beta = 1/2, a document's line "= 13/15"): take each prompt and each option out, then no form of
        # any answer may remain anywhere in the file.
        # Longest first, so that a short option ("NaN") never cuts a longer text before it is taken out.
        text = path.read_text(encoding="utf-8")
        stated = set()
        for exercise_id in lt.exercises.ids():
            variant = lt.exercises.variant(exercise_id, entry["seed"])
            stated |= {variant.prompt, *(variant.option_text(key) for key in getattr(variant, "options", ()))}
        for part in sorted(stated, key=len, reverse=True):
            text = text.replace(json.dumps(part, ensure_ascii=False)[1:-1], "<stated>")
        for exercise_id in lt.exercises.ids():
            variant = lt.exercises.variant(exercise_id, entry["seed"])
            if variant.kind == "compute":
                leaks += [(path.name, exercise_id, form) for form in answer_forms(variant.answer) if form in text]
                assert variant.call not in text
            elif variant.kind == "create":  # neither the example nor the explanation of a ranking to build
                leaks += [(path.name, exercise_id, s) for s in (variant.answer, variant.explanation) if s in text]
            elif variant.kind == "written":  # not the model answer the teacher marks against
                leaks += [(path.name, exercise_id, variant.model)] if variant.model in text else []
            else:  # the options are listed, none marked: no explanation, no diagnosis of a wrong option
                said = [variant.explanation] + [variant.why_text(key) for key in variant.why]
                leaks += [(path.name, exercise_id, s) for s in said if s in text]
    assert leaks == []
    key = (tmp_path / "hw" / "key" / "key.md").read_text(encoding="utf-8")
    first = lt.exercises.variant("map-doc000", record["students"][0]["seed"])
    assert f"| map-doc000 | 1 | {first.answer}" in key


def test_the_leak_test_would_see_an_answer(tmp_path):
    # The answer forms of 599/840 include the ones a careless notebook would show.
    assert {"599/840", "0.713", "0.7131", ".713095"} <= answer_forms(sympy.Rational(599, 840))


def test_answer_cells_are_read_without_running_them():
    read = classroom.answer_from_cell
    assert read('answer_2 = "  3/7 "') == "3/7"
    assert read("answer_2 = 3/7") == "3/7"
    assert read("answer_2 = -0.25") == "-0.25"
    assert read('x = 1\nanswer_2 = "0.5"  # my answer') == "0.5"
    assert read("answer_2 = (") == "answer_2 = ("
    assert read("print('hi')") == "print('hi')"


@pytest.mark.parametrize("text, safe", [("=1+1", "'=1+1"), ("+2", "+2"), ("-0.5", "-0.5"), ("@SUM(A1)", "'@SUM(A1)"),
                                        ("\t=x", "'\t=x"), ("0.5", "0.5"), (None, ""), ("+0.2937", "+0.2937"),
                                        ("+1+1", "'+1+1"), ("-2-3", "'-2-3"), ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
                                        ("-1e5", "'-1e5")])
def test_csv_cells_that_a_spreadsheet_would_run_are_quoted(text, safe):
    assert classroom._csv_safe(text) == safe


def test_assign_and_grade_report_bad_input_in_one_line(tmp_path, capsys):
    roster = write_roster(tmp_path / "roster.csv", "id\na\n")
    assert main(["assign", "--exercises", "nope", "--roster", str(roster), "--out", str(tmp_path / "o")]) == 2
    assert capsys.readouterr().err.startswith("ltr-teach: error: exercise_id = 'nope' is not an exercise")
    assert main(["grade", str(tmp_path), "--roster", str(roster), "--out", str(tmp_path / "g.csv")]) == 2
    assert capsys.readouterr().err.startswith("ltr-teach: error: grade needs the assignment record")
    for text, message in (("x,y", "cannot be read as an assignment record"),
                          ('{"format": "x"}', "is not an assignment record of `ltr-teach assign`"),
                          ('{"format": "ltr_teach-assignment-1", "exercises": [{"id": 3}]}', "is not an assignment record")):
        (tmp_path / "record.json").write_text(text, encoding="utf-8")
        assert main(["grade", str(tmp_path / "missing"), "--roster", str(roster), "--out", "g.csv",
                     "--assignment", str(tmp_path / "record.json")]) == 2
        assert message in capsys.readouterr().err


def test_grading_takes_seeds_from_the_record_and_reports_who_is_not_on_the_roster(tmp_path):
    # Assigned with explicit seeds 5, 6, 7; graded with a roster without the seed column.
    write_roster(tmp_path / "seeded.csv", "id,seed\na,5\nb,6\nc,7\n")
    done = classroom.assign("p-at-5", tmp_path / "seeded.csv", tmp_path / "hw")
    for student, seed in (("a", 5), ("c", 7)):
        path = done.students[student]
        notebook = json.loads(path.read_text(encoding="utf-8"))
        answer = lt.exercises.variant("p-at-5", seed).answer  # the student's own P@5, a fraction
        for cell in notebook["cells"]:
            if classroom.ANSWER_TAG in cell["metadata"].get("tags", []):
                cell["source"] = [f'answer_1 = "{answer}"']
        path.write_text(json.dumps(notebook), encoding="utf-8")
    done.students["b"].unlink()  # b hands in nothing
    book = classroom.grade(tmp_path / "hw" / "students", write_roster(tmp_path / "plain.csv", "id\na\nb\n"))
    assert [(r.student, r.status, r.points) for r in book.rows] == [("a", "right", 1), ("b", "not graded", 0)]
    assert ("c", "c.ipynb: c is in the assignment record but not on the roster; not graded") in book.problems
    assert ("b", "no submission") in book.problems
    with pytest.raises(ValueError, match="student 'a' has seed 9 but the assignment record gave seed 5"):
        classroom.grade(tmp_path / "hw" / "students", write_roster(tmp_path / "other.csv", "id,seed\na,9\n"))
