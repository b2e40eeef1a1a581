"""ltr_teach: learn how rankings are evaluated, one exact step at a time.

The package is layered; a layer imports only the layers before it in this list (see ARCHITECTURE.md):
``core`` (explanation, exact numbers, validation), ``metrics`` (graded, binary, ROC, ordering,
conventions, the registry), ``runs`` (TREC files, bulk evaluation), ``teaching`` (the documents'
examples and errata, exercises, the checker), ``interactive`` (widgets, plots) and ``cli``.

Every metric returns an :class:`~ltr_teach.core.explanation.Explanation`: the exact value (SymPy), its
float, and the table of steps that produced it.

>>> import ltr_teach as lt
>>> lt.mean_average_precision([[1, 1, 0, 0, 1, 0, 0], [0, 1, 1, 0, 0, 1, 1]]).exact
599/840
"""

from importlib import import_module

from .core import hooks

#: Where each public name lives: ``lt.ndcg`` imports :mod:`ltr_teach.metrics.graded` on first use (PEP 562), so
#: ``import ltr_teach`` loads neither SymPy nor NumPy, Matplotlib or ipywidgets: the command line starts fast,
#: and the package imports in a browser (Pyodide) before NumPy is there. ``(module, None)`` names a submodule.
_LAZY = {
    "ln": (".core.exact", "ln"),
    "log2": (".core.exact", "log2"),
    "Explanation": (".core.explanation", "Explanation"),
    "get_language": (".core.i18n", "get_language"),
    "set_language": (".core.i18n", "set_language"),
    "cohen_kappa": (".metrics.agreement", "cohen_kappa"),
    "average_precision": (".metrics.binary", "average_precision"),
    "bpref": (".metrics.binary", "bpref"),
    "eleven_point_ap": (".metrics.binary", "eleven_point_ap"),
    "f_beta": (".metrics.binary", "f_beta"),
    "interpolated_precision": (".metrics.binary", "interpolated_precision"),
    "judged_at_k": (".metrics.binary", "judged_at_k"),
    "mean_average_precision": (".metrics.binary", "mean_average_precision"),
    "mrr": (".metrics.binary", "mrr"),
    "precision_at_k": (".metrics.binary", "precision_at_k"),
    "r_precision": (".metrics.binary", "r_precision"),
    "recall_at_k": (".metrics.binary", "recall_at_k"),
    "reciprocal_rank": (".metrics.binary", "reciprocal_rank"),
    "success_at_k": (".metrics.binary", "success_at_k"),
    "compare_conventions": (".metrics.compare", "compare_conventions"),
    "ConfusionMatrix": (".metrics.confusion", "ConfusionMatrix"),
    "confusion_matrix": (".metrics.confusion", "confusion_matrix"),
    "CONVENTIONS": (".metrics.conventions", "CONVENTIONS"),
    "gauc": (".metrics.ctr", "gauc"),
    "log_loss": (".metrics.ctr", "log_loss"),
    "DISCOUNTS": (".metrics.graded", "DISCOUNTS"),
    "GAINS": (".metrics.graded", "GAINS"),
    "ZERO_RULES": (".metrics.graded", "ZERO_RULES"),
    "discount": (".metrics.gains", "discount"),
    "gain": (".metrics.gains", "gain"),
    "cg": (".metrics.graded", "cg"),
    "dcg": (".metrics.graded", "dcg"),
    "err": (".metrics.graded", "err"),
    "idcg": (".metrics.graded", "idcg"),
    "ndcg": (".metrics.graded", "ndcg"),
    "online": (".metrics.online", None),
    "collection": (".runs.collection", None),
    "TIE_RULES": (".metrics.ordering", "TIE_RULES"),
    "misordered_pairs": (".metrics.pairs", "misordered_pairs"),
    "swap_deltas": (".metrics.pairs", "swap_deltas"),
    "METRICS": (".metrics.registry", "METRICS"),
    "auc": (".metrics.roc", "auc"),
    "pr_curve": (".metrics.roc", "pr_curve"),
    "roc_curve": (".metrics.roc", "roc_curve"),
    "sampled_metric": (".metrics.sampled", "sampled_metric"),
    "MetricSuite": (".metrics.suite", "MetricSuite"),
    "agreement": (".metrics.suite", "agreement"),
    "BROWSING_MODELS": (".metrics.user_models", "BROWSING_MODELS"),
    "browsing_model": (".metrics.user_models", "browsing_model"),
    "rbp": (".metrics.user_models", "rbp"),
    "rbp_residual": (".metrics.user_models", "rbp_residual"),
    "adjustment_steps": (".runs.compare", "adjustment_steps"),
    "compare_runs": (".runs.compare", "compare_runs"),
    "sign_flips": (".runs.compare", "sign_flips"),
    "evaluate": (".runs.evaluate", "evaluate"),
    "explain_query": (".runs.explain", "explain_query"),
    "pool": (".runs.pooling", "pool"),
    "compare_systems": (".runs.systems", "compare_systems"),
    "tukey_hsd": (".runs.systems", "tukey_hsd"),
    "read_qrels": (".runs.trec", "read_qrels"),
    "read_run": (".runs.trec", "read_run"),
    "write_qrels": (".runs.trec", "write_qrels"),
    "write_run": (".runs.trec", "write_run"),
    "Feedback": (".teaching.checker", "Feedback"),
    "check": (".teaching.checker", "check"),
    "classroom": (".classroom", None),
    "examples": (".teaching.examples", None),
    "exercises": (".teaching.exercises", None),
    "kinds": (".teaching.kinds", None),
    "samples": (".teaching.samples", None),
    "documents_table": (".teaching.tables", "documents_table"),
    "examples_table": (".teaching.tables", "examples_table"),
    "glossary_table": (".teaching.tables", "glossary_table"),
    "ndcg_cutoffs": (".teaching.tables", "ndcg_cutoffs"),
    "rank_weights_table": (".teaching.tables", "rank_weights_table"),
    "verify": (".teaching.verify", "verify"),
}


