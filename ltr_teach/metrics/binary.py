"""Binary-relevance metrics: reciprocal rank, MRR, P@k, R@k, F-beta, AP, MAP, interpolated precision.

``rels`` are 0/1 in ranked order; pass ``threshold=`` to read graded relevance as binary
(grade >= threshold is relevant). ``n_relevant`` is the number of relevant documents in the whole
collection, retrieved or not; by default, the relevant items in the list.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from collections.abc import Mapping

import sympy
from sympy import Integer, Rational

from ..core.exact import fmt_decimal, fmt_value, to_exact, to_float
from ..core.explanation import Column, Explanation, Terms
from ..core.i18n import N_, Message
from ..core.validate import (
    MAX_ITEMS,
    MAX_POOL,
    as_choice,
    as_count,
    as_k,
    as_queries,
    as_rels,
    as_sequence,
    by_query_name,
    read_negative_grades,
)
from .conventions import get_convention, is_given, negative_rule, resolve
from .ordering import annotate, ranked_from_scores


def _scored_rels(rels, threshold, scores, docids, ties, convention, metric, averaging=False, limit=MAX_ITEMS):
    """Relevance in ranked order (ordered by ``scores`` when given), the ordering used, the threshold and
    the notes on how negative grades were read; ``averaging`` says whether the metric defines a tie rule
    that averages over tied groups (AP does, as scikit-learn)."""
    s = resolve(convention, threshold=threshold, ties=ties)
    rels, read_notes = read_negative_grades(rels, "rels", negative_rule(convention), "not_relevant", limit=limit)
    rels = as_rels(rels, threshold=s["threshold"], limit=limit)
    tie_rule = s["ties"] if scores is not None else ties
    if convention is not None and not is_given(ties) and get_convention(convention).binary_ties:
        tie_rule = get_convention(convention).binary_ties  # torchmetrics averages ties for NDCG only
    ranked = ranked_from_scores(rels, scores, docids, tie_rule if scores is not None else ties, metric,
                                additive=averaging)
    return (list(ranked.grades) if ranked else rels), ranked, s["threshold"], read_notes


def _finish(ex: Explanation, ranked, read_notes=()) -> Explanation:
    """The explanation with its document columns (when ranked by scores) and the notes on negative grades."""
    if read_notes:
        ex = dataclasses.replace(ex, notes=tuple(read_notes) + ex.notes)
    return annotate(ex, ranked) if ranked else ex


def _n_relevant(n_relevant, rels, name="n_relevant") -> int:
    found = int(sum(rels))
    if n_relevant is None:
        return found
    n = as_count(n_relevant, name)
    if n < found:
        raise ValueError(
            f"{name} = {n} is smaller than the {found} relevant items already in the list; it counts "
            "every relevant document in the collection, so it must be >= the relevant items retrieved"
        )
    return n


def _prefix_rows(rels, n=None):
    """rank, rel, hits so far, precision at that rank: the backbone of every binary table."""
    rows, hits = [], 0
    for i, r in enumerate(rels[: n if n is not None else len(rels)], start=1):
        hits += int(r)
        rows.append({"rank": i, "rel": int(r), "hits": hits, "precision": Rational(hits, i)})
    return rows


def reciprocal_rank(rels, threshold=None, k=None, *, scores=None, docids=None, ties=None,
                    convention=None) -> Explanation:
    """1 / (rank of the first relevant item); 0 when no item is relevant.

    Parameters
    ----------
    rels : sequence of 0/1
        Relevance in ranked order (or grades with ``threshold=``).
    threshold : number, optional
        Read ``rels`` as grades: grade >= threshold is relevant.
    k : int >= 1 or None
        Only the top ``k`` count (RR@k).
    scores : sequence of numbers, optional
        The model's score per item; ``rels`` are then in any order and the ranking is score descending.
    docids : sequence of str, optional
        Document ids, shown in the steps and used by ``ties="docid_desc"``.
    ties : {"stable", "docid_desc", "pessimistic", "optimistic"}, optional
        How tied scores are ordered (``lt.TIE_RULES``); default ``"stable"``.
    convention : str, optional
        A preset of ``lt.CONVENTIONS``: its relevance threshold and tie rule apply unless given.

    Returns
    -------
    Explanation
        ``.exact`` is 1/rank of the first relevant item, or 0; ``.steps`` run from rank 1 down to
        that item (the whole list, or the top ``k``, when there is none).
        With ``scores`` the steps also show each rank's document, score and tie group, and
        ``.params["order"]`` holds the document ids in ranked order.

    Examples
    --------
    眼霜: 小棕瓶精华, 小棕瓶眼霜, 面霜, and the wanted 小棕瓶眼霜 is second.

    >>> import ltr_teach as lt
    >>> lt.reciprocal_rank([0, 1, 0]).exact
    1/2
    >>> lt.reciprocal_rank([0, 0, 0]).exact
    0

    From scores: the relevant item ties with an irrelevant one at 0.7. trec_eval puts docid "b"
    before "a", so the relevant "a" is second:

    >>> lt.reciprocal_rank([1, 0], scores=[0.7, 0.7], docids=["a", "b"], convention="trec_eval").exact
    1/2
    """
    rels, ranked, threshold, read_notes = _scored_rels(rels, threshold, scores, docids, ties, convention,
                                                       "reciprocal_rank")
    k = as_k(k)
    rows, first = [], None
    for row in _prefix_rows(rels, k):
        rows.append({"rank": row["rank"], "rel": row["rel"],
                     "rr": Rational(1, row["rank"]) if row["rel"] else None})
        if row["rel"]:
            first = row["rank"]
            break
    exact = Rational(1, first) if first else Integer(0)
    rows[-1]["result"] = exact
    name = "RR" if k is None else f"RR@{k}"
    return _finish(Explanation(
        metric="reciprocal_rank", name=name, exact=exact,
        columns=(Column("rank", "rank"), Column("rel", "relevant"), Column("result", "reciprocal rank")),
        steps=tuple(rows), params={"threshold": threshold, "k": k},
        formula=r"\mathrm{RR} = \frac{1}{\mathrm{rank}_{\text{first relevant}}}",
        substitution=r"\frac{1}{%d}" % first if first else "0",
        notes=() if first else (Message(N_("no relevant item in the list: the reciprocal rank is 0")),),
    ), ranked, read_notes)


def mrr(list_of_rels, threshold=None, k=None) -> Explanation:
    """Mean reciprocal rank: the mean (not the sum) of the queries' reciprocal ranks.

    Parameters
    ----------
    list_of_rels : list of rankings, or dict ``{query: ranking}``
        Each ranking is 0/1 relevance in ranked order.
    threshold, k
        As in :func:`reciprocal_rank`.

    Returns
    -------
    Explanation
        ``.exact`` is the mean of the reciprocal ranks; ``.steps`` has one row per query (its
        ``first`` relevant rank, ``rr`` and the running ``sum``); ``.parts[query]`` is each query's
        :func:`reciprocal_rank`.

    Examples
    --------
    Post 000: 眼霜 (first hit at rank 2), 神仙水 (rank 1), 面膜 (rank 3):
    (1/2 + 1 + 1/3) / 3 = 11/18.

    >>> import ltr_teach as lt
    >>> lt.mrr({"眼霜": [0, 1, 0], "神仙水": [1, 0, 0], "面膜": [0, 0, 1]}).exact
    11/18
    """
    parts = {q: reciprocal_rank(rels, threshold=threshold, k=k) for q, rels in as_queries(list_of_rels)}
    rows, exact = _mean_over_queries(parts, "rr", lambda ex: {"first": ex.steps[-1]["rank"] if ex.exact != 0 else "none"})
    return Explanation(
        metric="mrr", name="MRR" if k is None else f"MRR@{k}", exact=exact,
        columns=(Column("query", "query"), Column("first", "first relevant rank"),
                 Column("rr", "reciprocal rank"), Column("sum", "sum so far", sums="rr")),
        steps=rows, terms=Terms(tuple(r["rr"] for r in rows), len(rows)), parts=parts, params={"threshold": threshold, "k": k, "n_queries": len(parts)},
        formula=r"\mathrm{MRR} = \frac{1}{|Q|}\sum_{q=1}^{|Q|} \frac{1}{\mathrm{rank}_q}",
        substitution=_mean_substitution(rows, "rr"),
    )


def _mean_over_queries(parts: dict, key: str, columns=lambda ex: {}) -> tuple:
    """The per-query rows (query, ``columns(ex)``, the value under ``key``, the running sum) and the
    exact mean of the queries' values."""
    rows, total = [], Integer(0)
    for q, ex in parts.items():
        total = total + ex.exact
        rows.append({"query": q, **columns(ex), key: ex.exact, "sum": total})
    return tuple(rows), total / len(rows)


