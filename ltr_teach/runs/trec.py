"""Reading and writing TREC qrels and run files.

qrels: one judgment a line, ``qid iter docid grade`` (the ``iter`` column is ignored, as by
trec_eval). run: one retrieved document a line, ``qid Q0 docid rank score tag``; trec_eval ignores
the rank column and orders by score, and so does :func:`ltr_teach.runs.evaluate`.

The file rules are trec_eval 10's (``get_qrels.c``, ``get_trec_results.c``):

* fields are separated by any run of blanks (spaces, tabs; a ``\\r`` before the newline is a blank);
* a line whose first non-blank character is ``#`` is a comment; blank lines are skipped;
* a run line may carry more fields after the tag (ignored); a qrels line has exactly four;
* a grade is a whole number, negative ones included (TREC Web track: -1 judged non-relevant,
  -2 spam; the evaluator scores them as not relevant, as trec_eval does);
* a score is a decimal number (``12``, ``-0.5``, ``1e-3``); Python-only spellings (``1_0``,
  ``nan``, ``inf``, ``0x10``) are refused, where C's ``atof`` would read them differently;
* the file is UTF-8 (a byte-order mark at the start is dropped); ids are compared as text.

Bad input raises ``ValueError`` naming the file and line. A line longer than
:data:`MAX_LINE_BYTES` is refused (``/dev/zero`` has no line end), and a named pipe without a writer
reads as empty instead of waiting forever.

The reader is vectorised: the bytes of a block of lines are split into fields with NumPy, and
scores parsed column-wise (:func:`_decimals`), so a 7-million-line run costs a few seconds, not a
Python loop per line. :func:`_read_lines` is the plain line-by-line reader it must agree with (the
tests compare them) and the one that words the error when the fast path finds a problem.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass

import numpy as np

#: The longest line accepted, in bytes; longer ones are an error (a binary file or /dev/zero).
MAX_LINE_BYTES = 1 << 20
#: The longest field (query id, document id, grade, score), in bytes: the reader pads every field of a block to the
#: longest, so one 5 MB id would take gigabytes.
MAX_FIELD_BYTES = 512
_BLOCK_BYTES = 1 << 21  # 2 MB: the arrays of a block's fields (several times its bytes) stay small
_BOM = b"\xef\xbb\xbf"
#: ``os.O_NONBLOCK`` where the system has it (not on Windows, which has no FIFOs to wait on either)
_O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_SCORE = re.compile(rb"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
_GRADE = re.compile(rb"[+-]?\d+")
#: what a qrels / run line holds, and how many fields it may have at least and at most
_LAYOUTS = {"qrels": ("qid iter docid grade", 4, 4), "run": ("qid Q0 docid rank score tag", 6, None)}


def _name(path) -> str:
    return os.fspath(path) if not isinstance(path, bytes) else path.decode("utf-8", "replace")


def _open(path, what: str):
    """A binary file object for ``path``; a FIFO without a writer reads as empty instead of blocking."""
    if not isinstance(path, (str, os.PathLike)):
        raise ValueError(f"{what} must be a dict or the path of a TREC {what} file; got {type(path).__name__}")
    name = _name(path)
    try:
        # O_NONBLOCK: opening a FIFO for reading waits for a writer; with it the open returns at once.
        # Windows has neither FIFOs nor O_NONBLOCK, but has O_BINARY: without it the C runtime's read
        # turns \r\n into \n and stops at a Ctrl-Z byte
        fd = os.open(path, os.O_RDONLY | _O_NONBLOCK | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        if os.path.isdir(path):  # Windows refuses to open a directory (permission denied): name it as here
            raise ValueError(f"{what} = {name!r} is a directory, not a TREC {what} file") from None
        raise ValueError(f"{what} = {name!r} cannot be read: {exc.strerror}") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise ValueError(f"{what} = {name!r} is a directory, not a TREC {what} file")
        if _O_NONBLOCK:  # reads block again (a FIFO with a writer waits for data; one with none reads as empty)
            os.set_blocking(fd, True)  # fcntl's F_SETFL without importing the Unix-only fcntl
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb", buffering=0)



def _blocks(path, what: str, progress=None):
    """``(data, first_line)`` for blocks of whole lines of the file; ``data`` ends with a newline.

    Checks UTF-8 and the line length; a read error becomes a ``ValueError`` naming the file.
    ``progress(bytes_read, total_bytes)`` is called after each block when given.
    """
    name = _name(path)
    with _open(path, what) as handle:
        try:
            total = os.fstat(handle.fileno()).st_size
        except OSError:  # pragma: no cover - fstat of an open descriptor does not fail
            total = 0
        carry, line, done, first = b"", 1, 0, True
        while True:
            try:
                data = handle.read(_BLOCK_BYTES) or b""
            except OSError as exc:
                raise ValueError(f"{what} = {name!r} cannot be read: {exc.strerror}") from None
            done += len(data)
            if first:
                data, first = data.removeprefix(_BOM), False
            if not data:  # the end: what is left is a last line without a newline
                if carry:
                    _check_utf8(carry, name, line)
                    yield carry + b"\n", line
                return
            data = carry + data
            end = data.rfind(b"\n") + 1
            block, carry = data[:end], data[end:]
            if len(carry) > MAX_LINE_BYTES:
                at = line + block.count(b"\n")
                raise ValueError(f"{name}:{at}: the line is longer than {MAX_LINE_BYTES} "
                                 f"bytes; a TREC {what} file has short text lines")
            if block:
                _check_utf8(block, name, line)
                yield block, line
                line += int(np.count_nonzero(np.frombuffer(block, dtype=np.uint8) == 10))  # 3x bytes.count's speed
            if progress is not None:
                progress(done, total)


def _check_utf8(block: bytes, name: str, line: int) -> None:
    if block.isascii():  # one C pass, without building the text
        return
    try:
        block.decode("utf-8")
    except UnicodeDecodeError as exc:
        at = line + block.count(b"\n", 0, exc.start)
        raise ValueError(f"{name}:{at}: the text is not UTF-8 (byte 0x{block[exc.start]:02x}); "
                         "save the file as UTF-8") from None


def _text_bytes(block: bytes, first_line: int, name: str, what: str, buf=None, with_controls=False):
    """The block as a byte array (and its bytes below 32 with ``with_controls``); ``ValueError`` at the first
    control character other than a blank."""
    buf = np.frombuffer(block, dtype=np.uint8) if buf is None else buf
    controls = buf[buf < 32]  # line ends and blanks, and any other control character
    if ((controls < 9) | (controls > 13)).any():
        bad = int(np.flatnonzero((buf < 9) | ((buf > 13) & (buf < 32)))[0])
        at = first_line + block.count(b"\n", 0, bad)
        raise ValueError(f"{name}:{at}: control character 0x{buf[bad]:02x}; a TREC {what} file is text")
    return (buf, controls) if with_controls else buf


def _split(block: bytes, first_line: int, name: str, what: str, wanted=None):
    """The content lines of a block: their line numbers and the start and end of each of their fields.

    Returns ``(buf, lines, starts, ends)``: ``starts[j]``/``ends[j]`` are the byte offsets of field j
    of every content line (comments and blank lines dropped).
    """
    layout, least, most = _LAYOUTS[what]
    padded = np.frombuffer(block + _PAD, dtype=np.uint8)  # the gathers read whole 8-byte words past a field
    buf, controls = _text_bytes(block, first_line, name, what, padded[:len(block)], with_controls=True)
    wanted = range(least) if wanted is None else wanted
    regular = _split_regular(buf, controls, first_line, least, most, wanted)
    if regular is not None:
        lines, starts_of, ends_of = regular
        _check_field_lengths(lines, starts_of, ends_of, name, layout)
        return padded, lines, starts_of, ends_of
    # every byte <= 32 left is a blank (space, tab, CR, LF, VT, FF). The edges of the blank runs are the
    # field boundaries, alternately a start and an end since the block ends with a newline
    edges = np.flatnonzero(np.diff((buf <= 32).view(np.int8), prepend=np.int8(1)))
    starts, ends = edges[0::2], edges[1::2]
    newlines = np.flatnonzero(buf == 10)
    # fields before each line end, by a search of the (few) line ends among the (many) field starts
    fields_through = np.searchsorted(starts, newlines)
    counts = np.diff(fields_through, prepend=0)
    first_field = fields_through - counts
    content = counts > 0
    comment = np.zeros(len(counts), dtype=bool)
    comment[content] = buf[starts[first_field[content]]] == ord("#")
    keep = content & ~comment
    bad = keep & ((counts < least) | ((counts > most) if most is not None else False))
    if bad.any():
        i = int(np.argmax(bad))
        wanted = f"{least} fields" if most == least else f"at least {least} fields"
        raise ValueError(f"{name}:{first_line + i}: a {what} line has {wanted} ({layout}); got {counts[i]}")
    line_lengths = np.diff(newlines, prepend=-1) - 1
    if len(line_lengths) and line_lengths.max() > MAX_LINE_BYTES:
        i = int(np.argmax(line_lengths > MAX_LINE_BYTES))
        raise ValueError(f"{name}:{first_line + i}: the line is longer than {MAX_LINE_BYTES} bytes; a TREC {what} "
                         "file has short text lines")
    field0 = first_field[keep]
    lines = first_line + np.flatnonzero(keep)
    starts_of, ends_of = {j: starts[field0 + j] for j in wanted}, {j: ends[field0 + j] for j in wanted}
    _check_field_lengths(lines, starts_of, ends_of, name, layout)
    return padded, lines, starts_of, ends_of


def _split_regular(buf, controls, first_line: int, least: int, most, wanted):
    """:func:`_split`'s fields for a block in the usual shape, or None when it is not in it: every line
    holds the same number of fields, each followed by exactly one blank (a space or a tab between
    fields, the newline after the last); no comment, blank line or leading blank, no CR. Then the
    blanks alone are the field ends (one search over the bytes, no edge pairs and no line search), and
    the general path, which would find the same fields, is not needed. ``controls``: the block's bytes
    below 32, every one of them a blank (9 to 13)."""
    n_lines = int(np.count_nonzero(controls == 10))
    if not n_lines or buf[0] <= 32 or (controls > 10).any():  # a CR, vertical tab or form feed: the general path
        return None
    blank = buf <= 32
    if (blank[1:] & blank[:-1]).any():  # two blanks in a row: an empty field, a blank line, CR LF ...
        return None
    blanks = np.flatnonzero(blank)
    del blank
    per_line, rest = divmod(len(blanks), n_lines)
    if rest or per_line < least or (most is not None and per_line > most):
        return None
    table = blanks.reshape(n_lines, per_line)
    last = table[:, -1]
    if (buf[last] != 10).any():  # lines of different lengths whose blanks happen to add up
        return None
    line_starts = np.empty(n_lines, dtype=np.int64)
    line_starts[0] = 0
    line_starts[1:] = last[:-1] + 1
    if (buf[line_starts] == ord("#")).any() or (last - line_starts).max() > MAX_LINE_BYTES:
        return None  # a comment, or a line too long: the general path words it
    starts_of = {j: line_starts if j == 0 else table[:, j - 1] + 1 for j in wanted}
    ends_of = {j: table[:, j] for j in wanted}
    return first_line + np.arange(n_lines), starts_of, ends_of


def _check_field_lengths(lines, starts_of, ends_of, name: str, layout: str) -> None:
    for j in starts_of:
        # the fields become rows of a matrix as wide as the longest one: one 5 MB id would make it gigabytes
        too_long = ends_of[j] - starts_of[j] > MAX_FIELD_BYTES
        if too_long.any():
            i = int(np.argmax(too_long))
            raise ValueError(f"{name}:{int(lines[i])}: field {j + 1} ({layout.split()[j]}) is "
                             f"{int(ends_of[j][i] - starts_of[j][i])} bytes long; a field has at most "
                             f"{MAX_FIELD_BYTES} bytes (document ids are short names)")


def _gather(buf: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """The fields as rows of a zero-padded ``uint8`` matrix whose width is a multiple of 8.

    ``buf`` holds at least ``MAX_FIELD_BYTES + 8`` bytes after the last field start (:data:`_PAD`): each
    row is read as 8-byte words (an unaligned view of the bytes at every offset), and the bytes past the
    field's end are masked off, one gather per word instead of one per byte."""
    lengths = ends - starts
    longest = int(lengths.max()) if len(lengths) else 0
    words = max(1, -(-longest // 8))
    out = np.empty((len(starts), words), dtype="<u8")
    # the little-endian word at offset i holds the bytes i..i+7, byte i lowest
    window = np.ndarray((len(buf) - 7,), dtype="<u8", buffer=buf, strides=(1,))
    for w in range(words):
        kept = np.clip(lengths - 8 * w, 0, 8)
        np.bitwise_and(window[starts + 8 * w], _LOW_BYTES[kept], out=out[:, w])
    return out.view(np.uint8)


#: ``_LOW_BYTES[n]``: a little-endian word's mask of its first n bytes
_LOW_BYTES = np.array([(1 << (8 * n)) - 1 for n in range(9)], dtype=np.uint64)
#: zero bytes after a block, so that :func:`_gather` may read a whole word past any field
_PAD = bytes(MAX_FIELD_BYTES + 16)


def _as_bytes(matrix: np.ndarray) -> np.ndarray:
    """The rows of a zero-padded byte matrix as a NumPy ``S`` array (trailing NULs are padding)."""
    return np.ascontiguousarray(matrix).view(f"S{matrix.shape[1]}").ravel()


def _decimals(matrix: np.ndarray, lengths: np.ndarray):
    """``(values, ok)``: plain decimals (``-12.375``) parsed column-wise; ``ok`` False where the fast path
    does not apply (exponents, more than 15 significant digits, anything else) and the value is 0.

    With at most 15 significant digits the mantissa m and 10^f (f <= 22) are exact doubles, so m / 10^f
    is the correctly rounded double of the text, the same as ``float(text)`` (Clinger's fast path).
    """
    n = len(lengths)
    mantissa = np.zeros(n, dtype=np.int64)
    significant = np.zeros(n, dtype=np.int64)
    digits = np.zeros(n, dtype=np.int64)
    after_dot = np.zeros(n, dtype=np.int64)
    dot = np.zeros(n, dtype=bool)
    negative = np.zeros(n, dtype=bool)
    ok = lengths > 0
    for j in range(int(lengths.max()) if n else 0):
        c = matrix[:, j]
        active = lengths > j
        is_digit = active & (c >= 48) & (c <= 57)
        is_dot = active & (c == 46)
        is_sign = active & ((c == 45) | (c == 43)) if j == 0 else False
        if j == 0:
            negative = active & (c == 45)
        ok &= ~active | is_digit | (is_dot & ~dot) | is_sign
        dot |= is_dot
        mantissa = np.where(is_digit, mantissa * 10 + (c.astype(np.int64) - 48), mantissa)
        significant += is_digit & (mantissa > 0)
        digits += is_digit
        after_dot += is_digit & dot
    ok &= (digits > 0) & (significant <= 15) & (after_dot <= 22)
    values = np.where(ok, mantissa, 0) / np.power(10.0, np.where(ok, after_dot, 0))
    values[negative] *= -1.0
    return values, ok


def _numbers(matrix, lengths, lines, name: str, what: str, integer: bool) -> np.ndarray:
    """Scores (float64) or grades (int64, or object for huge ones) of a column, each checked like the
    line-by-line reader does; ``ValueError`` naming the file and line of the first bad one."""
    values, ok = _decimals(matrix, lengths)
    if integer:
        ok &= ~(matrix == ord(".")).any(axis=1)
    bad = np.flatnonzero(~ok)
    if not len(bad):
        return values.astype(np.int64) if integer else values
    exact = values.astype(object) if integer else values
    for i in bad.tolist():
        text = bytes(matrix[i, :lengths[i]])
        exact[i] = _number(text.decode(), f"{name}:{lines[i]}", what, integer)
    if integer and all(abs(v) < 2**62 for v in exact[bad].tolist()):
        return exact.astype(np.int64)
    return exact


def _number(text: str, where: str, what: str, integer: bool = False):
    """One grade (a whole number, as int) or score (a finite decimal, as float) from the text of a field."""
    pattern = _GRADE if integer else _SCORE
    if not pattern.fullmatch(text.encode()):
        allowed = "a whole number such as 2 or -1" if integer else "a decimal such as 0.25, -3 or 1e-4"
        raise ValueError(f"{where}: {what} {text!r} is not a number ({allowed})")
    if integer:
        return int(text)
    value = float(text)
    if not np.isfinite(value):
        raise ValueError(f"{where}: {what} {text!r} must be a finite number (it overflows a double)")
    return value


@dataclass
class Columns:
    """A TREC file as columns, one row per content line, in file order.

    Attributes
    ----------
    qids : list of str
        Every query id, in the order of first appearance.
    q_of : numpy.ndarray
        Each line's query, as an index into ``qids``.
    docs : numpy.ndarray
        Each line's document id: UTF-8 bytes, zero-padded, one row per line (``uint8``).
    values : numpy.ndarray
        Each line's score (run) or grade (qrels).
    """

    qids: list
    q_of: np.ndarray
    docs: np.ndarray
    values: np.ndarray

    def doc_bytes(self, rows=None) -> list:
        """The document ids of the given rows (default all) as ``bytes``."""
        return _as_bytes(self.docs if rows is None else self.docs[rows]).tolist()

    def by_query(self):
        """``(qid, rows)`` for each query, rows in file order."""
        order = np.argsort(self.q_of, kind="stable")
        bounds = np.searchsorted(self.q_of[order], np.arange(len(self.qids) + 1, dtype=self.q_of.dtype))
        for q, qid in enumerate(self.qids):
            yield qid, order[bounds[q]:bounds[q + 1]]


class _Column:
    """A column filled block by block without a list of parts to join at the end (which holds the column
    twice): allocated at once for as many rows as the file can hold (``np.empty`` reserves the memory; a page
    becomes resident only when written), doubled when a pipe turns out longer, widened when a block holds a
    wider field (a byte matrix) or a value that needs another type (a huge grade)."""

    def __init__(self, rows: int, dtype, width=None):
        self.data = np.empty((rows,) if width is None else (rows, width), dtype=dtype)
        self.used = 0

    def add(self, part: np.ndarray) -> None:
        data, end = self.data, self.used + len(part)
        rows = len(data) if end <= len(data) else max(end, 2 * len(data))
        width = data.shape[1:] if part.ndim == 1 else (max(data.shape[1], part.shape[1]),)
        dtype = np.result_type(data.dtype, part.dtype)
        if (rows, *width) != data.shape or dtype != data.dtype:
            grown = np.zeros((rows, *width), dtype=dtype) if part.ndim > 1 else np.empty((rows, *width), dtype=dtype)
            if part.ndim > 1:
                grown[:self.used, :data.shape[1]] = data[:self.used]
            else:
                grown[:self.used] = data[:self.used]
            self.data = data = grown
        if part.ndim > 1:
            data[self.used:end, :part.shape[1]] = part
            data[self.used:end, part.shape[1]:] = 0
        else:
            data[self.used:end] = part
        self.used = end

    def result(self) -> np.ndarray:
        return self.data[:self.used]


def read_columns(path, what: str, progress=None) -> Columns:
    """Read a qrels (``what="qrels"``) or run (``"run"``) file into :class:`Columns`.

    ``progress(bytes_read, total_bytes)`` is called after each block of lines.
    """
    name = _name(path)
    value_field = 3 if what == "qrels" else 4
    try:  # the most lines the file can hold: a run line has at least 12 bytes, a qrels line 8
        rows = os.stat(path).st_size // (8 if what == "qrels" else 12) + 1
    except (OSError, TypeError, ValueError):
        rows = 0
    rows = max(rows, 1024)
    qid_index: dict = {}
    q_col, doc_col = _Column(rows, np.int32), _Column(rows, np.uint8, 8)
    value_col = _Column(rows, np.int64 if what == "qrels" else np.float64)
    for block, first_line in _blocks(path, what, progress):
        buf, lines, starts, ends = _split(block, first_line, name, what, (0, 2, value_field))
        del block
        if not len(lines):
            continue
        qid_matrix = _gather(buf, starts[0], ends[0])
        words = qid_matrix.view("<u8")  # compare ids eight bytes at a time
        change = np.ones(len(qid_matrix), dtype=bool)
        change[1:] = (words[1:] != words[:-1]).any(axis=1)
        runs_at = np.flatnonzero(change)
        qid_rows = _as_bytes(qid_matrix)
        codes = [qid_index.setdefault(q.decode(), len(qid_index)) for q in qid_rows[runs_at].tolist()]
        q_col.add(np.repeat(np.asarray(codes, dtype=np.int32), np.diff(runs_at, append=len(qid_rows))))
        del qid_matrix, words, change, qid_rows
        doc_col.add(_gather(buf, starts[2], ends[2]))
        matrix = _gather(buf, starts[value_field], ends[value_field])
        value_col.add(_numbers(matrix, ends[value_field] - starts[value_field], lines, name,
                               "grade" if what == "qrels" else "score", integer=what == "qrels"))
    return Columns(qids=list(qid_index), q_of=q_col.result(), docs=doc_col.result(), values=value_col.result())


def _read_lines(path, what: str) -> dict:
    """The plain line-by-line reader: ``{qid: {docid: value}}``, the fast reader's oracle and the one
    that words an error with its line (a document twice for one query)."""
    layout, least, most = _LAYOUTS[what]
    name = _name(path)
    out: dict = {}
    for block, first_line in _blocks(path, what):
        _text_bytes(block, first_line, name, what)
        for number, raw in enumerate(block.split(b"\n")[:-1], start=first_line):
            fields = raw.split()
            if not fields or fields[0].startswith(b"#"):
                continue
            where = f"{name}:{number}"
            if len(fields) < least or most is not None and len(fields) > most:
                wanted = f"{least} fields" if most == least else f"at least {least} fields"
                raise ValueError(f"{where}: a {what} line has {wanted} ({layout}); got {len(fields)}")
            for j in (0, 2, 3 if what == "qrels" else 4):
                if len(fields[j]) > MAX_FIELD_BYTES:
                    raise ValueError(f"{where}: field {j + 1} ({layout.split()[j]}) is {len(fields[j])} bytes long; a "
                                     f"field has at most {MAX_FIELD_BYTES} bytes (document ids are short names)")
            qid, docid = fields[0].decode(), fields[2].decode()
            if what == "qrels":
                value = _number(fields[3].decode(), where, "grade", integer=True)
            else:
                value = _number(fields[4].decode(), where, "score")
            add_once(out, qid, docid, value, where, what)
    return out


def add_once(out: dict, qid, docid, value, where: str, what: str) -> None:
    """``out[qid][docid] = value``, refusing a document twice for one query (trec_eval refuses it too);
    ``where`` says where the row came from (``file:line``, ``table, row n``)."""
    seen = out.setdefault(qid, {})
    if docid in seen:
        verb = "judged" if what == "qrels" else "retrieved"
        raise ValueError(f"{where}: document {docid!r} is {verb} twice for query {qid!r}")
    seen[docid] = value


def _as_dicts(columns: Columns, path, what: str) -> dict:
    out = {}
    values = columns.values.tolist()
    docs = columns.doc_bytes()
    for qid, rows in columns.by_query():
        rows = rows.tolist()
        judged = {docs[i].decode(): values[i] for i in rows}
        if len(judged) < len(rows):
            return _read_lines(path, what)  # words the error: which document, which line
        out[qid] = judged
    return out


def read_qrels(path) -> dict:
    """``{qid: {docid: grade}}`` from a qrels file (``qid iter docid grade``); grades are ints.

    A repeated (qid, docid) pair or a malformed line raises ``ValueError`` naming the file and line.
    """
    return _as_dicts(read_columns(path, "qrels"), path, "qrels")


def read_run(path) -> dict:
    """``{qid: {docid: score}}`` from a run file (``qid Q0 docid rank score tag``), in file order.

    A document retrieved twice for one query (trec_eval refuses it too) or a malformed line raises
    ``ValueError`` naming the file and line.
    """
    return _as_dicts(read_columns(path, "run"), path, "run")


def write_qrels(qrels: dict, path) -> None:
    """Write ``{qid: {docid: grade}}`` as a qrels file."""
    with open(path, "w", encoding="utf-8") as out:
        for qid, judged in qrels.items():
            for docid, grade in judged.items():
                out.write(f"{qid} 0 {docid} {grade}\n")


def write_run(run: dict, path, tag: str = "ltr_teach") -> None:
    """Write ``{qid: {docid: score}}`` as a run file, each query's documents by score descending."""
    with open(path, "w", encoding="utf-8") as out:
        for qid, scored in run.items():
            ranked = sorted(scored.items(), key=lambda item: -item[1])
            for rank, (docid, score) in enumerate(ranked, start=1):
                out.write(f"{qid} Q0 {docid} {rank} {score!r} {tag}\n")


__all__ = ["read_qrels", "read_run", "write_qrels", "write_run", "read_columns", "Columns", "MAX_LINE_BYTES",
           "MAX_FIELD_BYTES"]
