"""A manual deal as the order test sees it (:mod:`intrigue.solver.order`):
the pack in deal order, each column's cards by their places in it, and the
order in which the test tries columns and cards."""

from __future__ import annotations

from dataclasses import dataclass

from intrigue.cards import RANK_OF
from intrigue.position import Position
from intrigue.solver.rules import Tables, tables_for


@dataclass(frozen=True)
class Deal:
    """A manual deal as the order test sees it: the pack in deal order, each
    column's cards (places in the deal order, bottom first), and the rules."""

    tables: Tables
    order: tuple[int, ...]
    columns: tuple[tuple[int, ...], ...]

    @classmethod
    def of(cls, position: Position) -> Deal:
        """The deal of ``position``, which must be the start of a manual deal.
        Salic Law's discarded Queens belong to no column."""
        tables = tables_for(position.variant)
        first_base = next(
            i for i, card in enumerate(position.order) if RANK_OF[card] == tables.base_rank
        )
        if position.mode != "manual" or position.dealt != first_base + 1 or any(position.piles):
            raise ValueError("the order test starts from the first position of a manual deal")
        columns: list[list[int]] = []
        for i, card in enumerate(position.order):
            if RANK_OF[card] == tables.base_rank:
                columns.append([])
            elif RANK_OF[card] != tables.discard_rank:
                columns[-1].append(i)
        return cls(tables, tuple(position.order), tuple(tuple(c) for c in columns))

    @property
    def parks_during_deal(self) -> bool:
        """Whether a card may leave for a vacant column while the pack is dealt (Salic Law)."""
        return self.tables.variant.vacant_column_any_time

    def rank(self, i: int) -> int:
        return RANK_OF[self.order[i]]

    def where(self, i: int) -> tuple[int, int]:
        """Column (0-based) and place in it (0 = on the base) of card ``i``."""
        for j, column in enumerate(self.columns):
            if i in column:
                return j, column.index(i)
        raise ValueError(f"card {i} of the deal is a base")

    def deepest(self) -> list[int]:
        """Every card but the bases, most cards dealt onto it in its column first."""
        cards = [(len(c) - p, i) for c in self.columns for p, i in enumerate(c)]
        return [i for _, i in sorted(cards, key=lambda t: (-t[0], t[1]))]

    def pressure(self, x: int) -> int:
        """How many of the cards dealt onto ``x`` in its column the piles cannot
        hold while ``x`` waits, counting only the cards under ``x``: a staircase
        passes a rank no more times than there are cards of that rank and of
        every rank below it not under ``x``.  Those cards must wait parked, one
        to a column, when ``x`` leaves after the deal, so a card whose pressure
        comes near the other columns is the one to try first.  Where cards
        build down (Faerie Queen) they wait in runs one rank apart instead, so
        it counts the runs they need at least: the ranks that more of them
        wait at than at the rank above.  Only an order of trial: the model
        decides."""
        column, place = self.where(x)
        under = [self.rank(i) for i in self.columns[column][:place]] + [self.rank(x)]
        above = [self.rank(i) for i in self.columns[column][place + 1 :]]
        prev, copies = self.tables.prev, len(self.order) // 13
        cap = [copies] * 14
        for rank in range(14):
            if prev[rank] >= 0:
                chain, r = [], rank
                while r > 0:
                    chain.append(r)
                    r = prev[r]
                cap[rank] = min(copies - under.count(r) for r in chain)
        waiting = [max(0, above.count(r) - cap[r]) for r in range(14)] + [0]
        if self.tables.build_down:
            return sum(max(0, waiting[r] - waiting[r + 1]) for r in range(14))
        return sum(waiting)

    def longest_first(self) -> list[int]:
        """The columns (0-based) that hold cards, in the order the clearing
        test tries them: most cards first, the longest being the hardest to clear."""
        filled = (j for j, cards in enumerate(self.columns) if cards)
        return sorted(filled, key=lambda j: (-len(self.columns[j]), j))

    def candidates(self) -> list[int]:
        """Every card but the bases, in the order the test tries them: most
        pressure first, then most cards dealt onto it."""
        depth = {i: d for d, i in enumerate(self.deepest())}
        return sorted(depth, key=lambda i: (-self.pressure(i), depth[i]))
