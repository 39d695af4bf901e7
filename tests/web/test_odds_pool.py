"""The public odds answer (``GET /api/tables/{id}/odds``) is computed off the event loop in a
bounded pool: a crowd of cold requests gets 429 with Retry-After beyond the bound, one rule set
is analysed once however many ask, and the live tables keep playing meanwhile."""

from __future__ import annotations

import asyncio
import threading

import httpx
import pytest

from syndicate.apps.client import RoomClient, TableClient
from syndicate.blackjack.maths import odds, strategy
from syndicate.web import pages
from tests.kit.room import PASSWORD, deal_until_someone_must_act

#: Sixteen rule sets that differ in what the analysis depends on (none shares another's odds).
RULE_SETS = [{"decks": d, "dealer_hits_soft_17": h17} for d in range(1, 9) for h17 in (False, True)]


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch):
    """Holds every analysis until released, counting them: the pool's state is then known
    without any timing."""
    release = threading.Event()
    calls: list[object] = []
    real = pages._odds

    def held(compute, rules):  # type: ignore[no-untyped-def]
        calls.append(rules)
        release.wait(60)
        return real(compute, rules)

    monkeypatch.setattr(pages, "_odds", held)
    odds._analyze.cache_clear()  # cold: nothing another test computed
    yield release, calls
    release.set()


def _signed_in(server, ev: int, name: str) -> RoomClient:
    c = RoomClient(server.url)
    c.sign_in(ev, name, PASSWORD)
    return c


async def _play_one_round(dealer: TableClient, alice: TableClient) -> dict:
    """Alice stands on whatever she is dealt; the round's settled state, after a ping answered."""
    st = await deal_until_someone_must_act(dealer, [(alice, 100)])
    while st["round"]["phase"] != "settled":
        mine = await alice.wait(lambda s, v=st["version"]: s["version"] >= v)
        legal = mine["round"]["legal_actions"]
        if mine["round"]["to_act"] == 1 and legal:
            action = "stand" if "stand" in legal else "no_insurance"
            version = (await alice.act(action))["version"]
            st = await dealer.wait(lambda s, v=version: s["version"] >= v)
        else:
            st = await dealer.wait(lambda s, v=st["version"]: s["version"] > v)
    return st


def test_cold_odds_crowd_is_bounded_and_live_play_goes_on(server, room, cast, gate) -> None:
    release, calls = gate
    ev = cast.event.id
    room.cashier.buy_in(cast.admin, cast.alice.id, 10_000)
    dealer_c = _signed_in(server, ev, "Bokuden")
    alice_c = _signed_in(server, ev, "Alice")
    live = dealer_c.open_table("Live", overrides={"min_bet": 100, "max_bet": 500})
    cold = [dealer_c.open_table(f"Cold {i}", overrides=r)["id"] for i, r in enumerate(RULE_SETS)]
    svc = server.app.state.odds
    slots = svc.slots
    assert slots < len(cold)

    async def go() -> None:
        dealer = await TableClient.connect(server.url, live["id"], dealer_c.token)
        alice = await TableClient.connect(server.url, live["id"], alice_c.token)
        await alice.act("sit", seat=1, amount=5_000)
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:  # no sign-in: it is public
            tasks = {t: asyncio.create_task(http.get(f"/api/tables/{t}/odds")) for t in cold}
            # Beyond the bound the answer comes at once, while the admitted ones are still held.
            refused = []
            while len(refused) < len(cold) - slots:
                done, _ = await asyncio.wait([x for x in tasks.values() if x not in refused],
                                             return_when=asyncio.FIRST_COMPLETED)
                refused.extend(done)
            for r in (x.result() for x in refused):
                assert r.status_code == 429, r.text
                assert r.json()["error"]["rule"] == "rate_limit"
                assert int(r.headers["Retry-After"]) >= 1
            assert len(calls) <= slots
            # The live table plays a whole round and answers pings while the pool is full...
            st = await _play_one_round(dealer, alice)
            assert st["round"]["phase"] == "settled"
            # ...and again while the admitted analyses really run.
            release.set()
            st = await _play_one_round(dealer, alice)
            assert st["round"]["phase"] == "settled"
            admitted = [t for t, x in tasks.items() if x not in refused]
            answers = await asyncio.gather(*(tasks[t] for t in admitted))
            for t, r in zip(admitted, answers):
                assert r.status_code == 200, r.text
                want = odds.analyze(_rules_of(room, t))
                assert r.json()["house_edge_pct"] == pytest.approx(-want.expectation_pct)
            # A refused asker that comes back once the pool has room is answered.
            again = next(t for t, x in tasks.items() if x in refused)
            r = await http.get(f"/api/tables/{again}/odds")
            assert r.status_code == 200 and "house_edge_pct" in r.json()
        for x in (dealer, alice):
            await x.close()

    asyncio.run(go())
    assert len(calls) == slots + 1  # each admitted rule set once, and the one asked again
    assert room.ledger.audit(ev) == []


def _rules_of(room, table_id: int):  # type: ignore[no-untyped-def]
    from syndicate.blackjack.rules import Rules

    with room.store.transaction() as repo:
        return Rules.from_dict(repo.table(table_id).rules)


def test_one_rule_set_is_analysed_once_however_many_ask(server, room, cast, gate) -> None:
    release, calls = gate
    ev = cast.event.id
    dealer_c = _signed_in(server, ev, "Bokuden")
    # Two tables that differ only in what the analysis ignores (bets): one rule set.
    a = dealer_c.open_table("A", overrides={"decks": 2, "min_bet": 100})["id"]
    b = dealer_c.open_table("B", overrides={"decks": 2, "min_bet": 200})["id"]

    async def go() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
            tasks = [asyncio.create_task(http.get(f"/api/tables/{t}/odds")) for t in [a, b] * 10]
            while not calls:  # the analysis has started: every later asker joins it
                await asyncio.sleep(0.01)
            release.set()
            first = await asyncio.gather(*tasks)
            later = await http.get(f"/api/tables/{a}/odds")  # kept: no new analysis
            return [*first, later]

    answers = asyncio.run(go())
    assert [r.status_code for r in answers] == [200] * 21
    assert len({r.json()["house_edge_pct"] for r in answers}) == 1
    assert len(calls) == 1


def test_serve_precomputes_every_preset_at_start(database) -> None:
    """``syndicate serve`` (precompute_odds) analyses the presets in the background on start,
    so a preset table's rules page needs no analysis of its own."""
    import time

    from syndicate.blackjack.rules import PRESETS
    from syndicate.web import create_app
    from tests.kit.room import FAST_HASHER, LiveServer

    srv = LiveServer(create_app(database=database, hasher=FAST_HASHER, migrate=False, precompute_odds=True))
    try:
        svc = srv.app.state.odds
        wanted = [odds.canonical(r) for r in PRESETS.values()]
        deadline = time.monotonic() + 120
        while not all(svc.cached(r) is not None for r in wanted):
            assert time.monotonic() < deadline, "the presets were not precomputed"
            time.sleep(0.05)
        assert {svc.cached(r)["caption"] for r in wanted} == {
            strategy._rules_caption(r) for r in wanted}
    finally:
        srv.stop()
