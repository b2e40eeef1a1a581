"""The precision_recall family's exercises, in the order the exercise notebook asks them."""

from fractions import Fraction

import sympy

from ...core.i18n import N_, _
from ...metrics.binary import f_beta, precision_at_k, recall_at_k, reciprocal_rank
from ...metrics.confusion import confusion_matrix
from ..kinds import _e, arranged, choice, create, derive, written
from ._compute import (
    _bpref_task,
    _f_task,
    _graded_judgments,
    _judged_task,
    _judgments,
    _p_task,
    _precision_longer,
    _r_task,
    _recall_below_1,
    _rels,
    _rprec_task,
    _success_task,
)

# -- the questions notebooks 00 and 01 ask with lt.ask (predict, analyse, evaluate, create) -----------------
#: The two result pages of notebook 00's opening question (query 眼霜): 1 = an eye cream the shopper could buy.
_PAGE_A = [1, 0, 0, 0, 0]
_PAGE_B = [0, 1, 1, 1, 0]
#: Notebook 00's editor: document 000's query 神仙水 (hits at ranks 2, 3, 6, 7), under P@3.
_SHENXIANSHUI = [0, 1, 1, 0, 0, 1, 1]
#: Notebook 01's ranking: document 004's topic 1 pattern (hits at ranks 1, 2, 4, 7), 4 relevant in all.
_TOPIC1_TEN = [1, 1, 0, 1, 0, 0, 1, 0, 0, 0]
#: Document 000's click-through example in notebook 01: 1000 impressions, the 3 clicked ones at these ranks.
_CLICKED_RANKS, _IMPRESSIONS = (2, 10, 40), 1000


def _two_pages_facts() -> dict:
    return {"rr_a": reciprocal_rank(_PAGE_A).exact_str, "rr_b": reciprocal_rank(_PAGE_B).exact_str,
            "p_a": precision_at_k(_PAGE_A, 5).exact_str, "p_b": precision_at_k(_PAGE_B, 5).exact_str}


def _irrelevant_down_facts() -> dict:
    moved = _SHENXIANSHUI[1:4] + _SHENXIANSHUI[:1] + _SHENXIANSHUI[4:]   # rank 1 down three ranks
    return {"before": precision_at_k(_SHENXIANSHUI, 3).exact_str, "after": precision_at_k(moved, 3).exact_str}


def _hit_out_facts() -> dict:
    moved = _TOPIC1_TEN[:3] + _TOPIC1_TEN[4:6] + _TOPIC1_TEN[3:4] + _TOPIC1_TEN[6:]   # rank 4 to rank 6
    return {"p_before": precision_at_k(_TOPIC1_TEN, 5).exact_str, "p_after": precision_at_k(moved, 5).exact_str,
            "r_before": recall_at_k(_TOPIC1_TEN, 5).exact_str, "r_after": recall_at_k(moved, 5).exact_str}


def _unretrieved_facts() -> dict:
    return {"p": precision_at_k(_TOPIC1_TEN, 5).exact_str,
            "r4": recall_at_k(_TOPIC1_TEN, 5, n_relevant=4).exact_str,
            "r8": recall_at_k(_TOPIC1_TEN, 5, n_relevant=8).exact_str,
            "f4": f_beta(_TOPIC1_TEN, 5, n_relevant=4).exact_str, "f8": f_beta(_TOPIC1_TEN, 5, n_relevant=8).exact_str}


def _clicks_facts() -> dict:
    clicks = [int(rank in _CLICKED_RANKS) for rank in range(1, _IMPRESSIONS + 1)]
    never, top10 = confusion_matrix(clicks, 0), confusion_matrix(clicks, 10)
    return {"never": str(never.accuracy), "top10": str(top10.accuracy), "tn_never": never.tn, "tn_top10": top10.tn,
            "tp_top10": top10.tp, "fp_top10": top10.fp}


