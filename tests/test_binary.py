"""RR, MRR, P@k, R@k, F-beta, AP, MAP, interpolated precision and 11-point AP, by hand."""

import pytest
from sympy import Integer, Rational

import ltr_teach as lt

# MAC口红 and 神仙水, document 000: relevance in ranked order.
MAC = [1, 1, 0, 0, 1, 0, 0]
SHENXIANSHUI = [0, 1, 1, 0, 0, 1, 1]


class TestReciprocalRank:
    @pytest.mark.parametrize("rels, expected", [
        ([1, 0, 0], Integer(1)),        # first hit at rank 1
        ([0, 1, 0], Rational(1, 2)),    # rank 2
        ([0, 0, 0, 0, 1], Rational(1, 5)),  # rank 5
        ([0, 1, 1], Rational(1, 2)),    # only the first hit counts
    ])
    def test_first_hit(self, rels, expected):
        assert lt.reciprocal_rank(rels).exact == expected

    def test_no_relevant_item_gives_zero(self):
        ex = lt.reciprocal_rank([0, 0, 0])
        assert ex.exact == 0
        assert ex.notes

    def test_threshold_reads_grades(self):
        # grades 0, 1, 3: with threshold 2 only the grade-3 item at rank 3 is relevant
        assert lt.reciprocal_rank([0, 1, 3], threshold=2).exact == Rational(1, 3)
        assert lt.reciprocal_rank([0, 1, 3], threshold=1).exact == Rational(1, 2)

    def test_cutoff(self):
        # the hit at rank 3 is outside the top 2
        assert lt.reciprocal_rank([0, 0, 1], k=2).exact == 0
        assert lt.reciprocal_rank([0, 0, 1], k=3).exact == Rational(1, 3)
        assert lt.reciprocal_rank([0, 0, 1], k=9).exact == Rational(1, 3)

    def test_steps_stop_at_the_first_hit(self):
        ex = lt.reciprocal_rank([0, 1, 0, 1])
        assert [r["rank"] for r in ex.steps] == [1, 2]


class TestMRR:
    def test_document_000(self):
        # 眼霜 rank 2, 神仙水 rank 1, 面膜 rank 3: (1/2 + 1 + 1/3) / 3
        ex = lt.mrr({"眼霜": [0, 1, 0], "神仙水": [1, 0, 0], "面膜": [0, 0, 1]})
        assert ex.exact == (Rational(1, 2) + 1 + Rational(1, 3)) / 3 == Rational(11, 18)
        assert list(ex.parts) == ["眼霜", "神仙水", "面膜"]
        assert [r["first"] for r in ex.steps] == [2, 1, 3]

    def test_list_names_queries_q1_q2(self):
        ex = lt.mrr([[0, 1], [0, 0]])
        assert list(ex.parts) == ["q1", "q2"]
        # (1/2 + 0) / 2: a query without a hit counts 0 and still counts in the mean
        assert ex.exact == Rational(1, 4)
        assert ex.steps[1]["first"] == "none"

    def test_threshold_and_cutoff_reach_every_query(self):
        # grades; threshold 2: q1 first hit rank 2, q2 rank 3 (cut away at k = 2)
        ex = lt.mrr([[1, 2, 0], [0, 1, 3]], threshold=2, k=2)
        assert ex.exact == Rational(1, 4)
        assert ex.name == "MRR@2"


