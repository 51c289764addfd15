"""The rule book compiled to small int tables for the solver's move generator.

The solver does not walk :class:`~intrigue.position.Position` objects in its
inner loop: it keeps a compact mutable state (one ``bytes`` per column, pile
counts per rank) and asks these tables what may move.  Every table is derived
from the :class:`~intrigue.variants.Variant` record, never typed in by hand,
and ``tests/test_solver.py`` checks the generator built on them against
:meth:`Position.legal_moves` / :meth:`Position.apply` by a hypothesis property.

**Card types.**  A card enters the solver as a *type*, a small int: its rank
(1..13) -- suits never matter for building (RULES.md, "Suits never matter for
building, except when Glencoe opens a pile") and the two packs' twins are the
same card to the rules -- except Glencoe's Fives and Sixes, whose suit decides
which slots they may open: they get the types ``14 + 4 * (rank - 5) + suit``.

**Piles as counts.**  A pile continues with the next rank of its staircase,
any suit, and no rule looks at which slot holds which pile, so the pile row is
fully described by how many cards of each rank are on piles: the piles waiting
for rank ``r`` number ``on[prev(r)] - on[r]``.  Opening a pile is the one rule
that differs between games (``Variant.open_pile``); it is compiled to one of
three capacity rules below.  Glencoe's slot *i* stands above column *i*, but
the only thing a slot's position decides is the suit of the Queen under it, so
"a slot above a Queen of suit *s* is free" is exactly "fewer Glencoe openers
of suit *s* are on piles than Queens of suit *s* have been dealt".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from intrigue.cards import RANK_OF, SUIT_OF, Rank
from intrigue.variants import (
    OpenPileHook,
    Variant,
    open_above_dealt_king,
    open_above_queen_of_own_suit,
    open_any_pile,
    open_while_queens_outnumber_piles,
)

OPEN_ANY = 0
"""A pile opens whenever a slot of its kind is free (Intrigue, Faerie Queen)."""
OPEN_PER_BASE = 1
"""Open piles of a kind stay below the column bases dealt (Laggard Lady, Salic Law)."""
OPEN_PER_BASE_SUIT = 2
"""A pile opens only above a dealt base of the opener's suit (Glencoe)."""

_OPEN_RULES: dict[OpenPileHook, int] = {
    open_any_pile: OPEN_ANY,
    open_while_queens_outnumber_piles: OPEN_PER_BASE,
    open_above_dealt_king: OPEN_PER_BASE,
    open_above_queen_of_own_suit: OPEN_PER_BASE_SUIT,
}

N_TYPES = 22
"""Types 1..13 are ranks; 14..21 are Glencoe's suited Fives and Sixes."""
NOT_ON_PILES = -1
"""``prev`` of a rank that never goes to a pile (column bases, Salic Law's Queens)."""


@dataclass(frozen=True, eq=False)
class Tables:
    """The compiled rules of one variant (see :func:`compile_rules`)."""

    variant: Variant
    type_of: tuple[int, ...]
    """Per card id: its solver type."""
    rank_of_type: tuple[int, ...]
    suit_of_type: tuple[int, ...]
    """Per type: the suit that matters (Glencoe openers), else -1."""
    prev: tuple[int, ...]
    """Per rank: the rank below it on its staircase, 0 for an opener,
    :data:`NOT_ON_PILES` for a rank that never goes up."""
    slots: tuple[int, ...]
    """Per rank: the pile slots of its kind."""
    open_rule: int
    base_rank: int
    discard_rank: int
    build_down: bool
    vacant_any_time: bool


def compile_rules(variant: Variant) -> Tables:
    """The solver's tables for ``variant``.

    Raises:
        NotImplementedError: if the variant opens piles by a rule the solver does not know.
    """
    rule = _OPEN_RULES.get(variant.open_pile)
    if rule is None:
        raise NotImplementedError(f"the solver does not know the opening rule of {variant.id}")
    prev = [NOT_ON_PILES] * 14
    slots = [0] * 14
    for kind in variant.pile_kinds:
        below = 0
        for rank in kind.staircase:
            prev[rank] = below
            slots[rank] = kind.slots
            below = rank
    suited = rule == OPEN_PER_BASE_SUIT
    type_of = []
    for card in range(104):
        rank = RANK_OF[card]
        if suited and prev[rank] == 0:
            type_of.append(glencoe_type(rank, SUIT_OF[card]))
        else:
            type_of.append(rank)
    rank_of_type = list(range(N_TYPES))
    suit_of_type = [-1] * N_TYPES
    for rank in (Rank.FIVE, Rank.SIX):
        for suit in range(4):
            t = glencoe_type(rank, suit)
            rank_of_type[t] = rank
            suit_of_type[t] = suit
    return Tables(
        variant=variant,
        type_of=tuple(type_of),
        rank_of_type=tuple(rank_of_type),
        suit_of_type=tuple(suit_of_type),
        prev=tuple(prev),
        slots=tuple(slots),
        open_rule=rule,
        base_rank=variant.base_rank,
        discard_rank=variant.discard_rank if variant.discard_rank is not None else -1,
        build_down=variant.build_down,
        vacant_any_time=variant.vacant_column_any_time,
    )


def glencoe_type(rank: int, suit: int) -> int:
    """The type of a Glencoe Five or Six of ``suit``."""
    return 14 + 4 * (rank - 5) + suit


def pile_counts(tables: Tables, piles: Iterable[Iterable[int]]) -> list[int]:
    """The cards on ``piles`` (card ids) per type, each suited opener counted
    under its rank as well (:data:`N_TYPES` entries)."""
    counts = [0] * N_TYPES
    for pile in piles:
        for card in pile:
            t = tables.type_of[card]
            counts[t] += 1
            if t != tables.rank_of_type[t]:
                counts[tables.rank_of_type[t]] += 1
    return counts


@lru_cache(maxsize=8)
def tables_for(variant: Variant) -> Tables:
    """The compiled rules of ``variant`` (compiled once per process)."""
    return compile_rules(variant)
