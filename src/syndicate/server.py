"""Plain functions behind the server's commands; ``syndicate.cli`` wires them into Typer.

``serve`` is the card room's main command: it creates (or upgrades) the database, makes the
first admin on first start and prints that password once, puts the event notice's roster of
authorized dealers in place, and serves the REST API and live play.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, TextIO

from argon2 import PasswordHasher

from .room.accounts import DEFAULT_EVENT, Accounts
from .room.cardroom import CardRoom
from .room.errors import NotFound, RoomError
from .room.roster import Roster
from .room.values import Account
from .store import Database, SqlStore

if TYPE_CHECKING:
    from .web.connections import ConnectionLimits

DEFAULT_PORT = 8000


def prepare(db: str | None, *, seed_notice: bool = True, out: TextIO | None = None,
            hasher: PasswordHasher | None = None) -> Database:
    """Open and migrate the database; on first start create the default event and its admin
    (printing the password once) and, unless told not to, the notice's roster."""
    database = Database(db)
    with database.startup_lock():  # several processes may be starting on one database
        database.migrate()
        store = SqlStore(database)
        event, password = Accounts(store, hasher).bootstrap(DEFAULT_EVENT)
        if seed_notice:
            Roster(store).seed_notice(event.id)
    if password is not None:
        print(f"First start: event {event.name!r} (id {event.id}) created with an admin account.\n"
              f"  name: admin\n  password: {password}\n"
              "This password is shown once; sign in and keep it safe.", file=out or sys.stdout, flush=True)
    return database


def serve(db: str | None = None, host: str = "127.0.0.1", port: int = DEFAULT_PORT, *,
          seed_notice: bool = True, redis: str | None = None, lease_seconds: float = 5.0,
          connection_limits: ConnectionLimits | None = None, event: str | None = None,
          public_url: str | None = None) -> None:
    """Run the card room server (``db``: a SQLite path or URL, default ``./syndicate.db``; or
    ``postgresql://…``). With ``redis``, one of several processes on a PostgreSQL database
    (docs/deployment.md). ``event`` names the current event, the one the pages open (default:
    the event made at first start); it must exist. ``public_url`` is where the players reach the
    server, for the pages' QR codes (docs/dealer.md). Blocks until stopped."""
    import uvicorn

    from .web import create_app
    from .web.connections import uvicorn_options

    if redis is not None:
        from .room.cluster import check_cluster_url
        from .store.database import normalize_url

        check_cluster_url(normalize_url(db))  # before touching any database
    database = prepare(db, seed_notice=seed_notice)
    if event is not None and all(e.name != event for e in Accounts(SqlStore(database)).events()):
        database.dispose()
        raise NotFound("current_event", f"no event named {event!r}: create it first (POST /api/events)")
    app = create_app(database=database, migrate=False, redis_url=redis, lease_seconds=lease_seconds,
                     short_gc_pauses=True, precompute_odds=True, current_event=event, public_url=public_url)
    if app.state.voided:
        print(f"Voided {len(app.state.voided)} hand(s) left unfinished by the last run; every bet returned.",
              flush=True)
    for table_id, why in app.state.faults.items():
        print(f"Table {table_id} could not be restored ({why}): it is served to no one until a start restores "
              "it; `syndicate admin check` lists its chips.", flush=True)
    cluster = f", one of several processes through {redis}" if redis else ""
    print(f"Serving the card room on http://{host}:{port} (OpenAPI: /openapi.json, database: "
          f"{database.url.split('@')[-1]}{cluster})", flush=True)
    # No per-message deflate: compressing every state costs more CPU than it saves on a LAN.
    # Header, body and idle timeouts and connection caps: uvicorn has none of its own (web/connections.py).
    uvicorn.run(app, host=host, port=port, ws_max_size=65536, ws_per_message_deflate=False, log_level="warning",
                **uvicorn_options(connection_limits))


def admin_create(db: str | None, name: str, password: str, event: str = DEFAULT_EVENT) -> Account:
    """Create an admin account in ``event`` (created if new). Raises RoomError with a clear
    message for a taken name, a bad name or a password under 8 characters."""
    database = Database(db)
    database.migrate()
    try:
        accounts = Accounts(SqlStore(database))
        found = [e for e in accounts.events() if e.name == event]
        ev = found[0] if found else accounts.create_event(event)
        return accounts.add(ev.id, name, "admin", password)
    finally:
        database.dispose()


def ledger_check(db: str | None, warnings: dict[str, list[str]] | None = None) -> dict[str, list[str]]:
    """Every event's ledger audit (:meth:`syndicate.room.ledger.Ledger.audit`), its stranded
    chips (:meth:`~syndicate.room.ledger.Ledger.stranded`: stacks at closed tables, tables the
    server could not restore) and the check of its tables' cash
    (:meth:`syndicate.room.walkins.WalkIns.check`): the problems found by event
    name, an empty list for a sound ledger. ``warnings`` (if given) receives what is worth a
    look but is no fault (an open table's cash not counted since its last sale). The database
    is not migrated."""
    database = Database(db)
    try:
        room = CardRoom(SqlStore(database))
        out = {}
        for ev in room.accounts.events():
            problems, warned = room.walk_ins.check(ev.id)
            stranded, unsettled = room.ledger.stranded(ev.id)
            out[ev.name] = room.ledger.audit(ev.id) + stranded + problems
            if warnings is not None:
                warnings[ev.name] = unsettled + warned
        return out
    finally:
        database.dispose()


def event_report(db: str | None, event: str | None = None, fmt: str = "text") -> tuple[str, bool]:
    """The end-of-night report (:mod:`syndicate.room.report`) of ``event`` (by name; the only
    or the default event when None) as text, JSON, the ledger's CSV, each player's summary as CSV
    or a printable HTML page,
    and whether its totals agree with the ledger audit.
    The database is not migrated. Raises NotFound naming the events there are."""
    import json

    from .room import report
    from .room.errors import BadRequest, NotFound

    if fmt not in ("text", "json", "csv", "players", "html"):
        raise BadRequest("format", f"the format is text, json, csv, players or html, not {fmt!r}")
    database = Database(db)
    try:
        store = SqlStore(database)
        events = Accounts(store).events()
        names = [e.name for e in events]
        if event is None:
            found = events if len(events) == 1 else [e for e in events if e.name == DEFAULT_EVENT]
        else:
            found = [e for e in events if e.name == event]
        if not found:
            which = "give --event" if event is None else f"no event called {event!r}"
            raise NotFound("event", f"{which}: the events are {', '.join(map(repr, names)) or 'none'}")
        rep = report.build(store, found[0].id)
    finally:
        database.dispose()
    if fmt == "json":
        out = json.dumps(rep.to_json(with_entries=True), indent=2) + "\n"
    elif fmt == "csv":
        out = report.ledger_csv(rep)
    elif fmt == "players":
        out = report.players_csv(rep)
    elif fmt == "html":
        out = report.html_page(rep)
    else:
        out = report.text(rep)
    return out, rep.agrees


def main(argv: list[str] | None = None) -> int:
    """``python -m syndicate.server [DB] [HOST] [PORT]``: the server alone, as the tests and
    benchmarks start it."""
    args = sys.argv[1:] if argv is None else argv
    try:
        serve(args[0] if args else None, args[1] if len(args) > 1 else "127.0.0.1",
              int(args[2]) if len(args) > 2 else DEFAULT_PORT, event=os.environ.get("SYNDICATE_EVENT") or None)
    except RoomError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

