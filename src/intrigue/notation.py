"""Moves and the move notation of the command-line contract.

* ``3f``  -- the top card of column 3 to a pile;
* ``3-5`` -- the top card of column 3 onto column 5;
* ``d``   -- deal the next card (``manual`` deal mode only).

Columns are numbered 1..8 in the order they were opened.  Parsing is lenient
about case and surrounding space (``3F``, `` d ``); formatting is canonical.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from intrigue.errors import NotationError

PILE = 0
"""The ``target`` of a move to a pile."""

MAX_COLUMNS = 8
_MOVE_RE = re.compile(
    r"^\s*(?:(?P<deal>d)|(?P<src>[1-8])\s*(?:(?P<pile>f)|-\s*(?P<dst>[1-8])))\s*$", re.I
)


class Move(NamedTuple):
    """A move.  ``source`` is a column number 1..8 (0 for a deal); ``target``
    is a column number 1..8, or :data:`PILE` (0).

    >>> Move.parse("3-5")
    Move.parse('3-5')
    >>> str(Move.to_pile(2)), str(DEAL)
    ('2f', 'd')
    """

    source: int
    target: int

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse one move.

        Raises:
            NotationError: if ``text`` is not ``Nf``, ``N-M`` (N, M in 1..8) or ``d``.
        """
        if not isinstance(text, str):
            raise NotationError(f"bad move {text!r}: expected a string such as '3f', '3-5' or 'd'")
        m = _MOVE_RE.match(text)
        if m is None:
            raise NotationError(
                f"bad move {text!r}: expected 'Nf' (column N to a pile), 'N-M' (column N onto "
                "column M) or 'd' (deal), with columns 1 to 8"
            )
        if m["deal"]:
            return DEAL
        src = int(m["src"])
        if m["pile"]:
            return cls(src, PILE)
        dst = int(m["dst"])
        if dst == src:
            raise NotationError(f"bad move {text!r}: a column cannot move onto itself")
        return cls(src, dst)

    @classmethod
    def to_pile(cls, column: int) -> Move:
        return cls(column, PILE)

    @classmethod
    def to_column(cls, source: int, target: int) -> Move:
        return cls(source, target)

    @property
    def is_deal(self) -> bool:
        return self.source == 0

    @property
    def is_to_pile(self) -> bool:
        return self.source != 0 and self.target == PILE

    def __str__(self) -> str:
        if self.source == 0:
            return "d"
        if self.target == PILE:
            return f"{self.source}f"
        return f"{self.source}-{self.target}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


DEAL = Move(0, 0)
"""The move that deals the next card."""


def parse_move(text: str) -> Move:
    """Parse one move; see :meth:`Move.parse`."""
    return Move.parse(text)


def parse_moves(text: str | list[str] | tuple[str, ...]) -> tuple[Move, ...]:
    """Parse a space-separated move list (``"2f 5f 1-4 3f"``) or a list of moves.

    Raises:
        NotationError: naming the first bad move and its position in the list.
    """
    items = text.split() if isinstance(text, str) else list(text)
    moves = []
    for i, item in enumerate(items, 1):
        try:
            moves.append(Move.parse(item))
        except NotationError as e:
            raise NotationError(f"move {i} of the list: {e}") from None
    return tuple(moves)


def format_move(move: Move) -> str:
    return str(move)


def format_moves(moves: tuple[Move, ...] | list[Move]) -> str:
    return " ".join(str(m) for m in moves)
