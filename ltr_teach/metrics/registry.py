"""One registry of the metrics: the command line, the widgets, ``lt.evaluate`` and the docs read it.

Each :class:`MetricInfo` entry holds a metric's registry name, its function, what it takes, the
keywords it accepts, the short names users type (``aliases``) and, in ``bulk``, whether and how
``lt.evaluate`` computes it over a whole run (the name it prints, whether it takes ``@k``, and what a
``.parameter`` suffix sets). Nothing else keeps a list of metric names: ``ALIASES``,
``lt.evaluate``'s names (``runs.evaluate.METRIC_NAMES``) and the CLI help are derived from here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from ..core.glossary import zh, zh_all
from ..core.i18n import get_language


@dataclass(frozen=True)
class Bulk:
    """How ``lt.evaluate`` computes a metric for every query of a run.

    Attributes
    ----------
    name : str
        The name ``lt.evaluate`` and ``ltr-teach eval`` print (``"ndcg"``, ``"map"``, ``"p"``).
    at : {"optional", "required", "none", "recall"}
        What ``@`` takes: a cut-off k that is optional or required, nothing, or a recall level
        (``iprec@0.3``).
    description : str
        One line for the help text and the error messages.
    parameter : str or None
        What a ``.value`` suffix sets (``"gains"`` for ``ndcg.1=3,2=9``, ``"p"`` for ``rbp.0.9``).
    """

    name: str
    at: str
    description: str
    parameter: str | None = None


@dataclass(frozen=True)
class MetricInfo:
    """A metric's public name, its function, what it takes, its keywords, its aliases and its bulk form."""

    name: str
    function: str  # "graded.ndcg": the module of ltr_teach.metrics and the function, imported on first use (func)
    title: str
    takes: str  # "grades", "rels", "judged_rels" (None = unjudged), "queries" (list of rankings), "labels_scores",
    # "grouped_labels_scores" (labels, scores and the user of each impression), "judge_pair" (two assessors' labels
    # of the same items)
    options: tuple
    aliases: tuple = ()
    bulk: Bulk | None = None
    per_query: str | None = None  # a mean over queries: the registry name of its per-query metric

    @property
    def func(self) -> Callable:
        """The metric's function. Imported when first asked for: the registry itself loads no SymPy, so the
        command line's ``--help`` and the names it lists start fast."""
        module, _, name = self.function.partition(".")
        return getattr(importlib.import_module(f"{__package__}.{module}"), name)

    @property
    def local_title(self) -> str:
        """The title in the current language alone: ``累计增益`` in Chinese, ``Cumulative gain`` in English.

        >>> from ltr_teach.core.i18n import using_language
        >>> with using_language("zh"):
        ...     METRICS["cg"].local_title
        '累计增益'
        """
        english, _, chinese = self.title.partition(" (")
        return chinese.rstrip(")") if get_language() == "zh" and chinese else english


_GRADED = ("k", "gain", "discount")


def _title(english: str, term: str, alternatives: bool = False) -> str:
    """``English (中文)``, the Chinese from the glossary (with its accepted alternatives if asked)."""
    return f"{english} ({zh_all(term) if alternatives else zh(term)})"

