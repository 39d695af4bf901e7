"""Who may see which dealt card, the openings that prove each one, and their check.

A stored history is the house's copy: every card. What anyone else is served is
:func:`for_viewer` of it: while the seed is secret, a card goes only to its holder, unless it
was shown at the table (a showdown hand, the Ace shown with a four-card draw, every Blackjack
card but a hole card never turned). Each card served comes with its *opening* (position, card,
salt), checked by :func:`check_openings` against the position commitments whose SHA-256 is the
commitment published before the first card (docs/fairness.md).
"""

from __future__ import annotations

import copy
import hashlib
from typing import Any

from .poker import records as poker_rec
from .shoe import Shoe, commitment_of, position_commitment

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


def _redact_poker(entry: dict[str, Any], visible: set[int], viewer: int | str) -> None:
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
    shown = {(seat, c) for p, seat, c, _s in poker_positions(entry) if p in visible}
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


# -- the served copy ---------------------------------------------------------------------------
def for_viewer(doc: dict[str, Any], seed_hex: str | None, *, house: bool, seats: dict[int, int]) -> dict[str, Any]:
    """``doc`` (the stored house copy of a shoe's history) as one viewer may have it.

    ``seed_hex`` is the shoe's escrowed seed, used here only to make openings and position
    commitments (never copied into the result unless the stored doc already holds it, that
    is, it was revealed). ``house``: the admin, who sees every card. ``seats``: hand number ->
    the viewer's seat in that hand (a poker player sees their own cards).
    """
    out = copy.deepcopy(doc)
    if "rounds" in out:
        _blackjack(out, seed_hex, house)
    else:
        _poker(out, seed_hex, house, seats)
    return out


def _poker(doc: dict[str, Any], seed_hex: str | None, house: bool, seats: dict[int, int]) -> None:
    from .poker.history import replay_hand

    for entry in doc["hands"]:
        s = entry["shoe"]
        revealed = bool(s.get("seed"))
        viewer: int | str = seats.get(entry.get("number", 0), "spectator")
        visible = {p for p, seat, _c, shown in poker_positions(entry)
                   if house or revealed or shown or seat == viewer}
        original = copy.deepcopy(entry)
        if not house and not revealed:
            _redact_poker(entry, visible, viewer)
            s["stacked"] = None  # a stacked order is every card: the house's alone
        if seed_hex is None or s.get("entered") or is_legacy(s, seed_hex):
            continue
        # The server's own copy of the deck (re-stubs included) makes the openings.
        shoe = replay_hand({**original, "shoe": {**original["shoe"], "seed": seed_hex, "stacked": None}}).shoe
        assert isinstance(shoe, Shoe)  # entered hands were skipped above
        _publish(s, shoe, sorted(visible))


def _blackjack(doc: dict[str, Any], seed_hex: str | None, house: bool) -> None:
    sj = doc["shoes"][0] if doc.get("shoes") else None
    revealed = bool(sj and (sj.get("seed") or sj.get("order")))
    visible: list[int] = []
    for rnd in doc["rounds"]:
        for p, _card, shown in blackjack_positions(rnd):
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
        for _ in blackjack_positions(rnd):
            shoe.draw()
    _publish(sj, shoe, visible)


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


def _publish(s: dict[str, Any], shoe: Shoe, visible: list[int]) -> None:
    if shoe.commitment != s["commitment"]:  # the escrow is not this shoe's seed: serve no proof
        raise ValueError("the escrowed seed does not make the published commitment")
    s["seed_hash"] = shoe.seed_hash
    s["committed"] = shoe.committed
    s["positions"] = shoe.positions()
    s["openings"] = [shoe.opening(p) for p in sorted(set(visible))]


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
