"""Where a hand's cards come from: the engine never draws one. :class:`ShuffledDeck` deals a
hand from a committed shuffled shoe (or a stacked one: tests, puzzles) with
:meth:`~.draw.DrawHand.deal_all` (:func:`~syndicate.core.play.deal_from`'s loop) whenever the
hand stops for a card, shuffles each re-stub with the shoe's seed, and reveals the seed when the hand is settled. At a real-cards table the
dealer enters every card (:meth:`~.draw.DrawHand.deal_card`) and the hand has no dealer of its
own. :func:`deal_hand` makes a hand for either kind of shoe.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from ..core.shoe import EnteredShoe, Shoe, ShoeError
from .draw import DrawHand
from .rules import DrawRules

#: Domain of the re-stub shuffle: SHA-256 stream over seed || this || restub number (u32 BE).
RESTUB_DOMAIN: Final = b"syndicate/poker/restub/"


class ShuffledDeck:
    """A hand's dealer from ``shoe``: each card the hand needs, as soon as it needs it.

    ``start`` and ``length`` say which of the shoe's cards are this hand's (its history names
    them); a re-stub (the hand's muck, :attr:`~.state.HandState.last_stub`) goes on the end of
    the shoe's order, shuffled with the seed when it has one.
    """

    __slots__ = ("_restubs", "length", "shoe", "start")

    def __init__(self, shoe: Shoe) -> None:
        self.shoe = shoe
        self.start = shoe.position
        self.length = len(shoe.order)
        self._restubs = 0

    def __call__(self, hand: DrawHand) -> None:
        """The hand stopped: a re-stub to put in the deck, cards to deal, or the hand is over."""
        shoe = self.shoe
        if hand.card_needed is not None and hand.restubs == self._restubs:  # the usual stop: cards to deal
            hand.deal_all(shoe.draw)  # the hand counts the deck: it re-stubs before the shoe runs dry
            return
        if hand.restubs > self._restubs:
            self._restubs = hand.restubs
            stub = list(hand.last_stub)
            if shoe.has_seed:
                stub = shoe.shuffle_from_seed(stub, RESTUB_DOMAIN + hand.restubs.to_bytes(4, "big"))
            shoe.extend(stub)
        if hand.is_terminal:
            if shoe.has_seed and not shoe.revealed:
                shoe.reveal()  # the hand is over: its deck's seed can be published
        elif hand.card_needed is not None:
            hand.deal_all(shoe.draw)  # the hand counts the deck: it re-stubs before the shoe runs dry

    @property
    def commitment(self) -> str | None:
        return self.shoe.commitment


def deal_hand(rules: DrawRules, stacks: Mapping[int, int], button: int, shoe: Shoe | EnteredShoe, *,
              carry_in: int = 0, number: int = 1) -> DrawHand:
    """A hand dealt from ``shoe``: a committed shuffled :class:`Shoe` (dealt at once, by a
    :class:`ShuffledDeck`), or an :class:`EnteredShoe` for a real-cards table (the hand waits
    for the dealer's cards; ``shown_only``: only the cards shown are entered)."""
    if isinstance(shoe, EnteredShoe):
        if shoe.decks != 1:
            raise ShoeError(f"five-card draw is dealt from one deck, not {shoe.decks}")
        return DrawHand(rules, stacks, button, entered=True, shown_only=shoe.shown_only,
                        carry_in=carry_in, number=number)
    if not isinstance(shoe, Shoe):
        raise TypeError(f"a hand's cards come from a Shoe or an EnteredShoe, not {type(shoe).__name__}")
    return DrawHand(rules, stacks, button, dealer=ShuffledDeck(shoe), deck=shoe.remaining,
                    shuffles_stub=shoe.has_seed, carry_in=carry_in, number=number)
