"""Rollouts benchmark: how often runs of the rollouts over the deal win, and at what cost.

    python benchmarks/bench_rollouts.py                          # level 3 x 12, seeds 1-4
    python benchmarks/bench_rollouts.py --level 2 --iterations 40
    python benchmarks/bench_rollouts.py --deals salic-law:6146 intrigue:5881 --budget 1e6
    python benchmarks/bench_rollouts.py --python   # the runs played in Python, not _core
    python benchmarks/bench_rollouts.py --end-nodes 5000   # larger end searches

Runs the rollouts alone (no other probe, no final search) from the start of
each manual deal, once per seed, with ``--budget`` positions, and prints one
line a run and a total: runs won, and the positions used (a run that does not
win counts its whole budget).  The default deals are ones the level-2 runs
won only after 1-4 million positions, and Intrigue 8296, which they never won
(docs/solver.md, "Rollouts over the deal").  Every win is replayed through the
engine, and the rate (positions a second) shows what the compiled runs
(``_core.rollouts``, the default) gain over the Python ones (``--python``),
which draw the same.  Compares settings; never a unit test.
"""

from __future__ import annotations

import argparse
import time

from intrigue.position import Position
from intrigue.solver import replay
from intrigue.solver.dfs import search
from intrigue.solver.rollouts import END_NODES, ITERATIONS, LEVEL, Rollouts
from intrigue.solver.rules import tables_for
from intrigue.solver.search import _moves
from intrigue.solver.state import SHORTCUTS

DEALS = (
    "glencoe:8002 glencoe:8927 laggard-lady:7968 laggard-lady:5881 laggard-lady:5304 "
    "glencoe:7285 salic-law:1390 salic-law:2629 faerie-queen:2661 intrigue:8296"
).split()
OPTIONS = dict.fromkeys(SHORTCUTS, True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", nargs="+", default=DEALS, metavar="GAME:DEAL")
    parser.add_argument("--seeds", nargs="+", type=int, default=[1, 2, 3, 4])
    parser.add_argument("--level", type=int, default=LEVEL)
    parser.add_argument("--iterations", type=int, default=ITERATIONS)
    parser.add_argument("--budget", type=float, default=4e6, help="positions a run")
    parser.add_argument(
        "--end-nodes", type=int, default=END_NODES, help="positions of each end search"
    )
    parser.add_argument("--python", action="store_true", help="play the runs in Python")
    args = parser.parse_args()
    print(
        f"level {args.level} x {args.iterations}, end search {args.end_nodes}, budget {args.budget:.0f}"
        f", {'Python' if args.python else 'compiled'} runs"
    )
    won = used = runs = 0
    started = time.perf_counter()
    for seed in args.seeds:
        for spec in args.deals:
            game, _, deal = spec.partition(":")
            position = Position.start(game, int(deal), "manual")
            rollouts = Rollouts(
                position, tables_for(position.variant), search, OPTIONS, True, None, None,
                level=args.level, iterations=args.iterations, seed=seed,
                end_nodes=args.end_nodes, compiled=not args.python,
            )  # fmt: skip
            t = time.perf_counter()
            ops = rollouts.run(int(args.budget))
            if ops is not None:
                assert replay(position, _moves(ops)).is_won()
            runs += 1
            won += ops is not None
            used += rollouts.used
            verdict = "won" if ops is not None else "unknown"
            seconds = time.perf_counter() - t
            print(
                f"seed {seed:<7}{game:<13}{deal:>6}  {verdict:<8}{rollouts.used:>10} positions"
                f"  best {rollouts.best:>3}  {seconds:6.1f} s  {rollouts.used / seconds:>9.0f} /s",
                flush=True,
            )
    seconds = time.perf_counter() - started
    print(
        f"won {won} of {runs} runs, {used / 1e6:.1f} M positions"
        f" ({seconds:.0f} s, {used / seconds:.0f} positions a second)"
    )


if __name__ == "__main__":
    main()
