"""lt.verify: a student's own metric function checked against the library. The correct implementations here
are written from the definitions (not from the library), and each buggy one makes one named slip."""

from __future__ import annotations

import itertools
import math
import sys
import time
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

import ltr_teach as lt
from ltr_teach.core.i18n import using_language


def _dcg(grades, k=None, gain=lambda g: 2 ** g - 1, log=math.log2):
    return sum(gain(g) / log(rank + 1) for rank, g in enumerate(grades[:k] if k else grades, start=1))


def _ndcg(grades, k=None):
    ideal = _dcg(sorted(grades, reverse=True), k)
    return _dcg(grades, k) / ideal if ideal else 0.0


def _rr(rels, k=None):
    return next((1 / rank for rank, rel in enumerate(rels[:k] if k else rels, start=1) if rel), 0.0)


def _ap(rels, k=None):
    """trec_eval's AP@k: the precisions at the relevant ranks of the top k, divided by every relevant item."""
    hits, total = 0, 0.0
    for rank, rel in enumerate(rels[:k] if k else rels, start=1):
        if rel:
            hits += 1
            total += hits / rank
    return total / sum(rels) if sum(rels) else 0.0


def _err(grades, g_max, k=None):
    total, reach = 0.0, 1.0
    for rank, g in enumerate(grades[:k] if k else grades, start=1):
        stop = (2 ** g - 1) / 2 ** g_max
        total += reach * stop / rank
        reach *= 1 - stop
    return total


def _auc(labels, scores):
    pos = [s for y, s in zip(labels, scores) if y]
    neg = [s for y, s in zip(labels, scores) if not y]
    return sum(1.0 if p > n else 0.5 if p == n else 0.0 for p in pos for n in neg) / (len(pos) * len(neg))


def _rbp(rels, p, k=None):
    """Moffat & Zobel's RBP: (1 - p) times the sum of p^(i-1) over the relevant ranks i."""
    return (1 - p) * sum(p ** (rank - 1) for rank, rel in enumerate(rels[:k] if k else rels, start=1) if rel)


CORRECT = [
    (lambda g: sum(g), "cg"), (lambda g, k: sum(g[:k]), "cg@k"), (_dcg, "dcg"), (_dcg, "dcg@k"), (_ndcg, "ndcg"),
    (_ndcg, "ndcg@10"), (_ndcg, "ndcg@k"), (_err, "err"), (_err, "err@k"), (_rr, "rr"), (_rr, "rr@k"), (_ap, "ap"),
    (_ap, "ap@k"), (lambda r, k: sum(r[:k]) / k, "p@k"), (lambda r, k: sum(r[:k]) / k, "p@5"), (_auc, "auc"),
    (_rbp, "rbp"), (_rbp, "rbp@k"),
]


@pytest.mark.parametrize(("func", "metric"), CORRECT, ids=[m for _, m in CORRECT])
def test_a_correct_function_agrees(func, metric):
    result = lt.verify(func, metric)
    assert result, str(result)
    assert result.checked >= 300 and result.disagreements == 0


#: The keys are the checker's (lt.check names the same slips: ltr_teach.teaching.checker.SLIPS) or, for the few only
#: a function over many lists shows, verify's own (ltr_teach.teaching.verify.SLIPS)
SLIPPED = [
    (lambda g, k: _dcg(g, k, log=lambda x: math.log(x)), "dcg@k", "base"),
    (lambda g, k: _dcg(g, k, gain=lambda x: x) / (_dcg(sorted(g, reverse=True), k, gain=lambda x: x) or 1),
     "ndcg@k", "gain"),
    (lambda g, k: _dcg(g, k) / (_dcg(sorted(g, reverse=True)) or 1), "ndcg@k", "ideal-not-cut"),
    (lambda g, k: 1.0 if _dcg(g, k) else 0.0, "ndcg@k", "ideal_unsorted"),
    (lambda g, k: _ndcg(g), "ndcg@k", "cut-ignored"),
    (lambda r: sum(sum(r[:i]) / i for i in range(1, len(r) + 1)) / len(r), "ap", "ap_all_ranks"),
    (lambda r: _ap(r) * sum(r) / len(r), "ap", "over-list-length"),
    (lambda r: ([0.0] + [1 / rank for rank, x in enumerate(r, 1) if x])[-1], "rr", "last-relevant"),
    (lambda g, g_max: sum((2 ** x - 1) / 2 ** g_max / rank for rank, x in enumerate(g, 1)), "err", "err_no_cascade"),
    (lambda labels, scores: _auc(labels, scores) - 0.5 * sum(p == n for p in [s for y, s in zip(labels, scores) if y]
                                                             for n in [s for y, s in zip(labels, scores) if not y])
     / (sum(labels) * (len(labels) - sum(labels))), "auc", "ties_zero"),
    (lambda r, k: _ap(r[:k]), "ap@k", "ap_retrieved"),
    (lambda r, k: sum(r[:k]) / len(r[:k]), "p@k", "short_list"),
    (lambda r, p: _rbp(r, p) * p, "rbp", "rbp-rank-from-one"),
    (lambda r, p: _rbp(r, p) / (1 - p), "rbp", "rbp-no-one-minus-p"),
]


