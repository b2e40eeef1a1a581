"""The kinds of exercise and how each is built: compute, choice (analyse, evaluate, spot, predict), create.

- **compute** (:class:`Exercise`, built with ``_e``): a number the library defines by one call;
- **choice** (:class:`ChoiceExercise`, built with :func:`choice`): options, the right one, a diagnosis per
  wrong option and an explanation (kinds ``analyse``, ``evaluate``, ``spot`` the error, ``predict``);
- **create** (:class:`CreateExercise`, built with :func:`create`): the student types a ranking (or a pair
  of rankings) and a verifier checks that it has the asked property.

Every exercise has a three-step hint ladder (:attr:`~Exercise.hints`): the concept, the procedure, the
first number; none gives the answer. The bank modules (``ltr_teach/teaching/bank/``) hold the
exercises; :mod:`.exercises` is the registry over them. This module imports nothing above the
teaching layer: the widget of :meth:`Exercise.widget` is made by a function the package's top level
hands over (:data:`ltr_teach.core.hooks.WIDGET_MAKER`), as ipywidgets belong to the interactive layer.

>>> ex = create("demo-sorted", family="dcg_ndcg", title="Sorted", question="Type 3 grades, best first.",
...             shape="ranking", verify=lambda r: None if list(r) == sorted(r, reverse=True) else "not sorted",
...             example=[2, 1, 0], hints=("a", "b", "c"))
>>> ex.kind, ex.verify(ex.example)
('create', None)
"""

from __future__ import annotations

import dataclasses
import html
import inspect
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import ClassVar

import sympy

from ..core import hooks
from ..core.deferred import ComputedField, Deferred
from ..core.exact import fmt_cell
from ..core.explanation import Explanation
from ..core.i18n import N_, Message, _, get_language, translate, using_language
from ..metrics.registry import METRICS
from .hints import GENERIC_HINTS

#: Every kind of exercise; the choice kinds share one form (:func:`choice`; a derivation, :func:`derive`, ends in
#: a choice too). A written answer (:func:`written`) is marked by the teacher, never by the checker.
KINDS = ("compute", "analyse", "evaluate", "spot", "predict", "derive", "create", "written")
CHOICE_KINDS = ("analyse", "evaluate", "spot", "predict", "derive")
#: The difficulty labels (1 to 3) every exercise carries: :attr:`Exercise.level`.
LEVELS = {1: N_("basic"), 2: N_("intermediate"), 3: N_("challenge")}
#: An exercise's level when its bank entry names none: a computation is basic, a question about a metric's
#: behaviour intermediate, a derivation a challenge.
DEFAULT_LEVELS = {"compute": 1, "analyse": 2, "evaluate": 2, "spot": 2, "predict": 2, "derive": 3, "create": 2,
                  "written": 2}
#: What a create exercise's answer is: one list of grades, or two lists (ranking A, ranking B).
SHAPES = ("ranking", "pair")

#: Step 1 of a compute exercise's hint ladder: what the metric measures and why (one per metric).
CONCEPTS = {
    "cg": N_("CG, cumulative gain, adds how useful the top results are and ignores their order."),
    "dcg": N_("DCG assumes the user reads from the top and cares less about each lower rank: every item's gain is "
              "divided by a discount that grows with its rank."),
    "idcg": N_("IDCG is the best DCG any order of the judged items can reach: the yardstick NDCG divides by."),
    "ndcg": N_("NDCG divides a ranking's DCG by the best DCG possible for the same query, so every query scores "
               "between 0 and 1."),
    "err": N_("ERR follows a user who stops at the first result that satisfies them (the cascade model): a "
              "result counts only if the user is still reading when they reach it."),
    "reciprocal_rank": N_("The reciprocal rank looks only at the first relevant result: the further down it is, "
                          "the less the ranking is worth."),
    "mrr": N_("MRR averages, over queries, how early each query's first relevant result comes."),
    "precision_at_k": N_("Precision asks: of the results the user sees (the top k), how many are relevant?"),
    "recall_at_k": N_("Recall asks: of all the relevant documents there are, how many reached the top k?"),
    "f_beta": N_("F combines precision and recall in one number (a weighted harmonic mean): it is high only when "
                 "both are."),
    "average_precision": N_("AP looks at the precision where each relevant document appears, and counts a relevant "
                            "document never retrieved as precision 0."),
    "mean_average_precision": N_("MAP is the average of the queries' APs: every query counts the same."),
    "interpolated_precision": N_("Interpolated precision at a recall level is the best precision the user can get "
                                 "by reading at least that far."),
    "eleven_point_ap": N_("The 11-point AP samples the interpolated precision-recall curve at eleven recall levels "
                          "and averages them."),
    "r_precision": N_("R-precision is the precision at rank R, R being the number of relevant documents: there, "
                      "precision and recall are equal."),
    "success_at_k": N_("Success@k asks only whether the user finds at least one relevant result in the top k."),
    "bpref": N_("bpref uses only judged documents: it asks how often a relevant document is ranked above the judged "
                "non-relevant ones, so unjudged documents change nothing."),
    "judged_at_k": N_("judged@k measures how much of the top k has a judgment at all: how far a score built on the "
                      "judgments can be trusted."),
    "cohen_kappa": N_("Cohen's kappa measures how much two assessors agree beyond the agreement chance alone would "
                      "give: 1 is perfect agreement, 0 no better than chance."),
    "rbp": N_("RBP follows a user who reads rank 1 and goes on to each next rank with probability p (the "
              "persistence), and counts the relevant results they see."),
    "rbp_residual": N_("The RBP residual is the most RBP could still grow if every unjudged document, in the list or "
                       "below it, turned out relevant."),
    "roc_curve": N_("The area under the ROC curve is the probability that a random positive is scored above a "
                    "random negative (a tie counts half)."),
    "pr_curve": N_("AP, the area under the precision–recall curve, follows the threshold down the scores and "
                   "collects, at each positive, the share of positives it adds times the precision there."),
    "auc": N_("AUC is the probability that a random positive is scored above a random negative (a tie counts half)."),
    "gauc": N_("GAUC computes an AUC within each user (only the ads one user saw are ranked against each other) and "
               "averages them, weighted by each user's impressions; a user with one class only has no AUC."),
    "log_loss": N_("Log loss charges −ln of the probability the model gave to what happened: it judges the "
                   "probabilities themselves, not only their order."),
}


