"""What the compute exercises share: the random data of their variants, the point each variant keeps,
and the prompts (message ids translated when shown). The bank modules import from here."""

from __future__ import annotations

import random
from collections.abc import Mapping
from fractions import Fraction

from ...core.i18n import _, translate
from ...metrics.gains import DISCOUNTS, GAINS


def _nums(values) -> str:
    return ", ".join(str(v) for v in values)


def _documents(n: int) -> str:
    return (_("{n} relevant document") if n == 1 else _("{n} relevant documents")).format(n=n)


# -- random data for variants -------------------------------------------------------------------
def _graded(rng: random.Random, data: dict) -> dict:
    top = min(max(data["grades"]), 5)
    n = len(data["grades"])
    while True:
        grades = [rng.randint(0, top) for _ in range(n)]
        if sum(g > 0 for g in grades) >= 2 and grades != sorted(grades, reverse=True):
            break
    out = dict(data, grades=grades)
    if "ideal" in data:
        extra = [rng.randint(1, top) for _ in range(len(data["ideal"]) - n)]
        out["ideal"] = grades + extra
    return out


def _err_data(rng: random.Random, data: dict) -> dict:
    n, g_max = len(data["grades"]), data["g_max"]
    while True:
        grades = [rng.randint(0, g_max) for _ in range(n)]
        if sum(g > 0 for g in grades) >= 2:
            return dict(data, grades=grades)


def _binary_list(rng: random.Random, n: int, min_hits: int = 1) -> list:
    while True:
        rels = [int(rng.random() < 0.45) for _ in range(n)]
        if min_hits <= sum(rels) < n:
            return rels


def _rels(rng: random.Random, data: dict) -> dict:
    k = data.get("k") or len(data["rels"])
    while True:
        rels = _binary_list(rng, len(data["rels"]), min(2, len(data["rels"]) - 1))
        if 0 < sum(rels[:k]):
            break
    out = dict(data, rels=rels)
    for key in ("n_relevant", "total_relevant"):
        if key in data:
            out[key] = sum(rels) + rng.randint(0, 2)
    return out


def _judgments(rng: random.Random, data: dict) -> dict:
    """Relevance with unjudged documents (None), at least one relevant and one judged non-relevant; the
    query's totals are those in the list plus a few never retrieved."""
    n = len(data["judgments"])
    while True:
        values = [rng.choice((1, 0, None)) for _ in range(n)]
        if 1 in values and 0 in values and None in values:
            break
    out = dict(data, judgments=values)
    if "n_relevant" in data:
        out["n_relevant"] = values.count(1) + rng.randint(0, 1)
    if "n_nonrelevant" in data:
        out["n_nonrelevant"] = values.count(0) + rng.randint(0, 2)
    return out


def _graded_judgments(rng: random.Random, data: dict) -> dict:
    n, k = len(data["judgments"]), data["k"]
    while True:
        values = [None if rng.random() < 0.4 else rng.randint(0, 3) for _ in range(n)]
        if 0 < sum(v is not None for v in values[:k]) < k:
            return dict(data, judgments=values)


def _persistent(rng: random.Random, data: dict) -> dict:
    n = rng.randint(3, 6)
    return dict(data, grades=_binary_list(rng, n, 1), p=rng.choice((Fraction(1, 2), Fraction(3, 4), Fraction(4, 5))))


def _precision_longer(rng: random.Random, data: dict) -> dict:
    """A two-item list has too few versions: a student's version is 3 to 6 items long, cut at k >= 2."""
    n = rng.randint(3, 6)
    rels = _binary_list(rng, n, 1)
    return dict(data, rels=rels, k=rng.randint(2, n), total_relevant=sum(rels) + rng.randint(0, 2))


def _first_hit(rng: random.Random, n: int, allow_none: bool) -> list:
    position = rng.randint(1, n + (1 if allow_none else 0))
    rels = [0] * n
    if position <= n:
        rels[position - 1] = 1
        rels[position:] = [int(rng.random() < 0.4) for _ in range(n - position)]
    return rels


def _rr(rng: random.Random, data: dict) -> dict:
    return dict(data, rels=_first_hit(rng, len(data["rels"]), allow_none=False))


def _queries(rng: random.Random, data: dict) -> dict:
    old = data["list_of_rels"]
    keys = list(old) if isinstance(old, Mapping) else None
    lists = list(old.values()) if keys else list(old)
    if data.get("_kind") == "mrr":
        new = [_first_hit(rng, len(q), allow_none=True) for q in lists]
        while not any(sum(q) for q in new):
            new = [_first_hit(rng, len(q), allow_none=True) for q in lists]
    else:
        new = [_binary_list(rng, len(q)) for q in lists]
    out = dict(data, list_of_rels=dict(zip(keys, new)) if keys else new)
    if isinstance(data.get("n_relevant"), (list, tuple)):
        out["n_relevant"] = [sum(q) + rng.randint(0, 2) for q in new]
    return out


