"""The FastAPI app: it builds the card room's services over one database, keeps them on
``app.state`` (:mod:`syndicate.web.state`) and composes the routers: the REST API by resource
(:mod:`syndicate.web.routes`), the browser pages and the report.

Every refusal is ``{"error": {"rule": ..., "message": ...}}`` with a 4xx status
(:mod:`syndicate.web.errors`). This is the one module that names the live room's classes
(:class:`LiveRoom`, or :class:`ClusterRoom` across processes: the two kinds of
:class:`~syndicate.room.live.floor.Floor`): the routes see them through
:class:`syndicate.web.state.LiveTables`.
"""

from __future__ import annotations

import asyncio
import gc
import hashlib
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from typing import Any

from argon2 import PasswordHasher
from fastapi import FastAPI

from ..room.cardroom import CardRoom
from ..room.games import NewShoe
from ..room.live.clocks import Timers
from ..room.live.cluster import ClusterRoom, check_cluster_url
from ..room.live.floor import Floor
from ..room.live.local import LiveRoom
from ..room.recovery import Restored, void_unfinished
from ..store import Database, SqlStore
from ..store.bus import RedisBus
from .auth import COOKIE
from .errors import answer_refusals
from .gcpause import keep_pauses_short
from .headers import SecurityHeadersMiddleware
from .hosts import HostGuard, Hosts
from .pages import OddsService
from .pages import router as pages_router
from .qr import public_url as qr_public_url
from .qr import router as qr_router
from .report import router as report_router
from .routes import ROUTERS
from .schemas import ERRORS
from .security import CsrfMiddleware, Limits, Sessions, SharedSignInLimiter, SignInLimiter
from .state import Settings, keep

__all__ = ["COOKIE", "create_app"]

API_VERSION = "1"


