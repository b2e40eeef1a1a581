"""The choices of the paired tests between runs (``ltr-teach compare``), in a module without NumPy: the
command line lists them in its help without loading the statistics."""

from __future__ import annotations

from ..core.i18n import N_

ALTERNATIVES = {
    "two-sided": N_("the run and the baseline differ (either way)"),
    "greater": N_("the run scores higher than the baseline"),
    "less": N_("the run scores lower than the baseline"),
}
CORRECTIONS = {
    "holm": N_("Holm's step-down adjustment across the runs compared with the baseline"),
    "bonferroni": N_("Bonferroni: each p-value times the number of runs compared with the baseline"),
    "none": N_("no adjustment"),
}
