"""Frontier-proof benchmark: what it proves against what the exhaustive search needed.

    python benchmarks/bench_frontier.py                      # Glencoe's exhaustive losses
    python benchmarks/bench_frontier.py --game salic-law --deals 578 1714 --seconds 600
    python benchmarks/bench_frontier.py --span 16            # fewer cuts inside columns
    python benchmarks/bench_frontier.py --max-test-states 200000   # no second tries

Runs :func:`intrigue.solver.frontier.frontier_proof` from the start of each
manual deal, within ``--units`` (positions walked, relaxed states, end-search
positions) and ``--seconds``, and prints per deal the verdict, the units, the
time and each level as cut:frontier>left.  The default deals are the Glencoe
manual deals that the exhaustive search proved lost in 9 - 75 million
positions each (docs/winrates.md).  docs/solver.md, "The frontier proof", has
the figures.  Compares settings; never a unit test.
"""

from __future__ import annotations

import argparse
import time

from intrigue.position import Position
from intrigue.solver import frontier
from intrigue.solver.frontier import frontier_proof

EXHAUSTIVE_LOSSES = (
    2703,
    3144,
    3862,
    4811,
    5304,
    5416,
    7077,
    7473,
    79,
    448,
    1315,
    2693,
    7807,
    7968,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="glencoe")
    parser.add_argument("--deals", nargs="+", type=int, default=EXHAUSTIVE_LOSSES)
    parser.add_argument("--units", type=int, default=30_000_000)
    parser.add_argument("--seconds", type=float, default=90.0)
    parser.add_argument("--span", type=int, default=frontier.SPAN, help="cards between cuts")
    parser.add_argument(
        "--max-test-states",
        type=int,
        default=frontier.MAX_TEST_STATES,
        help="the most states the column test is tried again with "
        f"(default {frontier.MAX_TEST_STATES:,}; {frontier.TEST_STATES:,}: never again)",
    )
    args = parser.parse_args()
    frontier.SPAN = args.span
    proved = 0
    for deal in args.deals:
        position = Position.start(args.game, deal, "manual")
        started = time.perf_counter()
        proof = frontier_proof(
            position,
            max_nodes=args.units,
            max_test_states=args.max_test_states,
            deadline=time.monotonic() + args.seconds,
        )
        seconds = time.perf_counter() - started
        proved += proof.verdict == "lost"
        levels = " ".join(f"{v.cut}:{v.frontier}>{v.left}" for v in proof.levels)
        print(
            f"{args.game} {deal}: {proof.verdict} in {proof.nodes:,} units, {seconds:.1f} s; {levels}",
            flush=True,
        )
    print(f"proved {proved} of {len(args.deals)} lost")


if __name__ == "__main__":
    main()
