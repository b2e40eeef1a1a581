"""Whole runs: TREC qrels and run files (:mod:`.trec`) and bulk evaluation with NumPy floats
(:mod:`.evaluate`), whose every number equals the exact metric's under the same convention, and paired
significance tests between runs (:mod:`.compare`)."""

from .compare import RunComparison, compare_runs
from .evaluate import Evaluation, evaluate
from .trec import read_qrels, read_run, write_qrels, write_run

__all__ = ["Evaluation", "evaluate", "RunComparison", "compare_runs", "read_qrels", "read_run", "write_qrels", "write_run"]
