"""Pooling: how a test collection decides which documents get judged (TREC's depth-k pool)."""

from __future__ import annotations

import heapq
import math
import numbers
from collections.abc import Mapping

from ..core.exact import _brief
from ..core.validate import as_k


def _ranked(scores: Mapping, depth: int, where: str) -> list:
    """The top ``depth`` document ids by descending score, ties by the id's text descending (trec_eval's
    ``strcmp`` order: ids of any type are read as their ``str()``). A score must be a finite number."""
    for doc, score in scores.items():
        if isinstance(score, bool) or not isinstance(score, numbers.Real) or not math.isfinite(score):
            raise ValueError(f"{where}[{str(doc)[:40]!r}] = {_brief(score)} is not a finite number; scores must be "
                             "numbers (NaN would put the pool in an arbitrary order)")
    return [doc for doc, _ in heapq.nlargest(depth, scores.items(), key=lambda item: (float(item[1]), str(item[0])))]


def pool(runs, depth, truth=None) -> dict:
    """The depth-``depth`` pool of several runs: the documents assessors judge, query by query.

    TREC judges only the union of every participating run's top ``depth`` documents; a document no run
    put that high stays unjudged, however relevant it is. A later system that finds it gets no credit
    under trec_eval's default (unjudged counts as not relevant).

    Parameters
    ----------
    runs : mapping of str to run
        ``{system name: {qid: {docid: score}}}``, the runs that contribute to the pool.
    depth : int >= 1
        How many top documents of each run are judged.
    truth : mapping, optional
        ``{qid: {docid: grade}}``, what an assessor would say of any document (absent = grade 0).

    Returns
    -------
    dict
        Without ``truth``: ``{qid: [docid, ...]}``, the pooled documents in order of first appearance.
        With ``truth``: the qrels the assessors produce, ``{qid: {docid: grade}}`` for every pooled
        document (and only those).

    Examples
    --------
    >>> runs = {"A": {"q1": {"d1": 3, "d2": 2, "d3": 1}}, "B": {"q1": {"d4": 3, "d1": 2, "d5": 1}}}
    >>> pool(runs, depth=2)
    {'q1': ['d1', 'd2', 'd4']}
    >>> pool(runs, depth=2, truth={"q1": {"d2": 1, "d5": 2}})   # d5 is relevant but no run has it in its top 2
    {'q1': {'d1': 0, 'd2': 1, 'd4': 0}}
    """
    depth = as_k(depth, "depth", allow_none=False)
    if not isinstance(runs, Mapping) or not runs:
        raise ValueError(f"runs must be a non-empty dict {{system name: run}}; got {type(runs).__name__}")
    pooled: dict = {}
    for name, run in runs.items():
        if not isinstance(run, Mapping):
            raise ValueError(f"runs[{name!r}] must be a run {{qid: {{docid: score}}}}; got {type(run).__name__}")
        for qid, scores in run.items():
            if not isinstance(scores, Mapping):
                raise ValueError(f"runs[{name!r}][{qid!r}] must be {{docid: score}}; got {type(scores).__name__}")
            seen = pooled.setdefault(qid, {})  # a dict keeps the order of first appearance, with O(1) look-ups
            for doc in _ranked(scores, depth, f"runs[{name!r}][{qid!r}]"):
                seen.setdefault(doc, None)
    pooled = {qid: list(docs) for qid, docs in pooled.items()}
    if truth is None:
        return pooled
    if not isinstance(truth, Mapping):
        raise ValueError(f"truth must be {{qid: {{docid: grade}}}}; got {type(truth).__name__}")
    for qid, grades in truth.items():
        if not isinstance(grades, Mapping):
            raise ValueError(f"truth[{qid!r}] must be {{docid: grade}}; got {_brief(grades)}")
    return {qid: {doc: truth.get(qid, {}).get(doc, 0) for doc in docs} for qid, docs in pooled.items()}


__all__ = ["pool"]
