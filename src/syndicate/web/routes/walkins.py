"""Walk-ins: the cash each table's dealer took for their chips and its count, and linking a
walk-in to a player's account (docs/walk-ins.md). Seating a walk-in, selling them chips and
cashing them out are table actions over the table's WebSocket (docs/protocol.md)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter
from pydantic import Field, StrictInt

from ...core import money
from ...room.roles import DEALER
from ..auth import Me
from ..schemas import Body, Id
from ..state import Live, Room

router = APIRouter()

SaleStatus = Literal["pending", "approved", "refused", "done", "cancelled"]


class CashCount(Body):
    counted: Annotated[StrictInt, Field(ge=-money.MAX_HELD, le=money.MAX_HELD, description=(
        "cents: the cash in the table's box less the float it opened with (below zero when walk-ins "
        "cashed out more than they bought)"))]


class Link(Body):
    player: Annotated[StrictInt, Field(ge=1, le=2**31 - 1, description="the player's account id")]


@router.get("/api/cash", tags=["walk-ins"])
def cash(account: Me, room: Room) -> list[dict[str, Any]]:
    """Each table's cash for walk-ins' chips: what its dealer should hold (``expected``), the
    last count and its difference, and whether cash changed hands since (``count_again``).
    A table's dealer sees their own tables; a pit boss and the admin every table."""
    out = room.walk_ins.cash(account)
    if account.role == DEALER:
        mine = {t.id for t in room.tables.lobby(account.event_id, include_closed=True) if t.dealer_id == account.id}
        out = [tc for tc in out if tc.table in mine]
    return [tc.to_json() for tc in out]


@router.post("/api/tables/{table_id}/cash-count", tags=["walk-ins"], status_code=201)
def count_cash(account: Me, table_id: Id, body: CashCount, room: Room) -> dict[str, Any]:
    """Record the cash counted at a table by someone other than its dealer (a pit boss or the
    admin; 403 rule ``own_count`` for the table's own dealer), kept beside what the table's cash
    account says now: ``difference`` below zero, cash is missing."""
    return room.walk_ins.count_cash(account, table_id, body.counted).to_json()


@router.get("/api/chip-sales", tags=["walk-ins"])
def chip_sales(account: Me, room: Room, status: SaleStatus | Literal["all"] = "pending") -> list[dict[str, Any]]:
    """Walk-ins' chip sales above the event's limit (pit bosses and the admin): those waiting
    for approval by default (``status=all``: every one), with the table, its dealer, the seat,
    the walk-in and the amount."""
    return room.walk_ins.sales(account, None if status == "all" else status)


@router.post("/api/chip-sales/{sale_id}/approve", tags=["walk-ins"])
def approve_sale(account: Me, sale_id: Id, room: Room, live: Live) -> dict[str, Any]:
    """Approve a chip sale waiting for it (a pit boss or the admin, not the table's dealer: rule
    ``own_sale``): the table carries it out as soon as it may (before the deal or between
    rounds), the chips coming from its cash as for any sale."""
    sale = room.walk_ins.decide(account, sale_id, True)
    live.refresh(sale.table_id)
    return sale.to_json()


@router.post("/api/chip-sales/{sale_id}/refuse", tags=["walk-ins"])
def refuse_sale(account: Me, sale_id: Id, room: Room, live: Live) -> dict[str, Any]:
    """Refuse a chip sale waiting for approval: no chip moves."""
    sale = room.walk_ins.decide(account, sale_id, False)
    live.refresh(sale.table_id)
    return sale.to_json()


@router.get("/api/walk-ins", tags=["walk-ins"])
def walk_ins(account: Me, room: Room) -> list[dict[str, Any]]:
    """Every walk-in of the event, with the account each is linked to (admin and pit bosses)."""
    return [a.to_json() for a in room.walk_ins.walk_ins(account)]


@router.post("/api/walk-ins/{account_id}/link", tags=["walk-ins"])
def link(account: Me, account_id: Id, body: Link, room: Room, live: Live) -> dict[str, Any]:
    """Link a walk-in to a player's account (admin and pit bosses): their hands, winnings and
    chips count as that player's from then on. Refused while the walk-in is seated (rule
    ``in_play``)."""
    return room.walk_ins.link(account, account_id, body.player, live.seated).to_json()
