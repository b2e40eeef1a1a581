"""The documented import path of the editors: ``from ltr_teach.widgets import RankingEditor``.

The code lives in :mod:`ltr_teach.interactive.widgets` and :mod:`ltr_teach.interactive.plots`;
this module re-exports what the user guide and the notebooks use.
"""

from .interactive.explorers import PersistenceExplorer, SignFlipExplorer
from .interactive.panels import (
    ConventionSwitcher,
    EditorSnapshot,
    ErratumBrowser,
    JudgmentsPanel,
    MetricsDashboard,
    SampledRankPanel,
    SwapWeightsPanel,
    decimal_first,
    errata_cards,
    errata_panel,
    erratum_html,
    side_by_side,
)
from .interactive.plots import (
    legend_html,
    plot_explanation,
    plot_rank_weights,
    plot_reach,
    plot_run_differences,
    plot_score_sweep,
    plot_sign_flips,
    plot_suite,
    rank_weights_figure,
    render_png,
)
from .interactive.widgets import Card, MultiQueryEditor, RankingEditor, erratum_card, example_card

__all__ = ["Card", "ConventionSwitcher", "EditorSnapshot", "ErratumBrowser", "JudgmentsPanel", "MetricsDashboard",
           "MultiQueryEditor", "PersistenceExplorer", "RankingEditor", "SampledRankPanel", "SignFlipExplorer",
           "SwapWeightsPanel", "decimal_first", "errata_cards", "errata_panel", "erratum_card", "erratum_html", "example_card",
           "legend_html", "plot_explanation", "plot_rank_weights", "plot_reach", "plot_run_differences",
           "plot_score_sweep", "plot_sign_flips", "plot_suite", "rank_weights_figure", "render_png", "side_by_side"]
