"""The hostile-input tests (issue 7) run on SQLite only: what they attack is the web layer, and
the authorization matrix and the role change also run on PostgreSQL in tests/web."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from syndicate.room.cardroom import CardRoom
from syndicate.store import Database, SqlStore
from tests.kit.room import FAST_HASHER, Cast, make_cast


@pytest.fixture(scope="session")
def database(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    db = Database(f"sqlite:///{tmp_path_factory.mktemp('hostile') / 'syndicate.db'}")
    db.migrate()
    yield db
    db.dispose()


@pytest.fixture
def room(database: Database) -> CardRoom:
    return CardRoom(SqlStore(database), FAST_HASHER)


@pytest.fixture
def cast(room: CardRoom) -> Cast:
    return make_cast(room)
