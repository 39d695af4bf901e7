"""The floor: where a client's socket meets its table, and the pit of tables this process runs.

A :class:`Floor` routes a socket to its table by the table's id (:meth:`~Floor.join`,
:meth:`~Floor.submit`, :meth:`~Floor.part`) and carries the API's changes of a table's row to
whoever runs it. It has two implementations: one process running every table
(:class:`syndicate.room.live.local.LiveRoom`), and one of several processes sharing the tables
through leases (:class:`syndicate.room.live.cluster.ClusterRoom`), where the table behind an id
may move from one process to another under a connected client. Both hold a :class:`Pit`: the
tables running in this process, each table's actor started on first use, and the writer they
share.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Protocol

from ..cardroom import CardRoom
from ..errors import Conflict
from ..games import NewShoe, game_for
from ..values import Table
from .actor import Connection, TableActor
from .clocks import Timers
from .writer import GroupWriter


class Floor(Protocol):
    """Every live table a client of this process may reach, wherever it runs."""

    @property
    def tables(self) -> dict[int, TableActor]:
        """The tables running in this process, by id."""
        ...

    async def table(self, table: Table) -> Any:
        """Where the table runs (started here if need be, and if it may be); raises Conflict if
        it cannot be reached now."""
        ...

    async def join(self, table_id: int, conn: Connection) -> None: ...

    def submit(self, table_id: int, conn: Connection, message: dict[str, Any]) -> None: ...

    def part(self, table_id: int, conn: Connection) -> None: ...

    def seated(self, account_id: int) -> list[int]: ...

    def refresh(self, table_id: int | None = None) -> None: ...

    def closed(self, table_id: int) -> None: ...

    def event_ended(self, table_ids: list[int]) -> None: ...

    async def stop(self) -> None: ...


class Pit:
    """The live tables this process runs: each table's actor, and the writer of their
    database work."""

    def __init__(self, room: CardRoom, *, timers: Timers | None = None, new_shoe: NewShoe | None = None) -> None:
        self.room = room
        self.timers = timers
        self.new_shoe = new_shoe
        self.tables: dict[int, TableActor] = {}
        # The tables' database work, off the event loop: on SQLite one thread that commits
        # every table's waiting work together (group commit), on PostgreSQL a pool.
        self.writer = GroupWriter(room.store)

    def actor(self, table: Table) -> TableActor:
        """A new actor for ``table`` (not started, not yet among :attr:`tables`)."""
        actor = TableActor(self.room, table, partial(game_for, table, new_shoe=self.new_shoe), timers=self.timers,
                           writer=self.writer)
        actor.seated = self.seated
        return actor

    def seated(self, account_id: int) -> list[int]:
        """The tables of this process where the account holds a seat now (chips in a hand in
        play count, whatever its stack's ledger balance says)."""
        return [tid for tid, actor in list(self.tables.items())
                if any(s.account.id == account_id for s in list(actor.seats.values()))]

    def refresh(self, table_id: int | None = None) -> None:
        """A table's row changed (on the event loop): its actor here, if any, reads it again."""
        for tid, actor in self.tables.items():
            if table_id is None or tid == table_id:
                actor.refresh()

    async def stop(self) -> None:
        for actor in self.tables.values():
            await actor.stop()
        self.writer.shutdown()


def event_ended(floor: Floor, table_ids: list[int]) -> None:
    """The event ended (its tables were closed, ``table_ids`` are all of them): the seeds an
    ``event_end`` setting held back come out. A table running somewhere reveals them itself
    after its hand in play (the refresh re-runs its close-out); the rest at once."""
    for tid in table_ids:
        floor.closed(tid)
    floor.refresh()


def unrestored(table: Table) -> None:
    """Refuse a table the server could not restore at its start (docs/server.md, "Crash
    safety"): its chips are still where the last run left them, so nothing is dealt there."""
    if table.fault is not None:
        raise Conflict("table_unavailable", f"table {table.id} ({table.name}) could not be restored when the server "
                       "started: nothing is dealt there until a start restores it (the host sees it in "
                       "syndicate admin check)")
