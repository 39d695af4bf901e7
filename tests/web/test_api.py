"""The REST API: sign-in by cookie and by token, the authorization matrix (each role against
each action, read from the one permission table), and bad input that must get a clear 4xx,
never a 500, and never change a balance."""

from __future__ import annotations

import json
import secrets

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from syndicate.room.ledger import now, player_key
from syndicate.room.roles import PERMISSIONS, ROLES, allowed
from syndicate.room.values import NO_PASSWORD, WALK_IN
from syndicate.web import create_app
from syndicate.web.app import COOKIE
from tests.kit.room import FAST_HASHER, PASSWORD, Cast, bearer


@pytest.fixture
def client(database, room, cast):
    # The test's event is the deployment's current one: only its admins create events.
    app = create_app(database=database, hasher=FAST_HASHER, migrate=False, current_event=cast.event.name)
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def test_openapi_is_served(client) -> None:
    doc = client.get("/openapi.json").json()
    assert "/api/cashier/buy-in" in doc["paths"] and "/api/tables" in doc["paths"]


def test_cookie_sign_in_and_out(client, cast) -> None:
    r = client.post(f"/api/events/{cast.event.id}/session", json={"name": "Alice", "password": PASSWORD})
    assert r.status_code == 200
    cookie = r.headers["set-cookie"]
    assert COOKIE in cookie and "HttpOnly" in cookie and "samesite=strict" in cookie.lower()
    assert client.get("/api/me").json()["account"]["name"] == "Alice"
    assert client.delete("/api/session").status_code == 204
    client.cookies.clear()
    assert client.get("/api/me").status_code == 401


def test_token_sign_in_and_refusals(client, cast) -> None:
    h = bearer(client, cast.event.id, "Bokuden")
    me = client.get("/api/me", headers=h).json()
    assert me["account"]["role"] == "dealer" and "open_table" in me["may"] and "password_hash" not in me["account"]
    bad = client.post(f"/api/events/{cast.event.id}/tokens", json={"name": "Alice", "password": "wrong password"})
    assert bad.status_code == 401 and bad.json()["error"]["rule"] == "credentials"
    assert client.get("/api/me", headers={"Authorization": "Bearer nonsense"}).status_code == 401
    assert client.post("/api/events/999999/tokens", json={"name": "Alice", "password": PASSWORD}).status_code == 404


def test_roster_is_public(client, cast) -> None:
    r = client.get(f"/api/events/{cast.event.id}/roster")
    groups = {g["pit_boss"]: g["dealers"] for g in r.json()["pit_bosses"]}
    # The pit bosses are items of the notice's list of authorized dealers: first in their groups.
    assert groups == {"Jean-Marc": ["Jean-Marc", "Bokuden", "Ryuusei", "Kyohei"],
                      "Miles": ["Miles", "Taede", "Tame", "Noriko"]}


def test_unauthorized_dealer_gets_a_clear_403(client, cast) -> None:
    r = client.post("/api/tables", json={"name": "Ghost's"}, headers=bearer(client, cast.event.id, "Ghost"))
    assert r.status_code == 403
    err = r.json()["error"]
    assert err["rule"] == "authorized_dealer" and "Unauthorized games are prohibited" in err["message"]


def test_a_cashier_round_trip_and_the_ledger(client, cast) -> None:
    boss = bearer(client, cast.event.id, "Jean-Marc")
    assert client.post("/api/cashier/buy-in", json={"player": cast.alice.id, "amount": 5_000},
                       headers=boss).json()["balance"] == 5_000
    assert client.post("/api/cashier/cash-out", json={"player": cast.alice.id, "amount": 1_250},
                       headers=boss).json()["balance"] == 3_750
    alice = bearer(client, cast.event.id, "Alice")
    mine = client.get(f"/api/accounts/{cast.alice.id}/ledger", headers=alice).json()
    assert mine["balance"] == 3_750 and [x["balance"] for x in mine["lines"]] == [5_000, 3_750]
    assert client.get(f"/api/accounts/{cast.bob.id}/ledger", headers=alice).status_code == 403
    assert client.get("/api/balances", headers=boss).json()["total"] == 0
    board = client.get(f"/api/events/{cast.event.id}/leaderboard").json()
    assert board == [{"player": "Alice", "balance": 3_750, "won": 0}]


