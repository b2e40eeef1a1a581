"""Checks at the door: every public function validates its arguments here.

Each check raises ``ValueError`` naming the argument, the value and what is allowed.
"""

from __future__ import annotations

import itertools
import numbers
from collections.abc import Mapping, Sequence, Sized

from .i18n import N_, Message
from .plain import _brief


def to_exact(value, name):
    """``core.exact.to_exact``, imported on first use: checking a count or a choice (the float path of whole
    runs) needs no SymPy, whose import is about 0.2 s of every command."""
    from .exact import to_exact as exact

    return exact(value, name)


def _integer(n):
    from sympy import Integer

    return Integer(n)


def _short(values, limit: int = 12) -> str:
    values = list(values)
    text = ", ".join(repr(v) if isinstance(v, str) else str(v) for v in values[:limit])
    return "[" + text + (", ..." if len(values) > limit else "") + "]"


#: Largest grade used as an exponent (2^grade): 2^1000 still has a float, 2^1024 does not.
MAX_EXPONENT = 1000


#: The most items one exact explanation takes (a ranking's ranks, a pool's grades, AUC's items). Every
#: exact call and its text, HTML and LaTeX answer within 2 s up to here (benchmarks/bench_limits.py);
#: longer rankings are for ``lt.evaluate``, which uses NumPy floats.
MAX_ITEMS = 1000
#: The most items of all queries together in one MRR or MAP explanation.
MAX_TOTAL_ITEMS = 10_000
#: The largest cut-off k or count (n_relevant, g_max before its own limit): beyond it a number is a typo,
#: and a name such as ``P@k`` must stay printable.
MAX_COUNT = 10**9
#: The most items a call reads without showing each as a row: the judged pool of an NDCG@k (its table shows
#: the top k of it), the ranks below k of an NDCG@k without scores, the misses of a long AP (its table shows
#: one row per relevant rank). Reading them costs about 10 µs each (0.2 s for 20,000; a TREC topic judges 1,000-3,000).
MAX_POOL = 20_000


def _too_many(name: str, count: str, limit: int) -> ValueError:
    if limit == MAX_POOL:
        return ValueError(
            f"{name} has {count} items; an exact call reads at most {limit} items beyond the rows it shows "
            "(an NDCG@k shows k rows, an AP one row per relevant rank); score longer rankings with lt.evaluate, "
            "which uses NumPy floats"
        )
    return ValueError(
        f"{name} has {count} items; an exact explanation takes at most {limit} (it builds one exact row per "
        "item and answers within 2 s up to there); score longer rankings with lt.evaluate, which uses NumPy floats"
    )


def as_sequence(values, name: str, allow_empty: bool = False, limit: int = MAX_ITEMS) -> list:
    """A list from a list, tuple or NumPy array; rejects strings, scalars, (by default) empties and more
    than ``limit`` items (checked before reading them, so an endless iterator cannot hang)."""
    if isinstance(values, (str, bytes, Mapping, set, frozenset)):
        raise ValueError(f"{name} must be a list of numbers in ranked order; got {_brief(values)}")
    if isinstance(values, Sized) and not isinstance(values, (str, bytes)):
        try:
            size = len(values)
        except TypeError:  # a 0-d NumPy array is Sized but has no len()
            size = None
        if size is not None and size > limit:
            raise _too_many(name, str(size), limit)
    if hasattr(values, "tolist") and not isinstance(values, (list, tuple)):
        values = values.tolist()
    if not isinstance(values, Sequence) and not hasattr(values, "__iter__"):
        raise ValueError(f"{name} must be a list of numbers in ranked order; got {_brief(values)}")
    values = list(itertools.islice(values, limit + 1))
    if len(values) > limit:
        raise _too_many(name, f"more than {limit}", limit)
    if not values and not allow_empty:
        raise ValueError(f"{name} must not be empty; got []")
    return values


