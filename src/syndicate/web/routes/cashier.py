"""The cashier's window: chips into a player's bankroll (buy-in) and out (cash-out), by the
admin or a pit boss."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter
from pydantic import Field, StrictInt

from ..auth import Me
from ..schemas import Body, Cents
from ..state import Live, Room

router = APIRouter()


class Player(Body):
    player: Annotated[StrictInt, Field(ge=1, le=2**31 - 1, description="the player's account id")]


class CashierMove(Body):
    player: Annotated[StrictInt, Field(ge=1, le=2**31 - 1, description="the player's account id")]
    amount: Cents


@router.post("/api/cashier/buy-in", tags=["cashier"])
def buy_in(account: Me, body: CashierMove, room: Room) -> dict[str, Any]:
    return {"player": body.player, "balance": room.cashier.buy_in(account, body.player, body.amount)}


@router.post("/api/cashier/cash-out", tags=["cashier"])
def cash_out(account: Me, body: CashierMove, room: Room) -> dict[str, Any]:
    return {"player": body.player, "balance": room.cashier.cash_out(account, body.player, body.amount)}


@router.post("/api/cashier/cash-out-all", tags=["cashier"])
def cash_out_all(account: Me, body: Player, room: Room, live: Live) -> dict[str, Any]:
    """Cash out the player's whole bankroll in one move (admin or pit boss): ``amount`` is what
    was paid. Refused while their chips are at a table (409, rule ``at_table``) or when the
    bankroll is empty (409, rule ``empty_bankroll``)."""
    paid = room.cashier.cash_out_all(account, body.player, live.seated)
    return {"player": body.player, "amount": paid, "balance": 0}
