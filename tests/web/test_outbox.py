"""A client's outbox (syndicate.web.live.SocketConnection): answers are never dropped, a state
snapshot still waiting is replaced by a newer one, and a client far behind is disconnected."""

from __future__ import annotations

import asyncio
import json

from syndicate.web.live import OUTBOX, SocketConnection, encode


class FakeSocket:
    def __init__(self) -> None:
        self.sent: list[dict] = []
        self.closed: tuple[int, str] | None = None

    async def send_text(self, text: str) -> None:
        self.sent.append(json.loads(text))

    async def close(self, code: int, reason: str = "") -> None:
        self.closed = (code, reason)


def _state(v: int) -> dict:
    return {"type": "state", "version": v, "log": [{"type": "card", "card": "As"}] * v}


def test_a_waiting_snapshot_is_replaced_but_answers_are_kept() -> None:
    ws = FakeSocket()
    conn = SocketConnection(ws, account=None)  # type: ignore[arg-type]
    for m in ({"type": "ack", "id": "a", "version": 1}, _state(1), _state(2),
              {"type": "error", "id": "b", "rule": "turn", "version": 2}, _state(3), _state(4)):
        conn.send(m)

    async def drain() -> None:
        task = asyncio.ensure_future(conn.pump())
        while conn.outbox:
            await asyncio.sleep(0)
        task.cancel()

    asyncio.run(drain())
    assert [(m["type"], m["version"]) for m in ws.sent] == [("ack", 1), ("state", 2), ("error", 2), ("state", 4)]
    assert ws.sent[-1] == _state(4)


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
