"""Bulk evaluation speed: lt.evaluate vs pytrec_eval vs ranx, in the same run.

5,000 queries x 100 retrieved documents, 120 judged documents per query (so some relevant
documents are never retrieved), dict input. Each tool is timed from the dicts to the per-query
NDCG@10, MAP and MRR, so parsing the dicts is included. The numbers are checked to agree.
The tools take turns in every round and each keeps its best wall-clock and best CPU time: on a
shared machine the CPU ratio is the steadier of the two.

Run: PYTHONPATH=$PWD python benchmarks/bench_evaluate.py [--queries N] [--repeat R]
"""

from __future__ import annotations

import argparse
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
    """Best wall-clock and best CPU time of each tool over ``repeat`` rounds; each round runs every tool
    once, in turn, so that on a shared machine a busy moment does not fall on one tool's runs only."""
    wall = {name: float("inf") for name in tools}
    cpu = dict(wall)
    results = {}
    for _ in range(repeat):
        for name, fn in tools.items():
            w0, c0 = time.perf_counter(), time.process_time()
            results[name] = fn()
            wall[name] = min(wall[name], time.perf_counter() - w0)
            cpu[name] = min(cpu[name], time.process_time() - c0)
    return {name: (wall[name], cpu[name], results[name]) for name in tools}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    qrels, run = make_data(args.queries)
    print(f"{args.queries} queries x 100 documents, 120 judged per query; best of {args.repeat} interleaved rounds")

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
    t_lt, c_lt, ours = timed["lt.evaluate"]
    theirs = timed["pytrec_eval"][2]
    worst = max(abs(ours[q]["ndcg@10"] - theirs[q]["ndcg_cut_10"]) + abs(ours[q]["map"] - theirs[q]["map"])
                + abs(ours[q]["mrr"] - theirs[q]["recip_rank"]) for q in theirs)
    # ranx's numba code may run on several threads: its CPU time can exceed its wall-clock time
    print(f"{'':14}{'wall':>9}  {'CPU':>9}   lt.evaluate's speed against it (wall, CPU)")
    for name, (wall, cpu, _) in timed.items():
        ratio = "" if name == "lt.evaluate" else f"   {wall / t_lt:5.2f}x  {cpu / c_lt:5.2f}x"
        print(f"{name:14}{wall:8.3f}s  {cpu:8.3f}s{ratio}")
    print(f"largest per-query difference from pytrec_eval: {worst:.2e}")


if __name__ == "__main__":
    main()
