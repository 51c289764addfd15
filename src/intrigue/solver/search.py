"""The exact search: depth-first, with a transposition table, limits and progress.

Winnability in this family is plain reachability: the game is deterministic
and the stock order is known, so a position is won exactly when some sequence
of legal moves reaches a won position.  A depth-first search that never
expands a position (up to :meth:`SearchState.key`) twice is therefore exact,
even though Faerie Queen's building down lets play go round in cycles: a
position met again is either on the current path (a cycle, nothing new) or
fully explored already (lost, or the search would have stopped).

Three shortcuts keep it fast, each proved safe in ``docs/solver.md`` and
tested by comparing verdicts with it switched off:

* *safe moves* -- a card goes to a pile at once, as the only child, when the
  piles can take every card of its kind still off them;
* *column symmetry* -- positions that differ only in the order of
  interchangeable columns share one key, and moves that only permute such
  columns are not generated;
* *deal first* -- in manual mode, when the newest column's top card cannot
  go up before the next deal, the deal is the only move tried.

Every "won" line is replayed through :meth:`Position.why_illegal` and
:meth:`Position.apply` before it is returned.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from intrigue.errors import IllegalMoveError
from intrigue.game import Game
from intrigue.notation import Move
from intrigue.position import Position
from intrigue.solver.rules import Tables, compile_rules
from intrigue.solver.state import COLUMN_MOVE, DEAL_CODE, SearchState, op_code, op_to_move
from intrigue.variants import Variant

try:
    from intrigue.solver import _core
except ImportError:  # installed without a C compiler: the same search runs in Python
    NATIVE = False
else:
    NATIVE = True
"""Whether the compiled search (``_core.c``, the same search as :func:`_python_search`) is built."""

Verdict = Literal["won", "lost", "unknown"]

DEFAULT_MAX_NODES = 25_000_000 if NATIVE else 2_000_000
"""Expanded positions before a search gives up with "unknown".  The compiled
search keeps about 50-100 bytes a position (at most about 2 GB at this limit,
and it decides every Faerie Queen deal 1-1000); the Python one a few hundred."""
PROBE_NODES = 20_000
"""Budget of the manual-mode probe (the rest of the pack dealt as in auto mode)."""
PROBE_SHARE_UNLIMITED = 500_000
"""The probes' budget when the search itself has no node limit (and a quarter
of it, the first plain search's)."""
HOLD_BACK_NODES = 500
"""Budget of each manual-mode probe that holds back cards of the auto deal."""
BEAM_WIDTH = 60
"""Hold-back sets kept at each level of the manual-mode beam (docs/solver.md)."""
BEAM_DEPTH = 20
"""Most cards one hold-back set of the beam holds."""
PROGRESS_EVERY = 4096
"""Nodes between two deadline checks / progress callbacks (a power of two)."""


class SolverBugError(RuntimeError):
    """A winning line failed its replay through the engine: a solver bug, never bad input."""


