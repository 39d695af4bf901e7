"""Bots for Blackjack seats: they play the basic-strategy chart of their table's rules."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..core.cards import Card
from .basic import decide
from .course import EARLY_SURRENDER, INSURANCE
from .round import Round
from .rules import Rules

Advisor = Callable[[Sequence[Card], Card, "Sequence[str] | set[str]"], str]


def advisor(rules: Rules) -> Advisor:
    """The best chart we have for ``rules``: computed from the rules by the maths module when it
    is installed, else the published chart in :mod:`syndicate.blackjack.basic`."""
    try:
        from .maths.strategy import chart  # computed from the rules (maths module)
    except ImportError:
        return lambda cards, up, legal: decide(rules, cards, up, legal)
    computed = chart(rules)
    return lambda cards, up, legal: computed.decide(list(cards), up, set(legal))


def act(rd: Round, advise: Advisor) -> None:
    """Make the decision the round waits for, as a basic-strategy bot: never insure; otherwise
    play the chart, early surrender included (the same play the simulator and the analysis use)."""
    seat = rd.to_act
    assert seat is not None, "the round waits for no one"
    if rd.phase == INSURANCE:
        rd.no_insurance(seat)
        return
    hand = rd.seats[seat].hands[0] if rd.phase == EARLY_SURRENDER else rd.current_hand
    assert hand is not None
    getattr(rd, advise(hand.cards, rd.dealer[0], rd.legal_actions()))(seat)