def _mean_substitution(rows, key: str) -> str:
    """The LaTeX of the mean: the queries' values under ``key`` over their count."""
    return r"\frac{%s}{%d}" % (" + ".join(sympy.latex(r[key]) for r in rows), len(rows))


def _cut(k, n, note_list):
    if k > n:
        note_list.append(Message(N_("k = {k} is beyond the list of {n}: ranks {first_empty}..{k} are empty and count "
                                    "as not relevant"), k=k, n=n, first_empty=n + 1))


def precision_at_k(rels, k, threshold=None, *, scores=None, docids=None, ties=None, convention=None) -> Explanation:
    """P@k: the share of the top ``k`` that is relevant, hits / k.

    Ranks beyond the end of a short list count as not relevant (P@k always divides by k, as
    trec_eval does).

    Parameters
    ----------
    rels : sequence of 0/1
        Relevance in ranked order (or grades with ``threshold=``).
    k : int >= 1
    threshold : number, optional
        Read ``rels`` as grades: grade >= threshold is relevant.
    scores, docids, ties, convention
        Rank by the model's scores under a tie rule or a tool's convention, as in
        :func:`reciprocal_rank`.

    Returns
    -------
    Explanation
        ``.exact`` is hits/k, a fraction; ``.steps`` has one row per rank of the top ``k``: ``rel``,
        ``hits`` so far and the ``precision`` at that rank.
        With ``scores``, document columns as in :func:`reciprocal_rank`.

    Examples
    --------
    Post 001: l(1) = 1, l(2) = 0, so P@2 = (1 + 0) / 2.

    >>> import ltr_teach as lt
    >>> lt.precision_at_k([1, 0], k=2).exact
    1/2
    >>> lt.precision_at_k([1, 0], k=4).exact    # one hit in four slots
    1/4
    """
    rels, ranked, threshold, read_notes = _scored_rels(rels, threshold, scores, docids, ties, convention,
                                                       "precision_at_k")
    k = as_k(k, allow_none=False)
    notes = []
    _cut(k, len(rels), notes)
    rows = _prefix_rows(rels, k)
    hits = rows[-1]["hits"]
    divisor = k
    if convention is not None and get_convention(convention).precision_divisor == "min(k, n)":
        divisor = min(k, len(rels))  # TF-Ranking: a short list is divided by its length
        if divisor < k:
            notes.append(Message(N_("convention {convention} divides by min(k, list length) = {divisor}"),
                                 convention=repr(get_convention(convention).name), divisor=divisor))
    exact = Rational(hits, divisor)
    rows[-1]["result"] = exact
    return _finish(Explanation(
        metric="precision_at_k", name=f"P@{k}", exact=exact,
        columns=(Column("rank", "rank"), Column("rel", "relevant"), Column("hits", "hits so far"),
                 Column("precision", "precision at rank"), Column("result", f"P@{k}")),
        steps=tuple(rows), params={"k": k, "threshold": threshold},
        formula=r"P@k = \frac{|\{i \le k : i\ \text{relevant}\}|}{k}",
        substitution=r"\frac{%d}{%d}" % (hits, divisor), notes=tuple(notes),
    ), ranked, read_notes)


