"""Faults against one server process: a client that never reads, a reconnect storm of 300
clients (the transport's: on SQLite), PostgreSQL connections dropped under a playing table. After
each the server is up, the other clients are unaffected, and the ledger sums to zero with every
balance explained by its entries.

The server runs in a thread of the test process (tests/faults/conftest.py), so a test can look
at what the server holds for one connection (its outbox) and at its live tables."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import statistics
import time
from typing import Any

import httpx
import pytest
import websockets
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool
from websockets.client import ClientProtocol
from websockets.http11 import Response
from websockets.uri import parse_uri

from syndicate.apps.client import ActionRefused, RoomClient, TableClient
from syndicate.room.accounts import LIFETIME, token_hash
from syndicate.room.ledger import now, player_key
from syndicate.room.seating import stack_key
from syndicate.web.live import OUTBOX
from syndicate.web.security import Limits
from tests.faults.conftest import FaultServer, start_server
from tests.kit.poll import until_async
from tests.kit.room import FAST_HASHER, PASSWORD

T = 20.0  # seconds: a generous bound on any wait for the server


# -- helpers ------------------------------------------------------------------------------------
def sign_in(room, ev: int, *names: str) -> dict[str, str]:
    """Tokens for these accounts, signed in in-process (the REST sign-in is tested elsewhere)."""
    return {n: room.accounts.sign_in(ev, n, PASSWORD)[0] for n in names}


def ledger_is_sound(room, ev: int) -> dict[str, int]:
    """The event's ledger sums to zero, every stored balance is the sum of its entries, and every
    bankroll's statement runs to its balance. Returns the balances by key."""
    assert room.ledger.audit(ev) == []
    balances = {a.key: a.balance for a in room.ledger.accounts(ev)}
    assert sum(balances.values()) == 0
    for key, balance in balances.items():
        if key.startswith("player:"):
            lines = room.ledger.explain(ev, key)
            assert (lines[-1].balance if lines else 0) == balance, key
    return balances


async def play_round(dealer: TableClient, seats: dict[int, TableClient], latencies: list[float],
                     bet: int = 100) -> dict[str, Any]:
    """One Blackjack round dealt by ``dealer``: every seat bets, then stands (or declines insurance,
    or plays on) whenever it is to act. Every action's round trip (ack and its state) goes into
    ``latencies``. Returns the settled state."""
    async def act(c: TableClient, action: str, **fields: Any) -> dict[str, Any]:
        t = time.perf_counter()
        answer = await c.act(action, timeout=T, **fields)
        latencies.append(time.perf_counter() - t)
        return answer

    await act(dealer, "start_round")
    for c in seats.values():
        await act(c, "bet", amount=bet)
    last = (await act(dealer, "deal"))["version"]
    while True:
        st = await dealer.wait(lambda s: s["version"] >= last, T)
        rd = st["round"]
        if rd["phase"] == "settled":
            return st
        player = seats[rd["to_act"]]
        mine = await player.wait(lambda s, v=st["version"]: s["version"] >= v, T)
        legal = mine["round"]["legal_actions"]
        last = (await act(player, next(a for a in ("stand", "no_insurance", "play_on") if a in legal)))["version"]


class NeverReads:
    """A WebSocket client on a plain blocking socket that sends but never reads after the
    handshake (its receive buffer is shrunk so that the TCP window closes quickly)."""

    def __init__(self, base_url: str, table_id: int, token: str) -> None:
        host, port = base_url.split("//")[1].split(":")
        self.proto = ClientProtocol(parse_uri(f"ws://{host}:{port}/ws/tables/{table_id}"))
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.connect((host, int(port)))
        self.proto.send_request(self.proto.connect())
        self._flush()
        while not (events := self.proto.events_received()):
            self.proto.receive_data(self.sock.recv(4096))
        assert isinstance(events[0], Response) and events[0].status_code == 101, events
        self.send({"type": "hello", "protocol": 2, "token": token})
        # From here on nothing is read: the welcome and everything after stay unread.

    def _flush(self) -> None:
        self.sock.sendall(b"".join(self.proto.data_to_send()))

    def send(self, message: dict[str, Any], times: int = 1) -> None:
        for _ in range(times):
            self.proto.send_text(json.dumps(message).encode())
        self._flush()

    @property
    def address(self) -> tuple[str, int]:
        return self.sock.getsockname()

    def close(self) -> None:
        self.sock.close()  # with unread data in its buffer: the kernel resets the connection


