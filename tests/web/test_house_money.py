"""House money and the guards around it (security issue, parts 3 and 4): table stakes within
the event's bounds, bots only on the admin's float, role changes read the live seats, and the
pages' event is the one the deployment names, not the newest."""

from __future__ import annotations

import asyncio
import secrets

import pytest
from fastapi.testclient import TestClient

from syndicate.apps.client import ActionRefused, RoomClient, TableClient
from syndicate.room.errors import BadRequest, Conflict, Forbidden, NotFound
from syndicate.room.ledger import HOUSE_FLOAT, MAX_FLOAT
from syndicate.room.seating import stack_key
from syndicate.web import create_app
from tests.kit.room import FAST_HASHER, PASSWORD, bearer, make_cast


@pytest.fixture
def client(database, room):
    app = create_app(database=database, hasher=FAST_HASHER, migrate=False)
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


# -- table limits within the event's bounds ---------------------------------------------------
@pytest.mark.parametrize("overrides, key", [
    ({"max_bet": 100_000_00, "max_raise": 100_000_00}, "max_bet"),  # the $70M recipe's table
    ({"max_bet": 1_000}, "max_bet"),
    ({"max_ante": 1_000}, "max_ante"),
])
def test_a_draw_table_beyond_the_house_rule_is_refused(client, room, cast, overrides, key) -> None:
    h = bearer(client, cast.event.id, "Bokuden")
    r = client.post("/api/tables", json={"name": "Whale", "game": "poker", "overrides": overrides}, headers=h)
    assert r.status_code == 400, r.text
    err = r.json()["error"]
    assert err["rule"] == "table_limits" and key in err["message"] and "$0.50 to $5.00" in err["message"]
    assert room.tables.lobby(cast.event.id) == []  # nothing opened


def test_the_admin_widens_the_bounds_and_only_the_admin(client, room, cast) -> None:
    ev = cast.event.id
    big = {"name": "High stakes", "game": "poker", "overrides": {"max_bet": 1_000, "max_raise": 1_000}}
    dealer, admin = bearer(client, ev, "Bokuden"), bearer(client, ev, "admin")
    assert client.post("/api/tables", json=big, headers=dealer).status_code == 400
    wider = {"game": "poker", "min_bet": 50, "max_bet": 1_000}
    refused = client.put("/api/limits", json=wider, headers=dealer)
    assert refused.status_code == 403 and refused.json()["error"]["rule"] == "set_limits"
    assert client.get(f"/api/events/{ev}/limits").json()["poker"] == {"min_bet": 50, "max_bet": 500}
    ok = client.put("/api/limits", json=wider, headers=admin)
    assert ok.status_code == 200 and ok.json()["poker"] == {"min_bet": 50, "max_bet": 1_000}
    t = client.post("/api/tables", json=big, headers=dealer)
    assert t.status_code == 201 and t.json()["rules"]["max_bet"] == 1_000
    # Blackjack keeps its own bounds ($1 to $500) and the room refuses bounds upside down.
    bj = client.post("/api/tables", json={"name": "BJ", "overrides": {"max_bet": 100_000}}, headers=dealer)
    assert bj.status_code == 400 and "$1.00 to $500.00" in bj.json()["error"]["message"]
    with pytest.raises(BadRequest) as e:
        room.tables.set_bounds(cast.admin, "blackjack", 5_000, 100)
    assert e.value.rule == "table_limits"


