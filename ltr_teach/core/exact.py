"""Exact numbers: conversion of user input to SymPy, exact logarithms, and formatting.

Every value in the package is a SymPy number. Logarithms stay exact as ``log2(3)`` or
``ln(3)`` (two small SymPy functions that print the way a student writes them) and are only
evaluated when a float is asked for.
"""

from __future__ import annotations

import bisect
import functools
import math
import numbers
import sys
from collections import OrderedDict
from fractions import Fraction

import mpmath
import sympy
from sympy.core.add import _args_sortkey

from .plain import _brief, fmt_decimal

#: The largest finite float: an input number beyond it has no float, so ``.value`` could not hold it.
FLOAT_MAX = sys.float_info.max
#: A fraction whose numerator or denominator has more digits than this is shown by its decimal only
#: (ERR's reach probabilities have denominators 2^(g_max·rank); printing 4,000-digit fractions helps no one
#: and Python refuses to print integers of more than 4,300 digits).
SHOWN_DIGITS = 30
#: Floats between these magnitudes are safe to add and divide in the fast float evaluation: a sum of
#: 10,000 terms of up to 2^900 stays finite and a quotient of two of them keeps full precision.
_SAFE_MIN, _SAFE_MAX = 2.0**-900, 2.0**900


class _ExactLog(sympy.Function):
    """An exact logarithm that stays symbolic; subclasses give ``_eval_rewrite_as_log`` and ``_latex_name``."""

    _latex_name = ""

    def _eval_evalf(self, prec):
        x = self.args[0]
        if x.is_Rational and x > 0:
            # straight to mpmath: SymPy's printer evaluates every term to order a sum, and going through
            # log(x)/log(2) costs ten times more
            with mpmath.workprec(prec + 20):
                value = self._mpmath_log(mpmath.mpf(int(x.p)) / int(x.q))
            return sympy.Float._new(value._mpf_, prec)
        return self._eval_rewrite_as_log(x)._eval_evalf(prec)

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

    @staticmethod
    def _mpmath_log(x):
        return mpmath.log(x, 2)


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

    @staticmethod
    def _mpmath_log(x):
        return mpmath.log(x)


def to_exact(x, name: str) -> sympy.Rational:
    """Convert one user-supplied real number to a SymPy Rational, exactly.

    Floats are read through their shortest decimal form, so ``0.1`` becomes ``1/10``.
    Raises ``ValueError`` naming ``name`` for NaN, infinities, non-numbers, and exact numbers that no
    float can hold (beyond ±1.8e308, or a fraction whose denominator has more than 330 digits): every
    explanation has a float ``.value``, and ``lt.evaluate`` reads the same numbers as floats.
    """
    if isinstance(x, bool):
        return sympy.Integer(int(x))
    if isinstance(x, sympy.Basic):
        if x.is_Rational:
            return _within_float_range(x, name)
        if x.is_number and x.is_finite and x.is_real:
            raise ValueError(f"{name} = {_brief(x)} is not a rational number; give an int, a float or a fraction")
        raise ValueError(f"{name} = {_brief(x)} is not allowed; values must be finite numbers")
    if isinstance(x, numbers.Integral):
        return _within_float_range(sympy.Integer(int(x)), name)
    if isinstance(x, Fraction):
        return _within_float_range(sympy.Rational(x.numerator, x.denominator), name)
    if isinstance(x, numbers.Real):
        try:
            f = float(x)
        except (OverflowError, ValueError, TypeError):
            raise ValueError(f"{name} = {_brief(x)} is not a finite number a float can hold") from None
        if math.isnan(f) or math.isinf(f):
            raise ValueError(f"{name} = {f} is not allowed; values must be finite numbers")
        return sympy.Rational(repr(f))
    raise ValueError(f"{name} = {_brief(x)} is not a number; give an int, a float or a fraction")


