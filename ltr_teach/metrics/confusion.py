"""The confusion matrix of a ranking cut at k: the top k are predicted relevant, the rest are not.

Reading a ranked list as a yes/no decision gives the four counts of classification (TP, FP, FN,
TN) and with them precision (= P@k), recall (= R@k over the relevant items of the list) and
accuracy. The hits come from :func:`ltr_teach.metrics.binary.precision_at_k`'s table, so the
counts and P@k cannot disagree.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import sympy

from ..core.exact import fmt_cell
from ..core.i18n import N_
from ..core.table import Table
from ..core.validate import as_rels
from .binary import precision_at_k


@dataclass(frozen=True)
class ConfusionMatrix:
    """The four counts of a yes/no decision, and the rates built from them (exact fractions).

    Parameters
    ----------
    tp, fp, fn, tn : int
        True positives (relevant, retrieved), false positives (not relevant, retrieved), false
        negatives (relevant, missed) and true negatives (not relevant, not retrieved).

    Examples
    --------
    1000 impressions with 3 clicks, and a predictor that never predicts a click: it misses the
    3 clicks (FN = 3) and is right on the 997 others (TN = 997), so its accuracy is
    (0 + 997) / 1000 = 997/1000, and its precision 0/0 is undefined.

    >>> never = ConfusionMatrix(tp=0, fp=0, fn=3, tn=997)
    >>> never.accuracy, never.recall, never.precision
    (997/1000, 0, None)
    """

    tp: int
    fp: int
    fn: int
    tn: int

    def __post_init__(self):
        for name in ("tp", "fp", "fn", "tn"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
                raise ValueError(f"{name} = {value!r} must be a whole number >= 0")

    @property
    def total(self) -> int:
        """TP + FP + FN + TN: every decision."""
        return self.tp + self.fp + self.fn + self.tn

    @staticmethod
    def _ratio(top: int, bottom: int):
        return None if bottom == 0 else sympy.Rational(top, bottom)

    @property
    def precision(self):
        """TP / (TP + FP), a SymPy Rational; ``None`` when nothing was retrieved (0/0)."""
        return self._ratio(self.tp, self.tp + self.fp)

    @property
    def recall(self):
        """TP / (TP + FN); ``None`` when nothing is relevant (0/0)."""
        return self._ratio(self.tp, self.tp + self.fn)

    @property
    def accuracy(self):
        """(TP + TN) / all decisions; ``None`` when there are none."""
        return self._ratio(self.tp + self.tn, self.total)

    def as_dict(self) -> dict:
        """``{"TP": ..., "FP": ..., "FN": ..., "TN": ...}``."""
        return {"TP": self.tp, "FP": self.fp, "FN": self.fn, "TN": self.tn}

    def table(self) -> Table:
        """The 2 × 2 matrix: relevant / not relevant against retrieved / not retrieved."""
        return Table(("", "retrieved", "not retrieved"),
                     (("relevant", str(self.tp), str(self.fn)), ("not relevant", str(self.fp), str(self.tn))))

    def rates(self) -> Table:
        """Precision, recall and accuracy with their fractions (``undefined`` for 0/0)."""
        rows = []
        for name, formula, top, bottom, value in (
            ("precision", "TP / (TP + FP)", self.tp, self.tp + self.fp, self.precision),
            ("recall", "TP / (TP + FN)", self.tp, self.tp + self.fn, self.recall),
            ("accuracy", "(TP + TN) / all", self.tp + self.tn, self.total, self.accuracy),
        ):
            rows.append((name, formula, f"{top}/{bottom}", "undefined (0/0)" if value is None else fmt_cell(value)))
        return Table((N_("rate"), N_("formula"), N_("counts"), "value"), tuple(rows), left=3)

    def __str__(self) -> str:
        return str(self.table())


def confusion_matrix(rels, k, n_relevant=None) -> ConfusionMatrix:
    """The confusion matrix when the top ``k`` results of a ranking are predicted relevant.

    Parameters
    ----------
    rels : sequence of 0/1
        Relevance in ranked order (rank 1 first).
    k : int
        How many results are retrieved (predicted relevant), 0 to ``len(rels)``; ``k = 0``
        retrieves nothing (the "never relevant" predictor).
    n_relevant : int, optional
        Relevant items in the whole collection (default: those in ``rels``); the ones outside
        the list are false negatives.

    Returns
    -------
    ConfusionMatrix
        TP = hits in the top k (the ``hits`` column of P@k's table), FP = k − TP,
        FN = n_relevant − TP, TN = the rest of the list minus the missed relevant ones in it.

    Examples
    --------
    Ten results, relevant at ranks 1, 2, 4 and 7; retrieve the top 5. Ranks 1, 2, 4 are hits
    (TP = 3), ranks 3 and 5 are not (FP = 5 − 3 = 2), rank 7 is missed (FN = 4 − 3 = 1), and the
    other 4 of ranks 6–10 are true negatives (TN = 10 − 5 − 1 = 4):

    >>> cm = confusion_matrix([1, 1, 0, 1, 0, 0, 1, 0, 0, 0], k=5)
    >>> cm.as_dict()
    {'TP': 3, 'FP': 2, 'FN': 1, 'TN': 4}
    >>> cm.precision, cm.recall, cm.accuracy   # 3/5 = P@5, 3/4 = R@5, (3 + 4)/10
    (3/5, 3/4, 7/10)
    >>> print(cm)
                  retrieved  not retrieved
    ------------  ---------  -------------
    relevant              3              1
    not relevant          2              4
    """
    rels = [int(r) for r in as_rels(rels, "rels")]
    if isinstance(k, bool) or not isinstance(k, numbers.Integral) or not 0 <= k <= len(rels):
        raise ValueError(f"k = {k!r} must be a whole number 0..{len(rels)} (the length of rels)")
    relevant_in_list = sum(1 for r in rels if r)
    if n_relevant is None:
        n_relevant = relevant_in_list
    elif isinstance(n_relevant, bool) or not isinstance(n_relevant, numbers.Integral) or n_relevant < relevant_in_list:
        raise ValueError(f"n_relevant = {n_relevant!r} must be a whole number >= {relevant_in_list}, "
                         "the relevant items in rels")
    hits = 0 if k == 0 else int(precision_at_k(rels, int(k)).steps[-1]["hits"])
    missed_in_list = relevant_in_list - hits
    return ConfusionMatrix(tp=hits, fp=int(k) - hits, fn=int(n_relevant) - hits,
                           tn=len(rels) - int(k) - missed_in_list)


__all__ = ["ConfusionMatrix", "confusion_matrix"]
