"""The exercise kinds beyond compute: choice (analyse, evaluate, spot, predict) and create; the hint ladder;
the bank modules; ``lt.ask``'s widget, whose state at creation never holds the answer."""

import dataclasses
import json
import re
import time

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

import ltr_teach as lt
from ltr_teach.teaching import bank, kinds
from ltr_teach.teaching.answers import RANKING_EXAMPLES, UnreadableAnswer, parse_answer, parse_rankings
from ltr_teach.teaching.kinds import choice, create

ALL = lt.exercises.all()
CHOICES = [e for e in ALL if e.kind in kinds.CHOICE_KINDS]
CREATES = [e for e in ALL if e.kind == "create"]
COMPUTES = [e for e in ALL if e.kind == "compute"]
DERIVES = [e for e in ALL if e.kind == "derive"]
WRITTENS = [e for e in ALL if e.kind == "written"]
STATUSES = {"right", "wrong", "too coarse", "unreadable", "not answered"}


def _demo_choice(**changes):
    """A small choice exercise built here, so the checks below do not depend on the bank's wording."""
    fields = {"family": "dcg_ndcg", "kind": "predict", "title": "Demo",
              "question": "A list gets one more item at rank {r}.", "facts": lambda: {"r": 4},
              "options": {"rise": "DCG rises", "fall": "DCG falls", "same": "DCG stays"}, "correct": "rise",
              "why": {"fall": "No term of DCG is negative.", "same": "The new term at rank {r} is above 0."},
              "explanation": "Rank {r} adds a term above 0.", "hints": ("concept", "procedure", "first step")}
    fields.update(changes)
    return choice("demo-choice", **fields)


def _sorted_best_first(grades):
    return None if list(grades) == sorted(grades, reverse=True) else "it is not sorted best first"


def _demo_create(**changes):
    fields = {"family": "dcg_ndcg", "title": "Demo", "question": "Type three grades, best first.", "shape": "ranking",
              "verify": lambda r: "it has not 3 grades" if len(r) != 3 else _sorted_best_first(r),
              "example": [2, 1, 0], "hints": ("concept", "procedure", "first step"),
              "explanation": "Sorted is ideal."}
    fields.update(changes)
    return create("demo-create", **fields)


# -- the bank ----------------------------------------------------------------------------------------------
def test_the_bank_modules_make_the_registry_in_course_order():
    families = [module.FAMILY[0] for module in bank.MODULES]
    assert families == ["precision_recall", "mrr_map", "dcg_ndcg", "err", "roc_auc", "comparing", "many_queries",
                        "user_models", "choosing", "collections", "learning_to_rank", "online", "capstone"]
    assert list(lt.exercises.FAMILIES) == families
    # all() is the modules' exercises one module after the other, each in its own order
    assert lt.exercises.ids() == [e.id for module in bank.MODULES for e in module.EXERCISES]
    for module in bank.MODULES:
        assert all(e.family == module.FAMILY[0] for e in module.EXERCISES), module.__name__
    assert {e.kind for e in ALL} <= set(kinds.KINDS)
    assert CHOICES and CREATES  # the checks below have registered exercises of each kind to look at
    assert {e.kind for e in ALL} == set(kinds.KINDS)  # every kind is in the bank


# -- choice --------------------------------------------------------------------------------------------------
def test_a_choice_is_read_by_key_any_case_by_text_or_by_letter():
    ex = _demo_choice()
    for answer in ("rise", "RISE", " Rise ", '"rise"', "DCG rises", "dcg RISES", "a", "A"):
        feedback = lt.check(ex, answer)
        assert feedback.correct and feedback.status == "right", answer
        assert feedback.explanation == "Rank 4 adds a term above 0."  # the facts fill the explanation
    for answer in ("b", "fall", "DCG falls"):
        feedback = lt.check(ex, answer)
        assert not feedback.correct and feedback.status == "wrong"
        assert feedback.diagnosis == "No term of DCG is negative."
        assert feedback.explanation is None and feedback.expected is None  # nothing revealed before asked
    assert lt.check(ex, "c").diagnosis == "The new term at rank 4 is above 0."  # filled from the facts


def test_letters_are_refused_when_a_key_is_itself_a_letter():
    # keys "a" and "b": the letter b would mean the second option by position and the option named b
    ex = _demo_choice(options={"b": "first", "a": "second"}, correct="a", why={"b": "no"})
    assert lt.check(ex, "a").correct and lt.check(ex, "A").correct
    assert lt.check(ex, "b").status == "wrong"
    ex = _demo_choice(options={"x": "first", "yes": "second"}, correct="yes", why={"x": "no"})
    assert lt.check(ex, "b").status == "unreadable"  # "x" is one letter: positions are not read at all


def test_a_choice_that_is_no_option_is_unreadable_and_names_the_options():
    ex = _demo_choice()
    for answer in ("d", "up", "rise fall", "x" * 500, 3, ["rise"]):
        feedback = lt.check(ex, answer)
        assert feedback.status == "unreadable" and not feedback.correct, answer
    assert "rise, fall, same" in lt.check(ex, "up").message
    assert lt.check(ex, None).status == "not answered" and lt.check(ex, " ").status == "not answered"


