"""Plain functions behind the server's commands; ``syndicate.cli`` wires them into Typer.

``serve`` is the card room's main command: it creates (or upgrades) the database, makes the
first admin on first start and prints that password once, puts the event notice's roster of
authorized dealers in place, and serves the REST API and live play.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Callable
from typing import Any, TextIO

from argon2 import PasswordHasher

from ..store import Database, SqlStore
from .accounts import DEFAULT_EVENT, Accounts
from .errors import RoomError
from .roster import Roster
from .values import Account

DEFAULT_PORT = 8000


def prepare(db: str | None, *, seed_notice: bool = True, out: TextIO = sys.stdout,
            hasher: PasswordHasher | None = None) -> Database:
    """Open and migrate the database; on first start create the default event and its admin
    (printing the password once) and, unless told not to, the notice's roster."""
    database = Database(db)
    database.migrate()
    store = SqlStore(database)
    event, password = Accounts(store, hasher).bootstrap(DEFAULT_EVENT)
    if seed_notice:
        Roster(store).seed_notice(event.id)
    if password is not None:
        print(f"First start: event {event.name!r} (id {event.id}) created with an admin account.\n"
              f"  name: admin\n  password: {password}\n"
              "This password is shown once; sign in and keep it safe.", file=out, flush=True)
    return database


def serve(db: str | None = None, host: str = "127.0.0.1", port: int = DEFAULT_PORT, *,
          seed_notice: bool = True) -> None:
    """Run the card room server (``db``: a SQLite path or URL, default ``./syndicate.db``; or
    ``postgresql://…``). Blocks until stopped."""
    import uvicorn

    from ..web import create_app

    database = prepare(db, seed_notice=seed_notice)
    app = create_app(database=database, migrate=False)
    if app.state.voided:
        print(f"Voided {len(app.state.voided)} hand(s) left unfinished by the last run; every bet returned.",
              flush=True)
    print(f"Serving the card room on http://{host}:{port} (OpenAPI: /openapi.json, database: {database.url})",
          flush=True)
    # No per-message deflate: compressing every state costs more CPU than it saves on a LAN.
    uvicorn.run(app, host=host, port=port, ws_max_size=65536, ws_per_message_deflate=False, log_level="warning")


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


def main(argv: list[str] | None = None) -> int:
    """``python -m syndicate.room.cli [DB] [HOST] [PORT]`` until the Typer command is wired."""
    args = sys.argv[1:] if argv is None else argv
    try:
        serve(args[0] if args else None, args[1] if len(args) > 1 else "127.0.0.1",
              int(args[2]) if len(args) > 2 else DEFAULT_PORT)
    except RoomError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


KEYS = {"h": "hit", "s": "stand", "d": "double", "p": "split", "r": "surrender", "i": "insurance",
        "e": "even_money", "n": "no_insurance", "o": "play_on"}


def play_remote(url: str, event: int, name: str, password: str, table: int, *, seat: int = 1,
                buy_in: int = 10_000, rounds: int | None = None, input_fn: Callable[[str], str] = input,
                out: Callable[[str], None] = print) -> int:
    """Play Blackjack at a live table from the terminal (``syndicate play --server URL``).

    Signs in, sits at ``seat`` with ``buy_in`` cents from the bankroll, and plays with the
    terminal game's keys (h s d p r i e n, plus o to play on when offered surrender; q leaves).
    Bets are typed in dollars ("5", "0.50"). Stops after ``rounds`` rounds if given. Returns the
    player's bankroll after leaving the table, in cents.
    """
    return asyncio.run(_play_remote(url, event, name, password, table, seat, buy_in, rounds, input_fn, out))


async def _play_remote(url: str, event: int, name: str, password: str, table_id: int, seat: int, buy_in: int,
                       rounds: int | None, input_fn: Callable[[str], str], out: Callable[[str], None]) -> int:
    from .. import money
    from ..client import ActionRefused, RoomClient, TableClient

    rest = RoomClient(url)
    me = await asyncio.to_thread(rest.sign_in, event, name, password)
    tc = await TableClient.connect(url, table_id, rest.token or "")
    await tc.act("sit", seat=seat, amount=buy_in)
    out(f"You sit at seat {seat} with {money.format(buy_in)}. Keys: " +
        ", ".join(f"{k} {v}" for k, v in KEYS.items()) + ", q leave.")
    seen = -1
    finished: set[int] = set()
    try:
        while rounds is None or len(finished) < rounds:
            st = await tc.wait(lambda s: s["version"] > seen, timeout=3600)
            seen = st["version"]
            stack = next((s["stack"] for s in st["seats"] if s["seat"] == seat), 0)
            rd = st["round"]
            if rd is None or seat not in {s["seat"] for s in rd["seats"]}:
                continue
            mine = next(s for s in rd["seats"] if s["seat"] == seat)
            if rd["phase"] == "settled":
                if st["hand"] not in finished:
                    finished.add(st["hand"])
                    out(render(st, seat))
                continue
            if rd["phase"] == "betting" and mine["bet"] == 0:
                raw = (await asyncio.to_thread(input_fn, f"Stack {money.format(stack)}. Your bet (q to leave): ")).strip()
                if raw.lower() == "q":
                    break
                try:
                    await tc.act("bet", amount=money.parse(raw))
                except (ActionRefused, money.MoneyError) as e:
                    out(f"refused: {e}")
                    seen -= 1  # ask again on the same state
                continue
            legal = rd["legal_actions"]
            if not legal:
                continue
            out(render(st, seat))
            keys = [k for k, a in KEYS.items() if a in legal]
            raw = (await asyncio.to_thread(input_fn, f"Your move [{' '.join(keys)} q]: ")).strip().lower()
            if raw == "q":
                break
            if raw not in keys:
                out(f"choose one of {' '.join(keys)}")
                seen -= 1  # ask again on the same state
                continue
            try:
                await tc.act(KEYS[raw])
            except ActionRefused as e:
                out(f"refused: {e.message}")
                seen -= 1
    finally:
        with contextlib.suppress(Exception):
            await tc.act("leave_seat")
            await tc.wait(lambda s: all(x["seat"] != seat for x in s["seats"]), timeout=60)
        await tc.close()
    bankroll = (await asyncio.to_thread(rest.ledger, me["id"]))["balance"]
    rest.close()
    out(f"You leave the table. Your bankroll: {money.format(bankroll)}.")
    return int(bankroll)


def render(state: dict[str, Any], seat: int | None = None) -> str:
    """A state as a few lines of text: the dealer, then every seat's hands."""
    from .. import money

    rd = state["round"]
    if rd is None:
        return "No round in play."
    dealer = " ".join(c or "??" for c in rd["dealer"]["cards"])
    lines = [f"Hand {state['hand']} ({rd['phase']}). Dealer: {dealer}"
             + (f" = {rd['dealer']['total']}" if rd["dealer"]["total"] is not None else "")]
    for s in rd["seats"]:
        who = "you" if s["seat"] == seat else f"seat {s['seat']}"
        hands = "; ".join(
            f"{' '.join(h['cards'])} = {h['total']} ({money.format(h['bet'])})"
            + (f" {h['outcome']}" if h["outcome"] else "") for h in s["hands"]) or f"bet {money.format(s['bet'])}"
        lines.append(f"  {who}: {hands}" + (f", net {money.format(s['net'])}" if s["net"] is not None else ""))
    return "\n".join(lines)