def recall_at_k(rels, k, n_relevant=None, threshold=None, *, scores=None, docids=None, ties=None,
                convention=None) -> Explanation:
    """R@k: the share of all relevant documents found in the top ``k``.

    Parameters
    ----------
    rels : sequence of 0/1
        Relevance in ranked order (or grades with ``threshold=``).
    k : int >= 1
    n_relevant : int, optional
        Relevant documents in the whole collection (default: those in the list).
    threshold : number, optional
        Read ``rels`` as grades: grade >= threshold is relevant.
    scores, docids, ties, convention
        Rank by the model's scores under a tie rule or a tool's convention, as in
        :func:`reciprocal_rank`.

    Returns
    -------
    Explanation
        ``.exact`` is hits/``n_relevant`` (0 when nothing is relevant); ``.steps`` has one row per
        rank of the top ``k`` with the ``recall`` at that rank.
        With ``scores``, document columns as in :func:`reciprocal_rank`.

    Examples
    --------
    Two of the four relevant documents in the top 3:

    >>> import ltr_teach as lt
    >>> lt.recall_at_k([1, 0, 1, 1], k=3, n_relevant=4).exact
    1/2
    """
    rels, ranked, threshold, read_notes = _scored_rels(rels, threshold, scores, docids, ties, convention,
                                                       "recall_at_k")
    k = as_k(k, allow_none=False)
    n_rel = _n_relevant(n_relevant, rels)
    notes = []
    _cut(k, len(rels), notes)
    rows = _prefix_rows(rels, k)
    for row in rows:
        row["recall"] = Rational(row["hits"], n_rel) if n_rel else Integer(0)
    hits = rows[-1]["hits"]
    if n_rel == 0:
        notes.append(Message(N_("there is no relevant document, so recall is 0/0; it is reported as 0 (as trec_eval "
                                "does)")))
    exact = rows[-1]["recall"]
    return _finish(Explanation(
        metric="recall_at_k", name=f"R@{k}", exact=exact,
        columns=(Column("rank", "rank"), Column("rel", "relevant"), Column("hits", "hits so far"),
                 Column("recall", "recall at rank")),
        steps=tuple(rows), params={"k": k, "n_relevant": n_rel, "threshold": threshold},
        formula=r"R@k = \frac{|\{i \le k : i\ \text{relevant}\}|}{|\{i : i\ \text{relevant}\}|}",
        substitution=r"\frac{%d}{%d}" % (hits, n_rel), notes=tuple(notes),
    ), ranked, read_notes)


def _f(beta2, p, r):
    return (1 + beta2) * p * r / (beta2 * p + r) if (beta2 * p + r) != 0 else Integer(0)


def f_beta(rels, k, beta=1, n_relevant=None, threshold=None) -> Explanation:
    """F-beta at k: the weighted harmonic mean (1 + β²)·P·R / (β²·P + R).

    β > 1 weighs recall more, β < 1 precision more; β = 1 gives F1 = 2PR / (P + R). Posts 000 and
    003 print other formulas; see ``lt.examples.ERRATA``.

    Parameters
    ----------
    rels : sequence of 0/1
        Relevance in ranked order (or grades with ``threshold=``).
    k : int >= 1
        The cut-off: precision and recall of the top ``k``.
    beta : positive number
        The weight of recall against precision (default 1: F1); fractions such as ``1/2`` stay exact.
    n_relevant : int, optional
        Relevant documents in the whole collection (default: those in the list).
    threshold : number, optional
        Read ``rels`` as grades: grade >= threshold is relevant.

    Returns
    -------
    Explanation
        ``.exact`` is F-beta at k (0 when P and R are both 0); ``.steps`` show precision, recall and
        F at each rank of the top ``k``; ``.parts["precision"]`` and ``.parts["recall"]`` are
        :func:`precision_at_k` and :func:`recall_at_k`.

    Examples
    --------
    Top 4 = 1, 0, 1, 1 with 5 relevant in all: P = 3/4, R = 3/5, F1 = 2·(9/20)/(27/20) = 2/3.

    >>> import ltr_teach as lt
    >>> lt.f_beta([1, 0, 1, 1], k=4, n_relevant=5).exact
    2/3
    >>> lt.f_beta([1, 0, 1, 1], k=4, beta=2, n_relevant=5).exact   # 5·(9/20) / (3 + 3/5)
    5/8
    """
    rels = as_rels(rels, threshold=threshold)
    k = as_k(k, allow_none=False)
    b = to_exact(beta, "beta")
    if b <= 0:
        raise ValueError(f"beta = {beta} must be > 0 (beta > 1 favours recall, beta < 1 precision)")
    n_rel = _n_relevant(n_relevant, rels)
    notes = []
    _cut(k, len(rels), notes)
    beta2 = b**2
    rows = _prefix_rows(rels, k)
    for row in rows:
        row["recall"] = Rational(row["hits"], n_rel) if n_rel else Integer(0)
        row["f"] = _f(beta2, row["precision"], row["recall"])
    p, r = Rational(rows[-1]["hits"], k), rows[-1]["recall"]
    exact = _f(beta2, p, r)
    rows[-1]["precision"], rows[-1]["f"] = p, exact
    label = "F1" if b == 1 else f"F{sympy.sstr(b)}" if len(sympy.sstr(b)) <= 12 else f"F(beta ≈ {fmt_value(b, 4)})"
    return Explanation(
        metric="f_beta", name=f"{label}@{k}", exact=exact,
        columns=(Column("rank", "rank"), Column("rel", "relevant"), Column("hits", "hits so far"),
                 Column("precision", "precision"), Column("recall", "recall"), Column("f", f"{label}")),
        steps=tuple(rows),
        parts={"precision": precision_at_k(rels, k), "recall": recall_at_k(rels, k, n_relevant=n_rel)},
        params={"k": k, "beta": b, "n_relevant": n_rel, "threshold": threshold},
        formula=r"F_{\beta} = \frac{(1+\beta^2)\,P\,R}{\beta^2 P + R}",
        substitution=r"\frac{(1+%s)\cdot %s \cdot %s}{%s\cdot %s + %s}" % (
            sympy.latex(beta2), sympy.latex(p), sympy.latex(r), sympy.latex(beta2), sympy.latex(p), sympy.latex(r)),
        notes=tuple(notes),
    )


