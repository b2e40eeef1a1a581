"""The err family's exercises, in the order the exercise notebook asks them."""

from fractions import Fraction

from ...core.i18n import N_, _
from ...metrics.graded import err, ndcg
from ..kinds import _e, choice, create, derive
from ._compute import _err_data, _err_task, _persistent, _rbp_residual_task, _rbp_task

FAMILY = ("err", N_("ERR, the cascade model"))

# -- choice and create exercises of notebook 06 (predict, analyse, evaluate, create) -----------------------
_ERR_LIPSTICK = [3, 2, 3, 1]          # post 000's 口红 query, g_max = 3
_WEAK_FIRST = [1, 3, 2, 3]            # the grade-1 lip balm moved to rank 1


def _err_d(grades, g_max=3) -> str:
    return err(grades, g_max=g_max).decimal_str


def _err_prefers_a_ndcg_prefers_b(pair):
    a, b = ([int(g) for g in r] for r in pair)
    for name, r in (("A", a), ("B", b)):
        if not 3 <= len(r) <= 8:
            return _("ranking {name} has {n} items; give 3 to 8 grades").format(name=name, n=len(r))
        if any(g != int(g) or not 0 <= g <= 3 for g in r):
            return _("ranking {name} must hold whole grades from 0 to 3").format(name=name)
    if sorted(a) != sorted(b):
        return _("A and B must rank the same judged items: the same grades in another order "
                 "(A sorted: {a}; B sorted: {b})").format(a=sorted(a, reverse=True), b=sorted(b, reverse=True))
    if not any(a):
        return _("no item is relevant: give at least one grade of 1 or more")
    err_a, err_b = err(a, g_max=3), err(b, g_max=3)
    ndcg_a, ndcg_b = ndcg(a), ndcg(b)
    if not err_a.exact > err_b.exact:
        return _("ERR does not prefer A: ERR(A) ≈ {a}, ERR(B) ≈ {b}").format(a=err_a.decimal_str, b=err_b.decimal_str)
    if not ndcg_a.exact < ndcg_b.exact:
        return _("NDCG does not prefer B: NDCG(A) ≈ {a}, NDCG(B) ≈ {b}").format(a=ndcg_a.decimal_str,
                                                                             b=ndcg_b.decimal_str)
    return None


#: Grades for the users-who-never-stop derivation, on a 0-3 scale.
_NOBODY_STOPS = [3, 2, 3]


def _nobody_stops_facts() -> dict:
    steps = err(_NOBODY_STOPS, g_max=3).steps
    rs = [Fraction(str(row["R"])) for row in steps]
    none = Fraction(1)
    for r in rs:
        none *= 1 - r
    all_r = Fraction(1)
    for r in rs:
        all_r *= r
    return {"grades": ", ".join(map(str, _NOBODY_STOPS)), "rs": ", ".join(map(str, rs)), "none": str(none),
            "first": str(1 - rs[0]), "some": str(1 - none), "all_r": str(all_r)}


