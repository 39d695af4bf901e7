"""The schema and its guarantees, on SQLite and PostgreSQL: migrations run from the package,
integer cents, and the database itself refusing what must never happen."""

from __future__ import annotations

import pytest
from sqlalchemy import inspect, select, text
from sqlalchemy.exc import IntegrityError

from syndicate.room.ledger import cashier_account, player_account
from syndicate.room.values import Move
from syndicate.store import Database, SqlStore, normalize_url
from syndicate.store.models import LedgerAccountRow, LedgerEntryRow

# Storage: migrations, constraints and big integers on each backend.
pytestmark = pytest.mark.both_databases


def test_urls() -> None:
    assert normalize_url(None) == "sqlite:///syndicate.db"
    assert normalize_url("night.db") == "sqlite:///night.db"
    assert normalize_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_url("sqlite:///x.db") == "sqlite:///x.db"


def test_migrations_create_every_table_and_are_idempotent(database: Database) -> None:
    database.migrate()  # a second `upgrade head` is a no-op
    names = set(inspect(database.engine).get_table_names())
    assert {"events", "accounts", "auth_tokens", "roster", "roster_changes", "card_tables", "ledger_accounts",
            "ledger_transactions", "ledger_entries", "hands", "shoes", "hand_players", "table_leases", "event_limits", "door_payments", "vouchers", "prize_draws", "screens", "alembic_version"} <= names
    with database.engine.connect() as c:
        assert c.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0017_shifts"
    assert "name_key" in {c["name"] for c in inspect(database.engine).get_columns("accounts")}
    assert {"seed_reveal", "ended_at", "ended_by", "door"} <= {c["name"] for c in inspect(database.engine).get_columns("events")}
    assert "event_limits" in set(inspect(database.engine).get_table_names())
    assert "fault" in {c["name"] for c in inspect(database.engine).get_columns("card_tables")}


def test_fresh_sqlite_file_is_created_and_migrated(tmp_path) -> None:
    path = tmp_path / "new.db"
    db = Database(str(path))
    db.migrate()
    assert path.exists()
    assert "ledger_entries" in inspect(db.engine).get_table_names()
    db.dispose()


def test_money_columns_are_big_integers(database: Database) -> None:
    cols = {c["name"]: c["type"] for c in inspect(database.engine).get_columns("ledger_entries")}
    assert "BIGINT" in str(cols["amount"]).upper()


def test_entry_amount_must_be_positive_and_between_two_accounts(room, cast, database: Database) -> None:
    with room.store.transaction() as repo:
        a = cashier_account(repo, cast.event.id)
        b = player_account(repo, cast.event.id, cast.alice.id, "Alice")
        tx = repo.post(cast.event.id, "test", "ok", [Move(a.id, b.id, 5)], None, None, _now())
    for source, dest, amount in ((a.id, b.id, 0), (a.id, b.id, -5), (a.id, a.id, 5)):
        with pytest.raises(IntegrityError), database.session() as s:
            s.add(LedgerEntryRow(transaction_id=tx, source_id=source, dest_id=dest, amount=amount))
            s.flush()


def test_player_balance_cannot_go_negative_in_the_database(room, cast, database: Database) -> None:
    with room.store.transaction() as repo:
        b = player_account(repo, cast.event.id, cast.alice.id, "Alice")
    with pytest.raises(IntegrityError), database.session() as s:
        row = s.get(LedgerAccountRow, b.id)
        row.balance = -1
        s.flush()
    with database.session() as s:
        assert s.scalar(select(LedgerAccountRow.balance).where(LedgerAccountRow.id == b.id)) == 0


def test_amounts_beyond_32_bits_survive(room, cast) -> None:
    big = 5_000_000_000  # $50M: over 2**31 cents, under the BIGINT limit
    with room.store.transaction() as repo:
        a = cashier_account(repo, cast.event.id)
        b = player_account(repo, cast.event.id, cast.alice.id, "Alice")
        repo.post(cast.event.id, "test", "big", [Move(a.id, b.id, big)], None, None, _now())
    with room.store.transaction() as repo:
        assert repo.lock_balances([b.id])[b.id].balance == big
        assert repo.entries_balance(b.id) == big


def test_the_ledger_moves_any_amount_a_balance_holds(room, cast) -> None:
    """The typo guard ($10M) is for typed amounts: ``transfer`` (every chip the room moves)
    takes any amount up to what the database's balance holds, on both databases, and refuses
    what is not a positive whole number of cents (rule ``amount``), changing nothing."""
    from syndicate.core import money
    from syndicate.room.errors import BadRequest
    from syndicate.room.ledger import transfer

    ev = cast.event.id
    with room.store.transaction() as repo:
        a = cashier_account(repo, ev)
        b = player_account(repo, ev, cast.alice.id, "Alice")
        transfer(repo, ev, [Move(a.id, b.id, money.MAX_CENTS + 1)], "test", "past the guard")
        transfer(repo, ev, [Move(a.id, b.id, money.MAX_HELD - money.MAX_CENTS - 1)], "test", "the most held")
    with room.store.transaction() as repo:
        assert repo.lock_balances([b.id])[b.id].balance == money.MAX_HELD == repo.entries_balance(b.id)
        transfer(repo, ev, [Move(b.id, a.id, money.MAX_HELD)], "test", "all of it back")  # one move
    for bad in (-1, money.MAX_HELD + 1, 1.5, True):
        with pytest.raises(BadRequest) as e, room.store.transaction() as repo:
            transfer(repo, ev, [Move(b.id, a.id, bad)], "test", "refused")  # type: ignore[arg-type]
        assert e.value.rule == "amount"
    assert room.ledger.audit(ev) == [] and room.ledger.balance(ev, f"player:{cast.alice.id}") == 0


def test_a_failed_transaction_leaves_nothing(room, cast) -> None:
    with pytest.raises(RuntimeError), room.store.transaction() as repo:
        repo.add_table(cast.event.id, "T", "blackjack", {}, 7, cast.dealer.id, _now())
        raise RuntimeError("boom")
    assert room.tables.lobby(cast.event.id) == []


def test_the_store_satisfies_the_room_ports(database: Database) -> None:
    from syndicate.room.ports import Repo, Store

    store: Store = SqlStore(database)
    with store.transaction() as repo:
        r: Repo = repo
        assert r.events() is not None


def _now():
    from syndicate.room.ledger import now

    return now()
