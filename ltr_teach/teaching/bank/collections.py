"""The collections family's exercises: pooling, unjudged documents, bpref, assessor agreement (notebook 14)."""

from ...core.i18n import N_, _
from ...metrics.agreement import cohen_kappa
from ...metrics.binary import bpref, judged_at_k
from ..kinds import _e, choice, create, derive
from ._compute import _documents

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


# Manning et al. exercise 8.10's form: two judges, twelve documents, 1 = relevant; the judges' shares of
# "relevant" differ (8 and 6 of 12), so Cohen's chance agreement and the textbook's pooled one part
_KAPPA_A = [1, 1, 0, 1, 1, 0, 1, 1, 0, 1, 0, 1]
_KAPPA_B = [1, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0, 1]


def _kappa_judges(rng, data) -> dict:
    """A student's version: new judgments of the same number of documents, the judges disagreeing on some."""
    n = len(data["judge_a"])
    while True:
        a = [int(rng.random() < 0.6) for _ in range(n)]
        b = [x if rng.random() < 0.7 else 1 - x for x in a]
        if 0 < sum(a) < n and 0 < sum(b) < n and a != b:
            return dict(data, judge_a=a, judge_b=b)


def _shares_differ(d) -> bool:
    """The judges call different numbers of documents relevant: Cohen's and the pooled chance agreement part."""
    return sum(d["judge_a"]) != sum(d["judge_b"])


def _kappa_task(d) -> str:
    header = "| " + _("document") + " | " + " | ".join(str(i) for i in range(1, len(d["judge_a"]) + 1)) + " |"
    rule = "|---" * (len(d["judge_a"]) + 1) + "|"
    rows = "\n".join("| " + name + " | " + " | ".join(map(str, labels)) + " |"
                      for name, labels in ((_("judge A"), d["judge_a"]), (_("judge B"), d["judge_b"])))
    return _("Two assessors judged the same {n} documents for one query (1 = relevant, 0 = not relevant):\n\n"
             "{table}\n\nCompute P(A), the share of documents they agree on; P(E), the agreement expected by chance, "
             "from **each judge's own** shares of relevant and non-relevant (Cohen's convention, that of "
             "lt.cohen_kappa; Manning et al., section 8.5, pool the two judges' shares instead: not here); then Cohen's "
             "kappa, κ = (P(A) − P(E)) / (1 − P(E)).").format(n=len(d["judge_a"]),
                                                              table=f"{header}\n{rule}\n{rows}")


# Three systems' top 5 for one query, pooled to a depth; a fourth system, N, contributed nothing
_POOL_RUNS = {"A": ["d1", "d2", "d3", "d4", "d5"], "B": ["d2", "d6", "d7", "d1", "d8"],
              "C": ["d9", "d3", "d10", "d2", "d11"]}
_POOL_NEW = ["d6", "d4", "d10", "d12", "d2"]
_POOL_DEPTH = 3


def _pooled_docs(depth) -> set:
    return {doc for ranking in _POOL_RUNS.values() for doc in ranking[:depth]}


def _new_system(rng, data) -> dict:
    """A student's version: another new system's top 5 among d1 to d14, its judgments read from the same pool."""
    new = rng.sample([f"d{i}" for i in range(1, 15)], len(data["new_run"]))
    if "n_relevant" in data:  # bpref: what the assessors said of each pooled document
        return dict(data, new_run=new, judgments=[_POOL_QRELS.get(doc) for doc in new])
    return dict(data, new_run=new, judgments=[1 if doc in _pooled_docs(data["pool_depth"]) else None for doc in new])


def _judged_and_not(d) -> bool:
    return None in d["judgments"] and any(j is not None for j in d["judgments"])


def _unjudged_above_a_relevant(d) -> bool:
    """A relevant document below an unjudged one: the unjudged-as-non-relevant slip changes bpref."""
    j = d["judgments"]
    return any(j[i] == 1 and None in j[:i] for i in range(len(j)))


def _lists_text() -> str:
    return _("; ").join(_("{name}: {docs}").format(name=name, docs=", ".join(docs)) for name, docs in
                        _POOL_RUNS.items())


def _pool_task(d) -> str:
    return _("Systems A, B and C returned, for one query (rank 1 first): {lists}. The assessors judged the pool of "
             "depth {depth}: every document that at least one of the three systems ranked in its top {depth}. A new "
             "system N, which was not pooled, returns {new}. Compute N's judged@{k}: the share of its top {k} that "
             "has a judgment.").format(lists=_lists_text(), depth=d["pool_depth"], new=", ".join(d["new_run"]),
                                       k=d["k"])


