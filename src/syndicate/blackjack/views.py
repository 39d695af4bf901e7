"""What each viewer may see of a Blackjack round: its state and its log.

Every player's cards are dealt face up, so all views show them; the hole card shows in no view
until it is revealed, and the shoe's order is never shown.
"""

from __future__ import annotations

from typing import Any

from . import records as rec
from .round import Round


def view(rd: Round, viewer: int | str = "spectator") -> dict[str, Any]:
    """What ``viewer`` (a seat number, ``"spectator"`` or ``"dealer"``) may see of ``rd``."""
    dealer_cards: list[str | None] = [c.text for c in rd.dealer]
    if len(dealer_cards) > 1 and not rd.hole_revealed:
        dealer_cards[1] = None
    you = viewer if isinstance(viewer, int) and viewer in rd.seats else None
    hand = rd.current_hand
    need = rd.card_needed
    shoe = rd.shoe
    terminal = rd.is_terminal
    return {
        "game": "blackjack",
        "phase": rd.phase,
        "viewer": viewer,
        "to_act": rd.to_act,
        "acting_hand": hand.index if hand is not None else None,
        "legal_actions": rd.legal_actions(you) if you is not None else [],
        "card_needed": need.to_json() if need is not None else None,
        "dealer": {
            "cards": dealer_cards,
            "total": rd.dealer_total(),
            "blackjack": rd.dealer_blackjack if rd.hole_revealed or rd.dealer_blackjack is False else None,
        },
        "seats": [
            {
                "seat": s.number,
                "stack": s.stack,
                "bet": s.bet,
                "insurance": s.insurance,
                "even_money": s.even_money,
                "left": s.left,
                "net": s.stack - s.start_stack if terminal else None,
                "hands": [h.to_json() for h in s.hands],
            }
            for s in rd.seats.values()
        ],
        "shoe": {
            "decks": shoe.decks,
            "remaining": shoe.remaining,
            "commitment": shoe.commitment,
            "entered": rd.entered,
        },
    }


def log_view(rd: Round, viewer: int | str = "spectator") -> list[dict[str, Any]]:
    """The log as ``viewer`` may see it: the hole card is ``None`` until revealed (a hole card
    taken back as well)."""
    out = []
    hidden = not rd.hole_revealed
    for r in rd.log:
        d = rec.to_json(r)
        if hidden and (r.type == "card" or r.type == "take_back") and not r.face_up:
            d["card"] = None
        out.append(d)
    return out
