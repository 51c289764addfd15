"""The clearing test where vacant columns take cards during the deal
(intrigue.solver.parking, Salic Law): every real line meets its model, so a
column it proves can never be cleared really never is."""

from __future__ import annotations

import pytest
from hypothesis import event, given, settings

from intrigue.cards import card_id, parse_card
from intrigue.notation import Move, parse_moves
from intrigue.position import Position
from intrigue.solver import solve
from intrigue.solver.search import replay

pytest.importorskip("ortools")

from intrigue.solver.order import (  # noqa: E402 (after the skip: it needs OR-tools to build)
    Deal,
    Moment,
    hold_times,
)
from intrigue.solver.parking import ParkingClearingModel, ParkingTimes  # noqa: E402
from play import small_deals  # noqa: E402
from test_solver import brute_force  # noqa: E402

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


@pytest.mark.parametrize("one_at_a_time", [False, True], ids=["counts", "moves one at a time"])
@pytest.mark.parametrize(("deal", "columns"), [(1, (4, 5, 8)), (2, (1, 2))])
def test_every_winning_line_meets_the_parking_model(deal, columns, one_at_a_time):
    """The soundness of the test, on real lines that park cards while the
    pack is dealt: a won line clears every column, and its times, with the
    cards up and gone at each moment one of a column's cards leaves it, meet
    that column's model, with or without P7 (the moves one at a time)."""
    start, (left, up, moments) = winning_line(deal)
    parked_during_deal = [i for i, t in left.items() if t < len(start.order) and up.get(i) != t]
    assert parked_during_deal, "the line parks no card while the pack is dealt"
    model = Deal.of(start)
    for column in columns:
        clearing = ParkingClearingModel(model, column - 1, one_at_a_time=one_at_a_time)
        assert clearing.fits(left, up, moments), (deal, column)


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


def test_moves_one_at_a_time_break_a_circle_within_a_count():
    """P7 has content: a King, a Two, the Three dealt on it, then an Ace.  The
    Ace goes up; the Three on top waits for the Two under it, and with one
    column there is nowhere to park it, until the next King opens a column.
    The counts alone let the Two and the Three go up with the Ace, between the
    same two deals; moves made one at a time do not.  The real line (the
    Three parks on the new King) fits both."""
    order = [card_id(parse_card(text)) for text in ("KS", "2S", "3S", "AS", "KH", "4S")]
    start = Position.from_order("salic-law", order, "manual")
    line = parse_moves("d d d 1f d 1-2 1f 2f d 2f")
    assert replay(start, line).is_won()
    left, up, _ = line_times(start, line)
    deal = Deal.of(start)
    two, three, ace = 1, 2, 3  # places in the deal order
    circle = {two: left[ace], three: left[ace], ace: left[ace]}

    def fits(one_at_a_time: bool, left: dict[int, int], up: dict[int, int]) -> bool | None:
        times = ParkingTimes(deal, one_at_a_time=one_at_a_time)
        hold_times(times.model, times.left, left)
        hold_times(times.model, times.up, up)
        return times.solve(30.0)

    assert fits(False, circle, circle) is True
    assert fits(True, circle, circle) is False
    assert fits(False, left, up) is True
    assert fits(True, left, up) is True


@settings(max_examples=20, deadline=None)
@given(
    small_deals(
        bases=(2, 4),
        staircases=(3, 5),
        steps=(2, 5),
        modes=("manual",),
        moves=0,
        games=("salic-law",),
    )
)
def test_a_column_never_cleared_with_moves_one_at_a_time_means_lost(position: Position) -> None:
    """On small Salic Law deals that the engine-only brute force decides: a
    column the model with P7 says no line can clear makes the deal lost."""
    deal = Deal.of(position)
    blocked = [
        j
        for j, column in enumerate(deal.columns)
        if column and ParkingClearingModel(deal, j, one_at_a_time=True).solve(5.0) is False
    ]
    truth = brute_force(position, 50_000)
    event(f"blocked: {bool(blocked)}, truth: {truth}")
    if blocked:
        assert truth in ("lost", "unknown"), f"columns {blocked} never clear, but won"
        assert solve(position, max_nodes=2_000_000).verdict != "won"
