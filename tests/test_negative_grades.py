"""TREC's negative grades (-1 judged non-relevant, -2 spam) in the exact metrics, read as trec_eval reads them.

trec_eval (form_res_rels.c) and pytrec_eval take a negative judgment as "in the pool but unjudged": not
relevant in a ranking, not in the ideal list, not judged for bpref. Under the conventions whose
``negative_grades`` is ``"unjudged"`` the exact metrics do the same and say so in a note; under the others
a negative grade stays a ValueError naming the argument. Three checks: pytrec_eval per query on random
queries holding -1 and -2, ``lt.evaluate`` equal to the exact metric per query, and small hand-worked cases.
"""

import math
import random

import pytest
import pytrec_eval

import ltr_teach as lt
from ltr_teach.metrics.conventions import CONVENTIONS

from parity_data import random_collection

NEGATIVE_READERS = sorted(name for name, c in CONVENTIONS.items() if c.negative_grades == "unjudged")
REFUSERS = sorted(name for name, c in CONVENTIONS.items() if c.negative_grades != "unjudged")


def with_negative_grades(seed: int, n_queries: int, all_negative: bool = False):
    """The parity collection with about a third of the judgments turned into -1 or -2, and one
    retrieved document of every query judged -1 or -2, so that negatives are retrieved and unretrieved.

    Every query keeps a judgment >= 0 unless ``all_negative``: pytrec-eval-terrier 0.5.11 crashes
    (segmentation fault) on a topic whose judgments are all negative once it has evaluated another topic
    in the same process, so the pytrec_eval parity keeps them out and ``lt.evaluate`` covers them.
    """
    rng = random.Random(seed)
    qrels, run = random_collection(seed=seed, n_queries=n_queries)
    for qid, judged in qrels.items():
        kept = dict(judged)
        for docid in judged:
            if rng.random() < 0.3:
                judged[docid] = rng.choice([-1, -2])
        judged[rng.choice(list(run[qid]))] = rng.choice([-1, -2])
        if not all_negative and all(g < 0 for g in judged.values()):
            judged[f"kept{qid}"] = max(kept.values())
    return qrels, run


def trec_order(run_q: dict) -> list:
    """trec_eval's ranked order: score descending, ties by docid descending."""
    return sorted(run_q, key=lambda d: (run_q[d], d), reverse=True)


def one_query(qrels, run, qid):
    """Retrieved docids and scores (input order), their grades (0 if unjudged), the judged pool, and the
    judgments in trec_eval's order (None if unjudged)."""
    docids = list(run[qid])
    scores = [run[qid][d] for d in docids]
    grades = [qrels[qid].get(d, 0) for d in docids]
    judgments = [qrels[qid].get(d) for d in trec_order(run[qid])]
    return docids, scores, grades, list(qrels[qid].values()), judgments


TREC_MEASURES = {"ndcg", "ndcg_cut_3", "map", "recip_rank", "P_5", "recall_10", "Rprec", "success_5", "bpref",
                 "iprec_at_recall_0.10", "11pt_avg"}


@pytest.fixture(scope="module")
def collection():
    qrels, run = with_negative_grades(seed=11, n_queries=200)
    reference = pytrec_eval.RelevanceEvaluator(qrels, TREC_MEASURES).evaluate(run)
    return qrels, run, reference


def test_collection_holds_negative_grades_retrieved_and_not(collection):
    qrels, run, reference = collection
    retrieved = sum(any(qrels[q].get(d, 0) < 0 for d in run[q]) for q in run)
    in_pool_only = sum(any(g < 0 and d not in run[q] for d, g in qrels[q].items()) for q in qrels)
    both_kinds = {g for judged in qrels.values() for g in judged.values() if g < 0}
    assert retrieved == len(run) and in_pool_only >= 50 and both_kinds == {-1, -2}
    assert set(reference) == set(run)


