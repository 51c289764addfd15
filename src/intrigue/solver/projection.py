"""The rank projection: a loss proof that keeps every column and forgets ranks.

The column test (:mod:`intrigue.solver.relaxation`) keeps a few columns exact
and frees every other card; it cannot see a deal that dies of the order
*across* many columns.  This proof does the opposite: it keeps **every**
column exact, but only the cards of a chosen set of ranks -- one pile kind's
whole staircase, say the Fives, Fours, Threes, Twos, Aces and Kings.  A card of
another rank *vanishes*: it covers nothing and needs no pile.  A kept rank
whose rank below is not kept goes up whenever it is on top.  Everything else
is the real game: the kept cards arrive in deal order on the newest column,
only a top card moves, piles of the kept ranks keep their counts and their
opening rule, and a card waits on a vacant column only when the game allows it.

Every line of the real game is a line of this *projected* one (its moves of
kept cards are projected moves, everything else is nothing), so if the
projected game cannot bring all kept cards up, the position is lost
(docs/solver.md, "The rank projection").  Intrigue 6812 dies so: its Fives'
staircase cannot be completed, whichever way the deal is played, though every
column, and every set of up to four, clears in the column test.

The projected game is searched depth first over (kept cards dealt, the stacks
of kept cards), the piles following from them, with the solver's proved safe
move (a card whose rank the piles can all take goes up at once) and the
columns other than the newest taken as a sorted multiset.  It covers the games
with two pile kinds and no building down (Intrigue, Laggard Lady, Glencoe).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence

from intrigue.position import Position
from intrigue.solver.relaxation import as_types
from intrigue.solver.rules import N_TYPES, OPEN_ANY, OPEN_PER_BASE, OPEN_PER_BASE_SUIT, Tables

try:
    from intrigue.solver import _projected
except ImportError:  # installed without a C compiler: the same game runs in Python
    NATIVE = False
else:
    NATIVE = True
"""Whether the compiled projected game (``_projected.c``, the same as :meth:`ProjectedGame.clears`) is built."""

PROJECTION_STATES = 20_000_000 if NATIVE else 2_000_000
"""Default limit on the projected states the proof visits, over all its games.
A compiled state costs about a microsecond and 100 bytes (2 GB at this limit), a
Python one some 30 microseconds and 400 bytes."""

PROJECTION_SHARE = 4 if NATIVE else 64
"""``solve`` gives the proof ``max_nodes // PROJECTION_SHARE`` states.  It runs
only where the search has not decided, and a won deal's projected games clear
at once (Glencoe's first 300 published manual wins: 189 states at the median,
10 122 at the 99th percentile, 49 576 at most)."""

_BASE = -1
_Stacks = tuple[tuple[int, ...], ...]


def kept_rank_sets(tables: Tables) -> list[tuple[int, ...]]:
    """The sets of ranks the proof keeps: every pile kind's staircase, where the
    game has two kinds and no building down (with a single kind, as in Salic
    Law, keeping it whole is the real game)."""
    kinds = tables.variant.pile_kinds
    if tables.build_down or len(kinds) < 2:
        return []
    return [tuple(int(rank) for rank in kind.staircase) for kind in kinds]


def opening_rules(tables: Tables) -> list[int]:
    """The opening rules the proof plays a game by, the widest first: Intrigue's
    (any free slot), then Laggard Lady's count rule, then Glencoe's by suit, up
    to the game's own.  Every Glencoe line is a Laggard Lady line and every
    Laggard Lady line an Intrigue line, so a wider rule's game blocked is a
    proof too, and a cheap one: under it every opener goes up at once."""
    widths = (OPEN_ANY, OPEN_PER_BASE, OPEN_PER_BASE_SUIT)
    return list(widths[: widths.index(tables.open_rule) + 1])


def blocked_ranks(
    position: Position,
    *,
    max_states: int = PROJECTION_STATES,
    deadline: float | None = None,
    native: bool = True,
) -> tuple[int, ...] | None:
    """The ranks (a pile kind's staircase) whose cards can never all reach the
    piles, if the projection finds them; ``None`` is no proof, never "won".
    ``native=False`` plays the projected games in Python even where the
    compiled ones are built (the two visit the same states)."""
    return projection_test(
        *as_types(position), max_states=max_states, deadline=deadline, native=native
    )[0]


def projection_test(
    tables: Tables,
    columns: Sequence[Sequence[int]],
    on: Sequence[int],
    stock: Sequence[int],
    base_suits: Sequence[int],
    *,
    max_states: int = PROJECTION_STATES,
    deadline: float | None = None,
    native: bool = True,
) -> tuple[tuple[int, ...] | None, int]:
    """What :func:`blocked_ranks` proves, and the states it visited, for a
    position given as :func:`intrigue.solver.relaxation.column_test` takes it.
    Each game (a kept set under an opening rule, widest rule first) first gets
    its part of half of ``max_states``, then the undecided ones share what is left."""
    games = [
        ProjectedGame(tables, columns, on, stock, base_suits, kept, rule)
        for rule in opening_rules(tables)
        for kept in kept_rank_sets(tables)
    ]
    left = max_states
    undecided = []
    first = max(1, max_states // (2 * max(1, len(games))))
    for game in games:
        cleared, used = game.clears(max(1, min(first, left)), deadline, native)
        left -= used
        if cleared is False:
            return game.kept, max_states - left
        if cleared is None:
            undecided.append(game)
    for n, game in enumerate(undecided):
        if left <= 0:
            break
        cleared, used = game.clears(max(1, left // (len(undecided) - n)), deadline, native)
        left -= used
        if cleared is False:
            return game.kept, max_states - left
    return None, max_states - left


class ProjectedGame:
    """The game of one set of kept ranks (piles as counts per type, as in
    :mod:`intrigue.solver.rules`)."""

    def __init__(
        self,
        tables: Tables,
        columns: Sequence[Sequence[int]],
        on: Sequence[int],
        stock: Sequence[int],
        base_suits: Sequence[int],
        kept: Sequence[int],
        open_rule: int | None = None,
    ) -> None:
        self.tables = tables
        self.kept = tuple(kept)
        self.open_rule = tables.open_rule if open_rule is None else open_rule
        """The rule openers follow: the game's own, or a wider one (:func:`opening_rules`)."""
        rank_of = tables.rank_of_type
        keep = [rank_of[t] in self.kept for t in range(N_TYPES)]
        self.stacks: _Stacks = tuple(tuple(t for t in col if keep[t]) for col in columns)
        # The stock as events: a base opens a column, a kept card comes;
        # the other cards vanish (Salic Law's discarded Queens too).
        self.events = tuple(
            _BASE if t == tables.base_rank else t
            for t in stock
            if t == tables.base_rank or (t != tables.discard_rank and keep[t])
        )
        dealt = len(columns)
        self.bases = [dealt]
        for event in self.events:
            dealt += event == _BASE
            self.bases.append(dealt)
        self.suit_bases = [
            tuple(base_suits[:count].count(suit) for suit in range(4)) for count in self.bases
        ]
        self.start_on = tuple(on)
        self.on = list(on)
        total = list(on)
        for t in (*(t for col in self.stacks for t in col), *self.events):
            if t != _BASE:
                total[t] += 1
                if rank_of[t] != t:
                    total[rank_of[t]] += 1
        self.total = total

    def clears(
        self, max_states: int, deadline: float | None = None, native: bool = True
    ) -> tuple[bool | None, int]:
        """Whether every kept card can reach the piles: True, False (the
        position is lost), or None when ``max_states``, ``deadline`` or
        (compiled) the memory left (``_memory.h``) cut the search short; and the
        states visited.  The compiled game (``_projected.c``) plays it where it
        is built, unless ``native`` is False: this method is its specification,
        state for state."""
        if native and NATIVE:
            return _projected.clears(self, max_states, deadline)
        seen: set[tuple[int, _Stacks]] = set()
        self.on = list(self.start_on)
        # Depth first with an explicit stack of move iterators; each entry
        # holds what to undo when it is left.  A state is marked seen on
        # entry, so the search covers every reachable state exactly once, and
        # "cannot clear" is exact even where a state's own search is cut short
        # by one on the path (docs/solver.md, "The rank projection").
        root = self._enter(0, self.stacks)
        if root is None:
            return True, 0
        seen.add(self._key(*root[:2]))
        path: list[tuple[Iterator[tuple[int, _Stacks, int]], list[int]]] = [
            (self._moves(root[0], root[1]), root[2])
        ]
        states = 1
        while path:
            moves, undo = path[-1]
            step = next(moves, None)
            if step is None:
                path.pop()
                for t in undo:
                    self._take(t, -1)
                continue
            i, stacks, up = step
            if up >= 0:
                self._take(up, 1)
            entered = self._enter(i, stacks)
            if entered is None:
                return True, states
            i, stacks, more = entered
            key = self._key(i, stacks)
            if key in seen:
                for t in more:
                    self._take(t, -1)
                if up >= 0:
                    self._take(up, -1)
                continue
            seen.add(key)
            states += 1
            if states >= max_states or (
                deadline is not None and states % 4096 == 0 and time.monotonic() > deadline
            ):
                return None, states
            path.append((self._moves(i, stacks), [*more, *([up] if up >= 0 else [])]))
        return False, states

    def _take(self, t: int, sign: int) -> None:
        self.on[t] += sign
        rank = self.tables.rank_of_type[t]
        if rank != t:
            self.on[rank] += sign

    def _key(self, i: int, stacks: _Stacks) -> tuple[int, _Stacks]:
        # Columns other than the newest are alike (docs/solver.md,
        # "Equivalences"); once every event is dealt, all are.
        if i == len(self.events):
            return i, tuple(sorted(stacks))
        return i, (*sorted(stacks[:-1]), stacks[-1])

    def _can_go_up(self, t: int, i: int) -> bool:
        tables, on = self.tables, self.on
        rank = tables.rank_of_type[t]
        below = tables.prev[rank]
        if below == 0:
            if self.open_rule == OPEN_ANY:
                return on[rank] < tables.slots[rank]
            if self.open_rule == OPEN_PER_BASE:
                return on[rank] < self.bases[i]
            return on[t] < self.suit_bases[i][tables.suit_of_type[t]]
        return below not in self.kept or on[rank] < on[below]

    def _is_safe(self, t: int, i: int) -> bool:
        # docs/solver.md, "Safe moves": the piles can take every card of its
        # type still off them, now and whatever happens next.
        tables, on, total = self.tables, self.on, self.total
        rank = tables.rank_of_type[t]
        below = tables.prev[rank]
        if below == 0:
            if self.open_rule == OPEN_ANY:
                return tables.slots[rank] >= total[rank]
            if self.open_rule == OPEN_PER_BASE:
                return self.bases[i] >= total[rank]
            return self.suit_bases[i][tables.suit_of_type[t]] >= total[t]
        return below not in self.kept or on[below] >= total[rank]

    def _enter(self, i: int, stacks: _Stacks) -> tuple[int, _Stacks, list[int]] | None:
        """Play the safe moves; None if that clears the game, else the state
        and the types sent up (to undo)."""
        sent: list[int] = []
        changed = True
        while changed:
            changed = False
            for c, stack in enumerate(stacks):
                if stack and self._is_safe(stack[-1], i) and self._can_go_up(stack[-1], i):
                    self._take(stack[-1], 1)
                    sent.append(stack[-1])
                    stacks = (*stacks[:c], stack[:-1], *stacks[c + 1 :])
                    changed = True
        if i == len(self.events) and not any(stacks):
            for t in sent:
                self._take(t, -1)
            return None
        return i, stacks, sent

    def _moves(self, i: int, stacks: _Stacks) -> Iterator[tuple[int, _Stacks, int]]:
        """(events dealt, stacks, type sent up or -1) after each move."""
        here = self._key(i, stacks)
        tried = {here}
        for c, stack in enumerate(stacks):
            if stack and self._can_go_up(stack[-1], i):
                after = (*stacks[:c], stack[:-1], *stacks[c + 1 :])
                key = self._key(i, after)
                if key not in tried:
                    tried.add(key)
                    yield i, after, stack[-1]
        dealt = i == len(self.events)
        if dealt or self.tables.vacant_any_time:
            vacant = [c for c, stack in enumerate(stacks) if not stack]
            for c, stack in enumerate(stacks):
                if not stack:
                    continue
                for v in vacant:
                    if v == c:
                        continue
                    moved = list(stacks)
                    moved[v] = stack[-1:]
                    moved[c] = stack[:-1]
                    key = self._key(i, tuple(moved))
                    if key not in tried:
                        tried.add(key)
                        yield i, tuple(moved), -1
        if not dealt:
            event = self.events[i]
            if event == _BASE:
                yield i + 1, (*stacks, ()), -1
            else:
                yield i + 1, (*stacks[:-1], (*stacks[-1], event)), -1
