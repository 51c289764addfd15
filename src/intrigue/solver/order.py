"""The order test: a card that no line can ever send to a pile (manual mode).

A loss proof for a whole manual deal, from its start, that looks at *when*
cards leave their columns rather than at positions.  For a chosen card *x* it
asks a constraint solver (OR-tools CP-SAT) whether the timings of any line
could let *x* go up: first while cards are still dealt, then after the whole
pack is dealt.  The model keeps, for every card and every number of cards
dealt, whether it has left its column; what every real line must satisfy is
written as constraints on those times (a card leaves only from the top of its
column, the piles never hold more of a rank than of the rank below, piles open
only as the game allows, a card parked after the deal needs a column of its
own, or in Faerie Queen a card one rank higher to lie on).  If neither case has
a solution, no line sends *x* up, and the deal is lost.  The same times answer
a larger question too: whether any line can clear a whole column, looking at
each moment after the deal at which one of its cards leaves it
(:class:`ClearingModel`).  Salic Law, whose cards may park on vacant columns
while the pack is dealt, gets its own clearing model
(:mod:`intrigue.solver.parking`); the card test does not cover it.
``docs/solver.md``, "The order test", gives the proofs that every real line is
a solution.

The model needs OR-tools (``pip install 'intrigue[proofs]'``); the rest of the
package does not.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import Any, NamedTuple

from intrigue.cards import RANK_OF, SUIT_OF
from intrigue.errors import IntrigueError, UnknownVariantError
from intrigue.position import Position
from intrigue.solver.moments import moments, piles_wait_in_turn, tops_leave_first
from intrigue.solver.order_deal import Deal as Deal  # where the models and their users find it
from intrigue.solver.rules import OPEN_PER_BASE, OPEN_PER_BASE_SUIT
from intrigue.variants import Variant

ORDER_TEST_SECONDS = 120.0
"""The most seconds the solver gets for each case of each card."""
ORDER_TEST_CARDS = 16
"""How many cards the test tries by default, in the order of
:meth:`Deal.candidates` (most pressure first)."""
CLEARING_SECONDS = 1800.0
"""The most seconds the solver gets for each column in the clearing test."""
FIRST_LOOK_SECONDS = 120.0
"""The seconds each column gets in :func:`order_test`'s first pass, before
the cards: a proof there mostly comes in under a minute, while a column
that has a timing may take minutes to show it."""

Timing = dict[int, int | None]
"""When each card (by its place in the deal order) left its column: the number
of cards dealt by then, ``None`` for still there; for :meth:`OrderModel.fits`."""
Moment = tuple[frozenset[int], frozenset[int], bool]
"""The moment a card leaves its column after the deal, for
:meth:`ClearingModel.fits`: the cards on the piles then, the cards that have
left their columns by then, and whether it goes to a vacant column."""


class OrderTestUnavailable(IntrigueError, ImportError):
    """The order test needs OR-tools, which is not installed."""


def _cp_model() -> Any:
    try:
        from ortools.sat.python import cp_model
    except ImportError as error:  # pragma: no cover - depends on the installation
        raise OrderTestUnavailable(
            "the order test needs OR-tools: pip install 'intrigue[proofs]'"
        ) from error
    return cp_model


def require_covered(variant: Variant) -> None:
    """Raise :class:`UnknownVariantError` for a game the card test does not
    cover: one whose vacant columns take cards during the deal (Salic Law)."""
    if variant.vacant_column_any_time:
        raise UnknownVariantError(
            f"the order test does not cover {variant.name}: "
            "its vacant columns take cards during the deal"
        )


def _solver(seconds: float) -> Any:
    solver = _cp_model().CpSolver()
    solver.parameters.max_time_in_seconds = seconds
    solver.parameters.num_workers = 1  # the same answer, and the same work, every run
    return solver


def solve_model(model: Any, seconds: float) -> bool | None:
    """Whether some timing meets every constraint of ``model``: ``False`` is a
    proof that none does, ``None`` that the solver ran out of time."""
    cp = _cp_model()
    status = _solver(seconds).Solve(model)
    if status in (cp.OPTIMAL, cp.FEASIBLE):
        return True
    if status == cp.INFEASIBLE:
        return False
    return None


def only_tops_leave_during_deal(model: Any, deal: Deal, left: dict[tuple[int, int], Any]) -> None:
    """Only a column's top leaves it: if ``i`` has left while ``k``, dealt onto
    it later, is still there, ``i`` left before ``k`` was dealt (``left[i, s]``:
    card ``i`` has left its column once ``s`` cards are dealt)."""
    last = len(deal.order) - 1
    for column in deal.columns:
        for a, i in enumerate(column):
            for k in column[a + 1 :]:
                earlier = left.get((i, k), 0)
                for s in range(k + 1, last + 1):
                    if isinstance(earlier, int):
                        model.AddImplication(left[i, s], left[k, s])
                    else:
                        model.AddBoolOr([left[i, s].Not(), earlier, left[k, s]])


def hold_times(model: Any, times: dict[tuple[int, int], Any], timing: Timing) -> None:
    """Hold ``times[i, s]`` (card ``i`` has done it once ``s`` cards are dealt)
    to a real line's ``timing``, for the models' ``fits`` checks."""
    for (i, s), v in times.items():
        t = timing.get(i)
        model.Add(v == int(t is not None and t <= s))


class DealTimes:
    """The times at which cards leave their columns while the pack is dealt,
    and what every line of ``deal`` makes of them (constraints 1 to 4 of
    ``docs/solver.md``, "The order test"); the order within a count (4) is
    written for the columns ``within`` (0-based).

    ``left[i, s]`` is true when card ``i`` (its place in the deal order) has
    left its column once ``s`` cards are dealt, for ``s`` from its own deal to
    the pack less one.
    """

    def __init__(self, deal: Deal, within: Iterable[int], *, one_at_a_time: bool = True) -> None:
        require_covered(deal.tables.variant)  # parked during the deal: intrigue.solver.parking
        cp = _cp_model()
        self.deal = deal
        self.model = m = cp.CpModel()
        n = len(deal.order)
        self.last = n - 1  # the last count of cards dealt with a card still to come
        tables = deal.tables
        self.cards = [i for i in range(n) if tables.prev[deal.rank(i)] >= 0]
        self.left: dict[tuple[int, int], Any] = {}
        for i in self.cards:
            before = None
            for s in range(i + 1, n):
                v = m.NewBoolVar(f"left{i}@{s}")
                if before is not None:
                    m.AddImplication(before, v)  # what has left never comes back
                before = v
                self.left[i, s] = v
        self._leaving: dict[tuple[int, int], Any] = {}
        self._on: dict[tuple[int, int], Any] = {}
        only_tops_leave_during_deal(m, deal, self.left)
        self._piles_during_deal()
        for column in within:
            self._order_within_a_count(deal.columns[column])
        if one_at_a_time:
            self._one_at_a_time()

    # ------------------------------------------------------------- helpers

    def was_left(self, i: int, s: int) -> Any:
        """Card ``i`` has left its column once ``s`` cards are dealt (0 before its deal)."""
        return self.left[i, s] if (i, s) in self.left else 0

    def leaves_at(self, i: int, s: int) -> Any:
        """Card ``i`` leaves its column while exactly ``s`` cards are dealt."""
        if (i, s) not in self.left:
            return 0
        if (i, s - 1) not in self.left:
            return self.left[i, s]
        if (i, s) not in self._leaving:
            v = self.model.NewBoolVar(f"leaves{i}@{s}")
            now, before = self.left[i, s], self.left[i, s - 1]
            self.model.AddBoolAnd([now, before.Not()]).OnlyEnforceIf(v)
            self.model.AddBoolOr([now.Not(), before, v])
            self._leaving[i, s] = v
        return self._leaving[i, s]

    def up(self, rank_or_card: Callable[[int], bool], s: int) -> Any:
        """How many cards that ``rank_or_card`` picks are up once ``s`` cards
        are dealt (during the deal nothing is parked, so a card that left is up)."""
        return sum(self.left[i, s] for i in self.cards if (i, s) in self.left and rank_or_card(i))

    def on(self, rank: int, s: int) -> Any:
        """The cards of ``rank`` up once ``s`` cards are dealt (:meth:`up`), built
        once and shared by every constraint that counts them."""
        if (rank, s) not in self._on:
            self._on[rank, s] = self.up(self._of_rank(rank), s) if s > 0 else 0
        return self._on[rank, s]

    def _of_rank(self, rank: int) -> Callable[[int], bool]:
        return lambda i: self.deal.rank(i) == rank

    def _bases_dealt(self, s: int, suit: int | None = None) -> int:
        base = self.deal.tables.base_rank
        return sum(
            1
            for card in self.deal.order[:s]
            if RANK_OF[card] == base and (suit is None or SUIT_OF[card] == suit)
        )

    # --------------------------------------------------------- constraints

    def _opening_limits(self, count: Callable[[Callable[[int], bool]], Any], s: int) -> None:
        """Piles open only as the game allows, with ``s`` cards dealt."""
        tables, m = self.deal.tables, self.model
        openers = [r for r in range(14) if tables.prev[r] == 0]
        for rank in openers:
            if tables.open_rule == OPEN_PER_BASE:
                m.Add(count(self._of_rank(rank)) <= self._bases_dealt(s))
            elif tables.open_rule == OPEN_PER_BASE_SUIT:
                for suit in range(4):
                    picks = self._suited(rank, suit)
                    m.Add(count(picks) <= self._bases_dealt(s, suit))

    def _suited(self, rank: int, suit: int) -> Callable[[int], bool]:
        return lambda i: self.deal.rank(i) == rank and SUIT_OF[self.deal.order[i]] == suit

    def _chains(self, up_of_rank: Callable[[int], Any], enforce: Sequence[Any] = ()) -> None:
        """No pile row holds more cards of a rank than of the rank below it
        (``up_of_rank(rank)``: how many of that rank are up)."""
        prev = self.deal.tables.prev
        for rank in range(14):
            if prev[rank] > 0:
                self.model.Add(up_of_rank(rank) <= up_of_rank(prev[rank])).OnlyEnforceIf(enforce)

    def _piles_during_deal(self) -> None:
        for s in range(1, self.last + 1):
            self._chains(partial(self.on, s=s))
            self._opening_limits(partial(self.up, s=s), s)

    def _order_within_a_count(self, column: Sequence[int]) -> None:
        """Between two deals, the cards leaving one column leave top first.

        So when ``k`` goes up, those above it that leave at the same count are
        up already and those below it are not yet: for every rank ``q``, the
        piles then hold at least the ``q`` already up before this count plus
        those among ``k`` and the cards above it, and at most the ``prev(q)``
        up by the end of this count less those below it.  Written for the
        columns that a test needs it for (it is a fact of every column).
        """
        m, prev, deal = self.model, self.deal.tables.prev, self.deal
        for s in range(1, self.last + 1):
            here = [i for i in column if i + 1 <= s]
            for place, k in enumerate(here):
                leaves = self.leaves_at(k, s)
                if isinstance(leaves, int):
                    continue
                for q in range(14):
                    p = prev[q]
                    if p <= 0:
                        continue
                    above = [i for i in here[place:] if deal.rank(i) == q]
                    below = [i for i in here[:place] if deal.rank(i) == p]
                    if not above or (not below and (len(above) < 2 or deal.rank(k) != q)):
                        continue  # no stronger than the chain at the end of the count
                    m.Add(
                        self.on(q, s - 1) + sum(self.leaves_at(i, s) for i in above)
                        <= self.on(p, s) - sum(self.leaves_at(i, s) for i in below)
                    ).OnlyEnforceIf(leaves)

    def _one_at_a_time(self) -> None:
        """Cards leave one at a time (constraint 4b of ``docs/solver.md``):
        each card that leaves while cards are dealt gets a moment, its count
        times a stride plus its place among the cards leaving at that count,
        all different.  A card dealt onto ``i`` while ``i`` was still there
        leaves before it, and a pile takes a card only in its turn
        (:func:`piles_wait_in_turn`).  The counts alone let the cards leaving
        at one count wait for each other in a circle (a Ten over the Ace it
        needs, the Nines under Tens); the moments order them."""
        m, deal = self.model, self.deal
        moment = moments(m, self.left, self.cards, self.last, len(deal.order) + 1, "moment")
        during = {i: self.left[i, self.last] for i in moment}
        m.AddAllDifferent(list(moment.values()))
        tops_leave_first(m, deal, moment, during, self.left)
        piles_wait_in_turn(m, deal, moment, during)

    # ------------------------------------------------- after the deal, shared

    def _only_tops_leave(
        self,
        gone: dict[int, Any],
        columns: Iterable[Sequence[int]],
        leaving: int | None = None,
        enforce: Sequence[Any] = (),
    ) -> None:
        """Only a column's top leaves it, then or during the deal: a card gone
        with a card dealt onto it still there (or ``leaving``, which leaves
        now) left before that card was dealt."""
        m = self.model
        for column in columns:
            for a, i in enumerate(column):
                if i == leaving:
                    continue
                for k in column[a + 1 :]:
                    earlier = self.was_left(i, k)
                    still = [earlier] if not isinstance(earlier, int) else []
                    if k == leaving:
                        m.AddBoolOr([gone[i].Not(), *still]).OnlyEnforceIf(enforce)
                    else:
                        m.AddBoolOr([gone[i].Not(), *still, gone[k]]).OnlyEnforceIf(enforce)

    def _vacant(self, gone: dict[int, Any], leaving_column: int, tag: str) -> list[Any]:
        """Per column but ``leaving_column``: whether its own cards have all left."""
        vacant: list[Any] = []
        for j, column in enumerate(self.deal.columns):
            if j == leaving_column:
                continue
            if not column:
                vacant.append(1)
                continue
            v = self.model.NewBoolVar(f"vacant{j}{tag}")
            for i in column:
                self.model.AddImplication(v, gone[i])
            vacant.append(v)
        return vacant

    def _room(
        self,
        gone: dict[int, Any],
        parked: dict[int, Any],
        leaving: int,
        parks: Any,
        tag: str,
        enforce: Sequence[Any] = (),
    ) -> None:
        """The cards off their columns and not up (``parked``, and ``leaving``
        if it ``parks``) have somewhere to be as ``leaving`` leaves its column.

        Without building down each lies alone on a column whose own cards have
        all left (rule 5).  With it (Faerie Queen) a card off its column lies at
        the foot of such a column or on a card one rank higher: on another one
        off its column, or on the top own card of a column; each card holds one
        (``docs/solver.md``, "The room of built-down cards").
        """
        m, deal = self.model, self.deal
        leaving_column = deal.where(leaving)[0]
        vacant = self._vacant(gone, leaving_column, tag)
        if not deal.tables.variant.build_down:
            m.Add(sum(parked.values()) + parks <= sum(vacant)).OnlyEnforceIf(enforce)
            return
        # per rank, whether each card of that rank is a column's top holding one
        hosts: dict[int, list[Any]] = {}
        for j, column in enumerate(deal.columns):
            if j == leaving_column:
                continue  # its top is the card leaving, and nothing lies on that
            tops = []
            for a, k in enumerate(column):
                top = m.NewBoolVar(f"top{k}{tag}")
                m.AddImplication(top, gone[k].Not())
                if a + 1 < len(column):
                    m.AddImplication(top, gone[column[a + 1]])
                hosts.setdefault(deal.rank(k), []).append(top)
                tops.append(top)
            m.Add(sum(tops) <= 1)
        feet = []
        by_rank: dict[int, list[Any]] = {}
        for i, v in parked.items():
            by_rank.setdefault(deal.rank(i), []).append(v)
        for rank in sorted({deal.rank(i) for i in parked} | {deal.rank(leaving)}):
            off = sum(by_rank.get(rank, []))
            if rank == deal.rank(leaving):
                off += parks
            foot = m.NewIntVar(0, len(deal.columns), f"feet{rank}{tag}")
            feet.append(foot)
            m.Add(
                off <= foot + sum(by_rank.get(rank + 1, [])) + sum(hosts.get(rank + 1, []))
            ).OnlyEnforceIf(enforce)
        m.Add(sum(feet) <= sum(vacant)).OnlyEnforceIf(enforce)

    def _leaves_now(
        self,
        y: int,
        count: Callable[[Callable[[int], bool]], Any],
        parked_now: Any,
        enforce: Sequence[Any] = (),
    ) -> None:
        """Card ``y`` leaves its column now, with the cards that ``count`` counts
        on the piles: if not parked, a pile waits for it (or one may open)."""
        m, deal = self.model, self.deal
        rank, prev = deal.rank(y), deal.tables.prev
        to_pile = [parked_now.Not(), *enforce]
        n = len(deal.order)
        if prev[rank] > 0:  # a pile waits for y
            m.Add(count(self._of_rank(prev[rank])) >= count(self._of_rank(rank)) + 1).OnlyEnforceIf(
                to_pile
            )
        elif deal.tables.open_rule == OPEN_PER_BASE:  # a pile of y's kind may still open
            m.Add(count(self._of_rank(rank)) + 1 <= self._bases_dealt(n)).OnlyEnforceIf(to_pile)
        elif deal.tables.open_rule == OPEN_PER_BASE_SUIT:
            suit = SUIT_OF[deal.order[y]]
            m.Add(count(self._suited(rank, suit)) + 1 <= self._bases_dealt(n, suit)).OnlyEnforceIf(
                to_pile
            )

    # ------------------------------------------------------------- solving

    def _fix_times(self, timing: Timing) -> None:
        """Hold the deal's times to those of a real line (``timing``), for the
        ``fits`` checks of the models built on them."""
        hold_times(self.model, self.left, timing)

    def solve(self, seconds: float) -> bool | None:
        """Whether some timing meets every constraint (:func:`solve_model`)."""
        return solve_model(self.model, seconds)

    def find_timing(self, seconds: float) -> Timing | None:
        """A timing of the deal that meets every constraint (when each card
        left its column while cards were dealt), or ``None`` if the solver
        found none within ``seconds`` (or there is none)."""
        cp, solver = _cp_model(), _solver(seconds)
        solver.parameters.random_seed = 0  # the same timing every run, of the many there are
        if solver.Solve(self.model) not in (cp.OPTIMAL, cp.FEASIBLE):
            return None
        return {
            i: next((s for s in range(i + 1, self.last + 1) if solver.Value(self.left[i, s])), None)
            for i in self.cards
        }


class OrderModel(DealTimes):
    """The constraints every line of ``deal`` meets if card ``x`` leaves its
    column while cards are still dealt (``after_deal=False``) or once the pack
    is dealt (``after_deal=True``): :class:`DealTimes`, the order within a
    count written for ``x``'s column, and after the deal, ``gone[i]`` says
    card ``i`` has left its column before ``x`` leaves, and ``parked[i]`` that
    it waits on a vacant column then.
    """

    def __init__(self, deal: Deal, x: int, *, after_deal: bool) -> None:
        super().__init__(deal, within=[deal.where(x)[0]])
        self.x, self.after_deal = x, after_deal
        m = self.model
        if after_deal:
            self._after_deal()
        elif (x, self.last) in self.left:
            m.Add(self.left[x, self.last] == 1)
        else:
            m.AddBoolOr([])  # the last card dealt leaves only after the deal

    def _after_deal(self) -> None:
        """``x`` is still in its column when the last card is dealt; look at the
        moment it leaves it, to a pile or to a vacant column."""
        m, deal, x = self.model, self.deal, self.x
        if (x, self.last) in self.left:
            m.Add(self.left[x, self.last] == 0)
        gone: dict[int, Any] = {}
        parked: dict[int, Any] = {}
        self.gone, self.parked = gone, parked
        ups: dict[int, Any] = {}
        for i in self.cards:
            if i == x:
                continue
            g, pk, up = (m.NewBoolVar(f"{name}{i}@{x}") for name in ("gone", "parked", "up"))
            during = self.was_left(i, self.last)
            if not isinstance(during, int):
                m.AddImplication(during, g)
                m.AddImplication(during, pk.Not())  # nothing is parked during the deal
            m.AddImplication(pk, g)
            m.AddBoolAnd([g, pk.Not()]).OnlyEnforceIf(up)
            m.AddBoolOr([g.Not(), pk, up])
            gone[i], parked[i], ups[i] = g, pk, up
        xcol, xplace = deal.where(x)
        for k in deal.columns[xcol][xplace + 1 :]:
            m.Add(gone[k] == 1)
        self._only_tops_leave(gone, deal.columns, leaving=x)
        # x leaves its column now: to a pile that takes it, or off the piles
        # to the room there is (it may go up from there later).
        x_parked = m.NewBoolVar(f"parked{x}@{x}")
        self._room(gone, parked, x, x_parked, f"@{x}")

        def count(picks: Callable[[int], bool]) -> Any:
            return sum(u for i, u in ups.items() if picks(i))

        self._chains(lambda rank: count(self._of_rank(rank)))
        self._opening_limits(count, len(deal.order))
        self._leaves_now(x, count, x_parked)

    def fits(self, timing: Timing, parked: Iterable[int] = ()) -> bool:
        """Whether the times at which a real line's cards left their columns
        (``timing``; ``parked``: the cards waiting on vacant columns when ``x``
        leaves its column) meet the model: every real line must (the test's soundness)."""
        m = self.model
        self._fix_times(timing)
        if self.after_deal:
            waiting = set(parked)
            for i, v in self.gone.items():
                m.Add(v == int(timing.get(i) is not None))
                m.Add(self.parked[i] == int(i in waiting))
        return self.solve(60.0) is True


class Look(NamedTuple):
    """The clearing model at the moment ``card`` leaves its column after the
    deal: ``still`` (1, or a literal) says it was still there when the pack was
    dealt; per other card, the literals ``up``, ``parked`` and ``gone`` (has
    left its own column); ``parks``, that ``card`` goes to a vacant column."""

    card: int
    still: Any
    up: dict[int, Any]
    parked: dict[int, Any]
    gone: dict[int, Any]
    parks: Any


def _asked_if(still: Any) -> list[Any]:
    """The literals a look's constraints are enforced under: none when its
    card is surely still in its column after the deal (``still`` is 1), else
    that literal (a card that left while cards were dealt has no moment)."""
    return [] if isinstance(still, int) else [still]


class ClearingModel(DealTimes):
    """The constraints every line of ``deal`` meets if it clears ``column``
    (0-based): :class:`DealTimes`, with the order within a count written for
    every column, and a look at each moment after the deal at which one of
    the column's cards leaves it.

    Those moments come in a known order: the cards of the column still there
    when the pack is dealt leave it top first; ``looks`` has one :class:`Look`
    per card of the column, top first.
    """

    def __init__(self, deal: Deal, column: int, *, one_at_a_time: bool = True) -> None:
        super().__init__(deal, within=range(len(deal.columns)), one_at_a_time=one_at_a_time)
        self.column = column
        self.looks: list[Look] = []
        self._moments()

    def _moments(self) -> None:
        m, deal, last = self.model, self.deal, self.last
        own = deal.columns[self.column]
        others = [c for j, c in enumerate(deal.columns) if j != self.column]
        for place in reversed(range(len(own))):  # top first
            y = own[place]
            during = self.was_left(y, last)
            still = 1 if isinstance(during, int) else during.Not()
            enforce = _asked_if(still)
            before = self.looks[-1] if self.looks else None
            up: dict[int, Any] = {}
            parked: dict[int, Any] = {}
            gone: dict[int, Any] = {}
            for i in self.cards:
                if i == y:
                    continue
                u, pk, g = (m.NewBoolVar(f"{name}{i}/{y}") for name in ("up", "parked", "gone"))
                m.AddBoolOr([u, pk]).OnlyEnforceIf(g)
                m.AddImplication(u, g)
                m.AddImplication(pk, g)
                m.AddBoolOr([u.Not(), pk.Not()])
                left = self.was_left(i, last)
                if not isinstance(left, int):
                    m.AddImplication(left, u)  # nothing is parked during the deal
                if before is not None and i in before.up:
                    m.AddImplication(before.up[i], u)  # what is up stays up
                    m.AddImplication(before.gone[i], g)  # and what has left stays gone
                up[i], parked[i], gone[i] = u, pk, g
            # The column's cards above y have left it (top first); those under it
            # have left only if they did while cards were dealt.
            for i in own[place + 1 :]:
                m.Add(gone[i] == 1)
            for i in own[:place]:
                m.Add(gone[i] == self.was_left(i, last))
            for earlier in self.looks:
                # a card of the column that went to a pile as it left is up
                m.AddImplication(earlier.parks.Not(), up[earlier.card]).OnlyEnforceIf(
                    _asked_if(earlier.still)
                )
            parked_now = m.NewBoolVar(f"parked{y}/{y}")
            self._only_tops_leave(gone, others, enforce=enforce)
            self._room(gone, parked, y, parked_now, f"/{y}", enforce)

            def count(picks: Callable[[int], bool]) -> Any:
                return sum(u for i, u in up.items() if picks(i))  # noqa: B023 (used at once)

            self._chains(lambda rank: count(self._of_rank(rank)), enforce)
            self._leaves_now(y, count, parked_now, enforce)
            self.looks.append(Look(y, still, up, parked, gone, parked_now))

    def fits(self, timing: Timing, moments: dict[int, Moment]) -> bool:
        """Whether a real line that clears the column meets the model:
        ``timing`` as for :meth:`OrderModel.fits`, ``moments`` the moment each
        card of the column that leaves it after the deal does (its soundness)."""
        m = self.model
        self._fix_times(timing)
        for look in self.looks:
            if look.card not in moments:
                continue  # it left while cards were dealt: no moment to look at
            ups, gones, parks = moments[look.card]
            for i in look.up:
                m.Add(look.up[i] == int(i in ups))
                m.Add(look.gone[i] == int(i in gones))
                m.Add(look.parked[i] == int(i in gones and i not in ups))
            m.Add(look.parks == int(parks))
        return self.solve(60.0) is True


def card_never_goes_up(deal: Deal, x: int, *, seconds: float = ORDER_TEST_SECONDS) -> bool | None:
    """``True`` if no line sends card ``x`` (its place in the deal order) up,
    ``False`` if the model cannot rule it out, ``None`` if the solver ran out
    of time."""
    answers = []
    for after_deal in (False, True):
        answer = OrderModel(deal, x, after_deal=after_deal).solve(seconds)
        if answer is True:
            return False
        answers.append(answer)
    return True if answers == [False, False] else None


def blocked_card(
    position: Position,
    *,
    cards: int = ORDER_TEST_CARDS,
    seconds: float = ORDER_TEST_SECONDS,
    on_card: Callable[[int, int], None] | None = None,
) -> tuple[int, int] | None:
    """A card of the manual deal that starts at ``position`` which no line can
    send up, as (column, place above the base), both counted from 1; ``None``
    if none of the first ``cards`` of :meth:`Deal.candidates` is proved so
    (which never means "won").

    ``on_card(tried, cards)`` hears each card tried.

    Raises:
        UnknownVariantError: for Salic Law.
        ValueError: for a position that is not the start of a manual deal.
        OrderTestUnavailable: without OR-tools.
    """
    require_covered(position.variant)
    deal = Deal.of(position)
    candidates: Sequence[int] = deal.candidates()[:cards]
    for tried, x in enumerate(candidates, 1):
        if on_card is not None:
            on_card(tried, len(candidates))
        if card_never_goes_up(deal, x, seconds=seconds):
            column, place = deal.where(x)
            return column + 1, place + 1
    return None


def column_never_clears(
    deal: Deal, column: int, *, seconds: float = CLEARING_SECONDS
) -> bool | None:
    """``True`` if no line clears ``column`` (0-based) of ``deal``, ``False``
    if the model cannot rule it out, ``None`` if the solver ran out of time.
    A game whose vacant columns take cards during the deal gets the model of
    :mod:`intrigue.solver.parking`."""
    if deal.parks_during_deal:
        from intrigue.solver.parking import ParkingClearingModel  # it builds on this module

        answer = ParkingClearingModel(deal, column).solve(seconds)
    else:
        answer = ClearingModel(deal, column).solve(seconds)
    return None if answer is None else not answer


def uncleared_column(
    position: Position,
    *,
    seconds: float = CLEARING_SECONDS,
    on_column: Callable[[int, int], None] | None = None,
) -> int | None:
    """A column of the manual deal that starts at ``position`` which no line
    can clear, counted from 1 (the columns tried longest first); ``None`` if
    none is proved so (which never means "won").

    ``on_column(tried, columns)`` hears each column tried.

    Raises:
        ValueError: for a position that is not the start of a manual deal.
        OrderTestUnavailable: without OR-tools.
    """
    deal = Deal.of(position)
    columns = deal.longest_first()
    for tried, column in enumerate(columns, 1):
        if on_column is not None:
            on_column(tried, len(columns))
        if column_never_clears(deal, column, seconds=seconds):
            return column + 1
    return None


class OrderProof(NamedTuple):
    """What :func:`order_test` proved: a column no line clears (counted from
    1) or a card no line sends up, as (column, place above the base), or
    neither; ``tried``, the columns and cards it asked about."""

    column: int | None
    card: tuple[int, int] | None
    tried: int

    @property
    def lost(self) -> bool:
        return self.column is not None or self.card is not None


def order_test(
    position: Position,
    *,
    cards: int = ORDER_TEST_CARDS,
    first_look: float = FIRST_LOOK_SECONDS,
    seconds: float = CLEARING_SECONDS,
    card_seconds: float = ORDER_TEST_SECONDS,
    on_try: Callable[[int], None] | None = None,
) -> OrderProof:
    """The order test of the manual deal that starts at ``position``: every
    column (longest first) for ``first_look`` seconds, then the first
    ``cards`` cards of :meth:`Deal.candidates` (not in Salic Law), then the
    columns that ran out of time again for ``seconds`` each.

    The short first pass lets a card the test blocks in seconds come before
    columns that would each take the long limit to end without an answer;
    every column still gets ``seconds`` in the end, so the verdict is that
    of trying every column at ``seconds``, then the cards.  ``on_try(n)``
    hears the n-th column or card asked about.

    Raises:
        ValueError: for a position that is not the start of a manual deal.
        OrderTestUnavailable: without OR-tools.
    """
    deal = Deal.of(position)
    tried = 0

    def asked() -> None:
        nonlocal tried
        tried += 1
        if on_try is not None:
            on_try(tried)

    undecided = []
    for column in deal.longest_first():
        asked()
        answer = column_never_clears(deal, column, seconds=min(first_look, seconds))
        if answer:
            return OrderProof(column + 1, None, tried)
        if answer is None and first_look < seconds:
            undecided.append(column)
    if not deal.parks_during_deal:  # the card test does not follow cards parked then
        card = blocked_card(position, cards=cards, seconds=card_seconds, on_card=lambda *_: asked())
        if card is not None:
            return OrderProof(None, card, tried)
    for column in undecided:
        asked()
        if column_never_clears(deal, column, seconds=seconds):
            return OrderProof(column + 1, None, tried)
    return OrderProof(None, None, tried)
