"""Live table behaviour around the edges, over a real server and its sockets: disconnects and
resync, a revoked dealer, a paused table, the terminal client, the authorization matrix. The
clocks' own behaviour (a silent player, rounds on a timer, bots) is played in process on a
virtual clock: tests/room/test_table_clocks.py."""

from __future__ import annotations

import asyncio

import pytest

from syndicate.apps.client import ActionRefused, RoomClient, TableClient
from syndicate.room.ledger import player_key
from syndicate.room.live.clocks import Timers
from syndicate.room.seating import stack_key
from syndicate.web import create_app
from tests.kit.poll import until_async
from tests.kit.room import FAST_HASHER, PASSWORD, LiveServer, deal_until_someone_must_act


@pytest.fixture
def server(database):
    app = create_app(database=database, hasher=FAST_HASHER, migrate=False,
                     timers=Timers(turn=0.3, sit_out_after=2))
    srv = LiveServer(app)
    yield srv
    srv.stop()


def tokens_for(server, ev: int, names: dict[str, str]) -> dict[str, RoomClient]:
    out = {}
    for role, name in names.items():
        out[role] = RoomClient(server.url)
        out[role].sign_in(ev, name, PASSWORD)
    return out


def test_disconnect_mid_hand_and_resync(server, room, cast) -> None:
    ev = cast.event.id
    room.cashier.buy_in(cast.admin, cast.alice.id, 10_000)
    room.cashier.buy_in(cast.admin, cast.bob.id, 10_000)
    c = tokens_for(server, ev, {"dealer": "Bokuden", "alice": "Alice", "bob": "Bob"})
    table = c["dealer"].open_table("Flaky", overrides={"min_bet": 100, "max_bet": 500})

    async def go() -> None:
        dealer = await TableClient.connect(server.url, table["id"], c["dealer"].token)
        alice = await TableClient.connect(server.url, table["id"], c["alice"].token)
        bob = await TableClient.connect(server.url, table["id"], c["bob"].token)
        await alice.act("sit", seat=1, amount=5_000)
        await bob.act("sit", seat=2, amount=5_000)
        st = await deal_until_someone_must_act(dealer, [(alice, 100), (bob, 100)])
        await alice.close()  # gone mid-hand: the table does not wait for her forever
        await bob.close()
        st = await dealer.wait(lambda s: s["round"]["phase"] == "settled", timeout=10)
        again = await TableClient.connect(server.url, table["id"], c["alice"].token)
        assert again.state["type"] == "welcome" and again.state["version"] == dealer.version
        assert again.state["you"]["seat"] == 1 and again.state["round"]["phase"] == "settled"
        await again.send_raw('{"type": "resync"}')
        await again.wait(lambda s: s is not again.messages[0])
        assert again.state["version"] == st["version"]
        await again.close()
        await dealer.close()

    asyncio.run(go())
    assert room.ledger.audit(ev) == []


