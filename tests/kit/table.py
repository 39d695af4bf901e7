"""A card room in the test's own process: the room's services on the test database, its live
tables (:class:`syndicate.room.live.local.LiveRoom`) with every clock on a :class:`VirtualClock`, and
clients that sit at a table without a socket (:class:`LocalClient`, the interface of
:class:`syndicate.apps.client.TableClient`). A turn clock of 30 s runs out when the test says, in
milliseconds.

What it leaves out is the transport: the socket's framing, limits, sign-in and outbox
(``syndicate.web.live``), which the tests over a real server and socket keep covering. Every
message still goes through its JSON text (``room.live.messages.encode``), as a socket's would."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import orjson

from syndicate.apps.client import ActingClient
from syndicate.room.cardroom import CardRoom
from syndicate.room.games import NewShoe
from syndicate.room.live.clocks import Timers
from syndicate.room.live.local import LiveRoom
from syndicate.room.live.messages import encode
from syndicate.room.values import Account
from tests.kit.clock import VirtualClock

#: Real seconds: the bound on a wait that should take milliseconds (not a time any test needs).
WAIT = 20.0


class LocalClient(ActingClient):
    """One client at one live table, in process. Speaks protocol version 2: the state an action
    made carries its answer (``ack``)."""

    timeout = WAIT
    closed_reason = "the client left the table"

    def __init__(self, live: LiveRoom, table_id: int, account: Account) -> None:
        super().__init__()
        self.live = live
        self.table_id = table_id
        self.account = account
        #: every message received, decoded from its JSON text
        self.messages: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.version = -1

    # -- the table's side (syndicate.room.live.actor.Connection) ----------------------------------
    def send(self, message: dict[str, Any]) -> None:
        if self.closed:
            return
        msg = orjson.loads(encode(message))
        self.messages.append(msg)
        kind = msg.get("type")
        if kind in ("welcome", "state"):
            if msg["version"] >= self.version:
                self.state, self.version = msg, msg["version"]
            if "ack" in msg:
                self._answer(msg["ack"], {"type": "ack", "id": msg["ack"], "version": msg["version"]})
        elif kind in ("ack", "error"):
            self._answer(msg.get("id"), msg)
        self._changed.set()

    # -- the test's side: act and wait as syndicate.apps.client.TableClient ------------------------
    def _latest(self) -> dict[str, Any] | None:
        return self.state

    async def _send_action(self, message: dict[str, Any]) -> None:
        self.live.submit(self.table_id, self, message)

    async def resync(self) -> dict[str, Any]:
        """Ask for a fresh full state (as a socket's ``resync``): the welcome again."""
        await self.live.join(self.table_id, self)
        assert self.state is not None
        return self.state

    async def close(self) -> None:
        if not self.closed:
            self.live.part(self.table_id, self)
            self.closed = True
            self._changed.set()


class _Probe:
    """A connection that joins only to learn whether anything waits on the table's queue behind
    it (:meth:`LocalRoom.settle`)."""

    def __init__(self, account: Account, runner: Any) -> None:
        self.account = account
        self.runner = runner
        self.idle: bool | None = None

    def send(self, message: dict[str, Any]) -> None:
        if self.idle is None and message.get("type") == "welcome":
            self.idle = self.runner._queue.empty()


class LocalRoom:
    """The card room ``room`` with live tables in this process, their clocks on ``clock``."""

    def __init__(self, room: CardRoom, timers: Timers, new_shoe: NewShoe | None = None) -> None:
        self.room = room
        self.clock = VirtualClock()
        self.timers = Timers(turn=timers.turn, sit_out_after=timers.sit_out_after, real_turn=timers.real_turn,
                             source=self.clock)
        self.live = LiveRoom(room, timers=self.timers, new_shoe=new_shoe)
        self.clients: list[LocalClient] = []

    async def connect(self, table_id: int, account: Account) -> LocalClient:
        """``account`` joins table ``table_id`` (started on first use): once it has the welcome."""
        table = await asyncio.to_thread(self.room.tables.get, account.event_id, table_id)
        await self.live.table(table)
        client = LocalClient(self.live, table_id, account)
        self.clients.append(client)
        await self.live.join(table_id, client)
        await client.wait(lambda s: True)
        return client

    async def settle(self, client: LocalClient) -> dict[str, Any]:
        """Until the table of ``client`` has nothing left to do (no command on its queue, none
        being applied): the client's state then. A probe joins behind whatever is queued; when
        its welcome is made, the table looks at its queue (bots and leavers queue their next
        moves as they go)."""
        runner = self.live.tables[client.table_id]
        while True:
            probe = _Probe(client.account, runner)
            await self.live.join(client.table_id, probe)
            self.live.part(client.table_id, probe)
            if probe.idle:
                assert client.state is not None
                return client.state

    async def nobody_acts(self, client: LocalClient, until: Callable[[dict[str, Any]], bool],
                          turns: int = 100) -> dict[str, Any]:
        """Nobody decides: turn clock after turn clock runs out, each when the table has nothing
        else to do, until the state ``client`` sees satisfies ``until``; that state. The time
        moves on by a whole turn each time (what was left of it is less)."""
        for _ in range(turns):
            st = await self.settle(client)
            if until(st):
                return st
            assert st.get("clock") is not None, f"no clock runs and nothing else happens: {st.get('round')}"
            self.clock.advance(st["clock"]["seconds"])
        raise AssertionError(f"still not there after {turns} turns")

    async def time_passes(self, client: LocalClient, until: Callable[[dict[str, Any]], bool],
                          step: float, steps: int = 1_000) -> dict[str, Any]:
        """The time moves on ``step`` seconds at a time, each when the table of ``client`` has
        nothing else to do, until its state satisfies ``until``; that state."""
        for _ in range(steps):
            st = await self.settle(client)
            if until(st):
                return st
            self.clock.advance(step)
        raise AssertionError(f"still not there after {steps * step:g} s")

    async def stop(self) -> None:
        for client in self.clients:
            await client.close()
        await self.live.stop()


@asynccontextmanager
async def local_room(room: CardRoom, timers: Timers, new_shoe: NewShoe | None = None) -> AsyncIterator[LocalRoom]:
    """A :class:`LocalRoom` for the length of the block, its tables stopped after it."""
    local = LocalRoom(room, timers, new_shoe)
    try:
        yield local
    finally:
        await local.stop()
