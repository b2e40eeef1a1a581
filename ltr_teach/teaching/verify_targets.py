"""What :func:`ltr_teach.verify` can check: each target's arguments, its generated cases, the library's value of a
case, and the slips a diagnosis can name (each a float recomputation of one case the wrong way).

A target is a metric (NDCG, AP, MAP ...), BM25 (one document's score, against
:func:`ltr_teach.collection.bm25_scores`) or the sign-flip p-value (against the randomisation test of
:func:`ltr_teach.compare_runs`). :mod:`ltr_teach.teaching.verify` runs the student's function on the cases and
reports.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from ..core.i18n import N_
from ..metrics import binary, graded, roc, user_models


def _bm25_library(case):
    from ..runs import collection  # NumPy and the collection's tokeniser: loaded when BM25 is checked

    index = collection.build_index(case["texts"])
    scores = collection.bm25_scores(index, index.vectors([" ".join(case["query"])]), k1=case["k1"], b=case["b"])
    return scores[0, list(case["texts"]).index(case["doc_id"])]


def _sign_flip_library(case):
    import numpy as np

    from ..runs import compare

    return compare.permutation(np.asarray(case["differences"], dtype=float)).exact


@dataclass(frozen=True)
class Target:
    """One thing verify checks: how its cases look, how the library values one, how the function is called."""

    kind: str                 # "grades", "rels", "labels_scores", "rankings", "bm25" or "differences"
    library: Callable         # the library's value of one case (an Explanation, a Fraction or a float)
    cutoff: str               # "optional", "required" or "none"
    label: str
    library_name: str         # the lt.<name> whose table (or value) the student can compare with
    edges: str = N_("no relevant item, one item, ties, k beyond the list")  # the edge cases, as the report names them


TARGETS = {
    "cg": Target("grades", lambda c: graded.cg(c["grades"], k=c["k"]), "optional", "CG", "cg"),
    "dcg": Target("grades", lambda c: graded.dcg(c["grades"], k=c["k"]), "optional", "DCG", "dcg"),
    "ndcg": Target("grades", lambda c: graded.ndcg(c["grades"], k=c["k"]), "optional", "NDCG", "ndcg"),
    "err": Target("grades", lambda c: graded.err(c["grades"], g_max=c["g_max"], k=c["k"]), "optional", "ERR", "err"),
    "rr": Target("rels", lambda c: binary.reciprocal_rank(c["grades"], k=c["k"]), "optional", "RR", "reciprocal_rank"),
    "ap": Target("rels", lambda c: binary.average_precision(c["grades"], k=c["k"]), "optional", "AP",
                 "average_precision"),
    "map": Target("rankings", lambda c: binary.mean_average_precision(c["rankings"], k=c["k"]), "optional", "MAP",
                  "mean_average_precision"),
    "p": Target("rels", lambda c: binary.precision_at_k(c["grades"], k=c["k"]), "required", "P", "precision_at_k"),
    "auc": Target("labels_scores", lambda c: roc.auc(c["labels"], c["scores"]), "none", "AUC", "auc",
                  N_("every score tied, a tie between a positive and a negative, one positive")),
    "rbp": Target("rels", lambda c: user_models.rbp(c["grades"], p=c["p"], k=c["k"]), "optional", "RBP", "rbp"),
    "bm25": Target("bm25", _bm25_library, "none", "BM25", "collection.bm25_scores",
                   N_("a word in every document, a word in none, a word the query repeats, an empty document, "
                      "k1 = 0, b = 0 and b = 1")),
    "sign-flip": Target("differences", _sign_flip_library, "none", "sign-flip p", "sign_flips",
                        N_("one query, zero differences, equal differences, a mirror pair")),
}
ALIASES = {"reciprocal_rank": "rr", "average_precision": "ap", "precision": "p", "precision_at_k": "p",
           "mrr": "rr", "mean_average_precision": "map", "okapi": "bm25", "sign_flip": "sign-flip",
           "sign_flips": "sign-flip", "sign-flips": "sign-flip", "permutation": "sign-flip",
           "randomisation": "sign-flip", "randomization": "sign-flip"}


def arguments(name: str, cutoff, case: dict) -> tuple:
    """The arguments the student's function gets for ``case`` (fresh copies: the function may change them)."""
    kind = TARGETS[name].kind
    if kind == "labels_scores":
        return (list(case["labels"]), list(case["scores"]))
    if kind == "bm25":
        return (list(case["query"]), Counter(case["doc"]), Counter(case["df"]), case["n_docs"], case["avgdl"],
                case["k1"], case["b"])
    if kind == "differences":
        return (list(case["differences"]),)
    first = [list(r) for r in case["rankings"]] if kind == "rankings" else list(case["grades"])
    args = (first,) + ((case["g_max"],) if name == "err" else ()) + ((case["p"],) if name == "rbp" else ())
    return args + ((case["k"],) if cutoff is not None else ())


