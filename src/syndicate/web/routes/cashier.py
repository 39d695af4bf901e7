"""The cashier's window: chips into a player's bankroll (buy-in) and out (cash-out), by the
admin or a pit boss."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter
from pydantic import Field, StrictInt

from ..auth import Me
from ..schemas import Body, Cents
from ..state import Room

router = APIRouter()


class CashierMove(Body):
    player: Annotated[StrictInt, Field(ge=1, le=2**31 - 1, description="the player's account id")]
    amount: Cents


@router.post("/api/cashier/buy-in", tags=["cashier"])
def buy_in(account: Me, body: CashierMove, room: Room) -> dict[str, Any]:
    return {"player": body.player, "balance": room.cashier.buy_in(account, body.player, body.amount)}


@router.post("/api/cashier/cash-out", tags=["cashier"])
def cash_out(account: Me, body: CashierMove, room: Room) -> dict[str, Any]:
    return {"player": body.player, "balance": room.cashier.cash_out(account, body.player, body.amount)}
