"""Time and peak memory of the exact path at its documented limits, and of a 200-item widget.

Every exact call, with its ``str()``, HTML (``_repr_html_``) and ``latex()``, should answer within
2 s up to the limits stated in the user guide (site/en/guide/limits.md): 1,000 items per ranking
(``ltr_teach.core.validate.MAX_ITEMS``), 10,000 items over the queries of one MRR/MAP, ERR with
g_max × ranks up to 20,000, 300 items for ``compare_conventions``. This script measures each case once (after a warm-up call of the same
kind on a small input) and prints the seconds and the peak memory that ``tracemalloc`` sees; it
asserts nothing, since timings depend on the machine and its load.

Run: ``PYTHONPATH=. python benchmarks/bench_limits.py``
"""

from __future__ import annotations

import random
import time
import tracemalloc

import ltr_teach as lt
from ltr_teach.core.validate import MAX_ITEMS, MAX_TOTAL_ITEMS
from ltr_teach.metrics.compare import COMPARE_MAX_ITEMS
from ltr_teach.metrics.graded import ERR_MAX_BITS
from ltr_teach.widgets import RankingEditor


def _run(call) -> tuple:
    start = time.perf_counter()
    result = call()
    computed = time.perf_counter()
    rendered = [str(result), result._repr_html_()] + ([result.latex()] if hasattr(result, "latex") else [])
    return computed - start, time.perf_counter() - computed, sum(map(len, rendered))


def measure(label: str, call) -> None:
    """Print the time of ``call()`` and of rendering its result as text, HTML and LaTeX, then the peak memory
    of the same in a second run (``tracemalloc`` slows Python down, so it is not on during the timing)."""
    call_s, render_s, chars = _run(call)
    tracemalloc.start()
    _run(call)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"{label:<58} call {call_s:5.2f} s  render {render_s:5.2f} s  total {call_s + render_s:5.2f} s  "
          f"peak {peak / 2**20:6.1f} MiB  ({chars // 1000} kB of text)")


