"""The exact solver: the depth-first search of :mod:`intrigue.solver.dfs`, and around it.

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
:meth:`Position.apply` before it is returned.  Where the search cannot
decide, the column test (:mod:`intrigue.solver.relaxation`) may still prove
a loss.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Literal, NamedTuple

from intrigue.errors import IllegalMoveError
from intrigue.game import Game
from intrigue.notation import Move
from intrigue.position import Position
from intrigue.solver.dfs import NATIVE, OutOfMemory, Verdict
from intrigue.solver.dfs import layered_search as _layered_search
from intrigue.solver.dfs import python_search as _python_search
from intrigue.solver.dfs import search as _search
from intrigue.solver.frontier import frontier_proof
from intrigue.solver.narrower import solve_narrower
from intrigue.solver.projection import PROJECTION_SHARE, PROJECTION_STATES, blocked_ranks
from intrigue.solver.relaxation import COLUMN_TEST_SHARE, COLUMN_TEST_STATES, blocked_column
from intrigue.solver.rollouts import END_NODES as ROLLOUT_END_NODES
from intrigue.solver.rollouts import SEED, Rollouts
from intrigue.solver.rules import Tables, tables_for
from intrigue.solver.state import (
    COLUMN_MOVE,
    DEAL_CODE,
    SearchState,
    Snapshot,
    op_to_move,
    play_tracked,
    stock_indices,
)

if NATIVE:
    from intrigue.solver import _core

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
DEAL_BEAMS_FROM = 1_000_000
"""The least ``max_nodes`` at which the manual-mode probes include beams over the deal."""
HOLD_BACK_BEAM_NODES = 1_500_000
"""Most positions one manual-mode beam over hold-back sets may use, where beams
over the deal follow it."""
DEAL_BEAM_NODES = 500
"""The usual budget of a try that scores a position of a beam over the deal."""
DEAL_BEAMS = (
    (16, DEAL_BEAM_NODES),
    (16, 5_000),
    (16, 20_000),
    (64, DEAL_BEAM_NODES),
    (64, 5_000),
    (256, DEAL_BEAM_NODES),
    (256, 5_000),
    (1024, DEAL_BEAM_NODES),
    (4096, DEAL_BEAM_NODES),
    (16384, DEAL_BEAM_NODES),
)
"""The manual-mode beams over the deal, tried in turn (docs/solver.md): each its
width and the budget of each try that scores one of its positions."""
NARROWER_FROM = 10_000_000
"""The least ``max_nodes`` at which a manual-mode solve also searches the
position as the narrower games (docs/solver.md, "Narrower games"); below it
their share wins less than the final search loses (measured)."""
ROLLOUT_SHARE_UNLIMITED = 2_000_000
"""The rollouts' budget when the search itself has no node limit."""
DEAL_BEAM_CHILDREN = 64
"""Most children one position of a beam over the deal may have."""


_Proof = tuple[Literal["columns", "ranks"], tuple[int, ...]] | None
"""What a relaxed game proved blocked: columns (the column test) or ranks (the projection)."""


class SolverBugError(RuntimeError):
    """A winning line failed its replay through the engine: a solver bug, never bad input."""


