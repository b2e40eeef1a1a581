"""The choice and create exercises of notebooks 04-06: each right option is right by an independent computation
(math.log2 and fractions, not the library), each create verifier accepts its example and refuses near misses."""

import math
from fractions import Fraction

import pytest

import ltr_teach as lt


def dcg(grades, discount=lambda i: math.log2(i + 1), gain=lambda g: 2**g - 1):
    return sum(gain(g) / discount(i) for i, g in enumerate(grades, start=1))


def ndcg(grades, ideal=None, k=None, **kw):
    ideal = sorted(ideal if ideal is not None else grades, reverse=True)
    k = k or len(grades)
    return dcg(grades[:k], **kw) / dcg(ideal[:k], **kw)


def ap(rels):
    hits, total = 0, Fraction(0)
    for i, r in enumerate(rels, start=1):
        if r:
            hits += 1
            total += Fraction(hits, i)
    return total / sum(rels)


def err(grades, g_max):
    reach, total = Fraction(1), Fraction(0)
    for r, g in enumerate(grades, start=1):
        satisfied = Fraction(2**g - 1, 2**g_max)
        total += reach * satisfied / r
        reach *= 1 - satisfied
    return total


def correct(exercise_id):
    return lt.exercises.get(exercise_id).correct


def test_dcg_a_or_b():
    assert dcg([5, 3, 4, 2, 1]) > dcg([5, 1, 3, 2, 4])  # B: 44.595 > 42.226 (document 002)
    assert correct("dcg-a-or-b") == "b"


def test_ndcg_log_base():
    mac = [3, 2, 3, 0, 1, 2, 2]
    assert ndcg(mac, discount=lambda i: math.log(i + 1)) == pytest.approx(ndcg(mac), abs=1e-12)
    assert correct("ndcg-log-base") == "same"


def test_ndcg_pool_or_list():
    shown, pool = [5, 3, 2, 1, 2], [5, 3, 2, 1, 2, 4, 0]
    assert ndcg(shown) > ndcg(shown, ideal=pool)  # 0.9977 > 0.8296
    assert correct("ndcg-pool-or-list") == "list"


def test_ndcg_gain_reversal():
    x, y = [3, 0, 0, 2, 2], [2, 3, 2, 0, 0]
    assert ndcg(x) > ndcg(y)  # the prompt's claim: exponential gain prefers X
    assert ndcg(y, gain=lambda g: g) > ndcg(x, gain=lambda g: g)
    assert correct("ndcg-gain-reversal") == "y"


def test_ndcg_jarvelin_swap():
    jarvelin = lambda i: max(1, math.log2(i))
    assert ndcg([2, 3, 2, 0, 0], discount=jarvelin) == ndcg([3, 2, 2, 0, 0], discount=jarvelin) == 1
    assert correct("ndcg-jarvelin-swap") == "same"


def test_ndcg_rises_at_k():
    sxs = [2, 2, 3, 1, 2, 3, 1]
    n3, n4, n5 = (ndcg(sxs, k=k) for k in (3, 4, 5))
    assert n5 > n4 < n3  # rises at 5 (share 3/3 = 1 > NDCG@4), fell at 4: the "longer" diagnosis holds
    assert correct("ndcg-rises-at-k") == "share"


def test_ndcg_unjudged_dropped():
    shown = [5, 3, 2, 1, 2]
    assert ndcg(shown, ideal=[5, 3, 2, 1, 2, 0]) > ndcg(shown, ideal=[5, 3, 2, 1, 2, 4, 0])
    assert correct("ndcg-unjudged-dropped") == "idcg"


def test_err_second_great():
    one, two = err([3, 0, 0, 0, 0], 3), err([3, 3, 0, 0, 0], 3)  # 7/8 and 7/8 + (1/8)(7/8)/2 = 119/128
    assert two == Fraction(119, 128) and two / one - 1 < Fraction(7, 100)
    assert dcg([3, 3, 0, 0, 0]) / dcg([3, 0, 0, 0, 0]) - 1 > 0.6  # the prompt's "about 63 %"
    assert correct("err-second-great") == "less"


def test_err_gmax_4():
    assert err([3, 2, 3, 1], 4) < err([3, 2, 3, 1], 3)
    assert correct("err-gmax-4") == "lower"


def test_err_weak_first():
    assert err([3, 2, 3, 1], 3) == Fraction(45295, 49152) and err([1, 3, 2, 3], 3) == Fraction(8789, 16384)
    assert correct("err-weak-first") == "reach"


def test_metric_for_navigational_is_err():
    assert correct("metric-for-navigational") == "err"


@pytest.mark.parametrize("exercise_id, answer", [
    ("ndcg-prefers-a-ap-prefers-b", "[3, 0, 1, 1] [1, 1, 3, 0]"),
    ("ndcg-prefers-a-ap-prefers-b", "[3,0,0,2,1] [1,2,3,0,0]"),
    ("err-prefers-a-ndcg-prefers-b", "[2, 1, 3, 3, 3] [1, 3, 3, 3, 2]"),
])
def test_create_accepts_a_right_pair(exercise_id, answer):
    a, b = ([int(x) for x in part.strip("[] ").split(",")] for part in answer.replace("] [", "]|[").split("|"))
    if exercise_id.startswith("ndcg"):
        assert ndcg(a) > ndcg(b) and ap([g >= 1 for g in a]) < ap([g >= 1 for g in b])  # the property, by hand
    else:
        assert err(a, 3) > err(b, 3) and ndcg(a) < ndcg(b)
    assert lt.check(exercise_id, answer).correct


@pytest.mark.parametrize("exercise_id, answer, complaint", [
    ("ndcg-prefers-a-ap-prefers-b", "[1, 1, 3, 0] [3, 0, 1, 1]", "NDCG does not prefer A"),  # the example reversed
    ("ndcg-prefers-a-ap-prefers-b", "[3, 0, 1, 1] [1, 1, 2, 0]", "same judged items"),      # B's grades differ
    ("ndcg-prefers-a-ap-prefers-b", "[3, 1, 1, 0] [1, 1, 3, 0]", "AP does not prefer B"),   # AP ties at 1
    ("ndcg-prefers-a-ap-prefers-b", "[0, 0, 0] [0, 0, 0]", "no item is relevant"),
    ("ndcg-prefers-a-ap-prefers-b", "[4, 0, 1] [1, 0, 4]", "whole grades from 0 to 3"),
    ("err-prefers-a-ndcg-prefers-b", "[1, 3, 3, 3, 2] [2, 1, 3, 3, 3]", "ERR does not prefer A"),
    ("err-prefers-a-ndcg-prefers-b", "[3, 2, 1] [1, 2, 3]", "NDCG does not prefer B"),     # both prefer A
])
def test_create_refuses_a_near_miss_and_says_why(exercise_id, answer, complaint):
    feedback = lt.check(exercise_id, answer)
    assert not feedback.correct
    assert complaint in str(feedback)
