"""Live table behaviour around the edges: turn timers, disconnects and resync, a revoked dealer,
a paused table."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from syndicate.client import ActionRefused, RoomClient, TableClient
from syndicate.room.clock import Timers
from syndicate.room.ledger import player_key
from syndicate.room.seating import stack_key
from syndicate.room.values import NO_PASSWORD
from syndicate.web import create_app
from tests.room.kit import FAST_HASHER, PASSWORD, LiveServer, deal_until_someone_must_act


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


def test_a_silent_player_is_stood_by_the_clock_then_sits_out(server, room, cast) -> None:
    ev = cast.event.id
    room.cashier.buy_in(cast.admin, cast.alice.id, 10_000)
    c = tokens_for(server, ev, {"dealer": "Bokuden", "alice": "Alice"})
    table = c["dealer"].open_table("Clock", overrides={"min_bet": 100, "max_bet": 500})

    async def go() -> None:
        dealer = await TableClient.connect(server.url, table["id"], c["dealer"].token)
        alice = await TableClient.connect(server.url, table["id"], c["alice"].token)
        await alice.act("sit", seat=1, amount=5_000)
        timeouts = 0
        while True:
            st = await deal_until_someone_must_act(dealer, [(alice, 100)])
            assert st["clock"]["seat"] == st["round"]["to_act"] == 1
            assert st["clock"]["seconds"] == 0.3 and 0 <= st["clock"]["left"] <= 0.3
            # Alice says nothing: the clock makes the passive choice and the round finishes.
            st = await dealer.wait(lambda s: s["round"]["phase"] == "settled", timeout=10)
            timeouts += 1
            if any(s["sitting_out"] for s in st["seats"]):
                break
        assert 1 <= timeouts <= 2  # two timeouts in a row: one round can hold both (insurance, then the hand)
        log = [r["type"] for r in st["log"]]
        assert "stand" in log or "no_insurance" in log
        # Sitting out: no more rounds for her until she sits in.
        with pytest.raises(ActionRefused) as e:
            await dealer.act("start_round")
        assert e.value.rule == "no_players"
        await alice.act("sit_in")
        await dealer.act("start_round")
        for x in (dealer, alice):
            await x.close()

    asyncio.run(go())
    assert room.ledger.audit(ev) == []


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


def test_rounds_on_a_timer(server, room, cast) -> None:
    ev = cast.event.id
    room.cashier.buy_in(cast.admin, cast.alice.id, 10_000)
    c = tokens_for(server, ev, {"dealer": "Bokuden", "alice": "Alice"})
    table = c["dealer"].open_table("Auto", overrides={"min_bet": 100, "max_bet": 500})

    async def go() -> None:
        dealer = await TableClient.connect(server.url, table["id"], c["dealer"].token)
        alice = await TableClient.connect(server.url, table["id"], c["alice"].token)
        await alice.act("sit", seat=1, amount=5_000)
        with pytest.raises(ActionRefused) as e:
            await dealer.act("auto_deal", seconds=-1)
        assert e.value.rule == "seconds"
        with pytest.raises(ActionRefused):
            await alice.act("auto_deal", seconds=1)
        await dealer.act("auto_deal", seconds=0.2)
        hands = set()
        while len(hands) < 3:
            st = await alice.wait(lambda s: s["round"] is not None and s["round"]["phase"] == "betting"
                                  and s["hand"] not in hands)
            hands.add(st["hand"])
            await alice.act("bet", amount=100)
            # Nobody deals: the timer does; Alice plays her hand out.
            while True:
                st = await alice.wait(lambda s: s["round"]["phase"] != "betting" and (
                    s["round"]["phase"] == "settled" or bool(s["round"]["legal_actions"])))
                if st["round"]["phase"] == "settled":
                    break
                legal = st["round"]["legal_actions"]
                await alice.act("stand" if "stand" in legal else "no_insurance" if "no_insurance" in legal
                                else "play_on")
        await dealer.act("auto_deal", seconds=None)
        for x in (dealer, alice):
            await x.close()

    asyncio.run(go())
    with room.store.transaction() as repo:
        assert len([h for h in repo.hands(ev, table["id"]) if h.status == "settled"]) >= 3
    assert room.ledger.audit(ev) == []


def test_play_remote_from_the_terminal(server, room, cast) -> None:
    from syndicate.remote_play import play_remote

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


async def _until(condition, timeout: float = 20.0) -> None:  # type: ignore[no-untyped-def]
    """Wait until ``condition()`` holds (a table's last ledger write lands after its broadcast)."""
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.02)


