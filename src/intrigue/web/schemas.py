"""Request and response shapes of the JSON API, one per direction.

Requests are tiny; the real validation is the engine's own parsers
(``find_variant``, ``parse_deal_number``, ``parse_mode``, ``Move.parse``),
whose :class:`~intrigue.errors.IntrigueError` becomes a 400 naming the bad
value.  Responses are the full view model of a game: the page keeps no rules
and never patches its state from a partial reply.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from intrigue.cards import NAME_OF, RANK_OF, SUIT_OF, CardId
from intrigue.codec import position_to_dict
from intrigue.deals import parse_deal_number
from intrigue.errors import IntrigueError
from intrigue.game import Game
from intrigue.notation import PILE, Move
from intrigue.position import DealMode, Position, parse_mode
from intrigue.variants import Variant, find_variant

MAX_BODY = 16 * 1024
"""Request bodies are a few dozen bytes; anything this big is not ours."""


class RequestError(IntrigueError, ValueError):
    """A request body that is not the JSON object the route expects."""


# ---------------------------------------------------------------- requests


def parse_body(body: bytes) -> dict[str, Any]:
    """The JSON object in ``body`` (an empty body is ``{}``).

    Raises:
        RequestError: naming the problem: too big, not UTF-8, not JSON, not an object.
    """
    if len(body) > MAX_BODY:
        raise RequestError(f"request body of {len(body)} bytes is too large (limit {MAX_BODY})")
    if not body.strip():
        return {}
    try:
        # Decode first: json.loads(bytes) would also guess UTF-16/32, which no client of ours sends.
        data = json.loads(body.decode("utf-8"))
    except UnicodeDecodeError:
        raise RequestError("malformed JSON body: not UTF-8 text") from None
    except json.JSONDecodeError as e:
        raise RequestError(
            f"malformed JSON body: {e.msg} at line {e.lineno} column {e.colno}"
        ) from None
    if not isinstance(data, dict):
        raise RequestError(f"expected a JSON object, got a JSON {_json_type(data)}")
    return data


def _json_type(value: object) -> str:
    names = {list: "array", str: "string", bool: "boolean", int: "number", float: "number"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


def _only(data: dict[str, Any], allowed: set[str], route: str) -> None:
    extra = sorted(set(data) - allowed)
    if extra:
        expected = ", ".join(sorted(allowed)) or "no fields"
        raise RequestError(
            f"unknown field(s) {', '.join(map(repr, extra))} for {route}; expected {expected}"
        )


@dataclass(frozen=True)
class NewGameRequest:
    """``POST /api/games {"game": "intrigue", "deal": 42, "mode": "auto"}``.

    ``deal`` may be a number or a decimal string (deal numbers go beyond what
    a JavaScript number holds exactly); missing or null means a random deal.
    """

    variant: Variant
    deal: int | None
    mode: DealMode

    @classmethod
    def parse(cls, data: dict[str, Any]) -> NewGameRequest:
        """Raises: RequestError, UnknownVariantError, DealNumberError, DealModeError."""
        _only(data, {"game", "deal", "mode"}, "a new game")
        deal = data.get("deal")
        return cls(
            variant=find_variant(data.get("game", "intrigue")),
            deal=None if deal is None else parse_deal_number(deal),
            mode=parse_mode(data.get("mode", "auto")),
        )


@dataclass(frozen=True)
class MoveRequest:
    """``POST /api/games/{id}/moves {"move": "3-5"}``."""

    move: Move

    @classmethod
    def parse(cls, data: dict[str, Any]) -> MoveRequest:
        """Raises: RequestError, NotationError."""
        _only(data, {"move"}, "a move")
        if "move" not in data:
            raise RequestError('missing field \'move\', e.g. {"move": "3-5"}')
        return cls(Move.parse(data["move"]))


# ---------------------------------------------------------------- responses

RANK_WORDS = ("", "ace", "two", "three", "four", "five", "six", "seven", "eight", "nine",
              "ten", "jack", "queen", "king")  # fmt: skip
SUIT_WORDS = ("clubs", "spades", "hearts", "diamonds")


def card_words(card: CardId) -> str:
    """``'seven of diamonds'``: how a screen reader says a card."""
    return f"{RANK_WORDS[RANK_OF[card]]} of {SUIT_WORDS[SUIT_OF[card]]}"


def card_view(card: CardId) -> dict[str, Any]:
    return {"id": card, "card": NAME_OF[card]}


def pile_name(variant: Variant, slot: int) -> str:
    return variant.pile_kinds[variant.slot_kind[slot]].name


def describe_move(before: Position, after: Position, move: Move) -> dict[str, Any]:
    """The move in words for the aria-live region, and the card that moved."""
    if move.is_deal:
        card = before.stock[0]
        if len(after.columns) > len(before.columns):
            where = f"opens column {len(after.columns)}"
        elif len(after.discard) > len(before.discard):
            where = "goes to the discard row"
        else:
            where = f"to column {len(after.columns)}"
        return {"move": "d", "card": card, "text": f"dealt the {card_words(card)}, {where}"}
    card = before.columns[move.source - 1][-1]
    if move.target == PILE:
        slot = next(
            i for i, (a, b) in enumerate(zip(before.piles, after.piles, strict=True)) if a != b
        )
        pile = pile_name(before.variant, slot)
        opens = " (a new pile)" if len(before.piles[slot]) == 0 else ""
        text = f"{card_words(card)} to the {pile}{opens}"
    else:
        text = f"{card_words(card)} to column {move.target}"
    return {"move": str(move), "card": card, "text": text}


def dests(position: Position) -> dict[str, Any]:
    """Legal destinations, chessground-style: ``{"3": ["f", "5"], "deal": true}``."""
    out: dict[str, Any] = {}
    for move in position.legal_moves():
        if move.is_deal:
            out["deal"] = True
        else:
            target = "f" if move.target == PILE else str(move.target)
            out.setdefault(str(move.source), []).append(target)
    return out


def pile_targets(position: Position) -> dict[str, int]:
    """For each column whose top card may go up: the pile slot it would go to,
    so the page can light up that exact slot."""
    out = {}
    for i, column in enumerate(position.columns):
        if len(column) > 1:
            slot = position.pile_slot_for(column[-1])
            if slot is not None:
                out[str(i + 1)] = slot
    return out


def pile_moves_finish(position: Position) -> tuple[Move, ...] | None:
    """The pile moves that win from here, if moving cards up alone wins: the
    trivial ending that auto-finish plays without asking the solver."""
    moves = []
    while not position.is_won():
        move = next((m for m in position.legal_moves() if m.is_to_pile), None)
        if move is None:
            return None
        moves.append(move)
        position = position.apply(move)
    return tuple(moves)


def game_view(
    game_id: str, game: Game, *, started: float, finished: float | None
) -> dict[str, Any]:
    """The full view model of a game, as every game route returns it."""
    position = game.position
    variant = position.variant
    moves = game.moves
    last = None
    if moves:
        n = len(moves)
        last = describe_move(game.position_after(n - 1), position, moves[-1])
    won = position.is_won()
    return {
        "id": game_id,
        "game": variant.id,
        "name": variant.name,
        "deal": position.deal,
        "deal_text": str(position.deal),  # exact in JavaScript even above 2**53
        "mode": position.mode,
        "position": position_to_dict(position, card=card_view),
        "base_rank": variant.base_rank,
        "discard_row": variant.discard_rank is not None,  # Salic Law's row of Queens
        "dests": dests(position),
        "pile_targets": pile_targets(position),
        "won": won,
        "stuck": position.is_stuck(),
        "moves": [str(m) for m in moves],
        "move_count": len(moves),
        "can_undo": game.can_undo,
        "can_redo": game.can_redo,
        "can_autofinish": not won and pile_moves_finish(position) is not None,
        "last_move": last,
        "started": started,
        "finished": finished,
    }
