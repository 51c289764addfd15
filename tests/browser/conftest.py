"""Browser fixtures: the real app served by uvicorn on a loopback port, driven
by Playwright through Debian's chromium.

Without chromium (or the playwright package) the browser tests are skipped on
a developer's machine, but fail when the ``CI`` environment variable is set:
CI must prove the table works in a real browser.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _missing(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"browser tests cannot run in CI: {reason}")
    pytest.skip(reason)


def _chromium() -> str | None:
    env = os.environ.get("INTRIGUE_CHROMIUM")
    for path in ((env,) if env else ()) + CHROMIUM_CANDIDATES:
        if path and shutil.which(path):
            return path
    return None


class LiveServer:
    """create_app(...) served by uvicorn in a background thread."""

    def __init__(self, db_path: Path) -> None:
        import uvicorn

        from intrigue.web.app import create_app
        from intrigue.web.settings import Settings

        self.app = create_app(Settings(db_path=db_path))
        # IPPROTO_TCP so asyncio sets TCP_NODELAY (see intrigue.web.server.bind).
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        self._sock.bind(("127.0.0.1", 0))
        self.port = self._sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/"
        self._server = uvicorn.Server(uvicorn.Config(self.app, log_level="warning"))
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [self._sock]}, daemon=True
        )

    def start(self) -> None:
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(10)
        self._sock.close()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("web") / "games.sqlite3")
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("the playwright package is not installed")
    path = _chromium()
    if path is None:
        _missing("chromium is not installed (apt-get install chromium)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any, live_server: LiveServer) -> Iterator[Any]:
    """A fresh browser context (so a fresh anonymous player) on the table."""
    context = browser.new_context(viewport={"width": 1200, "height": 900}, base_url=live_server.url)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
