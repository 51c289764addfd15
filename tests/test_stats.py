"""Batch statistics: ranges, the Wilson interval, resumable result files, CLI, Dask."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from capped import needs_proc, run_capped
from intrigue.cli import main
from intrigue.errors import DealModeError, DealNumberError, IntrigueError
from intrigue.progress import LOG_EVERY, ProgressBar, SearchProgress
from intrigue.solver.frontier import MAX_TEST_STATES
from intrigue.solver.rollouts import END_NODES, SEED
from intrigue.stats import parse_range, percentile, run_stats, solve_deal, summarise, wilson


@pytest.mark.parametrize(
    ("text", "expected"), [("1-10000", (1, 10000)), (" 7 ", (7, 7)), ("3-3", (3, 3))]
)
def test_parse_range(text: str, expected: tuple[int, int]) -> None:
    assert parse_range(text) == expected


@pytest.mark.parametrize("text", ["5-3", "x", "0", "0-4", "1-", "-3", "1-2-3", "", "1-1e3"])
def test_parse_range_rejects(text: str) -> None:
    with pytest.raises(DealNumberError, match="bad deal range"):
        parse_range(text)


def test_wilson_and_percentile() -> None:
    low, high = wilson(8, 10)
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(5, 5)[1] == 1.0 and wilson(0, 5)[0] == 0.0
    assert percentile([3.0, 1.0, 2.0, 4.0], 50) == 2.0
    assert percentile([3.0, 1.0, 2.0, 4.0], 100) == 4.0
    assert percentile([], 90) == 0.0


def test_summary_counts_and_bounds() -> None:
    records = [
        {"verdict": v, "seconds": 0.001 * i, "nodes": i, "best": 50 + i}
        for i, v in enumerate(["won", "won", "lost", "unknown"], 1)
    ]
    s = summarise(records)
    assert (s["won"], s["lost"], s["unknown"], s["deals"]) == (2, 1, 1, 4)
    assert s["win_rate"] == pytest.approx(2 / 3)
    assert s["win_rate_bounds"] == [0.5, 0.75]
    assert s["lost_best_mean"] == 53
    assert s["nodes"]["max"] == 4
    assert s["lost_by_column_test"] == 0


def test_column_test_losses_are_counted_but_their_best_is_not() -> None:
    # A loss proved by the column test knows only a lower bound on its best.
    records = [
        {"verdict": "lost", "seconds": 0.1, "nodes": 1, "best": 40},
        {"verdict": "lost", "seconds": 0.1, "nodes": 1, "best": 18, "blocked": [1]},
    ]
    s = summarise(records)
    assert (s["lost"], s["lost_by_column_test"], s["lost_best_mean"]) == (2, 1, 40)


def test_a_deal_record_names_its_blocked_column() -> None:
    record = solve_deal(("salic-law", 7228, "manual", 1_000_000, "full", SEED, END_NODES, None))
    assert (record["verdict"], record["blocked"]) == ("lost", [1])
    assert "blocked" not in solve_deal(
        ("intrigue", 4, "auto", 1_000_000, "full", SEED, END_NODES, None)
    )


def test_a_deal_record_names_its_blocked_ranks() -> None:
    record = solve_deal(("intrigue", 6812, "manual", 2_000_000, "full", SEED, END_NODES, None))
    assert (record["verdict"], record["blocked_ranks"]) == ("lost", [5, 4, 3, 2, 1, 13])
    assert "blocked" not in record
    # Its best is a lower bound: summarise leaves it out of lost_best_mean.
    s = summarise([record, {"verdict": "lost", "seconds": 0.1, "nodes": 1, "best": 40}])
    assert (s["lost"], s["lost_by_column_test"], s["lost_best_mean"]) == (2, 1, 40)


def read_lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_resume_skips_done_deals_and_survives_a_truncated_line(tmp_path: Path) -> None:
    out = tmp_path / "stats.jsonl"
    first = run_stats("intrigue", 1, 4, jobs=1, out=out)
    assert first["deals"] == 4 and first["resumed"] == 0
    with out.open("a") as f:
        f.write('{"game": "intrigue", "deal": 5, "mo')  # killed mid-write
    calls: list[int] = []
    second = run_stats(
        "intrigue", 1, 6, jobs=1, out=out, progress=lambda done, total, counts: calls.append(done)
    )
    assert second["resumed"] == 4 and second["deals"] == 6
    assert calls == [4, 5, 6]
    lines = read_lines(out)  # every line is whole JSON again
    assert sorted(r["deal"] for r in lines) == [1, 2, 3, 4, 5, 6]
    assert {k: second[k] for k in ("won", "lost")} == {
        "won": sum(r["verdict"] == "won" for r in lines),
        "lost": sum(r["verdict"] == "lost" for r in lines),
    }


def test_unknown_is_retried_with_a_larger_limit(tmp_path: Path) -> None:
    out = tmp_path / "stats.jsonl"
    small = run_stats("faerie-queen", 43, 43, jobs=1, out=out, max_nodes=10)
    assert small["unknown"] == 1
    again = run_stats("faerie-queen", 43, 43, jobs=1, out=out, max_nodes=10)
    assert again["resumed"] == 1 and again["unknown"] == 1
    bigger = run_stats("faerie-queen", 43, 43, jobs=1, out=out, max_nodes=20)
    assert bigger["resumed"] == 0 and len(read_lines(out)) == 2


def test_other_games_in_the_file_are_ignored(tmp_path: Path) -> None:
    out = tmp_path / "stats.jsonl"
    run_stats("intrigue", 1, 2, jobs=1, out=out)
    s = run_stats("glencoe", 1, 2, jobs=1, out=out, mode="manual")
    assert s["resumed"] == 0 and s["game"] == "glencoe" and s["mode"] == "manual"


def test_worker_processes_agree_with_one_process() -> None:
    one = run_stats("laggard-lady", 1, 12, jobs=1)
    two = run_stats("laggard-lady", 1, 12, jobs=2)
    assert (one["won"], one["lost"]) == (two["won"], two["lost"])


def test_bad_arguments() -> None:
    with pytest.raises(IntrigueError):
        run_stats("klondike", 1, 2)
    with pytest.raises(IntrigueError):
        run_stats("intrigue", 3, 2)
    with pytest.raises(IntrigueError):
        run_stats("intrigue", 1, 2, mode="sideways")


def test_progress_bar_plain_stream(tmp_path: Path) -> None:
    path = tmp_path / "progress.txt"
    with path.open("w") as stream:
        bar = ProgressBar(stream)
        for done in range(0, 21):
            bar(done, 20, {"won": done, "lost": 0, "unknown": 0})
    lines = path.read_text().splitlines()
    assert 1 < len(lines) <= 11 and lines[-1].startswith("20/20 deals")


def test_progress_bar_shows_the_deal_being_searched() -> None:
    terminal = _Terminal()
    bar = ProgressBar(terminal)
    bar(3, 10, {"won": 2, "lost": 1, "unknown": 0})
    bar.searching(4, 4096)
    drawn = terminal.getvalue()
    bar.searching(4, 8192)  # the deal's first second stays quiet
    assert terminal.getvalue() == drawn
    bar.deal_started -= 2.0
    bar.logged -= 2.0
    bar.searching(4, 1_000_000)
    line = terminal.getvalue()[len(drawn) :]
    assert line.startswith("\r[#########---------------------] 3/10 deals  won 2 lost 1")
    assert "deal 4: 1,000,000 positions" in line
    bar.searching(4, 1_004_096)  # at most five times a second
    assert terminal.getvalue()[len(drawn) :] == line
    log = io.StringIO()
    plain = ProgressBar(log)
    plain.searching(7, 4096)
    plain.deal_started -= 2.0
    plain.searching(7, 500_000)
    assert log.getvalue() == ""  # a log hears of a search every ten minutes
    plain.logged -= LOG_EVERY
    plain.searching(7, 900_000)
    assert log.getvalue().startswith("deal 7: 900,000 positions, ")
    assert log.getvalue().count("\n") == 1
    # a kept search going on: its rate is of this run's positions, not of all
    resumed = io.StringIO()
    going_on = ProgressBar(resumed)
    going_on.searching(8, 361_000_000)
    going_on.deal_started -= 10.0
    going_on.logged -= LOG_EVERY
    going_on.searching(8, 362_000_000)
    assert resumed.getvalue().startswith("deal 8: 362,000,000 positions, 100,000/s, 0:10")
    # and, where it is kept, the layer it is in (what the detail says of the deal)
    told = io.StringIO()
    layered = ProgressBar(told, detail=lambda deal: f"layer {deal + 100}" if deal == 9 else None)
    for deal in (9, 10):
        layered.searching(deal, 4096)
        layered.deal_started -= 10.0
        layered.logged -= LOG_EVERY
        layered.searching(deal, 1_004_096)
    assert told.getvalue().splitlines() == [
        "deal 9: 1,004,096 positions, layer 109, 100,000/s, 0:10",
        "deal 10: 1,004,096 positions, 100,000/s, 0:10",
    ]
    # what a search that counts no positions counts
    counted = io.StringIO()
    relaxed = ProgressBar(counted, unit="states")
    relaxed.searching(11, 4096)
    relaxed.deal_started -= 10.0
    relaxed.logged -= LOG_EVERY
    relaxed.searching(11, 1_004_096)
    assert counted.getvalue() == "deal 11: 1,004,096 states, 100,000/s, 0:10\n"


def test_stats_reports_the_positions_of_the_deal_it_searches() -> None:
    heard: list[tuple[int, int]] = []
    summary = run_stats(
        "glencoe",
        6848,
        6848,
        mode="manual",
        jobs=1,
        max_nodes=300_000,
        search="exhaustive",
        on_search=lambda deal, nodes: heard.append((deal, nodes)),
    )
    assert summary["lost"] == 1
    assert {deal for deal, _ in heard} == {6848}
    counts = [nodes for _, nodes in heard]
    assert len(counts) > 10 and counts == sorted(counts) and counts[-1] <= 300_000


def test_cli_stats_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "s.jsonl"
    argv = ["stats", "--game", "salic-law", "--deals", "1-3", "--jobs", "1", "--out", str(out)]
    assert main([*argv, "--json"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert data["deals"] == 3 and len(data["wilson95"]) == 2
    assert set(data["seconds"]) == {"p50", "p90", "p99", "max"}
    assert "3/3 deals" in captured.err
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "Salic Law (auto), deals 1-3" in text and "win rate" in text


def test_no_probes_gives_the_whole_limit_to_the_proof(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Glencoe 6848 (manual) is lost after 67 018 positions of exhaustive search:
    within 100 000 positions only when the probes do not take their share (and
    neither relaxed proof sees it)."""
    out = tmp_path / "s.jsonl"
    argv = ["stats", "--game", "glencoe", "--mode", "manual", "--deals", "6848-6848"]
    argv += ["--jobs", "1", "--max-nodes", "100000", "--out", str(out), "--json"]
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["unknown"] == 1
    assert main([*argv, "--no-probes"]) == 0  # same limit: nothing to retry
    assert json.loads(capsys.readouterr().out)["resumed"] == 1
    out.unlink()
    assert main([*argv, "--no-probes"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["lost"], data["probes"], data["search"]) == (1, False, "exhaustive")
    (record,) = map(json.loads, out.read_text().splitlines())
    assert (record["verdict"], record["nodes"], record["probes"]) == ("lost", 67_018, False)


def test_an_unknown_found_without_probes_is_retried_with_them(tmp_path: Path) -> None:
    out = tmp_path / "s.jsonl"
    kwargs: dict[str, Any] = {"mode": "manual", "jobs": 1, "out": out}
    without = run_stats("intrigue", 222, 222, max_nodes=10_000, search="exhaustive", **kwargs)
    assert (without["unknown"], without["resumed"]) == (1, 0)
    again = run_stats("intrigue", 222, 222, max_nodes=10_000, search="exhaustive", **kwargs)
    assert again["resumed"] == 1
    probing = run_stats("intrigue", 222, 222, max_nodes=10_000, **kwargs)
    assert probing["resumed"] == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r.get("probes", True) for r in lines] == [False, True]


