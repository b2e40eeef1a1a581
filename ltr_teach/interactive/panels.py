"""Panels the notebooks display: explanations side by side, errata cards with their computed value,
an erratum browser, a tool switcher, a live panel of several metrics beside an editor, and a
snapshot that puts an editor back where it started.

Every panel keeps its logic in plain methods (``select``, ``refresh``, ``restore``) that tests call
without a browser; the ipywidgets controls only call those methods, so a notebook never defines a
callback of its own.
"""

from __future__ import annotations

import html

import ipywidgets as W

from ..core import webfont
from ..core.i18n import _, translate
from ..metrics.compare import ConventionTable
from ..metrics.suite import MetricSuite
from ..teaching import examples
from .widgets import _ShowsWidget

_LABEL_STYLE = "text-align:right;vertical-align:top;padding:2px 8px;color:#555;white-space:nowrap"


class HTMLPanel:
    """A piece of HTML that a notebook shows (``_repr_html_``) and a test reads (``.html``, ``str``)."""

    def __init__(self, markup: str, text: str):
        self.html, self.text = markup, text

    def _repr_html_(self) -> str:
        return webfont.serve(self.html)

    def __str__(self) -> str:
        return self.text

    __repr__ = __str__


def _embedded_html(shown) -> str:
    """``shown``'s HTML to put inside another output or a widget (the page font is served by the outer one)."""
    with webfont.held():
        return shown._repr_html_()


def side_by_side(*labelled) -> HTMLPanel:
    """Explanations' step tables next to each other (they wrap below each other on a narrow page).

    Parameters
    ----------
    *labelled : (str, Explanation)
        A heading and the explanation to show under it.

    Examples
    --------
    >>> import ltr_teach as lt
    >>> print(side_by_side(("grades 1, 0", lt.reciprocal_rank([1, 0])), ("grades 0, 1", lt.reciprocal_rank([0, 1]))))
    grades 1, 0: RR = 1
    grades 0, 1: RR = 1/2 = 0.5
    """
    if not labelled:
        raise ValueError("side_by_side needs at least one (label, explanation) pair")
    for i, pair in enumerate(labelled):
        if not isinstance(pair, (tuple, list)) or len(pair) != 2 or not hasattr(pair[1], "_repr_html_"):
            raise ValueError(f"labelled[{i}] must be a pair (label, explanation); got {pair!r}")
    boxes = "".join(
        "<div style='flex:1 1 0;min-width:520px;overflow-x:auto;margin-right:20px;font-size:78%'>"
        f"<h4>{html.escape(label)}</h4>{_embedded_html(ex)}</div>" for label, ex in labelled)
    markup = f"<div class='ltr-side-by-side' style='display:flex;flex-wrap:wrap;align-items:flex-start'>{boxes}</div>"
    return HTMLPanel(markup, "\n".join(f"{label}: {ex.result_line()}" for label, ex in labelled))


def _computed(call) -> tuple[str, str]:
    """The call as a student would type it and its exact value (only the decimal for long exact forms)."""
    ex = call()
    value = ex.result_line() if len(ex.exact_str) <= 24 else f"{ex.name} ≈ {ex.decimal_str}"
    return str(call), value


