"""The frontier proof (intrigue.solver.frontier): sound, and stronger than the
column test from the start."""

from __future__ import annotations

import gzip
import json
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, given, settings

from intrigue.cards import DECK_SIZE, RANK_OF
from intrigue.position import Position
from intrigue.solver import solve
from intrigue.solver.frontier import WALK_COST, FrontierProof, Level, cuts_of, frontier_proof
from intrigue.solver.relaxation import blocked_column
from intrigue.solver.state import SHORTCUTS
from play import UNBUILT, small_deals
from test_solver import brute_force

DATA = Path(__file__).parents[1] / "docs" / "data"


@settings(max_examples=100, deadline=None)
@given(small_deals(bases=(2, 4), staircases=(3, 5), steps=(2, 5), modes=("manual",), moves=0))
def test_a_frontier_proof_means_lost(position: Position) -> None:
    proof = frontier_proof(position, max_nodes=500_000)
    # And with a starved column test tried again with more states, so that the
    # escalation runs on these small deals too.
    escalated = frontier_proof(position, max_nodes=500_000, test_states=50, max_test_states=6_250)
    truth = brute_force(position, 50_000)
    event(f"frontier: {proof.verdict}, escalated: {escalated.verdict}, truth: {truth}")
    if "lost" in (proof.verdict, escalated.verdict):
        levels = proof.levels if proof.verdict == "lost" else escalated.levels
        assert truth in ("lost", "unknown"), f"proved lost at {levels}, but won"
        assert solve(position, max_nodes=2_000_000).verdict != "won"


@pytest.mark.parametrize("game", UNBUILT)
def test_never_proves_a_published_win_lost(game: str) -> None:
    # Real deals: the frontier proof spends its budget on each of the first
    # manual wins of the published data and never calls one lost.
    with gzip.open(DATA / f"stats-{game}-manual.jsonl.gz", "rt") as f:
        won = [r["deal"] for r in map(json.loads, f) if r["verdict"] == "won"][:12]
    for deal in won:
        proof = frontier_proof(Position.start(game, deal, "manual"), max_nodes=200_000)
        assert proof.verdict == "unknown", (game, deal)
        assert proof.nodes <= 200_000 + WALK_COST  # a test gets only what is left


@pytest.mark.parametrize(("deal", "cut", "frontier"), [(7807, 44, 2), (3862, 9, 1)])
def test_proves_what_the_column_test_from_the_start_cannot(
    deal: int, cut: int, frontier: int
) -> None:
    """Glencoe 7807 and 3862 (manual), published lost by the exhaustive search
    (9 and 18 million positions): from the start every column and set of
    columns clears, or stays undecided, at a million states; from each first
    position before the base that ``cut`` cards precede, a set of columns is
    blocked (7807), or a pile kind's ranks (3862: the rank projection blocks
    its Fives from the first cut on, and from the start too: it is what
    ``solve`` finds first; without it the frontier proof needs six cuts)."""
    position = Position.start("glencoe", deal, "manual")
    assert blocked_column(position, max_states=1_000_000) is None
    proof = frontier_proof(position, max_nodes=5_000_000)
    assert proof.verdict == "lost"
    assert [(level.cut, level.frontier, level.left) for level in proof.levels][-1] == (
        cut, frontier, 0,
    )  # fmt: skip
    assert all(level.cut in cuts_of(position) for level in proof.levels)
    result = solve(position, max_nodes=5_000_000, frontier_only=True)
    assert (result.verdict, result.moves, result.nodes) == ("lost", None, proof.nodes)
    # Only what the walk saw: a lower bound of the most cards that can go up,
    # which the published record of the exhaustive search has exactly.
    with gzip.open(DATA / "stats-glencoe-manual.jsonl.gz", "rt") as f:
        exact = [r["best"] for r in map(json.loads, f) if r["deal"] == deal][-1]
    assert result.best == proof.best and 0 <= proof.best <= exact


