"""Implement, then verify: a student's own function checked against the library on generated cases.

A student writes NDCG, AP, MAP, RR, ERR, P@k, AUC, RBP, one document's BM25 score or the sign-flip p-value as a
plain Python or NumPy function in their notebook, and ``lt.verify(my_ndcg, "ndcg@k")`` calls it on a few hundred
cases (the edge cases first: no relevant item, one item, ties, k beyond the list, then random ones), compares
every answer with the library's exact value, and reports the first disagreement with the slip that reproduces the
student's numbers, if one does: a natural log, the gain taken as the grade, the ideal DCG not cut at k, one rank
too many, answers rounded ... A slip is named only for the disagreements it reproduces: all of them, or the first
so many (the report says how many, and shows the first it does not explain). It also names a function that
returns None or text instead of a number, shows the input on which one raised an error (with the library's rule
where the formula divides by 0), and stops one that runs too long.

This runs the student's function in the student's own kernel, for practice, with a time limit per call and for
the whole run (:mod:`ltr_teach.teaching.student_calls`). The classroom's grader never calls it: ``ltr-teach
grade`` reads answers and never runs a notebook's code.

What the function takes, by target (the library's own arguments, in the same order):

================  ========================================  ====================================================
target            the function is called as                 ``"@k"``
================  ========================================  ====================================================
``cg``,           ``f(grades)`` or ``f(grades, k)``         ``"ndcg@10"`` passes k = 10; ``"ndcg@k"`` varies k
``dcg``,                                                    (1 up to beyond the list); no ``@``: no k
``ndcg``
``err``           ``f(grades, g_max)`` or                   as above
                  ``f(grades, g_max, k)``
``rr``, ``ap``    ``f(rels)`` (0/1) or ``f(rels, k)``       as above
``map``           ``f(rankings)`` (a list of 0/1 lists,     as above (every ranking cut at k)
                  one per query) or ``f(rankings, k)``
``p``             ``f(rels, k)``                            required
``auc``           ``f(labels, scores)``                     none
``rbp``           ``f(rels, p)`` (0/1; p is 0.5, 0.8        as above
                  or 0.95) or ``f(rels, p, k)``
``bm25``          ``f(query, doc, df, n_docs, avgdl,        none
                  k1, b)``: one document's score (below)
``sign-flip``     ``f(differences)``: the two-sided         none
                  p-value of the sign-flip test
================  ========================================  ====================================================

BM25 is checked against :func:`ltr_teach.collection.bm25_scores` on small collections: ``query`` is the query's
words (a list of str; a repeated word counts again), ``doc`` the document's word counts (a
``collections.Counter``: ``doc[word]`` is 0 for a word it lacks; its length is ``sum(doc.values())``), ``df`` how
many documents hold each word (a Counter, 0 for a word in none), ``n_docs`` the number of documents, ``avgdl``
their mean length in words, ``k1`` and ``b`` the parameters (``k1`` may be 0, ``b`` 0 or 1). The score is the sum
over the query's words of ``idf · tf·(k1 + 1) / (tf + k1·(1 − b + b·dl/avgdl))`` with
``idf = ln(1 + (N − df + 0.5)/(df + 0.5))``.

The sign-flip p-value is checked against :func:`ltr_teach.sign_flips` (the exact randomisation test of
:func:`ltr_teach.compare_runs`): the share of the 2^n sign patterns of the n differences whose mean is as far from
0 as the observed mean, or farther. The differences are eighths and sixteenths, exact in binary, so a tie is a tie.
"""

from __future__ import annotations

import decimal
import html
import math
import numbers
from dataclasses import dataclass

from ..core import webfont
from ..core.i18n import N_, _, translate
from .checker import check
from .student_calls import BoundedCaller
from .verify_targets import ALIASES, SLIPS, TARGETS, Slip, arguments, cases, undefined_rule

