"""Speed a person feels: the wall time of `syndicate odds blackjack` for an 8-deck rule set as a
new process (start-up included), first with an empty odds cache (a rule set never analysed on
this machine) and then with the rule set kept, and the cold `GET /api/tables/{id}/odds` of a
running server (a rule set no one asked for yet). Medians over several runs.

Run: .venv/bin/python bench/bench_startup.py [--repeats N] [--cli-only]
Not a pass/fail test: it prints a markdown table (copy it into docs/benchmarks.md).
With ``PYTHONPATH`` set (``bench/compare.py --same-script``) the code measured is that tree's,
the command included.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if not os.environ.get("PYTHONPATH"):
    sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(1, str(ROOT))
SYNDICATE = str(Path(sys.executable).with_name("syndicate"))
#: The rule set of the start-up target (docs/benchmarks.md): 8 decks, H17, late surrender.
COMMAND = [SYNDICATE, "odds", "blackjack", "--rules", "syndicate", "--set", "decks=8",
           "--set", "dealer_hits_soft_17=true", "--set", "surrender=late", "--json"]


def cli_wall(cache: str | None, repeats: int) -> list[float]:
    """Wall seconds of the command; ``cache`` None: an empty cache directory for every run."""
    times = []
    for _ in range(repeats):
        where = cache or tempfile.mkdtemp(prefix="syndicate-bench-")
        env = {**os.environ, "SYNDICATE_CACHE_DIR": where}
        t0 = time.perf_counter()
        subprocess.run(COMMAND, env=env, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - t0)
        if cache is None:
            shutil.rmtree(where, ignore_errors=True)
    return times


def endpoint_cold(repeats: int) -> tuple[list[float], list[float]]:
    """Seconds of a cold and then a warm odds answer, one new rule set each repeat."""
    import httpx

    from syndicate.blackjack.maths import odds
    from syndicate.room.cardroom import CardRoom
    from syndicate.room.live.clocks import Timers
    from syndicate.store import Database, SqlStore
    from syndicate.web import create_app
    from tests.kit.room import FAST_HASHER, PASSWORD, LiveServer, make_cast

    tmp = Path(tempfile.mkdtemp(prefix="syndicate-bench-"))
    os.environ["SYNDICATE_CACHE_DIR"] = str(tmp / "cache")
    db = Database(f"sqlite:///{tmp / 'bench.db'}")
    db.migrate()
    cast = make_cast(CardRoom(SqlStore(db), FAST_HASHER))
    server = LiveServer(create_app(database=db, hasher=FAST_HASHER, migrate=False, timers=Timers(turn=None)))
    cold, warm = [], []
    try:
        with httpx.Client(base_url=server.url, timeout=60) as http:
            token = http.post(f"/api/events/{cast.event.id}/tokens",
                              json={"name": "Bokuden", "password": PASSWORD}).json()["token"]
            auth = {"Authorization": f"Bearer {token}"}
            odds._compute(odds.canonical(odds.Rules(decks=3)), False)  # numba's cache loaded, as in a running server
            for i in range(repeats):
                rules = {"decks": 1 + i % 8, "dealer_hits_soft_17": bool(i // 8 % 2), "surrender": "late"}
                t = http.post("/api/tables", json={"name": f"Bench {i}", "game": "blackjack", "preset": None,
                                                   "overrides": rules}, headers=auth).json()["id"]
                for out in (cold, warm):
                    t0 = time.perf_counter()
                    r = http.get(f"/api/tables/{t}/odds")
                    out.append(time.perf_counter() - t0)
                    assert r.status_code == 200, r.text
    finally:
        server.stop()
        db.dispose()
        shutil.rmtree(tmp, ignore_errors=True)
    return cold, warm


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--cli-only", action="store_true", help="the command only, not the server")
    args = ap.parse_args()
    n = args.repeats
    kept = tempfile.mkdtemp(prefix="syndicate-bench-")
    cli_wall(kept, 1)  # fills the cache
    rows = [("`syndicate odds blackjack` (8 decks H17 LS), empty odds cache", cli_wall(None, n)),
            ("`syndicate odds blackjack` (8 decks H17 LS), rule set kept", cli_wall(kept, n))]
    shutil.rmtree(kept, ignore_errors=True)
    if not args.cli_only:
        cold, warm = endpoint_cold(n)
        rows += [("`GET /api/tables/{id}/odds`, a new rule set (cold)", cold),
                 ("`GET /api/tables/{id}/odds`, the same again", warm)]
    print(f"Command: `.venv/bin/python bench/bench_startup.py --repeats {n}{' --cli-only' * args.cli_only}` — "
          f"{_dt.datetime.now(_dt.UTC):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f}. Wall seconds, new process each CLI run.\n")
    print("| What | median s | min s | max s |")
    print("|---|---:|---:|---:|")
    for name, t in rows:
        print(f"| {name} | {statistics.median(t):.3f} | {min(t):.3f} | {max(t):.3f} |")


if __name__ == "__main__":
    main()
