"""R-precision, success@k, bpref, judged@k, RBP and its residual, recall rules: hand-computed values."""

import pytest
import sympy
from sympy import Rational

import ltr_teach as lt
from ltr_teach.metrics.binary import RECALL_RULES, relevant_needed


class TestRPrecision:
    def test_hits_in_the_top_r(self):
        # R = 3; top 3 = 1, 0, 1: two hits -> 2/3
        assert lt.r_precision([1, 0, 1, 1, 0], n_relevant=3).exact == Rational(2, 3)

    def test_short_list_counts_missing_ranks_as_misses(self):
        # R = 5 but only 3 retrieved, two relevant: 2/5
        ex = lt.r_precision([1, 1, 0], n_relevant=5)
        assert ex.exact == Rational(2, 5) and any("beyond the list" in n for n in ex.notes)

    def test_no_relevant_document_gives_zero(self):
        assert lt.r_precision([0, 0]).exact == 0

    def test_equals_precision_and_recall_at_r(self):
        rels = [0, 1, 1, 0, 1, 0, 0, 1]
        r = 6
        assert lt.r_precision(rels, n_relevant=r).exact == lt.precision_at_k(rels, r).exact \
            == lt.recall_at_k(rels, r, n_relevant=r).exact


class TestSuccess:
    @pytest.mark.parametrize("k, expected", [(1, 0), (2, 0), (3, 1), (10, 1)])
    def test_first_hit_at_rank_3(self, k, expected):
        assert lt.success_at_k([0, 0, 1, 0], k=k).exact == expected

    def test_grades_with_threshold(self):
        assert lt.success_at_k([1, 2, 0], k=2, threshold=2).exact == 1   # rank 2 has grade 2


class TestBpref:
    def test_by_hand(self):
        # ranks: N, R, U, N, R; R = 2, N = 3 (one judged non-relevant never retrieved)
        # rank 2: one non-relevant above: 1 - min(1, 2)/min(3, 2) = 1/2
        # rank 5: two above: 1 - min(2, 2)/2 = 0
        ex = lt.bpref([0, 1, None, 0, 1], n_relevant=2, n_nonrelevant=3)
        assert ex.exact == Rational(1, 4)   # (1/2 + 0) / 2
        assert [r.get("term") for r in ex.steps] == [None, Rational(1, 2), None, None, 0]

    def test_unjudged_documents_are_skipped(self):
        # the unjudged documents above the relevant one do not count against it
        assert lt.bpref([None, None, 1], n_relevant=1, n_nonrelevant=4).exact == 1

    def test_few_non_relevant_judged_divides_by_min(self):
        # R = 3, N = 1: one non-relevant above the 2nd and 3rd relevant: 1 - 1/1 = 0 each; first gets 1
        assert lt.bpref([1, 0, 1, 1]).exact == Rational(1, 3)

    def test_n_nonrelevant_below_the_list_count_is_refused(self):
        with pytest.raises(ValueError, match="n_nonrelevant = 0 is smaller than the 1 judged non-relevant"):
            lt.bpref([1, 0], n_nonrelevant=0)


class TestJudged:
    def test_share_of_the_top_k(self):
        assert lt.judged_at_k([1, None, 0, 2, None], k=4).exact == Rational(3, 4)
        assert lt.judged_at_k([1, None, 0, 2, None]).exact == Rational(3, 5)

    def test_short_list_divides_by_its_length(self):
        assert lt.judged_at_k([None, 0], k=10).exact == Rational(1, 2)


