"""The checker is right about its students: the correct double, cut decimals and Chinese sentence forms
are accepted; document 000's ERR slip and document 003's unsorted ideal are named; hostile answers end in a
verdict. Every expected value here is computed by hand (fractions, math), not by the library."""

import math
import random
from fractions import Fraction as F

import pytest
import sympy
from answer_forms import truncated

import ltr_teach as lt
from ltr_teach.cli import main
from ltr_teach.teaching import checker

SEEDS = [None] + list(range(1, 11))
PAIRS = [(ex.id, seed) for ex in lt.exercises.all() if ex.kind == "compute" for seed in SEEDS]


def _nearest_double(value) -> float:
    return float(F(str(sympy.N(value, 50))))


@pytest.mark.parametrize("exercise_id, seed", PAIRS)
def test_the_correct_double_and_its_repr_are_right(exercise_id, seed):
    exercise = lt.exercises.variant(exercise_id, seed)
    double = _nearest_double(exercise.answer)
    for answer in (double, repr(double), float(exercise.explanation())):
        feedback = lt.check(exercise, answer)
        assert feedback.correct and not feedback.mistakes, (answer, str(feedback))


@pytest.mark.parametrize("exercise_id, seed", PAIRS)
def test_a_cut_answer_is_right_with_a_note_never_a_slip(exercise_id, seed):
    exercise = lt.exercises.variant(exercise_id, seed)
    for significant in (3, 4, 6):
        cut = truncated(exercise.answer, significant)
        feedback = lt.check(exercise, cut)
        assert feedback.correct and not feedback.mistakes and feedback.diagnosis is None, (cut, str(feedback))


def test_cut_13_15_says_how_it_rounds():
    # 13/15 = 0.866666...: cut at 4 decimals 0.8666, rounded 0.8667
    feedback = lt.check("ap-lipstick", "0.8666")
    assert feedback.correct and "cut rather than rounded" in feedback.message and "0.8667" in feedback.message


@pytest.mark.parametrize("answer", ["0.867。", "约0.867", "≈ 0.867", "0.867，", "86.7％", "大约 0.867", "~0.867"])
def test_answers_written_the_chinese_way(answer):
    assert lt.check("ap-lipstick", answer).correct        # AP = (1 + 1 + 3/5) / 3 = 13/15 = 0.8667


def _err_reach_with_r(grades, g_max):
    """ERR whose reach product uses R_i in place of 1 - R_i from rank 2 on (document 000's slip)."""
    rs = [F(2**g - 1, 2**g_max) for g in grades]
    total, reach = F(0), F(1)
    for i, r in enumerate(rs, start=1):
        total += reach * r / i
        reach *= (1 - r) if i == 1 else r
    return total


def test_document_000_err_is_the_r_for_one_minus_r_slip():
    # R = 7/8, 3/8, 7/8, 1/8: 7/8 + 1/2·1/8·3/8 + 1/3·(1/8·3/8)·7/8 + 1/4·(1/8·3/8·7/8)·1/8
    by_hand = F(7, 8) + F(3, 128) + F(7, 512) + F(21, 16384)
    assert by_hand == F(14965, 16384) == _err_reach_with_r([3, 2, 3, 1], 3)
    assert f"{float(by_hand):.6f}" == "0.913391"
    feedback = lt.check("err-lipstick", "0.913391")
    assert not feedback.correct and "err_reach_r" in feedback.mistakes
    assert "multiplied by R_i where the cascade needs 1 − R_i" in feedback.diagnosis


def test_the_r_for_one_minus_r_slip_is_named_for_any_err():
    rng = random.Random(2026)
    named = 0
    for _ in range(40):
        g_max = rng.randint(1, 4)
        grades = [rng.randint(0, g_max) for _ in range(rng.randint(3, 6))]
        slip = _err_reach_with_r(grades, g_max)
        right = lt.err(grades, g_max=g_max)
        if slip == F(int(right.exact.p), int(right.exact.q)):
            continue                                      # the slip changes nothing for this list
        feedback = lt.check(right, f"{slip.numerator}/{slip.denominator}")
        assert "err_reach_r" in feedback.mistakes, (grades, g_max)
        named += 1
    assert named >= 20


def test_one_on_the_document_003_exercise_is_the_unsorted_ideal():
    # grades 2, 3, 0, 1 divided by their own DCG in the order given: 1
    feedback = lt.check("ndcg-doc003-code", "1")
    assert not feedback.correct and feedback.mistakes == ("ideal_unsorted",)
    assert "post 003" in feedback.diagnosis


def test_0_478_on_ndcg_at_3_is_not_blamed_on_document_004():
    # NDCG@3 of 1, 0, 3 (whole list 1, 0, 3, 2, 0, 1): DCG 1 + 0 + 7/2 = 4.5, IDCG 7 + 3/log2 3 + 1/2
    exact = 4.5 / (7 + 3 / math.log2(3) + 0.5)
    assert f"{exact:.3f}" == "0.479"
    # terms rounded to 1 decimal give 4.5 / 9.4 = 0.4787..., which still rounds to the right 0.479:
    # the rounding alone does not change the answer, so cutting it to 0.478 is no diagnosis
    assert round(4.5 / 9.4, 3) == 0.479
    feedback = lt.check("ndcg-at-3", "0.478")
    assert not feedback.correct and "rounded_terms" not in feedback.mistakes


