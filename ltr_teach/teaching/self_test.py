"""An ``lt.ask`` self-test as data for a page without a kernel: the course website's self-tests.

The website turns every ``lt.ask`` question of a tutorial into a form that a small script answers in the
browser (``site/_static/self_test.js``). The script decides nothing itself: every verdict it shows is one the
checker (:func:`ltr_teach.teaching.checker.check`) gave at build time, here.

- **A choice**: the checker's feedback for each option (the diagnosis of a wrong one, the explanation of
  the right one).
- **A number**: the checker's feedback for every answer that can be anything but "not right": for the
  right value and each slip of :func:`~ltr_teach.teaching.checker.candidate_slips`, the decimals just below
  and just above it at 1 to :data:`MAX_DECIMALS` places (a decimal further away neither rounds nor cuts
  to it), the whole numbers around it (also written as decimals: ``0.0`` near 0.4 is told it may be a
  rounding) and its fraction. The script reads what the student typed (a
  fraction, a decimal or a percentage, as the checker's reader does), writes it in the canonical form of
  :func:`canonical_decimal` and looks it up; an answer not in the table gets the checker's feedback for a
  number that is none of these. The feedback quotes the answer: the table holds it with
  :data:`ANSWER` where the student's text goes.
- **A ranking to build**: the verifier's verdict for the reorderings of the example's grades (see
  :func:`_rankings`); another ranking is one the page cannot check, and the page says so rather than guess.

A self-test is practice: its answer may be in the page. A graded exercise sheet's never is (the sheets do
not use ``lt.ask``; the website's build refuses an ``lt.ask`` of a sheet's exercise).
"""

from __future__ import annotations

import dataclasses
import html
import itertools
import math
from decimal import ROUND_FLOOR, Decimal, localcontext
from fractions import Fraction

import sympy

from ..core.i18n import N_, _, translate
from . import exercises
from .answers import MAX_LENGTH, RANKING_EXAMPLES
from .checker import FLOAT_ULPS, Feedback, candidate_slips, check, judge, nearest_double
from .hints import expected_text
from .kinds import CHOICE_KINDS, example_text, inline_html, ladder_steps, markdown_html

#: Where the student's text goes in a feedback of the table (it is quoted there as typed).
ANSWER = "\u27e6answer\u27e7"
#: The most decimal places a typed decimal is decided at from the table (a double holds 17).
MAX_DECIMALS = 17
#: The most rankings whose verdict a page holds for one "build a ranking" exercise.
MAX_RANKINGS = 240
#: A number no answer to the course's exercises is near: the feedback for an answer none of the table's.
_FAR = "123456.789"

#: What the page says where the checker's reader would have read more than the page's does.
NOT_ON_PAGE = N_("This page reads a fraction (5/12), a decimal (0.417) or a percentage (41.7%); an expression "
                 "such as 1 + 1/log2(3) is checked when the notebook runs.")
RANKING_NOT_ON_PAGE = N_("This page holds the checker's verdicts for the rankings built from the question's "
                         "grades, and this one is not among them: run the notebook to check it, or compare it with "
                         "the answer (Show answer).")
RANKING_UNREADABLE = N_("could not read that ranking: write whole grades in brackets, as in {example}.")
PAGE_NOTE = N_("Self-test: answer here, then Check. The verdicts are the course checker's, computed when this "
               "page was built.")
REVEALED = N_("the answer")


def canonical_decimal(numerator: int, places: int) -> str:
    """The decimal ``numerator / 10**places`` written with exactly ``places`` decimals, as the page's table
    keys it (no leading zeros but one, a minus sign for a negative number).

    >>> canonical_decimal(713, 3), canonical_decimal(-5, 2), canonical_decimal(1000, 3)
    ('0.713', '-0.05', '1.000')
    """
    sign = "-" if numerator < 0 else ""
    whole, frac = divmod(abs(numerator), 10**places)
    return f"{sign}{whole}.{str(frac).zfill(places)}"


def canonical_fraction(value: Fraction) -> str:
    """A fraction as the table keys it: ``5/12``, ``-1/2``, a whole number alone.

    >>> canonical_fraction(Fraction(10, 24)), canonical_fraction(Fraction(4, 2))
    ('5/12', '2')
    """
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def _floors(value) -> dict[int, int]:
    """``floor(value * 10**d)`` for d = 1 .. MAX_DECIMALS: exactly for a rational, else from 45 digits."""
    if value.is_Rational:
        exact = Fraction(int(value.p), int(value.q))
        return {d: math.floor(exact * 10**d) for d in range(1, MAX_DECIMALS + 1)}
    with localcontext() as ctx:
        ctx.prec = 60
        digits = Decimal(str(sympy.N(value, 45)))
        return {d: int((digits * Decimal(10) ** d).to_integral_value(rounding=ROUND_FLOOR))
                for d in range(1, MAX_DECIMALS + 1)}


