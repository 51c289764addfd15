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
Where no single column is blocked, two columns kept exact together may be
(Intrigue 6913: columns 1 and 2), when one waits for cards buried in the other.
Faerie Queen, whose cards build down on one another, is not covered.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from intrigue.cards import RANK_OF, SUIT_OF
from intrigue.position import Position
from intrigue.solver.rules import (
    N_TYPES,
    OPEN_ANY,
    OPEN_PER_BASE_SUIT,
    Tables,
    pile_counts,
    tables_for,
)

try:
    from intrigue.solver import _relaxed
except ImportError:  # installed without a C compiler: the same game runs in Python
    NATIVE = False
else:
    NATIVE = True
"""Whether the compiled relaxed game (``_relaxed.c``, the same as :meth:`RelaxedGame.clears`) is built."""

COLUMN_TEST_STATES = 50_000_000 if NATIVE else 1_000_000
"""Default limit on the relaxed states the test visits, over all columns.  The
compiled game keeps about 60 bytes a state (3 GB at this limit); a monster
column needs millions (Intrigue 3661: 20 million)."""

TOGETHER = 4
"""The most columns a relaxed game keeps exact together (``_relaxed.c``'s MAXCHOSEN)."""

COLUMN_TEST_SHARE = 2 if NATIVE else 16
"""``solve`` gives the test ``max_nodes // COLUMN_TEST_SHARE`` states: a compiled
state costs about what a position does, a Python one some 30 times more."""

RELAXED_VERSION = 1
"""The version of the relaxed games' rules: raise it with any change to what
a game visits, so that games kept by an earlier one
(``intrigue stats --column-only --checkpoint``) are played again."""

GLANCE_SHARE = 50
""":func:`column_test` first gives every game ``max_states // GLANCE_SHARE`` states."""


_State = tuple[int, tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]
# (cards of the chosen columns dealt so far, their stacks, the parked cards,
#  cards on the piles per type, free cards per type)
# Cards are the solver's types (intrigue.solver.rules): their ranks, except
# Glencoe's Fives and Sixes, which keep their suit; ``on`` counts those both by
# type and under their rank.


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
    bases_by_suit: tuple[int, ...]
    """Bases of each suit dealt while the cards still to come onto it are dealt."""


def blocked_column(
    position: Position,
    *,
    max_states: int = COLUMN_TEST_STATES,
    deadline: float | None = None,
    native: bool = True,
) -> tuple[int, ...] | None:
    """Columns (one, or up to ``TOGETHER`` kept together) whose cards can
    never all reach the piles, if the test finds them.

    The 1-based numbers count the open columns first, then those that bases
    still in the stock will open.  ``None`` means no proof (every column and
    set of columns can be cleared in the relaxed game, or ``max_states`` or ``deadline``,
    a :func:`time.monotonic` value, cut the test short); it never means "won".
    ``native=False`` plays the relaxed games in Python even where the compiled
    ones are built (the two visit the same states).
    """
    return column_test(
        *as_types(position), max_states=max_states, deadline=deadline, native=native
    )[0]


Play = tuple[tuple[int, ...], bool, int]
"""One play of a relaxed game in :func:`blocked_column_each`: (its columns,
whether by suit, the states it was given)."""


