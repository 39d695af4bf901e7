"""The prize draws (docs/prize-draw.md): the host creates, closes and draws them; anyone signed
in reads a draw's proof (its seed only once drawn) and their own tickets."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter
from pydantic import Field, StrictBool, StrictInt, StrictStr

from ...room.draws import proof
from ..auth import Me
from ..schemas import Body, Cents, Id
from ..state import Room

router = APIRouter()


class TicketRule(Body):
    rate: Annotated[Cents, Field(description="one ticket per this many cents of chips")]
    rounding: Literal["down", "up", "nearest"] = "down"
    minimum: Annotated[StrictInt, Field(ge=0, le=10_000)] = 0
    cap: Annotated[StrictInt | None, Field(ge=1, le=1_000_000)] = None


class Prize(Body):
    name: Annotated[StrictStr, Field(min_length=1, max_length=100)]
    value: Annotated[StrictInt, Field(ge=0, le=10**11, description="cents: what the prize is worth")] = 0


class NewDraw(Body):
    name: Annotated[StrictStr, Field(min_length=1, max_length=100)]
    kind: Literal["raffle", "top"] = Field(default="raffle", description=(
        "a raffle (tickets at the rule in ``tickets``), or prizes to the most chips (``top``: no tickets)"))
    tickets: TicketRule | None = None
    prizes: Annotated[list[Prize], Field(min_length=1, max_length=100)]
    one_prize_per_guest: StrictBool = False


class Witness(Body):
    witness: Annotated[StrictStr, Field(max_length=200, description=(
        "text anyone in the room gave after the tickets were published (a die's roll, words called out)"))] = ""


@router.post("/api/draws", tags=["prizes"], status_code=201)
def create(account: Me, body: NewDraw, room: Room) -> dict[str, Any]:
    """A new draw, open, its seed committed (``commitment``) before any chip is converted: a
    raffle (400 ``ticket_rate`` without its ``tickets`` rule) or prizes to the most chips."""
    rule = body.tickets.model_dump() if body.tickets is not None else None
    d = room.draws.create(account, body.name, rule, [p.model_dump() for p in body.prizes], body.one_prize_per_guest,
                          body.kind)
    return proof(d)


@router.get("/api/draws", tags=["prizes"])
def draws(account: Me, room: Room) -> list[dict[str, Any]]:
    """Every draw of the event, as its proof says it now."""
    return [proof(d) for d in room.draws.all(account)]


@router.get("/api/draws/{draw_id}", tags=["prizes"])
def one(account: Me, draw_id: Id, room: Room) -> dict[str, Any]:
    """A draw's proof: ``syndicate verify`` checks it once drawn (docs/prize-draw.md)."""
    return proof(room.draws.get(account, draw_id))


@router.post("/api/draws/{draw_id}/close", tags=["prizes"])
def close(account: Me, draw_id: Id, room: Room) -> dict[str, Any]:
    """Convert every guest's bankroll into the draw's tickets (409 ``draw_closed`` the second
    time, ``draw_needs_tickets`` when no guest would have one)."""
    return proof(room.draws.close(account, draw_id))


@router.post("/api/draws/{draw_id}/draw", tags=["prizes"])
def draw(account: Me, draw_id: Id, body: Witness, room: Room) -> dict[str, Any]:
    """Draw the winners; the seed is shown (409 ``draw_open`` before it is closed, ``draw_drawn``
    the second time)."""
    return proof(room.draws.draw(account, draw_id, body.witness))


@router.get("/api/me/tickets", tags=["prizes"])
def my_tickets(account: Me, room: Room) -> list[dict[str, Any]]:
    """The signed-in account's tickets in each draw, and what they won."""
    return room.draws.tickets_of(account)
