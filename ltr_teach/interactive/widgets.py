"""Widgets: a ranking editor whose table and plot follow every slider move.

:class:`RankingEditor` shows a ranking (item names as in the posts, e.g. 小棕瓶眼霜, MAC口红,
神仙水), a grade slider and move-up/move-down buttons per item, controls for the metric's
variants (generated from ``lt.METRICS[metric].options`` and the registries ``lt.GAINS``,
``lt.DISCOUNTS``, ``lt.ZERO_RULES``), and a live panel: the result line, the plot
(:func:`ltr_teach.interactive.plots.render_png`) with its legend, and the explanation table. For AUC and the
ROC curve the editor takes 0/1 labels and ``scores=[...]`` and shows a label slider and a score
slider per item (the scores decide the order, so there are no move buttons).
:class:`MultiQueryEditor` puts one editor per query in tabs under a live MRR or MAP.
:func:`example_card` and :func:`erratum_card` show a document's number beside the exact one.

All the logic lives in plain methods that tests call without a browser: :meth:`~RankingEditor.set_grade`,
:meth:`~RankingEditor.move`, :meth:`~RankingEditor.set_option`, :meth:`~RankingEditor.set_score`,
:attr:`~RankingEditor.explanation`. The ipywidgets controls only call those methods.

CSS classes (for browser tests): ``ltr-editor`` (the container), ``ltr-title``, ``ltr-rows``,
``ltr-row`` and ``ltr-row-<rank>`` (one row per rank), ``ltr-name``, ``ltr-grade-slider`` and ``ltr-grade-box``
(the slider's number, the row's accessible name in its hidden label), ``ltr-score-slider`` and ``ltr-score-box``, ``ltr-move-up``, ``ltr-move-down``, ``ltr-options``, ``ltr-option`` plus
``ltr-option-<name>`` (``ltr-option-gain``, ``ltr-option-discount``, ``ltr-option-k`` (its "all"
entry has the value 0), ``ltr-option-ideal``, ``ltr-option-g_max``, ``ltr-option-zero``,
``ltr-option-n_relevant``, ``ltr-option-beta``), ``ltr-result`` (the result line), ``ltr-error``
(why the last change was refused), ``ltr-plot`` (an ``Image`` whose PNG changes on every
redraw), ``ltr-legend``, ``ltr-table``; ``ltr-multi-editor`` and ``ltr-query-tabs`` for
:class:`MultiQueryEditor`; ``ltr-card`` for the cards' HTML.
"""

from __future__ import annotations

import html
import inspect
import numbers
import unicodedata
from collections import Counter
from typing import ClassVar

import ipywidgets as W
from matplotlib.figure import Figure
from traitlets import Unicode

from ..core import webfont
from ..core.exact import to_exact
from ..core.i18n import N_, Message, _, get_language, translate, using_language
from ..core.table import display_width
from ..core.validate import MAX_EXPONENT, as_grades, as_rels, as_sequence, by_query_name
from ..metrics.graded import DISCOUNTS, GAINS, ZERO_RULES
from ..metrics.registry import lookup
from . import starting_state
from .plots import legend_html, render_png, short_title
from .starting_state import changed_since_display  # noqa: F401  (documented here: the editors register at display)
from .static_html import widget_html

#: What a student reads on the option buttons: the library's keywords (``exp2``, ``raise``) are code, not words of
#: either language; a key without an entry (``log2``, ``ln``: notation) shows as it is.
_OPTION_LABELS = {
    "exp2": N_("exponential"), "linear": N_("linear"), "binary": N_("binary"), "jarvelin": N_("Järvelin"),
    "zero": "0", "one": "1", "nan": "NaN", "raise": N_("error"),
}


def _labelled_options(keys) -> list:
    """``(label, key)`` pairs for a ToggleButtons or Dropdown: the label translated, the value the keyword."""
    return [(translate(_OPTION_LABELS.get(key, key)), key) for key in keys]

#: Metrics whose editor rows hold 0/1 relevance unless ``threshold=`` reads them as grades.
_BINARY = "rels"
_BETAS = (0.5, 1, 2, 3)
def _k_required(info) -> bool:
    """Whether the metric's cut-off k cannot be None (its ``k`` has no default); its editor starts at k = the
    length of the list. Read from the function, so no second list of such metrics is kept."""
    k = inspect.signature(info.func).parameters.get("k")
    return k is not None and k.default is inspect.Parameter.empty

# -- layout: sized for a JupyterLab notebook column about 850 px wide (1280 px window, file browser open) --
#: Labels of the option controls share one width so their controls line up ("IDCG = 0 gives" is the longest).
_OPTION_LABEL_WIDTH = "8.5em"
#: Wide enough for "jarvelin"; ToggleButtons' default (148 px a button) wraps the discounts onto two lines.
_TOGGLE_BUTTON_WIDTH = "76px"
#: A row's slider label takes its text's width, so the track keeps the rest of the slider's width.
_ROW_SLIDER_STYLE = {"description_width": "initial"}
#: Fixed (flex "0 0 auto") sizes: a row never squeezes its slider track or cuts "down" to "d…".
_RANK_LAYOUT = {"width": "2.2em", "flex": "0 0 auto"}
_SLIDER_LAYOUT = {"width": "200px", "flex": "0 0 auto"}
_MOVE_BUTTON_LAYOUT = {"width": "84px", "flex": "0 0 auto", "margin": "2px 2px"}
#: A row's number box (the slider's readout, and the control a screen reader names): wide enough for "0.05".
_BOX_LAYOUT = {"width": "4.6em", "flex": "0 0 auto"}
#: Text a screen reader reads and the eye does not see (the usual "visually hidden" rules; the label sanitiser
#: keeps them). ipywidgets 8.1 names none of its sliders (noUiSlider's handle gets no aria-label and the
#: description's <label> is not linked to it, and its aria-valuetext is the bare number), but it links a number
#: box's <label> to its <input>: the box's hidden label is the row's accessible name.
_HIDDEN = ("position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;"
           "clip:rect(0,0,0,0);white-space:nowrap;border:0")
_BOX_STYLE = {"description_width": "0px"}


def _hidden_label(text: str) -> str:
    """``text`` as a description a screen reader reads in full and the page does not show."""
    return f'<span style="{_HIDDEN}">{html.escape(text)}</span>'
