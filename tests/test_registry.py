"""The one registry of metrics: aliases, lt.evaluate's names and the CLI all come from it."""

import inspect
import sys

import pytest

import ltr_teach as lt
from ltr_teach.cli import main
from ltr_teach.metrics.registry import ALIASES, BULK, METRICS, bulk_lookup, lookup
import ltr_teach.runs.evaluate  # noqa: F401  (the module, not the function of the same name)
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