def _labels_scores(rng: random.Random, data: dict) -> dict:
    n_pos, n = sum(data["labels"]), len(data["labels"])
    grid = [Fraction(i, 10) for i in range(1, 10)]
    while True:
        labels = [1] * n_pos + [0] * (n - n_pos)
        rng.shuffle(labels)
        scores = [rng.choice(grid) for _ in range(n)]
        tie = any(scores[i] == scores[j] and labels[i] != labels[j] for i in range(n) for j in range(n))
        if 0 < n_pos < n and (tie or not data.get("_tie")):
            return dict(data, labels=labels, scores=[float(s) for s in scores])


# -- what each exercise is about, kept by every variant -----------------------------------------------
def _some_query_missed(d) -> bool:
    """A query without a relevant result (its reciprocal rank 0 still counts in the mean), and one with."""
    lists = list(d["list_of_rels"].values()) if isinstance(d["list_of_rels"], Mapping) else d["list_of_rels"]
    return any(sum(q) == 0 for q in lists) and any(sum(q) > 0 for q in lists)


def _every_query_hit(d) -> bool:
    lists = list(d["list_of_rels"].values()) if isinstance(d["list_of_rels"], Mapping) else d["list_of_rels"]
    return not any(sum(q) == 0 for q in lists)  # (`all` is this module's list of exercises)


def _first_hit_below_rank_1(d) -> bool:
    return 1 in d["rels"] and d["rels"][0] == 0


def _recall_below_1(d) -> bool:
    return d["n_relevant"] > sum(d["rels"][:d["k"]])


def _relevant_never_retrieved(d) -> bool:
    return d["n_relevant"] > sum(d["rels"])


def _pool_holds_a_better_item(d) -> bool:
    """An item of the judged pool never shown that enters the ideal top k (post 004's film rated 4)."""
    k = d.get("k") or len(d["grades"])
    unseen = list(d["ideal"][len(d["grades"]):])
    shown_best = sorted(d["grades"], reverse=True)
    return bool(unseen) and max(unseen) > (shown_best[k - 1] if k <= len(shown_best) else 0)


def _ranked(d, key="grades") -> str:
    return _("[{values}] (rank 1 first)").format(values=_nums(d[key]))


def _gain_words(d) -> str:
    return translate(GAINS[d.get("gain", "exp2")].phrase)


def _discount_words(d) -> str:
    return translate(DISCOUNTS[d.get("discount", "log2")].phrase)


def _at_k(d) -> str:
    return f"@{d['k']}" if d.get("k") else ""


def _graded_task(what: str):
    """``what`` is a message id (``N_("NDCG")``), translated when the prompt is shown."""
    def task(d):
        pool = ""
        if "ideal" in d:
            pool = _(" The query's judged pool (every rated item, retrieved or not) is [{pool}]; the ideal order "
                     "sorts the pool.").format(pool=_nums(d["ideal"]))
        return _("A ranking has graded relevance {ranking}.{pool} Compute {what}{at_k} with {gain} and "
                 "{discount}.").format(ranking=_ranked(d), pool=pool, what=translate(what), at_k=_at_k(d),
                                       gain=_gain_words(d), discount=_discount_words(d))
    return task


def _cg_task(d) -> str:
    return _("A ranking has grades {ranking}. Compute CG{at_k} (cumulative gain).").format(
        ranking=_ranked(d), at_k=_at_k(d))


def _err_task(d) -> str:
    cut = _(" at cut-off k = {k}").format(k=d["k"]) if d.get("k") else ""
    return _("A ranking has grades {ranking} on a 0–{g_max} scale. Under the cascade model "
             "(R_i = (2^g − 1)/2^{g_max}), compute ERR (expected reciprocal rank){cut}.").format(
        ranking=_ranked(d), g_max=d["g_max"], cut=cut)


def _judged_text(values) -> str:
    return _("[{values}] (rank 1 first, ? = unjudged)").format(
        values=", ".join("?" if v is None else str(v) for v in values))


def _rprec_task(d) -> str:
    return _("A ranking has relevance {ranking}; the collection holds {documents}. Compute R-precision: the "
             "precision at rank R, R being the number of relevant documents.").format(
        ranking=_ranked(d, "rels"), documents=_documents(d["n_relevant"]))


def _success_task(d) -> str:
    return _("A ranking has relevance {ranking}. Compute success@{k} (hit rate): 1 if a relevant document "
             "is in the top {k}, else 0.").format(ranking=_ranked(d, "rels"), k=d["k"])


def _bpref_task(d) -> str:
    return _("A ranking has judgments {judgments}, 1 = relevant, 0 = judged non-relevant. The query has {documents} "
             "and {n_nonrelevant} judged non-relevant ones in all. Compute bpref (binary preference) as "
             "trec_eval does.").format(judgments=_judged_text(d["judgments"]), documents=_documents(d["n_relevant"]),
                                       n_nonrelevant=d["n_nonrelevant"])


