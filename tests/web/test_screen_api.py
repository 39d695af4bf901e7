"""The room's big screen through the API (docs/screen.md): the host's settings (the event's admin
only, every refusal naming its rule and changing nothing), and the public answer the screen
polls, which never holds the hand in play nor a card a spectator may not see."""

from __future__ import annotations

import asyncio
import json
import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from syndicate.core.cards import parse
from syndicate.core.shoe import Shoe
from syndicate.room.live.clocks import Timers
from syndicate.web import create_app
from tests.kit.room import FAST_HASHER, PASSWORD, bearer
from tests.kit.table import local_room
from tests.web.test_live_poker import choose


@pytest.fixture
def client(database, room, cast):  # type: ignore[no-untyped-def]
    app = create_app(database=database, hasher=FAST_HASHER, migrate=False, current_event=cast.event.name)
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def _screen(client: TestClient, event_id: int) -> dict[str, Any]:
    r = client.get(f"/api/events/{event_id}/screen")  # no sign-in: the screen is public
    assert r.status_code == 200, r.text
    return r.json()


def _fresh(client: TestClient) -> None:
    """Forget the answer made less than a second ago (one answer serves every screen that asks
    within a second), so the next read is made now."""
    client.app.state.screen_answers.clear()  # type: ignore[attr-defined]


@pytest.mark.both_databases
def test_the_host_sets_the_screen_and_no_one_else_may(client, room, cast) -> None:
    ev = cast.event.id
    path = f"/api/events/{ev}/screen"
    admin = bearer(client, ev, "admin")
    table = room.tables.open(cast.dealer, "Bokuden's")
    assert _screen(client, ev)["announcements"] == [] and _screen(client, ev)["countdown"] is None

    r = client.patch(path, json={"announcements": ["Raffle at 10 pm", "  Drinks   at the bar "],
                                 "countdown": {"label": "Tables close", "minutes": 15},
                                 "featured": {"table": table.id, "delay": 2}}, headers=admin)
    assert r.status_code == 200, r.text
    assert r.json()["announcements"] == ["Raffle at 10 pm", "Drinks at the bar"]
    _fresh(client)
    shown = _screen(client, ev)
    assert shown["announcements"] == ["Raffle at 10 pm", "Drinks at the bar"]
    assert shown["countdown"]["label"] == "Tables close" and 14 * 60 < shown["countdown"]["seconds_left"] <= 15 * 60
    assert shown["featured"] == {"table": table.id, "name": "Bokuden's", "game": table.game, "delay": 2, "hand": None}
    assert [t["name"] for t in shown["tables"]] == ["Bokuden's"] and shown["tables"][0]["dealer"] == "Bokuden"

    # a countdown at a time of day, with its offset; the other settings stay
    at = (datetime.now(UTC) + timedelta(hours=2)).astimezone(datetime.now().astimezone().tzinfo)
    r = client.patch(path, json={"countdown": {"label": "Raffle", "ends_at": at.isoformat()}}, headers=admin)
    assert r.status_code == 200 and r.json()["announcements"] == ["Raffle at 10 pm", "Drinks at the bar"]
    assert datetime.fromisoformat(r.json()["countdown"]["ends_at"]) == at.replace(microsecond=at.microsecond)

    # only the event's admin: every other role is refused by the rule, a stranger is not signed in
    for name in ("Jean-Marc", "Bokuden", "Alice", "Sam"):
        r = client.patch(path, json={"announcements": ["Free drinks"]}, headers=bearer(client, ev, name))
        assert r.status_code == 403 and r.json()["error"]["rule"] == "run_screen", (name, r.text)
    assert client.patch(path, json={"announcements": ["Free drinks"]}).status_code == 401

    other = room.accounts.open_event(cast.admin, "Another night", "host2", PASSWORD)[0]
    elsewhere = room.tables.open(cast.dealer, "Elsewhere")
    room.tables.set_status(cast.admin, elsewhere.id, "closed")
    before = room.screen.settings(ev)
    refusals = [
        ({"announcements": ["x"] * 7}, 400, "announcements"),
        ({"announcements": ["x" * 161]}, 400, "announcements"),
        ({"announcements": ["   "]}, 400, "announcements"),
        ({"countdown": {"label": "Past", "ends_at": "2020-01-01T20:00:00+00:00"}}, 400, "countdown"),
        ({"countdown": {"label": "Next week", "minutes": 7 * 24 * 60}}, 400, "countdown"),
        ({"countdown": {"label": "No offset", "ends_at": "2030-01-01T20:00:00"}}, 400, "countdown"),
        ({"countdown": {"label": "", "minutes": 5}}, 400, "countdown"),
        ({"countdown": {"label": "Both", "minutes": 5, "ends_at": at.isoformat()}}, 400, "countdown"),
        ({"featured": {"table": table.id, "delay": 0}}, 400, "delay"),
        ({"featured": {"table": table.id, "delay": 21}}, 400, "delay"),
        ({"featured": {"table": 2_000_000_000, "delay": 1}}, 404, "table"),
        ({"featured": {"table": elsewhere.id, "delay": 1}}, 409, "table_status"),
        ({}, 400, "screen"),
        ({"featured": {"table": "1", "delay": 1}}, 422, "validation"),
        ({"colour": "red"}, 422, "validation"),
    ]
    for body, status, rule in refusals:
        r = client.patch(path, json=body, headers=admin)
        assert (r.status_code, r.json()["error"]["rule"]) == (status, rule), (body, r.text)
    r = client.patch(f"/api/events/{other.id}/screen", json={"announcements": []}, headers=admin)
    assert r.status_code == 403 and r.json()["error"]["rule"] == "own_event"
    assert room.screen.settings(ev) == before  # a refusal changes nothing
    assert client.get("/api/events/2000000000/screen").json()["error"]["rule"] == "event"

    # cleared: no countdown, no featured table
    r = client.patch(path, json={"countdown": None, "featured": None, "announcements": []}, headers=admin)
    assert r.json() == {"announcements": [], "countdown": None, "featured": None}