#: How close a student's float must be to the library's value (relative, and absolute near 0).
TOLERANCE = 1e-9
#: Failing cases a slip must reproduce, all of them, to be a candidate; it is then tried on every other one.
_COLLECTED = 20
#: Disagreements the checker's catalogue (exact, about 10 ms a case) is asked about at most.
_CHECKER_AT_MOST = 500
#: The default time limits, in seconds of the student's function's own time.
SECONDS_PER_CALL = 2.0
SECONDS_IN_ALL = 10.0

_ROUNDED = N_("your answers equal the library's rounded to {places} decimals: return the full number and round "
              "only where you print it (verify compares to about 9 significant digits; a rounded value averaged "
              "over queries, or compared between two systems, carries its rounding error along)")
_SINGLE_PRECISION = N_("your function computes in single precision (NumPy float32 or float16), which keeps about 7 "
                       "significant digits; compute in float64 (NumPy's default, Python's float)")
_NAN_WHERE_UNDEFINED = N_("your function gives nan (not a number) where the formula divides by 0: {rule}")


@dataclass(frozen=True, eq=False)
class Verification:
    """What :func:`verify` found: truthy when the function agrees with the library on every case."""

    metric: str
    checked: int
    disagreements: int
    first_case: dict | None = None
    expected: float | None = None
    got: object = None
    error: str = ""
    diagnosis: str = ""
    slip: str = ""
    call: str = ""
    function: str = "ndcg"
    edges: str = ""               # the target's edge cases (a message)
    planned: int = 0
    explained: int = 0            # disagreements the named slip reproduces (the first so many)
    unexplained_call: str = ""    # the first disagreement it does not
    unexplained: tuple = ()       # its library value and the student's
    returned: str = ""            # "none" or "not-a-number": the function's answer was not a number
    rule: str = ""                # the library's rule where the formula divides by 0 on the reported case
    stopped: str = ""             # "call" or "all": which time limit stopped the function
    abandoned: bool = False
    seconds: float = 0.0          # the limit that stopped it
    seconds_used: float = 0.0

    def __bool__(self) -> bool:
        return self.checked > 0 and self.disagreements == 0 and not (self.error or self.returned or self.stopped)

    def lines(self) -> list[str]:
        if not self.checked and not self.stopped:  # func None: the notebook's cell before the function is written
            return [_("✎ {metric}: not written yet. Write your function in a new cell (def ...), then put its name "
                      "in place of None and run this cell again.").format(metric=self.metric)]
        if self:
            return [_("✓ {metric}: your function agrees with the library on all {n} cases (edge cases included: "
                      "{edges}).").format(metric=self.metric, n=self.checked, edges=translate(self.edges))]
        if self.stopped:
            return self._stopped_lines()
        if self.returned or self.error:
            return self._bad_answer_lines()
        return [_("✗ {metric}: your function disagrees with the library on {bad} of {n} cases.").format(
            metric=self.metric, bad=self.disagreements, n=self.checked)] + self._disagreement_lines()

    def _disagreement_lines(self) -> list[str]:
        lines = [_("first disagreement: {call}").format(call=self.call),
                 _("library: {expected}; yours: {got}").format(expected=_short(self.expected), got=_short(self.got))]
        if not self.diagnosis:
            return lines + [_("no common slip reproduces your numbers: compare your steps with the library's table, "
                              "for example print(lt.{function}(...)) on this case").format(function=self.function)]
        diagnosis = translate(self.diagnosis).format(places=self.slip.rpartition("-")[2], rule=translate(self.rule))
        if self.explained == self.disagreements:
            return lines + [_("likely slip: {slip}").format(slip=diagnosis)]
        return lines + [
            _("likely slip in the first {explained} of your {bad} disagreements: {slip}").format(
                explained=self.explained, bad=self.disagreements, slip=diagnosis),
            _("from disagreement {next} on, it does not give your numbers: {call}: library {expected}; yours {got}; "
              "look for a second mistake there").format(next=self.explained + 1, call=self.unexplained_call,
                                                         expected=_short(self.unexplained[0]),
                                                         got=_short(self.unexplained[1]))]

    def _bad_answer_lines(self) -> list[str]:
        where = _("case {i} of {n}; the run stopped there").format(i=self.checked, n=self.planned)
        if self.returned == "none":
            lines = [_("✗ {metric}: your function returned None on {call} ({where}).").format(
                metric=self.metric, call=self.call, where=where),
                _("a function without return (or one that prints its answer instead) gives None: end it with "
                  "return and the value")]
        elif self.returned:
            lines = [_("✗ {metric}: your function returned {what} on {call}, not a number ({where}).").format(
                metric=self.metric, what=_short(self.got), call=self.call, where=where),
                _("return the number itself (a float, an int, a NumPy number, a Fraction): text such as '0.5' is "
                  "not a number, even though float() reads it")]
        else:
            lines = [_("✗ {metric}: your function raised {error} on {call} ({where}).").format(
                metric=self.metric, error=self.error, call=self.call, where=where)]
        if self.rule:
            lines.append(translate(self.rule))
        if self.disagreements:
            lines.append(_("before that case it disagreed with the library on {bad} of {n} cases; the first: "
                           "{first}").format(bad=self.disagreements, n=self.checked - 1, first=self.unexplained_call))
        return lines

    def _stopped_lines(self) -> list[str]:
        if self.stopped == "call":
            lines = [_("✗ {metric}: stopped: your function ran longer than {seconds} s on {call} (the limit for one "
                       "call); a loop that never ends? Check that every loop comes to its end.").format(
                metric=self.metric, seconds=_seconds(self.seconds), call=self.call)]
        else:
            lines = [_("✗ {metric}: stopped after {seconds} s of your function's time, the limit for the whole run: "
                       "{checked} of {n} cases checked (about {each} s a call).").format(
                metric=self.metric, seconds=_seconds(self.seconds), checked=self.checked, n=self.planned,
                each=_seconds(self.seconds_used / max(1, self.checked + 1))),
                _("make it faster, check fewer cases (n_cases=) or allow more time (seconds_in_all=)")]
        if self.abandoned:
            lines.append(_("it could not be stopped: it is waiting inside C code (such as time.sleep), so it goes on "
                           "running in the background; restart the kernel to end it"))
        if self.disagreements:
            lines.append(_("before it stopped, it disagreed with the library on {bad} of {n} cases.").format(
                bad=self.disagreements, n=self.checked))
            lines += self._disagreement_lines()
        elif self.checked:
            lines.append(_("the {n} cases checked before it stopped all agree with the library.").format(
                n=self.checked))
        return lines

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def __repr__(self) -> str:
        return f"<Verification {self.metric}: {'agrees' if self else 'disagrees'} ({self.checked} cases)>"

    def _repr_html_(self) -> str:
        lines = self.lines()
        colour = "#1b7837" if self else "#b2182b"
        rest = "".join(f"<li>{html.escape(line)}</li>" for line in lines[1:])
        return webfont.serve(f"<div class='ltr-teach-verify'><b style='color:{colour}'>{html.escape(lines[0])}</b>"
                             + (f"<ul style='margin:4px 0'>{rest}</ul>" if rest else "") + "</div>")