def test_revoked_dealer_round_finishes_then_the_table_closes(server, room, cast) -> None:
    ev = cast.event.id
    room.cashier.buy_in(cast.admin, cast.alice.id, 10_000)
    c = tokens_for(server, ev, {"dealer": "Bokuden", "alice": "Alice", "boss": "Jean-Marc"})
    table = c["dealer"].open_table("Revoked", overrides={"min_bet": 100, "max_bet": 500})

    async def go() -> None:
        dealer = await TableClient.connect(server.url, table["id"], c["dealer"].token)
        alice = await TableClient.connect(server.url, table["id"], c["alice"].token)
        await alice.act("sit", seat=1, amount=5_000)
        st = await deal_until_someone_must_act(dealer, [(alice, 100)])
        await asyncio.to_thread(c["boss"].request, "POST", "/api/roster/revoke", {"dealer": "Bokuden"})
        # The round in play finishes (the player's choices still count)...
        while st["round"]["phase"] != "settled":
            mine = await alice.wait(lambda s: s["version"] >= st["version"])
            if mine["round"]["phase"] == "settled":
                break
            legal = mine["round"]["legal_actions"]
            ack = await alice.act("stand" if "stand" in legal else legal[-1])
            st = await alice.wait(lambda s: s["version"] >= ack["version"])
        # ...then the table closes and her stack goes back to her bankroll.
        st = await alice.wait(lambda s: s["table"]["status"] == "closed" and not s["seats"])
        with pytest.raises(ActionRefused) as e:
            await dealer.act("start_round")
        assert e.value.rule == "table_status"
        for x in (dealer, alice):
            await x.close()

    asyncio.run(go())
    assert room.ledger.balance(ev, stack_key(table["id"], cast.alice.id)) == 0
    with room.store.transaction() as repo:
        hands = repo.hands(ev, table["id"], limit=100)
    won = sum(h.history["rounds"][0]["results"]["1"] for h in hands)
    assert room.ledger.balance(ev, player_key(cast.alice.id)) == 10_000 + won
    assert room.ledger.audit(ev) == []
    # the leaderboard counts what she won at the table, not her sitting down with chips
    board = c["alice"].request("GET", f"/api/events/{ev}/leaderboard")
    assert board == [{"player": "Alice", "balance": 10_000 + won, "won": won}]


def test_a_paused_table_deals_no_new_round(server, room, cast) -> None:
    ev = cast.event.id
    room.cashier.buy_in(cast.admin, cast.alice.id, 10_000)
    c = tokens_for(server, ev, {"dealer": "Bokuden", "alice": "Alice"})
    table = c["dealer"].open_table("Pause", overrides={"min_bet": 100, "max_bet": 500})

    async def go() -> None:
        dealer = await TableClient.connect(server.url, table["id"], c["dealer"].token)
        alice = await TableClient.connect(server.url, table["id"], c["alice"].token)
        await alice.act("sit", seat=1, amount=1_000)
        await asyncio.to_thread(c["dealer"].request, "POST", f"/api/tables/{table['id']}/status",
                                {"status": "paused"})
        with pytest.raises(ActionRefused) as e:
            await dealer.act("start_round")
        assert e.value.rule == "table_status"
        await asyncio.to_thread(c["dealer"].request, "POST", f"/api/tables/{table['id']}/status",
                                {"status": "open"})
        await dealer.act("start_round")
        for x in (dealer, alice):
            await x.close()

    asyncio.run(go())


def test_play_remote_from_the_terminal(server, room, cast) -> None:
    from syndicate.apps.remote_play import play_remote

    ev = cast.event.id
    room.cashier.buy_in(cast.admin, cast.alice.id, 10_000)
    c = tokens_for(server, ev, {"dealer": "Bokuden"})
    table = c["dealer"].open_table("Terminal", overrides={"min_bet": 100, "max_bet": 500})

    async def dealer_on_a_timer() -> TableClient:
        d = await TableClient.connect(server.url, table["id"], c["dealer"].token)
        await d.act("auto_deal", seconds=0.1)
        return d

    prompts: list[str] = []

    def typist(prompt: str) -> str:
        prompts.append(prompt)
        if "bet" in prompt:
            return "x" if len(prompts) == 1 else "2"  # a typo first: refused, asked again
        for key in ("s", "n", "o"):
            if f" {key} " in prompt or f"[{key} " in prompt:
                return key
        return "q"

    lines: list[str] = []
    loop = asyncio.new_event_loop()
    dealer = loop.run_until_complete(dealer_on_a_timer())
    import threading

    threading.Thread(target=loop.run_forever, daemon=True).start()
    back = play_remote(server.url, ev, "Alice", PASSWORD, table["id"], seat=2, buy_in=3_000, rounds=2,
                       input_fn=typist, out=lines.append)
    asyncio.run_coroutine_threadsafe(dealer.close(), loop).result(10)
    loop.call_soon_threadsafe(loop.stop)
    assert any("refused" in x for x in lines)
    assert "Your bankroll" in lines[-1]
    assert room.ledger.balance(ev, player_key(cast.alice.id)) == back
    assert room.ledger.balance(ev, stack_key(table["id"], cast.alice.id)) == 0
    assert room.ledger.audit(ev) == []


