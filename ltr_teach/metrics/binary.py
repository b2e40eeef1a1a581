"""Binary-relevance metrics: reciprocal rank, MRR, P@k, R@k, F-beta, AP, MAP, interpolated precision.

``rels`` are 0/1 in ranked order; pass ``threshold=`` to read graded relevance as binary
(grade >= threshold is relevant). ``n_relevant`` is the number of relevant documents in the whole
collection, retrieved or not; by default, the relevant items in the list.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping

import sympy
from sympy import Integer, Rational

from ..core.exact import fmt_decimal, fmt_value, to_exact, to_float
from ..core.explanation import Column, Explanation
from ..core.validate import as_count, as_k, as_queries, as_rels, as_sequence, by_query_name
from .conventions import get_convention, resolve
from .ordering import annotate, ranked_from_scores


def _scored_rels(rels, threshold, scores, docids, ties, convention, metric):
    """Relevance in ranked order (ordered by ``scores`` when given) and the ordering used."""
    s = resolve(convention, threshold=threshold, ties=ties)
    rels = as_rels(rels, threshold=s["threshold"])
    ranked = ranked_from_scores(rels, scores, docids, s["ties"] if scores is not None else ties, metric,
                                additive=False)
    return (list(ranked.grades) if ranked else rels), ranked, s["threshold"]


def _finish(ex: Explanation, ranked) -> Explanation:
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
    rels, ranked, threshold = _scored_rels(rels, threshold, scores, docids, ties, convention, "reciprocal_rank")
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
        notes=() if first else ("no relevant item in the list: the reciprocal rank is 0",),
    ), ranked)


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
    Document 000: 眼霜 (first hit at rank 2), 神仙水 (rank 1), 面膜 (rank 3):
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
                 Column("rr", "reciprocal rank"), Column("sum", "sum so far")),
        steps=rows, parts=parts, params={"threshold": threshold, "k": k, "n_queries": len(parts)},
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
        note_list.append(f"k = {k} is beyond the list of {n}: ranks {n + 1}..{k} are empty and count as not relevant")


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
    Document 001: l(1) = 1, l(2) = 0, so P@2 = (1 + 0) / 2.

    >>> import ltr_teach as lt
    >>> lt.precision_at_k([1, 0], k=2).exact
    1/2
    >>> lt.precision_at_k([1, 0], k=4).exact    # one hit in four slots
    1/4
    """
    rels, ranked, threshold = _scored_rels(rels, threshold, scores, docids, ties, convention, "precision_at_k")
    k = as_k(k, allow_none=False)
    notes = []
    _cut(k, len(rels), notes)
    rows = _prefix_rows(rels, k)
    hits = rows[-1]["hits"]
    exact = Rational(hits, k)
    rows[-1]["result"] = exact
    return _finish(Explanation(
        metric="precision_at_k", name=f"P@{k}", exact=exact,
        columns=(Column("rank", "rank"), Column("rel", "relevant"), Column("hits", "hits so far"),
                 Column("precision", "precision at rank"), Column("result", f"P@{k}")),
        steps=tuple(rows), params={"k": k, "threshold": threshold},
        formula=r"P@k = \frac{|\{\text{relevant in top } k\}|}{k}",
        substitution=r"\frac{%d}{%d}" % (hits, k), notes=tuple(notes),
    ), ranked)


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
    rels, ranked, threshold = _scored_rels(rels, threshold, scores, docids, ties, convention, "recall_at_k")
    k = as_k(k, allow_none=False)
    n_rel = _n_relevant(n_relevant, rels)
    notes = []
    _cut(k, len(rels), notes)
    rows = _prefix_rows(rels, k)
    for row in rows:
        row["recall"] = Rational(row["hits"], n_rel) if n_rel else Integer(0)
    hits = rows[-1]["hits"]
    if n_rel == 0:
        notes.append("there is no relevant document, so recall is 0/0; it is reported as 0 (as trec_eval does)")
    exact = rows[-1]["recall"]
    return _finish(Explanation(
        metric="recall_at_k", name=f"R@{k}", exact=exact,
        columns=(Column("rank", "rank"), Column("rel", "relevant"), Column("hits", "hits so far"),
                 Column("recall", "recall at rank")),
        steps=tuple(rows), params={"k": k, "n_relevant": n_rel, "threshold": threshold},
        formula=r"R@k = \frac{|\{\text{relevant in top } k\}|}{|\{\text{relevant}\}|}",
        substitution=r"\frac{%d}{%d}" % (hits, n_rel), notes=tuple(notes),
    ), ranked)


def _f(beta2, p, r):
    return (1 + beta2) * p * r / (beta2 * p + r) if (beta2 * p + r) != 0 else Integer(0)


