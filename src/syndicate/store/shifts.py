"""The dealers' shifts' reads and writes (migration 0017, docs/dealer.md). A part of
:class:`~.repo.SqlRepo`, on its session."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from ..room.values import ShiftEvent
from .models import EventRow, HandRow, ShiftEventRow
from .models import utc as _utc


def _shift(r: ShiftEventRow) -> ShiftEvent:
    return ShiftEvent(r.id, r.account_id, r.kind, r.table_id, r.by_account_id, _utc(r.at))


class ShiftQueries:
    """The shifts' queries; the repository gives the session."""

    @property
    def s(self) -> Session:
        raise NotImplementedError

    def add_shift_event(self, event_id: int, account_id: int, kind: str, table_id: int | None, by: int | None,
                        at: datetime) -> ShiftEvent:
        row = ShiftEventRow(event_id=event_id, account_id=account_id, kind=kind, table_id=table_id,
                            by_account_id=by, at=at)
        self.s.add(row)
        self.s.flush()
        return _shift(row)

    def shift_events(self, event_id: int) -> list[ShiftEvent]:
        """Every shift event of the event, in the order they happened."""
        q = select(ShiftEventRow).where(ShiftEventRow.event_id == event_id).order_by(ShiftEventRow.id)
        return [_shift(r) for r in self.s.scalars(q)]

    def set_shift_lengths(self, event_id: int, shift_minutes: int | None, break_minutes: int | None) -> None:
        self.s.execute(update(EventRow).where(EventRow.id == event_id)
                       .values(shift_minutes=shift_minutes, break_minutes=break_minutes))

    def set_hand_dealer(self, hand_id: int, dealer_id: int) -> None:
        self.s.execute(update(HandRow).where(HandRow.id == hand_id).values(dealer_id=dealer_id))
