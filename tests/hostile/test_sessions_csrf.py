"""Sessions end on sign-out and on a role change (tokens, cookies and open sockets), and the
browser's cookie is not usable from another site (CSRF, cross-site WebSocket hijacking)."""

from __future__ import annotations

import asyncio
import json

import pytest
import websockets
from fastapi.testclient import TestClient

from syndicate.apps.client import ApiError, RoomClient, TableClient
from syndicate.room.ledger import player_key
from syndicate.room.live.clocks import Timers
from syndicate.web import create_app
from syndicate.web.app import COOKIE
from tests.kit.room import FAST_HASHER, PASSWORD, LiveServer, bearer

EVIL = "https://evil.example"


@pytest.fixture
def server(database):
    app = create_app(database=database, hasher=FAST_HASHER, migrate=False, timers=Timers(turn=None))
    srv = LiveServer(app)
    yield srv
    srv.stop()


@pytest.fixture
def client(database):
    app = create_app(database=database, hasher=FAST_HASHER, migrate=False,
                     trusted_origins=["https://cashier.example/"])
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


async def _next(ws, types: tuple[str, ...]) -> dict:
    while (m := json.loads(await asyncio.wait_for(ws.recv(), 5)))["type"] not in types:
        pass
    return m


async def _closed_with(ws) -> int | None:
    with pytest.raises(websockets.ConnectionClosed) as closed:
        while True:
            await asyncio.wait_for(ws.recv(), 5)
    return closed.value.rcvd.code if closed.value.rcvd else None


# -- role change ---------------------------------------------------------------------------
def test_a_role_change_ends_every_sign_in_of_that_account(server, room, cast) -> None:
    ev = cast.event.id
    admin, bob, bob2 = RoomClient(server.url), RoomClient(server.url), RoomClient(server.url)
    admin.sign_in(ev, "admin", PASSWORD)
    bob.sign_in(ev, "Bob", PASSWORD)
    bob2.sign_in(ev, "Bob", PASSWORD)
    alice = RoomClient(server.url)
    alice.sign_in(ev, "Alice", PASSWORD)
    dealer = RoomClient(server.url)
    dealer.sign_in(ev, "Bokuden", PASSWORD)
    table = dealer.open_table("Roles")
    url = server.url.replace("http://", "ws://") + f"/ws/tables/{table['id']}"

    async def go() -> None:
        async with websockets.connect(url) as bob_ws, websockets.connect(url) as alice_ws:
            for ws, c in ((bob_ws, bob), (alice_ws, alice)):
                await ws.send(json.dumps({"type": "hello", "protocol": 2, "token": c.token}))
                assert (await _next(ws, ("welcome",)))["you"]["account"] == c.me()["id"]
            changed = await asyncio.to_thread(admin.change_role, cast.bob.id, "spectator")
            assert changed == {"id": cast.bob.id, "event_id": ev, "name": "Bob", "role": "spectator"}
            # Bob's open socket is told and closed (1008); his next action would not reach the table
            err = await _next(bob_ws, ("error",))
            assert err["rule"] == "signed_in" and "role" in err["message"]
            assert await _closed_with(bob_ws) == 1008
            # Alice's socket is untouched
            await alice_ws.send(json.dumps({"type": "ping"}))
            assert (await _next(alice_ws, ("pong",)))["type"] == "pong"

    asyncio.run(go())
    for old in (bob, bob2):  # every token of Bob's is dead
        with pytest.raises(ApiError) as e:
            old.me()
        assert e.value.status == 401 and e.value.rule == "signed_in"
    again = RoomClient(server.url)
    again.sign_in(ev, "Bob", PASSWORD)
    assert again.me()["role"] == "spectator"
    assert admin.me()["role"] == "admin" and alice.me()["role"] == "player"


