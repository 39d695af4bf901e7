"""The dealers' shifts (docs/dealer.md, "Shifts, breaks and handovers"): a dealer clocks in and
out and takes breaks; the admin and the pit bosses see who is on the floor, where and for how
long, and the rotation the room proposes; the rotation alone is public, for the room's big
screen. Handing a table over is the table's ``hand_over`` action, over its socket
(docs/protocol.md), so that it happens between hands."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ..auth import Me
from ..schemas import Id
from ..state import Deployment, Room

router = APIRouter()

@router.get("/api/shifts/me", tags=["shifts"])
def mine(account: Me, room: Room) -> dict[str, Any]:
    """The signed-in dealer's shift: ``state`` (``dealing``, ``waiting``, ``on_break``,
    ``clocked_out``) since when, the tables they deal, the seconds dealt tonight, and ``free``:
    the dealers on the floor with no table, who may take one from them."""
    return room.shifts.mine(account)


@router.post("/api/shifts/clock-in", tags=["shifts"])
def clock_in(account: Me, room: Room) -> dict[str, Any]:
    """Clock in: an authorized dealer (or a pit boss who deals), once (409 ``clocked_in``)."""
    return room.shifts.clock_in(account)


@router.post("/api/shifts/clock-out", tags=["shifts"])
def clock_out(account: Me, room: Room) -> dict[str, Any]:
    """Clock out (409 ``holds_table`` while dealing a table: hand it over or close it first)."""
    return room.shifts.clock_out(account)


@router.post("/api/shifts/break", tags=["shifts"])
def take_break(account: Me, room: Room) -> dict[str, Any]:
    """Go on a break from the floor (a dealer at a table hands it over instead: 409
    ``holds_table``)."""
    return room.shifts.take_break(account)


@router.post("/api/shifts/back", tags=["shifts"])
def come_back(account: Me, room: Room) -> dict[str, Any]:
    """Back from a break, on the floor and free to take a table (409 ``not_on_break``)."""
    return room.shifts.come_back(account)


@router.get("/api/shifts", tags=["shifts"])
def floor(account: Me, room: Room) -> dict[str, Any]:
    """Every authorized dealer with an account: their state, since when and for how many
    seconds, their tables, the seconds dealt tonight; the shift and break lengths; and ``next``,
    the rotation (as ``/api/shifts/plan``). Admin and pit bosses."""
    return room.shifts.floor(account)


@router.get("/api/shifts/plan", tags=["shifts"])
def current_plan(room: Room, settings: Deployment) -> dict[str, Any]:
    """The rotation the room proposes at the current event, for its big screen (public: the
    dealers' and tables' names and times only): ``{"at", "next": [{"table",
    "dealer_out", "dealer_in", "at"}]}``, soonest first, each table once."""
    return room.shifts.public_plan(room.accounts.current_event(settings.current_event).id)


@router.get("/api/events/{event_id}/shifts/plan", tags=["shifts"])
def event_plan(event_id: Id, room: Room) -> dict[str, Any]:
    """The rotation of one event (as ``/api/shifts/plan``)."""
    return room.shifts.public_plan(room.accounts.event(event_id).id)
