"""What a live table needs of a game: the port between the table actor and a game's engine.

The actor (:class:`syndicate.room.live.actor.TableActor`) owns everything that is the same at any
table: its queue, versions, seats and stacks, clocks, bots' seats, the ledger mirror, storage
and broadcast. It knows nothing of a game's rules. A game adapter (``room/games/``) wraps one
engine and knows nothing of sockets or storage: it starts a hand from the seated stacks, says
whose turn it is, applies an action (the engine verifies it first, so a refusal changes
nothing), makes each viewer's view and the hand's history, and picks the move of a player who
timed out and of a bot. The actor reads the engine's stacks after every change and moves the
ledger by the difference, so the settlement of a hand is whatever the engine says it is.

At a real-cards table (``cards == "real"``, docs/dealer.md) the adapter deals from an
:class:`~syndicate.core.shoe.EnteredShoe`: the hand stops at every card the room is to know
(:attr:`Game.card_needed`; at draw only the hands shown down) and the dealer's ``card`` and
``take_back`` actions supply and correct them; there is then no shoe to commit to
(:attr:`Game.shoe` is ``None``).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Sized
from typing import Any, NamedTuple, Protocol

from ..core import money
from ..core.shoe import CardNeed, Shoe
from .errors import Conflict

#: The seated players a new hand is dealt to: seat -> chips (sitting out and leaving excluded).
Players = Callable[[], dict[int, int]]


class Leaving(NamedTuple):
    """What a player's leaving mid-hand did to the hand."""

    at_stake: bool  # their chips are still in the hand: the stack goes back once it is over
    changed: bool  # the hand changed (a bet returned, a forfeit): the actor stores it


class ChipCount(NamedTuple):
    """Where a hand's chips are besides the seats' stacks (:meth:`Game.hand_stacks`), counted
    from the engine's own bets, pots and settlements rather than from the stacks, so that
    ``sum(hand_stacks()) + middle + house == sum(start_stacks()) + brought`` checks that no chip
    was made or lost (tests/games/test_conformance.py)."""

    middle: int  # bets not yet settled, the pot, odd chips left for the next hand
    house: int  # what the house (the Blackjack dealer) has taken so far, less what it has paid
    brought: int  # chips the hand began with besides the stacks (odd chips carried in)


