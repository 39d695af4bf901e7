"""The door's reads and writes (migration 0013, docs/door.md): the guests' payments at the door
and their sign-in vouchers. A part of :class:`~.repo.SqlRepo`, on its session."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, cast

from sqlalchemy import select, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.orm import Session

from ..room.values import DoorPayment, Voucher
from .models import AccountRow, DoorPaymentRow, EventRow, VoucherRow
from .models import utc as _utc


def _voucher(r: VoucherRow) -> Voucher:
    return Voucher(r.token_hash, r.account_id, _utc(r.created_at), _utc(r.expires_at),
                   None if r.used_at is None else _utc(r.used_at), None if r.revoked_at is None else _utc(r.revoked_at))



class DoorQueries:
    """The door's queries; the repository gives the session."""

    @property
    def s(self) -> Session:
        raise NotImplementedError

    def set_door(self, event_id: int, door: dict[str, int | None]) -> None:
        self.s.execute(update(EventRow).where(EventRow.id == event_id).values(door=json.dumps(door) if door else None))

    def add_door_payment(self, event_id: int, account_id: int, method: str, paid: int, chips: int, by: int,
                         at: datetime) -> DoorPayment:
        row = DoorPaymentRow(event_id=event_id, account_id=account_id, method=method, paid=paid, chips=chips,
                             by_account_id=by, at=at)
        self.s.add(row)
        self.s.flush()
        return DoorPayment(row.id, event_id, account_id, method, paid, chips, by, _utc(at))

    def door_payments(self, event_id: int) -> list[DoorPayment]:
        q = select(DoorPaymentRow).where(DoorPaymentRow.event_id == event_id).order_by(DoorPaymentRow.id)
        return [DoorPayment(r.id, r.event_id, r.account_id, r.method, r.paid, r.chips, r.by_account_id, _utc(r.at))
                for r in self.s.scalars(q)]

    def add_voucher(self, token_hash: str, account_id: int, at: datetime, expires: datetime) -> None:
        self.s.add(VoucherRow(token_hash=token_hash, account_id=account_id, created_at=at, expires_at=expires))
        self.s.flush()

    def voucher(self, token_hash: str, *, lock: bool = False) -> Voucher | None:
        r = self.s.get(VoucherRow, token_hash, with_for_update=lock)
        return None if r is None else _voucher(r)

    def vouchers(self, event_id: int) -> list[Voucher]:
        """Every voucher of the event's guests, in one query."""
        q = (select(VoucherRow).join(AccountRow, AccountRow.id == VoucherRow.account_id)
             .where(AccountRow.event_id == event_id).order_by(VoucherRow.created_at))
        return [_voucher(r) for r in self.s.scalars(q)]

    def use_voucher(self, token_hash: str, at: datetime) -> None:
        self.s.execute(update(VoucherRow).where(VoucherRow.token_hash == token_hash).values(used_at=at))

    def revoke_vouchers(self, account_id: int, at: datetime) -> int:
        """Revoke every voucher of the guest not yet used or revoked; how many."""
        q = (update(VoucherRow).where(VoucherRow.account_id == account_id, VoucherRow.used_at.is_(None),
                                      VoucherRow.revoked_at.is_(None)).values(revoked_at=at))
        return int(cast(CursorResult[Any], self.s.execute(q)).rowcount or 0)
