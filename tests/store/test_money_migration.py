"""Migration 0010 on SQLite and PostgreSQL, over a database that already has an event, tables
and a cash count: no event has a chip sale limit, no table a fault, no seat is held; then a
limit is set, a sale waits and is decided once, a table's fault is kept and cleared, and seats
are taken and freed."""

from __future__ import annotations

from sqlalchemy import text

from syndicate.room.ledger import now
from syndicate.store import Database, SqlStore
from tests.store.test_account_kind import OLD_WALK_IN
from tests.store.test_canonical_names import _upgrade, fresh  # noqa: F401


def test_0010_over_an_existing_night(fresh: Database) -> None:  # noqa: F811
    _upgrade(fresh, "0009_turn_clock")
    with fresh.engine.begin() as c:
        c.execute(text("INSERT INTO events (id, name, created_at) VALUES (1, 'Old night', :at)"), {"at": now()})
        for i, name, hashed in ((1, "Boku", "x"), (2, "Kenji", OLD_WALK_IN), (3, "Jean", "x")):
            c.execute(text("INSERT INTO accounts (id, event_id, name, name_key, role, password_hash, created_at) "
                           "VALUES (:i, 1, :n, :k, 'dealer', :h, :at)"),
                      {"i": i, "n": name, "k": name.lower(), "h": hashed, "at": now()})
        c.execute(text("INSERT INTO card_tables (id, event_id, name, game, rules, seats, dealer_id, status, created_at) "
                       "VALUES (1, 1, 'T', 'blackjack', '{}', 7, 1, 'open', :at)"), {"at": now()})
        c.execute(text("INSERT INTO cash_counts (id, table_id, counted, expected, by_account_id, at) "
                       "VALUES (1, 1, 500, 500, 1, :at)"), {"at": now()})
    _upgrade(fresh, "head")
    store = SqlStore(fresh)
    with store.transaction() as repo:
        ev = repo.event(1)
        table = repo.table(1)
        assert ev is not None and ev.sale_limit is None and table is not None and table.fault is None
        assert [c.by for c in repo.cash_counts(1)] == [1]  # kept as it was
        repo.set_sale_limit(1, 10_000)
        sale = repo.add_chip_sale(1, 3, 2, 50_000, 1, now())
        repo.set_table_fault(1, "ValueError: damaged by hand")
    with store.transaction() as repo:
        assert repo.event(1).sale_limit == 10_000  # type: ignore[union-attr]
        assert repo.table(1).fault == "ValueError: damaged by hand"  # type: ignore[union-attr]
        assert [(s.id, s.status, s.amount) for s in repo.chip_sales(1, "pending")] == [(sale.id, "pending", 50_000)]
        assert repo.move_chip_sale(sale.id, ("pending",), "approved", 3, now())
        assert not repo.move_chip_sale(sale.id, ("pending",), "refused", 3, now())  # decided once
        repo.cancel_chip_sales(1)
        repo.set_table_fault(1, None)
        repo.take_seat(1, 3, 2)
        repo.take_seat(1, 4, 3)
        repo.take_seat(1, 4, 2)  # a seat holds one account: the later one
        assert repo.seats_held(1) == [(1, 3, 2), (1, 4, 2)]
        repo.free_seat(1, 3)
        assert repo.seats_held(1) == [(1, 4, 2)]
        repo.free_seats(1)
        assert repo.seats_held(1) == []
    with store.transaction() as repo:
        got = repo.chip_sale(sale.id)
        assert got is not None and (got.status, got.decided_by) == ("cancelled", 3)
        assert repo.table(1).fault is None  # type: ignore[union-attr]
