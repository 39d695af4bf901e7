"""A Blackjack seat and its hands: the cards, the total, the chips on each hand."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..core.cards import Card


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
