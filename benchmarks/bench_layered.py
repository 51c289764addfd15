"""Search-by-layers benchmark: the same exhaustive search, depth first and by layers.

    python benchmarks/bench_layered.py                          # three lost manual deals
    python benchmarks/bench_layered.py --deals faerie-queen:2493 glencoe:915
    python benchmarks/bench_layered.py --max-nodes 5000000 --deals faerie-queen:1
    python benchmarks/bench_layered.py --part-records 1000000000000   # also: whole layers

Runs ``dfs.search`` and ``dfs.layered_search`` on each deal's manual start, each
in a fresh process (so that its peak memory is its own), and prints for both the
verdict, positions, most cards up, seconds and the process's peak resident
memory, and for the search by layers the most disk its files took at once (the
positions waiting, coded, and the entries; polled as it runs, in a directory
of its own).  The search by layers runs at its default part size (a layer with more
positions waiting than that is expanded in parts by class); ``--part-records N``
runs it once more at N (larger than any layer: the layers whole).  On a lost
deal they must all expand the same positions (the script says so when they do
not).  docs/solver.md, "The search by layers", has the figures.
Compares the two searches; never a unit test.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEALS = ("faerie-queen:2493", "faerie-queen:9844", "glencoe:7077")

_RUN = """
import json, resource, sys, time
from intrigue.position import Position
from intrigue.solver.dfs import layered_search, search
from intrigue.solver.rules import tables_for
from intrigue.solver.state import SearchState

game, deal, how, limit = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
parts = int(sys.argv[5]) if sys.argv[5] != "-" else None
kept = sys.argv[6] if len(sys.argv) > 6 else None
position = Position.start(game, deal, "manual")
state = SearchState(position, tables_for(position.variant))
started = time.perf_counter()
if how == "depth":
    verdict, nodes, best = search(state, limit, None, None, True)
else:
    verdict, nodes, best = layered_search(
        state, limit, None, None, True, part_records=parts, checkpoint=kept
    )
seconds = time.perf_counter() - started
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps([verdict, nodes, best, seconds, peak]))
"""


def measure(
    game: str, deal: int, how: str, limit: int, part_records: int | None = None
) -> list[object]:
    """[verdict, nodes, best, seconds, peak memory, peak disk (None: depth first)]."""
    parts = "-" if part_records is None else str(part_records)
    with tempfile.TemporaryDirectory() as tmp:
        # the search keeps its files in a directory of its own (the same files
        # it would write anonymously), so that their size can be watched
        kept = [] if how == "depth" else [str(Path(tmp) / "kept")]
        run = subprocess.Popen(
            [sys.executable, "-c", _RUN, game, str(deal), how, str(limit), parts, *kept],
            stdout=subprocess.PIPE,
            text=True,
        )
        disk = 0
        while run.poll() is None:
            disk = max(disk, _size(Path(tmp)))
            time.sleep(0.05)
        out, _ = run.communicate()
        if run.returncode:
            raise SystemExit(f"{game} {deal} {how}: the search failed ({run.returncode})")
    return [*json.loads(out), None if how == "depth" else disk]


def _size(directory: Path) -> int:
    total = 0
    for path in directory.rglob("*"):
        try:
            total += path.stat().st_size
        except FileNotFoundError:  # deleted as it was listed
            pass
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", nargs="+", default=DEALS, help="GAME:DEAL, manual mode")
    parser.add_argument("--max-nodes", type=int, default=200_000_000)
    parser.add_argument(
        "--part-records", type=int, help="also by layers, in parts of at most this many waiting"
    )
    args = parser.parse_args()
    for item in args.deals:
        game, deal = item.split(":")
        figures = {
            how: measure(game, int(deal), how, args.max_nodes) for how in ("depth", "layered")
        }
        if args.part_records:
            figures["parts"] = measure(game, int(deal), "parts", args.max_nodes, args.part_records)
        for how, (verdict, nodes, best, seconds, peak, disk) in figures.items():
            files = "" if disk is None else f"  disk {disk / 2**20:8.0f} MB"
            print(
                f"{game:13} {deal:>5} {how:8} {verdict:8} {nodes:>12,} positions  best {best:>3}"
                f"  {seconds:8.1f} s  peak {peak / 2**20:8.0f} MB{files}"
            )
        depth = figures.pop("depth")
        if depth[0] == "lost" and any(other[:3] != depth[:3] for other in figures.values()):
            print(f"  !! {item}: the searches did not expand the same positions")


if __name__ == "__main__":
    main()
