"""The compiled search (``solver/_core.c``) against the pure-Python one.

The two are the same search: from any position, with any shortcut on or off and
any node budget, they must expand exactly the same positions -- the same verdict,
node count, most cards up, and winning line.  That makes the Python search (whose
move generator is checked against the engine in ``test_solver.py``) the
specification of the compiled one.
"""

from __future__ import annotations

import os
import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

from capped import needs_proc, run_capped
from intrigue.position import Position
from intrigue.solver import solve
from intrigue.solver.dfs import NATIVE
from intrigue.variants import GAME_IDS
from play import SHORTCUT_SETTINGS, positions

needs_core = pytest.mark.skipif(not NATIVE, reason="the compiled search is not built")


def both(position: Position, **options: object) -> tuple[object, object]:
    python = solve(position, native=False, **options)  # type: ignore[arg-type]
    native = solve(position, **options)  # type: ignore[arg-type]
    fields = ("verdict", "nodes", "best", "moves")
    return tuple(getattr(python, f) for f in fields), tuple(getattr(native, f) for f in fields)


def test_the_compiled_search_is_built() -> None:
    if not NATIVE:
        if os.environ.get("CI"):
            pytest.fail("the compiled search (intrigue.solver._core) was not built in CI")
        pytest.skip("the compiled search is not built (no C compiler at install time)")


@needs_core
@given(positions, st.sampled_from(SHORTCUT_SETTINGS), st.integers(1, 3000))
def test_compiled_search_expands_the_same_positions(
    position: Position, flags: dict[str, bool], budget: int
) -> None:
    python, native = both(position, max_nodes=budget, **flags)
    assert native == python


@needs_core
@pytest.mark.parametrize("game", GAME_IDS)
@pytest.mark.parametrize("mode", ["auto", "manual"])
def test_compiled_search_on_real_deals(game: str, mode: str) -> None:
    for deal in (1, 2, 3, 43, 184, 4014):
        python, native = both(Position.start(game, deal, mode), max_nodes=20_000)
        assert native == python, (game, deal, mode)


@needs_core
def test_progress_and_errors_pass_through() -> None:
    position = Position.start("faerie-queen", 43)  # lost after ~126 000 positions
    seen: list[int] = []
    result = solve(position, max_nodes=20_000, on_progress=seen.append)
    assert result.verdict == "unknown" and result.nodes == 20_000
    assert seen == sorted(seen) and seen[0] == 4096 and seen[-1] == 20_000

    class Stop(Exception):
        pass

    def stop(nodes: int) -> None:
        raise Stop(nodes)

    with pytest.raises(Stop):
        solve(position, on_progress=stop)


@needs_core
def test_searches_in_threads_agree() -> None:
    """The compiled search lets go of the GIL; two at once must not disturb each other."""
    deals = [43, 47, 1, 2]
    alone = {d: solve(Position.start("faerie-queen", d), max_nodes=60_000) for d in deals}
    together: dict[int, object] = {}

    def run(deal: int) -> None:
        together[deal] = solve(Position.start("faerie-queen", deal), max_nodes=60_000)

    threads = [threading.Thread(target=run, args=(d,)) for d in deals]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for d in deals:
        a, b = alone[d], together[d]
        assert (a.verdict, a.nodes, a.moves) == (b.verdict, b.nodes, b.moves)  # type: ignore[attr-defined]


@needs_core
@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"need": (1000,) * 22}, ValueError),
        ({"rank_of_type": (40,) * 22}, ValueError),
        ({"dealt": -5}, ValueError),
        ({"deal_effect": (-1000,) * 103}, ValueError),
        ({"deal_effect": (5, 5)}, ValueError),
        ({"cols": ["abc"]}, ValueError),
        ({"cols": [bytes([13]) * 60] * 2}, ValueError),
        ({"cnt": None}, TypeError),
        ({"tables": None}, AttributeError),
    ],
)
def test_a_malformed_state_raises(change: dict[str, object], error: type[Exception]) -> None:
    """The compiled search checks what it reads: a bad state is an exception, never a crash."""
    from types import SimpleNamespace

    from intrigue.solver import _core
    from intrigue.solver.search import tables_for
    from intrigue.solver.state import SearchState

    position = Position.start("faerie-queen", 1, "manual")
    state = SearchState(position, tables_for(position.variant))
    fields = {name: getattr(state, name) for name in vars(state)}
    good = SimpleNamespace(**fields)
    for run in (_core.search, _core.layered):
        assert run(good, 100)[0] in ("won", "lost", "unknown")
        with pytest.raises(error):
            run(SimpleNamespace(**{**fields, **change}), 100)


@needs_core
@needs_proc
def test_a_search_that_outgrows_memory_stops_and_says_so() -> None:
    # Faerie Queen 6383's manual search runs for hundreds of millions of
    # positions (40 bytes each in the table).  Within 110 MB more than the
    # process has, the table cannot double from 2^20 to 2^21 slots while the old
    # one is held, but can grow by half: the search must use that, then stop
    # with "memory" (no MemoryError), free everything, and the next search run.
    code = """
        from intrigue.position import Position
        from intrigue.solver import _core, solve
        from intrigue.solver.dfs import OutOfMemory, search
        from intrigue.solver.rules import tables_for
        from intrigue.solver.state import SearchState

        position = Position.start("faerie-queen", 6383, "manual")
        state = SearchState(position, tables_for(position.variant))
        cap_memory(110)
        verdict, nodes, best, line = _core.search(state, 10**9)
        print(verdict, 0.8 * 2**20 < nodes < 0.8 * 2**21, best, line)
        try:
            search(state, 10**9, None, None, True)
        except OutOfMemory as full:
            print("OutOfMemory", full.nodes == nodes, full.best == best)
        print(_core.search(state, 100_000)[:2])
        result = solve(position, max_nodes=10**9, probe=False)
        print(result.verdict, result.memory_full, result.nodes == nodes)
    """
    done = run_capped(code, timeout=300)
    assert done.stdout.split("\n")[:4] == [
        "memory True 35 None",
        "OutOfMemory True True",
        "('unknown', 100000)",
        "unknown True True",
    ], done.stderr
