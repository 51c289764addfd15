"""The depth-first search: exact, with a transposition table, limits and progress.

Winnability is plain reachability (the game is deterministic and the stock
order known), so a search that never expands a position (up to
:meth:`SearchState.key`) twice is exact; ``intrigue.solver.search`` builds the
solver around it, and the frontier proof (``intrigue.solver.frontier``) ends
with it.  ``_core.c`` is the same search compiled.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Literal, TypedDict, cast

from intrigue.errors import CheckpointError
from intrigue.solver.state import COLUMN_MOVE, DIG_CODE, SearchState, op_code

try:
    from intrigue.solver import _core
except ImportError:  # installed without a C compiler: the same search runs in Python
    NATIVE = False
else:
    NATIVE = True
"""Whether the compiled search (``_core.c``, the same search as :func:`python_search`) is built."""

Verdict = Literal["won", "lost", "unknown"]

PROGRESS_EVERY = 4096
"""Nodes between two deadline checks / progress callbacks (a power of two)."""


class OutOfMemory(Exception):
    """A search stopped because its table of positions would not fit in the
    memory left: a limit, like ``max_nodes``, that a larger ``max_nodes``
    cannot lift on the same machine.  The compiled search checks before each
    table grows (``_memory.h``: the machine's available memory, or its
    container's, less a reserve); the Python one stops at a MemoryError."""

    def __init__(self, nodes: int, best: int) -> None:
        super().__init__(f"the search ran out of memory after {nodes} positions")
        self.nodes = nodes
        """Positions expanded before it stopped."""
        self.best = best
        """The most cards on the piles it saw."""


def search(
    state: SearchState,
    max_nodes: int | None,
    deadline: float | None,
    on_progress: Callable[[int], None] | None,
    safe_moves: bool,
) -> tuple[Verdict, int, int]:
    """:func:`python_search`, by the compiled search where it is built.

    The compiled search leaves ``state`` as it was; on "won" its line is
    played here, so that ``state.log`` holds the line as after the Python one.

    Raises:
        OutOfMemory: where the table of positions outgrew the memory left.
    """
    if not NATIVE:
        return python_search(state, max_nodes, deadline, on_progress, safe_moves)
    return _outcome(state, *_core.search(state, max_nodes, deadline, on_progress, safe_moves))


def layered_search(
    state: SearchState,
    max_nodes: int | None,
    deadline: float | None,
    on_progress: Callable[[int], None] | None,
    safe_moves: bool,
    *,
    trace: bool = True,
    part_records: int | None = None,
    max_entries: int | None = None,
    checkpoint: str | Path | None = None,
    save_every: float | None = None,
) -> tuple[Verdict, int, int]:
    """:func:`search`, layer by layer: the same positions, in far less memory.

    Every move keeps a position's *progress* (cards dealt plus cards on the
    piles: a move between columns) or raises it (a deal, a card going up), so
    once every position of lower progress has been expanded none is met
    again.  The compiled search (``_core.layered``) expands the positions in
    order of progress and frees each layer when it is done: on a lost position
    it expands exactly the positions :func:`search` does (same count, same
    ``best``) while holding a fraction of them.  A win is found only when the
    search gets there, after every position of lower progress, so this is the
    search for proving losses (``docs/solver.md``, "The search by layers").
    A layer with more than ``part_records`` positions waiting for it (by
    default 131 072) is expanded a part at a time, split by the
    positions' cards up, which no move within a layer changes: the same
    positions again, in the memory of the largest part.

    The way back to a win is kept in a temporary file, which stops growing
    where the disk would be left short (or after ``max_entries`` positions, or
    from the start with ``trace=False``).  A win found after that comes back
    with its line as far as the way was kept: from the position it reaches,
    a win is sure, and the search by layers runs again from there within what
    is left of the limit, a smaller search, until a line is whole; where none
    of the way was kept, the line is looked for depth first ("unknown" if
    that search runs out).  Where the compiled search is not built,
    :func:`python_search` runs instead.

    With a ``checkpoint`` directory (made if missing) the search keeps its
    files there, and where it stops short of a verdict (``max_nodes``,
    ``deadline``, Ctrl-C, the memory or the disk) it saves itself there:
    run again on the same position with the same directory, it goes on
    where it stopped, ``max_nodes`` counting every position since the
    first run (``docs/solver.md``, "A search by layers, kept").  It also
    saves itself as it goes, every ``save_every`` seconds (by default 600;
    a negative number: never), so that a search killed outright (SIGKILL,
    the machine going down) goes on from its last save.  A verdict empties
    the directory and removes it.

    Raises:
        OutOfMemory: where even a layer outgrew the memory left, or the
            positions waiting for the layers above it the disk left.
        OSError: where its temporary file cannot be written.
        CheckpointError: where ``checkpoint`` holds a search of another
            position or search options, or a damaged one (left as it is).
    """
    if not NATIVE:
        if checkpoint is not None:
            raise CheckpointError("a checkpoint needs the compiled search, which is not built")
        return python_search(state, max_nodes, deadline, on_progress, safe_moves)
    options: _LayeredOptions = {}
    if part_records is not None:
        options["part_records"] = part_records
    if max_entries is not None:
        options["max_entries"] = max_entries
    if save_every is not None:
        options["save_every"] = save_every
    mark = len(state.log)
    with ExitStack() as kept:
        if checkpoint is not None:
            options["save_dir"] = str(kept.enter_context(_kept_in(Path(checkpoint))))
        try:
            verdict, nodes, best = _layered_rounds(
                state, max_nodes, deadline, on_progress, safe_moves, trace, options
            )
        except _core.CheckpointError as bad:
            raise CheckpointError(str(bad)) from None
        except OutOfMemory:
            state.undo_to(mark)
            raise
    if verdict != "won":  # as the compiled search leaves it
        state.undo_to(mark)
    return verdict, nodes, best


class _LayeredOptions(TypedDict, total=False):
    """``_core.layered``'s keywords that :func:`layered_search` passes on where given."""

    part_records: int
    max_entries: int
    save_dir: str
    save_every: float


_KEPT_FILE = re.compile(
    r"w\d+(-\d+){0,2}(\.new)?|entries|columns(\.tmp)?|search\.tmp|status(\.tmp)?"
)
"""The files of a search by layers kept in a directory, but its manifest ``search``."""

_SAVES = ("saved", "saved.old")
"""Where a search kept in a directory saves itself as it goes (``_core.c``,
"a kept search, saved as it goes"), the last save first."""

_SAVING = "saved.new"
"""A save being made, which may not be whole: never gone on from."""


_LAYERS = "layers"
"""A kept search's history: a line ``layer positions best`` appended as each
layer begins (``_core.c``, ``write_status``), kept across its runs."""


def _layers_begun(path: Path) -> list[tuple[int, int]]:
    """Each line of the history of the search kept in ``path``, as (layer,
    positions before it), in the order written; none where nothing is kept.
    A line cut short as it is written has fewer than three fields, or all its
    positions (only ``best`` is cut), so it is dropped or read right."""
    try:
        lines = (path / _LAYERS).read_text().splitlines()
    except FileNotFoundError:
        return []
    fields = (line.split() for line in lines)
    return [(int(f[0]), int(f[1])) for f in fields if len(f) == 3 and all(x.isdigit() for x in f)]


def kept_layers(path: Path) -> list[tuple[int, int]]:
    """The layers that the search kept in ``path`` has expanded whole, each
    with the positions it held, in order (none where nothing is kept there).
    How fast they grow tells whether the search is worth going on with
    (``docs/solver.md``, "A search by layers, kept")."""
    began: dict[int, int] = {}
    for p, nodes in _layers_begun(path):
        began.setdefault(p, nodes)  # the first line: a search that goes on appends it again
    return [(p, began[p + 1] - began[p]) for p in sorted(began) if p + 1 in began]


def kept_layer(path: Path) -> int | None:
    """The layer that the search kept in ``path`` is in (the last it began),
    or None where nothing is kept there."""
    begun = _layers_begun(path)
    return begun[-1][0] if begun else None


def has_kept_search(path: Path) -> bool:
    """Whether ``path`` holds a search by layers that can go on: saved where
    it stopped, or as it went."""
    return any((place / "search").exists() for place in (path, *(path / name for name in _SAVES)))


def _restore_save(path: Path) -> bool:
    """Where ``path`` has no manifest of a stop, the files of its last save
    made as the search went, in place of the search's own (which it went on
    writing after that save): whether there was one.  The save's files are
    hard links, put back as links, so that it stays whole until the search
    saves itself again; the manifest comes last, and until it is there
    doing this again starts over."""
    save = next((path / name for name in _SAVES if (path / name / "search").exists()), None)
    if save is None:
        return False
    names = {f.name for f in save.iterdir()}
    for leftover in path.iterdir():
        if _KEPT_FILE.fullmatch(leftover.name) and leftover.name not in names:
            leftover.unlink()
    for name in sorted(names - {"search"}):
        (path / name).unlink(missing_ok=True)
        os.link(save / name, path / name)
    os.link(save / "search", path / "search.tmp")  # (cleared above: not a save's)
    (path / "search.tmp").replace(path / "search")
    return True


@contextmanager
def _kept_in(path: Path) -> Iterator[Path]:
    """``path`` for one search at a time, made where missing, and removed
    after if nothing is kept there (a verdict).  Without a manifest of a
    stop, a search killed outright goes on from its last save as it went
    (:func:`_restore_save`); without either it cannot go on, and the
    directory is first emptied of the files such a search leaves.

    Raises:
        CheckpointError: where another search is using it.
    """
    path.mkdir(parents=True, exist_ok=True)
    with (path / "lock").open("a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise CheckpointError(f"{path}: another search is using it") from None
        try:
            if not (path / "search").exists() and not _restore_save(path):
                (path / _LAYERS).unlink(missing_ok=True)  # another search's history
                for leftover in path.iterdir():
                    if _KEPT_FILE.fullmatch(leftover.name):
                        leftover.unlink()
                    elif leftover.name in (*_SAVES, _SAVING) and leftover.is_dir():
                        shutil.rmtree(leftover)
            yield path
        finally:
            (path / "lock").unlink()
    if not any(path.iterdir()):
        path.rmdir()


def _layered_rounds(
    state: SearchState,
    max_nodes: int | None,
    deadline: float | None,
    on_progress: Callable[[int], None] | None,
    safe_moves: bool,
    trace: bool,
    options: _LayeredOptions,
) -> tuple[Verdict, int, int]:
    """:func:`layered_search`'s searches, each from where the last one's way
    back stopped, the line played on ``state`` as it goes (only the first
    is kept in a checkpoint directory: those after it are from elsewhere)."""
    spent, best = 0, state.on

    def left() -> int | None:
        return None if max_nodes is None else max(1, max_nodes - spent)

    while True:
        found, nodes, seen, ops = _core.layered(
            state, left(), deadline, _shifted(on_progress, spent), safe_moves, trace, **options
        )
        spent, best = spent + nodes, max(best, seen)
        options.pop("save_dir", None)
        if found != "won_untraced":
            return _outcome(state, found, spent, best, ops)
        if ops is None:  # none of the way kept: depth first
            verdict, more, seen = search(
                state, left(), deadline, _shifted(on_progress, spent), safe_moves
            )
            if verdict == "lost":
                raise RuntimeError(
                    "the search by layers won a position the depth-first search lost"
                )
            return ("won" if verdict == "won" else "unknown"), spent + more, max(best, seen)
        for op in ops:  # to the last position whose way was kept: a win is sure from there
            state.play(op_code(op))
        if max_nodes is not None and spent >= max_nodes:
            return "unknown", spent, best


def _shifted(on_progress: Callable[[int], None] | None, spent: int) -> Callable[[int], None] | None:
    """``on_progress`` for a search that starts after ``spent`` positions."""
    if on_progress is None or not spent:
        return on_progress
    return lambda nodes: on_progress(spent + nodes)


def _outcome(
    state: SearchState, found: str, nodes: int, best: int, ops: list[int] | None
) -> tuple[Verdict, int, int]:
    """A compiled search's answer: ``OutOfMemory`` for "memory", a won line
    played on ``state``."""
    if found == "memory":
        raise OutOfMemory(nodes, best)
    for op in ops or ():
        state.play(op_code(op))
    return cast(Verdict, found), nodes, best


def python_search(
    state: SearchState,
    max_nodes: int | None,
    deadline: float | None,
    on_progress: Callable[[int], None] | None,
    safe_moves: bool,
) -> tuple[Verdict, int, int]:
    """Depth-first search from ``state``; on "won" ``state.log`` holds the line.

    Returns (verdict, nodes expanded, most cards on piles seen).

    Raises:
        OutOfMemory: at a MemoryError (``state`` is then left mid-line).
    """
    target = state.goal
    log = state.log
    play = state.play
    undo_to = state.undo_to
    key = state.key
    gen = state.moves
    play_safe = state.play_safe if safe_moves else None
    play_safe_after = state.play_safe_after
    key_after = state.key_after
    safe = play_safe is not None
    limit = max_nodes if max_nodes is not None else 1 << 62

    if play_safe is not None:
        play_safe()
    best = state.on
    if state.on == target:
        return "won", 1, best
    seen = {key()}
    nodes = 1
    try:
        marks: list[int] = [0]
        stack: list[list[int]] = [gen()]
        tops: list[int] = [0]
        while stack:
            moves = stack[-1]
            k = tops[-1]
            if k == len(moves):
                stack.pop()
                tops.pop()
                undo_to(marks.pop())
                continue
            tops[-1] = k + 1
            mark = len(log)
            move = moves[k]
            fast = COLUMN_MOVE <= move < DIG_CODE and key_after(move, safe) or None
            if fast is not None:
                # A column move with no safe move after it: look the key up first.
                if fast in seen:
                    continue
                play(move)
                h = fast
            else:
                play(move)
                if play_safe is not None:
                    play_safe_after(move)
                if state.on == target:
                    return "won", nodes, state.on
                h = key()
                if h in seen:
                    undo_to(mark)
                    continue
            on = state.on
            seen.add(h)
            nodes += 1
            if on > best:
                best = on
            if nodes >= limit:
                return "unknown", nodes, best
            if not nodes & (PROGRESS_EVERY - 1):
                if deadline is not None and time.monotonic() >= deadline:
                    return "unknown", nodes, best
                if on_progress is not None:
                    on_progress(nodes)
            children = gen()
            if COLUMN_MOVE <= move < DIG_CODE and len(log) == mark + 1:
                # Moving the card straight back gives the parent position again.
                back = COLUMN_MOVE + 8 * ((move - COLUMN_MOVE) & 7) + ((move - COLUMN_MOVE) >> 3)
                if back in children:
                    children.remove(back)
            marks.append(mark)
            stack.append(children)
            tops.append(0)
    except MemoryError:
        raise OutOfMemory(nodes, best) from None
    return "lost", nodes, best
