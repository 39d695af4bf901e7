"""The end-of-night report: a scripted evening through the room's API with a stacked shoe, so
every figure is known to the cent; the report agrees with the ledger audit of `syndicate admin
check`, its CSV has every ledger line, the CLI prints it, and only the host may read it."""

from __future__ import annotations

import asyncio
import csv
import io
import json

import pytest
from typer.testing import CliRunner

from syndicate.apps.cli import app as cli_app
from syndicate.apps.client import ApiError, RoomClient, TableClient
from syndicate.core.cards import parse
from syndicate.core.shoe import Shoe
from syndicate.room import report
from syndicate.room.live.clocks import Timers
from syndicate.web import create_app
from tests.kit.room import FAST_HASHER, PASSWORD, LiveServer

#: Alice (seat 1) Ts Kd: 20; Bob (seat 2) 9c 7d: 16; the dealer Th up, 8s in the hole: 18.
#: Both stand: Alice wins her $10, Bob loses his $5. Then plain decks.
ROUND = "Ts 9c Th Kd 7d 8s"
FILLER = " ".join(r + s for _ in range(6) for r in "23456789TJQKA" for s in "cdhs")


def stacked(rules):  # noqa: ANN001, ANN201
    return Shoe.stacked(parse(ROUND + " " + FILLER, distinct=False), decks=rules.decks)


@pytest.fixture
def server(database):
    app = create_app(database=database, hasher=FAST_HASHER, migrate=False, timers=Timers(turn=None),
                     new_shoe=stacked)
    srv = LiveServer(app)
    yield srv
    srv.stop()


def raw(c: RoomClient, path: str):  # noqa: ANN201
    """A GET whose answer is not JSON (CSV, HTML, CSS)."""
    return c.http.get(path, headers={"Authorization": f"Bearer {c.token}"})


def client(server, ev: int, name: str) -> RoomClient:
    c = RoomClient(server.url)
    c.sign_in(ev, name, PASSWORD)
    return c


async def stand_until_settled(dealer: TableClient, players: dict[int, TableClient]) -> dict:
    """Each player stands (declining insurance or early surrender first) until the round ends."""
    while True:
        st = dealer.state
        rd = st["round"]
        if rd["phase"] == "settled":
            return st
        seat = rd["to_act"]
        mine = await players[seat].wait(lambda s, v=st["version"]: s["version"] >= v)
        legal = mine["round"]["legal_actions"]
        action = next(a for a in ("stand", "no_insurance", "play_on") if a in legal)
        ack = await players[seat].act(action)
        await dealer.wait(lambda s, v=ack["version"]: s["version"] >= v)


def scripted_evening(server, room, cast) -> dict:
    """Alice and Bob buy in $100 each; one Blackjack round (Alice +$10, Bob −$5); Alice
    leaves the table and cashes out $60; Bob stays seated with $45 at the table."""
    ev = cast.event.id
    admin = client(server, ev, "admin")
    admin.buy_in(cast.alice.id, 10_000)
    admin.buy_in(cast.bob.id, 10_000)
    c = {n: client(server, ev, n) for n in ("Bokuden", "Alice", "Bob")}
    table = c["Bokuden"].open_table("Evening", overrides={"min_bet": 100, "max_bet": 5_000})

    async def go() -> dict:
        dealer = await TableClient.connect(server.url, table["id"], c["Bokuden"].token)
        alice = await TableClient.connect(server.url, table["id"], c["Alice"].token)
        bob = await TableClient.connect(server.url, table["id"], c["Bob"].token)
        await alice.act("sit", seat=1, amount=5_000)
        await bob.act("sit", seat=2, amount=5_000)
        await dealer.act("start_round")
        await alice.act("bet", amount=1_000)
        await bob.act("bet", amount=500)
        ack = await dealer.act("deal")
        await dealer.wait(lambda s: s["version"] >= ack["version"])
        st = await stand_until_settled(dealer, {1: alice, 2: bob})
        await alice.act("leave_seat")
        for x in (dealer, alice, bob):
            await x.close()
        return st

    st = asyncio.run(go())
    nets: dict[int, int] = {}
    for r in st["log"]:
        if r["type"] == "payout":
            nets[r["seat"]] = nets.get(r["seat"], 0) + r["net"]
    assert nets == {1: 1_000, 2: -500}  # the stacked shoe did what it says
    admin.cash_out(cast.alice.id, 6_000)
    return {"table": table, "admin": admin, **c}


