"""Migration 0012 on SQLite and PostgreSQL: a table's game is checked by the room against the
games it runs (room/games), not by a CHECK naming the first two, so a game added later is
stored like any other; the rows of before are kept."""

from __future__ import annotations

import pytest

from syndicate.room.ledger import now

pytestmark = pytest.mark.both_databases


def test_any_registered_game_is_stored(room, cast) -> None:
    before = room.tables.open(cast.dealer, "Before")
    with room.store.transaction() as repo:
        t = repo.add_table(cast.event.id, "High card", "high_card", {"ante": 100, "seats": 6}, 6, cast.dealer.id, now())
        repo.set_event_limits(cast.event.id, "high_card", 100, 1_000)
    with room.store.transaction() as repo:
        got = repo.table(t.id)
        assert got is not None and got.game == "high_card"
        assert repo.event_limits(cast.event.id)["high_card"] == (100, 1_000)
        kept = repo.table(before.id)
        assert kept is not None and kept.game == "blackjack"
