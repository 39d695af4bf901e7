"""The event's accounts: the list, a new account, and a change of role (admin only)."""

from __future__ import annotations

import logging
from typing import Any, Literal

from fastapi import APIRouter

from ...room.roles import require
from ..auth import Me
from ..schemas import Body, Id, Name, NewPassword
from ..state import Live, OpenSockets, Room, TheCluster

log = logging.getLogger(__name__)
router = APIRouter()


class NewAccount(Body):
    name: Name
    role: Literal["admin", "pit_boss", "dealer", "player", "spectator"]
    password: NewPassword


class ChangeRole(Body):
    role: Literal["admin", "pit_boss", "dealer", "player", "spectator"]


@router.get("/api/accounts", tags=["accounts"])
def accounts(account: Me, room: Room) -> list[dict[str, Any]]:
    return [a.to_json() for a in room.accounts.list(account)]


@router.post("/api/accounts", tags=["accounts"], status_code=201)
def create_account(account: Me, body: NewAccount, room: Room) -> dict[str, Any]:
    return room.accounts.create(account, body.name, body.role, body.password).to_json()


@router.patch("/api/accounts/{account_id}", tags=["accounts"])
def change_role(account: Me, account_id: Id, body: ChangeRole, room: Room, live: Live, sessions: OpenSockets,
                cluster: TheCluster) -> dict[str, Any]:
    """Give an account another role (admin only; not your own: rule ``own_role``). Every
    sign-in of that account ends (tokens, cookies, open sockets): it signs in again."""
    require(account.role, "change_role")
    target = room.accounts.get(account.event_id, account_id)
    if target.role != body.role and target.id != account.id:
        room.accounts.check_not_in_play(target, live.seated)
    changed = room.accounts.change_role(account, account_id, body.role)
    closed = sessions.account_changed(account_id)
    if cluster is not None:
        cluster.revoke_everywhere(account=account_id)
    log.info("account %s is now %s (by %s); its sign-ins ended, %s live sockets closed",
             account_id, changed.role, account.id, closed)
    return changed.to_json()
