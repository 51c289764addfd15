"""Positions: the immutable state of one game, its legal moves, and the deal.

A :class:`Position` is a value made of tuples of card ids.  :meth:`Position.apply`
returns a new position (unchecked, for the solver's inner loop);
:meth:`Position.why_illegal` says in words why a move is not allowed, and the
checked :class:`intrigue.game.Game` is built on it.  Every rule of the family
lives here or in :mod:`intrigue.variants`, nowhere else.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Literal

from intrigue.cards import DECK_SIZE, NAME_OF, RANK_OF, CardId
from intrigue.deals import deal_order, parse_deal_number
from intrigue.errors import DealModeError, PositionError
from intrigue.notation import DEAL, PILE, Move
from intrigue.variants import Variant, find_variant

DealMode = Literal["auto", "manual"]
DEAL_MODES: tuple[DealMode, ...] = ("auto", "manual")


def parse_mode(value: object) -> DealMode:
    """``'auto'`` or ``'manual'`` (any case).

    Raises:
        DealModeError: naming the bad value.
    """
    if isinstance(value, str):
        key = value.strip().lower()
        if key == "auto":
            return "auto"
        if key == "manual":
            return "manual"
    raise DealModeError(f"unknown deal mode {value!r}; expected one of: auto, manual")


@dataclass(frozen=True, slots=True)
class Position:
    """One position of one deal.

    ``columns`` are the opened columns in opening order, each bottom (its base)
    to top; ``piles`` has one tuple per pile slot of the variant (empty while
    the pile is not open), bottom to top; ``discard`` is Salic Law's row of
    Queens; the stock is ``order[dealt:]``.
    """

    variant: Variant
    mode: DealMode
    deal: int
    dealt: int
    columns: tuple[tuple[CardId, ...], ...]
    piles: tuple[tuple[CardId, ...], ...]
    discard: tuple[CardId, ...] = ()
    order: tuple[CardId, ...] = field(default=(), compare=False, repr=False)
    """The whole pack in deal order; fixed by ``variant`` and ``deal``."""

    # ---------------------------------------------------------------- the deal

    @classmethod
    def start(
        cls, game: str | Variant = "intrigue", deal: int | str = 1, mode: str = "auto"
    ) -> Position:
        """The position in which play starts.

        In ``auto`` mode the whole pack is dealt with forced builds and the
        cascade (RULES.md); in ``manual`` mode only the first column base (and
        in Salic Law the eight Queens before it) are dealt.

        >>> p = Position.start("intrigue", 1)
        >>> p.dealt, len(p.columns)
        (104, 8)

        Raises:
            UnknownVariantError, DealNumberError, DealModeError
        """
        variant = find_variant(game)
        number = parse_deal_number(deal)
        return cls.from_order(variant, deal_order(variant, number), mode, deal=number)

    @classmethod
    def from_order(
        cls,
        game: str | Variant,
        order: tuple[CardId, ...] | list[CardId],
        mode: str = "auto",
        *,
        deal: int = 0,
    ) -> Position:
        """Deal the cards ``order`` (card ids, first dealt first) by the rules of ``game``.

        ``order`` may be a part of the pack, which builds small positions for
        tests and worked examples; ``deal`` is then 0 (no deal number).

        Raises:
            PositionError: if ``order`` repeats a card, names no card, or does
                not start with a column base.
            UnknownVariantError, DealModeError
        """
        variant = find_variant(game)
        deal_mode = parse_mode(mode)
        order = tuple(order)
        if any(not isinstance(c, int) or not 0 <= c < DECK_SIZE for c in order):
            raise PositionError(f"bad deal order: card ids must be integers 0..{DECK_SIZE - 1}")
        if len(set(order)) != len(order):
            raise PositionError("bad deal order: a card id appears twice")
        first = next((c for c in order if RANK_OF[c] != variant.discard_rank), None)
        if first is not None and RANK_OF[first] != variant.base_rank:
            raise PositionError(
                f"bad deal order: the first card dealt to the tableau is {NAME_OF[first]}, "
                f"not a column base"
            )
        columns: list[list[CardId]] = []
        piles: list[list[CardId]] = [[] for _ in range(variant.pile_slots)]
        discard: list[CardId] = []
        dealt = 0
        if deal_mode == "auto":
            for card in order:
                _deal_card(variant, columns, piles, discard, card, to_piles=True)
                _cascade(variant, columns, piles)
            dealt = len(order)
        else:
            while not columns and dealt < len(order):
                _deal_card(variant, columns, piles, discard, order[dealt], to_piles=False)
                dealt += 1
        return cls(
            variant=variant,
            mode=deal_mode,
            deal=deal,
            dealt=dealt,
            columns=tuple(map(tuple, columns)),
            piles=tuple(map(tuple, piles)),
            discard=tuple(discard),
            order=order,
        )

    # ---------------------------------------------------------------- queries

    @property
    def stock(self) -> tuple[CardId, ...]:
        """The cards not dealt yet, next first."""
        return self.order[self.dealt :]

    @property
    def pack_dealt(self) -> bool:
        return self.dealt >= len(self.order)

    @property
    def vacant_columns_take_cards(self) -> bool:
        """Whether a vacant column may take a card now."""
        return self.variant.vacant_column_any_time or self.dealt >= len(self.order)

    def top(self, column: int) -> CardId | None:
        """The movable top card of column ``column`` (1-based), or None if only its base is left."""
        cards = self.columns[column - 1]
        return cards[-1] if len(cards) > 1 else None

    def pile_slot_for(self, card: CardId) -> int | None:
        """The pile slot ``card`` would go to now, or None."""
        return self.variant.pile_slot_for(self.columns, self.piles, card)

    def is_won(self) -> bool:
        """Every card that goes to the piles is on them.

        With the whole pack that is RULES.md's "every pile complete"; for a
        hand-made position of part of a pack (:meth:`from_order`) it means
        every column down to its base and no such card left in the stock.
        """
        on = sum(map(len, self.piles))
        if len(self.order) == DECK_SIZE:
            return on == self.variant.pile_cards
        v = self.variant
        return on == sum(1 for c in self.order if RANK_OF[c] not in (v.base_rank, v.discard_rank))

    def is_stuck(self) -> bool:
        """Not won and no legal move left."""
        return not self.is_won() and next(self.legal_moves(), None) is None

    def cards_on_piles(self) -> int:
        return sum(map(len, self.piles))

    def all_card_ids(self) -> list[CardId]:
        """Every card in the position: columns, piles, discard row and stock."""
        out: list[CardId] = []
        for column in self.columns:
            out.extend(column)
        for pile in self.piles:
            out.extend(pile)
        out.extend(self.discard)
        out.extend(self.stock)
        return out

    def recast(self, game: str | Variant) -> Position:
        """This position as a position of ``game``, a game whose rules differ
        from this one's only in when a pile may open (a
        :attr:`~intrigue.variants.Variant.narrower` one, say): the same
        columns, stock and discard row, each open pile in the slot ``game``
        gives it when the piles are opened again one by one.

        Raises:
            PositionError: naming why not: ``game`` differs in more than its
                pile-opening rule, or its rule could not have opened these piles.
            UnknownVariantError
        """
        target = find_variant(game)
        if not target.differs_only_in_opening(self.variant):
            raise PositionError(
                f"{self.variant.name} and {target.name} differ in more than when a pile opens"
            )
        piles: list[list[CardId]] = [[] for _ in range(target.pile_slots)]
        for slot, pile in enumerate(self.piles):
            if not pile:
                continue
            kind = self.variant.slot_kind[slot]
            new = target.open_pile(target, self.columns, piles, kind, pile[0])
            if new is None:
                raise PositionError(
                    f"{target.name} could not have opened the {NAME_OF[pile[0]]} pile "
                    f"of this {self.variant.name} position"
                )
            piles[new] = list(pile)
        return replace(self, variant=target, piles=tuple(map(tuple, piles)))

    def describe(self) -> str:
        """A short description for messages: game, deal, mode."""
        return f"{self.variant.id} deal {self.deal} ({self.mode})"

    # ---------------------------------------------------------------- moves

    def legal_moves(self) -> Iterator[Move]:
        """Every legal move, in a fixed order: deal, column to pile, column to column."""
        if self.dealt < len(self.order):
            if self.mode == "manual":
                yield DEAL
        columns = self.columns
        variant = self.variant
        piles = self.piles
        n = len(columns)
        for i in range(n):
            column = columns[i]
            if len(column) > 1 and variant.pile_slot_for(columns, piles, column[-1]) is not None:
                yield Move(i + 1, PILE)
        vacant_ok = variant.vacant_column_any_time or self.dealt >= len(self.order)
        if not vacant_ok:
            return
        build_down = variant.build_down
        for i in range(n):
            column = columns[i]
            if len(column) < 2:
                continue
            rank = RANK_OF[column[-1]]
            for j in range(n):
                if j == i:
                    continue
                other = columns[j]
                if len(other) == 1 or (build_down and RANK_OF[other[-1]] == rank + 1):
                    yield Move(i + 1, j + 1)

    def why_illegal(self, move: Move) -> str | None:
        """Why ``move`` is not legal here, in words, or None if it is legal."""
        if move.source == 0:
            if self.mode != "manual":
                return "dealing is for manual deal mode; in auto mode the whole pack is dealt at the start"
            if self.dealt >= len(self.order):
                return "the stock is empty"
            return None
        n = len(self.columns)
        if not 1 <= move.source <= n:
            return f"there is no column {move.source}: {n} columns are open"
        column = self.columns[move.source - 1]
        if len(column) < 2:
            return f"column {move.source} holds only its base, and a base never moves"
        card = column[-1]
        if move.target == PILE:
            if self.pile_slot_for(card) is None:
                return f"no pile takes {NAME_OF[card]} now"
            return None
        if not 1 <= move.target <= n:
            return f"there is no column {move.target}: {n} columns are open"
        if move.target == move.source:
            return "a card cannot move onto its own column"
        target = self.columns[move.target - 1]
        if len(target) == 1:
            if not self.vacant_columns_take_cards:
                return "a vacant column takes a card only once the whole pack is dealt"
            return None
        if not self.variant.build_down:
            return f"column {move.target} is not vacant"
        if not self.pack_dealt:
            return "cards build down on the tableau only once the whole pack is dealt"
        if RANK_OF[target[-1]] != RANK_OF[card] + 1:
            return (
                f"{NAME_OF[card]} does not build on {NAME_OF[target[-1]]}: "
                "a card goes only on one rank higher"
            )
        return None

    def is_legal(self, move: Move) -> bool:
        return self.why_illegal(move) is None

    def apply(self, move: Move) -> Position:
        """The position after ``move``, which must be legal (not checked: see :meth:`why_illegal`)."""
        columns = self.columns
        if move.source == 0:
            col_list = list(map(list, columns))
            pile_list = list(map(list, self.piles))
            discard = list(self.discard)
            _deal_card(
                self.variant, col_list, pile_list, discard, self.order[self.dealt], to_piles=False
            )
            return Position(
                self.variant,
                self.mode,
                self.deal,
                self.dealt + 1,
                tuple(map(tuple, col_list)),
                self.piles,
                tuple(discard),
                self.order,
            )
        s = move.source - 1
        column = columns[s]
        card = column[-1]
        new_columns = list(columns)
        new_columns[s] = column[:-1]
        if move.target == PILE:
            slot = self.variant.pile_slot_for(columns, self.piles, card)
            assert slot is not None, f"apply() of illegal move {move}"
            piles = list(self.piles)
            piles[slot] = piles[slot] + (card,)
            return Position(
                self.variant, self.mode, self.deal, self.dealt, tuple(new_columns),
                tuple(piles), self.discard, self.order,
            )  # fmt: skip
        t = move.target - 1
        new_columns[t] = columns[t] + (card,)
        return Position(
            self.variant, self.mode, self.deal, self.dealt, tuple(new_columns),
            self.piles, self.discard, self.order,
        )  # fmt: skip


def validate(position: Position) -> list[str]:
    """Every way ``position`` breaks the game's invariants, in words (empty if none).

    Checks that each card appears once, that the cards in play and the stock are
    exactly the deal order's first ``dealt`` cards and the rest, that columns hold
    a base at the bottom only, that piles follow their staircases, and that only
    the discard rank is discarded.  Useful for hand-built positions, which the
    constructor does not check.
    """
    v = position.variant
    problems: list[str] = []
    everything = position.all_card_ids()  # the stock comes last
    in_play = everything[: len(everything) - len(position.stock)]
    if len(set(everything)) != len(everything):
        problems.append("a card appears more than once")
    if any(not 0 <= c < DECK_SIZE for c in everything):
        problems.append(f"a card id is outside 0..{DECK_SIZE - 1}")
    if sorted(in_play) != sorted(position.order[: position.dealt]):
        problems.append("the cards in play are not the first cards of the deal order")
    if len(position.piles) != v.pile_slots:
        problems.append(f"{len(position.piles)} pile slots, expected {v.pile_slots}")
    for i, column in enumerate(position.columns, 1):
        if not column or RANK_OF[column[0]] != v.base_rank:
            problems.append(f"column {i} does not start with a base")
        if any(RANK_OF[c] == v.base_rank for c in column[1:]):
            problems.append(f"column {i} holds a base above its bottom card")
    for slot, pile in enumerate(position.piles[: v.pile_slots]):
        staircase = v.pile_kinds[v.slot_kind[slot]].staircase
        if tuple(RANK_OF[c] for c in pile) != staircase[: len(pile)]:
            problems.append(f"pile slot {slot} does not follow its staircase")
    if any(RANK_OF[c] != v.discard_rank for c in position.discard):
        problems.append("the discard row holds a card that is not discarded in this game")
    return problems


def _deal_card(
    variant: Variant,
    columns: list[list[CardId]],
    piles: list[list[CardId]],
    discard: list[CardId],
    card: CardId,
    *,
    to_piles: bool,
) -> None:
    """Deal one card: a base opens the next column, a discard-rank card goes to
    the discard row, and any other card goes to a pile if ``to_piles`` and one
    takes it, else on top of the newest column."""
    rank = RANK_OF[card]
    if rank == variant.base_rank:
        columns.append([card])
    elif rank == variant.discard_rank:
        discard.append(card)
    else:
        slot = variant.pile_slot_for(columns, piles, card) if to_piles else None
        if slot is None:
            columns[-1].append(card)
        else:
            piles[slot].append(card)


def _cascade(variant: Variant, columns: list[list[CardId]], piles: list[list[CardId]]) -> None:
    """While any column's top card can go to a pile, move the top card of the
    leftmost such column there, and look again from the left."""
    i = 0
    while i < len(columns):
        column = columns[i]
        if len(column) > 1:
            slot = variant.pile_slot_for(columns, piles, column[-1])
            if slot is not None:
                piles[slot].append(column.pop())
                i = 0
                continue
        i += 1