@pytest.mark.parametrize(("func", "metric", "slip"), SLIPPED, ids=[s for *_, s in SLIPPED])
def test_a_slip_is_named_when_it_reproduces_every_disagreement(func, metric, slip):
    result = lt.verify(func, metric)
    assert not result
    assert result.slip == slip, str(result)
    assert "likely slip" in str(result) and result.call.startswith("f(")


def test_no_slip_is_named_when_none_reproduces_the_numbers():
    result = lt.verify(lambda g, k: 0.42, "ndcg@k")
    assert not result and result.slip == "" and "no common slip" in str(result)


def test_an_error_in_the_students_function_is_reported_with_its_case():
    result = lt.verify(lambda g, k: 1 / sum(g), "ndcg@k")   # ZeroDivisionError when no item is relevant
    assert not result and result.error.startswith("ZeroDivisionError") and "raised" in str(result)
    assert lt.verify(lambda g: "high", "cg").returned == "not-a-number"
    assert lt.verify(lambda g: [1, 2], "cg").returned == "not-a-number"


def test_numpy_results_and_a_function_that_changes_its_input_are_fine():
    def sorts_in_place(grades, k):
        value = _ndcg(grades, k)
        grades.sort()           # the student's list, a copy: the library's case is untouched
        return np.float64(value)

    assert lt.verify(sorts_in_place, "ndcg@k", n_cases=np.int64(120))


def test_none_is_not_written_yet():
    result = lt.verify(None, "ndcg@k")
    assert not result and result.checked == 0 and "not written yet" in str(result)


def test_the_verdict_reads_in_chinese():
    with using_language("zh"):
        text = str(lt.verify(lambda r: ([0.0] + [1 / rank for rank, x in enumerate(r, 1) if x])[-1], "rr"))
    assert "第一个" in text or "首个" in text
    assert "your function" not in text and "likely slip" not in text


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"metric": "bleu"}, "is not one verify can check"), ({"metric": "p"}, "needs a cut-off"),
    ({"metric": "auc@5"}, "takes no cut-off"), ({"metric": "ndcg@1e999999999"}, "the cut-off must be a whole number"),
    ({"metric": "ndcg@0"}, "the cut-off must be a whole number"), ({"metric": "ndcg@" + "9" * 5000}, "cut-off"),
    ({"metric": 10}, "metric must be a name"), ({"n_cases": 0}, "n_cases = 0"), ({"n_cases": 10**9}, "n_cases"),
    ({"n_cases": True}, "n_cases = True"), ({"seed": -1}, "seed = -1"), ({"func": 3}, "func must be your metric"),
])
def test_bad_arguments_name_themselves(kwargs, message):
    arguments = {"func": _ndcg, "metric": "ndcg@k", **kwargs}
    with pytest.raises(ValueError, match=message):
        lt.verify(arguments.pop("func"), **arguments)


def test_the_grader_never_runs_a_students_function():
    from pathlib import Path

    from ltr_teach.teaching import classroom

    assert "verify" not in Path(classroom.__file__).read_text(encoding="utf-8")


def _bm25(query, doc, df, n_docs, avgdl, k1, b):
    """Okapi BM25 of one document as Robertson & Zaragoza write it, with Lucene's idf ln(1 + (N - df + .5)/(df + .5))."""
    dl = sum(doc.values())
    total = 0.0
    for word in query:
        if doc[word]:
            idf = math.log(1 + (n_docs - df[word] + 0.5) / (df[word] + 0.5))
            total += idf * doc[word] * (k1 + 1) / (doc[word] + k1 * (1 - b + b * dl / avgdl))
    return total


def test_bm25_is_checked_against_the_collections_ranker():
    result = lt.verify(_bm25, "bm25")
    assert result and result.checked == 300, str(result)