#: What the assessors said of the depth-3 pool (every pooled document is in it; 1 = relevant).
_POOL_QRELS = {"d1": 1, "d2": 1, "d3": 0, "d6": 1, "d7": 0, "d9": 0, "d10": 0}


def _pool_bpref_task(d) -> str:
    relevant = ", ".join(doc for doc, grade in _POOL_QRELS.items() if grade)
    nonrelevant = ", ".join(doc for doc, grade in _POOL_QRELS.items() if not grade)
    return _("Systems A, B and C returned, for one query (rank 1 first): {lists}. The assessors judged their pool "
             "of depth {depth} and found {relevant} relevant and {nonrelevant} not relevant; nothing else was judged, so "
             "the query has {documents} and {n_nonrelevant} judged non-relevant ones in all. A new system N, which was not pooled, returns {new}. Compute N's bpref as trec_eval does: for each "
             "relevant document N retrieves, 1 − min(n, R)/min(N, R), n being the judged non-relevant documents above "
             "it; the sum divided by R (R relevant and N judged non-relevant documents).").format(
        lists=_lists_text(), depth=d["pool_depth"], relevant=relevant, nonrelevant=nonrelevant,
        documents=_documents(d["n_relevant"]), n_nonrelevant=d["n_nonrelevant"],
        new=", ".join(d["new_run"]))


