"""The interactive layer: ranking editors (:mod:`.widgets`, ipywidgets), plots (:mod:`.plots`,
matplotlib with the bundled CJK font in ``fonts/``) and the notebooks' panels (:mod:`.panels`: errata
cards, an erratum browser, a tool switcher, a live metrics panel, editor snapshots).

Imported on demand (``from ltr_teach.widgets import RankingEditor``), so ``import ltr_teach`` stays
free of ipywidgets and matplotlib.
"""
