"""Migration 0004 on SQLite and PostgreSQL: account names that were the same but for case,
Unicode form or spaces at the ends are told apart (the oldest keeps its name, the later ones are
renamed), and from then on the database itself keeps one account per canonical name."""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, text

from syndicate.room.cardroom import CardRoom
from syndicate.room.errors import Conflict
from syndicate.room.ledger import now
from syndicate.store import Database, SqlStore
from syndicate.store.database import MIGRATIONS
from tests.kit.room import FAST_HASHER, PASSWORD, PG_SERVER


@pytest.fixture(params=["sqlite", "postgresql"])
def fresh(request, tmp_path) -> Iterator[Database]:
    if request.param == "sqlite":
        db = Database(f"sqlite:///{tmp_path / 'old.db'}")
        yield db
        db.dispose()
        return
    name = "syndicate_test_" + secrets.token_hex(6)
    admin = create_engine(f"{PG_SERVER}/postgres", isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'CREATE DATABASE "{name}"'))
    db = Database(f"{PG_SERVER}/{name}")
    try:
        yield db
    finally:
        db.dispose()
        with admin.connect() as c:
            c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def _upgrade(db: Database, revision: str) -> None:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with db.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)


def test_duplicates_before_0004_are_renamed_and_the_rest_kept(fresh: Database) -> None:
    _upgrade(fresh, "0003")
    hashed = FAST_HASHER.hash(PASSWORD)
    names = ["Admin", "admin ", "ADMIN", "admin-2", "Bob", "bob"]
    with fresh.engine.begin() as c:
        c.execute(text("INSERT INTO events (id, name, created_at) VALUES (1, 'Old night', :at), (2, 'Next', :at)"),
                  {"at": now()})
        for i, name in enumerate(names, 1):
            c.execute(text("INSERT INTO accounts (id, event_id, name, role, password_hash, created_at) "
                           "VALUES (:i, 1, :n, 'player', :h, :at)"), {"i": i, "n": name, "h": hashed, "at": now()})
        c.execute(text("INSERT INTO accounts (id, event_id, name, role, password_hash, created_at) "
                       "VALUES (7, 2, 'BOB', 'player', :h, :at)"), {"h": hashed, "at": now()})
        c.execute(text("INSERT INTO auth_tokens (token_hash, account_id, kind, created_at, expires_at) "
                       "VALUES ('t', 2, 'token', :at, :at)"), {"at": now()})
    _upgrade(fresh, "head")
    with fresh.engine.connect() as c:
        rows = c.execute(text("SELECT id, name, name_key FROM accounts ORDER BY id")).all()
        assert c.execute(text("SELECT account_id FROM auth_tokens")).scalar() == 2  # its sign-ins stay
    assert [tuple(r) for r in rows] == [
        (1, "Admin", "admin"), (2, "admin-3", "admin-3"), (3, "ADMIN-4", "admin-4"), (4, "admin-2", "admin-2"),
        (5, "Bob", "bob"), (6, "bob-2", "bob-2"), (7, "BOB", "bob")]  # another event keeps its own
    room = CardRoom(SqlStore(fresh), FAST_HASHER)
    assert room.accounts.sign_in(1, "admin ", PASSWORD)[1].id == 1
    assert room.accounts.sign_in(1, "Admin-3", PASSWORD)[1].id == 2
    with pytest.raises(Conflict) as e, room.store.transaction() as repo:  # the database refuses it too
        repo.add_account(1, "ADMIN", "player", hashed, now())
    assert e.value.rule == "name"
