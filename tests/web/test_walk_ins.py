"""Walk-in players at a live table (issue 15): the dealer seats them by name, sells them chips
for the table's cash, enters their bets and decisions, and cashes them out at the table; a
player with an account lets the dealer act for them and still acts from their phone. The
ledger stays exact, the cash count matches the table's cash account (`syndicate admin check`),
and each stored hand records who entered each action. Refusals name their rule and change
nothing. Linking a walk-in to an account brings their whole history along.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from syndicate.apps.client import ActionRefused, ApiError, RoomClient, TableClient
from syndicate.apps.server import ledger_check
from syndicate.room.ledger import cash_key, is_walk_in, player_key
from syndicate.room.seating import stack_key
from tests.kit.room import PASSWORD


def sign_in(server, event_id: int, name: str) -> RoomClient:
    c = RoomClient(server.url)
    c.sign_in(event_id, name, PASSWORD)
    return c


async def refused(client: TableClient, everyone: tuple[TableClient, ...], action: str, rule: str,
                  **fields: Any) -> None:
    """``action`` is refused with ``rule`` and the table's version does not move."""
    latest = max(c.version for c in everyone)
    before = (await client.wait(lambda s: s["version"] >= latest))["version"]
    with pytest.raises(ActionRefused) as e:
        await client.act(action, **fields)
    assert e.value.rule == rule, e.value
    assert e.value.version == before == client.version


async def dealer_decides(dealer: TableClient, seat: int, tries: list[str | tuple[str, dict[str, Any]]]) -> str:
    """The dealer enters the first of ``tries`` the engine accepts for ``seat`` (a refused one
    names its rule and changes nothing, so trying costs nothing)."""
    for attempt in tries:
        action, fields = (attempt, {}) if isinstance(attempt, str) else attempt
        before = dealer.version
        try:
            await dealer.act(action, seat=seat, **fields)
            return action
        except ActionRefused as e:
            assert e.version == before and e.rule not in ("dealer_acts", "own_seat", "seat")
    raise AssertionError(f"none of {tries} was accepted for seat {seat}")


async def blackjack_round(dealer: TableClient, alice: TableClient, *, alice_by_phone: bool) -> dict[str, Any]:
    """A round: the dealer bets for the walk-ins (seats 1, 2) and Alice (seat 3: by the dealer
    or from her phone), deals, and enters every decision of the walk-ins' (and Alice's)."""
    await dealer.act("start_round")
    await dealer.act("bet", seat=1, amount=500)
    await dealer.act("bet", seat=2, amount=300)
    if alice_by_phone:
        await alice.act("bet", amount=200)
    else:
        await dealer.act("bet", seat=3, amount=200)
    last = (await dealer.act("deal"))["version"]
    first = set()
    while True:
        st = await dealer.wait(lambda s: s["version"] >= last)
        rd = st["round"]
        if rd["phase"] == "settled":
            return st
        seat = rd["to_act"]
        if seat == 3 and alice_by_phone:
            mine = await alice.wait(lambda s: s["version"] >= st["version"])
            legal = mine["round"]["legal_actions"]
            action = next(a for a in ("no_insurance", "play_on", "stand") if a in legal)
            last = (await alice.act(action))["version"]
            continue
        if rd["phase"] == "insurance":
            tries = ["no_insurance", "even_money"]
        elif rd["phase"] == "early_surrender":
            tries = ["play_on"]
        else:  # a double when the seat may (the first decision), else stand
            tries = ["stand"] if seat in first else ["double", "stand"]
            first.add(seat)
        await dealer_decides(dealer, seat, tries)
        last = dealer.version


