"""The column test: a sound, cheap proof that a position is lost.

Pick one column -- one already open, or one that a base still in the stock
will open -- and make every card that is not dealt onto it *free*: it can go to
a pile whenever a pile wants it and covers nothing.  Everything else stays
exact: the cards dealt onto the column arrive in deal order on top of it, only
its top card moves, a card may wait on a vacant column only where the game
allows it then and only as many as there are other columns, and a pile opens
only as the game's count rule allows.  Every line of the real game is a line
of this *relaxed* one, so if the relaxed game cannot bring the column's own
cards all to the piles, the real one cannot either, and the position is lost
(docs/solver.md, "The column test").

The relaxed game is small -- the column's stack, the cards parked off it, the
cards on the piles per rank and how many free cards of each rank are left -- and
two rules shown safe in docs/solver.md keep it smaller: free cards go up only
to let one of the column's cards follow, onto the highest pile that can take
it; and a parked card that a pile wants goes up at once.

This is what proves the manual deals that stick in their first long column,
such as Salic Law 7228, whose first 40 cards all land on column 1: the
exhaustive search cannot tell the countless ways to play the rest apart.
Faerie Queen, whose cards build down on one another, is not covered.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from intrigue.cards import RANK_OF
from intrigue.position import Position
from intrigue.solver.rules import OPEN_ANY, Tables, tables_for

try:
    from intrigue.solver import _relaxed
except ImportError:  # installed without a C compiler: the same game runs in Python
    NATIVE = False
else:
    NATIVE = True
"""Whether the compiled relaxed game (``_relaxed.c``, the same as :meth:`RelaxedGame.clears`) is built."""

COLUMN_TEST_STATES = 50_000_000 if NATIVE else 1_000_000
"""Default limit on the relaxed states the test visits, over all columns.  The
compiled game keeps about 100 bytes a state (5 GB at this limit); a monster
column needs millions (Intrigue 3661: 20 million)."""


_State = tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]
# (cards of the column dealt so far, its stack, the parked cards,
#  cards on the piles per rank, free cards per rank)


@dataclass(frozen=True, slots=True)
class _Column:
    number: int
    """1-based, in opening order (columns still to open count after the open ones)."""
    bases: int
    """Bases dealt while the cards still to come onto this column are dealt."""
    stack: tuple[int, ...]
    """The ranks on the column now, bottom to top (the base left out)."""
    deal: tuple[int, ...]
    """The ranks the stock will still deal onto it, in deal order."""
    later: tuple[int, ...]
    """The ranks dealt after it stops being the newest column (only while ``deal``)."""


def blocked_column(
    position: Position,
    *,
    max_states: int = COLUMN_TEST_STATES,
    deadline: float | None = None,
    native: bool = True,
) -> int | None:
    """A column whose cards can never all reach the piles, if the test finds one.

    The 1-based number counts the open columns first, then those that bases
    still in the stock will open.  ``None`` means no proof (every column can be
    cleared in the relaxed game, or ``max_states`` or ``deadline``, a
    :func:`time.monotonic` value, cut the test short); it never means "won".
    ``native=False`` plays the relaxed games in Python even where the compiled
    ones are built (the two visit the same states).
    """
    return column_test(*as_ranks(position), max_states=max_states, deadline=deadline, native=native)


def as_ranks(
    position: Position,
) -> tuple[Tables, list[list[int]], list[int], list[int]]:
    """The arguments of :func:`column_test` and :func:`relaxed_games` for ``position``."""
    on = [0] * 14
    for pile in position.piles:
        for card in pile:
            on[RANK_OF[card]] += 1
    return (
        tables_for(position.variant),
        [[RANK_OF[c] for c in column[1:]] for column in position.columns],
        on,
        [RANK_OF[c] for c in position.stock],
    )


def column_test(
    tables: Tables,
    columns: Sequence[Sequence[int]],
    on: Sequence[int],
    stock: Sequence[int],
    *,
    max_states: int = COLUMN_TEST_STATES,
    deadline: float | None = None,
    native: bool = True,
) -> int | None:
    """:func:`blocked_column` of a position given as ranks: each open column
    above its base, the cards on the piles per rank (``on[rank]``), and the
    stock, next card first."""
    left = max_states
    for number, relaxed in relaxed_games(tables, columns, on, stock):
        budget = max(1, min(left, max_states // 2))
        if native and NATIVE:
            cleared, used = _relaxed.clears(relaxed, budget, deadline)
        else:
            cleared, used = relaxed.clears(budget, deadline)
        left -= used
        if cleared is False:
            return number
        if left <= 0 or (deadline is not None and time.monotonic() > deadline):
            return None
    return None


def relaxed_games(
    tables: Tables, columns: Sequence[Sequence[int]], on: Sequence[int], stock: Sequence[int]
) -> Iterator[tuple[int, RelaxedGame]]:
    """Each column's relaxed game (arguments as for :func:`column_test`), with
    the column's number, largest column first; none where cards build down."""
    if tables.build_down:
        return
    # What every column's relaxed game starts from: the cards per rank that are
    # not on the piles yet (its own, and the free ones), and the bases in all.
    loose = [0] * 14
    for rank in (*(r for col in columns for r in col), *stock):
        if tables.prev[rank] >= 0:
            loose[rank] += 1
    bases = len(columns) + sum(1 for r in stock if r == tables.base_rank)
    layout = _columns_of(tables, columns, stock)
    for column in sorted(layout, key=lambda c: -len(c.stack) - len(c.deal)):
        if column.stack or column.deal:
            others = [c for c in layout if c is not column]
            yield column.number, RelaxedGame(tables, loose, bases, on, column, others)


