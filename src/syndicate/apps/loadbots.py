"""The bots of one table under load (:mod:`syndicate.apps.loadtest`): a dealer bot (opens a
round as soon as the last is over, deals as soon as the bets are in), player bots and
spectators, over real WebSockets. Blackjack players play basic strategy; draw players pick among
the legal actions (bets at the edges of the allowed range, draws of up to three). Players think
before each bet and decision, uniform between 0.5 and 1.5 times ``think`` seconds (0: as fast
as the server answers).

The latency of an action is what the client sees: sent → answered, with the state it made in.
A client that fails (a connection refused or timed out, a socket the server closed, an
exception in a bot) stops its table, counted as a :class:`Failure`, while the other tables play
on.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import websockets

from . import blackjack_remote, poker_remote
from .client import PROTOCOL, ActionRefused, ApiError, RoomClient, TableClient, my_turn

#: The games the load plays, by id: each game's terminal player module gives its tables'
#: stakes (``LOAD_OVERRIDES``) and one hand of its bots (``load_hand``).
PLAYS: dict[str, Any] = {m.GAME: m for m in (blackjack_remote, poker_remote)}
GAMES = tuple(PLAYS)


ROUTES = ("spread", "table")  # where a table's clients connect, with several server processes


def check_route(route: str) -> None:
    """A route is one of :data:`ROUTES` (ValueError, naming them, otherwise)."""
    if route not in ROUTES:
        raise ValueError(f"route is {' or '.join(ROUTES)}, not {route!r}")


@dataclass
class TableSpec:
    game: str
    dealer: str
    players: list[str]
    watchers: list[str]


@dataclass
class Failure:
    """Clients that stopped playing and why: a table stops when one of its clients fails (its
    clients are all counted), a load process that dies loses every table it had left."""

    clients: int
    tables: int
    error: str


RATE_LIMIT_WAIT = 0.05  # seconds before an action refused by the rate limit is sent again


def describe(e: BaseException) -> str:
    """An exception as a report names it (a bare ``TimeoutError()`` has no message of its own)."""
    return f"{type(e).__name__}: {e}" if str(e) else type(e).__name__


class _Watcher:
    """A spectator that reads every message and decodes none (a page nobody looks at)."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.received = 0
        self.task = asyncio.ensure_future(self._read())

    @classmethod
    async def connect(cls, url: str, table_id: int, token: str, timeout: float = 10.0) -> _Watcher:
        ws = await websockets.connect(f"{url.replace('http', 'ws', 1)}/ws/tables/{table_id}", max_size=2**22,
                                      open_timeout=timeout)
        try:
            await ws.send(f'{{"type":"hello","protocol":{PROTOCOL},"token":"{token}"}}')
            await asyncio.wait_for(ws.recv(), timeout)
        except BaseException:
            await ws.close()
            raise
        return cls(ws)

    @property
    def dropped(self) -> bool:
        """The server closed this watcher's socket before the end."""
        return self.task.done()

    async def _read(self) -> None:
        try:
            async for _ in self.ws:
                self.received += 1
        except websockets.ConnectionClosed:
            pass

    async def close(self) -> None:
        await self.ws.close()
        await self.task


class _WindowOver(Exception):
    """The measured window ended while a table was playing: it stops there."""


