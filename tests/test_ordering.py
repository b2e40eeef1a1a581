"""Scores, document ids and tie rules: the order a metric sees, and the steps that show it."""

import pytest
import sympy
from sympy import Rational

import ltr_teach as lt
from ltr_teach.core.exact import log2
from ltr_teach.metrics.ordering import TIE_RULES, rank_by_scores

# The conventions.md example: d3 1.0, d1 0.8, d2 0.8 (tied), d4 0.5, d9 0.4 (unjudged).
GRADES = [0, 3, 2, 1, 0]
SCORES = [1.0, 0.8, 0.8, 0.5, 0.4]
IDS = ["d3", "d1", "d2", "d4", "d9"]
POOL = [3, 2, 0, 1, 2]  # d1, d2, d3, d4, d5: d5 (grade 2) was never retrieved


@pytest.mark.parametrize("ties, expected", [
    ("stable", ["d3", "d1", "d2", "d4", "d9"]),       # input order inside the tie
    ("docid_desc", ["d3", "d2", "d1", "d4", "d9"]),   # "d2" > "d1"
    ("pessimistic", ["d3", "d2", "d1", "d4", "d9"]),  # grade 2 before grade 3
    ("optimistic", ["d3", "d1", "d2", "d4", "d9"]),   # grade 3 before grade 2
    ("average", ["d3", "d1", "d2", "d4", "d9"]),      # shown in input order, gains averaged
])
def test_each_tie_rule_orders_the_tied_pair(ties, expected):
    assert list(rank_by_scores(GRADES, SCORES, docids=IDS, ties=ties).docids) == expected


def test_tie_groups_are_reported():
    r = rank_by_scores(GRADES, SCORES, docids=IDS, ties="docid_desc")
    assert r.groups == ((1, 1), (2, 3), (2, 3), (4, 4), (5, 5))
    assert r.tied_groups() == [(2, 3)]
    assert "d2, d1 share score" in r.describe_ties()


def test_docid_desc_compares_strings_not_numbers():
    # trec_eval uses strcmp: "d10" < "d9" because '1' < '9', so d9 ranks first among the tied.
    r = rank_by_scores([1, 0], [0.5, 0.5], docids=["d10", "d9"], ties="docid_desc")
    assert r.docids == ("d9", "d10")


def test_trec_eval_ndcg_from_scores_is_exact():
    ex = lt.ndcg(GRADES, scores=SCORES, docids=IDS, ideal=POOL, convention="trec_eval")
    # ranked grades 0, 2, 3, 1, 0 (d2 before d1), linear gain
    dcg = Rational(0) + 2 / log2(3) + Rational(3, 2) + 1 / log2(5)
    # ideal from the pool 3, 2, 2, 1, 0
    idcg = 3 + 2 / log2(3) + Rational(2, 2) + 1 / log2(5)
    assert sympy.simplify(ex.exact - dcg / idcg) == 0
    assert [r["doc"] for r in ex.steps] == ["d3", "d2", "d1", "d4", "d9"]
    assert [r["tied"] for r in ex.steps] == ["", "ranks 2–3", "ranks 2–3", "", ""]
    assert "doc" in [c.key for c in ex.columns] and "score" in [c.key for c in ex.columns]


def test_sklearn_average_gives_each_tied_rank_the_mean_gain():
    ex = lt.ndcg(GRADES, scores=SCORES, convention="sklearn")
    # ranks 2 and 3 tie: gain (3 + 2)/2 = 5/2 at each; linear gain, ideal 3, 2, 1, 0, 0 from the row
    dcg = Rational(5, 2) / log2(3) + Rational(5, 2) / 2 + 1 / log2(5)
    idcg = 3 + 2 / log2(3) + Rational(1, 2)
    assert [r["gain"] for r in ex.steps] == [0, Rational(5, 2), Rational(5, 2), 1, 0]
    assert sympy.simplify(ex.exact - dcg / idcg) == 0


