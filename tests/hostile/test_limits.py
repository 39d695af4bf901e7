"""Rate limits: failed sign-ins per (account name, client address) with a growing wait (429,
rule ``rate_limit``, Retry-After and the wait in words), never per name alone, so a stranger
cannot lock a player out; per client address across names, past which only names that exist
cost a password check, so a stranger cannot lock their address out either nor make the server
verify without end; and live messages per connection (a token bucket; refused messages are not
applied and may be sent again later)."""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from typing import Literal

import pytest
import websockets
from argon2 import PasswordHasher
from fastapi.testclient import TestClient

from syndicate.apps.client import RoomClient, TableClient
from syndicate.room.ledger import now
from syndicate.room.live.clocks import Timers
from syndicate.room.values import NO_PASSWORD, WALK_IN
from syndicate.web import create_app
from syndicate.web.security import Limits, RateLimited, SignInLimiter, TokenBucket, in_words
from tests.kit.room import FAST_HASHER, PASSWORD, LiveServer


def _client(database, limits: Limits, address: str = "10.0.0.1") -> TestClient:
    app = create_app(database=database, hasher=FAST_HASHER, migrate=False, limits=limits)
    return TestClient(app, raise_server_exceptions=False, client=(address, 50000))


def _sign_in(c: TestClient, ev: int, name: str, password: str, kind: str = "tokens"):
    return c.post(f"/api/events/{ev}/{kind}", json={"name": name, "password": password})


def test_failed_sign_ins_for_a_name_from_one_address_are_limited(database, cast) -> None:
    ev = cast.event.id
    with _client(database, Limits(sign_in_failures_per_name=3, sign_in_backoff=60, sign_in_failures_per_address=100,
                                  sign_in_window=600)) as c:
        for kind in ("tokens", "session", "tokens"):  # both ways of signing in count together
            assert _sign_in(c, ev, "Alice", "wrong password", kind).status_code == 401
        for name, kind in (("Alice", "tokens"), ("alice", "session"), ("ALICE ", "tokens")):
            r = _sign_in(c, ev, name, PASSWORD, kind)  # even the right password, from this address
            assert r.status_code == 429, r.text
            assert r.json()["error"]["rule"] == "rate_limit"
            wait = int(r.headers["retry-after"])
            assert 1 <= wait <= 60
            # the wait in words too, as the sign-in page shows it
            assert f"try again in {in_words(wait)}" in r.json()["error"]["message"], r.json()
            assert "set-cookie" not in r.headers
        # other accounts from the same address still sign in
        assert _sign_in(c, ev, "Bob", PASSWORD).status_code == 200
        assert _sign_in(c, ev, "Bokuden", PASSWORD, "session").status_code == 200


def test_a_stranger_hammering_a_name_does_not_lock_its_player_out(database, cast) -> None:
    """Names are public (lobby, leaderboard, roster): ten wrong passwords for "Alice" from the
    attacker's address used to lock Alice out everywhere for five minutes."""
    ev = cast.event.id
    limits = Limits(sign_in_failures_per_name=10, sign_in_backoff=60, sign_in_window=300)
    app = create_app(database=database, hasher=FAST_HASHER, migrate=False, limits=limits)
    with TestClient(app, client=("10.0.0.66", 1)) as attacker, TestClient(app, client=("10.0.0.7", 1)) as alice:
        answers = [_sign_in(attacker, ev, name, f"guess {i}").status_code
                   for i, name in enumerate(["Alice", "alice", "ALICE ", "Alice"] * 5)]
        assert answers == [401] * 10 + [429] * 10  # the attacker's address now waits...
        assert _sign_in(attacker, ev, "Alice", PASSWORD).status_code == 429  # ...with the right password too
        # ...and Alice, from her own device, signs in both ways all the while
        assert _sign_in(alice, ev, "Alice", PASSWORD).status_code == 200
        assert _sign_in(alice, ev, "alice", PASSWORD, "session").status_code == 200
        # one typo of her own then the right password: she is not held up by the attacker's count
        assert _sign_in(alice, ev, "Alice", "fat fingers").status_code == 401
        assert _sign_in(alice, ev, "Alice", PASSWORD).status_code == 200
        assert _sign_in(attacker, ev, "Alice", PASSWORD).status_code == 429


