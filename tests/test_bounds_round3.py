"""Issue 24, round 3 ("Library" and "Hangs, memory, tracebacks"): the exact path on real queries, the presets'
zero rule in the exact functions, and every bound with its message. Expected values are computed here
independently (fractions by hand, trec_eval's own output, pytrec_eval, SciPy, XGBoost/LightGBM)."""

from __future__ import annotations

import time
from fractions import Fraction
from pathlib import Path

import lightgbm
import numpy as np
import pytest
import pytrec_eval
import xgboost

import ltr_teach as lt

DATA = Path(__file__).parent / "data"

#: A guard against the hangs these calls had (minutes, or never returning), not a speed target: the times are
#: measured by benchmarks/bench_limits.py, and a shared CI machine may run several times slower than a quiet one.
HANG = 60.0


# --- the exact path on a real TREC topic ----------------------------------------------------------------------------
# tests/data/trec_eval_test_301_302.{qrels,run}: topics 301 and 302 of trec_eval's own test data (usnistgov/trec_eval,
# test/qrels.test and test/results.test at commit f4253652c8efd0d86ddffd0d163cc0a0f813111a); trec_eval's own output
# for them (test/out.test) prints ndcg_cut_10 0.1518 for 301 and 0.7530 for 302.

def _read_topics():
    qrels, run = {}, {}
    for line in (DATA / "trec_eval_test_301_302.qrels").read_text(encoding="utf-8").splitlines():
        topic, _, doc, grade = line.split()
        qrels.setdefault(topic, {})[doc] = int(grade)
    for line in (DATA / "trec_eval_test_301_302.run").read_text(encoding="utf-8").splitlines():
        topic, _, doc, _, score, _ = line.split()
        run.setdefault(topic, {})[doc] = float(score)
    return qrels, run


@pytest.mark.parametrize("topic, printed", [("301", 0.1518), ("302", 0.7530)])
def test_ndcg_at_10_of_a_real_trec_topic(topic, printed):
    qrels, run = _read_topics()
    assert len(qrels["301"]) == 1708 and len(run["301"]) == 500
    theirs = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut"}).evaluate(run)[topic]["ndcg_cut_10"]
    # trec_eval's order: score descending, ties by docid descending
    order = sorted(run[topic], key=lambda d: (run[topic][d], d), reverse=True)
    grades = [qrels[topic].get(d, 0) for d in order]
    ideal = list(qrels[topic].values())
    str(lt.ndcg([1, 0], k=1, ideal=[1, 1]))  # warm-up: imports done on first use are not the call's time
    start = time.perf_counter()
    ex = lt.ndcg(grades, k=10, ideal=ideal, gain="linear")
    text = str(ex)
    elapsed = time.perf_counter() - start
    assert float(ex) == pytest.approx(theirs, abs=1e-12)
    assert round(float(ex), 4) == printed
    assert len(ex.steps) == 10 and "NDCG@10" in text
    assert elapsed < HANG
    # the same through the scores and trec_eval's preset (ties by docid, ideal from the pool)
    docs = list(run[topic])
    by_scores = lt.ndcg([qrels[topic].get(d, 0) for d in docs], k=10, scores=[run[topic][d] for d in docs],
                        docids=docs, ideal=ideal, convention="trec_eval")
    assert float(by_scores) == pytest.approx(theirs, abs=1e-12)


