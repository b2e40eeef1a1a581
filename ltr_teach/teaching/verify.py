"""Implement, then verify: a student's own metric function checked against the library on generated rankings.

A student writes NDCG, AP, RR, ERR, P@k, AUC or RBP as a plain Python or NumPy function in their notebook, and
``lt.verify(my_ndcg, "ndcg@k")`` calls it on a few hundred rankings (the edge cases first: no relevant item,
one item, ties, k beyond the list, then random ones), compares every answer with the library's exact value,
and reports the first disagreement with the slip that reproduces the student's numbers, if one does: a
natural log, the gain taken as the grade, the ideal DCG not cut at k, AP averaging the precision at every
rank ...  A slip is named only when it gives the student's number on every case where the student and the
library disagree.

This runs the student's function in the student's own kernel, for practice. The classroom's grader never
calls it: ``ltr-teach grade`` reads answers and never runs a notebook's code.

What the function takes, by metric (the library's own arguments, in the same order):

================  ========================================  ====================================================
metric            the function is called as                 ``"@k"``
================  ========================================  ====================================================
``cg``,           ``f(grades)`` or ``f(grades, k)``         ``"ndcg@10"`` passes k = 10; ``"ndcg@k"`` varies k
``dcg``,                                                    (1 up to beyond the list); no ``@``: no k
``ndcg``
``err``           ``f(grades, g_max)`` or                   as above
                  ``f(grades, g_max, k)``
``rr``, ``ap``    ``f(rels)`` (0/1) or ``f(rels, k)``       as above
``p``             ``f(rels, k)``                            required
``auc``           ``f(labels, scores)``                     none
``rbp``           ``f(rels, p)`` (0/1; p is 0.5, 0.8        as above
                  or 0.95) or ``f(rels, p, k)``
================  ========================================  ====================================================
"""

from __future__ import annotations

import html
import math
import numbers
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from ..core import webfont
from ..core.i18n import N_, _, translate
from ..metrics import binary, graded, roc, user_models
from .checker import check

#: How close a student's float must be to the library's value (relative, and absolute near 0).
TOLERANCE = 1e-9
#: Failing cases collected before the diagnosis is made (the rest are only counted).
_COLLECTED = 20


@dataclass(frozen=True)
class _Spec:
    kind: str                 # "grades", "rels" or "labels_scores"
    library: Callable         # the library's value of one case, as a float
    cutoff: str               # "optional", "required" or "none"
    label: str
    library_name: str         # the lt.<name> whose table shows the steps


_SPECS = {
    "cg": _Spec("grades", lambda c: graded.cg(c["grades"], k=c["k"]), "optional", "CG", "cg"),
    "dcg": _Spec("grades", lambda c: graded.dcg(c["grades"], k=c["k"]), "optional", "DCG", "dcg"),
    "ndcg": _Spec("grades", lambda c: graded.ndcg(c["grades"], k=c["k"]), "optional", "NDCG", "ndcg"),
    "err": _Spec("grades", lambda c: graded.err(c["grades"], g_max=c["g_max"], k=c["k"]), "optional", "ERR", "err"),
    "rr": _Spec("rels", lambda c: binary.reciprocal_rank(c["grades"], k=c["k"]), "optional", "RR", "reciprocal_rank"),
    "ap": _Spec("rels", lambda c: binary.average_precision(c["grades"], k=c["k"]), "optional", "AP", "average_precision"),
    "p": _Spec("rels", lambda c: binary.precision_at_k(c["grades"], k=c["k"]), "required", "P", "precision_at_k"),
    "auc": _Spec("labels_scores", lambda c: roc.auc(c["labels"], c["scores"]), "none", "AUC", "auc"),
    "rbp": _Spec("rels", lambda c: user_models.rbp(c["grades"], p=c["p"], k=c["k"]), "optional", "RBP", "rbp"),
}
_ALIASES = {"reciprocal_rank": "rr", "average_precision": "ap", "precision": "p", "precision_at_k": "p",
            "mrr": "rr", "map": "ap"}


