"""Load on a live card room: bots over real WebSockets, at both games (``syndicate loadtest``).

Each table has a dealer bot (opens a round as soon as the last is over, deals as soon as the
bets are in), player bots and spectators. Blackjack players play basic strategy; draw players
pick among the legal actions (bets at the edges of the allowed range, draws of up to three).
Players think before each bet and decision, uniform between 0.5 and 1.5 times ``think``
seconds (0: as fast as the server answers). Tables start one by one over a warm-up, as real
tables do, and only the window after it is measured. The bots run in ``procs`` processes.

The latency of an action is what the client sees: sent → answered, with the state it made in.
The report has actions per second, p50/p95/p99 overall and per action, errors, and the server's
CPU when the caller can see its process.

A client that fails (a connection refused or timed out, a socket the server closed, an
exception in a bot) stops its table, and a load process that dies loses its tables: both are
counted in the report (clients and tables failed, the first error named) while the other tables
play on. The parent never waits on a load process without a deadline, and notices one that died.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import multiprocessing as mp
import queue
import random
import signal
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import websockets

from ..web.gcpause import keep_pauses_short
from . import blackjack_remote, poker_remote
from .client import PROTOCOL, ActionRefused, ApiError, RoomClient, TableClient, my_turn

#: The games the load plays, by id: each game's terminal player module gives its tables'
#: stakes (``LOAD_OVERRIDES``) and one hand of its bots (``load_hand``).
PLAYS: dict[str, Any] = {m.GAME: m for m in (blackjack_remote, poker_remote)}
GAMES = tuple(PLAYS)
ROUTES = ("spread", "table")  # where a table's clients connect, with several server processes
PIT_BOSS = "Load boss"


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


@dataclass
class Figures:
    """What one run measured, and what failed (the first failure is the first to happen)."""

    tables: int
    clients: int
    seconds: float
    actions: int
    p50_ms: float
    p95_ms: float
    p99_ms: float
    by_action: dict[str, dict[str, float]] = field(default_factory=dict)
    server_cpu_percent: float | None = None
    failures: list[Failure] = field(default_factory=list)
    load_cpu_seconds: float | None = None  # the load processes' own CPU over the window (all of them)
    error_kinds: dict[str, int] = field(default_factory=dict)  # the errors: "action: rule" → how many

    @property
    def errors(self) -> int:
        return sum(self.error_kinds.values())

    @property
    def load_cpu_percent(self) -> float | None:
        return round(100 * self.load_cpu_seconds / self.seconds) if self.load_cpu_seconds is not None else None

    @property
    def failed_clients(self) -> int:
        return sum(f.clients for f in self.failures)

    @property
    def failed_tables(self) -> int:
        return sum(f.tables for f in self.failures)

    @property
    def first_error(self) -> str | None:
        return self.failures[0].error if self.failures else None

    @property
    def actions_per_second(self) -> float:
        return round(self.actions / self.seconds, 1) if self.seconds else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"tables": self.tables, "clients": self.clients, "seconds": self.seconds,
                "actions": self.actions, "actions_per_second": self.actions_per_second, "errors": self.errors,
                "error_kinds": self.error_kinds,
                "p50_ms": self.p50_ms, "p95_ms": self.p95_ms, "p99_ms": self.p99_ms,
                "server_cpu_percent": self.server_cpu_percent, "load_cpu_percent": self.load_cpu_percent,
                "load_cpu_seconds": self.load_cpu_seconds,
                "by_action": self.by_action,
                "failed_clients": self.failed_clients, "failed_tables": self.failed_tables,
                "first_error": self.first_error,
                "failures": [{"clients": f.clients, "tables": f.tables, "error": f.error} for f in self.failures]}

    def failure_line(self) -> str:
        """One line for a report: how many clients failed, and the first error."""
        if not self.failures:
            return "no client failed"
        return (f"{self.failed_clients} of {self.clients} clients failed ({self.failed_tables} of {self.tables} "
                f"tables stopped); first error: {self.first_error}")


def describe(e: BaseException) -> str:
    """An exception as a report names it (a bare ``TimeoutError()`` has no message of its own)."""
    return f"{type(e).__name__}: {e}" if str(e) else type(e).__name__


def plan(tables: int, players: int, spectators: int, games: Sequence[str] = GAMES,
         prefix: str = "load") -> list[TableSpec]:
    """Account names for every table; the games alternate over ``games``."""
    return [TableSpec(games[t % len(games)], f"{prefix}-dealer-{t}",
                      [f"{prefix}-p{t}-{i}" for i in range(players)],
                      [f"{prefix}-w{t}-{i}" for i in range(spectators)]) for t in range(tables)]


def bot_password(admin_password: str) -> str:
    """The bots' password, derived from the admin's so a later run can sign them in again."""
    return "bot-" + hashlib.sha256(b"syndicate loadtest " + admin_password.encode()).hexdigest()[:24]


def prepare_accounts(url: str, event: int, admin: str, admin_password: str, specs: list[TableSpec],
                     chips: int = 10_000_000, workers: int = 8) -> str:
    """Through the API, as the admin: create the bots' accounts that do not exist yet (argon2
    on the server makes this the slow part; a second run reuses them), put the dealers on the
    roster and buy the players in up to ``chips``. Returns the bots' password."""
    password = bot_password(admin_password)
    with RoomClient(url) as rest:
        rest.sign_in(event, admin, admin_password)
        known = {a["name"]: a for a in rest.request("GET", "/api/accounts")}
        wanted = [(s.dealer, "dealer") for s in specs] + [(p, "player") for s in specs for p in s.players] \
            + [(w, "spectator") for s in specs for w in s.watchers]

        def create(item: tuple[str, str]) -> dict[str, Any]:
            with RoomClient(url, rest.token) as c:
                return c.create_account(item[0], item[1], password)

        with ThreadPoolExecutor(workers) as pool:
            for a in pool.map(create, [w for w in wanted if w[0] not in known]):
                known[a["name"]] = a
        roster = rest.roster(event)
        on_roster = {d for g in roster["pit_bosses"] for d in g["dealers"]}
        for s in specs:
            if s.dealer not in on_roster:
                rest.request("POST", "/api/roster/authorize", {"dealer": s.dealer, "pit_boss": PIT_BOSS})
            for p in s.players:
                balance = rest.ledger(known[p]["id"])["balance"]
                if balance < chips:
                    rest.buy_in(known[p]["id"], chips - balance)
    return password


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