def test_ndcg_at_10_reads_a_long_ranking_without_scores():
    # 1,000 ranked grades plus 700 judged ones never retrieved; the ideal top 10 is ten 2s
    grades = [0, 1, 2] + [0] * 997
    ideal = grades + [2] * 9 + [1] * 691
    ex = lt.ndcg(grades, k=10, ideal=ideal)
    dcg = 1 / np.log2(3) + 3 / np.log2(4)
    idcg = sum(3 / np.log2(i + 1) for i in range(1, 11))
    assert float(ex) == pytest.approx(dcg / idcg, abs=1e-15)
    assert [int(r["ideal_grade"]) for r in ex.steps] == [2] * 10
    grades_long = [1] + [0] * 5000  # 5,001 grades, k = 3: no ideal given, the list's own top 3 is 1, 0, 0
    assert lt.ndcg(grades_long, k=3).exact == 1
    # uncut (trec_eval's ndcg): the ideal's 998 items of gain 0 are folded, its 702 with a gain get a row each
    uncut = lt.ndcg(grades, ideal=ideal)
    dcg = 1 / np.log2(3) + 3 / np.log2(4)
    ideal_gains = [3] * 10 + [1] * 692
    assert float(uncut) == pytest.approx(dcg / sum(g / np.log2(i + 2) for i, g in enumerate(ideal_gains)), rel=1e-14)
    assert len(uncut.parts["idcg"].steps) == 702 and "ideal ranks 703–1700" in str(uncut)
    with pytest.raises(ValueError, match="ideal has 1002 items with a gain above 0; without k"):
        lt.ndcg(grades, ideal=grades + [1] * 1000)
    with pytest.raises(ValueError, match="at most 20000 items beyond the rows it shows"):
        lt.ndcg([0] * 20_001, k=10)


# --- Manning, Raghavan & Schütze (2008), Exercise 8.9: R R N N N N N N R N R N N N R N N N N R of 10,000 documents,
# 8 relevant in the collection
_TOP20 = "RRNNNNNNRNRNNNRNNNNR"


def _manning_ap(extra_ranks):
    hits = [i + 1 for i, c in enumerate(_TOP20) if c == "R"] + list(extra_ranks)
    return sum(Fraction(h, rank) for h, rank in enumerate(hits, 1)) / 8


def test_manning_exercise_8_9_average_precision():
    top = [1 if c == "R" else 0 for c in _TOP20]
    str(lt.average_precision([1, 0]))  # warm-up: imports done on first use are not the call's time
    # g: the 20 documents are the whole result set
    assert lt.average_precision(top, n_relevant=8).exact == _manning_ap([])
    # h and i: the system returned all 10,000 documents, the two missing relevant ones at 21, 22 (largest MAP) or
    # at 9,999 and 10,000 (smallest)
    for extra in ([21, 22], [9999, 10000]):
        rels = top + [0] * 9980
        for r in extra:
            rels[r - 1] = 1
        start = time.perf_counter()
        ex = lt.average_precision(rels)
        text = str(ex)
        assert time.perf_counter() - start < HANG
        assert ex.exact == _manning_ap(extra)
        assert len(ex.steps) == 8 and [r["rank"] for r in ex.steps][-2:] == extra
        assert "10000" in text.replace(",", "")


# --- the presets' zero rule in the exact functions ------------------------------------------------------------------

def _xgboost_map(labels, scores):
    data = xgboost.DMatrix(np.zeros((len(labels), 1)), label=labels, base_margin=scores)
    data.set_group([len(labels)])
    booster = xgboost.train({"objective": "rank:ndcg", "eval_metric": ["map"], "base_score": 0.0}, data,
                            num_boost_round=0)
    return float(booster.eval(data).split(":")[-1])


def _lightgbm_map(labels, scores, k):
    data = lightgbm.Dataset(np.zeros((len(labels), 1)), label=labels, group=[len(labels)],
                            init_score=np.array(scores), params={"verbose": -1})
    booster = lightgbm.Booster(params={"objective": "lambdarank", "metric": "map", "eval_at": [k], "verbose": -1},
                               train_set=data)
    return booster.eval_train()[0][2]


def test_average_precision_of_a_group_without_positives_follows_the_preset():
    assert _xgboost_map([0.0], [1.7]) == 1.0
    assert float(lt.average_precision([0], scores=[1.7], convention="xgboost")) == 1.0
    assert _lightgbm_map([0.0, 0.0], [1.7, 0.2], 3) == 1.0
    assert float(lt.average_precision([0, 0], k=3, scores=[1.7, 0.2], convention="lightgbm")) == 1.0
    # with a positive both agree with the library, and trec_eval's preset still gives 0 to an empty query
    assert float(lt.average_precision([0, 1], scores=[1.7, 0.2], convention="xgboost")) == _xgboost_map([0.0, 1.0], [1.7, 0.2])
    assert lt.average_precision([0], convention="trec_eval").exact == 0


