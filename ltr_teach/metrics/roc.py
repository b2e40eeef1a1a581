"""ROC curve and AUC, exact, with ties worth one half (Mann–Whitney); the precision–recall curve and its AP.

``labels`` are 0/1 (1 = positive), ``scores`` the model's scores; a higher score ranks first.
"""

from __future__ import annotations

import bisect

import sympy
from sympy import Integer, Rational

from ..core.exact import to_exact
from ..core.explanation import Column, Explanation
from ..core.validate import as_rels, as_sequence


def _labels_scores(labels, scores):
    labels = as_rels(labels, "labels", allowed="labels are 1 (positive) or 0 (negative)")
    scores = as_sequence(scores, "scores")
    if len(labels) != len(scores):
        raise ValueError(
            f"labels and scores must have the same length; got {len(labels)} labels and {len(scores)} scores"
        )
    scores = [to_exact(s, f"scores[{i}]") for i, s in enumerate(scores)]
    n_pos = sum(int(x) for x in labels)
    n_neg = len(labels) - n_pos
    if n_pos == 0 or n_neg == 0:
        only = "positive (1)" if n_neg == 0 else "negative (0)"
        raise ValueError(
            f"labels holds only one class (every label is {only}); ROC and AUC need at least one positive "
            "and one negative"
        )
    return [int(x) for x in labels], scores, n_pos, n_neg


def roc_curve(labels, scores) -> Explanation:
    """The ROC curve, point by point, and the area under it.

    Items are taken in descending score; all items sharing a score form one threshold and move the
    curve diagonally, which is what gives a tie half credit. The value is the trapezoid area.

    Parameters
    ----------
    labels : sequence of 0/1
        1 for a positive item, 0 for a negative; both classes must occur.
    scores : sequence of numbers
        The model's score for each item, one per label; higher ranks first.

    Returns
    -------
    Explanation
        ``.exact`` is the area under the curve, a fraction; ``.steps`` has one row per distinct
        score (plus the start at (0, 0)): the positives and negatives at that score, ``tp``, ``fp``,
        ``fpr``, ``tpr``, the trapezoid ``area`` and the running ``total``.

    Examples
    --------
    >>> import ltr_teach as lt
    >>> ex = lt.roc_curve([1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1])
    >>> [(str(r["fpr"]), str(r["tpr"])) for r in ex.steps]
    [('0', '0'), ('0', '1/2'), ('1/2', '1'), ('1', '1')]
    >>> ex.exact          # 0 + 3/8 + 1/2: the tie at 0.8 adds a diagonal
    7/8
    """
    return _roc_curve(*_labels_scores(labels, scores))


def _roc_curve(labels, scores, n_pos: int, n_neg: int) -> Explanation:
    """:func:`roc_curve` of labels and scores that :func:`_labels_scores` has checked."""
    groups = {}
    for y, s in zip(labels, scores):
        pos, neg = groups.get(s, (0, 0))
        groups[s] = (pos + y, neg + 1 - y)
    rows = [{"threshold": "start", "pos": 0, "neg": 0, "tp": 0, "fp": 0,
             "tpr": Integer(0), "fpr": Integer(0), "area": Integer(0), "total": Integer(0)}]
    tp = fp = 0
    total = Integer(0)
    for s in sorted(groups, reverse=True):
        pos, neg = groups[s]
        tpr0 = Rational(tp, n_pos)
        tp, fp = tp + pos, fp + neg
        tpr = Rational(tp, n_pos)
        area = Rational(neg, n_neg) * (tpr0 + tpr) / 2
        total = total + area
        rows.append({"threshold": s, "pos": pos, "neg": neg, "tp": tp, "fp": fp,
                     "tpr": tpr, "fpr": Rational(fp, n_neg), "area": area, "total": total})
    return Explanation(
        metric="roc_curve", name="ROC AUC", exact=rows[-1]["total"],
        columns=(Column("threshold", "score >="), Column("pos", "positives here"), Column("neg", "negatives here"),
                 Column("tp", "TP"), Column("fp", "FP"), Column("fpr", "FPR"), Column("tpr", "TPR"),
                 Column("area", "trapezoid"), Column("total", "area so far")),
        steps=tuple(rows), params={"n_pos": n_pos, "n_neg": n_neg},
        formula=r"\mathrm{AUC} = \sum_t (\mathrm{FPR}_t - \mathrm{FPR}_{t-1})\,\frac{\mathrm{TPR}_t + \mathrm{TPR}_{t-1}}{2}",
        substitution=" + ".join(sympy.latex(r["area"]) for r in rows[1:]),
    )


