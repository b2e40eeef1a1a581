"""Panels the notebooks display: explanations side by side, errata cards with their computed value,
an erratum browser, a tool switcher, a live panel of several metrics beside an editor, and a
snapshot that puts an editor back where it started.

Every panel keeps its logic in plain methods (``select``, ``refresh``, ``restore``) that tests call
without a browser; the ipywidgets controls only call those methods, so a notebook never defines a
callback of its own.
"""

from __future__ import annotations

import dataclasses
import html

import ipywidgets as W
import sympy

from ..core import webfont
from ..core.exact import fmt_cell, fmt_value, terminates
from ..core.explanation import Explanation, formula_tex
from ..core.i18n import N_, _, translate
from ..core.table import aligned_lines, html_table
from ..metrics.binary import bpref, judged_at_k, precision_at_k
from ..metrics.compare import ConventionTable
from ..metrics.pairs import swap_deltas
from ..metrics.sampled import sampled_metric
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


#: Decimals of a step's cell in :func:`decimal_first` (the result line keeps six): four keep an NDCG table
#: within a page's width.
CELL_PLACES = 4


def _decimal_cell(cell) -> str:
    """A step's cell as its decimal: ``0.875`` when exact, ``≈ 0.6309`` otherwise; integers and text as they are."""
    if not isinstance(cell, sympy.Basic) or isinstance(cell, sympy.Integer) or cell is sympy.nan:
        return fmt_cell(cell)
    exact = isinstance(cell, sympy.Rational) and terminates(cell, CELL_PLACES)
    return fmt_value(cell, CELL_PLACES) if exact else f"≈ {fmt_value(cell, CELL_PLACES)}"


def _decimal_result(ex: Explanation) -> str:
    exact = ex.exact
    if isinstance(exact, sympy.Integer) or exact is sympy.nan:
        return f"{ex.name} = {ex.exact_str}"
    sign = "=" if isinstance(exact, sympy.Rational) and terminates(exact) else "≈"
    return f"{ex.name} {sign} {ex.decimal_str}"


def decimal_first(ex: Explanation) -> HTMLPanel:
    """An explanation shown decimal first: its steps as decimals, the result as a decimal, the exact form on demand.

    An NDCG's exact value is a quotient of two sums of logarithms (117 characters for post 002's lipstick
    ranking A) and its table, exact cell by exact cell, is wider than a notebook page. This panel shows every
    cell as its decimal to :data:`CELL_PLACES` places (``≈`` when rounded) and the result line to six places,
    ``NDCG ≈ 0.925134``; in
    Jupyter the exact result lines (the value and its parts, such as DCG and IDCG) sit in a closed box to open
    on demand. The plain text leaves them out: ``ex.exact_str`` and ``ex.result_line()`` give them.

    Parameters
    ----------
    ex : Explanation
        What a metric returned.

    Returns
    -------
    HTMLPanel
        ``str()`` is the decimal table and result line; ``_repr_html_`` adds the formula and the exact box.

    Examples
    --------
    Post 000's 口红 query under the cascade model: R_2 = 3/8 = 0.375 exactly; ERR = 45295/49152 ≈ 0.921529.

    >>> import ltr_teach as lt
    >>> print(decimal_first(lt.err([3, 2, 3, 1], g_max=3)))
    ERR
    <BLANKLINE>
    rank  grade  R_i = (2^g-1)/2^gmax  P(reach i)  P(stop at i)  P(stop)/i  ERR so far
    ----  -----  --------------------  ----------  ------------  ---------  ----------
       1      3                 0.875           1         0.875      0.875       0.875
       2      2                 0.375       0.125      ≈ 0.0469   ≈ 0.0234    ≈ 0.8984
       3      3                 0.875    ≈ 0.0781      ≈ 0.0684   ≈ 0.0228    ≈ 0.9212
       4      1                 0.125    ≈ 0.0098      ≈ 0.0012   ≈ 0.0003    ≈ 0.9215
    <BLANKLINE>
    ERR ≈ 0.921529
    """
    if not isinstance(ex, Explanation):
        raise TypeError(f"ex must be an Explanation returned by an ltr_teach metric; got {type(ex).__name__}")
    headers = [translate(c.header) for c in ex.columns]
    rows = [[_decimal_cell(step.get(c.key)) for c in ex.columns] for step in ex.steps]
    notes = [_("note: {note}").format(note=translate(n)) for n in ex.notes]
    result = _decimal_result(ex)
    text = "\n".join([ex.name, "", *aligned_lines(headers, rows, left=0), "", *notes, result])
    esc = html.escape
    exact_lines = [f"{key}: {part.result_line()}" for key, part in ex.parts.items() if part.metric != ex.metric]
    exact_lines.append(ex.result_line())
    exact_box = "".join(f"<p style='margin:2px 0'><code style='white-space:normal;overflow-wrap:anywhere'>"
                        f"{esc(line)}</code></p>" for line in exact_lines)
    tex = formula_tex(ex.formula).replace("&", "&amp;").replace("<", "&lt;")
    formula = f"<p>$${tex}$$</p>" if ex.formula else ""
    exact_label = _("exact form")  # outside the f-string: Babel extracts no call inside one
    notes_html = "".join(f"<p style='margin:2px 0'><i>{esc(n)}</i></p>" for n in notes)
    markup = (f"<div class='ltr-teach-explanation'><b>{esc(ex.name)}</b>{formula}{html_table(headers, rows, left=0)}"
              f"{notes_html}<p style='font-size:110%'><b>{esc(result)}</b></p>"
              f"<details><summary>{esc(exact_label)}</summary>{exact_box}</details></div>")
    return HTMLPanel(markup, text)


