"""The records a five-card draw hand appends to its log, one per thing that happened.

Player decisions (check, bet, call, raise, fold, draw, stand pat) are returned by the action
that made them; the engine's own steps (antes, the deal, phase changes, a re-stub, uncalled
bets coming back, the showdown and the awards) are appended as they happen. Replaying the
decisions through a fresh hand with the same shoe reproduces the whole log exactly.

``to_json()`` is the full record (hand history, the dealer's audit); what a given viewer may
see of it is :func:`redact`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from ..core.cards import Card, card

HIDDEN = "??"


def _texts(cards: tuple[Card, ...]) -> list[str]:
    return [c.text for c in cards]


class Ante(NamedTuple):
    seat: int
    amount: int
    all_in: bool
    @property
    def type(self) -> str:
        return "ante"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "amount": self.amount, "all_in": self.all_in}


class Dealt(NamedTuple):
    """The five private cards of one seat (dealt one at a time round the table)."""

    seat: int
    cards: tuple[Card, ...]
    @property
    def type(self) -> str:
        return "deal"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "cards": _texts(self.cards)}


class DealtFaceDown(NamedTuple):
    """A real-cards table where only the cards shown are entered: five cards dealt face down to
    one seat, counted but never named (``"??"`` in every copy, the house's included)."""

    seat: int
    number: int
    @property
    def type(self) -> str:
        return "deal"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "cards": [HIDDEN] * self.number}


class PhaseStarted(NamedTuple):
    phase: str
    @property
    def type(self) -> str:
        return "phase"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "phase": self.phase}


class Checked(NamedTuple):
    seat: int
    @property
    def type(self) -> str:
        return "check"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat}


class Bet(NamedTuple):
    seat: int
    amount: int
    all_in: bool
    @property
    def type(self) -> str:
        return "bet"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "amount": self.amount, "all_in": self.all_in}


class Called(NamedTuple):
    seat: int
    amount: int  # what the call put in (less than owed when all-in)
    all_in: bool
    @property
    def type(self) -> str:
        return "call"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "amount": self.amount, "all_in": self.all_in}


class Raised(NamedTuple):
    seat: int
    by: int  # the raise over the bet to call
    amount: int  # everything put in by this action (the call plus the raise)
    to: int  # the new bet to match this round
    all_in: bool
    @property
    def type(self) -> str:
        return "raise"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "by": self.by, "amount": self.amount,
                "to": self.to, "all_in": self.all_in}


class Folded(NamedTuple):
    seat: int
    @property
    def type(self) -> str:
        return "fold"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat}


class Drew(NamedTuple):
    """A draw: the cards thrown away, those received, and the Ace shown when four were thrown."""

    seat: int
    discards: tuple[Card, ...]
    received: tuple[Card, ...]
    shown: Card | None
    @property
    def type(self) -> str:
        return "draw"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "discards": _texts(self.discards),
                "received": _texts(self.received),
                "shown": self.shown.text if self.shown else None}


class DrewFaceDown(NamedTuple):
    """A draw at a real-cards table where only the cards shown are entered: how many cards were
    thrown and dealt, none of them named. Four thrown means an Ace kept and shown to the table
    (its suit is not entered): the showdown checks that the hand holds an Ace."""

    seat: int
    number: int
    @property
    def type(self) -> str:
        return "draw"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "discards": [HIDDEN] * self.number,
                "received": [HIDDEN] * self.number, "shown": None}


class StoodPat(NamedTuple):
    seat: int
    @property
    def type(self) -> str:
        return "stand_pat"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat}


class CardEntered(NamedTuple):
    """A real-cards table: one card the dealer entered, as it landed (private to its seat)."""

    seat: int
    card: Card
    @property
    def type(self) -> str:
        return "card"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "card": self.card.text}


class Discarded(NamedTuple):
    """A real-cards table: the draw decision, before its cards are entered (the ``draw``
    record follows once they all are)."""

    seat: int
    discards: tuple[Card, ...]
    shown: Card | None
    @property
    def type(self) -> str:
        return "discard"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "discards": _texts(self.discards),
                "shown": self.shown.text if self.shown else None}


class TakenBack(NamedTuple):
    """A correction: the dealer took back the last card entered. The hand is again as it was
    before that card, whose record left the log; this note stays, so the history shows it."""

    seat: int
    card: Card
    @property
    def type(self) -> str:
        return "take_back"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "card": self.card.text}


class Ruled(NamedTuple):
    """The dealer's ruling on a hand the showdown flagged: four cards drawn and no Ace shown
    down. ``dead``: the hand is dead (it wins nothing, its chips stay in the pot); else it
    stands and plays as shown."""

    seat: int
    dead: bool
    @property
    def type(self) -> str:
        return "ruling"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "dead": self.dead, "rule": "draw.ace"}


class Restubbed(NamedTuple):
    """The deck ran out during the draw: the muck and earlier discards became a new stub."""

    number: int
    cards: int
    shuffled: bool
    @property
    def type(self) -> str:
        return "restub"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "number": self.number, "cards": self.cards,
                "shuffled": self.shuffled}


class Returned(NamedTuple):
    """The part of a bet nobody called goes back to whoever bet it."""

    seat: int
    amount: int
    @property
    def type(self) -> str:
        return "uncalled"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "amount": self.amount}


class Shown(NamedTuple):
    seat: int
    cards: tuple[Card, ...]
    rank: int
    name: str
    @property
    def type(self) -> str:
        return "show"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "cards": _texts(self.cards),
                "rank": self.rank, "name": self.name}