#: Step 3 of a compute exercise's hint ladder, after its first numbers: the step students of this metric most
#: often get wrong (never the answer's crux: the checker names the same slips when an answer makes them).
PITFALLS = {
    "cg": N_("Check: CG adds the grades of the top k only, whatever their order."),
    "dcg": N_("Check: use the gain and the discount the question names; with log2(i + 1), rank 2 is divided by "
              "log2 3, not by log2 2."),
    "idcg": N_("Check: sort the judged grades from best to worst before you discount them; the returned order is "
               "not the ideal one."),
    "ndcg": N_("Check: the ideal ranking sorts the judged grades from best to worst and is cut at the same k as "
               "the ranking."),
    "err": N_("Check: a lower rank counts only for the users still reading, so multiply by (1 − R) of every rank "
              "above it, not by R."),
    "reciprocal_rank": N_("Check: only the first relevant result counts; the later ones change nothing."),
    "mrr": N_("Check: a query without a relevant result adds 0 to the sum and still counts in the number of "
              "queries you divide by."),
    "precision_at_k": N_("Check: divide the hits by k, even where the list is shorter than k, and not by the "
                         "number of relevant documents."),
    "recall_at_k": N_("Check: divide by every relevant document of the collection, including those the list never "
                      "retrieved."),
    "f_beta": N_("Check: F is a harmonic mean, (1 + β²)·P·R / (β²·P + R): a product over a weighted sum, not the "
                 "plain average of P and R."),
    "average_precision": N_("Check: add the precision at the relevant ranks only, and divide by all the relevant "
                            "documents, not by those retrieved."),
    "mean_average_precision": N_("Check: compute each query's AP on its own first, then average the APs; do not "
                                 "pool the queries' hits."),
    "interpolated_precision": N_("Check: interpolated precision looks at this rank and every rank below it, and "
                                 "takes the best precision there."),
    "eleven_point_ap": N_("Check: at each of the eleven recall levels take the best precision at that recall or "
                          "beyond; recall 0 counts too."),
    "r_precision": N_("Check: R is the number of relevant documents in the collection, not the length of the list."),
    "success_at_k": N_("Check: the answer is 1 or 0; the number of hits in the top k does not matter."),
    "bpref": N_("Check: skip the unjudged documents altogether; only judged non-relevant ones above a relevant one "
                "count against it."),
    "judged_at_k": N_("Check: a grade of 0 is a judgment; only the unjudged ranks are missing."),
    "cohen_kappa": N_("Check: P(E) adds, for each category, the product of the two judges' own shares of it; "
                      "the question says whether to pool the judges' shares instead."),
    "rbp": N_("Check: multiply the sum by (1 − p); rank i has weight p^(i − 1), so rank 1 has weight 1 before it."),
    "rbp_residual": N_("Check: only the ranks below the list can still add to RBP; add their weights "
                       "(1 − p)·p^(i − 1) as a geometric series, and leave the list's own ranks out."),
    "roc_curve": N_("Check: a tie between a positive and a negative is a diagonal step of the curve: it counts half."),
    "pr_curve": N_("Check: at each positive, multiply the rise in recall (1/number of positives) by the precision "
                   "there."),
    "auc": N_("Check: count the positive–negative pairs only; a tie counts 1/2, and pairs of the same class are "
              "not pairs at all."),
    "gauc": N_("Check: leave out a user who has only clicks or only non-clicks, before you weight and divide."),
    "log_loss": N_("Check: use the natural log, and −ln(1 − p) for an impression that was not clicked."),
}


def _freeze(value):
    """Read-only data: tuples for lists, read-only mappings for dicts, so no caller can change an exercise."""
    if isinstance(value, Mapping):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


def _thaw(value):
    """Plain lists and dicts again, for the library call."""
    if isinstance(value, Mapping):
        return {k: _thaw(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    return value


def _show(value) -> str:
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k!r}: {_show(v)}" for k, v in value.items()) + "}"
    if isinstance(value, Fraction):
        return f"Fraction({value.numerator}, {value.denominator})"
    return repr(value)


_FIRST_ARGUMENT = ("grades", "rels", "judgments", "list_of_rels", "labels")


# -- the prompt as formatted text --------------------------------------------------------------------------
_INLINE = [
    (re.compile(r"\*\*(.+?)\*\*"), r"<b>\1</b>"),
    (re.compile(r"(?<![*\w])\*(?!\s)(.+?)(?<!\s)\*(?!\w)"), r"<i>\1</i>"),
    (re.compile(r"`([^`]+)`"), r"<code>\1</code>"),
]


