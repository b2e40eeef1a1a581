"""Explorers: small widgets around one idea, for the notebooks on many queries and on user models.

:class:`SignFlipExplorer` shows the exact randomisation test of a few per-query differences: a slider
per query, every one of the 2^n sign patterns as a dot (those at least as extreme as the observed mean
filled), the p-value as a fraction, and the whole table of patterns folded away.
:class:`PersistenceExplorer` shows rank-biased precision as a user: a slider for the persistence p, the
share of attention each rank gets, RBP, its residual and how deep the user reads.

As in :mod:`.widgets`, the logic is in plain methods that tests call without a browser
(:meth:`SignFlipExplorer.set_difference`, :meth:`PersistenceExplorer.set_p`); the controls only call them.

CSS classes (for browser tests): ``ltr-flip-explorer``, ``ltr-flip-slider`` (one per query),
``ltr-flip-table``; ``ltr-persistence-explorer``, ``ltr-persistence-slider``; both have ``ltr-result``
(the result line), ``ltr-error`` (why the last change was refused) and ``ltr-plot`` (the PNG).
"""

from __future__ import annotations

import html
import io
from fractions import Fraction

import ipywidgets as W
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ..core.exact import to_exact
from ..core.i18n import _
from ..metrics.user_models import PERSISTENCE, browsing_model, rbp
from ..runs.compare import sign_flips
from .plots import alt_text, plot_explanation, plot_sign_flips, short_title
from .widgets import _Plot, _ShowsWidget

#: The sliders move in steps of 1/20; their values are read as exact hundredths (0.35, not 0.35000000000000003).
_STEP = 0.05


def _hundredths(value: float) -> Fraction:
    return Fraction(round(float(value) * 100), 100)


def _png(draw, size) -> tuple[bytes, object]:
    """Draw into a fresh Agg figure; the PNG (no pyplot state; no software-version metadata) and the axes drawn
    (what the plot's alt text reads)."""
    figure = Figure(figsize=size, dpi=80)
    FigureCanvasAgg(figure)
    ax = figure.add_subplot()
    draw(ax)
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", metadata={"Software": None})
    return buffer.getvalue(), ax


def _refused(error: W.HTML, exc: ValueError) -> None:
    error.value = f"<span style='color:#b00'>{html.escape(_('not applied: {reason}').format(reason=exc))}</span>"


