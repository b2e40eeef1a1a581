"""Runs and qrels as tables: pandas or Polars DataFrames, Arrow tables, Parquet and Arrow (Feather/IPC) files.

Runs come out of pandas, Polars and Spark jobs as tables. :func:`~ltr_teach.runs.evaluate.evaluate` (and so
``ltr-teach eval``) takes them wherever it takes a TREC file: a table with a query column, a document column
and a score column (a grade column for qrels) becomes ``{qid: {docid: value}}`` and enters the dict path, so
it meets the same checks (ids compared as text, numbers only, no NaN), the same tie rule and gives the same
numbers as the TREC file with the same rows. A document twice for one query is refused, as trec_eval refuses it.

The libraries are optional (``pip install "ltr_teach[tables]"``): pandas, Polars and pyarrow are imported only
when such a table or file is given, never by the course. Parquet and Arrow files are read with pyarrow, or
with Polars when pyarrow is missing.
"""

from __future__ import annotations

import math
import os
import stat
from pathlib import Path

from .trec import add_once

#: The column names read as each field, compared without case; the first present is used.
QUERY_COLUMNS = ("query", "qid", "query_id", "topic")
DOC_COLUMNS = ("doc", "docid", "doc_id", "docno")
VALUE_COLUMNS = {"run": ("score",), "qrels": ("grade", "relevance", "rel", "label", "judgment")}
#: File suffixes read as tables, and the format of each.
TABLE_SUFFIXES = {".parquet": "parquet", ".pq": "parquet", ".arrow": "arrow", ".feather": "arrow", ".ipc": "arrow"}
_TABLE_MODULES = ("pandas", "polars", "pyarrow")


def is_table(data) -> bool:
    """Whether ``data`` is a pandas or Polars DataFrame or an Arrow table (by its type's module: none is imported)."""
    module = type(data).__module__.split(".")[0]
    return module in _TABLE_MODULES and hasattr(data, "columns" if module != "pyarrow" else "column_names")


def is_table_path(data) -> bool:
    return isinstance(data, (str, os.PathLike)) and Path(data).suffix.lower() in TABLE_SUFFIXES


def as_mapping(data, what: str):
    """``data`` as ``{qid: {docid: value}}`` when it is a table or a table file; anything else unchanged."""
    if is_table_path(data):
        return _to_dict(_read_file(Path(data), what), what, str(data))
    if is_table(data):
        return _to_dict(data, what, f"the {what} table")
    return data


def _read_file(path: Path, what: str):
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        raise ValueError(f"{what} file {str(path)!r} cannot be read: {exc.strerror}") from None
    if not stat.S_ISREG(mode):  # a FIFO would block the reader, a device never end
        raise ValueError(f"{what} file {str(path)!r} is not a regular file")
    kind = TABLE_SUFFIXES[path.suffix.lower()]
    try:
        import pyarrow.feather
        import pyarrow.parquet

        read = pyarrow.parquet.read_table if kind == "parquet" else pyarrow.feather.read_table
    except ImportError:
        try:
            import polars
        except ImportError:
            raise ValueError(f"reading {kind.capitalize()} files needs pyarrow or polars: pip install "
                             f"\"ltr_teach[tables]\" (or write the {what} as a TREC text file)") from None
        read = polars.read_parquet if kind == "parquet" else polars.read_ipc
    try:
        return read(path)
    except Exception as exc:  # noqa: BLE001 - each reader raises its own types for a file that is not its format
        raise ValueError(f"{what} file {str(path)!r} is not a readable {kind.capitalize()} file "
                         f"({type(exc).__name__}: {str(exc)[:120]})") from None


def _names(table) -> list:
    return list(table.column_names if type(table).__module__.startswith("pyarrow") else table.columns)


def _column(table, name) -> list:
    module = type(table).__module__.split(".")[0]
    if module == "pyarrow":
        return table.column(name).to_pylist()
    if module == "polars":
        return table.get_column(name).to_list()
    return table[name].tolist()


def _pick(names: list, wanted: tuple, what: str, field: str, where: str):
    lowered = {str(n).lower(): n for n in names}
    for candidate in wanted:
        if candidate in lowered:
            return lowered[candidate]
    raise ValueError(f"{where} has no {field} column: name one of {', '.join(wanted)} (the {what} table's columns "
                     f"are {', '.join(map(str, names[:10]))})")


def _to_dict(table, what: str, where: str) -> dict:
    names = _names(table)
    value_what = "score" if what == "run" else "grade"
    columns = [_column(table, _pick(names, wanted, what, field, where)) for wanted, field in
               ((QUERY_COLUMNS, "query"), (DOC_COLUMNS, "document"), (VALUE_COLUMNS[what], value_what))]
    if not columns[0]:
        raise ValueError(f"{where} has no rows; a {what} needs at least one")
    out: dict = {}
    for row, (qid, docid, value) in enumerate(zip(*columns)):
        for name, ident in (("query", qid), ("document", docid)):
            if ident is None or (isinstance(ident, float) and math.isnan(ident)):
                raise ValueError(f"{where}, row {row}: the {name} id is missing ({ident!r})")
            if isinstance(ident, float):  # 1.0 would read "1.0", never the qrels' "1": say so, change nothing
                raise ValueError(f"{where}, row {row}: the {name} id {ident!r} is a float; ids are text or whole "
                                 "numbers (a pandas integer column with a missing value becomes float)")
        add_once(out, qid, docid, value, f"{where}, row {row}", what)
    return out


__all__ = ["as_mapping", "is_table", "is_table_path", "QUERY_COLUMNS", "DOC_COLUMNS", "VALUE_COLUMNS",
           "TABLE_SUFFIXES"]