def create_app(
    db_url: str | None = None, *, database: Database | None = None, hasher: PasswordHasher | None = None,
    migrate: bool = True, secure_cookies: bool | None = None, timers: Timers | None = None,
    new_shoe: NewShoe | None = None, limits: Limits | None = None,
    trusted_origins: Iterable[str] = (), redis_url: str | None = None, lease_seconds: float = 5.0,
    short_gc_pauses: bool = False, precompute_odds: bool = False, current_event: str | None = None,
    public_url: str | None = None, allowed_hosts: Iterable[str] = (),
) -> FastAPI:
    """The card room's web app over the database at ``db_url`` (created and migrated unless
    ``migrate`` is false). ``secure_cookies`` marks the session cookie Secure, so that a browser
    sends it over HTTPS only; None (the default) marks it so when ``public_url`` is https.
    ``limits`` sets the sign-in and live-message rate limits
    (:class:`syndicate.web.security.Limits`); ``trusted_origins`` (e.g. ``"https://casino.example"``)
    are other origins whose pages may use the session cookie (the server's own always may).

    Requests and sockets are answered only under the room's own names (:mod:`syndicate.web.hosts`:
    the address a connection reached, ``localhost`` over loopback, the public URL's and the
    trusted origins' hosts, and ``allowed_hosts`` such as ``"casino.local"``); any other ``Host``
    is refused (400, rule ``host``).

    On start, any hand a previous process left unfinished is voided and its bets returned
    (:func:`syndicate.room.recovery.void_unfinished`), so every table comes back ready to play;
    a table it cannot restore is served to no one and listed in ``app.state.faults``.

    ``public_url`` (``https://casino.example``) is where the players reach the server: the pages'
    QR codes carry it (:mod:`syndicate.web.qr`); without it, a code carries the address its
    request was sent to when that is the server's own.

    ``current_event`` names the event the pages open (``syndicate serve --event``); without
    it, the event made at first start. Creating another event never changes it.

    ``short_gc_pauses`` (``syndicate serve`` sets it: it owns the process) keeps the garbage
    collector's pauses short (:mod:`syndicate.web.gcpause`). ``precompute_odds`` (``syndicate serve``
    sets it too) analyses every preset's odds in the background on start, so a preset table's
    rules page answers at once (:class:`syndicate.web.pages.OddsService`).

    With ``redis_url`` the server is one of several processes on one PostgreSQL database
    (:mod:`syndicate.room.live.cluster`, docs/deployment.md): nothing is voided on start; a table's
    unfinished hand is voided when a process takes the table over after its owner stopped.
    """
    public = qr_public_url(public_url) if public_url is not None else None
    trusted = frozenset(o.rstrip("/").lower() for o in trusted_origins)
    hosts = Hosts.of(public, trusted, allowed_hosts)  # checks each allowed host first
    secure = public is not None and public.startswith("https://") if secure_cookies is None else secure_cookies
    db = database or Database(db_url)
    if migrate:
        db.migrate()
    room = CardRoom(SqlStore(db), hasher)
    live: Floor
    if redis_url is None:
        restored = void_unfinished(room)
        live = LiveRoom(room, timers=timers, new_shoe=new_shoe)
    else:
        check_cluster_url(db.url)
        restored = Restored()
        # Each database is one cluster: processes on another database share no channel with these.
        namespace = hashlib.sha256(str(db.url).encode()).hexdigest()[:12]
        live = ClusterRoom(room, RedisBus(redis_url), namespace=namespace, timers=timers, new_shoe=new_shoe,
                           lease_seconds=lease_seconds)
    limits = limits or Limits()
    sign_ins = (SharedSignInLimiter(limits, redis_url, live.prefix) if isinstance(live, ClusterRoom)
                and redis_url is not None else SignInLimiter(limits))
    sessions = Sessions()
    odds_pool = OddsService()
    cluster = live if isinstance(live, ClusterRoom) else None
    if cluster is not None:
        def revoke_here(op: dict[str, Any]) -> None:  # a sign-in ended in another process: our sockets too
            if op.get("account") is not None:
                sessions.account_changed(op["account"])
            if op.get("token_hash") is not None:
                sessions.signed_out(op["token_hash"])

        cluster.revoke = revoke_here

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        gc_task = asyncio.create_task(keep_pauses_short()) if short_gc_pauses else None
        warm = asyncio.create_task(odds_pool.warm()) if precompute_odds else None
        if cluster is not None:
            await cluster.start()
        yield
        await live.stop()
        if warm is not None:
            warm.cancel()
        odds_pool.close()
        if gc_task is not None:
            gc_task.cancel()
            gc.unfreeze()

    app = FastAPI(
        title="Syndicate card room", version=API_VERSION, lifespan=lifespan,
        description="Events, the roster of authorized dealers, tables, bankrolls and the ledger. "
                    "Money is integer cents. Live play: WebSocket /ws/tables/{table_id} (docs/protocol.md).",
        responses=ERRORS,
    )
    app.add_middleware(CsrfMiddleware, trusted_origins=trusted)
    app.add_middleware(HostGuard, hosts=hosts)  # before the CSRF check, which trusts the Host
    app.add_middleware(SecurityHeadersMiddleware)  # outermost: the refusals get them too
    keep(app, room=room, live=live, cluster=cluster, sessions=sessions, sign_ins=sign_ins,
         settings=Settings(secure_cookies=secure, current_event=current_event, limits=limits,
                           trusted_origins=trusted, public_url=public, hosts=hosts))
    app.state.db = db
    app.state.voided = restored.voided
    app.state.faults = restored.faults  # the tables it could not restore, with why
    app.state.odds = odds_pool
    answer_refusals(app)
    for router in ROUTERS:  # the REST API by resource, in the order of the OpenAPI document's paths
        app.include_router(router)
    app.include_router(pages_router)  # the browser pages (docs/browser.md)
    app.include_router(qr_router)  # the pages' QR codes (docs/dealer.md)
    app.include_router(report_router)  # the end-of-night report and the charts' series (docs/report.md)
    return app
