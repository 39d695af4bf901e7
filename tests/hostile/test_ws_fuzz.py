"""Property-based fuzzing of the live protocol against a real server: malformed JSON, wrong
shapes and types, oversized frames, unknown types and actions, out-of-order messages, replayed
action ids, stale versions, actions for another player's seat and forged account fields.

Each hostile frame must get an ``error`` naming the rule it broke (or, before ``hello``, the
error and a close with 1008), nothing may change (the table's version, every balance), the
ledger stays consistent, and the table still plays a round afterwards.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

import pytest
import websockets
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from syndicate.apps.client import ActionRefused, RoomClient, TableClient
from syndicate.room.live.clocks import Timers
from syndicate.web import create_app
from syndicate.web.security import Limits
from tests.kit.room import FAST_HASHER, PASSWORD, LiveServer

MIN_BET, MAX_BET = 100, 500
FRESH_ID = "<fresh>"  # replaced by a new id when sent (the server answers a repeated id as a replay)
ALICE_SEAT, BOB_SEAT = 1, 3


@pytest.fixture
def server(database):
    app = create_app(database=database, hasher=FAST_HASHER, migrate=False, timers=Timers(turn=0.2),
                     limits=Limits(actions_per_second=10_000, action_burst=10_000))
    srv = LiveServer(app)
    yield srv
    srv.stop()


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)
KNOWN_TYPES = {"action", "resync", "ping", "hello"}
ACTIONS = ["sit", "leave_seat", "sit_in", "start_round", "deal", "add_bots", "remove_bots", "auto_deal", "bet",
           "hit", "stand", "double", "split", "surrender", "insurance", "no_insurance", "even_money", "play_on"]


def _not_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return True
    return False


#: forged fields a client might add to speak for someone else: they must be ignored or refused
FORGED = st.fixed_dictionaries({}, optional={
    "account": st.integers(min_value=1, max_value=10**6), "player": st.just("Bob"), "role": st.just("dealer"),
    "token": st.text(max_size=40), "you": st.just({"account": 1, "seat": BOB_SEAT}),
})
BAD_AMOUNT = st.one_of(
    st.integers(max_value=MIN_BET - 1), st.integers(min_value=MAX_BET + 1, max_value=2**80),
    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([200.0, "200", "$2", True, False, None]),
    st.lists(st.integers(), max_size=2), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


def hostile() -> st.SearchStrategy[tuple[str, Any]]:
    """(kind, frame or message): every one of them must be refused."""
    def action(**fields: Any) -> st.SearchStrategy[dict[str, Any]]:
        base = st.fixed_dictionaries({"type": st.just("action"), "id": st.just(FRESH_ID), **fields})
        return st.tuples(base, FORGED).map(lambda t: {**t[1], **t[0]})

    return st.one_of(
        st.tuples(st.just("malformed_json"), st.text(max_size=60).filter(_not_json)),
        st.tuples(st.just("message_shape"), JSONISH.filter(
            lambda v: not (isinstance(v, dict) and isinstance(v.get("type"), str))).map(json.dumps)),
        st.tuples(st.just("frame_too_large"), st.integers(4097, 20_000).map(
            lambda n: json.dumps({"type": "action", "id": "big", "action": "bet", "amount": 200, "pad": "x" * n}))),
        st.tuples(st.just("binary"), st.one_of(st.binary(max_size=200), st.binary(min_size=4097, max_size=6000),
                                               st.just(b'{"type": "ping"}'))),
        st.tuples(st.just("type"), st.text(max_size=20).filter(lambda t: t not in KNOWN_TYPES).map(
            lambda t: json.dumps({"type": t, "id": "t", "action": "bet", "amount": 200}))),
        st.tuples(st.just("hello_again"), st.just(json.dumps({"type": "hello", "protocol": 2, "token": "x"}))),
        st.tuples(st.just("id"), st.one_of(JSONISH.filter(lambda v: not isinstance(v, str)), st.just(""),
                                           st.text(min_size=65, max_size=80)).map(
            lambda i: json.dumps({"type": "action", "id": i, "action": "bet", "amount": 200}))),
        st.tuples(st.just("action"), action(action=st.text(max_size=20).filter(lambda a: a not in ACTIONS))),
        st.tuples(st.just("amount"), action(action=st.just("bet"), amount=BAD_AMOUNT)),
        st.tuples(st.just("own_seat"), action(action=st.sampled_from(["bet", "hit", "stand", "double"]),
                                              amount=st.just(200),
                                              seat=st.sampled_from([BOB_SEAT, 2, 7, 0, -1, None]))),
        st.tuples(st.just("whole_number"), action(action=st.sampled_from(["bet", "hit", "stand", "double"]),
                                                  amount=st.just(200),
                                                  seat=st.sampled_from(["3", 1.0, 2.0, True, False, [1]]))),
        st.tuples(st.just("dealer_only"), action(action=st.sampled_from(["deal", "start_round", "add_bots",
                                                                         "remove_bots", "auto_deal"]),
                                                 count=st.integers(1, 3), seconds=st.integers(1, 10))),
        st.tuples(st.just("stale_version"), action(action=st.just("bet"), amount=st.just(200),
                                                   version=st.integers(-(2**70), 2**70))),
        st.tuples(st.just("sit"), action(action=st.just("sit"), seat=JSONISH, amount=JSONISH)),
        st.tuples(st.just("replay"), action(action=st.sampled_from(ACTIONS), amount=st.just(300))),
    )


EXPECTED = {  # the rule each kind must get (None: any rule, as long as it is refused)
    "malformed_json": {"malformed_json"}, "message_shape": {"message_shape"},
    "frame_too_large": {"frame_too_large"}, "binary": {"message_shape", "frame_too_large"}, "type": {"type"}, "hello_again": {"type"}, "id": {"id"},
    "action": {"action"}, "own_seat": {"own_seat"}, "whole_number": {"seat"}, "dealer_only": {"table_dealer"},
    "stale_version": {"stale_version"}, "amount": None, "sit": None,
}


async def _answer(ws: Any) -> dict[str, Any]:
    """The next answer on this socket: an ack, an error, or a state that answers an action
    (other states in between are skipped)."""
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), 5))
        if msg["type"] in ("ack", "error") or "ack" in msg:
            return msg


def _snapshot(room, ev: int) -> dict[str, int]:
    return {a.key: a.balance for a in room.ledger.accounts(ev)}


@settings(max_examples=150, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(frames=st.lists(hostile(), min_size=1, max_size=15))
def test_hostile_frames_are_refused_and_change_nothing(server, room, table_in_betting, frames) -> None:
    ev, table_id, tokens, original = table_in_betting
    before = _snapshot(room, ev)

    async def go() -> None:
        url = server.url.replace("http://", "ws://")
        async with websockets.connect(f"{url}/ws/tables/{table_id}", max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 2, "token": tokens["alice"]}))
            welcome = json.loads(await ws.recv())
            assert welcome["type"] == "welcome"
            version = welcome["version"]
            for kind, frame in frames:
                if isinstance(frame, dict) and frame.get("id") == FRESH_ID:
                    frame = {**frame, "id": uuid.uuid4().hex}
                if kind == "replay":  # an old action id with other contents: the old answer, applied once
                    frame = {**frame, "id": original["id"]}
                if kind == "stale_version" and frame["version"] == version:
                    frame["version"] += 1
                await ws.send(frame if isinstance(frame, str | bytes) else json.dumps(frame))
                answer = await _answer(ws)
                if kind == "replay":
                    assert answer == original["answer"]
                    continue
                assert answer["type"] == "error", (kind, frame, answer)
                assert isinstance(answer["rule"], str) and answer["message"], answer
                if EXPECTED[kind] is not None:
                    assert answer["rule"] in EXPECTED[kind], (kind, frame, answer)
                if isinstance(frame, dict) and isinstance(frame.get("id"), str) and kind != "id":
                    assert answer["id"] == frame["id"]
            await ws.send(json.dumps({"type": "resync"}))
            while (msg := json.loads(await asyncio.wait_for(ws.recv(), 5)))["type"] != "welcome":
                pass
            assert msg["version"] == version, "a hostile frame changed the table"
            seats = {s["seat"]: s for s in msg["seats"]}
            assert seats[ALICE_SEAT]["account"] != seats[BOB_SEAT]["account"]

    asyncio.run(go())
    assert _snapshot(room, ev) == before
    assert room.ledger.audit(ev) == []


@pytest.fixture
def table_in_betting(server, room, cast):
    """A Blackjack table with Alice (seat 1) and Bob (seat 3) seated, a round open for bets and
    Alice's bet of 200 placed (its id and answer, for the replays). After the test the round is
    dealt and played out (the turn clock stands for everyone): the table still works."""
    ev = cast.event.id
    for p in (cast.alice, cast.bob):
        room.cashier.buy_in(cast.admin, p.id, 10_000)
    clients = {}
    for who, name in (("dealer", "Bokuden"), ("alice", "Alice"), ("bob", "Bob")):
        clients[who] = RoomClient(server.url)
        clients[who].sign_in(ev, name, PASSWORD)
    table = clients["dealer"].open_table("Fuzzed", overrides={"min_bet": MIN_BET, "max_bet": MAX_BET})
    tokens = {k: c.token for k, c in clients.items()}
    original: dict[str, Any] = {"id": "alice-first-bet"}

    async def setup() -> None:
        dealer = await TableClient.connect(server.url, table["id"], tokens["dealer"])
        alice = await TableClient.connect(server.url, table["id"], tokens["alice"])
        bob = await TableClient.connect(server.url, table["id"], tokens["bob"])
        await alice.act("sit", seat=ALICE_SEAT, amount=5_000)
        await bob.act("sit", seat=BOB_SEAT, amount=5_000)
        await dealer.act("start_round")
        original["answer"] = await alice.act("bet", action_id=original["id"], amount=200)
        await bob.act("bet", amount=300)
        for c in (dealer, alice, bob):
            await c.close()

    asyncio.run(setup())
    yield ev, table["id"], tokens, original

    async def play_out() -> dict[str, Any]:
        dealer = await TableClient.connect(server.url, table["id"], tokens["dealer"])
        await dealer.act("deal")
        settled = await dealer.wait(lambda s: s["round"] is not None and s["round"]["phase"] == "settled", 15)
        await dealer.act("start_round")  # and a new one opens
        await dealer.close()
        return settled

    settled = asyncio.run(play_out())
    assert {s["seat"] for s in settled["round"]["seats"]} == {ALICE_SEAT, BOB_SEAT}
    assert room.ledger.audit(ev) == []
    assert room.ledger.total(ev) == 0


def test_out_of_order_first_messages_are_refused_and_closed(server, room, cast) -> None:
    """Anything but ``hello`` first (an action, a resync, a bad protocol, a forged hello with no
    sign-in) gets an error and a close with 1008; nothing reaches the table."""
    c = RoomClient(server.url)
    c.sign_in(cast.event.id, "Bokuden", PASSWORD)
    table = c.open_table("Order")
    url = server.url.replace("http://", "ws://") + f"/ws/tables/{table['id']}"
    firsts = [
        ({"type": "action", "id": "a", "action": "start_round", "token": c.token}, "hello"),
        ({"type": "resync"}, "hello"),
        ({"type": "hello", "protocol": 3, "token": c.token}, "hello"),  # a version not spoken
        ({"type": "hello", "protocol": 2, "account": cast.dealer.id, "role": "dealer"}, "signed_in"),
        ({"type": "hello", "protocol": 2, "token": "forged-" + "x" * 40}, "signed_in"),
        ({"type": "hello", "protocol": 2, "token": "x" * 5000}, "frame_too_large"),
        (json.dumps({"type": "hello", "protocol": 2, "token": c.token}).encode(), "message_shape"),  # binary
    ]

    async def go() -> None:
        for first, rule in firsts:
            async with websockets.connect(url) as ws:
                await ws.send(first if isinstance(first, bytes) else json.dumps(first))
                msg = json.loads(await ws.recv())
                assert msg["type"] == "error" and msg["rule"] == rule, (first, msg)
                with pytest.raises(websockets.ConnectionClosed) as closed:
                    await asyncio.wait_for(ws.recv(), 5)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        dealer = await TableClient.connect(server.url, table["id"], c.token)
        assert dealer.state is not None and dealer.state["round"] is None  # nothing was started
        with pytest.raises(ActionRefused) as refused:  # the table answers as usual: no one is seated yet
            await dealer.act("start_round")
        assert refused.value.rule == "no_players"
        await dealer.close()

    asyncio.run(go())
