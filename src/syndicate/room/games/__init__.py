"""The games a live table can run: the registry (:mod:`.registry`) and its lines. Each game is
a :class:`~.registry.GameKind` made by its module here, beside its adapter behind
:class:`syndicate.room.game.Game`."""

from __future__ import annotations

from ..game import Game, Players
from ..values import Table
from .blackjack import BLACKJACK
from .draw import DRAW
from .registry import (
    GameKind,
    HistoryFormat,
    NewShoe,
    Odds,
    game_ids,
    history_kind,
    kind_of,
    kinds,
    register,
    unregister,
)

register(BLACKJACK)
register(DRAW)

__all__ = ["GameKind", "HistoryFormat", "NewShoe", "Odds", "game_for", "game_ids", "history_kind", "kind_of",
           "kinds", "register", "unregister"]


def game_for(table: Table, players: Players, new_shoe: NewShoe | None = None) -> Game:
    """The adapter for ``table``'s game. ``new_shoe`` makes the shoes of a game that keeps one
    across hands (tests stack them); a game may instead deal each hand from a fresh shoe. At a
    real-cards table (``table.cards``) the dealer enters the cards instead (docs/dealer.md)."""
    return kind_of(table.game).adapter(table, players, new_shoe)
