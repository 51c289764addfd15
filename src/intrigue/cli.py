"""The ``intrigue`` command (see ``INTERFACE.md`` for the contract).

Each subcommand is one function that takes the parsed arguments and returns a
dict; one printer writes it as JSON (``--json``) or as text for people.  Bad
input is an :class:`~intrigue.errors.IntrigueError`: one line on stderr, exit 2.
Progress goes to stderr so that stdout stays clean JSON.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NoReturn

from intrigue import __version__
from intrigue.cards import NAME_OF
from intrigue.codec import position_to_dict
from intrigue.deals import deal_order, parse_deal_number
from intrigue.errors import IntrigueError
from intrigue.game import Game
from intrigue.notation import parse_moves
from intrigue.position import DEAL_MODES
from intrigue.progress import ProgressBar, SearchProgress
from intrigue.solver import DEFAULT_MAX_NODES, solve
from intrigue.solver.dfs import kept_layer
from intrigue.solver.guided import GUIDE_NODES
from intrigue.solver.order import ORDER_TEST_CARDS
from intrigue.solver.relaxation import COLUMN_TEST_STATES
from intrigue.solver.rollouts import END_NODES, SEED
from intrigue.stats import KEPT_SEARCHES, SEEDED, Search, checkpoint_of, parse_range, run_stats
from intrigue.variants import GAME_IDS, find_variant

EXIT_OK = 0
EXIT_OUT_OF_MEMORY = 1
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130

Handler = Callable[[argparse.Namespace], dict[str, Any]]
Printer = Callable[[dict[str, Any]], str]


class UsageError(IntrigueError):
    """A command line that argparse rejects."""


class _Parser(argparse.ArgumentParser):
    """An argparse parser whose errors are one line, raised rather than printed."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


def _game_args(
    p: argparse.ArgumentParser, *, deal: bool = True, mode: bool = True, moves: bool = True
) -> None:
    p.add_argument(
        "--game", default="intrigue", help=f"one of {', '.join(GAME_IDS)} (default intrigue)"
    )
    if deal:
        p.add_argument(
            "--deal", required=True, help="deal number, 1 <= N < 10^20 (PySolFC's game number)"
        )
    if mode:
        p.add_argument(
            "--mode",
            default="auto",
            help=f"deal mode, one of {', '.join(DEAL_MODES)} (default auto)",
        )
    if moves:
        p.add_argument("--moves", default="", help='moves to play first, e.g. "2f 5f 1-4 3f"')
    p.add_argument("--json", action="store_true", help="print one JSON object")


def game_from_args(args: argparse.Namespace) -> Game:
    """The game named by ``--game --deal --mode``, after ``--moves``."""
    game = Game(find_variant(args.game), parse_deal_number(args.deal), args.mode)
    game.play_all(parse_moves(args.moves))
    return game


# ---------------------------------------------------------------- subcommands


def cmd_order(args: argparse.Namespace) -> dict[str, Any]:
    variant = find_variant(args.game)
    deal = parse_deal_number(args.deal)
    return {
        "game": variant.id,
        "deal": deal,
        "order": [NAME_OF[c] for c in deal_order(variant, deal)],
    }


def print_order(data: dict[str, Any]) -> str:
    return (
        f"{find_variant(data['game']).name} deal {data['deal']}, first dealt first:\n"
        + " ".join(data["order"])
    )


def cmd_show(args: argparse.Namespace) -> dict[str, Any]:
    game = game_from_args(args)
    data = position_to_dict(game.position)
    data["moves"] = [str(m) for m in game.moves]
    data["legal_moves"] = [str(m) for m in game.legal_moves()]
    return data


def picture(data: dict[str, Any]) -> str:
    """A text picture of a position from its ``show --json`` data: piles by
    kind, columns as rows, the stock."""
    v = find_variant(data["game"])
    lines = [
        f"{v.name} deal {data['deal']} ({data['mode']}): "
        f"{data['cards_on_piles']} of {v.pile_cards} cards on the piles"
    ]
    for k, kind in enumerate(v.pile_kinds):
        start = v.slot_start[k]
        piles = data["piles"][start : start + kind.slots]
        tops = [p[-1] if p else "--" for p in piles]
        complete = sum(1 for p in piles if len(p) == kind.size)
        lines.append(f"{kind.name + 's':<11} {' '.join(tops)}   ({complete} complete)")
    if data["discard"]:
        lines.append(f"{'Discarded':<11} {' '.join(data['discard'])}")
    for i, column in enumerate(data["columns"], 1):
        lines.append(f"{i:>2}: {' '.join(column)}{'   (vacant)' if len(column) == 1 else ''}")
    if data["mode"] == "manual":
        stock = data["stock"]
        lines.append(f"Stock: {len(stock)} cards left (next {stock[0] if stock else '-'})")
    return "\n".join(lines)


