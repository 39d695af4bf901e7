"""Group commit (syndicate.room.live.writer): several tables' writes in one transaction, and a write
that fails takes nothing else with it."""

from __future__ import annotations

import asyncio
import threading

import pytest

from syndicate.room.errors import Conflict
from syndicate.room.ledger import cashier_account, player_account, player_key, transfer
from syndicate.room.live.writer import GroupWriter
from syndicate.room.values import Move
from syndicate.store.transactions import SQLITE_COMMIT_WINDOW

# The tables' writer: group commit on SQLite, a pool on PostgreSQL.
pytestmark = pytest.mark.both_databases


def _pay(ev: int, account, amount: int):  # type: ignore[no-untyped-def]
    def work(repo):  # type: ignore[no-untyped-def]
        wallet = player_account(repo, ev, account.id, account.name)
        transfer(repo, ev, [Move(cashier_account(repo, ev).id, wallet.id, amount)], "buy_in", "test")
        return amount

    return work


def _take(ev: int, account, amount: int):  # type: ignore[no-untyped-def]
    def work(repo):  # type: ignore[no-untyped-def]
        wallet = player_account(repo, ev, account.id, account.name)
        transfer(repo, ev, [Move(wallet.id, cashier_account(repo, ev).id, amount)], "cash_out", "test")
        return -amount

    return work


def _queued_behind_a_blocker(writer: GroupWriter, units: list) -> list[object]:  # type: ignore[type-arg]
    """Run ``units`` while the writer thread is busy with a first write, so they all wait and
    go in together when it finishes; their results (or errors), in order."""
    gate, busy = threading.Event(), threading.Event()

    def block(repo: object) -> bool:
        busy.set()
        return gate.wait(10)

    async def go() -> list[object]:
        blocker = asyncio.ensure_future(writer.run(block))
        assert await asyncio.to_thread(busy.wait, 10)  # the writer thread is now busy with the blocker
        tasks = [asyncio.ensure_future(writer.run(u)) for u in units]
        await asyncio.sleep(0)  # each task's first step queues its write
        assert writer._jobs.qsize() == len(units)
        gate.set()
        await blocker
        return await asyncio.gather(*tasks, return_exceptions=True)

    try:
        return asyncio.run(go())
    finally:
        writer.shutdown()


def test_waiting_writes_commit_together_and_a_failure_is_its_own(room, cast) -> None:
    ev = cast.event.id
    writer = GroupWriter(room.store)
    results = _queued_behind_a_blocker(writer, [_pay(ev, cast.alice, 100) for _ in range(5)]
                                       + [_take(ev, cast.bob, 1)]  # Bob has nothing: refused
                                       + [_pay(ev, cast.bob, 7) for _ in range(3)])
    assert results[:5] == [100] * 5 and results[6:] == [7] * 3
    assert isinstance(results[5], Conflict) and results[5].rule == "insufficient_funds"
    assert room.ledger.balance(ev, player_key(cast.alice.id)) == 500
    assert room.ledger.balance(ev, player_key(cast.bob.id)) == 21
    assert writer.units == 1 + 8  # every write that succeeded, once
    assert room.ledger.audit(ev) == [] and room.ledger.total(ev) == 0


def test_writes_waiting_together_share_one_commit(room, cast) -> None:
    ev = cast.event.id
    writer = GroupWriter(room.store)
    assert _queued_behind_a_blocker(writer, [_pay(ev, cast.alice, n) for n in range(1, 9)]) == list(range(1, 9))
    assert (writer.batches, writer.units) == (2, 9)  # the blocker alone, then the eight together
    assert room.ledger.balance(ev, player_key(cast.alice.id)) == sum(range(1, 9))


def test_one_write_at_a_time_commits_at_once(room, cast) -> None:
    ev = cast.event.id
    writer = GroupWriter(room.store)

    async def go() -> list[int]:
        return [await writer.run(_pay(ev, cast.alice, n)) for n in (1, 2, 3)]

    try:
        assert asyncio.run(go()) == [1, 2, 3]
    finally:
        writer.shutdown()
    assert (writer.batches, writer.units) == (3, 3)
    assert writer.waited == 0  # units that name no table never wait
    assert room.ledger.balance(ev, player_key(cast.alice.id)) == 6


def test_a_table_writing_alone_never_waits(room, cast) -> None:
    """One table's units, one after another (a quiet evening): each commits at once, however
    long the window (a wait would have held each for a minute)."""
    ev = cast.event.id
    writer = GroupWriter(room.store, window=60.0)

    async def go() -> list[int]:
        return [await writer.run(_pay(ev, cast.alice, n), source=7) for n in (1, 2, 3)]

    try:
        assert asyncio.run(go()) == [1, 2, 3]
    finally:
        writer.shutdown()
    assert (writer.batches, writer.units, writer.waited) == (3, 3, 0)