def markdown_html(text: str) -> str:
    """A prompt's Markdown as HTML: paragraphs, ``- `` lists, ``1. `` steps, pipe tables, **bold**, *italic*, ```code```;
    LaTeX kept.

    Only these few forms are read (the prompts use no others); everything else is escaped, so a
    prompt never injects markup. Inline code wraps like text (no long monospace line).

    Examples
    --------
    >>> markdown_html("Rank **1** holds `3`.\\n\\n- a\\n- b")
    '<p>Rank <b>1</b> holds <code>3</code>.</p><ul><li>a</li><li>b</li></ul>'

    A table: a header row, the ``|---|`` rule, then the rows (two result pages side by side):

    Numbered steps (a derivation's), one paragraph each, their numbers kept as text:

    >>> markdown_html("1. Write P@k.\\n2. Divide.")
    "<p class='ltr-teach-step'>1. Write P@k.</p><p class='ltr-teach-step'>2. Divide.</p>"

    >>> markdown_html("| rank | A |\\n|---|---|\\n| 1 | x ✓ |")
    '<table><tr><th>rank</th><th>A</th></tr><tr><td>1</td><td>x ✓</td></tr></table>'
    """
    blocks, out = re.split(r"\n\s*\n", text.strip()), []
    for block in blocks:
        lines = [line.strip() for line in block.splitlines() if line.strip()]
        if len(lines) >= 2 and all(line.startswith("|") and line.endswith("|") for line in lines) \
                and re.fullmatch(r"\|(\s*:?-+:?\s*\|)+", lines[1]):
            rows = [[cell.strip() for cell in line[1:-1].split("|")] for line in lines[:1] + lines[2:]]
            cells = [("th" if n == 0 else "td", row) for n, row in enumerate(rows)]
            out.append("<table>" + "".join("<tr>" + "".join(f"<{tag}>{inline_html(cell)}</{tag}>" for cell in row)
                                           + "</tr>" for tag, row in cells) + "</table>")
        elif lines and all(line.startswith(("- ", "* ")) for line in lines):
            out.append("<ul>" + "".join(f"<li>{inline_html(line[2:])}</li>" for line in lines) + "</ul>")
        elif lines and all(re.match(r"\d+\. ", line) for line in lines):  # a derivation's numbered steps
            out.append("".join(f"<p class='ltr-teach-step'>{inline_html(line)}</p>" for line in lines))
        elif lines:
            out.append(f"<p>{inline_html(' '.join(lines))}</p>")
    return "".join(out)


def inline_html(text: str) -> str:
    """One line of a prompt's Markdown (**bold**, *italic*, ```code```) as HTML, everything else escaped.

    >>> inline_html("**P@3** < 1")
    '<b>P@3</b> &lt; 1'
    """
    text = html.escape(text, quote=False)
    for pattern, replacement in _INLINE:
        text = pattern.sub(replacement, text)
    return text


# -- what every kind shares --------------------------------------------------------------------------------
class _Asked:
    """The behaviour every kind shares: its label, its hint ladder's box, its widget and how Jupyter shows it."""

    kind: ClassVar[str]

    @property
    def level(self) -> int:
        """The difficulty, 1 (basic), 2 (intermediate) or 3 (challenge): the bank's, else the kind's default."""
        return self.difficulty or DEFAULT_LEVELS[self.kind]

    @property
    def level_text(self) -> str:
        """The difficulty as a label in the current language: ``level 2 · intermediate`` (``难度 2 · 进阶``)."""
        return _("level {n} · {name}").format(n=self.level, name=translate(LEVELS[self.level]))

    @property
    def label(self) -> str:
        """The id, with the seed for a variant (``ndcg-lipstick (seed 3)``)."""
        return self.id if self.seed is None else f"{self.id} (seed {self.seed})"

    def __repr__(self) -> str:
        # a saved notebook keeps the text/plain form of a shown exercise: short, and never the answer (a
        # dataclass repr would list the right option, the diagnoses and the example)
        kind = "" if self.kind == "compute" else f" ({self.kind})"
        return f"<exercise {self.label}{kind}: print() it, or see it formatted in Jupyter>"

    def __str__(self) -> str:
        options = "".join(f"\n  - {key}: {text}" for key, text in self._option_lines())
        return f"[{self.label}] {self.prompt}{options}"

    def _option_lines(self) -> list:
        """A choice exercise's ``(key, text)`` options, in order, none marked right; empty for the other kinds."""
        return [(key, self.option_text(key)) for key in self.options] if self.kind in CHOICE_KINDS else []

    def hint_box(self) -> HintBox:
        """The hint ladder folded away: in Jupyter a closed "Hint" box, each step opened in turn."""
        return HintBox(self.label, self.hints, self.kind)

    def widget(self):
        """The exercise as a widget (see ``lt.ask``): prompt, input or options, Check, Hint, Show answer."""
        if hooks.WIDGET_MAKER is None:  # set when the package ltr_teach is imported, which importing this module does
            raise RuntimeError("the widget maker is not installed: import ltr_teach first")
        return hooks.WIDGET_MAKER(self)

    def _repr_markdown_(self) -> str:
        options = "".join(f"\n- `{key}`: {text}" for key, text in self._option_lines())
        return f"**{self.label}** · {self.title} · {self.level_text}\n\n{self.prompt}" + (f"\n{options}" if options else "")

    def _repr_html_(self) -> str:
        title = f"<b>{html.escape(self.label)}</b> · {html.escape(self.title)} · {html.escape(self.level_text)}"
        options = "".join(f"<li><code>{html.escape(key)}</code>: {inline_html(text)}</li>" for key, text in self._option_lines())
        options = f"<ul>{options}</ul>" if options else ""
        return f"<div class='ltr-teach-exercise'><div>{title}</div>{markdown_html(self.prompt)}{options}</div>"


def ladder_steps(kind: str) -> tuple:
    """What the three hints of an exercise of this kind are (message ids): the idea, how to do it, then the
    first number of the computation (a compute exercise) or a first step (a choice or a ranking to build)."""
    return N_("the idea"), N_("how to do it"), N_("the first number") if kind == "compute" else N_("a first step")


