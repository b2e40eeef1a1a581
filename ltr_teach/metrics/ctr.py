"""Click-through prediction metrics: group AUC (GAUC) and log loss, exact.

An ads or feed model predicts, for every impression, the probability of a click. Two questions are
asked of it: does it *order* each user's impressions well (AUC within a user, averaged: GAUC), and are
its probabilities *calibrated* (log loss, the mean binary cross-entropy)?

``labels`` are 0/1 (1 = clicked), one per impression; ``scores`` the model's scores and
``probabilities`` its predicted click probabilities, one per label.
"""

from __future__ import annotations

import sympy
from sympy import Integer, Rational

from ..core.exact import RunningSum, _brief, ln, to_exact
from ..core.explanation import Column, Explanation
from ..core.i18n import N_, Message
from ..core.validate import as_choice, as_rels, as_sequence
from .roc import auc

#: How ``gauc`` weighs each user's AUC: the number of the user's impressions (Zhou et al. 2018, DIN,
#: and Zhu et al. 2017, who introduced GAUC), of the user's clicks, or every user alike.
GAUC_WEIGHTS = {
    "impressions": N_("each user's AUC weighted by the user's impressions"),
    "clicks": N_("each user's AUC weighted by the user's clicks"),
    "users": N_("every user's AUC weighted alike (the plain mean over users)"),
}