def test_bm25_by_hand_on_the_first_case():
    """The first case: N = 3 documents of 3, 4 and 2 words; 'serum' is in 2 of them, twice in d1 (dl = 3 = avgdl).
    idf = ln(1 + 1.5/2.5) = ln 1.6; k1 = 1.2, b = 0.75: tf (k1 + 1)/(tf + k1) = 2 * 2.2 / 3.2 = 1.375."""
    from ltr_teach.teaching.verify_targets import TARGETS, cases

    case = cases("bm25", lambda rng, n: [None], 10, 0)[0]
    assert (case["query"], case["doc"]["serum"], case["df"]["serum"], case["n_docs"], case["avgdl"]) == \
        (["serum"], 2, 2, 3, 3.0)
    assert float(TARGETS["bm25"].library(case)) == pytest.approx(math.log(1.6) * 1.375, rel=1e-12)


@pytest.mark.parametrize(("slip", "func"), [
    ("bm25-idf-log-n-over-df", lambda q, d, df, n, avg, k1, b: sum(
        math.log(n / df[w]) * d[w] * (k1 + 1) / (d[w] + k1 * (1 - b + b * sum(d.values()) / avg)) for w in q if d[w])),
    ("bm25-query-words-once", lambda q, d, df, n, avg, k1, b: _bm25(sorted(set(q)), d, df, n, avg, k1, b)),
    ("bm25-no-k1-plus-one", lambda q, d, df, n, avg, k1, b: _bm25(q, d, df, n, avg, k1, b) / (k1 + 1)),
])
def test_bm25_slips_are_named(slip, func):
    result = lt.verify(func, "bm25")
    assert not result and result.slip == slip, str(result)


def test_bm25_zero_division_at_k1_zero_is_explained():
    def no_skip(q, d, df, n, avg, k1, b):
        dl = sum(d.values())
        return sum(math.log(1 + (n - df[w] + 0.5) / (df[w] + 0.5)) * d[w] * (k1 + 1) / (d[w] + k1 * (1 - b + b * dl / avg))
                   for w in q)

    result = lt.verify(no_skip, "bm25")
    assert result.error.startswith("ZeroDivisionError") and result.first_case["k1"] == 0
    assert "k1 = 0" in str(result) and "skip it" in str(result)


# -- MAP and the sign-flip p-value ----------------------------------------------------------------------------------

def _map(rankings, k=None):
    return sum(_ap(r, k) for r in rankings) / len(rankings)


def _sign_flip_p(differences):
    """Every one of the 2^n sign patterns; two-sided: |sum| at least the observed |sum| (sums, so no division)."""
    observed = abs(sum(differences))
    patterns = list(itertools.product((1, -1), repeat=len(differences)))
    return sum(abs(sum(s * d for s, d in zip(signs, differences))) >= observed for signs in patterns) / len(patterns)


def test_map_and_the_sign_flip_p_value_are_targets():
    from ltr_teach.teaching.verify_targets import TARGETS

    # by hand: AP of [1, 0, 1] is (1 + 2/3)/2 = 5/6, of [0, 1] 1/2: MAP 2/3; flips of (.5, -.25, .125): the sums
    # ±.875, ±.625, ±.375, ±.125, six of eight at least .375 away from 0
    assert float(TARGETS["map"].library({"rankings": [[1, 0, 1], [0, 1]], "k": None})) == pytest.approx(2 / 3)
    assert TARGETS["sign-flip"].library({"differences": [0.5, -0.25, 0.125]}) == Fraction(3, 4)
    for func, metric in ((_map, "map"), (_map, "map@k"), (_map, "map@3"), (_sign_flip_p, "sign-flip"),
                         (_sign_flip_p, "permutation")):
        result = lt.verify(func, metric)
        assert result and result.checked == 300, str(result)


@pytest.mark.parametrize(("func", "metric", "slip"), [
    (lambda rs: sum(_ap(r) for r in rs), "map", "map-sum"),
    (lambda rs: sum(_ap(r) for r in rs) / max(1, sum(1 for r in rs if any(r))), "map", "map-skips-empty"),
    (lambda rs: sum(hits / rank for r in rs for hits, rank in _hits_and_ranks(r)) / max(1, sum(map(sum, rs))), "map", "map-pooled"),
    (lambda d: _sign_flip_p(d) * 2 ** len(d), "sign-flip", "sign-flip-count"),
    (lambda d: sum(sum(s * x for s, x in zip(signs, d)) >= sum(d) for signs in itertools.product((1, -1), repeat=len(d)))
     / 2 ** len(d), "sign-flip", "sign-flip-one-sided"),
])
def test_map_and_sign_flip_slips_are_named(func, metric, slip):
    result = lt.verify(func, metric)
    assert not result and result.slip == slip, str(result)


