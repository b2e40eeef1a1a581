"""ltr_teach: learn how rankings are evaluated, one exact step at a time.

Every metric returns an :class:`~ltr_teach.explanation.Explanation`: the exact value (SymPy), its
float, and the table of steps that produced it.

>>> import ltr_teach as lt
>>> lt.mean_average_precision([[1, 1, 0, 0, 1, 0, 0], [0, 1, 1, 0, 0, 1, 1]]).exact
599/840
"""

from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _version

from . import examples, exercises
from .binary import (
    average_precision,
    eleven_point_ap,
    f_beta,
    interpolated_precision,
    mean_average_precision,
    mrr,
    precision_at_k,
    recall_at_k,
    reciprocal_rank,
)
from .checker import Feedback, check
from .conventions import CONVENTIONS, compare_conventions
from .evaluate import evaluate
from .explanation import Explanation
from .graded import DISCOUNTS, GAINS, ZERO_RULES, cg, dcg, err, idcg, ndcg
from .registry import METRICS
from .roc import auc, roc_curve

try:
    __version__ = _version("ltr_teach")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0+unknown"

__all__ = [
    "Explanation", "METRICS", "GAINS", "DISCOUNTS", "ZERO_RULES",
    "cg", "dcg", "idcg", "ndcg", "err",
    "reciprocal_rank", "mrr", "precision_at_k", "recall_at_k", "f_beta",
    "average_precision", "mean_average_precision", "interpolated_precision", "eleven_point_ap",
    "roc_curve", "auc",
    "CONVENTIONS", "compare_conventions", "evaluate",
    "check", "Feedback", "examples", "exercises",
]