#: Rows beside the options when the notebook is wide enough, the options below them when it is not.
_TOP_LAYOUT = {"flex_flow": "row wrap", "align_items": "flex-start"}
#: The explanation table keeps each cell on one line (no "≈" cut from its digits; a header squeezed by the
#: long "so far" sums would otherwise stand one character a line), with a little less cell padding, and
#: scrolls sideways when too wide. Sent inside the editor's title (the table's inline padding needs !important).
_TABLE_CSS = ("<style>.ltr-table td,.ltr-table th{white-space:nowrap;padding:2px 5px !important}"
              ".ltr-table{overflow-x:auto}</style>")


def _name_width(names) -> str:
    """A CSS width that holds the longest name on one line: CJK characters are 1 em wide, others about 0.62 em."""
    def ems(name):
        return sum(1.0 if unicodedata.east_asian_width(ch) in "WF" else 0.62 for ch in name)

    return f"{max(4.0, max(ems(n) for n in names)) + 1.0:.1f}em"


class _Plot(W.Image):
    """The editors' plot image; its ``tooltip`` (the plot's alt text) becomes the image's title, its accessible name.

    ipywidgets 8.1's view reads ``description`` before it sets the title and fails on an Image, which has none:
    the empty description here lets the title through.
    """

    description = Unicode("").tag(sync=True)


class _ShowsWidget:
    """Shows ``self.widget`` in a notebook, with a short deterministic text form (its ``repr``) for nbval,
    which compares text/plain, not the view, and an HTML snapshot of the starting state
    (:func:`~ltr_teach.interactive.static_html.widget_html`) for pages without a kernel; the editors and the
    panels share it."""

    def _repr_mimebundle_(self, **kwargs):
        if webfont.widget_needs_font():
            # the first widget of the kernel carries the page's CJK font in a hidden first child: the face is declared
            # before the labels are drawn, and the widget's outputs stay one (a saved notebook's are unchanged)
            style = W.HTML(webfont.style_element(), layout=W.Layout(display="none"))
            style.add_class("ltr-font")
            self.widget.children = (style, *self.widget.children)
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = repr(self)
        # what a page without a kernel shows (GitHub, nbviewer, the website): the starting state as HTML; a front
        # end with a kernel renders the widget view instead, which outranks HTML
        bundle["text/html"] = f"<div class='ltr-still-widget'>{widget_html(self.widget)}</div>"
        starting_state.register(self.widget, repr(self))  # a later cell must not change what is shown here
        return bundle


class _ExplanationView(_ShowsWidget):
    """What both editors share: an explanation shown as a result line, a table and a plot."""

    def _show(self, ex, names=None) -> None:
        self._result.value = f"<span style='font-size:120%'><b>{html.escape(ex.result_line())}</b></span>"
        with webfont.held():
            self.table.value = ex._repr_html_()
        self.plot.value = render_png(ex, names=names, figure=self._figure, legend=False)
        # the image's title is its accessible name (an <img> without alt falls back to it): a screen reader reads
        # what the plot shows; a mouse shows it as a tooltip
        self.plot.tooltip = self._figure.ltr_alt_text
        self._legend.value = legend_html(self._figure)


