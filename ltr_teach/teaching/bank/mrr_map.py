"""The mrr_map family's exercises, in the order the exercise notebook asks them."""

from fractions import Fraction

import sympy

from ...core.exact import fmt_decimal, to_float
from ...core.i18n import N_, _
from ...metrics.binary import average_precision, mrr, reciprocal_rank
from .. import examples
from ..kinds import _e, arranged, choice, create, derive, written
from ._compute import (
    _ap_task,
    _eleven_task,
    _every_query_hit,
    _first_hit_below_rank_1,
    _interp_task,
    _map_task,
    _mrr_task,
    _queries,
    _relevant_never_retrieved,
    _rels,
    _rr,
    _rr_task,
    _some_query_missed,
)

# -- the questions notebooks 00, 02 and 03 ask with lt.ask (predict, evaluate, spot, create) ---------------
#: Document 000's three MRR queries (first hits at ranks 2, 1, 3), as notebook 02's editor holds them.
_MRR_QUERIES = {"眼霜": [0, 1, 0], "神仙水": [1, 0, 0], "面膜": [0, 0, 1]}
#: Document 000's query 神仙水 in notebook 03's editor: hits at ranks 2, 3, 6, 7.
_SHENXIANSHUI = [0, 1, 1, 0, 0, 1, 1]


def _map_above_one_facts() -> dict:
    printed = examples.by_id("000-map-two-queries").printed
    return {"ap1": examples.by_id("000-ap-mac-lipstick").explanation().exact_str,
            "ap2": examples.by_id("000-ap-shenxianshui").explanation().exact_str,
            "printed": printed, "printed_decimal": fmt_decimal(to_float(sympy.Rational(printed)), 2)}


def _printed_rounded_facts() -> dict:
    worked = examples.by_id("004-ap-topic1")
    ex = worked.explanation()
    return {"printed": worked.printed, "exact": ex.exact_str, "decimal": ex.decimal_str}


def _top_gain_facts() -> dict:
    before = mrr(_MRR_QUERIES)
    after = mrr(dict(_MRR_QUERIES, 面膜=[1, 0, 0]))
    missed = mrr(dict(_MRR_QUERIES, 面膜=[0, 0, 0]))
    rr_before, rr_after = reciprocal_rank(_MRR_QUERIES["面膜"]), reciprocal_rank([1, 0, 0])
    return {"before": before.exact_str, "after": after.exact_str, "gain": str(after.exact - before.exact),
            "query_gain": str(rr_after.exact - rr_before.exact), "from_zero": str(after.exact - missed.exact)}


def _failed_query_facts() -> dict:
    return {"best": mrr({"眼霜": [0, 0, 0], "神仙水": [1, 0, 0], "面膜": [1, 0, 0]}).exact_str,
            "without": mrr({"神仙水": [1, 0, 0], "面膜": [1, 0, 0]}).exact_str}


def _irrelevant_down_ap_facts() -> dict:
    moved = _SHENXIANSHUI[1:] + _SHENXIANSHUI[:1]
    return {"before": average_precision(_SHENXIANSHUI).exact_str, "after": average_precision(moved).exact_str}


def _same_rr_different_ap(pair):
    """Two 0/1 rankings, same length and number of relevant results, equal RR, different AP; else why not."""
    first, second = pair
    if any(g not in (0, 1) for g in first + second):
        return _("Use 0 (not relevant) and 1 (relevant) only.")
    if len(first) != len(second):
        return _("The two rankings must have the same length; yours have {a} and {b} results.").format(
            a=len(first), b=len(second))
    if sum(first) != sum(second):
        return _("The two rankings must hold the same number of relevant results; yours hold {a} and {b}.").format(
            a=sum(first), b=sum(second))
    if sum(first) == 0:
        return _("Put at least one relevant result in each ranking.")
    rr_first, rr_second = reciprocal_rank(first), reciprocal_rank(second)
    if rr_first.exact != rr_second.exact:
        return _("The reciprocal ranks differ ({a} and {b}): put the first relevant result at the same rank in "
                 "both.").format(a=rr_first.exact_str, b=rr_second.exact_str)
    if average_precision(first).exact == average_precision(second).exact:
        return _("Both APs are {ap}: move a relevant result after the first one to another rank in one of the "
                 "rankings.").format(ap=average_precision(first).exact_str)
    return None