def _candidates(value) -> set[str]:
    """The answers near ``value`` that the checker may accept for it or name as its slip."""
    if not value.is_real or not value.is_finite or abs(value) > 10**15:
        return set()
    out = set()
    for d, low in _floors(value).items():
        out.update({canonical_decimal(low, d), canonical_decimal(low + 1, d)})
    whole = math.floor(Fraction(int(value.p), int(value.q))) if value.is_Rational else int(sympy.floor(value))
    for n in (whole, whole + 1):  # a whole number near the value gets "if you rounded ...", however it is written
        out.add(str(n))
        out.update(canonical_decimal(n * 10**d, d) for d in range(1, MAX_DECIMALS + 1))
    if value.is_Rational:
        out.add(canonical_fraction(Fraction(int(value.p), int(value.q))))
    return out


def _templated(feedback: Feedback, typed: str) -> str:
    """The feedback's HTML with :data:`ANSWER` where it quotes the typed answer (its first occurrence in the
    verdict, which starts with it)."""
    if typed not in feedback.message:
        raise RuntimeError(f"the checker's verdict {feedback.message!r} does not quote the answer {typed!r}")
    return dataclasses.replace(feedback, message=feedback.message.replace(typed, ANSWER, 1))._repr_html_()


class _Templates:
    """Distinct feedback HTML, each stored once; the table refers to them by index."""

    def __init__(self):
        self.items: list[str] = []
        self._index: dict[str, int] = {}

    def add(self, text: str) -> int:
        if text not in self._index:
            self._index[text] = len(self.items)
            self.items.append(text)
        return self._index[text]


def _revealed(exercise, expected: str, explanation: str | None = None) -> str:
    return Feedback(False, "revealed", translate(REVEALED), exercise.label, expected=expected,
                    explanation=explanation or None)._repr_html_()


def _hints(exercise) -> list[dict]:
    steps = ladder_steps(exercise.kind)
    return [{"step": translate(steps[n]) if n < len(steps) else "", "text": html.escape(translate(h))}
            for n, h in enumerate(exercise.hints)]


def _number(exercise) -> dict:
    ex, context = exercise.explanation(), exercise.context
    slips = list(candidate_slips(ex, context))

    def verdict(text):
        return judge(ex, text, context=context, target=exercise.label, hints=exercise.procedure, slips=slips)

    templates, table = _Templates(), {}
    for value in [ex.exact, *(m.value for m in slips)]:
        for typed in _candidates(value):
            if typed not in table:
                table[typed] = templates.add(_templated(verdict(typed), typed))
    far = verdict(_FAR)
    if far.status != "wrong" or far.mistakes:
        raise RuntimeError(f"{exercise.id}: {_FAR} is not a plain wrong answer here ({far.status})")
    # a decimal of 15 or more significant digits is also read as a double: within FLOAT_ULPS units in the last
    # place of the right value's (or a slip's) nearest double, whatever its digits (checker.is_the_double)
    doubles = []
    for value in [ex.exact, *(m.value for m in slips)]:
        if not value.is_real or not value.is_finite or abs(value) > 10**15:
            continue
        double = nearest_double(value)
        doubles.append({"double": double, "tolerance": FLOAT_ULPS * math.ulp(double),
                        "verdict": templates.add(_templated(verdict(repr(double)), repr(double)))})
    return {
        "table": table, "templates": templates.items, "other": templates.add(_templated(far, _FAR)),
        "doubles": doubles,
        "max_decimals": MAX_DECIMALS, "max_length": MAX_LENGTH, "not_on_page": translate(NOT_ON_PAGE),
        "reveal": _revealed(exercise, expected_text(ex.exact)) + ex._repr_html_(),
        "placeholder": _("for example {example}").format(example="5/12, 0.417"),
    }


def _choice(exercise) -> dict:
    return {
        "options": [{"key": key, "html": inline_html(exercise.option_text(key))} for key in exercise.options],
        "verdicts": {key: check(exercise, key)._repr_html_() for key in exercise.options},
        "reveal": _revealed(exercise, _("“{text}”").format(text=exercise.option_text(exercise.correct)),
                            exercise.explanation),
    }


