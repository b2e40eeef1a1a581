"""Plots of explanation objects, with a bundled CJK font so Chinese item names render anywhere.

Importing this module registers the font shipped in ``ltr_teach/fonts/`` (a subset of Noto Sans
CJK SC, SIL Open Font Licence) with matplotlib and adds it to the sans-serif fallback list, so
labels such as 小棕瓶眼霜 render on a machine with no CJK system font: Latin text keeps
matplotlib's default DejaVu Sans and each Chinese character falls back to the bundled font.

Every plot is a plain function of an :class:`~ltr_teach.core.explanation.Explanation`:
:func:`plot_explanation` picks the right picture for the metric (per-rank contributions and the
cumulative DCG against the ideal, precision at each hit, cascade stop probabilities, the ROC
curve ...). :func:`render_png` draws the same picture into a PNG with the Agg backend; the
widgets use it.
"""

from __future__ import annotations

import html
import io
import math
from pathlib import Path

import matplotlib
import numpy as np
import PIL.Image
from matplotlib import font_manager
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, ScalarFormatter

from ..core.exact import to_float
from ..core.explanation import Explanation
from ..core.i18n import N_, Message, _, translate
from ..core.palette import COLORS, HATCHES, PALETTE

FONT_DIR = Path(__file__).parent / "fonts"

#: Text sizes in points. The widgets draw at 80 dpi: 10 pt is 11 px, the smallest text of a plot
#: (ticks, legend); axis labels 11 pt, titles 12 pt.
TEXT_SIZES = {"tick": 10, "legend": 10, "label": 11, "title": 12}
matplotlib.rcParams.update({"xtick.labelsize": TEXT_SIZES["tick"], "ytick.labelsize": TEXT_SIZES["tick"],
                            "axes.labelsize": TEXT_SIZES["label"], "legend.fontsize": TEXT_SIZES["legend"],
                            "axes.titlesize": TEXT_SIZES["title"]})


def register_fonts() -> list[str]:
    """Register the bundled fonts with matplotlib; return their family names.

    The families are appended to ``font.family`` (after ``sans-serif``, i.e. DejaVu Sans), because
    matplotlib (>= 3.6) falls back glyph by glyph along that list: Latin text keeps its usual look
    and each Chinese character comes from the bundled font. Calling it twice changes nothing.
    """
    families = []
    for path in sorted(FONT_DIR.glob("*.[ot]tf")):
        font_manager.fontManager.addfont(str(path))
        families.append(font_manager.FontProperties(fname=str(path)).get_name())
    current = list(matplotlib.rcParams["font.family"])
    matplotlib.rcParams["font.family"] = current + [f for f in families if f not in current]
    return families


CJK_FAMILIES = register_fonts()


def _f(x) -> float:
    """The float to plot; NaN (not drawn) for a missing cell or a value beyond the float range."""
    value = float("nan") if x is None else to_float(x)
    return value if math.isfinite(value) else float("nan")


def _labels(n: int, names) -> list[str]:
    """Tick labels ``1. 小棕瓶眼霜``; ranks past the names (an ideal pool longer than the list) show the rank alone."""
    if names is None:
        return [str(i) for i in range(1, n + 1)]
    names = list(names)
    return [f"{i}. {names[i - 1]}" if i <= len(names) else f"{i}." for i in range(1, n + 1)]


#: Up to this many ranks every tick is labelled (with the item's name when given); beyond it a few round
#: rank numbers: 200 rotated names are unreadable, and drawing them took most of a 200-item editor's second.
NAMED_TICKS_UP_TO = 30


def _rank_axis(ax, n: int, names, xlabel: str = N_("rank")) -> None:
    if n > NAMED_TICKS_UP_TO:
        ax.xaxis.set_major_locator(MaxNLocator(nbins=10, integer=True, min_n_ticks=2))
        ax.xaxis.set_major_formatter(ScalarFormatter())
        ax.set_xlabel(translate(xlabel))
        ax.set_xlim(0.4, n + 0.6)
        return
    ax.set_xticks(range(1, n + 1))
    labels = _labels(n, names)
    if names is not None:
        ax.set_xticklabels(labels, rotation=30, ha="right", rotation_mode="anchor", fontsize=TEXT_SIZES["tick"])
        ax.set_xlabel("")  # a reused axes may still carry the label of a longer list
    else:
        ax.set_xticklabels(labels)
        ax.set_xlabel(translate(xlabel))
    ax.set_xlim(0.4, n + 0.6)


