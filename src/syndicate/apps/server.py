"""Plain functions behind the server's commands; ``syndicate.apps.cli`` wires them into Typer.

``serve`` is the card room's main command: it checks its options (each refusal one line naming
the option: :class:`OptionError`), creates (or upgrades) the database, makes the first admin on
first start and prints that password once, puts the event notice's roster of authorized dealers
in place, and serves the REST API and live play, on this machine or (``lan``) on the local
network.
"""

from __future__ import annotations

import dataclasses
import errno
import ipaddress
import os
import socket
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, TextIO

from argon2 import PasswordHasher

from ..room.accounts import DEFAULT_EVENT, Accounts
from ..room.cardroom import CardRoom
from ..room.errors import NotFound, RoomError
from ..room.roster import Roster
from ..room.values import Account, Event
from ..store import Database, SqlStore

if TYPE_CHECKING:
    from ..web.connections import ConnectionLimits

DEFAULT_PORT = 8000
DEFAULT_HOST = "127.0.0.1"
LAN_HOST = "0.0.0.0"  # noqa: S104 - serving the local network is what --lan asks for


class OptionError(ValueError):
    """An option ``syndicate serve`` cannot start with: the option and what it expects, in one
    line (no traceback)."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(f"{option}: {message}")
        self.option = option


def lan_address() -> str | None:
    """This machine's IPv4 address on its local network: the one it would send from to another
    machine (a route lookup: "connecting" a UDP socket sends nothing), else one its name resolves
    to; None if it has none but loopback."""
    for probe in ("192.0.2.1", "10.254.254.254", "172.31.254.254", "192.168.254.254"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))
                address = str(s.getsockname()[0])
        except OSError:
            continue
        if not ipaddress.ip_address(address).is_loopback and address != LAN_HOST:
            return address
    try:
        found = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return None
    return next((str(a[4][0]) for a in found if not ipaddress.ip_address(a[4][0]).is_loopback), None)


def check_listen(host: str, port: int) -> None:
    """Refuse (:class:`OptionError`) an address and port the server could not listen on: not an
    address of this machine, a port out of range, in use or reserved. Checked by binding a
    socket and closing it, before the database is touched."""
    if not 0 < port < 65536:
        raise OptionError("--port", f"a port is 1 to 65535, got {port}")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError):
        raise OptionError("--host", f"{host!r} is not an address of this machine: an IP address such as "
                                    f"{DEFAULT_HOST} (this machine only) or {LAN_HOST} (every network), or a "
                                    "name that resolves to one") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn: a closed socket's wait is no use
        try:
            s.bind(address)
        except OSError as e:
            if e.errno == errno.EADDRINUSE:
                raise OptionError("--port", f"another program listens on {host}:{port} already: stop it or choose "
                                            "another --port") from None
            if e.errno == errno.EACCES:
                raise OptionError("--port", f"port {port} is reserved for the system's own services here: choose "
                                            "one from 1024 up (8000 by default)") from None
            raise OptionError("--host", f"{host!r} is not an address of this machine ({e.strerror}): use "
                                        f"{DEFAULT_HOST} or {LAN_HOST}, or an address this machine has") from None


def check_options(*, public_url: str | None, allowed_hosts: Iterable[str], proxies: Iterable[str],
                  redis: str | None) -> tuple[str | None, tuple[str, ...], frozenset[str]]:
    """The options that take a URL or an address, checked: the public URL and the allowed
    hosts as the app reads them, the proxies' addresses (normalized, as the server sees
    clients), the Redis URL's form. Raises :class:`OptionError`."""
    from ..room.errors import RoomError
    from ..web.hosts import allowed_host
    from ..web.qr import public_url as checked_url

    try:
        url = checked_url(public_url) if public_url is not None else None
    except RoomError as e:
        raise OptionError("--public-url", e.message) from None
    try:
        hosts = tuple(allowed_host(h) for h in allowed_hosts)
    except RoomError as e:
        raise OptionError("--allowed-host", e.message) from None
    found = set()
    for text in proxies:
        try:
            found.add(str(ipaddress.ip_address(text.strip())))
        except ValueError:
            raise OptionError("--proxy-address", f"a proxy's address is an IP address as this server sees it "
                                                  f"(such as 127.0.0.1), got {text[:100]!r}") from None
    if redis is not None:
        import redis as redis_client

        try:
            redis_client.connection.parse_url(redis)
        except ValueError:
            raise OptionError("--redis", f"a Redis URL is redis://[:password@]host[:port][/db] (or rediss:// with "
                                         f"TLS), got {redis[:100]!r}") from None
    return url, hosts, frozenset(found)


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


