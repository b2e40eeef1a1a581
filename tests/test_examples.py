"""The documents as data: every worked example and every erratum pinned by an independent computation.

Hand values use SymPy's own ``log`` (not the library's ``log2``/``ln``) with a comment per rank.
The documents' code snippets are ported line by line (plain Python / NumPy for torch) and run.
"""

import math
import re

import numpy as np
import pytest
import sympy
from sympy import Rational as R

import ltr_teach as lt
from ltr_teach import examples
from ltr_teach.cli import main


def L2(x):
    return sympy.log(x, 2)


def LN(x):
    return sympy.log(x)


def same(a, b) -> bool:
    """Exact equality, checked to 50 digits for expressions with logarithms."""
    if isinstance(a, sympy.Rational) and isinstance(b, sympy.Rational):
        return a == b
    return abs(sympy.N(a - b, 60)) < sympy.Float("1e-45")


# --- hand computations of every worked example -----------------------------------------------

# 000 MAC口红, grades 3, 2, 3, 0, 1, 2, 2; gain 2^g - 1, discount ln(1 + rank) (the document's numbers)
DCG_MAC_LN = (7 / LN(2)      # rank 1: (2^3-1)/ln 2
              + 3 / LN(3)    # rank 2: (2^2-1)/ln 3
              + 7 / LN(4)    # rank 3: (2^3-1)/ln 4
              + 0 / LN(5)    # rank 4: (2^0-1)/ln 5
              + 1 / LN(6)    # rank 5: (2^1-1)/ln 6
              + 3 / LN(7)    # rank 6: (2^2-1)/ln 7
              + 3 / LN(8))   # rank 7: (2^2-1)/ln 8
# ideal 3, 3, 2, 2, 2, 1, 0
IDCG_MAC_LN = 7 / LN(2) + 7 / LN(3) + 3 / LN(4) + 3 / LN(5) + 3 / LN(6) + 1 / LN(7) + 0 / LN(8)
# 000 神仙水, grades 2, 2, 3, 1, 2, 3, 1
DCG_SXS_LN = (3 / LN(2)      # rank 1: (2^2-1)/ln 2
              + 3 / LN(3)    # rank 2: (2^2-1)/ln 3
              + 7 / LN(4)    # rank 3: (2^3-1)/ln 4
              + 1 / LN(5)    # rank 4: (2^1-1)/ln 5
              + 3 / LN(6)    # rank 5: (2^2-1)/ln 6
              + 7 / LN(7)    # rank 6: (2^3-1)/ln 7
              + 1 / LN(8))   # rank 7: (2^1-1)/ln 8
# ideal 3, 3, 2, 2, 2, 1, 1
IDCG_SXS_LN = 7 / LN(2) + 7 / LN(3) + 3 / LN(4) + 3 / LN(5) + 3 / LN(6) + 1 / LN(7) + 1 / LN(8)

# 002 lipstick A 5, 1, 3, 2, 4 / B 5, 3, 4, 2, 1 / ideal 5, 4, 3, 2, 1; gain 2^s - 1, discount log2(i + 1)
DCG_A = 31 / L2(2) + 1 / L2(3) + 7 / L2(4) + 3 / L2(5) + 15 / L2(6)   # ranks 1..5
DCG_B = 31 / L2(2) + 7 / L2(3) + 15 / L2(4) + 3 / L2(5) + 1 / L2(6)
IDCG_LIP = 31 / L2(2) + 15 / L2(3) + 7 / L2(4) + 3 / L2(5) + 1 / L2(6)

# 004 movies 5, 3, 2, 1, 2; ideal top 5 of 5, 3, 2, 1, 2, 4, 0 is 5, 4, 3, 2, 2
DCG_MOVIES = 31 / L2(2) + 7 / L2(3) + 3 / L2(4) + 1 / L2(5) + 3 / L2(6)
IDCG_MOVIES = 31 / L2(2) + 15 / L2(3) + 7 / L2(4) + 3 / L2(5) + 3 / L2(6)