def _pool_growth_facts() -> dict:
    from ...runs.pooling import pool

    runs = {name: {"q": {doc: len(docs) - i for i, doc in enumerate(docs)}} for name, docs in _POOL_RUNS.items()}
    shallow, deep = pool(runs, 2)["q"], pool(runs, 3)["q"]
    listed = {depth: sum(len(docs[:depth]) for docs in _POOL_RUNS.values()) for depth in (2, 3)}
    repeated_new = len({doc for docs in _POOL_RUNS.values() for doc in docs[2:3]})
    return {"lists": _lists_text(), "d2": len(shallow), "more": len(deep) - len(shallow), "all2": listed[2],
            "all_more": listed[3] - listed[2], "naive_more": repeated_new, "added": ", ".join(sorted(
                set(deep) - set(shallow), key=lambda doc: int(doc[1:])))}


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
    _e("kappa-twelve-documents", "collections", "cohen_kappa", {"judge_a": _KAPPA_A, "judge_b": _KAPPA_B},
       _kappa_task, randomize=_kappa_judges, point=_shares_differ, hints=(N_("Make the 2 × 2 table of (judge A, judge B) counts first: the diagonal gives P(A), the "
                              "row and column totals give each judge's shares."),), source="Manning et al. ex. 8.10",
       level=3),
    _e("pool-depth-new-system", "collections", "judged_at_k",
       {"judgments": [1 if doc in _pooled_docs(_POOL_DEPTH) else None for doc in _POOL_NEW], "k": 5,
        "pool_runs": _POOL_RUNS, "pool_depth": _POOL_DEPTH, "new_run": _POOL_NEW}, _pool_task,
       randomize=_new_system, point=_judged_and_not,
       hints=(N_("Write the pool first: the union of each system's top documents down to the depth, each document "
                 "once; then go down N's top k and mark each document judged or not."),), level=3),
    choice("pool-depth-growth", family="collections", kind="analyse",
           title=N_("Deeper pool, more judgments"),
           question=N_("Systems A, B and C returned, for one query (rank 1 first): {lists}. The assessors judge every "
                       "document that one of the systems ranks in its top d, each document once. How many documents "
                       "do they judge at depth d = 2, and how many more when the depth grows to d = 3?"),
           facts=_pool_growth_facts,
           options={"d5-2": N_("{d2}, then {more} more"), "d6-3": N_("{all2}, then {all_more} more"),
                    "d5-3": N_("{d2}, then {naive_more} more")},
           correct="d5-2",
           why={"d6-3": N_("That counts every entry of the lists, {all2} at depth 2 and {all_more} added at depth 3; "
                           "a document two systems both return is judged once."),
                "d5-3": N_("The depth-2 pool is right, but one of the three documents that reach depth 3 was already "
                           "in the pool through another system's top 2: it needs no new judgment.")},
           explanation=N_("At depth 2 the pool is the union of the three top-2 lists, {d2} distinct documents. Depth 3 "
                          "adds each system's third document, but one of them is already judged, so only {more} are "
                          "new: {added}. The pool grows more slowly than the number of systems times the depth, "
                          "the more so the more the systems agree."),
           hints=(N_("A pool is a set: a document returned by several systems is judged once."),
                  N_("List the top 2 of each system, cross out the repeats and count; then do the same with each "
                     "system's third document against the pool you have."),
                  N_("A and B both put d2 in their top 2."), ),
           level=3),
    derive("kappa-pooled-never-higher", family="collections",
           title=N_("Two chance agreements"),
           claim=N_("Cohen's kappa takes the chance agreement from each judge's own shares, P_sep(E) = Σ_c a_c·b_c "
                    "(a_c, b_c: the share of items judge A, judge B put in category c); Manning et al. (section 8.5) "
                    "pool the two judges, P_pool(E) = Σ_c ((a_c + b_c)/2)². Show that P_pool(E) ≥ P_sep(E), and find "
                    "when they are equal."),
           steps=(N_("For one category c, subtract: ((a_c + b_c)/2)² − a_c·b_c. Write the difference as a square."),
                  N_("Add over the categories and conclude that P_pool(E) ≥ P_sep(E). When is the difference 0?"),
                  N_("κ = (P(A) − P(E)) / (1 − P(E)). For a fixed P(A) < 1, does κ rise or fall as P(E) rises? "
                     "Compare the two kappas.")),
           question=N_("For which two judges do the two conventions give the same kappa?"),
           options={"same-shares": N_("Judges who put the same number of items in each category, whichever items "
                                      "they are"),
                    "agree-most": N_("Judges who agree on at least nine items in ten"),
                    "half-relevant": N_("Judges whose judgments, taken together, are half relevant and half not"),
                    "never": N_("None: the two conventions always give different kappas")},
           correct="same-shares",
           why={"agree-most": N_("Step 1 shows that the two P(E) differ by the squares of the differences of the "
                                 "judges' shares; how often the judges agree (P(A)) does not enter P(E) at all."),
                "half-relevant": N_("Pooled shares of 1/2 make P_pool(E) = 1/2, but step 1 still leaves "
                                    "((a_c − b_c)/2)² for each category: judges who call 0.3 and 0.7 of the items "
                                    "relevant have P_sep(E) = 0.42."),
                "never": N_("Step 2: the difference is a sum of squares, and a sum of squares is 0 when every one of "
                            "them is.")},
           model=N_("((a + b)/2)² − a·b = (a² + 2ab + b² − 4ab)/4 = ((a − b)/2)² ≥ 0 for each category, so "
                    "P_pool(E) − P_sep(E) = Σ_c ((a_c − b_c)/2)² ≥ 0, equal to 0 exactly when a_c = b_c for every "
                    "category: both judges put the same share of the items in each category. κ = (P(A) − P(E)) / "
                    "(1 − P(E)) = 1 − (1 − P(A)) / (1 − P(E)) falls as P(E) rises (for P(A) < 1), so the textbook's "
                    "pooled kappa is never above Cohen's, and they agree when the judges' shares agree."),
           hints=(N_("Both conventions multiply shares; only which shares differ."),
                  N_("Expand ((a + b)/2)² and take a·b away; a familiar square appears."),
                  N_("The step students get wrong: P(A), the judges' agreement, never appears in P(E); look only at "
                     "the shares.")),
           rubric=((1, N_("writes the per-category difference as ((a_c − b_c)/2)²")),
                   (1, N_("sums over categories to get P_pool(E) ≥ P_sep(E), with equality exactly when the shares "
                          "are equal")),
                   (1, N_("shows that κ falls as P(E) rises for P(A) < 1, so the pooled kappa is never above "
                          "Cohen's"))),
           level=3, about=("cohen_kappa",), source="Manning et al. 8.5"),
    _e("bpref-new-system-pool", "collections", "bpref",
       {"judgments": [_POOL_QRELS.get(doc) for doc in _POOL_NEW], "n_relevant": sum(_POOL_QRELS.values()),
        "n_nonrelevant": len(_POOL_QRELS) - sum(_POOL_QRELS.values()), "pool_depth": _POOL_DEPTH,
        "new_run": _POOL_NEW}, _pool_bpref_task, randomize=_new_system, point=_unjudged_above_a_relevant,
       hints=(N_("Mark each of N's documents relevant, judged non-relevant or unjudged from the assessors' lists; "
                 "then, for each relevant one, count the judged non-relevant documents above it."),), level=3),
]
