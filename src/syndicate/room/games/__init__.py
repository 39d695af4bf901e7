"""The games a live table can run, each an adapter behind :class:`syndicate.room.game.Game`."""

from __future__ import annotations

from collections.abc import Callable

from ...blackjack.rules import Rules
from ...core.shoe import Shoe
from ...poker.rules import DrawRules
from ..game import Game, Players
from ..values import Table
from .blackjack import BlackjackGame
from .draw import DrawGame

NewShoe = Callable[[Rules], Shoe]


def _blackjack(table: Table, players: Players, new_shoe: NewShoe | None) -> Game:
    return BlackjackGame(Rules.from_dict(table.game_rules), players, new_shoe, real=table.cards == "real")


def _draw(table: Table, players: Players, new_shoe: NewShoe | None) -> Game:
    return DrawGame(DrawRules.from_dict(table.game_rules), players, real=table.cards == "real")


#: Each game by the name a table row carries.
GAMES: dict[str, Callable[[Table, Players, NewShoe | None], Game]] = {"blackjack": _blackjack, "poker": _draw}


def game_for(table: Table, players: Players, new_shoe: NewShoe | None = None) -> Game:
    """The adapter for ``table``'s game. ``new_shoe`` makes a Blackjack table's shoes (tests
    stack them); a draw table deals each hand from a fresh one-deck shoe. At a real-cards table
    (``table.cards``) the dealer enters the cards instead (docs/dealer.md)."""
    return GAMES[table.game](table, players, new_shoe)
