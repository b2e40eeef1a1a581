"""Evaluating TREC files, whole processes: ``ltr-teach eval`` vs the trec_eval C binary vs pytrec_eval.

Every tool runs as its own process from the files to NDCG@10, MAP and MRR, and is timed from the
outside, interpreter start and imports included (what a practitioner waits for). The tools take turns
within every round, so a busy moment of a shared machine falls on all of them alike, and the figure
printed is each tool's MEDIAN over the rounds (at least 5), not its best. Beside the time: the CPU time
(user + system, steadier than the wall clock when other jobs share the cores), the peak
resident memory of the process (``ru_maxrss`` from ``os.wait4``, Unix only; elsewhere the memory
columns say n/a) and that peak less the tool's bare start (the peak of ``python -c "import
ltr_teach.runs.evaluate"``, of ``python -c "import pytrec_eval"``, of trec_eval on a one-line file),
divided by the run's lines: the bytes a run line costs.

The tools:

* ``ltr-teach eval`` (``python -m ltr_teach.cli eval``, the console script's code);
* the trec_eval C binary when one is found (``--trec-eval PATH``, else ``$TREC_EVAL``, else ``trec_eval`` on
  PATH; it builds from https://github.com/usnistgov/trec_eval with ``make`` in a minute); skipped without;
* pytrec_eval with a plain line-by-line Python reader (``line.split()``), when pytrec_eval is installed.

The shapes (files cached in --dir): ``7000x1000`` is MS MARCO's dev set with a BM25 run (7,000
queries x 1,000 retrieved documents = 7M lines, 1 or 2 judged documents per query, grade 1, most of
them retrieved); ``--judged 30`` judges 30 per query instead (grades 0-3, half retrieved). Scores have
two decimals, so documents tie. The means of the tools are compared (four decimals, as printed).

Run: PYTHONPATH=$PWD python benchmarks/bench_files.py [--rounds 5] [--shapes 7000x1000] [--judged msmarco]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

PLAIN_READER = """
import sys
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
for m in ("ndcg_cut_10", "map", "recip_rank"):
    print(f"{m}\\tall\\t{sum(v[m] for v in values.values()) / len(values):.4f}")
"""
#: each tool's names of the three metrics, in the order printed
NAMES = {"ltr-teach eval": ("ndcg@10", "map", "mrr"), "trec_eval (C)": ("ndcg_cut_10", "map", "recip_rank"),
         "pytrec_eval + plain reader": ("ndcg_cut_10", "map", "recip_rank")}


def make_files(folder: Path, n_queries: int, n_docs: int, judged="msmarco", seed: int = 0):
    """A qrels and a run file of the shape (cached); ``judged``: "msmarco" or a number per query."""
    tag = f"{n_queries}x{n_docs}_{judged}"
    qrels_path, run_path = folder / f"qrels_{tag}", folder / f"run_{tag}"
    if qrels_path.exists() and run_path.exists():
        return qrels_path, run_path
    rng = np.random.default_rng(seed)
    with open(qrels_path, "w", encoding="utf-8") as fq, open(run_path, "w", encoding="utf-8") as fr:
        for q in range(n_queries):
            docs = rng.choice(8_841_823, size=n_docs, replace=False)  # MS MARCO's passage ids
            scores = np.sort(np.round(rng.random(n_docs) * 30, 2))[::-1]  # two decimals: ties
            if judged == "msmarco":
                n_judged = int(rng.integers(1, 3))
                found = docs[rng.choice(min(n_docs, 200), n_judged, replace=False)]
                judged_docs = found if rng.random() < 0.85 else rng.choice(8_841_823, n_judged, replace=False)
                grades = np.ones(n_judged, dtype=int)
            else:
                half = int(judged) // 2
                judged_docs = np.unique(np.concatenate([rng.choice(docs, half, replace=False),
                                                        rng.choice(8_841_823, int(judged) - half, replace=False)]))
                grades = rng.integers(0, 4, len(judged_docs))
            fq.write("".join(f"{q + 1} 0 {d} {g}\n" for d, g in zip(judged_docs.tolist(), grades.tolist())))
            fr.write("".join(f"{q + 1} Q0 {d} {i + 1} {s:.2f} bm25\n"
                             for i, (d, s) in enumerate(zip(docs.tolist(), scores.tolist()))))
    return qrels_path, run_path


#: A small Python that starts one tool and reports its wall time and peak memory. A process's peak
#: (``ru_maxrss``) spans its life before ``exec`` too, which for a child of this benchmark would be the
#: benchmark's own memory (NumPy and all); started from this launcher the floor is the launcher's few MB,
#: the same for a tool and for its bare start, so that it cancels out of the bytes per line.
LAUNCHER = """
import os, sys, time
report, argv = sys.argv[1], sys.argv[2:]
start = time.perf_counter()
pid = os.posix_spawn(argv[0], argv, os.environ)
_, status, usage = os.wait4(pid, 0)
seconds = time.perf_counter() - start
with open(report, "w", encoding="utf-8") as out:
    out.write(f"{seconds!r} {usage.ru_maxrss} {os.waitstatus_to_exitcode(status)} {usage.ru_utime + usage.ru_stime!r}")