METRICS = {
    info.name: info
    for info in (
        MetricInfo("cg", "graded.cg", _title("Cumulative gain", "cg"), "grades", ("k",)),
        MetricInfo("dcg", "graded.dcg", _title("Discounted cumulative gain", "dcg"), "grades", _GRADED,
                   bulk=Bulk("dcg", "optional", "unnormalised DCG under the convention's gain and discount "
                                                "(dcg.1=3,2=9: per-grade gains)", parameter="gains")),
        MetricInfo("idcg", "graded.idcg", _title("Ideal DCG", "idcg"), "grades", _GRADED + ("ideal",)),
        MetricInfo("ndcg", "graded.ndcg", _title("Normalised DCG", "ndcg"), "grades", _GRADED + ("ideal", "zero"),
                   bulk=Bulk("ndcg", "optional", "normalised DCG (ndcg@k cuts the ranking and the ideal list at k; "
                                                 "ndcg.1=3,2=9: per-grade gains as trec_eval)", parameter="gains")),
        MetricInfo("err", "graded.err", _title("Expected reciprocal rank", "err"), "grades", ("g_max", "k"),
                   bulk=Bulk("err", "optional", "expected reciprocal rank, cascade model (err@k: the top k)")),
        MetricInfo("reciprocal_rank", "binary.reciprocal_rank", _title("Reciprocal rank", "reciprocal_rank"),
                   "rels", ("threshold", "k"),
                   aliases=("rr",),
                   bulk=Bulk("mrr", "optional", "reciprocal rank of the first relevant document (mrr@k: within "
                                                "the top k)")),
        MetricInfo("mrr", "binary.mrr", _title("Mean reciprocal rank", "mrr"), "queries", ("threshold", "k"),
                   per_query="reciprocal_rank"),
        MetricInfo("precision_at_k", "binary.precision_at_k", _title("Precision at k", "precision", alternatives=True),
                   "rels", ("k", "threshold"),
                   aliases=("p", "precision"),
                   bulk=Bulk("p", "required", "precision at k: relevant in the top k divided by k (needs @k)")),
        MetricInfo("recall_at_k", "binary.recall_at_k", _title("Recall at k", "recall", alternatives=True), "rels",
                   ("k", "n_relevant", "threshold"), aliases=("r", "recall"),
                   bulk=Bulk("recall", "required", "recall at k: relevant in the top k divided by all relevant in "
                                                   "the qrels (needs @k)")),
        MetricInfo("f_beta", "binary.f_beta", _title("F-beta at k", "f_beta"), "rels",
                   ("k", "beta", "n_relevant", "threshold"),
                   aliases=("f", "f1")),
        MetricInfo("average_precision", "binary.average_precision", _title("Average precision", "average_precision"),
                   "rels",
                   ("n_relevant", "k", "threshold"), aliases=("ap",),
                   bulk=Bulk("map", "optional", "mean average precision, over every relevant document in the qrels "
                                                "(map@k: top k only)")),
        MetricInfo("mean_average_precision", "binary.mean_average_precision", _title("Mean average precision", "map"),
                   "queries", ("n_relevant", "k", "threshold"), aliases=("map",), per_query="average_precision"),
        MetricInfo("interpolated_precision", "binary.interpolated_precision",
                   _title("Interpolated precision", "interpolated_precision"),
                   "rels", ("n_relevant", "recall", "rule"), aliases=("iprec", "iprec_at_recall"),
                   bulk=Bulk("iprec", "recall", "interpolated precision at a recall level, iprec@0.3 (the "
                                                "convention's rule turns the level into a count of relevant documents)")),
        MetricInfo("eleven_point_ap", "binary.eleven_point_ap", "11-point interpolated AP (11 点插值平均精度)", "rels",
                   ("n_relevant", "rule"), aliases=("11pt", "11pt_avg"),
                   bulk=Bulk("11pt", "none", "11-point interpolated average precision (recall 0, 0.1, ..., 1 under "
                                             "the convention's rule)")),
        MetricInfo("r_precision", "binary.r_precision", "R-precision (R 精确率)", "rels", ("n_relevant", "threshold"),
                   aliases=("rprec", "r_prec"),
                   bulk=Bulk("rprec", "none", "R-precision: precision at rank R, R = relevant documents in the qrels")),
        MetricInfo("success_at_k", "binary.success_at_k", "Success at k, hit rate (命中率)", "rels", ("k", "threshold"),
                   aliases=("success", "hit_rate"),
                   bulk=Bulk("success", "required", "success@k (hit rate): 1 if the top k hold a relevant document")),
        MetricInfo("bpref", "binary.bpref", "Binary preference (bpref 二元偏好)", "judged_rels",
                   ("n_relevant", "n_nonrelevant", "threshold"),
                   bulk=Bulk("bpref", "none", "bpref: judged relevant documents ranked above judged non-relevant ones "
                                              "(unjudged documents skipped)")),
        MetricInfo("judged_at_k", "binary.judged_at_k", "Judged at k (已标注比例)", "judged_rels", ("k",),
                   aliases=("judged",),
                   bulk=Bulk("judged", "optional", "judged@k: the share of the top k that has a judgment")),
        MetricInfo("cohen_kappa", "agreement.cohen_kappa", "Cohen's kappa (Cohen kappa 系数)", "judge_pair",
                   ("marginals",), aliases=("kappa",)),
        MetricInfo("rbp", "user_models.rbp", "Rank-biased precision (排序偏置精确率)", "judged_rels",
                   ("p", "k", "threshold", "weight"),
                   bulk=Bulk("rbp", "optional", "rank-biased precision, persistence 0.8 (rbp.0.95: p = 0.95; rbp@k: "
                                                "depth k)", parameter="p")),
        MetricInfo("rbp_residual", "user_models.rbp_residual", "RBP residual (RBP 残差)", "judged_rels", ("p", "k"),
                   aliases=("rbp_res",),
                   bulk=Bulk("rbp_residual", "optional", "what unjudged and unseen documents could add to RBP "
                                                         "(rbp_residual.0.95: p = 0.95)", parameter="p")),
        MetricInfo("roc_curve", "roc.roc_curve", _title("ROC curve", "roc"), "labels_scores", ()),
        MetricInfo("pr_curve", "roc.pr_curve", _title("Precision-recall curve", "pr_curve"), "labels_scores", (),
                   aliases=("pr",)),
        MetricInfo("auc", "roc.auc", _title("Area under the ROC curve", "auc"), "labels_scores", (),
                   bulk=Bulk("auc", "none", "area under the ROC curve of the retrieved documents, ties worth 1/2")),
        MetricInfo("gauc", "ctr.gauc", "Group AUC (分组 AUC)", "grouped_labels_scores", ("weight",)),
        MetricInfo("log_loss", "ctr.log_loss", "Log loss (对数损失)", "labels_scores", (), aliases=("logloss",)),
    )
}