class SignFlipExplorer(_ShowsWidget):
    """The exact randomisation test of a few per-query differences, with a slider per query.

    Parameters
    ----------
    differences : sequence of numbers
        Run minus baseline, one per query (2 to 8 queries, each between -1 and 1).
    queries : sequence of str, optional
        The queries' names (default ``q1``, ``q2`` ...).
    alternative : {"two-sided", "greater", "less"}
        As in ``lt.sign_flips``.
    places : int, optional
        Round the starting differences to this many decimals (2 puts them on the sliders' steps).

    Attributes
    ----------
    widget : ipywidgets.VBox
        The container to display (displaying the explorer itself shows it too).

    Examples
    --------
    >>> explorer = SignFlipExplorer([0.2, 0.1, -0.05], queries=["口红", "面霜", "眼霜"])
    >>> explorer.flips.p_value                      # 4 of the 8 patterns are as far from 0 as 1/12
    Fraction(1, 2)
    >>> explorer.set_difference(2, 0.05)            # 眼霜 now gains too: only the two extremes remain
    >>> explorer.flips.count, explorer.flips.p_value
    (2, Fraction(1, 4))
    """

    MAX_QUERIES = 8

    def __init__(self, differences, queries=None, alternative="two-sided", places=None):
        flips = sign_flips(differences, alternative=alternative, queries=queries, places=places)
        if not 2 <= flips.total.bit_length() - 1 <= self.MAX_QUERIES:
            raise ValueError(f"differences holds {len(flips.differences)} values; the explorer shows 2 to "
                             f"{self.MAX_QUERIES} queries (lt.sign_flips lists more)")
        for i, d in enumerate(flips.differences):
            if not -1 <= d <= 1:
                raise ValueError(f"differences[{i}] = {float(d)} is outside [-1, 1], the sliders' range (a metric "
                                 "between 0 and 1 differs by at most 1)")
        self._flips = flips
        self._syncing = False
        self._sliders = []
        for i, (name, d) in enumerate(zip(flips.queries, flips.differences)):
            slider = W.FloatSlider(value=float(d), min=-1, max=1, step=_STEP, description=name, readout_format="+.2f",
                                   continuous_update=False, style={"description_width": "initial"},
                                   layout=W.Layout(width="300px"))
            slider.tooltip = _("difference of {query} (run minus baseline)").format(query=name)
            slider.add_class("ltr-flip-slider")
            slider.observe(lambda change, i=i: self._on_slider(i, change["new"]), names="value")
            self._sliders.append(slider)
        self._result = W.HTML()
        self._result.add_class("ltr-result")
        self._error = W.HTML()
        self._error.add_class("ltr-error")
        self.plot = _Plot(format="png", layout=W.Layout(width="600px"))
        self.plot.add_class("ltr-plot")
        self._table = W.HTML()
        self._table.add_class("ltr-flip-table")
        folded = W.Accordion(children=[self._table], selected_index=None)
        folded.set_title(0, _("every sign pattern, one row each"))
        self.widget = W.VBox([W.VBox(self._sliders), self._result, self._error, self.plot, folded])
        self.widget.add_class("ltr-flip-explorer")
        self._refresh()

    @property
    def flips(self):
        """The current :class:`~ltr_teach.runs.compare.SignFlips`."""
        return self._flips

    def set_difference(self, i, value) -> None:
        """Set query ``i``'s difference (a number in [-1, 1]) and recount every pattern."""
        n = len(self._flips.differences)
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < n:
            raise ValueError(f"i = {i!r} must be a query's position, 0 to {n - 1}")
        exact = to_exact(value, "value")
        if not -1 <= exact <= 1:
            raise ValueError(f"value = {value!r} must lie between -1 and 1")
        differences = list(self._flips.differences)
        differences[i] = Fraction(int(exact.p), int(exact.q))
        self._flips = sign_flips(differences, alternative=self._flips.alternative, queries=self._flips.queries)
        self._refresh()

    def _on_slider(self, i, value) -> None:
        if self._syncing:
            return
        try:
            self.set_difference(i, _hundredths(value))
        except ValueError as exc:
            _refused(self._error, exc)

    def _refresh(self) -> None:
        flips = self._flips
        self._syncing = True
        try:
            for slider, d in zip(self._sliders, flips.differences):
                slider.value = float(d)
        finally:
            self._syncing = False
        self._error.value = ""
        line = _("p = {p}: {count} of {total} sign patterns have a mean at least as extreme as the observed {mean}")
        self._result.value = "<b>" + html.escape(line.format(p=flips.p_text(), count=flips.count, total=flips.total,
                                                             mean=f"{float(flips.observed):+.4f}")) + "</b>"
        self.plot.value, _ax = _png(lambda ax: plot_sign_flips(flips, ax=ax), (7.5, 3.4))
        # the image's title is its accessible name, and the alt text of the saved snapshot
        self.plot.tooltip = _("Dot plot of the mean difference under each of the {total} sign patterns; filled dots: "
                              "the {count} patterns at least as extreme as the observed mean {mean}, marked by a "
                              "star.").format(total=flips.total, count=flips.count, mean=f"{float(flips.observed):+.4f}")
        self._table.value = flips._repr_html_()

    def __repr__(self) -> str:
        return f"<SignFlipExplorer: {len(self._flips.differences)} queries, {self._flips.total} sign patterns>"


