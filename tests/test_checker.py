"""lt.check: right answers in every form, near misses, and each diagnosis triggered by the slip it names.

Every wrong answer below is computed here independently (by hand from the formula, with a comment per
rank, or with a different library call), never taken from the checker.
"""

from fractions import Fraction
from math import log, log2, log10

import pytest
import sympy
from answer_forms import one_unit_off, percent, rounded

import ltr_teach as lt
from ltr_teach.teaching.checker import judge

LIPSTICK = [3, 2, 3, 0, 1, 2, 2]


def _fmt(x: float, places: int = 6) -> str:
    return f"{x:.{places}f}"


# -- right answers in every form --------------------------------------------------------------------
@pytest.mark.parametrize("answer", ["599/840", "1198/1680", "(13/15 + 47/84)/2", "0.713", "0.7131", "0.713095",
                                    "71.3%", "71.31%", "０.７１３", "０。７１３１", "７１．３％"])
def test_map_accepts_exact_decimal_percent_and_input_method_forms(answer):
    # MAP = (13/15 + 47/84) / 2 = 599/840 = 0.71309523...
    assert lt.check("map-doc000", answer).correct


def test_log_expressions_are_compared_exactly():
    ex = lt.dcg([3, 2, 3])          # 7/1 + 3/log2(3) + 7/2
    for answer in ("7 + 3/log2(3) + 7/2", "21/2 + 3/log2(3)", "7 + 3*ln(2)/ln(3) + 3.5", "10.5 + 3/log(3, 2)"):
        assert lt.check(ex, answer).correct, answer
    assert not lt.check(ex, "7 + 3/log2(3) + 7/2 + 10^-30").correct


def test_a_decimal_exactly_equal_needs_no_three_digits():
    assert lt.check(lt.reciprocal_rank([0, 1, 0]), "0.5").correct
    assert lt.check(lt.reciprocal_rank([0, 1, 0]), "50%").correct


@pytest.mark.parametrize("answer, digits", [("0.9", 1), ("0.94", 2), ("94%", 2)])
def test_a_rounded_answer_with_fewer_than_three_digits_is_too_coarse(answer, digits):
    feedback = lt.check(lt.ndcg(LIPSTICK, k=7), answer)       # 0.944227...
    assert not feedback.correct and feedback.status == "too coarse"
    assert f"{digits} significant digit" in feedback.message


@pytest.mark.parametrize("significant", [3, 4, 6])
@pytest.mark.parametrize("direction", [-1, 1])
def test_near_misses_are_rejected(significant, direction):
    exact = lt.ndcg(LIPSTICK, k=7).exact
    assert lt.check(lt.ndcg(LIPSTICK, k=7), rounded(exact, significant)).correct
    assert not lt.check(lt.ndcg(LIPSTICK, k=7), one_unit_off(exact, significant, direction)).correct


def test_rounding_follows_the_precision_written():
    # 11/18 = 0.61111...: 0.611 and 0.6111 are right; 0.612 and 0.6112 are not
    ex = lt.mrr([[0, 1, 0], [1, 0, 0], [0, 0, 1]])
    assert lt.check(ex, "0.611") and lt.check(ex, "0.6111")
    assert not lt.check(ex, "0.612") and not lt.check(ex, "0.6112")


# -- the feedback object ----------------------------------------------------------------------------
def test_feedback_does_not_reveal_unless_asked():
    wrong = lt.check("map-doc000", "0.7")
    assert wrong.expected is None and "599/840" not in str(wrong) and "599/840" not in wrong._repr_html_()
    shown = lt.check("map-doc000", "0.7", reveal=True)
    assert shown.expected.startswith("599/840") and "599/840" in str(shown)


@pytest.mark.parametrize("answer", [None, "", "   "])
def test_an_empty_answer_is_not_answered_yet_and_raises_nothing(answer):
    feedback = lt.check("ndcg-lipstick", answer)
    assert not feedback.correct and feedback.status == "not answered"
    assert "not answered yet" in feedback.message and "not answered yet" in feedback._repr_html_()


