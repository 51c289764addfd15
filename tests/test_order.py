"""The order test (intrigue.solver.order): every real line meets its model, so
a card it proves can never go up really never does; and it says what it cannot do."""

from __future__ import annotations

import json

import pytest
from hypothesis import event, given, settings

from intrigue.cli import main
from intrigue.errors import UnknownVariantError
from intrigue.notation import Move
from intrigue.position import Position
from intrigue.solver import solve
from intrigue.solver.order import (
    ClearingModel,
    Deal,
    Moment,
    OrderModel,
    OrderProof,
    blocked_card,
    card_never_goes_up,
    column_never_clears,
    order_test,
)
from play import small_deals
from test_solver import brute_force

pytest.importorskip("ortools")


def line_timings(start: Position, moves: tuple[Move, ...]) -> tuple[dict[int, int], list[int]]:
    """When each card of a line left its own column (the cards dealt by then),
    by its place in the deal order, and the cards in the order they left."""
    place = {card: i for i, card in enumerate(start.order)}
    left: dict[int, int] = {}
    leaving: list[int] = []
    position = start
    for move in moves:
        if move.source:
            i = place[position.columns[move.source - 1][-1]]
            if i not in left:  # a card's first move takes it from its own column
                left[i] = position.dealt
                leaving.append(i)
        position = position.apply(move)
    return left, leaving


def line_moments(start: Position, moves: tuple[Move, ...]) -> dict[int, Moment]:
    """For each card of a line that leaves its own column once the pack is
    dealt (by its place in the deal order): the cards up and the cards gone from
    their columns at that moment, and whether it goes to a vacant column."""
    place = {card: i for i, card in enumerate(start.order)}
    up: set[int] = set()
    gone: set[int] = set()
    moments: dict[int, Moment] = {}
    position = start
    for move in moves:
        if move.source:
            i = place[position.columns[move.source - 1][-1]]
            if i not in gone:
                if position.pack_dealt:
                    moments[i] = (frozenset(up), frozenset(gone), not move.is_to_pile)
                gone.add(i)
            if move.is_to_pile:
                up.add(i)
        position = position.apply(move)
    return moments


def parked_when(start: Position, moves: tuple[Move, ...], x: int) -> list[int]:
    """The cards off their own columns and not up when card ``x`` leaves its
    column: alone on a vacant column, or (Faerie Queen) built down anywhere."""
    place = {card: i for i, card in enumerate(start.order)}
    up: set[int] = set()
    gone: set[int] = set()
    position = start
    for move in moves:
        if move.source:
            i = place[position.columns[move.source - 1][-1]]
            if i == x:
                return sorted(gone - up)
            gone.add(i)
            if move.is_to_pile:
                up.add(i)
        position = position.apply(move)
    raise AssertionError(f"card {x} never leaves its column")


@pytest.mark.parametrize(
    ("game", "deal"),
    [("intrigue", 1), ("laggard-lady", 2), ("glencoe", 2), ("intrigue", 4), ("faerie-queen", 4)],
)
def test_every_winning_line_meets_the_model(game, deal):
    """The soundness of the test, on real lines: the times at which a won line's
    cards leave their columns meet the model of each card tried, in the case
    (while dealing, or after) the line plays it."""
    start = Position.start(game, deal, "manual")
    result = solve(start, max_nodes=2_000_000)
    assert result.verdict == "won" and result.moves is not None
    left, leaving = line_timings(start, result.moves)
    size = len(start.order)
    model = Deal.of(start)
    after = [x for x in leaving if left[x] == size]
    during = [x for x in leaving if left[x] < size]
    tried = 0
    for x in (*model.deepest()[:2], *during[-2:], *after[:1], *after[-1:]):
        if left[x] < size:
            assert OrderModel(model, x, after_deal=False).fits(left), (game, deal, x)
        else:
            before = leaving[: leaving.index(x)]
            timing = {i: left[i] for i in before}
            parked = parked_when(start, result.moves, x)
            assert OrderModel(model, x, after_deal=True).fits(timing, parked), (game, deal, x)
        tried += 1
    assert tried == 6


def test_a_line_that_breaks_a_rule_does_not_fit():
    """The model is not empty: a timing no line can play (a card leaving its
    column from under the card dealt on it, which stays) is rejected."""
    start = Position.start("intrigue", 1, "manual")
    deal = Deal.of(start)
    column = next(c for c in deal.columns if len(c) >= 2)
    under, above = column[0], column[1]
    assert not OrderModel(deal, above, after_deal=True).fits({under: above + 1})