class PersistenceExplorer(_ShowsWidget):
    """Rank-biased precision with a slider for the persistence p: how the user's attention spreads.

    Parameters
    ----------
    grades : sequence of numbers or None
        Relevance in ranked order, as for ``lt.rbp`` (``None``: unjudged).
    names : sequence of str, optional
        Item names for the plot's ticks.
    p : number in [0.05, 0.95]
        The starting persistence (default 0.8), a multiple of 0.05 (the slider's step).
    **rbp_kwargs
        ``k``, ``threshold``, ``weight`` as for ``lt.rbp``.

    Examples
    --------
    >>> explorer = PersistenceExplorer([1, 0, 1, 0, 0])
    >>> explorer.explanation.exact          # (1/5)·(1 + (4/5)^2) = 41/125
    41/125
    >>> explorer.set_p(0.5)                 # (1/2)·(1 + 1/4) = 5/8
    >>> explorer.explanation.exact, explorer.depth.exact   # the user reads 1 + 1/2 + ... + 1/16 = 31/16 ranks
    (5/8, 31/16)
    """

    def __init__(self, grades, names=None, p=PERSISTENCE, **rbp_kwargs):
        self._grades = list(grades)
        self._names = None if names is None else list(names)
        if self._names is not None and len(self._names) != len(self._grades):
            raise ValueError(f"names and grades must have the same length; got {len(self._names)} names and "
                             f"{len(self._grades)} grades")
        self._kwargs = dict(rbp_kwargs)
        self._p = self._check_p(p)
        self._explanation = rbp(self._grades, p=self._p, **self._kwargs)
        self._syncing = False
        self._slider = W.FloatSlider(value=float(self._p), min=0.05, max=0.95, step=_STEP, description="p",
                                     readout_format=".2f", continuous_update=False, layout=W.Layout(width="360px"))
        self._slider.tooltip = _("persistence p: the chance the user reads on after each rank")
        self._slider.add_class("ltr-persistence-slider")
        self._slider.observe(lambda change: self._on_slider(change["new"]), names="value")
        self._result = W.HTML()
        self._result.add_class("ltr-result")
        self._error = W.HTML()
        self._error.add_class("ltr-error")
        self.plot = _Plot(format="png", layout=W.Layout(width="560px"))
        self.plot.add_class("ltr-plot")
        self.table = W.HTMLMath()
        self.table.add_class("ltr-table")
        self.widget = W.VBox([self._slider, self._result, self._error, self.plot, self.table])
        self.widget.add_class("ltr-persistence-explorer")
        self._refresh()

    @staticmethod
    def _check_p(p):
        exact = to_exact(p, "p")
        if not (_between(exact, 0.05, 0.95) and (exact * 20).is_integer):
            raise ValueError(f"p = {p!r} must be one of the slider's values, 0.05, 0.10, ..., 0.95")
        return exact

    @property
    def explanation(self):
        """The current ``lt.rbp`` explanation."""
        return self._explanation

    @property
    def depth(self):
        """The RBP user's expected number of ranks read within the list (``lt.browsing_model``)."""
        return browsing_model("rbp", len(self._grades), p=self._p)

    def set_p(self, p) -> None:
        """Set the persistence (0.05, 0.10, ..., 0.95) and recompute."""
        exact = self._check_p(p)
        self._explanation = rbp(self._grades, p=exact, **self._kwargs)
        self._p = exact
        self._refresh()

    def _on_slider(self, value) -> None:
        if self._syncing:
            return
        try:
            self.set_p(_hundredths(value))
        except ValueError as exc:
            _refused(self._error, exc)

    def _refresh(self) -> None:
        ex = self._explanation
        self._syncing = True
        try:
            self._slider.value = float(self._p)
        finally:
            self._syncing = False
        self._error.value = ""
        residual = ex.parts["residual"]
        endless = 1 / (1 - self._p)
        line = _("{result} · residual {residual} · the user reads 1/(1 - p) = {endless} ranks on average")
        self._result.value = "<b>" + html.escape(line.format(
            result=short_title(ex, limit=16), residual=residual.decimal_str, endless=f"{float(endless):.4g}")) + "</b>"
        self.plot.value, ax = _png(lambda ax: plot_explanation(ex, ax=ax, names=self._names, title=False), (7, 3.4))
        self.plot.tooltip = alt_text(ex, ax, self._names)  # its accessible name, and the snapshot's alt text
        self.table.value = ex._repr_html_()

    def __repr__(self) -> str:
        return f"<PersistenceExplorer: {len(self._grades)} ranks, {self._explanation.result_line()}>"


def _between(x, low, high) -> bool:
    """``low <= x <= high`` for an exact number and two decimals."""
    return to_exact(low, "low") <= x <= to_exact(high, "high")


__all__ = ["PersistenceExplorer", "SignFlipExplorer"]
