"""What a live table does when one of its clocks runs out, and the dealer's settings of them:
the player to act timed out (the passive move made for them, sitting out after too many in a
row), the auto-deal window closed (the next round dealt). Each function is a step of the
table's actor, run from its queue; the clocks themselves are :mod:`.clocks`.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

from ..errors import RoomError
from ..values import CLOCK_KEY
from . import seats, views
from .clocks import check_turn_clock, check_window

if TYPE_CHECKING:
    from .actor import TableActor


def awaited(actor: TableActor) -> tuple[int, int]:
    """Which decision the table waits for: the hand and the length of its log. Unlike the
    version, it does not move when someone sits down or a status changes, so those do not
    cancel the clock of the player to act."""
    return (actor.hand_number, actor.game.turn())


def arm_turn_timer(actor: TableActor) -> None:
    # No player's clock runs while the hand waits for the dealer's card.
    seat = actor.game.to_act if actor.game.in_play and actor.game.card_needed is None else None
    if seat is None:
        actor.clock.stop_turn()
        return
    ran_out = partial(actor.post, "timeout", {"turn": awaited(actor)})
    s = actor.seats.get(seat)
    if s is not None and s.leaving:  # they left: their move is made at once
        actor.clock.stop_turn()
        ran_out()
        return
    actor.clock.start_turn(ran_out)


async def timeout(actor: TableActor, turn: tuple[int, int]) -> None:
    """The player to act let the clock run out: the passive choice is made for them (stand,
    no insurance, no surrender; check, stand pat, fold), the history marks it as the clock's
    (an ``entered_by`` entry with ``"clock"``: its length) and the player and the dealer are
    told in words. After ``sit_out_after`` in a row they sit out. A player who left has their
    move made the same way, at once."""
    seat = actor.game.to_act if actor.game.in_play else None
    if turn != awaited(actor) or seat is None:
        return
    s = actor.seats[seat]
    if s.leaving:
        await seats.leaver_moves(actor, seat)
    else:
        at = actor.game.turn()
        choice = actor.game.timeout_move(seat)
        s.timeouts += 1
        if s.timeouts >= actor.clock.timers.sit_out_after:
            s.sitting_out = True
        actor.entered.append({"at": at, "by": None, "name": None, "for_seat": seat,
                              "clock": actor.clock.timers.turn})
        await actor.after(f"seat {seat} timed out: {choice}")
        views.tell_timeout(actor, seat, s, choice)
    views.broadcast(actor)
    actor.wake_bots()


async def set_turn_clock(actor: TableActor, seconds: Any) -> bool:
    """The dealer sets the table's turn clock (seconds, or None for none), kept with the table;
    the player to act, if any, gets the new clock at once."""
    seconds = check_turn_clock(seconds)
    rules = {**actor.table.rules, CLOCK_KEY: seconds}
    await actor.db(lambda repo: repo.set_table_rules(actor.table.id, rules))
    actor.table = replace(actor.table, rules=rules)
    actor.clock.timers.turn = seconds
    if actor.game.in_play:
        arm_turn_timer(actor)
    actor.version += 1
    return True


def set_auto(actor: TableActor, seconds: Any) -> bool:
    """The dealer lets rounds run themselves: a new round opens whenever the last one is
    over, and is dealt ``seconds`` later if anyone bet. ``None`` stops it."""
    actor.clock.set_auto(check_window(seconds), partial(auto_fire, actor))
    actor.version += 1
    return True


def auto_fire(actor: TableActor) -> None:
    actor.post("auto")


def arm_auto(actor: TableActor) -> None:
    actor.clock.arm_auto(partial(auto_fire, actor))


async def auto_step(actor: TableActor) -> None:
    actor.clock.auto_fired()
    if actor.clock.auto_seconds is None:
        return
    game = actor.game
    try:
        if not game.in_play:
            await actor.start_round()
        elif game.betting_window():
            if game.close_window():
                await actor.after("deal")
                if game.in_play:
                    views.broadcast(actor)
                    actor.wake_bots()
                    return  # the round plays on; the next one opens when it is over
        else:
            return
    except RoomError:
        pass  # nobody seated, or the table paused: look again after the next window
    views.broadcast(actor)
    actor.wake_bots()
    arm_auto(actor)
