"""Issue part 5: hostile frames and connections, strict types at the edges, security headers."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
from typing import Any

import pytest
import websockets
from fastapi.testclient import TestClient

from syndicate.apps.client import RoomClient, TableClient
from syndicate.room.live.clocks import Timers
from syndicate.web import create_app
from syndicate.web.connections import ClientLog, ConnectionLimits, uvicorn_options
from syndicate.web.security import Limits
from tests.kit.room import FAST_HASHER, PASSWORD, LiveServer, bearer


@pytest.fixture
def server(database):
    app = create_app(database=database, hasher=FAST_HASHER, migrate=False, timers=Timers(turn=0.2),
                     limits=Limits(actions_per_second=10_000, action_burst=10_000))
    srv = LiveServer(app)
    yield srv
    srv.stop()


def _ws_url(server, table_id: int) -> str:
    return server.url.replace("http://", "ws://") + f"/ws/tables/{table_id}"


async def _error_then_close(ws: Any) -> tuple[dict[str, Any], int]:
    msg = json.loads(await asyncio.wait_for(ws.recv(), 5))
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await asyncio.wait_for(ws.recv(), 5)
    assert closed.value.rcvd is not None
    return msg, closed.value.rcvd.code


def _tracebacks(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]


def test_deep_nesting_and_lone_surrogates_get_named_errors_and_no_traceback(server, cast, caplog) -> None:
    caplog.set_level(logging.INFO)
    c = RoomClient(server.url)
    c.sign_in(cast.event.id, "Bokuden", PASSWORD)
    table = c.open_table("Frames")
    url = _ws_url(server, table["id"])
    deep = "[" * 2000 + "]" * 2000  # under the 4 KB cap, past the parser's recursion limit
    assert len(deep) < 4096
    firsts = [
        (deep, "nesting"),
        ('{"type": "hello", "protocol": 2, "x": ' + "[" * 1000 + "]" * 1000 + "}", "nesting"),
        ('{"type": "hello", "protocol": 2, "token": "\\ud800abc"}', "unicode"),
        ('{"type": "hello", "protocol": 2, "token": "\\udfff"}', "unicode"),
        (json.dumps({"type": "hello", "protocol": True, "token": c.token}), "hello"),
        (json.dumps({"type": "hello", "protocol": 2.0, "token": c.token}), "hello"),
        (json.dumps({"type": "hello", "protocol": "2", "token": c.token}), "hello"),
    ]

    async def go() -> None:
        for first, rule in firsts:
            async with websockets.connect(url) as ws:
                await ws.send(first)
                msg, code = await _error_then_close(ws)
                assert msg["type"] == "error" and msg["rule"] == rule, (first[:60], msg)
                assert code == 1008
        # after the hello, the same frames are answered and the socket stays open
        async with websockets.connect(url) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 2, "token": c.token}))
            assert json.loads(await ws.recv())["type"] == "welcome"
            for frame, rule in ((deep, "nesting"), ('{"type": "action", "id": "\\ud83d", "action": "x"}', "unicode"),
                                ('{"type": "ping", "pad": ' + "{\"a\":" * 500 + "1" + "}" * 500 + "}", "nesting")):
                await ws.send(frame)
                while (msg := json.loads(await asyncio.wait_for(ws.recv(), 5)))["type"] != "error":
                    pass
                assert msg["rule"] == rule and msg["message"]
            await ws.send(json.dumps({"type": "ping"}))
            while json.loads(await asyncio.wait_for(ws.recv(), 5))["type"] != "pong":
                pass

    asyncio.run(go())
    assert _tracebacks(caplog) == []


def test_the_protocol_version_is_the_json_integer(server, cast) -> None:
    """``true`` equals 1 and ``2.0`` equals 2 in Python: the hello refuses them, as it refuses
    ``1.0`` and the versions it does not speak (1, which it names, among them); 2 works."""
    c = RoomClient(server.url)
    c.sign_in(cast.event.id, "Bokuden", PASSWORD)
    table = c.open_table("Version")

    async def go() -> None:
        for version in (True, 1.0, 2.0, 0, 1, 3):
            async with websockets.connect(_ws_url(server, table["id"])) as ws:
                await ws.send(json.dumps({"type": "hello", "protocol": version, "token": c.token}))
                msg, code = await _error_then_close(ws)
                assert (msg["rule"], code) == ("hello", 1008)
                assert '"protocol": 2' in msg["message"]
                if type(version) is int:
                    assert f"speaks version 2 of the live-play protocol only, not {version}" in msg["message"]
                else:
                    assert "the JSON integer 2" in msg["message"]
        dealer = await TableClient.connect(server.url, table["id"], c.token)
        assert dealer.state is not None and dealer.state["protocol"] == 2
        await dealer.close()

    asyncio.run(go())


def test_an_unforeseen_failure_closes_with_1011_and_one_line(server, cast, caplog, monkeypatch) -> None:
    """A bug reached by a client's frame ends its socket with a close code, and many such
    sockets from one address log a bounded number of lines, none with a traceback."""
    from syndicate.web import connections, live

    c = RoomClient(server.url)
    c.sign_in(cast.event.id, "Bokuden", PASSWORD)
    table = c.open_table("Bug")

    def broken(*_: Any) -> None:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(live, "token_hash", broken)  # reached by every hello with a token
    monkeypatch.setattr(connections.CLIENT_LOG, "_seen", type(connections.CLIENT_LOG._seen)())
    caplog.set_level(logging.INFO)

    async def go() -> None:
        for _ in range(40):
            async with websockets.connect(_ws_url(server, table["id"])) as ws:
                await ws.send(json.dumps({"type": "hello", "protocol": 2, "token": c.token}))
                with pytest.raises(websockets.ConnectionClosed) as closed:
                    while True:
                        await asyncio.wait_for(ws.recv(), 5)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1011

    asyncio.run(go())
    lines = [r for r in caplog.records if r.name == "syndicate.web.clients"]
    assert 1 <= len(lines) <= connections.CLIENT_LOG.burst
    assert "ZeroDivisionError at" in lines[0].getMessage() and "a bug" not in lines[0].getMessage()
    assert _tracebacks(caplog) == []


def test_client_log_is_bounded_per_address_and_counts_what_it_left_out() -> None:
    records: list[str] = []

    class Catch(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record.getMessage())

    logger = logging.getLogger("test.clientlog")
    logger.propagate = False
    logger.addHandler(Catch())
    now = [0.0]
    cl = ClientLog(logger, burst=3, window=60, clock=lambda: now[0])
    for _ in range(300):
        cl.warning("10.0.0.1", "bad frame")
    cl.warning("10.0.0.2", "bad frame")
    assert len(records) == 4
    now[0] = 61
    cl.warning("10.0.0.1", "bad frame")
    assert records[-1].endswith("(297 more lines about 10.0.0.1 were left out)")


# -- strict types at the edges ----------------------------------------------------------------
@pytest.mark.parametrize(("game", "key", "value"), [
    ("poker", "ace_discard", "yes"), ("poker", "ace_discard", "false"), ("poker", "ace_discard", 0),
    ("poker", "ante", 50.0), ("poker", "ante", True), ("poker", "max_players", "5"),
    ("blackjack", "insurance", "false"), ("blackjack", "insurance", 1), ("blackjack", "decks", 6.0),
    ("blackjack", "decks", True), ("blackjack", "min_bet", 100.0),
])
def test_booleans_and_integers_of_a_table_are_json_booleans_and_integers(database, cast, game, key, value) -> None:
    app = create_app(database=database, hasher=FAST_HASHER, migrate=False)
    with TestClient(app) as client:
        headers = bearer(client, cast.event.id, "Bokuden")
        before = client.get(f"/api/events/{cast.event.id}/tables").json()
        r = client.post("/api/tables", headers=headers,
                        json={"name": "Strict", "game": game, "overrides": {key: value}})
        assert r.status_code in (400, 422), r.text
        err = r.json()["error"]
        assert err["rule"] in ("overrides", "validation") and key in err["message"], err
        assert client.get(f"/api/events/{cast.event.id}/tables").json() == before
        ok = client.post("/api/tables", headers=headers, json={
            "name": "Strict ok", "game": game,
            "overrides": {"ace_discard": False, "ante": 100} if game == "poker" else {"insurance": False, "decks": 2}})
        assert ok.status_code == 201, ok.text
        rules = ok.json()["rules"]
        assert (rules["ace_discard"], rules["ante"]) == (False, 100) if game == "poker" else \
            (rules["insurance"], rules["decks"]) == (False, 2)


def test_seats_and_other_whole_numbers_of_an_action_are_json_integers(server, room, cast) -> None:
    """``2.0 == 2`` and ``true == 1`` in Python: a player at seat 1 naming ``"seat": true`` (or
    1.0), an action decided at ``"version": 7.0``, a bet of ``100.0``, ``"count": true`` bots:
    each is refused with an error naming its field, and nothing changes; the same action with
    JSON integers goes through."""
    ev = cast.event.id
    room.cashier.buy_in(cast.admin, cast.alice.id, 10_000)
    dealer_c, alice_c = RoomClient(server.url), RoomClient(server.url)
    dealer_c.sign_in(ev, "Bokuden", PASSWORD)
    alice_c.sign_in(ev, "Alice", PASSWORD)
    table = dealer_c.open_table("Whole numbers", overrides={"min_bet": 100, "max_bet": 5_000})

    async def refused(ws: Any, action: dict[str, Any]) -> dict[str, Any]:
        await ws.send(json.dumps({"type": "action", **action}))
        while action["id"] not in ((m := json.loads(await asyncio.wait_for(ws.recv(), 5))).get("id"), m.get("ack")):
            pass
        return m  # an error, or the state the action made

    async def go() -> None:
        dealer = await TableClient.connect(server.url, table["id"], dealer_c.token)
        async with websockets.connect(_ws_url(server, table["id"])) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 2, "token": alice_c.token}))
            assert json.loads(await ws.recv())["type"] == "welcome"
            m = await refused(ws, {"id": "sit-1", "action": "sit", "seat": True, "amount": 2_000})
            assert m["type"] == "error" and m["rule"] == "seat" and "not true" in m["message"], m
            m = await refused(ws, {"id": "sit-2", "action": "sit", "seat": 1, "amount": 2_000.0})
            assert m["type"] == "error" and m["rule"] == "amount" and "not 2000.0" in m["message"], m
            sat = await refused(ws, {"id": "sit-3", "action": "sit", "seat": 1, "amount": 2_000})
            assert (sat["type"], sat.get("ack")) == ("state", "sit-3"), sat
            await dealer.act("start_round")
            st = await dealer.wait(lambda s: s["round"] is not None and s["round"]["phase"] == "betting")
            for n, bad in enumerate(({"seat": True}, {"seat": 1.0}, {"seat": "1"}, {"version": float(st["version"])},
                                     {"version": True}, {"amount": 100.0}, {"amount": "100"})):
                field = next(iter(bad))
                m = await refused(ws, {"id": f"bet-{n}", "action": "bet", "amount": 100, **bad})
                assert m["type"] == "error" and m["rule"] == field, (bad, m)
                assert "JSON integer" in m["message"] and field in m["message"], m
            m = await refused(ws, {"id": "bots", "action": "add_bots", "count": True})
            assert m["rule"] == "count", m  # named before anything else is looked at
            seat = next(s for s in (await dealer.wait(lambda s: True))["round"]["seats"] if s["seat"] == 1)
            assert seat["bet"] == 0  # nothing was applied
            ok = await refused(ws, {"id": "bet-ok", "action": "bet", "amount": 100, "seat": 1})
            assert (ok["type"], ok.get("ack")) == ("state", "bet-ok"), ok
        with pytest.raises(Exception) as e:
            await dealer.act("add_bots", count=2.0)
        assert "count" in str(e.value)
        await dealer.close()

    asyncio.run(go())
    assert room.ledger.audit(ev) == []


@pytest.mark.parametrize("path", ["/api/tables/{t}.0", "/api/tables/+{t}", "/api/tables/{t}_0", "/api/tables/%20{t}",
                                  "/api/hands?table={t}.0", "/api/hands?limit=1_0", "/api/hands?player=true",
                                  "/tables/{t}.0/qr.svg", "/api/tables/0", "/tables/{t}/qr.svg?x=1"])
def test_numbers_in_paths_and_queries_are_digits_only(database, cast, path) -> None:
    """``int("1_0")`` is 10 and pydantic reads ``"2.0"`` as 2: a number in a path or a query is
    digits only, refused by name otherwise (the REST bodies' integers are strict already)."""
    app = create_app(database=database, hasher=FAST_HASHER, migrate=False)
    with TestClient(app) as client:
        headers = bearer(client, cast.event.id, "Bokuden")
        t = client.post("/api/tables", headers=headers, json={"name": "Digits"}).json()["id"]
        r = client.get(path.format(t=t), headers=headers)
        if "?x=1" in path:  # the control: the same address with its digits as digits
            assert r.status_code == 200, r.text
            return
        assert r.status_code == 422, (path, r.text)
        err = r.json()["error"]
        assert err["rule"] == "validation" and ("digits 0-9 only" in err["message"] or path.endswith("/0")), err
        assert client.get(f"/api/tables/{t}", headers=headers).status_code == 200


# -- security headers ------------------------------------------------------------------------
def test_every_page_and_answer_carries_the_security_headers(database, cast) -> None:
    app = create_app(database=database, hasher=FAST_HASHER, migrate=False)
    with TestClient(app) as client:
        headers = bearer(client, cast.event.id, "Bokuden")
        table = client.post("/api/tables", headers=headers, json={"name": "Headers"}).json()
        answers = [client.get(p) for p in ("/", f"/tables/{table['id']}", f"/tables/{table['id']}/rules", "/dealer",
                                           "/admin", "/static/js/common.js", "/static/css/app.css", "/openapi.json",
                                           "/api/events", "/nowhere", "/static/../../etc/passwd")]
        answers += [client.get("/api/me"), client.get("/api/me", headers=headers),
                    client.post("/api/tables", headers=headers, json={"name": 5}),
                    client.post("/api/tables", json={}, headers={"Origin": "https://evil.example"})]
        assert {a.status_code for a in answers} >= {200, 401, 403, 404, 422}
        for a in answers:
            csp = a.headers.get("content-security-policy", "")
            directives = {d.split()[0]: d.split()[1:] for d in csp.split(";") if d.strip()}
            assert directives.get("script-src") == ["'self'"], (a.url, csp)
            assert "'unsafe-inline'" not in directives.get("default-src", [])
            assert directives.get("frame-ancestors") == ["'none'"]
            assert a.headers.get("x-content-type-options") == "nosniff"
            assert a.headers.get("referrer-policy") == "no-referrer"


# -- slow and many connections ---------------------------------------------------------------
def _half_sent(port: int, source: str) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0))
    s.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Slow: ".encode())  # and never the rest
    return s


