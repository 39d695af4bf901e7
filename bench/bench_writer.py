"""The live tables' writer thread: its CPU per table change, with one connection kept between
transactions (``Store.serial``) against a connection from the pool for each.

One live Blackjack table on a fresh SQLite file, 5 bots on auto-deal: the table awaits each
change's write before the next, so every write is a transaction of its own, as at 400 tables
and a 2 s think time (bench/bench_cluster.py), where the writer is a large part of the server's
CPU (docs/benchmarks.md).
The two ways run in turn, ``--rounds`` times each, and the medians are printed with their ratio.
The writer thread's own CPU clock is read, so the event loop's work is not in the figure.

    python bench/bench_writer.py --seconds 3 --rounds 3
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from argon2 import PasswordHasher

from syndicate.apps.server import prepare
from syndicate.room.cardroom import CardRoom
from syndicate.room.live.clocks import Timers
from syndicate.room.live.local import LiveRoom
from syndicate.store import SqlStore
from syndicate.store.repo import SqlRepo


class Pooled:
    """``Store.serial`` without its kept connection: every transaction takes one from the pool."""

    commit_window = 0.0  # one table: its writer never waits anyway

    def __init__(self, store: SqlStore) -> None:
        self.store = store

    @contextmanager
    def transaction(self) -> Iterator[SqlRepo]:
        with self.store.transaction() as repo:
            yield repo

    def close(self) -> None:
        pass


class PooledStore(SqlStore):
    def serial(self) -> Pooled:  # type: ignore[override]
        return Pooled(self)


async def one(store_class: type[SqlStore], seconds: float) -> tuple[float, int]:
    """Writer CPU µs per write, and the writes."""
    db = prepare(f"sqlite:///{Path(tempfile.mkdtemp()) / 'writer.db'}", seed_notice=False, out=open(os.devnull, "w"))
    room = CardRoom(store_class(db), PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
    ev = room.accounts.events()[0]
    admin = room.accounts.add(ev.id, "admin2", "admin", "password123")
    room.cashier.set_float(admin, 5 * 100 * 1_000)
    live = LiveRoom(room, timers=Timers(turn=None))
    dealer = room.accounts.add(ev.id, "dealer", "dealer", "password123")
    room.roster.authorize(admin, dealer.name, "Boss")
    table = room.tables.open(dealer, "T", "blackjack", None, {"min_bet": 100, "max_bet": 1_000})
    runner = await live.table(table)
    assert (await runner.call(dealer, {"id": "b", "action": "add_bots", "count": 5}))["type"] == "ack"
    await runner.call(dealer, {"id": "on", "action": "auto_deal", "seconds": 0.001})
    await asyncio.sleep(0.3)  # the writer's thread has started and opened its connection
    writer = live.pit.writer
    clock = time.pthread_getcpuclockid(writer._thread.ident)  # type: ignore[arg-type]
    c0, u0 = time.clock_gettime(clock), writer.units
    await asyncio.sleep(seconds)
    c1, u1 = time.clock_gettime(clock), writer.units
    await runner.call(dealer, {"id": "off", "action": "auto_deal", "seconds": None})
    if writer.batches != writer.units:
        print(f"  (note: {writer.units} writes in {writer.batches} transactions)")
    await live.stop()
    db.dispose()
    return 1e6 * (c1 - c0) / max(1, u1 - u0), u1 - u0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=3)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    ways = {"pooled (before)": PooledStore, "serial (now)": SqlStore}
    got: dict[str, list[float]] = {k: [] for k in ways}
    writes = 0
    for _ in range(args.rounds):
        for name, cls in ways.items():
            us, n = asyncio.run(one(cls, args.seconds))
            got[name].append(us)
            writes += n
    pooled, serial = (statistics.median(v) for v in got.values())
    print(f"writer CPU per table change, median of {args.rounds} ({writes} writes): "
          f"pooled {pooled:.0f} us, serial {serial:.0f} us, ratio {serial / pooled:.2f}")


if __name__ == "__main__":
    main()
