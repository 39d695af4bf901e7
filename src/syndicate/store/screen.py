"""The big screen's reads and writes (migration 0016, docs/screen.md): the host's settings of
the screen, and the featured table's settled hands as the screen's delay needs them. A part of
:class:`~.repo.SqlRepo`, on its session."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from .models import HandRow, ScreenRow


class ScreenQueries:
    """The big screen's queries; the repository gives the session."""

    @property
    def s(self) -> Session:
        raise NotImplementedError

    def screen(self, event_id: int) -> dict[str, Any] | None:
        row = self.s.get(ScreenRow, event_id)
        return None if row is None else dict(json.loads(row.settings))

    def set_screen(self, event_id: int, settings: dict[str, Any], by: int, at: datetime) -> None:
        row = self.s.get(ScreenRow, event_id, with_for_update=True)
        text = json.dumps(settings)
        if row is None:
            self.s.add(ScreenRow(event_id=event_id, settings=text, updated_at=at, updated_by=by))
        else:
            row.settings, row.updated_at, row.updated_by = text, at, by
        self.s.flush()

    def settled_hand_up_to(self, table_id: int, number: int) -> int | None:
        """The id of the table's latest settled hand numbered ``number`` or less (None: none)."""
        q = (select(HandRow.id).where(HandRow.table_id == table_id, HandRow.status == "settled",
                                      HandRow.number <= number).order_by(HandRow.number.desc()).limit(1))
        return self.s.scalar(q)
