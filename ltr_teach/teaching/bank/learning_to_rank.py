"""The learning_to_rank family's exercises: pairs, surrogate losses, LambdaRank's swap weights (notebook 15)."""

import math

from ...core.i18n import N_, _
from ...metrics.graded import dcg, idcg, ndcg
from ...metrics.pairs import misordered_pairs
from ...metrics.roc import auc
from ..kinds import choice, create, derive, written

FAMILY = ("learning_to_rank", N_("From AUC to learning to rank"))

_LABELS = [1, 1, 0, 1, 1, 0, 1, 0, 0]
_SCORES = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1]
_SWAP_GRADES = [0, 3, 1, 2]


def _by_rank(grades) -> list:
    """Scores that keep a typed order: rank 1 scores highest."""
    return list(range(len(grades), 0, -1))


def _fewer_pairs_lower_ndcg(pair):
    """Why a typed pair is not two orders of the same grades where A misorders fewer pairs but has lower NDCG."""
    a, b = pair
    if sorted(a) != sorted(b):
        return _("A and B must be two orders of the same grades; sorted they are {a} and {b}").format(
            a=sorted(a), b=sorted(b))
    if len(set(a)) < 2:
        return _("the grades must differ, or there is no pair to misorder")
    if not any(a):
        return _("at least one grade must be above 0, or NDCG is undefined")
    mis_a, mis_b = misordered_pairs(a, _by_rank(a)).exact, misordered_pairs(b, _by_rank(b)).exact
    if not mis_a < mis_b:
        return _("A misorders {a} of its pairs, not fewer than B's {b}").format(a=mis_a, b=mis_b)
    nd_a, nd_b = ndcg(a), ndcg(b)
    if not nd_a.value < nd_b.value:
        return _("NDCG of A = {a} is not below NDCG of B = {b}").format(a=nd_a.decimal_str, b=nd_b.decimal_str)
    return None


#: The ranking and the swapped ranks of the LambdaRank derivation.
_DELTA_GRADES, _DELTA_I, _DELTA_J = [1, 0, 3, 2], 1, 3


def _swap_facts() -> dict:
    swapped = list(_DELTA_GRADES)
    swapped[_DELTA_I - 1], swapped[_DELTA_J - 1] = swapped[_DELTA_J - 1], swapped[_DELTA_I - 1]
    delta = abs(ndcg(swapped).value - ndcg(_DELTA_GRADES).value)
    raw = abs(dcg(swapped).value - dcg(_DELTA_GRADES).value)
    linear = abs(ndcg(swapped, gain="linear").value - ndcg(_DELTA_GRADES, gain="linear").value)
    gi, gj = (2 ** _DELTA_GRADES[_DELTA_I - 1] - 1), (2 ** _DELTA_GRADES[_DELTA_J - 1] - 1)
    return {"grades": "[" + ", ".join(map(str, _DELTA_GRADES)) + "]", "i": _DELTA_I, "j": _DELTA_J,
            "right": f"{delta:.4f}", "raw": f"{raw:.4f}", "linear": f"{linear:.4f}",
            "by_dcg": f"{raw / dcg(_DELTA_GRADES).value:.4f}", "gain_gap": abs(gi - gj),
            "discount_gap": f"{abs(1 / math.log2(_DELTA_I + 1) - 1 / math.log2(_DELTA_J + 1)):.4f}",
            "idcg": f"{idcg(_DELTA_GRADES).value:.4f}"}