def test_a_stranger_failing_many_names_does_not_lock_their_address(database, cast) -> None:
    """The red team's case: 50 failed sign-ins with random names from one address (a casino's
    Wi-Fi), and a correct password from that address was refused (429) for five minutes. It
    gets in now, with the real limits; only a name that is itself being guessed from that
    address waits, and other addresses are untouched."""
    ev = cast.event.id
    app = create_app(database=database, hasher=FAST_HASHER, migrate=False, limits=Limits())
    with TestClient(app, client=("10.0.0.66", 1)) as wifi, TestClient(app, client=("10.0.0.7", 1)) as other:
        for i in range(Limits().sign_in_failures_per_address + 10):
            r = _sign_in(wifi, ev, f"nobody {secrets.token_hex(4)}", f"guess {i}")
            assert r.status_code == 401 and r.json()["error"]["rule"] == "credentials", r.text
        for name, kind in (("Jean-Marc", "tokens"), ("Bokuden", "session"), ("Alice", "tokens")):
            r = _sign_in(wifi, ev, name, PASSWORD, kind)
            assert r.status_code == 200, r.text
        # a name guessed from that address now: its first failure there earns a wait...
        assert _sign_in(wifi, ev, "Bob", "a guess").status_code == 401
        r = _sign_in(wifi, ev, "Bob", PASSWORD)
        assert r.status_code == 429 and r.headers["retry-after"] == "2", r.text
        assert "try again in 2 seconds" in r.json()["error"]["message"]
        assert _sign_in(other, ev, "Bob", PASSWORD).status_code == 200  # ...at that address only
        assert _sign_in(wifi, ev, "Miles", PASSWORD, "session").status_code == 200


class _CountingHasher(PasswordHasher):
    """FAST_HASHER's parameters; counts verifications. Hashing and verifying each take
    ``seconds`` at least, as argon2's two take about as long as each other."""

    def __init__(self, seconds: float) -> None:
        super().__init__(time_cost=1, memory_cost=8, parallelism=1)
        self.seconds, self.verified = seconds, 0

    def hash(self, password: str | bytes, *, salt: bytes | None = None) -> str:
        time.sleep(self.seconds)
        return super().hash(password, salt=salt)

    def verify(self, hash: str | bytes, password: str | bytes) -> Literal[True]:  # noqa: A002
        self.verified += 1
        time.sleep(self.seconds)
        return super().verify(hash, password)


def test_past_the_address_limit_only_names_that_exist_cost_a_check(database, room, cast) -> None:
    """The address limit is what keeps one client from making the server verify passwords
    without end (argon2 is costly). Past it, an unknown name is refused without a verification
    yet after as long, with the same answer; a name that exists has its password checked, at
    most once before it must wait; the right password of a name not being guessed gets in."""
    ev = cast.event.id
    hasher = _CountingHasher(0.05)
    limits = Limits(sign_in_failures_per_address=5, sign_in_backoff=60)
    app = create_app(database=database, hasher=hasher, migrate=False, limits=limits)
    with TestClient(app, client=("10.0.0.66", 1)) as c:
        for i in range(5):
            assert _sign_in(c, ev, f"ghost {i}", "guess").status_code == 401
        assert hasher.verified == 5  # under the limit an unknown name costs a check, as a known one
        answers, times = [], []
        for i in range(20):
            t0 = time.perf_counter()
            r = _sign_in(c, ev, f"ghost {secrets.token_hex(4)}", "guess")
            times.append(time.perf_counter() - t0)
            answers.append((r.status_code, r.json()))
        assert hasher.verified == 5  # none of the twenty was checked...
        assert answers == [(401, {"error": {"rule": "credentials", "message": "wrong name or password"}})] * 20
        assert min(times) >= 0.04, times  # ...and each took a check's time all the same
        for name in ("Sam", "Ghost", "Miles"):  # names that exist: one check each, then a wait
            t0 = time.perf_counter()
            assert _sign_in(c, ev, name, "guess").status_code == 401
            assert time.perf_counter() - t0 >= 0.04
            assert _sign_in(c, ev, name, "guess again").status_code == 429
        assert hasher.verified == 8
        # a walk-in's name signs nobody in and costs what an unknown name does
        with room.store.transaction() as repo:
            repo.add_account(ev, "Walker", "player", NO_PASSWORD, now(), kind=WALK_IN)
        t0 = time.perf_counter()
        assert _sign_in(c, ev, "Walker", "guess").json() == answers[0][1]
        assert time.perf_counter() - t0 >= 0.04 and hasher.verified == 8
        assert _sign_in(c, ev, "Jean-Marc", PASSWORD).status_code == 200  # not being guessed: in
        assert hasher.verified == 9