def _nice_top(value: float) -> float:
    """A round upper limit a little above ``value`` (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 times a power of 10).

    Round limits keep the y axis still while a slider moves the data a little, which keeps the
    widget's cached axes image valid.
    """
    if not value > 0 or not math.isfinite(value):
        return 1.0
    if not 1e-300 < value < 1e300:  # no round number to spare near the ends of the float range
        return min(value * 1.05, 1e306)  # the tick locator multiplies the top: keep it well inside the range
    power = 10.0 ** math.floor(math.log10(value * 1.05))
    return next((m * power for m in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10) if m * power >= value * 1.05),
                value * 1.05)


def _plot_gain_sums(ex: Explanation, ax, names) -> None:
    """CG, DCG, IDCG, NDCG: bars per rank, the running sum as a line, the ideal's as a dashed line."""
    rows = ex.steps
    ranks = [r["rank"] for r in rows]
    bar_key = "grade" if ex.metric == "cg" else "contribution"
    shown = [(r["rank"], _f(r.get(bar_key))) for r in rows if r.get(bar_key) is not None]
    ax.bar([x for x, _ in shown], [y for _, y in shown], color=COLORS["bar"], width=0.6,
           label=_("grade") if ex.metric == "cg" else _("gain / discount"))
    if ex.metric == "ndcg":
        dcg_pts = [(r["rank"], _f(r["dcg"])) for r in rows if r.get("dcg") is not None]
        ideal_pts = [(r["rank"], _f(r["idcg"])) for r in rows if r.get("idcg") is not None]
        ax.plot([x for x, _ in dcg_pts], [y for _, y in dcg_pts], "o-", color=COLORS["line"], label=_("DCG so far"))
        if ideal_pts:
            ax.plot([x for x, _ in ideal_pts], [y for _, y in ideal_pts], "s--", color=COLORS["ideal"],
                    label=_("IDCG so far (ideal order)"))
        ylabel = _("gain / discount, running sums")
    else:
        label = {"cg": _("CG so far"), "dcg": _("DCG so far"), "idcg": _("IDCG so far")}[ex.metric]
        ax.plot(ranks, [_f(r["cumulative"]) for r in rows], "o-", color=COLORS["line"], label=label)
        ylabel = _("grade, running sum") if ex.metric == "cg" else _("gain / discount, running sum")
    ax.set_ylabel(ylabel)
    heights = [y for _, y in shown] + [np.nanmax(line.get_ydata()) for line in ax.lines
                                        if len(line.get_ydata()) and not np.isnan(line.get_ydata()).all()]
    ax.set_ylim(0, _nice_top(max((h for h in heights if math.isfinite(h)), default=0.0)))
    _rank_axis(ax, len(ranks), names if ex.metric != "idcg" else None)


def _plot_err(ex: Explanation, ax, names) -> None:
    """ERR: where the cascade user stops; the chance of reaching each rank as a line."""
    rows = ex.steps
    ranks = [r["rank"] for r in rows]
    ax.bar(ranks, [_f(r["stop"]) for r in rows], color=COLORS["bar"], width=0.6, label=_("P(stop at i)"))
    ax.plot(ranks, [_f(r["reach"]) for r in rows], "o-", color=COLORS["line"], label=_("P(reach i)"))
    ax.plot(ranks, [_f(r["contribution"]) for r in rows], "d:", color=COLORS["ideal"], label=_("P(stop at i) / i"))
    ax.set_ylim(0, 1.3)  # headroom: the legend sits above the bars
    ax.set_yticks([0, 0.2, 0.4, 0.6, 0.8, 1.0])
    ax.set_ylabel(_("probability"))
    _rank_axis(ax, len(ranks), names)


