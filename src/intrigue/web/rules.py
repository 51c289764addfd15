"""The rules of each game in plain words, for the page's rules panel.

This is prose for players; the rules themselves live in the engine
(``variants.py``/``position.py``), and RULES.md is the reference.
"""

from __future__ import annotations

from typing import Any

from intrigue.variants import VARIANTS
from intrigue.web.schemas import RANK_WORDS

_COMMON_QUEENS = [
    "Two packs are shuffled together: 104 cards. Suits do not matter, except where Glencoe says so.",
    "Each Queen that is dealt starts a column of its own (eight columns in all). "
    "The Queen at the bottom of a column never moves; only the top card of a column can move.",
    "Build the piles above: a Five-pile starts with any Five and goes down 5, 4, 3, 2, Ace, King. "
    "A Six-pile starts with any Six and goes up 6, 7, 8, 9, 10, Jack. Any suit will do. "
    "A card on a pile never comes off again.",
    "A column that holds only its Queen is vacant. Once the whole pack is dealt, "
    "any single card may be moved onto a vacant column.",
]
_WIN_QUEENS = "You win when all sixteen piles are complete: every column is down to its Queen."

_MODES = [
    "Auto deal (the default): the whole pack is dealt at once. Every card that can go to a pile "
    "goes there by itself, and so does every top card that becomes playable during the deal. "
    "Then it is your turn.",
    "Manual deal (PySolFC's way): deal one card at a time with the Deal button or the stock. "
    "A card lands on the newest column; nothing goes up by itself. Between deals you may move "
    "any top card to a pile.",
]

RULES: dict[str, list[str]] = {
    "intrigue": [*_COMMON_QUEENS, _WIN_QUEENS],
    "laggard-lady": [
        *_COMMON_QUEENS,
        "The lady lags: a Five or a Six may start a new pile only while the Queens dealt so far "
        "outnumber the piles of its kind already started. With three Queens out, at most three "
        "Five-piles and three Six-piles can be open.",
        _WIN_QUEENS,
    ],
    "glencoe": [
        *_COMMON_QUEENS,
        "Each Queen has one Five-slot and one Six-slot above her column. A Five or a Six may "
        "start a pile only in the slot above a Queen of its own suit, and only if that slot is "
        "still free. After that, suits do not matter.",
        _WIN_QUEENS,
    ],
    "salic-law": [
        "Two packs are shuffled together: 104 cards. Suits do not matter.",
        "Queens may not rule: every Queen is set aside on the discard row as it appears and "
        "plays no part.",
        "Each King that is dealt starts a column (eight columns). The King never moves; only "
        "the top card of a column can move.",
        "Build eight piles from Ace up to Jack, any suit. A new pile may be started only above a "
        "King already dealt: never more piles than Kings.",
        "A column holding only its King is vacant, and any single card may be moved onto it "
        "at any time.",
        "You win when all eight piles reach the Jack.",
    ],
    "faerie-queen": [
        "Two packs are shuffled together: 104 cards. Suits do not matter.",
        "Each King that is dealt starts a column (eight columns). The King never moves; only the "
        "top card of a column can move.",
        "Build eight piles from Ace up to Queen, any suit. Queens here are ordinary cards.",
        "Once the whole pack is dealt, a card may also go on a column whose top card is one rank "
        "higher (a 7 on an 8), any suit, or onto a vacant column.",
        "You win when all eight piles reach the Queen.",
    ],
}


def variants_info() -> list[dict[str, Any]]:
    """``GET /api/variants``: id, name, one-line summary and rules of each game."""
    return [
        {
            "id": v.id,
            "name": v.name,
            "summary": v.summary,
            "base": RANK_WORDS[v.base_rank].title(),
            "pile_kinds": [
                {"name": k.name, "slots": k.slots, "size": k.size} for k in v.pile_kinds
            ],
            "discard": v.discard_rank is not None,
            "rules": RULES[v.id],
            "modes": _MODES,
        }
        for v in VARIANTS
    ]
