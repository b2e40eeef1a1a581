"""How a student writes a value: rounded to some significant digits, as a percentage, one unit off."""

from decimal import ROUND_DOWN, ROUND_HALF_EVEN, Decimal

import sympy


def _decimal(value) -> Decimal:
    return Decimal(str(sympy.N(value, 40)))


def rounded(value, significant: int) -> str:
    """``value`` rounded to ``significant`` digits, trailing zeros kept (0.370, not 0.37)."""
    d = _decimal(value)
    unit = Decimal(1).scaleb(d.adjusted() - significant + 1)
    return format(d.quantize(unit, rounding=ROUND_HALF_EVEN), "f")


def percent(value, significant: int) -> str:
    """``value`` as a percentage with ``significant`` digits: 0.944227 -> '94.4%'."""
    return rounded(sympy.Integer(100) * value, significant) + "%"


def one_unit_off(value, significant: int, direction: int) -> str:
    """The rounded form moved one unit in its last place: a near miss."""
    text = rounded(value, significant)
    d = Decimal(text)
    return format(d + direction * Decimal(1).scaleb(d.as_tuple().exponent), "f")


def truncated(value, significant: int) -> str:
    """``value`` cut (not rounded) after ``significant`` digits: 13/15 -> '0.8666' at 4."""
    d = _decimal(value)
    unit = Decimal(1).scaleb(d.adjusted() - significant + 1)
    return format(d.quantize(unit, rounding=ROUND_DOWN), "f")
