"""The many_queries family: what a mean over queries hides, and the paired tests (notebook 11).

Every number a prompt or an option shows comes from the library when it is shown (``facts``): the sign
flips from ``lt.sign_flips``, the skincare collection's comparison from ``lt.compare_runs``.
"""

from fractions import Fraction

from ...core.i18n import N_, _
from ..kinds import choice, create, derive, written

# ``ltr-teach check`` imports this module for any of its exercises: the runs layer and NumPy are imported by the
# functions that use them, when a prompt or an answer needs their numbers (issue 21)

FAMILY = ("many_queries", N_("Many queries: spread, confidence, paired tests"))

#: Four queries' P@5 differences (run minus baseline) for the hand count of every sign flip.
_FOUR = (0.4, 0.2, -0.2, 0.6)
#: The queries and the counts a "create" answer holds: five queries, relevant results in a top 10.
_QUERIES, _MOST = 5, 10


def _four_facts() -> dict:
    from ...runs.compare import sign_flips

    flips = sign_flips(list(_FOUR))
    strictly = sum(abs(m) > abs(flips.observed) for m in flips.means)
    return {"d": ", ".join(f"{d:+.1f}" for d in _FOUR), "n": len(_FOUR), "total": flips.total,
            "right": str(flips.p_value), "one_side": str(sign_flips(list(_FOUR), "greater").p_value),
            "strict": str(Fraction(strictly, flips.total)), "single": str(Fraction(1, flips.total))}


def _skincare(correction="holm"):
    from ...runs.compare import compare_runs
    from ..samples import skincare_collection

    qrels, runs = skincare_collection()
    return compare_runs(qrels, runs, "ndcg@5", correction=correction)


def _ci_facts() -> dict:
    pair = _skincare()["A"]
    return {"low": f"{pair.ci[0]:+.3f}", "high": f"{pair.ci[1]:+.3f}", "n": len(pair.queries)}


def _holm_facts() -> dict:
    result = _skincare()
    return {f"p{run}": f"{result[run].tests['permutation'].p_value:.4f}" for run in ("A", "B", "C")} | {
        "hA": f"{result['A'].tests['permutation'].adjusted:.4f}", "m": len(result.pairs)}


def _tiny_facts() -> dict:
    # 20,000 queries: half gain 0.062, half lose 0.058 -> mean +0.002, sd ≈ 0.06
    import numpy as np

    from ...runs.compare import paired_t

    half = 10_000
    d = np.array([0.062] * half + [-0.058] * half)
    test = paired_t(d)
    return {"n": f"{2 * half:,}", "mean": f"{float(np.mean(d)):+.3f}", "p": f"{test.p_value:.1e}",
            "dz": f"{float(np.mean(d) / np.std(d, ddof=1)):.3f}"}


def _counts(parsed):
    """The pair of five counts 0..10 a create answer holds, or the reason it is not one."""
    base, run = parsed
    if len(base) != _QUERIES or len(run) != _QUERIES:
        return None, _("give {n} counts for each run (one per query); you gave {a} and {b}").format(
            n=_QUERIES, a=len(base), b=len(run))
    if max(base + run) > _MOST:
        return None, _("a count of relevant results in a top {most} is at most {most}").format(most=_MOST)
    return [r - b for b, r in zip(base, run)], None


def _significant_at_ten_percent(parsed):
    from ...runs.compare import sign_flips

    d, problem = _counts(parsed)
    if problem:
        return problem
    if sum(d) <= 0:
        return _("the run's mean is not higher than the baseline's (the differences add up to {total})").format(
            total=sum(d))
    flips = sign_flips(d)
    if flips.p_value >= Fraction(1, 10):
        return _("p = {p}: {count} of {total} sign patterns are as extreme as yours, not fewer than 1 in 10").format(
            p=flips.p_text(), count=flips.count, total=flips.total)
    return None


def _wins_but_not_significant(parsed):
    from ...runs.compare import sign_flips

    d, problem = _counts(parsed)
    if problem:
        return problem
    wins = sum(x > 0 for x in d)
    if wins != 4:
        return _("the run wins on {wins} of the {n} queries; the exercise asks for 4").format(wins=wins, n=_QUERIES)
    if sum(d) <= 0:
        return _("the run's mean must be higher than the baseline's; the differences add up to {total}").format(
            total=sum(d))
    flips = sign_flips(d)
    if flips.p_value < Fraction(1, 2):
        return _("p = {p} is below 1/2: only {count} of {total} sign patterns are as extreme as yours").format(
            p=flips.p_text(), count=flips.count, total=flips.total)
    return None


#: Five queries' P@10 differences for the by-hand p-value: two differences of 0.1 tie the observed sum when flipped.
_FIVE = (Fraction(3, 10), Fraction(1, 10), Fraction(-1, 10), Fraction(2, 10), Fraction(4, 10))