def test_reveal_shows_the_right_option_and_why():
    ex = _demo_choice()
    feedback = lt.check(ex, "fall", reveal=True)
    # the option as the student read it, not the key the code names it by (a key is English in both editions)
    assert feedback.expected == "“DCG rises”"
    assert feedback.explanation == "Rank 4 adds a term above 0."
    assert "expected: “DCG rises”" in str(feedback)


def test_choice_refuses_a_wrong_option_without_a_diagnosis_and_a_bad_kind():
    with pytest.raises(ValueError, match=r"why must diagnose exactly the wrong options \['fall', 'same'\]"):
        _demo_choice(why={"fall": "x"})
    with pytest.raises(ValueError, match="kind = 'guess'"):
        _demo_choice(kind="guess")
    with pytest.raises(ValueError, match="correct = 'up' is not an option"):
        _demo_choice(correct="up")
    with pytest.raises(ValueError, match="hints must be 3 messages"):
        _demo_choice(hints=("only one",))


@pytest.mark.parametrize("exercise", CHOICES, ids=[e.id for e in CHOICES])
def test_every_registered_choice_diagnoses_every_wrong_option(exercise):
    wrong = set(exercise.options) - {exercise.correct}
    assert set(exercise.why) == wrong and wrong
    for key in exercise.options:
        feedback = lt.check(exercise.id, key)
        assert feedback.correct == (key == exercise.correct)
        if key != exercise.correct:
            assert feedback.diagnosis and feedback.diagnosis.strip() == exercise.why_text(key).strip()
            assert "{" not in feedback.diagnosis  # every placeholder filled from the facts
    assert exercise.explanation.strip()
    assert "{" not in exercise.prompt and "{" not in exercise.explanation  # every placeholder filled


# -- create --------------------------------------------------------------------------------------------------
def test_a_created_ranking_is_parsed_then_verified():
    ex = _demo_create()
    assert lt.check(ex, "[3, 3, 1]").correct
    assert lt.check(ex, "2 1 0").correct and lt.check(ex, "［2，1，0］").correct and lt.check(ex, [5, 0, 0]).correct
    wrong = lt.check(ex, "[0, 1, 2]")
    assert wrong.status == "wrong" and wrong.diagnosis == "it is not sorted best first"
    assert wrong.answer == "[0, 1, 2]" and wrong.expected is None
    assert lt.check(ex, "[1, 0]").diagnosis == "it has not 3 grades"
    revealed = lt.check(ex, "[0, 1, 2]", reveal=True)
    assert revealed.expected == "for example [2, 1, 0]" and revealed.explanation == "Sorted is ideal."


def test_a_pair_is_two_lists():
    ex = _demo_create(shape="pair", example=[[1, 0], [0, 1]], question="Two rankings, A above B at rank 1.",
                      verify=lambda p: None if p[0][0] > p[1][0] else "A's rank 1 is not above B's")
    assert lt.check(ex, "[1,0] [0,1]").correct and lt.check(ex, "[[1, 0], [0, 1]]").correct
    assert lt.check(ex, "[1,0]; [0,1]").correct and lt.check(ex, [[1, 0], [0, 1]]).correct
    assert lt.check(ex, "[0,0] [0,1]").diagnosis == "A's rank 1 is not above B's"
    one = lt.check(ex, "[1, 0, 1]")
    assert one.status == "unreadable" and "two rankings" in one.message


@pytest.mark.parametrize("text, reason", [
    ("", "it is empty"),
    ("[3, 0.5]", "0.5 is not a whole grade"),
    ("[3, -1]", "-1 is not a grade from 0 to 100"),
    ("[3, 1000]", "1000 is not a grade from 0 to 100"),
    ("[3, 0", "a [ is never closed"),
    ("3, 0]", "a ] closes no [ at position 5"),
    ("[3] 0", "some grades are outside the brackets"),
    ("[3, x]", "unexpected 'x' at position 5"),
    ("__import__('os')", "unexpected '_' at position 1"),
    ("[[3], [0]]", "this exercise wants one ranking"),
    ("[" + ", ".join(["1"] * 31) + "]", "at most 30 items"),
    ("[" + "1," * 300 + "]", "characters long; an answer has at most 400"),
])
def test_unreadable_rankings_say_why(text, reason):
    with pytest.raises(UnreadableAnswer, match=re.escape(reason)):
        parse_rankings(text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=60) | st.text(alphabet="[](),;0123456789 -.x",
                                                                              max_size=60))
def test_junk_never_raises_and_is_answered_within_two_seconds(text):
    for exercise in (_demo_create(), CREATES[0], _demo_choice(), CHOICES[0]):
        start = time.perf_counter()
        feedback = lt.check(exercise, text)
        assert time.perf_counter() - start < 2
        assert feedback.status in STATUSES
        if feedback.status == "unreadable":
            assert feedback.message.startswith("could not read that answer: ")


def _obviously_wrong(exercise):
    """Answers that keep the shape but not the thought: all zeros, the example reversed, a one-item list."""
    example = kinds._thaw(exercise.example)
    if exercise.shape == "pair":
        return [[[0] * len(example[0]), [0] * len(example[1])], [example[1], example[0]], [[0], [0]]]
    return [[0] * len(example), example[::-1], [0]]


