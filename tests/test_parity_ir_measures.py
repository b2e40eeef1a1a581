"""The "ir_measures" and "ir_measures_gdeval" conventions against ir_measures (and through it, gdeval.pl).

ir_measures dispatches each measure to a provider: ``nDCG``, ``AP``, ``RR``, ``P@k``, ``R@k`` go to
pytrec_eval (trec_eval's numbers), ``nDCG(dcg='exp-log2')@k`` and ``ERR@k`` go to gdeval.pl, and
judged topics missing from the run are filled in with 0. Quirks documented below: gdeval prints
five decimals (so that preset is checked to 5e-6), gdeval's provider rejects non-numeric query
ids, and ``RR@k`` goes to another provider that breaks ties the other way.
"""

import subprocess

import ir_measures
import pytest
from ir_measures import AP, ERR, RR, P, R, nDCG

import ltr_teach as lt

from parity_data import random_collection

KS = (3, 5, 10, 20)
GDEVAL_DECIMALS = 5e-6 + 1e-12  # gdeval.pl prints %.5f: half a unit of the fifth decimal


@pytest.fixture(scope="module")
def collection():
    qrels, run = random_collection(seed=13, n_queries=300)
    for qid in ("7", "8", "9"):  # judged topics the run never answered
        del run[qid]
    return qrels, run


def per_query(measures, qrels, run):
    out = {}
    for metric in ir_measures.iter_calc(measures, qrels, run):
        out.setdefault(metric.query_id, {})[metric.measure] = metric.value
    return out


def test_pytrec_eval_measures_and_missing_topics(collection):
    qrels, run = collection
    pairs = {"ndcg": nDCG, "map": AP, "mrr": RR}
    pairs.update({f"ndcg@{k}": nDCG @ k for k in KS})
    pairs.update({f"p@{k}": P @ k for k in KS})
    pairs.update({f"recall@{k}": R @ k for k in KS})
    theirs = per_query(list(pairs.values()), qrels, run)
    ours = lt.evaluate(qrels, run, list(pairs), convention="ir_measures")
    assert set(theirs) == set(ours.per_query) == set(qrels)  # the three missing topics are in, as 0
    for qid in qrels:
        for name, measure in pairs.items():
            assert ours.per_query[qid][name] == pytest.approx(theirs[qid][measure], abs=1e-9), (qid, name)
    aggregate = ir_measures.calc_aggregate([nDCG @ 10, AP], qrels, run)
    assert ours.mean["ndcg@10"] == pytest.approx(aggregate[nDCG @ 10], abs=1e-9)
    assert ours.mean["map"] == pytest.approx(aggregate[AP], abs=1e-9)


def test_gdeval_ndcg_and_err(collection):
    qrels, run = collection
    pairs = {f"ndcg@{k}": nDCG(dcg="exp-log2") @ k for k in KS}
    pairs.update({f"err@{k}": ERR @ k for k in KS})
    theirs = per_query(list(pairs.values()), qrels, run)
    ours = lt.evaluate(qrels, run, list(pairs), convention="ir_measures_gdeval")
    assert set(theirs) == set(ours.per_query)
    for qid in theirs:
        for name, measure in pairs.items():
            assert ours.per_query[qid][name] == pytest.approx(theirs[qid][measure], abs=GDEVAL_DECIMALS), (qid, name)


def test_gdeval_exact_functions(collection):
    qrels, run = collection
    theirs = per_query([nDCG(dcg="exp-log2") @ 10, ERR @ 10], qrels, run)
    for qid in list(run)[:100]:
        docids = list(run[qid])
        scores = [run[qid][d] for d in docids]
        grades = [qrels[qid].get(d, 0) for d in docids]
        kw = {"scores": scores, "docids": docids, "convention": "gdeval", "k": 10}
        ndcg = lt.ndcg(grades, ideal=list(qrels[qid].values()), **kw)
        assert ndcg.value == pytest.approx(theirs[qid][nDCG(dcg="exp-log2") @ 10], abs=GDEVAL_DECIMALS)
        assert lt.err(grades, **kw).value == pytest.approx(theirs[qid][ERR @ 10], abs=GDEVAL_DECIMALS)


