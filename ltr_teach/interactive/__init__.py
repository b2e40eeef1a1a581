"""The interactive layer: ranking editors (:mod:`.widgets`, ipywidgets) and plots (:mod:`.plots`,
matplotlib with the bundled CJK font in ``fonts/``).

Imported on demand (``from ltr_teach.widgets import RankingEditor``), so ``import ltr_teach`` stays
free of ipywidgets and matplotlib.
"""