def _rankings(exercise) -> list:
    """The rankings whose verdicts the page holds: every reordering of the example's grades; for a pair, the
    example's A with every reordering of B and every reordering of A with the example's B (at most
    :data:`MAX_RANKINGS` in all, the example first)."""
    example = _thaw_example(exercise)
    if exercise.shape == "ranking":
        others = sorted(set(itertools.permutations(example)))
        found = [example, *(list(p) for p in others if list(p) != example)]
    else:
        first, second = example
        found = [example]
        for b in sorted(set(itertools.permutations(second))):
            found.append([first, list(b)])
        for a in sorted(set(itertools.permutations(first))):
            found.append([list(a), second])
    unique = []
    for ranking in found:
        if ranking not in unique:
            unique.append(ranking)
    return unique[:MAX_RANKINGS]


def _thaw_example(exercise) -> list:
    return [list(one) for one in exercise.example] if exercise.shape == "pair" else list(exercise.example)


def _creation(exercise) -> dict:
    templates, table = _Templates(), {}
    for ranking in _rankings(exercise):
        typed = example_text(ranking, exercise.shape)
        table[typed] = templates.add(_templated(check(exercise, typed), typed))
    return {
        "shape": exercise.shape, "table": table, "templates": templates.items,
        "not_on_page": translate(RANKING_NOT_ON_PAGE),
        "unreadable": html.escape(translate(RANKING_UNREADABLE).format(example=RANKING_EXAMPLES[exercise.shape])),
        "placeholder": _("for example {example}").format(example=RANKING_EXAMPLES[exercise.shape]),
        "reveal": _revealed(exercise, _("for example {example}").format(example=exercise.answer),
                            exercise.explanation),
    }


def _written(exercise) -> dict:
    return {"recorded": check(exercise, "…")._repr_html_(), "reveal": _revealed(exercise, exercise.model),
            "placeholder": _("a few sentences")}


def page_data(exercise_id, seed=None) -> dict:
    """Everything a page needs to run the self-test ``lt.ask(exercise_id, seed)`` without a kernel, in the
    current language: the question, the hint ladder, the verdicts (see the module docstring), the answer.

    Parameters
    ----------
    exercise_id : str
        An exercise id (``lt.exercises.ids()``).
    seed : int, optional
        The variant, as ``lt.ask`` takes it.

    Returns
    -------
    dict
        JSON-ready: ``id``, ``label``, ``form`` (``"choice"``, ``"number"``, ``"ranking"`` or
        ``"written"``), ``title`` and ``prompt`` (HTML), ``hints``, ``not_answered`` (HTML) and the
        form's own keys.

    Examples
    --------
    P@5 of a list shorter than 5: the right value as a fraction and as a decimal at three places are right,
    a slip is named.

    >>> data = page_data("p-at-5-short")
    >>> data["form"], data["templates"][data["table"]["2/5"]].count("✓")
    ('number', 1)
    >>> sorted(k for k in data["table"] if k.startswith("0.4") and len(k) == 5)
    ['0.400', '0.401']
    """
    exercise = exercises.variant(exercise_id, seed) if seed is not None else exercises.get(exercise_id)
    if exercise.kind in CHOICE_KINDS:
        form, own = "choice", _choice(exercise)
    elif exercise.kind == "compute":
        form, own = "number", _number(exercise)
    elif exercise.kind == "create":
        form, own = "ranking", _creation(exercise)
    else:
        form, own = "written", _written(exercise)
    return {
        "id": exercise.id, "label": exercise.label, "form": form,
        "title": (f"<b>{html.escape(exercise.label)}</b> · {html.escape(exercise.title)} · "
                  f"<span class='ltr-ask-level'>{html.escape(exercise.level_text)}</span>"),
        "prompt": markdown_html(exercise.prompt), "hints": _hints(exercise),
        "not_answered": check(exercise, None)._repr_html_(), **own,
    }


def interface() -> dict:
    """The self-tests' interface strings in the current language (the buttons and labels of every form)."""
    return {
        "check": _("Check"), "hint": _("Hint"), "reveal": _("Show answer"), "answer": _("your answer"),
        "hint_of": _("Hint {n}/{total}"), "all_hints": _("every hint is shown"),
        "reveal_after": _("show the answer (after a first attempt)"), "note": translate(PAGE_NOTE),
    }


__all__ = ["ANSWER", "MAX_DECIMALS", "MAX_RANKINGS", "canonical_decimal", "canonical_fraction", "interface",
           "page_data"]
