"""Exact numbers: conversion of user input to SymPy, exact logarithms, and formatting.

Every value in the package is a SymPy number. Logarithms stay exact as ``log2(3)`` or
``ln(3)`` (two small SymPy functions that print the way a student writes them) and are only
evaluated when a float is asked for.
"""

from __future__ import annotations

import functools
import math
import numbers
from fractions import Fraction

import sympy


class _ExactLog(sympy.Function):
    """An exact logarithm that stays symbolic; subclasses give ``_eval_rewrite_as_log`` and ``_latex_name``."""

    _latex_name = ""

    def _eval_evalf(self, prec):
        return self._eval_rewrite_as_log(self.args[0])._eval_evalf(prec)

    def _eval_is_positive(self):
        return (self.args[0] > 1) if self.args[0].is_number else None

    def _latex(self, printer):
        return f"{self._latex_name} {printer._print(self.args[0])}"


class log2(_ExactLog):  # lower case: named as students write it
    """Exact base-2 logarithm; ``log2(4)`` is the integer 2, ``log2(3)`` stays symbolic."""

    _latex_name = r"\log_2"

    @classmethod
    def eval(cls, x):
        if isinstance(x, sympy.Integer) and x > 0 and (int(x) & (int(x) - 1)) == 0:
            return sympy.Integer(int(x).bit_length() - 1)
        return None

    def _eval_rewrite_as_log(self, x, **kwargs):
        return sympy.log(x) / sympy.log(2)


class ln(_ExactLog):  # lower case: named as students write it
    """Exact natural logarithm that prints as ``ln(3)`` (SymPy's own prints ``log(3)``)."""

    _latex_name = r"\ln"

    @classmethod
    def eval(cls, x):
        if x == 1:
            return sympy.Integer(0)
        return None

    def _eval_rewrite_as_log(self, x, **kwargs):
        return sympy.log(x)


def to_exact(x, name: str) -> sympy.Rational:
    """Convert one user-supplied real number to a SymPy Rational, exactly.

    Floats are read through their shortest decimal form, so ``0.1`` becomes ``1/10``.
    Raises ``ValueError`` naming ``name`` for NaN, infinities and non-numbers.
    """
    if isinstance(x, bool):
        return sympy.Integer(int(x))
    if isinstance(x, sympy.Basic):
        if x.is_Rational:
            return x
        if x.is_number and x.is_finite and x.is_real:
            raise ValueError(f"{name} = {x} is not a rational number; give an int, a float or a fraction")
        raise ValueError(f"{name} = {x} is not allowed; values must be finite numbers")
    if isinstance(x, numbers.Integral):
        return sympy.Integer(int(x))
    if isinstance(x, Fraction):
        return sympy.Rational(x.numerator, x.denominator)
    if isinstance(x, numbers.Real):
        f = float(x)
        if math.isnan(f) or math.isinf(f):
            raise ValueError(f"{name} = {f} is not allowed; values must be finite numbers")
        return sympy.Rational(repr(f))
    raise ValueError(f"{name} = {x!r} is not a number; give an int, a float or a fraction")


def to_float(e) -> float:
    """The float of an exact SymPy value (NaN for SymPy's ``nan``).

    The expression tree is evaluated node by node (sums with ``math.fsum``); each exact logarithm
    is evaluated once and cached. Accurate to a few units in the last place, and fast enough for a
    widget that re-renders on every slider move.
    """
    if e is sympy.nan:
        return math.nan
    if isinstance(e, sympy.Rational):
        return float(Fraction(int(e.p), int(e.q)))
    return _tree_float(e)


@functools.lru_cache(maxsize=4096)
def _tree_float(e) -> float:
    if isinstance(e, sympy.Rational):
        return float(Fraction(int(e.p), int(e.q)))
    if isinstance(e, sympy.Add):
        return math.fsum(_tree_float(a) for a in e.args)
    if isinstance(e, sympy.Mul):
        out = 1.0
        for a in e.args:
            out *= _tree_float(a)
        return out
    if isinstance(e, sympy.Pow) and e.exp.is_Integer:
        return _tree_float(e.base) ** int(e.exp)
    if isinstance(e, log2) and e.args[0].is_Rational:
        return math.log2(Fraction(int(e.args[0].p), int(e.args[0].q)))
    if isinstance(e, (ln, sympy.log)) and len(e.args) == 1 and e.args[0].is_Rational:
        return math.log(Fraction(int(e.args[0].p), int(e.args[0].q)))
    return float(sympy.N(e, 20))


def fmt_decimal(x: float, places: int = 6) -> str:
    """``0.944227``: a fixed number of decimals, trailing zeros trimmed."""
    if math.isnan(x):
        return "nan"
    text = f"{x:.{places}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


@functools.lru_cache(maxsize=4096)
def fmt_exact(e) -> str:
    """The exact value as a student writes it: ``7``, ``599/840``, ``3/log2(3)``."""
    if e is sympy.nan:
        return "nan"
    return sympy.sstr(e)


def terminates(r: sympy.Rational, places: int = 6) -> bool:
    """Whether ``r`` has an exact decimal form with at most ``places`` decimals."""
    q = int(r.q)
    for p in (2, 5):
        while q % p == 0:
            q //= p
    return q == 1 and abs(float(r) * 10**places - round(float(r) * 10**places)) < 1e-9


def fmt_cell(e, max_exact: int = 16) -> str:
    """One table cell: the exact form and its decimal, ``7/8 = 0.875``, ``3/log2(3) ≈ 1.892789``.

    Integers print alone; exact forms longer than ``max_exact`` characters print only the decimal.
    """
    if e is None:
        return "–"
    if isinstance(e, str):
        return e
    if isinstance(e, (int, numbers.Integral)) and not isinstance(e, bool):
        return str(e)
    if isinstance(e, bool):
        return "yes" if e else "no"
    if e is sympy.nan:
        return "nan"
    if isinstance(e, sympy.Integer):
        return str(e)
    value = to_float(e)
    if isinstance(e, sympy.Rational):
        sign = "=" if terminates(e) else "≈"
        return f"{fmt_exact(e)} {sign} {fmt_decimal(value)}"
    text = fmt_exact(e)
    if len(text) <= max_exact:
        return f"{text} ≈ {fmt_decimal(value)}"
    return f"≈ {fmt_decimal(value)}"
