"""Which shoe position holds which dealt card, and who may see it; and the check of the
*openings* (position, card, salt) that prove each card served, against the position
commitments whose SHA-256 is the commitment published before the first card
(docs/fairness.md). What a viewer is served of a stored history:
:func:`syndicate.room.histories.for_viewer`.
"""

from __future__ import annotations

import hashlib
from typing import Any

from ..poker import records as poker_rec
from .shoe import commitment_of, position_commitment

HIDDEN = poker_rec.HIDDEN


# -- which position holds which card, and who may see it --------------------------------------
def poker_positions(entry: dict[str, Any]) -> list[tuple[int, int, str, bool]]:
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


def blackjack_positions(rnd: dict[str, Any]) -> list[tuple[int, str, bool]]:
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


def is_legacy(s: dict[str, Any], seed_hex: str | None) -> bool:
    """A shoe dealt before per-position commitments: its published commitment is SHA-256 of
    the seed itself, so it has no openings and proves itself only by its seed's reveal
    (docs/fairness.md, "Histories from before per-position commitments")."""
    if s.get("positions") is not None or not seed_hex:
        return False
    try:
        return commitment_of(bytes.fromhex(seed_hex)) == s.get("commitment")
    except ValueError:
        return False


# -- checking ----------------------------------------------------------------------------------
def check_openings(s: dict[str, Any], cards: list[tuple[int, str]]) -> list[str]:
    """Problems found checking ``cards`` ((position, card) seen in the history) against the
    shoe's openings; empty when every one checks. The rule is docs/fairness.md's."""
    positions = s.get("positions")
    committed = s.get("committed")
    if not isinstance(positions, list) or not isinstance(committed, int):
        return ["the history carries no position commitments"]
    try:
        raw = [bytes.fromhex(c) for c in positions]
    except (TypeError, ValueError):
        return ["a position commitment is not hex"]
    if any(len(c) != 32 for c in raw) or not 0 < committed <= len(raw):
        return ["the position commitments are malformed"]
    if hashlib.sha256(b"".join(raw[:committed])).hexdigest() != s.get("commitment"):
        return ["the position commitments do not hash to the published commitment"]
    opened: dict[int, tuple[str, bytes]] = {}
    for o in s.get("openings") or []:
        try:
            opened[int(o["position"])] = (str(o["card"]), bytes.fromhex(o["salt"]))
        except (KeyError, TypeError, ValueError):
            return ["an opening is malformed"]
    problems = []
    for p, card in cards:
        if p not in opened:
            problems.append(f"card {card} at position {p} has no opening")
            continue
        ocard, salt = opened[p]
        if ocard != card:
            problems.append(f"position {p} opens to {ocard}, but the history shows {card}")
        elif not 0 <= p < len(raw) or position_commitment(salt, p, card) != raw[p]:
            problems.append(f"the opening of position {p} ({card}) does not match its commitment")
    return problems