def server_side(server: FaultServer, table_id: int, account_id: int):
    """The server's SocketConnection of ``account_id`` at that table (None before it joined)."""
    runner = server.app.state.live.tables.get(table_id)
    if runner is None:
        return None
    return next((c for c in list(runner.clients) if getattr(c, "account", None) is not None
                 and c.account.id == account_id and hasattr(c, "outbox")), None)


def shrink_server_send_buffer(server: FaultServer, client_address: tuple[str, int]) -> None:
    """Shrink the kernel send buffer of the server's socket to that client. The kernel would
    otherwise take up to 4 MiB (net.ipv4.tcp_wmem) before the server's writes block; what
    follows is the same, it only happens within the test's time."""
    for proto in list(server.server.server_state.connections):
        if getattr(proto, "client", None) == client_address:
            proto.transport.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
            return
    raise AssertionError(f"no server connection from {client_address}")


async def stuck_behind(server: FaultServer, slow: NeverReads, table_id: int, account_id: int):
    """Connect ``slow``'s account, then have it ask for full states (``resync``, each answered
    with a ``welcome``, which never replace each other) without reading them, until the server's
    writes to it block and welcomes queue up in its outbox. Returns its server-side connection."""
    await until_async(lambda: server_side(server, table_id, account_id) is not None, what="the slow client joins")
    conn = server_side(server, table_id, account_id)
    shrink_server_send_buffer(server, slow.address)
    deadline = time.monotonic() + T
    while len(conn.outbox) < 3:  # more than one message waiting: the socket takes no more
        assert time.monotonic() < deadline, "the server's writes to a client that never reads never blocked"
        await asyncio.to_thread(slow.send, {"type": "resync"}, 5)  # 50 a second: under the rate limit
        await asyncio.sleep(0.1)
        assert len(conn.outbox) <= OUTBOX
    return conn


