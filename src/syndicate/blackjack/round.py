"""One round of Blackjack: a pure state machine, its inputs applied as values.

The round owns no randomness. Chance is an action, as in OpenSpiel: whenever a card is needed
the round stops and says which (:attr:`Round.card_needed`, a :class:`~syndicate.core.shoe.CardNeed`),
and whoever drives it supplies the card with :meth:`Round.deal_card` (:func:`syndicate.core.play.deal_from`
from a shuffled shoe, or the dealer at a real-cards table). :func:`shuffled` makes a round that
deals from a committed shoe by itself, through the same path. docs/dealer.md has the whole API.
Its vocabulary follows OpenSpiel and PokerKit: :attr:`Round.phase` and :attr:`Round.to_act` say
whose turn it is, :meth:`Round.legal_actions` lists what they may do, and every action ``x`` has
a triad ``verify_x`` (raises a :class:`~syndicate.core.errors.RuleError` naming the rule),
``can_x`` and ``x`` (applies it and returns the record appended to :attr:`Round.log`); a logged
input is applied again with :meth:`Round.apply`, and :mod:`syndicate.core.play` builds replay and
take-back on it.

The sequence: betting → two dealing passes clockwise from the dealer's left (dealer one up,
one hole) → insurance and even money when the dealer shows an Ace → early surrender (if the
rules offer it) → the peek (per ``hole_card``) → naturals → each seat in order plays each of
its hands → the dealer reveals and draws → settlement.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core import money
from ..core.cards import Card, CardError, card
from ..core.errors import BadAmount, IllegalAction, OutOfTurn
from ..core.shoe import Shoe
from . import records as rec
from .course import (
    BETTING,
    DEALING,
    DOUBLE,
    EARLY_SURRENDER,
    HIT,
    INSURANCE,
    NO_INSURANCE,
    PLAYING,
    SETTLED,
    SPLIT,
    STAND,
    SURRENDER,
    Course,
)
from .hands import PlayerHand, Seat
from .refusals import (
    double_refusal,
    even_money_refusal,
    insurance_refusal,
    ok,
    refuse,
    split_refusal,
    surrender_refusal,
)
from .rules import Rules

# Records the engine writes by itself: what a take-back skips when looking for the last input.
_NOT_INPUTS = frozenset(("peek", "reveal", "payout", "take_back"))


def shuffled(rules: Rules, shoe: Shoe, stacks: Mapping[int, int]) -> Round:
    """A round dealt from a committed shuffled shoe: every card it needs is drawn at once."""
    return Round(rules, shoe, stacks, shoe)


class Round(Course):
    """One round at a Blackjack table: the inputs (bets, decisions, cards) over :class:`Course`."""

    def restart(self) -> Round:
        """The round as it was before any input: same rules, shoe, draw and starting stacks
        (chips bought during betting included)."""
        return Round(self.rules, self.shoe, {n: s.start_stack for n, s in self.seats.items()}, self._draw)

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
        return ok(self.verify_bet, seat, amount)

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
        return ok(self.verify_add_chips, seat, amount)

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
        return ok(self.verify_deal)

    def deal(self) -> rec.DealStarted:
        """Lock the bets and deal: two passes clockwise from the dealer's left."""
        self.verify_deal()
        shoe = self.shoe
        shoe.begin_round()
        return self._deal_from(shoe.position)

    def _deal_from(self, position: int) -> rec.DealStarted:
        """The deal, its first card at ``position`` in the shoe (a deal applied again keeps the
        position logged: the shoe has moved on since)."""
        order = [s for s in self.seats.values() if s.bet]
        self._order = order
        record = self._record(rec.DealStarted(tuple([s.number for s in order]), position))
        for s in order:
            s.hands.append(PlayerHand(s.number, 0, s.bet))
        self.phase = DEALING
        self._deal_k = 0
        self._ask_deal()
        return record

    # -- chance: the cards a dealer enters -------------------------------------------------
    def _entered_card(self, c: Any) -> Card:
        """The card ``c`` names, if the round may take it now (else the refusal, typed)."""
        if self._draw is not None:
            raise IllegalAction("card_source", "this round deals from a shuffled shoe: the engine draws its cards")
        if not self._need_why:
            raise OutOfTurn("card_not_needed", f"no card is needed now: {self._waiting_for()}")
        if not isinstance(c, (str, Card)):
            raise IllegalAction("card", f"a card is written as its rank and suit ('As') or its rank alone ('A'), got {c!r}")
        try:
            found = card(c, suitless=True)
        except CardError as e:
            raise IllegalAction("card", str(e)) from None
        why = self.shoe.refusal(found)
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
        return ok(self.verify_deal_card, c)

    def deal_card(self, c: Any) -> rec.CardDealt:
        """The card that landed where :attr:`card_needed` said: "As", "10h" or the rank alone
        ("A", "10", "K": a suitless card; its suit changes nothing at Blackjack)."""
        found = self._entered_card(c)
        self.shoe.take(found)
        return self._card(found)

    def last_input(self) -> int:
        """Index in the log of the last thing anyone did (a decision or an entered card), or -1:
        every record after it is what that input set off (a bust paid, the peek, the settlement)."""
        log = self.log
        for i in range(len(log) - 1, -1, -1):
            r = log[i]
            t = r.type
            if t in _NOT_INPUTS or (t == "stand" and r.auto):
                continue
            return i
        return -1

    def verify_take_back(self) -> None:
        """Only the last card entered may be taken back (:func:`syndicate.core.play.take_back`),
        until someone acts on it."""
        if self._draw is not None:
            raise IllegalAction("take_back", "this round deals from a shuffled shoe: there is no entered card to take back")
        i = self.last_input()
        if i < 0 or self.log[i].type != "card":
            raise IllegalAction(
                "take_back",
                "only the last card entered can be taken back, until someone acts on it"
                + (f": {self.log[i].type!r} came after it" if i >= 0 and self.log[i].type != "deal" else
                   ": no card has been entered since the deal began"),
            )

    def can_take_back(self) -> bool:
        return ok(self.verify_take_back)

    def taken_back(self, taken: rec.CardDealt) -> rec.TakenBack:
        """The rebuilt round's half of a take-back: the card goes back to the shoe's count and a
        ``take_back`` note into the log."""
        self.shoe.put_back(taken.card)
        return self._record(rec.TakenBack(taken.seat, taken.hand, taken.card, taken.face_up))

    def verify_shuffle_discards(self) -> None:
        """The dealer may shuffle the discards back into the shoe during a real-cards round (the
        count is the shoe's: :func:`syndicate.blackjack.real_cards.shuffle_discards`)."""
        if self._draw is not None:
            raise IllegalAction("card_source", "this round deals from a shuffled shoe: the engine shuffles its own")
        if self.phase == SETTLED:
            raise IllegalAction("shuffle_discards", "the round is over: between rounds a new shoe starts the count "
                                                    "again")

    def can_shuffle_discards(self) -> bool:
        return ok(self.verify_shuffle_discards)

    def apply(self, r: Any) -> None:
        """Apply one input of a logged round again: a decision, or a card (a round with a
        ``draw`` deals its cards itself, so their records are skipped, like every record the
        engine writes by itself). A card applied again is trusted: the shoe counted it when it
        was entered. ``take_back`` and ``shuffle`` notes are copied. Replays and take-backs go
        through here."""
        t = r.type
        if t == "card":
            if self._draw is None:
                if r.card is None:
                    raise ValueError("a hidden card cannot be replayed")
                if not self._need_why:
                    raise OutOfTurn("card_not_needed", f"no card is needed now: {self._waiting_for()}")
                self._card(r.card)
        elif t == "bet":
            self.bet(r.seat, r.amount)
        elif t == "withdraw" or t == "leave":
            self.leave(r.seat)
        elif t == "deal":
            self.verify_deal()
            self._deal_from(r.shoe_position)
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
            self.verify_shuffle_discards()
            self.log.append(r)

    def _card_due(self) -> None:
        """No decision may jump the queue while a card is needed."""
        need = self.card_needed
        if need is not None:
            raise OutOfTurn("card_needed", f"the dealer must first deal {need.describe()}")

    # -- insurance and even money --------------------------------------------------------
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
        refuse(insurance_refusal(self.rules, s))
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
        return ok(self.verify_insurance, seat, amount)

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
        return ok(self.verify_no_insurance, seat)

    def no_insurance(self, seat: Any) -> rec.InsuranceDeclined:
        self.verify_no_insurance(seat)
        record = self._record(rec.InsuranceDeclined(seat))
        self._next_in_queue()
        return record

    def verify_even_money(self, seat: Any) -> None:
        s = self._verify_insurance_turn(seat)
        refuse(even_money_refusal(self.rules, s))

    def can_even_money(self, seat: Any) -> bool:
        return ok(self.verify_even_money, seat)

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
        return ok(self.verify_play_on, seat)

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
        if type(seat) is not int or seat != s.number:
            raise OutOfTurn("turn", f"it is seat {s.number}'s turn, not seat {seat}'s")
        return s.hands[self._hand_i]

    def verify_hit(self, seat: Any) -> None:
        if self._is_legal(seat, HIT):
            return
        h = self._verify_turn(seat, HIT)
        if h.split_aces and not self.rules.hit_split_aces:
            raise IllegalAction("hit_split_aces", "split aces receive one card each and may not be hit")

    def can_hit(self, seat: Any) -> bool:
        return ok(self.verify_hit, seat)

    def hit(self, seat: Any) -> rec.Hit:
        self.verify_hit(seat)
        h = self._order[self._seat_i].hands[self._hand_i]
        record = self._record(rec.Hit(seat, h.index))
        self._give(h, HIT)
        return record

    def verify_stand(self, seat: Any) -> None:
        if self._is_legal(seat, STAND):
            return
        self._verify_turn(seat, STAND)

    def can_stand(self, seat: Any) -> bool:
        return ok(self.verify_stand, seat)

    def stand(self, seat: Any) -> rec.Stood:
        self.verify_stand(seat)
        return self._stand(self._order[self._seat_i].hands[self._hand_i], auto=False)

    def verify_double(self, seat: Any, amount: Any = None) -> None:
        """``amount`` defaults to the full original bet (or all the stack, doubling for less)."""
        if amount is None and self._is_legal(seat, DOUBLE):
            return
        h = self._verify_turn(seat, DOUBLE)
        refuse(double_refusal(self.rules, self._order[self._seat_i], h, amount))

    def can_double(self, seat: Any, amount: Any = None) -> bool:
        return ok(self.verify_double, seat, amount)

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
        self._give(h, DOUBLE)
        return record

    def verify_split(self, seat: Any) -> None:
        if self._is_legal(seat, SPLIT):
            return
        h = self._verify_turn(seat, SPLIT)
        refuse(split_refusal(self.rules, self._order[self._seat_i], h))

    def can_split(self, seat: Any) -> bool:
        return ok(self.verify_split, seat)

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
        self._give(h, SPLIT)
        return record

    def verify_surrender(self, seat: Any) -> None:
        if self._is_legal(seat, SURRENDER):
            return
        if self.phase == EARLY_SURRENDER:
            self.verify_play_on(seat)
            return
        h = self._verify_turn(seat, SURRENDER)
        refuse(surrender_refusal(self.rules, self._order[self._seat_i], h))

    def can_surrender(self, seat: Any) -> bool:
        return ok(self.verify_surrender, seat)

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
        return ok(self.verify_leave, seat)

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

