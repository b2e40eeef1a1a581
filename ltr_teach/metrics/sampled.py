"""Sampled metrics of top-N recommendation: what ranking the target among a few sampled negatives does.

Many recommender papers rank each user's held-out item not among the whole catalogue but among
``n_negatives`` (often 100) randomly sampled items, and report HR@k or NDCG@k of that small list.
Krichene & Rendle ("On Sampled Metrics for Item Recommendation", KDD 2020) showed that this can
change which of two systems wins. :func:`sampled_metric` computes the sampled metric's *expected*
value exactly: the number of sampled negatives that outrank the target is hypergeometric.
"""

from __future__ import annotations

import math
from collections import Counter
from math import comb

import sympy
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


#: The most negatives sampled: the probabilities are fractions over C(n_items - 1, n_negatives) (21,000 bits for
#: 1,000 of 10^9 items).
MAX_NEGATIVES = 1_000
#: The largest C(n_items - 1, n_negatives), in bits, the probabilities' common denominator (12,000 bits, about 3,600
#: digits: 100 negatives of 10^9 items take 2,470, 1,000 of 10^6 items 11,400).
MAX_DRAW_BITS = 12_000
#: The most different full ranks: each needs its own exact sum.
MAX_DISTINCT_RANKS = {"hit_rate": 1_000, "ndcg": 300}


def _over_total(counts, total: int):
    """sum_m counts[m] / (total·log2(m + 2)): NDCG's expectation, its fractions reduced once each."""
    terms = [Rational(c, total) / log2(m + 2) for m, c in enumerate(counts) if c]
    return sympy.Add(*terms) if terms else Integer(0)


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
        and its ``sampled`` expectation; ``.param("full")`` is the mean on the full catalogue.

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
    if n_negatives > MAX_NEGATIVES:
        raise ValueError(f"n_negatives = {n_negatives} is too many for the exact expectation: at most {MAX_NEGATIVES} "
                         "(its probabilities are fractions over C(n_items - 1, n_negatives), thousands of digits "
                         "long; sampled evaluations use 100 or so)")
    ranks = []
    for i, r in enumerate(as_sequence(full_ranks, "full_ranks", limit=10_000)):
        if isinstance(r, bool) or not isinstance(r, int) and not (hasattr(r, "is_integer") and float(r).is_integer()):
            raise ValueError(f"full_ranks[{i}] = {r!r} is not a whole number; ranks are 1, 2, ..., n_items")
        r = int(r)
        if not 1 <= r <= n_items:
            raise ValueError(f"full_ranks[{i}] = {r} is outside 1..n_items = 1..{n_items}")
        ranks.append(r)
    distinct = sorted(set(ranks))
    limit = MAX_DISTINCT_RANKS[metric]
    if len(distinct) > limit:
        raise ValueError(f"full_ranks holds {len(distinct)} different ranks; the exact {metric} expectation takes at "
                         f"most {limit} (one exact sum per rank)")
    # the size of C(N-1, n) from lgamma before computing it (C(10^9, 5·10^8) would take minutes)
    bits = (math.lgamma(n_items) - math.lgamma(n_negatives + 1) - math.lgamma(n_items - n_negatives)) / math.log(2)
    if bits > MAX_DRAW_BITS:
        raise ValueError(f"n_negatives = {n_negatives} of n_items = {n_items} is too much for the exact expectation: "
                         f"its probabilities are fractions over C(n_items - 1, n_negatives), about {bits * 0.30103:.0f} "
                         f"digits; at most {MAX_DRAW_BITS} bits (about {MAX_DRAW_BITS * 0.30103:.0f} digits)")
    total_draws = comb(n_items - 1, n_negatives)
    # P(m sampled items above rank r) = T_m / C(N-1, n) with T_m = C(r-1, m)·C(N-r, n-m): whole numbers, each from
    # the one before (T_{m+1}·(m+1)·(N-r-n+m+1) = T_m·(r-1-m)·(n-m)), one binomial per distinct rank
    terms = {}
    for r in distinct:
        top = min(k, r, n_negatives + 1)
        first = max(0, n_negatives - (n_items - r))  # below it C(N-r, n-m) is 0: too few items under rank r
        row = [0] * min(first, top)
        if first < top:
            t = comb(r - 1, first) * comb(n_items - r, n_negatives - first)
            for m in range(first, top):
                row.append(t)
                t = t * (r - 1 - m) * (n_negatives - m) // ((m + 1) * (n_items - r - n_negatives + m + 1))
        terms[r] = row
    # one fraction per distinct rank: the whole numbers added first (a gcd of two 20,000-bit numbers costs 1 ms)
    if metric == "hit_rate":
        values = {r: Rational(sum(row), total_draws) for r, row in terms.items()}
    else:
        values = {r: _over_total(row, total_draws) for r, row in terms.items()}
    rows, full_sum = [], RunningSum()
    for user, r in enumerate(ranks, start=1):
        full = _at_rank(metric, r, k)
        rows.append({"user": user, "full_rank": r, "full": full, "sampled": values[r]})
    counts = Counter(ranks)
    for r in distinct:
        full_sum.add(_at_rank(metric, r, k) * counts[r])
    # the mean over users: for each m, the whole numbers of all users added, one fraction per m
    per_m = [sum(counts[r] * row[m] for r, row in terms.items() if m < len(row)) for m in range(k)]
    if metric == "hit_rate":
        sampled_total = Rational(sum(per_m), total_draws)
    else:
        sampled_total = _over_total(per_m, total_draws)
    n = len(rows)
    name = ("HR@{k}" if metric == "hit_rate" else "NDCG@{k}").format(k=k)
    return Explanation(
        metric="sampled_metric", name=f"E[{name}] ({n_negatives} sampled)", exact=sampled_total / n,
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
