"""Time of one query's exact explanation from run files (``ltr-teach eval ... --explain QUERY``), beside
pytrec_eval (trec_eval's C code) computing the same query's number in the same run.

Topic 301 of trec_eval's own test data: 500 ranked documents and 1,708 judged (474 relevant), uncut NDCG (trec_eval's
``ndcg``) and NDCG@10. The exact path builds one exact row per ranked document and per relevant ideal item (the
ideal's 1,234 items of gain 0 are folded into a note), then prints it; the issue's target is at most 5 s. It asserts
nothing: timings depend on the machine and its load; compare the ratio.

Run: ``PYTHONPATH=. python benchmarks/bench_explain_query.py``
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import pytrec_eval

import ltr_teach as lt
from ltr_teach.runs.explain import explain_query

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
QRELS, RUN = DATA / "trec_eval_test_301_302.qrels", DATA / "trec_eval_test_301_302.run"


def _median(call, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    explain_query(QRELS, RUN, "ndcg@10", "302")  # warm-up: SymPy and the catalogue load on first use
    qrels, run = lt.read_qrels(QRELS), lt.read_run(RUN)
    for metric, family in (("ndcg", "ndcg"), ("ndcg@10", "ndcg_cut")):
        ours = _median(lambda m=metric: (str(ex := explain_query(QRELS, RUN, m, "301")), ex._repr_html_()))
        evaluator = pytrec_eval.RelevanceEvaluator({"301": qrels["301"]}, {family})
        peer = _median(lambda e=evaluator: e.evaluate({"301": run["301"]}))
        print(f"topic 301 {metric:8s}: exact explanation, text and HTML {ours:6.3f} s; pytrec_eval's number "
              f"{peer * 1000:6.2f} ms; ratio {ours / peer:7.0f}x (target: at most 5 s)")


if __name__ == "__main__":
    main()
