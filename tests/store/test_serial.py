"""``SqlStore.serial``: the live tables' writer runs its transactions one after another, on
SQLite on one connection kept between them; a transaction that raises leaves nothing behind."""

from __future__ import annotations

import asyncio

import pytest

from syndicate.room.ledger import player_key
from syndicate.room.writer import GroupWriter
from tests.room.test_writer import _pay


def test_transactions_commit_one_after_another_and_a_failed_one_rolls_back(room, cast, database) -> None:
    ev, alice = cast.event.id, cast.alice
    serial = room.store.serial()
    seen = []
    try:
        for amount in (100, 20):
            with serial.transaction() as repo:
                _pay(ev, alice, amount)(repo)
                seen.append(repo.conn)
        with pytest.raises(RuntimeError, match="after the payment"), serial.transaction() as repo:
            _pay(ev, alice, 5)(repo)
            seen.append(repo.conn)
            raise RuntimeError("after the payment")
        with serial.transaction() as repo:
            _pay(ev, alice, 3)(repo)
            seen.append(repo.conn)
    finally:
        serial.close()
    assert room.ledger.balance(ev, player_key(alice.id)) == 123  # the 5 was rolled back
    assert room.ledger.audit(ev) == []
    if database.is_sqlite:
        # one connection kept for the first three and, after the failure closed it, a new one
        assert seen[0] is seen[1] is seen[2] and seen[3] is not seen[0]
    assert database.engine.pool.checkedout() == 0  # closed: back in the pool


def test_the_writer_thread_gives_its_connection_back_when_it_stops(room, cast, database) -> None:
    ev = cast.event.id
    writer = GroupWriter(room.store)

    async def go() -> None:
        for n in (1, 2, 3):
            await writer.run(_pay(ev, cast.alice, n))
        assert database.engine.pool.checkedout() == (1 if database.is_sqlite else 0)

    try:
        asyncio.run(go())
    finally:
        writer.shutdown()
    assert database.engine.pool.checkedout() == 0
    assert room.ledger.balance(ev, player_key(cast.alice.id)) == 6
    assert not writer._thread.is_alive()
