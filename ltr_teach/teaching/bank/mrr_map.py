"""The mrr_map family's exercises, in the order the exercise notebook asks them."""

from fractions import Fraction

from ...core.i18n import N_
from ..kinds import _e
from ._compute import (
    _ap_task,
    _eleven_task,
    _every_query_hit,
    _first_hit_below_rank_1,
    _interp_task,
    _map_task,
    _mrr_task,
    _queries,
    _relevant_never_retrieved,
    _rels,
    _rr,
    _rr_task,
    _some_query_missed,
)

FAMILY = ("mrr_map", N_("MRR, AP and MAP (平均倒数排名、平均精度与平均精度均值)"))

EXERCISES = [
    _e("rr-eye-cream", "mrr_map", "reciprocal_rank", {"rels": [0, 1, 0]}, _rr_task,
       [N_("Find the first relevant result; RR is one over its rank.")],
       intro=N_("Document 000: the query 眼霜 returns 小棕瓶精华, 小棕瓶眼霜, 面霜; the wanted 小棕瓶眼霜 is second."),
       source="doc 000", randomize=_rr, point=_first_hit_below_rank_1),
    _e("mrr-doc000", "mrr_map", "mrr",
       {"list_of_rels": {"眼霜": [0, 1, 0], "神仙水": [1, 0, 0], "面膜": [0, 0, 1]}, "_kind": "mrr"}, _mrr_task,
       [N_("For each query find the first relevant result and take one over its rank; MRR is the mean over "
        "the queries.")], intro=N_("Document 000."), source="doc 000",
       randomize=_queries, point=_every_query_hit),
    _e("mrr-with-miss", "mrr_map", "mrr", {"list_of_rels": [[0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 0]],
                                           "_kind": "mrr"},
       _mrr_task, [N_("A query without a relevant item has reciprocal rank 0 and still counts in the mean.")],
       randomize=_queries, point=_some_query_missed),
    _e("ap-lipstick", "mrr_map", "average_precision", {"rels": [1, 1, 0, 0, 1, 0, 0]}, _ap_task,
       [N_("At each rank that holds a relevant item write the precision so far (hits / rank); add them and "
        "divide by the number of relevant documents.")], intro=N_("Document 000, MAC口红."), source="doc 000",
       randomize=_rels),
    _e("ap-shenxianshui", "mrr_map", "average_precision", {"rels": [0, 1, 1, 0, 0, 1, 1]}, _ap_task,
       [N_("Hits at ranks 2, 3, 6, 7.")], intro=N_("Document 000, 神仙水."), source="doc 000", randomize=_rels),
    _e("map-doc000", "mrr_map", "mean_average_precision",
       {"list_of_rels": [[1, 1, 0, 0, 1, 0, 0], [0, 1, 1, 0, 0, 1, 1]]}, _map_task,
       [N_("MAP is the mean of the two APs.")], source="doc 000", randomize=_queries, worked="000-map-two-queries"),
    _e("ap-doc004-topic1", "mrr_map", "average_precision", {"rels": [1, 1, 0, 1, 0, 0, 1], "n_relevant": 4},
       _ap_task, [N_("Hits at ranks 1, 2, 4, 7.")], intro=N_("Document 004, topic 1: 4 relevant pages, found at ranks 1, 2, "
                                                      "4, 7."), source="doc 004", randomize=_rels),
    _e("ap-doc004-topic2", "mrr_map", "average_precision", {"rels": [1, 0, 1, 0, 1], "n_relevant": 5}, _ap_task,
       [N_("Two relevant pages were never retrieved: they add precision 0.")],
       intro=N_("Document 004, topic 2: 5 relevant pages, 3 found at ranks 1, 3, 5."), source="doc 004",
       randomize=_rels, point=_relevant_never_retrieved),
    _e("map-doc004", "mrr_map", "mean_average_precision",
       {"list_of_rels": [[1, 1, 0, 1, 0, 0, 1], [1, 0, 1, 0, 1]], "n_relevant": [4, 5]}, _map_task,
       [N_("Divide each AP by all of its topic's relevant pages.")], intro=N_("Document 004, topics 1 and 2."),
       source="doc 004", randomize=_queries),
    _e("interp-precision-half", "mrr_map", "interpolated_precision",
       {"rels": [0, 1, 0, 0, 1, 1, 0, 1], "recall": Fraction(1, 2)}, _interp_task,
       [N_("Recall reaches 1/2 at rank 5, but rank 6 has a higher precision and a higher recall.")],
       randomize=_rels),
    _e("interp-ap", "mrr_map", "interpolated_precision", {"rels": [1, 0, 0, 1, 1, 0, 1]}, _interp_task,
       [N_("Interpolated precision at rank i: the best precision at rank i or below.")], randomize=_rels),
    _e("eleven-point-ap", "mrr_map", "eleven_point_ap", {"rels": [1, 0, 1, 0, 0, 1]}, _eleven_task,
       [N_("Write the recall and precision at every rank; at each recall level take the best precision at "
        "that recall or beyond, then average the eleven values.")], randomize=_rels),
]