class RankingEditor(_ExplanationView):
    """Edit a ranking with sliders and buttons; the metric's table and plot update live.

    Parameters
    ----------
    items : sequence of str
        Item names in ranked order (rank 1 first).
    grades : sequence of int
        Graded relevance in ranked order for graded metrics (``"ndcg"``, ``"dcg"``, ``"err"``
        ...); 0/1 relevance for binary ones (``"average_precision"``, ``"precision_at_k"`` ...,
        or grades with ``threshold=``); 0/1 class labels for ``"auc"`` and ``"roc_curve"``.
    metric : str
        A name or alias from ``lt.METRICS`` (``"ndcg"``, ``"ap"``, ``"p"`` ...). Metrics over
        several queries (``"mrr"``, ``"map"``) are not edited here.
    scores : sequence of numbers in [0, 1], optional
        Model scores, one per item; required for ``"auc"`` and ``"roc_curve"`` (the editor then
        shows a score slider per item instead of move buttons: the order is the scores' order).
    max_grade : int, optional
        Top of the grade sliders. Default: ``g_max`` for ERR, 1 for 0/1 relevance and labels,
        otherwise the larger of 3 and the highest grade given.
    **metric_kwargs
        The metric's keywords (``k``, ``gain``, ``discount``, ``ideal``, ``zero``, ``g_max``,
        ``n_relevant``, ``beta``, ``threshold`` ...); each one in ``lt.METRICS[metric].options``.
        ``ideal`` is the query's whole judged pool; the grades it holds beyond the ranking are
        kept as "judged but not retrieved" items, and a checkbox switches them in and out.

    Attributes
    ----------
    widget : ipywidgets.VBox
        The container to display (displaying the editor itself shows it too).
    table : ipywidgets.HTMLMath
        The explanation's HTML table (``explanation._repr_html_()``, formula typeset).
    plot : ipywidgets.Image
        The plot as a PNG, redrawn on every change.

    Examples
    --------
    Grades 3, 2, 3: DCG = 7/1 + 3/log2(3) + 7/2, while the ideal order 3, 3, 2 gives
    IDCG = 7/1 + 7/log2(3) + 3/2.

    >>> ed = RankingEditor(["MAC口红", "神仙水", "兰蔻粉水"], [3, 2, 3])
    >>> ed.explanation.exact
    (3/log2(3) + 21/2)/(7/log2(3) + 17/2)
    >>> round(float(ed.explanation), 6)
    0.959454
    >>> ed.move(2, 1)      # 兰蔻粉水 (grade 3) up to rank 2: now the ranking is the ideal order
    >>> ed.items, ed.grades
    (('MAC口红', '兰蔻粉水', '神仙水'), (3, 3, 2))
    >>> ed.explanation.exact
    1
    """

    def __init__(self, items, grades, metric="ndcg", *, scores=None, max_grade=None, **metric_kwargs):
        self._info = lookup(metric)
        if self._info.takes == "queries":
            raise ValueError(
                f"metric {metric!r} averages over several queries; RankingEditor edits one ranking: use the "
                "single-query metric ('reciprocal_rank' or 'average_precision') per query"
            )
        if self._info.takes == "judge_pair":
            raise ValueError(f"metric {metric!r} compares two assessors' labels of the same items; RankingEditor edits "
                             "one ranking: call lt.cohen_kappa(judge_a, judge_b)")
        self._items = self._check_items(items)
        self._labelled = self._info.takes == "labels_scores"
        self._binary = self._info.takes == _BINARY and metric_kwargs.get("threshold") is None
        self._grades = self._check_grades(grades)
        self._scores = self._check_scores(scores)
        self._options = self._check_options(metric_kwargs)
        self._max_grade = self._pick_max_grade(max_grade)
        self._explanation = self._compute(self._grades, self._scores, self._options)
        # the ROC plot is square (equal aspect): a taller, narrower figure shows it larger
        self._figure = Figure(figsize=(6, 4.4) if self._labelled else (7, 3.6), dpi=80)
        self._syncing = False
        self._listeners = []
        self._vetoes = []
        self._build()
        self._refresh()

    # -- validation ----------------------------------------------------------------------------
    @staticmethod
    def _check_items(items) -> list[str]:
        items = as_sequence(items, "items")
        for i, name in enumerate(items):
            if not isinstance(name, str) or not name.strip():
                raise ValueError(f"items[{i}] = {name!r} must be a non-empty item name (str)")
        return list(items)

    def _check_grades(self, grades) -> list[int]:
        name = "labels" if self._labelled else "grades"
        if isinstance(grades, (str, bytes)):
            raise ValueError(f"{name} must be a list of numbers, one per item; got {grades!r}")
        values = as_sequence(grades, name)
        if len(values) != len(self._items):
            raise ValueError(
                f"items and {name} must have the same length; got {len(self._items)} items and {len(values)} {name}"
            )
        exact = as_rels(values, name) if (self._binary or self._labelled) else as_grades(values, name, integer=True)
        return [int(g) for g in exact]

    def _check_scores(self, scores):
        if not self._labelled:
            if scores is not None:
                raise ValueError(f"scores is only for metric 'auc' or 'roc_curve'; got scores with {self._info.name!r}")
            return None
        if scores is None:
            raise ValueError(f"metric {self._info.name!r} needs scores=[...], one model score per item")
        values = as_sequence(scores, "scores")
        if len(values) != len(self._items):
            raise ValueError(
                f"items and scores must have the same length; got {len(self._items)} items and {len(values)} scores"
            )
        for i, s in enumerate(values):
            self._check_score(i, s)
        return [float(s) for s in values]

    @staticmethod
    def _check_score(i, s) -> None:
        if isinstance(s, bool) or not isinstance(s, numbers.Real) or not 0 <= float(s) <= 1:
            raise ValueError(f"scores[{i}] = {s!r} must be a number in [0, 1] (the score sliders run from 0 to 1)")

    def _check_options(self, kwargs) -> dict:
        allowed = self._info.options
        for key in kwargs:
            if key not in allowed:
                names = ", ".join(allowed) if allowed else "none"
                raise ValueError(f"metric {self._info.name!r} takes the keywords {names}; got {key}=")
        options = dict(kwargs)
        self._judged_extra: list[int] = []
        if "ideal" in allowed:
            pool = options.pop("ideal", None)
            if pool is not None:
                pool = [int(g) for g in as_grades(pool, "ideal", integer=True, allow_empty=True)]
                extra = Counter(pool)
                extra.subtract(Counter(self._grades))
                short = sorted(g for g, c in extra.items() if c < 0 and g > 0)
                if short:
                    raise ValueError(
                        f"ideal must hold every judged grade of the ranking (it is the query's whole judged pool); "
                        f"grade {short[-1]} appears more often in grades than in ideal"
                    )
                self._judged_extra = sorted((g for g, c in extra.items() for _ in range(max(c, 0))), reverse=True)
            options["ideal"] = pool is not None
        if "n_relevant" in allowed:
            found = self._found(self._grades, options)
            n_rel = options.pop("n_relevant", None)
            if n_rel is not None and (isinstance(n_rel, bool) or not isinstance(n_rel, numbers.Integral) or n_rel < found):
                raise ValueError(
                    f"n_relevant = {n_rel!r} must be an integer >= {found}, the relevant items already in the ranking"
                )
            self._missing_relevant = 0 if n_rel is None else int(n_rel) - found
        if _k_required(self._info) and options.get("k") is None:
            options["k"] = len(self._items)
        if self._info.name == "err" and "g_max" not in options:
            options["g_max"] = max(3, max(self._grades))
        return options

    def _pick_max_grade(self, max_grade) -> int:
        if self._binary or self._labelled:
            default = 1
        elif self._info.name == "err":
            default = self._options["g_max"]
        else:
            default = max(3, max(self._grades))
        if max_grade is None:
            return default
        if isinstance(max_grade, bool) or not isinstance(max_grade, numbers.Integral) or max_grade < 1:
            raise ValueError(f"max_grade must be an integer >= 1; got {max_grade!r}")
        if max_grade > MAX_EXPONENT:
            raise ValueError(f"max_grade = {max_grade} is above {MAX_EXPONENT}, the largest grade the metrics take "
                             "(2^grade must have a float); relevance grades are small whole numbers such as 0..4")
        if self._info.name == "err" and max_grade > self._options["g_max"]:
            raise ValueError(f"max_grade = {max_grade} is above g_max = {self._options['g_max']}, and ERR takes grades "
                             "0..g_max only: raise g_max= too, or lower max_grade")
        if (self._binary or self._labelled) and max_grade != 1:
            raise ValueError(f"max_grade = {max_grade} but {self._info.name!r} takes 0/1 relevance: max_grade must be 1")
        if max(self._grades) > max_grade:
            raise ValueError(f"max_grade = {max_grade} is below the highest grade given ({max(self._grades)})")
        return int(max_grade)

    @staticmethod
    def _found(grades, options) -> int:
        threshold = options.get("threshold")
        return sum(int(r) for r in as_rels(grades, threshold=threshold)) if threshold is not None else sum(grades)

    # -- the metric --------------------------------------------------------------------------
    def _metric_kwargs(self, grades, options) -> dict:
        kwargs = dict(options)
        if "ideal" in kwargs:
            kwargs["ideal"] = list(grades) + self._judged_extra if kwargs["ideal"] else None
        if "n_relevant" in self._info.options:
            kwargs["n_relevant"] = self._found(grades, options) + self._missing_relevant
        return kwargs

    def _compute(self, grades, scores, options):
        if self._labelled:
            return self._info.func(list(grades), [to_exact(s, "scores") for s in scores])
        return self._info.func(list(grades), **self._metric_kwargs(grades, options))

    def _apply(self, grades=None, scores=None, options=None, items=None) -> None:
        """Recompute with the new state; commit it only if the metric accepts it (else ValueError)."""
        # the language is resolved once per change, not once per label (each resolution reads the edition file)
        with using_language(get_language()):
            self._apply_now(grades, scores, options, items)

    def _apply_now(self, grades, scores, options, items) -> None:
        grades = self._grades if grades is None else grades
        scores = self._scores if scores is None else scores
        options = self._options if options is None else options
        explanation = self._compute(grades, scores, options)
        for veto in self._vetoes:  # e.g. a MultiQueryEditor whose other queries cannot take the new option
            veto(self, grades, options)
        before = (self._grades, self._scores, self._options, self._items, self._explanation)
        self._grades, self._scores, self._options = list(grades), scores, dict(options)
        if items is not None:
            self._items = list(items)
        self._explanation = explanation
        try:
            self._refresh()
            for callback in self._listeners:
                callback(self)
        except Exception:
            # a refused change leaves the editor exactly as it was
            self._grades, self._scores, self._options, self._items, self._explanation = before
            self._refresh()
            raise

    # -- public state --------------------------------------------------------------------------
    @property
    def explanation(self):
        """The current :class:`~ltr_teach.core.explanation.Explanation`."""
        return self._explanation

    @property
    def items(self) -> tuple:
        """Item names in the current ranked order."""
        return tuple(self._items)

    @property
    def grades(self) -> tuple:
        """Grades (or 0/1 relevance, or labels) in the current ranked order."""
        return tuple(self._grades)

    @property
    def scores(self):
        """Scores in item order (``None`` unless the metric is ``auc``/``roc_curve``)."""
        return None if self._scores is None else tuple(self._scores)

    @property
    def options(self) -> dict:
        """The metric's keyword settings as the controls show them (``ideal`` is on/off)."""
        options = dict(self._options)
        if "n_relevant" in self._info.options:
            options["n_relevant"] = self._found(self._grades, self._options) + self._missing_relevant
        return options

    @property
    def metric(self) -> str:
        """The registry name of the metric."""
        return self._info.name

    @property
    def max_grade(self) -> int:
        return self._max_grade

    def on_change(self, callback) -> None:
        """Call ``callback(editor)`` after every accepted change (grade, order, score or option)."""
        self._listeners.append(callback)

    # -- public actions ----------------------------------------------------------------------------
    def _check_index(self, i, name="i") -> int:
        n = len(self._items)
        if isinstance(i, bool) or not isinstance(i, numbers.Integral) or not 0 <= i < n:
            raise ValueError(f"{name} = {i!r} must be a position 0..{n - 1} (0 is rank 1)")
        return int(i)

    def set_grade(self, i, g) -> None:
        """Give the item at position ``i`` (0 = rank 1) the grade ``g`` (a label for AUC)."""
        i = self._check_index(i)
        top = self._max_grade
        if isinstance(g, bool) or not isinstance(g, numbers.Integral) or not 0 <= g <= top:
            what = "label" if self._labelled else "grade"
            raise ValueError(f"{what} g = {g!r} must be a whole number 0..{top}")
        grades = list(self._grades)
        grades[i] = int(g)
        self._apply(grades=grades)

    def set_score(self, i, s) -> None:
        """Give the item at position ``i`` the model score ``s`` in [0, 1] (AUC and ROC only)."""
        if not self._labelled:
            raise ValueError(f"set_score is for metric 'auc' or 'roc_curve'; this editor shows {self._info.name!r}")
        i = self._check_index(i)
        self._check_score(i, s)
        scores = list(self._scores)
        scores[i] = float(s)
        self._apply(scores=scores)

    def move(self, i, j) -> None:
        """Move the item at position ``i`` to position ``j`` (0 = rank 1); the others shift."""
        i = self._check_index(i, "i")
        j = self._check_index(j, "j")
        order = list(range(len(self._items)))
        order.insert(j, order.pop(i))
        scores = None if self._scores is None else [self._scores[o] for o in order]
        self._apply(grades=[self._grades[o] for o in order], scores=scores, items=[self._items[o] for o in order])

    def set_option(self, name, value) -> None:
        """Change one of the metric's settings (``"gain"``, ``"discount"``, ``"k"``, ``"ideal"`` ...)."""
        if name not in self._controls:
            names = ", ".join(self._controls) or "none"
            raise ValueError(f"option name must be one of {names} for metric {self._info.name!r}; got {name!r}")
        options = dict(self._options)
        if name == "ideal":
            if not isinstance(value, bool):
                raise ValueError(f"ideal must be True (judged pool) or False (the ranking's own grades); got {value!r}")
            options["ideal"] = value
        elif name == "n_relevant":
            found = self._found(self._grades, options)
            if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < found:
                raise ValueError(f"n_relevant = {value!r} must be an integer >= {found}, the relevant items in the ranking")
            previous = self._missing_relevant
            self._missing_relevant = int(value) - found
            try:
                self._apply()
            except ValueError:
                self._missing_relevant = previous
                raise
            return
        elif name == "g_max":
            if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < max(1, max(self._grades)):
                raise ValueError(
                    f"g_max = {value!r} must be an integer >= {max(1, max(self._grades))}, the highest grade in the ranking"
                )
            options["g_max"] = int(value)
            self._apply(options=options)
            self._max_grade = int(value)
            self._sync_controls()
            return
        else:
            options[name] = value
        self._apply(options=options)

    # -- widgets -----------------------------------------------------------------------------------
    def _build(self) -> None:
        n = len(self._items)
        self._title = W.HTML(f"<b>{html.escape(self._info.local_title)}</b>{_TABLE_CSS}")
        self._title.add_class("ltr-title")
        name_width = _name_width(self._items)
        self._rows = []
        for pos in range(n):
            self._rows.append(self._build_row(pos, name_width))
        rows_box = W.VBox([r["box"] for r in self._rows], layout=W.Layout(flex="0 0 auto", margin="0 24px 8px 0"))
        rows_box.add_class("ltr-rows")
        self._controls = self._build_controls()
        controls_box = W.VBox(list(self._controls.values()), layout=W.Layout(flex="0 1 auto"))
        controls_box.add_class("ltr-options")
        self._result = W.HTML()
        self._result.add_class("ltr-result")
        self._error = W.HTML()
        self._error.add_class("ltr-error")
        self.table = W.HTMLMath()
        self.table.add_class("ltr-table")
        width = round(self._figure.get_figwidth() * self._figure.dpi)
        self.plot = _Plot(format="png", layout=W.Layout(width=f"{width}px", flex="0 0 auto"))
        self.plot.add_class("ltr-plot")
        self._legend = W.HTML()
        self._legend.add_class("ltr-legend")
        self.widget = W.VBox([
            self._title, W.HBox([rows_box, controls_box], layout=W.Layout(**_TOP_LAYOUT)), self._result, self._error, self.plot, self._legend, self.table,
        ])
        self.widget.add_class("ltr-editor")

    def _build_row(self, pos: int, name_width: str) -> dict:
        rank = W.HTML(layout=W.Layout(**_RANK_LAYOUT))
        name = W.HTML(layout=W.Layout(width=name_width, flex="0 0 auto"))
        name.add_class("ltr-name")
        what = _("label") if self._labelled else (_("relevant") if self._binary else _("grade"))
        # the slider for the mouse (and arrow keys), its number in a box beside it: the box is the readout and the
        # control a screen reader names ("rank 2, MAC口红: grade"), its hidden label rewritten with the row
        slider = W.IntSlider(min=0, max=self._max_grade, description=what, continuous_update=False, readout=False,
                             layout=W.Layout(**_SLIDER_LAYOUT), style=_ROW_SLIDER_STYLE)
        slider.add_class("ltr-grade-slider")
        slider.observe(lambda ch, p=pos: self._on_grade(p, ch["new"]), names="value")
        box = W.BoundedIntText(min=0, max=self._max_grade, description_allow_html=True, layout=W.Layout(**_BOX_LAYOUT),
                               style=_BOX_STYLE)
        box.add_class("ltr-grade-box")
        box.observe(lambda ch, p=pos: self._on_grade(p, ch["new"]), names="value")
        parts = [rank, name, slider, box]
        row = {"rank": rank, "name": name, "grade": slider, "grade_box": box}
        if self._labelled:
            score = W.FloatSlider(min=0, max=1, step=0.05, description=_("score"), continuous_update=False, readout=False,
                                  layout=W.Layout(**_SLIDER_LAYOUT), style=_ROW_SLIDER_STYLE)
            score.add_class("ltr-score-slider")
            score.observe(lambda ch, p=pos: self._on_score(p, ch["new"]), names="value")
            score_box = W.BoundedFloatText(min=0, max=1, step=0.05, description_allow_html=True,
                                           layout=W.Layout(**_BOX_LAYOUT), style=_BOX_STYLE)
            score_box.add_class("ltr-score-box")
            score_box.observe(lambda ch, p=pos: self._on_score(p, ch["new"]), names="value")
            parts += [score, score_box]
            row.update(score=score, score_box=score_box)
        else:
            up = W.Button(description=_("up"), icon="arrow-up", layout=W.Layout(**_MOVE_BUTTON_LAYOUT))
            up.add_class("ltr-move-up")
            up.on_click(lambda _b, p=pos: self._on_move(p, p - 1))
            down = W.Button(description=_("down"), icon="arrow-down", layout=W.Layout(**_MOVE_BUTTON_LAYOUT))
            down.add_class("ltr-move-down")
            down.on_click(lambda _b, p=pos: self._on_move(p, p + 1))
            parts += [up, down]
            row.update(up=up, down=down)
        box = W.HBox(parts, layout=W.Layout(align_items="center"))
        box.add_class("ltr-row")
        box.add_class(f"ltr-row-{pos + 1}")
        row["box"] = box
        return row

    def _build_controls(self) -> dict:
        controls = {}
        opts = self._info.options
        n = len(self._items)
        if "gain" in opts:
            self._options.setdefault("gain", "exp2")
            controls["gain"] = W.ToggleButtons(options=_labelled_options(GAINS), value=self._options["gain"], description=_("gain"),
                                               tooltips=[translate(g.description) for g in GAINS.values()])
        if "discount" in opts:
            self._options.setdefault("discount", "log2")
            controls["discount"] = W.ToggleButtons(options=_labelled_options(DISCOUNTS), value=self._options["discount"],
                                                   description=_("discount"),
                                                   tooltips=[translate(d.description) for d in DISCOUNTS.values()])
        if "k" in opts and not self._labelled:
            k = self._options.setdefault("k", None)
            required = _k_required(self._info)
            # 0 stands for "all" (k=None): a Dropdown shows the value None as an empty selection
            choices = ([] if required else [(_("all"), 0)]) + [(str(i), i) for i in range(1, max(n, k or 0) + 1)]
            controls["k"] = W.Dropdown(options=choices, value=k or 0, description=_("k (cut-off)"),
                                       tooltip=_("rank cut-off: only the top k items count"))
        if "ideal" in opts and self._judged_extra:
            extra = ", ".join(str(g) for g in self._judged_extra)
            controls["ideal"] = W.Checkbox(value=self._options["ideal"], description=_("ideal from the judged pool"),
                                           tooltip=_("include the judged items the ranking missed (grades {extra}) in "
                                                     "the ideal order").format(extra=extra), indent=False)
        if "zero" in opts:
            self._options.setdefault("zero", "zero")
            controls["zero"] = W.Dropdown(options=_labelled_options(ZERO_RULES), value=self._options["zero"],
                                          description=_("IDCG = 0 gives"),
                                          tooltip=_("; ").join(translate(rule) for rule in ZERO_RULES.values()))
        if "g_max" in opts:
            controls["g_max"] = W.IntSlider(min=max(1, max(self._grades)), max=max(5, self._options["g_max"]),
                                            value=self._options["g_max"], description="g_max",
                                            tooltip=_("the top grade of the scale: R = (2^g - 1) / 2^g_max"),
                                            continuous_update=False)
        if "n_relevant" in opts:
            found = self._found(self._grades, self._options)
            controls["n_relevant"] = W.IntSlider(min=found, max=found + max(10, self._missing_relevant),
                                                 value=found + self._missing_relevant, description="n_relevant",
                                                 tooltip=_("relevant documents in the whole collection, retrieved or not"),
                                                 continuous_update=False)
        if "beta" in opts:
            beta = self._options.get("beta", 1)
            choices = sorted(set(_BETAS) | {beta})
            self._options["beta"] = beta
            controls["beta"] = W.Dropdown(options=choices, value=beta, description="beta",
                                          tooltip=_("beta > 1 weighs recall more, beta < 1 precision more"))
        for name, control in controls.items():
            if isinstance(control, W.Checkbox):  # its label follows the box (indent=False): line the box up
                control.layout.margin = f"2px 0 2px calc({_OPTION_LABEL_WIDTH} + 10px)"
            else:
                control.style.description_width = _OPTION_LABEL_WIDTH
            if isinstance(control, W.ToggleButtons):
                # ipywidgets 8 lays ToggleButtons out as a block (its label alone on a line above the buttons);
                # the class of the other labelled controls puts the label beside them, right-aligned like theirs
                control.style.button_width = _TOGGLE_BUTTON_WIDTH
                control.add_class("widget-inline-hbox")
            control.add_class("ltr-option")
            control.add_class(f"ltr-option-{name}")
            control.observe(lambda ch, key=name: self._on_option(key, ch["new"]), names="value")
        return controls

    # -- widget callbacks: call the public methods, report refusals in the error line --------------
    def _guarded(self, action) -> None:
        if self._syncing:
            return
        try:
            action()
        except ValueError as exc:
            refused = _("not applied: {reason}").format(reason=exc)  # the reason (a ValueError) stays English
            self._error.value = f"<span style='color:#b00'>{html.escape(refused)}</span>"
            self._sync_controls()

    def _on_grade(self, pos, value) -> None:
        self._guarded(lambda: self.set_grade(pos, value))

    def _on_score(self, pos, value) -> None:
        self._guarded(lambda: self.set_score(pos, round(value, 10)))

    def _on_move(self, pos, target) -> None:
        if 0 <= target < len(self._items):
            self._guarded(lambda: self.move(pos, target))

    def _on_option(self, name, value) -> None:
        if name == "k" and value == 0:
            value = None
        self._guarded(lambda: self.set_option(name, value))

    # -- redraw -------------------------------------------------------------------------------------
    def _sync_controls(self) -> None:
        """Make every control show the current state without firing its callback."""
        self._syncing = True
        try:
            n = len(self._items)
            shown = getattr(self, "_rows_shown", None)
            if shown is None or len(shown) != len(self._rows):
                shown = self._rows_shown = [None] * len(self._rows)
            language = get_language()
            for pos, row in enumerate(self._rows):
                name = self._items[pos]
                # a row shows its name, grade, score and neighbours: rewrite only the rows whose state changed (one
                # slider move changes one row; rewriting 200 rows' traits and tooltips cost more than the metric)
                score = None if self._scores is None else self._scores[pos]
                state = (name, self._grades[pos], score, n, self._max_grade, language)
                if shown[pos] == state and row["grade"].value == row["grade_box"].value == self._grades[pos] and (
                        "score" not in row or row["score"].value == row["score_box"].value == score):
                    continue
                shown[pos] = state
                row["rank"].value = f"{pos + 1}."
                row["name"].value = html.escape(name)
                for control in (row["grade"], row["grade_box"]):
                    control.max = self._max_grade
                    control.value = self._grades[pos]
                row["grade"].tooltip = _("{what} of {name} (rank {rank})").format(what=row["grade"].description, name=name,
                                                                                   rank=pos + 1)
                row["grade_box"].description = _hidden_label(_("rank {rank}, {name}: {what}").format(
                    rank=pos + 1, name=name, what=row["grade"].description))
                if "score" in row:
                    row["score"].value = row["score_box"].value = self._scores[pos]
                    row["score"].tooltip = _("model score of {name}").format(name=name)
                    row["score_box"].description = _hidden_label(_("rank {rank}, {name}: {what}").format(
                        rank=pos + 1, name=name, what=row["score"].description))
                else:
                    row["up"].disabled = pos == 0
                    row["down"].disabled = pos == n - 1
                    row["up"].tooltip = _("move {name} up one rank").format(name=name)
                    row["down"].tooltip = _("move {name} down one rank").format(name=name)
            for key, control in self._controls.items():
                if key == "n_relevant":
                    found = self._found(self._grades, self._options)
                    control.max = max(control.max, found + self._missing_relevant)
                    control.min = found
                    control.value = found + self._missing_relevant
                elif key == "g_max":
                    control.min = max(1, max(self._grades))
                    control.value = self._options["g_max"]
                else:
                    value = self._options.get(key)
                    if key == "k" and value is None:
                        value = 0
                    listed = [o[1] if isinstance(o, tuple) else o for o in getattr(control, "options", ())]
                    if isinstance(control, W.Dropdown) and value not in listed:
                        # a value set in code beyond the listed choices (k = 20, beta = 3/2): list it too
                        control.options = [o if isinstance(o, tuple) else (str(o), o) for o in control.options] + \
                            [(str(value), value)]
                    control.value = value
        finally:
            self._syncing = False

    def _refresh(self) -> None:
        self._sync_controls()
        self._error.value = ""
        self._show(self._explanation, names=None if self._labelled else self._items)

    def __repr__(self) -> str:
        # decimal first: an NDCG's exact form (over 100 characters) would make the saved output wider than a page
        return f"<RankingEditor {self._info.name}: {len(self._items)} items, {short_title(self._explanation, 40)}>"


