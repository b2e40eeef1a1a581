"""Runs and qrels as tables: pandas or Polars DataFrames, Arrow tables, Parquet and Arrow (Feather/IPC) files.

Runs come out of pandas, Polars and Spark jobs as tables. :func:`~ltr_teach.runs.evaluate.evaluate` (and so
``ltr-teach eval``) takes them wherever it takes a TREC file: a table with a query column, a document column
and a score column (a grade column for qrels) becomes ``{qid: {docid: value}}`` and enters the dict path, so
it meets the same checks (ids compared as text, numbers only, no NaN), the same tie rule and gives the same
numbers as the TREC file with the same rows. A document twice for one query is refused, as trec_eval refuses it.

Ids are text or whole numbers; a bytes id is read as UTF-8 text (as the TREC reader reads a file), a missing one
(None, NaN, ``pd.NA``, ``NaT``) and any other kind (a float, a date, a list) are refused with the row. A table
holds at most :data:`MAX_TABLE_ROWS` rows, checked before anything is decoded (a Parquet file's row count and
size come from its footer: 40,000,000 identical rows compress to a few hundred kB). A field with two columns that
could be it (``qid`` and ``query``, or two columns of one name) is refused: name one.

The libraries are optional (``pip install "ltr_teach[tables]"``): pandas, Polars and pyarrow are imported only
when such a table or file is given, never by the course. Parquet and Arrow files are read with pyarrow, or
with Polars when pyarrow is missing.
"""

from __future__ import annotations

import math
import os
import stat
from pathlib import Path

from ..core.plain import _brief
from .trec import MAX_FIELD_BYTES, add_once

#: The column names read as each field, compared without case; the first present is used.
QUERY_COLUMNS = ("query", "qid", "query_id", "topic")
DOC_COLUMNS = ("doc", "docid", "doc_id", "docno")
VALUE_COLUMNS = {"run": ("score",), "qrels": ("grade", "relevance", "rel", "label", "judgment")}
#: File suffixes read as tables, and the format of each.
TABLE_SUFFIXES = {".parquet": "parquet", ".pq": "parquet", ".arrow": "arrow", ".feather": "arrow", ".ipc": "arrow"}
_TABLE_MODULES = ("pandas", "polars", "pyarrow")
#: The most rows a run or qrels table may hold (ten million: 10,000 queries of 1,000 documents); the dict path
#: holds every row as Python objects, about 200 bytes each.
MAX_TABLE_ROWS = 10_000_000
#: The most bytes a table file may decode to (its columns' uncompressed size, from the file's metadata).
MAX_TABLE_BYTES = 4 << 30
_MISSING_TYPES = ("NAType", "NaTType")


def is_table(data) -> bool:
    """Whether ``data`` is a pandas or Polars DataFrame (or LazyFrame) or an Arrow table (by its type's module:
    none is imported)."""
    module = type(data).__module__.split(".")[0]
    if module == "polars" and type(data).__name__ == "LazyFrame":
        return True
    return module in _TABLE_MODULES and hasattr(data, "columns" if module != "pyarrow" else "column_names")


def is_table_path(data) -> bool:
    return isinstance(data, (str, os.PathLike)) and Path(data).suffix.lower() in TABLE_SUFFIXES


def as_mapping(data, what: str):
    """``data`` as ``{qid: {docid: value}}`` when it is a table or a table file; anything else unchanged."""
    if is_table_path(data):
        return _to_dict(_read_file(Path(data), what), what, str(data))
    if is_table(data):
        where = f"the {what} table"
        return _to_dict(_bounded(data, where, what), what, where)
    return data


def _refuse_rows(rows: int, where: str, what: str) -> None:
    if rows > MAX_TABLE_ROWS:
        raise ValueError(f"{where} has {rows:,} rows; a {what} table here holds at most {MAX_TABLE_ROWS:,} "
                         "(split it, or evaluate a sample of the queries)")


def _bounded(table, where: str, what: str):
    """The table with its rows counted before any is converted (a LazyFrame counted lazily, then collected)."""
    if type(table).__name__ == "LazyFrame":
        import polars

        try:
            rows = table.select(polars.len()).collect().item()
            _refuse_rows(rows, where, what)
            return table.collect()
        except ValueError:
            raise
        except Exception as exc:  # noqa: BLE001 - a lazy plan fails with Polars' own error types
            raise ValueError(f"{where} (a Polars LazyFrame) cannot be computed: {_one_line(exc)}") from None
    rows = table.num_rows if type(table).__module__.startswith("pyarrow") else len(table)
    _refuse_rows(rows, where, what)
    return table


