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
    assert f"kind           {erratum.kind}" in card
    assert ("the document is wrong" in card) == (erratum.kind == "error")
    assert ("document is wrong" in erratum.verdict) == erratum.is_error


KINDS_BY_HAND = {
    # conventions: the document chose something and did not say so
    "000-ndcg-log-base": "convention", "003-code-dcg-gain": "convention", "000-auc-minimum": "convention",
    "001-dcg-jarvelin": "convention",
    # terms
    "000-precision-recall-names": "terminology", "003-precision-term": "terminology",
    "003-cascade-name": "terminology", "003-err-name": "terminology",
    # real errors
    "000-map-value": "error", "000-err-value": "error", "004-idcg-value": "error", "000-metric-count": "error",
    "000-imbalance-precision-recall": "error", "000-only-ndcg-err-top": "error",
    "003-intersection-of-sizes": "error",
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
    assert tp + fp == 0                                             # precision 0/0: undefined
    record = examples.by_id("000-imbalance-precision-recall")
    assert "recall is 0" in record.explanation and "undefined" in record.explanation


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
    assert "kind     convention: a convention the document chose" in text
    counts = {kind: sum(e.kind == kind for e in examples.ERRATA) for kind in examples.KINDS}
    assert f"{counts['error']} error, {counts['convention']} convention" in text


def test_a_convention_shows_the_usual_choice_not_a_correction():
    card = str(erratum_card("000-ndcg-log-base"))
    assert "  usual  " in card and "  correct  " not in card
    assert "  correct  " in str(erratum_card("000-map-value"))
