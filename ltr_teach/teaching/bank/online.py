"""The online family's exercises: team-draft and balanced credit by hand, the exact chance to win, A/B sample sizes,
what a click rate cannot see, and where the online verdict and an offline metric part (notebook 16)."""

from fractions import Fraction

from ...core.i18n import N_, _
from ...metrics.graded import err, ndcg
from ..kinds import arranged, choice, create, derive, written

FAMILY = ("online", N_("Online evaluation"))

# notebook 16's disagreement: one perfect result and four duds against five good results
_ONE_GREAT = ["p", "x1", "x2", "x3", "x4"]
_FIVE_GOOD = ["q1", "q2", "q3", "q4", "q5"]
_GRADES = {"p": 3, "q1": 2, "q2": 2, "q3": 2, "q4": 2, "q5": 2, "x1": 0, "x2": 0, "x3": 0, "x4": 0}
_NOISY = {0: Fraction(1, 10), 1: Fraction(3, 10), 2: Fraction(1, 2), 3: Fraction(4, 5)}


def _online():
    from ...metrics import online  # imported when a number is shown: checking an answer needs none of it

    return online


def _share(value) -> str:
    return f"{float(value):.3f}"


def _disagreement() -> dict:
    online, pool = _online(), sorted(_GRADES.values(), reverse=True)
    cascade = online.interleaving_preference(_ONE_GREAT, _FIVE_GOOD, _GRADES, g_max=3)
    noisy = online.interleaving_preference(_ONE_GREAT, _FIVE_GOOD, _GRADES, g_max=3, click=_NOISY,
                                           keep_reading=Fraction(1, 2))
    return {"ndcg_a": ndcg([_GRADES[d] for d in _ONE_GREAT], k=5, ideal=pool).decimal_str,
            "ndcg_b": ndcg([_GRADES[d] for d in _FIVE_GOOD], k=5, ideal=pool).decimal_str,
            "cascade_a": _share(cascade.parts["a_wins"].exact), "cascade_b": _share(cascade.parts["b_wins"].exact),
            "noisy_a": _share(noisy.parts["a_wins"].exact), "noisy_b": _share(noisy.parts["b_wins"].exact)}


def _win_facts() -> dict:
    ex = _online().interleaving_preference(["p", "x"], ["x", "p"], {"p": 2, "x": 1}, g_max=2)
    return {"a": str(ex.parts["a_wins"].exact), "b": str(ex.parts["b_wins"].exact), "delta": str(ex.exact)}


def _ab_facts() -> dict:
    online = _online()
    return {"per_arm": f"{online.ab_users_per_arm(0.30, 0.32):,.0f}",
            "one_sided": f"{online.ab_users_per_arm(0.30, 0.32, alpha=0.10):,.0f}",
            "halved": f"{online.ab_users_per_arm(0.30, 0.31):,.0f}"}


def _interleaving_facts() -> dict:
    online = _online()
    return {"users": f"{online.interleaving_users(0.6, 0.2):.1f}"}


def _cascade_never(grades) -> Fraction:
    """The chance that a cascade user (g_max = 3) clicks nothing: Π (1 − R_i)."""
    never = Fraction(1)
    for g in grades:
        never *= 1 - Fraction(2 ** g - 1, 8)
    return never


_TARGET = [3, 1, 0, 0]


def _same_rate_lower_err(grades):
    """Why a typed ranking is not one with the click rate of [3, 1, 0, 0] and at most half its ERR, or None."""
    if not grades or any(g > 3 for g in grades):
        return _("type grades from 0 to 3, at least one")
    if _cascade_never(grades) != _cascade_never(_TARGET):
        rate = 1 - _cascade_never(grades)
        return _("its click rate is {rate}, not {target}").format(rate=f"{float(rate):.4f}",
                                                                 target=f"{float(1 - _cascade_never(_TARGET)):.4f}")
    mine, target = err(list(grades), g_max=3), err(_TARGET, g_max=3)
    if mine.exact * 2 > target.exact:
        return _("its ERR is {mine}, more than half of {target}").format(mine=mine.decimal_str,
                                                                         target=target.decimal_str)
    return None