_MAX_P, _ = FLOAT_MAX.as_integer_ratio()
#: The smallest positive float is 2^-1074; a denominator of more than 1100 bits is beyond what a float's
#: shortest decimal form needs (5e-324 is 5/10^324, 1077 bits).
_MIN_EXPONENT, _MAX_Q_BITS = 1074, 1100


def _within_float_range(r: sympy.Rational, name: str) -> sympy.Rational:
    """``r`` when a float can stand for it: 0, or a size between 2^-1074 and 1.8e308 with a denominator
    of at most 1100 bits; else ``ValueError`` naming ``name``."""
    p, q = abs(int(r.p)), int(r.q)
    if p > _MAX_P * q or (p and p << _MIN_EXPONENT < q) or q.bit_length() > _MAX_Q_BITS:
        raise ValueError(
            f"{name} = {_brief(r)} is outside what a float can hold (a size between about 4.9e-324 and 1.8e308, "
            "a denominator of at most 330 digits); give a number of that range"
        )
    return r


class _OutOfSafeRange(ArithmeticError):
    """A float in the fast evaluation left the range where sums and quotients stay exact enough."""


def to_float(e) -> float:
    """The float nearest the exact SymPy value (NaN for SymPy's ``nan``, ±inf beyond the float range).

    The expression tree is evaluated node by node (sums with ``math.fsum``); each exact logarithm is
    evaluated once and cached. That is fast enough for a widget that re-renders on every slider move
    and accurate to a few units in the last place while every number stays between 2^-900 and 2^900.
    Outside that range (grades near 1e308, subnormal scores) float sums would overflow or lose their
    digits, so the value is evaluated with mpmath, whose exponents are unbounded, and rounded once.
    """
    if e is sympy.nan:
        return math.nan
    if isinstance(e, sympy.Rational):
        return _rational_float(e)
    known = _PARTIAL_SUM_FLOATS.get(id(e))
    if known is not None and known[0] is e:
        return known[1]
    try:
        value = _tree_float(e)
    except (_OutOfSafeRange, OverflowError, ZeroDivisionError):
        value = math.nan
    if math.isfinite(value) and (value == 0 or _SAFE_MIN <= abs(value) <= _SAFE_MAX):
        return value
    return _precise_float(e)


def _rational_float(r: sympy.Rational) -> float:
    try:
        return int(r.p) / int(r.q)  # true division of ints rounds correctly, however long they are
    except OverflowError:
        return math.inf if r.p > 0 else -math.inf


@functools.lru_cache(maxsize=256)
def _precise_float(e) -> float:
    return float(sympy.N(e, 20))  # mpmath floats: no overflow, no underflow; float() rounds once (±inf beyond)


@functools.lru_cache(maxsize=65536)
def _tree_float(e) -> float:
    if isinstance(e, sympy.Rational):
        value = _rational_float(e)
        if value != 0 and not _SAFE_MIN <= abs(value) <= _SAFE_MAX or (value == 0 and e.p != 0):
            raise _OutOfSafeRange
        return value
    if isinstance(e, sympy.Add):
        return math.fsum(map(_tree_float, e.args))
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


def fmt_value(e, places: int = 6) -> str:
    """The decimal of an exact value, also beyond the float range (``2e+308`` from mpmath)."""
    value = to_float(e)
    if math.isinf(value) and e.is_finite:
        mantissa, exponent = mpmath.nstr(sympy.N(e, places + 1)._to_mpmath(64), places + 1,
                                          min_fixed=0, max_fixed=0).split("e")
        mantissa = mantissa.rstrip("0").rstrip(".") if "." in mantissa else mantissa
        return f"{mantissa}e{exponent}"
    return fmt_decimal(value, places)


def is_long(e) -> bool:
    """Whether ``e`` holds a fraction with more than :data:`SHOWN_DIGITS` digits above or below the bar."""
    limit = int(SHOWN_DIGITS * 3.3219) + 1  # digits to bits, a little generous
    if isinstance(e, sympy.Rational):
        return abs(int(e.p)).bit_length() > limit or int(e.q).bit_length() > limit
    if isinstance(e, sympy.Basic) and e.args:
        return _has_long_number(e, limit)
    return False


