"""Build card-id lists from names, for hand-made deal orders in tests."""

from __future__ import annotations

from intrigue.cards import Card, CardId, card_id


def ids(text: str) -> list[CardId]:
    """Card ids for space-separated names; a name's second use takes the second pack's card."""
    seen: set[CardId] = set()
    out = []
    for name in text.split():
        card = Card.parse(name)
        cid = card_id(card, 0)
        if cid in seen:
            cid = card_id(card, 1)
        if cid in seen:
            raise ValueError(f"{name} three times")
        seen.add(cid)
        out.append(cid)
    return out


def names(cards: tuple[CardId, ...] | list[CardId]) -> str:
    return " ".join(str(Card.of(c)) for c in cards)
