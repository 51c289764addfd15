"""The clearing test for a game whose vacant columns take a card at any time.

In Salic Law a card may leave its column for a vacant one while the pack is
still dealt, and if that column is the newest, the cards dealt next cover it.
So a card that has left its column is not always up, and
:mod:`intrigue.solver.order`'s times no longer tell where the cards are.
:class:`ParkingTimes` keeps two times per card (when it left its column, when
it went up) and what every line makes of them while cards are dealt: the
card parked in between lies at the foot of some column, one to a column,
either alone on a column whose own cards have all left or under cards dealt
onto it since.  :class:`ParkingClearingModel` adds a look at the moment each
card of one column leaves it, during the deal or after it; if no timing meets
every constraint, no line clears that column and the deal is lost.
``docs/solver.md``, "Clearing a column when vacant columns take cards during
the deal", gives the proof that every real line is a solution.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from intrigue.solver.moments import moments, piles_wait_in_turn, tops_leave_first
from intrigue.solver.order import (
    Deal,
    Moment,
    Timing,
    _cp_model,
    hold_times,
    only_tops_leave_during_deal,
    solve_model,
)
from intrigue.solver.rules import OPEN_PER_BASE

Literal = Any
"""A CP-SAT Boolean literal, or the constant 0 or 1."""


def _clause(model: Any, *literals: Literal) -> None:
    """At least one of ``literals`` holds; a constant 1 satisfies the clause
    and a constant 0 drops out, so callers may pass times that do not exist."""
    if any(isinstance(x, int) and x for x in literals):
        return
    model.AddBoolOr([x for x in literals if not isinstance(x, int)])


def _not(literal: Literal) -> Literal:
    return 1 - literal if isinstance(literal, int) else literal.Not()


class ParkingTimes:
    """The times of a manual deal whose vacant columns take cards while the
    pack is dealt (constraints P1 to P7 of ``docs/solver.md``; P7, the moves
    one at a time, only with ``one_at_a_time``).

    For every card ``i`` (its place in the deal order) and every count ``s``
    of cards dealt from its own deal to the pack less one, ``left[i, s]``: it
    has left its column; ``up[i, s]``: it is on a pile.  A card that has left
    but is not up is *parked*.  ``covered[i, k]``: card ``i`` lies parked and
    alone on the newest column as card ``k`` is dealt onto it.
    """

    def __init__(self, deal: Deal, *, one_at_a_time: bool = False) -> None:
        cp = _cp_model()
        self.deal = deal
        self.model = m = cp.CpModel()
        self.n = n = len(deal.order)
        self.last = n - 1
        tables = deal.tables
        self.cards = [i for i in range(n) if tables.prev[deal.rank(i)] >= 0]
        self.bases = [i for i in range(n) if deal.rank(i) == tables.base_rank]
        self.column_of = {i: j for j, column in enumerate(deal.columns) for i in column}
        self.left: dict[tuple[int, int], Any] = {}
        self.up: dict[tuple[int, int], Any] = {}
        for i in self.cards:
            before = None
            for s in range(i + 1, n):
                gone, up = m.NewBoolVar(f"left{i}@{s}"), m.NewBoolVar(f"up{i}@{s}")
                m.AddImplication(up, gone)
                if before is not None:
                    m.AddImplication(before[0], gone)  # what has left never comes back
                    m.AddImplication(before[1], up)  # and a pile never gives a card back
                before = gone, up
                self.left[i, s], self.up[i, s] = gone, up
        only_tops_leave_during_deal(m, deal, self.left)  # P1
        self.bare = self._bare()
        self.covered = self._covers()
        self.ever_covered_in = self._ever_covered_in()
        self.was_covered = self._was_covered()
        for s in range(1, self.last + 1):
            self._count(s)
        if one_at_a_time:
            self._one_at_a_time()

    # ------------------------------------------------------------- helpers

    def was_left(self, i: int, s: int) -> Literal:
        """Card ``i`` has left its column once ``s`` cards are dealt (0 before its deal)."""
        return self.left.get((i, s), 0)

    def went_up(self, i: int, s: int) -> Literal:
        return self.up.get((i, s), 0)

    def _columns_open(self, s: int) -> list[int]:
        return [j for j, b in enumerate(self.bases) if b < s]

    # --------------------------------------------------------- constraints

    def _bare(self) -> dict[tuple[int, int], Any]:
        """``bare[j, s]``: column ``j`` is dealt and every card dealt onto it
        by the count ``s`` has left it."""
        bare: dict[tuple[int, int], Any] = {}
        for s in range(1, self.n):
            for j in self._columns_open(s):
                v = self.model.NewBoolVar(f"bare{j}@{s}")
                for i in self.deal.columns[j]:
                    if i < s:
                        _clause(self.model, _not(v), self.was_left(i, s))
                bare[j, s] = v
        return bare

    def _covers(self) -> dict[tuple[int, int], Any]:
        """P2. A card covered as ``k`` is dealt is parked then, on ``k``'s
        column, which is bare; one card at most; it goes up only after ``k``
        has left; and it is covered again only after ``k`` has left."""
        m, covered = self.model, {}
        for k in self.cards:
            events = []
            for i in self.cards:
                if (i, k) not in self.left:
                    continue
                c = m.NewBoolVar(f"covered{i}by{k}")
                m.AddImplication(c, self.left[i, k])
                m.AddImplication(c, self.up[i, k].Not())
                m.AddImplication(c, self.bare[self.column_of[k], k])
                for s in range(k + 1, self.n):
                    m.AddBoolOr([c.Not(), self.up[i, s].Not(), self.left[k, s]])
                covered[i, k] = c
                events.append(c)
            m.Add(sum(events) <= 1)
        # a card lies under the card that covered it until that one leaves, so
        # to lie alone on the newest column again it waits for it to leave
        by_card: dict[int, list[int]] = {}
        for i, k in covered:
            by_card.setdefault(i, []).append(k)
        for i, coverers in by_card.items():
            coverers.sort()
            for a, k in enumerate(coverers):
                for later in coverers[a + 1 :]:
                    m.AddBoolOr([covered[i, k].Not(), covered[i, later].Not(), self.left[k, later]])
        return covered

    def _ever_covered_in(self) -> dict[tuple[int, int], Literal]:
        """``ever_covered_in[j, s]``: some card was covered on column ``j`` by
        a card dealt before the count ``s`` (may be true only then)."""
        m, result = self.model, {}
        by_card: dict[int, list[Any]] = {}
        for (_, k), c in self.covered.items():
            by_card.setdefault(k, []).append(c)
        for j, column in enumerate(self.deal.columns):
            before: Any = None
            for s in range(1, self.n + 1):
                reasons = [] if before is None else [before]
                if s - 1 in column:
                    reasons += by_card.get(s - 1, [])
                if not reasons:
                    result[j, s] = 0
                    continue
                v = m.NewBoolVar(f"coveredin{j}@{s}")
                m.AddBoolOr([v.Not(), *reasons])
                result[j, s] = before = v
        return result

    def _was_covered(self) -> dict[tuple[int, int], Any]:
        """``was_covered[i, s]``: card ``i`` was covered by a card dealt before
        the count ``s`` (may be true only then)."""
        m, result = self.model, {}
        for i in self.cards:
            before = None
            for s in range(i + 2, self.n + 1):
                v = m.NewBoolVar(f"wascovered{i}@{s}")
                reasons = [x for x in (before, self.covered.get((i, s - 1))) if x is not None]
                m.AddBoolOr([v.Not(), *reasons])
                result[i, s] = before = v
        return result

    def _count(self, s: int) -> None:
        """P3 to P6 once ``s`` cards are dealt: the piles, and where the parked cards lie."""
        m, deal = self.model, self.deal
        ups = {
            rank: sum(self.went_up(i, s) for i in self.cards if deal.rank(i) == rank)
            for rank in range(14)
        }
        open_now = self._columns_open(s)
        self._piles(lambda rank: ups[rank], len(open_now))
        parked = sum(self.was_left(i, s) - self.went_up(i, s) for i in self.cards)
        # P4. one parked card to a column, and none with a single column
        m.Add(parked <= (len(open_now) if len(open_now) > 1 else 0))
        # P5. each lies alone on a bare column or under a card dealt since it
        # parked (so it was parked a count ago, and covered), one to a column
        buried = []
        for i in self.cards:
            if (i, s - 1) in self.left:
                b = m.NewBoolVar(f"buried{i}@{s}")
                m.AddImplication(b, self.left[i, s - 1])
                m.AddImplication(b, self.up[i, s].Not())
                m.AddImplication(b, self.was_covered[i, s])
                buried.append(b)
        m.Add(parked <= sum(self.bare[j, s] for j in open_now) + sum(buried))
        holding = []
        for j in open_now:
            if isinstance(self.ever_covered_in[j, s], int):
                continue
            h = m.NewBoolVar(f"holds{j}@{s}")
            m.AddImplication(h, self.ever_covered_in[j, s])
            m.AddImplication(h, self.bare[j, s].Not())
            holding.append(h)
        m.Add(sum(buried) <= sum(holding))
        # P6. a card that parks as it leaves its column needs another, bare
        for j, column in enumerate(deal.columns):
            others = [self.bare[o, s] for o in open_now if o != j]
            for i in column:
                if (i, s) in self.left:
                    _clause(
                        m, _not(self.left[i, s]), self.was_left(i, s - 1), self.up[i, s], *others
                    )

    def _one_at_a_time(self) -> None:
        """P7. Moves are made one at a time: each card that leaves its column
        while cards are dealt gets a moment for that move, and one for the move
        that sends it up; each its count times a stride plus its place among
        the moves of that count; all leaving moments differ, all going-up
        moments differ, and a card goes up no sooner than it leaves (at the
        same moment when it goes straight up, as it must while a single
        column is open).  A card dealt onto ``i`` while ``i`` was there leaves
        before it; a card covered as ``k`` is dealt goes up after ``k`` has
        left; and a pile takes ``x`` only if more cards of the rank below than
        of ``x``'s own went up before it.

        The counts alone let the cards moving within one count wait for
        each other in a circle (a Jack sent up before the Ten under it); the
        moments order them, as constraint 4b does in the other games
        (``docs/solver.md``)."""
        m, deal, last = self.model, self.deal, self.last
        stride = 2 * len(deal.order) + 1  # more than the numbered moves of a count
        leaves = moments(m, self.left, self.cards, last, stride, "leaves")
        ups = moments(m, self.up, self.cards, last, stride, "up")
        left_during = {i: self.left[i, last] for i in leaves}
        up_during = {i: self.up[i, last] for i in ups}
        alone = [s for s in range(1, last + 1) if len(self._columns_open(s)) == 1]
        for i in leaves:
            m.Add(leaves[i] <= ups[i])
            for s in alone:  # one column open: nowhere to park, so straight up
                if s > i:
                    now = [self.left[i, s]] + ([] if s == i + 1 else [self.left[i, s - 1].Not()])
                    m.Add(leaves[i] == ups[i]).OnlyEnforceIf(now)
        m.AddAllDifferent(list(leaves.values()))
        m.AddAllDifferent(list(ups.values()))
        tops_leave_first(m, deal, leaves, left_during, self.left)
        for (i, k), c in self.covered.items():
            if i in ups and k in leaves:
                m.Add(ups[i] > leaves[k]).OnlyEnforceIf([c, up_during[i]])
        piles_wait_in_turn(m, deal, ups, up_during)

    def _piles(self, up_of_rank: Callable[[int], Any], bases: Any) -> None:
        """P3. No pile row holds more of a rank than of the rank below it, and
        piles open only above dealt bases (``up_of_rank(rank)``: how many are up)."""
        prev, m = self.deal.tables.prev, self.model
        for rank in range(14):
            if prev[rank] > 0:
                m.Add(up_of_rank(rank) <= up_of_rank(prev[rank]))
            elif prev[rank] == 0 and self.deal.tables.open_rule == OPEN_PER_BASE:
                m.Add(up_of_rank(rank) <= bases)

    # ------------------------------------------------------------- solving

    def solve(self, seconds: float) -> bool | None:
        """Whether some timing meets every constraint (:func:`~intrigue.solver.order.solve_model`)."""
        return solve_model(self.model, seconds)


class ParkedLook(NamedTuple):
    """The moment ``card`` leaves its column: per other card, the literals
    ``up``, ``parked``, ``gone`` (has left its own column) and ``buried``
    (parked under a card dealt since); ``parks``, that ``card`` goes to a
    vacant column."""

    card: int
    up: dict[int, Any]
    parked: dict[int, Any]
    gone: dict[int, Any]
    buried: dict[int, Any]
    parks: Any


class ParkingClearingModel(ParkingTimes):
    """The constraints every line of ``deal`` meets if it clears ``column``
    (0-based): :class:`ParkingTimes` and a look (:class:`ParkedLook`) at the
    moment each card of the column leaves it, top first in ``looks`` (L1 to
    L9 of ``docs/solver.md``).  A card may leave before the cards above it
    are dealt, so two looks are in that order only when the lower card was
    there as the upper one was dealt."""

    def __init__(self, deal: Deal, column: int, *, one_at_a_time: bool = False) -> None:
        super().__init__(deal, one_at_a_time=one_at_a_time)
        self.column = column
        self.looks: list[ParkedLook] = []
        for y in reversed(deal.columns[column]):
            self.looks.append(self._look(y))

    def _look(self, y: int) -> ParkedLook:
        m, deal, n, last = self.model, self.deal, self.n, self.last
        own = deal.columns[self.column]
        place = own.index(y)

        def dealt(i: int) -> Literal:
            """Card ``i`` is dealt when ``y`` leaves its column."""
            return 1 if i < y else _not(self.was_left(y, i))

        def first(z: int) -> Any:
            """The look at ``z``, above ``y``, comes first: ``y`` was there as ``z`` was dealt."""
            return self.left[y, z].Not()

        up: dict[int, Any] = {}
        parked: dict[int, Any] = {}
        gone: dict[int, Any] = {}
        buried: dict[int, Any] = {}
        before = self.looks[-1] if self.looks else None
        for i in self.cards:
            if i == y:
                continue
            u, p, g, b = (m.NewBoolVar(f"{name}{i}/{y}") for name in ("up", "pk", "gone", "bur"))
            m.AddBoolOr([u, p]).OnlyEnforceIf(g)
            m.AddImplication(u, g)
            m.AddImplication(p, g)
            m.AddBoolOr([u.Not(), p.Not()])
            m.AddImplication(b, p)
            # L1. the look lies between the counts: no later than the end of
            # the count by which y has left, after the end of any before it
            for s in range(y + 1, n):
                gone_by = self.left[y, s]
                _clause(m, g.Not(), gone_by.Not(), self.was_left(i, s))
                _clause(m, u.Not(), gone_by.Not(), self.went_up(i, s))
                _clause(m, gone_by, _not(self.was_left(i, s)), g)
                _clause(m, gone_by, _not(self.went_up(i, s)), u)
                # L2. buried: covered before, and parked since before the last card dealt
                _clause(m, b.Not(), gone_by.Not(), self.was_covered.get((i, s), 0))
                _clause(m, b.Not(), gone_by.Not(), self.was_left(y, s - 1), self.was_left(i, s - 1))
                _clause(
                    m, b.Not(), gone_by.Not(), self.was_left(y, s - 1), _not(self.went_up(i, s - 1))
                )
            still = self.was_left(y, last)  # 0 or a literal: the look comes after the deal unless
            _clause(m, still, _not(self.was_left(i, last)), g)
            _clause(m, still, _not(self.went_up(i, last)), u)
            _clause(m, b.Not(), still, self.was_left(i, last))
            _clause(m, b.Not(), still, _not(self.went_up(i, last)))
            _clause(m, b.Not(), still, self.was_covered.get((i, n), 0))
            if before is not None and i in before.up:
                # L3. what is up stays up, what has left stays gone
                m.AddImplication(before.up[i], u).OnlyEnforceIf(first(before.card))
                m.AddImplication(before.gone[i], g).OnlyEnforceIf(first(before.card))
            up[i], parked[i], gone[i], buried[i] = u, p, g, b
        # L4. a covered card goes up only after the card that covered it has left
        for (i, k), c in self.covered.items():
            if i == y:
                continue
            if k == y:
                m.AddBoolOr([c.Not(), up[i].Not()])
            else:
                m.AddBoolOr([c.Not(), up[i].Not(), gone[k]])
        # L5. the column: the cards above y have left it (those dealt while y
        # was there), the cards under it have left only if they did before y
        # was dealt; one that went up as it left is up
        for i in own[place + 1 :]:
            _clause(m, gone[i], self.was_left(y, i))
        for i in own[:place]:
            m.Add(gone[i] == self.was_left(i, y))
        for look in self.looks:
            m.AddImplication(look.parks.Not(), up[look.card]).OnlyEnforceIf(first(look.card))
        parks = m.NewBoolVar(f"parks{y}")
        for s in range(y + 1, n):
            m.AddBoolOr([self.left[y, s].Not(), parks, self.up[y, s]])
        # L6. only a column's top leaves it
        for j, column in enumerate(deal.columns):
            if j == self.column:
                continue
            for a, i in enumerate(column):
                for k in column[a + 1 :]:
                    _clause(m, gone[i].Not(), self.was_left(i, k), gone[k])
        # L7. the parked cards: alone on bare columns, or buried one to a column
        bare: dict[int, Any] = {}
        for j, column in enumerate(deal.columns):
            if j == self.column:
                continue
            v = m.NewBoolVar(f"bare{j}/{y}")
            _clause(m, v.Not(), dealt(self.bases[j]))
            for i in column:
                _clause(m, v.Not(), gone[i], _not(dealt(i)))
            bare[j] = v
        bases = sum(dealt(b) for b in self.bases)
        m.Add(sum(parked.values()) - sum(buried.values()) + parks <= sum(bare.values()))
        m.Add(sum(parked.values()) + parks <= bases)
        holding = []
        for j in range(len(deal.columns)):
            h = m.NewBoolVar(f"holds{j}/{y}")
            if j in bare:
                m.AddImplication(h, bare[j].Not())
            for s in range(y + 1, n):
                _clause(m, h.Not(), self.left[y, s].Not(), self.ever_covered_in[j, s])
            _clause(m, h.Not(), self.was_left(y, last), self.ever_covered_in[j, n])
            holding.append(h)
        m.Add(sum(buried.values()) <= sum(holding))

        # L8. the piles; L9. y goes up to a pile that waits for it, unless it parks
        def count(rank: int) -> Any:
            return sum(u for i, u in up.items() if deal.rank(i) == rank)

        self._piles(count, bases)
        rank, prev = deal.rank(y), deal.tables.prev
        if prev[rank] > 0:
            m.Add(count(prev[rank]) >= count(rank) + 1).OnlyEnforceIf(parks.Not())
        else:
            m.Add(count(rank) + 1 <= bases).OnlyEnforceIf(parks.Not())
        return ParkedLook(y, up, parked, gone, buried, parks)

    def fits(self, timing: Timing, went_up: Timing, moments: dict[int, Moment]) -> bool:
        """Whether a real line that clears the column meets the model: ``timing``
        and ``went_up``, when each card left its column and went up (the cards
        dealt by then; ``None`` for never), and ``moments``, per card of the
        column, the cards up and the cards gone from their columns as it
        leaves, and whether it parks (the model's soundness)."""
        m = self.model
        hold_times(m, self.left, timing)
        hold_times(m, self.up, went_up)
        for look in self.looks:
            ups, gones, parks = moments[look.card]
            for i in look.up:
                m.Add(look.up[i] == int(i in ups))
                m.Add(look.gone[i] == int(i in gones))
            m.Add(look.parks == int(parks))
        return self.solve(60.0) is True
