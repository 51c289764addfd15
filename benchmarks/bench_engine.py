"""Engine throughput: auto deals per second and random legal moves per second.

    python benchmarks/bench_engine.py [--deals 2000] [--moves 200000]

Prints a table per game; a measurement, never a pass/fail test.
"""

from __future__ import annotations

import argparse
import random
import time

from intrigue import GAME_IDS, Position
from intrigue.deals import deal_order


def bench_deals(game: str, n: int) -> float:
    for d in range(1, n + 1):  # warm the order cache so only dealing is timed
        deal_order(game, d)
    t = time.perf_counter()
    for d in range(1, n + 1):
        Position.start(game, d, "auto")
    return n / (time.perf_counter() - t)


def bench_moves(game: str, mode: str, n: int) -> float:
    rng = random.Random(1)
    done, deal, t = 0, 1, time.perf_counter()
    while done < n:
        p = Position.start(game, deal, mode)
        deal += 1
        while done < n:
            moves = list(p.legal_moves())
            if not moves:
                break
            p = p.apply(rng.choice(moves))
            done += 1
    return n / (time.perf_counter() - t)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--moves", type=int, default=100_000)
    args = ap.parse_args()
    print(f"{'game':<14}{'auto deals/s':>14}{'moves/s auto':>15}{'moves/s manual':>16}")
    for game in GAME_IDS:
        d = bench_deals(game, args.deals)
        ma = bench_moves(game, "auto", args.moves)
        mm = bench_moves(game, "manual", args.moves)
        print(f"{game:<14}{d:>14,.0f}{ma:>15,.0f}{mm:>16,.0f}")


if __name__ == "__main__":
    main()