def _judged_task(d) -> str:
    return _("A ranking has judgments {judgments}. Compute judged@{k}: the share of the top {k} that "
             "has a judgment.").format(judgments=_judged_text(d["judgments"]), k=d["k"])


def _rbp_task(d) -> str:
    return _("A ranking has relevance {ranking}. A user reads rank 1 and goes on to each next rank with probability "
             "p = {p}. Compute RBP (rank-biased precision).").format(ranking=_ranked(d), p=d["p"])


def _rbp_residual_task(d) -> str:
    return _("A ranking of {n} documents, all judged, has relevance {ranking}. With persistence p = {p}, compute the "
             "RBP residual: the most RBP could still gain from documents below the list.").format(
        n=len(d["grades"]), ranking=_ranked(d), p=d["p"])


def _rr_task(d) -> str:
    return _("A ranking has relevance {ranking}, 1 = relevant. Compute its reciprocal rank.").format(
        ranking=_ranked(d, "rels"))


def _queries_text(d) -> str:
    q = d["list_of_rels"]
    items = q.items() if isinstance(q, Mapping) else ((f"q{i}", r) for i, r in enumerate(q, start=1))
    return _("; ").join(_("{name}: [{values}]").format(name=name, values=_nums(r)) for name, r in items)


def _mrr_task(d) -> str:
    return _("{n} queries return (1 = relevant, rank 1 first) {queries}. Compute MRR (mean reciprocal "
             "rank).").format(n=len(d["list_of_rels"]), queries=_queries_text(d))


def _ap_task(d) -> str:
    total = _(" The collection holds {documents} for this query.").format(documents=_documents(d["n_relevant"])) \
        if "n_relevant" in d else _(" Every relevant document appears in the list.")
    return _("A ranking has relevance {ranking}.{total} Compute AP (average precision).").format(
        ranking=_ranked(d, "rels"), total=total)


def _map_task(d) -> str:
    if isinstance(d.get("n_relevant"), (list, tuple)):
        totals = _(" The queries have {counts} relevant documents in all.").format(
            counts=", ".join(map(str, d["n_relevant"])))
    else:
        totals = _(" Every relevant document appears in its list.")
    return _("Queries return (1 = relevant, rank 1 first) {queries}.{totals} Compute MAP (mean average "
             "precision).").format(queries=_queries_text(d), totals=totals)


def _p_task(d) -> str:
    return _("A ranking has relevance {ranking}; the collection holds {documents}. Compute P@{k} "
             "(precision at {k}).").format(ranking=_ranked(d, "rels"), documents=_documents(d["total_relevant"]),
                                          k=d["k"])


def _r_task(d) -> str:
    return _("A ranking has relevance {ranking}; the collection holds {documents}. Compute R@{k} "
             "(recall at {k}).").format(ranking=_ranked(d, "rels"), documents=_documents(d["n_relevant"]), k=d["k"])


def _f_task(d) -> str:
    beta = d.get("beta", 1)
    name = "F1" if beta == 1 else _("F-beta with β = {beta}").format(beta=beta)
    return _("A ranking has relevance {ranking}; the collection holds {documents}. Compute {name} at k = {k}, "
             "from P@{k} and R@{k}.").format(ranking=_ranked(d, "rels"), documents=_documents(d["n_relevant"]),
                                             name=name, k=d["k"])


def _interp_task(d) -> str:
    total = _("; the collection holds {documents}").format(documents=_documents(d["n_relevant"])) \
        if "n_relevant" in d else ""
    if "recall" in d:
        return _("A ranking has relevance {ranking}{total}. Compute the interpolated precision at recall "
                 "{recall}: the best precision at any rank whose recall is >= {recall}.").format(
            ranking=_ranked(d, "rels"), total=total, recall=d["recall"])
    return _("A ranking has relevance {ranking}{total}. Compute the all-point interpolated AP: at each "
             "relevant rank take the interpolated precision, add, divide by the relevant documents.").format(
        ranking=_ranked(d, "rels"), total=total)


def _eleven_task(d) -> str:
    return _("A ranking has relevance {ranking}. Compute the 11-point interpolated AP: the mean "
             "interpolated precision at recall 0, 0.1, ..., 1.0.").format(ranking=_ranked(d, "rels"))


def _auc_task(d) -> str:
    pairs = ", ".join(f"{'+' if y else '−'}{s}" for y, s in zip(d["labels"], d["scores"]))
    what = _("the area under the ROC curve by trapezoids") if d.get("_roc") else \
        _("AUC as the share of positive–negative pairs the model orders correctly (a tie counts 1/2)")
    return _("A model scores items (+ positive, − negative): {pairs}. Compute {what}.").format(pairs=pairs, what=what)


_LIPSTICK = [3, 2, 3, 0, 1, 2, 2]
_MOVIES = [5, 3, 2, 1, 2]
_MOVIE_POOL = [5, 3, 2, 1, 2, 4, 0]
