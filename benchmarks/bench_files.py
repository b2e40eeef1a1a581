"""Evaluating TREC files: ``lt.evaluate`` / ``ltr-teach eval`` vs pytrec_eval with a plain reader.

Generates two shapes (cached in --dir): 7,000 queries x 1,000 retrieved documents and 50,000 queries x
100, each query with 30 judged documents (half of them retrieved, grades 0-3) and scores of two
decimals, so many documents tie. Each tool runs in its own process, from the files to per-query NDCG@10,
MAP and MRR; the time is measured inside the process (interpreter start and imports excluded) and the
peak memory (maximum resident set) of the whole process. The tools alternate, best of --repeat. Every
per-query value of lt.evaluate is compared with pytrec_eval's.

Run: PYTHONPATH=$PWD python benchmarks/bench_files.py [--repeat 3] [--shapes 7000x1000,50000x100]
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

METRICS = {"ndcg@10": "ndcg_cut_10", "map": "map", "mrr": "recip_rank"}

PLAIN_READER = """
import pickle, sys, time
t0 = time.perf_counter()
import pytrec_eval
qrels, run = {}, {}
with open(sys.argv[1], encoding="utf-8") as f:
    for line in f:
        q, _, d, g = line.split()
        qrels.setdefault(q, {})[d] = int(g)
with open(sys.argv[2], encoding="utf-8") as f:
    for line in f:
        q, _, d, _, s, _ = line.split()[:6]
        run.setdefault(q, {})[d] = float(s)
values = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut_10", "map", "recip_rank"}).evaluate(run)
seconds = time.perf_counter() - t0
pickle.dump((seconds, values), open(sys.argv[3], "wb"))
"""

LTR_TEACH = """
import pickle, sys, time
import ltr_teach as lt
t0 = time.perf_counter()
result = lt.evaluate(sys.argv[1], sys.argv[2], ["ndcg@10", "map", "mrr"], progress=False)
seconds = time.perf_counter() - t0
pickle.dump((seconds, result.per_query), open(sys.argv[3], "wb"))
"""


def make_files(folder: Path, n_queries: int, n_docs: int, n_judged: int = 30, seed: int = 0):
    qrels_path, run_path = folder / f"qrels_{n_queries}x{n_docs}", folder / f"run_{n_queries}x{n_docs}"
    if qrels_path.exists() and run_path.exists():
        return qrels_path, run_path
    rng = np.random.default_rng(seed)
    with open(qrels_path, "w", encoding="utf-8") as fq, open(run_path, "w", encoding="utf-8") as fr:
        for q in range(n_queries):
            docs = rng.choice(10**6, size=n_docs, replace=False)
            scores = np.sort(np.round(rng.random(n_docs) * 10, 2))[::-1]  # two decimals: ties
            judged = np.unique(np.concatenate([rng.choice(docs, n_judged // 2, replace=False),
                                               rng.choice(10**6, n_judged - n_judged // 2, replace=False)]))
            grades = rng.integers(0, 4, len(judged))
            fq.write("".join(f"{q + 1} 0 D{d} {g}\n" for d, g in zip(judged, grades)))
            fr.write("".join(f"{q + 1} Q0 D{d} {i + 1} {s:.2f} bench\n"
                             for i, (d, s) in enumerate(zip(docs, scores))))
    return qrels_path, run_path


def run_child(code: str, qrels, run, out: Path):
    """(seconds inside the process, peak resident memory in bytes, per-query values)."""
    proc = subprocess.Popen([sys.executable, "-c", code, str(qrels), str(run), str(out)],
                            env={**os.environ, "PYTHONPATH": os.environ.get("PYTHONPATH", os.getcwd())})
    _, status, usage = os.wait4(proc.pid, 0)
    if status != 0:
        raise SystemExit(f"child failed with status {status}")
    seconds, values = pickle.loads(out.read_bytes())
    return seconds, usage.ru_maxrss * 1024, values


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--shapes", default="7000x1000,50000x100")
    parser.add_argument("--dir", default=os.path.join(tempfile.gettempdir(), "ltr_teach_bench"))
    args = parser.parse_args(argv)
    folder = Path(args.dir)
    folder.mkdir(parents=True, exist_ok=True)
    summary = []
    for shape in args.shapes.split(","):
        n_queries, n_docs = map(int, shape.split("x"))
        qrels, run = make_files(folder, n_queries, n_docs)
        best = {"pytrec_eval + plain reader": (float("inf"), 0), "lt.evaluate from files": (float("inf"), 0)}
        values = {}
        for _ in range(args.repeat):  # alternate, so that load from other jobs hits both alike
            for name, code in (("pytrec_eval + plain reader", PLAIN_READER), ("lt.evaluate from files", LTR_TEACH)):
                seconds, memory, values[name] = run_child(code, qrels, run, folder / "out.pickle")
                old = best[name]
                best[name] = (min(old[0], seconds), max(old[1], memory))
        theirs, ours = values["pytrec_eval + plain reader"], values["lt.evaluate from files"]
        worst = max(abs(ours[q][m] - theirs[q][t]) for q in theirs for m, t in METRICS.items())
        (t_peer, m_peer), (t_ours, m_ours) = best.values()
        print(f"{n_queries} queries x {n_docs} documents ({n_queries * n_docs:,} run lines), best of {args.repeat}")
        for name, (seconds, memory) in best.items():
            print(f"  {name:28s} {seconds:7.2f} s  peak {memory / 1e9:5.2f} GB")
        print(f"  lt.evaluate is {t_peer / t_ours:4.2f}x pytrec_eval's speed, {m_ours / m_peer:4.2f}x its memory; "
              f"same queries: {sorted(ours) == sorted(theirs)}; largest per-query difference {worst:.1e}")
        summary.append({"shape": shape, "speedup": t_peer / t_ours, "peak_gb": m_ours / 1e9, "worst": worst})
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
