"""The room's big screen (docs/screen.md): what it shows, in one public answer the page polls,
and the host's settings of it (the event's admin).

The screen polls rather than watching the tables' sockets: a socket needs a sign-in, which a
television in the room has none of; a socket serves the hand in play, which the screen must
never show; and everything the screen shows changes at a hand's end or when the host sets it,
so one small answer every few seconds is current enough and costs the room one read per screen
(the answer is made once a second at most, however many screens ask).
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Request
from pydantic import Field, StrictInt, StrictStr

from ...room.draws import on_screen
from ...room.ledger import now
from ..auth import Me
from ..pages import lobby
from ..schemas import Body, Id
from ..state import Room

router = APIRouter()

#: How long one answer serves every screen that asks (seconds).
FRESH = 1.0
#: Finished hands kept as served (a featured hand is served to every poll until the next one).
KEEP_HANDS = 8
#: What of a lobby's table the screen shows.
TABLE_KEYS = ("id", "name", "game", "status", "dealer", "summary", "seats", "free_seats", "min_bet", "max_bet",
              "playing")


class Countdown(Body):
    label: Annotated[StrictStr, Field(max_length=200, description="what the countdown is to (\"Tables close\")")]
    ends_at: datetime | None = Field(default=None, description="when it ends, with its UTC offset; or ...")
    minutes: StrictInt | None = Field(default=None, description="... how many minutes from now (1 to 1440)")


class Featured(Body):
    table: Annotated[StrictInt, Field(ge=1, le=2**31 - 1, description="an open table of the event")]
    delay: StrictInt = Field(description="hands: the screen shows a hand once this many more have started "
                                         "(1 to 20)")


class ScreenSettings(Body):
    announcements: Annotated[list[Annotated[StrictStr, Field(max_length=1000)]], Field(max_length=50)] | None = \
        Field(default=None, description="the host's announcements, in order (at most 6, each 1 to 160 characters)")
    countdown: Countdown | None = Field(default=None, description="null: no countdown")
    featured: Featured | None = Field(default=None, description="null: no featured table")


def _hands(request: Request) -> OrderedDict[int, dict[str, Any]]:
    state = request.app.state
    if not hasattr(state, "screen_hands"):
        state.screen_hands = OrderedDict()
        state.screen_answers = {}
    hands: OrderedDict[int, dict[str, Any]] = state.screen_hands
    return hands


@router.patch("/api/events/{event_id}/screen", tags=["screen"])
def set_screen(account: Me, event_id: Id, body: ScreenSettings, room: Room, request: Request) -> dict[str, Any]:
    """Set what the big screen shows beside the tables and the leaderboard (the event's admin,
    rule ``run_screen``): any of ``announcements``, ``countdown`` (``null``: none) and
    ``featured`` (``null``: none); the others stay. Refused naming the rule: ``announcements``,
    ``countdown``, ``delay``, ``featured``, ``table`` (404: no such table in the event),
    ``table_status`` (409: a closed table)."""
    given = body.model_dump(include=body.model_fields_set, exclude_none=False)
    if body.countdown is not None:
        given["countdown"] = body.countdown.model_dump(include=body.countdown.model_fields_set)
    settings = room.screen.change(account, event_id, given)
    _hands(request)
    request.app.state.screen_answers.pop(event_id, None)  # the screens see it at their next poll
    return settings


@router.get("/api/events/{event_id}/screen", tags=["screen"])
async def screen(request: Request, event_id: Id) -> dict[str, Any]:
    """Everything the big screen shows (public, like the lobby): the open tables (their dealer,
    stakes and free seats; each one's join code is ``/tables/{id}/qr.svg``), the leaderboard,
    the host's announcements and countdown (with the seconds left by the server's clock), the
    featured table's hand ``delay`` hands back as a spectator may see it (never the hand in
    play), the prize draws with their winners by name, and the dealers' rotation (who takes over
    which table next, and when: `/api/shifts/plan`)."""
    hands = _hands(request)
    answers: dict[int, tuple[float, dict[str, Any]]] = request.app.state.screen_answers
    kept = answers.get(event_id)
    if kept is not None and time.monotonic() - kept[0] < FRESH:
        return kept[1]
    room = request.app.state.room
    tables = await lobby(request, event_id)

    def load() -> dict[str, Any]:
        ev = room.accounts.event(event_id)
        settings = room.screen.settings(ev.id)
        with room.store.transaction() as repo:
            names = {a.id: a.name for a in repo.accounts(ev.id)}
            draws = [on_screen(d, names) for d in repo.prize_draws(ev.id)]
        at = now()
        countdown = settings["countdown"]
        if countdown is not None:
            left = (datetime.fromisoformat(countdown["ends_at"]) - at).total_seconds()
            countdown = {**countdown, "seconds_left": max(0, round(left))}
        return {"event": {"id": ev.id, "name": ev.name, "ended": ev.ended_at is not None},
                "now": at.isoformat(), "announcements": settings["announcements"], "countdown": countdown,
                "featured": featured(settings["featured"], ev.id),
                "leaderboard": [s.to_json() for s in room.ledger.leaderboard(ev.id)], "draws": draws,
                "rotation": [{"name": f"{r['dealer_in']} takes over from {r['dealer_out']}", "table": r["table"],
                              "at": r["at"]} for r in room.shifts.public_plan(ev.id, at)["next"]]}

    def featured(chosen: dict[str, Any] | None, ev: int) -> dict[str, Any] | None:
        if chosen is None:
            return None
        with room.store.transaction() as repo:
            t = repo.table(chosen["table"])
        if t is None or t.event_id != ev or t.status == "closed":
            return None
        hand_id = room.screen.featured_hand_id(t.id, chosen["delay"])
        hand = None
        if hand_id is not None:  # served once, then kept: a finished hand does not change
            hand = hands.get(hand_id) or room.screen.hand(ev, hand_id)
            hands[hand_id] = hand
            hands.move_to_end(hand_id)
            while len(hands) > KEEP_HANDS:
                hands.popitem(last=False)
        return {"table": t.id, "name": t.name, "game": t.game, "delay": chosen["delay"], "hand": hand}

    out = await asyncio.to_thread(load)
    out["tables"] = [{k: t.get(k) for k in TABLE_KEYS} for t in tables]
    answers[event_id] = (time.monotonic(), out)
    return out