def test_rollouts_only_win_or_stay_unknown_and_are_retried_by_other_searches(
    tmp_path: Path,
) -> None:
    """Glencoe 915 (manual) is lost: the rollouts alone leave it unknown, which
    any other search, or another seed, tries again; the same one does not."""
    out = tmp_path / "s.jsonl"
    kwargs: dict[str, Any] = {"mode": "manual", "jobs": 1, "out": out, "max_nodes": 60_000}
    first = run_stats("glencoe", 915, 915, search="rollouts", **kwargs)
    assert (first["unknown"], first["search"], first["seed"]) == (1, "rollouts", SEED)
    assert run_stats("glencoe", 915, 915, search="rollouts", **kwargs)["resumed"] == 1
    assert run_stats("glencoe", 915, 915, search="rollouts", seed=7, **kwargs)["resumed"] == 0
    lost = run_stats("glencoe", 915, 915, search="exhaustive", **kwargs)
    assert (lost["resumed"], lost["lost"]) == (0, 1)
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["verdict"], r.get("search"), r.get("seed")) for r in records] == [
        ("unknown", "rollouts", None),
        ("unknown", "rollouts", 7),
        ("lost", None, None),
    ]
    assert all(r["nodes"] <= 60_000 for r in records)


def test_a_win_of_the_rollouts_alone_records_its_seed(tmp_path: Path) -> None:
    """Intrigue 222 (manual): the rollouts alone win it with seed 2 in 3 536
    positions, and with the default seed in 3 496 (5 307 and 4 463 before the digs)."""
    record = solve_deal(("intrigue", 222, "manual", 100_000, "rollouts", 2, END_NODES, None))
    assert (record["verdict"], record["nodes"], record["search"], record["seed"]) == (
        "won", 3_536, "rollouts", 2,
    )  # fmt: skip
    default = solve_deal(("intrigue", 222, "manual", 100_000, "rollouts", SEED, END_NODES, None))
    assert (default["nodes"], "seed" in default, "end_nodes" in default) == (3_496, False, False)


