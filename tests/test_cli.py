"""``ltr-teach explain``: the table on stdout, and one line on stderr with exit code 2 for bad input."""

import inspect
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import ltr_teach as lt
from ltr_teach.cli import main
from ltr_teach.metrics.registry import ALIASES, METRICS, lookup

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
        ("map 1 1 0 0 1 0 0 , 0 1 1 0 0 1 1".split(), "MAP = (13/15 + 47/84)/2 = 599/840 ≈ 0.713095"),
        (["mean_average_precision", "1", "0", "1,", "0", "1", "--n-relevant", "3"], "MAP = (5/9 + 1/6)/2 = 13/36 ≈ 0.361111"),
        (["mrr", "0", "1", "0", ",", "1", "0", "0", ",", "0", "0", "1"], "MRR = (1/2 + 1 + 1/3)/3 = 11/18 ≈ 0.611111"),
        (["rr", "0", "0", "1"], "RR = 1/3 ≈ 0.333333"),
        (["p", "1", "0", "--k", "4"], "P@4 = 1/4 = 0.25"),
        (["recall", "1", "0", "1", "1", "--k", "3", "--n-relevant", "4"], "R@3 = 1/2 = 0.5"),
        (["f1", "1", "0", "1", "1", "--k", "4", "--n-relevant", "5"], "F1@4 = 2/3 ≈ 0.666667"),
        (["f_beta", "1", "0", "1", "1", "--k", "4", "--n-relevant", "5", "--beta", "1/2"], "F1/2@4 = 5/7 ≈ 0.714286"),
        (["ap", "1", "0", "1", "0", "1", "--n-relevant", "5"], "AP = (1 + 0 + 2/3 + 0 + 3/5)/5 = 34/75 ≈ 0.453333"),
        (["err", "3", "2", "3", "1", "--g-max", "3"], 
         # 7/8, (1/8)(3/8)/2, (1/8)(5/8)(7/8)/3, (1/8)(5/8)(1/8)(1/8)/4: 43008 + 1152 + 1120 + 15 over 49152
         "ERR = 7/8 + 3/128 + 35/1536 + 5/16384 = 45295/49152 ≈ 0.921529"),
        (["auc", "1", "0", "1", "0", "--scores", "0.9", "0.8", "0.8", "0.1"], "AUC = 7/8 = 0.875"),
        (["cg", "5", "3", "2", "1", "2"], "CG = 5 + 3 + 2 + 1 + 2 = 13"),
        (["dcg", "3", "2", "0", "1", "--gain", "linear", "--discount", "jarvelin"], "DCG = 3 + 2 + 0 + 1/2 = 11/2 = 5.5"),  # jarvelin: ranks 1, 2 undiscounted, rank 4 by 2
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
        assert out.splitlines()[-1] == "CG = 1/2 + 1/4 = 3/4 = 0.75"


