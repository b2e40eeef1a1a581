"""The explanation object that every metric returns.

An :class:`Explanation` holds the exact value (SymPy), the table of steps that produced it,
named sub-explanations (an NDCG has ``dcg`` and ``idcg``), and the formula. Each metric builds the
table first and takes its value from the table's last line, so the table and the number cannot
disagree.
"""

from __future__ import annotations

import html
import math
import numbers
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy

from . import webfont
from .exact import fmt_cell, fmt_exact, fmt_latex, fmt_value, is_long, terminates, to_float
from .i18n import N_, Message, _, translate
from .table import aligned_lines, display_width, html_table  # noqa: F401 - display_width kept at its documented path

#: The words the metrics' formulas hold in ``\text{}``: messages, so a formula reads in the course's language.
FORMULA_WORDS = frozenset((N_("first relevant"), N_("relevant"), N_("judged"), N_("unjudged")))
_TEXT = re.compile(r"\\text\{([^{}]*)\}")


def formula_tex(formula: str) -> str:
    r"""A formula with the words of its ``\text{}`` in the current language; notation (``\text{-}``) stays.

    >>> from ltr_teach.core.i18n import using_language
    >>> with using_language("zh"):
    ...     formula_tex(r"\mathrm{RR} = \frac{1}{\mathrm{rank}_{\text{first relevant}}}")
    '\\mathrm{RR} = \\frac{1}{\\mathrm{rank}_{\\text{首个相关结果}}}'
    """
    return _TEXT.sub(lambda m: "\\text{" + (translate(m.group(1)) if m.group(1) in FORMULA_WORDS else m.group(1))
                     + "}", formula)


def _jsonable(v):
    """Exact numbers as ``{"exact": "7/8", "value": 0.875}``; containers recursively; the rest as is."""
    if isinstance(v, Fraction):
        v = sympy.Rational(v.numerator, v.denominator)
    if isinstance(v, sympy.Basic):
        return {"exact": fmt_exact(v), "value": _json_float(to_float(v))}
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, Mapping):
        return {str(key): _jsonable(x) for key, x in v.items()}
    if isinstance(v, bool) or not isinstance(v, numbers.Real):
        return v
    return int(v) if isinstance(v, numbers.Integral) else _json_float(float(v))  # NumPy numbers are not JSON numbers


def _json_float(x: float):
    """``x``, or ``None`` (JSON ``null``) for NaN and infinities, which strict JSON cannot hold."""
    return x if math.isfinite(x) else None


@dataclass(frozen=True)
class Column:
    """One column of a steps table: the row key, its header, and how to show its cells."""

    key: str
    header: str
    exact: bool = True  # False: show only the decimal (long sums such as a running DCG)