class MultiQueryEditor(_ExplanationView):
    """One :class:`RankingEditor` per query (in tabs) and the mean over the queries, live.

    Parameters
    ----------
    queries : dict
        ``{query name: (item names, relevance)}`` in ranked order: 0/1 for MRR and MAP, grades for NDCG.
    metric : {"mrr", "map", "ndcg"} or their registry names
        ``"mrr"`` edits each query's reciprocal rank, ``"map"`` each query's average precision,
        ``"ndcg"`` each query's NDCG (the mean is post 000's NDCG(Q, k),
        :func:`ltr_teach.teaching.examples.mean_ndcg`). For NDCG the variants (gain, discount, k, zero) are
        shared: changing one in any tab changes it in every tab.
    n_relevant : dict, optional
        For ``"map"``: ``{query name: relevant documents in the collection}``.
    **metric_kwargs
        Passed to every query's editor (``k``, ``threshold``; for NDCG ``gain``, ``discount``, ``zero``).

    Examples
    --------
    Post 000's three queries: first hits at ranks 2, 1, 3, so MRR = (1/2 + 1 + 1/3) / 3.

    >>> ed = MultiQueryEditor({"眼霜": (["小棕瓶精华", "小棕瓶眼霜", "面霜"], [0, 1, 0]),
    ...                        "神仙水": (["skII 神仙水", "兰蔻粉水", "菌菇水"], [1, 0, 0]),
    ...                        "面膜": (["芦荟霜", "高保湿面霜", "skii面膜"], [0, 0, 1])})
    >>> ed.explanation.exact
    11/18
    >>> ed.editors["面膜"].move(2, 0)   # skii面膜 to the top: (1/2 + 1 + 1) / 3
    >>> ed.explanation.exact
    5/6
    """

    _SINGLE: ClassVar[dict] = {"mrr": "reciprocal_rank", "mean_average_precision": "average_precision",
                               "ndcg": "ndcg"}
    _SHARED: ClassVar[tuple] = ("gain", "discount", "k", "zero")

    def __init__(self, queries, metric="mrr", n_relevant=None, **metric_kwargs):
        self._info = lookup(metric)
        if self._info.name not in self._SINGLE:
            raise ValueError(f"metric must be 'mrr', 'map' or 'ndcg' (a mean over queries); got {metric!r}")
        if self._info.name == "ndcg" and "ideal" in metric_kwargs:
            raise ValueError("ideal (a judged pool) differs per query; MultiQueryEditor's NDCG takes the ideal "
                             "from each ranking")
        if not isinstance(queries, dict) or not queries:
            raise ValueError("queries must be a non-empty dict {query name: (item names, relevance)}; "
                             f"got {queries!r}")
        by_query_name(queries, "queries")  # names are shown as text: 1 and "1" would be one tab
        if n_relevant is not None and self._info.name != "mean_average_precision":
            raise ValueError("n_relevant is for metric 'map' only")
        counts = n_relevant or {}
        unknown = [q for q in counts if q not in queries]
        if unknown:
            raise ValueError(f"n_relevant names query {unknown[0]!r}, which is not in queries")
        self._kwargs = dict(metric_kwargs)
        self.editors = {}
        for name, pair in queries.items():
            if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                raise ValueError(f"queries[{name!r}] must be a pair (item names, relevance); got {pair!r}")
            extra = {"n_relevant": counts[name]} if name in counts else {}
            editor = RankingEditor(pair[0], pair[1], self._SINGLE[self._info.name], **metric_kwargs, **extra)
            editor.on_change(self._on_query_change)
            editor._vetoes.append(self._check_change)
            self.editors[name] = editor
        self._result = W.HTML()
        self._result.add_class("ltr-result")
        self.table = W.HTMLMath()
        self.table.add_class("ltr-table")
        self.plot = _Plot(format="png", layout=W.Layout(width="560px"))
        self.plot.add_class("ltr-plot")
        self._legend = W.HTML()
        self._legend.add_class("ltr-legend")
        self._figure = Figure(figsize=(7, 3.2), dpi=80)
        tabs = W.Tab(children=[ed.widget for ed in self.editors.values()], titles=[str(q) for q in self.editors])
        tabs.add_class("ltr-query-tabs")
        self.widget = W.VBox([W.HTML(f"<b>{html.escape(self._info.local_title)}</b>"), self._result, self.plot,
                              self._legend,
                              self.table, tabs])
        self.widget.add_class("ltr-multi-editor")
        self._syncing = False
        self._refresh()

    def _check_change(self, editor, grades, options) -> None:
        """Refuse (ValueError) a change to one query that another query or the mean cannot take, before it
        is made: e.g. zero='raise' while another query has no relevant item."""
        rankings = {name: list(grades) if ed is editor else list(ed.grades) for name, ed in self.editors.items()}
        if self._info.name == "ndcg":
            shared = {key: options[key] for key in self._SHARED}
            for name, other in self.editors.items():
                if other is not editor:
                    try:
                        other._compute(other._grades, other._scores, {**other._options, **shared})
                    except ValueError as exc:
                        raise ValueError(f"query {name!r} cannot take this change: {exc}") from None
            self._mean(rankings, shared)
        else:
            counts = None
            if self._info.name == "mean_average_precision":
                counts = {name: (editor._found(grades, options) + editor._missing_relevant if ed is editor
                                 else ed.options["n_relevant"]) for name, ed in self.editors.items()}
            self._mean(rankings, counts=counts)

    def _mean(self, rankings, shared=None, counts=None):
        if self._info.name == "ndcg":
            from ..teaching.examples import mean_ndcg

            return mean_ndcg(rankings, **shared)
        kwargs = dict(self._kwargs)
        if self._info.name == "mean_average_precision":
            kwargs["n_relevant"] = counts
        return self._info.func(rankings, **kwargs)

    def _on_query_change(self, editor) -> None:
        """Recompute the mean; for NDCG first copy the changed tab's variants to the other tabs."""
        if self._syncing:
            return
        if self._info.name == "ndcg":
            self._syncing = True
            try:
                for other in self.editors.values():
                    for key in self._SHARED:
                        if other is not editor and other.options[key] != editor.options[key]:
                            other.set_option(key, editor.options[key])
            finally:
                self._syncing = False
        self._refresh()

    @property
    def explanation(self):
        """The current mean over the queries (an MRR, MAP or mean-NDCG explanation)."""
        rankings = {name: list(ed.grades) for name, ed in self.editors.items()}
        first = next(iter(self.editors.values()))
        return self._mean(rankings, shared={key: first.options[key] for key in self._SHARED}
                          if self._info.name == "ndcg" else None,
                          counts={name: ed.options.get("n_relevant") for name, ed in self.editors.items()})

    def _refresh(self) -> None:
        self._show(self.explanation)

    def __repr__(self) -> str:
        return f"<MultiQueryEditor {self._info.name}: {len(self.editors)} queries, {short_title(self.explanation, 40)}>"