def _plot_precision(ex: Explanation, ax, names) -> None:
    """P@k, R@k, F, AP, RR: precision at every rank, hits coloured, misses grey."""
    rows = ex.steps
    ranks = [r["rank"] for r in rows]
    colors = [COLORS["bar"] if r["rel"] else COLORS["miss"] for r in rows]
    hatches = ["" if r["rel"] else HATCHES["miss"] for r in rows]  # colour is not the only cue
    if ex.metric == "reciprocal_rank":
        heights = [1.0 / r["rank"] for r in rows]
        ax.bar(ranks, heights, color=colors, hatch=hatches, width=0.6)
        ax.set_ylabel(_("1 / rank"))
    elif ex.metric == "recall_at_k":
        ax.bar(ranks, [_f(r["recall"]) for r in rows], color=colors, hatch=hatches, width=0.6)
        ax.set_ylabel(_("recall at rank"))
    else:
        ax.bar(ranks, [_f(r["precision"]) for r in rows], color=colors, hatch=hatches, width=0.6)
        hits = [(r["rank"], _f(r["precision"])) for r in rows if r["rel"]]
        if hits:
            ax.plot([x for x, _ in hits], [y for _, y in hits], "o", color=COLORS["line"],
                    label=_("precision at a hit") if ex.metric == "average_precision" else _("hit"))
        ax.set_ylabel(_("precision at rank"))
    if ex.metric in ("average_precision", "f_beta", "precision_at_k", "recall_at_k"):
        ax.axhline(ex.value, color=COLORS["ideal"], linestyle="--", label=ex.name)
    ax.figure.ltr_key = _relevance_key()  # which bars are relevant: in the legend, not only in the colour
    ax.set_ylim(0, 1.3)  # headroom: the legend sits above the bars
    ax.set_yticks([0, 0.2, 0.4, 0.6, 0.8, 1.0])
    _rank_axis(ax, len(ranks), names)


def _relevance_key() -> list:
    """Legend entries for the two kinds of bar: solid blue relevant, hatched grey not (matplotlib patches)."""
    from matplotlib.patches import Patch

    return [(Patch(facecolor=COLORS["bar"]), _("relevant")),
            (Patch(facecolor=COLORS["miss"], hatch=HATCHES["miss"]), _("not relevant"))]


def _legend_entries(ax) -> tuple[list, list]:
    """The axes' labelled artists, then the figure's key entries (the relevance key of the precision plots)."""
    handles, labels = ax.get_legend_handles_labels()
    for handle, label in getattr(ax.figure, "ltr_key", []):
        handles.append(handle)
        labels.append(label)
    return handles, labels


def _plot_per_query(ex: Explanation, ax, names) -> None:
    """MRR, MAP and mean NDCG: one bar per query, the mean as a dashed line."""
    rows = ex.steps
    key, label = {"mrr": ("rr", _("reciprocal rank")), "mean_average_precision": ("ap", "AP"),
                  "mean_ndcg": ("ndcg", "NDCG")}[ex.metric]
    xs = list(range(1, len(rows) + 1))
    ax.bar(xs, [_f(r[key]) for r in rows], color=COLORS["bar"], width=0.6, label=label)
    ax.axhline(ex.value, color=COLORS["line"], linestyle="--", label=ex.name)
    ax.set_xticks(xs)
    ax.set_xticklabels([str(r["query"]) for r in rows], fontsize=TEXT_SIZES["tick"])
    ax.set_xlabel(_("query"))
    ax.set_ylim(0, 1.3)  # headroom: the legend sits above the bars
    ax.set_yticks([0, 0.2, 0.4, 0.6, 0.8, 1.0])


def _plot_pr_curve(ex: Explanation, ax, names) -> None:
    """Interpolated precision and 11-point AP: the precision–recall points and their upper envelope."""
    base = ex.parts["pr"] if ex.metric == "eleven_point_ap" else ex
    rows = base.steps
    recall = [0.0] + [_f(r["recall"]) for r in rows]
    interp = [_f(rows[0]["interpolated"])] + [_f(r["interpolated"]) for r in rows]
    ax.plot([_f(r["recall"]) for r in rows], [_f(r["precision"]) for r in rows], "o", color=COLORS["bar"],
            label=_("(recall, precision) at each rank"))
    ax.step(recall, interp, where="pre", color=COLORS["line"], label=_("interpolated precision"))
    if ex.metric == "eleven_point_ap":
        ax.plot([_f(r["level"]) for r in ex.steps], [_f(r["interpolated"]) for r in ex.steps], "s",
                color=COLORS["ideal"], label=_("the 11 recall levels"))
    ax.set_xlim(-0.03, 1.03)
    ax.set_ylim(0, 1.08)
    ax.set_xlabel(_("recall"))
    ax.set_ylabel(_("precision"))


def _plot_roc(ex: Explanation, ax, names) -> None:
    """ROC: the curve point by point, the area under it shaded, the diagonal of a random ranking."""
    base = ex.parts["roc"] if ex.metric == "auc" else ex
    fpr = [_f(r["fpr"]) for r in base.steps]
    tpr = [_f(r["tpr"]) for r in base.steps]
    ax.fill_between(fpr, tpr, color=COLORS["fill"], alpha=0.35, label=_("area = {value}").format(value=ex.decimal_str))
    ax.plot(fpr, tpr, "o-", color=COLORS["bar"], label=_("ROC curve"))
    ax.plot([0, 1], [0, 1], ":", color=COLORS["miss"], label=_("random ranking"))
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.05)
    ax.set_aspect("equal")
    ax.set_xlabel(_("false positive rate (FPR)"))
    ax.set_ylabel(_("true positive rate (TPR)"))


