"""The search by layers (``dfs.layered_search``, ``_core.layered``).

It is the exhaustive search in another order: the same moves, safe moves and
keys, expanded layer by layer of progress (cards dealt plus cards up).  So on
a lost position it must expand exactly the positions the depth-first search
expands (same count, same most cards up), it must never call a position lost
that the depth-first search can win, and every win it returns must replay
through the engine (``solve`` replays it, and raises if it does not).
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from capped import needs_proc, run_capped
from intrigue.cli import main
from intrigue.errors import CheckpointError
from intrigue.position import Position
from intrigue.solver import solve
from intrigue.solver.dfs import NATIVE, kept_layer, kept_layers, layered_search, search
from intrigue.solver.rules import tables_for
from intrigue.solver.state import SearchState, op_code
from intrigue.stats import _retry, run_stats
from play import SHORTCUT_SETTINGS, positions, small_deals
from test_solver import brute_force

needs_core = pytest.mark.skipif(not NATIVE, reason="the compiled search is not built")

EXACT = {"probe": False, "column_test": False, "rank_projection": False}
"""``solve`` keywords: the exhaustive search alone, so that only it decides."""


def state_of(position: Position, **options: bool) -> SearchState:
    return SearchState(position, tables_for(position.variant), **options)


def kept_state(position: Position) -> SearchState:
    """The searches that the kept-search and entries-kept tests stop and resume,
    without digs, whose figures they assert: Glencoe 6848 (manual) is then lost after
    163 218 positions, room for the stops below."""
    return state_of(position, digs=False)


@needs_core
@given(positions, st.sampled_from(SHORTCUT_SETTINGS), st.integers(1, 3000))
def test_it_expands_the_positions_of_the_depth_first_search(
    position: Position, flags: dict[str, bool], budget: int
) -> None:
    flags = {**flags, **EXACT}
    depth_first = solve(position, max_nodes=budget, **flags)  # type: ignore[arg-type]
    by_layers = solve(position, max_nodes=budget, layered=True, **flags)  # type: ignore[arg-type]
    assert (depth_first.verdict == "lost") == (by_layers.verdict == "lost")
    if depth_first.verdict == "lost":
        assert (by_layers.nodes, by_layers.best) == (depth_first.nodes, depth_first.best)
    if "unknown" not in (depth_first.verdict, by_layers.verdict):
        assert by_layers.verdict == depth_first.verdict
    if by_layers.verdict == "unknown":
        assert by_layers.nodes == max(budget, 2)  # the root, and at least one move
    if by_layers.verdict == "won":
        # solve replayed the line through the engine; it ends with every card up
        assert by_layers.moves is not None and by_layers.best == state_of(position).goal


@needs_core
@given(
    positions, st.sampled_from(SHORTCUT_SETTINGS), st.integers(1, 3000), st.sampled_from([1, 2, 5])
)
def test_a_layer_expanded_in_parts_expands_the_same_positions(
    position: Position, flags: dict[str, bool], budget: int, part_records: int
) -> None:
    # Every layer with more than part_records positions waiting is split by
    # class (cards up by type, cards dealt), which no move within a layer
    # changes: the same positions as the layer expanded whole.
    options = {key: value for key, value in flags.items() if key != "probe"}
    safe = options.pop("safe_moves", True)
    whole = layered_search(state_of(position, **options), budget, None, None, safe)
    state = state_of(position, **options)
    parts = layered_search(state, budget, None, None, safe, part_records=part_records)
    if "unknown" not in (whole[0], parts[0]):
        assert parts[0] == whole[0]
    if whole[0] == "lost":
        assert parts == whole
    if parts[0] == "unknown":
        assert parts[1] == max(budget, 2)
    if parts[0] == "won":
        assert state.on == state.goal  # its line, played on the state


@needs_core
def test_parts_must_hold_a_record() -> None:
    from intrigue.solver import _core

    state = state_of(Position.start("faerie-queen", 1, "manual"))
    with pytest.raises(ValueError, match="part_records: 0 is not a positive number"):
        _core.layered(state, 100, part_records=0)


@needs_core
@settings(max_examples=150)
@given(small_deals())
def test_on_small_deals_it_agrees_with_the_brute_force(position: Position) -> None:
    truth = brute_force(position)
    result = solve(position, max_nodes=None, layered=True, **EXACT)  # type: ignore[arg-type]
    assert result.verdict == truth
    if truth == "won":
        assert result.moves is not None  # replayed by solve


@needs_core
@pytest.mark.parametrize(("game", "deal"), [("faerie-queen", 7228), ("glencoe", 915)])
def test_a_real_lost_deal_expands_the_same_positions(game: str, deal: int) -> None:
    position = Position.start(game, deal, "manual")
    depth_first = search(state_of(position), None, None, None, True)
    by_layers = layered_search(state_of(position), None, None, None, True)
    assert depth_first[0] == "lost"
    assert by_layers == depth_first
    # in parts: split as each layer's file is written (at 64 parts' worth),
    # repeats weeded out of the parts (from 8 parts' worth), split again when read
    for part_records in (1, 3, 100):
        in_parts = layered_search(
            state_of(position), None, None, None, True, part_records=part_records
        )
        assert in_parts == depth_first, part_records


@needs_core
def test_a_win_found_by_layers_is_a_real_line() -> None:
    # Won auto deals (the depth-first search wins them) are small searches:
    # the layers get to the end of each.
    won = {"intrigue": (1, 2, 3), "glencoe": (3, 4), "salic-law": (1, 5), "faerie-queen": (9, 1)}
    for game, deals in won.items():
        for deal in deals:
            position = Position.start(game, deal)
            state = state_of(position)
            verdict, _, best = layered_search(state, 2_000_000, None, None, True)
            assert verdict == "won" and best == state.goal, (game, deal)
            result = solve(position, max_nodes=2_000_000, layered=True, **EXACT)  # type: ignore[arg-type]
            assert result.verdict == "won" and result.moves is not None


@needs_core
def test_a_win_without_its_way_back_is_looked_for_depth_first() -> None:
    # With none of the way back kept (trace=False), a win comes back without
    # a line, and layered_search finds the line depth first.
    from intrigue.solver import _core

    position = Position.start("faerie-queen", 9)
    verdict, nodes, best, ops = _core.layered(state_of(position), 2_000_000, trace=False)
    assert (verdict, ops) == ("won_untraced", None) and best == state_of(position).goal
    state = state_of(position)
    found = layered_search(state, 2_000_000, None, None, True, trace=False)
    assert found[0] == "won" and found[1] > nodes
    assert state.on == state.goal  # the line is played on the state
    # with too little left of the limit to find it again: unknown, never an unproved win
    short_state = state_of(position)
    short = layered_search(short_state, nodes + 1, None, None, True, trace=False)
    assert short[0] == "unknown" and short[1] > nodes
    assert short_state.log == [] and short_state.on == state_of(position).on  # left as it was


@needs_core
@pytest.mark.parametrize("max_entries", [3, 30, 300])
def test_a_win_past_the_entries_kept_is_searched_again_from_where_they_stop(
    max_entries: int,
) -> None:
    # Where the disk runs short the layers stop keeping their entries; a win
    # found after that comes back with the line to the last position on its
    # way that got one, and layered_search searches by layers again from
    # there (each search keeping max_entries), until the line is whole.
    from intrigue.solver import _core

    start = Position.start("intrigue", 1, "manual")
    # Without digs, for the position and the figures below (digs find another line).
    line = solve(start, max_nodes=2_000_000, digs=False).moves
    assert line is not None
    position = start
    for move in line[:-60]:  # 60 moves from the end: 7 623 positions by layers
        position = position.apply(move)

    def fresh() -> SearchState:
        return kept_state(position)

    whole = _core.layered(fresh(), 100_000)
    assert whole[0] == "won" and whole[3]
    verdict, nodes, best, ops = _core.layered(fresh(), 100_000, max_entries=max_entries)
    assert verdict == "won_untraced" and ops  # the line to a position past the root
    assert (nodes, best) == (whole[1], fresh().goal)  # the same search
    part, root = fresh(), fresh()
    for op in ops:
        part.play(op_code(op))
    assert part.on < part.goal and part.dealt + part.on > root.dealt + root.on
    state = fresh()
    found = layered_search(state, 100_000, None, None, True, max_entries=max_entries)
    assert found[0] == "won" and found[1] > nodes
    assert state.log[: len(ops)] == ops  # through that position, then on to the win
    replayed = fresh()
    for op in state.log:
        replayed.play(op_code(op))
    assert replayed.on == replayed.goal
    # the later searches count too: short of them, unknown, and the state as it was
    short_state = fresh()
    short = layered_search(short_state, nodes + 1, None, None, True, max_entries=max_entries)
    assert short[0] == "unknown" and short[1] > nodes and short_state.log == []
    with pytest.raises(ValueError, match="max_entries"):
        _core.layered(fresh(), 100, max_entries=0)


@needs_core
def test_limits_and_progress() -> None:
    position = Position.start("faerie-queen", 2493, "manual")  # lost after 3 215 994 positions
    seen: list[int] = []
    verdict, nodes, _ = layered_search(state_of(position), 20_000, None, seen.append, True)
    assert (verdict, nodes) == ("unknown", 20_000)
    assert seen == [4096, 8192, 12288, 16384]
    assert layered_search(state_of(position), None, 0.0, None, True)[0] == "unknown"

    class Stop(Exception):
        pass

    def stop(nodes: int) -> None:
        raise Stop(nodes)

    with pytest.raises(Stop):
        layered_search(state_of(position), None, None, stop, True)


@needs_core
@needs_proc
def test_its_temporary_files_are_gone_however_it_stops() -> None:
    """The positions waiting for the layers above and the entries are in
    temporary files (deleted on creation): none stays open after a search
    that ends, hits a limit, or is stopped by an exception."""
    open_files = lambda: len(os.listdir("/proc/self/fd"))  # noqa: E731
    position = Position.start("faerie-queen", 2493, "manual")
    before = open_files()

    def stop(nodes: int) -> None:
        raise ValueError(nodes)

    assert layered_search(state_of(position), 300_000, None, None, True)[0] == "unknown"
    assert open_files() == before
    with pytest.raises(ValueError):
        layered_search(state_of(position), None, None, stop, True)
    assert open_files() == before
    lost = Position.start("glencoe", 6848, "manual")  # lost after 163 218 positions
    assert layered_search(state_of(lost), None, None, None, True)[0] == "lost"
    assert open_files() == before
    # in parts: a file for each part of a layer, while it is expanded
    for budget in (50_000, None):
        found = layered_search(state_of(lost), budget, None, None, True, part_records=20)
        assert found[0] == ("unknown" if budget else "lost")
        assert open_files() == before
    with pytest.raises(ValueError):
        layered_search(state_of(position), None, None, stop, True, part_records=20)
    assert open_files() == before


@needs_core
def test_a_state_with_impossible_progress_raises() -> None:
    from types import SimpleNamespace

    from intrigue.solver import _core

    state = state_of(Position.start("faerie-queen", 1, "manual"))
    fields = {name: getattr(state, name) for name in vars(state)}
    for on in (-5, 300):
        with pytest.raises(ValueError, match="more progress than a game holds"):
            _core.layered(SimpleNamespace(**{**fields, "on": on}), 100)


def capped_2493(megabytes: int, first: str, second: str) -> list[str]:
    """Two searches of Faerie Queen 2493 (manual, lost after 3 215 994
    positions) in a process that may grow by ``megabytes`` more: the first's
    verdict and the second's (verdict, nodes, best)."""
    code = f"""
        from intrigue.position import Position
        from intrigue.solver import _core
        from intrigue.solver.rules import tables_for
        from intrigue.solver.state import SearchState

        position = Position.start("faerie-queen", 2493, "manual")
        state = SearchState(position, tables_for(position.variant))
        cap_memory({megabytes})
        print(_core.{first}[0])
        print(_core.{second}[:3])
    """
    done = run_capped(code, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.split("\n")[:2]


@needs_core
@needs_proc
def test_it_proves_a_loss_in_the_memory_the_depth_first_search_runs_out_of() -> None:
    # The depth-first search needs a table of 2^22 positions (168 MB) to
    # finish; with 150 MB more than the process has it stops with "memory".
    # Layer by layer the same positions fit.
    found = capped_2493(150, "search(state, 10**9)", "layered(state, 10**9)")
    assert found == ["memory", "('lost', 3215994, 26)"]


@needs_core
@needs_proc
def test_in_parts_it_proves_a_loss_in_the_memory_a_whole_layer_runs_out_of() -> None:
    # By whole layers it needs some 40 MB more than the process has; its
    # layers' classes (cards up by type) are small, and in parts of 10 000
    # waiting positions the same loss fits in 16 MB.
    found = capped_2493(16, "layered(state, 10**9)", "layered(state, 10**9, part_records=10_000)")
    assert found == ["memory", "('lost', 3215994, 26)"]


@needs_core
@needs_proc
def test_a_layer_that_outgrows_memory_stops_and_says_so() -> None:
    code = """
        from intrigue.position import Position
        from intrigue.solver import solve
        from intrigue.solver.dfs import OutOfMemory, layered_search
        from intrigue.solver.rules import tables_for
        from intrigue.solver.state import SearchState

        position = Position.start("faerie-queen", 2493, "manual")
        cap_memory(16)
        try:
            layered_search(SearchState(position, tables_for(position.variant)), 10**9, None, None, True)
        except OutOfMemory as full:
            print("OutOfMemory", 0 < full.nodes < 3215994)
        result = solve(position, max_nodes=10**9, probe=False, layered=True, column_test=False)
        print(result.verdict, result.memory_full)
    """
    done = run_capped(code, timeout=300)
    assert done.stdout.split("\n")[:2] == ["OutOfMemory True", "unknown True"], done.stderr


def test_stats_records_the_search_by_layers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "runs.jsonl"
    argv = ["stats", "--game", "faerie-queen", "--mode", "manual", "--deals", "7228"]
    argv += ["--jobs", "1", "--max-nodes", "2000000", "--out", str(out), "--layered", "--json"]
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out)
    assert (summary["lost"], summary["search"], summary["probes"]) == (1, "layered", False)
    (record,) = map(json.loads, out.read_text().splitlines())
    assert record["search"] == "layered" and record["probes"] is False
    assert record["layers"] == "parts"
    assert record["verdict"] == "lost" and record["nodes"] == 840_033
    # auto mode too (the exhaustive search alone is for manual mode only)
    auto = run_stats("salic-law", 2, 2, jobs=1, max_nodes=2_000_000, search="layered")
    assert auto["lost"] == 1


