"""Every live table in one server process: the local :class:`~syndicate.room.live.floor.Floor`.
Each table's actor (:mod:`syndicate.room.live.actor`) is started on first use, with its game's
adapter (:mod:`syndicate.room.games`).
"""

from __future__ import annotations

import asyncio
from typing import Any

from ..cardroom import CardRoom
from ..games import NewShoe
from ..recovery import reveal_table_seeds
from ..values import Table
from . import floor
from .actor import Connection, TableActor
from .clocks import Timers
from .floor import Pit, unrestored
from .messages import running


class LiveRoom:
    """The floor of a server that runs every table itself: a socket's table is always here."""

    def __init__(self, room: CardRoom, *, timers: Timers | None = None,
                 new_shoe: NewShoe | None = None) -> None:
        self.room = room
        self.pit = Pit(room, timers=timers, new_shoe=new_shoe)
        self._lock = asyncio.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def tables(self) -> dict[int, TableActor]:
        return self.pit.tables

    async def table(self, table: Table) -> Any:
        """The table's actor (started if need be); raises Conflict if it stopped on an error,
        or if the server could not restore it at its start (its ``fault``)."""
        unrestored(table)
        self._loop = asyncio.get_running_loop()
        async with self._lock:
            actor = self.pit.tables.get(table.id)
            if actor is None:
                actor = self.pit.actor(table)
                await actor.start()
                self.pit.tables[table.id] = actor
        return running(actor)

    async def join(self, table_id: int, conn: Connection) -> None:
        await self.pit.tables[table_id].join(conn)

    def submit(self, table_id: int, conn: Connection, message: dict[str, Any]) -> None:
        self.pit.tables[table_id].submit(conn, message)

    def part(self, table_id: int, conn: Connection) -> None:
        self.pit.tables[table_id].part(conn)

    def seated(self, account_id: int) -> list[int]:
        return self.pit.seated(account_id)

    def refresh(self, table_id: int | None = None) -> None:
        """A table's row changed through the API (from any thread): its actor reads it again."""
        loop = self._loop
        if loop is not None and _off_loop(loop):
            loop.call_soon_threadsafe(self.refresh, table_id)
            return
        self.pit.refresh(table_id)

    def closed(self, table_id: int) -> None:
        """A table was closed through the API. Its actor reveals its seeds once its hand in
        play is over; a table with no actor here has no hand in play (one cut short by a
        crash was voided at start), so its seeds are revealed at once."""
        if table_id not in self.pit.tables:
            with self.room.store.transaction() as repo:
                reveal_table_seeds(repo, table_id)

    def event_ended(self, table_ids: list[int]) -> None:
        floor.event_ended(self, table_ids)

    async def stop(self) -> None:
        await self.pit.stop()


def _off_loop(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is not loop
    except RuntimeError:
        return True
