import pytest
from hypothesis import given
from hypothesis import strategies as st

from intrigue.cards import (
    CARD_OF,
    DECK_SIZE,
    RANK_CHARS,
    SUIT_CHARS,
    Card,
    Rank,
    Suit,
    card_id,
    card_name,
)
from intrigue.errors import IntrigueError, NotationError


def test_card_ids_follow_pysolfc_creation_order():
    # for deck in 0..1, for suit in Clubs, Spades, Hearts, Diamonds, for rank in Ace..King
    assert card_name(0) == "AC"
    assert card_name(12) == "KC"
    assert card_name(13) == "AS"
    assert card_name(26) == "AH"
    assert card_name(51) == "KD"
    assert card_name(52) == "AC"
    assert card_name(103) == "KD"
    assert len(CARD_OF) == DECK_SIZE


def test_every_card_appears_exactly_twice():
    names = [card_name(i) for i in range(DECK_SIZE)]
    assert all(names.count(n) == 2 for n in names)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("TD", "TD"), ("td", "TD"), ("10D", "TD"), ("10d", "TD"), (" qs ", "QS"), ("aH", "AH")],
)
def test_parse_accepts_the_documented_leniencies(text, expected):
    assert str(Card.parse(text)) == expected


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("XS", "rank"),
        ("TX", "suit"),
        ("", "expected"),
        ("10", "expected"),
        ("TDD", "expected"),
        ("1D", "rank"),
    ],
)
def test_parse_rejects_bad_cards_naming_them(text, fragment):
    with pytest.raises(NotationError) as info:
        Card.parse(text)
    assert repr(text) in str(info.value)
    assert fragment in str(info.value)
    assert isinstance(info.value, IntrigueError) and isinstance(info.value, ValueError)


def test_parse_rejects_non_strings():
    with pytest.raises(NotationError):
        Card.parse(12)  # type: ignore[arg-type]


def test_repr_rebuilds_the_card():
    card = Card(Rank.TEN, Suit.HEARTS)
    assert repr(card) == "Card.parse('TH')"
    assert eval(repr(card), {"Card": Card}) == card


@given(st.sampled_from(RANK_CHARS), st.sampled_from(SUIT_CHARS), st.booleans())
def test_notation_round_trips(rank, suit, lower):
    text = rank + suit
    typed = text.lower() if lower else text
    assert str(Card.parse(typed)) == text


@given(st.integers(0, DECK_SIZE - 1))
def test_card_id_inverts_card_of(cid):
    assert card_id(Card.of(cid), deck=cid // 52) == cid
