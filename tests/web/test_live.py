"""Live Blackjack end to end: a real uvicorn server on a loopback port, a dealer, two players and
a spectator on WebSockets through :mod:`syndicate.apps.client`, random legal play for many rounds.

Checked: the ledger agrees with the table to the cent (and sums to zero), every stored hand
replays exactly through the engine, no message to anyone ever carries the hole card before it
is revealed, and bad or repeated actions change nothing.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest

from syndicate.apps.client import ActionRefused, RoomClient, TableClient, random_play
from syndicate.blackjack.history import replay, verify
from syndicate.room.ledger import player_key
from syndicate.room.seating import stack_key
from tests.kit.room import PASSWORD, LiveServer

ROUNDS = {"sqlite": 200, "postgresql": 120}  # the first shoe is finished well before the end


def sign_in(server: LiveServer, event_id: int, name: str) -> RoomClient:
    c = RoomClient(server.url)
    c.sign_in(event_id, name, PASSWORD)
    return c


def hole_cards(room, event_id: int, table_id: int) -> dict[int, str]:
    """The truth, from the stored hands: each hand's hole card."""
    out = {}
    with room.store.transaction() as repo:
        for h in repo.hands(event_id, table_id, limit=10_000):
            for r in h.history["rounds"][0]["log"]:
                if r["type"] == "card" and r["seat"] == -1 and not r["face_up"]:
                    out[h.number] = r["card"]
    return out


def assert_no_hidden_card(messages: list[dict[str, Any]], holes: dict[int, str]) -> int:
    """Every state message before the reveal: the hole card is nowhere but where it may
    legitimately show (the same rank and suit dealt face up elsewhere from a multi-deck shoe)."""
    checked = 0
    for m in messages:
        text = json.dumps(m)
        assert '"seed": "' not in text and '"order": "' not in text
        rd = m.get("round")
        if m.get("type") not in ("welcome", "state") or rd is None:
            continue
        revealed = any(r["type"] == "reveal" for r in m["log"])
        if revealed or len(rd["dealer"]["cards"]) < 2:
            continue
        assert rd["dealer"]["cards"][1] is None
        public = [rd["dealer"]["cards"][0]]
        for r in m["log"]:
            if r["type"] == "card":
                if r["seat"] == -1 and not r["face_up"]:
                    assert r["card"] is None
                else:
                    public.append(r["card"])
        for s in rd["seats"]:
            for h in s["hands"]:
                public.extend(h["cards"])
        hole = holes[m["hand"]]
        assert text.count(f'"{hole}"') == public.count(hole), "the hole card leaked"
        checked += 1
    return checked


async def play_rounds(url: str, table_id: int, tokens: dict[str, str], rounds: int, rng: random.Random):
    dealer = await TableClient.connect(url, table_id, tokens["dealer"])
    alice = await TableClient.connect(url, table_id, tokens["alice"])
    bob = await TableClient.connect(url, table_id, tokens["bob"])
    watcher = await TableClient.connect(url, table_id, tokens["spectator"])
    players = {1: alice, 3: bob}
    choose = random_play(rng)
    await alice.act("sit", seat=1, amount=10_000)
    await bob.act("sit", seat=3, amount=10_000)
    for _ in range(rounds):
        for seat, p in players.items():
            mine = p.state["seats"]
            stack = next(s["stack"] for s in mine if s["seat"] == seat)
            if stack < 1_000:  # broke: back to the cashier's chips and sit down again
                await p.act("leave_seat")
                await p.act("sit", seat=seat, amount=10_000)
        await dealer.act("start_round")
        for p in players.values():
            await p.act("bet", amount=rng.choice([100, 250, 500, 1000]))
        last = (await dealer.act("deal"))["version"]
        while True:
            st = await dealer.wait(lambda s: s["version"] >= last)
            if st["round"]["phase"] == "settled":
                break
            p = players[st["round"]["to_act"]]
            mine = await p.wait(lambda s: s["version"] >= st["version"])
            action, fields = choose(mine)
            last = (await p.act(action, **fields))["version"]
    final = await watcher.wait(lambda s: s["version"] >= dealer.version)
    for c in (dealer, alice, bob, watcher):
        await c.close()
    return final, [m for c in (dealer, alice, bob, watcher) for m in c.messages]


