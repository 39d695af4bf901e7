"""syndicate.web.gcpause, in a process of its own (it freezes the whole heap)."""

from __future__ import annotations

import subprocess
import sys

PROGRAM = r'''
import asyncio, gc, weakref
from syndicate.web.gcpause import THRESHOLDS, keep_pauses_short

class Node:
    pass

async def main():
    task = asyncio.create_task(keep_pauses_short(every=0.2))
    await asyncio.sleep(0.05)
    assert gc.get_threshold() == THRESHOLDS
    frozen = gc.get_freeze_count()
    assert frozen > 1000, frozen  # what had survived start-up is out of routine collections
    a, b = Node(), Node()
    a.other, b.other = b, a  # a cycle that only the cyclic collector can free
    gone = weakref.ref(a)
    await asyncio.sleep(0.05)
    gc.freeze()  # as if it had lived long: routine collections no longer see it
    del a, b
    gc.collect()
    assert gone() is not None  # frozen: a routine (or even a full) collection skips it
    await asyncio.sleep(0.3)  # the periodic thaw-and-collect
    assert gone() is None
    task.cancel()
    print("ok")

asyncio.run(main())
'''


def test_frozen_cycles_are_still_freed_by_the_periodic_full_collection() -> None:
    out = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