def gauc(labels, scores, groups, weight: str = "impressions") -> Explanation:
    """Group AUC: the AUC of each user's impressions, averaged over users with weights.

    A global AUC compares a click of one user with a non-click of another, pairs that no single page
    ever ranks against each other; a user who sees many ads and clicks often can dominate it. GAUC
    keeps only the pairs a user actually saw: it computes the AUC (ties worth 1/2) within each group
    and takes the weighted mean

    .. math:: \\mathrm{GAUC} = \\frac{\\sum_u w_u\\,\\mathrm{AUC}_u}{\\sum_u w_u}.

    A user whose impressions are all clicks, or all non-clicks, has no AUC (no pair to order): the
    user is skipped, counted in a note and left out of the weights.

    Parameters
    ----------
    labels : sequence of 0/1
        1 for a clicked impression, 0 for one not clicked.
    scores : sequence of numbers
        The model's score for each impression, one per label; higher ranks first.
    groups : sequence of hashables
        The user (or query, or session) of each impression, one per label; shown as text.
    weight : {"impressions", "clicks", "users"}, default "impressions"
        :math:`w_u`: the user's number of impressions (the usual GAUC, as in Zhou et al. 2018), the
        user's number of clicks, or 1 for every user.

    Returns
    -------
    Explanation
        ``.exact`` is the GAUC, a fraction; ``.steps`` has one row per group in order of first
        appearance: its ``impressions``, ``clicks``, ``auc`` (``None`` when skipped), ``weight`` and
        ``weighted`` AUC; ``.parts`` holds each scored group's :func:`~ltr_teach.metrics.roc.auc`.

    Raises
    ------
    ValueError
        When the three sequences differ in length, a label is not 0/1, or no group has both a click
        and a non-click.

    References
    ----------
    Zhu et al., "Optimized Cost per Click in Taobao Display Advertising", KDD 2017; Zhou et al., "Deep
    Interest Network for Click-Through Rate Prediction", KDD 2018.

    Examples
    --------
    User a: 3 impressions, clicked at 0.9, not at 0.8 and 0.2: both pairs won, AUC = 1.
    User b: 4 impressions, clicked at 0.3 and 0.1, not at 0.4 and 0.2: of 4 pairs only 0.3 > 0.2 is
    won, AUC = 1/4. User c: one impression, no click: skipped.

    >>> import ltr_teach as lt
    >>> labels = [1, 0, 0, 1, 0, 1, 0, 0]
    >>> scores = [0.9, 0.8, 0.2, 0.3, 0.4, 0.1, 0.2, 0.5]
    >>> users = ["a", "a", "a", "b", "b", "b", "b", "c"]
    >>> lt.gauc(labels, scores, users).exact          # (3·1 + 4·1/4) / (3 + 4)
    4/7
    >>> lt.gauc(labels, scores, users, weight="clicks").exact   # (1·1 + 2·1/4) / (1 + 2)
    1/2
    """
    weight = as_choice(weight, "weight", tuple(GAUC_WEIGHTS))
    labels = as_rels(labels, "labels", allowed="labels are 1 (clicked) or 0 (not clicked)")
    scores = as_sequence(scores, "scores")
    groups = as_sequence(groups, "groups")
    if not len(labels) == len(scores) == len(groups):
        raise ValueError(f"labels, scores and groups must have the same length; got {len(labels)} labels, "
                         f"{len(scores)} scores and {len(groups)} groups")
    members: dict = {}
    for i, group in enumerate(groups):
        try:
            members.setdefault(group, []).append(i)
        except TypeError:
            raise ValueError(f"groups[{i}] = {_brief(group)} is not hashable; give a user id such as a "
                             "string or an integer") from None
    names = [str(g) for g in members]
    if len(set(names)) != len(names):
        raise ValueError("groups holds two different ids that print alike (such as 1 and '1'); group ids must "
                         "differ as text")
    rows, parts, skipped = [], {}, []
    weights, total = RunningSum(), RunningSum()
    for group, name in zip(members, names):
        index = members[group]
        group_labels = [labels[i] for i in index]
        clicks = sum(int(y) for y in group_labels)
        row = {"group": name, "impressions": len(index), "clicks": clicks,
               "auc": None, "weight": None, "weighted": None}
        if 0 < clicks < len(index):
            part = auc(group_labels, [scores[i] for i in index])
            w = Integer({"impressions": len(index), "clicks": clicks, "users": 1}[weight])
            parts[name] = part
            row.update(auc=part.exact, weight=w, weighted=w * part.exact)
            weights.add(w)
            total.add(w * part.exact)
        else:
            skipped.append(name)
        rows.append(row)
    if not parts:
        raise ValueError(f"no group in groups has both a click (1) and a non-click (0) in labels; each of the "
                         f"{len(rows)} groups holds one class only, so no group has an AUC")
    exact = total.value() / weights.value()
    notes = [Message(GAUC_WEIGHTS[weight])]
    if skipped:
        notes.append(Message(N_("{n} of {total} groups have one class only (every impression clicked, or none) "
                                "and are skipped: {names}"),
                             n=len(skipped), total=len(rows), names=", ".join(skipped)))
    return Explanation(
        metric="gauc", name="GAUC", exact=exact,
        columns=(Column("group", "group"), Column("impressions", "impressions"), Column("clicks", "clicks"),
                 Column("auc", "AUC"), Column("weight", "weight"), Column("weighted", "weight × AUC")),
        steps=tuple(rows), parts=parts,
        params={"weight": weight, "n_groups": len(rows), "n_skipped": len(skipped)},
        formula=r"\mathrm{GAUC} = \frac{\sum_u w_u\,\mathrm{AUC}_u}{\sum_u w_u}",
        substitution=r"\frac{%s}{%s}" % (sympy.latex(total.value()), sympy.latex(weights.value())),
        notes=tuple(notes),
    )


