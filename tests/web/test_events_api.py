"""POST /api/events (a new event and its first admin) and GET /api/hands?player= (the search by
player), on SQLite and PostgreSQL. Which role may do each is checked cell by cell in
test_api.py's authorization matrix; here: what they do, and bad input."""

from __future__ import annotations

import secrets

import pytest
from fastapi.testclient import TestClient

from syndicate.room.ledger import now
from syndicate.web import create_app
from tests.kit.room import FAST_HASHER, PASSWORD, bearer, make_cast


@pytest.fixture
def client(database, room, cast):
    # The test's event is the deployment's current one: only its admins create events.
    app = create_app(database=database, hasher=FAST_HASHER, migrate=False, current_event=cast.event.name)
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def test_an_admin_opens_an_event_whose_admin_signs_in(client, cast) -> None:
    name = "Spring " + secrets.token_hex(3)
    r = client.post("/api/events", json={"name": name, "admin": {"name": "Jean", "password": "a long password"}},
                    headers=bearer(client, cast.event.id, "admin"))
    assert r.status_code == 201, r.text
    ev = r.json()
    assert ev["name"] == name and ev["admin"]["name"] == "Jean" and ev["admin"]["role"] == "admin"
    assert "password_hash" not in ev["admin"] and "a long password" not in r.text
    listed = {e["id"]: e for e in client.get("/api/events").json()}
    assert listed[ev["id"]] == {"id": ev["id"], "name": name, "seed_reveal": "table_close", "ended_at": None,
                                "ended_by": None, "turn_clock": {}, "sale_limit": None, "door": None, "play_money": False,
                                "prize_cap": None, "shift_minutes": None, "break_minutes": None,
                                "current": False}
    h = bearer(client, ev["id"], "Jean", "a long password")
    me = client.get("/api/me", headers=h).json()["account"]
    assert me["id"] == ev["admin"]["id"] and me["role"] == "admin"
    assert [a["name"] for a in client.get("/api/accounts", headers=h).json()] == ["Jean"]


def test_a_taken_event_name_is_409_and_creates_nothing(client, room, cast) -> None:
    before = client.get("/api/events").json()
    r = client.post("/api/events", json={"name": cast.event.name, "admin": {"name": "X", "password": PASSWORD}},
                    headers=bearer(client, cast.event.id, "admin"))
    assert r.status_code == 409
    assert r.json()["error"]["rule"] == "event_name" and "unique" in r.json()["error"]["message"]
    assert client.get("/api/events").json() == before


@pytest.mark.parametrize("body", [
    {},
    {"name": "Night"},
    {"name": "Night", "admin": {"name": "A"}},
    {"name": "Night", "admin": {"name": "A", "password": "short"}},
    {"name": "Night", "admin": {"name": "A", "password": 12345678}},
    {"name": "", "admin": {"name": "A", "password": PASSWORD}},
    {"name": "x" * 41, "admin": {"name": "A", "password": PASSWORD}},
    {"name": 7, "admin": {"name": "A", "password": PASSWORD}},
    {"name": "Night", "admin": "A"},
    {"name": "Night", "admin": {"name": "A", "password": PASSWORD, "role": "player"}},
    {"name": "Night", "admin": {"name": "A", "password": PASSWORD}, "extra": 1},
    [1, 2],
])
def test_bad_event_bodies_are_422(client, cast, body) -> None:
    before = client.get("/api/events").json()
    r = client.post("/api/events", json=body, headers=bearer(client, cast.event.id, "admin"))
    assert r.status_code == 422 and r.json()["error"]["rule"] == "validation", r.text
    assert client.get("/api/events").json() == before


@pytest.mark.parametrize("name,field", [("Night!", "name"), (" lead", "name")])
def test_names_the_room_refuses_are_400_naming_the_field(client, cast, name, field) -> None:
    r = client.post("/api/events", json={"name": name, "admin": {"name": "A", "password": PASSWORD}},
                    headers=bearer(client, cast.event.id, "admin"))
    assert r.status_code == 400 and r.json()["error"]["rule"] == field
    r = client.post("/api/events", json={"name": "Ok " + secrets.token_hex(3),
                                         "admin": {"name": "bad/name", "password": PASSWORD}},
                    headers=bearer(client, cast.event.id, "admin"))
    assert r.status_code == 400 and r.json()["error"]["rule"] == "admin.name"


# -- hands by player ------------------------------------------------------------------------
def _hands(room, cast) -> tuple[int, int, int]:
    """Three finished hands: Alice and Bob, Bob alone, and one in play with Alice."""
    t = room.tables.open(cast.dealer, "Search")
    doc = {"hands": [{"result": {"net": [[1, 0]]}}]}
    with room.store.transaction() as repo:
        both = repo.add_hand(t.id, 1, "poker", secrets.token_hex(32), doc, now(), [(1, cast.alice.id), (2, cast.bob.id)])
        bob = repo.add_hand(t.id, 2, "poker", secrets.token_hex(32), doc, now(), [(2, cast.bob.id)])
        playing = repo.add_hand(t.id, 3, "poker", secrets.token_hex(32), doc, now(), [(1, cast.alice.id)])
        for h in (both, bob):
            repo.update_hand(h, "settled", doc, now())
    return both, bob, playing


def test_a_player_finds_the_hands_they_played(client, room, cast) -> None:
    both, bob, _ = _hands(room, cast)
    alice = bearer(client, cast.event.id, "Alice")
    assert [h["id"] for h in client.get("/api/hands", params={"player": cast.alice.id}, headers=alice).json()] \
        == [both]  # never the hand still in play
    r = client.get("/api/hands", params={"player": cast.bob.id}, headers=alice)
    assert r.status_code == 403 and r.json()["error"]["rule"] == "search_any_hands"
    boss = bearer(client, cast.event.id, "Jean-Marc")
    assert [h["id"] for h in client.get("/api/hands", params={"player": cast.bob.id}, headers=boss).json()] \
        == [both, bob]


def test_another_events_account_is_404(client, room, cast) -> None:
    other = make_cast(room)
    r = client.get("/api/hands", params={"player": other.alice.id}, headers=bearer(client, cast.event.id, "admin"))
    assert r.status_code == 404 and r.json()["error"]["rule"] == "account"


@pytest.mark.parametrize("player", ["0", "-1", "abc", "1.5", "99999999999999999999", "", "1e3"])
def test_bad_player_ids_are_422(client, cast, player) -> None:
    r = client.get(f"/api/hands?player={player}", headers=bearer(client, cast.event.id, "admin"))
    assert r.status_code == 422 and r.json()["error"]["rule"] == "validation", r.text


def test_the_python_client_speaks_both(client, room, cast) -> None:
    from syndicate.apps.client import ApiError, RoomClient

    both, _, _ = _hands(room, cast)
    rc = RoomClient("http://testserver")
    rc.http = client  # the TestClient is an httpx.Client
    rc.sign_in(cast.event.id, "Alice", PASSWORD)
    assert [h["id"] for h in rc.hands(player=cast.alice.id)] == [both]
    with pytest.raises(ApiError) as e:
        rc.create_event("Nope " + secrets.token_hex(3), "A", PASSWORD)
    assert e.value.status == 403 and e.value.rule == "create_event"
    rc.sign_in(cast.event.id, "admin", PASSWORD)
    made = rc.create_event("Via client " + secrets.token_hex(3), "Lead", PASSWORD)
    assert made["admin"]["name"] == "Lead"
