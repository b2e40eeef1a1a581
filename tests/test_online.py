"""Online evaluation (lt.online): interleaving by hand (Radlinski et al.'s team draft stops when a list is used up),
the exact outcome against a brute force written here with Fractions (every coin sequence, every click pattern of
the click model), the sample sizes against SciPy's normal quantiles, a seeded simulation against the exact
fractions, and the hostile inputs of issue 32."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from scipy.stats import norm

import ltr_teach as lt

A = ["a", "b", "c", "d", "e"]
B = ["b", "a", "d", "c", "f"]
GRADES = {"a": 3, "b": 1, "c": 2, "d": 0, "e": 1, "f": 0}


def test_team_draft_by_hand():
    # round 1, B first: B adds b, A adds a; round 2, A first: A adds c, B adds d; round 3, A first: A adds e, and
    # then A has nothing left that is not shown: the merge stops before B's f
    merged = lt.online.team_draft(A, B, "BAA")
    assert merged.results == ("b", "a", "c", "d", "e")
    assert merged.teams == ("B", "A", "A", "B", "A")
    assert merged.coins == "BAA"


def test_team_draft_stops_when_one_list_has_nothing_new():
    # Radlinski, Kurup & Joachims (2008), Algorithm 2: "while (∃i: A[i] ∉ I) ∧ (∃j: B[j] ∉ I)".
    # round 1, A first: a1 (A), s (B); round 2, B first: b2 (B), a3 (A); A is used up: b3 is never shown and the
    # third coin is never read
    merged = lt.online.team_draft(["a1", "s", "a3"], ["s", "b2", "b3"], coins="ABA")
    assert merged.results == ("a1", "s", "b2", "a3") and merged.teams == ("A", "B", "B", "A")
    assert merged.coins == "AB"
    # the team that is behind picks without a coin: A first in round 1, then B; B has nothing new after "x"
    merged = lt.online.team_draft(["x", "y", "z"], ["x"], coins="A")
    assert merged.results == ("x",) and merged.teams == ("A",)


def test_balanced_by_hand():
    # Joachims' loop, B first: B's b, A's a, B's a (shown: nothing), A's b (shown), B's d, A's c, B's c (shown),
    # A's d (shown), B's f; B is exhausted and the merge stops (A's e is never shown)
    merged = lt.online.balanced(A, B, first="B")
    assert merged.results == ("b", "a", "d", "c", "f")
    # each result counts for the system that ranks it higher: d is B's 3rd and A's 4th, c is A's 3rd and B's 4th
    assert merged.teams == ("B", "A", "B", "A", "B")


# -- the brute force ---------------------------------------------------------------------------------------------
def _merged_lists(a, b, method):
    """(weight, results, teams) for every full coin sequence: a merge that stops early ignores its spare coins."""
    if method == "balanced":
        return [(Fraction(1, 2), lt.online.balanced(a, b, f)) for f in "AB"]
    rounds = (len(set(a) | set(b)) + 1) // 2
    return [(Fraction(1, 2 ** rounds), lt.online.team_draft(a, b, "".join(c)))
            for c in itertools.product("AB", repeat=rounds)]


def _click_patterns(probs, keep):
    """Every set of clicked ranks with its probability: per rank read, click and go on (c·λ), click and stop
    (c·(1 − λ)) or skip (1 − c); a user who stops reads nothing more."""
    out = []
    for events in itertools.product(("go", "stop", "skip"), repeat=len(probs)):
        p, clicked, reading = Fraction(1), [], True
        for i, (event, c) in enumerate(zip(events, probs)):
            if not reading:
                if event != "skip":
                    p = Fraction(0)
                continue
            p *= {"go": c * keep, "stop": c * (1 - keep), "skip": 1 - c}[event]
            if event != "skip":
                clicked.append(i)
            reading = event != "stop"
        if p:
            out.append((p, clicked))
    return out


def _judge(merged, clicked, a, b):
    """The winner of one impression: team draft counts the teams' clicks; balanced applies Joachims' rule."""
    if not clicked:
        return "tie"
    if merged.method == "team_draft":
        ca = sum(merged.teams[i] == "A" for i in clicked)
        cb = sum(merged.teams[i] == "B" for i in clicked)
    else:
        deepest = merged.results[max(clicked)]
        k = min(a.index(deepest) + 1 if deepest in a else 99, b.index(deepest) + 1 if deepest in b else 99)
        ca = sum(merged.results[i] in a[:k] for i in clicked)
        cb = sum(merged.results[i] in b[:k] for i in clicked)
    return "A" if ca > cb else "B" if cb > ca else "tie"


def _brute_force(a, b, grades, g_max, method, click=None, keep=Fraction(0)):
    outcomes = {"A": Fraction(0), "B": Fraction(0), "tie": Fraction(0)}
    for weight, merged in _merged_lists(a, b, method):
        probs = [Fraction(click[grades.get(d, 0)]) if click else Fraction(2 ** grades.get(d, 0) - 1, 2 ** g_max)
                 for d in merged.results]
        for p, clicked in _click_patterns(probs, keep):
            outcomes[_judge(merged, clicked, a, b)] += weight * p
    return outcomes


CASES = [(A, B, GRADES, 3), (["p", "x"], ["x", "p"], {"p": 3, "x": 0}, 3),
         (["x", "y", "z"], ["z", "y", "x", "w"], {"x": 1, "y": 2, "z": 4, "w": 4}, 4)]
NOISY = {0: Fraction(1, 10), 1: Fraction(3, 10), 2: Fraction(1, 2), 3: Fraction(7, 10), 4: Fraction(9, 10)}


@pytest.mark.parametrize("method", ["team_draft", "balanced"])
@pytest.mark.parametrize(("a", "b", "grades", "g_max"), CASES)
@pytest.mark.parametrize(("click", "keep"), [(None, Fraction(0)), (None, Fraction(1, 2)), (NOISY, Fraction(2, 3))])
def test_the_exact_outcome_equals_a_brute_force(a, b, grades, g_max, method, click, keep):
    ex = lt.online.interleaving_preference(a, b, grades, g_max, method, click=click, keep_reading=keep)
    expected = _brute_force(a, b, grades, g_max, method, click, keep)
    got = {"A": ex.parts["a_wins"].exact, "B": ex.parts["b_wins"].exact, "tie": ex.parts["tie"].exact}
    assert {k: Fraction(int(v.p), int(v.q)) for k, v in got.items()} == expected
    assert ex.exact == got["A"] - got["B"]


def test_a_single_click_outcome_by_hand():
    # ["p", "x"] against ["x", "p"], p grade 3 of 3 (R = 7/8), x grade 0. Team draft: A first gives p[A] x[B], B
    # first gives x[B] p[A]: either way the only click possible is on p, A's: P(A wins) = 7/8, P(B wins) = 0
    ex = lt.online.interleaving_preference(["p", "x"], ["x", "p"], {"p": 3, "x": 0}, g_max=3)
    assert (ex.parts["a_wins"].exact, ex.parts["b_wins"].exact) == (Fraction(7, 8), 0)
    # a noisy user clicks x with 1/10 and p with 7/10, and reads on after a click with 1/2. A first (p, x): A wins
    # unless p is skipped (B wins if x is then clicked) or both are clicked (a tie):
    #   P(A) = 7/10·(1/2 + 1/2·9/10) = 133/200, P(B) = 3/10·1/10 = 3/100, tie = 7/10·1/2·1/10 + 3/10·9/10 = 61/200;
    # B first (x, p): P(B) = 1/10·1/2 + 1/10·1/2·3/10 = 13/200, P(A) = 9/10·7/10 = 63/100
    noisy = lt.online.interleaving_preference(["p", "x"], ["x", "p"], {"p": 3, "x": 0}, click={0: 0.1, 3: 0.7},
                                              keep_reading=0.5)
    assert noisy.parts["a_wins"].exact == (Fraction(133, 200) + Fraction(63, 100)) / 2
    assert noisy.parts["b_wins"].exact == (Fraction(3, 100) + Fraction(13, 200)) / 2


def test_the_click_rate_is_one_minus_the_chance_of_never_clicking():
    never = Fraction(1)
    for doc in A:
        never *= 1 - Fraction(2 ** GRADES[doc] - 1, 8)
    assert lt.online.click_rate(A, GRADES, 3).exact == 1 - never  # 3851/4096
    # the order does not matter, nor does reading on after a click
    assert lt.online.click_rate(A[::-1], GRADES, 3).exact == 1 - never


def test_users_needed_follow_the_normal_approximations():
    result = lt.online.users_needed(A, B, GRADES, 3)
    z_a, z_b = norm.ppf(0.975), norm.ppf(0.8)
    pa, pb = 3851 / 4096, 477 / 512
    mean = (pa + pb) / 2
    ab = (z_a * (2 * mean * (1 - mean)) ** 0.5 + z_b * (pa * (1 - pa) + pb * (1 - pb)) ** 0.5) ** 2 / (pa - pb) ** 2
    assert result.ab_per_arm == pytest.approx(ab, rel=1e-12)
    exact = _brute_force(A, B, GRADES, 3, "team_draft")
    wins_a, wins_b = float(exact["A"]), float(exact["B"])
    q = wins_a / (wins_a + wins_b)
    m = (z_a * 0.5 + z_b * (q * (1 - q)) ** 0.5) ** 2 / (q - 0.5) ** 2
    assert result.interleaving_total == pytest.approx(m / (wins_a + wins_b), rel=1e-12)
    assert result.ratio > 1000   # the click rates differ by 0.009; interleaving sees A win 0.92 of decided users


def test_a_reordering_is_invisible_to_the_click_rate_and_the_ratio_says_so():
    # the same results in another order: the click rate is the same, so no A/B test on it can tell them apart
    result = lt.online.users_needed(A, A[::-1], GRADES, 3)
    assert result.ab_total == math.inf and result.ratio == math.inf and math.isfinite(result.interleaving_total)


def test_identical_systems_are_refused_not_nan():
    with pytest.raises(ValueError, match="cannot be told apart"):
        lt.online.users_needed(A, A, GRADES, 3)


def test_all_zero_grades_mean_nobody_clicks():
    # no result satisfies: the cascade user never clicks, every impression is a tie, whatever the scale
    ex = lt.online.interleaving_preference(A, B, dict.fromkeys(GRADES, 0))
    assert (ex.parts["tie"].exact, ex.exact) == (1, 0)
    assert lt.online.click_rate(A, {}).exact == 0
    with pytest.raises(ValueError, match="cannot be told apart"):
        lt.online.users_needed(A, B, dict.fromkeys(GRADES, 0))


def test_numpy_integers_are_read_as_whole_numbers():
    np_grades = {k: np.int64(v) for k, v in GRADES.items()}
    assert lt.online.interleaving_preference(A, B, np_grades, np.int32(3)).exact == \
        lt.online.interleaving_preference(A, B, GRADES, 3).exact
    merged = lt.online.team_draft([np.int64(1), 2], [2, 3], "A")
    assert merged.results == (1, 2) and merged.winner(np.int64(1), [1, 2], [2, 3]) == "A"
    sim = lt.online.simulate(A, B, GRADES, 3, n_users=np.int64(10), seed=np.uint8(3))
    assert sum(sim.interleaving.values()) == 10


@pytest.mark.parametrize(("method", "click", "keep"), [("team_draft", None, 0), ("balanced", NOISY, Fraction(1, 2)),
                                                       ("team_draft", NOISY, Fraction(1, 2))])
def test_a_simulation_lands_near_the_exact_fractions(method, click, keep):
    n = 200_000
    grades = {k: min(v, 3) for k, v in GRADES.items()}
    sim = lt.online.simulate(A, B, grades, 3, method=method, n_users=n, seed=0, click=click, keep_reading=keep)
    exact = _brute_force(A, B, grades, 3, method, click, keep)
    for key in ("A", "B", "tie"):
        p = float(exact[key])
        assert abs(sim.interleaving[key] / n - p) <= 4 * (p * (1 - p) / n) ** 0.5 + 1e-12
    for name, ranking in (("A", A), ("B", B)):
        p = float(lt.online.click_rate(ranking, grades, 3, click=click).exact)
        users = sim.ab_users[name]
        assert abs(sim.ab[name] / users - p) <= 4 * (p * (1 - p) / users) ** 0.5


def test_the_simulation_repeats_with_its_seed_and_takes_a_million_users():
    first = lt.online.simulate(A, B, GRADES, 3, n_users=10**6, seed=5)
    assert sum(first.interleaving.values()) == 10**6 and sum(first.ab_users.values()) == 10**6
    assert lt.online.simulate(A, B, GRADES, 3, n_users=1000, seed=5) == \
        lt.online.simulate(A, B, GRADES, 3, n_users=1000, seed=5)


def test_the_chinese_reader_sees_chinese():
    sim = lt.online.simulate(A, B, GRADES, 3, n_users=100, seed=0)
    needed = lt.online.users_needed(A, B, GRADES, 3)
    with lt.core.i18n.using_language("zh"):
        texts = [str(sim), str(needed), str(lt.online.interleaving_preference(A, B, GRADES, 3)),
                 str(lt.online.click_rate(A, GRADES, 3))]
    for text in texts:
        for word in ("users", "interleaving", "A/B test:", "wins", "coins", "probability", "rank", "tie", "ratio"):
            assert word not in text, (word, text)


# -- hostile input ----------------------------------------------------------------------------------------------
def test_an_endless_ranking_is_refused_without_reading_it():
    with pytest.raises(ValueError, match="ranking_a must hold 1 to 20 results; got more than 20"):
        lt.online.team_draft(itertools.count(), ["b"], "A")
    with pytest.raises(ValueError, match="ranking_b must hold 1 to 20 results; got more than 20"):
        lt.online.interleaving_preference(["a"], range(10**12), {"a": 1})


def test_endless_coins_are_read_only_as_far_as_the_merge_needs():
    merged = lt.online.team_draft(A, B, itertools.cycle("BA"))
    assert merged.coins == "BAB"
    merged = lt.online.team_draft(A, B, iter(lambda: "A", None))  # an iterator that never ends
    assert merged.coins == "AAA"


def test_team_draft_within_the_promise_answers_and_beyond_it_is_refused():
    # two disjoint lists of 10: 2^10 coin outcomes, the promise's limit
    a, b = [f"a{i}" for i in range(10)], [f"b{i}" for i in range(10)]
    grades = {d: i % 4 for i, d in enumerate(a + b)}
    ex = lt.online.interleaving_preference(a, b, grades, 3, keep_reading=0.5)
    assert len(ex.steps) == 1024
    # disjoint lists of 14 (and of 20): refused at once, and balanced interleaving still answers
    for n in (14, 20):
        a, b = [f"a{i}" for i in range(n)], [f"b{i}" for i in range(n)]
        with pytest.raises(ValueError, match=rf"hold {2 * n} different results together; .* at most 20"):
            lt.online.interleaving_preference(a, b, {"a0": 1})
        with pytest.raises(ValueError, match="at most 20"):
            lt.online.simulate(a, b, {"a0": 1})
        assert len(lt.online.interleaving_preference(a, b, {"a0": 1}, method="balanced").steps) == 2


@pytest.mark.parametrize("rank", [0, -1, 6, True, 1.0, "1"])
def test_winner_takes_ranks_1_to_the_lists_length(rank):
    merged = lt.online.team_draft(A, B, "AAA")
    with pytest.raises(ValueError, match=r"clicked_rank = .* from 1 to 5"):
        merged.winner(rank, A, B)


@pytest.mark.parametrize("seed", [1.5, "7", True, -1, 2**64, None])
def test_the_seed_is_a_whole_number(seed):
    with pytest.raises(ValueError, match="seed = .* whole number from 0"):
        lt.online.simulate(A, B, GRADES, 3, seed=seed)


@pytest.mark.parametrize(("call", "message"), [
    (lambda: lt.online.team_draft(["a", "a"], ["b"], "A"), "lists a result twice"),
    (lambda: lt.online.team_draft([], ["b"], "A"), "ranking_a must hold 1 to 20 results; got 0"),
    (lambda: lt.online.team_draft(list(range(21)), ["b"], "A"), "ranking_a must hold 1 to 20 results; got more"),
    (lambda: lt.online.team_draft("abc", ["b"], "A"), "ranking_a must be a list"),
    (lambda: lt.online.team_draft([["a"], ["b"]], ["b"], "A"), r"ranking_a\[0\] = \['a'\] is not allowed; a result id"),
    (lambda: lt.online.team_draft([{"a"}], ["b"], "A"), r"ranking_a\[0\] = .* is not allowed"),
    (lambda: lt.online.team_draft(["a", 1.5], ["b"], "A"), r"ranking_a\[1\] = 1.5 is not allowed"),
    (lambda: lt.online.team_draft(["a"], ["b"], "CA"), r"coins\[0\] = 'C' is not allowed"),
    (lambda: lt.online.team_draft(["a"], ["b"], "Ａ"), r"coins\[0\] = 'Ａ' is not allowed"),
    (lambda: lt.online.team_draft(["a"], ["b"], 5), "coins must be a sequence of 'A' and 'B' .one per round.; got 5"),
    (lambda: lt.online.team_draft(["a", "c"], ["b", "d"], "A"), "coins ran out after 1"),
    (lambda: lt.online.balanced(["a"], ["b"], first="C"), "first"),
    (lambda: lt.online.interleaving_preference(A, B, {"a": 1.5}, 3), r"grades\['a'\] = 1.5 is not allowed"),
    (lambda: lt.online.interleaving_preference(A, B, {"a": -1}, 3), r"grades\['a'\] = -1 is not allowed"),
    (lambda: lt.online.interleaving_preference(A, B, {"a": 10**400}, 3), r"grades\['a'\] = .* from 0 to 20"),
    (lambda: lt.online.interleaving_preference(A, B, [3, 2], 3), "grades must be a dict"),
    (lambda: lt.online.interleaving_preference(A, B, GRADES, 2), "g_max = 2 is not allowed"),
    (lambda: lt.online.interleaving_preference(A, B, GRADES, 10**400), "g_max"),
    (lambda: lt.online.interleaving_preference(A, B, GRADES, 1e999999999), "g_max = inf is not allowed"),
    (lambda: lt.online.interleaving_preference(A, B, GRADES, 3, method="probabilistic"), "method"),
    (lambda: lt.online.interleaving_preference(A, B, GRADES, click={0: 0.1}), "click has no probability for grade 1"),
    (lambda: lt.online.interleaving_preference(A, B, GRADES, click={g: 1.5 for g in range(4)}),
     r"click\[0\] = 1.5 is not allowed; it must be a probability from 0 to 1"),
    (lambda: lt.online.interleaving_preference(A, B, GRADES, click={g: float("nan") for g in range(4)}),
     r"click\[0\]"),
    (lambda: lt.online.interleaving_preference(A, B, GRADES, click=[0.1, 0.2]), "click must be a dict"),
    (lambda: lt.online.interleaving_preference(A, B, GRADES, keep_reading=2), "keep_reading = 2 is not allowed"),
    (lambda: lt.online.interleaving_preference(A, B, GRADES, keep_reading="0.5"), "keep_reading = '0.5'"),
    (lambda: lt.online.interleaving_preference(A, B, GRADES, keep_reading=True), "keep_reading = True"),
    (lambda: lt.online.users_needed(A, B, GRADES, 3, alpha=0), "alpha = 0 is not allowed; it must be a number"),
    (lambda: lt.online.users_needed(A, B, GRADES, 3, alpha=1e-300), "alpha = 1e-300 is not allowed; .* from 1e-09"),
    (lambda: lt.online.users_needed(A, B, GRADES, 3, alpha=float("nan")), "alpha = nan is not allowed"),
    (lambda: lt.online.users_needed(A, B, GRADES, 3, power=1), "power = 1 is not allowed"),
    (lambda: lt.online.users_needed(A, B, GRADES, 3, power="high"), "power = 'high' is not allowed"),
    (lambda: lt.online.simulate(A, B, GRADES, 3, n_users=10**9), "n_users = 1000000000 is not allowed"),
    (lambda: lt.online.simulate(A, B, GRADES, 3, n_users=True), "n_users = True"),
    (lambda: lt.online.simulate(A, B, GRADES, 3, n_users=1e999999999), "n_users = inf"),
])
def test_bad_input_names_the_argument(call, message):
    with pytest.raises(ValueError, match=message):
        call()
