"""From a slider change to the updated table and plot, in a real JupyterLab in Chromium (issue 21: median of a
10-item editor's changes at most 100 ms).

A notebook showing a 10-item NDCG editor is opened in JupyterLab (the helpers of ``tests/browser/``: a private
server on 127.0.0.1, Debian's Chromium through Playwright). Each change focuses a grade slider's handle and
presses an arrow key; the time runs in the page from that keydown to the moment both the table's HTML and the
plot's image have changed (a MutationObserver), so it holds the kernel's recompute, the two messages back and
the browser's rendering, and no Playwright round trip. The median of ``--changes`` changes is printed.

Run: ``PYTHONPATH=. python benchmarks/bench_browser.py [--changes 20]`` (needs JupyterLab, Playwright and
/usr/bin/chromium; about a minute, most of it starting the server and the kernel).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from lab_driver import (  # the browser tests' helpers, found through the path above
    UI_TIMEOUT_MS,
    JupyterLabServer,
    cell_stderr,
    launch_chromium,
    open_notebook,
    run_all_cells,
)

NAME = "bench_editor.ipynb"
TARGET_MS = 100
SOURCE = """import ltr_teach as lt
from ltr_teach.widgets import RankingEditor
lt.set_language("en")
RankingEditor([f"item {i}" for i in range(1, 11)], [3, 2, 3, 0, 1, 2, 2, 1, 0, 3], k=10)"""

# Armed before each key press: resolves with the milliseconds from the next keydown to the moment the table and
# the plot have both changed.
ARM = """() => {
  const editor = document.querySelector('.ltr-editor');
  const table = editor.querySelector('.ltr-table');
  const img = () => editor.querySelector('.ltr-plot img, img.ltr-plot');
  const tableBefore = table.innerHTML, imgBefore = img() ? img().src : '';
  let start = null;
  document.addEventListener('keydown', () => { if (start === null) start = performance.now(); },
                            {capture: true, once: true});
  window.__ltrChange = new Promise(resolve => {
    const check = () => {
      if (start !== null && table.innerHTML !== tableBefore && img() && img().src !== imgBefore) {
        observer.disconnect();
        resolve(performance.now() - start);
      }
    };
    const observer = new MutationObserver(check);
    observer.observe(editor, {subtree: true, childList: true, attributes: true, characterData: true});
  });
}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--changes", type=int, default=20)
    args = parser.parse_args()

    import nbformat
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(SOURCE)])
        notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)",
                                           "language": "python"}
        nbformat.write(notebook, root / NAME)
        server = JupyterLabServer(root_dir=root, python_path=[ROOT]).start()
        try:
            with sync_playwright() as playwright:
                browser = launch_chromium(playwright)
                page = browser.new_page(viewport={"width": 1280, "height": 1000})
                open_notebook(page, server, NAME)
                run_all_cells(page)
                assert cell_stderr(page) == [], cell_stderr(page)
                page.locator(".ltr-editor .ltr-plot").first.wait_for(timeout=UI_TIMEOUT_MS)
                handle = page.locator(".ltr-editor .ltr-row-4 .ltr-grade-slider .noUi-handle").first
                times = []
                for i in range(args.changes + 1):
                    page.evaluate(ARM)
                    handle.focus()
                    # grade 0 of rank 4 goes up to 3 and back down: every press changes DCG, IDCG and the plot
                    page.keyboard.press("ArrowRight" if (i // 3) % 2 == 0 else "ArrowLeft")
                    elapsed = page.evaluate("window.__ltrChange")
                    if i:  # the first change warms the kernel's caches and the browser's layout
                        times.append(elapsed)
                browser.close()
        finally:
            server.stop()
            server.cleanup()
    median = statistics.median(times)
    print(f"slider change -> table and plot updated in JupyterLab/Chromium, 10 items, median of {len(times)}: "
          f"{median:.0f} ms (min {min(times):.0f}, max {max(times):.0f}; target {TARGET_MS} ms)")


if __name__ == "__main__":
    main()