def test_feedback_renders_green_and_red():
    right, wrong = lt.check("map-doc000", "599/840"), lt.check("map-doc000", "<b>1</b>")
    assert bool(right) is True and bool(wrong) is False
    assert str(right).startswith("✓") and str(wrong).startswith("✗")
    assert "#1b5e20" in right._repr_html_() and "#b71c1c" in wrong._repr_html_()
    assert "<b>1</b>" not in wrong._repr_html_()          # the typed text is escaped


def test_an_unreadable_answer_says_so():
    feedback = lt.check("map-doc000", "five ninety-nine")
    assert feedback.status == "unreadable" and feedback.message.startswith("could not read that answer")


def test_unknown_exercise_is_a_value_error_naming_close_ids():
    with pytest.raises(ValueError, match="did you mean .*map-doc000"):
        lt.check("map-doc00", "1")


def test_a_seed_is_refused_with_an_explanation_object():
    with pytest.raises(ValueError, match="seed only applies to an exercise id"):
        lt.check(lt.ndcg(LIPSTICK), "0.9", seed=3)


def test_a_hint_when_no_mistake_matches():
    feedback = lt.check("ndcg-lipstick", "0.123")
    assert feedback.diagnosis is None and feedback.hint


def test_decimals_inside_an_expression_are_taken_literally():
    # 7 + 3/1.585 + 3.5 approximates 7 + 3/log2(3) + 7/2 but is not it
    feedback = lt.check(lt.dcg([3, 2, 3]), "7 + 3/1.585 + 3.5")
    assert not feedback.correct and "taken literally" in feedback.message


# -- diagnoses, each triggered by the slip it describes ---------------------------------------------
def _lipstick_ndcg(gain, discount) -> float:
    ideal = sorted(LIPSTICK, reverse=True)                           # 3, 3, 2, 2, 2, 1, 0
    dcg = sum(gain(g) / discount(i) for i, g in enumerate(LIPSTICK, start=1))
    idcg = sum(gain(g) / discount(i) for i, g in enumerate(ideal, start=1))
    return dcg / idcg


def test_done_when_linear_gain_on_an_exponential_ndcg_exercise():
    # linear gains 3, 2, 3, 0, 1, 2, 2 over log2(i + 1), divided by the ideal 3, 3, 2, 2, 2, 1, 0
    wrong = _lipstick_ndcg(lambda g: g, lambda i: log2(i + 1))
    feedback = lt.check("ndcg-lipstick", _fmt(wrong, 4))
    assert not feedback.correct
    assert feedback.mistakes == ("gain",)
    assert "2^rel - 1" in feedback.diagnosis and "linear gain" in feedback.diagnosis


def test_exponential_gain_on_a_linear_exercise():
    # ndcg-linear: grades 2, 0, 1, 2 with linear gain; the slip uses 2^g - 1 = 3, 0, 1, 3
    dcg = 3 / 1 + 0 / log2(3) + 1 / 2 + 3 / log2(5)
    idcg = 3 / 1 + 3 / log2(3) + 1 / 2 + 0 / log2(5)                 # ideal 2, 2, 1, 0
    feedback = lt.check("ndcg-linear", _fmt(dcg / idcg, 4))
    assert feedback.mistakes == ("gain",) and "linear gain" in feedback.diagnosis


def test_the_other_discount():
    # Järvelin: rank 1 and 2 divide by 1, then log2(i)
    wrong = _lipstick_ndcg(lambda g: 2**g - 1, lambda i: max(1.0, log2(i)))
    feedback = lt.check("ndcg-lipstick", _fmt(wrong, 4))
    assert feedback.mistakes == ("discount",) and "log2(i)" in feedback.diagnosis