def exact_trec_values(qrels, run, qid, convention="trec_eval") -> dict:
    """One query's trec_eval measures from the exact functions, negative grades passed as they are."""
    docids, scores, grades, pool, judgments = one_query(qrels, run, qid)
    kw = {"scores": scores, "docids": docids, "convention": convention}
    n_rel = sum(g >= 1 for g in pool)
    n_non = sum(g == 0 for g in pool)
    # 0/1 in trec order, negative grades kept: the interpolated measures take 0/1 relevance
    rels = [g if g is not None and g < 0 else int(g is not None and g >= 1) for g in judgments]
    out = {
        "ndcg": lt.ndcg(grades, ideal=pool, **kw),
        "ndcg_cut_3": lt.ndcg(grades, k=3, ideal=pool, **kw),
        "map": lt.average_precision(grades, n_relevant=n_rel, threshold=1, **kw),
        "recip_rank": lt.reciprocal_rank(grades, **kw),
        "P_5": lt.precision_at_k(grades, 5, **kw),
        "recall_10": lt.recall_at_k(grades, 10, n_relevant=n_rel, **kw),
        "Rprec": lt.r_precision(grades, n_relevant=n_rel, **kw),
        "success_5": lt.success_at_k(grades, 5, **kw),
        "bpref": lt.bpref(judgments, n_relevant=n_rel, n_nonrelevant=n_non, convention=convention),
    }
    if n_rel:  # trec_eval's interpolated precision of a query without a relevant document is 0
        out["iprec_at_recall_0.10"] = lt.interpolated_precision(rels, n_relevant=n_rel, recall=0.1,
                                                                convention=convention)
        out["11pt_avg"] = lt.eleven_point_ap(rels, n_relevant=n_rel, convention=convention)
    return out


def test_exact_metrics_with_negative_grades_match_pytrec_eval_per_query(collection):
    qrels, run, reference = collection
    for qid in reference:
        ours = exact_trec_values(qrels, run, qid)
        for measure, expected in reference[qid].items():
            got = ours[measure].value if measure in ours else 0.0
            assert got == pytest.approx(expected, abs=1e-12), (qid, measure)


def test_every_explanation_says_how_it_read_the_negative_grade(collection):
    qrels, run, _ = collection
    for qid in list(run)[:20]:
        for measure, ex in exact_trec_values(qrels, run, qid).items():
            assert any("read as trec_eval reads it" in note for note in ex.notes), (qid, measure, ex.notes)


# -- lt.evaluate equals the exact metric per query -------------------------------------------------------

BULK = ["ndcg", "ndcg@3", "map", "mrr", "p@5", "recall@5", "rprec", "success@5", "bpref", "judged@5", "rbp",
        "err@5", "iprec@0.1", "11pt"]


def exact_bulk_values(qrels, run, qid, convention: str) -> dict:
    conv = CONVENTIONS[convention]
    docids, scores, grades, pool, judgments = one_query(qrels, run, qid)
    kw = {"scores": scores, "docids": docids, "convention": convention}
    n_rel = sum(g >= conv.threshold for g in pool)
    n_non = sum(0 <= g < conv.threshold for g in pool)
    rels = [g if g is not None and g < 0 else int(g is not None and g >= conv.threshold) for g in judgments]
    out = {
        "ndcg": lt.ndcg(grades, ideal=pool, **kw), "ndcg@3": lt.ndcg(grades, k=3, ideal=pool, **kw),
        "mrr": lt.reciprocal_rank(grades, **kw), "p@5": lt.precision_at_k(grades, 5, **kw),
        "success@5": lt.success_at_k(grades, 5, **kw),
        "bpref": lt.bpref(judgments, n_relevant=n_rel, n_nonrelevant=n_non, convention=convention),
        "judged@5": lt.judged_at_k(judgments, k=5, convention=convention),
        "rbp": lt.rbp(judgments, convention=convention),
        "err@5": lt.err(grades, g_max=4, k=5, **kw),
    }
    if n_rel:
        out.update({
            "map": lt.average_precision(grades, n_relevant=n_rel, **kw),
            "recall@5": lt.recall_at_k(grades, 5, n_relevant=n_rel, **kw),
            "rprec": lt.r_precision(grades, n_relevant=n_rel, **kw),
            "iprec@0.1": lt.interpolated_precision(rels, n_relevant=n_rel, recall=0.1, convention=convention),
            "11pt": lt.eleven_point_ap(rels, n_relevant=n_rel, convention=convention),
        })
    return {name: ex.value for name, ex in out.items()}