class TableBots:
    """One table's bots and its play loop. A client that fails stops the table: :meth:`fail`
    records why, naming the step it was at (:attr:`stage`)."""

    dealer: TableClient

    def __init__(self, url: str, event: int, spec: TableSpec, password: str, think: float,
                 rng: random.Random, table_id: int | None = None, chips: int = 1_000_000,
                 connect_timeout: float = 30.0, route: str = "spread") -> None:
        # several server processes: the table's clients connect to each in turn, as a load
        # balancer without sticky sessions would send them ("spread"), or all to the process its
        # table's id picks, as one hashing the socket's path would ("table"; docs/deployment.md)
        check_route(route)
        self.urls, self.route = url.split(","), route
        self.url, self.event, self.spec, self.password = self.urls[0], event, spec, password
        self._next_url = rng.randrange(len(self.urls))
        self.think, self.rng, self.table_id, self.chips = think, rng, table_id, chips
        self.connect_timeout = connect_timeout
        self.players: list[TableClient] = []
        self.watchers: list[_Watcher] = []
        self._open: list[TableClient | _Watcher] = []  # what close() must close, even half connected
        self.stage = "not connected"
        self.failure: Failure | None = None
        self.by_action: dict[str, list[float]] = {}
        self.error_kinds: Counter[str] = Counter()  # the errors in the window: "action: rule" → how many
        self.window = (float("inf"), float("inf"))  # actions sent in [start, end) are measured
        self.on_action: Callable[[], None] = lambda: None
        #: What a game's ``load_hand`` keeps from hand to hand (the table's rules, made once).
        self.kept: dict[str, Any] = {}

    def _url(self) -> str:
        if self.route == "table" and self.table_id is not None:
            return self.urls[self.table_id % len(self.urls)]
        self._next_url += 1
        return self.urls[self._next_url % len(self.urls)]

    @property
    def clients(self) -> int:
        return 1 + len(self.spec.players) + len(self.spec.watchers)

    def fail(self, e: BaseException | str) -> Failure:
        """The table stops: every one of its clients counts as failed."""
        what = e if isinstance(e, str) else describe(e)
        self.failure = Failure(self.clients, 1, f"table of {self.spec.dealer} ({self.spec.game}), {self.stage}: {what}")
        return self.failure

    def lost(self) -> bool:
        """A socket of a dealer or a player closed: it does not come back, the table cannot go on."""
        return any(c.closed for c in [self.dealer, *self.players])

    def _token(self, name: str) -> str:
        with RoomClient(self.url, timeout=self.connect_timeout) as c:
            c.sign_in(self.event, name, self.password)
            assert c.token is not None
            return c.token

    async def connect(self) -> None:
        s, timeout = self.spec, self.connect_timeout
        self.stage = f"signing in {s.dealer}"
        dealer_token = await asyncio.to_thread(self._token, s.dealer)
        if self.table_id is None:
            self.stage = "opening the table"
            overrides = dict(PLAYS[s.game].LOAD_OVERRIDES)
            with RoomClient(self.url, dealer_token, timeout=timeout) as rest:
                table = await asyncio.to_thread(rest.open_table, f"Load {s.dealer}", s.game, None, overrides)
            self.table_id = table["id"]
        tid = self.table_id
        # keep=0: a bot needs the latest state only, not every message it ever received
        self.stage = f"connecting {s.dealer}"
        self.dealer = await TableClient.connect(self._url(), tid, dealer_token, keep=0, timeout=timeout)
        self._open.append(self.dealer)
        for n in s.players:
            self.stage = f"signing in {n}"
            token = await asyncio.to_thread(self._token, n)
            self.stage = f"connecting {n}"
            self.players.append(await TableClient.connect(self._url(), tid, token, keep=0, timeout=timeout))
            self._open.append(self.players[-1])
        for n in s.watchers:
            self.stage = f"signing in {n}"
            token = await asyncio.to_thread(self._token, n)
            self.stage = f"connecting {n}"
            self.watchers.append(await _Watcher.connect(self._url(), tid, token, timeout))
            self._open.append(self.watchers[-1])
        self.stage = "seating the players"
        for i, p in enumerate(self.players):
            await self.act(p, "sit", seat=i + 1, amount=self.chips)
        self.stage = "playing"

    async def act(self, client: TableClient, action: str, **fields: Any) -> dict[str, Any]:
        t0 = time.perf_counter()
        measuring = self.window[0] <= time.monotonic() < self.window[1]
        while True:
            try:
                answer = await client.act(action, timeout=60, **fields)
                break
            except ActionRefused as e:
                # A bot with no think time can outpace a socket's action limit (100 a second):
                # the server applied nothing and asks for the action again later, as a client
                # should do. Not an error of the server's: the wait counts in the latency.
                if e.rule != "rate_limit":
                    self._error(measuring, f"{action}: {e.rule}")
                    raise
                await asyncio.sleep(RATE_LIMIT_WAIT)
            except (ApiError, TimeoutError, ConnectionError) as e:
                self._error(measuring, f"{action}: {getattr(e, 'rule', None) or type(e).__name__}")
                raise
        if measuring:
            self.by_action.setdefault(action, []).append(time.perf_counter() - t0)
            self.on_action()
        return answer

    def _error(self, measuring: bool, kind: str) -> None:
        if measuring:
            self.error_kinds[kind] += 1

    @property
    def errors(self) -> int:
        return self.error_kinds.total()

    async def pause(self) -> None:
        """A player thinks. Once the measured window is over, the table stops where it is, in the
        middle of a hand if need be: a draw hand is some twenty decisions, and at a think time
        of seconds the last hand begun would outlast any grace (and be counted as a table the
        server kept waiting)."""
        if self.think:
            await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)
        if time.monotonic() >= self.window[1]:
            raise _WindowOver

    async def play(self, delay: float) -> None:
        """Rounds until the end of the measured window, the first after ``delay`` seconds."""
        await asyncio.sleep(delay)
        while time.monotonic() < self.window[1]:
            try:
                await self.hand()
            except _WindowOver:
                return
            except (ApiError, TimeoutError, ConnectionError):
                if self.lost():
                    raise  # a closed socket: the table stops (the caller records why)
                await asyncio.sleep(0.5)  # counted; look again and carry on

    async def hand(self) -> None:
        """One hand (a round) of the table's game, as its bots play it (``load_hand``)."""
        await PLAYS[self.spec.game].load_hand(self)

    async def together(self, coros: list[Any]) -> None:
        """Run ``coros`` (the players' bets) together, all or none (:func:`_all_or_none`)."""
        await _all_or_none(coros)

    async def bet(self, p: TableClient) -> None:
        await self.pause()
        await self.act(p, "bet", amount=self.rng.choice([100, 500, 1_000]))

    async def decisions(self, by_seat: dict[int, TableClient], over: str,
                         choose: Callable[[dict[str, Any], TableClient], tuple[str, dict[str, Any]]]) -> None:
        last = self.dealer.version
        while True:
            st = await self.dealer.wait(lambda s: s["version"] >= last, timeout=60)
            rd = st["round"]
            if rd is None or rd["phase"] == over:
                return
            p = by_seat[rd["to_act"]]
            mine = await p.wait(lambda s: s["version"] >= st["version"], timeout=60)
            if not my_turn(mine):  # the table moved on meanwhile (a turn clock ran out): look again
                last = mine["version"]
                continue
            action, fields = choose(mine, p)
            await self.pause()
            try:
                await self.act(p, action, **fields)
            except ActionRefused:
                legal = mine["round"]["legal_actions"]
                await self.act(p, next(a for a in ("stand", "check", "call", "stand_pat", "fold") if a in legal))
            last = p.version

    def latencies(self) -> list[float]:
        return [x for v in self.by_action.values() for x in v]

    async def close(self) -> None:
        """Close every socket opened, each within a bound (a server that stopped answering
        must not hold the report)."""
        async def bounded(c: TableClient | _Watcher) -> None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(c.close(), 10)

        await asyncio.gather(*(bounded(c) for c in self._open))
        self._open = []


