"""The FastAPI app: sign-in, accounts, the roster, the cashier, balances and ledger lines,
tables and the lobby.

Every refusal is ``{"error": {"rule": ..., "message": ...}}`` with a 4xx status: the room's
errors carry their own status (:mod:`syndicate.room.errors`), and bad bodies (wrong types,
floats for cents, amounts out of range, malformed JSON) are 422 from the schema. Handlers are
plain ``def`` so FastAPI runs their database work (and argon2) in its thread pool.
"""

from __future__ import annotations

import asyncio
import gc
import hashlib
import logging
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from typing import Annotated, Any, Literal

from argon2 import PasswordHasher
from fastapi import FastAPI, Path, Query, Request, Response, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import money
from ..blackjack.rules import PRESETS, Rules
from ..gcpause import keep_pauses_short
from ..poker.history import to_phh
from ..room.accounts import DEFAULT_EVENT, token_hash
from ..room.cardroom import CardRoom
from ..room.clock import Timers
from ..room.cluster import ClusterRoom, check_cluster_url
from ..room.errors import BadRequest, Conflict, Forbidden, NotFound, RoomError, Unauthorized
from ..room.histories import shoe_history
from ..room.ledger import MAX_FLOAT, is_bot, player_key
from ..room.live import LiveRoom
from ..room.recovery import void_unfinished
from ..room.roles import DEALER, PLAYER, ROLES, allowed, require
from ..shoe import Shoe
from ..store import Database, SqlStore
from ..store.bus import RedisBus
from .auth import COOKIE, Me, token_of, who
from .headers import SecurityHeadersMiddleware
from .live import table_socket
from .pages import OddsService
from .pages import router as pages_router
from .report import router as report_router
from .security import CsrfMiddleware, Limits, RateLimited, Sessions, SharedSignInLimiter, SignInLimiter

log = logging.getLogger(__name__)

#: the ledger kinds of play at a table (stack ↔ table); everything else moves chips, not winnings
GAME_KINDS = frozenset(("blackjack", "poker", "void"))
API_VERSION = "1"
Id = Annotated[int, Path(ge=1, le=2**31 - 1)]
Cents = Annotated[StrictInt, Field(ge=1, le=money.MAX_CENTS, description="whole cents, positive")]
Name = Annotated[StrictStr, Field(min_length=1, max_length=40)]


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SignIn(Body):
    name: Name
    password: Annotated[StrictStr, Field(min_length=1, max_length=200)]


class NewAccount(Body):
    name: Name
    role: Literal["admin", "pit_boss", "dealer", "player", "spectator"]
    password: Annotated[StrictStr, Field(min_length=8, max_length=200)]


class ChangeRole(Body):
    role: Literal["admin", "pit_boss", "dealer", "player", "spectator"]


class NewEventAdmin(Body):
    name: Name
    password: Annotated[StrictStr, Field(min_length=8, max_length=200)]


SeedReveal = Literal["table_close", "event_end"]


class NewEvent(Body):
    name: Name
    admin: NewEventAdmin = Field(description="the event's first admin account")
    seed_reveal: SeedReveal = Field(
        default="table_close",
        description="when the shoes' seeds are revealed (docs/fairness.md): at each table's close, or "
                    "only when the event ends")


class EventSettings(Body):
    seed_reveal: SeedReveal = Field(description="fixed once a table of the event has dealt a hand")


class Authorize(Body):
    dealer: Name
    pit_boss: Name | None = None


class Revoke(Body):
    dealer: Name
    hand_over_to: Name | None = Field(
        default=None, description="another authorized dealer who takes over the revoked dealer's tables "
                                  "(without it they close once the round in play is over)")


class CashierMove(Body):
    player: Annotated[StrictInt, Field(ge=1, le=2**31 - 1, description="the player's account id")]
    amount: Cents


class NewTable(Body):
    name: Name
    game: Literal["blackjack", "poker"] = "blackjack"
    preset: Annotated[StrictStr, Field(max_length=40)] | None = None
    overrides: dict[Annotated[str, Field(max_length=40)], StrictStr | StrictInt | float | bool] = Field(
        default_factory=dict, max_length=40,
        description="rule key → value; money keys as integer cents or text such as \"$5\"")


class HouseFloat(Body):
    amount: Annotated[StrictInt, Field(ge=0, le=MAX_FLOAT, description="cents: the float bots may play with")]


