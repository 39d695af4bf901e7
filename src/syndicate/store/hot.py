"""The live tables' hot path in the store: the hand-written SQL of every change at a table (its
ledger transfer, its hand's history, its lease check) and the write pipeline that sends it
(PostgreSQL's pipeline mode on the tables' writer). :class:`syndicate.store.repo.SqlRepo` holds
one :class:`HotPath` per transaction and hands these writes to it; everything else in the
repository stays on SQLAlchemy.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

import orjson
from sqlalchemy import DateTime, Dialect
from sqlalchemy.engine import Connection

from ..room.errors import Conflict, Fenced
from ..room.values import LedgerAccount, Move


class HotSql:
    """The live tables' statements (every change at a table: its ledger transfer, its hand's
    history, its lease check), as the driver's own SQL run on the transaction's DBAPI
    connection: through SQLAlchemy more of each write goes into its Python work per statement
    (the execution context, the result, the bound values' processing) than into the database
    (docs/benchmarks.md), on the writer thread that shares the interpreter with the event loop.
    The statements are the same ones SQLAlchemy would send; the values are processed as its types
    would (a timestamp as SQLite's text); everything else in the repository stays on SQLAlchemy."""

    def __init__(self, dialect: Dialect) -> None:
        pg = dialect.name == "postgresql"
        self.pg = pg
        p = "%s" if pg else "?"
        self.p = p
        stamp = DateTime(timezone=True).dialect_impl(dialect).bind_processor(dialect)
        self.stamp: Any = stamp if stamp is not None else (lambda v: v)
        self.lock_for_update = " FOR UPDATE" if pg else ""
        returning = " RETURNING id" if pg else ""  # SQLite: the cursor's lastrowid
        # SQLite's transfer, in three statements (PostgreSQL's is post_all, below)
        self.new_transaction = (f"INSERT INTO ledger_transactions (event_id, kind, memo, by_account_id, hand_id, at) "
                                f"VALUES ({p}, {p}, {p}, {p}, {p}, {p})")
        self.new_entry = f"INSERT INTO ledger_entries (transaction_id, source_id, dest_id, amount) VALUES ({p}, {p}, {p}, {p})"
        self.add_to_balance = f"UPDATE ledger_accounts SET balance = balance + {p} WHERE id = {p}"
        self.new_hand = (f"INSERT INTO hands (table_id, number, game, commitment, status, history, started_at, "
                         f"dealer_id) VALUES ({p}, {p}, {p}, {p}, 'playing', {p}, {p}, {p}){returning}")
        self.new_shoe = f"INSERT INTO shoes (table_id, commitment, seed, created_at) VALUES ({p}, {p}, {p}, {p})"
        self.hand_player = f"INSERT INTO hand_players (hand_id, account_id, seat) VALUES ({p}, {p}, {p})"
        self.update_hand = f"UPDATE hands SET status = {p}, history = {p}, finished_at = {p} WHERE id = {p}"
        # PostgreSQL: a transfer in one statement (its transaction, entries and balances), which
        # needs no answer, so the writer's pipeline goes on without waiting for one
        self.post_all = (
            "WITH t AS (INSERT INTO ledger_transactions (event_id, kind, memo, by_account_id, hand_id, at) "
            "VALUES (%s, %s, %s, %s, %s, %s) RETURNING id), "
            "e AS (INSERT INTO ledger_entries (transaction_id, source_id, dest_id, amount) "
            "SELECT t.id, m.source, m.dest, m.amount FROM t, "
            "unnest(%s::integer[], %s::integer[], %s::bigint[]) WITH ORDINALITY AS m(source, dest, amount, n) "
            "ORDER BY m.n) "
            "UPDATE ledger_accounts AS a SET balance = a.balance + b.delta "
            "FROM unnest(%s::integer[], %s::bigint[]) AS b(id, delta) WHERE a.id = b.id")
        self.lease_of = (f"SELECT owner, epoch FROM table_leases WHERE table_id = {p}"
                         + (" FOR KEY SHARE" if pg else ""))

    def lock(self, count: int) -> str:
        return (f"SELECT id, event_id, key, kind, name, balance FROM ledger_accounts WHERE id IN "
                f"({', '.join([self.p] * count)}) ORDER BY id{self.lock_for_update}")


_HOT: dict[str, HotSql] = {}


def hot_sql(dialect: Dialect) -> HotSql:
    hot = _HOT.get(dialect.name)
    if hot is None:
        hot = _HOT[dialect.name] = HotSql(dialect)
    return hot


def history_text(history: dict[str, Any]) -> str:
    """A hand's history as stored: written on every change at a live table, on the table's one
    writer thread, which shares the interpreter with the event loop, so orjson, not the standard
    library; the same JSON (integer keys as strings)."""
    return orjson.dumps(history, option=orjson.OPT_NON_STR_KEYS).decode()


class HotPath:
    """One transaction's hot statements, on its DBAPI connection (sqlite3's or psycopg's), in
    the session's own transaction. ``flush`` sends what the ORM session still holds, first.

    The pipeline (PostgreSQL, the live tables' writer): a live table's change is four or five
    statements (the lease's fence, the balances' lock, the transfer, the hand) and the writer
    commits several tables' changes at once; waiting for each statement's answer would make the
    writer a chain of round trips, the ceiling of one process on PostgreSQL
    (docs/benchmarks.md). In pipeline mode they are sent one after another and answered
    together; what needs an answer (a check) waits in ``_later`` until :meth:`settle`, which
    runs before the commit and before SQLAlchemy is used again. A hot statement that needs its
    answer at once (a new hand's id) reads it, which psycopg does by flushing what is queued."""

    __slots__ = ("_conn", "_flush", "_later", "_pipe", "_pipe_block", "_pipelined", "_raw")

    def __init__(self, conn: Connection, pipelined: bool, flush: Callable[[], None]) -> None:
        self._conn = conn
        self._flush = flush
        self._raw: tuple[HotSql, Any] | None = None
        self._pipelined = pipelined
        self._pipe: Any = None  # psycopg's Pipeline, while in pipeline mode
        self._pipe_block: Any = None  # the context manager that made it
        self._later: list[Callable[[], None]] = []

    def _statements(self) -> tuple[HotSql, Any]:
        """The hot statements and the transaction's DBAPI connection."""
        if self._pipe is not None:
            return self._raw  # type: ignore[return-value]
        # What the session still holds goes first, in order (autoflush covers only the ORM's
        # own queries): these statements may need its rows.
        self._flush()
        if self._raw is None:
            conn = self._conn
            self._raw = (hot_sql(conn.dialect), conn.connection.driver_connection)
        if self._pipelined and self._raw[0].pg:
            self._pipe_block = self._raw[1].pipeline()
            self._pipe = self._pipe_block.__enter__()
        return self._raw

    def _defer(self, check: Callable[[], None]) -> None:
        if self._pipe is None:
            check()
        else:
            self._later.append(check)

    def settle(self) -> None:
        """Out of the pipeline: every answer read, then the deferred checks in order. When a
        statement failed, a check that fails names the rule (a player's balance) where the
        database would only say which constraint."""
        block = self._pipe_block
        if block is None:
            return
        self._pipe = self._pipe_block = None
        later, self._later = self._later, []
        try:
            block.__exit__(None, None, None)
        except Exception:
            for check in later:
                try:
                    check()
                except (Conflict, Fenced) as e:
                    raise e from None
                except Exception:  # noqa: BLE001 - its statement was not run: the error above stands
                    break
            raise
        for check in later:
            check()

    def close(self, error: BaseException | None = None) -> None:
        block, self._pipe, self._pipe_block, self._later = self._pipe_block, None, None, []
        if block is not None:  # the block raised with statements in flight: the caller rolls back
            block.__exit__(type(error), error, None)

    # -- the writes ---------------------------------------------------------------------------
    def lock_balances(self, account_ids: Sequence[int]) -> dict[int, LedgerAccount]:
        hot, raw = self._statements()
        rows = raw.execute(hot.lock(len(account_ids)), list(account_ids)).fetchall()
        return {r[0]: LedgerAccount(*r) for r in rows}

    def check_balances(self, account_ids: Sequence[int],
                       check: Callable[[dict[int, LedgerAccount]], None]) -> None:
        hot, raw = self._statements()
        cur = raw.execute(hot.lock(len(account_ids)), list(account_ids))
        self._defer(lambda: check({r[0]: LedgerAccount(*r) for r in cur.fetchall()}))

    def post(self, event_id: int, kind: str, memo: str, moves: Sequence[Move], by: int | None,
             hand_id: int | None, at: datetime) -> None:
        hot, raw = self._statements()
        delta: dict[int, int] = {}
        for m in moves:
            delta[m.source] = delta.get(m.source, 0) - m.amount
            delta[m.dest] = delta.get(m.dest, 0) + m.amount
        if hot.pg:
            ids = sorted(delta)
            raw.execute(hot.post_all, (event_id, kind, memo[:300], by, hand_id, hot.stamp(at),
                                       [m.source for m in moves], [m.dest for m in moves],
                                       [m.amount for m in moves], ids, [delta[i] for i in ids]))
            return
        cur = raw.execute(hot.new_transaction, (event_id, kind, memo[:300], by, hand_id, hot.stamp(at)))
        txn_id = cur.lastrowid
        # The balances in id order, as they were locked: a change at a live table moves chips
        # between a seat and the table on every bet.
        raw.executemany(hot.new_entry, [(txn_id, m.source, m.dest, m.amount) for m in moves])
        raw.executemany(hot.add_to_balance, [(d, account_id) for account_id, d in sorted(delta.items())])

    def add_hand(self, table_id: int, number: int, game: str, commitment: str, history: dict[str, Any],
                 at: datetime, players: Sequence[tuple[int, int]] = (), dealer_id: int | None = None) -> int:
        """A new hand in play; ``players`` are its (seat, account id) pairs, for the search by
        player; ``dealer_id`` who deals it."""
        seen: set[int] = set()
        for _seat, account_id in players:
            if account_id in seen:  # one account, one row: the primary key is (hand, account)
                raise ValueError(f"account {account_id} is listed twice in hand {number}'s players")
            seen.add(account_id)
        hot, raw = self._statements()
        cur = raw.execute(hot.new_hand, (table_id, number, game, commitment, history_text(history), hot.stamp(at),
                                        dealer_id))
        hand_id: int = cur.fetchone()[0] if hot.pg else cur.lastrowid
        if players:
            rows = [(hand_id, account_id, seat) for seat, account_id in players]
            if hot.pg:
                with raw.cursor() as c:
                    c.executemany(hot.hand_player, rows)
            else:
                raw.executemany(hot.hand_player, rows)
        return hand_id

    def update_hand(self, hand_id: int, status: str, history: dict[str, Any], finished: datetime | None) -> None:
        hot, raw = self._statements()
        raw.execute(hot.update_hand, (status, history_text(history), hot.stamp(finished) if finished else None,
                                      hand_id))

    def check_lease(self, table_id: int, owner: str, epoch: int) -> None:
        """The fence: raises :class:`Fenced` unless ``owner`` still holds the table at ``epoch``.
        On PostgreSQL the lease row stays locked (``FOR KEY SHARE``) until this transaction
        ends, so a takeover (which locks it ``FOR UPDATE`` first) waits for the write to commit,
        and the write cannot land after a takeover; renewals (an update of the expiry alone)
        do not conflict with that lock, so they never queue behind the tables' writes, nor the
        writes behind a renewal. In the writer's pipeline the answer is read before the commit
        (:meth:`settle`): a fenced unit's statements are rolled back with it."""
        hot, raw = self._statements()
        cur = raw.execute(hot.lease_of, (table_id,))

        def check() -> None:
            row = cur.fetchone()
            if row is None or row[0] != owner or row[1] != epoch:
                raise Fenced(table_id)

        self._defer(check)

    def add_shoe(self, table_id: int, commitment: str, seed_hex: str, at: datetime) -> None:
        """Keep a new shoe's seed (secret until revealed) from before its first card."""
        hot, raw = self._statements()  # a draw table's every hand has a new deck: a live table's write
        try:
            raw.execute(hot.new_shoe, (table_id, commitment, seed_hex, hot.stamp(at)))
            if self._pipe is not None:
                self._pipe.sync()  # its answer now, so a commitment stored twice is named here
        except self._conn.dialect.loaded_dbapi.IntegrityError as e:
            if hot.pg and e.diag.table_name != "shoes":  # an earlier statement's, in the pipeline
                raise
            raise Conflict("shoe", f"a shoe with commitment {commitment} is already stored") from None