def _columns_of(
    tables: Tables, columns: Sequence[Sequence[int]], stock: Sequence[int]
) -> list[_Column]:
    # The stock in segments: what goes onto the newest column, then one per base.
    segments: list[list[int]] = [[]]
    for rank in stock:
        if rank == tables.base_rank:
            segments.append([])
        elif tables.prev[rank] >= 0:
            segments[-1].append(rank)
    opened = len(columns)
    out = []
    for i, cards in enumerate(columns):
        newest = i == opened - 1
        deal = tuple(segments[0]) if newest else ()
        later = tuple(r for seg in segments[1:] for r in seg) if deal else ()
        out.append(_Column(i + 1, opened, tuple(cards), deal, later))
    for j, seg in enumerate(segments[1:], start=1):
        later = tuple(r for s in segments[j + 1 :] for r in s) if seg else ()
        out.append(_Column(opened + j, opened + j, (), tuple(seg), later))
    return out


class RelaxedGame:
    """The relaxed game of one column (piles as counts per rank, as in
    :mod:`intrigue.solver.rules`)."""

    def __init__(
        self,
        tables: Tables,
        loose: Sequence[int],
        bases: int,
        on: Sequence[int],
        column: _Column,
        others: Sequence[_Column] = (),
    ) -> None:
        self.prev = tables.prev
        self.slots = tables.slots
        self.stack = column.stack
        self.deal = column.deal
        free = list(loose)
        for rank in (*column.stack, *column.deal, *column.later):
            free[rank] -= 1
        self.free = tuple(free)
        self.later = [0] * 14
        for rank in column.later:
            self.later[rank] += 1
        self.on = tuple(on)
        bounded = tables.open_rule != OPEN_ANY  # Glencoe's rule is narrower still
        # (most piles of a kind open, parking places) while cards come onto the
        # column, and after: a card waits on a vacant column, alone, and while
        # the column has cards only the other columns are vacant.
        self.dealing_limits = (
            column.bases if bounded else 99,
            column.bases - 1 if tables.vacant_any_time else 0,
        )
        self.after_limits = (bases if bounded else 99, max(0, bases - 1))
        self.parking_back = tables.vacant_any_time
        # Where vacant columns wait for the pack, each other column only ever
        # holds cards of its own or one moved card, so it is vacant only once
        # its own cards are all up (docs/solver.md, "Room to park").
        self.room_of = None if tables.vacant_any_time else (tables, on, column, others)
        self.room: _Room | None = None  # built when first needed: most tests never park
        # What the compiled game builds its room from: the piles at the start,
        # the column's own cards and each other column's, per rank.
        self.room_counts = (
            None
            if self.room_of is None
            else [list(on), _counts((*column.stack, *column.deal))]
            + [_counts((*other.stack, *other.deal)) for other in others]
        )

    def _up(
        self, on: tuple[int, ...], free: tuple[int, ...], rank: int, opened: int, direct: bool
    ) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        """(on, free) after ``rank`` goes up onto the highest pile at or below
        its step, raised to it with free cards first unless ``direct``; or None.

        Raising the highest such pile is never worse than a lower one: that
        spends a superset of the free cards (docs/solver.md, "The column test").
        """
        prev, slots = self.prev, self.slots
        path = []
        q = rank
        while True:
            p = prev[q]
            if p == 0:
                if on[q] >= min(opened, slots[q]):
                    return None
                break
            if on[p] > on[q]:
                break  # a pile waits for q
            if direct:
                return None
            path.append(p)
            q = p
        new_on = list(on)
        new_free = list(free)
        for r in path:
            new_free[r] -= 1
            if new_free[r] < 0:
                return None
            new_on[r] += 1
        new_on[rank] += 1
        return tuple(new_on), tuple(new_free)

    def clears(self, max_states: int, deadline: float | None) -> tuple[bool | None, int]:
        """(whether the column's cards can all go up, states visited); None if cut short."""
        deal, n = self.deal, len(self.deal)
        up = self._up
        seen: set[_State] = set()
        todo: list[_State] = [(0, self.stack, (), self.on, self.free)]
        while todo:
            state = todo.pop()
            dealt, stack, parked, on, free = state
            after = dealt >= n
            if after and not stack and not parked:
                return True, len(seen)
            if state in seen:
                continue
            seen.add(state)
            if len(seen) >= max_states or (
                deadline is not None and not len(seen) % 4096 and time.monotonic() > deadline
            ):
                return None, len(seen)
            opened, places = self.after_limits if after else self.dealing_limits
            if after and stack and self.room_of is not None:
                if self.room is None:
                    self.room = _Room(*self.room_of)
                room = self.room.places(stack, parked)
                if len(parked) > room:
                    continue  # more cards parked than columns that can be vacant
                places = min(places, room)
            # A parked card that a pile wants goes up at once (docs/solver.md);
            # while cards still come, a pile opened early could stand in the way
            # of another under the count rule, so openers are left to choose.
            forced = None
            for rank in parked:
                if after or self.prev[rank]:
                    got = up(on, free, rank, opened, True)
                    if got is not None:
                        forced = (dealt, stack, _without(parked, rank), *got)
                        break
            if forced is not None:
                todo.append(forced)
                continue
            successors: list[_State] = []
            if stack:
                got = up(on, free, stack[-1], opened, False)
                if got is not None:
                    successors.append((dealt, stack[:-1], parked, *got))
            for rank in sorted(set(parked)):
                got = up(on, free, rank, opened, False)
                if got is not None:
                    successors.append((dealt, stack, _without(parked, rank), *got))
            if stack and len(parked) < places:
                successors.append(
                    (dealt, stack[:-1], tuple(sorted((*parked, stack[-1]))), on, free)
                )
            if not after:
                more = free if dealt + 1 < n else self._add_later(free)
                successors.append((dealt + 1, (*stack, deal[dealt]), parked, on, more))
                if self.parking_back and not stack:
                    # A parked card may go back onto the emptied column (Salic Law).
                    for rank in sorted(set(parked)):
                        successors.append((dealt, (rank,), _without(parked, rank), on, free))
            todo.extend(reversed(successors))
        return False, len(seen)

    def _add_later(self, free: Sequence[int]) -> tuple[int, ...]:
        return tuple(a + b for a, b in zip(free, self.later, strict=True))


