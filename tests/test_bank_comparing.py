"""The comparing family and notebook 07's new questions: each right option is right and each wrong option
wrong, checked by hand computations (a comment per rank) or by the documents' records, not by the
exercises' own facts."""

import math
from fractions import Fraction

import pytest

import ltr_teach as lt
from ltr_teach.teaching.bank import comparing


def _ndcg_exp2(grades):
    """NDCG with gain 2^g - 1 and discount log2(i + 1), floats, the ideal from the same grades."""
    def dcg(gs):
        return sum((2**g - 1) / math.log2(i + 2) for i, g in enumerate(gs))
    return dcg(grades) / dcg(sorted(grades, reverse=True))


def test_every_comparing_exercise_is_registered_with_a_full_ladder():
    ids = [e.id for e in comparing.EXERCISES]
    assert len(ids) >= 6 and len(set(ids)) == len(ids)
    kinds = {lt.exercises.get(i).kind for i in ids}
    assert {"analyse", "evaluate", "spot", "predict", "create"} <= kinds
    for i in ids:
        assert len(lt.exercises.get(i).hints) == 3


def test_downgrading_the_star_raises_ndcg():
    # system C: 1, 3, 2, 2, 0, 0; the star (rank 2) re-judged 3 -> 2
    before, after = _ndcg_exp2([1, 3, 2, 2, 0, 0]), _ndcg_exp2([1, 2, 2, 2, 0, 0])
    assert after > before                                               # option "rise"
    # DCG loses (7 - 3)/log2 3 at rank 2; IDCG loses 7 - 3 at rank 1 of the ideal order
    assert lt.check("compare-downgrade-star", "rise").correct
    for wrong in ("fall", "same", "better"):
        feedback = lt.check("compare-downgrade-star", wrong)
        assert not feedback.correct and "{" not in str(feedback)


def test_swapping_ranks_4_and_6_is_invisible_to_rr_and_p3_only():
    c, swapped = [1, 3, 2, 2, 0, 0], [1, 3, 2, 0, 0, 2]
    rel = [[int(g >= 2) for g in r] for r in (c, swapped)]
    # first relevant at rank 2 in both: RR 1/2; top 3 hold 1, 1 relevant... = 2 of 3 in both
    assert [r.index(1) for r in rel] == [1, 1]
    assert [sum(r[:3]) for r in rel] == [2, 2]
    # AP: relevant at 2, 3, 4 -> (1/2 + 2/3 + 3/4)/3; at 2, 3, 6 -> (1/2 + 2/3 + 3/6)/3
    assert Fraction(1, 2) + Fraction(2, 3) + Fraction(3, 4) != Fraction(1, 2) + Fraction(2, 3) + Fraction(3, 6)
    assert _ndcg_exp2(c) != _ndcg_exp2(swapped)
    assert lt.err(c, g_max=3).exact != lt.err(swapped, g_max=3).exact
    assert lt.check("compare-swap-blind", "rr-p3").correct


def test_ndcg_prefers_a_and_ap_prefers_b():
    a, b = [3, 1, 0, 0, 2, 2], [2, 2, 3, 0, 0, 1]
    assert _ndcg_exp2(a) > _ndcg_exp2(b)
    # AP, grade >= 2 relevant: A at ranks 1, 5, 6 -> (1 + 2/5 + 3/6)/3 = 19/30; B at 1, 2, 3 -> 1
    assert (1 + Fraction(2, 5) + Fraction(3, 6)) / 3 == Fraction(19, 30) < 1
    assert lt.check("compare-a-vs-b", "star-worth").correct


def test_the_create_exercise_accepts_a_valid_order_and_explains_a_wrong_one():
    # 3, 0, 1, 0, 2, 2: NDCG ≈ 0.899 > C's 0.758; AP relevant at 1, 5, 6 = 19/30 < C's 23/36
    assert _ndcg_exp2([3, 0, 1, 0, 2, 2]) > _ndcg_exp2([1, 3, 2, 2, 0, 0])
    assert Fraction(19, 30) < (Fraction(1, 2) + Fraction(2, 3) + Fraction(3, 4)) / 3
    assert lt.check("compare-more-ndcg-less-ap", "[3, 0, 1, 0, 2, 2]").correct
    ideal = lt.check("compare-more-ndcg-less-ap", "[3, 2, 2, 1, 0, 0]")   # AP 1: not lower
    assert not ideal.correct
    assert not lt.check("compare-more-ndcg-less-ap", "[3, 3, 0, 0, 0, 0]").correct   # not C's grades


