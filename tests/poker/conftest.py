"""Helpers for the poker tests: hands dealt from stacked decks."""

from __future__ import annotations

from collections.abc import Mapping

from syndicate.core.cards import DECK, parse
from syndicate.core.shoe import Shoe
from syndicate.poker.dealing import deal_hand
from syndicate.poker.draw import DrawHand
from syndicate.poker.rules import DrawRules


def deck_order(hands: Mapping[int, str], button: int, draws: str = "", fill: bool = True) -> list[str]:
    """The shoe order that deals ``hands`` (seat → five cards) one card at a time from the
    button's left, then ``draws`` for the draw, then (``fill``) the rest of the deck."""
    seats = sorted(hands)
    i = seats.index(button)
    order = seats[i + 1:] + seats[:i + 1]
    cards = {s: parse(hands[s]) for s in seats}
    out = [cards[s][k].text for k in range(5) for s in order]
    out += [c.text for c in parse(draws)]
    if fill:
        used = set(out)
        out += [c.text for c in DECK if c.text not in used]
    return out


def deal(hands: Mapping[int, str], *, button: int | None = None, stacks: Mapping[int, int] | None = None,
         draws: str = "", rules: DrawRules | None = None, carry_in: int = 0, fill: bool = True) -> DrawHand:
    button = min(hands) if button is None else button
    order = deck_order(hands, button, draws, fill)
    shoe = Shoe.stacked(" ".join(order))
    stacks = stacks or {s: 10_000 for s in hands}
    return deal_hand(rules or DrawRules(), stacks, button, shoe, carry_in=carry_in)


def finish_checking(hand: DrawHand) -> None:
    """Check every betting round and stand pat: play the hand out with no more chips."""
    while not hand.is_terminal:
        s = hand.to_act
        assert s is not None
        if "stand_pat" in hand.legal_actions():
            hand.stand_pat(s)
        elif "check" in hand.legal_actions():
            hand.check(s)
        else:
            hand.call(s)
