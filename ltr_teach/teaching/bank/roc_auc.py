"""The roc_auc family's exercises, in the order the exercise notebook asks them."""

from ...core.i18n import N_
from ..kinds import _e
from ._compute import _auc_task, _labels_scores

FAMILY = ("roc_auc", N_("ROC and AUC (ROC曲线与曲线下面积)"))

EXERCISES = [
    _e("auc-tie", "roc_auc", "auc", {"labels": [1, 0, 1, 0], "scores": [0.9, 0.8, 0.8, 0.1], "_tie": True},
       _auc_task, [N_("Four pairs; the positive at 0.8 ties the negative at 0.8.")], randomize=_labels_scores),
    _e("auc-ties", "roc_auc", "auc",
       {"labels": [1, 1, 0, 1, 0, 0], "scores": [0.9, 0.7, 0.7, 0.5, 0.5, 0.2], "_tie": True}, _auc_task,
       [N_("3 × 3 = 9 pairs; two of them are ties.")], randomize=_labels_scores),
    _e("auc-no-ties", "roc_auc", "auc", {"labels": [1, 0, 1, 1, 0], "scores": [0.8, 0.6, 0.55, 0.3, 0.2]},
       _auc_task, [N_("Count, for each positive, the negatives scored below it.")], randomize=_labels_scores),
    _e("roc-area", "roc_auc", "roc_curve",
       {"labels": [0, 1, 1, 0, 1, 0], "scores": [0.9, 0.8, 0.6, 0.6, 0.4, 0.1], "_roc": True, "_tie": True},
       _auc_task, [N_("Walk down the scores: a positive moves up 1/3, a negative right 1/3, a tied pair diagonally.")],
       intro=N_("Document 000 describes AUC as the area under the ROC curve (ROC曲线下面积)."), source="doc 000",
       randomize=_labels_scores),
]
