"""Opening, pausing and closing tables.

"Blackjack requires a dealer. … Unauthorized games are prohibited." Only a dealer on the
roster opens a table; a table's rules are a preset plus overrides, as its game reads them (``room/games``: the same
keys as ``syndicate rules`` at Blackjack, the draw table's settings at poker), checked by the
engines.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from types import EllipsisType
from typing import Any

from ..core import money
from ..core.errors import ConfigError
from .accounts import check_name
from .errors import BadRequest, Forbidden, NotFound, refuse_if_ended
from .games import game_ids, kind_of, kinds
from .ledger import check_amount, now, table_account
from .live.clocks import check_turn_clock
from .ports import Store
from .roles import DEALER, require
from .shifts import closed, opened
from .values import CARD_SOURCES, CARDS_KEY, CLOCK_KEY, Account, Table

STATUSES = ("open", "paused", "closed")
MAX_OVERRIDES = 40

UNAUTHORIZED = (
    "only an authorized dealer can open a table: \"Blackjack requires a dealer. … A list of authorized "
    "dealers will be kept here and updated throughout the event. Unauthorized games are prohibited.\""
)


def table_rules(game: str, preset_name: str | None, overrides: Mapping[str, Any]) -> tuple[dict[str, Any], int]:
    """The table's full rule set as JSON and its number of seats; BadRequest naming the key."""
    if not isinstance(overrides, Mapping) or len(overrides) > MAX_OVERRIDES:
        raise BadRequest("overrides", f"overrides are at most {MAX_OVERRIDES} key → value pairs")
    try:
        return kind_of(game).table_rules(preset_name, overrides)
    except (ConfigError, TypeError, ValueError) as e:
        if isinstance(e, BadRequest):
            raise
        raise BadRequest("rules", str(e)) from None


def default_bounds() -> dict[str, tuple[int, int]]:
    """The bounds of table stakes (cents) of each game until an event's admin sets them."""
    return {k.id: k.bounds for k in kinds()}


class Tables:
    def __init__(self, store: Store) -> None:
        self.store = store

    def open(
        self, actor: Account, name: str, game: str | None = None, preset_name: str | None = None,
        overrides: Mapping[str, Any] | None = None, cards: str = "shuffled",
        turn_clock: int | None | EllipsisType = ...,
    ) -> Table:
        """``turn_clock``: the table's turn clock in seconds, or None for none; left out, the
        event's default for tables of its ``cards`` if its admin set one, else the server's
        (none at a real-cards table: docs/dealer.md). ``game``: a registered game's id
        (``room/games``), left out the first registered."""
        require(actor.role, "open_table")
        check_name(name, "table name")
        kind = kind_of(game_ids()[0] if game is None else game)
        game = kind.id
        if cards not in CARD_SOURCES:
            raise BadRequest("cards", f"cards is one of {', '.join(CARD_SOURCES)}, got {cards!r}")
        if turn_clock is not ...:
            turn_clock = check_turn_clock(turn_clock)
        rules, seats = table_rules(game, preset_name, overrides or {})
        if cards == "real":  # only then: a shuffled table's rules stay exactly the engine's
            rules[CARDS_KEY] = cards
        with self.store.transaction() as repo:
            ev = repo.event(actor.event_id, lock=True)
            refuse_if_ended(ev)
            if turn_clock is ... and ev is not None and cards in ev.turn_clock:
                turn_clock = ev.turn_clock[cards]
            if turn_clock is not ...:
                rules[CLOCK_KEY] = turn_clock
            lo, hi = repo.event_limits(actor.event_id).get(game, kind.bounds)
            for key in kind.stake_keys:
                if not lo <= rules[key] <= hi:
                    raise BadRequest("table_limits", f"{key} {money.format(rules[key])} is outside this event's "
                                     f"{game} bounds, {money.format(lo)} to {money.format(hi)}: only the "
                                     "admin widens them")
            entry = repo.roster_entry(actor.event_id, actor.name)
            if entry is None or not entry.active:
                raise Forbidden("authorized_dealer", f"{actor.name} is not on the roster of authorized dealers; "
                                + UNAUTHORIZED)
            table = repo.add_table(actor.event_id, name, game, rules, seats, actor.id, now())
            table_account(repo, actor.event_id, table.id, name)
            opened(repo, table, actor, now())  # the dealer who opens a table deals it: clocked in by it
            return table

    def bounds(self, event_id: int) -> dict[str, tuple[int, int]]:
        """Each game's bounds of table stakes in this event: (lowest, highest) cents."""
        with self.store.transaction() as repo:
            return {**default_bounds(), **repo.event_limits(event_id)}

    def set_bounds(self, actor: Account, game: str, lowest: Any, highest: Any) -> dict[str, tuple[int, int]]:
        """The admin sets (widens or narrows) a game's bounds; open tables keep their rules."""
        require(actor.role, "set_limits")
        game = kind_of(game).id
        lo, hi = check_amount(lowest, "min_bet"), check_amount(highest, "max_bet")
        if lo > hi:
            raise BadRequest("table_limits", f"the lowest stake ({money.format(lo)}) is above the highest "
                             f"({money.format(hi)})")
        with self.store.transaction() as repo:
            repo.set_event_limits(actor.event_id, game, lo, hi)
        return self.bounds(actor.event_id)

    def get(self, event_id: int, table_id: Any) -> Table:
        if isinstance(table_id, bool) or not isinstance(table_id, int):
            raise BadRequest("table", f"a table is a number, got {table_id!r}")
        with self.store.transaction() as repo:
            t = repo.table(table_id)
        if t is None or t.event_id != event_id:
            raise NotFound("table", f"no table {table_id} in this event")
        return t

    def lobby(self, event_id: int, include_closed: bool = False) -> list[Table]:
        with self.store.transaction() as repo:
            return [t for t in repo.tables(event_id) if include_closed or t.status != "closed"]

    def set_status(self, actor: Account, table_id: Any, status: str) -> Table:
        """Pause, resume (``open``) or close a table: its dealer, a pit boss or the admin."""
        require(actor.role, "manage_table")
        if status not in STATUSES:
            raise BadRequest("status", f"status is one of {', '.join(STATUSES)}")
        t = self.get(actor.event_id, table_id)
        if actor.role == DEALER and t.dealer_id != actor.id:
            raise Forbidden("own_table", "a dealer manages only the tables they opened")
        if t.status == "closed":
            raise BadRequest("closed", f"table {t.id} is closed for good")
        with self.store.transaction() as repo:
            # Again under the event's lock: a close or the event's end may have come since the
            # read above, and a pause or resume must not reopen what they closed.
            ev = repo.event(actor.event_id, lock=True)
            now_t = repo.table(t.id)
            if now_t is None or now_t.status == "closed":
                raise BadRequest("closed", f"table {t.id} is closed for good")
            if status != "closed":
                refuse_if_ended(ev)
            repo.set_table_status(t.id, status)
            if status == "closed":
                closed(repo, now_t, actor.id, now())
        return dataclasses.replace(t, status=status)