FAMILY = ("mrr_map", N_("MRR, AP and MAP"))

EXERCISES = [
    _e("rr-eye-cream", "mrr_map", "reciprocal_rank", {"rels": [0, 1, 0]}, _rr_task,
       [N_("Find the first relevant result; RR is one over its rank.")],
       intro=N_("Post 000: the query 眼霜 returns 小棕瓶精华, 小棕瓶眼霜, 面霜; the wanted 小棕瓶眼霜 is second."),
       source="doc 000", randomize=_rr, point=_first_hit_below_rank_1),
    _e("mrr-doc000", "mrr_map", "mrr",
       {"list_of_rels": {"眼霜": [0, 1, 0], "神仙水": [1, 0, 0], "面膜": [0, 0, 1]}, "_kind": "mrr"}, _mrr_task,
       [N_("For each query find the first relevant result and take one over its rank; MRR is the mean over "
        "the queries.")], intro=N_("Post 000."), source="doc 000",
       randomize=_queries, point=_every_query_hit),
    _e("mrr-with-miss", "mrr_map", "mrr", {"list_of_rels": [[0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 0]],
                                           "_kind": "mrr"},
       _mrr_task, [N_("A query without a relevant item has reciprocal rank 0 and still counts in the mean.")],
       randomize=_queries, point=_some_query_missed),
    _e("ap-lipstick", "mrr_map", "average_precision", {"rels": [1, 1, 0, 0, 1, 0, 0]}, _ap_task,
       [N_("At each rank that holds a relevant item write the precision so far (hits / rank); add them and "
        "divide by the number of relevant documents.")], intro=N_("Post 000, MAC口红."), source="doc 000",
       randomize=_rels),
    _e("ap-shenxianshui", "mrr_map", "average_precision", {"rels": [0, 1, 1, 0, 0, 1, 1]}, _ap_task,
       [N_("Hits at ranks 2, 3, 6, 7.")], intro=N_("Post 000, 神仙水."), source="doc 000", randomize=_rels),
    _e("map-doc000", "mrr_map", "mean_average_precision",
       {"list_of_rels": [[1, 1, 0, 0, 1, 0, 0], [0, 1, 1, 0, 0, 1, 1]]}, _map_task,
       [N_("MAP is the mean of the two APs.")], source="doc 000", randomize=_queries, worked="000-map-two-queries"),
    _e("ap-doc004-topic1", "mrr_map", "average_precision", {"rels": [1, 1, 0, 1, 0, 0, 1], "n_relevant": 4},
       _ap_task, [N_("Hits at ranks 1, 2, 4, 7.")], intro=N_("Post 004, topic 1: 4 relevant pages, found at ranks 1, 2, "
                                                      "4, 7."), source="doc 004", randomize=_rels),
    _e("ap-doc004-topic2", "mrr_map", "average_precision", {"rels": [1, 0, 1, 0, 1], "n_relevant": 5}, _ap_task,
       [N_("Two relevant pages were never retrieved: they add precision 0.")],
       intro=N_("Post 004, topic 2: 5 relevant pages, 3 found at ranks 1, 3, 5."), source="doc 004",
       randomize=_rels, point=_relevant_never_retrieved),
    _e("map-doc004", "mrr_map", "mean_average_precision",
       {"list_of_rels": [[1, 1, 0, 1, 0, 0, 1], [1, 0, 1, 0, 1]], "n_relevant": [4, 5]}, _map_task,
       [N_("Divide each AP by all of its topic's relevant pages.")], intro=N_("Post 004, topics 1 and 2."),
       source="doc 004", randomize=_queries),
    _e("interp-precision-half", "mrr_map", "interpolated_precision",
       {"rels": [0, 1, 0, 0, 1, 1, 0, 1], "recall": Fraction(1, 2)}, _interp_task,
       [N_("Recall reaches 1/2 at rank 5, but rank 6 has a higher precision and a higher recall.")],
       randomize=_rels),
    _e("interp-ap", "mrr_map", "interpolated_precision", {"rels": [1, 0, 0, 1, 1, 0, 1]}, _interp_task,
       [N_("Interpolated precision at rank i: the best precision at rank i or below.")], randomize=_rels),
    _e("eleven-point-ap", "mrr_map", "eleven_point_ap", {"rels": [1, 0, 1, 0, 0, 1]}, _eleven_task,
       [N_("Write the recall and precision at every rank; at each recall level take the best precision at "
        "that recall or beyond, then average the eleven values.")], randomize=_rels),
    choice("map-above-one", family="mrr_map",
           about=("mean_average_precision", "average_precision"), kind="spot",
           title=N_("A MAP above 1"),
           question=N_("Post 000 computes the APs of its two queries, {ap1} and {ap2}, and prints "
                       "MAP(Q) = (AP(1) + AP(2)) / 2 = {printed}, about {printed_decimal}. Without recomputing "
                       "anything, what do you conclude?"),
           facts=_map_above_one_facts,
           options={"right": N_("The value is right"),
                    "impossible": N_("It cannot be right: a mean of precisions is at most 1"),
                    "convention": N_("It is right under another convention"),
                    "many": N_("MAP can exceed 1 when the queries have many relevant documents")},
           correct="impossible",
           why={"right": N_("Every precision is at most 1, so every AP and every mean of APs is at most 1; "
                            "the printed fraction is above 1."),
                "convention": N_("Conventions change the divisor or the cut-off, never beyond 1: AP divides a sum "
                                 "of precisions by at least as many documents as it adds."),
                "many": N_("AP divides the sum of the precisions at the relevant ranks by the number of relevant "
                           "documents: more of them do not push it above 1.")},
           explanation=N_("Each AP is a mean of precisions, each at most 1, and MAP is a mean of APs: it cannot "
                          "exceed 1. {printed} is AP(1) + AP(2), the sum before the division by 2. A bound is the "
                          "quickest check of a printed number; notebook 03 recomputes this one."),
           hints=(N_("What is the largest value a precision can take, and so an average of precisions?"),
                  N_("Compare the printed value with that bound."),
                  N_("Look at the printed fraction: its numerator is larger than its denominator.")),
           source="notebook 00"),
    choice("ap-printed-rounded", family="mrr_map",
           about=("average_precision",), kind="spot",
           title=N_("A rounded AP"),
           question=N_("Post 004 prints AP = {printed} for its topic 1; the exact AP is {exact} ≈ {decimal}. "
                       "Is the post wrong?"),
           facts=_printed_rounded_facts,
           options={"yes": N_("Yes: the printed value is not the exact value"),
                    "more": N_("Yes: it should print six decimals"),
                    "no": N_("No: it is the exact value rounded to the two decimals printed")},
           correct="no",
           why={"yes": N_("A printed decimal agrees with an exact value when the exact value rounds to it at the "
                          "precision printed; round the exact value to two decimals and compare."),
                "more": N_("Two decimals are a choice of presentation, not an error, as long as they are the exact "
                           "value correctly rounded.")},
           explanation=N_("{exact} ≈ {decimal} rounds to {printed} at two decimals, so the post is right. The "
                          "cards of this course judge a printed number this way: it agrees when the exact value "
                          "rounds to it at the precision the post printed."),
           hints=(N_("A decimal printed with two places stands for every value that rounds to it."),
                  N_("Round the exact value to two decimals and compare."),
                  N_("The third decimal of the exact value decides the rounding.")),
           source="notebook 00"),
    choice("mrr-top-gain", family="mrr_map",
           about=("mrr", "reciprocal_rank"), kind="predict",
           title=N_("The face mask moves to the top"),
           question=N_("In the editor, post 000's three queries have MRR = {before}. In the 面膜 tab, move "
                       "skii面膜 (the wanted product, rank 3) to the top. By how much does MRR rise?"),
           facts=_top_gain_facts,
           options={"query_gain": N_("by {query_gain}"), "from_zero": N_("by {from_zero}"), "mrr_gain": N_("by {gain}")},
           correct="mrr_gain",
           why={"query_gain": N_("That is how much the 面膜 query's own reciprocal rank rises, from 1/3 to 1; MRR is the "
                            "mean over three queries, so it rises by a third of that."),
                "from_zero": N_("That would be the rise if 面膜 had had no relevant result (RR 0) before; it had one "
                                "at rank 3, with RR 1/3.")},
           explanation=N_("The 面膜 query's reciprocal rank goes from 1/3 to 1, a rise of {query_gain}; MRR is the "
                          "mean of three reciprocal ranks, so it rises by a third of that, {gain}: from {before} "
                          "to {after}."),
           hints=(N_("MRR is the mean of the queries' reciprocal ranks: one query's change is divided by the "
                     "number of queries."),
                  N_("Find the 面膜 query's reciprocal rank before and after the move, take the difference, and "
                     "divide by 3."),
                  N_("Before the move, skii面膜 is at rank 3: its reciprocal rank is 1/3.")),
           source="notebook 02"),
    choice("mrr-failed-query", family="mrr_map",
           about=("mrr", "reciprocal_rank"), kind="predict",
           title=N_("A query with no relevant result"),
           question=N_("In the editor, set 小棕瓶眼霜 to 0 in the 眼霜 tab: that query now has no relevant result "
                       "at all. Then make the other two queries perfect (a relevant result at rank 1). What is the "
                       "highest MRR you can reach?"),
           facts=_failed_query_facts,
           options={"without": N_("{without}: the failed query is left out of the mean"), "counted": N_("{best}"),
                    "undefined": N_("None: MRR is undefined when a query has no relevant result")},
           correct="counted",
           why={"without": N_("A query without a relevant result is not left out: its reciprocal rank is 0, and it "
                              "still counts in |Q| (trec_eval scores it 0 too)."),
                "undefined": N_("The reciprocal rank of a query without a relevant result is defined as 0; MRR is "
                                "then an ordinary mean.")},
           explanation=N_("The failed query scores 0 and still counts: the best MRR is (0 + 1 + 1) / 3 = {best}. A "
                          "query the system fails on costs the whole mean, however good the other queries are."),
           hints=(N_("What reciprocal rank does a query without any relevant result get, and does it count in "
                     "|Q|?"),
                  N_("Add the three best reciprocal ranks possible and divide by the number of queries."),
                  N_("The step students get wrong: the failed query still counts in the number of queries you "
                     "divide by.")),
           source="notebook 02"),
    choice("mrr-which-task", family="mrr_map",
           about=("mrr", "mean_average_precision"), kind="evaluate",
           title=N_("A task for MRR"),
           question=N_("For which of these tasks is MRR the natural main metric?"),
           options={"shop": N_("A shop's product search where shoppers compare many products before buying"),
                    "legal": N_("A legal search that must find every relevant precedent"),
                    "qa": N_("Question answering: each question has one right answer, and the user reads until "
                             "she finds it"),
                    "ads": N_("Predicting which of a day's ad impressions will be clicked")},
           correct="qa",
           why={"shop": N_("A comparing shopper uses many results: MRR sees only the first relevant one. Precision "
                           "of the first page, AP or NDCG see the rest."),
                "legal": N_("Finding everything is recall's task: MRR stops at the first relevant result."),
                "ads": N_("Click prediction scores every impression, not one ranked list per query: AUC and log "
                          "loss are the usual metrics (notebooks 07 and 13).")},
           explanation=N_("MRR's user wants one answer and stops at the first relevant result: question answering, "
                          "navigational search (one known page or product) and MS MARCO's passage ranking "
                          "(MRR@10) fit that user."),
           hints=(N_("MRR looks only at the first relevant result of each query."),
                  N_("For each task ask: does the user need one result, or many?"),
                  N_("The step students skip: for each task, count how many relevant results a user needs "
                     "before they stop.")),
           source="notebook 02"),
    choice("ap-irrelevant-down", family="mrr_map",
           about=("average_precision",), kind="predict",
           title=N_("An irrelevant document moves down"),
           question=N_("In the editor's 神仙水 tab (relevance 0, 1, 1, 0, 0, 1, 1, rank 1 first), move d1, the "
                       "irrelevant document at rank 1, to the bottom. What happens to this query's AP?"),
           facts=_irrelevant_down_ap_facts,
           options={"rise": N_("AP rises"), "fall": N_("AP falls"),
                    "same": N_("AP stays: it only looks at the relevant documents")},
           correct="rise",
           why={"fall": N_("Nothing relevant moves down: every relevant document moves up one rank, with one fewer "
                           "irrelevant document above it."),
                "same": N_("AP takes the precision at each relevant rank, and those precisions change: every "
                           "relevant document now has one fewer irrelevant document above it.")},
           explanation=N_("Each relevant document moves up a rank, so the precision at every relevant rank rises "
                          "(the first one from 1/2 to 1): AP goes from {before} to {after}. AP looks only at the "
                          "relevant ranks, but the irrelevant documents above them set their precision."),
           hints=(N_("AP averages the precision at the relevant ranks; what sets the precision at a rank?"),
                  N_("Write the new order, then the precision at each relevant rank before and after."),
                  N_("After the move, the first relevant document is at rank 1.")),
           source="notebook 03"),
    create("rr-same-ap-differs", family="mrr_map",
           about=("reciprocal_rank", "average_precision"),
           title=N_("Same reciprocal rank, different AP"),
           question=N_("Build two rankings of 0/1 relevance, of the same length and with the same number of "
                       "relevant results, whose reciprocal ranks are equal but whose APs differ. Type them as two "
                       "lists, e.g. [1, 0, 1] [0, 1, 1]."),
           shape="pair", verify=_same_rr_different_ap, example=[[1, 1, 0, 0], [1, 0, 0, 1]],
           explanation=N_("The reciprocal rank sees only the first relevant result; AP sees every one. Keep the first "
                          "relevant result at the same rank and move a later one: RR stays, AP changes."),
           hints=(N_("RR looks only at the first relevant result; AP at all of them."),
                  N_("Start both rankings with the first relevant result at the same rank, then place the other "
                     "relevant results differently."),
                  N_("Try four results with two relevant ones, both rankings starting with a relevant result.")),
           source="notebook 03"),
    derive("ap-derive-area", family="mrr_map",
           title=N_("AP is an area"),
           claim=N_("Show that the average precision of a ranking is the area under its uninterpolated "
                    "precision–recall curve: the step curve whose height at each recall level is the precision "
                    "where that recall is first reached (Manning, Raghavan & Schütze, section 8.4)."),
           steps=(N_("Walk down the ranking. At which ranks does recall change, and by how much each time, for a "
                     "query with R relevant documents?"),
                  N_("Between two such ranks the curve is flat. Write the area of one step as its width times its "
                     "height."),
                  N_("Add the steps and compare the sum with the definition of AP (the precision at each relevant "
                     "rank, summed, divided by R).")),
           question=N_("A query has R = 4 relevant documents and the ranking retrieves only 3 of them. What does "
                       "the fourth, never retrieved, add to the area?"),
           options={"nothing": N_("Nothing: the curve stops before recall 1, as AP counts that document with "
                                  "precision 0"),
                    "last": N_("A last step of width 1/4 at the precision of the end of the list"),
                    "rescale": N_("Nothing, but the area is divided by the recall reached (3/4), so the score "
                                  "still runs up to 1")},
           correct="nothing",
           why={"last": N_("A step of the curve begins where recall rises, and recall rises only at a rank that "
                           "holds a relevant document. Look at step 1: at which rank would this one be found?"),
                "rescale": N_("Divide by the recall reached and a system that retrieves one relevant document at "
                              "rank 1 and misses the other three would score 1. Check what step 3 divides by.")},
           model=N_("Recall changes only at a relevant rank, and by 1/R each time. Between two relevant ranks the "
                    "uninterpolated curve is flat, so the area is a sum of rectangles: width 1/R, height the "
                    "precision at that relevant rank. The sum is (1/R) · Σ P@(rank of each retrieved relevant "
                    "document) = AP. A relevant document never retrieved makes no step: the curve ends at recall "
                    "3/4 and the missing quarter adds 0 to the area, exactly as AP adds a precision of 0 for it."),
           hints=(N_("The curve is a staircase: flat between relevant results, with a new step at each one."),
                  N_("Write each step as a rectangle, width times height, then add the rectangles."),
                  N_("The step students get wrong is the width: it is the rise in recall at that rank, not the "
                     "number of ranks walked.")),
           rubric=((1, N_("recall rises only at a relevant rank, by 1/R each time")),
                   (1, N_("each step is a rectangle of width 1/R and height the precision at that relevant rank")),
                   (1, N_("the sum of the rectangles is AP, divided by R (every relevant document, not the retrieved "
                          "ones)")),
                   (1, N_("a relevant document never retrieved adds no step, as AP adds precision 0 for it"))),
           level=3, about=("average_precision",), source="Manning et al. 8.4"),
    written("mrr-written-which", family="mrr_map",
            title=N_("MRR or MAP?"),
            question=N_("Team 1 builds a question-answering system: each question has one right answer. Team 2 "
                        "builds a search for a literature review, where every relevant paper matters. Which of "
                        "MRR and MAP should each team report, and why? Answer in three or four sentences."),
            model=N_("Team 1 should report MRR: with one right answer per question, only the rank of the first "
                     "(and only) relevant result matters, and MRR averages its reciprocal over the questions. Team 2 "
                     "should report MAP: AP looks at the precision at every relevant paper and counts a paper never "
                     "retrieved as 0, so it rewards finding all of them early. MRR would ignore every relevant paper "
                     "after the first."),
            hints=(N_("Ask, for each user, how many relevant results they need."),
                  N_("MRR looks at one rank per query; AP at every relevant rank. Match each to a user."),
                  N_("Say also what the other metric would miss for each team.")),
            rubric=((1, N_("MRR for the one-answer questions, because only the first relevant rank matters")),
                    (1, N_("MAP for the literature review, because it counts every relevant paper (missed ones as "
                           "0)")),
                    (1, N_("says what the other metric would miss for each team"))),
            level=2, about=("mrr", "mean_average_precision")),
]

EXERCISES = arranged(EXERCISES, [
    "rr-eye-cream", "mrr-doc000", "mrr-top-gain", "mrr-with-miss", "mrr-failed-query", "mrr-which-task",
    "ap-lipstick", "ap-shenxianshui", "ap-irrelevant-down", "ap-doc004-topic1", "ap-printed-rounded",
    "ap-doc004-topic2", "map-doc000", "map-above-one", "map-doc004", "rr-same-ap-differs", "ap-derive-area",
    "interp-precision-half", "interp-ap", "eleven-point-ap", "mrr-written-which",
], levels={
    "map-doc004": 2, "interp-precision-half": 2, "interp-ap": 2, "eleven-point-ap": 2, "rr-same-ap-differs": 3,
})
