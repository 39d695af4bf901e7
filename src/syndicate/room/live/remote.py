"""The two sides of a client and a table in different processes (:mod:`.cluster`): a table
owned by another process, as this process's sockets see it (:class:`RemoteTable`), and a
client of another process, as the owner's table sees it (:class:`RemoteConn`)."""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

from ..values import Account
from .actor import Connection
from .messages import refusal

if TYPE_CHECKING:
    from .cluster import ClusterRoom

JOIN_RETRY_SECONDS = 0.5  # a join no owner heard is sent again after this


class RemoteConn:
    """A client of another process, as the owner's table sees it."""

    __slots__ = ("account", "cid", "cluster", "node")

    def __init__(self, cluster: ClusterRoom, node: str, cid: int, account: Account) -> None:
        self.cluster, self.node, self.cid, self.account = cluster, node, cid, account

    def send(self, message: dict[str, Any]) -> None:
        self.cluster._deliver(self.node, self.cid, message)


class RemoteTable:
    """A table owned by another process, as this process's sockets see it."""

    stopped = False

    def __init__(self, cluster: ClusterRoom, table_id: int, owner: str, epoch: int) -> None:
        self.cluster, self.table_id, self.owner, self.epoch = cluster, table_id, owner, epoch
        self.conns: dict[Connection, int] = {}

    async def join(self, conn: Connection) -> None:
        self.conns[conn] = self.cluster._cid(conn)
        self._op(conn, "join")

    def submit(self, conn: Connection, message: dict[str, Any]) -> None:
        if conn not in self.conns:
            self.conns[conn] = self.cluster._cid(conn)
        self._op(conn, "action", message)

    def part(self, conn: Connection) -> None:
        if self.conns.pop(conn, None) is not None:
            self._op(conn, "part")
        self.cluster._forget(conn)

    def rejoin(self, owner: str, epoch: int) -> None:
        """The table moved (or the cluster lost messages): every client here asks again."""
        self.owner, self.epoch = owner, epoch
        for conn in self.conns:
            self._op(conn, "join")

    def _join_again(self, conn: Connection) -> None:
        """A join no owner heard (Redis was away, or came back before the owner subscribed again,
        or the owner died): without it the client would see its table as it was until the next
        change, and miss its own turn. Ask again shortly, to whoever owns the table then, until
        one hears it or the client leaves."""
        def again() -> None:
            if conn in self.conns and self.cluster.routes.get(self.table_id) is self:
                self._op(conn, "join")

        asyncio.get_running_loop().call_later(JOIN_RETRY_SECONDS, again)

    def _op(self, conn: Connection, op: str, message: dict[str, Any] | None = None) -> None:
        body: dict[str, Any] = {"op": op, "table": self.table_id, "node": self.cluster.node,
                                "conn": self.conns.get(conn) or self.cluster._cid(conn)}
        if op != "part":
            body["account"] = conn.account.to_json()
        if message is not None:
            body["message"] = message

        def unheard() -> None:  # no owner listening: it died, or the table is changing hands
            if message is not None:  # an action
                conn.send(refusal(message, "table_moving", "the server running this table is not answering: "
                                  "nothing was applied; another server takes the table over within seconds, "
                                  "then resend"))
            elif op == "join":
                self._join_again(conn)
            self.cluster._suspect(self.table_id)

        self.cluster._publish(self.cluster._node_channel(self.owner), json.dumps(body), unheard)
