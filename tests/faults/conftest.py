"""Fixtures of the single-process fault tests: the card-room fixtures of tests/room/kit.py
(each test on SQLite and on a throwaway PostgreSQL database) and a real uvicorn server on
loopback, in a thread of the test process so that a test can look at the server's memory."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn

from syndicate.room.live import Timers
from syndicate.web import create_app
from syndicate.web.security import Limits
from tests.room.kit import FAST_HASHER, cast, database, db_url, pg_url, room  # noqa: F401


class FaultServer:
    """Like tests.room.kit.LiveServer (the same uvicorn settings as ``syndicate serve``), with
    the WebSocket keepalive made settable: uvicorn pings every client every
    ``ws_ping_interval`` seconds and drops one that has not answered within ``ws_ping_timeout``
    (20 s and 20 s by default, as in production)."""

    def __init__(self, app: Any, *, ws_ping_interval: float = 20.0, ws_ping_timeout: float = 20.0) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.app = app
        self.server = uvicorn.Server(uvicorn.Config(
            app, host="127.0.0.1", port=self.port, log_level="warning", ws_max_size=65536,
            ws_per_message_deflate=False, lifespan="on", ws_ping_interval=ws_ping_interval,
            ws_ping_timeout=ws_ping_timeout, backlog=2048))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.01)
        self.url = f"http://127.0.0.1:{self.port}"

    @property
    def up(self) -> bool:
        return self.thread.is_alive() and self.server.started and not self.server.should_exit

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


def start_server(database: Any, limits: Limits | None = None, **keepalive: float) -> FaultServer:  # noqa: F811
    """A server on ``database`` as ``syndicate serve`` makes it (every hand left ``playing`` is
    voided first), the turn clock off."""
    app = create_app(database=database, hasher=FAST_HASHER, migrate=False, timers=Timers(turn=None),
                     limits=limits)
    return FaultServer(app, **keepalive)


def _serve(database: Any, **keepalive: float) -> Iterator[FaultServer]:  # noqa: F811
    srv = start_server(database, **keepalive)
    yield srv
    srv.stop()


@pytest.fixture
def server(database):  # noqa: F811
    """A real server on the test database, the turn clock off, uvicorn's default keepalive."""
    yield from _serve(database)


@pytest.fixture
def quick_keepalive_server(database):  # noqa: F811
    """The same with a 1 s keepalive ping and a 2 s pong timeout, so that what uvicorn does to a
    client that stops reading happens within the test's time."""
    yield from _serve(database, ws_ping_interval=1.0, ws_ping_timeout=2.0)
