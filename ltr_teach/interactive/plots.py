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

import base64
import html
import io
import math
import re
from collections import OrderedDict
from pathlib import Path

import matplotlib
import numpy as np
import PIL.Image
from matplotlib import font_manager
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, ScalarFormatter
from sympy import Rational

from ..core.exact import to_float
from ..core.explanation import Explanation
from ..core.i18n import N_, _, translate
from ..core.palette import COLORS, HATCHES, PALETTE
from ..core.table import display_width
from ..metrics.gains import RANK_WEIGHTS, rank_weights
from ..metrics.user_models import PERSISTENCE

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


def _plot_pr_scores(ex: Explanation, ax, names) -> None:
    """The precision–recall curve of scores: a point per threshold, AP as the area under the steps, and
    the precision of a random ranking (the share of positives), which the ROC curve's diagonal does not show."""
    rows = ex.steps
    recall = [0.0] + [_f(r["recall"]) for r in rows]
    precision = [_f(rows[0]["precision"])] + [_f(r["precision"]) for r in rows]
    ax.fill_between(recall, precision, step="pre", color=COLORS["fill"], alpha=0.35,
                    label=_("area = {value}").format(value=ex.decimal_str))
    ax.step(recall, precision, where="pre", color=COLORS["bar"])
    ax.plot(recall[1:], precision[1:], "o", color=COLORS["bar"], label=_("(recall, precision) at each threshold"))
    ax.axhline(_f(ex.params["base_rate"]), linestyle=":", color=COLORS["miss"], label=_("random ranking"))
    ax.set_xlim(-0.02, 1.02)
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
def _plot_rbp(ex: Explanation, ax, names) -> None:
    """RBP: the share of the user's attention each rank gets, (1 - p)·p^(i-1), filled where the document
    is relevant (hatched where it is not, crossed where it is unjudged); RBP so far as a line."""
    rows = ex.steps
    ranks = [r["rank"] for r in rows]
    p = ex.params["p"]
    weights = [_f((1 - p) * r["reach"]) for r in rows]
    kinds = ["unjudged" if r["rel"] == "unjudged" else "hit" if r["rel"] else "miss" for r in rows]
    styles = {"hit": {"color": COLORS["bar"], "label": _("attention (1-p)·p^(i-1), relevant")},
              "miss": {"color": "white", "edgecolor": COLORS["miss"], "hatch": "//", "label": _("attention, not relevant")},
              "unjudged": {"color": "white", "edgecolor": COLORS["miss"], "hatch": "xx", "label": _("attention, unjudged")}}
    for kind, style in styles.items():
        xs = [x for x, k in zip(ranks, kinds) if k == kind]
        if xs:
            ax.bar(xs, [w for w, k in zip(weights, kinds) if k == kind], width=0.6, linewidth=1, **style)
    ax.plot(ranks, [_f(r["cumulative"]) for r in rows], "o-", color=COLORS["line"], label=_("RBP so far"))
    ax.set_ylim(0, 1.4)  # headroom: the legend sits above the data (RBP <= 1 with 0/1 relevance)
    ax.set_yticks([0, 0.2, 0.4, 0.6, 0.8, 1.0])
    ax.set_ylabel(_("share of attention, RBP so far"))
    _rank_axis(ax, len(ranks), names)


def _plot_browsing(ex: Explanation, ax, names) -> None:
    """A browsing model: the chance of reading each rank (bars) and of stopping right after it (line)."""
    rows = ex.steps
    ranks = [r["rank"] for r in rows]
    ax.bar(ranks, [_f(r["reach"]) for r in rows], color=COLORS["fill"], width=0.6, label=_("reads rank i"))
    ax.plot(ranks, [_f(r["last"]) for r in rows], "s--", color=COLORS["line"], label=_("stops after rank i"))
    ax.set_ylim(0, 1.05)
    ax.set_ylabel(_("probability"))
    _rank_axis(ax, len(ranks), names)