@functools.lru_cache(maxsize=1024)
def _has_long_number(e, limit: int) -> bool:
    return any(abs(int(r.p)).bit_length() > limit or int(r.q).bit_length() > limit for r in e.atoms(sympy.Rational))


#: Expressions with more sum terms than this print term by term in SymPy's stored order: SymPy's own
#: printer orders a sum by evaluating every term numerically (2 s for the three sums of a 1,000-item NDCG).
FAST_PRINT_TERMS = 40


@functools.lru_cache(maxsize=4096)
def fmt_exact(e) -> str:
    """The exact value as a student writes it: ``7``, ``599/840``, ``3/log2(3)``.

    A value holding a fraction too long to read (:func:`is_long`) is written by its decimal,
    ``≈ 0.504089`` (``.exact`` still holds the fraction). A sum of more than :data:`FAST_PRINT_TERMS`
    terms lists them in SymPy's stored order, the number last, as SymPy's printer would write each.
    """
    if e is sympy.nan:
        return "nan"
    if is_long(e):
        return f"≈ {fmt_value(e)}"
    term = _log_term(e)
    if term is not None:  # c/log2(m): most cells of a DCG table; written as sstr would, 50 times faster
        return _log_term_str(*term)
    if not _short_enough(e, 2 * FAST_PRINT_TERMS):
        return _fast_str(e)
    return sympy.sstr(e)


@functools.lru_cache(maxsize=4096)
def fmt_latex(e) -> str:
    """LaTeX of an exact value; a value :func:`is_long` shows as ``\\approx`` and its decimal.

    Cached: a widget redraws the same terms (``\\frac{3}{\\log_2 5}``) on every change, and SymPy's printer is slow.
    """
    if e is sympy.nan:
        return r"\mathrm{NaN}"
    if is_long(e):
        return r"\approx " + fmt_value(e)
    if not _short_enough(e, 2 * FAST_PRINT_TERMS):
        return _fast_latex(e)
    return sympy.latex(e)


def _log_term(e):
    """``(c, log)`` when ``e`` is a rational ``c`` over one exact log (``3/log2(5)``), else ``None``."""
    if e.is_Pow and e.exp == -1 and isinstance(e.base, _ExactLog):
        return sympy.Integer(1), e.base
    if (e.is_Mul and len(e.args) == 2 and e.args[0].is_Rational and e.args[1].is_Pow and e.args[1].exp == -1
            and isinstance(e.args[1].base, _ExactLog)):
        return e.args[0], e.args[1].base
    return None


def _log_term_str(c, log) -> str:
    name = f"{type(log).__name__}({sympy.sstr(log.args[0])})"
    return f"{c.p}/{name}" if c.q == 1 else f"{c.p}/({c.q}*{name})"


def _join_terms(texts) -> str:
    out = texts[0] if texts else "0"
    for t in texts[1:]:
        out += f" - {t[1:].lstrip()}" if t.startswith("-") else f" + {t}"
    return out


def _fast_str(e) -> str:
    term = _log_term(e)
    if term is not None:
        return _log_term_str(*term)
    if e.is_Add:
        symbolic = [_fast_str(a) for a in e.args if not a.is_Number]
        return _join_terms(symbolic + [sympy.sstr(a) for a in e.args if a.is_Number])
    if e.is_Mul:
        num = [a for a in e.args if not (a.is_Pow and a.exp == -1)]
        den = [a.base for a in e.args if a.is_Pow and a.exp == -1]
        def part(xs):
            return "*".join(f"({_fast_str(x)})" if x.is_Add else _fast_str(x) for x in xs) or "1"
        if not den:
            return part(num)
        bottom = part(den)
        return f"{part(num)}/{bottom if len(den) == 1 and not den[0].is_Add else '(' + bottom + ')'}" \
            if not (len(den) == 1 and den[0].is_Add) else f"{part(num)}/({_fast_str(den[0])})"
    return sympy.sstr(e)


