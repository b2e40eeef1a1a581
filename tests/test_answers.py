"""The answer reader: what it accepts, the exact values it builds, and what it refuses, quickly and safely."""

import builtins
import time

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from sympy import Rational

import ltr_teach as lt
from ltr_teach.core.exact import ln, log2
from ltr_teach.teaching.answers import MAX_LENGTH, UnreadableAnswer, normalise, parse_answer


@pytest.mark.parametrize("text, value", [
    ("599/840", Rational(599, 840)),
    ("0.713", Rational(713, 1000)),
    ("71.3%", Rational(713, 1000)),
    ("-0.5", Rational(-1, 2)),
    (".25", Rational(1, 4)),
    ("3", 3),
    ("2^3 - 1", 7),
    ("2**3 - 1", 7),
    ("2^3^2", 512),                  # right-associative: 2^(3^2)
    ("-2^2", -4),                    # the power binds tighter than the sign
    ("(1/2 + 1 + 1/3) / 3", Rational(11, 18)),
    ("2^-3", Rational(1, 8)),
    ("50%", Rational(1, 2)),
    ("(1/2)%", Rational(1, 200)),
    ("sqrt(4)", 2),
    ("log2(8)", 3),
    ("log(8, 2)", 3),
    ("log(100, 10)", 2),
    ("ln(1)", 0),
])
def test_exact_values(text, value):
    assert sympy.simplify(parse_answer(text).value - value) == 0


def test_logs_stay_exact_with_the_package_functions():
    # 7 + 3/log2(3) + 7/2 is the DCG of grades 3, 2, 3 (gains 7, 3, 7; discounts 1, log2 3, 2)
    assert parse_answer("7 + 3/log2(3) + 7/2").value == lt.dcg([3, 2, 3]).exact
    assert parse_answer("ln(3)").value == ln(3)
    assert parse_answer("log(3, 2)").value == log2(3)
    assert parse_answer("log10(1000)").value == 3
    assert parse_answer("log10(2)").value == ln(2) / ln(10)


@pytest.mark.parametrize("text, decimals, significant", [
    ("0.944", 3, 3), ("0.9442", 4, 4), ("94.4%", 3, 3), ("0.0713", 4, 3), ("12.0", 1, 3),
    ("-0.50", 2, 2), ("0.9", 1, 1), ("71%", 2, 2),
])
def test_a_lone_decimal_records_its_precision(text, decimals, significant):
    answer = parse_answer(text)
    assert (answer.decimals, answer.significant) == (decimals, significant)
    assert answer.is_rounded


@pytest.mark.parametrize("text", ["599/840", "7", "1/3 + 0.5", "log2(3)"])
def test_exact_forms_are_not_rounded(text):
    assert not parse_answer(text).is_rounded


def test_decimals_inside_an_expression_are_flagged():
    assert parse_answer("3/1.585").has_decimal_inside
    assert not parse_answer("3/2").has_decimal_inside


@pytest.mark.parametrize("typed, plain", [
    ("０.９４４", "0.944"),            # full-width digits and point
    ("０。９４４", "0.944"),           # ideographic full stop typed for the decimal point
    ("９４．４％", "94.4%"),
    ("（３−１）／２", "(3-1)/2"),      # full-width parentheses, Unicode minus, full-width slash
    ("７＋３／ｌｏｇ２（３）", "7+3/log2(3)"),
    ("log(3，2)", "log(3,2)"),        # full-width comma from a Chinese input method
    ("log(3、2)", "log(3,2)"),
    ("2³", "2^3"),
    ("3 × 2 ÷ 4", "3 * 2 / 4"),
    ("½", "1/2"),
    ("log₂(3)", "log2(3)"),
])
def test_input_method_text_is_normalised(typed, plain):
    assert normalise(typed) == plain
    assert parse_answer(typed).value == parse_answer(plain).value


def test_a_comma_outside_a_function_is_refused_not_guessed():
    # 0,944 is a decimal comma in Europe but 1,234 is a thousands separator in China: refuse both
    with pytest.raises(UnreadableAnswer, match="comma is only read inside log"):
        parse_answer("0，944")
    assert parse_answer("log(8，3)").value == ln(8) / ln(3)


def test_python_numbers_are_read_exactly():
    from fractions import Fraction

    assert parse_answer(Fraction(599, 840)).value == Rational(599, 840)
    assert parse_answer(0.944).decimals == 3
    assert parse_answer(7).value == 7
    assert parse_answer(Rational(1, 3)).value == Rational(1, 3)


@pytest.mark.parametrize("text, reason", [
    ("log(3)", "ambiguous"),
    ("2(3)", r"write \*"),
    ("2 log2(3)", r"write \*"),
    ("1/(1-1)", "divides by zero"),
    ("0^-1", "divides by zero"),
    ("2^(1/3)", "whole number or 1/2"),
    ("2^log2(3)", "whole number"),
    ("log2(0)", "positive number"),
    ("log2(-1)", "positive number"),
    ("sqrt(-1)", ">= 0"),
    ("log(3, 1)", "base cannot be 1"),
    ("(1", r"expected '\)'"),
    ("1 +", "ends where a number"),
    ("", "empty"),
    ("   ", "empty"),
    ("nan", "not a number or one of the functions"),
    ("inf", "not a number or one of the functions"),
    ("1e5", "not a number or one of the functions"),
])
def test_unreadable_answers_say_why(text, reason):
    with pytest.raises(UnreadableAnswer, match=reason):
        parse_answer(text)