def average_precision(rels, n_relevant=None, k=None, threshold=None, *, scores=None, docids=None, ties=None,
                      convention=None) -> Explanation:
    """AP: the precision at each relevant rank, summed, divided by ``n_relevant``.

    Relevant documents never retrieved contribute precision 0, which is why the divisor is all
    relevant documents (``n_relevant``), not only those found.

    Parameters
    ----------
    rels : sequence of 0/1
        Relevance in ranked order (or grades with ``threshold=``).
    n_relevant : int, optional
        Relevant documents in the whole collection (default: those in the whole list, not only
        the top ``k``). Under ``convention="lightgbm"`` or ``"xgboost"`` with ``k`` the divisor is
        min(relevant, k), as their map@k.
    k : int >= 1 or None
        Only the top ``k`` count (AP@k): a relevant item below rank ``k`` adds precision 0 but still
        counts in the divisor, as in trec_eval's ``map_cut_k``, ir_measures' ``AP@k`` and ranx's
        ``map@k``. So AP@k can stay below 1 even when the top ``k`` are all relevant.
    threshold : number, optional
        Read ``rels`` as grades: grade >= threshold is relevant.
    scores, docids, ties, convention
        Rank by the model's scores under a tie rule or a tool's convention, as in
        :func:`reciprocal_rank`.

    Returns
    -------
    Explanation
        ``.exact`` is the AP, a fraction; ``.steps`` has one row per rank: ``rel``, ``hits``,
        ``precision`` at the rank, the ``counted`` precision (0 at a miss) and the running ``sum``;
        ``.params["n_relevant"]`` is the divisor used.
        With ``scores``, document columns as in :func:`reciprocal_rank`.

    Examples
    --------
    Post 000, MAC口红: relevant at ranks 1, 2, 5, so AP = (1/1 + 2/2 + 3/5) / 3 = 13/15.

    >>> import ltr_teach as lt
    >>> lt.average_precision([1, 1, 0, 0, 1, 0, 0]).exact
    13/15

    Post 004, topic 2: hits at ranks 1, 3, 5 but 5 relevant documents in all:

    >>> lt.average_precision([1, 0, 1, 0, 1], n_relevant=5).exact   # (1 + 2/3 + 3/5) / 5
    34/75

    AP@2 of the same ranking, with the default divisor: only the hit at rank 1 is counted, but the
    divisor is still the 3 relevant items of the whole list, as trec_eval's map_cut_k divides:

    >>> lt.average_precision([1, 0, 1, 0, 1], k=2).exact   # (1/1) / 3
    1/3

    LightGBM's map@3 divides by min(relevant in the group, 3): hits at ranks 2 and 3 of a group with
    three relevant items give (1/2 + 2/3) / 3 = 7/18.

    >>> lt.average_precision([0, 3, 2, 1, 0], k=3, scores=[1.0, 0.8, 0.8, 0.5, 0.4], convention="lightgbm").exact
    7/18
    """
    k = as_k(k)
    # without scores a long list is read, not shown: its table has one row per relevant rank (a miss adds 0)
    rels, ranked, threshold, read_notes = _scored_rels(rels, threshold, scores, docids, ties, convention,
                                                       "average_precision", averaging=True,
                                                       limit=MAX_POOL if scores is None else MAX_ITEMS)
    blocks = ranked is not None and ranked.averaged
    if blocks and k is not None:
        raise ValueError(f"k = {k} cannot cut a ranking whose tied scores are one threshold (ties='average', "
                         "scikit-learn's average_precision_score has no cut-off); give k=None or another tie rule")
    divisor_rule = get_convention(convention).ap_divisor if convention is not None else "relevant"
    n_rel = _n_relevant(n_relevant, rels)
    if k is not None and divisor_rule == "min(relevant, k)":
        n_rel = min(n_rel, k)  # LightGBM's and RecBole's map@k: at most k hits can be found in the top k
    elif divisor_rule == "hits":
        n_rel = sum(int(r) for r in rels[:k])  # torchmetrics: the relevant items found in the top k
    long_list = len(rels) > MAX_ITEMS
    if long_list:
        cut = len(rels) if k is None else min(k, len(rels))
        hit_ranks = [i for i in range(1, cut + 1) if rels[i - 1]]
        if len(hit_ranks) > MAX_ITEMS:
            raise ValueError(f"rels has {len(hit_ranks)} relevant items in {len(rels)} ranks; an exact AP of a list "
                             f"longer than {MAX_ITEMS} shows one row per relevant rank, at most {MAX_ITEMS}: score it "
                             "with lt.evaluate, which uses NumPy floats")
        rows = [{"rank": i, "rel": 1, "hits": h, "precision": Rational(h, i)} for h, i in enumerate(hit_ranks, 1)]
    else:
        rows = _prefix_rows(rels, k)
    total = Integer(0)
    for row in rows:
        counted_at = rows[ranked.groups[row["rank"] - 1][1] - 1] if blocks else row
        row["counted"] = counted_at["precision"] if row["rel"] else Integer(0)
        total = total + row["counted"]
        row["sum"] = total
    notes = []
    if blocks and ranked.tied_groups():
        notes.append(Message(N_("ties='average' (scikit-learn's average_precision_score): a block of tied scores is "
                                "one threshold, so each relevant item of a block counts the precision at the block's "
                                "last rank")))
    if n_rel == 0:
        notes.append(Message(N_("there is no relevant document, so AP is 0/0; it is reported as 0 (as trec_eval "
                                "does)")))
    zero_rule = get_convention(convention).zero if convention is not None else "zero"
    if n_rel == 0 and zero_rule == "one":
        notes[-1] = Message(N_("there is no relevant document, so AP is 0/0; it is reported as 1 (as {tool} scores a "
                               "group without positives)"), tool=convention)
    exact = total / n_rel if n_rel else Integer(1 if zero_rule == "one" else 0)
    if long_list:
        notes.append(Message(N_("the list has {n} ranks: the table shows only the {hits} relevant ones (a rank "
                                "without a relevant item adds nothing to the sum)"), n=len(rels), hits=len(rows)))
    found = rows[-1]["hits"] if rows else 0
    if n_rel > found:
        notes.append(Message(N_("{n} relevant document(s) were not retrieved in the top k: each adds precision 0 to "
                                "the sum") if k else N_("{n} relevant document(s) were not retrieved: each adds "
                                                        "precision 0 to the sum"), n=n_rel - found))
    name = "AP" if k is None else f"AP@{k}"
    terms = Terms(tuple(r["counted"] for r in rows), n_rel) if n_rel and rows else None
    return _finish(Explanation(
        metric="average_precision", name=name, exact=exact,
        columns=(Column("rank", "rank"), Column("rel", "relevant"), Column("hits", "hits so far"),
                 Column("precision", "precision at rank"), Column("counted", "counted"),
                 Column("sum", "sum", sums="counted")),
        steps=tuple(rows), params={"n_relevant": n_rel, "k": k, "threshold": threshold},
        formula=r"\mathrm{AP} = \frac{1}{m}\sum_{i:\,rel_i=1} P@i",
        # every rank's counted precision (0 at a miss), over the divisor, so the sum reads against the table
        terms=terms, substitution=(terms and terms.latex()) or r"\frac{%s}{%d}" % (
            " + ".join(sympy.latex(r["counted"]) for r in rows if r["rel"]) or "0", n_rel),
        notes=tuple(notes),
    ), ranked, read_notes)


def _per_query(n_relevant, queries):
    if n_relevant is None or isinstance(n_relevant, (numbers.Number, str)):
        return {q: n_relevant for q, _ in queries}  # one count for every query, checked by average_precision
    if isinstance(n_relevant, Mapping):
        counts = by_query_name(n_relevant, "n_relevant")  # keys matched as text, like the query names
        missing = [q for q, _ in queries if q not in counts]
        if missing:
            raise ValueError(f"n_relevant has no entry for query {missing[0]!r}; give one count per query")
        return {q: counts[q] for q, _ in queries}
    counts = as_sequence(n_relevant, "n_relevant")
    if len(counts) != len(queries):
        raise ValueError(
            f"n_relevant has {len(counts)} counts but there are {len(queries)} queries; give one count per query"
        )
    return {q: c for (q, _), c in zip(queries, counts)}


