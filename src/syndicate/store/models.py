"""The card room's tables in the database (SQLAlchemy 2 declarative models).

Money is ``BigInteger`` cents. The ledger is double-entry by construction: an entry moves a
positive amount from one account to another, so every transaction sums to zero and the sum of
all balances in an event is always zero. Each account also keeps its running ``balance`` so
the database itself can refuse a player balance below zero (a CHECK constraint) even when two
writers race; the tests check that it always equals the sum of its entries.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utc(dt: datetime) -> datetime:
    """SQLite hands datetimes back naive; they were stored in UTC."""
    return dt if dt.tzinfo is not None else dt.replace(tzinfo=UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class EventRow(Base):
    __tablename__ = "events"
    __table_args__ = (CheckConstraint("seed_reveal IN ('table_close','event_end')", name="seed_reveal"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # When the seeds of the event's shoes are revealed (docs/fairness.md): at each table's close
    # or only once the whole event has ended.
    seed_reveal: Mapped[str] = mapped_column(String(20), default="table_close", server_default="table_close")
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    ended_by: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # The turn clock of the tables opened in the event, per card source, where its admin set one
    # (JSON: {"real": seconds or null for none, "shuffled": ...}): docs/server.md.
    turn_clock: Mapped[str | None] = mapped_column(Text, nullable=True)
    # A walk-in's chip sale above this waits for a pit boss's or the admin's approval (migration
    # 0009; None: no limit).
    sale_limit: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    # The door's exchange rate and starting stack (migration 0013; JSON: {"paid": cents,
    # "chips": cents, "stack": cents or null}; None: none set): docs/door.md.
    door: Mapped[str | None] = mapped_column(Text, nullable=True)
    # A night whose chips have no cash value: nothing pays chips out as money (migration 0015).
    play_money: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # The most the prizes of all the event's draws may be worth together (cents; None: no cap).
    prize_cap: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    # The dealers' rotation (migration 0017; None: the room's defaults): how long a dealer deals
    # before a break, and how long a break lasts, in minutes (docs/dealer.md).
    shift_minutes: Mapped[int | None] = mapped_column(Integer, nullable=True)
    break_minutes: Mapped[int | None] = mapped_column(Integer, nullable=True)


class AccountRow(Base):
    """``name`` is shown as first entered; ``name_key`` is its canonical form
    (:func:`syndicate.room.accounts.canonical_name`), what sign-in and every lookup match, and it
    is unique in an event, so "Admin" and "admin " cannot be two accounts (migration 0004)."""

    __tablename__ = "accounts"
    __table_args__ = (
        UniqueConstraint("event_id", "name", name="event_name"),
        # an index, not a constraint: SQLite adds it without rebuilding the table (which the
        # rows of other tables point at)
        Index("uq_accounts_event_id_name_key", "event_id", "name_key", unique=True),
        CheckConstraint("role IN ('admin','pit_boss','dealer','player','spectator')", name="role"),
        CheckConstraint("kind IN ('person','bot','walk_in')", name="kind"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    name: Mapped[str] = mapped_column(String(100))
    name_key: Mapped[str] = mapped_column(String(100))
    role: Mapped[str] = mapped_column(String(20))
    password_hash: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # A walk-in linked to a player's account (migration 0008): an alias, so that the ledger stays
    # as it was written and the walk-in's hands, stacks and winnings are read as the player's.
    linked_to: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True, index=True)
    # A person, who signs in; or a bot or a walk-in, who never do (migration 0011,
    # syndicate.room.values.ACCOUNT_KINDS).
    kind: Mapped[str] = mapped_column(String(10), default="person", server_default="person")


class TokenRow(Base):
    """A sign-in: only the SHA-256 of the secret is stored, so a leaked table signs in no one."""

    __tablename__ = "auth_tokens"
    __table_args__ = (CheckConstraint("kind IN ('session','token')", name="kind"),)
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    kind: Mapped[str] = mapped_column(String(10))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RosterRow(Base):
    """One dealer on the event's roster, under a pit boss; ``active`` is the authorization."""

    __tablename__ = "roster"
    __table_args__ = (UniqueConstraint("event_id", "dealer", name="event_dealer"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    dealer: Mapped[str] = mapped_column(String(100))
    pit_boss: Mapped[str] = mapped_column(String(100))
    active: Mapped[bool] = mapped_column(Boolean)


class RosterChangeRow(Base):
    """The roster's history: who authorized or revoked whom, and when."""

    __tablename__ = "roster_changes"
    __table_args__ = (CheckConstraint("action IN ('authorize','revoke')", name="action"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    roster_id: Mapped[int] = mapped_column(ForeignKey("roster.id"), index=True)
    action: Mapped[str] = mapped_column(String(10))
    by_account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TableRow(Base):
    __tablename__ = "card_tables"
    # ``game`` is a registered game's id: the room checks it (room/games), so a new game needs
    # no migration (0012 dropped the CHECK that named the first two).
    __table_args__ = (
        CheckConstraint("status IN ('open','paused','closed')", name="status"),
        CheckConstraint("seats >= 1 AND seats <= 10", name="seats"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    name: Mapped[str] = mapped_column(String(100))
    game: Mapped[str] = mapped_column(String(20))
    rules: Mapped[str] = mapped_column(Text)  # JSON: every rule key, the preset already applied
    seats: Mapped[int] = mapped_column(Integer)
    dealer_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    status: Mapped[str] = mapped_column(String(10))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # Why the server could not restore the table at its start (migration 0009): served to no one
    # until a start restores it; `syndicate admin check` reports it.
    fault: Mapped[str | None] = mapped_column(Text, nullable=True)


class LedgerAccountRow(Base):
    """A place chips can be: a player's bankroll, a table's float, the event's cashier."""

    __tablename__ = "ledger_accounts"
    __table_args__ = (
        UniqueConstraint("event_id", "key", name="event_key"),
        CheckConstraint("kind IN ('player','table','cashier')", name="kind"),
        CheckConstraint("kind <> 'player' OR balance >= 0", name="player_not_negative"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    key: Mapped[str] = mapped_column(String(60))  # "player:7", "table:3", "cashier"
    kind: Mapped[str] = mapped_column(String(10))
    name: Mapped[str] = mapped_column(String(120))
    balance: Mapped[int] = mapped_column(BigInteger, default=0)


class LedgerTransactionRow(Base):
    __tablename__ = "ledger_transactions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    kind: Mapped[str] = mapped_column(String(30))
    memo: Mapped[str] = mapped_column(String(300))
    by_account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True)
    hand_id: Mapped[int | None] = mapped_column(ForeignKey("hands.id"), nullable=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LedgerEntryRow(Base):
    """``amount`` cents from ``source`` to ``dest``: zero-sum by construction."""

    __tablename__ = "ledger_entries"
    __table_args__ = (
        CheckConstraint("amount > 0", name="amount_positive"),
        CheckConstraint("source_id <> dest_id", name="two_accounts"),
        Index("ix_ledger_entries_source", "source_id"),
        Index("ix_ledger_entries_dest", "dest_id"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    transaction_id: Mapped[int] = mapped_column(ForeignKey("ledger_transactions.id"), index=True)
    source_id: Mapped[int] = mapped_column(ForeignKey("ledger_accounts.id"))
    dest_id: Mapped[int] = mapped_column(ForeignKey("ledger_accounts.id"))
    amount: Mapped[int] = mapped_column(BigInteger)


class HandRow(Base):
    """One hand (a Blackjack round or a draw hand) as it is played: its history JSON (the
    engine's format) and the commitment of the shoe it was dealt from."""

    __tablename__ = "hands"
    __table_args__ = (
        UniqueConstraint("table_id", "number", name="table_number"),
        CheckConstraint("status IN ('playing','settled','voided')", name="status"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("card_tables.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    game: Mapped[str] = mapped_column(String(20))
    commitment: Mapped[str] = mapped_column(String(64), index=True)
    status: Mapped[str] = mapped_column(String(10))
    history: Mapped[str] = mapped_column(Text)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # Who dealt it (migration 0017): the table's dealer when its cards came out. None: a hand
    # stored before the room kept it (its table's dealer then is the best guess).
    dealer_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True)


class ShoeRow(Base):
    """A shoe's secret seed, kept server-side from its first card so that a shoe interrupted
    by a crash can still be revealed (and verified) afterwards. The seed is never served
    before ``revealed_at``; the commitment (its SHA-256) is public from the start."""

    __tablename__ = "shoes"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("card_tables.id"), index=True)
    commitment: Mapped[str] = mapped_column(String(64), unique=True)
    seed: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    revealed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class HandPlayerRow(Base):
    """Who played a hand, and at which seat: what a search by player reads."""

    __tablename__ = "hand_players"
    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id"), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True, index=True)
    seat: Mapped[int] = mapped_column(Integer)


class TableLeaseRow(Base):
    """Which server process runs a live table (several processes on one database: docs/deployment.md).

    ``owner`` holds the table until ``expires_at`` and renews it while alive; once it has
    expired, another process may take the table, which raises ``epoch``. Every write a table's
    owner makes checks, in its own transaction, that the epoch is still the one it took: a
    stale owner's writes are refused (the epoch is the fencing token)."""

    __tablename__ = "table_leases"
    table_id: Mapped[int] = mapped_column(ForeignKey("card_tables.id"), primary_key=True)
    owner: Mapped[str] = mapped_column(String(64))
    epoch: Mapped[int] = mapped_column(BigInteger)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class CashCountRow(Base):
    """The cash a table's dealer holds, counted (migration 0008), beside what the table's cash
    account (``cash:<table>``) said in the same transaction."""

    __tablename__ = "cash_counts"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("card_tables.id"), index=True)
    counted: Mapped[int] = mapped_column(BigInteger)
    expected: Mapped[int] = mapped_column(BigInteger)
    by_account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChipSaleRow(Base):
    """A walk-in's chip sale above the event's limit (migration 0009): requested by the table's
    dealer, approved or refused by a pit boss or the admin; no chip moves until the table's
    actor carries an approved one out (``done``). One whose seat left first is ``cancelled``."""

    __tablename__ = "chip_sales"
    __table_args__ = (
        CheckConstraint("status IN ('pending','approved','refused','done','cancelled')", name="status"),
        CheckConstraint("amount > 0", name="amount_positive"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("card_tables.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    walk_in_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    amount: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(10))
    requested_by: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    requested_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    decided_by: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True)
    decided_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class TableSeatRow(Base):
    """Who holds a seat of a live table (migration 0009), written with the ledger move that seats
    or unseats them: a stack holding chips with no row behind it is stranded (`syndicate admin
    check`). A start returns every stack and clears the table's rows."""

    __tablename__ = "table_seats"
    table_id: Mapped[int] = mapped_column(ForeignKey("card_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))


class EventLimitRow(Base):
    """An event's table limits for one game, as its admin set them (a dealer cannot set a
    table's stakes beyond them). No row: the house rule's bounds
    (each game's ``bounds``, ``room/games``)."""

    __tablename__ = "event_limits"
    __table_args__ = (  # ``game``: checked by the room, as at card_tables
        CheckConstraint("min_bet > 0 AND min_bet <= max_bet", name="bounds"),
    )
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(10), primary_key=True)
    min_bet: Mapped[int] = mapped_column(BigInteger)
    max_bet: Mapped[int] = mapped_column(BigInteger)


class DoorPaymentRow(Base):
    """What a guest paid at the door (cash, card, or a comp of nothing) and the chips issued for
    it (migration 0013): the money apart from the chips; the chips' move is in the ledger."""

    __tablename__ = "door_payments"
    __table_args__ = (
        CheckConstraint("method IN ('cash','card','comp')", name="method"),
        CheckConstraint("paid >= 0 AND chips >= 0", name="not_negative"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    method: Mapped[str] = mapped_column(String(10))
    paid: Mapped[int] = mapped_column(BigInteger)
    chips: Mapped[int] = mapped_column(BigInteger)
    by_account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class VoucherRow(Base):
    """A guest's sign-in voucher (migration 0013): only the SHA-256 of its secret is stored; it
    signs its guest in once, before it expires, unless revoked."""

    __tablename__ = "vouchers"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class PrizeDrawRow(Base):
    """A prize draw (migration 0014, docs/prize-draw.md), a ``raffle`` or prizes to the ``top``
    chip counts: ``open`` with its seed committed, ``closed`` once it converted the guests'
    chips into its tickets (JSON ``[[number, holder], ...]``; at a ``top`` draw the standings,
    ``[[holder, chips], ...]``), ``drawn`` once its winners (JSON) are known and its seed may be shown. ``rate`` and
    ``prizes`` are JSON: the ticket rule, and ``[{"name": ..., "value": cents}, ...]``."""

    __tablename__ = "prize_draws"
    __table_args__ = (CheckConstraint("kind IN ('raffle','top')", name="kind"),
                      CheckConstraint("status IN ('open','closed','drawn')", name="status"))
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    name: Mapped[str] = mapped_column(String(100))
    kind: Mapped[str] = mapped_column(String(10))
    status: Mapped[str] = mapped_column(String(10))
    rate: Mapped[str] = mapped_column(Text)
    prizes: Mapped[str] = mapped_column(Text)
    one_prize_per_guest: Mapped[bool] = mapped_column(Boolean)
    seed: Mapped[str] = mapped_column(String(64))
    commitment: Mapped[str] = mapped_column(String(64))
    tickets: Mapped[str | None] = mapped_column(Text, nullable=True)
    witness: Mapped[str | None] = mapped_column(Text, nullable=True)
    winners: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    drawn_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class ScreenRow(Base):
    """What the host puts on the room's big screen (migration 0016, docs/screen.md), one row per
    event: JSON ``{"announcements": [text, ...], "countdown": {"label", "ends_at"} or null,
    "featured": {"table", "delay"} or null}``."""

    __tablename__ = "screens"
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), primary_key=True)
    settings: Mapped[str] = mapped_column(Text)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_by: Mapped[int] = mapped_column(Integer)


class ShiftEventRow(Base):
    """A dealer's shift, one event at a time (migration 0017, docs/dealer.md): ``clock_in``,
    ``clock_out``, ``break``, ``back`` (from a break), ``take`` and ``leave`` (a table, named by
    ``table_id``); ``by_account_id`` is who did it (the dealer, or a pit boss or the admin).
    Where each dealer is, and for how long, is read from the events in order."""

    __tablename__ = "shift_events"
    __table_args__ = (
        CheckConstraint("kind IN ('clock_in','clock_out','break','back','take','leave')", name="kind"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    kind: Mapped[str] = mapped_column(String(10))
    table_id: Mapped[int | None] = mapped_column(ForeignKey("card_tables.id"), nullable=True)
    by_account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
