"""The prize draws' reads and writes (migration 0014, docs/prize-draw.md). A part of
:class:`~.repo.SqlRepo`, on its session."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from ..room.values import PrizeDraw
from .models import PrizeDrawRow
from .models import utc as _utc


def _draw(r: PrizeDrawRow) -> PrizeDraw:
    return PrizeDraw(
        r.id, r.event_id, r.name, r.kind, r.status, json.loads(r.rate), json.loads(r.prizes), r.one_prize_per_guest,
        r.seed, r.commitment, None if r.tickets is None else [(int(n), int(h)) for n, h in json.loads(r.tickets)],
        r.witness, None if r.winners is None else [(int(p), int(t), int(h)) for p, t, h in json.loads(r.winners)],
        _utc(r.created_at), None if r.closed_at is None else _utc(r.closed_at),
        None if r.drawn_at is None else _utc(r.drawn_at))


class DrawQueries:
    """The prize draws' queries; the repository gives the session."""

    @property
    def s(self) -> Session:
        raise NotImplementedError

    def add_prize_draw(self, event_id: int, name: str, kind: str, rate: dict[str, Any], prizes: list[dict[str, Any]],
                       one_prize_per_guest: bool, seed: str, commitment: str, at: datetime) -> PrizeDraw:
        row = PrizeDrawRow(event_id=event_id, name=name, kind=kind, status="open", rate=json.dumps(rate), prizes=json.dumps(prizes),
                           one_prize_per_guest=one_prize_per_guest, seed=seed, commitment=commitment, created_at=at)
        self.s.add(row)
        self.s.flush()
        return _draw(row)

    def prize_draw(self, draw_id: int, *, lock: bool = False) -> PrizeDraw | None:
        r = self.s.get(PrizeDrawRow, draw_id, with_for_update=lock)
        return None if r is None else _draw(r)

    def prize_draws(self, event_id: int) -> list[PrizeDraw]:
        q = select(PrizeDrawRow).where(PrizeDrawRow.event_id == event_id).order_by(PrizeDrawRow.id)
        return [_draw(r) for r in self.s.scalars(q)]

    def close_prize_draw(self, draw_id: int, tickets: list[tuple[int, int]], at: datetime) -> None:
        self.s.execute(update(PrizeDrawRow).where(PrizeDrawRow.id == draw_id)
                       .values(status="closed", tickets=json.dumps(tickets), closed_at=at))

    def finish_prize_draw(self, draw_id: int, witness: str, winners: list[tuple[int, int, int]], at: datetime) -> None:
        self.s.execute(update(PrizeDrawRow).where(PrizeDrawRow.id == draw_id)
                       .values(status="drawn", witness=witness, winners=json.dumps(winners), drawn_at=at))