def main() -> None:
    rng = random.Random(11)
    n = MAX_ITEMS
    grades = [rng.randint(0, 4) for _ in range(n)]
    rels = [rng.randint(0, 1) for _ in range(n)]
    scores = [round(rng.random(), 3) for _ in range(n)]   # rounded: many ties
    docids = [f"d{i}" for i in range(n)]
    lt.ndcg([3, 2, 1])  # warm-up: imports, caches of the printers

    print(f"exact path at its limits ({n} items per ranking):")
    measure(f"ndcg of {n} grades (exp2, log2)", lambda: lt.ndcg(grades))
    measure(f"ndcg of {n} grades, linear gain, ln discount", lambda: lt.ndcg(grades, gain="linear", discount="ln"))
    measure(f"ndcg of {n} grades with {n} judged in the pool, k=100",
            lambda: lt.ndcg(grades, k=100, ideal=grades + [0] * 0))
    measure(f"ndcg of {n} scored items, trec_eval (ties by docid)",
            lambda: lt.ndcg(grades, scores=scores, docids=docids, convention="trec_eval"))
    measure(f"ndcg of {n} scored items, sklearn (ties averaged)",
            lambda: lt.ndcg(grades, scores=scores, convention="sklearn"))
    measure(f"dcg of {n} grades, jarvelin discount", lambda: lt.dcg(grades, discount="jarvelin"))
    measure(f"cg of {n} grades", lambda: lt.cg(grades))
    measure(f"err of {n} grades, g_max = {ERR_MAX_BITS // n}", lambda: lt.err(grades, g_max=ERR_MAX_BITS // n))
    measure("err of 20 grades, g_max = 1000", lambda: lt.err([rng.randint(0, 1000) for _ in range(20)], g_max=1000))
    measure(f"average_precision of {n} rels", lambda: lt.average_precision(rels))
    measure(f"reciprocal_rank of {n} rels (first hit last)", lambda: lt.reciprocal_rank([0] * (n - 1) + [1]))
    measure(f"precision_at_k / recall_at_k, k = {n}", lambda: lt.recall_at_k(rels, k=n))
    measure(f"f_beta, k = {n}", lambda: lt.f_beta(rels, k=n, beta=2))
    measure(f"interpolated_precision of {n} rels", lambda: lt.interpolated_precision(rels))
    measure(f"eleven_point_ap of {n} rels", lambda: lt.eleven_point_ap(rels))
    measure(f"auc of {n} labels and scores", lambda: lt.auc(rels, scores))
    measure(f"roc_curve of {n} labels and scores", lambda: lt.roc_curve(rels, scores))
    queries = MAX_TOTAL_ITEMS // n
    many = [[rng.randint(0, 1) for _ in range(n)] for _ in range(queries)]
    measure(f"mean_average_precision of {queries} queries x {n}", lambda: lt.mean_average_precision(many))
    measure(f"mrr of {queries} queries x {n}", lambda: lt.mrr(many))
    m = COMPARE_MAX_ITEMS
    measure(f"compare_conventions of {m} scored items (13 presets)",
            lambda: lt.compare_conventions(grades[:m], scores=scores[:m], docids=docids[:m], ideal=grades[:m]))
    measure("ndcg of 2 grades near 1e308 (mpmath fallback)",
            lambda: lt.ndcg([1.3e308, 0, 1.2e308], gain="linear", discount="ln"))

    bounded(rng)

    print("\nwidget with 200 items (NDCG, every grade and move redraws table and plot):")
    names = [f"item {i}" for i in range(200)]
    editor = RankingEditor(names, [rng.randint(0, 3) for _ in range(200)], metric="ndcg")
    for label, action in (("set_grade", lambda i: editor.set_grade(i % 200, i % 4)),
                          ("move", lambda i: editor.move(i % 200, (i * 7) % 200))):
        action(0)
        times = []
        for i in range(1, 6):
            start = time.perf_counter()
            action(i)
            times.append(time.perf_counter() - start)
        tracemalloc.start()
        action(6)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(f"  {label:<10} median of 5: {sorted(times)[2] * 1000:6.1f} ms   peak {peak / 2**20:5.1f} MiB")


def timed(label: str, call) -> None:
    """The time of ``call()`` and of its ``str()`` (for results that are not explanations, or refusals)."""
    start = time.perf_counter()
    try:
        result = call()
        text = str(result)
        what = f"{len(text) // 1000} kB of text"
    except ValueError as exc:
        what = f"refused: {str(exc)[:70]}"
    print(f"{label:<58} total {time.perf_counter() - start:5.2f} s  ({what})")


def bounded(rng) -> None:
    """Issue 24: each bounded call at its limit, and the inputs that used to hang, refused at once."""
    from fractions import Fraction

    import numpy as np

    from ltr_teach.core.validate import MAX_POOL
    from ltr_teach.metrics.pairs import MAX_SWAP_ITEMS
    from ltr_teach.metrics.sampled import MAX_NEGATIVES
    from ltr_teach.metrics.user_models import BROWSING_MAX_RANKS
    from ltr_teach.runs.pooling import pool

    print("\nbounded calls at their limits (issue 24):")
    pool_grades = [rng.randint(0, 2) for _ in range(MAX_POOL)]
    measure(f"ndcg@10 of 1,000 grades with {MAX_POOL:,} judged in ideal",
            lambda: lt.ndcg(pool_grades[:1000], k=10, ideal=pool_grades))
    measure(f"ndcg@10 of {MAX_POOL:,} grades (no scores)", lambda: lt.ndcg(pool_grades, k=10))
    rels = [0] * MAX_POOL
    for r in rng.sample(range(MAX_POOL), 1000):
        rels[r] = 1
    measure(f"average_precision of {MAX_POOL:,} rels, 1,000 relevant", lambda: lt.average_precision(rels))
    grades100 = [rng.randint(0, 1) for _ in range(100)]
    measure("misordered_pairs, 100 items (about 2,500 pairs)",
            lambda: lt.misordered_pairs(grades100, [round(rng.random(), 3) for _ in range(100)]))
    def swaps():
        sd = lt.swap_deltas([rng.randint(0, 4) for _ in range(MAX_SWAP_ITEMS)])
        sd._repr_html_(), sd.largest()
        return sd
    timed(f"swap_deltas of {MAX_SWAP_ITEMS} items (table, HTML, largest)", swaps)
    measure("rbp of 1,000 ranks, p = 0.12345", lambda: lt.rbp([1] * 1000, p=0.12345))
    measure("rbp of 377 ranks, p = 0.8000000000000002", lambda: lt.rbp([1] * 377, p=0.8000000000000002))
    measure(f"browsing_model('rbp', {BROWSING_MAX_RANKS['rbp']})", lambda: lt.browsing_model("rbp", 1000))
    measure(f"browsing_model('dcg', {BROWSING_MAX_RANKS['dcg']})", lambda: lt.browsing_model("dcg", 300))
    measure(f"sampled_metric, 1,000 ranks of 10^9 items, {MAX_NEGATIVES // 10} negatives",
            lambda: lt.sampled_metric(list(range(1, 1001)), 10**9, 100))
    measure("sampled_metric ndcg, 300 ranks of 10^9 items, 100 negatives",
            lambda: lt.sampled_metric(list(range(1, 301)), 10**9, 100, metric="ndcg"))
    labels_a = np.array([rng.randrange(10_000) for _ in range(100_000)])
    labels_b = np.where(np.array([rng.random() for _ in range(100_000)]) < 0.5, labels_a, labels_a[::-1])
    measure("cohen_kappa of 100,000 labels, 10,000 categories", lambda: lt.cohen_kappa(labels_a, labels_b))
    measure("cohen_kappa of counts [[10^9, 0], [0, 10^9]]", lambda: lt.cohen_kappa(counts=[[10**9, 0], [0, 10**9]]))
    timed("sign_flips of 12 fractions with 300-digit denominators",
          lambda: lt.sign_flips([Fraction((-1) ** i, 3**600 + i) for i in range(12)]))
    runs = {"A": {"q": {f"d{i}": float(i % 997) for i in range(10**6)}}, "B": {"q": {f"e{i}": 1.0 for i in range(10**6)}}}
    timed("pool of 2 runs x 10^6 documents, depth 10^6", lambda: len(pool(runs, depth=10**6)["q"]))
    print("inputs that used to hang or run out of memory, now refused:")
    timed("sampled_metric([5], 10**9, 5*10**8)", lambda: lt.sampled_metric([5], 10**9, 5 * 10**8))
    timed("sampled_metric(range(1, 10001), 10**4, 100)", lambda: lt.sampled_metric(list(range(1, 10001)), 10**4, 100))
    timed("browsing_model('rbp', 10**9)", lambda: lt.browsing_model("rbp", 10**9))
    timed("browsing_model('dcg', 10**6)", lambda: lt.browsing_model("dcg", 10**6))
    from ltr_teach.cli import UsageError, parse_number

    def cli_number():
        try:
            return parse_number("1e999999999", "--confidence")
        except UsageError as exc:
            raise ValueError(str(exc)) from None
    timed("CLI number 1e999999999", cli_number)


if __name__ == "__main__":
    main()