@dataclass(frozen=True)
class HintBox:
    """An exercise's hint ladder, closed until clicked in Jupyter; ``str()`` gives the steps as text.

    Each step is its own closed box, so a student opens the concept first, then the procedure, then
    the first number.
    """

    label: str
    hints: tuple
    kind: str = "compute"

    def __str__(self) -> str:
        return "\n".join(_("hint {n}: {hint}").format(n=n, hint=translate(h)) for n, h in enumerate(self.hints, 1))

    def __repr__(self) -> str:
        return _("<{n} hint(s) for {label}: print() them or open the box in Jupyter>").format(n=len(self.hints),
                                                                                           label=self.label)

    def _repr_html_(self) -> str:
        steps = ladder_steps(self.kind)
        inner = ""
        for n, hint in reversed(list(enumerate(self.hints, start=1))):
            what = translate(steps[n - 1]) if n <= len(steps) else ""
            summary = _("Hint {n} of {total}: {what}").format(n=n, total=len(self.hints), what=what)
            inner = (f"<details class='ltr-teach-hint-step'><summary>{html.escape(summary)}</summary>"
                     f"<p>{inline_html(translate(hint))}</p>{inner}</details>")
        summary = _("Hint for {label}: click to open").format(label=html.escape(self.label))
        return f"<details class='ltr-teach-hint'><summary>{summary}</summary>{inner}</details>"


# -- compute -----------------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False, repr=False)
class Exercise(_Asked):
    """A compute exercise: the data, the metric call that defines the answer, and how to ask it.

    Attributes
    ----------
    id : str
        Registry id (``"ndcg-lipstick"``).
    family : str
        One of ``lt.exercises.FAMILIES``.
    metric : str
        Registry name of the metric (``lt.METRICS``).
    data : mapping
        The call's arguments (keyword names of the metric function) and extra facts the prompt
        states (``total_relevant`` for a precision exercise, whose call does not need it).
    procedure : tuple of str
        The exercise's own hints (message ids): step 2 of its hint ladder.
    seed : int or None
        ``None`` for the exercise as registered; the student's seed for a variant.
    point : callable or None
        What makes the exercise worth doing, as a test of its data (a query without a hit, a relevant
        document never retrieved ...): every variant keeps it.
    """

    kind: ClassVar[str] = "compute"

    id: str
    family: str
    metric: str
    data: Mapping
    task: Callable = field(repr=False)
    procedure: tuple = ()
    #: The English intro; one that quotes a post (``worked``, ``erratum``) is computed when first read.
    intro: str = ComputedField(default="")
    source: str = "new"
    randomize: Callable | None = field(default=None, repr=False)
    seed: int | None = None
    point: Callable | None = field(default=None, repr=False)
    #: The intro's parts, kept apart so the prompt translates them when shown: the story (a message id)
    #: and the worked example of ``lt.examples`` whose printed number the intro quotes.
    story: str = field(default="", repr=False)
    worked: str | None = field(default=None, repr=False)
    #: The ``lt.examples`` erratum of the post's formula the intro quotes: the prompt says whether it
    #: is wrong (an error) or a convention, so a student never copies a wrong formula unwarned.
    erratum: str | None = field(default=None, repr=False)
    #: 1 (basic), 2 (intermediate) or 3 (challenge); ``None``: the kind's default (see :attr:`level`).
    difficulty: int | None = None

    @property
    def about(self) -> tuple:
        """The metrics the exercise is about: its one metric."""
        return (self.metric,)

    @property
    def title(self) -> str:
        """The metric's name in the current language."""
        return METRICS[self.metric].local_title

    @property
    def prompt(self) -> str:
        """The question; a variant drops the post's story, whose numbers it no longer uses."""
        text = self.task(self.data)
        if self.seed is None and self.intro:
            parts = (translate(self.story).format() if self.story else "", _document_says(self.worked) if self.worked else "",
                     _erratum_says(self.erratum) if self.erratum else "")
            intro = " ".join(part for part in parts if part) if (self.story or self.worked) else self.intro
            text = _("{intro} {task}").format(intro=intro, task=text)
        return _after_full_stop.sub("", text)  # a Chinese sentence ends in 。：no space follows it

    def __post_init__(self):
        object.__setattr__(self, "data", _freeze(self.data))

    def kwargs(self) -> dict:
        """The metric call's arguments, by keyword (fresh lists and dicts: the exercise stays as it is)."""
        names = inspect.signature(METRICS[self.metric].func).parameters
        return {k: _thaw(v) for k, v in self.data.items() if k in names}

    @property
    def call(self) -> str:
        """The library call that defines the answer, as text."""
        kwargs = self.kwargs()
        first = [kwargs.pop(name) for name in _FIRST_ARGUMENT if name in kwargs]
        if "scores" in kwargs:
            first.append(kwargs.pop("scores"))
        pieces = [_show(v) for v in first] + [f"{k}={_show(v)}" for k, v in kwargs.items()]
        return f"lt.{self.metric}({', '.join(pieces)})"

    def explanation(self) -> Explanation:
        """The worked solution: the library's explanation of the defining call."""
        return METRICS[self.metric].func(**self.kwargs())

    @property
    def answer(self):
        """The exact answer (SymPy)."""
        return self.explanation().exact

    @property
    def context(self) -> dict:
        """Facts for the checker's diagnosis that the explanation cannot show (whole lists, totals)."""
        ctx = _thaw(self.data)
        if "total_relevant" in ctx:
            ctx["n_relevant"] = ctx["total_relevant"]
        return ctx

    @property
    def hints(self) -> tuple:
        """The hint ladder: the metric's concept, the exercise's procedure, the worked table's first step.

        Steps 1 and 2 are message ids (translated when shown); step 3 is computed by the library in the
        current language, and never shows a number equal to the answer.
        """
        procedure = self.procedure[0] if len(self.procedure) == 1 else \
            " ".join(translate(h) for h in self.procedure) or GENERIC_HINTS[self.metric]
        return CONCEPTS[self.metric], procedure, _("{first_step} {pitfall}").format(
            first_step=first_step(self.explanation()), pitfall=translate(PITFALLS[self.metric]))


