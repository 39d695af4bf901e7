"""The browser pages: the lobby, the tables, the dealer console, the admin pages and the rules
and odds of a table, served as static HTML, CSS and JavaScript modules from this package (no
build step, nothing fetched from elsewhere), plus the few read-only JSON answers the pages
need that the API proper does not give (docs/browser.md).

Everything a page shows of a game comes from the protocol (docs/protocol.md); these answers add
only what is public or already the asker's to see: who deals at each table and how many seats
are free, a table's house edge and strategy chart, and the house's figures per table (admin
and pit bosses). The turn clock and a draw table's ante proposal come in the protocol's state.
"""

from __future__ import annotations

import asyncio
import html
import logging
import re
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from fastapi.responses import FileResponse, HTMLResponse, Response

from ..room.errors import Forbidden, NotFound
from ..room.games import kind_of, kinds
from ..room.histories import house_history, kind_of_history, shoe_history
from ..room.report import in_play
from ..room.roles import allowed
from ..room.values import Table
from .auth import Me
from .schemas import Digits
from .security import RateLimited

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml", ".json": "application/json"}
Id = Annotated[int, PathParam(ge=1, le=2**31 - 1), Digits]

router = APIRouter()


@dataclass(frozen=True)
class Page:
    """A page of the room: its title, its module (``static/js/<module>.js``, which draws the page
    in the shell's root), the stylesheets it needs beside the room's own, and the modules worth
    fetching at once, before its module asks for them."""

    title: str
    module: str
    stylesheets: tuple[str, ...] = ()
    preload: tuple[str, ...] = ()


CHARTS = ("/static/vendor/uplot/uPlot.min.css",)
PAGES = {
    "lobby": Page("Card room — lobby", "lobby"),
    "table": Page("Card room — table", "table", preload=(
        "common", "cards", "clock", "socket", "games/index", "games/blackjack", "games/blackjack-replay",
        "games/draw", "games/draw-replay")),
    "rules": Page("Card room — Rules and odds", "rules"),
    "dealer": Page("Card room — Dealer console", "dealer"),
    "admin": Page("Card room — Admin", "admin", stylesheets=CHARTS),
    "me": Page("Card room — My evening", "me", stylesheets=CHARTS),
    "door": Page("Card room — The door", "door", stylesheets=("/static/css/door.css",), preload=("common",)),
    "voucher": Page("Card room — Welcome", "voucher", stylesheets=("/static/css/door.css",), preload=("common",)),
    "screen": Page("Card room — The big screen", "screen", stylesheets=("/static/css/screen.css",), preload=(
        "common", "cards", "replay", "games/index")),
}

#: Every page's HTML: its title, the stylesheets, its module and a root for the module to draw in.
SHELL = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
{stylesheets}<link rel="stylesheet" href="/static/css/app.css">
{preload}<script type="module" src="/static/js/{module}.js"></script>
</head>
<body>
<div id="header"></div>
<main id="main"><p class="muted">Loading…</p></main>
</body>
</html>
"""


def shell(page: Page) -> str:
    return SHELL.format(
        title=html.escape(page.title), module=page.module,
        stylesheets="".join(f'<link rel="stylesheet" href="{href}">\n' for href in page.stylesheets),
        preload="".join(f'<link rel="modulepreload" href="/static/js/{m}.js">\n' for m in page.preload))


def page_response(name: str) -> HTMLResponse:
    """The page ``name`` of :data:`PAGES`: the shell, with its module."""
    return HTMLResponse(shell(PAGES[name]), headers={"Cache-Control": "no-cache"})


@router.get("/", include_in_schema=False)
def lobby_page() -> HTMLResponse:
    return page_response("lobby")


@router.get("/tables/{table_id}", include_in_schema=False)
def table_page(table_id: Id) -> HTMLResponse:
    return page_response("table")


@router.get("/tables/{table_id}/rules", include_in_schema=False)
def rules_page(table_id: Id) -> HTMLResponse:
    return page_response("rules")


@router.get("/dealer", include_in_schema=False)
def dealer_page() -> HTMLResponse:
    return page_response("dealer")


@router.get("/dealer/tables/{table_id}", include_in_schema=False)
def tablet_page(table_id: Id) -> HTMLResponse:
    """The dealer's tablet: the console of one table, laid out for a tablet held in one hand."""
    return page_response("dealer")


