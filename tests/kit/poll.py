"""The one way a test waits for something that happens on its own time (a server that starts, a
write that lands after its broadcast, a log line): look again every ``every`` seconds until it
holds, and fail naming ``what`` once ``timeout`` has passed. Never a fixed sleep. The timeout is
a bound on a broken run, not a time any test depends on: the thing waited for normally comes in
milliseconds.

``until`` for plain tests (and threads), ``until_async`` inside a coroutine (it lets the event
loop run while it waits). Both return the predicate's first true value. A predicate may raise
one of ``retry_on`` (say, the connection refused of a server still starting): that counts as
not yet."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

#: Long enough for the slowest machine the suite runs on; a run that waits this long has failed.
TIMEOUT = 30.0


class _Look:
    """One wait's deadline and its failure message."""

    def __init__(self, predicate: Callable[[], T], timeout: float, what: str,
                 retry_on: tuple[type[BaseException], ...]) -> None:
        self.predicate = predicate
        self.deadline = time.monotonic() + timeout
        self.timeout = timeout
        self.what = what or getattr(predicate, "__name__", repr(predicate))
        self.retry_on = retry_on
        self.last: BaseException | None = None

    def look(self) -> Any:
        try:
            return self.predicate()
        except self.retry_on as e:
            self.last = e
            return None

    def check_deadline(self) -> None:
        if time.monotonic() > self.deadline:
            why = f" (last: {self.last!r})" if self.last is not None else ""
            raise AssertionError(f"timed out after {self.timeout:g} s waiting for {self.what}{why}")


def until(predicate: Callable[[], T], *, timeout: float = TIMEOUT, what: str = "", every: float = 0.02,
          retry_on: tuple[type[BaseException], ...] = ()) -> T:
    """Wait, blocking, until ``predicate()`` is true; its value."""
    look = _Look(predicate, timeout, what, retry_on)
    while not (value := look.look()):
        look.check_deadline()
        time.sleep(every)
    return value


async def until_async(predicate: Callable[[], T], *, timeout: float = TIMEOUT, what: str = "",
                      every: float = 0.02, retry_on: tuple[type[BaseException], ...] = (),
                      watch: asyncio.Task[Any] | None = None) -> T:
    """Wait, in a coroutine, until ``predicate()`` is true; its value. ``watch``: a background
    task whose end (its failure, or its return) fails the wait at once."""
    look = _Look(predicate, timeout, what, retry_on)
    while not (value := look.look()):
        if watch is not None and watch.done():
            watch.result()  # its exception, if any
            raise AssertionError(f"{watch.get_name()} ended while waiting for {look.what}")
        look.check_deadline()
        await asyncio.sleep(every)
    return value
