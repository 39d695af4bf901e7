"""`syndicate loadtest`: bots at both games over real WebSockets against a live server; the
report counts what they did and the ledger is intact afterwards."""

from __future__ import annotations

import asyncio
import json
import random

from typer.testing import CliRunner

from syndicate.apps import loadbots, loadtest
from syndicate.apps.cli import app
from syndicate.room.live.clocks import Timers
from syndicate.web import create_app
from syndicate.web.security import Limits
from tests.kit.room import FAST_HASHER, PASSWORD, LiveServer


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


def test_bots_faster_than_the_action_limit_wait_and_resend(database, room, cast, monkeypatch) -> None:
    """At no think time a bot outpaces a socket's action limit: each refusal (rule rate_limit,
    nothing applied) is waited out and the action sent again, so the run has no error and every
    chip is still accounted for. The limit here is 20 actions a second, a burst of 5."""
    refused = []
    real_act = loadbots.TableClient.act

    async def act(self, action, **fields):  # type: ignore[no-untyped-def]
        try:
            return await real_act(self, action, **fields)
        except loadbots.ActionRefused as e:
            refused.append(e.rule)
            raise

    monkeypatch.setattr(loadbots.TableClient, "act", act)
    app = create_app(database=database, hasher=FAST_HASHER, migrate=False, timers=Timers(turn=None),
                     limits=Limits(actions_per_second=20, action_burst=5))
    srv = LiveServer(app)
    try:
        ev = cast.event.id
        specs = loadtest.plan(1, 2, 0, ("blackjack",))
        password = loadtest.prepare_accounts(srv.url, ev, "admin", PASSWORD, specs)
        bots = [loadbots.TableBots(srv.url, ev, specs[0], password, 0, random.Random(1))]

        async def play() -> list[loadbots.Failure]:
            failures = await loadbots.connect_tables(bots)
            return failures + await loadbots.play_tables(bots, warmup=0.2, seconds=2, grace=10)

        failures = asyncio.run(play())
    finally:
        srv.stop()
    assert failures == [] and bots[0].errors == 0
    assert sum(map(len, bots[0].by_action.values())) > 10 and "deal" in bots[0].by_action
    assert refused and set(refused) == {"rate_limit"}  # the limit was met, and only it refused anything
    assert room.ledger.audit(ev) == [] and room.ledger.total(ev) == 0


def test_an_error_in_the_window_is_counted_and_named() -> None:
    """The report names its errors ("action: rule"), so that a run with one says which."""

    class Refusing:
        async def act(self, action, **fields):  # type: ignore[no-untyped-def]
            raise loadbots.ActionRefused(409, "not_your_turn", "wait for your turn")

    spec = loadtest.plan(1, 1, 0, ("blackjack",))[0]
    bots = loadbots.TableBots("http://127.0.0.1:9", 1, spec, "pw", 0, random.Random(1))

    async def go() -> None:
        for window in ((0.0, float("inf")), (float("inf"), float("inf"))):  # in the window, then not
            bots.window = window
            try:
                await bots.act(Refusing(), "hit")  # type: ignore[arg-type]
            except loadbots.ActionRefused:
                pass

    asyncio.run(go())
    assert bots.errors == 1 and bots.error_kinds == {"hit: not_your_turn": 1}


def test_when_one_bet_ends_the_table_the_other_bets_stop_too() -> None:
    """The window ends as one player is about to bet while another's bet is in flight: the round
    stops, and the bet in flight is cancelled before the table closes its sockets (left running,
    it failed with the closed connection and counted as an error: a flaky zero-think run)."""
    stopped = []

    async def in_flight() -> None:
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            stopped.append("cancelled")
            raise

    async def window_over() -> None:
        await asyncio.sleep(0)
        raise loadbots._WindowOver

    async def go() -> None:
        try:
            await loadbots._all_or_none([in_flight(), window_over()])
        except loadbots._WindowOver:
            stopped.append("raised")

    asyncio.run(asyncio.wait_for(go(), 5))
    assert stopped == ["cancelled", "raised"]


def test_a_route_says_where_a_tables_clients_connect(monkeypatch) -> None:
    """With several server processes, "spread" sends a table's clients to each in turn; "table"
    sends them all to the one its id picks. Any other route is refused, by name."""
    spec = loadtest.plan(1, 2, 0, ("blackjack",))[0]
    urls = "http://a,http://b,http://c"
    spread = loadbots.TableBots(urls, 1, spec, "pw", 0, random.Random(1), table_id=7)
    assert {spread._url() for _ in range(6)} == {"http://a", "http://b", "http://c"}
    routed = loadbots.TableBots(urls, 1, spec, "pw", 0, random.Random(1), table_id=7, route="table")
    assert {routed._url() for _ in range(6)} == {"http://b"}  # 7 % 3
    other = loadbots.TableBots(urls, 1, spec, "pw", 0, random.Random(1), table_id=9, route="table")
    assert {other._url() for _ in range(6)} == {"http://a"}
    for bad in (lambda: loadbots.TableBots(urls, 1, spec, "pw", 0, random.Random(1), route="sticky"),
                lambda: loadtest.run(urls, 1, [spec], "pw", seconds=1, think=0, route="sticky")):
        try:
            bad()
        except ValueError as e:
            assert str(e) == "route is spread or table, not 'sticky'"
        else:
            raise AssertionError("a route that is neither spread nor table was taken")
    monkeypatch.setenv("SYNDICATE_ADMIN_PASSWORD", PASSWORD)
    result = CliRunner().invoke(app, ["loadtest", "http://127.0.0.1:9", "--route", "sticky"])
    assert result.exit_code != 0 and "route is spread or table, not 'sticky'" in result.output