# -- the posts' numbers beside the exact ones ---------------------------------------------------------
class Card:
    """A small report that shows as HTML in a notebook and as aligned text in a terminal or doctest.

    Parameters
    ----------
    title : str
        The first line.
    rows : iterable of (str, str)
        Label and text of each line; the labels are aligned.
    verdict : str
        The last line.
    ok : bool
        Green (``True``) or red border in HTML.

    Examples
    --------
    P@2 of 1, 0, 1: one hit in the top 2, so 1/2.

    >>> print(Card("P@2 of 1, 0, 1", [("hits", "1"), ("P@2", "1/2")], "one hit in two ranks", True))
    P@2 of 1, 0, 1
      hits  1
      P@2   1/2
      => one hit in two ranks
    """

    def __init__(self, title: str, rows, verdict: str, ok: bool):
        self.title, self.rows, self.verdict, self.ok = title, list(rows), verdict, ok

    def _shown(self) -> tuple:
        """Title, rows and verdict in the current language: the labels, the title and the verdict are message ids
        (an unknown one shows as itself); a value is translated only when it is an ``i18n.Message``."""
        rows = [(translate(k), translate(v) if isinstance(v, Message) else v) for k, v in self.rows]
        return translate(self.title), rows, translate(self.verdict)

    def __str__(self) -> str:
        title, rows, verdict = self._shown()
        width = max(display_width(k) for k, _ in rows)  # a Chinese label is two columns wide per character
        lines = [title] + [f"  {k}{' ' * (width - display_width(k))}  {v}" for k, v in rows] + [f"  => {verdict}"]
        return "\n".join(lines)

    __repr__ = __str__

    def _repr_html_(self) -> str:
        color = "#1a7f37" if self.ok else "#b00020"
        title, shown_rows, verdict = self._shown()
        rows = "".join(f"<tr><th style='text-align:left;padding:1px 10px 1px 0;vertical-align:top'>{html.escape(k)}</th>"
                       f"<td style='text-align:left'>{html.escape(v)}</td></tr>" for k, v in shown_rows)
        return webfont.serve(
            f"<div class='ltr-card' style='border-left:4px solid {color};padding:4px 10px;margin:6px 0'>"
            f"<b>{html.escape(title)}</b><table>{rows}</table>"
            f"<p style='margin:2px 0;color:{color}'><b>{html.escape(verdict)}</b></p></div>")