def test_larger_end_searches_win_salic_law_5001_and_are_recorded(tmp_path: Path) -> None:
    """Salic Law 5001 (manual) stayed unknown under every search and fifteen seeds
    of the rollouts at 300 000 000 positions; with end searches of 5 000
    positions, seed 1515 wins it in 4 135 141 (docs/winrates.md; 2 002 945 since the
    digs, whose end searches store fewer positions).  The record
    says so, the same seed with the default end searches does not win it in as
    many positions (5 000 000), and another --end-nodes tries a stored unknown again."""
    out = tmp_path / "s.jsonl"
    kwargs: dict[str, Any] = {"mode": "manual", "jobs": 1, "out": out, "search": "rollouts"}
    short = run_stats("salic-law", 5001, 5001, max_nodes=5_000_000, seed=1515, **kwargs)
    assert (short["unknown"], short["end_nodes"]) == (1, END_NODES)
    assert (
        run_stats("salic-law", 5001, 5001, max_nodes=5_000_000, seed=1515, **kwargs)["resumed"] == 1
    )
    won = run_stats(
        "salic-law", 5001, 5001, max_nodes=5_000_000, seed=1515, end_nodes=5_000, **kwargs
    )
    assert (won["resumed"], won["won"], won["end_nodes"]) == (0, 1, 5_000)
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["verdict"], r.get("end_nodes")) for r in records] == [
        ("unknown", None),
        ("won", 5_000),
    ]
    assert (records[1]["nodes"], records[1]["seed"]) == (2_002_945, 1515)