async def _blackjack_evening(url: str, table_id: int, tokens: dict[str, str]) -> dict[str, Any]:
    dealer = await TableClient.connect(url, table_id, tokens["dealer"])
    alice = await TableClient.connect(url, table_id, tokens["alice"])
    bob = await TableClient.connect(url, table_id, tokens["bob"])
    watcher = await TableClient.connect(url, table_id, tokens["spectator"])
    boss = await TableClient.connect(url, table_id, tokens["boss"])
    everyone = (dealer, alice, bob, watcher, boss)

    await dealer.act("seat_walk_in", seat=1, name="Kenji", amount=5_000)
    await dealer.act("seat_walk_in", seat=2, name="Mariko", amount=3_000)
    await alice.act("sit", seat=3, amount=5_000)
    await bob.act("sit", seat=4, amount=2_000)
    st = await watcher.wait(lambda s: len(s["seats"]) == 4)
    flags = {s["seat"]: (s["walk_in"], s["dealer_acts"]) for s in st["seats"]}
    assert flags == {1: (True, False), 2: (True, False), 3: (False, False), 4: (False, False)}

    # Refusals: each names its rule and changes nothing.
    await refused(dealer, everyone, "seat_walk_in", "name", seat=5, name="alice ", amount=1_000)  # a signed-in name
    await refused(dealer, everyone, "seat_walk_in", "bot_name", seat=5, name="Bot 1-5", amount=1_000)
    await refused(dealer, everyone, "seat_walk_in", "seated", seat=5, name="KENJI", amount=1_000)
    await refused(dealer, everyone, "seat_walk_in", "seat_taken", seat=1, name="Hiro", amount=1_000)
    await refused(dealer, everyone, "seat_walk_in", "amount", seat=5, name="Hiro", amount=0)
    await refused(boss, everyone, "seat_walk_in", "table_dealer", seat=5, name="Hiro", amount=1_000)
    await refused(alice, everyone, "sell_chips", "table_dealer", seat=1, amount=1_000)
    await refused(dealer, everyone, "sell_chips", "walk_in", seat=3, amount=1_000)  # Alice has an account
    await refused(dealer, everyone, "cash_out_walk_in", "walk_in", seat=3)
    await dealer.act("start_round")
    await refused(alice, everyone, "bet", "own_seat", seat=1, amount=100)  # another player
    await refused(bob, everyone, "bet", "own_seat", seat=3, amount=100)
    # Only the table's dealer acts for a seat (docs/walk-ins.md): not a watcher, not a pit boss passing by.
    await refused(watcher, everyone, "bet", "table_dealer", seat=1, amount=100)
    await refused(boss, everyone, "bet", "table_dealer", seat=1, amount=100)
    await refused(dealer, everyone, "bet", "dealer_acts", seat=3, amount=100)  # Alice did not allow it
    await refused(dealer, everyone, "bet", "seat", amount=100)  # the dealer names the seat
    await refused(dealer, everyone, "bet", "seat", seat=6, amount=100)  # an empty seat
    await refused(alice, everyone, "let_dealer_act", "allow", allow="yes")
    await refused(bob, everyone, "bet", "own_seat", seat=1, amount=100)
    await dealer.act("bet", seat=1, amount=100)
    await dealer.act("sell_chips", seat=1, amount=1_000)  # bets open, no card out: sold, in the round too
    # Bob sits this evening out: he leaves before the deal (his seat would need someone to act).
    await bob.act("leave_seat")
    await dealer.act("deal")
    st = await dealer.wait(lambda s: True)
    if st["round"]["phase"] != "settled":  # a card is out: no more chips in this round
        await refused(dealer, everyone, "sell_chips", "cards_out", seat=1, amount=1_000)
    while st["round"]["phase"] != "settled":  # finish this round: the walk-in stands
        await dealer_decides(dealer, st["round"]["to_act"], ["no_insurance", "play_on", "stand"])
        st = await dealer.wait(lambda s: True)

    # Between rounds the dealer sells Mariko more chips.
    await dealer.act("sell_chips", seat=2, amount=2_000)
    # Alice lets the dealer act for her: one round by the dealer, one from her phone.
    await alice.act("let_dealer_act", allow=True)
    assert next(s for s in alice.state["seats"] if s["seat"] == 3)["dealer_acts"] is True
    await blackjack_round(dealer, alice, alice_by_phone=False)
    await blackjack_round(dealer, alice, alice_by_phone=True)
    await alice.act("let_dealer_act", allow=False)
    await dealer.act("start_round")
    await refused(dealer, everyone, "bet", "dealer_acts", seat=3, amount=100)  # no longer allowed
    await dealer.act("bet", seat=1, amount=100)
    await dealer.act("bet", seat=2, amount=100)
    await alice.act("bet", amount=100)
    last = (await dealer.act("deal"))["version"]
    while True:
        st = await dealer.wait(lambda s: s["version"] >= last)
        if st["round"]["phase"] == "settled":
            break
        seat = st["round"]["to_act"]
        if seat == 3:
            mine = await alice.wait(lambda s: s["version"] >= st["version"])
            legal = mine["round"]["legal_actions"]
            last = (await alice.act(next(a for a in ("no_insurance", "play_on", "stand") if a in legal)))["version"]
        else:
            await dealer_decides(dealer, seat, ["no_insurance", "play_on", "stand"])
            last = dealer.version

    # The walk-ins cash out at the table; Alice leaves with her stack.
    final = await dealer.wait(lambda s: True)
    stacks = {s["seat"]: s["stack"] for s in final["seats"]}
    await dealer.act("cash_out_walk_in", seat=1)
    await dealer.act("cash_out_walk_in", seat=2)
    await alice.act("leave_seat")
    empty = await watcher.wait(lambda s: not s["seats"])
    for c in everyone:
        await c.close()
    return {"stacks": stacks, "messages": [m for c in everyone for m in c.messages], "empty": empty}


