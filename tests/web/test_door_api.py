"""The door through the API (docs/door.md): 20 guests imported from a CSV file and checked in at
the door's rate, each signing in on their own phone with a voucher (a fresh client, no password),
a voucher refused the second time and once revoked; what the door took and the chips it issued
agree with the ledger to the cent."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from fastapi.testclient import TestClient

from syndicate.room.ledger import player_key
from syndicate.web import create_app
from tests.kit.room import FAST_HASHER, bearer

NAMES = ["Ako Tanaka", "Ben Ortiz", "Cleo Park", "Dan Wu", "Eve Moreau", "Femi Adeyemi", "Gus Lind", "Hana Sato",
         "Ivo Petrov", "Jun Kim", "Kai Berg", "Lena Vogel", "Milo Reyes", "Nia Brooks", "Omar Haddad",
         "Pia Rossi", "Quinn Doyle", "Rosa Lima", "Sven Holm", "Tia Nguyen"]
CSV = "Name,Email,Ticket\r\n" + "".join(f"{n},{n.split()[0].lower()}@example.org,{i}\r\n" for i, n in enumerate(NAMES))


@pytest.fixture
def app(database, room, cast):  # type: ignore[no-untyped-def]
    return create_app(database=database, hasher=FAST_HASHER, migrate=False, current_event=cast.event.name)


@pytest.fixture
def client(app):  # type: ignore[no-untyped-def]
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def test_twenty_guests_from_the_door_to_their_phones(app, client, room, cast) -> None:
    admin = bearer(client, cast.event.id, "admin")
    boss = bearer(client, cast.event.id, "Jean-Marc")  # the pit boss runs the door's tablet
    r = client.put("/api/door/rate", json={"paid": 2_000, "chips": 100_000}, headers=admin)
    assert r.status_code == 200, r.text
    assert r.json()["door"] == {"paid": 2_000, "chips": 100_000, "stack": None}
    # the door's page, on the pit boss's tablet or the admin's after a reload, reads the rate here
    assert client.get("/api/events/current").json()["door"] == {"paid": 2_000, "chips": 100_000, "stack": None}
    r = client.post("/api/door/guests", json={"csv": CSV}, headers=boss)
    assert r.status_code == 201, r.text
    assert r.json()["imported"] == 20
    taken = 0
    for i, name in enumerate(NAMES):
        [g] = client.get("/api/door/guests", params={"q": name.split()[1].upper()}, headers=boss).json()
        assert g["name"] == name and g["checked_in"] is None
        method, paid = ("comp", 0) if i == 0 else ("card" if i % 3 else "cash", 2_000 + 500 * i)
        if method == "comp":
            r = client.post(f"/api/door/guests/{g['id']}/check-in", json={"method": "comp"}, headers=boss)
            assert r.status_code == 409 and r.json()["error"]["rule"] == "door_stack"
            client.put("/api/door/rate", json={"paid": 2_000, "chips": 100_000, "stack": 100_000}, headers=admin)
            r = client.post(f"/api/door/guests/{g['id']}/check-in", json={"method": "comp"}, headers=boss)
            client.put("/api/door/rate", json={"paid": 2_000, "chips": 100_000}, headers=admin)
        else:
            r = client.post(f"/api/door/guests/{g['id']}/check-in", json={"method": method, "paid": paid}, headers=boss)
        assert r.status_code == 201, r.text
        assert r.json()["chips"] == (100_000 if i == 0 else paid * 50)
        taken += paid
        v = client.post(f"/api/door/guests/{g['id']}/voucher", headers=boss).json()
        assert v["url"] == f"http://testserver/voucher#{v['voucher']}" and v["qr"].startswith("<?xml")
        # the guest's phone opens the address: the page sends the fragment's secret
        phone = TestClient(app)
        secret = urlsplit(v["url"]).fragment
        r = phone.post("/api/voucher", json={"voucher": secret})
        assert r.status_code == 200, r.text
        assert phone.get("/api/me").json()["account"]["name"] == name
        assert phone.post("/api/voucher", json={"voucher": secret}).json()["error"]["rule"] == "voucher_used"
    paid_in = client.get("/api/door/payments", headers=admin).json()
    assert len(paid_in) == 20 and sum(p["paid"] for p in paid_in) == taken
    issued = sum(p["chips"] for p in paid_in)
    ev = cast.event.id
    assert issued == sum(room.ledger.balance(ev, player_key(p["guest"])) for p in paid_in)
    assert room.ledger.total(ev) == 0


def test_a_revoked_voucher_and_bad_input_at_the_door(app, client, cast) -> None:
    boss = bearer(client, cast.event.id, "Jean-Marc")
    assert client.post("/api/door/guests", json={"csv": CSV}, headers=boss).status_code == 201
    r = client.post("/api/door/guests", json={"csv": "name\nZed\nzed\n"}, headers=boss)
    assert r.status_code == 409 and r.json()["error"]["rule"] == "duplicate_guest"
    assert "line 3" in r.json()["error"]["message"]
    assert client.get("/api/door/guests", params={"q": "zed"}, headers=boss).json() == []
    [g] = client.get("/api/door/guests", params={"q": "Ako"}, headers=boss).json()
    secret = client.post(f"/api/door/guests/{g['id']}/voucher", headers=boss).json()["voucher"]
    assert client.post(f"/api/door/guests/{g['id']}/voucher/revoke", headers=boss).json() == {"revoked": 1}
    phone = TestClient(app)
    r = phone.post("/api/voucher", json={"voucher": secret})
    assert r.status_code == 401 and r.json()["error"]["rule"] == "voucher_revoked"
    assert phone.get("/api/me").status_code == 401
    r = client.post(f"/api/door/guests/{g['id']}/check-in", json={"method": "cash", "paid": 2_000}, headers=boss)
    assert r.status_code == 409 and r.json()["error"]["rule"] == "door_rate"
    r = client.post(f"/api/door/guests/{g['id']}/check-in", json={"method": "cash", "paid": 20.5}, headers=boss)
    assert r.status_code == 422
    player = bearer(client, cast.event.id, "Alice")
    r = client.get("/api/door/guests", headers=player)
    assert r.status_code == 403 and r.json()["error"]["rule"] == "run_door"
