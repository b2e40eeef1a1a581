"""The "lightgbm" and "xgboost" conventions against the libraries' own ranking metrics.

Nothing is trained: the model's scores go in as the initial score (LightGBM ``init_score``,
XGBoost ``base_margin``) and the booster evaluates its metric on them, the cheapest faithful way to
run the libraries' metric code. Both take the ideal order from the group's own labels, keep tied
scores in input order (a stable sort), use gain 2^g - 1, and give 1 to a group without relevant
items (XGBoost's ``ndcg@k-`` gives 0 instead).
"""

import warnings

import lightgbm
import numpy as np
import pytest
import xgboost

import ltr_teach as lt

from parity_data import random_collection, split

KS = [1, 3, 5, 10, 20]


@pytest.fixture(scope="module")
def groups():
    # scores in quarters: exact in float32 (XGBoost stores margins as float32), and full of ties
    qrels, run = random_collection(seed=11, n_queries=300)
    return [split(qrels, run, q) for q in run]


def lightgbm_metrics(groups, metric, ks):
    labels = np.concatenate([g for _, _, g, _ in groups])
    scores = np.concatenate([s for _, s, _, _ in groups])
    data = lightgbm.Dataset(np.zeros((len(labels), 1)), label=labels, group=[len(g) for _, _, g, _ in groups],
                            init_score=scores, params={"verbose": -1})
    booster = lightgbm.Booster(params={"objective": "lambdarank", "metric": metric, "eval_at": ks, "verbose": -1},
                               train_set=data)
    return {name: value for _, name, value, _ in booster.eval_train()}


def xgboost_metrics(groups, metrics):
    labels = np.concatenate([g for _, _, g, _ in groups])
    scores = np.concatenate([s for _, s, _, _ in groups])
    data = xgboost.DMatrix(np.zeros((len(labels), 1)), label=labels, base_margin=scores)
    data.set_group([len(g) for _, _, g, _ in groups])
    booster = xgboost.train({"objective": "rank:ndcg", "eval_metric": metrics, "base_score": 0.0}, data,
                            num_boost_round=0)
    text = booster.eval(data)  # "[0]\teval-ndcg@3:0.62989896938773859\t..."
    return {item.split(":")[0][len("eval-"):]: float(item.split(":")[1]) for item in text.split("\t")[1:]}


def as_dicts(groups):
    qrels = {str(i): dict(zip(d, g)) for i, (d, s, g, _) in enumerate(groups)}
    run = {str(i): dict(zip(d, s)) for i, (d, s, g, _) in enumerate(groups)}
    return qrels, run


def test_lightgbm_ndcg_mean_over_groups(groups):
    theirs = lightgbm_metrics(groups, "ndcg", KS)
    qrels, run = as_dicts(groups)
    ours = lt.evaluate(qrels, run, [f"ndcg@{k}" for k in KS], convention="lightgbm")
    for k in KS:
        assert ours.mean[f"ndcg@{k}"] == pytest.approx(theirs[f"ndcg@{k}"], abs=1e-9)


def test_lightgbm_map_mean_over_groups(groups):
    # LightGBM's map@k divides by min(relevant in the group, k) and gives 1 to a group without positives
    binary = [(d, s, [int(x > 0) for x in g], p) for d, s, g, p in groups]
    theirs = lightgbm_metrics(binary, "map", KS)
    qrels, run = as_dicts(binary)
    ours = lt.evaluate(qrels, run, [f"map@{k}" for k in KS], convention="lightgbm")
    for k in KS:
        assert ours.mean[f"map@{k}"] == pytest.approx(theirs[f"map@{k}"], abs=1e-9)


def test_lightgbm_group_by_group_with_the_exact_functions(groups):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for docids, scores, grades, _ in groups[:40]:
            theirs = lightgbm_metrics([(docids, scores, grades, None)], "ndcg", [3, 10])
            for k in (3, 10):
                ours = lt.ndcg(grades, k=k, scores=scores, convention="lightgbm")
                assert ours.value == pytest.approx(theirs[f"ndcg@{k}"], abs=1e-9), (grades, scores, k)


def test_xgboost_ndcg_mean_over_groups(groups):
    theirs = xgboost_metrics(groups, [f"ndcg@{k}" for k in KS] + ["ndcg@10-"])
    qrels, run = as_dicts(groups)
    ours = lt.evaluate(qrels, run, [f"ndcg@{k}" for k in KS], convention="xgboost")
    for k in KS:
        # XGBoost prints 17 significant digits; its float32 margins are exact for quarter scores
        assert ours.mean[f"ndcg@{k}"] == pytest.approx(theirs[f"ndcg@{k}"], abs=1e-9)
    # the "-" suffix scores a group without positives 0 instead of 1: zero="zero"
    minus = lt.evaluate(qrels, run, ["ndcg@10"], convention="xgboost").per_query
    empty = [q for q in qrels if not any(qrels[q].values())]
    assert empty and all(minus[q]["ndcg@10"] == 1.0 for q in empty)
    expected_minus = (sum(v["ndcg@10"] for v in minus.values()) - len(empty)) / len(minus)
    assert theirs["ndcg@10-"] == pytest.approx(expected_minus, abs=1e-9)


def test_xgboost_map_mean_over_groups(groups):
    # XGBoost's map needs 0/1 labels; like LightGBM it divides by min(relevant, k), and an empty group gets 1
    binary = [(d, s, [int(x > 0) for x in g], p) for d, s, g, p in groups]
    theirs = xgboost_metrics(binary, ["map", "map@3", "map@10"])
    qrels, run = as_dicts(binary)
    ours = lt.evaluate(qrels, run, ["map", "map@3", "map@10"], convention="xgboost")
    for name in ("map", "map@3", "map@10"):
        assert ours.mean[name] == pytest.approx(theirs[name], abs=1e-9)


def test_xgboost_group_by_group_with_the_exact_functions(groups):
    for docids, scores, grades, _ in groups[:40]:
        theirs = xgboost_metrics([(docids, scores, grades, None)], ["ndcg@3", "ndcg@10"])
        for k in (3, 10):
            assert lt.ndcg(grades, k=k, scores=scores, convention="xgboost").value == pytest.approx(
                theirs[f"ndcg@{k}"], abs=1e-9)


def test_conventions_md_example_with_lightgbm_and_xgboost():
    example = [(["d3", "d1", "d2", "d4", "d9"], [1.0, 0.8, 0.8, 0.5, 0.4], [0, 3, 2, 1, 0], None)]
    lgb = lightgbm_metrics(example, "ndcg", [3, 10])
    assert (round(lgb["ndcg@10"], 4), round(lgb["ndcg@3"], 4)) == (0.6758, 0.6299)
    xgb = xgboost_metrics(example, ["ndcg@10"])  # float32 keeps 0.8 == 0.8 and the order of the rest
    grades, scores = example[0][2], example[0][1]
    for k in (3, 10):
        assert lt.ndcg(grades, k=k, scores=scores, convention="lightgbm").value == pytest.approx(lgb[f"ndcg@{k}"],
                                                                                                 abs=1e-12)
    assert xgb["ndcg@10"] == pytest.approx(lgb["ndcg@10"], abs=1e-12)
