"""The REST API by resource, one :class:`fastapi.APIRouter` each, which
:func:`syndicate.web.app.create_app` includes in the order of :data:`ROUTERS` (the order of the
paths in the OpenAPI document).

Handlers are plain ``def`` where they do database work (or argon2), so FastAPI runs them in its
thread pool; the room's services do the work and the handlers shape the answers.
"""

from __future__ import annotations

from fastapi import APIRouter

from . import (
    accounts,
    cashier,
    door,
    draws,
    events,
    hands,
    house,
    ledger,
    roles,
    roster,
    screen,
    sessions,
    shifts,
    tables,
    walkins,
)

ROUTERS: tuple[APIRouter, ...] = (
    events.router, sessions.router, accounts.router, roster.router, cashier.router, ledger.router,
    house.router, tables.router, hands.router, walkins.router, door.router, draws.router, shifts.router,
    roles.router, screen.router,
)
