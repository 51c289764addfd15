"""Random play through the checked engine, for property tests."""

from __future__ import annotations

from hypothesis import strategies as st

from intrigue import Game
from intrigue.position import Position
from intrigue.variants import GAME_IDS


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
    {"probe": False},
    {
        "safe_moves": False,
        "symmetry": False,
        "deal_first": False,
        "natural_spots": False,
        "lone_cards": False,
        "probe": False,
    },
]
"""``solve`` keywords: every shortcut on, each one off, all of them off."""