@pytest.mark.parametrize("exercise", CREATES, ids=[e.id for e in CREATES])
def test_every_registered_create_example_passes_and_an_obvious_wrong_answer_fails(exercise):
    assert exercise.verify(kinds._thaw(exercise.example)) is None
    assert lt.check(exercise.id, exercise.answer).correct  # the example, typed as text
    failing = [a for a in _obviously_wrong(exercise) if exercise.verify(a) is not None]
    assert failing, "no obviously wrong answer fails the verifier"
    assert not lt.check(exercise.id, kinds.example_text(failing[0], exercise.shape)).correct
    # the form shown in messages and placeholders is never itself an answer
    assert exercise.verify(parse_rankings(RANKING_EXAMPLES[exercise.shape], exercise.shape)) is not None


def test_create_refuses_an_example_its_verifier_rejects():
    with pytest.raises(ValueError, match=r"the example \[0, 1, 2\] fails its own verify: it is not sorted"):
        _demo_create(example=[0, 1, 2])


# -- hints ---------------------------------------------------------------------------------------------------
def _numbers_in_step(text):
    """The values of a "First step, at rank 1: grade = 3, gain = 7, ... ." sentence (the label "rank 1" left out)."""
    sentence = text.split(". ")[0]  # the pitfall sentence after it holds no value of this ranking
    cells = sentence.split(": ", 1)[1].rstrip(".").split(", ")
    values = []
    for cell in cells:
        token = cell.rsplit(" ", 1)[-1]
        try:
            values.append(parse_answer(token).value)
        except UnreadableAnswer:
            pass
    return values


@pytest.mark.parametrize("exercise", ALL, ids=[e.id for e in ALL])
def test_every_exercise_has_three_hints_none_giving_the_answer(exercise):
    hints = [lt.core.i18n.translate(h) for h in exercise.hints]
    assert len(hints) == 3 and all(h.strip() for h in hints)
    text = " ".join(hints)
    if exercise.kind == "compute":
        answer = exercise.answer
        forms = {lt.exercises.answer_text(exercise).split(" ")[0], f"{float(sympy.N(answer, 30)):.3f}"}
        for form in forms:
            # a one- or two-character answer ("1", "0") is any rank's number too, and a number the prompt
            # states (interp-precision-half's recall level 1/2 is also its answer) is data, not a giveaway
            if len(form) >= 3 and form not in exercise.prompt:
                assert not re.search(rf"(?<![\d.]){re.escape(form)}(?![\d/])", text), (form, text)
        # step 3 is computed by the library: its numbers never equal the answer
        if hints[2].startswith("First step, at "):
            assert all(sympy.simplify(v - answer) != 0 for v in _numbers_in_step(hints[2])), hints[2]
        assert hints[0] == kinds.CONCEPTS[exercise.metric]  # step 1: one concept per metric, not per exercise
    elif exercise.kind == "create":
        assert exercise.answer not in text
    elif exercise.kind == "written":
        # no sentence of the model answer, in either language, is in a hint
        for language in ("en", "zh"):
            with lt.core.i18n.using_language(language):
                hints_here = " ".join(lt.core.i18n.translate(h) for h in exercise.hints)
                for sentence in re.split(r"(?<=[.。])\s*", exercise.model):
                    assert len(sentence) < 12 or sentence not in hints_here, sentence
    else:
        right = exercise.option_text(exercise.correct).lower()
        assert right not in text.lower() and not re.search(rf"\b{exercise.correct}\b", text, re.IGNORECASE)


@pytest.mark.parametrize("exercise_id", [e.id for e in COMPUTES])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_variants_third_hint_never_shows_its_answer(exercise_id, seed):
    variant = lt.exercises.variant(exercise_id, seed)
    step = variant.hints[2]
    if step.startswith("First step, at "):
        assert all(sympy.simplify(v - variant.answer) != 0 for v in _numbers_in_step(step)), step


def test_every_metric_of_the_registry_has_one_concept():
    assert set(kinds.CONCEPTS) == set(lt.METRICS)


def test_every_metric_has_a_pitfall_and_the_third_hint_is_sentences():
    assert set(kinds.PITFALLS) == set(lt.METRICS)
    third = lt.core.i18n.translate(lt.exercises.get("p-at-5").hints[2])
    # the first row as a sentence ("precision at rank 1." alone was no hint), then the step students get wrong
    assert third == ("First step, at rank 1: relevant = 1, hits so far = 1, precision at rank = 1. Check: divide the "
                     "hits by k, even where the list is shorter than k, and not by the number of relevant documents.")
    with lt.core.i18n.using_language("zh"):
        third = lt.core.i18n.translate(lt.exercises.get("p-at-5").hints[2])
    assert third.startswith("第一步，位置 1：相关 = 1，") and "。" in third and ". " not in third


