"""Opening, pausing and closing tables.

"Blackjack requires a dealer. … Unauthorized games are prohibited." Only a dealer on the
roster opens a table; a table's rules are a preset plus overrides with the same keys as
``syndicate rules`` (Blackjack) or the draw table's settings (poker), checked by the engines.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from types import EllipsisType
from typing import Any

from ..blackjack.rules import PRESETS, Rules, preset
from ..core import money
from ..core.errors import ConfigError
from ..poker.rules import DrawRules
from .accounts import check_name
from .clock import check_turn_clock
from .errors import BadRequest, Forbidden, NotFound
from .events import refuse_if_ended
from .ledger import check_amount, now, table_account
from .ports import Store
from .roles import DEALER, require
from .values import CARD_SOURCES, CARDS_KEY, CLOCK_KEY, Account, Table

GAMES = ("blackjack", "poker")
STATUSES = ("open", "paused", "closed")
MAX_OVERRIDES = 40
MONEY_KEYS = ("min_bet", "max_bet")
#: Every stake a table's rules set, per game: each must lie within the event's bounds.
STAKE_KEYS: dict[str, tuple[str, ...]] = {
    "blackjack": ("min_bet", "max_bet"),
    "poker": ("ante", "min_bet", "max_bet", "min_raise", "max_raise", "min_ante", "max_ante"),
}
#: The bounds of table stakes (cents) until an event's admin widens them. Draw poker's are the
#: house rule's ("Bet → between $0.50 and $5"); Blackjack's are $1 to $500, the default
#: preset's minimum and five times its maximum.
DEFAULT_BOUNDS: dict[str, tuple[int, int]] = {"blackjack": (100, 50_000), "poker": (50, 500)}

UNAUTHORIZED = (
    "only an authorized dealer can open a table: \"Blackjack requires a dealer. … A list of authorized "
    "dealers will be kept here and updated throughout the event. Unauthorized games are prohibited.\""
)


def table_rules(game: str, preset_name: str | None, overrides: Mapping[str, Any]) -> tuple[dict[str, Any], int]:
    """The table's full rule set as JSON and its number of seats; BadRequest naming the key."""
    if not isinstance(overrides, Mapping) or len(overrides) > MAX_OVERRIDES:
        raise BadRequest("overrides", f"overrides are at most {MAX_OVERRIDES} key → value pairs")
    _check_types(Rules if game == "blackjack" else DrawRules, overrides)
    try:
        if game == "blackjack":
            if preset_name is not None and preset_name not in PRESETS:
                raise BadRequest("preset", f"preset is one of {', '.join(PRESETS)}, got {preset_name!r}")
            assignments = tuple(f"{k}={_text(k, v)}" for k, v in overrides.items())
            rules: Rules = preset(preset_name or "syndicate", assignments)
            return rules.to_dict(), rules.seats
        if preset_name not in (None, "default"):
            raise BadRequest("preset", "poker tables have one preset, 'default'")
        fields = {f.name: f for f in dataclasses.fields(DrawRules)}
        values: dict[str, Any] = {}
        for k, v in overrides.items():
            if k not in fields:
                raise BadRequest("overrides", f"unknown poker setting {k!r}; known: {', '.join(fields)}")
            values[k] = v
        draw = DrawRules(**values)
        return dataclasses.asdict(draw), draw.max_players
    except (ConfigError, TypeError, ValueError) as e:
        if isinstance(e, BadRequest):
            raise
        raise BadRequest("rules", str(e)) from None


def _check_types(rules: type, overrides: Mapping[str, Any]) -> None:
    """A boolean setting takes only a JSON boolean and a whole-number one only a JSON integer:
    Python would take ``"false"`` as true and ``1.0`` or ``true`` as 1, and the table would keep
    whatever was sent. Money keys of Blackjack may also be text ("$5"), as documented."""
    defaults = {f.name: f.default for f in dataclasses.fields(rules) if f.init}
    for key, v in overrides.items():
        default = defaults.get(key)
        if isinstance(default, bool):
            if not isinstance(v, bool):
                raise BadRequest("overrides", f"{key} is a JSON boolean (true or false), got {type(v).__name__}")
        elif isinstance(default, int) or (rules is DrawRules and key == "raise_cap"):
            if key in MONEY_KEYS and rules is Rules and isinstance(v, str):
                continue
            if isinstance(v, bool) or not isinstance(v, int) and not (v is None and key == "raise_cap"):
                raise BadRequest("overrides", f"{key} is a JSON integer, got {type(v).__name__}")


def _text(key: str, v: Any) -> str:
    """An override as ``syndicate rules --set`` text. In the API money is cents, so a JSON
    integer for a money key is cents; a string is read as on the command line ("$5", "0.50")."""
    if key in MONEY_KEYS and isinstance(v, int) and not isinstance(v, bool):
        money.check(v)
        return f"{v // 100}.{v % 100:02d}"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float, str)):
        return str(v)
    raise BadRequest("overrides", f"an override value is a string, number or boolean, got {type(v).__name__}")


class Tables:
    def __init__(self, store: Store) -> None:
        self.store = store

    def open(
        self, actor: Account, name: str, game: str = "blackjack", preset_name: str | None = None,
        overrides: Mapping[str, Any] | None = None, cards: str = "shuffled",
        turn_clock: int | None | EllipsisType = ...,
    ) -> Table:
        """``turn_clock``: the table's turn clock in seconds, or None for none; left out, the
        event's default for tables of its ``cards`` if its admin set one, else the server's
        (none at a real-cards table: docs/dealer.md)."""
        require(actor.role, "open_table")
        check_name(name, "table name")
        if game not in GAMES:
            raise BadRequest("game", f"game is one of {', '.join(GAMES)}, got {game!r}")
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
            lo, hi = repo.event_limits(actor.event_id).get(game, DEFAULT_BOUNDS[game])
            for key in STAKE_KEYS[game]:
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
            return table

    def bounds(self, event_id: int) -> dict[str, tuple[int, int]]:
        """Each game's bounds of table stakes in this event: (lowest, highest) cents."""
        with self.store.transaction() as repo:
            return {**DEFAULT_BOUNDS, **repo.event_limits(event_id)}

    def set_bounds(self, actor: Account, game: str, lowest: Any, highest: Any) -> dict[str, tuple[int, int]]:
        """The admin sets (widens or narrows) a game's bounds; open tables keep their rules."""
        require(actor.role, "set_limits")
        if game not in GAMES:
            raise BadRequest("game", f"game is one of {', '.join(GAMES)}, got {game!r}")
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
        return dataclasses.replace(t, status=status)
