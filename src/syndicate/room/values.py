"""The room's values: what the store hands back. Frozen, so no one edits a row behind the
store's back, and free of SQLAlchemy so the room does not depend on it."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

#: The key of a real-cards table's card source in its rules' JSON (see :attr:`Table.cards`).
CARDS_KEY = "cards"
#: The key of a table's own turn clock in its rules' JSON (see :meth:`Table.turn_clock`).
CLOCK_KEY = "turn_clock"
#: What the rules' JSON of a table holds beside its game's rules.
TABLE_KEYS = (CARDS_KEY, CLOCK_KEY)
#: Where a table's cards come from: the server's shuffled, committed shoe, or real cards the
#: dealer deals and enters (docs/dealer.md).
CARD_SOURCES = ("shuffled", "real")


@dataclass(frozen=True, slots=True)
class Event:
    id: int
    name: str
    created_at: datetime
    seed_reveal: str = "table_close"  # or "event_end" (docs/fairness.md)
    ended_at: datetime | None = None
    ended_by: int | None = None  # the admin who ended it
    #: The turn clock of the tables opened in the event, by card source ("real", "shuffled"):
    #: seconds, or None for none; only what its admin set (docs/server.md).
    turn_clock: dict[str, int | None] = field(default_factory=dict)
    #: A walk-in's chip sale above this (cents) waits for a pit boss's or the admin's approval;
    #: None: no limit (docs/walk-ins.md).
    sale_limit: int | None = None
    #: The door's exchange rate and starting stack (docs/door.md): ``{"paid": cents, "chips":
    #: cents, "stack": cents or None}``; empty: none set.
    door: dict[str, int | None] = field(default_factory=dict)
    #: Chips have no cash value (a charity night): nothing pays chips out as money; they count
    #: for the prize draws (docs/charity-night.md).
    play_money: bool = False
    #: The most the prizes of all the event's draws may be worth together (cents); None: no cap.
    prize_cap: int | None = None
    #: The dealers' rotation (docs/dealer.md): minutes a dealer deals before a break, and a
    #: break's minutes; None: the room's defaults (:mod:`syndicate.room.shifts`).
    shift_minutes: int | None = None
    break_minutes: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "seed_reveal": self.seed_reveal,
                "ended_at": self.ended_at.isoformat() if self.ended_at else None, "ended_by": self.ended_by,
                "turn_clock": dict(self.turn_clock), "sale_limit": self.sale_limit, "door": dict(self.door) or None,
                "play_money": self.play_money, "prize_cap": self.prize_cap,
                "shift_minutes": self.shift_minutes, "break_minutes": self.break_minutes}


#: What an account is (its ``kind``): a person, who signs in with a password; a bot; or a
#: walk-in, a player a dealer seats by name (docs/walk-ins.md). Only a person signs in.
PERSON, BOT, WALK_IN = "person", "bot", "walk_in"
ACCOUNT_KINDS = (PERSON, BOT, WALK_IN)
#: The password hash of a bot's or a walk-in's account: no password matches it. It says nothing
#: of the account (its ``kind`` does), and the sign-in refuses those kinds before any check.
NO_PASSWORD = "!no password signs in"


@dataclass(frozen=True, slots=True)
class Account:
    id: int
    event_id: int
    name: str
    role: str
    password_hash: str
    #: A walk-in linked by the host to a player's account: their history counts as that player's.
    linked_to: int | None = None
    kind: str = PERSON  # one of ACCOUNT_KINDS

    def to_json(self) -> dict[str, Any]:  # never the hash
        out: dict[str, Any] = {"id": self.id, "event_id": self.event_id, "name": self.name, "role": self.role}
        if self.kind == WALK_IN:
            out["walk_in"] = True
            out["linked_to"] = self.linked_to
        return out


@dataclass(frozen=True, slots=True)
class RosterEntry:
    id: int
    event_id: int
    dealer: str
    pit_boss: str
    active: bool


@dataclass(frozen=True, slots=True)
class RosterChange:
    dealer: str
    pit_boss: str
    action: str
    by: str | None
    at: datetime


@dataclass(frozen=True, slots=True)
class Table:
    id: int
    event_id: int
    name: str
    game: str
    rules: dict[str, Any]
    seats: int
    dealer_id: int
    status: str
    #: Why the server could not restore the table at its last start (None: it could): such a
    #: table is served to no one until a start restores it (docs/server.md, "Crash safety").
    fault: str | None = None

    @property
    def cards(self) -> str:
        """Where the table's cards come from: ``"shuffled"`` (the server's committed shoe) or
        ``"real"`` (the dealer deals real cards and enters each one: docs/dealer.md). Kept in the
        rules' JSON, and only when real, so every table opened before it reads as shuffled."""
        return str(self.rules.get(CARDS_KEY, "shuffled"))

    def turn_clock(self, default: float | None) -> float | None:
        """The table's turn clock in seconds (None: no clock), as its dealer opened it (or as the
        event's default then was), else ``default`` (the server's, for its card source). Kept in
        the rules' JSON, and only when set (docs/dealer.md)."""
        return self.rules[CLOCK_KEY] if CLOCK_KEY in self.rules else default  # type: ignore[no-any-return]

    @property
    def game_rules(self) -> dict[str, Any]:
        """The rules the game's engine takes: the rules' JSON without the card source and clock."""
        return {k: v for k, v in self.rules.items() if k not in TABLE_KEYS}

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "event_id": self.event_id, "name": self.name, "game": self.game,
            "rules": self.rules, "seats": self.seats, "dealer_id": self.dealer_id, "status": self.status,
            "cards": self.cards,
        }