# -- the cases ----------------------------------------------------------------------------------------------------

def cases(name: str, k_rule, n_cases: int, seed: int) -> list:
    """``n_cases`` cases of target ``name`` (at least its edge cases), the edge cases first, seeded."""
    target, rng = TARGETS[name], random.Random(seed)
    maker = {"labels_scores": _auc_cases, "bm25": _bm25_cases, "differences": _difference_cases,
             "rankings": _ranking_cases}.get(target.kind, _list_cases)
    return maker(name, k_rule, n_cases, rng)


def _auc_cases(name, k_rule, n_cases, rng):
    edges = [([1, 0], [0.9, 0.1]), ([1, 0], [0.5, 0.5]), ([0, 1, 1, 0], [0.9, 0.8, 0.8, 0.1]),
             ([1, 1, 0, 0, 1], [0.2, 0.2, 0.2, 0.2, 0.2]), ([0, 0, 1], [0.9, 0.5, 0.1])]
    out = [{"metric": name, "labels": labels, "scores": scores} for labels, scores in edges]
    while len(out) < n_cases:
        n = rng.randint(2, 12)
        labels = [rng.randint(0, 1) for _ in range(n)]
        if len(set(labels)) < 2:
            continue
        out.append({"metric": name, "labels": labels, "scores": [rng.randint(0, 9) / 10 for _ in range(n)]})
    return out


def _grade_lists(kind, k_rule, n_lists, rng):
    top = 3 if kind == "grades" else 1
    edges = [[0, 0, 0], [top], [top, top, top], [0, top], [1, 0, top, 0, 1] if top > 1 else [1, 0, 1, 0, 1],
             [0] * 9 + [top], [top, 0], [1, 1, 0, 0]]
    longest = min(60, max(12, (k_rule(rng, 1)[0] or 0) + 6))  # longer than a fixed k, so the cut matters
    return edges + [[rng.choice((0,) + tuple(range(top + 1))) for _ in range(rng.randint(1, longest))]
                    for _ in range(max(0, n_lists - len(edges)))]


def _list_cases(name, k_rule, n_cases, rng):
    out = []
    for grades in _grade_lists(TARGETS[name].kind, k_rule, n_cases, rng)[:n_cases]:
        for k in k_rule(rng, len(grades)):
            case = {"metric": name, "grades": grades, "k": k, "g_max": max(3, max(grades))}
            if name == "rbp":  # the persistence the student's function is given (drawn only here: the
                case["p"] = rng.choice((0.5, 0.8, 0.95))  # other metrics' cases stay as they were)
            out.append(case)
    return out[:max(n_cases, 8)]


def _ranking_cases(name, k_rule, n_cases, rng):
    lists = _grade_lists("rels", k_rule, 4 * n_cases, rng)
    edges = [[[0, 0, 0]], [[1, 0], [0, 0, 0]], [[1, 0, 1], [0, 1]], [[0, 0, 1]] * 3, [[1], [0, 1], [0, 0, 1], [0]]]
    out = []
    for rankings in edges + [[rng.choice(lists) for _ in range(rng.randint(1, 6))] for _ in range(n_cases)]:
        longest = max(len(r) for r in rankings)
        out.append({"metric": name, "rankings": rankings, "k": k_rule(rng, longest)[0]})
    return out[:max(n_cases, len(edges))]


#: BM25's cases are written in these words (none a stop word, so the tokeniser keeps each as it is).
_WORDS = ("serum", "spots", "retinol", "sunscreen", "acne", "dry", "skin", "vitamin", "niacinamide", "toner",
          "oily", "pores")