def mean_average_precision(list_of_rels, n_relevant=None, k=None, threshold=None) -> Explanation:
    """MAP: the mean of the queries' average precisions.

    Parameters
    ----------
    list_of_rels : list of rankings, or dict ``{query: ranking}``
        Each ranking is 0/1 relevance in ranked order (or grades with ``threshold=``).
    n_relevant : int, list of int (one per query), dict, or None
        Relevant documents per query in the whole collection (default: those in each list).
    k, threshold
        As in :func:`average_precision`; MAP@k averages the queries' AP@k.

    Returns
    -------
    Explanation
        ``.exact`` is the mean of the APs; ``.steps`` has one row per query (its divisor
        ``n_relevant``, ``ap`` and the running ``sum``); ``.parts[query]`` is each query's
        :func:`average_precision`.

    Examples
    --------
    Post 000: AP(MAC口红) = 13/15 and AP(神仙水) = 47/84, so MAP = (13/15 + 47/84) / 2.

    >>> import ltr_teach as lt
    >>> lt.mean_average_precision([[1, 1, 0, 0, 1, 0, 0], [0, 1, 1, 0, 0, 1, 1]]).exact
    599/840
    """
    queries = as_queries(list_of_rels)
    counts = _per_query(n_relevant, queries)
    parts = {q: average_precision(rels, n_relevant=counts[q], k=k, threshold=threshold) for q, rels in queries}
    rows, exact = _mean_over_queries(parts, "ap", lambda ex: {"n_relevant": ex.params["n_relevant"]})
    return Explanation(
        metric="mean_average_precision", name="MAP" if k is None else f"MAP@{k}", exact=exact,
        columns=(Column("query", "query"), Column("n_relevant", "relevant in all"), Column("ap", "AP"),
                 Column("sum", "sum so far", sums="ap")),
        steps=rows, parts=parts, params={"k": k, "threshold": threshold, "n_queries": len(parts)},
        terms=Terms(tuple(r["ap"] for r in rows), len(rows)),
        formula=r"\mathrm{MAP} = \frac{1}{|Q|}\sum_{q=1}^{|Q|} \mathrm{AP}_q",
        substitution=_mean_substitution(rows, "ap"),
    )


def _pr_rows(rels, n_relevant, convention=None):
    rels, read_notes = read_negative_grades(rels, "rels", negative_rule(convention), "not_relevant")
    rels = as_rels(rels)
    n_rel = _n_relevant(n_relevant, rels)
    if n_rel == 0:
        raise ValueError("rels has no relevant item and n_relevant is 0: there is no precision-recall curve to interpolate")
    rows = _prefix_rows(rels)
    best = Integer(0)
    for row in reversed(rows):
        row["recall"] = Rational(row["hits"], n_rel)
        best = max(best, row["precision"])
        row["interpolated"] = best
    # A miss shares its recall with the hit above it, whose precision is higher: P_interp at that
    # recall is the hit's value, not the best of the ranks below the miss.
    block_best = None
    for row in rows:
        if row["rel"]:
            block_best = row["interpolated"]
        elif block_best is not None:
            row["interpolated"] = block_best
    return rows, n_rel, read_notes


def _p_interp(rows, needed: int):
    """The best precision at or below the rank where the ``needed``-th relevant item is found."""
    candidates = [r["precision"] for r in rows if r["hits"] >= needed]
    return max(candidates) if candidates else Integer(0)


def _recall_rule(rule, convention):
    chosen = resolve(convention, rule=rule)["rule"]
    return as_choice("textbook" if chosen is None else chosen, "rule", RECALL_RULES)


def interpolated_precision(rels, n_relevant=None, recall=None, rule=None, *, convention=None) -> Explanation:
    """Interpolated precision: at recall r, the best precision at any recall >= r.

    With ``recall=`` the value is the interpolated precision at that recall level. Without it, the
    value is the area under the interpolated precision-recall curve (all-point interpolated AP):
    the interpolated precision at each relevant rank, summed, divided by ``n_relevant``.

    Parameters
    ----------
    rels : sequence of 0/1
        Relevance in ranked order.
    n_relevant : int, optional
        Relevant documents in the whole collection (default: those in the list); must be >= 1.
    recall : number in [0, 1], optional
        One recall level; without it the value is the all-point interpolated AP.
    rule : {"textbook", "trec_eval_9", "trec_eval_10"}, optional
        How ``recall`` becomes a count of relevant documents (:data:`RECALL_RULES`); default the
        convention's, else the textbook ceiling.
    convention : str, optional
        A preset of ``lt.CONVENTIONS`` supplying ``rule``.

    Returns
    -------
    Explanation
        ``.exact`` is the interpolated precision at ``recall`` (or the all-point interpolated AP);
        ``.steps`` has one row per rank: ``precision``, ``recall`` and ``interpolated`` precision.

    Examples
    --------
    MAC口红 (1, 1, 0, 0, 1, 0, 0): precision 3/5 at rank 5 (recall 1); at recall 1/2 the best
    precision at any recall >= 1/2 is 1 (ranks 2..4 have recall 2/3).

    >>> import ltr_teach as lt
    >>> lt.interpolated_precision([1, 1, 0, 0, 1, 0, 0], recall=0.5).exact
    1
    >>> lt.interpolated_precision([1, 1, 0, 0, 1, 0, 0], recall=0.9).exact
    3/5
    """
    rows, n_rel, read_notes = _pr_rows(rels, n_relevant, convention)
    if recall is None:
        total = sum((r["interpolated"] for r in rows if r["rel"]), Integer(0))
        exact = total / n_rel
        name, params = "interpolated AP", {"n_relevant": n_rel, "recall": None}
        substitution = r"\frac{%s}{%d}" % (" + ".join(sympy.latex(r["interpolated"]) for r in rows if r["rel"]), n_rel)
        notes = ()
    else:
        level = to_exact(recall, "recall")
        if not 0 <= level <= 1:
            raise ValueError(f"recall = {recall} must lie in [0, 1]")
        rule = _recall_rule(rule, convention)
        needed = relevant_needed(level, n_rel, rule)
        exact = _p_interp(rows, needed)
        name = f"P_interp(recall={fmt_decimal(to_float(level))})"
        params, substitution = {"n_relevant": n_rel, "recall": level, "rule": rule, "needed": needed}, \
            sympy.latex(exact)
        notes = (Message(N_("recall {level} of R = {n_relevant} needs {needed} relevant document(s) under "
                            "rule={rule} ({rule_text})"), level=sympy.sstr(level), n_relevant=n_rel, needed=needed,
                         rule=repr(rule), rule_text=Message(RECALL_RULES[rule])),)
    return Explanation(
        metric="interpolated_precision", name=name, exact=exact,
        columns=(Column("rank", "rank"), Column("rel", "relevant"), Column("precision", "precision"),
                 Column("recall", "recall"), Column("interpolated", "interpolated precision")),
        steps=tuple(rows), params=params,
        formula=r"P_{\text{interp}}(r) = \max_{i:\ R@i \ge r} P@i",
        substitution=substitution, notes=tuple(read_notes) + notes,
    )


