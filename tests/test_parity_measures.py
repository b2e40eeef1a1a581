"""The measures of issue 15 against the tools that define them, on hundreds of random queries.

pytrec_eval (trec_eval 9.0.8's C code): Rprec, bpref, success_k, iprec_at_recall, 11pt_avg.
ir_measures: nDCG with per-grade gains (its pytrec_eval provider maps the qrels' grades, a grade not
listed keeping its own value, as trec_eval's ``-m ndcg.1=3,2=9`` does), Judged@k (its judged provider).
ranx: rbp.p (ranx weighs a relevant document by its grade) and dcg.
ir_measures: RBP(p, rel) through its cwl_eval provider (package cwl-eval, the C/W/L framework's
reference code): a document at or above grade ``rel`` adds 1, as lt's binary RBP with relevance level ``rel``.
pytrec_eval 0.5 cannot run trec_eval's own ``ndcg.1=3`` parameters (it aborts), so the gains are
checked through ir_measures. Both paths are checked: ``lt.evaluate`` on every query, and the exact
step-by-step functions on a subset.
"""

import dataclasses
import math

import ir_measures
import pytest
import pytrec_eval
import ranx
import sympy
from ir_measures import RBP, Judged, nDCG

import ltr_teach as lt
from ltr_teach.metrics.conventions import CONVENTIONS

from parity_data import random_collection, split

TREC = {"rprec": "Rprec", "bpref": "bpref", "success@1": "success_1", "success@5": "success_5",
        "success@10": "success_10", "11pt": "11pt_avg"}
TREC.update({f"iprec@{j / 10:.1f}": f"iprec_at_recall_{j / 10:.2f}" for j in range(11)})


@pytest.fixture(scope="module")
def collection():
    qrels, run = random_collection(seed=41, n_queries=400)
    reference = pytrec_eval.RelevanceEvaluator(
        qrels, {"Rprec", "bpref", "success", "iprec_at_recall", "11pt_avg"}).evaluate(run)
    return qrels, run, reference


def test_evaluate_matches_trec_eval(collection):
    qrels, run, reference = collection
    ours = lt.evaluate(qrels, run, list(TREC), convention="trec_eval").per_query
    assert set(ours) == set(reference)
    for qid, values in reference.items():
        for name, trec_name in TREC.items():
            assert ours[qid][name] == pytest.approx(values[trec_name], abs=1e-12), (qid, name)


def test_recall_rules_differ_on_these_queries(collection):
    # The textbook ceiling and trec_eval 10's rounding pick other ranks than trec_eval 9 on some
    # queries, so the parity above could not pass with either of them.
    qrels, run, reference = collection
    for rule in ("textbook", "trec_eval_10"):
        conv = dataclasses.replace(CONVENTIONS["trec_eval"], recall_rule=rule)
        ours = lt.evaluate(qrels, run, ["11pt"], convention=conv).per_query
        assert any(abs(ours[q]["11pt"] - reference[q]["11pt_avg"]) > 1e-6 for q in reference), rule


def test_exact_functions_match_trec_eval(collection):
    qrels, run, reference = collection
    checked = 0
    for qid in list(reference)[:200]:
        docids, scores, grades, pool = split(qrels, run, qid)
        kw = {"scores": scores, "docids": docids, "convention": "trec_eval"}
        n_rel = sum(g >= 1 for g in pool)
        n_non = sum(g < 1 for g in pool)
        assert lt.r_precision(grades, n_relevant=n_rel, **kw).value == pytest.approx(reference[qid]["Rprec"],
                                                                                     abs=1e-12)
        assert lt.success_at_k(grades, 5, **kw).value == reference[qid]["success_5"]
        ranked = lt.r_precision(grades, n_relevant=n_rel, **kw).params["order"]
        judged = [qrels[qid].get(d) for d in ranked]  # None for an unjudged document
        assert lt.bpref(judged, n_relevant=n_rel, n_nonrelevant=n_non, threshold=1).value == pytest.approx(
            reference[qid]["bpref"], abs=1e-12)
        if n_rel:
            rels = [int(g is not None and g >= 1) for g in judged]
            ex = lt.eleven_point_ap(rels, n_relevant=n_rel, convention="trec_eval")
            assert ex.value == pytest.approx(reference[qid]["11pt_avg"], abs=1e-12)
            at_03 = lt.interpolated_precision(rels, n_relevant=n_rel, recall=sympy.Rational(3, 10), rule="trec_eval_9")
            assert at_03.value == pytest.approx(reference[qid]["iprec_at_recall_0.30"], abs=1e-12)
            checked += 1
    assert checked > 100