#: Where each kind of plot keeps its legend, and in how many columns: a row above the bars (which have
#: headroom), a column in the empty corner of a curve. The running sums of CG/DCG/NDCG climb to the top
#: while their bars shrink, so where they leave room depends on the grades: matplotlib's "best" finds it.
_LEGEND_PLACES = {_plot_gain_sums: ("best", 1), _plot_err: ("upper left", 3), _plot_precision: ("upper left", 3),
                  _plot_per_query: ("upper left", 3), _plot_pr_curve: ("lower left", 1), _plot_roc: ("lower right", 1)}

_PLOTTERS = {
    "cg": _plot_gain_sums, "dcg": _plot_gain_sums, "idcg": _plot_gain_sums, "ndcg": _plot_gain_sums,
    "err": _plot_err,
    "precision_at_k": _plot_precision, "recall_at_k": _plot_precision, "f_beta": _plot_precision,
    "average_precision": _plot_precision, "reciprocal_rank": _plot_precision,
    "mrr": _plot_per_query, "mean_average_precision": _plot_per_query, "mean_ndcg": _plot_per_query,
    "interpolated_precision": _plot_pr_curve, "eleven_point_ap": _plot_pr_curve,
    "roc_curve": _plot_roc, "auc": _plot_roc,
}


#: Metrics plotted against rank, whose tick labels are item names.
_RANKED = {m for m, f in _PLOTTERS.items() if f in (_plot_gain_sums, _plot_err, _plot_precision)}


def plot_explanation(ex: Explanation, ax=None, names=None, title: bool = True, legend: bool = True):
    """Draw the picture that explains ``ex`` and return the axes.

    Parameters
    ----------
    ex : Explanation
        Any metric's explanation (``lt.ndcg(...)``, ``lt.average_precision(...)``, ``lt.auc(...)``).
    ax : matplotlib Axes, optional
        Where to draw; by default a new pyplot figure (shown inline in a notebook).
    names : sequence of str, optional
        Item names in ranked order, used as tick labels (Chinese names render with the bundled font).
    title : bool
        Put the result line (``NDCG@7 = ... ≈ 0.944227``) above the plot.
    legend : bool
        Draw the legend inside the axes (the widgets show it as HTML instead: :func:`legend_html`).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import ltr_teach as lt
    >>> from matplotlib.figure import Figure
    >>> ax = Figure().add_subplot()
    >>> ax = plot_explanation(lt.ndcg([3, 2, 3, 0]), ax=ax, names=["MAC口红", "神仙水", "兰蔻粉水", "芦荟霜"])
    >>> [line.get_label() for line in ax.get_lines()]
    ['DCG so far', 'IDCG so far (ideal order)']
    """
    if not isinstance(ex, Explanation):
        raise TypeError(f"ex must be an Explanation returned by an ltr_teach metric; got {type(ex).__name__}")
    plotter = _PLOTTERS.get(ex.metric)
    if plotter is None:
        raise ValueError(f"no plot for metric {ex.metric!r}; plots exist for {', '.join(_PLOTTERS)}")
    if ax is None:
        import matplotlib.pyplot as plt

        _figure, ax = plt.subplots(figsize=(7, 3.6))
    ax.figure.ltr_key = []
    plotter(ex, ax, names)
    handles, labels = _legend_entries(ax)
    if legend and handles:
        place, columns = _LEGEND_PLACES[plotter]
        ax.legend(handles, labels, loc=place, fontsize=TEXT_SIZES["legend"], frameon=False, ncol=columns)
    if title:
        ax.set_title(short_title(ex), fontsize=TEXT_SIZES["title"])
    ax.figure.ltr_alt_text = alt_text(ex, ax, names)
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)  # grid under the data, as when the widgets draw the data over a cached grid
    return ax


#: How a legend entry is drawn, in words: (line style, marker) -> message. A bar container and an area have their own.
_CUES = {("-", "o"): N_("solid line with circles"), ("--", "s"): N_("dashed line with squares"),
         (":", "d"): N_("dotted line with diamonds"), ("--", "None"): N_("dashed line"), (":", "None"): N_("dotted line"),
         ("None", "o"): N_("circles"), ("None", "s"): N_("squares"), ("-", "None"): N_("solid line")}