def test_which_unknowns_the_search_by_layers_tries_again() -> None:
    def unknown(**fields: object) -> dict[str, object]:
        return {"verdict": "unknown", "max_nodes": 1000, "probes": False, **fields}

    # the depth-first search ran out of memory: the layers may fit
    assert _retry(unknown(memory_full=True), 1000, "layered", 1, 500)
    # it stopped at the limit: the layers would stop there too
    assert not _retry(unknown(), 1000, "layered", 1, 500)
    assert _retry(unknown(), 2000, "layered", 1, 500)
    # and back: the same positions
    assert not _retry(unknown(search="layered"), 1000, "exhaustive", 1, 500)
    # the layers were held whole and ran out of memory: in parts they may not
    assert _retry(unknown(search="layered", memory_full=True), 1000, "layered", 1, 500)
    parts = unknown(search="layered", layers="parts", memory_full=True)
    assert not _retry(parts, 1000, "layered", 1, 500)
    assert _retry(parts, 2000, "layered", 1, 500)
    assert not _retry(unknown(search="layered", layers="parts"), 1000, "layered", 1, 500)


# A search by layers kept in a directory (checkpoint=): stopped short of a
# verdict, it saves itself there and goes on from there when run again.


@needs_core
@settings(max_examples=60, deadline=None)
@given(
    positions,
    st.sampled_from(SHORTCUT_SETTINGS),
    st.lists(st.integers(1, 3000), min_size=1, max_size=4),
    st.sampled_from([None, 1, 2, 5]),
)
def test_a_kept_search_stopped_and_resumed_is_the_search_never_stopped(
    position: Position, flags: dict[str, bool], stops: list[int], part_records: int | None
) -> None:
    # Part records of 1 - 5 split the layers' files as they are written and
    # again as they are read, so the stops fall in every kind of part.
    options = {key: value for key, value in flags.items() if key != "probe"}
    safe = options.pop("safe_moves", True)
    extra = {} if part_records is None else {"part_records": part_records}
    limit = 4000
    straight = layered_search(state_of(position, **options), limit, None, None, safe, **extra)
    with tempfile.TemporaryDirectory() as tmp:
        kept = Path(tmp) / "kept"
        for stop in sorted(stops):
            found = layered_search(
                state_of(position, **options), stop, None, None, safe, checkpoint=kept, **extra
            )
            if found[0] != "unknown":
                break
            assert found[1] == max(stop, 2)  # every position since the first run
            assert (kept / "search").exists()
        state = state_of(position, **options)
        found = layered_search(state, limit, None, None, safe, checkpoint=kept, **extra)
        if "unknown" not in (found[0], straight[0]):
            assert found[0] == straight[0]
        if "lost" in (found[0], straight[0]):
            assert found == straight  # the same positions, the same most cards up
        if found[0] == "won":
            replayed = state_of(position, **options)
            for op in state.log:
                replayed.play(op_code(op))
            assert replayed.on == replayed.goal
        assert kept.exists() == (found[0] == "unknown")  # a verdict leaves nothing behind