_BM25_PARAMETERS = ((1.2, 0.75), (0.9, 0.4), (2.0, 1.0), (1.5, 0.0), (0.5, 0.3), (0.0, 0.75))


def _bm25_case(name, docs, query, doc_index, k1, b):
    df = Counter(word for words in docs for word in set(words))
    df.update({word: 0 for word in query})  # a query word in no document is there, with 0
    texts = {f"d{i + 1}": " ".join(words) for i, words in enumerate(docs)}
    return {"metric": name, "texts": texts, "doc_id": f"d{doc_index + 1}", "query": list(query),
            "doc": Counter(docs[doc_index]), "df": df, "n_docs": len(docs),
            "avgdl": sum(len(words) for words in docs) / len(docs), "k1": k1, "b": b}


def _bm25_cases(name, k_rule, n_cases, rng):
    """Small collections in :data:`_WORDS`, one query and one of their documents each: the edge cases first (a
    word in every document, a word in none, a query word twice, a document without the query's words, an empty
    document, k1 = 0, b = 0 and b = 1)."""
    two = [["serum", "spots", "serum"], ["acne", "dry", "skin", "skin"], ["serum", "toner"]]
    edges = [(two, ["serum"], 0, 1.2, 0.75), (two, ["serum", "serum"], 0, 1.2, 0.75), (two, ["retinol"], 0, 1.2, 0.75),
             (two, ["skin", "serum"], 1, 1.2, 0.75), (two + [[]], ["serum"], 3, 1.2, 0.75),
             ([["skin", "dry"], ["skin"], ["skin", "oily", "pores"]], ["skin"], 2, 1.2, 0.75),
             (two, ["serum", "acne"], 0, 0.0, 0.75), (two, ["serum"], 0, 1.2, 0.0), (two, ["serum"], 2, 2.0, 1.0),
             ([["vitamin"]], ["vitamin"], 0, 1.2, 0.75)]
    out = [_bm25_case(name, *edge) for edge in edges]
    while len(out) < n_cases:
        docs = [[rng.choice(_WORDS) for _ in range(rng.randint(0, 15))] for _ in range(rng.randint(1, 12))]
        if not any(docs):
            continue
        query = [rng.choice(_WORDS) for _ in range(rng.randint(1, 4))]
        out.append(_bm25_case(name, docs, query, rng.randrange(len(docs)), *rng.choice(_BM25_PARAMETERS)))
    return out


def _difference_cases(name, k_rule, n_cases, rng):
    """Per-query differences in eighths and sixteenths (exact in binary, so the sums carry no float noise and a tie
    is a tie), 1 to 10 queries; the edge cases: one query, a zero difference, all equal, a mirror pair."""
    edges = [[0.25], [0.5, -0.25, 0.125], [0.0, 0.25, -0.25], [0.125] * 6, [0.5, -0.5], [0.0, 0.0],
             [0.25, 0.125, 0.375, 0.0625, 0.5, 0.25, 0.1875, -0.0625]]
    out = [{"metric": name, "differences": d} for d in edges]
    while len(out) < n_cases:
        n = rng.randint(1, 10)
        out.append({"metric": name, "differences": [rng.randint(-8, 12) / 16 for _ in range(n)]})
    return out[:max(n_cases, len(edges))]


# -- the slips ----------------------------------------------------------------------------------------------------

def _log2(x):
    return math.log2(x)


def _cut(c, key="grades"):
    return c[key][:c["k"]] if c.get("k") else c[key]


def _dcg_float(grades, k, gain=lambda g: 2 ** g - 1, discount=lambda r: _log2(r + 1)):
    return sum(gain(g) / discount(r) for r, g in enumerate(grades[:k] if k else grades, start=1))


def _ratio(top, bottom):
    return top / bottom if bottom else 0.0


def _ideal_not_cut(c):
    return _ratio(_dcg_float(c["grades"], c["k"]), _dcg_float(sorted(c["grades"], reverse=True), None))


def _precisions_at_relevant(rels):
    hits, out = 0, []
    for rank, rel in enumerate(rels, start=1):
        if rel:
            hits += 1
            out.append(hits / rank)
    return out


