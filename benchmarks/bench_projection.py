"""Rank-projection benchmark: what the loss proof costs, and what it proves.

    python benchmarks/bench_projection.py                     # deals 1-2000 of each game
    python benchmarks/bench_projection.py --deals 6812-6812 --games intrigue
    python benchmarks/bench_projection.py --python --states 200000   # the Python game

Runs :func:`intrigue.solver.projection.projection_test` from the start of each
manual deal (every column still to be dealt) and prints, per game, the deals it
proves lost (and which pile kind's ranks), the states and the time per deal
(p50 / p99 / max), and how many deals took over a second.  The default
``--states`` is what ``solve`` gives the proof at its default limit.
docs/solver.md, "The rank projection", has the figures.  Compares settings;
never a unit test.
"""

from __future__ import annotations

import argparse
import time

from intrigue.position import Position
from intrigue.solver.projection import PROJECTION_SHARE, PROJECTION_STATES, projection_test
from intrigue.solver.relaxation import as_types
from intrigue.solver.search import DEFAULT_MAX_NODES
from intrigue.stats import parse_range, percentile

GAMES = ("intrigue", "laggard-lady", "glencoe")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", default="1-2000", help="deal range A-B")
    parser.add_argument("--games", nargs="+", default=GAMES)
    default = min(PROJECTION_STATES, DEFAULT_MAX_NODES // PROJECTION_SHARE)
    parser.add_argument("--states", type=int, default=default)
    parser.add_argument("--python", action="store_true", help="the Python projected game")
    args = parser.parse_args()
    first, last = parse_range(args.deals)
    for game in args.games:
        blocked: list[str] = []
        seconds: list[float] = []
        states: list[float] = []
        for deal in range(first, last + 1):
            position = Position.start(game, deal, "manual")
            started = time.perf_counter()
            ranks, spent = projection_test(
                *as_types(position), max_states=args.states, native=not args.python
            )
            seconds.append(time.perf_counter() - started)
            states.append(spent)
            if ranks is not None:
                kind = position.variant.kind_built_in(ranks).name
                blocked.append(f"{deal} ({kind}s, {spent} states)")
        ms = [1000 * s for s in seconds]
        figures = " / ".join(f"{percentile(ms, q):.1f}" for q in (50.0, 99.0, 100.0))
        counts = " / ".join(f"{percentile(states, q):.0f}" for q in (50.0, 99.0, 100.0))
        slow = sum(1 for s in seconds if s > 1.0)
        print(
            f"{game:13} deals {first}-{last}: blocked {len(blocked)}"
            f"{': ' + ', '.join(blocked) if blocked else ''}; "
            f"states p50 / p99 / max {counts}; ms p50 / p99 / max {figures}; over 1 s: {slow}",
            flush=True,
        )


if __name__ == "__main__":
    main()
