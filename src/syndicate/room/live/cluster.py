"""Several server processes on one PostgreSQL database, with Redis between them
(docs/deployment.md).

Each live table runs in exactly one process at a time, its **owner**, which holds the table's
lease in the database (``table_leases``: owner, epoch, expiry). The owner renews its leases
every quarter of the lease time; every write a table makes checks, in the same transaction,
that the epoch is still the one it took (:meth:`syndicate.store.repo.SqlRepo.check_lease`),
so a process that lost a table (paused past its lease, cut off from the database) cannot
write to it any more: the epoch is a fencing token.

Any process accepts any client. A client of a table owned elsewhere is served through a
:class:`RemoteTable`: its actions are published to the owner's Redis channel, and the owner
treats it as a :class:`RemoteConn` like any local socket, so it gets exactly its own view
(hidden cards stay hidden the same way); the owner's messages for the clients of one process
go back in one Redis message per process and event-loop turn. Redis only carries messages:
PostgreSQL is the truth, so nothing is lost if Redis restarts; the processes reconnect and
every remote client is sent a full state again.

When an owner dies, its leases expire; the first process to see that takes each table over
(:func:`syndicate.room.recovery.void_table`: the hand in play is voided, every bet returned and
every stack cashed back, the rule of a restart), and the table's clients, which reconnect to
any process, get its state again. A table's versions go on rising across owners: an owner
starts at ``epoch * VERSION_STRIDE``.

Messages between processes. Each process listens on two channels: ``<prefix>:node:<name>``
(its own) and ``<prefix>:all``. A message is either a JSON object (an operation: ``join``,
``action``, ``part`` from a client's process to the owner; ``moved`` back; ``refresh`` and
``revoke`` to all) or, from an owner, ``D`` and lines ``<conn>\\t<type>\\t<JSON text>``: a
message to each of that process's clients, already encoded.

The file is a little over the room's usual length: leases, routes, takeover and the messages
between processes are one protocol, and they share its state (the routes, the epochs held).
The tables this process runs are its :class:`~syndicate.room.live.floor.Pit`, as in one process.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
from collections.abc import Callable
from datetime import timedelta
from functools import partial
from typing import Any

from ..cardroom import CardRoom
from ..errors import Conflict
from ..games import NewShoe
from ..ledger import now
from ..ports import Bus, Repo
from ..recovery import void_table
from ..values import Account, Lease, Table
from . import floor
from .actor import Connection, TableActor
from .clocks import Timers
from .floor import Pit, unrestored
from .messages import Encoded, encode, kind_of, refusal, running
from .remote import RemoteConn, RemoteTable

log = logging.getLogger(__name__)

VERSION_STRIDE = 1_000_000_000  # versions an owner may use before the next owner's first


def node_name() -> str:
    """This process's name in the cluster: host, pid and a random tag (a restarted process
    with the same pid is a new owner)."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{os.urandom(3).hex()}"


