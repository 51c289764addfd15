"""The compiled projected game of the rank projection (``solver/_projected.c``)
against the Python one (``ProjectedGame.clears``), which is its specification:
for every kept set and opening rule, from any position and at any budget, both
must give the same answer after visiting the same number of states."""

from __future__ import annotations

import dataclasses
import os
import time
from types import ModuleType, SimpleNamespace

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from capped import needs_proc, run_capped
from intrigue.position import Position
from intrigue.solver.projection import ProjectedGame, kept_rank_sets, opening_rules
from intrigue.solver.relaxation import as_types
from play import random_position, small_deals

_projected: ModuleType | None
try:
    from intrigue.solver import _projected
except ImportError:  # pragma: no cover - no C compiler at install time
    _projected = None

needs_projected = pytest.mark.skipif(
    _projected is None, reason="the compiled projected game is not built"
)

FIVES = (5, 4, 3, 2, 1, 13)
SIXES = (6, 7, 8, 9, 10, 11)
TWO_KINDS = ("intrigue", "laggard-lady", "glencoe")


def native(game: object, budget: int, deadline: float | None = None) -> tuple[bool | None, int]:
    assert _projected is not None
    result: tuple[bool | None, int] = _projected.clears(game, budget, deadline)
    return result


def games(position: Position, *, vacant_any_time: bool = False) -> list[ProjectedGame]:
    """Every projected game of the position: each kept set under each opening rule."""
    tables, columns, on, stock, base_suits = as_types(position)
    if vacant_any_time:  # no game with two pile kinds has it: the rule, forced on
        tables = dataclasses.replace(tables, vacant_any_time=True)
    return [
        ProjectedGame(tables, columns, on, stock, base_suits, kept, rule)
        for rule in opening_rules(tables)
        for kept in kept_rank_sets(tables)
    ]


def test_the_compiled_projected_game_is_built() -> None:
    if _projected is None:
        if os.environ.get("CI"):
            pytest.fail(
                "the compiled projected game (intrigue.solver._projected) was not built in CI"
            )
        pytest.skip("the compiled projected game is not built (no C compiler at install time)")


budgets = st.one_of(st.integers(-2, 40), st.integers(1, 2500))

played = st.builds(
    random_position,
    st.sampled_from(TWO_KINDS),
    st.integers(1, 20000),
    st.just("manual"),
    st.lists(st.integers(0, 1000), max_size=120),
)
"""Whole deals of the games the projection covers, some way into random play."""


@needs_projected
@settings(max_examples=100, deadline=None)
@given(
    st.one_of(played, small_deals(bases=(1, 4), staircases=(1, 4), steps=(1, 5), moves=10)),
    budgets,
    st.booleans(),
)
def test_compiled_projected_game_visits_the_same_states(
    position: Position, budget: int, vacant_any_time: bool
) -> None:
    for game in games(position, vacant_any_time=vacant_any_time):
        python = game.clears(budget)
        event(f"{python[0]}")
        assert native(game, budget) == python, f"kept {game.kept}, rule {game.open_rule}"


@needs_projected
@settings(max_examples=60, deadline=None)
@given(small_deals(bases=(1, 4), staircases=(1, 4), steps=(2, 5), modes=("manual",), moves=0))
def test_compiled_projected_game_decides_small_deals_as_python(position: Position) -> None:
    # With no budget to speak of, each game runs to its end: every state of it, the same.
    for vacant_any_time in (False, True):
        for game in games(position, vacant_any_time=vacant_any_time):
            python = game.clears(10**9)
            event(f"{python[0]}")
            assert native(game, 10**9) == python


@needs_projected
@settings(max_examples=40, deadline=None)
@given(small_deals(bases=(1, 3), staircases=(1, 3), steps=(1, 4), moves=4), budgets)
def test_compiled_projected_game_with_many_columns(position: Position, budget: int) -> None:
    # More than eight columns (no real deal has them): the keys are sorted another way.
    tables, columns, on, stock, base_suits = as_types(position)
    wide = [*columns, *columns, *([] for _ in range(8))]
    for rule in opening_rules(tables):
        for kept in kept_rank_sets(tables):
            game = ProjectedGame(tables, wide, on, stock, base_suits, kept, rule)
            assert native(game, budget) == game.clears(budget)


@needs_projected
@pytest.mark.parametrize(
    ("game", "deal", "kept", "rule", "expected"),
    [
        # the Fives' staircase cannot be completed (tests/test_projection.py)
        ("intrigue", 6812, FIVES, 0, (False, 20_881)),
        # by suit, with stacks of more than 256 kinds: the keys widen to two bytes
        ("glencoe", 1150, FIVES, 2, (False, 291_042)),
    ],
)
def test_compiled_projected_game_on_real_deals(
    game: str, deal: int, kept: tuple[int, ...], rule: int, expected: tuple[bool, int]
) -> None:
    projected = ProjectedGame(*as_types(Position.start(game, deal, "manual")), kept, rule)
    assert native(projected, 10**7) == expected
    assert projected.clears(10**7) == expected


@needs_projected
@pytest.mark.parametrize("budget", [-(10**30), -1, 0, 1, 2, 3, 4096, 20_880, 20_881, 10**30])
def test_every_budget_is_the_pythons(budget: int) -> None:
    position = Position.start("intrigue", 6812, "manual")
    game = ProjectedGame(*as_types(position), FIVES, 0)
    assert native(game, budget) == game.clears(budget)