AP_000_1 = (R(1, 1) + R(2, 2) + R(3, 5)) / 3                  # relevant at ranks 1, 2, 5
AP_000_2 = (R(1, 2) + R(2, 3) + R(3, 6) + R(4, 7)) / 4        # relevant at ranks 2, 3, 6, 7
AP_004_1 = (R(1, 1) + R(2, 2) + R(3, 4) + R(4, 7)) / 4        # ranks 1, 2, 4, 7 of 4 relevant
AP_004_2 = (R(1, 1) + R(2, 3) + R(3, 5) + 0 + 0) / 5          # ranks 1, 3, 5 of 5 relevant
# ERR, g_max = 3, grades 3, 2, 3, 1: R = 7/8, 3/8, 7/8, 1/8
ERR_LIP = (R(7, 8)                                             # rank 1: R1
           + R(1, 2) * R(1, 8) * R(3, 8)                       # rank 2: (1-R1) R2 / 2
           + R(1, 3) * R(1, 8) * R(5, 8) * R(7, 8)             # rank 3: (1-R1)(1-R2) R3 / 3
           + R(1, 4) * R(1, 8) * R(5, 8) * R(1, 8) * R(1, 8))  # rank 4: (1-R1)(1-R2)(1-R3) R4 / 4

HAND = {
    "000-mrr-three-queries": (R(1, 2) + 1 + R(1, 3)) / 3,   # first hits at ranks 2, 1, 3
    "000-ap-mac-lipstick": AP_000_1,
    "000-ap-shenxianshui": AP_000_2,
    "000-map-two-queries": (AP_000_1 + AP_000_2) / 2,
    "000-dcg-mac-lipstick": DCG_MAC_LN,
    "000-idcg-mac-lipstick": IDCG_MAC_LN,
    "000-ndcg-mac-lipstick": DCG_MAC_LN / IDCG_MAC_LN,
    "000-dcg-shenxianshui": DCG_SXS_LN,
    "000-idcg-shenxianshui": IDCG_SXS_LN,
    "000-ndcg-shenxianshui": DCG_SXS_LN / IDCG_SXS_LN,
    "000-ndcg-mean-two-queries": (DCG_MAC_LN / IDCG_MAC_LN + DCG_SXS_LN / IDCG_SXS_LN) / 2,
    "000-err-lipstick": ERR_LIP,
    "001-precision-at-2": R(1 + 0, 2),
    "002-cg-lipstick-a": 5 + 1 + 3 + 2 + 4,
    "002-cg-lipstick-b": 5 + 3 + 4 + 2 + 1,
    "002-dcg-lipstick-a": DCG_A,
    "002-dcg-lipstick-b": DCG_B,
    "002-idcg-lipstick": IDCG_LIP,
    "002-ndcg-lipstick-a": DCG_A / IDCG_LIP,
    "002-ndcg-lipstick-b": DCG_B / IDCG_LIP,
    "004-ap-topic1": AP_004_1,
    "004-ap-topic2": AP_004_2,
    "004-map-two-topics": (AP_004_1 + AP_004_2) / 2,
    "004-mrr-three-queries": (R(1, 3) + R(1, 2) + 1) / 3,
    "004-cg-movies": 5 + 3 + 2 + 1 + 2,
    "004-cg-movies-swapped": 5 + 2 + 3 + 1 + 2,
    "004-dcg-movies": DCG_MOVIES,
    "004-idcg-movies": IDCG_MOVIES,
    "004-ndcg-movies": DCG_MOVIES / IDCG_MOVIES,
}

# Judged by reading the documents: the printed values that are wrong at the precision printed.
PRINTED_WRONG = {"000-map-two-queries", "000-err-lipstick", "004-idcg-movies", "004-ndcg-movies"}


def test_every_example_has_a_hand_value():
    assert {ex.id for ex in examples.WORKED_EXAMPLES} == set(HAND)


@pytest.mark.parametrize("ex", examples.WORKED_EXAMPLES, ids=lambda ex: ex.id)
def test_example_exact_value(ex):
    assert same(sympy.sympify(ex.exact), sympy.sympify(HAND[ex.id]))
    assert ex.value == pytest.approx(float(sympy.N(HAND[ex.id], 30)), rel=1e-12)
    assert ex.explanation().exact == ex.exact
    assert ex.document in examples.DOCUMENTS.values() and ex.id[:3] == ex.document[:3] == ex.post.number


@pytest.mark.parametrize("ex", examples.WORKED_EXAMPLES, ids=lambda ex: ex.id)
def test_matches_is_computed(ex):
    assert ex.matches is (ex.id not in PRINTED_WRONG)


def test_rational_examples_are_rationals():
    assert examples.by_id("000-map-two-queries").exact == R(599, 840)
    assert examples.by_id("004-map-two-topics").exact == R(10783, 16800)
    assert examples.by_id("000-err-lipstick").exact == R(45295, 49152)


