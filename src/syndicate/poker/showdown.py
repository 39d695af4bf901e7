"""The draw and the showdown of a hand of five-card draw: throwing and drawing (named cards,
or counted face down when only the cards shown are entered), standing pat, the re-stub when the
deck runs out, the dealer's ruling on a flagged hand, and the pot going to the best hand."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..core.cards import Card, CardError, card
from ..core.errors import IllegalAction
from ..core.shoe import CardNeed, ShoeError
from . import records as rec
from .betting import Betting
from .evaluator import evaluate
from .pots import settle
from .state import SECOND_BETTING, SETTLED, SHOWDOWN, Dealing, Drawing, can


class DrawAndShowdown(Betting):
    """The draw, the showdown and the end of a hand (after the betting: one line of classes,
    HandState -> Betting -> DrawAndShowdown -> DrawHand, as mypyc compiles them)."""

    # -- draw ------------------------------------------------------------------------------
    def _discards(self, seat: Any, discards: object) -> list[Card]:
        try:
            if isinstance(discards, str):
                items: list[Any] = discards.replace(",", " ").split()
            elif isinstance(discards, (list, tuple)):  # the usual case, before the slower ABC check
                items = list(discards)
            elif isinstance(discards, Iterable):
                items = list(discards)
            else:
                raise IllegalAction(
                    "draw.cards", f"discards are a list of cards, got {type(discards).__name__}"
                )
            out = [card(x) for x in items]
        except CardError as e:
            raise IllegalAction("draw.cards", str(e)) from None
        if len(set(out)) != len(out):
            raise IllegalAction("draw.cards", "the same card is named twice in the discards")
        hand = self.cards[seat]
        if not set(hand).issuperset(out):
            raise IllegalAction("draw.cards", "you can only discard cards from your own hand")
        n = len(out)
        limit = self.rules.max_discard
        if n > limit:
            kept = [c for c in hand if c not in out]
            ace_ok = self.rules.ace_discard and n == 4 and len(kept) == 1 and kept[0].is_ace
            if not ace_ok:
                raise IllegalAction(
                    "draw.limit",
                    f"you may discard up to {limit} cards"
                    + (", or 4 when the card you keep is an Ace (which you show)"
                       if self.rules.ace_discard else ""),
                )
        return out

    def _discard_count(self, discards: object) -> int:
        """How many cards a player throws when the room does not see them (only the cards
        shown are entered): 0 to ``max_discard``, or 4 keeping an Ace, shown to the table."""
        if isinstance(discards, bool) or not isinstance(discards, int):
            raise IllegalAction(
                "draw.cards", "the cards are dealt face down and never entered: say how many you throw "
                f"(a number), not which; got {type(discards).__name__}")
        limit = self.rules.max_discard
        if discards < 0 or (discards > limit and not (self.rules.ace_discard and discards == 4)):
            raise IllegalAction(
                "draw.limit",
                f"you may discard up to {limit} cards"
                + (", or 4 when the card you keep is an Ace (which you show)" if self.rules.ace_discard else "")
                + f", not {discards}",
            )
        return discards

    def verify_draw(self, seat: Any, discards: Sequence[Card | str] | str | int) -> None:
        """``discards``: the cards thrown, or with only the cards shown entered, how many."""
        self._turn(seat, "draw", False)
        if self.shown_only:
            self._discard_count(discards)
        else:
            self._discards(seat, discards)

    def can_draw(self, seat: Any, discards: Sequence[Card | str] | str | int) -> bool:
        return can(self.verify_draw, seat, discards)

    def draw(
        self, seat: Any, discards: Sequence[Card | str] | str | int
    ) -> rec.Drew | rec.DrewFaceDown | rec.StoodPat | rec.Discarded:
        """Throw away ``discards`` and take as many new cards. No discards is standing pat.
        With entered cards the answer is a ``discard`` record and the hand waits for the cards
        (the ``draw`` record follows the last of them). With only the cards shown entered,
        ``discards`` is how many: the room counts them out of the deck at once (re-stubbing the
        muck when it runs out) and :attr:`to_deal` says what the dealer deals."""
        self.verify_draw(seat, discards)
        if self.shown_only:
            assert isinstance(discards, int)
            return self._draw_face_down(seat, discards)
        out = self._discards(seat, discards)
        if not out:
            return self.stand_pat(seat)
        hand = self.cards[seat]
        kept = [c for c in hand if c not in out]
        shown = kept[0] if len(out) == 4 else None
        if shown is not None:
            self.shown[seat].add(shown)
        self.cards[seat] = kept
        thrown = tuple(out)
        self.to_act = None
        self._drawing = Drawing(seat, thrown, shown, [])
        if self.entered:  # the decision is an input of its own; the cards follow
            d = rec.Discarded(seat, thrown, shown)
            self.log.append(d)
            self.version += 1
            self._next_draw_card()
            return d
        self._next_draw_card()
        self._drive()  # its dealer deals the cards: the draw is complete
        assert self.last_draw is not None
        return self.last_draw

    def _draw_face_down(self, seat: Any, n: int) -> rec.DrewFaceDown | rec.StoodPat:
        if n == 0:
            return self.stand_pat(seat)
        from_deck = min(n, self.stub_left)
        from_muck = n - from_deck
        self.stub_left -= from_deck
        if from_muck:
            # The deck is out: the muck (folded hands, earlier draws' discards; not this player's
            # own, set aside) is shuffled by hand into a new stub, and the dealing goes on from it.
            if self.mucked < from_muck:
                raise ShoeError("the deck ran out and the muck cannot make up the draw")
            self.restubs += 1
            self.log.append(rec.Restubbed(self.restubs, self.mucked, True))
            self.stub_left, self.mucked = self.mucked - from_muck, 0
        self.mucked += n  # the player's own discards go to the muck once their cards are dealt
        self.drew[seat] = n
        self.to_deal = Dealing((seat,), n, from_deck, from_muck)
        r = rec.DrewFaceDown(seat, n)
        self._drew(seat, r)
        return r

    def verify_stand_pat(self, seat: Any) -> None:
        self._turn(seat, "stand pat", False)

    def can_stand_pat(self, seat: Any) -> bool:
        return can(self.verify_stand_pat, seat)

    def stand_pat(self, seat: Any) -> rec.StoodPat:
        self.verify_stand_pat(seat)
        if self.shown_only:
            self.drew[seat] = 0
            self.to_deal = None
        r = rec.StoodPat(seat)
        self._drew(seat, r)
        return r

    # -- the showdown, when only the cards shown are entered -----------------------------
    def _show_need(self) -> CardNeed | None:
        """The next card of the hands shown down: seat by seat in order of play, five each."""
        for s in self.live:
            if len(self.cards[s]) < 5:
                return CardNeed(s, 0, len(self.cards[s]), True, "show")
        return None

    def _unjustified(self, seat: int) -> bool:
        """A four-card draw (an Ace kept and shown, by the rule) whose five cards shown down,
        all entered, hold no Ace."""
        cards = self.cards[seat]
        return self.drew.get(seat) == 4 and len(cards) == 5 and not any(c.is_ace for c in cards)

    @property
    def flagged(self) -> list[int]:
        """Seats whose hand, shown down, does not justify their four-card draw (no Ace)."""
        return [s for s in self.live if self.shown_only and self._unjustified(s)]

    @property
    def ruling_needed(self) -> int | None:
        """The flagged seat whose hand waits for the dealer's :meth:`ruling` (every hand shown
        down is entered); ``None`` when none does."""
        if self.phase != SHOWDOWN or self.card_needed is not None:
            return None
        return next((s for s in self.flagged if s not in self.ruled), None)

    def verify_ruling(self, seat: Any, dead: Any) -> None:
        """The dealer rules on a flagged hand: ``dead`` (it wins nothing) or it stands."""
        need = self.ruling_needed
        if need is None:
            raise IllegalAction("ruling", "no hand waits for a ruling: one does when a player who drew four cards "
                                          "(keeping an Ace) shows down no Ace")
        if seat != need:
            raise IllegalAction("ruling", f"seat {need}'s hand waits for the ruling, not seat {seat}'s")
        if not isinstance(dead, bool):
            raise IllegalAction("ruling", f"a ruling says whether the hand is dead: true or false, got {dead!r}")
        alone = next((i for i, p in enumerate(self.current_pots()) if p.eligible == (seat,)), None) if dead else None
        if alone is not None:
            pot = "the pot" if alone == 0 else f"side pot {alone}"
            raise IllegalAction("ruling", f"seat {seat}'s hand is the last one in {pot}: it cannot be dead too, or "
                                          "nobody takes that pot; rule that it stands, or declare a misdeal")

    def can_ruling(self, seat: Any, dead: Any) -> bool:
        return can(self.verify_ruling, seat, dead)

    def ruling(self, seat: Any, dead: Any) -> rec.Ruled:
        """The house rule (docs/poker.md): a four-card draw keeps an Ace; a hand shown down
        without one is flagged, and the dealer rules it dead (it wins nothing, its chips stay in
        the pot) or lets it stand (a count entered wrong at the draw)."""
        self.verify_ruling(seat, dead)
        self.ruled.add(seat)
        if dead:
            self.dead.add(seat)
        r = rec.Ruled(seat, dead)
        self.log.append(r)
        self.version += 1
        if self.ruling_needed is None:
            self._settle_showdown()
        return r

    def _restub(self) -> None:
        """The deck is out: the muck (folded hands and earlier discards) becomes a new stub, in
        :attr:`last_stub` for whoever deals (a real dealer shuffles it by hand; a seeded shoe
        with its seed, domain :data:`.dealing.RESTUB_DOMAIN` + the re-stub number (u32 big-endian), so the
        draw replays exactly from the revealed seed; a stacked shoe has no seed and deals it in
        the order it was mucked: ``shuffles_stub`` is False)."""
        if not self.muck:
            raise ShoeError("the deck ran out and there is nothing in the muck to re-stub")
        self.restubs += 1
        self.last_stub = tuple(self.muck)
        self._out.difference_update(self.muck)
        self.stub_left = len(self.muck)
        self.muck = []
        self.log.append(rec.Restubbed(self.restubs, len(self.last_stub), self.shuffles_stub))
        if self.dealer is not None:
            self.dealer(self)  # the new stub goes into its deck before the next card is asked for

    def _drew(self, seat: Any, r: Any) -> None:
        self.log.append(r)
        self.version += 1
        self._pending.remove(seat)
        if self._pending:
            self.to_act = self._pending[0]
        else:
            self.to_act = None
            self._start_betting(SECOND_BETTING)

    def _finish_by_folds(self, winner: int) -> None:
        """Everyone else folded: the last player takes every pot, unseen (no showdown)."""
        self._return_uncalled()
        self.pots = self.current_pots()
        for i, pot in enumerate(self.pots):
            self._award(winner, pot.amount, i)
        self._end_hand()

    def _showdown(self) -> None:
        """The seed: "All players still in the hand reveal their cards. The best 5-card Poker
        hand wins the pot. If multiple players tie, the pot is split evenly." """
        self.log.append(rec.PhaseStarted("showdown"))
        if self.shown_only:  # the hands are turned over: the dealer enters them
            self.phase = SHOWDOWN
            self.card_needed = self._show_need()
            return
        self._settle_showdown()

    def _settle_showdown(self) -> None:
        live = [s for s in self.live if s not in self.dead]
        for s in live:
            v = evaluate(self.cards[s])
            self.values[s] = v
            self.showed_down.add(s)
            self.log.append(rec.Shown(s, tuple(self.cards[s]), v.rank, v.name))
        self.pots = self.current_pots()
        awards, carried = settle(self.pots, self.values, self.order, self.rules.chip,
                                 self.rules.odd_chip)
        for i, s, amount in awards:
            self._award(s, amount, i)
        for i, rest in carried:
            self.pot -= rest
            self.carry_out += rest
            self.log.append(rec.CarriedOver(rest, i))
        self._end_hand()

    def _award(self, seat: int, amount: int, pot: int) -> None:
        self.stacks[seat] += amount
        self.pot -= amount
        self.awards[seat] = self.awards.get(seat, 0) + amount
        self.log.append(rec.Awarded(seat, amount, pot))

    def _end_hand(self) -> None:
        self.phase = SETTLED
        self.to_act = None
        self._pending = []
        self.version += 1
        self._drive()  # the hand is over: its dealer may publish its deck's seed