#: Short names users type (command line, widgets, ``lt.evaluate``), mapped to registry names; derived
#: from the entries' ``aliases``.
ALIASES = {alias: info.name for info in METRICS.values() for alias in info.aliases}


def lookup(name: str) -> MetricInfo:
    """The registry entry for a metric name or alias; ``ValueError`` listing the names otherwise.

    Examples
    --------
    >>> lookup("map").name, lookup("p").name
    ('mean_average_precision', 'precision_at_k')
    """
    key = ALIASES.get(name, name) if isinstance(name, str) else name
    if not isinstance(key, str) or key not in METRICS:
        raise ValueError(f"metric must be one of {', '.join(METRICS)} (or {', '.join(ALIASES)}); got {name!r}")
    return METRICS[key]


#: What ``lt.evaluate`` computes, by the name it prints: ``{bulk name: (registry entry, Bulk)}``.
BULK = {info.bulk.name: info for info in METRICS.values() if info.bulk is not None}
#: The names ``lt.evaluate`` accepts and their descriptions (``runs.evaluate.METRIC_NAMES``), without NumPy.
BULK_NAMES = {name: info.bulk.description for name, info in BULK.items()}


def bulk_lookup(name: str) -> MetricInfo:
    """The entry ``lt.evaluate`` computes for a name it is given: a bulk name, a registry name or an alias.

    A mean over queries (``mrr``, ``map``) resolves to its per-query metric, whose bulk form
    ``lt.evaluate`` averages.

    Examples
    --------
    >>> [bulk_lookup(n).bulk.name for n in ("map", "ap", "mean_average_precision", "p", "mrr", "rr")]
    ['map', 'map', 'map', 'p', 'mrr', 'mrr']
    """
    if isinstance(name, str) and name in BULK:
        return BULK[name]
    try:
        info = lookup(name)
    except ValueError:
        info = None
    if info is not None and info.bulk is None and info.per_query is not None:
        info = METRICS[info.per_query]
    if info is None or info.bulk is None:
        raise ValueError(f"metric {name!r} is not one lt.evaluate computes; it computes {', '.join(BULK)} "
                         "(optionally @k, e.g. ndcg@10)")
    return info


__all__ = ["Bulk", "MetricInfo", "METRICS", "ALIASES", "BULK", "lookup", "bulk_lookup"]
