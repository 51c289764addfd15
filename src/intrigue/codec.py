"""JSON shapes: positions for ``intrigue show``, the web API, and saved games.

One codec serves the CLI, the web server and save files, so the shapes in
``INTERFACE.md`` are written down exactly once.  Saves store the moves, not the
position, and are replayed on load, so a save can never hold an impossible
position.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from intrigue.cards import NAME_OF, CardId
from intrigue.deals import parse_deal_number
from intrigue.errors import IntrigueError, SaveFormatError
from intrigue.game import Game
from intrigue.position import Position, parse_mode
from intrigue.variants import find_variant

SAVE_FORMAT = 1


def card_name(card: CardId) -> str:
    return NAME_OF[card]


def position_to_dict(
    position: Position, card: Callable[[CardId], Any] = card_name
) -> dict[str, Any]:
    """The ``intrigue show --json`` shape.  ``card`` formats each card (by default its name).

    Every pile slot is listed, empty ones as ``[]``, so slot *i* is always
    ``piles[i]`` (for Glencoe, Five-slot *i* and Six-slot *i* stand above column *i*).
    """

    def cards(ids: tuple[CardId, ...]) -> list[Any]:
        return [card(c) for c in ids]

    variant = position.variant
    return {
        "game": variant.id,
        "deal": position.deal,
        "mode": position.mode,
        "columns": [cards(c) for c in position.columns],
        "piles": [cards(p) for p in position.piles],
        "pile_kinds": [variant.pile_kinds[k].name for k in variant.slot_kind],
        "discard": cards(position.discard),
        "stock": cards(position.stock),
        "won": position.is_won(),
        "stuck": position.is_stuck(),
        "cards_on_piles": position.cards_on_piles(),
    }


def game_to_save(game: Game) -> dict[str, Any]:
    """A versioned save: ``{"format": 1, "game", "deal", "mode", "moves": [...]}``."""
    return {
        "format": SAVE_FORMAT,
        "game": game.variant.id,
        "deal": game.deal,
        "mode": game.mode,
        "moves": [str(m) for m in game.moves],
    }


def game_from_save(data: object) -> Game:
    """Rebuild a game from :func:`game_to_save`'s dict by replaying its moves.

    Raises:
        SaveFormatError: naming what is wrong -- not a dict, a missing or
            unknown field, a wrong format number, a bad game/deal/mode, or a
            move that is malformed or illegal when replayed.
    """
    if not isinstance(data, dict):
        raise SaveFormatError(f"bad save: expected a JSON object, got {type(data).__name__}")
    expected = {"format", "game", "deal", "mode", "moves"}
    missing = expected - data.keys()
    if missing:
        raise SaveFormatError(f"bad save: missing field(s) {', '.join(sorted(missing))}")
    extra = data.keys() - expected
    if extra:
        raise SaveFormatError(f"bad save: unknown field(s) {', '.join(sorted(map(str, extra)))}")
    if data["format"] != SAVE_FORMAT or isinstance(data["format"], bool):
        raise SaveFormatError(
            f"bad save: format {data['format']!r} is not supported (expected {SAVE_FORMAT})"
        )
    if not isinstance(data["deal"], int):
        raise SaveFormatError(f"bad save: deal {data['deal']!r} is not an integer")
    moves = data["moves"]
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise SaveFormatError("bad save: moves must be a list of move strings")
    try:
        game = Game(
            find_variant(data["game"]), parse_deal_number(data["deal"]), parse_mode(data["mode"])
        )
        game.play_all(moves)
    except SaveFormatError:
        raise
    except IntrigueError as e:
        raise SaveFormatError(f"bad save: {e}") from None
    return game


def save_json(game: Game) -> str:
    return json.dumps(game_to_save(game))


def load_json(text: str) -> Game:
    """Parse a JSON save.

    Raises:
        SaveFormatError: for text that is not JSON or not a valid save.
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise SaveFormatError(f"bad save: not JSON ({e.msg} at position {e.pos})") from None
    return game_from_save(data)