# -- the authorization matrix -------------------------------------------------------------
def _attempt(client: TestClient, room, cast: Cast, action: str, headers: dict[str, str], role: str):
    """Make the request behind ``action`` as the holder of ``headers``; return the response."""
    if action == "create_event":
        return client.post("/api/events", json={"name": "Night " + secrets.token_hex(4),
                                                "admin": {"name": "boss", "password": PASSWORD}}, headers=headers)
    if action == "search_own_hands":
        me = cast.by_role()[role].id if role in ROLES else cast.alice.id
        return client.get("/api/hands", params={"player": me}, headers=headers)
    if action == "search_any_hands":
        return client.get("/api/hands", params={"player": cast.bob.id}, headers=headers)
    if action == "create_account":
        return client.post("/api/accounts", json={"name": "N" + secrets.token_hex(4), "role": "player",
                                                  "password": PASSWORD}, headers=headers)
    if action == "change_role":
        target = room.accounts.add(cast.event.id, "R" + secrets.token_hex(4), "player", PASSWORD)
        return client.patch(f"/api/accounts/{target.id}", json={"role": "spectator"}, headers=headers)
    if action == "list_accounts":
        return client.get("/api/accounts", headers=headers)
    if action == "authorize_dealer":
        return client.post("/api/roster/authorize", json={"dealer": "K" + secrets.token_hex(4),
                                                         "pit_boss": "Jean-Marc"}, headers=headers)
    if action == "revoke_dealer":
        return client.post("/api/roster/revoke", json={"dealer": "Ryuusei"}, headers=headers)
    if action == "buy_in":
        return client.post("/api/cashier/buy-in", json={"player": cast.bob.id, "amount": 100}, headers=headers)
    if action == "cash_out":
        room.cashier.buy_in(cast.admin, cast.bob.id, 100)
        return client.post("/api/cashier/cash-out", json={"player": cast.bob.id, "amount": 100}, headers=headers)
    if action == "view_any_ledger":
        return client.get("/api/balances", headers=headers)
    if action == "view_own_ledger":
        me = cast.by_role()[role].id if role in ROLES else cast.alice.id
        return client.get(f"/api/accounts/{me}/ledger", headers=headers)
    if action == "open_table":
        return client.post("/api/tables", json={"name": "T"}, headers=headers)
    if action == "end_event":  # the admin goes first and ends it; the other roles are refused by role
        return client.post(f"/api/events/{cast.event.id}/end", headers=headers)
    if action == "event_settings":
        return client.patch(f"/api/events/{cast.event.id}", json={"seed_reveal": "event_end"}, headers=headers)
    if action == "manage_table":
        t = room.tables.open(cast.dealer, "Managed")
        return client.post(f"/api/tables/{t.id}/status", json={"status": "paused"}, headers=headers)
    if action == "set_limits":
        return client.put("/api/limits", json={"game": "poker", "min_bet": 50, "max_bet": 1_000}, headers=headers)
    if action == "set_float":
        return client.put("/api/float", json={"amount": 10_000}, headers=headers)
    if action == "run_draws":  # the host lists a draw's prizes and its ticket rule
        return client.post("/api/draws", json={"name": "Wave", "tickets": {"rate": 10_000},
                                               "prizes": [{"name": "Hamper", "value": 5_000}]}, headers=headers)
    if action == "run_screen":  # the host puts an announcement on the room's big screen
        return client.patch(f"/api/events/{cast.event.id}/screen", json={"announcements": ["Raffle at 10 pm"]},
                            headers=headers)
    if action == "run_door":  # the door's tablet looks a guest up
        return client.get("/api/door/guests", params={"q": "a"}, headers=headers)
    if action == "count_cash":  # at Bokuden's table (its dealer does not count it: someone else does)
        t = room.tables.open(cast.dealer, "Counted")
        return client.post(f"/api/tables/{t.id}/cash-count", json={"counted": 0}, headers=headers)
    if action == "view_cash":
        return client.get("/api/cash", headers=headers)
    if action == "approve_sale":  # a sale Bokuden asked for at his table, waiting for approval
        t = room.tables.open(cast.dealer, "Sold")
        with room.store.transaction() as repo:
            walk_in = repo.add_account(cast.event.id, "W" + secrets.token_hex(4), "player", NO_PASSWORD, now(),
                                       kind=WALK_IN)
            sale = repo.add_chip_sale(t.id, 1, walk_in.id, 5_000, cast.dealer.id, now())
        return client.post(f"/api/chip-sales/{sale.id}/approve", headers=headers)
    if action == "link_walk_in":
        with room.store.transaction() as repo:
            walk_in = repo.add_account(cast.event.id, "W" + secrets.token_hex(4), "player", NO_PASSWORD, now(),
                                       kind=WALK_IN)
        return client.post(f"/api/walk-ins/{walk_in.id}/link", json={"player": cast.bob.id}, headers=headers)
    if action == "clock_in":  # each role once: a dealer and a pit boss who deals clock in
        return client.post("/api/shifts/clock-in", headers=headers)
    if action == "view_floor":
        return client.get("/api/shifts", headers=headers)
    raise AssertionError(action)


REST_ACTIONS = [a for a in PERMISSIONS if a not in ("play", "watch")]  # those two are live play (WebSocket)


@pytest.mark.parametrize("action", REST_ACTIONS)
def test_authorization_matrix(client, room, cast, action) -> None:
    names = {"admin": "admin", "pit_boss": "Jean-Marc", "dealer": "Bokuden", "player": "Alice", "spectator": "Sam"}
    for role in ROLES:
        r = _attempt(client, room, cast, action, bearer(client, cast.event.id, names[role]), role)
        if allowed(role, action):
            assert 200 <= r.status_code < 300, (role, action, r.text)
        else:
            assert r.status_code == 403, (role, action, r.text)
            assert r.json()["error"]["rule"] == action
    assert _attempt(client, room, cast, action, {}, "nobody").status_code == 401


