"""The WebSocket endpoint of live play (protocol: docs/protocol.md, schema:
docs/protocol.schema.json).

One socket per client per table. The first message says who the client is (a bearer token, or
the session cookie sent with the handshake); everything after goes to the table's single
writer (:class:`syndicate.room.live.actor.TableActor`). Outgoing messages wait in a bounded
queue per connection so that a slow client never holds up the table: one that falls too far
behind is disconnected and resyncs on reconnect.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import deque
from collections.abc import Coroutine, Generator
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect

from ..room.accounts import token_hash
from ..room.cardroom import CardRoom
from ..room.errors import Forbidden, RoomError
from ..room.live.floor import Floor
from ..room.live.messages import PROTOCOL_VERSION, encode, refusal, superseded
from ..room.roles import require
from ..room.values import Account
from .connections import CLIENT_LOG, where
from .security import Limits, Sessions, TokenBucket, has_bearer, same_origin

MAX_FRAME = 4096  # bytes: the largest action is under 200
OUTBOX = 512


class _SendWatch:
    """The sends of one event loop's sockets that are waiting, and one timer for them all.

    A client that stopped reading (its TCP window shut) blocks its socket's send; after the
    connection's ``send_timeout`` the send is cancelled, which ends its pump and so the socket's
    handler. Nearly every send completes at once, so a timer per send (``asyncio.timeout``, or a
    task per send with ``wait_for``) would be work for nothing on every message (one send per
    player per change): a send only notes its deadline here, and one timer, armed while any
    send is waiting, looks twice a second for the sends past theirs."""

    TICK = 0.5

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.waiting: dict[asyncio.Task[Any], float] = {}  # the pump's task: its send's deadline
        self._timer: asyncio.TimerHandle | None = None

    def start(self, task: asyncio.Task[Any], seconds: float) -> None:
        self.waiting[task] = self.loop.time() + seconds
        if self._timer is None:
            self._timer = self.loop.call_later(self.TICK, self._look)

    def done(self, task: asyncio.Task[Any]) -> None:
        self.waiting.pop(task, None)

    def _look(self) -> None:
        self._timer = None
        now = self.loop.time()
        for task in [t for t, deadline in self.waiting.items() if deadline <= now]:
            del self.waiting[task]
            task.cancel("send timed out")
        if self.waiting:
            self._timer = self.loop.call_later(self.TICK, self._look)
        else:
            _WATCHES.pop(self.loop, None)


_WATCHES: dict[asyncio.AbstractEventLoop, _SendWatch] = {}


def _watch() -> _SendWatch:
    loop = asyncio.get_running_loop()
    watch = _WATCHES.get(loop)
    if watch is None:
        watch = _WATCHES[loop] = _SendWatch(loop)
    return watch


class _Resume:
    """Awaiting this finishes a coroutine that was started by hand (``coro.send(None)``) and
    suspended on ``waiting``: the awaiting task waits for what it waits for, and passes it
    what it is sent or thrown (a cancellation included)."""

    def __init__(self, coro: Coroutine[Any, Any, Any], waiting: Any) -> None:
        self.coro, self.waiting = coro, waiting

    def __await__(self) -> Generator[Any, Any, Any]:
        coro, waiting = self.coro, self.waiting
        while True:
            try:
                value = yield waiting
            except BaseException as e:  # noqa: BLE001 - a cancellation goes in, as it would
                try:
                    waiting = coro.throw(e)
                except StopIteration as stop:
                    return stop.value
            else:
                try:
                    waiting = coro.send(value)
                except StopIteration as stop:
                    return stop.value


class SocketConnection:
    """One client's socket. Messages wait in a bounded outbox drained by :meth:`pump`; a state
    snapshot still waiting when a newer one arrives is replaced by it (snapshots are full, so
    the older one would only be read and thrown away), which keeps a busy table's watchers
    from falling behind. A client more than ``OUTBOX`` messages behind is disconnected.

    A message for a socket whose pump has nothing waiting is written at once: the ASGI send is
    started by hand and nearly always finishes without waiting, the frame handed to the
    transport, so that the pump's task is not woken for every message of every player. If the
    send has to wait (the client's TCP window is full), the pump finishes it, under the send
    timeout, and the messages after it wait in the outbox."""

    def __init__(self, ws: WebSocket, account: Account, send_timeout: float = 10.0) -> None:
        self.ws = ws
        self.account = account
        self.send_timeout = send_timeout
        self.outbox: deque[dict[str, Any] | None] = deque()
        self._ready = asyncio.Event()
        self._idle = False  # the pump waits for a message, with none in the outbox or in flight
        self._unfinished: _Resume | None = None  # a send started at once that has to wait
        self._failed: BaseException | None = None  # a send started at once failed: the pump raises it
        self.revoked = False
        self.close_reason = "too slow: reconnect to resync"

    def revoke(self, rule: str, message: str) -> None:
        """Its sign-in ended (signed out, or the account's role changed): tell it, then close
        the socket (1008). Nothing it sends from now on reaches the table."""
        if self.revoked:
            return
        self.revoked = True
        self.send(_err(rule, message))
        self.close_reason = "signed out: sign in again"
        self.outbox.append(None)
        self._ready.set()

    def send(self, message: dict[str, Any]) -> None:
        box = self.outbox
        if box and box[-1] is None:
            return  # already closing
        if self._idle:
            self._send_now(message)
            return
        if box and box[-1] is not None and superseded(box[-1], message):
            box[-1] = message
        elif len(box) >= OUTBOX:  # too slow: drop it all, it will resync on reconnect
            box.clear()
            box.append(None)
        else:
            box.append(message)
        self._ready.set()

    def _send_now(self, message: dict[str, Any]) -> None:
        """Start the send of ``message`` here (see the class's docstring)."""
        coro = self.ws.send_text(encode(message))
        try:
            waiting = coro.send(None)
        except StopIteration:
            return  # written
        except Exception as e:  # noqa: BLE001 - the client is gone: its pump ends with this
            self._failed = e
        else:
            self._unfinished = _Resume(coro, waiting)
        self._idle = False
        self._ready.set()

    async def pump(self) -> None:
        box = self.outbox
        task = asyncio.current_task()
        assert task is not None
        watch = _watch()
        while True:
            if self._failed is not None:
                raise self._failed
            if self._unfinished is not None:
                unfinished, self._unfinished = self._unfinished, None
                watch.start(task, self.send_timeout)
                try:
                    await unfinished
                finally:
                    watch.done(task)
                continue
            if not box:
                self._ready.clear()
                self._idle = True
                try:
                    await self._ready.wait()
                finally:
                    self._idle = False
                continue
            msg = box.popleft()
            if msg is None:
                await asyncio.wait_for(self.ws.close(code=1008, reason=self.close_reason), self.send_timeout)
                return
            # A client that stopped reading (its TCP window shut) blocks the send: after
            # ``send_timeout`` it is let go (the socket's handler ends and leaves the table).
            watch.start(task, self.send_timeout)
            try:
                await self.ws.send_text(encode(msg))
            finally:
                watch.done(task)


def _err(rule: str, message: str) -> dict[str, Any]:
    return {"type": "error", "id": None, "rule": rule, "message": message}


def _hello_refused(first: dict[str, Any], protocol: object) -> str:
    """Why a first message is not a hello this server takes, naming the version it speaks."""
    start = f'start with {{"type": "hello", "protocol": {PROTOCOL_VERSION}, "token": ...}}'
    if first.get("type") == "hello" and type(protocol) is int:
        return f"this server speaks version {PROTOCOL_VERSION} of the live-play protocol only, not {protocol}: {start}"
    return f"{start} (the protocol version is the JSON integer {PROTOCOL_VERSION}, the only version served)"


async def _read(ws: WebSocket) -> dict[str, Any] | str:
    """The next message as a JSON object, or the rule it broke."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    raw = message.get("text")
    if not isinstance(raw, str):  # a binary frame: messages are text
        data = message.get("bytes") or b""
        return "frame_too_large" if len(data) > MAX_FRAME else "message_shape"
    if len(raw.encode()) > MAX_FRAME:
        return "frame_too_large"
    try:
        msg = json.loads(raw)
    except RecursionError:  # valid JSON nested deeper than the parser's stack
        return "nesting"
    except ValueError:
        return "malformed_json"
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        return "message_shape"
    return _unsound(msg) or msg


MAX_DEPTH = 8  # the deepest real message (an action with a list of cards) is 2


def _unsound(value: object) -> str | None:
    """``nesting`` or ``unicode`` for a parsed message that would fail further in (a recursion
    limit, or a lone surrogate that cannot be encoded for hashing or storage), else None.
    Iterative, so a deep message cannot exhaust the stack here."""
    todo: list[tuple[object, int]] = [(value, 0)]
    while todo:
        v, depth = todo.pop()
        if isinstance(v, str):
            if not v.isascii() and any("\ud800" <= c <= "\udfff" for c in v):
                return "unicode"
        elif isinstance(v, dict | list):
            if depth >= MAX_DEPTH:
                return "nesting"
            items = [*v.keys(), *v.values()] if isinstance(v, dict) else v
            todo.extend((x, depth + 1) for x in items)
    return None


PROBLEMS = {
    "frame_too_large": f"a message is at most {MAX_FRAME} bytes",
    "malformed_json": "that message is not JSON",
    "message_shape": "a message is a JSON object with a string \"type\", in a text frame",
    "nesting": f"a message nests arrays and objects at most {MAX_DEPTH} deep",
    "unicode": "text in a message is valid Unicode: no lone surrogates (\\ud800-\\udfff)",
}


def _rate_limited(msg: dict[str, Any]) -> dict[str, Any]:
    return refusal(msg, "rate_limit", "too many messages: slow down (nothing was applied; resend it later)")


def _cross_site(ws: WebSocket, trusted_origins: frozenset[str]) -> bool:
    """A handshake from another site's page (cross-site WebSocket hijacking): its Origin is
    present and not this server."""
    origin = ws.headers.get("origin")
    return origin is not None and not same_origin(origin, ws.headers.get("host"), ws.url.scheme, trusted_origins)


async def table_socket(ws: WebSocket, table_id: int, room: CardRoom, live: Floor, *,
                       limits: Limits | None = None, sessions: Sessions | None = None,
                       trusted_origins: frozenset[str] = frozenset()) -> None:
    """One client's socket. Whatever it sends, it ends with a named error or a close code:
    an unforeseen failure closes it with 1011 and logs one line (no traceback: the frames are
    the client's, and a flood of them must not flood the log either; :data:`CLIENT_LOG`)."""
    try:
        await _table_socket(ws, table_id, room, live, limits=limits, sessions=sessions,
                            trusted_origins=trusted_origins)
    except (WebSocketDisconnect, asyncio.CancelledError):
        raise
    except Exception as e:  # noqa: BLE001 - the socket must end with a code, not a dropped connection
        client = ws.client.host if ws.client else None
        CLIENT_LOG.warning(client, "socket to table %s closed (1011): %s", table_id, where(e))
        with contextlib.suppress(Exception):
            await ws.close(code=1011, reason="server error")


async def _table_socket(ws: WebSocket, table_id: int, room: CardRoom, live: Floor, *,
                        limits: Limits | None = None, sessions: Sessions | None = None,
                        trusted_origins: frozenset[str] = frozenset()) -> None:
    limits = limits or Limits()
    await ws.accept()
    try:
        first = await asyncio.wait_for(_read(ws), timeout=10)
        if isinstance(first, str):
            await ws.send_text(json.dumps(_err(first, PROBLEMS[first])))
            await ws.close(code=1008)
            return
        protocol = first.get("protocol")
        # ``2.0 == 2`` and ``true == 1`` in Python: the version is the JSON integer itself
        if first.get("type") != "hello" or type(protocol) is not int or protocol != PROTOCOL_VERSION:
            await ws.send_text(json.dumps(_err("hello", _hello_refused(first, protocol))))
            await ws.close(code=1008)
            return
        token = first.get("token")
        if not isinstance(token, str):  # a browser: the session cookie sent with the handshake
            if _cross_site(ws, trusted_origins) and not has_bearer(ws.headers):
                raise Forbidden("csrf", "a page of another site may not use your sign-in here")
            token = ws.cookies.get("syndicate_session")
        account = await asyncio.to_thread(room.accounts.authenticate, token)
        require(account.role, "watch")
        table = await asyncio.to_thread(room.tables.get, account.event_id, table_id)
        await live.table(table)
    except RoomError as e:
        await ws.send_text(json.dumps(_err(e.rule, e.message)))
        await ws.close(code=1008)
        return
    except (TimeoutError, WebSocketDisconnect):
        return
    conn = SocketConnection(ws, account, limits.send_timeout)
    if sessions is not None:
        assert token is not None  # authenticate() refused a missing one
        sessions.add(conn, account.id, token_hash(token))
    bucket = TokenBucket(limits.actions_per_second, limits.action_burst, limits.clock)
    pump = asyncio.create_task(conn.pump())
    await live.join(table_id, conn)
    reader = asyncio.create_task(_serve_client(ws, conn, table_id, live, bucket))
    try:
        # until the client goes, or the pump gives up on it (too slow, signed out, not reading)
        await asyncio.wait((reader, pump), return_when=asyncio.FIRST_COMPLETED)
    finally:
        if sessions is not None:
            sessions.discard(conn)
        live.part(table_id, conn)
        for task in (reader, pump):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


async def _serve_client(ws: WebSocket, conn: SocketConnection, table_id: int, live: Floor,
                        bucket: TokenBucket) -> None:
    """Read the client's messages and hand them to its table until it disconnects."""
    try:
        while True:
            msg = await _read(ws)
            if conn.revoked:
                continue  # signed out: the socket is closing, nothing more reaches the table
            if not bucket.take():
                conn.send(_rate_limited(msg) if isinstance(msg, dict) else _err("rate_limit", "too many messages"))
            elif isinstance(msg, str):
                conn.send(_err(msg, PROBLEMS[msg]))
            elif msg["type"] == "action":
                live.submit(table_id, conn, msg)
            elif msg["type"] == "resync":
                await live.join(table_id, conn)  # a fresh full state, in order with everything else
            elif msg["type"] == "ping":
                conn.send({"type": "pong"})
            else:
                conn.send(_err("type", "message types: action, resync, ping"))
    except WebSocketDisconnect:
        pass