"""


def run_process(command: list, env: dict, folder: Path):
    """(wall seconds, peak resident bytes or None, stdout, CPU seconds or None) of one whole process."""
    command = [shutil.which(command[0]) or command[0], *command[1:]]
    report = folder / "launcher_report"
    if hasattr(os, "wait4") and hasattr(os, "posix_spawn"):  # Unix
        done = subprocess.run([sys.executable, "-S", "-E", "-c", LAUNCHER, str(report), *command], env=env,
                              capture_output=True, check=False)
        seconds, peak, code, cpu = report.read_text(encoding="utf-8").split()
        seconds, code, cpu = float(seconds), int(code), float(cpu)
        peak = int(peak) * (1 if sys.platform == "darwin" else 1024)  # kilobytes on Linux, bytes on macOS
    else:  # no os.wait4 (Windows): the time alone, measured here
        start = time.perf_counter()
        done = subprocess.run(command, env=env, capture_output=True, check=False)
        seconds, peak, code, cpu = time.perf_counter() - start, None, done.returncode, None
    if code != 0 or done.returncode != 0:
        raise SystemExit(f"{command[0]} failed ({code}): {done.stderr.decode(errors='replace')[-500:]}")
    return seconds, peak, done.stdout.decode(), cpu


def means(text: str, names) -> tuple:
    """The three means a tool printed, in ``names``' order (``metric <tab> all <tab> value`` lines)."""
    found = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] == "all":
            found[parts[0]] = parts[2]
    return tuple(found.get(n) for n in names)


def find_trec_eval(option):
    path = option or os.environ.get("TREC_EVAL") or shutil.which("trec_eval")
    return path if path and os.access(path, os.X_OK) else None


