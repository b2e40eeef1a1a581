"""Seconds the checker takes on the inputs that once ran for many seconds (issue 11); the promise is < 2 s.

Run: ``PYTHONPATH=. python benchmarks/bench_checker.py``. Times are printed, never asserted.
"""

import random
import time

import ltr_teach as lt


def seconds(function) -> float:
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def main() -> None:
    rng = random.Random(1)
    grades_200 = [rng.randint(0, 4) for _ in range(200)]
    ndcg_200 = lt.ndcg(grades_200)
    right = float(ndcg_200)
    cases = {
        "check(ndcg(200 grades), '0.123456')": lambda: lt.check(ndcg_200, "0.123456"),
        "check(ndcg(200 grades), the right value to 6 decimals)": lambda: lt.check(ndcg_200, f"{right:.6f}"),
        "check(ndcg(200 grades), its float)": lambda: lt.check(ndcg_200, right),
        "check(ndcg(200 grades), the value cut at 4 decimals)": lambda: lt.check(ndcg_200, str(right)[:6]),
        "check(ndcg(200 grades), as a percentage without %)": lambda: lt.check(ndcg_200, f"{100 * right:.3f}"),
        "check(cg([10**9, 1]), '1')": lambda: lt.check(lt.cg([10**9, 1]), "1"),
        "check(cg([10**10, 1]), '1')": lambda: lt.check(lt.cg([10**10, 1]), "1"),
        "check('ndcg-lipstick', '1/(log2(9)-2*log2(3))')": lambda: lt.check("ndcg-lipstick", "1/(log2(9)-2*log2(3))"),
        "check('ndcg-lipstick', '(10^256)^2')": lambda: lt.check("ndcg-lipstick", "(10^256)^2"),
        "check('ndcg-lipstick', 10**400)": lambda: lt.check("ndcg-lipstick", 10**400),
        "check(ndcg(30 grades), '0.123456') (the longest list diagnosed)":
            lambda: lt.check(lt.ndcg([rng.randint(0, 4) for _ in range(30)]), "0.123456"),
        "check('err-lipstick', '0.913391')": lambda: lt.check("err-lipstick", "0.913391"),
    }
    print(f"ndcg(200 grades) itself (not the checker): {seconds(lambda: lt.ndcg(grades_200)):.3f} s")
    for name, case in cases.items():
        print(f"{seconds(case):7.3f} s  {name}")


if __name__ == "__main__":
    main()