_LINE = N_("line")


def _cue(handle) -> str:
    if hasattr(handle, "patches"):
        return _("bars")
    if hasattr(handle, "get_linestyle") and hasattr(handle, "get_marker"):
        return translate(_CUES.get((handle.get_linestyle(), str(handle.get_marker())), _LINE))
    return _("shaded area")


def alt_text(ex: Explanation, ax, names=None) -> str:
    """A short description of the plot of ``ex`` drawn in ``ax``, for a screen reader (an image's alt text).

    It says what is plotted against what, which items, each series with how it is drawn (so that a reader
    who cannot tell the colours apart knows the other cue), and the result.

    Examples
    --------
    >>> import ltr_teach as lt
    >>> from matplotlib.figure import Figure
    >>> ex = lt.precision_at_k([1, 0, 1], k=3)
    >>> print(alt_text(ex, plot_explanation(ex, ax=Figure().add_subplot(), names=["a", "b", "c"]), ["a", "b", "c"]))
    Plot of P@3 rank by rank, ranks 1 to 3 (a, b, c). Solid blue bars: relevant; hatched grey bars: not relevant. Series: hit (circles); P@3 (dashed line). Result: P@3 = 2/3 ≈ 0.666667.
    """
    plotter = _PLOTTERS.get(ex.metric)
    n = len(ex.steps)
    if plotter in (_plot_gain_sums, _plot_err, _plot_precision):
        items = ""
        if names is not None:
            shown = ", ".join(map(str, list(names)[:10])) + (", …" if len(names) > 10 else "")
            items = _(" ({names})").format(names=shown)
        sentences = [_("Plot of {name} rank by rank, ranks 1 to {n}{items}.").format(name=ex.name, n=n, items=items)]
    elif plotter is _plot_per_query:
        sentences = [_("Plot of {name} query by query, {n} queries.").format(name=ex.name, n=n)]
    elif plotter is _plot_pr_curve:
        sentences = [_("Precision–recall plot of {name}.").format(name=ex.name)]
    else:
        sentences = [_("ROC plot of {name}.").format(name=ex.name)]
    if plotter is _plot_precision:
        sentences.append(_("Solid blue bars: relevant; hatched grey bars: not relevant."))
    handles, labels = ax.get_legend_handles_labels()  # the key is said in its own sentence above
    if handles:
        series = _("; ").join(_("{label} ({cue})").format(label=label, cue=_cue(h)) for h, label in zip(handles, labels))
        sentences.append(_("Series: {series}.").format(series=series))
    sentences.append(_("Result: {result}.").format(result=short_title(ex)))
    text = sentences[0]
    for sentence in sentences[1:]:
        text = _("{text} {sentence}").format(text=text, sentence=sentence)  # Chinese sentences need no space
    return text


def short_title(ex: Explanation, limit: int = 28) -> str:
    """The result line, or ``NDCG@7 ≈ 0.944227`` when the exact form is too long for a plot title."""
    return ex.result_line() if len(ex.exact_str) <= limit else f"{ex.name} ≈ {ex.decimal_str}"


