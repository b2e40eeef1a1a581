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
    #: The key of the column this one adds up ("DCG so far" sums "gain/discount"): each cell then shows the
    #: sum term by term in rank order, ``31 + 1/log2(3) + 7/2 ≈ 35.13093``, while it is short enough.
    sums: str = ""


#: A running-sum column lists each cell's terms when its last cell's terms take at most this many characters
#: (a 5-rank DCG's ``31 + 1/log2(3) + 7/2 + 3/log2(5) + 15/log2(6)`` takes 45, a 7-rank one about 60);
#: longer, every cell of the column shows its value alone, as the result line still lists the terms.
SUM_CELL_CHARS = 64
#: A value shows its rank-order terms in the result line for at most this many terms.
SUM_TERMS_SHOWN = 20


def _term_texts(terms, latex: bool = False):
    """Each exact term as text, or ``None`` when one cannot be shown exactly (a fraction too long)."""
    out = []
    for t in terms:
        if isinstance(t, numbers.Integral) and not isinstance(t, sympy.Basic):
            t = sympy.Integer(int(t))
        if not isinstance(t, sympy.Basic) or t is sympy.nan or is_long(t):
            return None
        out.append(fmt_latex(t) if latex else fmt_exact(t))
    return out


def _joined(texts) -> str:
    out = texts[0] if texts else "0"
    for t in texts[1:]:
        out += f" - {t[1:].lstrip()}" if t.startswith("-") else f" + {t}"
    return out


