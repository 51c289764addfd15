"""The rules, game by game, on small hand-made deal orders and on real deals."""

from dataclasses import fields, replace

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cardlists import ids, names
from intrigue.errors import DealModeError, PositionError
from intrigue.game import Game
from intrigue.notation import DEAL, PILE, Move
from intrigue.position import Position, parse_mode, validate
from intrigue.variants import GAME_IDS, Variant, find_variant, open_any_pile
from play import random_position


def cols(p: Position) -> list[str]:
    return [names(c) for c in p.columns]


def open_piles(p: Position) -> dict[int, str]:
    return {i: names(pile) for i, pile in enumerate(p.piles) if pile}


def all_moves(p: Position) -> list[Move]:
    n = len(p.columns)
    universe = [DEAL] + [Move(i, PILE) for i in range(1, 9)]
    universe += [Move(i, j) for i in range(1, 9) for j in range(1, 9) if i != j]
    assert n <= 8
    return universe


def test_worked_example_from_the_rule_book():
    # Q♠ 7♦ 5♣ 4♥ Q♥ 6♠ 7♣: Q♠ opens column 1; 7♦ lies on it; 5♣ opens a Five-pile, 4♥
    # continues it; Q♥ opens column 2; 6♠ opens a Six-pile and the cascade lifts 7♦ onto it;
    # 7♣ cannot go up (the Six-pile wants an 8) and lies on Q♥.
    p = Position.from_order("intrigue", ids("QS 7D 5C 4H QH 6S 7C"))
    assert cols(p) == ["QS", "QH 7C"]
    assert open_piles(p) == {0: "5C 4H", 8: "6S 7D"}
    # Column 1 stays vacant: the deal never places a card on a vacant column.
    assert p.columns[0] == tuple(ids("QS"))


def test_auto_deal_then_vacant_columns_take_any_card():
    p = Position.start("intrigue", 1)
    assert p.pack_dealt and p.vacant_columns_take_cards
    vacant = [i + 1 for i, c in enumerate(p.columns) if len(c) == 1]
    assert vacant
    # After the cascade no column top can go to a pile: every first move fills a vacant column.
    assert all(m.target in vacant for m in p.legal_moves())


def test_auto_cascade_takes_the_leftmost_column_first():
    # 7D on column 1 and 7C on column 2 both wait for one Six-pile; 6S opens it and the
    # cascade lifts the leftmost column's 7 (7D), not the newest column's.
    p = Position.from_order("intrigue", ids("QS 7D QH 7C 6S"))
    assert cols(p) == ["QS", "QH 7C"]
    assert open_piles(p) == {8: "6S 7D"}


def test_completed_five_pile_takes_nothing_more():
    p = Position.from_order("intrigue", ids("QS 5C 4C 3C 2C AC KC KD"))
    assert open_piles(p) == {0: "5C 4C 3C 2C AC KC"}
    assert cols(p) == ["QS KD"]
    assert p.why_illegal(Move(1, PILE)) == "no pile takes KD now"


def test_manual_mode_deals_one_card_at_a_time_and_forces_nothing():
    p = Position.from_order("intrigue", ids("QS 5C QH 6S 4C"), "manual")
    assert cols(p) == ["QS"] and p.dealt == 1
    assert list(p.legal_moves()) == [DEAL]
    p = p.apply(DEAL)  # 5C goes on the newest column, not to a pile
    assert cols(p) == ["QS 5C"] and not open_piles(p)
    assert list(p.legal_moves()) == [DEAL, Move(1, PILE)]
    p = p.apply(DEAL).apply(DEAL)  # QH opens column 2, 6S lies on it
    assert cols(p) == ["QS 5C", "QH 6S"]
    p = p.apply(Move(2, PILE)).apply(Move(1, PILE)).apply(DEAL)
    assert open_piles(p) == {0: "5C", 8: "6S"}
    assert cols(p) == ["QS", "QH 4C"]
    assert p.pack_dealt
    # The pack is dealt, so column 1 (vacant) now takes a card.
    assert Move(2, 1) in list(p.legal_moves())


def test_manual_vacant_column_waits_for_the_whole_pack():
    p = Position.from_order("intrigue", ids("QS QH 7C 6S"), "manual").apply(DEAL).apply(DEAL)
    assert cols(p) == ["QS", "QH 7C"]
    assert (
        p.why_illegal(Move(2, 1))
        == "a vacant column takes a card only once the whole pack is dealt"
    )
    assert Move(2, 1) not in list(p.legal_moves())