# -- the slips a diagnosis can name: each a float recomputation of one case the wrong way ---------------------

def _log2(x):
    return math.log2(x)


def _dcg_float(grades, k, gain=lambda g: 2 ** g - 1, discount=lambda r: _log2(r + 1)):
    return sum(gain(g) / discount(r) for r, g in enumerate(grades[:k] if k else grades, start=1))


def _ratio(top, bottom):
    return top / bottom if bottom else 0.0


def _ideal_not_cut(c):
    return _ratio(_dcg_float(c["grades"], c["k"]), _dcg_float(sorted(c["grades"], reverse=True), None))


def _ndcg_linear(c):
    linear = {"gain": lambda g: g}
    return _ratio(_dcg_float(c["grades"], c["k"], **linear), _dcg_float(sorted(c["grades"], reverse=True), c["k"],
                                                                          **linear))


def _ndcg_unsorted_ideal(c):
    return _ratio(_dcg_float(c["grades"], c["k"]), _dcg_float(c["grades"], c["k"]))


def _precisions_at_relevant(rels):
    hits, out = 0, []
    for rank, rel in enumerate(rels, start=1):
        if rel:
            hits += 1
            out.append(hits / rank)
    return out


def _ap_mean_of_every_precision(c):
    rels = c["grades"][:c["k"]] if c["k"] else c["grades"]
    return sum(sum(rels[:i]) / i for i in range(1, len(rels) + 1)) / len(rels)


def _ap_over_list_length(c):
    rels = c["grades"][:c["k"]] if c["k"] else c["grades"]
    return sum(_precisions_at_relevant(rels)) / len(rels)


def _rr_last_relevant(c):
    rels = c["grades"][:c["k"]] if c["k"] else c["grades"]
    ranks = [r for r, rel in enumerate(rels, start=1) if rel]
    return 1 / ranks[-1] if ranks else 0.0


def _rr_mean_over_relevant(c):
    rels = c["grades"][:c["k"]] if c["k"] else c["grades"]
    ranks = [r for r, rel in enumerate(rels, start=1) if rel]
    return sum(1 / r for r in ranks) / len(ranks) if ranks else 0.0


def _rbp_with(c, first_exponent=0, normalised=True):
    rels = c["grades"][:c["k"]] if c["k"] else c["grades"]
    total = sum(rel * c["p"] ** (rank - 1 + first_exponent) for rank, rel in enumerate(rels, start=1))
    return (1 - c["p"]) * total if normalised else total


def _err_with(c, stop=lambda g, g_max: (2 ** g - 1) / 2 ** g_max, cascade=True):
    grades = c["grades"][:c["k"]] if c["k"] else c["grades"]
    total, reach = 0.0, 1.0
    for rank, g in enumerate(grades, start=1):
        r = stop(g, c["g_max"])
        total += (reach if cascade else 1.0) * r / rank
        reach *= 1 - r
    return total


def _p_over_list(c):
    top = c["grades"][:c["k"]]
    return sum(top) / len(top)


def _auc_ties(c, tie_value):
    pos = [s for y, s in zip(c["labels"], c["scores"]) if y]
    neg = [s for y, s in zip(c["labels"], c["scores"]) if not y]
    won = sum(1.0 if p > n else tie_value if p == n else 0.0 for p in pos for n in neg)
    return won / (len(pos) * len(neg))


@dataclass(frozen=True)
class Slip:
    """A wrong way to compute a metric that a diagnosis can name: its message and its recomputation."""

    key: str
    metrics: tuple
    message: str
    compute: Callable


