"""Simulated users for :func:`ltr_teach.metrics.online.simulate`, drawn with NumPy (a seeded ``Generator``).

Each user of the interleaving experiment gets a coin outcome (with its exact probability), reads the merged list
from the top and clicks as the click model says: whole blocks of users at once, one row each. The A/B test's
users only need to click at least once, which for a group of n users is one binomial draw of n with the exact
click rate (the same distribution as drawing each user).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.i18n import _

#: Users drawn per block: a block of 100,000 users of a 40-result list holds about 30 MB of arrays.
_BLOCK = 100_000


@dataclass(frozen=True)
class Simulation:
    """What ``n_users`` simulated users did: ``interleaving`` counts the impressions A won, B won and tied
    (``{"A": ..., "B": ..., "tie": ...}``); ``ab`` counts the users who clicked, of ``ab_users`` shown each system."""

    interleaving: dict
    ab: dict
    ab_users: dict
    n_users: int
    seed: int

    def __str__(self) -> str:
        inter = self.interleaving
        return "\n".join([
            _("interleaving, {n:,} users: A wins {a:,}, B wins {b:,}, tie {tie:,}").format(
                n=self.n_users, a=inter["A"], b=inter["B"], tie=inter["tie"]),
            _("A/B test: {clicked_a:,} of {users_a:,} users shown A click, {clicked_b:,} of {users_b:,} shown B").format(
                clicked_a=self.ab["A"], users_a=self.ab_users["A"], clicked_b=self.ab["B"], users_b=self.ab_users["B"])])

    __repr__ = __str__


def _clicks(rng: np.random.Generator, probs: np.ndarray, keep: float, users: int) -> np.ndarray:
    """A (users × ranks) array of clicks: a result is read unless the user stopped after an earlier click."""
    would_click = rng.random((users, probs.size)) < probs
    stops = would_click & (rng.random((users, probs.size)) >= keep)
    stopped_before = (np.cumsum(stops, axis=1) - stops) > 0
    return would_click & ~stopped_before


def _credit_matrix(merged, a: list, b: list) -> np.ndarray:
    """Balanced interleaving: row l holds each rank's credit (+1 A, −1 B, 0) when rank l is the deepest click."""
    n = len(merged.results)
    rank_a = {d: i + 1 for i, d in enumerate(a)}
    rank_b = {d: i + 1 for i, d in enumerate(b)}
    credit = np.zeros((n, n), dtype=np.int64)
    for last, doc in enumerate(merged.results):
        k = min(rank_a.get(doc, n + len(a) + len(b)), rank_b.get(doc, n + len(a) + len(b)))
        top_a, top_b = set(a[:k]), set(b[:k])
        for i, d in enumerate(merged.results[:last + 1]):
            credit[last, i] = (d in top_a) - (d in top_b)
    return credit


def simulate_users(outcomes, model, a: list, b: list, n_users: int, seed: int) -> Simulation:
    """Draw the users (arguments already checked by :func:`~ltr_teach.metrics.online.simulate`)."""
    rng = np.random.default_rng(seed)
    keep = float(model.keep_reading)
    weights = np.array([float(w) for _, w in outcomes])
    per_outcome = rng.multinomial(n_users, weights / weights.sum())
    wins = {"A": 0, "B": 0, "tie": 0}
    for (merged, _weight), users in zip(outcomes, per_outcome):
        probs = np.array([float(c) for c in model.probabilities(merged.results)])
        if merged.method == "team_draft":
            sign = np.array([1 if t == "A" else -1 if t == "B" else 0 for t in merged.teams])
        else:
            credit = _credit_matrix(merged, a, b)
        for start in range(0, int(users), _BLOCK):
            clicks = _clicks(rng, probs, keep, min(_BLOCK, int(users) - start))
            if merged.method == "team_draft":
                score = clicks.astype(np.int64) @ sign
            else:
                clicked = clicks.any(axis=1)
                deepest = probs.size - 1 - np.argmax(clicks[:, ::-1], axis=1)
                score = np.where(clicked, (clicks * credit[deepest]).sum(axis=1), 0)
            wins["A"] += int((score > 0).sum())
            wins["B"] += int((score < 0).sum())
            wins["tie"] += int((score == 0).sum())
    shown = {"A": n_users // 2, "B": n_users - n_users // 2}
    clicked = {}
    for name, ranking in (("A", a), ("B", b)):
        never = 1.0
        for c in model.probabilities(ranking):
            never *= 1 - float(c)
        clicked[name] = int(rng.binomial(shown[name], 1 - never))
    return Simulation(interleaving=wins, ab=clicked, ab_users=shown, n_users=n_users, seed=seed)


__all__ = ["Simulation", "simulate_users"]