class _Room:
    """How many other columns can be vacant once the column's cards are all
    dealt: at most as many as there are other columns whose own cards can all
    be up together, given which of the column's cards are up (docs/solver.md,
    "Room to park")."""

    def __init__(
        self, tables: Tables, on: Sequence[int], column: _Column, others: Sequence[_Column]
    ) -> None:
        self.prev = tables.prev
        self.on = tuple(on)
        self.own = [0] * 14
        for rank in (*column.stack, *column.deal):
            self.own[rank] += 1
        self.free = [0] * 14
        counts = []
        for other in others:
            count = [0] * 14
            for rank in (*other.stack, *other.deal):
                count[rank] += 1
                self.free[rank] += 1
            counts.append(count)
        # Every set of other columns, largest first, as the cards it holds per
        # rank (each set's sums from those of the set without its first column).
        sums: list[list[int]] = [[0] * 14]
        for count in counts:
            sums += [[a + b for a, b in zip(old, count, strict=True)] for old in sums]
        sizes = [bin(chosen).count("1") for chosen in range(len(sums))]
        self.sets = sorted(
            (
                (sizes[i], [(r, n) for r, n in enumerate(needs) if n])
                for i, needs in enumerate(sums)
            ),
            key=lambda entry: -entry[0],
        )
        ranks = [r for r in range(14) if self.prev[r] >= 0]
        self.order: list[int] = []  # each rank after the one below it
        while len(self.order) < len(ranks):
            self.order += [
                r
                for r in ranks
                if r not in self.order and (self.prev[r] == 0 or self.prev[r] in self.order)
            ]
        self.memo: dict[tuple[int, ...], int] = {}

    def places(self, stack: tuple[int, ...], parked: tuple[int, ...]) -> int:
        own_up = list(self.own)
        for rank in (*stack, *parked):
            own_up[rank] -= 1
        key = tuple(own_up)
        known = self.memo.get(key)
        if known is not None:
            return known
        # The most cards of each rank the piles could hold: all that are not
        # on the column, up to as many as the rank below could hold.
        prev, on, free = self.prev, self.on, self.free
        most = [0] * 14
        other_up = [0] * 14
        for rank in self.order:
            most[rank] = on[rank] + own_up[rank] + free[rank]
            if prev[rank]:
                most[rank] = min(most[rank], most[prev[rank]])
            other_up[rank] = most[rank] - on[rank] - own_up[rank]
        room = next(size for size, needs in self.sets if all(other_up[r] >= n for r, n in needs))
        self.memo[key] = room
        return room


def _counts(ranks: Sequence[int]) -> list[int]:
    count = [0] * 14
    for rank in ranks:
        count[rank] += 1
    return count


def _without(cards: tuple[int, ...], rank: int) -> tuple[int, ...]:
    i = cards.index(rank)
    return cards[:i] + cards[i + 1 :]