def test_walk_ins_at_blackjack_keep_the_ledger_exact(server, room, cast, db_url) -> None:
    ev = cast.event.id
    room.cashier.buy_in(cast.admin, cast.alice.id, 20_000)
    room.cashier.buy_in(cast.admin, cast.bob.id, 5_000)
    clients = {role: sign_in(server, ev, name) for role, name in
               (("dealer", "Bokuden"), ("alice", "Alice"), ("bob", "Bob"), ("spectator", "Sam"),
                ("boss", "Jean-Marc"), ("admin", "admin"))}
    table = clients["dealer"].open_table("Walk-ins", overrides={"min_bet": 100, "max_bet": 1_000})
    tid = table["id"]
    out = asyncio.run(_blackjack_evening(server.url, tid, {k: c.token for k, c in clients.items()}))

    with room.store.transaction() as repo:
        kenji, mariko = (repo.account_by_name(ev, n) for n in ("Kenji", "Mariko"))
        hands = repo.hands(ev, tid, limit=100)
    assert kenji is not None and mariko is not None and is_walk_in(kenji) and is_walk_in(mariko)
    # Walk-ins hold nothing once cashed out: not in a bankroll, not on the felt.
    for w in (kenji, mariko):
        assert room.ledger.balance(ev, player_key(w.id)) == 0
        assert room.ledger.balance(ev, stack_key(tid, w.id)) == 0
    # The table's cash is exactly what was sold less what was paid back: 5,000 + 1,000 (while
    # bets were open) + 3,000 + 2,000 sold; paid back what their stacks held when they cashed out.
    expected = 11_000 - out["stacks"][1] - out["stacks"][2]
    assert room.ledger.balance(ev, cash_key(tid)) == -expected
    # Each walk-in's net is their stack's game lines (every bet and pay-out): the ledger is exact.
    net = {1: 0, 2: 0, 3: 0}
    for h in hands:
        assert h.status == "settled"
        for seat, n in h.history["rounds"][0]["results"].items():
            if int(seat) in net:
                net[int(seat)] += n
    assert out["stacks"][1] == 6_000 + net[1] and out["stacks"][2] == 5_000 + net[2]
    assert room.ledger.balance(ev, player_key(cast.alice.id)) == 20_000 + net[3]
    assert room.ledger.audit(ev) == []

    # The cash count: someone other than the dealer counts (two people); the dealer's own count
    # is refused and changes nothing. Uncounted, `syndicate admin check` warns (the table is
    # open); a short count is a problem, the right one clears it.
    with pytest.raises(ApiError) as e:
        clients["dealer"].request("POST", f"/api/tables/{tid}/cash-count", {"counted": expected})
    assert e.value.status == 403 and e.value.rule == "count_cash"
    warnings: dict[str, list[str]] = {}
    assert ledger_check(db_url, warnings)[cast.event.name] == []
    assert any("never counted by anyone but its dealer" in w for w in warnings[cast.event.name])
    r = clients["boss"].request("POST", f"/api/tables/{tid}/cash-count", {"counted": expected - 500})
    assert r["expected"] == expected and r["difference"] == -500 and r["by"] == cast.boss.id
    problems = ledger_check(db_url)[cast.event.name]
    assert len(problems) == 1 and "short by $5.00" in problems[0], problems
    r = clients["boss"].request("POST", f"/api/tables/{tid}/cash-count", {"counted": expected})
    assert r["difference"] == 0
    warnings = {}
    assert ledger_check(db_url, warnings)[cast.event.name] == []
    assert warnings[cast.event.name] == []
    cash = clients["boss"].request("GET", "/api/cash")
    assert [(c["table"], c["expected"], c["counted"], c["difference"], c["count_again"]) for c in cash] == [
        (tid, expected, expected, 0, False)]
    # The report counts the walk-ins as players who bought chips at the table and agrees.
    report = clients["admin"].request("GET", "/api/report")
    assert report["agrees"] and report["cash_problems"] == []
    lines = {p["name"]: p for p in report["players"]}
    assert lines["Kenji"]["buy_ins"] == 6_000 and lines["Kenji"]["cash_outs"] == out["stacks"][1]
    assert lines["Mariko"]["buy_ins"] == 5_000 and lines["Kenji"]["walk_in"] is True
    assert report["totals"]["table_cash"] == -expected
    (tl,) = [t for t in report["tables"] if t["table"] == tid]
    assert (tl["cash_expected"], tl["cash_counted"], tl["cash_difference"]) == (expected, expected, 0)

    # Every decision records who entered it, in the stored hand and in the history served.
    names = {cast.dealer.id: "Bokuden", cast.alice.id: "Alice"}
    by_dealer_for_alice = by_alice = 0
    for h in hands:
        rnd = h.history["rounds"][0]
        entered = rnd["entered_by"]
        assert entered, h.number
        for e in entered:
            assert rnd["log"][e["at"]]["type"] in ("bet", "stand", "double", "hit", "insurance", "no_insurance",
                                                   "even_money", "play_on", "card"), e
            assert names[e["by"]] == e["name"]
            if e["for_seat"] in (1, 2):
                assert e["by"] == cast.dealer.id
            elif e["by"] == cast.dealer.id:
                by_dealer_for_alice += 1
            else:
                by_alice += 1
    assert by_dealer_for_alice >= 1 and by_alice >= 1
    listed = clients["spectator"].hands(table=tid, limit=100)
    doc = clients["spectator"].hand_history(listed[-1]["id"])
    assert doc["rounds"][-1]["entered_by"] == hands[-1].history["rounds"][0]["entered_by"]
    # The ledger names who entered each decision.
    memos = [x.line.memo for x in room.ledger.explain(ev, stack_key(tid, kenji.id))]
    assert any(m.startswith("Dealer Bokuden for seat 1 (Kenji): ") for m in memos), memos
    assert any("sells $50.00 of chips for cash to walk-in Kenji" in m for m in memos)
    assert any("walk-in Kenji cashes out" in m for m in memos)
    # A walk-in cannot sign in, and the cashier's window does not sell them chips.
    r = clients["spectator"].http.post(f"/api/events/{ev}/tokens", json={"name": "Kenji", "password": PASSWORD})
    assert r.status_code == 401
    with pytest.raises(ApiError) as e:
        clients["boss"].buy_in(kenji.id, 1_000)
    assert e.value.rule == "walk_in"
    assert room.ledger.balance(ev, player_key(kenji.id)) == 0
    for c in clients.values():
        c.close()


