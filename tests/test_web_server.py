"""The server entry point's port choice (the serving itself is covered by the browser tests)."""

from __future__ import annotations

import socket

import pytest

from intrigue.web import server
from intrigue.web.settings import DEFAULT_PORT


def test_default_port_or_a_free_one() -> None:
    first = server.bind("127.0.0.1", None)
    try:
        port = first.getsockname()[1]
        # Whoever holds 8642 now (this test, or another program), a second
        # table still gets a port, and never the taken one.
        second = server.bind("127.0.0.1", None)
        try:
            assert second.getsockname()[1] != port
            if port == DEFAULT_PORT:
                assert second.getsockname()[1] != DEFAULT_PORT
        finally:
            second.close()
    finally:
        first.close()


def test_an_explicit_port_that_is_taken_is_an_error() -> None:
    taken = server.bind("127.0.0.1", 0)
    try:
        port = taken.getsockname()[1]
        with pytest.raises(
            server.PortInUseError, match=f"port {port} on 127.0.0.1 is already in use"
        ):
            server.bind("127.0.0.1", port)
    finally:
        taken.close()


def test_sockets_are_tcp_so_nagle_is_turned_off() -> None:
    sock = server.bind("127.0.0.1", 0)
    try:
        assert sock.proto == socket.IPPROTO_TCP
    finally:
        sock.close()
