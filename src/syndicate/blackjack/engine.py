"""One round of Blackjack: a pure state machine.

The round owns no randomness. Chance is explicit, as in OpenSpiel: whenever a card is needed
the round knows for whom (:attr:`Round.card_needed`, a :class:`~syndicate.core.shoe.CardNeed`). With a
committed :class:`~syndicate.core.shoe.Shoe` the round draws that card itself at once, so a seeded or
stacked shoe replays it exactly; with an :class:`~syndicate.core.shoe.EnteredShoe` (a real-cards
table) it stops and waits for the dealer's :meth:`Round.deal_card`, and the last card entered can
be taken back (:meth:`Round.take_back`) until someone acts on it. docs/dealer.md has the whole API. Its vocabulary follows OpenSpiel and
PokerKit: :attr:`Round.phase` and :attr:`Round.to_act` say whose turn it is,
:meth:`Round.legal_actions` lists what they may do, and every action ``x`` has a triad
``verify_x`` (raises a :class:`~syndicate.core.errors.RuleError` naming the rule),
``can_x`` and ``x`` (applies it and returns the record appended to :attr:`Round.log`).

The sequence: betting → two dealing passes clockwise from the dealer's left (dealer one up,
one hole) → insurance and even money when the dealer shows an Ace → early surrender (if the
rules offer it) → the peek (per ``hole_card``) → naturals → each seat in order plays each of
its hands → the dealer reveals and draws → settlement.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..core import money
from ..core.cards import Card, CardError, card
from ..core.errors import BadAmount, IllegalAction, OutOfTurn
from ..core.shoe import CardNeed, EnteredShoe, Shoe
from . import records as rec
from .records import DEALER
from .rules import Rules

BETTING = "betting"
DEALING = "dealing"  # only seen with entered cards: the deal waits for the dealer's cards
INSURANCE = "insurance"
EARLY_SURRENDER = "early_surrender"
PLAYING = "playing"
DEALER_TURN = "dealer_turn"  # only seen with entered cards: the dealer's draws wait for their cards
SETTLED = "settled"
PHASES = (BETTING, DEALING, INSURANCE, EARLY_SURRENDER, PLAYING, DEALER_TURN, SETTLED)

HIT, STAND, DOUBLE, SPLIT, SURRENDER = "hit", "stand", "double", "split", "surrender"
INSURE, NO_INSURANCE, EVEN_MONEY, PLAY_ON = "insurance", "no_insurance", "even_money", "play_on"
# Records the engine writes by itself: what a take-back skips when looking for the last input.
_NOT_INPUTS = frozenset(("peek", "reveal", "payout", "take_back"))


def hand_total(cards: Iterable[Card]) -> tuple[int, bool]:
    """Best total of a hand and whether it is soft (an Ace counted as 11)."""
    hard = 0
    ace = False
    for c in cards:
        hard += c.value
        if c.value == 1:
            ace = True
    if ace and hard <= 11:
        return hard + 10, True
    return hard, False


class PlayerHand:
    """One hand of a seat. A seat has several after splitting."""

    # Class-level defaults: a new hand sets only what differs (hands are made every round).
    hard = 0
    aces = 0
    doubled = False
    from_split = False
    split_aces = False
    done = False
    bust = False
    surrendered = False
    settled = False
    returned = 0
    outcome = ""

    def __init__(self, seat: int, index: int, bet: int) -> None:
        self.seat = seat
        self.index = index
        self.cards: list[Card] = []
        self.bet = bet  # the stake on this hand, the double included once doubled

    def add(self, c: Card) -> None:
        self.cards.append(c)
        v = c.value
        self.hard += v
        if v == 1:
            self.aces += 1

    @property
    def total(self) -> int:
        h = self.hard
        return h + 10 if self.aces and h <= 11 else h

    @property
    def soft(self) -> bool:
        return bool(self.aces) and self.hard <= 11

    @property
    def natural(self) -> bool:
        """A blackjack: Ace and ten as the first two cards of an unsplit hand."""
        return not self.from_split and len(self.cards) == 2 and self.hard == 11 and self.aces == 1

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "cards": [c.text for c in self.cards],
            "total": self.total,
            "soft": self.soft,
            "bet": self.bet,
            "doubled": self.doubled,
            "split": self.from_split,
            "blackjack": self.natural,
            "bust": self.bust,
            "surrendered": self.surrendered,
            "done": self.done,
            "outcome": self.outcome or None,
            "returned": self.returned if self.settled else None,
        }


class Seat:
    """A player's place at the table for this round."""

    bet = 0
    insurance = 0
    insurance_settled = False
    even_money = False
    left = False

    def __init__(self, number: int, stack: int) -> None:
        self.number = number
        self.stack = stack
        self.start_stack = stack
        self.hands: list[PlayerHand] = []

    @property
    def net(self) -> int:
        """What the seat has won (negative: lost) so far this round."""
        return self.stack - self.start_stack + self.at_risk

    @property
    def at_risk(self) -> int:
        """Chips on the table not yet settled."""
        total = 0 if self.insurance_settled else self.insurance
        for h in self.hands:
            if not h.settled:
                total += h.bet
        if not self.hands:
            total += self.bet
        return total


