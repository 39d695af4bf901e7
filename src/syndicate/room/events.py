"""Ending an event, and when its shoes' seeds are revealed (docs/fairness.md, docs/server.md).

An ended event deals no more: every table is closed (after its hand in play, as a table close
does), no table opens and no hand starts; sign-in still works, so players can cash out. The
per-event ``seed_reveal`` setting says when a shoe's seed is published: at its table's close
(``table_close``, the default) or only when the event ends (``event_end``). It is fixed once the
event has dealt a hand: a player who saw hands dealt under one promise keeps it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..core import money
from .draws import prizes_listed
from .errors import BadRequest, Conflict, Forbidden, NotFound, refuse_if_ended
from .ledger import now
from .live.clocks import check_turn_clock
from .ports import Repo, Store
from .roles import require
from .shifts import MAX_MINUTES, closed
from .values import CARD_SOURCES, Account, Event

SEED_REVEALS = ("table_close", "event_end")


def check_seed_reveal(value: object) -> str:
    if value not in SEED_REVEALS:
        raise BadRequest("seed_reveal", f"seed_reveal is one of {', '.join(SEED_REVEALS)}, got {value!r}")
    return str(value)


def _cents_or_none(name: str, value: object, low: int, none: str) -> int | None:
    """A setting in whole cents from ``low`` to the typo guard's top, or None (``none`` says
    what None means); refused in words naming ``name`` otherwise."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                              or not low <= value <= money.MAX_CENTS):
        raise BadRequest(name, f"{name} is a whole number of cents from {low} to {money.format(money.MAX_CENTS)}, "
                               f"or null for {none}; got {value!r}")
    return value  # type: ignore[return-value]


class Events:
    def __init__(self, store: Store) -> None:
        self.store = store

    def _own(self, actor: Account, event_id: int, action: str) -> None:
        require(actor.role, action)
        if actor.event_id != event_id:
            raise Forbidden("own_event", "an admin manages only their own event")

    def _change(self, event_id: int, write: Callable[[Repo, Event], None]) -> Event:
        """One change of the event's settings: the event locked, refused once it ended (rule
        ``event_ended``), ``write`` run on it, and the event as it is now."""
        with self.store.transaction() as repo:
            ev = repo.event(event_id, lock=True)
            if ev is None:
                raise NotFound("event", f"no event {event_id}")
            refuse_if_ended(ev)
            write(repo, ev)
            changed = repo.event(event_id)
        assert changed is not None
        return changed

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
        return self._change(event_id, lambda repo, ev: repo.set_turn_clock(event_id, {**ev.turn_clock, **defaults}))

    def set_seed_reveal(self, actor: Account, event_id: int, value: object) -> Event:
        """Change when the event's seeds are revealed; refused once a table has dealt (409, rule
        ``seed_reveal_fixed``) or after the event ended (``event_ended``)."""
        self._own(actor, event_id, "event_settings")
        seed_reveal = check_seed_reveal(value)

        def write(repo: Repo, ev: Event) -> None:
            if ev.seed_reveal != seed_reveal and repo.event_has_hands(event_id):
                raise Conflict("seed_reveal_fixed", "seed_reveal is fixed once a table of the event has dealt a "
                               f"hand (it is {ev.seed_reveal!r})")
            repo.set_seed_reveal(event_id, seed_reveal)
        return self._change(event_id, write)

    def set_sale_limit(self, actor: Account, event_id: int, value: object) -> Event:
        """Set the event's limit on one chip sale to a walk-in (cents; None: no limit): a sale
        above it waits for a pit boss's or the admin's approval before any chip moves
        (docs/walk-ins.md). The event's own admin (rule ``event_settings``); not once it ended."""
        self._own(actor, event_id, "event_settings")
        limit = _cents_or_none("sale_limit", value, 1, "no limit")
        return self._change(event_id, lambda repo, _ev: repo.set_sale_limit(event_id, limit))

    def set_play_money(self, actor: Account, event_id: int, value: object) -> Event:
        """Make the event a night whose chips have no cash value, or not (docs/charity-night.md):
        nothing then pays chips out as money (the cashier's cash-out is refused, a walk-in's
        chips stay on their name), and the chips count for the prize draws. Fixed once a table
        of the event has dealt a hand (rule ``play_money_fixed``); not once it ended."""
        self._own(actor, event_id, "event_settings")
        if not isinstance(value, bool):
            raise BadRequest("play_money", f"play_money is true (chips have no cash value) or false; got {value!r}")

        def write(repo: Repo, ev: Event) -> None:
            if ev.play_money != value and repo.event_has_hands(event_id):
                raise Conflict("play_money_fixed", "whether chips have a cash value is fixed once a table of the "
                               "event has dealt a hand: players sat down under the rule as it was "
                               f"({'no cash value' if ev.play_money else 'chips are cashed out for money'})")
            repo.set_play_money(event_id, value)
        return self._change(event_id, write)

    def set_prize_cap(self, actor: Account, event_id: int, value: object) -> Event:
        """Cap the value of all the event's prizes together (cents; None: no cap), as the law of
        some places asks of a charity casino night: a draw whose prizes would take the total past
        it is refused (rule ``prize_cap``). Not below the prizes already listed."""
        self._own(actor, event_id, "event_settings")
        cap = _cents_or_none("prize_cap", value, 0, "no cap")

        def write(repo: Repo, _ev: Event) -> None:
            listed = prizes_listed(repo, event_id)
            if cap is not None and listed > cap:
                raise Conflict("prize_cap", f"the draws already list {money.format(listed)} of prizes: the cap "
                               f"cannot be below that (asked {money.format(cap)})")
            repo.set_prize_cap(event_id, cap)
        return self._change(event_id, write)

    def set_shift_lengths(self, actor: Account, event_id: int, shift: Any = None, rest: Any = None) -> Event:
        """The host sets the dealers' rotation's shift and break lengths (minutes; None: as it
        was; docs/dealer.md). The event's own admin (rule ``event_settings``); not once it ended."""
        self._own(actor, event_id, "event_settings")
        for key, v in (("shift_minutes", shift), ("break_minutes", rest)):
            if v is not None and (isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= MAX_MINUTES):
                raise BadRequest(key, f"{key} is a whole number of minutes from 1 to {MAX_MINUTES}, got {v!r}")
        return self._change(event_id, lambda repo, ev: repo.set_shift_lengths(
            event_id, ev.shift_minutes if shift is None else shift, ev.break_minutes if rest is None else rest))
