"""Reading the ledger: every balance of the event, a player's statement, and the leaderboard."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ...room.errors import Forbidden
from ...room.ledger import player_key
from ...room.roles import allowed, require
from ..auth import Me
from ..schemas import Id
from ..state import Room

router = APIRouter()


@router.get("/api/balances", tags=["ledger"])
def balances(account: Me, room: Room) -> dict[str, Any]:
    """Every ledger account of the event and their sum (always 0): admin and pit bosses."""
    require(account.role, "view_any_ledger")
    accounts = room.ledger.accounts(account.event_id)
    return {
        "accounts": [{"key": a.key, "kind": a.kind, "name": a.name, "balance": a.balance} for a in accounts],
        "total": sum(a.balance for a in accounts),
    }


@router.get("/api/accounts/{account_id}/ledger", tags=["ledger"])
def ledger(account: Me, account_id: Id, room: Room) -> dict[str, Any]:
    """A player's bankroll line by line, each line with the balance after it."""
    if account_id == account.id:
        require(account.role, "view_own_ledger")
    else:
        if not allowed(account.role, "view_any_ledger"):
            raise Forbidden("view_any_ledger", "you may see only your own ledger")
    target = room.accounts.get(account.event_id, account_id)
    lines = room.ledger.explain(account.event_id, player_key(target.id))
    balance = lines[-1].balance if lines else 0
    # Chips on the felt are the player's too: without them the ledger and the leaderboard
    # (bankroll plus stacks) disagree for as long as the player sits.
    stacks = room.ledger.stacks(account.event_id, target.id)
    return {
        "account": target.to_json(),
        "balance": balance,
        "at_tables": [{"table_id": table_id, "name": a.name, "chips": a.balance} for table_id, a in stacks],
        "chips": balance + sum(a.balance for _, a in stacks),
        "lines": [x.to_json() for x in lines],
    }


@router.get("/api/events/{event_id}/leaderboard", tags=["ledger"])
def leaderboard(event_id: Id, room: Room) -> list[dict[str, Any]]:
    """Players by what they won at the tables (the game's ledger lines on their stacks:
    bets, pay-outs and voids; buy-ins, cash-outs and sitting down are not winnings), with
    their chips (bankroll plus stacks at tables): public."""
    return [s.to_json() for s in room.ledger.leaderboard(room.accounts.event(event_id).id)]