def test_end_nodes_is_only_for_the_searches_that_play_rollouts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["stats", "--game", "glencoe", "--mode", "manual", "--deals", "915", "--end-nodes"]
    for extra, message in (
        (["5000", "--no-probes"], "--no-probes plays no rollouts"),
        (["5000", "--frontier-only"], "--frontier-only plays no rollouts"),
        (["5000", "--layered"], "--layered plays no rollouts"),
        (["0"], "bad --end-nodes '0': expected a whole number >= 1"),
        (["x", "--rollouts-only"], "bad --end-nodes 'x'"),
    ):
        assert main([*argv, *extra]) == 2
        assert message in capsys.readouterr().err
    with pytest.raises(ValueError, match="not the exhaustive search"):
        run_stats("glencoe", 915, 915, mode="manual", search="exhaustive", end_nodes=5_000)


def test_cli_stats_says_the_rollouts_never_prove_a_loss(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["stats", "--game", "glencoe", "--mode", "manual", "--deals", "915"]
    assert main([*argv, "--rollouts-only", "--seed", "3", "--max-nodes", "20000"]) == 0
    text = capsys.readouterr().out
    assert "unknown 1" in text and "the rollouts alone (seed 3), which never prove a loss" in text


def test_the_frontier_proof_alone_proves_losses_and_never_wins(tmp_path: Path) -> None:
    """Glencoe 7807 (manual) is lost, which the frontier proof shows in under a
    million positions and states; deal 1 is won, which it leaves unknown for
    the full search to try again."""
    out = tmp_path / "s.jsonl"
    kwargs: dict[str, Any] = {"mode": "manual", "jobs": 1, "out": out, "search": "frontier"}
    lost = run_stats("glencoe", 7807, 7807, max_nodes=5_000_000, **kwargs)
    assert (lost["lost"], lost["lost_by_column_test"], lost["lost_best_mean"]) == (1, 1, None)
    assert (lost["search"], lost["seed"]) == ("frontier", SEED)
    won = run_stats("glencoe", 1, 1, max_nodes=100_000, **kwargs)
    assert won["unknown"] == 1
    assert run_stats("glencoe", 1, 1, max_nodes=100_000, **kwargs)["resumed"] == 1
    assert run_stats("glencoe", 1, 1, mode="manual", jobs=1, out=out)["won"] == 1
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["deal"], r["verdict"], r.get("search"), "seed" in r) for r in records] == [
        (7807, "lost", "frontier", False),
        (1, "unknown", "frontier", False),
        (1, "won", None, False),
    ]
    # The frontier records name the most states a position's column test got.
    assert [r.get("test_states") for r in records] == [MAX_TEST_STATES, MAX_TEST_STATES, None]


