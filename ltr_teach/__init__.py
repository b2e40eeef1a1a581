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

from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _version

from .core.exact import ln, log2
from .core.explanation import Explanation
from .core.i18n import get_language, set_language
from .metrics import online
from .metrics.agreement import cohen_kappa
from .metrics.binary import (
    average_precision,
    bpref,
    eleven_point_ap,
    f_beta,
    interpolated_precision,
    judged_at_k,
    mean_average_precision,
    mrr,
    precision_at_k,
    r_precision,
    recall_at_k,
    reciprocal_rank,
    success_at_k,
)
from .metrics.compare import compare_conventions
from .metrics.confusion import ConfusionMatrix, confusion_matrix
from .metrics.conventions import CONVENTIONS
from .metrics.ctr import gauc, log_loss
from .metrics.graded import DISCOUNTS, GAINS, ZERO_RULES, cg, dcg, err, idcg, ndcg
from .metrics.ordering import TIE_RULES
from .metrics.pairs import misordered_pairs, swap_deltas
from .metrics.registry import METRICS
from .metrics.roc import auc, pr_curve, roc_curve
from .metrics.sampled import sampled_metric
from .metrics.suite import MetricSuite, agreement
from .metrics.user_models import BROWSING_MODELS, browsing_model, rbp, rbp_residual
from .runs.compare import adjustment_steps, compare_runs, sign_flips
from .runs.evaluate import evaluate
from .runs.pooling import pool
from .runs.systems import compare_systems, tukey_hsd
from .runs.trec import read_qrels, read_run, write_qrels, write_run
from .teaching import classroom, examples, exercises, kinds, samples
from .teaching.checker import Feedback, check
from .teaching.tables import documents_table, examples_table, glossary_table, ndcg_cutoffs
from .teaching.verify import verify

try:
    __version__ = _version("ltr_teach")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0+unknown"

__all__ = [
    "Explanation", "METRICS", "GAINS", "DISCOUNTS", "ZERO_RULES", "TIE_RULES", "log2", "ln",
    "cg", "dcg", "idcg", "ndcg", "err",
    "reciprocal_rank", "mrr", "precision_at_k", "recall_at_k", "f_beta",
    "average_precision", "mean_average_precision", "interpolated_precision", "eleven_point_ap",
    "roc_curve", "auc", "pr_curve", "gauc", "log_loss", "cohen_kappa", "misordered_pairs", "swap_deltas",
    "sampled_metric", "r_precision", "success_at_k", "bpref", "judged_at_k", "rbp", "rbp_residual",
    "browsing_model", "BROWSING_MODELS",
    "confusion_matrix", "ConfusionMatrix", "MetricSuite", "agreement",
    "CONVENTIONS", "compare_conventions", "evaluate", "pool", "compare_runs", "sign_flips", "adjustment_steps",
    "compare_systems", "tukey_hsd",
    "read_qrels", "read_run", "write_qrels", "write_run", "check", "Feedback", "verify", "examples", "exercises",
    "samples",
    "examples_table", "ndcg_cutoffs", "documents_table", "glossary_table",
    "classroom", "set_language", "get_language", "online",
]


def ask(exercise_id, seed=None):
    """An exercise as a widget (Check, Hint, Show answer after a first attempt); see
    :func:`ltr_teach.interactive.ask.ask`. ipywidgets is imported only when a question is asked."""
    from .interactive.ask import ask as make

    return make(exercise_id, seed)


def _exercise_widget(exercise):
    from .interactive.ask import AskBox

    return AskBox(exercise)


kinds.WIDGET_MAKER = _exercise_widget  # Exercise.widget(): the teaching layer cannot import the interactive one
__all__.append("ask")