class Game(Protocol):
    """One game's engine behind a live table (see the module's docstring)."""

    name: str  # the game's id (room/games): the hands' game and the ledger lines' kind
    hand_word: str  # what a hand is called in refusals: "round" or "hand"
    seat_actions: tuple[str, ...]  # what a seated player may send
    dealer_actions: tuple[str, ...]  # the game's own dealer actions (besides the table's)
    rules: Any  # the rules in force: ``min_bet``, ``max_bet``, ``to_dict()``
    cards: str  # where the cards come from: "shuffled" (a committed shoe) or "real" (entered)
    #: The passive choices for a player whose clock ran out, in order, each with how a notice
    #: says the clock made it ("stood").
    passive: dict[str, str]

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

    @property
    def card_needed(self) -> CardNeed | None:
        """The card the hand waits for from the dealer (real cards only; else always None).
        While one is awaited no player is to act, so no turn clock runs."""

    def start_hand(self, number: int) -> str | None:
        """Deal hand ``number`` to the seated players; a ledger memo if chips moved at once
        (the antes), else None. Raises Conflict (``no_players``) when too few can play."""

    def hand_stacks(self) -> dict[int, int]:
        """The engine's chips behind each seat dealt into the hand in play."""

    def start_stacks(self) -> dict[int, int]:
        """Each dealt-in seat's chips when the hand began (the history's starting stacks)."""

    def verify_add_chips(self, seat: int, amount: int) -> None:
        """Raise (rule ``cards_out``) unless ``seat``, dealt into the hand in play, may have
        ``amount`` more chips now: while bets are open and no card is out. Changes nothing."""

    def add_chips(self, seat: int, amount: int) -> None:
        """Add chips bought (:meth:`verify_add_chips` first) to the seat's stack in the hand in
        play and to its starting stack: the engine's stack follows the ledger's."""

    def legal_actions(self, seat: int) -> list[str]:
        """What ``seat`` may send now, as its own view lists it (the dealer's view lists it for
        a seat the dealer acts for); empty when nothing is that seat's to do."""

    def seat_action(self, seat: int, action: str, message: dict[str, Any]) -> bool:
        """Apply a seated player's action; True if the hand changed (the actor stores it),
        False if only the table did (an ante accepted). Raises, changing nothing, if refused."""

    def dealer_action(self, action: str, message: dict[str, Any]) -> bool:
        """Apply one of :attr:`dealer_actions`; True if the hand changed, as above. (A
        ``misdeal`` never comes here: the actor completes it through :meth:`void_hand`.)"""

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

    def can_take_back(self) -> bool:
        """Whether the last card entered can be taken back now (real cards), the card that
        settled the hand included (the actor says until when: the next hand)."""

    def misdeal_refusal(self) -> str | None:
        """Why a misdeal may no longer be declared in the hand in play, in words (something in
        it is settled or seen: docs/dealer.md, "Misdeal: the rule"); None while it may."""

    def void_hand(self) -> None:
        """A misdeal: drop the hand in play as if it had not been dealt (the button and the
        carry stay where they were). Refused (``card_source``) at a shuffled table, where the
        server deals and there is no misdeal to declare, and (``misdeal``) once something in
        the hand is settled (:meth:`misdeal_refusal`). The actor returns every bet."""

    def settlements(self) -> list[dict[str, Any]]:
        """Every bet of the hand settled so far, in order: each a dict with ``at`` (the index
        in the log of the record that settled it), ``seat``, ``amount`` (chips to the seat,
        negative when the dealer takes them) and ``why``; the same bet has the same dict from
        change to change, until a take-back removes it."""

    def payouts(self, items: list[dict[str, Any]] | None = None) -> list[dict[str, Any]] | None:
        """What the dealer moves at the table, seat by seat: each ``{"seat", "amount", "paid",
        "net", "text", "items"}`` (``amount``: chips to move now, to the seat or, negative,
        from it; ``paid``: what was settled, told and moved during the hand already; ``net``:
        the seat's result in the hand, as the ledger moved it). Of ``items`` (of
        :meth:`settlements`), all due now; by default of everything settled so far (None
        while nothing is)."""

    def dealt_in(self) -> frozenset[int]:
        """The seats with chips in the hand (dealt into it)."""

    # -- what a conformance test asks of every game (tests/games/test_conformance.py) ----------
    def chip_count(self) -> ChipCount:
        """The hand's chips besides the stacks (:class:`ChipCount`); all zero before a hand."""

    def hidden_cards(self, viewer: int | str) -> frozenset[str]:
        """The cards of the hand (their texts) ``viewer`` must not see now: another seat's
        face-down cards, a hole card not yet turned; less any card whose text is face up in the
        hand as well (a shoe of several decks holds it twice), as it then shows anyway. Read off
        the engine's cards, not off the views, so that a test can hold the views to it."""

    def random_move(self, who: int | str, rng: random.Random) -> tuple[str, dict[str, Any]] | None:
        """A legal move of ``who`` now, picked with ``rng``: a seat's, or the dealer's (one of
        :attr:`dealer_actions` other than entering or taking back a card), as the action's name
        and its message (an amount, discards: whatever the move needs). Changes nothing; None
        when ``who`` has no move now."""

    # -- storage ------------------------------------------------------------------------------
    def history(self, table_id: int, number: int, start_stacks: dict[int, int]) -> dict[str, Any]:
        """The hand in play as a one-hand history in the game's format (stored, never served as
        is: it holds every card)."""

    @property
    def shoe(self) -> Shoe | None:
        """The shoe the hand in play is dealt from (its commitment, its seed kept in escrow);
        None at a real-cards table: the dealer's cards have no seed and nothing to commit to."""

    @property
    def shoe_key(self) -> str:
        """What the hand's row names as its shoe: the shoe's commitment, or at a real-cards table
        ``entered-`` and the physical shoe's id (a Blackjack shoe until the dealer says it was
        changed; a draw hand's own deck), so the hands of one shoe still go together."""

    # -- views ----------------------------------------------------------------------------------
    def table_view(self) -> dict[str, Any]:
        """The game's own fields of the table's view (the ante in force...)."""

    def round_view(self, viewer: int | str, memo: dict[str, Any] | None) -> dict[str, Any]:
        """The hand as ``viewer`` may see it. ``memo`` lives for one broadcast: what is the
        same for several viewers may be built once and kept there."""

    def log_view(self, viewer: int | str, memo: dict[str, Any] | None) -> list[dict[str, Any]]:
        """The hand's log as ``viewer`` may see it (``memo`` as above)."""


