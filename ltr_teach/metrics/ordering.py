"""From model scores to a ranked list: the tie rules of the real evaluation tools.

A metric needs grades in ranked order. When a model gives *scores*, the order is score
descending, and items with the same score are *tied*: each tool breaks ties its own way, and
that alone can change NDCG in the second decimal (``../shared/conventions.md``). The rules are the
entries of :data:`TIE_RULES`; :func:`rank_by_scores` applies one and remembers which items were
tied so that every steps table can show it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import sympy

from ..core.exact import fmt_cell, to_exact
from ..core.explanation import Column, Explanation
from ..core.i18n import N_, Message
from ..core.validate import as_choice, as_sequence
from .conventions import TIE_RULES, is_given  # the tie rules live with the presets: the CLI lists them without SymPy

#: Tie rules whose value is the mean over every order of each tied group; they only make sense for
#: metrics that add one term per rank (CG, DCG, NDCG, P@k, R@k).
AVERAGING_RULES = ("average",)


@dataclass(frozen=True)
class Ranked:
    """Items put in ranked order by their scores.

    Attributes
    ----------
    order : tuple of int
        The input position (0-based) of the item at each rank.
    grades, scores, docids : tuple
        Grades, exact scores and document ids in ranked order.
    groups : tuple of (int, int)
        For each rank, the first and last rank (1-based) of its tie group; ``(i, i)`` when untied.
    ties : str
        The tie rule applied (a key of :data:`TIE_RULES`).
    """

    order: tuple
    grades: tuple
    scores: tuple
    docids: tuple
    groups: tuple
    ties: str

    @property
    def averaged(self) -> bool:
        """Whether values are averaged over tie groups instead of taken in one order."""
        return self.ties in AVERAGING_RULES

    def tied_groups(self) -> list[tuple[int, int]]:
        """The (first rank, last rank) of every group of two or more tied items."""
        return sorted({g for g in self.groups if g[1] > g[0]})

    def group_mean(self, values) -> list:
        """Each rank's value replaced by the exact mean of its tie group's values."""
        out = []
        for first, last in self.groups:
            members = values[first - 1:last]
            out.append(sympy.Add(*members) / len(members))
        return out

    def describe_ties(self) -> str:
        """One sentence: which documents were tied and how the rule ordered them."""
        groups = self.tied_groups()
        if not groups:
            return Message(N_("no two items share a score: the tie rule plays no part"))
        pieces = {}
        for first, last in groups:
            docs = ", ".join(self.docids[first - 1:last])
            pieces[f"group{len(pieces)}"] = Message(N_("{docs} share score {score} (ranks {first}–{last})"), docs=docs,
                                                    score=fmt_cell(self.scores[first - 1]), first=first, last=last)
        # the groups joined by a template of placeholders only: each group's sentence is translated when shown
        joined = Message("; ".join(f"{{{key}}}" for key in pieces), **pieces)
        return Message(N_("{groups}; ties={ties}: {rule_text}"), groups=joined, ties=repr(self.ties),
                       rule_text=Message(TIE_RULES[self.ties]))


def _as_docids(docids, n: int) -> tuple:
    """Document ids as text: an id of any type (int, tuple ...) is its ``str()``.

    A TREC file's docno is text, and trec_eval orders tied docnos with ``strcmp``; reading every id
    as its text gives one order everywhere (``lt.evaluate`` uses the same rule): ids 1, 2, 10 tie as
    "2" > "10" > "1", not 10 > 2 > 1. Two ids with the same text (``1`` and ``"1"``) are refused.
    """
    if docids is None:
        return tuple(f"#{i + 1}" for i in range(n))
    values = as_sequence(docids, "docids")
    if len(values) != n:
        raise ValueError(f"docids must give one id per item; got {len(values)} docids for {n} items")
    ids = []
    for i, v in enumerate(values):
        try:
            ids.append(str(v))
        except Exception as exc:  # noqa: BLE001 - an id whose str() fails cannot be ordered as text
            raise ValueError(f"docids[{i}] cannot be read as text ({type(exc).__name__}); give str or int ids") from None
    ids = tuple(ids)
    seen = set()
    for i, d in enumerate(ids):
        if d in seen:
            raise ValueError(f"docids[{i}] = {d!r} repeats an earlier id; every document id must be unique")
        seen.add(d)
    return ids


def rank_by_scores(grades, scores, docids=None, ties="stable") -> Ranked:
    """Sort items by score descending and break ties by ``ties``.

    Parameters
    ----------
    grades : sequence of exact numbers
        Each item's grade (or 0/1 relevance), in input order, already validated.
    scores : sequence of numbers
        The model's score for each item; higher ranks first.
    docids : sequence, optional
        Document ids, each read as its ``str()`` (trec_eval's docnos are text); required by
        ``ties="docid_desc"``, which compares them as text, descending. Default ``#1, #2, ...`` (input position).
    ties : {"stable", "docid_desc", "average", "pessimistic", "optimistic"}

    Examples
    --------
    d1 and d2 share score 0.8. trec_eval puts d2 first (docno descending), LightGBM keeps d1 first
    (input order):

    >>> from ltr_teach.metrics.ordering import rank_by_scores
    >>> r = rank_by_scores([0, 3, 2], [1.0, 0.8, 0.8], docids=["d3", "d1", "d2"], ties="docid_desc")
    >>> r.docids, [int(g) for g in r.grades], r.groups
    (('d3', 'd2', 'd1'), [0, 2, 3], ((1, 1), (2, 3), (2, 3)))
    >>> rank_by_scores([0, 3, 2], [1.0, 0.8, 0.8], docids=["d3", "d1", "d2"], ties="stable").docids
    ('d3', 'd1', 'd2')

    Integer ids are compared as text, as trec_eval compares docnos: "2" > "10" > "1".

    >>> rank_by_scores([1, 0, 2], [0.5, 0.5, 0.5], docids=[1, 2, 10], ties="docid_desc").docids
    ('2', '10', '1')
    """
    ties = as_choice(ties, "ties", TIE_RULES)
    values = as_sequence(scores, "scores")
    n = len(grades)
    if len(values) != n:
        raise ValueError(f"scores must give one score per item; got {len(values)} scores for {n} grades")
    exact = [to_exact(s, f"scores[{i}]") for i, s in enumerate(values)]
    if ties == "docid_desc" and docids is None:
        raise ValueError("ties='docid_desc' breaks ties by document id, so docids must be given (one id per item)")
    ids = _as_docids(docids, n)
    # Ties are broken by a secondary key; Python's sort is stable, so "stable" needs none.
    # trec_eval compares docnos with strcmp (bytes); Python compares str by code point, which is the
    # same order as UTF-8 bytes, so sorting on the str is faithful.
    if ties == "docid_desc":
        order = sorted(sorted(range(n), key=lambda i: ids[i], reverse=True), key=lambda i: -exact[i])
    elif ties == "pessimistic":
        order = sorted(range(n), key=lambda i: (-exact[i], grades[i]))
    elif ties == "optimistic":
        order = sorted(range(n), key=lambda i: (-exact[i], -grades[i]))
    else:
        order = sorted(range(n), key=lambda i: -exact[i])
    ranked_scores = [exact[i] for i in order]
    groups, start = [], 0
    for pos in range(1, n + 1):
        if pos == n or ranked_scores[pos] != ranked_scores[start]:
            groups.extend([(start + 1, pos)] * (pos - start))
            start = pos
    return Ranked(order=tuple(order), grades=tuple(grades[i] for i in order), scores=tuple(ranked_scores),
                  docids=tuple(ids[i] for i in order), groups=tuple(groups), ties=ties)


def ranked_from_scores(grades, scores, docids, ties, metric: str, additive: bool = True):
    """The items ordered by ``scores`` under ``ties``; ``None`` when no scores were given.

    ``grades`` are validated and exact, in input order. ``additive`` says whether the metric adds one
    term per rank, the only kind for which averaging over tie orders is a per-rank operation.
    """
    if scores is None:
        for key, value in (("docids", docids), ("ties", ties)):
            if is_given(value):
                raise ValueError(f"{key} = {value!r} needs scores=: without scores the grades are already in "
                                 f"ranked order and there is nothing to tie")
        return None
    ties = "stable" if ties is None else ties
    if ties in AVERAGING_RULES and not additive:
        raise ValueError(
            f"ties = {ties!r} averages gains over tied ranks, which is defined for metrics that add one term per "
            f"rank (cg, dcg, ndcg); {metric} is not such a sum: use ties='pessimistic', 'optimistic', 'stable' "
            "or 'docid_desc'"
        )
    return rank_by_scores(grades, scores, docids=docids, ties=ties)


def _tie_cell(group) -> str:
    first, last = group
    return "" if first == last else Message(N_("ranks {first}–{last}"), first=first, last=last)


_ORDER_COLUMNS = (Column("doc", "doc"), Column("score", "score"), Column("tied", "tied"))


def annotate(ex: Explanation, ranked: Ranked, rank_key: str = "rank") -> Explanation:
    """The explanation with the document, its score and its tie group beside each rank.

    Rows whose ``rank_key`` is beyond the ranked list (an ideal list longer than the ranking) are
    left as they are. The value is untouched: it was computed from the ranked grades.
    """
    rows = []
    for row in ex.steps:
        i = row.get(rank_key)
        if isinstance(i, int) and 1 <= i <= len(ranked.order):
            row = {**row, "doc": ranked.docids[i - 1], "score": ranked.scores[i - 1],
                   "tied": _tie_cell(ranked.groups[i - 1])}
        rows.append(row)
    columns = list(ex.columns)
    at = next((j + 1 for j, c in enumerate(columns) if c.key == rank_key), 0)
    columns[at:at] = _ORDER_COLUMNS
    params = {**ex.params, "ties": ranked.ties, "order": ranked.docids}
    return dataclasses.replace(ex, steps=tuple(rows), columns=tuple(columns), params=params,
                               notes=ex.notes + (ranked.describe_ties(),))


__all__ = ["TIE_RULES", "Ranked", "rank_by_scores", "ranked_from_scores", "annotate"]