def test_printed_document_values_at_their_precision():
    # 000 prints ln-based DCGs; the same with log2 is ln 2 times smaller
    assert round(float(DCG_MAC_LN), 6) == 21.421516 and round(float(IDCG_MAC_LN), 6) == 22.686817
    assert round(float(DCG_MAC_LN * LN(2)), 6) == 14.848264
    # 004: the mean of the rounded APs happens to agree with the exact MAP
    assert round((0.83 + 0.45) / 2, 2) == round(float((AP_004_1 + AP_004_2) / 2), 2) == 0.64
    # 004: 38.5 / 46.5 = 0.82796..., which the document truncated to 0.827
    assert math.floor(38.5 / 46.5 * 1000) == 827 and round(38.5 / 46.5, 3) == 0.828


@pytest.mark.parametrize("printed, exact, expected", [
    ("0.64", R(10783, 16800), True),                 # 0.641845 rounds to 0.64
    ("0.65", R(10783, 16800), False),
    ("599/420", R(599, 840), False),
    ("11/18 = 0.61", R(11, 18), True),
    ("11/18 = 0.62", R(11, 18), False),
    ("15", sympy.Integer(15), True),
    ("42.225751536309765", DCG_A, True),             # a float64 repr: within four ulps
    ("42.22575153630", DCG_A, False),                # 42.2257515363098 at 13 places
])
def test_printed_agrees(printed, exact, expected):
    assert examples.printed_agrees(printed, exact) is expected


def test_printed_agrees_rejects_non_numbers():
    with pytest.raises(ValueError, match="printed = 'about 3' is not a number"):
        examples.printed_agrees("about 3", R(3))


# --- the documents' code, ported to run here ---------------------------------------------------

def doc004_mean_reciprocal_rank(results, relevant_docs):
    for i, r in enumerate(results):
        if r in relevant_docs:
            return 1.0 / (i + 1)
    return 0.0


def doc004_average_precision(results, relevant_docs):
    precision = 0.0
    num_relevant = 0
    for i, r in enumerate(results):
        if r in relevant_docs:
            num_relevant += 1
            precision += num_relevant / (i + 1)
    return precision / len(relevant_docs)


def doc004_mean_average_precision(results_list, relevant_docs_list):
    map_score = 0.0
    for results, relevant_docs in zip(results_list, relevant_docs_list):
        map_score += doc004_average_precision(results, relevant_docs)
    return map_score / len(results_list)


def doc004_ndcg(recommended_items, relevant_items, k):
    dcg = 0.0
    idcg = np.sum(1.0 / np.log2(np.arange(2, k + 2)))
    for i, r in enumerate(recommended_items[:k]):
        if r in relevant_items:
            dcg += 1.0 / np.log2(i + 2)
    return dcg / idcg


def doc003_ndcg_score(y_true, y_score, k=10, gains="exponential"):
    """Document 003's torch code with NumPy in place of torch (same broadcasting rules)."""
    def dcg_score(y_score, k=k, gains="exponential"):
        y_score_k = np.asarray(y_score[:k], dtype=float)
        if gains == "exponential":
            gains = np.power(2.0, y_score_k) - 1.0
        elif gains == "linear":
            gains = y_score_k
        else:
            raise ValueError("Invalid gains option.")
        discounts = np.log2(np.arange(k).astype(float) + 2)
        return np.sum(gains / discounts)

    best = dcg_score(y_true, k, gains)
    actual = dcg_score(y_score, k, gains)
    return float(actual / best)


def test_doc004_mrr_code():
    value = doc004_mean_reciprocal_rank([3, 4, 2, 1, 5], [1, 3, 5])
    assert value == 1.0                                   # result 3 at rank 1 is relevant
    erratum = examples.by_id("004-code-mrr")
    assert erratum.printed == "0.3333" and erratum.exact == 1
    assert not examples.printed_agrees(erratum.printed, erratum.exact)


def test_doc004_map_code():
    results_list = [[3, 4, 2, 1, 5], [3, 2, 4, 5, 1], [7, 6, 5, 4, 3]]
    relevant_docs_list = [[1, 3, 5], [2, 4, 6], [3, 5, 7]]
    value = doc004_mean_average_precision(results_list, relevant_docs_list)
    # AP: (1/1 + 2/4 + 3/5)/3 = 7/10; (1/2 + 2/3)/3 = 7/18; (1/1 + 2/3 + 3/5)/3 = 34/45
    hand = (R(7, 10) + R(7, 18) + R(34, 45)) / 3
    assert hand == R(83, 135) and value == pytest.approx(float(hand), rel=1e-15)
    erratum = examples.by_id("004-code-map")
    assert erratum.exact == hand and erratum.printed == "0.5"
    assert not examples.printed_agrees(erratum.printed, erratum.exact)