# -- a) a client that never reads -------------------------------------------------------------------
def test_a_client_that_never_reads_costs_bounded_memory_and_slows_no_one(server, room, cast) -> None:
    ev = cast.event.id
    room.cashier.buy_in(cast.admin, cast.alice.id, 50_000)
    room.cashier.set_float(cast.admin, 5 * 100 * 500)  # the house's chips for the five bots
    tokens = sign_in(room, ev, "Bokuden", "Alice", "Bob", "Sam")
    with RoomClient(server.url, tokens["Bokuden"]) as rc:
        table = rc.open_table("Busy", overrides={"min_bet": 100, "max_bet": 500})["id"]

    async def go() -> None:
        dealer = await TableClient.connect(server.url, table, tokens["Bokuden"], keep=200)
        alice = await TableClient.connect(server.url, table, tokens["Alice"], keep=200)
        bob = await TableClient.connect(server.url, table, tokens["Bob"], keep=200)  # a watcher
        await alice.act("sit", seat=1, amount=5_000)
        await dealer.act("add_bots", count=5)
        await dealer.act("auto_deal", seconds=0.3)  # rounds run themselves: a busy table

        latencies: list[float] = []
        hands: set[int] = set()
        stop = asyncio.Event()

        async def alice_plays() -> None:
            while not stop.is_set():
                st = await alice.wait(lambda s: stop.is_set() or (s["round"] is not None and (
                    s["round"]["phase"] == "settled"
                    or (s["round"]["phase"] == "betting" and s["round"]["seats"][0]["bet"] == 0)
                    or (s["round"]["phase"] != "betting" and bool(s["round"]["legal_actions"])))), T)
                if stop.is_set():
                    return
                rd = st["round"]
                if rd["phase"] == "settled":
                    hands.add(st["hand"])
                    await alice.wait(lambda s, h=st["hand"]: s["hand"] != h or stop.is_set(), T)
                    continue
                t = time.perf_counter()
                try:
                    if rd["phase"] == "betting":
                        await alice.act("bet", amount=100, timeout=T)
                    else:
                        legal = rd["legal_actions"]
                        await alice.act(next(a for a in ("stand", "no_insurance", "play_on") if a in legal),
                                        timeout=T)
                except ActionRefused as e:  # the betting window closed just before the bet
                    assert e.rule in ("bets_locked", "no_round", "not_dealt_in", "round_in_play"), e.rule
                    await alice.wait(lambda s, v=st["version"]: s["version"] > v, T)
                    continue
                latencies.append(time.perf_counter() - t)

        player = asyncio.create_task(alice_plays())
        await until_async(lambda: len(hands) >= 2, what="Alice's first hands", watch=player)
        before = list(latencies)

        slow = await asyncio.to_thread(NeverReads, server.url, table, tokens["Sam"])
        try:
            conn = await stuck_behind(server, slow, table, cast.spectator.id)
            # Now it also floods the server with 700 pings (and 700 is over the rate limit, so the
            # refusals are messages too): each answer joins its outbox, and past OUTBOX the outbox
            # is dropped, all but the order to close the socket.
            await asyncio.to_thread(slow.send, {"type": "ping"}, 700)
            await until_async(lambda: list(conn.outbox) == [None], what="the outbox to overflow")
            hands_then, version_then = len(hands), dealer.version
            # The table plays on around it: everything it sends that client is thrown away at once,
            # so the connection costs nothing more however long it stays.
            acted_before = len(before)
            await until_async(lambda: len(hands) >= hands_then + 3 and dealer.version >= version_then + 30
                        and len(latencies) - acted_before >= 6,  # a hand may give her no decision
                        what="three more hands and six of Alice's actions", watch=player)
            assert list(conn.outbox) == [None]
            during = latencies[len(before):]
            stop.set()
            await player
            # Everyone else got every change and acted as fast as before.
            assert len(during) >= 6
            assert max(during) < 2.0, during
            assert statistics.median(during) < max(0.25, 5 * statistics.median(before)), (before, during)
            final = dealer.version
            assert (await bob.wait(lambda s: s["version"] >= final, T))["version"] >= final
            assert (await alice.wait(lambda s: s["version"] >= final, T))["version"] >= final
            # The client goes away (a reset: it never read what it was sent): the server lets go.
            await asyncio.to_thread(slow.close)
            await until_async(lambda: server_side(server, table, cast.spectator.id) is None, what="the server to let go")
        finally:
            slow.close()
            stop.set()
            with contextlib.suppress(Exception):
                await player

        # Everyone leaves: the bots after the hand in play, Alice's stack back to her bankroll.
        await dealer.act("auto_deal", seconds=None)
        await dealer.act("remove_bots")
        await alice.act("leave_seat")
        await bob.wait(lambda s: s["seats"] == [], T)
        for c in (dealer, alice, bob):
            await c.close()

    asyncio.run(go())
    assert server.up
    balances = ledger_is_sound(room, ev)
    assert all(v == 0 for k, v in balances.items() if k.startswith(f"stack:{table}:"))
    # Alice's bankroll is her buy-in and her results, hand by hand.
    won = sum(ln.line.amount for ln in room.ledger.explain(ev, stack_key(table, cast.alice.id))
              if ln.line.kind == "blackjack")
    assert balances[player_key(cast.alice.id)] == 50_000 + won


def test_a_client_that_never_reads_is_let_go(db_url, database, room, cast) -> None:
    """A send that waits on a shut TCP window longer than ``Limits.send_timeout`` ends the
    client's handler: it leaves the table and holds nothing of the server's any more."""
    if not db_url.startswith("sqlite"):
        pytest.skip("the transport does not depend on the database: once is enough")
    server = start_server(database, limits=Limits(send_timeout=1.0))
    ev = cast.event.id
    room.cashier.set_float(cast.admin, 3 * 100 * 500)  # the house's chips for the three bots
    tokens = sign_in(room, ev, "Bokuden", "Sam")
    with RoomClient(server.url, tokens["Bokuden"]) as rc:
        table = rc.open_table("Keepalive", overrides={"min_bet": 100, "max_bet": 500})["id"]

    async def go() -> None:
        dealer = await TableClient.connect(server.url, table, tokens["Bokuden"])
        await dealer.act("add_bots", count=3)
        await dealer.act("auto_deal", seconds=0.05)
        slow = await asyncio.to_thread(NeverReads, server.url, table, tokens["Sam"])
        try:
            await stuck_behind(server, slow, table, cast.spectator.id)
            # The next send waits for a window that never opens: after 1 s the server lets go.
            await until_async(lambda: server_side(server, table, cast.spectator.id) is None, timeout=8,
                        what="the server to drop a client that never reads")
        finally:
            slow.close()
            await dealer.act("auto_deal", seconds=None)
            await dealer.close()

    try:
        asyncio.run(go())
    finally:
        server.stop()


