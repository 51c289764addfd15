"""End-search sizes at the card table's limit: which wins more hard manual hints.

    python benchmarks/bench_end_nodes.py                        # 500 vs 5000, every game
    python benchmarks/bench_end_nodes.py --games glencoe --per-game 40
    python benchmarks/bench_end_nodes.py --sizes 500 2000 5000 --max-nodes 3000000

The hints that need the rollouts over the deal are those from early in a hard
manual deal.  This takes the starts of the manual deals that the published
runs (docs/data) won with the default ``solve`` (every probe, the default seed
and end searches; not the exhaustive search alone) only after more than 1 000 000
positions (and at most 25 000 000), so every one is winnable, and solves each at
``--max-nodes`` (the card table's hint limit by default; no deadline, so the
counts do not depend on the machine) once per end-search size.  It prints one
line a game: deals won at each size, the deals that only one size won, and the
seconds.  Every win is replayed through the engine by ``solve``.  The figures
are in docs/solver.md ("Larger end searches"); never a unit test.
"""

from __future__ import annotations

import argparse
import gzip
import json
import time
from pathlib import Path

from intrigue.position import Position
from intrigue.solver import solve
from intrigue.solver.rollouts import END_NODES, SEED
from intrigue.stats import searched
from intrigue.variants import GAME_IDS
from intrigue.web.settings import Settings

DATA = Path(__file__).resolve().parent.parent / "docs" / "data"


def hard_deals(game: str, low: int = 1_000_000, high: int = 25_000_000) -> list[int]:
    """Manual deals of ``game`` that the default solve won with ``low``-``high`` positions."""
    deals = set()
    with gzip.open(DATA / f"stats-{game}-manual.jsonl.gz", "rt", encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            default = searched(record) == ("full", SEED, END_NODES)
            if record["verdict"] == "won" and default and low < record["nodes"] <= high:
                deals.add(record["deal"])
    return sorted(deals)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=list(GAME_IDS), choices=GAME_IDS)
    parser.add_argument("--sizes", nargs="+", type=int, default=[500, 5000])
    parser.add_argument("--max-nodes", type=int, default=Settings.hint_nodes)
    parser.add_argument("--per-game", type=int, default=160, help="first N hard deals a game")
    args = parser.parse_args()
    sizes: list[int] = args.sizes
    print(f"max_nodes {args.max_nodes}, end searches {' / '.join(map(str, sizes))}")
    totals = dict.fromkeys(sizes, 0)
    alone = dict.fromkeys(sizes, 0)
    count = 0
    for game in args.games:
        deals = hard_deals(game)[: args.per_game]
        won = dict.fromkeys(sizes, 0)
        only = dict.fromkeys(sizes, 0)
        seconds = dict.fromkeys(sizes, 0.0)
        for deal in deals:
            start = Position.start(game, deal, "manual")
            winners = []
            for size in sizes:
                began = time.perf_counter()
                result = solve(start, max_nodes=args.max_nodes, rollout_end_nodes=size)
                seconds[size] += time.perf_counter() - began
                if result.verdict == "won":
                    won[size] += 1
                    winners.append(size)
            if len(winners) == 1:
                only[winners[0]] += 1
        count += len(deals)
        for size in sizes:
            totals[size] += won[size]
            alone[size] += only[size]
        print(
            f"{game:<13} {len(deals):>4} deals  "
            + "  ".join(
                f"{size}: won {won[size]:>4}, alone {only[size]:>3}, {seconds[size]:7.1f} s"
                for size in sizes
            ),
            flush=True,
        )
    print(
        f"{'all':<13} {count:>4} deals  "
        + "  ".join(f"{size}: won {totals[size]:>4}, alone {alone[size]:>3}" for size in sizes)
    )


if __name__ == "__main__":
    main()