@dataclass(frozen=True, eq=False)
class Explanation:
    """A metric's value with every intermediate quantity.

    Attributes
    ----------
    metric : str
        Registry name of the metric (``"ndcg"``).
    name : str
        Display name with its cut-off (``"NDCG@7"``).
    exact : sympy.Expr
        The exact value: a ``Rational`` wherever the value is rational, exact logs otherwise.
    columns : tuple of Column
        Column order and headers of the steps table.
    steps : tuple of dict
        One row per rank (or per query, per threshold ...), keyed by ``Column.key``.
    parts : mapping of str to Explanation
        Named sub-explanations.
    params : mapping
        The settings that produced the value (``k``, ``gain``, ``discount`` ...).
    formula : str
        The general formula in LaTeX.
    substitution : str
        The formula with this input's numbers substituted, in LaTeX.
    notes : tuple of str
        Plain-language remarks (an empty IDCG, a cut-off beyond the list ...).
    """

    metric: str
    name: str
    exact: Any
    columns: tuple
    steps: tuple
    parts: Mapping[str, Explanation] = field(default_factory=dict)
    params: Mapping[str, Any] = field(default_factory=dict)
    formula: str = ""
    substitution: str = ""
    notes: tuple = ()

    # -- numbers ---------------------------------------------------------------
    @property
    def value(self) -> float:
        """The float of :attr:`exact`.

        Raises ``ValueError`` when the exact value is finite but beyond the largest float (a CG of
        grades near 1e308): no float is right then, and :attr:`exact` still holds the value.
        """
        value = to_float(self.exact)
        if math.isinf(value) and self.exact.is_finite:
            raise ValueError(
                f"{self.name} = {fmt_value(self.exact)} is beyond the largest float (about 1.8e308), so it has no "
                "float value; .exact holds it exactly (give smaller grades to get a float)"
            )
        return value

    def __float__(self) -> float:
        return self.value

    @property
    def exact_str(self) -> str:
        """The exact value as text (``599/840``)."""
        return fmt_exact(self.exact)

    @property
    def decimal_str(self) -> str:
        """The value with six decimals (``0.713095``; ``2e+308`` beyond the float range)."""
        return fmt_value(self.exact)

    def result_line(self) -> str:
        """``NDCG@7 = (exact) ≈ 0.944227``; ``=`` when the decimal is exact."""
        exact = self.exact_str
        if is_long(self.exact):
            return f"{self.name} {exact} " + _("(the exact number is too long to print; .exact holds it)")
        if isinstance(self.exact, sympy.Integer) or self.exact is sympy.nan:
            return f"{self.name} = {exact}"
        sign = "=" if isinstance(self.exact, sympy.Rational) and terminates(self.exact) else "≈"
        return f"{self.name} = {exact} {sign} {self.decimal_str}"

    # -- tables ----------------------------------------------------------------
    def table_rows(self) -> list[list[str]]:
        """The steps as rows of display strings, in column order."""
        rows = []
        for step in self.steps:
            row = []
            for col in self.columns:
                cell = step.get(col.key)
                if isinstance(cell, Message):  # a word such as "unjudged": shown in the current language
                    row.append(cell.translated())
                elif not col.exact and isinstance(cell, sympy.Basic) and not isinstance(cell, sympy.Integer):
                    row.append(f"≈ {fmt_value(cell)}" if not cell.is_Rational else fmt_cell(cell))
                else:
                    row.append(fmt_cell(cell))
            rows.append(row)
        return rows

    def __str__(self) -> str:
        # the English header is the message id: translated when shown
        lines = [self.name, ""] + aligned_lines([translate(c.header) for c in self.columns], self.table_rows(),
                                                left=0)
        lines.append("")
        for note in self.notes:
            lines.append(_("note: {note}").format(note=translate(note)))
        for part in self.parts.values():
            if part.metric != self.metric:
                lines.append(part.result_line())  # names its own metric (DCG@7 = ...): no key
        lines.append(self.result_line())
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<Explanation {self.result_line()}>"

    def _repr_html_(self) -> str:
        esc = html.escape
        table = html_table([translate(c.header) for c in self.columns], self.table_rows(), left=0)
        note = esc(_("note:"))
        notes = "".join(f"<p style='margin:2px 0'><i>{note}</i> {esc(translate(n))}</p>" for n in self.notes)
        parts = "".join(
            f"<p style='margin:2px 0'><code>{esc(p.result_line())}</code></p>"
            for p in self.parts.values()
            if p.metric != self.metric
        )
        # only & and < can break the markup; MathJax reads the text, so ">" stays as the formula wrote it
        tex = formula_tex(self.formula).replace("&", "&amp;").replace("<", "&lt;")
        formula = f"<p>$${tex}$$</p>" if self.formula else ""
        return webfont.serve(
            f"<div class='ltr-teach-explanation'><b>{esc(self.name)}</b>{formula}"
            f"{table}{notes}{parts}<p style='font-size:110%'><b>{esc(self.result_line())}</b></p></div>"
        )

    def latex(self) -> str:
        """The formula, the numbers substituted, the exact value and its decimal, in LaTeX."""
        pieces = [formula_tex(self.formula)] if self.formula else []
        if self.substitution:
            pieces.append(self.substitution)
        exact_tex = fmt_latex(self.exact)
        if is_long(self.exact):
            return " = ".join(pieces) + " " + exact_tex
        if not pieces or pieces[-1] != exact_tex:
            pieces.append(exact_tex)
        decimal = self.decimal_str
        text = " = ".join(pieces)
        if decimal != fmt_exact(self.exact) and decimal != "nan":
            exact_decimal = isinstance(self.exact, sympy.Rational) and terminates(self.exact)
            text += (" = " if exact_decimal else r" \approx ") + decimal
        return text

    # -- data --------------------------------------------------------------------
    def to_dict(self) -> dict:
        """A JSON-ready dict: exact values as strings beside their floats.

        The dict is strict JSON: an undefined value (``ndcg(..., zero="nan")``) has ``"exact": "nan"``
        and ``"value": None`` (``null``), never a NaN float.
        """

        return {
            "metric": self.metric,
            "name": self.name,
            "exact": self.exact_str,
            "value": _json_float(to_float(self.exact)),  # null beyond the float range, as for NaN
            "params": _jsonable(self.params),
            "steps": [_jsonable(step) for step in self.steps],
            "parts": {k: p.to_dict() for k, p in self.parts.items()},
            "notes": list(self.notes),
        }


def column_values(steps: Sequence[Mapping], key: str) -> list:
    """The cells of one column, in row order."""
    return [s.get(key) for s in steps]