GAINS = ({0: 0, 1: 3, 2: 9}, {1: 10, 2: 1}, {3: 1, 4: 20})


@pytest.mark.parametrize("gains", GAINS)
def test_ndcg_with_gains_matches_ir_measures(gains):
    qrels, run = random_collection(seed=43, n_queries=300)
    measures = [nDCG(gains=gains), nDCG(gains=gains) @ 5, nDCG(gains=gains) @ 10]
    theirs = {}
    for m in ir_measures.iter_calc(measures, qrels, run):
        theirs.setdefault(m.query_id, {})[str(m.measure)] = m.value
    table = ",".join(f"{g}={v}" for g, v in gains.items())
    names = [f"ndcg.{table}", f"ndcg.{table}@5", f"ndcg.{table}@10"]
    ours = lt.evaluate(qrels, run, names, convention="ir_measures").per_query
    for qid in qrels:
        for ours_name, measure in zip(names, measures):
            assert ours[qid][ours_name] == pytest.approx(theirs[qid][str(measure)], abs=1e-12), (qid, ours_name)
    for qid in list(qrels)[:80]:  # the exact function with the same table
        docids, scores, grades, pool = split(qrels, run, qid)
        ex = lt.ndcg(grades, k=5, gain=gains, ideal=pool, scores=scores, docids=docids, convention="trec_eval")
        assert ex.value == pytest.approx(theirs[qid][str(measures[1])], abs=1e-12)


def test_judged_matches_ir_measures():
    # Quirk: ir_measures' judged provider orders tied scores by docid ascending (trec_eval: descending),
    # so lt.evaluate's presets agree with it on untied scores; the exact function below takes its order.
    qrels, run = random_collection(seed=47, n_queries=300, tie_prone=False)
    measures = [Judged @ 1, Judged @ 5, Judged @ 10, Judged @ 30]
    theirs = {}
    for m in ir_measures.iter_calc(measures, qrels, run):
        theirs.setdefault(m.query_id, {})[str(m.measure)] = m.value
    names = ["judged@1", "judged@5", "judged@10", "judged@30"]
    ours = lt.evaluate(qrels, run, names, convention="ir_measures").per_query
    for qid in run:
        for name, measure in zip(names, measures):
            assert ours[qid][name] == pytest.approx(theirs[qid][str(measure)], abs=1e-12), (qid, name)
        docids = split(qrels, run, qid)[0]
        # ir_measures orders ties by docid ascending, then reads the judgments in that order
        ranked = sorted(docids, key=lambda d: (-run[qid][d], d))
        assert lt.judged_at_k([qrels[qid].get(d) for d in ranked], k=5).value == pytest.approx(
            theirs[qid]["Judged@5"], abs=1e-12)


def ranx_per_query(qrels, run, metrics):
    values = ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), metrics, return_mean=False)
    order = sorted(qrels)
    return {m: dict(zip(order, values[m])) for m in metrics}