def _seconds(x: float) -> str:
    return f"{x:.3g}"


def _safe_repr(x) -> str:
    try:
        return repr(x)
    except Exception:  # noqa: BLE001 - the student's object: its repr may fail too
        return f"<{type(x).__name__}>"


def _short(x) -> str:
    if isinstance(x, float):
        return f"{x:.10g}"
    text = _safe_repr(x)
    return text if len(text) <= 80 else text[:77] + "..."


def _error_text(exc: BaseException) -> str:
    """``Name: message``, even when the exception's ``str()`` itself raises."""
    try:
        message = str(exc)
    except Exception:  # noqa: BLE001 - the student's exception class: its __str__ may be broken
        message = _("(its message cannot be shown: str() of it raised an error too)")
    message = message if len(message) <= 200 else message[:197] + "..."
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


def _number(got):
    """The student's answer as a float, or None when it is not a number (text, bytes, a bool, a list, None)."""
    if got is None or isinstance(got, (bool, str, bytes, bytearray, complex)):
        return None
    if isinstance(got, (numbers.Real, decimal.Decimal)):
        pass
    elif getattr(got, "ndim", None) == 0 and getattr(getattr(got, "dtype", None), "kind", "") in "iuf":
        pass  # a 0-d NumPy array, such as np.sum's result on an array subclass
    elif getattr(got, "is_number", False) is True and getattr(got, "is_real", False) is True:
        pass  # a SymPy expression that is a real number, such as log(2)/3
    else:
        return None
    try:
        return float(got)
    except OverflowError:  # a Fraction or int beyond the largest float: a number, infinitely far from any metric
        return math.inf if got > 0 else -math.inf
    except (TypeError, ValueError):
        return None