def test_the_report_agrees_with_the_ledger_to_the_cent(server, room, cast) -> None:
    s = scripted_evening(server, room, cast)
    ev = cast.event.id
    rep = report.build(room.store, ev)
    by = {p.name: p for p in rep.players}
    assert (by["Alice"].buy_ins, by["Alice"].cash_outs, by["Alice"].chips, by["Alice"].net,
            by["Alice"].hands) == (10_000, 6_000, 5_000, 1_000, 1)
    assert (by["Bob"].buy_ins, by["Bob"].cash_outs, by["Bob"].chips, by["Bob"].net,
            by["Bob"].hands) == (10_000, 0, 9_500, -500, 1)
    [tl] = rep.tables
    assert (tl.table, tl.dealer, tl.hands, tl.voided, tl.house_result) == (s["table"]["id"], "Bokuden", 1, 0, -500)
    assert [(d.dealer, d.hands, d.house_result) for d in rep.dealers] == [("Bokuden", 1, -500)]
    assert [w.name for w in rep.winners] == ["Alice"]
    t = rep.totals
    # the audit of `syndicate admin check`, and the identity it implies: nets are minus the house
    assert rep.audit == room.ledger.audit(ev) == []
    assert t.ledger_total == room.ledger.total(ev) == 0
    assert t.players_net == sum(p.net for p in rep.players) == 500 == -t.house_result
    assert (t.buy_ins, t.cash_outs, t.chips_held, t.cashier) == (20_000, 6_000, 14_500, -14_000)
    assert rep.agrees

    # the same over HTTP, for the admin and a pit boss
    for who in (s["admin"], client(server, ev, "Jean-Marc")):
        got = who.request("GET", "/api/report")
        assert got["totals"] == json.loads(json.dumps(rep.to_json()["totals"]))
        assert got["agrees"] is True


def test_the_ledger_csv_has_every_line(server, room, cast) -> None:
    s = scripted_evening(server, room, cast)
    r = raw(s["admin"], "/api/report/ledger.csv")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    assert "attachment" in r.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(r.text)))
    with room.store.transaction() as repo:
        entries = repo.event_entries(cast.event.id)
    assert len(rows) == len(entries) > 5
    assert [int(x["entry"]) for x in rows] == [e.entry_id for e in entries]
    assert [int(x["amount_cents"]) for x in rows] == [e.amount for e in entries]
    kinds = {x["kind"] for x in rows}
    assert {"buy_in", "cash_out", "sit_down", "stand_up", "blackjack"} <= kinds


def test_the_series_follow_the_ledger(server, room, cast) -> None:
    s = scripted_evening(server, room, cast)
    admin = s["admin"]
    house = admin.request("GET", "/api/series/house")
    [table] = house["series"]
    assert table["values"][-1] == -500 and len(house["times"]) == len(table["values"]) >= 1
    leaders = admin.request("GET", "/api/series/leaders")
    final = {x["label"]: x["values"][-1] for x in leaders["series"]}
    assert final == {"Bob": 9_500, "Alice": 5_000}
    assert [x["label"] for x in leaders["series"]][:2] == ["Bob", "Alice"]  # most chips first
    mine = s["Alice"].request("GET", f"/api/accounts/{cast.alice.id}/chips")
    [alice] = mine["series"]
    # bought $100; sat down and stood up (no change: her own chips); her $10 bet to the table,
    # $20 back from it; cashed out $60
    assert alice["values"] == [10_000, 9_000, 11_000, 5_000]
    assert times_rise(mine["times"])


def times_rise(times: list[float]) -> bool:
    return all(a <= b for a, b in zip(times, times[1:], strict=False))


def test_only_the_host_reads_the_report_and_others_chips(server, room, cast) -> None:
    ev = cast.event.id
    room.cashier.buy_in(cast.admin, cast.alice.id, 1_000)
    alice, dealer, sam = (client(server, ev, n) for n in ("Alice", "Bokuden", "Sam"))
    for who in (alice, dealer, sam):
        for path in ("/api/report", "/api/report/ledger.csv", "/api/report/page", "/api/series/house",
                     "/api/series/leaders", f"/api/accounts/{cast.bob.id}/chips"):
            with pytest.raises(ApiError) as e:
                who.request("GET", path)
            assert e.value.status == 403, path
    with pytest.raises(ApiError) as e:
        RoomClient(server.url).request("GET", "/api/report")
    assert e.value.status == 401
    assert alice.request("GET", f"/api/accounts/{cast.alice.id}/chips")["series"][0]["values"] == [1_000]


