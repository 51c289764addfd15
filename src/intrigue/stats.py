"""Batch statistics: solve a range of deals and report the win rate.

:func:`run_stats` solves deals ``first..last`` of one game and deal mode, on
all cores (:mod:`multiprocessing`) or on a Dask cluster, appends one JSON line
per deal to a results file as each deal finishes, and summarises: win rate
with a Wilson 95% interval, the unknown count, solve-time and node
percentiles, and for lost deals the most cards that could reach the piles.

A run that is interrupted resumes where it stopped: deals already in the
file are not solved again (except "unknown" ones, when the new run allows
more nodes or searches another way; the later line of a deal wins), and a
truncated last line (a run killed while writing) is cut off before new lines
are appended.

>>> summary = run_stats("intrigue", 1, 3, jobs=1)
>>> summary["deals"], summary["won"] + summary["lost"] + summary["unknown"]
(3, 3)
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import time
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from pathlib import Path
from typing import Any, Literal, get_args

from intrigue.deals import MAX_DEAL
from intrigue.errors import DealModeError, DealNumberError, UnknownVariantError
from intrigue.position import Position, parse_mode
from intrigue.solver import DEFAULT_MAX_NODES, solve
from intrigue.solver.dfs import has_kept_search, kept_layers
from intrigue.solver.guided import GUIDE_NODES, guided_win
from intrigue.solver.order import ORDER_TEST_CARDS, order_test
from intrigue.solver.relaxation import (
    COLUMN_TEST_STATES,
    RELAXED_VERSION,
    Play,
    blocked_column_each,
)
from intrigue.solver.rollouts import END_NODES, SEED
from intrigue.variants import find_variant

Record = dict[str, Any]
Search = Literal[
    "full", "exhaustive", "layered", "rollouts", "frontier", "order", "column", "guided"
]
"""How a manual deal is searched: ``solve``'s whole plan, only the exhaustive
search (which proves losses), the same search layer by layer (the same
positions in far less memory, for the largest proofs), only the rollouts
over the deal (which find hard wins and never prove a loss), only the
frontier proof, only the order test, or only the column test with a budget
for each of its games (the last three prove losses and never find a win)."""
PROOFS_ONLY: tuple[Search, ...] = ("frontier", "order", "column")
"""The searches that only prove losses: they know nothing of a deal's best."""
SEARCHES: tuple[Search, ...] = get_args(Search)
EXHAUSTIVE: tuple[Search, ...] = ("exhaustive", "layered")
"""The searches that give the whole limit to the exhaustive search (no probes)."""
SEEDED: tuple[Search, ...] = ("full", "rollouts")
"""The searches that play the rollouts, whose generator ``seed`` seeds and
whose end searches ``end_nodes`` sizes."""
KEPT_LAYERS_TOLD = 8
"""The last whole layers whose sizes a kept search's unknown record gives."""
Task = tuple[str, int, str, int | None, Search, int, int, str | None]
"""(game, deal, mode, max_nodes, search, seed, end_nodes, checkpoint): one deal
to solve (``checkpoint``: the directory that keeps the searches by layers, or
the column test's games played)."""
KEPT_SEARCHES: tuple[Search, ...] = ("layered", "column")
"""The searches a checkpoint directory keeps: by layers, and the column test alone."""
COLUMN_GAMES = "column-games.jsonl"
"""The file in a deal's checkpoint directory (:func:`checkpoint_of`) where the
column test alone keeps each relaxed game it has played, a JSON line each."""
Progress = Callable[[int, int, dict[str, int]], None]
"""``progress(done, total, counts)``; ``counts`` maps verdicts to deals so far."""

Z95 = 1.959963984540054
"""The 97.5% quantile of the standard normal distribution."""