class TestRBP:
    def test_by_hand(self):
        # p = 4/5: ranks 1 and 3 relevant: (1/5)(1 + 16/25) = 41/125
        ex = lt.rbp([1, 0, 1])
        assert ex.exact == Rational(41, 125)
        # residual: nothing unjudged, tail p^3 = 64/125
        assert ex.parts["residual"].exact == Rational(64, 125)

    def test_residual_counts_unjudged_ranks_and_the_tail(self):
        # p = 1/2, rank 2 unjudged, depth 3: (1/2)(1/2) + 1/8 = 3/8
        assert lt.rbp_residual([1, None, 0], p=Rational(1, 2)).exact == Rational(3, 8)
        # cut at k = 2: (1/2)(1/2) + (1/2)^2 = 1/2
        assert lt.rbp_residual([1, None, 0], p=Rational(1, 2), k=2).exact == Rational(1, 2)

    def test_every_rank_relevant_plus_residual_is_one(self):
        # RBP + residual bounds the value for an infinite list of relevant documents: 1
        ex = lt.rbp([1, 1, 1, 1], p=Rational(3, 4))
        assert ex.exact + ex.parts["residual"].exact == 1

    def test_grade_weight_is_ranx(self):
        # ranx: a relevant document adds its grade: (1/5)(2 + 1·4/5) = 14/25
        assert lt.rbp([2, 1, 0], convention="ranx").exact == Rational(14, 25)
        assert lt.rbp([2, 1, 0]).exact == Rational(1, 5) * (1 + Rational(4, 5))

    @pytest.mark.parametrize("p", [0, 1, 1.5, -0.1])
    def test_p_must_lie_strictly_between_0_and_1(self, p):
        with pytest.raises(ValueError, match="must lie strictly between 0 and 1"):
            lt.rbp([1], p=p)