@pytest.mark.parametrize("convention", NEGATIVE_READERS)
def test_evaluate_equals_the_exact_metrics_with_negative_grades(convention):
    qrels, run = with_negative_grades(seed=29, n_queries=60, all_negative=True)
    result = lt.evaluate(qrels, run, BULK, convention=convention, g_max=4)
    compared = 0
    for qid in run:
        if qid not in result.per_query:  # gdeval.pl leaves out the topics without a judgment > 0
            assert CONVENTIONS[convention].skip_unjudged_topics
            assert not any(g > 0 for g in qrels[qid].values()), qid
            continue
        expected = exact_bulk_values(qrels, run, qid, convention)
        for metric in BULK:
            got = result.per_query[qid][metric]
            # a query without a relevant document: trec_eval's map, recall, R-precision and iprec are 0
            want = expected.get(metric, 0.0)
            assert got == pytest.approx(want, abs=1e-12), (convention, qid, metric)
            compared += 1
    assert compared >= 40 * len(BULK)


# -- small cases worked by hand ---------------------------------------------------------------------------

def test_ndcg_reads_a_negative_grade_in_the_ranking_as_not_relevant():
    # grades 2, -1, 1 under trec_eval (linear gain, log2): the -1 adds nothing.
    # DCG = 2/1 + 0/log2(3) + 1/2 = 5/2; ideal 2, 1 (the -1 is no judged grade): IDCG = 2 + 1/log2(3)
    ex = lt.ndcg([2, -1, 1], convention="trec_eval")
    assert ex.value == pytest.approx(2.5 / (2 + 1 / math.log2(3)), abs=1e-15)
    assert ex.steps[1]["gain"] == 0
    assert ex.notes[0].startswith("grades[1] = -1: a negative grade")
    pytrec = pytrec_eval.RelevanceEvaluator({"q": {"a": 2, "b": -1, "c": 1}}, {"ndcg"}).evaluate(
        {"q": {"a": 3.0, "b": 2.0, "c": 1.0}})["q"]["ndcg"]
    assert ex.value == pytest.approx(pytrec, abs=1e-15)


def test_a_negative_grade_in_the_ideal_pool_is_not_counted():
    # ranking 3, 1; pool 3, -1, -2, 1: the ideal list is 3, 1 only, so the ranking is ideal: NDCG = 1
    ex = lt.ndcg([3, 1], ideal=[3, -1, -2, 1], convention="trec_eval")
    assert ex.exact == 1
    assert [int(r["ideal_grade"]) for r in ex.steps] == [3, 1]
    assert ex.parts["idcg"].params["ideal"] == (3, 1)
    assert any(note.startswith("ideal[1] = -1, ideal[2] = -2: a negative grade") and "left out of the ideal" in note
               for note in ex.notes)


def test_average_precision_and_reciprocal_rank_skip_a_negative_grade():
    # rels by threshold 1: 0 (-1), 1, 0 (-2), 1 with 3 relevant in all: AP = (1/2 + 2/4) / 3 = 1/3; RR = 1/2
    ap = lt.average_precision([-1, 2, -2, 1], n_relevant=3, threshold=1, convention="trec_eval")
    assert str(ap.exact) == "1/3"
    assert str(lt.reciprocal_rank([-1, 2], convention="trec_eval").exact) == "1/2"
    assert str(lt.precision_at_k([-1, 2, -2], 3, convention="ir_measures").exact) == "1/3"


