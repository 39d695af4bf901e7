"""A stored draw hand as one viewer may be served it (docs/fairness.md): a card goes only to its
holder unless it was shown, and every card left comes with its opening
(:func:`syndicate.core.fairness.publish_openings`)."""

from __future__ import annotations

import copy
from typing import Any

from ..core.fairness import is_legacy, publish_openings
from ..core.shoe import Shoe
from .fairness import positions
from .history import replay_hand
from .records import HIDDEN


def served(doc: dict[str, Any], seed_hex: str | None, house: bool, seats: dict[int, int]) -> None:
    """Make ``doc`` (a copy of the stored hands of one deck each) what one viewer may have:
    while the seed is secret, a card goes only to its holder unless it was shown; every card
    left comes with its opening. ``seats``: hand number -> the viewer's seat in it."""
    for entry in doc["hands"]:
        s = entry["shoe"]
        revealed = bool(s.get("seed"))
        viewer: int | str = seats.get(entry.get("number", 0), "spectator")
        visible = {p for p, seat, _c, shown in positions(entry)
                   if house or revealed or shown or seat == viewer}
        original = copy.deepcopy(entry)
        if not house and not revealed:
            _redact(entry, visible, viewer)
            s["stacked"] = None  # a stacked order is every card: the house's alone
        if seed_hex is None or s.get("entered") or is_legacy(s, seed_hex):
            continue
        # The server's own copy of the deck (re-stubs included) makes the openings.
        shoe = replay_hand({**original, "shoe": {**original["shoe"], "seed": seed_hex, "stacked": None}}).shoe
        assert isinstance(shoe, Shoe)  # entered hands were skipped above
        publish_openings(s, shoe, sorted(visible))


def house_copy(doc: dict[str, Any], seed_hex: str | None) -> dict[str, Any]:
    """The stored copy for the server's own replay: each hand's deck gets its escrowed seed,
    which the engine needs to deal the hand again."""
    if seed_hex is not None:
        doc["hands"] = [{**e, "shoe": {**e["shoe"], "seed": seed_hex}} for e in doc["hands"]]
    return doc


def _redact(entry: dict[str, Any], visible: set[int], viewer: int | str) -> None:
    """Every card of the log a viewer may not see becomes ``"??"``: by position, so a hand
    shown down shows in its deal record too, while its discards stay hidden."""
    pos = entry["shoe"].get("start", 0)
    deals = [d for d in entry["log"] if d["type"] == "deal"]
    cards = {id(d): list(d["cards"]) for d in deals}
    for k in range(5):
        for d in deals:
            if pos not in visible:
                cards[id(d)][k] = HIDDEN
            pos += 1
    for d in deals:
        d["cards"] = cards[id(d)]
    # Entered cards (a real-cards table): each card's own record, and the draw decided before
    # its cards, hide like the deal and draw records they make.
    shown = {(seat, c) for p, seat, c, _s in positions(entry) if p in visible}
    for d in entry["log"]:
        if d["type"] in ("card", "take_back") and d["seat"] != viewer and (d["seat"], d["card"]) not in shown:
            d["card"] = HIDDEN
        elif d["type"] == "discard" and d["seat"] != viewer:
            d["discards"] = [HIDDEN] * len(d["discards"])
    for d in entry["log"]:
        if d["type"] == "draw":
            received = []
            for c in d["received"]:
                received.append(c if pos in visible else HIDDEN)
                pos += 1
            d["received"] = received
            if d["seat"] != viewer:  # mucked face down: only their holder saw them
                d["discards"] = [HIDDEN] * len(d["discards"])


def results(history: dict[str, Any]) -> dict[str, int] | None:
    """Each seat's net in a stored one-hand history."""
    return {str(seat): net for seat, net in history["hands"][0]["result"]["net"]}


def commitment(doc: dict[str, Any]) -> str | None:
    """The commitment of the deck a served shoe history's last hand was dealt from (None: real
    cards, nothing committed)."""
    found: str | None = doc["hands"][-1]["shoe"]["commitment"]
    return found
