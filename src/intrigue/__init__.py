"""Intrigue: the two-deck patience Intrigue and its family, exactly by the rule book.

>>> import intrigue
>>> game = intrigue.Game("glencoe", 42)
>>> game.variant.name
'Glencoe'
"""

from intrigue.cards import Card, CardId, Rank, Suit, card_name, parse_card
from intrigue.deals import deal_order, parse_deal_number
from intrigue.errors import (
    DealModeError,
    DealNumberError,
    IllegalMoveError,
    IntrigueError,
    NotationError,
    PositionError,
    SaveFormatError,
    UnknownVariantError,
)
from intrigue.game import Game
from intrigue.notation import DEAL, PILE, Move, format_moves, parse_move, parse_moves
from intrigue.position import DEAL_MODES, DealMode, Position, parse_mode, validate
from intrigue.variants import GAME_IDS, VARIANTS, Variant, find_variant

__version__ = "0.1.0"

__all__ = [
    "DEAL",
    "DEAL_MODES",
    "GAME_IDS",
    "PILE",
    "VARIANTS",
    "Card",
    "CardId",
    "DealMode",
    "DealModeError",
    "DealNumberError",
    "Game",
    "IllegalMoveError",
    "IntrigueError",
    "Move",
    "NotationError",
    "Position",
    "PositionError",
    "Rank",
    "SaveFormatError",
    "Suit",
    "UnknownVariantError",
    "Variant",
    "__version__",
    "card_name",
    "deal_order",
    "find_variant",
    "format_moves",
    "parse_card",
    "parse_deal_number",
    "parse_mode",
    "parse_move",
    "parse_moves",
    "validate",
]
