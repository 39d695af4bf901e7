"""Several server processes on one PostgreSQL database with Redis between them (issue 7):
real ``syndicate serve --redis`` processes on loopback. A table is played by clients of two
processes; its owner is killed with SIGKILL mid-hand, or paused past its lease and fenced; Redis
restarts under play. After each, the ledger sums to zero and explains every balance."""

from __future__ import annotations

import asyncio
import json
import random
import signal
import time
from typing import Any

from syndicate.apps import loadbots, loadtest
from syndicate.apps.blackjack_remote import basic_strategy
from syndicate.apps.client import ActionRefused, RoomClient, TableClient, my_turn
from syndicate.room.ledger import player_key
from syndicate.room.live.cluster import VERSION_STRIDE
from syndicate.room.seating import stack_key
from tests.cluster.conftest import LEASE, Node
from tests.kit.room import PASSWORD, hand_in_play


def tokens(url: str, ev: int, *names: str) -> dict[str, str]:
    out = {}
    for n in names:
        with RoomClient(url) as c:
            c.sign_in(ev, n, PASSWORD)
            assert c.token is not None
            out[n] = c.token
    return out


async def play_round(dealer: TableClient, players: dict[int, TableClient], bet: int = 200) -> dict[str, Any]:
    """One Blackjack round to the end, every player by basic strategy; the dealer's last state."""
    await dealer.act("start_round")
    for p in players.values():
        await p.act("bet", amount=bet)
    version = (await dealer.act("deal"))["version"]
    while True:
        st = await dealer.wait(lambda s, v=version: s["version"] >= v)
        rd = st["round"]
        if rd["phase"] == "settled":
            return st
        p = players[rd["to_act"]]
        mine = await p.wait(lambda s, v=st["version"]: s["version"] >= v)
        action, fields = basic_strategy(mine, p.rules)
        version = (await p.act(action, **fields))["version"]


def settled_net(room: Any, ev: int, table_id: int) -> dict[int, int]:
    net: dict[int, int] = {}
    with room.store.transaction() as repo:
        for h in repo.hands(ev, table_id, status="settled", limit=10_000):
            for seat, n in h.history["rounds"][0]["results"].items():
                net[int(seat)] = net.get(int(seat), 0) + n
    return net


def lease_of(room: Any, table_id: int) -> tuple[str, int]:
    with room.store.transaction() as repo:
        lease = repo.leases(table_id)[table_id]
    return lease.owner, lease.epoch


