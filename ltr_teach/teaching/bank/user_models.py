"""The user_models family: RBP's reader, the cascade family, discounts as browsing models (notebook 12).

Every number a prompt or an option shows comes from the library when it is shown (``facts``).
"""

from fractions import Fraction

from ...core.i18n import N_, _
from ...metrics.graded import err
from ...metrics.user_models import PERSISTENCE, browsing_model, rbp
from ..kinds import _e, choice, create, derive

FAMILY = ("user_models", N_("User models: RBP, the cascade and the discount as a reader"))

#: Document 000's lipstick query (口红), seven results graded 0..3.
_LIPSTICK = [3, 2, 3, 0, 1, 2, 2]


def _rbp_threshold_task(d) -> str:
    return _("A ranking has grades {grades} (rank 1 first). Count a result as relevant when its grade is at least "
             "{threshold}. A user reads rank 1 and goes on to each next rank with probability p = {p}. Compute RBP "
             "(rank-biased precision).").format(grades=", ".join(map(str, d["grades"])), threshold=d["threshold"], p=d["p"])


def _graded_persistent(rng, data) -> dict:
    """A student's version: new grades 0..3 with at least two at or above the threshold, a new p."""
    while True:
        grades = [rng.randint(0, 3) for _ in range(len(data["grades"]))]
        if sum(g >= data["threshold"] for g in grades) >= 2:
            return dict(data, grades=grades, p=rng.choice((Fraction(1, 2), Fraction(3, 4), Fraction(4, 5))))


def _depth_facts() -> dict:
    p = Fraction(str(PERSISTENCE))
    return {"p": str(p), "right": f"{float(1 / (1 - p)):g}", "after": f"{float(p / (1 - p)):g}",
            "inverse": f"{float(1 / p):g}", "half": f"{float(2 / (1 - p)):g}"}


def _dcg_facts() -> dict:
    steps = browsing_model("dcg", 10).steps
    return {"c1": f"{float(steps[0]['continue']):.2f}", "c5": f"{float(steps[4]['continue']):.2f}",
            "c9": f"{float(steps[8]['continue']):.2f}"}


def _second_facts() -> dict:
    before, after = [3, 0, 0, 0, 0], [3, 3, 0, 0, 0]
    e0, e1 = err(before, g_max=3), err(after, g_max=3)
    r0, r1 = rbp(before), rbp(after)
    return {"err0": e0.decimal_str, "rbp0": r0.decimal_str, "p": str(PERSISTENCE),
            "err_gain": f"{float(e1.exact / e0.exact - 1):+.1%}", "rbp_gain": f"{float(r1.exact / r0.exact - 1):+.0%}"}


def _persistence_facts() -> dict:
    return {f"d{int(p * 100)}": f"{float(browsing_model('rbp', 1000, p=p).exact):.0f}" for p in (0.5, 0.9, 0.99)}


def _err_prefers_a_rbp_prefers_b(parsed):
    a, b = parsed
    if len(a) != 5 or len(b) != 5:
        return _("give two rankings of 5 grades each; you gave {a} and {b}").format(a=len(a), b=len(b))
    if max(a + b) > 3:
        return _("grades run from 0 to 3 here (g_max = 3)")
    err_a, err_b = err(a, g_max=3), err(b, g_max=3)
    rbp_a, rbp_b = rbp(a), rbp(b)
    if not err_a.exact > err_b.exact:
        return _("ERR does not prefer A: ERR(A) = {a}, ERR(B) = {b}").format(a=err_a.decimal_str, b=err_b.decimal_str)
    if not rbp_b.exact > rbp_a.exact:
        return _("RBP does not prefer B: RBP(A) = {a}, RBP(B) = {b}").format(a=rbp_a.decimal_str, b=rbp_b.decimal_str)
    return None


#: The RBP target and persistence for the all-relevant derivation.
_RBP_TARGET, _RBP_P = Fraction(9, 10), Fraction(4, 5)