def render_png(ex: Explanation, names=None, figure: Figure | None = None, size=(7, 3.6), dpi: int = 80,
               legend: bool = True) -> bytes:
    """The plot of ``ex`` as PNG bytes, drawn with the Agg backend (no pyplot, no global figure state).

    Passing the same ``figure`` again redraws into its axes: the data artists and the title are
    replaced, and when the axes would look the same as last time (same names, limits and labels)
    only those are drawn over a cached image of the axes (blitting). Text is the slow part of a
    matplotlib frame, and rotated Chinese tick labels are most of the text, so a slider move that
    changes only the bars costs a fraction of a full draw. ``legend=False`` leaves the legend out
    (pair it with :func:`legend_html`). The PNG carries no software-version metadata.
    """
    fig = figure if figure is not None else Figure(figsize=size, dpi=dpi)
    if not isinstance(fig.canvas, FigureCanvasAgg):
        FigureCanvasAgg(fig)
    if figure is not None and len(fig.axes) == 1 and _update_in_place(fig.axes[0], ex, names, legend):
        ax = fig.axes[0]
    elif len(fig.axes) == 1:
        ax = fig.axes[0]
        for container in list(ax.containers):
            container.remove()
        for artist in [*ax.patches, *ax.lines, *ax.collections, *ax.texts]:
            artist.remove()
        if ax.get_legend() is not None:
            ax.get_legend().remove()
        ax.relim()
        ax.set_autoscale_on(True)
        ax.set_aspect("auto")
    else:
        fig.clear()
        ax = fig.add_subplot()
    if not getattr(ax, "_ltr_in_place", False):
        plot_explanation(ex, ax=ax, names=names, title=False, legend=legend)
        ax._ltr_shape = _shape(ax, ex, legend)
    ax._ltr_in_place = False
    ax.set_title(short_title(ex), fontsize=TEXT_SIZES["title"])
    fig.ltr_alt_text = alt_text(ex, ax, names)
    wide_labels = names is not None and ex.metric in _RANKED and len(ex.steps) <= NAMED_TICKS_UP_TO
    if not wide_labels:
        names = None  # not drawn: keep them out of the cache key too
    fig.subplots_adjust(left=0.1, right=0.97, top=0.9, bottom=0.24 if wide_labels else 0.15)
    if figure is None:
        buf = io.BytesIO()
        fig.savefig(buf, format="png", metadata={"Software": None}, pil_kwargs={"compress_level": 1})
        return buf.getvalue()
    ax.apply_aspect()  # the ROC's equal aspect moves the axes box: fix it before caching or blitting
    return _blit_png(fig, ax, key=(ax.get_position().bounds, ex.metric, len(ex.steps), ax.get_xlim(), ax.get_ylim(),
                                   ax.get_xlabel(), ax.get_ylabel(), legend, wide_labels),
                     names_key=None if names is None else tuple(names))


class _ShapeChanged(Exception):
    """The new picture needs other artists than the axes holds: draw it afresh."""


class _InPlace:
    """Stands in for the axes while a plotter redraws: ``bar``, ``plot`` and ``axhline`` update the artists
    the last picture left (heights, colours, line data) instead of creating new ones, which is most of
    a small plot's Python time; any other call goes to the real axes. A call the old picture cannot take
    (another count of bars, another line) raises :class:`_ShapeChanged`."""

    def __init__(self, ax):
        self._ax = ax
        self._bars = list(ax.containers)
        self._lines = list(ax.lines)

    def __getattr__(self, name):
        if name in ("fill_between", "step", "text", "annotate", "scatter", "legend"):
            raise _ShapeChanged(name)
        return getattr(self._ax, name)

    def bar(self, x, heights, color=None, label=None, hatch=None, **kwargs):
        if not self._bars:
            raise _ShapeChanged("bar")
        bars = self._bars.pop(0)
        x, heights = list(x), list(heights)
        if len(bars.patches) != len(heights) or (label is not None and bars.get_label() != label):
            raise _ShapeChanged("bar")
        colors = color if isinstance(color, (list, tuple)) else [color] * len(heights)
        hatches = hatch if isinstance(hatch, (list, tuple)) else [hatch] * len(heights)
        for rect, xi, h, c, pattern in zip(bars.patches, x, heights, colors, hatches):
            if abs(rect.get_x() + rect.get_width() / 2 - xi) > 1e-9:
                raise _ShapeChanged("bar")
            rect.set_height(h)
            if c is not None:
                rect.set_facecolor(c)
            if pattern is not None:
                rect.set_hatch(pattern or None)
        return bars

    def _next_line(self, label):
        if not self._lines or (label is not None and self._lines[0].get_label() != label):
            raise _ShapeChanged("line")
        return self._lines.pop(0)

    def plot(self, x, y, fmt=None, label=None, **kwargs):
        line = self._next_line(label)
        line.set_data(np.asarray(x, dtype=float), np.asarray(y, dtype=float))
        return [line]

    def axhline(self, y=0, label=None, **kwargs):
        line = self._next_line(label)
        line.set_ydata(np.asarray([y, y], dtype=float))
        return line

    def finish(self) -> None:
        if self._bars or self._lines:
            raise _ShapeChanged("fewer artists")


def _shape(ax, ex, legend):
    return (ex.metric, len(ex.steps), legend, tuple(len(c.patches) for c in ax.containers),
            tuple(line.get_label() for line in ax.lines), len(ax.collections), len(ax.texts))