# --- significance tests: all-zero Wilcoxon, exact permutation counts, names ----------------------------------------

def test_wilcoxon_of_identical_runs_is_w0_p1_as_scipy():
    from scipy.stats import wilcoxon as scipy_wilcoxon

    with np.errstate(invalid="ignore"):  # SciPy divides 0 by 0 on its way to p = 1
        theirs = scipy_wilcoxon([0.0, 0.0, 0.0])
    assert (theirs.statistic, theirs.pvalue) == (0.0, 1.0)
    qrels = {q: {"a": 1, "b": 0} for q in "xyz"}
    run = {q: {"a": 2.0, "b": 1.0} for q in "xyz"}
    test = lt.compare_runs(qrels, {"A": run, "B": run}, "map")["B"].tests["wilcoxon"]
    assert (test.statistic, test.p_value) == (0.0, 1.0)


def _exact_p(diffs, alternative):
    # every sign pattern on exact fractions, counted by hand
    import itertools

    obs = sum(diffs)
    sums = [sum(s * d for s, d in zip(signs, diffs)) for signs in itertools.product([1, -1], repeat=len(diffs))]
    if alternative == "less":
        return Fraction(sum(t <= obs for t in sums), len(sums))
    if alternative == "greater":
        return Fraction(sum(t >= obs for t in sums), len(sums))
    return Fraction(sum(abs(t) >= abs(obs) for t in sums), len(sums))


def test_exact_permutation_on_float_noise_near_zero():
    # P@5 with hits [5, 1] (baseline) against [3, 3]: differences -2/5 and +2/5, mean exactly 0
    qrels = {q: {f"d{i}": 1 for i in range(5)} for q in ("1", "2")}
    base = {"1": {f"d{i}": 10.0 - i for i in range(5)},
            "2": {"d0": 10.0, **{f"n{i}": 9.0 - i for i in range(4)}}}
    run = {q: {"d0": 10.0, "d1": 9.0, "d2": 8.0, "n0": 7.0, "n1": 6.0} for q in ("1", "2")}
    test = lt.compare_runs(qrels, {"base": base, "run": run}, "P@5", alternative="less")["run"].tests["permutation"]
    assert test.exact == _exact_p([Fraction(-2, 5), Fraction(2, 5)], "less") == Fraction(3, 4)
    noisy = [0.6 - 0.4, -(0.3 - 0.1), 0.1 + 0.2]
    truth = _exact_p([Fraction(1, 5), Fraction(-1, 5), Fraction(3, 10)], "two-sided")
    from ltr_teach.runs.compare import permutation

    assert lt.sign_flips(noisy).p_value == permutation(np.array(noisy)).exact == truth == Fraction(3, 4)
    for alternative in ("less", "greater"):
        assert lt.sign_flips(noisy, alternative=alternative).p_value == \
            permutation(np.array(noisy), alternative).exact == _exact_p([Fraction(1, 5), Fraction(-1, 5),
                                                                         Fraction(3, 10)], alternative)


def test_sign_flips_of_300_digit_fractions_prints_fast():
    values = [Fraction((-1) ** i, 3**600 + i) for i in range(12)]
    start = time.perf_counter()
    text = str(lt.sign_flips(values))
    assert time.perf_counter() - start < HANG
    assert "4096" in text.replace(",", "")


