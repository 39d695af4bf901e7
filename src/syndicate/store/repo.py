"""The SQLAlchemy implementation of :class:`syndicate.room.ports.Repo`: one transaction's
queries. The live tables' writes go through the hand-written SQL of :mod:`syndicate.store.hot`;
the transactions themselves (the room's ``Store``) are :mod:`syndicate.store.transactions`'s."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import Table as SqlTable
from sqlalchemy import bindparam, delete, func, or_, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection, CursorResult
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, aliased

from ..room.accounts import canonical_name, name_taken
from ..room.errors import Conflict
from ..room.values import (
    PERSON,
    Account,
    CashCount,
    ChipSale,
    Entry,
    Event,
    Hand,
    Lease,
    LedgerAccount,
    Line,
    Move,
    RosterChange,
    RosterEntry,
    Table,
)
from .door import DoorQueries
from .draws import DrawQueries
from .hot import HotPath
from .models import (
    AccountRow,
    CashCountRow,
    ChipSaleRow,
    EventLimitRow,
    EventRow,
    HandPlayerRow,
    HandRow,
    LedgerAccountRow,
    LedgerEntryRow,
    LedgerTransactionRow,
    RosterChangeRow,
    RosterRow,
    ShoeRow,
    TableLeaseRow,
    TableRow,
    TableSeatRow,
    TokenRow,
)
from .models import utc as _utc
from .screen import ScreenQueries
from .shifts import ShiftQueries


def _event(r: EventRow) -> Event:
    return Event(r.id, r.name, _utc(r.created_at), r.seed_reveal,
                 _utc(r.ended_at) if r.ended_at is not None else None, r.ended_by,
                 json.loads(r.turn_clock) if r.turn_clock else {}, r.sale_limit,
                 json.loads(r.door) if r.door else {}, bool(r.play_money), r.prize_cap, r.shift_minutes,
                 r.break_minutes)


def _chip_sale(r: ChipSaleRow) -> ChipSale:
    return ChipSale(r.id, r.table_id, r.seat, r.walk_in_id, r.amount, r.status, r.requested_by,
                    _utc(r.requested_at), r.decided_by, _utc(r.decided_at) if r.decided_at is not None else None)


def _account(r: AccountRow) -> Account:
    return Account(r.id, r.event_id, r.name, r.role, r.password_hash, r.linked_to, r.kind)


def _table(r: TableRow) -> Table:
    return Table(r.id, r.event_id, r.name, r.game, json.loads(r.rules), r.seats, r.dealer_id, r.status, r.fault)


_ACCOUNTS = cast(SqlTable, LedgerAccountRow.__table__)
_HANDS = cast(SqlTable, HandRow.__table__)
_LEASES = cast(SqlTable, TableLeaseRow.__table__)
_LEASE_OF = select(_LEASES.c.owner, _LEASES.c.epoch).where(_LEASES.c.table_id == bindparam("table"))


def _hand(r: HandRow) -> Hand:
    return Hand(r.id, r.table_id, r.number, r.game, r.commitment, r.status, json.loads(r.history),
                _utc(r.started_at), _utc(r.finished_at) if r.finished_at else None, r.dealer_id)


class SqlRepo(DoorQueries, DrawQueries, ScreenQueries, ShiftQueries):
    """One transaction's worth of reads and writes, on one connection. The ORM's session over it
    is made on first use: a live table's change (the most frequent transaction by far) needs
    none, and making one costs more than its statements."""

    def __init__(self, conn: Connection, for_update: bool, pipelined: bool = False) -> None:
        self.conn = conn
        self.for_update = for_update  # SQLite locks the whole file at BEGIN IMMEDIATE instead
        self._session: Session | None = None
        # The live tables' writes, as hand-written SQL; on PostgreSQL, the live tables' writer
        # sends them in psycopg's pipeline mode, without waiting for each answer
        self.hot = HotPath(conn, pipelined, self._flush_session)
        #: set by the transaction once the work is done and only its commit is left
        self.committing = False

    @property
    def s(self) -> Session:
        self.hot.settle()  # SQLAlchemy reads each statement's answer at once: no pipeline under it
        if self._session is None:
            # joins the connection's transaction: the store commits or rolls it back
            self._session = Session(bind=self.conn, expire_on_commit=False, autoflush=True)
        return self._session

    def _finish(self) -> None:
        """Before the commit: every answer read and every check made; whatever the session
        still holds goes to the database."""
        self.hot.settle()
        self._flush_session()

    def _flush_session(self) -> None:
        if self._session is not None:
            self._session.flush()

    def _close(self, error: BaseException | None = None) -> None:
        self.hot.close(error)
        if self._session is not None:
            self._session.close()

    # -- events and accounts -----------------------------------------------------------------
    def add_event(self, name: str, at: datetime, seed_reveal: str = "table_close") -> Event:
        row = EventRow(name=name, created_at=at, seed_reveal=seed_reveal)
        self.s.add(row)
        try:
            self.s.flush()
        except IntegrityError:  # a race with another writer of the same name
            raise Conflict("event_name", f"event names are unique: there is already an event called {name!r}") from None
        return _event(row)

    def event(self, event_id: int, *, lock: bool = False) -> Event | None:
        """``lock``: hold the event's row until the transaction ends (PostgreSQL), so that ending
        the event and opening a table or changing its settings are serialized."""
        r = self.s.get(EventRow, event_id, with_for_update=lock and self.for_update)
        return _event(r) if r else None

    def event_by_name(self, name: str) -> Event | None:
        r = self.s.scalar(select(EventRow).where(EventRow.name == name))
        return _event(r) if r else None

    def events(self) -> list[Event]:
        rows = self.s.scalars(select(EventRow).order_by(EventRow.id))
        return [_event(r) for r in rows]

    def end_event(self, event_id: int, by: int, at: datetime) -> None:
        r = self.s.get(EventRow, event_id)
        assert r is not None
        r.ended_at, r.ended_by = at, by
        self.s.flush()

    def set_seed_reveal(self, event_id: int, seed_reveal: str) -> None:
        r = self.s.get(EventRow, event_id)
        assert r is not None
        r.seed_reveal = seed_reveal
        self.s.flush()

    def set_turn_clock(self, event_id: int, defaults: dict[str, int | None]) -> None:
        r = self.s.get(EventRow, event_id)
        assert r is not None
        r.turn_clock = json.dumps(defaults) if defaults else None
        self.s.flush()

    def set_sale_limit(self, event_id: int, sale_limit: int | None) -> None:
        self.s.execute(update(EventRow).where(EventRow.id == event_id).values(sale_limit=sale_limit))

    def set_play_money(self, event_id: int, play_money: bool) -> None:
        self.s.execute(update(EventRow).where(EventRow.id == event_id).values(play_money=play_money))

    def set_prize_cap(self, event_id: int, prize_cap: int | None) -> None:
        self.s.execute(update(EventRow).where(EventRow.id == event_id).values(prize_cap=prize_cap))

    def event_has_hands(self, event_id: int) -> bool:
        q = select(HandRow.id).join(TableRow, HandRow.table_id == TableRow.id).where(TableRow.event_id == event_id)
        return self.s.scalar(q.limit(1)) is not None

    def event_limits(self, event_id: int) -> dict[str, tuple[int, int]]:
        rows = self.s.scalars(select(EventLimitRow).where(EventLimitRow.event_id == event_id))
        return {r.game: (r.min_bet, r.max_bet) for r in rows}

    def set_event_limits(self, event_id: int, game: str, min_bet: int, max_bet: int) -> None:
        row = self.s.get(EventLimitRow, (event_id, game))
        if row is None:
            self.s.add(EventLimitRow(event_id=event_id, game=game, min_bet=min_bet, max_bet=max_bet))
        else:
            row.min_bet, row.max_bet = min_bet, max_bet
        self.s.flush()

    def add_account(self, event_id: int, name: str, role: str, password_hash: str, at: datetime,
                    kind: str = PERSON) -> Account:
        row = AccountRow(event_id=event_id, name=name, name_key=canonical_name(name), role=role,
                         password_hash=password_hash, created_at=at, kind=kind)
        self.s.add(row)
        try:
            self.s.flush()
        except IntegrityError:  # a race with another writer of the same canonical name
            raise name_taken(name) from None
        return _account(row)

    def account(self, account_id: int) -> Account | None:
        r = self.s.get(AccountRow, account_id)
        return _account(r) if r else None

    def account_by_name(self, event_id: int, name: str) -> Account | None:
        r = self.s.scalar(select(AccountRow).where(AccountRow.event_id == event_id,
                                                   AccountRow.name_key == canonical_name(name)))
        return _account(r) if r else None

    def accounts(self, event_id: int) -> list[Account]:
        rows = self.s.scalars(select(AccountRow).where(AccountRow.event_id == event_id).order_by(AccountRow.id))
        return [_account(r) for r in rows]

    def link_account(self, account_id: int, linked_to: int) -> Account | None:
        """Mark a walk-in as another account's alias (their history reads as that account's)."""
        r = self.s.get(AccountRow, account_id, with_for_update=self.for_update)
        if r is None:
            return None
        r.linked_to = linked_to
        self.s.flush()
        return _account(r)

    # -- sign-ins ----------------------------------------------------------------------------
    def add_token(self, token_hash: str, account_id: int, kind: str, at: datetime, expires: datetime) -> None:
        self.s.add(TokenRow(token_hash=token_hash, account_id=account_id, kind=kind, created_at=at,
                            expires_at=expires))

    def token_account(self, token_hash: str, now: datetime) -> Account | None:
        t = self.s.get(TokenRow, token_hash)
        if t is None or _utc(t.expires_at) <= now:
            return None
        return self.account(t.account_id)

    def drop_token(self, token_hash: str) -> None:
        t = self.s.get(TokenRow, token_hash)
        if t is not None:
            self.s.delete(t)

    def drop_tokens(self, account_id: int) -> int:
        """Sign an account out everywhere: every token and session cookie of it."""
        result = cast(CursorResult[Any], self.s.execute(delete(TokenRow).where(TokenRow.account_id == account_id)))
        return int(result.rowcount or 0)

    def set_role(self, account_id: int, role: str) -> Account | None:
        r = self.s.get(AccountRow, account_id, with_for_update=True)
        if r is None:
            return None
        r.role = role
        self.s.flush()
        return _account(r)

    # -- roster ------------------------------------------------------------------------------
    def roster(self, event_id: int) -> list[RosterEntry]:
        rows = self.s.scalars(select(RosterRow).where(RosterRow.event_id == event_id).order_by(RosterRow.id))
        return [RosterEntry(r.id, r.event_id, r.dealer, r.pit_boss, r.active) for r in rows]

    def roster_entry(self, event_id: int, dealer: str) -> RosterEntry | None:
        r = self.s.scalar(select(RosterRow).where(RosterRow.event_id == event_id, RosterRow.dealer == dealer))
        return RosterEntry(r.id, r.event_id, r.dealer, r.pit_boss, r.active) if r else None

    def put_roster(self, event_id: int, dealer: str, pit_boss: str, active: bool) -> RosterEntry:
        r = self.s.scalar(select(RosterRow).where(RosterRow.event_id == event_id, RosterRow.dealer == dealer))
        if r is None:
            r = RosterRow(event_id=event_id, dealer=dealer, pit_boss=pit_boss, active=active)
            self.s.add(r)
        else:
            r.pit_boss, r.active = pit_boss, active
        self.s.flush()
        return RosterEntry(r.id, r.event_id, r.dealer, r.pit_boss, r.active)

    def add_roster_change(self, roster_id: int, action: str, by: int | None, at: datetime) -> None:
        self.s.add(RosterChangeRow(roster_id=roster_id, action=action, by_account_id=by, at=at))

    def roster_changes(self, event_id: int) -> list[RosterChange]:
        q = (
            select(RosterRow.dealer, RosterRow.pit_boss, RosterChangeRow.action, AccountRow.name, RosterChangeRow.at)
            .join(RosterRow, RosterRow.id == RosterChangeRow.roster_id)
            .outerjoin(AccountRow, AccountRow.id == RosterChangeRow.by_account_id)
            .where(RosterRow.event_id == event_id)
            .order_by(RosterChangeRow.id)
        )
        return [RosterChange(d, b, a, n, _utc(at)) for d, b, a, n, at in self.s.execute(q)]

    # -- tables ------------------------------------------------------------------------------
    def add_table(self, event_id: int, name: str, game: str, rules: dict[str, Any], seats: int,
                  dealer_id: int, at: datetime) -> Table:
        row = TableRow(event_id=event_id, name=name, game=game, rules=json.dumps(rules), seats=seats,
                       dealer_id=dealer_id, status="open", created_at=at)
        self.s.add(row)
        self.s.flush()
        return _table(row)

    def table(self, table_id: int) -> Table | None:
        r = self.s.get(TableRow, table_id)
        return _table(r) if r else None

    def tables(self, event_id: int) -> list[Table]:
        rows = self.s.scalars(select(TableRow).where(TableRow.event_id == event_id).order_by(TableRow.id))
        return [_table(r) for r in rows]

    def set_table_status(self, table_id: int, status: str) -> None:
        self.s.execute(update(TableRow).where(TableRow.id == table_id).values(status=status))

    def set_table_rules(self, table_id: int, rules: dict[str, Any]) -> None:
        self.s.execute(update(TableRow).where(TableRow.id == table_id).values(rules=json.dumps(rules)))

    def set_table_fault(self, table_id: int, fault: str | None) -> None:
        self.s.execute(update(TableRow).where(TableRow.id == table_id).values(fault=fault))

    def set_table_dealer(self, table_id: int, dealer_id: int) -> None:
        self.s.execute(update(TableRow).where(TableRow.id == table_id).values(dealer_id=dealer_id))

    # -- ledger ------------------------------------------------------------------------------
    # The ledger is the live tables' hot path (every bet, double and payout posts here), so it
    # is written with Core statements on the tables rather than through ORM objects: a
    # transfer costs a third of what it would through the ORM's unit of work. No ORM object of a
    # ledger account is ever held in a session, so none can go stale when a balance moves.
    def ledger_account(self, event_id: int, key: str, kind: str, name: str) -> LedgerAccount:
        """The ledger account ``key`` of the event, created (with a zero balance) if new. Two
        transactions creating the same account at once (two tables seating a new player) both
        get it: the insert skips a row that another transaction has just made."""
        t = _ACCOUNTS
        q = select(t.c.id, t.c.event_id, t.c.key, t.c.kind, t.c.name, t.c.balance).where(
            t.c.event_id == event_id, t.c.key == key)
        row = self.s.execute(q).first()
        if row is None:
            dialect_insert = pg_insert if self.conn.dialect.name == "postgresql" else sqlite_insert
            self.s.execute(dialect_insert(t).values(event_id=event_id, key=key, kind=kind, name=name, balance=0)
                           .on_conflict_do_nothing(index_elements=["event_id", "key"]))
            row = self.s.execute(q).one()
        return LedgerAccount(*row)

    def lock_balances(self, account_ids: Sequence[int]) -> dict[int, LedgerAccount]:
        return self.hot.lock_balances(account_ids)

    def check_balances(self, account_ids: Sequence[int],
                       check: Callable[[dict[int, LedgerAccount]], None]) -> None:
        self.hot.check_balances(account_ids, check)

    def post(self, event_id: int, kind: str, memo: str, moves: Sequence[Move], by: int | None,
             hand_id: int | None, at: datetime) -> None:
        self.hot.post(event_id, kind, memo, moves, by, hand_id, at)

    def lines(self, account_id: int) -> list[Line]:
        src, dst = aliased(LedgerAccountRow), aliased(LedgerAccountRow)
        q = (
            select(LedgerEntryRow, LedgerTransactionRow, src.name, dst.name)
            .join(LedgerTransactionRow, LedgerTransactionRow.id == LedgerEntryRow.transaction_id)
            .join(src, src.id == LedgerEntryRow.source_id)
            .join(dst, dst.id == LedgerEntryRow.dest_id)
            .where(or_(LedgerEntryRow.source_id == account_id, LedgerEntryRow.dest_id == account_id))
            .order_by(LedgerEntryRow.id)
        )
        out = []
        for e, t, src_name, dst_name in self.s.execute(q):
            incoming = e.dest_id == account_id
            out.append(Line(t.id, e.id, _utc(t.at), t.kind, t.memo,
                            e.amount if incoming else -e.amount, src_name if incoming else dst_name, t.hand_id))
        return out

    def ledger_accounts(self, event_id: int) -> list[LedgerAccount]:
        t = _ACCOUNTS
        q = select(t.c.id, t.c.event_id, t.c.key, t.c.kind, t.c.name, t.c.balance).where(t.c.event_id == event_id)
        return [LedgerAccount(*r) for r in self.s.execute(q.order_by(t.c.id))]

    def entries_balance(self, account_id: int) -> int:
        incoming = self.s.scalar(select(func.coalesce(func.sum(LedgerEntryRow.amount), 0))
                                 .where(LedgerEntryRow.dest_id == account_id))
        outgoing = self.s.scalar(select(func.coalesce(func.sum(LedgerEntryRow.amount), 0))
                                 .where(LedgerEntryRow.source_id == account_id))
        return int(incoming or 0) - int(outgoing or 0)

    def event_entries(self, event_id: int) -> list[Entry]:
        """Every ledger entry of the event in the order it was posted, with both accounts."""
        src, dst = aliased(LedgerAccountRow), aliased(LedgerAccountRow)
        q = (
            select(LedgerEntryRow.id, LedgerEntryRow.amount, LedgerTransactionRow.id, LedgerTransactionRow.at,
                   LedgerTransactionRow.kind, LedgerTransactionRow.memo, LedgerTransactionRow.hand_id,
                   src.key, src.name, dst.key, dst.name)
            .join(LedgerTransactionRow, LedgerTransactionRow.id == LedgerEntryRow.transaction_id)
            .join(src, src.id == LedgerEntryRow.source_id)
            .join(dst, dst.id == LedgerEntryRow.dest_id)
            .where(LedgerTransactionRow.event_id == event_id)
            .order_by(LedgerEntryRow.id)
        )
        return [Entry(txn, entry, _utc(at), kind, memo, hand, sk, sn, dk, dn, amount)
                for entry, amount, txn, at, kind, memo, hand, sk, sn, dk, dn in self.s.execute(q)]

    # -- hands -------------------------------------------------------------------------------
    def add_hand(self, table_id: int, number: int, game: str, commitment: str, history: dict[str, Any],
                 at: datetime, players: Sequence[tuple[int, int]] = (), dealer_id: int | None = None) -> int:
        """A new hand in play; ``players`` are its (seat, account id) pairs, for the search by
        player; ``dealer_id`` who deals it."""
        return self.hot.add_hand(table_id, number, game, commitment, history, at, players, dealer_id)

    def update_hand(self, hand_id: int, status: str, history: dict[str, Any], finished: datetime | None) -> None:
        self.hot.update_hand(hand_id, status, history, finished)

    def last_hand_number(self, table_id: int) -> int:
        return int(self.s.scalar(select(func.coalesce(func.max(HandRow.number), 0))
                                 .where(HandRow.table_id == table_id)) or 0)

    def reveal_seed(self, commitment: str, seed_hex: str) -> None:
        """The shoe is finished: write its seed into every hand dealt from it, so each
        downloaded history can be verified, and mark its stored shoe revealed."""
        shoe = self.s.scalar(select(ShoeRow).where(ShoeRow.commitment == commitment))
        if shoe is not None and shoe.revealed_at is None:
            shoe.revealed_at = datetime.now(UTC)
        rows = self.s.execute(select(_HANDS.c.id, _HANDS.c.history).where(_HANDS.c.commitment == commitment)).all()
        for hand_id, text in rows:
            doc = json.loads(text)
            # Blackjack histories list their shoes; a draw history has a deck per hand
            shoes = doc.get("shoes", []) + [h["shoe"] for h in doc.get("hands", []) if "shoe" in h]
            for shoe in shoes:
                if shoe.get("commitment") == commitment:
                    shoe["seed"] = seed_hex
            self.s.execute(update(_HANDS).where(_HANDS.c.id == hand_id).values(history=json.dumps(doc)))

    def hand_net(self, hand_id: int) -> dict[int, int]:
        """What the hand's ledger transactions did to each account (ledger account id → cents)."""
        q = (select(LedgerEntryRow.source_id, LedgerEntryRow.dest_id, LedgerEntryRow.amount)
             .join(LedgerTransactionRow, LedgerTransactionRow.id == LedgerEntryRow.transaction_id)
             .where(LedgerTransactionRow.hand_id == hand_id))
        net: dict[int, int] = {}
        for source, dest, amount in self.s.execute(q):
            net[source] = net.get(source, 0) - amount
            net[dest] = net.get(dest, 0) + amount
        return {k: v for k, v in net.items() if v}

    def hand_players(self, event_id: int, hand_ids: Sequence[int] | None = None) -> list[tuple[int, int, int]]:
        """(hand id, account id, seat) of every player dealt into a hand of the event (or into
        one of ``hand_ids``)."""
        q = (select(HandPlayerRow.hand_id, HandPlayerRow.account_id, HandPlayerRow.seat)
             .join(HandRow, HandRow.id == HandPlayerRow.hand_id)
             .join(TableRow, TableRow.id == HandRow.table_id)
             .where(TableRow.event_id == event_id).order_by(HandPlayerRow.hand_id, HandPlayerRow.seat))
        if hand_ids is not None:
            q = q.where(HandPlayerRow.hand_id.in_(list(hand_ids)))
        return [(h, a, s) for h, a, s in self.s.execute(q)]

    # -- the tables' cash counts --------------------------------------------------------------
    def add_cash_count(self, table_id: int, counted: int, expected: int, by: int, at: datetime) -> CashCount:
        row = CashCountRow(table_id=table_id, counted=counted, expected=expected, by_account_id=by, at=at)
        self.s.add(row)
        self.s.flush()
        return CashCount(row.id, table_id, counted, expected, by, _utc(at))

    def cash_counts(self, event_id: int) -> list[CashCount]:
        """Every cash count of the event's tables, in the order they were made."""
        q = (select(CashCountRow).join(TableRow, TableRow.id == CashCountRow.table_id)
             .where(TableRow.event_id == event_id).order_by(CashCountRow.id))
        return [CashCount(r.id, r.table_id, r.counted, r.expected, r.by_account_id, _utc(r.at))
                for r in self.s.scalars(q)]

    # -- who holds the seats of live tables ----------------------------------------------------
    def take_seat(self, table_id: int, seat: int, account_id: int) -> None:
        self.s.execute(delete(TableSeatRow).where(TableSeatRow.table_id == table_id, TableSeatRow.seat == seat))
        self.s.add(TableSeatRow(table_id=table_id, seat=seat, account_id=account_id))
        self.s.flush()

    def free_seat(self, table_id: int, seat: int) -> None:
        self.s.execute(delete(TableSeatRow).where(TableSeatRow.table_id == table_id, TableSeatRow.seat == seat))

    def free_seats(self, table_id: int) -> None:
        self.s.execute(delete(TableSeatRow).where(TableSeatRow.table_id == table_id))

    def seats_held(self, event_id: int) -> list[tuple[int, int, int]]:
        """(table, seat, account) of every seat held at the event's tables."""
        q = (select(TableSeatRow.table_id, TableSeatRow.seat, TableSeatRow.account_id)
             .join(TableRow, TableRow.id == TableSeatRow.table_id).where(TableRow.event_id == event_id)
             .order_by(TableSeatRow.table_id, TableSeatRow.seat))
        return [(t, n, a) for t, n, a in self.s.execute(q)]

    # -- walk-ins' chip sales waiting for approval -----------------------------------------------
    def add_chip_sale(self, table_id: int, seat: int, walk_in_id: int, amount: int, by: int,
                      at: datetime) -> ChipSale:
        row = ChipSaleRow(table_id=table_id, seat=seat, walk_in_id=walk_in_id, amount=amount, status="pending",
                          requested_by=by, requested_at=at)
        self.s.add(row)
        self.s.flush()
        return _chip_sale(row)

    def chip_sale(self, sale_id: int) -> ChipSale | None:
        r = self.s.get(ChipSaleRow, sale_id)
        return _chip_sale(r) if r else None

    def chip_sales(self, event_id: int, status: str | None = None, table_id: int | None = None) -> list[ChipSale]:
        q = (select(ChipSaleRow).join(TableRow, TableRow.id == ChipSaleRow.table_id)
             .where(TableRow.event_id == event_id).order_by(ChipSaleRow.id))
        if status is not None:
            q = q.where(ChipSaleRow.status == status)
        if table_id is not None:
            q = q.where(ChipSaleRow.table_id == table_id)
        return [_chip_sale(r) for r in self.s.scalars(q)]

    def move_chip_sale(self, sale_id: int, before: Sequence[str], status: str, by: int | None,
                       at: datetime) -> bool:
        """Set the sale's status if it is one of ``before`` now (one statement, so two writers
        cannot both move it); whether it moved. ``by``: who decided (kept when None)."""
        values: dict[str, Any] = {"status": status}
        if by is not None:
            values.update(decided_by=by, decided_at=at)
        done = self.s.execute(update(ChipSaleRow).where(ChipSaleRow.id == sale_id, ChipSaleRow.status.in_(before))
                              .values(**values))
        return bool(done.rowcount)  # type: ignore[attr-defined]

    def cancel_chip_sales(self, table_id: int, seat: int | None = None) -> None:
        """Every sale of the table (of ``seat``) not yet carried out or refused: cancelled."""
        q = update(ChipSaleRow).where(ChipSaleRow.table_id == table_id,
                                      ChipSaleRow.status.in_(("pending", "approved")))
        if seat is not None:
            q = q.where(ChipSaleRow.seat == seat)
        self.s.execute(q.values(status="cancelled"))

    # -- shoes -------------------------------------------------------------------------------
    def add_shoe(self, table_id: int, commitment: str, seed_hex: str, at: datetime) -> None:
        """Keep a new shoe's seed (secret until revealed) from before its first card."""
        self.hot.add_shoe(table_id, commitment, seed_hex, at)

    def unrevealed_shoes(self) -> list[tuple[int, str, str]]:
        """(table id, commitment, seed hex) of every shoe whose seed is not yet revealed."""
        q = select(ShoeRow.table_id, ShoeRow.commitment, ShoeRow.seed).where(ShoeRow.revealed_at.is_(None))
        return [(t, c, seed) for t, c, seed in self.s.execute(q.order_by(ShoeRow.id))]

    def escrowed_seed(self, commitment: str) -> str | None:
        """A shoe's kept seed, revealed or not: for the server's own proofs (the openings of the
        cards a viewer may see), never to be served before the shoe is revealed."""
        return self.s.scalar(select(ShoeRow.seed).where(ShoeRow.commitment == commitment))

    def hand_seats(self, hand_id: int) -> dict[int, int]:
        """account id -> seat, for everyone dealt into the hand."""
        q = select(HandPlayerRow.account_id, HandPlayerRow.seat).where(HandPlayerRow.hand_id == hand_id)
        return {a: seat for a, seat in self.s.execute(q)}

    # -- table leases (several server processes) ----------------------------------------------
    def acquire_lease(self, table_id: int, owner: str, at: datetime, expires: datetime) -> int | None:
        """Take the table's lease for ``owner`` until ``expires`` if it is free, expired at ``at``
        or already ``owner``'s. Returns the new epoch (the fencing token), or None if another
        process holds it."""
        t = _LEASES
        if self.for_update:  # wait for the writes in flight under the old epoch (they hold KEY SHARE)
            self.s.execute(_LEASE_OF.with_for_update(), {"table": table_id})
        dialect_insert = pg_insert if self.conn.dialect.name == "postgresql" else sqlite_insert
        q = dialect_insert(t).values(table_id=table_id, owner=owner, epoch=1, expires_at=expires)
        upsert = q.on_conflict_do_update(
            index_elements=["table_id"],
            set_={"owner": owner, "epoch": t.c.epoch + 1, "expires_at": expires},
            where=or_(t.c.expires_at < at, t.c.owner == owner),
        ).returning(t.c.epoch)
        epoch: int | None = self.s.execute(upsert).scalar_one_or_none()
        return epoch

    def renew_leases(self, owner: str, expires: datetime) -> dict[int, int]:
        """Extend every lease ``owner`` still holds; returns {table id: epoch} of those."""
        t = _LEASES
        q = update(t).where(t.c.owner == owner).values(expires_at=expires).returning(t.c.table_id, t.c.epoch)
        return {tid: epoch for tid, epoch in self.s.execute(q)}

    def release_lease(self, table_id: int, owner: str, epoch: int, at: datetime) -> None:
        """Give the table up now (a process stopping): another may take it at once."""
        t = _LEASES
        self.s.execute(update(t).where(t.c.table_id == table_id, t.c.owner == owner, t.c.epoch == epoch)
                       .values(expires_at=at))

    def check_lease(self, table_id: int, owner: str, epoch: int) -> None:
        """The fence: raises :class:`Fenced` unless ``owner`` still holds the table at ``epoch``
        (:meth:`syndicate.store.hot.HotPath.check_lease`)."""
        self.hot.check_lease(table_id, owner, epoch)

    def leases(self, table_id: int | None = None) -> dict[int, Lease]:
        """The lease of every table that has had an owner (or of ``table_id`` alone), with the
        table's status, in one query."""
        t = _LEASES
        q = (select(t.c.table_id, t.c.owner, t.c.epoch, t.c.expires_at, TableRow.status)
             .join(TableRow, TableRow.id == t.c.table_id))
        if table_id is not None:
            q = q.where(t.c.table_id == table_id)
        return {tid: Lease(o, e, _utc(x), st) for tid, o, e, x, st in self.s.execute(q)}

    def hand(self, hand_id: int) -> Hand | None:
        r = self.s.get(HandRow, hand_id, populate_existing=True)  # hands are written with Core: never stale
        return _hand(r) if r else None

    def hands(self, event_id: int, table_id: int | None = None, commitment: str | None = None,
              status: str | None = None, limit: int = 100, player: int | None = None) -> list[Hand]:
        q = select(HandRow).join(TableRow, TableRow.id == HandRow.table_id).where(TableRow.event_id == event_id)
        if player is not None:  # the player's hands, and those of the walk-ins linked to them
            aliases = select(AccountRow.id).where(or_(AccountRow.id == player, AccountRow.linked_to == player))
            q = (q.join(HandPlayerRow, HandPlayerRow.hand_id == HandRow.id)
                 .where(HandPlayerRow.account_id.in_(aliases)).distinct())
        if table_id is not None:
            q = q.where(HandRow.table_id == table_id)
        if commitment is not None:
            q = q.where(HandRow.commitment == commitment)
        if status is not None:
            q = q.where(HandRow.status == status)
        q = q.order_by(HandRow.id).limit(limit).execution_options(populate_existing=True)
        return [_hand(r) for r in self.s.scalars(q)]