def _parse(metric: str):
    if not isinstance(metric, str):
        raise ValueError(f"metric must be a name such as 'ndcg@10' or 'ndcg@k'; got {type(metric).__name__}")
    if not metric or metric != "".join(metric.split()):
        raise ValueError(f"metric = {metric!r} holds a space; write the name without spaces, such as 'ndcg@10'")
    name, _at, cut = metric.lower().partition("@")
    name = ALIASES.get(name, name)
    if name not in TARGETS:
        raise ValueError(f"metric = {metric!r} is not one verify can check; it checks "
                         f"{', '.join(sorted(TARGETS))} (with @10 for a fixed k, @k to vary it)")
    target = TARGETS[name]
    if target.cutoff == "none" and _at:
        raise ValueError(f"metric = {metric!r}: {name} takes no cut-off; write {name!r}")
    if target.cutoff == "required" and not _at:
        raise ValueError(f"metric = {metric!r}: {name} needs a cut-off; write '{name}@5' or '{name}@k'")
    if not _at:
        return name, None, lambda rng, n: [None]
    if cut == "k":
        return name, "k", lambda rng, n: [rng.randint(1, n + 3)]
    if not (cut.isascii() and cut.isdigit()) or len(cut) > 6 or int(cut) < 1:
        raise ValueError(f"metric = {metric!r}: the cut-off must be a whole number from 1 to 999999 in the digits "
                         "0-9, or k")
    return name, int(cut), lambda rng, n, k=int(cut): [k]