def parse_range(text: str) -> tuple[int, int]:
    """``"A-B"`` (or a single ``"N"``) as a pair of deal numbers, A <= B.

    >>> parse_range("1-10000")
    (1, 10000)

    Raises:
        DealNumberError: naming the bad range: not numbers, a number below 1 or
            too large, or A > B.
    """
    raw = text if isinstance(text, str) else repr(text)
    parts = raw.strip().split("-")
    if len(parts) == 1:
        parts = parts * 2
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise DealNumberError(
            f"bad deal range {text!r}: expected A-B with whole numbers 1 <= A <= B, e.g. 1-1000"
        )
    first, last = (int(p) for p in parts)
    if first < 1:
        raise DealNumberError(f"bad deal range {text!r}: deal numbers start at 1")
    if last >= MAX_DEAL:
        raise DealNumberError(f"bad deal range {text!r}: the largest deal number is {MAX_DEAL - 1}")
    if first > last:
        raise DealNumberError(f"bad deal range {text!r}: the first deal is after the last")
    return first, last


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default); (0, 1) for no trials.

    >>> [round(x, 4) for x in wilson(8, 10)]
    [0.4902, 0.9433]
    """
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile (0..100) by the nearest-rank method; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def solve_deal(task: Task, on_progress: Callable[[int], None] | None = None) -> Record:
    """Solve one deal: ``task`` is (game, deal, mode, max_nodes, search, seed,
    end_nodes, checkpoint), the deal's search by layers (or the column test's
    games) kept in its own directory under ``checkpoint`` (:func:`checkpoint_of`).
    The per-deal JSON record says how it was searched where that
    is not ``solve``'s whole plan with its own seed: ``"probes": false`` for the
    exhaustive search alone (and ``"search": "layered"`` where it went layer by
    layer), ``"search": "rollouts"`` for the rollouts alone,
    ``"search": "frontier"`` for the frontier proof alone, ``"seed"`` for
    another seed of the rollouts and ``"end_nodes"`` for other end searches.

    Top-level and picklable, so that worker processes and Dask can run it;
    ``on_progress`` is :func:`~intrigue.solver.solve`'s, where it runs here.
    """
    game, deal, mode, max_nodes, search, seed, end_nodes, checkpoint = task
    if search == "order":
        return _order_test(game, deal, mode, max_nodes, on_progress)
    if search == "guided":
        return _guided(game, deal, mode, max_nodes, on_progress)
    if search == "column":
        kept = None if checkpoint is None else checkpoint_of(checkpoint, game, mode, deal)
        return _column_test(game, deal, mode, max_nodes, on_progress, kept)
    result = solve(
        Position.start(game, deal, mode),
        max_nodes=max_nodes,
        probe=search not in EXHAUSTIVE,
        rollouts_only=search == "rollouts",
        frontier_only=search == "frontier",
        layered=search == "layered",
        checkpoint=None if checkpoint is None else checkpoint_of(checkpoint, game, mode, deal),
        seed=seed,
        rollout_end_nodes=end_nodes,
        on_progress=on_progress,
    )
    record: Record = {
        "game": game,
        "deal": deal,
        "mode": mode,
        "verdict": result.verdict,
        "nodes": result.nodes,
        "seconds": round(result.seconds, 6),
        "best": result.best,
        "length": None if result.moves is None else len(result.moves),
        "max_nodes": max_nodes,
    }
    if search in EXHAUSTIVE:
        record["probes"] = False
    if search in ("layered", "rollouts", "frontier"):
        record["search"] = search
    if search == "layered":
        # A large layer is expanded in parts by class; records without this
        # are from the search that held each layer whole, whose memory ran
        # out where this one's may not (_retry).
        record["layers"] = "parts"
    if result.test_states is not None:
        # The frontier proof's most states a position; records without it are
        # from before its test was tried again with more (TEST_STATES then).
        record["test_states"] = result.test_states
    if search in SEEDED and seed != SEED:
        record["seed"] = seed
    if search in SEEDED and end_nodes != END_NODES:
        record["end_nodes"] = end_nodes
    if search == "layered" and checkpoint is not None and result.verdict == "unknown":
        # where it stopped and how fast its last layers grew: whether to go on with it
        layers = kept_layers(checkpoint_of(checkpoint, game, mode, deal))
        if layers:
            record["layer"] = layers[-1][0] + 1
            record["layer_positions"] = [list(layer) for layer in layers[-KEPT_LAYERS_TOLD:]]
    if result.memory_full:
        record["memory_full"] = True  # a larger max_nodes will not help on this machine
    if result.blocked is not None:
        record["blocked"] = list(result.blocked)  # then "best" is only a lower bound
    if result.blocked_ranks is not None:
        record["blocked_ranks"] = list(result.blocked_ranks)  # likewise
    return record


def _order_test(
    game: str,
    deal: int,
    mode: str,
    max_nodes: int | None,
    on_progress: Callable[[int], None] | None,
) -> Record:
    """The order test alone on one manual deal (:func:`order_test`: every
    column briefly, longest first, then single cards, ``max_nodes`` of them
    (if given) in their order of pressure, then the columns left undecided at
    length); ``on_progress`` hears the columns and cards tried."""
    cards = ORDER_TEST_CARDS if max_nodes is None else max_nodes
    started = time.perf_counter()
    proof = order_test(Position.start(game, deal, mode), cards=cards, on_try=on_progress)
    # "nodes": the columns and cards tried, for the test counts no positions
    record = _proof_record(game, deal, mode, "order", proof.lost, proof.tried, started, max_nodes)
    if proof.column is not None:
        record["blocked_column"] = proof.column
    if proof.card is not None:
        record["blocked_card"] = list(proof.card)
    return record


def _guided(
    game: str,
    deal: int,
    mode: str,
    max_nodes: int | None,
    on_progress: Callable[[int], None] | None,
) -> Record:
    """Dealing by the order test's timings (:func:`guided_win`) on one manual
    deal, the solver given ``max_nodes`` (if given) from each position after
    the deal; ``on_progress`` hears the timings dealt by.  A win's record
    carries its line (``"moves"``), replayed through the engine."""
    started = time.perf_counter()
    limit = GUIDE_NODES if max_nodes is None else max_nodes
    found = guided_win(Position.start(game, deal, mode), max_nodes=limit, on_timing=on_progress)
    record: Record = {
        "game": game,
        "deal": deal,
        "mode": mode,
        "verdict": "unknown" if found.moves is None else "won",
        "nodes": found.nodes,
        "seconds": round(time.perf_counter() - started, 6),
        "best": found.best,
        "length": None if found.moves is None else len(found.moves),
        "max_nodes": max_nodes,
        "search": "guided",
        "timings": found.timings,
    }
    if found.moves is not None:
        record["moves"] = " ".join(str(move) for move in found.moves)
    return record


def _column_test(
    game: str,
    deal: int,
    mode: str,
    max_nodes: int | None,
    on_progress: Callable[[int], None] | None,
    kept: Path | None = None,
) -> Record:
    """The column test alone on one manual deal, each of its relaxed games
    within ``max_nodes`` states (:func:`blocked_column_each`; if ``None``,
    :data:`COLUMN_TEST_STATES`); ``on_progress`` hears the states visited
    after each game.  With ``kept`` (the deal's checkpoint directory), each
    game played is kept in its :data:`COLUMN_GAMES` file as it ends, and a
    run again plays only the games not kept there: a deal stopped after an
    hour goes on from its last game.  A proof empties the file."""
    each = COLUMN_TEST_STATES if max_nodes is None else max_nodes
    started = time.perf_counter()
    path = None if kept is None else kept / COLUMN_GAMES
    known = {} if path is None else kept_column_games(path)
    if kept is not None:
        kept.mkdir(parents=True, exist_ok=True)
    with _appending(path) as keep:

        def on_played(play: Play, cleared: bool | None, states: int) -> None:
            columns, by_suit, budget = play
            entry = {
                "columns": list(columns),
                "by_suit": by_suit,
                "states_each": budget,
                "cleared": cleared,
                "states": states,
                "version": RELAXED_VERSION,
            }
            keep(json.dumps(entry))

        blocked, visited = blocked_column_each(
            Position.start(game, deal, mode),
            each,
            on_game=on_progress,
            known=known,
            on_played=None if path is None else on_played,
        )
    if blocked is not None and path is not None:
        _remove_kept(path)
    # "nodes": the relaxed states of all its games together
    record = _proof_record(
        game, deal, mode, "column", blocked is not None, visited, started, max_nodes
    )
    if blocked is not None:
        record["blocked"] = list(blocked)
    return record


def kept_column_games(path: Path) -> dict[Play, tuple[bool | None, int]]:
    """The relaxed games kept in ``path`` (a :data:`COLUMN_GAMES` file), as
    :func:`blocked_column_each` takes them.  Lines that are not whole entries
    (a run killed mid-write), and those of another version of the relaxed
    game, are passed over: their games are played again."""
    plays: dict[Play, tuple[bool | None, int]] = {}
    if not path.exists():
        return plays
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            entry = json.loads(line)
            columns = tuple(entry["columns"])
            play = (columns, entry["by_suit"], entry["states_each"])
            outcome = (entry["cleared"], entry["states"])
            version = entry["version"]
        except (json.JSONDecodeError, KeyError, TypeError):
            continue
        well_formed = (
            all(type(c) is int for c in columns)
            and type(play[1]) is bool
            and all(type(n) is int and n >= 0 for n in (play[2], outcome[1]))
        )
        if (
            well_formed
            and version == RELAXED_VERSION
            and (outcome[0] is True or outcome[0] is None)
        ):
            plays[play] = outcome
    return plays


@contextlib.contextmanager
def _appending(path: Path | None) -> Iterator[Callable[[str], None]]:
    """A function that appends a line to ``path`` at once, after cutting off a
    truncated last line (:func:`_cut_partial_line`); one that does nothing
    for no path."""
    if path is None:
        yield lambda _line: None
        return
    _cut_partial_line(path)
    with path.open("a", encoding="utf-8") as f:

        def append(line: str) -> None:
            f.write(line + "\n")
            f.flush()  # kept even if the run is killed outright

        yield append


def _remove_kept(path: Path) -> None:
    """Remove a kept file, and its directory if that leaves it empty."""
    path.unlink(missing_ok=True)
    with contextlib.suppress(OSError):
        path.parent.rmdir()


def _proof_record(
    game: str,
    deal: int,
    mode: str,
    search: Search,
    lost: bool,
    nodes: int,
    started: float,
    max_nodes: int | None,
) -> Record:
    """The record of a search that only proves losses (:data:`PROOFS_ONLY`)."""
    return {
        "game": game,
        "deal": deal,
        "mode": mode,
        "verdict": "lost" if lost else "unknown",
        "nodes": nodes,
        "seconds": round(time.perf_counter() - started, 6),
        "best": None,  # such a test does not know how many cards can go up
        "length": None,
        "max_nodes": max_nodes,
        "search": search,
    }


def checkpoint_of(checkpoint: str | Path, game: str, mode: str, deal: int) -> Path:
    """The directory under ``checkpoint`` where a deal's search by layers (or its
    column test's games) is kept."""
    return Path(checkpoint) / f"{game}-{mode}-{deal}"


def load_records(path: Path, game: str, mode: str) -> dict[int, Record]:
    """The records already in ``path`` for ``game`` and ``mode``, by deal.

    Lines that are not complete JSON records (a run killed mid-write) are ignored.
    """
    done: dict[int, Record] = {}
    if not path.exists():
        return done
    with path.open(encoding="utf-8") as f:
        for line in f:
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            if (
                isinstance(record, dict)
                and record.get("game") == game
                and record.get("mode") == mode
                and isinstance(record.get("deal"), int)
                and record.get("verdict") in ("won", "lost", "unknown")
            ):
                done[record["deal"]] = record
    return done


def searched(record: Record) -> tuple[Search, int | None, int | None]:
    """How a record's deal was searched, and with which seed and end searches
    of the rollouts."""
    if record.get("probes") is False:
        return "layered" if record.get("search") == "layered" else "exhaustive", None, None
    if record.get("search") in (*PROOFS_ONLY, "guided"):
        return record["search"], None, None
    search: Search = "rollouts" if record.get("search") == "rollouts" else "full"
    seed = record.get("seed", SEED)
    end_nodes = record.get("end_nodes", END_NODES)
    return (
        search,
        seed if isinstance(seed, int) else None,
        end_nodes if isinstance(end_nodes, int) else None,
    )


def _retry(
    record: Record, max_nodes: int | None, search: Search, seed: int, end_nodes: int
) -> bool:
    """Whether a stored "unknown" is worth this run's try: it was cut short by
    a smaller node limit than ``max_nodes``, or searched another way.

    An unknown of a full solve or of either exhaustive search is not searched
    again exhaustively at the same limit (they ran that search, on the same
    positions), except layer by layer where it ran out of memory (which is
    what the search by layers is for), and so in parts where the layers were
    held whole.
    """
    if record["verdict"] != "unknown":
        return False
    before = searched(record)
    now = (search, *((seed, end_nodes) if search in SEEDED else (None, None)))
    in_parts = before[0] == "layered" and record.get("layers") == "parts"
    if search == "layered" and record.get("memory_full") and not in_parts:
        return True
    if before != now and not (search in EXHAUSTIVE and before[0] in ("full", *EXHAUSTIVE)):
        return True
    old = record.get("max_nodes")
    if not isinstance(old, int):
        return max_nodes is None
    return max_nodes is None or max_nodes > old


def _cut_partial_line(path: Path) -> None:
    """Drop a truncated last line, so that appended records start on a line of their own."""
    if not path.exists():
        return
    with path.open("rb+") as f:
        f.seek(0, os.SEEK_END)
        size = f.tell()
        if size == 0:
            return
        f.seek(size - 1)
        if f.read(1) == b"\n":
            return
        f.seek(0)
        data = f.read()
        f.truncate(data.rfind(b"\n") + 1)


def _solve_local(
    tasks: list[Task], jobs: int, on_search: Callable[[int, int], None] | None
) -> Iterator[Record]:
    if jobs <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield solve_deal(task, None if on_search is None else partial(on_search, task[1]))
        return
    import multiprocessing

    # One deal at a time: a few deals are much slower than the rest, and each
    # record is written (so an interrupted run keeps it) as soon as it is solved.
    with multiprocessing.Pool(jobs) as pool:
        yield from pool.imap_unordered(solve_deal, tasks)


def _solve_dask(tasks: list[Task], scheduler: str) -> Iterator[Record]:
    try:
        from distributed import Client, as_completed
    except ImportError:  # pragma: no cover - depends on the installed extras
        raise DealNumberError(
            f"--scheduler {scheduler!r} needs Dask: pip install 'intrigue[cluster]'"
        ) from None
    with Client(scheduler) as client:  # type: ignore[no-untyped-call]
        futures = client.map(solve_deal, tasks, pure=False)
        for future in as_completed(futures):  # type: ignore[no-untyped-call]
            yield future.result()


def run_stats(
    game: str,
    first: int,
    last: int,
    *,
    mode: str = "auto",
    jobs: int | None = None,
    out: str | Path | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    scheduler: str | None = None,
    progress: Progress | None = None,
    on_search: Callable[[int, int], None] | None = None,
    search: Search = "full",
    seed: int = SEED,
    end_nodes: int = END_NODES,
    checkpoint: str | Path | None = None,
) -> dict[str, Any]:
    """Solve deals ``first..last`` of ``game`` and summarise (see :func:`summarise`).

    ``jobs`` worker processes (default: all cores); ``on_search(deal,
    nodes)`` hears how far the search of a deal has got, where the deals are
    solved in this process (one worker, or one deal); ``out`` a JSON-lines file
    that records each deal and lets an interrupted run resume; ``scheduler``
    the address of a Dask scheduler to run on instead.  In manual mode
    ``search="exhaustive"`` gives the whole ``max_nodes`` to the exhaustive
    search (which is what proves a deal lost) and none to the probes (which
    find the hard wins), and ``search="layered"`` to the same search taken
    layer by layer (:func:`~intrigue.solver.dfs.layered_search`: the same
    positions in far less memory, in either mode); ``search="rollouts"`` gives it all to the rollouts over
    the deal, whose generator ``seed`` seeds: a run with another seed plays
    other lines (``end_nodes``: the positions each rollout's end search may
    expand, for the searches that play rollouts); ``search="frontier"`` gives it all to the frontier proof
    (:mod:`intrigue.solver.frontier`), which proves losses the exhaustive
    search cannot reach and never finds a win.  With ``search="layered"``, a
    ``checkpoint`` directory keeps each deal's search there where it stops
    short of a verdict (its limit, Ctrl-C, the memory or the disk), and a run
    again with a larger ``max_nodes`` goes on from where it stopped; with
    ``search="column"``, it keeps each relaxed game played
    (:data:`COLUMN_GAMES`), and a run again plays only the others.

    Raises:
        UnknownVariantError, DealModeError, DealNumberError: for bad arguments
            (the frontier proof in Faerie Queen is an UnknownVariantError).
        CheckpointError: for a deal's kept search of another position, or damaged.
    """
    variant = find_variant(game)
    deal_mode = parse_mode(mode)
    if search not in SEARCHES:
        raise ValueError(f"bad search {search!r}: expected one of {', '.join(SEARCHES)}")
    if end_nodes < 1:
        raise ValueError(f"bad end_nodes {end_nodes}: expected a positive number of positions")
    if end_nodes != END_NODES and search not in SEEDED:
        raise ValueError(
            f"end_nodes is for the searches that play the rollouts, not the {search} search"
        )
    if search not in ("full", "layered") and deal_mode != "manual":
        raise DealModeError(
            f"the {search} search alone is for manual mode: an auto deal has no "
            "deal left to decide, and its full search is already exhaustive"
        )
    if checkpoint is not None and search not in KEPT_SEARCHES:
        raise ValueError(
            "a checkpoint keeps the search by layers or the column test's games, "
            f"not the {search} search"
        )
    if checkpoint is not None and scheduler is not None:
        raise ValueError(
            "a checkpoint is a directory of this machine; the workers of a cluster do not share it"
        )
    kept = None if checkpoint is None else str(checkpoint)
    if search in ("frontier", "column") and variant.build_down:
        raise UnknownVariantError(
            f"the {'frontier proof' if search == 'frontier' else 'column test'} does not "
            f"cover {variant.name}: its cards build down, which the column test "
            "does not follow"
        )
    if search == "guided" and variant.vacant_column_any_time:
        raise UnknownVariantError(
            f"dealing by the order test's timings does not cover {variant.name}: "
            "its cards park on vacant columns while the pack is dealt"
        )
    if not 1 <= first <= last < MAX_DEAL:
        raise DealNumberError(f"bad deal range {first}-{last}")
    path = Path(out) if out is not None else None
    done: dict[int, Record] = {}
    if path is not None:
        done = {
            d: r for d, r in load_records(path, variant.id, deal_mode).items() if first <= d <= last
        }
        # An "unknown" found under a smaller limit (or searched another way)
        # is worth another try now.
        done = {d: r for d, r in done.items() if not _retry(r, max_nodes, search, seed, end_nodes)}
        if checkpoint is not None:
            # A deal stopped by the memory or the disk (or its record lost)
            # goes on where its kept search can, whatever the limit.
            done = {
                d: r
                for d, r in done.items()
                if not has_kept_search(checkpoint_of(checkpoint, variant.id, deal_mode, d))
            }
    tasks: list[Task] = [
        (variant.id, deal, deal_mode, max_nodes, search, seed, end_nodes, kept)
        for deal in range(first, last + 1)
        if deal not in done
    ]
    total = last - first + 1
    counts = {"won": 0, "lost": 0, "unknown": 0}
    for record in done.values():
        counts[record["verdict"]] += 1
    records = list(done.values())
    started = time.perf_counter()
    results: Iterable[Record] = (
        _solve_dask(tasks, scheduler)
        if scheduler is not None
        else _solve_local(tasks, jobs or os.cpu_count() or 1, on_search)
    )
    kept_searches: list[dict[str, Any]] = []
    with _appending(path) as keep:
        if progress is not None:
            progress(len(records), total, counts)
        for record in results:
            keep(json.dumps(record))
            records.append(record)
            counts[record["verdict"]] += 1
            if "layer" in record:
                kept_searches.append({k: record[k] for k in ("deal", "layer", "layer_positions")})
            if progress is not None:
                progress(len(records), total, counts)
    summary = summarise(records)
    summary.update(
        game=variant.id,
        mode=deal_mode,
        first=first,
        last=last,
        max_nodes=max_nodes,
        probes=search not in EXHAUSTIVE,
        search=search,
        seed=seed,
        end_nodes=end_nodes,
        resumed=len(done),
        kept=kept_searches,
        wall_seconds=round(time.perf_counter() - started, 3),
    )
    return summary


def summarise(records: list[Record]) -> dict[str, Any]:
    """Win rate (over decided deals) with its Wilson 95% interval, counts, percentiles.

    ``win_rate_bounds`` is the range the rate over *all* deals could have if
    every unknown deal were lost or won.
    """
    won = sum(1 for r in records if r["verdict"] == "won")
    lost = sum(1 for r in records if r["verdict"] == "lost")
    unknown = len(records) - won - lost
    decided = won + lost
    low, high = wilson(won, decided)
    seconds = [float(r["seconds"]) for r in records]
    nodes = [float(r["nodes"]) for r in records]
    # Only exhaustive losses know their best exactly; a relaxed or frontier proof does not.
    exhaustive = [
        r
        for r in records
        if r["verdict"] == "lost"
        and r.get("blocked") is None
        and r.get("blocked_ranks") is None
        and r.get("search") not in PROOFS_ONLY
    ]
    lost_best = [int(r["best"]) for r in exhaustive if r["best"] is not None]
    n = len(records)
    return {
        "deals": n,
        "won": won,
        "lost": lost,
        "unknown": unknown,
        "win_rate": won / decided if decided else None,
        "wilson95": [round(low, 6), round(high, 6)],
        "win_rate_bounds": [won / n, (won + unknown) / n] if n else None,
        "seconds": {q: round(percentile(seconds, p), 6) for q, p in _QUANTILES},
        "nodes": {q: int(percentile(nodes, p)) for q, p in _QUANTILES},
        "total_seconds": round(sum(seconds), 3),
        "lost_best_mean": round(sum(lost_best) / len(lost_best), 2) if lost_best else None,
        "lost_by_column_test": lost - len(exhaustive),
        "unknown_out_of_memory": sum(1 for r in records if r.get("memory_full")),
    }


_QUANTILES = (("p50", 50.0), ("p90", 90.0), ("p99", 99.0), ("max", 100.0))
