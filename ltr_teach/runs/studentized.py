"""The studentized range distribution, for Tukey's HSD without SciPy.

The range of k independent standard normals, divided by an independent estimate s of their standard
deviation with ``df`` degrees of freedom (s² ~ χ²_df / df), has the survival function

    P(Q > q) = ∫₀^∞ g_df(s) · R_k(q·s) ds,
    R_k(w) = P(range > w) = k ∫ φ(z) [Φ(z)^{k−1} − (Φ(z) − Φ(z − w))^{k−1}] dz.

The bracket is written Φ(z)^{k−1} · (−expm1((k − 1) · log1p(−Φ(z − w)/Φ(z)))), so that a tiny tail
probability is never the difference of two numbers near 1 (the p-value of a large q keeps its relative
precision) and costs the same for 50 means as for 3. Both integrals are composite Gauss–Legendre quadratures
over the range where the integrand is not negligible (floats: this is a numerical integral, agreeing with
``scipy.stats.studentized_range`` to about 1e-8 relative above p = 1e-6).

Speed: R_k depends on w alone, so log R_k is tabulated once per k (Chebyshev interpolation on panels of width
1 in w, cached) and the outer integral of every q reads the table; Φ is NumPy arithmetic (erfc from a
Chebyshev fit of log(erfcx(x)/t), t = 2/(2 + x), made at import from mpmath's erfc), not a Python call per node.
"""

from __future__ import annotations

import math
from functools import lru_cache

import mpmath
import numpy as np
from numpy.polynomial import chebyshev

_NODES, _WEIGHTS = np.polynomial.legendre.leggauss(24)
#: Degree of the Chebyshev fits (of erfc, and of log R_k on each panel of w): both are within 1e-13 relative.
_DEGREE = 40
_PANEL_DEGREE = 24
#: Past this w, R_k(w) < k² · e^{−w²/4} is below the smallest float for any k a table can hold: 0.
_W_MAX = 60


def _log_erfcx_over_t(x_cheb: np.ndarray) -> np.ndarray:
    """log(erfc(x) · e^{x²} / t) at t = (x_cheb + 1)/2, x = 2/t − 2 (30 digits, so the fit is the float's limit)."""
    out = []
    with mpmath.workdps(30):
        for v in x_cheb:
            t = (mpmath.mpf(float(v)) + 1) / 2
            x = 2 / t - 2
            out.append(float(mpmath.log(mpmath.erfc(x) * mpmath.exp(x * x) / t)))
    return np.array(out)


@lru_cache(maxsize=1)
def _erfc_fit() -> np.ndarray:
    return chebyshev.chebinterpolate(_log_erfcx_over_t, _DEGREE)


def _erfc(x: np.ndarray) -> np.ndarray:
    """erfc, elementwise: t · exp(−x² + fit(t)) for x >= 0, 2 − erfc(−x) below (1e-13 relative of math.erfc)."""
    size = np.abs(x)
    t = 2 / (2 + size)
    with np.errstate(under="ignore"):
        upper = t * np.exp(-size * size + chebyshev.chebval(2 * t - 1, _erfc_fit()))
    return np.where(x < 0, 2 - upper, upper)


def _normal_cdf(x: np.ndarray) -> np.ndarray:
    return 0.5 * _erfc(-np.asarray(x, dtype=float) / math.sqrt(2))


def _panels(low: float, high: float, count: int) -> tuple[np.ndarray, np.ndarray]:
    """Nodes and weights of ``count`` Gauss–Legendre panels over [low, high]."""
    edges = np.linspace(low, high, count + 1)
    half = np.diff(edges)[:, None] / 2
    nodes = (edges[:-1, None] + half) + half * _NODES[None, :]
    return nodes.ravel(), (half * _WEIGHTS[None, :]).ravel()