# -- b) a reconnect storm ---------------------------------------------------------------------------
STORM = 300


def storm_accounts(room, ev: int) -> list[str]:
    """150 players and 150 spectators with a token each, in one transaction."""
    hashed = FAST_HASHER.hash(PASSWORD)
    at = now()
    tokens = []
    with room.store.transaction() as repo:
        for i in range(STORM):
            role = "player" if i % 2 else "spectator"
            account = repo.add_account(ev, f"storm {role} {i}", role, hashed, at)
            token = f"storm-{ev}-{i}-" + "x" * 16
            repo.add_token(token_hash(token), account.id, "token", at, at + LIFETIME["token"])
            tokens.append(token)
    return tokens


def test_a_reconnect_storm_of_300_clients(server, room, cast) -> None:
    ev = cast.event.id
    for who in (cast.alice, cast.bob):
        room.cashier.buy_in(cast.admin, who.id, 20_000)
    tokens = sign_in(room, ev, "Bokuden", "Alice", "Bob")
    storm_tokens = storm_accounts(room, ev)
    with RoomClient(server.url, tokens["Bokuden"]) as rc:
        tables = [rc.open_table(f"Storm {i}", overrides={"min_bet": 100, "max_bet": 500})["id"] for i in range(3)]
    played = tables[0]

    async def go() -> None:
        dealer = await TableClient.connect(server.url, played, tokens["Bokuden"])
        alice = await TableClient.connect(server.url, played, tokens["Alice"])
        bob = await TableClient.connect(server.url, played, tokens["Bob"])
        await alice.act("sit", seat=1, amount=5_000)
        await bob.act("sit", seat=2, amount=5_000)
        latencies: list[float] = []
        rounds: list[int] = []
        stop = asyncio.Event()

        async def players_play() -> None:
            while not stop.is_set():
                st = await play_round(dealer, {1: alice, 2: bob}, latencies)
                rounds.append(st["hand"])

        play = asyncio.create_task(players_play())
        await until_async(lambda: len(rounds) >= 1, what="a first round", watch=play)

        async def connect(i: int) -> TableClient:
            return await TableClient.connect(server.url, tables[i % 3], storm_tokens[i])

        # 300 clients at once, at three tables (one of them in play).
        t0 = len(latencies)
        clients = await asyncio.wait_for(asyncio.gather(*(connect(i) for i in range(STORM))), 60)
        assert all(c.messages[0]["type"] == "welcome" for c in clients)
        runners = server.app.state.live.tables
        await until_async(lambda: sum(len(runners[t].clients) for t in tables) == STORM + 3, what="every client joined")
        # All of them drop at once, without a closing handshake (a network cut)...
        seen = [c.version for c in clients]
        for c in clients:
            c.ws.transport.abort()
        await asyncio.gather(*(c._reader for c in clients if c._reader is not None), return_exceptions=True)
        # ...and the server lets go of every one of them.
        await until_async(lambda: sum(len(runners[t].clients) for t in tables) == 3, what="the server to let go")
        rounds_then = len(rounds)
        # Then all 300 come back at once: each gets a full state at least as new as the last it saw.
        again = await asyncio.wait_for(asyncio.gather(*(connect(i) for i in range(STORM))), 60)
        for i, c in enumerate(again):
            assert c.messages[0]["type"] == "welcome"
            assert c.messages[0]["version"] >= seen[i], (i, seen[i], c.messages[0]["version"])
            assert c.messages[0]["table"]["id"] == tables[i % 3]
        await until_async(lambda: len(rounds) >= rounds_then + 2, what="two more rounds after the storm", watch=play)
        stop.set()
        await play
        # The players were answered all along: every action acked (play_round raises otherwise).
        storm_latencies = latencies[t0:]
        assert len(storm_latencies) >= 10
        assert max(storm_latencies) < 10.0, max(storm_latencies)
        # The watchers of the table in play follow it.
        final = dealer.version
        for c in again[::3]:
            assert (await c.wait(lambda s: s["version"] >= final, T))["version"] >= final
        await asyncio.gather(*(c.close() for c in again))
        await alice.act("leave_seat")
        await bob.act("leave_seat")
        for c in (dealer, alice, bob):
            await c.close()

    asyncio.run(go())
    assert server.up
    assert httpx.get(f"{server.url}/api/events", timeout=10).status_code == 200
    balances = ledger_is_sound(room, ev)
    assert all(v == 0 for k, v in balances.items() if k.startswith("stack:"))
    for who in (cast.alice, cast.bob):
        won = sum(ln.line.amount for ln in room.ledger.explain(ev, stack_key(played, who.id))
                  if ln.line.kind == "blackjack")
        assert balances[player_key(who.id)] == 20_000 + won