def _fast_latex(e) -> str:
    term = _log_term(e)
    if term is not None:
        c, log = term
        below = f"{log._latex_name} {sympy.latex(log.args[0])}"
        frac = r"\frac{%d}{%s}" % (abs(c.p), below if c.q == 1 else f"{c.q} {below}")
        return frac if c.p > 0 else "- " + frac
    if e.is_Add:
        texts = [_fast_latex(a) for a in e.args if not a.is_Number] + [sympy.latex(a) for a in e.args if a.is_Number]
        return _join_terms(texts)
    if e.is_Mul:
        num = [a for a in e.args if not (a.is_Pow and a.exp == -1)]
        den = [a.base for a in e.args if a.is_Pow and a.exp == -1]
        top = " ".join(_fast_latex(x) for x in num) or "1"
        return r"\frac{%s}{%s}" % (top, " ".join(_fast_latex(x) for x in den)) if den else top
    return sympy.latex(e)


def terminates(r: sympy.Rational, places: int = 6) -> bool:
    """Whether ``r`` has an exact decimal form with at most ``places`` decimals."""
    q = int(r.q)
    for p in (2, 5):
        while q % p == 0:
            q //= p
    if q != 1:
        return False
    scaled = r * 10**places
    return scaled.is_Integer


def fmt_cell(e, max_exact: int = 16) -> str:
    """One table cell: the exact form and its decimal, ``7/8 = 0.875``, ``3/log2(3) ≈ 1.892789``.

    Integers print alone; exact forms longer than ``max_exact`` characters (and fractions that
    :func:`is_long`) print only the decimal.
    """
    if e is None:
        return "–"
    if isinstance(e, str):
        return e
    if isinstance(e, bool):
        return "yes" if e else "no"
    if isinstance(e, numbers.Integral) and not isinstance(e, sympy.Basic):
        e = sympy.Integer(int(e))
    if isinstance(e, sympy.Basic):
        return _fmt_basic_cell(e, max_exact)  # cached: a widget redraws mostly the same cells on every change
    return _fmt_cell(e, max_exact)


@functools.lru_cache(maxsize=16384)
def _fmt_basic_cell(e, max_exact: int) -> str:
    return _fmt_cell(e, max_exact)


def _fmt_cell(e, max_exact: int) -> str:
    if e is sympy.nan:
        return "nan"
    if is_long(e):
        return f"≈ {fmt_value(e)}"
    if isinstance(e, sympy.Integer):
        return str(e)
    value = fmt_value(e)
    if isinstance(e, sympy.Rational):
        sign = "=" if terminates(e) else "≈"
        return f"{fmt_exact(e)} {sign} {value}"
    text = fmt_exact(e) if _short_enough(e, max_exact) else ""
    if text and len(text) <= max_exact:
        return f"{text} ≈ {value}"
    return f"≈ {value}"


def _short_enough(e, max_exact: int) -> bool:
    """Whether ``e`` may print within ``max_exact`` characters: one with many sum terms cannot, so it is
    not printed at all (printing a 1,000-term sum only to drop it costs a second)."""
    terms, stack = 0, [e]
    while stack:
        x = stack.pop()
        if x.is_Add:
            terms += len(x.args)
            if terms > max_exact // 2:
                return False
        stack.extend(a for a in x.args if a.args)
    return True


#: Floats of the partial sums a :class:`RunningSum` built, by identity: a table of 1,000 partial sums
#: would otherwise add up 500,000 terms again. Bounded; the entry keeps its expression alive, so an id
#: cannot be reused while it is here.
_PARTIAL_SUM_FLOATS: OrderedDict = OrderedDict()
_PARTIAL_SUM_CACHE_SIZE = 50_000


def _remember_float(e, value: float) -> None:
    _PARTIAL_SUM_FLOATS[id(e)] = (e, value)
    if len(_PARTIAL_SUM_FLOATS) > _PARTIAL_SUM_CACHE_SIZE:
        _PARTIAL_SUM_FLOATS.popitem(last=False)