@pytest.mark.parametrize(
    ("game", "deal"),
    [
        ("intrigue", 4),
        ("laggard-lady", 2),
        ("glencoe", 2),
        ("glencoe", 6),
        ("faerie-queen", 2),
        ("faerie-queen", 4),
    ],
)
def test_every_winning_line_meets_the_clearing_model(game, deal):
    """The soundness of the clearing test, on real lines: a won line clears
    every column, and its times, with the cards up and gone at each moment one
    of a column's cards leaves it after the deal, meet that column's model."""
    start = Position.start(game, deal, "manual")
    result = solve(start, max_nodes=2_000_000)
    assert result.verdict == "won" and result.moves is not None
    left, _ = line_timings(start, result.moves)
    moments = line_moments(start, result.moves)
    model = Deal.of(start)
    looked = 0
    for j, column in enumerate(model.columns):
        if any(i in moments for i in column):
            assert ClearingModel(model, j).fits(left, moments), (game, deal, j + 1)
            looked += 1
    assert looked >= 2  # the line digs out more than one column after the deal


def test_a_moment_that_breaks_a_rule_does_not_fit():
    """The clearing model is not empty: a line whose cards are up out of
    staircase order at one of its moments is rejected, the real one is not."""
    start = Position.start("glencoe", 2, "manual")
    result = solve(start, max_nodes=2_000_000)
    assert result.moves is not None
    left, _ = line_timings(start, result.moves)
    moments = line_moments(start, result.moves)
    deal = Deal.of(start)
    j, y = next((j, i) for j, c in enumerate(deal.columns) for i in reversed(c) if i in moments)
    assert ClearingModel(deal, j).fits(left, moments)
    ups, gones, parks = moments[y]
    jacks = frozenset(i for i in range(len(deal.order)) if deal.rank(i) == 11 and i != y)
    broken = {**moments, y: (ups | jacks, gones | jacks, parks)}  # Jacks before their Tens
    assert not ClearingModel(deal, j).fits(left, broken)


def test_intrigue_1545s_buried_two_never_goes_up():
    """Intrigue 1545's fifth column takes 71 cards; the Two seventh from its
    base can go up neither while cards are dealt nor after (docs/solver.md,
    "The order test"), so the deal is lost -- and with it Laggard Lady's and
    Glencoe's 1545, narrower games."""
    deal = Deal.of(Position.start("intrigue", 1545, "manual"))
    x = deal.columns[4][6]
    assert deal.rank(x) == 2
    assert card_never_goes_up(deal, x) is True


def test_what_the_order_test_does_not_cover():
    salic = Position.start("salic-law", 1, "manual")
    with pytest.raises(UnknownVariantError, match="during the deal"):
        blocked_card(salic)  # the card test; the clearing test covers Salic Law
    with pytest.raises(UnknownVariantError, match="during the deal"):
        OrderModel(Deal.of(salic), 20, after_deal=True)
    with pytest.raises(ValueError, match="first position of a manual deal"):
        Deal.of(Position.start("intrigue", 1, "auto"))
    with pytest.raises(ValueError, match="first position of a manual deal"):
        Deal.of(Position.start("intrigue", 1, "manual").apply(Move.parse("d")))


@settings(max_examples=60, deadline=None)
@given(small_deals(bases=(2, 4), staircases=(3, 5), steps=(2, 5), modes=("manual",), moves=0))
def test_a_card_that_never_goes_up_means_lost(position: Position) -> None:
    """On small deals that the engine-only brute force decides: a card the test
    says can never go up makes the deal lost."""
    if position.variant.vacant_column_any_time:
        event("Salic Law: not covered")
        return
    deal = Deal.of(position)
    blocked = [x for x in deal.deepest() if card_never_goes_up(deal, x, seconds=10)]
    truth = brute_force(position, 50_000)
    event(f"blocked: {bool(blocked)}, truth: {truth}")
    if blocked:
        assert truth in ("lost", "unknown"), f"cards {blocked} never go up, but won"
        assert solve(position, max_nodes=2_000_000).verdict != "won"


@settings(max_examples=25, deadline=None)
@given(small_deals(bases=(2, 4), staircases=(3, 5), steps=(2, 5), modes=("manual",), moves=0))
def test_a_column_that_never_clears_means_lost(position: Position) -> None:
    """On small deals that the engine-only brute force decides: a column the
    clearing test says no line can clear makes the deal lost."""
    deal = Deal.of(position)  # Salic Law's by the parking model (intrigue.solver.parking)
    blocked = [
        j for j, c in enumerate(deal.columns) if c and column_never_clears(deal, j, seconds=5)
    ]
    truth = brute_force(position, 50_000)
    event(f"blocked: {bool(blocked)}, truth: {truth}")
    if blocked:
        assert truth in ("lost", "unknown"), f"columns {blocked} never clear, but won"
        assert solve(position, max_nodes=2_000_000).verdict != "won"