@dataclass(frozen=True)
class Terms:
    """How a value adds up, unsimplified: its terms in rank order (every rank, a 0 included), divided
    by ``over`` (a number or another :class:`Terms`) when the value is a mean or a ratio.

    >>> from ltr_teach.core.exact import log2
    >>> Terms((sympy.Integer(31), 1 / log2(3), sympy.Rational(7, 2))).text()
    '31 + 1/log2(3) + 7/2'
    >>> Terms((sympy.Integer(1), sympy.Integer(0), sympy.Rational(2, 3)), over=3).text()
    '(1 + 0 + 2/3)/3'
    """

    terms: tuple
    over: Any = None

    def _render(self, latex: bool):
        if not 0 < len(self.terms) <= SUM_TERMS_SHOWN:
            return None
        texts = _term_texts(self.terms, latex)
        if texts is None:
            return None
        top = _joined(texts)
        if self.over is None:
            return top
        below = self.over._render(latex) if isinstance(self.over, Terms) else (_term_texts([self.over], latex)
                                                                                or [None])[0]
        if below is None:
            return None
        if latex:
            return r"\frac{%s}{%s}" % (top, below)
        wrap = (lambda t: f"({t})" if (" " in t or "/" in t) else t)
        return f"{wrap(top)}/{wrap(below)}"

    def text(self):
        """The terms as text, ``None`` when they cannot be shown (too many, or a fraction too long)."""
        return self._render(False)

    def latex(self):
        """The terms in LaTeX, ``None`` when they cannot be shown."""
        return self._render(True)


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
    terms : Terms or None
        The value's terms in rank order, shown before the simplified value.
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
    #: The value unsimplified, its terms in rank order (:class:`Terms`): the result line shows it before
    #: the simplified value, ``DCG = 31 + 1/log2(3) + 7/2 + ... = (simplified) ≈ 42.225752``.
    terms: Terms | None = None

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

    def result_line(self, terms: bool = True) -> str:
        """``DCG = 31 + 1/log2(3) + ... = (exact) ≈ 42.225752``: the rank-order terms (:meth:`terms_str`), the
        simplified exact value, its decimal (``=`` when the decimal is exact). ``terms=False`` leaves the terms
        out (a plot title)."""
        exact = self.exact_str
        if is_long(self.exact):
            return f"{self.name} {exact} " + _("(the exact number is too long to print; .exact holds it)")
        shown = self.terms_str() if terms else None
        name = f"{self.name} = {shown}" if shown and shown != exact else self.name
        if isinstance(self.exact, sympy.Integer) or self.exact is sympy.nan:
            return f"{name} = {exact}"
        sign = "=" if isinstance(self.exact, sympy.Rational) and terminates(self.exact) else "≈"
        return f"{name} = {exact} {sign} {self.decimal_str}"

    def terms_str(self):
        """The value unsimplified, its terms in rank order (``31 + 1/log2(3) + 7/2``), or ``None``.

        Every rank has its term, a 0 included, so a student checks the sum line by line against the table.
        ``None`` when there are no terms, more than :data:`SUM_TERMS_SHOWN`, or a fraction too long to print.
        """
        return self.terms.text() if self.terms is not None else None

    # -- reading the table -----------------------------------------------------
    def row(self, n: int) -> dict:
        """The ``n``-th row of the steps table, counted from 1 as ranks are (``-1`` is the last row).

        A row maps each column's key to its cell; ``n = 1`` is rank 1 (or the first query, threshold ...).

        >>> import ltr_teach as lt
        >>> ex = lt.err([3, 2], g_max=3)
        >>> ex.row(1)["R"], ex.row(-1)["R"]
        (7/8, 3/8)
        >>> ex.row(3)
        Traceback (most recent call last):
        ...
        ValueError: n = 3 is not a row of ERR's table; use 1 to 2, or -1 to -2 counting from the end
        """
        count = len(self.steps)
        if isinstance(n, bool) or not isinstance(n, numbers.Integral) or not (1 <= n <= count or -count <= n <= -1):
            raise ValueError(f"n = {n!r} is not a row of {self.name}'s table; use 1 to {count}, "
                             f"or -1 to -{count} counting from the end")
        return dict(self.steps[n - 1 if n > 0 else n])

    def column(self, key: str) -> list:
        """The cells of one column of the steps table, top to bottom.

        >>> import ltr_teach as lt
        >>> lt.err([3, 2], g_max=3).column("R")
        [7/8, 3/8]
        """
        keys = [c.key for c in self.columns]
        if key not in keys:
            raise ValueError(f"key = {key!r} is not a column of {self.name}'s table; use one of {keys}")
        return [step.get(key) for step in self.steps]

    def param(self, name: str):
        """One setting or side value the computation recorded (``k``, ``gain`` ...), by name.

        >>> import ltr_teach as lt
        >>> lt.ndcg([3, 2, 3], k=2).param("k")
        2
        >>> lt.ndcg([3, 2, 3], k=2).param("kk")    # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: name = 'kk' is not a setting of NDCG@2; use one of [...]
        """
        if name not in self.params:
            raise ValueError(f"name = {name!r} is not a setting of {self.name}; use one of {sorted(self.params)}")
        return self.params[name]

    # -- tables ----------------------------------------------------------------
    def shown_rows(self) -> list[list[str]]:
        """:meth:`table_rows` as a table shows them: in a table of more than :data:`FOLD_ABOVE` rows, each run of at
        least :data:`FOLD_RUN` rows that adds nothing to any running sum (a TREC topic's long stretches of
        unjudged or non-relevant documents) is folded into one row whose first cell gives its ranks
        (``21–480``); a column whose cells differ within the run shows ``…``. The steps keep every row."""
        rows = self.table_rows()
        if len(rows) <= FOLD_ABOVE:
            return rows
        summed = [col.sums for col in self.columns if col.sums]
        if not summed:
            return rows
        idle = [all(_is_zero(step.get(key)) for key in summed) for step in self.steps]
        out, i = [], 0
        while i < len(rows):
            j = i
            while j < len(rows) and idle[j]:
                j += 1
            if j - i >= FOLD_RUN:
                run = rows[i:j]
                folded = [f"{run[0][0]}–{run[-1][0]}"]
                folded += [cells[0] if len(set(cells)) == 1 else "…" for cells in list(zip(*run))[1:]]
                out.append(folded)
                i = j
            else:
                out.append(rows[i])
                i += 1
        return out

    def table_rows(self) -> list[list[str]]:
        """The steps as rows of display strings, in column order.

        A column that :attr:`Column.sums` another shows each cell as its terms in rank order, then the value
        (``31 + 1/log2(3) + 7/2 ≈ 35.13093``), while the terms fit in :data:`SUM_CELL_CHARS` characters.
        """
        rows = []
        sums = {col.key: self._sum_cells(col) for col in self.columns if col.sums}
        for i, step in enumerate(self.steps):
            row = []
            for col in self.columns:
                cell = step.get(col.key)
                if col.sums and sums[col.key] is not None and sums[col.key][i] is not None:
                    row.append(sums[col.key][i])
                    continue
                if isinstance(cell, Message):  # a word such as "unjudged": shown in the current language
                    row.append(cell.translated())
                elif not col.exact and isinstance(cell, sympy.Basic) and not isinstance(cell, sympy.Integer):
                    row.append(f"≈ {fmt_value(cell)}" if not cell.is_Rational else fmt_cell(cell))
                else:
                    row.append(fmt_cell(cell))
            rows.append(row)
        return rows

    def _sum_cells(self, col: Column):
        """The cells of a running-sum column as their rank-order terms and value (``None`` where a cell shows
        only its value, at rank 1), or ``None`` for the whole column when its last sum is longer than
        :data:`SUM_CELL_CHARS` or holds a term that cannot be shown: a column lists its terms on every row or
        on none."""
        texts, chars = [], 0
        for step in self.steps:
            term = step.get(col.sums)
            if term is None:  # rows beyond the ranking (an ideal list longer than it): no term to add
                break
            text = _term_texts([term])
            if text is None:
                return None
            chars += len(text[0]) + 3
            if chars > SUM_CELL_CHARS + 3:
                return None
            texts.append(text[0])
        cells = []
        for i, step in enumerate(self.steps):
            cell = step.get(col.key)
            if 1 <= i < len(texts) and isinstance(cell, sympy.Basic) and cell is not sympy.nan:
                cells.append(f"{_joined(texts[:i + 1])} {_value_after_terms(cell)}")
            else:
                cells.append(None)
        return cells

    def __str__(self) -> str:
        # the English header is the message id: translated when shown
        lines = [self.name, ""] + aligned_lines([translate(c.header) for c in self.columns], self.shown_rows(),
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
        table = html_table([translate(c.header) for c in self.columns], self.shown_rows(), left=0)
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
        terms = self.terms.latex() if self.terms is not None else None
        if terms and (not pieces or pieces[-1] != terms):
            pieces.append(terms)
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


#: A steps table longer than this folds its runs of rows that change no sum (:meth:`Explanation.shown_rows`);
#: the course's own examples (at most a few dozen ranks) are always shown whole.
FOLD_ABOVE = 100
#: The shortest run of such rows that is folded into one.
FOLD_RUN = 5


def _is_zero(term) -> bool:
    """A term that adds nothing to a sum: 0, or no term at all (a rank beyond the ranking)."""
    return term is None or (isinstance(term, (numbers.Number, sympy.Basic)) and term == 0)


def _value_after_terms(value) -> str:
    """``= 57/64 = 0.890625`` or ``≈ 35.13093``: what follows a sum's terms in a table cell."""
    if isinstance(value, sympy.Rational):
        return f"= {fmt_cell(value)}"  # 7/8 + 0 + 1/64 = 57/64 = 0.890625
    return f"≈ {fmt_value(value)}"


def column_values(steps: Sequence[Mapping], key: str) -> list:
    """The cells of one column, in row order."""
    return [s.get(key) for s in steps]