def test_doc004_ndcg_code():
    value = doc004_ndcg([1, 2, 3, 4, 5], [1, 3, 5], 5)
    # the code: DCG = 1/log2 2 + 1/log2 4 + 1/log2 6, IDCG = sum 1/log2(i+1) over ranks 1..5
    code_hand = (1 / L2(2) + 1 / L2(4) + 1 / L2(6)) / sum(1 / L2(i + 1) for i in range(1, 6))
    assert value == pytest.approx(float(code_hand), rel=1e-12)
    assert round(value, 4) != 0.6244
    # correct: 3 relevant items, ideal 1, 1, 1, 0, 0
    correct = (1 / L2(2) + 1 / L2(4) + 1 / L2(6)) / (1 / L2(2) + 1 / L2(3) + 1 / L2(4))
    erratum = examples.by_id("004-code-ndcg")
    assert same(erratum.exact, correct)
    assert f"{value:.6f}" in erratum.correct
    assert not examples.printed_agrees(erratum.printed, erratum.exact)


def test_doc003_code_uses_scores_as_grades():
    # grades 0, 1, 2 scored 0.1, 0.5, 0.9: the model puts grade 2 first, a perfect order
    value = doc003_ndcg_score([0, 1, 2], [0.1, 0.5, 0.9], k=3)
    erratum = examples.by_id("003-code-scores-as-gains")
    assert erratum.exact == 1                            # lt.ndcg([2, 1, 0])
    assert value < 0.4 and f"{value:.4f}" in erratum.correct


def test_doc003_code_ideal_is_not_sorted():
    # best = DCG of y_true as given: 0 + 1/log2 3 + 3/log2 4, below the ideal 3 + 1/log2 3
    y_true = [0, 1, 2]
    best = doc003_ndcg_score(y_true, [2, 1, 0], k=3)  # actual/best with actual = DCG of 2, 1, 0
    ideal = 3 / L2(2) + 1 / L2(3) + 0 / L2(4)
    given = 0 / L2(2) + 1 / L2(3) + 3 / L2(4)
    assert best == pytest.approx(float(ideal / given), rel=1e-12) and best > 1   # an 'NDCG' above 1


def test_doc003_code_fails_on_short_lists():
    with pytest.raises(ValueError, match="operands could not be broadcast"):
        doc003_ndcg_score([2, 1, 0], [0.9, 0.5, 0.1])        # default k = 10, three items


def test_doc003_err_to_dcg_is_not_dcg():
    rs = [R(7, 8), R(3, 8), R(7, 8), R(1, 8)]                 # grades 3, 2, 3, 1, g_max = 3

    def changed_err(discount):
        total, reach = 0, 1
        for r, rel in enumerate(rs, start=1):
            total += reach * rel * discount(r)
            reach *= 1 - rel
        return total

    log2_r_plus_1 = changed_err(lambda r: 1 / L2(r + 1))
    log2_r_then_plus_1 = changed_err(lambda r: 1 / (L2(r) + 1))
    dcg = 7 / L2(2) + 3 / L2(3) + 7 / L2(4) + 1 / L2(5)      # ranks 1..4, gain 2^g - 1
    erratum = examples.by_id("003-err-to-dcg")
    assert same(erratum.exact, dcg)
    for variant in (log2_r_plus_1, log2_r_then_plus_1):
        assert not same(variant, dcg) and not same(variant, dcg / 8)
    # the record computes the formula as quoted, 1/(log2 r + 1), and compares on ERR's scale, DCG / 2^3
    assert f"{float(log2_r_then_plus_1):.6f}" in erratum.correct
    assert f"{float(dcg / 8):.6f}" in erratum.correct
    # dropping the cascade product does give DCG / 2^g_max
    assert same(sum(rel / L2(r + 1) for r, rel in enumerate(rs, start=1)), dcg / 8)


# --- errata with values --------------------------------------------------------------------------

