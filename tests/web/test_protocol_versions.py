"""How the live-play protocol answers an action (docs/protocol.md): an action that changed the
table with the state alone, which carries the action's id as ``ack``, to the client that acted
and to no one else; a resend with an ``ack`` message."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from syndicate.apps.client import ActionRefused, TableClient
from tests.web.test_live import sign_in


def _acks(messages: list[dict[str, Any]]) -> list[tuple[str, str, int]]:
    """Every answer in ``messages``: (how it came, the action's id, its version)."""
    out = []
    for m in messages:
        if m["type"] == "ack":
            out.append(("ack", m["id"], m["version"]))
        elif "ack" in m:
            out.append((m["type"], m["ack"], m["version"]))
    return out


async def _play(url: str, table_id: int, tokens: dict[str, str]) -> dict[str, TableClient]:
    c = {
        "dealer": await TableClient.connect(url, table_id, tokens["dealer"]),
        "alice": await TableClient.connect(url, table_id, tokens["alice"]),
        "bob": await TableClient.connect(url, table_id, tokens["bob"]),
        "watcher1": await TableClient.connect(url, table_id, tokens["spectator"]),
        "watcher2": await TableClient.connect(url, table_id, tokens["spectator"]),
    }
    sit_a = await c["alice"].act("sit", seat=1, amount=5_000, action_id="alice-sit")
    sit_b = await c["bob"].act("sit", seat=2, amount=5_000, action_id="bob-sit")
    # a resend of an answered action: answered again, by an ack message
    assert await c["bob"].act("sit", seat=2, amount=5_000, action_id="bob-sit") == sit_b
    with pytest.raises(ActionRefused) as refused:
        await c["bob"].act("bet", amount=100, action_id="bob-early")
    assert refused.value.rule == "no_round"
    start = await c["dealer"].act("start_round", action_id="dealer-start")
    await c["alice"].act("bet", amount=100, action_id="alice-bet")
    await c["bob"].act("bet", amount=100, action_id="bob-bet")
    # Bob leaves before the deal: he watches again, so his state is the spectators' view, and
    # the answer goes on his copy of it only (not on the message the watchers share).
    left = await c["bob"].act("leave_seat", action_id="bob-leaves")
    last = max(cl.version for cl in c.values())
    for cl in c.values():
        await cl.wait(lambda s: s["version"] >= last)
    assert [sit_a["version"], sit_b["version"], start["version"], left["version"]] == sorted(
        {sit_a["version"], sit_b["version"], start["version"], left["version"]})
    for cl in c.values():
        await cl.close()
    return c


def test_the_state_answers_an_action_and_only_the_sender(server, room, cast) -> None:
    ev = cast.event.id
    for who in (cast.alice, cast.bob):
        room.cashier.buy_in(cast.admin, who.id, 10_000)
    clients = {role: sign_in(server, ev, name) for role, name in
               (("dealer", "Bokuden"), ("alice", "Alice"), ("bob", "Bob"), ("spectator", "Sam"))}
    table = clients["dealer"].open_table("Versions", overrides={"min_bet": 100, "max_bet": 1_000})
    c = asyncio.run(_play(server.url, table["id"], {k: cl.token for k, cl in clients.items()}))

    alice, bob, dealer = c["alice"].messages, c["bob"].messages, c["dealer"].messages
    # The state answers; an ack message only for the resend.
    assert [(how, i) for how, i, _ in _acks(alice)] == [("state", "alice-sit"), ("state", "alice-bet")]
    assert not any(m["type"] == "ack" for m in alice)
    assert [(how, i) for how, i, _ in _acks(bob)] == [
        ("state", "bob-sit"), ("ack", "bob-sit"), ("state", "bob-bet"), ("state", "bob-leaves")]
    assert [(how, i) for how, i, _ in _acks(dealer)] == [("state", "dealer-start")]
    # Bob's answered leave is the spectators' view, with his answer added to his copy only.
    leave = next(m for m in bob if m.get("ack") == "bob-leaves")
    watcher2 = next(m for m in c["watcher2"].messages if m["type"] == "state" and m["version"] == leave["version"])
    assert {k: v for k, v in leave.items() if k != "ack"} == watcher2
    # Nobody sees another's answer; every socket's states say the version.
    for name in ("watcher1", "watcher2"):
        assert _acks(c[name].messages) == []
    for cl in c.values():
        assert {m["protocol"] for m in cl.messages if m["type"] in ("welcome", "state")} == {2}
    errors = [m for m in bob if m["type"] == "error"]
    assert [(m["id"], m["rule"]) for m in errors] == [("bob-early", "no_round")]

    # Every message matches the published schema.
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((Path(__file__).parents[2] / "docs" / "protocol.schema.json").read_text())
    server_message = jsonschema.Draft202012Validator(
        {**{k: v for k, v in schema.items() if k != "oneOf"}, "$ref": "#/$defs/server_message"})
    for cl in c.values():
        for m in cl.messages:
            server_message.validate(m)
    assert room.ledger.audit(ev) == []
    for cl in clients.values():
        cl.close()


def test_a_client_that_keeps_nothing_decodes_only_the_states_it_reads(server, room, cast, monkeypatch) -> None:
    """keep=0 (the load bots): a state that answers nothing is decoded only when read, and then
    only the newest; its version is known at once. While an action waits for its answer, every
    message is decoded (a state may carry it). Decoding every state was a third of a bot's CPU."""
    import orjson

    from syndicate.apps import client as client_module

    ev = cast.event.id
    room.cashier.buy_in(cast.admin, cast.alice.id, 10_000)
    alice = sign_in(server, ev, "Alice")
    dealer = sign_in(server, ev, "Bokuden")
    table = dealer.open_table("Lazy", overrides={"min_bet": 100, "max_bet": 1_000})
    calls: list[Any] = []
    real = orjson.loads

    def counting(text: Any) -> Any:
        calls.append(text)
        return real(text)

    async def go() -> None:
        lazy = await TableClient.connect(server.url, table["id"], alice.token, keep=0)
        keeper = await TableClient.connect(server.url, table["id"], dealer.token)  # keeps and decodes all
        await lazy.act("sit", seat=1, amount=1_000)
        monkeypatch.setattr(client_module.orjson, "loads", counting)
        kept = len(keeper.messages)

        def lazy_decodes() -> int:  # the keeper decodes each message it receives, once
            return len(calls) - (len(keeper.messages) - kept)

        await keeper.act("start_round")
        await lazy.act("bet", amount=200)  # waits for its answer: what arrives meanwhile is decoded
        answered = lazy_decodes()
        assert 1 <= answered
        await keeper.act("deal")  # the cards: a change Alice only receives
        for _ in range(200):
            if lazy.version == keeper.version:
                break
            await asyncio.sleep(0.01)
        assert lazy.version == keeper.version > lazy._state["version"]  # known, not decoded
        assert lazy_decodes() == answered
        state = lazy.state  # read: the newest text, decoded now
        assert state is not None and state["version"] == keeper.version and state["round"]["phase"] != "betting"
        assert state["table"] == keeper.state["table"] and state["seats"] == keeper.state["seats"]
        assert lazy_decodes() == answered + 1
        assert lazy.state is state and lazy_decodes() == answered + 1  # read again: nothing more
        await lazy.close()
        await keeper.close()

    asyncio.run(go())
