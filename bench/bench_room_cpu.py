"""The card room's CPU per table change, in process: no sockets, no load generator.

``--tables`` live Blackjack tables on a fresh SQLite file, each with 5 bots on auto-deal and 5
watchers whose messages are JSON-encoded as the transport would, run for ``--seconds``. Prints
the table changes (state versions) per second and the process's CPU time per change, which is
the server's own cost of an action: the engine, the ledger and hand writes (group commit),
the views and their encoding.

    python bench/bench_room_cpu.py --tables 20 --seconds 10
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from argon2 import PasswordHasher

from syndicate.apps.server import prepare
from syndicate.room.cardroom import CardRoom
from syndicate.room.cashier import MAX_FLOAT
from syndicate.room.live.clocks import Timers
from syndicate.room.live.local import LiveRoom
from syndicate.room.live.messages import encode
from syndicate.store import SqlStore


class Watcher:
    def __init__(self, account) -> None:  # type: ignore[no-untyped-def]
        self.account = account

    def send(self, message: dict) -> None:
        encode(message)


async def run(tables: int, seconds: float) -> None:
    db = prepare(f"sqlite:///{Path(tempfile.mkdtemp()) / 'cpu.db'}", seed_notice=False, out=open(os.devnull, "w"))
    room = CardRoom(SqlStore(db), PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
    ev = room.accounts.events()[0]
    admin = room.accounts.add(ev.id, "admin2", "admin", "password123")
    # Bots play only from the admin's float (at most MAX_FLOAT): a bot takes 100 maximum bets,
    # so the tables bet up to $10 (the amounts do not change the work per table change).
    max_bet = 1_000
    room.cashier.set_float(admin, min(MAX_FLOAT, tables * 5 * 100 * max_bet))
    live = LiveRoom(room, timers=Timers(turn=None))
    runners = []
    for t in range(tables):
        dealer = room.accounts.add(ev.id, f"dealer{t}", "dealer", "password123")
        room.roster.authorize(admin, dealer.name, "Boss")
        table = room.tables.open(dealer, f"T{t}", "blackjack", None, {"min_bet": 100, "max_bet": max_bet})
        runner = await live.table(table)
        await runner.join(Watcher(dealer))
        for w in range(4):
            await runner.join(Watcher(room.accounts.add(ev.id, f"w{t}-{w}", "spectator", "password123")))
        assert (await runner.call(dealer, {"id": "b", "action": "add_bots", "count": 5}))["type"] == "ack"
        runners.append((runner, dealer))
    v0, c0, t0 = sum(r.version for r, _ in runners), time.process_time(), time.monotonic()
    for runner, dealer in runners:
        await runner.call(dealer, {"id": "on", "action": "auto_deal", "seconds": 0.001})
    await asyncio.sleep(seconds)
    for runner, dealer in runners:
        await runner.call(dealer, {"id": "off", "action": "auto_deal", "seconds": None})
    c1, t1, v1 = time.process_time(), time.monotonic(), sum(r.version for r, _ in runners)
    hands = sum(r.hand_number for r, _ in runners)
    changes = v1 - v0
    writer = live.pit.writer
    batches = f"; {writer.units} writes in {writer.batches} transactions" if hasattr(writer, "batches") else ""
    print(f"{tables} tables: {hands} hands, {changes} table changes in {t1 - t0:.1f} s "
          f"({changes / (t1 - t0):,.0f}/s); CPU {1000 * (c1 - c0) / changes:.2f} ms per change, "
          f"{1000 * (c1 - c0) / hands:.1f} ms per hand{batches}")
    await live.stop()
    db.dispose()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=10)
    args = ap.parse_args()
    asyncio.run(run(args.tables, args.seconds))


if __name__ == "__main__":
    main()
