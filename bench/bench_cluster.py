"""The card room on one process and on several, side by side in one run.

For each configuration a fresh database gets the bots' accounts (a cheap argon2: this measures
play, not sign-in), the server processes start, and :mod:`syndicate.apps.loadtest` (the engine of
``syndicate loadtest``) drives ``--tables`` live tables of a dealer and ``--players`` player bots
over real WebSockets from ``--procs`` load processes, each table's clients spread over the
processes in turn (as a load balancer without sticky sessions would), or with ``--route table``
all on the process the table's id picks (as one hashing the socket's path would,
docs/deployment.md). Configurations:

- ``sqlite``: one ``syndicate serve`` on a SQLite file (the default deployment);
- ``pg×N``: N ``syndicate serve --redis`` processes on one PostgreSQL database and Redis.

Reports, per configuration, actions per second, errors, p50/p95/p99 action latency as the bots
see it, and the CPU of all the server processes together, in all and per action. Clients that failed (their tables
stop, the others play on) are counted with the first error named; a configuration that could
not run is reported and the next one runs; either way the run ends with exit code 1. The target: 2,000
connected players across 400 tables with p99 under 100 ms and no errors (docs/benchmarks.md).

    python bench/bench_cluster.py --tables 400 --players 5 --think 2000 --seconds 30 --configs sqlite,pg1,pg2,pg4

A second machine, simulated: ``--server-cpus 0 --load-cpus 1`` pins the server
processes (and every thread they start) to CPU 0 and the load processes to CPU 1 with the
kernel's CPU affinity (``sched_setaffinity``, what ``taskset`` does), so that the load generators'
work is not the servers' to share. PostgreSQL and Redis are the machine's services and are not
pinned. The load generator stands for many players behind one address, so the servers are
started with a per-address connection cap above the number of clients.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import httpx
from bench_room import PASSWORD, free_port, setup
from sqlalchemy import create_engine, text

from syndicate.apps import loadbots, loadtest

PG_SERVER = os.environ.get("SYNDICATE_BENCH_PG", "postgresql+psycopg://postgres@127.0.0.1:5432")
REDIS = os.environ.get("SYNDICATE_BENCH_REDIS", "redis://127.0.0.1:6379/0")
SYNDICATE = str(Path(sys.executable).parent / "syndicate")


def cpus(text: str | None) -> set[int] | None:
    """``0,1`` or ``0-1``: a set of CPU numbers (None: no pinning)."""
    if not text:
        return None
    out: set[int] = set()
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out.update(range(int(lo), int(hi or lo) + 1))
    return out


def start(db_url: str, redis: str | None, count: int, log: Path, clients: int,
          pin: set[int] | None = None) -> list[subprocess.Popen[bytes]]:
    procs = []
    # Pinned before the server starts, so every thread it starts inherits the affinity.
    pinned = (lambda: os.sched_setaffinity(0, pin)) if pin else None  # noqa: E731
    with log.open("ab") as out:
        for _ in range(count):
            cmd = [SYNDICATE, "serve", "--db", db_url, "--port", str(free_port()), "--no-roster",
                   "--max-connections-per-address", str(max(256, 2 * clients))]
            if redis:
                cmd += ["--redis", redis]
            procs.append(subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, preexec_fn=pinned))
    return procs


def urls_of(procs: list[subprocess.Popen[bytes]]) -> list[str]:
    return [f"http://127.0.0.1:{p.args[p.args.index('--port') + 1]}" for p in procs]  # type: ignore[index, union-attr]


def wait_up(urls: list[str]) -> None:
    for url in urls:
        for _ in range(600):
            try:
                if httpx.get(f"{url}/api/events", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        else:
            raise RuntimeError(f"{url} did not start")


def run_config(name: str, args: argparse.Namespace, specs: list[loadbots.TableSpec], tmp: Path) -> dict:
    pg_db = None
    if name == "sqlite":
        db_url, redis, count = f"sqlite:///{tmp / 'bench.db'}", None, 1
    else:
        count = int(name.removeprefix("pg"))
        name_db = "bench_cluster_" + secrets.token_hex(4)
        admin = create_engine(f"{PG_SERVER}/postgres", isolation_level="AUTOCOMMIT")
        with admin.connect() as c:
            c.execute(text(f'CREATE DATABASE "{name_db}"'))
        pg_db = name_db  # dropped at the end from here on
        db_url, redis = f"{PG_SERVER}/{pg_db}".replace("postgresql+psycopg://", "postgresql://"), REDIS
    try:
        ev = setup(db_url, specs)
        clients = sum(1 + len(s.players) + len(s.watchers) for s in specs)
        procs = start(db_url, redis, count, tmp / f"{name}.log", clients, cpus(args.server_cpus))
        mine = os.sched_getaffinity(0)
        try:
            urls = urls_of(procs)
            wait_up(urls)
            readings: list[float] = []

            def cpu() -> float:
                readings.append(sum(loadtest.process_cpu_seconds(p.pid) for p in procs))
                return readings[-1]

            load = cpus(args.load_cpus)
            if load:  # the load processes are started from here: they inherit it
                os.sched_setaffinity(0, load)
            figures = loadtest.run(",".join(urls), ev, specs, PASSWORD, seconds=args.seconds,
                                   think=args.think / 1000, warmup=args.warmup, procs=args.procs, cpu_seconds=cpu,
                                   route=args.route)
        finally:
            os.sched_setaffinity(0, mine)
            for p in procs:
                p.terminate()
            for p in procs:
                try:
                    p.wait(30)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
    finally:
        if pg_db is not None:
            with admin.connect() as c:
                c.execute(text(f'DROP DATABASE IF EXISTS "{pg_db}" WITH (FORCE)'))
            admin.dispose()
    # The window's CPU: the last two readings are its start and end.
    used = readings[-1] - readings[-2] if len(readings) >= 2 else None
    per_action = round(1000 * used / figures.actions, 2) if used is not None and figures.actions else None
    load = figures.load_cpu_seconds
    load_per_action = round(1000 * load / figures.actions, 2) if load is not None and figures.actions else None
    return {"config": name, "processes": count, **figures.to_json(), "server_cpu_ms_per_action": per_action,
            "load_cpu_ms_per_action": load_per_action}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=400)
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--think", type=float, default=2000, help="players' mean think time in ms (0: none)")
    ap.add_argument("--games", default="both", choices=["blackjack", "poker", "both"])
    ap.add_argument("--procs", type=int, default=2, help="load-generator processes")
    ap.add_argument("--warmup", type=float, default=None, help="seconds over which the tables start")
    ap.add_argument("--configs", default="sqlite,pg1,pg2,pg4",
                    help="comma-separated: sqlite, and pgN for N processes on PostgreSQL + Redis")
    ap.add_argument("--json", type=Path, default=None, help="also write the figures here")
    ap.add_argument("--server-cpus", default=None, help="pin the server processes to these CPUs (0 or 0,1 or 0-1)")
    ap.add_argument("--load-cpus", default=None, help="pin the load processes to these CPUs")
    ap.add_argument("--route", default="spread", choices=loadbots.ROUTES,
                    help="several processes: each table's clients spread over them, or all on the one its "
                         "id picks (a load balancer hashing the socket's path)")
    args = ap.parse_args()
    for name in args.configs.split(","):
        if name != "sqlite" and not (name.startswith("pg") and name[2:].isdigit() and int(name[2:]) > 0):
            ap.error(f"a configuration is sqlite or pgN (N server processes), not {name!r}")

    games = loadbots.GAMES if args.games == "both" else (args.games,)
    specs = loadtest.plan(args.tables, args.players, 0, games)
    tmp = Path(tempfile.mkdtemp(prefix="bench_cluster_"))
    rows, broken = [], []
    for name in args.configs.split(","):
        try:
            r = run_config(name, args, specs, tmp)
        except Exception as e:  # the next configuration still runs; the failure is in the report
            broken.append(f"{name}: could not run: {loadbots.describe(e)} (servers' log in {tmp})")
            print(broken[-1], flush=True)
            continue
        rows.append(r)
        print(f"{name:>7}: {r['actions_per_second']:>7} actions/s, {r['errors']} errors, p50 {r['p50_ms']} ms, "
              f"p95 {r['p95_ms']} ms, p99 {r['p99_ms']} ms, servers' CPU {r['server_cpu_percent']}%, "
              f"{r['server_cpu_ms_per_action']} ms per action; load processes' CPU {r['load_cpu_percent']}%, "
              f"{r['load_cpu_ms_per_action']} ms/action", flush=True)
        if r["failed_clients"]:
            broken.append(f"{name}: {r['failed_clients']} of {r['clients']} clients failed "
                          f"({r['failed_tables']} tables stopped); first error: {r['first_error']}")
            print(broken[-1], flush=True)
    machine = f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}"
    pinning = (f"; servers on CPUs {args.server_cpus or 'any'}, load processes on CPUs {args.load_cpus or 'any'}"
               if args.server_cpus or args.load_cpus else "")
    routing = "; each table's clients on the process its id picks" if args.route == "table" else ""
    print(f"\n{args.tables} tables, {args.tables * args.players} players ({args.tables * (1 + args.players)} "
          f"clients), think {args.think:g} ms, {args.procs} load processes on the same machine ({machine}{pinning}{routing}); "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'config':>7} {'procs':>5} {'actions/s':>10} {'errors':>6} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} "
          f"{'CPU %':>6} {'CPU ms/action':>13}  p99 < 100 ms  {'failed clients':>14}")
    for r in rows:
        met = r["p99_ms"] < 100 and r["errors"] == 0 and r["failed_clients"] == 0
        print(f"{r['config']:>7} {r['processes']:>5} {r['actions_per_second']:>10} {r['errors']:>6} "
              f"{r['p50_ms']:>7} {r['p95_ms']:>7} {r['p99_ms']:>7} {r['server_cpu_percent']!s:>6} "
              f"{r['server_cpu_ms_per_action']!s:>13}  "
              f"{'yes' if met else 'no':<12}  {r['failed_clients']:>14}")
    if args.json:
        args.json.write_text(json.dumps({"machine": machine, "date": time.strftime("%Y-%m-%d %H:%M"),
                                         "tables": args.tables, "players": args.players, "think_ms": args.think,
                                         "rows": rows, "failed": broken}, indent=2))
    if broken:
        sys.exit("failed:\n" + "\n".join(f"  {b}" for b in broken))


if __name__ == "__main__":
    main()