def test_document_004_rounding_is_still_named_on_its_own_data():
    # 38.5 / 46.5 = 0.82796 cut to 0.827, where the exact value rounds to 0.830
    feedback = lt.check("ndcg-movies-pool", "0.827")
    assert "rounded_terms" in feedback.mistakes


@pytest.mark.parametrize("answer", ["1/(log2(9)-2*log2(3))", "1/(ln(9)-2*ln(3))", "1/(log10(9)-2*log10(3))",
                                    "(log2(9)-2*log2(3))^-1", "(ln(4)-2*ln(2))^(-2)", "0^-1", "1/ln(1)",
                                    "(10^256)^2", 10**400, "10^101"])
def test_hostile_answers_end_in_an_unreadable_verdict(answer):
    feedback = lt.check("ndcg-lipstick", answer)
    assert feedback.status == "unreadable" and not feedback.correct


@pytest.mark.parametrize("answer", ["1/(log2(9)-2*log2(3))", "(10^256)^2", str(10**400)])
def test_the_cli_prints_one_error_line_for_them(answer, capsys):
    assert main(["check", "ndcg-lipstick", answer]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("ltr-teach: error: ") and captured.err.count("\n") == 1


def test_a_long_list_is_judged_without_recomputing_slips():
    rng = random.Random(7)
    grades = [rng.randint(0, 4) for _ in range(200)]
    feedback = lt.check(lt.ndcg(grades), "0.123456")
    assert feedback.status == "wrong" and feedback.diagnosis is None


def test_a_huge_grade_is_judged_without_computing_2_to_the_grade():
    # CG of 10^9 and 1 is 10^9 + 1
    assert lt.check(lt.cg([10**9, 1]), "1").status == "wrong"
    assert lt.check(lt.cg([10**10, 1]), "10000000001").correct


def test_override_slips_are_the_same_call_with_the_keyword_changed():
    ex = lt.ndcg([3, 2, 3, 0, 1, 2, 2], k=7)
    found = {m.key: m.value for m in checker.mistakes(ex)}
    # linear gain NDCG@7 by hand: DCG 3 + 2/log2 3 + 3/2 + 0 + 1/log2 6 + 2/log2 7 + 2/3,
    # IDCG of 3, 3, 2, 2, 2, 1, 0: 3 + 3/log2 3 + 2/2 + 2/log2 5 + 2/log2 6 + 1/log2 7
    l2 = math.log2
    dcg = 3 + 2 / l2(3) + 1.5 + 0 + 1 / l2(6) + 2 / l2(7) + 2 / 3
    idcg = 3 + 3 / l2(3) + 1 + 2 / l2(5) + 2 / l2(6) + 1 / l2(7)
    assert float(found["gain"]) == pytest.approx(dcg / idcg, rel=1e-12)
    gain_slip = next(s for s in checker.SLIPS if s.key == "gain" and "ndcg" in s.metrics)
    assert gain_slip.overrides({"gain": "exp2"}) == [{"gain": "linear"}]


def test_every_slip_is_a_declared_entry():
    keys = {s.key for s in checker.SLIPS}
    assert {"gain", "discount", "shift", "rounded_terms", "err_reach_r", "ideal_unsorted", "percent"} <= keys
    for slip in checker.SLIPS:
        assert slip.metrics and slip.message and (slip.overrides is not None) != (slip.recompute is not None)


def test_lists_up_to_the_cap_are_still_diagnosed():
    # 30 grades: DCG with the grade itself as gain, 3 at rank 1 and 1 at every other rank r: 3 + Σ 1/log2(r + 1)
    grades = [3] + [1] * (checker.MAX_DIAGNOSED_ITEMS - 1)
    linear = 3 + sum(1 / math.log2(r + 1) for r in range(2, len(grades) + 1))
    feedback = lt.check(lt.dcg(grades), f"{linear:.6f}")
    assert "gain" in feedback.mistakes
    longer = grades + [1]
    linear_longer = linear + 1 / math.log2(len(longer) + 1)
    assert lt.check(lt.dcg(longer), f"{linear_longer:.6f}").diagnosis is None


def test_numpy_numbers_are_answers_too():
    import numpy as np

    # AP of 1, 1, 0, 0, 1, 0, 0 = (1 + 1 + 3/5) / 3 = 13/15
    assert lt.check("ap-lipstick", np.float64(13 / 15)).correct            # NumPy 2 reprs it np.float64(...)
    assert lt.check("ap-lipstick", np.float32(13 / 15)).correct            # read as float32's 0.8666667
    assert lt.check("cg-movies", np.int64(13)).correct                     # 5 + 3 + 2 + 1 + 2
    assert lt.check("cg-movies", np.bool_(True)).status == "unreadable"


def test_the_audits_0_6803_is_a_cut_answer_not_rounded_terms():
    # seed 7 of ndcg-lipstick: NDCG@7 = 0.680352...; 0.6803 is that value cut after 4 decimals
    grades = list(lt.exercises.variant("ndcg-lipstick", 7).data["grades"])

    def dcg(gs):  # gain 2^g - 1 over log2(rank + 1)
        return sum((2**g - 1) / math.log2(rank + 1) for rank, g in enumerate(gs, start=1))

    assert f"{dcg(grades) / dcg(sorted(grades, reverse=True)):.6f}" == "0.680352"
    feedback = lt.check("ndcg-lipstick", "0.6803", seed=7)
    assert feedback.correct and "cut rather than rounded" in feedback.message and not feedback.mistakes
