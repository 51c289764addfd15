"""Random play through the checked engine, for property tests."""

from __future__ import annotations

from intrigue import Game


def random_walk(game: Game, choices: list[int]) -> None:
    """Play ``choices[i] % len(legal moves)`` at each step, until the choices or the moves run out."""
    for choice in choices:
        legal = game.legal_moves()
        if not legal:
            return
        game.play(legal[choice % len(legal)])
