"""``syndicate archive`` (docs/charity-night.md): one zip with the database's backup, the report,
every finished shoe's history as the house sees it and every draw's proof, on both databases;
each history and proof in it verifies, and the backup opens with the same ledger."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from syndicate.apps.cli import app
from syndicate.room.live.clocks import Timers
from tests.kit.table import local_room

pytestmark = pytest.mark.both_databases


def _night(room, cast) -> None:  # type: ignore[no-untyped-def]
    """Two Blackjack rounds, a guest checked in at the door and a drawn raffle."""
    room.cashier.buy_in(cast.admin, cast.alice.id, 10_000)
    table = room.tables.open(cast.dealer, "Archived", overrides={"min_bet": 100, "max_bet": 500})

    async def play() -> None:
        async with local_room(room, Timers()) as local:
            dealer = await local.connect(table.id, cast.dealer)
            alice = await local.connect(table.id, cast.alice)
            await alice.act("sit", seat=1, amount=5_000)
            for _ in range(2):
                await dealer.act("start_round")
                await alice.act("bet", amount=100)
                ack = await dealer.act("deal")
                st = await alice.wait(lambda s, v=ack["version"]: s["version"] >= v)
                while st["round"]["phase"] != "settled":
                    legal = st["round"]["legal_actions"]
                    ack = await alice.act(next(a for a in ("stand", "no_insurance", "play_on") if a in legal))
                    st = await alice.wait(lambda s, v=ack["version"]: s["version"] >= v)
            await alice.act("leave_seat")

    asyncio.run(play())
    room.door.import_guests(cast.admin, "name\nAko Tanaka\n")
    room.door.set_rate(cast.admin, 100, 100)
    [g] = room.door.guests(cast.admin, "Ako")
    room.door.check_in(cast.admin, g["id"], "cash", 30_000)
    d = room.draws.create(cast.admin, "Wave 1", {"rate": 10_000}, [{"name": "Hamper", "value": 5_000}])
    room.draws.close(cast.admin, d.id)
    room.draws.draw(cast.admin, d.id, "six")


def test_the_night_in_one_archive(room, cast, database, tmp_path: Path) -> None:
    _night(room, cast)
    out = tmp_path / "night.zip"
    r = CliRunner().invoke(app, ["archive", str(out), "--db", database.url, "--event", cast.event.name])
    assert r.exit_code == 0, r.output
    assert "1 draw proofs" in r.output
    z = zipfile.ZipFile(out)
    names = z.namelist()
    assert {"README.txt", "report.html", "report.json", "ledger.csv", "players.csv"} <= set(names)
    histories = [n for n in names if n.startswith("hands/")]
    draws = [n for n in names if n.startswith("draws/")]
    assert len(histories) == 1 and len(draws) == 1
    report = json.loads(z.read("report.json"))
    assert report["agrees"] and report["charity"]["donations"] == 30_000
    for name in histories + draws:  # each checks with `syndicate verify`
        path = tmp_path / Path(name).name
        path.write_bytes(z.read(name))
        v = CliRunner().invoke(app, ["verify", str(path)])
        assert v.exit_code == 0 and "NOT" not in v.output, (name, v.output)
    [backup] = [n for n in names if n.startswith("database/")]
    if database.is_sqlite:
        copy = tmp_path / "copy.db"
        copy.write_bytes(z.read(backup))
        with sqlite3.connect(copy) as c:
            got = c.execute("SELECT count(*) FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id "
                            "WHERE t.event_id = ?", (cast.event.id,)).fetchone()[0]
            assert got == report["ledger_lines"]
    else:
        assert backup == "database/syndicate.pgdump" and z.read(backup).startswith(b"PGDMP")


def test_an_unknown_event_is_refused_naming_the_events(room, cast, database, tmp_path: Path) -> None:
    r = CliRunner().invoke(app, ["archive", str(tmp_path / "x.zip"), "--db", database.url, "--event", "Nope"])
    assert r.exit_code != 0 and "no event called 'Nope'" in r.output and cast.event.name in r.output
    assert not (tmp_path / "x.zip").exists()
