"""Live five-card draw end to end: a real server, a dealer, three players and a spectator on
WebSockets, random legal play (bets, raises, draws, folds) for many hands.

Checked: chips are conserved to the cent through the ledger (the table's account holds exactly
the carried odd chips between hands), every stored hand replays and verifies against its
deck's revealed seed, antes change only when every seated player accepts, and no player or
spectator ever receives another player's private card before the showdown.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest

from syndicate.apps.client import ActionRefused, RoomClient, TableClient
from syndicate.poker.history import replay, verify
from syndicate.room.ledger import player_key
from syndicate.room.seating import stack_key
from tests.kit.room import PASSWORD

HANDS = {"sqlite": 80, "postgresql": 40}


def choose(state: dict[str, Any], rng: random.Random) -> tuple[str, dict[str, Any]]:
    rd = state["round"]
    action = rng.choice(rd["legal_actions"])
    if action == "bet":
        lo, hi = rd["bet_range"]
        return action, {"amount": rng.choice([lo, hi])}
    if action == "raise":
        lo, hi = rd["raise_range"]
        return action, {"amount": rng.choice([lo, hi])}
    if action == "draw":
        mine = next(s for s in rd["seats"] if s["seat"] == state["you"]["seat"])
        return action, {"discards": rng.sample(mine["cards"], rng.randint(0, 3))}
    return action, {}


def private_cards(room, ev: int, table_id: int) -> dict[int, dict[int, set[str]]]:
    """The truth from the stored hands: hand number → seat → every card it held."""
    out: dict[int, dict[int, set[str]]] = {}
    with room.store.transaction() as repo:
        for h in repo.hands(ev, table_id, limit=10_000):
            entry = h.history["hands"][0]
            held: dict[int, set[str]] = {}
            for r in entry["log"]:
                if r["type"] == "deal":
                    held.setdefault(r["seat"], set()).update(r["cards"])
                elif r["type"] == "draw":
                    held.setdefault(r["seat"], set()).update(r["received"])
            out[h.number] = held
    return out


def assert_no_private_card(messages: list[dict[str, Any]], truth: dict[int, dict[int, set[str]]]) -> int:
    checked = 0
    for m in messages:
        rd = m.get("round")
        if m.get("type") not in ("welcome", "state") or rd is None or rd["phase"] == "complete":
            continue
        viewer = m["you"]["seat"] if any(s["seat"] == m["you"]["seat"] for s in rd["seats"]) else None
        text = json.dumps(m)
        held = truth[rd["hand"]]
        mine = held.get(viewer, set())
        shown = {r["shown"] for r in m["log"] if r["type"] == "draw" and r.get("shown")}
        for seat, cards in held.items():
            if seat == viewer:
                continue
            for c in cards - mine - shown:
                assert f'"{c}"' not in text, f"seat {seat}'s {c} leaked to {viewer or 'a watcher'}"
        checked += 1
    return checked


async def play(url: str, table_id: int, tokens: dict[str, str], hands: int, rng: random.Random):
    dealer = await TableClient.connect(url, table_id, tokens["dealer"])
    players = {}
    for seat, who in ((1, "alice"), (2, "bob"), (4, "carol")):
        players[seat] = await TableClient.connect(url, table_id, tokens[who])
        await players[seat].act("sit", seat=seat, amount=5_000)
    watcher = await TableClient.connect(url, table_id, tokens["spectator"])

    # An ante change applies only when every seated player accepts it: one refusal withdraws it.
    ack = await dealer.act("propose_ante", amount=150)
    st = await players[4].wait(lambda s: s["version"] >= ack["version"])
    assert st["table"]["ante_proposal"] == {"amount": 150, "waiting_for": [1, 2, 4]}
    await players[1].act("refuse_ante")
    st = await players[4].wait(lambda s: s["table"]["ante_proposal"] is None)
    assert st["table"]["ante"] == 50
    with pytest.raises(ActionRefused) as e:
        await players[2].act("accept_ante")
    assert e.value.rule == "ante.proposal"
    await dealer.act("propose_ante", amount=100)
    await players[1].act("accept_ante")
    await players[2].act("accept_ante")
    with pytest.raises(ActionRefused) as e:
        await players[1].act("accept_ante", seat=2)  # not for another seat
    assert e.value.rule == "own_seat"
    ack = await players[4].act("accept_ante")
    st = await players[4].wait(lambda s: s["version"] >= ack["version"])
    assert st["table"]["ante"] == 100 and st["table"]["ante_proposal"] is None

    for _ in range(hands):
        for seat, p in players.items():
            stack = next(s["stack"] for s in p.state["seats"] if s["seat"] == seat)
            if stack < 600:
                await p.act("leave_seat")
                await p.act("sit", seat=seat, amount=5_000)
        last = (await dealer.act("start_round"))["version"]
        while True:
            st = await dealer.wait(lambda s: s["version"] >= last)
            if st["round"]["phase"] == "complete":
                break
            p = players[st["round"]["to_act"]]
            mine = await p.wait(lambda s: s["version"] >= st["version"])
            action, fields = choose(mine, rng)
            last = (await p.act(action, **fields))["version"]
    final = await watcher.wait(lambda s: s["version"] >= dealer.version)
    clients = [dealer, *players.values(), watcher]
    for c in clients:
        await c.close()
    return final, [m for c in clients for m in c.messages]


def test_random_draw_hands_end_to_end(server, room, cast, db_url) -> None:
    ev = cast.event.id
    carol = room.accounts.add(ev, "Carol", "player", PASSWORD)
    for who in (cast.alice, cast.bob, carol):
        room.cashier.buy_in(cast.admin, who.id, 500_000)
    clients = {}
    for role, name in (("dealer", "Bokuden"), ("alice", "Alice"), ("bob", "Bob"), ("carol", "Carol"),
                       ("spectator", "Sam")):
        clients[role] = RoomClient(server.url)
        clients[role].sign_in(ev, name, PASSWORD)
    table = clients["dealer"].open_table("Draw", game="poker", overrides={"ante": 50})
    backend = "sqlite" if db_url.startswith("sqlite") else "postgresql"
    n = HANDS[backend]
    final, messages = asyncio.run(play(server.url, table["id"], {k: c.token for k, c in clients.items()}, n,
                                       random.Random(11)))

    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((Path(__file__).parents[2] / "docs" / "protocol.schema.json").read_text())
    validator = jsonschema.Draft202012Validator(
        {**{k: v for k, v in schema.items() if k != "oneOf"}, "$ref": "#/$defs/server_message"})
    for m in messages:
        validator.validate(m)

    with room.store.transaction() as repo:
        hands = repo.hands(ev, table["id"], limit=10_000)
    assert len(hands) == n and all(h.status == "settled" for h in hands)
    assert all(h.history["hands"][0]["rules"]["ante"] == 100 for h in hands)  # the agreed ante

    # Chips: the ledger is whole, each player's bankroll + stack is their buy-in plus their
    # winnings, and the table holds just the carried remainder.
    assert room.ledger.audit(ev) == []
    net: dict[int, int] = {}
    for h in hands:
        for seat, v in h.history["hands"][0]["result"]["net"]:
            net[seat] = net.get(seat, 0) + v
    stacks = {s["account"]: s["stack"] for s in final["seats"]}
    for who, seat in ((cast.alice, 1), (cast.bob, 2), (carol, 4)):
        assert room.ledger.balance(ev, player_key(who.id)) + stacks[who.id] == 500_000 + net[seat]
        assert room.ledger.balance(ev, stack_key(table["id"], who.id)) == stacks[who.id]
    assert room.ledger.balance(ev, f"table:{table['id']}") == hands[-1].history["hands"][0]["result"]["carry_out"]

    # Nobody saw a private card that was not theirs.
    assert assert_no_private_card(messages, private_cards(room, ev, table["id"])) > n

    # Every hand downloads and verifies: its shown cards against their openings (the seed
    # stays secret while the table is open); the server's replay of its own copy matches.
    listed = clients["spectator"].hands(table=table["id"], limit=1000)
    assert len(listed) == n
    bearer = {"Authorization": f"Bearer {clients['spectator'].token}"}
    for h in listed[:: max(1, n // 8)]:
        doc = clients["spectator"].hand_history(h["id"])
        assert not doc["hands"][0]["shoe"]["seed"]
        assert verify(doc).ok
        check = clients["spectator"].http.get(f"/api/hands/{h['id']}/check", headers=bearer).json()
        assert check["replay"]["matches"] and check["verify"]["ok"], check
    stored = next(x for x in hands if x.id == listed[0]["id"]).history
    assert replay(stored).matches  # the house's copy replays without the seed
    phh = clients["spectator"].http.get(f"/api/hands/{listed[0]['id']}/phh",
                                        headers={"Authorization": f"Bearer {clients['spectator'].token}"})
    assert phh.status_code == 200 and "S5D" in phh.text
    for c in clients.values():
        c.close()
