"""The five games of the family, as data plus a few named rule hooks.

Each :class:`Variant` record says what the rule book's table says: the rank
of the column bases, the pile staircases, whether Queens are discarded, when
a vacant column takes a card, whether cards build down on the tableau.  The
one rule that truly differs between games -- *may a Five or Six (an Ace in
the King games) open a pile, and which one?* -- is a small hook function named
after the rule-book wording.  :mod:`intrigue.position` calls the hooks at one
fixed point; nothing else knows which game it is playing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from types import MappingProxyType

from intrigue.cards import RANK_OF, SUIT_OF, CardId, Rank
from intrigue.errors import UnknownVariantError

Columns = Sequence[Sequence[CardId]]
Piles = Sequence[Sequence[CardId]]

SLOTS_PER_KIND = 8


@dataclass(frozen=True)
class PileKind:
    """One kind of pile: its name and the staircase of ranks it is built in."""

    name: str
    staircase: tuple[int, ...]
    slots: int = SLOTS_PER_KIND

    @property
    def size(self) -> int:
        """Cards on a complete pile."""
        return len(self.staircase)


OpenPileHook = Callable[["Variant", Columns, Piles, int, CardId], int | None]
"""``hook(variant, columns, piles, kind, card) -> slot or None``: the pile slot
that ``card`` (the first rank of pile kind ``kind``) may open, if any."""


def _first_empty(variant: Variant, piles: Piles, kind: int) -> int | None:
    start = variant.slot_start[kind]
    for slot in range(start, start + variant.pile_kinds[kind].slots):
        if not piles[slot]:
            return slot
    return None


def _open_count(variant: Variant, piles: Piles, kind: int) -> int:
    start = variant.slot_start[kind]
    return sum(1 for p in piles[start : start + variant.pile_kinds[kind].slots] if p)


def open_any_pile(
    variant: Variant, columns: Columns, piles: Piles, kind: int, card: CardId
) -> int | None:
    """Intrigue, Faerie Queen: a pile opens whenever a slot of its kind is free."""
    del columns, card  # the same rule for every card
    return _first_empty(variant, piles, kind)


def open_while_queens_outnumber_piles(
    variant: Variant, columns: Columns, piles: Piles, kind: int, card: CardId
) -> int | None:
    """Laggard Lady: a Five or Six may open a pile only while the Queens dealt so
    far outnumber the piles of its kind already open."""
    del card
    if len(columns) > _open_count(variant, piles, kind):
        return _first_empty(variant, piles, kind)
    return None


def open_above_queen_of_own_suit(
    variant: Variant, columns: Columns, piles: Piles, kind: int, card: CardId
) -> int | None:
    """Glencoe: a Five or Six may open only the slot above a Queen of its own suit
    (slot *i* of each kind stands above column *i*)."""
    suit = SUIT_OF[card]
    start = variant.slot_start[kind]
    for i, column in enumerate(columns):
        if SUIT_OF[column[0]] == suit and not piles[start + i]:
            return start + i
    return None


def open_above_dealt_king(
    variant: Variant, columns: Columns, piles: Piles, kind: int, card: CardId
) -> int | None:
    """Salic Law: a pile may open only above a King already dealt
    (piles open <= Kings dealt)."""
    del card
    if _open_count(variant, piles, kind) < len(columns):
        return _first_empty(variant, piles, kind)
    return None


RULE = MappingProxyType({"rule": True})
"""The metadata of a :class:`Variant` field that states a rule of the game."""


@dataclass(frozen=True, eq=False)
class Variant:
    """One game of the family.  Compared by identity: there is one record per game."""

    id: str
    name: str
    # The fields that state a rule carry RULE: Position.recast compares them.
    base_rank: int = field(metadata=RULE)
    pile_kinds: tuple[PileKind, ...] = field(metadata=RULE)
    open_pile: OpenPileHook = field(metadata=RULE)
    shuffle_hook: str = field(metadata=RULE)
    """Name of the shuffle hook in :mod:`intrigue.deals`."""
    discard_rank: int | None = field(default=None, metadata=RULE)
    """Cards of this rank are set aside on the discard row as they are dealt (Salic Law)."""
    vacant_column_any_time: bool = field(default=False, metadata=RULE)
    """A vacant column takes a card at any time, not only once the pack is dealt."""
    build_down: bool = field(default=False, metadata=RULE)
    """Once the pack is dealt a card may go on a column whose top is one rank higher."""
    narrower: str | None = None
    """The id of a game whose every line is also a line of this one: the same
    rules with a narrower pile-opening hook.  A win there is a win here
    (docs/solver.md, "Narrower games"); the solver tries it as a probe."""
    aliases: tuple[str, ...] = ()
    summary: str = ""

    # Derived tables, filled in by __post_init__.
    slot_start: tuple[int, ...] = field(init=False)
    place: tuple[tuple[int, int] | None, ...] = field(init=False)
    """``place[rank] = (kind, step)``: the pile kind and staircase step of a rank."""
    pile_slots: int = field(init=False)
    pile_cards: int = field(init=False)
    slot_kind: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        starts, total = [], 0
        for kind in self.pile_kinds:
            starts.append(total)
            total += kind.slots
        place: list[tuple[int, int] | None] = [None] * 14
        for k, kind in enumerate(self.pile_kinds):
            for step, rank in enumerate(kind.staircase):
                place[rank] = (k, step)
        slot_kind = tuple(k for k, kind in enumerate(self.pile_kinds) for _ in range(kind.slots))
        object.__setattr__(self, "slot_start", tuple(starts))
        object.__setattr__(self, "place", tuple(place))
        object.__setattr__(self, "pile_slots", total)
        object.__setattr__(self, "pile_cards", sum(k.size * k.slots for k in self.pile_kinds))
        object.__setattr__(self, "slot_kind", slot_kind)

    def pile_slot_for(self, columns: Columns, piles: Piles, card: CardId) -> int | None:
        """The pile slot that ``card`` may go to now, or None.

        A card continues the first pile (in slot order) that needs exactly its
        rank; a card that starts a staircase opens a pile if the game's
        ``open_pile`` hook allows it.
        """
        where = self.place[RANK_OF[card]]
        if where is None:
            return None
        kind, step = where
        if step == 0:
            return self.open_pile(self, columns, piles, kind, card)
        start = self.slot_start[kind]
        for slot in range(start, start + self.pile_kinds[kind].slots):
            if len(piles[slot]) == step:
                return slot
        return None

    def kind_built_in(self, ranks: Sequence[int]) -> PileKind:
        """The pile kind whose staircase is ``ranks``, in order.

        Raises:
            ValueError: if no kind of this game is built in exactly those ranks.
        """
        for kind in self.pile_kinds:
            if tuple(kind.staircase) == tuple(ranks):
                return kind
        raise ValueError(f"no pile kind of {self.id} is built in the ranks {list(ranks)}")

    def differs_only_in_opening(self, other: Variant) -> bool:
        """Whether ``other`` has the same rules as this game but for ``open_pile``
        (and so the same deal orders)."""
        return all(
            getattr(self, f.name) == getattr(other, f.name)
            for f in fields(self)
            if f.metadata.get("rule") and f.name != "open_pile"
        )

    def __repr__(self) -> str:
        return f"find_variant({self.id!r})"


_FIVE = PileKind("Five-pile", (Rank.FIVE, Rank.FOUR, Rank.THREE, Rank.TWO, Rank.ACE, Rank.KING))
_SIX = PileKind("Six-pile", (Rank.SIX, Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.TEN, Rank.JACK))

INTRIGUE = Variant(
    id="intrigue",
    name="Intrigue",
    base_rank=Rank.QUEEN,
    pile_kinds=(_FIVE, _SIX),
    open_pile=open_any_pile,
    shuffle_hook="first_queen_last",
    narrower="laggard-lady",
    summary="Queens head the columns; build Fives down to Kings and Sixes up to Jacks.",
)
LAGGARD_LADY = Variant(
    id="laggard-lady",
    name="Laggard Lady",
    base_rank=Rank.QUEEN,
    pile_kinds=(_FIVE, _SIX),
    open_pile=open_while_queens_outnumber_piles,
    shuffle_hook="first_queen_last",
    narrower="glencoe",
    aliases=("laggardlady", "laggard"),
    summary="As Intrigue, but a pile opens only while the Queens dealt outnumber the piles of its kind.",
)
GLENCOE = Variant(
    id="glencoe",
    name="Glencoe",
    base_rank=Rank.QUEEN,
    pile_kinds=(_FIVE, _SIX),
    open_pile=open_above_queen_of_own_suit,
    shuffle_hook="first_queen_last",
    summary="As Intrigue, but a Five or Six opens only the slot above a Queen of its own suit.",
)
SALIC_LAW = Variant(
    id="salic-law",
    name="Salic Law",
    base_rank=Rank.KING,
    pile_kinds=(PileKind("pile", tuple(range(Rank.ACE, Rank.JACK + 1))),),
    open_pile=open_above_dealt_king,
    shuffle_hook="first_king_last_queens_first",
    discard_rank=Rank.QUEEN,
    vacant_column_any_time=True,
    aliases=("saliclaw", "salic"),
    summary="Kings head the columns, Queens are discarded; build Aces up to Jacks above the Kings.",
)
FAERIE_QUEEN = Variant(
    id="faerie-queen",
    name="Faerie Queen",
    base_rank=Rank.KING,
    pile_kinds=(PileKind("pile", tuple(range(Rank.ACE, Rank.QUEEN + 1))),),
    open_pile=open_any_pile,
    shuffle_hook="first_king_last",
    build_down=True,
    aliases=("faeriequeen", "faerie", "fairy-queen"),
    summary="Kings head the columns; build Aces up to Queens; after the deal, build down on the tableau.",
)

VARIANTS: tuple[Variant, ...] = (INTRIGUE, LAGGARD_LADY, GLENCOE, SALIC_LAW, FAERIE_QUEEN)
GAME_IDS: tuple[str, ...] = tuple(v.id for v in VARIANTS)


def find_variant(name: str | Variant) -> Variant:
    """The variant called ``name`` (its id or an alias, any case, ``_`` or space for ``-``).

    >>> find_variant("Salic_Law").name
    'Salic Law'

    Raises:
        UnknownVariantError: naming the bad value and the known ids.
    """
    if isinstance(name, Variant):
        return name
    if isinstance(name, str):
        key = name.strip().lower().replace("_", "-").replace(" ", "-")
        for v in VARIANTS:
            if key == v.id or key in v.aliases:
                return v
    raise UnknownVariantError(f"unknown game {name!r}; expected one of: {', '.join(GAME_IDS)}")