EXERCISES = [
    choice("online-team-draft-credit", family="online", kind="analyse",
           title=N_("Team-draft credit by hand"),
           question=N_("System A ranks d1, d2, d3, d5; system B ranks d2, d4, d1, d6. Merge them by team draft "
                       "(Radlinski et al. 2008) with the coins B, A, B (one per round: who picks first). The user "
                       "clicks only the result at rank 4 of the merged list. Which system gets the credit?"),
           options={"credit-a": N_("System A"), "credit-b": N_("System B"), "nobody": N_("Neither: it is a tie")},
           correct="credit-b",
           why={"credit-a": N_("In round 2 the coin says A picks first, so A's result takes rank 3 and B's rank 4; "
                               "the first picker does not keep going first."),
                "nobody": N_("In team draft every shown result belongs to exactly one team: the one that picked it.")},
           explanation=N_("Round 1 (B first): B adds d2, A adds d1. Round 2 (A first): A adds d3, B adds d4. Round 3 "
                          "(B first): B adds d6, A adds d5. The list is d2[B] d1[A] d3[A] d4[B] d6[B] d5[A]; the "
                          "click at rank 4 is on d4, which B picked."),
           hints=(N_("A click counts for the team that picked the clicked result."),
                  N_("Write the merged list two results per round: the coin's system picks its best result not yet "
                     "shown, then the other system does the same."),
                  N_("Round 1 starts with d2, B's best result.")),
           level=1),
    choice("online-team-draft-stops", family="online", kind="predict",
           title=N_("When the draft stops"),
           question=N_("System A ranks d1, d2, d3; system B ranks d2, d4, d1. Merge them by team draft as Radlinski "
                       "et al. (2008) do, with the coins A, B. How many results does the merged list show?"),
           options={"three": N_("3"), "four": N_("4"), "five": N_("5")},
           correct="three",
           why={"four": N_("After round 2 B has no result left that is not shown: Radlinski et al.'s loop runs only "
                           "while both lists still have one, so A does not add d3."),
                "five": N_("A result already shown is never shown again, and the draft stops when one list is used "
                           "up.")},
           explanation=N_("Round 1 (A first): A adds d1, B adds d2. Round 2 (B first): B adds d4. Now every result "
                          "of B (d2, d4, d1) is shown, so the loop ends: d1[A] d2[B] d4[B]. A's d3 is never shown. "
                          "Some implementations keep drafting from the longer list; the original algorithm stops."),
           hints=(N_("Team draft runs only while both systems still have a result that is not yet shown."),
                  N_("Draft round by round and, before every pick, check whether each list has anything new."),
                  N_("Round 1 shows d1 and d2; which of B's results are still new after that?"))),
    choice("online-multi-click-winner", family="online", kind="analyse",
           title=N_("Several clicks"),
           question=N_("A team-draft list shows five results whose teams are A, B, B, A, B. A user clicks ranks 1, "
                       "3 and 5. Who wins this impression?"),
           options={"wins-a": N_("System A"), "wins-b": N_("System B"), "wins-none": N_("Nobody: a tie")},
           correct="wins-b",
           why={"wins-a": N_("The first click does not decide: team draft counts every click for its team."),
                "wins-none": N_("Count each team's clicks: they are not equal here.")},
           explanation=N_("Rank 1 is A's, ranks 3 and 5 are B's: B has 2 clicks, A 1, so B wins the impression "
                          "(Radlinski et al. 2008: the team with more clicks wins; equal counts are a tie)."),
           hints=(N_("With several clicks, team draft compares how many clicks each team got."),
                  N_("Write the team under each clicked rank."),
                  N_("Rank 1 belongs to A."))),
    choice("online-balanced-credit", family="online", kind="analyse",
           title=N_("Balanced credit"),
           question=N_("Balanced interleaving (Joachims 2002) of A = a, b, c and B = b, c, a, A first, shows a, b, c. "
                       "The user clicks only c. Who wins?"),
           options={"bal-a": N_("System A"), "bal-b": N_("System B"), "bal-tie": N_("A tie")},
           correct="bal-b",
           why={"bal-a": N_("Who added c to the list does not matter in balanced interleaving; compare the clicked "
                            "results in each system's own top k."),
                "bal-tie": N_("k = min(3, 2) = 2: c is in B's top 2 but not in A's.")},
           explanation=N_("c is at rank 3 of A and rank 2 of B, so k = 2. Among the clicked results, A's top 2 (a, b) "
                          "holds none and B's top 2 (b, c) holds one: B wins."),
           hints=(N_("Balanced interleaving credits by the ranks in the two original lists, not by who added the "
                     "result."),
                  N_("For the deepest click find its rank in A and in B, take the smaller as k, and count the clicked "
                     "results in each system's top k."),
                  N_("c is at rank 3 in A."))),
    choice("online-win-probability", family="online", kind="analyse",
           title=N_("The exact chance to win"),
           question=N_("A ranks p, x and B ranks x, p; p has grade 2 and x grade 1 of g_max = 2, so a cascade user "
                       "clicks p with R = 3/4 and x with R = 1/4 when reading it, and stops at the first click. Under "
                       "team draft, what is P(A wins) − P(B wins)?"),
           facts=_win_facts,
           options={"half": N_("1/2"), "a-only": N_("21/32"), "a-first": N_("11/16"), "b-first": N_("5/16")},
           correct="half",
           why={"a-only": N_("That is P(A wins) alone; subtract P(B wins)."),
                "a-first": N_("That is the difference when A always picks first; the coin puts B first half of the "
                              "time."),
                "b-first": N_("That is the difference when B always picks first; average over both coins.")},
           explanation=N_("A first: p[A] x[B]: A wins 3/4, B wins 1/4 · 1/4 = 1/16. B first: x[B] p[A]: B wins 1/4, A "
                          "wins 3/4 · 3/4 = 9/16. With 1/2 each: P(A wins) = {a}, P(B wins) = {b}, the difference "
                          "{delta}."),
           hints=(N_("Average over the two coin outcomes; in each, a click at rank i needs no click above it."),
                  N_("For each coin write the list with teams, then P(click at rank 1) = R₁ and P(click at rank 2) = "
                     "(1 − R₁)·R₂."),
                  N_("With A first, the user clicks p at rank 1 with probability 3/4.")),
           level=3),
    choice("online-ab-sample-size", family="online", kind="analyse",
           title=N_("An A/B sample size"),
           question=N_("An A/B test compares click rates of about 0.30 (A) and 0.32 (B). With a two-sided "
                       "two-proportion z-test at α = 0.05 and power 0.8 (z = 1.96 and 0.84), about how many users "
                       "does each system need?"),
           facts=_ab_facts,
           options={"n-8400": N_("About 8,400"), "n-16800": N_("About 16,800"), "n-6600": N_("About 6,600"),
                    "n-90": N_("About 90")},
           correct="n-8400",
           why={"n-16800": N_("That counts both groups together; the question asks for each system."),
                "n-6600": N_("That uses z = 1.645, a one-sided test; the question's test is two-sided."),
                "n-90": N_("The difference of the rates is squared in the denominator: 0.02² = 0.0004.")},
           explanation=N_("n = (1.96·√(2·0.31·0.69) + 0.84·√(0.30·0.70 + 0.32·0.68))² / 0.02² ≈ {per_arm} users per "
                          "system (lt.online.ab_users_per_arm(0.30, 0.32))."),
           hints=(N_("The sample size grows with the variance of a click and shrinks with the square of the "
                     "difference to detect."),
                  N_("n = (z(1 − α/2)·√(2p̄(1 − p̄)) + z(power)·√(p_A(1 − p_A) + p_B(1 − p_B)))² / (p_A − p_B)²."),
                  N_("p̄ = 0.31, and 2·0.31·0.69 = 0.4278."))),
    choice("online-ab-scaling", family="online", kind="predict",
           title=N_("Half the difference"),
           question=N_("The A/B test above needs about {per_arm} users per system to tell 0.30 from 0.32. A new "
                       "change moves the click rate from 0.30 to 0.31 only. About how many users per system does the "
                       "same test need now?"),
           facts=_ab_facts,
           options={"times-4": N_("About four times as many"), "times-2": N_("About twice as many"),
                    "same": N_("About as many"), "half": N_("About half as many")},
           correct="times-4",
           why={"times-2": N_("The difference enters the formula squared."),
                "same": N_("The variance of a click barely changes, but the difference to detect halves."),
                "half": N_("A smaller difference is harder to see, not easier.")},
           explanation=N_("n grows like 1/(p_A − p_B)²: half the difference, four times the users ({halved} per "
                          "system). Small changes to a mature system are why A/B tests on click rates need so many "
                          "users."),
           hints=(N_("Look at how the difference p_A − p_B enters the formula."),
                  N_("Keep the numerator as it is (the variance barely moves) and change only the denominator."),
                  N_("0.02² = 0.0004; compute 0.01².")),
           level=3),
    choice("online-click-rate-order", family="online", kind="predict",
           title=N_("Reordering and the click rate"),
           question=N_("System B shows the same five results as system A, with A's top two swapped. A cascade user "
                       "reads from the top and clicks at most once. How do the two click rates compare?"),
           options={"equal": N_("They are equal"), "a-higher": N_("A's is higher if its top result is the better one"),
                    "b-higher": N_("B's is higher")},
           correct="equal",
           why={"a-higher": N_("The order changes where the click comes, not whether it comes: a user without a "
                               "click reads every result."),
                "b-higher": N_("Neither list shows a result the other does not.")},
           explanation=N_("P(no click) = Π (1 − R_i) over all the results: a product does not depend on its order. "
                          "An A/B test on the click rate cannot see a reordering at all, while interleaving can (and "
                          "ERR, the rank of the first click, or the time to it can)."),
           hints=(N_("A user who clicks nothing has read every result and skipped each one."),
                  N_("Write P(no click) for each list as a product."),
                  N_("For A the product starts (1 − R of A's first result)."))),
    derive("online-derive-click-rate-order", family="online",
           title=N_("What the click rate ignores"),
           claim=N_("Show that, for a cascade user (or any user who reads on after skipping a result), the chance "
                    "of at least one click, 1 − Π (1 − c_i), does not depend on the order of the results."),
           steps=(N_("Write the chance of no click at all: the user must read and skip every result. Why does the "
                     "user read every result in that case?"),
                  N_("Write it as a product over the ranks and say why a product does not depend on the order of "
                     "its factors."),
                  N_("Conclude for the click rate, and say what an A/B test on it can and cannot detect.")),
           question=N_("Which change to a ranking can change this click rate?"),
           options={"swap": N_("Swapping the top two results"), "reverse": N_("Reversing the whole list"),
                    "replace": N_("Replacing one result by another of a different grade"),
                    "promote": N_("Moving the best result to the top")},
           correct="replace",
           why={"swap": N_("A swap reorders the factors of the product of step 2 and leaves it as it was."),
                "reverse": N_("Reversing reorders all the factors of step 2's product; the product stays."),
                "promote": N_("Moving a result changes only where its factor stands in step 2's product.")},
           model=N_("With no click the user never stops, so they read every rank and skip each: P(no click) = "
                    "(1 − c_1)(1 − c_2)…(1 − c_n), where c_i depends only on the result's grade. Multiplication is "
                    "commutative, so any order of the same results gives the same product, and the click rate 1 − "
                    "Π (1 − c_i) is the same. Only a change of the set of results (a result replaced by one of "
                    "another grade, or a result added or dropped) changes it. An A/B test on the click rate therefore "
                    "cannot detect a pure reordering, however much better it is; interleaving, ERR, or the rank of "
                    "the first click can."),
           rubric=((1, N_("P(no click) written as a product over every rank, with the reason: without a click the "
                          "user never stops")),
                   (1, N_("the product does not depend on the order of its factors")),
                   (1, N_("the conclusion: the click rate is the same for every order of the same results")),
                   (1, N_("what an A/B test on the click rate cannot detect: a pure reordering"))),
           hints=(N_("Start from the complement: the user who never clicks."),
                  N_("Each factor belongs to one result and is the same wherever that result stands."),
                  N_("The step students get wrong is assuming the user stops reading without a click: here they never "
                     "do.")),
           level=3, about=("err",)),
    create("online-same-rate-lower-err", family="online",
           title=N_("Same clicks, worse ranking"),
           question=N_("Type a ranking of grades (0 to 3, g_max = 3) whose cascade click rate is exactly that of "
                       "**[3, 1, 0, 0]** but whose ERR is **at most half** of its ERR."),
           shape="ranking", verify=_same_rate_lower_err, example=[0, 0, 1, 3],
           explanation=N_("The click rate 1 − Π (1 − R_i) depends only on which grades are shown, while ERR rewards "
                          "showing the satisfying result early: the same grades in a worse order keep the click "
                          "rate and lose ERR. An A/B test on click rates would call the two rankings equal."),
           hints=(N_("The click rate does not care where a result stands; ERR does."),
                  N_("Keep the product Π (1 − R_i) as it is and push the satisfying result down."),
                  N_("Compute ERR of [3, 1, 0, 0] first, then try its grades in other orders.")),
           level=3),
    choice("online-noisy-verdict", family="online", kind="predict",
           title=N_("When users click more"),
           question=N_("System A shows one perfect result (grade 3) and four non-relevant ones; system B shows five "
                       "good results (grade 2). NDCG@5 prefers B ({ndcg_b} against {ndcg_a}). Under team draft, a "
                       "cascade user (one click, R = (2^g − 1)/8) makes A win {cascade_a} of the impressions and B "
                       "{cascade_b}. Now users click a result of grade 0, 1, 2, 3 with probability 0.1, 0.3, 0.5, "
                       "0.8 and read on after a click half the time. Which system wins more impressions?"),
           facts=_disagreement,
           options={"still-a": N_("Still A"), "now-b": N_("Now B"), "even": N_("They are exactly even")},
           correct="now-b",
           why={"still-a": N_("A user who reads on after a click reaches B's other good results and clicks them; with "
                              "several clicks the team with more clicks wins, and A has one good result only."),
                "even": N_("Nothing makes the two lists symmetric: compute or simulate the shares.")},
           explanation=N_("With these users A wins {noisy_a} and B {noisy_b} of the impressions: the verdict turns "
                          "to B. A user who needs one answer (the cascade) prefers A; a user who collects several "
                          "good results prefers B, as NDCG does. Which is right depends on the users, which is why "
                          "online and offline verdicts can part."),
           hints=(N_("With several clicks, team draft compares the number of clicks per team."),
                  N_("Ask who benefits when the user goes on reading after the first click."),
                  N_("A has one result worth clicking; B has five.")),
           level=3),
    choice("online-interleaving-sample-size", family="online", kind="analyse",
           title=N_("An interleaving sample size"),
           question=N_("In an interleaving experiment A wins 0.6 of the impressions, B wins 0.2, and 0.2 are ties. "
                       "The sign test on the decisive impressions (two-sided, α = 0.05, power 0.8: z = 1.96 and "
                       "0.84) needs m = (1.96·0.5 + 0.84·√(q(1 − q)))² / (q − 1/2)² decisive users, where q is A's "
                       "share of them. About how many users does the experiment need in all?"),
           facts=_interleaving_facts,
           options={"m-36": N_("About 36"), "m-29": N_("About 29"), "m-23": N_("About 23")},
           correct="m-36",
           why={"m-29": N_("That is m, the decisive users only; a fifth of all users tie and decide nothing."),
                "m-23": N_("Only a share d = 0.8 of the users decides, so the experiment needs m/d users, not m·d.")},
           explanation=N_("q = 0.6/0.8 = 0.75, so m = (0.98 + 0.84·0.433)² / 0.25² ≈ 28.9 decisive users; with d = "
                          "0.8 of the users decisive, about {users} users in all "
                          "(lt.online.interleaving_users(0.6, 0.2))."),
           hints=(N_("Ties carry no information for the sign test: only decisive users count, and not every user "
                     "is one."),
                  N_("Compute q from the two shares, then m, then scale by the share of decisive users."),
                  N_("The decisive share is d = 0.6 + 0.2 = 0.8.")),
           level=3),
    choice("online-why-fewer-users", family="online", kind="analyse",
           title=N_("Why interleaving needs fewer users"),
           question=N_("Interleaving usually detects a difference between two rankers with far fewer users than an "
                       "A/B test on click rates. What is the main reason?"),
           options={"paired": N_("Each user compares both systems in one list, so the differences between users "
                                 "cancel out"),
                    "more-clicks": N_("Users click more on interleaved lists"),
                    "no-bias": N_("Interleaving removes every position bias"),
                    "exact": N_("Interleaving uses an exact test, the A/B test an approximation")},
           correct="paired",
           why={"more-clicks": N_("The number of clicks is not what makes the difference: what counts is what each "
                                  "click is compared with."),
                "no-bias": N_("Team draft balances position bias between the teams over the coins; it does not "
                              "remove it, and that is not where the users are saved."),
                "exact": N_("Both sample sizes here come from normal approximations.")},
           explanation=N_("An A/B test compares two groups of different users, whose habits vary far more than the "
                          "systems differ; interleaving asks every user which system's results they prefer in the "
                          "same list, a paired comparison (Chapelle et al. 2012)."),
           hints=(N_("Think of the difference between comparing two groups of people and asking each person twice."),
                  N_("Ask what varies between two users of the same system, and whether interleaving sees it."),
                  N_("In an A/B test, user 1 sees only A and user 2 only B."))),
    choice("online-ab-metric", family="online", kind="evaluate",
           title=N_("Which metric for the A/B test?"),
           question=N_("A new ranker shows the same results as the old one in a better order. Which user metric "
                       "of an A/B test is most likely to show the improvement?"),
           options={"first-click": N_("The rank of the first click (or the time to it)"),
                    "ctr": N_("The share of users who click at least once"),
                    "queries": N_("The number of queries per day"),
                    "results": N_("The number of results shown")},
           correct="first-click",
           why={"ctr": N_("With the same results, a user who would click something still does: the share of users "
                          "who click barely moves."),
                "queries": N_("Queries per day depend on how many people search, far more than on the order of the "
                              "results."),
                "results": N_("The ranker shows the same results; their number does not change.")},
           explanation=N_("An A/B test can compare any metric of users' behaviour; a better order lets users find "
                          "what they want earlier, so the rank of (or time to) the first click falls, while whether "
                          "they click hardly changes."),
           hints=(N_("A reordering changes where users find what they want, not whether they find it."),
                  N_("For each metric ask: would it differ between two lists holding the same results?"),
                  N_("Start with the number of results shown."))),
    written("online-written-disagree", family="online",
            title=N_("NDCG says B, users say A"),
            question=N_("On one query NDCG@5 prefers system B (five good results) while team-draft interleaving with "
                        "real users prefers system A (one perfect result first, then poor ones). In four or five "
                        "sentences, explain how both can be right, naming the user each one assumes, and say which "
                        "you would trust for a search engine whose users mostly want one answer."),
            model=N_("NDCG@5 adds a discounted gain for every good result in the top 5, as if the user reads on and "
                     "profits from each; B's five good results add up to more than A's single perfect one. A user "
                     "who wants one answer stops at the first satisfying result (the cascade model, like ERR): they "
                     "find it at A's top and click it, so A's team gets the click. Both measures are right about "
                     "their own user; they disagree because the users differ, not because one is computed wrongly. "
                     "For users who mostly want one answer, trust the interleaving result (and an offline metric "
                     "built on the same user, such as ERR), and check with several queries before deciding."),
            rubric=((1, N_("NDCG's user: reads on and gains from each result")),
                    (1, N_("the cascade user: stops at the first satisfying result")),
                    (1, N_("why each measure prefers its system")),
                    (1, N_("both are right about their own user")),
                    (1, N_("a justified choice for users who want one answer"))),
            hints=(N_("Each measure rests on a model of what the user does with the list."),
                   N_("Ask how many results each model's user profits from."),
                   N_("Then ask what the users of this search engine do.")),
            level=3, about=("ndcg", "err")),
]

EXERCISES = arranged(EXERCISES, [
    "online-team-draft-credit", "online-team-draft-stops", "online-multi-click-winner", "online-balanced-credit",
    "online-win-probability", "online-click-rate-order", "online-derive-click-rate-order",
    "online-same-rate-lower-err", "online-ab-sample-size", "online-ab-scaling", "online-ab-metric",
    "online-interleaving-sample-size", "online-why-fewer-users", "online-noisy-verdict", "online-written-disagree",
])
