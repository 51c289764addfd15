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

from intrigue.cards import RANK_OF, SUIT_OF
from intrigue.notation import DEAL, PILE, Move
from intrigue.position import Position
from intrigue.solver.rules import N_TYPES, OPEN_ANY, OPEN_PER_BASE, Tables

DEAL_CODE = 8
COLUMN_MOVE = 16
_OP_COLUMN = 1000
_OP_DEAL = 2000
_ONE = tuple(bytes((t,)) for t in range(256))
"""``_ONE[t]`` is the one-byte column piece for type ``t`` (no allocation per move)."""
_SEP = b"\0"


def to_move(code: int) -> Move:
    """The engine :class:`Move` for a solver move code."""
    if code < DEAL_CODE:
        return Move(code + 1, PILE)
    if code == DEAL_CODE:
        return DEAL
    i, j = divmod(code - COLUMN_MOVE, 8)
    return Move(i + 1, j + 1)


def from_move(move: Move) -> int:
    """The solver move code for an engine :class:`Move`."""
    if move.source == 0:
        return DEAL_CODE
    if move.target == PILE:
        return move.source - 1
    return COLUMN_MOVE + 8 * (move.source - 1) + (move.target - 1)


def op_to_move(op: int) -> Move:
    """The engine :class:`Move` that an undo-log operation played."""
    if op < _OP_COLUMN:
        return Move((op & 15) + 1, PILE)
    if op == _OP_DEAL:
        return DEAL
    i, j = divmod(op - _OP_COLUMN, 16)
    return Move(i + 1, j + 1)


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
        rank_of_type = t.rank_of_type
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
                self.on_r[rank_of_type[type_of[c]]] += 1
                self.on_t[type_of[c]] += 1
        self.on = sum(self.on_r)
        self.tot_r = [0] * 14
        self.tot_t = [0] * N_TYPES
        for c in position.all_card_ids():
            self.tot_r[rank_of_type[type_of[c]]] += 1
            self.tot_t[type_of[c]] += 1
        # What dealing stock card k does: its type, -1 for a discarded card,
        # or -10 - suit for a column base (its suit counts for Glencoe).
        effect = []
        for c in position.order:
            if RANK_OF[c] == t.base_rank:
                effect.append(-10 - SUIT_OF[c])
            elif RANK_OF[c] == t.discard_rank:
                effect.append(-1)
            else:
                effect.append(type_of[c])
        self.deal_effect = tuple(effect)
        self.dealt = position.dealt
        self.n_order = len(position.order)
        self.manual = position.mode == "manual"
        self.log: list[int] = []

    # ---------------------------------------------------------------- rules

    def can_up(self, t: int) -> bool:
        """Whether a card of type ``t`` on top of a column may go to a pile now."""
        tb = self.tables
        r = tb.rank_of_type[t]
        p = tb.prev[r]
        if p > 0:
            return self.on_r[p] > self.on_r[r]
        if p < 0:
            return False
        rule = tb.open_rule
        if rule == OPEN_ANY:
            return self.on_r[r] < tb.slots[r]
        if rule == OPEN_PER_BASE:
            return self.on_r[r] < len(self.cols)
        return self.on_t[t] < self.bsuit[tb.suit_of_type[t]]

    def safe_up(self, t: int) -> bool:
        """Whether a card of type ``t`` that can go to a pile may be sent there
        without losing a win: the piles can take every card of its kind still
        off them (docs/solver.md, "Safe moves")."""
        tb = self.tables
        r = tb.rank_of_type[t]
        p = tb.prev[r]
        if p > 0:
            return self.on_r[p] >= self.tot_r[r]
        if p < 0:
            return False
        rule = tb.open_rule
        if rule == OPEN_ANY:
            return tb.slots[r] >= self.tot_r[r]
        if rule == OPEN_PER_BASE:
            return len(self.cols) >= self.tot_r[r]
        return self.bsuit[tb.suit_of_type[t]] >= self.tot_t[t]

    # ---------------------------------------------------------------- moves

    def moves(self) -> list[int]:
        """The move codes to search here, best first: piles, deal, column moves.

        With ``symmetry`` on, column moves that only permute interchangeable
        columns are left out (docs/solver.md, "Column symmetry").
        """
        cols = self.cols
        n = len(cols)
        can_up = self.can_up
        out = [i for i in range(n) if cols[i] and can_up(cols[i][-1])]
        pack_dealt = self.dealt >= self.n_order
        if self.manual and not pack_dealt:
            out.append(DEAL_CODE)
        tb = self.tables
        if not (pack_dealt or tb.vacant_any_time):
            return out
        vacant = [j for j in range(n) if not cols[j]]
        if vacant and self.symmetry:
            if pack_dealt:
                vacant = vacant[:1]
            else:
                # Salic Law, manual, stock not empty: the newest column is the
                # one that takes dealt cards; all others are alike.
                newest = n - 1
                vacant = [j for j in vacant if j != newest][:1] + [
                    j for j in vacant if j == newest
                ]
        for i in range(n):
            col = cols[i]
            if not col:
                continue
            lone = len(col) == 1 and self.symmetry and (pack_dealt or i != n - 1)
            for j in vacant:
                # A lone card moved to another interchangeable vacant column
                # gives the same position up to column order.
                if lone and (pack_dealt or j != n - 1):
                    continue
                out.append(COLUMN_MOVE + 8 * i + j)
        if tb.build_down and pack_dealt:
            rank_of_type = tb.rank_of_type
            for i in range(n):
                col = cols[i]
                if not col:
                    continue
                want = rank_of_type[col[-1]] + 1
                for j in range(n):
                    if j != i and cols[j] and rank_of_type[cols[j][-1]] == want:
                        out.append(COLUMN_MOVE + 8 * i + j)
        return out

    def play(self, code: int) -> None:
        """Play move ``code`` (legal here, not checked) and log it."""
        cols = self.cols
        if code < DEAL_CODE:
            col = cols[code]
            t = col[-1]
            cols[code] = col[:-1]
            self.on_r[self.tables.rank_of_type[t]] += 1
            self.on_t[t] += 1
            self.on += 1
            self.log.append(code | t << 4)
        elif code == DEAL_CODE:
            effect = self.deal_effect[self.dealt]
            if effect >= 0:
                cols[-1] += _ONE[effect]
            elif effect <= -10:
                cols.append(b"")
                self.bsuit[-10 - effect] += 1
            self.dealt += 1
            self.log.append(_OP_DEAL)
        else:
            i, j = divmod(code - COLUMN_MOVE, 8)
            col = cols[i]
            cols[j] += _ONE[col[-1]]
            cols[i] = col[:-1]
            self.log.append(_OP_COLUMN + 16 * i + j)

    def undo_to(self, mark: int) -> None:
        """Take back logged operations until the log has ``mark`` entries."""
        log = self.log
        cols = self.cols
        while len(log) > mark:
            op = log.pop()
            if op < _OP_COLUMN:
                t = op >> 4
                cols[op & 15] += _ONE[t]
                self.on_r[self.tables.rank_of_type[t]] -= 1
                self.on_t[t] -= 1
                self.on -= 1
            elif op == _OP_DEAL:
                self.dealt -= 1
                effect = self.deal_effect[self.dealt]
                if effect >= 0:
                    cols[-1] = cols[-1][:-1]
                elif effect <= -10:
                    cols.pop()
                    self.bsuit[-10 - effect] -= 1
            else:
                i, j = divmod(op - _OP_COLUMN, 16)
                col = cols[j]
                cols[i] += _ONE[col[-1]]
                cols[j] = col[:-1]

    def play_safe(self) -> None:
        """Send every safe card to the piles, until none is left (docs/solver.md)."""
        cols = self.cols
        safe_up = self.safe_up
        changed = True
        while changed:
            changed = False
            for i in range(len(cols)):
                while cols[i] and safe_up(cols[i][-1]):
                    self.play(i)
                    changed = True

    def key(self) -> bytes:
        """The transposition-table key: equal keys mean positions with the same fate.

        The pile row is not in the key: it is fixed by the cards dealt and the
        cards still in the columns (every card is in exactly one place).
        """
        cols = self.cols
        head = _ONE[self.dealt]
        if self.dealt >= self.n_order:
            body = _SEP.join(sorted(cols)) if self.symmetry else _SEP.join(cols)
            # In manual mode keys before the last deal start with the count
            # dealt; this prefix keeps them apart from the keys after it.
            return head + body if self.manual else body
        if self.symmetry and cols:
            return head + cols[-1] + _SEP + _SEP.join(sorted(cols[:-1]))
        return head + _SEP.join(cols)