#: The space a joined English-style intro leaves after a full-width stop (。！？；：) in a Chinese prompt.
_after_full_stop = re.compile(r"(?<=[。！？；：])[ \t]+")


def first_step(ex: Explanation) -> str:
    """The first row of an explanation's table as a sentence, leaving out any cell equal to the answer.

    Examples
    --------
    >>> import ltr_teach as lt
    >>> print(first_step(lt.dcg([3, 2, 3, 0, 1, 2, 2], k=7)))
    First step, at rank 1: grade = 3, gain = 7, discount = 1, gain/discount = 7, DCG so far = 7.
    """
    answer = ex.exact
    label, shown = "", []
    for n, column in enumerate(ex.columns):
        row = ex.steps[0] if ex.steps else {}
        cell = row.get(column.key)
        if cell is None or cell == "":
            continue
        value = translate(cell) if isinstance(cell, Message) else fmt_cell(cell)  # a word cell: in the language
        if n == 0:  # the row's label (rank 1, query q1) names the step
            label = f"{translate(column.header)} {value}"
            continue
        if _same_number(cell, answer):
            continue  # a value equal to the answer never shows
        shown.append(_("{name} = {value}").format(name=translate(column.header), value=value))
    if not shown:
        return _("Start with rank 1 of the list, as the worked table does.")
    if not label:
        return _("First step: {cells}.").format(cells=_(", ").join(shown))
    return _("First step, at {label}: {cells}.").format(label=label, cells=_(", ").join(shown))


def _same_number(cell, answer) -> bool:
    try:
        return bool(sympy.simplify(sympy.sympify(cell) - answer) == 0)
    except (sympy.SympifyError, TypeError, ValueError, AttributeError):
        return False


def _document_says(worked_id: str) -> str:
    """What a post prints for one of its worked examples, from ``lt.examples`` (never retyped)."""
    from . import examples  # imported when a prompt is shown: checking an answer needs no post (issue 21)

    w = examples.by_id(worked_id)
    verdict = "" if w.matches else _(" What is right?")
    return _("Post {document} prints {quantity} = {printed} for {title}.{verdict}").format(
        document=w.id[:3], quantity=w.quantity, printed=w.printed, title=translate(w.title), verdict=verdict)


def _erratum_says(erratum_id: str) -> str:
    """Whether the post's formula quoted by an intro is wrong or a convention, from ``lt.examples``."""
    from . import examples

    record = examples.by_id(erratum_id)
    if record.kind == "error":
        return _("The post is wrong here (erratum {id}): compute the right value.").format(id=record.id)
    return _("Not an error but a convention (note {id}): use the convention the question names.").format(
        id=record.id)


def _e(id, family, metric, data, task, hints=(), intro="", source="new", randomize=None, worked=None,
       point=None, erratum=None, level=None) -> Exercise:
    """A compute exercise (the bank modules' short form); ``hints`` are its own: step 2 of the ladder.

    ``erratum`` names the ``lt.examples`` record of a document's formula the intro quotes."""
    story = intro  # a message id: a literal brace is doubled, as in every message (the prompt formats it)
    intro = Deferred(_english_intro, story, worked, erratum) if worked or erratum else story.format()
    exercise = Exercise(id=id, family=family, metric=metric, data=data, task=task, procedure=tuple(hints),
                        intro=intro, source=source, randomize=randomize, point=point, story=story, worked=worked,
                        erratum=erratum, difficulty=_check_level(id, level))
    if point is not None and not point(_thaw(exercise.data)):
        raise RuntimeError(f"exercise {id!r} does not have the point its variants keep")
    return exercise


def _english_intro(story: str, worked: str | None, erratum: str | None) -> str:
    """The intro field: the English story and what ``lt.examples`` says of the post it quotes (computed when
    first read: building a bank module then computes none of the documents' numbers)."""
    intro = story.format()
    with using_language("en"):  # the intro field is the English text; the prompt translates its parts
        if worked:
            intro = f"{intro} {_document_says(worked)}".strip()
        if erratum:
            intro = f"{intro} {_erratum_says(erratum)}".strip()
    return intro


# -- choice and create -------------------------------------------------------------------------------------
def _filled(message: str, facts: Callable | None) -> str:
    """A message id translated, its ``{placeholders}`` filled from the facts (the library's numbers)."""
    text = translate(message)
    return text.format(**_facts_now(facts)) if facts is not None else text.format()


#: ``facts()`` per facts function and language (the oldest dropped first beyond 64): an exercise's question, options,
#: diagnoses and explanation all fill from the same facts, and some take the library tens of milliseconds
#: (a paired comparison of runs), so checking a choice computes them once per language, not once per text.
_FACTS: dict = {}
_FACTS_KEPT = 64


def _facts_now(facts: Callable) -> dict:
    key = (facts, get_language())
    if key not in _FACTS:
        if len(_FACTS) >= _FACTS_KEPT:
            del _FACTS[next(iter(_FACTS))]
        _FACTS[key] = dict(facts())
    return _FACTS[key]


