"""Bulk evaluation speed: lt.evaluate vs pytrec_eval vs ranx, in the same run.

5,000 queries x 100 retrieved documents, 120 judged documents per query (so some relevant
documents are never retrieved), dict input. Each tool is timed from the dicts to the per-query
NDCG@10, MAP and MRR, so parsing the dicts is included. The numbers are checked to agree.
The tools take turns in every round; each tool's median and best wall-clock and CPU times over the
rounds are printed, with lt.evaluate's speed-up against each peer as a ratio of medians (the figure
to quote) and of bests. On a shared machine the CPU ratio is the steadier of the two.

Run: PYTHONPATH=$PWD python benchmarks/bench_evaluate.py [--queries N] [--repeat R]
"""

from __future__ import annotations

import argparse
import gc
import time

import numpy as np

import ltr_teach as lt


def make_data(n_queries: int, n_docs: int = 100, n_judged: int = 120, seed: int = 0):
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    for q in range(n_queries):
        qid = f"q{q}"
        pool = rng.choice(400, size=n_judged + n_docs, replace=False)
        judged = pool[:n_judged]
        grades = rng.integers(0, 4, size=n_judged) * (rng.random(n_judged) < 0.3)
        qrels[qid] = {f"d{d}": int(g) for d, g in zip(judged, grades)}
        retrieved = np.concatenate([judged[: n_docs // 2], pool[n_judged: n_judged + n_docs - n_docs // 2]])
        scores = np.round(rng.random(n_docs), 3)  # three decimals: some tied scores
        run[qid] = {f"d{d}": float(s) for d, s in zip(retrieved, scores)}
    return qrels, run


def time_interleaved(tools: dict, repeat: int) -> dict:
    """Every round's wall-clock and CPU time of each tool over ``repeat`` rounds; each round runs every tool
    once, in turn, so that on a shared machine a busy moment does not fall on one tool's runs only."""
    wall = {name: [] for name in tools}
    cpu = {name: [] for name in tools}
    results = {}
    running = [None]

    def count_full_collections(phase, info):
        if phase == "start" and info["generation"] == 2:
            full_collections[running[0]] += 1

    full_collections = dict.fromkeys(tools, 0)
    gc.callbacks.append(count_full_collections)  # the collector stays on: its cost is part of each tool's time
    try:
        for _ in range(repeat):
            for name, fn in tools.items():
                running[0] = name
                w0, c0 = time.perf_counter(), time.process_time()
                results[name] = fn()
                wall[name].append(time.perf_counter() - w0)
                cpu[name].append(time.process_time() - c0)
    finally:
        gc.callbacks.remove(count_full_collections)
    return {name: (np.array(wall[name]), np.array(cpu[name]), results[name], full_collections[name]) for name in tools}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=7, help="interleaved rounds (at least 5)")
    args = parser.parse_args(argv)
    if args.repeat < 5:
        parser.error("--repeat must be at least 5: the median of fewer rounds says little on a shared machine")
    qrels, run = make_data(args.queries)
    print(f"{args.queries} queries x 100 documents, 120 judged per query; {args.repeat} interleaved rounds")

    def with_lt():
        return lt.evaluate(qrels, run, ["ndcg@10", "map", "mrr"], progress=False).per_query

    def with_pytrec():
        import pytrec_eval

        return pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut_10", "map", "recip_rank"}).evaluate(run)

    def with_ranx():
        import ranx

        return ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), ["ndcg@10", "map", "mrr"], return_mean=False)

    with_ranx()  # numba compiles on the first call; not timed
    timed = time_interleaved({"lt.evaluate": with_lt, "pytrec_eval": with_pytrec, "ranx": with_ranx}, args.repeat)
    ours = timed["lt.evaluate"][2]
    theirs = timed["pytrec_eval"][2]
    worst = max(abs(ours[q]["ndcg@10"] - theirs[q]["ndcg_cut_10"]) + abs(ours[q]["map"] - theirs[q]["map"])
                + abs(ours[q]["mrr"] - theirs[q]["recip_rank"]) for q in theirs)
    # ranx's numba code may run on several threads: its CPU time can exceed its wall-clock time
    print(f"{'':14}{'median wall':>12} {'CPU':>7}  {'best wall':>10} {'CPU':>7}   lt.evaluate's speed against it: "
          "median (wall, CPU), best (wall, CPU)")
    med_lt = (np.median(timed["lt.evaluate"][0]), np.median(timed["lt.evaluate"][1]))
    best_lt = (timed["lt.evaluate"][0].min(), timed["lt.evaluate"][1].min())
    for name, (wall, cpu, _, _) in timed.items():
        med, best = (np.median(wall), np.median(cpu)), (wall.min(), cpu.min())
        ratio = "" if name == "lt.evaluate" else (f"   {med[0] / med_lt[0]:5.2f}x {med[1] / med_lt[1]:5.2f}x"
                                                  f"   {best[0] / best_lt[0]:5.2f}x {best[1] / best_lt[1]:5.2f}x")
        print(f"{name:14}{med[0]:11.3f}s {med[1]:6.3f}s  {best[0]:9.3f}s {best[1]:6.3f}s{ratio}")
    print(f"largest per-query difference from pytrec_eval: {worst:.2e}")
    # a full collection walks the whole heap (tens of ms here): a tool that leaves many short-lived containers
    # behind triggers more of them, so they are counted rather than switched off
    print("full garbage collections during the timed rounds: "
          + ", ".join(f"{name} {timed[name][3]}" for name in timed))


if __name__ == "__main__":
    main()