def _opened(db: str | None, seed_notice: bool) -> Database:
    """:func:`prepare`, a database that cannot be opened refused in one line naming ``--db``."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError, OperationalError

    from ..store.database import normalize_url

    try:
        shown = make_url(normalize_url(db)).render_as_string(hide_password=True).replace("+psycopg", "")
    except ArgumentError:
        shown = repr(db)
    try:
        return prepare(db, seed_notice=seed_notice)
    except (ArgumentError, NoSuchModuleError):
        raise OptionError("--db", f"{db!r} is not a database: a SQLite file (syndicate.db, sqlite:///path) or "
                                  "postgresql://user@host/db") from None
    except OperationalError as e:
        reason = str(e.orig or e).strip().splitlines()[0][:200]
        raise OptionError("--db", f"cannot open the database {shown}: {reason}") from None


def serve(db: str | None = None, host: str | None = None, port: int = DEFAULT_PORT, *,
          seed_notice: bool = True, redis: str | None = None, lease_seconds: float = 5.0,
          connection_limits: ConnectionLimits | None = None, event: str | None = None,
          public_url: str | None = None, allowed_hosts: Iterable[str] = (), proxies: Iterable[str] = (),
          secure_cookies: bool | None = None, lan: bool = False) -> None:
    """Run the card room server (``db``: a SQLite path or URL, default ``./syndicate.db``; or
    ``postgresql://…``) on ``host`` (default 127.0.0.1: this machine only). With ``redis``, one
    of several processes on a PostgreSQL database (docs/deployment.md). ``event`` names the
    current event, the one the pages open (default: the event made at first start); it must
    exist. ``public_url`` is where the players reach the server, for the pages' QR codes
    (docs/dealer.md); ``allowed_hosts`` are more names the room answers to (web/hosts.py);
    ``proxies`` the front proxies' addresses, not capped per address; ``secure_cookies`` forces
    the session cookie's Secure flag on or off (None: on when the public URL is https).

    ``lan`` serves the local network: on every address (0.0.0.0, unless ``host`` is given), with
    the machine's LAN address (:func:`lan_address`) as the public URL unless one is given, so
    that the QR codes carry it. Every option is checked before the database is touched; a bad
    one raises :class:`OptionError`. Blocks until stopped."""
    import uvicorn

    from ..web import create_app
    from ..web.connections import ConnectionLimits, uvicorn_options

    host = host or (LAN_HOST if lan else DEFAULT_HOST)
    if lan and public_url is None:
        address = lan_address()
        if address is None:
            raise OptionError("--lan", "this machine has no address on a local network that phones could "
                                       "reach (only loopback): connect it to the network, or give --public-url")
        public_url = f"http://{address}:{port}"
    url, hosts, exempt = check_options(public_url=public_url, allowed_hosts=allowed_hosts, proxies=proxies,
                                       redis=redis)
    if redis is not None:
        from ..room.live.cluster import check_cluster_url
        from ..store.database import normalize_url

        check_cluster_url(normalize_url(db))  # before touching any database
    check_listen(host, port)
    limits = connection_limits or ConnectionLimits()
    if exempt:
        limits = dataclasses.replace(limits, exempt=limits.exempt | exempt)
    database = _opened(db, seed_notice)
    if event is not None and all(e.name != event for e in Accounts(SqlStore(database)).events()):
        database.dispose()
        raise NotFound("current_event", f"no event named {event!r}: create it first (POST /api/events)")
    app = create_app(database=database, migrate=False, redis_url=redis, lease_seconds=lease_seconds,
                     short_gc_pauses=True, precompute_odds=True, current_event=event, public_url=url,
                     allowed_hosts=hosts, secure_cookies=secure_cookies)
    if app.state.voided:
        print(f"Voided {len(app.state.voided)} hand(s) left unfinished by the last run; every bet returned.",
              flush=True)
    for table_id, why in app.state.faults.items():
        print(f"Table {table_id} could not be restored ({why}): it is served to no one until a start restores "
              "it; `syndicate admin check` lists its chips.", flush=True)
    cluster = f", one of several processes through {redis}" if redis else ""
    shown = f"[{host}]" if ":" in host else host
    print(f"Serving the card room on http://{shown}:{port} (OpenAPI: /openapi.json, database: "
          f"{database.url.split('@')[-1]}{cluster})", flush=True)
    if lan:
        print(f"On the local network: phones and other computers open {url} (the lobby's QR code carries it)",
              flush=True)
    elif ipaddress.ip_address(socket.getaddrinfo(host, port)[0][4][0]).is_loopback:
        print("Only this machine can open it: for phones on the same network, serve with --lan "
              "(./run serve --lan)", flush=True)
    # No per-message deflate: compressing every state costs more CPU than it saves on a LAN.
    # Header, body and idle timeouts and connection caps: uvicorn has none of its own (web/connections.py).
    uvicorn.run(app, host=host, port=port, ws_max_size=65536, ws_per_message_deflate=False, log_level="warning",
                **uvicorn_options(limits))


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


def the_event(store: SqlStore, event: str | None) -> Event:
    """The event called ``event``; without a name the only one, or the default. Raises
    NotFound naming the events there are."""
    events = Accounts(store).events()
    names = [e.name for e in events]
    if event is None:
        found = events if len(events) == 1 else [e for e in events if e.name == DEFAULT_EVENT]
    else:
        found = [e for e in events if e.name == event]
    if not found:
        which = "give --event" if event is None else f"no event called {event!r}"
        raise NotFound("event", f"{which}: the events are {', '.join(map(repr, names)) or 'none'}")
    return found[0]


def event_report(db: str | None, event: str | None = None, fmt: str = "text") -> tuple[str, bool]:
    """The end-of-night report (:mod:`syndicate.room.report`) of ``event`` (by name; the only
    or the default event when None) as text, JSON, the ledger's CSV, each player's summary as CSV
    or a printable HTML page,
    and whether its totals agree with the ledger audit.
    The database is not migrated. Raises NotFound naming the events there are."""
    import json

    from ..room import report
    from ..room.errors import BadRequest

    if fmt not in ("text", "json", "csv", "players", "html"):
        raise BadRequest("format", f"the format is text, json, csv, players or html, not {fmt!r}")
    database = Database(db)
    try:
        store = SqlStore(database)
        rep = report.build(store, the_event(store, event).id)
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
    """``python -m syndicate.apps.server [DB] [HOST] [PORT]``: the server alone, as the tests and
    benchmarks start it."""
    args = sys.argv[1:] if argv is None else argv
    try:
        serve(args[0] if args else None, args[1] if len(args) > 1 else DEFAULT_HOST,
              int(args[2]) if len(args) > 2 else DEFAULT_PORT, event=os.environ.get("SYNDICATE_EVENT") or None)
    except (RoomError, OptionError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