SLIPS = (
    Slip("rbp-rank-from-one", ("rbp",), N_("rank 1 is weighted p, not 1: the exponent is i − 1 (p⁰ = 1 at the top), "
                                          "so every weight came out p times too small"),
         lambda c: _rbp_with(c, first_exponent=1)),
    Slip("rbp-no-one-minus-p", ("rbp",), N_("the sum is not multiplied by (1 − p): RBP's weights (1 − p)·p^(i − 1) add "
                                           "up to 1, which keeps the value between 0 and 1"),
         lambda c: _rbp_with(c, normalised=False)),
    Slip("ideal-not-cut", ("ndcg",), N_("the ideal DCG sums the whole sorted list; it must stop at k, as DCG does"),
         _ideal_not_cut),
    Slip("cut-ignored", ("cg", "dcg", "ndcg", "err", "rr", "ap"),
         N_("k is ignored: the whole list counts; only the top k should"),
         lambda c: _SPECS[c["metric"]].library(dict(c, k=None))),
    Slip("exp-gain", ("cg",), N_("CG adds the grades themselves; 2^grade − 1 is DCG's gain, not CG's"),
         lambda c: sum(2 ** g - 1 for g in (c["grades"][:c["k"]] if c["k"] else c["grades"]))),
    Slip("over-list-length", ("ap",), N_("the sum of precisions is divided by the length of the list; divide by the "
                                         "number of relevant items"), _ap_over_list_length),
    Slip("last-relevant", ("rr",), N_("the reciprocal rank is that of the first relevant item, not the last"),
         _rr_last_relevant),
    Slip("mean-over-relevant", ("rr",), N_("the reciprocal rank takes the first relevant item only; it does not "
                                           "average over every relevant one"), _rr_mean_over_relevant),
    Slip("linear-stop", ("err",), N_("the stop probability is R = (2^g − 1)/2^g_max, not g/g_max"),
         lambda c: _err_with(c, stop=lambda g, g_max: g / g_max)),
    # the checker names these too, but judges one number at a time and passes over a case where another reading
    # of the number is as likely (a single tie whose 0 gives AUC exactly 1/2; a list of ten or more): recomputed
    # here on every case, they are named when the checker's judgement is silent on one of them
    Slip("ties_zero", ("auc",), N_("a tie between a positive and a negative counts 1/2, not 0"),
         lambda c: _auc_ties(c, 0.0)),
    Slip("ties_one", ("auc",), N_("a tie between a positive and a negative counts 1/2, not 1"),
         lambda c: _auc_ties(c, 1.0)),
    Slip("short_list", ("p",), N_("P@k divides by k even when the list is shorter than k (the missing ranks count "
                                  "as not relevant)"), _p_over_list),
    Slip("stop-without-minus-one", ("err",), N_("the stop probability is R = (2^g − 1)/2^g_max: the −1 makes an "
                                                "irrelevant item (g = 0) stop nobody"),
         lambda c: _err_with(c, stop=lambda g, g_max: 2 ** g / 2 ** g_max)),
)


# -- the cases ----------------------------------------------------------------------------------------------------

def _cases(metric: str, k_rule, n_cases: int, seed: int) -> list:
    spec, rng = _SPECS[metric], random.Random(seed)
    out = []
    if spec.kind == "labels_scores":
        edges = [([1, 0], [0.9, 0.1]), ([1, 0], [0.5, 0.5]), ([0, 1, 1, 0], [0.9, 0.8, 0.8, 0.1]),
                 ([1, 1, 0, 0, 1], [0.2, 0.2, 0.2, 0.2, 0.2]), ([0, 0, 1], [0.9, 0.5, 0.1])]
        for labels, scores in edges:
            out.append({"metric": metric, "labels": labels, "scores": scores})
        while len(out) < n_cases:
            n = rng.randint(2, 12)
            labels = [rng.randint(0, 1) for _ in range(n)]
            if len(set(labels)) < 2:
                continue
            out.append({"metric": metric, "labels": labels, "scores": [rng.randint(0, 9) / 10 for _ in range(n)]})
        return out
    top = 3 if spec.kind == "grades" else 1
    edges = [[0, 0, 0], [top], [top, top, top], [0, top], [1, 0, top, 0, 1] if top > 1 else [1, 0, 1, 0, 1],
             [0] * 9 + [top], [top, 0], [1, 1, 0, 0]]
    longest = min(60, max(12, (k_rule(rng, 1)[0] or 0) + 6))  # longer than a fixed k, so the cut matters
    lists = edges + [[rng.choice((0,) + tuple(range(top + 1))) for _ in range(rng.randint(1, longest))]
                     for _ in range(max(0, n_cases - len(edges)))]
    for grades in lists[:n_cases]:
        for k in k_rule(rng, len(grades)):
            case = {"metric": metric, "grades": grades, "k": k, "g_max": max(3, max(grades))}
            if metric == "rbp":  # the persistence the student's function is given (drawn only here: the
                case["p"] = rng.choice((0.5, 0.8, 0.95))  # other metrics' cases stay as they were)
            out.append(case)
    return out[:max(n_cases, len(edges))]