def erratum_html(erratum) -> str:
    """One erratum as an HTML card: its kind, where, what the document says, the correct (or, for a
    convention, the usual) version, the library call with its computed value, why, and the verdict.

    Only a record of kind ``"error"`` shows the document's text in red and says the document is wrong;
    a convention, a term or a typo gets a neutral colour and its own verdict.

    Examples
    --------
    >>> markup = erratum_html("000-map-value")
    >>> "599/840" in markup and "lt.mean_average_precision" in markup and "the document is wrong" in markup
    True
    >>> "the document is wrong" in erratum_html("000-ndcg-log-base")   # a convention, not an error
    False
    """
    e = examples.by_id(erratum) if isinstance(erratum, str) else erratum
    esc = html.escape
    said = "#b00" if e.is_error else "#555"
    rows = [(_("kind"), esc(translate(e.kind))), (_("where"), esc(translate(e.where))),
            (_("document says"), f"<span style='color:{said}'>{esc(translate(e.printed))}</span>"),
            (translate(e.correct_label), f"<span style='color:#070'>{esc(translate(e.correct))}</span>")]
    if e.call is not None:
        call, value = _computed(e.call)
        rows.append((_("library"), f"<code>{esc(call)}</code><br>→ <b>{esc(value)}</b>"))
    rows.append((_("why"), esc(translate(e.explanation))))
    body = "".join(f"<tr><td style='{_LABEL_STYLE}'>{esc(label)}</td>"
                   f"<td style='text-align:left;padding:2px 8px'>{text}</td></tr>" for label, text in rows)
    border = "#b00020" if e.is_error else "#0072B2"
    return (f"<div class='ltr-erratum ltr-erratum-{esc(e.kind)}' style='border-left:4px solid {border};margin:8px 0;"
            f"padding-left:6px'><b>{esc(e.id)}</b><table style='border-collapse:collapse'>{body}</table>"
            f"<p style='margin:2px 0;color:{border}'><b>{esc(translate(e.verdict))}</b></p></div>")


def errata_panel(document: str) -> HTMLPanel:
    """Every erratum record of one document as cards, under a line that counts them by kind.

    Parameters
    ----------
    document : str
        The document's number, ``"000"`` to ``"004"`` (the keys of ``lt.examples.DOCUMENTS``).

    Examples
    --------
    Document 002's lipstick example is computed right: it has no erratum.

    >>> print(errata_panel("002"))    # doctest: +ELLIPSIS
    0 records in 002_...
    """
    if document not in examples.DOCUMENTS:
        raise ValueError(f"document = {document!r} must be one of {', '.join(examples.DOCUMENTS)}")
    name = examples.DOCUMENTS[document]
    records = [e for e in examples.ERRATA if e.document == name]
    kinds = _(", ").join(_("{n} {kind}").format(n=n, kind=translate(kind)) for kind in examples.KINDS
                         if (n := sum(e.kind == kind for e in records)))
    heading = _("{n} records in {document}").format(n=len(records), document=name) + (
        _(" ({kinds})").format(kinds=kinds) if kinds else "")
    markup = f"<p>{html.escape(heading)}</p>" + "".join(erratum_html(e) for e in records)
    return HTMLPanel(markup, "\n".join([heading] + [f"  {e.id} ({translate(e.kind)})" for e in records]))


class ErratumBrowser(_ShowsWidget):
    """A drop-down of every erratum; the chosen record's card, and the full explanation table of its
    library call where it has one.

    Examples
    --------
    >>> browser = ErratumBrowser()
    >>> browser.select("000-map-value")
    >>> "599/840" in browser.detail.value
    True
    """

    def __init__(self):
        choices = [(f"{e.id}  ({e.document[:3]})", e.id) for e in examples.ERRATA]
        self.picker = W.Dropdown(options=choices, description=_("erratum"), layout=W.Layout(width="420px"))
        self.detail = W.HTMLMath()
        self.picker.observe(self._on_pick, names="value")
        self.widget = W.VBox([self.picker, self.detail])
        self.widget.add_class("ltr-errata-browser")
        self.refresh()

    def _on_pick(self, change) -> None:
        self.refresh()

    def select(self, erratum_id: str) -> None:
        """Show the record ``erratum_id`` (as choosing it in the drop-down does)."""
        ids = [value for _, value in self.picker.options]
        if erratum_id not in ids:
            raise ValueError(f"erratum_id = {erratum_id!r} is not an erratum id (see lt.examples.ERRATA)")
        self.picker.value = erratum_id

    def refresh(self) -> None:
        """Redraw the detail for the record chosen now."""
        e = examples.by_id(self.picker.value)
        self.detail.value = erratum_html(e) + ("" if e.call is None else _embedded_html(e.call()))

    def __repr__(self) -> str:
        return f"<ErratumBrowser: {len(self.picker.options)} errata, showing {self.picker.value}>"


