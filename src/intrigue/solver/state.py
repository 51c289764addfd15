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

from collections.abc import Callable
from typing import Literal, NamedTuple

from intrigue.cards import RANK_OF, SUIT_OF
from intrigue.notation import DEAL, PILE, Move
from intrigue.position import Position
from intrigue.solver.rules import (
    N_TYPES,
    NOT_ON_PILES,
    OPEN_ANY,
    OPEN_PER_BASE,
    Tables,
    pile_counts,
)

SHORTCUTS: tuple[str, ...] = (
    "symmetry",
    "deal_first",
    "natural_spots",
    "lone_cards",
    "first_in_line",
    "digs",
)
"""The keywords of :class:`SearchState` that switch a shortcut (each proved safe in
docs/solver.md); ``dict.fromkeys(SHORTCUTS, True)`` is what :func:`~intrigue.solver.solve`
passes by default."""
DEAL_CODE = 8
COLUMN_MOVE = 16
DIG_CODE = 128
"""``DIG_CODE + 8 * (k - 1) + i``: a dig of column ``i``, ``k`` cards parked
(docs/solver.md, "Digs")."""
_OP_COLUMN = 1000
_OP_DEAL = 2000
_ONE = tuple(bytes((t,)) for t in range(256))
"""``_ONE[t]`` is the one-byte column piece for type ``t`` (no allocation per move)."""
_SEP = b"\0"

# Indices into SearchState.cnt beyond the card types (0..21):
_BASES_OF_SUIT = 22
"""22..25: column bases dealt, per suit (Glencoe's opening rule)."""
_BASES = 26
"""Column bases dealt (Laggard Lady's and Salic Law's opening rule)."""
_SLOTS = 27
"""The fixed slot count of a pile kind (Intrigue's and Faerie Queen's opening rule)."""
_NEVER = 28
"""Holds -1: a rank that never goes to a pile needs more than that."""
_CNT_SIZE = 29


class Snapshot(NamedTuple):
    """A :class:`SearchState`'s position, to come back to (:meth:`SearchState.restore`)."""

    cols: tuple[bytes, ...]
    cnt: tuple[int, ...]
    on: int
    dealt: int


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


def op_code(op: int) -> int:
    """The move code of an undo-log operation (what :meth:`SearchState.play` was given)."""
    if op < _OP_COLUMN:
        return op & 15
    if op == _OP_DEAL:
        return DEAL_CODE
    i, j = divmod(op - _OP_COLUMN, 16)
    return COLUMN_MOVE + 8 * i + j


def op_to_move(op: int) -> Move:
    """The engine :class:`Move` that an undo-log operation played."""
    return to_move(op_code(op))