async def _draw_evening(url: str, table_id: int, tokens: dict[str, str]) -> dict[int, int]:
    """Two walk-ins at a draw table: the dealer deals hands and enters every decision (check
    or call, stand pat), then cashes them out. Their stacks before the cash-out."""
    dealer = await TableClient.connect(url, table_id, tokens["dealer"])
    watcher = await TableClient.connect(url, table_id, tokens["spectator"])
    everyone = (dealer, watcher)
    await dealer.act("seat_walk_in", seat=1, name="Hana", amount=1_000)
    await dealer.act("seat_walk_in", seat=2, name="Taro", amount=1_000)
    await refused(watcher, everyone, "check", "table_dealer", seat=1)
    for number in range(3):
        await dealer.act("start_round")
        if number == 0:  # the antes are in and the cards out as the hand starts: no chips mid-hand
            await refused(dealer, everyone, "sell_chips", "cards_out", seat=1, amount=100)
        while True:
            st = await dealer.wait(lambda s: True)
            rd = st["round"]
            if rd["phase"] == "complete":
                break
            seat = rd["to_act"]
            if rd["phase"] == "draw":
                tries: list[str | tuple[str, dict[str, Any]]] = ["stand_pat"]
            elif number == 0:  # the first hand ends without a showdown: Hana bets, Taro folds
                tries = [("bet", {"amount": 50}), "check", "call"] if seat == 1 else ["fold", "check", "call"]
            else:
                tries = ["check", "call"]
            await dealer_decides(dealer, seat, tries)
    st = await dealer.wait(lambda s: True)
    stacks = {s["seat"]: s["stack"] for s in st["seats"]}
    await dealer.act("cash_out_walk_in", seat=1)
    await dealer.act("cash_out_walk_in", seat=2)
    for c in everyone:
        await c.close()
    return stacks