def test_natural_log_changes_dcg_and_document_000_printed_it():
    # document 000 printed DCG_7 = 21.421516, the DCG with ln(i + 1) discounts
    wrong = sum((2**g - 1) / log(i + 1) for i, g in enumerate(LIPSTICK, start=1))
    assert _fmt(wrong) == "21.421516"
    feedback = lt.check("dcg-lipstick-log2", "21.421516")
    assert feedback.mistakes == ("base",) and "natural log" in feedback.diagnosis


def test_the_base_cancels_in_ndcg_so_it_is_right():
    with_ln = _lipstick_ndcg(lambda g: 2**g - 1, lambda i: log(i + 1))
    assert lt.check("ndcg-lipstick", _fmt(with_ln, 6)).correct


def test_dcg_given_where_ndcg_is_asked():
    dcg = sum((2**g - 1) / log2(i + 1) for i, g in enumerate(LIPSTICK, start=1))   # 14.848...
    feedback = lt.check("ndcg-lipstick", _fmt(dcg, 3))
    assert feedback.mistakes == ("dcg_for_ndcg",) and "That is the DCG" in feedback.diagnosis


def test_off_by_one_rank_in_ndcg():
    # ranks shifted: rank i divided by log2(i + 2)
    wrong = _lipstick_ndcg(lambda g: 2**g - 1, lambda i: log2(i + 2))
    feedback = lt.check("ndcg-lipstick", _fmt(wrong, 4))
    assert feedback.mistakes == ("shift",) and "off by one" in feedback.diagnosis


def test_ideal_from_the_returned_list_instead_of_the_pool():
    # movies 5, 3, 2, 1, 2; the pool also holds a 4 and a 0. The slip sorts only the returned list.
    gains = [31, 7, 3, 1, 3]
    dcg = sum(g / log2(i + 1) for i, g in enumerate(gains, start=1))
    slip_ideal = [31, 7, 3, 3, 1]                                     # grades 5, 3, 2, 2, 1
    wrong = dcg / sum(g / log2(i + 1) for i, g in enumerate(slip_ideal, start=1))
    feedback = lt.check("ndcg-movies-pool", _fmt(wrong, 4))
    assert feedback.mistakes == ("ideal_from_list",) and "pool" in feedback.diagnosis
    idcg = lt.check("idcg-movies-pool", _fmt(sum(g / log2(i + 1) for i, g in enumerate(slip_ideal, 1)), 3))
    assert idcg.mistakes == ("ideal_from_list",)


def test_ideal_not_cut_at_k():
    # ndcg-at-3: grades 1, 0, 3, 2, 0, 1; DCG@3 = 1 + 0 + 7/2; the slip divides by the whole ideal list
    dcg = 1 + 0 / log2(3) + 7 / 2
    full_ideal = sum(g / log2(i + 1) for i, g in enumerate([7, 3, 1, 1, 0, 0], start=1))
    feedback = lt.check("ndcg-at-3", _fmt(dcg / full_ideal, 4))
    assert feedback.mistakes == ("ideal_uncut",)


def test_sum_instead_of_mean_for_mrr_and_map():
    assert lt.check("mrr-doc000", "11/6").mistakes == ("sum_not_mean",)            # 1/2 + 1 + 1/3
    feedback = lt.check("map-doc000", str(Fraction(13, 15) + Fraction(47, 84)))    # AP sum
    assert feedback.mistakes == ("sum_not_mean",) and "mean" in feedback.diagnosis


def test_mrr_as_one_over_the_mean_rank():
    # ranks 2, 1, 3: mean rank 2, so 1/2
    assert lt.check("mrr-doc000", "1/2").mistakes == ("mean_rank",)


