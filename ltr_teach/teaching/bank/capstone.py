"""The capstone family's exercises: a real collection's unjudged documents, held-out queries, many systems (17)."""

from ...core.i18n import N_, _
from ...metrics.binary import judged_at_k
from ..kinds import _e, arranged, choice, derive, written

FAMILY = ("capstone", N_("Capstone: a real test collection"))

#: BM25's (k1 = 1.2, b = 0.75) top 10 for topic 20152 of the clinical-trials collection (notebook 17): the grade a
#: doctor gave each trial for this patient, None for a trial judged only for other patients.
_TOPIC_20152 = [0, None, None, 2, 0, None, 0, None, 0, 2]


def _judged_task(d) -> str:
    shown = ", ".join("—" if g is None else str(g) for g in d["judgments"])
    return _("A patient's top 10 trials have the grades {shown} (— marks a trial that nobody judged for this patient; "
             "0 means a doctor would not refer the patient to it). Compute judged@{k}.").format(shown=shown, k=d["k"])


def _judged_variant(rng, data) -> dict:
    """A student's own top 10: grades 0 to 2 or unjudged, at least one of each kind of rank."""
    while True:
        values = [None if rng.random() < 0.6 else rng.randint(0, 2) for _ in data["judgments"]]
        if 0 < sum(v is not None for v in values) < len(values):
            return dict(data, judgments=values)


def _judged_facts() -> dict:
    return {"judged": judged_at_k(_TOPIC_20152, 10).decimal_str}


#: What notebook 17 prints on the 30 held-out topics (2015) for the four systems, rounded as the questions quote it;
#: ``tests/test_capstone_bank.py`` recomputes every one from the shipped collection with the library.
HELD_OUT = {"overlap_judged": "0.19", "bm25_judged": "0.34", "gap_plain": "0.046", "gap_condensed": "0.024",
            "p_tuned_overlap": "0.022", "p_bm25_overlap": "0.049", "p_tfidf_overlap": "0.098",
            "holm_tuned_overlap": "0.133", "lowest_mean": "0.05", "highest_mean": "0.10"}


def _held_out_facts() -> dict:
    return dict(HELD_OUT)


