"""The classroom's handling of a teacher's files: reading them bounded, showing names safely, writing inside an
output folder only, and CSV a spreadsheet cannot run."""

from __future__ import annotations

import csv
import io
import os
import re
import stat
from pathlib import Path

from ..core.files import read_bytes_at_most

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _shown(name) -> str:
    """A file name or id as it may be printed on a terminal: control characters, newlines and bidi marks escaped.

    >>> _shown("2026022.ipynb\\n2026022: graded, 8 of 8 points")
    '2026022.ipynb\\\\n2026022: graded, 8 of 8 points'
    """
    text = str(name)
    return _CONTROL.sub(lambda m: m.group(0).encode("unicode_escape").decode("ascii"), text)


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit] + f"… ({len(text)} characters)"


def _read_teacher_bytes(path, what: str, limit: int) -> bytes:
    """A teacher's file (roster, record, overrides, an LMS zip): a regular file of at most ``limit`` bytes."""
    try:
        data = read_bytes_at_most(path, limit)
    except OSError as exc:
        raise ValueError(f"{what} = '{_shown(path)}' cannot be read: {_shown(exc.strerror or exc)}") from None
    if len(data) > limit:
        raise ValueError(f"{what} = '{_shown(path)}' is over {limit:,} bytes: not read")
    return data


def _read_text(path, what: str, limit: int) -> str:
    """A teacher's text file (roster, record, overrides): a regular file of at most ``limit`` bytes, UTF-8."""
    data = _read_teacher_bytes(path, what, limit)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{what} = '{_shown(path)}' is not UTF-8 text ({exc.reason} at byte {exc.start}); "
                         "save it as UTF-8 CSV") from None


#: What makes a spreadsheet read a cell as a formula when it starts the cell (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _csv_safe(value) -> str:
    """A cell a spreadsheet shows as text: one starting with = + - @ (or a tab / carriage return) gets a ``'`` first,
    as OWASP's CSV-injection advice says; a plain number (``-3``, ``+0.25``) is a number, not a formula, and is kept.

    >>> _csv_safe("=cmd|' /C calc'!A1"), _csv_safe("-1-1"), _csv_safe("@SUM(A1)"), _csv_safe("-3"), _csv_safe("李雷")
    ("'=cmd|' /C calc'!A1", "'-1-1", "'@SUM(A1)", '-3', '李雷')
    """
    text = "" if value is None else str(value)
    if _PLAIN_NUMBER.fullmatch(text):  # +0.2937 or -3 is a number to a spreadsheet, not a formula: keep it
        return text
    return "'" + text if text.startswith(FORMULA_STARTS) else text


_PLAIN_NUMBER = re.compile(r"[+-]?(?:[0-9]{1,15}(?:\.[0-9]{1,15})?|\.[0-9]{1,15})")


def _csv_writer(handle):
    return csv.writer(handle, lineterminator="\r\n")


def csv_text(rows) -> str:
    """Rows as CSV text (``\\r\\n`` between rows, as RFC 4180 and both LMSs' exports write); cells as given."""
    buffer = io.StringIO()
    _csv_writer(buffer).writerows(rows)
    return buffer.getvalue()


def through_link(folder: Path, name: str) -> bool:
    """Whether ``folder / name`` or a folder on the way to it (inside ``folder``) is a symbolic link."""
    path = Path(folder)
    for part in Path(name).parts:
        path = path / part
        if path.is_symlink():
            return True
    return False


def write_inside(folder, name: str, text: str, what: str, encoding: str = "utf-8") -> Path:
    """Write ``text`` to ``folder / name``, never outside ``folder``: a symbolic link planted in the folder (the file
    itself or a folder on the way) is refused, and so is a FIFO or a device where the file should be.

    Raises
    ------
    ValueError
        Naming the option (``what``), the folder and the file.
    """
    folder = Path(folder)
    if through_link(folder, name):
        raise ValueError(f"{what} = '{_shown(folder)}': {_shown(name)} is, or is inside, a symbolic link, which could "
                         "write outside the folder; not written (remove the link)")
    path = folder / name
    try:
        path.parent.mkdir(parents=True, exist_ok=True)  # after the check: what is created here is a real folder
        flags = (os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
                 | getattr(os, "O_BINARY", 0))
        descriptor = os.open(path, flags, 0o666)
    except FileExistsError:
        raise ValueError(f"{what} = '{_shown(folder)}': {_shown(path)} is in the way (a file where a folder should "
                         "be); not written") from None
    except OSError as exc:
        raise ValueError(f"{what} = '{_shown(folder)}': {_shown(path)} cannot be written: "
                         f"{_shown(exc.strerror or exc)}") from None
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        raise ValueError(f"{what} = '{_shown(folder)}': {_shown(path)} exists and is not a regular file; not written")
    if getattr(os, "O_NONBLOCK", 0):  # opened without blocking (a FIFO would have waited for a reader): undo it
        os.set_blocking(descriptor, True)
    with os.fdopen(descriptor, "w", encoding=encoding, newline="") as handle:
        handle.write(text)
    return path


def folder_for_writing(folder, what: str) -> Path:
    """``folder``, created if missing; a file (or anything but a folder) there is refused, by its name."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"{what} = '{_shown(folder)}' is a file, not a folder; give a folder (it gets one file per "
                         "student)")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueError(f"{what} = '{_shown(folder)}' cannot be created: {_shown(exc.strerror or exc)}") from None
    return folder