def _one_line(exc: BaseException) -> str:
    """An exception as one short line (a reader's message can span lines: the CLI prints one)."""
    return f"{type(exc).__name__}: {' '.join(str(exc).split())[:160]}"


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
        rows, size = _file_size(path, kind)
    except Exception as exc:  # noqa: BLE001 - each reader raises its own types for a file that is not its format
        raise ValueError(f"{what} file {str(path)!r} is not a readable {kind.capitalize()} file "
                         f"({_one_line(exc)})") from None
    _refuse_rows(rows, f"{what} file {str(path)!r}", what)
    if size > MAX_TABLE_BYTES:
        raise ValueError(f"{what} file {str(path)!r} decodes to {size:,} bytes; a {what} table here holds at most "
                         f"{MAX_TABLE_BYTES:,}")
    try:
        return read(path)
    except Exception as exc:  # noqa: BLE001 - each reader raises its own types for a file that is not its format
        raise ValueError(f"{what} file {str(path)!r} is not a readable {kind.capitalize()} file "
                         f"({_one_line(exc)})") from None


def _file_size(path: Path, kind: str) -> tuple[int, int]:
    """Rows and decoded bytes of a table file, from its metadata only (nothing decoded)."""
    try:
        import pyarrow.ipc
        import pyarrow.parquet
    except ImportError:  # Polars reads only the footer for a lazy row count; the size is then unknown (0)
        import polars

        scan = polars.scan_parquet if kind == "parquet" else polars.scan_ipc
        return scan(path).select(polars.len()).collect().item(), 0
    if kind == "parquet":
        meta = pyarrow.parquet.ParquetFile(path).metadata
        return meta.num_rows, sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))
    with pyarrow.memory_map(str(path)) as source:  # an Arrow IPC file: its batches' headers, mapped, not read
        try:
            reader = pyarrow.ipc.open_file(source)
            batches = (reader.get_record_batch(i) for i in range(reader.num_record_batches))
        except pyarrow.ArrowInvalid:  # an IPC stream (no footer): read batch by batch, counting
            source.seek(0)
            batches = iter(pyarrow.ipc.open_stream(source))
        rows = size = 0
        for batch in batches:
            rows += batch.num_rows
            size += batch.nbytes
            if rows > MAX_TABLE_ROWS or size > MAX_TABLE_BYTES:
                break
        return rows, size


def _names(table) -> list:
    return list(table.column_names if type(table).__module__.startswith("pyarrow") else table.columns)


def _id(ident, name: str, where: str, row: int):
    """A query or document id as the dict path takes it: text, or a whole number; bytes read as UTF-8."""
    if ident is None or (isinstance(ident, float) and math.isnan(ident)) or type(ident).__name__ in _MISSING_TYPES:
        raise ValueError(f"{where}, row {row}: the {name} id is missing ({ident!r})")
    if isinstance(ident, float):  # 1.0 would read "1.0", never the qrels' "1": say so, change nothing
        raise ValueError(f"{where}, row {row}: the {name} id {ident!r} is a float; ids are text or whole "
                         "numbers (a pandas integer column with a missing value becomes float)")
    if isinstance(ident, (bytes, bytearray)):
        try:
            ident = bytes(ident).decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError(f"{where}, row {row}: the {name} id {bytes(ident)[:40]!r} is bytes that are not UTF-8 "
                             "text") from None
    if isinstance(ident, bool) or not isinstance(ident, (str, int)):
        raise ValueError(f"{where}, row {row}: the {name} id {_brief(ident)} is a {type(ident).__name__}; ids are "
                         "text or whole numbers")
    if isinstance(ident, str) and len(ident.encode("utf-8", "surrogatepass")) > MAX_FIELD_BYTES:
        raise ValueError(f"{where}, row {row}: the {name} id has more than {MAX_FIELD_BYTES} bytes (ids are short "
                         "names)")
    return ident


def _column(table, name) -> list:
    module = type(table).__module__.split(".")[0]
    if module == "pyarrow":
        return table.column(name).to_pylist()
    if module == "polars":
        return table.get_column(name).to_list()
    return table[name].tolist()


def _pick(names: list, wanted: tuple, what: str, field: str, where: str):
    found = [n for n in names if str(n).lower() in wanted]
    if len(found) > 1:  # two names for one field (qid and query), or one name twice: which is meant is a guess
        raise ValueError(f"{where} has {len(found)} columns that could be the {field}: "
                         f"{', '.join(repr(str(n)) for n in found)}; keep one (drop or rename the others)")
    if found:
        return found[0]
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
        add_once(out, _id(qid, "query", where, row), _id(docid, "document", where, row), value,
                 f"{where}, row {row}", what)
    return out


__all__ = ["as_mapping", "is_table", "is_table_path", "QUERY_COLUMNS", "DOC_COLUMNS", "VALUE_COLUMNS",
           "TABLE_SUFFIXES", "MAX_TABLE_ROWS", "MAX_TABLE_BYTES"]
