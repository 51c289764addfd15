"""Column-test benchmark: what the loss proof costs, and what it proves.

    python benchmarks/bench_column_test.py                    # deals 1-2000 of each game
    python benchmarks/bench_column_test.py --deals 1-10000 --games salic-law
    python benchmarks/bench_column_test.py --states 2000000 --deals 2588-2588 --games salic-law
    python benchmarks/bench_column_test.py --python --states 400000   # the Python game
    python benchmarks/bench_column_test.py --one salic-law 578 1,2,3,4 --states 20000000

Runs :func:`intrigue.solver.relaxation.blocked_column` from the start of each
manual deal (where the test is hardest: every column still to be dealt) and
prints, per game, the deals it proves lost, the time per deal (p50 / p99 /
max) and how many deals took over a second (the ones ``--states`` cuts short
take longest).  The default ``--states`` is what ``solve`` gives the test at its
default limit.  ``--one GAME DEAL COLUMNS`` plays instead the one relaxed game
of those columns (kept together) from the start of that manual deal, within
``--states``, and prints its answer, states, time and memory: the peak the
process grew by, and that per state.  docs/solver.md, "The column test", has
the figures.  Compares settings; never a unit test.
"""

from __future__ import annotations

import argparse
import resource
import time

from intrigue.position import Position
from intrigue.solver.relaxation import as_types, blocked_column, relaxed_games
from intrigue.solver.search import DEFAULT_MAX_NODES
from intrigue.stats import parse_range, percentile

GAMES = ("intrigue", "laggard-lady", "glencoe", "salic-law")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", default="1-2000", help="deal range A-B")
    parser.add_argument("--games", nargs="+", default=GAMES)
    parser.add_argument("--states", type=int, default=DEFAULT_MAX_NODES // 2)
    parser.add_argument("--python", action="store_true", help="the Python relaxed game")
    parser.add_argument("--one", nargs=3, metavar=("GAME", "DEAL", "COLUMNS"))
    args = parser.parse_args()
    if args.one:
        one_game(*args.one, states=args.states, native=not args.python)
        return
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


def one_game(game: str, deal: str, columns: str, *, states: int, native: bool) -> None:
    """One relaxed game: its answer, states, time and the memory it took."""
    numbers = tuple(int(c) for c in columns.split(","))
    games = dict(relaxed_games(*as_types(Position.start(game, int(deal), "manual")), together=4))
    relaxed = games[numbers]
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    started = time.perf_counter()
    cleared, visited = relaxed.clears(states, None, native)
    seconds = time.perf_counter() - started
    grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024
    answer = {True: "cleared", False: "blocked", None: "undecided"}[cleared]
    print(
        f"{game} {deal} columns {columns}: {answer} after {visited:,} states, {seconds:.1f} s, "
        f"{grown / 1e9:.2f} GB, {grown / max(1, visited):.0f} bytes a state",
        flush=True,
    )


if __name__ == "__main__":
    main()
