"""A charity night's prizes through the API (docs/prize-draw.md): 20 guests checked in at the
door, two raffle waves, each closed (the guests' chips into numbered tickets each guest sees) and
drawn with a witness from the room; each proof verified by ``syndicate verify`` and by a verifier
written from the doc alone; the chips converted agree with the ledger to the cent."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from syndicate.apps.cli import app as cli
from syndicate.room.ledger import player_key
from syndicate.room.live.clocks import Timers
from syndicate.web import create_app
from tests.kit.room import FAST_HASHER, bearer
from tests.kit.table import local_room
from tests.test_prize_draw_doc import doc_verify

from .test_door_api import CSV, NAMES


def _play(room, cast, guests: list[int]) -> dict[str, int]:  # type: ignore[no-untyped-def]
    """Three Blackjack rounds for two guests at a table of their own, standing on every hand;
    the hands played and what the house won."""
    table = room.tables.open(cast.dealer, "Charity 21", overrides={"min_bet": 500, "max_bet": 5_000})
    players = [room.accounts.get(cast.event.id, g) for g in guests]

    async def go() -> None:
        async with local_room(room, Timers()) as local:
            dealer = await local.connect(table.id, cast.dealer)
            seated = [await local.connect(table.id, p) for p in players]
            for i, c in enumerate(seated, 1):
                await c.act("sit", seat=i, amount=50_000)
            for _ in range(3):
                await dealer.act("start_round")
                for c in seated:
                    await c.act("bet", amount=1_000)
                ack = await dealer.act("deal")
                st = await dealer.wait(lambda s, v=ack["version"]: s["version"] >= v)
                while st["round"]["phase"] != "settled":
                    c = seated[st["round"]["to_act"] - 1]
                    mine = await c.wait(lambda s, v=st["version"]: s["version"] >= v)
                    legal = mine["round"]["legal_actions"]
                    ack = await c.act(next(a for a in ("stand", "no_insurance", "play_on") if a in legal))
                    st = await dealer.wait(lambda s, v=ack["version"]: s["version"] >= v)
            for c in seated:
                await c.act("leave_seat")

    asyncio.run(go())
    rep = room.ledger.balance(cast.event.id, f"table:{table.id}")
    with room.store.transaction() as repo:
        hands = [h for h in repo.hands(cast.event.id, table.id) if h.status == "settled"]
    return {"hands": len(hands), "house": rep}


@pytest.fixture
def client(database, room, cast):  # type: ignore[no-untyped-def]
    app = create_app(database=database, hasher=FAST_HASHER, migrate=False, current_event=cast.event.name)
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def test_two_waves_from_the_door_to_verified_winners(client, room, cast, tmp_path: Path) -> None:
    admin = bearer(client, cast.event.id, "admin")
    client.put("/api/door/rate", json={"paid": 2_000, "chips": 100_000}, headers=admin)
    assert client.post("/api/door/guests", json={"csv": CSV}, headers=admin).status_code == 201
    ids = {}
    for i, name in enumerate(NAMES):
        [g] = client.get("/api/door/guests", params={"q": name}, headers=admin).json()
        ids[name] = g["id"]
        r = client.post(f"/api/door/guests/{g['id']}/check-in", json={"method": "cash", "paid": 2_000 + 100 * i},
                        headers=admin)
        assert r.status_code == 201, r.text
    # two guests play Blackjack before the first wave: their chips move, and the ledger follows
    played = _play(room, cast, [ids["Ako Tanaka"], ids["Ben Ortiz"]])
    assert played["hands"] == 3
    # wave 1 guarantees every guest a ticket; wave 2 counts only chips
    rules = {1: {"rate": 25_000, "rounding": "up", "minimum": 1, "cap": 10}, 2: {"rate": 25_000, "rounding": "up"}}
    waves = []
    for n in (1, 2):
        r = client.post("/api/draws", json={"name": f"Wave {n}", "tickets": rules[n],
                                             "prizes": [{"name": f"Prize {n}a", "value": 5_000},
                                                        {"name": f"Prize {n}b", "value": 2_500}],
                                             "one_prize_per_guest": True}, headers=admin)
        assert r.status_code == 201, r.text
        assert r.json()["seed"] is None and len(r.json()["commitment"]) == 64
        waves.append(r.json()["id"])
    cashier_before = room.ledger.balance(cast.event.id, "cashier")
    chips = {g: room.ledger.balance(cast.event.id, player_key(g)) for g in ids.values()}
    assert sum(chips.values()) == sum(100_000 + 5_000 * i for i in range(20)) - played["house"]
    closed = client.post(f"/api/draws/{waves[0]}/close", headers=admin).json()
    # about $1,000 of chips each: a ticket per $250, rounded up, at least 1, at most 10
    assert len(closed["tickets"]) == sum(min(10, max(1, -(-c // 25_000))) for c in chips.values())
    assert room.ledger.balance(cast.event.id, "cashier") == cashier_before + sum(chips.values())
    again = client.post(f"/api/draws/{waves[0]}/close", headers=admin)
    assert again.status_code == 409 and again.json()["error"]["rule"] == "draw_closed"
    # a guest sees their own tickets on their phone
    alice_like = client.get("/api/me/tickets", headers=admin).json()
    assert [t["tickets"] for t in alice_like] == [[], []]  # the admin holds none
    drawn = client.post(f"/api/draws/{waves[0]}/draw", json={"witness": "4 and 6"}, headers=admin).json()
    assert drawn["seed"] and len({w["holder"] for w in drawn["winners"]}) == 2
    assert doc_verify(drawn)
    path = tmp_path / "wave1.json"
    path.write_text(json.dumps(client.get(f"/api/draws/{waves[0]}", headers=admin).json()), encoding="utf-8")
    out = CliRunner().invoke(cli, ["verify", str(path)])
    assert out.exit_code == 0 and out.output.rstrip().endswith("verified"), out.output
    # wave 2: every bankroll is empty until more is paid at the door
    r = client.post(f"/api/draws/{waves[1]}/close", headers=admin)
    assert r.status_code == 409 and r.json()["error"]["rule"] == "draw_needs_tickets"
    client.post(f"/api/door/guests/{ids['Ako Tanaka']}/payments", json={"method": "card", "paid": 1_000}, headers=admin)
    wave2 = client.post(f"/api/draws/{waves[1]}/close", headers=admin).json()
    assert [h for _, h in wave2["tickets"]] == [ids["Ako Tanaka"]] * 2  # $500 of chips: 2 tickets
    wave2 = client.post(f"/api/draws/{waves[1]}/draw", json={"witness": ""}, headers=admin).json()
    assert len(wave2["winners"]) == 1 and doc_verify(wave2)  # one prize per guest: one ticket holder, one prize
    # the last prize of the night to the most chips: three guests give more at the door
    top = client.post("/api/draws", json={"name": "Top chips", "kind": "top",
                                          "prizes": [{"name": "Trophy", "value": 0}]}, headers=admin).json()
    for name, paid in (("Ben Ortiz", 3_000), ("Cleo Park", 9_000), ("Dan Wu", 1_000)):
        client.post(f"/api/door/guests/{ids[name]}/payments", json={"method": "cash", "paid": paid}, headers=admin)
    closed_top = client.post(f"/api/draws/{top['id']}/close", headers=admin).json()
    assert closed_top["standings"] == sorted([[ids["Ben Ortiz"], 150_000], [ids["Cleo Park"], 450_000],
                                              [ids["Dan Wu"], 50_000]])
    top = client.post(f"/api/draws/{top['id']}/draw", json={}, headers=admin).json()
    assert top["winners"] == [{"prize": 1, "holder": ids["Cleo Park"]}]
    path.write_text(json.dumps(top), encoding="utf-8")
    out = CliRunner().invoke(cli, ["verify", str(path)])
    assert out.exit_code == 0 and "prize 1 (Trophy): guest" in out.output, out.output
    assert room.ledger.total(cast.event.id) == 0

    # The end-of-night report: the door's donations apart from the chips, the chips converted,
    # each draw's winners and proof, agreeing with the ledger to the cent.
    report = client.get("/api/report", headers=admin).json()
    night = report["charity"]
    payments = client.get("/api/door/payments", headers=admin).json()
    assert night["donations"] == sum(p["paid"] for p in payments) == sum(2_000 + 100 * i for i in range(20)) + 14_000
    assert night["paid"] == {"cash": sum(2_000 + 100 * i for i in range(20)) + 13_000, "card": 1_000}
    assert night["chips_issued"] == sum(p["chips"] for p in payments)
    assert night["chips_converted"] == sum(chips.values()) + 50_000 + 650_000
    assert [d["name"] for d in night["draws"]] == ["Wave 1", "Wave 2", "Top chips"]
    assert night["draws"][2]["prizes"][0]["winner"] == "Cleo Park"
    assert night["draws"][0]["seed"] == drawn["seed"] and night["draws"][0]["tickets"] == len(drawn["tickets"])
    assert [p["ticket"] for p in night["draws"][0]["prizes"]] == [w["ticket"] for w in drawn["winners"]]
    assert report["agrees"]
    page = client.get("/api/report/page", headers=admin).text
    assert "Donations and chips at the door" in page and "Draw Wave 1 (drawn)" in page and drawn["seed"] in page


def test_the_nights_rules_through_the_api(client, room, cast) -> None:
    """``play_money`` and ``prize_cap`` through ``PATCH /api/events/{id}``: the admin's alone, a
    wrong value refused in words, and on such a night the cashier's cash-out refused (409, rule
    ``play_money``) with nothing moved."""
    ev = cast.event.id
    admin, boss = bearer(client, ev, "admin"), bearer(client, ev, "Jean-Marc")
    r = client.patch(f"/api/events/{ev}", json={"play_money": True}, headers=boss)
    assert r.status_code == 403 and r.json()["error"]["rule"] == "event_settings"
    for bad in ({"play_money": "yes"}, {"play_money": None}, {"prize_cap": -1}, {"prize_cap": 1.5}):
        r = client.patch(f"/api/events/{ev}", json=bad, headers=admin)
        assert r.status_code in (400, 422), (bad, r.text)
        assert client.get("/api/events/current").json()["play_money"] is False
    r = client.patch(f"/api/events/{ev}", json={"play_money": True, "prize_cap": 50_000}, headers=admin)
    assert r.status_code == 200 and r.json()["play_money"] is True and r.json()["prize_cap"] == 50_000
    assert client.get("/api/events/current").json()["play_money"] is True
    client.post("/api/cashier/buy-in", json={"player": cast.alice.id, "amount": 10_000}, headers=boss)
    for path, body in (("cash-out", {"player": cast.alice.id, "amount": 5_000}),
                       ("cash-out-all", {"player": cast.alice.id})):
        r = client.post(f"/api/cashier/{path}", json=body, headers=boss)
        assert r.status_code == 409 and r.json()["error"]["rule"] == "play_money", r.text
        assert "no cash value" in r.json()["error"]["message"]
    assert room.ledger.balance(ev, player_key(cast.alice.id)) == 10_000
    r = client.post("/api/draws", json={"name": "Too rich", "kind": "top", "prizes": [{"name": "Car", "value": 50_001}]},
                    headers=admin)
    assert r.status_code == 409 and r.json()["error"]["rule"] == "prize_cap" and "$500.00" in r.json()["error"]["message"]
    assert client.get("/api/draws", headers=admin).json() == []