def _exact_text(ex) -> str:
    exact = ex.exact_str
    if len(exact) > 40:
        return f"≈ {ex.decimal_str}"
    return ex.result_line().split(" = ", 1)[1]


def example_card(example) -> Card:
    """A worked example of the posts: what the post prints beside the library's exact value.

    Parameters
    ----------
    example : WorkedExample or str
        A :class:`ltr_teach.teaching.examples.WorkedExample` or its id.

    Returns
    -------
    Card
        What the post prints, the exact value, the call that computes it, and whether the
        two agree at the precision printed.

    Examples
    --------
    Post 000's MAP: AP(1) = 13/15 and AP(2) = 47/84; their mean is (13/15 + 47/84) / 2 =
    (364/420 + 235/420) / 2 = 599/840, but the post prints the sum 599/420.

    >>> print(example_card("000-map-two-queries"))   # doctest: +NORMALIZE_WHITESPACE
    post 000 · 最近想要总结一下 LTR的算法 · 1.2 MAP · 查询1 MAC 口红 + 查询2 神仙水
      quantity        MAP(Q)
      post says   599/420
      exact (ltr_teach)  (13/15 + 47/84)/2 = 599/840 ≈ 0.713095
      computed by     lt.mean_average_precision({'MAC 口红': [1, 1, 0, 0, 1, 0, 0], '神仙水': [0, 1, 1, 0, 0, 1, 1]})
      note            599/420 is AP(1) + AP(2); the mean divides by 2: 599/840
      => the post is wrong here (see the errata)
    """
    from ..teaching import examples

    ex = examples.by_id(example) if isinstance(example, str) else example
    rows = [(N_("quantity"), ex.quantity), (N_("post says"), ex.printed),
            (N_("exact (ltr_teach)"), _exact_text(ex.call())), (N_("computed by"), str(ex.call))]
    if ex.note:
        rows.append((N_("note"), ex.note))
    agrees = ex.matches
    verdict = (N_("the post's number agrees with the exact value at the precision printed") if agrees
               else N_("the post is wrong here (see the errata)"))
    return Card(Message("{document} · {section} · {title}", document=ex.post.label, section=ex.section, title=ex.title),
                rows, verdict, agrees)