def _all_relevant_facts() -> dict:
    import math

    n = 1
    while rbp([1] * n, p=_RBP_P).exact < _RBP_TARGET:
        n += 1
    rest = 1 - _RBP_TARGET
    depth = int(1 / (1 - _RBP_P))
    return {"p": str(_RBP_P), "target": str(_RBP_TARGET), "rest": str(rest), "right": n, "short": n - 1,
            "long": n + 1, "depth": depth, "short_rest": f"{float(_RBP_P ** (n - 1)):.3f}",
            "short_rbp": rbp([1] * (n - 1), p=_RBP_P).decimal_str, "right_rbp": rbp([1] * n, p=_RBP_P).decimal_str,
            "depth_rbp": rbp([1] * depth, p=_RBP_P).decimal_str,
            "bound": f"{math.log(float(rest)) / math.log(float(_RBP_P)):.2f}"}


EXERCISES = [
    _e("rbp-lipstick-threshold", "user_models", "rbp",
       {"grades": _LIPSTICK[:6], "p": Fraction(1, 2), "threshold": 2}, _rbp_threshold_task,
       [N_("Grades at or above the threshold count 1, the others 0; rank i is read with probability p^(i-1).")],
       intro=N_("Post 000's 口红 query (lipstick): its top six results, graded 0 to 3."), source="doc 000",
       randomize=_graded_persistent),
    choice("rbp-expected-depth", family="user_models", kind="predict",
           title=N_("How deep does the RBP user read?"),
           question=N_("An RBP user with persistence p = {p} reads an endless ranking: rank 1 surely, then each "
                       "next rank with probability p. How many ranks do they read on average?"),
           facts=_depth_facts,
           # keys name the value, never which one is right (a sheet lists the keys beside its answer cell)
           options={"r1-25": N_("{inverse} ranks"), "r4": N_("{after} ranks"), "r5": N_("{right} ranks"),
                    "r10": N_("{half} ranks")},
           correct="r5",
           why={"r1-25": N_("1/p is not the depth: the chance of stopping after each rank is 1 - p, and the "
                              "expected number of tries until the first stop is 1/(1 - p)."),
                "r4": N_("p/(1 - p) counts the ranks read after rank 1; rank 1 is always read too."),
                "r10": N_("2/(1 - p) doubles the depth; the user stops after each rank with probability 1 - p, "
                           "so they read 1/(1 - p) ranks.")},
           explanation=N_("The user reads rank i with probability p^(i-1); the expected number of ranks read is "
                          "1 + p + p^2 + ... = 1/(1 - p)."),
           hints=(N_("The expected number of ranks read is the sum, over ranks, of the chance of reading that "
                     "rank."),
                  N_("The user reads rank i with probability p^(i-1): sum a geometric series."),
                  N_("1 + p + p^2 + ... = 1/(1 - p).")),
           ),
    choice("dcg-reader", family="user_models", kind="analyse",
           title=N_("What kind of reader is DCG's user?"),
           question=N_("Read DCG's discount 1/log2(i+1) as the chance that a user reads rank i. After reading rank "
                       "i, they go on with probability log2(i+1)/log2(i+2): {c1} after rank 1, {c5} after rank 5, "
                       "{c9} after rank 9. What kind of reader is that?"),
           facts=_dcg_facts,
           options={"patient": N_("one who gets more patient the deeper they read"),
                    "constant": N_("one with the same patience at every rank, as RBP's"),
                    "impatient": N_("one who gets less patient the deeper they read"),
                    "everything": N_("one who reads every result")},
           correct="patient",
           why={"constant": N_("RBP's user goes on with the same p at every rank; here the chance of going on "
                               "changes from rank to rank."),
                "impatient": N_("Look at the numbers in the question again: the chance of going on rises with depth."),
                "everything": N_("Rank 2 is read with probability 1/log2(3) ≈ 0.63 only, not surely.")},
           explanation=N_("The chance of going on rises towards 1 with depth: DCG's user, once deep in a list, "
                          "almost never stops. Over an endless list they would read on forever (the sum of "
                          "1/log2(i+1) grows without bound), which is one reason DCG is cut at a depth k."),
           hints=(N_("A metric's discount can be read as the chance that the user reads each rank."),
                  N_("Compare the chances of going on at ranks 1, 5 and 9."),
                  N_("After rank 1 the user goes on with probability log2(2)/log2(3) = 1/log2(3).")),
           ),
    create("err-prefers-a-rbp-prefers-b", family="user_models",
           title=N_("The cascade user and the RBP user disagree"),
           question=N_("Give two rankings of 5 results each, graded 0 to 3, as `[A] [B]`, such that ERR (g_max = "
                       "3) prefers A while RBP (p = 0.8, every grade of 1 or more relevant) prefers B."),
           shape="pair", verify=_err_prefers_a_rbp_prefers_b, example=[[3, 0, 0, 0, 0], [1, 1, 1, 1, 1]],
           explanation=N_("ERR's user stops once satisfied: one excellent result at the top satisfies 7 users in 8, "
                          "and what follows barely matters. RBP's user reads on whatever they found, counts every "
                          "relevant result and ignores how relevant it is: many weakly relevant results win."),
           hints=(N_("ERR's user stops when satisfied, and a grade-3 result satisfies far more users than a "
                     "grade-1 one; RBP's user goes on regardless and counts relevant results, whatever their "
                     "grade."),
                  N_("Give A one excellent result; give B many results that are relevant, but only just."),
                  N_("Start from A = [3, 0, 0, 0, 0] and compute its ERR and its RBP.")),
           ),
    choice("second-great-result", family="user_models", kind="predict",
           title=N_("A second excellent result"),
           question=N_("The ranking [3, 0, 0, 0, 0] has ERR (g_max = 3) = {err0} and RBP (p = {p}) = {rbp0}. Rank 2 "
                       "becomes a grade-3 result too. Which metric grows by the larger share?"),
           facts=_second_facts,
           options={"more-rbp": N_("RBP, by far"), "more-err": N_("ERR, by far"),
                    "same": N_("both by about the same share"), "none": N_("neither changes")},
           correct="more-rbp",
           why={"more-err": N_("ERR's user is already satisfied at rank 1 with probability 7/8: only 1 in 8 reaches the "
                          "second excellent result."),
                "same": N_("The two users react differently: RBP's reader reaches rank 2 with probability p whatever "
                           "rank 1 held; ERR's reader mostly stopped at rank 1."),
                "none": N_("Both metrics count rank 2: RBP adds (1 - p)·p for it, ERR adds what the users who reach "
                           "it and stop there contribute.")},
           explanation=N_("RBP grows by {rbp_gain}: its user reaches rank 2 with probability p whatever rank 1 was. "
                          "ERR grows by {err_gain} only: 7 users in 8 stopped at the first excellent result."),
           hints=(N_("Ask, for each user, who is still reading at rank 2."),
                  N_("RBP: rank 2 adds (1 - p)·p·rel_2. ERR: rank 2 adds (1/2)·R_2·(1 - R_1)."),
                  N_("R_1 = 7/8 for a grade-3 result when g_max = 3.")),
           ),
    choice("persistence-by-task", family="user_models", kind="evaluate",
           title=N_("Which persistence for which user?"),
           question=N_("Two kinds of users: shoppers on a phone who rarely look past the first two results, and "
                       "patent examiners who read about a hundred. Which persistences p fit them, in that order? "
                       "(The RBP user reads 1/(1 - p) results on average.)"),
           facts=_persistence_facts,
           options={"p05-p099": N_("p = 0.5 for the shoppers, p = 0.99 for the examiners"),
                    "p099-p05": N_("p = 0.99 for the shoppers, p = 0.5 for the examiners"),
                    "p08-p08": N_("p = 0.8 for both: it is the usual value"),
                    "p05-p09": N_("p = 0.5 for the shoppers, p = 0.9 for the examiners")},
           correct="p05-p099",
           why={"p099-p05": N_("A high persistence is a patient reader; the shoppers are the impatient ones."),
                "p08-p08": N_("0.8 is a middle value (5 results on average); the persistence should match how deep the "
                           "users really read."),
                "p05-p09": N_("p = 0.9 gives 1/(1 - 0.9) = 10 results on average, far from a hundred.")},
           explanation=N_("1/(1 - p) results on average: p = 0.5 reads about {d50}, p = 0.99 about {d99}."),
           hints=(N_("The persistence is the chance of reading on after each result."),
                  N_("The expected number of results read is 1/(1 - p); solve it for p."),
                  N_("Two results on average: 1/(1 - p) = 2.")),
           ),
    derive("rbp-derive-all-relevant", family="user_models",
           title=N_("How long must a perfect list be?"),
           claim=N_("RBP = (1 − p)·Σ_i rel_i·p^(i − 1). Show that a list of n documents, all relevant, has RBP = 1 − p^n, "
                    "and that p^n is the weight RBP gives to everything below the list."),
           steps=(N_("Write RBP of n relevant documents as (1 − p) times a finite geometric series, and sum it."),
                  N_("Sum the weights (1 − p)·p^(i − 1) of every rank below n, from n + 1 on."),
                  N_("For a given target t, write the condition RBP ≥ t as an inequality on p^n and solve it for a "
                     "whole number n.")),
           question=N_("With persistence p = {p}, how many documents, all relevant, does a list need at least for RBP "
                       "to reach {target}?"),
           facts=_all_relevant_facts,
           options={"n-short": N_("{short}"), "n-right": N_("{right}"), "n-long": N_("{long}"), "n-depth": N_("{depth}")},
           correct="n-right",
           why={"n-short": N_("That rounds n down: with {short} documents p^n = {short_rest}, above {rest}, so RBP is "
                              "only {short_rbp}. Step 3 needs the smallest whole n with p^n ≤ {rest}."),
                "n-long": N_("That solves p^(n − 1) ≤ {rest}: step 1's sum of p^0 … p^(n − 1) is "
                             "(1 − p^n)/(1 − p), so the power is n."),
                "n-depth": N_("That is 1/(1 − p), the average number of ranks a user reads; RBP counts how much of the "
                              "reader's attention the list covers, and a list as long as the average depth covers "
                              "only {depth_rbp} of it.")},
           model=N_("RBP = (1 − p)(1 + p + … + p^(n − 1)) = (1 − p)·(1 − p^n)/(1 − p) = 1 − p^n. Below the list the "
                    "weights add up to (1 − p)·p^n·(1 + p + …) = p^n: the attention no document of the list gets. RBP ≥ "
                    "{target} means p^n ≤ {rest}, so n ≥ ln({rest}) / ln({p}) ≈ {bound}: the smallest whole n is "
                    "{right} (RBP = {right_rbp}), while {short} documents give {short_rbp}."),
           hints=(N_("RBP of an all-relevant list is the share of the reader's attention spent on the list."),
                  N_("Sum the geometric series 1 + p + … + p^(n − 1), then turn RBP ≥ t into p^n ≤ 1 − t."),
                  N_("The step students get wrong: n is a whole number, so the bound from the logarithm is rounded "
                     "up, not down.")),
           rubric=((1, N_("sums the geometric series to 1 − p^n")),
                   (1, N_("shows that the ranks below the list carry weight p^n")),
                   (1, N_("solves p^n ≤ 1 − t and rounds n up"))),
           level=3, about=("rbp",), source="Moffat & Zobel 2008"),
]
