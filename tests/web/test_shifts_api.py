"""The shifts over HTTP (docs/dealer.md, "Shifts, breaks and handovers"), on both databases: a
dealer clocks in once, goes on a break and comes back, and clocks out; each refusal answers its
status and names its rule, changing nothing; the host sets the rotation's lengths; the floor is
the admin's and the pit bosses', and the plan is public with names and times only."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from syndicate.web import create_app
from tests.kit.room import FAST_HASHER, PASSWORD, bearer

pytestmark = pytest.mark.both_databases


@pytest.fixture
def client(database, room, cast):
    app = create_app(database=database, hasher=FAST_HASHER, migrate=False, current_event=cast.event.name)
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def _rule(r, status: int) -> str:  # type: ignore[no-untyped-def]
    assert r.status_code == status, r.text
    return str(r.json()["error"]["rule"])


def test_a_shift_over_http_and_its_refusals(client, room, cast) -> None:
    room.accounts.add(cast.event.id, "Ryuusei", "dealer", PASSWORD)
    ryu = bearer(client, cast.event.id, "Ryuusei")
    alice = bearer(client, cast.event.id, "Alice")
    admin = bearer(client, cast.event.id, "admin")
    assert _rule(client.post("/api/shifts/clock-out", headers=ryu), 409) == "clocked_out"
    r = client.post("/api/shifts/clock-in", headers=ryu)
    assert r.status_code == 200 and r.json()["state"] == "waiting", r.text
    r = client.post("/api/shifts/clock-in", headers=ryu)
    assert _rule(r, 409) == "clocked_in" and "once a shift" in r.json()["error"]["message"]
    assert _rule(client.post("/api/shifts/clock-in", headers=alice), 403) == "clock_in"
    ghost = bearer(client, cast.event.id, "Ghost")
    assert _rule(client.post("/api/shifts/clock-in", headers=ghost), 403) == "authorized_dealer"
    assert _rule(client.get("/api/shifts", headers=alice), 403) == "view_floor"
    # Bokuden opens a table (clocked in by it): Ryuusei is free to take it from him
    t = client.post("/api/tables", json={"name": "Floor", "cards": "real"}, headers=bearer(client, cast.event.id,
                                                                                          "Bokuden")).json()
    me = client.get("/api/shifts/me", headers=bearer(client, cast.event.id, "Bokuden")).json()
    assert me["state"] == "dealing" and me["tables"][0]["name"] == "Floor" and me["free"] == ["Ryuusei"]
    r = client.patch(f"/api/events/{cast.event.id}", json={"shift_minutes": 45, "break_minutes": 10}, headers=admin)
    assert r.status_code == 200 and (r.json()["shift_minutes"], r.json()["break_minutes"]) == (45, 10), r.text
    r = client.patch(f"/api/events/{cast.event.id}", json={"shift_minutes": 45}, headers=ryu)
    assert _rule(r, 403) == "event_settings"
    floor = client.get("/api/shifts", headers=admin).json()
    assert (floor["shift_minutes"], floor["break_minutes"]) == (45, 10)
    states = {d["dealer"]: (d["state"], [x["name"] for x in d["tables"]]) for d in floor["dealers"]}
    assert states["Bokuden"] == ("dealing", ["Floor"]) and states["Ryuusei"] == ("waiting", [])
    plan = client.get("/api/shifts/plan").json()  # public: no sign-in
    assert [(n["table"], n["dealer_out"], n["dealer_in"]) for n in plan["next"]] == [("Floor", "Bokuden", "Ryuusei")]
    assert set(plan["next"][0]) == {"table", "dealer_out", "dealer_in", "at"}
    assert client.get(f"/api/events/{cast.event.id}/shifts/plan").json()["next"] == plan["next"]
    assert floor["next"] == plan["next"]
    # the room's big screen shows the same rotation, names and times only
    shown = client.get(f"/api/events/{cast.event.id}/screen").json()["rotation"]
    assert shown == [{"name": "Ryuusei takes over from Bokuden", "table": "Floor", "at": plan["next"][0]["at"]}]
    # breaks
    assert client.post("/api/shifts/break", headers=ryu).json()["state"] == "on_break"
    assert _rule(client.post("/api/shifts/break", headers=ryu), 409) == "on_break"
    assert client.post("/api/shifts/back", headers=ryu).json()["state"] == "waiting"
    assert _rule(client.post("/api/shifts/back", headers=ryu), 409) == "not_on_break"
    boku = bearer(client, cast.event.id, "Bokuden")
    assert _rule(client.post("/api/shifts/clock-out", headers=boku), 409) == "holds_table"
    assert client.get("/api/tables/{}".format(t["id"]), headers=boku).json()["dealer_id"] == cast.dealer.id
    assert client.post("/api/shifts/clock-out", headers=ryu).json()["state"] == "clocked_out"
