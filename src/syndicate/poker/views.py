"""What each viewer sees of a hand of five-card draw, as JSON: a seat, ``"spectator"`` or
``"dealer"``. Another player's private cards never appear before the showdown, nor a folded hand
ever; the card room's dealer runs the table but is not a player and sees no private card."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import records as rec
from .dealing import ShuffledDeck
from .evaluator import spoken
from .state import DRAW

if TYPE_CHECKING:
    from .draw import DrawHand


def visible_cards(hand: DrawHand, seat: int, viewer: int | str) -> list[str] | None:
    """``seat``'s cards as ``viewer`` may see them: ``"??"`` for a hidden card, ``None`` for
    a folded (mucked) hand that is not the viewer's own."""
    if hand.shown_only:
        return _visible_face_down(hand, seat, viewer)
    cards = hand.cards[seat]
    if seat == viewer:
        return [c.text for c in cards]
    if seat in hand.folded:
        return None
    if seat in hand.showed_down:
        return [c.text for c in cards]
    shown = hand.shown[seat]
    return [c.text if c in shown else rec.HIDDEN for c in cards]


def _visible_face_down(hand: DrawHand, seat: int, viewer: int | str) -> list[str] | None:
    """Only the cards shown are entered: a hand is face-down cards until the showdown; the
    cards entered there go to the seat and the dealer who entered them, and to everyone
    once the hand is settled. A folded (or dead) hand is in the muck: nobody's."""
    if seat in hand.folded or seat in hand.dead:
        return None
    known = [c.text for c in hand.cards[seat]]
    if not (seat in hand.showed_down or viewer == seat or viewer == "dealer"):
        known = []
    return known + [rec.HIDDEN] * (hand.held[seat] - len(known))


def view(hand: DrawHand, viewer: int | str = "spectator", public: dict[str, Any] | None = None) -> dict[str, Any]:
    """The hand as ``viewer`` (a seat, ``"spectator"`` or ``"dealer"``) may see it, as JSON.

    Another player's private cards never appear before the showdown, nor a folded hand
    ever; the card room's dealer runs the table but is not a player and sees no private card.
    ``public``: :func:`public_view` of the hand as it stands, when one is already made (a
    table sends every viewer their view of the same moment: the part all of them see alike
    is made once).
    """
    if not (viewer in ("spectator", "dealer") or viewer in hand.stacks):
        raise ValueError(
            f"viewer must be a seat in this hand, 'spectator' or 'dealer', got {viewer!r}"
        )
    if public is None:
        public = public_view(hand)
    out = dict(public)
    out["viewer"] = viewer
    out["seats"] = [{**p, "cards": visible_cards(hand, p["seat"], viewer)} for p in public["seats"]]
    actor = hand.to_act
    if actor is not None and actor == viewer:
        out["legal_actions"] = hand.legal_actions(actor)
        out["to_call"] = max(0, hand.to_call(actor)) if hand.phase != DRAW else 0
        out["bet_range"] = hand.bet_range(actor)
        out["raise_range"] = hand.raise_range(actor)
    return out


def public_view(hand: DrawHand) -> dict[str, Any]:
    """What every viewer of the hand sees alike: :func:`view` without a viewer, the seats
    without their cards (``cards`` is filled in per viewer). It names no private card."""
    seats = [{
        "seat": s,
        "stack": hand.stacks[s],
        "bet": hand.street[s],
        "total": hand.total[s],
        "folded": s in hand.folded,
        "all_in": hand.is_all_in(s),
        "cards": None,
        "value": spoken(hand.values[s].name) if s in hand.values else None,
        "won": hand.awards.get(s, 0) if hand.is_terminal else None,
    } for s in hand.order]
    out = {
        "game": "poker",
        "hand": hand.number,
        "version": hand.version,
        "viewer": None,
        "phase": hand.phase,
        "to_act": hand.to_act,
        "legal_actions": [],
        "button": hand.button,
        "ante": hand.rules.ante,
        "current_bet": hand.current_bet,
        "raises": hand.raises,
        "raise_cap": hand.rules.raise_cap,
        "pot": hand.pot,
        "pots": [p.to_json() for p in hand.current_pots()],
        "carry_in": hand.carry_in,
        "carry_out": hand.carry_out,
        "commitment": hand.dealer.commitment if isinstance(hand.dealer, ShuffledDeck) else None,
        "entered": hand.entered,
        "card_needed": hand.card_needed.to_json() if hand.card_needed is not None else None,
        "seats": seats,
    }
    if hand.shown_only:
        _public_face_down(hand, out)
    return out


def _public_face_down(hand: DrawHand, out: dict[str, Any]) -> None:
    """What :func:`public_view` adds when only the cards shown are entered: what each seat
    threw and drew (``drew``: ``None`` before the draw, 0 standing pat), a hand the showdown
    flagged and a dead one, the deck and the muck as counted, what the dealer deals now, and
    the flagged hand that waits for the dealer's ruling."""
    flagged = set(hand.flagged)
    for p in out["seats"]:
        s = p["seat"]
        p["drew"] = hand.drew.get(s)
        p["flag"] = "drew four cards (an Ace kept) but shows no Ace" if s in flagged else None
        p["dead"] = s in hand.dead
    out["shown_only"] = True
    out["deck"] = {"left": hand.stub_left, "mucked": hand.mucked}
    out["to_deal"] = hand.to_deal.to_json() if hand.to_deal is not None else None
    out["ruling_needed"] = hand.ruling_needed


def log_view(hand: DrawHand, viewer: int | str = "spectator") -> list[dict[str, Any]]:
    """The log as ``viewer`` may see it: other seats' private cards redacted to ``"??"``."""
    return [rec.redact(r.to_json(), viewer) for r in hand.log]