# -- the bots' float --------------------------------------------------------------------------
def test_the_float_is_set_by_the_admin_bounded_and_in_the_ledger(client, room, cast) -> None:
    ev = cast.event.id
    admin = bearer(client, ev, "admin")
    assert client.get("/api/float", headers=admin).json() == {"float": 0, "used": 0, "remaining": 0,
                                                              "max": MAX_FLOAT}
    for amount in (-1, MAX_FLOAT + 1, 1.5, "100"):
        assert client.put("/api/float", json={"amount": amount}, headers=admin).status_code == 422
    with pytest.raises(BadRequest) as e:
        room.cashier.set_float(cast.admin, MAX_FLOAT + 1)
    assert e.value.rule == "house_float"
    with pytest.raises(Forbidden):
        room.cashier.set_float(cast.dealer, 100)
    r = client.put("/api/float", json={"amount": 250_000}, headers=admin)
    assert r.status_code == 200 and r.json()["remaining"] == 250_000
    assert client.put("/api/float", json={"amount": 100_000}, headers=admin).json()["float"] == 100_000
    lines = room.ledger.explain(ev, HOUSE_FLOAT)
    assert [x.line.amount for x in lines] == [250_000, -150_000] and lines[-1].balance == 100_000
    assert all(x.line.kind == "house_float" and x.line.other == "the cashier" for x in lines)
    assert room.ledger.audit(ev) == [] and room.ledger.total(ev) == 0


def test_bots_need_the_float(server, room, cast) -> None:
    ev = cast.event.id
    dealer = RoomClient(server.url)
    dealer.sign_in(ev, "Bokuden", PASSWORD)
    table = dealer.open_table("No float", game="poker")["id"]

    async def go() -> None:
        d = await TableClient.connect(server.url, table, dealer.token or "")
        with pytest.raises(Exception) as e:
            await d.act("add_bots", count=1)
        assert getattr(e.value, "rule", None) == "house_float" and "$500.00" in str(e.value)
        room.cashier.set_float(cast.admin, 50_000)  # one bot's stake: 100 maximum bets of $5
        await d.act("add_bots", count=1)
        with pytest.raises(Exception) as e:
            await d.act("add_bots", count=1)
        assert getattr(e.value, "rule", None) == "house_float"
        await d.close()

    asyncio.run(go())
    assert room.cashier.float_status(ev) == {"float": 50_000, "used": 50_000, "remaining": 0, "max": MAX_FLOAT}
    with pytest.raises(Conflict) as e:  # the admin cannot take back chips the bots hold
        room.cashier.set_float(cast.admin, 0)
    assert e.value.rule == "house_float"
    assert room.ledger.audit(ev) == [] and room.ledger.total(ev) == 0
    board = dealer.http.get(f"/api/events/{ev}/leaderboard").json()
    assert all(not r["player"].startswith("Bot ") for r in board)
    dealer.close()


def test_the_dealer_chooses_a_bots_chips(server, room, cast) -> None:
    """``add_bots`` with ``amount``: each bot sits down with that many chips from the float,
    within the table's stakes (one minimum bet to 100 maximum bets; rule ``amount`` otherwise)
    and what the float holds (rule ``house_float``); without it, 100 maximum bets as before.
    A refusal seats no bot and moves nothing."""
    ev = cast.event.id
    room.cashier.set_float(cast.admin, 60_000)
    dealer = RoomClient(server.url)
    dealer.sign_in(ev, "Bokuden", PASSWORD)
    table = dealer.open_table("Cheap bots", overrides={"min_bet": 200, "max_bet": 500})["id"]

    async def go() -> None:
        d = await TableClient.connect(server.url, table, dealer.token or "")
        for amount, rule in ((199, "amount"), (50_001, "amount"), (0, "amount"), (2.5, "amount"),
                             ("20", "amount"), (30_000, "house_float")):
            before = d.version
            with pytest.raises(ActionRefused) as e:
                await d.act("add_bots", count=3 if rule == "house_float" else 1, amount=amount)
            assert e.value.rule == rule and e.value.version == before, (amount, e.value)
        refused = [m for m in d.messages if m.get("type") == "error"]
        assert "$2.00" in refused[0]["message"] and "$500.00" in refused[0]["message"]  # the bounds, named
        await d.act("add_bots", count=2, amount=200)  # one minimum bet each: the least
        await d.act("add_bots", count=1)  # the default: 100 maximum bets
        st = await d.wait(lambda s: len(s["seats"]) == 3)
        assert sorted(s["stack"] for s in st["seats"]) == [200, 200, 50_000]
        assert room.cashier.float_status(ev) == {"float": 60_000, "used": 50_400, "remaining": 9_600,
                                                 "max": MAX_FLOAT}
        await d.act("start_round")  # the cheap bots bet their one minimum bet
        await d.wait(lambda s: s["round"] is not None and sum(1 for x in s["round"]["seats"] if x["bet"]) == 3)
        await d.close()

    asyncio.run(go())
    assert room.ledger.audit(ev) == [] and room.ledger.total(ev) == 0
    dealer.close()


