"""The documented import path of the editors: ``from ltr_teach.widgets import RankingEditor``.

The code lives in :mod:`ltr_teach.interactive.widgets` and :mod:`ltr_teach.interactive.plots`;
this module re-exports what the README and the notebooks use.
"""

from .interactive.panels import (
    ConventionSwitcher,
    EditorSnapshot,
    ErratumBrowser,
    MetricsDashboard,
    errata_panel,
    erratum_html,
    side_by_side,
)
from .interactive.explorers import PersistenceExplorer, SignFlipExplorer
from .interactive.plots import legend_html, plot_explanation, plot_reach, plot_run_differences, plot_sign_flips, render_png
from .interactive.widgets import Card, MultiQueryEditor, RankingEditor, erratum_card, example_card

__all__ = ["Card", "ConventionSwitcher", "EditorSnapshot", "ErratumBrowser", "MetricsDashboard", "MultiQueryEditor",
           "PersistenceExplorer", "RankingEditor", "SignFlipExplorer", "errata_panel", "erratum_card", "erratum_html",
           "example_card", "legend_html", "plot_explanation", "plot_reach", "plot_run_differences", "plot_sign_flips",
           "render_png", "side_by_side"]
