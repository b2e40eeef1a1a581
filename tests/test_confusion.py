"""The confusion matrix of a ranking cut at k, and the teaching tables built on the library."""

import itertools
from fractions import Fraction

import pytest
import sympy

import ltr_teach as lt
from ltr_teach.core.table import Table
from ltr_teach.teaching.tables import examples_table, library_value, ndcg_cutoffs

RELS = [1, 1, 0, 1, 0, 0, 1, 0, 0, 0]   # relevant at ranks 1, 2, 4, 7


@pytest.mark.parametrize(
    ("k", "expected"),
    [
        # top 0: nothing retrieved; the 4 relevant are missed, the 6 others correctly left out
        (0, {"TP": 0, "FP": 0, "FN": 4, "TN": 6}),
        # top 3 = 1, 1, 0: two hits, one false alarm; ranks 4 and 7 missed; ranks 5, 6, 8, 9, 10 true negatives
        (3, {"TP": 2, "FP": 1, "FN": 2, "TN": 5}),
        # top 5 = 1, 1, 0, 1, 0: three hits, two false alarms; rank 7 missed; ranks 6, 8, 9, 10
        (5, {"TP": 3, "FP": 2, "FN": 1, "TN": 4}),
        # the whole list: every relevant found, no true negative left
        (10, {"TP": 4, "FP": 6, "FN": 0, "TN": 0}),
    ],
)
def test_counts_by_hand(k, expected):
    assert lt.confusion_matrix(RELS, k).as_dict() == expected


def test_rates_are_exact_and_match_p_and_r_at_k():
    cm = lt.confusion_matrix(RELS, 5)
    assert (cm.precision, cm.recall, cm.accuracy) == (sympy.Rational(3, 5), sympy.Rational(3, 4), sympy.Rational(7, 10))
    for k in range(1, len(RELS) + 1):
        cm = lt.confusion_matrix(RELS, k)
        assert cm.precision == lt.precision_at_k(RELS, k).exact
        assert cm.recall == lt.recall_at_k(RELS, k).exact
        assert cm.total == len(RELS)


def test_counts_against_a_brute_force_count():
    # every 0/1 ranking of length 6 and every cut-off: count each cell by looking at each position
    for rels in itertools.product((0, 1), repeat=6):
        for k in range(7):
            counted = {"TP": 0, "FP": 0, "FN": 0, "TN": 0}
            for position, r in enumerate(rels):
                retrieved = position < k
                counted[("T" if retrieved == bool(r) else "F") + ("P" if retrieved else "N")] += 1
            assert lt.confusion_matrix(list(rels), k).as_dict() == counted


def test_relevant_outside_the_list_are_false_negatives():
    cm = lt.confusion_matrix(RELS, 5, n_relevant=6)   # two relevant documents never retrieved
    assert cm.as_dict() == {"TP": 3, "FP": 2, "FN": 3, "TN": 4}
    assert cm.recall == lt.recall_at_k(RELS, 5, n_relevant=6).exact == sympy.Rational(1, 2)


def test_never_click_on_document_000s_ctr_example():
    clicks = [1 if rank in (2, 10, 40) else 0 for rank in range(1, 1001)]
    never = lt.confusion_matrix(clicks, 0)
    assert never.as_dict() == {"TP": 0, "FP": 0, "FN": 3, "TN": 997}
    assert never.accuracy == Fraction(997, 1000) and never.precision is None and never.recall == 0
    model = lt.confusion_matrix(clicks, 10)   # top 10 holds ranks 2 and 10: 2 hits, 8 false alarms
    assert model.accuracy == Fraction(2 + 989, 1000)
    assert "undefined (0/0)" in str(never.rates())


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"rels": RELS, "k": 11}, r"k = 11 must be a whole number 0\.\.10"),
        ({"rels": RELS, "k": -1}, r"k = -1 must be"),
        ({"rels": RELS, "k": True}, r"k = True must be"),
        ({"rels": RELS, "k": 2, "n_relevant": 3}, r"n_relevant = 3 must be a whole number >= 4"),
        ({"rels": [1, 2], "k": 1}, r"rels\[1\] = 2"),
    ],
)
def test_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        lt.confusion_matrix(**kwargs)


def test_negative_count_refused():
    with pytest.raises(ValueError, match=r"fn = -1 must be a whole number >= 0"):
        lt.ConfusionMatrix(tp=1, fp=0, fn=-1, tn=0)


def test_table_rejects_ragged_rows_and_unknown_columns():
    with pytest.raises(ValueError, match=r"rows\[0\] has 1 cells; the header has 2"):
        Table(("a", "b"), (("x",),))
    with pytest.raises(ValueError, match=r"name = 'c' is not a column"):
        Table(("a", "b"), (("x", "y"),)).column("c")


# -- teaching tables -----------------------------------------------------------------------------

