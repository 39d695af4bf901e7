"""Every live table of one server process: each table's actor (:mod:`syndicate.room.actor`),
started on first use, with its game's adapter (:mod:`syndicate.room.games`).
"""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Any

from ..cardroom import CardRoom
from ..errors import Conflict
from ..games import NewShoe, game_for
from ..recovery import reveal_table_seeds
from ..values import Table
from .actor import Connection, TableActor
from .clocks import Timers
from .messages import running
from .writer import GroupWriter


class LiveRoom:
    """Every live table of the server, started on first use. A client's socket reaches its
    table through :meth:`join`, :meth:`submit` and :meth:`part` (by table id), so that with
    several processes (:class:`syndicate.room.cluster.ClusterRoom`) the table behind an id can
    move from one process to another under a connected client."""

    def __init__(self, room: CardRoom, *, timers: Timers | None = None,
                 new_shoe: NewShoe | None = None) -> None:
        self.room = room
        self.timers = timers
        self.new_shoe = new_shoe
        self.tables: dict[int, TableActor] = {}
        self._lock = asyncio.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        # The tables' database work, off the event loop: on SQLite one thread that commits
        # every table's waiting work together (group commit), on PostgreSQL a pool.
        self.writer = GroupWriter(room.store)

    def _runner(self, table: Table) -> TableActor:
        runner = TableActor(self.room, table, partial(game_for, table, new_shoe=self.new_shoe), timers=self.timers,
                            writer=self.writer)
        runner.seated = self.seated
        return runner

    async def table(self, table: Table) -> Any:
        """The table's runner (started if need be); raises Conflict if it stopped on an error,
        or if the server could not restore it at its start (its ``fault``)."""
        unrestored(table)
        self._loop = asyncio.get_running_loop()
        async with self._lock:
            runner = self.tables.get(table.id)
            if runner is None:
                runner = self._runner(table)
                await runner.start()
                self.tables[table.id] = runner
        return running(runner)

    async def join(self, table_id: int, conn: Connection) -> None:
        await self.tables[table_id].join(conn)

    def submit(self, table_id: int, conn: Connection, message: dict[str, Any]) -> None:
        self.tables[table_id].submit(conn, message)

    def part(self, table_id: int, conn: Connection) -> None:
        self.tables[table_id].part(conn)

    def seated(self, account_id: int) -> list[int]:
        """The tables of this process where the account holds a seat now (chips in a hand in
        play count, whatever its stack's ledger balance says)."""
        return [tid for tid, runner in list(self.tables.items())
                if any(s.account.id == account_id for s in list(runner.seats.values()))]

    def refresh(self, table_id: int | None = None) -> None:
        """A table's row changed through the API (from any thread): its runner reads it again."""
        loop = self._loop
        if loop is not None and _off_loop(loop):
            loop.call_soon_threadsafe(self.refresh, table_id)
            return
        for tid, runner in self.tables.items():
            if table_id is None or tid == table_id:
                runner.refresh()

    def closed(self, table_id: int) -> None:
        """A table was closed through the API. Its runner reveals its seeds once its hand in
        play is over; a table with no runner here has no hand in play (one cut short by a
        crash was voided at start), so its seeds are revealed at once."""
        if table_id not in self.tables:
            with self.room.store.transaction() as repo:
                reveal_table_seeds(repo, table_id)

    def event_ended(self, table_ids: list[int]) -> None:
        """The event ended (its tables were closed, ``table_ids`` are all of them): the seeds an
        ``event_end`` setting held back come out. A table with a runner here reveals them itself
        after its hand in play (the refresh re-runs its close-out); the rest at once."""
        for tid in table_ids:
            self.closed(tid)
        self.refresh()

    async def stop(self) -> None:
        for runner in self.tables.values():
            await runner.stop()
        self.writer.shutdown()


def unrestored(table: Table) -> None:
    """Refuse a table the server could not restore at its start (docs/server.md, "Crash
    safety"): its chips are still where the last run left them, so nothing is dealt there."""
    if table.fault is not None:
        raise Conflict("table_unavailable", f"table {table.id} ({table.name}) could not be restored when the server "
                       "started: nothing is dealt there until a start restores it (the host sees it in "
                       "syndicate admin check)")


def _off_loop(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is not loop
    except RuntimeError:
        return True