def auc(labels, scores) -> Explanation:
    """AUC: the probability that a random positive outscores a random negative (a tie counts 1/2).

    The steps count, for each positive, the negatives it beats and ties with; the ROC points are in
    ``.parts["roc"]`` and give the same area.

    Parameters
    ----------
    labels, scores
        As in :func:`roc_curve`.

    Returns
    -------
    Explanation
        ``.exact`` is the AUC, a fraction; ``.steps`` has one row per positive, best score first:
        the negatives it outscores (``below``), those it ties (``tied``) and its ``credit``;
        ``.parts["roc"]`` is the :func:`roc_curve`.

    Examples
    --------
    Positives score 0.9 and 0.8, negatives 0.8 and 0.1: the 0.9 beats both (2), the 0.8 beats 0.1 and
    ties 0.8 (1 + 1/2), so AUC = 3.5 / (2·2) = 7/8.

    >>> import ltr_teach as lt
    >>> lt.auc([1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1]).exact
    7/8
    """
    labels, scores, n_pos, n_neg = _labels_scores(labels, scores)
    negatives = sorted(s for y, s in zip(labels, scores) if y == 0)
    rows, total = [], Integer(0)
    order = sorted(range(len(labels)), key=lambda i: -scores[i])
    for i in order:
        if labels[i] != 1:
            continue
        s = scores[i]
        below = bisect.bisect_left(negatives, s)
        tied = bisect.bisect_right(negatives, s) - below
        credit = below + Rational(tied, 2)
        total = total + credit
        rows.append({"item": i + 1, "score": s, "below": below, "tied": tied, "credit": credit, "sum": total})
    exact = total / (n_pos * n_neg)
    return Explanation(
        metric="auc", name="AUC", exact=exact,
        columns=(Column("item", "positive #"), Column("score", "score"), Column("below", "negatives below"),
                 Column("tied", "negatives tied"), Column("credit", "pairs won (tie = 1/2)"),
                 Column("sum", "sum so far")),
        steps=tuple(rows), parts={"roc": _roc_curve(labels, scores, n_pos, n_neg)},
        params={"n_pos": n_pos, "n_neg": n_neg},
        formula=r"\mathrm{AUC} = \frac{\#\{(p, n): s_p > s_n\} + \tfrac12\,\#\{(p, n): s_p = s_n\}}{P \cdot N}",
        substitution=r"\frac{%s}{%d \cdot %d}" % (sympy.latex(total), n_pos, n_neg),
    )


def pr_curve(labels, scores) -> Explanation:
    """The precision–recall curve, point by point, and average precision as the area under its steps.

    Items are taken in descending score, as for :func:`roc_curve`; all items sharing a score form one
    threshold (one point). At each threshold precision = TP / (TP + FP) and recall = TP / P. The value
    is the step-wise area Σ (R_t − R_{t−1}) · P_t, which is average precision: without ties it equals
    the rank-by-rank AP of the items in score order (precision at each positive, averaged over the P
    positives); a block of tied scores counts its positives at the block's precision, as scikit-learn's
    ``average_precision_score`` does. Unlike the ROC curve, the curve depends on the class ratio: a
    ranking in random order has precision P / (P + N) at every recall, not a diagonal.

    Parameters
    ----------
    labels : sequence of 0/1
        1 for a positive item, 0 for a negative; both classes must occur.
    scores : sequence of numbers
        The model's score for each item, one per label; higher ranks first.

    Returns
    -------
    Explanation
        ``.exact`` is the average precision, a fraction; ``.steps`` has one row per distinct score:
        the positives and negatives at that score, ``tp``, ``fp``, ``precision``, ``recall``, the
        rectangle ``area`` (recall gained times precision) and the running ``total``;
        ``.params["base_rate"]`` is P / (P + N), the precision of a random ranking.

    Examples
    --------
    Scores 0.9, 0.8, 0.8, 0.1 with labels 1, 0, 1, 0. At 0.9 one positive: precision 1/1, recall 1/2,
    rectangle 1/2 · 1. At 0.8 a positive and a negative enter together: precision 2/3, recall 1,
    rectangle 1/2 · 2/3 = 1/3. At 0.1 a negative: recall does not grow, nothing is added.

    >>> import ltr_teach as lt
    >>> ex = lt.pr_curve([1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1])
    >>> [(str(r["recall"]), str(r["precision"])) for r in ex.steps]
    [('1/2', '1'), ('1', '2/3'), ('1', '1/2')]
    >>> ex.exact          # 1/2 + 1/3
    5/6

    Without ties the area is the AP of the items in score order (positives at ranks 1 and 3):

    >>> lt.pr_curve([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1]).exact, lt.average_precision([1, 0, 1, 0]).exact
    (5/6, 5/6)
    """
    labels, scores, n_pos, n_neg = _labels_scores(labels, scores)
    groups = {}
    for y, s in zip(labels, scores):
        pos, neg = groups.get(s, (0, 0))
        groups[s] = (pos + y, neg + 1 - y)
    rows, tp, fp, total = [], 0, 0, Integer(0)
    for s in sorted(groups, reverse=True):
        pos, neg = groups[s]
        tp, fp = tp + pos, fp + neg
        precision = Rational(tp, tp + fp)
        area = Rational(pos, n_pos) * precision
        total = total + area
        rows.append({"threshold": s, "pos": pos, "neg": neg, "tp": tp, "fp": fp,
                     "precision": precision, "recall": Rational(tp, n_pos), "area": area, "total": total})
    return Explanation(
        metric="pr_curve", name="AP", exact=total,
        columns=(Column("threshold", "score >="), Column("pos", "positives here"), Column("neg", "negatives here"),
                 Column("tp", "TP"), Column("fp", "FP"), Column("precision", "precision"), Column("recall", "recall"),
                 Column("area", "rectangle"), Column("total", "area so far")),
        steps=tuple(rows), params={"n_pos": n_pos, "n_neg": n_neg, "base_rate": Rational(n_pos, n_pos + n_neg)},
        formula=r"\mathrm{AP} = \sum_t (R_t - R_{t-1})\,P_t",
        substitution=" + ".join(sympy.latex(r["area"]) for r in rows if r["pos"]),
    )
