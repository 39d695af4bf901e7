"""A draw hand's part of the fairness scheme (docs/fairness.md): which shoe position holds which
card it dealt, and whether it was shown at the table. What a viewer is served of a stored hand:
:mod:`syndicate.poker.served`."""

from __future__ import annotations

from typing import Any

from .records import HIDDEN


def positions(entry: dict[str, Any]) -> list[tuple[int, int, str, bool]]:
    """(position, holder seat, card, shown at the table) for every card a draw hand dealt, in
    the order they left the shoe: the deal one card at a time round the table, then each
    draw's cards. A re-stub appends to the shoe, so the numbering simply carries on."""
    pos = entry["shoe"].get("start", 0)
    out: list[list[Any]] = []
    held: dict[int, dict[str, int]] = {}  # seat -> card -> index into out (cards in hand now)
    deals = [d for d in entry["log"] if d["type"] == "deal"]
    for k in range(5):
        for d in deals:
            _hold(held.setdefault(d["seat"], {}), d["cards"][k], len(out))
            out.append([pos, d["seat"], d["cards"][k], False])
            pos += 1
    for d in entry["log"]:
        if d["type"] == "draw":
            hand = held.setdefault(d["seat"], {})
            for c in d["discards"]:
                hand.pop(c, None)
            for c in d["received"]:
                _hold(hand, c, len(out))
                out.append([pos, d["seat"], c, False])
                pos += 1
            if d.get("shown") and d["shown"] in hand:  # the Ace kept with a four-card draw is shown
                out[hand[d["shown"]]][3] = True
        elif d["type"] == "show":
            for c in d["cards"]:
                if c in held.get(d["seat"], {}):
                    out[held[d["seat"]][c]][3] = True
    return [(p, s, c, shown) for p, s, c, shown in out]


def _hold(hand: dict[str, int], card: str, index: int) -> None:
    if card != HIDDEN:  # a redacted copy: the card is not known here
        hand[card] = index