def _update_in_place(ax, ex, names, legend) -> bool:
    """Redraw ``ex`` into the artists of the last picture, if it had the same kind and shape."""
    plotter = _PLOTTERS.get(ex.metric)
    if plotter is None or plotter in (_plot_pr_curve, _plot_roc) or legend:
        return False
    old = getattr(ax, "_ltr_shape", None)
    if old is None or old[:3] != (ex.metric, len(ex.steps), legend):
        return False
    saved = [(rect, rect.get_height(), rect.get_facecolor(), rect.get_hatch()) for c in ax.containers
             for rect in c.patches]
    saved_lines = [(line, line.get_xdata(), line.get_ydata()) for line in ax.lines]
    saved_ylim = ax.get_ylim()
    proxy = _InPlace(ax)
    try:
        plotter(ex, proxy, names)
        proxy.finish()
    except _ShapeChanged:
        for rect, h, c, pattern in saved:
            rect.set_height(h)
            rect.set_facecolor(c)
            rect.set_hatch(pattern)
        for line, xs, ys in saved_lines:
            line.set_data(xs, ys)
        ax.set_ylim(saved_ylim)
        return False
    ax.grid(axis="y", alpha=0.3)
    ax._ltr_in_place = True
    return True


def _blit_png(fig: Figure, ax, key, names_key=None) -> bytes:
    """Draw the data artists and title over the cached axes image (redrawing that image if ``key`` changed).

    The image is cached in two layers: the axes without the x axis (``key``), and that plus the x axis
    with its tick labels (``key`` and the item names). A move changes only the names, so it draws the
    x axis over the first layer instead of the whole figure.
    """
    # The spines are drawn above the data (zorder 2.5), so they are redrawn with it, in zorder.
    moving = sorted([*ax.patches, *ax.lines, *ax.collections, ax.title, *ax.spines.values()],
                    key=lambda a: a.get_zorder())
    for artist in moving:
        artist.set_animated(True)
    ax.xaxis.set_animated(True)
    canvas = fig.canvas
    cache = getattr(fig, "_ltr_background", None)
    if cache is None or cache[0] != (key, names_key):
        base = getattr(fig, "_ltr_base", None)
        if base is None or base[0] != key:
            canvas.draw()  # everything but the animated artists (and the x axis)
            fig._ltr_base = (key, canvas.copy_from_bbox(fig.bbox))
        else:
            canvas.restore_region(base[1])
        ax.draw_artist(ax.xaxis)
        fig._ltr_background = ((key, names_key), canvas.copy_from_bbox(fig.bbox))
    else:
        canvas.restore_region(cache[1])
    for artist in moving:
        ax.draw_artist(artist)
    width, height = canvas.get_width_height()
    # the figure is opaque, so RGB loses nothing and encodes in half the time of RGBA
    image = PIL.Image.frombuffer("RGBA", (width, height), canvas.buffer_rgba(), "raw", "RGBA", 0, 1).convert("RGB")
    buf = io.BytesIO()
    image.save(buf, format="png", compress_level=1)
    return buf.getvalue()


def _swatch(handle) -> str:
    """A small HTML sample of a legend handle: a bar, a solid or dashed line, or a marker."""
    if hasattr(handle, "patches"):  # a BarContainer
        color = matplotlib.colors.to_hex(handle.patches[0].get_facecolor())
        return f"display:inline-block;width:12px;height:12px;background:{color}"
    if hasattr(handle, "get_linestyle") and hasattr(handle, "get_color"):  # a Line2D
        color = matplotlib.colors.to_hex(handle.get_color())
        style = handle.get_linestyle()
        if style in ("None", "", " "):
            return f"display:inline-block;width:9px;height:9px;border-radius:50%;background:{color}"
        border = {"--": "dashed", ":": "dotted"}.get(style, "solid")
        return f"display:inline-block;width:22px;height:0;border-top:3px {border} {color}"
    if hasattr(handle, "get_hatch") and not hasattr(handle, "get_facecolors"):  # a key's patch, hatched or solid
        color = matplotlib.colors.to_hex(handle.get_facecolor())
        stripes = (f";background-image:repeating-linear-gradient(45deg,#555 0 1px,transparent 1px 4px)"
                   if handle.get_hatch() else "")
        return f"display:inline-block;width:12px;height:12px;background-color:{color}{stripes}"
    color = matplotlib.colors.to_hex(handle.get_facecolor()[0])  # a filled area
    return f"display:inline-block;width:12px;height:12px;background:{color};opacity:0.5"


def legend_html(figure: Figure) -> str:
    """The legend of the figure's plot as one line of HTML: a swatch and a label per series."""
    if not figure.axes:
        return ""
    handles, labels = _legend_entries(figure.axes[0])
    pieces = [f"<span style='{_swatch(h)};vertical-align:middle;margin:0 4px 0 12px'></span>{html.escape(label)}"
              for h, label in zip(handles, labels)]
    return "<div class='ltr-legend' style='font-size:90%'>" + "".join(pieces) + "</div>"


