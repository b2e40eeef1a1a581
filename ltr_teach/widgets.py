"""The documented import path of the editors: ``from ltr_teach.widgets import RankingEditor``.

The code lives in :mod:`ltr_teach.interactive.widgets` and :mod:`ltr_teach.interactive.plots`;
this module re-exports what the README and the notebooks use.
"""

from .interactive.plots import legend_html, plot_explanation, render_png
from .interactive.widgets import Card, MultiQueryEditor, RankingEditor, erratum_card, example_card

__all__ = ["Card", "MultiQueryEditor", "RankingEditor", "erratum_card", "example_card",
           "legend_html", "plot_explanation", "render_png"]
