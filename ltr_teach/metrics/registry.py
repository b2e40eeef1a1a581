"""One registry of the metrics: the command line, the widgets and the docs are generated from it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from . import binary, graded, roc


@dataclass(frozen=True)
class MetricInfo:
    """A metric's public name, its function, what it takes and which keywords it accepts."""

    name: str
    func: Callable
    title: str
    takes: str  # "grades", "rels", "queries" (list of rankings), "labels_scores"
    options: tuple


METRICS = {
    info.name: info
    for info in (
        MetricInfo("cg", graded.cg, "Cumulative gain (累计增益)", "grades", ("k",)),
        MetricInfo("dcg", graded.dcg, "Discounted cumulative gain (折损累计增益)", "grades", ("k", "gain", "discount")),
        MetricInfo("idcg", graded.idcg, "Ideal DCG (理想折损累计增益)", "grades", ("k", "gain", "discount", "ideal")),
        MetricInfo("ndcg", graded.ndcg, "Normalised DCG (归一化折损累计增益)", "grades",
                   ("k", "gain", "discount", "ideal", "zero")),
        MetricInfo("err", graded.err, "Expected reciprocal rank (预期倒数排名)", "grades", ("g_max", "k")),
        MetricInfo("reciprocal_rank", binary.reciprocal_rank, "Reciprocal rank (倒数排名)", "rels", ("threshold", "k")),
        MetricInfo("mrr", binary.mrr, "Mean reciprocal rank (平均倒数排名)", "queries", ("threshold", "k")),
        MetricInfo("precision_at_k", binary.precision_at_k, "Precision at k (精确率/查准率)", "rels", ("k", "threshold")),
        MetricInfo("recall_at_k", binary.recall_at_k, "Recall at k (召回率/查全率)", "rels",
                   ("k", "n_relevant", "threshold")),
        MetricInfo("f_beta", binary.f_beta, "F-beta at k (F值)", "rels", ("k", "beta", "n_relevant", "threshold")),
        MetricInfo("average_precision", binary.average_precision, "Average precision (平均精度)", "rels",
                   ("n_relevant", "k", "threshold")),
        MetricInfo("mean_average_precision", binary.mean_average_precision, "Mean average precision (平均精度均值)",
                   "queries", ("n_relevant", "k", "threshold")),
        MetricInfo("interpolated_precision", binary.interpolated_precision, "Interpolated precision (插值精确率)",
                   "rels", ("n_relevant", "recall")),
        MetricInfo("eleven_point_ap", binary.eleven_point_ap, "11-point interpolated AP (11点插值平均精度)", "rels",
                   ("n_relevant",)),
        MetricInfo("roc_curve", roc.roc_curve, "ROC curve (ROC曲线)", "labels_scores", ()),
        MetricInfo("auc", roc.auc, "Area under the ROC curve (ROC曲线下面积)", "labels_scores", ()),
    )
}

#: Short names users type on the command line, mapped to registry names.
ALIASES = {"rr": "reciprocal_rank", "p": "precision_at_k", "precision": "precision_at_k", "r": "recall_at_k",
           "recall": "recall_at_k", "f": "f_beta", "f1": "f_beta", "ap": "average_precision",
           "map": "mean_average_precision", "11pt": "eleven_point_ap"}


def lookup(name: str) -> MetricInfo:
    """The registry entry for a metric name or alias; ``ValueError`` listing the names otherwise."""
    key = ALIASES.get(name, name) if isinstance(name, str) else name
    if key not in METRICS:
        raise ValueError(f"metric must be one of {', '.join(METRICS)} (or {', '.join(ALIASES)}); got {name!r}")
    return METRICS[key]
