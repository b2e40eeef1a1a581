"""What the checker and the exercises both say: a first hint per metric and the expected-value line.

Kept apart from the checker so that the exercises (which the checker reads to resolve an id) can
use them without importing the checker.
"""

from __future__ import annotations

from ..core.exact import fmt_cell
from ..core.i18n import N_

#: English message ids: the checker shows them through ``_()`` in the current language.
GENERIC_HINTS = {
    "cg": N_("CG adds the grades of the top k; order does not matter."),
    "dcg": N_("Write one row per rank: gain, discount, gain / discount; then add the last column."),
    "idcg": N_("Sort the judged grades best first, then compute DCG of that order (only the top k)."),
    "ndcg": N_("Compute DCG of the ranking and DCG of the ideal order, then divide."),
    "err": N_("Make a table: R_i = (2^g - 1)/2^g_max, P(reach i), P(stop at i) = P(reach i)·R_i, then add P(stop)/i."),
    "reciprocal_rank": N_("Find the first relevant item; its rank r gives 1/r."),
    "mrr": N_("Find each query's first relevant rank r, take 1/r, then the mean over queries."),
    "precision_at_k": N_("Count the relevant items in the top k and divide by k."),
    "recall_at_k": N_("Count the relevant items in the top k and divide by all relevant documents."),
    "f_beta": N_("Compute P and R first, then (1 + β²)·P·R / (β²·P + R)."),
    "average_precision": N_("At each relevant rank i write hits/i; add them and divide by all relevant documents."),
    "mean_average_precision": N_("Compute each query's AP (divided by all its relevant documents), then the mean."),
    "interpolated_precision": N_("Interpolated precision at recall r is the best precision at any recall >= r."),
    "eleven_point_ap": N_("Take the interpolated precision at recall 0, 0.1, ..., 1.0 and average the 11 values."),
    "r_precision": N_("Count the relevant documents R, then the relevant items in the top R, and divide by R."),
    "success_at_k": N_("Look at the top k only: is any of them relevant? Then 1, else 0."),
    "bpref": N_("Skip unjudged documents; for each relevant one count the judged non-relevant ranked above it (n) and "
             "add 1 - min(n, R)/min(N, R); divide the sum by R."),
    "judged_at_k": N_("Count the documents of the top k that have a judgment (0 is a judgment too) and divide by k."),
    "cohen_kappa": N_("Count the items the judges agree on (P(A) = agreed / n); count each judge's items per "
                      "category; P(E) adds the products of their shares; then κ = (P(A) − P(E)) / (1 − P(E))."),
    "rbp": N_("Rank i is read with probability p^(i-1): add p^(i-1) for each relevant rank, then multiply by 1 - p."),
    "rbp_residual": N_("Add (1 - p)·p^(i-1) for each unjudged rank i, then p^d for everything below the depth d."),
    "roc_curve": N_("For every positive-negative pair: 1 if the positive scores higher, 1/2 if tied; divide by the "
                 "number of pairs."),
    "auc": N_("For every positive-negative pair: 1 if the positive scores higher, 1/2 if tied; divide by the number "
           "of pairs."),
    "gauc": N_("Group the impressions by user; compute each user's AUC (skip users with one class only); weight each "
            "AUC by the user's impressions and divide by the total weight."),
    "log_loss": N_("For each impression take −ln p if it was clicked, −ln(1 − p) if not; then the mean."),
    "pr_curve": N_("Lower the threshold score by score; at each positive add the recall it gains times the precision "
                   "there, TP / (TP + FP)."),
}


def expected_text(exact) -> str:
    """The exact value with its decimal: ``599/840 ≈ 0.713095``.

    Parameters
    ----------
    exact : SymPy number
        The right value.

    Returns
    -------
    str
        The exact form and its six-decimal value, as the feedback's "expected" line shows it.

    Examples
    --------
    599/840 = 0.71309523..., shown to six decimals:

    >>> import sympy
    >>> expected_text(sympy.Rational(599, 840))
    '599/840 ≈ 0.713095'
    """
    return fmt_cell(exact, max_exact=60)


__all__ = ["GENERIC_HINTS", "expected_text"]