def test_random_rounds_end_to_end(server, room, cast, db_url) -> None:
    ev = cast.event.id
    room.cashier.buy_in(cast.admin, cast.alice.id, 200_000)
    room.cashier.buy_in(cast.admin, cast.bob.id, 200_000)
    clients = {role: sign_in(server, ev, name) for role, name in
               (("dealer", "Bokuden"), ("alice", "Alice"), ("bob", "Bob"), ("spectator", "Sam"))}
    table = clients["dealer"].open_table("Live", overrides={"min_bet": 100, "max_bet": 1_000})
    tokens = {k: c.token for k, c in clients.items()}
    backend = "sqlite" if db_url.startswith("sqlite") else "postgresql"
    final, messages = asyncio.run(play_rounds(server.url, table["id"], tokens, ROUNDS[backend], random.Random(5)))

    # Every message matches the published schema (docs/protocol.schema.json).
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((Path(__file__).parents[2] / "docs" / "protocol.schema.json").read_text())
    server_message = jsonschema.Draft202012Validator(
        {**{k: v for k, v in schema.items() if k != "oneOf"}, "$ref": "#/$defs/server_message"})
    for m in messages:
        server_message.validate(m)

    # The ledger agrees with the table to the cent and sums to zero.
    assert room.ledger.audit(ev) == []
    stacks = {s["account"]: s["stack"] for s in final["seats"]}
    for who in (cast.alice, cast.bob):
        assert room.ledger.balance(ev, stack_key(table["id"], who.id)) == stacks[who.id]
    # Each seat's net over the stored hands is what its stack moved.
    with room.store.transaction() as repo:
        hands = repo.hands(ev, table["id"], limit=10_000)
    assert len(hands) == ROUNDS[backend] and all(h.status == "settled" for h in hands)
    net = {1: 0, 3: 0}
    for h in hands:
        for seat, n in h.history["rounds"][0]["results"].items():
            net[int(seat)] += n
    for who, seat in ((cast.alice, 1), (cast.bob, 3)):
        assert room.ledger.balance(ev, player_key(who.id)) + stacks[who.id] == 200_000 + net[seat]
    house = room.ledger.balance(ev, f"table:{table['id']}")
    assert house == -(net[1] + net[3])

    # No hidden card in any message, checked against the stored truth.
    checked = assert_no_hidden_card(messages, hole_cards(room, ev, table["id"]))
    assert checked > ROUNDS[backend]

    # Every hand downloads as a history the engine replays exactly.
    listed = clients["spectator"].hands(table=table["id"], limit=1000)
    assert len(listed) == ROUNDS[backend]
    first_shoe = [h for h in listed if h["commitment"] == listed[0]["commitment"]]
    assert len(first_shoe) < len(listed)
    doc = clients["spectator"].hand_history(listed[0]["id"])
    result = replay(doc)
    assert result.matches, result.problems
    assert result.rounds == len(first_shoe)
    # That shoe is finished, so its seed is revealed and every card checks against the commitment.
    checked = verify(doc)
    assert checked.ok, checked.messages
    assert checked.cards_checked > 4 * len(first_shoe)
    # The shoe in play is downloadable too, but without its seed until it is finished.
    current = clients["spectator"].hand_history(listed[-1]["id"])
    assert replay(current).matches and current["shoes"][0]["seed"] is None
    for c in clients.values():
        c.close()


