"""The questions that notebooks 00 to 03 ask (families precision_recall and mrr_map): each right option, each
create exercise's verifier and each number the feedback shows, against values worked out by hand."""

import pytest

import ltr_teach as lt
from ltr_teach.core.i18n import using_language

NEW_CHOICES = {  # id: (kind, the right option)
    "start-two-pages": ("analyse", "depends"),
    "start-p3-irrelevant-down": ("predict", "same"),
    "pr-move-hit-out": ("predict", "r_at_5"),
    "pr-unretrieved-relevant": ("predict", "recall"),
    "pr-accuracy-rare-clicks": ("predict", "never"),
    "pr-which-metric-prior-art": ("evaluate", "r100"),
    "map-above-one": ("spot", "impossible"),
    "ap-printed-rounded": ("spot", "no"),
    "mrr-top-gain": ("predict", "mrr_gain"),
    "mrr-failed-query": ("predict", "counted"),
    "mrr-which-task": ("evaluate", "qa"),
    "ap-irrelevant-down": ("predict", "rise"),
}


@pytest.mark.parametrize("exercise_id", sorted(NEW_CHOICES))
def test_the_right_option_and_a_diagnosis_for_every_other(exercise_id):
    ex = lt.exercises.get(exercise_id)
    kind, right = NEW_CHOICES[exercise_id]
    assert (ex.kind, ex.correct) == (kind, right)
    assert set(ex.why) == set(ex.options) - {right}
    assert lt.check(exercise_id, right).correct
    for wrong in set(ex.options) - {right}:
        assert not lt.check(exercise_id, wrong).correct


def _option(exercise_id, key):
    with using_language("en"):
        return lt.exercises.get(exercise_id).option_text(key)


def test_mrr_top_gain_options_are_the_mean_the_query_and_the_miss():
    # before: (1/2 + 1 + 1/3)/3 = 11/18; after 面膜's hit moves to rank 1: (1/2 + 1 + 1)/3 = 5/6
    # the mean rises by 5/6 - 11/18 = 4/18 = 2/9; the query's own RR by 1 - 1/3 = 2/3;
    # from a query without a hit (RR 0) it would rise by (1 - 0)/3 = 1/3
    assert _option("mrr-top-gain", "mrr_gain") == "by 2/9"
    assert _option("mrr-top-gain", "query_gain") == "by 2/3"
    assert _option("mrr-top-gain", "from_zero") == "by 1/3"


def test_mrr_failed_query_best_is_two_thirds():
    # (0 + 1 + 1)/3 = 2/3; leaving the failed query out would give (1 + 1)/2 = 1
    assert _option("mrr-failed-query", "counted") == "2/3"
    assert _option("mrr-failed-query", "without").startswith("1:")


def test_explanations_carry_the_libraries_numbers():
    with using_language("en"):
        # AP of 0,1,1,0,0,1,1: (1/2 + 2/3 + 3/6 + 4/7)/4 = 47/84; after d1 goes last, 1,1,0,0,1,1,0:
        # (1 + 1 + 3/5 + 4/6)/4 = 49/60
        assert "from 47/84 to 49/60" in lt.exercises.get("ap-irrelevant-down").explanation
        # never click: 997 right of 1000; top 10: TP 2, FP 8, FN 1, so TN = 1000 - 11 = 989, accuracy 991/1000
        text = lt.exercises.get("pr-accuracy-rare-clicks").explanation
        assert "accuracy 997/1000" in text and "TN = 989, accuracy 991/1000" in text
        # 0,1,1,0,0,1,1 under P@3: 2 hits of 3; after rank 1 moves to rank 4 the top 3 are 1,1,0: still 2/3
        assert "before the move P@3 = 2/3, after it P@3 = 2/3" in lt.exercises.get("start-p3-irrelevant-down").explanation
        # page A 1,0,0,0,0: RR 1, P@5 1/5; page B 0,1,1,1,0: RR 1/2, P@5 3/5
        text = lt.exercises.get("start-two-pages").explanation
        assert "is 1, page B's 1/2" in text and "is 3/5, page A's 1/5" in text
        # top 5 of 1,1,0,1,0,0,1,0,0,0 holds 3 hits: P@5 3/5; R@5 3/4 with 4 relevant, 3/8 with 8;
        # F1 = 2PR/(P+R): 2·(3/5)(3/4)/(27/20) = 2/3, and 2·(3/5)(3/8)/(39/40) = 6/13
        text = lt.exercises.get("pr-unretrieved-relevant").explanation
        assert "P@5 stays 3/5" in text and "from 3/4 to 3/8" in text and "from 2/3 to 6/13" in text
        # moving the hit at rank 4 to rank 6: P@5 3/5 -> 2/5, R@5 3/4 -> 2/4
        text = lt.exercises.get("pr-move-hit-out").explanation
        assert "from 3/5 to 2/5" in text and "from 3/4 to 1/2" in text


@pytest.mark.parametrize("answer, ok", [
    ("[1, 1, 1, 0, 1, 1, 1]", True),       # R = 6: P@3 = 1, R@3 = 3/6
    ("[1, 1, 1, 1, 1, 1, 1, 1]", True),    # R = 8: R@3 = 3/8
    ("[1, 1, 1, 1, 1]", False),            # R = 5: R@3 = 3/5 > 1/2
    ("[1, 0, 1, 1, 1, 1, 1]", False),      # P@3 = 2/3
    ("[1, 1]", False),                     # no top 3
    ("[2, 1, 1, 1, 1, 1]", False),         # not 0/1
])
def test_precise_but_incomplete_verifier(answer, ok):
    assert lt.check("pr-precise-but-incomplete", answer).correct is ok


@pytest.mark.parametrize("answer, ok", [
    ("[1, 1, 0, 0] [1, 0, 0, 1]", True),   # RR 1 and 1; AP 1 and (1 + 2/4)/2 = 3/4
    ("[0, 1, 1, 0] [0, 1, 0, 1]", True),   # RR 1/2 both; AP (1/2 + 2/3)/2 = 7/12 and (1/2 + 2/4)/2 = 1/2
    ("[1, 0, 1] [0, 1, 1]", False),        # RR 1 and 1/2
    ("[1, 0, 1, 0] [1, 0, 1, 0]", False),  # the same ranking twice: the same AP
    ("[1, 1, 0] [1, 0, 0]", False),        # two relevant results against one
    ("[1, 0] [1, 0, 0]", False),           # lengths 2 and 3
    ("[0, 0] [0, 0]", False),              # nothing relevant
])
def test_same_rr_different_ap_verifier(answer, ok):
    assert lt.check("rr-same-ap-differs", answer).correct is ok


def test_the_families_gained_choice_and_create_exercises():
    kinds = [getattr(ex, "kind", "compute") for ex in lt.exercises.all() if ex.family in ("precision_recall", "mrr_map")]
    assert kinds.count("create") >= 2 and kinds.count("evaluate") >= 2
    assert kinds.count("predict") + kinds.count("analyse") >= 7