def test_gdeval_provider_rejects_non_numeric_query_ids():
    qrels = {"q1": {"d1": 1}}
    run = {"q1": {"d1": 1.0}}
    with pytest.raises(subprocess.CalledProcessError):  # gdeval.pl: "format error on line 1"
        ir_measures.calc_aggregate([ERR @ 10], qrels, run)
    assert lt.evaluate(qrels, run, "err@10", convention="gdeval").mean["err@10"] == pytest.approx(1 / 16)


def test_rr_at_k_breaks_ties_unlike_rr():
    # ir_measures#18: RR goes to pytrec_eval (docid descending), RR@k to another provider that puts
    # "a" before "b" in a tie. Here the relevant document is "a", tied with "b".
    qrels = {"1": {"a": 1, "b": 0}}
    run = {"1": {"a": 0.5, "b": 0.5}}
    values = ir_measures.calc_aggregate([RR, RR @ 10], qrels, run)
    assert values[RR] == 0.5 == lt.evaluate(qrels, run, "mrr", convention="ir_measures").mean["mrr"]
    assert values[RR @ 10] == 1.0


def test_conventions_md_gdeval_number():
    qrels = {"1": {"d1": 3, "d2": 2, "d3": 0, "d4": 1, "d5": 2}}
    run = {"1": {"d3": 1.0, "d1": 0.8, "d2": 0.8, "d4": 0.5, "d9": 0.4}}
    theirs = ir_measures.calc_aggregate([nDCG(dcg="exp-log2") @ 10], qrels, run)[nDCG(dcg="exp-log2") @ 10]
    assert round(theirs, 4) == 0.5380
    ours = lt.ndcg([0, 3, 2, 1, 0], k=10, scores=[1.0, 0.8, 0.8, 0.5, 0.4], docids=["d3", "d1", "d2", "d4", "d9"],
                   ideal=[3, 2, 0, 1, 2], convention="gdeval")
    assert ours.value == pytest.approx(theirs, abs=GDEVAL_DECIMALS)


def test_gdeval_preset_averages_as_gdeval_pl(collection, tmp_path):
    # gdeval.pl itself (the copy ir_measures bundles), run with perl: it scores only the run's topics
    # with a judgment > 0, and its mean (printed by the original, left out of this copy) is over those.
    import shutil
    from importlib.resources import files

    if shutil.which("perl") is None:
        pytest.fail("perl is needed to run gdeval.pl")
    qrels, run = collection
    lt.write_qrels(qrels, tmp_path / "qrels")
    lt.write_run(run, tmp_path / "run")
    script = files("ir_measures") / "bin" / "gdeval.pl"
    out = subprocess.run(["perl", str(script), str(tmp_path / "qrels"), str(tmp_path / "run"), "10"],
                         capture_output=True, text=True, encoding="utf-8", check=True).stdout.splitlines()
    printed = {line.split(",")[1]: (float(line.split(",")[2]), float(line.split(",")[3])) for line in out[1:]}
    no_relevant = {q for q, judged in qrels.items() if not any(g > 0 for g in judged.values())}
    assert no_relevant and set(printed) == set(run) - no_relevant
    ours = lt.evaluate(qrels, run, ["ndcg@10", "err@10"], convention="gdeval")
    assert set(ours.queries) == set(printed)
    for qid, (ndcg, err) in printed.items():
        assert ours.per_query[qid]["ndcg@10"] == pytest.approx(ndcg, abs=GDEVAL_DECIMALS)
        assert ours.per_query[qid]["err@10"] == pytest.approx(err, abs=GDEVAL_DECIMALS)
    mean_ndcg = sum(v[0] for v in printed.values()) / len(printed)
    assert ours.mean["ndcg@10"] == pytest.approx(mean_ndcg, abs=GDEVAL_DECIMALS)
    # ir_measures' wrapper averages the same topics with zeros for the others: a lower mean
    wrapper = lt.evaluate(qrels, run, ["ndcg@10"], convention="ir_measures_gdeval")
    assert len(wrapper.queries) > len(ours.queries) and wrapper.mean["ndcg@10"] < ours.mean["ndcg@10"]