def test_the_hint_box_opens_one_step_at_a_time():
    box = lt.exercises.get("ndcg-lipstick").hint_box()
    html = box._repr_html_()
    # three nested boxes: step 2 is inside step 1, step 3 inside step 2
    assert html.count("<details class='ltr-teach-hint-step'>") == 3
    assert html.index("Hint 1 of 3") < html.index("Hint 2 of 3") < html.index("Hint 3 of 3")
    assert str(box).splitlines()[0].startswith("hint 1: NDCG divides")
    assert "Hint 3 of 3: the first number" in html  # a computation's third hint is its first number
    assert "Hint 3 of 3: a first step" in CREATES[0].hint_box()._repr_html_()  # a ranking to build has none


# -- the prompt as formatted text ----------------------------------------------------------------------------
def test_prompts_render_as_formatted_text():
    ex = lt.exercises.get("dcg-append-item")
    markdown = ex._repr_markdown_()
    assert markdown.startswith("**dcg-append-item** · One more item at the bottom")
    assert "- `rise`: DCG rises" in markdown and "- `depends`: It depends on the grades above it" in markdown
    html = ex._repr_html_()
    assert "<b>DCG</b>" in html and "<pre" not in html and "<li><code>fall</code>: DCG falls</li>" in html
    assert kinds.markdown_html("<script>x</script> **b**") == "<p>&lt;script&gt;x&lt;/script&gt; <b>b</b></p>"
    assert "<p>" in lt.exercises.get("ndcg-lipstick")._repr_html_()


# -- the widget ----------------------------------------------------------------------------------------------
def _descendants(widget):
    found, todo = [], [widget]
    while todo:
        w = todo.pop()
        found.append(w)
        todo.extend(getattr(w, "children", ()))
    return found


def _saved_text(box):
    """Everything a saved notebook could hold of the box: every widget's repr and its whole state."""
    parts = [repr(box)]
    for w in _descendants(box):
        parts.append(repr(w))
        parts.append(json.dumps(w.get_state(), default=repr, ensure_ascii=False))
    return re.sub(r"IPY_MODEL_[0-9a-f]+", "IPY_MODEL_", "\n".join(parts))  # model ids differ per widget


def test_a_choice_widget_starts_with_nothing_chosen_and_no_answer():
    ex = lt.exercises.get("dcg-append-item")
    box = lt.ask("dcg-append-item")
    assert box.input.value is None and box.input.index is None
    assert box.reveal_button.disabled
    # the saved state is the same whichever option is right: it cannot tell which one is
    other = next(k for k in ex.options if k != ex.correct)
    swapped = dataclasses.replace(ex, correct=other, why={k: "x" for k in ex.options if k != other})
    assert _saved_text(lt.ask(swapped)) == _saved_text(box)
    saved = _saved_text(box)
    assert ex.explanation not in saved and not any(ex.why_text(key) in saved for key in ex.why)


def test_a_compute_widget_holds_no_form_of_its_answer():
    for exercise_id in ("ndcg-lipstick", "map-doc000", "p-at-5", "auc-tie"):
        box = lt.ask(exercise_id)
        ex = lt.exercises.get(exercise_id)
        saved = _saved_text(box)
        forms = {str(ex.answer), ex.explanation().decimal_str, f"{float(ex.explanation()):.3f}"}
        assert not [f for f in forms if f in saved], exercise_id


def test_a_create_widget_holds_no_example():
    ex = CREATES[0]
    saved = _saved_text(lt.ask(ex.id))
    assert ex.answer not in saved and ex.explanation not in saved


def test_the_widget_checks_walks_the_hints_and_reveals_only_after_an_attempt():
    box = lt.ask("p-at-5")
    assert box.show_answer() is None and box.feedback.value == ""  # no attempt yet: nothing to show
    assert box.check().status == "not answered" and box.reveal_button.disabled
    hints = lt.exercises.get("p-at-5").hints
    for n in range(3):
        assert box.next_hint() == lt.core.i18n.translate(hints[n])
        assert box.hint_area.value.count("<li>") == n + 1
    assert box.hint_button.disabled and box.next_hint() == ""
    box.input.value = "2/5"  # P@5 of 1, 0, 1, 1, 0, 0, 1 is 3/5 (hits at ranks 1, 3, 4)
    assert box.check().status == "wrong" and not box.reveal_button.disabled
    revealed = box.show_answer()
    assert revealed.expected == "3/5 = 0.6" and "3/5" in box.feedback.value
    box.input.value = "0.6"
    assert box.check().correct


def test_a_choice_widget_checks_the_chosen_option():
    box = lt.ask("dcg-append-item")
    box.input.value = "fall"
    feedback = box.check()
    assert feedback.status == "wrong" and "ltr-teach-feedback" in box.feedback.value
    box.input.value = "rise"
    assert box.check().correct


def test_every_control_has_an_accessible_name():
    for exercise_id in ("p-at-5", "dcg-append-item", CREATES[0].id, DERIVES[0].id, WRITTENS[0].id):
        box = lt.ask(exercise_id)
        controls = [w for w in _descendants(box)
                    if w.__class__.__name__ in ("Button", "Text", "Textarea", "RadioButtons")]
        assert len(controls) == 4
        for control in controls:
            assert control.description.strip() and control.tooltip and control.tooltip.strip(), control


