"""Bots for Blackjack seats: they play the basic-strategy chart of their table's rules."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..cards import Card
from .basic import decide
from .rules import Rules

Advisor = Callable[[Sequence[Card], Card, "Sequence[str] | set[str]"], str]


def advisor(rules: Rules) -> Advisor:
    """The best chart we have for ``rules``: computed from the rules by the maths module when it
    is installed, else the published chart in :mod:`syndicate.blackjack.basic`."""
    try:
        from .strategy import chart  # computed from the rules (maths module)
    except ImportError:
        return lambda cards, up, legal: decide(rules, cards, up, legal)
    computed = chart(rules)
    return lambda cards, up, legal: computed.decide(list(cards), up, set(legal))