def test_the_printable_page_and_the_cli(server, room, cast, database, tmp_path) -> None:
    s = scripted_evening(server, room, cast)
    r = raw(s["admin"], "/api/report/page")
    assert r.status_code == 200 and "<script" not in r.text
    assert "@media print" in raw(s["admin"], "/api/report/print.css").text
    assert "Alice" in r.text and "$10.00" in r.text and "The totals agree." in r.text
    runner = CliRunner()
    out = runner.invoke(cli_app, ["report", "--db", database.url, "--event", cast.event.name])
    assert out.exit_code == 0, out.output
    assert "The totals agree." in out.output and "ledger sound" in out.output
    assert "Alice" in out.output and "$10.00" in out.output and "-$5.00" in out.output
    target = tmp_path / "night.json"
    out = runner.invoke(cli_app, ["report", "--db", database.url, "--event", cast.event.name, "--format", "json",
                                  "--output", str(target)])
    assert out.exit_code == 0, out.output
    doc = json.loads(target.read_text())
    assert doc["totals"]["players_net"] == 500 and doc["totals"]["house_result"] == -500
    assert len(doc["entries"]) == doc["ledger_lines"] > 5
    out = runner.invoke(cli_app, ["report", "--db", database.url, "--event", "No such night"])
    assert out.exit_code == 2 and "no event called 'No such night'" in out.output
    out = runner.invoke(cli_app, ["report", "--db", database.url, "--format", "pdf", "--event", cast.event.name])
    assert out.exit_code == 2 and "text, json, csv, players or html" in out.output


def test_the_hand_search_names_the_players(server, room, cast) -> None:
    """Each hand found lists its players by name with their net, not seat numbers alone."""
    s = scripted_evening(server, room, cast)
    [hand] = s["admin"].hands(table=s["table"]["id"])
    assert hand["players"] == [{"seat": 1, "name": "Alice", "net": 1_000}, {"seat": 2, "name": "Bob", "net": -500}]
    assert s["Alice"].hands(player=cast.alice.id)[0]["players"][0]["name"] == "Alice"


def test_the_report_counts_bots_as_the_house_float(server, room, cast, database) -> None:
    from syndicate.room.ledger import is_bot, table_account, transfer
    from syndicate.room.seating import stack_key
    from syndicate.room.values import Move

    ev = cast.event.id
    dealer = RoomClient(server.url)
    dealer.sign_in(ev, "Bokuden", PASSWORD)
    table = dealer.open_table("Bots' night", game="poker")["id"]
    room.cashier.set_float(cast.admin, 100_000)

    async def go() -> None:
        d = await TableClient.connect(server.url, table, dealer.token or "")
        await d.act("add_bots", count=2)
        await d.close()

    asyncio.run(go())
    bots = [a for a in room.accounts.all(ev) if is_bot(a)]
    assert len(bots) == 2
    # A bot loses $12.34 to the house at the table, as a settled bet would move it.
    with room.store.transaction() as repo:
        stack = repo.ledger_account(ev, stack_key(table, bots[0].id), "player", "stack")
        house = table_account(repo, ev, table, "Bots' night")
        transfer(repo, ev, [Move(stack.id, house.id, 1234)], "bet", "a bot's lost bet")
    r = report.build(room.store, ev)
    assert r.agrees, r.totals
    assert r.totals.house_result == 1234 and r.totals.float_result == -1234 and r.totals.players_net == 0
    names = {b.name for b in bots}
    assert not names & {p.name for p in r.players} and not names & {w.name for w in r.winners}
    leaders = report.chips_series(room.store, ev)
    assert not names & {s["label"] for s in leaders["series"]}
    out = CliRunner().invoke(cli_app, ["report", "--db", database.url, "--event", cast.event.name])
    assert out.exit_code == 0, out.output
    assert "The totals agree." in out.output and "-$12.34" in out.output
    dealer.close()


