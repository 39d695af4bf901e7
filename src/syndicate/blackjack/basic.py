"""A basic-strategy chart for bots and the hint key.

This is the standard published total-dependent chart for 4–8 decks (dealer stands or hits
soft 17, double after split or not, late surrender). The maths module computes the chart
for any rule set; :func:`syndicate.blackjack.bots.advisor` prefers that when it is available.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.cards import Card
from .course import DOUBLE, HIT, PLAY_ON, SPLIT, STAND, SURRENDER
from .rules import Rules

# Dealer up cards by value, 2..10 then Ace (value 1 → column 9).
_COLS = {v: i for i, v in enumerate((2, 3, 4, 5, 6, 7, 8, 9, 10, 1))}


def _row(text: str) -> str:
    cells = text.split()
    assert len(cells) == 10, text
    return "".join(cells)


# H hit, S stand, D double else hit, d double else stand, P split.
HARD = {
    8: _row("H H H H H H H H H H"),
    9: _row("H D D D D H H H H H"),
    10: _row("D D D D D D D D H H"),
    11: _row("D D D D D D D D D H"),
    12: _row("H H S S S H H H H H"),
    13: _row("S S S S S H H H H H"),
    14: _row("S S S S S H H H H H"),
    15: _row("S S S S S H H H H H"),
    16: _row("S S S S S H H H H H"),
}
SOFT = {
    13: _row("H H H D D H H H H H"),
    14: _row("H H H D D H H H H H"),
    15: _row("H H D D D H H H H H"),
    16: _row("H H D D D H H H H H"),
    17: _row("H D D D D H H H H H"),
    18: _row("S d d d d S S H H H"),
    19: _row("S S S S S S S S S S"),
}
# Pairs by card value (1 = aces) with double after split; "-" means play the total.
PAIRS_DAS = {
    1: _row("P P P P P P P P P P"),
    2: _row("P P P P P P - - - -"),
    3: _row("P P P P P P - - - -"),
    4: _row("- - - P P - - - - -"),
    5: _row("- - - - - - - - - -"),
    6: _row("P P P P P - - - - -"),
    7: _row("P P P P P P - - - -"),
    8: _row("P P P P P P P P P P"),
    9: _row("P P P P P - P P - -"),
    10: _row("- - - - - - - - - -"),
}
PAIRS_NO_DAS = {
    **PAIRS_DAS,
    2: _row("- - P P P P - - - -"),
    3: _row("- - P P P P - - - -"),
    4: _row("- - - - - - - - - -"),
    6: _row("- P P P P - - - - -"),
}


def _surrenders(total: int, pair_value: int | None, up: int, h17: bool) -> bool:
    if pair_value == 8:
        return h17 and up == 1
    if total == 16 and up in (9, 10, 1):
        return True
    if total == 15 and (up == 10 or (h17 and up == 1)):
        return True
    return h17 and total == 17 and up == 1


def decide(rules: Rules, cards: Sequence[Card], up: Card, legal: Sequence[str] | set[str]) -> str:
    """The chart's play for this hand, always one of ``legal``."""
    hard = sum(c.value for c in cards)
    soft = any(c.value == 1 for c in cards) and hard <= 11
    total = hard + 10 if soft else hard
    col = _COLS[up.value]
    h17 = rules.dealer_hits_soft_17
    pair = cards[0].value if len(cards) == 2 and cards[0].value == cards[1].value else None
    if SURRENDER in legal and _surrenders(total, pair, up.value, h17):
        return SURRENDER
    if PLAY_ON in legal:  # the early-surrender offer, declined
        return PLAY_ON
    if pair is not None and SPLIT in legal:
        table = PAIRS_DAS if rules.double_after_split else PAIRS_NO_DAS
        if table[pair][col] == "P":
            return SPLIT
    if soft:
        code = SOFT.get(total, "S" * 10)[col] if total >= 13 else "H"
        if total == 19 and h17 and up.value == 6:
            code = "d"
    else:
        code = "S" if total >= 17 else HARD.get(max(total, 8), "H" * 10)[col]
        if total == 11 and h17 and up.value == 1:
            code = "D"
    if code in "Dd":
        if DOUBLE in legal:
            return DOUBLE
        code = "H" if code == "D" else "S"
    if code == "H" and HIT in legal:
        return HIT
    return STAND