@dataclass(frozen=True, eq=False, repr=False)
class ChoiceExercise(_Asked):
    """A multiple-choice exercise (analyse, evaluate, spot the error, predict); see :func:`choice`."""

    id: str
    family: str
    kind: str
    title_id: str
    question: str
    options: Mapping
    correct: str
    why: Mapping
    explanation_id: str
    hint_ids: tuple
    facts: Callable | None = field(default=None, repr=False)
    source: str = "new"
    randomize: Callable | None = field(default=None, repr=False)
    seed: int | None = None
    difficulty: int | None = None
    #: The metrics (``lt.METRICS`` names) the question is about: a sheet asks one after at most two
    #: computations of each.
    about: tuple = ()

    @property
    def title(self) -> str:
        return translate(self.title_id)

    @property
    def prompt(self) -> str:
        """The question with the library's numbers filled in (no option is marked right)."""
        return _filled(self.question, self.facts)

    def option_text(self, key: str) -> str:
        """An option's text in the current language."""
        return _filled(self.options[key], self.facts)

    def why_text(self, key: str) -> str:
        """The diagnosis of a wrong option in the current language, its placeholders filled from the facts."""
        return _filled(self.why[key], self.facts)

    @property
    def answer(self) -> str:
        """The right option's key."""
        return self.correct

    @property
    def explanation(self) -> str:
        """Why the right option is right (shown after a right answer or a reveal)."""
        return _filled(self.explanation_id, self.facts)

    @property
    def hints(self) -> tuple:
        return self.hint_ids


@dataclass(frozen=True, eq=False, repr=False)
class CreateExercise(_Asked):
    """The student builds a ranking with a property; :attr:`verify` checks it. See :func:`create`."""

    kind: ClassVar[str] = "create"

    id: str
    family: str
    title_id: str
    question: str
    shape: str
    verify: Callable = field(repr=False)
    example: tuple = field(repr=False)
    hint_ids: tuple = ()
    explanation_id: str = ""
    facts: Callable | None = field(default=None, repr=False)
    source: str = "new"
    randomize: Callable | None = field(default=None, repr=False)
    seed: int | None = None
    difficulty: int | None = None
    about: tuple = ()

    @property
    def title(self) -> str:
        return translate(self.title_id)

    @property
    def prompt(self) -> str:
        return _filled(self.question, self.facts)

    @property
    def answer(self) -> str:
        """One valid answer, as the student would type it (the example; other answers are right too)."""
        return example_text(self.example, self.shape)

    @property
    def explanation(self) -> str:
        return _filled(self.explanation_id, self.facts) if self.explanation_id else ""

    @property
    def hints(self) -> tuple:
        return self.hint_ids


def rubric_lines(rubric_ids) -> tuple:
    """A rubric's criteria in the current language: ``((points, text), ...)``."""
    return tuple((points, translate(text)) for points, text in rubric_ids)


def rubric_text(rubric_ids) -> str:
    """A rubric on one line, for the key and the grader: ``[2] …; [1] …`` (the points in brackets)."""
    return "; ".join(f"[{points}] {text}" for points, text in rubric_lines(rubric_ids))


def _check_rubric(id, rubric) -> tuple:
    """A rubric as ``((points, message id), ...)``: at least two criteria, each worth a whole number of points."""
    rubric = tuple(tuple(item) for item in rubric)
    if len(rubric) < 2 or not all(len(item) == 2 and isinstance(item[0], int) and not isinstance(item[0], bool)
                                  and item[0] >= 1 and isinstance(item[1], str) and item[1].strip()
                                  for item in rubric):
        raise ValueError(f"{id}: rubric must be at least 2 (points, N_(criterion)) pairs with points >= 1; got "
                         f"{rubric!r}")
    return rubric


@dataclass(frozen=True, eq=False, repr=False)
class DeriveExercise(ChoiceExercise):
    """A short derivation (in the style of Manning, Raghavan & Schütze, ch. 8): the claim, the steps the
    student completes on paper, and a choice that only a finished derivation answers; the model derivation
    is the teacher's (the key, the grader's report, a reveal). See :func:`derive`."""

    steps: tuple = ()
    model_id: str = ""
    #: What the teacher gives points for when marking the written derivation: ``((points, message id), ...)``.
    rubric_ids: tuple = ()

    @property
    def rubric(self) -> tuple:
        """The marking criteria in the current language: ``((points, text), ...)``."""
        return rubric_lines(self.rubric_ids)

    @property
    def prompt(self) -> str:
        steps = "\n".join(f"{n}. {_filled(step, self.facts)}" for n, step in enumerate(self.steps, start=1))
        return _("{claim}\n\nDerive it on paper, step by step:\n\n{steps}\n\n{question}").format(
            claim=_filled(self.question, self.facts), steps=steps, question=_filled(self.ask_id, self.facts))

    ask_id: str = ""

    @property
    def model(self) -> str:
        """The model derivation, for the teacher."""
        return _filled(self.model_id, self.facts)