def test_ap_divided_by_relevant_retrieved_instead_of_all_relevant():
    # document 004, topic 2: hits at 1, 3, 5, five relevant in all; the slip divides by 3
    wrong = (Fraction(1, 1) + Fraction(2, 3) + Fraction(3, 5)) / 3
    feedback = lt.check("ap-doc004-topic2", str(wrong))
    assert feedback.mistakes == ("ap_retrieved",) and "all 5 relevant" in feedback.diagnosis
    both = (Fraction(1) + 1 + Fraction(3, 4) + Fraction(4, 7)) / 4, (Fraction(1) + Fraction(2, 3) + Fraction(3, 5)) / 3
    assert lt.check("map-doc004", str(sum(both) / 2)).mistakes == ("ap_retrieved",)


def test_precision_and_recall_swapped():
    # rels 1, 0, 1, 1, 0 in the top 5, six relevant in all: P@5 = 3/5, R@5 = 3/6
    assert "swapped" in lt.check("p-at-5", "1/2").mistakes
    recall = lt.check("r-at-5", "3/5")
    assert recall.mistakes == ("swapped",) and "precision" in recall.diagnosis


def test_f_beta_as_the_documents_write_it():
    # f2-doc003: top 4 = 1, 1, 0, 1 and 5 relevant: P = 3/4, R = 3/5, beta^2 = 4
    p, r, b2 = Fraction(3, 4), Fraction(3, 5), 4
    doc003 = (b2 + 1) * p * r / (b2 * (p + r))
    doc000 = (1 + b2) * (p + r) / (b2 * p + r)
    assert lt.check("f2-doc003", str(doc003)).mistakes == ("f_doc003",)
    assert lt.check("f2-doc003", str(doc000)).mistakes == ("f_doc000",)
    # with beta = 1, document 000's formula always gives (1 + 1)(P + R) / (P + R) = 2
    assert lt.check("f1-doc000", "2").mistakes == ("f_doc000",)


def test_auc_ties_counted_zero_or_one():
    # auc-tie: positives 0.9, 0.8; negatives 0.8, 0.1. Pairs: (0.9, 0.8) 1, (0.9, 0.1) 1, (0.8, 0.1) 1, tie
    assert lt.check("auc-tie", "3/4").mistakes == ("ties_zero",)
    assert lt.check("auc-tie", "1").mistakes == ("ties_one",)
    assert lt.check("auc-tie", "7/8").correct


def test_auc_ties_on_the_roc_curve():
    # roc-area: labels 0, 1, 1, 0, 1, 0 with scores 0.9, 0.8, 0.6, 0.6, 0.4, 0.1: pairs won
    # positive 0.8: beats 0.6, 0.1 (2); positive 0.6: beats 0.1, ties 0.6; positive 0.4: beats 0.1 (1)
    assert lt.check("roc-area", str(Fraction(4, 9))).mistakes == ("ties_zero",)
    assert lt.check("roc-area", str(Fraction(5, 9))).mistakes == ("ties_one",)


def test_err_with_the_dcg_discount():
    # err-lipstick: R = 7/8, 3/8, 7/8, 1/8; P(stop) = 7/8, 1/8*3/8, 1/8*5/8*7/8, 1/8*5/8*1/8*1/8
    stops = [7 / 8, 3 / 64, 35 / 512, 5 / 4096]
    wrong = sum(s / log2(i + 1) for i, s in enumerate(stops, start=1))
    feedback = lt.check("err-lipstick", _fmt(wrong, 4))
    assert feedback.mistakes == ("err_dcg_discount",) and "log2(i + 1)" in feedback.diagnosis
    shifted = sum(s / (i + 1) for i, s in enumerate(stops, start=1))
    assert lt.check("err-lipstick", _fmt(shifted, 4)).mistakes == ("shift",)


def test_off_by_one_reciprocal_rank():
    # the wanted item is at rank 2; counting from 0 or shifting gives 1/3
    assert lt.check("rr-eye-cream", "1/3").mistakes == ("shift",)
    assert lt.check("rr-eye-cream", "2").mistakes == ("rank_not_reciprocal",)


