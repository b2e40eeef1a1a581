"""The collections family's exercises: pooling, unjudged documents, bpref, assessor agreement (notebook 14)."""

from ...core.i18n import N_, _
from ...metrics.agreement import cohen_kappa
from ...metrics.binary import bpref, judged_at_k
from ..kinds import choice, create

FAMILY = ("collections", N_("Test collections"))

# a new system's top 10 against a pool it did not contribute to: None = unjudged
_NEW_SYSTEM = [1, None, None, 1, 0, None, None, 1, None, 0]
# notebook 14's pool: what an assessor would say of every document, two pooled systems and a new one, C
_TRUTH = {"口红": {"d01": 1, "d02": 1, "d03": 1, "d05": 1, "d08": 1, "d11": 1}}
_POOLED = {"A": {"口红": {"d01": 0.9, "d04": 0.8, "d02": 0.7, "d06": 0.6, "d05": 0.5}},
           "B": {"口红": {"d02": 0.9, "d03": 0.8, "d07": 0.7, "d01": 0.6, "d09": 0.5}}}
_RUN_C = {"口红": {"d08": 0.9, "d01": 0.8, "d11": 0.7, "d05": 0.6, "d04": 0.5, "d03": 0.4, "d10": 0.3}}


def _c_scores(judged_only=False, qrels=None) -> dict:
    """System C's P@5, MAP and judged@5 as decimals, on the depth-3 pool (or on ``qrels``)."""
    # the runs layer (and NumPy) imported when these numbers are shown: checking an answer needs neither (issue 21)
    from ...runs.evaluate import evaluate
    from ...runs.pooling import pool

    qrels = pool(_POOLED, 3, truth=_TRUTH) if qrels is None else qrels
    names = ["p@5", "map"] + ([] if judged_only else ["judged@5"])
    means = evaluate(qrels, _RUN_C, names, judged_only=judged_only).mean
    return {name: f"{float(means[name]):.4f}" for name in names}


# two assessors on 20 documents, most of them clearly non-relevant
_JUDGE_1 = [0] * 18 + [1, 0]
_JUDGE_2 = [0] * 18 + [0, 1]


def _high_agreement_low_kappa(pair):
    """Why a typed pair of judgments is not one with >= 80 % agreement and kappa <= 0.2, or None."""
    a, b = pair
    if len(a) != len(b) or len(a) < 5:
        return _("the two judges must label the same documents, at least 5; got {a} and {b} labels").format(
            a=len(a), b=len(b))
    if any(x not in (0, 1) for x in list(a) + list(b)):
        return _("judgments are 0 (not relevant) or 1 (relevant)")
    agree = sum(1 for x, y in zip(a, b) if x == y) / len(a)
    if agree < 0.8:
        return _("the judges agree on {share} of the documents; the exercise asks for at least 80%").format(
            share=f"{agree:.0%}")
    try:
        kappa = cohen_kappa(a, b)
    except ValueError as error:
        return str(error)
    if kappa.exact > 0.2:
        return _("kappa is {kappa}, above 0.2").format(kappa=kappa.decimal_str)
    return None