def test_solve_gives_the_proof_its_shortcut_switches(monkeypatch: pytest.MonkeyPatch) -> None:
    """``solve(frontier_only=True)`` walks with the shortcuts it is given, as its
    other searches do (that a switch changes the walk is checked on Glencoe 5596
    in ``test_winrates``: 19 744 949 units without first in line, fewer with)."""
    import intrigue.solver.search as search_module

    given: list[Mapping[str, bool] | None] = []

    def spy(position: Position, **kwargs: Any) -> FrontierProof:
        given.append(kwargs.get("shortcuts"))
        return frontier_proof(position, **kwargs)

    monkeypatch.setattr(search_module, "frontier_proof", spy)
    position = Position.start("glencoe", 5304, "manual")
    result = solve(position, max_nodes=1_000_000, frontier_only=True, first_in_line=False,
                   lone_cards=False)  # fmt: skip
    off = {"first_in_line": False, "lone_cards": False}
    assert given == [{**dict.fromkeys(SHORTCUTS, True), **off}]
    direct = frontier_proof(position, max_nodes=1_000_000, shortcuts=off)
    assert (result.verdict, result.nodes) == (direct.verdict, direct.nodes) == ("lost", 257_802)


def test_a_starved_column_test_is_tried_again_with_more_states() -> None:
    """Glencoe 7807 (manual, lost): at 2 000 states a position, the column test
    leaves its frontier positions with relaxed games undecided, and the proof
    has to go down to the 73rd card; tried again with up to 250 000 states, it
    blocks them at the cut before the 45th, as the full test does."""
    position = Position.start("glencoe", 7807, "manual")
    starved = frontier_proof(
        position, max_nodes=5_000_000, test_states=2_000, max_test_states=2_000
    )
    escalated = frontier_proof(
        position, max_nodes=5_000_000, test_states=2_000, max_test_states=250_000
    )
    full = frontier_proof(
        position, max_nodes=5_000_000, test_states=250_000, max_test_states=250_000
    )
    assert starved.verdict == escalated.verdict == full.verdict == "lost"
    assert starved.levels[-1].cut == 73
    assert escalated.levels == full.levels and full.levels[-1] == Level(44, 2, 0)
    # What a record must name to reproduce each: the most states a position got.
    assert (starved.test_states, escalated.test_states, full.test_states) == (
        2_000, 250_000, 250_000,
    )  # fmt: skip


def test_the_python_column_test_gives_the_same_proof() -> None:
    # Glencoe 5304 (manual, lost): the Python relaxed games and end searches
    # visit the same states and positions as the compiled ones.
    position = Position.start("glencoe", 5304, "manual")
    proof = frontier_proof(position, max_nodes=1_000_000)
    assert proof.verdict == "lost"
    assert frontier_proof(position, max_nodes=1_000_000, native=False) == proof


def test_only_manual_deals_of_the_games_the_column_test_covers() -> None:
    for position in (
        Position.start("faerie-queen", 9997, "manual"),  # lost, but cards build down
        Position.start("glencoe", 7807, "auto"),
        Position.from_order(
            "intrigue", [c for c in range(DECK_SIZE) if RANK_OF[c] == 12][:1], "manual"
        ),
    ):
        assert frontier_proof(position) == frontier_proof(position, max_nodes=1)
        assert frontier_proof(position).verdict == "unknown"
        assert frontier_proof(position).nodes == 0


def test_limits_cut_it_short() -> None:
    position = Position.start("glencoe", 7807, "manual")
    assert frontier_proof(position, max_nodes=1_000).verdict == "unknown"
    past = time.monotonic() - 1
    assert frontier_proof(position, deadline=past).verdict == "unknown"
    seen: list[int] = []
    proof = frontier_proof(position, on_progress=seen.append)
    assert seen and seen[-1] == proof.nodes and seen == sorted(seen)