@dataclass(frozen=True)
class SolveResult:
    """The outcome of :func:`solve`.

    ``moves`` (for "won") played from the solved position through
    :meth:`intrigue.game.Game.play` reach a won position.  ``best`` is the
    most cards on the piles in any position the search reached: for "lost"
    that is exactly the most cards that can be brought to the piles, unless
    ``blocked`` is set.  ``blocked`` is the column, or the columns together, that
    the column test (:mod:`intrigue.solver.relaxation`) found can never be
    cleared, when that is what proved the loss; ``blocked_ranks`` likewise the
    ranks (one pile kind's staircase) that the rank projection
    (:mod:`intrigue.solver.projection`) found can never all reach the piles.
    ``best`` is then only a lower bound.  ``test_states`` is set when the
    frontier proof ran (``frontier_only``): the most relaxed states its column
    test could give a position, which reproducing the verdict needs.
    ``memory_full`` says that a search ran out of memory
    (:class:`~intrigue.solver.dfs.OutOfMemory`): for "unknown", a larger
    ``max_nodes`` will not help on this machine.
    """

    verdict: Verdict
    moves: tuple[Move, ...] | None
    nodes: int
    seconds: float
    best: int | None = None
    blocked: tuple[int, ...] | None = None
    blocked_ranks: tuple[int, ...] | None = None
    test_states: int | None = None
    memory_full: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The ``intrigue solve --json`` shape of INTERFACE.md (plus ``best``)."""
        return {
            "verdict": self.verdict,
            "moves": None if self.moves is None else [str(m) for m in self.moves],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "best": self.best,
            "blocked": None if self.blocked is None else list(self.blocked),
            "blocked_ranks": None if self.blocked_ranks is None else list(self.blocked_ranks),
            "memory_full": self.memory_full,
        }


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
    first_in_line: bool = True,
    digs: bool = True,
    probe: bool = True,
    probe_narrower: bool = True,
    probe_rollouts: bool = True,
    column_test: bool = True,
    rank_projection: bool = True,
    rollouts_only: bool = False,
    frontier_only: bool = False,
    layered: bool = False,
    checkpoint: str | Path | None = None,
    seed: int = SEED,
    rollout_end_nodes: int = ROLLOUT_END_NODES,
    native: bool = True,
) -> SolveResult:
    """Decide whether ``position`` can be won, and how.

    ``deadline`` is an absolute :func:`time.monotonic` value; ``on_progress`` is called
    with the node count every :data:`~intrigue.solver.dfs.PROGRESS_EVERY` nodes and at the end.
    ``safe_moves``, ``symmetry``, ``deal_first``, ``natural_spots``, ``lone_cards``,
    ``first_in_line`` and ``digs`` switch the shortcuts, ``probe`` the manual-mode probes, and among them
    ``probe_narrower`` the search of the position as each
    :attr:`~intrigue.variants.Variant.narrower` game and ``probe_rollouts`` the
    rollouts over the deal (:mod:`intrigue.solver.rollouts`), and ``column_test`` and
    ``rank_projection`` the loss proofs of :mod:`intrigue.solver.relaxation` and
    :mod:`intrigue.solver.projection` where the search alone has not decided (for
    tests; each is proved safe in ``docs/solver.md``).  ``rollouts_only``
    gives the whole limit of a manual position still dealing to the rollouts (then
    "won" or "unknown"), whose generator ``seed`` seeds and whose end searches may
    each expand ``rollout_end_nodes`` positions; ``frontier_only`` gives it to
    the frontier proof (:mod:`intrigue.solver.frontier`; then "lost" or "unknown").
    ``layered`` runs the exhaustive search layer by layer of progress
    (:func:`~intrigue.solver.dfs.layered_search`: the same positions in far less
    memory, a win found only at the end), for proving losses with ``probe=False``;
    with a ``checkpoint`` directory it saves itself there where it stops short of
    a verdict, and goes on from there when run again on the same position.
    ``native=False`` runs the pure-Python search and column test even where the
    compiled ones are built (the same positions and states).  "lost" is returned only after an exhaustive search
    or a proof by the column test, the rank projection or the frontier proof, "unknown" only when
    ``max_nodes``, ``deadline`` or the memory left cut the search short (then
    ``memory_full`` is set: a search that outgrows the machine stops, and the
    rest of the plan goes on where it can).

    >>> from intrigue.position import Position
    >>> solve(Position.start("intrigue", 1)).verdict
    'won'

    Raises:
        SolverBugError: if a winning line does not replay through the engine
            (it never should: this is the solver checking itself).
        CheckpointError: if ``checkpoint`` holds a search of another position
            or options, or a damaged one.
        ValueError: for a ``checkpoint`` without ``layered``.
    """
    if checkpoint is not None and not layered:
        raise ValueError("a checkpoint keeps the search by layers: it needs layered=True")
    started = time.perf_counter()
    tables = tables_for(position.variant)
    options = {
        "symmetry": symmetry,
        "deal_first": deal_first,
        "natural_spots": natural_spots,
        "lone_cards": lone_cards,
        "first_in_line": first_in_line,
        "digs": digs,
    }
    search = _search if native else _python_search
    used = 0
    best = 0
    memory_full = False

    def progress_from(offset: int) -> Callable[[int], None] | None:
        if on_progress is None:
            return None
        report = on_progress
        return lambda nodes: report(offset + nodes)

    def eighths_left(part: int) -> int | None:
        # ``part`` eighths of the limit, but no more than is left of it.
        return None if max_nodes is None else min(part * max_nodes // 8, max_nodes - used)

    def finish(
        verdict: Verdict,
        moves: tuple[Move, ...] | None,
        proof: _Proof = None,
        test_states: int | None = None,
    ) -> SolveResult:
        if moves is not None:
            replay(position, moves)
        if on_progress is not None:
            on_progress(used)
        columns = proof[1] if proof is not None and proof[0] == "columns" else None
        ranks = proof[1] if proof is not None and proof[0] == "ranks" else None
        seconds = time.perf_counter() - started
        return SolveResult(
            verdict, moves, used, seconds, best, columns, ranks, test_states, memory_full
        )

    def plain_search(
        state: SearchState, budget: int | None, offset: int, by_layers: bool = False
    ) -> tuple[Verdict, int, int]:
        # The exact search; where it outgrows the memory left, "unknown" as
        # at any other limit, and the plan goes on (the probes' searches are small).
        nonlocal memory_full
        try:
            if by_layers and native:
                return _layered_search(
                    state, budget, deadline, progress_from(offset), safe_moves,
                    checkpoint=checkpoint,
                )  # fmt: skip
            return search(state, budget, deadline, progress_from(offset), safe_moves)
        except OutOfMemory as full:
            memory_full = True
            return "unknown", full.nodes, full.best

    def relaxed_proof() -> _Proof:
        # The column test, then the rank projection, each within a share of
        # the limit, in states (a compiled state costs about a position).
        if column_test:
            states = COLUMN_TEST_STATES if max_nodes is None else max_nodes // COLUMN_TEST_SHARE
            states = max(1, min(states, COLUMN_TEST_STATES))
            columns = blocked_column(position, max_states=states, deadline=deadline, native=native)
            if columns is not None:
                return "columns", columns
        if rank_projection:
            states = PROJECTION_STATES if max_nodes is None else max_nodes // PROJECTION_SHARE
            states = max(1, min(states, PROJECTION_STATES))
            ranks = blocked_ranks(position, max_states=states, deadline=deadline, native=native)
            if ranks is not None:
                return "ranks", ranks
        return None

    def roll(budget: int | None) -> tuple[Move, ...] | None:
        # Rollouts over the deal (rollouts.py) within ``budget``: a winning line or None.
        nonlocal used, best
        runs = Rollouts(position, tables, search, options, safe_moves, deadline,
                        progress_from(used), seed=seed, end_nodes=rollout_end_nodes,
                        compiled=native)  # fmt: skip
        ops = runs.run(ROLLOUT_SHARE_UNLIMITED if budget is None else max(1, budget))
        used += runs.used
        best = max(best, runs.best)
        return None if ops is None else _moves(ops)

    def plan() -> SolveResult:
        nonlocal used, best
        probing = probe and position.mode == "manual" and not position.pack_dealt
        if rollouts_only and position.mode == "manual" and not position.pack_dealt:
            line = roll(max_nodes)
            return finish("unknown" if line is None else "won", line)
        if frontier_only and position.mode == "manual" and not position.pack_dealt:
            frontier = frontier_proof(
                position, max_nodes=max_nodes, deadline=deadline, on_progress=on_progress,
                native=native, shortcuts=options,
            )  # fmt: skip
            used, best = frontier.nodes, frontier.best
            return finish(frontier.verdict, None, test_states=frontier.test_states)
        if probing:
            # Late in the deal a small search often decides at once: try it
            # before spending budget on the probes.
            quick = max_nodes // 8 if max_nodes is not None else PROBE_SHARE_UNLIMITED // 4
            state = SearchState(position, tables, **options)
            verdict, nodes, best = plain_search(state, max(1, quick), 0)
            used += nodes
            if verdict != "unknown":
                line = _line(state) if verdict == "won" else None
                return finish(verdict, line)
            proof = relaxed_proof()
            if proof is not None:
                return finish("lost", None, proof)
            # Deal the rest as the auto mode would, holding back sets of the cards
            # it sends up (beam searches over them), or a beam over the deal itself,
            # and search each end a little: 3/8 of the budget (half where the
            # beams over the deal join them and the rollouts are off).  Below
            # DEAL_BEAMS_FROM the beams over the deal and the rollouts cost more
            # than they win (measured).
            deal_beams = max_nodes is None or max_nodes >= DEAL_BEAMS_FROM
            rollouts = probe_rollouts and deal_beams
            narrower = (
                probe_narrower
                and position.variant.narrower is not None
                and (max_nodes is None or max_nodes >= NARROWER_FROM)
            )
            part = 3 if rollouts or not deal_beams else 4
            share = part * max_nodes // 8 if max_nodes is not None else PROBE_SHARE_UNLIMITED
            probes = _Probes(
                position, tables, deadline, progress_from(used), native, options, deal_beams
            )
            line = probes.run(max(1, share))
            used += probes.used
            best = max(best, probes.best)
            if line is not None:
                return finish("won", line)
            if rollouts:
                # Rollouts learn what to hold back: 2/8 where the narrower games follow, else 4/8.
                line = roll(eighths_left(2 if narrower else 4))
                if line is not None:
                    return finish("won", line)
            if narrower:
                # Every line of a narrower game is a line of this one, and its
                # smaller tree often holds a win this one's search misses.
                budget = eighths_left(2 if rollouts else 3)
                start = used
                line, spent, seen = solve_narrower(
                    position, budget, deadline, lambda offset: progress_from(start + offset),
                    search, options, safe_moves,
                )  # fmt: skip
                used += spent
                best = max(best, seen)
                if line is not None:
                    return finish("won", line)
        if max_nodes is not None and 0 < max_nodes <= used:
            # The probes spent it all.  (A final search of what is left repeats the
            # first plain search before it sees anything new.)
            return finish("unknown", None)  # the relaxed proofs ran before the probes
        state = SearchState(position, tables, **options)
        rest = None if max_nodes is None else max(1, max_nodes - used)
        verdict, nodes, seen = plain_search(state, rest, used, layered)
        used += nodes
        if verdict == "lost":
            best = seen  # exhaustive: exactly the most cards that can go up
        else:
            best = max(best, seen)
        if verdict == "unknown" and not probing:
            proof = relaxed_proof()
            if proof is not None:
                return finish("lost", None, proof)
        return finish(verdict, _line(state) if verdict == "won" else None)

    try:
        return plan()
    except (OutOfMemory, MemoryError):
        # Something other than the plain searches ran the machine short (a
        # probe's or rollout's small search, the frontier proof's end search):
        # what was learnt so far stands, and the answer is "unknown".
        memory_full = True
        return finish("unknown", None)


def _line(state: SearchState) -> tuple[Move, ...]:
    """The engine moves ``state`` has played (its undo log)."""
    return _moves(state.log)


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
    sent = _deal_rest(state, stock_indices(position), held, newest_first)
    return state, sent


def _deal_rest(
    state: SearchState, origins: list[list[int]], held: frozenset[int], newest_first: bool
) -> list[int]:
    """:func:`deal_holding_back` on ``state`` itself, whose column cards came
    from the stock indices ``origins`` (kept up to date); returns the cards sent up."""
    cols = state.cols
    sent: list[int] = []

    def send_up(i: int) -> None:
        sent.append(origins[i][-1])
        play_tracked(state, origins, i)

    while state.dealt < state.n_order:
        k = state.dealt
        if _deal(state, origins) and k not in held and state.can_up(cols[-1][-1]):
            send_up(len(cols) - 1)
        # Only a deal opens a column, so the cascade's scan is fixed until the next.
        scan = range(len(cols) - 1, -1, -1) if newest_first else range(len(cols))
        cascade = True
        while cascade:
            cascade = False
            for i in scan:
                col = cols[i]
                if col and origins[i][-1] not in held and state.can_up(col[-1]):
                    send_up(i)
                    cascade = True
                    break
    return sent


def _deal(state: SearchState, origins: list[list[int]]) -> bool:
    """Deal the next card, keeping ``origins`` up to date; whether it lies on the newest column."""
    k = state.dealt
    play_tracked(state, origins, DEAL_CODE)
    return origins[-1][-1:] == [k]


Origins = tuple[tuple[int, ...], ...]
"""The stock index of each column card, one tuple a column, as in :attr:`SearchState.cols`."""


@dataclass(frozen=True)
class _Try:
    """One probe try: the rest of the pack dealt holding back a set, the end searched."""

    nodes: int
    """Positions searched plus the moves of the dealing (the budget counts both)."""
    best: int
    sent: list[int]
    ops: tuple[int, ...] | None
    """If the try won, the undo-log operations of the whole line from its state; else None."""


def _try_from(
    state: SearchState,
    origins: Origins,
    held: frozenset[int],
    newest_first: bool,
    max_nodes: int,
    deadline: float | None,
    native: bool,
) -> _Try:
    """Deal the rest from ``state`` holding back ``held``, search the end; ``state``
    is left as it was.  Compiled (``_core.hold_back``) when ``native`` and built,
    else :func:`_deal_rest` and :func:`_python_search`: the same try either way."""
    if native and NATIVE:
        _, nodes, best, sent, dealing, compiled = _core.hold_back(
            state, origins, held, newest_first, max_nodes, deadline, True
        )
        line = None if compiled is None else tuple(compiled)
        return _Try(nodes + dealing, best, sent, line)
    mark = len(state.log)
    sent = _deal_rest(state, [list(o) for o in origins], held, newest_first)
    dealing = len(state.log) - mark
    verdict, nodes, best = _python_search(state, max_nodes, deadline, None, True)
    line = tuple(state.log[mark:]) if verdict == "won" else None
    state.undo_to(mark)
    return _Try(nodes + dealing, best, sent, line)


class _Probes:
    """The manual-mode probes of :func:`solve` (docs/solver.md, "The manual-mode probes").

    Every try is made of legal manual moves, so a win found is a win; the probes
    prove nothing about a loss.  ``used`` counts the positions of every try
    (and the moves of its dealing); ``best`` the most cards up any try saw.
    """

    def __init__(
        self,
        position: Position,
        tables: Tables,
        deadline: float | None,
        on_progress: Callable[[int], None] | None,
        native: bool,
        options: dict[str, bool],
        deal_beams: bool = True,
    ) -> None:
        self.state = SearchState(position, tables, **options)
        self.origins: Origins = tuple(map(tuple, stock_indices(position)))
        self.deadline = deadline
        self.on_progress = on_progress
        self.native = native
        self.used = 0
        self.best = 0
        self.deal_beams = deal_beams

    def out_of(self, cap: int, nodes: int) -> bool:
        """Whether a try of ``nodes`` positions would pass ``cap``, or time is up."""
        deadline = self.deadline
        return self.used + nodes > cap or (deadline is not None and time.monotonic() >= deadline)

    def attempt(
        self, origins: Origins, held: frozenset[int], newest_first: bool, nodes: int
    ) -> _Try:
        """One try from ``self.state`` as it is now."""
        result = _try_from(
            self.state, origins, held, newest_first, nodes, self.deadline, self.native
        )
        self.used += result.nodes
        self.best = max(self.best, result.best)
        if self.on_progress is not None:
            self.on_progress(self.used)
        return result

    def run(self, budget: int) -> tuple[Move, ...] | None:
        """Every probe in turn until one wins or ``budget`` is spent; the winning line.

        The auto deal first; then its hold-back beam, cascade leftmost first
        (half of what is left), then rightmost first (all the rest).  With
        ``deal_beams`` the rightmost beam gets half of what is left too, each
        hold-back beam at most :data:`HOLD_BACK_BEAM_NODES`, and beams over
        the deal, ever wider, the rest.
        """
        start = self.state.snapshot()
        first_nodes = min(PROBE_NODES, max(1, budget // 4))
        first = self.attempt(self.origins, frozenset(), False, first_nodes)
        if first.ops is not None:
            return _moves(first.ops)
        beams = DEAL_BEAMS if self.deal_beams else ()
        deal_beams = [partial(self.deal_beam, width, nodes=nodes) for width, nodes in beams]
        plan: list[tuple[int, Callable[[int], tuple[Move, ...] | None]]] = [
            (2, lambda cap: self.hold_back_beam(first.sent, False, cap)),
            (2 if deal_beams else 1, self.hold_back_beam_newest_first),
            *((1, beam) for beam in deal_beams),
        ]
        for share, probe in plan:
            if self.out_of(budget, HOLD_BACK_NODES):
                break
            self.state.restore(start)
            cap = self.used + (budget - self.used) // share
            if share > 1 and deal_beams:
                cap = min(cap, self.used + HOLD_BACK_BEAM_NODES)
            line = probe(cap)
            if line is not None:
                return line
        return None

    def hold_back_beam_newest_first(self, cap: int) -> tuple[Move, ...] | None:
        """The auto deal with the cascade rightmost first, then its hold-back beam."""
        if self.out_of(cap, HOLD_BACK_NODES):
            return None
        first = self.attempt(self.origins, frozenset(), True, HOLD_BACK_NODES)
        if first.ops is not None:
            return _moves(first.ops)
        return self.hold_back_beam(first.sent, True, cap)

    def hold_back_beam(
        self, sent: list[int], newest_first: bool, cap: int
    ) -> tuple[Move, ...] | None:
        """A beam search over hold-back sets: cards of the deal that stay in the
        columns however they could go up, so that a twin can take the pile.

        A set's children add one card its own deal sent up, from the parent's
        last hold on, so that the same set is rarely built twice (``tried``
        skips it when it is); each level keeps the :data:`BEAM_WIDTH` sets
        whose tries put the most cards up.
        """
        tried: set[frozenset[int]] = set()
        beam: list[tuple[frozenset[int], list[int], int]] = [(frozenset(), sent, 0)]
        for _ in range(BEAM_DEPTH):
            children: list[tuple[int, frozenset[int], list[int], int]] = []
            for held, sent_then, start in beam:
                for j in range(start, len(sent_then)):
                    child = held | {sent_then[j]}
                    if child in tried:
                        continue
                    if self.out_of(cap, HOLD_BACK_NODES):
                        return None
                    tried.add(child)
                    result = self.attempt(self.origins, child, newest_first, HOLD_BACK_NODES)
                    if result.ops is not None:
                        return _moves(result.ops)
                    children.append((result.best, child, result.sent, j))
            if not children:
                break
            # The most cards up first; ties keep the order they were tried in.
            children.sort(key=lambda c: -c[0])
            beam = [(held, sent_now, j) for _, held, sent_now, j in children[:BEAM_WIDTH]]
        return None

    def deal_beam(
        self, width: int, cap: int, nodes: int = DEAL_BEAM_NODES
    ) -> tuple[Move, ...] | None:
        """A beam search over the deal itself, one card at a time.

        The beam holds positions after the same number of deals.  A position's
        children are the positions just after the next deal, one for each set
        of cards it may send up first (an older column's card only on the way
        to one of the newest column's: any other can wait past the deal, see
        :meth:`after_next_deal`).  When there are more than ``width``
        children, each is scored by a try that deals the rest as auto mode
        does and searches the end with ``nodes`` positions, and
        the ``width`` whose tries put the most cards up make the next beam.
        The positions left when the pack is dealt are searched the same way.
        """
        state = self.state
        beam = [_BeamEntry(state.snapshot(), (), self.origins)]
        while beam:
            children: dict[bytes, _BeamEntry] = {}
            for entry in beam:
                if self.out_of(cap, 0):
                    return None
                state.restore(entry.snapshot)
                for key, child in self.after_next_deal(entry):
                    children.setdefault(key, child)
            last_deal = beam[0].snapshot.dealt + 1 >= state.n_order
            if len(children) <= width and not last_deal:
                beam = list(children.values())
                continue
            scored: list[tuple[int, int, _BeamEntry]] = []
            for child in children.values():
                if self.out_of(cap, nodes):
                    return None
                state.restore(child.snapshot)
                result = self.attempt(child.origins, frozenset(), False, nodes)
                if result.ops is not None:
                    return _moves(child.line + result.ops)
                scored.append((result.best, child.snapshot.on, child))
            if last_deal:
                return None
            # The most cards up after the tries, then now; ties keep the order found.
            scored.sort(key=lambda c: (-c[0], -c[1]))
            beam = [child for _, _, child in scored[:width]]
        return None

    def after_next_deal(self, entry: _BeamEntry) -> list[tuple[bytes, _BeamEntry]]:
        """The deal beam's children of ``entry`` (``self.state`` is there), by
        key, at most :data:`DEAL_BEAM_CHILDREN` of them; each position met on
        the way counts as one of the probes' positions.

        Sending up a card from an older column is only followed on while a
        card of the newest column goes up after it before the deal: otherwise
        the same card can go up after the deal instead, to the same end.  In
        Salic Law a top card may also move to a vacant older column (the
        newest column's, to escape the deal; an older one's, to uncover the
        card below it, on the same terms as sending it up).
        """
        state = self.state
        cols = state.cols
        log = state.log
        origins = [list(o) for o in entry.origins]
        children: list[tuple[bytes, _BeamEntry]] = []
        seen: set[tuple[bytes, bool]] = set()
        parking = state.tables.vacant_any_time

        def visit(waiting: bool) -> None:
            # ``waiting``: an older column's card moved, and no newest card since.
            here = (state.key(), waiting)
            if len(children) >= DEAL_BEAM_CHILDREN or here in seen:
                return
            seen.add(here)
            self.used += 1
            if not waiting:
                mark = len(log)
                after = [o[:] for o in origins]
                _deal(state, after)
                key = state.key()  # parking a newest card, then dealing a base, swaps two columns
                if all(key != old for old, _ in children):
                    line, where = entry.line + tuple(log), tuple(map(tuple, after))
                    children.append((key, _BeamEntry(state.snapshot(), line, where)))
                state.undo_to(mark)
            newest = len(cols) - 1
            for i in range(len(cols)):
                if cols[i] and state.can_up(cols[i][-1]):
                    follow(i, i, None, newest)
            if not parking:
                return
            # Salic Law: a card may also wait on a vacant older column, where
            # the deal cannot bury it (one such column stands for all).
            vacant = next((j for j in range(newest) if not cols[j]), None)
            if vacant is None:
                return
            for i in range(len(cols)):
                if i == vacant or not cols[i] or (i != newest and len(cols[i]) == 1):
                    continue
                follow(COLUMN_MOVE + 8 * i + vacant, i, vacant, newest)

        def follow(code: int, source: int, target: int | None, newest: int) -> None:
            # Play ``code`` (from column ``source`` to a pile, or onto column
            # ``target``), visit what it reaches, and take it back.
            mark = len(log)
            card = origins[source][-1]
            play_tracked(state, origins, code)
            visit(source != newest)
            if target is not None:
                origins[target].pop()
            origins[source].append(card)
            state.undo_to(mark)

        visit(False)
        return children


class _BeamEntry(NamedTuple):
    snapshot: Snapshot
    line: tuple[int, ...]
    """The undo-log operations from the probes' start position to here."""
    origins: Origins


def _moves(ops: Sequence[int]) -> tuple[Move, ...]:
    """The engine moves of undo-log operations."""
    return tuple(op_to_move(op) for op in ops)


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
