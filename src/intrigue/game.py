"""Game: the checked, mutable façade over immutable positions.

A :class:`Game` keeps the stack of positions it went through and the moves
between them.  :meth:`Game.play` validates fully before it pushes, so a failed
call changes nothing; :meth:`Game.undo` pops a snapshot (never reverses a
move), so undo gives back the identical position; any new move clears redo.
"""

from __future__ import annotations

from collections.abc import Iterable

from intrigue.errors import IllegalMoveError
from intrigue.notation import Move, parse_moves
from intrigue.position import DealMode, Position
from intrigue.variants import Variant


class Game:
    """One game of one deal, with unlimited undo and redo.

    >>> game = Game("intrigue", 1)
    >>> game.play("1-3")
    Move.parse('1-3')
    >>> game.undo()
    Move.parse('1-3')
    >>> game.position == Game("intrigue", 1).position
    True
    """

    def __init__(
        self,
        game: str | Variant = "intrigue",
        deal: int | str = 1,
        mode: str = "auto",
        *,
        start: Position | None = None,
    ) -> None:
        """Start ``game`` with deal number ``deal`` in deal ``mode``, or from a ``start`` position.

        Raises:
            UnknownVariantError, DealNumberError, DealModeError
        """
        first = start if start is not None else Position.start(game, deal, mode)
        self._positions: list[Position] = [first]
        self._moves: list[Move] = []
        self._redo: list[Move] = []

    # ---------------------------------------------------------------- state

    @property
    def position(self) -> Position:
        return self._positions[-1]

    @property
    def start(self) -> Position:
        return self._positions[0]

    @property
    def variant(self) -> Variant:
        return self.start.variant

    @property
    def deal(self) -> int:
        return self.start.deal

    @property
    def mode(self) -> DealMode:
        return self.start.mode

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(self._moves)

    @property
    def redo_moves(self) -> tuple[Move, ...]:
        """The moves :meth:`redo` would replay, next first."""
        return tuple(reversed(self._redo))

    @property
    def can_undo(self) -> bool:
        return bool(self._moves)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def legal_moves(self) -> list[Move]:
        return list(self.position.legal_moves())

    def is_won(self) -> bool:
        return self.position.is_won()

    def is_stuck(self) -> bool:
        return self.position.is_stuck()

    # ---------------------------------------------------------------- moves

    def _checked(self, move: Move | str, position: Position, played: int) -> Move:
        if isinstance(move, str):
            move = Move.parse(move)
        reason = position.why_illegal(move)
        if reason is not None:
            raise IllegalMoveError(
                f"illegal move {str(move)!r} ({reason}) in {position.describe()} after {played} moves"
            )
        return move

    def play(self, move: Move | str) -> Move:
        """Play one move (a :class:`Move` or its notation) and clear the redo stack.

        Raises:
            NotationError: if ``move`` is a malformed string.
            IllegalMoveError: naming the move, why it is illegal, and the position.
        """
        move = self._checked(move, self.position, len(self._moves))
        self._positions.append(self.position.apply(move))
        self._moves.append(move)
        self._redo.clear()
        return move

    def play_all(self, moves: str | Iterable[Move | str]) -> tuple[Move, ...]:
        """Play a list of moves, all or nothing.

        Raises:
            NotationError, IllegalMoveError: for the first bad move; then no move is played.
        """
        items: Iterable[Move | str] = parse_moves(moves) if isinstance(moves, str) else moves
        position = self.position
        checked: list[Move] = []
        new_positions: list[Position] = []
        for move in items:
            m = self._checked(move, position, len(self._moves) + len(checked))
            position = position.apply(m)
            checked.append(m)
            new_positions.append(position)
        if checked:
            self._positions.extend(new_positions)
            self._moves.extend(checked)
            self._redo.clear()
        return tuple(checked)

    def undo(self) -> Move:
        """Take back the last move; it can be redone.

        Raises:
            IllegalMoveError: if no move has been played.
        """
        if not self._moves:
            raise IllegalMoveError(
                f"nothing to undo in {self.position.describe()}: no move played yet"
            )
        self._positions.pop()
        move = self._moves.pop()
        self._redo.append(move)
        return move

    def redo(self) -> Move:
        """Replay the last undone move.

        Raises:
            IllegalMoveError: if there is nothing to redo.
        """
        if not self._redo:
            raise IllegalMoveError(f"nothing to redo in {self.position.describe()}")
        move = self._redo.pop()
        self._positions.append(self.position.apply(move))
        self._moves.append(move)
        return move

    def undo_to(self, ply: int) -> None:
        """Undo moves until ``ply`` moves remain (they stay redoable).

        Raises:
            IllegalMoveError: if ``ply`` is not in 0..len(moves).
        """
        if not 0 <= ply <= len(self._moves):
            raise IllegalMoveError(f"cannot go back to move {ply}: {len(self._moves)} moves played")
        while len(self._moves) > ply:
            self.undo()

    def restart(self) -> None:
        """Back to the start of the deal; the moves played can all be redone."""
        self.undo_to(0)

    def position_after(self, ply: int) -> Position:
        """The position after the first ``ply`` moves."""
        return self._positions[ply]

    def copy(self, *, stack: bool = True) -> Game:
        """A copy; with ``stack=False`` the copy starts at the current position, with no history."""
        game = Game(start=self.position if not stack else self.start)
        if stack:
            game._positions = list(self._positions)
            game._moves = list(self._moves)
            game._redo = list(self._redo)
        return game

    def __repr__(self) -> str:
        return f"<Game {self.position.describe()} after {len(self._moves)} moves>"