def test_walk_ins_at_draw_and_linking_their_history(server, room, cast, db_url) -> None:
    ev = cast.event.id
    clients = {role: sign_in(server, ev, name) for role, name in
               (("dealer", "Bokuden"), ("spectator", "Sam"), ("boss", "Jean-Marc"), ("bob", "Bob"),
                ("alice", "Alice"))}
    table = clients["dealer"].open_table("Draw walk-ins", game="poker", overrides={"ante": 50})
    tid = table["id"]
    stacks = asyncio.run(_draw_evening(server.url, tid, {k: c.token for k, c in clients.items()}))
    assert sum(stacks.values()) <= 2_000  # odd chips may be carried in the table's account
    expected = 2_000 - stacks[1] - stacks[2]
    assert room.ledger.balance(ev, cash_key(tid)) == -expected
    assert room.ledger.audit(ev) == []
    with room.store.transaction() as repo:
        hana = repo.account_by_name(ev, "Hana")
        hands = repo.hands(ev, tid, limit=100)
    assert hana is not None and len(hands) == 3
    seats = set()
    for h in hands:  # every decision was the dealer's, for seat 1 or 2
        entry = h.history["hands"][0]
        assert entry["entered_by"] and {e["by"] for e in entry["entered_by"]} == {cast.dealer.id}
        seats |= {e["for_seat"] for e in entry["entered_by"]}
        for e in entry["entered_by"]:  # the record at "at" is that seat's decision
            assert entry["log"][e["at"]].get("seat") == e["for_seat"], (e, entry["log"][e["at"]])
    assert seats == {1, 2}
    first = hands[0].history["hands"][0]
    hana_cards = next(d["cards"] for d in first["log"] if d["type"] == "deal" and d["seat"] == 1)

    def bob_sees_in_hand_1() -> list[str]:
        doc = clients["bob"].hand_history(hands[0].id)
        return next(d["cards"] for d in doc["hands"][0]["log"] if d["type"] == "deal" and d["seat"] == 1)

    assert bob_sees_in_hand_1() == ["??"] * 5  # Hana's cards were never shown: not Bob's to see, yet

    # Linking: only the host; not a seated walk-in; then Hana's whole history is Bob's.
    before = room.ledger.leaderboard(ev)
    assert "Hana" in {s.player for s in before}
    with pytest.raises(ApiError) as e:
        clients["dealer"].request("POST", f"/api/walk-ins/{hana.id}/link", {"player": cast.bob.id})
    assert e.value.rule == "link_walk_in"
    with pytest.raises(ApiError) as e:  # an account that signs in is not a walk-in
        clients["boss"].request("POST", f"/api/walk-ins/{cast.alice.id}/link", {"player": cast.bob.id})
    assert e.value.rule == "walk_in"
    with pytest.raises(ApiError) as e:  # nor is a walk-in linked to another walk-in
        taro_account = room.accounts.all(ev)[-1]
        assert taro_account.name == "Taro"
        clients["boss"].request("POST", f"/api/walk-ins/{hana.id}/link", {"player": taro_account.id})
    assert e.value.rule == "player"
    assert clients["boss"].request("GET", "/api/hands", player=cast.bob.id) == []
    linked = clients["boss"].request("POST", f"/api/walk-ins/{hana.id}/link", {"player": cast.bob.id})
    assert linked["walk_in"] is True and linked["linked_to"] == cast.bob.id
    with pytest.raises(ApiError) as e:
        clients["boss"].request("POST", f"/api/walk-ins/{hana.id}/link", {"player": cast.alice.id})
    assert e.value.rule == "linked"
    # Hand search by player finds Hana's hands under Bob, for Bob himself too.
    found = clients["bob"].request("GET", "/api/hands", player=cast.bob.id)
    assert sorted(h["id"] for h in found) == sorted(h.id for h in hands)
    # Bob sees Hana's own cards in her hands (his own now), and still not Taro's.
    assert bob_sees_in_hand_1() == hana_cards
    doc = clients["bob"].hand_history(hands[0].id)
    taro = next(d["cards"] for d in doc["hands"][0]["log"] if d["type"] == "deal" and d["seat"] == 2)
    assert taro == ["??"] * 5
    # The leaderboard and the report count Hana's winnings and chips as Bob's.
    board = {s.player: s for s in room.ledger.leaderboard(ev)}
    hana_before = next(s for s in before if s.player == "Hana")
    assert "Hana" not in board and board["Bob"].won == hana_before.won
    report = clients["boss"].request("GET", "/api/report")
    bob_line = next(p for p in report["players"] if p["name"] == "Bob")
    assert bob_line["buy_ins"] == 1_000 and bob_line["hands"] == 3 and report["agrees"]
    assert "Hana" not in {p["name"] for p in report["players"]}

    # The table is closed uncounted: `syndicate admin check` says so (a problem: walk-ins bought
    # chips here, whatever the box should hold now), until someone other than its dealer counts.
    clients["dealer"].request("POST", f"/api/tables/{tid}/status", {"status": "closed"})
    problems = ledger_check(db_url)[cast.event.name]
    assert len(problems) == 1 and "never counted by anyone but its dealer" in problems[0], problems
    clients["boss"].request("POST", f"/api/tables/{tid}/cash-count", {"counted": expected})
    assert ledger_check(db_url)[cast.event.name] == []
    for c in clients.values():
        c.close()