def test_a_unit_waits_for_other_tables_when_another_table_just_wrote(room, cast) -> None:
    """Table 1 writes alone and commits at once. Table 2's unit comes right after it, so it
    waits for more (the window is a minute here) and takes table 3's into its commit; the batch
    is full at two, so it commits as soon as the second unit is in."""
    ev = cast.event.id
    writer = GroupWriter(room.store, max_batch=2, window=60.0)

    async def go() -> list[int]:
        first = await writer.run(_pay(ev, cast.alice, 1), source=1)
        assert (writer.batches, writer.waited) == (1, 0)
        second = asyncio.ensure_future(writer.run(_pay(ev, cast.alice, 2), source=2))
        await asyncio.sleep(0.05)
        assert not second.done()  # waiting in the window for another table's unit
        third = await writer.run(_pay(ev, cast.bob, 3), source=3)
        return [first, await second, third]

    try:
        assert asyncio.run(go()) == [1, 2, 3]
    finally:
        writer.shutdown()
    assert (writer.batches, writer.units, writer.waited) == (2, 3, 1)
    assert room.ledger.balance(ev, player_key(cast.alice.id)) == 3
    assert room.ledger.balance(ev, player_key(cast.bob.id)) == 3


def test_group_commit_serves_both_databases(room, database) -> None:
    w = GroupWriter(room.store)
    try:
        # the wait for other tables' units: SQLite's (measured to pay), none on PostgreSQL
        assert w.window == (SQLITE_COMMIT_WINDOW if database.is_sqlite else 0.0)
    finally:
        w.shutdown()


def _ending_its_connection(ev: int, account, amount: int, database, times: int):  # type: ignore[no-untyped-def]
    """A unit that has PostgreSQL end its own connection (as a restart would) the first ``times``
    times it runs, after its payment's statements are sent and before the commit."""
    import select
    import time

    from sqlalchemy import create_engine, text
    from sqlalchemy.pool import NullPool

    runs = []

    def work(repo):  # type: ignore[no-untyped-def]
        _pay(ev, account, amount)(repo)
        runs.append(1)
        if len(runs) <= times:
            raw = repo.conn.connection.driver_connection
            admin = create_engine(database.url, poolclass=NullPool, isolation_level="AUTOCOMMIT")
            try:
                with admin.connect() as c:
                    c.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": raw.info.backend_pid})
            finally:
                admin.dispose()
            deadline = time.monotonic() + 10
            while not select.select([raw.fileno()], [], [], 0.05)[0]:
                assert time.monotonic() < deadline
        return amount

    return work, runs


def _losing(room, cast, database, times: int):  # type: ignore[no-untyped-def]
    """A writer, and Alice's payment of 5 that ends its connection the first ``times`` runs."""
    if database.is_sqlite:
        pytest.skip("PostgreSQL only: SQLite has no server connection to lose")
    return GroupWriter(room.store), *_ending_its_connection(cast.event.id, cast.alice, 5, database, times)


def test_a_batch_whose_connection_is_lost_before_its_commit_runs_once_more(room, cast, database) -> None:
    ev = cast.event.id
    writer, lost_once, runs = _losing(room, cast, database, times=1)
    results = _queued_behind_a_blocker(writer, [_pay(ev, cast.bob, 3), lost_once, _pay(ev, cast.bob, 4)])
    assert results == [3, 5, 4]
    assert len(runs) == 2 and writer.retried == 1
    assert room.ledger.balance(ev, player_key(cast.alice.id)) == 5  # once, not twice
    assert room.ledger.balance(ev, player_key(cast.bob.id)) == 7
    assert room.ledger.audit(ev) == [] and room.ledger.total(ev) == 0


def test_a_unit_that_loses_its_connection_twice_fails_and_leaves_nothing(room, cast, database) -> None:
    ev = cast.event.id
    writer, lost_always, runs = _losing(room, cast, database, times=99)

    async def go() -> tuple[object, int]:
        failed = await asyncio.gather(writer.run(lost_always), return_exceptions=True)
        return failed[0], await writer.run(_pay(ev, cast.bob, 2))  # the writer goes on

    try:
        failed, paid = asyncio.run(go())
    finally:
        writer.shutdown()
    assert isinstance(failed, Exception) and "connection" in str(failed)  # its own error, not a rule
    assert paid == 2 and len(runs) == 2 and writer.retried == 1
    assert room.ledger.balance(ev, player_key(cast.alice.id)) == 0
    assert room.ledger.balance(ev, player_key(cast.bob.id)) == 2
