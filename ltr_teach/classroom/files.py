"""The classroom's handling of a teacher's files: reading them bounded, showing names safely, writing CSV a
spreadsheet cannot run."""

from __future__ import annotations

import csv
import re

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


def _csv_safe(value) -> str:
    """A spreadsheet reads a cell starting with = + - @ (or a tab / carriage return) as a formula: quote it."""
    text = "" if value is None else str(value)
    if _PLAIN_NUMBER.fullmatch(text):  # +0.2937 or -3 is a number to a spreadsheet, not a formula: keep it
        return text
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


_PLAIN_NUMBER = re.compile(r"[+-]?(?:[0-9]{1,15}(?:\.[0-9]{1,15})?|\.[0-9]{1,15})")


def _csv_writer(handle):
    return csv.writer(handle, lineterminator="\r\n")
