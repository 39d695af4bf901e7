"""``SqlStore.serial``: the live tables' writer runs its transactions one after another, on
SQLite on one connection kept between them; a transaction that raises leaves nothing behind."""

from __future__ import annotations

import pytest

from syndicate.room.ledger import cashier_account, player_account, player_key, transfer
from syndicate.room.values import Move


def _pay(repo, ev: int, account, amount: int) -> None:  # type: ignore[no-untyped-def]
    wallet = player_account(repo, ev, account.id, account.name)
    transfer(repo, ev, [Move(cashier_account(repo, ev).id, wallet.id, amount)], "buy_in", "test")


def test_transactions_commit_one_after_another_and_a_failed_one_rolls_back(room, cast, database) -> None:
    ev, alice = cast.event.id, cast.alice
    serial = room.store.serial()
    seen = []
    try:
        for amount in (100, 20):
            with serial.transaction() as repo:
                _pay(repo, ev, alice, amount)
                seen.append(repo.conn)
        with pytest.raises(RuntimeError, match="after the payment"), serial.transaction() as repo:
            _pay(repo, ev, alice, 5)
            seen.append(repo.conn)
            raise RuntimeError("after the payment")
        with serial.transaction() as repo:
            _pay(repo, ev, alice, 3)
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
    import asyncio

    from syndicate.room.writer import GroupWriter

    ev = cast.event.id
    writer = GroupWriter(room.store)

    async def go() -> None:
        for n in (1, 2, 3):
            await writer.run(lambda repo, n=n: _pay(repo, ev, cast.alice, n))
        assert database.engine.pool.checkedout() == (1 if database.is_sqlite else 0)

    try:
        asyncio.run(go())
    finally:
        writer.shutdown()
    assert database.engine.pool.checkedout() == 0
    assert room.ledger.balance(ev, player_key(cast.alice.id)) == 6
    assert not writer._thread.is_alive()