def test_eleven_point_divided_by_ten():
    # eleven-point-ap: rels 1, 0, 1, 0, 0, 1: interpolated precision 1 at recall 0..1/3 (levels 0, .1, .2, .3),
    # 2/3 up to 2/3 (levels .4, .5, .6), 1/2 up to 1 (levels .7, .8, .9, 1.0)
    total = 4 * Fraction(1) + 3 * Fraction(2, 3) + 4 * Fraction(1, 2)
    assert lt.check("eleven-point-ap", str(total / 11)).correct
    assert lt.check("eleven-point-ap", str(total / 10)).mistakes == ("eleven_ten",)


def test_percentage_without_the_sign():
    assert lt.check("map-doc000", "71.3").mistakes == ("percent",)


def test_an_explanation_object_gets_a_diagnosis_too():
    # a student's own computation: NDCG@5 of the movies with the pool, answered with the DCG
    ex = lt.ndcg([5, 3, 2, 1, 2], k=5, ideal=[5, 3, 2, 1, 2, 4, 0])
    dcg = 31 + 7 / log2(3) + 3 / 2 + 1 / log2(5) + 3 / log2(6)
    assert lt.check(ex, _fmt(dcg, 3)).mistakes == ("dcg_for_ndcg",)


def test_several_slips_giving_the_same_number_are_all_named():
    # err-doc003 with grade 2 first on a 0-2 scale: R_1 = 3/4; R = grade/2 and R = (2^g - 1)/3 both give 1
    # for a grade 2 at rank 1, so the answer 1 matches both slips
    ex = lt.err([2, 0, 1], g_max=2)
    feedback = lt.check(ex, "1")
    assert set(feedback.mistakes) == {"err_linear", "err_gmax_minus"}
    assert feedback.diagnosis.startswith("2 different slips")


def test_the_checker_finds_nothing_for_a_right_answer_in_percent():
    assert lt.check("ndcg-lipstick", percent(lt.ndcg(LIPSTICK, k=7).exact, 4)).correct


def test_exact_values_of_sympy_type_are_answers():
    assert lt.check("map-doc000", sympy.Rational(599, 840)).correct


def _lipstick_dcg(discount) -> float:
    return sum((2**g - 1) / discount(i) for i, g in enumerate(LIPSTICK, start=1))


F = Fraction
# err-doc003 (grades 1, 2, 0, 2) with gdeval's maximum grade 4: R = 1/16, 3/16, 0, 3/16
_GDEVAL = F(1, 16) + (1 - F(1, 16)) * F(3, 16) / 2 + (1 - F(1, 16)) * (1 - F(3, 16)) * 1 * F(3, 16) / 4