def _seconds_argument(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0 < float(value) <= 3600:
        raise ValueError(f"{name} = {_safe_repr(value)} is not allowed; it must be a number of seconds above 0 and "
                         "at most 3600")
    return float(value)


def _call_text(name: str, cutoff, case: dict) -> str:
    return "f(" + ", ".join(repr(a) for a in arguments(name, cutoff, case)) + ")"


def _same(value: float, expected: float) -> bool:
    if math.isnan(expected):
        return math.isnan(value)
    return abs(value - expected) <= TOLERANCE * max(1.0, abs(expected))


def verify(func, metric: str, n_cases: int = 300, seed: int = 0, seconds_per_call: float = SECONDS_PER_CALL,
           seconds_in_all: float = SECONDS_IN_ALL) -> Verification:
    """Check a function you wrote (a metric, BM25, the sign-flip p-value) against the library, on ``n_cases`` cases.

    Parameters
    ----------
    func : callable or None
        Your function; it takes what the library's takes (see the module's table) and returns a number. None
        (the notebook's placeholder before you write it) checks nothing and says so.
    metric : str
        ``"ndcg@10"`` (k fixed), ``"ndcg@k"`` (k varied, passed as the last argument), ``"ndcg"`` (no k); also
        ``cg``, ``dcg``, ``err``, ``rr``, ``ap``, ``map``, ``p`` (needs ``@``), ``auc``, ``rbp``, ``bm25`` and
        ``sign-flip``.
    n_cases : int
        How many cases, edge cases first (at least those, at most 5,000).
    seed : int
        Seeds the random cases: the same call checks the same cases.
    seconds_per_call, seconds_in_all : float
        The time your function may take on one case (default 2 s) and on all of them together (default 10 s);
        past either, it is stopped and the report says so.

    Returns
    -------
    Verification
        Truthy when your function agrees on every case; ``print()`` it for the first disagreement and the
        slip that reproduces your numbers.

    Examples
    --------
    A correct reciprocal rank, then one that divides by the rank of the last relevant item:

    >>> import ltr_teach as lt
    >>> bool(lt.verify(lambda rels: next((1 / r for r, x in enumerate(rels, 1) if x), 0.0), "rr"))
    True
    >>> result = lt.verify(lambda rels: ([0.0] + [1 / r for r, x in enumerate(rels, 1) if x])[-1], "rr")
    >>> bool(result), result.slip
    (False, 'last-relevant')
    """
    name, cutoff, k_rule = _parse(metric)
    label = TARGETS[name].label + ("" if cutoff is None else f"@{cutoff}")
    if func is None:  # as an exercise sheet's answer = None: not answered yet, nothing to check
        return Verification(label, 0, 0)
    if not callable(func):
        raise ValueError(f"func must be your metric function (a callable); got {type(func).__name__}")
    if isinstance(n_cases, bool) or not isinstance(n_cases, numbers.Integral) or not 1 <= n_cases <= 5000:
        raise ValueError(f"n_cases = {n_cases!r} is not allowed; it must be a whole number from 1 to 5000")
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or not 0 <= seed < 2**63:
        raise ValueError(f"seed = {seed!r} is not allowed; it must be a whole number from 0 to 2**63 - 1")
    caller = BoundedCaller(func, _seconds_argument(seconds_per_call, "seconds_per_call"),
                           _seconds_argument(seconds_in_all, "seconds_in_all"))
    return _run(name, cutoff, label, cases(name, k_rule, int(n_cases), int(seed)), caller)


def _run(name: str, cutoff, label: str, all_cases: list, caller: BoundedCaller) -> Verification:
    common = {"function": TARGETS[name].library_name, "planned": len(all_cases), "edges": TARGETS[name].edges}
    failures = []
    for i, case in enumerate(all_cases, start=1):
        expected = float(TARGETS[name].library(case))
        outcome = caller.call(arguments(name, cutoff, case))
        first_failure = _call_text(name, cutoff, failures[0][0]) if failures else ""
        if outcome.stopped:
            limit = caller.per_call if outcome.stopped == "call" else caller.used
            report = Verification(label, i - 1, len(failures), case, expected, call=_call_text(name, cutoff, case),
                                  stopped=outcome.stopped, abandoned=outcome.abandoned, seconds=limit,
                                  seconds_used=caller.used, **common)
            return _with_diagnosis(report, name, cutoff, failures) if failures else report
        value = None if outcome.error else _number(outcome.value)
        if value is None:
            return Verification(label, i, len(failures), case, expected, outcome.value, call=_call_text(name, cutoff, case),
                                error=_error_text(outcome.error) if outcome.error else "",
                                returned="" if outcome.error else "none" if outcome.value is None else "not-a-number",
                                rule=(undefined_rule(case) or "") if outcome.error else "",
                                unexplained_call=first_failure, **common)
        if not _same(value, expected):
            failures.append((case, expected, outcome.value, value))
        if caller.spent and i < len(all_cases):  # the run's time is used up: say so, with what was found
            report = Verification(label, i, len(failures), stopped="all", seconds=caller.used,
                                  seconds_used=caller.used, **common)
            return _with_diagnosis(report, name, cutoff, failures) if failures else report
    if not failures:
        return Verification(label, len(all_cases), 0, **common)
    return _with_diagnosis(Verification(label, len(all_cases), len(failures), **common), name, cutoff, failures)


def _with_diagnosis(report: Verification, name: str, cutoff, failures: list) -> Verification:
    case, expected, got, _value = failures[0]
    key, message, explained, rule = _diagnose(name, failures)
    fields = {"first_case": case, "expected": expected, "got": got, "call": _call_text(name, cutoff, case),
              "diagnosis": message, "slip": key, "explained": explained, "rule": rule}
    if key and explained < len(failures):
        later = failures[explained]
        fields.update(unexplained_call=_call_text(name, cutoff, later[0]), unexplained=(later[1], later[2]))
    return Verification(**{**report.__dict__, **fields})


# -- the diagnosis: which slip gives the student's numbers, and on how many of the disagreements ------------------

def _diagnose(name: str, failures: list) -> tuple[str, str, int, str]:
    """``(key, message, explained, rule)``: the first candidate that gives every one of the first
    :data:`_COLLECTED` disagreements, with the number of disagreements, from the first on, that it gives.

    The candidates: the checker's catalogue (:data:`ltr_teach.teaching.checker.SLIPS`, the slips ``lt.check``
    names), asked about each failing case with the student's number as the answer; then the slips that only a
    function over many lists can show (:data:`ltr_teach.teaching.verify_targets.SLIPS`); answers rounded to a few
    decimals; nan where the formula divides by 0."""
    head = failures[:_COLLECTED]
    for key, message, explains, rule in _candidates(name, head):
        if all(explains(f) for f in head):
            explained = len(head)
            while explained < len(failures) and explained < _CHECKER_AT_MOST and explains(failures[explained]):
                explained += 1
            return key, message, explained, rule
    return "", "", 0, ""


def _candidates(name: str, head: list):
    yield from _checker_candidate(name, head)
    for slip in SLIPS:
        if name in slip.metrics:
            yield slip.key, slip.message, lambda f, slip=slip: _slip_gives(slip, f), ""
    if all(getattr(getattr(got, "dtype", None), "itemsize", 8) < 8 for _c, _e, got, _v in head):
        yield "single-precision", _SINGLE_PRECISION, lambda f: _within(f[3], f[1], 2 ** -20), ""
    places = _rounded_places(head)
    if places:
        yield f"rounded-{places}", _ROUNDED, lambda f: _rounds_to(f[3], f[1], places), ""
    rule = undefined_rule(head[0][0])
    if rule:
        yield "nan-where-undefined", _NAN_WHERE_UNDEFINED, lambda f: math.isnan(f[3]) and bool(undefined_rule(f[0])), \
            rule


def _checker_candidate(name: str, head: list):
    if not hasattr(TARGETS[name].library(head[0][0]), "exact"):  # the checker reads explanations only
        return
    common, message = None, ""
    for case, _expected, _got, value in head:
        feedback = check(TARGETS[name].library(case), repr(value))
        common = set(feedback.mistakes) if common is None else common & set(feedback.mistakes)
        message = message or feedback.diagnosis
        if not common:
            return
    if len(common) == 1:
        key = next(iter(common))
        first = check(TARGETS[name].library(head[0][0]), repr(head[0][3]))
        message = first.diagnosis if len(first.mistakes) == 1 else message
        # the checker's diagnosis is already in the course's language, with its numbers filled in
        yield key, message.replace("{", "{{").replace("}", "}}"), \
            lambda f: key in check(TARGETS[name].library(f[0]), repr(f[3])).mistakes, ""


def _slip_gives(slip: Slip, failure) -> bool:
    case, expected, _got, value = failure
    try:
        slipped = slip.compute(case)
        return slipped is not None and _same(value, float(slipped)) and not _same(float(slipped), expected)
    except (ArithmeticError, ValueError):  # the slip itself divides by 0 on this case: it does not give it
        return False


def _within(value: float, expected: float, relative: float) -> bool:
    return abs(value - expected) <= relative * max(1.0, abs(expected))


def _rounds_to(value: float, expected: float, places: int) -> bool:
    return math.isfinite(value) and round(value, places) == value and abs(value - expected) <= 0.5 * 10 ** -places \
        * (1 + 1e-9)


def _rounded_places(head: list) -> int:
    """The fewest decimals (1 to 8) to which every answer in ``head`` is the library's value rounded, or 0."""
    return next((places for places in range(1, 9) if all(_rounds_to(v, e, places) for _c, e, _g, v in head)), 0)


__all__ = ["verify", "Verification", "SLIPS", "Slip", "TOLERANCE", "SECONDS_PER_CALL", "SECONDS_IN_ALL"]

