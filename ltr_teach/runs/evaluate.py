"""Evaluate a whole run against qrels, fast, under any tool's convention.

This is the bulk evaluator: NumPy and floats, many queries at once. Each query's number equals the
exact step-by-step library's (``lt.ndcg(..., scores=, docids=, ideal=, convention=)``) to rounding
error, which ``tests/test_evaluate.py`` checks on random queries; use the exact functions to explain
one query, and this to score a run.

Which queries are averaged (``Evaluation.queries``):

* queries in the run but not in the qrels are ignored (every tool does so);
* queries in the qrels but not in the run are left out under ``trec_eval`` (as trec_eval without
  ``-c`` and pytrec_eval) and scored 0 under ``ir_measures`` and ``gdeval`` (as ir_measures, and
  trec_eval with ``-c``); ``missing=`` chooses explicitly;
* queries whose judgments are all 0 stay in and score 0 (LightGBM and XGBoost: NDCG and MAP 1);
* AUC is undefined for a query whose retrieved documents are all relevant or all not: it is NaN
  and left out of AUC's mean.
"""

from __future__ import annotations

import functools
import math
import numbers
import os
import re
import sys
from collections import deque
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import chain, islice, repeat
from operator import attrgetter, itemgetter

import numpy as np

from ..core.i18n import N_, Message
from ..core.plain import _brief, fmt_decimal
from ..core.validate import MAX_COUNT, as_choice, as_count
from ..metrics.conventions import CONVENTIONS, get_convention
from ..metrics.gains import DISCOUNTS, GAINS, gain_table
from ..metrics.registry import BULK_NAMES, bulk_lookup
from .tables import as_mapping
from .trec import _read_lines as read_lines
from .trec import read_columns, read_qrels

#: Metric names ``evaluate`` accepts: ``name`` or ``name@k``, derived from the registry's bulk entries
#: (``lt.METRICS[...].bulk``); every alias of an entry (``ap``, ``precision``, ``rr`` ...) works too.
METRIC_NAMES = BULK_NAMES
_METRIC = re.compile(r"^(?P<name>[a-z0-9_]+?)(\.(?P<param>[^@]+))?(@(?P<at>[0-9.]+))?$")
#: Cells (queries x longest ranking) of one batch read from a run file: bounds the memory of the dense steps.
#: Measured on 7,000 queries x 1,000 documents: 2^16 cells took no longer than 400,000 and kept the peak
#: resident memory 40 MB lower (each batch's arrays come back to the allocator before the next).
_BATCH_ITEMS = 65_536
#: Cells of one batch from dicts: 2^16 cells, half a megabyte per float array, stay in the CPU's cache and in
#: heap memory the allocator hands back at once. Measured on 5,000 queries x 100 documents: batches of 200,000
#: cells were 10-15% slower, with thousands of fresh pages faulted in per call; 20,000 to 100,000 were alike.
_DICT_BATCH_CELLS = 65_536
#: The grade look-ups' mark of an unjudged document when every grade is a whole number below it (:class:`_Pools`).
_UNJUDGED_BYTE = 255
MISSING_RULES = {"skip": N_("left out of the mean"), "zero": N_("scored 0 and averaged")}


@dataclass(frozen=True)
class MetricSpec:
    """One metric as ``evaluate`` reads it: ``"ndcg.1=3,2=9@10"`` -> name ndcg, k 10, parameter "1=3,2=9"."""

    text: str
    name: str
    k: int | None
    parameter: str | None = None
    recall: float | None = None


def parse_measure(text: str) -> MetricSpec:
    """A metric text as :class:`MetricSpec`; ``ValueError`` naming what is wrong and the names allowed.

    Examples
    --------
    >>> parse_measure("ndcg.1=3,2=9@10")
    MetricSpec(text='ndcg.1=3,2=9@10', name='ndcg', k=10, parameter='1=3,2=9', recall=None)
    >>> parse_measure("AP@5").name   # an alias of the registry: AP is averaged into MAP
    'map'
    """
    if isinstance(text, str) and len(text) > 100:
        raise ValueError(f"metric {text[:40]!r}... is {len(text)} characters long; a metric name has at most 100 "
                         f"(one of {', '.join(METRIC_NAMES)}, optionally @k, e.g. ndcg@10)")
    m = _METRIC.match(text.strip().lower()) if isinstance(text, str) else None
    if not m:
        raise ValueError(f"metric {text!r} is not one of {', '.join(METRIC_NAMES)} (optionally @k, e.g. ndcg@10)")
    try:
        bulk = bulk_lookup(m.group("name")).bulk
    except ValueError:
        raise ValueError(f"metric {text!r} is not one of {', '.join(METRIC_NAMES)} (optionally @k, e.g. ndcg@10)"
                         ) from None
    at, parameter = m.group("at"), m.group("param")
    if parameter is not None and bulk.parameter is None:
        raise ValueError(f"metric {text!r}: {bulk.name} takes no .parameter")
    if bulk.at == "recall":
        if at is None:
            raise ValueError(f"metric {text!r} needs a recall level, e.g. {bulk.name}@0.3")
        try:
            level = float(at)
        except ValueError:
            raise ValueError(f"metric {text!r}: the recall level must be one number in [0, 1], e.g. "
                             f"{bulk.name}@0.3") from None
        if not 0 <= level <= 1:
            raise ValueError(f"metric {text!r}: the recall level must lie in [0, 1]")
        return MetricSpec(text.strip().lower(), bulk.name, None, parameter, level)
    if at is not None and not at.isdigit():
        raise ValueError(f"metric {text!r}: the cut-off k must be a whole number >= 1")
    if at is not None and len(at.lstrip("0")) > 10:
        raise ValueError(f"metric {text!r}: the cut-off k must be a whole number from 1 to {MAX_COUNT}")
    k = int(at) if at is not None else None
    if k is not None and k < 1:
        raise ValueError(f"metric {text!r}: the cut-off k must be >= 1")
    if k is not None and k > MAX_COUNT:
        raise ValueError(f"metric {text!r}: the cut-off k must be a whole number from 1 to {MAX_COUNT}")
    if bulk.at == "required" and k is None:
        raise ValueError(f"metric {text!r} needs a cut-off, e.g. {bulk.name}@10")
    if bulk.at == "none" and k is not None:
        raise ValueError(f"metric {text!r}: {bulk.name} takes no cut-off")
    return MetricSpec(text.strip().lower(), bulk.name, k, parameter)


def parse_metric(text: str) -> tuple[str, int | None]:
    """``"ndcg@10"`` -> ``("ndcg", 10)``; ``ValueError`` listing the names for anything else.

    Parameters
    ----------
    text : str
        A metric name of ``METRIC_NAMES`` or any registry name or alias of a metric ``lt.evaluate``
        computes, optionally ``@k``; case and surrounding blanks do not matter.

    Returns
    -------
    tuple
        The name ``lt.evaluate`` prints and the cut-off ``k`` (``None`` without one).

    Examples
    --------
    >>> parse_metric(" NDCG@10 "), parse_metric("map"), parse_metric("precision@5")
    (('ndcg', 10), ('map', None), ('p', 5))
    >>> parse_metric("ndcg@0")
    Traceback (most recent call last):
    ...
    ValueError: metric 'ndcg@0': the cut-off k must be >= 1
    """
    spec = parse_measure(text)
    return spec.name, spec.k