MORE_SLIPS = [
    # ERR: no cascade, R = grade / g_max, R over 2^g_max - 1, gdeval's maximum grade 4
    ("err-lipstick", str(F(7, 8) + F(3, 8) / 2 + F(7, 8) / 3 + F(1, 8) / 4), "err_no_cascade"),
    ("err-doc003", str(F(1, 2) + F(1, 2) * 1 / 2), "err_linear"),            # R = 1/2, 1, 0, 1
    ("err-doc003", str(F(1, 3) + F(2, 3) * 1 / 2), "err_gmax_minus"),        # R = 1/3, 1, 0, 1
    ("err-doc003", str(_GDEVAL), "err_gmax"),
    # F: arithmetic mean, beta on the wrong side, beta not squared, F1 for F-beta (f-half: P = 1/2, R = 3/4)
    ("f1-doc000", str((F(3, 5) + F(1, 2)) / 2), "f_arithmetic"),             # P = 3/5, R = 3/6
    ("f-half", str(F(5, 4) * F(3, 8) / (F(1, 4) * F(3, 4) + F(1, 2))), "f_swapped"),
    ("f-half", str(F(3, 2) * F(3, 8) / (F(1, 2) * F(1, 2) + F(3, 4))), "f_beta_not_squared"),
    ("f-half", str(2 * F(3, 8) / (F(1, 2) + F(3, 4))), "f1"),
    # AP: precision averaged over every rank; precisions added but not divided
    ("ap-lipstick", str((1 + 1 + F(2, 3) + F(2, 4) + F(3, 5) + F(3, 6) + F(3, 7)) / 7), "ap_all_ranks"),
    ("ap-lipstick", str(1 + 1 + F(3, 5)), "sum_not_mean"),
    # interpolation: the plain AP; the raw precision where recall reaches 1/2; 11 points without level 0
    ("interp-ap", str((1 + F(2, 4) + F(3, 5) + F(4, 7)) / 4), "not_interpolated"),
    ("interp-precision-half", "2/5", "not_interpolated"),
    ("eleven-point-ap", str((3 * 1 + 3 * F(2, 3) + 4 * F(1, 2)) / 10), "eleven_skip0"),
    # CG: discounted, gains summed, one item too few or too many
    ("cg-movies", _fmt(5 + 3 / log2(3) + 2 / 2 + 1 / log2(5) + 2 / log2(6)), "dcg_for_cg"),
    ("cg-movies", "45", "gain"),                                               # 31 + 7 + 3 + 1 + 3
    ("cg-at-2-swapped", "10", "k"),                                            # 5 + 2 + 3
    # P and R: the top 4, the items returned instead of k, recall over the relevant retrieved
    ("p-at-5", "3/4", "k"),                                                    # 1, 0, 1, 1
    ("p-at-5-short", "2/3", "short_list"),                                     # 0, 1, 1 and k = 5
    ("r-at-5", "3/4", "retrieved_only"),                                       # 3 of the 4 relevant in the list
    # AUC: pairs the wrong way round; pairs not divided (auc-no-ties: 4 of 6 pairs won)
    ("auc-no-ties", "1/3", "reversed"),
    ("auc-no-ties", "4", "not_divided"),
    # NDCG: IDCG given, IDCG / DCG, DCG with log10 discounts
    ("ndcg-lipstick", _fmt(sum((2**g - 1) / log2(i + 1) for i, g in enumerate([3, 3, 2, 2, 2, 1, 0], 1))),
     "idcg_for_ndcg"),
    ("ndcg-lipstick", _fmt(1 / _lipstick_ndcg(lambda g: 2**g - 1, lambda i: log2(i + 1))), "inverted"),
    ("ndcg-lipstick", _fmt(_lipstick_dcg(lambda i: log10(i + 1)), 4), "base_dcg"),
    # DCG / IDCG: no discount at all; the ranking's own order taken as ideal
    ("dcg-lipstick-log2", "24", "no_discount"),                                # 7 + 3 + 7 + 0 + 1 + 3 + 3
    ("idcg-lipstick", _fmt(_lipstick_dcg(lambda i: log2(i + 1))), "unsorted"),
]


@pytest.mark.parametrize("exercise_id, answer, key", MORE_SLIPS, ids=[f"{e}-{k}" for e, _, k in MORE_SLIPS])
def test_more_slips_are_named(exercise_id, answer, key):
    feedback = lt.check(exercise_id, answer)
    assert not feedback.correct
    assert key in feedback.mistakes, (feedback.mistakes, feedback.diagnosis)


def test_any_explanation_can_be_checked():
    # document 000's mean NDCG has no registered slips: it still gets a verdict and a hint-free answer
    ex = lt.examples.mean_ndcg([[3, 2], [1, 0]], k=2)         # both rankings are already ideal: mean 1
    assert lt.check(ex, "1").correct and not lt.check(ex, "0.5").correct


def test_an_undefined_value_has_no_right_answer():
    feedback = lt.check(lt.ndcg([0, 0], zero="nan"), "0")
    assert not feedback.correct and "undefined" in feedback.message


def test_an_exercise_object_is_a_target():
    mine = lt.exercises.variant("ap-lipstick", 9)
    assert lt.check(mine, str(mine.answer)).correct
    assert lt.check(mine, str(mine.answer)).target == "ap-lipstick (seed 9)"


