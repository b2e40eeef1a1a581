"""Exam versions of the sheets (``ltr-teach exercises sheet --exam``, ``teaching/exam.py``): one printed paper per
seed holding that seed's numbers, no hint, no answer and no checker; the key is the practice sheet's key for the same
seeds. Read back from the HTML with patterns of this test's own."""

import html
import re
import subprocess
import sys

import pytest

import ltr_teach as lt
from ltr_teach.core.i18n import using_language
from ltr_teach.teaching.exam import exam_html


def _papers(page):
    return page.split("<div class='student'>")[1:]


def test_one_paper_per_seed_with_that_seeds_numbers():
    ids = ["p-at-2-doc001", "dcg-movies", "dcg-a-or-b"]
    page = exam_html([3, 11], ids)
    papers = _papers(page)
    assert len(papers) == 2
    for seed, paper in zip([3, 11], papers):
        assert f"Seed {seed}:" in paper
        for exercise_id in ids:
            ex = lt.exercises.variant(exercise_id, seed)
            assert f"<code>{exercise_id}</code>" in paper
            # the ranking the student computes with is the seed's own (the key's library call uses the same list)
            ranking = re.search(r"\[[\d, ]+\]", ex.prompt)
            if ranking:
                assert ranking.group(0) in paper
    # two seeds, two different rankings for the randomised DCG exercise
    assert lt.exercises.variant("dcg-movies", 3).prompt != lt.exercises.variant("dcg-movies", 11).prompt


def test_no_answer_no_hint_no_checker():
    ids = ["dcg-movies", "p-at-2-doc001"]
    page = exam_html([5], ids)
    _, key = lt.exercises.sheet([5], ids)
    for exercise_id in ids:
        ex = lt.exercises.variant(exercise_id, 5)
        answer = lt.exercises.answer_text(ex)
        if len(answer) > 3:  # a one-digit answer such as "0" appears in any page
            assert html.escape(answer) not in page and answer not in page
        for hint in ex.hints:
            assert html.escape(hint) not in page
        assert answer in key  # the key, kept apart, has it
    assert "ltr-teach check" not in page and "lt.check" not in page
    assert "<script" not in page and "http" not in page.replace("http-equiv", "")  # self-contained, nothing fetched


def test_print_css_one_student_per_page_and_questions_unsplit():
    page = exam_html([1, 2], ["cg-movies"])
    assert re.search(r"\.student \{[^}]*break-after: page", page)
    assert re.search(r"\.q \{[^}]*break-inside: avoid", page)


def test_family_keys_expand_and_choice_needs_no_box():
    page = exam_html([1], ["err"])
    family = [e.id for e in lt.exercises.all() if e.family == "err"]
    assert [m for m in re.findall(r"<code>([a-z0-9-]+)</code></span></h2>", page)] == family
    choice_page = exam_html([1], ["dcg-a-or-b"])
    assert "class='answer" not in choice_page and "class='options'" in choice_page
    written = next(e for e in lt.exercises.all() if e.kind in ("written", "derive"))
    assert "class='answer long'" in exam_html([1], [written.id])


def test_formulas_print_as_plain_text_and_titles_are_escaped():
    page = exam_html([1], ["dcg-a-or-b"], title="<script>alert(1)</script> midterm")
    assert "$" not in page.split("<body>", 1)[1] and "\\log_2" not in page and "log2(i+1)" in page
    assert "<script>" not in page and "&lt;script&gt;" in page


def test_chinese_paper():
    with using_language("zh"):
        page = exam_html([1], ["cg-movies"])
    assert "lang='zh-CN'" in page and "种子 1" in page and "姓名" in page


@pytest.mark.parametrize("seeds", [[], iter([])])
def test_no_seed_is_refused(seeds):
    with pytest.raises(ValueError, match="seeds must hold at least one seed"):
        exam_html(seeds, ["cg-movies"])


def test_unknown_id_is_refused():
    with pytest.raises(ValueError, match="no-such-exercise"):
        exam_html([1], ["no-such-exercise"])


def test_cli_writes_one_paper_per_seed_and_the_key(tmp_path):
    out = tmp_path / "exam-{seed}.html"
    done = subprocess.run([sys.executable, "-m", "ltr_teach.cli", "--lang", "en", "exercises", "sheet", "--exam",
                           "--seeds", "1-3", "--out", str(out), "--key", str(tmp_path / "key.md"), "err"],
                          capture_output=True, text=True, encoding="utf-8", timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    for seed in (1, 2, 3):
        paper = (tmp_path / f"exam-{seed}.html").read_text(encoding="utf-8")
        assert paper.startswith("<!DOCTYPE html>") and f"Seed {seed}:" in paper and len(_papers(paper)) == 1
    key = (tmp_path / "key.md").read_text(encoding="utf-8")
    family = [e.id for e in lt.exercises.all() if e.family == "err"]
    assert all(f"| {exercise_id} |" in key for exercise_id in family) and key.count("## Seed") == 3


def test_every_written_or_derivation_item_has_a_rubric_the_key_and_the_reveal_show():
    marked = [e for e in lt.exercises.all() if e.kind in ("written", "derive")]
    assert marked
    for ex in marked:
        assert len(ex.rubric) >= 2 and all(points >= 1 and text.strip() for points, text in ex.rubric)
        _, key = lt.exercises.sheet([1], [ex.id])
        first = ex.rubric[0][1]
        assert f"[{ex.rubric[0][0]}] {first}" in key
    written = next(e for e in marked if e.kind == "written")
    revealed = lt.check(written.id, "an answer", reveal=True).expected
    assert written.model in revealed and written.rubric[-1][1] in revealed
    with using_language("zh"):
        assert "评分标准" in lt.check(written.id, "答案", reveal=True).expected
