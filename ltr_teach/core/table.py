"""A plain table of text cells that prints aligned in a terminal and as HTML in a notebook.

The teaching tables (worked examples side by side, metrics on several rankings, agreement shares)
are built from numbers the library computed; this class only lays them out, so notebooks print
them instead of formatting them by hand. :func:`aligned_lines` is the one text layout every aligned
table of the package prints through, :func:`html_table` its HTML form.
"""

from __future__ import annotations

import html
import unicodedata
from dataclasses import dataclass

from . import webfont
from .i18n import Message, translate


def display_width(text: str) -> int:
    """Terminal columns taken by ``text``: wide (CJK) characters take two, so 眼霜 is 4 wide.

    Examples
    --------
    >>> display_width("NDCG"), display_width("眼霜")
    (4, 4)
    """
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int, right: bool) -> str:
    fill = " " * max(0, width - display_width(text))
    return fill + text if right else text + fill


def aligned_lines(header, rows, left: int = 1) -> list:
    """The header, a rule of dashes and the rows, each column as wide as its widest cell.

    The one text-table layout of the package: explanations' step tables, :class:`Table`, the
    convention comparison, the worked examples and the run comparison all print through it. Widths
    count a CJK character as two columns (:func:`display_width`), so Chinese item names stay aligned.

    Parameters
    ----------
    header : sequence of str
        The column titles.
    rows : sequence of sequence of str
        The cells, row by row.
    left : int
        How many leading columns are left-aligned; the others are right-aligned (``0``: all right,
        ``len(header)``: all left).

    Returns
    -------
    list of str
        One line for the header, one for the rule, one per row; trailing blanks stripped.

    Examples
    --------
    >>> for line in aligned_lines(("query", "RR"), (("眼霜", "1/2"), ("神仙水", "1"))):
    ...     print(line)
    query    RR
    ------  ---
    眼霜    1/2
    神仙水    1
    """
    widths = [max([display_width(h)] + [display_width(r[i]) for r in rows]) for i, h in enumerate(header)]

    def line(cells):
        return "  ".join(_pad(c, w, i >= left) for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    return [line(header), "  ".join("-" * w for w in widths)] + [line(r) for r in rows]


def html_table(header, rows, left: int = 1, attributes: str = "style='border-collapse:collapse'",
               align_header: bool = True) -> str:
    """The same table as :func:`aligned_lines`, as an HTML ``<table>`` (cells escaped).

    Parameters
    ----------
    header, rows, left
        As in :func:`aligned_lines`.
    attributes : str
        The ``<table>`` tag's attributes.
    align_header : bool
        Whether the header cells carry the columns' alignment (otherwise the browser centres them).

    Examples
    --------
    >>> html_table(("k",), (("1",),), left=0, attributes="")
    "<table><thead><tr><th style='text-align:right;padding:2px 8px'>k</th></tr></thead><tbody><tr><td style='text-align:right;padding:2px 8px'>1</td></tr></tbody></table>"
    """
    esc = html.escape

    def style(i):
        return f"text-align:{'left' if i < left else 'right'};padding:2px 8px"

    head = "".join(f"<th style='{style(i) if align_header else 'padding:2px 8px'}'>{esc(h)}</th>"
                   for i, h in enumerate(header))
    body = "".join("<tr>" + "".join(f"<td style='{style(i)}'>{esc(c)}</td>" for i, c in enumerate(row)) + "</tr>"
                   for row in rows)
    tag = f"<table {attributes}>" if attributes else "<table>"
    return f"{tag}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


@dataclass(frozen=True)
class Table:
    """Rows of text cells under a header; the first column is left-aligned, the others right-aligned.

    Parameters
    ----------
    header : tuple of str
        The column titles.
    rows : tuple of tuple of str
        One tuple of cells per row, as long as ``header``.
    title : str, optional
        A line printed above the table.
    notes : tuple of str, optional
        Lines printed below the table.
    left : int, optional
        How many leading columns are left-aligned (default 1).

    Examples
    --------
    >>> print(Table(("metric", "value"), (("P@2", "1/2"), ("R@2", "1/3")), title="one hit in two ranks"))
    one hit in two ranks
    metric  value
    ------  -----
    P@2       1/2
    R@2       1/3
    """

    header: tuple
    rows: tuple
    title: str = ""
    notes: tuple = ()
    left: int = 1

    def __post_init__(self):
        for i, row in enumerate(self.rows):
            if len(row) != len(self.header):
                raise ValueError(f"rows[{i}] has {len(row)} cells; the header has {len(self.header)}")

    def column(self, name: str) -> list:
        """The cells of the column titled ``name``, top to bottom."""
        if name not in self.header:
            raise ValueError(f"name = {name!r} is not a column; the columns are {', '.join(self.header)}")
        at = self.header.index(name)
        return [row[at] for row in self.rows]

    def shown_header(self) -> list:
        """The header in the current language (each title is a message id; an unknown one shows as itself)."""
        return [translate(h) for h in self.header]

    def shown_rows(self) -> list:
        """The cells in the current language: a cell that is an ``i18n.Message`` ("rises", "yes") is translated,
        any other cell (a number, a name) shows as itself."""
        return [[translate(c) if isinstance(c, Message) else c for c in row] for row in self.rows]

    def __str__(self) -> str:
        lines = [translate(self.title)] if self.title else []
        lines += aligned_lines(self.shown_header(), self.shown_rows(), self.left)
        lines += [translate(n) for n in self.notes]
        return "\n".join(lines)

    __repr__ = __str__

    def _repr_html_(self) -> str:
        esc = html.escape
        title = f"<p style='margin:2px 0'><b>{esc(translate(self.title))}</b></p>" if self.title else ""
        notes = "".join(f"<p style='margin:2px 0'>{esc(translate(n))}</p>" for n in self.notes)
        table = html_table(self.shown_header(), self.shown_rows(), self.left)
        return webfont.serve(f"<div class='ltr-teach-table'>{title}{table}{notes}</div>")


__all__ = ["Table", "aligned_lines", "display_width", "html_table"]
