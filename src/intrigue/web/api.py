"""The JSON handlers: parse the request, call the engine, answer with the view model.

Handlers are thin.  A game is rebuilt from its stored moves on every request
(replaying a hundred moves takes well under a millisecond), changed through
the checked :class:`~intrigue.game.Game` API and written back at once.  A
failing call raises before anything is written, so it changes nothing.

Anything that searches (hint, "still winnable?", auto-finish, rewind) runs the
solver in a worker thread behind a limiter of one, with a node limit and a
deadline, so the event loop never blocks and two cores stay shared fairly.
"""

from __future__ import annotations

import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, Generic, Literal, Protocol, TypeVar

import anyio
import anyio.to_thread
from starlette.requests import Request
from starlette.responses import JSONResponse

from intrigue.errors import IntrigueError
from intrigue.game import Game
from intrigue.notation import Move
from intrigue.position import Position
from intrigue.web.rules import variants_info
from intrigue.web.schemas import (
    RANK_WORDS,
    MoveRequest,
    NewGameRequest,
    card_words,
    describe_move,
    game_view,
    parse_body,
    pile_moves_finish,
    pile_name,
)
from intrigue.web.settings import Settings
from intrigue.web.store import GameRecord, Store

RANDOM_DEALS = 1_000_000_000
"""A random deal is drawn from 1 .. RANDOM_DEALS - 1: short enough to read out and share."""

Verdict = Literal["won", "lost", "unknown"]


class GameNotFoundError(IntrigueError, LookupError):
    """No game with this id belongs to this browser."""

    status_code = 404


class SolverUnavailableError(IntrigueError):
    """The solver package cannot be imported."""

    status_code = 503


class NotWinnableError(IntrigueError, ValueError):
    """Auto-finish or rewind found nothing to do."""


class StaleGameError(IntrigueError, ValueError):
    """The game changed while the solver was thinking about it."""

    status_code = 409


class SolveOutcome(Protocol):
    """What the handlers read from ``intrigue.solver.SolveResult``."""

    @property
    def verdict(self) -> Verdict: ...
    @property
    def moves(self) -> tuple[Move, ...] | None: ...
    @property
    def nodes(self) -> int: ...
    @property
    def blocked(self) -> tuple[int, ...] | None: ...
    @property
    def blocked_ranks(self) -> tuple[int, ...] | None: ...


K = TypeVar("K")
V = TypeVar("V")