def side_by_side(*labelled, columns=None) -> HTMLPanel:
    """Explanations' step tables next to each other, narrow enough to fit the page side by side.

    Parameters
    ----------
    *labelled : (str, Explanation)
        A heading and the explanation to show under it.
    columns : sequence of str, optional
        Keys of the step columns to show (``("rank", "doc", "grade", "gain", "contribution")``), in
        the explanations' own order; by default every column. Showing only the columns a comparison
        is about keeps two tables side by side on a page about 100 characters wide; the result line
        under each table still holds the whole value.

    Examples
    --------
    >>> import ltr_teach as lt
    >>> print(side_by_side(("grades 1, 0", lt.reciprocal_rank([1, 0])), ("grades 0, 1", lt.reciprocal_rank([0, 1]))))
    grades 1, 0: RR = 1
    grades 0, 1: RR = 1/2 = 0.5
    >>> panel = side_by_side(("1, 0", lt.dcg([1, 0])), ("0, 1", lt.dcg([0, 1])), columns=("rank", "gain"))
    >>> "discount" in panel.html, "gain" in panel.html
    (False, True)
    """
    if not labelled:
        raise ValueError("side_by_side needs at least one (label, explanation) pair")
    for i, pair in enumerate(labelled):
        if not isinstance(pair, (tuple, list)) or len(pair) != 2 or not hasattr(pair[1], "_repr_html_"):
            raise ValueError(f"labelled[{i}] must be a pair (label, explanation); got {pair!r}")
    if columns is not None:
        labelled = [(label, _only_columns(ex, columns, i)) for i, (label, ex) in enumerate(labelled)]
    boxes = "".join(
        "<div style='flex:1 1 0;min-width:min(100%,340px);overflow-x:auto;margin-right:16px;font-size:85%'>"
        f"<h4>{html.escape(label)}</h4>{_embedded_html(ex)}</div>" for label, ex in labelled)
    markup = f"<div class='ltr-side-by-side' style='display:flex;flex-wrap:wrap;align-items:flex-start'>{boxes}</div>"
    return HTMLPanel(markup, "\n".join(f"{label}: {ex.result_line()}" for label, ex in labelled))


def _only_columns(ex, columns, i):
    """``ex`` showing only the step columns whose keys are in ``columns`` (its value and steps unchanged)."""
    keys = [c.key for c in ex.columns]
    unknown = [key for key in columns if key not in keys]
    if unknown:
        raise ValueError(f"columns: {unknown[0]!r} is not a step column of labelled[{i}] ({ex.name}); its columns "
                         f"are {', '.join(keys)}")
    return dataclasses.replace(ex, columns=tuple(c for c in ex.columns if c.key in columns))


def _computed(call) -> tuple[str, str]:
    """The call as a student would type it and its exact value (only the decimal for long exact forms)."""
    ex = call()
    value = ex.result_line(terms=False) if len(ex.exact_str) <= 24 else f"{ex.name} ≈ {ex.decimal_str}"
    return str(call), value