# -- a role change reads the live seats -------------------------------------------------------
def test_a_player_with_their_whole_stack_in_a_hand_keeps_their_role(server, room, cast) -> None:
    ev = cast.event.id
    room.cashier.buy_in(cast.admin, cast.alice.id, 20_000)
    admin, alice_rest = RoomClient(server.url), RoomClient(server.url)
    admin.sign_in(ev, "admin", PASSWORD)
    alice_rest.sign_in(ev, "Alice", PASSWORD)
    dealer = RoomClient(server.url)
    dealer.sign_in(ev, "Bokuden", PASSWORD)
    table = dealer.open_table("All in", overrides={"min_bet": 100, "max_bet": 500})["id"]

    async def all_in() -> None:
        d = await TableClient.connect(server.url, table, dealer.token or "")
        a = await TableClient.connect(server.url, table, alice_rest.token or "")
        while True:  # her whole stack on a hand still in play
            await a.act("sit", seat=1, amount=500)
            await d.act("start_round")
            await a.act("bet", amount=500)
            ack = await d.act("deal")
            st = await d.wait(lambda s: s["version"] >= ack["version"])
            if st["round"]["phase"] != "settled":
                break
            await a.act("leave_seat")  # settled at once on a blackjack: again
        assert room.ledger.balance(ev, stack_key(table, cast.alice.id)) == 0  # the ledger sees no chips
        r = admin.http.patch(f"/api/accounts/{cast.alice.id}", json={"role": "dealer"},
                             headers={"Authorization": f"Bearer {admin.token}"})
        assert r.status_code == 409 and r.json()["error"]["rule"] == "in_play", r.text
        assert "seated" in r.json()["error"]["message"]
        assert room.accounts.get(ev, cast.alice.id).role == "player"
        for c in (d, a):
            await c.close()

    asyncio.run(all_in())
    for c in (admin, alice_rest, dealer):
        c.close()


# -- the current event ------------------------------------------------------------------------
def test_the_pages_event_is_the_deployments_not_the_newest(database, room) -> None:
    first = make_cast(room)
    app = create_app(database=database, hasher=FAST_HASHER, migrate=False, current_event=first.event.name)
    with TestClient(app, raise_server_exceptions=False) as client:
        assert client.get("/api/events/current").json() == {"id": first.event.id, "name": first.event.name,
                                                             "ended_at": None, "play_money": False,
                                                             "door": None}  # ended_at: set once it has ended
        r = client.post("/api/events", json={"name": "Evil night " + secrets.token_hex(3),
                                             "admin": {"name": "Mallory", "password": PASSWORD}},
                        headers=bearer(client, first.event.id, "admin"))
        assert r.status_code == 201
        assert client.get("/api/events/current").json()["id"] == first.event.id
        # The new event's admin cannot create events in turn: only the current event's admins do.
        evil = client.post("/api/events", json={"name": "Evil night II", "admin": {"name": "M2", "password": PASSWORD}},
                           headers=bearer(client, r.json()["id"], "Mallory"))
        assert evil.status_code == 403 and evil.json()["error"]["rule"] == "create_event"
        current = [e for e in client.get("/api/events").json() if e["current"]]
        assert [e["id"] for e in current] == [first.event.id]
    # The pages ask the server for its current event; they never pick the newest of the list.
    from pathlib import Path

    import syndicate.web

    js = (Path(syndicate.web.__file__).parent / "static" / "js" / "common.js").read_text()
    assert "/api/events/current" in js and "events.length - 1" not in js