def _worker(index: int, url: str, event: int, specs: list[TableSpec], password: str, think: float,
            warmup: float, seconds: float, connect_timeout: float, route: str, grace: float, wait_go: float,
            go: Any, count: Any, messages: Any) -> None:
    """One load process: connect its tables, say ready (with the tables that failed), wait for
    go, play, send the figures. Whatever escapes the tables' own accounting is sent as the
    process's last word before it dies, so the parent can name it."""

    def counted() -> None:
        with count.get_lock():
            count.value += 1

    async def work() -> None:
        calm = asyncio.create_task(keep_pauses_short())  # the measuring side must not stall either
        bots = [TableBots(url, event, s, password, think, random.Random(index * 100_003 + i),
                          connect_timeout=connect_timeout, route=route) for i, s in enumerate(specs)]
        for b in bots:
            b.on_action = counted
        connected = await connect_tables(bots)
        # What the connections made lives to the end: out of the collector's sight, so that a
        # collection of the young objects does not scan thousands of sockets' state (its pauses
        # would be counted as the server's latency).
        gc.collect()
        gc.freeze()
        messages.put(("ready", index, connected))
        if not await asyncio.to_thread(go.wait, wait_go):  # the parent gave up on the run, or is gone
            await asyncio.gather(*(b.close() for b in bots))
            return
        failures = await play_tables(bots, warmup=warmup, seconds=seconds, grace=grace)
        out, kinds = merged(bots)
        messages.put(("done", index, out, failures, dict(kinds)))
        calm.cancel()

    try:
        asyncio.run(work())
    except BaseException as e:
        messages.put(("lost", index, f"load process {index + 1} stopped: {describe(e)}"))
        raise


class _Process:
    """The parent's view of one load process: where it is (starting, ready, done or lost) and
    what it reported."""

    def __init__(self, index: int, process: Any, specs: list[TableSpec]) -> None:
        self.index, self.process = index, process
        self.tables = len(specs)
        self.clients = sum(1 + len(s.players) + len(s.watchers) for s in specs)
        self.state = "starting"
        self.failures: list[Failure] = []
        self.by_action: dict[str, list[float]] = {}
        self.error_kinds: dict[str, int] = {}

    def lose(self, why: str) -> Failure:
        """Every table it had left fails with it (what it measured never arrives)."""
        self.state = "lost"
        self.failures.append(Failure(self.clients - sum(f.clients for f in self.failures),
                                     self.tables - sum(f.tables for f in self.failures), why))
        return self.failures[-1]

    def receive(self, kind: str, payload: list[Any]) -> list[Failure]:
        """A message from the process; returns the failures it reports."""
        if self.state == "lost":
            return []  # already given up on: a late word changes nothing
        if kind == "lost":
            return [self.lose(payload[0])]
        if kind == "ready":
            self.state, new = "ready", payload[0]
        else:
            self.state = "done"
            self.by_action, new, self.error_kinds = payload
        self.failures += new
        return new


