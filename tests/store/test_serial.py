"""``SqlStore.serial``: the live tables' writer runs its transactions one after another, on one
connection kept between them; a transaction that raises leaves nothing behind. On PostgreSQL
the hot statements go out in pipeline mode, and what needs their answers is checked before the
commit."""

from __future__ import annotations

import asyncio
import select
import time
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from syndicate.room.errors import Conflict, Fenced
from syndicate.room.ledger import cashier_account, player_account, player_key, transfer
from syndicate.room.live.writer import GroupWriter
from syndicate.room.values import Move
from tests.room.test_writer import _pay, _take

# Storage: each backend's transactions, pipelining and kept connections.
pytestmark = pytest.mark.both_databases


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
    # one connection kept for the first three and, after the failure closed it, a new one
    assert seen[0] is seen[1] is seen[2] and seen[3] is not seen[0]
    assert database.engine.pool.checkedout() == 0  # closed: back in the pool


def test_the_writer_thread_gives_its_connection_back_when_it_stops(room, cast, database) -> None:
    ev = cast.event.id
    writer = GroupWriter(room.store)

    async def go() -> None:
        for n in (1, 2, 3):
            await writer.run(_pay(ev, cast.alice, n))
        assert database.engine.pool.checkedout() == 1  # kept between its transactions

    try:
        asyncio.run(go())
    finally:
        writer.shutdown()
    assert database.engine.pool.checkedout() == 0
    assert room.ledger.balance(ev, player_key(cast.alice.id)) == 6
    assert not writer._thread.is_alive()


def test_a_refusal_among_pipelined_statements_names_its_rule_and_nothing_stays(room, cast, database) -> None:
    """Alice is paid, then more is taken from her than she has, in one writer transaction. On
    PostgreSQL the statements are pipelined, so the database's own constraint fails before the
    balance check has read its answer: the caller still gets the rule, and the payment is rolled
    back with the rest."""
    ev, alice = cast.event.id, cast.alice
    serial = room.store.serial()
    try:
        with pytest.raises(Conflict) as refused, serial.transaction() as repo:
            _pay(ev, alice, 100)(repo)
            _take(ev, alice, 250)(repo)
        assert refused.value.rule == "insufficient_funds"
        assert "is needed" in refused.value.message
        with serial.transaction() as repo:  # the writer goes on, on a new connection
            _pay(ev, alice, 40)(repo)
    finally:
        serial.close()
    assert room.ledger.balance(ev, player_key(alice.id)) == 40
    assert room.ledger.audit(ev) == [] and room.ledger.total(ev) == 0


def test_a_transfer_s_entries_keep_their_order(room, cast) -> None:
    """Several moves in one transfer (a walk-in's buy-in is two): the entries are stored in the
    order given, in the pipeline's single statement as in SQLite's."""
    ev, alice, bob = cast.event.id, cast.alice, cast.bob
    serial = room.store.serial()
    try:
        with serial.transaction() as repo:
            cashier = cashier_account(repo, ev).id
            a = player_account(repo, ev, alice.id, alice.name).id
            b = player_account(repo, ev, bob.id, bob.name).id
            transfer(repo, ev, [Move(cashier, b, 500), Move(b, a, 300), Move(cashier, a, 7)], "test", "three moves")
    finally:
        serial.close()
    with room.store.transaction() as repo:
        got = [(e.source_key, e.dest_key, e.amount) for e in repo.event_entries(ev) if e.memo == "three moves"]
    assert got == [("cashier", player_key(bob.id), 500), (player_key(bob.id), player_key(alice.id), 300),
                   ("cashier", player_key(alice.id), 7)]
    assert room.ledger.balance(ev, player_key(alice.id)) == 307
    assert room.ledger.balance(ev, player_key(bob.id)) == 200


def test_a_fenced_write_is_rolled_back_whole(room, cast) -> None:
    """The lease's fence is checked before the commit, after the unit's other statements: a
    unit of a table another process has taken leaves nothing."""
    ev, alice = cast.event.id, cast.alice
    table = room.tables.open(cast.dealer, "Fenced", "blackjack", None, {})
    with room.store.transaction() as repo:
        epoch = repo.acquire_lease(table.id, "node-a", datetime.now(UTC), datetime.now(UTC) + timedelta(seconds=60))
    assert epoch is not None
    serial = room.store.serial()
    try:
        with serial.transaction() as repo:  # the holder writes
            repo.check_lease(table.id, "node-a", epoch)
            _pay(ev, alice, 10)(repo)
        with pytest.raises(Fenced), serial.transaction() as repo:  # a stale epoch
            repo.check_lease(table.id, "node-a", epoch - 1)
            _pay(ev, alice, 1_000)(repo)
        with pytest.raises(Fenced), serial.transaction() as repo:  # another owner
            _pay(ev, alice, 1_000)(repo)
            repo.check_lease(table.id, "node-b", epoch)
    finally:
        serial.close()
    assert room.ledger.balance(ev, player_key(alice.id)) == 10
    assert room.ledger.audit(ev) == []


def test_a_kept_connection_the_server_ended_is_not_used(room, cast, database) -> None:
    """PostgreSQL ends the writer's connection while it is idle (a restart, an administrator):
    the next transaction sees the server's goodbye on the socket and takes a new connection,
    and nothing fails."""
    if database.is_sqlite:
        pytest.skip("PostgreSQL only: SQLite has no server to end a connection")
    ev, alice = cast.event.id, cast.alice
    serial = room.store.serial()
    admin = create_engine(database.url, poolclass=NullPool, isolation_level="AUTOCOMMIT")
    try:
        with serial.transaction() as repo:
            _pay(ev, alice, 5)(repo)
            kept = repo.conn.connection.driver_connection
        with admin.connect() as c:
            assert c.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": kept.info.backend_pid}).scalar_one()
        deadline = time.monotonic() + 10
        while not select.select([kept.fileno()], [], [], 0.05)[0]:  # the goodbye has arrived
            assert time.monotonic() < deadline, "the server never ended the connection"
        for amount in (6, 7):
            with serial.transaction() as repo:
                _pay(ev, alice, amount)(repo)
                assert repo.conn.connection.driver_connection is not kept
    finally:
        serial.close()
        admin.dispose()
    assert room.ledger.balance(ev, player_key(alice.id)) == 18