@needs_projected
def test_the_other_games_of_real_deals_at_a_budget() -> None:
    for game_id, deal in (("laggard-lady", 9476), ("glencoe", 4204), ("intrigue", 6724)):
        for game in games(Position.start(game_id, deal, "manual")):
            assert native(game, 30_000) == game.clears(30_000), (game_id, game.kept, game.open_rule)


@needs_projected
def test_a_deadline_cuts_the_compiled_game_short() -> None:
    position = Position.start("glencoe", 1150, "manual")  # blocked in 291 042 states
    game = ProjectedGame(*as_types(position), FIVES, 2)
    started = time.monotonic()
    assert native(game, 10**9, started - 1) == (None, 4096)
    assert time.monotonic() - started < 1
    assert native(game, 10**9, started + 10**6) == (False, 291_042)


@needs_projected
def test_a_game_cleared_at_once_visits_no_state() -> None:
    position = Position.start("intrigue", 6812, "manual")
    game = ProjectedGame(*as_types(position), FIVES, 0)
    bare = SimpleNamespace(**{**_fields(game), "stacks": ((), ()), "events": ()})
    bare.bases, bare.suit_bases = bare.bases[:1], bare.suit_bases[:1]
    assert native(bare, 10) == (True, 0)


def _fields(game: ProjectedGame) -> dict[str, object]:
    tables = game.tables
    return {
        "tables": SimpleNamespace(
            prev=tables.prev,
            rank_of_type=tables.rank_of_type,
            suit_of_type=tables.suit_of_type,
            slots=tables.slots,
            vacant_any_time=tables.vacant_any_time,
        ),
        "stacks": game.stacks,
        "events": game.events,
        "bases": game.bases,
        "suit_bases": game.suit_bases,
        "start_on": game.start_on,
        "total": game.total,
        "kept": game.kept,
        "open_rule": game.open_rule,
    }


@needs_projected
@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"stacks": ((22,),)}, ValueError),
        ({"stacks": ((0,),)}, ValueError),
        ({"stacks": (("a",),)}, TypeError),
        ({"stacks": None}, TypeError),
        ({"stacks": ((5,),) * 33}, ValueError),
        ({"stacks": ((5,) * 5000,)}, ValueError),
        ({"stacks": ()}, ValueError),
        ({"events": (0,)}, ValueError),
        ({"events": (-2,)}, ValueError),
        ({"events": (5,) * 300}, ValueError),
        ({"events": (-1,) * 40}, ValueError),
        ({"events": (5.0,)}, TypeError),
        ({"bases": [8]}, ValueError),
        ({"bases": [-1] * 56}, ValueError),
        ({"suit_bases": [(2, 2, 2)] * 56}, ValueError),
        ({"suit_bases": [(2, 2, 2, 2)] * 55}, ValueError),
        ({"start_on": (0,) * 21}, ValueError),
        ({"start_on": (-1,) * 22}, ValueError),
        ({"total": (10**20,) * 22}, ValueError),
        ({"kept": (14,)}, ValueError),
        ({"kept": None}, TypeError),
        ({"open_rule": 3}, ValueError),
        ({"open_rule": "0"}, TypeError),
        ({"prev": (0,) * 13}, ValueError),
        ({"prev": (-2,) * 14}, ValueError),
        ({"rank_of_type": (14,) * 22}, ValueError),
        ({"suit_of_type": (4,) * 22}, ValueError),
        ({"slots": (-1,) * 14}, ValueError),
        ({"vacant_any_time": None, "tables": None}, AttributeError),
    ],
)
def test_a_malformed_game_raises(change: dict[str, object], error: type[Exception]) -> None:
    """The compiled game checks what it reads: bad input is an exception, never a crash."""
    position = Position.start("intrigue", 6812, "manual")
    fields = _fields(ProjectedGame(*as_types(position), FIVES, 0))
    table_fields = ("prev", "rank_of_type", "suit_of_type", "slots", "vacant_any_time")
    tables = {**vars(fields["tables"]), **{k: v for k, v in change.items() if k in table_fields}}
    game = {**fields, **{k: v for k, v in change.items() if k not in table_fields}}
    if game["tables"] is not None:
        game["tables"] = SimpleNamespace(**tables)
    with pytest.raises(error):
        native(SimpleNamespace(**game), 1000)


@needs_projected
@pytest.mark.parametrize(("budget", "deadline"), [(1.5, None), ("10", None), (10, "soon")])
def test_bad_limits_raise(budget: object, deadline: object) -> None:
    assert _projected is not None
    game = ProjectedGame(*as_types(Position.start("intrigue", 6812, "manual")), FIVES, 0)
    with pytest.raises(TypeError):
        _projected.clears(game, budget, deadline)


@needs_projected
@needs_proc
def test_out_of_memory_cuts_the_game_short() -> None:
    # Laggard Lady 9476's Sixes run to 3.5 million states (some 200 MB): within
    # 64 MB more than it has, the game stops undecided as at its state limit
    # (memory is a limit: no proof, no MemoryError), frees everything and goes on.
    code = """
        from intrigue.position import Position
        from intrigue.solver import _projected
        from intrigue.solver.projection import ProjectedGame
        from intrigue.solver.relaxation import as_types

        position = Position.start("laggard-lady", 9476, "manual")
        game = ProjectedGame(*as_types(position), (6, 7, 8, 9, 10, 11), 0)
        cap_memory(64)
        cleared, states = _projected.clears(game, 10**8, None)
        print(cleared, 100_000 < states < 3_000_000)
        for _ in range(20):
            assert _projected.clears(game, 100_000, None) == (None, 100_000)
        print("ok")
    """
    done = run_capped(code, timeout=120)
    assert done.stdout.split() == ["None", "True", "ok"], done.stderr