def test_compare_runs_refuses_two_runs_named_alike_and_names_its_arguments():
    qrels = {q: {"a": 1} for q in "xy"}
    run = {q: {"a": 1.0, "b": 2.0} for q in "xy"}
    with pytest.raises(ValueError, match="runs has two runs named '1'"):
        lt.compare_runs(qrels, {1: run, "1": run, "x": run}, "map")
    with pytest.raises(ValueError, match="baseline must be the name of one of the runs"):
        lt.compare_runs(qrels, {"A": run, "B": run}, "map", baseline=["A"])
    # NumPy integers are whole numbers
    result = lt.compare_runs(qrels, {"A": run, "B": run}, "map", n_resamples=np.int64(99), seed=np.int32(3),
                             exact_up_to=np.int64(10))
    assert result.n_resamples == 99
    with pytest.raises(ValueError, match="differences must be a list of numbers"):
        lt.sign_flips(np.array(0.5))
    for bad in ({"q": 0.5}, {0.5, 0.25}):
        with pytest.raises(ValueError, match="differences must be a list of numbers"):
            lt.sign_flips(bad)
    with pytest.raises(ValueError, match="queries must be a list of query names"):
        lt.sign_flips([0.5, 0.25], queries=5)


# --- command-line numbers: one reader, sizes checked on the text --------------------------------------------------

@pytest.mark.parametrize("argv, message", [
    (["compare", "Q", "A", "B", "-m", "map", "--confidence", "1e999999999"], "--confidence = '1e999999999' is outside"),
    (["compare", "Q", "A", "B", "-m", "map", "--confidence", "1e400"], "--confidence = '1e400' is outside"),
    (["compare", "Q", "A", "B", "-m", "map", "--confidence", "1.5"], "strictly between 0 and 1"),
    (["compare", "Q", "A", "B", "-m", "map", "--resamples", "1e999999999"], "--resamples = '1e999999999' is outside"),
    (["compare", "Q", "A", "B", "-m", "map", "--resamples", "0"], "--resamples = '0' is out of range"),
    (["compare", "Q", "A", "B", "-m", "map", "--seed", "1e999999999"], "--seed = '1e999999999' is outside"),
    (["eval", "Q", "A", "-m", "map", "-l", "1e999999999"], "--relevance-level = '1e999999999' is outside"),
    (["eval", "Q", "A", "-m", "map", "-M", "1e-999999999"], "--depth = '1e-999999999' is outside"),
    (["explain", "ndcg", "3", "2", "--k", "0e-999999999"], "k must be an integer >= 1"),
    (["explain", "rbp", "1", "0", "--p", "1e999999999"], "--p = '1e999999999' is outside"),
    (["explain", "ndcg", "1", "0", "--k", "1e999999999"], "--k = '1e999999999' is outside"),
    (["explain", "precision_at_k", "1", "0", "--k", "1", "--threshold", "1e400"], "--threshold = '1e400' is outside"),
    (["explain", "interpolated_precision", "1", "0", "--recall", "1" * 500], "is 500 characters long"),
])
def test_cli_numbers_one_line_exit_2(capsys, argv, message):
    from ltr_teach.cli import main

    start = time.perf_counter()
    code = main(argv)
    err = capsys.readouterr().err
    assert time.perf_counter() - start < HANG
    assert code == 2 and err.count("\n") == 1 and message in err, err


# --- kappa from the table, sampled metrics, browsing users, RBP's digits -------------------------------------------

def test_cohen_kappa_reads_the_table_and_labels_fast():
    from sklearn.metrics import cohen_kappa_score

    assert lt.cohen_kappa(counts=[[10**9, 0], [0, 10**9]]).exact == 1
    # Manning et al. Table 8.2 scaled by 10^6: kappa unchanged, 52/67 (Cohen), computed here from the margins
    n = 400 * 10**6
    p_a = Fraction(370, 400)
    p_e = Fraction(80, 400) * Fraction(90, 400) + Fraction(320, 400) * Fraction(310, 400)
    table = [[70 * 10**6, 10 * 10**6], [20 * 10**6, 300 * 10**6]]
    assert sum(map(sum, table)) == n
    assert lt.cohen_kappa(counts=np.array(table)).exact == (p_a - p_e) / (1 - p_e)
    rng = np.random.default_rng(5)
    a = rng.integers(0, 10_000, 100_000)
    b = np.where(rng.random(100_000) < 0.5, a, rng.integers(0, 10_000, 100_000))
    start = time.perf_counter()
    ex = lt.cohen_kappa(list(a), list(b))   # NumPy integers as labels
    assert time.perf_counter() - start < HANG
    from collections import Counter

    ca, cb = Counter(a.tolist()), Counter(b.tolist())
    p_agree = Fraction(int((a == b).sum()), 100_000)
    p_chance = Fraction(sum(ca[c] * cb[c] for c in ca), 100_000**2)
    assert ex.exact == (p_agree - p_chance) / (1 - p_chance)
    small_a, small_b = a % 50, b % 50   # scikit-learn builds a categories-squared matrix: 50 categories
    assert float(lt.cohen_kappa(small_a, small_b)) == pytest.approx(cohen_kappa_score(small_a, small_b), abs=1e-12)
    with pytest.raises(ValueError, match=r"judge_a\[1\] = nan is not a category label"):
        lt.cohen_kappa([1.0, float("nan")], [1.0, 1.0])
    with pytest.raises(ValueError, match=r"counts\[0\]\[1\] = -1 must be a whole number"):
        lt.cohen_kappa(counts=[[1, -1], [0, 1]])


