"""A small Python client for the card room server: REST with httpx, live play with websockets.

The bots, the terminal and the tests all use it, so it is the reference for
docs/protocol.md. :class:`RoomClient` is synchronous (REST); :class:`TableClient` is async
(one WebSocket per table) and keeps every message it receives, the latest state, and the
answer to each action it sent, matched by the action's id.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import uuid
from collections import deque
from collections.abc import Callable
from types import EllipsisType
from typing import Any

import httpx
import orjson
import websockets

PROTOCOL = 2  # the live-play protocol's version this client speaks (docs/protocol.md)

# How the server starts a state's text (room/live/views.py): a client that keeps no messages reads the
# version there and decodes the state only when it is read. Any other text is decoded at once.
_STATE_HEAD = re.compile(r'\{"type":"state","protocol":\d+,"version":(\d+),')


class ApiError(Exception):
    """The server refused a request: ``status``, and the ``rule`` and ``message`` it named."""

    def __init__(self, status: int, rule: str, message: str) -> None:
        super().__init__(f"{status} {message} [rule: {rule}]")
        self.status, self.rule, self.message = status, rule, message


class ActionRefused(ApiError):
    """A live action was refused (the table is unchanged, still at ``version``)."""

    version: int | None = None


class RoomClient:
    """The REST API. ``base_url`` like ``http://127.0.0.1:8000``."""

    def __init__(self, base_url: str, token: str | None = None, timeout: float = 10.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.http = httpx.Client(base_url=self.base_url, timeout=timeout)

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> RoomClient:
        return self

    def __exit__(self, *_: Any) -> None:
        self.close()

    def request(self, method: str, path: str, body: Any = None, **params: Any) -> Any:
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        r = self.http.request(method, path, json=body, headers=headers,
                              params={k: v for k, v in params.items() if v is not None})
        if r.status_code >= 400:
            try:
                err = r.json()["error"]
                raise ApiError(r.status_code, err["rule"], err["message"])
            except (ValueError, KeyError, TypeError):
                raise ApiError(r.status_code, "http", r.text) from None
        return r.json() if r.content else None

    def sign_in(self, event_id: int, name: str, password: str) -> dict[str, Any]:
        out = self.request("POST", f"/api/events/{event_id}/tokens", {"name": name, "password": password})
        self.token = out["token"]
        return out["account"]

    def events(self) -> list[dict[str, Any]]:
        return self.request("GET", "/api/events")

    def me(self) -> dict[str, Any]:
        return self.request("GET", "/api/me")["account"]

    def create_account(self, name: str, role: str, password: str) -> dict[str, Any]:
        return self.request("POST", "/api/accounts", {"name": name, "role": role, "password": password})

    def change_role(self, account_id: int, role: str) -> dict[str, Any]:
        """Give an account another role (admin only); every sign-in of that account ends."""
        return self.request("PATCH", f"/api/accounts/{account_id}", {"role": role})

    def sign_out(self) -> None:
        """End this sign-in (its token, and the sockets opened with it)."""
        self.request("DELETE", "/api/session")
        self.token = None

    def roster(self, event_id: int) -> dict[str, Any]:
        return self.request("GET", f"/api/events/{event_id}/roster")

    def buy_in(self, player: int, amount: int) -> int:
        return self.request("POST", "/api/cashier/buy-in", {"player": player, "amount": amount})["balance"]

    def cash_out(self, player: int, amount: int) -> int:
        return self.request("POST", "/api/cashier/cash-out", {"player": player, "amount": amount})["balance"]

    def balances(self) -> dict[str, Any]:
        return self.request("GET", "/api/balances")

    def ledger(self, account_id: int) -> dict[str, Any]:
        return self.request("GET", f"/api/accounts/{account_id}/ledger")

    def open_table(self, name: str, game: str | None = None, preset: str | None = None,
                   overrides: dict[str, Any] | None = None, cards: str = "shuffled",
                   turn_clock: int | None | EllipsisType = ...) -> dict[str, Any]:
        """``game``: its id; left out, the server's default game. ``turn_clock``: seconds, or
        None for no clock; left out, the event's default (docs/dealer.md)."""
        body: dict[str, Any] = {"name": name, "preset": preset, "overrides": overrides or {}, "cards": cards}
        if game is not None:
            body["game"] = game
        if turn_clock is not ...:
            body["turn_clock"] = turn_clock
        return self.request("POST", "/api/tables", body)

    def lobby(self, event_id: int) -> list[dict[str, Any]]:
        return self.request("GET", f"/api/events/{event_id}/tables")

    def create_event(self, name: str, admin_name: str, admin_password: str) -> dict[str, Any]:
        """A new event and its first admin (you must be an admin)."""
        return self.request("POST", "/api/events", {"name": name, "admin": {"name": admin_name,
                                                                             "password": admin_password}})

    def hands(self, table: int | None = None, commitment: str | None = None, limit: int = 100,
              player: int | None = None) -> list[dict[str, Any]]:
        """Finished hands; ``player`` (an account id) keeps those that account played in."""
        return self.request("GET", "/api/hands", table=table, commitment=commitment, limit=limit, player=player)

    def hand_history(self, hand_id: int) -> dict[str, Any]:
        return self.request("GET", f"/api/hands/{hand_id}/history")


class ActingClient:
    """A client's actions at one table and their answers, whatever carries them (a WebSocket
    here, the room in the test's process in ``tests/kit/table.py``): an action waits for the
    ``ack`` or ``error`` naming its id, or the state that carries its ``ack``."""

    #: Seconds an action or a wait may take unless told otherwise.
    timeout = 10.0
    #: What a wait hears when the connection ends.
    closed_reason = "the table closed the connection"

    def __init__(self) -> None:
        self._answers: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._changed = asyncio.Event()
        self.closed = False

    def _latest(self) -> dict[str, Any] | None:
        """The latest state received."""
        raise NotImplementedError

    async def _send_action(self, message: dict[str, Any]) -> None:
        raise NotImplementedError

    def _answer(self, action_id: object, answer: dict[str, Any]) -> None:
        fut = self._answers.pop(action_id, None) if isinstance(action_id, str) else None
        if fut is not None and not fut.done():
            fut.set_result(answer)

    async def act(self, action: str, *, action_id: str | None = None, timeout: float | None = None,
                  **fields: Any) -> dict[str, Any]:
        """Send an action and wait for its answer; :class:`ActionRefused` if refused. The
        state the action produced has arrived by the time this returns."""
        timeout = self.timeout if timeout is None else timeout
        action_id = action_id or uuid.uuid4().hex
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._answers[action_id] = fut
        try:
            await self._send_action({"type": "action", "id": action_id, "action": action, **fields})
            answer = await asyncio.wait_for(fut, timeout)
        finally:
            self._answers.pop(action_id, None)  # answered, or given up on (timed out, cancelled)
        if answer["type"] == "error":
            refused = ActionRefused(409, answer["rule"], answer["message"])
            refused.version = answer.get("version")
            raise refused
        await self.wait(lambda s: s["version"] >= answer["version"], timeout)
        return answer

    async def wait(self, predicate: Callable[[dict[str, Any]], bool],
                   timeout: float | None = None) -> dict[str, Any]:
        """Wait until the latest state satisfies ``predicate``."""
        async def until() -> dict[str, Any]:
            while True:
                state = self._latest()
                if state is not None and predicate(state):
                    return state
                if self.closed:
                    raise ConnectionError(self.closed_reason)
                self._changed.clear()
                await self._changed.wait()

        return await asyncio.wait_for(until(), self.timeout if timeout is None else timeout)


class TableClient(ActingClient):
    """One live table over a WebSocket. Use :meth:`connect`."""

    def __init__(self, ws: Any, keep: int | None = None) -> None:
        super().__init__()
        self.ws = ws
        #: every message received (``keep``: only the last so many, for long-running bots)
        self.messages: list[dict[str, Any]] | deque[dict[str, Any]] = [] if keep is None else deque(maxlen=keep)
        self._state: dict[str, Any] | None = None
        self._version = -1
        # keep=0 (a bot): the latest state's text, decoded when first read. A bot at a table of
        # six reads one state in three or four; decoding them all would be a third of its CPU.
        self._lazy = keep == 0
        self._text: str | None = None
        self.rules: dict[str, Any] = {}  # the table's rules, from the welcome
        self._reader: asyncio.Task[None] | None = None

    @classmethod
    async def connect(cls, base_url: str, table_id: int, token: str, *, keep: int | None = None,
                      timeout: float = 10.0) -> TableClient:
        """Open the socket and wait for the welcome, each within ``timeout`` seconds
        (:class:`TimeoutError` otherwise, the socket closed)."""
        url = base_url.replace("http://", "ws://").replace("https://", "wss://").rstrip("/")
        ws = await websockets.connect(f"{url}/ws/tables/{table_id}", max_size=2**22, open_timeout=timeout)
        client = cls(ws, keep)
        try:
            await ws.send(orjson.dumps({"type": "hello", "protocol": PROTOCOL, "token": token}).decode())
            client._reader = asyncio.create_task(client._read())
            await client.wait(lambda s: True, timeout)
        except BaseException:
            await client.close()  # not left open behind a client the caller never got
            raise
        return client

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                # A state while no action waits for its answer (which a state may carry): only
                # its version now. Several in a row: the newest is the one decoded, if any.
                head = _STATE_HEAD.match(raw) if self._lazy and not self._answers and isinstance(raw, str) else None
                if head is not None:
                    version = int(head.group(1))
                    if version >= self._version:
                        self._text, self._version = raw, version
                    self._changed.set()
                    continue
                msg = orjson.loads(raw)
                self.messages.append(msg)
                kind = msg.get("type")
                if kind == "welcome":
                    self.rules = msg["table"].get("rules", self.rules)
                if kind in ("welcome", "state"):
                    if msg["version"] >= self._version:
                        self._state, self._text, self._version = msg, None, msg["version"]
                    if "ack" in msg:  # the state the action made answers it
                        self._answer(msg["ack"], {"type": "ack", "id": msg["ack"], "version": msg["version"]})
                elif kind in ("ack", "error"):
                    self._answer(msg.get("id"), msg)
                self._changed.set()
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed = True
            self._changed.set()
            # an action still unanswered never will be: its sender hears it now, not at its timeout
            for fut in self._answers.values():
                if not fut.done():
                    fut.set_exception(ConnectionError(self.closed_reason))
            self._answers.clear()

    @property
    def state(self) -> dict[str, Any] | None:
        """The latest state received (the one with the highest version)."""
        if self._text is not None:
            self._state, self._text = orjson.loads(self._text), None
        return self._state

    @property
    def version(self) -> int:
        return self._version

    async def send_raw(self, text: str) -> None:
        await self.ws.send(text)

    def _latest(self) -> dict[str, Any] | None:
        return self.state

    async def _send_action(self, message: dict[str, Any]) -> None:
        await self.ws.send(orjson.dumps(message).decode())

    async def close(self) -> None:
        await self.ws.close()
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await self._reader


def my_turn(state: dict[str, Any]) -> bool:
    rd = state.get("round")
    return bool(rd and rd["to_act"] is not None and rd["to_act"] == state["you"]["seat"] and rd["legal_actions"])


def random_play(rng: random.Random) -> Callable[[dict[str, Any]], tuple[str, dict[str, Any]]]:
    """A player who picks uniformly among the legal actions: for tests that want every path."""
    def choose(state: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        return rng.choice(state["round"]["legal_actions"]), {}

    return choose