def test_exercise_widget_is_ask():
    box = lt.exercises.get("p-at-5").widget()
    assert type(box).__name__ == "AskBox" and repr(box) == "<question p-at-5: answer in the box, then Check>"
    assert box._repr_mimebundle_()["text/plain"] == box.static_text()


def test_ask_and_check_in_chinese():
    han = re.compile(r"[\u4e00-\u9fff]")
    with lt.core.i18n.using_language("zh"):
        box = lt.ask("dcg-append-item")
        feedback = lt.check("dcg-append-item", "fall")
        created = lt.check(CREATES[0].id, "[9, 9")
        hints = [lt.core.i18n.translate(h) for h in lt.exercises.get("ndcg-lipstick").hints]
    for text in (box.check_button.description, box.hint_button.description, box.reveal_button.description,
                 box.input.description, feedback.message, feedback.diagnosis, created.message, *hints):
        assert han.search(text), text


# -- prompts that quote a document's formula say whether it is wrong -------------------------------------------
#: Exercises whose intro quotes a document's formula or code, and the lt.examples record of it
#: (read from the errata by hand: err-doc003 quotes document 003's ERR formula, which is right).
QUOTED = {"f1-doc000": "000-f-beta-formula", "f2-doc003": "003-f-measure-formula",
          "ndcg-doc003-code": "003-code-ideal-unsorted", "dcg-lipstick-log2": "000-ndcg-log-base",
          "dcg-jarvelin-doc001": "001-dcg-jarvelin"}


@pytest.mark.parametrize("exercise_id", sorted(QUOTED))
def test_a_prompt_quoting_a_documents_formula_says_whether_it_is_wrong(exercise_id):
    exercise = lt.exercises.get(exercise_id)
    assert exercise.erratum == QUOTED[exercise_id]
    kind = lt.examples.by_id(QUOTED[exercise_id]).kind
    prompt = exercise.prompt
    assert QUOTED[exercise_id] in prompt
    assert ("is wrong here" in prompt) == (kind == "error")
    assert ("Not an error but a convention" in prompt) == (kind == "convention")
    with lt.core.i18n.using_language("zh"):
        assert QUOTED[exercise_id] in exercise.prompt and "is wrong" not in exercise.prompt


def test_only_those_exercises_name_an_erratum():
    assert {e.id: e.erratum for e in COMPUTES if e.erratum} == QUOTED


@pytest.mark.parametrize("exercise", ALL, ids=[e.id for e in ALL])
def test_the_text_form_a_saved_notebook_keeps_holds_no_answer(exercise):
    # Jupyter saves repr() as text/plain beside the formatted prompt; it names the exercise and nothing more
    text = repr(exercise)
    assert text.startswith(f"<exercise {exercise.id}") and len(text) < 120
    if exercise.kind in kinds.CHOICE_KINDS:
        assert repr(dataclasses.replace(exercise, correct=next(k for k in exercise.options if k != exercise.correct),
                                        why={k: "x" for k in exercise.options})) == text


# -- variants, sheets, the command line and the classroom ------------------------------------------------------
def test_a_choice_or_create_variant_is_the_exercise_as_written():
    for exercise in (CHOICES[0], CREATES[0]):
        assert lt.exercises.variant(exercise.id, 7) is exercise
        assert lt.check(exercise.id, exercise.answer, seed=7).correct


def test_a_variant_defined_by_the_exercise_is_used():
    def other_rank(rng):
        rank = rng.randint(5, 9)
        return {"facts": lambda: {"r": rank}}

    ex = _demo_choice(randomize=other_rank)
    registry = lt.exercises._REGISTRY
    registry[ex.id] = ex
    try:
        mine = lt.exercises.variant(ex.id, 3)
        assert mine.seed == 3 and mine.label == "demo-choice (seed 3)"
        rank = int(re.search(r"rank (\d)", mine.prompt).group(1))
        assert 5 <= rank <= 9 and mine.prompt == lt.exercises.variant(ex.id, 3).prompt  # same seed, same version
    finally:
        del registry[ex.id]


def test_the_sheet_lists_a_choices_options_and_the_key_its_answers():
    students, key = lt.exercises.sheet([4], ["dcg-append-item", "ndcg-perfect-with-a-zero", "p-at-5"])
    assert "   - `rise`: DCG rises" in students and "   - `depends`: It depends on the grades above it" in students
    assert "[3, 2, 2, 0]" not in students
    assert "| dcg-append-item | rise | DCG rises |" in key
    assert "| ndcg-perfect-with-a-zero | for example [3, 2, 2, 0] | checked by its verifier |" in key


def test_the_command_line_checks_every_kind(capsys):
    from ltr_teach.cli import main

    assert main(["check", "dcg-append-item", "fall"]) == 1
    assert "likely mistake: DCG only adds terms" in capsys.readouterr().out
    assert main(["check", "dcg-append-item", "RISE"]) == 0
    assert main(["check", "ndcg-perfect-with-a-zero", "[3,", "3,", "1,", "0]"]) == 0  # the shell splits it
    assert main(["check", "ndcg-perfect-with-a-zero", "[3, 3"]) == 2
    assert "a [ is never closed" in capsys.readouterr().err
    assert main(["exercises", "show", "dcg-append-item"]) == 0
    assert "  - same: DCG stays the same" in capsys.readouterr().out


