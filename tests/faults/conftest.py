"""Fixtures of the single-process fault tests: the card-room fixtures of tests/kit/room.py
(on SQLite; PostgreSQL, a throwaway database, where the test is of it) and a real uvicorn server on
loopback, in a thread of the test process so that a test can look at the server's memory."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from syndicate.room.live.clocks import Timers
from syndicate.web import create_app
from syndicate.web.security import Limits
from tests.kit.room import FAST_HASHER, LiveServer, cast, database, db_url, pg_url, room  # noqa: F401


class FaultServer(LiveServer):
    """tests.kit.room.LiveServer with the WebSocket keepalive made settable: uvicorn pings every
    client every ``ws_ping_interval`` seconds and drops one that has not answered within
    ``ws_ping_timeout`` (20 s and 20 s by default, as in production)."""

    def __init__(self, app: Any, *, ws_ping_interval: float = 20.0, ws_ping_timeout: float = 20.0) -> None:
        super().__init__(app, ws_ping_interval=ws_ping_interval, ws_ping_timeout=ws_ping_timeout, backlog=2048)


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