def test_a_table_that_fails_says_so_and_the_others_play_on(server, room, cast) -> None:
    ev = cast.event.id
    c = tokens_for(server, ev, {"dealer": "Bokuden", "watcher": "Sam"})
    broken = c["dealer"].open_table("Broken")
    fine = c["dealer"].open_table("Fine")
    live = server.app.state.live

    async def go() -> None:
        dealer = await TableClient.connect(server.url, broken["id"], c["dealer"].token)
        runner = live.tables[broken["id"]]

        async def boom(*_: object) -> bool:
            raise RuntimeError("a bug")

        runner._apply = boom
        await dealer.send_raw('{"type": "action", "id": "x", "action": "start_round"}')
        await until_async(lambda: any(m.get("rule") == "table_unavailable" for m in dealer.messages),
                          what="the table's refusal")
        with pytest.raises(ConnectionError):  # refused at hello, with the reason
            await TableClient.connect(server.url, broken["id"], c["watcher"].token)
        other = await TableClient.connect(server.url, fine["id"], c["dealer"].token)
        await other.act("auto_deal", seconds=5)
        await other.act("auto_deal", seconds=None)
        for x in (dealer, other):
            await x.close()

    asyncio.run(go())


def test_live_authorization_matrix(server, room, cast) -> None:
    """Each role against each live action: anyone watches; only players sit; only this table's
    dealer, a pit boss or the admin deals; a dealer of another table does not."""
    ev = cast.event.id
    room.cashier.buy_in(cast.admin, cast.alice.id, 10_000)
    other_dealer = room.accounts.add(ev, "Ryuusei", "dealer", PASSWORD)
    names = {"admin": "admin", "pit_boss": "Jean-Marc", "dealer": "Bokuden", "other_dealer": other_dealer.name,
             "player": "Alice", "spectator": "Sam"}
    c = tokens_for(server, ev, names)
    table = c["dealer"].open_table("Matrix", overrides={"min_bet": 100, "max_bet": 500})
    may_sit = {"player"}
    may_deal = {"admin", "pit_boss", "dealer"}

    async def go() -> None:
        clients = {role: await TableClient.connect(server.url, table["id"], c[role].token) for role in names}
        for role, client in clients.items():
            assert client.messages[0]["type"] == "welcome"  # everyone may watch
            try:
                await client.act("sit", seat=3, amount=100)
                assert role in may_sit, role
                await client.act("leave_seat")
            except ActionRefused as e:
                assert role not in may_sit and e.rule == "play", (role, e)
        await clients["player"].act("sit", seat=1, amount=1_000)
        for role, client in clients.items():
            try:
                await client.act("auto_deal", seconds=60)
                assert role in may_deal, role
                await client.act("auto_deal", seconds=None)
            except ActionRefused as e:
                assert role not in may_deal and e.rule == "table_dealer", (role, e)
        for client in clients.values():
            await client.close()

    asyncio.run(go())
    assert room.ledger.audit(ev) == []


