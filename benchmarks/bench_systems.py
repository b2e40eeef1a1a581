"""Tukey's HSD of many systems: lt.tukey_hsd against scipy.stats.tukey_hsd, measured in the same run.

k systems (10, 20, 50) of 50 per-query scores each, drawn once (seeded). Each round times both tools on the
same samples, taking turns; the p-values are checked to agree (rtol 1e-7 where SciPy's p is above 1e-6: below,
SciPy's own integral moves by about 1e-6 relative). Printed per k: the median wall-clock and CPU time of each,
and lt's speed-up as a ratio of medians (above 1: lt is faster). The studentized range's tables are cached per
k, so the first round (cold) is printed apart from the median of the rest (warm).

Run: PYTHONPATH=$PWD python benchmarks/bench_systems.py [--repeat R] [--sizes 10 20 50]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from scipy import stats

import ltr_teach as lt
from ltr_teach.runs import studentized


def samples(k: int, n: int = 50, seed: int = 0) -> list:
    rng = np.random.default_rng(seed + k)
    return [rng.normal(0.4 + 0.01 * i, 0.2, size=n) for i in range(k)]


def timed(function, data) -> tuple[float, float, object]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = function(data)
    return time.perf_counter() - wall, time.process_time() - cpu, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 20, 50])
    args = parser.parse_args()
    print(f"{'k':>3} {'pairs':>5}  {'lt cold s':>9}  {'lt warm s':>9}  {'scipy s':>8}  {'ratio (warm)':>12}  "
          f"{'ratio (cold)':>12}  {'cpu ratio':>9}")
    for k in args.sizes:
        data = samples(k)
        studentized._log_range_sf_panel.cache_clear()
        ours_wall, ours_cpu, theirs_wall, theirs_cpu = [], [], [], []
        for _ in range(args.repeat + 1):
            wall, cpu, ours = timed(lt.tukey_hsd, data)
            ours_wall.append(wall)
            ours_cpu.append(cpu)
            wall, cpu, theirs = timed(lambda d: stats.tukey_hsd(*d), data)
            theirs_wall.append(wall)
            theirs_cpu.append(cpu)
        keep = theirs.pvalue > 1e-6
        np.testing.assert_allclose(ours.pvalue[keep], theirs.pvalue[keep], rtol=1e-7)
        np.testing.assert_allclose(ours.pvalue[~keep], theirs.pvalue[~keep], rtol=1e-4, atol=1e-12)
        cold = ours_wall[0]
        warm = statistics.median(ours_wall[1:])
        scipy_wall = statistics.median(theirs_wall)
        cpu_ratio = statistics.median(theirs_cpu) / max(statistics.median(ours_cpu[1:]), 1e-9)
        print(f"{k:>3} {k * (k - 1) // 2:>5}  {cold:>9.3f}  {warm:>9.3f}  {scipy_wall:>8.3f}  "
              f"{scipy_wall / warm:>12.1f}  {scipy_wall / cold:>12.1f}  {cpu_ratio:>9.1f}")


if __name__ == "__main__":
    main()
