"""Solver benchmark: per game and deal mode, verdict counts, solve-time percentiles, nodes/s.

    python benchmarks/bench_solver.py                       # deals 1-1000, every game, auto
    python benchmarks/bench_solver.py --deals 1-200 --modes auto manual --games intrigue
    python benchmarks/bench_solver.py --hints 200           # also: positions reached in play
    python benchmarks/bench_solver.py --skip-deals --hints 200 --modes manual --max-nodes 100000
    python benchmarks/bench_solver.py --python --games intrigue   # the pure-Python search

Runs in one process, one deal after another, so the times are single-core
times.  The deal itself (Position.start) is not timed; the replay check of a
won line is (it is part of every solve).  ``--hints N`` also times N positions
per game reached by random legal play from random deals (what the card
table's hint and "still winnable?" indicator ask).  Never a timed unit test:
read the table.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter

from intrigue.position import Position
from intrigue.solver import DEFAULT_MAX_NODES, solve
from intrigue.solver.dfs import NATIVE
from intrigue.stats import parse_range, percentile
from intrigue.variants import GAME_IDS

HEADER = (
    f"{'game':<13}{'mode':<7}{'what':<6}{'n':>6}{'won':>6}{'lost':>6}{'unkn':>6}"
    f"{'med ms':>9}{'p90 ms':>9}{'p99 ms':>9}{'max ms':>10}{'nodes/s':>10}"
)


def row(game: str, mode: str, what: str, results: list[tuple[str, int, float]]) -> str:
    counts = Counter(v for v, _, _ in results)
    ms = [s * 1000 for _, _, s in results]
    nodes = sum(n for _, n, _ in results)
    seconds = sum(s for _, _, s in results)
    return (
        f"{game:<13}{mode:<7}{what:<6}{len(results):>6}{counts['won']:>6}{counts['lost']:>6}"
        f"{counts['unknown']:>6}{percentile(ms, 50):>9.2f}{percentile(ms, 90):>9.2f}"
        f"{percentile(ms, 99):>9.2f}{max(ms):>10.1f}{nodes / max(seconds, 1e-9):>10.0f}"
    )


def deals(
    game: str, mode: str, first: int, last: int, max_nodes: int, native: bool
) -> list[tuple[str, int, float]]:
    out = []
    for deal in range(first, last + 1):
        result = solve(Position.start(game, deal, mode), max_nodes=max_nodes, native=native)
        out.append((result.verdict, result.nodes, result.seconds))
    return out


def hints(
    game: str, mode: str, count: int, max_nodes: int, seed: int, native: bool
) -> list[tuple[str, int, float]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        position = Position.start(game, rng.randrange(1, 32000), mode)
        for _ in range(rng.randrange(0, 120)):
            moves = list(position.legal_moves())
            if not moves:
                break
            position = position.apply(rng.choice(moves))
        result = solve(position, max_nodes=max_nodes, native=native)
        out.append((result.verdict, result.nodes, result.seconds))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="1-1000")
    parser.add_argument("--games", nargs="+", default=list(GAME_IDS), choices=GAME_IDS)
    parser.add_argument("--modes", nargs="+", default=["auto"], choices=["auto", "manual"])
    parser.add_argument("--max-nodes", type=int, default=DEFAULT_MAX_NODES)
    parser.add_argument("--hints", type=int, default=0, help="positions reached in play, per game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skip-deals", action="store_true", help="only the --hints rows")
    parser.add_argument(
        "--python", action="store_true", help="the pure-Python search, not the compiled one"
    )
    args = parser.parse_args(argv)
    first, last = parse_range(args.deals)
    native = NATIVE and not args.python
    search = "compiled" if native else "pure-Python"
    print(f"deals {first}-{last}, max_nodes {args.max_nodes}, single process, {search} search")
    print(HEADER)
    for game in args.games:
        for mode in args.modes:
            started = time.perf_counter()
            if not args.skip_deals:
                found = deals(game, mode, first, last, args.max_nodes, native)
                print(row(game, mode, "deal", found), flush=True)
            if args.hints:
                found = hints(game, mode, args.hints, args.max_nodes, args.seed, native)
                print(row(game, mode, "hint", found), flush=True)
            print(f"  ({time.perf_counter() - started:.1f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