class TestRankingByScores:
    """--scores, --docids, --ties and --convention: the ranking is built from the scores, as each tool does."""

    def test_the_trec_eval_example(self, capsys):
        code, out, err = run(capsys, *"explain ndcg 3 2 0 1 --scores 0.5 0.9 0.9 0.1 --docids d1 d2 d3 d4 "
                                      "--convention trec_eval".split())
        assert (code, err) == (0, "")
        lines = out.splitlines()
        # d2 and d3 tie at 0.9; trec_eval orders a tie by docno descending, so d3 comes first.
        assert lines[0] == "order by score (ties='docid_desc'): d3, d2, d1, d4"
        assert [line.split()[:2] for line in lines[6:10]] == [["1", "d3"], ["2", "d2"], ["3", "d1"], ["4", "d4"]]
        assert "note: d3, d2 share score 9/10 = 0.9 (ranks 1–2); ties='docid_desc'" in out
        # linear gain, grades in ranked order 0, 2, 3, 1; the ideal (the list sorted) is 3, 2, 1, 0
        dcg = 0 / 1 + 2 / math.log2(3) + 3 / math.log2(4) + 1 / math.log2(5)
        idcg = 3 / 1 + 2 / math.log2(3) + 1 / math.log2(4) + 0
        assert lines[-1].startswith("NDCG = ") and lines[-1].endswith(f"≈ {dcg / idcg:.6f}")

    def test_the_trec_eval_example_agrees_with_pytrec_eval(self, capsys):
        pytrec_eval = pytest.importorskip("pytrec_eval")
        qrels = {"q": {"d1": 3, "d2": 2, "d3": 0, "d4": 1}}
        run_ = {"q": {"d1": 0.5, "d2": 0.9, "d3": 0.9, "d4": 0.1}}
        expected = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg"}).evaluate(run_)["q"]["ndcg"]
        _, out, _ = run(capsys, *"explain ndcg 3 2 0 1 --scores 0.5 0.9 0.9 0.1 --docids d1 d2 d3 d4 "
                                 "--convention trec_eval".split())
        assert out.splitlines()[-1].endswith(f"≈ {expected:.6f}")

    def test_sklearn_averages_the_tie(self, capsys):
        from sklearn.metrics import ndcg_score

        expected = ndcg_score([[3, 2, 0, 1]], [[0.5, 0.9, 0.9, 0.1]])
        code, out, _ = run(capsys, *"explain ndcg 3 2 0 1 --scores 0.5 0.9 0.9 0.1 --convention sklearn".split())
        assert code == 0
        assert out.splitlines()[0] == "order by score (ties='average'): #2, #3, #1, #4"
        assert out.splitlines()[-1].endswith(f"≈ {expected:.6f}")

    @pytest.mark.parametrize("argv, order, last_line", [
        # d3 (1) and d2 (0) tie at 0.9, docid descending puts d3 first; then d1 (1), d4 (0): AP = (1/1 + 2/3) / 2
        ("ap 1 0 1 0 --scores 0.5 0.9 0.9 0.1 --docids d1 d2 d3 d4 --ties docid_desc", "d3, d2, d1, d4",
         "AP = (1 + 0 + 2/3 + 0)/2 = 5/6 ≈ 0.833333"),  # d3 hit, d2 miss, d1 hit at 3: 2/3
        # the same tie kept in input order: d2 (0), d3 (1), d1 (1), d4 (0): AP = (1/2 + 2/3) / 2
        ("ap 1 0 1 0 --scores 0.5 0.9 0.9 0.1 --docids d1 d2 d3 d4", "d2, d3, d1, d4",
         "AP = (0 + 1/2 + 2/3 + 0)/2 = 7/12 ≈ 0.583333"),
        # tie at 0.7: docid "b" (irrelevant) before "a" (relevant), the first hit is at rank 2
        ("rr 1 0 --scores 0.7 0.7 --docids a b --convention trec_eval", "b, a", "RR = 1/2 = 0.5"),
        # scores 0.1, 0.9, 0.5 rank items 2, 3, 1: the top 2 are both relevant
        ("p 0 1 1 --scores 0.1 0.9 0.5 --k 2", "#2, #3, #1", "P@2 = 1"),
        # pessimistic: the tied 0 goes first; ranks 2, 3 hold the hits of 2 relevant: R@2 = 1/2
        ("recall 1 0 1 --scores 0.5 0.5 0.1 --k 2 --ties pessimistic", "#2, #1, #3", "R@2 = 1/2 = 0.5"),
        # gdeval fixes g_max at 4: the grade-3 item ranked first stops the user with (2^3 - 1)/2^4 = 7/16
        ("err 0 3 --scores 0.2 0.8 --docids a b --convention gdeval", "b, a", "ERR = 7/16 + 0 = 7/16 = 0.4375"),
        # explicit --gain wins over trec_eval's linear gain: 2^3 - 1 = 7 at rank 1, 2^1 - 1 = 1 over log2(3)
        ("dcg 1 3 --scores 0.2 0.8 --convention trec_eval --docids x y --gain exp2", "y, x",
         "DCG = 7 + 1/log2(3) = 1/log2(3) + 7"),
    ])
    def test_metrics_ranked_by_scores(self, capsys, argv, order, last_line):
        code, out, err = run(capsys, "explain", *argv.split())
        assert (code, err) == (0, "")
        assert out.splitlines()[0].endswith(f": {order}")
        assert out.splitlines()[-1].startswith(last_line)

    def test_convention_without_scores_sets_gain_and_discount(self, capsys):
        # doc001: linear gain, Järvelin discount: 3 + 2 + 0 + 1/log2(4)
        code, out, _ = run(capsys, *"explain dcg 3 2 0 1 --convention doc001".split())
        assert code == 0
        assert "order by score" not in out
        assert out.splitlines()[-1] == "DCG = 3 + 2 + 0 + 1/2 = 11/2 = 5.5"

    def test_choices_are_the_registries(self, capsys):
        from ltr_teach.metrics.ordering import TIE_RULES

        _, _, err = run(capsys, *"explain ndcg 1 0 --convention nope".split())
        assert all(repr(name) in err for name in lt.CONVENTIONS)
        _, _, err = run(capsys, *"explain ndcg 1 0 --scores 1 0 --ties nope".split())
        assert all(repr(name) in err for name in TIE_RULES)