ERRATA_HAND = {
    "000-mrr-sum": (R(1, 2) + 1 + R(1, 3)) / 3,
    "000-map-value": (AP_000_1 + AP_000_2) / 2,
    # log2 DCG of 3, 2, 3, 0, 1, 2, 2: 7/1 + 3/log2 3 + 7/2 + 0 + 1/log2 6 + 3/log2 7 + 3/3
    "000-ndcg-log-base": 7 + 3 / L2(3) + R(7, 2) + 0 + 1 / L2(6) + 3 / L2(7) + 1,
    "000-err-value": ERR_LIP,
    # F2 with P = 1/2, R = 2/3: (1+4) P R / (4 P + R) = (5/3) / (8/3)
    "000-f-beta-formula": R(5, 8),
    "003-f-measure-formula": R(5, 8),
    "000-auc-minimum": 0,                                     # the only positive scores below the negative
    "001-ndcg-range": 0,                                      # DCG 0, IDCG 1
    "001-ap-equals-one": (R(1, 1) + R(2, 2)) / 2,             # relevant at ranks 1, 2
    "001-ap-every-position": (R(1, 1) + R(2, 3)) / 2,         # relevant at ranks 1 and 3 of 1, 0, 1
    "003-ap-sum": (R(1, 1) + R(2, 2)) / 2,                    # P at recall 1/2 and 1, each step 1/2
    # AP of 0, 1: one relevant item, at rank 2, precision 1/2 there
    "000-only-ndcg-err-top": R(1, 2),
    "003-code-scores-as-gains": 1,
    "003-err-to-dcg": 7 / L2(2) + 3 / L2(3) + 7 / L2(4) + 1 / L2(5),
    "004-idcg-value": IDCG_MOVIES,
    "004-ndcg-value": DCG_MOVIES / IDCG_MOVIES,
    "004-code-mrr": 1,
    "004-code-map": (R(7, 10) + R(7, 18) + R(34, 45)) / 3,
    "004-code-ndcg": (1 + R(1, 2) + 1 / L2(6)) / (1 + 1 / L2(3) + R(1, 2)),
}

# Errata whose printed part is a number that must disagree with the exact correct value.
NUMERIC_PRINTED = {"000-map-value", "000-err-value", "004-idcg-value", "004-ndcg-value",
                   "004-code-mrr", "004-code-map", "004-code-ndcg"}


def test_errata_with_values_are_exactly_those_with_a_call():
    assert {e.id for e in examples.ERRATA if e.call is not None} == set(ERRATA_HAND)


@pytest.mark.parametrize("erratum", [e for e in examples.ERRATA if e.call is not None], ids=lambda e: e.id)
def test_erratum_correct_value(erratum):
    assert same(sympy.sympify(erratum.exact), sympy.sympify(ERRATA_HAND[erratum.id]))


@pytest.mark.parametrize("erratum_id", sorted(NUMERIC_PRINTED))
def test_erratum_printed_value_is_wrong(erratum_id):
    erratum = examples.by_id(erratum_id)
    assert not examples.printed_agrees(erratum.printed, erratum.exact)


def test_errata_formulas_as_printed():
    p, r = R(1, 2), R(2, 3)
    assert (1 + 2**2) * (p + r) / (2**2 * p + r) == R(35, 16)       # 000's F_beta, beta = 2: above 1
    assert (1 + 1) * (p + r) / (p + r) == 2                          # 000's F_beta, beta = 1: always 2
    assert (2**2 + 1) * p * r / (2**2 * (p + r)) == R(5, 14)         # 003's F, a = 2
    assert (1 + 1) * p * r / (1 * (p + r)) == 2 * p * r / (p + r)    # 003's F agrees at a = 1 only
    assert (AP_000_1 + AP_000_2) == R(599, 420)                      # 000 printed the sum as MAP
    assert R(1, 2) + 1 + R(1, 3) == R(11, 6) > 1                     # 000's 'sum' MRR
    assert lt.precision_at_k([1, 1, 0, 0], 3).exact == R(2, 3)       # 001: P@3 < 1 yet AP = 1


def test_errata_fields_and_ids():
    ids = [r.id for r in examples.WORKED_EXAMPLES + examples.ERRATA]
    assert len(ids) == len(set(ids))
    assert len(examples.ERRATA) >= 20
    for e in examples.ERRATA:
        assert re.fullmatch(r"00[0-4]-[a-z0-9-]+", e.id)
        assert e.document == examples.DOCUMENTS[e.id[:3]] and e.post is examples.POSTS[e.id[:3]]
        assert e.where and e.printed and e.correct and e.explanation
        if e.call is None:
            assert e.exact is None


def test_by_id():
    assert examples.by_id("000-ndcg-mac-lipstick").printed == "0.944227"
    assert examples.by_id("000-map-value").document == "000_b1a303f0d127bb54.txt"
    with pytest.raises(ValueError, match=r"id = 'no-such' is not a worked example or erratum; valid ids: 000-"):
        examples.by_id("no-such")


