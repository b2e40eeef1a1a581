"""The precision_recall family's exercises, in the order the exercise notebook asks them."""

from fractions import Fraction

from ...core.i18n import N_
from ..kinds import _e
from ._compute import (
    _bpref_task,
    _f_task,
    _graded_judgments,
    _judged_task,
    _judgments,
    _p_task,
    _precision_longer,
    _r_task,
    _recall_below_1,
    _rels,
    _rprec_task,
    _success_task,
)

FAMILY = ("precision_recall", N_("Precision, recall and F (精确率、召回率与F值)"))

EXERCISES = [
    _e("p-at-2-doc001", "precision_recall", "precision_at_k", {"rels": [1, 0], "k": 2, "total_relevant": 3},
       _p_task, [N_("Count the relevant items among the top k and divide by k, not by the number of relevant "
                 "documents.")], intro=N_("Document 001: l(1) = 1, l(2) = 0."), source="doc 001",
       randomize=_precision_longer),
    _e("p-at-5", "precision_recall", "precision_at_k", {"rels": [1, 0, 1, 1, 0, 0, 1], "k": 5, "total_relevant": 6},
       _p_task, [N_("Count the hits among the first five.")], randomize=_rels),
    _e("r-at-5", "precision_recall", "recall_at_k", {"rels": [1, 0, 1, 1, 0, 0, 1], "k": 5, "n_relevant": 6},
       _r_task, [N_("Recall divides the hits in the top 5 by all 6 relevant documents.")], randomize=_rels,
       point=_recall_below_1),
    _e("p-at-5-short", "precision_recall", "precision_at_k", {"rels": [0, 1, 1], "k": 5, "total_relevant": 4},
       _p_task, [N_("The list has only 3 items; the empty ranks 4 and 5 count as not relevant.")], randomize=_rels),
    _e("f1-doc000", "precision_recall", "f_beta", {"rels": [1, 0, 1, 1, 0, 0, 1], "k": 5, "n_relevant": 6},
       _f_task, [N_("F1 = 2PR / (P + R).")],
       intro=N_("Document 000 writes F_β = (1 + β²)(Precision + Recall) / (β²·Precision + Recall)."), source="doc 000",
       randomize=_rels, erratum="000-f-beta-formula"),
    _e("f2-doc003", "precision_recall", "f_beta", {"rels": [1, 1, 0, 1, 0, 0], "k": 4, "beta": 2, "n_relevant": 5},
       _f_task, [N_("F_β = (1 + β²)·P·R / (β²·P + R) with β² = 4.")],
       intro=N_("Document 003 writes F = (a² + 1)PR / (a²(P + R))."), source="doc 003", randomize=_rels,
       erratum="003-f-measure-formula"),
    _e("f-half", "precision_recall", "f_beta", {"rels": [1, 0, 1, 0, 0, 1], "k": 6, "beta": Fraction(1, 2),
                                                "n_relevant": 4},
       _f_task, [N_("β = 1/2 weighs precision more: β² = 1/4.")], randomize=_rels),
    _e("rprec", "precision_recall", "r_precision", {"rels": [1, 0, 1, 1, 0, 1, 0], "n_relevant": 5}, _rprec_task,
       [N_("R is the number of relevant documents in the collection: look at the top R only.")], randomize=_rels),
    _e("success-at-3", "precision_recall", "success_at_k", {"rels": [0, 0, 1, 0, 1], "k": 3}, _success_task,
       [N_("Success asks only whether the top k hold at least one relevant document.")], randomize=_rels),
    _e("bpref-unjudged", "precision_recall", "bpref",
       {"judgments": [1, 0, None, 1, 0, 1], "n_relevant": 4, "n_nonrelevant": 3}, _bpref_task,
       [(N_("Skip the unjudged documents. For each relevant one count the judged non-relevant above it (n) and add "
         "1 - min(n, R)/min(N, R); divide the sum by R."))], randomize=_judgments),
    _e("judged-at-5", "precision_recall", "judged_at_k", {"judgments": [2, None, 0, 1, None, None, 3], "k": 5},
       _judged_task, [N_("A grade of 0 is a judgment too; only the unjudged ranks are missing.")],
       randomize=_graded_judgments),
]