class Lru(Generic[K, V]):
    """A small bounded mapping that forgets the least recently used entry."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._data: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        value = self._data.get(key)
        if value is not None:
            self._data.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> None:
        self._data[key] = value
        self._data.move_to_end(key)
        while len(self._data) > self._size:
            self._data.popitem(last=False)


def run_solver(position: Position, max_nodes: int, seconds: float, end_nodes: int) -> SolveOutcome:
    """Call the solver (imported here, so the web app starts without it);
    ``end_nodes`` sizes the end searches of its rollouts."""
    try:
        from intrigue.solver import solve
    except ImportError as e:  # pragma: no cover - the solver ships with the package
        raise SolverUnavailableError(f"the solver is not available: {e}") from None
    deadline = time.monotonic() + seconds
    result: SolveOutcome = solve(
        position, max_nodes=max_nodes, deadline=deadline, rollout_end_nodes=end_nodes
    )
    return result


def player_of(request: Request) -> str:
    """The anonymous player id that :class:`intrigue.web.app.PlayerCookie` put in the scope."""
    player: str = request.scope["state"]["player"]
    return player


class Api:
    """The route handlers, sharing the settings, the store and two small caches."""

    def __init__(
        self,
        settings: Settings,
        store: Store,
        solver: Callable[[Position, int, float, int], SolveOutcome] = run_solver,
    ) -> None:
        self.settings = settings
        self.store = store
        self._solver = solver
        self._starts: Lru[tuple[str, int, str], Position] = Lru(64)
        self._verdicts: Lru[Position, SolveOutcome] = Lru(4096)
        self._limiter: anyio.CapacityLimiter | None = None

    # ---------------------------------------------------------------- helpers

    def _start(self, game: str, deal: int, mode: str) -> Position:
        key = (game, deal, mode)
        position = self._starts.get(key)
        if position is None:
            position = Position.start(game, deal, mode)
            self._starts.put(key, position)
        return position

    def _game_of(self, record: GameRecord) -> Game:
        """Rebuild the game by replaying its moves, then its redo stack, and undoing those."""
        game = Game(start=self._start(record.game, record.deal, record.mode))
        game.play_all([*record.moves, *record.redo])
        for _ in record.redo:
            game.undo()
        return game

    def _load(self, request: Request) -> tuple[GameRecord, Game]:
        game_id = request.path_params["game_id"]
        record = self.store.get(game_id, player_of(request))
        if record is None:
            raise GameNotFoundError(f"no game {game_id!r} in this browser")
        return record, self._game_of(record)

    def _save(self, record: GameRecord, game: Game) -> None:
        now = time.time()
        record.moves = [str(m) for m in game.moves]
        record.redo = [str(m) for m in game.redo_moves]
        record.updated = now
        record.played = record.played or bool(record.moves)
        if game.is_won() and not record.won:
            record.won = True
            record.finished = now
            record.win_moves = len(record.moves)
            record.win_seconds = round(now - record.started, 3)
        self.store.save(record)

    def _view(self, record: GameRecord, game: Game, **extra: Any) -> dict[str, Any]:
        view = game_view(record.id, game, started=record.started, finished=record.finished)
        view.update(extra)
        return view

    async def _solve(self, position: Position, max_nodes: int, seconds: float) -> SolveOutcome:
        """The solver's verdict, cached per position when it is exact."""
        cached = self._verdicts.get(position)
        if cached is not None:
            return cached
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(1)
        result = await anyio.to_thread.run_sync(
            partial(self._solver, position, max_nodes, seconds, self.settings.rollout_end_nodes),
            limiter=self._limiter,
        )
        if result.verdict != "unknown":
            self._verdicts.put(position, result)
        return result

    def _reload_unchanged(
        self, request: Request, moves: tuple[Move, ...]
    ) -> tuple[GameRecord, Game]:
        record, game = self._load(request)
        if game.moves != moves:
            raise StaleGameError("the game changed while the solver was searching; try again")
        return record, game

    # ---------------------------------------------------------------- routes

    async def new_game(self, request: Request) -> JSONResponse:
        req = NewGameRequest.parse(parse_body(await request.body()))
        deal = req.deal if req.deal is not None else secrets.randbelow(RANDOM_DEALS - 1) + 1
        now = time.time()
        record = GameRecord(
            id=secrets.token_urlsafe(9),
            player=player_of(request),
            game=req.variant.id,
            deal=deal,
            mode=req.mode,
            started=now,
            updated=now,
        )
        game = self._game_of(record)
        self.store.add(record)
        return JSONResponse(self._view(record, game), status_code=201)

    async def get_game(self, request: Request) -> JSONResponse:
        record, game = self._load(request)
        return JSONResponse(self._view(record, game))

    async def current_game(self, request: Request) -> JSONResponse:
        record = self.store.current(player_of(request))
        if record is None:
            raise GameNotFoundError("no game in progress in this browser yet")
        return JSONResponse(self._view(record, self._game_of(record)))

    async def move(self, request: Request) -> JSONResponse:
        req = MoveRequest.parse(parse_body(await request.body()))
        record, game = self._load(request)
        game.play(req.move)
        self._save(record, game)
        return JSONResponse(self._view(record, game))

    async def undo(self, request: Request) -> JSONResponse:
        record, game = self._load(request)
        before = game.position
        move = game.undo()
        self._save(record, game)
        words = describe_move(game.position, before, move)["text"]
        return JSONResponse(self._view(record, game, undone=str(move), undone_text=words))

    async def redo(self, request: Request) -> JSONResponse:
        record, game = self._load(request)
        game.redo()
        self._save(record, game)
        return JSONResponse(self._view(record, game))

    async def restart(self, request: Request) -> JSONResponse:
        record, game = self._load(request)
        game.restart()
        self._save(record, game)
        return JSONResponse(self._view(record, game))

    async def hint(self, request: Request) -> JSONResponse:
        """A move on a winning line, or why there is none.  Changes nothing."""
        record, game = self._load(request)
        position = game.position
        s = self.settings
        result = await self._solve(position, s.hint_nodes, s.hint_seconds)
        hint: dict[str, Any] = {"verdict": result.verdict, "move": None, "nodes": result.nodes}
        if result.verdict == "won" and result.moves:
            move = result.moves[0]
            hint["move"] = str(move)
            hint["text"] = _hint_text(position, move)
        elif result.verdict == "won":
            hint["text"] = "The game is won."
        elif result.verdict == "lost" and result.blocked is not None:
            hint["text"] = "No winning line from here: " + _blocked_text(position, result.blocked)
        elif result.verdict == "lost" and result.blocked_ranks is not None:
            kind = position.variant.kind_built_in(result.blocked_ranks).name
            hint["text"] = (
                f"No winning line from here: the {kind}s can never all be completed, "
                "whatever the other cards do."
            )
        elif result.verdict == "lost":
            hint["text"] = "No winning line from here: this position is lost."
        else:
            hint["text"] = "The solver found no win within its search limit."
        return JSONResponse(self._view(record, game, hint=hint))

    async def winnable(self, request: Request) -> JSONResponse:
        """The "still winnable?" indicator.  Changes nothing."""
        record, game = self._load(request)
        s = self.settings
        result = await self._solve(game.position, s.hint_nodes, s.hint_seconds)
        return JSONResponse(self._view(record, game, verdict=result.verdict))

    async def autofinish(self, request: Request) -> JSONResponse:
        """Play out the rest when it is trivial: pile moves alone, or a win the
        solver finds within a small budget."""
        record, game = self._load(request)
        if game.is_won():
            raise NotWinnableError("the game is already won")
        moves = pile_moves_finish(game.position)
        if moves is None:
            s = self.settings
            played = game.moves
            result = await self._solve(game.position, s.autofinish_nodes, s.autofinish_seconds)
            if result.verdict != "won" or result.moves is None:
                raise NotWinnableError(
                    "auto-finish needs a clear win, and the solver found none quickly: play on"
                )
            record, game = self._reload_unchanged(request, played)
            moves = result.moves
        game.play_all(moves)
        self._save(record, game)
        return JSONResponse(self._view(record, game, played=[str(m) for m in moves]))

    async def rewind(self, request: Request) -> JSONResponse:
        """Undo to the last position of this game from which it can still be won.

        Along the moves played, winnability only goes from won to lost (every
        later position is reachable from an earlier one), so a binary search
        over the history finds the last winnable position.
        """
        record, game = self._load(request)
        played = game.moves
        deadline = time.monotonic() + self.settings.rewind_seconds

        async def winnable(ply: int) -> bool:
            left = max(0.2, deadline - time.monotonic())
            result = await self._solve(game.position_after(ply), self.settings.hint_nodes, left)
            return result.verdict == "won"

        if await winnable(len(played)):
            raise NotWinnableError("this position can still be won: nothing to undo")
        if not await winnable(0):
            raise NotWinnableError("no winnable position found in this game, not even its start")
        lo, hi = 0, len(played)  # lo is winnable, hi is not
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if await winnable(mid):
                lo = mid
            else:
                hi = mid
        record, game = self._reload_unchanged(request, played)
        game.undo_to(lo)
        self._save(record, game)
        return JSONResponse(self._view(record, game, rewound_to=lo))

    async def stats(self, request: Request) -> JSONResponse:
        rows = self.store.stats(player_of(request))
        return JSONResponse({"stats": [r.to_dict() for r in rows]})

    async def variants(self, request: Request) -> JSONResponse:
        del request  # the same for everyone
        return JSONResponse({"variants": variants_info()})


def _hint_text(position: Position, move: Move) -> str:
    if move.is_deal:
        return "Deal the next card."
    card = card_words(position.columns[move.source - 1][-1])
    if move.is_to_pile:
        slot = position.pile_slot_for(position.columns[move.source - 1][-1])
        where = f"the {pile_name(position.variant, slot)}" if slot is not None else "a pile"
        return f"Move the {card} from column {move.source} to {where}."
    return f"Move the {card} from column {move.source} to column {move.target}."


def _blocked_text(position: Position, columns: Sequence[int]) -> str:
    """Why a column-test loss is lost, in words (docs/solver.md, "The column test")."""
    names = []
    for column in columns:
        coming = column - len(position.columns)
        if coming <= 0:
            names.append(f"column {column}")
        else:
            base = RANK_WORDS[position.variant.base_rank].title()
            nth = {1: "next", 2: "second", 3: "third"}.get(coming, f"{coming}th")
            will = "will" if coming == 1 else "still to come will"
            names.append(f"the column the {nth} {base} {will} open")
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    return f"the cards of {listed} can never all reach the piles."