def _sampled_hr(rank, n_items, n_neg, k):
    from math import comb

    return sum(Fraction(comb(rank - 1, m) * comb(n_items - rank, n_neg - m), comb(n_items - 1, n_neg))
               for m in range(min(k, rank)))


def test_sampled_metric_is_bounded_and_exact():
    with pytest.raises(ValueError, match="n_negatives = 500000000 is too many for the exact expectation: at most 1000"):
        lt.sampled_metric([5], 10**9, 5 * 10**8)
    start = time.perf_counter()
    with pytest.raises(ValueError, match="full_ranks holds 10000 different ranks; the exact hit_rate expectation takes "
                                         "at most 1000"):
        lt.sampled_metric(list(range(1, 10001)), 10**4, 100)
    assert time.perf_counter() - start < HANG
    with pytest.raises(ValueError, match="C\\(n_items - 1, n_negatives\\), about"):
        lt.sampled_metric([5], 10**9, 999)
    ranks = [1, 7, 7, 250, 9000]
    ex = lt.sampled_metric(ranks, 10**4, 100, k=10)
    assert ex.exact == sum(_sampled_hr(r, 10**4, 100, 10) for r in ranks) / 5
    # the recurrence where C(N - r, n - m) starts at 0: 5 items, rank 5, 3 negatives (all from above it)
    assert lt.sampled_metric([5], 5, 3, k=4).exact == _sampled_hr(5, 5, 3, 4) == 1
    assert lt.sampled_metric([4], 5, 3, k=3).exact == _sampled_hr(4, 5, 3, 3)
    ndcg = lt.sampled_metric([3, 40], 1000, 50, k=5, metric="ndcg")
    from math import comb, log2

    def expected(r):
        return sum(comb(r - 1, m) * comb(1000 - r, 50 - m) / comb(999, 50) / log2(m + 2) for m in range(min(5, r)))
    assert float(ndcg) == pytest.approx((expected(3) + expected(40)) / 2, rel=1e-12)


def test_browsing_model_and_rbp_are_bounded():
    with pytest.raises(ValueError, match="browsing_model\\('rbp'\\) tabulates at most 1000 ranks"):
        lt.browsing_model("rbp", 10**9)
    with pytest.raises(ValueError, match="browsing_model\\('dcg'\\) tabulates at most 300 ranks"):
        lt.browsing_model("dcg", 10**6)
    assert lt.browsing_model("rbp", 1000, p=0.5).params["beyond"] == Fraction(1, 2**1000)
    # p = 0.12345 = 2469/20000 over 1,000 ranks: RBP = 1 - p^1000 exactly, printed without the 4,300-digit error
    ex = lt.rbp([1] * 1000, p=0.12345)
    assert ex.exact == 1 - Fraction(2469, 20000) ** 1000
    assert "RBP" in str(ex) and ex.latex()
    noisy = lt.rbp([1] * 300, p=0.8000000000000002)
    assert noisy.exact == 1 - Fraction("0.8000000000000002") ** 300 and str(noisy)
    with pytest.raises(ValueError, match="here at most 377 ranks"):
        lt.rbp([1] * 1000, p=0.8000000000000002)
    assert lt.rbp([1] * 1000, p=0.8000000000000002, k=100).exact == 1 - Fraction("0.8000000000000002") ** 100
    with pytest.raises(ValueError, match=r"grades\[1\] = nan is not allowed"):
        lt.rbp_residual([1, float("nan"), 0])


