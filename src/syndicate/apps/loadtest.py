"""Load on a live card room: bots over real WebSockets, at both games (``syndicate loadtest``).

Each table has a dealer bot, player bots and spectators (:mod:`syndicate.apps.loadbots`).
Tables start one by one over a warm-up, as real tables do, and only the window after it is
measured. The bots run in ``procs`` processes; this module plans the tables, prepares their
accounts, runs the processes and adds up their figures.

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

from ..web.gcpause import keep_pauses_short
from .client import RoomClient
from .loadbots import (
    GAMES,
    Failure,
    TableBots,
    TableSpec,
    check_route,
    connect_tables,
    describe,
    play_tables,
)

PIT_BOSS = "Load boss"


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