def _range_sf(w: np.ndarray, k: int) -> np.ndarray:
    """R_k(w) = P(range of k standard normals > w) by quadrature in z, for a 1-d array of w >= 0."""
    high = max(10.0, float(w.max(initial=0.0)) / 2 + 10.0)
    z, weights = _panels(-10.0, high, max(16, int(high + 10)))
    head = np.exp(-z * z / 2) / math.sqrt(2 * math.pi) * _normal_cdf(z) ** (k - 1)   # φ(z) Φ(z)^{k−1}
    below_share = _normal_cdf(z[None, :] - w[:, None]) / _normal_cdf(z)[None, :]     # Φ(z − w)/Φ(z)
    with np.errstate(divide="ignore"):                                                # w = 0: log1p(−1) = −inf
        share = -np.expm1((k - 1) * np.log1p(-below_share))
    return np.clip(k * (share * head[None, :]) @ weights, 0.0, 1.0)


@lru_cache(maxsize=4096)
def _log_range_sf_panel(k: int, panel: int) -> np.ndarray:
    """Chebyshev coefficients of log R_k on [panel, panel + 1] (R below 1e-300 is held there: read as 0)."""
    x = chebyshev.chebpts1(_PANEL_DEGREE + 1)
    values = _range_sf(panel + (x + 1) / 2, k)
    return chebyshev.chebfit(x, np.log(np.maximum(values, 1e-300)), _PANEL_DEGREE)


def _range_sf_table(w: np.ndarray, k: int) -> np.ndarray:
    """R_k at every w (any shape, >= 0), read from the cached panels (w past _W_MAX: 0)."""
    flat = w.ravel()
    panel = np.floor(flat)
    value = np.zeros_like(flat)
    for p in np.unique(panel[panel < _W_MAX]):
        here = panel == p
        log_value = chebyshev.chebval(2 * (flat[here] - p) - 1, _log_range_sf_panel(k, int(p)))
        with np.errstate(under="ignore"):
            value[here] = np.where(log_value > math.log(1e-290), np.exp(np.minimum(log_value, 0.0)), 0.0)
    return value.reshape(w.shape)


def studentized_range_sf(q, k: int, df: int) -> np.ndarray:
    """P(Q > q) of the studentized range with ``k`` means and ``df`` degrees of freedom.

    Examples
    --------
    Tables of the studentized range give the 5 % point for k = 3 and 10 degrees of freedom as 3.877:

    >>> round(float(studentized_range_sf(3.877, 3, 10)), 4)
    0.05
    """
    q = np.asarray(q, dtype=float)
    shape, q = q.shape, q.ravel()
    nu = float(df)
    mode = math.sqrt(max(nu - 1, 0.0) / nu)
    spread = 1 / math.sqrt(2 * nu)
    low = max(0.0, mode - 14 * spread)
    high = mode + max(14 * spread, 9 / math.sqrt(nu))
    s, weights = _panels(low, high, 24)
    # g(s) = ν^{ν/2} / (Γ(ν/2) 2^{ν/2 − 1}) s^{ν − 1} e^{−ν s²/2}, taken in logs (ν can be in the thousands)
    log_g = (nu / 2) * math.log(nu) - math.lgamma(nu / 2) - (nu / 2 - 1) * math.log(2) \
        + (nu - 1) * np.log(np.where(s > 0, s, 1.0)) - nu * s * s / 2
    density = np.where(s > 0, np.exp(log_g), 0.0)
    tails = _range_sf_table(np.outer(np.maximum(q, 0.0), s), int(k))  # P(range > q·s), one row per q
    return np.clip(tails @ (density * weights), 0.0, 1.0).reshape(shape)


def studentized_range_ppf(probability: float, k: int, df: int) -> float:
    """The q with P(Q <= q) = ``probability``: bisection on the survival function (monotone in q)."""
    target = 1 - probability
    low, high = 0.0, 1.0
    while studentized_range_sf(high, k, df) > target:
        low, high = high, high * 2
    for _ in range(60):
        middle = (low + high) / 2
        if studentized_range_sf(middle, k, df) > target:
            low = middle
        else:
            high = middle
        if high - low < 1e-12 * high:
            break
    return (low + high) / 2


__all__ = ["studentized_range_sf", "studentized_range_ppf"]