#: One Blackjack seat, every round the same: Ts 6d (16) against the dealer's Th up and the 8s in
#: the hole; the seat hits and draws the Kc: bust. (The hole card is turned when the round ends:
#: a finished round hides nothing, so at Blackjack the screen's rule is the hand in play.)
BUST = "Ts Th 6d 8s Kc"


def _hidden(history: dict[str, Any]) -> set[str]:
    """The cards of a stored (house) one-hand history that no spectator saw: at Blackjack the
    hole card never turned; at draw every private card not shown (the Ace shown with a four-card
    draw, a hand shown down)."""
    if "rounds" in history:
        rd = history["rounds"][0]
        turned = any(r["type"] == "reveal" for r in rd["log"])
        return set() if turned else {r["card"] for r in rd["log"] if r["type"] == "card" and not r["face_up"]}
    entry = history["hands"][0]
    held: set[str] = set()
    shown: set[str] = set()
    for r in entry["log"]:
        if r["type"] == "deal":
            held.update(r["cards"])
        elif r["type"] == "draw":
            held.update(r["received"])
            if r.get("shown"):
                shown.add(r["shown"])
        elif r["type"] == "show":
            shown.update(r["cards"])
    return held - shown


def test_the_screen_shows_a_hand_only_delay_hands_later_and_as_a_spectator_sees_it(client, room, cast) -> None:
    ev = cast.event.id
    admin = bearer(client, ev, "admin")
    carol = room.accounts.add(ev, "Carol", "player", PASSWORD)
    for who in (cast.alice, cast.bob, carol):
        room.cashier.buy_in(cast.admin, who.id, 100_000)
    bj = room.tables.open(cast.dealer, "Twenty-one", overrides={"min_bet": 500, "max_bet": 5_000})
    draw = room.tables.open(cast.dealer, "Draw", game="poker")
    rng = random.Random(7)
    checked = {"hidden": 0, "hands": 0}

    def shoe(rules: Any) -> Shoe:
        return Shoe.stacked(parse(" ".join([BUST] * 60), distinct=False), decks=rules.decks)

    def featured(table: int, delay: int) -> dict[str, Any]:
        r = client.patch(f"/api/events/{ev}/screen", json={"featured": {"table": table, "delay": delay}}, headers=admin)
        assert r.status_code == 200, r.text
        _fresh(client)
        return _screen(client, ev)

    def check(table: int, delay: int) -> None:
        """The hand on the screen is the table's latest settled hand ``delay`` hands back, as a
        spectator sees it; the hand in play and every card nobody saw are nowhere in it."""
        with room.store.transaction() as repo:
            hands = repo.hands(ev, table, limit=10_000)
        shown = featured(table, delay)
        text = json.dumps(shown)
        last = max(h.number for h in hands)
        due = [h for h in hands if h.status == "settled" and h.number <= last - delay]
        hand = shown["featured"]["hand"]
        if not due:
            assert hand is None
        else:
            assert hand["hand_id"] == due[-1].id and hand["number"] == due[-1].number
        playing = [h for h in hands if h.status == "playing"]
        for h in playing:
            assert f'"hand_id": {h.id}' not in text and (hand is None or hand["hand_id"] != h.id)
        if hand is not None:
            stored = next(h for h in hands if h.id == hand["hand_id"]).history
            for c in _hidden(stored):
                assert f'"{c}"' not in text, f"{c}, never shown at the table, is on the screen"
                checked["hidden"] += 1
            assert '"seed"' not in text.replace('"seed": null', "") and "openings" not in text
            checked["hands"] += 1

    async def play() -> None:
        async with local_room(room, Timers(turn=None), new_shoe=shoe) as local:
            dealer = await local.connect(bj.id, cast.dealer)
            alice = await local.connect(bj.id, cast.alice)
            await alice.act("sit", seat=1, amount=20_000)
            for _ in range(3):
                await dealer.act("start_round")
                await alice.act("bet", amount=500)
                await dealer.act("deal")
                await alice.wait(lambda s: "hit" in s["round"]["legal_actions"])
                st = await alice.act("hit")
                st = await dealer.wait(lambda s: s["round"]["phase"] == "settled")
                check(bj.id, 1)
                check(bj.id, 2)
            await dealer.act("start_round")
            await alice.act("bet", amount=500)  # a round in play: stored from its first bet
            check(bj.id, 1)

            dealer = await local.connect(draw.id, cast.dealer)
            seats = {}
            for seat, who in ((1, cast.alice), (2, cast.bob), (3, carol)):
                seats[seat] = await local.connect(draw.id, who)
                await seats[seat].act("sit", seat=seat, amount=20_000)
            for n in range(8):
                last = (await dealer.act("start_round"))["version"]
                while True:
                    st = await dealer.wait(lambda s, v=last: s["version"] >= v)
                    if st["round"]["phase"] == "complete":
                        break
                    if n == 7:  # the last hand stays in play
                        break
                    p = seats[st["round"]["to_act"]]
                    mine = await p.wait(lambda s, v=st["version"]: s["version"] >= v)
                    action, fields = choose(mine, rng)
                    last = (await p.act(action, **fields))["version"]
                check(draw.id, 1)
                check(draw.id, 3)

    asyncio.run(play())
    assert checked["hands"] >= 15 and checked["hidden"] >= 20, checked