@dataclass(frozen=True)
class Evaluation:
    """The result of :func:`evaluate`.

    Attributes
    ----------
    per_query : dict
        ``{qid: {metric: float}}`` for every averaged query, in sorted query order.
    mean : dict
        ``{metric: float}``: the mean over :attr:`queries` (AUC: over queries where it is defined).
    queries : tuple of str
        The queries averaged.
    ignored : tuple of str
        Run queries without judgments (ignored) and, when ``missing="skip"``, judged queries
        absent from the run.
    convention : str
    metrics : tuple of str
    """

    per_query: dict
    mean: dict
    queries: tuple
    ignored: tuple
    convention: str
    metrics: tuple
    notes: tuple = field(default=())

    def table(self, per_query: bool = False) -> str:
        """A trec_eval-like table: ``metric  qid|all  value`` with four decimals."""
        width = max(22, *(len(m) for m in self.metrics))  # trec_eval prints "%-22s\t%s\t%6.4f"
        lines = []
        if per_query:
            for qid, values in self.per_query.items():
                lines += [f"{m.ljust(width)}\t{qid}\t{_four(values[m])}" for m in self.metrics]
        lines.append(f"{'num_q'.ljust(width)}\tall\t{len(self.queries)}")
        lines += [f"{m.ljust(width)}\tall\t{_four(self.mean[m])}" for m in self.metrics]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()

    def __repr__(self) -> str:
        means = ", ".join(f"{m}={fmt_decimal(v, 4)}" for m, v in self.mean.items())
        return f"<Evaluation {self.convention}: {len(self.queries)} queries, {means}>"


def _four(x: float) -> str:
    return "nan" if math.isnan(x) else f"{x:.4f}"


class _Progress:
    """A one-line progress bar on stderr, drawn only when asked or when stderr is a terminal."""

    def __init__(self, total: int, enabled):
        self.total = total
        self.enabled = (sys.stderr.isatty() and total >= 2000) if enabled is None else bool(enabled)

    def update(self, done: int) -> None:
        if self.enabled:
            filled = int(30 * done / max(self.total, 1))
            sys.stderr.write(f"\revaluating [{'#' * filled}{'.' * (30 - filled)}] {done}/{self.total} queries")
            if done >= self.total:
                sys.stderr.write("\n")
            sys.stderr.flush()