def _ap_float(rels, k=None):
    return _ratio(sum(_precisions_at_relevant(rels[:k] if k else rels)), sum(rels))


def _ap_over_list_length(c):
    rels = _cut(c)
    return sum(_precisions_at_relevant(rels)) / len(rels)


def _rr_last_relevant(c):
    ranks = [r for r, rel in enumerate(_cut(c), start=1) if rel]
    return 1 / ranks[-1] if ranks else 0.0


def _rr_mean_over_relevant(c):
    ranks = [r for r, rel in enumerate(_cut(c), start=1) if rel]
    return sum(1 / r for r in ranks) / len(ranks) if ranks else 0.0


def _rbp_with(c, first_exponent=0, normalised=True):
    total = sum(rel * c["p"] ** (rank - 1 + first_exponent) for rank, rel in enumerate(_cut(c), start=1))
    return (1 - c["p"]) * total if normalised else total


def _err_with(c, stop=lambda g, g_max: (2 ** g - 1) / 2 ** g_max, cascade=True):
    total, reach = 0.0, 1.0
    for rank, g in enumerate(_cut(c), start=1):
        r = stop(g, c["g_max"])
        total += (reach if cascade else 1.0) * r / rank
        reach *= 1 - r
    return total


def _p_over_list(c):
    top = c["grades"][:c["k"]]
    return sum(top) / len(top)


def _auc_ties(c, tie_value):
    pos = [s for y, s in zip(c["labels"], c["scores"]) if y]
    neg = [s for y, s in zip(c["labels"], c["scores"]) if not y]
    won = sum(1.0 if p > n else tie_value if p == n else 0.0 for p in pos for n in neg)
    return won / (len(pos) * len(neg))


def _k_plus_one(c):
    """The library's value with one rank too many (a slice ``[:k + 1]``); P@k still divides by k."""
    if not c.get("k"):
        return None
    if c["metric"] == "p":
        return sum(c["grades"][:c["k"] + 1]) / c["k"]
    return float(TARGETS[c["metric"]].library(dict(c, k=c["k"] + 1)))


def _map_with(c, average=lambda aps, rankings: sum(aps) / len(aps)):
    return average([_ap_float(r, c["k"]) for r in c["rankings"]], c["rankings"])


def _map_pooled(c):
    precisions = [p for r in c["rankings"] for p in _precisions_at_relevant(r[:c["k"]] if c["k"] else r)]
    return _ratio(sum(precisions), sum(sum(r) for r in c["rankings"]))


def _bm25_with(c, idf=None, length=None, saturate=True, query=list):
    """One document's BM25 computed the way ``c`` says, with one part changed."""
    n, dl = c["n_docs"], sum(c["doc"].values())
    idf = idf or (lambda df: math.log(1 + (n - df + 0.5) / (df + 0.5)))
    norm = c["k1"] * (length(dl, c) if length else 1 - c["b"] + c["b"] * dl / c["avgdl"])
    total = 0.0
    for word in query(c["query"]):
        tf = c["doc"].get(word, 0)
        if tf:
            total += idf(c["df"][word]) * (tf * (c["k1"] + 1) / (tf + norm) if saturate else tf / (tf + norm))
    return total


def _flip_means(differences):
    n = len(differences)
    return [sum(s * d for s, d in zip(signs, differences)) / n for signs in itertools.product((1, -1), repeat=n)]


def _flips_with(c, extreme):
    means = _flip_means(c["differences"])
    observed = sum(c["differences"]) / len(c["differences"])
    return sum(1 for m in means if extreme(m, observed)) / len(means)


@dataclass(frozen=True)
class Slip:
    """A wrong way to compute a target that a diagnosis can name: its message and its recomputation (None where
    the slip says nothing about a case)."""

    key: str
    metrics: tuple
    message: str
    compute: Callable


_CUT = ("cg", "dcg", "ndcg", "err", "rr", "ap", "map", "p", "rbp")

