"""Column-test benchmark: what the loss proof costs, and what it proves.

    python benchmarks/bench_column_test.py                    # deals 1-2000 of each game
    python benchmarks/bench_column_test.py --deals 1-10000 --games salic-law
    python benchmarks/bench_column_test.py --states 2000000 --deals 2588-2588 --games salic-law
    python benchmarks/bench_column_test.py --python --states 400000   # the Python game

Runs :func:`intrigue.solver.relaxation.blocked_column` from the start of each
manual deal (where the test is hardest: every column still to be dealt) and
prints, per game, the deals it proves lost, the time per deal (p50 / p99 /
max) and how many deals took over a second (the ones ``--states`` cuts short
take longest).  The default ``--states`` is what ``solve`` gives the test at its
default limit.  docs/solver.md, "The column test", has the figures.  Compares
settings; never a unit test.
"""

from __future__ import annotations

import argparse
import time

from intrigue.position import Position
from intrigue.solver.relaxation import blocked_column
from intrigue.solver.search import DEFAULT_MAX_NODES
from intrigue.stats import parse_range, percentile

GAMES = ("intrigue", "laggard-lady", "glencoe", "salic-law")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", default="1-2000", help="deal range A-B")
    parser.add_argument("--games", nargs="+", default=GAMES)
    parser.add_argument("--states", type=int, default=DEFAULT_MAX_NODES // 2)
    parser.add_argument("--python", action="store_true", help="the Python relaxed game")
    args = parser.parse_args()
    first, last = parse_range(args.deals)
    for game in args.games:
        blocked: list[str] = []
        seconds = []
        for deal in range(first, last + 1):
            position = Position.start(game, deal, "manual")
            started = time.perf_counter()
            column = blocked_column(position, max_states=args.states, native=not args.python)
            seconds.append(time.perf_counter() - started)
            if column is not None:
                blocked.append(f"{deal} (column {' and '.join(map(str, column))})")
        ms = [1000 * s for s in seconds]
        figures = " / ".join(f"{percentile(ms, q):.1f}" for q in (50.0, 99.0, 100.0))
        slow = sum(1 for s in seconds if s > 1.0)
        print(
            f"{game:13} deals {first}-{last}: blocked {len(blocked)}"
            f"{': ' + ', '.join(blocked) if blocked else ''}; "
            f"ms p50 / p99 / max {figures}; over 1 s: {slow}",
            flush=True,
        )


if __name__ == "__main__":
    main()
