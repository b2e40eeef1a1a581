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


def _modules_after(argv: list[str]) -> tuple[int, list[str]]:
    """The exit code of ``ltr-teach ARGV`` in a fresh interpreter, and the ltr_teach and heavy modules it loaded."""
    code = (
        "import json, sys\n"
        "from ltr_teach.cli import main\n"
        "import contextlib, io\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
        "    try:\n"
        f"        code = main({argv!r})\n"
        "    except SystemExit as exc:\n"
        "        code = exc.code\n"
        f"print(json.dumps([code, sorted(m for m in sys.modules if m.startswith('ltr_teach') "
        f"or m.partition('.')[0] in {HEAVY!r})]))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, encoding="utf-8",
                         env=env, check=True, cwd=ROOT).stdout
    exit_code, loaded = json.loads(out.strip().splitlines()[-1])
    return exit_code, loaded


def _heavy(loaded: list[str]) -> list[str]:
    return [m for m in loaded if m in HEAVY]


@pytest.mark.parametrize("argv", [["--help"], ["eval", "--help"], ["compare", "--help"], ["exercises", "--help"],
                                  ["conventions"]])
def test_help_loads_none_of_the_heavy_libraries(argv):
    exit_code, loaded = _modules_after(argv)
    assert exit_code == 0
    assert _heavy(loaded) == []


def test_a_command_that_computes_still_loads_sympy():
    # the check above cannot pass by accident: a metric's command does load SymPy
    exit_code, loaded = _modules_after(["explain", "dcg", "3", "2"])
    assert exit_code == 0 and "sympy" in _heavy(loaded)


def test_the_light_name_lists_equal_the_heavy_ones():
    assert list(FAMILY_KEYS) == list(FAMILIES)
    assert BULK_NAMES == METRIC_NAMES
    assert lt.METRICS["ndcg"].func is lt.ndcg


def _bank_modules(loaded):
    return [m.rpartition(".")[2] for m in loaded if m.startswith("ltr_teach.teaching.bank.") and "._" not in m]


@pytest.mark.parametrize(("argv", "exit_code", "family"), [
    (["check", "p-at-2-doc001", "1/2"], 0, "precision_recall"),                    # compute, right
    (["check", "ndcg-lipstick", "0.9548"], 1, "dcg_ndcg"),                        # compute, a slip named
    (["check", "p-at-2-doc001", "1/4", "--seed", "7"], 0, "precision_recall"),    # a student's variant
    (["check", "err-lipstick", "0.9", "--reveal"], 1, "err"),
    (["check", "p-at-2-doc001", "half"], 2, "precision_recall"),                  # unreadable
    (["check", "dcg-append-item", "same"], 1, "dcg_ndcg"),                        # choice
    (["check", "fewer-pairs-lower-ndcg", "[1, 3, 0, 0, 0] [3, 0, 0, 1, 0]"], 0, "learning_to_rank"),  # create
    (["check", "unjudged-counted-as-nonrelevant", "unjudged"], 0, "collections"),
])  # (not many_queries: its options and rankings are judged with lt.sign_flips, which computes with NumPy)
def test_check_imports_one_bank_module_and_no_numpy(argv, exit_code, family):
    # issue 21: `ltr-teach check` imports the exercise's own bank module only, and none of NumPy, Matplotlib,
    # ipywidgets or SciPy (the exact answer needs SymPy alone); the registry of every exercise is never built
    code, loaded = _modules_after(argv)
    assert code == exit_code
    assert _bank_modules(loaded) == [family]
    assert [m for m in loaded if m.partition(".")[0] in HEAVY and not m.startswith(("sympy", "mpmath"))] == []
    assert "ltr_teach.interactive" not in loaded and "ltr_teach.classroom" not in loaded


def test_an_unknown_id_imports_no_bank_module():
    code, loaded = _modules_after(["check", "ndcg-lipstik", "0.9"])
    assert code == 2
    assert _bank_modules(loaded) == []


def test_the_ids_read_from_the_bank_source_are_the_registered_ones():
    # the index `check` finds an exercise by (the first argument of _e, choice, create in each module's source)
    from ltr_teach.teaching import bank

    for module in bank.MODULES:
        assert sorted(bank.source_ids(module.FAMILY[0])) == sorted(e.id for e in module.EXERCISES)
    assert sorted(bank.all_source_ids()) == sorted(lt.exercises.ids())
    assert bank.family_of("ndcg-lipstick") == "dcg_ndcg" and bank.family_of("ndcg-lipstik") is None


@pytest.mark.parametrize("convention", ["trec_eval", "ranx", "ir_measures"])
def test_evaluating_run_files_loads_no_sympy(tmp_path, convention):
    # the float path of whole runs needs no exact number: SymPy's import (~0.2 s) stays out of `ltr-teach eval`
    (tmp_path / "qrels").write_text("q1 0 d1 2\nq1 0 d2 0\nq2 0 d3 1\n", encoding="utf-8")
    (tmp_path / "run").write_text("q1 Q0 d2 1 0.9 r\nq1 Q0 d1 2 0.5 r\nq2 Q0 d3 1 0.7 r\n", encoding="utf-8")
    argv = ["eval", "-m", "ndcg@10", "-m", "map", "-m", "mrr", "-m", "p@5", "--per-query",
            "--convention", convention, str(tmp_path / "qrels"), str(tmp_path / "run")]
    exit_code, loaded = _modules_after(argv)
    assert exit_code == 0
    assert "sympy" not in loaded and "mpmath" not in loaded and "numpy" in loaded