def _precise_but_incomplete(rels):
    """P@3 = 1 and R@3 <= 1/2, every relevant document in the list; else why not (a translated message)."""
    if any(g not in (0, 1) for g in rels):
        return _("Use 0 (not relevant) and 1 (relevant) only.")
    if len(rels) < 3:
        return _("The list needs at least 3 results for P@3.")
    p3, r3 = precision_at_k(rels, 3), recall_at_k(rels, 3)
    if p3.exact != 1:
        return _("P@3 = {p}, not 1: every one of the top 3 must be relevant.").format(p=p3.exact_str)
    if r3.exact > sympy.Rational(1, 2):
        return _("R@3 = {r}, above 1/2: the top 3 already hold more than half of the relevant documents.").format(
            r=r3.exact_str)
    return None


FAMILY = ("precision_recall", N_("Precision, recall and F"))

EXERCISES = [
    _e("p-at-2-doc001", "precision_recall", "precision_at_k", {"rels": [1, 0], "k": 2, "total_relevant": 3},
       _p_task, [N_("Count the relevant items among the top k and divide by k, not by the number of relevant "
                 "documents.")], intro=N_("Post 001: l(1) = 1, l(2) = 0."), source="doc 001",
       randomize=_precision_longer),
    _e("p-at-5", "precision_recall", "precision_at_k", {"rels": [1, 0, 1, 1, 0, 0, 1], "k": 5, "total_relevant": 6},
       _p_task, [N_("Count the hits among the first five.")], randomize=_rels),
    _e("r-at-5", "precision_recall", "recall_at_k", {"rels": [1, 0, 1, 1, 0, 0, 1], "k": 5, "n_relevant": 6},
       _r_task, [N_("Recall divides the hits in the top 5 by all 6 relevant documents.")], randomize=_rels,
       point=_recall_below_1),
    _e("p-at-5-short", "precision_recall", "precision_at_k", {"rels": [0, 1, 1], "k": 5, "total_relevant": 4},
       _p_task, [N_("The list has only 3 items; the empty ranks 4 and 5 count as not relevant.")], randomize=_rels),
    _e("f1-doc000", "precision_recall", "f_beta", {"rels": [1, 0, 1, 1, 0, 0, 1], "k": 5, "n_relevant": 6},
       _f_task, [N_("F1 = 2PR / (P + R).")],
       intro=N_("Post 000 writes F_β = (1 + β²)(Precision + Recall) / (β²·Precision + Recall)."), source="doc 000",
       randomize=_rels, erratum="000-f-beta-formula"),
    _e("f2-doc003", "precision_recall", "f_beta", {"rels": [1, 1, 0, 1, 0, 0], "k": 4, "beta": 2, "n_relevant": 5},
       _f_task, [N_("F_β = (1 + β²)·P·R / (β²·P + R) with β² = 4.")],
       intro=N_("Post 003 writes F = (a² + 1)PR / (a²(P + R))."), source="doc 003", randomize=_rels,
       erratum="003-f-measure-formula"),
    _e("f-half", "precision_recall", "f_beta", {"rels": [1, 0, 1, 0, 0, 1], "k": 6, "beta": Fraction(1, 2),
                                                "n_relevant": 4},
       _f_task, [N_("β = 1/2 weighs precision more: β² = 1/4.")], randomize=_rels),
    _e("rprec", "precision_recall", "r_precision", {"rels": [1, 0, 1, 1, 0, 1, 0], "n_relevant": 5}, _rprec_task,
       [N_("R is the number of relevant documents in the collection: look at the top R only.")], randomize=_rels),
    _e("success-at-3", "precision_recall", "success_at_k", {"rels": [0, 0, 1, 0, 1], "k": 3}, _success_task,
       [N_("Success asks only whether the top k hold at least one relevant document.")], randomize=_rels),
    _e("bpref-unjudged", "precision_recall", "bpref",
       {"judgments": [1, 0, None, 1, 0, 1], "n_relevant": 4, "n_nonrelevant": 3}, _bpref_task,
       [(N_("Skip the unjudged documents. For each relevant one count the judged non-relevant above it (n) and add "
         "1 - min(n, R)/min(N, R); divide the sum by R."))], randomize=_judgments),
    _e("judged-at-5", "precision_recall", "judged_at_k", {"judgments": [2, None, 0, 1, None, None, 3], "k": 5},
       _judged_task, [N_("A grade of 0 is a judgment too; only the unjudged ranks are missing.")],
       randomize=_graded_judgments),
    choice("start-two-pages", family="precision_recall",
           about=("reciprocal_rank", "precision_at_k"), kind="analyse",
           title=N_("Two result pages for 眼霜"),
           question=N_("A shopper searches 眼霜 (eye cream). Two systems return five results each; ✓ marks an eye "
                       "cream she could buy, ✗ a product that is not one.\n\n"
                       "| rank | page A | page B |\n|---|---|---|\n"
                       "| 1 | 小棕瓶眼霜 ✓ | 小棕瓶精华 ✗ |\n| 2 | 小棕瓶精华 ✗ | 小棕瓶眼霜 ✓ |\n"
                       "| 3 | 面霜 ✗ | 兰蔻眼霜 ✓ |\n| 4 | 芦荟霜 ✗ | 科颜氏眼霜 ✓ |\n"
                       "| 5 | 高保湿面霜 ✗ | 面霜 ✗ |\n\nWhich page is better?"),
           facts=_two_pages_facts,
           options={"a": N_("Page A"), "b": N_("Page B"), "same": N_("They are equally good"),
                    "depends": N_("It depends on what the shopper wants")},
           correct="depends",
           why={"a": N_("Page A is better for a shopper who wants one eye cream and takes the first good one: it "
                        "sits at rank 1. But a shopper who wants to compare eye creams finds one on page A and "
                        "three on page B."),
                "b": N_("Page B is better for a shopper who wants to compare several eye creams: it shows three. "
                        "But a shopper who wants one and takes the first good one finds it at rank 1 on page A, "
                        "and must read past a wrong product on page B."),
                "same": N_("Each page wins for one kind of shopper: page A puts an eye cream first, page B shows "
                           "three of them. 'Equally good' would mean no shopper cares about either difference.")},
           explanation=N_("Each page is better for a different user. A shopper who stops at the first eye cream "
                          "prefers page A: its reciprocal rank (notebook 02) is {rr_a}, page B's {rr_b}. A shopper "
                          "who compares several prefers page B: the precision of its top 5 (notebook 01) is {p_b}, "
                          "page A's {p_a}. Every metric in this course models some user; choosing a metric means "
                          "choosing whom you serve."),
           hints=(N_("Think of two shoppers: one who wants any one eye cream, one who wants to compare several."),
                  N_("For each shopper, read each page from the top: when is she satisfied, and how much has she "
                     "found by rank 5?"),
                  N_("The first shopper is done at rank 1 on page A and at rank 2 on page B.")),
           source="notebook 00"),
    choice("start-p3-irrelevant-down", family="precision_recall",
           about=("precision_at_k",), kind="predict",
           title=N_("An irrelevant result leaves the top 3"),
           question=N_("In the editor, post 000's query 神仙水 has relevance 0, 1, 1, 0, 0, 1, 1 (rank 1 first) "
                       "under P@3, the precision of the top 3. Move 兰蔻粉水, the irrelevant result at rank 1, down "
                       "three ranks, out of the top 3. What happens to P@3?"),
           facts=_irrelevant_down_facts,
           options={"rise": N_("P@3 rises"), "fall": N_("P@3 falls"), "same": N_("P@3 stays the same")},
           correct="same",
           why={"rise": N_("An irrelevant result leaves the top 3, but the result that moves up into rank 3 is the "
                           "old rank 4, 菌菇水, which is not relevant either: the top 3 still hold two relevant "
                           "results."),
                "fall": N_("No relevant result leaves the top 3: the two relevant ones at ranks 2 and 3 move up to "
                           "ranks 1 and 2.")},
           explanation=N_("P@3 counts the relevant results among the top 3, whatever their order: before the move "
                          "P@3 = {before}, after it P@3 = {after}. The irrelevant result is replaced by another "
                          "irrelevant one (菌菇水, rank 4). P@k cannot see order inside the top k, nor anything below it."),
           hints=(N_("P@3 depends only on which results are in the top 3, not on their order."),
                  N_("Write the new top 3 after the move: the two results that were at ranks 2 and 3, and the one "
                     "that was at rank 4."),
                  N_("Look up the relevance of the result that moves up into rank 3 in the list above, rather than "
                     "assuming it.")),
           source="notebook 00"),
    choice("pr-move-hit-out", family="precision_recall",
           about=("precision_at_k", "recall_at_k"), kind="predict",
           title=N_("A hit leaves the top 5"),
           question=N_("In the editor, the ranking 1, 1, 0, 1, 0, 0, 1, 0, 0, 0 has 4 relevant documents in all and "
                       "k = 5. Move 小棕瓶眼霜 (relevant, rank 4) down to rank 6, out of the top 5. Both P@5 and "
                       "R@5 lose this hit: which one falls by more?"),
           facts=_hit_out_facts,
           options={"p_at_5": N_("P@5 falls by more"), "r_at_5": N_("R@5 falls by more"),
                    "same": N_("Both fall by the same amount")},
           correct="r_at_5",
           why={"p_at_5": N_("One hit is worth 1/k = 1/5 of precision, but 1/R = 1/4 of recall: recall divides "
                                "by the 4 relevant documents, fewer than the 5 ranks."),
                "same": N_("The same hit is lost, but the two divide by different numbers: precision by k = 5, "
                           "recall by the 4 relevant documents.")},
           explanation=N_("P@5 goes from {p_before} to {p_after} (one hit fewer, divided by k = 5); R@5 goes from "
                          "{r_before} to {r_after} (one hit fewer, divided by the 4 relevant documents). A hit weighs "
                          "1/k in precision and 1/R in recall."),
           hints=(N_("Precision divides the hits by k; recall divides them by the number of relevant documents."),
                  N_("Losing one hit lowers P@5 by 1/k and R@5 by 1/R; compare the two divisors."),
                  N_("Here k = 5 and the collection holds 4 relevant documents.")),
           source="notebook 01"),
    choice("pr-unretrieved-relevant", family="precision_recall",
           about=("precision_at_k", "recall_at_k", "f_beta"), kind="predict",
           title=N_("Relevant documents the system never found"),
           question=N_("Keep the top 5 of the ranking 1, 1, 0, 1, 0, 0, 1, 0, 0, 0 as it is, and raise `n_relevant` "
                       "from 4 to 8: the collection holds four more relevant documents that the system never "
                       "retrieved. What happens to P@5 and R@5?"),
           facts=_unretrieved_facts,
           options={"both": N_("Both fall"), "recall": N_("Only R@5 falls"), "precision": N_("Only P@5 falls"),
                    "neither": N_("Neither changes: the ranking is the same")},
           correct="recall",
           why={"both": N_("P@5 divides the hits in the top 5 by k = 5; documents outside the list change neither "
                           "the hits nor k."),
                "precision": N_("It is the other way round: precision looks only at what was retrieved, recall at "
                                "everything relevant, including what was missed."),
                "neither": N_("The ranking is the same, but recall divides by all relevant documents in the "
                              "collection: four more of them lower it.")},
           explanation=N_("P@5 stays {p}: the top 5 and k are unchanged. R@5 falls from {r4} to {r8}: the same hits "
                          "are now divided by 8 relevant documents. F1@5 falls with it, from {f4} to {f8}."),
           hints=(N_("Which of the two divides by the number of relevant documents in the whole collection?"),
                  N_("Write P@5 = hits/k and R@5 = hits/R, and see which of hits, k and R the change touches."),
                  N_("The top 5 hold 3 relevant results, before and after.")),
           source="notebook 01"),
    choice("pr-accuracy-rare-clicks", family="precision_recall", kind="predict",
           title=N_("Accuracy when clicks are rare"),
           question=N_("Of 1000 ad impressions, 3 are clicked. A model ranks the impressions and the clicked ones "
                       "land at ranks 2, 10 and 40. Predictor **never click** predicts no click anywhere; predictor "
                       "**top 10** predicts a click for the model's top 10 and no click elsewhere. Which has the "
                       "higher accuracy, (TP + TN) / all?"),
           facts=_clicks_facts,
           options={"never": N_("never click"), "top10": N_("top 10"), "same": N_("They are equal")},
           correct="never",
           why={"top10": N_("Top 10 finds two clicks (TP = 2) but pays with eight false alarms (FP = 8). "
                            "Accuracy counts every wrong decision alike: count them for both predictors."),
                "same": N_("Equal accuracy needs equally many wrong decisions: count the missed clicks (FN) and "
                           "the false alarms (FP) of each predictor.")},
           explanation=N_("Never click: {tn_never} true negatives, accuracy {never}. Top 10: TP = {tp_top10}, "
                          "FP = {fp_top10}, TN = {tn_top10}, accuracy {top10}. The useless predictor wins, because "
                          "accuracy is ruled by the true negatives when positives are rare."),
           hints=(N_("Accuracy counts every correct yes and every correct no, over all 1000 impressions."),
                  N_("For each predictor count the wrong decisions: missed clicks (FN) and false alarms (FP)."),
                  N_("Predicting no click anywhere makes 3 wrong decisions: the 3 clicks it misses.")),
           source="notebook 01"),
    choice("pr-which-metric-prior-art", family="precision_recall",
           about=("recall_at_k", "precision_at_k", "reciprocal_rank"), kind="evaluate",
           title=N_("A metric for a patent search"),
           question=N_("A patent examiner must find every earlier patent that anticipates an application; missing "
                       "one means granting a patent that should be refused. She will read the first 100 results of "
                       "a search system. Which number best says how well the system serves her?"),
           options={"p10": N_("P@10"), "r100": N_("R@100"), "rr": N_("the reciprocal rank of the first relevant result"),
                    "accuracy": N_("accuracy over the whole collection")},
           correct="r100",
           why={"p10": N_("P@10 counts how clean the first screen is; she reads 100 results and fears a miss more "
                          "than a useless result."),
                "rr": N_("The reciprocal rank serves a user who needs one answer; she needs every relevant patent."),
                "accuracy": N_("Almost every patent in the collection is irrelevant: accuracy is high for any system, "
                               "even one that finds nothing.")},
           explanation=N_("R@100 is the share of all relevant patents that appear in the 100 results she reads: "
                          "exactly her risk of missing one. This is a recall-oriented task (patents, law, "
                          "systematic reviews)."),
           hints=(N_("Ask which failure costs her most: reading a useless result, or missing a relevant one?"),
                  N_("Pick the metric whose denominator is every relevant document, at the depth she reads."),
                  N_("Her depth is fixed by what she reads, 100 results; the choice is about the denominator, not the "
                     "depth.")),
           source="notebook 01"),
    create("pr-precise-but-incomplete", family="precision_recall",
           about=("precision_at_k", "recall_at_k"),
           title=N_("Precise but incomplete"),
           question=N_("Build a ranking of 0/1 relevance (every relevant document of the query appears somewhere "
                       "in your list) whose P@3 is 1 while its R@3 is at most 1/2. Type it as a list, e.g. "
                       "[1, 0, 1, 0]."),
           shape="ranking", verify=_precise_but_incomplete, example=[1, 1, 1, 0, 1, 1, 1],
           explanation=N_("With P@3 = 1 the top 3 are all relevant: 3 hits. R@3 = 3/R is at most 1/2 only if R, the "
                          "number of relevant documents, is at least 6. A perfect top 3 can still find only half "
                          "of what the lawyer of notebook 01 needs."),
           hints=(N_("Precision looks at the top 3 only; recall compares the hits with every relevant document."),
                  N_("Fill the top 3 with relevant results, then ask how many relevant documents there must be "
                     "in all for 3 hits to be at most half of them."),
                  N_("R@3 = 3/R, and 3/R <= 1/2 needs R >= 6.")),
           source="notebook 01"),
    derive("pr-derive-rprec-breakeven", family="precision_recall",
           title=N_("R-precision is the break-even point"),
           claim=N_("A query has R relevant documents in the collection. Show that R-precision, the precision at "
                    "rank R, is also the break-even point of the ranking: the value at the rank where precision and "
                    "recall are equal (Manning, Raghavan & Schütze, exercise 8.4)."),
           steps=(N_("Let h(k) be the number of relevant results in the top k. Write P@k and R@k with h(k), k and R."),
                  N_("Suppose h(k) > 0. For which k is P@k = R@k? Divide both sides by h(k)."),
                  N_("At that rank, write the common value of P@k and R@k, and compare it with the definition of "
                     "R-precision.")),
           question=N_("What must hold for the derivation to work?"),
           options={"any": N_("Nothing more: it holds for every ranking with at least one relevant result in the "
                              "top R"),
                    "perfect": N_("The top R must all be relevant"),
                    "all-found": N_("Every relevant document must appear somewhere in the list"),
                    "long": N_("The list must be at least R results long")},
           correct="any",
           why={"perfect": N_("Nothing in steps 1 to 3 counts how many of the top R are relevant: check the "
                              "steps with R = 4 and two hits in the top 4."),
                "all-found": N_("Recall at rank R divides by R, the number of relevant documents in the collection, "
                                "whether or not the list holds them all: the missing ones lower both sides alike."),
                "long": N_("P@R counts an empty rank as not relevant, so P@R = h(R)/R still holds for a list shorter "
                           "than R; step 2 is unchanged.")},
           model=N_("P@k = h(k)/k and R@k = h(k)/R. With h(k) > 0, P@k = R@k means 1/k = 1/R, so k = R: precision "
                    "and recall meet at rank R and only there. Their common value is h(R)/R, which is the precision "
                    "at rank R: R-precision. (With h(R) = 0 both are 0 at rank R, and R-precision is 0 too.) Nothing "
                    "else about the ranking is needed."),
           hints=(N_("Precision and recall at the same rank share their numerator: the hits in the top k."),
                  N_("Two fractions with the same non-zero numerator are equal only when their denominators are."),
                  N_("The step students skip: check what the division in step 2 needs, and nothing more.")),
           rubric=((1, N_("writes P@k = h(k)/k and R@k = h(k)/R with the same numerator h(k)")),
                   (1, N_("concludes k = R from P@k = R@k, dividing by h(k) only where h(k) > 0")),
                   (1, N_("identifies the common value h(R)/R as R-precision, and treats h(R) = 0 apart"))),
           level=3, about=("r_precision", "precision_at_k", "recall_at_k"), source="Manning et al. 8.4"),
    written("pr-written-accuracy", family="precision_recall",
            title=N_("Why not accuracy?"),
            question=N_("A colleague proposes to evaluate a web search engine by its accuracy: the share of all "
                        "documents it classifies correctly as relevant (returned) or not relevant (not returned). "
                        "In two or three sentences, explain why this is a poor measure, and what precision and "
                        "recall do instead."),
            model=N_("Almost every document of a collection is not relevant to a given query, so a system that "
                     "returns nothing is right about nearly all of them: its accuracy is close to 1 (Manning et al. "
                     "8.3). Accuracy is ruled by the true negatives, which the user never sees. Precision and recall "
                     "leave the true negatives out: precision asks how much of what was returned is relevant, "
                     "recall how much of what is relevant was returned."),
            hints=(N_("Think of how many documents in a web collection are relevant to one query."),
                  N_("Work out the accuracy of a system that returns nothing at all."),
                  N_("Then name the cell of the confusion matrix that precision and recall never use.")),
            rubric=((1, N_("says that almost every document is not relevant to a query")),
                    (1, N_("shows that returning nothing already gives an accuracy close to 1 (true negatives rule)")),
                    (1, N_("states what precision and recall measure instead, leaving the true negatives out"))),
            level=2, about=("precision_at_k", "recall_at_k"), source="Manning et al. 8.3"),
]

