"""The records a Blackjack round appends to its log, one per thing that happened.

The log is the hand's history as a by-product of playing it (the PokerKit habit): each
applied action returns its record, the dealer's automatic steps (cards, reveals, payouts)
add theirs, and replaying the decision records through a new round must reproduce the log
exactly. ``seat`` -1 is the dealer (the house).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..core.cards import Card, card

DEALER = -1


class BetPlaced(NamedTuple):
    seat: int
    amount: int

    @property
    def type(self) -> str:
        return "bet"


class BetWithdrawn(NamedTuple):
    seat: int
    amount: int

    @property
    def type(self) -> str:
        return "withdraw"


class DealStarted(NamedTuple):
    seats: tuple[int, ...]
    shoe_position: int

    @property
    def type(self) -> str:
        return "deal"


class CardDealt(NamedTuple):
    seat: int  # DEALER for the dealer
    hand: int
    card: Card
    face_up: bool

    @property
    def type(self) -> str:
        return "card"


class InsuranceTaken(NamedTuple):
    seat: int
    amount: int

    @property
    def type(self) -> str:
        return "insurance"


class InsuranceDeclined(NamedTuple):
    seat: int

    @property
    def type(self) -> str:
        return "no_insurance"


class EvenMoneyTaken(NamedTuple):
    seat: int

    @property
    def type(self) -> str:
        return "even_money"


class PlayedOn(NamedTuple):
    """Declined early surrender."""

    seat: int

    @property
    def type(self) -> str:
        return "play_on"


class Surrendered(NamedTuple):
    seat: int
    hand: int

    @property
    def type(self) -> str:
        return "surrender"


class Peeked(NamedTuple):
    """The dealer checked the hole card for blackjack (peek games, Ace or ten showing)."""

    blackjack: bool

    @property
    def type(self) -> str:
        return "peek"


class Hit(NamedTuple):
    seat: int
    hand: int

    @property
    def type(self) -> str:
        return "hit"


class Stood(NamedTuple):
    seat: int
    hand: int
    auto: bool  # stood by rule: 21, or a split ace that may not be hit

    @property
    def type(self) -> str:
        return "stand"


class Doubled(NamedTuple):
    seat: int
    hand: int
    amount: int

    @property
    def type(self) -> str:
        return "double"


class Split(NamedTuple):
    seat: int
    hand: int
    new_hand: int
    amount: int

    @property
    def type(self) -> str:
        return "split"


class Left(NamedTuple):
    """A player left after the deal: every bet still on the table is forfeit."""

    seat: int

    @property
    def type(self) -> str:
        return "leave"


class HoleRevealed(NamedTuple):
    card: Card

    @property
    def type(self) -> str:
        return "reveal"


class TakenBack(NamedTuple):
    """A correction at a real-cards table: the dealer took back the last card entered (wrongly
    entered, or dealt to the wrong place). The round is again as it was before that card, whose
    record and consequences left the log; this note stays, so the history shows the mistake."""

    seat: int
    hand: int
    card: Card
    face_up: bool

    @property
    def type(self) -> str:
        return "take_back"


class Shuffled(NamedTuple):
    """Real cards: the dealer shuffled the discards back into the shoe during the round (it ran
    low): ``returned`` cards went back to the count; the ``on_table`` cards of the round in play
    stay counted as out."""

    returned: int
    on_table: int

    @property
    def type(self) -> str:
        return "shuffle"


class Paid(NamedTuple):
    """Settlement of one bet: ``returned`` chips go back to the seat (stake included); ``net``
    is the seat's gain (negative: the house's). ``hand`` -1 is the insurance bet."""

    seat: int
    hand: int
    outcome: str
    returned: int
    net: int

    @property
    def type(self) -> str:
        return "payout"


Record = (
    BetPlaced | BetWithdrawn | DealStarted | CardDealt | InsuranceTaken | InsuranceDeclined
    | EvenMoneyTaken | PlayedOn | Surrendered | Peeked | Hit | Stood | Doubled | Split | Left
    | HoleRevealed | TakenBack | Shuffled | Paid
)
_ALL: tuple[Any, ...] = (
    BetPlaced, BetWithdrawn, DealStarted, CardDealt, InsuranceTaken, InsuranceDeclined,
    EvenMoneyTaken, PlayedOn, Surrendered, Peeked, Hit, Stood, Doubled, Split, Left,
    HoleRevealed, TakenBack, Shuffled, Paid,
)
# Each record's type name, read from an instance of it (its fields filled with None).
RECORD_TYPES: dict[str, Any] = {cls(*([None] * len(cls._fields))).type: cls for cls in _ALL}


def to_json(record: Any) -> dict[str, Any]:
    """A record as a JSON object: ``{"type": ..., field: value, ...}``, cards as text."""
    out: dict[str, Any] = {"type": record.type}
    for key, value in zip(record._fields, record):
        if isinstance(value, Card):
            value = value.text
        elif isinstance(value, tuple):
            value = list(value)
        out[key] = value
    return out


def from_json(data: dict[str, Any]) -> Any:
    """The record a JSON object describes (inverse of :func:`to_json`)."""
    kind = data.get("type")
    cls = RECORD_TYPES.get(kind)  # type: ignore[arg-type]
    if cls is None:
        raise ValueError(f"unknown record type {kind!r}; known: {', '.join(RECORD_TYPES)}")
    values = []
    for name in cls._fields:  # type: ignore[attr-defined]
        if name not in data:
            raise ValueError(f"record {kind!r} lacks field {name!r}")
        v = data[name]
        if name == "card":
            v = card(v, suitless=True)  # an entered Blackjack card may be a rank alone
        elif name == "seats":
            v = tuple(v)
        values.append(v)
    return cls(*values)