class ConventionSwitcher(_ShowsWidget):
    """Toggle buttons, one per convention of a :class:`~ltr_teach.metrics.compare.ConventionTable`; the
    panel shows the chosen tool's settings and the full step table they imply.

    Examples
    --------
    The ranking 0, 3, 2 of a query whose judged pool also holds a second grade-2 item: scikit-learn
    builds the ideal from the returned list only (3, 2, 0), so the unretrieved item never counts.

    >>> import ltr_teach as lt
    >>> switcher = ConventionSwitcher(lt.compare_conventions([0, 3, 2], ideal=[3, 2, 0, 2]))
    >>> switcher.select("sklearn")
    >>> "Ideal from the list" in switcher.panel.value
    True
    """

    def __init__(self, table: ConventionTable, start: str | None = None):
        if not isinstance(table, ConventionTable):
            raise ValueError(f"table must be the result of lt.compare_conventions; got {type(table).__name__}")
        self._rows = {row["name"]: row for row in table.rows}
        names = list(self._rows)
        start = names[0] if start is None else start
        if start not in self._rows:
            raise ValueError(f"start = {start!r} must be one of {', '.join(names)}")
        self.choice = W.ToggleButtons(options=names, value=start, description=_("tool"))
        self.panel = W.HTML()
        self.choice.observe(self._on_choice, names="value")
        self.widget = W.VBox([self.choice, self.panel])
        self.widget.add_class("ltr-conventions-panel")
        self.refresh()

    def _on_choice(self, change) -> None:
        self.refresh()

    def select(self, name: str) -> None:
        """Show the convention ``name`` (as clicking its button does)."""
        if name not in self._rows:
            raise ValueError(f"name = {name!r} must be one of {', '.join(self._rows)}")
        self.choice.value = name

    @property
    def explanation(self):
        """The explanation of the convention shown now."""
        return self._rows[self.choice.value]["explanation"]

    def refresh(self) -> None:
        """Redraw the panel for the convention chosen now."""
        row = self._rows[self.choice.value]
        esc = html.escape
        summary = _("{name}: {description}. Ideal from the {ideal}, ties {ties}, differs from trec_eval by: "
                    "{differs}.").format(name=row["name"], description=translate(row["description"]),
                                         ideal=row["ideal"], ties=row["ties"], differs=row["differs"])
        verified = _("Verified against {version}.").format(version=translate(row["version"]))
        self.panel.value = (f"<p>{esc(summary)} <i>{esc(verified)}</i></p>" + _embedded_html(row["explanation"]))

    def __repr__(self) -> str:
        return f"<ConventionSwitcher: {self.choice.value}, {self.explanation.result_line()}>"


