"""The roc_auc family's exercises, in the order the exercise notebook asks them."""

from fractions import Fraction

from ...core.i18n import N_, _
from ...metrics import ctr, roc
from ..kinds import _e, choice, derive
from ._compute import _auc_task, _labels_scores

FAMILY = ("roc_auc", N_("ROC and AUC"))

#: Seven items for the rank-sum derivation, by descending score.
_RANK_SUM_LABELS = [1, 0, 1, 0, 1, 0, 0]
_RANK_SUM_SCORES = [Fraction(7, 10), Fraction(6, 10), Fraction(5, 10), Fraction(4, 10), Fraction(3, 10),
                    Fraction(2, 10), Fraction(1, 10)]


def _rank_sum_facts() -> dict:
    right = roc.auc(_RANK_SUM_LABELS, [float(s) for s in _RANK_SUM_SCORES]).exact
    n = len(_RANK_SUM_LABELS)
    ascending = sorted(zip(_RANK_SUM_SCORES, _RANK_SUM_LABELS))
    ranks = [i for i, (_score, label) in enumerate(ascending, start=1) if label]
    n_pos, n_neg = len(ranks), n - len(ranks)
    return {"items": ", ".join(f"{'+' if y else '−'}{float(s)}" for y, s in zip(_RANK_SUM_LABELS, _RANK_SUM_SCORES)),
            "right": str(right), "no_shift": str(Fraction(sum(ranks), n_pos * n_neg)),
            "descending": str(1 - Fraction(int(right.p), int(right.q))), "all_pairs": str(
                Fraction(int(right.p), int(right.q)) * n_pos * n_neg / (n * (n - 1) // 2)),
            "ranks": ", ".join(map(str, ranks)), "r_plus": sum(ranks), "n_pos": n_pos, "n_neg": n_neg,
            "shift": n_pos * (n_pos + 1) // 2, "pairs": n_pos * n_neg}


EXERCISES = [
    _e("auc-tie", "roc_auc", "auc", {"labels": [1, 0, 1, 0], "scores": [0.9, 0.8, 0.8, 0.1], "_tie": True},
       _auc_task, [N_("Four pairs; the positive at 0.8 ties the negative at 0.8.")], randomize=_labels_scores),
    _e("auc-ties", "roc_auc", "auc",
       {"labels": [1, 1, 0, 1, 0, 0], "scores": [0.9, 0.7, 0.7, 0.5, 0.5, 0.2], "_tie": True}, _auc_task,
       [N_("3 × 3 = 9 pairs; two of them are ties.")], randomize=_labels_scores),
    _e("auc-no-ties", "roc_auc", "auc", {"labels": [1, 0, 1, 1, 0], "scores": [0.8, 0.6, 0.55, 0.3, 0.2]},
       _auc_task, [N_("Count, for each positive, the negatives scored below it.")], randomize=_labels_scores),
    _e("roc-area", "roc_auc", "roc_curve",
       {"labels": [0, 1, 1, 0, 1, 0], "scores": [0.9, 0.8, 0.6, 0.6, 0.4, 0.1], "_roc": True, "_tie": True},
       _auc_task, [N_("Walk down the scores: a positive moves up 1/3, a negative right 1/3, a tied pair diagonally.")],
       intro=N_("Post 000 describes AUC as the area under the ROC curve."), source="doc 000",
       randomize=_labels_scores),
    derive("auc-derive-rank-sum", family="roc_auc",
           title=N_("AUC from the ranks alone"),
           claim=N_("Sort n items by ascending score (no ties) and number them 1 to n; n₊ are positive, n₋ negative, "
                    "and R₊ is the sum of the positives' numbers. Show that AUC = (R₊ − n₊(n₊ + 1)/2) / (n₊·n₋), the "
                    "Mann–Whitney U statistic divided by the number of pairs."),
           steps=(N_("Take the positive with the k-th smallest number, r_k. How many items lie below it, how many of "
                     "them are positive, and so how many negatives does it beat?"),
                  N_("Add over k = 1 … n₊: write the number of positive–negative pairs won in terms of R₊."),
                  N_("Divide by the number of positive–negative pairs.")),
           question=N_("A model scores seven items (+ positive, − negative): {items}. Using the formula, what is its "
                       "AUC?"),
           facts=_rank_sum_facts,
           options={"auc-right": N_("{right}"), "auc-no-shift": N_("{no_shift}"), "auc-descending": N_("{descending}"),
                    "auc-all-pairs": N_("{all_pairs}")},
           correct="auc-right",
           why={"auc-no-shift": N_("That is R₊ / (n₊·n₋), above 1: step 1 counts the positives below each positive, "
                                   "which are not negatives; n₊(n₊ + 1)/2 takes them away."),
                "auc-descending": N_("That numbers the items by descending score, so R₊ counts the negatives above "
                                     "each positive: it is 1 − AUC. The formula numbers by ascending score."),
                "auc-all-pairs": N_("That divides by every pair of the seven items, n(n − 1)/2; step 3 divides by the "
                                    "positive–negative pairs only, n₊·n₋.")},
           model=N_("The positive numbered r_k has r_k − 1 items below it, of which k − 1 are the positives with "
                    "smaller numbers, so it beats r_k − k negatives. Summed over k: Σ r_k − Σ k = R₊ − n₊(n₊ + 1)/2 "
                    "pairs won; divided by the n₊·n₋ pairs, that is AUC. Here the positives are numbered {ranks}: R₊ = "
                    "{r_plus}, n₊ = {n_pos}, n₋ = {n_neg}, and AUC = ({r_plus} − {shift}) / {pairs} = {right}."),
           hints=(N_("AUC is the share of positive–negative pairs in which the positive scores higher."),
                  N_("Count, for one positive, the negatives below it: the items below it minus the positives below "
                     "it."),
                  N_("The step students get wrong: number the items from the lowest score up.")),
           rubric=((1, N_("counts r_k − k negatives below the k-th positive")),
                   (1, N_("sums to R₊ − n₊(n₊ + 1)/2 and divides by n₊·n₋")),
                   (1, N_("applies it to the seven items with ascending numbers"))),
           level=3, about=("auc",), source="Mann & Whitney 1947"),
]


# -- notebook 07's questions: predict, then check -----------------------------------------------------------
# The eight products of notebook 07 and document 000: 小棕瓶眼霜, MAC口红, 神仙水, 兰蔻粉水, 芦荟霜, 面膜, 面霜, 菌菇水;
# label 1 = bought. 神仙水 (bought) and MAC口红 (not) tie at 0.8.
_PRODUCTS = {"labels": [1, 0, 1, 1, 0, 0, 1, 0], "scores": [0.9, 0.8, 0.8, 0.7, 0.6, 0.4, 0.35, 0.1]}
_SHENXIANSHUI = 2
_COPIES = 10
# Two users of notebook 07's GAUC section: 小王 clicks often, 小李 rarely; the model scores every ad of 小王 higher.
_USERS = {"labels": [0, 1, 1, 0, 1, 0, 0, 1, 0, 0], "scores": [0.95, 0.9, 0.85, 0.8, 0.75, 0.3, 0.25, 0.2, 0.15, 0.1],
          "groups": ["小王"] * 5 + ["小李"] * 5}


def _negatives_copied(data, copies=_COPIES):
    """Every negative shown to ``copies`` users with the same score (and still not bought)."""
    labels = [y for y in data["labels"] for _ in range(1 if y else copies)]
    scores = [s for y, s in zip(data["labels"], data["scores"]) for _ in range(1 if y else copies)]
    return labels, scores


def _tie_facts():
    before = roc.auc(_PRODUCTS["labels"], _PRODUCTS["scores"])
    scores = list(_PRODUCTS["scores"])
    scores[_SHENXIANSHUI] = 0.85
    pairs = before.params["n_pos"] * before.params["n_neg"]
    return {"auc": before.exact_str, "auc_after": roc.auc(_PRODUCTS["labels"], scores).exact_str, "pairs": pairs,
            "half": str(Fraction(1, 2 * pairs)), "whole": str(Fraction(1, pairs)), "two": str(Fraction(2, pairs))}


def _imbalance_facts():
    labels, scores = _negatives_copied(_PRODUCTS)
    ap, ap_many = roc.pr_curve(_PRODUCTS["labels"], _PRODUCTS["scores"]), roc.pr_curve(labels, scores)
    return {"auc": roc.auc(_PRODUCTS["labels"], _PRODUCTS["scores"]).exact_str, "copies": _COPIES,
            "n_neg": _PRODUCTS["labels"].count(0), "n_neg_many": labels.count(0), "n_pos": labels.count(1),
            "auc_many": roc.auc(labels, scores).exact_str, "ap": ap.decimal_str, "ap_many": ap_many.decimal_str,
            "base": str(ap.params["base_rate"]), "base_many": str(ap_many.params["base_rate"])}


def _gauc_facts():
    grouped = ctr.gauc(_USERS["labels"], _USERS["scores"], _USERS["groups"])
    return {"auc": roc.auc(_USERS["labels"], _USERS["scores"]).decimal_str, "gauc": grouped.decimal_str,
            "wang": grouped.parts["小王"].exact_str, "li": grouped.parts["小李"].exact_str}


def _pr_task(d) -> str:
    pairs = ", ".join(f"{'+' if y else '−'}{s}" for y, s in zip(d["labels"], d["scores"]))
    return _("A model scores items (+ positive, − negative): {pairs}. Compute AP as the area under the "
             "precision–recall curve: lower the threshold score by score and add, at each positive, the "
             "recall it gains times the precision there.").format(pairs=pairs)


EXERCISES += [
    choice("auc-tie-broken", family="roc_auc", kind="predict",
           title=N_("Breaking a tie"),
           question=N_("In notebook 07's example the bought 神仙水 and the not-bought MAC口红 share the score 0.8; "
                       "AUC = {auc} over {pairs} positive–negative pairs. Raise 神仙水's score to 0.85, just above "
                       "MAC口红. By how much does AUC change?"),
           facts=_tie_facts,
           options={"half": N_("+{half}"), "whole": N_("+{whole}"), "two": N_("+{two}"), "none": N_("0")},
           correct="half",
           why={"whole": N_("The tied pair already counted 1/2; winning it adds only the other half of one pair "
                            "out of {pairs}."),
                "two": N_("Only one pair changes, (神仙水, MAC口红): 神仙水 already outscored the three other "
                          "negatives, all below 0.8."),
                "none": N_("A tie counts 1/2 and a win counts 1: the pair (神仙水, MAC口红) gains 1/2.")},
           explanation=N_("The pair (神仙水, MAC口红) goes from a tie, worth 1/2, to a win, worth 1: half a pair out "
                          "of {pairs}, so AUC goes from {auc} to {auc_after}. A tie sits exactly half way between "
                          "the two ways of breaking it."),
           hints=(N_("AUC is the share of positive–negative pairs the model orders correctly; a tie counts 1/2."),
                  N_("Find the pairs whose outcome changes when 神仙水 moves from 0.8 to 0.85."),
                  N_("There are 4 bought and 4 not-bought products: 16 pairs.")),
           source="notebook 07"),
    choice("auc-imbalance", family="roc_auc", kind="predict",
           title=N_("Ten times as many negatives: AUC"),
           question=N_("Notebook 07's eight products, {n_pos} bought and {n_neg} not: AUC = {auc}. Now every "
                       "not-bought product is shown to {copies} users, with the same score, and none buys it: "
                       "{n_pos} positives, {n_neg_many} negatives. What happens to AUC?"),
           facts=_imbalance_facts,
           options={"same": N_("It stays the same."), "falls": N_("It falls."), "rises": N_("It rises.")},
           correct="same",
           why={"falls": N_("AUC falls only if a smaller share of the pairs is won: count how the pairs each "
                            "positive wins and all pairs grow when every negative appears {copies} times."),
                "rises": N_("AUC rises only if a larger share of the pairs is won: compare how the pairs won and "
                            "all pairs grow when every negative appears {copies} times.")},
           explanation=N_("AUC is the share of positive–negative pairs won; copying every negative multiplies both "
                          "counts by {copies}, so AUC stays {auc_many}. TPR is a share of the positives and FPR a "
                          "share of the negatives: the ROC curve does not see the class ratio."),
           hints=(N_("AUC is a share of pairs: pairs won over all pairs."),
                  N_("Count how the pairs won and all pairs change when each negative appears ten times."),
                  N_("Before: 4 × 4 = 16 pairs; after: 4 × 40.")),
           source="notebook 07"),
    choice("ap-imbalance", family="roc_auc", kind="predict",
           title=N_("Ten times as many negatives: AP"),
           question=N_("The same change: each not-bought product shown to {copies} users with its score. Before it, "
                       "AP, the area under the precision–recall curve, is {ap}. What happens to AP?"),
           facts=_imbalance_facts,
           options={"falls": N_("It falls."), "same": N_("It stays the same, like AUC."), "rises": N_("It rises.")},
           correct="falls",
           why={"same": N_("AP is not AUC: precision = TP / (TP + FP) mixes the classes, while FPR is divided by "
                           "the negatives alone. Work out what {copies} times as many false positives above each "
                           "positive do to TP / (TP + FP)."),
                "rises": N_("More negatives can only add false positives above a positive; recall does not change, "
                            "so no precision can rise.")},
           explanation=N_("AP falls from {ap} to {ap_many}. A ranking in random order has precision equal to the "
                          "positive share, {base} before and {base_many} after: the PR curve shows the class ratio "
                          "that the ROC curve hides."),
           hints=(N_("Precision counts the false positives above a point; recall counts only positives."),
                  N_("Take the first positive below a negative and compute its precision before and after."),
                  N_("At the threshold 0.8 there are 2 positives and 1 negative before the change.")),
           source="notebook 07"),
    _e("ap-scores", "roc_auc", "pr_curve", {"labels": [1, 0, 1, 1, 0, 0], "scores": [0.9, 0.8, 0.7, 0.6, 0.5, 0.2]},
       _pr_task, [N_("At each threshold: precision = TP / (TP + FP), recall = TP / P; only a positive adds area.")],
       randomize=_labels_scores),
    choice("gauc-vs-auc", family="roc_auc", kind="predict",
           title=N_("GAUC against AUC"),
           question=N_("Two users see five ads each. 小王 clicks often: scores 0.95, 0.9, 0.85, 0.8, 0.75, clicked "
                       "0, 1, 1, 0, 1. 小李 rarely clicks: scores 0.3, 0.25, 0.2, 0.15, 0.1, clicked 0, 0, 1, 0, 0. "
                       "The global AUC over all ten impressions is {auc}. How does GAUC (each user's AUC, weighted "
                       "by impressions) compare?"),
           facts=_gauc_facts,
           options={"lower": N_("GAUC is lower."), "higher": N_("GAUC is higher."), "equal": N_("They are equal.")},
           correct="lower",
           why={"higher": N_("Within each user the model orders clicks poorly (小王: {wang}, 小李: {li}). The global "
                             "AUC is high only because it also counts pairs across users, 小王's clicks against "
                             "小李's non-clicks, which the model wins by knowing who clicks more."),
                "equal": N_("GAUC keeps only the pairs inside one user; the global AUC also counts the cross-user "
                            "pairs, which this model wins every time.")},
           explanation=N_("GAUC = {gauc} (小王 {wang}, 小李 {li}): the model learned which user clicks, not which ad "
                          "each user clicks. The global AUC {auc} rewards that with pairs of two users' ads that no "
                          "page ever shows side by side."),
           hints=(N_("GAUC computes AUC inside each user, then averages."),
                  N_("Compute 小王's AUC from his five ads alone, then 小李's."),
                  N_("小王 has 3 clicks and 2 non-clicks: 6 pairs.")),
           source="notebook 07"),
    choice("auc-choose-ads", family="roc_auc", kind="evaluate",
           title=N_("A metric across days"),
           question=N_("An ad team compares click-through models on logs of different days; the click rate moves "
                       "from day to day. They want one number that does not move just because the click rate "
                       "moved, and that predicting 'no click' everywhere cannot win. Which metric?"),
           options={"auc": N_("AUC"), "accuracy": N_("Accuracy"), "precision": N_("Precision at a fixed threshold"),
                    "ap": N_("AP")},
           correct="auc",
           why={"accuracy": N_("Predicting 'no click' everywhere scores above 99 % accuracy at a click rate under 1 "
                               "%, and accuracy moves with the click rate."),
                "precision": N_("With more clicks in the logs the same model finds more true positives above the "
                                "threshold: precision moves with the click rate."),
                "ap": N_("A random model's AP is the click rate itself: AP moves with it.")},
           explanation=N_("AUC is a share of click–non-click pairs: it does not depend on the click rate, and the "
                          "constant 'no click' predictor ties every pair, AUC 1/2. Report it beside a top-of-list "
                          "measure: a high AUC can hide a top 10 that is mostly non-clicks."),
           hints=(N_("Which metrics divide by counts of one class only?"),
                  N_("Try each metric on a model that predicts 'no click' for every impression."),
                  N_("TPR is divided by the clicks, FPR by the non-clicks.")),
           source="notebook 07"),
]
