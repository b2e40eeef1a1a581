"""The one registry of metrics: aliases, lt.evaluate's names and the CLI all come from it."""

import inspect
import math
import sys

import pytest

import ltr_teach as lt
import ltr_teach.runs.evaluate  # the module, not the function of the same name
from ltr_teach.cli import main
from ltr_teach.metrics.registry import ALIASES, BULK, METRICS, bulk_lookup, lookup
from ltr_teach.runs.evaluate import METRIC_NAMES, parse_metric

QRELS = {"q1": {"d1": 3, "d2": 2, "d3": 0, "d4": 1, "d5": 2}}
RUN = {"q1": {"d3": 1.0, "d1": 0.8, "d2": 0.8, "d4": 0.5, "d9": 0.4}}


def test_aliases_are_derived_from_the_entries():
    assert ALIASES == {alias: info.name for info in METRICS.values() for alias in info.aliases}
    assert len(ALIASES) == sum(len(info.aliases) for info in METRICS.values())  # no alias given twice
    assert not set(ALIASES) & set(METRICS)


def test_every_bulk_name_has_an_implementation_and_nothing_else_does():
    assert set(sys.modules["ltr_teach.runs.evaluate"]._BULK_FUNCTIONS) == set(BULK) == set(METRIC_NAMES)


@pytest.mark.parametrize("typed, name, k", [
    ("ndcg@10", "ndcg", 10), ("map", "map", None), ("mrr", "mrr", None), ("p@5", "p", 5),
    ("recall@20", "recall", 20), ("err", "err", None), ("auc", "auc", None),
    # registry names and aliases of the same metrics
    ("mean_average_precision", "map", None), ("ap@3", "map", 3), ("average_precision", "map", None),
    ("precision_at_k@5", "p", 5), ("precision@5", "p", 5), ("rr@2", "mrr", 2), ("reciprocal_rank", "mrr", None),
    ("r@5", "recall", 5), ("dcg@3", "dcg", 3),
])
def test_names_users_type_today_keep_working(typed, name, k):
    assert parse_metric(typed) == (name, k)


def test_aliases_give_the_same_numbers_as_the_short_names():
    same = {"map": ["ap", "mean_average_precision"], "p@3": ["precision@3", "precision_at_k@3"],
            "mrr": ["rr", "reciprocal_rank"], "recall@10": ["r@10", "recall_at_k@10"]}
    for short, others in same.items():
        result = lt.evaluate(QRELS, RUN, [short, *others])
        assert len({result.mean[m] for m in [short, *others]}) == 1, short


def test_a_metric_lt_evaluate_does_not_compute_is_named_in_the_error():
    with pytest.raises(ValueError, match="metric 'f1' is not one of"):
        parse_metric("f1")
    with pytest.raises(ValueError, match="metric 'roc_curve' is not one lt.evaluate computes"):
        bulk_lookup("roc_curve")


def test_mean_entries_point_to_their_per_query_metric():
    for info in METRICS.values():
        if info.per_query is not None:
            assert info.takes == "queries" and METRICS[info.per_query].bulk is not None
    assert lookup("map").per_query == "average_precision"


def test_cli_eval_accepts_the_names_of_today(tmp_path, capsys):
    lt.write_qrels(QRELS, tmp_path / "qrels")
    lt.write_run(RUN, tmp_path / "run")
    argv = ["eval", str(tmp_path / "qrels"), str(tmp_path / "run")]
    for name in ("ndcg@10", "map", "mrr", "p@5", "recall@5", "err", "auc", "ap", "precision@5"):
        argv += ["-m", name]
    assert main(argv) == 0
    printed = {line.split("\t")[0].strip(): line.split("\t")[-1] for line in capsys.readouterr().out.splitlines()}
    # trec_eval on this query (conventions.md): map .4792, recip_rank .5; ap is map under another name
    assert printed["map"] == printed["ap"] == "0.4792" and printed["mrr"] == "0.5000"
    assert printed["p@5"] == printed["precision@5"] == "0.6000"   # d1, d2, d4 relevant in the top 5


