"""The command line starts without the heavy libraries (issue 21): `ltr-teach --help` and `eval --help`
build every subcommand's parser, and none of them may load SymPy, NumPy, Matplotlib or ipywidgets.
Checked by the modules a fresh interpreter has loaded, not by time (the benchmark prints the times)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import ltr_teach as lt
from ltr_teach.metrics.registry import BULK_NAMES
from ltr_teach.runs.evaluate import METRIC_NAMES
from ltr_teach.teaching.bank import FAMILY_KEYS
from ltr_teach.teaching.exercises import FAMILIES

HEAVY = ("sympy", "numpy", "matplotlib", "ipywidgets", "scipy", "mpmath")
ROOT = Path(__file__).resolve().parent.parent


def _loaded_after(argv: list[str]) -> tuple[int, list[str]]:
    code = (
        "import json, sys\n"
        "from ltr_teach.cli import main\n"
        "import contextlib, io\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
        "    try:\n"
        f"        code = main({argv!r})\n"
        "    except SystemExit as exc:\n"
        "        code = exc.code\n"
        f"print(json.dumps([code, [m for m in {HEAVY!r} if m in sys.modules]]))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, encoding="utf-8",
                         env=env, check=True, cwd=ROOT).stdout
    exit_code, loaded = json.loads(out.strip().splitlines()[-1])
    return exit_code, loaded


@pytest.mark.parametrize("argv", [["--help"], ["eval", "--help"], ["compare", "--help"], ["exercises", "--help"],
                                  ["conventions"]])
def test_help_loads_none_of_the_heavy_libraries(argv):
    exit_code, loaded = _loaded_after(argv)
    assert exit_code == 0
    assert loaded == []


def test_a_command_that_computes_still_loads_sympy():
    # the check above cannot pass by accident: a metric's command does load SymPy
    exit_code, loaded = _loaded_after(["explain", "dcg", "3", "2"])
    assert exit_code == 0 and "sympy" in loaded


def test_the_light_name_lists_equal_the_heavy_ones():
    assert list(FAMILY_KEYS) == list(FAMILIES)
    assert BULK_NAMES == METRIC_NAMES
    assert lt.METRICS["ndcg"].func is lt.ndcg
