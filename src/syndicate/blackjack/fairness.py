"""A Blackjack shoe's part of the fairness scheme (docs/fairness.md): which shoe position holds
which card a round dealt and whether it was shown, and a stored shoe history as one viewer may
be served it, its cards proved by their openings
(:func:`syndicate.core.fairness.publish_openings`)."""

from __future__ import annotations

from typing import Any

from ..core.fairness import is_legacy, publish_openings
from ..core.shoe import Shoe


def positions(rnd: dict[str, Any]) -> list[tuple[int, str, bool]]:
    """(position, card, shown) for every card a Blackjack round dealt: all face up but a hole
    card the dealer never turned over."""
    deal = next((r for r in rnd["log"] if r["type"] == "deal"), None)
    if deal is None:
        return []
    turned = any(r["type"] == "reveal" for r in rnd["log"])
    pos = deal["shoe_position"]
    out = []
    for r in rnd["log"]:
        if r["type"] == "card":
            out.append((pos, r["card"], bool(r["face_up"]) or turned))
            pos += 1
    return out


def served(doc: dict[str, Any], seed_hex: str | None, house: bool, seats: dict[int, int]) -> None:
    """Make ``doc`` (a copy of a stored shoe's rounds) what one viewer may have: every card but
    a hole card never turned, each with its opening (every card at a Blackjack table is shown
    to all but that one, so the viewer's ``seats`` change nothing)."""
    sj = doc["shoes"][0] if doc.get("shoes") else None
    revealed = bool(sj and (sj.get("seed") or sj.get("order")))
    visible: list[int] = []
    for rnd in doc["rounds"]:
        for p, _card, shown in positions(rnd):
            if house or revealed or shown:
                visible.append(p)
        if not house and not revealed:
            turned = any(r["type"] == "reveal" for r in rnd["log"])
            for r in rnd["log"]:
                if r["type"] in ("card", "take_back") and not r["face_up"] and not turned:
                    r["card"] = None  # the hole card was never shown (nor one taken back)
    if sj is None or seed_hex is None or sj.get("entered") or is_legacy(sj, seed_hex):
        return
    shoe = Shoe.from_seed(seed_hex, sj["decks"], sj["penetration"], sj["burn"])
    for rnd in doc["rounds"]:  # dealing again reproduces any re-stub
        shoe.begin_round()
        for _ in positions(rnd):
            shoe.draw()
    publish_openings(sj, shoe, visible)


def house_copy(doc: dict[str, Any], seed_hex: str | None) -> dict[str, Any]:
    """The stored copy for the server's own replay: a Blackjack shoe's seed is in the history
    once revealed, and the replay needs no more."""
    return doc


def results(history: dict[str, Any]) -> dict[str, int] | None:
    """Each seat's net in a stored one-round history (None while unknown: a voided round)."""
    found = history["rounds"][0].get("results")
    return dict(found) if found is not None else None


def commitment(doc: dict[str, Any]) -> str | None:
    """The commitment of a served shoe history's shoe (None: real cards, nothing committed)."""
    found: str | None = doc["shoes"][0]["commitment"]
    return found
