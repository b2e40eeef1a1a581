"""User-model metrics: rank-biased precision (RBP) and its residual.

RBP (Moffat & Zobel 2008) models a user who reads rank 1, then goes on to each next rank with
probability p (the persistence) and stops otherwise. The user reads rank i with probability
p^(i-1); RBP is the expected share of relevant documents among those read:
RBP = (1 - p) · Σ rel_i · p^(i-1). Documents never judged (``None``) add nothing, but they might be
relevant: the *residual* is how much RBP could still grow if every unjudged document and every rank
below the list were relevant, (1 - p) · Σ_{i unjudged} p^(i-1) + p^d for a list of depth d.

References
----------
Moffat, A. & Zobel, J. (2008). Rank-biased precision for measurement of retrieval effectiveness.
ACM TOIS 27(1).
"""

from __future__ import annotations

import sympy
from sympy import Integer

from ..core.exact import fmt_latex, fmt_value, log2, to_exact
from ..core.explanation import Column, Explanation
from ..core.i18n import N_, Message
from ..core.validate import as_choice, as_count, as_grades, as_k, as_sequence, read_negative_grades
from .conventions import negative_rule, resolve, unset

#: Words shown in a steps table's cells (messages: translated when the table is shown, English as str).
_UNJUDGED = Message(N_("unjudged"))
_BELOW = Message(N_("below the list"))

#: The default persistence: a user reads on with probability 4/5 (Moffat & Zobel's middle value).
PERSISTENCE = sympy.Rational(4, 5)

RBP_WEIGHTS = {
    "binary": "a document counts 1 if its grade reaches the threshold, else 0 (Moffat & Zobel)",
    "grade": "a document counts its grade if the grade reaches the threshold (ranx's rbp): RBP can exceed 1",
}


#: RBP's reach p^(i-1) is a fraction over q^(i-1) for p = a/q: ranks × bits of q is at most this (p = 4/5 reads
#: 1,000 ranks with 3,000 bits; p = 0.8000000000000002, a fraction over 5·10^15, reads 384 ranks).
RBP_MAX_BITS = 20_000


def _persistence(p):
    value = to_exact(p, "p")
    if not 0 < value < 1:
        raise ValueError(f"p = {p} must lie strictly between 0 and 1 (the chance of reading on to the next rank)")
    return value


def _check_depth(p, depth: int) -> None:
    bits = int(p.q).bit_length()
    if bits * depth > RBP_MAX_BITS:
        raise ValueError(
            f"p = {sympy.sstr(p) if len(sympy.sstr(p)) <= 40 else fmt_value(p)} over {depth} ranks is too much for exact RBP: p^(i-1) is a fraction over "
            f"{p.q}^(i-1), so ranks × bits of p's denominator is at most {RBP_MAX_BITS} (here at most "
            f"{RBP_MAX_BITS // bits} ranks: pass k=, or a shorter p such as 0.8)")


def _weights(grades, threshold, weight):
    values = as_sequence(grades, "grades")
    t = to_exact(threshold, "threshold")
    if t <= 0:
        raise ValueError(f"threshold = {threshold} must be > 0 (a grade of 0 is never relevant)")
    out = []
    for i, v in enumerate(values):
        if v is None:
            out.append(None)
            continue
        g = to_exact(v, f"grades[{i}]")
        if g < 0:
            raise ValueError(f"grades[{i}] = {v} is negative; grades must be non-negative numbers (None: unjudged)")
        out.append((Integer(1) if weight == "binary" else g) if g >= t else Integer(0))
    return out