class SearchState:
    """One position in the solver's own form; mutable, with an undo log.

    The whole pile row is one count array ``cnt``: ``cnt[t]`` is the number of
    cards of type ``t`` on piles (and for Glencoe's suited openers also counted
    under their rank), ``cnt[26]`` the column bases dealt, and so on (see the
    ``_BASES``... constants).  Each type ``t`` has a ``need[t]`` index with the
    rule "a card of type ``t`` may go up while ``cnt[need[t]] > cnt[t]``":

    * a rank continuing a staircase needs more cards of the rank below it on
      piles than of its own (that difference is the piles waiting for it);
    * an opener needs fewer open piles of its kind than the capacity of its
      game's opening rule: the slot count, the bases dealt, or (Glencoe) the
      bases dealt of its suit.

    ``symmetry`` turns on the column-symmetry canonical key and the move
    generator's matching shortcuts (see ``docs/solver.md``); with it off the
    key keeps the columns in their real order, which the tests use to check
    that the symmetry never changes a verdict.
    """

    def __init__(
        self,
        position: Position,
        tables: Tables,
        *,
        symmetry: bool = True,
        deal_first: bool = True,
        natural_spots: bool = True,
        lone_cards: bool = True,
        first_in_line: bool = True,
        digs: bool = True,
    ) -> None:
        tb = tables
        self.deal_first = deal_first
        type_of = tb.type_of
        rank_of_type = tb.rank_of_type
        self.tables = tb
        self.symmetry = symmetry
        self.rank_of_type = rank_of_type
        self.cols: list[bytes] = [bytes(type_of[c] for c in col[1:]) for col in position.columns]
        cnt = [*pile_counts(tb, position.piles), *[0] * (_CNT_SIZE - N_TYPES)]
        for col in position.columns:
            cnt[_BASES_OF_SUIT + SUIT_OF[col[0]]] += 1
        cnt[_BASES] = len(position.columns)
        cnt[_NEVER] = -1
        tot = [0] * N_TYPES
        for c in position.all_card_ids():
            tot[type_of[c]] += 1
        need = [_NEVER] * N_TYPES
        for t in range(1, N_TYPES):
            r = rank_of_type[t]
            p = tb.prev[r]
            if p > 0:
                need[t] = p
            elif p == 0:
                if tb.open_rule == OPEN_ANY:
                    need[t] = _SLOTS
                    cnt[_SLOTS] = tb.slots[r]
                elif tb.open_rule == OPEN_PER_BASE:
                    need[t] = _BASES
                else:
                    need[t] = _BASES_OF_SUIT + tb.suit_of_type[t]
            else:
                assert p == NOT_ON_PILES
        self.cnt = cnt
        self.need = tuple(need)
        self.tot = tuple(tot)
        # safe_at[t]: the count at need[t] from which a card of type t is safe
        # to send up: every card of its type can then be taken.  With building
        # down (Faerie Queen), also every card of the rank below must be up
        # already, so that none could still want to be built on this one.
        safe_at = list(tot)
        if tb.build_down:
            for t in range(1, N_TYPES):
                if need[t] == rank_of_type[t] - 1:
                    safe_at[t] = max(tot[t], tot[need[t]])
        self.safe_at = tuple(safe_at)
        # Faerie Queen's natural spots (docs/solver.md): a second way to be safe.
        self.natural_spots = natural_spots and tb.build_down
        # Lone cards (docs/solver.md): the same idea in the games without building.
        self.lone_cards = lone_cards and not tb.build_down
        # First in line (docs/solver.md): the count rule, less the cards of the
        # type that lie under the card, in the games without building.
        self.first_in_line = first_in_line and not tb.build_down
        # Digs (docs/solver.md): after the deal, park only on the way to a card
        # that goes up, in one move, in the games without building.
        self.digs = digs and not tb.build_down
        self.on = sum(len(pile) for pile in position.piles)
        # Won = every card that can go up is up (the whole pack: every pile
        # complete; part of a pack: every column down to its base).
        self.goal = sum(
            1 for t in (type_of[c] for c in position.all_card_ids()) if need[t] != _NEVER
        )
        # What dealing stock card k does: its type, -1 for a discarded card,
        # or -10 - suit for a column base.
        effect = []
        for c in position.order:
            if RANK_OF[c] == tb.base_rank:
                effect.append(-10 - SUIT_OF[c])
            elif RANK_OF[c] == tb.discard_rank:
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
        return self.cnt[self.need[t]] > self.cnt[t]

    def safe_up(self, t: int) -> bool:
        """Whether a card of type ``t`` may be sent to a pile without losing a
        win: the piles can already take every card of its type still off them
        (docs/solver.md, "Safe moves").  Implies :meth:`can_up` when a card of
        type ``t`` is off the piles."""
        return self.cnt[self.need[t]] >= self.safe_at[t]

    # ---------------------------------------------------------------- moves

    def moves(self) -> list[int]:
        """The move codes to search here, most promising first.

        Pile moves, then column moves: first those that empty a column, then
        those that uncover a card that can go up, then builds, then moves onto
        a vacant column.  In manual mode the deal comes right after sending up
        the newest column's top (which the deal would bury) and before the
        other columns' cards, which stay within reach; in Salic Law it comes
        last (measured: each finds far more wins within a node budget than
        the other orders tried).  With ``symmetry`` on, column moves that only
        permute interchangeable columns are left out (docs/solver.md, "Column
        symmetry").  With ``digs``, once the pack is dealt, no card is moved onto a
        vacant column by a move of its own: a dig (``DIG_CODE``) parks the cards
        above one that can go up and sends it up (docs/solver.md, "Digs").
        """
        cols = self.cols
        cnt = self.cnt
        need = self.need
        n = len(cols)
        out = [i for i in range(n) if cols[i] and cnt[need[cols[i][-1]]] > cnt[cols[i][-1]]]
        pack_dealt = self.dealt >= self.n_order
        if self.manual and not pack_dealt:
            if out and out[-1] == n - 1:
                out = [n - 1, DEAL_CODE, *out[:-1]]
            else:
                out.insert(0, DEAL_CODE)
        tb = self.tables
        if not (pack_dealt or tb.vacant_any_time):
            if self.deal_first and self.newest_is_stuck():
                return [DEAL_CODE]
            return out
        symmetry = self.symmetry
        vacant = [j for j in range(n) if not cols[j]]
        # Digs: the cards above a card that can go up parked, then the card up.
        digs = len(vacant) if self.digs and pack_dealt else 0
        if digs:
            vacant = []
        if vacant and symmetry:
            if pack_dealt:
                vacant = vacant[:1]
            else:
                # Salic Law, manual, stock not empty: the newest column takes
                # the dealt cards; all the others are alike.
                last = n - 1
                vacant = [j for j in vacant if j != last][:1] + [j for j in vacant if j == last]
        # Build targets by the rank of their top card (Faerie Queen).
        targets: dict[int, list[int]] = {}
        if tb.build_down and pack_dealt:
            rank_of_type = self.rank_of_type
            for j in range(n):
                if cols[j]:
                    targets.setdefault(rank_of_type[cols[j][-1]], []).append(j)
        empties: list[tuple[int, int]] = []
        uncovers: list[tuple[int, int]] = []
        builds: list[tuple[int, int]] = []
        to_vacant: list[int] = []
        for i in range(n):
            col = cols[i]
            if not col:
                continue
            size = len(col)
            base = COLUMN_MOVE + 8 * i
            if size == 1:
                first = empties
                uncovering = False
            else:
                under = col[-2]
                uncovering = cnt[need[under]] > cnt[under]
                first = uncovers if uncovering else builds
            for k in range(1, min(digs, size - 1) + 1):
                if cnt[need[col[-1 - k]]] > cnt[col[-1 - k]]:
                    uncovers.append((size, DIG_CODE + 8 * (k - 1) + i))
            if vacant:
                # A lone card moved to another interchangeable vacant column
                # gives the same position up to column order.
                skip = size == 1 and symmetry and (pack_dealt or i != n - 1)
                for j in vacant:
                    if skip and (pack_dealt or j != n - 1):
                        continue
                    # Onto a vacant column: worth trying early only if it
                    # uncovers a card that can go up.
                    if uncovering:
                        uncovers.append((size, base + j))
                    else:
                        to_vacant.append(base + j)
            if targets:
                for j in targets.get(self.rank_of_type[col[-1]] + 1, ()):
                    if j != i:
                        first.append((size, base + j))
        # Shorter columns first: they are nearer to giving a vacant column.
        out += [m for _, m in empties]
        if uncovers:
            uncovers.sort()
            out += [m for _, m in uncovers]
        if builds:
            builds.sort()
            out += [m for _, m in builds]
        out += to_vacant
        if self.manual and not pack_dealt:
            # Salic Law before the last deal: dealing last finds more wins
            # within a budget (measured), as vacant columns keep cards in reach.
            out.remove(DEAL_CODE)
            out.append(DEAL_CODE)
        return out

    def newest_is_stuck(self) -> bool:
        """Whether the newest column's top card cannot go to a pile before the next deal.

        Manual mode, before the last deal, in a game whose vacant columns wait
        for the pack: then only the old columns' top cards can go up until the
        next deal, and every such move commutes with the deal, so the deal is
        the only move worth trying (docs/solver.md, "Deal first").  The test
        over-approximates what the old columns can send up: a card may go up
        if a pile *could* want it counting every card below its rank that may
        have gone up before it; if even then the newest top cannot, it cannot.
        """
        cols = self.cols
        if not cols[-1]:
            return True
        cnt = self.cnt
        need = self.need
        x = cols[-1][-1]
        if cnt[need[x]] > cnt[x]:
            return False
        reach = list(cnt)
        rank_of_type = self.rank_of_type
        heights = [len(col) for col in cols]
        changed = True
        while changed:
            changed = False
            for k in range(len(cols) - 1):
                col = cols[k]
                h = heights[k]
                while h and reach[need[col[h - 1]]] > cnt[col[h - 1]]:
                    y = col[h - 1]
                    reach[rank_of_type[y]] += 1
                    if y > 13:
                        reach[y] += 1
                    h -= 1
                    changed = True
                heights[k] = h
            if reach[need[x]] > cnt[x]:
                return False
        return True

    def play(self, code: int) -> None:
        """Play move ``code`` (legal here, not checked) and log it."""
        cols = self.cols
        if code < DEAL_CODE:
            col = cols[code]
            t = col[-1]
            cols[code] = col[:-1]
            cnt = self.cnt
            cnt[t] += 1
            if t > 13:
                cnt[self.rank_of_type[t]] += 1
            self.on += 1
            self.log.append(code | t << 4)
        elif code == DEAL_CODE:
            effect = self.deal_effect[self.dealt]
            if effect >= 0:
                cols[-1] += _ONE[effect]
            elif effect <= -10:
                cols.append(b"")
                self.cnt[_BASES] += 1
                self.cnt[_BASES_OF_SUIT - 10 - effect] += 1
            self.dealt += 1
            self.log.append(_OP_DEAL)
        elif code >= DIG_CODE:
            parked, i = divmod(code - DIG_CODE, 8)
            for _ in range(parked + 1):
                j = next(j for j in range(len(cols)) if not cols[j] and j != i)
                self.play(COLUMN_MOVE + 8 * i + j)
            self.play(i)
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
        cnt = self.cnt
        while len(log) > mark:
            op = log.pop()
            if op < _OP_COLUMN:
                t = op >> 4
                cols[op & 15] += _ONE[t]
                cnt[t] -= 1
                if t > 13:
                    cnt[self.rank_of_type[t]] -= 1
                self.on -= 1
            elif op == _OP_DEAL:
                self.dealt -= 1
                effect = self.deal_effect[self.dealt]
                if effect >= 0:
                    cols[-1] = cols[-1][:-1]
                elif effect <= -10:
                    cols.pop()
                    cnt[_BASES] -= 1
                    cnt[_BASES_OF_SUIT - 10 - effect] -= 1
            else:
                i, j = divmod(op - _OP_COLUMN, 16)
                col = cols[j]
                cols[i] += _ONE[col[-1]]
                cols[j] = col[:-1]

    def safe_top(self, col: bytes) -> bool:
        """Whether the top card of the non-empty column ``col`` may go up as the
        only move considered (docs/solver.md, "Safe moves", "Natural spots",
        "Lone cards" and "First in line").

        Either the piles can take every card of its type still off them, or
        every one but those under it in its column (before the pack is dealt
        only where vacant columns wait for it), or, once the pack is dealt, it
        can go up and: (Faerie Queen) it lies on a
        card one rank higher or alone on its base, and every card of the rank
        below it is itself safe (every card two ranks below it is up); (the
        games without building) it lies alone on its base.
        """
        t = col[-1]
        cnt = self.cnt
        need = self.need
        n = need[t]
        if cnt[n] >= self.safe_at[t]:
            return True
        if cnt[n] <= cnt[t]:
            return False
        if self.first_in_line and (self.dealt == self.n_order or not self.tables.vacant_any_time):
            # The cards of its type under it cannot go up before it anyway.
            if cnt[n] + col.count(t, 0, len(col) - 1) >= self.tot[t]:
                return True
        if self.dealt < self.n_order:
            return False
        if self.lone_cards:
            return len(col) == 1
        if not self.natural_spots:
            return False
        if len(col) > 1 and col[-2] != t + 1:
            return False
        return cnt[need[n]] >= self.safe_at[n]

    def snapshot(self) -> Snapshot:
        """What :meth:`restore` needs to come back here (the log is not kept)."""
        return Snapshot(tuple(self.cols), tuple(self.cnt), self.on, self.dealt)

    def restore(self, snapshot: Snapshot) -> None:
        """Go to a position saved by :meth:`snapshot` of this state; the log starts empty."""
        cols, cnt, self.on, self.dealt = snapshot
        self.cols[:] = cols
        self.cnt[:] = cnt
        self.log = []

    def play_safe(self) -> None:
        """Send every safe card to the piles, until none is left (docs/solver.md)."""
        cols = self.cols
        safe_top = self.safe_top
        changed = True
        while changed:
            changed = False
            for i in range(len(cols)):
                while cols[i] and safe_top(cols[i]):
                    self.play(i)
                    changed = True

    def play_safe_after(self, code: int) -> None:
        """:meth:`play_safe` after move ``code`` from a position with no safe card.

        A column move changes no count, so only the card it uncovered and the
        card it moved (which now lies on a new spot) can have become safe.
        """
        if COLUMN_MOVE <= code < DIG_CODE:
            i, j = divmod(code - COLUMN_MOVE, 8)
            src = self.cols[i]
            if not (src and self.safe_top(src)) and not self.safe_top(self.cols[j]):
                return
        self.play_safe()

    def key_after(self, code: int, safe_moves: bool) -> bytes | None:
        """:meth:`key` after column move ``code``, without playing it.

        Most column moves lead to a position already seen, and this answers
        that without the play/undo round trip.  None when the move would be
        followed by a safe move (its key depends on that closure).
        """
        i, j = divmod(code - COLUMN_MOVE, 8)
        cols = self.cols
        src = cols[i]
        dst = cols[j]
        new_src = src[:-1]
        new_dst = dst + _ONE[src[-1]]
        if safe_moves and (
            (new_src and self.safe_top(new_src))
            or ((self.natural_spots or self.lone_cards) and self.safe_top(new_dst))
        ):
            return None
        cols[i] = new_src
        cols[j] = new_dst
        h = self.key()
        cols[i] = src
        cols[j] = dst
        return h

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


def stock_indices(position: Position) -> list[list[int]]:
    """The stock index (place in ``position.order``) of each column card, as in
    :attr:`SearchState.cols`: one list a column, bottom first, base left out."""
    where = {card: k for k, card in enumerate(position.order)}
    return [[where[c] for c in column[1:]] for column in position.columns]


def play_tracked(state: SearchState, origins: list[list[int]], code: int) -> None:
    """``state.play(code)``, keeping ``origins`` (:func:`stock_indices` of the
    state's columns) up to date."""
    k = state.dealt
    state.play(code)
    if code < DEAL_CODE:
        origins[code].pop()
    elif code == DEAL_CODE:
        cols = state.cols
        if len(cols) > len(origins):
            origins.append([])
        elif len(cols[-1]) > len(origins[-1]):
            origins[-1].append(k)
    else:
        i, j = divmod(code - COLUMN_MOVE, 8)
        origins[j].append(origins[i].pop())


Search = Callable[
    [SearchState, int | None, float | None, Callable[[int], None] | None, bool],
    tuple[Literal["won", "lost", "unknown"], int, int],
]
"""The exact search, as ``dfs.search``: on "won" it leaves the line in the state's log."""
