"""The host's views over HTTP: the end-of-night report (JSON, the ledger as CSV, a printable
page), the time series the charts draw, and the player's own page (docs/report.md).

The report and the house's and leaders' series are for the admin and pit bosses (the rule of
``/api/balances``: ``view_any_ledger``); a player's chips series is theirs alone (or the admin's
and pit bosses'), like their ledger.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import HTMLResponse, Response

from ..room import report
from ..room.errors import Forbidden
from ..room.roles import allowed, require
from ..room.values import Account
from .auth import Me
from .schemas import Digits

Id = Annotated[int, Path(ge=1, le=2**31 - 1), Digits]
router = APIRouter()


def _host_only(account: Account, what: str) -> None:
    if not allowed(account.role, "view_any_ledger"):
        raise Forbidden("view_any_ledger", f"{what} is for the admin and pit bosses "
                                           f"(you are {account.role.replace('_', ' ')})")


def _slug(name: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in name.lower()).strip("-") or "event"


@router.get("/api/report", tags=["report"])
def report_json(request: Request, account: Me) -> dict[str, Any]:
    """The end-of-night report of your event, in cents: per player buy-ins, cash-outs, chips
    held, net and hands played; per table and per dealer hands and the house's result; the
    winners; the totals and the ledger audit of ``syndicate admin check`` (``agrees``: the
    players' nets are minus the house's result and the audit found nothing). Admin and pit
    bosses."""
    _host_only(account, "the report")
    return report.build(request.app.state.room.store, account.event_id).to_json()


@router.get("/api/report/ledger.csv", tags=["report"], response_class=Response)
def report_csv(request: Request, account: Me) -> Response:
    """The whole ledger of your event as CSV, one row per entry. Admin and pit bosses."""
    _host_only(account, "the ledger")
    rep = report.build(request.app.state.room.store, account.event_id)
    return Response(report.ledger_csv(rep), media_type="text/csv; charset=utf-8", headers={
        "Content-Disposition": f'attachment; filename="{_slug(rep.event)}-ledger.csv"'})


@router.get("/api/report/players.csv", tags=["report"], response_class=Response)
def report_players_csv(request: Request, account: Me) -> Response:
    """Each player's evening as CSV, one row each (start, bought, won or lost, cashed out, now;
    walk-ins marked). Admin and pit bosses."""
    _host_only(account, "the players' summary")
    rep = report.build(request.app.state.room.store, account.event_id)
    return Response(report.players_csv(rep), media_type="text/csv; charset=utf-8", headers={
        "Content-Disposition": f'attachment; filename="{_slug(rep.event)}-players.csv"'})


@router.get("/api/report/page", tags=["report"], response_class=HTMLResponse)
def report_page(request: Request, account: Me) -> HTMLResponse:
    """The report as a printable page (print CSS; no script). Admin and pit bosses."""
    _host_only(account, "the report")
    rep = report.build(request.app.state.room.store, account.event_id)
    return HTMLResponse(report.html_page(rep, stylesheet="/api/report/print.css", csv_href="/api/report/ledger.csv",
                                         players_href="/api/report/players.csv"))


@router.get("/api/report/print.css", tags=["report"], include_in_schema=False)
def report_css() -> Response:
    return Response(report.PRINT_CSS, media_type="text/css; charset=utf-8", headers={"Cache-Control": "no-cache"})


@router.get("/api/series/house", tags=["report"])
def house_series(request: Request, account: Me) -> dict[str, Any]:
    """The house's result at each table over time (cents after each ledger transaction)."""
    _host_only(account, "the house's figures")
    return report.house_series(request.app.state.room.store, account.event_id)


@router.get("/api/series/leaders", tags=["report"])
def leaders_series(request: Request, account: Me,
                   count: Annotated[int, Query(ge=1, le=20), Digits] = 5) -> dict[str, Any]:
    """The chips of the ``count`` players holding the most now, over the evening."""
    _host_only(account, "other players' chips")
    return report.chips_series(request.app.state.room.store, account.event_id, leaders=count)


@router.get("/api/accounts/{account_id}/chips", tags=["report"])
def player_chips(request: Request, account: Me, account_id: Id) -> dict[str, Any]:
    """A player's chips (bankroll plus stacks) over the evening: your own, or anyone's for the
    admin and pit bosses."""
    room = request.app.state.room
    if account_id == account.id:
        require(account.role, "view_own_ledger")
    elif not allowed(account.role, "view_any_ledger"):
        raise Forbidden("view_any_ledger", "you may see only your own chips")
    target = room.accounts.get(account.event_id, account_id)  # 404 outside your event
    return report.chips_series(room.store, account.event_id, [target.id])


@router.get("/me", include_in_schema=False)
def me_page() -> HTMLResponse:
    from .pages import page_response

    return page_response("me")
