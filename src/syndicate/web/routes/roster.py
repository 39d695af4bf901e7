"""The roster of authorized dealers: public by pit boss, with its changes; a pit boss or the
admin authorizes and revokes ("Unauthorized games are prohibited")."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import Field

from ..auth import Me
from ..schemas import Body, Id, Name
from ..state import Live, Room

router = APIRouter()


class Authorize(Body):
    dealer: Name
    pit_boss: Name | None = None


class Revoke(Body):
    dealer: Name
    hand_over_to: Name | None = Field(
        default=None, description="another authorized dealer who takes over the revoked dealer's tables "
                                  "(without it they close once the round in play is over)")


@router.get("/api/events/{event_id}/roster", tags=["roster"])
def roster(event_id: Id, room: Room) -> dict[str, Any]:
    """The authorized dealers by pit boss: public, like the notice."""
    return room.roster.public(room.accounts.event(event_id).id)


@router.get("/api/events/{event_id}/roster/changes", tags=["roster"])
def roster_changes(event_id: Id, room: Room) -> list[dict[str, Any]]:
    return [
        {"dealer": c.dealer, "pit_boss": c.pit_boss, "action": c.action, "by": c.by, "at": c.at.isoformat()}
        for c in room.roster.changes(room.accounts.event(event_id).id)
    ]


@router.post("/api/roster/authorize", tags=["roster"])
def authorize(account: Me, body: Authorize, room: Room) -> dict[str, Any]:
    e = room.roster.authorize(account, body.dealer, body.pit_boss)
    return {"dealer": e.dealer, "pit_boss": e.pit_boss, "active": e.active}


@router.post("/api/roster/revoke", tags=["roster"])
def revoke(account: Me, body: Revoke, room: Room, live: Live) -> dict[str, Any]:
    done = room.roster.revoke(account, body.dealer, body.hand_over_to)
    live.refresh()  # their live tables finish the round in play, then close (or carry on under the heir)
    for table_id in done.closed:  # as any close: a table with no runner reveals its seeds now
        live.closed(table_id)
    e = done.entry
    return {"dealer": e.dealer, "pit_boss": e.pit_boss, "active": e.active}