EXERCISES = [
    _e("err-lipstick", "err", "err", {"grades": [3, 2, 3, 1], "g_max": 3}, _err_task,
       [N_("R = 7/8, 3/8, 7/8, 1/8; P(reach rank 2) = 1/8.")], source="doc 000", randomize=_err_data,
       worked="000-err-lipstick"),
    _e("err-doc003", "err", "err", {"grades": [1, 2, 0, 2], "g_max": 2}, _err_task,
       [N_("R_i = (2^g − 1)/4: 1/4, 3/4, 0, 3/4.")],
       intro=N_("Post 003 defines ERR = Σ_r (1/r) R_r Π_{{i<r}} (1 − R_i) with R_i = (2^{{l_i}} − 1)/2^{{l_m}}."),
       source="doc 003", randomize=_err_data),
    _e("err-k3", "err", "err", {"grades": [1, 3, 0, 2, 3], "g_max": 3, "k": 3}, _err_task,
       [N_("Only ranks 1 to 3 count.")], randomize=_err_data),
    _e("err-gdeval", "err", "err", {"grades": [2, 4, 1, 0], "g_max": 4}, _err_task,
       [N_("gdeval fixes the maximum grade at 4: R_i = (2^g − 1)/16.")], randomize=_err_data),
    _e("rbp-half", "err", "rbp", {"grades": [1, 0, 1, 1, 0], "p": Fraction(1, 2)}, _rbp_task,
       [N_("Rank i is reached with probability p^(i-1); add those of the relevant ranks and multiply by 1 - p.")],
       randomize=_persistent),
    _e("rbp-residual", "err", "rbp_residual", {"grades": [1, 0, 1, 0], "p": Fraction(3, 4)}, _rbp_residual_task,
       [N_("Every rank below the list could be relevant: the user reaches them with probability p^d in all.")],
       randomize=_persistent),
    choice("err-second-great", family="err", kind="predict", title=N_("A second great item"),
           question=N_("On a 0–3 scale, [3, 0, 0, 0, 0] becomes [3, 3, 0, 0, 0]: a second grade-3 item at rank 2. "
                       "DCG grows by about 63 %. By how much does ERR grow?"),
           options={"less": N_("By much less than DCG (a few per cent)"), "same": N_("By about as much as DCG"),
                    "more": N_("By more than DCG")},
           correct="less",
           why={"same": N_("That is DCG's reasoning: each item adds its own discounted gain. In the cascade the second "
                           "item only serves the users the first did not satisfy: 1 in 8."),
                "more": N_("ERR is at most 1 and the first item alone already gives 7/8; it has little room to "
                           "grow.")},
           explanation=N_("ERR goes from {one} to {two}, about +6 %: the grade-3 item at rank 1 satisfies 7 users in "
                          "8, so only 1 in 8 reaches rank 2, where the second item is worth R_2 / 2 to them. An item's "
                          "worth depends on what is above it: ERR saturates, DCG adds."),
           facts=lambda: {"one": _err_d([3, 0, 0, 0, 0]), "two": _err_d([3, 3, 0, 0, 0])},
           hints=(N_("In the cascade model, a user satisfied at rank 1 never reads rank 2."),
                  N_("Compute the probability of reaching rank 2, then what rank 2 adds: reach · R_2 / 2."),
                  N_("R_1 = (2^3 − 1)/2^3 = 7/8, so P(reach rank 2) = 1/8.")),
           source="doc 000"),
    choice("err-gmax-4", family="err", kind="predict", title=N_("The same grades on a 0–4 scale"),
           question=N_("Post 000's 口红 query has grades [3, 2, 3, 1] on a 0–3 scale. gdeval.pl (the TREC Web "
                       "track's evaluator) always takes g_max = 4. How does ERR with g_max = 4 compare with "
                       "ERR with g_max = 3?"),
           options={"higher": N_("Higher"), "lower": N_("Lower"), "same": N_("The same")},
           correct="lower",
           why={"higher": N_("A larger g_max makes the denominator 2^g_max larger: every R_i shrinks, so fewer users "
                             "are satisfied anywhere."),
                "same": N_("Unlike the base of NDCG's logarithm, g_max does not cancel: ERR has no ideal to divide "
                           "by, and R_i = (2^g − 1)/2^g_max halves when g_max grows by one.")},
           explanation=N_("Lower: ≈ {four} against ≈ {three}. With g_max = 4 a grade-3 item satisfies 7 users in 16, "
                          "not 7 in 8. g_max is part of the metric: say which one you used."),
           facts=lambda: {"three": _err_d(_ERR_LIPSTICK, 3), "four": _err_d(_ERR_LIPSTICK, 4)},
           hints=(N_("g_max appears in every satisfaction probability R_i = (2^g_i − 1)/2^g_max."),
                  N_("Compute R_1 both ways."),
                  N_("g_max = 3: R_1 = 7/8; g_max = 4: R_1 = 7/16.")),
           source="doc 000"),
    choice("err-weak-first", family="err", kind="analyse", title=N_("Why did ERR drop so much?"),
           question=N_("Moving the grade-1 lip balm of post 000's 口红 query from rank 4 to rank 1 ([3, 2, 3, 1] "
                       "becomes [1, 3, 2, 3], g_max = 3) drops ERR from ≈ {before} to ≈ {after}. Why so much?"),
           options={"reach": N_("Most users now pass a weak item first, and every good item reaches them one rank "
                                "lower, where 1/r is smaller"),
                    "negative": N_("A grade-1 item has a negative worth at rank 1"),
                    "ideal": N_("ERR is divided by an ideal ERR, which grew"),
                    "log": N_("ERR's discount is 1/log2(r + 1), which punishes rank 1 most")},
           correct="reach",
           why={"negative": N_("R = (2^1 − 1)/8 = 1/8 > 0: the lip balm satisfies 1 user in 8 at rank 1 and adds 1/8 "
                               "to ERR. The loss comes from the items it pushes down."),
                "ideal": N_("ERR is not normalised: its formula has no ideal ERR to divide by (and the same grades "
                            "would give the same ideal in any order)."),
                "log": N_("ERR's discount is 1/r, and it is largest, not smallest, at rank 1.")},
           explanation=N_("At rank 1 the grade-3 item satisfied 7 users in 8 at 1/1. Now 7 in 8 pass the lip balm, "
                          "and the grade-3 items wait at ranks 2 and 4, worth 1/2 and 1/4 to the users who get there. "
                          "ERR rewards satisfying users early."),
           facts=lambda: {"before": _err_d(_ERR_LIPSTICK), "after": _err_d(_WEAK_FIRST)},
           hints=(N_("ERR = Σ (1/r) · P(the user stops at rank r): look at where the users stop now."),
                  N_("Compute P(stop at 1) and P(stop at 2) for [1, 3, 2, 3]."),
                  N_("P(stop at 1) = R_1 = 1/8, so 7/8 of the users get to rank 2.")),
           source="doc 000"),
    choice("metric-for-navigational", family="err", kind="evaluate", title=N_("One good answer is enough"),
           question=N_("A navigational query: the user wants one site (Taobao's official site) and leaves once they find it. Two "
                       "systems both show the official site at rank 1; one fills ranks 2–5 with near-copies of it, the "
                       "other with unrelated pages that are still somewhat useful. Which metric reflects that the copies "
                       "add almost nothing for this user?"),
           options={"err": N_("ERR"), "ndcg": N_("NDCG"), "cg": N_("CG@5"), "precision": N_("P@5")},
           correct="err",
           why={"ndcg": N_("NDCG adds every relevant item's discounted gain, whatever sits above it: four near-copies "
                           "of the best answer keep adding gain."),
                "cg": N_("CG@5 adds the grades of the top 5 and ignores both the order and what the user has already "
                         "found."),
                "precision": N_("P@5 counts the relevant items in the top 5: the copies count as relevant, one each.")},
           explanation=N_("ERR follows the cascade: a user satisfied at rank 1 stops, so items below it are worth only "
                          "to the few who go on. Its value hardly changes with what follows a great first result."),
           hints=(N_("Ask which metric models a user who stops once satisfied."),
                  N_("For each metric, ask whether a second excellent item below the first still adds its full "
                     "worth."),
                  N_("One metric multiplies by P(reach rank r) = Π (1 − R_i) over the items above.")),
           ),
    create("err-prefers-a-ndcg-prefers-b", family="err", title=N_("ERR prefers A, NDCG prefers B"),
           question=N_("Build two rankings A and B of the **same** items (the same grades 0–3 in another order, 3 to 8 "
                       "items) such that ERR (g_max = 3) is higher for A but NDCG (gain 2^rel − 1, discount "
                       "$\\log_2(i+1)$) is higher for B. Type them as two lists, A first: `[..] [..]`."),
           shape="pair", verify=_err_prefers_a_ndcg_prefers_b, example=[[2, 1, 3, 3, 3], [1, 3, 3, 3, 2]],
           explanation=N_("ERR rewards satisfying users early and barely values a third or fourth good item; NDCG adds "
                          "them all. A ranking with a fairly good item first wins on ERR; one that puts many excellent "
                          "items early, after a weak first item, can win on NDCG."),
           hints=(N_("ERR cares most about where users are satisfied first; NDCG sums every item's discounted gain."),
                  N_("Use several grade-3 items: in B put them at ranks 2–4 after a weak item; in A start with a "
                     "medium item and a weak one, then the grade-3 items."),
                  N_("Try five items with three grade-3 ones; compute ERR's R_1 for a grade-2 and a grade-1 first "
                     "item (3/8 and 1/8)."))),
    derive("err-derive-nobody-stops", family="err",
           title=N_("The users who never stop"),
           claim=N_("In the cascade model a user stops at rank r with probability R_r·(1 − R_1)···(1 − R_(r−1)). Show "
                    "that the chances of stopping at ranks 1 to n add up to 1 − (1 − R_1)···(1 − R_n), and deduce that "
                    "ERR ≤ 1 − (1 − R_1)···(1 − R_n)."),
           steps=(N_("Write the chance of reaching rank r + 1 in terms of the chance of reaching rank r, and the chance "
                     "of stopping at r as the difference of the two."),
                  N_("Add the stopping chances from r = 1 to n: the sum telescopes. What is left?"),
                  N_("ERR weighs the chance of stopping at r by 1/r ≤ 1: bound it by the sum of step 2.")),
           question=N_("A ranking has grades {grades} on a 0–3 scale (R = (2^g − 1)/8). What share of users reads all "
                       "three results and is satisfied by none?"),
           facts=_nobody_stops_facts,
           options={"p-none": N_("{none}"), "p-first": N_("{first}"), "p-some": N_("{some}"), "p-all-r": N_("{all_r}")},
           correct="p-none",
           why={"p-first": N_("That is 1 − R_1, the users who pass rank 1 only. Step 1: a user reaches rank r + 1 only "
                              "after passing every rank above it, so the factors multiply."),
                "p-some": N_("That is the share who stop somewhere in the list, the sum of step 2; the question asks "
                             "for the others."),
                "p-all-r": N_("That multiplies the R_i: the chance of being satisfied at every rank, which the cascade "
                              "never asks for. Passing a rank unsatisfied has probability 1 − R.")},
           model=N_("Let reach_r = (1 − R_1)···(1 − R_(r−1)), with reach_1 = 1. Then reach_(r+1) = reach_r·(1 − R_r), so "
                    "stop_r = reach_r·R_r = reach_r − reach_(r+1). Summed from 1 to n, the terms telescope to reach_1 − "
                    "reach_(n+1) = 1 − (1 − R_1)···(1 − R_n). ERR = Σ stop_r / r ≤ Σ stop_r, as 1/r ≤ 1. For grades "
                    "{grades}: R = {rs}, and the users who never stop are the product of the 1 − R: {none}."),
           hints=(N_("A user reaches rank r + 1 only if they reach rank r and are not satisfied there."),
                  N_("Write each stopping chance as a difference of two reaching chances; in the sum most terms "
                     "cancel."),
                  N_("The step students get wrong: the factor for passing a rank is 1 − R, not R.")),
           rubric=((1, N_("writes stop_r = reach_r − reach_(r+1) from reach_(r+1) = reach_r·(1 − R_r)")),
                   (1, N_("telescopes the sum to 1 − Π(1 − R_r)")),
                   (1, N_("bounds ERR with 1/r ≤ 1")),
                   (1, N_("computes the share of users who never stop as the product of the 1 − R"))),
           level=3, about=("err",), source="Chapelle et al. 2009"),
]
