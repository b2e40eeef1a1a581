"""``ltr-teach explain``: the table on stdout, and one line on stderr with exit code 2 for bad input."""

import inspect
import os
import subprocess
import sys
from pathlib import Path

import pytest

import ltr_teach as lt
from ltr_teach.cli import main
from ltr_teach.registry import ALIASES, METRICS, lookup

ROOT = Path(__file__).resolve().parent.parent


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


class TestExplain:
    def test_ndcg_document_000(self, capsys):
        code, out, err = run(capsys, "explain", "ndcg", "3", "2", "3", "0", "1", "2", "2", "--k", "7")
        assert (code, err) == (0, "")
        assert out == str(lt.ndcg([3, 2, 3, 0, 1, 2, 2], k=7)) + "\n"
        assert out.splitlines()[0] == "NDCG@7"
        assert out.splitlines()[-1].endswith("≈ 0.944227")

    @pytest.mark.parametrize("argv, last_line", [
        ("map 1 1 0 0 1 0 0 , 0 1 1 0 0 1 1".split(), "MAP = 599/840 ≈ 0.713095"),
        (["mean_average_precision", "1", "0", "1,", "0", "1", "--n-relevant", "3"], "MAP = 13/36 ≈ 0.361111"),
        (["mrr", "0", "1", "0", ",", "1", "0", "0", ",", "0", "0", "1"], "MRR = 11/18 ≈ 0.611111"),
        (["rr", "0", "0", "1"], "RR = 1/3 ≈ 0.333333"),
        (["p", "1", "0", "--k", "4"], "P@4 = 1/4 = 0.25"),
        (["recall", "1", "0", "1", "1", "--k", "3", "--n-relevant", "4"], "R@3 = 1/2 = 0.5"),
        (["f1", "1", "0", "1", "1", "--k", "4", "--n-relevant", "5"], "F1@4 = 2/3 ≈ 0.666667"),
        (["f_beta", "1", "0", "1", "1", "--k", "4", "--n-relevant", "5", "--beta", "1/2"], "F1/2@4 = 5/7 ≈ 0.714286"),
        (["ap", "1", "0", "1", "0", "1", "--n-relevant", "5"], "AP = 34/75 ≈ 0.453333"),
        (["err", "3", "2", "3", "1", "--g-max", "3"], "ERR = 45295/49152 ≈ 0.921529"),
        (["auc", "1", "0", "1", "0", "--scores", "0.9", "0.8", "0.8", "0.1"], "AUC = 7/8 = 0.875"),
        (["cg", "5", "3", "2", "1", "2"], "CG = 13"),
        (["dcg", "3", "2", "0", "1", "--gain", "linear", "--discount", "jarvelin"], "DCG = 11/2 = 5.5"),
        (["ndcg", "0", "0", "--zero", "one"], "NDCG = 1"),
        (["precision_at_k", "3", "0", "1", "2", "--k", "4", "--threshold", "2"], "P@4 = 1/2 = 0.5"),
        (["11pt", "1", "0", "1", "0", "0", "1", "--n-relevant", "4"], "11-point AP = 6/11 ≈ 0.545455"),
        (["interpolated_precision", "1", "0", "1", "0", "0", "1", "--n-relevant", "4", "--recall", "0.5"],
         "P_interp(recall=0.5) = 2/3 ≈ 0.666667"),
    ])
    def test_metrics_and_aliases(self, capsys, argv, last_line):
        code, out, err = run(capsys, "explain", *argv)
        assert (code, err) == (0, "")
        assert out.splitlines()[-1] == last_line

    def test_ideal_pool(self, capsys):
        code, out, _ = run(capsys, *"explain idcg 5 3 2 1 2 --k 5 --ideal 5 3 2 1 2 4 0".split())
        assert code == 0
        assert out == str(lt.idcg([5, 3, 2, 1, 2], k=5, ideal=[5, 3, 2, 1, 2, 4, 0])) + "\n"

    def test_fractional_grades(self, capsys):
        code, out, _ = run(capsys, "explain", "cg", "1/2", "0.25")
        assert code == 0
        assert out.splitlines()[-1] == "CG = 3/4 = 0.75"


