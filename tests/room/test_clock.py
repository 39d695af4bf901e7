"""The turn clock: one timer serves turn after turn (clock.py), and a turn's end fires once, at
the end of the turn that is running, never at the end of one that was replaced or stopped."""

from __future__ import annotations

import asyncio

from syndicate.room.clock import Clock, Timers


def _run(body):  # type: ignore[no-untyped-def]
    return asyncio.run(body())


def test_a_new_turn_moves_the_deadline_and_the_old_turns_end_never_fires() -> None:
    async def body() -> tuple[list[tuple[str, float]], bool, float]:
        loop = asyncio.get_running_loop()
        clock = Clock(Timers(turn=0.3))
        fired: list[tuple[str, float]] = []
        t0 = loop.time()
        clock.start_turn(lambda: fired.append(("first", loop.time() - t0)))
        first_timer = clock._turn
        await asyncio.sleep(0.2)
        clock.start_turn(lambda: fired.append(("second", loop.time() - t0)))
        same = clock._turn is first_timer  # no timer cancelled and made again
        view = clock.view(3)
        assert view is not None
        await asyncio.sleep(0.5)
        return fired, same, view["left"]

    fired, same, left = _run(body)
    assert same
    assert left >= 0.2  # the clock a client sees is the new turn's (the first had 0.1 s left)
    assert [name for name, _ in fired] == ["second"]
    assert fired[0][1] >= 0.5 - 0.002  # 0.2 s into the first turn, then a whole turn


def test_a_stopped_turn_does_not_fire_and_the_next_turn_runs_its_full_time() -> None:
    async def body() -> list[float]:
        loop = asyncio.get_running_loop()
        clock = Clock(Timers(turn=0.1))
        fired: list[float] = []
        clock.start_turn(lambda: fired.append(-1.0))
        clock.stop_turn()
        assert clock.view(2) is None
        await asyncio.sleep(0.2)  # the first turn's timer comes due and does nothing
        t1 = loop.time()
        clock.start_turn(lambda: fired.append(loop.time() - t1))
        await asyncio.sleep(0.25)
        clock.start_turn(lambda: fired.append(-2.0))
        clock.stop()  # the table stops: nothing is left to come due
        assert clock._turn is None
        await asyncio.sleep(0.15)
        return fired

    fired = _run(body)
    assert len(fired) == 1 and fired[0] >= 0.1 - 0.002


def test_no_turn_clock_when_it_is_off() -> None:
    async def body() -> tuple[list[int], object]:
        clock = Clock(Timers(turn=None))
        fired: list[int] = []
        clock.start_turn(lambda: fired.append(1))
        await asyncio.sleep(0.05)
        return fired, clock.view(1)

    assert _run(body) == ([], None)