class TestPrecisionAtK:
    @pytest.mark.parametrize("k, expected", [
        (1, Rational(1, 1)),   # 1 hit in 1
        (2, Rational(1, 2)),   # ranks 1, 2: 1 + 0
        (3, Rational(2, 3)),   # + rank 3 relevant
        (4, Rational(3, 4)),   # + rank 4 relevant
        (5, Rational(3, 5)),   # + rank 5 not relevant
        (8, Rational(3, 8)),   # ranks 6..8 do not exist: P@k still divides by k
    ])
    def test_cutoffs(self, k, expected):
        assert lt.precision_at_k([1, 0, 1, 1, 0], k=k).exact == expected

    def test_beyond_the_list_leaves_a_note(self):
        assert lt.precision_at_k([1, 0], k=4).notes
        assert not lt.precision_at_k([1, 0], k=2).notes

    def test_threshold(self):
        # grades 3, 0, 1, 2 with threshold 2: relevant at ranks 1 and 4
        assert lt.precision_at_k([3, 0, 1, 2], k=4, threshold=2).exact == Rational(1, 2)

    def test_name(self):
        assert lt.precision_at_k([1], k=3).name == "P@3"


class TestRecallAtK:
    def test_default_relevant_count_is_the_list(self):
        # 3 relevant in the list; top 3 holds ranks 1 and 3
        assert lt.recall_at_k([1, 0, 1, 1, 0], k=3).exact == Rational(2, 3)

    def test_collection_count(self):
        # 6 relevant in the collection; top 3 holds 2 of them
        assert lt.recall_at_k([1, 0, 1, 1, 0], k=3, n_relevant=6).exact == Rational(1, 3)

    def test_beyond_the_list(self):
        assert lt.recall_at_k([1, 0, 1], k=10, n_relevant=4).exact == Rational(1, 2)

    def test_no_relevant_document_reports_zero(self):
        ex = lt.recall_at_k([0, 0], k=2)
        assert ex.exact == 0
        assert any("0/0" in n for n in ex.notes)


class TestFBeta:
    # top 4 = 1, 0, 1, 1 with 5 relevant in the collection: P = 3/4, R = 3/5
    def test_f1(self):
        # 2 * 3/4 * 3/5 / (3/4 + 3/5) = (9/10) / (27/20)
        assert lt.f_beta([1, 0, 1, 1], k=4, n_relevant=5).exact == Rational(2, 3)

    def test_beta_two_favours_recall(self):
        # (1 + 4) * 9/20 / (4 * 3/4 + 3/5) = (9/4) / (18/5)
        assert lt.f_beta([1, 0, 1, 1], k=4, beta=2, n_relevant=5).exact == Rational(5, 8)

    @pytest.mark.parametrize("beta", [0.5, Rational(1, 2)])
    def test_beta_half_favours_precision(self, beta):
        # (1 + 1/4) * 9/20 / (1/4 * 3/4 + 3/5) = (45/80) / (63/80)
        ex = lt.f_beta([1, 0, 1, 1], k=4, beta=beta, n_relevant=5)
        assert ex.exact == Rational(5, 7)
        assert ex.params["beta"] == Rational(1, 2)

    def test_parts_are_p_and_r(self):
        ex = lt.f_beta([1, 0, 1, 1], k=4, n_relevant=5)
        assert ex.parts["precision"].exact == Rational(3, 4)
        assert ex.parts["recall"].exact == Rational(3, 5)

    def test_k_beyond_the_list_uses_p_over_k(self):
        # top 4 of a 2-item list: P = 1/4, R = 1/1, F1 = 2 * 1/4 / (5/4)
        assert lt.f_beta([0, 1], k=4).exact == Rational(2, 5)

    def test_no_hit_gives_zero(self):
        assert lt.f_beta([0, 0], k=2, n_relevant=3).exact == 0


