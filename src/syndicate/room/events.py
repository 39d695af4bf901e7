"""Ending an event, and when its shoes' seeds are revealed (docs/fairness.md, docs/server.md).

An ended event deals no more: every table is closed (after its hand in play, as a table close
does), no table opens and no hand starts; sign-in still works, so players can cash out. The
per-event ``seed_reveal`` setting says when a shoe's seed is published: at its table's close
(``table_close``, the default) or only when the event ends (``event_end``). It is fixed once the
event has dealt a hand: a player who saw hands dealt under one promise keeps it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core import money
from .errors import BadRequest, Conflict, Forbidden, NotFound
from .ledger import now
from .live.clocks import check_turn_clock
from .ports import Store
from .roles import require
from .shifts import closed
from .values import CARD_SOURCES, Account, Event

SEED_REVEALS = ("table_close", "event_end")


def check_seed_reveal(value: object) -> str:
    if value not in SEED_REVEALS:
        raise BadRequest("seed_reveal", f"seed_reveal is one of {', '.join(SEED_REVEALS)}, got {value!r}")
    return str(value)


def refuse_if_ended(ev: Event | None) -> None:
    if ev is not None and ev.ended_at is not None:
        raise Conflict("event_ended", f"event {ev.id} ended at {ev.ended_at.isoformat()}: no new tables or hands")


class Events:
    def __init__(self, store: Store) -> None:
        self.store = store

    def _own(self, actor: Account, event_id: int, action: str) -> None:
        require(actor.role, action)
        if actor.event_id != event_id:
            raise Forbidden("own_event", "an admin manages only their own event")

    def end(self, actor: Account, event_id: int) -> tuple[Event, list[int]]:
        """End the event: record when and by whom, close every open or paused table. Returns the
        event and the ids of all its tables (their runners reveal what is due). A second end is
        refused (409, rule ``event_ended``) and changes nothing."""
        self._own(actor, event_id, "end_event")
        with self.store.transaction() as repo:
            ev = repo.event(event_id, lock=True)  # serialized with opening a table
            if ev is None:
                raise NotFound("event", f"no event {event_id}")
            if ev.ended_at is not None:
                raise Conflict("event_ended", f"event {event_id} already ended at {ev.ended_at.isoformat()} "
                               "(an event ends once)")
            repo.end_event(event_id, actor.id, now())
            tables = repo.tables(event_id)
            for t in tables:
                if t.status != "closed":
                    repo.set_table_status(t.id, "closed")
                    closed(repo, t, actor.id, now())
            ended = repo.event(event_id)
        assert ended is not None
        return ended, [t.id for t in tables]

    def set_turn_clock(self, actor: Account, event_id: int, defaults: Mapping[str, Any]) -> Event:
        """Set the event's default turn clock of the tables opened from now on, per card source
        (``{"real": seconds or None, "shuffled": ...}``, either or both); open tables keep theirs."""
        self._own(actor, event_id, "event_settings")
        for cards, seconds in defaults.items():
            if cards not in CARD_SOURCES:
                raise BadRequest("turn_clock", f"a turn clock default is for {' or '.join(CARD_SOURCES)} cards, "
                                               f"got {cards!r}")
            check_turn_clock(seconds)
        with self.store.transaction() as repo:
            ev = repo.event(event_id, lock=True)
            if ev is None:
                raise NotFound("event", f"no event {event_id}")
            refuse_if_ended(ev)
            repo.set_turn_clock(event_id, {**ev.turn_clock, **defaults})
            changed = repo.event(event_id)
        assert changed is not None
        return changed

    def set_seed_reveal(self, actor: Account, event_id: int, value: object) -> Event:
        """Change when the event's seeds are revealed; refused once a table has dealt (409, rule
        ``seed_reveal_fixed``) or after the event ended (``event_ended``)."""
        self._own(actor, event_id, "event_settings")
        seed_reveal = check_seed_reveal(value)
        with self.store.transaction() as repo:
            ev = repo.event(event_id, lock=True)
            if ev is None:
                raise NotFound("event", f"no event {event_id}")
            refuse_if_ended(ev)
            if ev.seed_reveal != seed_reveal and repo.event_has_hands(event_id):
                raise Conflict("seed_reveal_fixed", "seed_reveal is fixed once a table of the event has dealt a "
                               f"hand (it is {ev.seed_reveal!r})")
            repo.set_seed_reveal(event_id, seed_reveal)
            changed = repo.event(event_id)
        assert changed is not None
        return changed

    def set_sale_limit(self, actor: Account, event_id: int, value: object) -> Event:
        """Set the event's limit on one chip sale to a walk-in (cents; None: no limit): a sale
        above it waits for a pit boss's or the admin's approval before any chip moves
        (docs/walk-ins.md). The event's own admin (rule ``event_settings``); not once it ended."""
        self._own(actor, event_id, "event_settings")
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or not 1 <= value <= money.MAX_CENTS):
            raise BadRequest("sale_limit", f"sale_limit is a whole number of cents from 1 to "
                             f"{money.format(money.MAX_CENTS)}, or null for no limit; got {value!r}")
        with self.store.transaction() as repo:
            ev = repo.event(event_id, lock=True)
            if ev is None:
                raise NotFound("event", f"no event {event_id}")
            refuse_if_ended(ev)
            repo.set_sale_limit(event_id, value)  # type: ignore[arg-type]
            changed = repo.event(event_id)
        assert changed is not None
        return changed

    def set_play_money(self, actor: Account, event_id: int, value: object) -> Event:
        """Make the event a night whose chips have no cash value, or not (docs/charity-night.md):
        nothing then pays chips out as money (the cashier's cash-out is refused, a walk-in's
        chips stay on their name), and the chips count for the prize draws. Fixed once a table
        of the event has dealt a hand (rule ``play_money_fixed``); not once it ended."""
        self._own(actor, event_id, "event_settings")
        if not isinstance(value, bool):
            raise BadRequest("play_money", f"play_money is true (chips have no cash value) or false; got {value!r}")
        with self.store.transaction() as repo:
            ev = repo.event(event_id, lock=True)
            if ev is None:
                raise NotFound("event", f"no event {event_id}")
            refuse_if_ended(ev)
            if ev.play_money != value and repo.event_has_hands(event_id):
                raise Conflict("play_money_fixed", "whether chips have a cash value is fixed once a table of the "
                               "event has dealt a hand: players sat down under the rule as it was "
                               f"({'no cash value' if ev.play_money else 'chips are cashed out for money'})")
            repo.set_play_money(event_id, value)
            changed = repo.event(event_id)
        assert changed is not None
        return changed

    def set_prize_cap(self, actor: Account, event_id: int, value: object) -> Event:
        """Cap the value of all the event's prizes together (cents; None: no cap), as the law of
        some places asks of a charity casino night: a draw whose prizes would take the total past
        it is refused (rule ``prize_cap``). Not below the prizes already listed."""
        self._own(actor, event_id, "event_settings")
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or not 0 <= value <= money.MAX_CENTS):
            raise BadRequest("prize_cap", f"prize_cap is a whole number of cents from 0 to "
                             f"{money.format(money.MAX_CENTS)}, or null for no cap; got {value!r}")
        with self.store.transaction() as repo:
            ev = repo.event(event_id, lock=True)
            if ev is None:
                raise NotFound("event", f"no event {event_id}")
            refuse_if_ended(ev)
            listed = sum(p["value"] for d in repo.prize_draws(event_id) for p in d.prizes)
            if value is not None and listed > value:
                raise Conflict("prize_cap", f"the draws already list {money.format(listed)} of prizes: the cap "
                               f"cannot be below that (asked {money.format(value)})")
            repo.set_prize_cap(event_id, value)  # type: ignore[arg-type]
            changed = repo.event(event_id)
        assert changed is not None
        return changed