class ClusterRoom:
    """The floor of one of several processes (see the module's docstring)."""

    def __init__(self, room: CardRoom, bus: Bus, *, namespace: str, timers: Timers | None = None,
                 new_shoe: NewShoe | None = None, lease_seconds: float = 5.0, node: str | None = None) -> None:
        """``bus`` carries messages between the processes (Redis: :mod:`syndicate.store.bus`);
        ``namespace`` keeps apart the clusters that share one (each database is one cluster)."""
        self.room = room
        self.pit = Pit(room, timers=timers, new_shoe=new_shoe)
        self._lock = asyncio.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self.bus = bus
        self.lease = timedelta(seconds=lease_seconds)
        self.node = node or node_name()
        self.prefix = f"syndicate:{namespace}"
        self.routes: dict[int, Any] = {}  # table id -> its local runner, or a RemoteTable
        self.epochs: dict[int, int] = {}  # tables this process owns -> the epoch it took
        self.revoke: Callable[[dict[str, Any]], None] | None = None  # set by the app: its Sessions
        self._conns: dict[int, Connection] = {}  # this process's sockets by cluster-wide id
        self._cids: dict[Connection, int] = {}
        self._next_cid = 0
        self._remotes: dict[tuple[str, int], tuple[RemoteConn, int]] = {}  # (node, conn) -> (conn, table)
        self._outbox: dict[str, list[str]] = {}
        self._flush_pending = False
        #: (channel, text, what to do if no one heard it, whether to do it if the publish failed)
        self._pending: asyncio.Queue[tuple[str, str, Callable[[], None] | None, bool]] = asyncio.Queue()
        self._wake = asyncio.Event()  # look at the leases now, not at the next tick
        self._tasks: list[asyncio.Task[None]] = []

    # -- lifecycle -----------------------------------------------------------------------------
    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        ready = asyncio.Event()
        self._tasks = [asyncio.create_task(self._listen(ready), name="cluster-listen"),
                       asyncio.create_task(self._publisher(), name="cluster-publish"),
                       asyncio.create_task(self._keep_leases(), name="cluster-leases")]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(ready.wait(), 10)  # without Redis the process still starts, and retries

    async def stop(self) -> None:
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        await self.pit.stop()  # the tables, then their writer
        held = dict(self.epochs)

        def release(repo: Repo) -> None:
            for tid, epoch in held.items():
                repo.release_lease(tid, self.node, epoch, now())

        with contextlib.suppress(Exception):  # others may take the tables at once, not after the lease
            await self._tx(release)
        with contextlib.suppress(Exception):
            await self.bus.aclose()

    @property
    def tables(self) -> dict[int, TableActor]:
        return self.pit.tables

    def seated(self, account_id: int) -> list[int]:
        return self.pit.seated(account_id)

    def event_ended(self, table_ids: list[int]) -> None:
        floor.event_ended(self, table_ids)

    # -- the routes of sockets -----------------------------------------------------------------
    async def table(self, table: Table) -> Any:
        unrestored(table)
        self._loop = asyncio.get_running_loop()
        async with self._lock:
            route = self.routes.get(table.id)
            if route is None or (isinstance(route, TableActor) and route.fenced):
                route = await self._route(table.id, take=True)
        if route is None:
            raise Conflict("table_moving", "this table is changing servers: try again in a moment")
        return running(route)

    async def _route(self, table_id: int, *, take: bool) -> Any:
        """Who runs the table: this process (taking a free or expired lease if ``take``), or another."""
        def lease_of(repo: Repo) -> Lease | None:
            return repo.leases(table_id).get(table_id)

        lease = await self._tx(lease_of)
        if lease is None or lease.expires_at < now():
            if take:
                runner = await self._take(table_id, on_demand=True)
                if runner is not None:
                    return runner
                lease = await self._tx(lease_of)
            if lease is None:
                return None
        owner, epoch = lease.owner, lease.epoch
        if owner == self.node and table_id in self.pit.tables:
            self.routes[table_id] = self.pit.tables[table_id]
            return self.pit.tables[table_id]
        remote = RemoteTable(self, table_id, owner, epoch)
        self.routes[table_id] = remote
        return remote

    async def join(self, table_id: int, conn: Connection) -> None:
        self._cid(conn)
        route = self.routes.get(table_id)
        if route is None:  # it moved while the socket was being set up
            async with self._lock:
                route = self.routes.get(table_id) or await self._route(table_id, take=True)
        if route is not None:
            await route.join(conn)

    def submit(self, table_id: int, conn: Connection, message: dict[str, Any]) -> None:
        route = self.routes.get(table_id)
        if route is None:
            conn.send(refusal(message, "table_moving", "this table is changing servers: nothing was applied; "
                                                       "resend in a moment"))
            return
        route.submit(conn, message)

    def part(self, table_id: int, conn: Connection) -> None:
        route = self.routes.get(table_id)
        if route is not None:
            route.part(conn)
        self._forget(conn)

    def closed(self, table_id: int) -> None:
        """Another process may be dealing this table's hand: its owner reveals the seeds at the
        end of that hand (the refresh every process gets re-runs its close-out). A table no
        process holds has no hand in play (a hand cut short is voided by whoever takes the table
        next), so this process reveals them here, under the table's lease: taking it waits for
        any write still in flight under an expired owner's epoch and fences that owner off, and
        a closed table never deals again, so giving the lease straight back is safe."""
        if isinstance(self.routes.get(table_id), TableActor):
            return  # ours: our runner reveals them after its hand in play
        at = now()
        with self.room.store.transaction() as repo:
            table = repo.table(table_id)
            if table is None or table.status != "closed":
                return
            epoch = repo.acquire_lease(table_id, self.node, at, at + self.lease)
            if epoch is None:
                return  # another process holds it: its runner reveals them
            voided = void_table(repo, table)  # reveals the seeds once they are due
            repo.release_lease(table_id, self.node, epoch, at)
        if voided:
            log.warning("closed table %s had no owner: voided hand(s) %s, every bet returned", table_id, voided)

    def refresh(self, table_id: int | None = None) -> None:
        """Tell every process (the owner among them) that a table's row changed."""
        self._to_all({"op": "refresh", "table": table_id})

    def revoke_everywhere(self, *, account: int | None = None, token_hash: str | None = None) -> None:
        """Close the sockets of a sign-in that ended, in every process."""
        self._to_all({"op": "revoke", "account": account, "token_hash": token_hash})

    def _to_all(self, op: dict[str, Any]) -> None:
        loop = self._loop
        if loop is None:
            return
        loop.call_soon_threadsafe(self._publish, f"{self.prefix}:all", json.dumps(op), None)

    def _cid(self, conn: Connection) -> int:
        cid = self._cids.get(conn)
        if cid is None:
            self._next_cid += 1
            cid = self._cids[conn] = self._next_cid
            self._conns[cid] = conn
        return cid

    def _forget(self, conn: Connection) -> None:
        if not any(isinstance(r, RemoteTable) and conn in r.conns for r in self.routes.values()):
            cid = self._cids.pop(conn, None)
            if cid is not None:
                self._conns.pop(cid, None)

    # -- taking tables over ----------------------------------------------------------------------
    async def _take(self, table_id: int, *, on_demand: bool) -> TableActor | None:
        """Take the table's lease if it is free or expired, void what its last owner left
        unfinished, and run it here; None if another process holds it (or, unless
        ``on_demand``, the table is closed)."""
        at = now()

        def take(repo: Repo) -> tuple[Table, int, list[int]] | None:
            table = repo.table(table_id)
            if table is None or (table.status == "closed" and not on_demand):
                return None
            epoch = repo.acquire_lease(table_id, self.node, at, at + self.lease)
            if epoch is None:
                return None
            return table, epoch, void_table(repo, table)

        got = await self._tx(take)
        if got is None:
            return None
        table, epoch, voided = got
        if voided:
            log.warning("table %s taken over (epoch %s): voided hand(s) %s, every bet returned",
                        table_id, epoch, voided)
        runner = self.pit.actor(table)
        runner.version = epoch * VERSION_STRIDE
        runner.fence = lambda repo: repo.check_lease(table_id, self.node, epoch)
        runner.on_fenced = self._on_fenced
        await runner.start()
        self.pit.tables[table_id] = runner
        self.epochs[table_id] = epoch
        old = self.routes.get(table_id)
        self.routes[table_id] = runner
        if isinstance(old, RemoteTable):  # this process's clients of the table now meet it here
            for conn in old.conns:
                runner.join_nowait(conn)
        return runner

    def _on_fenced(self, runner: TableActor) -> None:
        self._tasks.append(asyncio.get_running_loop().create_task(self._lost(runner.table.id)))

    async def _lost(self, table_id: int) -> None:
        """Another process has the table now (this one was fenced or could not renew): its
        clients here, and other processes' clients of it, go to the new owner."""
        runner = self.pit.tables.pop(table_id, None)
        self.epochs.pop(table_id, None)
        if runner is None:
            return
        log.warning("table %s: another process holds its lease now; its clients here go there", table_id)
        await runner.stop()
        clients = list(runner.clients)
        nodes = {c.node for c in clients if isinstance(c, RemoteConn)}
        for key in [k for k, (_, tid) in self._remotes.items() if tid == table_id]:
            del self._remotes[key]
        for node in nodes:
            self._publish(self._node_channel(node), json.dumps({"op": "moved", "table": table_id}), None)
        async with self._lock:
            self.routes.pop(table_id, None)
            route = await self._route(table_id, take=True)
        for conn in clients:
            if not isinstance(conn, RemoteConn) and route is not None:
                await route.join(conn)

    def _suspect(self, table_id: int) -> None:
        """A table's owner did not hear us (it died, or the table is changing hands): look at
        the leases now rather than at the next tick."""
        self._wake.set()

    async def _keep_leases(self) -> None:
        tick = self.lease.total_seconds() / 4
        while True:
            try:
                await self._lease_tick()
            except Exception:  # the database away for a moment: try again next tick
                log.exception("lease keeping failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), tick)
                await asyncio.sleep(0.1)  # woken early: at most ten looks a second
            self._wake.clear()

    async def _lease_tick(self) -> None:
        at = now()
        # Only the leases held before the renewal are judged by it: a table taken while it ran
        # (its lease written after the renewal's update) is not in what it renewed, and is not
        # lost. Judging it lost stopped the table just taken and took it again, voiding its hand.
        before = dict(self.epochs)

        def look(repo: Repo) -> tuple[dict[int, int], dict[int, Lease]]:
            return repo.renew_leases(self.node, at + self.lease), repo.leases()

        held, leases = await self._tx(look)
        for tid, epoch in before.items():
            if self.epochs.get(tid) == epoch and held.get(tid) != epoch:
                await self._lost(tid)
        for tid, lease in leases.items():
            route = self.routes.get(tid)
            if lease.expires_at < at and (lease.table_status != "closed" or isinstance(route, RemoteTable)):
                async with self._lock:
                    if not isinstance(self.routes.get(tid), TableActor):
                        await self._take(tid, on_demand=isinstance(route, RemoteTable))
            elif isinstance(route, RemoteTable) and (route.owner, route.epoch) != (lease.owner, lease.epoch):
                route.rejoin(lease.owner, lease.epoch)

    # -- messages between processes ------------------------------------------------------------
    def _node_channel(self, node: str) -> str:
        return f"{self.prefix}:node:{node}"

    def _publish(self, channel: str, payload: str, unheard: Callable[[], None] | None, *,
                 if_failed: bool = True) -> None:
        """``unheard`` runs if no process listened; with ``if_failed`` also if the publish
        itself failed (Redis away), which says nothing of who listens."""
        self._pending.put_nowait((channel, payload, unheard, if_failed))

    def _deliver(self, node: str, cid: int, message: dict[str, Any]) -> None:
        """The owner's message for a client of another process: batched per process until the
        event loop's turn ends."""
        self._outbox.setdefault(node, []).append(f"{cid}\t{kind_of(message)}\t{encode(message)}")
        if not self._flush_pending:
            self._flush_pending = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_pending = False
        out, self._outbox = self._outbox, {}
        for node, lines in out.items():
            # Only a process that did not listen is gone: if Redis was away, its clients stay,
            # and are sent their whole states when Redis is back (:meth:`_listen`).
            self._publish(self._node_channel(node), "D\n" + "\n".join(lines), partial(self._node_gone, node),
                          if_failed=False)

    def _node_gone(self, node: str) -> None:
        """A process that had clients here no longer listens: its clients are gone."""
        for key in [k for k in self._remotes if k[0] == node]:
            rc, tid = self._remotes.pop(key)
            runner = self.pit.tables.get(tid)
            if runner is not None:
                runner.part(rc)

    async def _publisher(self) -> None:
        """Publish in order, pipelined: whatever waits goes in one round trip."""
        while True:
            first = await self._pending.get()
            batch = [first]
            while not self._pending.empty() and len(batch) < 512:
                batch.append(self._pending.get_nowait())
            messages = [(channel, payload) for channel, payload, _, _ in batch]
            failed = False
            try:
                heard = await self.bus.publish(messages)
            except Exception:  # noqa: BLE001
                # Once more: after Redis restarted, a kept connection fails its first command
                # and the client connects again (a rejoin lost so is a client never resynced).
                try:
                    heard = await self.bus.publish(messages)
                except Exception as e:  # Redis away: tell who waits for an answer; resync comes on reconnect
                    log.warning("cluster: publishing failed (%s); %d message(s) lost", e, len(batch))
                    heard, failed = [0] * len(batch), True
            for (_, _, unheard, if_failed), n in zip(batch, heard, strict=True):
                if not n and unheard is not None and (if_failed or not failed):
                    unheard()

    async def _listen(self, ready: asyncio.Event) -> None:
        """Receive this process's messages; after a lost connection, subscribe again and ask
        every owner for a full state of each remote client (messages may have been lost)."""
        first = True
        while True:
            pubsub = self.bus.subscription()
            try:
                await pubsub.subscribe(self._node_channel(self.node), f"{self.prefix}:all")
                ready.set()
                if not first:
                    log.warning("cluster: Redis is back; resyncing remote clients")
                    for route in list(self.routes.values()):
                        if isinstance(route, RemoteTable):
                            route.rejoin(route.owner, route.epoch)
                    # And as an owner, send other processes' clients our tables' whole states:
                    # their process may have subscribed again before us, so that its rejoin
                    # found no one listening (Redis keeps no message for a later subscriber).
                    for rc, tid in list(self._remotes.values()):
                        runner = self.pit.tables.get(tid)
                        if runner is not None and not runner.fenced:
                            runner.join_nowait(rc)
                first = False
                while True:
                    data = await pubsub.get_message(timeout=1.0)
                    if data is not None:
                        try:
                            await self._receive(data)
                        except Exception:
                            log.exception("cluster: a message could not be handled")
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                raise
            except Exception as e:
                log.warning("cluster: Redis connection lost (%s); reconnecting", e)
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                await asyncio.sleep(0.5)

    async def _receive(self, data: bytes) -> None:
        if data[:2] == b"D\n":
            for line in data[2:].decode().split("\n"):
                cid, kind, text = line.split("\t", 2)
                conn = self._conns.get(int(cid))
                if conn is not None:
                    conn.send(Encoded(kind, text))
            return
        op = json.loads(data)
        kind = op["op"]
        if kind == "refresh":
            self.pit.refresh(op["table"])
        elif kind == "revoke":
            if self.revoke is not None:
                self.revoke(op)
        elif kind == "moved":  # our clients' table is not where we sent them: look again
            async with self._lock:
                old = self.routes.get(op["table"])
                if not isinstance(old, RemoteTable):
                    return  # we run it ourselves now (we took it over): nothing to move
                del self.routes[op["table"]]
                route = await self._route(op["table"], take=True)
            if route is not None:
                for conn in old.conns:
                    await route.join(conn)
        else:
            self._from_client(op)

    def _from_client(self, op: dict[str, Any]) -> None:
        """An operation of another process's client, for a table this process runs."""
        tid, node, cid = op["table"], op["node"], op["conn"]
        runner = self.pit.tables.get(tid)
        if runner is None or runner.fenced:
            self._publish(self._node_channel(node), json.dumps({"op": "moved", "table": tid}), None)
            return
        key = (node, cid)
        if op["op"] == "part":
            found = self._remotes.pop(key, None)
            if found is not None:
                runner.part(found[0])
            return
        found = self._remotes.get(key)
        if found is None or found[1] != tid:
            a = op["account"]
            rc = RemoteConn(self, node, cid, Account(a["id"], a["event_id"], a["name"], a["role"], ""))
            self._remotes[key] = (rc, tid)
            if op["op"] == "action":
                runner.join_nowait(rc)  # a client that joined the last owner: its state first
        else:
            rc = found[0]
        if op["op"] == "join":
            runner.join_nowait(rc)
        else:
            runner.submit(rc, op["message"])

    # -- the database ------------------------------------------------------------------------------
    async def _tx(self, work: Callable[[Repo], Any]) -> Any:
        def run() -> Any:
            with self.room.store.transaction() as repo:
                return work(repo)

        return await asyncio.to_thread(run)


def check_cluster_url(db_url: str) -> None:
    """Several processes share one PostgreSQL database: SQLite is one machine's file."""
    if not db_url.startswith("postgresql"):
        raise Conflict("cluster_database", "--redis (several processes) needs a PostgreSQL database "
                                           "(--db postgresql://…): SQLite serves one process")
