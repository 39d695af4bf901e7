"""The store's transactions: :class:`SqlStore`, the room's :class:`syndicate.room.ports.Store`
over a :class:`Database`, each transaction a :class:`syndicate.store.repo.SqlRepo`; and the
kept-connection transactions of the live tables' writer (:class:`SerialTransactions`)."""

from __future__ import annotations

import select as io_select
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.engine import Connection

from .database import Database
from .repo import SqlRepo


class SqlStore:
    """The room's :class:`~syndicate.room.ports.Store` over a :class:`Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    @contextmanager
    def transaction(self) -> Iterator[SqlRepo]:
        """One transaction: committed if the block ends normally, rolled back if it raises."""
        with self.db.engine.connect() as conn:
            with _transaction(conn, self.db) as repo:
                yield repo

    def serial(self) -> SerialTransactions:
        """Transactions for one thread that runs them one after another (the live tables'
        writer): on SQLite they keep one connection open between them."""
        return SerialTransactions(self)


@contextmanager
def _transaction(conn: Connection, db: Database, pipelined: bool = False) -> Iterator[SqlRepo]:
    with conn.begin():
        repo = SqlRepo(conn, for_update=not db.is_sqlite, pipelined=pipelined)
        error: BaseException | None = None
        try:
            yield repo
            repo._finish()
        except BaseException as e:
            error = e
            raise
        finally:
            repo._close(error)
        repo.committing = True  # the end of the block commits


def _idle_and_sound(conn: Connection) -> bool:
    """Whether a kept PostgreSQL connection, idle between transactions, can be used: open, and
    nothing waiting on its socket (an idle connection is sent something only when the server
    is about to end it, or a notice)."""
    raw = conn.connection.driver_connection
    if raw is None or raw.closed or raw.broken:
        return False
    readable, _, _ = io_select.select([raw.fileno()], [], [], 0)
    return not readable


#: seconds (see SerialTransactions.commit_window)
SQLITE_COMMIT_WINDOW = 0.004


class SerialTransactions:
    """:meth:`SqlStore.transaction` for a thread that runs transactions one after another.

    The connection is kept open from one transaction to the next: the live tables' writer
    commits once per table change (or batch of them), and taking a connection from the pool and
    giving it back (with the pool's reset, and on PostgreSQL its check, a round trip) costs
    several times SQLite's ``BEGIN IMMEDIATE … COMMIT`` and a good part of the writer's CPU on
    PostgreSQL (``bench/bench_writer.py``, docs/benchmarks.md).
    A transaction that raises closes the connection, and the next one opens a new one, so a
    connection in an unknown state is never reused. A PostgreSQL server that ends an idle connection (a restart, an administrator's
    ``pg_terminate_backend``) says so on its socket first: a kept connection with anything to
    read while idle is given up before use, and the next comes from the pool, checked there
    (``pool_pre_ping``). On PostgreSQL the hot statements go out in pipeline mode
    (:class:`SqlRepo`). Not for use by two threads at once."""

    def __init__(self, store: SqlStore) -> None:
        self._store = store
        self._conn: Connection | None = None
        # On SQLite a busy room's writes share commits when the writer waits a little for other
        # tables'; on PostgreSQL every wait would hold up every table behind it, so it commits
        # what is waiting (docs/benchmarks.md).
        self.commit_window = SQLITE_COMMIT_WINDOW if store.db.is_sqlite else 0.0
        self.lost = False

    @contextmanager
    def transaction(self) -> Iterator[SqlRepo]:
        db = self._store.db
        if self._conn is not None and not db.is_sqlite and not _idle_and_sound(self._conn):
            self._conn.invalidate()
            self.close()
        if self._conn is None:
            self._conn = db.engine.connect()
        raw = None if db.is_sqlite else self._conn.connection.driver_connection
        repo: SqlRepo | None = None
        try:
            with _transaction(self._conn, db, pipelined=raw is not None) as repo:
                yield repo
        except BaseException:
            # A connection that broke before the commit was sent committed nothing (the writer
            # may run the same work again on a new one); one that broke while committing may have.
            self.lost = (raw is not None and bool(raw.closed or raw.broken)
                         and not (repo is not None and repo.committing))
            self.close()
            raise

    def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()
