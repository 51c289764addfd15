"""Narrower games: a game whose every line is a line of this one (docs/solver.md).

Glencoe's lines are Laggard Lady lines, and Laggard Lady's are Intrigue lines
(``Variant.narrower``).  The smaller tree of the narrower game often holds a win
that this game's own search does not reach in time; a win there, replayed through
this game's engine, is a win here.
"""

from __future__ import annotations

from collections.abc import Callable

from intrigue.errors import PositionError
from intrigue.notation import Move
from intrigue.position import Position
from intrigue.solver.rules import tables_for
from intrigue.solver.state import Search, SearchState, op_to_move
from intrigue.variants import Variant, find_variant

NARROWER_SHARE_UNLIMITED = 1_000_000
"""Each narrower game's budget when the search itself has no node limit."""


def narrower_games(variant: Variant) -> list[Variant]:
    """The games whose every line is a line of ``variant``, narrowest first."""
    chain: list[Variant] = []
    while variant.narrower is not None:
        variant = find_variant(variant.narrower)
        chain.append(variant)
    return chain[::-1]


def solve_narrower(
    position: Position,
    budget: int | None,
    deadline: float | None,
    progress_from: Callable[[int], Callable[[int], None] | None],
    search: Search,
    options: dict[str, bool],
    safe_moves: bool,
) -> tuple[tuple[Move, ...] | None, int, int]:
    """The plain search of ``position`` recast as each narrower game in turn,
    ``budget`` positions shared equally among them (docs/solver.md, "Narrower
    games"): a winning line or None, the positions spent, the most cards up seen.
    ``progress_from(offset)`` is the progress callback of a search that starts
    after ``offset`` of these positions."""
    recast = (_recast(position, v) for v in narrower_games(position.variant))
    guests = [guest for guest in recast if guest is not None]
    spent = best = 0
    for guest in guests:
        share = NARROWER_SHARE_UNLIMITED if budget is None else max(1, budget // len(guests))
        state = SearchState(guest, tables_for(guest.variant), **options)
        verdict, nodes, seen = search(state, share, deadline, progress_from(spent), safe_moves)
        spent += nodes
        best = max(best, seen)
        if verdict == "won":
            return tuple(map(op_to_move, state.log)), spent, best
    return None, spent, best


def _recast(position: Position, game: Variant) -> Position | None:
    """``position`` as one of ``game``, or None if that game could not have opened its piles."""
    try:
        return position.recast(game)
    except PositionError:
        return None
