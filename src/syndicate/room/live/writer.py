"""The live tables' database work, off the event loop, with group commit.

Every change at a live table is one unit of database work (its ledger entries and the hand's
log). :class:`GroupWriter` runs those units on one thread; when several tables' units are
waiting, it runs them all in **one** transaction and commits once, so fifty busy tables pay
for one ``BEGIN IMMEDIATE … COMMIT`` instead of fifty. Each table still awaits its own unit,
which is durable once its batch has committed. A unit that fails takes nothing with it: the
batch is rolled back and every unit in it is run again alone, in its own transaction, so the
others commit and the failing one gets its own error, exactly as if there had been no batch.
Units are database work only (no changes to the table's memory), so running one twice after a
rollback is safe. For the same reason a batch whose connection was lost before its commit was
sent (PostgreSQL restarted, or the connection ended by its server) runs once more on a new
connection; lost twice, it fails like any batch, and its tables stop (docs/server.md).

**A short wait when other tables are writing too** (``window``). Under load the writes of many
tables come one at a time, a few milliseconds apart, so each would pay for its own transaction:
opening it (``BEGIN IMMEDIATE``) and committing it cost about as much as the unit's statements
(docs/benchmarks.md). When a unit comes within ``window`` seconds of another *table's* unit, the
writer waits up to ``window`` for more before it commits (as PostgreSQL's ``commit_delay`` does
when other transactions are active). A table alone (a quiet evening, a test, one dealer's
table) never waits: a table has at most one unit in flight, so its own units say nothing about
whether another is coming. ``source`` names a unit's table; units without one never wait and are
not counted as another table's. The store says how long a wait pays
(``SerialTransactions.commit_window``): on PostgreSQL none does (docs/benchmarks.md).

SQLite allows one writer at a time, so this is the writer for SQLite. It is also the writer for
PostgreSQL: a pool of threads with a transaction per unit is slower under load
(bench/bench_cluster.py, docs/benchmarks.md): the threads' Python work contends for the
interpreter lock with the event loop, and every unit pays for its own commit. On PostgreSQL two
processes' batches may deadlock on a shared account (a player seated at tables of two
processes); the database aborts one, which is then run unit by unit like any failed batch.
"""

from __future__ import annotations

import asyncio
import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable
from typing import Any

from ..ports import Repo, SerialTransactions, Store

Work = Callable[[Repo], Any]
Job = tuple[Work, "asyncio.Future[Any]", Hashable | None]
MAX_BATCH = 64


class GroupWriter:
    def __init__(self, store: Store, max_batch: int = MAX_BATCH, window: float | None = None) -> None:
        """``window``: seconds a unit waits for other tables' units when another table's came
        within it (the module's docstring); by default what the store says pays."""
        self.store = store
        self.max_batch = max_batch
        self._jobs: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        # when the writer took each of the last few units, and whose they were (the window's rule)
        self._recent: deque[tuple[float, Hashable]] = deque(maxlen=8)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread = threading.Thread(target=self._serve, name="table-db", daemon=True)
        self._started = False
        # Its transactions, one after another on the writer's thread: on SQLite one connection,
        # opened by the first and kept between them (Store.serial).
        self._serial: SerialTransactions = store.serial()
        self.window = self._serial.commit_window if window is None else window
        #: batches committed and units run: ``units / batches`` is the mean batch size
        self.batches = 0
        self.units = 0
        #: batches that waited for other tables' units (the window)
        self.waited = 0
        #: batches run again because their connection was lost before the commit
        self.retried = 0

    async def run(self, work: Work, source: Hashable | None = None) -> Any:
        """Run ``work`` in a transaction on the writer's thread; its result. ``source``: the
        table whose unit it is (see the module's docstring on the window)."""
        loop = asyncio.get_running_loop()
        if not self._started:
            self._loop, self._started = loop, True
            self._thread.start()
        fut: asyncio.Future[Any] = loop.create_future()
        self._jobs.put((work, fut, source))
        return await fut

    def shutdown(self) -> None:
        if self._started:
            self._jobs.put(None)
            self._thread.join()

    def _serve(self) -> None:
        try:
            self._serve_jobs()
        finally:
            self._serial.close()

    def _serve_jobs(self) -> None:
        while True:
            first = self._jobs.get()
            if first is None:
                return
            batch = [first]
            deadline = self._deadline(first[2])
            stop = False
            while len(batch) < self.max_batch:
                try:
                    left = deadline - time.monotonic()
                    job = self._jobs.get(timeout=left) if left > 0 else self._jobs.get_nowait()
                except queue.Empty:
                    break
                if job is None:
                    stop = True
                    break
                self._took(job[2])
                batch.append(job)
            self._deliver(self._run_batch(batch))
            if stop:
                return

    def _deadline(self, source: Hashable | None) -> float:
        """Until when the batch that ``source``'s unit opens waits for more: now, unless another
        table's unit was taken within the window."""
        now = time.monotonic()
        others = source is not None and any(now - t < self.window and s != source for t, s in self._recent)
        self._took(source, now)
        if not others:
            return now
        self.waited += 1
        return now + self.window

    def _took(self, source: Hashable | None, now: float | None = None) -> None:
        if source is not None:
            self._recent.append((time.monotonic() if now is None else now, source))

    def _run_batch(self, batch: list[Job], again: bool = True
                   ) -> list[tuple[asyncio.Future[Any], Any, BaseException | None]]:
        try:
            with self._serial.transaction() as repo:
                results = [work(repo) for work, _, _ in batch]
            self.batches += 1
            self.units += len(batch)
            return [(fut, r, None) for (_, fut, _), r in zip(batch, results, strict=True)]
        except Exception as e:
            if again and self._serial.lost:
                # The connection was lost before the commit (a database restart, a connection
                # ended by its server): nothing was committed. The same batch once more, on a new
                # connection; lost again, it fails as any batch does.
                self.retried += 1
                return self._run_batch(batch, again=False)
            if len(batch) == 1:
                return [(batch[0][1], None, e)]
        # one of them failed and the batch was rolled back: each alone, in its own transaction
        return [out for job in batch for out in self._run_batch([job], again=False)]

    def _deliver(self, outcomes: list[tuple[asyncio.Future[Any], Any, BaseException | None]]) -> None:
        def settle() -> None:
            for fut, result, error in outcomes:
                if fut.done():
                    continue
                if error is not None:
                    fut.set_exception(error)
                else:
                    fut.set_result(result)

        assert self._loop is not None
        if not self._loop.is_closed():
            self._loop.call_soon_threadsafe(settle)

