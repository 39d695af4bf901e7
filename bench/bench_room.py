"""The card room server under load: one server process on SQLite, many tables of bots.

Starts ``python -m syndicate.room.cli`` on a fresh SQLite file, then drives ``--tables`` live
Blackjack tables over WebSockets with :mod:`syndicate.client` from ``--procs`` load-generator
processes: at each table a dealer bot (starts a round as soon as the last is over and deals as
soon as the bets are in), ``--players`` basic-strategy player bots and ``--spectators``
watchers (they read every message and decode none, as a browser that is not looking would), so
``tables * (1 + players + spectators)`` clients are connected.

Players take a think time before each bet and decision, uniform between 0.5 and 1.5 times
``--think`` milliseconds (``--think 0``: as fast as the server answers, which measures the
server's ceiling rather than a table of people). Reports actions per second, errors, and the
latency of an action as the client sees it (sent → answered with the new state in: queueing,
the engine, the database commit, the broadcast) at p50/p95/p99. The target in issue 5: p99
below 50 ms at 500 connected clients.

    python bench/bench_room.py --tables 50 --players 5 --spectators 4 --seconds 30 --think 1000
    python bench/bench_room.py --tables 50 --think 0          # the ceiling
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import platform
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import httpx
import websockets
from argon2 import PasswordHasher

from syndicate.client import PROTOCOL, ActionRefused, RoomClient, TableClient, basic_strategy
from syndicate.room.cardroom import CardRoom
from syndicate.room.cli import prepare
from syndicate.store import SqlStore

PASSWORD = "benchmark password"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def setup(db_url: str, tables: int, players: int, spectators: int) -> tuple[int, list[dict]]:
    """Accounts straight into the database (a cheap argon2: this measures play, not sign-in)."""
    database = prepare(db_url, seed_notice=False, out=open(os.devnull, "w"))
    room = CardRoom(SqlStore(database), PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
    ev = room.accounts.events()[0]
    admin = room.accounts.add(ev.id, "bench admin", "admin", PASSWORD)
    plan = []
    for t in range(tables):
        dealer = room.accounts.add(ev.id, f"dealer{t}", "dealer", PASSWORD)
        room.roster.authorize(admin, dealer.name, "Bench boss")
        seat_players = []
        for p in range(players):
            acct = room.accounts.add(ev.id, f"p{t}-{p}", "player", PASSWORD)
            room.cashier.buy_in(admin, acct.id, 10_000_000)
            seat_players.append(acct.name)
        watchers = [room.accounts.add(ev.id, f"w{t}-{w}", "spectator", PASSWORD).name for w in range(spectators)]
        plan.append({"dealer": dealer.name, "players": seat_players, "watchers": watchers})
    database.dispose()
    return ev.id, plan


class Watcher:
    """A spectator that reads every message and decodes none."""

    def __init__(self, ws: websockets.ClientConnection) -> None:
        self.ws = ws
        self.received = 0
        self.task = asyncio.create_task(self._read())

    @classmethod
    async def connect(cls, url: str, table_id: int, token: str) -> Watcher:
        ws = await websockets.connect(f"{url.replace('http://', 'ws://')}/ws/tables/{table_id}", max_size=2**22)
        await ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL, "token": token}))
        await ws.recv()  # the welcome
        return cls(ws)

    async def _read(self) -> None:
        try:
            async for _ in self.ws:
                self.received += 1
        except websockets.ConnectionClosed:
            pass

    async def close(self) -> None:
        await self.ws.close()
        await self.task


class Table:
    """One table's clients and its play loop."""

    def __init__(self, url: str, ev: int, spec: dict, think: float, rng: random.Random) -> None:
        self.url, self.ev, self.spec, self.think, self.rng = url, ev, spec, think, rng
        self.latencies: list[float] = []
        self.by_action: dict[str, list[float]] = {}
        self.errors = 0
        self.window = (float("inf"), float("inf"))  # measure actions sent in [start, end)

    def _token(self, name: str) -> str:
        with RoomClient(self.url) as c:
            c.sign_in(self.ev, name, PASSWORD)
            return c.token  # type: ignore[return-value]

    async def connect(self) -> None:
        dealer_token = await asyncio.to_thread(self._token, self.spec["dealer"])
        with RoomClient(self.url, dealer_token) as rest:
            table = await asyncio.to_thread(rest.open_table, f"Bench {self.spec['dealer']}", "blackjack", None,
                                            {"min_bet": 100, "max_bet": 10_000})
        tid = table["id"]
        # keep=0: a bot needs the latest state only, not every message it ever received
        self.dealer = await TableClient.connect(self.url, tid, dealer_token, keep=0)
        self.players = [await TableClient.connect(self.url, tid, await asyncio.to_thread(self._token, n), keep=0)
                        for n in self.spec["players"]]
        self.watchers = [await Watcher.connect(self.url, tid, await asyncio.to_thread(self._token, n))
                         for n in self.spec["watchers"]]
        for i, p in enumerate(self.players):
            await self.act(p, "sit", seat=i + 1, amount=1_000_000)

    async def act(self, client: TableClient, action: str, **fields: object) -> None:
        t0 = time.perf_counter()
        measuring = self.window[0] <= time.monotonic() < self.window[1]
        try:
            await client.act(action, timeout=60, **fields)
        except (ActionRefused, TimeoutError):
            self.errors += measuring
            raise
        if measuring:
            self.latencies.append(time.perf_counter() - t0)
            self.by_action.setdefault(action, []).append(time.perf_counter() - t0)

    async def pause(self) -> None:
        if self.think:
            await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)

    async def bet(self, p: TableClient) -> None:
        await self.pause()
        await self.act(p, "bet", amount=self.rng.choice([100, 500, 1_000]))

    async def play(self, delay: float) -> None:
        """Rounds until the end of the measured window, the first after ``delay`` seconds (so
        that the tables, like real ones, are not all dealing at the same moment)."""
        await asyncio.sleep(delay)
        by_seat = {i + 1: p for i, p in enumerate(self.players)}
        while time.monotonic() < self.window[1]:
            await self.act(self.dealer, "start_round")
            await asyncio.gather(*(self.bet(p) for p in self.players))
            await self.act(self.dealer, "deal")
            last = self.dealer.version
            while True:
                st = await self.dealer.wait(lambda s: s["version"] >= last, timeout=60)
                rd = st["round"]
                if rd["phase"] == "settled":
                    break
                p = by_seat[rd["to_act"]]
                mine = await p.wait(lambda s: s["version"] >= st["version"], timeout=60)
                choice, fields = basic_strategy(mine, p.rules)
                await self.pause()
                try:
                    await self.act(p, choice, **fields)
                except ActionRefused:
                    await self.act(p, "stand")
                last = p.version

    async def close(self) -> None:
        for c in [self.dealer, *self.players, *self.watchers]:
            await c.close()


