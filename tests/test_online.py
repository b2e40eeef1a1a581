"""Online evaluation (lt.online): interleaving by hand, the cascade user's exact outcome against a brute force
over every coin sequence and every stop written here with Fractions, the sample sizes against SciPy's normal
quantiles, and a seeded simulation against the exact fractions."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from scipy.stats import norm

import ltr_teach as lt

A = ["a", "b", "c", "d", "e"]
B = ["b", "a", "d", "c", "f"]
GRADES = {"a": 3, "b": 1, "c": 2, "d": 0, "e": 1, "f": 0}


def test_team_draft_by_hand():
    # round 1, B first: B adds b, A adds a; round 2, A first: A adds c, B adds d; round 3, A first: e, then f
    merged = lt.online.team_draft(A, B, "BAA")
    assert merged.results == ("b", "a", "c", "d", "e", "f")
    assert merged.teams == ("B", "A", "A", "B", "A", "B")


def test_balanced_by_hand():
    # Joachims' loop, B first: B's b, A's a, B's a (shown: nothing), A's b (shown), B's d, A's c, B's c (shown),
    # A's d (shown), B's f; B is exhausted and the merge stops (A's e is never shown)
    merged = lt.online.balanced(A, B, first="B")
    assert merged.results == ("b", "a", "d", "c", "f")
    # each result counts for the system that ranks it higher: d is B's 3rd and A's 4th, c is A's 3rd and B's 4th
    assert merged.teams == ("B", "A", "B", "A", "B")


def _brute_force(a, b, grades, g_max, method):
    """P(A credited), P(B credited), P(no click), from every coin outcome and every stop rank, in Fractions."""
    outcomes = {"A": Fraction(0), "B": Fraction(0), "tie": Fraction(0)}
    if method == "team_draft":
        rounds = (len(set(a) | set(b)) + 1) // 2
        patterns = [(Fraction(1, 2 ** rounds), lt.online.team_draft(a, b, c))
                    for c in itertools.product("AB", repeat=rounds)]
    else:
        patterns = [(Fraction(1, 2), lt.online.balanced(a, b, f)) for f in "AB"]
    for weight, merged in patterns:
        reach = Fraction(1)
        for doc, team in zip(merged.results, merged.teams):
            stop = Fraction(2 ** grades.get(doc, 0) - 1, 2 ** g_max)
            outcomes[team] += weight * reach * stop
            reach *= 1 - stop
        outcomes["tie"] += weight * reach
    return outcomes


@pytest.mark.parametrize("method", ["team_draft", "balanced"])
@pytest.mark.parametrize(("a", "b", "grades", "g_max"), [
    (A, B, GRADES, 3), (["p", "x"], ["x", "p"], {"p": 3, "x": 0}, 3),
    (["x", "y", "z"], ["z", "y", "x", "w"], {"x": 1, "y": 2, "z": 4, "w": 4}, 4),
])
def test_the_exact_outcome_equals_a_brute_force(a, b, grades, g_max, method):
    ex = lt.online.interleaving_preference(a, b, grades, g_max, method)
    expected = _brute_force(a, b, grades, g_max, method)
    got = {"A": ex.parts["a_wins"].exact, "B": ex.parts["b_wins"].exact, "tie": ex.parts["tie"].exact}
    assert {k: Fraction(int(v.p), int(v.q)) for k, v in got.items()} == expected
    assert ex.exact == got["A"] - got["B"]


def test_the_click_rate_is_one_minus_the_chance_of_never_stopping():
    never = Fraction(1)
    for doc in A:
        never *= 1 - Fraction(2 ** GRADES[doc] - 1, 8)
    assert lt.online.click_rate(A, GRADES, 3).exact == 1 - never  # 3851/4096


def test_users_needed_follow_the_normal_approximations():
    result = lt.online.users_needed(A, B, GRADES, 3)
    z_a, z_b = norm.ppf(0.975), norm.ppf(0.8)
    pa, pb = 3851 / 4096, 477 / 512
    mean = (pa + pb) / 2
    ab = (z_a * (2 * mean * (1 - mean)) ** 0.5 + z_b * (pa * (1 - pa) + pb * (1 - pb)) ** 0.5) ** 2 / (pa - pb) ** 2
    assert result.ab_per_arm == pytest.approx(ab, rel=1e-12)
    wins_a, wins_b = 3563 / 4096, 9 / 128
    q = wins_a / (wins_a + wins_b)
    m = (z_a * 0.5 + z_b * (q * (1 - q)) ** 0.5) ** 2 / (q - 0.5) ** 2
    assert result.interleaving_total == pytest.approx(m / (wins_a + wins_b), rel=1e-12)
    assert result.ratio > 1000   # the click rates differ by 0.009; interleaving sees A win 0.93 of decided users


def test_a_simulation_lands_near_the_exact_fractions():
    counts = lt.online.simulate(A, B, GRADES, 3, n_users=20000, seed=0)["interleaving"]
    exact = _brute_force(A, B, GRADES, 3, "team_draft")
    for key in ("A", "B", "tie"):
        p = float(exact[key])
        assert abs(counts[key] / 20000 - p) < 4 * (p * (1 - p) / 20000) ** 0.5


@pytest.mark.parametrize(("call", "message"), [
    (lambda: lt.online.team_draft(["a", "a"], ["b"], "A"), "lists a result twice"),
    (lambda: lt.online.team_draft([], ["b"], "A"), "ranking_a must hold 1 to 20 results"),
    (lambda: lt.online.team_draft(list(range(21)), ["b"], "A"), "ranking_a must hold 1 to 20 results; got 21"),
    (lambda: lt.online.team_draft("abc", ["b"], "A"), "ranking_a must be a list"),
    (lambda: lt.online.team_draft(["a"], ["b"], "AC"), "coins must be a sequence of 'A' and 'B'"),
    (lambda: lt.online.balanced(["a"], ["b"], first="C"), "first"),
    (lambda: lt.online.interleaving_preference(A, B, {"a": 1.5}, 3), r"grades\['a'\] = 1.5 is not allowed"),
    (lambda: lt.online.interleaving_preference(A, B, GRADES, 2), "g_max = 2 is not allowed"),
    (lambda: lt.online.interleaving_preference(A, B, GRADES, 10**400), "g_max"),
    (lambda: lt.online.interleaving_preference(A, B, GRADES, 3, method="probabilistic"), "method"),
    (lambda: lt.online.users_needed(A, B, GRADES, 3, alpha=0), "alpha = 0 is not allowed"),
    (lambda: lt.online.simulate(A, B, GRADES, 3, n_users=10**9), "n_users"),
    (lambda: lt.online.simulate(A, B, GRADES, 3, n_users=True), "n_users = True"),
])
def test_bad_input_names_the_argument(call, message):
    with pytest.raises(ValueError, match=message):
        call()
