"""The online family: every right option is what the library (or a hand computation here) gives, every diagnosed
slip gives the wrong option it diagnoses, and the create example passes its verifier while the same grades in the
best order do not."""

import math
from fractions import Fraction

from scipy.stats import norm

import ltr_teach as lt
from ltr_teach.teaching import course_path
from ltr_teach.teaching.bank import online

BY_ID = {ex.id: ex for ex in online.EXERCISES}


def test_the_team_draft_credit_and_the_stop():
    merged = lt.online.team_draft(["d1", "d2", "d3", "d5"], ["d2", "d4", "d1", "d6"], "BAB")
    assert merged.results[3] == "d4" and merged.teams[3] == "B" and BY_ID["online-team-draft-credit"].correct == "credit-b"
    # the slip: B first again in round 2 puts A's d3 at rank 4
    assert lt.online.team_draft(["d1", "d2", "d3", "d5"], ["d2", "d4", "d1", "d6"], "BBB").teams[3] == "A"
    stopped = lt.online.team_draft(["d1", "d2", "d3"], ["d2", "d4", "d1"], "AB")
    assert stopped.results == ("d1", "d2", "d4") and BY_ID["online-team-draft-stops"].correct == "three"


def test_several_clicks_and_balanced_credit():
    teams = ["A", "B", "B", "A", "B"]
    clicked = [1, 3, 5]
    assert sum(teams[r - 1] == "B" for r in clicked) > sum(teams[r - 1] == "A" for r in clicked)
    assert BY_ID["online-multi-click-winner"].correct == "wins-b"
    merged = lt.online.balanced(["a", "b", "c"], ["b", "c", "a"], "A")
    assert merged.results == ("a", "b", "c") and merged.winner(3, ["a", "b", "c"], ["b", "c", "a"]) == "B"
    assert BY_ID["online-balanced-credit"].correct == "bal-b"


def test_the_exact_chance_to_win_by_hand():
    a_first = (Fraction(3, 4), Fraction(1, 4) * Fraction(1, 4))      # p[A] x[B]
    b_first = (Fraction(3, 4) * Fraction(3, 4), Fraction(1, 4))      # x[B] p[A]: A needs x skipped
    delta = (a_first[0] + b_first[0] - a_first[1] - b_first[1]) / 2
    assert delta == Fraction(1, 2) == lt.online.interleaving_preference(["p", "x"], ["x", "p"], {"p": 2, "x": 1},
                                                                        g_max=2).exact
    # the two slips: A always first, B always first
    assert a_first[0] - a_first[1] == Fraction(11, 16) and b_first[0] - b_first[1] == Fraction(5, 16)
    assert BY_ID["online-win-probability"].correct == "half"


def test_the_sample_sizes_follow_scipys_quantiles():
    def per_arm(pa, pb, z_a):
        mean = (pa + pb) / 2
        return (z_a * math.sqrt(2 * mean * (1 - mean)) + norm.ppf(0.8) * math.sqrt(pa * (1 - pa) + pb * (1 - pb))) \
            ** 2 / (pa - pb) ** 2

    two_sided = per_arm(0.30, 0.32, norm.ppf(0.975))
    assert 8350 < two_sided < 8450 and abs(lt.online.ab_users_per_arm(0.30, 0.32) - two_sided) < 1e-6
    assert 6550 < per_arm(0.30, 0.32, norm.ppf(0.95)) < 6650        # the one-sided slip
    assert 3.9 < per_arm(0.30, 0.31, norm.ppf(0.975)) / two_sided < 4.1
    assert BY_ID["online-ab-sample-size"].correct == "n-8400" and BY_ID["online-ab-scaling"].correct == "times-4"


def test_the_interleaving_sample_size_by_hand():
    q, decisive = 0.6 / 0.8, 0.8
    m = (norm.ppf(0.975) * 0.5 + norm.ppf(0.8) * math.sqrt(q * (1 - q))) ** 2 / (q - 0.5) ** 2
    assert 28.5 < m < 29.5 and 35.5 < m / decisive < 36.5 and 22.5 < m * decisive < 23.5   # right, and two slips
    assert abs(lt.online.interleaving_users(0.6, 0.2) - m / decisive) < 1e-9
    assert BY_ID["online-interleaving-sample-size"].correct == "m-36"


def test_a_reordering_keeps_the_click_rate():
    grades = {"a": 3, "b": 1, "c": 2}
    assert lt.online.click_rate(["a", "b", "c"], grades, 3).exact == lt.online.click_rate(["b", "a", "c"], grades, 3).exact
    assert BY_ID["online-click-rate-order"].correct == "equal"
    assert BY_ID["online-derive-click-rate-order"].correct == "replace"


def test_the_create_example_and_the_best_order():
    exercise = BY_ID["online-same-rate-lower-err"]
    assert exercise.verify([0, 0, 1, 3]) is None
    assert exercise.verify([3, 1, 0, 0]) is not None and exercise.verify([1, 3, 0, 0]) is not None
    # ERR of [3, 1, 0, 0] = 7/8 + 1/2 · 1/8 · 1/8 = 113/128; of [0, 0, 1, 3] = 1/3 · 1/8 + 1/4 · 7/8 · 7/8
    assert lt.err([3, 1, 0, 0], g_max=3).exact == Fraction(113, 128)
    assert lt.err([0, 0, 1, 3], g_max=3).exact == Fraction(1, 24) + Fraction(49, 256)


def test_the_noisy_users_turn_the_verdict_to_b():
    facts = online._disagreement()
    assert float(facts["ndcg_b"]) > float(facts["ndcg_a"])
    assert float(facts["cascade_a"]) > float(facts["cascade_b"]) and float(facts["noisy_b"]) > float(facts["noisy_a"])
    assert BY_ID["online-noisy-verdict"].correct == "now-b"


def test_the_family_reaches_level_three_and_has_a_sheet():
    assert sum(ex.level == 3 for ex in online.EXERCISES) >= 7
    assert {"derive", "written", "create"} <= {ex.kind for ex in online.EXERCISES}
    assert course_path.sheet("12_online_evaluation").family == "online"
    for ex in online.EXERCISES:
        if ex.kind in ("derive", "written"):
            assert len(ex.rubric) >= 4 and "Rubric" not in ex.model  # the criteria live in rubric=
