"""What one hand of five-card draw holds (:class:`HandState`): the seats in order of play,
stacks, the pot, the cards, whose turn it is, the log; and the questions every step asks of it.

The hand's steps are beside it: the betting (:mod:`.betting`), the draw and the showdown
(:mod:`.showdown`), the deal and the cards as they come (:class:`~.draw.DrawHand`), and what
each viewer sees (:mod:`.views`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, NamedTuple, Protocol

from ..core import money
from ..core.cards import Card
from ..core.errors import BadAmount, IllegalAction, OutOfTurn
from ..core.shoe import CardNeed
from .evaluator import HandValue
from .pots import Pot, side_pots
from .rules import DrawRules

DEALING: Final = "dealing"  # only with entered cards: the deal waits for the dealer's cards
FIRST_BETTING: Final = "first_betting"
DRAW: Final = "draw"
SECOND_BETTING: Final = "second_betting"
SHOWDOWN: Final = "showdown"  # only when the cards shown are entered: the hands, then any ruling
SETTLED: Final = "complete"  # the hand is over, its pots pushed (the stored phase name)
PHASES: Final = (DEALING, FIRST_BETTING, DRAW, SECOND_BETTING, SHOWDOWN, SETTLED)


class Dealer(Protocol):
    """Whoever deals a hand's cards by itself, as soon as the hand stops for one: a shuffled
    deck's (:class:`~.dealing.ShuffledDeck`). It hands each card in with ``deal_card`` and is
    told when the hand is settled. A real-cards table has none: the dealer enters each card."""

    def __call__(self, hand: Any) -> None: ...


class HandState:
    """The state of one hand and the questions asked of it. Chips are conserved at every step:
    ``sum(stacks) + pot + carry_out == sum(starting stacks) + carry_in``."""

    def __init__(
        self,
        rules: DrawRules,
        stacks: Mapping[int, int],
        button: int,
        *,
        deck: int,
        entered: bool,
        shown_only: bool,
        shuffles_stub: bool,
        dealer: Dealer | None,
        carry_in: int,
        number: int,
    ) -> None:
        self.rules = rules
        self.entered = entered
        #: Only the cards shown are entered: the face-down ones are counted (docs/dealer.md).
        self.shown_only = shown_only
        self.shuffles_stub = shuffles_stub
        self.dealer = dealer
        self.deck = deck
        #: The card the hand waits for and for whom (``None``: none): its dealer's to hand in, or
        #: at a real-cards table the dealer's to enter.
        self.card_needed: CardNeed | None = None
        self._deal_needs: tuple[CardNeed, ...] = ()  # the deal's cards, in the order they are dealt
        self._deal_k = 0  # entered cards: how many of the deal's cards have come
        self._drawing: Drawing | None = None  # entered cards: the draw waiting for its cards
        self.number = number
        self.button = button
        self.carry_in = carry_in
        self.carry_out = 0
        seats = sorted(stacks)
        i = seats.index(button)
        #: Seats in order of play: the button's left first, the dealer (button) last.
        self.order: tuple[int, ...] = tuple(seats[i + 1:] + seats[:i + 1])
        self.start_stacks: dict[int, int] = {s: stacks[s] for s in self.order}
        self.stacks: dict[int, int] = dict(self.start_stacks)
        self.total: dict[int, int] = {s: 0 for s in self.order}  # put in this hand, antes included
        self.street: dict[int, int] = {s: 0 for s in self.order}  # put in this betting round
        self.folded: set[int] = set()
        self.cards: dict[int, list[Card]] = {s: [] for s in self.order}
        self.shown: dict[int, set[Card]] = {s: set() for s in self.order}
        self.showed_down: set[int] = set()
        self.values: dict[int, HandValue] = {}
        self.pot = carry_in  # chips in the middle
        self.pots: list[Pot] = []  # set at the end: how the pot was sliced
        self.awards: dict[int, int] = {}
        self.muck: list[Card] = []
        self.log: list[Any] = []
        self.version = 0
        self._version_floor = 0  # a hand rebuilt by a take-back: the version of the one it replaces
        self.phase = FIRST_BETTING
        self.to_act: int | None = None
        self.current_bet = 0
        self.raises = 0
        self._pending: list[int] = []
        self.restubs = 0
        #: The muck that became the stub at the last re-stub, in the order it was mucked.
        self.last_stub: tuple[Card, ...] = ()
        #: The last draw completed (its cards all dealt).
        self.last_draw: Any = None
        self._out: set[Card] = set()  # cards out of the deck: in hands, drawing or in the muck
        # Only the cards shown are entered: what each seat holds face down, what each threw and
        # drew, the muck as counted, the hands the showdown flagged and ruled.
        self.held: dict[int, int] = {s: 0 for s in self.order}
        self.drew: dict[int, int] = {}
        self.to_deal: Dealing | None = None
        self.stub_left = deck  # cards left in the deck, named or counted
        self.mucked = 0
        self.ruled: set[int] = set()
        self.dead: set[int] = set()

    # -- state queries ---------------------------------------------------------------------
    @property
    def is_terminal(self) -> bool:
        return self.phase == SETTLED

    @property
    def live(self) -> list[int]:
        """Seats still in the hand (not folded), in order of play."""
        return [s for s in self.order if s not in self.folded]

    def is_all_in(self, seat: Any) -> bool:
        return seat not in self.folded and self.stacks[seat] == 0

    def to_call(self, seat: Any) -> int:
        """What ``seat`` must put in to match the bet (before capping at its stack)."""
        return self.current_bet - self.street[seat]

    def chips_total(self) -> int:
        """All chips this hand accounts for: stacks, the pot and the carried remainder."""
        return sum(self.stacks.values()) + self.pot + self.carry_out

    def results(self) -> dict[int, int]:
        """Net cents won (+) or lost (-) per seat; final once the hand is complete."""
        return {s: self.stacks[s] - self.start_stacks[s] for s in self.order}

    def current_pots(self) -> list[Pot]:
        """The main pot and side pots as they stand (the carry-in counts in the main pot)."""
        if self.is_terminal:
            return list(self.pots)
        pots = side_pots(self.total, set(self.live) - self.dead)
        if pots and self.carry_in:
            pots[0] = Pot(pots[0].amount + self.carry_in, pots[0].eligible)
        return pots

    def _others_can_act(self, seat: Any) -> bool:
        return any(s != seat and s not in self.folded and self.stacks[s] > 0 for s in self.order)

    def _raises_left(self) -> bool:
        cap = self.rules.raise_cap
        return cap is None or self.raises < cap

    # -- checks shared by the verify_* methods ---------------------------------------------
    def _turn(self, seat: Any, action: str, betting: bool) -> None:
        need = self.card_needed
        if need is not None:  # no decision jumps the queue while a card is due
            raise OutOfTurn("card_needed", f"cannot {action}: the dealer must first deal {need.describe()}")
        if self.phase == SETTLED:
            raise OutOfTurn("turn", f"cannot {action}: the hand is over")
        if self.phase == SHOWDOWN:
            raise OutOfTurn("turn", f"cannot {action}: it is the showdown")
        in_betting = self.phase in (FIRST_BETTING, SECOND_BETTING)
        if in_betting != betting:
            raise OutOfTurn("phase", f"cannot {action} during the {self.phase.replace('_', ' ')}")
        if type(seat) is not int or seat != self.to_act:  # a seat is its number: not 1.0, not True
            if type(seat) is not int or seat not in self.stacks:
                raise OutOfTurn("turn", f"seat {seat!r} is not in this hand")
            raise OutOfTurn("turn", f"it is seat {self.to_act}'s turn, not seat {seat}'s")

    def _put_in(self, seat: Any, amount: int, street: bool = True) -> None:
        self.stacks[seat] -= amount
        self.total[seat] += amount
        if street:
            self.street[seat] += amount
        self.pot += amount

    # -- the steps each part of the hand takes, defined beside it -------------------------
    def _start_betting(self, phase: str) -> None:
        raise NotImplementedError

    def _showdown(self) -> None:
        raise NotImplementedError

    def _settle_showdown(self) -> None:
        raise NotImplementedError

    def _finish_by_folds(self, winner: int) -> None:
        raise NotImplementedError

    def _drew(self, seat: Any, r: Any) -> None:
        raise NotImplementedError

    def _next_draw_card(self) -> None:
        raise NotImplementedError

    def _drive(self) -> None:
        raise NotImplementedError

    def _return_uncalled(self) -> None:
        raise NotImplementedError

    def _show_need(self) -> CardNeed | None:
        raise NotImplementedError

    @property
    def ruling_needed(self) -> int | None:
        raise NotImplementedError

    def __repr__(self) -> str:  # no cards: a repr ends up in logs and error reports
        return (
            f"<DrawHand #{self.number} {self.phase} to_act={self.to_act} "
            f"pot={money.format(self.pot)} seats={list(self.order)}>"
        )


class Dealing(NamedTuple):
    """What the dealer deals now when the room counts the face-down cards: ``cards`` cards to
    each of ``seats`` (the deal, five each; a draw, one seat); of all these, ``from_deck`` from
    the deck and ``from_muck`` from the muck shuffled into a new stub once the deck is out (the
    drawing player's own discards set aside)."""

    seats: tuple[int, ...]
    cards: int
    from_deck: int
    from_muck: int

    def to_json(self) -> dict[str, Any]:
        return {"seats": list(self.seats), "cards": self.cards, "from_deck": self.from_deck,
                "from_muck": self.from_muck}


class Drawing(NamedTuple):
    """A draw between the discard and its last card."""

    seat: Any  # as the draw was given (checked by verify_draw: the seat whose turn it is)
    discards: tuple[Card, ...]
    shown: Card | None
    received: list[Card]


def can(verify: Any, *args: Any) -> bool:
    try:
        verify(*args)
    except (IllegalAction, OutOfTurn, BadAmount):
        return False
    return True
