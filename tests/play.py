"""Random play through the checked engine, for property tests."""

from __future__ import annotations

from hypothesis import strategies as st

from intrigue import Game
from intrigue.cards import DECK_SIZE, RANK_OF
from intrigue.position import Position
from intrigue.variants import GAME_IDS, find_variant

UNBUILT = ("intrigue", "laggard-lady", "glencoe", "salic-law")
"""The games without building down: those the column test covers."""


def random_walk(game: Game, choices: list[int]) -> None:
    """Play ``choices[i] % len(legal moves)`` at each step, until the choices or the moves run out."""
    for choice in choices:
        legal = game.legal_moves()
        if not legal:
            return
        game.play(legal[choice % len(legal)])


def random_position(game: str, deal: int, mode: str, picks: list[int]) -> Position:
    """The position after playing the legal move ``pick % count`` for each pick."""
    position = Position.start(game, deal, mode)
    for pick in picks:
        moves = list(position.legal_moves())
        if not moves:
            break
        position = position.apply(moves[pick % len(moves)])
    return position


positions = st.builds(
    random_position,
    st.sampled_from(GAME_IDS),
    st.integers(1, 20000),
    st.sampled_from(("auto", "manual")),
    st.lists(st.integers(0, 1000), max_size=120),
)
"""Positions of every game and mode reached by random legal play."""


SHORTCUT_SETTINGS: list[dict[str, bool]] = [
    {},  # everything on
    {"safe_moves": False},
    {"symmetry": False},
    {"deal_first": False},
    {"natural_spots": False},
    {"lone_cards": False},
    {"first_in_line": False},
    {"digs": False},
    {"probe": False},
    {
        "safe_moves": False,
        "symmetry": False,
        "deal_first": False,
        "natural_spots": False,
        "lone_cards": False,
        "first_in_line": False,
        "digs": False,
        "probe": False,
    },
]
"""``solve`` keywords: every shortcut on, each one off, all of them off."""


@st.composite
def small_deals(
    draw: st.DrawFn,
    bases: tuple[int, int] = (1, 3),
    staircases: tuple[int, int] = (1, 3),
    steps: tuple[int, int] = (1, 4),
    modes: tuple[str, ...] = ("auto", "manual"),
    moves: int = 6,
    games: tuple[str, ...] = UNBUILT,
) -> Position:
    """A small deal (part of a pack) of one of ``games`` (by default those
    without building down), up to ``moves`` random moves in: ``bases`` bases
    and ``staircases`` staircases of ``steps`` cards (each a range), shuffled so
    that a base comes first.  Small enough, by default, for the engine-only
    brute force."""
    game = draw(st.sampled_from(games))
    variant = find_variant(game)
    pool = list(range(DECK_SIZE))
    order = []

    def take(rank: int) -> None:
        card = draw(st.sampled_from([c for c in pool if RANK_OF[c] == rank]))
        pool.remove(card)
        order.append(card)

    for _ in range(draw(st.integers(*bases))):
        take(variant.base_rank)
    for _ in range(draw(st.integers(*staircases))):
        staircase = draw(st.sampled_from([kind.staircase for kind in variant.pile_kinds]))
        for rank in staircase[: draw(st.integers(*steps))]:
            take(rank)
    rest = draw(st.permutations(order[1:]))
    mode = draw(st.sampled_from(modes))
    position = Position.from_order(game, [order[0], *rest], mode)
    for pick in draw(st.lists(st.integers(0, 50), max_size=moves)):
        legal = list(position.legal_moves())
        if not legal:
            break
        position = position.apply(legal[pick % len(legal)])
    return position
