"""Shared fixtures for the card-room tests (room, store, web): one database per backend per test
session, SQLite in a temporary file and PostgreSQL for real on 127.0.0.1:5432 (a fresh
``syndicate_test_<hex>`` database, dropped at the end). A test runs on SQLite; one where the
database matters (storage, the ledger, a crash) is marked ``both_databases`` and runs on both.
Each test gets its own event, so tests share the schema but never each other's rows."""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher
from sqlalchemy import create_engine, text

from syndicate.room.cardroom import CardRoom
from syndicate.room.values import Account, Event
from syndicate.store import Database, SqlStore
from tests.kit.poll import until
from tests.kit.ports import free_port

PG_SERVER = os.environ.get("SYNDICATE_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432")
REDIS_SERVER = os.environ.get("SYNDICATE_TEST_REDIS", "redis://127.0.0.1:6379/0")
#: The browser tests drive Debian's Chromium.
CHROMIUM = os.environ.get("SYNDICATE_TEST_CHROMIUM", "/usr/bin/chromium")
#: argon2 at its cheapest: the tests check the flow, not the cost.
FAST_HASHER = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
PASSWORD = "correct horse battery"


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    name = "syndicate_test_" + secrets.token_hex(6)
    admin = create_engine(f"{PG_SERVER}/postgres", isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield f"{PG_SERVER}/{name}"
    finally:
        with admin.connect() as c:
            c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


#: The backends of a test marked ``both_databases`` (tests/conftest.py); every other test runs on
#: the first.
BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(scope="session")
def db_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The test database's URL, migrated: SQLite, or for a test marked ``both_databases`` each of
    :data:`BACKENDS` (tests/conftest.py parametrizes it)."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('db') / 'syndicate.db'}"
    else:
        url = request.getfixturevalue("pg_url")
    db = Database(url)
    db.migrate()
    db.dispose()
    yield url


@pytest.fixture(scope="session")
def database(db_url: str) -> Iterator[Database]:
    db = Database(db_url)
    yield db
    db.dispose()


@pytest.fixture
def room(database: Database) -> CardRoom:
    return CardRoom(SqlStore(database), FAST_HASHER)


@dataclass
class Cast:
    """An event with one account per role (and the notice's roster)."""

    event: Event
    admin: Account
    boss: Account  # Jean-Marc, the pit boss of Bokuden, Ryuusei and Kyohei
    other_boss: Account  # Miles
    dealer: Account  # Bokuden, authorized
    rogue: Account  # a dealer account not on the roster
    alice: Account
    bob: Account
    spectator: Account

    def by_role(self) -> dict[str, Account]:
        return {"admin": self.admin, "pit_boss": self.boss, "dealer": self.dealer, "player": self.alice,
                "spectator": self.spectator}


def make_cast(room: CardRoom) -> Cast:
    ev = room.accounts.create_event("Night " + secrets.token_hex(4))
    room.roster.seed_notice(ev.id)
    add = room.accounts.add
    return Cast(
        ev,
        add(ev.id, "admin", "admin", PASSWORD),
        add(ev.id, "Jean-Marc", "pit_boss", PASSWORD),
        add(ev.id, "Miles", "pit_boss", PASSWORD),
        add(ev.id, "Bokuden", "dealer", PASSWORD),
        add(ev.id, "Ghost", "dealer", PASSWORD),
        add(ev.id, "Alice", "player", PASSWORD),
        add(ev.id, "Bob", "player", PASSWORD),
        add(ev.id, "Sam", "spectator", PASSWORD),
    )


@pytest.fixture
def cast(room: CardRoom) -> Cast:
    return make_cast(room)


class LiveServer:
    """A real uvicorn server on a free loopback port, in a thread of the test process, with the
    settings of ``syndicate serve`` (``config``: more uvicorn settings)."""

    def __init__(self, app, **config: Any) -> None:  # type: ignore[no-untyped-def]
        import threading

        import uvicorn

        self.port = free_port()
        self.app = app
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning",
                                                   ws_max_size=65536, ws_per_message_deflate=False,
                                                   lifespan="on", **config))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        until(lambda: self.server.started, timeout=10, every=0.01, what="the server to start")
        self.url = f"http://127.0.0.1:{self.port}"

    @property
    def up(self) -> bool:
        return self.thread.is_alive() and self.server.started and not self.server.should_exit

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


def bearer(client: Any, event_id: int, name: str, password: str = PASSWORD) -> dict[str, str]:
    """Sign ``name`` in through a TestClient: the Authorization header for their token."""
    r = client.post(f"/api/events/{event_id}/tokens", json={"name": name, "password": password})
    assert r.status_code == 200, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


async def deal_until_someone_must_act(dealer: Any, bets: list[tuple[Any, int]]) -> dict[str, Any]:
    """Blackjack rounds (each player betting their amount) until one is dealt that does not end
    at once on a blackjack: its state, as the dealer sees it."""
    while True:
        await dealer.act("start_round")
        for player, amount in bets:
            await player.act("bet", amount=amount)
        ack = await dealer.act("deal")
        st: dict[str, Any] = await dealer.wait(lambda s: s["version"] >= ack["version"])
        if st["round"]["phase"] != "settled":
            return st


async def hand_in_play(dealer: Any, alice: Any, bob: Any) -> dict[str, Any]:
    """Seat Alice (seat 1) and Bob (seat 2) with 5,000 each and play Blackjack until a hand is
    dealt and waits for a player, doubled where possible (more chips out): the dealer's state."""
    await alice.act("sit", seat=1, amount=5_000)
    await bob.act("sit", seat=2, amount=5_000)
    while True:
        st = await deal_until_someone_must_act(dealer, [(alice, 500), (bob, 300)])
        player = alice if st["round"]["to_act"] == 1 else bob
        mine = await player.wait(lambda s, v=st["version"]: s["version"] >= v)
        if "double" in mine["round"]["legal_actions"]:
            version = (await player.act("double"))["version"]
            st = await dealer.wait(lambda s, v=version: s["version"] >= v)
        if st["round"]["phase"] != "settled":
            return st


class ServerProcess:
    """A server in a process of its own: ``args`` with ``{port}`` replaced by a free loopback
    port, its output in ``log``; ready once it answers ``GET /api/events``."""

    def __init__(self, args: list[str], log: Path, timeout: float = 60) -> None:
        import httpx

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = log
        self.log = log.open("ab")
        self.proc = subprocess.Popen([a.format(port=self.port) for a in args], stdout=self.log,
                                     stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        def answers() -> bool:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server did not start: {log.read_text()}")
            return httpx.get(f"{self.url}/api/events", timeout=1).status_code == 200

        until(answers, timeout=timeout, every=0.1, retry_on=(httpx.HTTPError,),
              what=f"the server to answer (its log: {log})")

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def signal(self, sig: int) -> None:
        self.proc.send_signal(sig)

    def kill9(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self.log.close()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)  # a test may have paused it
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.log.close()