class TestAveragePrecision:
    def test_mac(self):
        # relevant at ranks 1, 2, 5: (1/1 + 2/2 + 3/5) / 3
        assert lt.average_precision(MAC).exact == Rational(13, 15)

    def test_shenxianshui(self):
        # relevant at ranks 2, 3, 6, 7: (1/2 + 2/3 + 3/6 + 4/7) / 4
        assert lt.average_precision(SHENXIANSHUI).exact == Rational(47, 84)

    def test_unretrieved_relevant_count_zero(self):
        # hits at 1, 3, 5 and 5 relevant in all: (1 + 2/3 + 3/5) / 5
        ex = lt.average_precision([1, 0, 1, 0, 1], n_relevant=5)
        assert ex.exact == Rational(34, 75)
        assert any("not retrieved" in n for n in ex.notes)

    def test_cutoff_keeps_the_whole_list_denominator(self):
        # AP@2 of 1, 0, 1: one hit (precision 1) over the 2 relevant of the list
        assert lt.average_precision([1, 0, 1], k=2).exact == Rational(1, 2)
        assert lt.average_precision([1, 0, 1], k=2).name == "AP@2"

    def test_threshold(self):
        # grades 2, 0, 1 with threshold 1: relevant at ranks 1 and 3: (1 + 2/3) / 2
        assert lt.average_precision([2, 0, 1], threshold=1).exact == Rational(5, 6)

    def test_nothing_relevant(self):
        assert lt.average_precision([0, 0]).exact == 0

    def test_counted_column(self):
        ex = lt.average_precision(MAC)
        assert [r["counted"] for r in ex.steps] == [1, 1, 0, 0, Rational(3, 5), 0, 0]


class TestMAP:
    def test_document_000(self):
        # (13/15 + 47/84) / 2 = (364 + 235) / 840
        ex = lt.mean_average_precision([MAC, SHENXIANSHUI])
        assert ex.exact == Rational(599, 840)
        assert ex.parts["q1"].exact == Rational(13, 15)

    def test_per_query_counts_as_list_and_dict(self):
        # q2 has 5 relevant in the collection: AP = (47/21) / 5 = 47/105; MAP = (13/15 + 47/105) / 2
        expected = (Rational(13, 15) + Rational(47, 105)) / 2
        assert lt.mean_average_precision([MAC, SHENXIANSHUI], n_relevant=[3, 5]).exact == expected
        as_dict = lt.mean_average_precision({"a": MAC, "b": SHENXIANSHUI}, n_relevant={"a": 3, "b": 5})
        assert as_dict.exact == expected == Rational(23, 35)

    def test_one_count_for_every_query(self):
        # q1 = 1, 0, 1 with 3 relevant: (1 + 2/3)/3 = 5/9; q2 = 0, 1: (1/2)/3 = 1/6
        expected = (Rational(5, 9) + Rational(1, 6)) / 2
        assert lt.mean_average_precision([[1, 0, 1], [0, 1]], n_relevant=3).exact == expected

    def test_cutoff(self):
        # AP@2: q1 = 1, 0 of 1, 0, 1 -> 1/2; q2 = 0, 1 -> (1/2)/1
        assert lt.mean_average_precision([[1, 0, 1], [0, 1]], k=2).exact == Rational(1, 2)


class TestInterpolatedPrecision:
    # 1, 0, 1, 0, 0, 1 with 4 relevant in the collection:
    # rank:       1    2    3    4    5    6
    # precision:  1   1/2  2/3  1/2  2/5  1/2
    # recall:    1/4  1/4  1/2  1/2  1/2  3/4
    RELS = (1, 0, 1, 0, 0, 1)

    @pytest.mark.parametrize("level, expected", [
        (0, Integer(1)), (0.25, Integer(1)),          # rank 1 reaches recall 1/4 with precision 1
        (0.3, Rational(2, 3)), (0.5, Rational(2, 3)),  # recall >= 1/2 first at rank 3
        (0.75, Rational(1, 2)),                        # only rank 6 reaches 3/4
        (0.8, Integer(0)), (1, Integer(0)),            # recall never reaches 0.8
    ])
    def test_at_recall_level(self, level, expected):
        assert lt.interpolated_precision(self.RELS, n_relevant=4, recall=level).exact == expected

    def test_all_point_interpolated_ap(self):
        # interpolated precision at the hits (ranks 1, 3, 6): 1, 2/3, 1/2, over 4 relevant
        assert lt.interpolated_precision(self.RELS, n_relevant=4).exact == Rational(13, 24)

    def test_interpolation_lifts_ap(self):
        # 0, 1, 1: AP = (1/2 + 2/3)/2 = 7/12; interpolated at rank 2 is max(1/2, 2/3) = 2/3 -> (2/3 + 2/3)/2
        assert lt.average_precision([0, 1, 1]).exact == Rational(7, 12)
        assert lt.interpolated_precision([0, 1, 1]).exact == Rational(2, 3)

    def test_column_at_a_miss_is_p_interp_at_its_recall(self):
        # MAC: rank 3 (a miss) has recall 2/3, which rank 2 reaches with precision 1
        ex = lt.interpolated_precision(MAC)
        assert [r["interpolated"] for r in ex.steps] == [1, 1, 1, 1, Rational(3, 5), Rational(3, 5), Rational(3, 5)]
        for row in ex.steps:
            assert row["interpolated"] == lt.interpolated_precision(MAC, recall=row["recall"]).exact