def test_without_a_name_the_current_event_is_the_one_made_first(database, room) -> None:
    first, _later = make_cast(room), make_cast(room)
    app = create_app(database=database, hasher=FAST_HASHER, migrate=False)
    with TestClient(app, raise_server_exceptions=False) as client:
        evs = client.get("/api/events").json()
        # The rule (docs/server.md): "Casino night", the event the first start makes, if there is
        # one (the test database is shared, and another test may have made it), else the oldest.
        named = [e["id"] for e in evs if e["name"] == "Casino night"]
        expected = named[0] if named else min(e["id"] for e in evs)
        assert client.get("/api/events/current").json()["id"] == expected
    assert expected not in (_later.event.id,) and (named or expected <= first.event.id)


def test_serve_refuses_an_unknown_current_event(tmp_path) -> None:
    from syndicate.apps.server import serve

    with pytest.raises(NotFound) as e:
        serve(f"sqlite:///{tmp_path / 'x.db'}", event="No such night")
    assert e.value.rule == "current_event" and "No such night" in str(e.value)


@pytest.mark.parametrize("who", ["Jean-Marc", "Bokuden", "Alice", "Sam", None, "Mallory"])
def test_only_an_admin_creates_events(client, room, cast, who) -> None:
    """Only an admin of the current event: not the other roles, nor the admin of another event."""
    event = cast.event.id
    if who == "Mallory":
        other = room.accounts.create_event("Other " + secrets.token_hex(3))
        room.accounts.add(other.id, "Mallory", "admin", PASSWORD)
        event = other.id
    before = room.accounts.events()
    body = {"name": "Rogue " + secrets.token_hex(3), "admin": {"name": "x", "password": PASSWORD}}
    r = client.post("/api/events", json=body, headers=bearer(client, event, who) if who else {})
    assert r.status_code == (401 if who is None else 403)
    if who is not None:
        assert r.json()["error"]["rule"] == "create_event"
    assert room.accounts.events() == before


# -- bots in the report, and bots' names ------------------------------------------------------
@pytest.mark.parametrize("name", ["Bot 1-2", "bot 1-2 ", "ＢＯＴ 3-14"])
def test_a_bots_name_is_refused_for_an_account(room, cast, name) -> None:
    with pytest.raises(Conflict) as e:
        room.accounts.create(cast.admin, name, "player", PASSWORD)
    assert e.value.rule == "bot_name" and "reserved for the house's bots" in str(e.value)
    assert all(a.name.strip().casefold() != name.strip().casefold() for a in room.accounts.all(cast.event.id))


def test_a_persons_account_with_a_bots_name_never_takes_a_bots_seat(server, room, cast) -> None:
    from syndicate.room.ledger import now

    ev = cast.event.id
    dealer = RoomClient(server.url)
    dealer.sign_in(ev, "Bokuden", PASSWORD)
    table = dealer.open_table("Old names", game="poker")["id"]
    with room.store.transaction() as repo:  # as made before such names were reserved
        person = repo.add_account(ev, f"Bot {table}-1", "player", FAST_HASHER.hash(PASSWORD), now())
    room.cashier.set_float(cast.admin, 100_000)

    async def go() -> None:
        d = await TableClient.connect(server.url, table, dealer.token or "")
        with pytest.raises(Exception) as e:
            await d.act("add_bots", count=1)
        assert getattr(e.value, "rule", None) == "bot_name"
        await d.close()

    asyncio.run(go())
    assert room.cashier.float_status(ev)["remaining"] == 100_000
    with room.store.transaction() as repo:
        assert all(a.balance == 0 for a in repo.ledger_accounts(ev) if a.key.endswith(f":{person.id}"))
    dealer.close()