def eleven_point_ap(rels, n_relevant=None, rule=None, *, convention=None) -> Explanation:
    """11-point interpolated AP: the mean interpolated precision at recall 0, 0.1, ..., 1.0.

    Parameters
    ----------
    rels : sequence of 0/1
        Relevance in ranked order.
    n_relevant : int, optional
        Relevant documents in the whole collection (default: those in the list); must be >= 1.
    rule : {"textbook", "trec_eval_9", "trec_eval_10"}, optional
        How each recall level becomes a count of relevant documents (:data:`RECALL_RULES`); default
        the convention's, else the textbook ceiling. trec_eval's rules can pick another rank than the
        textbook's, and the steps show both counts side by side.
    convention : str, optional
        A preset of ``lt.CONVENTIONS`` supplying ``rule`` (``"trec_eval"``: trec_eval 9.0.8's).

    Returns
    -------
    Explanation
        ``.exact`` is the mean over the 11 levels; ``.steps`` has one row per recall ``level`` with
        ``r·R``, the relevant documents it ``needed`` (and the textbook count), and its
        ``interpolated`` precision; ``.parts["pr"]`` is the :func:`interpolated_precision` table.

    Examples
    --------
    One relevant item, at rank 2: every level has interpolated precision 1/2.

    >>> import ltr_teach as lt
    >>> lt.eleven_point_ap([0, 1]).exact
    1/2
    """
    rule = _recall_rule(rule, convention)
    base = interpolated_precision(rels, n_relevant=n_relevant, convention=convention)  # its notes: negative grades
    rows_pr = list(base.steps)
    n_rel = base.params["n_relevant"]
    rows, total, differs = [], Integer(0), []
    for j in range(11):
        level = Rational(j, 10)
        needed, textbook = relevant_needed(level, n_rel, rule), relevant_needed(level, n_rel)
        p = _p_interp(rows_pr, needed)
        total = total + p
        rows.append({"level": level, "rR": level * n_rel, "needed": needed, "textbook": textbook,
                     "interpolated": p, "sum": total})
        if needed != textbook:
            differs.append(Message(N_("recall {level}: {needed} instead of {textbook}"), level=sympy.sstr(level),
                                   needed=needed, textbook=textbook))
    exact = total / 11
    columns = (Column("level", "recall level"), Column("rR", "r·R"), Column("needed", "relevant needed"),
               Column("interpolated", "interpolated precision"), Column("sum", "sum so far"))
    notes = ()
    if rule != "textbook":
        columns = columns[:3] + (Column("textbook", "textbook ceil(r·R)"),) + columns[3:]
        # the differing levels joined by a template of placeholders only: each level is translated when shown
        details = Message("; ".join(f"{{level{i}}}" for i in range(len(differs))),
                          **{f"level{i}": d for i, d in enumerate(differs)}) if differs else \
            Message(N_("every level needs the same count as the textbook rule"))
        notes = (Message(N_("rule={rule}: {rule_text}; {details}"), rule=repr(rule),
                         rule_text=Message(RECALL_RULES[rule]), details=details),)
    return Explanation(
        metric="eleven_point_ap", name="11-point AP", exact=exact,
        columns=columns, notes=base.notes + notes,
        steps=tuple(rows), parts={"pr": base}, params={"n_relevant": n_rel, "rule": rule},
        formula=r"\mathrm{AP}_{11} = \frac{1}{11}\sum_{r \in \{0, 0.1, \dots, 1\}} P_{\text{interp}}(r)",
        substitution=r"\frac{%s}{11}" % " + ".join(sympy.latex(r["interpolated"]) for r in rows),
    )


# -- trec_eval's set and judgment measures: R-precision, success@k, bpref, judged@k -----------------

def r_precision(rels, n_relevant=None, threshold=None, *, scores=None, docids=None, ties=None,
                convention=None) -> Explanation:
    """R-precision: the precision at rank R, where R is the number of relevant documents.

    At rank R precision and recall are equal (hits / R), so R-precision is also the recall at R. A
    list shorter than R counts the missing ranks as not relevant (trec_eval's ``Rprec``).

    Parameters
    ----------
    rels : sequence of 0/1
        Relevance in ranked order (or grades with ``threshold=``).
    n_relevant : int, optional
        R: relevant documents in the whole collection (default: those in the list).
    threshold : number, optional
        Read ``rels`` as grades: grade >= threshold is relevant.
    scores, docids, ties, convention
        Rank by the model's scores under a tie rule or a tool's convention, as in
        :func:`reciprocal_rank`.

    Returns
    -------
    Explanation
        ``.exact`` is hits in the top R divided by R (0 when R is 0); ``.steps`` has one row per
        rank of the top R with the hits so far.

    Examples
    --------
    Four relevant documents in all (R = 4); the top 4 hold two of them: R-precision = 2/4.

    >>> import ltr_teach as lt
    >>> lt.r_precision([1, 0, 1, 0, 1], n_relevant=4).exact
    1/2

    The conventions.md query: relevant d1, d2, d4, d5 (R = 4), ranked d3, d2, d1, d4, d9 by trec_eval:
    three hits in the top 4.

    >>> lt.r_precision([0, 1, 1, 1, 0], n_relevant=4).exact
    3/4
    """
    rels, ranked, threshold, read_notes = _scored_rels(rels, threshold, scores, docids, ties, convention,
                                                       "r_precision")
    n_rel = _n_relevant(n_relevant, rels)
    notes = []
    if n_rel == 0:
        rows = _prefix_rows(rels, 1)
        exact = Integer(0)
        notes.append(Message(N_("there is no relevant document (R = 0): R-precision is reported as 0 (as trec_eval "
                                "does)")))
    else:
        _cut(n_rel, len(rels), notes)
        rows = _prefix_rows(rels, n_rel)
        exact = Rational(rows[-1]["hits"], n_rel)
    rows[-1]["result"] = exact
    return _finish(Explanation(
        metric="r_precision", name="R-precision", exact=exact,
        columns=(Column("rank", "rank"), Column("rel", "relevant"), Column("hits", "hits so far"),
                 Column("precision", "precision at rank"), Column("result", "R-precision")),
        steps=tuple(rows), params={"n_relevant": n_rel, "threshold": threshold},
        formula=r"\mathrm{R\text{-}prec} = \frac{|\{i \le R : i\ \text{relevant}\}|}{R}",
        substitution=r"\frac{%d}{%d}" % (rows[-1]["hits"], n_rel) if n_rel else "0", notes=tuple(notes),
    ), ranked, read_notes)


