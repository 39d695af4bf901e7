"""Finished hands as downloadable histories, as each viewer may have them."""

from __future__ import annotations

from typing import Any

from ..fairness import for_viewer
from .errors import NotFound
from .ports import Store
from .roles import ADMIN
from .values import Account


def _stored(store: Store, event_id: int, hand_id: int, viewer_id: int | None
            ) -> tuple[dict[str, Any], str | None, dict[int, int]]:
    with store.transaction() as repo:
        hand = repo.hand(hand_id)
        table = repo.table(hand.table_id) if hand else None
        if hand is None or table is None or table.event_id != event_id or hand.status == "playing":
            raise NotFound("hand", f"no finished hand {hand_id} in this event")
        same_shoe = [h for h in repo.hands(event_id, hand.table_id, hand.commitment, None, 10_000)
                     if h.status != "playing"]
        seed = repo.escrowed_seed(hand.commitment)
        seats: dict[int, int] = {}
        if viewer_id is not None:
            for h in same_shoe:
                seat = repo.hand_seats(h.id).get(viewer_id)
                if seat is not None:
                    seats[h.number] = seat
    doc = dict(same_shoe[-1].history)
    key = "rounds" if "rounds" in doc else "hands"  # Blackjack rounds; draw hands (a deck each)
    doc[key] = [r for h in same_shoe for r in h.history[key]]
    doc.pop("hand", None)
    return doc, seed, seats


def shoe_history(store: Store, event_id: int, hand_id: int, viewer: Account) -> dict[str, Any]:
    """The shoe of finished hand ``hand_id`` as one history in the engine's format: every
    finished hand dealt from that shoe so far (a Blackjack shoe's rounds; a draw hand's own
    deck), as ``viewer`` may see it (docs/fairness.md): until the seed is revealed, only the
    cards shown at the table and the viewer's own, each with its opening; the admin (the
    house, for audit) sees every card. A hand in play is never served."""
    doc, seed, seats = _stored(store, event_id, hand_id, viewer.id)
    return for_viewer(doc, seed, house=viewer.role == ADMIN, seats=seats)


def house_history(store: Store, event_id: int, hand_id: int) -> dict[str, Any]:
    """The stored copy with every card, for the server's own checks (a replay): never served
    as it is to anyone but the admin. A draw hand's deck gets its escrowed seed, which the
    engine needs to deal the hand again."""
    doc, seed, _ = _stored(store, event_id, hand_id, None)
    if seed is not None and "hands" in doc:
        doc["hands"] = [{**e, "shoe": {**e["shoe"], "seed": seed}} for e in doc["hands"]]
    return doc