def test_the_limiter_forgets_and_the_bucket_refills() -> None:
    now = [0.0]
    lim = SignInLimiter(Limits(sign_in_failures_per_name=2, sign_in_backoff=10, sign_in_window=10),
                        clock=lambda: now[0])
    lim.failed(1, "A", "x")
    lim.failed(1, "A", "x")
    with pytest.raises(RateLimited) as e:
        lim.check(1, "a", "x")
    assert e.value.rule == "rate_limit" and e.value.retry_after == 10
    # the requirement changed: the name used to be locked for every address ("z" was refused)
    lim.check(1, "A", "z")
    lim.check(2, "A", "x")  # the same name in another event is another account
    now[0] = 10.5
    lim.check(1, "A", "x")
    bucket = TokenBucket(rate=2, burst=3, clock=lambda: now[0])
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    now[0] += 0.5  # one more token
    assert [bucket.take() for _ in range(2)] == [True, False]


def _wait(lim: SignInLimiter, name: str, address: str) -> float:
    """The Retry-After of this name at this address, 0 if it may try now."""
    try:
        lim.check(1, name, address)
    except RateLimited as e:
        return e.retry_after
    return 0


def test_the_wait_doubles_per_name_and_address_and_a_success_forgives_it() -> None:
    now = [1000.0]
    limits = Limits(sign_in_failures_per_name=3, sign_in_backoff=2, sign_in_backoff_cap=30,
                    sign_in_failures_per_address=1000, sign_in_window=100)
    lim = SignInLimiter(limits, clock=lambda: now[0])
    waits = []
    for _ in range(8):  # each try made as soon as it is allowed
        now[0] += _wait(lim, "Alice", "10.0.0.66")
        lim.failed(1, "Alice", "10.0.0.66")
        waits.append(_wait(lim, "alice ", "10.0.0.66"))
    assert waits == [0, 0, 2, 4, 8, 16, 30, 30]  # three free, then doubling up to the cap
    assert _wait(lim, "Alice", "10.0.0.7") == 0  # her own address is not held up
    now[0] += 29
    assert _wait(lim, "ALICE", "10.0.0.66") == 1  # a wait is not shortened by asking again
    # quiet for the window after the wait ended: the count is forgotten, the next failure is free
    now[0] += 1 + 100
    lim.failed(1, "Alice", "10.0.0.66")
    assert _wait(lim, "Alice", "10.0.0.66") == 0
    # still remembered within the window: back to the doubling where it was
    for _ in range(3):
        lim.failed(1, "Bob", "10.0.0.66")
    assert _wait(lim, "Bob", "10.0.0.66") == 2
    now[0] += 2 + 99
    lim.failed(1, "Bob", "10.0.0.66")
    assert _wait(lim, "Bob", "10.0.0.66") == 4
    # the right password (once the wait is over) forgives that address's typos for that name
    now[0] += 4
    lim.succeeded(1, "bob", "10.0.0.66")
    lim.failed(1, "Bob", "10.0.0.66")
    assert _wait(lim, "Bob", "10.0.0.66") == 0


def test_an_address_over_its_limit_is_marked_and_spends_each_names_free_tries() -> None:
    now = [0.0]
    lim = SignInLimiter(Limits(sign_in_failures_per_name=100, sign_in_failures_per_address=5, sign_in_window=60),
                        clock=lambda: now[0])
    for i in range(5):  # five names, one guess each: no name waits, the address is marked
        assert lim.check(1, f"Player {i}", "10.0.0.66") is False
        lim.failed(1, f"Player {i}", "10.0.0.66")
        now[0] += 1
    assert lim.check(1, "Someone else", "10.0.0.66") is True  # over: only names that exist get checked
    assert lim.check(1, "Player 0", "10.0.0.7") is False  # another address is not
    lim.succeeded(1, "Player 0", "10.0.0.66")  # an account of the attacker's own does not reset it
    assert lim.check(1, "Player 0", "10.0.0.66") is True
    lim.failed(1, "Someone else", "10.0.0.66")  # over the limit: the first failure of a name earns a wait
    with pytest.raises(RateLimited) as e:
        lim.check(1, "someone else", "10.0.0.66")
    assert e.value.retry_after == 2
    for _ in range(1000):  # a flood is remembered as the latest failures only
        lim.failed(1, "Someone else", "10.0.0.66")
    assert len(lim._addresses[("address", "10.0.0.66")]) == 5
    now[0] = 5 + 60  # the window passes the last of them (all at 5 s): the address is no longer over
    lim.failed(1, "Player 1", "10.0.0.9")
    assert lim.check(1, "Player 9", "10.0.0.66") is False


