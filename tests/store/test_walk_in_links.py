"""Migration 0008 on SQLite and PostgreSQL, over a database that already has accounts: every
account is unlinked, a walk-in can then be linked (the alias the search by player reads), and the
tables' cash counts are stored."""

from __future__ import annotations

from sqlalchemy import text

from syndicate.room.ledger import now
from syndicate.store import Database, SqlStore
from tests.store.test_account_kind import OLD_WALK_IN
from tests.store.test_canonical_names import _upgrade, fresh  # noqa: F401


def test_0008_over_existing_accounts(fresh: Database) -> None:  # noqa: F811
    _upgrade(fresh, "0007_house_float")
    with fresh.engine.begin() as c:
        c.execute(text("INSERT INTO events (id, name, created_at) VALUES (1, 'Old night', :at)"), {"at": now()})
        for i, name, hashed in ((1, "Bob", "x"), (2, "Kenji", OLD_WALK_IN), (3, "Boku", "x")):
            c.execute(text("INSERT INTO accounts (id, event_id, name, name_key, role, password_hash, created_at) "
                           "VALUES (:i, 1, :n, :k, 'player', :h, :at)"),
                      {"i": i, "n": name, "k": name.lower(), "h": hashed, "at": now()})
        c.execute(text("INSERT INTO card_tables (id, event_id, name, game, rules, seats, dealer_id, status, created_at) "
                       "VALUES (1, 1, 'T', 'blackjack', '{}', 7, 3, 'open', :at)"), {"at": now()})
        c.execute(text("INSERT INTO hands (id, table_id, number, game, commitment, status, history, started_at) "
                       "VALUES (1, 1, 1, 'blackjack', 'c', 'settled', '{}', :at)"), {"at": now()})
        c.execute(text("INSERT INTO hand_players (hand_id, account_id, seat) VALUES (1, 2, 1)"))
    _upgrade(fresh, "head")
    store = SqlStore(fresh)
    with store.transaction() as repo:
        assert [a.linked_to for a in repo.accounts(1)] == [None, None, None]
        assert repo.hands(1, player=1) == []
        linked = repo.link_account(2, 1)
        assert linked is not None and linked.linked_to == 1 and linked.to_json()["walk_in"] is True
    with store.transaction() as repo:
        assert [h.id for h in repo.hands(1, player=1)] == [1]  # the walk-in's hand, found under Bob
        assert [h.id for h in repo.hands(1, player=2)] == [1]  # and under the walk-in still
        count = repo.add_cash_count(1, 1_200, 1_250, 3, now())
        assert [c.to_json()["difference"] for c in repo.cash_counts(1)] == [-50] and count.table_id == 1