def success_at_k(rels, k, threshold=None, *, scores=None, docids=None, ties=None, convention=None) -> Explanation:
    """Success@k (hit rate): 1 if any of the top ``k`` is relevant, else 0.

    Averaged over queries it is the share of queries answered in the top k, the "hit rate" of
    recommender systems (trec_eval's ``success_k``).

    Parameters
    ----------
    rels : sequence of 0/1
        Relevance in ranked order (or grades with ``threshold=``).
    k : int >= 1
    threshold : number, optional
        Read ``rels`` as grades: grade >= threshold is relevant.
    scores, docids, ties, convention
        Rank by the model's scores, as in :func:`reciprocal_rank`.

    Returns
    -------
    Explanation
        ``.exact`` is 1 or 0; ``.steps`` run through the top ``k`` with the hits so far.

    Examples
    --------
    The first relevant item is at rank 3: success@2 is 0, success@3 is 1.

    >>> import ltr_teach as lt
    >>> lt.success_at_k([0, 0, 1], k=2).exact, lt.success_at_k([0, 0, 1], k=3).exact
    (0, 1)
    """
    rels, ranked, threshold, read_notes = _scored_rels(rels, threshold, scores, docids, ties, convention,
                                                       "success_at_k")
    k = as_k(k, allow_none=False)
    notes = []
    _cut(k, len(rels), notes)
    rows = _prefix_rows(rels, k)
    exact = Integer(1 if rows[-1]["hits"] else 0)
    rows[-1]["result"] = exact
    return _finish(Explanation(
        metric="success_at_k", name=f"success@{k}", exact=exact,
        columns=(Column("rank", "rank"), Column("rel", "relevant"), Column("hits", "hits so far"),
                 Column("result", f"success@{k}")),
        steps=tuple(rows), params={"k": k, "threshold": threshold},
        formula=r"\mathrm{success}@k = [\,|\{i \le k : i\ \text{relevant}\}| \ge 1\,]",
        substitution=str(exact), notes=tuple(notes),
    ), ranked, read_notes)


def _judged_rels(judgments, threshold, name="judgments", convention=None):
    """0/1 relevance with ``None`` for an unjudged document: ``(relevance, judged flags, notes)``; under a
    convention that reads TREC's negative judgments (trec_eval's), a negative grade is not judged."""
    values, read_notes = read_negative_grades(judgments, name, negative_rule(convention), "unjudged")
    judged = [v is not None for v in values]
    filled = [0 if v is None else v for v in values]
    return as_rels(filled, name, threshold=threshold,
                   allowed="give 0/1 relevance (None for an unjudged document), or grades with threshold="), judged, \
        read_notes


#: The judgment column of bpref's table, one word per kind of document.
_JUDGMENT_WORDS = {"relevant": N_("relevant"), "non-relevant": N_("non-relevant"), "unjudged": N_("unjudged")}


def bpref(judgments, n_relevant=None, n_nonrelevant=None, threshold=None, *, convention=None) -> Explanation:
    """bpref: how often judged relevant documents are ranked above judged non-relevant ones.

    Unjudged documents (``None``) are skipped, so bpref is robust to incomplete judgments
    (Buckley & Voorhees 2004). Each relevant document adds 1 - min(n, R) / min(N, R), where n is the
    number of judged non-relevant documents ranked above it, R the relevant and N the judged
    non-relevant documents of the query; the sum is divided by R. This is trec_eval's ``bpref``
    (the 2004 paper divides by R alone; trec_eval uses min(N, R) so that a query with few judged
    non-relevant documents can still reach 0).

    Parameters
    ----------
    judgments : sequence of 0/1 or None
        Relevance in ranked order; ``None`` marks an unjudged document (or grades with ``threshold=``).
    n_relevant : int, optional
        R, the judged relevant documents of the query (default: those in the list).
    n_nonrelevant : int, optional
        N, the judged non-relevant documents of the query (default: those in the list).
    threshold : number, optional
        Read ``rels`` as grades: grade >= threshold is relevant.
    convention : str, optional
        A preset of ``lt.CONVENTIONS`` supplying ``threshold``; under trec_eval's conventions a negative
        grade (TREC's -1 judged non-relevant, -2 spam) is not judged, as trec_eval reads it.

    Returns
    -------
    Explanation
        ``.exact`` is bpref, a fraction (0 when R is 0); ``.steps`` has one row per rank: whether the
        document is ``judged``, the judged non-relevant ``above`` it and each relevant document's
        ``term``.

    Examples
    --------
    Ranks: relevant, non-relevant, unjudged, relevant; R = 3 relevant and N = 2 non-relevant judged.
    The first relevant document has nothing above it (1); the second has one non-relevant above it:
    1 - min(1, 3)/min(2, 3) = 1/2; the third was not retrieved (0). bpref = (1 + 1/2) / 3 = 1/2.

    >>> import ltr_teach as lt
    >>> lt.bpref([1, 0, None, 1], n_relevant=3, n_nonrelevant=2).exact
    1/2

    trec_eval reads a -1 (TREC: judged non-relevant) as in the pool but unjudged, so it is skipped like
    the None: grades 2, -1, 0, 1 give R = 2, N = 1 and bpref = (1 + (1 - 1/1)) / 2 = 1/2.

    >>> lt.bpref([2, -1, 0, 1], convention="trec_eval").exact
    1/2
    """
    threshold = resolve(convention, threshold=threshold)["threshold"]
    rels, judged, read_notes = _judged_rels(judgments, threshold, convention=convention)
    found_rel = sum(int(r) for r, j in zip(rels, judged) if j)
    found_non = sum(1 for r, j in zip(rels, judged) if j and not r)
    n_rel = _n_relevant(n_relevant, rels)
    n_non = found_non if n_nonrelevant is None else as_count(n_nonrelevant, "n_nonrelevant")
    if n_non < found_non:
        raise ValueError(f"n_nonrelevant = {n_non} is smaller than the {found_non} judged non-relevant documents "
                         "already in the list; it counts every judged non-relevant document of the query")
    denominator = min(n_non, n_rel)
    rows, above, total = [], 0, Integer(0)
    for i, (r, j) in enumerate(zip(rels, judged), start=1):
        # a Message: the English word for comparisons and JSON, translated when the table is shown
        row = {"rank": i, "judged": Message(_JUDGMENT_WORDS[("relevant" if r else "non-relevant") if j else "unjudged"]),
               "above": above}
        if j and r:
            row["term"] = Integer(1) - Rational(min(above, n_rel), denominator) if above else Integer(1)
            total = total + row["term"]
        elif j:
            above += 1
        row["sum"] = total
        rows.append(row)
    notes = []
    if n_rel == 0:
        notes.append(Message(N_("there is no relevant document (R = 0): bpref is reported as 0 (as trec_eval does)")))
    elif n_rel > found_rel:
        notes.append(Message(N_("{n} relevant document(s) were not retrieved: each adds 0 to the sum"),
                             n=n_rel - found_rel))
    exact = total / n_rel if n_rel else Integer(0)
    return Explanation(
        metric="bpref", name="bpref", exact=exact,
        columns=(Column("rank", "rank"), Column("judged", "judgment"), Column("above", "judged non-relevant above"),
                 Column("term", "1 - min(n, R)/min(N, R)"), Column("sum", "sum")),
        steps=tuple(rows), params={"n_relevant": n_rel, "n_nonrelevant": n_non, "threshold": threshold},
        formula=r"\mathrm{bpref} = \frac{1}{R}\sum_{r\ \text{relevant}} \left(1 - \frac{\min(n_{<r}, R)}{\min(N, R)}\right)",
        substitution=r"\frac{%s}{%d}" % (" + ".join(sympy.latex(r["term"]) for r in rows if "term" in r) or "0",
                                         n_rel),
        notes=tuple(read_notes) + tuple(notes),
    )