def erratum_html(erratum) -> str:
    """One erratum as an HTML card: its kind, where, what the post says, the correct (or, for a
    convention, the usual) version, the library call with its computed value, why, and the verdict.

    Only a record of kind ``"error"`` shows the post's text in red and says the post is wrong;
    a convention, a term or a typo gets a neutral colour and its own verdict.

    Examples
    --------
    >>> markup = erratum_html("000-map-value")
    >>> "599/840" in markup and "lt.mean_average_precision" in markup and "the post is wrong" in markup
    True
    >>> "the post is wrong" in erratum_html("000-ndcg-log-base")   # a convention, not an error
    False
    """
    e = examples.by_id(erratum) if isinstance(erratum, str) else erratum
    esc = html.escape
    said = "#b00" if e.is_error else "#555"
    rows = [(_("kind"), esc(translate(e.kind))), (_("where"), esc(translate(e.where))),
            (_("post says"), f"<span style='color:{said}'>{esc(translate(e.printed))}</span>"),
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
        The post's number, ``"000"`` to ``"004"`` (the keys of ``lt.examples.POSTS``).

    Examples
    --------
    Post 002's lipstick example is computed right: its one record is a slip of a word.

    >>> print(errata_panel("002"))
    1 records in post 002 · Ranking算法评估指标:NDCG (1 typo)
      002-rank-for-evaluate (typo)
    """
    if document not in examples.POSTS:
        raise ValueError(f"document = {document!r} must be one of {', '.join(examples.POSTS)}")
    post = examples.POSTS[document]
    records = [e for e in examples.ERRATA if e.post == post]
    kinds = _(", ").join(_("{n} {kind}").format(n=n, kind=translate(kind)) for kind in examples.KINDS
                         if (n := sum(e.kind == kind for e in records)))
    heading = _("{n} records in {document}").format(n=len(records), document=_(post.label)) + (
        _(" ({kinds})").format(kinds=kinds) if kinds else "")
    markup = f"<p>{html.escape(heading)}</p>" + "".join(erratum_html(e) for e in records)
    return HTMLPanel(markup, "\n".join([heading] + [f"  {e.id} ({translate(e.kind)})" for e in records]))


def errata_cards(*ids: str) -> HTMLPanel:
    """Several errata as cards, in the order given: the records a notebook names and 09 shows together.

    Parameters
    ----------
    *ids : str
        Erratum ids (``lt.examples.ERRATA``), at least one, each once.

    Examples
    --------
    Post 000's MRR is a mean, not a sum; post 001 calls one query's 1/r "MRR".

    >>> print(errata_cards("000-mrr-sum", "001-mrr-single-query"))
    2 records
      000-mrr-sum (error)
      001-mrr-single-query (terminology)
    >>> errata_cards("000-mrr-sum", "000-no-such-record")
    Traceback (most recent call last):
    ...
    ValueError: ids[1] = '000-no-such-record' is not an erratum id (see lt.examples.ERRATA)
    """
    known = {e.id: e for e in examples.ERRATA}
    if not ids:
        raise ValueError("ids must name at least one erratum (see lt.examples.ERRATA)")
    for i, erratum_id in enumerate(ids):
        if erratum_id not in known:
            raise ValueError(f"ids[{i}] = {erratum_id!r} is not an erratum id (see lt.examples.ERRATA)")
        if erratum_id in ids[:i]:
            raise ValueError(f"ids[{i}] = {erratum_id!r} is named twice; name each erratum once")
    records = [known[i] for i in ids]
    heading = _("{n} records").format(n=len(records))
    markup = "".join(erratum_html(e) for e in records)
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
        settings = _("{description}. Ideal from the {ideal}, ties {ties}, differs from trec_eval by: {differs}.").format(
            description=translate(row["description"]), ideal=row["ideal"], ties=row["ties"], differs=row["differs"])
        verified = _("Verified against {version}.").format(version=translate(row["version"]))
        self.panel.value = (f"<p><b>{esc(row['name'])}</b>: {esc(settings)} <i>{esc(verified)}</i></p>"
                            + _embedded_html(row["explanation"]))

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


class SwapWeightsPanel(_ShowsWidget):
    """LambdaRank's swap weights of an editor's ranking, live: the ``|ΔNDCG|`` matrix above the editor.

    Every move or grade change in the editor redraws the matrix (:func:`~ltr_teach.metrics.pairs.swap_deltas`
    with the editor's ``k``, gain and discount).

    Examples
    --------
    >>> from ltr_teach.interactive.widgets import RankingEditor
    >>> panel = SwapWeightsPanel(RankingEditor(["a", "b", "c"], [0, 0, 3]))
    >>> panel.deltas.largest()                   # the 3 at rank 3 and the 0 at rank 1
    (1, 3)
    >>> panel.editor.move(2, 0)                  # the 3 to the top: now the ranking is ideal
    >>> panel.deltas.ndcg.exact
    1
    """

    def __init__(self, editor):
        if getattr(editor, "metric", None) != "ndcg":
            raise ValueError("editor must be a RankingEditor of metric 'ndcg' (swap weights are NDCG changes)")
        self.editor = editor
        self.panel = W.HTML()
        self.panel.add_class("ltr-swap-weights")
        editor.on_change(self._on_editor_change)
        self.widget = W.VBox([self.panel, editor.widget])
        self.refresh()

    def _on_editor_change(self, editor) -> None:
        self.refresh()

    @property
    def deltas(self):
        """The :class:`~ltr_teach.metrics.pairs.SwapDeltas` of the editor's current ranking."""
        options = {key: self.editor.options[key] for key in ("k", "gain", "discount") if key in self.editor.options}
        return swap_deltas(self.editor.grades, **options)

    def refresh(self) -> None:
        """Recompute the weights for the editor's grades and redraw the matrix."""
        try:
            self.panel.value = _embedded_html(self.deltas)
        except ValueError as error:  # every grade 0: no weights; say why instead of failing the editor
            self.panel.value = f"<p>{html.escape(str(error))}</p>"

    def __repr__(self) -> str:
        return f"<SwapWeightsPanel {list(self.editor.grades)}>"


#: The three judgments a document of :class:`JudgmentsPanel` can have, in the buttons' order.
JUDGMENTS = {N_("relevant"): 1, N_("not relevant"): 0, N_("unjudged"): None}


class JudgmentsPanel(_ShowsWidget):
    """A ranking whose documents are judged relevant, judged not relevant or not judged at all, and what
    three readings of it give: P@k with unjudged as not relevant (trec_eval's default), P@k judged-only
    (trec_eval -J: unjudged documents removed first), bpref and judged@k.

    Parameters
    ----------
    items : sequence of str
        Document names in ranked order.
    judgments : sequence of 1, 0 or None
        Each document's judgment (None = unjudged).
    k : int
        The cut-off of P@k and judged@k.

    Examples
    --------
    >>> panel = JudgmentsPanel(["d1", "d2", "d3", "d4"], [None, 1, 0, 1], k=2)
    >>> {name: ex.exact for name, ex in panel.values().items()}
    {'P@2': 1/2, 'P@2 (-J)': 1/2, 'bpref': 1/2, 'judged@2': 1/2}
    >>> panel.judge(0, "relevant")               # the unjudged d1 turns out relevant
    >>> panel.values()["P@2"].exact
    1
    """

    def __init__(self, items, judgments, k: int = 5):
        items, judgments = [str(x) for x in items], list(judgments)
        if len(items) != len(judgments) or not items:
            raise ValueError(f"items and judgments must be non-empty and of the same length; got {len(items)} items "
                             f"and {len(judgments)} judgments")
        allowed = list(JUDGMENTS.values())
        for i, j in enumerate(judgments):
            if j not in allowed or isinstance(j, bool):
                raise ValueError(f"judgments[{i}] = {j!r} must be 1 (relevant), 0 (not relevant) or None (unjudged)")
        self.items, self.k = items, k
        self.buttons = []
        for name, j in zip(items, judgments):
            key = next(key for key, value in JUDGMENTS.items() if value == j)
            button = W.ToggleButtons(options=[(_(key), key) for key in JUDGMENTS], value=key, description=name,
                                     style={"description_width": "initial", "button_width": "90px"})
            button.observe(self._on_change, names="value")
            self.buttons.append(button)
        self.panel = W.HTML()
        self.panel.add_class("ltr-judgments-panel")
        self.widget = W.VBox([*self.buttons, self.panel])
        self.refresh()

    def _on_change(self, change) -> None:
        self.refresh()

    @property
    def judgments(self) -> list:
        """Each document's judgment now: 1, 0 or None."""
        return [JUDGMENTS[b.value] for b in self.buttons]

    def judge(self, index: int, judgment: str) -> None:
        """Set document ``index`` (0-based) to ``"relevant"``, ``"not relevant"`` or ``"unjudged"``."""
        if judgment not in JUDGMENTS:
            raise ValueError(f"judgment = {judgment!r} must be one of {', '.join(map(repr, JUDGMENTS))}")
        self.buttons[index].value = judgment

    def values(self) -> dict:
        """``{label: Explanation}`` of the four readings of the current judgments."""
        judgments = self.judgments
        as_zero = [0 if j is None else j for j in judgments]
        judged_only = [j for j in judgments if j is not None]
        out = {f"P@{self.k}": precision_at_k(as_zero, self.k)}
        # trec_eval -J still divides by k; an empty judged list has precision 0
        out[f"P@{self.k} (-J)"] = precision_at_k(judged_only or [0], self.k)
        if any(j == 1 for j in judgments):
            out["bpref"] = bpref(judgments)
        out[f"judged@{self.k}"] = judged_at_k(judgments, self.k)
        return out

    def refresh(self) -> None:
        """Recompute the readings and redraw the table."""
        rows = "".join(f"<tr><td style='padding:2px 10px'><b>{html.escape(label)}</b></td>"
                       f"<td style='padding:2px 10px'>{html.escape(ex.result_line())}</td></tr>"
                       for label, ex in self.values().items())
        self.panel.value = f"<table>{rows}</table>"

    def __repr__(self) -> str:
        shown = ", ".join("-" if j is None else str(j) for j in self.judgments)
        return f"<JudgmentsPanel [{shown}]>"


class SampledRankPanel(_ShowsWidget):
    """Where one held-out item lands when it is ranked among sampled negatives instead of every item.

    Choose the item's rank among all ``n_items`` items and how many negatives are sampled; the panel shows
    HR@k and NDCG@k on the whole catalogue beside their exact expectations under sampling
    (:func:`~ltr_teach.metrics.sampled.sampled_metric`).

    Examples
    --------
    >>> panel = SampledRankPanel(n_items=1000, k=10)
    >>> panel.rank.value, panel.values()["HR@10"]            # starts at rank 1: a hit either way
    (1, ('1', '1'))
    >>> panel.rank.value = 20
    >>> panel.values()["HR@10"][0]                            # rank 20 of 1,000 misses the real top 10
    '0'
    """

    RANKS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000)
    NEGATIVES = (10, 50, 100, 500, 1000)

    def __init__(self, n_items: int = 10_000, k: int = 10):
        self.n_items, self.k = n_items, k
        ranks = [r for r in self.RANKS if r <= n_items]
        negatives = [n for n in self.NEGATIVES if n < n_items]
        self.rank = W.Dropdown(options=ranks, value=1, description=_("rank among all items"),
                               style={"description_width": "initial"})
        self.negatives = W.Dropdown(options=negatives, value=100 if 100 in negatives else negatives[0],
                                    description=_("sampled negatives"), style={"description_width": "initial"})
        self.panel = W.HTML()
        self.panel.add_class("ltr-sampled-rank")
        for control in (self.rank, self.negatives):
            control.observe(self._on_change, names="value")
        self.widget = W.VBox([W.HBox([self.rank, self.negatives]), self.panel])
        self.refresh()

    def _on_change(self, change) -> None:
        self.refresh()

    def values(self) -> dict:
        """``{metric: (on all items, expected when sampled)}`` as decimals, for the chosen rank."""
        out = {}
        for metric, name in (("hit_rate", "HR@{k}"), ("ndcg", "NDCG@{k}")):
            ex = sampled_metric([self.rank.value], self.n_items, self.negatives.value, k=self.k, metric=metric)
            out[name.format(k=self.k)] = (fmt_value(ex.params["full"]), ex.decimal_str)
        return out

    def refresh(self) -> None:
        """Recompute for the chosen rank and sample size."""
        head = (f"<tr><th></th><th style='padding:2px 10px'>{html.escape(_('on all items'))}</th>"
                f"<th style='padding:2px 10px'>{html.escape(_('sampled (expected)'))}</th></tr>")
        rows = "".join(f"<tr><td style='padding:2px 10px'><b>{html.escape(name)}</b></td>"
                       f"<td style='padding:2px 10px;text-align:right'>{full}</td>"
                       f"<td style='padding:2px 10px;text-align:right'>{sampled}</td></tr>"
                       for name, (full, sampled) in self.values().items())
        self.panel.value = f"<table>{head}{rows}</table>"

    def __repr__(self) -> str:
        return f"<SampledRankPanel rank {self.rank.value} of {self.n_items}, {self.negatives.value} sampled>"


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
           "decimal_first", "erratum_html", "errata_cards", "errata_panel", "side_by_side"]