def plot_run_differences(comparison, run=None, ax=None):
    """Per-query differences of one run from the baseline, sorted: a bar per query, above 0 a win.

    Parameters
    ----------
    comparison : RunComparison
        What ``lt.compare_runs`` returned.
    run : str, optional
        Which compared run to draw; default the first.
    ax : matplotlib Axes, optional
        Where to draw; by default a new pyplot figure.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import ltr_teach as lt
    >>> from matplotlib.figure import Figure
    >>> qrels = {q: {"good": 1} for q in "wxyz"}
    >>> a = {q: {"bad": 2.0, "good": 1.0} for q in "wxyz"}
    >>> b = {q: {"good": 2.0} for q in "wxy"} | {"z": {"bad": 3.0, "bad2": 2.0, "good": 1.0}}
    >>> ax = plot_run_differences(lt.compare_runs(qrels, {"A": a, "B": b}, "mrr"), ax=Figure().add_subplot())
    >>> [round(float(bar.get_height()), 4) for bar in ax.containers[0]]  # sorted: the loss (1/3 - 1/2) first
    [-0.1667, 0.5, 0.5, 0.5]
    """
    from ..runs.compare import RunComparison

    if not isinstance(comparison, RunComparison):
        raise TypeError(f"comparison must be what lt.compare_runs returns; got {type(comparison).__name__}")
    if run is None:
        run = next(iter(comparison.pairs))
    if run not in comparison.pairs:
        raise ValueError(f"run = {run!r} is not one of the compared runs: {', '.join(map(repr, comparison.pairs))}")
    pair = comparison.pairs[run]
    if ax is None:
        import matplotlib.pyplot as plt

        _figure, ax = plt.subplots(figsize=(7, 3.6))
    differences = sorted(pair.differences)
    kinds = ["win" if d > 0 else "loss" if d < 0 else "tie" for d in differences]
    # a win is a solid blue bar above 0; a loss a hatched vermillion bar below it: side, colour and hatch
    ax.bar(range(1, len(differences) + 1), differences, width=1.0, color=[COLORS[k] for k in kinds],
           hatch=[HATCHES.get(k, "") for k in kinds], edgecolor="white", linewidth=0.5)
    ax.axhline(0, color=COLORS["text"], linewidth=0.8)
    mean_label = _("mean {mean}, {confidence} CI [{low}, {high}]").format(
                   mean=f"{pair.mean_difference:+.4f}", confidence=f"{comparison.confidence:.0%}",
                   low=f"{pair.ci[0]:+.4f}", high=f"{pair.ci[1]:+.4f}")
    ax.axhline(pair.mean_difference, color=COLORS["text"], linestyle="--", linewidth=1, label=mean_label)
    ax.axhspan(pair.ci[0], pair.ci[1], color=COLORS["fill"], alpha=0.25)
    ax.set_xlabel(_("queries, sorted by difference ({wins} wins, {ties} ties, {losses} losses)").format(
        wins=pair.wins, ties=pair.ties, losses=pair.losses))
    ax.set_ylabel(f"{comparison.metric}: {run} − {pair.baseline}")
    ax.set_xlim(0.5, len(differences) + 0.5)
    ax.legend(loc="upper left", fontsize=TEXT_SIZES["legend"], frameon=False)
    ax.set_title(_("{run} vs {baseline}: p = {p} (permutation)").format(
        run=run, baseline=pair.baseline, p=pair.tests["permutation"].p_text()), fontsize=TEXT_SIZES["title"])
    ax.figure.ltr_alt_text = _("Bar chart of {n} queries' differences {run} − {baseline} in {metric}, sorted: {wins} "
                               "above 0 (wins, solid blue), {losses} below (losses, hatched vermillion), {ties} ties; "
                               "{mean}.").format(n=len(differences), run=run, baseline=pair.baseline,
                                                     metric=comparison.metric, wins=pair.wins, losses=pair.losses,
                                                     ties=pair.ties, mean=mean_label)
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    return ax


__all__ = ["CJK_FAMILIES", "COLORS", "FONT_DIR", "HATCHES", "PALETTE", "TEXT_SIZES", "alt_text", "legend_html", "plot_explanation", "plot_run_differences", "register_fonts",
           "render_png", "short_title"]