def test_an_explanation_with_a_pool_names_the_ideal_from_the_list():
    # lt.ndcg on the movies with the judged pool; the slip sorts the five returned grades: 5, 3, 2, 2, 1
    ex = lt.ndcg([5, 3, 2, 1, 2], ideal=[5, 3, 2, 1, 2, 4, 0])
    dcg = 31 + 7 / log2(3) + 3 / 2 + 1 / log2(5) + 3 / log2(6)
    slip_idcg = 31 + 7 / log2(3) + 3 / 2 + 3 / log2(5) + 1 / log2(6)
    assert lt.check(ex, _fmt(dcg / slip_idcg, 4)).mistakes == ("ideal_from_list",)


def test_a_bare_explanation_offers_no_k_plus_one_slip_it_cannot_see():
    # [0, 1, 1, 0, 1, 0]: P@4 = 2/4. The real P@5 is 3/5 (ranks 2, 3, 5 relevant); "2/5" is the two
    # hits of the top 4 over 5, which only the cut list would suggest, so it names no "top 5" slip
    ex = lt.precision_at_k([0, 1, 1, 0, 1, 0], 4)
    assert "top 5" not in (lt.check(ex, "2/5").diagnosis or "")
    assert "k" not in lt.check(ex, "2/5").mistakes
    # with the whole list known, the real P@5 = 3/5 is named
    assert "top 5" in judge(ex, "3/5", context={"rels": [0, 1, 1, 0, 1, 0]}).diagnosis
    # R@4 of the same list (3 relevant): 2/3; the cut list would give R@5 = 2/3 too, the real R@5 is 1
    ex = lt.recall_at_k([0, 1, 1, 0, 1, 0], 4, n_relevant=3)
    assert "top 5" in judge(ex, "1", context={"rels": [0, 1, 1, 0, 1, 0]}).diagnosis
    # the top 3 is inside the explanation: P@3 = 2/3 is named without any context
    assert "top 3" in lt.check(lt.precision_at_k([0, 1, 1, 0, 1, 0], 4), "2/3").diagnosis


def test_the_linear_gain_sentence_works_on_the_rankings_highest_grade():
    from sklearn.metrics import ndcg_score

    mine = lt.exercises.variant("ndcg-lipstick", 7)
    grades = list(mine.data["grades"])
    assert max(grades) == 2                     # seed 7 holds no grade-3 item
    # sklearn's NDCG uses the grade itself as the gain and log2(i + 1) discounts: the linear-gain slip
    linear = ndcg_score([grades], [list(range(len(grades), 0, -1))], k=mine.data["k"])
    feedback = lt.check(mine, _fmt(linear))
    assert feedback.mistakes == ("gain",)
    assert "a grade-2 item is worth 3, not 2" in feedback.diagnosis    # 2^2 - 1 = 3
    assert "grade-3" not in feedback.diagnosis


MISSING_SLIPS = [
    # mrr-with-miss: RR 1/3 and 1/2; the third query has no hit and still counts with RR 0
    ("mrr-with-miss", str((F(1, 3) + F(1, 2)) / 2), "mrr_dropped_miss"),
    # err-k3: grades 1, 3, 0, 2, 3 (g_max 3): R = 1/8, 7/8, 0, 3/8, 7/8, every rank added, not only 1 to 3
    ("err-k3", str(F(1, 8) + F(7, 8) * F(7, 8) / 2 + 0
                   + F(7, 8) * F(1, 8) * 1 * F(3, 8) / 4 + F(7, 8) * F(1, 8) * 1 * F(5, 8) * F(7, 8) / 5), "k_ignored"),
    # ndcg-at-3: grades 1, 0, 3, 2, 0, 1; DCG@3 = 1 + 0 + 7/2; the ideal from the top 3 only sorts 1, 0, 3
    ("ndcg-at-3", _fmt(4.5 / (7 + 1 / log2(3) + 0 / 2)), "ideal_from_top_k"),
    # ndcg-at-3 with k ignored: the whole list over its whole ideal 3, 2, 1, 1, 0, 0
    ("ndcg-at-3", _fmt((1 + 0 + 7 / 2 + 3 / log2(5) + 0 + 1 / log2(7))
                       / (7 + 3 / log2(3) + 1 / 2 + 1 / log2(5))), "k_ignored"),
    # document 004: DCG terms 31 + 4.4 + 1.5 + 0.4 + 1.2 = 38.5, IDCG 31 + 9.5 + 3.5 + 1.3 + 1.2 = 46.5,
    # 38.5 / 46.5 = 0.82795... written 0.827 (cut, not rounded)
    ("ndcg-movies-pool", "0.827", "rounded_terms"),
]