# --- pairs: the promised 2 s -------------------------------------------------------------------------------------

def test_misordered_pairs_and_swap_deltas_within_two_seconds():
    import random

    rng = random.Random(3)
    grades = [rng.randint(0, 1) for _ in range(100)]
    scores = [round(rng.random(), 3) for _ in range(100)]
    start = time.perf_counter()
    ex = lt.misordered_pairs(grades, scores)
    text = str(ex)
    assert time.perf_counter() - start < HANG
    from sklearn.metrics import roc_auc_score

    assert float(ex) == pytest.approx(1 - roc_auc_score(grades, scores), abs=1e-12)   # 1 - AUC, ties 1/2
    assert "RankNet" in text
    with pytest.raises(ValueError, match="misordered_pairs shows one exact row per pair, at most 5000"):
        lt.misordered_pairs([rng.randint(0, 4) for _ in range(200)], [rng.random() for _ in range(200)])
    grades = [rng.randint(0, 4) for _ in range(200)]
    start = time.perf_counter()
    sd = lt.swap_deltas(grades)
    str(sd), sd._repr_html_(), sd.largest()
    assert time.perf_counter() - start < HANG
    # the floats against |G_i - G_j| |1/D_i - 1/D_j| / IDCG computed here with NumPy
    gains = 2.0 ** np.array(grades) - 1
    disc = 1 / np.log2(np.arange(2, 202))
    idcg = (np.sort(gains)[::-1] * disc).sum()
    expected = np.abs(gains[:, None] - gains[None, :]) * np.abs(disc[:, None] - disc[None, :]) / idcg
    assert np.allclose(sd.values, expected, rtol=1e-12, atol=0)
    assert float(sd.matrix[0][199]) == pytest.approx(expected[0][199], rel=1e-12)   # exact on first use
    with pytest.raises(ValueError, match="swap_deltas prints an n × n table, at most 200 items"):
        lt.swap_deltas([1] * 201)


# --- pooling ---------------------------------------------------------------------------------------------------

def test_pool_is_linear_refuses_nan_and_bad_truth_and_orders_mixed_ids_as_text():
    from ltr_teach.runs.pooling import pool

    n = 200_000   # a list's membership test made this 2·10^10 comparisons; a dict's is linear
    big = {"A": {"q": {f"d{i}": float(i % 1000) for i in range(n)}}, "B": {"q": {f"e{i}": 1.0 for i in range(n)}}}
    start = time.perf_counter()
    pooled = pool(big, depth=n)
    assert time.perf_counter() - start < HANG
    assert len(pooled["q"]) == 2 * n
    with pytest.raises(ValueError, match=r"runs\['A'\]\['q'\]\['d2'\] = nan is not a finite number"):
        pool({"A": {"q": {"d1": 1.0, "d2": float("nan")}}}, depth=1)
    with pytest.raises(ValueError, match=r"truth\['q1'\] must be \{docid: grade\}; got \[1\]"):
        pool({"A": {"q1": {"d1": 1.0}}}, depth=1, truth={"q1": [1]})
    # tied scores: ids compared as text, descending ("2" > "10" > "1"), whatever their type
    assert pool({"A": {"q": {1: 0.5, "2": 0.5, 10: 0.5}}}, depth=2) == {"q": ["2", 10]}


# --- messages that name their argument; long lines and fields ----------------------------------------------------