def test_pessimistic_and_optimistic_bound_every_tie_order():
    low = lt.ndcg(GRADES, scores=SCORES, ties="pessimistic", gain="linear").value
    high = lt.ndcg(GRADES, scores=SCORES, ties="optimistic", gain="linear").value
    avg = lt.ndcg(GRADES, scores=SCORES, ties="average", gain="linear").value
    in_order = [lt.ndcg(g, gain="linear").value for g in ([0, 3, 2, 1, 0], [0, 2, 3, 1, 0])]
    assert low == pytest.approx(min(in_order)) and high == pytest.approx(max(in_order))
    assert avg == pytest.approx(sum(in_order) / 2)  # linear in the gains: the mean over both orders


def test_explicit_keyword_overrides_the_convention():
    mixed = lt.ndcg(GRADES, scores=SCORES, docids=IDS, ideal=POOL, convention="trec_eval", gain="exp2")
    manual = lt.ndcg(GRADES, scores=SCORES, docids=IDS, ideal=POOL, gain="exp2", discount="log2",
                     ties="docid_desc", zero="zero")
    assert mixed.exact == manual.exact
    assert mixed.params["gain"] == "exp2"


def test_convention_overrides_the_defaults():
    # default gain is exp2; trec_eval's is linear
    assert lt.ndcg([2, 1], convention="trec_eval").exact == lt.ndcg([2, 1], gain="linear").exact
    assert lt.ndcg([0, 0], convention="lightgbm").exact == 1
    assert lt.ndcg([0, 0]).exact == 0


def test_binary_metrics_accept_scores():
    # relevance of d3, d1, d2, d4, d9 with grade >= 1; trec order d3, d2, d1, d4, d9 -> 0, 1, 1, 1, 0
    assert lt.reciprocal_rank(GRADES, scores=SCORES, docids=IDS, convention="trec_eval").exact == Rational(1, 2)
    assert lt.precision_at_k(GRADES, 3, scores=SCORES, docids=IDS, convention="trec_eval").exact == Rational(2, 3)
    # AP over the 4 relevant of the pool: (1/2 + 2/3 + 3/4) / 4
    ap = lt.average_precision(GRADES, n_relevant=4, scores=SCORES, docids=IDS, convention="trec_eval")
    assert ap.exact == (Rational(1, 2) + Rational(2, 3) + Rational(3, 4)) / 4
    rec = lt.recall_at_k(GRADES, 10, n_relevant=4, scores=SCORES, docids=IDS, convention="trec_eval")
    assert rec.exact == Rational(3, 4)


def test_err_under_gdeval_fixes_g_max_at_4_and_orders_ties_by_docid():
    ex = lt.err(GRADES, scores=SCORES, docids=IDS, convention="gdeval")
    # order 0, 2, 3, 1, 0; R = 0, 3/16, 7/16, 1/16, 0
    r2, r3, r4 = Rational(3, 16), Rational(7, 16), Rational(1, 16)
    expected = r2 / 2 + (1 - r2) * r3 / 3 + (1 - r2) * (1 - r3) * r4 / 4
    assert ex.exact == expected


def test_tie_rules_registry_describes_each_rule():
    assert set(TIE_RULES) == {"stable", "docid_desc", "average", "pessimistic", "optimistic"}


@pytest.mark.parametrize("call, message", [
    (lambda: lt.ndcg([1, 0], ties="stable"), "ties = 'stable' needs scores="),
    (lambda: lt.ndcg([1, 0], docids=["a", "b"]), "docids = .* needs scores="),
    (lambda: lt.ndcg([1, 0], scores=[1.0]), "one score per item; got 1 scores for 2 grades"),
    (lambda: lt.ndcg([1, 0], scores=[1, 2], ties="docid_desc"), "docids must be given"),
    (lambda: lt.ndcg([1, 0], scores=[1, 2], docids=["a", "a"]), r"docids\[1\] = 'a' repeats"),
    (lambda: lt.ndcg([1, 0], scores=[1, 2], ties="random"), "ties must be one of"),
    (lambda: lt.ndcg([1, 0], scores=[1, float("nan")]), r"scores\[1\] = nan"),
    (lambda: lt.err([1, 0], g_max=1, scores=[1, 1], ties="average"), "err is not such a sum"),
    (lambda: lt.err([1, 0]), "g_max must be given"),
    (lambda: lt.ndcg([1, 0], convention="excel"), "convention must be one of"),
])
def test_bad_input_names_the_argument(call, message):
    with pytest.raises(ValueError, match=message):
        call()
