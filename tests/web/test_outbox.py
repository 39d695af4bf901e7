"""A client's outbox (syndicate.web.live.SocketConnection): answers are never dropped, a state
snapshot still waiting is replaced by a newer one, and a client far behind is disconnected. A
message for a socket with nothing waiting is written at once; one whose send has to wait is
finished by the pump, in order, under the send timeout."""

from __future__ import annotations

import asyncio
import json

from syndicate.room.live.messages import Encoded, kind_of
from syndicate.web.live import OUTBOX, SocketConnection, encode


class FakeSocket:
    def __init__(self) -> None:
        self.sent: list[dict] = []
        self.closed: tuple[int, str] | None = None
        self.gate: asyncio.Future[None] | None = None  # while set and not done, a send waits for it
        self.error: Exception | None = None  # a send raises this (the client is gone)

    async def send_text(self, text: str) -> None:
        if self.error is not None:
            raise self.error
        if self.gate is not None:
            await self.gate
        self.sent.append(json.loads(text))

    async def close(self, code: int, reason: str = "") -> None:
        self.closed = (code, reason)


def _state(v: int) -> dict:
    return {"type": "state", "version": v, "log": [{"type": "card", "card": "As"}] * v}


def _drain(conn: SocketConnection) -> None:
    """Send what waits in the outbox (the socket was never idle: all of it waited)."""
    async def drain() -> None:
        task = asyncio.ensure_future(conn.pump())
        while conn.outbox:
            await asyncio.sleep(0)
        task.cancel()

    asyncio.run(drain())


def test_a_waiting_snapshot_is_replaced_but_answers_are_kept() -> None:
    ws = FakeSocket()
    conn = SocketConnection(ws, account=None)  # type: ignore[arg-type]
    for m in ({"type": "ack", "id": "a", "version": 1}, _state(1), _state(2),
              {"type": "error", "id": "b", "rule": "turn", "version": 2}, _state(3), _state(4)):
        conn.send(m)
    _drain(conn)
    assert [(m["type"], m["version"]) for m in ws.sent] == [("ack", 1), ("state", 2), ("error", 2), ("state", 4)]
    assert ws.sent[-1] == _state(4)


def test_a_waiting_state_that_answers_an_action_is_not_replaced() -> None:
    """A state carrying an ``ack`` is the action's answer, so a newer state does not
    replace it while it waits; the newer state still replaces a plain one after it. The same
    for a state encoded by the table's owner in another process (Encoded, kind ``state+ack``)."""
    ws = FakeSocket()
    conn = SocketConnection(ws, account=None)  # type: ignore[arg-type]
    from_owner = Encoded(kind_of({**_state(5), "ack": "c"}), encode({**_state(5), "ack": "c"}))
    for m in ({**_state(1), "ack": "a"}, _state(2), {**_state(3), "ack": "b"}, _state(4), from_owner,
              _state(6), _state(7)):
        conn.send(m)
    _drain(conn)
    assert [(m["version"], m.get("ack")) for m in ws.sent] == [(1, "a"), (3, "b"), (5, "c"), (7, None)]


def test_a_client_too_far_behind_is_disconnected() -> None:
    ws = FakeSocket()
    conn = SocketConnection(ws, account=None)  # type: ignore[arg-type]
    for i in range(OUTBOX + 5):
        conn.send({"type": "ack", "id": str(i), "version": i})
    assert list(conn.outbox) == [None]
    asyncio.run(conn.pump())
    assert ws.sent == [] and ws.closed is not None and ws.closed[0] == 1008


def test_the_text_is_the_message_and_one_object_is_encoded_once() -> None:
    log = [{"type": "card", "card": "Kd", "seat": 1}]
    a = {"type": "state", "version": 3, "you": {"seat": 1}, "log": log}
    b = {"type": "state", "version": 3, "you": {"seat": 2}, "log": log}
    assert json.loads(encode(a)) == a and json.loads(encode(b)) == b
    assert encode(a) is encode(a)  # cached by object


async def _idle(send_timeout: float = 10.0) -> tuple[FakeSocket, SocketConnection, asyncio.Task[None]]:
    """A connection on a fake socket, its pump started and waiting for a message."""
    ws = FakeSocket()
    conn = SocketConnection(ws, account=None, send_timeout=send_timeout)  # type: ignore[arg-type]
    task = asyncio.ensure_future(conn.pump())
    for _ in range(3):
        await asyncio.sleep(0)
    return ws, conn, task


def test_a_message_for_an_idle_socket_is_written_at_once() -> None:
    async def go() -> None:
        ws, conn, pump = await _idle()
        conn.send({"type": "ack", "id": "a", "version": 1})
        conn.send(_state(1))
        # written before the event loop ran anything else: no turn of the pump's task per message
        assert [m["type"] for m in ws.sent] == ["ack", "state"] and not conn.outbox
        assert not pump.done()
        pump.cancel()

    asyncio.run(go())


def test_a_send_that_waits_is_finished_by_the_pump_and_the_next_ones_keep_their_order() -> None:
    async def go() -> None:
        ws, conn, pump = await _idle()
        ws.gate = asyncio.get_running_loop().create_future()  # the client's TCP window is full
        conn.send({"type": "ack", "id": "a", "version": 1})
        conn.send(_state(1))
        conn.send(_state(2))  # replaces state 1, still waiting in the outbox
        conn.send({"type": "error", "id": "b", "rule": "turn", "version": 2})
        for _ in range(5):
            await asyncio.sleep(0)
        assert ws.sent == [] and len(conn.outbox) == 2
        ws.gate.set_result(None)  # the window opens
        while conn.outbox or len(ws.sent) < 3:
            await asyncio.sleep(0)
        assert [(m["type"], m["version"]) for m in ws.sent] == [("ack", 1), ("state", 2), ("error", 2)]
        conn.send(_state(3))  # idle again: at once
        assert ws.sent[-1] == _state(3)
        pump.cancel()

    asyncio.run(go())


def test_a_send_that_waits_past_the_timeout_ends_the_pump() -> None:
    async def go() -> None:
        ws, conn, pump = await _idle(send_timeout=0.2)
        ws.gate = asyncio.get_running_loop().create_future()  # a client that stopped reading
        conn.send(_state(1))
        await asyncio.wait_for(asyncio.wait([pump]), 5)
        assert pump.cancelled() and ws.sent == []

    asyncio.run(go())


def test_a_send_that_fails_at_once_ends_the_pump_with_its_error() -> None:
    async def go() -> None:
        ws, conn, pump = await _idle()
        ws.error = ConnectionResetError("the client went")
        conn.send(_state(1))  # raises nothing here: the table's send never does
        await asyncio.wait_for(asyncio.wait([pump]), 5)
        assert isinstance(pump.exception(), ConnectionResetError)

    asyncio.run(go())
