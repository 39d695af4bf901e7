"""`syndicate loadtest`: bots at both games over real WebSockets against a live server; the
report counts what they did and the ledger is intact afterwards."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from syndicate import loadtest
from syndicate.cli import app
from tests.room.kit import PASSWORD


def test_bots_play_both_games_and_the_report_adds_up(server, room, cast, tmp_path, monkeypatch) -> None:
    ev = cast.event.id
    monkeypatch.setenv("SYNDICATE_ADMIN_PASSWORD", PASSWORD)
    out = tmp_path / "report.json"
    result = CliRunner().invoke(app, [
        "loadtest", server.url, "--event", str(ev), "--tables", "2", "--players", "2", "--spectators", "1",
        "--duration", "3", "--think", "0.02", "--warmup", "0.2", "--procs", "1", "--json", str(out)])
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text())
    assert report["tables"] == 2 and report["clients"] == 2 * (1 + 2 + 1)
    assert report["errors"] == 0 and report["actions"] > 10
    assert report["actions"] == sum(a["count"] for a in report["by_action"].values())
    assert {"deal", "start_round"} <= set(report["by_action"])  # Blackjack
    assert set(report["by_action"]) & {"check", "call", "draw", "stand_pat"}  # and draw
    assert report["p50_ms"] <= report["p95_ms"] <= report["p99_ms"]
    assert "actions/s" in result.output and "by action" in result.output
    # Every chip accounted for; a second run reuses the bots' accounts.
    assert room.ledger.audit(ev) == [] and room.ledger.total(ev) == 0
    specs = loadtest.plan(2, 2, 1)
    again = loadtest.prepare_accounts(server.url, ev, "admin", PASSWORD, specs)
    assert again == loadtest.bot_password(PASSWORD)
    assert sum(1 for a in room.accounts.list(cast.admin) if a.name.startswith("load-")) == 2 * 4


def test_a_wrong_admin_password_is_refused_clearly(server, cast, monkeypatch) -> None:
    monkeypatch.setenv("SYNDICATE_ADMIN_PASSWORD", "not the password")
    result = CliRunner().invoke(app, ["loadtest", server.url, "--event", str(cast.event.id), "--tables", "1"])
    assert result.exit_code != 0 and "refused" in result.output
