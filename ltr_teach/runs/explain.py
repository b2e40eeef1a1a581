"""One query of a run, explained exactly: the step table behind one number of ``ltr-teach eval``.

trec_eval prints a number per query; a student who asks *why* query 301 scored 0.15 needs the ranking it was
computed from. :func:`explain_query` reads the same qrels and run (files, dicts or tables), takes one query,
orders its documents by score under the convention's tie rule, looks each one up in the judgments and calls the
exact metric (:mod:`ltr_teach.metrics`) with the scores, the document ids and the query's whole judged pool, so
the table shows the tie order, every document's grade (unjudged ones marked) and the ideal list built from the
pool. Its value equals ``lt.evaluate``'s for that query under every convention (``tests/test_explain_query.py``
checks it against pytrec_eval and against ``lt.evaluate``).
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass

from ..core.i18n import _
from ..core.plain import _brief
from ..metrics.conventions import get_convention
from .evaluate import _text_ids, parse_measure
from .tables import as_mapping
from .trec import read_qrels, read_run

#: The metrics an exact explanation of one query exists for, by the name ``lt.evaluate`` prints, with the
#: registry function that explains it. The others (AUC over a run, interpolated precision, bpref, RBP, judged@k)
#: are computed by ``lt.evaluate`` only.
EXPLAINED = {
    "ndcg": "graded.ndcg", "dcg": "graded.dcg", "err": "graded.err",
    "map": "binary.average_precision", "mrr": "binary.reciprocal_rank", "p": "binary.precision_at_k",
    "recall": "binary.recall_at_k", "rprec": "binary.r_precision", "success": "binary.success_at_k",
}


@dataclass(frozen=True)
class QueryExplanation:
    """A query's exact explanation (:attr:`explanation`) with what it was computed from.

    Attributes
    ----------
    query : str
        The query id.
    metric : str
        The metric as asked (``"ndcg@10"``).
    convention : str
        The preset whose rules were applied.
    explanation : Explanation
        The exact metric: ``float()`` of it is the query's value.
    ranked : int
        Documents the run retrieved for the query.
    unjudged : int
        Of those, documents without a judgment (grade 0 for every metric here).
    pool : dict
        The judged pool by grade: ``{grade: count}`` over every judged document of the query.
    """

    query: str
    metric: str
    convention: str
    explanation: object
    ranked: int
    unjudged: int
    pool: dict

    def __float__(self) -> float:
        return float(self.explanation)

    def header(self) -> str:
        """One line naming the query, the run's list and the judged pool."""
        pool = _(", ").join(_("{count} of grade {grade}").format(count=n, grade=g)
                         for g, n in sorted(self.pool.items(), reverse=True))
        return _("query {query}, {metric} under {convention}: {ranked} documents ranked ({unjudged} unjudged); "
                 "judged pool {total}: {pool}").format(
            query=self.query, metric=self.metric, convention=self.convention, ranked=self.ranked,
            unjudged=self.unjudged, total=sum(self.pool.values()), pool=pool or _("none"))

    def __str__(self) -> str:
        return f"{self.header()}\n\n{self.explanation}"

    def _repr_html_(self) -> str:
        import html

        return f"<p>{html.escape(self.header())}</p>{self.explanation._repr_html_()}"


def _as_dict(data, what: str, reader) -> dict:
    data = as_mapping(data, what)
    if isinstance(data, (str, os.PathLike)):
        data = reader(data)
    if not isinstance(data, dict):
        raise ValueError(f"{what} must be a dict, a table or the path of a TREC {what} file; got {_brief(data)}")
    return _text_ids(data, what, "grade" if what == "qrels" else "score")


