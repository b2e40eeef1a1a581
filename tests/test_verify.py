"""lt.verify: a student's own metric function checked against the library. The correct implementations here
are written from the definitions (not from the library), and each buggy one makes one named slip."""

from __future__ import annotations

import math

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
    assert lt.verify(lambda g: "high", "cg").error.startswith("ValueError")
    assert lt.verify(lambda g: [1, 2], "cg").error.startswith("TypeError")


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

    from ltr_teach import classroom

    for module in Path(classroom.__file__).parent.glob("*.py"):
        assert "verify" not in module.read_text(encoding="utf-8"), module