def _hits_and_ranks(rels):
    hits = 0
    for rank, rel in enumerate(rels, start=1):
        if rel:
            hits += 1
            yield hits, rank


# -- what the function returns ---------------------------------------------------------------------------------------

@pytest.mark.parametrize(("answer", "returned"), [
    (lambda g: None, "none"), (lambda g: str(float(sum(g))), "not-a-number"), (lambda g: b"0.5", "not-a-number"),
    (lambda g: [sum(g)], "not-a-number"), (lambda g: complex(sum(g)), "not-a-number"), (lambda g: True, "not-a-number"),
    (lambda g: np.array([sum(g)]), "not-a-number"), (lambda g: {"cg": sum(g)}, "not-a-number"),
])
def test_an_answer_that_is_not_a_number_is_named(answer, returned):
    result = lt.verify(answer, "cg")
    assert not result and result.returned == returned and result.checked == 1 and result.call == "f([0, 0, 0])"
    text = str(result)
    assert ("returned None" in text and "without return" in text) if returned == "none" else "not a number" in text


def test_numbers_of_every_kind_are_accepted():
    import sympy

    for kind in (int, float, Fraction, Decimal, np.int64, np.float64, sympy.Integer, np.array, lambda x: sympy.log(2 ** x, 2)):
        assert lt.verify(lambda g, kind=kind: kind(sum(g)), "cg"), kind


def test_a_huge_fraction_is_a_number_that_disagrees():
    result = lt.verify(lambda g: Fraction(10 ** 400), "cg")
    assert not result and not result.returned and result.disagreements == 300


def test_single_precision_is_named():
    result = lt.verify(lambda g, k: np.float32(_ndcg(g, k)), "ndcg@k")
    assert not result and result.slip == "single-precision", str(result)


# -- errors ----------------------------------------------------------------------------------------------------------

def test_an_exception_whose_str_raises_is_reported():
    class Unprintable(Exception):
        def __str__(self):
            raise RuntimeError("no")

    def raises(grades, k):
        raise Unprintable

    result = lt.verify(raises, "ndcg@k")
    assert result.error.startswith("Unprintable") and "str() of it raised" in str(result)
    assert "Unprintable" in result._repr_html_()


def test_a_zero_division_at_idcg_zero_shows_the_input_and_the_rule():
    result = lt.verify(lambda g, k: _dcg(g, k) / _dcg(sorted(g, reverse=True), k), "ndcg@k")
    assert result.error.startswith("ZeroDivisionError") and result.call == "f([0, 0, 0], 1)"
    assert "ideal DCG is 0" in str(result) and "NDCG = 0" in str(result)


def test_nan_where_idcg_is_zero_is_named_with_the_rule():
    result = lt.verify(lambda g, k: _ndcg(g, k) if any(g) else math.nan, "ndcg@k")
    assert not result and result.slip == "nan-where-undefined" and "NDCG = 0" in str(result)


# -- answers equal once rounded; one rank too many; a slip that holds for a while ------------------------------------

def test_answers_rounded_to_four_decimals_are_named():
    result = lt.verify(lambda g, k: round(_ndcg(g, k), 4), "ndcg@k")
    assert not result and result.slip == "rounded-4" and "rounded to 4 decimals" in str(result)
    assert result.explained == result.disagreements


@pytest.mark.parametrize(("func", "metric"), [
    (lambda g, k: _ndcg(g, k + 1), "ndcg@k"), (lambda g, k: _dcg(g[:k + 1]), "dcg@5"),
    (lambda r, k: sum(r[:k + 1]) / k, "p@k"), (lambda r, k: _ap(r, k + 1), "ap@3"),
])
def test_one_rank_too_many_is_named(func, metric):
    result = lt.verify(func, metric)
    assert not result and result.slip == "k-plus-one" and "k + 1" in str(result), str(result)


def test_a_slip_is_credited_only_with_the_disagreements_it_reproduces():
    """The issue's function: the whole list (k ignored) for 60 calls, then nonsense. The slip is named for the
    disagreements among the first 60 cases, counted here with this file's own NDCG."""
    from ltr_teach.teaching.verify import _parse
    from ltr_teach.teaching.verify_targets import cases

    calls = []

    def drifts(grades, k):
        calls.append(1)
        return _ndcg(grades) if len(calls) <= 60 else 0.123

    result = lt.verify(drifts, "ndcg@k")
    generated = cases("ndcg", _parse("ndcg@k")[2], 300, 0)
    early = sum(not math.isclose(_ndcg(c["grades"]), _ndcg(c["grades"], c["k"]), abs_tol=1e-12) for c in generated[:60])
    late = sum(not math.isclose(0.123, _ndcg(c["grades"], c["k"]), abs_tol=1e-12) for c in generated[60:])
    assert result.slip == "cut-ignored" and result.disagreements == early + late
    assert result.explained == early and 20 <= early < result.disagreements
    assert f"first {early} of your {early + late} disagreements" in str(result) and "0.123" in str(result)