# -- c) PostgreSQL connections dropped ------------------------------------------------------------
@pytest.mark.both_databases
def test_postgresql_connections_dropped_under_a_playing_table(db_url, database, room, cast) -> None:
    if db_url.startswith("sqlite"):
        pytest.skip("PostgreSQL only: SQLite has no server connection to lose")
    admin = create_engine(database.url, poolclass=NullPool, isolation_level="AUTOCOMMIT")
    kill = text("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()")
    ev = cast.event.id
    for who in (cast.alice, cast.bob):
        room.cashier.buy_in(cast.admin, who.id, 20_000)
    server = start_server(database)
    try:
        tokens = sign_in(room, ev, "Bokuden", "Alice", "Bob")
        with RoomClient(server.url, tokens["Bokuden"]) as rc:
            doomed = rc.open_table("Doomed", overrides={"min_bet": 100, "max_bet": 500})["id"]
            other = rc.open_table("Other", overrides={"min_bet": 100, "max_bet": 500})["id"]
        latencies: list[float] = []

        async def part_one() -> None:
            dealer = await TableClient.connect(server.url, doomed, tokens["Bokuden"])
            alice = await TableClient.connect(server.url, doomed, tokens["Alice"])
            await alice.act("sit", seat=1, amount=5_000)
            await play_round(dealer, {1: alice}, latencies)
            # Every connection the server holds is cut while idle: the next unit of work finds
            # out before using it (the tables' writer sees the server's goodbye on its socket, or
            # loses the connection before its commit and runs the unit again; REST's pool pings
            # each connection first) and takes a new one.
            for _ in range(3):
                with admin.connect() as c:
                    assert c.execute(kill).scalar_one() >= 1
                st = await play_round(dealer, {1: alice}, latencies)
                assert st["round"]["phase"] == "settled"
            with admin.connect() as c:
                c.execute(kill)
            with RoomClient(server.url, tokens["Bokuden"]) as rc:
                assert rc.lobby(ev)  # REST too
            for c in (dealer, alice):
                await c.close()

        asyncio.run(part_one())
        ledger_is_sound(room, ev)

        # Now a connection is cut in the middle of a unit of work: the table's write waits on a
        # row lock held elsewhere and its connection is terminated while it waits, twice.
        async def part_two() -> int:
            dealer = await TableClient.connect(server.url, doomed, tokens["Bokuden"])
            alice = await TableClient.connect(server.url, doomed, tokens["Alice"])
            d2 = await TableClient.connect(server.url, other, tokens["Bokuden"])
            bob = await TableClient.connect(server.url, other, tokens["Bob"])
            await bob.act("sit", seat=1, amount=5_000)
            await play_round(d2, {1: bob}, latencies)
            while True:  # a hand that waits for Alice
                await dealer.act("start_round")
                await alice.act("bet", amount=300)
                ack = await dealer.act("deal")
                st = await alice.wait(lambda s: s["version"] >= ack["version"], T)
                if st["round"]["phase"] != "settled":
                    break
            hand = st["hand"]
            with admin.connect() as locker:
                locker = locker.execution_options(isolation_level="READ COMMITTED")  # a transaction
                tx = locker.begin()
                locked = locker.execute(text("SELECT id FROM hands WHERE table_id = :t AND status = 'playing' "
                                             "FOR UPDATE"), {"t": doomed}).all()
                assert len(locked) == 1
                legal = st["round"]["legal_actions"]
                stand = asyncio.create_task(alice.act(
                    next(a for a in ("stand", "no_insurance", "play_on") if a in legal), timeout=T))
                waiting = text("SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                               "AND wait_event_type = 'Lock'")

                def blocked() -> set[int]:
                    with admin.connect() as c:
                        return set(c.execute(waiting).scalars())

                async def until_blocked(besides: set[int]) -> set[int]:
                    """The connections waiting on the lock, once one not in ``besides`` is."""
                    deadline = time.monotonic() + T
                    while not (now := await asyncio.to_thread(blocked)) - besides:
                        assert time.monotonic() < deadline, "the table's write never waited on the lock"
                        await asyncio.sleep(0.05)
                    return now - besides

                def kill(pids: set[int]) -> None:
                    with admin.connect() as c:  # not the locker: its transaction sees a snapshot of the backends
                        killed = c.execute(text("SELECT pg_terminate_backend(pid) FROM unnest(CAST(:pids AS integer[])) "
                                                "AS pid"), {"pids": list(pids)}).scalars().all()
                    assert killed == [True] * len(pids)

                # A write whose connection is lost before its commit committed nothing: the
                # writer runs it once more on a new connection, which waits on the lock again.
                first = await until_blocked(set())
                kill(first)
                second = await until_blocked(first)
                assert not stand.done()
                # Lost a second time, it fails, and the table stops.
                kill(second)
                tx.rollback()
            # What the clients see (docs/server.md, "Crash safety"): the table stopped on a server
            # error; the action in flight is never answered.
            for c in (alice, dealer):
                await until_async(lambda c=c: any(m.get("rule") == "table_unavailable" for m in c.messages),
                            what="table_unavailable")
            stopped = next(m for m in alice.messages if m.get("rule") == "table_unavailable")
            assert stopped["type"] == "error"
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(stand), 1.0)
            stand.cancel()
            # A new connection to that table is refused at hello, with the same rule.
            url = server.url.replace("http://", "ws://") + f"/ws/tables/{doomed}"
            async with websockets.connect(url) as ws:
                await ws.send(json.dumps({"type": "hello", "protocol": 2, "token": tokens["Alice"]}))
                refused = json.loads(await asyncio.wait_for(ws.recv(), T))
                assert refused["type"] == "error" and refused["rule"] == "table_unavailable"
                with pytest.raises(websockets.ConnectionClosed) as closed:
                    await asyncio.wait_for(ws.recv(), T)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
            # The other table plays on, on the same server and database.
            for _ in range(2):
                assert (await play_round(d2, {1: bob}, latencies))["round"]["phase"] == "settled"
            await bob.act("leave_seat")
            for c in (dealer, alice, d2, bob):
                await c.close()
            return hand

        hand = asyncio.run(part_two())
        assert server.up
        # Nothing half-written: the failed unit rolled back whole; the hand is still in play in
        # the database, with Alice's bet on the table.
        balances = ledger_is_sound(room, ev)
        assert balances[stack_key(doomed, cast.alice.id)] < 5_000 + 5_000
        with room.store.transaction() as repo:
            assert [h.number for h in repo.hands(ev, doomed, status="playing", limit=100)] == [hand]
    finally:
        server.stop()

    # The table comes back with the next start, by the crash rule: the hand void, every bet
    # returned, every stack back to its bankroll, and it plays again.
    server = start_server(database)
    try:
        with room.store.transaction() as repo:
            assert [h.status for h in repo.hands(ev, doomed, limit=100) if h.number == hand] == ["voided"]
        balances = ledger_is_sound(room, ev)
        assert all(v == 0 for k, v in balances.items() if k.startswith("stack:"))
        won = sum(ln.line.amount for ln in room.ledger.explain(ev, stack_key(doomed, cast.alice.id))
                  if ln.line.kind in ("blackjack", "void"))
        assert balances[player_key(cast.alice.id)] == 20_000 + won
        tokens = sign_in(room, ev, "Bokuden", "Alice")

        async def after_restart() -> None:
            dealer = await TableClient.connect(server.url, doomed, tokens["Bokuden"])
            alice = await TableClient.connect(server.url, doomed, tokens["Alice"])
            await alice.act("sit", seat=1, amount=1_000)
            st = await play_round(dealer, {1: alice}, [])
            assert st["hand"] == hand + 1
            await alice.act("leave_seat")
            for c in (dealer, alice):
                await c.close()

        asyncio.run(after_restart())
        ledger_is_sound(room, ev)
    finally:
        server.stop()
        admin.dispose()