def rbp(grades, p=PERSISTENCE, k=None, threshold=None, weight=unset("binary"), *, convention=None) -> Explanation:
    """Rank-biased precision: (1 - p) · Σ rel_i · p^(i-1), with the residual in ``.parts["residual"]``.

    Parameters
    ----------
    grades : sequence of numbers or None
        Relevance (0/1 or grades) in ranked order; ``None`` marks an unjudged document.
    p : number in (0, 1)
        Persistence: the chance the user reads on after each rank (default 0.8; 0.5 impatient,
        0.95 patient). Fractions and decimals stay exact (0.8 is 4/5).
    k : int >= 1 or None
        Only the top ``k`` count (the evaluation depth); ``None`` means the whole list.
    threshold : number > 0, optional
        The lowest grade that counts as relevant (default: the convention's, else 1).
    weight : {"binary", "grade"}
        What a relevant document adds (:data:`RBP_WEIGHTS`): 1 (Moffat & Zobel, default) or its
        grade (ranx).
    convention : str, optional
        A preset of ``lt.CONVENTIONS`` supplying ``weight`` and ``threshold``; under trec_eval's
        conventions a negative grade (TREC's -1 judged non-relevant, -2 spam) is unjudged, as trec_eval
        reads it (it adds nothing and counts in the residual).

    Returns
    -------
    Explanation
        ``.exact`` is RBP; ``.steps`` has one row per rank: ``rel`` (what the rank adds),
        ``reach`` = p^(i-1), ``contribution`` = (1 - p)·rel·reach and the running sum;
        ``.parts["residual"]`` is :func:`rbp_residual`.

    Examples
    --------
    p = 1/2, relevant at ranks 1 and 3: RBP = (1/2)·(1 + 1/4) = 5/8.

    >>> import ltr_teach as lt
    >>> ex = lt.rbp([1, 0, 1], p=0.5)
    >>> ex.exact
    5/8

    The residual: nothing is unjudged, but ranks 4, 5, ... are unknown, worth p^3 = 1/8 at most.

    >>> ex.parts["residual"].exact
    1/8
    """
    s = resolve(convention, weight=weight, threshold=threshold)
    weight = as_choice(s["weight"], "weight", RBP_WEIGHTS)
    threshold = 1 if s["threshold"] is None else s["threshold"]
    p = _persistence(p)
    k = as_k(k)
    grades, read_notes = read_negative_grades(grades, "grades", negative_rule(convention), "unjudged")
    values = _weights(grades, threshold, weight)
    n = len(values) if k is None else min(k, len(values))
    _check_depth(p, n)
    rows, total = [], Integer(0)
    for i in range(1, n + 1):
        rel = values[i - 1]
        reach = p ** (i - 1)
        contribution = (1 - p) * (rel or 0) * reach
        total = total + contribution
        rows.append({"rank": i, "rel": _UNJUDGED if rel is None else rel, "reach": reach,
                     "contribution": contribution, "cumulative": total})
    residual = rbp_residual(grades, p=p, k=k)
    name = f"RBP(p={sympy.sstr(p)})" + ("" if k is None else f"@{k}")
    return Explanation(
        metric="rbp", name=name, exact=total,
        columns=(Column("rank", "rank"), Column("rel", "relevance"), Column("reach", "p^(i-1)"),
                 Column("contribution", "(1-p)·rel·p^(i-1)"), Column("cumulative", "RBP so far")),
        steps=tuple(rows), parts={"residual": residual},
        params={"p": p, "k": k, "threshold": threshold, "weight": weight, "residual": residual.exact},
        formula=r"\mathrm{RBP} = (1-p)\sum_{i=1}^{%s} rel_i\, p^{i-1}" % ("k" if k else "d"),
        substitution=r"(1-%s)\left(%s\right)" % (sympy.latex(p), " + ".join(
            r"%s\cdot %s" % (fmt_latex(r["rel"]), fmt_latex(r["reach"])) for r in rows
            if r["rel"] != "unjudged" and r["rel"] != 0) or "0"),
        notes=tuple(read_notes) + (Message(N_("residual {residual}: RBP lies between {low} and {high} whatever the unjudged and unseen "
                                          "documents are"), residual=fmt_value(residual.exact), low=fmt_value(total),
                                       high=fmt_value(total + residual.exact)),),
    )


def rbp_residual(grades, p=PERSISTENCE, k=None) -> Explanation:
    """The RBP residual: what unjudged documents and the ranks below the list could still add.

    Parameters
    ----------
    grades : sequence of numbers or None
        Relevance in ranked order; ``None`` marks an unjudged document.
    p : number in (0, 1)
        Persistence, as in :func:`rbp`.
    k : int >= 1 or None
        The evaluation depth; ``None`` means the whole list.

    Returns
    -------
    Explanation
        ``.exact`` = (1 - p)·Σ_{unjudged i <= d} p^(i-1) + p^d, with d the depth evaluated;
        ``.steps`` list the unjudged ranks and the tail below rank d.

    Examples
    --------
    p = 1/2, rank 2 unjudged, depth 3: (1/2)·(1/2) + (1/2)^3 = 3/8.

    >>> import ltr_teach as lt
    >>> lt.rbp_residual([1, None, 0], p=0.5).exact
    3/8
    """
    p = _persistence(p)
    k = as_k(k)
    values = as_sequence(grades, "grades")
    for i, v in enumerate(values):
        if v is not None:
            g = to_exact(v, f"grades[{i}]")  # a NaN or a word is refused, as rbp() refuses it
            if g < 0:
                raise ValueError(f"grades[{i}] = {v} is negative; grades must be non-negative numbers (None: unjudged)")
    d = len(values) if k is None else min(k, len(values))
    _check_depth(p, d)
    rows, total = [], Integer(0)
    for i in range(1, d + 1):
        if values[i - 1] is None:
            c = (1 - p) * p ** (i - 1)
            total = total + c
            rows.append({"rank": i, "what": _UNJUDGED, "contribution": c, "cumulative": total})
    tail = p ** d
    total = total + tail
    rows.append({"rank": f"> {d}", "what": _BELOW, "contribution": tail, "cumulative": total})
    return Explanation(
        metric="rbp_residual", name=f"RBP residual(p={sympy.sstr(p)})", exact=total,
        columns=(Column("rank", "rank"), Column("what", "unknown"), Column("contribution", "could add"),
                 Column("cumulative", "residual so far")),
        steps=tuple(rows), params={"p": p, "k": k, "depth": d},
        formula=r"\mathrm{res} = (1-p)\sum_{i \le d,\ \text{unjudged}} p^{i-1} + p^{d}",
        substitution=" + ".join(fmt_latex(r["contribution"]) for r in rows),
    )