def f_beta(rels, k, beta=1, n_relevant=None, threshold=None) -> Explanation:
    """F-beta at k: the weighted harmonic mean (1 + β²)·P·R / (β²·P + R).

    β > 1 weighs recall more, β < 1 precision more; β = 1 gives F1 = 2PR / (P + R). Documents 000 and
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
    Document 000, MAC口红: relevant at ranks 1, 2, 5, so AP = (1/1 + 2/2 + 3/5) / 3 = 13/15.

    >>> import ltr_teach as lt
    >>> lt.average_precision([1, 1, 0, 0, 1, 0, 0]).exact
    13/15

    Document 004, topic 2: hits at ranks 1, 3, 5 but 5 relevant documents in all:

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
    rels, ranked, threshold = _scored_rels(rels, threshold, scores, docids, ties, convention, "average_precision")
    k = as_k(k)
    if n_relevant is None and k is not None and convention is not None \
            and get_convention(convention).ap_divisor == "min(relevant, k)":
        n_rel = min(int(sum(rels)), k)  # LightGBM's map@k: at most k hits can be found in the top k
    else:
        n_rel = _n_relevant(n_relevant, rels)
    rows = _prefix_rows(rels, k)
    total = Integer(0)
    for row in rows:
        row["counted"] = row["precision"] if row["rel"] else Integer(0)
        total = total + row["counted"]
        row["sum"] = total
    notes = []
    if n_rel == 0:
        notes.append("there is no relevant document, so AP is 0/0; it is reported as 0 (as trec_eval does)")
    exact = total / n_rel if n_rel else Integer(0)
    found = rows[-1]["hits"]
    if n_rel > found:
        notes.append(f"{n_rel - found} relevant document(s) were not retrieved{' in the top k' if k else ''}: "
                     "each adds precision 0 to the sum")
    name = "AP" if k is None else f"AP@{k}"
    return _finish(Explanation(
        metric="average_precision", name=name, exact=exact,
        columns=(Column("rank", "rank"), Column("rel", "relevant"), Column("hits", "hits so far"),
                 Column("precision", "precision at rank"), Column("counted", "counted"), Column("sum", "sum")),
        steps=tuple(rows), params={"n_relevant": n_rel, "k": k, "threshold": threshold},
        formula=r"\mathrm{AP} = \frac{1}{m}\sum_{i:\,rel_i=1} P@i",
        substitution=r"\frac{%s}{%d}" % (" + ".join(sympy.latex(r["precision"]) for r in rows if r["rel"]) or "0", n_rel),
        notes=tuple(notes),
    ), ranked)


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
    Document 000: AP(MAC口红) = 13/15 and AP(神仙水) = 47/84, so MAP = (13/15 + 47/84) / 2.

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
                 Column("sum", "sum so far")),
        steps=rows, parts=parts, params={"k": k, "threshold": threshold, "n_queries": len(parts)},
        formula=r"\mathrm{MAP} = \frac{1}{|Q|}\sum_{q=1}^{|Q|} \mathrm{AP}_q",
        substitution=_mean_substitution(rows, "ap"),
    )


def _pr_rows(rels, n_relevant):
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
    return rows, n_rel


def _p_interp(rows, level):
    candidates = [r["precision"] for r in rows if r["recall"] >= level]
    return max(candidates) if candidates else Integer(0)


def interpolated_precision(rels, n_relevant=None, recall=None) -> Explanation:
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
    rows, n_rel = _pr_rows(rels, n_relevant)
    if recall is None:
        total = sum((r["interpolated"] for r in rows if r["rel"]), Integer(0))
        exact = total / n_rel
        name, params = "interpolated AP", {"n_relevant": n_rel, "recall": None}
        substitution = r"\frac{%s}{%d}" % (" + ".join(sympy.latex(r["interpolated"]) for r in rows if r["rel"]), n_rel)
    else:
        level = to_exact(recall, "recall")
        if not 0 <= level <= 1:
            raise ValueError(f"recall = {recall} must lie in [0, 1]")
        exact = _p_interp(rows, level)
        name = f"P_interp(recall={fmt_decimal(to_float(level))})"
        params, substitution = {"n_relevant": n_rel, "recall": level}, sympy.latex(exact)
    return Explanation(
        metric="interpolated_precision", name=name, exact=exact,
        columns=(Column("rank", "rank"), Column("rel", "relevant"), Column("precision", "precision"),
                 Column("recall", "recall"), Column("interpolated", "interpolated precision")),
        steps=tuple(rows), params=params,
        formula=r"P_{\text{interp}}(r) = \max_{i:\ R@i \ge r} P@i",
        substitution=substitution,
    )


def eleven_point_ap(rels, n_relevant=None) -> Explanation:
    """11-point interpolated AP: the mean interpolated precision at recall 0, 0.1, ..., 1.0.

    Parameters
    ----------
    rels : sequence of 0/1
        Relevance in ranked order.
    n_relevant : int, optional
        Relevant documents in the whole collection (default: those in the list); must be >= 1.

    Returns
    -------
    Explanation
        ``.exact`` is the mean over the 11 levels; ``.steps`` has one row per recall ``level`` with
        its ``interpolated`` precision; ``.parts["pr"]`` is the :func:`interpolated_precision` table.

    Examples
    --------
    One relevant item, at rank 2: every level has interpolated precision 1/2.

    >>> import ltr_teach as lt
    >>> lt.eleven_point_ap([0, 1]).exact
    1/2
    """
    base = interpolated_precision(rels, n_relevant=n_relevant)
    rows_pr = list(base.steps)
    rows, total = [], Integer(0)
    for j in range(11):
        level = Rational(j, 10)
        p = _p_interp(rows_pr, level)
        total = total + p
        rows.append({"level": level, "interpolated": p, "sum": total})
    exact = total / 11
    return Explanation(
        metric="eleven_point_ap", name="11-point AP", exact=exact,
        columns=(Column("level", "recall level"), Column("interpolated", "interpolated precision"),
                 Column("sum", "sum so far")),
        steps=tuple(rows), parts={"pr": base}, params={"n_relevant": base.params["n_relevant"]},
        formula=r"\mathrm{AP}_{11} = \frac{1}{11}\sum_{r \in \{0, 0.1, \dots, 1\}} P_{\text{interp}}(r)",
        substitution=r"\frac{%s}{11}" % " + ".join(sympy.latex(r["interpolated"]) for r in rows),
    )