def print_show(data: dict[str, Any]) -> str:
    if data["won"]:
        status = "Won."
    elif data["stuck"]:
        status = "No legal move left: the game is lost."
    else:
        status = "Legal moves: " + " ".join(data["legal_moves"])
    return f"{picture(data)}\n{status}"


def cmd_web(args: argparse.Namespace) -> dict[str, Any]:
    from intrigue.web.server import serve

    serve(host=args.host, port=args.port, open_browser=not args.no_browser)
    return {}


def positive_int(text: str, option: str) -> int:
    """An option value that must be a whole number >= 1.

    Raises:
        UsageError: naming the option and the bad value.
    """
    try:
        value = int(str(text).strip())
    except ValueError:
        raise UsageError(f"bad {option} {text!r}: expected a whole number >= 1") from None
    if value < 1:
        raise UsageError(f"bad {option} {text!r}: expected a whole number >= 1")
    return value


def cmd_solve(args: argparse.Namespace) -> dict[str, Any]:
    game = game_from_args(args)
    max_nodes = positive_int(args.max_nodes, "--max-nodes")
    progress = SearchProgress(max_nodes)
    try:
        result = solve(game.position, max_nodes=max_nodes, on_progress=progress)
    finally:
        progress.close()
    return {
        "game": game.variant.id,
        "deal": game.deal,
        "mode": game.mode,
        "after": [str(m) for m in game.moves],
        **result.to_dict(),
        "cards": game.variant.pile_cards,
    }


def _columns(numbers: Sequence[int]) -> str:
    if len(numbers) == 1:
        return f"column {numbers[0]}"
    return f"columns {', '.join(map(str, numbers[:-1]))} and {numbers[-1]}"


def print_solve(data: dict[str, Any]) -> str:
    head = f"{find_variant(data['game']).name} deal {data['deal']} ({data['mode']})"
    if data["after"]:
        head += f" after {len(data['after'])} moves"
    cost = f"{data['nodes']} positions searched in {data['seconds'] * 1000:.1f} ms"
    if data["verdict"] == "won":
        moves = " ".join(data["moves"]) or "(already won)"
        return f"{head}: won in {len(data['moves'])} moves ({cost}):\n{moves}"
    if data["verdict"] == "lost" and data.get("blocked") is not None:
        return (
            f"{head}: lost -- the cards of {_columns(data['blocked'])} can never all reach the "
            f"piles, even with every other card free ({cost}); {data['best']} of "
            f"{data['cards']} cards reached them in the positions searched."
        )
    if data["verdict"] == "lost" and data.get("blocked_ranks") is not None:
        kind = find_variant(data["game"]).kind_built_in(data["blocked_ranks"]).name
        return (
            f"{head}: lost -- the {kind}s can never all be completed, even with every other "
            f"card out of the way ({cost}); {data['best']} of {data['cards']} cards reached "
            "the piles in the positions searched."
        )
    if data["verdict"] == "lost":
        return (
            f"{head}: lost -- no sequence of moves wins ({cost}); at most {data['best']} "
            f"of {data['cards']} cards can reach the piles."
        )
    if data.get("memory_full"):
        return (
            f"{head}: unknown -- the search ran out of memory ({cost}); a larger --max-nodes "
            "will not help on this machine."
        )
    return f"{head}: unknown -- the search stopped at its limit ({cost}); try a larger --max-nodes."


SEARCH_FLAGS: dict[Search, str] = {
    "exhaustive": "--no-probes",
    "layered": "--layered",
    "rollouts": "--rollouts-only",
    "frontier": "--frontier-only",
    "order": "--order-only",
    "column": "--column-only",
    "guided": "--guided",
}
"""The ``intrigue stats`` flag of each search but the full solve's."""


