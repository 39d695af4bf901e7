"""Short garbage-collection pauses for long-running servers and load generators.

CPython's cyclic collector scans every tracked object of the oldest generation in one go. A
card room with thousands of open sockets holds hundreds of thousands of long-lived objects
(each socket's coroutines, tasks, buffers), and a full collection of them pauses the server
every few seconds, long enough to stand every table still and to dominate its tail latency
(bench/bench_cluster.py, docs/benchmarks.md). The remedy (Instagram's, for the same
reason): move what has survived into the permanent generation (``gc.freeze``), which
collections skip, so routine collections scan only recent objects; and once in a while
(``every`` seconds) thaw everything and collect it all, so that cycles among old objects (the
tasks of a closed socket) are still reclaimed: one pause per interval instead of one every few
seconds.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time

log = logging.getLogger(__name__)

#: Young objects per collection: a busy server allocates many short-lived messages.
THRESHOLDS = (50_000, 20, 100)


async def keep_pauses_short(every: float = 300.0) -> None:
    """Run for the life of the process (as a task): freeze now, then a full collection and a
    fresh freeze every ``every`` seconds."""
    gc.set_threshold(*THRESHOLDS)
    gc.freeze()
    while True:
        await asyncio.sleep(every)
        t0 = time.perf_counter()
        gc.unfreeze()
        found = gc.collect()
        gc.freeze()
        log.info("full garbage collection: %d objects freed in %.0f ms", found, 1000 * (time.perf_counter() - t0))