class Awarded(NamedTuple):
    seat: int
    amount: int
    pot: int  # 0 = main pot, 1.. = side pots
    @property
    def type(self) -> str:
        return "award"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "amount": self.amount, "pot": self.pot}


class CarriedOver(NamedTuple):
    """Chips a tied pot could not split in whole chips: they go into the next hand's pot."""

    amount: int
    pot: int
    @property
    def type(self) -> str:
        return "carry"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "amount": self.amount, "pot": self.pot}


Record = (Ante | Dealt | DealtFaceDown | PhaseStarted | Checked | Bet | Called | Raised | Folded | Drew
          | DrewFaceDown | StoodPat | CardEntered | Discarded | TakenBack | Ruled | Restubbed | Returned | Shown
          | Awarded | CarriedOver)

#: Record types that are a player's decision (what a replay feeds back in).
DECISIONS = frozenset({"check", "bet", "call", "raise", "fold", "draw", "stand_pat"})
#: With entered cards the draw decision is ``discard`` (its ``draw`` record follows the cards),
#: and the cards entered are inputs too.
ENTERED_INPUTS = frozenset({"check", "bet", "call", "raise", "fold", "discard", "stand_pat", "card"})
#: When only the cards shown are entered, the draw is a decision again (a count, dealt at once),
#: and the dealer's ruling on a flagged hand is one too.
SHOWN_ONLY_INPUTS = frozenset({"check", "bet", "call", "raise", "fold", "draw", "stand_pat", "card", "ruling"})
#: Every record a replay feeds back in, whatever the table (a take-back note is copied).
INPUTS = DECISIONS | ENTERED_INPUTS | SHOWN_ONLY_INPUTS | {"take_back"}


def redact(doc: dict[str, Any], viewer: int | str) -> dict[str, Any]:
    """What ``viewer`` may see of one record's JSON: private cards of other seats become ``"??"``.

    A seat sees its own deal and draw; everyone sees the Ace shown with a four-card draw and
    the cards shown at showdown; a spectator or the card room's dealer sees no private card.
    """
    kind = doc["type"]
    if kind == "deal" and doc["seat"] != viewer:
        return {**doc, "cards": [HIDDEN] * len(doc["cards"])}
    if kind == "draw" and doc["seat"] != viewer:
        return {**doc, "discards": [HIDDEN] * len(doc["discards"]),
                "received": [HIDDEN] * len(doc["received"])}
    if kind == "discard" and doc["seat"] != viewer:
        return {**doc, "discards": [HIDDEN] * len(doc["discards"])}
    if kind in ("card", "take_back") and doc["seat"] != viewer:
        return {**doc, "card": HIDDEN}
    return doc


def _cards(texts: list[str]) -> tuple[Card, ...]:
    return tuple(card(t) for t in texts)


def _maybe(text: str | None) -> Card | None:
    return card(text) if text is not None else None


def _dealt(d: Mapping[str, Any]) -> Record:
    if HIDDEN in d["cards"]:
        return DealtFaceDown(d["seat"], len(d["cards"]))
    return Dealt(d["seat"], _cards(d["cards"]))


def _drew(d: Mapping[str, Any]) -> Record:
    if HIDDEN in d["discards"] or HIDDEN in d["received"]:
        return DrewFaceDown(d["seat"], len(d["discards"]))
    return Drew(d["seat"], _cards(d["discards"]), _cards(d["received"]), _maybe(d.get("shown")))


_FROM_JSON: dict[str, Callable[[Mapping[str, Any]], Record]] = {
    "ante": lambda d: Ante(d["seat"], d["amount"], d["all_in"]),
    "deal": _dealt,
    "phase": lambda d: PhaseStarted(d["phase"]),
    "check": lambda d: Checked(d["seat"]),
    "bet": lambda d: Bet(d["seat"], d["amount"], d.get("all_in", False)),
    "call": lambda d: Called(d["seat"], d.get("amount", 0), d.get("all_in", False)),
    "raise": lambda d: Raised(d["seat"], d["by"], d.get("amount", 0), d.get("to", 0), d.get("all_in", False)),
    "fold": lambda d: Folded(d["seat"]),
    "draw": _drew,
    "stand_pat": lambda d: StoodPat(d["seat"]),
    "card": lambda d: CardEntered(d["seat"], card(d["card"])),
    "discard": lambda d: Discarded(d["seat"], _cards(d["discards"]), _maybe(d.get("shown"))),
    "take_back": lambda d: TakenBack(d["seat"], card(d["card"])),
    "ruling": lambda d: Ruled(d["seat"], d["dead"]),
    "restub": lambda d: Restubbed(d["number"], d["cards"], d["shuffled"]),
    "uncalled": lambda d: Returned(d["seat"], d["amount"]),
    "show": lambda d: Shown(d["seat"], _cards(d["cards"]), d["rank"], d["name"]),
    "award": lambda d: Awarded(d["seat"], d["amount"], d["pot"]),
    "carry": lambda d: CarriedOver(d["amount"], d["pot"]),
}


def from_json(doc: Mapping[str, Any]) -> Record:
    """The record a log entry's JSON (:meth:`to_json`, as stored in a hand history) stands for.
    Raises ``KeyError`` for an unknown type or a missing field, ``ValueError`` for a card that
    is not one (a redacted ``"??"`` where a card is named)."""
    return _FROM_JSON[doc["type"]](doc)
