"""Tables: the lobby, opening one (authorized dealers only), a table's row and status, and its
live play over a WebSocket (docs/protocol.md)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, WebSocket
from pydantic import Field, StrictInt, StrictStr

from ...room.live.clocks import MAX_TURN, MIN_TURN
from ..auth import Me
from ..live import table_socket
from ..schemas import DEFAULT_GAME, Body, GameId, Id, Name
from ..state import Live, Room

router = APIRouter()


class NewTable(Body):
    name: Name
    game: GameId = DEFAULT_GAME
    preset: Annotated[StrictStr, Field(max_length=40)] | None = None
    overrides: dict[Annotated[str, Field(max_length=40)], StrictStr | StrictInt | float | bool] = Field(
        default_factory=dict, max_length=40,
        description="rule key → value; money keys as integer cents or text such as \"$5\"")
    cards: Literal["shuffled", "real"] = Field(
        default="shuffled", description="where the cards come from: the server's shuffled, committed shoe, or "
        "real cards the dealer deals and enters as they land (docs/dealer.md)")
    turn_clock: StrictInt | None = Field(
        default=None, description=f"the turn clock in whole seconds ({MIN_TURN} to {MAX_TURN}), or null for none; "
        "left out, the event's default for tables of these cards, else none at real cards and the server's (30 s) "
        "at shuffled ones")


class TableStatus(Body):
    status: Literal["open", "paused", "closed"]


@router.get("/api/events/{event_id}/tables", tags=["tables"])
def lobby(event_id: Id, room: Room) -> list[dict[str, Any]]:
    return [t.to_json() for t in room.tables.lobby(room.accounts.event(event_id).id)]


@router.post("/api/tables", tags=["tables"], status_code=201)
def open_table(account: Me, body: NewTable, room: Room) -> dict[str, Any]:
    """Open a table: authorized dealers only ("Unauthorized games are prohibited")."""
    clock = body.turn_clock if "turn_clock" in body.model_fields_set else ...
    return room.tables.open(account, body.name, body.game, body.preset, body.overrides, body.cards,
                            clock).to_json()


@router.get("/api/tables/{table_id}", tags=["tables"])
def table(account: Me, table_id: Id, room: Room) -> dict[str, Any]:
    return room.tables.get(account.event_id, table_id).to_json()


@router.post("/api/tables/{table_id}/status", tags=["tables"])
def table_status(account: Me, table_id: Id, body: TableStatus, room: Room, live: Live) -> dict[str, Any]:
    t = room.tables.set_status(account, table_id, body.status).to_json()
    live.refresh(table_id)
    if body.status == "closed":
        live.closed(table_id)
    return t


@router.websocket("/ws/tables/{table_id}")
async def table_ws(ws: WebSocket, table_id: Id) -> None:
    state = ws.app.state  # the socket takes the live room whole, not only what the routes use
    settings = state.settings
    await table_socket(ws, table_id, state.room, state.live, limits=settings.limits, sessions=state.sessions,
                       trusted_origins=settings.trusted_origins)