async def _next(ws, types: tuple[str, ...]) -> dict:
    while (m := json.loads(await asyncio.wait_for(ws.recv(), 5)))["type"] not in types:
        pass
    return m


class _Time:
    """The live buckets' clock (``Limits.clock``): it moves only when the test moves it."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def bucket_time() -> _Time:
    return _Time()


@pytest.fixture
def slow_server(database, bucket_time):
    app = create_app(database=database, hasher=FAST_HASHER, migrate=False, timers=Timers(turn=None),
                     limits=Limits(actions_per_second=0.5, action_burst=5, clock=bucket_time))
    srv = LiveServer(app)
    yield srv
    srv.stop()


def test_live_messages_over_the_bucket_are_refused_and_not_applied(slow_server, bucket_time, room, cast) -> None:
    ev = cast.event.id
    room.cashier.buy_in(cast.admin, cast.alice.id, 10_000)
    dealer_c, alice_c = RoomClient(slow_server.url), RoomClient(slow_server.url)
    dealer_c.sign_in(ev, "Bokuden", PASSWORD)
    alice_c.sign_in(ev, "Alice", PASSWORD)
    table = dealer_c.open_table("Flood", overrides={"min_bet": 100, "max_bet": 5_000})

    async def go() -> None:
        alice = await TableClient.connect(slow_server.url, table["id"], alice_c.token)
        dealer = await TableClient.connect(slow_server.url, table["id"], dealer_c.token)
        await alice.act("sit", seat=1, amount=5_000)
        await dealer.act("start_round")
        url = slow_server.url.replace("http://", "ws://") + f"/ws/tables/{table['id']}"
        async with websockets.connect(url) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 2, "token": alice_c.token}))
            assert json.loads(await ws.recv())["type"] == "welcome"
            for i in range(15):  # a burst of 15 bets: 5 go through, 10 are refused
                await ws.send(json.dumps({"type": "action", "id": f"bet-{i}", "action": "bet", "amount": 100 * (i + 1)}))
            await ws.send(json.dumps({"type": "ping"}))  # every message counts: refused too
            answers, pings = {}, []
            while len(answers) < 15 or not pings:
                m = json.loads(await asyncio.wait_for(ws.recv(), 5))
                if m["type"] in ("ack", "error") and m["id"] is not None:
                    answers[m["id"]] = m
                elif m["type"] == "state" and "ack" in m:  # an applied action: its state answers it
                    answers[m["ack"]] = m
                elif m["type"] in ("error", "pong"):
                    pings.append(m)
            assert pings == [{"type": "error", "id": None, "rule": "rate_limit", "message": pings[0]["message"]}]
            acked = sorted(int(k[4:]) for k, m in answers.items() if m["type"] == "state")
            limited = sorted(int(k[4:]) for k, m in answers.items() if m.get("rule") == "rate_limit")
            assert len(acked) == 5 and len(limited) == 10 and acked == list(range(5)), answers
            bucket_time.now += 2.2  # one more token
            await ws.send(json.dumps({"type": "resync"}))
            welcome = await _next(ws, ("welcome",))
            seat = next(s for s in welcome["round"]["seats"] if s["seat"] == 1)
            assert seat["bet"] == 500  # the 5th bet stands: the 10 refused ones were not applied
            bucket_time.now += 2.2
            # a refused message was not applied, not remembered: the same id goes through now
            await ws.send(json.dumps({"type": "action", "id": "bet-14", "action": "bet", "amount": 1_500}))
            while "bet-14" not in ((m := json.loads(await asyncio.wait_for(ws.recv(), 5))).get("id"), m.get("ack")):
                pass
            assert m["type"] == "state" and m["ack"] == "bet-14", m
        await alice.close()
        await dealer.close()

    asyncio.run(go())
    assert room.ledger.audit(ev) == []