def test_rbp_and_dcg_match_ranx():
    qrels, run = random_collection(seed=53, n_queries=300, tie_prone=False)  # ranx's tie order is unstable
    theirs = ranx_per_query(qrels, run, ["rbp.8", "rbp.95", "rbp.5", "dcg", "dcg@5", "dcg_burges@10"])
    ours = lt.evaluate(qrels, run, ["rbp", "rbp.0.95", "rbp.0.5", "dcg", "dcg@5"], convention="ranx").per_query
    burges = lt.evaluate(qrels, run, ["dcg@10"], convention="ranx_burges").per_query
    for qid in qrels:
        for ours_name, ranx_name in (("rbp", "rbp.8"), ("rbp.0.95", "rbp.95"), ("rbp.0.5", "rbp.5"),
                                     ("dcg", "dcg"), ("dcg@5", "dcg@5")):
            assert ours[qid][ours_name] == pytest.approx(theirs[ranx_name][qid], abs=1e-12), (qid, ours_name)
        assert burges[qid]["dcg@10"] == pytest.approx(theirs["dcg_burges@10"][qid], abs=1e-12)
    for qid in list(qrels)[:80]:
        _, scores, grades, _ = split(qrels, run, qid)
        ranked = [g for _, g in sorted(zip(scores, grades), key=lambda t: -t[0])]
        ex = lt.rbp(ranked, p=0.95, convention="ranx")
        assert ex.value == pytest.approx(theirs["rbp.95"][qid], abs=1e-12)


def cwl_per_query(qrels, run, measures):
    theirs = {}
    for m in ir_measures.iter_calc(measures, qrels, run):
        theirs.setdefault(m.query_id, {})[str(m.measure)] = m.value
    return theirs


def test_rbp_matches_ir_measures_cwl_eval():
    # Quirk: ir_measures' cwl_eval provider sorts each query by score with Python's stable sort, so tied
    # documents keep the run's order, while the ir_measures preset orders ties as trec_eval does (docid
    # descending, its pytrec_eval provider). On tie-prone scores the comparison therefore takes the preset
    # with input-order ties; on untied scores the preset itself must agree.
    measures = [RBP(p=0.8, rel=1), RBP(p=0.95, rel=1), RBP(p=0.5, rel=2)]
    names = {"rbp": "RBP(rel=1)", "rbp.0.95": "RBP(p=0.95,rel=1)"}
    in_run_order = dataclasses.replace(CONVENTIONS["ir_measures"], ties="stable")
    for tie_prone, convention in ((True, in_run_order), (False, "ir_measures")):
        qrels, run = random_collection(seed=59, n_queries=300, tie_prone=tie_prone)
        theirs = cwl_per_query(qrels, run, measures)
        assert set(theirs) == set(run)
        ours = lt.evaluate(qrels, run, list(names), convention=convention).per_query
        level_2 = lt.evaluate(qrels, run, ["rbp.0.5"], convention=convention, relevance_level=2).per_query
        for qid in run:
            for ours_name, their_name in names.items():
                assert ours[qid][ours_name] == pytest.approx(theirs[qid][their_name], abs=1e-12), (qid, ours_name)
            assert level_2[qid]["rbp.0.5"] == pytest.approx(theirs[qid]["RBP(p=0.5,rel=2)"], abs=1e-12), qid
    qrels, run = random_collection(seed=59, n_queries=300)  # the exact function, ties in the run's order
    theirs = cwl_per_query(qrels, run, measures)
    for qid in list(run)[:80]:
        docids = list(run[qid])  # sorted() is stable: tied documents keep the run's order, as in cwl_eval
        ranked = [qrels[qid].get(d) for d in sorted(docids, key=lambda d: -run[qid][d])]
        assert lt.rbp(ranked, p=sympy.Rational(19, 20)).value == pytest.approx(
            theirs[qid]["RBP(p=0.95,rel=1)"], abs=1e-12)
        assert lt.rbp(ranked, p=sympy.Rational(1, 2), threshold=2).value == pytest.approx(
            theirs[qid]["RBP(p=0.5,rel=2)"], abs=1e-12)


def test_rbp_tie_order_matters_on_these_queries():
    # The preset's trec_eval tie order gives other values than cwl_eval's on some tied queries, so the
    # parity above could not pass without taking cwl_eval's order.
    qrels, run = random_collection(seed=59, n_queries=300)
    theirs = cwl_per_query(qrels, run, [RBP(p=0.8, rel=1)])
    preset = lt.evaluate(qrels, run, ["rbp"], convention="ir_measures").per_query
    assert any(abs(preset[q]["rbp"] - theirs[q]["RBP(rel=1)"]) > 1e-6 for q in run)