def generator(url: str, ev: int, plan: list[dict], seconds: float, think: float, warmup: float, seed: int,
              ready: mp.Queue, go: mp.Event, results: mp.Queue) -> None:
    """One load-generator process: connect its tables, report ready, wait for go, play."""

    async def run() -> tuple[list[float], int, int, dict[str, list[float]]]:
        tables = [Table(url, ev, spec, think, random.Random(seed * 1000 + i)) for i, spec in enumerate(plan)]
        for t in tables:
            await t.connect()
        ready.put(len(tables))
        await asyncio.to_thread(go.wait)
        start = time.monotonic() + warmup
        for t in tables:
            t.window = (start, start + seconds)
        await asyncio.gather(*(t.play(t.rng.uniform(0, warmup)) for t in tables))
        received = sum(w.received for t in tables for w in t.watchers)
        for t in tables:
            await t.close()
        by_action: dict[str, list[float]] = {}
        for t in tables:
            for k, v in t.by_action.items():
                by_action.setdefault(k, []).extend(v)
        return [x for t in tables for x in t.latencies], sum(t.errors for t in tables), received, by_action

    results.put(asyncio.run(run()))


def measure(url: str, ev: int, plan: list[dict], seconds: float, think: float, warmup: float, procs: int,
            server_pid: int) -> dict:
    ctx = mp.get_context("spawn")
    ready, results, go = ctx.Queue(), ctx.Queue(), ctx.Event()
    chunks = [plan[i::procs] for i in range(procs)]
    workers = [ctx.Process(target=generator,
                           args=(url, ev, chunk, seconds, think, warmup, i, ready, go, results))
               for i, chunk in enumerate(chunks) if chunk]
    for w in workers:
        w.start()
    for _ in workers:
        ready.get(timeout=600)
    go.set()
    time.sleep(warmup)
    cpu0 = _cpu(server_pid)
    time.sleep(seconds)
    cpu = _cpu(server_pid) - cpu0
    out = [results.get(timeout=seconds + 600) for _ in workers]
    elapsed = seconds
    for w in workers:
        w.join()
    lat = sorted(x for o in out for x in o[0])

    def pct(q: float) -> float:
        return round(1000 * lat[int(q * (len(lat) - 1))], 1) if lat else float("nan")

    by_action: dict[str, list[float]] = {}
    for o in out:
        for k, v in o[3].items():
            by_action.setdefault(k, []).extend(v)
    return {"by_action": {k: {"count": len(v), "p50_ms": round(1000 * statistics.median(v), 1),
                              "p99_ms": round(1000 * sorted(v)[int(0.99 * (len(v) - 1))], 1)}
                          for k, v in sorted(by_action.items())},
            "actions": len(lat), "seconds": round(elapsed, 1), "actions_per_second": round(len(lat) / elapsed, 1),
            "errors": sum(o[1] for o in out), "watcher_messages": sum(o[2] for o in out),
            "server_cpu_percent": round(100 * cpu / seconds),
            "p50_ms": round(1000 * statistics.median(lat), 1) if lat else float("nan"),
            "p95_ms": pct(0.95), "p99_ms": pct(0.99)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--spectators", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--think", type=float, default=1000, help="players' mean think time in ms (0: none)")
    ap.add_argument("--procs", type=int, default=2, help="load-generator processes")
    ap.add_argument("--warmup", type=float, default=None,
                    help="seconds before measuring, over which the tables start one by one "
                         "(default: about one round, 12 think times)")
    ap.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args, _ = ap.parse_known_args()

    tmp = Path(tempfile.mkdtemp(prefix="bench_room_"))
    db_url = f"sqlite:///{tmp / 'bench.db'}"
    ev, plan = setup(db_url, args.tables, args.players, args.spectators)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, "-m", "syndicate.room.cli", db_url, "127.0.0.1", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        for _ in range(300):
            try:
                if httpx.get(f"{url}/api/events", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        warmup = args.think / 1000 * 12 if args.warmup is None else args.warmup
        figures = measure(url, ev, plan, args.seconds, args.think / 1000, warmup, args.procs, server.pid)
    finally:
        server.terminate()
        server.wait(10)
    clients = args.tables * (1 + args.players + args.spectators)
    figures = {"tables": args.tables, "clients": clients, "think_ms": args.think, "procs": args.procs, **figures,
               "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}",
               "date": time.strftime("%Y-%m-%d %H:%M")}
    cols = ["tables", "clients", "think_ms", "actions_per_second", "errors", "p50_ms", "p95_ms", "p99_ms",
            "server_cpu_percent"]
    print(" ".join(f"{c:>10}" for c in ("tables", "clients", "think ms", "actions/s", "errors", "p50 ms", "p95 ms",
                                         "p99 ms", "server CPU")))
    print(" ".join(f"{figures[c]!s:>10}" for c in cols))
    print(f"target p99 < 50 ms at 500 clients: {'met' if figures['p99_ms'] < 50 else 'NOT met'} "
          f"({figures['machine']}; {args.procs} load-generator processes on the same machine as the server)")
    for action, f in figures["by_action"].items():
        print(f"  {action:>12}: {f['count']:>7} actions, p50 {f['p50_ms']:>7} ms, p99 {f['p99_ms']:>7} ms")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))


def _cpu(pid: int) -> float:
    """Seconds of CPU the process has used (user + system)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


if __name__ == "__main__":
    main()
