"""Several real server processes (``syndicate serve --redis``) on loopback, on a fresh PostgreSQL
database of their own and the machine's Redis (or a private Redis, for the tests that restart it)."""

from __future__ import annotations

import secrets
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from syndicate.room.cardroom import CardRoom
from syndicate.store import Database, SqlStore
from tests.kit.room import FAST_HASHER, PG_SERVER, REDIS_SERVER, Cast, ServerProcess, free_port, make_cast

REDIS = REDIS_SERVER
LEASE = 2.0  # seconds: short, so that takeovers happen in test time
SYNDICATE = str(Path(sys.executable).parent / "syndicate")


class Node(ServerProcess):
    """One ``syndicate serve --redis`` process of the cluster."""

    def __init__(self, db_url: str, redis_url: str, log: Path, lease: float = LEASE) -> None:
        super().__init__([SYNDICATE, "serve", "--db", db_url, "--redis", redis_url, "--port", "{port}",
                          "--lease-seconds", str(lease), "--no-roster"], log)


@pytest.fixture
def cluster_db() -> Iterator[str]:
    """A fresh PostgreSQL database for one test: its processes sweep every lease they find."""
    name = "syndicate_cluster_" + secrets.token_hex(5)
    admin = create_engine(f"{PG_SERVER}/postgres", isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'CREATE DATABASE "{name}"'))
    url = f"{PG_SERVER}/{name}"
    db = Database(url)
    db.migrate()
    db.dispose()
    try:
        yield url
    finally:
        with admin.connect() as c:
            c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture
def cluster_room(cluster_db: str) -> Iterator[tuple[CardRoom, Cast]]:
    db = Database(cluster_db)
    room = CardRoom(SqlStore(db), FAST_HASHER)
    yield room, make_cast(room)
    db.dispose()


@pytest.fixture
def nodes(cluster_db: str, tmp_path: Path) -> Iterator[list[Node]]:
    """Two processes on the machine's Redis (a third can be added with ``start``)."""
    started: list[Node] = []
    try:
        with ThreadPoolExecutor(2) as pool:  # both start at once: a start is mostly waiting
            starting = [pool.submit(Node, cluster_db, REDIS, tmp_path / f"node{i}.log") for i in range(2)]
            for f in starting:
                if f.exception() is None:
                    started.append(f.result())
            for f in starting:
                f.result()  # a node that did not start fails the test, the others stopped below
        yield started
    finally:
        for n in started:
            n.stop()


class PrivateRedis:
    """A Redis server of the test's own, on a free port, that the test may restart."""

    def __init__(self, tmp: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.tmp = tmp
        self.proc: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        exe = shutil.which("redis-server") or "/usr/bin/redis-server"
        self.proc = subprocess.Popen([exe, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                                      "--appendonly", "no", "--dir", str(self.tmp)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait(10)


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    r = PrivateRedis(tmp_path)
    yield r
    r.kill()
