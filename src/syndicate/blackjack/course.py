"""The course of a Blackjack round: its state, whose turn it is, and the steps the dealer takes
by themself (the deal's order, the peek, naturals, moving from hand to hand, the dealer's draws,
the settlement). :class:`~syndicate.blackjack.round.Round` adds the inputs: bets, decisions and
cards.

The round never draws a card: whenever one is needed it stops at a chance node
(:attr:`Course.card_needed`, a :class:`~syndicate.core.shoe.CardNeed`) and goes on from
:meth:`Course._card` once the card is supplied. Given a ``draw`` (a committed shoe's), the round
deals the cards it needs from it before an input returns: one dealing path either way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core import money
from ..core.cards import Card
from ..core.errors import BadAmount, OutOfTurn
from ..core.shoe import CardNeed, CardSource, Shoe
from . import records as rec
from .hands import PlayerHand, Seat, hand_total
from .records import DEALER
from .refusals import double_refusal, even_money_refusal, insurance_refusal, split_refusal, surrender_refusal
from .rules import Rules
from .settlement import pay, pay_insurance, settle_all

BETTING = "betting"
DEALING = "dealing"  # the deal waits for its cards
INSURANCE = "insurance"
EARLY_SURRENDER = "early_surrender"
PLAYING = "playing"
DEALER_TURN = "dealer_turn"  # the dealer's draws wait for their cards
SETTLED = "settled"
PHASES = (BETTING, DEALING, INSURANCE, EARLY_SURRENDER, PLAYING, DEALER_TURN, SETTLED)

HIT, STAND, DOUBLE, SPLIT, SURRENDER = "hit", "stand", "double", "split", "surrender"
INSURE, NO_INSURANCE, EVEN_MONEY, PLAY_ON = "insurance", "no_insurance", "even_money", "play_on"


class Course:
    """A round's state and the dealer's own steps (see the module's docstring).

    ``stacks`` maps seat numbers (1 is the dealer's left; play goes in increasing order) to
    the chips each player has behind. Bets are taken from those stacks and payouts added
    back, so ``sum(stacks) + chips on the table + house result`` never changes. ``shoe`` is
    where the cards come from (its count refuses a card a dealer enters that it cannot hold);
    ``draw``, when given, is a committed shuffled shoe that deals every card needed at once,
    through the same path as a card a dealer enters (a native call in the compiled round).
    """

    def __init__(self, rules: Rules, shoe: CardSource, stacks: Mapping[int, int],
                 draw: Shoe | None = None) -> None:
        self.rules = rules
        self.shoe = shoe
        self._draw = draw
        seats = {}
        for number, stack in sorted(stacks.items()):
            if not isinstance(number, int) or not 1 <= number <= rules.seats:
                raise BadAmount("seats", f"seat {number!r} does not exist: seats are 1..{rules.seats}")
            if type(stack) is not int or stack < 0:
                money.check_held(stack)  # raises, naming the problem
            seats[number] = Seat(number, stack)
        self.seats: dict[int, Seat] = seats
        self.log: list[Any] = []
        self.phase = BETTING
        self.dealer: list[Card] = []
        self.hole_revealed = False
        self.dealer_blackjack: bool | None = None  # None until known
        self._order: list[Seat] = []  # seats dealt in, in playing order
        self._queue: list[Seat] = []  # seats owing an insurance / surrender decision
        self._seat_i = 0  # playing phase: index into _order
        self._hand_i = 0  # and into that seat's hands
        self._legal: list[str] = []
        self._legal_at = -1
        # The card needed, field by field ("" for why: none): the per-card path allocates no CardNeed.
        self._need_why = ""
        self._need_hand: PlayerHand | None = None  # None: the dealer's card
        self._need_up = True
        self._dealing = False  # draw given: the loop dealing the cards needed is running
        self._deal_k = 0  # how many of the deal's cards have been dealt

    # -- whose turn --------------------------------------------------------------------
    @property
    def to_act(self) -> int | None:
        """The seat whose decision the round waits for (``None`` while betting, while a card is
        needed, or when over)."""
        if self._need_why:
            return None
        phase = self.phase
        if phase == PLAYING:
            return self._order[self._seat_i].number
        if phase == INSURANCE or phase == EARLY_SURRENDER:
            return self._queue[0].number
        return None

    @property
    def card_needed(self) -> CardNeed | None:
        """The chance node the round waits at: which card it needs next, for whom (``None``: no
        card is needed; always ``None`` between inputs when the round has a ``draw``)."""
        why = self._need_why
        if not why:
            return None
        h = self._need_hand
        if h is None:
            return CardNeed(DEALER, 0, len(self.dealer), self._need_up, why)
        return CardNeed(h.seat, h.index, len(h.cards), True, why)

    @property
    def entered(self) -> bool:
        """Whether the round's cards are entered one by one (no ``draw``: a real-cards table)."""
        return self._draw is None

    @property
    def current_hand(self) -> PlayerHand | None:
        if self.phase != PLAYING:
            return None
        return self._order[self._seat_i].hands[self._hand_i]

    @property
    def is_terminal(self) -> bool:
        return self.phase == SETTLED

    @property
    def up_card(self) -> Card | None:
        return self.dealer[0] if self.dealer else None

    def legal_actions(self, seat: Any = None) -> list[str]:
        """What ``seat`` (default: whoever is to act) may do now, in the order a UI offers them.

        While betting every seat may ``bet`` and the dealer may ``deal``; after the deal any
        seat may ``leave`` (forfeiting its bets), which is not listed here.
        """
        phase = self.phase
        if phase == BETTING:
            return ["bet"] if seat is None or seat in self.seats else []
        actor = self.to_act
        if actor is None or (seat is not None and seat != actor):
            return []
        # Every change of state appends to the log, so the log's length keys the cache.
        if self._legal_at != len(self.log):
            self._legal = self._compute_legal()
            self._legal_at = len(self.log)
        return list(self._legal)

    def _is_legal(self, seat: Any, action: str) -> bool:
        """Fast path of the verify_* methods: the cached legal actions of the actor."""
        if type(seat) is not int or seat != self.to_act:
            return False
        if self._legal_at != len(self.log):
            self._legal = self._compute_legal()
            self._legal_at = len(self.log)
        return action in self._legal

    def _compute_legal(self) -> list[str]:
        phase = self.phase
        r = self.rules
        if phase == PLAYING:
            s = self._order[self._seat_i]
            h = s.hands[self._hand_i]
            if len(h.cards) != 2:  # double, split and surrender are for the first two cards
                return [HIT, STAND]
            out = [HIT, STAND] if self._can_hit() else [STAND]
            if double_refusal(r, s, h) is None:
                out.append(DOUBLE)
            if split_refusal(r, s, h) is None:
                out.append(SPLIT)
            if surrender_refusal(r, s, h) is None:
                out.append(SURRENDER)
            return out
        s = self._queue[0]
        if phase == INSURANCE:
            out = []
            if insurance_refusal(r, s) is None:
                out.append(INSURE)
            if even_money_refusal(r, s) is None:
                out.append(EVEN_MONEY)
            out.append(NO_INSURANCE)
            return out
        return [SURRENDER, PLAY_ON]  # EARLY_SURRENDER

    def _can_hit(self) -> bool:
        h = self._order[self._seat_i].hands[self._hand_i]
        return not (h.split_aces and not self.rules.hit_split_aces)

    # -- automatic steps -------------------------------------------------------------------
    def _after_deal(self) -> None:
        up = self.dealer[0]
        r = self.rules
        self.phase = INSURANCE
        if up.value == 1 and (r.insurance or r.even_money):
            self._queue = [
                s for s in self._order
                if insurance_refusal(r, s) is None or even_money_refusal(r, s) is None
            ]
            if self._queue:
                return
        self._after_insurance()

    def _after_insurance(self) -> None:
        up = self.dealer[0]
        if self.rules.surrender == "early" and up.value in (1, 10):
            self.phase = EARLY_SURRENDER
            self._queue = [s for s in self._order if not s.left and not s.hands[0].done and not s.hands[0].natural]
            if self._queue:
                return
        self._after_surrender()

    def _next_in_queue(self) -> None:
        self._queue.pop(0)
        if self._queue:
            return
        if self.phase == INSURANCE:
            self._after_insurance()
        else:
            self._after_surrender()

    def _after_surrender(self) -> None:
        self._queue = []
        up = self.dealer[0]
        r = self.rules
        could_have_blackjack = up.value in (1, 10)
        if not could_have_blackjack:
            self.dealer_blackjack = False
        if r.peeks and could_have_blackjack:
            bj = hand_total(self.dealer)[0] == 21
            self.dealer_blackjack = bj
            self.log.append(rec.Peeked(bj))
            if bj:
                self._reveal()
                self._settle_all()
                return
            for s in self._order:
                if s.insurance and not s.insurance_settled:
                    self._settle_insurance(s, "lose", 0)
        # Naturals are paid now once the dealer is known not to have blackjack (peek games);
        # without a peek, only under pay_naturals_immediately and with no Ace or ten showing.
        pay_now = (r.peeks and self.dealer_blackjack is False) or (
            r.pay_naturals_immediately and not could_have_blackjack
        )
        for s in self._order:
            h = s.hands[0]
            if h.hard == 11 and h.aces == 1 and len(h.cards) == 2 and not h.from_split:
                h.done = True
                if pay_now and not h.settled:
                    self._settle(h, "blackjack", h.bet + r.blackjack_win(h.bet))
        self.phase = PLAYING
        self._seat_i = 0
        self._hand_i = 0
        self._enter_hand()

    def _enter_hand(self) -> None:
        """Make the hand at the cursor ready for a decision, or move past it."""
        order = self._order
        while self._seat_i < len(order):
            s = order[self._seat_i]
            if self._hand_i < len(s.hands):
                h = s.hands[self._hand_i]
                if not h.done and not s.left:
                    if len(h.cards) == 1:  # a split hand's second card: _after_split_card goes on
                        self._give(h, SPLIT)
                        return
                    if self._settle_into_turn(h):
                        return
                self._hand_i += 1
            else:
                self._seat_i += 1
                self._hand_i = 0
        self._dealer_turn()

    def _settle_into_turn(self, h: PlayerHand) -> bool:
        """After a hand gets its second card: stand it by rule if it has no decision to make.
        Returns whether the hand now waits for its player."""
        r = self.rules
        if h.total == 21:
            self._stand(h, auto=True, advance=False)
            return False
        if h.split_aces and not r.hit_split_aces:
            s = self.seats[h.seat]
            if not (
                r.resplit_aces and h.cards[1].value == 1 and len(s.hands) < r.max_split_hands
                and s.stack >= s.bet
            ):
                self._stand(h, auto=True, advance=False)
                return False
        return True

    def _next_hand(self) -> None:
        self._hand_i += 1
        self._enter_hand()

    def _stand(self, h: PlayerHand, auto: bool, advance: bool = True) -> rec.Stood:
        h.done = True
        record = self._record(rec.Stood(h.seat, h.index, auto))
        if advance:
            self._next_hand()
        return record

    def _give(self, h: PlayerHand, why: str) -> None:
        """Ask for ``h``'s next card: :meth:`_card` goes on from there."""
        self._ask(h, True, why)

    def _bust(self, h: PlayerHand) -> None:
        # "the dealer collects their bet, and removes their hand from the table immediately"
        h.bust = h.done = True
        self._settle(h, "bust", 0)

    def _reveal(self) -> None:
        if not self.hole_revealed:
            self.hole_revealed = True
            self.log.append(rec.HoleRevealed(self.dealer[1]))

    def _dealer_turn(self) -> None:
        self._reveal()
        dealer = self.dealer
        self.dealer_blackjack = len(dealer) == 2 and hand_total(dealer)[0] == 21
        if not self.dealer_blackjack and self._any_live_hand():
            self.phase = DEALER_TURN
            self._dealer_draws()
            return
        self._settle_all()

    def _dealer_draws(self) -> None:
        """Ask for the dealer's next card while the rules make them draw."""
        total, soft = hand_total(self.dealer)
        if total < 17 or (total == 17 and soft and self.rules.dealer_hits_soft_17):
            self._ask(None, True, "dealer")
            return
        self._settle_all()

    def _any_live_hand(self) -> bool:
        """Is any hand still waiting for the dealer's total (not bust, surrendered or a natural)?"""
        for s in self._order:
            for h in s.hands:
                if not (h.settled or h.surrendered or h.natural):
                    return True
        return False

    def _settle_all(self) -> None:
        settle_all(self.rules, self._order, self.dealer, bool(self.dealer_blackjack), self.log)
        self.phase = SETTLED

    def _settle(self, h: PlayerHand, outcome: str, returned: int) -> None:
        pay(self.seats[h.seat], h, outcome, returned, self.log)

    def _settle_insurance(self, s: Seat, outcome: str, returned: int) -> None:
        pay_insurance(s, outcome, returned, self.log)

    # -- helpers -------------------------------------------------------------------------
    def _seat(self, seat: Any) -> Seat:
        s = self.seats.get(seat) if type(seat) is int else None  # a seat is its number: not True, not 1.0
        if s is None:
            raise OutOfTurn("seat", f"seat {seat!r} is not at this table (seats here: {sorted(self.seats)})")
        return s

    def _record(self, record: Any) -> Any:
        self.log.append(record)
        return record


    # -- chance: the round stops for each card, and goes on once it comes -----------------
    def _ask(self, hand: PlayerHand | None, face_up: bool, why: str) -> None:
        """Stop at a chance node: the next card of ``hand`` (``None``: the dealer's). With a ``draw``,
        deal from it every card needed from here on (a loop: each card's consequences may ask
        for the next one)."""
        self._need_hand = hand
        self._need_up = face_up
        self._need_why = why
        draw = self._draw
        if draw is None or self._dealing:
            return
        self._dealing = True
        try:
            while self._need_why:
                self._card(draw.draw())
        finally:
            self._dealing = False

    def _ask_deal(self) -> None:
        """The k-th card of the deal: two passes from the dealer's left, the dealer last."""
        n = len(self._order)
        k = self._deal_k
        first = k <= n
        i = k % (n + 1)
        if i < n:
            self._ask(self._order[i].hands[0], True, "deal")
        else:
            self._ask(None, first, "deal" if first else "hole")

    def _card(self, c: Card) -> rec.CardDealt:
        """Card ``c`` lands where :attr:`card_needed` said (trusted: already checked, or drawn
        from a committed shoe); the round goes on until its next stop."""
        why = self._need_why
        self._need_why = ""
        log = self.log
        h = self._need_hand
        if h is None:
            self.dealer.append(c)
            record = rec.CardDealt(DEALER, 0, c, self._need_up)
            log.append(record)
            if why == "dealer":
                self._dealer_draws()
            else:
                self._next_deal_card()
            return record
        h.add(c)
        record = rec.CardDealt(h.seat, h.index, c, True)
        log.append(record)
        if why == "deal":
            self._next_deal_card()
        elif why == HIT:
            self._after_hit(h)
        elif why == DOUBLE:
            self._after_double(h)
        else:
            self._after_split_card(h)
        return record

    def _next_deal_card(self) -> None:
        self._deal_k += 1
        if self._deal_k < 2 * len(self._order) + 2:
            self._ask_deal()
        else:
            self._after_deal()

    def _after_hit(self, h: PlayerHand) -> None:
        if h.hard > 21:
            self._bust(h)
            self._next_hand()
        elif h.total == 21:  # "A player may not hit any hand having a value of 21."
            self._stand(h, auto=True)

    def _after_double(self, h: PlayerHand) -> None:
        if h.hard > 21:
            self._bust(h)
            self._next_hand()
        else:
            self._stand(h, auto=True)

    def _after_split_card(self, h: PlayerHand) -> None:
        """A split hand got its second card: on to its decision, or past it by rule."""
        if not self._settle_into_turn(h):
            self._next_hand()

    # -- results -------------------------------------------------------------------------
    def results(self) -> dict[int, int]:
        """Each seat's net result in cents (positive: the player won)."""
        return {n: s.stack - s.start_stack for n, s in self.seats.items()}

    @property
    def house_result(self) -> int:
        """The house's net in cents once the round is settled."""
        return -sum(self.results().values()) if self.is_terminal else 0

    def stacks(self) -> dict[int, int]:
        return {n: s.stack for n, s in self.seats.items()}

    def dealer_total(self, visible_only: bool = True) -> int | None:
        if not self.dealer:
            return None
        if self.hole_revealed or not visible_only:
            return hand_total(self.dealer)[0]
        return hand_total(self.dealer[:1])[0]

    def __repr__(self) -> str:  # no cards: reprs end up in logs
        return f"<Round {self.phase}, seats {sorted(self.seats)}, to act: {self.to_act}>"