def test_assign_and_grade_read_choice_and_create_answers_without_running_them(tmp_path):
    from ltr_teach import classroom

    roster = tmp_path / "roster.csv"
    roster.write_text("id,name\na,A\nb,B\nc,C\n", encoding="utf-8")
    classroom.assign("dcg-append-item,ndcg-perfect-with-a-zero", roster, tmp_path / "hw", course="k")
    answers = {"a": ('"rise"', '"[3, 3, 1, 0]"'), "b": ('"fall"', '"[0, 3, 3, 1]"'), "c": ("None", '""')}
    for student, (first, second) in answers.items():
        path = tmp_path / "hw" / "students" / f"{student}.ipynb"
        notebook = json.loads(path.read_text(encoding="utf-8"))
        cells = [c for c in notebook["cells"] if classroom.ANSWER_TAG in c["metadata"].get("tags", [])]
        assert "".join(cells[0]["source"]) == 'answer_1 = None  # one of "rise", "fall", "same", "depends"'
        cells[0]["source"] = [f"answer_1 = {first}  # my answer"]
        cells[1]["source"] = [f"answer_2 = {second}"]
        path.write_text(json.dumps(notebook), encoding="utf-8")
    book = classroom.grade(tmp_path / "hw" / "students", roster, tmp_path / "hw" / "key" / "assignment.json")
    got = {(r.student, r.exercise): (r.status, r.points) for r in book.rows}
    assert got == {("a", "dcg-append-item"): ("right", 1), ("a", "ndcg-perfect-with-a-zero"): ("right", 1),
                   ("b", "dcg-append-item"): ("wrong", 0), ("b", "ndcg-perfect-with-a-zero"): ("wrong", 0),
                   ("c", "dcg-append-item"): ("not answered", 0), ("c", "ndcg-perfect-with-a-zero"): ("not answered", 0)}
    wrong = next(r for r in book.rows if r.student == "b" and r.exercise == "dcg-append-item")
    assert wrong.slip == "fall" and wrong.diagnosis.startswith("DCG only adds terms")
    # 0, 3, 3, 1 is not sorted best first: NDCG@4 < 1, and the diagnosis says so
    assert "not 1" in next(r for r in book.rows if r.student == "b" and r.exercise != "dcg-append-item").diagnosis


# -- levels, the order of a sheet, derivations and written answers ---------------------------------------------
@pytest.mark.parametrize("exercise", ALL, ids=[e.id for e in ALL])
def test_every_exercise_has_a_difficulty_label_in_both_languages(exercise):
    assert exercise.level in (1, 2, 3)
    assert exercise.level_text == f"level {exercise.level} · {['basic', 'intermediate', 'challenge'][exercise.level - 1]}"
    with lt.core.i18n.using_language("zh"):
        assert exercise.level_text == f"难度 {exercise.level} · {['基础', '进阶', '挑战'][exercise.level - 1]}"
    assert exercise.level_text in exercise._repr_markdown_().splitlines()[0]


def test_a_variant_keeps_its_level_and_the_bank_sets_some_levels_by_hand():
    assert lt.exercises.get("bpref-unjudged").level == 2 != kinds.DEFAULT_LEVELS["compute"]
    assert lt.exercises.variant("bpref-unjudged", 5).level == 2
    assert lt.exercises.get("rr-same-ap-differs").level == 3 and lt.exercises.variant("rr-same-ap-differs", 5).level == 3
    assert {e.level for e in ALL} == {1, 2, 3}


def test_the_label_is_shown_in_the_sheet_the_widget_and_the_list(capsys):
    from ltr_teach.cli import main

    students, _key = lt.exercises.sheet([3], ["p-at-5", "ndcg-derive-at-most-one"])
    assert "1. **p-at-5** · Precision at k · level 1 · basic" in students
    assert "2. **ndcg-derive-at-most-one** · NDCG is at most 1 · level 3 · challenge" in students
    assert "level 3 · challenge" in lt.ask("ndcg-derive-at-most-one").children[0].value
    assert main(["exercises", "list", "--family", "dcg_ndcg"]) == 0
    listed = capsys.readouterr().out
    assert "ndcg-derive-at-most-one" in listed and "derive; level 3 · challenge)" in listed
    assert "cg-movies" in listed and "level 1 · basic)" in listed


def test_a_level_outside_1_to_3_is_refused():
    with pytest.raises(ValueError, match=r"level = 4 must be one of 1, 2, 3"):
        _demo_choice(level=4)
    with pytest.raises(ValueError, match=r"about = \['ndgc'\] are not metrics"):
        _demo_choice(about=("ndgc",))


#: The sheets whose order the issue counts (sheets 01 to 03).
ORDERED_FAMILIES = ("precision_recall", "mrr_map", "dcg_ndcg")


