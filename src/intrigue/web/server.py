"""``intrigue`` with no command: serve the card table with uvicorn and open the browser."""

from __future__ import annotations

import errno
import socket
import sys
import threading
import webbrowser

import uvicorn

from intrigue.errors import IntrigueError
from intrigue.web.app import create_app
from intrigue.web.settings import DEFAULT_PORT, Settings


class PortInUseError(IntrigueError, OSError):
    """The port asked for is taken by another program."""


def bind(host: str, port: int | None) -> socket.socket:
    """A listening socket on ``port``; with None, :data:`DEFAULT_PORT` or else a free port.

    Binding here, before uvicorn starts, means the printed URL is the one
    actually served and a port taken by another program is never a crash.

    Raises:
        PortInUseError: if ``port`` is given and taken (the CLI prints it as one line).
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    for candidate in [DEFAULT_PORT, 0] if port is None else [port]:
        # IPPROTO_TCP, not the default 0: asyncio turns Nagle off (TCP_NODELAY) only on
        # sockets that say they are TCP, and without that every response waits ~40 ms
        # for a delayed ACK between its header and body writes.
        sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, candidate))
        except OSError as e:
            sock.close()
            if e.errno != errno.EADDRINUSE:
                raise
            if port is None:
                continue  # the default port is taken: take a free one
            raise PortInUseError(
                f"port {port} on {host} is already in use; choose another with --port, "
                "or leave --port out to get a free one"
            ) from None
        sock.listen(128)
        return sock
    raise AssertionError("unreachable: port 0 always binds")  # pragma: no cover


def serve(host: str = "127.0.0.1", port: int | None = None, *, open_browser: bool = True) -> None:
    """Serve until Ctrl-C.  Settings come from the environment; ``host``/``port`` win."""
    settings = Settings.from_env()
    sock = bind(host, port if port is not None else settings.port)
    real_port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{real_port}/"
    sys.stderr.write(f"intrigue: the card table is at {url} (Ctrl-C stops it)\n")
    sys.stderr.write(f"intrigue: games are saved in {settings.db_path}\n")
    app = create_app(settings)
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    if open_browser:

        def open_when_ready() -> None:
            # Wait for uvicorn to accept connections, so the page never sees a refused one.
            while not server.started and not server.should_exit:
                threading.Event().wait(0.05)
            if server.started:
                webbrowser.open(url)

        threading.Thread(target=open_when_ready, daemon=True).start()
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
