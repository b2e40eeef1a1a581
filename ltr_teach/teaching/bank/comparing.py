"""The comparing family: several metrics on the same rankings (notebook 08), the posts' errata as
spot-the-error questions (09), and why the evaluation tools disagree (10).

Every number a question or an explanation shows is a ``{placeholder}`` filled by ``facts()`` from the
library when the exercise is shown, so no number here is typed by hand; the comments say which
hand computation each option stands for.
"""

from fractions import Fraction

from ...core.i18n import N_, _
from ...metrics import binary, graded
from .. import examples
from ..kinds import choice, create, written

FAMILY = ("comparing", N_("Comparing metrics, the posts' errata and the tools"))

# Notebook 08's six products of the 神仙水 query, in system C's order: 兰蔻粉水 (1), SK-II 神仙水 (3, the
# star), 神仙水 旅行装 (2), 神仙水 套装 (2), 菌菇水 (0), 芦荟霜 (0); binary metrics read grade >= 2 as relevant.
_SYSTEM_C = [1, 3, 2, 2, 0, 0]
_STAR_DOWNGRADED = [1, 2, 2, 2, 0, 0]
_LAST_RELEVANT_DOWN = [1, 3, 2, 0, 0, 2]      # ranks 4 and 6 swapped
_SYSTEM_A = [3, 1, 0, 0, 2, 2]
_SYSTEM_B = [2, 2, 3, 0, 0, 1]
_RELEVANT = 2

# Notebook 10's query: qrels d1 = 3, d2 = 2, d3 = 0, d4 = 1, d5 = 2 (d5 never retrieved); the run scores
# d3 1.0, d1 0.8, d2 0.8 (a tie), d4 0.5 and the unjudged d9 0.4.
_TOOL_QUERY = {"grades": [0, 3, 2, 1, 0], "scores": [1.0, 0.8, 0.8, 0.5, 0.4],
               "docids": ["d3", "d1", "d2", "d4", "d9"]}
_TOOL_POOL = [3, 2, 0, 1, 2]


def _tool_ndcg(convention, pool=True, **changes):
    kwargs = {**_TOOL_QUERY, "convention": convention, **changes}
    if pool:
        kwargs["ideal"] = _TOOL_POOL
    return graded.ndcg(kwargs.pop("grades"), **kwargs)


def _downgrade_facts():
    before, after = graded.ndcg(_SYSTEM_C), graded.ndcg(_STAR_DOWNGRADED)
    return {"ndcg_before": before.decimal_str, "ndcg_after": after.decimal_str,
            "dcg_before": before.parts["dcg"].decimal_str, "dcg_after": after.parts["dcg"].decimal_str,
            "idcg_before": before.parts["idcg"].decimal_str, "idcg_after": after.parts["idcg"].decimal_str,
            "err_before": graded.err(_SYSTEM_C, g_max=3).decimal_str,
            "err_after": graded.err(_STAR_DOWNGRADED, g_max=3).decimal_str}


def _swap_facts():
    change = graded.err(_LAST_RELEVANT_DOWN, g_max=3).value - graded.err(_SYSTEM_C, g_max=3).value
    ap_before = binary.average_precision(_SYSTEM_C, threshold=_RELEVANT)
    ap_after = binary.average_precision(_LAST_RELEVANT_DOWN, threshold=_RELEVANT)
    return {"err_change": f"{change:+.4f}", "ap_before": ap_before.exact_str, "ap_after": ap_after.exact_str}


def _a_b_facts():
    return {"ndcg_a": graded.ndcg(_SYSTEM_A).decimal_str, "ndcg_b": graded.ndcg(_SYSTEM_B).decimal_str,
            "ap_a": binary.average_precision(_SYSTEM_A, threshold=_RELEVANT).exact_str,
            "ap_b": binary.average_precision(_SYSTEM_B, threshold=_RELEVANT).exact_str}


def _c_facts():
    return {"ndcg_c": graded.ndcg(_SYSTEM_C).decimal_str,
            "ap_c": binary.average_precision(_SYSTEM_C, threshold=_RELEVANT).exact_str}


