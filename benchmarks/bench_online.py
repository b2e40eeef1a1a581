"""lt.online at its documented limits (issue 32): ``simulate`` with 10^6 users, drawn with NumPy, against one user at a
time in plain Python (the way it drew them before, the peer here, timed on fewer users and scaled per user); and
``interleaving_preference`` on two disjoint lists of 10, 2^10 coin outcomes, with several clicks per user.

Run: ``PYTHONPATH=. python benchmarks/bench_online.py [--users 1000000]``.
"""

from __future__ import annotations

import argparse
import random
import time

import ltr_teach as lt

A = ["a", "b", "c", "d", "e"]
B = ["b", "a", "d", "c", "f"]
GRADES = {"a": 3, "b": 1, "c": 2, "d": 0, "e": 1, "f": 0}
CLICK = {0: 0.1, 1: 0.3, 2: 0.5, 3: 0.8}
KEEP = 0.5
PEER_USERS = 20_000


def _one_user_at_a_time(n_users: int, seed: int) -> dict:
    """The peer: each user draws the coins, builds the team-draft list and reads it rank by rank."""
    rng, wins = random.Random(seed), {"A": 0, "B": 0, "tie": 0}
    for _ in range(n_users):
        merged = lt.online.team_draft(A, B, iter(lambda: rng.choice("AB"), None))
        clicks = {"A": 0, "B": 0}
        for doc, team in zip(merged.results, merged.teams):
            if rng.random() < CLICK[GRADES.get(doc, 0)]:
                clicks[team] += 1
                if rng.random() >= KEEP:
                    break
        wins["A" if clicks["A"] > clicks["B"] else "B" if clicks["B"] > clicks["A"] else "tie"] += 1
    return wins


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, default=lt.online.MAX_USERS)
    args = parser.parse_args()

    start = time.perf_counter()
    lt.online.simulate(A, B, GRADES, method="team_draft", n_users=args.users, seed=0, click=CLICK, keep_reading=KEEP)
    vectorised = time.perf_counter() - start
    start = time.perf_counter()
    _one_user_at_a_time(PEER_USERS, seed=0)
    peer = time.perf_counter() - start
    per_user, peer_per_user = vectorised / args.users, peer / PEER_USERS
    print(f"simulate, {args.users:,} users: {vectorised:.2f} s ({per_user * 1e6:.2f} µs a user)")
    print(f"one user at a time in Python, {PEER_USERS:,} users: {peer:.2f} s ({peer_per_user * 1e6:.2f} µs a user; "
          f"{peer_per_user * args.users:.0f} s for {args.users:,})")
    print(f"ratio (peer / simulate, per user): {peer_per_user / per_user:.0f}")

    a, b = [f"a{i}" for i in range(10)], [f"b{i}" for i in range(10)]
    grades = {d: i % 4 for i, d in enumerate(a + b)}
    start = time.perf_counter()
    ex = lt.online.interleaving_preference(a, b, grades, g_max=3, keep_reading=KEEP)
    print(f"interleaving_preference, disjoint lists of 10, {len(ex.steps)} coin outcomes, several clicks: "
          f"{time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main()