def explain_query(qrels, run, metric: str, query, convention: str = "trec_eval", relevance_level=None):
    """The exact step table of one query of a run, under a tool's convention.

    Parameters
    ----------
    qrels, run
        As in :func:`ltr_teach.evaluate`: dicts, TREC files or tables.
    metric : str
        One metric as ``lt.evaluate`` reads it, of :data:`EXPLAINED` (``"ndcg@10"``, ``"map"``, ``"p@5"`` ...).
    query : str
        The query id (compared as text, like every id of a run).
    convention : str
        A preset of ``lt.CONVENTIONS``: its gain, discount, tie rule and ideal list, as ``lt.evaluate`` applies
        them.
    relevance_level : int, optional
        The lowest grade the binary metrics count relevant (trec_eval ``-l``).

    Returns
    -------
    QueryExplanation
        Prints a header (the list's length, its unjudged documents, the judged pool by grade) and the exact
        explanation; ``float()`` of it is the query's value.

    Examples
    --------
    Two judged documents, d2 (grade 2) and d5 (grade 1, never retrieved); the run ties d1 and d2 at 0.8,
    which trec_eval breaks by document id, descending: d2 first.

    >>> qrels = {"q1": {"d1": 0, "d2": 2, "d5": 1}}
    >>> run = {"q1": {"d1": 0.8, "d2": 0.8, "d3": 0.5}}
    >>> ex = explain_query(qrels, run, "p@2", "q1")
    >>> float(ex), [row["doc"] for row in ex.explanation.steps]
    (0.5, ['d2', 'd1'])
    >>> print(ex.header())
    query q1, p@2 under trec_eval: 3 documents ranked (1 unjudged); judged pool 3: 1 of grade 2, 1 of grade 1, 1 of grade 0
    """
    from importlib import import_module

    conv = get_convention(convention)
    spec = parse_measure(metric)
    if spec.name not in EXPLAINED:
        raise ValueError(f"metric {metric!r}: an exact explanation of one query exists for "
                         f"{', '.join(EXPLAINED)}; {spec.name} is computed by lt.evaluate only")
    if spec.parameter is not None:
        raise ValueError(f"metric {metric!r}: the .{spec.parameter} parameter is computed by lt.evaluate only; "
                         "explain the metric without it")
    qrels, run = _as_dict(qrels, "qrels", read_qrels), _as_dict(run, "run", read_run)
    if not isinstance(query, (str, int)) or isinstance(query, bool):
        raise ValueError(f"query must be a query id (text); got {_brief(query)}")
    query = str(query).strip()
    if query not in run:
        raise ValueError(f"query {query!r} is not in the run ({len(run)} queries, e.g. "
                         f"{', '.join(sorted(run)[:5])})")
    if query not in qrels:
        raise ValueError(f"query {query!r} has no judgments in the qrels: trec_eval leaves it out")
    judged = qrels[query]
    if conv.negative_grades == "unjudged":  # trec_eval: a negative grade is pooled but not judged relevant
        judged = {d: g for d, g in judged.items() if g >= 0}
    docs = list(run[query])
    scores = [run[query][d] for d in docs]
    grades = [judged.get(d, 0) for d in docs]
    threshold = conv.threshold if relevance_level is None else relevance_level
    func = getattr(import_module(f"ltr_teach.metrics.{EXPLAINED[spec.name].split('.')[0]}"),
                   EXPLAINED[spec.name].split(".")[1])
    kwargs = {"scores": scores, "docids": docs, "convention": conv.name}
    pool = list(judged.values())
    n_relevant = sum(1 for g in pool if g >= threshold)
    if spec.name in ("ndcg", "dcg"):
        kwargs["k"] = spec.k
        if spec.name == "ndcg" and conv.ideal == "pool":
            kwargs["ideal"] = pool
    elif spec.name == "err":
        top = max([g for g in pool if g > 0], default=1)
        kwargs.update(k=spec.k, g_max=conv.g_max if conv.g_max is not None else max(int(top), 1))
    else:  # the binary metrics read 0/1: a document is relevant from the convention's (or -l's) level up
        grades = [1 if g >= threshold else 0 for g in grades]
        if spec.name != "rprec":
            kwargs["k"] = spec.k
        if spec.name in ("map", "recall", "rprec") and conv.ideal == "pool":  # else: the list's own relevant
            kwargs["n_relevant"] = n_relevant
    explanation = func(grades, **kwargs)
    return QueryExplanation(query=query, metric=spec.text, convention=conv.name, explanation=explanation,
                            ranked=len(docs), unjudged=sum(1 for d in docs if d not in judged),
                            pool=dict(Counter(judged.values())))