class TestElevenPointAP:
    def test_by_level(self):
        # same ranking as TestInterpolatedPrecision, 4 relevant:
        # levels 0, .1, .2 -> 1; .3, .4, .5 -> 2/3; .6, .7 -> 1/2; .8, .9, 1 -> 0
        ex = lt.eleven_point_ap([1, 0, 1, 0, 0, 1], n_relevant=4)
        expected = [1, 1, 1, Rational(2, 3), Rational(2, 3), Rational(2, 3), Rational(1, 2), Rational(1, 2), 0, 0, 0]
        assert [r["interpolated"] for r in ex.steps] == expected
        assert ex.exact == Rational(6, 11)  # (3 + 2 + 1 + 0) / 11

    def test_single_hit(self):
        # one relevant item at rank 2: precision 1/2 at every recall level
        assert lt.eleven_point_ap([0, 1]).exact == Rational(1, 2)


class TestAPAtKDivisor:
    """AP@k divides by every relevant item of the list (the whole collection with n_relevant=), not by
    the relevant items in the top k nor min(relevant, k): trec_eval's map_cut_k and ranx's map@k agree."""

    RANKINGS = ((1, 0, 0, 0, 0, 0, 1, 1), (0, 1, 1, 1, 1, 1, 0, 1), (0, 0, 0, 0, 0, 0, 1, 0), (1, 1, 1, 1, 1, 0, 0, 1))

    def test_by_hand(self):
        # 1, 0, 0, 0, 0 | 0, 1, 1 at k = 5: one hit at rank 1 (precision 1); 3 relevant in the list
        assert lt.average_precision(self.RANKINGS[0], k=5).exact == Rational(1, 3)
        # the top 5 all relevant, 6 relevant in the list: (1 + 1 + 1 + 1 + 1) / 6
        assert lt.average_precision(self.RANKINGS[3], k=5).exact == Rational(5, 6)

    def _collection(self):
        qrels = {f"q{i}": {f"d{j}": r for j, r in enumerate(rels)} for i, rels in enumerate(self.RANKINGS)}
        run = {f"q{i}": {f"d{j}": 1.0 - j / 10 for j in range(len(rels))} for i, rels in enumerate(self.RANKINGS)}
        return qrels, run

    def test_trec_eval_map_cut(self):
        pytrec_eval = pytest.importorskip("pytrec_eval")
        qrels, run = self._collection()
        theirs = pytrec_eval.RelevanceEvaluator(qrels, {"map_cut.5"}).evaluate(run)
        for i, rels in enumerate(self.RANKINGS):
            assert float(lt.average_precision(rels, k=5)) == pytest.approx(theirs[f"q{i}"]["map_cut_5"], abs=1e-12)

    def test_ranx_map_at_k(self):
        ranx = pytest.importorskip("ranx")
        qrels, run = self._collection()
        theirs = ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), "map@5", return_mean=False)
        for i, rels in enumerate(self.RANKINGS):  # ranx returns queries in sorted id order: q0 .. q3
            assert float(lt.average_precision(rels, k=5)) == pytest.approx(theirs[i], abs=1e-12)
