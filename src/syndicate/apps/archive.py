"""One archive of the night for the organiser to keep (docs/charity-night.md): a zip file with
the database's backup, the end-of-night report (printable page, JSON with every ledger line, the
ledger and the players as CSV), every finished hand's history as the house sees it, and every
prize draw's proof. Each history and proof checks with ``syndicate verify``."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import tempfile
import zipfile
from pathlib import Path

from sqlalchemy.engine import make_url

from ..room import report
from ..room.draws import proof
from ..room.errors import BadRequest, NotFound
from ..room.histories import shoe_history
from ..room.roles import ADMIN
from ..store import Database, SqlStore
from .server import the_event

README = """The archive of {event}, made {at:%Y-%m-%d %H:%M} UTC by `syndicate archive`.

report.html     the end-of-night report, to print
report.json     the same, with every ledger line (cents)
ledger.csv      the whole ledger, one row per entry
players.csv     each player's evening, one row each
hands/          each finished shoe's history as the house sees it: `syndicate verify FILE`
draws/          each prize draw's proof: `syndicate verify FILE`
database/       the database itself: {database}
"""


def archive(db: str | None, event: str | None, output: Path) -> dict[str, int]:
    """Write the archive of ``event`` to ``output``; what it holds, counted."""
    database = Database(db)
    try:
        store = SqlStore(database)
        ev = the_event(store, event)
        rep = report.build(store, ev.id)
        with store.transaction() as repo:
            house = next((a for a in repo.accounts(ev.id) if a.role == ADMIN), None)
            hands = [h for h in repo.hands(ev.id, limit=10**9) if h.status != "playing"]
            draws = repo.prize_draws(ev.id)
        if house is None:
            raise NotFound("admin", f"{ev.name} has no admin, whose view the hands' histories are in")
        shoes: dict[tuple[int, str], int] = {}
        for h in sorted(hands, key=lambda h: h.id):
            shoes.setdefault((h.table_id, h.commitment), h.id)  # a Blackjack shoe holds many rounds
        with tempfile.TemporaryDirectory() as tmp:
            backup, what = _backup(database, Path(tmp))
            with zipfile.ZipFile(output, "w", zipfile.ZIP_DEFLATED) as z:
                z.writestr("README.txt", README.format(event=ev.name, at=rep.generated_at, database=what))
                z.writestr("report.html", report.html_page(rep))
                z.writestr("report.json", json.dumps(rep.to_json(with_entries=True), indent=2) + "\n")
                z.writestr("ledger.csv", report.ledger_csv(rep))
                z.writestr("players.csv", report.players_csv(rep))
                for (table, _), first in shoes.items():
                    doc = shoe_history(store, ev.id, first, house)
                    z.writestr(f"hands/table-{table}-from-hand-{first}.json", json.dumps(doc, indent=1) + "\n")
                for d in draws:
                    z.writestr(f"draws/draw-{d.id}.json", json.dumps(proof(d), indent=1) + "\n")
                z.write(backup, f"database/{backup.name}")
        return {"hands": len(hands), "histories": len(shoes), "draws": len(draws), "ledger_lines": len(rep.entries)}
    finally:
        database.dispose()


def _backup(database: Database, tmp: Path) -> tuple[Path, str]:
    """A consistent copy of the database: SQLite's online backup, or PostgreSQL's ``pg_dump``."""
    url = make_url(database.url)
    if database.is_sqlite:
        out = tmp / "syndicate.db"
        with sqlite3.connect(url.database or ":memory:") as src, sqlite3.connect(out) as dst:
            src.backup(dst)
        return out, "syndicate.db, an SQLite file (`syndicate serve --db syndicate.db` opens it)"
    dump = shutil.which("pg_dump")
    if dump is None:
        raise BadRequest("pg_dump", "the archive of a PostgreSQL database needs pg_dump: install the PostgreSQL "
                                    "client (apt-get install postgresql-client)")
    out = tmp / "syndicate.pgdump"
    plain = url.set(drivername="postgresql").render_as_string(hide_password=False)
    done = subprocess.run([dump, "--format=custom", "--no-owner", f"--file={out}", plain], capture_output=True,
                          text=True, timeout=600)
    if done.returncode != 0:
        raise BadRequest("pg_dump", f"pg_dump could not back the database up: {done.stderr.strip()[:300]}")
    return out, "syndicate.pgdump, a pg_dump archive (`pg_restore --dbname=... syndicate.pgdump`)"