SLIPS = (
    Slip("rbp-rank-from-one", ("rbp",), N_("rank 1 is weighted p, not 1: the exponent is i − 1 (p⁰ = 1 at the top), "
                                          "so every weight came out p times too small"),
         lambda c: _rbp_with(c, first_exponent=1)),
    Slip("rbp-no-one-minus-p", ("rbp",), N_("the sum is not multiplied by (1 − p): RBP's weights (1 − p)·p^(i − 1) add "
                                           "up to 1, which keeps the value between 0 and 1"),
         lambda c: _rbp_with(c, normalised=False)),
    Slip("ideal-not-cut", ("ndcg",), N_("the ideal DCG sums the whole sorted list; it must stop at k, as DCG does"),
         _ideal_not_cut),
    Slip("cut-ignored", ("cg", "dcg", "ndcg", "err", "rr", "ap", "map"),
         N_("k is ignored: the whole list counts; only the top k should"),
         lambda c: float(TARGETS[c["metric"]].library(dict(c, k=None)))),
    Slip("k-plus-one", _CUT, N_("one rank too many: the top k is grades[:k] (ranks 1 to k); grades[:k + 1] takes "
                                "k + 1 ranks"), _k_plus_one),
    Slip("exp-gain", ("cg",), N_("CG adds the grades themselves; 2^grade − 1 is DCG's gain, not CG's"),
         lambda c: sum(2 ** g - 1 for g in _cut(c))),
    Slip("over-list-length", ("ap",), N_("the sum of precisions is divided by the length of the list; divide by the "
                                         "number of relevant items"), _ap_over_list_length),
    Slip("last-relevant", ("rr",), N_("the reciprocal rank is that of the first relevant item, not the last"),
         _rr_last_relevant),
    Slip("mean-over-relevant", ("rr",), N_("the reciprocal rank takes the first relevant item only; it does not "
                                           "average over every relevant one"), _rr_mean_over_relevant),
    Slip("linear-stop", ("err",), N_("the stop probability is R = (2^g − 1)/2^g_max, not g/g_max"),
         lambda c: _err_with(c, stop=lambda g, g_max: g / g_max)),
    # the checker names these too, but judges one number at a time and passes over a case where another reading
    # of the number is as likely (a single tie whose 0 gives AUC exactly 1/2; a list of ten or more): recomputed
    # here on every case, they are named when the checker's judgement is silent on one of them
    Slip("ties_zero", ("auc",), N_("a tie between a positive and a negative counts 1/2, not 0"),
         lambda c: _auc_ties(c, 0.0)),
    Slip("ties_one", ("auc",), N_("a tie between a positive and a negative counts 1/2, not 1"),
         lambda c: _auc_ties(c, 1.0)),
    Slip("short_list", ("p",), N_("P@k divides by k even when the list is shorter than k (the missing ranks count "
                                  "as not relevant)"), _p_over_list),
    Slip("stop-without-minus-one", ("err",), N_("the stop probability is R = (2^g − 1)/2^g_max: the −1 makes an "
                                                "irrelevant item (g = 0) stop nobody"),
         lambda c: _err_with(c, stop=lambda g, g_max: 2 ** g / 2 ** g_max)),
    Slip("map-skips-empty", ("map",), N_("a query with no relevant item was left out of the mean; its AP is 0 and it "
                                         "counts: MAP divides by the number of queries"),
         lambda c: _map_with(c, lambda aps, rs: _ratio(sum(aps), sum(1 for r in rs if any(r))))),
    Slip("map-sum", ("map",), N_("the APs are added up, not averaged: divide by the number of queries"),
         lambda c: _map_with(c, lambda aps, rs: sum(aps))),
    Slip("map-pooled", ("map",), N_("the precisions of every query were pooled and averaged together; MAP averages "
                                    "each query's AP, so every query weighs the same"), _map_pooled),
    Slip("bm25-idf-log-n-over-df", ("bm25",), N_("the idf is ln(N/df) (Manning et al.'s); this BM25 uses "
                                                 "ln(1 + (N − df + 0.5)/(df + 0.5)), which is never negative"),
         lambda c: _bm25_with(c, idf=lambda df: math.log(c["n_docs"] / df))),
    Slip("bm25-idf-without-one", ("bm25",), N_("the idf is ln((N − df + 0.5)/(df + 0.5)), negative for a word in "
                                               "more than half the documents; this BM25 adds 1 inside the log: "
                                               "ln(1 + (N − df + 0.5)/(df + 0.5))"),
         lambda c: _bm25_with(c, idf=lambda df: math.log((c["n_docs"] - df + 0.5) / (df + 0.5)))),
    Slip("bm25-idf-log2", ("bm25",), N_("the idf takes log2; BM25's idf uses the natural log ln"),
         lambda c: _bm25_with(c, idf=lambda df: math.log2(1 + (c["n_docs"] - df + 0.5) / (df + 0.5)))),
    Slip("bm25-no-k1-plus-one", ("bm25",), N_("the numerator is tf, not tf·(k1 + 1): the factor (k1 + 1) does not "
                                              "change the order, but it is part of the score"),
         lambda c: _bm25_with(c, saturate=False)),
    Slip("bm25-length-not-relative", ("bm25",), N_("the length is not divided by the average: the norm is "
                                                   "k1·(1 − b + b·dl/avgdl)"),
         lambda c: _bm25_with(c, length=lambda dl, c: 1 - c["b"] + c["b"] * dl)),
    Slip("bm25-b-swapped", ("bm25",), N_("b and 1 − b are swapped: the norm is k1·(1 − b + b·dl/avgdl)"),
         lambda c: _bm25_with(c, length=lambda dl, c: c["b"] + (1 - c["b"]) * dl / c["avgdl"])),
    Slip("bm25-query-words-once", ("bm25",), N_("a word the query repeats counts once here; this BM25 counts it "
                                                "again for every time the query has it"),
         lambda c: _bm25_with(c, query=lambda q: list(dict.fromkeys(q)))),
    Slip("sign-flip-strict", ("sign-flip",), N_("only the patterns more extreme than the observed mean were counted; "
                                                "the p-value counts those at least as extreme (the observed pattern "
                                                "itself included)"),
         lambda c: _flips_with(c, lambda m, o: abs(m) > abs(o))),
    Slip("sign-flip-one-sided", ("sign-flip",), N_("that is the one-sided p (means at least the observed one); "
                                                   "the two-sided p counts the means as far from 0 on either side: "
                                                   "|mean| ≥ |observed|"),
         lambda c: _flips_with(c, lambda m, o: m >= o)),
    Slip("sign-flip-count", ("sign-flip",), N_("that is the count of patterns; the p-value divides it by the 2^n "
                                               "patterns"),
         lambda c: _flips_with(c, lambda m, o: abs(m) >= abs(o)) * 2 ** len(c["differences"])),
    Slip("sign-flip-plus-one", ("sign-flip",), N_("(count + 1)/(N + 1) is the estimate from N random flips; with every "
                                                  "one of the 2^n patterns listed, the p-value is count/2^n exactly"),
         lambda c: (_flips_with(c, lambda m, o: abs(m) >= abs(o)) * 2 ** len(c["differences"]) + 1)
         / (2 ** len(c["differences"]) + 1)),
)


