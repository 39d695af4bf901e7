"""The door (docs/door.md): the guest list, check-in and payments, and the guests' sign-in
vouchers. A voucher's secret travels in the fragment of its address (``/voucher#<secret>``),
which no browser sends to a server: it reaches no log and no ``Referer``."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse
from pydantic import Field, StrictInt, StrictStr

from ...room import receipts
from ...room.errors import BadRequest
from ..auth import COOKIE, Me
from ..qr import base_url, qr_svg
from ..schemas import JSON_ERRORS, Body, Cents, Id
from ..state import Deployment, Room

router = APIRouter()

#: A session a voucher opens lasts as one a password opens.
SESSION = timedelta(hours=12)


class Rate(Body):
    paid: Annotated[Cents, Field(description="cents paid at the door ...")]
    chips: Annotated[Cents, Field(description="... buy this many cents in chips")]
    stack: Annotated[StrictInt | None, Field(ge=1, le=10**11, description=(
        "cents in chips every guest gets when checked in, whatever they paid; null: chips at the rate"))] = None


class GuestList(Body):
    csv: Annotated[StrictStr, Field(max_length=1_000_000, description=(
        "the text of a CSV file: a header row with a 'name' column, then a guest a row"))]


class Payment(Body):
    method: Literal["cash", "card", "comp"]
    paid: Annotated[StrictInt, Field(ge=0, le=10**11, description="cents paid; 0 for a comp")] = 0


class Redeem(Body):
    voucher: Annotated[StrictStr, Field(min_length=1, max_length=200)]


@router.put("/api/door/rate", tags=["door"])
def set_rate(account: Me, body: Rate, room: Room) -> dict[str, Any]:
    """The door's exchange rate (``paid`` cents buy ``chips`` cents in chips) and the equal
    starting stack (the admin)."""
    return room.door.set_rate(account, body.paid, body.chips, body.stack).to_json()


@router.post("/api/door/guests", tags=["door"], status_code=201)
def import_guests(account: Me, body: GuestList, room: Room) -> dict[str, Any]:
    """Import a guest list: every guest or none (409 ``duplicate_guest`` for a name listed twice
    or already in the event, 400 ``guest_list`` for a file that is not one, naming the lines)."""
    made = room.door.import_guests(account, body.csv)
    return {"imported": len(made), "guests": [{"id": a.id, "name": a.name} for a in made]}


@router.get("/api/door/guests", tags=["door"])
def guests(account: Me, room: Room, q: Annotated[str, Field(max_length=40)] = "") -> list[dict[str, Any]]:
    """The guests whose name holds ``q``: checked in or not, what they paid, their chips from
    the door, their receipts, and whether a voucher of theirs can still sign them in."""
    return room.door.guests(account, q[:40])


@router.post("/api/door/guests/{guest_id}/check-in", tags=["door"], status_code=201)
def check_in(account: Me, guest_id: Id, body: Payment, room: Room) -> dict[str, Any]:
    """Check a guest in with what they paid (409 ``already_checked_in`` the second time)."""
    return room.door.check_in(account, guest_id, body.method, body.paid).to_json()


@router.post("/api/door/guests/{guest_id}/payments", tags=["door"], status_code=201)
def pay(account: Me, guest_id: Id, body: Payment, room: Room) -> dict[str, Any]:
    """A checked-in guest's further payment: chips at the rate."""
    return room.door.pay(account, guest_id, body.method, body.paid).to_json()


@router.get("/api/door/payments", tags=["door"])
def payments(account: Me, room: Room) -> list[dict[str, Any]]:
    """Every payment at the door, by receipt number."""
    return [p.to_json() for p in room.door.payments(account)]


@router.post("/api/door/guests/{guest_id}/voucher", tags=["door"], status_code=201)
def issue_voucher(account: Me, guest_id: Id, room: Room, request: Request, settings: Deployment) -> dict[str, Any]:
    """A new sign-in voucher for the guest (their earlier ones are revoked): its secret, shown
    this once, its address and that address's QR code to print or show. ``qr`` is null, with
    ``qr_refusal`` saying why, when a phone could not reach the address this was asked at."""
    secret, expires = room.door.issue_voucher(account, guest_id)
    out: dict[str, Any] = {"voucher": secret, "expires": expires.isoformat(), "path": f"/voucher#{secret}"}
    try:
        url = base_url(request, settings) + out["path"]
        out |= {"url": url, "qr": qr_svg(url, "QR code that signs the guest in on their phone"), "qr_refusal": None}
    except BadRequest as e:
        out |= {"url": None, "qr": None, "qr_refusal": e.message}
    return out


@router.post("/api/door/guests/{guest_id}/voucher/revoke", tags=["door"])
def revoke_voucher(account: Me, guest_id: Id, room: Room) -> dict[str, int]:
    """Revoke the guest's vouchers: none of them signs anyone in any more."""
    return {"revoked": room.door.revoke_vouchers(account, guest_id)}


@router.post("/api/voucher", tags=["door"])
def redeem(body: Redeem, response: Response, room: Room, settings: Deployment) -> dict[str, Any]:
    """Sign in with a voucher (a browser: the session cookie). 401 with rule ``voucher_used``,
    ``voucher_revoked``, ``voucher_expired`` or ``voucher`` otherwise; it signs in once."""
    token, account = room.door.redeem(body.voucher, SESSION)
    response.set_cookie(COOKIE, token, httponly=True, samesite="strict", secure=settings.secure_cookies,
                        max_age=int(SESSION.total_seconds()), path="/")
    return {"account": account.to_json()}


@router.get("/api/receipts/door/{receipt}", tags=["door"], response_class=HTMLResponse, responses=JSON_ERRORS)
def door_receipt(account: Me, receipt: Id, request: Request) -> HTMLResponse:
    """A payment at the door as a printable receipt, two copies, numbered ``D-<receipt>``."""
    r = receipts.door_receipt(request.app.state.room.store, account, receipt)
    return HTMLResponse(receipts.html_page(r, stylesheet="/api/report/print.css"))


@router.get("/api/receipts/table/{transaction}", tags=["walk-ins"], response_class=HTMLResponse,
            responses=JSON_ERRORS)
def table_receipt(account: Me, transaction: Id, request: Request) -> HTMLResponse:
    """A walk-in's cash at a table (a ledger transaction) as a printable receipt, two copies,
    numbered ``T-<transaction>``: for the table's dealer, the pit bosses and the admin."""
    r = receipts.table_receipt(request.app.state.room.store, account, transaction)
    return HTMLResponse(receipts.html_page(r, stylesheet="/api/report/print.css"))
