"""Five-card draw: the table's rules and the state machine of one hand.

The same shape as the Blackjack engine (and PokerKit's): :attr:`DrawHand.phase` and
:attr:`DrawHand.to_act` say whose turn it is, :meth:`DrawHand.legal_actions` lists what they
may do, and every action ``x`` is a triad ``verify_x`` (raises a :class:`RuleError` naming
the rule) / ``can_x`` / ``x`` (applies it and returns a frozen record, also appended to
:attr:`DrawHand.log`). A refused action changes nothing.

The engine is pure, and chance is explicit (OpenSpiel's chance nodes): with a committed
:class:`Shoe` the hand draws each card itself, so a hand is a function of (rules, stacks,
button, shoe, decisions) and replays exactly; with an :class:`EnteredShoe` (a real-cards table)
it stops at every card, says which it needs (:attr:`DrawHand.card_needed`) and waits for the
dealer's :meth:`DrawHand.deal_card`; the last card entered can be taken back until someone acts
on it (:meth:`DrawHand.take_back`). With an ``EnteredShoe(shown_only=True)`` (what a real
dealer sees) the face-down cards are counted, never named: a draw is a number of cards, and only
the hands shown at the showdown are entered (:attr:`DrawHand.to_deal` says what the dealer deals
meanwhile). See docs/dealer.md.

Seats are integers; play goes clockwise, which is increasing seat number, wrapping round.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from ..core import money
from ..core.cards import Card, CardError, card
from ..core.errors import BadAmount, ConfigError, IllegalAction, OutOfTurn
from ..core.shoe import CardNeed, ShoeError
from . import records as rec
from .rules import DrawRules
from .showdown import DrawAndShowdown
from .state import DEALING, FIRST_BETTING, Dealer, Dealing, can


@lru_cache(maxsize=512)
def deal_needs(order: tuple[int, ...]) -> tuple[CardNeed, ...]:
    """The deal's cards in the order they are dealt: one at a time round the table, five times."""
    return tuple(CardNeed(s, 0, k, False, "deal") for k in range(5) for s in order)


@lru_cache(maxsize=512)
def draw_need(seat: Any, slot: int) -> CardNeed:
    """A card of ``seat``'s draw, the ``slot``-th of its hand."""
    return CardNeed(seat, 0, slot, False, "draw")