def _more_ndcg_less_ap(ranking):
    """None when ``ranking`` orders system C's six grades with a higher NDCG and a lower AP than C's."""
    if sorted(ranking) != sorted(_SYSTEM_C):
        return _("use the six grades of system C, each once: {grades}").format(
            grades=", ".join(map(str, sorted(_SYSTEM_C, reverse=True))))
    ndcg, ap = graded.ndcg(ranking), binary.average_precision(ranking, threshold=_RELEVANT)
    ndcg_c, ap_c = graded.ndcg(_SYSTEM_C), binary.average_precision(_SYSTEM_C, threshold=_RELEVANT)
    if not ndcg.value > ndcg_c.value:
        return _("its NDCG is {ndcg}, not above system C's {ndcg_c}").format(ndcg=ndcg.decimal_str,
                                                                            ndcg_c=ndcg_c.decimal_str)
    if not ap.exact < ap_c.exact:
        return _("its AP is {ap}, not below system C's {ap_c}").format(ap=ap.exact_str, ap_c=ap_c.exact_str)
    return None


def _map_facts():
    ap1, ap2 = examples.by_id("000-ap-mac-lipstick"), examples.by_id("000-ap-shenxianshui")
    mean = examples.by_id("000-map-two-queries")
    return {"ap1": ap1.printed, "ap2": ap2.printed, "printed": mean.printed, "map": mean.explanation().exact_str,
            "printed_decimal": f"{float(Fraction(mean.printed)):.2f}",
            "ap1_exact": str(ap1.exact), "ap2_exact": str(ap2.exact)}


def _err_facts():
    lipstick = examples.by_id("000-err-lipstick")
    return {"printed": lipstick.printed, "exact": lipstick.explanation().result_line()}


def _movies_facts():
    dcg, idcg = examples.by_id("004-dcg-movies"), examples.by_id("004-idcg-movies")
    ndcg = examples.by_id("004-ndcg-movies")
    return {"dcg": f"{dcg.value:.4f}", "idcg": f"{idcg.value:.4f}", "ndcg": f"{ndcg.value:.4f}",
            "dcg_printed": dcg.printed, "idcg_printed": idcg.printed, "ndcg_printed": ndcg.printed}


def _ap_one_facts():
    return {"ap": binary.average_precision([1, 1, 0, 0]).exact_str,
            "p3": binary.precision_at_k([1, 1, 0, 0], 3).exact_str}


def _f_beta_facts():
    precision, recall, beta2 = Fraction(1, 2), Fraction(2, 3), 4   # the record's example: beta = 2
    printed_formula = (1 + beta2) * (precision + recall) / (beta2 * precision + recall)
    return {"f2": examples.by_id("000-f-beta-formula").call().exact_str, "printed_f2": str(printed_formula)}


def _code_mrr_facts():
    return {"rr": examples.by_id("004-code-mrr").call().exact_str,
            "printed": examples.by_id("004-code-mrr").printed}


def _ties_facts():
    return {"trec": f"{_tool_ndcg('trec_eval').value:.4f}", "ranx": f"{_tool_ndcg('ranx').value:.4f}"}


def _sklearn_facts():
    return {"sklearn": f"{_tool_ndcg('sklearn', pool=False, k=10).value:.4f}",
            "trec": f"{_tool_ndcg('trec_eval').value:.4f}",
            "trec_ties": f"{_tool_ndcg('sklearn', pool=False, k=10, ties='docid_desc').value:.4f}",
            "pooled": f"{_tool_ndcg('sklearn', k=10).value:.4f}"}


def _empty_facts():
    nothing = [0, 0, 0]
    return {"lightgbm": graded.ndcg(nothing, convention="lightgbm").exact_str,
            "trec": graded.ndcg(nothing, convention="trec_eval").exact_str}


def _base_facts():
    ln, log2 = graded.ndcg(_SYSTEM_C, discount="ln"), graded.ndcg(_SYSTEM_C)
    return {"ndcg_ln": ln.decimal_str, "ndcg_log2": log2.decimal_str,
            "dcg_ln": ln.parts["dcg"].decimal_str, "dcg_log2": log2.parts["dcg"].decimal_str}