@dataclass(frozen=True, eq=False, repr=False)
class WrittenExercise(_Asked):
    """A short written answer: the teacher marks it against the model answer; no checker grades it.
    See :func:`written`."""

    kind: ClassVar[str] = "written"

    id: str
    family: str
    title_id: str
    question: str
    model_id: str
    hint_ids: tuple = ()
    facts: Callable | None = field(default=None, repr=False)
    source: str = "new"
    randomize: Callable | None = field(default=None, repr=False)
    seed: int | None = None
    difficulty: int | None = None
    about: tuple = ()
    #: What the teacher gives points for: ``((points, message id), ...)``; the grader shows it beside the model.
    rubric_ids: tuple = ()

    @property
    def rubric(self) -> tuple:
        """The marking criteria in the current language: ``((points, text), ...)``."""
        return rubric_lines(self.rubric_ids)

    @property
    def title(self) -> str:
        return translate(self.title_id)

    @property
    def prompt(self) -> str:
        return _filled(self.question, self.facts)

    @property
    def model(self) -> str:
        """The model answer, for the teacher (and for a student who asks to see it)."""
        return _filled(self.model_id, self.facts)

    @property
    def answer(self) -> str:
        """The model answer: what the teacher marks against (other wordings are right too)."""
        return self.model

    @property
    def explanation(self) -> str:
        return ""

    @property
    def hints(self) -> tuple:
        return self.hint_ids


def example_text(value, shape: str) -> str:
    """A ranking (or pair) as the student types it: ``[3, 0, 2]`` or ``[1, 0, 1] [0, 1, 1]``."""
    lists = value if shape == "pair" else [value]
    return " ".join("[" + ", ".join(str(v) for v in one) + "]" for one in lists)


def _check_level(id, level):
    if level is not None and (isinstance(level, bool) or level not in LEVELS):
        raise ValueError(f"{id}: level = {level!r} must be one of {', '.join(map(str, LEVELS))} (basic, "
                         "intermediate, challenge) or None for the kind's default")
    return level


def _check_about(id, about):
    about = tuple(about)
    unknown = [m for m in about if m not in METRICS]
    if unknown:
        raise ValueError(f"{id}: about = {unknown!r} are not metrics of lt.METRICS")
    return about


def _check_common(id, family, title, question, hints):
    if not isinstance(id, str) or not re.fullmatch(r"[a-z0-9][a-z0-9-]*", id):
        raise ValueError(f"id = {id!r} must be lower-case letters, digits and hyphens")
    for name, value in (("family", family), ("title", title), ("question", question)):
        if not isinstance(value, str) or not value.strip():
            raise ValueError(f"{id}: {name} = {value!r} must be a non-empty message (N_(...))")
    if len(tuple(hints)) != 3 or not all(isinstance(h, str) and h.strip() for h in hints):
        raise ValueError(f"{id}: hints must be 3 messages (concept, procedure, first number), got {hints!r}")


def _check_options(id, options, correct, why, explanation):
    options = dict(options)
    if len(options) < 2 or not all(isinstance(k, str) and re.fullmatch(r"[A-Za-z0-9_-]+", k) for k in options):
        raise ValueError(f"{id}: options need at least 2 keys made of letters, digits, _ and -, got {list(options)}")
    if len({k.lower() for k in options}) != len(options):
        raise ValueError(f"{id}: option keys {list(options)} differ only in case")
    if correct not in options:
        raise ValueError(f"{id}: correct = {correct!r} is not an option ({', '.join(options)})")
    wrong = set(options) - {correct}
    if set(why) != wrong:
        raise ValueError(f"{id}: why must diagnose exactly the wrong options {sorted(wrong)}, got {sorted(why)}")
    if not isinstance(explanation, str) or not explanation.strip():
        raise ValueError(f"{id}: explanation must be a non-empty message")
    return options


def choice(id, *, family, kind, title, question, options, correct, why, explanation, hints, facts=None,
           source="new", randomize=None, level=None, about=()) -> ChoiceExercise:
    """A multiple-choice exercise: ``analyse``, ``evaluate``, ``spot`` (the error) or ``predict``.

    Parameters
    ----------
    id : str
        Registry id.
    family : str
        The bank module's family key.
    kind : {"analyse", "evaluate", "spot", "predict"}
    title, question, explanation : str
        Message ids (``N_(...)``); ``question``, the options and ``explanation`` may hold
        ``{placeholders}`` that ``facts()`` fills with the library's numbers.
    options : dict of str to str
        Option key (what the student answers, e.g. ``"rise"``) to its text; in this order.
    correct : str
        The right option's key.
    why : dict of str to str
        A diagnosis for every wrong option.
    hints : tuple of 3 str
        Concept, procedure, first number or first step; none may give the answer.
    facts : callable, optional
        ``facts() -> dict`` of the placeholders' values, computed when shown.
    randomize : callable, optional
        ``randomize(rng) -> dict`` of fields to replace in a student's variant; without it every
        variant is the exercise as written.
    level : {1, 2, 3}, optional
        The difficulty (basic, intermediate, challenge); default: the kind's (:data:`DEFAULT_LEVELS`).
    about : tuple of str, optional
        The metrics (``lt.METRICS`` names) the question is about.

    Returns
    -------
    ChoiceExercise
    """
    _check_common(id, family, title, question, hints)
    if kind not in CHOICE_KINDS or kind == "derive":
        raise ValueError(f"{id}: kind = {kind!r} must be one of {', '.join(k for k in CHOICE_KINDS if k != 'derive')}"
                         " (a derivation is built with derive())")
    options = _check_options(id, options, correct, why, explanation)
    return ChoiceExercise(id=id, family=family, kind=kind, title_id=title, question=question,
                          options=MappingProxyType(options), correct=correct, why=MappingProxyType(dict(why)),
                          explanation_id=explanation, hint_ids=tuple(hints), facts=facts, source=source,
                          randomize=randomize, difficulty=_check_level(id, level), about=_check_about(id, about))