def _ended(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        with contextlib.suppress(ValueError):
            return f"was killed by {signal.Signals(-exitcode).name}"
    return f"exited with code {exitcode}"


def _await(pool: list[_Process], messages: Any, before: str, after: str, timeout: float,
           failures: list[Failure]) -> None:
    """Until every process that was ``before`` is ``after`` or lost. Messages are read with short
    waits, so that a process that ended without its message is noticed (and lost) at once, and
    one still silent after ``timeout`` seconds is stopped and lost: never an unbounded wait."""
    deadline = time.monotonic() + timeout

    def read(wait: float) -> bool:
        try:
            kind, index, *payload = messages.get(timeout=wait)
        except queue.Empty:
            return False
        failures.extend(pool[index].receive(kind, payload))
        return True

    while waiting := [p for p in pool if p.state == before]:
        if read(0.2):
            continue
        dead = [p for p in waiting if not p.process.is_alive()]
        if dead:
            while read(0.5):  # its last words may still be on their way through the pipe
                pass
            for p in dead:
                if p.state == before:
                    failures.append(p.lose(f"load process {p.index + 1} {_ended(p.process.exitcode)} "
                                           f"before it was {after}"))
        elif time.monotonic() > deadline:
            for p in waiting:
                p.process.terminate()
                failures.append(p.lose(f"load process {p.index + 1} was not {after} after {timeout:g} s: "
                                       "stopped"))


def merged(parts: Iterable[Any]) -> tuple[dict[str, list[float]], Counter[str]]:
    """The latencies by action and the errors by kind of several table bots (in a load process)
    or load processes (in the parent), as one."""
    by_action: dict[str, list[float]] = {}
    kinds: Counter[str] = Counter()
    for part in parts:
        for k, v in part.by_action.items():
            by_action.setdefault(k, []).extend(v)
        kinds.update(part.error_kinds)
    return by_action, kinds


def _pct(xs: list[float], q: float) -> float:
    return round(1000 * xs[int(q * (len(xs) - 1))], 1) if xs else float("nan")


def run(url: str, event: int, specs: list[TableSpec], password: str, *, seconds: float, think: float,
        warmup: float | None = None, procs: int = 2, progress: Callable[[float, int], None] | None = None,
        cpu_seconds: Callable[[], float] | None = None, connect_timeout: float = 30.0,
        ready_timeout: float = 900.0, grace: float = 30.0, route: str = "spread") -> Figures:
    """Play ``specs`` for ``seconds`` after the warm-up (default: about one round of think
    times) from ``procs`` processes. ``progress(elapsed, actions)`` is called about twice a
    second while measuring; ``cpu_seconds()`` reads the server's CPU time, if it can be read.

    Bounded throughout: each client connects within ``connect_timeout`` seconds, every process
    is ready within ``ready_timeout``, and a table still busy ``grace`` seconds after the window
    is stopped. Failed clients, tables and processes are in the figures, which hold what the
    rest measured.

    With several URLs (comma-separated: several server processes), ``route`` says where a
    table's clients connect: "spread" over all of them in turn, or "table", all to the one its
    id picks (:class:`TableBots`)."""
    check_route(route)
    warmup = think * 12 if warmup is None else warmup
    ctx = mp.get_context("spawn")
    messages, go, count = ctx.Queue(), ctx.Event(), ctx.Value("l", 0)
    chunks = [c for c in (specs[i::procs] for i in range(procs)) if c]
    pool = [_Process(i, ctx.Process(target=_worker, daemon=True, args=(
        i, url, event, chunk, password, think, warmup, seconds, connect_timeout, route, grace, ready_timeout + 60,
        go, count, messages)), chunk) for i, chunk in enumerate(chunks)]
    failures: list[Failure] = []
    cpu = load_cpu = None
    try:
        for p in pool:
            p.process.start()
        _await(pool, messages, "starting", "ready", ready_timeout, failures)
        go.set()
        if any(p.state == "ready" and sum(f.tables for f in p.failures) < p.tables for p in pool):
            time.sleep(warmup)
            cpu0 = cpu_seconds() if cpu_seconds else None
            load0 = _cpu_of(pool)
            start = time.monotonic()
            while (elapsed := time.monotonic() - start) < seconds:
                if progress:
                    progress(elapsed, count.value)
                time.sleep(min(0.5, max(0.0, seconds - elapsed)))
            cpu = cpu_seconds() - cpu0 if cpu_seconds and cpu0 is not None else None
            load_cpu = _cpu_of(pool) - load0
        _await(pool, messages, "ready", "done", grace + 30, failures)
    finally:
        for p in pool:  # a process that sent its figures ends by itself; any other is stopped
            p.process.join(5)
            if p.process.is_alive():
                p.process.kill()
                p.process.join(5)
    by_action, kinds = merged(pool)
    lat = sorted(x for v in by_action.values() for x in v)
    return Figures(
        tables=len(specs), clients=sum(1 + len(s.players) + len(s.watchers) for s in specs), seconds=seconds,
        actions=len(lat), error_kinds=dict(kinds),
        p50_ms=round(1000 * statistics.median(lat), 1) if lat else float("nan"),
        p95_ms=_pct(lat, 0.95), p99_ms=_pct(lat, 0.99),
        by_action={k: {"count": len(v), "p50_ms": _pct(sorted(v), 0.5), "p99_ms": _pct(sorted(v), 0.99)}
                   for k, v in sorted(by_action.items())},
        server_cpu_percent=round(100 * cpu / seconds) if cpu is not None else None, failures=failures,
        load_cpu_seconds=load_cpu)


def _cpu_of(pool: list[_Process]) -> float:
    """The load processes' CPU seconds so far (one that ended counts no more)."""
    total = 0.0
    for p in pool:
        with contextlib.suppress(OSError, ValueError):
            total += process_cpu_seconds(p.process.pid)
    return total


def process_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a local process (Linux ``/proc``)."""
    import os
    from pathlib import Path

    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
