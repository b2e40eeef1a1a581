"""The studentized range distribution, for Tukey's HSD without SciPy.

The range of k independent standard normals, divided by an independent estimate s of their standard
deviation with ``df`` degrees of freedom (s² ~ χ²_df / df), has the survival function

    P(Q > q) = ∫₀^∞ g_df(s) · P(range > q·s) ds,
    P(range > w) = k ∫ φ(z) Φ(z − w) Σ_{i=0}^{k−2} Φ(z)^i (Φ(z) − Φ(z − w))^{k−2−i} dz,

the second line being k ∫ φ(z) [Φ(z)^{k−1} − (Φ(z) − Φ(z − w))^{k−1}] dz with the difference of powers
factored, so that a tiny tail probability is summed from positive terms instead of being the difference of
two numbers near 1 (the p-value of a large q keeps its relative precision). Both integrals are taken by
composite Gauss–Legendre quadrature over the range where the integrand is not negligible (floats: this is
a numerical integral, agreeing with ``scipy.stats.studentized_range`` to about 1e-9 relative).
"""

from __future__ import annotations

import math

import numpy as np

_NODES, _WEIGHTS = np.polynomial.legendre.leggauss(24)
_erfc = np.frompyfunc(math.erfc, 1, 1)


def _normal_cdf(x: np.ndarray) -> np.ndarray:
    return 0.5 * _erfc(-x / math.sqrt(2)).astype(float)


def _panels(low: float, high: float, count: int) -> tuple[np.ndarray, np.ndarray]:
    """Nodes and weights of ``count`` Gauss–Legendre panels over [low, high]."""
    edges = np.linspace(low, high, count + 1)
    half = np.diff(edges)[:, None] / 2
    nodes = (edges[:-1, None] + half) + half * _NODES[None, :]
    return nodes.ravel(), (half * _WEIGHTS[None, :]).ravel()


def _range_sf(w: np.ndarray, k: int) -> np.ndarray:
    """P(range of k standard normals > w), for an array of w >= 0."""
    w = np.asarray(w, dtype=float)
    high = max(10.0, float(w.max(initial=0.0)) / 2 + 10.0)
    z, weights = _panels(-10.0, high, max(16, int(high + 10)))
    phi = np.exp(-z * z / 2) / math.sqrt(2 * math.pi)
    cdf = _normal_cdf(z)                                   # Φ(z)
    below = _normal_cdf(z[None, :] - w.reshape(-1, 1))     # Φ(z − w), one row per w
    inside = cdf[None, :] - below                          # Φ(z) − Φ(z − w)
    total = np.zeros_like(below)
    for i in range(k - 1):
        total += cdf[None, :] ** i * inside ** (k - 2 - i)
    values = k * (phi[None, :] * below * total) @ weights
    return np.clip(values, 0.0, 1.0).reshape(w.shape)


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
    tails = _range_sf(np.outer(q, s), k)  # P(range > q·s), one row per q
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