@pytest.mark.parametrize("game", ["blackjack", "poker"])
def test_bots_fill_a_table(server, room, cast, game) -> None:
    ev = cast.event.id
    room.cashier.buy_in(cast.admin, cast.alice.id, 50_000)
    room.cashier.set_float(cast.admin, 3 * 100 * 500)  # the house's chips for the three bots
    c = tokens_for(server, ev, {"dealer": "Bokuden", "alice": "Alice", "watcher": "Sam"})
    overrides = {"min_bet": 100, "max_bet": 500} if game == "blackjack" else {}
    table = c["dealer"].open_table(f"Bots {game}", game=game, overrides=overrides)
    done = "settled" if game == "blackjack" else "complete"

    async def go() -> None:
        dealer = await TableClient.connect(server.url, table["id"], c["dealer"].token)
        alice = await TableClient.connect(server.url, table["id"], c["alice"].token)
        watcher = await TableClient.connect(server.url, table["id"], c["watcher"].token)
        await alice.act("sit", seat=1, amount=5_000)
        with pytest.raises(ActionRefused) as e:
            await dealer.act("add_bots", count=99)
        assert e.value.rule == "count"
        with pytest.raises(ActionRefused):
            await alice.act("add_bots", count=1)
        await dealer.act("add_bots", count=3)
        assert len((await dealer.wait(lambda s: len(s["seats"]) == 4))["seats"]) == 4
        # The float held three bots' stakes and they have it all: a fourth is refused.
        assert room.cashier.float_status(ev) == {"float": 150_000, "used": 150_000, "remaining": 0,
                                                 "max": 10_000_000}
        with pytest.raises(ActionRefused) as e:
            await dealer.act("add_bots", count=1)
        assert e.value.rule == "house_float" and "$0.00" in str(e.value)
        hands: set[int] = set()
        await dealer.act("auto_deal", seconds=0.3)
        while len(hands) < 4:
            st = await alice.wait(lambda s: s["round"] is not None and (
                s["round"]["phase"] == done or bool(s["round"]["legal_actions"])
                or (s["round"]["phase"] == "betting" and next(x for x in s["round"]["seats"]
                                                              if x["seat"] == 1)["bet"] == 0)), timeout=20)
            rd = st["round"]
            if rd["phase"] == done:
                hands.add(st["hand"])
                await alice.wait(lambda s: s["hand"] != st["hand"], timeout=20)
                continue
            if rd["phase"] == "betting":
                with contextlib.suppress(ActionRefused):  # the window may just have closed
                    await alice.act("bet", amount=100)
                await alice.wait(lambda s: s["round"]["phase"] != "betting" or s["hand"] != st["hand"], timeout=20)
                continue
            legal = rd["legal_actions"]
            for choice in ("stand", "check", "call", "stand_pat", "no_insurance", "play_on", "fold"):
                if choice in legal:
                    try:  # decided on this state: if the table moved on since, it is refused as stale
                        await alice.act(choice, version=st["version"])
                    except ActionRefused as e:  # the bots, or Alice's own clock, moved the hand on meanwhile
                        assert e.rule == "stale_version", e
                    break
        await dealer.act("auto_deal", seconds=None)
        await dealer.act("remove_bots")
        # The bots leave once the hand in play is over; Alice's clock plays her part of it.
        await watcher.wait(lambda s: len(s["seats"]) == 1, timeout=20)
        for x in (dealer, alice, watcher):
            await x.close()
        # Whatever they won or lost, the bots' chips are back in the float, every cent in the ledger.
        await _until(lambda: room.cashier.float_status(ev)["used"] == 0)
        status = room.cashier.float_status(ev)
        assert status["remaining"] == status["float"] and room.ledger.audit(ev) == []
        bots = [x for x in room.ledger.accounts(ev) if x.name.startswith("Bot ")]
        assert bots and all(x.balance == 0 for x in bots)

    asyncio.run(go())
    assert room.ledger.audit(ev) == []
    # Every bot chip went back to the cashier: what is out is Alice's, and the table's.
    balances = {a.key: a.balance for a in room.ledger.accounts(ev)}
    bots = [a for a in room.accounts.list(cast.admin) if a.name.startswith(f"Bot {table['id']}-")]
    assert len(bots) == 3
    for b in bots:
        assert balances.get(f"player:{b.id}", 0) == 0
        assert balances.get(stack_key(table["id"], b.id), 0) == 0
    with pytest.raises(Exception):
        room.accounts.sign_in(ev, bots[0].name, NO_PASSWORD)


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
        for _ in range(100):
            if any(m.get("rule") == "table_unavailable" for m in dealer.messages):
                break
            await asyncio.sleep(0.02)
        assert any(m.get("rule") == "table_unavailable" for m in dealer.messages)
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