def test_role_change_refusals(client, room, cast) -> None:
    ev = cast.event.id
    admin = bearer(client, ev, "admin")
    bob = bearer(client, ev, "Bob")
    r = client.patch(f"/api/accounts/{cast.admin.id}", json={"role": "player"}, headers=admin)
    assert r.status_code == 409 and r.json()["error"]["rule"] == "own_role"
    r = client.patch(f"/api/accounts/{cast.bob.id}", json={"role": "god"}, headers=admin)
    assert r.status_code == 422
    other = room.accounts.create_event("Elsewhere " + str(ev))
    stranger = room.accounts.add(other.id, "Stranger", "player", PASSWORD)
    r = client.patch(f"/api/accounts/{stranger.id}", json={"role": "admin"}, headers=admin)
    assert r.status_code == 404 and r.json()["error"]["rule"] == "account"
    r = client.patch(f"/api/accounts/{cast.bob.id}", json={"role": "admin"}, headers=bob)
    assert r.status_code == 403 and r.json()["error"]["rule"] == "change_role"
    # the same role: nothing changes, nobody is signed out
    r = client.patch(f"/api/accounts/{cast.bob.id}", json={"role": "player"}, headers=admin)
    assert r.status_code == 200 and client.get("/api/me", headers=bob).status_code == 200
    r = client.patch(f"/api/accounts/{cast.bob.id}", json={"role": "pit_boss"}, headers=admin)
    assert r.status_code == 200 and client.get("/api/me", headers=bob).status_code == 401


def test_a_cookie_session_ends_on_a_role_change_and_on_sign_out(client, cast) -> None:
    ev = cast.event.id
    admin = bearer(client, ev, "admin")
    assert client.post(f"/api/events/{ev}/session", json={"name": "Sam", "password": PASSWORD}).status_code == 200
    assert client.get("/api/me").json()["account"]["role"] == "spectator"
    assert client.patch(f"/api/accounts/{cast.spectator.id}", json={"role": "player"},
                        headers=admin).status_code == 200
    assert client.get("/api/me").status_code == 401  # the cookie is dead
    client.cookies.clear()
    assert client.post(f"/api/events/{ev}/session", json={"name": "Sam", "password": PASSWORD}).status_code == 200
    cookie = client.cookies.get(COOKIE)
    assert client.delete("/api/session").status_code == 204
    client.cookies.set(COOKIE, cookie)
    assert client.get("/api/me").status_code == 401


def test_signing_out_closes_the_sockets_of_that_sign_in_only(server, cast) -> None:
    ev = cast.event.id
    dealer = RoomClient(server.url)
    dealer.sign_in(ev, "Bokuden", PASSWORD)
    other = RoomClient(server.url)
    other.sign_in(ev, "Bokuden", PASSWORD)
    table = dealer.open_table("Out")
    url = server.url.replace("http://", "ws://") + f"/ws/tables/{table['id']}"

    async def go() -> None:
        async with websockets.connect(url) as a, websockets.connect(url) as b:
            for ws, c in ((a, dealer), (b, other)):
                await ws.send(json.dumps({"type": "hello", "protocol": 2, "token": c.token}))
                await _next(ws, ("welcome",))
            await asyncio.to_thread(dealer.sign_out)
            assert (await _next(a, ("error",)))["rule"] == "signed_in"
            assert await _closed_with(a) == 1008
            await b.send(json.dumps({"type": "ping"}))
            assert (await _next(b, ("pong",)))["type"] == "pong"

    asyncio.run(go())