ALL_TREC = {"map": "map", "mrr": "recip_rank", "p@5": "P_5", "recall@10": "recall_10", "ndcg": "ndcg",
            "ndcg@10": "ndcg_cut_10", **TREC}


def _with_negative_grades(qrels, seed):
    import random

    # The first judgment of each topic stays >= 0: trec_eval sizes its table of grade counts by the
    # topic's highest grade, and a topic whose grades are all negative crashes pytrec_eval.
    rng = random.Random(seed)
    return {q: {d: (-rng.randint(1, 2) if i and rng.random() < 0.2 else g) for i, (d, g) in enumerate(judged.items())}
            for q, judged in qrels.items()}


def _compare(ours, reference):
    assert set(ours) == set(reference)
    for qid, values in reference.items():
        for name, trec_name in ALL_TREC.items():
            if math.isnan(values[trec_name]):
                # Quirk: when -J leaves a query without any document, trec_eval's iprec_at_recall and
                # 11pt_avg divide 0 by 0 (num_rel_ret / num_ret) and print nan; lt.evaluate gives 0.
                assert (name.startswith("iprec") or name == "11pt") and ours[qid][name] == 0.0, (qid, name)
                continue
            assert ours[qid][name] == pytest.approx(values[trec_name], abs=1e-12), (qid, name)


MEASURES = {"map", "recip_rank", "P_5", "recall_10", "ndcg", "ndcg_cut_10", "Rprec", "bpref", "success",
            "iprec_at_recall", "11pt_avg"}


@pytest.mark.parametrize("level", [1, 2, 3])
def test_relevance_level_is_trec_eval_l(level):
    qrels, run = random_collection(seed=59, n_queries=300)
    reference = pytrec_eval.RelevanceEvaluator(qrels, MEASURES, relevance_level=level).evaluate(run)
    _compare(lt.evaluate(qrels, run, list(ALL_TREC), relevance_level=level).per_query, reference)


def test_judged_only_is_trec_eval_J():
    qrels, run = random_collection(seed=61, n_queries=300)
    reference = pytrec_eval.RelevanceEvaluator(qrels, MEASURES, judged_docs_only_flag=True).evaluate(run)
    _compare(lt.evaluate(qrels, run, list(ALL_TREC), judged_only=True).per_query, reference)


def test_negative_grades_are_in_the_pool_but_unjudged():
    qrels, run = random_collection(seed=67, n_queries=300)
    qrels = _with_negative_grades(qrels, seed=67)
    assert sum(g < 0 for judged in qrels.values() for g in judged.values()) > 100
    reference = pytrec_eval.RelevanceEvaluator(qrels, MEASURES).evaluate(run)
    _compare(lt.evaluate(qrels, run, list(ALL_TREC)).per_query, reference)
    judged_only = pytrec_eval.RelevanceEvaluator(qrels, MEASURES, judged_docs_only_flag=True).evaluate(run)
    _compare(lt.evaluate(qrels, run, list(ALL_TREC), judged_only=True).per_query, judged_only)


@pytest.mark.parametrize("depth", [1, 4, 9])
def test_depth_is_trec_eval_M(depth):
    # trec_eval -M keeps the first `depth` documents of its own order (score descending, docno
    # descending: form_res_rels.c); pytrec_eval has no -M, so the run is cut in that order by hand.
    qrels, run = random_collection(seed=71, n_queries=300)
    cut = {q: dict(sorted(docs.items(), key=lambda item: (item[1], item[0]), reverse=True)[:depth])
           for q, docs in run.items()}
    reference = pytrec_eval.RelevanceEvaluator(qrels, MEASURES).evaluate(cut)
    _compare(lt.evaluate(qrels, run, list(ALL_TREC), depth=depth).per_query, reference)
    # -M first, then -J: the unjudged documents of the top `depth` are dropped, not replaced
    reference_j = pytrec_eval.RelevanceEvaluator(qrels, MEASURES, judged_docs_only_flag=True).evaluate(cut)
    _compare(lt.evaluate(qrels, run, list(ALL_TREC), depth=depth, judged_only=True).per_query, reference_j)