@router.get("/admin", include_in_schema=False)
def admin_page() -> HTMLResponse:
    return page_response("admin")


@router.get("/door", include_in_schema=False)
def door_page() -> HTMLResponse:
    """The door's tablet: the guest list, check-in and vouchers (docs/door.md)."""
    return page_response("door")


@router.get("/voucher", include_in_schema=False)
def voucher_page() -> HTMLResponse:
    """Where a guest's voucher QR code leads: the page signs them in with the secret in the
    address's fragment (docs/door.md)."""
    return page_response("voucher")


@router.get("/screen", include_in_schema=False)
def screen_page() -> HTMLResponse:
    """The room's big screen, for a television or a projector nobody touches (docs/screen.md)."""
    return page_response("screen")


#: A chip in the felt's colours. Browsers ask for /favicon.ico on every page; without it each
#: page logs a 404.
FAVICON = (STATIC / "favicon.svg")


@router.get("/favicon.ico", include_in_schema=False)
def favicon() -> FileResponse:
    return FileResponse(FAVICON, media_type=TYPES[".svg"], headers={"Cache-Control": "max-age=86400"})


@router.get("/static/{path:path}", include_in_schema=False)
def static_file(path: str) -> Response:
    """A file of the pages. Only files under ``static/`` with a known type are served."""
    target = (STATIC / path).resolve()
    if STATIC.resolve() not in target.parents or not target.is_file() or target.suffix not in TYPES:
        return Response("not found", status_code=404, media_type="text/plain")
    return FileResponse(target, media_type=TYPES[target.suffix], headers={"Cache-Control": "no-cache"})


# -- read-only answers for the pages ----------------------------------------------------------
def _summary(t: Table) -> str:
    """A table's rules in a few words, for the lobby (and whether its cards are real)."""
    real = "; real cards, dealt by hand" if t.cards == "real" else ""
    return kind_of(t.game).summary(t.game_rules) + real


@router.get("/api/events/{event_id}/lobby", tags=["pages"])
async def lobby(request: Request, event_id: Id) -> list[dict[str, Any]]:
    """The open tables with their dealer's name, a summary of their rules, and who sits where
    (public, like the lobby). Read on the event loop, where the live tables run."""
    room = request.app.state.room
    live = request.app.state.live

    def load() -> list[tuple[Table, str]]:
        ev = room.accounts.event(event_id).id
        out = []
        for t in room.tables.lobby(ev):
            try:
                dealer = room.accounts.get(ev, t.dealer_id).name
            except Exception:  # an account gone from the event: show the table anyway
                dealer = "?"
            out.append((t, dealer))
        return out

    tables = await asyncio.to_thread(load)
    out = []
    for t, dealer in tables:
        runner = live.tables.get(t.id)
        seated = sorted(runner.seats) if runner is not None else []
        players = [{"seat": n, "player": runner.seats[n].account.name} for n in seated] if runner else []
        d = t.to_json()
        d.update(dealer=dealer, summary=_summary(t), seated=players, free_seats=t.seats - len(seated),
                 min_bet=t.rules.get("min_bet"), max_bet=t.rules.get("max_bet"),
                 playing=bool(runner is not None and runner.game.in_play))
        out.append(d)
    return out


@router.get("/api/presets", tags=["pages"])
def presets() -> dict[str, Any]:
    """The Blackjack presets (every key) and the draw table's default settings, for the dealer
    console's form."""
    return {k.id: k.presets() for k in kinds()}


def _odds(compute: Callable[[Any], dict[str, Any]], rules: Hashable) -> dict[str, Any]:
    return compute(rules)