def blocked_column_each(
    position: Position,
    states_each: int,
    *,
    deadline: float | None = None,
    on_game: Callable[[int], None] | None = None,
    known: Mapping[Play, tuple[bool | None, int]] | None = None,
    on_played: Callable[[Play, bool | None, int], None] | None = None,
) -> tuple[tuple[int, ...] | None, int]:
    """The column test with a budget for each relaxed game rather than one for
    all: what ``intrigue stats --column-only`` runs.

    Every game (each column, then each set of up to ``TOGETHER`` kept
    together, as :func:`relaxed_games` lists them) first gets a glance of
    ``states_each // GLANCE_SHARE`` states; those left undecided then get
    ``states_each`` each, in the same order, until one is blocked.  So a deep
    proof that :func:`blocked_column`'s shared budget never reaches (a game
    that needs 50 million states, say, behind a hundred cheap ones) is
    found, at the price of time: the states in all are not bounded.  Returns
    the blocked columns (``None`` for no proof) and the states visited.
    ``on_game(states)`` hears the states visited so far after each game.

    A long run can be taken up again where it stopped: ``on_played(play,
    cleared, states)`` hears each play that ended in a verdict or used its
    whole budget (not one cut short by ``deadline`` or the memory), and a run
    given those as ``known`` (``play -> (cleared, states)``) replays none of
    them; nor any game that ``known`` says cleared under another budget (a
    game that clears, clears).  A blocked play is never taken as known: it is
    the proof, and is played again.  The states ``known`` plays visited count
    as visited, so a run taken up again reports what one run would have.
    """
    games = list(relaxed_games(*as_types(position), together=TOGETHER))
    glance = max(1, states_each // GLANCE_SHARE)
    undecided: list[tuple[tuple[int, ...], RelaxedGame]] = []
    cleared_by_suit: set[tuple[int, ...]] = set()
    visited = 0

    reused = known or {}
    cleared_once = {
        (numbers, by_suit): used
        for (numbers, by_suit, _), (cleared, used) in reused.items()
        if cleared
    }

    def play(numbers: tuple[int, ...], relaxed: RelaxedGame, budget: int) -> bool | None:
        nonlocal visited
        key = (numbers, relaxed.by_suit, budget)
        cleared: bool | None
        if key in reused and reused[key][0] is not False:
            cleared, used = reused[key]
        elif (numbers, relaxed.by_suit) in cleared_once:
            cleared, used = True, cleared_once[numbers, relaxed.by_suit]
        else:
            cleared, used = relaxed.clears(budget, deadline)
            if on_played is not None and (cleared is not None or used >= budget):
                on_played(key, cleared, used)
        visited += used
        if on_game is not None:
            on_game(visited)
        if cleared and relaxed.by_suit:
            cleared_by_suit.add(numbers)
        return cleared

    def late() -> bool:
        return deadline is not None and time.monotonic() > deadline

    for numbers, relaxed in games:
        if late():
            return None, visited
        cleared = play(numbers, relaxed, glance)
        if cleared is False:
            return numbers, visited
        if cleared is None and glance < states_each:
            undecided.append((numbers, relaxed))
    for numbers, relaxed in undecided:
        if late():
            return None, visited
        if not relaxed.by_suit and numbers in cleared_by_suit:
            continue  # every line by suit is a line by the count rule (column_test)
        if play(numbers, relaxed, states_each) is False:
            return numbers, visited
    return None, visited


def as_types(
    position: Position,
) -> tuple[Tables, list[list[int]], list[int], list[int], list[int]]:
    """The arguments of :func:`column_test` and :func:`relaxed_games` for ``position``."""
    tables = tables_for(position.variant)
    type_of = tables.type_of
    bases = [column[0] for column in position.columns]
    bases += [c for c in position.stock if RANK_OF[c] == tables.base_rank]
    return (
        tables,
        [[type_of[c] for c in column[1:]] for column in position.columns],
        pile_counts(tables, position.piles),
        [type_of[c] for c in position.stock],
        [SUIT_OF[c] for c in bases],
    )


def column_test(
    tables: Tables,
    columns: Sequence[Sequence[int]],
    on: Sequence[int],
    stock: Sequence[int],
    base_suits: Sequence[int],
    *,
    max_states: int = COLUMN_TEST_STATES,
    deadline: float | None = None,
    native: bool = True,
) -> tuple[tuple[int, ...] | None, int]:
    """What :func:`blocked_column` proves, and the relaxed states it visited, for a
    position given as the solver's card types
    (:mod:`intrigue.solver.rules`): each open column above its base, the cards
    on the piles per type (and under their rank), the stock, next card first,
    and the suit of every base, dealt or to come, in deal order.  The games
    first get ``max_states // GLANCE_SHARE`` states each, until half are spent;
    those left undecided then get at most half of ``max_states`` each, and no
    more than are left.  So a game left undecided had the rest of half the
    states or more: a test that spends less than half clears every game it
    meets, and more states cannot change its answer (the frontier proof counts
    on this to retest only the tests that ran out)."""
    left = max_states
    # First a glance: every game, in order, within a fiftieth of the states,
    # until half of them are spent.  Then the games the glance left undecided,
    # in the same order, each within half of the states, and no more than are
    # left: a monster column (Intrigue 3661: 20 million) still gets its half,
    # and a cheap proof behind many dear games (Glencoe 5224: the 186th game)
    # is not starved by them (docs/solver.md, "Where solve uses it").
    glance = max(1, max_states // GLANCE_SHARE)
    undecided: list[tuple[tuple[int, ...], RelaxedGame]] = []
    cleared_by_suit: set[tuple[int, ...]] = set()
    games = relaxed_games(tables, columns, on, stock, base_suits, together=TOGETHER)
    for numbers, relaxed in games:
        if left <= max_states // 2:
            undecided.append((numbers, relaxed))
            continue
        cleared, used = relaxed.clears(min(glance, left), deadline, native)
        left -= used
        if cleared is False:
            return numbers, max_states - left
        if cleared is None:
            undecided.append((numbers, relaxed))
        elif relaxed.by_suit:
            cleared_by_suit.add(numbers)
        if deadline is not None and time.monotonic() > deadline:
            return None, max_states - left
    for numbers, relaxed in undecided:
        if left <= 0 or (deadline is not None and time.monotonic() > deadline):
            return None, max_states - left
        if not relaxed.by_suit and numbers in cleared_by_suit:
            # Every line by suit is a line by the count rule, so the count
            # rule's game cannot be blocked where the one by suit cleared.
            continue
        cleared, used = relaxed.clears(max(1, min(left, max_states // 2)), deadline, native)
        left -= used
        if cleared is False:
            return numbers, max_states - left
    return None, max_states - left


def relaxed_games(
    tables: Tables,
    columns: Sequence[Sequence[int]],
    on: Sequence[int],
    stock: Sequence[int],
    base_suits: Sequence[int],
    *,
    together: int = 1,
) -> Iterator[tuple[tuple[int, ...], RelaxedGame]]:
    """The relaxed games (arguments as for :func:`column_test`) of each column,
    largest first, then of each set of up to ``together`` columns, in the order
    of their numbers ((1, 2), (1, 3), ...), with the columns' numbers; none
    where cards build down.  In Glencoe each set is played by the count rule,
    then by suit."""
    if tables.build_down:
        return
    # What every relaxed game starts from: the cards per type that are not on
    # the piles yet (its own, and the free ones), and the bases in all.
    prev = _prev_of_types(tables)
    loose = [0] * N_TYPES
    for card in (*(t for col in columns for t in col), *stock):
        if prev[card] >= 0:
            loose[card] += 1
    bases = len(columns) + sum(1 for t in stock if t == tables.base_rank)
    if len(base_suits) != bases:
        raise ValueError(f"{len(base_suits)} base suits for {bases} bases")
    layout = _columns_of(tables, columns, stock, base_suits)
    chosen = sorted(
        (c for c in layout if c.stack or c.deal), key=lambda c: -len(c.stack) - len(c.deal)
    )
    largest = min(together, TOGETHER)
    for size in range(1, largest + 1):
        # Sets of the first columns first: those fill while the fewest piles
        # may open, and every set that has blocked a deal so far holds column 1.
        sets: Iterable[tuple[_Column, ...]] = combinations(chosen, size)
        if size > 1:
            sets = sorted(sets, key=lambda kept: sorted(c.number for c in kept))
        for kept in sets:
            others = [c for c in layout if c not in kept]
            game = RelaxedGame(tables, loose, bases, on, kept, others)
            yield game.numbers, game
            if tables.open_rule == OPEN_PER_BASE_SUIT:
                # Glencoe's openers by suit as well: narrower, but a free
                # opener of each suit is a line of its own, so it costs more.
                game = RelaxedGame(tables, loose, bases, on, kept, others, by_suit=True)
                yield game.numbers, game


def _prev_of_types(tables: Tables) -> tuple[int, ...]:
    # Glencoe's suited Fives and Sixes open piles, as their ranks do.
    return (*tables.prev, *(0 for _ in range(14, N_TYPES)))


def _columns_of(
    tables: Tables,
    columns: Sequence[Sequence[int]],
    stock: Sequence[int],
    base_suits: Sequence[int],
) -> list[_Column]:
    prev = _prev_of_types(tables)
    # The stock in segments: what goes onto the newest column, then one per base.
    segments: list[list[int]] = [[]]
    for card in stock:
        if card == tables.base_rank:
            segments.append([])
        elif prev[card] >= 0:
            segments[-1].append(card)
    opened = len(columns)

    def by_suit(bases: int) -> tuple[int, ...]:
        return tuple(base_suits[:bases].count(suit) for suit in range(4))

    out = []
    for i, cards in enumerate(columns):
        newest = i == opened - 1
        deal = tuple(segments[0]) if newest else ()
        later = tuple(t for seg in segments[1:] for t in seg) if deal else ()
        out.append(_Column(i + 1, opened, tuple(cards), deal, later, by_suit(opened)))
    for j, seg in enumerate(segments[1:], start=1):
        later = tuple(t for s in segments[j + 1 :] for t in s) if seg else ()
        out.append(_Column(opened + j, opened + j, (), tuple(seg), later, by_suit(opened + j)))
    return out


class RelaxedGame:
    """The relaxed game of one column, or of up to four kept exact together
    (piles as counts per rank, as in :mod:`intrigue.solver.rules`, and in
    Glencoe per suited opener too).

    With more than one column every other card is still free; the chosen
    columns' cards arrive in deal order, each on its own column, and all must be
    cleared.  Every real line is still a relaxed line (docs/solver.md, "Two
    columns"), and the game can see what one column cannot: a column whose
    cards wait for cards buried in another.  In Salic Law a card may also move
    onto an emptied chosen column, where the cards dealt onto it later cover it.
    """

    def __init__(
        self,
        tables: Tables,
        loose: Sequence[int],
        bases: int,
        on: Sequence[int],
        chosen: Sequence[_Column],
        others: Sequence[_Column] = (),
        *,
        by_suit: bool = False,
    ) -> None:
        chosen = sorted(chosen, key=lambda c: c.number)  # in deal order
        if not 1 <= len(chosen) <= TOGETHER:
            raise ValueError(f"a relaxed game keeps one to {TOGETHER} columns")
        if by_suit and tables.open_rule != OPEN_PER_BASE_SUIT:
            raise ValueError("only Glencoe opens piles by suit")
        self.numbers = tuple(c.number for c in chosen)
        self.by_suit = by_suit
        self.prev = _prev_of_types(tables)
        self.rank_of = ranks = tables.rank_of_type
        self.slots = tuple(tables.slots[rank] for rank in ranks)
        # Glencoe ``by_suit``: a Five or Six of suit s opens a pile only above
        # a Queen of suit s, one of each kind per Queen (the count rule is then
        # implied).  Otherwise (and elsewhere) the count rule, which every
        # Glencoe line keeps too (docs/solver.md, "Narrower games"), and the
        # cards are their ranks.
        card = (lambda t: t) if by_suit else (lambda t: ranks[t])
        self.stacks = tuple(tuple(card(t) for t in c.stack) for c in chosen)
        self.deal = tuple(card(t) for c in chosen for t in c.deal)
        self.deal_columns = tuple(i for i, c in enumerate(chosen) for _ in c.deal)
        # The cards dealt after the last card of the chosen columns are free
        # only once it is dealt; those dealt between them, at once.
        dealers = [c for c in chosen if c.deal]
        later = [card(t) for t in (dealers[-1].later if dealers else ())]
        free = [0] * N_TYPES
        for t, n in enumerate(loose):
            free[card(t)] += n
        for t in (*(t for c in chosen for t in (*c.stack, *c.deal)), *later):
            free[card(t)] -= 1
        self.free = tuple(free)
        self.later = _counts(later, N_TYPES)
        self.on = tuple(on) if by_suit else (*on[:14], *(0 for _ in range(14, N_TYPES)))
        bounded = tables.open_rule != OPEN_ANY
        self.deal_bases_by_suit = tuple(c.bases_by_suit for c in chosen for _ in c.deal if by_suit)
        last = max((*chosen, *others), key=lambda c: c.number)
        self.after_bases_by_suit = last.bases_by_suit if by_suit else ()
        self.suit_of = tables.suit_of_type
        # (most piles of a kind open, parking places) while each card comes onto
        # its column, and after: a card waits on a vacant column, alone, and
        # while a column has cards it is not vacant.
        # Salic Law: the places are the other columns open, each holding at
        # most one of the chosen columns' cards (a card moves only onto a
        # vacant column); an emptied chosen column is a move of its own, as a
        # card put there is covered by the cards dealt onto it later.
        self.deal_limits = tuple(
            (c.bases if bounded else 99, c.bases - i - 1 if tables.vacant_any_time else 0)
            for i, c in enumerate(chosen)
            for _ in c.deal
        )
        self.after_limits = (
            bases if bounded else 99,
            bases - len(chosen) if tables.vacant_any_time else max(0, bases - 1),
        )
        self.parking_back = tables.vacant_any_time
        # When each chosen column is open: from its first card's deal on (a
        # column still to open counts as open from just before its base).
        self.opens_at = tuple(
            next((j for j, i in enumerate(self.deal_columns) if i == c), 0)
            for c in range(len(chosen))
        )
        # Where vacant columns wait for the pack, each other column only ever
        # holds cards of its own or one moved card, so it is vacant only once
        # its own cards are all up (docs/solver.md, "Room to park").
        # What the room is reckoned from (here and in the compiled game): the
        # piles at the start, the chosen columns' own cards and each other
        # column's, per rank.
        own = (*(t for c in chosen for t in c.stack), *self.deal)
        self.room_counts = (
            None
            if tables.vacant_any_time
            else [list(on[:14]), _counts([ranks[t] for t in own], 14)]
            + [_counts([ranks[t] for t in (*o.stack, *o.deal)], 14) for o in others]
        )
        self.room: _Room | None = None  # built when first needed: most tests never park

    def _up(
        self,
        on: tuple[int, ...],
        free: tuple[int, ...],
        card: int,
        limits: tuple[int, tuple[int, ...]],
        direct: bool,
    ) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
        """Each (on, free) after ``card`` goes up onto the highest pile at or
        below its step, raised to it with free cards first unless ``direct``:
        none if it cannot, more than one where Glencoe's free opener may be of
        more than one suit.  ``limits``: piles of a kind that may be open
        (the count rule) and the bases dealt of each suit (Glencoe).

        Raising the highest such pile is never worse than a lower one: that
        spends a subset of the free cards (docs/solver.md, "The column test").
        """
        prev, ranks = self.prev, self.rank_of
        path = []
        opener = None
        q = card
        while True:
            p = prev[q]
            if p == 0:
                opener = q  # q opens a pile
                break
            if on[p] > on[q]:
                break  # a pile waits for q
            if direct:
                return []
            path.append(p)
            q = p
        spends = [path]
        if opener is not None:
            if opener == card or not limits[1]:
                spends = spends if self._opens(on, opener, limits) else []
            else:  # a free Five or Six of any suit that may open
                spends = [
                    [*path[:-1], t]
                    for t in range(14, N_TYPES)
                    if ranks[t] == opener and self._opens(on, t, limits)
                ]
        out = []
        for spend in spends:
            new_on = list(on)
            new_free = list(free)
            for t in (*spend, card):
                new_on[t] += 1
                if ranks[t] != t:
                    new_on[ranks[t]] += 1
            for t in spend:
                new_free[t] -= 1
            if min(new_free) >= 0:
                out.append((tuple(new_on), tuple(new_free)))
        return out

    def _opens(self, on: tuple[int, ...], card: int, limits: tuple[int, tuple[int, ...]]) -> bool:
        """Whether ``card``, an opener, may open a pile now."""
        rank = self.rank_of[card]
        opened, by_suit = limits
        if by_suit:
            return on[rank] < self.slots[rank] and on[card] < by_suit[self.suit_of[card]]
        return on[rank] < min(opened, self.slots[rank])

    def clears(
        self, max_states: int, deadline: float | None = None, native: bool = True
    ) -> tuple[bool | None, int]:
        """(whether the columns' cards can all go up, states visited); None if
        ``max_states`` or ``deadline`` cut it short, or (compiled) the memory
        left (``_memory.h``).  The compiled game
        (``_relaxed.c``) plays it where it is built, unless ``native`` is
        False: this method is its specification, state for state."""
        if native and NATIVE:
            return _relaxed.clears(self, max_states, deadline)
        deal, n = self.deal, len(self.deal)
        up = self._up
        ranks = self.rank_of
        deal_by_suit = self.deal_bases_by_suit
        seen: set[_State] = set()
        todo: list[_State] = [(0, self.stacks, (), self.on, self.free)]
        while todo:
            state = todo.pop()
            dealt, stacks, parked, on, free = state
            after = dealt >= n
            if after and not parked and not any(stacks):
                return True, len(seen)
            if state in seen:
                continue
            seen.add(state)
            if len(seen) >= max_states or (
                deadline is not None and not len(seen) % 4096 and time.monotonic() > deadline
            ):
                return None, len(seen)
            opened, places = self.after_limits if after else self.deal_limits[dealt]
            by_suit = self.after_bases_by_suit if after or not deal_by_suit else deal_by_suit[dealt]
            limits = (opened, by_suit)
            if after and any(stacks) and self.room_counts is not None:
                if self.room is None:
                    self.room = _Room(self.prev, self.room_counts)
                room = self.room.places(
                    tuple(ranks[t] for s in stacks for t in s), tuple(ranks[t] for t in parked)
                )
                room += sum(1 for s in stacks if not s)  # an emptied chosen column
                if len(parked) > room:
                    continue  # more cards parked than columns that can be vacant
                places = min(places, room)
            # A parked card that a pile wants goes up at once (docs/solver.md);
            # while cards still come, a pile opened early could stand in the way
            # of another under the count rule, so openers are left to choose.
            # Not while cards still come where a parked card can go back onto
            # an emptied chosen column and be covered there (Salic Law).
            forced = None
            for rank in parked:
                if after or (self.prev[rank] and not self.parking_back):
                    direct = up(on, free, rank, limits, True)
                    if direct:
                        forced = (dealt, stacks, _without(parked, rank), *direct[0])
                        break
            if forced is not None:
                todo.append(forced)
                continue
            successors: list[_State] = []
            for i, stack in enumerate(stacks):
                if stack:
                    for pile_on, pile_free in up(on, free, stack[-1], limits, False):
                        successors.append((dealt, _popped(stacks, i), parked, pile_on, pile_free))
            for rank in sorted(set(parked)):
                for pile_on, pile_free in up(on, free, rank, limits, False):
                    successors.append((dealt, stacks, _without(parked, rank), pile_on, pile_free))
            if len(parked) < places:
                for i, stack in enumerate(stacks):
                    if stack:
                        parks = tuple(sorted((*parked, stack[-1])))
                        successors.append((dealt, _popped(stacks, i), parks, on, free))
            if not after:
                more = free if dealt + 1 < n else self._add_later(free)
                i = self.deal_columns[dealt]
                dealt_onto = (*stacks[:i], (*stacks[i], deal[dealt]), *stacks[i + 1 :])
                successors.append((dealt + 1, dealt_onto, parked, on, more))
            if self.parking_back:
                # A card may go onto an emptied chosen column that is open
                # (Salic Law): a parked one (once the cards are all dealt,
                # only where another chosen column could use the place), or
                # another chosen column's top.
                for j, stack in enumerate(stacks):
                    if stack or dealt < self.opens_at[j]:
                        continue
                    if not after or len(stacks) > 1:
                        for rank in sorted(set(parked)):
                            onto = (*stacks[:j], (rank,), *stacks[j + 1 :])
                            successors.append((dealt, onto, _without(parked, rank), on, free))
                    for i, top in enumerate(stacks):
                        if top and i != j:
                            moved = list(_popped(stacks, i))
                            moved[j] = (top[-1],)
                            successors.append((dealt, tuple(moved), parked, on, free))
            todo.extend(reversed(successors))
        return False, len(seen)

    def _add_later(self, free: Sequence[int]) -> tuple[int, ...]:
        return tuple(a + b for a, b in zip(free, self.later, strict=True))


class _Room:
    """How many other columns can be vacant once the column's cards are all
    dealt: at most as many as there are other columns whose own cards can all
    be up together, given which of the column's cards are up (docs/solver.md,
    "Room to park")."""

    def __init__(self, prev: Sequence[int], room_counts: Sequence[Sequence[int]]) -> None:
        # room_counts: RelaxedGame.room_counts (piles, the chosen columns, each other).
        self.prev = prev
        on, own, *counts = room_counts
        self.on = tuple(on)
        self.own = list(own)
        self.free = [sum(count[rank] for count in counts) for rank in range(14)]
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


def _counts(cards: Sequence[int], size: int) -> list[int]:
    count = [0] * size
    for card in cards:
        count[card] += 1
    return count


def _popped(stacks: tuple[tuple[int, ...], ...], i: int) -> tuple[tuple[int, ...], ...]:
    return (*stacks[:i], stacks[i][:-1], *stacks[i + 1 :])


def _without(cards: tuple[int, ...], rank: int) -> tuple[int, ...]:
    i = cards.index(rank)
    return cards[:i] + cards[i + 1 :]
