"""Deal numbers: the order of the pack for deal N, exactly as PySolFC deals it.

1. The 104 cards in creation order (card ids 0..103, see :mod:`intrigue.cards`).
2. PySolFC's generator for N shuffles them: N < 32000 uses the 31-bit linear
   congruential generator, larger N the Mersenne Twister seeded with N.  We
   build the generator ourselves from :mod:`pysol_cards.random` instead of
   calling its ``shuffle()`` helper, because that helper sends N = 32000 to
   the LCG where PySolFC uses the Twister.
3. The game's shuffle hook (below) moves a few cards to the end.
4. Cards are dealt from the end of the list backwards, so :func:`deal_order`
   returns the reversed list: ``order[0]`` is the first card dealt.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from pysol_cards.random import LCRandom31, MTRandom

from intrigue.cards import DECK_SIZE, RANK_OF, CardId, Rank
from intrigue.errors import DealNumberError
from intrigue.variants import Variant, find_variant

_INTEGER = re.compile(r"[+-]?[0-9]+")

MAX_DEAL = 10**20
"""Deal numbers are 1 <= N < MAX_DEAL."""
LCG_LIMIT = 32000
"""PySolFC uses its LCG for deal numbers below this, the Mersenne Twister from here on."""


def parse_deal_number(value: object) -> int:
    """Check a deal number given as an int or a decimal string.

    >>> parse_deal_number("42")
    42

    Raises:
        DealNumberError: naming the value if it is not an integer in 1 <= N < 10**20.
    """
    if isinstance(value, bool):
        raise DealNumberError(
            f"bad deal number {value!r}: expected an integer from 1 to {MAX_DEAL - 1}"
        )
    if isinstance(value, str):
        text = value.strip()
        if _INTEGER.fullmatch(text) is None:
            raise DealNumberError(
                f"bad deal number {value!r}: expected an integer from 1 to {MAX_DEAL - 1}"
            )
        number = int(text)
    elif isinstance(value, int):
        number = value
    else:
        raise DealNumberError(
            f"bad deal number {value!r}: expected an integer from 1 to {MAX_DEAL - 1}"
        )
    if number < 1:
        raise DealNumberError(
            f"bad deal number {value!r}: deal numbers start at 1 (PySolFC has no deal 0)"
        )
    if number >= MAX_DEAL:
        raise DealNumberError(
            f"bad deal number {value!r}: the largest deal number is {MAX_DEAL - 1}"
        )
    return number


def _first_to_end(cards: list[CardId], rank: int) -> list[CardId]:
    for i, c in enumerate(cards):
        if RANK_OF[c] == rank:
            return cards[:i] + cards[i + 1 :] + [c]
    return cards


def first_queen_last(cards: list[CardId]) -> list[CardId]:
    """Intrigue, Laggard Lady, Glencoe: the first Queen goes to the end (dealt first)."""
    return _first_to_end(cards, Rank.QUEEN)


def first_king_last(cards: list[CardId]) -> list[CardId]:
    """Faerie Queen: the first King goes to the end (dealt first)."""
    return _first_to_end(cards, Rank.KING)


def first_king_last_queens_first(cards: list[CardId]) -> list[CardId]:
    """Salic Law: the first King to the end, then every Queen after it, keeping
    their order (PySolFC's "move to top" hook), so the Queens are dealt first."""
    cards = _first_to_end(cards, Rank.KING)
    return [c for c in cards if RANK_OF[c] != Rank.QUEEN] + [
        c for c in cards if RANK_OF[c] == Rank.QUEEN
    ]


SHUFFLE_HOOKS: dict[str, Callable[[list[CardId]], list[CardId]]] = {
    "first_queen_last": first_queen_last,
    "first_king_last": first_king_last,
    "first_king_last_queens_first": first_king_last_queens_first,
}


def shuffled_pack(deal: int) -> list[CardId]:
    """The 104 card ids after PySolFC's shuffle for deal number ``deal`` (no game hook)."""
    deal = parse_deal_number(deal)
    rng = LCRandom31() if deal < LCG_LIMIT else MTRandom()
    rng.setSeed(deal)
    cards: list[CardId] = rng.shuffle(list(range(DECK_SIZE)))
    return cards


@lru_cache(maxsize=256)
def _deal_order(variant_id: str, deal: int) -> tuple[CardId, ...]:
    variant = find_variant(variant_id)
    cards = SHUFFLE_HOOKS[variant.shuffle_hook](shuffled_pack(deal))
    return tuple(reversed(cards))


def deal_order(variant: Variant | str, deal: int | str) -> tuple[CardId, ...]:
    """The 104 card ids of deal number ``deal`` of ``variant``, first dealt first.

    >>> from intrigue.cards import card_name
    >>> " ".join(card_name(c) for c in deal_order("intrigue", 1)[:4])
    'QD 3D 5H JC'

    Raises:
        UnknownVariantError, DealNumberError
    """
    return _deal_order(find_variant(variant).id, parse_deal_number(deal))
