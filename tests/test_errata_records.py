"""Every erratum record: its kind, its quote, and its correct value recomputed by hand (no library call)."""

import math
import re
from fractions import Fraction as F
from pathlib import Path

import pytest
import sympy

from ltr_teach import examples
from ltr_teach.interactive.widgets import erratum_card

SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"
if not SEEDS.is_dir():  # a worktree or a clone beside the shared folder
    SEEDS = Path("/work/shared/seeds")
TEXTS = {doc: (SEEDS / name).read_text(encoding="utf-8") for doc, name in examples.DOCUMENTS.items()}


def _compact(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.mark.parametrize("erratum", examples.ERRATA, ids=lambda e: e.id)
def test_every_quote_is_verbatim_in_its_document(erratum):
    quotes = re.findall(r"“([^”]+)”", erratum.where)
    document = _compact(TEXTS[erratum.id[:3]])
    for quote in quotes:
        for piece in quote.split("..."):  # " ... " marks a cut inside a quote
            assert _compact(piece) in document, piece
    if not quotes:  # formulas are paraphrased and marked so
        assert "(formula" in erratum.where or "`" in erratum.where


@pytest.mark.parametrize("erratum", examples.ERRATA, ids=lambda e: e.id)
def test_every_record_states_its_kind_and_only_errors_say_wrong(erratum):
    assert erratum.kind in examples.KINDS
    card = str(erratum_card(erratum))
    assert re.search(rf"^  kind +{erratum.kind}$", card, re.MULTILINE)  # the labels align to the longest one
    assert ("the post is wrong" in card) == (erratum.kind == "error")
    assert ("post is wrong" in erratum.verdict) == erratum.is_error


KINDS_BY_HAND = {
    # conventions: the document chose something and did not say so
    "000-ndcg-log-base": "convention", "003-code-dcg-gain": "convention", "001-dcg-jarvelin": "convention",
    # true in part, misleading as stated: not errors
    "000-auc-minimum": "misleading", "000-only-ndcg-err-top": "misleading",
    # terms
    "000-precision-recall-names": "terminology", "003-precision-term": "terminology",
    "003-cascade-name": "terminology", "003-err-name": "terminology",
    # real errors
    "000-map-value": "error", "000-err-value": "error", "004-idcg-value": "error", "000-metric-count": "error",
    "000-imbalance-precision-recall": "error", "003-intersection-of-sizes": "error",
    "004-dcg-compare-reason": "error", "000-ndcg-users-reason": "error", "003-click-probability": "error",
    "001-ap-every-position": "error", "003-ap-sum": "error",
    # slips of a word or an index
    "003-converted-words": "typo", "000-rank-m-document": "typo", "002-rank-for-evaluate": "typo",
    "003-extra-de": "typo",
}


@pytest.mark.parametrize("record_id, kind", sorted(KINDS_BY_HAND.items()))
def test_kinds_of_the_disputed_records(record_id, kind):
    assert examples.by_id(record_id).kind == kind


def test_at_least_fourteen_new_mistakes_in_documents_000_001_003():
    new = {"000-metric-count", "000-only-ndcg-err-top", "000-shortcoming-typo", "000-suppose-typo", "000-top-typo",
           "000-z-index-typo", "000-f1-name-typo", "000-imbalance-precision-recall", "001-cumulative-spelling",
           "001-scene-typo", "001-pros-cons-typo", "001-set-typo", "001-doubled-character", "001-particle-typo",
           "001-doubled-shi", "001-relevance-grading-typo", "001-missing-word", "000-grade-set-braces",
           "001-dcg-jarvelin", "003-precision-term", "003-err-name", "003-cascade-name", "003-intersection-of-sizes",
           "003-doubled-formulas", "003-converted-words"}
    ids = {e.id for e in examples.ERRATA}
    assert new <= ids and len(new) >= 14


def test_document_000_counts_five_metrics_not_four():
    text = TEXTS["000"]
    assert "常用排序质量评分有4种" in text
    listed = re.findall(r"^- (MRR|MAP|ERR|NDCG|AUC)\(", text, flags=re.MULTILINE)
    assert listed == ["MRR", "MAP", "ERR", "NDCG", "AUC"]          # five bullets
    assert "5 metrics" in examples.by_id("000-metric-count").correct


def test_mrr_and_map_favour_the_top_too():
    # one relevant item moved from rank 1 to rank 2: RR 1 -> 1/2, AP 1 -> (1/2)/1
    rr = {1: F(1, 1), 2: F(1, 2)}
    ap = {1: F(1, 1) / 1, 2: F(1, 2) / 1}
    assert rr[2] < rr[1] and ap[2] < ap[1]
    assert examples.by_id("000-only-ndcg-err-top").exact == sympy.Rational(1, 2)


def test_the_imbalance_example_accuracy_high_recall_zero():
    # 1000 ads, 3 clicked; predicting "not clicked" everywhere: TP 0, FN 3, TN 997, FP 0
    tp, fn, tn, fp = 0, 3, 997, 0
    assert F(tp + tn, tp + tn + fp + fn) > F(99, 100)               # accuracy above 99%
    assert F(tp, tp + fn) == 0                                      # recall 0
    record = examples.by_id("000-imbalance-precision-recall")
    assert "recall is 0" in record.explanation and record.kind == "error"


def test_only_recall_ignores_the_class_ratio():
    # one classifier (it finds 8 of 10 positives and wrongly flags 5 % of the negatives), at 100 and at
    # 10,000 negatives: recall stays, precision and accuracy move with the ratio
    def rates(negatives):
        tp, fn, fp = 8, 2, F(5, 100) * negatives
        tn = negatives - fp
        return F(tp, tp + fn), F(tp, tp + fp), F(tp + tn, tp + fn + fp + tn)
    (r1, p1, a1), (r2, p2, a2) = rates(100), rates(10_000)
    assert r1 == r2 == F(4, 5)
    assert p1 == F(8, 13) and p2 == F(8, 508) and a1 != a2
    record = examples.by_id("000-imbalance-precision-recall")
    assert record.correct == "accuracy and precision change with the class ratio; recall does not"
    assert "counts only the positive class" not in record.correct + record.explanation


def test_only_three_of_the_converted_words_are_wrong():
    record = examples.by_id("003-converted-words")
    assert record.printed == "操做、日后、知足" and record.correct == "操作、往后、满足"
    assert "中止 (stop) in the same sentence is correct" in record.explanation
    assert "中止" in TEXTS["003"] and "知足" in TEXTS["003"]


def test_the_precision_term_is_an_ambiguity_not_an_error():
    record = examples.by_id("003-precision-term")
    assert record.kind == "terminology" and record.explanation.startswith("An ambiguity, not an error")
    assert "usually names accuracy" not in record.explanation


def test_one_query_at_fixed_k_ndcg_orders_models_as_dcg_does():
    # document 004's films: two models on the same query, k = 5; the same IDCG divides both
    def dcg(grades):
        return sum((2**g - 1) / math.log2(i + 2) for i, g in enumerate(grades[:5]))
    ideal = dcg(sorted([5, 3, 2, 1, 2, 4, 0], reverse=True))
    model_a, model_b = [5, 3, 2, 1, 2], [4, 5, 0]                   # B returns only three films
    assert (dcg(model_a) > dcg(model_b)) == (dcg(model_a) / ideal > dcg(model_b) / ideal)
    # across queries the bound differs: a mean of DCGs and a mean of NDCGs can rank two systems differently
    easy, hard = [3, 3, 3], [1, 0, 0]                               # ideal orders of two queries
    sys_x = {"easy": [3, 3, 0], "hard": [1, 0, 0]}                  # perfect on hard, loses one on easy
    sys_y = {"easy": [3, 3, 3], "hard": [0, 0, 1]}                  # perfect on easy, buries hard's item
    ideal_of = {"easy": dcg(easy), "hard": dcg(hard)}
    mean_dcg = {n: sum(dcg(s[q]) for q in s) / 2 for n, s in (("x", sys_x), ("y", sys_y))}
    mean_ndcg = {n: sum(dcg(s[q]) / ideal_of[q] for q in s) / 2 for n, s in (("x", sys_x), ("y", sys_y))}
    assert mean_dcg["y"] > mean_dcg["x"] and mean_ndcg["x"] > mean_ndcg["y"]
    record = examples.by_id("004-dcg-compare-reason")
    assert "orders them exactly as DCG does" in record.correct and "average over queries" in record.correct
    assert "有多有少" in TEXTS["004"]


def test_the_bound_differs_per_query_not_per_interest():
    def dcg(grades):
        return sum(F(2**g - 1) / sympy.log(i + 2, 2) for i, g in enumerate(grades))
    user_1, user_2 = [3, 1, 0], [0, 3, 1]                           # the same grades, preferred in other orders
    assert dcg(sorted(user_1, reverse=True)) == dcg(sorted(user_2, reverse=True))
    assert sympy.N(dcg([1, 0, 0])) < sympy.N(dcg([1, 1, 1, 1, 1]))   # one relevant item against five
    assert "ideal DCGs differ" in examples.by_id("000-ndcg-users-reason").correct


def test_r_i_is_a_click_probability_given_examination():
    r = [F(1, 2), F(1, 2)]
    click_2 = r[1] * (1 - r[0])                                     # the document's own P(C_i)
    assert click_2 == F(1, 4) != r[1]
    assert "given that the user reached rank i" in examples.by_id("003-click-probability").correct


def test_ap_takes_precision_only_at_relevant_ranks():
    rels = [1, 0, 1]
    p_at = [F(sum(rels[:k]), k) for k in range(1, 4)]
    assert sum(p_at) / 3 == F(13, 18)                               # every position
    ap = sum(p for p, r in zip(p_at, rels) if r) / sum(rels)
    assert ap == F(5, 6) and examples.by_id("001-ap-every-position").exact == sympy.Rational(5, 6)


def test_adding_the_precisions_is_not_ap():
    rels = [1, 1]
    p_at = [F(sum(rels[:k]), k) for k in range(1, 3)]
    assert sum(p_at) == 2                                           # the literal sum exceeds 1
    assert sum(p * F(1, 2) for p in p_at) == 1                      # Σ P·ΔR, ΔR = 1/R = 1/2
    assert examples.by_id("003-ap-sum").exact == 1


def test_the_word_slips_quote_what_the_documents_print():
    assert "对排序的效果进行排序" in TEXTS["002"] and "事后评估排序算法" in TEXTS["002"]
    assert "会出现的矛盾的情况" in TEXTS["003"]
    assert "对查询" in TEXTS["000"] and "R(j, m)" in TEXTS["000"]
    assert examples.by_id("002-rank-for-evaluate").document == examples.DOCUMENTS["002"]


def test_the_ln_values_of_document_000_are_exact_and_ndcg_is_base_free():
    # DCG_7 of 3, 2, 3, 0, 1, 2, 2 with ln(1 + m): 7/ln2 + 3/ln3 + 7/ln4 + 0 + 1/ln6 + 3/ln7 + 3/ln8
    dcg_ln = 7 / math.log(2) + 3 / math.log(3) + 7 / math.log(4) + 1 / math.log(6) + 3 / math.log(7) + 3 / math.log(8)
    idcg_ln = 7 / math.log(2) + 7 / math.log(3) + 3 / math.log(4) + 3 / math.log(5) + 3 / math.log(6) + 1 / math.log(7)
    assert f"{dcg_ln:.6f}" == "21.421516" and f"{idcg_ln:.6f}" == "22.686817"
    dcg_2, idcg_2 = dcg_ln * math.log(2), idcg_ln * math.log(2)     # log2 x = ln x / ln 2
    assert dcg_2 / idcg_2 == pytest.approx(dcg_ln / idcg_ln, rel=1e-14)
    record = examples.by_id("000-ndcg-log-base")
    assert record.kind == "convention" and "Not an error" in record.explanation
    assert f"{dcg_2:.6f}" in record.explanation


def test_the_dcg_formula_fix_states_no_base():
    correct = examples.by_id("000-dcg-formula").correct
    assert "log(1+i)" in correct and "log2" not in correct


def test_0_913391_is_r_in_place_of_one_minus_r():
    total = F(7, 8) + F(1, 2) * F(1, 8) * F(3, 8) + F(1, 3) * F(1, 8) * F(3, 8) * F(7, 8) \
        + F(1, 4) * F(1, 8) * F(3, 8) * F(7, 8) * F(1, 8)
    assert total == F(14965, 16384) and f"{float(total):.6f}" == "0.913391"
    record = examples.by_id("000-err-value")
    assert "14965/16384" in record.explanation and "1 − R_i" in record.explanation
    assert "14965/16384" in examples.by_id("000-err-lipstick").note


def test_document_004_rounded_exactly_three_terms_up():
    terms = [31 / math.log2(2), 15 / math.log2(3), 7 / math.log2(4), 3 / math.log2(5), 3 / math.log2(6)]
    printed = [31, 9.5, 3.5, 1.3, 1.2]
    up = [f"{t:.3f}" for t, p in zip(terms, printed) if p > t + 1e-12]
    assert up == ["9.464", "1.292", "1.161"]
    for record in (examples.by_id("004-idcg-value").explanation, examples.by_id("004-idcg-movies").note):
        assert "exactly three" in record and all(u in record for u in up)


def test_document_003_code_needs_k_3_for_its_value():
    correct = examples.by_id("003-code-scores-as-gains").correct
    assert "k=3" in correct and "k=10" in correct and "fails" in correct


def test_document_004_code_comments_print_three_wrong_numbers():
    assert [e.printed for e in examples.wrong_code_outputs()] == ["0.3333", "0.5", "0.6244"]
    footer = examples.format_examples().splitlines()[-1]
    assert "3 more wrong outputs (0.3333, 0.5, 0.6244)" in footer and "7 printed values disagree in all" in footer


def test_the_errata_listing_says_the_kind():
    text = examples.format_errata()
    assert "kind     convention: a convention the post chose" in text
    counts = {kind: sum(e.kind == kind for e in examples.ERRATA) for kind in examples.KINDS}
    assert f"{counts['error']} error, {counts['convention']} convention" in text


def test_a_convention_shows_the_usual_choice_not_a_correction():
    card = str(erratum_card("000-ndcg-log-base"))
    assert "  usual  " in card and "  correct  " not in card
    assert "  correct  " in str(erratum_card("000-map-value"))