def test_live_hands_are_found_by_player_and_the_shoe_seed_is_kept_secret(server, room, cast) -> None:
    """The live table records who played each hand (the search by player) and keeps its
    shoe's seed in the database from the first hand, never serving it before the shoe ends."""
    ev = cast.event.id
    room.cashier.buy_in(cast.admin, cast.alice.id, 10_000)
    c = tokens_for(server, ev, {"dealer": "Bokuden", "alice": "Alice", "bob": "Bob"})
    room.cashier.buy_in(cast.admin, cast.bob.id, 10_000)
    table = c["dealer"].open_table("Search", overrides={"min_bet": 100, "max_bet": 500})

    async def go() -> None:
        dealer = await TableClient.connect(server.url, table["id"], c["dealer"].token)
        alice = await TableClient.connect(server.url, table["id"], c["alice"].token)
        await alice.act("sit", seat=1, amount=5_000)
        st = await deal_until_someone_must_act(dealer, [(alice, 100)])
        while st["round"]["phase"] != "settled":  # the clock stands for her
            st = await dealer.wait(lambda s: s["round"]["phase"] == "settled", timeout=10)
        for x in (dealer, alice):
            await x.close()

    asyncio.run(go())
    mine = c["alice"].hands(player=cast.alice.id, table=table["id"])
    assert mine and all(h["status"] == "settled" for h in mine)
    assert c["bob"].hands(player=cast.bob.id, table=table["id"]) == []
    commitment = mine[0]["commitment"]
    with room.store.transaction() as repo:
        kept = {com: seed for _t, com, seed in repo.unrevealed_shoes()}
    assert len(kept.get(commitment, "")) == 64  # in the database, secret
    doc = c["alice"].hand_history(mine[0]["id"])
    assert [s["seed"] for s in doc["shoes"]] == [None]
    assert kept[commitment] not in str(doc)


def test_a_revoked_dealers_table_is_handed_over_mid_round(server, room, cast) -> None:
    """Revoking with ``hand_over_to``: the round in play goes on, the heir deals from then on,
    the revoked dealer can no longer deal, and nobody's seat or chips move."""
    ev = cast.event.id
    heir = room.accounts.add(ev, "Ryuusei", "dealer", PASSWORD)  # on the notice's roster
    room.cashier.buy_in(cast.admin, cast.alice.id, 10_000)
    c = tokens_for(server, ev, {"dealer": "Bokuden", "alice": "Alice", "boss": "Jean-Marc", "heir": "Ryuusei"})
    table = c["dealer"].open_table("Handed over", overrides={"min_bet": 100, "max_bet": 500})

    async def go() -> None:
        dealer = await TableClient.connect(server.url, table["id"], c["dealer"].token)
        alice = await TableClient.connect(server.url, table["id"], c["alice"].token)
        await alice.act("sit", seat=1, amount=5_000)
        st = await deal_until_someone_must_act(dealer, [(alice, 100)])
        with pytest.raises(Exception) as refused:  # not to a dealer off the roster
            await asyncio.to_thread(c["boss"].request, "POST", "/api/roster/revoke",
                                    {"dealer": "Bokuden", "hand_over_to": cast.rogue.name})
        assert getattr(refused.value, "rule", None) == "hand_over"
        with room.store.transaction() as repo:  # nothing changed
            assert room.roster.is_authorized(repo, ev, "Bokuden")
        await asyncio.to_thread(c["boss"].request, "POST", "/api/roster/revoke",
                                {"dealer": "Bokuden", "hand_over_to": "Ryuusei"})
        st = await alice.wait(lambda s: s["table"]["dealer_id"] == heir.id)
        assert st["table"]["status"] == "open" and [s["player"] for s in st["seats"]] == ["Alice"]
        while st["round"]["phase"] != "settled":  # the round in play finishes
            legal = st["round"]["legal_actions"]
            if legal:
                ack = await alice.act("stand" if "stand" in legal else legal[-1])
                st = await alice.wait(lambda s: s["version"] >= ack["version"])
            else:
                st = await alice.wait(lambda s, v=st["version"]: s["version"] > v)
        with pytest.raises(ActionRefused) as e:
            await dealer.act("start_round")
        assert e.value.rule == "table_dealer"
        new_dealer = await TableClient.connect(server.url, table["id"], c["heir"].token)
        await new_dealer.act("start_round")
        for x in (dealer, alice, new_dealer):
            await x.close()

    asyncio.run(go())
    assert room.ledger.audit(ev) == []