async def _seated_walk_in(url: str, table_id: int, token: str) -> None:
    dealer = await TableClient.connect(url, table_id, token)
    await dealer.act("seat_walk_in", seat=1, name="Yuki", amount=1_000)
    await dealer.close()


def test_a_seated_walk_in_is_not_linked(server, room, cast) -> None:
    ev = cast.event.id
    dealer = sign_in(server, ev, "Bokuden")
    boss = sign_in(server, ev, "Jean-Marc")
    tid = dealer.open_table("Seated")["id"]
    asyncio.run(_seated_walk_in(server.url, tid, dealer.token))
    with room.store.transaction() as repo:
        yuki = repo.account_by_name(ev, "Yuki")
    assert yuki is not None
    with pytest.raises(ApiError) as e:
        boss.request("POST", f"/api/walk-ins/{yuki.id}/link", {"player": cast.alice.id})
    assert e.value.rule == "in_play" and "Yuki" in e.value.message
    assert room.accounts.get(ev, yuki.id).linked_to is None
    assert [w["name"] for w in boss.request("GET", "/api/walk-ins")] == ["Yuki"]
    dealer.close()
    boss.close()


def test_a_walk_in_sits_at_one_table_at_a_time(server, room, cast) -> None:
    """One name, one person, one table: a walk-in's name seated at another table of the event
    is refused (rule ``seated_elsewhere``, naming that table), whatever its stack holds (all of
    it in the round in play there, or nothing left but the seat). Once cashed out there, the
    same walk-in sits down here. A refusal changes nothing."""
    ev = cast.event.id
    dealer = sign_in(server, ev, "Bokuden")
    boss = sign_in(server, ev, "Jean-Marc")  # a pit boss who deals: another table, another dealer
    first = dealer.open_table("First", overrides={"min_bet": 100, "max_bet": 1_000})
    second = boss.open_table("Second", overrides={"min_bet": 100, "max_bet": 1_000})

    async def go() -> None:
        here = await TableClient.connect(server.url, first["id"], dealer.token)
        there = await TableClient.connect(server.url, second["id"], boss.token)
        await here.act("seat_walk_in", seat=1, name="Kenji", amount=1_000)
        for name in ("Kenji", " KENJI "):
            before = {a.key: a.balance for a in room.ledger.accounts(ev)}
            await refused(there, (there,), "seat_walk_in", "seated_elsewhere", seat=2, name=name, amount=500)
            err = there.messages[-1]
            assert err["rule"] == "seated_elsewhere" and f"table {first['id']} (First)" in err["message"]
            assert {a.key: a.balance for a in room.ledger.accounts(ev)} == before
        # Every chip of his in the round in play at the first table: still seated there.
        await here.act("start_round")
        await here.act("bet", seat=1, amount=1_000)
        await refused(there, (there,), "seat_walk_in", "seated_elsewhere", seat=2, name="Kenji", amount=500)
        await here.act("deal")
        st = await here.wait(lambda s: True)
        while st["round"]["phase"] != "settled":
            await dealer_decides(here, st["round"]["to_act"], ["no_insurance", "play_on", "stand"])
            st = await here.wait(lambda s: True)
        await here.act("cash_out_walk_in", seat=1)
        await there.act("seat_walk_in", seat=2, name="Kenji", amount=500)  # the same walk-in, come over
        st = await there.wait(lambda s: len(s["seats"]) == 1)
        assert st["seats"][0]["player"] == "Kenji"
        await refused(here, (here,), "seat_walk_in", "seated_elsewhere", seat=1, name="kenji", amount=500)
        for x in (here, there):
            await x.close()

    asyncio.run(go())
    with room.store.transaction() as repo:
        kenji = repo.account_by_name(ev, "Kenji")
    assert kenji is not None
    assert [a.name for a in room.accounts.all(ev) if a.name.lower() == "kenji"] == ["Kenji"]  # one account
    assert room.ledger.balance(ev, stack_key(second["id"], kenji.id)) == 500
    assert room.ledger.balance(ev, stack_key(first["id"], kenji.id)) == 0
    assert room.ledger.audit(ev) == []
    dealer.close()
    boss.close()


