"""Moves one at a time between two deals: the moments of the order test's models.

The order test's models count what happens by each count of cards dealt; the
moves made between two deals are made one after another, and the counts alone
let them wait for each other in a circle.  Per card, a *moment* (its count
times a stride plus its place among the moves of that count) orders them:
rule 4b of :class:`~intrigue.solver.order.DealTimes` and P7 of
:class:`~intrigue.solver.parking.ParkingTimes` (``docs/solver.md``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from intrigue.solver.order_deal import Deal


def moments(
    model: Any,
    times: dict[tuple[int, int], Any],
    cards: Iterable[int],
    last: int,
    stride: int,
    name: str,
) -> dict[int, Any]:
    """Per card that may do it while cards are dealt (``times[i, s]``: it has
    done it once ``s`` cards are dealt), the moment it does: the count it does
    it at (``last`` + 1 if not while cards are dealt) times ``stride`` plus
    its place among the cards doing it at that count."""
    result = {}
    for i in cards:
        if (i, last) not in times:
            continue  # the last card dealt moves only after the deal
        count = (i + 1) + sum(1 - times[i, s] for s in range(i + 1, last + 1))
        place = model.NewIntVar(0, stride - 1, f"{name}place{i}")
        result[i] = model.NewIntVar(0, stride * (last + 2), f"{name}{i}")
        model.Add(result[i] == stride * count + place)
    return result


def tops_leave_first(
    model: Any,
    deal: Deal,
    moment: dict[int, Any],
    during: dict[int, Any],
    left: dict[tuple[int, int], Any],
) -> None:
    """A card dealt onto ``i`` while ``i`` was there leaves before it, by
    ``moment`` (``during[i]``: ``i`` leaves while cards are dealt)."""
    for column in deal.columns:
        for a, i in enumerate(column):
            for k in column[a + 1 :]:
                if i in moment and k in moment:
                    model.Add(moment[k] < moment[i]).OnlyEnforceIf([during[i], left[i, k].Not()])


def piles_wait_in_turn(
    model: Any, deal: Deal, moment: dict[int, Any], going: dict[int, Any]
) -> None:
    """A pile takes card ``x`` at ``moment[x]`` (if ``going[x]``: it goes up
    while cards are dealt) only if more cards of the rank below than of
    ``x``'s own went up before it.  Booleans per card of the rank below imply
    "went up before ``x``", and per card of ``x``'s rank are implied by it, so
    the sums bound the true counts from the safe sides.  Openers are left to
    the counts of bases dealt."""
    of_rank: dict[int, list[int]] = {}
    for i in moment:
        of_rank.setdefault(deal.rank(i), []).append(i)
    prev = deal.tables.prev
    for x in moment:
        below = prev[deal.rank(x)]
        if below <= 0:
            continue
        before_x = []
        for y in of_rank.get(below, []):
            b = model.NewBoolVar(f"below{y}<{x}")
            model.AddImplication(b, going[y])
            model.Add(moment[y] < moment[x]).OnlyEnforceIf(b)
            before_x.append(b)
        same = []
        for z in of_rank[deal.rank(x)]:
            if z != x:
                c = model.NewBoolVar(f"same{z}<{x}")
                model.Add(moment[z] > moment[x]).OnlyEnforceIf([c.Not(), going[z]])
                same.append(c)
        model.Add(sum(before_x) >= 1 + sum(same)).OnlyEnforceIf(going[x])
