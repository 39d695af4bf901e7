"""The turn clock: one timer serves turn after turn (clock.py), and a turn's end fires once, at
the end of the turn that is running, never at the end of one that was replaced or stopped.
On a virtual clock (tests/kit/clock.py): the times are exact, and nothing sleeps."""

from __future__ import annotations

import asyncio

from syndicate.room.live.clocks import Clock, Timers
from tests.kit.clock import VirtualClock
from tests.kit.poll import until_async


def test_a_new_turn_moves_the_deadline_and_the_old_turns_end_never_fires() -> None:
    time = VirtualClock()
    clock = Clock(Timers(turn=0.3, source=time))
    fired: list[tuple[str, float]] = []
    t0 = time.time()
    clock.start_turn(lambda: fired.append(("first", time.time() - t0)))
    first_timer = clock._turn
    time.advance(0.2)
    clock.start_turn(lambda: fired.append(("second", time.time() - t0)))
    assert clock._turn is first_timer  # no timer cancelled and made again
    view = clock.view(3)
    assert view is not None
    time.advance(0.5)
    assert view["left"] >= 0.2  # the clock a client sees is the new turn's (the first had 0.1 s left)
    assert view == {"seat": 3, "seconds": 0.3, "left": 0.3}
    assert [name for name, _ in fired] == ["second"]
    assert fired[0][1] >= 0.5 - 0.002  # 0.2 s into the first turn, then a whole turn
    assert abs(fired[0][1] - 0.5) < 1e-9


def test_a_stopped_turn_does_not_fire_and_the_next_turn_runs_its_full_time() -> None:
    time = VirtualClock()
    clock = Clock(Timers(turn=0.1, source=time))
    fired: list[float] = []
    clock.start_turn(lambda: fired.append(-1.0))
    clock.stop_turn()
    assert clock.view(2) is None
    time.advance(0.2)  # the first turn's timer comes due and does nothing
    t1 = time.time()
    clock.start_turn(lambda: fired.append(time.time() - t1))
    time.advance(0.25)
    clock.start_turn(lambda: fired.append(-2.0))
    clock.stop()  # the table stops: nothing is left to come due
    assert clock._turn is None and time.pending == []
    time.advance(0.15)
    assert len(fired) == 1 and fired[0] >= 0.1 - 0.002
    assert abs(fired[0] - 0.1) < 1e-9


def test_no_turn_clock_when_it_is_off() -> None:
    time = VirtualClock()
    clock = Clock(Timers(turn=None, source=time))
    fired: list[int] = []
    clock.start_turn(lambda: fired.append(1))
    time.advance(0.05)
    assert (fired, clock.view(1), time.pending) == ([], None, [])


def test_the_auto_deal_window_opens_at_once_then_after_each_window() -> None:
    time = VirtualClock()
    clock = Clock(Timers(source=time))
    opened: list[float] = []
    t0 = time.time()
    clock.set_auto(5, lambda: opened.append(time.time() - t0))
    time.advance(0)
    assert opened == [0]
    clock.auto_fired()
    clock.arm_auto(lambda: opened.append(time.time() - t0))
    time.advance(4.9)
    assert opened == [0]
    time.advance(0.1)
    assert opened == [0, 5]
    clock.set_auto(None, lambda: opened.append(-1))
    time.advance(60)
    assert opened == [0, 5] and time.pending == []


def test_without_a_source_the_clock_runs_on_the_event_loop() -> None:
    """The server's clocks: the running loop's time and timers (a short real turn, once)."""
    async def body() -> list[float]:
        loop = asyncio.get_running_loop()
        clock = Clock(Timers(turn=0.05))
        fired: list[float] = []
        t0 = loop.time()
        clock.start_turn(lambda: fired.append(loop.time() - t0))
        view = clock.view(1)
        assert view is not None and view["seconds"] == 0.05
        await until_async(lambda: fired, what="the turn's end")
        return fired

    (elapsed,) = asyncio.run(body())
    assert elapsed >= 0.05 - 0.002
