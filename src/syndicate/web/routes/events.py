"""Events: the list, the deployment's current event, a new event with its first admin, its
settings, and its end (docs/server.md)."""

from __future__ import annotations

import logging
from typing import Annotated, Any, Literal

from fastapi import APIRouter
from pydantic import Field, StrictBool, StrictInt

from ...core import money
from ...room.errors import BadRequest, Forbidden
from ...room.live.clocks import MAX_TURN, MIN_TURN
from ...room.roles import require
from ...room.shifts import MAX_MINUTES
from ..auth import Me
from ..schemas import Body, Id, Name, NewPassword
from ..state import Deployment, Live, Room

log = logging.getLogger(__name__)
router = APIRouter()

SeedReveal = Literal["table_close", "event_end"]


class NewEventAdmin(Body):
    name: Name
    password: NewPassword


class NewEvent(Body):
    name: Name
    admin: NewEventAdmin = Field(description="the event's first admin account")
    seed_reveal: SeedReveal = Field(
        default="table_close",
        description="when the shoes' seeds are revealed (docs/fairness.md): at each table's close, or "
                    "only when the event ends")


class TurnClockDefaults(Body):
    real: StrictInt | None = Field(default=None, description=f"whole seconds ({MIN_TURN} to {MAX_TURN}), or null "
                                   "for none (the room's default)")
    shuffled: StrictInt | None = Field(default=None, description=f"whole seconds ({MIN_TURN} to {MAX_TURN}), or "
                                       "null for none (the room's default: 30 s)")


class EventSettings(Body):
    seed_reveal: SeedReveal | None = Field(default=None, description="fixed once a table of the event has dealt "
                                           "a hand")
    turn_clock: TurnClockDefaults | None = Field(
        default=None, description="the turn clock of the tables opened from now on, by their cards: whichever is "
        "given (docs/server.md)")
    sale_limit: Annotated[StrictInt, Field(ge=1, le=money.MAX_CENTS)] | None = Field(
        default=None, description="cents: a walk-in's chip sale above it waits for a pit boss's or the admin's "
                                  "approval; null: no limit (docs/walk-ins.md)")
    play_money: StrictBool | None = Field(
        default=None, description="true: chips have no cash value (nothing pays them out as money; they count for "
                                  "the prize draws); fixed once a table has dealt (docs/charity-night.md)")
    prize_cap: Annotated[StrictInt, Field(ge=0, le=money.MAX_CENTS)] | None = Field(
        default=None, description="cents: the most all the event's prizes may be worth together; null: no cap")
    shift_minutes: Annotated[StrictInt, Field(ge=1, le=MAX_MINUTES)] | None = Field(
        default=None, description="the dealers' rotation: minutes a dealer deals before a break (docs/dealer.md)")
    break_minutes: Annotated[StrictInt, Field(ge=1, le=MAX_MINUTES)] | None = Field(
        default=None, description="the dealers' rotation: minutes a break lasts")


@router.get("/api/events", tags=["sign-in"])
def events(room: Room, settings: Deployment) -> list[dict[str, Any]]:
    """Every event: its name, when its seeds are revealed and, once ended, when and by whom;
    ``current`` marks the one the deployment names (the pages open it)."""
    evs = room.accounts.events()
    cur = room.accounts.current_event(settings.current_event).id if evs else None
    return [{**e.to_json(), "current": e.id == cur} for e in evs]


@router.get("/api/events/current", tags=["sign-in"])
def the_event(room: Room, settings: Deployment) -> dict[str, Any]:
    """The event the deployment names as current (``syndicate serve --event``), not the
    newest: an admin who creates another event does not take over the pages. ``ended_at`` is
    set once it has ended (the pages then tell players to see the cashier)."""
    e = room.accounts.current_event(settings.current_event)
    return {"id": e.id, "name": e.name, "ended_at": e.ended_at.isoformat() if e.ended_at else None,
            "play_money": e.play_money, "door": dict(e.door) or None}


@router.post("/api/events", tags=["sign-in"], status_code=201)
def create_event(account: Me, body: NewEvent, room: Room, settings: Deployment) -> dict[str, Any]:
    """A new event with its first admin account: only an admin of the deployment's current
    event (rule ``create_event``), so the admin of an event created here cannot create more.
    Event names are unique (409, rule ``event_name``). A new event never becomes current."""
    require(account.role, "create_event")
    if account.event_id != room.accounts.current_event(settings.current_event).id:
        raise Forbidden("create_event", "only an admin of the current event creates events")
    ev, admin = room.accounts.open_event(account, body.name, body.admin.name, body.admin.password,
                                         body.seed_reveal)
    return {**ev.to_json(), "created_at": ev.created_at.isoformat(), "admin": admin.to_json()}


@router.patch("/api/events/{event_id}", tags=["sign-in"])
def event_settings(account: Me, event_id: Id, body: EventSettings, room: Room) -> dict[str, Any]:
    """Change the event's settings (its admin only): when its seeds are revealed, refused once
    a table of the event has dealt a hand (409, rule ``seed_reveal_fixed``); the turn clock of
    the tables opened from now on; the limit on a walk-in's chip sale (``null``: none); whether
    chips have a cash value (``play_money``, fixed once a hand was dealt: ``play_money_fixed``);
    the cap on the prizes' value (``null``: none); the dealers' rotation (``shift_minutes``,
    ``break_minutes``: docs/dealer.md). Refused once the event ended (``event_ended``)."""
    given = body.model_fields_set
    if not given & {"seed_reveal", "turn_clock", "sale_limit", "play_money", "prize_cap", "shift_minutes",
                    "break_minutes"}:
        raise BadRequest("settings", "say what to change: seed_reveal, turn_clock, sale_limit, play_money, "
                                     "prize_cap, shift_minutes, break_minutes (any of them)")
    ev = None
    if "seed_reveal" in given:
        if body.seed_reveal is None:
            raise BadRequest("seed_reveal", "seed_reveal is table_close or event_end")
        ev = room.events.set_seed_reveal(account, event_id, body.seed_reveal)
    if body.turn_clock is not None:
        defaults = body.turn_clock.model_dump(include=body.turn_clock.model_fields_set)
        ev = room.events.set_turn_clock(account, event_id, defaults)
    if "sale_limit" in given:
        ev = room.events.set_sale_limit(account, event_id, body.sale_limit)
    if "play_money" in given:
        ev = room.events.set_play_money(account, event_id, body.play_money)
    if "prize_cap" in given:
        ev = room.events.set_prize_cap(account, event_id, body.prize_cap)
    if body.shift_minutes is not None or body.break_minutes is not None:
        ev = room.events.set_shift_lengths(account, event_id, body.shift_minutes, body.break_minutes)
    if ev is None:
        raise BadRequest("turn_clock", "turn_clock is an object: {\"real\": seconds or null, \"shuffled\": ...}")
    return ev.to_json()


@router.post("/api/events/{event_id}/end", tags=["sign-in"])
def end_event(account: Me, event_id: Id, room: Room, live: Live) -> dict[str, Any]:
    """End the event (its admin only): every table closes after its hand in play, no table
    opens and no hand starts; sign-in still works for cashing out. With ``seed_reveal`` at
    ``event_end`` every seed of the event is revealed now. Once only (409, rule
    ``event_ended``)."""
    ev, table_ids = room.events.end(account, event_id)
    live.event_ended(table_ids)
    log.info("event %s ended by account %s; %s table(s) closed", event_id, account.id, len(table_ids))
    return ev.to_json()