def _closed_by_server(s: socket.socket) -> bytes:
    """What the server sent before closing (blocks until it closes, at most the timeout)."""
    got = b""
    while chunk := s.recv(4096):
        got += chunk
    return got


def test_slow_requests_time_out_and_are_capped_while_a_player_plays(database, room, cast, caplog,
                                                                   monkeypatch) -> None:
    """300 half-sent requests from one address: past the cap they are refused at once (503),
    the rest are closed after the header timeout (408), and meanwhile a player on another
    address signs in, sits and plays a round."""
    from syndicate.web import connections

    monkeypatch.setattr(connections.CLIENT_LOG, "_seen", type(connections.CLIENT_LOG._seen)())
    caplog.set_level(logging.INFO)
    limits = ConnectionLimits(header_timeout=1.0, per_address=50)
    app = create_app(database=database, hasher=FAST_HASHER, migrate=False, timers=Timers(turn=0.5))
    srv = LiveServer(app, **uvicorn_options(limits))
    slow: list[socket.socket] = []
    try:
        slow = [_half_sent(srv.port, "127.0.0.2") for _ in range(300)]
        room.cashier.buy_in(cast.admin, cast.alice.id, 10_000)
        dealer_c, alice_c = RoomClient(srv.url), RoomClient(srv.url)
        dealer_c.sign_in(cast.event.id, "Bokuden", PASSWORD)
        alice_c.sign_in(cast.event.id, "Alice", PASSWORD)
        table = dealer_c.open_table("Besieged", overrides={"min_bet": 100, "max_bet": 500})

        async def play() -> dict[str, Any]:
            dealer = await TableClient.connect(srv.url, table["id"], dealer_c.token)
            alice = await TableClient.connect(srv.url, table["id"], alice_c.token)
            await alice.act("sit", seat=1, amount=1_000)
            await dealer.act("start_round")
            await alice.act("bet", amount=200)
            await dealer.act("deal")  # the turn clock stands for Alice if she does not act
            settled = await dealer.wait(lambda s: s["round"] is not None and s["round"]["phase"] == "settled", 30)
            await dealer.close()
            await alice.close()
            return settled

        settled = asyncio.run(play())
        assert [s["seat"] for s in settled["round"]["seats"]] == [1]
        answers = [_closed_by_server(s) for s in slow]
        refused = [a for a in answers if a.startswith(b"HTTP/1.1 503")]
        timed_out = [a for a in answers if a.startswith(b"HTTP/1.1 408")]
        assert len(refused) == 250 and len(timed_out) == 50, {a[:12] for a in answers}
        assert b'"rule": "connections"' in refused[0] and b'"rule": "timeout"' in timed_out[0]
        about_slow = [r for r in caplog.records if "127.0.0.2" in r.getMessage()]
        assert 1 <= len(about_slow) <= connections.CLIENT_LOG.burst  # 300 misdeeds, a few lines
        fresh = _half_sent(srv.port, "127.0.0.2")  # the timed-out ones no longer count
        fresh.sendall(b"x\r\n\r\n")
        assert _closed_by_server(fresh).startswith(b"HTTP/1.1 200")
        fresh.close()
    finally:
        for s in slow:
            s.close()
        srv.stop()


def test_a_stalled_body_times_out_and_a_slow_one_does_not(database) -> None:
    app = create_app(database=database, hasher=FAST_HASHER, migrate=False)
    srv = LiveServer(app, **uvicorn_options(ConnectionLimits(header_timeout=5.0, body_idle_timeout=1.0)))
    try:
        stalled = socket.create_connection(("127.0.0.1", srv.port), timeout=30)
        stalled.sendall(f"POST /api/events/1/tokens HTTP/1.1\r\nHost: 127.0.0.1:{srv.port}\r\n".encode()
                        + b"content-type: application/json\r\ncontent-length: 100\r\n\r\n{\"name\": ")
        assert _closed_by_server(stalled).startswith(b"HTTP/1.1 408")
        stalled.close()
        with socket.create_connection(("127.0.0.1", srv.port), timeout=30) as ok:  # headers in parts
            for part in (b"GET /api/ev", b"ents HTTP/1.1\r\nHo", f"st: 127.0.0.1:{srv.port}\r\n".encode(),
                         b"Connection: close\r\n\r\n"):
                ok.sendall(part)
            assert _closed_by_server(ok).startswith(b"HTTP/1.1 200")
    finally:
        srv.stop()
