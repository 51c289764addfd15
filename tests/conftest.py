"""Shared fixtures and factories for the test suite."""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, settings

from intrigue import Game

# CI runs the same properties with more examples; locally they stay quick.
settings.register_profile(
    "ci", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "dev", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture
def game_at() -> Callable[..., Game]:
    """``game_at(deal, moves="", game="intrigue", mode="auto")``: a game after some moves."""

    def make(deal: int, moves: str = "", game: str = "intrigue", mode: str = "auto") -> Game:
        g = Game(game, deal, mode)
        g.play_all(moves)
        return g

    return make