def erratum_card(erratum) -> Card:
    """One erratum of the posts: where, what the post says, what is right and why.

    Parameters
    ----------
    erratum : Erratum or str
        A :class:`ltr_teach.teaching.examples.Erratum` or its id.

    Returns
    -------
    Card
        Where the slip is, what the post says, the correct value and why.

    Examples
    --------
    Post 000 prints the sum of the two APs as their mean: (13/15 + 47/84) / 2 = (364/420 + 235/420) / 2 = 599/840,
    not 599/420.

    >>> print(erratum_card("000-map-value"))   # doctest: +NORMALIZE_WHITESPACE
    erratum 000-map-value (post 000 · 最近想要总结一下 LTR的算法)
      kind           error
      where          1.2 MAP: MAP(Q) = (13/15 + 47/84) / 2 = 599/420 (formula)
      post says  599/420
      correct        599/840 ≈ 0.713095: (13/15 + 47/84) / 2
      why            599/420 is AP(1) + AP(2), the sum before dividing by 2; a MAP above 1 (599/420 ≈ 1.426) is impossible.
      computed by    lt.mean_average_precision({'MAC 口红': [1, 1, 0, 0, 1, 0, 0], '神仙水': [0, 1, 1, 0, 0, 1, 1]})
      => the post is wrong here; the correct version is above
    """
    from ..teaching import examples

    er = examples.by_id(erratum) if isinstance(erratum, str) else erratum
    rows = [(N_("where"), er.where), (N_("post says"), er.printed), (er.correct_label, er.correct),
            (N_("why"), er.explanation)]
    if er.call is not None:
        rows.append((N_("computed by"), str(er.call)))
    rows.insert(0, (N_("kind"), Message(er.kind)))  # the kinds are message ids (examples.KINDS)
    return Card(Message(N_("erratum {id} ({document})"), id=er.id, document=er.post.label), rows, er.verdict,
                er.kind == "convention")


__all__ = ["Card", "MultiQueryEditor", "RankingEditor", "erratum_card", "example_card"]