class DrawHand(DrawAndShowdown):
    """One hand of five-card draw, from the antes to the last chip pushed.

    ``stacks`` maps each seat dealt in to the chips in front of it (all positive). Antes
    are posted and five cards dealt as the hand is created; it then waits for the first
    decision. ``carry_in`` is the remainder a previous tied pot could not split: it joins
    this hand's main pot. Chips are conserved at every step:
    ``sum(stacks) + pot + carry_out == sum(starting stacks) + carry_in``.
    """

    def __init__(
        self,
        rules: DrawRules,
        stacks: Mapping[int, int],
        button: Any,
        *,
        dealer: Dealer | None = None,
        deck: int = 52,
        entered: bool = False,
        shown_only: bool = False,
        shuffles_stub: bool = True,
        carry_in: Any = 0,
        number: int = 1,
    ) -> None:
        if not rules.min_players <= len(stacks) <= rules.max_players:
            raise ConfigError(
                f"five-card draw seats {rules.min_players}..{rules.max_players} players, "
                f"got {len(stacks)}"
            )
        for seat, stack in stacks.items():
            if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
                raise ConfigError(f"seats are non-negative integers, got {seat!r}")
            money.check_held(stack)
            if stack <= 0:
                raise BadAmount("stack", f"seat {seat} has no chips and cannot be dealt in")
        if button not in stacks:
            raise ConfigError(f"the button must be on a seat dealt in, got {button!r}")
        money.check_held(carry_in)
        if shown_only and not entered:
            raise ConfigError("only the cards shown are entered at a real-cards table: shown_only needs entered")
        if (dealer is None) == (not entered):
            raise ConfigError("a hand's cards are either entered by the dealer or dealt by a dealer given to it")
        super().__init__(rules, stacks, button, dealer=dealer, deck=deck, entered=entered, shown_only=shown_only,
                         shuffles_stub=shuffles_stub, carry_in=carry_in, number=number)
        self._post_antes()
        if self._deal():
            self._start_betting(FIRST_BETTING)
        self._drive()

    # -- setup -----------------------------------------------------------------------------
    def _post_antes(self) -> None:
        for s in self.order:
            amount = min(self.rules.ante, self.stacks[s])
            self._put_in(s, amount, street=False)
            self.log.append(rec.Ante(s, amount, self.stacks[s] == 0))

    def _deal(self) -> bool:
        """Deal five cards each, one at a time round the table: ask for the first and return
        False (:meth:`deal_card` goes on from there). Only the cards shown being entered, the
        deal is five face-down cards each, counted at once: True."""
        if self.stub_left < 5 * len(self.order):
            raise ShoeError("the deck ran out while dealing")
        if self.shown_only:  # dealt face down by the dealer: counted, never named
            self.stub_left -= 5 * len(self.order)
            for s in self.order:
                self.held[s] = 5
                self.log.append(rec.DealtFaceDown(s, 5))
            self.to_deal = Dealing(self.order, 5, 5 * len(self.order), 0)
            return True
        self.phase = DEALING
        self.stub_left -= 5 * len(self.order)  # the deal's cards, counted out of the deck at once
        self._deal_needs = deal_needs(self.order)
        self.card_needed = self._deal_needs[0]
        return False

    def _drive(self) -> None:
        """Hand the hand to its dealer, if it has one: the cards it waits for, or the news that
        it is settled."""
        if self.dealer is not None and (self.card_needed is not None or self.is_terminal):
            self.dealer(self)


    # -- chance: every card comes in here ---------------------------------------------------
    def _card_for_need(self, c: object) -> Card:
        if self.card_needed is None and not self.entered:
            raise IllegalAction("card_source", "this hand deals from a shuffled deck: the engine draws its cards")
        if self.card_needed is None:
            ruling = self.ruling_needed
            waiting = ("the hand is over" if self.is_terminal
                       else f"seat {ruling}'s hand waits for the dealer's ruling" if ruling is not None
                       else f"it is seat {self.to_act}'s turn to act")
            raise OutOfTurn("card_not_needed", f"no card is needed now: {waiting}")
        if not isinstance(c, (str, Card)):
            raise IllegalAction("card", f"a card is written as its rank and suit, as in 'As', got {c!r}")
        try:
            found = card(c)
        except CardError as e:
            try:
                card(c, suitless=True)
            except CardError:
                raise IllegalAction("card", str(e)) from None
            raise IllegalAction("card", f"a poker card needs its suit: {str(c).strip()!r} is a rank alone") from None
        holder = next((s for s, cs in self.cards.items() if found in cs), None) if self.shown_only else None
        if holder is not None:
            where = "this hand" if holder == self.card_needed.seat else f"seat {holder}'s hand"
            raise IllegalAction("shoe_count", f"{found.pretty} is already entered in {where} at this showdown: "
                                              "one deck holds one of each card")
        if found in self._out:
            raise IllegalAction("shoe_count", f"{found.pretty} has already been dealt from this deck (one of each card)")
        return found

    def verify_deal_card(self, c: object) -> None:
        """A card the dealer entered: refused if none is needed, if it is not a card with its
        suit, or if the deck cannot hold it (one deck: no card twice in a hand)."""
        self._card_for_need(c)

    def can_deal_card(self, c: object) -> bool:
        return can(self.verify_deal_card, c)

    def deal_card(self, c: object) -> rec.CardEntered | None:
        """The card that landed where :attr:`card_needed` said ("As", "10h"). At a real-cards
        table each card is an input in the log (``card``); a dealer given to the hand deals from
        a committed order, and the log keeps the deal and the draw whole (``deal``, ``draw``):
        the answer is then ``None``."""
        need = self.card_needed
        if need is not None and not self.entered and type(c) is Card and c not in self._out:
            self._dealt(need, c)  # a dealer's card (a shuffled deck) that can come now
            return None
        found = self._card_for_need(c)
        assert need is not None
        self.card_needed = None
        self._out.add(found)
        self.cards[need.seat].append(found)
        r = None
        if self.entered:
            r = rec.CardEntered(need.seat, found)
            self.log.append(r)
            self.version += 1
        self._took(need, found)
        return r

    def deal_all(self, draw: Callable[[], Card]) -> None:
        """Every card the hand needs from here on, from a committed shuffled order (the hand's
        dealer, :class:`~.dealing.ShuffledDeck`): :func:`~syndicate.core.play.deal_from`, compiled
        with the hand. A card the deck cannot hold goes through :meth:`deal_card` and is refused
        there."""
        out = self._out
        while (need := self.card_needed) is not None:
            c = draw()
            if self.entered or type(c) is not Card or c in out:
                self.deal_card(c)
            else:
                self._dealt(need, c)

    def _dealt(self, need: CardNeed, c: Card) -> None:
        """The card ``c`` a dealer gave for ``need``, known to fit: nothing more to check."""
        self._out.add(c)
        self.cards[need.seat].append(c)
        k = self._deal_k + 1
        if k < len(self._deal_needs) and need.why == "deal":  # most cards: the deal goes on
            self._deal_k = k
            self.card_needed = self._deal_needs[k]
        else:
            self.card_needed = None
            self._took(need, c)

    def _took(self, need: CardNeed, found: Card) -> None:
        """The hand goes on from the card ``found`` that ``need`` asked for."""
        why = need.why
        if why == "deal":
            k = self._deal_k = self._deal_k + 1
            needs = self._deal_needs
            if k < len(needs):
                self.card_needed = needs[k]
            else:
                for s in self.order:
                    self.log.append(rec.Dealt(s, tuple(self.cards[s])))
                self._start_betting(FIRST_BETTING)
        elif why == "show":
            self.to_deal = None  # the dealing is done: the hands are turned over
            self.card_needed = self._show_need()
            if self.card_needed is None and self.ruling_needed is None:
                self._settle_showdown()
        else:
            d = self._drawing
            assert d is not None
            self.stub_left -= 1
            d.received.append(found)
            if len(d.received) < len(d.discards) and self.stub_left > 0:
                self.card_needed = draw_need(d.seat, len(self.cards[d.seat]))
            else:
                self._next_draw_card()

    def _next_draw_card(self) -> None:
        d = self._drawing
        assert d is not None
        if len(d.received) < len(d.discards):
            if self.stub_left <= 0:
                self._restub()
            self.card_needed = draw_need(d.seat, len(self.cards[d.seat]))
            return
        self._drawing = None
        self.muck.extend(d.discards)
        self.last_draw = rec.Drew(d.seat, d.discards, tuple(d.received), d.shown)
        self._drew(d.seat, self.last_draw)

    # -- take-back and replay (core.play drives them) ---------------------------------------
    def last_input(self) -> int:
        """The index in :attr:`log` of the last input (a decision or an entered card), or -1."""
        inputs = rec.SHOWN_ONLY_INPUTS if self.shown_only else rec.ENTERED_INPUTS
        for i in range(len(self.log) - 1, -1, -1):
            if self.log[i].type in inputs:
                return i
        return -1

    def verify_take_back(self) -> None:
        if not self.entered:
            raise IllegalAction("take_back", "this hand deals from a shuffled deck: there is no entered card to take back")
        i = self.last_input()
        if i < 0 or self.log[i].type != "card":
            raise IllegalAction(
                "take_back", "only the last card entered can be taken back, until someone acts on it"
                + (f": {self.log[i].type!r} came after it" if i >= 0 else ": no card has been entered"))

    def can_take_back(self) -> bool:
        return can(self.verify_take_back)

    def restart(self) -> DrawHand:
        """A fresh hand of the same deal before any input: the same rules, stacks, button,
        number and table (a real-cards one: take-back is for entered cards). Its version goes on
        from this hand's, for a take-back (:meth:`taken_back`): versions only go up."""
        fresh = DrawHand(self.rules, self.start_stacks, self.button, dealer=self.dealer, deck=self.deck,
                         entered=self.entered, shown_only=self.shown_only, shuffles_stub=self.shuffles_stub,
                         carry_in=self.carry_in, number=self.number)
        fresh._version_floor = self.version
        return fresh

    def taken_back(self, record: rec.CardEntered) -> rec.TakenBack:
        """On the hand a take-back rebuilt (:func:`~syndicate.core.play.take_back`): the note
        that ``record``'s card was taken back. Its version is one past the hand it replaces,
        whatever the replay counted."""
        r = rec.TakenBack(record.seat, record.card)
        self.log.append(r)
        self.version = max(self.version, self._version_floor) + 1
        return r

    def apply(self, record: rec.Record) -> None:
        """Apply one logged input again (a decision, or an entered card; JSON is read by
        :func:`.records.from_json`). Records the engine writes by itself are skipped (with a
        shuffled deck the cards too); a ``take_back`` note is copied, the card it took back not
        being in the log. Replays and take-backs go through here."""
        if isinstance(record, rec.CardEntered):
            if self.entered:
                self.deal_card(record.card)
        elif isinstance(record, rec.Checked):
            self.check(record.seat)
        elif isinstance(record, rec.Bet):
            self.bet(record.seat, record.amount)
        elif isinstance(record, rec.Called):
            self.call(record.seat)
        elif isinstance(record, rec.Raised):
            self.raise_(record.seat, record.by)
        elif isinstance(record, rec.Folded):
            self.fold(record.seat)
        elif isinstance(record, rec.DrewFaceDown):
            if self.shown_only:
                self.draw(record.seat, record.number)
        elif isinstance(record, rec.Drew):
            if self.shown_only:
                self.draw(record.seat, len(record.discards))
            elif not self.entered:
                self.draw(record.seat, record.discards)
        elif isinstance(record, rec.Discarded):
            self.draw(record.seat, record.discards)
        elif isinstance(record, rec.StoodPat):
            self.stand_pat(record.seat)
        elif isinstance(record, rec.Ruled):
            self.ruling(record.seat, record.dead)
        elif isinstance(record, rec.TakenBack):
            self.log.append(record)
