"""The solver's compact, mutable state: columns as ``bytes``, piles as counts.

:class:`SearchState` is built from a :class:`~intrigue.position.Position` and
then changed in place by :meth:`~SearchState.play` and put back exactly by
:meth:`~SearchState.undo_to`, so the depth-first search allocates almost
nothing per node.  The rules come from :mod:`intrigue.solver.rules`; the move
generator here is checked against :meth:`Position.legal_moves` and
:meth:`Position.apply` by a property test (``tests/test_solver.py``), and every
winning line is replayed through the engine before it is returned.

Moves are small ints (see :func:`to_move`): ``0..7`` a column's top card to a
pile, :data:`DEAL_CODE` a deal, ``16 + 8 * i + j`` column ``i`` onto column
``j`` (0-based, in the position's real column order).  The undo log holds
*operations*, which also carry what is needed to take them back.
"""

from __future__ import annotations

from intrigue.cards import SUIT_OF
from intrigue.notation import DEAL, PILE, Move
from intrigue.position import Position
from intrigue.solver.rules import (
    N_TYPES,
    OPEN_ANY,
    OPEN_PER_BASE,
    Tables,
)

DEAL_CODE = 8
_COLUMN_MOVE = 16
_OP_COLUMN = 1000
_OP_DEAL = 2000
_ONE = tuple(bytes((t,)) for t in range(256))
"""``_ONE[t]`` is the one-byte column piece for type ``t`` (no allocation per move)."""


def to_move(code: int) -> Move:
    """The engine :class:`Move` for a solver move code."""
    if code < DEAL_CODE:
        return Move(code + 1, PILE)
    if code == DEAL_CODE:
        return DEAL
    i, j = divmod(code - _COLUMN_MOVE, 8)
    return Move(i + 1, j + 1)


def from_move(move: Move) -> int:
    """The solver move code for an engine :class:`Move`."""
    if move.source == 0:
        return DEAL_CODE
    if move.target == PILE:
        return move.source - 1
    return _COLUMN_MOVE + 8 * (move.source - 1) + (move.target - 1)


class SearchState:
    """One position in the solver's own form; mutable, with an undo log.

    ``symmetry`` turns on the column-symmetry canonical key and the move
    generator's matching shortcuts (see ``docs/solver.md``); with it off the
    key keeps the columns in their real order, which the tests use to check
    that the symmetry never changes a verdict.
    """

    def __init__(self, position: Position, tables: Tables, *, symmetry: bool = True) -> None:
        t = tables
        type_of = t.type_of
        self.tables = t
        self.symmetry = symmetry
        self.cols: list[bytes] = [bytes(type_of[c] for c in col[1:]) for col in position.columns]
        self.bsuit = [0, 0, 0, 0]
        for col in position.columns:
            self.bsuit[SUIT_OF[col[0]]] += 1
        self.on_r = [0] * 14
        self.on_t = [0] * N_TYPES
        for pile in position.piles:
            for c in pile:
                ct = type_of[c]
                self.on_r[t.rank_of_type[ct]] += 1
                self.on_t[ct] += 1
        self.on = sum(self.on_r)
        self.tot_r = [0] * 14
        self.tot_t = [0] * N_TYPES
        for c in position.all_card_ids():
            ct = type_of[c]
            self.tot_r[t.rank_of_type[ct]] += 1
            self.tot_t[ct] += 1
        # What dealing stock card k does: a type, or -1 for a discarded card,
        # or -10 - suit for a column base (its suit counts for Glencoe).
        stock: list[int] = []
        for c in position.order:
            if c in (): continue  # pragma: no cover
            from intrigue.cards import RANK_OF as _R

            if _R[c] == t.base_rank:
                stock.append(-10 - SUIT_OF[c])
            elif _R[c] == t.discard_rank:
                stock.append(-1)
            else:
                stock.append(type_of[c])
        self.deal_effect = tuple(stock)
        self.dealt = position.dealt
        self.n_order = len(position.order)
        self.manual = position.mode == "manual"
        self.log: list[int] = []
        # Per rank, whether an opener's capacity is the fixed slot count and
        # so large enough for all its cards (Intrigue, Faerie Queen: 8 slots,
        # 8 cards): then opening is always safe.
        self.open_always_safe = tuple(
            t.open_rule == OPEN_ANY and t.slots[r] >= self.tot_r[r] for r in range(14)
        )