def test_library_value_rounds_to_the_documents_precision():
    # 599/840 = 0.713095238...: six places by default
    assert library_value(sympy.Rational(599, 840), "599/420") == "599/840 ≈ 0.713095"
    # the document printed 17 digits: show 17
    assert library_value(sympy.Rational(1, 3), "0.33333333333333331") == "1/3 ≈ 0.33333333333333333"
    assert library_value(sympy.Integer(15), "15") == "15"


def test_examples_table_flags_the_documents_wrong_numbers():
    table = examples_table("000-map-two-queries", "002-cg-lipstick-a")
    assert table.column("agrees") == ["NO", "yes"]     # 599/420 is the sum of two APs, CG 15 is right
    assert table.column("library (exact ≈ decimal)")[0] == "599/840 ≈ 0.713095"
    with pytest.raises(ValueError, match="at least one"):
        examples_table()


def _ndcg_changes_by_definition(grades, **kwargs):
    """NDCG@k against NDCG@(k-1), straight from lt.ndcg (the oracle for the table's change column)."""
    values = [float(lt.ndcg(grades, k=k, **kwargs)) for k in range(1, len(grades) + 1)]
    return ["–"] + ["same" if abs(b - a) <= 1e-12 else "rises" if b > a else "falls" for a, b in itertools.pairwise(values)]


@pytest.mark.parametrize("gain", ["exp2", "linear"])
def test_ndcg_cutoffs_rule_predicts_every_change(gain):
    # every grade vector of length 5 on a 0-2 scale with at least one relevant grade in the top 1..k
    for grades in itertools.product(range(3), repeat=5):
        if grades[0] == 0:
            continue   # keeps IDCG@(k-1) > 0 from k = 2 on, where the mediant rule applies
        table = ndcg_cutoffs(list(grades), gain=gain)
        changes = table.column("change")
        assert changes == _ndcg_changes_by_definition(list(grades), gain=gain)
        for change, rule in zip(changes[1:], table.column("rule: ratio vs NDCG@(k−1)")[1:]):
            assert rule.endswith(change), (grades, change, rule)


def test_ndcg_cutoffs_on_document_000s_queries():
    mac = ndcg_cutoffs([3, 2, 3, 0, 1, 2, 2])
    # gains 7, 3, 7, 0, 1, 3, 3 against the ideal's 7, 7, 3, 3, 3, 1, 0
    assert mac.column("gain / ideal gain")[:3] == ["1", "3/7 ≈ 0.4286", "7/3 ≈ 2.3333"]
    assert mac.column("change") == ["–", "falls", "rises", "falls", "falls", "rises", "rises"]
    sxs = ndcg_cutoffs([2, 2, 3, 1, 2, 3, 1])
    # k = 2 adds 3/7 of the ideal's gain, exactly NDCG@1 = 3/7: no change
    assert sxs.column("change")[1] == "same" and sxs.column("rule: ratio vs NDCG@(k−1)")[1] == "equal: same"
    with pytest.raises(ValueError, match="sets k itself"):
        ndcg_cutoffs([3, 2], k=2)


def test_documents_table_counts_each_record_once():
    from ltr_teach.teaching.tables import documents_table

    table = documents_table()
    body, total = table.rows[:-1], table.rows[-1]
    assert [row[0] for row in body] == [  # each post by its title, as the posts write them (tests/test_post_names.py)
        "post 000 · 最近想要总结一下 LTR的算法", "post 001 · 使用NDCG评估关键词推荐系统的相关性",
        "post 002 · Ranking算法评估指标:NDCG", "post 003 · 排序学习评价指标解析",
        "post 004 · IR的评价指标-MAP,MRR和NDCG的形象理解"]
    wrong_printed = (sum(not ex.matches for ex in lt.examples.WORKED_EXAMPLES)
                     + len(lt.examples.wrong_code_outputs()))
    by_kind = [str(sum(e.kind == kind for e in lt.examples.ERRATA)) for kind in lt.examples.KINDS]
    assert total == ("total", *by_kind, str(len(lt.examples.WORKED_EXAMPLES)), str(wrong_printed))
    for column in range(1, len(table.header)):
        assert sum(int(row[column]) for row in body) == int(total[column])
    # document 004: the films' IDCG 46.5 and NDCG 0.827, and its code comments' 0.3333, 0.5 and 0.6244
    row_004 = dict(zip(table.header, next(row for row in body if row[0].startswith("post 004"))))
    assert row_004["printed numbers wrong"] == "5"
    # document 000 prints MAP 599/420 (the sum of two APs) and ERR 0.913391 wrongly
    wrong_000 = {ex.id for ex in lt.examples.WORKED_EXAMPLES if ex.post.number == "000" and not ex.matches}
    assert {"000-map-two-queries", "000-err-lipstick"} <= wrong_000
