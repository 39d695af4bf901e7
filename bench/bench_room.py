"""The card room server under load: one server process on SQLite, many tables of bots.

Starts ``python -m syndicate.room.cli`` on a fresh SQLite file, then drives ``--tables`` live
Blackjack tables from this process over WebSockets with :mod:`syndicate.client`: at each
table a dealer bot (starts and deals rounds as soon as the bets are in), ``--players``
basic-strategy player bots and ``--spectators`` watchers, so ``tables * (1 + players +
spectators)`` clients are connected. Reports actions per second and the latency of an action
(sent → answered, as the client sees it: queueing, the engine, the database commit) at p50 and
p99. The target in issue 5: p99 below 50 ms at 500 connected clients.

    python bench/bench_room.py --tables 50 --players 5 --spectators 4 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
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
from argon2 import PasswordHasher

from syndicate.client import ActionRefused, RoomClient, TableClient, basic_strategy
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


async def table_bots(url: str, ev: int, spec: dict, clock: dict[str, float], ready: asyncio.Barrier,
                     latencies: list[float], rng: random.Random) -> int:
    def token(name: str) -> str:
        c = RoomClient(url)
        c.sign_in(ev, name, PASSWORD)
        c.close()
        return c.token  # type: ignore[return-value]

    dealer_token = await asyncio.to_thread(token, spec["dealer"])
    dealer_rest = RoomClient(url, dealer_token)
    table = await asyncio.to_thread(dealer_rest.open_table, f"Bench {spec['dealer']}", "blackjack", None,
                                    {"min_bet": 100, "max_bet": 10_000})
    dealer_rest.close()
    tid = table["id"]
    dealer = await TableClient.connect(url, tid, dealer_token)
    players = [await TableClient.connect(url, tid, await asyncio.to_thread(token, n)) for n in spec["players"]]
    watchers = [await TableClient.connect(url, tid, await asyncio.to_thread(token, n)) for n in spec["watchers"]]
    actions = 0
    measuring = False

    async def act(client: TableClient, action: str, **fields: object) -> None:
        nonlocal actions
        t0 = time.perf_counter()
        await client.act(action, timeout=60, **fields)
        if measuring:
            latencies.append(time.perf_counter() - t0)
            actions += 1

    for i, p in enumerate(players):
        await act(p, "sit", seat=i + 1, amount=1_000_000)
    by_seat = {i + 1: p for i, p in enumerate(players)}
    await ready.wait()  # every client of every table connected: now measure
    measuring = True
    while time.monotonic() < clock["deadline"]:
        await act(dealer, "start_round")
        await asyncio.gather(*(act(p, "bet", amount=rng.choice([100, 500, 1_000])) for p in players))
        await act(dealer, "deal")
        last = dealer.version
        while True:
            st = await dealer.wait(lambda s: s["version"] >= last, timeout=30)
            rd = st["round"]
            if rd["phase"] == "settled":
                break
            p = by_seat[rd["to_act"]]
            mine = await p.wait(lambda s: s["version"] >= st["version"], timeout=30)
            choice, fields = basic_strategy(mine, p.rules)
            try:
                await act(p, choice, **fields)
            except ActionRefused:
                await act(p, "stand")
            last = p.version
    for c in [dealer, *players, *watchers]:
        await c.close()
    return actions


async def drive(url: str, ev: int, plan: list[dict], seconds: float) -> tuple[int, list[float], float]:
    """Connect every client first; then play for ``seconds`` and measure only that."""
    latencies: list[float] = []
    clock = {"start": 0.0, "deadline": float("inf")}

    def go() -> None:
        clock["start"] = time.monotonic()
        clock["deadline"] = clock["start"] + seconds

    ready = asyncio.Barrier(len(plan) + 1)
    tasks = [asyncio.create_task(table_bots(url, ev, spec, clock, ready, latencies, random.Random(i)))
             for i, spec in enumerate(plan)]
    await ready.wait()
    go()
    counts = await asyncio.gather(*tasks)
    return sum(counts), latencies, time.monotonic() - clock["start"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--spectators", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=20)
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
        actions, lat, elapsed = asyncio.run(drive(url, ev, plan, args.seconds))
    finally:
        server.terminate()
        server.wait(10)
    lat.sort()
    clients = args.tables * (1 + args.players + args.spectators)
    figures = {
        "tables": args.tables, "clients": clients, "seconds": round(elapsed, 1), "actions": actions,
        "actions_per_second": round(actions / elapsed, 1),
        "p50_ms": round(1000 * statistics.median(lat), 2),
        "p99_ms": round(1000 * lat[int(0.99 * (len(lat) - 1))], 2),
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}",
        "date": time.strftime("%Y-%m-%d"),
    }
    print(f"{'tables':>8} {'clients':>8} {'actions':>8} {'actions/s':>10} {'p50 ms':>8} {'p99 ms':>8}")
    print(f"{args.tables:>8} {clients:>8} {actions:>8} {figures['actions_per_second']:>10} "
          f"{figures['p50_ms']:>8} {figures['p99_ms']:>8}")
    print(f"target p99 < 50 ms at 500 clients: {'met' if figures['p99_ms'] < 50 else 'NOT met'} "
          f"({figures['machine']}; the bots run on the same machine as the server)")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