class OddsService:
    """The odds answers of one app, computed off the event loop where the live tables run.

    A rule set's first analysis costs about a tenth of a second of CPU, and the route needs no sign-in,
    so anyone could ask for many rule sets at once. Analyses therefore run in a pool of
    ``workers`` threads (one by default: the live tables keep the other core), a rule set being
    analysed is computed once however many ask for it, and at most ``waiting`` further rule sets
    queue behind it; beyond that the answer is 429 with Retry-After, before any work is done.
    Answers are kept (``keep`` rule sets), so a table's later visitors cost nothing.
    """

    SECONDS_PER_ANALYSIS = 0.2  # for Retry-After: about one cold analysis on one core

    def __init__(self, workers: int = 1, waiting: int = 4, keep: int = 256) -> None:
        self.workers = workers
        self.slots = workers + waiting
        self.keep = keep
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="odds")
        self._done: OrderedDict[Hashable, dict[str, Any]] = OrderedDict()
        self._running: dict[Hashable, asyncio.Future[dict[str, Any]]] = {}

    def cached(self, rules: Hashable) -> dict[str, Any] | None:
        hit = self._done.get(rules)
        if hit is not None:
            self._done.move_to_end(rules)
        return hit

    async def get(self, rules: Hashable, compute: Callable[[Any], dict[str, Any]]) -> dict[str, Any]:
        """The odds of ``rules`` (a game's canonical rule set, its :class:`Odds` ``key``), made by
        ``compute`` (its ``compute``); RateLimited when the pool is full."""
        hit = self.cached(rules)
        if hit is not None:
            return hit
        fut = self._running.get(rules)
        if fut is None:
            if len(self._running) >= self.slots:
                raise RateLimited(
                    f"the odds of {len(self._running)} other rule sets are being computed; try again shortly",
                    retry_after=self.SECONDS_PER_ANALYSIS * len(self._running) / self.workers)
            fut = self._start(rules, compute)
        # shield: one asker giving up (a closed tab) must not cancel the others' answer
        return await asyncio.shield(fut)

    def _start(self, rules: Hashable, compute: Callable[[Any], dict[str, Any]]) -> asyncio.Future[dict[str, Any]]:
        fut = asyncio.wrap_future(self._pool.submit(_odds, compute, rules))
        self._running[rules] = fut

        def finished(f: asyncio.Future[dict[str, Any]]) -> None:
            self._running.pop(rules, None)
            if not f.cancelled() and f.exception() is None:
                self._done[rules] = f.result()
                while len(self._done) > self.keep:
                    self._done.popitem(last=False)

        fut.add_done_callback(finished)
        return fut

    async def warm(self) -> None:
        """Compute every game's rule sets worth having at start (the presets) one after another
        in the pool, so their tables' first visitors get the rules page at once; a failure is
        logged, not raised."""
        for kind in kinds():
            if kind.odds is None:
                continue
            for rules in kind.odds.warm():
                try:
                    await self.get(rules, kind.odds.compute)
                except Exception:
                    log.exception("could not precompute the odds of %s", rules)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


def odds_service(app: Any) -> OddsService:
    svc = getattr(app.state, "odds", None)
    if svc is None:
        svc = app.state.odds = OddsService()
    return svc


async def table_row(request: Request, table_id: int) -> Table:
    """A table's row, of any event (its page and rules are public), read off the event loop;
    NotFound (rule ``table``) for no such table."""
    room = request.app.state.room

    def load() -> Table | None:
        with room.store.transaction() as repo:
            return repo.table(table_id)

    t = await asyncio.to_thread(load)
    if t is None:
        raise NotFound("table", f"no table {table_id}")
    return t