def derive(id, *, family, title, claim, steps, question, options, correct, why, model, hints, rubric, facts=None,
           source="new", level=None, about=()) -> DeriveExercise:
    """A short derivation: a claim, the steps to write out, and a choice at the end that a finished
    derivation answers; ``model`` is the model derivation the teacher marks against.

    Parameters
    ----------
    claim : str
        What to show (a message id), e.g. "Show that NDCG@k <= 1."
    steps : tuple of str
        The derivation's steps as prompts (message ids), in order; the student writes each out.
    question : str
        The choice at the end (a message id): what the finished derivation decides.
    options, correct, why, hints, facts, level, about
        As for :func:`choice`; each wrong option's diagnosis names the step it skips, never the right option.
    model : str
        The model derivation (a message id): the teacher's key, the grader's report, a reveal.
    rubric : tuple of (int, str)
        How the written steps are marked: each criterion (a message id) with its points, at least two.

    Returns
    -------
    DeriveExercise
    """
    _check_common(id, family, title, claim, hints)
    if len(tuple(steps)) < 2 or not all(isinstance(step, str) and step.strip() for step in steps):
        raise ValueError(f"{id}: steps must be at least 2 messages, got {steps!r}")
    for name, value in (("question", question), ("model", model)):
        if not isinstance(value, str) or not value.strip():
            raise ValueError(f"{id}: {name} = {value!r} must be a non-empty message (N_(...))")
    options = _check_options(id, options, correct, why, model)
    return DeriveExercise(id=id, family=family, kind="derive", title_id=title, question=claim,
                          options=MappingProxyType(options), correct=correct, why=MappingProxyType(dict(why)),
                          explanation_id=model, hint_ids=tuple(hints), facts=facts, source=source,
                          difficulty=_check_level(id, level), about=_check_about(id, about), steps=tuple(steps),
                          model_id=model, ask_id=question, rubric_ids=_check_rubric(id, rubric))


def written(id, *, family, title, question, model, hints, rubric, facts=None, source="new", level=None,
            about=()) -> WrittenExercise:
    """A short written answer (a few sentences): the teacher marks it against ``model``, the model answer, with
    ``rubric``: each criterion (a message id) with its points, at least two.

    ``lt.check`` and ``ltr-teach check`` never grade it: they say it is marked by the teacher and show the
    model answer only when asked to reveal; the grader lists every answer for marking by hand.

    Returns
    -------
    WrittenExercise
    """
    _check_common(id, family, title, question, hints)
    if not isinstance(model, str) or not model.strip():
        raise ValueError(f"{id}: model = {model!r} must be a non-empty message (N_(...))")
    return WrittenExercise(id=id, family=family, title_id=title, question=question, model_id=model,
                           hint_ids=tuple(hints), facts=facts, source=source, difficulty=_check_level(id, level),
                           about=_check_about(id, about), rubric_ids=_check_rubric(id, rubric))



def create(id, *, family, title, question, shape, verify, example, hints, explanation="", facts=None,
           source="new", randomize=None, level=None, about=()) -> CreateExercise:
    """An exercise whose answer the student builds: a ranking (``shape="ranking"``) or two (``"pair"``).

    Parameters
    ----------
    verify : callable
        ``verify(parsed) -> None`` when the property holds, else a message (in the current language)
        saying why not; ``parsed`` is a list of grades, or a pair of such lists.
    example : list
        One valid answer (``verify(example)`` must be ``None``); never shown before a reveal.
    hints : tuple of 3 str
        Concept, procedure, first step; none may give an answer.
    explanation : str, optional
        What makes the property hold, shown after a right answer or a reveal.

    Returns
    -------
    CreateExercise

    Raises
    ------
    ValueError
        When the example does not pass its own verifier.
    """
    _check_common(id, family, title, question, hints)
    if shape not in SHAPES:
        raise ValueError(f"{id}: shape = {shape!r} must be one of {', '.join(SHAPES)}")
    example = [list(x) for x in example] if shape == "pair" else list(example)
    problem = verify(example)
    if problem is not None:
        raise ValueError(f"{id}: the example {example!r} fails its own verify: {problem}")
    return CreateExercise(id=id, family=family, title_id=title, question=question, shape=shape, verify=verify,
                          example=_freeze(example), hint_ids=tuple(hints), explanation_id=explanation, facts=facts,
                          source=source, randomize=randomize, difficulty=_check_level(id, level),
                          about=_check_about(id, about))




def arranged(exercises: list, order, levels=None) -> list:
    """A bank module's exercises in the order its sheet asks them (``order``: every id exactly once), with the
    difficulty ``levels`` (id to 1, 2 or 3) of those whose level is not their kind's default.

    The order interleaves: after at most two computations of a metric comes a question about it.

    >>> class E:
    ...     def __init__(self, id): self.id = id
    >>> [e.id for e in arranged([E("a"), E("b")], ["b", "a"])]
    ['b', 'a']
    """
    by_id = {e.id: e for e in exercises}
    order = list(order)
    if sorted(order) != sorted(by_id) or len(set(order)) != len(order):
        missing, extra = set(by_id) - set(order), set(order) - set(by_id)
        raise RuntimeError(f"the order must name every exercise once: missing {sorted(missing)}, unknown "
                           f"{sorted(extra)}")
    levels = dict(levels or {})
    unknown = set(levels) - set(by_id)
    if unknown:
        raise RuntimeError(f"levels name exercises that are not in the module: {sorted(unknown)}")
    return [dataclasses.replace(by_id[i], difficulty=_check_level(i, levels[i])) if i in levels else by_id[i]
            for i in order]


__all__ = ["CHOICE_KINDS", "CONCEPTS", "DEFAULT_LEVELS", "KINDS", "LEVELS", "SHAPES", "ChoiceExercise", "CreateExercise",
           "DeriveExercise", "Exercise", "HintBox", "WrittenExercise", "arranged", "choice", "create", "derive",
           "example_text", "first_step", "inline_html", "ladder_steps", "markdown_html", "written"]
