"""The WebSocket endpoint of live play (protocol: docs/protocol.md, schema:
docs/protocol.schema.json).

One socket per client per table. The first message says who the client is (a bearer token, or
the session cookie sent with the handshake); everything after goes to the table's single
writer (:class:`syndicate.room.live.BlackjackTable`). Outgoing messages wait in a bounded
queue per connection so that a slow client never holds up the table: one that falls too far
behind is disconnected and resyncs on reconnect.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import OrderedDict
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect

from ..room.cardroom import CardRoom
from ..room.errors import Conflict, RoomError
from ..room.live import PROTOCOL_VERSION, LiveRoom
from ..room.roles import require
from ..room.values import Account

MAX_FRAME = 4096  # bytes: the largest action is under 200
OUTBOX = 512


class SocketConnection:
    def __init__(self, ws: WebSocket, account: Account) -> None:
        self.ws = ws
        self.account = account
        self.outbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(OUTBOX)

    def send(self, message: dict[str, Any]) -> None:
        try:
            self.outbox.put_nowait(message)
        except asyncio.QueueFull:  # too slow: drop it, it will resync on reconnect
            with contextlib.suppress(asyncio.QueueEmpty):
                while True:
                    self.outbox.get_nowait()
            self.outbox.put_nowait(None)

    async def pump(self) -> None:
        while True:
            msg = await self.outbox.get()
            if msg is None:
                await self.ws.close(code=1008, reason="too slow: reconnect to resync")
                return
            await self.ws.send_text(_encode(msg))


_encoded: OrderedDict[int, tuple[dict[str, Any], str]] = OrderedDict()


def _encode(msg: dict[str, Any]) -> str:
    """JSON text of a message, encoded once however many watchers it goes to (the table sends
    the same object to all of them; the entry keeps the object alive, so its id is not reused)."""
    hit = _encoded.get(id(msg))
    if hit is not None and hit[0] is msg:
        return hit[1]
    text = json.dumps(msg, separators=(",", ":"))
    _encoded[id(msg)] = (msg, text)
    while len(_encoded) > 256:
        _encoded.popitem(last=False)
    return text


def _err(rule: str, message: str) -> dict[str, Any]:
    return {"type": "error", "id": None, "rule": rule, "message": message}


async def _read(ws: WebSocket) -> dict[str, Any] | str:
    """The next message as a JSON object, or the rule it broke."""
    raw = await ws.receive_text()
    if len(raw.encode()) > MAX_FRAME:
        return "frame_too_large"
    try:
        msg = json.loads(raw)
    except ValueError:
        return "malformed_json"
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        return "message_shape"
    return msg


PROBLEMS = {
    "frame_too_large": f"a message is at most {MAX_FRAME} bytes",
    "malformed_json": "that message is not JSON",
    "message_shape": "a message is a JSON object with a string \"type\"",
}


async def table_socket(ws: WebSocket, table_id: int, room: CardRoom, live: LiveRoom) -> None:
    await ws.accept()
    try:
        first = await asyncio.wait_for(_read(ws), timeout=10)
        if isinstance(first, str):
            await ws.send_text(json.dumps(_err(first, PROBLEMS[first])))
            await ws.close(code=1008)
            return
        if first.get("type") != "hello" or first.get("protocol") != PROTOCOL_VERSION:
            await ws.send_text(json.dumps(_err("hello", f"start with {{\"type\": \"hello\", \"protocol\": "
                                                        f"{PROTOCOL_VERSION}, \"token\": ...}}")))
            await ws.close(code=1008)
            return
        token = first.get("token") if isinstance(first.get("token"), str) else ws.cookies.get("syndicate_session")
        account = await asyncio.to_thread(room.accounts.authenticate, token)
        require(account.role, "watch")
        table = await asyncio.to_thread(room.tables.get, account.event_id, table_id)
        runner = await live.table(table)
        if runner.stopped:
            raise Conflict("table_unavailable", "this table stopped on a server error; it comes back on restart")
    except RoomError as e:
        await ws.send_text(json.dumps(_err(e.rule, e.message)))
        await ws.close(code=1008)
        return
    except (TimeoutError, WebSocketDisconnect):
        return
    conn = SocketConnection(ws, account)
    pump = asyncio.create_task(conn.pump())
    await runner.join(conn)
    try:
        while not pump.done():
            msg = await _read(ws)
            if isinstance(msg, str):
                conn.send(_err(msg, PROBLEMS[msg]))
            elif msg["type"] == "action":
                runner.submit(conn, msg)
            elif msg["type"] == "resync":
                await runner.join(conn)  # a fresh full state, in order with everything else
            elif msg["type"] == "ping":
                conn.send({"type": "pong"})
            else:
                conn.send(_err("type", "message types: action, resync, ping"))
    except WebSocketDisconnect:
        pass
    finally:
        runner.part(conn)
        pump.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await pump
