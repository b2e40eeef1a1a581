"""Formatting that needs no SymPy: a value's short repr for a message, and a float's fixed decimals.

The float path of whole runs (``lt.evaluate``, ``ltr-teach eval``) and the validation at the door use these
without importing SymPy, whose import alone is about 0.2 s of every command.
"""

from __future__ import annotations

import math
import numbers
import sys


def _brief(x, limit: int = 60) -> str:
    """``repr(x)`` cut to ``limit`` characters (a 10**400 or a long list in a message helps no one)."""
    if isinstance(x, numbers.Integral) and not isinstance(x, bool) and abs(int(x)).bit_length() > 200:
        return f"an integer of about {abs(int(x)).bit_length() * 0.30103:.0f} digits"
    sympy = sys.modules.get("sympy")  # a SymPy number exists only once SymPy was imported
    if sympy is not None and isinstance(x, sympy.Rational) and max(abs(int(x.p)), int(x.q)).bit_length() > 200:
        return f"a fraction of about {max(abs(int(x.p)), int(x.q)).bit_length() * 0.30103:.0f} digits"
    try:
        text = repr(x)
    except Exception:  # noqa: BLE001 - a broken __repr__ must not hide the real message
        text = f"<{type(x).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def fmt_decimal(x: float, places: int = 6) -> str:
    """``0.944227``: a fixed number of decimals, trailing zeros trimmed; ``2.5e+20`` from 1e16 up."""
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if abs(x) >= 1e16:  # beyond the integers a float holds exactly: six decimals would only pad zeros
        mantissa, exponent = f"{x:.{places}e}".split("e")
        return f"{mantissa.rstrip('0').rstrip('.')}e{exponent}"
    text = f"{x:.{places}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text
