"""Cards: ranks, suits, the two-character notation and physical card ids.

Two packs are shuffled together, so a card such as ``7D`` exists twice.  Rules
only ever look at rank and suit (:class:`Card`); everything that needs the
physical card -- the UI, animations, the check that all 104 cards are present
-- uses a :data:`CardId`, an int 0..103 in PySolFC's creation order: for deck
in 0..1, for suit in Clubs, Spades, Hearts, Diamonds, for rank in Ace..King.
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

from intrigue.errors import NotationError

CardId = int
"""A physical card, 0..103 (PySolFC's creation order)."""

DECK_SIZE = 104
RANK_CHARS = "A23456789TJQK"
SUIT_CHARS = "CSHD"  # PySolFC's suit order, which fixes the card ids


class Rank(IntEnum):
    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def char(self) -> str:
        return RANK_CHARS[self - 1]


class Suit(IntEnum):
    CLUBS = 0
    SPADES = 1
    HEARTS = 2
    DIAMONDS = 3

    @property
    def char(self) -> str:
        return SUIT_CHARS[self]


class Card(NamedTuple):
    """A card by rank and suit (which of the two packs it came from is not part of it).

    >>> Card.parse("10d")
    Card.parse('TD')
    >>> str(Card(Rank.QUEEN, Suit.SPADES))
    'QS'
    """

    rank: Rank
    suit: Suit

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``TD``, ``td`` or ``10D``.

        Raises:
            NotationError: if ``text`` is not a card.
        """
        if not isinstance(text, str):
            raise NotationError(f"bad card {text!r}: expected a string such as 'TD'")
        s = text.strip().upper()
        if s.startswith("10"):
            s = "T" + s[2:]
        if len(s) != 2:
            raise NotationError(
                f"bad card {text!r}: expected a rank (A23456789TJQK) then a suit (CDHS), e.g. 'TD'"
            )
        r, u = s[0], s[1]
        if r not in RANK_CHARS:
            raise NotationError(f"bad card {text!r}: rank must be one of {RANK_CHARS}")
        if u not in SUIT_CHARS:
            raise NotationError(f"bad card {text!r}: suit must be one of CDHS")
        return cls(Rank(RANK_CHARS.index(r) + 1), Suit(SUIT_CHARS.index(u)))

    @classmethod
    def of(cls, card_id: CardId) -> Card:
        """The card that physical card ``card_id`` shows."""
        return CARD_OF[card_id]

    def __str__(self) -> str:
        return RANK_CHARS[self.rank - 1] + SUIT_CHARS[self.suit]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


def card_id(card: Card, deck: int = 0) -> CardId:
    """The physical id of ``card`` in pack ``deck`` (0 or 1)."""
    return deck * 52 + card.suit * 13 + card.rank - 1


CARD_OF: tuple[Card, ...] = tuple(
    Card(Rank(i % 13 + 1), Suit(i % 52 // 13)) for i in range(DECK_SIZE)
)
# Plain-int tables for the hot paths (the solver reads them millions of times).
RANK_OF: tuple[int, ...] = tuple(i % 13 + 1 for i in range(DECK_SIZE))
SUIT_OF: tuple[int, ...] = tuple(i % 52 // 13 for i in range(DECK_SIZE))
NAME_OF: tuple[str, ...] = tuple(str(c) for c in CARD_OF)


def parse_card(text: str) -> Card:
    """Parse one card; see :meth:`Card.parse`."""
    return Card.parse(text)


def card_name(card_id: CardId) -> str:
    """The two-character name of physical card ``card_id``, e.g. ``'TD'``."""
    return NAME_OF[card_id]