EXERCISES = [
    choice("auc-misordered-count", family="learning_to_rank", kind="analyse",
           title=N_("AUC as a count of pairs"),
           question=N_("A model scores 5 clicked and 4 unclicked impressions (no ties) and gets AUC = {auc}. How many "
                       "(clicked, unclicked) pairs does it put in the wrong order?"),
           facts=lambda: {"auc": auc(_LABELS, _SCORES).exact_str},
           options={"four": N_("4 pairs"), "five": N_("5 pairs"), "sixteen": N_("16 pairs"), "eight": N_("8 pairs")},
           correct="four",
           why={"five": N_("5 is the number of clicked impressions, not of misordered pairs."),
                "sixteen": N_("16 = 0.8 × 20 is the number of pairs in the right order."),
                "eight": N_("There are 5 × 4 = 20 pairs, not 40; 8 would be 0.2 × 40.")},
           explanation=N_("AUC is the share of (positive, negative) pairs in the right order, so 1 − AUC is the share "
                          "in the wrong order: (1 − 4/5) × 5 × 4 = 4 pairs."),
           hints=(N_("AUC is the share of (positive, negative) pairs the scores order correctly."),
                  N_("Count the pairs first: every clicked impression with every unclicked one."),
                  N_("There are 5 × 4 = 20 pairs."))),
    choice("ndcg-flat-in-scores", family="learning_to_rank", kind="analyse",
           title=N_("A nudge that changes nothing"),
           question=N_("A ranker scores four documents 2.0, 1.5, 1.0, 0.5, and NDCG of the resulting order is "
                       "{ndcg}. A training step raises the third document's score from 1.0 to 1.2. What is the "
                       "gradient of NDCG with respect to that score, and why?"),
           facts=lambda: {"ndcg": ndcg([2, 0, 1, 0]).decimal_str},
           options={"zero": N_("0: the order does not change, so NDCG does not change"),
                    "positive": N_("Positive: the document moved up"),
                    "undefined": N_("Undefined: NDCG has no scores in it"),
                    "negative": N_("Negative: the others lose ground")},
           correct="zero",
           why={"positive": N_("The document has not moved: 1.2 is still below 1.5, so it stays at rank 3 and NDCG is "
                               "the same number."),
                "undefined": N_("NDCG is a function of the scores through the order they induce; between two crossings "
                                "it is constant, so its derivative is 0 there, not undefined."),
                "negative": N_("No other document moved either; every rank and every contribution is unchanged.")},
           explanation=N_("NDCG depends on the scores only through the order. It is piecewise constant: flat between "
                          "crossings, jumping when two scores cross. Its gradient is 0 almost everywhere and "
                          "undefined at the jumps, so gradient descent cannot follow it; hence smooth pairwise "
                          "surrogates such as RankNet's, and LambdaRank's weights."),
           hints=(N_("NDCG reads the scores only through the ranking they produce."),
                  N_("Re-sort the documents by the new scores: did the order change?"),
                  N_("1.2 is still between 1.5 and 0.5."))),
    choice("which-training-signal", family="learning_to_rank", kind="evaluate",
           title=N_("Training for NDCG@10"),
           question=N_("You train a web-search ranker judged by NDCG@10 on graded labels. Which training signal "
                       "fits best?"),
           options={"lambdarank": N_("LambdaRank / LambdaMART: pairwise gradients weighted by |ΔNDCG|"),
                    "direct": N_("Gradient descent on NDCG@10 itself"),
                    "pointwise": N_("Squared error between score and grade"),
                    "accuracy": N_("Classification accuracy of relevant vs not")},
           correct="lambdarank",
           why={"direct": N_("NDCG is piecewise constant in the scores: its gradient is 0 almost everywhere, so there "
                             "is nothing to descend."),
                "pointwise": N_("Squared error spends effort on exact score values at every rank, the 500th as much as "
                                "the 1st; NDCG@10 cares about the order at the top only."),
                "accuracy": N_("Accuracy throws away the grades and the positions, both of which NDCG@10 reads.")},
           explanation=N_("LambdaRank keeps RankNet's smooth pairwise gradient and scales each pair's by the |ΔNDCG| "
                          "that swapping the two documents would cause: pairs that matter at the top get large "
                          "weights, pairs deep below k get none. LambdaMART is the same gradient in boosted trees "
                          "(LightGBM's objective lambdarank, XGBoost's rank:ndcg)."),
           hints=(N_("Can you take the derivative of NDCG with respect to a score?"),
                  N_("Ask of each option what it rewards at rank 1 compared with rank 500."),
                  N_("A swap weight of a pair is the change in NDCG if the two documents traded places."))),
    choice("largest-swap-weight", family="learning_to_rank", kind="predict",
           title=N_("Which swap weighs most?"),
           question=N_("A ranking has grades [0, 3, 1, 2] (gain 2^rel − 1, discount log2(i + 1)). LambdaRank weighs "
                       "each pair by |ΔNDCG| of swapping them. Which pair of ranks gets the largest weight?"),
           options={"r1-r2": N_("ranks 1 and 2 (grades 0 and 3)"), "r1-r4": N_("ranks 1 and 4 (grades 0 and 2)"),
                    "r2-r4": N_("ranks 2 and 4 (grades 3 and 2)"), "r3-r4": N_("ranks 3 and 4 (grades 1 and 2)")},
           correct="r1-r2",
           why={"r1-r4": N_("The gain gap 3 − 0 = 3 is smaller than 7 − 0 = 7, and the discount gap is larger, but not "
                            "enough: 3 × (1 − 1/log2 5) ≈ 1.71 against 7 × (1 − 1/log2 3) ≈ 2.58."),
                "r2-r4": N_("Grades 3 and 2 have close gains (7 and 3), so swapping them moves little."),
                "r3-r4": N_("Low grades at low ranks: both the gain gap (3 − 1) and the discount gap are small.")},
           explanation=N_("|ΔNDCG| = |G_i − G_j| · |1/log2(i+1) − 1/log2(j+1)| / IDCG: a large gain gap at ranks "
                          "whose discounts differ a lot. Ranks 1 and 2 hold the largest gain gap (7) and the steepest "
                          "part of the discount curve."),
           hints=(N_("Only the two swapped documents' terms of DCG change."),
                  N_("For each pair compute |G_i − G_j| × |1/log2(i+1) − 1/log2(j+1)|; IDCG is common to all."),
                  N_("Gains are 0, 7, 1, 3; discounts 1, 1/log2 3 ≈ 0.631, 1/2, 1/log2 5 ≈ 0.431."))),
    create("fewer-pairs-lower-ndcg", family="learning_to_rank",
           title=N_("Pairs and NDCG disagree"),
           question=N_("Type two orders A and B of the **same** grades (from 0 to 3) such that A misorders **fewer** "
                       "pairs than B, yet A's NDCG (gain 2^rel − 1, discount log2(i + 1)) is **lower**."),
           shape="pair", verify=_fewer_pairs_lower_ndcg, example=[[1, 3, 0, 0, 0], [3, 0, 0, 1, 0]],
           explanation=N_("A pair count weighs a mistake at rank 1 like one at rank 5; NDCG weighs the top far more. "
                          "An order that gets the best document to rank 1 at the cost of a few mistakes lower down "
                          "wins on NDCG and loses on pairs: the reason LambdaRank reweighs pairs by |ΔNDCG|."),
           hints=(N_("A pair count treats every pair alike; NDCG cares most about rank 1."),
                  N_("Let A keep the low grades in order but put a mid grade first; let B put the best grade first."),
                  N_("Try the grades 3, 1, 0, 0, 0, and for each order count the pairs where a lower grade stands "
                     "above a higher one."))),
    derive("lambda-swap-delta", family="learning_to_rank",
           title=N_("The weight of one swap"),
           claim=N_("LambdaRank weighs a pair of documents by |ΔNDCG|, the change in NDCG if the two swapped places. "
                    "Show that for ranks i < j, with gains G and discounts D(r) = log2(r + 1), |ΔNDCG| = |G_i − G_j|·"
                    "|1/D(i) − 1/D(j)| / IDCG, whatever the other documents are."),
           steps=(N_("Write DCG before and after the swap. Which terms of the sum change?"),
                  N_("Subtract, and factor the difference into a gain part and a discount part."),
                  N_("Does IDCG change with the swap? Divide.")),
           question=N_("A ranking has grades {grades} (gain 2^rel − 1, discount log2(i + 1)). What is |ΔNDCG| of swapping "
                       "ranks {i} and {j}?"),
           facts=_swap_facts,
           options={"d-right": N_("{right}"), "d-raw": N_("{raw}"), "d-linear": N_("{linear}"), "d-by-dcg": N_("{by_dcg}")},
           correct="d-right",
           why={"d-raw": N_("That is |ΔDCG|, not divided by IDCG (step 3): NDCG is DCG / IDCG, so its change is ΔDCG / "
                            "IDCG."),
                "d-linear": N_("That uses the grades themselves as gains; the question's gain is 2^rel − 1, in the "
                               "difference and in IDCG."),
                "d-by-dcg": N_("That divides by the ranking's own DCG; NDCG divides by IDCG, which the swap leaves as "
                               "it is (step 3).")},
           model=N_("Only ranks i and j change: before, G_i/D(i) + G_j/D(j); after, G_j/D(i) + G_i/D(j). The difference "
                    "is (G_j − G_i)(1/D(i) − 1/D(j)). IDCG depends only on the grades, not on their order, so ΔNDCG = "
                    "ΔDCG / IDCG. Here |G_i − G_j| = {gain_gap}, |1/D(i) − 1/D(j)| = {discount_gap}, IDCG = {idcg}: "
                    "|ΔNDCG| = {right}."),
           hints=(N_("NDCG = DCG / IDCG; ask what a swap does to each."),
                  N_("Write the two changed terms before and after the swap and subtract."),
                  N_("The step students get wrong: IDCG sorts the grades, so it is the same before and after the swap.")),
           rubric=((1, N_("shows that only the terms of ranks i and j change")),
                   (1, N_("factors ΔDCG as (G_j − G_i)(1/D(i) − 1/D(j))")),
                   (1, N_("divides by an IDCG the swap leaves unchanged and computes the value"))),
           level=3, about=("ndcg",), source="Burges et al. 2006"),
    written("pairwise-loss-written", family="learning_to_rank",
            title=N_("A pair loss that misses the top"),
            question=N_("A ranker is trained with a pairwise loss that charges every misordered pair the same (RankNet "
                        "without weights). After training it misorders fewer pairs than before, yet its NDCG@10 on the "
                        "test queries fell. In four or five sentences, explain how both can be true and how LambdaRank "
                        "changes the training so that NDCG@10 follows."),
            model=N_("A pair count weighs a mistake between ranks 40 and 41 like one between ranks 1 and 2, while "
                     "NDCG@10 sees only the top 10 and weighs rank 1 most. The training may have fixed many pairs far "
                     "down the list and, to do so, let one highly relevant document slip from rank 1 to rank 4: fewer "
                     "misordered pairs, lower NDCG@10. LambdaRank keeps the pairwise gradient but multiplies each "
                     "pair's by |ΔNDCG@10|, the change in NDCG@10 if the two documents swapped places. Pairs with a "
                     "large gain gap near the top get large weights, pairs below rank 10 get weight 0, so the updates "
                     "go where NDCG@10 changes."),
            hints=(N_("Compare how a pair count and NDCG@10 weigh a mistake at rank 2 and one at rank 40."),
                  N_("Imagine an update that fixes many low pairs at the cost of one high one."),
                  N_("Then say what LambdaRank multiplies each pair's gradient by.")),
            rubric=((1, N_("explains that a pair count weighs every rank alike while NDCG@10 weighs the top")),
                    (1, N_("gives a way both can happen: many low pairs fixed, a top document lost")),
                    (1, N_("says LambdaRank weighs each pair's gradient by |ΔNDCG| of swapping it")),
                    (1, N_("notes that pairs below the cut-off or with equal gains get little or no weight"))),
            level=3, about=("ndcg",), source="Burges et al. 2006"),
]
