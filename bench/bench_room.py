"""The card room server under load: one server process on SQLite, many tables of bots.

Starts ``python -m syndicate.apps.server`` on a fresh SQLite file, puts the bots' accounts straight
into it (a cheap argon2: this measures play, not sign-in), then drives ``--tables`` live tables
over WebSockets with :mod:`syndicate.apps.loadtest` (the engine of ``syndicate loadtest``) from
``--procs`` load processes: at each table a dealer bot, ``--players`` player bots and
``--spectators`` watchers, so ``tables * (1 + players + spectators)`` clients are connected.

Players think 0.5–1.5 × ``--think`` ms before each bet and decision (0: as fast as the server
answers: the ceiling, not a table of people); tables start one by one over a warm-up and only
the next ``--seconds`` are measured. Reports actions per second, errors, the latency of an
action as the client sees it (p50/p95/p99, and per action) and the server's CPU. The target:
p99 below 50 ms at 500 connected clients (docs/benchmarks.md).

    python bench/bench_room.py --tables 50 --players 5 --spectators 4 --seconds 30 --think 1000
    python bench/bench_room.py --tables 50 --think 0          # the ceiling
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import httpx
from argon2 import PasswordHasher

from syndicate.apps import loadbots, loadtest
from syndicate.apps.server import prepare
from syndicate.room.cardroom import CardRoom
from syndicate.store import SqlStore

PASSWORD = "benchmark password"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def setup(db_url: str, specs: list[loadbots.TableSpec]) -> int:
    database = prepare(db_url, seed_notice=False, out=open(os.devnull, "w"))
    room = CardRoom(SqlStore(database), PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
    ev = room.accounts.events()[0]
    admin = room.accounts.add(ev.id, "bench admin", "admin", PASSWORD)
    for s in specs:
        room.accounts.add(ev.id, s.dealer, "dealer", PASSWORD)
        room.roster.authorize(admin, s.dealer, loadtest.PIT_BOSS)
        for p in s.players:
            room.cashier.buy_in(admin, room.accounts.add(ev.id, p, "player", PASSWORD).id, 10_000_000)
        for w in s.watchers:
            room.accounts.add(ev.id, w, "spectator", PASSWORD)
    database.dispose()
    return ev.id


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--spectators", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--think", type=float, default=1000, help="players' mean think time in ms (0: none)")
    ap.add_argument("--games", default="blackjack", choices=["blackjack", "poker", "both"])
    ap.add_argument("--procs", type=int, default=2, help="load-generator processes")
    ap.add_argument("--warmup", type=float, default=None,
                    help="seconds before measuring, over which the tables start one by one "
                         "(default: about one round, 12 think times)")
    ap.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = ap.parse_args()

    games = loadbots.GAMES if args.games == "both" else (args.games,)
    specs = loadtest.plan(args.tables, args.players, args.spectators, games)
    tmp = Path(tempfile.mkdtemp(prefix="bench_room_"))
    db_url = f"sqlite:///{tmp / 'bench.db'}"
    ev = setup(db_url, specs)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, "-m", "syndicate.apps.server", db_url, "127.0.0.1", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        for _ in range(300):
            if server.poll() is not None:
                sys.exit(f"the server exited with code {server.returncode} before it answered")
            try:
                if httpx.get(f"{url}/api/events", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        else:
            sys.exit(f"the server did not answer at {url}")
        figures = loadtest.run(url, ev, specs, PASSWORD, seconds=args.seconds, think=args.think / 1000,
                               warmup=args.warmup, procs=args.procs,
                               cpu_seconds=lambda: loadtest.process_cpu_seconds(server.pid))
    finally:
        server.terminate()
        server.wait(10)
    out = {**figures.to_json(), "think_ms": args.think, "procs": args.procs, "games": args.games,
           "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}",
           "date": time.strftime("%Y-%m-%d %H:%M")}
    cols = ["tables", "clients", "think_ms", "actions_per_second", "errors", "p50_ms", "p95_ms", "p99_ms",
            "server_cpu_percent"]
    print(" ".join(f"{c:>10}" for c in ("tables", "clients", "think ms", "actions/s", "errors", "p50 ms", "p95 ms",
                                         "p99 ms", "server CPU")))
    print(" ".join(f"{out[c]!s:>10}" for c in cols))
    print(f"target p99 < 50 ms at 500 clients: {'met' if out['p99_ms'] < 50 else 'NOT met'} "
          f"({out['machine']}; {args.procs} load-generator processes on the same machine as the server)")
    for action, f in out["by_action"].items():
        print(f"  {action:>12}: {f['count']:>7} actions, p50 {f['p50_ms']:>7} ms, p99 {f['p99_ms']:>7} ms")
    if args.json:
        args.json.write_text(json.dumps(out, indent=2))
    if figures.failures:
        sys.exit(f"failed: {figures.failure_line()}")


if __name__ == "__main__":
    main()