@dataclass(frozen=True)
class SolveResult:
    """The outcome of :func:`solve`.

    ``moves`` (for "won") played from the solved position through
    :meth:`intrigue.game.Game.play` reach a won position.  ``best`` is the
    most cards on the piles in any position the search reached: for "lost"
    that is exactly the most cards that can be brought to the piles.
    """

    verdict: Verdict
    moves: tuple[Move, ...] | None
    nodes: int
    seconds: float
    best: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The ``intrigue solve --json`` shape of INTERFACE.md (plus ``best``)."""
        return {
            "verdict": self.verdict,
            "moves": None if self.moves is None else [str(m) for m in self.moves],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "best": self.best,
        }


@lru_cache(maxsize=8)
def tables_for(variant: Variant) -> Tables:
    """The compiled rules of ``variant`` (compiled once per process)."""
    return compile_rules(variant)


def solve(
    position: Position,
    *,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    deadline: float | None = None,
    on_progress: Callable[[int], None] | None = None,
    safe_moves: bool = True,
    symmetry: bool = True,
    deal_first: bool = True,
    natural_spots: bool = True,
    lone_cards: bool = True,
    probe: bool = True,
    native: bool = True,
) -> SolveResult:
    """Decide whether ``position`` can be won, and how.

    ``deadline`` is an absolute :func:`time.monotonic` value; ``on_progress``
    is called with the node count every :data:`PROGRESS_EVERY` nodes and at
    the end.  ``safe_moves``, ``symmetry``, ``deal_first``,
    ``natural_spots`` and ``lone_cards`` switch the shortcuts, ``probe`` the manual-mode probes
    (for tests; each is proved safe in ``docs/solver.md``); ``native=False``
    runs the pure-Python search even where the compiled one is built (the two
    expand the same positions).  "lost" is returned only after an exhaustive
    search, "unknown" only when ``max_nodes`` or ``deadline`` cut the search
    short.

    >>> from intrigue.position import Position
    >>> solve(Position.start("intrigue", 1)).verdict
    'won'

    Raises:
        SolverBugError: if a winning line does not replay through the engine
            (it never should: this is the solver checking itself).
    """
    started = time.perf_counter()
    tables = tables_for(position.variant)
    options = {
        "symmetry": symmetry,
        "deal_first": deal_first,
        "natural_spots": natural_spots,
        "lone_cards": lone_cards,
    }
    search = _search if native else _python_search
    used = 0
    best = 0

    def progress_from(offset: int) -> Callable[[int], None] | None:
        if on_progress is None:
            return None
        report = on_progress
        return lambda nodes: report(offset + nodes)

    def finish(verdict: Verdict, moves: tuple[Move, ...] | None) -> SolveResult:
        if moves is not None:
            replay(position, moves)
        if on_progress is not None:
            on_progress(used)
        return SolveResult(verdict, moves, used, time.perf_counter() - started, best)

    probing = probe and position.mode == "manual" and not position.pack_dealt
    if probing:
        # Late in the deal a small search often decides at once: try it
        # before spending budget on the probes.
        quick = max_nodes // 8 if max_nodes is not None else PROBE_SHARE_UNLIMITED // 4
        state = SearchState(position, tables, **options)
        verdict, nodes, best = search(state, max(1, quick), deadline, progress_from(0), safe_moves)
        used += nodes
        if verdict != "unknown":
            line = _line(state) if verdict == "won" else None
            return finish(verdict, line)
        # Deal the rest as the auto mode would, holding back sets of the cards
        # it sends up (a beam search over them), and search each end a little.
        share = 3 * max_nodes // 8 if max_nodes is not None else PROBE_SHARE_UNLIMITED
        line, nodes, seen = _probe(
            position, tables, max(1, share), deadline, progress_from(used), native, **options
        )
        used += nodes
        best = max(best, seen)
        if line is not None:
            return finish("won", line)
    state = SearchState(position, tables, **options)
    rest = None if max_nodes is None else max(1, max_nodes - used)
    verdict, nodes, seen = search(state, rest, deadline, progress_from(used), safe_moves)
    used += nodes
    if verdict == "lost":
        best = seen  # exhaustive: exactly the most cards that can go up
    else:
        best = max(best, seen)
    return finish(verdict, _line(state) if verdict == "won" else None)


def _line(state: SearchState) -> tuple[Move, ...]:
    """The engine moves ``state`` has played (its undo log)."""
    return tuple(op_to_move(op) for op in state.log)


def stock_indices(position: Position) -> list[list[int]]:
    """The stock index (place in ``position.order``) of each column card, as in
    :attr:`SearchState.cols`: one list a column, bottom first, base left out."""
    where = {card: k for k, card in enumerate(position.order)}
    return [[where[c] for c in column[1:]] for column in position.columns]


def deal_holding_back(
    position: Position,
    tables: Tables,
    held: frozenset[int] = frozenset(),
    *,
    newest_first: bool = False,
    **options: bool,
) -> tuple[SearchState, list[int]]:
    """Deal the rest of the stock as ``auto`` mode does, by legal manual moves,
    except that the cards dealt ``held`` (stock indices) never go up during it.

    Each dealt card that can go to a pile goes there at once, then the cascade
    runs (the leftmost column top that can go up, again and again; the
    rightmost with ``newest_first``).  Returns the state at the end, whose log
    is the line played, and the stock indices of the cards sent up, in order.
    With nothing held back and the leftmost first this reaches exactly the
    auto deal's position (``test_manual_mode_can_replay_the_auto_deal``).
    ``options`` go to :class:`SearchState` (the shortcuts of the search that follows).
    This is the specification of the compiled ``_core.hold_back``, which deals
    the same way and then searches the end (``test_compiled_hold_back_*``).
    """
    state = SearchState(position, tables, **options)
    dealt = stock_indices(position)
    cols = state.cols
    sent: list[int] = []

    def send_up(i: int) -> None:
        state.play(i)
        sent.append(dealt[i].pop())

    while state.dealt < state.n_order:
        k = state.dealt
        state.play(DEAL_CODE)
        if len(cols) > len(dealt):
            dealt.append([])
        elif len(cols[-1]) > len(dealt[-1]):
            dealt[-1].append(k)
            if k not in held and state.can_up(cols[-1][-1]):
                send_up(len(cols) - 1)
        # Only a deal opens a column, so the cascade's scan is fixed until the next.
        scan = range(len(cols) - 1, -1, -1) if newest_first else range(len(cols))
        cascade = True
        while cascade:
            cascade = False
            for i in scan:
                col = cols[i]
                if col and dealt[i][-1] not in held and state.can_up(col[-1]):
                    send_up(i)
                    cascade = True
                    break
    return state, sent


def _probe(
    position: Position,
    tables: Tables,
    budget: int,
    deadline: float | None,
    on_progress: Callable[[int], None] | None,
    native: bool,
    **options: bool,
) -> tuple[tuple[Move, ...] | None, int, int]:
    """The manual-mode probes: (winning line or None, nodes used, best seen).

    First the auto deal itself, searched with up to :data:`PROBE_NODES`
    positions; then a beam search over *hold-back sets* (cards of the deal
    that stay in the columns however they could go up, so that a twin can
    take the pile), with the cascade leftmost first, then, with what is left,
    rightmost first.  Each try deals the pack holding back one set and
    searches the end with :data:`HOLD_BACK_NODES` positions; the moves of its
    dealing count as positions too, and ``budget`` caps the total.  With
    ``native`` (and the compiled search built) both the dealing and the
    search run in C (``_core.hold_back``), else :func:`deal_holding_back` and
    :func:`_python_search`: the same tries, positions and lines.
    """
    deal_and_search = _hold_back_tries(position, tables, deadline, native, options)
    first = min(PROBE_NODES, max(1, budget // 4))
    verdict, used, best, sent, _, line = deal_and_search(frozenset(), False, first)
    if verdict == "won":
        return line, used, best

    def attempt(
        held: frozenset[int], newest_first: bool
    ) -> tuple[tuple[Move, ...] | None, int, list[int]]:
        nonlocal used, best
        _, nodes, seen, sent, dealing, line = deal_and_search(held, newest_first, HOLD_BACK_NODES)
        used += nodes + dealing
        best = max(best, seen)
        if on_progress is not None:
            on_progress(used)
        return line, seen, sent

    def beam_search(sent: list[int], newest_first: bool, cap: int) -> tuple[Move, ...] | None:
        # A hold-back set, the cards its deal sent up, and where its children
        # start in that list: at the parent's last hold, so that the same set
        # is rarely built twice (``tried`` skips it when it is).
        tried: set[frozenset[int]] = set()
        beam: list[tuple[frozenset[int], list[int], int]] = [(frozenset(), sent, 0)]
        for _ in range(BEAM_DEPTH):
            children: list[tuple[int, frozenset[int], list[int], int]] = []
            for held, sent_then, start in beam:
                for j in range(start, len(sent_then)):
                    child = held | {sent_then[j]}
                    if child in tried:
                        continue
                    if used + HOLD_BACK_NODES > cap or (
                        deadline is not None and time.monotonic() >= deadline
                    ):
                        return None
                    tried.add(child)
                    line, score, sent_now = attempt(child, newest_first)
                    if line is not None:
                        return line
                    children.append((score, child, sent_now, j))
            if not children:
                break
            # The most cards up first; ties keep the order they were tried in.
            children.sort(key=lambda c: -c[0])
            beam = [(held, sent_now, j) for _, held, sent_now, j in children[:BEAM_WIDTH]]
        return None

    line = beam_search(sent, False, used + (budget - used) // 2)
    out_of_time = deadline is not None and time.monotonic() >= deadline
    if line is None and used + HOLD_BACK_NODES <= budget and not out_of_time:
        line, _, sent = attempt(frozenset(), True)
        if line is None:
            line = beam_search(sent, True, budget)
    return line, used, best


HoldBackTry = Callable[
    [frozenset[int], bool, int],
    tuple[Verdict, int, int, list[int], int, tuple[Move, ...] | None],
]
"""One try of the probes: (held, newest_first, max_nodes) -> (verdict, nodes,
best, the stock indices sent up, the moves of the dealing, the line if won)."""


def _hold_back_tries(
    position: Position,
    tables: Tables,
    deadline: float | None,
    native: bool,
    options: dict[str, bool],
) -> HoldBackTry:
    """The probes' try from ``position``: deal the rest holding back a set, search the end.

    Compiled (``native`` and built): one :class:`SearchState` and the stock
    indices of its column cards serve every try, as ``_core.hold_back`` leaves
    the state untouched.  Otherwise :func:`deal_holding_back` and
    :func:`_python_search`.
    """
    if native and NATIVE:
        start = SearchState(position, tables, **options)
        origins = stock_indices(position)

        def compiled(
            held: frozenset[int], newest_first: bool, max_nodes: int
        ) -> tuple[Verdict, int, int, list[int], int, tuple[Move, ...] | None]:
            verdict, nodes, best, sent, dealing, ops = _core.hold_back(
                start, origins, held, newest_first, max_nodes, deadline, True
            )
            line = None if ops is None else tuple(op_to_move(op) for op in ops)
            return verdict, nodes, best, sent, dealing, line

        return compiled

    def python(
        held: frozenset[int], newest_first: bool, max_nodes: int
    ) -> tuple[Verdict, int, int, list[int], int, tuple[Move, ...] | None]:
        state, sent = deal_holding_back(
            position, tables, held, newest_first=newest_first, **options
        )
        dealing = len(state.log)
        verdict, nodes, best = _python_search(state, max_nodes, deadline, None, True)
        return verdict, nodes, best, sent, dealing, _line(state) if verdict == "won" else None

    return python


def replay(position: Position, moves: tuple[Move, ...]) -> Position:
    """Play ``moves`` from ``position`` through the engine's checked path; return the end.

    Raises:
        SolverBugError: if a move is illegal or the end is not won.
    """
    game = Game(start=position)
    for number, move in enumerate(moves, 1):
        try:
            game.play(move)
        except IllegalMoveError as e:
            raise SolverBugError(f"solver line fails at move {number}: {e}") from None
    position = game.position
    if not position.is_won():
        raise SolverBugError(
            f"solver line of {len(moves)} moves does not win {position.describe()}"
        )
    return position


def _search(
    state: SearchState,
    max_nodes: int | None,
    deadline: float | None,
    on_progress: Callable[[int], None] | None,
    safe_moves: bool,
) -> tuple[Verdict, int, int]:
    """:func:`_python_search`, by the compiled search where it is built.

    The compiled search leaves ``state`` as it was; on "won" its line is
    played here, so that ``state.log`` holds the line as after the Python one.
    """
    if not NATIVE:
        return _python_search(state, max_nodes, deadline, on_progress, safe_moves)
    verdict, nodes, best, ops = _core.search(state, max_nodes, deadline, on_progress, safe_moves)
    for op in ops or ():
        state.play(op_code(op))
    return verdict, nodes, best


def _python_search(
    state: SearchState,
    max_nodes: int | None,
    deadline: float | None,
    on_progress: Callable[[int], None] | None,
    safe_moves: bool,
) -> tuple[Verdict, int, int]:
    """Depth-first search from ``state``; on "won" ``state.log`` holds the line.

    Returns (verdict, nodes expanded, most cards on piles seen).
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
        fast = move >= COLUMN_MOVE and key_after(move, safe) or None
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
        if move >= COLUMN_MOVE and len(log) == mark + 1:
            # Moving the card straight back gives the parent position again.
            back = COLUMN_MOVE + 8 * ((move - COLUMN_MOVE) & 7) + ((move - COLUMN_MOVE) >> 3)
            if back in children:
                children.remove(back)
        marks.append(mark)
        stack.append(children)
        tops.append(0)
    return "lost", nodes, best