class EngineRound(Protocol):
    """What an engine's hand offers the accessors of :class:`RoundAccessors`."""

    @property
    def log(self) -> Sized: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def is_terminal(self) -> bool: ...
    @property
    def card_needed(self) -> CardNeed | None: ...


class RoundAccessors:
    """The part of :class:`Game` that each adapter reads off its engine's hand in the same way:
    ``round`` is the hand in play, or the last one (kept for the views), or None before the
    first. An adapter sets ``round``; these derive from it."""

    round: EngineRound | None

    @property
    def has_hand(self) -> bool:
        return self.round is not None

    @property
    def in_play(self) -> bool:
        return self.round is not None and not self.round.is_terminal

    @property
    def to_act(self) -> int | None:
        return self.round.to_act if self.round is not None else None

    def turn(self) -> int:
        return len(self.round.log) if self.round is not None else -1

    @property
    def card_needed(self) -> CardNeed | None:
        return self.round.card_needed if self.round is not None else None


def hand_in_play(game: Game) -> None:
    """Refuse an action that needs a hand in play when there is none."""
    if not game.in_play:
        raise Conflict("no_round", "no round in play: the dealer starts the next one")


def card_awaited(game: Game) -> None:
    """Refuse a card entered while no hand is in play, by the engine's rule within a hand
    (``card_not_needed``): no card is needed."""
    if not game.in_play:
        why = (f"the {game.hand_word} is over: the dealer starts the next one" if game.has_hand
               else f"no {game.hand_word} is in play: the dealer starts one first")
        raise Conflict("card_not_needed", f"no card is needed now: {why}")


def misdeal_allowed(game: Game, why: str | None = None) -> None:
    """Refuse a misdeal once something in the hand is settled (``why``, else the game's
    :meth:`Game.misdeal_refusal`): a misdeal must not undo it."""
    why = why or game.misdeal_refusal()
    if why is not None:
        raise Conflict("misdeal", f"a misdeal can no longer be declared: {why}. A misdeal voids a "
                                  f"{game.hand_word} only while nothing in it is settled; take back the last card "
                                  f"if it is wrong, or play the {game.hand_word} out")


def real_only(game: Game, what: str) -> None:
    """Refuse a dealer's correction (``what``) at a table whose server deals the cards."""
    if game.cards != "real":
        raise Conflict("card_source", f"this table deals from a shuffled shoe: {what} is for a table with real cards")


def entered_key() -> str:
    """A new physical shoe's name in the hands' ``commitment`` column: it has no commitment,
    and its hands must not be taken for another shoe's (docs/dealer.md)."""
    return "entered-" + secrets.token_hex(16)


def move_text(amount: int) -> str:
    """What the dealer does with ``amount`` cents: "pay $15.00", "take $10.00", "push"."""
    if amount > 0:
        return f"pay {money.format(amount)}"
    return f"take {money.format(-amount)}" if amount < 0 else "push"


class RecordDocs:
    """The JSON of the hand in play's log records, each made once rather than for every
    change's history and views (a hand's log is some twenty to forty records, and each change
    adds one or two). Records are immutable and a log only grows, or is cut back at its end (a
    card taken back, a new hand): :meth:`sync` keeps the longest prefix whose records are the
    very same objects and makes the JSON of the rest with ``to_json``."""

    def __init__(self, to_json: Callable[[Any], dict[str, Any]]) -> None:
        self.to_json = to_json
        self.records: list[Any] = []
        self.docs: list[dict[str, Any]] = []

    def sync(self, log: list[Any]) -> int:
        """Follow ``log``; returns how many records were kept from before."""
        keep = 0
        for mine, theirs in zip(self.records, log, strict=False):
            if mine is not theirs:
                break
            keep += 1
        if keep < len(self.records):
            del self.records[keep:], self.docs[keep:]
        for r in log[keep:]:
            self.records.append(r)
            self.docs.append(self.to_json(r))
        return keep

    def of(self, log: list[Any]) -> list[dict[str, Any]]:
        """The JSON of ``log``'s records (after :meth:`sync`), as a new list."""
        self.sync(log)
        return list(self.docs)