class RunningSum:
    """A sum that grows one term at a time, each partial sum a canonical SymPy ``Add`` in O(terms) time.

    ``total = total + term`` re-flattens and re-sorts the whole sum at each step (quadratic, with a
    large constant: 10 s for a 1,000-item DCG). Here the terms are kept sorted with SymPy's own sort
    key and equal terms merged, so each partial sum is built from its arguments directly; it equals
    the ``sympy.Add`` of the same terms (tested).
    """

    def __init__(self):
        self._rational = sympy.Integer(0)
        self._terms: list = []  # sorted by SymPy's Add order
        self._coeffs: dict = {}  # the non-numeric factor of each term -> its coefficient
        self._partials: list | None = []  # Shewchuk's exact float partials of the sum (math.fsum's method)

    def _add_float(self, term) -> None:
        """Keep the float of the sum exactly, term by term, so each partial sum's float is one rounding."""
        if self._partials is None:
            return
        try:
            x = _tree_float(term)
        except (_OutOfSafeRange, OverflowError, ZeroDivisionError):
            self._partials = None  # beyond the safe range: to_float's exact fallback decides
            return
        partials = []
        for y in self._partials:
            if abs(x) < abs(y):
                x, y = y, x
            hi = x + y
            lo = y - (hi - x)
            if lo:
                partials.append(lo)
            x = hi
        partials.append(x)
        self._partials = partials

    def add(self, term) -> None:
        """Add one exact term (a Rational, or a coefficient times a symbolic factor)."""
        self._add_float(term)
        if term.is_Rational:
            self._rational += term
            return
        coeff, rest = term.as_coeff_Mul()
        old = self._coeffs.get(rest)
        if old is None:  # a new factor (every rank of a DCG): the term is already in SymPy's form
            self._coeffs[rest] = coeff
            bisect.insort(self._terms, term, key=_args_sortkey)
            return
        del self._terms[self._index(coeff_term(old, rest))]
        coeff = coeff + old
        if coeff == 0:
            del self._coeffs[rest]
            return
        self._coeffs[rest] = coeff
        bisect.insort(self._terms, coeff_term(coeff, rest), key=_args_sortkey)

    def _index(self, term) -> int:
        i = bisect.bisect_left(self._terms, _args_sortkey(term), key=_args_sortkey)
        while self._terms[i] != term:
            i += 1
        return i

    def value(self):
        """The sum so far, a canonical SymPy expression."""
        if not self._terms:
            return self._rational
        if self._rational == 0 and len(self._terms) == 1:
            return self._terms[0]
        args = tuple(self._terms) if self._rational == 0 else (self._rational, *self._terms)
        total = sympy.Add._from_args(args, is_commutative=True)
        if self._partials is not None:
            value = math.fsum(self._partials)
            if _SAFE_MIN <= abs(value) <= _SAFE_MAX:
                _remember_float(total, value)
        return total


def over(numerator, divisor):
    """``numerator / divisor`` for a Rational over a Rational or an exact log, built directly as SymPy
    stores it (``Mul(3, 1/log2(5))``): the general division asks SymPy's assumption system about the log
    every time, which was half the time of a 1,000-rank DCG. Equal to ``numerator / divisor`` (tested)."""
    if numerator.is_Rational and isinstance(divisor, _ExactLog) and divisor.args[0].is_Rational \
            and divisor.args[0] > 1:
        if numerator == 0:
            return sympy.Integer(0)
        inverse = sympy.Pow(divisor, -1, evaluate=False)
        return inverse if numerator == 1 else sympy.Mul._from_args((numerator, inverse), is_commutative=True)
    return numerator / divisor


def coeff_term(coeff, rest):
    """``coeff * rest`` as SymPy's Add would store it."""
    if coeff == 1:
        return rest
    if rest.is_Mul:
        return rest._new_rawargs(coeff, *rest.args)
    return sympy.Mul(coeff, rest)