#: The reading users behind the metrics. A *static* user's chance of going on after rank i is fixed in
#: advance (the metric's discount); an *adaptive* one stops on what it reads (the cascade family).
BROWSING_MODELS = {
    "precision": N_("reads the top k, every one of them, and stops (P@k)"),
    "dcg": N_("reads rank i with probability 1/log2(i+1): ever more patient the deeper (DCG)"),
    "rbp": N_("goes on after every rank with the same probability p (RBP)"),
    "rr": N_("reads down to the first relevant document and stops there (RR)"),
    "err": N_("reads down and stops at rank i, satisfied, with probability R_i (ERR)"),
}
_ADAPTIVE = ("rr", "err")
#: Ranks tabulated by :func:`browsing_model` for a static user when no ``n`` and no grades are given.
BROWSING_RANKS = 10
#: The most ranks :func:`browsing_model` tabulates, one exact row each: DCG's shares of attention divide by a sum
#: of n logarithms (300 ranks take about 0.5 s, 500 already 2.5 s); the other users' rows are fractions.
BROWSING_MAX_RANKS = {"dcg": 300, "precision": 1000, "rbp": 1000, "rr": 1000, "err": 1000}


def browsing_model(model, n=None, *, grades=None, p=PERSISTENCE, k=None, g_max=None) -> Explanation:
    """The user a metric's discount describes: how likely they read each rank, and how deep they read.

    Every metric here is a user reading down the ranking. After reading rank i the user goes on with
    probability C(i) (the *continuation*); the chance of reading rank i is the product
    reach(i) = C(1)·C(2)·…·C(i-1), and the expected number of ranks read is the sum of the reaches.
    A static user's C(i) is fixed by the metric (RBP: p everywhere; DCG: log2(i+1)/log2(i+2), so
    reach(i) = 1/log2(i+1) is exactly DCG's discount; P@k: 1 before k, 0 at k). An adaptive user's
    depends on what they read: the cascade family (RR: stop at the first relevant document, C(i) =
    1 - rel_i; ERR: C(i) = 1 - R_i).

    Parameters
    ----------
    model : {"precision", "dcg", "rbp", "rr", "err"}
        Which metric's user (:data:`BROWSING_MODELS`).
    n : int >= 1, optional
        Ranks to tabulate (default: the length of ``grades``, else :data:`BROWSING_RANKS`); with
        ``grades`` it must not exceed their length.
    grades : sequence of whole numbers, optional
        Relevance in ranked order; required for ``"rr"`` (0/1, or grades: any grade > 0 is relevant)
        and ``"err"`` (grades 0..g_max); the static users ignore it.
    p : number in (0, 1)
        RBP's persistence (default 4/5).
    k : int >= 1, optional
        P@k's cut-off (default ``n``).
    g_max : int >= 1, optional
        ERR's top grade (default: the highest grade given, at least 1).

    Returns
    -------
    Explanation
        Named ``"RBP(p=4/5): E[min(L, 10)]"``; ``.params["user"]`` is the part before the colon.
        ``.exact`` is the expected number of ranks read among the first ``n``,
        E[min(L, n)] = Σ_{i<=n} reach(i), for L the last rank read; ``.steps`` has one row per rank:
        ``continue`` C(i), ``reach``, ``last`` (the chance rank i is the last one read,
        reach(i)·(1 - C(i))) and ``weight`` (reach(i) over the sum of the reaches: the share of the
        user's attention rank i gets). ``.params["beyond"]`` is the chance of reading past rank ``n``.

    Examples
    --------
    RBP's user with p = 1/2 over 3 ranks reads rank 1 surely, rank 2 with probability 1/2, rank 3 with
    1/4: 1 + 1/2 + 1/4 = 7/4 ranks on average (over an endless list, 1/(1 - p) = 2), and goes past
    rank 3 with probability 1/8.

    >>> import ltr_teach as lt
    >>> ex = lt.browsing_model("rbp", 3, p=0.5)
    >>> ex.exact, [str(r["reach"]) for r in ex.steps], ex.params["beyond"]
    (7/4, ['1', '1/2', '1/4'], 1/8)

    DCG's discount is its user's reach: 1, 1/log2(3), 1/2, ... The chance of going on grows with depth
    (1/log2(3) ≈ 0.63 after rank 1, log2(3)/2 ≈ 0.79 after rank 2):

    >>> [str(r["reach"]) for r in lt.browsing_model("dcg", 3).steps]
    ['1', '1/log2(3)', '1/2']

    RR's user reads down to the first relevant document: on [0, 0, 1, 1] they read 3 ranks, surely.

    >>> rr = lt.browsing_model("rr", grades=[0, 0, 1, 1])
    >>> rr.exact, [str(r["last"]) for r in rr.steps]
    (3, ['0', '0', '1', '0'])
    """
    model = as_choice(model, "model", BROWSING_MODELS)
    values = None
    if grades is not None:
        values = as_grades(grades, "grades", integer=True)
    elif model in _ADAPTIVE:
        raise ValueError(f"model = {model!r} stops on what it reads: give grades=[...] (relevance in ranked order)")
    if n is None:
        n = len(values) if values is not None else BROWSING_RANKS
    n = as_k(n, "n", allow_none=False)
    if values is not None and n > len(values):
        raise ValueError(f"n = {n} is beyond the {len(values)} grades given; n must be at most {len(values)}")
    if n > BROWSING_MAX_RANKS[model]:
        raise ValueError(f"n = {n} ranks is too many for an exact table; browsing_model({model!r}) tabulates at most "
                         f"{BROWSING_MAX_RANKS[model]} ranks (one exact row each)")
    if model == "rbp":
        p = _persistence(p)
        _check_depth(p, n)
        go_on = [p] * n
        label = f"RBP(p={sympy.sstr(p)})"
    elif model == "dcg":
        go_on = [log2(i + 1) / log2(i + 2) for i in range(1, n + 1)]
        label = "DCG"
    elif model == "precision":
        k = n if k is None else as_k(k, "k", allow_none=False)
        go_on = [Integer(1) if i < k else Integer(0) for i in range(1, n + 1)]
        label = f"P@{k}"
    elif model == "rr":
        go_on = [Integer(0) if g > 0 else Integer(1) for g in values[:n]]
        label = "RR"
    else:
        top = max([1] + [int(g) for g in values])
        g_max = top if g_max is None else as_count(g_max, "g_max", minimum=1)
        if g_max < top:
            raise ValueError(f"g_max = {g_max} is below the highest grade given ({top})")
        go_on = [1 - sympy.Rational(2 ** int(g) - 1, 2 ** g_max) for g in values[:n]]
        label = f"ERR(g_max={g_max})"
    reaches, reach = [], Integer(1)
    for c in go_on:
        reaches.append(reach)
        reach = reach * c
    depth = sum(reaches, Integer(0))
    rows, so_far = [], Integer(0)
    for i, (c, r) in enumerate(zip(go_on, reaches), start=1):
        so_far = so_far + r
        rows.append({"rank": i, "continue": c, "reach": r, "last": r * (1 - c), "weight": r / depth,
                     "cumulative": so_far})
    return Explanation(
        metric="browsing_model", name=f"{label}: E[min(L, {n})]", exact=depth,
        # DCG's cells are sums and ratios of logs: decimals keep its table within a page's width
        columns=(Column("rank", "rank"), Column("continue", "goes on C(i)", exact=model != "dcg"),
                 Column("reach", "reads rank i"), Column("last", "stops after rank i", exact=model != "dcg"),
                 Column("weight", "share of attention", exact=False),
                 Column("cumulative", "ranks read so far", exact=False)),
        steps=tuple(rows), params={"model": model, "n": n, "beyond": reach, "user": label},
        formula=r"\mathbb{E}[\min(L, %d)] = \sum_{i=1}^{%d} \prod_{j<i} C(j)" % (n, n),
        notes=(Message(BROWSING_MODELS[model]),),
    )


__all__ = ["BROWSING_MODELS", "BROWSING_RANKS", "PERSISTENCE", "RBP_WEIGHTS", "browsing_model", "rbp", "rbp_residual"]
