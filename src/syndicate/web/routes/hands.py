"""Hand histories: the search through finished hands, and one hand's shoe as a history in the
engine's format or, for a draw hand, in the Poker Hand History format."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import PlainTextResponse

from ...room.errors import BadRequest
from ...room.histories import finished_hands, kind_of_history, shoe_history
from ...room.roles import require
from ..auth import Me
from ..schemas import JSON_ERRORS, Digits, Id
from ..state import Room

router = APIRouter()


@router.get("/api/hands", tags=["hands"])
def hands(
    account: Me, room: Room, table: Annotated[int | None, Query(ge=1, le=2**31 - 1), Digits] = None,
    commitment: Annotated[str | None, Query(pattern="^[0-9a-f]{64}$")] = None,
    limit: Annotated[int, Query(ge=1, le=1000), Digits] = 100,
    player: Annotated[int | None, Query(ge=1, le=2**31 - 1, description="an account that played"), Digits] = None,
) -> list[dict[str, Any]]:
    """Finished hands (settled or voided), searchable by table, shoe commitment and player. A
    hand in play is not listed: its stored log holds the hole card. A player searches the
    hands they played in; the admin and pit bosses those of anyone."""
    if player is not None:
        require(account.role, "search_own_hands" if player == account.id else "search_any_hands")
        room.accounts.get(account.event_id, player)  # 404 for an account not in this event
    return finished_hands(room.store, account.event_id, table, commitment, limit, player)


@router.get("/api/hands/{hand_id}/phh", tags=["hands"], response_class=PlainTextResponse, responses=JSON_ERRORS)
def hand_phh(account: Me, hand_id: Id, room: Room) -> str:
    """A finished draw hand in the Poker Hand History format (docs/hand-history-poker.md)."""
    doc = hand_history(account, hand_id, room)
    kind = kind_of_history(doc)
    if kind.history.phh is None:
        raise BadRequest("game", f"PHH is a poker format: download a {kind.title} hand as /history")
    return kind.history.phh(doc)


@router.get("/api/hands/{hand_id}/history", tags=["hands"])
def hand_history(account: Me, hand_id: Id, room: Room) -> dict[str, Any]:
    """The hand's shoe as a history in the engine's format (docs/hand-history.md): every
    finished hand dealt from that shoe so far, as the caller may see it (docs/fairness.md):
    until the seed is revealed, another player's unshown cards are hidden and every card
    shown comes with its opening, which `syndicate verify` checks."""
    return shoe_history(room.store, account.event_id, hand_id, account)