def __getattr__(name):
    if name == "__version__":  # importlib.metadata is read on first use: it is slow to import (issue 21)
        globals()[name] = value = _installed_version()
        return value
    try:
        module, attribute = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'ltr_teach' has no attribute {name!r}") from None
    value = import_module(module, __name__)
    if attribute is not None:
        value = getattr(value, attribute)
    globals()[name] = value  # looked up once: the next access is a plain attribute
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__) | {"__version__"})


def _installed_version() -> str:
    """The installed distribution's version (``lt.__version__``); ``0+unknown`` in a source tree not installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("ltr_teach")
    except PackageNotFoundError:
        return "0+unknown"

__all__ = [
    "Explanation", "METRICS", "GAINS", "DISCOUNTS", "ZERO_RULES", "TIE_RULES", "log2", "ln",
    "cg", "dcg", "idcg", "ndcg", "err",
    "gain", "discount",
    "reciprocal_rank", "mrr", "precision_at_k", "recall_at_k", "f_beta",
    "average_precision", "mean_average_precision", "interpolated_precision", "eleven_point_ap",
    "roc_curve", "auc", "pr_curve", "gauc", "log_loss", "cohen_kappa", "misordered_pairs", "swap_deltas",
    "sampled_metric", "r_precision", "success_at_k", "bpref", "judged_at_k", "rbp", "rbp_residual",
    "browsing_model", "BROWSING_MODELS",
    "confusion_matrix", "ConfusionMatrix", "MetricSuite", "agreement",
    "CONVENTIONS", "compare_conventions", "evaluate", "explain_query", "pool", "compare_runs", "sign_flips", "adjustment_steps",
    "compare_systems", "tukey_hsd",
    "read_qrels", "read_run", "write_qrels", "write_run", "check", "Feedback", "verify", "examples", "exercises",
    "samples",
    "examples_table", "ndcg_cutoffs", "rank_weights_table", "documents_table", "glossary_table",
    "classroom", "set_language", "get_language", "online", "collection",
]


def ask(exercise_id, seed=None):
    """An exercise as a widget (Check, Hint, Show answer after a first attempt); see
    :func:`ltr_teach.interactive.ask.ask`. ipywidgets is imported only when a question is asked."""
    from .interactive.ask import ask as make

    return make(exercise_id, seed)


def _exercise_widget(exercise):
    from .interactive.ask import AskBox

    return AskBox(exercise)


hooks.WIDGET_MAKER = _exercise_widget  # Exercise.widget(): the teaching layer cannot import the interactive one
__all__.append("ask")