def test_chips_sold_while_bets_are_open(stacked_server, room, cast) -> None:
    """"Start round" pressed, no card out: the walk-in buys chips, and the engine's stack for
    the seat changes with the ledger's (equal at every moment the table answers); the round
    is then played, stored and replayed with them. Once a card is out a sale is refused (rule
    ``cards_out``) and changes nothing. At a real-cards table a misdeal after such a sale gives
    the seat its stack at the deal: what it had plus what it bought."""
    server = stacked_server
    ev = cast.event.id
    dealer = sign_in(server, ev, "Bokuden")
    shuffled = dealer.open_table("Bets open", overrides={"min_bet": 100, "max_bet": 10_000})["id"]
    real = dealer.open_table("Bets open real cards", overrides={"min_bet": 100, "max_bet": 5_000},
                             cards="real")["id"]

    def ledger_stack(tid: int, who: int) -> int:
        return room.ledger.balance(ev, stack_key(tid, who))

    def engine_stack(st: dict[str, Any], seat: int) -> int:
        return int(next(s["stack"] for s in st["round"]["seats"] if s["seat"] == seat))

    async def go() -> int:
        d = await TableClient.connect(server.url, shuffled, dealer.token or "")
        await d.act("seat_walk_in", seat=1, name="Kenji", amount=5_000)
        kenji = next(s["account"] for s in d.state["seats"])
        await d.act("start_round")
        await d.act("bet", seat=1, amount=5_000)  # all he has: nothing behind
        await d.act("sell_chips", seat=1, amount=2_000)
        st = d.state
        assert ledger_stack(shuffled, kenji) == 2_000 == engine_stack(st, 1) == stack_of(st, 1)
        await d.act("bet", seat=1, amount=7_000)  # he bets what he bought too
        st = d.state
        assert ledger_stack(shuffled, kenji) == 0 == engine_stack(st, 1) == stack_of(st, 1)
        ack = await d.act("deal")
        st = await d.wait(lambda s, v=ack["version"]: s["version"] >= v)
        assert st["round"]["phase"] != "settled"
        before = d.version
        with pytest.raises(ActionRefused) as e:
            await d.act("sell_chips", seat=1, amount=2_000)
        assert e.value.rule == "cards_out" and e.value.version == before
        assert ledger_stack(shuffled, kenji) == 0 and room.ledger.balance(ev, cash_key(shuffled)) == -7_000
        while st["round"]["phase"] != "settled":
            await dealer_decides(d, st["round"]["to_act"], ["no_insurance", "play_on", "stand"])
            st = await d.wait(lambda s: True)
        assert stack_of(st, 1) == 14_000 == ledger_stack(shuffled, kenji)  # 7,000 won on 7,000

        r = await TableClient.connect(server.url, real, dealer.token or "")
        await r.act("seat_walk_in", seat=1, name="Mariko", amount=1_000)
        mariko = next(s["account"] for s in r.state["seats"])
        await r.act("start_round")
        await r.act("bet", seat=1, amount=500)
        await r.act("sell_chips", seat=1, amount=300)
        await r.act("deal")
        await r.act("card", card="Ts")
        with pytest.raises(ActionRefused) as e:
            await r.act("sell_chips", seat=1, amount=300)
        assert e.value.rule == "cards_out"
        await r.act("misdeal")
        st = r.state
        assert stack_of(st, 1) == 1_300 == ledger_stack(real, mariko)  # her bet back, her purchase kept
        for x in (d, r):
            await x.close()
        return kenji

    kenji = asyncio.run(go())
    with room.store.transaction() as repo:
        (hand,) = repo.hands(ev, shuffled, limit=10)
    assert hand.history["rounds"][0]["stacks"] == {"1": 7_000}  # he started the round with what he bought
    check = dealer.request("GET", f"/api/hands/{hand.id}/check")
    assert check["replay"]["matches"] is True, check
    buys = [x.line.amount for x in room.ledger.explain(ev, player_key(kenji)) if x.line.kind == "walk_in_buy_in"]
    assert buys == [5_000, -5_000, 2_000, -2_000]  # through his bankroll to his stack, twice
    assert room.ledger.audit(ev) == []
    dealer.close()


def stack_of(state: dict[str, Any], seat: int) -> int:
    return int(next(s["stack"] for s in state["seats"] if s["seat"] == seat))
