"""What a game is to the card room: one :class:`GameKind` per game, registered by its id.

Everything outside a game's own package that needs something of a game asks the registry:
the room (rules, stakes, the adapter a live table runs), the histories (which format a stored
history is in, what each viewer may see of it, its replay and its check), the pages (the
lobby's summary, the presets, the odds) and the database (the game ids). Nothing else names a
game (the architecture test holds it). Adding a game is its package, a :class:`GameKind` made
by its ``room/games`` module, and one :func:`register` call (docs/architecture.md, "Adding a
game").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ...core.shoe import Shoe
from ..errors import BadRequest
from ..game import Game, Players
from ..values import Table

#: Makes the shoes of a table whose game deals from a shoe kept across hands, from its rules
#: (tests stack them); None: the game makes its own.
NewShoe = Callable[[Any], Shoe]


@dataclass(frozen=True)
class HistoryFormat:
    """A game's hand histories: the stored one-hand JSON, a shoe's hands served as one file
    (docs/hand-history.md), and what the room, the pages and ``syndicate replay``/``verify``
    do with them."""

    #: The history's list of hands ("rounds" at Blackjack, "hands" at draw): the room joins
    #: the hands of one shoe into one file under this key.
    key: str
    #: The engine deals the history again step by step and compares every record: a result
    #: with ``matches`` and ``problems`` or ``messages``.
    replay: Callable[[dict[str, Any]], Any]
    #: Every card checked against the committed shoe: a result with ``ok`` and ``to_json()``.
    verify: Callable[[dict[str, Any]], Any]
    #: The history's steps in words (the replay page).
    steps: Callable[[dict[str, Any]], list[str]]
    #: Make a copy of the stored history what one viewer may have, in place:
    #: ``(doc, seed_hex, house, seats)`` (see :func:`syndicate.room.histories.for_viewer`).
    served: Callable[[dict[str, Any], str | None, bool, dict[int, int]], None]
    #: The stored copy made ready for the server's own replay, given the escrowed seed.
    house_copy: Callable[[dict[str, Any], str | None], dict[str, Any]]
    #: Each seat's net (seat as text) in a stored one-hand history; None while unknown.
    results: Callable[[dict[str, Any]], dict[str, int] | None]
    #: The commitment of the shoe a served history's hands were dealt from (None: real cards).
    commitment: Callable[[dict[str, Any]], str | None]
    #: The hand as a Poker Hand History (TOML text), where the game has that standard.
    phh: Callable[[dict[str, Any]], str] | None = None


@dataclass(frozen=True)
class Odds:
    """The odds a table's rules page shows, where the game has them: computed once per rule
    set, off the event loop (:class:`syndicate.web.pages.OddsService`)."""

    #: The table's rules (JSON) -> the rule set the odds depend on (equal sets share one answer).
    key: Callable[[dict[str, Any]], Hashable]
    #: The answer for one rule set: JSON.
    compute: Callable[[Any], dict[str, Any]]
    #: The rule sets worth computing when the server starts (the presets).
    warm: Callable[[], Iterable[Hashable]]


@dataclass(frozen=True)
class GameKind:
    """One game, as everything outside its own package sees it."""

    #: The game's id in table rows, hand rows, histories, ledger lines and the protocol.
    id: str
    #: Its name in words ("Blackjack", "Five-card draw").
    title: str
    #: The type of its rules (``to_dict``/``from_dict``; ``min_bet``, ``max_bet``).
    rules: type
    #: A table's full rules as JSON and its number of seats, from a preset name (None: the
    #: game's default) and overrides: BadRequest naming the key, or ConfigError, TypeError or
    #: ValueError from the engine's own checks.
    table_rules: Callable[[str | None, Mapping[str, Any]], tuple[dict[str, Any], int]]
    #: Every stake a table's rules set (cents): each must lie within the event's bounds.
    stake_keys: tuple[str, ...]
    #: The bounds of those stakes (cents) until an event's admin sets them.
    bounds: tuple[int, int]
    #: The adapter a live table runs (:class:`syndicate.room.game.Game`).
    adapter: Callable[[Table, Players, NewShoe | None], Game]
    #: Its hand histories.
    history: HistoryFormat
    #: A table's rules in a few words, for the lobby.
    summary: Callable[[dict[str, Any]], str]
    #: The presets and defaults the dealer console's form offers (JSON).
    presets: Callable[[], Any]
    #: The rules page's odds, if the game has them.
    odds: Odds | None = None


_KINDS: dict[str, GameKind] = {}


#: A game's id: what its rows, histories and ledger lines carry (the stake bounds' column is ten
#: characters wide).
GAME_ID = re.compile(r"[a-z][a-z_]{0,9}")


def register(kind: GameKind) -> GameKind:
    """Add ``kind`` to the games the room runs (again under the same id: replaced)."""
    if not GAME_ID.fullmatch(kind.id):
        raise ValueError(f"a game's id is 1 to 10 lowercase letters or underscores, got {kind.id!r}")
    _KINDS[kind.id] = kind
    return kind


def unregister(game_id: str) -> None:
    """Remove a game (a test's own game, once the test is done)."""
    _KINDS.pop(game_id, None)


def kinds() -> tuple[GameKind, ...]:
    """Every registered game, in the order registered."""
    return tuple(_KINDS.values())


def game_ids() -> tuple[str, ...]:
    return tuple(_KINDS)


def kind_of(game_id: Any) -> GameKind:
    """The game ``game_id`` names; BadRequest (rule ``game``) naming the known ones."""
    kind = _KINDS.get(game_id) if isinstance(game_id, str) else None
    if kind is None:
        raise BadRequest("game", f"game is one of {', '.join(_KINDS)}, got {game_id!r}")
    return kind


def history_kind(doc: Mapping[str, Any]) -> GameKind | None:
    """The game a history document is of: by its ``game``, else (a stored history written
    without one) by its list of hands; None when none fits."""
    game = doc.get("game")
    if isinstance(game, str) and game in _KINDS:
        return _KINDS[game]
    return next((k for k in _KINDS.values() if k.history.key in doc), None)
