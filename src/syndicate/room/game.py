"""What a live table needs of a game: the port between the table actor and a game's engine.

The actor (:class:`syndicate.room.actor.TableActor`) owns everything that is the same at any
table: its queue, versions, seats and stacks, clocks, bots' seats, the ledger mirror, storage
and broadcast. It knows nothing of a game's rules. A game adapter (``room/games/``) wraps one
engine and knows nothing of sockets or storage: it starts a hand from the seated stacks, says
whose turn it is, applies an action (the engine verifies it first, so a refusal changes
nothing), makes each viewer's view and the hand's history, and picks the move of a player who
timed out and of a bot. The actor reads the engine's stacks after every change and moves the
ledger by the difference, so the settlement of a hand is whatever the engine says it is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, Protocol

from ..shoe import Shoe
from .errors import Conflict

#: The seated players a new hand is dealt to: seat -> chips (sitting out and leaving excluded).
Players = Callable[[], dict[int, int]]


class Leaving(NamedTuple):
    """What a player's leaving mid-hand did to the hand."""

    at_stake: bool  # their chips are still in the hand: the stack goes back once it is over
    changed: bool  # the hand changed (a bet returned, a forfeit): the actor stores it


class Game(Protocol):
    """One game's engine behind a live table (see the module's docstring)."""

    name: str  # "blackjack" or "poker": the hands' game and the ledger lines' kind
    hand_word: str  # what a hand is called in refusals: "round" or "hand"
    seat_actions: tuple[str, ...]  # what a seated player may send
    dealer_actions: tuple[str, ...]  # the game's own dealer actions (besides the table's)
    rules: Any  # the rules in force: ``min_bet``, ``max_bet``, ``to_dict()``

    @property
    def seat_count(self) -> int: ...
    @property
    def bot_unit(self) -> int:
        """A bot sits down with ``BOT_STAKE`` of these (the largest bet, or the largest ante)."""

    # -- the hand ---------------------------------------------------------------------------
    @property
    def has_hand(self) -> bool:
        """A hand was dealt at this table (it may be over: views show the last one)."""

    @property
    def in_play(self) -> bool:
        """A hand is dealt and not over."""

    @property
    def to_act(self) -> int | None: ...
    def turn(self) -> int:
        """How far the hand has gone (the length of its log): a turn clock belongs to one turn."""

    def start_hand(self, number: int) -> str | None:
        """Deal hand ``number`` to the seated players; a ledger memo if chips moved at once
        (the antes), else None. Raises Conflict (``no_players``) when too few can play."""

    def hand_stacks(self) -> dict[int, int]:
        """The engine's chips behind each seat dealt into the hand in play."""

    def start_stacks(self) -> dict[int, int]:
        """Each dealt-in seat's chips when the hand began (the history's starting stacks)."""

    def seat_action(self, seat: int, action: str, message: dict[str, Any]) -> bool:
        """Apply a seated player's action; True if the hand changed (the actor stores it),
        False if only the table did (an ante accepted). Raises, changing nothing, if refused."""

    def dealer_action(self, action: str, message: dict[str, Any]) -> bool:
        """Apply one of :attr:`dealer_actions`; True if the hand changed, as above."""

    def leave(self, seat: int) -> Leaving:
        """A player leaves while a hand is in play."""

    def leaver_move(self, seat: int) -> str:
        """The move of a player who left and whose turn comes (fold): its name."""

    def timeout_move(self, seat: int) -> str:
        """The passive choice for a player whose clock ran out; its name."""

    def bot_pending(self, bots: frozenset[int]) -> int | None:
        """The bot seat (of ``bots``) with a decision to make now, if any."""

    def bot_move(self, seat: int) -> str:
        """Make the bot's move; its name. A bot's illegal move raises RuleError."""

    def betting_window(self) -> bool:
        """The hand waits for bets before its deal (auto-deal deals when the window closes)."""

    def close_window(self) -> bool:
        """Deal if anyone bet; whether it dealt."""

    def hand_over(self) -> None:
        """The hand is settled: what lives between hands moves on (a button, a carry)."""

    def close(self) -> None:
        """The table is closed: no more cards from its shoe."""

    # -- storage ------------------------------------------------------------------------------
    def history(self, table_id: int, number: int, start_stacks: dict[int, int]) -> dict[str, Any]:
        """The hand in play as a one-hand history in the game's format (stored, never served as
        is: it holds every card)."""

    @property
    def shoe(self) -> Shoe:
        """The shoe the hand in play is dealt from (its commitment, its seed kept in escrow)."""

    # -- views ----------------------------------------------------------------------------------
    def table_view(self) -> dict[str, Any]:
        """The game's own fields of the table's view (the ante in force...)."""

    def round_view(self, viewer: int | str, memo: dict[str, Any] | None) -> dict[str, Any]:
        """The hand as ``viewer`` may see it. ``memo`` lives for one broadcast: what is the
        same for several viewers may be built once and kept there."""

    def log_view(self, viewer: int | str, memo: dict[str, Any] | None) -> list[dict[str, Any]]:
        """The hand's log as ``viewer`` may see it (``memo`` as above)."""


def hand_in_play(game: Game) -> None:
    """Refuse an action that needs a hand in play when there is none."""
    if not game.in_play:
        raise Conflict("no_round", "no round in play: the dealer starts the next one")