def test_laggard_lady_queens_must_outnumber_open_piles_of_the_kind():
    # One Queen dealt: the first Five opens a pile, the second may not (1 Queen, 1 Five-pile)
    # and lies on the column; QH raises the count to two and the cascade opens its pile.
    p = Position.from_order("laggard-lady", ids("QS 5C 5D"))
    assert open_piles(p) == {0: "5C"} and cols(p) == ["QS 5D"]
    p = Position.from_order("laggard-lady", ids("QS 5C 5D QH"))
    assert open_piles(p) == {0: "5C", 1: "5D"} and cols(p) == ["QS", "QH"]
    # Six-piles count separately from Five-piles.
    p = Position.from_order("laggard-lady", ids("QS 5C 6D"))
    assert open_piles(p) == {0: "5C", 8: "6D"}


def test_intrigue_opens_piles_freely():
    p = Position.from_order("intrigue", ids("QS 5C 5D 5H"))
    assert open_piles(p) == {0: "5C", 1: "5D", 2: "5H"}


def test_glencoe_opens_only_the_slot_above_a_queen_of_the_same_suit():
    p = Position.from_order("glencoe", ids("QS 5C"))
    assert cols(p) == ["QS 5C"] and not open_piles(p)
    # QC opens column 2; the cascade lifts 5C into the Five-slot above it (slot 1).
    p = Position.from_order("glencoe", ids("QS 5C QC"))
    assert open_piles(p) == {1: "5C"} and cols(p) == ["QS", "QC"]
    # A second Five of clubs has no free clubs slot; a Six of spades opens the Six-slot above column 1.
    p = Position.from_order("glencoe", ids("QS 5C QC 5C 6S"))
    assert open_piles(p) == {1: "5C", 8: "6S"}
    assert cols(p) == ["QS", "QC 5C"]
    # Continuing a pile needs no suit: 4H goes on the clubs Five-pile.
    p = Position.from_order("glencoe", ids("QS 5C QC 4H"))
    assert open_piles(p) == {1: "5C 4H"}


def test_salic_law_discards_queens_and_opens_piles_only_above_dealt_kings():
    order = ids("QC QS QC QH QH QS QD QD KS AC AD")
    p = Position.from_order("salic-law", order)
    assert names(p.discard) == "QC QS QC QH QH QS QD QD"
    assert open_piles(p) == {0: "AC"} and cols(p) == ["KS AD"]
    p = Position.from_order("salic-law", order + ids("KH"))
    assert open_piles(p) == {0: "AC", 1: "AD"} and cols(p) == ["KS", "KH"]


def test_salic_law_manual_starts_with_queens_and_first_king_and_vacant_columns_any_time():
    order = ids("QC QS QC QH QH QS QD QD KS KH 7C")
    p = Position.from_order("salic-law", order, "manual")
    assert p.dealt == 9 and len(p.discard) == 8 and cols(p) == ["KS"]
    p = p.apply(DEAL).apply(DEAL)
    assert cols(p) == ["KS", "KH 7C"]
    assert not p.pack_dealt or len(order) == p.dealt
    p2 = Position.from_order("salic-law", order + ids("8C"), "manual").apply(DEAL).apply(DEAL)
    assert not p2.pack_dealt
    assert p2.why_illegal(Move(2, 1)) is None  # Salic Law: a vacant column takes a card at any time


def test_faerie_queen_builds_down_after_the_deal_and_queens_are_ordinary():
    p = Position.from_order("faerie-queen", ids("KS 9C KH 8D QS"))
    assert cols(p) == ["KS 9C", "KH 8D QS"]
    assert (
        p.why_illegal(Move(2, 1)) == "QS does not build on 9C: a card goes only on one rank higher"
    )
    q = Position.from_order("faerie-queen", ids("KS 9C KH QS 8D"))
    assert q.is_legal(Move(2, 1))  # 8D on 9C, any suit
    after = q.apply(Move(2, 1))
    assert cols(after) == ["KS 9C 8D", "KH QS"]
    # and back again: build-down allows cycles
    assert after.is_legal(Move(1, 2)) is False  # 8D on QS: not one rank lower
    manual = Position.from_order("faerie-queen", ids("KS 9C KH QS 8D 2C"), "manual")
    for _ in range(4):
        manual = manual.apply(DEAL)
    assert cols(manual) == ["KS 9C", "KH QS 8D"]
    assert (
        manual.why_illegal(Move(2, 1))
        == "cards build down on the tableau only once the whole pack is dealt"
    )