def _longest_run_of_computations(family):
    """Per metric: the most computations of it asked in a row, with no question about it in between; and the
    number asked before the first question about it."""
    runs, before_first, current, asked_about = {}, {}, {}, set()
    for exercise in (e for e in ALL if e.family == family):
        if exercise.kind == "compute":
            current[exercise.metric] = current.get(exercise.metric, 0) + 1
            runs[exercise.metric] = max(runs.get(exercise.metric, 0), current[exercise.metric])
            if exercise.metric not in asked_about:
                before_first[exercise.metric] = current[exercise.metric]
        else:
            for metric in exercise.about:
                current[metric] = 0
                asked_about.add(metric)
    return runs, before_first


@pytest.mark.parametrize("family", ORDERED_FAMILIES)
def test_at_most_two_computations_of_a_metric_before_a_question_about_it(family):
    runs, before_first = _longest_run_of_computations(family)
    assert runs and max(before_first.values()) <= 2, before_first
    assert max(runs.values()) <= 2, runs  # and never more than two in a row later on


def test_the_order_count_sees_a_third_computation(monkeypatch):
    # the counting itself: three NDCG computations in a row, before any question, are caught
    ndcg = [e for e in COMPUTES if e.metric == "ndcg"][:3]
    registry = lt.exercises._registry()  # the one registry all() reads (built lazily, once)
    planted = {e.id: e for e in registry.values() if e.family != "dcg_ndcg"}
    planted.update((e.id, dataclasses.replace(e)) for e in ndcg)
    monkeypatch.setattr(lt.exercises, "_REGISTRY", planted)
    global ALL
    ALL, kept = lt.exercises.all(), ALL
    try:
        runs, before_first = _longest_run_of_computations("dcg_ndcg")
        assert runs == {"ndcg": 3} and before_first == {"ndcg": 3}
    finally:
        ALL = kept


def test_the_bank_has_three_derivations_and_three_written_answers_across_families():
    assert len(DERIVES) >= 3 and len({e.family for e in DERIVES}) >= 3
    assert len(WRITTENS) >= 3 and len({e.family for e in WRITTENS}) >= 3
    han = re.compile(r"[\u4e00-\u9fff]")
    for exercise in DERIVES + WRITTENS:
        with lt.core.i18n.using_language("zh"):
            texts = [exercise.title, exercise.prompt, exercise.model, *map(lt.core.i18n.translate, exercise.hints)]
        assert all(han.search(t) for t in texts), exercise.id
        assert exercise.model.strip() and exercise.about


@pytest.mark.parametrize("exercise", DERIVES, ids=[e.id for e in DERIVES])
def test_a_derivation_shows_its_steps_and_ends_in_a_choice_with_a_model_derivation(exercise):
    assert len(exercise.steps) >= 2
    prompt = exercise.prompt
    for n, step in enumerate(exercise.steps, start=1):
        assert f"{n}. {lt.core.i18n.translate(step)}" in prompt
    assert exercise.model not in prompt and exercise.model not in str(exercise)
    for key in exercise.options:  # a wrong option's diagnosis never quotes the right option
        if key != exercise.correct:
            assert exercise.option_text(exercise.correct).lower() not in exercise.why_text(key).lower()
    wrong = next(k for k in exercise.options if k != exercise.correct)
    assert lt.check(exercise.id, wrong).explanation is None  # the model derivation only after a right answer
    assert lt.check(exercise.id, exercise.correct).explanation == exercise.model
    assert lt.check(exercise.id, wrong, reveal=True).explanation == exercise.model
    # the teacher's key holds the model derivation
    _students, key = lt.exercises.sheet([1], [exercise.id])
    assert " ".join(exercise.model.split()).replace("|", "\\|") in key


def test_the_three_derivations_say_what_the_proofs_need():
    # checked by hand against the claims: R-precision is the break-even point for any ranking with a hit in the
    # top R; a never-retrieved relevant document adds no area; only an unsorted "ideal" lets NDCG exceed 1
    assert lt.exercises.get("pr-derive-rprec-breakeven").correct == "any"
    assert lt.exercises.get("ap-derive-area").correct == "nothing"
    assert lt.exercises.get("ndcg-derive-at-most-one").correct == "unsorted"
    # the numbers the options and diagnoses rest on, recomputed by the library
    assert lt.r_precision([1, 0, 1, 1, 0, 1, 0], n_relevant=4).exact == lt.recall_at_k([1, 0, 1, 1, 0, 1, 0], 4,
                                                                                       n_relevant=4).exact
    assert lt.average_precision([1, 0, 0, 0], n_relevant=4).exact == sympy.Rational(1, 4)  # area 1/4, not 1
    assert lt.ndcg([3, 2, 1], k=3).exact <= 1 and lt.ndcg([0, 1, 3], k=3).exact < 1