@needs_core
def test_a_kept_search_goes_on_after_limits_and_ctrl_c() -> None:
    position = Position.start("glencoe", 6848, "manual")  # lost after 163 218 positions
    straight = layered_search(kept_state(position), None, None, None, True, part_records=20)
    assert straight[:2] == ("lost", 163_218)

    def interrupt(nodes: int) -> None:
        if nodes >= 140_000:
            raise KeyboardInterrupt

    with tempfile.TemporaryDirectory() as tmp:
        kept = Path(tmp) / "kept"
        for limit in (50_000, 120_000):
            found = layered_search(
                kept_state(position), limit, None, None, True, part_records=20, checkpoint=kept
            )
            assert found[:2] == ("unknown", limit)
        with pytest.raises(KeyboardInterrupt):
            layered_search(
                kept_state(position), None, None, interrupt, True, part_records=20, checkpoint=kept
            )
        assert (kept / "search").exists()  # saved as it stopped
        assert not (kept / "saved").exists()  # which leaves no save as it went
        # the layer it is in, for whoever watches it, as the manifest has it
        status = (kept / "status").read_text().splitlines()
        layer = status[0].split()[1]
        assert f" layer {layer} " in (kept / "search").read_text()
        assert status[1].startswith("positions ") and int(status[1].split()[1]) < 140_000 + 4096
        # the records waiting are coded against the one before: the files'
        # sizes are the manifest's, a fraction of the 40 bytes a record takes
        # in memory
        records = size = 0
        for line in (kept / "search").read_text().splitlines():
            tag, *fields = line.split()
            if tag in ("waiting", "part", "sub") and int(fields[4]):
                records += int(fields[1])
                size += int(fields[4])
        files = sum(f.stat().st_size for f in kept.iterdir() if f.name.startswith("w"))
        assert records > 1000 and size == files < 40 * records / 3
        seen: list[int] = []
        found = layered_search(
            kept_state(position), None, None, seen.append, True, part_records=20, checkpoint=kept
        )
        assert found == straight
        assert 120_000 < seen[0] < 140_000 + 4096  # progress counts from the first run
        assert not kept.exists()