def test_the_house_counts_a_hand_once_it_is_settled(server, room, cast) -> None:
    """Bets on a hand in play sit in the table's ledger account, but they are the players' until
    the hand is settled: the figures, the report and the house's chart leave them out until then
    (no spike while the pot is in play), and the totals still agree."""
    ev = cast.event.id
    admin = client(server, ev, "admin")
    admin.buy_in(cast.alice.id, 10_000)
    admin.buy_in(cast.bob.id, 10_000)
    c = {n: client(server, ev, n) for n in ("Bokuden", "Alice", "Bob")}
    table = c["Bokuden"].open_table("Pot in play", overrides={"min_bet": 100, "max_bet": 5_000})["id"]

    def house() -> tuple[dict, dict, report.Report]:
        [row] = [r for r in admin.request("GET", "/api/figures") if r["table"] == table]
        series = admin.request("GET", "/api/series/house")
        return row, series, report.build(room.store, ev)

    async def go() -> None:
        dealer = await TableClient.connect(server.url, table, c["Bokuden"].token)
        alice = await TableClient.connect(server.url, table, c["Alice"].token)
        bob = await TableClient.connect(server.url, table, c["Bob"].token)
        await alice.act("sit", seat=1, amount=5_000)
        await bob.act("sit", seat=2, amount=5_000)
        await dealer.act("start_round")
        await alice.act("bet", amount=1_000)
        await bob.act("bet", amount=500)
        ack = await dealer.act("deal")
        await dealer.wait(lambda s: s["version"] >= ack["version"])
        row, series, rep = await asyncio.to_thread(house)
        assert (row["house_result"], row["in_play"]) == (0, 1_500)  # the bets are in play, not the house's
        assert all(v == 0 for s in series["series"] for v in s["values"])
        assert rep.tables[0].in_play == rep.totals.in_play == 1_500 and rep.totals.house_result == 0
        assert rep.agrees, rep.totals
        await stand_until_settled(dealer, {1: alice, 2: bob})
        for x in (dealer, alice, bob):
            await x.close()

    asyncio.run(go())
    row, series, rep = house()
    assert (row["house_result"], row["in_play"]) == (-500, 0)  # Alice won $10, Bob lost $5
    [line] = series["series"]
    assert line["values"] == [-500]  # one point, when the hand was settled: never +$15
    assert rep.totals.in_play == 0 and rep.totals.house_result == -500 and rep.agrees


def test_each_players_summary_as_csv_and_the_walk_ins_marked(server, room, cast, database) -> None:
    s = scripted_evening(server, room, cast)
    ev = cast.event.id
    s["admin"].buy_in(cast.alice.id, 2_500)  # more chips, after her first buy-in

    async def walk_in() -> None:
        dealer = await TableClient.connect(server.url, s["table"]["id"], s["Bokuden"].token)
        await dealer.act("seat_walk_in", seat=3, name="Kenji", amount=4_000)
        await dealer.close()

    asyncio.run(walk_in())
    r = raw(s["admin"], "/api/report/players.csv")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    assert "attachment" in r.headers["content-disposition"] and "players.csv" in r.headers["content-disposition"]
    rows = {x["player"]: x for x in csv.DictReader(io.StringIO(r.text))}
    assert set(rows) == {"Alice", "Bob", "Kenji"}
    cents = ("start_cents", "bought_cents", "won_lost_cents", "cashed_out_cents", "now_cents")
    assert [int(rows["Alice"][k]) for k in cents] == [10_000, 2_500, 1_000, 6_000, 7_500]
    assert [int(rows["Bob"][k]) for k in cents] == [10_000, 0, -500, 0, 9_500]
    assert [int(rows["Kenji"][k]) for k in cents] == [4_000, 0, 0, 0, 4_000]
    assert (rows["Alice"]["start"], rows["Alice"]["won_lost"], rows["Alice"]["now"]) == ("$100.00", "$10.00", "$75.00")
    assert [rows[n]["walk_in"] for n in ("Alice", "Bob", "Kenji")] == ["no", "no", "yes"]
    for row in rows.values():  # start + bought + won or lost - cashed out = now
        start, bought, won, out, now = (int(row[k]) for k in cents)
        assert start + bought + won - out == now
    # the printable page and the text mark the walk-in
    page = raw(s["admin"], "/api/report/page").text
    assert "Kenji (walk-in)" in page and "Alice (walk-in)" not in page and "/api/report/players.csv" in page
    text = report.text(report.build(room.store, ev))
    assert "Kenji (walk-in)" in text and "Bob (walk-in)" not in text
    out = CliRunner().invoke(cli_app, ["report", "--db", database.url, "--event", cast.event.name, "--format", "players"])
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[0].startswith("player,account,walk_in,start,bought,won_lost,cashed_out,now")
    with pytest.raises(ApiError) as e:
        s["Alice"].request("GET", "/api/report/players.csv")
    assert e.value.status == 403