class Round:
    """One round at a Blackjack table.

    ``stacks`` maps seat numbers (1 is the dealer's left; play goes in increasing order) to
    the chips each player has behind. Bets are taken from those stacks and payouts added
    back, so ``sum(stacks) + chips on the table + house result`` never changes.
    """

    def __init__(self, rules: Rules, shoe: Shoe | EnteredShoe, stacks: Mapping[int, int]) -> None:
        self.rules = rules
        self.shoe = shoe
        # Exactly one of these is set: the shoe the round draws from itself, or the physical
        # shoe whose cards the dealer enters.
        self._draw: Shoe | None = shoe if isinstance(shoe, Shoe) else None
        self._entered: EnteredShoe | None = shoe if isinstance(shoe, EnteredShoe) else None
        if self._draw is None and self._entered is None:
            raise TypeError(f"a round's cards come from a Shoe or an EnteredShoe, not {type(shoe).__name__}")
        self._entered_at: tuple[int, list[int], list[int]] | None = (
            self._entered.state() if self._entered is not None else None)
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
        self._need: CardNeed | None = None
        self._deal_k = 0  # entered cards: how many of the deal's cards have been entered

    def _reset(self) -> None:
        """The round as :meth:`__init__` left it (keep the two in step): a take-back replays the
        inputs before the card taken back from here."""
        self.seats = {n: Seat(n, s.start_stack) for n, s in self.seats.items()}
        self.log = []
        self.phase = BETTING
        self.dealer = []
        self.hole_revealed = False
        self.dealer_blackjack = None
        self._order = []
        self._queue = []
        self._seat_i = 0
        self._hand_i = 0
        self._legal = []
        self._legal_at = -1
        self._need = None
        self._deal_k = 0

    # -- whose turn --------------------------------------------------------------------
    @property
    def to_act(self) -> int | None:
        """The seat whose decision the round waits for (``None`` while betting, while a card is
        needed, or when over)."""
        if self._need is not None:
            return None
        phase = self.phase
        if phase == PLAYING:
            return self._order[self._seat_i].number
        if phase == INSURANCE or phase == EARLY_SURRENDER:
            return self._queue[0].number
        return None

    @property
    def card_needed(self) -> CardNeed | None:
        """The chance node the round waits at: which card the dealer must enter next, for whom
        (``None``: no card is needed; always ``None`` with a shuffled shoe, which deals at once)."""
        return self._need

    @property
    def entered(self) -> bool:
        """Whether the dealer enters this round's cards (a real-cards table)."""
        return self._entered is not None

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
        if seat != self.to_act:
            return False
        if self._legal_at != len(self.log):
            self._legal = self._compute_legal()
            self._legal_at = len(self.log)
        return action in self._legal

    def _compute_legal(self) -> list[str]:
        phase = self.phase
        if phase == PLAYING:
            h = self._order[self._seat_i].hands[self._hand_i]
            if len(h.cards) != 2:  # double, split and surrender are for the first two cards
                return [HIT, STAND]
            out = [HIT, STAND] if self._can_hit() else [STAND]
            if self._double_refusal() is None:
                out.append(DOUBLE)
            if self._split_refusal() is None:
                out.append(SPLIT)
            if self._surrender_refusal() is None:
                out.append(SURRENDER)
            return out
        s = self._queue[0]
        if phase == INSURANCE:
            out = []
            if self._insurance_refusal(s) is None:
                out.append(INSURE)
            if self._even_money_refusal(s) is None:
                out.append(EVEN_MONEY)
            out.append(NO_INSURANCE)
            return out
        return [SURRENDER, PLAY_ON]  # EARLY_SURRENDER

    # -- betting -----------------------------------------------------------------------
    def verify_bet(self, seat: Any, amount: Any) -> None:
        if self.phase != BETTING:
            raise OutOfTurn("bets_locked", "bets are locked once the dealer starts dealing")
        s = self._seat(seat)
        r = self.rules
        if s.left:
            raise OutOfTurn("seat", f"seat {seat} has left the table")
        if amount is None:
            raise BadAmount("amount", "type an amount to bet")
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise BadAmount("amount", f"a bet is a whole number of cents, got {amount!r}")
        if not r.min_bet <= amount <= r.max_bet:
            raise BadAmount(
                "table_limits",
                f"a bet must be between {money.format(r.min_bet)} and {money.format(r.max_bet)}, "
                f"got {money.format(amount)}",
            )
        if amount > s.stack + s.bet:
            raise BadAmount("stack", f"seat {seat} has only {money.format(s.stack + s.bet)}")

    def can_bet(self, seat: Any, amount: Any) -> bool:
        return _ok(self.verify_bet, seat, amount)

    def bet(self, seat: Any, amount: Any) -> rec.BetPlaced:
        """Place (or change) ``seat``'s bet for this round."""
        self.verify_bet(seat, amount)
        s = self.seats[seat]
        s.stack += s.bet - amount
        s.bet = amount
        return self._record(rec.BetPlaced(seat, amount))

    def verify_add_chips(self, seat: Any, amount: Any) -> None:
        if self.phase != BETTING:
            raise OutOfTurn("cards_out", "the cards of this round are out: chips are bought before the deal "
                                         "or between rounds")
        s = self._seat(seat)
        if s.left:
            raise OutOfTurn("seat", f"seat {seat} has left the table")
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise BadAmount("amount", f"chips bought are a positive whole number of cents, got {amount!r}")

    def can_add_chips(self, seat: Any, amount: Any) -> bool:
        return _ok(self.verify_add_chips, seat, amount)

    def add_chips(self, seat: Any, amount: Any) -> None:
        """Chips bought while bets are open, before any card is out: they are the seat's from the
        start of the round (its starting stack grows with its stack, so a take-back replays the
        round from them and its ``net`` is unchanged). No record: it is no decision of the round."""
        self.verify_add_chips(seat, amount)
        s = self.seats[seat]
        s.stack += amount
        s.start_stack += amount

    def verify_deal(self) -> None:
        if self.phase != BETTING:
            raise OutOfTurn("deal", "the cards have already been dealt")
        for s in self.seats.values():
            if s.bet:
                return
        raise IllegalAction("deal", "no bets on the table: at least one player must bet")

    def can_deal(self) -> bool:
        return _ok(self.verify_deal)

    def deal(self) -> rec.DealStarted:
        """Lock the bets and deal: two passes clockwise from the dealer's left."""
        self.verify_deal()
        order = [s for s in self.seats.values() if s.bet]
        self._order = order
        shoe = self._draw
        if shoe is None:
            return self._deal_entered(order)
        shoe.begin_round()
        record = self._record(rec.DealStarted(tuple([s.number for s in order]), shoe.position))
        hands = []
        for s in order:
            h = PlayerHand(s.number, 0, s.bet)
            s.hands.append(h)
            hands.append(h)
        draw = shoe.draw
        log = self.log
        card_dealt = rec.CardDealt
        for face_up in (True, False):
            for h in hands:
                c = draw()
                h.add(c)
                log.append(card_dealt(h.seat, 0, c, True))
            c = draw()
            self.dealer.append(c)
            log.append(card_dealt(DEALER, 0, c, face_up))
        self._after_deal()
        return record

    def _deal_entered(self, order: list[Seat]) -> rec.DealStarted:
        entered = self._entered
        assert entered is not None
        entered.begin_round()
        record = self._record(rec.DealStarted(tuple([s.number for s in order]), entered.position))
        for s in order:
            s.hands.append(PlayerHand(s.number, 0, s.bet))
        self.phase = DEALING
        self._deal_k = 0
        self._need = self._deal_need()
        return record

    def _deal_need(self) -> CardNeed:
        """The k-th card of the deal: two passes from the dealer's left, the dealer last."""
        n = len(self._order)
        k = self._deal_k
        first = k <= n
        i = k % (n + 1)
        if i < n:
            return CardNeed(self._order[i].number, 0, 0 if first else 1, True, "deal")
        return CardNeed(DEALER, 0, 0 if first else 1, first, "deal" if first else "hole")

    # -- chance: the cards a dealer enters -------------------------------------------------
    def _entered_card(self, c: Any) -> Card:
        """The card ``c`` names, if the round may take it now (else the refusal, typed)."""
        entered = self._entered
        if entered is None:
            raise IllegalAction("card_source", "this round deals from a shuffled shoe: the engine draws its cards")
        if self._need is None:
            raise OutOfTurn("card_not_needed", f"no card is needed now: {self._waiting_for()}")
        if not isinstance(c, (str, Card)):
            raise IllegalAction("card", f"a card is written as its rank and suit ('As') or its rank alone ('A'), got {c!r}")
        try:
            found = card(c, suitless=True)
        except CardError as e:
            raise IllegalAction("card", str(e)) from None
        why = entered.refusal(found)
        if why is not None:
            raise IllegalAction("shoe_count", why)
        return found

    def _waiting_for(self) -> str:
        phase = self.phase
        if phase == BETTING:
            return "bets are open; the deal comes first"
        if phase == SETTLED:
            return "the round is over"
        return f"it is seat {self.to_act}'s turn to act"

    def verify_deal_card(self, c: Any) -> None:
        """A card the dealer entered: refused if none is needed, if it is not a card, or if the
        shoe cannot hold it (every card entered since it was filled counts)."""
        self._entered_card(c)

    def can_deal_card(self, c: Any) -> bool:
        return _ok(self.verify_deal_card, c)

    def deal_card(self, c: Any) -> rec.CardDealt:
        """The card that landed where :attr:`card_needed` said: "As", "10h" or the rank alone
        ("A", "10", "K": a suitless card; its suit changes nothing at Blackjack)."""
        found = self._entered_card(c)
        entered = self._entered
        assert entered is not None
        entered.take(found)
        return self._apply_card(found)

    def _apply_card(self, c: Card) -> rec.CardDealt:
        need = self._need
        assert need is not None
        self._need = None
        why = need.why
        if need.seat == DEALER:
            self.dealer.append(c)
            record = rec.CardDealt(DEALER, 0, c, need.face_up)
            self.log.append(record)
            if why == "dealer":
                self._dealer_draws()
            else:
                self._next_deal_card()
            return record
        h = self.seats[need.seat].hands[need.hand]
        h.add(c)
        record = rec.CardDealt(h.seat, h.index, c, True)
        self.log.append(record)
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
            self._need = self._deal_need()
        else:
            self._after_deal()

    @property
    def last_input(self) -> int:
        """Index in the log of the last thing anyone did (a decision or an entered card), or -1:
        every record after it is what that input set off (a bust paid, the peek, the settlement)."""
        return self._last_input()

    def _last_input(self) -> int:
        """Index in the log of the last thing anyone did (a decision or an entered card), or -1."""
        log = self.log
        for i in range(len(log) - 1, -1, -1):
            r = log[i]
            t = r.type
            if t in _NOT_INPUTS or (t == "stand" and r.auto):
                continue
            return i
        return -1

    def verify_take_back(self) -> None:
        if self._entered is None:
            raise IllegalAction("take_back", "this round deals from a shuffled shoe: there is no entered card to take back")
        i = self._last_input()
        if i < 0 or self.log[i].type != "card":
            raise IllegalAction(
                "take_back",
                "only the last card entered can be taken back, until someone acts on it"
                + (f": {self.log[i].type!r} came after it" if i >= 0 and self.log[i].type != "deal" else
                   ": no card has been entered since the deal began"),
            )

    def can_take_back(self) -> bool:
        return _ok(self.verify_take_back)

    def take_back(self) -> rec.TakenBack:
        """Undo the last card entered: the round is again exactly as before it (the same card is
        needed again), with a ``take_back`` note in the log. Seat and hand objects are rebuilt,
        so hold on to seat numbers rather than those objects."""
        self.verify_take_back()
        i = self._last_input()
        taken = self.log[i]
        inputs = self.log[:i]
        entered = self._entered
        assert entered is not None and self._entered_at is not None
        entered.restore(self._entered_at)
        self._reset()
        for r in inputs:
            self.apply_record(r)
        return self._record(rec.TakenBack(taken.seat, taken.hand, taken.card, taken.face_up))

    def verify_shuffle_discards(self) -> None:
        if self._entered is None:
            raise IllegalAction("card_source", "this round deals from a shuffled shoe: the engine shuffles its own")
        if self.phase == SETTLED:
            raise IllegalAction("shuffle_discards", "the round is over: between rounds a new shoe starts the count "
                                                    "again")

    def can_shuffle_discards(self) -> bool:
        return _ok(self.verify_shuffle_discards)

    def shuffle_discards(self) -> rec.Shuffled:
        """The shoe ran low during the round and the dealer shuffled the discard tray back into it,
        as a real dealer does: every card dealt from the shoe goes back to the count but the
        cards of this round, which are on the table."""
        self.verify_shuffle_discards()
        entered = self._entered
        assert entered is not None
        on_table = [r.card for r in self.log if r.type == "card"]
        returned = entered.reshuffle(on_table)
        return self._record(rec.Shuffled(returned, len(on_table)))

    def apply_record(self, r: Any) -> None:
        """Apply one input of a logged round again: a decision, or an entered card (with a
        shuffled shoe the engine deals its cards itself, so their records are skipped, like every
        record the engine writes by itself). A ``take_back`` note is copied: the card it took
        back is not in the log. Replays and take-backs go through here."""
        t = r.type
        if t == "card":
            if self._entered is not None:
                if r.card is None:
                    raise ValueError("a hidden card cannot be replayed")
                self.deal_card(r.card)
        elif t == "bet":
            self.bet(r.seat, r.amount)
        elif t == "withdraw" or t == "leave":
            self.leave(r.seat)
        elif t == "deal":
            self.deal()
        elif t == "insurance":
            self.insurance(r.seat, r.amount)
        elif t == "no_insurance":
            self.no_insurance(r.seat)
        elif t == "even_money":
            self.even_money(r.seat)
        elif t == "play_on":
            self.play_on(r.seat)
        elif t == "surrender":
            self.surrender(r.seat)
        elif t == "hit":
            self.hit(r.seat)
        elif t == "stand":
            if not r.auto:
                self.stand(r.seat)
        elif t == "double":
            self.double(r.seat, r.amount)
        elif t == "split":
            self.split(r.seat)
        elif t == "take_back":
            self.log.append(r)
        elif t == "shuffle":
            self.shuffle_discards()

    def _card_due(self) -> None:
        """No decision may jump the queue while a card is needed."""
        need = self._need
        if need is not None:
            raise OutOfTurn("card_needed", f"the dealer must first deal {need.describe()}")

    # -- insurance and even money --------------------------------------------------------
    def _insurance_refusal(self, s: Seat) -> str | None:
        if not self.rules.insurance:
            return "insurance: this table does not offer insurance"
        if s.bet // 2 < 1 or s.stack < 1:
            return "insurance: not enough chips for an insurance bet"
        return None

    def _even_money_refusal(self, s: Seat) -> str | None:
        if not self.rules.even_money:
            return "even_money: this table does not offer even money"
        if not s.hands[0].natural:
            return "even_money: even money is offered only on a blackjack"
        return None

    def _verify_insurance_turn(self, seat: Any) -> Seat:
        self._card_due()
        if self.phase != INSURANCE:
            raise OutOfTurn("insurance", "insurance is offered only when the dealer shows an Ace, before play")
        s = self._queue[0]
        if seat != s.number:
            raise OutOfTurn("turn", f"it is seat {s.number}'s turn to decide on insurance, not seat {seat}'s")
        return s

    def verify_insurance(self, seat: Any, amount: Any = None) -> None:
        s = self._verify_insurance_turn(seat)
        _refuse(self._insurance_refusal(s))
        if amount is not None:
            if isinstance(amount, bool) or not isinstance(amount, int) or amount < 1:
                raise BadAmount("insurance", f"an insurance bet is a positive number of cents, got {amount!r}")
            if amount > s.bet // 2:
                raise BadAmount(
                    "insurance",
                    f"insurance is up to half the original bet: at most {money.format(s.bet // 2)}",
                )
            if amount > s.stack:
                raise BadAmount("stack", f"seat {seat} has only {money.format(s.stack)}")

    def can_insurance(self, seat: Any, amount: Any = None) -> bool:
        return _ok(self.verify_insurance, seat, amount)

    def insurance(self, seat: Any, amount: Any = None) -> rec.InsuranceTaken:
        """Take insurance, up to half the original bet (default: as much as allowed)."""
        self.verify_insurance(seat, amount)
        s = self._queue[0]
        if amount is None:
            amount = min(s.bet // 2, s.stack)
        s.stack -= amount
        s.insurance = amount
        record = self._record(rec.InsuranceTaken(seat, amount))
        self._next_in_queue()
        return record

    def verify_no_insurance(self, seat: Any) -> None:
        if self._is_legal(seat, NO_INSURANCE):
            return
        self._verify_insurance_turn(seat)

    def can_no_insurance(self, seat: Any) -> bool:
        return _ok(self.verify_no_insurance, seat)

    def no_insurance(self, seat: Any) -> rec.InsuranceDeclined:
        self.verify_no_insurance(seat)
        record = self._record(rec.InsuranceDeclined(seat))
        self._next_in_queue()
        return record

    def verify_even_money(self, seat: Any) -> None:
        s = self._verify_insurance_turn(seat)
        _refuse(self._even_money_refusal(s))

    def can_even_money(self, seat: Any) -> bool:
        return _ok(self.verify_even_money, seat)

    def even_money(self, seat: Any) -> rec.EvenMoneyTaken:
        """Take even money on a blackjack against an Ace: paid 1:1 now, whatever the hole card."""
        self.verify_even_money(seat)
        s = self._queue[0]
        s.even_money = True
        record = self._record(rec.EvenMoneyTaken(seat))
        h = s.hands[0]
        h.done = True
        self._settle(h, "even_money", 2 * h.bet)
        self._next_in_queue()
        return record

    # -- early surrender -------------------------------------------------------------------
    def verify_play_on(self, seat: Any) -> None:
        self._card_due()
        if self.phase != EARLY_SURRENDER:
            raise OutOfTurn("surrender", "play_on answers the early-surrender offer, which is not open")
        if seat != self._queue[0].number:
            raise OutOfTurn("turn", f"it is seat {self._queue[0].number}'s turn, not seat {seat}'s")

    def can_play_on(self, seat: Any) -> bool:
        return _ok(self.verify_play_on, seat)

    def play_on(self, seat: Any) -> rec.PlayedOn:
        self.verify_play_on(seat)
        record = self._record(rec.PlayedOn(seat))
        self._next_in_queue()
        return record

    # -- playing -----------------------------------------------------------------------
    def _verify_turn(self, seat: Any, action: str) -> PlayerHand:
        self._card_due()
        if self.phase != PLAYING:
            raise OutOfTurn("turn", f"{action}: no hand is being played now (phase: {self.phase})")
        s = self._order[self._seat_i]
        if seat != s.number:
            raise OutOfTurn("turn", f"it is seat {s.number}'s turn, not seat {seat}'s")
        return s.hands[self._hand_i]

    def _can_hit(self) -> bool:
        h = self._order[self._seat_i].hands[self._hand_i]
        return not (h.split_aces and not self.rules.hit_split_aces)

    def verify_hit(self, seat: Any) -> None:
        if self._is_legal(seat, HIT):
            return
        h = self._verify_turn(seat, HIT)
        if h.split_aces and not self.rules.hit_split_aces:
            raise IllegalAction("hit_split_aces", "split aces receive one card each and may not be hit")

    def can_hit(self, seat: Any) -> bool:
        return _ok(self.verify_hit, seat)

    def hit(self, seat: Any) -> rec.Hit:
        self.verify_hit(seat)
        h = self._order[self._seat_i].hands[self._hand_i]
        record = self._record(rec.Hit(seat, h.index))
        if self._give(h, HIT):
            self._after_hit(h)
        return record

    def _after_hit(self, h: PlayerHand) -> None:
        if h.hard > 21:
            self._bust(h)
            self._next_hand()
        elif h.total == 21:  # "A player may not hit any hand having a value of 21."
            self._stand(h, auto=True)

    def verify_stand(self, seat: Any) -> None:
        if self._is_legal(seat, STAND):
            return
        self._verify_turn(seat, STAND)

    def can_stand(self, seat: Any) -> bool:
        return _ok(self.verify_stand, seat)

    def stand(self, seat: Any) -> rec.Stood:
        self.verify_stand(seat)
        return self._stand(self._order[self._seat_i].hands[self._hand_i], auto=False)

    def _double_refusal(self, amount: Any = None) -> str | None:
        s = self._order[self._seat_i]
        h = s.hands[self._hand_i]
        r = self.rules
        if len(h.cards) != 2 or h.doubled:
            return "double: you may double only on your first two cards"
        if h.from_split and not r.double_after_split:
            return "double_after_split: this table does not allow doubling after a split"
        if h.split_aces and not r.hit_split_aces:
            return "hit_split_aces: split aces receive one card each and may not be doubled"
        on = r.double_on
        if on != "any":
            total = h.total
            lo = 9 if on == "9-11" else 10
            if not lo <= total <= 11:
                return f"double_on: this table allows doubling only on {on}; this hand totals {total}"
        if amount is None:
            need = 1 if r.double_for_less else h.bet
            if s.stack < need:
                return f"stack: doubling needs {money.format(need)} and seat {s.number} has {money.format(s.stack)}"
            return None
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 1:
            return f"amount: a double is a positive number of cents, got {amount!r}"
        if amount > h.bet:
            return f"double_amount: a double is at most the original bet ({money.format(h.bet)})"
        if amount < h.bet and not r.double_for_less:
            return f"double_for_less: this table requires doubling for the full {money.format(h.bet)}"
        if amount > s.stack:
            return f"stack: seat {s.number} has only {money.format(s.stack)}"
        return None

    def verify_double(self, seat: Any, amount: Any = None) -> None:
        """``amount`` defaults to the full original bet (or all the stack, doubling for less)."""
        if amount is None and self._is_legal(seat, DOUBLE):
            return
        self._verify_turn(seat, DOUBLE)
        _refuse(self._double_refusal(amount))

    def can_double(self, seat: Any, amount: Any = None) -> bool:
        return _ok(self.verify_double, seat, amount)

    def double(self, seat: Any, amount: Any = None) -> rec.Doubled:
        """Double down: add up to the original bet, take exactly one card, stand."""
        self.verify_double(seat, amount)
        s = self._order[self._seat_i]
        h = s.hands[self._hand_i]
        if amount is None:
            amount = min(h.bet, s.stack)
        s.stack -= amount
        h.bet += amount
        h.doubled = True
        record = self._record(rec.Doubled(seat, h.index, amount))
        if self._give(h, DOUBLE):
            self._after_double(h)
        return record

    def _after_double(self, h: PlayerHand) -> None:
        if h.hard > 21:
            self._bust(h)
            self._next_hand()
        else:
            self._stand(h, auto=True)

    def _split_refusal(self) -> str | None:
        s = self._order[self._seat_i]
        h = s.hands[self._hand_i]
        r = self.rules
        if len(h.cards) != 2:
            return "split: only the first two cards of a hand can be split"
        a, b = h.cards
        if a.value != b.value:
            return "split: only a pair (two cards of the same value) can be split"
        if r.split_by == "rank" and a.rank != b.rank:
            return "split_by: only a pair of the same rank can be split at this table (not a ten and a face)"
        if len(s.hands) >= r.max_split_hands:
            return f"max_split_hands: at most {r.max_split_hands} hands from one seat"
        if h.split_aces and not r.resplit_aces:
            return "resplit_aces: split aces may not be split again at this table"
        if s.stack < s.bet:
            return f"stack: splitting needs another {money.format(s.bet)}"
        return None

    def verify_split(self, seat: Any) -> None:
        if self._is_legal(seat, SPLIT):
            return
        self._verify_turn(seat, SPLIT)
        _refuse(self._split_refusal())

    def can_split(self, seat: Any) -> bool:
        return _ok(self.verify_split, seat)

    def split(self, seat: Any) -> rec.Split:
        """Split a pair into two hands, the new one with a bet equal to the original."""
        self.verify_split(seat)
        s = self._order[self._seat_i]
        h = s.hands[self._hand_i]
        amount = s.bet
        s.stack -= amount
        new = PlayerHand(seat, len(s.hands), amount)
        new.from_split = True
        moved = h.cards.pop()
        h.hard -= moved.value
        if moved.value == 1:
            h.aces -= 1
        new.add(moved)
        h.from_split = True
        aces = moved.value == 1
        h.split_aces = new.split_aces = aces
        s.hands.insert(self._hand_i + 1, new)
        for i, hand in enumerate(s.hands):
            hand.index = i
        record = self._record(rec.Split(seat, h.index, new.index, amount))
        if self._give(h, SPLIT):
            self._after_split_card(h)
        return record

    def _after_split_card(self, h: PlayerHand) -> None:
        """A split hand got its second card: on to its decision, or past it by rule."""
        if not self._settle_into_turn(h):
            self._next_hand()

    def _surrender_refusal(self) -> str | None:
        s = self._order[self._seat_i]
        h = s.hands[self._hand_i]
        if self.rules.surrender == "none":
            return "surrender: this table does not allow surrender"
        if len(s.hands) != 1 or len(h.cards) != 2:
            return "surrender: you may surrender only your first two cards, before any other decision"
        return None

    def verify_surrender(self, seat: Any) -> None:
        if self._is_legal(seat, SURRENDER):
            return
        if self.phase == EARLY_SURRENDER:
            self.verify_play_on(seat)
            return
        self._verify_turn(seat, SURRENDER)
        _refuse(self._surrender_refusal())

    def can_surrender(self, seat: Any) -> bool:
        return _ok(self.verify_surrender, seat)

    def surrender(self, seat: Any) -> rec.Surrendered:
        """Give up the hand and lose half the bet (settled with the dealer's hand)."""
        self.verify_surrender(seat)
        if self.phase == EARLY_SURRENDER:
            s = self._queue[0]
            h = s.hands[0]
            h.surrendered = h.done = True
            record = self._record(rec.Surrendered(seat, 0))
            self._next_in_queue()
            return record
        h = self._order[self._seat_i].hands[self._hand_i]
        h.surrendered = h.done = True
        record = self._record(rec.Surrendered(seat, h.index))
        self._next_hand()
        return record

    # -- leaving -------------------------------------------------------------------------
    def verify_leave(self, seat: Any) -> None:
        s = self._seat(seat)
        self._card_due()
        if s.left:
            raise IllegalAction("leave", f"seat {seat} has already left")
        if self.phase == SETTLED:
            raise IllegalAction("leave", "the round is over: nothing to forfeit")

    def can_leave(self, seat: Any) -> bool:
        return _ok(self.verify_leave, seat)

    def leave(self, seat: Any) -> rec.BetWithdrawn | rec.Left:
        """Leave the table. Before the deal the bet comes back; once the dealer starts dealing
        "a player who leaves at this stage will forfeit his bet" (every bet on the table)."""
        self.verify_leave(seat)
        s = self.seats[seat]
        if self.phase == BETTING:
            amount = s.bet
            s.stack += amount
            s.bet = 0
            s.left = True
            return self._record(rec.BetWithdrawn(seat, amount))
        s.left = True
        if not s.hands:  # seated but not dealt in
            return self._record(rec.Left(seat))
        record = self._record(rec.Left(seat))
        for h in s.hands:
            if not h.settled:
                h.done = True
                self._settle(h, "forfeit", 0)
        if s.insurance and not s.insurance_settled:
            self._settle_insurance(s, "forfeit", 0)
        # Their pending decision, if any, goes away with them.
        if self.phase in (INSURANCE, EARLY_SURRENDER) and s in self._queue:
            if self._queue[0] is s:
                self._next_in_queue()
            else:
                self._queue.remove(s)
        elif self.phase == PLAYING and self._order[self._seat_i] is s:
            self._next_hand()
        return record

    # -- automatic steps -------------------------------------------------------------------
    def _after_deal(self) -> None:
        up = self.dealer[0]
        r = self.rules
        self.phase = INSURANCE
        if up.value == 1 and (r.insurance or r.even_money):
            self._queue = [
                s for s in self._order
                if self._insurance_refusal(s) is None or self._even_money_refusal(s) is None
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
                    # The second card of a split hand; entered cards: _after_split_card goes on.
                    if len(h.cards) == 1 and not self._give(h, SPLIT):
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

    def _give(self, h: PlayerHand, why: str) -> bool:
        """Deal ``h`` its next card from the shoe. With entered cards, ask for it instead and
        return False: :meth:`deal_card` goes on from there."""
        shoe = self._draw
        if shoe is None:
            self._need = CardNeed(h.seat, h.index, len(h.cards), True, why)
            return False
        c = shoe.draw()
        h.add(c)
        self.log.append(rec.CardDealt(h.seat, h.index, c, True))
        return True

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
        total, soft = hand_total(dealer)
        self.dealer_blackjack = total == 21 and len(dealer) == 2
        if not self.dealer_blackjack and self._any_live_hand():
            shoe = self._draw
            if shoe is None:
                self.phase = DEALER_TURN
                self._dealer_draws()
                return
            h17 = self.rules.dealer_hits_soft_17
            draw = shoe.draw
            log = self.log
            hard = total - 10 if soft else total
            aces = soft or any(c.value == 1 for c in dealer)
            while total < 17 or (total == 17 and soft and h17):
                c = draw()
                dealer.append(c)
                log.append(rec.CardDealt(DEALER, 0, c, True))
                hard += c.value
                aces = aces or c.value == 1
                soft = aces and hard <= 11
                total = hard + 10 if soft else hard
        self._settle_all()

    def _dealer_draws(self) -> None:
        """Entered cards: ask for the dealer's next card while the rules make them draw."""
        total, soft = hand_total(self.dealer)
        if total < 17 or (total == 17 and soft and self.rules.dealer_hits_soft_17):
            self._need = CardNeed(DEALER, 0, len(self.dealer), True, "dealer")
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
        r = self.rules
        dealer_total = hand_total(self.dealer)[0]
        dealer_bj = bool(self.dealer_blackjack)
        dealer_bust = dealer_total > 21
        # Read only against a dealer blackjack: the common round pays no rule lookup for it.
        counts_busts = dealer_bj and r.obo_split_bust == "counts"
        for s in self._order:
            if s.insurance and not s.insurance_settled:
                if dealer_bj:
                    self._settle_insurance(s, "win", 3 * s.insurance)
                else:
                    self._settle_insurance(s, "lose", 0)
            # no_peek_obo: a dealer blackjack collects, over all of a seat's hands still on the
            # table, only the original bet. A split hand that busted was collected when it
            # busted: under obo_split_bust="counts" that payment counts toward the original bet,
            # under "lost" it does not (Jupiter's 5.5.3 before 7.3).
            owed = 0
            if dealer_bj:
                owed = s.bet
                if counts_busts:
                    for h in s.hands:
                        if h.bust:
                            owed -= h.bet
                    if owed < 0:
                        owed = 0
            for h in s.hands:
                if h.settled:
                    continue
                if h.surrendered:
                    if dealer_bj and r.surrender == "late":
                        self._settle(h, "lose", 0)  # late surrender cannot escape a blackjack
                    else:
                        self._settle(h, "surrender", h.bet // 2)  # the house keeps an odd cent
                elif h.natural:
                    if dealer_bj:
                        self._settle(h, "push", h.bet)
                    else:
                        self._settle(h, "blackjack", h.bet + r.blackjack_win(h.bet))
                elif dealer_bj:
                    if r.hole_card == "no_peek_all":
                        self._settle(h, "lose", 0)
                    else:
                        take = min(owed, h.bet)
                        owed -= take
                        self._settle(h, "lose" if take else "push", h.bet - take)
                else:
                    t = h.total
                    if dealer_bust or t > dealer_total:
                        self._settle(h, "win", 2 * h.bet)
                    elif t == dealer_total:
                        self._settle(h, "push", h.bet)
                    else:
                        self._settle(h, "lose", 0)
        self.phase = SETTLED

    def _settle(self, h: PlayerHand, outcome: str, returned: int) -> None:
        s = self.seats[h.seat]
        h.settled = True
        h.outcome = outcome
        h.returned = returned
        s.stack += returned
        self.log.append(rec.Paid(h.seat, h.index, outcome, returned, returned - h.bet))

    def _settle_insurance(self, s: Seat, outcome: str, returned: int) -> None:
        s.insurance_settled = True
        s.stack += returned
        self.log.append(rec.Paid(s.number, -1, "insurance_" + outcome, returned, returned - s.insurance))

    # -- helpers -------------------------------------------------------------------------
    def _seat(self, seat: Any) -> Seat:
        s = self.seats.get(seat) if isinstance(seat, int) else None
        if s is None:
            raise OutOfTurn("seat", f"seat {seat!r} is not at this table (seats here: {sorted(self.seats)})")
        return s

    def _record(self, record: Any) -> Any:
        self.log.append(record)
        return record

    # -- results and views -----------------------------------------------------------------
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

    def view(self, viewer: int | str = "spectator") -> dict[str, Any]:
        """What ``viewer`` (a seat number, ``"spectator"`` or ``"dealer"``) may see.

        Every player's cards are dealt face up, so all views show them; the hole card shows in
        no view until it is revealed, and the shoe's order is never shown.
        """
        dealer_cards: list[str | None] = [c.text for c in self.dealer]
        if len(dealer_cards) > 1 and not self.hole_revealed:
            dealer_cards[1] = None
        to_act = self.to_act
        you = viewer if isinstance(viewer, int) and viewer in self.seats else None
        hand = self.current_hand
        need = self._need
        shoe = self.shoe
        return {
            "game": "blackjack",
            "phase": self.phase,
            "viewer": viewer,
            "to_act": to_act,
            "acting_hand": hand.index if hand is not None else None,
            "legal_actions": self.legal_actions(you) if you is not None else [],
            "card_needed": need.to_json() if need is not None else None,
            "dealer": {
                "cards": dealer_cards,
                "total": self.dealer_total(),
                "blackjack": self.dealer_blackjack if self.hole_revealed or self.dealer_blackjack is False else None,
            },
            "seats": [
                {
                    "seat": s.number,
                    "stack": s.stack,
                    "bet": s.bet,
                    "insurance": s.insurance,
                    "even_money": s.even_money,
                    "left": s.left,
                    "net": s.stack - s.start_stack if self.is_terminal else None,
                    "hands": [h.to_json() for h in s.hands],
                }
                for s in self.seats.values()
            ],
            "shoe": {
                "decks": shoe.decks,
                "remaining": shoe.remaining,
                "commitment": shoe.commitment,
                "entered": self._entered is not None,
            },
        }

    def log_view(self, viewer: int | str = "spectator") -> list[dict[str, Any]]:
        """The log as ``viewer`` may see it: the hole card is ``None`` until revealed (a hole
        card taken back as well)."""
        out = []
        for r in self.log:
            d = rec.to_json(r)
            if (r.type == "card" or r.type == "take_back") and not r.face_up and not self.hole_revealed:
                d["card"] = None
            out.append(d)
        return out

    def __repr__(self) -> str:  # no cards: reprs end up in logs
        return f"<Round {self.phase}, seats {sorted(self.seats)}, to act: {self.to_act}>"


# Refusals about how much (rather than whether) are BadAmount; the rest IllegalAction.
_AMOUNT_RULES = frozenset(("amount", "double_amount", "stack", "double_for_less"))


def _refuse(why: str | None) -> None:
    """Raise the typed error for a refusal written as "rule: message" (None: allowed)."""
    if why:
        rule, msg = why.split(": ", 1)
        raise (BadAmount if rule in _AMOUNT_RULES else IllegalAction)(rule, msg)


def _ok(verify: Any, *args: Any) -> bool:
    try:
        verify(*args)
    except (OutOfTurn, IllegalAction, BadAmount):
        return False
    return True