@pytest.mark.parametrize(("exercise", "record", "right_lines"), [
    ("spot-000-map", "000-map-two-queries", ("000-ap-mac-lipstick", "000-ap-shenxianshui")),
    ("spot-004-movies", "004-idcg-movies", ("004-dcg-movies",)),
])
def test_a_spot_question_marks_the_printed_value_that_disagrees(exercise, record, right_lines):
    # the wrong line is a worked example whose printed value disagrees with the exact one; the other
    # lines' printed values agree
    assert not lt.examples.by_id(record).matches
    for line in right_lines:
        assert lt.examples.by_id(line).matches
    question = lt.exercises.get(exercise)
    assert question.kind == "spot"
    assert lt.check(exercise, question.correct).correct


def test_document_000_err_expansion_and_total():
    # 0.875 + 1/2·0.125·0.375 + 1/3·0.125·0.625·0.875 + 1/4·0.125·0.625·0.125·0.125, in fractions
    terms = [Fraction(7, 8), Fraction(1, 2) * Fraction(1, 8) * Fraction(3, 8),
             Fraction(1, 3) * Fraction(1, 8) * Fraction(5, 8) * Fraction(7, 8),
             Fraction(1, 4) * Fraction(1, 8) * Fraction(5, 8) * Fraction(1, 8) * Fraction(1, 8)]
    assert sum(terms) == Fraction(45295, 49152)
    assert round(float(sum(terms)), 6) != 0.913391            # the printed total is the wrong line
    assert lt.check("spot-000-err", "total").correct
    assert not lt.check("spot-000-err", "sum").correct


def test_f_beta_and_code_mrr_lines():
    p, r = Fraction(1, 2), Fraction(2, 3)
    assert 5 * p * r / (4 * p + r) == Fraction(5, 8)            # the right F_2
    assert 5 * (p + r) / (4 * p + r) == Fraction(35, 16) > 1    # the printed formula
    assert lt.check("spot-000-f-beta", "f-beta").correct
    # results 3, 4, 2, 1, 5 with relevant 1, 3, 5: the first result is relevant, RR = 1, not 0.3333
    assert [3, 4, 2, 1, 5].index(3) == 0
    assert lt.check("spot-004-code-mrr", "output").correct


def test_tool_questions_agree_with_the_tools():
    import pytrec_eval
    qrels = {"q1": {"d1": 3, "d2": 2, "d3": 0, "d4": 1, "d5": 2}}
    run = {"q1": {"d3": 1.0, "d1": 0.8, "d2": 0.8, "d4": 0.5, "d9": 0.4}}
    trec = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg"}).evaluate(run)["q1"]["ndcg"]
    assert trec == pytest.approx(0.5608, abs=5e-5)              # conventions.md's trec_eval number
    # the same gain, discount and pool with d1 before d2 (ranx keeps the run's order)
    by_hand = (3 / math.log2(3) + 2 / 2 + 1 / math.log2(5)) / (3 + 2 / math.log2(3) + 2 / 2 + 1 / math.log2(5))
    assert by_hand == pytest.approx(0.5838, abs=5e-5)
    assert lt.check("tools-trec-vs-ranx", "ties").correct
    assert lt.check("tools-empty-query", "perfect").correct
    assert lt.check("tools-log-base", "same").correct
    assert lt.check("tools-sklearn-highest", "list-average").correct


def test_notebook_07_questions():
    # the tie 神仙水/MAC口红 broken in 神仙水's favour: one pair of 16 goes from 1/2 to 1
    assert lt.check("auc-tie-broken", "half").correct
    assert not lt.check("auc-tie-broken", "whole").correct
    # copying negatives leaves AUC, lowers AP
    assert lt.check("auc-imbalance", "same").correct
    assert lt.check("ap-imbalance", "falls").correct
    # 小王: clicks at 0.9, 0.85, 0.75 against 0.95, 0.8: 2 of 6 pairs; 小李: 0.2 against 0.3, 0.25, 0.15,
    # 0.1: 2 of 4; GAUC (5·1/3 + 5·1/2)/10 = 5/12 < the global AUC
    assert (5 * Fraction(1, 3) + 5 * Fraction(1, 2)) / 10 == Fraction(5, 12)
    assert lt.check("gauc-vs-auc", "lower").correct
    assert lt.check("auc-choose-ads", "auc").correct
    # AP of +0.9 −0.8 +0.7 +0.6 −0.5 −0.2: positives at ranks 1, 3, 4 -> (1 + 2/3 + 3/4)/3 = 29/36
    assert lt.check("ap-scores", "29/36").correct