def judged_at_k(judgments, k=None, *, convention=None) -> Explanation:
    """Judged@k: the share of the top ``k`` that has a judgment (``None`` marks an unjudged document).

    A low value warns that the other metrics treat many unjudged documents as not relevant. A list
    shorter than ``k`` is divided by its length (ir_measures' ``Judged@k``).

    Parameters
    ----------
    judgments : sequence of numbers or None
        The judgment of each ranked document (any grade), ``None`` when it has none.
    k : int >= 1 or None
        Cut-off; ``None`` means the whole list.
    convention : str, optional
        Under trec_eval's conventions a negative grade (TREC's -1 judged non-relevant, -2 spam) is not
        judged, as trec_eval reads it; elsewhere a negative grade is refused.

    Returns
    -------
    Explanation
        ``.exact`` is judged / min(k, list length); ``.steps`` count the judged documents.

    Examples
    --------
    Three of the top 4 are judged (a 0 is a judgment too):

    >>> import ltr_teach as lt
    >>> lt.judged_at_k([1, None, 0, 2, None], k=4).exact
    3/4
    """
    values, read_notes = read_negative_grades(judgments, "judgments", negative_rule(convention), "unjudged")
    k = as_k(k)
    for i, v in enumerate(values):
        if v is not None and to_exact(v, f"judgments[{i}]") < 0:
            raise ValueError(f"judgments[{i}] = {v} is negative; a judgment is a grade >= 0 or None (unjudged); "
                             "TREC's -1 and -2 are read as not judged under convention='trec_eval'")
    n = len(values) if k is None else min(k, len(values))
    rows, judged = [], 0
    for i, v in enumerate(values[:n], start=1):
        judged += v is not None
        rows.append({"rank": i, "judged": "yes" if v is not None else "no", "count": judged})
    exact = Rational(judged, n)
    notes = [] if k is None or k <= len(values) else [
        Message(N_("k = {k} is beyond the list of {n}: the share is over the {n} documents retrieved"), k=k,
                n=len(values))]
    return Explanation(
        metric="judged_at_k", name="judged" if k is None else f"judged@{k}", exact=exact,
        columns=(Column("rank", "rank"), Column("judged", "judged"), Column("count", "judged so far")),
        steps=tuple(rows), params={"k": k},
        formula=r"\mathrm{judged}@k = \frac{|\{i \le k : i\ \text{judged}\}|}{\min(k, n)}",
        substitution=r"\frac{%d}{%d}" % (judged, n), notes=tuple(read_notes) + tuple(notes),
    )


# -- recall levels: the textbook rule and trec_eval's -------------------------------------------------

RECALL_RULES = {
    "textbook": N_("recall r needs ceil(r·R) relevant documents: the first rank whose recall is >= r"),
    "trec_eval_9": N_("trec_eval 9.0.8 and earlier (pytrec_eval): (int)(r·R + 0.9) relevant documents, in floating "
                      "point"),
    "trec_eval_10": N_("trec_eval 10: lround(r·R) relevant documents, in floating point"),
}


def relevant_needed(level, n_relevant: int, rule: str = "textbook") -> int:
    """How many relevant documents a rule says recall ``level`` needs, out of ``n_relevant``.

    trec_eval turns a recall level into a count of relevant documents before interpolating: 9.0.8
    adds 0.9 and truncates, version 10 rounds; both in double precision. The textbook rule is the
    exact ceiling.

    Examples
    --------
    R = 7 relevant documents, recall 0.2: r·R = 1.4. The textbook rule needs 2 (recall 1/7 < 0.2);
    trec_eval 9 truncates 1.4 + 0.9 to 2; trec_eval 10 rounds 1.4 to 1.

    >>> [relevant_needed(sympy.Rational(1, 5), 7, rule) for rule in RECALL_RULES]
    [2, 2, 1]
    """
    rule = as_choice(rule, "rule", RECALL_RULES)
    level = to_exact(level, "recall")
    if rule == "textbook":
        return int(sympy.ceiling(level * n_relevant))
    x = float(level) * n_relevant
    if rule == "trec_eval_9":
        return int(x + 0.9)
    return int(math.floor(x) + (1 if x - math.floor(x) >= 0.5 else 0))  # lround: halves away from zero
