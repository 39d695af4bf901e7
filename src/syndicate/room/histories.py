"""Finished hands as downloadable histories."""

from __future__ import annotations

from typing import Any

from .errors import NotFound
from .ports import Store


def shoe_history(store: Store, event_id: int, hand_id: int) -> dict[str, Any]:
    """The shoe of finished hand ``hand_id`` as one history in the engine's format: every
    finished hand dealt from that shoe so far (a Blackjack shoe's rounds; a draw hand's own
    deck), so `syndicate replay` and, once the seed is revealed, `syndicate verify` accept it.
    A hand in play is never served: its stored log holds the hole card."""
    with store.transaction() as repo:
        hand = repo.hand(hand_id)
        table = repo.table(hand.table_id) if hand else None
        if hand is None or table is None or table.event_id != event_id or hand.status == "playing":
            raise NotFound("hand", f"no finished hand {hand_id} in this event")
        same_shoe = [h for h in repo.hands(event_id, hand.table_id, hand.commitment, None, 10_000)
                     if h.status != "playing"]
    doc = dict(same_shoe[-1].history)
    key = "rounds" if "rounds" in doc else "hands"  # Blackjack rounds; draw hands (a deck each)
    doc[key] = [r for h in same_shoe for r in h.history[key]]
    doc.pop("hand", None)
    return doc
