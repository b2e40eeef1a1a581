"""How long the ``ltr-teach`` command takes to start (issue 21: at most 0.4 s for ``--help``,
``check`` and ``eval --help``), wall and CPU time of a fresh interpreter, median of a few runs.

``--help`` and ``eval --help`` load no SymPy, NumPy or Matplotlib; ``check`` computes the exact answer,
so it loads SymPy (about 0.7 s of CPU on its own). CPU time (user + system of the child) is printed beside
the wall time: on a busy machine the wall time mostly measures the other processes.

Run: ``PYTHONPATH=. python benchmarks/bench_cli.py [--repeat 5]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = (["--help"], ["eval", "--help"], ["conventions"], ["check", "p-at-5", "3/5"], ["explain", "dcg", "3", "2"])
TARGET = 0.4


def run_once(argv: list[str]) -> tuple[float, float]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    before = os.times()
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "ltr_teach.cli", *argv], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, env=env, check=False)
    wall = time.perf_counter() - start
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"ltr-teach start-up, median of {args.repeat} (target {TARGET} s for --help, check, eval --help):")
    for argv in COMMANDS:
        runs = [run_once(argv) for _ in range(args.repeat)]
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        print(f"  ltr-teach {' '.join(argv):28s} {wall:5.2f} s wall, {cpu:5.2f} s CPU")


if __name__ == "__main__":
    main()
