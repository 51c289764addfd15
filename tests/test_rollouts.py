"""The nested rollouts over the deal (manual mode): real wins, budgets, repeatability."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from intrigue.position import Position
from intrigue.solver import replay, solve
from intrigue.solver.dfs import NATIVE, Verdict, python_search, search
from intrigue.solver.rollouts import (
    ALPHA,
    END_NODES,
    ITERATIONS,
    LEVEL,
    Rollouts,
    _adapt,
    _Choice,
    _prior,
)
from intrigue.solver.search import _moves, tables_for
from intrigue.solver.state import (
    COLUMN_MOVE,
    SHORTCUTS,
    Search,
    SearchState,
    op_code,
    play_tracked,
    stock_indices,
)
from intrigue.variants import GAME_IDS
from play import random_position

needs_core = pytest.mark.skipif(not NATIVE, reason="the compiled search is not built")
OPTIONS = dict.fromkeys(SHORTCUTS, True)

manual_positions = st.builds(
    random_position,
    st.sampled_from(GAME_IDS),
    st.integers(1, 20000),
    st.just("manual"),
    st.lists(st.integers(0, 1000), max_size=80),
)


def runs(
    position: Position,
    search: Search = search,
    safe_moves: bool = True,
    compiled: bool = True,
    on_progress: Callable[[int], None] | None = None,
    deadline: float | None = None,
    **nesting: int,
) -> Rollouts:
    """Rollouts from ``position``; ``nesting``: ``level``, ``iterations``, ``seed``.
    ``compiled``: played by ``_core.rollouts`` (where built), else in Python over ``search``."""
    variant = position.variant
    return Rollouts(
        position,
        tables_for(variant),
        search,
        OPTIONS,
        safe_moves,
        deadline,
        on_progress,
        compiled=compiled,
        **nesting,
    )


@needs_core
@pytest.mark.parametrize(
    ("game", "deal"),
    [
        # Unknown to the plain search and every other probe within 1 000 000
        # positions (Salic Law 6146 even within 24 000 000); the rollouts win
        # both with a few hundred thousand (docs/solver.md, "Rollouts over the deal").
        ("salic-law", 6146),
        ("intrigue", 5881),
    ],
)
def test_rollouts_win_a_deal_the_other_probes_do_not(game: str, deal: int) -> None:
    position = Position.start(game, deal, "manual")
    nodes = 1_000_000
    assert solve(position, max_nodes=nodes, probe_rollouts=False).verdict == "unknown"
    seen: list[int] = []
    result = solve(position, max_nodes=nodes, on_progress=seen.append)
    assert result.verdict == "won" and result.moves is not None
    assert result.nodes <= nodes
    assert seen == sorted(seen) and seen[-1] == result.nodes
    assert replay(position, result.moves).is_won()


@needs_core
def test_the_rollouts_alone_win_or_stay_unknown_and_follow_their_seed() -> None:
    """``solve(rollouts_only=True)`` never says "lost": Glencoe 915 (manual) is
    lost, which the exhaustive search proves within the same limit."""
    lost = Position.start("glencoe", 915, "manual")
    assert solve(lost, max_nodes=60_000, probe=False).verdict == "lost"
    alone = solve(lost, max_nodes=60_000, rollouts_only=True)
    assert (alone.verdict, alone.moves) == ("unknown", None) and alone.nodes <= 60_000
    won = Position.start("intrigue", 222, "manual")
    by_seed = {
        seed: solve(won, max_nodes=100_000, rollouts_only=True, seed=seed) for seed in (1, 2)
    }
    assert {r.verdict for r in by_seed.values()} == {"won"}
    assert by_seed[1].nodes != by_seed[2].nodes  # other draws, another line
    for result in by_seed.values():
        assert result.moves is not None and replay(won, result.moves).is_won()
    # With nothing left to deal there is nothing to roll out: the search runs as usual.
    auto = Position.start("intrigue", 2)
    assert solve(auto, rollouts_only=True).to_dict() | {"seconds": 0} == solve(auto).to_dict() | {
        "seconds": 0
    }


@needs_core
def test_a_solve_with_rollouts_is_repeatable() -> None:
    position = Position.start("salic-law", 249, "manual")
    first = solve(position, max_nodes=1_000_000)
    again = solve(position, max_nodes=1_000_000)
    assert first.verdict == "won"
    assert (first.moves, first.nodes, first.best) == (again.moves, again.nodes, again.best)


@settings(max_examples=30, deadline=None)
@given(
    manual_positions,
    st.integers(1, 30_000),
    st.booleans(),
    st.sampled_from([(LEVEL, ITERATIONS), (1, 3), (2, 5), (4, 2)]),
    st.integers(0, 2**32),
)
def test_rollouts_stay_within_budget_and_their_wins_replay(
    position: Position, budget: int, safe_moves: bool, nesting: tuple[int, int], seed: int
) -> None:
    level, iterations = nesting
    rollouts = runs(position, safe_moves=safe_moves, level=level, iterations=iterations, seed=seed)
    ops = rollouts.run(budget)
    assert rollouts.used <= budget
    assert 0 <= rollouts.best <= len(position.all_card_ids())
    if ops is not None:
        assert replay(position, _moves(ops)).is_won()


@needs_core
@settings(max_examples=15, deadline=None)
@given(manual_positions, st.integers(1, 20_000))
def test_rollouts_compiled_and_python_agree(position: Position, budget: int) -> None:
    """The compiled search expands the same positions as the Python one, so a
    seeded run of rollouts makes the same choices over either."""
    native = runs(position, compiled=False)
    python = runs(position, python_search, compiled=False)
    assert native.run(budget) == python.run(budget)
    assert (native.used, native.best) == (python.used, python.best)


@needs_core
@settings(max_examples=40, deadline=None)
@given(
    manual_positions,
    st.integers(1, 60_000),
    st.booleans(),
    st.sampled_from([(LEVEL, ITERATIONS), (1, 3), (2, 5), (4, 2)]),
    st.integers(0, 2**40),
    st.sampled_from([END_NODES, 1, 40, 5_000]),
)
def test_compiled_rollouts_draw_what_the_python_ones_draw(
    position: Position,
    budget: int,
    safe_moves: bool,
    nesting: tuple[int, int],
    seed: int,
    end_nodes: int,
) -> None:
    """``_core.rollouts`` plays the Python runs draw for draw: the same line, the
    same positions spent and cards up, the same progress reports, and the
    generator left in the same state, run after run, whatever the end searches'
    size."""
    level, iterations = nesting
    reports: dict[bool, list[int]] = {True: [], False: []}
    both = {
        compiled: runs(
            position,
            safe_moves=safe_moves,
            compiled=compiled,
            on_progress=reports[compiled].append,
            level=level,
            iterations=iterations,
            seed=seed,
            end_nodes=end_nodes,
        )
        for compiled in (True, False)
    }
    for part in (budget, budget // 2 + 1):
        lines = {compiled: r.run(part) for compiled, r in both.items()}
        assert lines[True] == lines[False]
        assert (both[True].used, both[True].best) == (both[False].used, both[False].best)
        assert both[True].rng.getstate() == both[False].rng.getstate()
    assert reports[True] == reports[False]


@needs_core
def test_compiled_rollouts_win_the_published_deal_with_the_same_line() -> None:
    """Salic Law 921 (manual), unknown to every full solve, won by the rollouts
    alone with seed 101 in 542 141 positions (docs/solver.md, "Rollouts over
    the deal"; 533 466 since the first-in-line rule, 277 847 since the digs): the
    Python runs draw that line too."""
    position = Position.start("salic-law", 921, "manual")
    compiled = runs(position, seed=101)
    line = compiled.run(2_000_000)
    assert line is not None and compiled.used == 277_847
    assert replay(position, _moves(line)).is_won()
    python = runs(position, seed=101, compiled=False)
    assert python.run(2_000_000) == line and python.used == compiled.used


@needs_core
def test_compiled_rollouts_honour_the_deadline_and_reject_malformed_input() -> None:
    position = Position.start("salic-law", 6571, "manual")
    late = runs(position, deadline=time.monotonic() - 1)
    assert late.run(10_000_000) is None and late.used == 0
    from intrigue.solver import _core

    good = runs(position)
    words = good.rng.getstate()[1]
    args = (good.state, good.origins, words, 0, 1000, 0, 1, 2, 500, 100, 200, 2.0, 1.0)
    assert _core.rollouts(*args)[0] is None
    for i, bad, match in [
        (2, words[:-1], "rng_state has 624 entries"),
        (2, (*words[:-1], 999), "out of range"),
        (3, -1, "expected used >= 0"),
        (4, 0, "budget 0"),
        (6, 99, "level"),
        (9, 0, "max_moves"),
    ]:
        with pytest.raises(ValueError, match=match):
            _core.rollouts(*args[:i], bad, *args[i + 1 :])
    with pytest.raises(ValueError, match="origins"):
        _core.rollouts(good.state, [[0]], *args[2:])


def test_a_run_follows_its_seed() -> None:
    """Different seeds draw different rollouts; the same seed draws the same."""
    position = Position.start("intrigue", 8296, "manual")  # no win within this budget

    def run(seed: int) -> tuple[int, int]:
        rollouts = runs(position, level=2, iterations=3, seed=seed)
        assert rollouts.run(40_000) is None
        return rollouts.used, rollouts.best

    assert run(1) == run(1)
    assert len({run(seed) for seed in range(1, 6)}) > 1


def test_adapting_makes_the_chosen_names_likelier() -> None:
    send, deal, park = 3 * 7, 3 * 9 + 1, 3 * 4 + 2
    policy = {deal: 0.5}
    choice = _Choice(deal, (send, deal, park))

    def odds(p: dict[int, float]) -> list[float]:
        weights = [math.exp(p.get(n, _prior(n))) for n in choice.names]
        return [w / sum(weights) for w in weights]

    before = odds(policy)
    adapted = _adapt(policy, [choice])
    after = odds(adapted)
    assert after[1] > before[1]
    assert adapted[deal] == pytest.approx(0.5 + ALPHA * (1 - before[1]))
    assert adapted[send] == pytest.approx(_prior(send) - ALPHA * before[0])
    assert adapted[park] == pytest.approx(_prior(park) - ALPHA * before[2])
    assert policy == {deal: 0.5}  # the old policy is left as it was


def test_a_rollout_moves_a_card_between_columns_once_between_deals() -> None:
    """Salic Law 3817 (manual): once the policy had learned to park a card, the
    rollouts shuttled it between vacant columns until they ran out of moves,
    and most ended mid-deal.  Now no card moves between columns twice with no
    deal or pile move between, and every rollout deals the whole pack."""
    position = Position.start("salic-law", 3817, "manual")
    ends: list[tuple[int, ...]] = []

    def watched(state: SearchState, *args: Any) -> tuple[Verdict, int, int]:
        assert state.dealt == state.n_order
        ends.append(tuple(state.log))
        return search(state, *args)

    rollouts = runs(position, watched, compiled=False, seed=1)
    assert rollouts.run(200_000) is None
    assert len(ends) > 100
    parks = 0
    for ops in ends:
        state = SearchState(position, tables_for(position.variant), **OPTIONS)
        origins = stock_indices(position)
        moved: set[int] = set()
        for op in ops:
            code = op_code(op)
            if code >= COLUMN_MOVE:
                card = origins[(code - COLUMN_MOVE) // 8][-1]
                assert card not in moved
                moved.add(card)
                parks += 1
            else:
                moved.clear()
            play_tracked(state, origins, code)
    assert parks > 0  # the rollouts do park


def test_end_nodes_must_be_positive() -> None:
    position = Position.start("intrigue", 222, "manual")
    with pytest.raises(ValueError, match="end_nodes must be positive, not 0"):
        runs(position, end_nodes=0)
