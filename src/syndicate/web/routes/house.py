"""The house's terms, set by the admin: each game's bounds of table stakes, and the float the
bots play with."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter
from pydantic import Field, StrictInt

from ...room.ledger import MAX_FLOAT
from ...room.roles import require
from ..auth import Me
from ..schemas import Body, Cents, GameId, Id
from ..state import Room

router = APIRouter()


class Bounds(Body):
    game: GameId
    min_bet: Cents
    max_bet: Cents


class HouseFloat(Body):
    amount: Annotated[StrictInt, Field(ge=0, le=MAX_FLOAT, description="cents: the float bots may play with")]


@router.get("/api/events/{event_id}/limits", tags=["tables"])
def table_bounds(event_id: Id, room: Room) -> dict[str, Any]:
    """Each game's bounds of table stakes (cents): a dealer's table must stay within them."""
    b = room.tables.bounds(room.accounts.event(event_id).id)
    return {g: {"min_bet": lo, "max_bet": hi} for g, (lo, hi) in b.items()}


@router.put("/api/limits", tags=["tables"])
def set_table_bounds(account: Me, body: Bounds, room: Room) -> dict[str, Any]:
    """The admin sets a game's bounds of table stakes (rule ``table_limits``)."""
    b = room.tables.set_bounds(account, body.game, body.min_bet, body.max_bet)
    return {g: {"min_bet": lo, "max_bet": hi} for g, (lo, hi) in b.items()}


@router.get("/api/float", tags=["cashier"])
def house_float(account: Me, room: Room) -> dict[str, int]:
    """The bots' float: set by the admin, used (held by bots now) and remaining."""
    require(account.role, "set_float")
    return room.cashier.float_status(account.event_id)


@router.put("/api/float", tags=["cashier"])
def set_house_float(account: Me, body: HouseFloat, room: Room) -> dict[str, int]:
    """The admin sets the float: chips move between the cashier and the float, in the ledger."""
    return room.cashier.set_float(account, body.amount)