def test_faerie_queen_pile_runs_ace_to_queen():
    p = Position.from_order("faerie-queen", ids("KS AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC"))
    assert open_piles(p) == {0: "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC"}


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        (
            DEAL,
            "dealing is for manual deal mode; in auto mode the whole pack is dealt at the start",
        ),
        (Move(8, PILE), "no pile takes AC now"),
        (Move(3, PILE), "column 3 holds only its base, and a base never moves"),
        (Move(1, 2), "column 2 is not vacant"),
        (Move(1, 3), None),
    ],
)
def test_why_illegal_in_a_real_deal(move, reason):
    # Intrigue deal 1: columns 3, 4, 5 and 7 are vacant; column 8 ends in AC.
    assert Position.start("intrigue", 1).why_illegal(move) == reason


def test_why_illegal_names_missing_columns():
    p = Position.from_order("intrigue", ids("QS 7C QH 8C"))
    assert p.why_illegal(Move(5, PILE)) == "there is no column 5: 2 columns are open"
    assert p.why_illegal(Move(1, 6)) == "there is no column 6: 2 columns are open"


@pytest.mark.parametrize("game", GAME_IDS)
@pytest.mark.parametrize("mode", ["auto", "manual"])
@pytest.mark.parametrize("deal", [1, 2, 100, 32000, 123456789])
def test_legal_moves_are_exactly_the_moves_with_no_reason_against(game, mode, deal):
    p = Position.start(game, deal, mode)
    for _ in range(60):
        legal = list(p.legal_moves())
        assert legal == sorted(set(legal), key=legal.index)  # no duplicates
        assert set(legal) == {m for m in all_moves(p) if p.why_illegal(m) is None}
        if not legal:
            break
        p = p.apply(legal[(len(legal) * 7 + p.dealt) % len(legal)])


def test_positions_are_values():
    a, b = Position.start("glencoe", 7), Position.start("glencoe", 7)
    assert a == b and hash(a) == hash(b) and a is not b
    assert a != Position.start("glencoe", 8)
    assert a != Position.start("glencoe", 7, "manual")


def test_bad_orders_and_modes():
    with pytest.raises(PositionError, match="not a column base"):
        Position.from_order("intrigue", ids("7C QS"))
    with pytest.raises(PositionError, match="appears twice"):
        Position.from_order("intrigue", [10, 10])
    with pytest.raises(PositionError, match="integers 0..103"):
        Position.from_order("intrigue", [104])
    with pytest.raises(
        DealModeError, match=r"unknown deal mode 'fast'; expected one of: auto, manual"
    ):
        parse_mode("fast")
    assert parse_mode(" Manual ") == "manual"


def test_won_and_stuck():
    p = Position.from_order("intrigue", ids("QS 7C QH 8C"))
    assert p.is_stuck() and not p.is_won()


@pytest.mark.parametrize("mode", ["auto", "manual"])
def test_a_partial_pack_is_won_when_its_pile_cards_are_up(mode: str) -> None:
    # One Five-pile's staircase under a Queen, and a second Queen still in
    # the stock (it goes to no pile, so it does not stop the win).
    p = Position.from_order("intrigue", ids("QS 5C 4C 3C 2C AC KC QH"), mode)
    if mode == "auto":
        assert p.is_won() and p.cards_on_piles() == 6
    else:
        assert not p.is_won()
        game = Game(start=p)
        for move in ["d", "1f"] * 6:
            game.play(Move.parse(move))
        assert game.is_won()
    lacking_a_four = Position.from_order("intrigue", ids("QS 5C 3C 2C AC KC"), mode)
    assert not lacking_a_four.is_won()