_LEGEND_PLACES = {_plot_gain_sums: ("best", 1), _plot_err: ("upper left", 3), _plot_precision: ("upper left", 3),
                  _plot_per_query: ("upper left", 3), _plot_pr_curve: ("lower left", 1),
                  _plot_pr_scores: ("lower left", 1), _plot_roc: ("lower right", 1),
                  _plot_rbp: ("upper left", 2), _plot_browsing: ("upper right", 1)}

_PLOTTERS = {
    "cg": _plot_gain_sums, "dcg": _plot_gain_sums, "idcg": _plot_gain_sums, "ndcg": _plot_gain_sums,
    "err": _plot_err,
    "precision_at_k": _plot_precision, "recall_at_k": _plot_precision, "f_beta": _plot_precision,
    "average_precision": _plot_precision, "reciprocal_rank": _plot_precision,
    "mrr": _plot_per_query, "mean_average_precision": _plot_per_query, "mean_ndcg": _plot_per_query,
    "interpolated_precision": _plot_pr_curve, "eleven_point_ap": _plot_pr_curve,
    "roc_curve": _plot_roc, "auc": _plot_roc, "pr_curve": _plot_pr_scores,
    "rbp": _plot_rbp, "browsing_model": _plot_browsing,
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
    """The result line without its terms, or ``NDCG@7 ≈ 0.944227`` when the exact form is too long for a plot title."""
    return ex.result_line(terms=False) if len(ex.exact_str) <= limit else f"{ex.name} ≈ {ex.decimal_str}"


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
    if plotter is None or plotter in (_plot_pr_curve, _plot_pr_scores, _plot_roc, _plot_rbp) or legend:
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
    # a few images of each layer are kept: a slider moving back and forth changes the y limit between a few round
    # values, and each change would otherwise redraw every label
    bases = fig.__dict__.setdefault("_ltr_bases", OrderedDict())
    backgrounds = fig.__dict__.setdefault("_ltr_backgrounds", OrderedDict())
    background = backgrounds.get((key, names_key))
    if background is None:
        base = bases.get(key)
        if base is None:
            canvas.draw()  # everything but the animated artists (and the x axis)
            base = bases[key] = canvas.copy_from_bbox(fig.bbox)
            _trim(bases)
        else:
            canvas.restore_region(base)
            bases.move_to_end(key)
        ax.draw_artist(ax.xaxis)
        background = backgrounds[(key, names_key)] = canvas.copy_from_bbox(fig.bbox)
        _trim(backgrounds)
    else:
        canvas.restore_region(background)
        backgrounds.move_to_end((key, names_key))
    for artist in moving:
        ax.draw_artist(artist)
    width, height = canvas.get_width_height()
    # the figure is opaque, so RGB loses nothing and encodes in half the time of RGBA
    image = PIL.Image.frombuffer("RGBA", (width, height), canvas.buffer_rgba(), "raw", "RGBA", 0, 1).convert("RGB")
    buf = io.BytesIO()
    image.save(buf, format="png", compress_level=1)
    return buf.getvalue()


#: Images of a figure's axes kept per layer (each is the whole figure's RGBA, about 0.6 MB at 560 x 288).
_CACHED_IMAGES = 6


def _trim(cache: OrderedDict) -> None:
    while len(cache) > _CACHED_IMAGES:
        cache.popitem(last=False)


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
        stripes = (";background-image:repeating-linear-gradient(45deg,#555 0 1px,transparent 1px 4px)"
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


#: One look per series of a grouped bar chart: an Okabe–Ito hue *and* a hatch, so no two series are told
#: apart by colour alone (red beside green reads as one colour to about one man in twelve).
SERIES_STYLES = tuple((PALETTE[name], hatch) for name, hatch in (
    ("blue", ""), ("orange", "//"), ("bluish_green", ".."), ("reddish_purple", "xx"), ("sky_blue", "\\\\"),
    ("vermillion", "++"), ("yellow", "oo")))


def plot_suite(suite, rankings, ax=None, short_names: bool = True):
    """Every metric of a :class:`~ltr_teach.metrics.suite.MetricSuite` on every ranking, as grouped bars.

    Each metric keeps one colour and one hatch (:data:`SERIES_STYLES`) across the groups, so the chart
    reads in greyscale and for colour-blind students.

    Parameters
    ----------
    suite : MetricSuite
        The metrics.
    rankings : dict
        ``{name: grades}``, one group of bars per ranking.
    ax : matplotlib Axes, optional
        Where to draw; by default a new pyplot figure.
    short_names : bool
        Label a group by its name up to the first ``":"`` (``"A: star first"`` -> ``"A"``).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from ltr_teach.metrics.suite import MetricSuite
    >>> suite = MetricSuite({"RR": ("reciprocal_rank", {}), "P@2": ("precision_at_k", {"k": 2})})
    >>> ax = plot_suite(suite, {"A": [1, 0, 0], "B": [0, 1, 1]}, ax=Figure().add_subplot())
    >>> [[float(bar.get_height()) for bar in bars] for bars in ax.containers]   # RR: 1, 1/2; P@2: 1/2, 1/2
    [[1.0, 0.5], [0.5, 0.5]]
    >>> [str(bars.patches[0].get_hatch() or "") for bars in ax.containers]
    ['', '//']
    """
    from ..metrics.suite import MetricSuite

    if not isinstance(suite, MetricSuite):
        raise ValueError(f"suite must be a MetricSuite; got {type(suite).__name__}")
    if len(suite.labels) > len(SERIES_STYLES):
        raise ValueError(f"suite has {len(suite.labels)} metrics; plot_suite draws at most {len(SERIES_STYLES)}")
    if ax is None:
        import matplotlib.pyplot as plt

        ax = plt.subplots(figsize=(8, 3.4))[1]
    results = suite.values(rankings)
    names = list(rankings)
    width = 0.8 / len(suite.labels)
    middle = (len(suite.labels) - 1) / 2
    for j, (label, (colour, hatch)) in enumerate(zip(suite.labels, SERIES_STYLES)):
        ax.bar(np.arange(len(names)) + (j - middle) * width, [results[n][label].value for n in names], width=width,
               color=colour, hatch=hatch, edgecolor="white", linewidth=0.5, label=label)
    ax.set_xticks(np.arange(len(names)))
    ax.set_xticklabels([str(n).split(":")[0] if short_names else str(n) for n in names])
    ax.set_ylim(0, 1.05)
    ax.set_ylabel(_("metric value"))
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    ax.legend(ncol=len(suite.labels), fontsize=TEXT_SIZES["legend"], frameon=False, loc="upper center", bbox_to_anchor=(0.5, 1.14))
    ax.figure.tight_layout()
    return ax




#: How each rank-weight curve is drawn: a colour of the Okabe–Ito palette, a marker and a line style, so that
#: colour is never the only cue (a reader who cannot tell the hues apart still tells the lines apart).
RANK_WEIGHT_STYLES = {"log2": (PALETTE["blue"], "o", "-"), "jarvelin": (PALETTE["bluish_green"], "s", "--"),
                      "reciprocal": (PALETTE["vermillion"], "^", ":"), "geometric": (PALETTE["reddish_purple"], "D", "-.")}


def _weight_label(name: str, p) -> str:
    weight = RANK_WEIGHTS[name]
    metrics = translate(weight.metrics)
    if name == "geometric":
        metrics = _("{metrics}, p = {p}").format(metrics=metrics, p=p)
    # plain text, not mathtext: matplotlib's mathtext has no glyph fallback, so Chinese beside $...$ would be tofu
    return f"{translate(weight.label)}  ({metrics})"


def plot_rank_weights(n: int = 10, p=PERSISTENCE, ax=None):
    """The discount curves side by side: the weight of ranks 1..n under each of ``RANK_WEIGHTS``.

    Every curve is 1 at rank 1, so the curves compare how fast each model of the reader loses interest:
    DCG's 1/log2(i + 1), Järvelin & Kekäläinen's 1/max(1, log2 i), 1/i and RBP's p^(i - 1). The values
    are :func:`~ltr_teach.metrics.gains.rank_weights`' exact ones, drawn as floats; each curve has its own
    marker and line style (:data:`RANK_WEIGHT_STYLES`).

    Parameters
    ----------
    n : int >= 1
        How many ranks to draw.
    p : number in (0, 1)
        The persistence of the RBP curve (default 4/5).
    ax : matplotlib Axes, optional
        Where to draw; by default a new pyplot figure.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    At rank 3 the four weights are 1/2, 1/log2 3 ≈ 0.631, 1/3 and (4/5)^2 = 0.64:

    >>> from matplotlib.figure import Figure
    >>> ax = plot_rank_weights(n=5, ax=Figure().add_subplot())
    >>> [round(float(line.get_ydata()[2]), 3) for line in ax.get_lines()]
    [0.5, 0.631, 0.333, 0.64]
    >>> [line.get_marker() for line in ax.get_lines()]
    ['o', 's', '^', 'D']
    """
    weights = rank_weights(n, p)
    p_text = str(weights["geometric"][1]) if n >= 2 else str(p)
    if ax is None:
        import matplotlib.pyplot as plt

        ax = plt.subplots(figsize=(7, 3.8))[1]
    ranks = list(range(1, n + 1))
    for name, values in weights.items():
        colour, marker, style = RANK_WEIGHT_STYLES[name]
        ax.plot(ranks, [_f(v) for v in values], color=colour, marker=marker, linestyle=style, markersize=5,
                linewidth=1.6, label=_weight_label(name, p_text))
    ax.set_xlabel(_("rank i"), fontsize=11)
    ax.set_ylabel(_("weight of rank i (rank 1 = 1)"), fontsize=11)
    ax.set_xticks(ranks if n <= NAMED_TICKS_UP_TO else ax.get_xticks())
    ax.set_xlim(0.6, n + 0.4)
    ax.set_ylim(0, 1.05)
    ax.tick_params(labelsize=10)
    ax.grid(alpha=0.3)
    ax.set_axisbelow(True)
    ax.legend(loc="upper right", fontsize=10, frameon=False)
    ax.set_title(_("How much each rank counts: four models of the reader"), fontsize=11)
    return ax


def rank_weights_alt(n: int = 10, p=PERSISTENCE) -> str:
    """The alt text of :func:`plot_rank_weights`: what the plot shows, with each curve's weight at rank n.

    Examples
    --------
    >>> print(rank_weights_alt(n=4))  # doctest: +NORMALIZE_WHITESPACE
    Line chart: the weight of ranks 1 to 4 under four discounts, each line with its own marker and line
    style; all are 1 at rank 1. At rank 4: 1/log2(i + 1) (DCG, NDCG) ≈ 0.431; 1/max(1, log2 i)
    (Järvelin & Kekäläinen's DCG) = 0.5; 1/i (reciprocal rank; ERR's 1/r) = 0.25; p^(i − 1)
    (RBP, p = 4/5) = 0.512.
    """
    weights = rank_weights(n, p)
    p_text = str(rank_weights(2, p)["geometric"][1])
    pieces = []
    for name, values in weights.items():
        exact, value = values[-1], float(values[-1])
        shown = f"= {value:g}" if exact.is_Rational and Rational(f"{value:.3f}") == exact else f"≈ {value:.3f}"
        metrics = translate(RANK_WEIGHTS[name].metrics)
        if name == "geometric":
            metrics = _("{metrics}, p = {p}").format(metrics=metrics, p=p_text)
        pieces.append(f"{translate(RANK_WEIGHTS[name].label)} ({metrics}) {shown}")
    return _("Line chart: the weight of ranks 1 to {n} under four discounts, each line with its own marker and line "
             "style; all are 1 at rank 1. At rank {n}: {values}.").format(n=n, values=_("; ").join(pieces))


def wrap_text(text: str, width: int = 96) -> str:
    """``text`` broken into lines at most ``width`` columns wide (CJK characters count two), at spaces or
    between CJK characters.

    Examples
    --------
    >>> print(wrap_text("rank one rank two", width=9))
    rank one
    rank two
    >>> print(wrap_text("第一位第二位", width=6))
    第一位
    第二位
    """
    lines, line = [], ""
    for piece in re.findall(r"\S+\s*|\s+", text):
        chunks = [piece] if display_width(piece.rstrip()) <= width else list(piece)  # a long CJK run splits anywhere
        for chunk in chunks:
            if line and display_width(line + chunk.rstrip()) > width:
                lines.append(line.rstrip())
                line = chunk.lstrip()
            else:
                line += chunk
    lines.append(line.rstrip())
    return "\n".join(lines)


class FigureWithAlt:
    """A figure shown as a PNG with alt text: the text is the image's ``alt`` and its plain-text form.

    Jupyter shows the PNG (``metadata["image/png"]["alt"]`` carries the alt text to the frontends that
    read it); a text-only frontend, a screen reader reading the plain output and ``str()`` get the text,
    broken into lines that fit a page. The PNG carries no software-version metadata, so a saved notebook
    does not change between runs.
    """

    def __init__(self, figure: Figure, alt: str, dpi: int = 100):
        if not isinstance(figure.canvas, FigureCanvasAgg):
            FigureCanvasAgg(figure)
        buf = io.BytesIO()
        figure.savefig(buf, format="png", dpi=dpi, metadata={"Software": None})
        self.png = buf.getvalue()
        self.alt = alt

    def __str__(self) -> str:
        return wrap_text(self.alt)

    __repr__ = __str__

    def _repr_mimebundle_(self, include=None, exclude=None):
        data = {"image/png": base64.b64encode(self.png).decode("ascii"), "text/plain": str(self)}
        return data, {"image/png": {"alt": self.alt}}


def rank_weights_figure(n: int = 10, p=PERSISTENCE) -> FigureWithAlt:
    """:func:`plot_rank_weights` as a PNG with its alt text (:func:`rank_weights_alt`), for a notebook.

    Examples
    --------
    >>> shown = rank_weights_figure(n=5)
    >>> shown.png[:4], str(shown).startswith("Line chart")
    (b'\x89PNG', True)
    """
    figure = Figure(figsize=(7.5, 4))
    plot_rank_weights(n, p, ax=figure.add_subplot())
    figure.tight_layout()
    return FigureWithAlt(figure, rank_weights_alt(n, p))


def plot_score_sweep(grades, scores, item: int, low: float = 0.0, high: float | None = None, points: int = 81,
                     ax=None):
    """NDCG and RankNet's mean pairwise loss as one item's score slides from ``low`` to ``high``.

    NDCG is drawn as steps (it changes only when the item's score crosses another's: flat in between,
    so its gradient is 0 almost everywhere); the RankNet loss, on the right axis, as a smooth curve.

    Parameters
    ----------
    grades : sequence of int
        Each item's grade, in item order.
    scores : sequence of numbers
        Each item's score; the score of ``item`` is replaced along the sweep.
    item : int
        The 0-based index of the item whose score moves.
    low, high : float
        The range of its score (default: 0 to the largest score + 0.5).
    points : int
        How many scores to evaluate.
    ax : matplotlib Axes, optional
        Where to draw; by default a new pyplot figure.

    Returns
    -------
    matplotlib.axes.Axes
        The NDCG axes (the loss is on its twin).

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> ax = plot_score_sweep([2, 0, 1, 0], [2.0, 1.5, 1.0, 0.5], item=2, points=5, ax=Figure().add_subplot())
    >>> [round(float(y), 4) for y in ax.get_lines()[0].get_ydata()]   # scores 0, 0.625, 1.25, 1.875, 2.5
    [0.9448, 0.9639, 0.9639, 1.0, 0.7967]

    The grade-1 item is last at score 0, third between 0.5 and 1.5 (NDCG flat all along), second (the
    ideal order) between 1.5 and 2, and first above 2, where it pushes the grade-2 item down.
    """
    from ..metrics.graded import ndcg
    from ..metrics.pairs import misordered_pairs

    scores = [float(s) for s in scores]
    if not 0 <= item < len(scores):
        raise ValueError(f"item = {item} must be an index of scores, 0..{len(scores) - 1}")
    if points < 2:
        raise ValueError(f"points = {points} must be at least 2")
    high = max(scores) + 0.5 if high is None else high
    xs = np.linspace(low, high, points)
    values, losses = [], []
    for x in xs:
        moved = scores[:item] + [round(float(x), 10)] + scores[item + 1:]
        values.append(ndcg(grades, scores=moved).value)
        losses.append(misordered_pairs(grades, moved).params["logistic_loss"])
    if ax is None:
        import matplotlib.pyplot as plt

        ax = plt.subplots(figsize=(7, 3.6))[1]
    ax.plot(xs, values, drawstyle="steps-mid", color=COLORS["bar"], marker="o", markersize=3,
            label=_("NDCG (steps)"))
    ax.set_xlabel(_("score of item {n}").format(n=item + 1))
    ax.set_ylabel("NDCG")
    twin = ax.twinx()
    twin.plot(xs, losses, color=COLORS["line"], linestyle="--", label=_("RankNet loss (smooth)"))
    twin.set_ylabel(_("RankNet loss"))
    for other, s in enumerate(scores):
        if other != item and low <= s <= high:
            ax.axvline(s, color=PALETTE["grey"], linestyle=":", linewidth=0.8)
    handles = ax.get_legend_handles_labels()[0] + twin.get_legend_handles_labels()[0]
    ax.legend(handles, [h.get_label() for h in handles], loc="lower left", fontsize=TEXT_SIZES["legend"], frameon=False)
    ax.grid(axis="y", alpha=0.3)
    return ax


#: Line styles of :func:`plot_reach`, one per model, so that no line depends on its colour alone.
_REACH_STYLES = (("o-", "#0072B2"), ("s--", "#D55E00"), ("^:", "#009E73"), ("D-.", "#CC79A7"), ("v-", "#E69F00"))


def plot_reach(models, ax=None):
    """The users of several metrics side by side: the chance of reading each rank, one line per user.

    Parameters
    ----------
    models : sequence of Explanation
        What :func:`ltr_teach.browsing_model` returned, one per user.
    ax : matplotlib Axes, optional
        Where to draw; by default a new pyplot figure.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import ltr_teach as lt
    >>> from matplotlib.figure import Figure
    >>> users = [lt.browsing_model("rbp", 5, p=0.5), lt.browsing_model("precision", 5, k=3)]
    >>> ax = plot_reach(users, ax=Figure().add_subplot())
    >>> [line.get_label() for line in ax.get_lines()]   # each user with the ranks it reads on average
    ['RBP(p=1/2): 1.94 ranks', 'P@3: 3.00 ranks']
    >>> [round(float(y), 4) for y in ax.get_lines()[0].get_ydata()]   # 1, 1/2, 1/4, 1/8, 1/16
    [1.0, 0.5, 0.25, 0.125, 0.0625]
    """
    models = list(models)
    if not models or not all(isinstance(m, Explanation) and m.metric == "browsing_model" for m in models):
        raise TypeError("models must be a non-empty list of what lt.browsing_model returns")
    if len(models) > len(_REACH_STYLES):
        raise ValueError(f"models holds {len(models)} users; plot_reach draws at most {len(_REACH_STYLES)}")
    if ax is None:
        import matplotlib.pyplot as plt

        ax = plt.subplots(figsize=(7, 3.6))[1]
    n = max(len(m.steps) for m in models)
    for model, (fmt, colour) in zip(models, _REACH_STYLES):
        label = _("{user}: {depth} ranks").format(user=model.params["user"], depth=f"{_f(model.exact):.2f}")
        ax.plot([r["rank"] for r in model.steps], [_f(r["reach"]) for r in model.steps], fmt, color=colour,
                label=label)
    ax.set_ylim(0, 1.3)  # headroom: the legend sits above the lines
    ax.set_yticks([0, 0.2, 0.4, 0.6, 0.8, 1.0])
    ax.set_ylabel(_("chance of reading rank i"))
    _rank_axis(ax, n, None)
    ax.legend(loc="upper center", fontsize=8, frameon=False, ncol=min(3, len(models)))
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    return ax


def plot_sign_flips(flips, ax=None):
    """Every sign pattern's mean difference as a dot, equal means stacked: the randomisation test's null.

    Filled dots are the patterns at least as extreme as the observed mean (they make the p-value),
    hollow ones the rest; a star marks the observed pattern and dashed lines the threshold(s).

    Parameters
    ----------
    flips : SignFlips
        What ``lt.sign_flips`` returned.
    ax : matplotlib Axes, optional
        Where to draw; by default a new pyplot figure.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import ltr_teach as lt
    >>> from matplotlib.figure import Figure
    >>> ax = plot_sign_flips(lt.sign_flips([0.2, 0.1, -0.05]), ax=Figure().add_subplot())
    >>> [len(c.get_offsets()) for c in ax.collections]   # 4 extreme dots, 4 others, 1 star
    [4, 4, 1]
    """
    from ..runs.compare import SignFlips

    if not isinstance(flips, SignFlips):
        raise TypeError(f"flips must be what lt.sign_flips returns; got {type(flips).__name__}")
    if ax is None:
        import matplotlib.pyplot as plt

        ax = plt.subplots(figsize=(7, 3.2))[1]
    height, points = {}, []
    for j in sorted(range(flips.total), key=lambda j: flips.means[j]):
        mean = flips.means[j]
        height[mean] = height.get(mean, 0) + 1
        points.append((float(mean), height[mean], flips.extreme[j], j == 0))
    top = max(height.values())
    extreme = [(x, y) for x, y, e, _o in points if e]
    other = [(x, y) for x, y, e, _o in points if not e]
    if extreme:
        ax.scatter(*zip(*extreme), s=46, marker="o", color=COLORS["line"], zorder=3,
                   label=_("as extreme as observed: {count} of {total}").format(count=flips.count, total=flips.total))
    if other:
        ax.scatter(*zip(*other), s=46, marker="o", facecolors="white", edgecolors="#555555", zorder=3,
                   label=_("less extreme"))
    observed = next((x, y) for x, y, _e, o in points if o)
    ax.scatter([observed[0]], [observed[1]], s=220, marker="*", color="black", zorder=4, label=_("observed"))
    cut = float(flips.observed)
    for x in ((cut, -cut) if flips.alternative == "two-sided" and cut else (cut,)):
        ax.axvline(x, color="#555555", linestyle="--", linewidth=1)
    ax.set_ylim(0, top + 1.5)
    ax.set_yticks(range(0, top + 1, max(1, (top + 4) // 5)))
    ax.set_xlabel(_("mean difference of a sign pattern"))
    ax.set_ylabel(_("patterns"))
    ax.set_title(_("p = {p}").format(p=flips.p_text()), fontsize=10)
    ax.legend(loc="upper left", fontsize=8, frameon=False, ncol=3)
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    return ax


__all__ = ["CJK_FAMILIES", "COLORS", "FONT_DIR", "FigureWithAlt", "HATCHES", "PALETTE", "RANK_WEIGHT_STYLES",
           "SERIES_STYLES", "TEXT_SIZES", "alt_text", "legend_html", "plot_explanation", "plot_rank_weights",
           "plot_reach", "plot_run_differences", "plot_score_sweep", "plot_sign_flips", "plot_suite",
           "rank_weights_alt", "rank_weights_figure", "register_fonts", "render_png", "short_title"]