def _five_facts() -> dict:
    from ...runs.compare import sign_flips

    flips = sign_flips(list(_FIVE))
    strictly = sum(abs(m) > abs(flips.observed) for m in flips.means)
    tenths = [int(d * 10) for d in _FIVE]
    observed, largest = sum(tenths), sum(abs(t) for t in tenths)
    return {"d": ", ".join(f"{float(d):+.1f}" for d in _FIVE), "right": str(flips.p_value),
            "one_side": str(sign_flips(list(_FIVE), "greater").p_value),
            "strict": str(Fraction(strictly, flips.total)), "single": str(Fraction(1, flips.total)),
            "tenths": ", ".join(f"{t:+d}" for t in tenths), "observed": observed, "largest": largest,
            "slack": (largest - observed) // 2, "one_count": flips.count // 2, "two_count": flips.count}


EXERCISES = [
    choice("sign-flips-four", family="many_queries", kind="predict",
           title=N_("Every sign flip of four queries"),
           question=N_("Run B minus run A on {n} queries (P@5): {d}. If the two runs were equally good, each "
                       "difference could as well have had the other sign. Flip the signs in all {total} ways: what "
                       "is the exact two-sided randomisation p-value?"),
           facts=_four_facts,
           # keys name the value, never which one is right (a sheet lists the keys beside its answer cell)
           options={"p1-16": N_("p = {single}"), "p1-8": N_("p = {strict}"), "p3-16": N_("p = {one_side}"),
                    "p3-8": N_("p = {right}")},
           correct="p3-8",
           why={"p1-16": N_("That is the chance of the observed pattern alone. The p-value counts every pattern "
                             "whose mean is at least as far from 0 as the observed one."),
                "p1-8": N_("That counts only the patterns strictly more extreme. Patterns exactly as extreme as "
                             "the observed one count too, the observed one included."),
                "p3-16": N_("That is one side only (means at least as high as the observed one). Two-sided also "
                          "counts the mirror images, the means at least as low as minus the observed one.")},
           explanation=N_("Patterns with a sum of differences at least as far from 0 as the observed one: the "
                          "observed pattern, the one that swaps the signs of the two 0.2s, all four positive, and "
                          "the mirror images of these three."),
           hints=(N_("Under the null hypothesis every one of the 2^n sign patterns is equally likely; the p-value "
                     "is the share of patterns at least as extreme as what was observed."),
                  N_("Work with sums instead of means (same order). Write the observed sum, then list the patterns "
                     "whose sum is at least that far from 0, on both sides."),
                  N_("The observed sum is 0.4 + 0.2 - 0.2 + 0.6 = 1.0.")),
           ),
    create("significant-five-queries", family="many_queries",
           title=N_("Significant with five queries"),
           question=N_("Two runs, five queries; for each query, the number of relevant results the run has in its "
                       "top 10 (a whole number from 0 to 10). Type the baseline's five counts, then the new run's, "
                       "as `[baseline] [run]`. Make the new run's mean higher **and** the exact two-sided "
                       "randomisation p-value of the differences below 0.1."),
           shape="pair", verify=_significant_at_ten_percent, example=[[2, 3, 4, 5, 6], [3, 5, 5, 6, 9]],
           explanation=N_("With five queries there are 32 sign patterns. The smallest two-sided p-value is 2/32 = "
                          "1/16: only the observed pattern and its mirror image are that extreme, which happens "
                          "exactly when the run wins on every query. One loss, however small, adds patterns: p "
                          "reaches 4/32 = 1/8 at best."),
           hints=(N_("The p-value is the share of the 2^5 = 32 sign patterns at least as extreme as the observed "
                     "mean; below 0.1 means at most 3 of them."),
                  N_("Try a few difference patterns with lt.sign_flips (or the explorer in notebook 11) and watch "
                     "how p moves when one difference changes sign."),
                  N_("Count the patterns when every difference is positive: which ones are as extreme?"))),
    create("wins-are-not-enough", family="many_queries",
           title=N_("Four wins out of five, and still nothing"),
           question=N_("Two runs, five queries, counts of relevant results in the top 10 as above (`[baseline] "
                       "[run]`). Make the new run win on **4 of the 5** queries with a higher mean, yet the exact "
                       "two-sided randomisation p-value be **1/2 or more**."),
           shape="pair", verify=_wins_but_not_significant, example=[[4, 4, 4, 4, 8], [5, 5, 5, 5, 5]],
           explanation=N_("Four small wins and one large loss: the mean is barely positive, and most sign patterns "
                          "put the large difference on either side, so almost every pattern is as far from 0 as "
                          "the observed one. The randomisation test weighs the sizes of the differences, not only "
                          "who wins."),
           hints=(N_("The test looks at the mean difference, and the sign patterns move every difference, large "
                     "or small."),
                  N_("Make four differences small and positive and one difference large and negative, but keep "
                     "the total positive."),
                  N_("Try differences +1, +1, +1, +1 and -3: the total is +1. Which patterns have a sum of at least "
                     "1 in absolute value?"))),
    choice("ci-with-more-queries", family="many_queries", kind="analyse",
           title=N_("A confidence interval with more queries"),
           question=N_("On the {n} queries of the skincare collection, the 95% bootstrap interval of the mean "
                       "NDCG@5 gain of run A over the baseline is [{low}, {high}]. Suppose we had four times as many "
                       "queries, with differences spread the same way. The interval would be ..."),
           facts=_ci_facts,
           options={"half": N_("about half as wide"), "quarter": N_("about a quarter as wide"),
                    "same": N_("about as wide"), "wider": N_("wider")},
           correct="half",
           why={"quarter": N_("The width follows the standard error sd/√n, not sd/n: four times the queries "
                              "divides it by √4 = 2."),
                "same": N_("The spread of the per-query differences stays the same, but the interval is about the "
                           "mean, whose uncertainty shrinks as queries are added."),
                "wider": N_("More queries bring more varied differences, but they also average out: the mean "
                            "becomes more certain, not less.")},
           explanation=N_("The interval is about the mean difference, whose standard error is sd/√n. Four times "
                          "the queries halve it, so the interval is about half as wide."),
           hints=(N_("A confidence interval says how uncertain the mean is, not how spread the single queries are."),
                  N_("The standard error of a mean of n values is sd/√n."),
                  N_("The step students get wrong: the spread of the single queries stays the same; only "
                     "the number of queries you divide by changes."))),
    choice("tiny-but-significant", family="many_queries", kind="evaluate",
           title=N_("Significant, but does it matter?"),
           question=N_("A new ranker is compared with the baseline on {n} queries: mean NDCG@10 difference "
                       "{mean}, paired t-test p = {p}, effect size d_z = {dz}. What should the report say?"),
           facts=_tiny_facts,
           options={"real-small": N_("The gain is almost surely real, and very small"),
                    "large": N_("The gain is large, since p is tiny"),
                    "not-real": N_("The gain is not significant, since 0.002 is too small"),
                    "broken": N_("The test cannot be trusted with so many queries")},
           correct="real-small",
           why={"large": N_("p says how surprising the data would be if there were no difference; it says nothing "
                            "of how large the difference is. The effect size (d_z) and the mean gain do."),
                "not-real": N_("Significance is not importance: with this many queries even a small gain is "
                               "measured precisely, and p is far below any usual threshold."),
                "broken": N_("Many queries make the test more precise, not less trustworthy; what they expose is "
                             "differences too small to matter.")},
           explanation=N_("With tens of thousands of queries, the standard error is tiny, so even a gain of 0.002 "
                          "is far from 0 in standard errors: p is very small. The effect size d_z is far below 0.2 "
                          "(Cohen's 'small'): the gain is real and too small for most users to notice. Report both."),
           hints=(N_("A p-value and an effect size answer different questions: how surprising a difference this large "
                     "would be if there were none, and how large it is."),
                  N_("Compare d_z with Cohen's rough guide: 0.2 small, 0.5 medium, 0.8 large."),
                  N_("t = d_z · √n: with n this large, even a small d_z gives a large t.")),
           ),
    choice("holm-three-runs", family="many_queries", kind="analyse",
           title=N_("Three runs against one baseline"),
           question=N_("On the skincare collection (NDCG@5), three new runs are each compared with the baseline. "
                       "The exact randomisation p-values are A: {pA}, B: {pB}, C: {pC}. With Holm's correction for "
                       "the {m} comparisons, at the 0.05 level, which runs differ significantly from the baseline?"),
           facts=_holm_facts,
           options={"a": N_("A only"), "none": N_("none of them"), "ac": N_("A and C"), "all": N_("all three")},
           correct="none",
           why={"a": N_("That is the answer without a correction. Holm multiplies the smallest p-value by the "
                        "number of comparisons (3), and A's p-value times 3 is above 0.05."),
                "ac": N_("C's p-value is above 0.05 even before any correction; a correction only raises p-values."),
                "all": N_("B's p-value is far above 0.05: B is not better than the baseline at all.")},
           explanation=N_("Holm's first step multiplies the smallest p-value (A's) by the number of comparisons: "
                          "{hA} > 0.05, so A is not significant, and Holm stops there: none is."),
           hints=(N_("Three tests at the 0.05 level give about three chances of a false alarm; a correction for "
                     "multiple comparisons makes each test stricter."),
                  N_("Holm: sort the p-values; multiply the smallest by m, the next by m - 1, ...; stop at the first "
                     "one above the level."),
                  N_("The smallest p-value is A's; m = 3.")),
           ),
    derive("sign-flips-five-by-hand", family="many_queries",
           title=N_("A permutation p-value by hand"),
           claim=N_("Run B minus run A on five queries (P@10): {d}. Under the null hypothesis that the two runs are "
                    "equally good, each difference was as likely to come out with the other sign. Find the exact "
                    "two-sided randomisation (sign-flip) p-value by hand."),
           steps=(N_("Work in tenths and with sums instead of means (dividing by 5 keeps the order). Write the "
                     "observed sum, and the largest sum any sign pattern can reach."),
                  N_("Start from the pattern with every difference positive: making a set S of them negative lowers "
                     "the sum by twice their absolute values. List every S that keeps the sum at least as large as the "
                     "observed one (the observed pattern is one of them)."),
                  N_("Add their mirror images, the patterns whose sum is at most minus the observed one, and divide "
                     "the count by the 2^5 = 32 patterns.")),
           question=N_("What is the exact two-sided p-value?"),
           facts=_five_facts,
           options={"p3-16": N_("p = {right}"), "p3-32": N_("p = {one_side}"), "p1-16": N_("p = {strict}"),
                    "p1-32": N_("p = {single}")},
           correct="p3-16",
           why={"p3-32": N_("That is one side only, the patterns whose sum is at least the observed one. Two-sided "
                            "also counts their mirror images (step 3), whose sums are at most minus the observed one."),
                "p1-16": N_("That counts only the patterns strictly more extreme than the observed one. A pattern whose "
                            "sum equals the observed sum is as extreme and counts too: the observed pattern itself, "
                            "and the one that makes the other difference of 0.1 negative instead."),
                "p1-32": N_("That is the chance of the observed pattern alone. The p-value counts every pattern at least "
                            "as extreme as it, on both sides.")},
           model=N_("In tenths the differences are {tenths}: the observed sum is {observed}, the largest possible "
                    "{largest} (all positive). Making a set S negative lowers the sum by 2·Σ|d| over S, so the sum "
                    "stays ≥ {observed} when Σ|d| over S ≤ {slack}: S is empty (sum {largest}) or one of the two "
                    "differences of 1 (sum {observed}; one of them is the observed pattern): {one_count} patterns. Their mirror images have sums ≤ −{observed}: "
                    "{two_count} of 32 in all, p = {right}. lt.sign_flips gives the same count."),
           hints=(N_("Under the null hypothesis every one of the 2^n sign patterns is equally likely; p is the share "
                     "that is at least as extreme as the observed one."),
                  N_("Use sums in tenths, and think of which differences a pattern flips: a flip of d lowers the sum "
                     "by 2|d|."),
                  N_("The step students get wrong is a tie: a pattern whose sum equals the observed one is as "
                     "extreme, and counts.")),
           rubric=((1, N_("writes the observed sum and how flipping a set lowers it")),
                   (1, N_("lists every one-sided pattern at least as extreme, the ties with the observed sum included")),
                   (1, N_("doubles for the mirror images and divides by 32"))),
           level=3, about=("precision_at_k",)),
    written("sign-flips-p-too-small", family="many_queries",
            title=N_("A p-value five queries cannot give"),
            question=N_("A classmate compares two rankers' P@10 on 5 queries and reports: \"exact two-sided sign-flip test, p "
                        "= 0.03, so B is significantly better at the 0.05 level.\" In four or five sentences, explain "
                        "why an exact two-sided sign-flip test on 5 queries cannot give this p-value, what test the "
                        "number most likely comes from, and what you would advise."),
            model=N_("With 5 queries there are 2^5 = 32 equally likely sign patterns. However large the differences, "
                     "a two-sided test counts at least the observed pattern and its mirror image, so p is at least "
                     "2/32 = 1/16 = 0.0625: above 0.05 whatever the data. 0.03 is 1/32 = 0.03125 rounded, the "
                     "smallest one-sided p, reached when B wins on all five queries: the classmate ran (or read) a "
                     "one-sided test. Advice: say which alternative was tested and fix it before looking at the data; "
                     "five queries cannot show a two-sided difference at 0.05 at all, so evaluate on many more "
                     "queries (tens at least) and report the mean difference with its confidence interval."),
            hints=(N_("An exact test on n queries can only give p-values that are multiples of 1/2^n."),
                  N_("Ask which patterns a two-sided test always counts, whatever the differences are."),
                  N_("Then compare 0.03 with the multiples of 1/32.")),
            rubric=((2, N_("shows that the smallest two-sided p with 5 queries is 2/32 = 0.0625, above 0.05")),
                    (1, N_("identifies 0.03 as 1/32, a one-sided p with B winning on every query")),
                    (1, N_("advises fixing the alternative in advance and using many more queries (with an interval "
                           "for the difference)"))),
            level=3, about=("precision_at_k",)),
]
