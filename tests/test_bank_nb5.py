"""The choosing, collections and learning_to_rank families: each right option is what the library
computes, each create example passes its verifier and a wrong answer does not."""

import pytest
from sympy import Rational

import ltr_teach as lt
from ltr_teach.teaching.bank import choosing, collections, learning_to_rank

FAMILIES = (choosing, collections, learning_to_rank)


@pytest.mark.parametrize("module", FAMILIES)
def test_each_family_has_four_exercises_with_evaluate_analyse_and_create(module):
    kinds = [ex.kind for ex in module.EXERCISES]
    assert len(kinds) >= 4 and "evaluate" in kinds and "analyse" in kinds and "create" in kinds


def _by_id(ex_id):
    return next(ex for m in FAMILIES for ex in m.EXERCISES if ex.id == ex_id)


def test_sampled_winner_is_what_the_library_computes():
    a = lt.sampled_metric([1] * 40 + [5000] * 60, 10_000)
    b = lt.sampled_metric([50] * 100, 10_000)
    assert a.params["full"] > b.params["full"] and b.value > a.value
    assert _by_id("sampled-predict-winner").correct == "b"
    assert lt.check("sampled-predict-winner", "b").correct


def test_gauc_exercise_data_has_global_auc_above_gauc():
    data = (choosing._CTR_LABELS, choosing._CTR_SCORES)
    assert lt.auc(*data).value > lt.gauc(*data, choosing._CTR_USERS).value


def test_judged_only_raises_p5_of_system_c():
    # default: d08 - , d01 1, d11 -, d05 -, d04 0 -> 1/5; -J: d01 1, d04 0, d03 1 -> 2/5 (still / 5)
    assert collections._c_scores()["p@5"] == "0.2000"
    assert collections._c_scores(judged_only=True)["p@5"] == "0.4000"
    assert _by_id("judged-only-predict").correct == "rise"


def test_bpref_ignores_an_unjudged_document_at_the_top():
    assert lt.bpref([None, 1, 0, 1, 0, 1]).exact == lt.bpref([1, 0, 1, 0, 1]).exact == Rational(1, 2)
    assert _by_id("bpref-unjudged-predict").correct == "same"


def test_kappa_exercise_agrees_on_18_and_kappa_is_low():
    # judge 1 says relevant for one document, judge 2 for another: P(A) = 18/20, P(E) = (1/20)^2 + (19/20)^2
    p_e = Rational(1, 20) ** 2 + Rational(19, 20) ** 2
    assert lt.cohen_kappa(collections._JUDGE_1, collections._JUDGE_2).exact == (Rational(18, 20) - p_e) / (1 - p_e)


def test_misordered_count_is_one_minus_auc_times_pairs():
    ex = lt.auc(learning_to_rank._LABELS, learning_to_rank._SCORES)
    assert ex.exact == Rational(4, 5) and (1 - ex.exact) * 5 * 4 == 4
    assert _by_id("auc-misordered-count").correct == "four"


def test_largest_swap_weight_is_the_library_s():
    assert lt.swap_deltas(learning_to_rank._SWAP_GRADES).largest() == (1, 2)
    assert _by_id("largest-swap-weight").correct == "r1-r2"


def test_nudged_score_leaves_ndcg_unchanged():
    before = lt.ndcg([2, 0, 1, 0], scores=[2.0, 1.5, 1.0, 0.5]).exact
    assert lt.ndcg([2, 0, 1, 0], scores=[2.0, 1.5, 1.2, 0.5]).exact == before


@pytest.mark.parametrize("ex_id, wrong", [
    ("mrr-prefers-a-recall-prefers-b", [[0, 1, 1, 1, 0], [1, 0, 0, 0, 0]]),       # RR prefers B here
    ("high-agreement-low-kappa", [[0, 0, 0, 0, 1], [0, 0, 0, 0, 1]]),             # kappa 1
    ("fewer-pairs-lower-ndcg", [[3, 0, 0, 1, 0], [1, 3, 0, 0, 0]]),               # the example swapped
])
def test_create_examples_pass_and_wrong_answers_fail(ex_id, wrong):
    ex = _by_id(ex_id)
    assert ex.verify(ex.example) is None
    assert ex.verify(wrong) is not None