class TestRecallRules:
    @pytest.mark.parametrize("level, n_rel, expected", [
        # r·R = 1.4: ceil 2; trec_eval 9: int(2.3) = 2; trec_eval 10: round(1.4) = 1
        (Rational(1, 5), 7, {"textbook": 2, "trec_eval_9": 2, "trec_eval_10": 1}),
        # r·R = 2.1: ceil 3; int(2.1 + 0.9) = 3; round 2
        (Rational(3, 10), 7, {"textbook": 3, "trec_eval_9": 3, "trec_eval_10": 2}),
        # r·R = 0.7·3, which is 2.0999999999999996 in double: ceil 3; int(2.9999999999999996) = 2; round 2
        (Rational(7, 10), 3, {"textbook": 3, "trec_eval_9": 2, "trec_eval_10": 2}),
        # r·R = 1.5: ceil 2; int(2.4) = 2; lround(1.5) = 2 (halves away from zero)
        (Rational(3, 10), 5, {"textbook": 2, "trec_eval_9": 2, "trec_eval_10": 2}),
        # r·R = 0.5: ceil 1; int(1.4) = 1; lround(0.5) = 1
        (Rational(1, 10), 5, {"textbook": 1, "trec_eval_9": 1, "trec_eval_10": 1}),
        # r·R = 0.4: ceil 1; int(1.3) = 1; round 0
        (Rational(1, 10), 4, {"textbook": 1, "trec_eval_9": 1, "trec_eval_10": 0}),
    ])
    def test_counts(self, level, n_rel, expected):
        assert {rule: relevant_needed(level, n_rel, rule) for rule in RECALL_RULES} == expected

    def test_trec_eval_9_is_the_ceiling_for_tenths_but_for_rounding_error(self):
        # +0.9 then truncation equals ceil(r·R) whenever r·R is a multiple of 0.1, unless the double
        # product falls just below the exact one: for R <= 59 that happens at 0.7·3, 0.7·23, 0.7·33,
        # 0.7·43, 0.7·53 and 0.3·57 only.
        differ = [(j, r) for r in range(1, 60) for j in range(11)
                  if relevant_needed(Rational(j, 10), r, "trec_eval_9") != relevant_needed(Rational(j, 10), r)]
        assert differ == [(7, 3), (7, 23), (7, 33), (7, 43), (7, 53), (3, 57)]

    def test_eleven_point_steps_show_where_the_rules_differ(self):
        # R = 3, relevant at ranks 1, 5 and 10. Recall 0.7: the textbook needs 3 relevant documents, the best
        # precision at or below rank 10 is 3/10; trec_eval 9 needs 2, the best at or below rank 5 is 2/5.
        rels = [1, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        textbook = lt.eleven_point_ap(rels)
        trec = lt.eleven_point_ap(rels, convention="trec_eval")
        row = next(r for r in trec.steps if r["level"] == Rational(7, 10))
        assert (row["needed"], row["textbook"], row["interpolated"]) == (2, 3, Rational(2, 5))
        assert next(r for r in textbook.steps if r["level"] == Rational(7, 10))["interpolated"] == Rational(3, 10)
        assert any("recall 7/10: 2 instead of 3" in n for n in trec.notes)
        # levels 0..0.3 need 1 document (precision 1), 0.4..0.6 need 2 (2/5), 0.7 differs, 0.8..1 need 3 (3/10)
        assert textbook.exact == (4 * 1 + 3 * Rational(2, 5) + 4 * Rational(3, 10)) / 11
        assert trec.exact == (4 * 1 + 4 * Rational(2, 5) + 3 * Rational(3, 10)) / 11

    def test_interpolated_precision_at_one_level_takes_the_rule(self):
        rels = [1, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        at = {rule: lt.interpolated_precision(rels, recall=Rational(7, 10), rule=rule).exact for rule in RECALL_RULES}
        assert at == {"textbook": Rational(3, 10), "trec_eval_9": Rational(2, 5), "trec_eval_10": Rational(2, 5)}


def test_every_new_metric_has_a_registry_entry_and_a_hint():
    from ltr_teach.teaching.hints import GENERIC_HINTS

    for name in ("r_precision", "success_at_k", "bpref", "judged_at_k", "rbp", "rbp_residual"):
        assert lt.METRICS[name].func is getattr(lt, name)
        assert GENERIC_HINTS[name]


def test_rbp_steps_show_the_arithmetic():
    ex = lt.rbp([1, None, 1], p=sympy.Rational(1, 2))
    assert [r["reach"] for r in ex.steps] == [1, Rational(1, 2), Rational(1, 4)]
    assert [r["rel"] for r in ex.steps] == [1, "unjudged", 1]
    assert ex.exact == Rational(5, 8)   # (1/2)(1 + 1/4)


def test_cli_explains_the_new_measures(capsys):
    from ltr_teach.cli import main

    # "-" marks an unjudged document: (1 + (1 - 1/2)) / 3 as in bpref's docstring
    assert main(["explain", "bpref", "1", "0", "-", "1", "--n-relevant", "3", "--n-nonrelevant", "2"]) == 0
    assert capsys.readouterr().out.strip().endswith("bpref = 1/2 = 0.5")
    assert main(["explain", "rbp", "1", "0", "1", "--p", "1/2"]) == 0   # (1/2)(1 + 1/4)
    assert capsys.readouterr().out.strip().endswith("RBP(p=1/2) = 5/8 = 0.625")
    # R = 3 hits at ranks 1, 5, 10: levels 0..0.3 -> 1, 0.4..0.6 -> 2/5, 0.7 -> 2/5 (trec 9), 0.8..1 -> 3/10
    assert main(["explain", "11pt", "1", "0", "0", "0", "1", "0", "0", "0", "0", "1", "--rule", "trec_eval_9"]) == 0
    assert capsys.readouterr().out.strip().endswith("11-point AP = 13/22 ≈ 0.590909")
    assert main(["explain", "rprec", "1", "0", "1", "--n-relevant", "4"]) == 0   # 2 hits in 3 ranks of R = 4
    assert "R-precision = 1/2 = 0.5" in capsys.readouterr().out
    assert main(["explain", "ndcg", "1", "-", "2"]) == 2   # only the judgment-aware metrics take "-"
    assert "value = '-' is not a number" in capsys.readouterr().err