def test_cli_stats_says_the_frontier_proof_never_finds_a_win(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["stats", "--game", "glencoe", "--mode", "manual", "--deals", "1"]
    assert main([*argv, "--frontier-only", "--max-nodes", "20000"]) == 0
    text = capsys.readouterr().out
    assert "unknown 1" in text and "the frontier proof, which never finds a win" in text


@pytest.mark.parametrize("search", ["exhaustive", "rollouts", "frontier"])
def test_a_search_alone_is_for_manual_mode(search: Any, tmp_path: Path) -> None:
    out = tmp_path / "s.jsonl"
    with pytest.raises(DealModeError, match=f"the {search} search alone is for manual mode"):
        run_stats("intrigue", 1, 2, jobs=1, out=out, search=search)
    assert not out.exists()


@pytest.mark.parametrize(
    ("argv", "bad"),
    [
        (["--deals", "5-3"], "5-3"),
        (["--deals", "x"], "x"),
        (["--deals", "0"], "0"),
        (["--deals", "1-2", "--jobs", "0"], "0"),
        (["--deals", "1-2", "--mode", "fast"], "fast"),
        (["--deals", "1-2", "--mode", "manual", "--seed", "0"], "0"),
        (["--deals", "1-2", "--mode", "manual", "--seed", "x"], "x"),
    ],
)
def test_cli_stats_bad_input(argv: list[str], bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and repr(bad) in err


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--no-probes", "--rollouts-only"], "not allowed with argument"),
        (["--rollouts-only", "--mode", "auto"], "is for manual mode"),
        (["--rollouts-only", "--frontier-only"], "not allowed with argument"),
        (["--frontier-only", "--mode", "auto"], "is for manual mode"),
        (["--frontier-only", "--game", "faerie-queen"], "does not cover Faerie Queen"),
    ],
)
def test_cli_stats_conflicting_searches(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "s.jsonl"
    assert main(["stats", "--deals", "1-2", "--mode", "manual", *argv, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err
    assert not out.exists()


def test_dask_local_cluster(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        summary = run_stats(
            "intrigue", 1, 6, scheduler=cluster.scheduler_address, out=tmp_path / "d.jsonl"
        )
    local = run_stats("intrigue", 1, 6, jobs=1)
    assert (summary["won"], summary["lost"], summary["deals"]) == (
        local["won"],
        local["lost"],
        6,
    )
    assert len(read_lines(tmp_path / "d.jsonl")) == 6


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_search_progress_draws_on_a_terminal_only_after_a_second() -> None:
    terminal = _Terminal()
    progress = SearchProgress(2_000_000, terminal)
    progress(4096)
    assert terminal.getvalue() == ""  # the first second stays quiet
    progress.started -= 2.0
    progress(1_000_000)
    line = terminal.getvalue()
    assert "[###############---------------]" in line
    assert "1,000,000 of at most 2,000,000 positions" in line
    progress.close()
    assert terminal.getvalue().endswith("\r\x1b[K")
    log = io.StringIO()
    quiet = SearchProgress(None, log)
    quiet.started -= 2.0
    quiet(1_000_000)
    quiet.close()
    assert log.getvalue() == ""


@needs_proc
def test_stats_records_a_deal_that_ran_out_of_memory(tmp_path: Path) -> None:
    """A deal whose search outgrows the memory is an "unknown" record that says
    so, and the run goes on: exit 0, no traceback, the summary counts it."""
    out = tmp_path / "fq.jsonl"
    code = f"""
        import sys
        from intrigue.cli import main
        cap_memory(110)
        sys.exit(main(["stats", "--game", "faerie-queen", "--mode", "manual",
                       "--deals", "6383-6384", "--no-probes", "--max-nodes", "4000000",
                       "--jobs", "1", "--out", {str(out)!r}]))
    """
    done = run_capped(code, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["deal"] for r in records] == [6383, 6384]
    starved, fine = records
    assert starved["verdict"] == "unknown" and starved["memory_full"] is True
    assert starved["nodes"] < 4_000_000
    assert fine["verdict"] == "won" and "memory_full" not in fine
    assert "1 of the unknown deals ran out of memory first" in done.stdout
    assert "(the unknown deals ran out of memory before the limit of 4000000" in done.stdout