def test_bpref_and_judged_skip_a_negative_grade_as_unjudged():
    # ranked 1, -1, 0, 1 with R = 2, N = 1 (the -1 is not judged): the first relevant adds 1, the second has
    # the 0 above it: 1 - min(1, 2)/min(1, 2) = 0; bpref = 1/2.
    assert str(lt.bpref([1, -1, 0, 1], convention="trec_eval").exact) == "1/2"
    # ranked 1, -1, 1 with R = 2, N = 1: had the -1 counted as judged non-relevant, the second relevant would
    # add 1 - 1/1 = 0 (bpref 1/2); skipped as unjudged, both add 1: bpref = 1, as pytrec_eval says
    assert lt.bpref([1, -1, 1], n_relevant=2, n_nonrelevant=1, convention="trec_eval").exact == 1
    theirs = pytrec_eval.RelevanceEvaluator({"q": {"a": 1, "b": -1, "c": 1, "z": 0}}, {"bpref"}).evaluate(
        {"q": {"a": 3.0, "b": 2.0, "c": 1.0}})["q"]["bpref"]
    assert theirs == 1.0
    judged = lt.judged_at_k([2, -1, None, 0], k=4, convention="trec_eval")
    assert str(judged.exact) == "1/2"  # 2 and 0 are judged; -1 and None are not
    assert [r["judged"] for r in judged.steps] == ["yes", "no", "no", "yes"]


def test_err_and_rbp_read_a_negative_grade_as_trec_eval_does():
    # gdeval: g_max 4; grades 2, -1, 1: R = 3/16, 0, 1/16. ERR = 3/16 + (1/3)(13/16)(1/16) = 157/768
    assert str(lt.err([2, -1, 1], convention="gdeval").exact) == "157/768"
    # RBP p = 1/2 under trec_eval: 1, unjudged, 1: (1/2)(1 + 1/4) = 5/8; residual (1/2)(1/2) + 1/8 = 3/8
    ex = lt.rbp([1, -1, 2], p=0.5, convention="trec_eval")
    assert str(ex.exact) == "5/8" and str(ex.parts["residual"].exact) == "3/8"
    assert ex.steps[1]["rel"] == "unjudged"


@pytest.mark.parametrize("convention", [None] + REFUSERS)
@pytest.mark.parametrize("call, message", [
    (lambda c: lt.ndcg([2, -1, 1], convention=c), r"grades\[1\] = -1 is negative"),
    (lambda c: lt.dcg([2, -1, 1], convention=c), r"grades\[1\] = -1 is negative"),
    (lambda c: lt.ndcg([2, 1], ideal=[3, -1, 1], convention=c), r"ideal\[1\] = -1 is negative"),
    (lambda c: lt.average_precision([1, -2], threshold=1, convention=c), r"rels\[1\] = -2 is negative"),
    (lambda c: lt.precision_at_k([1, -1], 2, threshold=1, convention=c), r"rels\[1\] = -1 is negative"),
    (lambda c: lt.reciprocal_rank([-1, 1], threshold=1, convention=c), r"rels\[0\] = -1 is negative"),
    (lambda c: lt.bpref([1, -1], threshold=1, convention=c), r"judgments\[1\] = -1 is negative"),
    (lambda c: lt.judged_at_k([1, -1], convention=c), r"judgments\[1\] = -1 is negative"),
    (lambda c: lt.err([2, -1], g_max=3, convention=c), r"grades\[1\] = -1 is negative"),
    (lambda c: lt.rbp([1, -1], convention=c), r"grades\[1\] = -1 is negative"),
])
def test_without_a_trec_convention_a_negative_grade_is_refused(convention, call, message):
    with pytest.raises(ValueError, match=message):
        call(convention)