@router.get("/api/tables/{table_id}/odds", tags=["pages"], responses={
    429: {"description": "too many rule sets being analysed at once (rule rate_limit)",
          "headers": {"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}}}})
async def table_odds(request: Request, table_id: Id) -> dict[str, Any]:
    """A Blackjack table's house edge (exact, full shoe) and the basic-strategy chart computed
    for its rules (the table page's hint comes from this chart); a draw table's rules. Public,
    like the rules themselves. A rule set's first analysis runs in a bounded pool off the event
    loop; when the pool is full the answer is 429 (rule ``rate_limit``) with Retry-After."""
    t = await table_row(request, table_id)
    game = kind_of(t.game).odds
    if game is None:
        return {"game": t.game, "table": t.to_json()}
    return {"game": t.game, "table": t.to_json(),
            **await odds_service(request.app).get(game.key(t.game_rules), game.compute)}


@router.get("/api/figures", tags=["pages"])
def figures(request: Request, account: Me) -> list[dict[str, Any]]:
    """The house's result per table (the settled hands' part of its ``table:<id>`` ledger
    account: positive, the house is ahead), the chips of the hand in play there (``in_play``:
    the players', until it is settled) and the hands played: admin and pit bosses."""
    if not allowed(account.role, "view_any_ledger"):
        raise Forbidden("view_any_ledger", "the house's figures are for the admin and pit bosses")
    room = request.app.state.room
    balances = {a.key: a.balance for a in room.ledger.accounts(account.event_id)}
    out = []
    with room.store.transaction() as repo:
        every = repo.hands(account.event_id, None, None, None, 10**9)
        playing = in_play(repo.event_entries(account.event_id), every) if any(
            h.status == "playing" for h in every) else {}
        for t in repo.tables(account.event_id):
            hands = [h for h in every if h.table_id == t.id]
            out.append({
                "table": t.id, "name": t.name, "game": t.game, "status": t.status,
                "house_result": balances.get(f"table:{t.id}", 0) - playing.get(t.id, 0),
                "in_play": playing.get(t.id, 0),
                "hands": sum(1 for h in hands if h.status == "settled"),
                "voided": sum(1 for h in hands if h.status == "voided"),
            })
    return out


@router.get("/api/tables/{table_id}/figures", tags=["pages"])
def table_figures(request: Request, account: Me, table_id: Id) -> dict[str, Any]:
    for row in figures(request, account):
        if row["table"] == table_id:
            return row
    raise NotFound("table", f"no table {table_id} in this event")


#: A card named in an engine's message: with its suit, as text ("Ah", "Th", "10h") or pretty
#: ("A♥", "10♥"); quoted ('A', 'T', "7h"); or a rank alone, the way a Blackjack card entered
#: without its suit is named ("A cannot come out again..."): a letter rank standing alone, or a
#: number rank opening the engine's sentence (after a colon), where no count or step number
#: stands ("round 3", "a 1-deck shoe holds 4" keep their numbers).
_CARD = re.compile(
    r"(?<![\w])(?:10|[2-9TJQKA])[cdhs](?![\w])"
    r"|(?<![\w])(?:10|[2-9JQKA])[♠♥♦♣]"
    r"|(['\"])(?:10|[2-9TJQKA])[cdhs♠♥♦♣]?\1"
    r"|(?<![\w'\"-])[TJQKA](?![\w'\"-])"
    r"|(?:(?<=^)|(?<=: ))(?:10|[2-9])(?![\w.,-])")


def hide_cards(text: str) -> str:
    """``text`` with every card it names written ``??`` (an engine's refusal may name a card of
    the full history, which the asker may not see)."""
    return _CARD.sub("??", text)


@router.get("/api/hands/{hand_id}/check", tags=["pages"])
def hand_check(request: Request, account: Me, hand_id: Id) -> dict[str, Any]:
    """The replay (the engine re-runs the hand's shoe step by step and compares every record)
    and the fairness check (every card against the committed shuffle, once its seed is out) of
    a finished hand, as ``syndicate replay`` and ``syndicate verify`` report them."""
    store = request.app.state.room.store
    doc = shoe_history(store, account.event_id, hand_id, account)
    game = kind_of_history(doc).history
    same_shoe = doc[game.key]
    # The server replays its own full copy; the steps shown are the caller's copy, so a card
    # never shown at the table is not in them.
    rep = game.replay(house_history(store, account.event_id, hand_id))
    ver = game.verify(doc)
    commitment = game.commitment(doc)
    problems = list(getattr(rep, "problems", None) or getattr(rep, "messages", []))
    if account.role != "admin":  # an engine's refusal may name a card of the full copy
        problems = [hide_cards(p) for p in problems]
    return {"hand": hand_id, "game": doc["game"],
            "commitment": commitment, "hands_in_shoe": len(same_shoe),
            "replay": {"matches": rep.matches, "steps": game.steps(doc), "problems": problems},
            "verify": ver.to_json()}
