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

import math
import numbers
import os
import re
import sys
from dataclasses import dataclass, field
from itertools import chain, repeat
from operator import itemgetter

import numpy as np

from ..core.exact import fmt_decimal
from ..core.validate import as_choice
from ..metrics.conventions import CONVENTIONS, get_convention
from .trec import _read_lines as read_lines
from .trec import read_columns, read_qrels

#: Metric names ``evaluate`` accepts: ``name`` or ``name@k``; the value says whether @k is required.
METRIC_NAMES = {
    "ndcg": "normalised DCG (ndcg@k cuts the ranking and the ideal list at k)",
    "map": "mean average precision, over every relevant document in the qrels (map@k: top k only)",
    "mrr": "reciprocal rank of the first relevant document (mrr@k: within the top k)",
    "p": "precision at k: relevant in the top k divided by k (needs @k)",
    "recall": "recall at k: relevant in the top k divided by all relevant in the qrels (needs @k)",
    "err": "expected reciprocal rank, cascade model (err@k: the top k)",
    "auc": "area under the ROC curve of the retrieved documents, ties worth 1/2",
}
_NEEDS_K = ("p", "recall")
_METRIC = re.compile(r"^(?P<name>[a-z]+)(@(?P<k>\d+))?$")

_GAINS = {"exp2": lambda g: np.exp2(g) - 1.0, "linear": lambda g: g}
_DISCOUNTS = {
    "log2": lambda r: np.log2(r + 1.0),
    "ln": lambda r: np.log(r + 1.0),
    "jarvelin": lambda r: np.where(r == 1, 1.0, np.log2(np.maximum(r, 1.0))),
}
#: Cells (queries x longest ranking) of one batch read from a run file: bounds the memory of the dense steps.
_BATCH_ITEMS = 400_000
MISSING_RULES = {"skip": "left out of the mean", "zero": "scored 0 and averaged"}


def parse_metric(text: str) -> tuple[str, int | None]:
    """``"ndcg@10"`` -> ``("ndcg", 10)``; ``ValueError`` listing the names for anything else.

    Parameters
    ----------
    text : str
        A metric name of ``METRIC_NAMES``, optionally ``@k``; case and surrounding blanks do not
        matter.

    Returns
    -------
    tuple
        The name and the cut-off ``k`` (``None`` without one).

    Examples
    --------
    >>> parse_metric(" NDCG@10 "), parse_metric("map")
    (('ndcg', 10), ('map', None))
    >>> parse_metric("ndcg@0")
    Traceback (most recent call last):
    ...
    ValueError: metric 'ndcg@0': the cut-off k must be >= 1
    """
    m = _METRIC.match(text.strip().lower()) if isinstance(text, str) else None
    if not m or m.group("name") not in METRIC_NAMES:
        raise ValueError(f"metric {text!r} is not one of {', '.join(METRIC_NAMES)} (optionally @k, e.g. ndcg@10)")
    k = int(m.group("k")) if m.group("k") else None
    if k is not None and k < 1:
        raise ValueError(f"metric {text!r}: the cut-off k must be >= 1")
    if m.group("name") in _NEEDS_K and k is None:
        raise ValueError(f"metric {text!r} needs a cut-off, e.g. {m.group('name')}@10")
    if m.group("name") == "auc" and k is not None:
        raise ValueError(f"metric {text!r}: auc takes no cut-off")
    return m.group("name"), k


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


def _dense(values, q_of, rank0, n_queries, width, fill=0.0):
    out = np.full((n_queries, width), fill)
    out[q_of, rank0] = values
    return out


