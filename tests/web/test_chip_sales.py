"""Two people for a walk-in's cash (docs/walk-ins.md): a table's cash is counted by someone other
than its dealer, a chip sale above the limit the host sets waits for a pit boss's or the admin's
approval before any chip moves, and `syndicate admin check` flags a table whose walk-in sales
no one but its dealer counted. Through the API and the WebSocket, as the dealer, the
accomplice, the pit boss and the host meet them; on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from syndicate.apps.client import ActionRefused, ApiError, RoomClient, TableClient
from syndicate.apps.server import ledger_check
from syndicate.room.ledger import cash_key, player_key
from syndicate.room.seating import stack_key
from tests.kit.room import PASSWORD


def sign_in(server, event_id: int, name: str) -> RoomClient:  # noqa: ANN001
    c = RoomClient(server.url)
    c.sign_in(event_id, name, PASSWORD)
    return c


async def shill_hand(dealer: TableClient, alice: TableClient) -> None:
    """One hand of draw the dealer throws to Alice: the shill (seat 1, entered by the dealer)
    bets $2.50, Alice raises 50 cents, the shill folds: $3.00 with the ante goes to Alice."""
    await dealer.act("start_round")
    while True:
        st = await dealer.wait(lambda s: True)
        rd = st["round"]
        if rd["phase"] == "complete":
            return
        if rd["to_act"] == 1:
            legal = next(s for s in st["seats"] if s["seat"] == 1)["legal_actions"]
            await dealer.act("fold" if "fold" in legal and "call" in legal else "bet", seat=1,
                             **({} if "fold" in legal and "call" in legal else {"amount": 250}))
        else:
            mine = await alice.wait(lambda s, v=st["version"]: s["version"] >= v)
            legal = mine["round"]["legal_actions"]
            await alice.act("raise", amount=50) if "raise" in legal else await alice.act("check")
        await dealer.wait(lambda s, v=st["version"]: s["version"] > v)


def test_a_dealer_alone_cannot_create_chips(server, room, cast, db_url) -> None:
    """The red team's case: the dealer seats a walk-in nobody paid for, throws twelve hands of
    draw to an accomplice, and counts the table's cash as matching; the accomplice cashes out
    at the cashier $36 up. The dealer's count is refused, `syndicate admin check` flags the
    table (a warning while it is open, a problem once closed), and the pit boss's count of the
    box finds the $36 missing."""
    ev = cast.event.id
    c = {n: sign_in(server, ev, n) for n in ("Bokuden", "Alice", "Jean-Marc")}
    c["Jean-Marc"].buy_in(cast.alice.id, 2_000)
    tid = c["Bokuden"].open_table("Friendly game", game="poker", overrides={"ante": 50})["id"]

    async def go() -> None:
        dealer = await TableClient.connect(server.url, tid, c["Bokuden"].token or "")
        alice = await TableClient.connect(server.url, tid, c["Alice"].token or "")
        await dealer.act("seat_walk_in", seat=1, name="Shill", amount=3_700)  # no cash changed hands
        await alice.act("sit", seat=2, amount=2_000)
        for _ in range(12):
            await shill_hand(dealer, alice)
        st = await dealer.wait(lambda s: True)
        assert {s["seat"]: s["stack"] for s in st["seats"]} == {1: 100, 2: 5_600}
        await dealer.act("cash_out_walk_in", seat=1)  # $1 back "in cash"
        await alice.act("leave_seat")
        for x in (dealer, alice):
            await x.close()

    asyncio.run(go())
    paid = c["Jean-Marc"].request("POST", "/api/cashier/cash-out-all", {"player": cast.alice.id})
    assert paid["amount"] == 5_600  # $20 bought, $56 out: the house is $36 down
    assert room.ledger.balance(ev, cash_key(tid)) == -3_600  # the dealer should hold $36
    # The dealer's count "that matches" is refused, and records nothing.
    with pytest.raises(ApiError) as e:
        c["Bokuden"].request("POST", f"/api/tables/{tid}/cash-count", {"counted": 3_600})
    assert (e.value.status, e.value.rule) == (403, "count_cash")
    assert [x["counted"] for x in c["Jean-Marc"].request("GET", "/api/cash") if x["table"] == tid] == [None]
    # `syndicate admin check` is not silent: a warning while the table is open...
    warnings: dict[str, list[str]] = {}
    assert ledger_check(db_url, warnings)[cast.event.name] == []
    (warned,) = [w for w in warnings[cast.event.name] if f"table {tid}" in w]
    assert "never counted by anyone but its dealer" in warned and "$36.00" in warned
    # ...and a problem once it is closed, until someone else counts the box.
    c["Bokuden"].request("POST", f"/api/tables/{tid}/status", {"status": "closed"})
    (problem,) = ledger_check(db_url)[cast.event.name]
    assert f"table {tid}" in problem and "never counted by anyone but its dealer" in problem
    # The pit boss counts what is in the box: nothing (nobody paid for the shill's chips).
    r = c["Jean-Marc"].request("POST", f"/api/tables/{tid}/cash-count", {"counted": 0})
    assert (r["expected"], r["difference"]) == (3_600, -3_600)
    (problem,) = ledger_check(db_url)[cast.event.name]
    assert "short by $36.00" in problem
    assert room.ledger.audit(ev) == []
    for x in c.values():
        x.close()


async def settle(dealer: TableClient, seat: int) -> dict[str, Any]:
    """The dealer stands for ``seat`` (declining insurance and early surrender) until the round
    in play is settled; the settled state."""
    while True:
        st = await dealer.wait(lambda s: True)
        rd = st["round"]
        if rd["phase"] == "settled":
            return st
        legal = next(s for s in st["seats"] if s["seat"] == seat)["legal_actions"]
        await dealer.act(next(a for a in ("no_insurance", "play_on", "stand") if a in legal), seat=seat)


def test_a_sale_above_the_limit_waits_for_approval(stacked_server, room, cast) -> None:
    """The host sets the limit (admin only, through the API). A sale above it, seating a walk-in
    or selling them more, moves no chip: the seat shows it waiting; the approver sees it, and
    approves (the chips move then, or once the round's cards are in if they are out) or refuses
    (nothing moves). Not the table's dealer (a pit boss dealing their own table included), never
    twice; a walk-in cashed out while one waits cancels it. Under the limit, or with none, a sale
    is made at once."""
    server = stacked_server
    ev = cast.event.id
    c = {n: sign_in(server, ev, n) for n in ("Bokuden", "Jean-Marc", "admin", "Alice")}

    def limit(who: str, value: Any) -> Any:
        return c[who].request("PATCH", f"/api/events/{ev}", {"sale_limit": value})

    with pytest.raises(ApiError) as e:
        limit("Jean-Marc", 10_000)
    assert (e.value.status, e.value.rule) == (403, "event_settings")
    for bad in (0, -1, 1.5, "100", 10**12):
        with pytest.raises(ApiError) as e:
            limit("admin", bad)
        assert e.value.status == 422
    assert limit("admin", 10_000)["sale_limit"] == 10_000  # sales above $100 wait
    assert next(x for x in c["Alice"].request("GET", "/api/events") if x["id"] == ev)["sale_limit"] == 10_000
    tid = c["Bokuden"].open_table("Limited", overrides={"min_bet": 100, "max_bet": 10_000})["id"]
    own = c["Jean-Marc"].open_table("Jean-Marc deals", overrides={"min_bet": 100, "max_bet": 10_000})["id"]

    def waiting() -> list[dict[str, Any]]:
        return c["Jean-Marc"].request("GET", "/api/chip-sales")

    def cash() -> int:  # the table's cash account (none until a chip is sold there)
        return next((a.balance for a in room.ledger.accounts(ev) if a.key == cash_key(tid)), 0)

    def decide(who: str, sale: int, how: str) -> Any:
        return c[who].request("POST", f"/api/chip-sales/{sale}/{how}")

    async def go() -> None:
        dealer = await TableClient.connect(server.url, tid, c["Bokuden"].token or "")
        await dealer.act("seat_walk_in", seat=1, name="Kenji", amount=50_000)  # $500 > $100: it waits
        st = dealer.state
        (seat,) = st["seats"]
        assert seat["stack"] == 0 and seat["sale"]["amount"] == 50_000 and seat["sale"]["status"] == "pending"
        assert cash() == 0  # no chip moved
        (sale,) = waiting()
        assert (sale["table"], sale["table_name"], sale["dealer"], sale["seat"], sale["walk_in_name"],
                sale["amount"], sale["requested_by_name"]) == (tid, "Limited", "Bokuden", 1, "Kenji", 50_000,
                                                               "Bokuden")
        before = dealer.version
        with pytest.raises(ActionRefused) as e:  # one at a time
            await dealer.act("sell_chips", seat=1, amount=500)
        assert e.value.rule == "sale_pending" and e.value.version == before
        for who, rule, status in (("Bokuden", "approve_sale", 403), ("Alice", "approve_sale", 403)):
            with pytest.raises(ApiError) as e:
                decide(who, sale["id"], "approve")
            assert (e.value.status, e.value.rule) == (status, rule)
        decided = decide("Jean-Marc", sale["id"], "approve")
        assert decided["status"] == "approved" and decided["decided_by"] == cast.boss.id
        st = await dealer.wait(lambda s: s["seats"][0]["stack"] == 50_000)
        assert st["seats"][0]["sale"] is None and cash() == -50_000 and waiting() == []
        with pytest.raises(ApiError) as e:  # decided once
            decide("admin", sale["id"], "refuse")
        assert (e.value.status, e.value.rule) == (409, "sale_decided")
        memos = [x.line.memo for x in room.ledger.explain(ev, cash_key(tid))]
        assert memos == ["dealer Bokuden sells $500.00 of chips for cash to walk-in Kenji at table "
                         f"{tid} seat 1, approved by Jean-Marc"]

        # Approved while the cards are out: the chips come once the round is over.
        await dealer.act("start_round")
        await dealer.act("bet", seat=1, amount=1_000)
        await dealer.act("sell_chips", seat=1, amount=20_000)
        (sale,) = waiting()
        ack = await dealer.act("deal")
        st = await dealer.wait(lambda s, v=ack["version"]: s["version"] >= v)
        assert st["round"]["phase"] == "playing"
        decide("admin", sale["id"], "approve")
        st = await dealer.wait(lambda s: (s["seats"][0]["sale"] or {}).get("status") == "approved")
        assert cash() == -50_000 and st["seats"][0]["stack"] == 49_000  # nothing moved while the cards are out
        await settle(dealer, 1)
        st = await dealer.wait(lambda s: s["seats"][0]["sale"] is None)
        assert cash() == -70_000 and st["seats"][0]["stack"] == 50_000 + 1_000 + 20_000  # won $10, bought $200
        assert st["seats"][0]["stack"] == room.ledger.balance(ev, stack_key(tid, st["seats"][0]["account"]))

        # Refused: nothing moves. Cashed out while one waits: it is cancelled, nothing moves.
        await dealer.act("sell_chips", seat=1, amount=15_000)
        (sale,) = waiting()
        assert decide("admin", sale["id"], "refuse")["status"] == "refused"
        st = await dealer.wait(lambda s: s["seats"][0]["sale"] is None)
        assert cash() == -70_000
        await dealer.act("sell_chips", seat=1, amount=5_000)  # under the limit: at once
        assert cash() == -75_000 and waiting() == []
        await dealer.act("sell_chips", seat=1, amount=15_000)
        (sale,) = waiting()
        stack = dealer.state["seats"][0]["stack"]
        await dealer.act("cash_out_walk_in", seat=1)
        assert cash() == -75_000 + stack and waiting() == []
        statuses = {x["id"]: x["status"] for x in c["admin"].request("GET", "/api/chip-sales", status="all")}
        assert statuses[sale["id"]] == "cancelled" and sorted(statuses.values()) == [
            "cancelled", "done", "done", "refused"]
        with pytest.raises(ApiError) as e:
            decide("admin", sale["id"], "approve")
        assert e.value.rule == "sale_decided"

        # A pit boss who deals does not approve his own table's sale.
        boss = await TableClient.connect(server.url, own, c["Jean-Marc"].token or "")
        await boss.act("seat_walk_in", seat=1, name="Mariko", amount=20_000)
        (sale,) = waiting()
        with pytest.raises(ApiError) as e:
            decide("Jean-Marc", sale["id"], "approve")
        assert (e.value.status, e.value.rule) == (403, "own_sale")
        decide("admin", sale["id"], "approve")
        await boss.wait(lambda s: s["seats"][0]["stack"] == 20_000)

        # No limit: a sale of any size (within the typed-amount guard) is made at once.
        assert limit("admin", None)["sale_limit"] is None
        await dealer.act("seat_walk_in", seat=2, name="Hiro", amount=100_000)
        assert dealer.state["seats"][0]["stack"] == 100_000 and waiting() == []
        for x in (dealer, boss):
            await x.close()

    asyncio.run(go())
    assert room.ledger.audit(ev) == []
    with room.store.transaction() as repo:
        kenji = repo.account_by_name(ev, "Kenji")
    assert kenji is not None and room.ledger.balance(ev, player_key(kenji.id)) == 0
    for x in c.values():
        x.close()