@settings(max_examples=40, deadline=None)
@given(
    small_deals(
        bases=(2, 4),
        staircases=(3, 5),
        steps=(2, 6),
        modes=("manual",),
        moves=0,
        games=("faerie-queen",),
    )
)
def test_a_faerie_queen_card_or_column_the_test_blocks_means_lost(position: Position) -> None:
    """Faerie Queen's cards build down after the deal, so a card off its column
    lies at the foot of a vacant column or on a card one rank higher: on small
    deals that the engine-only brute force decides, a card the card test says
    never goes up, or a column the clearing test says never clears, makes the
    deal lost."""
    deal = Deal.of(position)
    cards = [x for x in deal.deepest()[:4] if card_never_goes_up(deal, x, seconds=10)]
    columns = [
        j for j, c in enumerate(deal.columns) if c and column_never_clears(deal, j, seconds=5)
    ]
    truth = brute_force(position, 50_000)
    event(f"blocked: {bool(cards or columns)}, truth: {truth}")
    if cards or columns:
        assert truth in ("lost", "unknown"), f"cards {cards}, columns {columns} blocked, but won"
        assert solve(position, max_nodes=2_000_000).verdict != "won"


def test_glencoe_9088s_long_column_never_clears(tmp_path, capsys):
    """Glencoe 9088 deals 76 cards onto its sixth column while six Queens are
    out (one of Spades, one of Hearts); the clearing test proves that no line
    clears it (docs/solver.md, "The order test of a column"), the first column
    it tries: ``intrigue stats --order-only`` records the loss."""
    out = tmp_path / "order.jsonl"
    argv = ["stats", "--game", "glencoe", "--mode", "manual", "--deals", "9088-9088"]
    assert main([*argv, "--order-only", "--out", str(out), "--json"]) == 0
    record = json.loads(out.read_text())
    assert record["verdict"] == "lost" and record["search"] == "order"
    assert record["blocked_column"] == 6 and "blocked_card" not in record
    assert record["nodes"] == 1  # one column tried
    assert json.loads(capsys.readouterr().out)["lost"] == 1


def test_faerie_queen_6383s_first_column_never_clears(tmp_path):
    """Faerie Queen 6383 deals 60 cards onto its first column; with the room of
    built-down cards (a card off its column lies on a vacant column or on a
    card one rank higher, docs/solver.md) the clearing test proves that no line
    clears it, a deal the search by layers needed 760 million positions for."""
    out = tmp_path / "order.jsonl"
    argv = ["stats", "--game", "faerie-queen", "--mode", "manual", "--deals", "6383-6383"]
    assert main([*argv, "--order-only", "--out", str(out)]) == 0
    record = json.loads(out.read_text())
    assert record["verdict"] == "lost" and record["search"] == "order"
    assert record["blocked_column"] == 1 and record["nodes"] == 1


def test_faerie_queen_7252s_buried_ten_never_leaves():
    """Faerie Queen 7252 deals 81 cards onto its last column.  Under the Ten
    18th from its base lie five of the eight Twos, so while it waits no more
    than three cards of any rank above the Ace are up, and 26 of the 63 cards
    dealt onto it must wait off the piles, in runs one rank apart: among
    themselves eleven runs, for seven other columns.  It is the first card
    tried, and it never leaves."""
    deal = Deal.of(Position.start("faerie-queen", 7252, "manual"))
    ten = deal.columns[7][17]
    assert deal.rank(ten) == 10 and deal.pressure(ten) == 11
    assert deal.candidates()[0] == ten
    assert card_never_goes_up(deal, ten) is True


def test_the_cards_under_most_pressure_are_tried_first():
    """Intrigue 9879: six of the eight Fives and four of the eight Sevens lie
    under the Nine 26th from the base of column 4, so while it waits at most two
    Five-piles are open and four Six-piles pass the Seven; of the 38 cards
    dealt onto it, five Fours and five Kings (two of each can be up), and five
    Tens (four), leave seven that the piles cannot hold."""
    deal = Deal.of(Position.start("intrigue", 9879, "manual"))
    nine = deal.columns[3][25]
    assert deal.rank(nine) == 9
    assert deal.pressure(nine) == 7
    assert nine in deal.candidates()[:16]
    assert deal.pressure(deal.columns[3][-1]) == 0  # nothing dealt onto the top card
    assert sorted(deal.candidates()) == sorted(deal.deepest())


def test_the_order_test_tries_cards_before_long_columns():
    """Faerie Queen 7252's columns each take minutes to show a timing or end
    without an answer, while its buried Ten never leaves in seconds: the
    first pass gives each column only ``first_look`` seconds, then the cards,
    so the card proves the loss before any column gets the long limit."""
    position = Position.start("faerie-queen", 7252, "manual")
    filled = len(Deal.of(position).longest_first())
    proof = order_test(position, first_look=1.0)
    assert proof == OrderProof(None, (8, 18), filled + 1) and proof.lost


def test_the_order_test_gives_undecided_columns_the_long_limit():
    """A column undecided in the first pass is tried again at length, after
    the cards: Faerie Queen 6383's first column needs more than a second."""
    position = Position.start("faerie-queen", 6383, "manual")
    filled = Deal.of(position).longest_first()
    assert filled[0] == 0  # the longest, 60 cards
    proof = order_test(position, cards=0, first_look=1.0)
    assert proof.column == 1 and proof.card is None and proof.tried > len(filled)
    assert order_test(position, cards=0, first_look=1.0, seconds=1.0) == OrderProof(
        None, None, len(filled)
    )