def test_call_rejects_unknown_function_and_prints_itself():
    with pytest.raises(ValueError, match="function = 'eval' is not a library function"):
        examples.Call("eval", ("1",))
    assert str(examples.by_id("000-dcg-mac-lipstick").call) == \
        "lt.ndcg([3, 2, 3, 0, 1, 2, 2], k=7, discount='ln').parts['dcg']"


def test_items_name_the_ranked_items():
    mrr = examples.by_id("000-mrr-three-queries")
    assert mrr.queries == ("眼霜", "神仙水", "面膜")
    assert mrr.items[0] == ("小棕瓶精华", "小棕瓶眼霜", "面霜")
    for ex in examples.WORKED_EXAMPLES:
        if ex.items and not ex.queries:
            assert len(ex.items) == len(ex.explanation().steps)


def test_mean_ndcg_steps():
    ex = examples.mean_ndcg({"a": [1, 0], "b": [0, 1]}, k=2)
    # a: perfect order, NDCG 1; b: (1/log2 3) / 1
    assert same(ex.exact, (1 + 1 / L2(3)) / 2)
    assert [row["query"] for row in ex.steps] == ["a", "b"]


# --- text output and the command line -------------------------------------------------------------

def test_format_examples_lists_every_example_and_flags_mismatches():
    text = examples.format_examples()
    lines = {line.split()[0]: line for line in text.splitlines() if line.startswith("00")}
    assert set(lines) == {ex.id for ex in examples.WORKED_EXAMPLES}
    assert {i for i, line in lines.items() if line.endswith("MISMATCH")} == PRINTED_WRONG
    assert "599/840 ≈ 0.713095" in lines["000-map-two-queries"]
    assert "45295/49152 ≈ 0.921529" in lines["000-err-lipstick"]


def test_format_errata_lists_every_erratum():
    text = examples.format_errata()
    for e in examples.ERRATA:
        assert f"{e.id}  post {e.id[:3]} · {e.post.title}" in text and e.document not in text
    assert "599/840 ≈ 0.713095" in text


@pytest.mark.parametrize("command, expected", [("examples", "000-ndcg-mac-lipstick"), ("errata", "000-map-value")])
def test_cli(command, expected, capsys):
    assert main([command]) == 0
    out = capsys.readouterr().out
    assert expected in out


def test_cli_output_piped_into_head_ends_quietly():
    import os
    import subprocess
    import sys

    env = {**os.environ, "PYTHONPATH": os.path.dirname(os.path.dirname(os.path.abspath(__file__)))}
    cli = subprocess.Popen([sys.executable, "-m", "ltr_teach.cli", "errata"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, env=env)
    cli.stdout.readline()
    cli.stdout.close()                                # what `| head -1` does
    stderr = cli.stderr.read()
    assert cli.wait(timeout=60) == 0 and b"Traceback" not in stderr and stderr == b""


@pytest.mark.parametrize("record_id, decimal, hand, places", [
    ("000-ndcg-log-base", "14.848264", DCG_MAC_LN * LN(2), 6),        # ln values times ln 2 are log2 values
    ("000-ndcg-log-base", "15.725304", IDCG_MAC_LN * LN(2), 6),
    ("000-map-value", "1.426", R(599, 420), 3),
    ("004-idcg-value", "9.464", 15 / L2(3), 3),                       # rank 2 of the ideal: (2^4-1)/log2 3
    ("004-idcg-value", "1.292", 3 / L2(5), 3),                        # rank 4: (2^2-1)/log2 5
    ("004-idcg-value", "46.4165", IDCG_MOVIES, 4),
    ("004-ndcg-value", "0.82796", R(385, 465), 5),                    # 38.5 / 46.5
    ("004-ndcg-value", "0.8296", DCG_MOVIES / IDCG_MOVIES, 4),
    ("004-dcg-movies", "38.5077", DCG_MOVIES, 4),
    ("004-idcg-movies", "1.161", 3 / L2(6), 3),                       # rank 5: (2^2-1)/log2 6
])
def test_decimals_quoted_in_the_prose(record_id, decimal, hand, places):
    record = examples.by_id(record_id)
    if isinstance(record, examples.WorkedExample):
        text = record.note
    else:
        text = f"{record.correct} {record.explanation}"
    assert decimal in text
    assert f"{float(sympy.N(hand, 30)):.{places}f}" == decimal