# -- bad input ----------------------------------------------------------------------------
BAD_AMOUNTS = [-1, 0, 1.5, 100.0, "100", "1e3", True, None, [], {}, 10**12, 2**64, 2**200]


@pytest.mark.parametrize("amount", BAD_AMOUNTS)
def test_bad_amounts_get_422_and_change_nothing(client, room, cast, amount) -> None:
    h = bearer(client, cast.event.id, "admin")
    r = client.post("/api/cashier/buy-in", json={"player": cast.alice.id, "amount": amount}, headers=h)
    assert r.status_code == 422 and r.json()["error"]["rule"] == "validation"
    assert room.ledger.explain(cast.event.id, player_key(cast.alice.id)) == []


@pytest.mark.parametrize("method,path,body", [
    ("post", "/api/cashier/buy-in", b"{not json"),
    ("post", "/api/cashier/buy-in", b""),
    ("post", "/api/cashier/buy-in", b"[1, 2]"),
    ("post", "/api/cashier/buy-in", b'{"player": 1, "amount": 100, "extra": 1}'),
    ("post", "/api/cashier/buy-in", b'{"player": "1", "amount": 100}'),
    ("post", "/api/cashier/buy-in", b'{"player": 99999999999999999999, "amount": 100}'),
    ("post", "/api/tables", b'{"name": "' + b"x" * 5000 + b'"}'),
    ("post", "/api/tables", b'{"name": "T", "game": "roulette"}'),
    ("post", "/api/tables", b'{"name": "T", "overrides": {"decks": [1, 2]}}'),
    ("post", "/api/accounts", b'{"name": "X", "role": "god", "password": "12345678"}'),
    ("post", "/api/roster/revoke", b'{"dealer": 7}'),
    ("post", "/api/tables/99999999999999999999/status", b'{"status": "open"}'),
    ("get", "/api/accounts/0/ledger", None),
    ("get", "/api/tables/abc", None),
])
def test_malformed_requests_get_4xx(client, room, cast, method, path, body) -> None:
    h = {**bearer(client, cast.event.id, "admin"), "content-type": "application/json"}
    r = client.request(method.upper(), path, content=body, headers=h)
    assert 400 <= r.status_code < 500, (path, body, r.status_code, r.text)
    assert "error" in r.json()
    assert room.ledger.total(cast.event.id) == 0


@pytest.mark.parametrize("path", ["/api/tables/2147483000", "/api/accounts/2147483000/ledger"])
def test_unknown_ids_are_404(client, cast, path) -> None:
    r = client.get(path, headers=bearer(client, cast.event.id, "admin"))
    assert r.status_code == 404


def test_rules_errors_name_the_key(client, cast) -> None:
    h = bearer(client, cast.event.id, "Bokuden")
    r = client.post("/api/tables", json={"name": "T", "overrides": {"decks": 99}}, headers=h)
    assert r.status_code == 400 and "decks" in r.json()["error"]["message"]
    ok = client.post("/api/tables", json={"name": "T", "preset": "jupiters",
                                          "overrides": {"min_bet": 500, "max_bet": 20_000}}, headers=h)
    assert ok.status_code == 201 and ok.json()["rules"]["min_bet"] == 500


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.dictionaries(st.sampled_from(["player", "amount", "name", "x"]), JSONISH, max_size=3))
def test_random_bodies_never_500_never_move_chips(client, room, cast, body) -> None:
    h = bearer(client, cast.event.id, "admin") if not hasattr(cast, "_h") else cast._h  # type: ignore[attr-defined]
    cast._h = h  # type: ignore[attr-defined]
    before = room.ledger.explain(cast.event.id, player_key(cast.alice.id))
    for path in ("/api/cashier/buy-in", "/api/cashier/cash-out", "/api/tables", "/api/roster/authorize"):
        r = client.post(path, content=json.dumps(body), headers={**h, "content-type": "application/json"})
        assert r.status_code < 500, (path, body, r.text)
    after = room.ledger.explain(cast.event.id, player_key(cast.alice.id))
    valid_buy_in = (set(body) == {"player", "amount"} and body["player"] == cast.alice.id
                    and type(body["amount"]) is int and 1 <= body["amount"] <= 10**9)
    if not valid_buy_in:
        assert len(after) == len(before)


def test_account_names_are_canonical_over_the_api(client, cast) -> None:
    ev = cast.event.id
    admin = bearer(client, ev, "ADMIN ")  # finds "admin"
    before = client.get("/api/accounts", headers=admin).json()
    for name in ("Admin", "admin ", "ALICE"):
        r = client.post("/api/accounts", headers=admin, json={"name": name, "role": "player", "password": PASSWORD})
        assert r.status_code == 409, r.text
        assert r.json()["error"]["rule"] == "name" and "unique" in r.json()["error"]["message"]
    assert client.get("/api/accounts", headers=admin).json() == before
    r = client.post(f"/api/events/{ev}/session", json={"name": " alice", "password": PASSWORD})
    assert r.status_code == 200 and r.json()["account"]["name"] == "Alice"