# Saved as it goes: a search killed outright (SIGKILL, the machine going
# down) cannot save itself, and goes on from its last save instead.

KILLED = {
    "lost": (Position.start("glencoe", 6848, "manual"), ("lost", 163_218, 31)),
    "won": (Position.start("glencoe", 1, "auto"), ("won", 24_892, 96)),
}


@needs_core
@settings(max_examples=12, deadline=None)
@given(
    st.sampled_from(sorted(KILLED)),
    st.lists(st.integers(1, 60), min_size=1, max_size=3),
    st.sampled_from([(None, 0.0), (20, 0.02)]),
)
def test_a_kept_search_killed_goes_on_from_its_last_save(
    case: str, kills: list[int], parts: tuple[int | None, float]
) -> None:
    # The directory as a kill leaves it is copied at the kill: the files as
    # far as they were written, the stdio buffers not, and no stop saved.
    # Saved at every part, or (parts of 20 records, split as written and
    # weeded: thousands of parts) every 20 ms.
    import shutil

    from intrigue.solver.dfs import has_kept_search

    position, straight = KILLED[case]
    part_records, save_every = parts

    class Killed(Exception):
        pass

    saved: int | None = None  # positions as of the last save
    with tempfile.TemporaryDirectory() as tmp:
        kept, at_kill = Path(tmp) / "kept", Path(tmp) / "at-kill"
        for kill in sorted({4096 * k for k in kills if 4096 * k < straight[1]}):

            def killed(nodes: int, kill: int = kill) -> None:
                if nodes >= kill:
                    shutil.copytree(kept, at_kill, symlinks=True)
                    raise Killed

            with pytest.raises(Killed):
                layered_search(
                    kept_state(position),
                    None,
                    None,
                    killed,
                    True,
                    part_records=part_records,
                    checkpoint=kept,
                    save_every=save_every,
                )
            shutil.rmtree(kept)
            at_kill.rename(kept)
            (kept / "lock").unlink()
            assert not (kept / "search").exists()  # no stop saved: only the save as it went
            # (a kill within the first 20 ms leaves no save: the search starts afresh)
            if has_kept_search(kept):
                saved = int((kept / "saved" / "search").read_text().split("nodes ")[1].split()[0])
                assert saved < kill
            else:
                assert save_every and saved is None
        state = kept_state(position)
        seen: list[int] = []
        found = layered_search(
            state, None, None, seen.append, True, part_records=part_records, checkpoint=kept
        )
        assert found == straight  # the same positions, the same most cards up
        if saved is not None:
            # it went on from the last save, counting from the first run
            assert seen[0] == (saved // 4096 + 1) * 4096
        if found[0] == "won":
            replayed = kept_state(position)
            for op in state.log:
                replayed.play(op_code(op))
            assert replayed.on == replayed.goal
        assert not kept.exists()  # a verdict leaves nothing behind, saves included


@needs_core
def test_a_search_killed_outright_goes_on_from_its_last_save(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys

    kept = tmp_path / "kept"
    code = (
        "import os, signal, sys\n"
        "sys.path.insert(0, sys.argv[2])\n"
        "from test_layered import KILLED, kept_state\n"
        "from intrigue.solver.dfs import layered_search\n"
        "def kill(nodes):\n"
        "    if nodes >= 150_000: os.kill(os.getpid(), signal.SIGKILL)\n"
        "layered_search(kept_state(KILLED['lost'][0]), None, None, kill, True,\n"
        "               checkpoint=sys.argv[1], save_every=0)\n"
    )
    tests = str(Path(__file__).parent)
    run = subprocess.run([sys.executable, "-c", code, str(kept), tests], timeout=300)
    assert run.returncode == -signal.SIGKILL
    assert not (kept / "search").exists() and (kept / "saved" / "search").exists()
    # as if killed again between a save's two renames: the save before it is whole
    (kept / "saved").rename(kept / "saved.old")
    seen: list[int] = []
    found = layered_search(
        kept_state(KILLED["lost"][0]), None, None, seen.append, True, checkpoint=kept
    )
    assert found == KILLED["lost"][1]
    assert 100_000 < seen[0] <= 150_000 + 4096  # from its last save, not from the start
    assert not kept.exists()


@needs_core
def test_a_kept_search_tells_its_layers_as_the_search_never_stopped() -> None:
    # Glencoe 6848 (manual), lost at 163 218 positions, stopped on the way.
    lost = Position.start("glencoe", 6848, "manual")
    with tempfile.TemporaryDirectory() as tmp:
        straight, stopped = Path(tmp) / "straight", Path(tmp) / "stopped"
        layered_search(kept_state(lost), 150_000, None, None, True, checkpoint=straight)
        layers = kept_layers(straight)
        for stop in (3_000, 40_000, 41_000, 150_000):
            layered_search(
                kept_state(lost), stop, None, None, True, part_records=20, checkpoint=stopped
            )
            # a layer is told once it is whole, whatever the stops and parts
            assert kept_layers(stopped) == [
                x for x in layers if x[0] < kept_layers(stopped)[-1][0] + 1
            ]
        assert kept_layers(stopped) == layers
        # one layer after another, each its positions; the root's first
        assert [p for p, _ in layers] == list(range(layers[0][0], layers[-1][0] + 1))
        assert layers[0] == (layers[0][0], 1) and all(n >= 0 for _, n in layers)
        began = {
            int(line.split()[0]): int(line.split()[1])
            for line in reversed((straight / "layers").read_text().splitlines())
        }
        assert sum(n for _, n in layers) == began[layers[-1][0] + 1] <= 150_000
        status = (straight / "status").read_text().split()
        assert int(status[1]) == layers[-1][0] + 1 == kept_layer(straight)  # where it stopped
        assert layered_search(kept_state(lost), None, None, None, True, checkpoint=stopped)[:2] == (
            "lost",
            163_218,
        )
        assert kept_layers(stopped) == [] and kept_layer(stopped) is None
        assert not stopped.exists()


@needs_core
def test_a_kept_search_of_another_position_or_damaged_is_refused_and_left_alone() -> None:
    lost = Position.start("glencoe", 6848, "manual")
    with tempfile.TemporaryDirectory() as tmp:
        kept = Path(tmp) / "kept"
        assert layered_search(kept_state(lost), 60_000, None, None, True, checkpoint=kept)[0] == (
            "unknown"
        )
        files = {f.name: f.read_bytes() for f in kept.iterdir()}
        other = Position.start("glencoe", 6849, "manual")
        with pytest.raises(CheckpointError, match="another position"):
            layered_search(kept_state(other), None, None, None, True, checkpoint=kept)
        # other search options are another search too
        with pytest.raises(CheckpointError, match="another position"):
            layered_search(kept_state(lost), None, None, None, False, checkpoint=kept)
        assert {f.name: f.read_bytes() for f in kept.iterdir()} == files
        waiting = max(
            (f for f in kept.iterdir() if f.name.startswith("w")), key=lambda f: f.stat().st_size
        )
        waiting.write_bytes(files[waiting.name][:-40])
        with pytest.raises(CheckpointError, match="not the size its manifest says"):
            layered_search(kept_state(lost), None, None, None, True, checkpoint=kept)
        waiting.write_bytes(files[waiting.name])
        version = files["search"].split(b"\n")[0].rsplit(b" ", 1)[1].decode()
        (kept / "search").write_text(f"intrigue search by layers {version}\nposition 12\n")
        with pytest.raises(CheckpointError, match="another position"):
            layered_search(kept_state(lost), None, None, None, True, checkpoint=kept)
        # the files of an older version (records uncoded) are not this one's
        (kept / "search").write_text(f"intrigue search by layers {int(version) - 1}\nposition 12\n")
        with pytest.raises(CheckpointError, match="another version of the search by layers"):
            layered_search(kept_state(lost), None, None, None, True, checkpoint=kept)
        (kept / "search").write_bytes(files["search"].replace(b"nodes ", b"nodes x"))
        with pytest.raises(CheckpointError, match="manifest is damaged"):
            layered_search(kept_state(lost), None, None, None, True, checkpoint=kept)
        (kept / "search").write_bytes(files["search"])
        (kept / "columns").write_bytes(files["columns"][:100])
        with pytest.raises(CheckpointError, match="columns is missing or damaged"):
            layered_search(kept_state(lost), None, None, None, True, checkpoint=kept)
        (kept / "columns").write_bytes(files["columns"])
        import fcntl

        with (kept / "lock").open("a") as lock:  # as another search holds it
            fcntl.flock(lock, fcntl.LOCK_EX)
            with pytest.raises(CheckpointError, match="another search is using it"):
                layered_search(kept_state(lost), None, None, None, True, checkpoint=kept)
        assert {f.name: f.read_bytes() for f in kept.iterdir()} == {**files, "lock": b""}
        assert layered_search(kept_state(lost), None, None, None, True, checkpoint=kept)[:2] == (
            "lost",
            163_218,
        )


@needs_core
def test_a_search_kept_without_first_in_line_goes_on_only_without_it() -> None:
    # As a search kept before the rule existed: the rule is part of what the
    # search is, so it goes on only with the rule off, to the unreduced count.
    lost = Position.start("glencoe", 6848, "manual")
    with tempfile.TemporaryDirectory() as tmp:
        kept = Path(tmp) / "kept"
        off = state_of(lost, first_in_line=False, digs=False)
        assert layered_search(off, 60_000, None, None, True, checkpoint=kept)[0] == "unknown"
        with pytest.raises(CheckpointError, match="another position"):
            layered_search(kept_state(lost), None, None, None, True, checkpoint=kept)
        off = state_of(lost, first_in_line=False, digs=False)
        found = layered_search(off, None, None, None, True, checkpoint=kept)
        assert found[:2] == ("lost", 253_999)


@needs_core
def test_a_search_kept_without_digs_goes_on_only_without_them() -> None:
    # Digs change which positions the search stores, as first in line does.
    lost = Position.start("glencoe", 6848, "manual")
    with tempfile.TemporaryDirectory() as tmp:
        kept = Path(tmp) / "kept"
        off = state_of(lost, digs=False)
        assert layered_search(off, 60_000, None, None, True, checkpoint=kept)[0] == "unknown"
        with pytest.raises(CheckpointError, match="another position"):
            layered_search(state_of(lost), None, None, None, True, checkpoint=kept)
        whole = layered_search(state_of(lost, digs=False), None, None, None, True)
        found = layered_search(state_of(lost, digs=False), None, None, None, True, checkpoint=kept)
        assert found[:2] == ("lost", whole[1])
        assert layered_search(state_of(lost), None, None, None, True)[1] < whole[1]


@needs_core
def test_a_killed_search_leaves_files_that_a_new_search_clears() -> None:
    # A search killed rather than stopped has no manifest: it cannot go on,
    # and its files are cleared; anything else in the directory stays.
    lost = Position.start("glencoe", 6848, "manual")
    with tempfile.TemporaryDirectory() as tmp:
        kept = Path(tmp)
        leftovers = ("w40", "w41-3", "w41-3-7", "w41-3.new", "entries", "columns", "columns.tmp")
        for name in (*leftovers, "search.tmp", "status", "layers", "notes.txt"):
            (kept / name).write_bytes(b"left")
        for save in ("saved.new", "saved.old"):  # saves not whole: no manifest
            (kept / save).mkdir()
            (kept / save / "w40").write_bytes(b"left")
        assert layered_search(kept_state(lost), None, None, None, True, checkpoint=kept)[:2] == (
            "lost",
            163_218,
        )
        assert sorted(f.name for f in kept.iterdir()) == ["notes.txt"]
    with pytest.raises(ValueError, match="layered=True"):
        solve(lost, checkpoint=Path("unused"))


def test_stats_goes_on_with_a_kept_search(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, kept = tmp_path / "runs.jsonl", tmp_path / "kept"
    argv = ["stats", "--game", "glencoe", "--mode", "manual", "--deals", "6848", "--jobs", "1"]
    argv += ["--out", str(out), "--layered", "--checkpoint", str(kept), "--json", "--max-nodes"]
    assert main([*argv, "30000"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["unknown"] == 1
    assert (kept / "glencoe-manual-6848" / "search").exists()
    # where it stopped and its last layers, to tell whether to go on with it
    layers = kept_layers(kept / "glencoe-manual-6848")
    told = {"deal": 6848, "layer": layers[-1][0] + 1, "layer_positions": layers[-8:]}
    assert summary["kept"] == [{**told, "layer_positions": [list(x) for x in layers[-8:]]}]
    # searched again at its limit (it goes on where it stopped), and told as text
    assert main(argv[:-2] + ["--max-nodes", "30000"]) == 0
    p, n = layers[-1]
    assert f"deal 6848: kept in layer {p + 1}; layers {p - 7}-{p} held " in (
        text := capsys.readouterr().out
    )
    assert f"{n:,} positions (x" in text
    assert main([*argv, "1000000"]) == 0
    assert json.loads(capsys.readouterr().out)["lost"] == 1
    first, again, second = map(json.loads, out.read_text().splitlines())
    assert (first["verdict"], first["nodes"]) == ("unknown", 30_000)
    assert first == again | {"seconds": first["seconds"]}
    assert (first["layer"], first["layer_positions"]) == (
        told["layer"],
        summary["kept"][0]["layer_positions"],
    )
    assert "layer" not in second  # a verdict: nothing kept to go on with
    assert (second["verdict"], second["nodes"]) == ("lost", 67_018)
    assert list(kept.iterdir()) == []
    # a kept search goes on even at the limit its record stopped at (the
    # disk or the memory stopped it, and has been freed)
    again = [*argv[:-1], "--deals", "6849", "--max-nodes", "20000"]
    for _ in range(2):
        assert main(again) == 0
        assert json.loads(capsys.readouterr().out)["resumed"] == 0  # searched, not read back
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["nodes"] for r in records if r["deal"] == 6849] == [20_000, 20_000]
    assert main([*argv[:5], "--checkpoint", str(kept), "--deals", "1"]) == 2
    assert "--checkpoint keeps the search by layers" in capsys.readouterr().err


@needs_core
def test_a_killed_stats_run_saves_its_kept_search(tmp_path: Path) -> None:
    # SIGTERM (a plain `kill`) is Ctrl-C to intrigue stats: the search saves itself.
    import signal
    import subprocess
    import sys
    import time

    kept = tmp_path / "kept"
    argv = [sys.executable, "-m", "intrigue", "stats", "--game", "faerie-queen", "--mode"]
    argv += ["manual", "--deals", "2493", "--jobs", "1", "--layered", "--checkpoint", str(kept)]
    argv += ["--max-nodes", "100000000", "--json"]  # lost after 3 215 994 positions
    run = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deal = kept / "faerie-queen-manual-2493"
    while not any(f.name.startswith("w") for f in deal.glob("w*-*")) and run.poll() is None:
        time.sleep(0.05)  # well into the search: its layers are split
    run.send_signal(signal.SIGTERM)
    out, err = run.communicate(timeout=120)
    assert run.returncode == 130, err
    assert "intrigue: interrupted" in err
    assert f"the searches stopped are kept in {kept}" in err
    assert (deal / "search").exists()
    done = subprocess.run(argv, capture_output=True, text=True, timeout=600, check=True)
    summary = json.loads(done.stdout)
    assert summary["lost"] == 1 and summary["nodes"]["max"] == 3_215_994
    assert not deal.exists()


def test_stats_by_layers_may_open_the_files_its_parts_need() -> None:
    # 64 files for each large layer waiting, several layers at once: past the
    # 1 024 open files many systems allow by default.
    import subprocess
    import sys

    code = (
        "import resource\n"
        "soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)\n"
        "resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))\n"
        "from intrigue.cli import main\n"
        "main(['stats', '--game', 'glencoe', '--deals', '1', '--layered', '--jobs', '1'])\n"
        "wanted = 1 << 16 if hard == resource.RLIM_INFINITY else min(1 << 16, hard)\n"
        "print(resource.getrlimit(resource.RLIMIT_NOFILE)[0] == max(256, wanted))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == "True", done.stderr
