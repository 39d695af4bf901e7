"""A virtual clock for the tables' timers (:class:`syndicate.room.live.clocks.TimeSource`): its time
moves only when the test moves it, so a turn clock of 30 s runs out in no time and exactly when
the test says, never a little early or late on a busy machine."""

from __future__ import annotations

import heapq
import itertools
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