def log_loss(labels, probabilities, eps=None) -> Explanation:
    """Log loss (binary cross-entropy): the mean of :math:`-\\ln` of the probability given to what happened.

    A clicked impression predicted at p costs :math:`-\\ln p`; one not clicked costs :math:`-\\ln(1-p)`.
    The loss rewards calibrated probabilities, not only a good order: predicting 0.9 for an ad clicked
    one time in ten is punished even when the ranking is perfect.

    .. math:: \\mathrm{LogLoss} = -\\frac{1}{N}\\sum_{i=1}^{N}\\bigl[y_i \\ln p_i + (1-y_i)\\ln(1-p_i)\\bigr]

    Every term is an exact natural log of a fraction (``ln(10/9)``), so the value is exact.

    Parameters
    ----------
    labels : sequence of 0/1
        1 for a clicked impression, 0 for one not clicked.
    probabilities : sequence of numbers in [0, 1]
        The predicted click probability of each impression, one per label.
    eps : number in (0, 1/2), optional
        Clip each probability to ``[eps, 1 - eps]`` before taking logs. By default nothing is clipped,
        and a click predicted at probability 0 (or a non-click at 1) raises ``ValueError``: its loss is
        infinite. scikit-learn's ``log_loss`` always clips, at the machine epsilon of the input's dtype
        (``2**-52`` for float64); pass ``eps=2**-52`` to reproduce it. A note says how many
        probabilities were clipped.

    Returns
    -------
    Explanation
        ``.exact`` is the loss (a sum of exact logs over N); ``.steps`` has one row per impression:
        ``label``, ``p`` (after clipping), ``term`` (its loss) and the running ``sum``.

    Examples
    --------
    A click predicted at 1/2 costs ln 2; a non-click predicted at 1/10 costs -ln(9/10) = ln(10/9);
    a click predicted at 4/5 costs ln(5/4). The mean is (ln 2 + ln(10/9) + ln(5/4)) / 3.

    >>> import ltr_teach as lt
    >>> ex = lt.log_loss([1, 0, 1], [0.5, 0.1, 0.8])
    >>> [r["term"] for r in ex.steps]
    [ln(2), ln(10/9), ln(5/4)]
    >>> f"{ex.value:.6f}"             # (0.693147 + 0.105361 + 0.223144) / 3
    '0.340550'
    """
    labels = as_rels(labels, "labels", allowed="labels are 1 (clicked) or 0 (not clicked)")
    raw = as_sequence(probabilities, "probabilities")
    if len(labels) != len(raw):
        raise ValueError(f"labels and probabilities must have the same length; got {len(labels)} labels and "
                         f"{len(raw)} probabilities")
    low = high = None
    if eps is not None:
        low = to_exact(eps, "eps")
        if not 0 < low < Rational(1, 2):
            raise ValueError(f"eps = {eps} must be between 0 and 1/2 (exclusive); scikit-learn clips at 2**-52")
        high = 1 - low
    rows, running, clipped = [], RunningSum(), 0
    for i, (y, value) in enumerate(zip(labels, raw)):
        p = to_exact(value, f"probabilities[{i}]")
        if not 0 <= p <= 1:
            raise ValueError(f"probabilities[{i}] = {value} is not a probability; give numbers in [0, 1]")
        if low is not None and not low <= p <= high:
            p, clipped = min(max(p, low), high), clipped + 1
        given = p if y == 1 else 1 - p  # the probability the model gave to what happened
        if given == 0:
            what = "a click (label 1) predicted at 0" if y == 1 else "a non-click (label 0) predicted at 1"
            raise ValueError(f"probabilities[{i}] = {value} with labels[{i}] = {y}: {what} has an infinite log loss; "
                             "pass eps (such as 2**-52, as scikit-learn clips) to clip probabilities to "
                             "[eps, 1 - eps]")
        term = ln(1 / given)
        running.add(term)
        rows.append({"item": i + 1, "label": y, "p": p, "term": term, "sum": running.value()})
    n = len(rows)
    exact = rows[-1]["sum"] / n
    notes = ()
    if low is not None:
        notes = (Message(N_("probabilities clipped to [eps, 1 - eps] with eps = {eps}: {n} of {total} changed"),
                         eps=_brief(eps), n=clipped, total=n),)
    return Explanation(
        metric="log_loss", name="LogLoss", exact=exact,
        columns=(Column("item", "impression #"), Column("label", "label"), Column("p", "predicted p"),
                 Column("term", "loss"), Column("sum", "sum so far", exact=False)),
        steps=tuple(rows), params={"n": n, "eps": eps, "clipped": clipped},
        formula=r"\mathrm{LogLoss} = -\frac{1}{N}\sum_{i=1}^{N}\bigl[y_i \ln p_i + (1-y_i)\ln(1-p_i)\bigr]",
        substitution=r"\frac{1}{%d}\left(%s\right)" % (n, sympy.latex(rows[-1]["sum"])),
        notes=notes,
    )


__all__ = ["GAUC_WEIGHTS", "gauc", "log_loss"]