# -- CSRF ----------------------------------------------------------------------------------
def test_cross_site_requests_with_the_cookie_are_refused(client, room, cast) -> None:
    ev = cast.event.id
    assert client.post(f"/api/events/{ev}/session", json={"name": "Jean-Marc", "password": PASSWORD}).status_code == 200
    buy = {"player": cast.alice.id, "amount": 500}
    for headers in ({"Origin": EVIL}, {"Origin": "null"}, {"Referer": EVIL + "/attack.html"},
                    {"Origin": "http://testserver.evil.example"}, {"Origin": "http://testserver:8080"}):
        r = client.post("/api/cashier/buy-in", json=buy, headers=headers)
        assert r.status_code == 403, (headers, r.text)
        assert r.json()["error"]["rule"] == "csrf"
    assert room.ledger.explain(ev, player_key(cast.alice.id)) == []
    r = client.delete("/api/session", headers={"Origin": EVIL})  # no forced sign-out either
    assert r.status_code == 403 and client.get("/api/me").status_code == 200
    # the pages' own requests: same origin (or none sent), and a trusted origin
    for headers in ({"Origin": "http://testserver"}, {"Referer": "http://testserver/admin"}, {},
                    {"Origin": "https://cashier.example"}):
        assert client.post("/api/cashier/buy-in", json=buy, headers=headers).status_code == 200, headers
    assert client.get("/api/balances", headers={"Origin": EVIL}).status_code == 200  # reading is not state-changing
    # a bearer token is not ambient: a program's request with any Origin is fine
    boss = bearer(client, ev, "Jean-Marc")
    client.cookies.clear()
    assert client.post("/api/cashier/buy-in", json=buy, headers={**boss, "Origin": EVIL}).status_code == 200
    assert room.ledger.explain(ev, player_key(cast.alice.id))[-1].balance == 5 * 500
    # signing in from another site's page (login CSRF) is refused as well
    r = client.post(f"/api/events/{ev}/session", json={"name": "Alice", "password": PASSWORD},
                    headers={"Origin": EVIL})
    assert r.status_code == 403 and "set-cookie" not in r.headers


def test_cross_site_websocket_with_the_cookie_is_refused(server, cast) -> None:
    ev = cast.event.id
    dealer = RoomClient(server.url)
    dealer.sign_in(ev, "Bokuden", PASSWORD)
    table = dealer.open_table("Hijack")
    import httpx

    r = httpx.post(f"{server.url}/api/events/{ev}/session", json={"name": "Alice", "password": PASSWORD})
    cookie = f"{COOKIE}={r.cookies[COOKIE]}"
    url = server.url.replace("http://", "ws://") + f"/ws/tables/{table['id']}"

    async def hello(origin: str | None, token: str | None = None) -> dict:
        headers = {"Cookie": cookie}
        async with websockets.connect(url, origin=origin, additional_headers=headers) as ws:  # type: ignore[arg-type]
            await ws.send(json.dumps({"type": "hello", "protocol": 2, **({"token": token} if token else {})}))
            m = json.loads(await asyncio.wait_for(ws.recv(), 5))
            if m["type"] == "error":
                assert await _closed_with(ws) == 1008
            return m

    async def go() -> None:
        m = await hello(EVIL)
        assert m["type"] == "error" and m["rule"] == "csrf"
        assert (await hello(server.url))["you"]["account"] == cast.alice.id  # the page's own origin
        assert (await hello(None))["type"] == "welcome"  # no Origin: not a browser
        # a token in the hello is not ambient: any origin may use it
        assert (await hello(EVIL, dealer.token))["you"]["account"] == cast.dealer.id

    asyncio.run(go())


def test_a_seat_or_an_open_table_keeps_the_role(server, room, cast) -> None:
    """The table knows a seat and a dealer by account: their role changes once they are gone."""
    ev = cast.event.id
    room.cashier.buy_in(cast.admin, cast.alice.id, 1_000)
    admin, alice, dealer = RoomClient(server.url), RoomClient(server.url), RoomClient(server.url)
    admin.sign_in(ev, "admin", PASSWORD)
    alice.sign_in(ev, "Alice", PASSWORD)
    dealer.sign_in(ev, "Bokuden", PASSWORD)
    table = dealer.open_table("Held")

    async def sit(action: str, **fields) -> None:
        c = await TableClient.connect(server.url, table["id"], alice.token)
        await c.act(action, **fields)
        await c.close()

    asyncio.run(sit("sit", seat=1, amount=1_000))
    for who, role in ((cast.alice.id, "spectator"), (cast.dealer.id, "player")):
        with pytest.raises(ApiError) as e:
            admin.change_role(who, role)
        assert e.value.status == 409 and e.value.rule == "in_play"
    assert alice.me()["role"] == "player"  # nothing changed, nobody signed out
    asyncio.run(sit("leave_seat"))
    assert admin.change_role(cast.alice.id, "spectator")["role"] == "spectator"
    dealer.request("POST", f"/api/tables/{table['id']}/status", {"status": "closed"})
    assert admin.change_role(cast.dealer.id, "player")["role"] == "player"
    assert room.ledger.audit(ev) == []