def test_cli_help_lists_the_registry_names(capsys):
    with pytest.raises(SystemExit):
        main(["eval", "--help"])
    out = capsys.readouterr().out
    assert all(name in out for name in BULK)


def test_registry_functions_take_their_options():
    for info in METRICS.values():
        parameters = inspect.signature(info.func).parameters
        assert all(option in parameters for option in info.options), info.name


def test_cli_eval_takes_trec_eval_options(tmp_path, capsys):
    # d2 (grade 2) and d1 (grade 3) tie at 0.8; trec_eval ranks d3, d2, d1, d4, d9.
    lt.write_qrels(QRELS, tmp_path / "qrels")
    lt.write_run(RUN, tmp_path / "run")
    base = ["eval", str(tmp_path / "qrels"), str(tmp_path / "run"), "-m", "p@3", "-m", "rprec"]

    def values(extra):
        assert main(base + extra) == 0
        return {line.split("\t")[0].strip(): line.split("\t")[-1] for line in capsys.readouterr().out.splitlines()}

    # relevant (>= 1): d2, d1, d4 of d1, d2, d4, d5: P@3 = 2/3, R-prec = 3/4 (d2, d1, d4 in the top 4)
    assert values([]) == {"num_q": "1", "p@3": "0.6667", "rprec": "0.7500"}
    # -l 3: only d1 is relevant (R = 1): P@3 = 1/3; the top 1 is d3: R-prec 0
    assert values(["-l", "3"]) == {"num_q": "1", "p@3": "0.3333", "rprec": "0.0000"}
    # -M 2: d3, d2 only: P@3 = 1/3 (one hit, divided by 3), R-prec = 1/4
    assert values(["-M", "2"]) == {"num_q": "1", "p@3": "0.3333", "rprec": "0.2500"}
    # -J drops the unjudged d9 (rank 5): nothing in the top 4 changes
    assert values(["-J"]) == {"num_q": "1", "p@3": "0.6667", "rprec": "0.7500"}
    assert main(base + ["-M", "0"]) == 2
    assert "depth must be an integer >= 1; got 0" in capsys.readouterr().err


def test_cli_eval_new_measures(tmp_path, capsys):
    lt.write_qrels(QRELS, tmp_path / "qrels")
    lt.write_run(RUN, tmp_path / "run")
    argv = ["eval", str(tmp_path / "qrels"), str(tmp_path / "run")]
    for name in ("success@1", "bpref", "judged@5", "rbp.0.5", "ndcg.1=3,2=9", "dcg@2", "iprec@0.5", "11pt"):
        argv += ["-m", name]
    assert main(argv) == 0
    printed = {line.split("\t")[0].strip(): line.split("\t")[-1] for line in capsys.readouterr().out.splitlines()}
    # ranked d3 (0), d2 (2), d1 (3), d4 (1), d9 (unjudged); R = 4, N = 1 (d3)
    assert printed["success@1"] == "0.0000"
    assert printed["bpref"] == "0.0000"          # d3 (judged non-relevant) is above every relevant one: 1 - 1/1
    assert printed["judged@5"] == "0.8000"       # d9 is unjudged
    assert printed["rbp.0.5"] == "0.4375"        # (1/2)(1/2 + 1/4 + 1/8)
    assert printed["dcg@2"] == f"{2 / math.log2(3):.4f}"   # 0/1 + 2/log2(3)
    # gains 1->3, 2->9, 3 stays 3: DCG = 9/log2 3 + 3/2 + 3/log2 5; ideal 9, 9, 3, 3 (d2, d5, d1, d4)
    dcg = 9 / math.log2(3) + 3 / 2 + 3 / math.log2(5)
    idcg = 9 + 9 / math.log2(3) + 3 / 2 + 3 / math.log2(5)
    assert printed["ndcg.1=3,2=9"] == f"{dcg / idcg:.4f}"
    # recall 0.5 of R = 4 needs 2 relevant: reached at rank 3 (2/3); best at or below rank 3: 3/4 at rank 4
    assert printed["iprec@0.5"] == "0.7500"
