"""Progress lines on stderr for long work: a batch of deals, one long search.

On a terminal the line is redrawn in place; otherwise (a log file, a pipe) a
batch prints one plain line per tenth of the run and a search prints nothing
(but for a deal of a batch that searches for more than ten minutes: a line
every ten minutes), so that logs stay short.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import IO

LOG_EVERY = 600.0
"""Seconds between two plain lines of one long search of a batch."""


class ProgressBar:
    """A progress line with ETA on a stream (stderr): redrawn in place on a
    terminal, one plain line per tenth of the run otherwise.

    :meth:`searching` adds the positions of the deal being searched, where the
    batch runs in this process (one worker): a deal can take an hour.  ``unit``
    names what its search counts: positions, or the column test's relaxed
    states, or the cards the order test has tried.
    """

    def __init__(
        self,
        stream: IO[str] | None = None,
        width: int = 30,
        detail: Callable[[int], str | None] | None = None,
        unit: str = "positions",
    ) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.unit = unit
        self.detail = detail  # more on the deal being searched, e.g. the layer a kept search is in
        self.tty = self.stream.isatty()
        self.width = width
        self.started = time.monotonic()
        self.first_done: int | None = None
        self.last_tenth = -1
        self.line = ""
        self.deal: int | None = None
        self.deal_started = self.started
        self.deal_from = 0
        self.logged = self.started

    def searching(self, deal: int, nodes: int) -> None:
        """Deal ``deal`` of the batch has searched ``nodes`` positions so far."""
        now = time.monotonic()
        if deal != self.deal:
            # the rate from the first count heard: a search that goes on where
            # it was kept (--checkpoint) starts at the positions of its runs before
            self.deal, self.deal_started, self.logged, self.deal_from = deal, now, now, nodes
        elapsed = now - self.deal_started
        # a terminal at most five times a second; a log every LOG_EVERY
        if elapsed < 1.0 or now - self.logged < (0.2 if self.tty else LOG_EVERY):
            return
        self.logged = now
        rate = (nodes - self.deal_from) / elapsed
        more = self.detail(deal) if self.detail is not None else None
        text = f"deal {deal}: {nodes:,} {self.unit}, {'' if more is None else more + ', '}"
        text += f"{rate:,.0f}/s, {_clock(elapsed)}"
        self.stream.write(f"\r{self.line}  {text}\x1b[K" if self.tty else text + "\n")
        self.stream.flush()

    def __call__(self, done: int, total: int, counts: dict[str, int]) -> None:
        if self.first_done is None:
            self.first_done = done
        now = time.monotonic()
        fresh = done - self.first_done
        eta = (now - self.started) / fresh * (total - done) if fresh else None
        text = (
            f"{done}/{total} deals  won {counts['won']} lost {counts['lost']} "
            f"unknown {counts['unknown']}  ETA {_clock(eta)}"
        )
        if self.tty:
            filled = self.width * done // max(total, 1)
            bar = "#" * filled + "-" * (self.width - filled)
            end = "\n" if done >= total else ""
            self.line = f"[{bar}] {text}"
            self.stream.write(f"\r{self.line}\x1b[K{end}")
            self.stream.flush()
        else:
            tenth = 10 * done // max(total, 1)
            if tenth != self.last_tenth:
                self.last_tenth = tenth
                self.stream.write(text + "\n")
                self.stream.flush()


def _clock(seconds: float | None) -> str:
    if seconds is None:
        return "--:--"
    s = int(seconds)
    return (
        f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"
    )


class SearchProgress:
    """``on_progress`` for :func:`intrigue.solver.solve`: positions searched
    against the node limit, the rate and the time so far.

    Silent for the first second (most searches end sooner) and when the
    stream is not a terminal; :meth:`close` clears the line.
    """

    def __init__(self, limit: int | None, stream: IO[str] | None = None, width: int = 30) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.tty = self.stream.isatty()
        self.limit = limit
        self.width = width
        self.started = time.monotonic()
        self.drawn = False

    def __call__(self, nodes: int) -> None:
        elapsed = time.monotonic() - self.started
        if not self.tty or elapsed < 1.0:
            return
        rate = nodes / elapsed
        if self.limit is None:
            text = f"searching: {nodes:,} positions"
            bar = ""
        else:
            text = f"searching: {nodes:,} of at most {self.limit:,} positions"
            filled = self.width * min(nodes, self.limit) // self.limit
            bar = "[" + "#" * filled + "-" * (self.width - filled) + "] "
        self.stream.write(f"\r{bar}{text}  {rate:,.0f}/s  {_clock(elapsed)}\x1b[K")
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        """Clear the progress line, if one was drawn."""
        if self.drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.drawn = False