async def _all_or_none(coros: list[Any]) -> None:
    """Run ``coros`` together; when one raises (the window ended as it was about to bet), the
    others are cancelled before this raises too. ``asyncio.gather`` would leave them running:
    a bet still in flight when the table closed its sockets failed with the connection, and was
    counted as an error of the server's."""
    tasks = [asyncio.ensure_future(c) for c in coros]
    try:
        await asyncio.gather(*tasks)
    except BaseException:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise


async def connect_tables(bots: Sequence[TableBots]) -> list[Failure]:
    """Connect the tables one by one. A table that fails to connect is closed and counted; the
    others go on."""
    failures = []
    for b in bots:
        try:
            await b.connect()
        except Exception as e:
            failures.append(b.fail(e))
            await b.close()
    return failures


async def play_tables(bots: Sequence[TableBots], *, warmup: float, seconds: float, grace: float) -> list[Failure]:
    """Play the tables that connected through the window that opens after ``warmup``, then
    close every table. A table whose client fails stops and is counted, the others play on; one
    still waiting for the server ``grace`` seconds after the window is stopped and counted too,
    so that this ends within ``warmup + seconds + grace`` (and the closing, bounded)."""
    playing = [b for b in bots if b.failure is None]
    failures: list[Failure] = []

    async def one(b: TableBots) -> None:
        try:
            await b.play(b.rng.uniform(0, warmup))
        except Exception as e:
            failures.append(b.fail(e))

    start = time.monotonic() + warmup
    for b in playing:
        b.window = (start, start + seconds)
    tasks = {asyncio.create_task(one(b)): b for b in playing}
    if tasks:
        _, late = await asyncio.wait(tasks, timeout=warmup + seconds + grace)
        for t in late:
            t.cancel()
        await asyncio.gather(*late, return_exceptions=True)
        failures += [tasks[t].fail(f"still waiting for the server {grace:g} s after the end") for t in late]
    for b in playing:
        dropped = sum(w.dropped for w in b.watchers)
        if b.failure is None and dropped:  # a spectator lost does not stop the table, but it failed
            failures.append(Failure(dropped, 0, f"table of {b.spec.dealer}: the server closed {dropped} "
                                                f"spectator socket(s)"))
    await asyncio.gather(*(b.close() for b in bots))
    return failures