def cmd_stats(args: argparse.Namespace) -> dict[str, Any]:
    first, last = parse_range(args.deals)
    jobs = positive_int(args.jobs, "--jobs") if args.jobs is not None else None
    chosen = [s for s, flag in SEARCH_FLAGS.items() if getattr(args, flag[2:].replace("-", "_"))]
    search: Search = chosen[0] if chosen else "full"  # the flags exclude each other
    end_nodes = END_NODES
    if args.end_nodes is not None:
        end_nodes = positive_int(args.end_nodes, "--end-nodes")
        if search not in SEEDED:
            raise UsageError(
                f"--end-nodes sizes the rollouts' end searches; {SEARCH_FLAGS[search]} "
                "plays no rollouts"
            )
    if args.checkpoint is not None and search not in KEPT_SEARCHES:
        raise UsageError(
            "--checkpoint keeps the search by layers or the column test's games: "
            "it goes with --layered or --column-only"
        )
    if args.checkpoint is not None and args.scheduler is not None:
        raise UsageError("--checkpoint is a directory of this machine: not with --scheduler")
    if search == "layered":
        _allow_open_files(1 << 16)
    bar = ProgressBar(
        sys.stderr,
        detail=_layer_of(args.checkpoint, find_variant(args.game).id, args.mode),
        unit=COUNTED.get(search, "positions"),
    )
    with _terminate_as_interrupt(args.checkpoint):
        return run_stats(
            args.game,
            first,
            last,
            mode=args.mode,
            jobs=jobs,
            out=args.out,
            max_nodes=(
                positive_int(args.max_nodes, "--max-nodes")
                if args.max_nodes is not None
                else ORDER_TEST_CARDS
                if search == "order"
                else COLUMN_TEST_STATES
                if search == "column"
                else GUIDE_NODES
                if search == "guided"
                else DEFAULT_MAX_NODES
            ),
            scheduler=args.scheduler,
            progress=bar,
            on_search=bar.searching,
            search=search,
            seed=positive_int(args.seed, "--seed"),
            end_nodes=end_nodes,
            checkpoint=args.checkpoint,
        )


COUNTED: dict[Search, str] = {"column": "states", "order": "columns and cards tried"}
"""What the progress line of a deal counts, where that is not positions."""


def _layer_of(checkpoint: str | None, game: str, mode: str) -> Callable[[int], str | None] | None:
    """For the progress line: the layer a deal's kept search is in."""
    if checkpoint is None:
        return None

    def layer(deal: int) -> str | None:
        p = kept_layer(checkpoint_of(checkpoint, game, mode, deal))
        return None if p is None else f"layer {p}"

    return layer