class MetricsDashboard(_ShowsWidget):
    """A live table of several metrics above a ranking editor: it follows every change of the editor.

    Parameters
    ----------
    editor : RankingEditor
        The editor whose grades are evaluated.
    suite : MetricSuite
        The metrics to show.

    Examples
    --------
    >>> from ltr_teach.interactive.widgets import RankingEditor
    >>> suite = MetricSuite({"RR": ("reciprocal_rank", {"threshold": 2}), "P@2": ("precision_at_k", {"k": 2, "threshold": 2})})
    >>> board = MetricsDashboard(RankingEditor(["a", "b", "c"], [0, 2, 1]), suite)
    >>> board.values()["RR"].exact                  # first grade >= 2 at rank 2
    1/2
    >>> board.editor.move(1, 0)                     # b to the top: RR = 1
    >>> board.values()["RR"].exact, "RR = 1" in board.panel.value
    (1, True)
    """

    def __init__(self, editor, suite: MetricSuite):
        if not isinstance(suite, MetricSuite):
            raise ValueError(f"suite must be a MetricSuite; got {type(suite).__name__}")
        self.editor, self.suite = editor, suite
        self.panel = W.HTML()
        self.panel.add_class("ltr-metrics-panel")
        editor.on_change(self._on_editor_change)
        self.widget = W.VBox([self.panel, editor.widget])
        self.widget.add_class("ltr-dashboard")
        self.refresh()

    def _on_editor_change(self, editor) -> None:
        self.refresh()

    def values(self) -> dict:
        """``{label: Explanation}`` for the editor's current grades."""
        return self.suite.evaluate(self.editor.grades)

    def refresh(self) -> None:
        """Recompute every metric for the editor's grades and redraw the panel."""
        rows = "".join(f"<tr><td style='padding:2px 10px'><b>{html.escape(label)}</b></td>"
                       f"<td style='padding:2px 10px'>{html.escape(ex.result_line())}</td></tr>"
                       for label, ex in self.values().items())
        self.panel.value = f"<table>{rows}</table>"

    def header(self) -> str:
        """Column titles for :meth:`line`."""
        return self.suite.header()

    def line(self, label: str = "") -> str:
        """The editor's grades, every metric's decimal and a label, on one line."""
        return self.suite.line(self.editor.grades, label)

    def __repr__(self) -> str:
        values = ", ".join(f"{label} {ex.decimal_str}" for label, ex in self.values().items())
        return f"<MetricsDashboard {list(self.editor.grades)}: {values}>"


class EditorSnapshot:
    """The state of a :class:`~ltr_teach.interactive.widgets.RankingEditor` (order, grades, scores,
    options), to put the editor back there after a demonstration.

    Examples
    --------
    >>> from ltr_teach.interactive.widgets import RankingEditor
    >>> ed = RankingEditor(["a", "b", "c"], [3, 0, 1], metric="err", g_max=3)
    >>> start = EditorSnapshot(ed)
    >>> ed.move(2, 0); ed.set_option("g_max", 4); ed.set_grade(0, 4)
    >>> ed.items, ed.grades
    (('c', 'a', 'b'), (4, 3, 0))
    >>> start.restore()
    >>> ed.items, ed.grades, ed.options["g_max"]
    (('a', 'b', 'c'), (3, 0, 1), 3)
    """

    def __init__(self, editor):
        self.editor = editor
        self.items, self.grades = editor.items, editor.grades
        self.scores = editor.scores
        self.options = dict(editor.options)

    def restore(self) -> None:
        """Move the items back to their order, then reset the options, grades and scores that changed."""
        ed = self.editor
        for pos, item in enumerate(self.items):
            current = ed.items.index(item, pos)
            if current != pos:
                ed.move(current, pos)
        late = ("g_max", "n_relevant")   # both are bounded by the grades: set them once the grades are back
        for name, value in self.options.items():
            if name not in late and ed.options.get(name) != value:
                ed.set_option(name, value)
        if "g_max" in self.options and ed.options["g_max"] < self.options["g_max"]:
            ed.set_option("g_max", self.options["g_max"])
        for pos, grade in enumerate(self.grades):
            if ed.grades[pos] != grade:
                ed.set_grade(pos, grade)
        if self.scores is not None:
            for pos, score in enumerate(self.scores):
                if ed.scores[pos] != score:
                    ed.set_score(pos, score)
        for name in late:
            if name in self.options and ed.options.get(name) != self.options[name]:
                ed.set_option(name, self.options[name])

    @property
    def restored(self) -> bool:
        """Whether the editor is in the saved state now."""
        ed = self.editor
        return (ed.items, ed.grades, ed.scores, dict(ed.options)) == (self.items, self.grades, self.scores,
                                                                      self.options)


__all__ = ["ConventionSwitcher", "EditorSnapshot", "ErratumBrowser", "HTMLPanel", "MetricsDashboard",
           "erratum_html", "errata_panel", "side_by_side"]
