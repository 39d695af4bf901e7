"""Who is asking: the bearer token (programs) or the session cookie (browsers)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from ..room.cardroom import CardRoom
from ..room.values import Account

COOKIE = "syndicate_session"


def token_of(request: Request) -> str | None:
    """The bearer token (programs) or else the session cookie (browsers)."""
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip()
    return request.cookies.get(COOKIE)


def who(request: Request) -> Account:
    room: CardRoom = request.app.state.room
    return room.accounts.authenticate(token_of(request))


Me = Annotated[Account, Depends(who)]