def as_grades(values, name: str = "grades", integer: bool = False, allow_empty: bool = False,
              integer_reason: str = "exponential gain 2^grade - 1 needs integer grades "
                                    "(use gain='linear' for fractional grades)", limit: int = MAX_ITEMS) -> list:
    """Exact non-negative grades; ``integer=True`` also requires whole numbers (``integer_reason`` says why)."""
    out = []
    for i, v in enumerate(as_sequence(values, name, allow_empty, limit=limit)):
        g = to_exact(v, f"{name}[{i}]")
        if g < 0:
            raise ValueError(f"{name}[{i}] = {v} is negative; grades must be non-negative numbers ({_NEGATIVE_HINT})")
        if integer and not g.is_Integer:
            raise ValueError(f"{name}[{i}] = {v} is not a whole number; {integer_reason}")
        if integer and g > MAX_EXPONENT:
            raise ValueError(
                f"{name}[{i}] = {v} is too large for an exponent 2^grade (at most {MAX_EXPONENT}); relevance grades "
                "are small whole numbers such as 0..4"
            )
        out.append(g)
    return out


#: How a negative grade (TREC Web track qrels: -1 judged non-relevant, -2 spam) may be read: what the refusal says.
_NEGATIVE_HINT = "TREC's -1 and -2 judgments are read as trec_eval reads them under convention='trec_eval'"

#: What trec_eval makes of a negative judgment at each place (form_res_rels.c: the document is in the pool
#: but unjudged): in a ranking it is not relevant, in the ideal pool it is left out, for bpref and judged@k
#: it is not judged.
NEGATIVE_READINGS = {
    "not_relevant": N_("not relevant (it adds nothing)"),
    "unjudged": N_("not judged (neither relevant nor judged non-relevant)"),
    "dropped": N_("left out of the ideal list (not a judged grade)"),
}


def read_negative_grades(values, name: str, rule: str, reading: str, allow_empty: bool = False,
                         limit: int = MAX_ITEMS):
    """The values with TREC's negative judgments read as trec_eval reads them, and a note saying so.

    Parameters
    ----------
    values : sequence of numbers (or None)
        Grades in ranked order, or a judged pool.
    name : str
        The argument's name, for the note and the messages.
    rule : {"error", "unjudged"}
        A convention's ``negative_grades``: ``"error"`` leaves the values alone (the grade checks then
        refuse a negative grade); ``"unjudged"`` (trec_eval's conventions) reads each negative number as
        ``reading`` says.
    reading : {"not_relevant", "unjudged", "dropped"}
        What a negative grade becomes (:data:`NEGATIVE_READINGS`): 0, ``None``, or nothing.

    Returns
    -------
    (list, tuple of str)
        The values and the notes (empty when no grade was negative).

    Examples
    --------
    >>> read_negative_grades([2, -1, 1], "grades", "unjudged", "not_relevant")[0]
    [2, 0, 1]
    >>> read_negative_grades([3, -2, 1], "ideal", "unjudged", "dropped")[0]
    [3, 1]
    """
    values = as_sequence(values, name, allow_empty=allow_empty, limit=limit)
    if rule != "unjudged":
        return values, ()
    out, negative = [], []
    for i, v in enumerate(values):
        if v is not None and to_exact(v, f"{name}[{i}]") < 0:
            negative.append(f"{name}[{i}] = {v}")
            if reading == "not_relevant":
                out.append(0)
            elif reading == "unjudged":
                out.append(None)
            continue
        out.append(v)
    if not negative:
        return values, ()
    shown = ", ".join(negative[:5])
    if len(negative) > 5:
        shown = Message(N_("{shown} and {n} more"), shown=shown, n=len(negative) - 5)
    note = Message(N_("{shown}: a negative grade (TREC: -1 judged non-relevant, -2 spam) is read as trec_eval reads "
                      "it (in the pool but unjudged): {reading}"), shown=shown, reading=Message(NEGATIVE_READINGS[reading]))
    return out, (note,)


_BINARY_ALLOWED = "binary metrics take 0/1 relevance (pass threshold=1 to treat grades >= 1 as relevant)"


def as_rels(values, name: str = "rels", threshold=None, allowed: str = _BINARY_ALLOWED, limit: int = MAX_ITEMS) -> list:
    """0/1 relevance in ranked order; with ``threshold`` grades >= threshold count as relevant."""
    if threshold is not None:
        t = to_exact(threshold, "threshold")
        if t <= 0:
            raise ValueError(f"threshold = {threshold} must be > 0 (a grade of 0 is never relevant)")
        return [_integer(1 if g >= t else 0) for g in as_grades(values, name, limit=limit)]
    out = []
    for i, v in enumerate(as_sequence(values, name, limit=limit)):
        r = to_exact(v, f"{name}[{i}]")
        if r not in (0, 1):
            raise ValueError(f"{name}[{i}] = {v} is not 0 or 1; {allowed}")
        out.append(_integer(int(r)))
    return out


