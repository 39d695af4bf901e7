"""What the routes reach of their app: the services :func:`syndicate.web.app.create_app` keeps on
``app.state``, as FastAPI dependencies.

The routers are built at import time, before any app exists, so they read the app's services
per request. Each dependency takes only the request, so none adds a parameter to the OpenAPI
document, and each is ``async`` so that reading an attribute costs no trip to the thread pool.

The live tables are seen through :class:`LiveTables`, only what the routes ask of them: the
routes do not depend on which live room runs the tables (this process's, or one of several
processes', docs/deployment.md) nor on the module that defines it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, Protocol

from fastapi import Depends, FastAPI, Request

from ..room.cardroom import CardRoom
from .hosts import Hosts
from .security import Limits, Sessions, SignInLimiter


class LiveTables(Protocol):
    """The tables in play, as the HTTP routes use them."""

    def seated(self, account_id: int) -> list[int]:
        """The tables where the account sits now."""
        ...

    def refresh(self, table_id: int | None = None) -> None:
        """A table's row changed (its status, its dealer): its runner reads it again. Without
        an id, every table's."""
        ...

    def closed(self, table_id: int) -> None:
        """The table was closed: it finishes the round in play, then stops."""
        ...

    def event_ended(self, table_ids: list[int]) -> None:
        """The event ended: its tables close as :meth:`closed` does and reveal what is due."""
        ...


class Cluster(Protocol):
    """The other processes serving the same room, when there are several."""

    def revoke_everywhere(self, *, account: int | None = None, token_hash: str | None = None) -> None:
        """Close the sockets of a sign-in that ended, in every process."""
        ...


@dataclass(frozen=True, slots=True)
class Settings:
    """How the deployment serves, as ``create_app`` was given it."""

    secure_cookies: bool = False  # the session cookie is Secure (sent over HTTPS only)
    current_event: str | None = None  # the event the pages open; None: the one made at first start
    limits: Limits = field(default_factory=Limits)
    trusted_origins: frozenset[str] = frozenset()
    #: where the players reach the server (``syndicate serve --public-url``): the address in the
    #: pages' QR codes; None: the address each request was sent to, if it is the server's own
    public_url: str | None = None
    #: the names the room answers to besides the address a connection reached (web/hosts.py)
    hosts: Hosts = field(default_factory=Hosts)


def keep(app: FastAPI, *, room: CardRoom, live: LiveTables, cluster: Cluster | None, sessions: Sessions,
         sign_ins: SignInLimiter, settings: Settings) -> None:
    """Put the services on ``app.state`` for the routes (typed here, so a live room that lacks
    what the routes use is a type error at the one place that builds it)."""
    app.state.room = room
    app.state.live = live
    app.state.cluster = cluster
    app.state.sessions = sessions
    app.state.sign_ins = sign_ins
    app.state.settings = settings


def _state(request: Request) -> Any:
    return request.app.state


async def _room(request: Request) -> CardRoom:
    room: CardRoom = _state(request).room
    return room


async def _live(request: Request) -> LiveTables:
    live: LiveTables = _state(request).live
    return live


async def _cluster(request: Request) -> Cluster | None:
    cluster: Cluster | None = _state(request).cluster
    return cluster


async def _sessions(request: Request) -> Sessions:
    sessions: Sessions = _state(request).sessions
    return sessions


async def _sign_ins(request: Request) -> SignInLimiter:
    sign_ins: SignInLimiter = _state(request).sign_ins
    return sign_ins


async def _settings(request: Request) -> Settings:
    settings: Settings = _state(request).settings
    return settings


Room = Annotated[CardRoom, Depends(_room)]
Live = Annotated[LiveTables, Depends(_live)]
#: the other processes, or None when this one serves alone
TheCluster = Annotated[Cluster | None, Depends(_cluster)]
#: the open sockets of each sign-in, which close when it ends
OpenSockets = Annotated[Sessions, Depends(_sessions)]
SignIns = Annotated[SignInLimiter, Depends(_sign_ins)]
Deployment = Annotated[Settings, Depends(_settings)]