def _allow_open_files(wanted: int) -> None:
    """Raise this process's soft limit of open files towards ``wanted`` (as
    far as the hard limit lets it): a search by layers holds a file for each
    part of each large layer waiting (64 a layer), and several layers wait at
    once, past the 1 024 many systems allow by default."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


@contextmanager
def _terminate_as_interrupt(checkpoint: str | None) -> Iterator[None]:
    """A ``kill`` (SIGTERM: a scheduler's or a shell's stop) as Ctrl-C while it
    lasts: a stats run keeps its records, and its kept searches save
    themselves, rather than dying mid-write; stopped so, it says where they are."""

    def interrupt(_signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    installed = False
    try:
        before = signal.signal(signal.SIGTERM, interrupt)
        installed = True
    except ValueError:  # not the main thread: leave the signal alone
        pass
    try:
        yield
    except KeyboardInterrupt:
        if checkpoint is not None:
            print(  # noqa: T201
                f"intrigue: the searches stopped are kept in {checkpoint}: "
                "the same command goes on from there",
                file=sys.stderr,
            )
        raise
    finally:
        if installed:
            signal.signal(signal.SIGTERM, before)


KEPT_DEALS_TOLD = 10
"""The kept searches whose layers ``intrigue stats`` tells of, at most."""


def kept_line(kept: dict[str, Any]) -> str:
    """Where an unknown deal's kept search stopped, and how fast its last
    layers grew: a search whose layers still grow fast is far from its end."""
    sizes = [n for _, n in kept["layer_positions"]]
    line = f"deal {kept['deal']}: kept in layer {kept['layer']}"
    if len(sizes) < 2:
        return line
    first, last = kept["layer_positions"][0][0], kept["layer_positions"][-1][0]
    line += f"; layers {first}-{last} held " + ", ".join(f"{n:,}" for n in sizes)
    if sizes[0] and sizes[-1]:
        growth = (sizes[-1] / sizes[0]) ** (1 / (len(sizes) - 1))
        line += f" positions (x{growth:.2f} a layer)"
    return line


def print_stats(data: dict[str, Any]) -> str:
    name = find_variant(data["game"]).name
    lines = [
        f"{name} ({data['mode']}), deals {data['first']}-{data['last']}: {data['deals']} solved"
    ]
    if data["win_rate"] is not None:
        low, high = data["wilson95"]
        what = "win rate" if not data["unknown"] else "win rate of the decided deals"
        lines.append(
            f"{what} {100 * data['win_rate']:.2f}%  (95% interval {100 * low:.2f}-{100 * high:.2f}%)"
        )
    lines.append(f"won {data['won']}  lost {data['lost']}  unknown {data['unknown']}")
    if data["lost_by_column_test"]:
        lines.append(
            f"({data['lost_by_column_test']} of the lost deals proved without an exhaustive "
            "search: by the column test, the rank projection, the frontier proof or the order test)"
        )
    if data["unknown"]:
        low, high = data["win_rate_bounds"]
        why = (
            f"the rollouts alone (seed {data['seed']}), which never prove a loss, found no "
            f"win for the unknown deals within {data['max_nodes']} positions"
            if data["search"] == "rollouts"
            else f"the frontier proof, which never finds a win, did not prove the unknown "
            f"deals lost within {data['max_nodes']} positions and states"
            if data["search"] == "frontier"
            else f"the order test, which never finds a win, found no column of the unknown "
            f"deals that can never be cleared, nor a card that can never leave its column "
            f"among the {data['max_nodes']} it tried"
            if data["search"] == "order"
            else f"dealing by the order test's timings, which never proves a loss, won none "
            f"of the unknown deals within {data['max_nodes']} positions after each deal"
            if data["search"] == "guided"
            else f"the column test, which never finds a win, blocked no column or set of "
            f"columns of the unknown deals within {data['max_nodes']} states a game"
            if data["search"] == "column"
            else f"the unknown deals ran out of memory before the limit of {data['max_nodes']} "
            "positions"
            if data["unknown_out_of_memory"] == data["unknown"]
            else f"the unknown deals hit the limit of {data['max_nodes']} positions"
        )
        lines.append(
            f"over all deals the win rate is between {100 * low:.2f}% and {100 * high:.2f}% ({why})"
        )
        if data["unknown_out_of_memory"]:
            lines.append(
                f"({data['unknown_out_of_memory']} of the unknown deals ran out of memory first: "
                "a larger --max-nodes will not help them on this machine"
                + ("" if data["search"] == "layered" else "; --layered takes far less memory")
                + ")"
            )
    for kept in data.get("kept", [])[:KEPT_DEALS_TOLD]:
        lines.append(kept_line(kept))
    if len(data.get("kept", [])) > KEPT_DEALS_TOLD:
        lines.append(f"(and {len(data['kept']) - KEPT_DEALS_TOLD} more kept: see the results file)")
    if data["resumed"]:
        lines.append(f"({data['resumed']} deals were read back from the results file)")
    sec, nodes = data["seconds"], data["nodes"]
    lines.append(
        "ms per deal: "
        + "  ".join(f"{q} {1000 * sec[q]:.1f}" for q in ("p50", "p90", "p99", "max"))
    )
    lines.append("nodes: " + "  ".join(f"{q} {nodes[q]}" for q in ("p50", "p90", "p99", "max")))
    if data["lost_best_mean"] is not None:
        lines.append(
            f"lost deals bring {data['lost_best_mean']} cards to the piles on average"
            + (" (those searched exhaustively)" if data["lost_by_column_test"] else "")
        )
    return "\n".join(lines)


COMMANDS: dict[str, tuple[Handler, Printer | None]] = {
    "order": (cmd_order, print_order),
    "show": (cmd_show, print_show),
    "solve": (cmd_solve, print_solve),
    "stats": (cmd_stats, print_stats),
}


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="intrigue",
        description="Intrigue and its family of two-deck patience games. "
        "With no command, start the card table in the browser.",
    )
    parser.add_argument("--version", action="version", version=f"intrigue {__version__}")
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser window")
    parser.add_argument(
        "--port",
        type=int,
        default=None,
        help="port for the card table (default 8642, or a free one)",
    )
    parser.add_argument("--host", default="127.0.0.1", help=argparse.SUPPRESS)
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)

    p = sub.add_parser("order", help="the 104 cards of a deal, first dealt first")
    _game_args(p, mode=False, moves=False)
    p = sub.add_parser("show", help="the position after the deal (and after --moves)")
    _game_args(p)
    p = sub.add_parser(
        "solve", help="can the deal (after --moves) still be won? exact, with a winning line"
    )
    _game_args(p)
    p.add_argument(
        "--max-nodes",
        default=str(DEFAULT_MAX_NODES),
        help=f"give up ('unknown') after this many positions (default {DEFAULT_MAX_NODES})",
    )
    p = sub.add_parser("stats", help="win rate over a range of deals (all cores, resumable)")
    _game_args(p, deal=False, moves=False)
    p.add_argument("--deals", required=True, help="deal range A-B, e.g. 1-10000")
    p.add_argument("--jobs", default=None, help="worker processes (default: all cores)")
    p.add_argument(
        "--out", default=None, help="append one JSON line per deal here; rerun to resume"
    )
    p.add_argument(
        "--max-nodes",
        default=None,
        help=f"per-deal search limit (default {DEFAULT_MAX_NODES}; with --order-only, "
        f"the cards tried, default {ORDER_TEST_CARDS}; with --column-only, the states "
        f"of each relaxed game, default {COLUMN_TEST_STATES})",
    )
    how = p.add_mutually_exclusive_group()
    how.add_argument(
        "--no-probes",
        action="store_true",
        help="manual mode: give the whole limit to the exhaustive search, which proves "
        "deals lost, and none to the probes, which find the hard wins",
    )
    how.add_argument(
        "--layered",
        action="store_true",
        help="as --no-probes, but the exhaustive search goes layer by layer of progress "
        "(cards dealt plus cards up): the same positions in a fraction of the memory, for "
        "the largest loss proofs; it finds a win only at the end (either mode)",
    )
    how.add_argument(
        "--rollouts-only",
        action="store_true",
        help="manual mode: give the whole limit to the rollouts over the deal, which "
        "find hard wins and never prove a loss",
    )
    how.add_argument(
        "--frontier-only",
        action="store_true",
        help="manual mode: give the whole limit to the frontier proof (the column test "
        "from every first position past each base), which proves losses and never finds a win",
    )
    how.add_argument(
        "--order-only",
        action="store_true",
        help="manual mode: only the order test (a column no "
        "line can clear, or a card no line can send up, by when cards can leave their "
        "columns; needs intrigue[proofs]), which proves losses and never finds a win; every "
        "column is tried briefly, then (not in Salic Law) --max-nodes cards, most pressed "
        f"first (default {ORDER_TEST_CARDS}), then at length the columns without an answer",
    )
    how.add_argument(
        "--guided",
        action="store_true",
        help="manual mode, all games but Salic Law: deal by the timings the order test's "
        "clearing models give (needs intrigue[proofs]), then solve from the position after "
        "the deal within --max-nodes (default "
        f"{GUIDE_NODES}); finds wins (their records carry the line) and never proves a loss",
    )
    how.add_argument(
        "--column-only",
        action="store_true",
        help="manual mode, all games but Faerie Queen: only the column test (a column, or up "
        "to four kept together, whose cards can never all go up), which proves losses and "
        "never finds a win; --max-nodes is then the states each of its relaxed games may "
        "visit (a glance of a fiftieth each first), about 100 bytes of memory a state",
    )
    p.add_argument(
        "--seed",
        default=str(SEED),
        help=f"seed of the rollouts' generator; another seed plays other lines (default {SEED})",
    )
    p.add_argument(
        "--end-nodes",
        default=None,
        help="positions the exact search may spend to finish each rollout once the pack "
        f"is dealt (default {END_NODES}); more plays fewer, better-judged rollouts",
    )
    p.add_argument(
        "--checkpoint",
        default=None,
        metavar="DIR",
        help="with --layered: keep each deal's search in DIR (a directory a deal), so that "
        "a search stopped by --max-nodes, Ctrl-C, the memory or the disk goes on from there "
        "when run again with a larger --max-nodes (one killed outright, from its last save: "
        "it saves itself every ten minutes); with --column-only: keep each relaxed game "
        "played there as it ends, so that a run again plays only the others",
    )
    p.add_argument(
        "--scheduler",
        default=None,
        help="run on the Dask cluster at this address (intrigue[cluster])",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (0 success, 2 bad input)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            cmd_web(args)
            return EXIT_OK
        handler, printer = COMMANDS[args.command]
        data = handler(args)
    except IntrigueError as e:
        print(f"intrigue: error: {e}", file=sys.stderr)  # noqa: T201
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("intrigue: interrupted", file=sys.stderr)  # noqa: T201
        return EXIT_INTERRUPTED
    except MemoryError:
        # The solver turns its own shortage into "unknown"; this is anything else.
        print("intrigue: error: out of memory", file=sys.stderr)  # noqa: T201
        return EXIT_OUT_OF_MEMORY
    text = json.dumps(data) if getattr(args, "json", False) or printer is None else printer(data)
    try:
        print(text)  # noqa: T201
        sys.stdout.flush()
    except BrokenPipeError:
        # `intrigue order ... | head`: the reader left; that is not an error of ours.
        sys.stdout = None  # stop the interpreter's flush at exit
    return EXIT_OK
