"""The room's big screen (docs/screen.md): what the host puts on it beside the tables and the
leaderboard, and the featured table's hand it may show.

The host sets three things (``run_screen``, the event's admin): announcements, a countdown to a
moment ("Tables close", "Raffle"), and a featured table with a delay. The screen is public, so
the featured table's hand it shows is one a spectator may have (the served copy of a finished
hand: no hole card never turned, no folded hand, no private card), and it is behind the table
by ``delay`` hands: hand *n* is shown only once hand *n + delay* has started, never the hand in
play, so the screen tells nobody at that table anything they could use.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any, Final

from .errors import BadRequest, Conflict, Forbidden, NotFound
from .histories import spectator_hand
from .ledger import now
from .ports import Store
from .roles import require
from .values import Account

#: The most announcements the screen shows at once, and the longest one.
MAX_ANNOUNCEMENTS: Final = 6
MAX_ANNOUNCEMENT: Final = 160
#: A countdown's label ("Tables close"), and how far ahead it may end.
MAX_LABEL: Final = 60
MAX_AHEAD: Final = timedelta(hours=24)
MINUTE: Final = timedelta(minutes=1)
#: The featured table's delay, in hands.
MIN_DELAY: Final = 1
MAX_DELAY: Final = 20
#: What a screen shows before its host set anything.
EMPTY: Final[dict[str, Any]] = {"announcements": [], "countdown": None, "featured": None}
KEYS: Final = tuple(EMPTY)


def check_announcements(value: object) -> list[str]:
    if not isinstance(value, list | tuple) or len(value) > MAX_ANNOUNCEMENTS:
        raise BadRequest("announcements", f"announcements are a list of at most {MAX_ANNOUNCEMENTS} texts")
    out = []
    for i, text in enumerate(value, 1):
        if not isinstance(text, str) or not text.strip() or len(text.strip()) > MAX_ANNOUNCEMENT:
            raise BadRequest("announcements", f"announcement {i} is a text of 1 to {MAX_ANNOUNCEMENT} characters")
        out.append(" ".join(text.split()))
    return out


def check_countdown(value: object, at: datetime) -> dict[str, str] | None:
    """``{"label", "ends_at"}`` (an aware datetime, or its ISO text) or ``{"label", "minutes"}``
    (from ``at``), ending after ``at`` and within a day of it; or None for no countdown."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise BadRequest("countdown", "a countdown is {\"label\": text, \"ends_at\": a time}, or null for none")
    label, ends, minutes = value.get("label"), value.get("ends_at"), value.get("minutes")
    if minutes is not None:  # "in 15 minutes", by the server's clock, which the screen counts by
        if isinstance(minutes, bool) or not isinstance(minutes, int) or not 1 <= minutes <= MAX_AHEAD // MINUTE:
            raise BadRequest("countdown", f"a countdown's minutes are a whole number from 1 to {MAX_AHEAD // MINUTE}")
        if ends is not None:
            raise BadRequest("countdown", "a countdown has ends_at or minutes, not both")
        ends = at + minutes * MINUTE
    if not isinstance(label, str) or not label.strip() or len(label.strip()) > MAX_LABEL:
        raise BadRequest("countdown", f"a countdown's label is a text of 1 to {MAX_LABEL} characters "
                                      "(\"Tables close\", \"Raffle\")")
    if isinstance(ends, str):
        try:
            ends = datetime.fromisoformat(ends)
        except ValueError:
            ends = None
    if not isinstance(ends, datetime) or ends.tzinfo is None:
        raise BadRequest("countdown", "a countdown's ends_at is a time with its UTC offset, such as "
                                      "2026-12-07T22:00:00+01:00")
    if not at < ends <= at + MAX_AHEAD:
        raise BadRequest("countdown", "a countdown ends in the future and within 24 hours")
    return {"label": " ".join(label.split()), "ends_at": ends.astimezone(at.tzinfo).isoformat()}


def check_delay(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not MIN_DELAY <= value <= MAX_DELAY:
        raise BadRequest("delay", f"the featured table's delay is a whole number of hands from {MIN_DELAY} to "
                                  f"{MAX_DELAY}: the screen never shows the hand in play")
    return value


class Screen:
    def __init__(self, store: Store) -> None:
        self.store = store

    def settings(self, event_id: int) -> dict[str, Any]:
        """What the host set for the screen (:data:`EMPTY` until then)."""
        with self.store.transaction() as repo:
            return {**EMPTY, **(repo.screen(event_id) or {})}

    def change(self, actor: Account, event_id: int, changes: Mapping[str, Any]) -> dict[str, Any]:
        """Change what the host puts on the screen: any of ``announcements`` (texts),
        ``countdown`` (``{"label", "ends_at"}`` or None) and ``featured`` (``{"table", "delay"}``
        or None); the rest stays. Every change or none."""
        require(actor.role, "run_screen")
        if actor.event_id != event_id:
            raise Forbidden("own_event", "an admin manages only their own event's screen")
        unknown = set(changes) - set(KEYS)
        if not changes or unknown:
            raise BadRequest("screen", "say what to change: announcements, countdown, featured (any of them)")
        at = now()
        new: dict[str, Any] = {}
        if "announcements" in changes:
            new["announcements"] = check_announcements(changes["announcements"])
        if "countdown" in changes:
            new["countdown"] = check_countdown(changes["countdown"], at)
        featured = changes.get("featured")
        if featured is not None and (not isinstance(featured, Mapping) or set(featured) != {"table", "delay"}):
            raise BadRequest("featured", "a featured table is {\"table\": its id, \"delay\": hands}, or null for none")
        with self.store.transaction() as repo:
            if repo.event(event_id) is None:
                raise NotFound("event", f"no event {event_id}")
            if "featured" in changes:
                new["featured"] = None
                if featured is not None:
                    delay = check_delay(featured["delay"])
                    table = featured["table"]
                    t = repo.table(table) if isinstance(table, int) and not isinstance(table, bool) else None
                    if t is None or t.event_id != event_id:
                        raise NotFound("table", f"no table {table!r} in this event")
                    if t.status == "closed":
                        raise Conflict("table_status", f"{t.name} is closed: feature a table that is open")
                    new["featured"] = {"table": t.id, "delay": delay}
            settings = {**EMPTY, **(repo.screen(event_id) or {}), **new}
            repo.set_screen(event_id, settings, actor.id, at)
        return settings

    def featured_hand_id(self, table_id: int, delay: int) -> int | None:
        """The featured table's hand the screen may show: its latest settled hand numbered
        ``delay`` or more below the table's latest hand (in play or not); None while there is
        none. Never the hand in play: at least ``delay`` hands were started after it."""
        with self.store.transaction() as repo:
            last = repo.last_hand_number(table_id)  # 0: no hand yet
            return repo.settled_hand_up_to(table_id, last - delay)

    def hand(self, event_id: int, hand_id: int) -> dict[str, Any]:
        """That hand as a spectator may have it (:func:`~syndicate.room.histories.spectator_hand`)."""
        return spectator_hand(self.store, event_id, hand_id)
