"""The check of the *openings* (position, card, salt) that prove each card served, against the
position commitments whose SHA-256 is the commitment published before the first card
(docs/fairness.md), and the openings a served history carries. Which shoe position holds which
dealt card, and who may see it, is each game's own (``positions`` in its package's
``fairness`` module); what a viewer is served of a stored history:
:func:`syndicate.room.histories.for_viewer`.
"""

from __future__ import annotations

import hashlib
from typing import Any

from .shoe import Shoe, commitment_of, position_commitment


# -- what a game's histories share ------------------------------------------------------------
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


def publish_openings(s: dict[str, Any], shoe: Shoe, visible: list[int]) -> None:
    """Put into a served history's shoe ``s`` the proof of the cards at ``visible`` positions:
    the seed's hash, the position commitments and each visible card's opening. ValueError when
    ``shoe`` (dealt again from the escrowed seed) does not make the published commitment."""
    if shoe.commitment != s["commitment"]:  # the escrow is not this shoe's seed: serve no proof
        raise ValueError("the escrowed seed does not make the published commitment")
    s["seed_hash"] = shoe.seed_hash
    s["committed"] = shoe.committed
    s["positions"] = shoe.positions()
    s["openings"] = [shoe.opening(p) for p in sorted(set(visible))]
