"""A virtual clock for the tables' timers (:class:`syndicate.room.live.clocks.TimeSource`): its time
moves only when the test moves it, so a turn clock of 30 s runs out in no time and exactly when
the test says, never a little early or late on a busy machine."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import threading
from collections.abc import Callable


class VirtualTimer:
    def __init__(self, when: float, callback: Callable[[], object]) -> None:
        self.when = when
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class VirtualClock:
    """``Timers(source=VirtualClock())``: the clocks of every table that has them. Call
    :meth:`advance` on the event loop the tables run on (their timers' callbacks put commands
    on the tables' queues)."""

    def __init__(self, start: float = 1_000.0) -> None:
        self.now = start
        self._timers: list[tuple[float, int, VirtualTimer]] = []
        self._order = itertools.count()

    def time(self) -> float:
        return self.now

    def call_at(self, when: float, callback: Callable[[], object]) -> VirtualTimer:
        timer = VirtualTimer(when, callback)
        heapq.heappush(self._timers, (when, next(self._order), timer))
        return timer

    @property
    def pending(self) -> list[float]:
        """When the timers still set come due, soonest first."""
        return sorted(w for w, _, t in self._timers if not t.cancelled)

    def advance(self, seconds: float) -> int:
        """Move the time on by ``seconds``, running every timer that comes due meanwhile at its
        own time, in order (a timer set by one of them runs too if it is due). How many ran."""
        end = self.now + seconds
        ran = 0
        while self._timers and self._timers[0][0] <= end:
            when, _, timer = heapq.heappop(self._timers)
            if timer.cancelled:
                continue
            self.now = max(self.now, when)
            timer.callback()
            ran += 1
        self.now = end
        return ran


class SkippedTimer:
    def __init__(self, when: float, callback: Callable[[], object]) -> None:
        self.when = when
        self.callback = callback
        self.handle: asyncio.TimerHandle | None = None

    def cancel(self) -> None:
        if self.handle is not None:
            self.handle.cancel()


class SkippingClock:
    """The event loop's own time, plus the seconds a test skipped: for a server in a thread that
    the test drives from outside (a browser test), where a turn clock must run out now, not after
    its 15 real seconds, while everything else (an auto-deal window, a reconnect) keeps real time.
    :meth:`skip` may be called from any thread."""

    def __init__(self) -> None:
        self.skipped = 0.0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._timers: set[SkippedTimer] = set()

    def time(self) -> float:
        return asyncio.get_running_loop().time() + self.skipped

    def call_at(self, when: float, callback: Callable[[], object]) -> SkippedTimer:
        self._loop = asyncio.get_running_loop()
        timer = SkippedTimer(when, callback)
        self._timers.add(timer)
        self._set(timer)
        return timer

    def _set(self, timer: SkippedTimer) -> None:
        def fire() -> None:
            self._timers.discard(timer)
            timer.callback()

        assert self._loop is not None
        timer.handle = self._loop.call_at(timer.when - self.skipped, fire)

    def skip(self, seconds: float) -> None:
        """Move the time on by ``seconds`` now: the timers that come due run at once, in order."""
        if self._loop is None:
            self.skipped += seconds
            return
        done = threading.Event()

        def move() -> None:
            self.skipped += seconds
            for timer in sorted(self._timers, key=lambda t: t.when):
                if timer.handle is None or timer.handle.cancelled():
                    self._timers.discard(timer)
                else:
                    timer.handle.cancel()
                    self._set(timer)
            done.set()

        self._loop.call_soon_threadsafe(move)
        assert done.wait(10), "the server's event loop did not run the skip"
