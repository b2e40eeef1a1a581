"""Every tool's number for one ranking, side by side: :func:`compare_conventions`.

It sits above the metric modules and the presets (it calls the metrics under each preset), so the
presets module stays a plain table that the metrics themselves can read.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import ClassVar

from ..core.exact import fmt_cell, fmt_decimal, to_float
from ..core.i18n import N_, _
from ..core.table import aligned_lines, html_table
from ..core.validate import as_choice, as_sequence
from . import graded
from .conventions import CONVENTIONS, get_convention

#: The most items :func:`compare_conventions` takes (it explains the ranking once per distinct preset).
COMPARE_MAX_ITEMS = 300


@dataclass(frozen=True)
class ConventionTable:
    """What each tool reports for one input, and the settings behind each number.

    ``rows`` holds one dict per convention: its name, its settings, the explanation it produces
    (``explanation``), the exact value and which settings differ from the reference row.
    """

    metric: str
    reference: str
    rows: tuple

    _SHOWN = ("gain", "discount", "ideal", "ties", "zero")
    #: Each shown setting's column title (the keys are the keyword arguments the settings go to).
    _HEADERS: ClassVar[dict] = {"gain": N_("gain"), "discount": N_("discount"), "ideal": N_("ideal"), "ties": N_("ties"),
                                "zero": N_("zero")}

    def value(self, name: str) -> float:
        """The float a convention gives."""
        return next(r["explanation"].value for r in self.rows if r["name"] == name)

    def _cells(self):
        header = [_("convention"), *(_(self._HEADERS[k]) for k in self._SHOWN), _("value"),
                  _("differs from {reference} by").format(reference=self.reference)]
        body = []
        for r in self.rows:
            body.append([r["name"], *(str(r[k]) for k in self._SHOWN), fmt_cell(r["explanation"].exact, 28),
                         r["differs"]])
        return header, body

    def __str__(self) -> str:
        header, body = self._cells()
        return "\n".join(aligned_lines(header, body, left=len(header)))

    def __repr__(self) -> str:
        return f"<ConventionTable {self.metric}: " + ", ".join(
            f"{r['name']}={fmt_decimal(to_float(r['explanation'].exact), 4)}" for r in self.rows) + ">"

    def _repr_html_(self) -> str:
        header, body = self._cells()
        return html_table(header, body, left=len(header), attributes="class='ltr-teach-conventions'")


def compare_conventions(grades, scores=None, docids=None, ideal=None, k=None, metric="ndcg",
                        conventions=None, reference="trec_eval") -> ConventionTable:
    """Evaluate one ranking under every convention and say which setting moves each number.

    Parameters
    ----------
    grades : sequence of numbers
        Each retrieved item's grade (0 for unjudged), in ranked order or, with ``scores``, in any order.
    scores, docids : sequence, optional
        The model's scores and the document ids (trec_eval breaks ties by docid).
    ideal : sequence of numbers, optional
        Every judged grade of the query (the pool). Conventions whose ideal is ``"list"`` ignore it,
        as those tools never see unretrieved documents.
    k : int or None
        The cut-off.
    metric : {"ndcg", "dcg"}
    conventions : sequence of str, optional
        Which presets to compare (default: all, the documents' own last).
    reference : str
        The row the "differs by" column compares against.

    Examples
    --------
    The example of ``conventions.md``: d5 (grade 2) was never retrieved, d1 and d2 tie at 0.8.

    >>> import ltr_teach as lt
    >>> t = lt.compare_conventions([0, 3, 2, 1, 0], scores=[1.0, 0.8, 0.8, 0.5, 0.4],
    ...                            docids=["d3", "d1", "d2", "d4", "d9"], ideal=[3, 2, 0, 1, 2],
    ...                            conventions=["trec_eval", "ranx", "sklearn", "lightgbm"])
    >>> {r["name"]: round(r["explanation"].value, 4) for r in t.rows}
    {'trec_eval': 0.5608, 'ranx': 0.5838, 'sklearn': 0.6842, 'lightgbm': 0.6758}
    >>> [r["differs"] for r in t.rows][1]
    'ties: stable'
    """
    funcs = {"ndcg": graded.ndcg, "dcg": graded.dcg}
    metric = as_choice(metric, "metric", funcs)
    # up to nine distinct explanations of the same ranking: a smaller limit keeps the table within 2 s
    grades = as_sequence(grades, "grades", limit=COMPARE_MAX_ITEMS)
    if conventions is None:
        names = list(CONVENTIONS)
    else:
        if isinstance(conventions, str):
            raise ValueError(f"conventions must be a list of preset names such as ['trec_eval', 'sklearn']; "
                             f"got the string {conventions!r}")
        names = []
        for i, c in enumerate(as_sequence(conventions, "conventions", limit=len(CONVENTIONS) * 4)):
            if not isinstance(c, str) or c not in CONVENTIONS:
                known = ", ".join(repr(name) for name in CONVENTIONS)
                raise ValueError(f"conventions[{i}] = {c!r} is not a preset: convention must be one of {known}")
            names.append(c)
    ref = get_convention(as_choice(reference, "reference", CONVENTIONS))
    rows, computed = [], {}
    for name in names:
        conv = CONVENTIONS[name]
        kwargs = {"k": k, "convention": name}
        if scores is not None:
            kwargs.update(scores=scores, docids=docids)
        uses_pool = metric == "ndcg" and conv.ideal == "pool" and ideal is not None
        if uses_pool:
            kwargs["ideal"] = ideal
        # presets that agree on every setting the metric reads give one explanation (trec_eval and
        # ir_measures, lightgbm and xgboost ...): compute it once
        same = (conv.gain, conv.discount, conv.ties if scores is not None else None, conv.zero, uses_pool)
        if same not in computed:
            computed[same] = funcs[metric](grades, **kwargs)
        ex = computed[same]
        settings = {f.name: getattr(conv, f.name) for f in fields(conv)}
        # Without scores the grades are already in ranked order, so the tie rule cannot matter.
        shown = [key for key in ConventionTable._SHOWN if scores is not None or key != "ties"]
        diffs = [f"{key}: {settings[key]}" for key in shown if settings[key] != getattr(ref, key)]
        rows.append({**settings, "explanation": ex, "exact": ex.exact,
                     "differs": ", ".join(diffs) if diffs else "–"})
    return ConventionTable(metric=metric, reference=ref.name, rows=tuple(rows))


__all__ = ["COMPARE_MAX_ITEMS", "ConventionTable", "compare_conventions"]
