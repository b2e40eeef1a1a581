"""Points as a spreadsheet reads them, and the partial-credit rule an assignment states."""

from __future__ import annotations

import re
from fractions import Fraction

from .files import _short


def points_text(points) -> str:
    """Points as a spreadsheet reads them: ``2``, ``0.5``, ``0.33`` (two decimals when the fraction does not end).

    >>> from fractions import Fraction
    >>> points_text(2), points_text(Fraction(1, 2)), points_text(Fraction(2, 3))
    ('2', '0.5', '0.67')
    """
    value = Fraction(points)
    if value.denominator == 1:
        return str(value.numerator)
    text = f"{float(value):.6f}".rstrip("0").rstrip(".")
    return text if Fraction(text) == value else f"{float(value):.2f}"


def _whole(value: Fraction):
    return value.numerator if value.denominator == 1 else value


def exact_share(text: str) -> Fraction:
    """A number a teacher typed, already checked to be digits, an optional decimal part and an optional ``/`` and
    divisor (``2``, ``0.5``, ``1/2``, ``0.5/2``), as an exact fraction. ``Fraction("0.5/2")`` refuses a decimal over a
    divisor; this reads both sides exactly.

    >>> exact_share("0.5/2"), exact_share("3"), exact_share("1.25")
    (Fraction(1, 4), Fraction(3, 1), Fraction(5, 4))
    """
    numerator, _slash, divisor = text.partition("/")
    return Fraction(numerator) / Fraction(divisor or 1)


#: The near misses a partial-credit rule can give points for: a too coarse decimal, and a wrong answer whose
#: slip the checker names.
PARTIAL_KINDS = ("too coarse", "slip")


def parse_partial(text) -> dict:
    """A partial-credit rule, ``"too coarse=1/2,slip=1/4"``: the share of an exercise's points each near miss gets.

    Examples
    --------
    >>> parse_partial("too coarse=1/2, slip=0.25")
    {'too coarse': '1/2', 'slip': '1/4'}
    >>> parse_partial("")
    {}
    """
    if isinstance(text, dict):
        pieces = [f"{k}={v}" for k, v in text.items()]
    else:
        pieces = [p for p in str(text or "").split(",") if p.strip()]
    rule = {}
    for piece in pieces:
        kind, _sep, share = piece.partition("=")
        kind = " ".join(kind.split()).lower()
        if kind not in PARTIAL_KINDS:
            raise ValueError(f"partial = {_short(str(text), 80)!r}: {_short(kind, 40)!r} is not a near miss; "
                             f"give {' and/or '.join(PARTIAL_KINDS)}, as in \"too coarse=1/2,slip=1/4\"")
        share = share.strip()
        if not re.fullmatch(r"[0-9]{1,6}(?:\.[0-9]{1,6})?(?:/[0-9]{1,6})?", share):
            raise ValueError(f"partial = {_short(str(text), 80)!r}: the share of {kind!r} must be a fraction from 0 "
                             "to 1, such as 1/2 or 0.25")
        try:
            value = exact_share(share)
        except ZeroDivisionError:
            raise ValueError(f"partial = {_short(str(text), 80)!r}: the share of {kind!r} divides by zero") from None
        if not 0 <= value <= 1:
            raise ValueError(f"partial = {_short(str(text), 80)!r}: the share of {kind!r} is {share}; it must be "
                             "from 0 to 1")
        rule[kind] = str(value)
    return rule
