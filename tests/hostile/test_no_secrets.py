"""No secret in any error or log line: with a hand in play, provoke every kind of refusal over
REST and over the live protocol, then scan every error body, every live error and every log
record for a password, a token (the server's or a forged one), the unrevealed seed of the shoe
and the hand's hole card."""

from __future__ import annotations

import asyncio
import json
import logging
import re

import httpx
import pytest
import websockets

from syndicate.apps.client import RoomClient, TableClient
from syndicate.room.live.clocks import Timers
from syndicate.web import create_app
from syndicate.web.security import Limits
from tests.kit.room import FAST_HASHER, PASSWORD, LiveServer, deal_until_someone_must_act

WRONG = "wrong-but-secret-guess-7731"
FORGED = "forged-token-Zq81xK2mVb0pL"


@pytest.fixture
def server(database):
    app = create_app(database=database, hasher=FAST_HASHER, migrate=False, timers=Timers(turn=None),
                     limits=Limits(sign_in_failures_per_name=2, sign_in_backoff=60))
    srv = LiveServer(app)
    yield srv
    srv.stop()


def _card(card: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![A-Za-z0-9]){re.escape(card)}(?![A-Za-z0-9])")


def test_no_secret_in_errors_or_logs(server, room, cast, caplog) -> None:
    caplog.set_level(logging.DEBUG)
    ev = cast.event.id
    for p in (cast.alice, cast.bob):
        room.cashier.buy_in(cast.admin, p.id, 10_000)
    c = {name: RoomClient(server.url) for name in ("admin", "Bokuden", "Alice", "Bob", "Sam")}
    for name, client in c.items():
        client.sign_in(ev, name, PASSWORD)
    browser = httpx.Client(base_url=server.url)
    assert browser.post(f"/api/events/{ev}/session", json={"name": "Alice", "password": PASSWORD}).status_code == 200
    cookie = browser.cookies["syndicate_session"]
    table = c["Bokuden"].open_table("Secrets", overrides={"min_bet": 100, "max_bet": 1_000})
    url = server.url.replace("http://", "ws://") + f"/ws/tables/{table['id']}"
    errors: list[str] = []  # every refusal's text, REST and live

    async def setup_hand() -> dict:
        dealer = await TableClient.connect(server.url, table["id"], c["Bokuden"].token)
        alice = await TableClient.connect(server.url, table["id"], c["Alice"].token)
        bob = await TableClient.connect(server.url, table["id"], c["Bob"].token)
        await alice.act("sit", seat=1, amount=5_000)
        await bob.act("sit", seat=2, amount=5_000)
        st = await deal_until_someone_must_act(dealer, [(alice, 100), (bob, 100)])  # the hole card down
        for x in (dealer, alice, bob):
            await x.close()
        return st

    state = asyncio.run(setup_hand())
    with room.store.transaction() as repo:
        playing = repo.hands(ev, table["id"], None, "playing", 10)
        seeds = [seed for t, _, seed in repo.unrevealed_shoes() if t == table["id"]]
    assert len(playing) == 1 and seeds
    hand = playing[0]
    hole = next(r["card"] for r in hand.history["rounds"][0]["log"]
                if r["type"] == "card" and r["seat"] == -1 and not r["face_up"])
    assert state["round"]["dealer"]["cards"][1] is None

    def rest(method: str, path: str, body=None, token: str | None = None, **kw) -> None:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        r = httpx.request(method, server.url + path, json=body, headers={**headers, **kw.pop("headers", {})}, **kw)
        assert 400 <= r.status_code < 500, (path, r.status_code, r.text)
        errors.append(r.text + json.dumps(dict(r.headers)))

    # REST refusals around the hand in play
    for _ in range(3):  # wrong passwords, then the rate limit
        rest("POST", f"/api/events/{ev}/tokens", {"name": "Alice", "password": WRONG})
    rest("POST", f"/api/events/{ev}/session", {"name": WRONG, "password": WRONG})
    rest("POST", f"/api/events/{ev}/tokens", {"name": "Bob", "password": PASSWORD, "extra": PASSWORD})
    rest("POST", f"/api/events/{ev}/tokens", {"name": "Bob", "password": PASSWORD * 20})
    rest("POST", "/api/accounts", {"name": "Eve", "role": "player", "password": "short"}, c["admin"].token)
    rest("GET", "/api/me", token=FORGED)
    rest("GET", "/api/me", token=c["Alice"].token + "x")
    rest("GET", f"/api/hands/{hand.id}/history", token=c["admin"].token)
    rest("GET", f"/api/hands/{hand.id}/phh", token=c["admin"].token)
    rest("GET", "/api/hands", token=c["Alice"].token, params={"player": cast.bob.id})
    rest("POST", "/api/cashier/buy-in", {"player": cast.alice.id, "amount": 100}, c["Alice"].token)
    rest("POST", f"/api/tables/{table['id']}/status", {"status": "closed"}, c["Sam"].token)
    rest("PATCH", f"/api/accounts/{cast.admin.id}", {"role": "player"}, c["admin"].token)
    rest("POST", "/api/cashier/buy-in", {"player": cast.alice.id, "amount": 100},
         headers={"Cookie": f"syndicate_session={cookie}", "Origin": "https://evil.example"})
    listed = httpx.get(server.url + "/api/hands", params={"table": table["id"]},
                       headers={"Authorization": f"Bearer {c['admin'].token}"}).json()
    assert hand.id not in [h["id"] for h in listed]  # a hand in play is never served

    # live refusals during the hand
    async def provoke() -> None:
        frames = {
            "Alice": [{"action": "hit", "seat": 2}, {"action": "double", "amount": 10**9}, {"action": "bet"},
                      {"action": "split"}, {"action": "insurance", "amount": "all"}, {"action": "sit", "seat": 3}],
            "Bob": [{"action": "stand", "version": 1}, {"action": "surrender", "seat": 1}, {"action": "leave"}],
            "Bokuden": [{"action": "deal"}, {"action": "start_round"}, {"action": "add_bots", "count": 99}],
            "Sam": [{"action": "sit", "seat": 4, "amount": 100}, {"action": "hit"}],
        }
        for name, actions in frames.items():
            async with websockets.connect(url) as ws:
                await ws.send(json.dumps({"type": "hello", "protocol": 2, "token": c[name].token}))
                welcome = json.loads(await ws.recv())
                assert welcome["type"] == "welcome"
                for i, a in enumerate(actions):
                    await ws.send(json.dumps({"type": "action", "id": f"{name}-{i}", **a}))
                    while True:  # until its answer: an error, or a legal move's state (it is Alice's turn)
                        m = json.loads(await asyncio.wait_for(ws.recv(), 5))
                        if m["type"] == "error":
                            errors.append(json.dumps(m))
                        if f"{name}-{i}" in (m.get("id"), m.get("ack")):
                            break
                for raw in ("{nope", "[]", json.dumps({"type": "x" * 10}), "y" * 5000):
                    await ws.send(raw)
                    errors.append(await asyncio.wait_for(ws.recv(), 5))
        for token in (FORGED, c["Alice"].token[:-1]):  # forged sign-ins at hello
            async with websockets.connect(url) as ws:
                await ws.send(json.dumps({"type": "hello", "protocol": 2, "token": token}))
                errors.append(await ws.recv())
        async with websockets.connect(url, origin="https://evil.example",  # type: ignore[arg-type]
                                      additional_headers={"Cookie": f"syndicate_session={cookie}"}) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 2}))
            errors.append(await ws.recv())

    asyncio.run(provoke())
    with room.store.transaction() as repo:  # still in play: nothing above revealed it
        assert [h.id for h in repo.hands(ev, table["id"], None, "playing", 10)] == [hand.id]

    # the server's log records (the test's own clients log what they send, tokens included)
    logs = [f"{r.name} {r.getMessage()} {r.exc_text or ''}" for r in caplog.records
            if r.name.split(".")[0] in ("syndicate", "uvicorn", "fastapi", "starlette", "websockets.server")]
    assert len(errors) > 30 and any("failed sign-in" in x for x in logs) and any("cross-site" in x for x in logs)
    assert any("too many failures" in x for x in logs)
    rules = {m for e in errors for m in re.findall(r'"rule": ?"([a-z_]+)"', e)}
    assert {"rate_limit", "csrf", "credentials", "signed_in", "own_seat", "stale_version", "frame_too_large",
            "malformed_json", "message_shape", "type", "validation", "play"} <= rules, rules
    secrets = [PASSWORD, WRONG, FORGED, cookie, *seeds, *(x.token for x in c.values())]
    for text in errors + logs:
        for secret in secrets:
            assert secret not in text, f"a secret leaked into: {text[:300]}"
        assert not _card(hole).search(text), f"the hole card {hole} leaked into: {text[:300]}"
    assert room.ledger.audit(ev) == []