class Bounds(Body):
    game: Literal["blackjack", "poker"]
    min_bet: Cents
    max_bet: Cents


class TableStatus(Body):
    status: Literal["open", "paused", "closed"]


class ErrorDetail(BaseModel):
    model_config = ConfigDict(extra="allow")
    rule: str = Field(description="the rule the request broke")
    message: str
    fields: list[dict[str, str]] | None = Field(default=None, description="422 only: each field's problem")


class ErrorBody(BaseModel):
    error: ErrorDetail


#: every refusal, as every operation may answer it (the OpenAPI document says so)
ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody, "description": why} for status, why in (
        (400, "a rule of the room refused it"), (401, "not signed in"),
        (403, "your role may not, or a cross-site request (rule csrf)"), (404, "no such thing in your event"),
        (409, "it conflicts with the current state"), (422, "the request does not match the schema"),
    )
}
#: the same, for an operation whose success is not JSON (its errors still are)
JSON_ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"description": e["description"],
             "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}}
    for status, e in ERRORS.items()
}
RATE_LIMITED: dict[int | str, dict[str, Any]] = {429: {
    "model": ErrorBody, "description": "too many failed sign-ins (rule rate_limit)",
    "headers": {"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}}}}


def _error(status: int, rule: str, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": {"rule": rule, "message": message, **extra}}, status_code=status)


def create_app(
    db_url: str | None = None, *, database: Database | None = None, hasher: PasswordHasher | None = None,
    migrate: bool = True, secure_cookies: bool = False, timers: Timers | None = None,
    new_shoe: Callable[[Rules], Shoe] | None = None, limits: Limits | None = None,
    trusted_origins: Iterable[str] = (), redis_url: str | None = None, lease_seconds: float = 5.0,
    short_gc_pauses: bool = False, precompute_odds: bool = False, current_event: str | None = None,
) -> FastAPI:
    """The card room's web app over the database at ``db_url`` (created and migrated unless
    ``migrate`` is false). ``secure_cookies`` marks the session cookie Secure (behind HTTPS).
    ``limits`` sets the sign-in and live-message rate limits
    (:class:`syndicate.web.security.Limits`); ``trusted_origins`` (e.g. ``"https://casino.example"``)
    are other origins whose pages may use the session cookie (the server's own always may).

    On start, any hand a previous process left unfinished is voided and its bets returned
    (:func:`syndicate.room.recovery.void_unfinished`), so every table comes back ready to play.

    ``current_event`` names the event the pages open (``syndicate serve --event``); without
    it, the event made at first start. Creating another event never changes it.

    ``short_gc_pauses`` (``syndicate serve`` sets it: it owns the process) keeps the garbage
    collector's pauses short (:mod:`syndicate.gcpause`). ``precompute_odds`` (``syndicate serve``
    sets it too) analyses every preset's odds in the background on start, so a preset table's
    rules page answers at once (:class:`syndicate.web.pages.OddsService`).

    With ``redis_url`` the server is one of several processes on one PostgreSQL database
    (:mod:`syndicate.room.cluster`, docs/deployment.md): nothing is voided on start; a table's
    unfinished hand is voided when a process takes the table over after its owner stopped.
    """
    db = database or Database(db_url)
    if migrate:
        db.migrate()
    room = CardRoom(SqlStore(db), hasher)
    live: LiveRoom
    if redis_url is None:
        voided = void_unfinished(room)
        live = LiveRoom(room, timers=timers, new_shoe=new_shoe)
    else:
        check_cluster_url(db.url)
        voided = []
        # Each database is one cluster: processes on another database share no channel with these.
        namespace = hashlib.sha256(str(db.url).encode()).hexdigest()[:12]
        live = ClusterRoom(room, RedisBus(redis_url), namespace=namespace, timers=timers, new_shoe=new_shoe,
                           lease_seconds=lease_seconds)
    limits = limits or Limits()
    trusted = frozenset(o.rstrip("/").lower() for o in trusted_origins)
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
        warm = asyncio.create_task(odds_pool.warm(PRESETS.values())) if precompute_odds else None
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
    app.add_middleware(SecurityHeadersMiddleware)  # outermost: the CSRF refusals get them too
    app.state.room = room
    app.state.db = db
    app.state.live = live
    app.state.voided = voided
    app.state.sign_ins = sign_ins
    app.state.sessions = sessions
    app.state.odds = odds_pool

    @app.exception_handler(RateLimited)
    def _rate_limited(_: Request, e: RateLimited) -> JSONResponse:
        r = _error(e.status, e.rule, e.message)
        r.headers["Retry-After"] = str(e.retry_after)
        return r

    @app.exception_handler(RoomError)
    def _room_error(_: Request, e: RoomError) -> JSONResponse:
        return _error(e.status, e.rule, e.message)

    @app.exception_handler(StarletteHTTPException)
    def _http_error(_: Request, e: StarletteHTTPException) -> JSONResponse:
        """Starlette's own refusals (a body that is not JSON, no such route, a wrong method) in
        the room's error shape too."""
        rule = {400: "malformed_body", 404: "not_found", 405: "method"}.get(e.status_code, "http")
        r = _error(e.status_code, rule, str(e.detail))
        r.headers.update(e.headers or {})
        return r

    @app.exception_handler(RequestValidationError)
    def _invalid(_: Request, e: RequestValidationError) -> JSONResponse:
        fields = [
            {"field": ".".join(str(p) for p in err.get("loc", ()) if p != "body"), "problem": err.get("msg", "")}
            for err in e.errors()
        ]
        where = ", ".join(f"{f['field'] or 'body'}: {f['problem']}" for f in fields[:5])
        return _error(422, "validation", f"bad request: {where}", fields=fields)

    def event_of(event_id: int) -> int:
        return room.accounts.event(event_id).id

    def sign_in(request: Request, event_id: int, body: SignIn, kind: str) -> tuple[str, Any]:
        """Check the password, unless this name from this address, or this address, failed too
        often lately (429): another address signing in to that name is not held up."""
        ev = event_of(event_id)
        address = request.client.host if request.client else None
        try:
            sign_ins.check(ev, body.name, address)
        except RateLimited:
            log.warning("sign-in to event %s from %s refused: too many failures", ev, address)
            raise
        try:
            signed_in = room.accounts.sign_in(ev, body.name, body.password, kind)
        except Unauthorized:
            # not the name tried: people type their password there by mistake
            log.info("failed sign-in to event %s from %s", ev, address)
            sign_ins.failed(ev, body.name, address)
            raise
        sign_ins.succeeded(ev, body.name, address)
        return signed_in

    # -- sign-in -------------------------------------------------------------------------
    def the_current_event() -> Any:
        evs = room.accounts.events()
        wanted = current_event or DEFAULT_EVENT
        for e in evs:
            if e.name == wanted:
                return e
        if current_event is None and evs:  # first started under another name: the oldest event
            return evs[0]
        raise NotFound("current_event", f"the deployment's current event {wanted!r} does not exist")

    @app.get("/api/events", tags=["sign-in"])
    def events() -> list[dict[str, Any]]:
        """Every event: its name, when its seeds are revealed and, once ended, when and by whom;
        ``current`` marks the one the deployment names (the pages open it)."""
        evs = room.accounts.events()
        cur = the_current_event().id if evs else None
        return [{**e.to_json(), "current": e.id == cur} for e in evs]

    @app.get("/api/events/current", tags=["sign-in"])
    def the_event() -> dict[str, Any]:
        """The event the deployment names as current (``syndicate serve --event``), not the
        newest: an admin who creates another event does not take over the pages."""
        e = the_current_event()
        return {"id": e.id, "name": e.name}

    @app.post("/api/events", tags=["sign-in"], status_code=201)
    def create_event(account: Me, body: NewEvent) -> dict[str, Any]:
        """A new event with its first admin account: only an admin of the deployment's current
        event (rule ``create_event``), so the admin of an event created here cannot create more.
        Event names are unique (409, rule ``event_name``). A new event never becomes current."""
        require(account.role, "create_event")
        if account.event_id != the_current_event().id:
            raise Forbidden("create_event", "only an admin of the current event creates events")
        ev, admin = room.accounts.open_event(account, body.name, body.admin.name, body.admin.password,
                                             body.seed_reveal)
        return {**ev.to_json(), "created_at": ev.created_at.isoformat(), "admin": admin.to_json()}

    @app.patch("/api/events/{event_id}", tags=["sign-in"])
    def event_settings(account: Me, event_id: Id, body: EventSettings) -> dict[str, Any]:
        """Change when the event's seeds are revealed (its admin only). Refused once a table of
        the event has dealt a hand (409, rule ``seed_reveal_fixed``) or the event ended
        (``event_ended``)."""
        return room.events.set_seed_reveal(account, event_id, body.seed_reveal).to_json()

    @app.post("/api/events/{event_id}/end", tags=["sign-in"])
    def end_event(account: Me, event_id: Id) -> dict[str, Any]:
        """End the event (its admin only): every table closes after its hand in play, no table
        opens and no hand starts; sign-in still works for cashing out. With ``seed_reveal`` at
        ``event_end`` every seed of the event is revealed now. Once only (409, rule
        ``event_ended``)."""
        ev, table_ids = room.events.end(account, event_id)
        live.event_ended(table_ids)
        log.info("event %s ended by account %s; %s table(s) closed", event_id, account.id, len(table_ids))
        return ev.to_json()

    @app.post("/api/events/{event_id}/session", tags=["sign-in"], responses=RATE_LIMITED)
    def sign_in_browser(event_id: Id, body: SignIn, request: Request, response: Response) -> dict[str, Any]:
        """Sign in with a cookie (browsers): HttpOnly, SameSite=Strict."""
        token, account = sign_in(request, event_id, body, "session")
        response.set_cookie(COOKIE, token, httponly=True, samesite="strict", secure=secure_cookies,
                            max_age=12 * 3600, path="/")
        return {"account": account.to_json()}

    @app.post("/api/events/{event_id}/tokens", tags=["sign-in"], responses=RATE_LIMITED)
    def sign_in_program(event_id: Id, body: SignIn, request: Request) -> dict[str, Any]:
        """Sign in for a program: the token goes in ``Authorization: Bearer``."""
        token, account = sign_in(request, event_id, body, "token")
        return {"token": token, "account": account.to_json()}

    @app.delete("/api/session", tags=["sign-in"], status_code=204)
    def sign_out(request: Request, response: Response) -> Response:
        token = token_of(request)
        if token:
            room.accounts.sign_out(token)
            sessions.signed_out(token_hash(token))  # its open sockets close too
            if cluster is not None:
                cluster.revoke_everywhere(token_hash=token_hash(token))
        response = Response(status_code=204)
        response.delete_cookie(COOKIE, path="/")
        return response

    @app.get("/api/session", tags=["sign-in"])
    def current_session(request: Request) -> dict[str, Any]:
        """Who this browser is signed in as, or ``{"account": null}``: every page asks on load,
        and a signed-out visitor is no error (``/api/me`` answers 401 for programs)."""
        try:
            account = who(request)
        except Unauthorized:
            return {"account": None, "may": []}
        return {"account": account.to_json(), "may": sorted(a for a in _actions() if allowed(account.role, a))}

    @app.get("/api/me", tags=["sign-in"])
    def me(account: Me) -> dict[str, Any]:
        return {"account": account.to_json(), "may": sorted(a for a in _actions() if allowed(account.role, a))}

    # -- accounts ------------------------------------------------------------------------
    @app.get("/api/accounts", tags=["accounts"])
    def accounts(account: Me) -> list[dict[str, Any]]:
        return [a.to_json() for a in room.accounts.list(account)]

    @app.post("/api/accounts", tags=["accounts"], status_code=201)
    def create_account(account: Me, body: NewAccount) -> dict[str, Any]:
        return room.accounts.create(account, body.name, body.role, body.password).to_json()

    def _check_not_in_play(target: Any) -> None:
        """A seat or a table is held by the account, not its role: a seated player or the
        dealer of a table still open would keep them under another role. A seat is read from
        the live tables and the hands in play, not the stack's balance: a player who has bet
        their whole stack has a stack of zero and is seated all the same."""
        if target.role == PLAYER:
            with room.store.transaction() as repo:
                in_hand = repo.hands(target.event_id, status="playing", player=target.id, limit=1)
            if live.seated(target.id) or in_hand or any(
                    a.key.startswith("stack:") and a.key.endswith(f":{target.id}") and a.balance
                    for a in room.ledger.accounts(target.event_id)):
                raise Conflict("in_play", f"{target.name} is seated at a table: their role changes once they "
                                          "have left")
        if target.role == DEALER and any(t.dealer_id == target.id for t in room.tables.lobby(target.event_id)):
            raise Conflict("in_play", f"{target.name} deals at a table still open: close it or hand it over "
                                      "(POST /api/roster/revoke with hand_over_to) first")

    @app.patch("/api/accounts/{account_id}", tags=["accounts"])
    def change_role(account: Me, account_id: Id, body: ChangeRole) -> dict[str, Any]:
        """Give an account another role (admin only; not your own: rule ``own_role``). Every
        sign-in of that account ends (tokens, cookies, open sockets): it signs in again."""
        require(account.role, "change_role")
        target = room.accounts.get(account.event_id, account_id)
        if target.role != body.role and target.id != account.id:
            _check_not_in_play(target)
        changed = room.accounts.change_role(account, account_id, body.role)
        closed = sessions.account_changed(account_id)
        if cluster is not None:
            cluster.revoke_everywhere(account=account_id)
        log.info("account %s is now %s (by %s); its sign-ins ended, %s live sockets closed",
                 account_id, changed.role, account.id, closed)
        return changed.to_json()

    # -- roster --------------------------------------------------------------------------
    @app.get("/api/events/{event_id}/roster", tags=["roster"])
    def roster(event_id: Id) -> dict[str, Any]:
        """The authorized dealers by pit boss: public, like the notice."""
        return room.roster.public(event_of(event_id))

    @app.get("/api/events/{event_id}/roster/changes", tags=["roster"])
    def roster_changes(event_id: Id) -> list[dict[str, Any]]:
        return [
            {"dealer": c.dealer, "pit_boss": c.pit_boss, "action": c.action, "by": c.by, "at": c.at.isoformat()}
            for c in room.roster.changes(event_of(event_id))
        ]

    @app.post("/api/roster/authorize", tags=["roster"])
    def authorize(account: Me, body: Authorize) -> dict[str, Any]:
        e = room.roster.authorize(account, body.dealer, body.pit_boss)
        return {"dealer": e.dealer, "pit_boss": e.pit_boss, "active": e.active}

    @app.post("/api/roster/revoke", tags=["roster"])
    def revoke(account: Me, body: Revoke) -> dict[str, Any]:
        e = room.roster.revoke(account, body.dealer, body.hand_over_to)
        live.refresh()  # their tables finish the round in play, then close (or carry on under the heir)
        return {"dealer": e.dealer, "pit_boss": e.pit_boss, "active": e.active}

    # -- cashier and ledger ----------------------------------------------------------------
    @app.post("/api/cashier/buy-in", tags=["cashier"])
    def buy_in(account: Me, body: CashierMove) -> dict[str, Any]:
        return {"player": body.player, "balance": room.cashier.buy_in(account, body.player, body.amount)}

    @app.post("/api/cashier/cash-out", tags=["cashier"])
    def cash_out(account: Me, body: CashierMove) -> dict[str, Any]:
        return {"player": body.player, "balance": room.cashier.cash_out(account, body.player, body.amount)}

    @app.get("/api/balances", tags=["ledger"])
    def balances(account: Me) -> dict[str, Any]:
        """Every ledger account of the event and their sum (always 0): admin and pit bosses."""
        require(account.role, "view_any_ledger")
        accounts = room.ledger.accounts(account.event_id)
        return {
            "accounts": [{"key": a.key, "kind": a.kind, "name": a.name, "balance": a.balance} for a in accounts],
            "total": sum(a.balance for a in accounts),
        }

    @app.get("/api/accounts/{account_id}/ledger", tags=["ledger"])
    def ledger(account: Me, account_id: Id) -> dict[str, Any]:
        """A player's bankroll line by line, each line with the balance after it."""
        if account_id == account.id:
            require(account.role, "view_own_ledger")
        else:
            if not allowed(account.role, "view_any_ledger"):
                raise Forbidden("view_any_ledger", "you may see only your own ledger")
        target = room.accounts.get(account.event_id, account_id)
        lines = room.ledger.explain(account.event_id, player_key(target.id))
        balance = lines[-1].balance if lines else 0
        # Chips on the felt are the player's too: without them the ledger and the leaderboard
        # (bankroll plus stacks) disagree for as long as the player sits.
        at_tables = []
        for a in room.ledger.accounts(account.event_id):
            parts = a.key.split(":")
            if parts[0] == "stack" and parts[2] == str(target.id) and a.balance:
                at_tables.append({"table_id": int(parts[1]), "name": a.name, "chips": a.balance})
        return {
            "account": target.to_json(),
            "balance": balance,
            "at_tables": at_tables,
            "chips": balance + sum(x["chips"] for x in at_tables),
            "lines": [x.to_json() for x in lines],
        }

    @app.get("/api/events/{event_id}/leaderboard", tags=["ledger"])
    def leaderboard(event_id: Id) -> list[dict[str, Any]]:
        """Players by what they won at the tables (the game's ledger lines on their stacks:
        bets, pay-outs and voids; buy-ins, cash-outs and sitting down are not winnings), with
        their chips (bankroll plus stacks at tables): public."""
        ev = event_of(event_id)
        bots = {str(a.id) for a in room.accounts.all(ev) if is_bot(a)}
        names: dict[str, str] = {}
        chips: dict[str, int] = {}
        won: dict[str, int] = {}
        for a in room.ledger.accounts(ev):
            parts = a.key.split(":")
            if parts[-1] in bots:  # the house's chips: bots are not in the contest
                continue
            if parts[0] == "player":
                owner = parts[1]
                names[owner] = a.name
            elif parts[0] == "stack":
                owner = parts[2]
                lines = room.ledger.explain(ev, a.key)
                won[owner] = won.get(owner, 0) + sum(x.line.amount for x in lines if x.line.kind in GAME_KINDS)
            else:
                continue
            chips[owner] = chips.get(owner, 0) + a.balance
        out = [{"player": names.get(o, f"account {o}"), "balance": chips[o], "won": won.get(o, 0)} for o in chips]
        return sorted(out, key=lambda r: (-r["won"], r["player"]))

    # -- the house: table bounds and the bots' float --------------------------------------
    @app.get("/api/events/{event_id}/limits", tags=["tables"])
    def table_bounds(event_id: Id) -> dict[str, Any]:
        """Each game's bounds of table stakes (cents): a dealer's table must stay within them."""
        b = room.tables.bounds(event_of(event_id))
        return {g: {"min_bet": lo, "max_bet": hi} for g, (lo, hi) in b.items()}

    @app.put("/api/limits", tags=["tables"])
    def set_table_bounds(account: Me, body: Bounds) -> dict[str, Any]:
        """The admin sets a game's bounds of table stakes (rule ``table_limits``)."""
        b = room.tables.set_bounds(account, body.game, body.min_bet, body.max_bet)
        return {g: {"min_bet": lo, "max_bet": hi} for g, (lo, hi) in b.items()}

    @app.get("/api/float", tags=["cashier"])
    def house_float(account: Me) -> dict[str, int]:
        """The bots' float: set by the admin, used (held by bots now) and remaining."""
        require(account.role, "set_float")
        return room.cashier.float_status(account.event_id)

    @app.put("/api/float", tags=["cashier"])
    def set_house_float(account: Me, body: HouseFloat) -> dict[str, int]:
        """The admin sets the float: chips move between the cashier and the float, in the ledger."""
        return room.cashier.set_float(account, body.amount)

    # -- tables --------------------------------------------------------------------------
    @app.get("/api/events/{event_id}/tables", tags=["tables"])
    def lobby(event_id: Id) -> list[dict[str, Any]]:
        return [t.to_json() for t in room.tables.lobby(event_of(event_id))]

    @app.post("/api/tables", tags=["tables"], status_code=201)
    def open_table(account: Me, body: NewTable) -> dict[str, Any]:
        """Open a table: authorized dealers only ("Unauthorized games are prohibited")."""
        return room.tables.open(account, body.name, body.game, body.preset, body.overrides).to_json()

    @app.get("/api/tables/{table_id}", tags=["tables"])
    def table(account: Me, table_id: Id) -> dict[str, Any]:
        return room.tables.get(account.event_id, table_id).to_json()

    @app.post("/api/tables/{table_id}/status", tags=["tables"])
    def table_status(account: Me, table_id: Id, body: TableStatus) -> dict[str, Any]:
        t = room.tables.set_status(account, table_id, body.status).to_json()
        live.refresh(table_id)
        if body.status == "closed":
            live.closed(table_id)
        return t

    @app.websocket("/ws/tables/{table_id}")
    async def table_ws(ws: WebSocket, table_id: int) -> None:
        await table_socket(ws, table_id, room, live, limits=limits, sessions=sessions,
                           trusted_origins=trusted)

    # -- hand histories ------------------------------------------------------------------
    @app.get("/api/hands", tags=["hands"])
    def hands(
        account: Me, table: Annotated[int | None, Query(ge=1, le=2**31 - 1)] = None,
        commitment: Annotated[str | None, Query(pattern="^[0-9a-f]{64}$")] = None,
        limit: Annotated[int, Query(ge=1, le=1000)] = 100,
        player: Annotated[int | None, Query(ge=1, le=2**31 - 1, description="an account that played")] = None,
    ) -> list[dict[str, Any]]:
        """Finished hands (settled or voided), searchable by table, shoe commitment and player. A
        hand in play is not listed: its stored log holds the hole card. A player searches the
        hands they played in; the admin and pit bosses those of anyone."""
        if player is not None:
            require(account.role, "search_own_hands" if player == account.id else "search_any_hands")
            room.accounts.get(account.event_id, player)  # 404 for an account not in this event
        with room.store.transaction() as repo:
            found = [h for status in ("settled", "voided")
                     for h in repo.hands(account.event_id, table, commitment, status, limit, player)]
            seated = _seated(repo, account.event_id, {h.id for h in found})
        found.sort(key=lambda h: h.id)
        return [{"id": h.id, "table": h.table_id, "number": h.number, "game": h.game, "status": h.status,
                 "commitment": h.commitment, "started_at": h.started_at.isoformat(),
                 "results": _results(h.history), "players": _players(seated.get(h.id, []), _results(h.history))}
                for h in found[:limit]]

    @app.get("/api/hands/{hand_id}/phh", tags=["hands"], response_class=PlainTextResponse, responses=JSON_ERRORS)
    def hand_phh(account: Me, hand_id: Id) -> str:
        """A finished draw hand in the Poker Hand History format (docs/hand-history-poker.md)."""
        doc = hand_history(account, hand_id)
        if doc.get("game") != "poker":
            raise BadRequest("game", "PHH is a poker format: download a Blackjack hand as /history")
        return to_phh(doc)

    @app.get("/api/hands/{hand_id}/history", tags=["hands"])
    def hand_history(account: Me, hand_id: Id) -> dict[str, Any]:
        """The hand's shoe as a history in the engine's format (docs/hand-history.md): every
        finished hand dealt from that shoe so far, as the caller may see it (docs/fairness.md):
        until the seed is revealed, another player's unshown cards are hidden and every card
        shown comes with its opening, which `syndicate verify` checks."""
        return shoe_history(room.store, account.event_id, hand_id, account)

    @app.get("/api/roles", tags=["accounts"])
    def roles() -> dict[str, Any]:
        """The authorization table: which roles may do each action."""
        from ..room.roles import PERMISSIONS

        return {"roles": list(ROLES), "actions": {k: sorted(v) for k, v in PERMISSIONS.items()}}

    app.include_router(pages_router)  # the browser pages (docs/browser.md)
    app.include_router(report_router)  # the end-of-night report and the charts' series (docs/report.md)
    return app


def _results(history: dict[str, Any]) -> dict[str, int] | None:
    """Each seat's net in a stored one-hand history, whichever game's format."""
    if "rounds" in history:
        results = history["rounds"][0].get("results")
        return dict(results) if results is not None else None
    return {str(seat): net for seat, net in history["hands"][0]["result"]["net"]}


def _seated(repo: Any, event_id: int, hand_ids: set[int]) -> dict[int, list[tuple[int, str]]]:
    """(seat, player name) of each hand in ``hand_ids``, in seat order."""
    names = {a.id: a.name for a in repo.accounts(event_id)}
    out: dict[int, list[tuple[int, str]]] = {}
    for hand_id, account_id, seat in repo.hand_players(event_id, sorted(hand_ids)):
        out.setdefault(hand_id, []).append((seat, names.get(account_id, f"account {account_id}")))
    return out


def _players(seated: list[tuple[int, str]], results: dict[str, int] | None) -> list[dict[str, Any]]:
    """Who played the hand, by name, with their net (None while unknown: a voided hand)."""
    return [{"seat": seat, "name": name, "net": (results or {}).get(str(seat))} for seat, name in seated]


def _actions() -> list[str]:
    from ..room.roles import PERMISSIONS

    return list(PERMISSIONS)