# -- the result ------------------------------------------------------------------------------------------------

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
    call: str = field(default="")
    function: str = "ndcg"

    def __bool__(self) -> bool:
        return self.checked > 0 and self.disagreements == 0 and not self.error

    def lines(self) -> list[str]:
        if not self.checked:  # func None: the notebook's cell before the student has written the function
            return [_("✎ {metric}: not written yet. Write your function in a new cell (def ...), then put its name "
                      "in place of None and run this cell again.").format(metric=self.metric)]
        if self:
            return [_("✓ {metric}: your function agrees with the library on all {n} cases (edge cases included: no "
                      "relevant item, one item, ties, k beyond the list).").format(metric=self.metric, n=self.checked)]
        lines = [_("✗ {metric}: your function disagrees with the library on {bad} of {n} cases.").format(
            metric=self.metric, bad=self.disagreements, n=self.checked)]
        lines.append(_("first disagreement: {call}").format(call=self.call))
        if self.error:
            lines.append(_("your function raised {error}").format(error=self.error))
        else:
            lines.append(_("library: {expected}; yours: {got}").format(expected=_short(self.expected),
                                                                        got=_short(self.got)))
        if self.diagnosis:
            lines.append(_("likely slip: {slip}").format(slip=translate(self.diagnosis)))
        else:
            lines.append(_("no common slip reproduces your numbers: compare your steps with the library's table, "
                           "for example print(lt.{function}(...)) on this case").format(function=self.function))
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


def _short(x) -> str:
    if isinstance(x, float):
        return f"{x:.10g}"
    return repr(x)[:80]


def _parse(metric: str):
    if not isinstance(metric, str):
        raise ValueError(f"metric must be a name such as 'ndcg@10' or 'ndcg@k'; got {type(metric).__name__}")
    name, _at, cut = metric.strip().lower().partition("@")
    name = _ALIASES.get(name, name)
    if name not in _SPECS:
        raise ValueError(f"metric = {metric!r} is not one verify can check; it checks "
                         f"{', '.join(sorted(_SPECS))} (with @10 for a fixed k, @k to vary it)")
    spec = _SPECS[name]
    if spec.cutoff == "none" and _at:
        raise ValueError(f"metric = {metric!r}: {name} takes no cut-off; write {name!r}")
    if spec.cutoff == "required" and not _at:
        raise ValueError(f"metric = {metric!r}: {name} needs a cut-off; write '{name}@5' or '{name}@k'")
    if not _at:
        return name, None, lambda rng, n: [None]
    if cut == "k":
        return name, "k", lambda rng, n: [rng.randint(1, n + 3)]
    if not cut.isdigit() or len(cut) > 6 or int(cut) < 1:
        raise ValueError(f"metric = {metric!r}: the cut-off must be a whole number from 1 to 999999, or k")
    return name, int(cut), lambda rng, n, k=int(cut): [k]


def _args(name: str, cutoff, case: dict) -> tuple:
    if _SPECS[name].kind == "labels_scores":
        return (list(case["labels"]), list(case["scores"]))
    args = (list(case["grades"]),) + ((case["g_max"],) if name == "err" else ()) + \
        ((case["p"],) if name == "rbp" else ())
    return args + ((case["k"],) if cutoff is not None else ())


def _call_text(name: str, cutoff, case: dict) -> str:
    return "f(" + ", ".join(repr(a) for a in _args(name, cutoff, case)) + ")"


