"""How long one slider move takes in RankingEditor, end to end, against a plain peer.

One ``editor.set_grade`` on a 10-item NDCG@10 ranking recomputes the exact explanation, rebuilds
the HTML table and redraws the PNG plot. The peer does the least a hand-written notebook would:
scikit-learn's ``ndcg_score`` (floats) plus a plain matplotlib redraw of a bar chart and two lines
into a PNG of the same size. Both are measured in the same run, so the ratio does not depend on
how busy the machine is; the medians do. Target: a median of 50 ms or less per slider move.

It also prints the CPU ("Python") time of the same move (target: 16 ms for 10 items) and the time of a
grade change and of a move in editors of 10 to 200 items, then issue 21's targets in CPU time: ``set_grade``
at most 16 ms on 10 items and 100 ms on 200, a 200-item editor built in at most 1 s.

Run: ``PYTHONPATH=. python benchmarks/bench_widgets.py [--repeat 40]``
"""

from __future__ import annotations

import argparse
import io
import statistics
import time

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from sklearn.metrics import ndcg_score

import ltr_teach as lt
from ltr_teach.interactive.plots import render_png
from ltr_teach.widgets import RankingEditor

NAMES = ["小棕瓶眼霜", "MAC口红", "神仙水", "兰蔻粉水", "芦荟霜", "面膜", "眼霜", "精华", "面霜", "口红"]
GRADES = [3, 2, 3, 0, 1, 2, 2, 1, 0, 3]


def median_ms(action, repeat: int, clock=time.perf_counter) -> float:
    action(0)  # warm caches (fonts, glyphs) outside the timing
    times = []
    for i in range(repeat):
        start = clock()
        action(i)
        times.append(clock() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=40)
    args = parser.parse_args()

    editor = RankingEditor(NAMES, GRADES, k=10)
    # Cycling rank 4 through the grades 0..3 changes DCG, IDCG, the table and the picture every time.
    ours = median_ms(lambda i: editor.set_grade(3, i % 4), args.repeat)
    ours_cpu = median_ms(lambda i: editor.set_grade(3, i % 4), args.repeat, clock=time.process_time)

    fig = Figure(figsize=(7, 3.6), dpi=80)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()

    def peer(i):
        grades = list(GRADES)
        grades[3] = i % 4
        y_true = np.asarray([grades], dtype=float)
        y_score = np.arange(len(grades), 0, -1, dtype=float)[None, :]  # the shown order as scores
        ndcg_score(y_true, y_score, k=10)
        ax.clear()
        gains = (2.0 ** np.asarray(grades) - 1) / np.log2(np.arange(2, len(grades) + 2))
        ax.bar(range(1, 11), gains)
        ax.plot(range(1, 11), np.cumsum(gains), "o-")
        ax.plot(range(1, 11), np.cumsum(np.sort(gains)[::-1]), "s--")
        ax.set_xticks(range(1, 11))
        ax.set_xticklabels(NAMES, rotation=30, ha="right")
        fig.savefig(io.BytesIO(), format="png")

    theirs = median_ms(peer, args.repeat)

    grades_cycle = [[*GRADES[:3], g, *GRADES[4:]] for g in range(4)]
    compute = median_ms(lambda i: lt.ndcg(grades_cycle[i % 4], k=10), args.repeat)
    explained = [lt.ndcg(g, k=10) for g in grades_cycle]
    table = median_ms(lambda i: explained[i % 4]._repr_html_(), args.repeat)
    plot_fig = Figure(figsize=(7, 3.6), dpi=80)
    plot = median_ms(lambda i: render_png(explained[i % 4], names=NAMES, figure=plot_fig, legend=False), args.repeat)

    print(f"RankingEditor.set_grade, 10 items, NDCG@10, median of {args.repeat}: {ours:.1f} ms wall, "
          f"{ours_cpu:.1f} ms CPU (targets: 50 ms; 16 ms of Python time)")
    print(f"  of which: exact recompute {compute:.1f} ms, HTML table {table:.1f} ms, PNG plot {plot:.1f} ms")
    print(f"peer (sklearn ndcg_score + plain matplotlib redraw to PNG), median: {theirs:.1f} ms")
    print(f"ratio ours / peer: {ours / theirs:.2f}")

    # Larger editors: how long one grade change and one move take, up to the 200 items of issue 11.
    print("larger editors (NDCG over the whole list), median of 7, wall / CPU:")
    for n in (10, 30, 50, 100, 200):
        names = [f"item {i}" for i in range(n)]
        big = RankingEditor(names, [i % 4 for i in range(n)])
        cells = []
        # the editor and its size bound as defaults: each action is timed within this iteration only
        for action in (lambda i, big=big, n=n: big.set_grade(i % n, (i + 1) % 4),
                       lambda i, big=big, n=n: big.move(i % n, (i * 7 + 3) % n)):
            cells.append(f"{median_ms(action, 7):6.1f} / {median_ms(action, 7, clock=time.process_time):6.1f} ms")
        print(f"  {n:4d} items: set_grade {cells[0]}, move {cells[1]}")

    # Issue 21's targets, in CPU time (the shared machine's wall time mostly measures the other processes).
    print("issue 21 targets (CPU time; wall time beside it):")
    for n, target in ((10, 16.0), (200, 100.0)):
        names = [f"item {i}" for i in range(n)]
        big = RankingEditor(names, [i % 4 for i in range(n)])
        cpu = median_ms(lambda i, big=big, n=n: big.set_grade(i % n, (i + 1) % 4), args.repeat, clock=time.process_time)
        wall = median_ms(lambda i, big=big, n=n: big.set_grade(i % n, (i + 1) % 4), args.repeat)
        print(f"  set_grade, {n:3d} items: {cpu:6.1f} ms CPU (target {target:.0f} ms: "
              f"{'met' if cpu <= target else 'NOT met'}), {wall:6.1f} ms wall")
    names = [f"item {i}" for i in range(200)]
    builds = []
    for attempt in range(3):
        cpu_start, wall_start = time.process_time(), time.perf_counter()
        RankingEditor(names, [(i + attempt) % 4 for i in range(200)])
        builds.append((time.process_time() - cpu_start, time.perf_counter() - wall_start))
    cpu, wall = statistics.median(b[0] for b in builds), statistics.median(b[1] for b in builds)
    print(f"  a 200-item editor built: {cpu:.2f} s CPU (target 1 s: {'met' if cpu <= 1.0 else 'NOT met'}), "
          f"{wall:.2f} s wall (median of 3)")


if __name__ == "__main__":
    main()