# -- time limits -----------------------------------------------------------------------------------------------------

def _verify_within(seconds, *args, **kwargs):
    """lt.verify run in a thread, failing the test (not hanging it) if it gives no answer in ``seconds``: a generous
    bound that says only "it does not hang", never how fast it is."""
    import threading

    box = []
    worker = threading.Thread(target=lambda: box.append(lt.verify(*args, **kwargs)), daemon=True)
    worker.start()
    worker.join(seconds)
    assert box, f"lt.verify gave no answer in {seconds} s"
    return box[0]


def _loops_forever(grades, k):
    while True:
        pass


def _loops_and_swallows(grades, k):
    while True:
        try:
            sum(range(100))
        except Exception:  # a student's catch-all must not keep verify from stopping the function
            pass


def _sleeps_forever(grades, k):
    time.sleep(10 ** 6)


@pytest.mark.parametrize("func", [_loops_forever, _loops_and_swallows])
def test_a_function_that_never_returns_is_stopped(func):
    result = _verify_within(60, func, "ndcg@k", seconds_per_call=0.2)
    assert not result and result.stopped == "call" and not result.abandoned and result.checked == 0
    assert "ran longer than 0.2 s on f([0, 0, 0], 1)" in str(result)


def test_a_function_stuck_in_c_code_is_abandoned_with_a_message():
    result = _verify_within(60, _sleeps_forever, "ndcg@k", seconds_per_call=0.2)
    assert not result and result.stopped == "call" and result.abandoned
    assert "restart the kernel" in str(result)


def test_a_slow_correct_function_is_stopped_by_the_runs_limit():
    def slow(grades, k):
        time.sleep(0.05)
        return _ndcg(grades, k)

    result = _verify_within(60, slow, "ndcg@k", seconds_in_all=0.5)
    assert not result and result.stopped == "all" and 0 < result.checked < 300 and result.disagreements == 0
    assert f"{result.checked} of 300 cases checked" in str(result) and "all agree" in str(result)


def test_without_threads_a_trace_function_stops_a_loop(monkeypatch):
    """Pyodide has no threads: the call runs in the caller's thread under a trace function with a deadline."""
    from ltr_teach.teaching import student_calls

    monkeypatch.setattr(student_calls, "_threads_available", lambda: False)
    result = _verify_within(60, _loops_forever, "ndcg@k", seconds_per_call=0.2)
    assert result.stopped == "call" and "ran longer than 0.2 s" in str(result)
    previous = sys.gettrace()
    assert lt.verify(_ndcg, "ndcg@k", n_cases=40)  # a correct function still passes, and the caller's trace is back
    assert sys.gettrace() is previous


def test_without_async_exceptions_a_trace_in_the_worker_stops_a_loop(monkeypatch):
    """Where ctypes.pythonapi is missing (PyPy), the worker watches for the stop through a trace function."""
    from ltr_teach.teaching import student_calls

    monkeypatch.setattr(student_calls, "_async_raise_available", lambda: False)
    result = _verify_within(60, _loops_forever, "ndcg@k", seconds_per_call=0.2)
    assert result.stopped == "call" and not result.abandoned


@pytest.mark.parametrize("value", [0, -1, math.inf, math.nan, 1e999999999, "2", True, 3601, None])
@pytest.mark.parametrize("argument", ["seconds_per_call", "seconds_in_all"])
def test_bad_time_limits_name_themselves(argument, value):
    with pytest.raises(ValueError, match=f"{argument} = .* must be a number of seconds above 0 and at most 3600"):
        lt.verify(_ndcg, "ndcg@k", **{argument: value})


@pytest.mark.parametrize("metric", ["ndcg@²", "ndcg@１０", "ndcg@10 ", " ndcg@10", "ndcg @10", "ndcg@1 0", "ndcg\n",
                                    ""])
def test_a_metric_with_spaces_or_other_digits_is_refused(metric):
    with pytest.raises(ValueError, match=r"metric = .*(holds a space|in the digits 0-9)"):
        lt.verify(_ndcg, metric)