EXERCISES = [
    # -- 08: several metrics on the same rankings ---------------------------------------------------------
    choice("compare-downgrade-star", family="comparing", kind="analyse",
           title=N_("Downgrading the star"),
           question=N_("System C ranks the six 神仙水 products with grades 1, 3, 2, 2, 0, 0 (exponential gain "
                       "$2^g - 1$, log2 discount): NDCG = {ndcg_before}. An assessor re-judges SK-II 神仙水, the "
                       "grade-3 star at rank 2, as grade 2; nothing is moved. What does NDCG do, and why?"),
           facts=_downgrade_facts,
           options={"rise": N_("It rises: the ideal DCG loses the star's gain at rank 1, undiscounted, while the "
                               "ranking loses it at rank 2, divided by log2 3; IDCG falls by more than DCG."),
                    "fall": N_("It falls: the star's gain drops from 7 to 3, so DCG falls."),
                    "same": N_("It stays: nothing moved, and NDCG only measures the order."),
                    "better": N_("It rises: the results are now better for the user.")},
           correct="rise",
           why={"fall": N_("DCG does fall, from {dcg_before} to {dcg_after}. But NDCG divides by IDCG, which is "
                           "built from the same grades: the star sat at rank 1 of the ideal order, so IDCG falls "
                           "by the whole 4, from {idcg_before} to {idcg_after}. The ratio rises."),
                "same": N_("The order did not change, but the grades did: DCG loses 4/log2 3 and IDCG loses 4, "
                           "so the ratio moves. NDCG compares the order with the best order of these grades."),
                "better": N_("The user got a worse item, not a better page: ERR, which is not normalised, falls "
                             "from {err_before} to {err_after}. NDCG rises because its yardstick, the ideal order of "
                             "the same grades, fell more than the ranking did.")},
           explanation=N_("DCG falls from {dcg_before} to {dcg_after} (the star's gain 7 becomes 3 at rank 2, "
                          "divided by log2 3), IDCG from {idcg_before} to {idcg_after} (the same loss of 4 at rank "
                          "1 of the ideal order, undivided). NDCG goes from {ndcg_before} to {ndcg_after}: it "
                          "measures the order against the best order of these grades, not how good the results "
                          "are."),
           hints=(N_("NDCG = DCG / IDCG, and the ideal order is built from the same grades as the ranking."),
                  N_("Work out what DCG loses (the star is at rank 2) and what IDCG loses (in the ideal order "
                     "the star is at rank 1), then compare the two ratios."),
                  N_("The star's gain falls from 2^3 − 1 = 7 to 2^2 − 1 = 3: a loss of 4 before the discount.")),
           source="notebook 08"),
    choice("compare-swap-blind", family="comparing", kind="predict",
           title=N_("Which metrics are blind to a swap?"),
           question=N_("Start from system C: grades 1, 3, 2, 2, 0, 0, where grade 2 or more is relevant for AP, "
                       "RR and P@3. Swap ranks 4 and 6: 神仙水 套装 (grade 2) goes down to rank 6. Which of NDCG, "
                       "AP, RR, P@3 and ERR do not change at all?"),
           facts=_swap_facts,
           options={"rr-p3": N_("RR and P@3"),
                    "none": N_("None of them: every metric sees every rank"),
                    "p3": N_("P@3 only"),
                    "rr-p3-err": N_("RR, P@3 and ERR")},
           correct="rr-p3",
           why={"none": N_("RR sees only the first relevant item (rank 2 here, not moved) and P@3 only which items "
                           "are in the top 3 (not moved either): both are blind to a move below rank 3."),
                "p3": N_("RR is blind to it too: the first relevant item stays at rank 2, so RR stays 1/2."),
                "rr-p3-err": N_("ERR does change, a little ({err_change}): few users get past the star at rank 2, "
                                "but those who do now find 套装 later.")},
           explanation=N_("RR looks only at the first relevant item and P@3 only at the set of the top 3: neither "
                          "changes. AP counts the precision at every relevant item ({ap_before} becomes "
                          "{ap_after}), NDCG discounts rank 6 more than rank 4, and ERR moves by {err_change}."),
           hints=(N_("Each metric looks at part of the ranking: the first hit, the top k, every hit, every rank."),
                  N_("For each metric, ask whether the moved item is in the part it looks at."),
                  N_("The first relevant item of system C is at rank 2, and the top 3 hold the same items "
                     "before and after the swap.")),
           source="notebook 08"),
    choice("compare-a-vs-b", family="comparing", kind="analyse",
           title=N_("The star or three good ones?"),
           question=N_("System A: grades 3, 1, 0, 0, 2, 2 (the star first, the two grade-2 items last). System B: "
                       "2, 2, 3, 0, 0, 1. NDCG prefers A ({ndcg_a} against {ndcg_b}); AP, with grade 2 or more "
                       "relevant, prefers B ({ap_b} against {ap_a}). Why do they disagree?"),
           facts=_a_b_facts,
           options={"star-worth": N_("NDCG's exponential gain makes the star worth more than both grade-2 items "
                                 "together, and A has it at rank 1; AP treats grades 3 and 2 alike, and B has all "
                                 "three relevant items in the top 3."),
                    "discount": N_("AP ignores every rank below 3, NDCG does not."),
                    "first": N_("AP looks only at the first relevant item."),
                    "ideal": N_("NDCG uses a different ideal order for A and for B.")},
           correct="star-worth",
           why={"discount": N_("AP does not ignore them: A's relevant items at ranks 5 and 6 count with precision "
                               "2/5 and 3/6. The difference is the grades, which AP does not see."),
                "first": N_("That is RR, and RR ties A and B: both start with a relevant item. AP averages the "
                            "precision at every relevant item."),
                "ideal": N_("A and B rank the same six products, so they share one ideal order and one IDCG; only "
                            "their DCGs differ.")},
           explanation=N_("With gain 2^g − 1 the star is worth 7 and each grade-2 item 3: A collects the 7 "
                          "undiscounted. AP sees three equally relevant items in both systems, at ranks 1, 5, 6 in "
                          "A and 1, 2, 3 in B. Which system is better depends on the user: one who wants the single "
                          "best product, or one who wants several good ones."),
           hints=(N_("Ask what each metric knows about the items: grades, or only relevant / not relevant."),
                  N_("Compare the gains 2^g − 1 of one grade-3 item and of two grade-2 items, then list where "
                     "each system puts its relevant items."),
                  N_("2^3 − 1 = 7, and 2^2 − 1 = 3 for each grade-2 item.")),
           source="notebook 08"),
    create("compare-more-ndcg-less-ap", family="comparing",
           title=N_("NDCG up, AP down"),
           question=N_("Order system C's six grades (3, 2, 2, 1, 0, 0; grade 2 or more relevant for AP) so that "
                       "NDCG is **higher** than system C's ({ndcg_c}) but AP is **lower** than C's ({ap_c}). Type "
                       "the grades in ranked order, e.g. `[2, 0, 3, 1, 2, 0]`."),
           facts=_c_facts, shape="ranking", verify=_more_ndcg_less_ap, example=[3, 0, 1, 0, 2, 2],
           explanation=N_("NDCG is dominated by the star's gain 7: put it at rank 1. AP counts only the three "
                          "items of grade 2 or more: push the two grade-2 items to the bottom, below the "
                          "irrelevant ones."),
           hints=(N_("NDCG rewards the highest grade near the top most; AP rewards every relevant item (grade "
                     "2 or more) near the top, equally."),
                  N_("Give NDCG what it values most and take from AP what only AP values."),
                  N_("Start with the grade-3 item at rank 1 and check AP of your order with lt.average_precision("
                     "..., threshold=2).")),
           source="notebook 08"),
    choice("compare-choose-qa", family="comparing", kind="evaluate",
           title=N_("A metric for a help-desk search"),
           question=N_("A help-desk search: the user types a question, reads the results from the top until the "
                       "first one that answers it, and stops. Pages are judged as answering or not (no grades). "
                       "Which metric matches this user?"),
           options={"mrr": N_("MRR (mean reciprocal rank)"),
                    "ndcg": N_("NDCG with graded gains"),
                    "p10": N_("P@10"),
                    "auc": N_("AUC")},
           correct="mrr",
           why={"ndcg": N_("NDCG needs grades and rewards every relevant page; this user stops at the first answer, "
                           "so later answers are worth nothing to them."),
                "p10": N_("P@10 counts the answering pages in the top 10 in any order: an answer at rank 1 and one "
                          "at rank 10 score the same, though this user pays nine pages more for the second."),
                "auc": N_("AUC compares every answering page with every other page of the whole list, the bottom as "
                          "much as the top; this user never sees most of it.")},
           explanation=N_("The reciprocal rank 1/r is the user model of someone who wants one answer and pays for "
                          "every page read before it; MRR averages it over queries (success@k is its yes-or-no "
                          "cousin)."),
           hints=(N_("Every metric encodes a user: what they read, and when they stop."),
                  N_("Which metric looks at exactly the first relevant result and nothing after it?"),
                  N_("This user's satisfaction depends only on the rank of the first answering page.")),
           source="notebook 08"),
    # -- 09: spot the error in the documents' worked examples ----------------------------------------------
    choice("spot-000-map", family="comparing", kind="spot",
           title=N_("Post 000's MAP"),
           question=N_("Post 000 computes MAP for two queries: MAC口红, relevant at ranks 1, 2, 5 of 7, and "
                       "神仙水, relevant at ranks 2, 3, 6, 7. Which line of its computation is wrong?"),
           facts=_map_facts,
           options={"ap1": N_("AP(1) = (1/1 + 2/2 + 3/5) / 3 = {ap1}"),
                    "ap2": N_("AP(2) = (1/2 + 2/3 + 3/6 + 4/7) / 4 = {ap2}"),
                    "mean-line": N_("MAP(Q) = (13/15 + 47/84) / 2 = {printed}")},
           correct="mean-line",
           why={"ap1": N_("This line is right: precision 1/1, 2/2 and 3/5 at the three relevant ranks, averaged, is "
                          "{ap1_exact}."),
                "ap2": N_("This line is right: precision 1/2, 2/3, 3/6 and 4/7 at the four relevant ranks, "
                          "averaged, is {ap2_exact}.")},
           explanation=N_("{printed} ≈ {printed_decimal} is 13/15 + 47/84, the sum before the division by 2; no AP exceeds 1, "
                          "so no MAP can. The mean is {map}."),
           hints=(N_("MAP is the mean of the queries' APs, and every AP lies between 0 and 1."),
                  N_("Recompute each line, or first check whether any printed value is impossible."),
                  N_("Write 13/15 and 47/84 over the common denominator 420.")),
           source="doc 000"),
    choice("spot-000-err", family="comparing", kind="spot",
           title=N_("Post 000's ERR"),
           question=N_("Post 000 computes ERR for the 口红 query: grades 3, 2, 3, 1 with g_max = 3. Which line "
                       "is wrong?"),
           facts=_err_facts,
           options={"r": N_("R_i = (2^g − 1) / 2^3 = 7/8, 3/8, 7/8, 1/8"),
                    "sum": N_("ERR = 0.875 + ½·0.125·0.375 + ⅓·0.125·0.625·0.875 + ¼·0.125·0.625·0.125·0.125"),
                    "total": N_("ERR = {printed}")},
           correct="total",
           why={"r": N_("These are right: 2^3 − 1 = 7 and 2^2 − 1 = 3 over 2^3 = 8, and 2^1 − 1 = 1 over 8."),
                "sum": N_("The expansion is right: each term is 1/r times the chance of reaching rank r (the product "
                          "of 1 − R above it, 0.125 = 1 − 7/8, 0.625 = 1 − 3/8) times R_r.")},
           explanation=N_("The expansion adds up to {exact}. {printed} is 14965/16384, what the sum gives with R_i "
                          "in place of 1 − R_i in the reach product from rank 2 on."),
           hints=(N_("In the cascade model a user reaches rank r only if no result above satisfied them."),
                  N_("Check R_i first, then each factor of the expansion, then add the four terms as fractions."),
                  N_("The first term is R_1 = 7/8 = 0.875; the second is ½ · (1 − 7/8) · 3/8 = 3/128.")),
           source="doc 000"),
    choice("spot-004-movies", family="comparing", kind="spot",
           title=N_("Post 004's films"),
           question=N_("Post 004 scores five recommended films with grades 5, 3, 2, 1, 2; seven films are "
                       "judged, 5, 3, 2, 1, 2, 4, 0 (gain 2^g − 1, log2 discount, each term rounded to one "
                       "decimal). Which is the **first** wrong line?"),
           facts=_movies_facts,
           options={"dcg": N_("DCG_5 = 31 + 4.4 + 1.5 + 0.4 + 1.2 = {dcg_printed}"),
                    "ideal": N_("The ideal top 5 of the seven judged films is 5, 4, 3, 2, 2"),
                    "idcg": N_("IDCG_5 = 31 + 9.5 + 3.5 + 1.3 + 1.2 = {idcg_printed}"),
                    "ndcg": N_("NDCG_5 = 38.5 / 46.5 = {ndcg_printed}")},
           correct="idcg",
           why={"dcg": N_("Right at one decimal: the exact DCG is ≈ {dcg}, which rounds to 38.5."),
                "ideal": N_("Right: the seven judged grades sorted are 5, 4, 3, 2, 2, 1, 0, and the top 5 is "
                            "5, 4, 3, 2, 2."),
                "ndcg": N_("This line is wrong too (38.5/46.5 = 0.82796 rounds to 0.828, and the exact NDCG is "
                           "≈ {ndcg}), but it inherits the slip of an earlier line: the question asks for the "
                           "first.")},
           explanation=N_("Each term was rounded to one decimal and three of them up (15/log2 3 ≈ 9.464, "
                          "3/log2 5 ≈ 1.292, 3/log2 6 ≈ 1.161): the rounding adds up, and the exact IDCG is "
                          "≈ {idcg}, 46.4 at one decimal. Round at the end, not term by term."),
           hints=(N_("A line can be wrong by a rounding that survives into its last printed digit."),
                  N_("Recompute each sum with unrounded terms and round only the total."),
                  N_("The ideal's second term is (2^4 − 1) / log2 3 = 15 / 1.585 ≈ 9.464.")),
           source="doc 004"),
    choice("spot-001-ap", family="comparing", kind="spot",
           title=N_("Post 001 on AP"),
           question=N_("Three statements from post 001's section on MAP. Which one is wrong?"),
           facts=_ap_one_facts,
           options={"p-at-k": N_("P@K is the share of relevant results among the top K: l(1) = 1, l(2) = 0 gives "
                                 "P@2 = 1/2."),
                    "ap-one": N_("AP is 1 only when P@k is 1 at every position, that is when every document up to "
                                 "every position is relevant."),
                    "map-mean": N_("MAP is the mean of the APs of all queries.")},
           correct="ap-one",
           why={"p-at-k": N_("Right: one relevant result in the top 2 gives P@2 = 1/2."),
                "map-mean": N_("Right: MAP averages the queries' APs, every query counting the same.")},
           explanation=N_("AP averages P@k only at the relevant positions: the ranking 1, 1, 0, 0 has AP = {ap} "
                          "although P@3 = {p3}. AP is 1 whenever every relevant document comes before every "
                          "irrelevant one."),
           hints=(N_("AP averages the precision at some positions, not at all of them."),
                  N_("Try a small ranking whose relevant documents all come first, followed by irrelevant ones."),
                  N_("For 1, 1, 0, 0 the precision at the two relevant positions is 1/1 and 2/2.")),
           source="doc 001"),
    choice("spot-000-f-beta", family="comparing", kind="spot",
           title=N_("Post 000 on F"),
           question=N_("Three lines of post 000's section 1.5 (AUC). Which one is wrong?"),
           facts=_f_beta_facts,
           options={"f1": N_("F = 2 · Precision · Recall / (Precision + Recall), also called F1."),
                    "f-beta": N_("F_β = (1 + β²)(Precision + Recall) / (β² · Precision + Recall)."),
                    "accuracy": N_("With a click-through rate of a few per thousand, predicting every ad as not "
                                   "clicked still gives an accuracy above 99 %.")},
           correct="f-beta",
           why={"f1": N_("Right: the harmonic mean of precision and recall."),
                "accuracy": N_("Right: with 3 clicks in 1000 impressions, 'no click' everywhere is right 997 times "
                               "in 1000.")},
           explanation=N_("The numerator must be the product P · R: F_β = (1 + β²) · P · R / (β² · P + R). The "
                          "printed formula gives 2 for β = 1 whatever P and R are, and {printed_f2} > 1 for β = 2, "
                          "P = 1/2, R = 2/3, where F_2 is {f2}."),
           hints=(N_("F_β is a weighted harmonic mean of P and R, so it lies between 0 and 1."),
                  N_("Put β = 1 into each formula: it should give F1."),
                  N_("With β = 1 the printed F_β is 2(P + R) / (P + R).")),
           source="doc 000"),
    choice("spot-004-code-mrr", family="comparing", kind="spot",
           title=N_("Post 004's MRR code"),
           question=N_("Post 004's first code snippet, with relevant_docs = [1, 3, 5] and results = [3, 4, 2, "
                       "1, 5]. Which line is wrong?"),
           facts=_code_mrr_facts,
           options={"loop": N_("`for i, r in enumerate(results): if r in relevant_docs: return 1.0 / (i + 1)`"),
                    "zero": N_("`return 0.0` after the loop"),
                    "output": N_("`print(mean_reciprocal_rank(results, relevant_docs))  # 输出 {printed}`")},
           correct="output",
           why={"loop": N_("The loop is right: it returns 1/rank of the first relevant result (enumerate counts "
                           "from 0, hence i + 1)."),
                "zero": N_("Right: a query without any relevant result has reciprocal rank 0.")},
           explanation=N_("The first result, 3, is in relevant_docs, so the function returns 1/1 = {rr}; {printed} "
                          "would need the first relevant result at rank 3. The function returns one query's "
                          "reciprocal rank, not a mean, despite its name."),
           hints=(N_("Run the code in your head on the example before trusting the comment."),
                  N_("Walk through results from the first one and stop at the first that is in relevant_docs."),
                  N_("results[0] is 3.")),
           source="doc 004"),
    # -- 10: why the tools disagree -------------------------------------------------------------------------
    choice("tools-trec-vs-ranx", family="comparing", kind="analyse",
           title=N_("trec_eval against ranx"),
           question=N_("Query q1: qrels d1 = 3, d2 = 2, d3 = 0, d4 = 1, d5 = 2; the run scores d3 1.0, d1 0.8, "
                       "d2 0.8, d4 0.5, d9 0.4. trec_eval reports NDCG {trec}, ranx {ranx}. Both use the linear "
                       "gain, the log2 discount and every judged document for the ideal. What makes them differ?"),
           facts=_ties_facts,
           options={"ties": N_("The order of the tied d1 and d2: trec_eval sorts ties by document id descending "
                               "(d2 first), ranx keeps the run's order (d1 first)."),
                    "pool": N_("ranx leaves the never-retrieved d5 out of the ideal."),
                    "unjudged": N_("ranx counts the unjudged d9 as relevant."),
                    "base": N_("ranx divides by the natural log.")},
           correct="ties",
           why={"pool": N_("Both build the ideal from every judged document of the topic, d5 included: their IDCGs "
                           "are equal, so the difference is in the DCG."),
                "unjudged": N_("Every tool counts an unjudged document as grade 0."),
                "base": N_("Both divide by log2(i + 1); and a base shared by DCG and IDCG would cancel in NDCG "
                           "anyway.")},
           explanation=N_("d1 (grade 3) and d2 (grade 2) share the score 0.8. trec_eval puts d2 at rank 2 and d1 "
                          "at rank 3, ranx the reverse, so the grade-3 document gets the smaller discount only in "
                          "ranx. Renaming the documents would flip trec_eval's number (trec_eval issue #22)."),
           hints=(N_("Two tools with the same gain, discount and ideal can still rank the documents differently."),
                  N_("Look for two documents whose order the scores do not decide."),
                  N_("d1 and d2 both score 0.8: which comes first under each tool?")),
           source="notebook 10"),
    choice("tools-sklearn-highest", family="comparing", kind="analyse",
           title=N_("Why scikit-learn reports the most"),
           question=N_("On the same query q1, scikit-learn's ndcg_score on the five retrieved rows gives {sklearn}, "
                       "the highest of all tools (trec_eval: {trec}). Which settings give it that?"),
           facts=_sklearn_facts,
           options={"list-average": N_("Its ideal comes from the returned rows only, so the unretrieved d5 (grade "
                                       "2) is invisible; and it averages the gains of the tied d1 and d2."),
                    "exp-gain": N_("It uses the exponential gain 2^g − 1."),
                    "no-discount": N_("It does not discount the lower ranks."),
                    "drops-d9": N_("It drops the unjudged d9.")},
           correct="list-average",
           why={"exp-gain": N_("scikit-learn uses y_true as the gain, linear as trec_eval."),
                "no-discount": N_("It divides rank i by log2(i + 1), as trec_eval does."),
                "drops-d9": N_("d9 sits at rank 5 with grade 0: it adds nothing to any DCG, so dropping it would "
                               "change nothing.")},
           explanation=N_("Without d5 the ideal is smaller, so NDCG is larger: with the ideal from the judged pool "
                          "and the same averaged ties it would be {pooled}. Averaging the tie gives ranks 2 and 3 "
                          "the mean gain 2.5 each, where trec_eval puts grade 2 before grade 3: with trec_eval's tie "
                          "order and the ideal from the rows it would be {trec_ties}."),
           hints=(N_("A higher NDCG comes from a larger DCG or a smaller IDCG."),
                  N_("Ask which documents each tool can see when it builds the ideal, and what it does with a tie."),
                  N_("scikit-learn is given only the five retrieved rows: is d5 among them?")),
           source="notebook 10"),
    choice("tools-empty-query", family="comparing", kind="predict",
           title=N_("A query with nothing relevant"),
           question=N_("A query has judged documents but none relevant (every grade 0), so IDCG = 0 and NDCG is "
                       "0/0. What does LightGBM's ndcg report for this query?"),
           facts=_empty_facts,
           options={"zero": N_("NDCG = 0"), "perfect": N_("NDCG = 1"), "nan": N_("NaN"), "error": N_("an error")},
           correct="perfect",
           why={"zero": N_("That is trec_eval's, scikit-learn's and ranx's answer ({trec}); LightGBM and XGBoost "
                           "report 1."),
                "nan": N_("No tool of the course reports NaN by default here; LightGBM reports 1."),
                "error": N_("LightGBM raises nothing: it reports 1, which raises the mean over the queries.")},
           explanation=N_("LightGBM and XGBoost score a query without relevant documents {lightgbm} (XGBoost issues "
                          "#2208 and #3875), trec_eval {trec}. Over a run with many such queries the two means can "
                          "differ by several points on identical rankings."),
           hints=(N_("0/0 has no value: every tool must choose one."),
                  N_("The tools split into two camps; recall notebook 10's cause 6."),
                  N_("trec_eval reports 0 for this query.")),
           source="notebook 10"),
    choice("tools-log-base", family="comparing", kind="predict",
           title=N_("ln or log2?"),
           question=N_("gdeval.pl 1.2a (the copy ir_measures ships) divides each gain by ln(i + 1). Suppose a "
                       "script did the same with log2(i + 1), everything else unchanged. How do their NDCGs of one "
                       "ranking compare?"),
           facts=_base_facts,
           options={"same": N_("They are equal."),
                    "ln-higher": N_("ln gives the higher NDCG, since ln(i + 1) < log2(i + 1)."),
                    "log2-higher": N_("log2 gives the higher NDCG."),
                    "depends": N_("It depends on the grades.")},
           correct="same",
           why={"ln-higher": N_("ln gives the higher DCG ({dcg_ln} against {dcg_log2}), but also the higher IDCG, "
                                "by the same factor: the ratio is unchanged."),
                "log2-higher": N_("log2 gives the smaller DCG and the smaller IDCG, by the same factor ln 2: the "
                                  "ratio is unchanged."),
                "depends": N_("ln(i + 1) = ln 2 · log2(i + 1) at every rank, whatever the grades: the factor is "
                              "the same in every term of DCG and IDCG.")},
           explanation=N_("Every DCG with ln is the DCG with log2 divided by ln 2 ≈ 0.693, and so is IDCG: the "
                          "factor cancels and NDCG is {ndcg_log2} either way. That is why post 000's DCGs, "
                          "natural-log values, still give the usual NDCGs."),
           hints=(N_("Change of base: log_a x = log_b x / log_b a."),
                  N_("Write ln(i + 1) with log2 and see what happens to DCG and to IDCG."),
                  N_("ln(i + 1) = ln 2 · log2(i + 1), and ln 2 ≈ 0.693.")),
           source="notebook 10"),
    written("compare-written-two-verdicts", family="comparing",
            title=N_("Two metrics, two verdicts"),
            question=N_("Rankers A and B are compared on the same 50 queries. Mean NDCG@10: A 0.612, B 0.598. MRR: A "
                        "0.701, B 0.734. Exact paired randomisation test: p = 0.31 for the NDCG@10 difference, p = 0.04 "
                        "for the MRR difference. The product is a question-answering box that shows the user one "
                        "answer. In four or five sentences, recommend A or B to the product team and say why."),
            model=N_("The box shows one answer, so what matters is whether the first result is relevant: MRR (or "
                     "success@1) fits the task, while NDCG@10 also rewards results ranked 2 to 10 that the user never "
                     "sees. On NDCG@10 the gap of 0.014 is well within chance (p = 0.31), so it does not show that A "
                     "is better at anything. B leads on MRR with p = 0.04, but that holds only if MRR was chosen as the "
                     "primary metric before the results were seen; picking the better of two tests afterwards calls "
                     "for a correction (Holm: 2 × 0.04 = 0.08). Recommendation: B, with MRR as the declared metric, "
                     "confirmed on a fresh set of queries before shipping."),
            hints=(N_("Start from the user: what does a box that shows one answer ask of the ranking?"),
                  N_("Read each p-value: which difference could easily be chance?"),
                  N_("Then ask what changes if the metric is picked after both results are known.")),
            rubric=((1, N_("matches the metric to the task: one answer shown, so the first result (MRR, success@1) "
                           "counts")),
                    (1, N_("reads p = 0.31 as no evidence of a difference in NDCG@10")),
                    (1, N_("notes that choosing between two tests after the fact needs a correction, or a primary "
                           "metric fixed in advance")),
                    (1, N_("gives a clear recommendation with the evidence still needed"))),
            level=3, about=("mrr", "ndcg")),
]
