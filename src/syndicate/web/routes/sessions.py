"""Signing in and out: a cookie for browsers, a bearer token for programs, and who is asking
(docs/server.md). Failed sign-ins are rate-limited by name and address (docs/security.md)."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Annotated, Any

from fastapi import APIRouter, Request, Response
from pydantic import Field, StrictStr
from starlette.concurrency import run_in_threadpool

from ...room.accounts import token_hash
from ...room.cardroom import CardRoom
from ...room.errors import Unauthorized
from ...room.roles import PERMISSIONS, allowed
from ...room.values import Account
from ..auth import COOKIE, Me, token_of, who
from ..schemas import Body, ErrorBody, Id, Name
from ..security import RateLimited, SignInLimiter
from ..state import Deployment, OpenSockets, Room, SignIns, TheCluster

log = logging.getLogger(__name__)
router = APIRouter()

RATE_LIMITED: dict[int | str, dict[str, Any]] = {429: {
    "model": ErrorBody, "description": "too many failed sign-ins (rule rate_limit)",
    "headers": {"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}}}}


class SignIn(Body):
    name: Name
    password: Annotated[StrictStr, Field(min_length=1, max_length=200)]


async def sign_in(room: CardRoom, sign_ins: SignInLimiter, request: Request, event_id: int, body: SignIn,
                  kind: str) -> tuple[str, Account]:
    """Check the password, unless this name failed too often lately from this address (429):
    another address signing in to that name is not held up. From an address over its limit
    across names only a name that exists is checked (docs/security.md); every refusal takes
    at least one check's time, so the time does not tell which. The checks and the counters
    run in the thread pool, the waiting on the event loop (a waiting refusal holds no thread)."""
    ev = (await run_in_threadpool(room.accounts.event, event_id)).id
    address = request.client.host if request.client else None
    try:
        over = await run_in_threadpool(sign_ins.check, ev, body.name, address)
    except RateLimited:
        log.warning("sign-in to event %s from %s refused: too many failures", ev, address)
        raise
    started = time.perf_counter()
    try:
        signed_in = await run_in_threadpool(
            lambda: room.accounts.sign_in(ev, body.name, body.password, kind, unknown=not over))
    except Unauthorized:
        # not the name tried: people type their password there by mistake
        log.info("failed sign-in to event %s from %s", ev, address)
        await run_in_threadpool(sign_ins.failed, ev, body.name, address)
        if (pad := room.accounts.verify_seconds - (time.perf_counter() - started)) > 0:
            await asyncio.sleep(pad)
        raise
    await run_in_threadpool(sign_ins.succeeded, ev, body.name, address)
    return signed_in


def _may(account: Account) -> list[str]:
    """The actions the account's role may take, for the pages to offer only those."""
    return sorted(a for a in PERMISSIONS if allowed(account.role, a))


@router.post("/api/events/{event_id}/session", tags=["sign-in"], responses=RATE_LIMITED)
async def sign_in_browser(event_id: Id, body: SignIn, request: Request, response: Response, room: Room,
                          sign_ins: SignIns, settings: Deployment) -> dict[str, Any]:
    """Sign in with a cookie (browsers): HttpOnly, SameSite=Strict."""
    token, account = await sign_in(room, sign_ins, request, event_id, body, "session")
    response.set_cookie(COOKIE, token, httponly=True, samesite="strict", secure=settings.secure_cookies,
                        max_age=12 * 3600, path="/")
    return {"account": account.to_json()}


@router.post("/api/events/{event_id}/tokens", tags=["sign-in"], responses=RATE_LIMITED)
async def sign_in_program(event_id: Id, body: SignIn, request: Request, room: Room,
                          sign_ins: SignIns) -> dict[str, Any]:
    """Sign in for a program: the token goes in ``Authorization: Bearer``."""
    token, account = await sign_in(room, sign_ins, request, event_id, body, "token")
    return {"token": token, "account": account.to_json()}


@router.delete("/api/session", tags=["sign-in"], status_code=204)
def sign_out(request: Request, response: Response, room: Room, sessions: OpenSockets,
             cluster: TheCluster) -> Response:
    token = token_of(request)
    if token:
        room.accounts.sign_out(token)
        sessions.signed_out(token_hash(token))  # its open sockets close too
        if cluster is not None:
            cluster.revoke_everywhere(token_hash=token_hash(token))
    response = Response(status_code=204)
    response.delete_cookie(COOKIE, path="/")
    return response


@router.get("/api/session", tags=["sign-in"])
def current_session(request: Request) -> dict[str, Any]:
    """Who this browser is signed in as, or ``{"account": null}``: every page asks on load,
    and a signed-out visitor is no error (``/api/me`` answers 401 for programs)."""
    try:
        account = who(request)
    except Unauthorized:
        return {"account": None, "may": []}
    return {"account": account.to_json(), "may": _may(account)}


@router.get("/api/me", tags=["sign-in"])
def me(account: Me) -> dict[str, Any]:
    return {"account": account.to_json(), "may": _may(account)}