@pytest.mark.parametrize("exercise_id, answer, key", MISSING_SLIPS, ids=[f"{e}-{k}" for e, _, k in MISSING_SLIPS])
def test_missing_slips_are_named(exercise_id, answer, key):
    feedback = lt.check(exercise_id, answer)
    assert not feedback.correct
    assert key in feedback.mistakes, (feedback.mistakes, feedback.diagnosis)


def test_the_rounded_terms_slip_matches_document_004_by_hand():
    dcg = sum(round(t, 1) for t in (31, 7 / log2(3), 3 / 2, 1 / log2(5), 3 / log2(6)))
    idcg = sum(round(t, 1) for t in (31, 15 / log2(3), 7 / 2, 3 / log2(5), 3 / log2(6)))
    assert (round(dcg, 6), round(idcg, 6)) == (38.5, 46.5)
    assert f"{dcg / idcg:.4f}" == "0.8280"      # rounded at three decimals it would be 0.828, not 0.827
    assert "cut the quotient" in lt.check("ndcg-movies-pool", "0.827").diagnosis


def test_mrr_dropping_the_query_without_a_hit_is_named():
    assert "still counts, with reciprocal rank 0" in lt.check("mrr-with-miss", "5/12").diagnosis


def test_err_with_the_lists_highest_grade_as_g_max():
    # grades 1, 2, 0, 1 on a 0..3 scale, g_max taken as 2: R = 1/4, 3/4, 0, 1/4
    slip = F(1, 4) + F(3, 4) * F(3, 4) / 2 + 0 + F(3, 4) * F(1, 4) * 1 * F(1, 4) / 4      # = 139/256
    feedback = lt.check(lt.err([1, 2, 0, 1], g_max=3), str(slip))
    assert feedback.mistakes == ("err_gmax_list",)
    assert "g_max = 3" in feedback.diagnosis


def test_dcg_at_k_with_the_cut_off_ignored():
    # DCG@3 of the lipstick ranking; the slip adds all seven ranks: gains 7, 3, 7, 0, 1, 3, 3
    ex = lt.dcg(LIPSTICK, k=3)
    feedback = judge(ex, _fmt(_lipstick_dcg(lambda i: log2(i + 1))), context={"grades": LIPSTICK, "k": 3})
    assert feedback.mistakes == ("k_ignored",)


def test_recall_over_the_relevant_in_the_list_needs_the_whole_list():
    # R@2 of 1, 0, 1, 1, 0 with 4 relevant in the collection: 1/4. The list holds 3 relevant items,
    # so the slip is 1/3; the steps (cut at rank 2) hold one, and "1" (1 / 1) is no such slip
    ex = lt.recall_at_k([1, 0, 1, 1, 0], 2, n_relevant=4)
    assert "retrieved_only" not in lt.check(ex, "1").mistakes
    feedback = judge(ex, "1/3", context={"rels": [1, 0, 1, 1, 0]})
    assert feedback.mistakes == ("retrieved_only",)
    assert "the 3 relevant items in the list" in feedback.diagnosis