def won_intrigue_position() -> Position:
    from intrigue.cards import Card, Rank, Suit, card_id
    from intrigue.variants import INTRIGUE

    def pile(staircase: tuple[int, ...], i: int) -> tuple[int, ...]:
        return tuple(card_id(Card(Rank(r), Suit(i % 4)), i // 4) for r in staircase)

    five, six = (k.staircase for k in INTRIGUE.pile_kinds)
    queens = tuple((card_id(Card(Rank.QUEEN, Suit(i % 4)), i // 4),) for i in range(8))
    piles = tuple(pile(five, i) for i in range(8)) + tuple(pile(six, i) for i in range(8))
    return Position(INTRIGUE, "auto", 0, 104, queens, piles, (), tuple(range(104)))


def test_a_position_with_every_pile_complete_is_won_and_has_no_moves():
    p = won_intrigue_position()
    assert sorted(p.all_card_ids()) == list(range(104))
    assert p.is_won() and not p.is_stuck()
    assert list(p.legal_moves()) == []


def test_validate_names_each_broken_invariant():
    good = Position.start("intrigue", 1)
    assert validate(good) == [] and validate(won_intrigue_position()) == []
    c1 = good.columns[0]
    swapped = good.columns[:1] + ((c1[0], c1[0]),) + good.columns[2:]
    problems = validate(Position(good.variant, "auto", 1, 104, swapped, good.piles, (), good.order))
    assert "a card appears more than once" in problems
    assert "column 2 holds a base above its bottom card" in problems
    bad_pile = ((good.piles[0][1],),) + good.piles[1:]
    problems = validate(
        Position(good.variant, "auto", 1, 104, good.columns, bad_pile, (), good.order)
    )
    assert "pile slot 0 does not follow its staircase" in problems


def test_recast_gives_each_pile_the_slot_the_narrower_game_would_open() -> None:
    # Laggard Lady opens the first free slots; Glencoe wants each Five or Six
    # above a Queen of its own suit: 5C above QC (column 2), 6S above QS (column 1).
    p = Position.from_order("laggard-lady", ids("QS QC 5C 4H 6S"))
    assert open_piles(p) == {0: "5C 4H", 8: "6S"}
    g = p.recast("glencoe")
    assert g.variant.id == "glencoe" and open_piles(g) == {1: "5C 4H", 8: "6S"}
    assert (g.columns, g.dealt, g.order, g.mode) == (p.columns, p.dealt, p.order, p.mode)
    assert g.recast("laggard-lady").piles == p.piles


@pytest.mark.parametrize(
    ("game", "order", "target", "reason"),
    [
        ("laggard-lady", "QS 5C", "glencoe", "Glencoe could not have opened the 5C pile"),
        ("intrigue", "QS 5C 5D", "laggard-lady", "Laggard Lady could not have opened the 5D"),
        ("salic-law", "KS AC", "faerie-queen", "differ in more than when a pile opens"),
        ("intrigue", "QS 5C", "salic-law", "differ in more than when a pile opens"),
    ],
)
def test_recast_names_why_a_position_is_not_one_of_the_other_game(
    game: str, order: str, target: str, reason: str
) -> None:
    with pytest.raises(PositionError, match=reason):
        Position.from_order(game, ids(order)).recast(target)


def test_any_rule_but_the_opening_hook_makes_another_game() -> None:
    """``differs_only_in_opening`` (which recast relies on) reads every field marked
    as a rule: changing any one of them but ``open_pile`` makes a game that a
    position may not be recast into."""
    intrigue = find_variant("intrigue")
    rules = [f.name for f in fields(Variant) if f.metadata.get("rule")]
    assert "open_pile" in rules and "base_rank" in rules and "build_down" in rules
    assert intrigue.differs_only_in_opening(replace(intrigue, open_pile=open_any_pile))
    for name in rules:
        if name == "open_pile":
            continue
        other = next(
            getattr(v, name) for v in map(find_variant, GAME_IDS)
            if getattr(v, name) != getattr(intrigue, name)
        )  # fmt: skip
        assert not intrigue.differs_only_in_opening(replace(intrigue, **{name: other})), name


def _pile_profile(p: Position) -> list[tuple[int, int]]:
    """Each open pile's kind and height: all a move's legality depends on."""
    return sorted((p.variant.slot_kind[s], len(pile)) for s, pile in enumerate(p.piles) if pile)


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(("intrigue", "laggard-lady")),
    st.integers(1, 20000),
    st.sampled_from(("auto", "manual")),
    st.lists(st.integers(0, 1000), max_size=40),
    st.lists(st.integers(0, 1000), max_size=150),
)
def test_every_line_of_the_narrower_game_is_a_line_of_this_one(
    game: str, deal: int, mode: str, picks: list[int], walk: list[int]
) -> None:
    """The fact the solver's narrower-game probe rests on (docs/solver.md): from
    a position and its recast, each move the narrower game allows is allowed
    here and leads to the same position but for which slot holds which pile."""
    wide = random_position(game, deal, mode, picks)
    narrower = wide.variant.narrower
    assert narrower is not None
    try:
        narrow = wide.recast(narrower)
    except PositionError:
        assume(False)
    for pick in walk:
        moves = list(narrow.legal_moves())
        if not moves:
            break
        assert set(moves) <= set(wide.legal_moves())
        move = moves[pick % len(moves)]
        wide, narrow = wide.apply(move), narrow.apply(move)
        assert (wide.columns, wide.dealt) == (narrow.columns, narrow.dealt)
        assert _pile_profile(wide) == _pile_profile(narrow)
    assert wide.is_won() == narrow.is_won()