def test_unreadable_is_a_value_error():
    assert issubclass(UnreadableAnswer, ValueError)


HOSTILE = [
    "__import__('os').system('x')",
    "().__class__.__bases__[0].__subclasses__()",
    "exec('print(1)')",
    "eval('1')",
    "lambda: 1",
    "lambda x: x",
    "import os",
    "open('/etc/passwd').read()",
    "9**9**9**9",
    "9^9^9^9",
    "2^256^2",
    "(2^200)^200",
    "10^300",
    "(" * 10_000 + "1" + ")" * 10_000,
    "(" * 90 + "1" + ")" * 90,          # short enough to read, too deep to nest
    "-" * 150 + "1",                     # a deep chain of signs
    "1" * 1_000_000,
    "x" * 1_000_000,
    "nan", "NaN", "inf", "-inf", "Infinity", "oo", "zoo", "E", "pi", "I",
    "float('nan')",
    "1/0",
    "Symbol('x')",
    "sympify('x')",
    "x",
    "1; 2",
    "1 == 1",
    "[1, 2]",
    "{1: 2}",
    "'0.944'",
    "\"0.944\"",
    "0.944\x00",
    "0.9\u200b44",                      # a zero-width space inside a number
    "\u202e449.0",                      # right-to-left override
    "𝟎.𝟗𝟒𝟒" + "\u0301",                # mathematical digits with a combining accent
    "log2(" * 50 + "2" + ")" * 50,
    "sqrt(" * 30 + "2" + ")" * 30,
    "2^" * 60 + "2",
    None,
    b"0.944",
    [1],
    {"a": 1},
    float("nan"),
    float("inf"),
]


@pytest.fixture
def nothing_runs_code(monkeypatch):
    """Make every way of running text as code fail loudly, so the reader cannot use one.

    ``eval`` and ``exec`` refuse everything; SymPy's converters refuse text. SymPy converts a few
    strings of its own the first time its assumption system runs, so one check runs first.
    """
    lt.check(lt.ndcg([3, 2, 3, 0, 1, 2, 2], k=7), "0.944")
    import sys

    from sympy.parsing import sympy_parser

    def refuse(*args, **kwargs):
        raise AssertionError("the answer reader tried to evaluate text as code")

    def text_refusing(original):
        def wrapper(a, *args, **kwargs):
            if isinstance(a, (str, bytes)):
                refuse()
            return original(a, *args, **kwargs)
        return wrapper

    monkeypatch.setattr(builtins, "eval", refuse)
    monkeypatch.setattr(builtins, "exec", refuse)
    sympify_module = sys.modules["sympy.core.sympify"]
    monkeypatch.setattr(sympy, "sympify", text_refusing(sympify_module.sympify))
    monkeypatch.setattr(sympify_module, "sympify", text_refusing(sympify_module.sympify))
    monkeypatch.setattr(sympy_parser, "parse_expr", refuse)
    monkeypatch.setattr(sympy, "parse_expr", refuse, raising=False)


@pytest.mark.parametrize("text", HOSTILE, ids=lambda t: repr(t)[:40])
def test_hostile_input_is_refused_quickly_without_running_anything(nothing_runs_code, text):
    start = time.perf_counter()
    if text is None:
        feedback = lt.check(lt.ndcg([3, 2, 3, 0, 1, 2, 2], k=7), text)
        assert feedback.status == "not answered"
    else:
        with pytest.raises(UnreadableAnswer):
            parse_answer(text)
        feedback = lt.check(lt.ndcg([3, 2, 3, 0, 1, 2, 2], k=7), text)
        assert feedback.status == "unreadable" and not feedback.correct
        assert feedback.message.startswith("could not read that answer")
    # a hang guard, not a benchmark: a refusal must not compute anything large
    assert time.perf_counter() - start < 1.0


def test_the_reader_works_with_code_evaluation_disabled(nothing_runs_code):
    assert parse_answer("7 + 3/log2(3) + 7/2").value == lt.dcg([3, 2, 3]).exact
    assert lt.check("map-doc000", "599/840").correct


def test_the_length_bound_is_checked_before_any_work():
    assert parse_answer("1" + " " * (MAX_LENGTH - 1)).value == 1
    with pytest.raises(UnreadableAnswer, match="characters long"):
        parse_answer("1" + " " * MAX_LENGTH)


def test_a_long_flat_expression_within_the_bound_is_read():
    assert parse_answer("1" + "/1" * 99).value == 1


# -- properties -----------------------------------------------------------------------------------

_ANSWER_ALPHABET = st.sampled_from(list("0123456789.+-*/^()%, ") + ["log2(", "ln(", "log(", "sqrt(", "√", "**",
                                                                     "９", "（", "）", "。", "，", "−", "x", "e"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_ANSWER_ALPHABET, max_size=40).map("".join))
def test_any_text_is_read_or_refused_with_a_reason(text):
    # never an exception other than UnreadableAnswer, whatever the student types
    try:
        parse_answer(text)
    except UnreadableAnswer as exc:
        assert str(exc)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_arbitrary_unicode_is_read_or_refused(text):
    try:
        parse_answer(text)
    except UnreadableAnswer:
        pass


@given(st.integers(-10**6, 10**6), st.integers(1, 10**6))
def test_fractions_read_exactly(p, q):
    assert parse_answer(f"{p}/{q}").value == Rational(p, q)


@given(st.decimals(min_value=-1000, max_value=1000, places=4, allow_nan=False, allow_infinity=False))
def test_decimals_read_exactly(d):
    text = format(d, "f")
    assert parse_answer(text).value == Rational(text)
