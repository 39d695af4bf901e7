"""A live table's clocks: the turn clock of the player to act, and the auto-deal window.

Neither changes the table itself: when one runs out it puts a command on the table's queue
(``fire``), so what it triggers is applied in order with everything else (what the table then
does: :mod:`.timeouts`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol

from ..errors import BadRequest
from ..values import Table

MAX_AUTO_SECONDS = 600
#: The turn clock a dealer or an admin may set, in whole seconds (or none).
MIN_TURN, MAX_TURN = 5, 600
#: a timer may come due this much before its time (the event loop's clock resolution): the
#: turn's end, not a turn started since
DUE_EARLY = 0.001


class Timer(Protocol):
    def cancel(self) -> None: ...


class TimeSource(Protocol):
    """Where the clocks read the time and set their timers: the running event loop (its
    ``time`` and ``call_at``), or a test's virtual clock, which runs in no time."""

    def time(self) -> float: ...

    def call_at(self, when: float, callback: Callable[[], object]) -> Timer: ...


@dataclass
class Timers:
    """Seconds; ``None`` switches a timer off. The server's defaults: a table's own turn clock
    (its dealer's, or its event's default: :meth:`syndicate.room.values.Table.turn_clock`)
    comes first."""

    #: The turn clock of a table with shuffled cards.
    turn: float | None = 30.0
    #: After this many timeouts in a row a player sits out (their seat is left out of rounds).
    sit_out_after: int = 3
    #: The turn clock of a real-cards table: none (the dealer enters decisions for walk-ins;
    #: a clock would decide for them).
    real_turn: float | None = None
    #: Where the clocks read the time (``None``: the running event loop).
    source: TimeSource | None = None


def table_timers(table: Table, timers: Timers) -> Timers:
    """The timers of one table: the server's, with the table's own turn clock if it has one (a
    copy: a table may change its clock without touching another's)."""
    default = timers.real_turn if table.cards == "real" else timers.turn
    return replace(timers, turn=table.turn_clock(default))


def check_turn_clock(seconds: Any) -> int | None:
    """A turn clock as a dealer or an admin sets it: whole seconds, or None for no clock."""
    if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, int)
                                or not MIN_TURN <= seconds <= MAX_TURN):
        raise BadRequest("turn_clock", f"the turn clock is a number of seconds from {MIN_TURN} to {MAX_TURN}, "
                                       f"or null for no clock; got {seconds!r}")
    return seconds


def check_window(seconds: Any) -> float | None:
    """An auto-deal betting window as the dealer sent it: seconds, or None to stop."""
    if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
                                or not 0 < seconds <= MAX_AUTO_SECONDS):
        raise BadRequest("seconds", f"seconds is a betting window from 0 to {MAX_AUTO_SECONDS}, or null to stop")
    return seconds


class Clock:
    def __init__(self, timers: Timers) -> None:
        self.timers = timers
        self._turn: Timer | None = None
        self._deadline: float | None = None  # the source's time when the turn clock runs out
        self._fire: Callable[[], None] | None = None  # what the turn's end does
        self._auto: Timer | None = None
        #: the betting window when rounds run themselves (``None``: the dealer deals)
        self.auto_seconds: float | None = None

    def _source(self) -> TimeSource:
        return self.timers.source or asyncio.get_running_loop()

    # -- the turn clock ------------------------------------------------------------------------
    def start_turn(self, fire: Callable[[], None]) -> None:
        """A player is to act: ``fire`` when their time is up (unless the clock is off).

        One timer serves turn after turn: a turn that starts while it is set moves the deadline
        only, and when the timer comes due before the deadline it is set again for what is left.
        A busy table starts a turn on nearly every change, and a timer cancelled and made anew
        each time costs several times more (docs/benchmarks.md)."""
        if self.timers.turn is None:
            self.stop_turn()
            return
        source = self._source()
        self._deadline = source.time() + self.timers.turn
        self._fire = fire
        if self._turn is None:
            self._turn = source.call_at(self._deadline, self._turn_due)

    def _turn_due(self) -> None:
        self._turn = None
        if self._deadline is None or self._fire is None:  # stopped since
            return
        source = self._source()
        if source.time() < self._deadline - DUE_EARLY:  # a later turn began: wait for its end
            self._turn = source.call_at(self._deadline, self._turn_due)
            return
        fire, self._fire, self._deadline = self._fire, None, None
        fire()

    def stop_turn(self) -> None:
        """No turn runs. A timer still set is left to come due and do nothing (or serve the
        next turn): see :meth:`start_turn`; :meth:`stop` cancels it."""
        self._deadline = None
        self._fire = None

    def view(self, seat: int | None) -> dict[str, Any] | None:
        """The turn clock of ``seat`` (the player to act) as a client shows it: whose turn, its
        length and the seconds left."""
        if self._deadline is None or seat is None:
            return None
        left = max(0.0, self._deadline - self._source().time())
        return {"seat": seat, "seconds": self.timers.turn, "left": round(left, 1)}

    # -- the auto-deal window ---------------------------------------------------------------------
    def set_auto(self, seconds: float | None, fire: Callable[[], None]) -> None:
        """Rounds run themselves with a betting window of ``seconds`` (None stops that); the
        first window opens at once."""
        self.auto_seconds = seconds
        self.stop_auto()
        if seconds is not None:
            self.arm_auto(fire, 0)

    def arm_auto(self, fire: Callable[[], None], delay: float | None = None) -> None:
        if self.auto_seconds is None:
            return
        self.stop_auto()
        source = self._source()
        self._auto = source.call_at(source.time() + (self.auto_seconds if delay is None else delay), fire)

    def auto_fired(self) -> None:
        self._auto = None

    def stop_auto(self) -> None:
        if self._auto is not None:
            self._auto.cancel()
            self._auto = None

    def stop(self) -> None:
        self.stop_turn()
        if self._turn is not None:
            self._turn.cancel()
            self._turn = None
        self.stop_auto()
