"""The nested rollouts over the deal (manual mode): real wins, budgets, repeatability."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from intrigue.position import Position
from intrigue.solver import replay, solve
from intrigue.solver.rollouts import (
    ALPHA,
    ITERATIONS,
    LEVEL,
    Rollouts,
    _adapt,
    _Choice,
    _prior,
)
from intrigue.solver.search import NATIVE, _moves, _python_search, _search, tables_for
from intrigue.solver.state import SHORTCUTS, Search
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
    position: Position, search: Search = _search, safe_moves: bool = True, **nesting: int
) -> Rollouts:
    """Rollouts from ``position``; ``nesting``: ``level``, ``iterations``, ``seed``."""
    variant = position.variant
    return Rollouts(
        position, tables_for(variant), search, OPTIONS, safe_moves, None, None, **nesting
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
    native, python = runs(position), runs(position, _python_search)
    assert native.run(budget) == python.run(budget)
    assert (native.used, native.best) == (python.used, python.best)


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
