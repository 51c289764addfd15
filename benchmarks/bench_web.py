"""Card-table server benchmark: move latency over loopback and page weight.

Runs the real app under uvicorn on 127.0.0.1 with a temporary database and
times ``POST /api/games/{id}/moves`` with a keep-alive HTTP client (each
request is a move followed, untimed, by its undo, so the history stays the
same length).  The history length matters because a game is rebuilt from its
moves on every request, so it is measured at the start of a deal and deep
into one.  Page weight is the bytes of the HTML, JS, CSS and icon the page
loads, raw and gzipped.

    python benchmarks/bench_web.py [--requests N]
"""

from __future__ import annotations

import argparse
import gzip
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
import uvicorn

from intrigue.position import Position
from intrigue.solver import solve
from intrigue.web.app import STATIC, create_app
from intrigue.web.settings import Settings

CASES = [("intrigue", 3, 0), ("faerie-queen", 2, 100)]
"""(game, deal, moves played before timing): a fresh deal and a long history."""


def serve(db: Path) -> tuple[uvicorn.Server, threading.Thread, str]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(create_app(Settings(db_path=db)), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    return server, thread, f"http://127.0.0.1:{sock.getsockname()[1]}"


def time_moves(client: httpx.Client, game: str, deal: int, before: int, n: int) -> list[float]:
    line = [str(m) for m in solve(Position.start(game, deal), max_nodes=500_000).moves or ()]
    gid = client.post("/api/games", json={"game": game, "deal": deal}).json()["id"]
    for m in line[:before]:
        client.post(f"/api/games/{gid}/moves", json={"move": m}).raise_for_status()
    move = line[before]
    samples = []
    for _ in range(n):
        t = time.perf_counter()
        r = client.post(f"/api/games/{gid}/moves", json={"move": move})
        samples.append((time.perf_counter() - t) * 1000)
        r.raise_for_status()
        client.post(f"/api/games/{gid}/undo").raise_for_status()
    return samples


def page_weight() -> list[tuple[str, int, int]]:
    rows = []
    for kind, pattern in [
        ("HTML", "*.html"),
        ("JS", "js/*.js"),
        ("CSS", "css/*.css"),
        ("icon", "*.svg"),
    ]:
        data = b"".join(p.read_bytes() for p in sorted(STATIC.glob(pattern)))
        rows.append((kind, len(data), len(gzip.compress(data))))
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=300, help="timed moves per case")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        server, thread, url = serve(Path(tmp) / "bench.sqlite3")
        try:
            with httpx.Client(base_url=url) as client:
                print(f"move latency over loopback, {args.requests} requests each (ms)")
                print(f"{'game':<14}{'history':>8}{'median':>9}{'p99':>9}{'max':>9}")
                for game, deal, before in CASES:
                    s = sorted(time_moves(client, game, deal, before, args.requests))
                    p99 = s[min(len(s) - 1, int(len(s) * 0.99))]
                    print(
                        f"{game:<14}{before:>8}{statistics.median(s):>9.2f}{p99:>9.2f}{s[-1]:>9.2f}"
                    )
        finally:
            server.should_exit = True
            thread.join(10)
    print()
    print("page load weight (bytes)")
    print(f"{'part':<8}{'raw':>9}{'gzip':>9}")
    rows = page_weight()
    for kind, raw, gz in rows:
        print(f"{kind:<8}{raw:>9}{gz:>9}")
    print(f"{'total':<8}{sum(r[1] for r in rows):>9}{sum(r[2] for r in rows):>9}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