EXERCISES = [
    _e("capstone-judged-at-10", "capstone", "judged_at_k", {"judgments": _TOPIC_20152, "k": 10}, _judged_task,
       [N_("A grade of 0 is a judgment (a doctor looked and said no); only the dashes are missing.")],
       intro=N_("In notebook 17 these are BM25's first ten trials for patient 20152."), randomize=_judged_variant),
    choice("capstone-judged-predict", family="capstone", kind="predict",
           title=N_("How much of the top 10 did anyone judge?"),
           question=N_("Each of the 59 patients has 13 to 153 trials judged for them; the collection holds "
                       "3,625 trials, and every patient is searched against all of them. Before running anything: "
                       "what share of BM25's top 10 for a patient do you expect to have a judgment for that "
                       "patient?"),
           options={"most": N_("Nearly all of it, above 90%"), "third": N_("Roughly a third"),
                    "none": N_("Almost none, below 5%")},
           correct="third",
           why={"most": N_("The pools were built for each patient, but BM25 is not the system that built them: it also "
                           "ranks high many trials that were judged only for other patients, or that share words "
                           "with the case report without being about the same condition."),
                "none": N_("The pools were built by searching for this patient, so a lexical ranker finds some of the "
                           "same trials near the top.")},
           explanation=N_("Notebook 17 measures it: judged@10 is about one third for TF-IDF and BM25, and lower for the "
                          "word-overlap ranker. Every unjudged trial counts as not relevant by default, so two thirds "
                          "of each top 10 are scored without anyone having looked at them."),
           hints=(N_("Compare the size of one patient's pool with the size of the collection."),
                  N_("Ask which system's results the pools were made from, and whether BM25 is that system."),
                  N_("A trial judged for another patient is unjudged for this one.")),
           about=("judged_at_k",), level=2),
    choice("capstone-heldout-split", family="capstone", kind="analyse",
           title=N_("Tune on some topics, report on others"),
           question=N_("Notebook 17 tries 24 pairs (k1, b) of BM25 and keeps the pair with the best mean NDCG@10 on "
                       "the 29 topics of 2014, then reports the systems on the 30 topics of 2015. Why not pick the "
                       "pair and report it on all 59 topics?"),
           options={"optimistic": N_("The best of 24 tries on some topics is partly luck on those topics: its score "
                                     "there overstates what the pair does on new ones"),
                    "harder": N_("The 2015 topics are harder, so the report is more cautious"),
                    "power": N_("Fewer topics give a test with more power"),
                    "independent": N_("A paired test needs the two systems to be scored on different topics")},
           correct="optimistic",
           why={"harder": N_("Nothing says the 2015 topics are harder; the split is about which topics chose the "
                             "parameters, not about their difficulty."),
                "power": N_("Fewer topics give less power, not more: the held-out report pays for its honesty with "
                            "a wider confidence interval."),
                "independent": N_("A paired test scores both systems on the same topics; what must be new is the "
                                  "topics to the choice of parameters.")},
           explanation=N_("Choosing the maximum of many noisy means selects the pair that was lucky on those topics as "
                          "well as the pair that is good. Its score on the topics that chose it is biased upwards; "
                          "only topics that played no part in the choice give an unbiased estimate. Notebook 17 shows "
                          "the gain of the tuned pair shrink from the 2014 topics to the 2015 ones."),
           hints=(N_("Think of the best of 24 dice throws: is it a fair estimate of one throw?"),
                  N_("Which topics influenced the choice of (k1, b)?"),
                  N_("An estimate is unbiased only on data that played no part in choosing what is estimated.")),
           level=2),
    choice("capstone-condensed-predict", family="capstone", kind="predict",
           title=N_("Remove the unjudged trials"),
           question=N_("BM25's top 10 for patient 20152 has grades 0, —, —, 2, 0, —, 0, —, 0, 2 (— unjudged); its "
                       "judged@10 is {judged}. In a condensed list (trec_eval -J) the unjudged trials are removed "
                       "before scoring. What happens to this patient's NDCG@10?"),
           facts=_judged_facts,
           options={"rise": N_("It rises or stays the same, never falls"), "fall": N_("It falls"),
                    "either": N_("It can rise or fall, depending on the grades")},
           correct="rise",
           why={"fall": N_("Removing an unjudged trial never adds a non-relevant one: every judged trial keeps its "
                           "order and moves up, where the discount is smaller."),
                "either": N_("The ideal DCG does not change (it depends on the judgments only), and no judged trial "
                             "moves down: the DCG cannot fall.")},
           explanation=N_("The grade-2 trial at rank 4 moves to rank 2 and the one at rank 10 moves up too, and judged "
                          "trials from below rank 10 enter the top 10. DCG can only grow, IDCG stays, so NDCG@10 rises "
                          "or stays; notebook 17 shows condensed NDCG@10 more than twice the plain one for every system."),
           hints=(N_("Which part of NDCG depends on the ranking, and which only on the judgments?"),
                  N_("Follow the grade-2 trial at rank 4: where is it once the dashes are gone?"),
                  N_("A discount 1/log2(1 + rank) is larger at a smaller rank.")),
           about=("ndcg", "judged_at_k"), level=2),
    derive("capstone-derive-condensed", family="capstone",
           title=N_("Condensed lists never lower NDCG"),
           claim=N_("Show that for any ranking, removing its unjudged documents (a condensed list) cannot lower "
                    "NDCG@k when unjudged documents count as gain 0 and the ideal comes from the judgments."),
           steps=(N_("Write NDCG@k = DCG@k / IDCG@k and say which of the two depends on the ranking."),
                  N_("Take a judged document at rank r ≤ k in the full list. Where is it in the condensed list, and "
                     "what happens to its discount?"),
                  N_("What do the documents that enter the top k from below add, and what did the removed ones "
                     "contribute?")),
           question=N_("Which assumption does the derivation need?"),
           options={"gain-zero": N_("That an unjudged document's gain is 0 in the full list"),
                    "binary": N_("That the grades are binary"),
                    "all-judged": N_("That every relevant document is in the list"),
                    "k-ten": N_("That k = 10")},
           correct="gain-zero",
           why={"binary": N_("Steps 2 and 3 compare discounts rank by rank; any gain ≥ 0 works, graded or not."),
                "all-judged": N_("IDCG comes from the judgments whatever the list holds; step 1 does not look at "
                                 "which relevant documents are retrieved."),
                "k-ten": N_("Nothing in the steps uses the value of k.")},
           model=N_("IDCG@k depends only on the judgments, so it is the same for both lists. A judged document at rank "
                    "r keeps its order among judged documents and moves to rank r' ≤ r, whose discount is at least as "
                    "large; its gain is unchanged, so its contribution does not fall. The removed documents had gain "
                    "0 and contributed nothing; documents that enter the top k add a gain ≥ 0. So DCG@k of the "
                    "condensed list ≥ DCG@k of the full list, and NDCG@k with it. The one assumption: an unjudged "
                    "document counted 0 in the full list (trec_eval's default)."),
           rubric=((1, N_("IDCG@k depends on the judgments only, so it is the same for both lists")),
                   (1, N_("each judged document moves up or stays, so its discount does not grow and its contribution "
                          "does not fall")),
                   (1, N_("the removed documents contributed 0 and those entering the top k add a gain ≥ 0")),
                   (1, N_("names the assumption: an unjudged document counted as gain 0 in the full list"))),
           hints=(N_("Start from the definition: which term of the fraction can a new ranking change?"),
                  N_("Compare each judged document's rank before and after removing the unjudged ones."),
                  N_("The step students skip: check what the removed documents contributed before.")),
           level=3, about=("ndcg", "judged_at_k")),
    choice("capstone-holm-survives", family="capstone", kind="evaluate",
           title=N_("One small p among six"),
           question=N_("Four systems give six pairs on the 30 held-out topics. One pair has a raw p-value below 0.05: "
                       "tuned BM25 against word overlap ({p_tuned_overlap}); BM25 against word overlap has "
                       "{p_bm25_overlap}, TF-IDF against word overlap {p_tfidf_overlap}, the other three pairs more "
                       "than 0.5. Holm's correction makes the smallest {holm_tuned_overlap}. What do you write?"),
           facts=_held_out_facts,
           options={"not-shown": N_("The collection does not show a difference between any two systems at the 0.05 "
                                    "level once the six comparisons are taken into account"),
                    "tuned-wins": N_("Tuned BM25 beats word overlap (p = {p_tuned_overlap})"),
                    "equal": N_("The four systems are equally good"),
                    "drop-holm": N_("Report only that pair, so no correction is needed")},
           correct="not-shown",
           why={"tuned-wins": N_("With six comparisons the chance that at least one raw p falls below 0.05 by luck is "
                                 "far above 5%; that is what Holm's step-down adjustment accounts for."),
                "equal": N_("Not rejecting the null hypothesis is not evidence that it holds: 30 topics may be too few "
                            "to show a difference of this size."),
                "drop-holm": N_("Choosing the pair after looking at the six p-values is the multiple comparison; "
                                "leaving the others out of the report hides it, it does not remove it.")},
           explanation=N_("Holm multiplies the smallest of the m = 6 p-values by 6, the next by 5, and so on (each "
                          "adjusted value at least the one before): 6 × {p_tuned_overlap} gives {holm_tuned_overlap}, "
                          "above 0.05, and every other pair stays above it too. The honest sentence says what the data "
                          "cannot show, and why (few topics, six comparisons), without claiming the systems are "
                          "equal."),
           hints=(N_("How many comparisons were made before this p-value was picked out?"),
                  N_("Holm compares the smallest p with α/m, the next with α/(m − 1), and so on."),
                  N_("A test that does not reject says nothing about equality.")),
           level=3),
    choice("capstone-unjudged-favours", family="capstone", kind="analyse",
           title=N_("Who pays for the unjudged trials?"),
           question=N_("On the held-out topics, word overlap's judged@10 is {overlap_judged} and BM25's {bm25_judged}. "
                       "Plain NDCG@10 puts BM25 ahead by {gap_plain}; with condensed lists the gap is {gap_condensed}, "
                       "BM25 still ahead. What do the two readings tell you together?"),
           facts=_held_out_facts,
           options={"part": N_("Part of the gap comes from word overlap's unjudged trials counted as not relevant; "
                               "the rest holds when they are removed"),
                    "artefact": N_("All of the gap is an artefact of unjudged trials counted as not relevant"),
                    "condensed-true": N_("Condensed NDCG@10 is the true score, so report only it"),
                    "judged-quality": N_("A higher judged@10 proves a better system")},
           correct="part",
           why={"artefact": N_("If it were, removing the unjudged trials would close the gap; BM25 stays ahead."),
                "condensed-true": N_("Condensed lists have their own bias (they favour systems that retrieve judged "
                                     "documents, and they inflate every score); report both and say which is which."),
                "judged-quality": N_("judged@10 measures how much of the top 10 was looked at, not how good it is: a "
                                     "system can retrieve many judged non-relevant trials.")},
           explanation=N_("A system unlike the ones that built the pools retrieves more unjudged documents and is "
                          "punished for it when they count as not relevant. Checking judged@k, then recomputing with "
                          "condensed lists (or bpref), shows how much of a conclusion depends on that: here about half "
                          "of the gap, and on 30 topics neither reading is significant after Holm."),
           hints=(N_("What would you expect of the gap if it came only from the unjudged trials?"),
                  N_("Condensed lists remove the unjudged trials before scoring."),
                  N_("Compare the size and the direction of the difference under both readings.")),
           about=("judged_at_k", "ndcg"), level=3),
    written("capstone-written-conclusion", family="capstone",
            title=N_("The capstone's conclusion"),
            question=N_("Write the conclusion of your capstone in four to six sentences: which systems you compared "
                        "on which topics, their mean NDCG@10 on the held-out topics, what the paired tests say after "
                        "correction, how much of the top 10 was judged and what condensed lists change, and what "
                        "the collection cannot tell you."),
            facts=_held_out_facts,
            model=N_("Model answer: On the 30 held-out 2015 topics of the clinical-trials collection (k1 and b tuned on "
                     "the 29 topics of 2014), word overlap, TF-IDF, BM25 and tuned BM25 have mean NDCG@10 between "
                     "about {lowest_mean} and {highest_mean}. No pair differs at the 0.05 level after Holm's correction "
                     "(the one raw p-value below 0.05, tuned BM25 against word overlap, {p_tuned_overlap}, becomes "
                     "{holm_tuned_overlap}). Only about a third of each top 10 was judged (word overlap: a fifth), so "
                     "the scores are lower bounds; condensed lists more than double every score and halve the gap "
                     "between BM25 and word overlap. The tuned parameters gained on the 2014 topics but almost "
                     "nothing on the 2015 ones. Thirty topics and pools built by other systems cannot show "
                     "differences of this size; they do not show that the systems are equal."),
            rubric=((1, N_("the split: the training and the held-out topics named, the parameters chosen on the "
                           "training topics only")),
                    (1, N_("the held-out means of the systems, with the metric named")),
                    (1, N_("the paired test, the correction and the p-values read correctly: no 'proven equal', no "
                           "claim from an uncorrected p")),
                    (1, N_("judged@10 and what the condensed lists change")),
                    (1, N_("a limit of the collection or of the sample size; every point with the number from the "
                           "student's own output"))),
            hints=(N_("Go section by section through your notebook and take one number from each."),
                  N_("Say which topics chose the parameters and which topics the numbers come from."),
                  N_("End with what the data cannot show: a non-significant difference is not an equality.")),
            level=3, about=("ndcg", "judged_at_k")),
]

EXERCISES = arranged(EXERCISES, [
    "capstone-judged-at-10", "capstone-judged-predict", "capstone-heldout-split", "capstone-condensed-predict",
    "capstone-derive-condensed", "capstone-holm-survives", "capstone-unjudged-favours", "capstone-written-conclusion",
])
