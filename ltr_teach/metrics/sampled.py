"""Sampled metrics of top-N recommendation: what ranking the target among a few sampled negatives does.

Many recommender papers rank each user's held-out item not among the whole catalogue but among
``n_negatives`` (often 100) randomly sampled items, and report HR@k or NDCG@k of that small list.
Krichene & Rendle ("On Sampled Metrics for Item Recommendation", KDD 2020) showed that this can
change which of two systems wins. :func:`sampled_metric` computes the sampled metric's *expected*
value exactly: the number of sampled negatives that outrank the target is hypergeometric.
"""

from __future__ import annotations

from math import comb

from sympy import Integer, Rational

from ..core.exact import RunningSum, log2
from ..core.explanation import Column, Explanation
from ..core.i18n import N_
from ..core.validate import as_choice, as_count, as_k, as_sequence

#: What :func:`sampled_metric` scores, for one held-out item at rank r: HR@k is 1 when r <= k, NDCG@k
#: is 1/log2(r + 1) when r <= k (the ideal list has the one relevant item at rank 1).
SAMPLED_METRICS = {
    "hit_rate": N_("hit rate (HR@k): 1 when the held-out item is in the top k"),
    "ndcg": N_("NDCG@k with one relevant item: 1/log2(rank + 1) in the top k, else 0"),
}


def _at_rank(metric: str, rank: int, k: int):
    if rank > k:
        return Integer(0)
    return Integer(1) if metric == "hit_rate" else 1 / log2(rank + 1)


def sampled_metric(full_ranks, n_items, n_negatives=100, k=10, metric="hit_rate") -> Explanation:
    """The expected HR@k or NDCG@k when each user's held-out item is ranked among sampled negatives.

    A user's held-out item sits at rank ``r`` among all ``n_items`` items. Sampling ``n_negatives`` of
    the other ``n_items - 1`` items without replacement, the number ``m`` of sampled items that outrank
    it is hypergeometric:

    .. math:: P(m) = \\binom{r-1}{m}\\binom{N-r}{n-m} \\Big/ \\binom{N-1}{n},

    and its rank in the sampled list is ``m + 1``. So the expected sampled HR@k is
    :math:`\\sum_{m<k} P(m)`, exactly, and the expected NDCG@k is :math:`\\sum_{m<k} P(m)/\\log_2(m+2)`.

    Parameters
    ----------
    full_ranks : sequence of int >= 1
        Each user's rank of the held-out item among all items (1 = top).
    n_items : int
        N, the size of the catalogue (every rank must be at most N).
    n_negatives : int, default 100
        n, how many other items are sampled (at most N - 1).
    k : int, default 10
        The cut-off.
    metric : {"hit_rate", "ndcg"}, default "hit_rate"

    Returns
    -------
    Explanation
        ``.exact`` is the mean over users of the expected sampled metric (a fraction for the hit
        rate); ``.steps`` has one row per user: the ``full_rank``, the metric on the ``full`` catalogue
        and its ``sampled`` expectation; ``.params["full"]`` is the mean on the full catalogue.

    References
    ----------
    Krichene & Rendle, "On Sampled Metrics for Item Recommendation", KDD 2020.

    Examples
    --------
    One user, catalogue of 5 items, the held-out item at rank 3; sample 2 of the 4 others. Both
    sampled items come from the 2 above it with probability C(2,2)·C(2,0)/C(4,2) = 1/6, so it is
    first in the sampled list (HR@1 = 1) when neither does: C(2,0)·C(2,2)/C(4,2) = 1/6.

    >>> import ltr_teach as lt
    >>> lt.sampled_metric([3], n_items=5, n_negatives=2, k=1).exact
    1/6
    """
    metric = as_choice(metric, "metric", tuple(SAMPLED_METRICS))
    n_items = as_count(n_items, "n_items", minimum=2)
    n_negatives = as_count(n_negatives, "n_negatives", minimum=1)
    k = as_k(k, "k", allow_none=False)
    if n_negatives > n_items - 1:
        raise ValueError(f"n_negatives = {n_negatives} is more than the n_items - 1 = {n_items - 1} other items")
    ranks = []
    for i, r in enumerate(as_sequence(full_ranks, "full_ranks", limit=10_000)):
        if isinstance(r, bool) or not isinstance(r, int) and not (hasattr(r, "is_integer") and float(r).is_integer()):
            raise ValueError(f"full_ranks[{i}] = {r!r} is not a whole number; ranks are 1, 2, ..., n_items")
        r = int(r)
        if not 1 <= r <= n_items:
            raise ValueError(f"full_ranks[{i}] = {r} is outside 1..n_items = 1..{n_items}")
        ranks.append(r)
    total_draws = comb(n_items - 1, n_negatives)
    rows, full_sum, sampled_sum = [], RunningSum(), RunningSum()
    for user, r in enumerate(ranks, start=1):
        expected = RunningSum()
        for m in range(min(k, r, n_negatives + 1)):
            p = Rational(comb(r - 1, m) * comb(n_items - r, n_negatives - m), total_draws)
            if p:
                expected.add(p * _at_rank(metric, m + 1, k))
        full = _at_rank(metric, r, k)
        rows.append({"user": user, "full_rank": r, "full": full, "sampled": expected.value()})
        full_sum.add(full)
        sampled_sum.add(expected.value())
    n = len(rows)
    name = ("HR@{k}" if metric == "hit_rate" else "NDCG@{k}").format(k=k)
    return Explanation(
        metric="sampled_metric", name=f"E[{name}] ({n_negatives} sampled)", exact=sampled_sum.value() / n,
        columns=(Column("user", "user"), Column("full_rank", "rank among all items"),
                 Column("full", "on all items", exact=False),
                 Column("sampled", "sampled (expected)", exact=False)),
        steps=tuple(rows),
        params={"metric": metric, "k": k, "n_items": n_items, "n_negatives": n_negatives,
                "full": full_sum.value() / n},
        formula=r"\mathbb{E}[\mathrm{metric}] = \frac{1}{|U|}\sum_u \sum_{m<k} "
                r"\frac{\binom{r_u-1}{m}\binom{N-r_u}{n-m}}{\binom{N-1}{n}}\,\mathrm{metric}(m+1)",
        notes=(SAMPLED_METRICS[metric],),
    )


__all__ = ["SAMPLED_METRICS", "sampled_metric"]