def _same(value: float, expected: float) -> bool:
    if math.isnan(expected):
        return math.isnan(value)
    return abs(value - expected) <= TOLERANCE * max(1.0, abs(expected))


def verify(func, metric: str, n_cases: int = 300, seed: int = 0) -> Verification:
    """Check a metric function you wrote against the library, on ``n_cases`` generated cases.

    Parameters
    ----------
    func : callable or None
        Your function; it takes what the library's takes (see the module's table) and returns a number. None
        (the notebook's placeholder before you write it) checks nothing and says so.
    metric : str
        ``"ndcg@10"`` (k fixed), ``"ndcg@k"`` (k varied, passed as the last argument), ``"ndcg"`` (no k); also
        ``cg``, ``dcg``, ``err``, ``rr``, ``ap``, ``p`` (needs ``@``), ``auc`` and ``rbp``.
    n_cases : int
        How many cases, edge cases first (at least those, at most 5,000).
    seed : int
        Seeds the random cases: the same call checks the same cases.

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
    label = _SPECS[name].label + ("" if cutoff is None else f"@{cutoff}")
    if func is None:  # as an exercise sheet's answer = None: not answered yet, nothing to check
        return Verification(label, 0, 0)
    if not callable(func):
        raise ValueError(f"func must be your metric function (a callable); got {type(func).__name__}")
    if isinstance(n_cases, bool) or not isinstance(n_cases, numbers.Integral) or not 1 <= n_cases <= 5000:
        raise ValueError(f"n_cases = {n_cases!r} is not allowed; it must be a whole number from 1 to 5000")
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or not 0 <= seed < 2**63:
        raise ValueError(f"seed = {seed!r} is not allowed; it must be a whole number from 0 to 2**63 - 1")
    cases = _cases(name, k_rule, int(n_cases), int(seed))
    failures = []
    bad = 0
    for case in cases:
        expected = float(_SPECS[name].library(case))
        try:
            got = func(*_args(name, cutoff, case))
            value = float(got)
        except Exception as exc:  # noqa: BLE001 - the student's code: any error is a finding, with its case
            if not failures:
                return Verification(label, len(cases), 1, case, expected, None,
                                    error=f"{type(exc).__name__}: {str(exc)[:200]}",
                                    call=_call_text(name, cutoff, case), function=_SPECS[name].library_name)
            bad += 1
            continue
        if not _same(value, expected):
            bad += 1
            if len(failures) < _COLLECTED:
                failures.append((case, expected, got, value))
    if not bad:
        return Verification(label, len(cases), 0)
    case, expected, got, _value = failures[0]
    key, message = _diagnose(name, failures)
    return Verification(label, len(cases), bad, case, expected, got, diagnosis=message, slip=key,
                        call=_call_text(name, cutoff, case), function=_SPECS[name].library_name)


def _diagnose(name: str, failures: list) -> tuple[str, str]:
    """The slip behind every disagreement, if one gives them all: first the checker's catalogue
    (:data:`ltr_teach.teaching.checker.SLIPS`, the slips ``lt.check`` names), asked about each failing case with the
    student's number as the answer; then the few that only a function over many lists can show (:data:`SLIPS`)."""
    common, message = None, ""
    for case, _expected, _got, value in failures:
        feedback = check(_SPECS[name].library(case), repr(value))
        common = set(feedback.mistakes) if common is None else common & set(feedback.mistakes)
        message = message or feedback.diagnosis
        if not common:
            break
    if common and len(common) == 1:
        first = check(_SPECS[name].library(failures[0][0]), repr(failures[0][3]))
        return next(iter(common)), first.diagnosis if len(first.mistakes) == 1 else message
    slip = next((s for s in SLIPS if name in s.metrics and all(
        _same(v, float(s.compute(c))) and not _same(float(s.compute(c)), e) for c, e, _g, v in failures)), None)
    return (slip.key, slip.message) if slip else ("", "")


__all__ = ["verify", "Verification", "SLIPS", "Slip", "TOLERANCE"]
