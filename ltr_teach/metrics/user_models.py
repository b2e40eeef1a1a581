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

from ..core.exact import to_exact
from ..core.explanation import Column, Explanation
from ..core.i18n import N_, Message
from ..core.validate import as_choice, as_k, as_sequence, read_negative_grades
from .conventions import negative_rule, resolve, unset

#: The default persistence: a user reads on with probability 4/5 (Moffat & Zobel's middle value).
PERSISTENCE = sympy.Rational(4, 5)

RBP_WEIGHTS = {
    "binary": "a document counts 1 if its grade reaches the threshold, else 0 (Moffat & Zobel)",
    "grade": "a document counts its grade if the grade reaches the threshold (ranx's rbp): RBP can exceed 1",
}


def _persistence(p):
    value = to_exact(p, "p")
    if not 0 < value < 1:
        raise ValueError(f"p = {p} must lie strictly between 0 and 1 (the chance of reading on to the next rank)")
    return value


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
    rows, total = [], Integer(0)
    for i in range(1, n + 1):
        rel = values[i - 1]
        reach = p ** (i - 1)
        contribution = (1 - p) * (rel or 0) * reach
        total = total + contribution
        rows.append({"rank": i, "rel": "unjudged" if rel is None else rel, "reach": reach,
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
            r"%s\cdot %s" % (sympy.latex(r["rel"]), sympy.latex(r["reach"])) for r in rows
            if r["rel"] != "unjudged" and r["rel"] != 0) or "0"),
        notes=tuple(read_notes) + (Message(N_("residual {residual}: RBP lies between {low} and {high} whatever the unjudged and unseen "
                                          "documents are"), residual=sympy.sstr(residual.exact), low=sympy.sstr(total),
                                       high=sympy.sstr(total + residual.exact)),),
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
    d = len(values) if k is None else min(k, len(values))
    rows, total = [], Integer(0)
    for i in range(1, d + 1):
        if values[i - 1] is None:
            c = (1 - p) * p ** (i - 1)
            total = total + c
            rows.append({"rank": i, "what": "unjudged", "contribution": c, "cumulative": total})
    tail = p ** d
    total = total + tail
    rows.append({"rank": f"> {d}", "what": "below the list", "contribution": tail, "cumulative": total})
    return Explanation(
        metric="rbp_residual", name=f"RBP residual(p={sympy.sstr(p)})", exact=total,
        columns=(Column("rank", "rank"), Column("what", "unknown"), Column("contribution", "could add"),
                 Column("cumulative", "residual so far")),
        steps=tuple(rows), params={"p": p, "k": k, "depth": d},
        formula=r"\mathrm{res} = (1-p)\sum_{i \le d,\ \text{unjudged}} p^{i-1} + p^{d}",
        substitution=" + ".join(sympy.latex(r["contribution"]) for r in rows),
    )


__all__ = ["PERSISTENCE", "RBP_WEIGHTS", "rbp", "rbp_residual"]
