"""The clearing test where vacant columns take cards during the deal
(intrigue.solver.parking, Salic Law): every real line meets its model, so a
column it proves can never be cleared really never is."""

from __future__ import annotations

import pytest

from intrigue.notation import Move
from intrigue.position import Position
from intrigue.solver import solve

pytest.importorskip("ortools")

from intrigue.solver.order import Deal, Moment  # noqa: E402 (after the skip: it needs OR-tools to build)
from intrigue.solver.parking import ParkingClearingModel  # noqa: E402

Line = tuple[dict[int, int], dict[int, int], dict[int, Moment]]


def line_times(start: Position, moves: tuple[Move, ...]) -> Line:
    """For a line (by each card's place in the deal order): when each card
    first left its own column and when it went up (the cards dealt by then),
    and for each card as it first leaves its column, the cards up and the
    cards gone from their columns then, and whether it goes to a vacant column."""
    place = {card: i for i, card in enumerate(start.order)}
    left: dict[int, int] = {}
    up: dict[int, int] = {}
    moments: dict[int, Moment] = {}
    position = start
    for move in moves:
        if move.source:
            i = place[position.columns[move.source - 1][-1]]
            if i not in left:
                moments[i] = (frozenset(up), frozenset(left), not move.is_to_pile)
                left[i] = position.dealt
            if move.is_to_pile:
                up[i] = position.dealt
        position = position.apply(move)
    return left, up, moments


def winning_line(deal: int) -> tuple[Position, Line]:
    start = Position.start("salic-law", deal, "manual")
    result = solve(start, max_nodes=2_000_000)
    assert result.verdict == "won" and result.moves is not None
    return start, line_times(start, result.moves)


@pytest.mark.parametrize(("deal", "columns"), [(1, (4, 5, 8)), (2, (1, 2))])
def test_every_winning_line_meets_the_parking_model(deal, columns):
    """The soundness of the test, on real lines that park cards while the
    pack is dealt: a won line clears every column, and its times, with the
    cards up and gone at each moment one of a column's cards leaves it, meet
    that column's model."""
    start, (left, up, moments) = winning_line(deal)
    parked_during_deal = [i for i, t in left.items() if t < len(start.order) and up.get(i) != t]
    assert parked_during_deal, "the line parks no card while the pack is dealt"
    model = Deal.of(start)
    for column in columns:
        assert ParkingClearingModel(model, column - 1).fits(left, up, moments), (deal, column)


def test_a_line_that_breaks_a_rule_does_not_fit():
    """The model is not empty: the real line's times fit, and the same times
    with one card leaving its column from under the card dealt on it, while
    that card stays, do not."""
    start, (left, up, moments) = winning_line(2)
    deal = Deal.of(start)
    column = 0
    under, above = next(
        (i, k)
        for i, k in zip(deal.columns[column], deal.columns[column][1:], strict=False)
        if left[k] > k + 1 and left[i] >= left[k]
    )
    assert ParkingClearingModel(deal, column).fits(left, up, moments)
    early = left[above] - 1  # ``above`` is dealt and still there
    broken_left = {**left, under: early}
    broken_up = {**up, under: max(early, up.get(under, early))}
    assert not ParkingClearingModel(deal, column).fits(broken_left, broken_up, moments)