def test_one_table_played_through_two_processes(nodes: list[Node], cluster_room) -> None:
    room, cast = cluster_room
    a, b = nodes
    ev = cast.event.id
    for who in (cast.alice, cast.bob):
        room.cashier.buy_in(cast.admin, who.id, 20_000)
    tok = tokens(a.url, ev, "Bokuden", "Alice", "Bob", "Sam")
    with RoomClient(b.url, tok["Bokuden"]) as rest:
        table = rest.open_table("Two processes", overrides={"min_bet": 100, "max_bet": 2_000})
    tid = table["id"]

    async def play() -> dict[str, list[dict[str, Any]]]:
        dealer = await TableClient.connect(a.url, tid, tok["Bokuden"])  # the first client: a runs the table
        alice_b = await TableClient.connect(b.url, tid, tok["Alice"])  # forwarded through Redis
        alice_a = await TableClient.connect(a.url, tid, tok["Alice"])  # the same player, on the owner
        bob_b = await TableClient.connect(b.url, tid, tok["Bob"])
        sam_a = await TableClient.connect(a.url, tid, tok["Sam"])
        sam_b = await TableClient.connect(b.url, tid, tok["Sam"])
        await alice_b.act("sit", seat=1, amount=5_000)
        await bob_b.act("sit", seat=2, amount=5_000)
        for _ in range(6):
            await play_round(dealer, {1: alice_b, 2: bob_b})
        last = dealer.version
        watching = {"alice_a": alice_a, "alice_b": alice_b, "sam_a": sam_a, "sam_b": sam_b}
        for c in watching.values():
            await c.wait(lambda s: s["version"] >= last)
        out = {k: list(c.messages) for k, c in watching.items()}
        for c in (dealer, bob_b, *watching.values()):
            await c.close()
        return out

    seen = asyncio.run(play())
    owner, epoch = lease_of(room, tid)
    assert owner.split(":")[1] == str(a.proc.pid) and epoch == 1  # a ran it throughout: no takeover

    # Each client's messages through the other process are exactly the owner's view of that
    # client: the same versions with the same content (the turn clock's seconds left aside:
    # they are read at each send; and the answers, which go to the socket that acted only:
    # Alice plays through b, so her states there answer her actions).
    def states(msgs: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
        return {m["version"]: {k: v for k, v in m.items() if k not in ("clock", "ack")}
                for m in msgs if m["type"] == "state"}

    assert [m for m in seen["alice_a"] + seen["sam_a"] + seen["sam_b"] if "ack" in m] == []
    assert len([m for m in seen["alice_b"] if m["type"] == "state" and "ack" in m]) > 5

    for who in ("alice", "sam"):
        on_a, on_b = states(seen[f"{who}_a"]), states(seen[f"{who}_b"])
        common = sorted(set(on_a) & set(on_b))
        assert len(common) > 20
        assert all(on_a[v] == on_b[v] for v in common)
        assert max(on_b) == max(on_a) >= VERSION_STRIDE  # an owner's versions start at epoch * stride
    # The hole card is hidden from the watcher through the other process until it is turned.
    hidden = [m for m in seen["sam_b"] if m["type"] == "state" and m["round"]
              and len(m["round"]["dealer"]["cards"]) == 2 and m["round"]["dealer"]["cards"][1] is None]
    assert hidden
    net = settled_net(room, ev, tid)
    assert room.ledger.audit(ev) == [] and room.ledger.total(ev) == 0
    for who, seat in ((cast.alice, 1), (cast.bob, 2)):  # still seated: 5,000 went to the table
        assert room.ledger.balance(ev, player_key(who.id)) == 15_000
        assert room.ledger.balance(ev, stack_key(tid, who.id)) == 5_000 + net.get(seat, 0)


def _check_void_and_ledger(room: Any, cast: Any, ev: int, tid: int, hand: int) -> None:
    """The hand that was in play is void, every bet returned, every stack back in its bankroll,
    and the ledger sums to zero and explains every balance."""
    with room.store.transaction() as repo:
        by_number = {h.number: h for h in repo.hands(ev, tid, limit=10_000)}
        assert by_number[hand].status == "voided"
        assert repo.hand_net(by_number[hand].id) == {}  # the void undid every chip it moved
        assert all(h.status in ("settled", "voided") for h in by_number.values())
    net = settled_net(room, ev, tid)
    assert room.ledger.audit(ev) == [] and room.ledger.total(ev) == 0
    for who, seat in ((cast.alice, 1), (cast.bob, 2)):
        assert room.ledger.balance(ev, stack_key(tid, who.id)) == 0
        assert room.ledger.balance(ev, player_key(who.id)) == 20_000 + net.get(seat, 0)


def _busy_table(room: Any, cast: Any, url: str) -> tuple[int, int, dict[str, str]]:
    ev = cast.event.id
    for who in (cast.alice, cast.bob):
        room.cashier.buy_in(cast.admin, who.id, 20_000)
    tok = tokens(url, ev, "Bokuden", "Alice", "Bob")
    with RoomClient(url, tok["Bokuden"]) as rest:
        table = rest.open_table("Busy", overrides={"min_bet": 100, "max_bet": 2_000})
    return ev, table["id"], tok


def test_clients_routed_by_table_meet_their_table_on_their_own_process(nodes: list[Node], cluster_room) -> None:
    """Routed by table (a load balancer hashing the socket's path, docs/deployment.md), every
    client of a table reaches the same process: that process takes the table when its first
    client joins, and nothing of the table's play goes through Redis. The load tool's
    ``--route table`` routes so; the tables spread over both processes."""
    room, cast = cluster_room
    ev = cast.event.id
    specs = loadtest.plan(4, 2, 0, ("blackjack",))
    password = loadtest.prepare_accounts(nodes[0].url, ev, "admin", PASSWORD, specs)
    urls = ",".join(n.url for n in nodes)
    bots = [loadbots.TableBots(urls, ev, s, password, 0.01, random.Random(i), route="table")
            for i, s in enumerate(specs)]

    async def play() -> list[loadbots.Failure]:
        failures = await loadbots.connect_tables(bots)
        return failures + await loadbots.play_tables(bots, warmup=0.2, seconds=2, grace=10)

    assert asyncio.run(play()) == []
    owners = {}
    for b in bots:
        assert b.errors == 0 and "deal" in b.by_action
        assert b.table_id is not None
        owner, _ = lease_of(room, b.table_id)
        owners[b.table_id] = owner.split(":")[1]  # host:pid:tag
        assert owners[b.table_id] == str(nodes[b.table_id % 2].proc.pid)
    assert len(set(owners.values())) == 2
    assert room.ledger.audit(ev) == [] and room.ledger.total(ev) == 0


def test_kill_9_the_owner_mid_hand_another_process_takes_the_table(nodes: list[Node], cluster_room) -> None:
    room, cast = cluster_room
    a, b = nodes
    ev, tid, tok = _busy_table(room, cast, b.url)

    async def scenario() -> None:
        dealer = await TableClient.connect(a.url, tid, tok["Bokuden"])  # a owns the table
        alice = await TableClient.connect(b.url, tid, tok["Alice"])
        bob = await TableClient.connect(b.url, tid, tok["Bob"])
        st = await hand_in_play(dealer, alice, bob)
        hand = st["hand"]
        killed_at = time.monotonic()
        a.kill9()  # the owner dies mid-hand
        # b sees the lease expire, takes the table over and voids the hand; its clients get the
        # table's state again, from the next owner's versions, with nobody seated.
        back = await alice.wait(lambda s: s["version"] >= 2 * VERSION_STRIDE, timeout=LEASE * 6)
        took = time.monotonic() - killed_at
        assert back["seats"] == [] and back["round"] is None
        assert took < LEASE * 4, took
        assert lease_of(room, tid)[0].split(":")[1] == str(b.proc.pid)
        _check_void_and_ledger(room, cast, ev, tid, hand)
        # The dealer's socket died with a; reconnected (to b, as a load balancer would), the
        # table plays on from the database: the next hand is the next number.
        dealer = await TableClient.connect(b.url, tid, tok["Bokuden"])
        await alice.act("sit", seat=1, amount=2_000)
        done = await play_round(dealer, {1: alice})
        assert done["hand"] == hand + 1
        for c in (dealer, alice, bob):
            await c.close()

    asyncio.run(scenario())
    assert b.alive
    assert room.ledger.audit(ev) == [] and room.ledger.total(ev) == 0


def test_a_paused_owner_is_fenced_and_its_table_moves(nodes: list[Node], cluster_room) -> None:
    """SIGSTOP the owner past its lease: another process takes the table. When the stale owner
    wakes, nothing it does at that table reaches the database (the epoch fences it), it gives
    the table up, and its own clients are served by the new owner through Redis."""
    room, cast = cluster_room
    a, b = nodes
    ev, tid, tok = _busy_table(room, cast, b.url)

    async def scenario() -> None:
        dealer = await TableClient.connect(a.url, tid, tok["Bokuden"])  # a owns the table
        alice = await TableClient.connect(b.url, tid, tok["Alice"])
        bob = await TableClient.connect(a.url, tid, tok["Bob"])  # a client of the owner
        st = await hand_in_play(dealer, alice, bob)
        hand = st["hand"]
        a.signal(signal.SIGSTOP)
        try:
            await alice.wait(lambda s: s["version"] >= 2 * VERSION_STRIDE, timeout=LEASE * 6)
            assert lease_of(room, tid)[0].split(":")[1] == str(b.proc.pid)
            _check_void_and_ledger(room, cast, ev, tid, hand)
            with room.store.transaction() as repo:
                before = len(repo.lines(repo.ledger_account(ev, f"table:{tid}", "house", "").id))
            # Bob's decision waits in the paused owner's socket: it can only be refused.
            await bob.send_raw(json.dumps({"type": "action", "id": "late", "action": "stand", "seat": 2}))
        finally:
            a.signal(signal.SIGCONT)
        # a wakes, finds its lease gone, and Bob's socket on a is served by b from now on.
        moved = await bob.wait(lambda s: s["version"] >= 2 * VERSION_STRIDE, timeout=LEASE * 6)
        assert moved["seats"] == []
        answer = next((m for m in bob.messages if m.get("id") == "late"), None)
        assert answer is None or answer["type"] == "error"  # refused (fenced, or not seated at b)
        with room.store.transaction() as repo:
            after = len(repo.lines(repo.ledger_account(ev, f"table:{tid}", "house", "").id))
        assert after == before  # the stale owner wrote nothing
        # Play goes on at b, for clients of both processes.
        await bob.act("sit", seat=2, amount=1_000)
        dealer2 = await TableClient.connect(b.url, tid, tok["Bokuden"])
        done = await play_round(dealer2, {2: bob})
        assert done["hand"] == hand + 1
        for c in (dealer, dealer2, alice, bob):
            await c.close()

    asyncio.run(scenario())
    assert a.alive and b.alive
    assert f"table {tid}: another process holds its lease now" in a.log_path.read_text()
    assert room.ledger.audit(ev) == [] and room.ledger.total(ev) == 0


async def drive(dealer: TableClient, players: dict[int, TableClient], rounds: int, seconds: float) -> int:
    """Play Blackjack rounds from whatever state the table is in, retrying whatever was refused
    or went unanswered (a table changing servers, Redis away): the rounds settled."""
    settled, deadline = 0, time.monotonic() + seconds
    seen_hand = None
    while settled < rounds:
        assert time.monotonic() < deadline, f"only {settled} of {rounds} rounds in {seconds} s"
        st = dealer.state
        assert st is not None
        rd = st["round"]
        try:
            if rd is None or rd["phase"] == "settled":
                if rd is not None and st["hand"] != seen_hand:
                    settled, seen_hand = settled + 1, st["hand"]
                    if settled == rounds:
                        break
                await dealer.act("start_round", timeout=3)
            elif rd["phase"] == "betting":
                for seat in (s["seat"] for s in rd["seats"] if s["bet"] == 0):
                    await players[seat].act("bet", amount=200, timeout=3)
                await dealer.act("deal", timeout=3)
            else:
                p = players[rd["to_act"]]
                mine = await p.wait(lambda s, v=st["version"]: s["version"] >= v, timeout=3)
                if not my_turn(mine):
                    # The player's state is newer than the dealer's (their own action's ack and
                    # state reach them before the dealer hears of it, or a turn clock ran out): the
                    # round moved on. Look again once the dealer has caught up.
                    await dealer.wait(lambda s, v=mine["version"]: s["version"] >= v, timeout=3)
                    continue
                action, fields = basic_strategy(mine, p.rules)
                await p.act(action, timeout=3, **fields)
        except (ActionRefused, TimeoutError):
            await asyncio.sleep(0.2)  # look at the table again
    return settled


def test_redis_restarted_under_play(cluster_db, cluster_room, private_redis, tmp_path) -> None:
    room, cast = cluster_room
    a = Node(cluster_db, private_redis.url, tmp_path / "a.log")
    b = Node(cluster_db, private_redis.url, tmp_path / "b.log")
    try:
        ev, tid, tok = _busy_table(room, cast, b.url)

        async def scenario() -> None:
            dealer = await TableClient.connect(a.url, tid, tok["Bokuden"])  # a owns the table
            alice = await TableClient.connect(b.url, tid, tok["Alice"])  # through Redis
            bob = await TableClient.connect(a.url, tid, tok["Bob"])
            await alice.act("sit", seat=1, amount=5_000)
            await bob.act("sit", seat=2, amount=5_000)
            players = {1: alice, 2: bob}
            assert await drive(dealer, players, 3, 30) == 3
            playing = asyncio.create_task(drive(dealer, players, 6, 60))
            await asyncio.sleep(0.5)
            private_redis.kill()  # Redis goes away under play ...
            await asyncio.sleep(1.5)
            private_redis.start()  # ... and comes back empty
            assert await playing == 6  # the owner's clients play on throughout
            # b subscribes again and has the owner send Alice (its client) the whole state:
            deadline = time.monotonic() + 15
            while "Redis is back" not in b.log_path.read_text():
                assert time.monotonic() < deadline, "b did not reconnect to Redis"
                await asyncio.sleep(0.1)
            last = dealer.version
            st = await alice.wait(lambda s: s["version"] >= last, timeout=10)
            assert st["seats"] == dealer.state["seats"]
            with room.store.transaction() as repo:
                before = len(repo.hands(ev, tid, limit=10_000, player=cast.alice.id))
            assert await drive(dealer, players, 3, 30) == 3
            with room.store.transaction() as repo:  # and she plays again, through b
                assert len(repo.hands(ev, tid, limit=10_000, player=cast.alice.id)) >= before + 2
            for c in (dealer, alice, bob):
                await c.close()

        asyncio.run(scenario())
        assert a.alive and b.alive
        with room.store.transaction() as repo:
            assert all(h.status == "settled" for h in repo.hands(ev, tid, limit=10_000))
        net = settled_net(room, ev, tid)
        assert room.ledger.audit(ev) == [] and room.ledger.total(ev) == 0
        for who, seat in ((cast.alice, 1), (cast.bob, 2)):
            assert room.ledger.balance(ev, stack_key(tid, who.id)) == 5_000 + net.get(seat, 0)
    finally:
        a.stop()
        b.stop()
