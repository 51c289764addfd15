"""The compiled relaxed game of the column test (``solver/_relaxed.c``) against
the Python one (``RelaxedGame.clears``), which is its specification: from any
position, column by column and at any budget, both must visit the same number of
states and give the same answer."""

from __future__ import annotations

import os
import time
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from capped import needs_proc, run_capped
from intrigue.position import Position
from intrigue.solver.relaxation import NATIVE, TOGETHER, as_types, blocked_column, relaxed_games
from play import positions, small_deals

needs_relaxed = pytest.mark.skipif(not NATIVE, reason="the compiled relaxed game is not built")


def both(
    position: Position, budget: int, together: int = TOGETHER
) -> list[tuple[tuple[int, ...], object, object]]:
    from intrigue.solver import _relaxed

    out = []
    for numbers, game in relaxed_games(*as_types(position), together=together):
        out.append(
            (numbers, game.clears(budget, native=False), _relaxed.clears(game, budget, None))
        )
    return out


def test_the_compiled_relaxed_game_is_built() -> None:
    if not NATIVE:
        if os.environ.get("CI"):
            pytest.fail("the compiled relaxed game (intrigue.solver._relaxed) was not built in CI")
        pytest.skip("the compiled relaxed game is not built (no C compiler at install time)")


@needs_relaxed
@settings(max_examples=150, deadline=None)
@given(st.one_of(positions, small_deals()), st.integers(1, 5000))
def test_compiled_relaxed_game_visits_the_same_states(position: Position, budget: int) -> None:
    for numbers, python, native in both(position, budget):
        assert native == python, f"columns {numbers}"


@needs_relaxed
@pytest.mark.parametrize(
    ("game", "deal"),
    [("glencoe", 4204), ("laggard-lady", 2257), ("salic-law", 7228), ("salic-law", 3679)],
)
def test_compiled_relaxed_game_on_the_published_losses(game: str, deal: int) -> None:
    # Long columns, the room to park (Glencoe, Laggard Lady), Salic Law's parking
    # while dealing: each relaxed game the same, and the blocked column the same.
    position = Position.start(game, deal, "manual")
    for numbers, python, native in both(position, 60_000, together=1):
        assert native == python, f"columns {numbers}"
    assert blocked_column(position) == blocked_column(position, native=False) == (1,)


@needs_relaxed
def test_compiled_relaxed_game_of_a_pair_on_a_real_deal() -> None:
    # Intrigue 6724's column 4 (49 cards) with columns 5 and 1: each pair clears,
    # after the same number of states in both games.
    from intrigue.solver import _relaxed

    games = dict(relaxed_games(*as_types(Position.start("intrigue", 6724, "manual")), together=2))
    for numbers, states in (((4, 5), 107_733), ((1, 4), 33_023)):
        game = games[numbers]
        assert (
            game.clears(10**6, native=False) == _relaxed.clears(game, 10**6, None) == (True, states)
        )
    # Salic Law 2268's columns 2 and 3, which take cards from each other.
    games = dict(relaxed_games(*as_types(Position.start("salic-law", 2268, "manual")), together=2))
    game = games[(2, 3)]
    assert game.clears(10**6, native=False) == _relaxed.clears(game, 10**6, None) == (True, 3367)


@needs_relaxed
def test_a_deadline_cuts_the_compiled_game_short() -> None:
    from intrigue.solver import _relaxed

    numbers, game = next(relaxed_games(*as_types(Position.start("glencoe", 2257, "manual"))))
    assert numbers == (1,)
    assert _relaxed.clears(game, 10**9, time.monotonic() - 1) == (None, 4096)


@needs_relaxed
@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"prev": (0,) * 13}, ValueError),
        ({"stacks": [(22,)]}, ValueError),
        ({"rank_of": (14,) * 22}, ValueError),
        ({"suit_of": (4,) * 22}, ValueError),
        ({"after_bases_by_suit": (2, 2, 2)}, ValueError),
        ({"after_bases_by_suit": (2, 2, 2, 2), "deal_bases_by_suit": ()}, ValueError),
        ({"stacks": []}, ValueError),
        ({"stacks": [()] * 5}, ValueError),
        ({"deal": (0,)}, ValueError),
        ({"deal_columns": (1,) * 54}, ValueError),
        ({"deal_limits": ((1, 2, 3),) * 54}, ValueError),
        ({"deal_limits": ((1, 2),) * 53}, ValueError),
        (
            {
                "stacks": [(5,) * 60],
                "deal": (5,) * 60,
                "deal_columns": (0,) * 60,
                "deal_limits": ((8, 0),) * 60,
            },
            ValueError,
        ),
        ({"room_counts": [[0] * 14] * 11}, ValueError),
        ({"room_counts": [[0] * 14, [-1] * 14]}, ValueError),
        ({"free": None}, TypeError),
        ({"later": ["a"] * 22}, TypeError),
    ],
)
def test_a_malformed_game_raises(change: dict[str, object], error: type[Exception]) -> None:
    """The compiled game checks what it reads: bad input is an exception, never a crash."""
    from intrigue.solver import _relaxed

    _, game = next(relaxed_games(*as_types(Position.start("glencoe", 4204, "manual"))))
    fields = {name: getattr(game, name) for name in _FIELDS}
    bad = SimpleNamespace(**{**fields, **change})
    with pytest.raises(error):
        _relaxed.clears(bad, 1000, None)


_FIELDS = (
    "prev",
    "rank_of",
    "suit_of",
    "slots",
    "stacks",
    "deal",
    "deal_columns",
    "deal_limits",
    "on",
    "free",
    "later",
    "after_limits",
    "parking_back",
    "room_counts",
    "deal_bases_by_suit",
    "after_bases_by_suit",
)


@needs_relaxed
@needs_proc
def test_out_of_memory_leaves_the_relaxed_game_undecided() -> None:
    # Intrigue 1545's column 5 is undecided at 20 000 000 states (44 bytes a
    # key): within 64 MB more than the process has, the game stops undecided
    # as at its state limit (no proof, no MemoryError) and the next one runs.
    code = """
        from intrigue.position import Position
        from intrigue.solver import _relaxed
        from intrigue.solver.relaxation import as_types, relaxed_games

        position = Position.start("intrigue", 1545, "manual")
        game = next(g for numbers, g in relaxed_games(*as_types(position)) if numbers == (5,))
        cap_memory(64)
        cleared, states = _relaxed.clears(game, 10**8, None)
        print(cleared, 100_000 < states < 2_000_000)
        print(_relaxed.clears(game, 100_000, None))
    """
    done = run_capped(code, timeout=120)
    assert done.stdout.split("\n")[:2] == ["None True", "(None, 100000)"], done.stderr