def _rank_within(q_of: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """0-based position of each flat item inside its query, for items grouped by query."""
    return np.arange(len(q_of)) - starts[q_of]


def _order_chunk(qids, qrels, run, ties, threshold, with_judged=False, pooled=None):
    """Flat arrays of the chunk's retrieved documents in ranked order, and the judged pools; with
    ``with_judged`` also whether each retrieved document is judged (bpref, judged@k, the RBP residual).
    ``pooled``: the pools already read for the whole evaluation (:class:`_Pools`)."""
    ranked = list(map(run.get, qids, repeat({})))
    n_ranked = np.fromiter(map(len, ranked), dtype=np.int64, count=len(qids))
    q_of = np.repeat(np.arange(len(qids)), n_ranked)
    total = int(n_ranked.sum())
    judged = list(map(qrels.__getitem__, qids))
    if pooled is not None:
        pools, pool_of = pooled.of(qids)
    else:
        n_judged = np.fromiter(map(len, judged), dtype=np.int64, count=len(qids))
        pool_of = np.repeat(np.arange(len(qids)), n_judged)
        # chain + fromiter keeps the per-document work in C: these passes are most of evaluate's time
        pools = _numbers(lambda: chain.from_iterable(map(dict.values, judged)), len(pool_of),
                         lambda i: f"qrels[{qids[pool_of[i]]!r}]", "grade")
    scores = _numbers(lambda: chain.from_iterable(map(dict.values, ranked)), total,
                      lambda i: f"run[{qids[q_of[i]]!r}]", "score")
    # each document's grade, or a mark when unjudged (kept apart from a judged 0 for the tie step below): 255
    # read by bytes() when every grade is a whole number below it (see _Pools), else -inf read as floats; the
    # grades are finite numbers (the pools above hold every grade of these queries, checked)
    # (map(map, ...) calls map(j.get, r, repeat(mark)) per query without a generator; the one repeat is endless)
    small = pooled is not None and pooled.small
    mark = _UNJUDGED_BYTE if small else -math.inf
    lookups = chain.from_iterable(map(map, map(attrgetter("get"), judged), ranked, repeat(repeat(mark))))
    judgment = (np.frombuffer(bytes(lookups), dtype=np.uint8) if small
                else np.fromiter(lookups, dtype=np.float64, count=total))
    unjudged = judgment == mark
    grades = np.where(unjudged, 0.0, judgment)  # an unjudged document counts as grade 0
    if ties == "pessimistic":
        order = np.lexsort((grades, -scores, q_of))
    elif ties == "optimistic":
        order = np.lexsort((-grades, -scores, q_of))
    else:
        # under docid_desc every tie whose documents differ is sorted again below: its first order is free
        order = _by_score(scores, q_of, n_ranked, stable=ties != "docid_desc")
    # every order above sorts by query first: the queries stay where they were (q_of[order] is q_of)
    starts = _starts(n_ranked)
    s_sorted = scores[order]
    new_group = np.empty(len(order), dtype=bool)
    np.not_equal(s_sorted[1:], s_sorted[:-1], out=new_group[1:])
    new_group[starts[n_ranked > 0]] = True  # a query's first document starts a group ...
    new_group[:1] = False  # ... but the first group is numbered 0
    group = np.cumsum(new_group)
    if ties == "docid_desc" and len(group):
        # Only a tie whose documents differ in what is returned (the grade, and whether judged when that
        # is asked) can change a value: reorder just those groups, by (group, docid descending) in one
        # lexsort. Python compares str by code point, the same order as trec_eval's strcmp on UTF-8 bytes.
        in_order = (judgment if with_judged else grades)[order]
        mixed = np.zeros(int(group[-1]) + 1, dtype=bool)  # each group is a contiguous run of the order
        mixed[group[1:][(in_order[1:] != in_order[:-1]) & ~new_group[1:]]] = True
        tied_pos = np.flatnonzero(mixed[group])
        if len(tied_pos):
            order[tied_pos] = _by_docid_desc(order[tied_pos], group[tied_pos], q_of, starts, ranked)
    judged_flags = ~unjudged[order] if with_judged else None
    return q_of, grades[order], group, pools, pool_of, judged_flags


def _by_docid_desc(items, groups, q_of, starts, ranked):
    """``items`` (flat input positions, grouped by tie ``groups`` in ranked order) reordered by (group,
    docid descending). Only the ids of the queries holding such a tie are read, each up to its last tied
    document (a dict's keys are reached by walking them)."""
    tied_q = q_of[items]  # non-decreasing: the ties follow the ranked order, query after query
    within = items - starts[tied_q]  # each tied item's position among its query's documents
    new_query = np.ones(len(items), dtype=bool)
    new_query[1:] = tied_q[1:] != tied_q[:-1]
    query_starts = np.flatnonzero(new_query)
    stop = np.maximum.reduceat(within, query_starts) + 1  # the ids of a query read, up to its last tied item
    first = np.zeros(len(stop), dtype=np.int64)
    first[1:] = np.cumsum(stop)[:-1]
    docs = list(chain.from_iterable(map(islice, map(ranked.__getitem__, tied_q[query_starts].tolist()),
                                        stop.tolist())))
    at = first[np.cumsum(new_query) - 1] + within
    tied_docs = np.array(itemgetter(*at.tolist())(docs))  # a tie has two or more items
    _, doc_rank = np.unique(tied_docs, return_inverse=True)
    # one integer key, group ascending then docid descending; a docid is unique in its group's query
    key = groups * len(tied_docs) + (len(tied_docs) - 1 - doc_rank.reshape(-1))
    return items[np.argsort(key)]


def _by_score(scores, q_of, n_ranked, stable=True):
    """The order of ``np.lexsort((-scores, q_of))`` for items grouped by query: score descending within
    each query, ties in input order. Short rankings are sorted row by row in a matrix (many small sorts
    are cheaper than one lexsort of everything). ``stable=False`` leaves the order inside a tie to the
    sort, for a caller that reorders or ignores it (a quicksort of short rows is much faster)."""
    n_q = len(n_ranked)
    width = int(n_ranked.max()) if n_q else 0
    if n_q == 0 or n_q * width > 2 * len(scores) + 1024:
        return np.lexsort((-scores, q_of))
    kind = "stable" if stable else None
    starts = _starts(n_ranked)
    if n_q * width == len(scores):  # every ranking has the same length: the flat array is the matrix
        order = np.argsort(-scores.reshape(n_q, width), axis=1, kind=kind)
        order += starts[:, None]
        return order.reshape(-1)
    held = np.arange(width) < n_ranked[:, None]  # the cells holding a document, row by row in the flat order
    padded = np.full((n_q, width), np.inf)  # scores are finite: the padding sorts after every document
    padded[held] = -scores
    within = np.argsort(padded, axis=1, kind=kind)
    within += starts[:, None]
    return within[held]


class _Pools:
    """Every grade of the qrels read once into one array (a pass per chunk costs more); ``of(qids)``
    gives a chunk's pools and the query of each. Built only when every grade is a finite number; else
    each chunk reads its own and names the first bad grade in its queries' order, as before.

    ``small``: every grade is a whole number from 0 to 254 (TREC's 0-4, and -1/-2 once dropped). Such
    grades are read by ``bytes()``, which converts and checks them (it refuses text, None, fractions
    and anything outside 0-255) in one C pass, about twice as fast as NumPy reading Python ints; and
    255 is then free to mark an unjudged document in the grade look-ups (:func:`_order_chunk`)."""

    def __init__(self, qrels: dict):
        sizes = np.fromiter(map(len, qrels.values()), dtype=np.int64, count=len(qrels))
        try:
            small = np.frombuffer(bytes(chain.from_iterable(map(dict.values, qrels.values()))), dtype=np.uint8)
        except (TypeError, ValueError):  # not all whole numbers in 0-255: read as floats
            small = None
        self.small = small is not None and not (small == _UNJUDGED_BYTE).any()
        self.grades = (small.astype(np.float64) if small is not None
                       else np.fromiter(chain.from_iterable(map(dict.values, qrels.values())), dtype=np.float64,
                                        count=int(sizes.sum())))
        ends = np.cumsum(sizes)
        self.qrels = qrels
        self.first = dict(zip(qrels, (ends - sizes).tolist()))
        self.size = dict(zip(qrels, sizes.tolist()))

    @classmethod
    def read(cls, qrels: dict):
        try:
            pools = cls(qrels)
        except (TypeError, ValueError, OverflowError):
            return None
        return pools if np.isfinite(pools.grades).all() else None

    def of(self, qids):
        firsts = np.fromiter(map(self.first.__getitem__, qids), dtype=np.int64, count=len(qids))
        sizes = np.fromiter(map(self.size.__getitem__, qids), dtype=np.int64, count=len(qids))
        pool_of = np.repeat(np.arange(len(qids)), sizes)
        offsets = np.zeros(len(qids), dtype=np.int64)
        offsets[1:] = np.cumsum(sizes)[:-1]
        at = np.arange(len(pool_of)) - offsets[pool_of] + firsts[pool_of]
        return self.grades[at], pool_of


def _starts(counts: np.ndarray) -> np.ndarray:
    """Where each query's items start in a flat array grouped by query, from the items per query."""
    starts = np.zeros(len(counts), dtype=np.int64)
    starts[1:] = np.cumsum(counts)[:-1]
    return starts


class _Chunk:
    """The dense per-query matrices of one chunk of queries, in ranked order (rows: queries, columns: ranks).

    The flat arrays (``q_of``, ``grades``, ...) list each query's documents in ranked order, query after
    query; a matrix is filled from them through the mask of the cells that hold a document (``valid``),
    which puts the flat order into the matrix row by row: no index pair per document."""

    def __init__(self, qids, qrels, run, conv, settings, with_judged, ordered=None, pooled=None):
        n_q = len(qids)
        ties, threshold = settings["ties"], settings["threshold"]
        # ``ordered``: the same arrays, already built from a run file's columns (:func:`_order_columns`)
        q_of, grades, group, pools, pool_of, judged = ordered or _order_chunk(qids, qrels, run, ties, threshold,
                                                                              with_judged, pooled)
        counts = np.bincount(q_of, minlength=n_q)
        if settings.get("depth") is not None or settings.get("judged_only"):
            # trec_eval cuts at -M in its ranked order first, then -J drops the unjudged documents
            keep = np.ones(len(q_of), dtype=bool)
            if settings.get("depth") is not None:
                keep = _rank_within(q_of, _starts(counts)) < settings["depth"]
            if settings.get("judged_only"):
                keep &= judged
            q_of, grades, group = q_of[keep], grades[keep], group[keep]
            judged = None if judged is None else judged[keep]
            counts = np.bincount(q_of, minlength=n_q)
        self.n_q, self.q_of, self.grades, self.group = n_q, q_of, grades, group
        self.conv, self.settings, self.threshold = conv, settings, threshold
        self.width = width = max(int(counts.max()) if n_q else 0, 1)
        self.n_ranked = counts
        # the judged pool of each query, kept for the ideal lists; negative grades count as not relevant
        self.pools, self.pool_of = pools, pool_of
        p_counts = np.bincount(pool_of, minlength=n_q)
        self.n_relevant = np.bincount(pool_of[pools >= threshold], minlength=n_q).astype(np.float64)
        self.n_nonrelevant = (p_counts - self.n_relevant).astype(np.float64)  # every grade is a finite number
        self.p_counts = p_counts
        if conv.ideal == "list":  # the tool sees only the ranked list: relevant documents it missed do not exist
            self.n_relevant = np.bincount(q_of[grades >= threshold], minlength=n_q).astype(np.float64)
        self.full = len(q_of) == n_q * width  # every ranking is as long as the longest: no padding
        self.valid = np.arange(width) < counts[:, None]
        self.g_mat = self.dense(grades)
        self.rel = (self.g_mat >= threshold) if self.full else (self.g_mat >= threshold) & self.valid
        self.ranks = np.arange(1, width + 1, dtype=np.float64)
        self.judged = None if judged is None else self.dense(judged, fill=False)

    def dense(self, values, fill=0.0):
        """The flat per-document ``values`` as a queries x ranks matrix, ``fill`` where a ranking is shorter."""
        if self.full:
            return values.reshape(self.n_q, self.width)
        out = np.full((self.n_q, self.width), fill, dtype=values.dtype)
        out[self.valid] = values
        return out

    @functools.cached_property
    def hits(self):
        """Relevant documents at or above each rank."""
        return np.cumsum(self.rel, axis=1)

    @functools.cached_property
    def rank0(self):
        """Each flat document's 0-based rank in its query."""
        return _rank_within(self.q_of, _starts(self.n_ranked))

    def cut(self, k):
        return self.width if k is None else min(k, self.width)

    def gain(self, spec):
        return gain_table(spec.parameter) if spec.parameter else GAINS[self.settings["gain"]]

    def dcg(self, spec):
        gain, disc = self.gain(spec), DISCOUNTS[self.settings["discount"]]
        cut = self.cut(spec.k)
        if self.settings["ties"] == "average":
            gains = gain.array(self.grades)
            gains = (np.bincount(self.group, weights=gains) / np.bincount(self.group))[self.group]
            gain_mat = self.dense(gains)[:, :cut]
        else:  # the gains of the first ``cut`` ranks only; a padded cell has no gain (a table may give grade 0 one)
            gain_mat = gain.array(self.g_mat[:, :cut])
            if not self.full:
                gain_mat = np.where(self.valid[:, :cut], gain_mat, 0.0)
        return (gain_mat / disc.array(self.ranks[:cut])).sum(axis=1)

    def idcg(self, spec):
        gain, disc = self.gain(spec), DISCOUNTS[self.settings["discount"]]
        if self.conv.ideal == "pool":
            # the pools are grouped by query: one row each, sorted best gain first, as trec_eval sorts its levels
            ideal_w = max(int(self.p_counts.max()) if self.n_q else 0, 1)
            negated = np.full((self.n_q, ideal_w), np.inf)  # the padding sorts last
            negated[np.arange(ideal_w) < self.p_counts[:, None]] = -gain.array(self.pools)
        else:
            ideal_w = self.width
            negated = -gain.array(self.g_mat) * self.valid
        icut = ideal_w if spec.k is None else min(spec.k, ideal_w)
        if icut < ideal_w:  # the best icut gains of each row, found without sorting the rest of the row
            negated = np.partition(negated, icut - 1, axis=1)[:, :icut]
        ideal = -np.sort(negated, axis=1)
        if self.conv.ideal == "pool":
            ideal[np.arange(icut) >= self.p_counts[:, None]] = 0.0  # the padding, sorted last: no gain
        return (ideal / disc.array(np.arange(1, icut + 1, dtype=np.float64))).sum(axis=1)


def _ndcg(c, spec):
    dcg, idcg = c.dcg(spec), c.idcg(spec)
    empty = {"zero": 0.0, "one": 1.0, "nan": math.nan, "raise": math.nan}[c.settings["zero"]]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(idcg > 0, dcg / np.where(idcg > 0, idcg, 1.0), empty)


def _map(c, spec):
    if c.settings["ties"] == "average" and not c.conv.binary_ties:
        return _map_tied_blocks(c)
    cut = c.cut(spec.k)
    prec = np.where(c.rel[:, :cut], c.hits[:, :cut] / c.ranks[:cut], 0.0).sum(axis=1)
    if c.conv.ap_divisor == "min(relevant, k)" and spec.k is not None:
        divisor = np.minimum(c.n_relevant, spec.k)
    elif c.conv.ap_divisor == "hits":
        divisor = c.hits[:, cut - 1]
    else:
        divisor = c.n_relevant
    empty = 1.0 if c.settings["zero"] == "one" else 0.0
    return np.where(divisor > 0, prec / np.maximum(divisor, 1), empty)


def _map_tied_blocks(c):
    """scikit-learn's average_precision_score: each relevant item counts the precision at the end of its
    block of tied scores (a block is one threshold)."""
    relevant = c.grades >= c.threshold
    hits = c.hits[c.q_of, c.rank0]
    ends = np.flatnonzero(np.r_[c.group[1:] != c.group[:-1], True])  # groups are contiguous in ranked order
    end = ends[c.group]
    block_precision = hits[end] / (c.rank0[end] + 1.0)
    total = np.bincount(c.q_of, weights=np.where(relevant, block_precision, 0.0), minlength=c.n_q)
    empty = 1.0 if c.settings["zero"] == "one" else 0.0
    return np.where(c.n_relevant > 0, total / np.maximum(c.n_relevant, 1), empty)


def _mrr(c, spec):
    cut = c.cut(spec.k)
    first = np.argmax(c.rel[:, :cut], axis=1)
    return np.where(c.rel[:, :cut].any(axis=1), 1.0 / (first + 1.0), 0.0)


def _precision(c, spec):
    if c.conv.precision_divisor == "min(k, n)":  # TF-Ranking: a short list is divided by its length
        return c.hits[:, c.cut(spec.k) - 1] / np.maximum(np.minimum(c.n_ranked, spec.k), 1)
    return c.hits[:, c.cut(spec.k) - 1] / spec.k


def _recall(c, spec):
    return np.where(c.n_relevant > 0, c.hits[:, c.cut(spec.k) - 1] / np.maximum(c.n_relevant, 1), 0.0)


def _err(c, spec):
    cut = c.cut(spec.k)
    # (2^g - 1) / 2^g_max written as 2^(g - g_max) - 2^-g_max: no overflow for g_max >= 1024
    g_max = float(c.settings["g_max"])
    stop = (np.exp2(c.g_mat[:, :cut] - g_max) - np.exp2(-g_max)) * c.valid[:, :cut]
    reach = np.cumprod(np.hstack([np.ones((c.n_q, 1)), 1.0 - stop[:, :-1]]), axis=1)
    return (reach * stop / c.ranks[:cut]).sum(axis=1)


def _auc_of(c, spec):
    return _auc(c.q_of, c.grades >= c.threshold, c.group, c.n_q)


def _rprec(c, spec):
    r = c.n_relevant.astype(np.int64)
    at = np.clip(r - 1, 0, c.width - 1)  # beyond the list the hits stop growing
    return np.where(r > 0, c.hits[np.arange(c.n_q), at] / np.maximum(r, 1), 0.0)


def _success(c, spec):
    return (c.hits[:, c.cut(spec.k) - 1] > 0).astype(np.float64)


def _bpref(c, spec):
    # trec_eval's bpref: unjudged documents are skipped; each judged relevant document adds
    # 1 - min(n above, R) / min(N, R), n counting the judged non-relevant documents above it.
    nonrel = c.judged & ~c.rel
    above = np.cumsum(nonrel, axis=1)  # at a relevant rank this counts the non-relevant strictly above
    r = c.n_relevant[:, None]
    denominator = np.minimum(c.n_nonrelevant[:, None], r)
    with np.errstate(invalid="ignore", divide="ignore"):
        term = np.where(above > 0, 1.0 - np.minimum(above, r) / np.where(denominator > 0, denominator, 1.0), 1.0)
    total = np.where(c.rel & c.judged, term, 0.0).sum(axis=1)
    return np.where(c.n_relevant > 0, total / np.maximum(c.n_relevant, 1), 0.0)


def _judged(c, spec):
    cut = c.cut(spec.k)
    shown = np.minimum(c.n_ranked, cut)
    return np.where(shown > 0, c.judged[:, :cut].sum(axis=1) / np.maximum(shown, 1), 0.0)


def _persistence(spec) -> float:
    if spec.parameter is None:
        return 0.8
    try:
        p = float(spec.parameter)
    except ValueError:
        p = math.nan
    if not 0 < p < 1:
        raise ValueError(f"metric {spec.text!r}: the persistence p must be a number strictly between 0 and 1")
    return p


def _rbp(c, spec):
    p, cut = _persistence(spec), c.cut(spec.k)
    if c.settings["rbp_weight"] == "grade":
        weight = np.where(c.rel, c.g_mat, 0.0)
    else:
        weight = c.rel.astype(np.float64)
    return (1 - p) * (weight[:, :cut] * p ** (c.ranks[:cut] - 1)).sum(axis=1)


def _rbp_residual(c, spec):
    p, cut = _persistence(spec), c.cut(spec.k)
    unjudged = c.valid[:, :cut] & ~c.judged[:, :cut]
    depth = np.minimum(c.n_ranked, cut)
    return (1 - p) * (unjudged * p ** (c.ranks[:cut] - 1)).sum(axis=1) + p ** depth


def _needed(c, level: float) -> np.ndarray:
    """Relevant documents each query needs to reach recall ``level`` under the convention's rule."""
    r = c.n_relevant.astype(np.int64)
    rule = c.settings["rule"]
    if rule == "textbook":
        exact = Fraction(str(level))  # the level as typed, exactly: ceil(r·R) without rounding error
        return -((-exact.numerator * r) // exact.denominator)
    x = level * r.astype(np.float64)  # trec_eval multiplies in double precision
    if rule == "trec_eval_9":
        return (x + 0.9).astype(np.int64)
    return (np.floor(x) + (x - np.floor(x) >= 0.5)).astype(np.int64)  # lround


def _interpolated(c, level: float) -> np.ndarray:
    precision = np.where(c.valid, c.hits / c.ranks, 0.0)
    best_below = np.maximum.accumulate(precision[:, ::-1], axis=1)[:, ::-1]  # max precision at rank >= i
    needed = _needed(c, level)
    found = c.hits[:, -1]
    reached = np.argmax(c.hits >= np.maximum(needed, 1)[:, None], axis=1)  # rank of the needed-th hit
    at = np.where(needed > 0, reached, 0)
    return np.where(needed <= found, best_below[np.arange(c.n_q), at], 0.0)


def _iprec(c, spec):
    return _interpolated(c, spec.recall)


def _eleven_point(c, spec):
    return sum(_interpolated(c, j / 10) for j in range(11)) / 11


#: How ``evaluate`` computes each bulk metric of the registry (``lt.METRICS[...].bulk.name``).
_BULK_FUNCTIONS = {
    "ndcg": _ndcg, "dcg": lambda c, spec: c.dcg(spec), "map": _map, "mrr": _mrr, "p": _precision,
    "recall": _recall, "err": _err, "auc": _auc_of, "rprec": _rprec, "success": _success, "bpref": _bpref,
    "judged": _judged, "rbp": _rbp, "rbp_residual": _rbp_residual, "iprec": _iprec, "11pt": _eleven_point,
}
#: Bulk metrics that need to know which retrieved documents are judged.
_NEEDS_JUDGED = ("bpref", "judged", "rbp_residual")


def _needs_judged(parsed, settings) -> bool:
    return settings["judged_only"] or any(s.name in _NEEDS_JUDGED for s in parsed.values())


def _chunk_metrics(qids, qrels, run, parsed, conv, settings, ordered=None, pooled=None):
    chunk = _Chunk(qids, qrels, run, conv, settings, _needs_judged(parsed, settings), ordered, pooled)
    return {text: _BULK_FUNCTIONS[spec.name](chunk, spec) for text, spec in parsed.items()}


def _auc(q_of, positive, group, n_q):
    # Items are in ranked order (score descending). A positive beats every negative in later groups
    # and ties with the negatives of its own group.
    neg = (~positive).astype(np.float64)
    neg_in_group = np.bincount(group, weights=neg)
    neg_total = np.bincount(q_of, weights=neg, minlength=n_q)
    # negatives strictly above each item's group: cumulative within the query, minus the group's own
    neg_through_group = np.cumsum(neg_in_group)[group]
    first_group = np.zeros(n_q, dtype=np.int64)
    first_group[np.unique(q_of)] = group[np.unique(q_of, return_index=True)[1]]
    before_query = np.where(first_group[q_of] > 0, np.cumsum(neg_in_group)[first_group[q_of] - 1], 0.0)
    neg_above = neg_through_group - neg_in_group[group] - before_query
    below = neg_total[q_of] - neg_above - neg_in_group[group]
    credit = np.where(positive, below + neg_in_group[group] / 2.0, 0.0)
    pos_total = np.bincount(q_of, weights=positive.astype(np.float64), minlength=n_q)
    pairs = pos_total * neg_total
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(pairs > 0, np.bincount(q_of, weights=credit, minlength=n_q) / np.where(pairs > 0, pairs, 1),
                        math.nan)


def _without_negative_grades(qrels: dict) -> dict:
    """The qrels without negative judgments: trec_eval reads a negative grade as "in the pool but
    unjudged" (form_res_rels.c), neither relevant nor judged non-relevant; pytrec_eval agrees."""
    def negative(g):
        return isinstance(g, (int, float)) and not isinstance(g, bool) and g < 0

    if _no_negative_grade(qrels):
        return qrels
    if not any(negative(g) for judged in qrels.values() for g in judged.values()):
        return qrels
    return {q: {d: g for d, g in judged.items() if not negative(g)} for q, judged in qrels.items()}


def _refuse_negative_grades(qrels: dict, convention: str) -> None:
    """A negative grade has no meaning under a tool that does not read TREC's -1/-2: say so, never clip it."""
    if _no_negative_grade(qrels):
        return
    for qid, judged in qrels.items():
        for docid, g in judged.items():
            if isinstance(g, (int, float)) and not isinstance(g, bool) and g < 0:
                raise ValueError(f"qrels[{qid!r}]: grade {g!r} is not allowed under convention {convention!r} "
                                 f"(document {docid!r}); grades must be >= 0 (trec_eval's conventions read -1 and -2 "
                                 "as in the pool but unjudged: use convention='trec_eval')")


def _no_negative_grade(qrels: dict) -> bool:
    """True when no grade is below 0, found by ``min`` in C instead of a Python test per grade; False
    also when that cannot tell (a NaN can hide a smaller value from ``min``, a value may not compare),
    and the callers then look at every grade."""
    try:
        lowest = min(map(min, filter(None, map(dict.values, qrels.values()))), default=0)
        return bool(lowest >= 0)
    except Exception:  # noqa: BLE001 - any failure only means "look the slow way"
        return False


def _flag(value, name: str) -> bool:
    """A True/False option (NumPy's bool too); ``"yes"`` or 1 is refused rather than read as true."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise ValueError(f"{name} must be True or False; got {_brief(value)}")


def _as_dict(data, what: str, reader) -> dict:
    if isinstance(data, dict):
        return data
    if not isinstance(data, (str, os.PathLike)):
        raise ValueError(f"{what} must be a dict or the path of a TREC {what} file; got {_brief(data)}")
    return reader(data)


def _numbers(values, count: int, where, what: str) -> np.ndarray:
    """A float array from ``values()`` (a fresh iterator each call); ``ValueError`` naming the first bad
    value (``where(i)`` says where) for non-numbers, NaN, infinities and numbers beyond a double."""
    try:
        array = np.fromiter(values(), dtype=np.float64, count=count)
    except (TypeError, ValueError, OverflowError):
        array = None
    if array is None or not np.isfinite(array).all():
        for i, v in enumerate(values()):
            try:
                bad = isinstance(v, (str, bytes)) or not math.isfinite(float(v))
            except (TypeError, ValueError, OverflowError):
                bad = True
            if bad:
                shown = repr(v) if len(repr(v)) <= 40 else repr(v)[:37] + "..."
                raise ValueError(f"{where(i)}: {what} {shown} is not allowed; {what}s must be finite numbers "
                                 "(within a double's range)")
    return array


def evaluate(qrels, run, metrics, convention="trec_eval", missing=None, g_max=None, progress=None,
             chunk_size=2000, *, relevance_level=None, judged_only=False, depth=None) -> Evaluation:
    """Score a run against qrels under one tool's convention.

    Parameters
    ----------
    qrels : dict, path or table
        ``{qid: {docid: grade}}`` or a TREC qrels file (``qid iter docid grade``). Negative grades
        (TREC Web track: -1 non-relevant, -2 spam) count as 0, as in trec_eval. Also a pandas or Polars
        DataFrame, an Arrow table, or a Parquet or Arrow file (columns query, doc, grade:
        :mod:`ltr_teach.runs.tables`).
    run : dict, path or table
        ``{qid: {docid: score}}`` or a TREC run file (``qid Q0 docid rank score tag``; the file rules
        are in :mod:`ltr_teach.runs.trec`), or a table with columns query, doc, score as for ``qrels``. Higher scores rank first; the order of a dict (or the
        file) is the input order for ``"stable"`` ties. Ids are compared as text (document ``1`` in
        the qrels is ``"1"`` in the run) and the result's query ids are strings.
    metrics : str or sequence of str
        Names from :data:`METRIC_NAMES` (or any registry name or alias of those metrics), optionally
        with a cut-off: ``"ndcg@10"``, ``"map"``, ``"mrr"``, ``"p@5"``, ``"recall@100"``, ``"err@20"``,
        ``"auc"``, ``"dcg@10"``, ``"rprec"``, ``"success@10"``, ``"bpref"``, ``"judged@10"``,
        ``"rbp"``, ``"rbp_residual"``, ``"iprec@0.3"`` (a recall level), ``"11pt"``; and a
        ``.parameter`` where trec_eval has one: ``"ndcg.1=3,2=9"`` (per-grade gains),
        ``"rbp.0.95"`` (persistence).
    convention : str
        A key of ``lt.CONVENTIONS``. Its gain, discount, ideal source, tie rule, empty-query rule and
        relevance threshold apply. ``"trec_eval"`` (default) reproduces trec_eval / pytrec_eval.
    missing : {"skip", "zero"}, optional
        Judged queries absent from the run: left out (default under trec_eval) or scored 0
        (default under ir_measures and gdeval, trec_eval's ``-c``).
    g_max : int, optional
        The top grade for ERR; default the convention's (gdeval: 4), else the highest grade in the qrels.
    progress : bool, optional
        Draw progress bars on stderr (reading a run file, then evaluating); default: only when stderr
        is a terminal and the run is long.
    chunk_size : int
        The most queries evaluated per NumPy batch; a batch also keeps near 65,536 cells (queries x
        the longest ranking), which keeps its arrays in the CPU's cache and bounds the memory.
    relevance_level : int >= 1, optional
        The lowest grade that counts as relevant for the binary metrics (trec_eval's ``-l``); default
        the convention's (1). NDCG and DCG use the grades themselves and ignore it, as trec_eval does.
    judged_only : bool
        Drop unjudged documents from each ranking before computing anything (trec_eval's ``-J``),
        after the ``depth`` cut, as trec_eval does.
    depth : int >= 1, optional
        Keep only the top ``depth`` documents of each ranking in the convention's order (trec_eval's
        ``-M``).

    Returns
    -------
    Evaluation
        ``.per_query`` ``{qid: {metric: float}}``, ``.mean`` ``{metric: float}``, ``.queries``.

    Examples
    --------
    The conventions.md example under trec_eval: linear gain, ideal from every judged document (d5,
    grade 2, was never retrieved), d2 ranked before d1 in their tie.

    >>> import ltr_teach as lt
    >>> qrels = {"q1": {"d1": 3, "d2": 2, "d3": 0, "d4": 1, "d5": 2}}
    >>> run = {"q1": {"d3": 1.0, "d1": 0.8, "d2": 0.8, "d4": 0.5, "d9": 0.4}}
    >>> print(lt.evaluate(qrels, run, ["ndcg", "map", "mrr", "p@3"]).table().expandtabs(4))
    num_q                   all 1
    ndcg                    all 0.5608
    map                     all 0.4792
    mrr                     all 0.5000
    p@3                     all 0.6667
    >>> round(lt.evaluate(qrels, run, "ndcg@10", convention="lightgbm").mean["ndcg@10"], 4)
    0.6758
    """
    conv = get_convention(convention)
    # the files the inputs come from, named when one of them holds nothing
    files = {name: os.fspath(data) if isinstance(data, (str, os.PathLike)) else None
             for name, data in (("qrels", qrels), ("run", run))}
    if isinstance(metrics, str):
        metrics = [metrics]
    if not isinstance(metrics, (list, tuple)):
        raise ValueError(f"metrics must be a metric name or a list of them, e.g. ['ndcg@10', 'map']; got "
                         f"{type(metrics).__name__}")
    parsed = {}
    for m in metrics:
        parsed[m.strip().lower() if isinstance(m, str) else m] = parse_measure(m)
    if not parsed:
        raise ValueError("metrics must name at least one metric, e.g. ['ndcg@10', 'map']")
    missing = as_choice(conv.missing if missing is None else missing, "missing", MISSING_RULES)
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"chunk_size = {chunk_size!r} is not allowed; it must be a whole number >= 1 "
                         "(queries per NumPy batch)")
    run, qrels = as_mapping(run, "run"), as_mapping(qrels, "qrels")  # a DataFrame or Parquet/Arrow file: a dict
    run_columns = None
    if isinstance(run, dict):
        run = _text_ids(run, "run", "score")
    elif isinstance(run, (str, os.PathLike)):
        run_columns = read_columns(run, "run", progress=_reading_bar(run, progress))
    else:
        raise ValueError(f"run must be a dict or the path of a TREC run file ({{qid: {{docid: score}}}}); "
                         f"got {type(run).__name__}")
    pooled = None  # every grade once, as floats (None when one is not a finite number)
    if isinstance(qrels, dict):
        pooled = _Pools.read(qrels)  # grades read as small whole numbers are numbers: no second pass checks them
        qrels = _text_ids(qrels, "qrels", "grade", values_checked=pooled is not None and pooled.small)
    else:
        qrels = _as_dict(qrels, "qrels", read_qrels)
    run_qids = run if run_columns is None else dict.fromkeys(run_columns.qids)
    settings = {"gain": conv.gain, "discount": conv.discount, "ties": conv.ties, "zero": conv.zero,
                "threshold": conv.threshold, "rule": conv.recall_rule, "rbp_weight": conv.rbp_weight,
                "judged_only": _flag(judged_only, "judged_only"), "depth": None if depth is None else as_count(depth, "depth", 1)}
    if relevance_level is not None:
        settings["threshold"] = as_count(relevance_level, "relevance_level", 1)
    if pooled is None or pooled.qrels is not qrels:  # read from a file, or the ids were made text
        pooled = _Pools.read(qrels)
    # with every grade read, no grade below 0 is a NumPy test rather than a Python pass over the qrels
    no_negative = pooled is not None and not (pooled.grades < 0).any()
    if conv.negative_grades == "unjudged":
        qrels = qrels if no_negative else _without_negative_grades(qrels)
    else:
        if not no_negative:
            _refuse_negative_grades(qrels, conv.name)
    names = {spec.name for spec in parsed.values()}
    exp2_gain = settings["gain"] == "exp2" and bool(names & {"ndcg", "dcg"})
    # the top grade is needed for exponential gain (2^1024 overflows) and ERR's default g_max only
    top = _top_grade(qrels) if exp2_gain or "err" in names else None
    if exp2_gain and top >= 1024:
        raise ValueError(f"qrels: grade {top:g} is too large for exponential gain 2^grade - 1 (a double overflows "
                         f"at 2^1024); grades must be below 1024 under convention {conv.name!r}, or use a linear-gain "
                         "convention such as 'trec_eval'")
    if "err" in names:
        if g_max is None:
            g_max = conv.g_max if conv.g_max is not None else max(int(top), 1)
        elif isinstance(g_max, bool) or not isinstance(g_max, numbers.Integral) or not 1 <= g_max <= MAX_COUNT:
            raise ValueError(f"g_max = {_brief(g_max)} is not allowed; it must be a whole number >= 1 and at most "
                             f"{MAX_COUNT} (the top grade)")
        settings["g_max"] = int(g_max)
        if top > settings["g_max"]:
            raise ValueError(f"err: a grade in the qrels ({top:g}) is above g_max = {settings['g_max']}")
    averaged = [spec for spec in parsed.values()
                if spec.name not in ("ndcg", "dcg") and not (spec.name == "map" and spec.k is None)]
    if conv.ties == "average" and averaged and not conv.binary_ties:
        raise ValueError(f"convention {conv.name!r} averages tied scores, which is defined for ndcg, dcg and map "
                         f"(scikit-learn's average_precision_score, without a cut-off) only; pick another convention "
                         f"for {averaged[0].text}")
    if conv.skip_unjudged_topics:  # gdeval.pl scores only topics with a judgment > 0
        without_relevant = {q for q, judged in qrels.items() if not any(g > 0 for g in judged.values())}
        qrels = {q: judged for q, judged in qrels.items() if q not in without_relevant}
    in_run = sorted(q for q in qrels if q in run_qids)
    if not in_run:
        if not qrels or not run_qids:
            what = "qrels" if not qrels else "run"
            empty = "the qrels hold no judgment" if not qrels else "the run holds no retrieved document"
            where = (f"{what} file {files[what]!r}: empty, only comments, or a pipe nobody writes to?"
                     if files[what] else "an empty dict?")
            raise ValueError(f"nothing to evaluate: {empty} ({where})")
        raise ValueError(f"nothing to evaluate: no query id is both in the run ({len(run_qids)} queries: "
                         f"{_sample(run_qids)}) and in the qrels ({len(qrels)} queries: {_sample(qrels)})")
    absent = sorted(q for q in qrels if q not in run_qids)
    unjudged = sorted(q for q in run_qids if q not in qrels)
    ignored = unjudged + (absent if missing == "skip" else [])
    scored = in_run + (absent if missing == "zero" else [])
    per_metric = {m: [] for m in parsed}
    bar = _Progress(len(scored), progress)
    run_path, rows = run, None
    if run_columns is not None:
        rows = _rows_by_query(run_columns)
    # a batch's dense matrices are queries x longest list: keep them near a number of cells
    if rows is not None and rows:
        longest = max(stop - first for first, stop, _ in rows.values())
        chunk_size = max(1, min(chunk_size, _BATCH_ITEMS // max(longest, 1)))
    elif run_columns is None:
        longest = max(map(len, run.values()), default=0)
        chunk_size = max(1, min(chunk_size, _DICT_BATCH_CELLS // max(longest, 1)))
    if pooled is not None and pooled.qrels is not qrels:  # negative grades or topics were dropped
        pooled = _Pools.read(qrels)
    for start in range(0, len(scored), chunk_size):
        chunk = scored[start:start + chunk_size]
        try:
            ordered = None if rows is None else _order_columns(chunk, qrels, run_columns, rows, settings["ties"],
                                                              _needs_judged(parsed, settings))
        except _RepeatedDocument:
            read_lines(run_path, "run")  # raises the same error, naming the file and line
            raise
        values = _chunk_metrics(chunk, qrels, run, parsed, conv, settings, ordered=ordered,
                                pooled=pooled if run_columns is None else None)
        for m in parsed:
            per_metric[m].append(values[m])
        bar.update(start + len(chunk))
    columns = {m: (np.concatenate(v) if v else np.zeros(0)) for m, v in per_metric.items()}
    mean = {}
    for m, col in columns.items():
        defined = col[~np.isnan(col)] if parsed[m].name == "auc" else col
        mean[m] = float(np.mean(defined)) if len(defined) else math.nan
    names = list(parsed)
    by_id = sorted(range(len(scored)), key=scored.__getitem__)  # the scored queries in id order
    rows = zip(*(columns[m][by_id].tolist() for m in names))  # one tuple of values per query, in id order
    # Built in id order rather than by sorting (query id, dict) pairs: a list of thousands of such pairs
    # lives long enough for the garbage collector to count it, which then runs a full collection of the
    # caller's heap every few calls (measured: ~50 ms, beside a median of 2.5 ms to build the dicts).
    per_query = dict(zip(map(scored.__getitem__, by_id), map(dict, map(zip, repeat(names), rows))))
    notes = [Message(N_("{n} judged queries absent from the run: {rule}"), n=len(absent),
                     rule=Message(MISSING_RULES[missing]))]
    if unjudged:
        notes.append(Message(N_("{n} queries of the run have no judgments in the qrels and are ignored ({sample})"),
                             n=len(unjudged), sample=_sample(unjudged)))
    return Evaluation(per_query=per_query, mean=mean, queries=tuple(sorted(scored)), ignored=tuple(ignored),
                      convention=conv.name, metrics=tuple(parsed), notes=tuple(notes))


def _top_grade(qrels: dict) -> float:
    """The highest grade (1 when there is none), every grade checked to be a finite number first."""
    try:
        top = max(map(max, filter(None, map(dict.values, qrels.values()))), default=1)
        return float(top) if math.isfinite(top) else _checked_top(qrels)
    except (TypeError, ValueError, OverflowError):
        return _checked_top(qrels)


def _checked_top(qrels: dict) -> float:
    """:func:`_top_grade` the slow way, naming the first grade that is not a finite number."""
    sizes = np.cumsum([len(judged) for judged in qrels.values()])
    qids = list(qrels)

    def where(i: int) -> str:
        return f"qrels[{qids[int(np.searchsorted(sizes, i, side='right'))]!r}]"

    grades = _numbers(lambda: chain.from_iterable(judged.values() for judged in qrels.values()),
                      int(sizes[-1]) if len(sizes) else 0, where, "grade")
    return float(grades.max()) if len(grades) else 1.0


def _sample(ids, n: int = 3) -> str:
    """The first few ids, for a message."""
    ids = list(ids)
    shown = ", ".join(repr(q) for q in ids[:n])
    return shown + (f" and {len(ids) - n} more" if len(ids) > n else "")


def _text_ids(data, what: str, value_what: str, values_checked: bool = False) -> dict:
    """``{qid: {docid: value}}`` with every id as text, checked at the door.

    Ids are compared as text, as in a TREC file (trec_eval orders tied documents by docno with
    ``strcmp``): a document ``1`` in the qrels matches ``"1"`` in the run. Two ids that read the same as
    text (``1`` and ``"1"`` for one query) are an error, never silently merged. ``values_checked``: the
    caller has already read every value as a number, so that pass is skipped.
    """
    if not isinstance(data, dict):
        raise ValueError(f"{what} must be a dict or the path of a TREC {what} file ({{qid: {{docid: {value_what}}}}}); "
                         f"got {type(data).__name__}")
    if not all(map(isinstance, data.values(), repeat(dict))):  # in C; the loop names the first that is not
        for qid, inner in data.items():
            if not isinstance(inner, dict):
                raise ValueError(f"{what}[{qid!r}] must be a dict {{docid: {value_what}}}; got "
                                 f"{type(inner).__name__} {_short(inner)}")
    try:  # sum() refuses text, None and containers in C, without a Python loop; NumPy would read "1" as 1.0
        if not values_checked:
            sum(chain.from_iterable(map(dict.values, data.values())))
    except (TypeError, OverflowError):
        for qid, inner in data.items():
            for docid, value in inner.items():
                if isinstance(value, (str, bytes)) or not isinstance(value, numbers.Real):
                    raise ValueError(f"{what}[{qid!r}]: {value_what} {_short(value)} is not allowed; {value_what}s "
                                     f"must be numbers (document {docid!r})") from None
        # every value is a real number, one of them beyond a double: _numbers names it later
    if set(map(type, data)) <= {str} and _all_text(chain.from_iterable(data.values())):
        return data
    out: dict = {}
    for qid, inner in data.items():
        key = str(qid)
        if key in out:
            raise ValueError(f"{what} has two query ids that read {key!r} as text; ids are compared as text")
        as_text = {str(d): v for d, v in inner.items()}
        if len(as_text) < len(inner):
            raise ValueError(f"{what}[{qid!r}] has two document ids that read the same as text "
                             f"({_same_text(inner)}); ids are compared as text")
        out[key] = as_text
    return out


def _all_text(ids) -> bool:
    """True when every id is text (a ``str``, or a subclass of it such as NumPy's ``str_``, which compares and
    hashes as its text). ``str.isascii`` is a C method that refuses any other type without looking at the
    characters: a cheaper test per id than collecting ``type(id)`` in a set."""
    try:
        deque(map(str.isascii, ids), maxlen=0)
    except TypeError:
        return False
    return True


def _same_text(inner: dict) -> str:
    seen: dict = {}
    for d in inner:
        if str(d) in seen:
            return f"{seen[str(d)]!r} and {d!r}"
        seen[str(d)] = d
    return ""  # pragma: no cover - only called when two ids collide


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _reading_bar(path, enabled):
    """A progress callback for reading a long run file, or None."""
    try:
        size = os.stat(path).st_size
    except (OSError, ValueError, TypeError):
        size = 0
    if not (enabled or (enabled is None and sys.stderr.isatty() and size >= 50_000_000)):
        return None
    name = os.path.basename(os.fspath(path))

    def draw(done: int, total: int) -> None:
        if total <= 0:
            sys.stderr.write(f"\rreading {name}: {done / 1e6:.0f} MB")
        else:
            filled = int(30 * min(done, total) / total)
            sys.stderr.write(f"\rreading {name} [{'#' * filled}{'.' * (30 - filled)}] {done / 1e6:.0f}/{total / 1e6:.0f} MB")
            if done >= total:
                sys.stderr.write("\n")
        sys.stderr.flush()

    return draw


def _rows_by_query(columns) -> dict:
    """``{qid: (first, stop, rows)}``: the lines of each query; ``rows`` is None when they are contiguous
    (the usual run file, one block per query), else the line numbers in file order."""
    q_of = columns.q_of
    # ids are numbered by first appearance: sorted = contiguous (tested a million lines at a time, without a
    # difference array as long as the run)
    step = 1 << 20
    if all((q_of[i + 1:i + step + 1] >= q_of[i:i + step][:len(q_of) - i - 1]).all() for i in range(0, len(q_of), step)):
        bounds = np.searchsorted(q_of, np.arange(len(columns.qids) + 1, dtype=q_of.dtype))  # no int64 copy of q_of
        return {qid: (int(bounds[q]), int(bounds[q + 1]), None) for q, qid in enumerate(columns.qids)}
    return {qid: (0, len(rows), rows) for qid, rows in columns.by_query()}


def _order_columns(qids, qrels, columns, rows_of, ties, with_judged=False):
    """What :func:`_order_chunk` returns, from a run read into columns (no per-document Python objects but
    the ids' bytes, looked up in the qrels)."""
    pieces, sizes = [], []
    for qid in qids:
        first, stop, rows = rows_of.get(qid, (0, 0, None))
        pieces.append(np.arange(first, stop) if rows is None else rows)
        sizes.append(stop - first)
    lines = np.concatenate(pieces) if pieces else np.zeros(0, dtype=np.int64)
    n_ranked = np.asarray(sizes, dtype=np.int64)
    q_of = np.repeat(np.arange(len(qids)), n_ranked)
    scores = columns.values[lines]
    n_judged = np.fromiter(map(len, map(qrels.__getitem__, qids)), dtype=np.int64, count=len(qids))
    pool_of = np.repeat(np.arange(len(qids)), n_judged)
    pools = _numbers(lambda: chain.from_iterable(qrels[q].values() for q in qids), len(pool_of),
                     lambda i: f"qrels[{qids[pool_of[i]]!r}]", "grade")
    words = columns.docs[lines].view("<u8")  # each document id as 8-byte words, zero-padded
    hashes = _word_hash(words)
    repeated = _repeated_in(hashes, q_of, n_ranked)
    for i in repeated:  # a hash seen twice in a query: the ids themselves say whether it is one document twice
        docs = columns.doc_bytes(lines[q_of == i])
        if len(set(docs)) < len(docs):
            raise _RepeatedDocument(f"run: document {_first_repeat(docs)!r} is retrieved twice for query {qids[i]!r}")
    # each document's grade, -inf when unjudged (kept apart from a judged 0 for the tie step below)
    judgment = _judgments(qids, qrels, q_of, words, hashes)
    if judgment is None:  # two judged documents of the chunk share a hash: look every id up in the dicts
        docs = columns.doc_bytes(lines)
        bounds = np.concatenate([[0], np.cumsum(n_ranked)]).tolist()
        judged = [{d.encode(): g for d, g in qrels[qid].items()} for qid in qids]
        judgment = np.fromiter(chain.from_iterable(map(j.get, docs[bounds[i]:bounds[i + 1]], repeat(-math.inf))
                                                   for i, j in enumerate(judged)), dtype=np.float64, count=len(docs))
    grades = np.maximum(judgment, 0.0)  # an unjudged document counts as grade 0
    if ties in ("pessimistic", "optimistic"):
        key = grades if ties == "pessimistic" else -grades
        order = np.lexsort((key, -scores, q_of))
    elif ((q_of[1:] != q_of[:-1]) | (scores[1:] <= scores[:-1])).all():
        order = np.arange(len(scores))  # the file lists each query by score descending: already in order
    else:
        order = np.lexsort((-scores, q_of))  # stable: tied documents keep the file order
    q_sorted, s_sorted = q_of[order], scores[order]
    new_group = np.ones(len(order), dtype=bool)
    new_group[1:] = (q_sorted[1:] != q_sorted[:-1]) | (s_sorted[1:] != s_sorted[:-1])
    group = np.cumsum(new_group) - 1
    if ties == "docid_desc" and len(group):
        # Only a tie whose documents differ in judgment can change a value: reorder just those groups.
        # Unjudged documents get their own mark (-inf), apart from documents judged 0.
        in_order = judgment[order]
        starts = np.flatnonzero(new_group)  # each group is a contiguous run of the order
        mixed = np.minimum.reduceat(in_order, starts) != np.maximum.reduceat(in_order, starts)
        tied = np.flatnonzero(mixed[group])
        if len(tied):
            # docids as big-endian 64-bit words compare as their bytes do (strcmp); ~ turns ascending into
            # descending; lexsort's last key (the group) is the primary one
            words = np.ascontiguousarray(columns.docs[lines[order[tied]]]).view(">u8").astype(np.uint64)
            keys = [~words[:, c] for c in range(words.shape[1] - 1, -1, -1)] + [group[tied]]
            order[tied] = order[tied][np.lexsort(keys)]
    judged_flags = judgment[order] > -math.inf if with_judged else None
    return q_sorted, grades[order], group, pools, pool_of, judged_flags


#: odd 64-bit constants that mix the words of a document id, and a query into a hash (Fibonacci hashing)
_MIX = np.uint64(0x9E3779B97F4A7C15)
_MIX_QUERY = np.uint64(0xC2B2AE3D27D4EB4F)
#: bits of the bitmap that screens a chunk's documents for judged ones (2^20 flags, one megabyte)
_SCREEN_BITS = 20


def _word_hash(words: np.ndarray) -> np.ndarray:
    """One uint64 per row of 8-byte words: the word itself for ids of up to 8 bytes (no two ids share it),
    a mix of the words for longer ones (two ids may then share it: callers check the ids themselves)."""
    hashes = words[:, 0].copy()
    for w in range(1, words.shape[1]):
        hashes *= _MIX  # wraps around modulo 2^64, as meant
        hashes ^= words[:, w]
    return hashes


def _repeated_in(hashes, q_of, n_ranked) -> list:
    """The queries (positions) in which two documents share a hash: each document sorted within its query."""
    n_q = len(n_ranked)
    if not len(hashes):
        return []
    if n_q and int(n_ranked.min()) == int(n_ranked.max()):  # one matrix, one sort per row
        rows = np.sort(hashes.reshape(n_q, -1), axis=1)
        return np.flatnonzero((rows[:, 1:] == rows[:, :-1]).any(axis=1)).tolist()
    order = np.lexsort((hashes, q_of))
    h, q = hashes[order], q_of[order]
    same = (h[1:] == h[:-1]) & (q[1:] == q[:-1])
    return np.unique(q[1:][same]).tolist()


def _judgments(qids, qrels, q_of, words, hashes):
    """Each retrieved document's grade (-inf when unjudged), without a Python step per retrieved document:
    the judged ids of the chunk become words like the run's, a bitmap of their hashes screens the run's
    documents, and the few that pass are matched exactly (query and every word). None when two judged
    documents of the chunk share a hash (then the caller looks every id up)."""
    width = words.shape[1] * 8
    ids, of, grades = [], [], []
    for i, qid in enumerate(qids):
        judged = qrels[qid]
        ids.extend(judged)
        of.extend(repeat(i, len(judged)))
        grades.extend(judged.values())
    encoded = [d.encode() for d in ids]
    # an id longer than the run's longest, or holding a NUL byte, matches no document of the run
    fits = np.fromiter((len(e) <= width and b"\0" not in e for e in encoded), dtype=bool, count=len(encoded))
    judgment = np.full(len(q_of), -math.inf)
    if not fits.any():
        return judgment
    keep = np.flatnonzero(fits)
    j_words = np.array([encoded[k] for k in keep.tolist()], dtype=f"S{width}").view("<u8").reshape(len(keep), -1)
    j_of = np.asarray(of, dtype=np.int64)[keep]
    j_grade = np.fromiter(grades, dtype=np.float64, count=len(grades))[keep]
    mix = lambda h, q: h ^ (q.astype(np.uint64) * _MIX_QUERY)  # the one mix of both sides
    j_key = mix(_word_hash(j_words), j_of)
    by_key = np.argsort(j_key)
    sorted_keys = j_key[by_key]
    if (sorted_keys[1:] == sorted_keys[:-1]).any():
        return None
    key = mix(hashes, q_of)
    shift = np.uint64(64 - _SCREEN_BITS)
    screen = np.zeros(1 << _SCREEN_BITS, dtype=bool)
    screen[(sorted_keys * _MIX) >> shift] = True
    maybe = np.flatnonzero(screen[(key * _MIX) >> shift])
    at = np.minimum(np.searchsorted(sorted_keys, key[maybe]), len(sorted_keys) - 1)
    found = sorted_keys[at] == key[maybe]
    rows, judged_row = maybe[found], by_key[at[found]]
    exact = (j_of[judged_row] == q_of[rows]) & (j_words[judged_row] == words[rows]).all(axis=1)
    judgment[rows[exact]] = j_grade[judged_row[exact]]
    return judgment


class _RepeatedDocument(ValueError):
    """A document twice in one query of a run file; the line reader then names the line."""


def _first_repeat(docs) -> str:
    seen = set()
    for d in docs:
        if d in seen:
            return d.decode()
        seen.add(d)
    return ""  # pragma: no cover


__all__ = ["evaluate", "Evaluation", "METRIC_NAMES", "MetricSpec", "parse_measure", "parse_metric", "CONVENTIONS"]