def as_k(k, name: str = "k", allow_none: bool = True):
    """``None`` (the whole list) or an int >= 1."""
    if k is None and allow_none:
        return None
    if isinstance(k, bool) or not isinstance(k, numbers.Integral):
        allowed = "an integer >= 1 or None" if allow_none else "an integer >= 1"
        raise ValueError(f"{name} must be {allowed}; got {k!r}")
    if k < 1:
        allowed = "an integer >= 1 or None (the whole list)" if allow_none else "an integer >= 1"
        raise ValueError(f"{name} must be {allowed}; got {k}")
    if k > MAX_COUNT:
        raise ValueError(f"{name} = {_brief(k)} is too large; a cut-off is at most {MAX_COUNT}")
    return int(k)


def as_count(n, name: str, minimum: int = 0) -> int:
    """A whole count such as ``n_relevant`` or ``g_max`` (at most :data:`MAX_COUNT`)."""
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise ValueError(f"{name} must be an integer >= {minimum}; got {_brief(n)}")
    if n < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}; got {n}")
    if n > MAX_COUNT:
        raise ValueError(f"{name} = {_brief(n)} is too large; a count is at most {MAX_COUNT}")
    return int(n)


def as_choice(value, name: str, allowed) -> str:
    """One of a registry's names."""
    if not isinstance(value, str) or value not in allowed:
        names = ", ".join(repr(a) for a in allowed)
        raise ValueError(f"{name} must be one of {names}; got {value!r}")
    return value


def by_query_name(mapping: Mapping, name: str) -> dict:
    """``{str(key): value}``; ``ValueError`` when two keys print alike (``1`` and ``"1"``).

    Query names label the steps and ``.parts`` as text, so two keys with one text would silently
    overwrite each other.
    """
    out, original = {}, {}
    for key, value in mapping.items():
        text = str(key)
        if text in out:
            raise ValueError(f"{name} has two queries named {text!r} ({original[text]!r} and {key!r}); "
                             "query names must differ as text")
        out[text], original[text] = value, key
    return out


def as_queries(list_of_rels, name: str = "list_of_rels"):
    """Queries for MRR/MAP: a list of rankings, or a dict ``{query name: ranking}``.

    Returns ``(query name, ranking)`` pairs; a list's queries are named ``q1``, ``q2`` ...
    """
    if isinstance(list_of_rels, Mapping):
        if len(list_of_rels) > MAX_ITEMS:
            raise ValueError(f"{name} has {len(list_of_rels)} queries; an exact explanation takes at most {MAX_ITEMS} "
                             "(use lt.evaluate for whole runs)")
        items = list(by_query_name(list_of_rels, name).items())
        where = [f"{name}[{q!r}]" for q in list_of_rels]
    else:
        items = [(f"q{i + 1}", r) for i, r in enumerate(as_sequence(list_of_rels, name))]
        where = [f"{name}[{i}]" for i in range(len(items))]
    if any(isinstance(r, numbers.Number) for _, r in items):
        shown = repr(list_of_rels) if len(repr(list_of_rels)) <= 80 else repr(list_of_rels)[:77] + "..."
        raise ValueError(
            f"{name} must hold one ranking per query, e.g. [[0, 1, 0], [1, 0, 0]]; got {shown}, "
            "which holds numbers (for a single ranking wrap it in a list, or use the single-query metric)"
        )
    if not items:
        raise ValueError(f"{name} must hold at least one query; got an empty collection")
    total = 0
    for (_, rels), at in zip(items, where):
        if isinstance(rels, Sized) and not isinstance(rels, (str, bytes)):
            try:
                size = len(rels)
            except TypeError:
                continue
            if size == 0:
                raise ValueError(f"{at} must not be empty; every query needs at least one ranked item")
            total += size
    if total > MAX_TOTAL_ITEMS:
        raise _too_many(f"{name} (all queries together)", str(total), MAX_TOTAL_ITEMS)
    return items


__all__ = ["MAX_ITEMS", "MAX_POOL", "MAX_TOTAL_ITEMS", "NEGATIVE_READINGS", "read_negative_grades",
           "as_sequence", "as_grades", "as_rels", "as_k", "as_count", "as_choice", "as_queries", "by_query_name",
           "_short"]
