"""The room answers only under its own names: a request or a WebSocket whose ``Host`` is another
site's is refused (400, rule ``host``) before anything reads it. DNS rebinding made the attacker's
name resolve to the server's address; a page of the attacker's site then read the API as its own
and signed in, since the CSRF check passed (``Origin`` equals ``Host``)."""

from __future__ import annotations

import asyncio
import json
import socket

import httpx
import pytest
import websockets

from syndicate.room.errors import BadRequest
from syndicate.web import create_app
from syndicate.web.hosts import Hosts, allowed_host
from tests.kit.room import FAST_HASHER, PASSWORD, LiveServer


@pytest.fixture
def server(database):
    app = create_app(database=database, hasher=FAST_HASHER, migrate=False, allowed_hosts=["casino.local"])
    srv = LiveServer(app)
    yield srv
    srv.stop()


def test_a_rebound_name_gets_nothing_and_signs_nobody_in(server, cast) -> None:
    """The attacker's page at http://evil.example:PORT, the name now resolving to 127.0.0.1: its
    requests reach the server with ``Host`` and ``Origin`` both evil.example."""
    port = server.port
    evil = {"Host": f"evil.example:{port}", "Origin": f"http://evil.example:{port}"}
    for method, path, body in (("GET", "/api/events", None), ("GET", "/", None), ("GET", "/api/session", None),
                               ("POST", f"/api/events/{cast.event.id}/session", {"name": "Alice", "password": PASSWORD}),
                               ("POST", f"/api/events/{cast.event.id}/tokens", {"name": "Alice", "password": PASSWORD})):
        r = httpx.request(method, server.url + path, headers=evil, json=body)
        assert r.status_code == 400, (path, r.text)
        err = r.json()["error"]
        assert err["rule"] == "host" and "evil.example" in err["message"] and "--allowed-host" in err["message"]
        assert "set-cookie" not in r.headers and "token" not in r.text
        assert r.headers["content-security-policy"]  # the edges' headers on the refusal too
    # the room's own names: the address the connection reached, localhost over loopback, an allowed host
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"casino.local:{port}", "casino.local", "CASINO.local."):
        r = httpx.post(f"{server.url}/api/events/{cast.event.id}/session", json={"name": "Alice", "password": PASSWORD},
                       headers={"Host": host, "Origin": f"http://{host}"})
        assert r.status_code == 200, (host, r.text)
    # other ports of the machine's own names are other sites
    for host in ("127.0.0.1", f"127.0.0.1:{port + 1}", "localhost", f"localhost.evil.example:{port}"):
        assert httpx.get(server.url + "/api/events", headers={"Host": host}).status_code == 400, host


def test_a_websocket_under_a_rebound_name_is_refused(server, cast) -> None:
    port = server.port
    url = f"ws://127.0.0.1:{port}/ws/tables/1"

    async def go() -> None:
        rebound = socket.create_connection(("127.0.0.1", port))  # evil.example resolved to this server
        with pytest.raises(websockets.InvalidStatus) as refused:
            async with websockets.connect(f"ws://evil.example:{port}/ws/tables/1", sock=rebound,
                                          additional_headers={"Origin": f"http://evil.example:{port}"}):
                pass
        assert refused.value.response.status_code == 400
        assert json.loads(refused.value.response.body)["error"]["rule"] == "host"
        # the same socket under the room's own name is served (and says hello's rules)
        async with websockets.connect(url) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 2}))
            answer = json.loads(await ws.recv())
            assert answer["type"] == "error" and answer["rule"] == "signed_in"

    asyncio.run(go())


def test_the_names_allowed() -> None:
    lan = ("192.168.1.20", 8000)
    hosts = Hosts.of("https://casino.example/night", ["https://tables.example:8443"], ["box.local", "[fe80::1]:8000"])
    allowed = [("192.168.1.20:8000", lan), ("casino.example", lan), ("casino.example:9999", lan),
               ("tables.example:8443", lan), ("box.local:1234", lan), ("[fe80::1]:8000", lan),
               ("[::1]:8000", ("::1", 8000)), ("localhost:8000", ("::1", 8000)), ("[0:0::1]:8000", ("::1", 8000)),
               ("app.localhost:8000", ("127.0.0.1", 8000)), ("127.0.0.2:8000", ("127.0.0.1", 8000)),
               ("testserver", ("testserver", 80))]
    refused = [("localhost:8000", lan), ("127.0.0.1:8000", lan), ("192.168.1.20:8001", lan), ("192.168.1.20", lan),
               ("tables.example", lan), ("[fe80::1]:8001", lan), ("evil.example:8000", lan), ("", lan),
               ("192.168.1.20:8000/x", lan), ("a@192.168.1.20:8000", lan), ("192.168.1.20:0", lan),
               ("192.168.1.20:99999", lan), ("localhost:8000", ("testserver", 8000))]
    for host, server in allowed:
        assert hosts.allows(host, "http", server), (host, server)
    for host, server in refused:
        assert not hosts.allows(host, "http", server), (host, server)
    assert Hosts().allows("192.168.1.20", "https", ("192.168.1.20", 443))  # the scheme's port


@pytest.mark.parametrize("bad", ["http://casino.local", "casino.local/x", "a@casino.local", "casino.local:x",
                                 "casino.local:70000", "", "[zz::1]"])
def test_an_allowed_host_is_a_name_not_a_url(bad) -> None:
    with pytest.raises(BadRequest) as e:
        allowed_host(bad)
    assert e.value.rule == "allowed_host" and "not a URL" in e.value.message
    assert allowed_host(" Casino.Local:8000 ") == "casino.local:8000"