class TestConventions:
    def test_lists_every_preset_and_tie_rule(self, capsys):
        from ltr_teach.metrics.ordering import TIE_RULES

        code, out, err = run(capsys, "conventions")
        assert (code, err) == (0, "")
        lines = out.splitlines()
        for name, convention in lt.CONVENTIONS.items():
            at = next(i for i, line in enumerate(lines) if line.split()[:1] == [name])
            assert lines[at].endswith(convention.description)
            assert lines[at + 1].strip() == f"verified against {convention.version}"
        for name, rule in TIE_RULES.items():
            assert f"  {name}" in out and rule in out

    def test_the_trec_eval_line(self, capsys):
        _, out, _ = run(capsys, "conventions")
        # the name column is as wide as the longest preset name
        assert re.search(r"\n  trec_eval +linear gain, ideal from every judged document, ties by docno descending\n", out)
        assert "verified against pytrec-eval-terrier 0.5.11 (trec_eval 9.0.8 C code)" in out


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
        (["explain", "ndcg", "3", "2", "--gain", "exp"], "gain must be one of 'exp2', 'linear', 'binary'; got 'exp'"),
        (["explain", "ndcg", "3", "2", "--discount", "log10"], "discount must be one of 'log2', 'ln', 'jarvelin'"),
        (["explain", "ndcg", "0", "0", "--zero", "raise"], "IDCG is 0"),
        (["explain", "ndcg", "3", "2", "--ideal", "3"], "ideal must hold every judged grade"),
        (["explain", "ndcg", "3", "2", "--bogus", "1"], "unrecognized arguments: --bogus 1"),
        (["explain", "mrr", "1", "0", "--scores", "1", "2"], "--scores does not apply to mrr (only to dcg, ndcg"),
        (["explain", "idcg", "1", "0", "--scores", "1", "2"], "--scores does not apply to idcg"),
        (["explain", "map", "1", "0", "--convention", "trec_eval"], "--convention does not apply to mean_average"),
        (["explain", "auc", "1", "0", "--scores", "1", "2", "--ties", "stable"], "--ties does not apply to auc"),
        (["explain", "ndcg", "1", "0", "--ties", "stable"], "--ties needs --scores"),
        (["explain", "ndcg", "1", "0", "--docids", "a", "b"], "--docids needs --scores"),
        (["explain", "ndcg", "1", "0", "--scores", "1", "2", "--ties", "random"],
         "argument --ties: invalid choice: 'random' (choose from 'stable', 'docid_desc'"),
        (["explain", "ndcg", "1", "0", "--convention", "trec"], "argument --convention: invalid choice: 'trec'"),
        (["explain", "ndcg", "1", "0", "--scores", "1"], "scores must give one score per item; got 1 scores for 2"),
        (["explain", "ndcg", "1", "0", "--scores", "1", "x"], "score = 'x' is not a number"),
        (["explain", "ndcg", "1", "0", "--scores", "1", "1", "--docids", "a"], "got 1 docids for 2 items"),
        (["explain", "ndcg", "1", "0", "--scores", "1", "1", "--docids", "a", "a"], "docids[1] = 'a' repeats"),
        (["explain", "ndcg", "1", "0", "--scores", "1", "1", "--ties", "docid_desc"], "docids must be given"),
        (["explain", "err", "1", "0", "--g-max", "1", "--scores", "1", "1", "--ties", "average"],
         "err is not such a sum"),
        (["explain", "mrr", "1", "0", "--gain", "linear"], "--gain does not apply to mrr"),
        (["explain", "mrr", "1", "0", ",", ",", "1"], "an empty query"),
        (["explain", "err", "3", "2"], "err needs --g-max"),
        (["explain", "err", "3", "2", "--convention", "trec_eval"],
         "err needs --g-max (or a --convention that sets it)"),
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
        env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}
        proc = subprocess.run([sys.executable, "-m", "ltr_teach.cli", "explain", "ndcg", "3", "nan"],
                              capture_output=True, text=True, encoding="utf-8", env=env, cwd=ROOT, timeout=120, check=False)
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
        with pytest.raises(ValueError, match=r"^metric must be one of cg, dcg, .*auc, gauc, log_loss \(or rr, .*\); got 'ndgc'$"):
            lookup("ndgc")
