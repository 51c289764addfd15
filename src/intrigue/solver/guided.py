"""The order test's timings as a guide to a win (manual mode).

What makes a manual deal hard to search is the deal itself: which cards to
send up, and when, while cards are still dealt.  Once the pack is out the
position is an ordinary one, which the solver decides as quickly as an
``auto`` deal's.  The clearing model of the order test
(:class:`~intrigue.solver.order.ClearingModel`), when it has a solution,
gives a timing of the deal -- the count of cards dealt at which each card
leaves its column -- that meets every count a line must meet and leaves the
column clearable afterwards as far as the model sees.  Dealing by that timing
through the engine (:func:`deal_by`) gives a real position after the deal;
the solver from there either wins it, and the deal moves and its line are a
won line of the deal, replayed through the engine before they are returned,
or not, and the next column's model gives another timing.

It finds wins and never proves a loss.  ``docs/solver.md``, "Dealing by the
order test's timing", tells what it decided.  It needs OR-tools, like the
order test; Salic Law, whose cards park while the pack is dealt, is not
covered.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from intrigue.notation import DEAL, Move
from intrigue.position import Position
from intrigue.solver.order import ClearingModel, Deal, Timing, require_covered
from intrigue.solver.search import replay, solve

GUIDE_SECONDS = 300.0
"""The most seconds CP-SAT gets to find each timing."""
GUIDE_NODES = 2_000_000
"""The solver's limit from each position after the deal."""
GUIDE_COLUMNS = 8
"""How many columns' clearing models give a timing each, longest first."""


class Guided(NamedTuple):
    """What :func:`guided_win` found: ``moves``, a won line from the start of
    the deal (replayed through the engine), or ``None``; ``timings``, the
    timings dealt by; ``nodes``, the solver's positions in all; ``best``, the
    most cards on the piles it reached."""

    moves: tuple[Move, ...] | None
    timings: int
    nodes: int
    best: int


def deal_by(deal: Deal, position: Position, timing: Timing) -> tuple[Position, list[Move]]:
    """Deal the whole pack from ``position`` (the start of ``deal``), sending
    up, while each count of cards is dealt, the cards ``timing`` says leave
    their columns then, as far as the engine lets them (the card is its
    column's top and a pile takes it); the position once the pack is dealt,
    and the moves that led there."""
    leaving: dict[int, set[int]] = {}
    for i, count in timing.items():
        if count is not None:
            leaving.setdefault(count, set()).add(i)
    gone: set[int] = set()  # places in the deal order of the cards sent up
    moves: list[Move] = []
    while True:
        due = leaving.get(position.dealt, set())
        sent = True
        while sent:  # a card sent up may uncover another due now
            sent = False
            for column in range(len(position.columns)):
                still = [i for i in deal.columns[column] if i < position.dealt and i not in gone]
                move = Move.to_pile(column + 1)
                if still and still[-1] in due and position.is_legal(move):
                    position = position.apply(move)
                    moves.append(move)
                    gone.add(still[-1])
                    sent = True
        if position.pack_dealt:
            return position, moves
        position = position.apply(DEAL)
        moves.append(DEAL)


def guided_win(
    position: Position,
    *,
    columns: int = GUIDE_COLUMNS,
    seconds: float = GUIDE_SECONDS,
    max_nodes: int = GUIDE_NODES,
    on_timing: Callable[[int], None] | None = None,
) -> Guided:
    """Look for a won line of the manual deal that starts at ``position`` by
    dealing as the clearing model of each of its ``columns`` longest columns
    times it (two timings each, found within ``seconds``: one by the counts
    alone, one with the cards leaving one at a time), then solving from the
    position after the deal within ``max_nodes``.  ``on_timing(n)`` hears
    each timing dealt by.

    The first kind of timing may ask for cards the engine cannot send up
    when it says (they wait for each other within a count); dealt as far as
    the engine lets it, it still gives a real position, and another one
    than the second kind's.

    Raises:
        UnknownVariantError: for Salic Law.
        ValueError: for a position that is not the start of a manual deal.
        OrderTestUnavailable: without OR-tools.
    """
    require_covered(position.variant)
    deal = Deal.of(position)
    dealt = nodes = best = 0
    for column in deal.longest_first()[:columns]:
        for one_at_a_time in (False, True):
            model = ClearingModel(deal, column, one_at_a_time=one_at_a_time)
            timing = model.find_timing(seconds)
            if timing is None:
                continue  # none, or none found in time
            dealt += 1
            if on_timing is not None:
                on_timing(dealt)
            after, moves = deal_by(deal, position, timing)
            result = solve(after, max_nodes=max_nodes)
            nodes += result.nodes
            best = max(best, result.best or after.cards_on_piles())
            if result.verdict == "won" and result.moves is not None:
                line = (*moves, *result.moves)
                replay(position, line)
                return Guided(line, dealt, nodes, best)
    return Guided(None, dealt, nodes, best)
