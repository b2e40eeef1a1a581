"""The website's self-tests as data (ltr_teach.teaching.self_test): the page's table decides as the checker does.

The claim the page rests on: an answer the table does not hold is one the checker calls plainly wrong (no
slip, no "too coarse", no "cut"), so the page's "not right" for it is the checker's. Tested here against
``check()`` itself, for answers near the right value and near every slip, at many precisions.
"""

from __future__ import annotations

import json
import re
import sys
from fractions import Fraction
from pathlib import Path

import pytest
import sympy

from ltr_teach.core.i18n import using_language
from ltr_teach.teaching import exercises
from ltr_teach.teaching.checker import candidate_slips, check
from ltr_teach.teaching.self_test import (
    ANSWER,
    MAX_DECIMALS,
    canonical_decimal,
    canonical_fraction,
    page_data,
)

REPO = Path(__file__).resolve().parents[1]
#: Number self-tests of the tutorials, one per kind of metric family (NDCG with logs, a rational P@k, ERR, AUC).
NUMBERS = ("p-at-5-short", "ndcg-at-3", "err-doc003", "auc-no-ties", "mrr-with-miss")


def _asked_ids() -> set[str]:
    ids = set()
    for path in (REPO / "notebooks" / "en").glob("*.ipynb"):
        ids |= set(re.findall(r'lt\.ask\(\\"([a-z0-9-]+)\\"', path.read_text(encoding="utf-8")))
    return ids


def _page_verdict(data: dict, key: str, typed: str) -> str:
    index = data["table"].get(key, data["other"])
    return data["templates"][index].replace(ANSWER, typed)


@pytest.mark.parametrize("exercise_id", NUMBERS)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_answer_outside_the_table_is_plainly_wrong(exercise_id, lang):
    """Decimals 0 to 2 units from the right value and from every slip, at 1 to 6 places: the page's verdict
    (the table's, else its plain "not right") is the checker's, word for word."""
    assert exercise_id in _asked_ids()
    exercise = exercises.get(exercise_id)
    with using_language(lang):
        data = page_data(exercise_id)
        ex = exercise.explanation()
        values = [ex.exact, *(m.value for m in candidate_slips(ex, exercise.context))]
        for value in values:
            if not value.is_real or abs(value) > 1000:
                continue
            for places in range(1, 7):
                low = int(sympy.floor(value * 10**places))
                for step in (-2, -1, 0, 1, 2):
                    typed = canonical_decimal(low + step, places)
                    assert _page_verdict(data, typed, typed) == check(exercise_id, typed)._repr_html_(), typed


@pytest.mark.parametrize("exercise_id", NUMBERS)
def test_fractions_and_whole_numbers_decide_as_the_checker(exercise_id):
    data = page_data(exercise_id)
    exact = exercises.get(exercise_id).explanation().exact
    typed = ["0", "1", "2", "3", "1/2", "1/3", "2/3", "3/4", "7/8"]
    if exact.is_Rational:
        typed += [f"{exact.p}/{exact.q}", f"{3 * exact.p}/{3 * exact.q}"]
    for text in typed:
        key = canonical_fraction(Fraction(text))
        assert _page_verdict(data, key, text) == check(exercise_id, text)._repr_html_(), text


def test_every_self_test_of_the_tutorials_has_its_page_data_in_both_languages():
    """Every lt.ask of the tutorials: a choice has a verdict per option (a diagnosis for each wrong one), a
    ranking holds its example as right, a number its exact value as right; all of it JSON."""
    ids = sorted(_asked_ids())
    assert len(ids) >= 80
    for lang in ("en", "zh"):
        with using_language(lang):
            for exercise_id in ids:
                data = page_data(exercise_id)
                json.dumps(data)
                exercise = exercises.get(exercise_id)
                assert len(data["hints"]) == 3
                if data["form"] == "choice":
                    assert set(data["verdicts"]) == set(exercise.options)
                    for key, html in data["verdicts"].items():
                        assert ("✓" in html) == (key == exercise.correct)
                elif data["form"] == "ranking":
                    assert "✓" in data["templates"][data["table"][exercise.answer]]
                elif data["form"] == "number":
                    exact = exercise.explanation().exact
                    if exact.is_Rational:
                        assert "✓" in data["templates"][data["table"][canonical_fraction(
                            Fraction(int(exact.p), int(exact.q)))]]


def test_no_exercise_sheet_asks_a_self_test():
    """A graded sheet's answers must not reach a page: no sheet calls lt.ask (the site would carry its verdicts)."""
    for path in (REPO / "exercises").rglob("*.ipynb"):
        text = path.read_text(encoding="utf-8")
        assert "lt.ask(" not in text and "ltr-ask-static" not in text, path


def test_the_site_refuses_a_self_test_on_an_exercise_sheet():
    from docutils import nodes

    sys.path.insert(0, str(REPO / "site" / "_ext"))
    try:
        import self_tests
    finally:
        sys.path.remove(str(REPO / "site" / "_ext"))
    doctree = nodes.document(None, None)
    doctree += nodes.raw("", "<div class='ltr-ask-static'><div class='ltr-teach-exercise'><div><b>p-at-5-short</b>",
                         format="html")
    with pytest.raises(RuntimeError, match="graded exercise sheet"):
        self_tests._replace(None, doctree, "exercises/en/01_precision_recall_f")


@pytest.mark.parametrize("numerator, places, expected", [
    (0, 3, "0.000"), (-1, 1, "-0.1"), (10**40 + 7, 2, f"{10**38}.07"), (-12345, 17, "-0.00000000000012345"),
])
def test_canonical_decimal_hostile(numerator, places, expected):
    assert canonical_decimal(numerator, places) == expected
    assert Fraction(expected) == Fraction(numerator, 10**places)


def test_canonical_fraction_reduces_and_signs():
    assert canonical_fraction(Fraction(-10, 24)) == "-5/12"
    assert canonical_fraction(Fraction(0, 7)) == "0"
    assert canonical_fraction(Fraction(10**30, 2)) == str(5 * 10**29)


def test_the_table_reaches_the_precision_of_a_double():
    data = page_data("p-at-5-short")
    assert canonical_decimal(4 * 10**(MAX_DECIMALS - 1), MAX_DECIMALS) in data["table"]