def _rank_within(q_of: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """0-based position of each flat item inside its query, for items grouped by query."""
    return np.arange(len(q_of)) - starts[q_of]


def _order_chunk(qids, qrels, run, ties, threshold):
    """Flat arrays of the chunk's retrieved documents in ranked order, and the judged pools."""
    empty: dict = {}
    ranked = [run.get(qid, empty) for qid in qids]
    judged = [qrels[qid] for qid in qids]
    n_ranked = np.fromiter(map(len, ranked), dtype=np.int64, count=len(qids))
    n_judged = np.fromiter(map(len, judged), dtype=np.int64, count=len(qids))
    q_of = np.repeat(np.arange(len(qids)), n_ranked)
    pool_of = np.repeat(np.arange(len(qids)), n_judged)
    total = int(n_ranked.sum())
    # chain + fromiter keeps the per-document work in C: this loop is most of evaluate's time
    pools = _numbers(lambda: chain.from_iterable(j.values() for j in judged), len(pool_of),
                     lambda i: f"qrels[{qids[pool_of[i]]!r}]", "grade")
    scores = _numbers(lambda: chain.from_iterable(r.values() for r in ranked), total,
                      lambda i: f"run[{qids[q_of[i]]!r}]", "score")
    grades = np.fromiter(chain.from_iterable(map(j.get, r, repeat(0)) for j, r in zip(judged, ranked)),
                         dtype=np.float64, count=total)
    # a negative grade (TREC Web track: -1 judged non-relevant, -2 spam) counts as 0, as in trec_eval
    np.maximum(grades, 0.0, out=grades)
    np.maximum(pools, 0.0, out=pools)
    if ties == "pessimistic":
        order = np.lexsort((grades, -scores, q_of))
    elif ties == "optimistic":
        order = np.lexsort((-grades, -scores, q_of))
    else:
        order = np.lexsort((-scores, q_of))  # lexsort is stable: ties keep the input order
    q_sorted, s_sorted = q_of[order], scores[order]
    new_group = np.ones(len(order), dtype=bool)
    new_group[1:] = (q_sorted[1:] != q_sorted[:-1]) | (s_sorted[1:] != s_sorted[:-1])
    group = np.cumsum(new_group) - 1
    if ties == "docid_desc":
        # Ties are rare with real scores: reorder only the tied groups, by docid descending as trec_eval's
        # strcmp (Python compares str by code point, the same order as UTF-8 bytes).
        # Reorder only the items of tied groups: sort them by (group, docid descending) in one lexsort.
        # Python compares str by code point, the same order as trec_eval's strcmp on UTF-8 bytes.
        sizes = np.bincount(group)
        tied_pos = np.flatnonzero(sizes[group] > 1)
        if len(tied_pos):
            items = order[tied_pos]
            docs = list(chain.from_iterable(ranked))
            tied_docs = np.array(itemgetter(*items.tolist())(docs))  # a tie has two or more items
            _, doc_rank = np.unique(tied_docs, return_inverse=True)
            order[tied_pos] = items[np.lexsort((-doc_rank, group[tied_pos]))]
    return (q_sorted, grades[order], group, np.asarray(pools, dtype=np.float64),
            np.asarray(pool_of, dtype=np.int64))


def _segment_starts(q_of, n_queries):
    counts = np.bincount(q_of, minlength=n_queries)
    starts = np.zeros(n_queries, dtype=np.int64)
    starts[1:] = np.cumsum(counts)[:-1]
    return counts, starts


def _chunk_metrics(qids, qrels, run, parsed, conv, settings, ordered=None):
    n_q = len(qids)
    ties, threshold = settings["ties"], settings["threshold"]
    q_of, grades, group, pools, pool_of = ordered or _order_chunk(qids, qrels, run, ties, threshold)
    counts, starts = _segment_starts(q_of, n_q)
    rank0 = _rank_within(q_of, starts)
    width = max(int(counts.max()) if n_q else 0, 1)
    # the judged pool of each query, best grade first
    p_order = np.lexsort((-pools, pool_of))
    pool_sorted, pool_q = pools[p_order], pool_of[p_order]
    p_counts, p_starts = _segment_starts(pool_q, n_q)
    n_relevant = np.bincount(pool_q, weights=(pool_sorted >= threshold), minlength=n_q)
    if conv.ideal == "list":  # the tool sees only the ranked list: relevant documents it missed do not exist
        n_relevant = np.bincount(q_of, weights=(grades >= threshold), minlength=n_q)
    gain_fn, disc_fn = _GAINS[settings["gain"]], _DISCOUNTS[settings["discount"]]

    valid = _dense(1.0, q_of, rank0, n_q, width)
    g_mat = _dense(grades, q_of, rank0, n_q, width)
    rel = (g_mat >= threshold) & (valid > 0)
    hits = np.cumsum(rel, axis=1)
    ranks = np.arange(1, width + 1, dtype=np.float64)
    gains = gain_fn(grades)
    if ties == "average":
        gains = (np.bincount(group, weights=gains) / np.bincount(group))[group]
    gain_mat = _dense(gains, q_of, rank0, n_q, width)
    disc = disc_fn(ranks)
    if conv.ideal == "pool":
        ideal_w = max(int(p_counts.max()) if n_q else 0, 1)
        ideal_mat = _dense(gain_fn(pool_sorted), pool_q, _rank_within(pool_q, p_starts), n_q, ideal_w)
    else:
        ideal_mat = -np.sort(-gain_fn(g_mat) * valid, axis=1)
    ideal_disc = disc_fn(np.arange(1, ideal_mat.shape[1] + 1, dtype=np.float64))
    out = {}
    for text, (name, k) in parsed.items():
        cut = width if k is None else min(k, width)
        if name == "ndcg":
            dcg = (gain_mat[:, :cut] / disc[:cut]).sum(axis=1)
            icut = ideal_mat.shape[1] if k is None else min(k, ideal_mat.shape[1])
            idcg = (ideal_mat[:, :icut] / ideal_disc[:icut]).sum(axis=1)
            empty = {"zero": 0.0, "one": 1.0, "nan": math.nan}[settings["zero"]] if settings["zero"] != "raise" \
                else math.nan
            with np.errstate(invalid="ignore", divide="ignore"):
                out[text] = np.where(idcg > 0, dcg / np.where(idcg > 0, idcg, 1.0), empty)
        elif name == "map":
            prec = np.where(rel[:, :cut], hits[:, :cut] / ranks[:cut], 0.0).sum(axis=1)
            if conv.ap_divisor == "min(relevant, k)":
                in_list = rel.sum(axis=1)
                divisor = np.minimum(in_list, cut) if k is not None else in_list
            else:
                divisor = n_relevant
            empty = 1.0 if settings["zero"] == "one" else 0.0
            out[text] = np.where(divisor > 0, prec / np.maximum(divisor, 1), empty)
        elif name == "mrr":
            first = np.argmax(rel[:, :cut], axis=1)
            found = rel[:, :cut].any(axis=1)
            out[text] = np.where(found, 1.0 / (first + 1.0), 0.0)
        elif name == "p":
            out[text] = (hits[:, cut - 1] if cut else np.zeros(n_q)) / k
        elif name == "recall":
            out[text] = np.where(n_relevant > 0, hits[:, cut - 1] / np.maximum(n_relevant, 1), 0.0)
        elif name == "err":
            # (2^g - 1) / 2^g_max written as 2^(g - g_max) - 2^-g_max: no overflow for g_max >= 1024
            g_max = float(settings["g_max"])
            stop = (np.exp2(g_mat[:, :cut] - g_max) - np.exp2(-g_max)) * valid[:, :cut]
            reach = np.cumprod(np.hstack([np.ones((n_q, 1)), 1.0 - stop[:, :-1]]), axis=1)
            out[text] = (reach * stop / ranks[:cut]).sum(axis=1)
        else:  # auc over the retrieved documents, ties worth 1/2
            out[text] = _auc(q_of, grades >= threshold, group, n_q)
    return out


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


def _as_dict(data, what: str, reader) -> dict:
    if isinstance(data, dict):
        return data
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
             chunk_size=2000) -> Evaluation:
    """Score a run against qrels under one tool's convention.

    Parameters
    ----------
    qrels : dict or path
        ``{qid: {docid: grade}}`` or a TREC qrels file (``qid iter docid grade``). Negative grades
        (TREC Web track: -1 non-relevant, -2 spam) count as 0, as in trec_eval.
    run : dict or path
        ``{qid: {docid: score}}`` or a TREC run file (``qid Q0 docid rank score tag``; the file rules
        are in :mod:`ltr_teach.runs.trec`). Higher scores rank first; the order of a dict (or the
        file) is the input order for ``"stable"`` ties. Ids are compared as text (document ``1`` in
        the qrels is ``"1"`` in the run) and the result's query ids are strings.
    metrics : str or sequence of str
        Names from :data:`METRIC_NAMES`, optionally with a cut-off: ``"ndcg@10"``, ``"map"``,
        ``"mrr"``, ``"p@5"``, ``"recall@100"``, ``"err@20"``, ``"auc"``.
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
        Queries evaluated per NumPy batch (a run read from a file also keeps a batch near 400,000
        documents, which bounds the memory).

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
    if isinstance(metrics, str):
        metrics = [metrics]
    if not isinstance(metrics, (list, tuple)):
        raise ValueError(f"metrics must be a metric name or a list of them, e.g. ['ndcg@10', 'map']; got "
                         f"{type(metrics).__name__}")
    parsed = {}
    for m in metrics:
        parsed[m.strip().lower() if isinstance(m, str) else m] = parse_metric(m)
    if not parsed:
        raise ValueError("metrics must name at least one metric, e.g. ['ndcg@10', 'map']")
    missing = as_choice(conv.missing if missing is None else missing, "missing", MISSING_RULES)
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"chunk_size = {chunk_size!r} is not allowed; it must be a whole number >= 1 "
                         "(queries per NumPy batch)")
    run_columns = None
    if isinstance(run, dict):
        run = _text_ids(run, "run", "score")
    elif isinstance(run, (str, os.PathLike)):
        run_columns = read_columns(run, "run", progress=_reading_bar(run, progress))
    else:
        raise ValueError(f"run must be a dict or the path of a TREC run file ({{qid: {{docid: score}}}}); "
                         f"got {type(run).__name__}")
    qrels = _text_ids(qrels, "qrels", "grade") if isinstance(qrels, dict) else _as_dict(qrels, "qrels", read_qrels)
    run_qids = run if run_columns is None else dict.fromkeys(run_columns.qids)
    settings = {"gain": conv.gain, "discount": conv.discount, "ties": conv.ties, "zero": conv.zero,
                "threshold": conv.threshold}
    exp2_ndcg = settings["gain"] == "exp2" and any(name == "ndcg" for name, _ in parsed.values())
    # the top grade is needed for exponential gain (2^1024 overflows) and ERR's default g_max only
    top = _top_grade(qrels) if exp2_ndcg or any(name == "err" for name, _ in parsed.values()) else None
    if exp2_ndcg and top >= 1024:
        raise ValueError(f"qrels: grade {top:g} is too large for exponential gain 2^grade - 1 (a double overflows "
                         f"at 2^1024); grades must be below 1024 under convention {conv.name!r}, or use a linear-gain "
                         "convention such as 'trec_eval'")
    if any(name == "err" for name, _ in parsed.values()):
        if g_max is None:
            g_max = conv.g_max if conv.g_max is not None else max(int(top), 1)
        elif isinstance(g_max, bool) or not isinstance(g_max, numbers.Integral) or g_max < 1:
            raise ValueError(f"g_max = {g_max!r} is not allowed; it must be a whole number >= 1 (the top grade)")
        settings["g_max"] = int(g_max)
        if top > settings["g_max"]:
            raise ValueError(f"err: a grade in the qrels ({top:g}) is above g_max = {settings['g_max']}")
    if conv.ties == "average" and any(name not in ("ndcg",) for name, _ in parsed.values()):
        raise ValueError(f"convention {conv.name!r} averages tied scores, which is defined for ndcg only; "
                         "pick another convention for map, mrr, p, recall, err and auc")
    in_run = sorted(q for q in qrels if q in run_qids)
    if not in_run:
        if not qrels or not run_qids:
            empty = "the qrels hold no judgment" if not qrels else "the run holds no retrieved document"
            raise ValueError(f"nothing to evaluate: {empty} (an empty file?)")
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
    if rows is not None and rows:
        # a batch's dense matrices are queries x longest list: keep them near _BATCH_ITEMS cells
        longest = max(stop - first for first, stop, _ in rows.values())
        chunk_size = max(1, min(chunk_size, _BATCH_ITEMS // max(longest, 1)))
    for start in range(0, len(scored), chunk_size):
        chunk = scored[start:start + chunk_size]
        try:
            ordered = None if rows is None else _order_columns(chunk, qrels, run_columns, rows, settings["ties"])
        except _RepeatedDocument:
            read_lines(run_path, "run")  # raises the same error, naming the file and line
            raise
        values = _chunk_metrics(chunk, qrels, run, parsed, conv, settings, ordered=ordered)
        for m in parsed:
            per_metric[m].append(values[m])
        bar.update(start + len(chunk))
    columns = {m: (np.concatenate(v) if v else np.zeros(0)) for m, v in per_metric.items()}
    order = sorted(range(len(scored)), key=lambda i: scored[i])
    as_lists = {m: col.tolist() for m, col in columns.items()}
    per_query = {scored[i]: {m: as_lists[m][i] for m in parsed} for i in order}
    mean = {}
    for m, col in columns.items():
        defined = col[~np.isnan(col)] if parse_metric(m)[0] == "auc" else col
        mean[m] = float(np.mean(defined)) if len(defined) else math.nan
    notes = [f"{len(absent)} judged queries absent from the run: {MISSING_RULES[missing]}"]
    if unjudged:
        notes.append(f"{len(unjudged)} queries of the run have no judgments in the qrels and are ignored "
                     f"({_sample(unjudged)})")
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


def _text_ids(data, what: str, value_what: str) -> dict:
    """``{qid: {docid: value}}`` with every id as text, checked at the door.

    Ids are compared as text, as in a TREC file (trec_eval orders tied documents by docno with
    ``strcmp``): a document ``1`` in the qrels matches ``"1"`` in the run. Two ids that read the same as
    text (``1`` and ``"1"`` for one query) are an error, never silently merged.
    """
    if not isinstance(data, dict):
        raise ValueError(f"{what} must be a dict or the path of a TREC {what} file ({{qid: {{docid: {value_what}}}}}); "
                         f"got {type(data).__name__}")
    for qid, inner in data.items():
        if not isinstance(inner, dict):
            raise ValueError(f"{what}[{qid!r}] must be a dict {{docid: {value_what}}}; got {type(inner).__name__} "
                             f"{_short(inner)}")
    try:  # sum() refuses text, None and containers in C, without a Python loop; NumPy would read "1" as 1.0
        sum(chain.from_iterable(inner.values() for inner in data.values()))
    except (TypeError, OverflowError):
        for qid, inner in data.items():
            for docid, value in inner.items():
                if isinstance(value, (str, bytes)) or not isinstance(value, numbers.Real):
                    raise ValueError(f"{what}[{qid!r}]: {value_what} {_short(value)} is not allowed; {value_what}s "
                                     f"must be numbers (document {docid!r})") from None
        # every value is a real number, one of them beyond a double: _numbers names it later
    key_types = set(map(type, data)) | set(map(type, chain.from_iterable(data.values())))
    if key_types <= {str}:
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
    if len(q_of) < 2 or (np.diff(q_of) >= 0).all():  # ids are numbered by first appearance: sorted = contiguous
        bounds = np.searchsorted(q_of, np.arange(len(columns.qids) + 1))
        return {qid: (int(bounds[q]), int(bounds[q + 1]), None) for q, qid in enumerate(columns.qids)}
    return {qid: (0, len(rows), rows) for qid, rows in columns.by_query()}


def _order_columns(qids, qrels, columns, rows_of, ties):
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
    docs = columns.doc_bytes(lines)
    judged = [{d.encode(): g for d, g in qrels[qid].items()} for qid in qids]
    n_judged = np.fromiter(map(len, judged), dtype=np.int64, count=len(qids))
    pool_of = np.repeat(np.arange(len(qids)), n_judged)
    pools = _numbers(lambda: chain.from_iterable(qrels[q].values() for q in qids), len(pool_of),
                     lambda i: f"qrels[{qids[pool_of[i]]!r}]", "grade")
    bounds = np.concatenate([[0], np.cumsum(n_ranked)]).tolist()
    for i, qid in enumerate(qids):
        if len(set(docs[bounds[i]:bounds[i + 1]])) < sizes[i]:
            repeated = _first_repeat(docs[bounds[i]:bounds[i + 1]])
            raise _RepeatedDocument(f"run: document {repeated!r} is retrieved twice for query {qid!r}")
    # each document's grade, -inf when unjudged (kept apart from a judged 0 for the tie step below)
    judgment = np.fromiter(chain.from_iterable(map(j.get, docs[bounds[i]:bounds[i + 1]], repeat(-math.inf))
                                               for i, j in enumerate(judged)), dtype=np.float64, count=len(docs))
    grades = np.maximum(judgment, 0.0)  # unjudged and negative grades count as 0, as in trec_eval
    np.maximum(pools, 0.0, out=pools)
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
        judgment = judgment[order]
        starts = np.flatnonzero(new_group)  # each group is a contiguous run of the order
        mixed = np.minimum.reduceat(judgment, starts) != np.maximum.reduceat(judgment, starts)
        tied = np.flatnonzero(mixed[group])
        if len(tied):
            # docids as big-endian 64-bit words compare as their bytes do (strcmp); ~ turns ascending into
            # descending; lexsort's last key (the group) is the primary one
            words = np.ascontiguousarray(columns.docs[lines[order[tied]]]).view(">u8").astype(np.uint64)
            keys = [~words[:, c] for c in range(words.shape[1] - 1, -1, -1)] + [group[tied]]
            order[tied] = order[tied][np.lexsort(keys)]
    return q_sorted, grades[order], group, pools, pool_of


class _RepeatedDocument(ValueError):
    """A document twice in one query of a run file; the line reader then names the line."""


def _first_repeat(docs) -> str:
    seen = set()
    for d in docs:
        if d in seen:
            return d.decode()
        seen.add(d)
    return ""  # pragma: no cover


__all__ = ["evaluate", "Evaluation", "METRIC_NAMES", "parse_metric", "CONVENTIONS"]