async def _refusals(url: str, table_id: int, tokens: dict[str, str]) -> None:
    dealer = await TableClient.connect(url, table_id, tokens["dealer"])
    alice = await TableClient.connect(url, table_id, tokens["alice"])
    bob = await TableClient.connect(url, table_id, tokens["bob"])
    watcher = await TableClient.connect(url, table_id, tokens["spectator"])

    everyone = (dealer, alice, bob, watcher)

    async def refused(client: TableClient, action: str, rule: str, **fields: Any) -> None:
        latest = max(c.version for c in everyone)
        before = (await client.wait(lambda s: s["version"] >= latest))["version"]
        with pytest.raises(ActionRefused) as e:
            await client.act(action, **fields)
        assert e.value.rule == rule, e.value
        assert e.value.version == before == client.version

    await refused(watcher, "sit", "play", seat=2, amount=1_000)  # spectators watch
    await refused(alice, "sit", "seat", seat=9, amount=1_000)
    await refused(alice, "sit", "amount", seat=1, amount=-5)
    await refused(alice, "sit", "amount", seat=1, amount=1.5)
    await refused(alice, "sit", "insufficient_funds", seat=1, amount=10_000_000)
    await alice.act("sit", seat=1, amount=5_000, action_id="sit-1")
    # A retried id is answered again, not applied again.
    again = await alice.act("sit", seat=1, amount=5_000, action_id="sit-1")
    assert again["type"] == "ack"
    await refused(bob, "sit", "seat_taken", seat=1, amount=1_000)
    await bob.act("sit", seat=2, amount=5_000)
    await refused(alice, "deal", "table_dealer")
    await refused(alice, "bet", "no_round", amount=100)
    await dealer.act("start_round")
    await refused(dealer, "start_round", "round_in_play")
    await refused(alice, "bet", "table_limits", amount=1)
    await refused(alice, "bet", "amount", amount="100")
    await refused(alice, "bet", "own_seat", amount=100, seat=2)  # acting for another seat
    await refused(alice, "bet", "stale_version", amount=100, version=alice.version - 1)
    await refused(alice, "fold", "action")
    await alice.act("bet", amount=100, version=alice.version)
    await bob.act("bet", amount=200)
    await dealer.act("deal")
    st = await dealer.wait(lambda s: True)
    if st["round"]["phase"] != "settled":
        actor = st["round"]["to_act"]
        other = bob if actor == 1 else alice
        await refused(other, "stand", "turn")
    # Frames: malformed JSON, oversized, wrong shape: an error, the connection stays, nothing moves.
    v = alice.version
    n = len(alice.messages)
    await alice.send_raw("{not json")
    await alice.send_raw(json.dumps({"type": "action", "id": "x", "action": "hit", "pad": "x" * 5000}))
    await alice.send_raw("[1]")
    await alice.send_raw(json.dumps({"type": "action", "action": "stand"}))  # no id
    while len(alice.messages) < n + 4:
        await asyncio.sleep(0.01)
    assert [m["rule"] for m in alice.messages[n:n + 4]] == ["malformed_json", "frame_too_large", "message_shape",
                                                            "id"]
    assert alice.version == v
    for c in (dealer, alice, bob, watcher):
        await c.close()


def test_bad_and_repeated_actions_change_nothing(server, room, cast) -> None:
    ev = cast.event.id
    room.cashier.buy_in(cast.admin, cast.alice.id, 10_000)
    room.cashier.buy_in(cast.admin, cast.bob.id, 10_000)
    clients = {role: sign_in(server, ev, name) for role, name in
               (("dealer", "Bokuden"), ("alice", "Alice"), ("bob", "Bob"), ("spectator", "Sam"))}
    table = clients["dealer"].open_table("Strict", overrides={"min_bet": 100, "max_bet": 1_000})
    asyncio.run(_refusals(server.url, table["id"], {k: c.token for k, c in clients.items()}))
    # The retried sit moved the chips once.
    assert room.ledger.balance(ev, player_key(cast.alice.id)) == 5_000
    assert room.ledger.audit(ev) == []
    for c in clients.values():
        c.close()


def test_hello_is_required_and_checked(server, room, cast) -> None:
    import websockets

    t = room.tables.open(cast.dealer, "Hello")

    async def go() -> list[dict[str, Any]]:
        out = []
        url = server.url.replace("http", "ws") + f"/ws/tables/{t.id}"
        for first in ({"type": "action"}, {"type": "hello", "protocol": 2, "token": "bad"},
                      {"type": "hello", "protocol": 99}, {"type": "hello", "protocol": 1, "token": "bad"}):
            async with websockets.connect(url) as ws:
                await ws.send(json.dumps(first))
                out.append(json.loads(await ws.recv()))
        return out

    answers = asyncio.run(go())
    assert [m["rule"] for m in answers] == ["hello", "signed_in", "hello", "hello"]
    # a hello of version 1 is refused before its token is looked at, naming the version spoken
    assert "speaks version 2 of the live-play protocol only, not 1" in answers[3]["message"]