class TestErrors:
    @pytest.mark.parametrize("argv, message", [
        (["explain", "nope", "1"], "metric must be one of cg, dcg"),
        (["explain", "ndcg", "3", "x"], "value = 'x' is not a number"),
        (["explain", "ndcg", "3", "1/0"], "value = '1/0' divides by zero"),
        (["explain", "ndcg", "3", "2+1"], "value = '2+1' is not a number"),
        (["explain", "ndcg", "3", "-2"], "grades[1] = -2 is negative"),
        (["explain", "ndcg", "3", "1.5"], "grades[1] = 3/2 is not a whole number"),
        (["explain", "ndcg", "3", "2", "--k", "0"], "k must be an integer >= 1"),
        (["explain", "ndcg", "1e9"], "grades[0] = 1000000000 is too large for an exponent"),
        (["explain", "err", "1", "--g-max", "1e9"], "g_max = 1000000000 is too large"),
        (["explain", "ndcg", "3", "2", "--k", "1.5"], "--k = '1.5' must be a whole number"),
        (["explain", "ndcg", "3", "2", "--k"], "argument --k: expected one argument"),
        (["explain", "ndcg", "3", "2", "--gain", "exp"], "gain must be one of 'exp2', 'linear'; got 'exp'"),
        (["explain", "ndcg", "3", "2", "--discount", "log10"], "discount must be one of 'log2', 'ln', 'jarvelin'"),
        (["explain", "ndcg", "0", "0", "--zero", "raise"], "IDCG is 0"),
        (["explain", "ndcg", "3", "2", "--ideal", "3"], "ideal must hold every judged grade"),
        (["explain", "ndcg", "3", "2", "--bogus", "1"], "unrecognized arguments: --bogus 1"),
        (["explain", "ndcg", "3", "2", "--scores", "1", "2"], "--scores does not apply to ndcg"),
        (["explain", "mrr", "1", "0", "--gain", "linear"], "--gain does not apply to mrr"),
        (["explain", "mrr", "1", "0", ",", ",", "1"], "an empty query"),
        (["explain", "err", "3", "2"], "err needs --g-max"),
        (["explain", "err", "3", "4", "--g-max", "3"], "grades[1] = 4 is above g_max = 3"),
        (["explain", "p", "1", "0"], "precision_at_k needs --k"),
        (["explain", "ap", "1", "1", "--n-relevant", "1"], "n_relevant = 1 is smaller than the 2 relevant items"),
        (["explain", "rr", "1", "2"], "rels[1] = 2 is not 0 or 1"),
        (["explain", "auc", "1", "0"], "auc needs --scores"),
        (["explain", "auc", "1", "1", "--scores", "0.5", "0.4"], "labels holds only one class"),
        (["explain", "auc", "1", "0", "1", "--scores", "0.5", "0.4"], "labels and scores must have the same length"),
        (["explain"], "the following arguments are required: metric, values"),
        ([], "the following arguments are required: command"),
        (["nope"], "invalid choice: 'nope'"),
    ])
    def test_one_line_exit_2(self, capsys, argv, message):
        code, out, err = run(capsys, *argv)
        assert code == 2
        assert out == ""
        assert err.startswith("ltr-teach: error: ")
        assert err.endswith("\n") and err.count("\n") == 1, err
        assert message in err
        assert "Traceback" not in err

    def test_no_traceback_from_the_console(self):
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        proc = subprocess.run([sys.executable, "-m", "ltr_teach.cli", "explain", "ndcg", "3", "nan"],
                              capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
        assert proc.returncode == 2
        assert proc.stdout == ""
        assert proc.stderr == "ltr-teach: error: value = 'nan' is not a number (write 3, 0.5 or 1/2)\n"

    def test_help_exits_zero(self, capsys):
        with pytest.raises(SystemExit) as exc:
            main(["explain", "--help"])
        assert exc.value.code == 0
        assert "Metrics: cg, dcg" in capsys.readouterr().out


class TestRegistry:
    """The command line is generated from the registry, so the registry must match the functions."""

    @pytest.mark.parametrize("name", list(METRICS))
    def test_entry_is_the_public_function(self, name):
        assert getattr(lt, name) is METRICS[name].func

    @pytest.mark.parametrize("name", list(METRICS))
    def test_options_are_keywords_of_the_function(self, name):
        parameters = inspect.signature(METRICS[name].func).parameters
        for option in METRICS[name].options:
            assert option in parameters

    @pytest.mark.parametrize("alias, name", sorted(ALIASES.items()))
    def test_aliases(self, alias, name):
        assert lookup(alias) is METRICS[name]

    def test_unknown_name_lists_the_choices(self):
        with pytest.raises(ValueError, match=r"^metric must be one of cg, dcg, .*auc \(or rr, .*\); got 'ndgc'$"):
            lookup("ndgc")
