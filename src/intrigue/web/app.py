"""``create_app(settings, store)``: the card table as one ASGI app.

The routes are one readable list.  Every error leaves through one of three
handlers: an :class:`~intrigue.errors.IntrigueError` becomes ``400 {"error":
<class>, "detail": <message>}`` (or the status the error class names, such
as 404 for a game that is not this browser's); Starlette's own HTTP errors
keep their status with the same body shape; anything else is a bug, logged,
and answered with a 500 that shows no traceback.
"""

from __future__ import annotations

import logging
import re
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from http import HTTPStatus
from http.cookies import SimpleCookie
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from intrigue.errors import IntrigueError
from intrigue.web.api import Api
from intrigue.web.settings import Settings
from intrigue.web.store import Store

log = logging.getLogger("intrigue.web")

STATIC = Path(__file__).parent / "static"
COOKIE = "intrigue_player"
_PLAYER_RE = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
_TEN_YEARS = 10 * 365 * 24 * 3600


class PlayerCookie:
    """Give every browser an anonymous player id in an HttpOnly, SameSite cookie.

    The id is put in ``scope["state"]["player"]``; a browser without a valid
    one gets a fresh id, sent back with the response.  Games belong to the
    id that created them, so another browser's game id answers 404.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        player = _player_from_headers(scope["headers"])
        fresh = player is None
        if player is None:
            player = secrets.token_urlsafe(18)
        scope.setdefault("state", {})["player"] = player

        async def send_with_cookie(message: Message) -> None:
            if fresh and message["type"] == "http.response.start":
                cookie = (
                    f"{COOKIE}={player}; Path=/; Max-Age={_TEN_YEARS}; HttpOnly; SameSite=Strict"
                )
                message["headers"] = [*message.get("headers", []), (b"set-cookie", cookie.encode())]
            await send(message)

        await self.app(scope, receive, send_with_cookie)


def _player_from_headers(headers: list[tuple[bytes, bytes]]) -> str | None:
    for name, value in headers:
        if name == b"cookie":
            jar: SimpleCookie = SimpleCookie()
            try:
                jar.load(value.decode("latin-1"))
            except Exception:  # a garbled cookie header: treat as no cookie
                continue
            morsel = jar.get(COOKIE)
            if morsel is not None and _PLAYER_RE.match(morsel.value):
                return morsel.value
    return None


async def intrigue_error(request: Request, exc: Exception) -> Response:
    del request
    status = getattr(exc, "status_code", 400)
    return JSONResponse({"error": type(exc).__name__, "detail": str(exc)}, status_code=status)


async def http_error(request: Request, exc: Exception) -> Response:
    del request
    assert isinstance(exc, HTTPException)
    name = HTTPStatus(exc.status_code).phrase.replace(" ", "") if exc.status_code else "HTTPError"
    return JSONResponse(
        {"error": name, "detail": str(exc.detail)}, status_code=exc.status_code, headers=exc.headers
    )


async def server_error(request: Request, exc: Exception) -> Response:
    log.exception("unexpected error in %s %s", request.method, request.url.path, exc_info=exc)
    return JSONResponse(
        {"error": "InternalError", "detail": "something went wrong on the server (it is logged)"},
        status_code=500,
    )


def create_app(settings: Settings, store: Store | None = None) -> Starlette:
    """Build the card table.  Opens ``settings.db_path`` unless a ``store`` is given
    (the caller then owns it and closes it)."""
    own_store = store is None
    db = Store(settings.db_path) if store is None else store
    api = Api(settings, db)
    game = "/games/{game_id:str}"
    routes = [
        Mount(
            "/api",
            routes=[
                Route("/games", api.new_game, methods=["POST"]),
                Route(game, api.get_game, methods=["GET"]),
                Route(game + "/moves", api.move, methods=["POST"]),
                Route(game + "/undo", api.undo, methods=["POST"]),
                Route(game + "/redo", api.redo, methods=["POST"]),
                Route(game + "/restart", api.restart, methods=["POST"]),
                Route(game + "/hint", api.hint, methods=["POST"]),
                Route(game + "/winnable", api.winnable, methods=["POST"]),
                Route(game + "/autofinish", api.autofinish, methods=["POST"]),
                Route(game + "/rewind", api.rewind, methods=["POST"]),
                Route("/players/me/current", api.current_game, methods=["GET"]),
                Route("/stats", api.stats, methods=["GET"]),
                Route("/variants", api.variants, methods=["GET"]),
            ],
        ),
        Mount("/", StaticFiles(directory=STATIC, html=True), name="static"),
    ]

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        del app
        yield
        if own_store:
            db.close()

    app = Starlette(
        routes=routes,
        middleware=[Middleware(PlayerCookie)],
        exception_handlers={
            IntrigueError: intrigue_error,
            HTTPException: http_error,
            Exception: server_error,
        },
        lifespan=lifespan,
    )
    app.state.api = api
    app.state.store = db
    return app
