"""`ltr-teach eval ... --explain QUERY` and ``explain_query``: one query's exact step table from the run files,
whose value equals trec_eval's (pytrec_eval, the C code) for that query, and ``lt.evaluate``'s under every other
preset (each preset is tested against its own tool in tests/test_parity_*.py)."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest
import pytrec_eval

import ltr_teach as lt
from ltr_teach.runs.explain import explain_query

DATA = Path(__file__).parent / "data"
# topics 301 and 302 of trec_eval's own test data (see tests/test_bounds_round3.py for the commit)
QRELS, RUN = DATA / "trec_eval_test_301_302.qrels", DATA / "trec_eval_test_301_302.run"

# ltr-teach's name -> pytrec_eval's measure
TREC_EVAL = {"ndcg@10": "ndcg_cut_10", "ndcg": "ndcg", "map": "map", "mrr": "recip_rank", "p@5": "P_5",
             "recall@100": "recall_100", "rprec": "Rprec", "success@10": "success_10", "map@100": "map_cut_100"}


@pytest.fixture(scope="module")
def trec_eval_values():
    qrels, run = lt.read_qrels(QRELS), lt.read_run(RUN)
    measures = {"ndcg_cut", "ndcg", "map", "map_cut", "recip_rank", "P", "recall", "Rprec", "success"}
    return pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)


@pytest.mark.parametrize("metric", list(TREC_EVAL))
@pytest.mark.parametrize("topic", ["301", "302"])
def test_equals_trec_eval_for_the_query(trec_eval_values, metric, topic):
    ex = explain_query(QRELS, RUN, metric, topic)
    assert float(ex) == pytest.approx(trec_eval_values[topic][TREC_EVAL[metric]], abs=1e-12)


def test_ndcg_without_cutoff_explains_the_whole_1708_judged_topic(trec_eval_values):
    # trec_eval's own ndcg is uncut: 500 ranked documents, an ideal list from all 1,708 judged (474 relevant)
    ex = explain_query(QRELS, RUN, "ndcg", "301")
    assert float(ex) == pytest.approx(trec_eval_values["301"]["ndcg"], abs=1e-12)
    assert ex.pool == {1: 474, 0: 1234} and ex.ranked == 500
    text = str(ex)
    assert "judged pool 1708: 474 of grade 1, 1234 of grade 0" in text
    assert "ideal ranks 475–1708 hold the judged pool's 1234 items of gain 0" in text
    assert "496–500" in text  # the last run of non-relevant documents folded into one row
    # one row per rank in the steps: the folding is the table's, the data keep every rank
    assert len(ex.explanation.steps) == 500


PRESETS = [name for name in lt.CONVENTIONS]


@pytest.mark.parametrize("convention", PRESETS)
@pytest.mark.parametrize("metric", ["ndcg@10", "map", "mrr", "p@5"])
def test_equals_evaluate_under_every_preset(convention, metric):
    try:
        theirs = lt.evaluate(QRELS, RUN, metric, convention=convention).per_query["302"][metric]
    except ValueError as exc:  # e.g. a preset that averages ties defines no MRR
        with pytest.raises(ValueError):
            explain_query(QRELS, RUN, metric, "302", convention=convention)
        assert str(exc)
        return
    assert float(explain_query(QRELS, RUN, metric, "302", convention=convention)) == pytest.approx(theirs, abs=1e-9)


def test_tie_order_is_shown():
    qrels = {"q1": {"d1": 0, "d2": 2, "d5": 1}}
    run = {"q1": {"d1": 0.8, "d2": 0.8, "d3": 0.5}}
    ex = explain_query(qrels, run, "ndcg", "q1")
    # trec_eval: ties by docid descending, so d2 (grade 2) comes first; the ideal from the pool 2, 1, 0
    assert [r["doc"] for r in ex.explanation.steps] == ["d2", "d1", "d3"]
    # trec_eval's linear gain: DCG = 2/log2(2) = 2, IDCG = 2 + 1/log2(3) (the pool 2, 1, 0)
    assert float(ex) == pytest.approx(2 / (2 + 1 / math.log2(3)), abs=1e-15)
    assert ex.explanation.exact == 2 / (2 + 1 / lt.log2(3))


@pytest.mark.parametrize("query, metric, message", [
    ("999", "ndcg@10", "query '999' is not in the run"),
    ("301", "auc", "computed by lt.evaluate only"),
    ("301", "ndcg.1=3,2=9", "computed by lt.evaluate only"),
    ("301", "ndcg@x", "is not one of"),
    (None, "ndcg", "query must be a query id"),
])
def test_bad_input(query, metric, message):
    with pytest.raises(ValueError, match=message):
        explain_query(QRELS, RUN, metric, query)


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "ltr_teach.cli", "--lang", "en", *args], capture_output=True,
                          text=True, encoding="utf-8", timeout=120, check=False)


def test_cli_explain(trec_eval_values):
    done = _cli("eval", str(QRELS), str(RUN), "-m", "ndcg@10", "--explain", "302")
    assert done.returncode == 0, done.stderr
    value = trec_eval_values["302"]["ndcg_cut_10"]
    assert "query 302, ndcg@10 under trec_eval" in done.stdout
    assert f"≈ {value:.6f}"[:10] in done.stdout
    bad = _cli("eval", str(QRELS), str(RUN), "-m", "ndcg@10", "--explain", "999")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and "999" in bad.stderr