@pytest.mark.parametrize("exercise", WRITTENS, ids=[e.id for e in WRITTENS])
def test_a_written_answer_is_recorded_for_the_teacher_never_graded(exercise):
    answer = "Because most documents are irrelevant, so the true negatives decide it."
    feedback = lt.check(exercise.id, answer)
    assert feedback.status == "to mark" and not feedback.correct
    assert "marked by the teacher" in feedback.message
    assert feedback.expected is None and exercise.model not in str(feedback)
    assert lt.check(exercise.id, exercise.model).status == "to mark"  # even the model answer is not auto-graded
    revealed = lt.check(exercise.id, answer, reveal=True)
    # the model answer, then the rubric the teacher marks with
    assert revealed.expected.startswith(exercise.model) and exercise.model in str(revealed)
    assert all(text in revealed.expected for _points, text in exercise.rubric)
    assert lt.check(exercise.id, "   ").status == "not answered"
    assert lt.check(exercise.id, "x" * 2001).status == "unreadable"
    assert lt.check(exercise.id, 42).status == "unreadable"
    with lt.core.i18n.using_language("zh"):
        assert "老师" in lt.check(exercise.id, answer).message


def test_the_command_line_says_a_written_answer_is_marked_by_the_teacher(capsys):
    from ltr_teach.cli import main

    exercise = WRITTENS[0]
    assert main(["check", exercise.id, "the", "true", "negatives"]) == 0
    out = capsys.readouterr().out
    assert "marked by the teacher" in out and exercise.model not in out
    assert main(["check", exercise.id, "the", "true", "negatives", "--reveal"]) == 0
    assert exercise.model in capsys.readouterr().out


def test_a_written_widget_takes_text_and_reveals_the_model_only_after_an_attempt():
    exercise = WRITTENS[0]
    box = lt.ask(exercise.id)
    assert type(box.input).__name__ == "Textarea"
    assert exercise.model not in _saved_text(box)
    box.input.value = "Most documents are not relevant."
    assert box.check().status == "to mark"
    assert html_unescaped(box.show_answer().expected).startswith(exercise.model)  # then the rubric


def html_unescaped(text):
    import html

    return html.unescape(text)


def test_the_grader_lists_written_answers_for_marking_and_runs_nothing(tmp_path):
    from ltr_teach import classroom

    written_id, derive_id = WRITTENS[0].id, DERIVES[0].id
    roster = tmp_path / "roster.csv"
    roster.write_text("id,name\na,A\nb,B\n", encoding="utf-8")
    classroom.assign(f"{written_id},{derive_id}", roster, tmp_path / "hw", course="k")
    answers = {"a": ('"""__import__("os").system("touch PWNED") accuracy is ruled by true negatives"""',
                     f'"{DERIVES[0].correct}"'),
               "b": ('""""""', '"nonsense"')}
    for student, (first, second) in answers.items():
        path = tmp_path / "hw" / "students" / f"{student}.ipynb"
        notebook = json.loads(path.read_text(encoding="utf-8"))
        cells = [c for c in notebook["cells"] if classroom.ANSWER_TAG in c["metadata"].get("tags", [])]
        assert "".join(cells[0]["source"]).startswith('answer_1 = """')
        cells[0]["source"] = [f"answer_1 = {first}"]
        cells[1]["source"] = [f"answer_2 = {second}"]
        path.write_text(json.dumps(notebook), encoding="utf-8")
    book = classroom.grade(tmp_path / "hw" / "students", roster, tmp_path / "hw" / "key" / "assignment.json")
    got = {(r.student, r.exercise): (r.status, r.points) for r in book.rows}
    assert got == {("a", written_id): ("to mark", 0), ("a", derive_id): ("right", 1),
                   ("b", written_id): ("not answered", 0), ("b", derive_id): ("unreadable", 0)}
    assert not (tmp_path / "PWNED").exists()
    report = book.report_html()
    assert "To mark by hand" in report and "accuracy is ruled by true negatives" in report
    import html

    assert html.escape(WRITTENS[0].model) in report
    # the rubric the teacher marks with, every criterion with its points, and their total
    for points, text in WRITTENS[0].rubric:
        assert f"<li>[{points}] {html.escape(text)}</li>" in report
    assert f"({sum(p for p, _t in WRITTENS[0].rubric)} points in all" in report
    key = (tmp_path / "hw" / "key").glob("*.md")
    assert any(" ".join(WRITTENS[0].model.split()) in p.read_text(encoding="utf-8") for p in key)


#: A post's number named as a ranked document ("文档 000", "document 000"): the posts are 博文 / post 000-004.
_POST_AS_DOCUMENT = re.compile(r"文档\s*00[0-4](?![_\d])|(?<![-\w])documents?\s+00[0-4](?![_\d])", re.IGNORECASE)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_every_exercise_text_names_the_posts_as_posts(language):
    wrong = []
    with lt.core.i18n.using_language(language):
        for exercise in ALL:
            texts = [exercise.title, exercise.prompt, *map(lt.core.i18n.translate, exercise.hints)]
            if exercise.kind in kinds.CHOICE_KINDS:
                texts += [exercise.explanation, *(exercise.option_text(k) for k in exercise.options),
                          *(exercise.why_text(k) for k in exercise.why)]
            if exercise.kind in ("derive", "written"):
                texts.append(exercise.model)
            wrong += [(exercise.id, m) for text in texts for m in _POST_AS_DOCUMENT.findall(text)]
    assert wrong == []
    assert _POST_AS_DOCUMENT.findall("文档 000；Document 001 and documents 002") == ["文档 000", "Document 001",
                                                                                   "documents 002"]
