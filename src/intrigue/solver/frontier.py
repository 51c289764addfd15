"""The frontier proof: the column test from deep in the deal, level by level.

The column test (:mod:`intrigue.solver.relaxation`) is much stronger from a
position deep in a manual deal than from its start: the columns already dealt
get no more cards, and the piles are the real ones, not the best a relaxed
game can hope for.  Every winning line of a manual deal passes, for any number
*n* of cards, a first position with at least *n* dealt.  So enumerate, with the
search's own moves, safe moves and keys (each proved safe in
``docs/solver.md``), every such position -- the *frontier* at *n* -- and try to
prove each lost with the column test, then the rank projection
(:mod:`intrigue.solver.projection`), and the column test again with more states
where it ran out of them; those they leave are the roots of the next level.
When a level is empty, the deal is lost; after the last cut the exhaustive
search decides each position left.  Only "lost" or "unknown" comes
out: a won position found on the way has no replayed line here (``solve``
finds the wins).

This proves deals where every single column and set of columns clears from the
start, because a clearing line of the relaxed game needs the piles to have
risen in an order that no real way of dealing the first columns achieves
(docs/solver.md, "The frontier proof").
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from intrigue.cards import RANK_OF
from intrigue.position import Position
from intrigue.solver.dfs import python_search, search
from intrigue.solver.projection import projection_test
from intrigue.solver.relaxation import as_types, column_test
from intrigue.solver.rules import N_TYPES, tables_for
from intrigue.solver.state import SearchState, Snapshot

TEST_STATES = 200_000
"""Relaxed states the column test first may visit from each frontier position."""
MAX_TEST_STATES = 5_000_000
"""The most relaxed states the column test may visit from a frontier position
it left, tried again :data:`ESCALATION` times richer each round: at
:data:`TEST_STATES` most of the positions of an open deal's late frontiers
leave a score of relaxed games undecided, not cleared (Glencoe 9288's 474 at
its 65th card), and more states block them."""
ESCALATION = 5
"""How many times more states each round of the column test gets than the last."""
PROJECTION_TEST_STATES = 200_000
"""Projected states the rank projection may visit from each frontier position
the column test leaves (a unit each, as a relaxed state)."""
END_NODES = 2_000_000
"""Positions the exhaustive search may expand from each position left after the last cut."""
SPAN = 8
"""Cards between two cuts inside a long column: unpruned, a frontier grows about
fifty-fold over eight cards dealt (Intrigue 4332's 63-card column)."""
WALK_COST = 10
"""Units a position of the frontier walk costs: the walk runs in Python, at
about ten times a compiled search's time and memory a position."""
PROGRESS_EVERY = 1024
"""Work units (positions or tests) between two deadline checks / progress callbacks."""


@dataclass(frozen=True, slots=True)
class Level:
    """One cut of a frontier proof."""

    cut: int
    """Cards dealt at the frontier: each of its positions is the first of its line with this many."""
    frontier: int
    """Positions in the frontier (distinct keys)."""
    left: int
    """Those neither the column test nor the rank projection proved lost."""


@dataclass(frozen=True, slots=True)
class FrontierProof:
    verdict: Literal["lost", "unknown"]
    nodes: int
    """Positions walked (:data:`WALK_COST` each), relaxed states visited and
    end-search positions, together."""
    best: int
    """The most cards on the piles in any position walked or searched (a lower
    bound of the most that can go up)."""
    levels: tuple[Level, ...]
    """The cuts whose frontier was walked and tested in full, in order."""
    test_states: int
    """The most relaxed states the column test could give one position (the
    proof's ``max_test_states``, or its ``test_states`` if larger): with the
    cuts and the other limits, what a record needs to reproduce the proof."""


class _OutOfBudget(Exception):
    pass


def cuts_of(position: Position) -> list[int]:
    """The default cuts: just before each base still in the stock is dealt, and
    every :data:`SPAN` cards between.

    A base opens a column, and from then on the columns before it get no more
    cards: the column test sees each of them whole.  The cuts between keep the
    walk through a long column small: each prunes what the test proves lost.
    """
    base_rank = tables_for(position.variant).base_rank
    bases = {i for i, card in enumerate(position.order) if RANK_OF[card] == base_rank}
    spans = set(range(position.dealt + SPAN, len(position.order), SPAN))
    return sorted(i for i in bases | spans if i > position.dealt)


def frontier_proof(
    position: Position,
    *,
    max_nodes: int | None = None,
    cuts: Sequence[int] | None = None,
    test_states: int = TEST_STATES,
    max_test_states: int = MAX_TEST_STATES,
    projection_states: int = PROJECTION_TEST_STATES,
    end_nodes: int = END_NODES,
    deadline: float | None = None,
    on_progress: Callable[[int], None] | None = None,
    native: bool = True,
    shortcuts: Mapping[str, bool] | None = None,
) -> FrontierProof:
    """Try to prove a manual ``position`` still dealing lost, level by level at
    ``cuts`` (default :func:`cuts_of`), within ``max_nodes`` units of work in all
    and ``deadline`` (a :func:`time.monotonic` value).

    "unknown" when a limit is hit, when an end search does not decide, or where
    the column test does not apply (Faerie Queen, a position whose pack is dealt,
    auto mode).  The positions a level's tests leave are tested again with
    :data:`ESCALATION` times more states, up to ``max_test_states``, while that
    costs at most half the units left.  ``native=False`` runs the Python column
    test and end searches even where the compiled ones are built.  ``shortcuts``
    (names of :data:`~intrigue.solver.state.SHORTCUTS` to switch, every one on by default) go to the
    :class:`SearchState` of the walk and of the end searches, as :func:`solve`
    gives its own searches theirs; the relaxed tests have their own rules.
    """
    tables = tables_for(position.variant)
    most_states = max(test_states, max_test_states)
    if position.mode != "manual" or position.pack_dealt or tables.build_down:
        return FrontierProof(
            "unknown", 0, sum(len(pile) for pile in position.piles), (), most_states
        )
    state = SearchState(position, tables, **(shortcuts or {}))
    # The stock and the bases' suits as the column test wants them; a
    # position further in has dealt ``state.dealt - position.dealt`` more.
    _, _, _, stock, base_suits = as_types(position)
    end_search = search if native else python_search
    limit = max_nodes if max_nodes is not None else 1 << 62
    used = 0
    ticks = 0
    best = state.on
    levels: list[Level] = []

    def spend(units: int) -> None:
        nonlocal used, ticks
        used += units
        ticks += 1
        if used >= limit:
            raise _OutOfBudget
        if ticks % PROGRESS_EVERY == 0:
            if deadline is not None and time.monotonic() >= deadline:
                raise _OutOfBudget
            if on_progress is not None:
                on_progress(used)

    def frontier(roots: list[Snapshot], cut: int) -> list[Snapshot] | None:
        nonlocal best
        # Every position reachable from the roots with fewer than ``cut`` cards
        # dealt is expanded once (by key); the first ones with ``cut`` or more
        # are the frontier.  None if a won position turns up.
        found: dict[bytes, Snapshot] = {}
        seen: set[bytes] = set()
        for root in roots:
            state.restore(root)
            state.play_safe()
            key = state.key()
            if key in seen:
                continue
            seen.add(key)
            if state.on == state.goal:
                return None
            if state.dealt >= cut:
                found[key] = state.snapshot()
                continue
            stack = [(state.moves(), 0, len(state.log))]
            while stack:
                moves, k, mark = stack[-1]
                if k == len(moves):
                    stack.pop()
                    state.undo_to(mark)
                    continue
                stack[-1] = (moves, k + 1, mark)
                here = len(state.log)
                state.play(moves[k])
                state.play_safe_after(moves[k])
                key = state.key()
                if key in seen:
                    state.undo_to(here)
                    continue
                seen.add(key)
                spend(WALK_COST)
                best = max(best, state.on)
                if state.on == state.goal:
                    return None
                if state.dealt >= cut:
                    found[key] = state.snapshot()
                    state.undo_to(here)
                    continue
                stack.append((state.moves(), 0, here))
        return list(found.values())

    def blocked(snapshot: Snapshot, states: int, projected: int) -> bool | None:
        # The column test within ``states``, then the rank projection within
        # ``projected``.  True if either proves the position lost; None if the
        # column test cleared every relaxed game it met, so that no number of
        # states changes its answer; else False.
        state.restore(snapshot)
        args = (
            tables, [list(col) for col in state.cols], list(state.cnt[:N_TYPES]),
            stock[state.dealt - position.dealt :], base_suits,
        )  # fmt: skip
        budget = max(1, min(states, limit - used))
        proof, spent = column_test(*args, max_states=budget, deadline=deadline, native=native)
        spend(max(1, spent))
        # column_test's promise: under half its states spent, nothing undecided.
        exhausted = spent >= budget // 2
        if proof is None and projected > 0:
            proof, spent = projection_test(
                *args, max_states=max(1, min(projected, limit - used)), deadline=deadline,
                native=native,
            )  # fmt: skip
            spend(max(1, spent))
        if proof is None and deadline is not None and time.monotonic() >= deadline:
            raise _OutOfBudget  # the deadline, not the tests, may have ended them
        if proof is not None:
            return True
        return False if exhausted else None

    def sieve(found: list[Snapshot]) -> list[Snapshot]:
        # Every position of a level meets both tests; those whose column test
        # ran out of states meet it again with more, while the level can
        # afford it: a position kept costs its tests again at every cut below.
        # (Stopping after a round that blocked none is cheaper, but leaves
        # Glencoe 9288 unproved at 600 000 000 units: docs/solver.md.)
        outcome = [blocked(snapshot, test_states, projection_states) for snapshot in found]
        states = test_states
        while states < max_test_states:
            hard = [i for i, proved in enumerate(outcome) if proved is False]
            states = min(states * ESCALATION, max_test_states)
            if not hard or len(hard) * states > (limit - used) // 2:
                break
            for i in hard:
                outcome[i] = blocked(found[i], states, 0)
        return [snapshot for snapshot, proved in zip(found, outcome, strict=True) if not proved]

    def finish(verdict: Literal["lost", "unknown"]) -> FrontierProof:
        if on_progress is not None:
            on_progress(used)
        return FrontierProof(verdict, used, best, tuple(levels), most_states)

    level = [state.snapshot()]
    try:
        for cut in cuts_of(position) if cuts is None else cuts:
            found = frontier(level, cut)
            if found is None:
                return finish("unknown")  # won: not this proof's business
            level = sieve(found)
            levels.append(Level(cut, len(found), len(level)))
            if not level:
                return finish("lost")
        for snapshot in level:
            state.restore(snapshot)
            budget = min(end_nodes, limit - used)
            verdict, nodes, seen = end_search(state, budget, deadline, None, True)
            best = max(best, seen)
            spend(nodes)
            if verdict != "lost":
                return finish("unknown")
    except _OutOfBudget:
        return finish("unknown")
    return finish("lost")