# -- notebook 00's self-test: what 00 teaches (relevance in ranked order; MRR is a mean, from its glossary) -----
#: The ranking of "start-ranked-order": the relevant result is at rank 3.
_HIT_AT_3 = [0, 0, 1]
#: The queries of "start-mrr-mean": hits at rank 1, at rank 2, and none.
_THREE_QUERIES = [[1], [0, 1], [0, 0]]


def _ranked_order_facts() -> dict:
    return {"right": precision_at_k(_HIT_AT_3, 2).exact_str, "reversed": precision_at_k(_HIT_AT_3[::-1], 2).exact_str}


def _mrr_mean_facts() -> dict:
    from ...metrics.binary import mrr

    rrs = [reciprocal_rank(rels).exact for rels in _THREE_QUERIES]
    return {"mean": mrr(_THREE_QUERIES).exact_str, "sum": str(sum(rrs)), "dropped": str(sum(rrs) / 2)}


EXERCISES += [
    choice("start-ranked-order", family="precision_recall", kind="analyse", about=("precision_at_k",),
           title=N_("Relevance in ranked order"),
           question=N_("A system returns three results: the first two are not relevant, the third is. Which call "
                       "gives the precision of its top 2?"),
           facts=_ranked_order_facts,
           options={"hit_last": N_("precision_at_k([0, 0, 1], k=2)"),
                    "reversed": N_("precision_at_k([1, 0, 0], k=2)"),
                    "ranks": N_("precision_at_k([3], k=2)")},
           correct="hit_last",
           why={"reversed": N_("This list starts with the relevant result, but the list is read from rank 1 down: "
                               "the result at rank 1 is not relevant, so the list starts with 0."),
                "ranks": N_("A metric takes one number per result, its relevance (1 relevant, 0 not), not the "
                            "ranks at which the relevant results stand.")},
           explanation=N_("Every metric takes the relevance of the results in ranked order, rank 1 first: "
                          "[0, 0, 1]. The precision of its top 2 is {right}; the list written the other way round "
                          "would give {reversed}."),
           hints=(N_("A metric reads one number per result: 1 for relevant, 0 for not."),
                  N_("Write the relevance of each result, starting at rank 1."),
                  N_("Which result comes first in the list: the one at rank 1 or the relevant one?")),
           source="notebook 00"),
    choice("start-mrr-mean", family="precision_recall", kind="spot", about=("mrr", "reciprocal_rank"),
           title=N_("A sum called MRR"),
           question=N_("Three queries have reciprocal ranks 1, 1/2 and 0 (the third found nothing relevant). "
                       "Post 000 says the final score of MRR is 所有得分之和, the sum of all the scores. "
                       "What is the MRR of these three queries?"),
           facts=_mrr_mean_facts,
           options={"sum": N_("{sum}"), "all_three": N_("{mean}"), "two_only": N_("{dropped}")},
           correct="all_three",
           why={"sum": N_("That is the sum of the scores, post 000's slip: MRR is a mean, the sum divided "
                          "by the number of queries."),
                "two_only": N_("That divides by the two queries that found something; the third query counts too, "
                              "with its score of 0.")},
           explanation=N_("MRR is the mean of the reciprocal ranks, not their sum: (1 + 1/2 + 0) / 3 = {mean}. The sum, "
                          "{sum}, is not even between 0 and 1, the range of every reciprocal rank and so of their "
                          "mean."),
           hints=(N_("The M of MRR stands for mean."),
                  N_("Add the three reciprocal ranks, then divide by the number of queries."),
                  N_("Count the queries: the one that found nothing is one of them.")),
           source="notebook 00"),
]

EXERCISES = arranged(EXERCISES, [
    "p-at-2-doc001", "p-at-5", "start-p3-irrelevant-down", "r-at-5", "pr-move-hit-out", "p-at-5-short",
    "f1-doc000", "f2-doc003", "pr-unretrieved-relevant", "f-half", "pr-precise-but-incomplete", "rprec",
    "pr-derive-rprec-breakeven", "success-at-3", "bpref-unjudged", "judged-at-5", "start-two-pages",
    "start-ranked-order", "start-mrr-mean",
    "pr-accuracy-rare-clicks", "pr-which-metric-prior-art", "pr-written-accuracy",
], levels={
    # computations that need a convention or a careful count; questions that need a model of the user
    "f-half": 2, "bpref-unjudged": 2, "f2-doc003": 2, "start-p3-irrelevant-down": 1, "pr-accuracy-rare-clicks": 3,
})