EXERCISES = [
    choice("unjudged-counted-as-nonrelevant", family="collections", kind="analyse",
           title=N_("A new system, an old pool"),
           question=N_("A new system is scored on a test collection whose pool it never contributed to. In its top "
                       "10, judged@10 is {judged}. Under trec_eval's default its P@10 is far below what the same "
                       "system gets with judged-only evaluation (trec_eval -J). What is the likeliest reason?"),
           facts=lambda: {"judged": judged_at_k(_NEW_SYSTEM, 10).decimal_str},
           options={"unjudged": N_("Its unjudged documents count as not relevant by default, though some may be "
                                   "relevant"),
                    "worse": N_("The new system is worse than the pooled ones"),
                    "judged-only-cheats": N_("Judged-only evaluation adds relevant documents that are not in the "
                                             "qrels"),
                    "depth": N_("P@10 is computed at the wrong depth")},
           correct="unjudged",
           why={"worse": N_("Nothing here measures it against the pooled systems; the gap is between two readings of "
                            "the same ranking."),
                "judged-only-cheats": N_("-J adds nothing: it removes unjudged documents from the ranking, so "
                                         "judged ones move up."),
                "depth": N_("Both readings cut at 10; what differs is what happens to the unjudged documents.")},
           explanation=N_("The pool holds only documents the contributing systems ranked high. A new system finds "
                          "documents nobody judged; trec_eval's default counts each as not relevant, so the system is "
                          "punished for being different. Judged@10 tells how far to trust the score; bpref and "
                          "judged-only evaluation are two ways around it, each with its own bias."),
           hints=(N_("What does trec_eval assume about a document that has no judgment?"),
                  N_("Count how many of the top 10 have a judgment at all."),
                  N_("judged@10 = judged documents in the top 10 / 10."))),
    choice("judged-only-predict", family="collections", kind="predict",
           title=N_("Remove the unjudged documents first"),
           question=N_("System C did not contribute to the pool. With unjudged documents counted as not relevant "
                       "(trec_eval's default), its P@5 is {p} and its MAP {map}; judged@5 is {judged}. With -J "
                       "(unjudged documents removed from the ranking before scoring), what happens to its P@5?"),
           facts=lambda: {"p": _c_scores()["p@5"], "map": _c_scores()["map"], "judged": _c_scores()["judged@5"],
                          "p_j": _c_scores(True)["p@5"], "map_j": _c_scores(True)["map"],
                          "p_true": _c_scores(qrels=_TRUTH)["p@5"]},
           options={"rise": N_("It rises"), "fall": N_("It falls"), "same": N_("It stays the same")},
           correct="rise",
           why={"fall": N_("Removing a document never adds a non-relevant one: judged documents from below move up "
                           "into the top 5, and some of them are relevant."),
                "same": N_("Three of C's top 5 are unjudged; once they are removed, other judged documents move up "
                           "into the top 5, and the count of relevant ones there changes.")},
           explanation=N_("With -J, C's ranking becomes d01, d04, d03: P@5 = {p_j} and MAP = {map_j} (trec_eval still "
                          "divides P@5 by 5). Against what an assessor would say of every document, C's P@5 is "
                          "{p_true}: both readings of the pool underrate the new system."),
           hints=(N_("-J deletes unjudged documents from the ranking; the rest keep their order."),
                  N_("Write C's ranking, cross out the documents not in the qrels, and take the first 5 left."),
                  N_("The pool holds d01, d04, d02, d03 and d07; C's first document, d08, is not among them."))),
    choice("robust-metric-incomplete", family="collections", kind="evaluate",
           title=N_("Incomplete judgments"),
           question=N_("Your judgments are known to be incomplete: many documents the systems retrieve were never "
                       "judged. You want a metric whose comparison of systems changes least with that. Which one?"),
           options={"bp": N_("bpref"), "p10": N_("P@10 (unjudged = not relevant)"), "map": N_("MAP"),
                    "ndcg": N_("NDCG@10 (unjudged = not relevant)")},
           correct="bp",
           why={"p10": N_("P@10 counts every unjudged document in the top 10 as not relevant: the fewer judgments, "
                          "the lower it gets."),
                "map": N_("MAP's precision at each relevant document falls with every unjudged document above it."),
                "ndcg": N_("NDCG's gain is 0 for an unjudged document, so it falls with missing judgments as P@10 "
                           "does.")},
           explanation=N_("bpref (Buckley & Voorhees 2004) uses judged documents only: for each relevant document it "
                          "counts the judged non-relevant ones above it. An unjudged document changes nothing, so "
                          "the metric is built for incomplete judgments."),
           hints=(N_("Which metric looks only at judged documents?"),
                  N_("Insert an unjudged document at rank 1 and ask which metrics change."),
                  N_("One of the four compares relevant documents with judged non-relevant ones only."))),
    choice("kappa-low-despite-agreement", family="collections", kind="analyse",
           title=N_("Agreeing, mostly by chance"),
           question=N_("Two assessors judge 20 documents and agree on {agree} of them, yet Cohen's kappa is only "
                       "{kappa}. Why is kappa so low?"),
           facts=lambda: {"agree": sum(1 for x, y in zip(_JUDGE_1, _JUDGE_2) if x == y),
                          "kappa": cohen_kappa(_JUDGE_1, _JUDGE_2).decimal_str},
           options={"base-rate": N_("Most documents are non-relevant, so two judges who said 'not relevant' almost "
                                 "always would agree that often by chance"),
                    "few": N_("20 documents are too few for kappa"),
                    "wrong": N_("Kappa is computed wrongly; agreement that high gives a high kappa"),
                    "order": N_("Kappa depends on the order of the documents")},
           correct="base-rate",
           why={"few": N_("Kappa is defined for any number of documents; its value here comes from the shares of "
                          "each category, not from the count."),
                "wrong": N_("κ = (P(A) − P(E)) / (1 − P(E)): with P(E) close to P(A) it is small whatever P(A) is."),
                "order": N_("Kappa uses only the counts of each (judge 1, judge 2) combination, never the order.")},
           explanation=N_("Kappa subtracts the agreement expected by chance, P(E), from the observed P(A). When almost "
                          "every document is non-relevant, P(E) is already high, so agreeing on the easy ones earns "
                          "little: what counts is agreeing on the relevant ones, and here they disagree there."),
           hints=(N_("Kappa compares the observed agreement with the agreement expected by chance."),
                  N_("Compute each judge's share of 'relevant', then P(E) = p₁(rel)·p₂(rel) + p₁(non)·p₂(non)."),
                  N_("Each judge says relevant for 1 of the 20 documents."))),
    choice("bpref-unjudged-predict", family="collections", kind="predict",
           title=N_("An unjudged document at the top"),
           question=N_("The judgments of a ranking are [1, 0, 1, 0, 1] (1 relevant, 0 judged non-relevant); its "
                       "bpref is {before}. A document nobody judged is inserted at rank 1. What happens to bpref?"),
           facts=lambda: {"before": bpref([1, 0, 1, 0, 1]).decimal_str},
           options={"same": N_("It stays the same"), "fall": N_("It falls"), "rise": N_("It rises")},
           correct="same",
           why={"fall": N_("That is what P@k or AP would do, counting the unjudged document as not relevant; bpref "
                           "skips it."),
                "rise": N_("Nothing is added for an unjudged document: it is neither relevant nor judged "
                           "non-relevant.")},
           explanation=N_("bpref counts, for each relevant document, the judged non-relevant documents above it. An "
                          "unjudged document is neither, so every count, and bpref, stays as it was."),
           hints=(N_("Which documents does bpref look at?"),
                  N_("For each relevant document, count the judged non-relevant documents above it, before and "
                     "after."),
                  N_("The first relevant document has 0 judged non-relevant documents above it, with or without "
                     "the newcomer."))),
    create("high-agreement-low-kappa", family="collections",
           title=N_("Agree a lot, mean little"),
           question=N_("Type the judgments of two assessors on the same documents (0/1, at least 5 documents) such "
                       "that they agree on **at least 80 %** of the documents but Cohen's kappa is **at most 0.2**."),
           shape="pair", verify=_high_agreement_low_kappa,
           example=[[0, 0, 0, 0, 0, 0, 0, 0, 1, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 1]],
           explanation=N_("When one category dominates, chance agreement P(E) is close to 1: two judges agree on the "
                          "many easy documents and disagree on the few that matter, and kappa, which discounts "
                          "chance, sees it."),
           hints=(N_("Kappa discounts the agreement chance alone would give."),
                  N_("Make one category rare, and let the judges disagree exactly on the rare documents."),
                  N_("With 10 documents, 8 shared zeros already give 80 % agreement."))),
]
