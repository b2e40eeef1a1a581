"""Run a notebook top to bottom and list the widgets a later cell changed after they were displayed.

Every editor and question widget records its state when it is displayed
(:mod:`ltr_teach.interactive.starting_state`). After Run All each must still be in that state: a
student who scrolls up finds it as the text describes it, with its "try this" steps not yet done.
Generic over notebooks, for any test (and for the lead to run over every notebook)::

    from starting_state import widgets_changed_after_run_all
    assert widgets_changed_after_run_all("notebooks/en/04_dcg_ndcg.ipynb") == []
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
_ASK = ("import json as _json\n"
        "from ltr_teach.interactive.starting_state import changed_since_display as _changed\n"
        "print('LTR-TEACH-CHANGED ' + _json.dumps(_changed(), ensure_ascii=False))")


def widgets_changed_after_run_all(path, timeout: int = 600) -> list[str]:
    """Execute the notebook at ``path`` on a fresh kernel in its own folder (so an edition's language applies),
    then return the labels of the displayed widgets whose state changed after they were displayed.

    The kernel sees this checkout's code (``PYTHONPATH`` is set to it). The notebook file is not changed.
    """
    path = Path(path)
    notebook = nbformat.read(path, as_version=4)
    notebook.cells.append(nbformat.v4.new_code_cell(_ASK))
    env_path = os.environ.get("PYTHONPATH", "")
    os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + ([env_path] if env_path else []))
    try:
        NotebookClient(notebook, timeout=timeout, kernel_name="python3",
                       resources={"metadata": {"path": str(path.parent)}}).execute()
    finally:
        os.environ["PYTHONPATH"] = env_path
    for output in notebook.cells[-1].outputs:
        text = output.get("text", "")
        if text.startswith("LTR-TEACH-CHANGED "):
            return json.loads(text.split(" ", 1)[1])
    raise AssertionError(f"{path}: the last cell printed no list of changed widgets: {notebook.cells[-1].outputs}")
