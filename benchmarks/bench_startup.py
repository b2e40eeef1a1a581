"""How long a whole ``ltr-teach`` process takes, start to exit (issue 21: at most 0.4 s for ``--help``,
``eval --help`` and ``check``, on an idle machine).

Each command is a fresh interpreter started with :mod:`subprocess`, exactly as a student's shell starts the
``ltr-teach`` console script (``from ltr_teach.cli import main``). The commands are run in interleaved
rounds (round 1 runs every command once, then round 2 ...), so a burst of load on a shared machine hits all
of them alike, and the median of the rounds is printed with its ratio to the 0.4 s target and to
``python -c pass`` (the interpreter's own start-up, which no change to the package can remove). The child's
CPU time (user + system) is printed beside the wall time: on a busy machine the wall time mostly measures
the other processes, the CPU time does not.

Byte code: by default the children cache it (in a temporary ``PYTHONPYCACHEPREFIX``, after one warm-up
run), as an installed package or a second run from a clone does. ``--no-bytecode-cache`` sets
``PYTHONDONTWRITEBYTECODE=1`` with an empty cache, so every run compiles the package's sources again.

Run: ``PYTHONPATH=. python benchmarks/bench_startup.py [--rounds 7] [--quick] [--no-bytecode-cache]``
(``--quick``: only the five commands the issue names; default: also every other path of ``check``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 0.4
BASELINE = "python -c pass"

#: (label, argv of ltr-teach): the issue's commands first, then every other path of ``check``.
ISSUE_COMMANDS = (
    ("ltr-teach --help", ["--help"]),
    ("ltr-teach eval --help", ["eval", "--help"]),
    ("check, right answer", ["check", "p-at-2-doc001", "1/2"]),
    ("check, wrong (slip named)", ["check", "ndcg-lipstick", "0.9548"]),
)
OTHER_CHECKS = (
    ("check --seed 7", ["check", "p-at-2-doc001", "1/4", "--seed", "7"]),
    ("check --reveal", ["check", "err-lipstick", "0.9", "--reveal"]),
    ("check, unreadable", ["check", "p-at-2-doc001", "half"]),
    ("check, unknown id", ["check", "ndcg-lipstik", "0.9"]),
    ("check, choice (wrong)", ["check", "dcg-append-item", "same"]),
    ("check, create (wrong)", ["check", "ndcg-perfect-with-a-zero", "[0, 1, 2]"]),
    ("check, many_queries create", ["check", "significant-five-queries", "[2, 3, 4, 5, 6] [3, 5, 5, 6, 9]"]),
    ("check, many_queries choice", ["check", "ci-with-more-queries", "quarter"]),
    ("check, collections create", ["check", "high-agreement-low-kappa", "[0, 0, 1] [0, 1, 0]"]),
    ("check, learning_to_rank", ["check", "fewer-pairs-lower-ndcg", "[1, 3, 0, 0, 0] [3, 0, 0, 1, 0]"]),
    ("check, choosing compute", ["check", "gauc-three-users", "4/7"]),
    ("check, comparing spot", ["check", "spot-000-map", "mean-line"]),
    ("check --lang zh, wrong", ["--lang", "zh", "check", "ndcg-lipstick", "0.9548"]),
)


def _command(argv: list[str]) -> list[str]:
    """The ``ltr-teach`` console script of this interpreter's environment, else the same two lines with -c."""
    script = Path(sys.executable).with_name("ltr-teach")
    if script.is_file():
        return [sys.executable, str(script), *argv]
    return [sys.executable, "-c", "import sys; from ltr_teach.cli import main; sys.exit(main())", *argv]


def run_once(command: list[str], env: dict) -> tuple[float, float, int]:
    """Wall and CPU seconds of one child process, and its exit code."""
    before = os.times()
    start = time.perf_counter()
    code = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False,
                          cwd=env["PYTHONPATH"]).returncode
    wall = time.perf_counter() - start
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return wall, cpu, code


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=7, help="interleaved rounds (at least 7 for the report)")
    parser.add_argument("--quick", action="store_true", help="only the commands the issue names")
    parser.add_argument("--no-bytecode-cache", action="store_true", help="compile the sources in every run")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose ltr_teach is timed (default: this "
                        "one), to compare with another branch")
    args = parser.parse_args()

    cache = tempfile.mkdtemp(prefix="ltr-teach-bench-pyc-")
    env = {**os.environ, "PYTHONPATH": str(args.root.resolve()), "PYTHONPYCACHEPREFIX": cache}
    env.pop("LTR_TEACH_LANG", None)
    if args.no_bytecode_cache:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    else:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    commands = [(BASELINE, [sys.executable, "-c", "pass"])]
    commands += [(label, _command(argv)) for label, argv in ISSUE_COMMANDS + (() if args.quick else OTHER_CHECKS)]
    try:
        for _label, command in commands:  # warm-up: writes the byte code cache (unless told not to)
            run_once(command, env)
        times: dict[str, list] = {label: [] for label, _ in commands}
        codes: dict[str, set] = {label: set() for label, _ in commands}
        for _round in range(args.rounds):
            for label, command in commands:
                wall, cpu, code = run_once(command, env)
                times[label].append((wall, cpu))
                codes[label].add(code)
    finally:
        shutil.rmtree(cache, ignore_errors=True)

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    cached = "no byte code cache" if args.no_bytecode_cache else "byte code cached"
    print(f"whole-process start-up of {args.root.resolve()}, median of {args.rounds} interleaved rounds ({cached}; "
          f"Python {sys.version.split()[0]}; load average {load:.2f} at the end)")
    print(f"{'command':30s} {'wall s':>7s} {'CPU s':>7s} {'wall/0.4s':>9s} {'CPU/0.4s':>8s} {'wall/base':>9s} exit")
    base = statistics.median(w for w, _ in times[BASELINE])
    for label, _ in commands:
        wall = statistics.median(w for w, _ in times[label])
        cpu = statistics.median(c for _, c in times[label])
        exits = ",".join(str(c) for c in sorted(codes[label]))
        print(f"{label:30s} {wall:7.3f} {cpu:7.3f} {wall / TARGET:9.2f} {cpu / TARGET:8.2f} {wall / base:9.1f} {exits}")


if __name__ == "__main__":
    main()