def test_evaluate_names_its_arguments():
    qrels, run = {"q": {"d": 1}}, {"q": {"d": 1.0}}
    with pytest.raises(ValueError, match="qrels must be a dict or the path of a TREC qrels file; got None"):
        lt.evaluate(None, run, "map")
    with pytest.raises(ValueError, match="judged_only must be True or False; got 'yes'"):
        lt.evaluate(qrels, run, "map", judged_only="yes")
    assert lt.evaluate(qrels, run, "map", judged_only=np.True_).mean["map"] == 1.0
    with pytest.raises(ValueError, match=r"metric 'iprec@1..5': the recall level must be one number in \[0, 1\]"):
        lt.evaluate(qrels, run, "iprec@1..5")
    with pytest.raises(ValueError, match="is 5002 characters long; a metric name has at most 100"):
        lt.evaluate(qrels, run, "p@" + "9" * 5000)
    with pytest.raises(ValueError, match="the cut-off k must be a whole number from 1 to 1000000000"):
        lt.evaluate(qrels, run, "p@" + "9" * 50)
    with pytest.raises(ValueError, match="g_max = an integer of about 400 digits is not allowed"):
        lt.evaluate(qrels, run, "err", g_max=10**400)


@pytest.mark.parametrize("which", ["qrels", "run"])
def test_a_5_mb_document_id_is_one_line_exit_2(tmp_path, capsys, which):
    from ltr_teach.cli import main

    qrels, run = tmp_path / "q.txt", tmp_path / "r.txt"
    long_id = "x" * (5 * 2**20)
    qrels.write_text("1 0 d1 1\n" + (f"1 0 {long_id} 1\n" if which == "qrels" else ""), encoding="utf-8")
    run.write_text("1 Q0 d1 1 2.0 r\n" + (f"1 Q0 {long_id} 2 1.0 r\n" if which == "run" else ""), encoding="utf-8")
    start = time.perf_counter()
    code = main(["eval", str(qrels), str(run), "-m", "map"])
    err = capsys.readouterr().err
    assert time.perf_counter() - start < HANG
    assert code == 2 and err.count("\n") == 1 and ":2: the line is longer than 1048576 bytes" in err
    # a field longer than 512 bytes in a short line
    (tmp_path / "q2.txt").write_text("1 0 d1 1\n1 0 " + "y" * 600 + " 1\n", encoding="utf-8")
    (tmp_path / "r2.txt").write_text("1 Q0 d1 1 2.0 r\n", encoding="utf-8")
    assert main(["eval", str(tmp_path / "q2.txt"), str(tmp_path / "r2.txt"), "-m", "map"]) == 2
    assert "q2.txt:2: field 3 (docid) is 600 bytes long; a field has at most 512 bytes" in capsys.readouterr().err


# --- lt.check of a Decimal; the AUC editor's refused label ------------------------------------------------------

def test_check_reads_a_decimal_exactly():
    from decimal import Decimal

    from ltr_teach.teaching.answers import parse_answer

    assert parse_answer(Decimal("0.944")).value == Fraction(944, 1000)
    assert lt.check("ndcg-lipstick", Decimal("0.944")).correct
    assert not lt.check("ndcg-lipstick", Decimal("0.9548")).correct
    for bad, words in ((Decimal("NaN"), "is not a finite number"), (Decimal("1E+999999999"), "larger than 10^100"),
                       (Decimal("1E-999999999"), "exponent -999999999 is too large")):
        start = time.perf_counter()
        feedback = lt.check("ndcg-lipstick", bad)
        assert time.perf_counter() - start < HANG
        assert not feedback.correct and words in str(feedback)


def test_auc_editor_refused_label_changes_nothing():
    from ltr_teach.widgets import RankingEditor

    editor = RankingEditor(["a", "b", "c"], [1, 0, 0], metric="auc", scores=[0.9, 0.2, 0.5])
    with pytest.raises(ValueError, match="only one class"):
        editor.set_grade(0, 0)
    assert editor.grades == (1, 0, 0) and editor.explanation.exact == 1
    editor._on_grade(0, 0)   # the slider's path: refused, reported, the slider set back
    assert editor.grades == (1, 0, 0) and editor.explanation.exact == 1
    assert "not applied" in editor._error.value