def undefined_rule(case: dict):
    """The rule the library uses where the formula divides by 0 on ``case`` (a message), or None."""
    metric = case["metric"]
    if metric == "ndcg" and not any(case["grades"]):
        return N_("no item of this ranking is relevant, so the ideal DCG is 0 and NDCG = DCG/IDCG is 0/0; the library "
                  "(like trec_eval) gives NDCG = 0 then: test for IDCG = 0 before you divide")
    if metric == "ap" and not any(case["grades"]):
        return N_("no item of this ranking is relevant, so AP divides by 0 relevant items; the library (like "
                  "trec_eval) gives AP = 0 then: test for it before you divide")
    if metric == "map" and not all(any(r) for r in case["rankings"]):
        return N_("a ranking here has no relevant item, so its AP divides by 0 relevant items; the library (like "
                  "trec_eval) gives that query AP = 0, and it still counts in MAP's mean")
    if metric == "bm25" and case["k1"] == 0:
        return N_("k1 = 0 here: a query word the document lacks gives tf·(k1 + 1)/(tf + 0) = 0/0; a word with tf = 0 "
                  "adds nothing, so skip it (the library does)")
    return None


__all__ = ["TARGETS", "ALIASES", "SLIPS", "Slip", "Target", "arguments", "cases", "undefined_rule"]