@dataclass(frozen=True, slots=True)
class LedgerAccount:
    id: int
    event_id: int
    key: str
    kind: str
    name: str
    balance: int


@dataclass(frozen=True, slots=True)
class Move:
    """``amount`` cents from one ledger account to another (ids)."""

    source: int
    dest: int
    amount: int


@dataclass(frozen=True, slots=True)
class Line:
    """One ledger entry as seen from one account: ``amount`` is signed (in: +, out: -)."""

    transaction_id: int
    entry_id: int
    at: datetime
    kind: str
    memo: str
    amount: int
    other: str  # the other account's name
    hand_id: int | None


@dataclass(frozen=True, slots=True)
class Entry:
    """One ledger entry of an event with both accounts' keys and names (the report's rows)."""

    transaction_id: int
    entry_id: int
    at: datetime
    kind: str
    memo: str
    hand_id: int | None
    source_key: str
    source_name: str
    dest_key: str
    dest_name: str
    amount: int


@dataclass(frozen=True, slots=True)
class Hand:
    id: int
    table_id: int
    number: int
    game: str
    commitment: str
    status: str
    history: dict[str, Any]
    started_at: datetime
    finished_at: datetime | None
    dealer_id: int | None = None  # who dealt it (None: stored before the room kept it)


@dataclass(frozen=True, slots=True)
class CashCount:
    """The cash a table's dealer holds, counted: ``counted`` beside what the table's cash
    account said at that moment (``expected``, cents)."""

    id: int
    table_id: int
    counted: int
    expected: int
    by: int
    at: datetime

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "table": self.table_id, "counted": self.counted, "expected": self.expected,
                "difference": self.counted - self.expected, "by": self.by, "at": self.at.isoformat()}


@dataclass(frozen=True, slots=True)
class ChipSale:
    """A walk-in's chip sale above the event's limit: ``status`` is ``pending`` (waiting for a
    pit boss or the admin), ``approved`` (the table carries it out when it may), ``done`` (the
    chips moved), ``refused`` or ``cancelled`` (the seat left first): then nothing moved."""

    id: int
    table_id: int
    seat: int
    walk_in_id: int
    amount: int
    status: str
    requested_by: int
    requested_at: datetime
    decided_by: int | None = None
    decided_at: datetime | None = None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "table": self.table_id, "seat": self.seat, "walk_in": self.walk_in_id,
                "amount": self.amount, "status": self.status, "requested_by": self.requested_by,
                "requested_at": self.requested_at.isoformat(), "decided_by": self.decided_by,
                "decided_at": self.decided_at.isoformat() if self.decided_at else None}


@dataclass(frozen=True, slots=True)
class Lease:
    """Which server process runs a live table (docs/deployment.md), and the table's status."""

    owner: str
    epoch: int
    expires_at: datetime
    table_status: str


@dataclass(frozen=True, slots=True)
class DoorPayment:
    """What guest ``account_id`` paid at the door (``method`` cash, card or comp; ``paid`` cents,
    0 for a comp) and the chips issued for it (``chips`` cents); ``id`` is the receipt's number."""

    id: int
    event_id: int
    account_id: int
    method: str
    paid: int
    chips: int
    by: int
    at: datetime

    def to_json(self) -> dict[str, Any]:
        return {"receipt": self.id, "guest": self.account_id, "method": self.method, "paid": self.paid,
                "chips": self.chips, "by": self.by, "at": self.at.isoformat()}


@dataclass(frozen=True, slots=True)
class Voucher:
    """A guest's sign-in voucher, by the hash of its secret."""

    token_hash: str
    account_id: int
    created_at: datetime
    expires_at: datetime
    used_at: datetime | None
    revoked_at: datetime | None


@dataclass(frozen=True, slots=True)
class PrizeDraw:
    """A prize draw (docs/prize-draw.md): a ``raffle``, or prizes to the ``top`` chip counts.
    ``seed`` (hex) is secret until ``status`` is ``drawn``; ``tickets`` are ``(number, holder)``
    once closed (at a ``top`` draw the standings, ``(holder, chips)``); ``winners`` ``(prize,
    ticket, holder)`` once drawn (ticket 0 at a ``top`` draw)."""

    id: int
    event_id: int
    name: str
    kind: str
    status: str
    rate: dict[str, Any]
    prizes: list[dict[str, Any]]
    one_prize_per_guest: bool
    seed: str
    commitment: str
    tickets: list[tuple[int, int]] | None
    witness: str | None
    winners: list[tuple[int, int, int]] | None
    created_at: datetime
    closed_at: datetime | None
    drawn_at: datetime | None


#: What a dealer's shift event is (docs/dealer.md, "Shifts, breaks and handovers").
SHIFT_KINDS = ("clock_in", "clock_out", "break", "back", "take", "leave")


@dataclass(frozen=True, slots=True)
class ShiftEvent:
    """One step of a dealer's shift: clocked in or out, a break begun or ended, a table taken or
    left (``table_id``); ``by`` is the account that did it."""

    id: int
    account_id: int
    kind: str
    table_id: int | None
    by: int | None
    at: datetime
