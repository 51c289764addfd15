"""The one exception family of the package.

Every error the engine raises for bad input is an :class:`IntrigueError`, so
the CLI and the web layer each need exactly one handler.  The subclasses also
derive from :class:`ValueError`, because each of them means "this value is
not acceptable here".
"""

from __future__ import annotations


class IntrigueError(Exception):
    """Base class of every error raised for bad input."""


class NotationError(IntrigueError, ValueError):
    """A card, move or move list is not well formed."""


class UnknownVariantError(IntrigueError, ValueError):
    """A game id names none of the family."""


class DealNumberError(IntrigueError, ValueError):
    """A deal number is not an integer in 1 <= N < 10**20."""


class DealModeError(IntrigueError, ValueError):
    """A deal mode is neither ``auto`` nor ``manual``."""


class IllegalMoveError(IntrigueError, ValueError):
    """A well-formed move that the rules do not allow in this position."""


class SaveFormatError(IntrigueError, ValueError):
    """A saved game is corrupt, tampered with or of an unknown format."""


class PositionError(IntrigueError, ValueError):
    """A position or deal order that cannot occur in the game."""


class CheckpointError(IntrigueError, ValueError):
    """A search kept in a checkpoint directory cannot go on from there: it is
    of another position (or other search options), or its files are damaged."""