def load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except (AttributeError, OSError):  # Windows
        return "n/a"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", "--repeat", type=int, default=5, help="interleaved rounds (at least 5)")
    parser.add_argument("--shapes", default="7000x1000", help="queries x documents per query, comma-separated")
    parser.add_argument("--judged", default="msmarco", help="judged documents per query: msmarco (1-2) or a number")
    parser.add_argument("--trec-eval", help="the trec_eval binary (default: $TREC_EVAL, else trec_eval on PATH)")
    parser.add_argument("--dir", default=os.path.join(tempfile.gettempdir(), "ltr_teach_bench"))
    args = parser.parse_args(argv)
    if args.rounds < 5:
        parser.error("--rounds must be at least 5: the median of fewer rounds says little on a shared machine")
    folder = Path(args.dir)
    folder.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": os.environ.get("PYTHONPATH", os.getcwd())}
    py = sys.executable
    trec_eval = find_trec_eval(args.trec_eval)
    has_pytrec = subprocess.run([py, "-c", "import pytrec_eval"], capture_output=True, check=False).returncode == 0
    tiny_q, tiny_r = folder / "tiny_qrels", folder / "tiny_run"
    tiny_q.write_text("1 0 d1 1\n", encoding="utf-8")
    tiny_r.write_text("1 Q0 d1 1 1.0 t\n", encoding="utf-8")
    # each tool's bare start: the peak of the same process without the work
    bare = {"ltr-teach eval": [py, "-c", "import ltr_teach.runs.evaluate, ltr_teach.cli"]}
    if trec_eval:
        bare["trec_eval (C)"] = [trec_eval, "-m", "map", str(tiny_q), str(tiny_r)]
    if has_pytrec:
        bare["pytrec_eval + plain reader"] = [py, "-c", "import pytrec_eval"]
    baseline = {name: statistics.median(run_process(cmd, env, folder)[1] or 0 for _ in range(3)) for name, cmd in bare.items()}
    summary = []
    for shape in args.shapes.split(","):
        n_queries, n_docs = map(int, shape.split("x"))
        qrels, run = make_files(folder, n_queries, n_docs, args.judged)
        lines = n_queries * n_docs
        tools = {"ltr-teach eval": [py, "-m", "ltr_teach.cli", "eval", str(qrels), str(run),
                                    "-m", "ndcg@10", "-m", "map", "-m", "mrr"]}
        if trec_eval:
            tools["trec_eval (C)"] = [trec_eval, "-m", "ndcg_cut.10", "-m", "map", "-m", "recip_rank", str(qrels), str(run)]
        if has_pytrec:
            tools["pytrec_eval + plain reader"] = [py, "-c", PLAIN_READER, str(qrels), str(run)]
        seconds = {name: [] for name in tools}
        peaks = {name: [] for name in tools}
        cpus = {name: [] for name in tools}
        printed = {}
        load_before = load()
        for _ in range(args.rounds):
            for name, command in tools.items():
                s, peak, out, cpu = run_process(command, env, folder)
                cpus[name].append(cpu)
                seconds[name].append(s)
                peaks[name].append(peak)
                printed[name] = means(out, NAMES[name])
        print(f"\n{n_queries} queries x {n_docs} documents ({lines:,} run lines, {args.judged} judged per query); "
              f"medians of {args.rounds} interleaved rounds of whole processes; load average before {load_before}, "
              f"after {load()}")
        print(f"  {'tool':28s} {'median s':>9s} {'min-max s':>13s} {'CPU s':>6s} {'peak MB':>8s} {'bytes/line':>11s}"
              "  (CPU: user + system, median; bytes: peak less the bare start, per run line)")
        median = {name: statistics.median(v) for name, v in seconds.items()}
        per_line = {}
        for name in tools:
            peak = statistics.median(peaks[name]) if None not in peaks[name] else None
            per_line[name] = None if peak is None else (peak - baseline[name]) / lines
            memory = "n/a" if peak is None else f"{peak / 1e6:8.0f} {per_line[name]:11.1f}"
            cpu = "n/a" if None in cpus[name] else f"{statistics.median(cpus[name]):6.2f}"
            print(f"  {name:28s} {median[name]:9.2f} {min(seconds[name]):6.2f}-{max(seconds[name]):<6.2f} {cpu} {memory}")
        ours = median["ltr-teach eval"]
        ratios = {f"x {name}": median[name] / ours for name in tools if name != "ltr-teach eval"}
        if None not in cpus["ltr-teach eval"]:
            cpu_ours = statistics.median(cpus["ltr-teach eval"])
            print("  in CPU time: " + ", ".join(f"{statistics.median(cpus[n]) / cpu_ours:.2f}x {n}'s"
                                               for n in tools if n != "ltr-teach eval"))
        print("  ltr-teach eval's speed (wall, medians): " + ", ".join(f"{r:.2f}x {n[2:]}'s" for n, r in ratios.items())
              + (f"; memory {per_line['ltr-teach eval']:.1f} bytes per run line" if per_line["ltr-teach eval"] else ""))
        agree = len({printed[name] for name in tools}) == 1
        print(f"  means (ndcg@10, map, mrr) as printed: {printed['ltr-teach eval']}; every tool the same: {agree}")
        summary.append({"shape": shape, "judged": args.judged, "median_s": median, "ratios": ratios,
                        "bytes_per_line": per_line, "same_means": agree})
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
