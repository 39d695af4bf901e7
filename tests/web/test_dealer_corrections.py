"""A real-cards table's corrections, over the WebSocket as the dealer (and an attacker) meet them
(docs/dealer.md): the rules each refusal names are the ones the docs name.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from syndicate.apps.client import ActionRefused, TableClient
from tests.web.test_real_cards import (
    BET,
    STAKE,
    Table,
    hands_of,
    players,
    results,
    seat_nets,
    servers,  # noqa: F401  (a fixture)
    sign_in,
    stack_keys,
)

RULES = {"decks": 1, "min_bet": 100, "max_bet": 1_000}


async def refused(client: TableClient, action: str, **fields: Any) -> ActionRefused:
    with pytest.raises(ActionRefused) as e:
        await client.act(action, **fields)
    return e.value


def test_the_rules_named_are_the_docs_rules(servers, room, cast) -> None:  # noqa: F811
    """A card with no round in play is refused as the docs say (``card_not_needed``), before any
    round and once one is over; a bet entered with no amount says so in a host's words."""
    ev = cast.event.id
    srv = servers()
    dealer = sign_in(srv, ev, "Bokuden")
    real = dealer.open_table("Real", overrides=RULES, cards="real")

    async def play() -> None:
        d = await TableClient.connect(srv.url, real["id"], dealer.token)
        await d.act("seat_walk_in", seat=1, name="Kenji", amount=5_000)
        before = await refused(d, "card", card="K")
        assert before.rule == "card_not_needed" and "no round is in play" in before.message
        await d.act("start_round")
        empty = await refused(d, "bet", seat=1)
        assert (empty.rule, empty.message) == ("amount", "type an amount to bet")
        await d.act("bet", seat=1, amount=500)
        await d.act("deal")
        for c in ("10", "10", "10", "10"):  # seat 1 20, the dealer 10 up and 10 in the hole
            await d.act("card", card=c)
        await d.act("stand", seat=1)
        st = await d.wait(lambda s: s["round"]["phase"] == "settled")
        after = await refused(d, "card", card="K")
        assert after.rule == "card_not_needed" and "the round is over" in after.message
        assert after.version == st["version"] == d.version  # nothing changed
        await d.close()

    asyncio.run(play())


# -- a misdeal after the outcome is seen (docs/dealer.md, "Misdeal: the rule") ----------------
def test_a_misdeal_after_a_bust_is_collected_is_refused(servers, room, cast) -> None:  # noqa: F811
    """001 5.5.3: "When a player goes over 21, the hand is "bust" and the dealer collects their
    bet, and removes their hand from the table immediately." A misdeal declared after that
    must not give the bet back: it is refused, and the bust stays collected."""
    ev = cast.event.id
    names = players(room, cast, 2)
    srv = servers()
    real = sign_in(srv, ev, "Bokuden").open_table("Real", overrides=RULES, cards="real")

    async def play() -> tuple[dict[str, Any], dict[str, Any]]:
        t = await Table.open(srv, ev, real["id"], names)
        await t.dealer.act("start_round")
        for p in t.seats.values():
            await p.act("bet", amount=BET)
        await t.dealer.act("deal")
        for c in ("10", "9", "6", "6", "8", "6"):  # seat 1 10 6, seat 2 9 8, the dealer 6 up and 6 in the hole
            await t.dealer.act("card", card=c)
        await t.seats[1].act("hit")
        version = (await t.dealer.act("card", card="K"))["version"]  # 26: bust, collected at once
        bust = await t.settle(version)
        assert [h["outcome"] for h in bust["round"]["seats"][0]["hands"]] == ["bust"]
        e = await refused(t.dealer, "misdeal")
        assert e.rule == "misdeal" and "seat 1's bust is collected" in e.message
        assert e.version == bust["version"] == t.dealer.version  # nothing changed
        await t.seats[2].act("stand")
        version = (await t.dealer.act("card", card="10"))["version"]  # the dealer draws to 22
        done = await t.settle(version)
        await t.close()
        return bust, done

    bust, done = asyncio.run(play())
    assert done["round"]["phase"] == "settled"
    assert results(done) == {1: -BET, 2: BET}  # the bust stayed collected
    (hand,) = hands_of(room, ev, real["id"])
    assert hand.status == "settled" and "misdeal" not in hand.history
    assert seat_nets(room, ev, hand.id, stack_keys(real["id"], done)) == {1: -BET, 2: BET}
    assert room.ledger.audit(ev) == []


def test_a_player_who_left_is_not_refunded_by_a_misdeal(servers, room, cast) -> None:  # noqa: F811
    """001 3.4: "A player who leaves at this stage will forfeit his bet." The red team's case:
    a player leaves once the dealing started, the dealer declares a misdeal to hand the bet
    back. Refused at Blackjack (the forfeit is settled) and at draw (before their fold)."""
    ev = cast.event.id
    names = players(room, cast, 3)
    srv = servers()
    dealer = sign_in(srv, ev, "Bokuden")
    bj = dealer.open_table("Real", overrides=RULES, cards="real")
    draw = dealer.open_table("Real draw", game="poker", cards="real")

    async def play() -> dict[str, Any]:
        t = await Table.open(srv, ev, bj["id"], names[:2])
        await t.dealer.act("start_round")
        for p in t.seats.values():
            await p.act("bet", amount=BET)
        await t.dealer.act("deal")
        for c in ("10", "9", "7", "8", "9", "5"):  # the deal: seat 1 18, seat 2 18, the dealer 7 up
            await t.dealer.act("card", card=c)
        version = (await t.seats[2].act("leave_seat"))["version"]
        left = await t.settle(version)
        e = await refused(t.dealer, "misdeal")
        assert e.rule == "misdeal" and "seat 2" in e.message and "forfeit" in e.message
        assert e.version == left["version"] == t.dealer.version
        await t.close()

        d = await Table.open(srv, ev, draw["id"], names)
        await d.dealer.act("start_round")  # the deal, face down: nothing entered (docs/dealer.md)
        st = await d.settle(d.dealer.version)
        first = st["round"]["to_act"]
        other = next(n for n in (1, 2, 3) if n != first)
        version = (await d.seats[other].act("leave_seat"))["version"]  # not their turn: they fold when it comes
        e = await refused(d.dealer, "misdeal")
        assert e.rule == "misdeal" and f"seat {other} ({names[other - 1]}) left" in e.message
        assert e.version == version
        await d.seats[first].act("fold")
        e = await refused(d.dealer, "misdeal")
        assert e.rule == "misdeal"
        await d.close()
        return left

    left = asyncio.run(play())
    (forfeit,) = hands_of(room, ev, bj["id"])
    assert forfeit.status == "playing" and "misdeal" not in forfeit.history  # the round goes on without them
    # The leaver's bet stayed on the table: their stack holds the stake less it, nothing came back.
    assert room.ledger.balance(ev, stack_keys(bj["id"], left)[2]) == STAKE - BET
    assert room.ledger.audit(ev) == []


def test_a_misdeal_before_anything_is_settled_returns_every_bet(servers, room, cast) -> None:  # noqa: F811
    """The rule still lets a misdeal void a hand in which nothing is settled (a card out of
    order noticed at the first decision): every bet comes back."""
    ev = cast.event.id
    names = players(room, cast, 2)
    srv = servers()
    real = sign_in(srv, ev, "Bokuden").open_table("Real", overrides=RULES, cards="real")

    async def play() -> dict[str, Any]:
        t = await Table.open(srv, ev, real["id"], names)
        await t.dealer.act("start_round")
        for p in t.seats.values():
            await p.act("bet", amount=BET)
        await t.dealer.act("deal")
        for c in ("10", "9", "6", "6", "8", "K"):
            await t.dealer.act("card", card=c)
        await t.seats[1].act("stand")
        version = (await t.dealer.act("misdeal"))["version"]
        after = await t.settle(version)
        await t.close()
        return after

    after = asyncio.run(play())
    assert after["table"]["voided"] == 1 and [s["stack"] for s in after["seats"]] == [STAKE, STAKE]
    assert room.ledger.audit(ev) == []


# -- one mistap ends a round: the card that settled it is taken back ----------------------------
def ledger_lines(room, ev: int, key: str) -> list[Any]:  # noqa: ANN001
    with room.store.transaction() as repo:
        acct = next(a for a in repo.ledger_accounts(ev) if a.key == key)
        return repo.lines(acct.id)


def test_the_card_that_settled_the_round_is_taken_back(servers, room, cast) -> None:  # noqa: F811
    """The audit's case: at a peek game a hole card mistyped as an Ace under a ten ends the round
    at the peek (seat 1's blackjack pushed, seat 2 lost). Take back puts the round in play again
    at that card, the settlement's ledger moves reversed in one transaction, the payouts told
    withdrawn (the dealer's screen is told), and the history keeps the take-back and who made
    it; the right card then plays the round out, and it replays exactly."""
    ev = cast.event.id
    srv = servers()
    dealer = sign_in(srv, ev, "Bokuden")
    real = dealer.open_table("Real", preset="syndicate", overrides=RULES, cards="real")

    async def play() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], TableClient]:
        d = await TableClient.connect(srv.url, real["id"], dealer.token)
        await d.act("seat_walk_in", seat=1, name="Kenji", amount=5_000)
        await d.act("seat_walk_in", seat=2, name="Mariko", amount=5_000)
        await d.act("start_round")
        await d.act("bet", seat=1, amount=BET)
        await d.act("bet", seat=2, amount=BET)
        await d.act("deal")
        for c in ("A", "9", "10", "K", "7"):  # seat 1 blackjack, seat 2 16, the dealer's 10 up
            await d.act("card", card=c)
        version = (await d.act("card", card="A"))["version"]  # the hole card, mistyped: blackjack at the peek
        settled = await d.wait(lambda s: s["version"] >= version)
        assert settled["round"]["phase"] == "settled" and settled["round"]["corrections"] == ["take_back"]
        version = (await d.act("take_back"))["version"]
        reopened = await d.wait(lambda s: s["version"] >= version)
        await d.act("card", card="6")  # the card that was dealt: 16, no blackjack; seat 1's natural paid
        await d.act("hit", seat=2)
        await d.act("card", card="5")  # seat 2: 21, stands by rule
        version = (await d.act("card", card="4"))["version"]  # the dealer: 20
        done = await d.wait(lambda s: s["version"] >= version)
        await d.close()
        return settled, reopened, done, d

    settled, reopened, done, d = asyncio.run(play())
    assert [s["stack"] for s in settled["seats"]] == [5_000, 5_000 - BET]  # the push, the loss
    # In play again at that card, the settlement undone.
    rd = reopened["round"]
    assert rd["phase"] == "dealing" and rd["card_needed"]["why"] == "hole" and rd["payouts"] is None
    assert rd["corrections"] == ["take_back", "misdeal"]  # the card before it may go back too; nothing is settled
    assert [s["stack"] for s in reopened["seats"]] == [5_000 - BET, 5_000 - BET]
    # The dealer was shown the payouts, then told that they are withdrawn, then the real ones as due.
    told = [(m["when"], [p["text"] for p in m["payouts"]]) for m in d.messages if m["type"] == "payouts"]
    wrong = ["seat 1: push", "seat 2: take $10.00"]
    assert [p["text"] for p in settled["round"]["payouts"]] == wrong
    assert told == [("withdrawn", wrong), ("now", ["seat 1: pay $15.00 (blackjack 3:2)"])]
    assert [p["text"] for p in done["round"]["payouts"]] == [
        "seat 1: done: paid $15.00 during the round (blackjack 3:2)", "seat 2: pay $10.00 (win 1:1)"]
    assert results(done) == {1: 1_500, 2: BET}

    (hand,) = hands_of(room, ev, real["id"])
    assert hand.status == "settled"
    keys = stack_keys(real["id"], done)
    assert seat_nets(room, ev, hand.id, keys) == {1: 1_500, 2: BET}
    # The settlement's move (seat 1's pushed bet back) reversed by one transaction naming the dealer.
    (reversal,) = [ln for ln in ledger_lines(room, ev, keys[1]) if ln.hand_id == hand.id
                   and "took back the card that settled it" in ln.memo]
    assert reversal.amount == -BET and "Bokuden" in reversal.memo
    # The history: the take-back and who made it; it replays exactly from the cards entered.
    rnd = hand.history["rounds"][0]
    (taken,) = [i for i, r in enumerate(rnd["log"]) if r["type"] == "take_back"]
    assert rnd["log"][taken]["card"] == "A" and not any(r["type"] == "peek" and r["blackjack"] for r in rnd["log"])
    (entry,) = [e for e in rnd["entered_by"] if e["at"] == taken]
    assert entry["by"] == cast.dealer.id and entry["name"] == "Bokuden"
    check = sign_in(srv, ev, "admin").request("GET", f"/api/hands/{hand.id}/check")
    assert check["replay"]["matches"] is True
    assert room.ledger.audit(ev) == []


def test_a_settled_round_stands_once_its_seats_change(servers, room, cast) -> None:  # noqa: F811
    """The card that settled a round can be taken back until the next round starts, and only
    while its seats are as the settlement left them: chips sold since, a player gone with their
    chips, or the next round begun, and its result stands (rule ``take_back``), changing nothing."""
    ev = cast.event.id
    srv = servers()
    dealer = sign_in(srv, ev, "Bokuden")
    real = dealer.open_table("Real", overrides=RULES, cards="real")

    async def round_(d: TableClient, leave: bool = False) -> dict[str, Any]:
        await d.act("start_round")
        await d.act("bet", seat=1, amount=BET)
        await d.act("bet", seat=2, amount=BET)
        await d.act("deal")
        for c in ("10", "9", "10", "10", "8", "6"):  # seat 1 20, seat 2 17, the dealer 16
            await d.act("card", card=c)
        await d.act("stand", seat=1)
        if leave:
            await d.act("cash_out_walk_in", seat=2)  # once the dealing started: forfeits, goes when it ends
        else:
            await d.act("stand", seat=2)
        version = (await d.act("card", card="K"))["version"]  # the dealer busts: the round is settled
        st = await d.wait(lambda s: s["version"] >= version)
        assert st["round"]["phase"] == "settled"
        return st

    async def play() -> None:
        d = await TableClient.connect(srv.url, real["id"], dealer.token)
        await d.act("seat_walk_in", seat=1, name="Kenji", amount=5_000)
        await d.act("seat_walk_in", seat=2, name="Mariko", amount=5_000)
        st = await round_(d)
        assert st["round"]["corrections"] == ["take_back"]
        version = (await d.act("sell_chips", seat=1, amount=1_000))["version"]
        st = await d.wait(lambda s: s["version"] >= version)
        assert st["round"]["corrections"] == []
        e = await refused(d, "take_back")
        assert e.rule == "take_back" and "seat 1 (Kenji)'s chips have changed since" in e.message
        assert e.version == st["version"]

        await d.act("new_shoe")
        st = await round_(d, leave=True)
        assert [s["seat"] for s in st["seats"]] == [1]  # Mariko went with her chips
        e = await refused(d, "take_back")
        assert e.rule == "take_back" and "seat 2 (Mariko) has left the table with their chips since" in e.message

        await d.act("start_round")
        e = await refused(d, "take_back")
        assert e.rule == "take_back" and "no card has been entered" in e.message
        await d.close()

    asyncio.run(play())
    settled = [h for h in hands_of(room, ev, real["id"]) if h.number < 3]
    assert [h.status for h in settled] == ["settled", "settled"]
    assert not any(r["type"] == "take_back" for h in settled for r in h.history["rounds"][0]["log"])
    assert room.ledger.audit(ev) == []


# -- the shoe runs out mid-round -----------------------------------------------------------------
def test_the_discards_are_shuffled_back_in_when_the_shoe_runs_out(servers, room, cast) -> None:  # noqa: F811
    """The audit's case: every card of a one-deck shoe is out during a round; the table asks for
    a card and refuses every one, and New shoe is refused mid-round. The dealer shuffles the
    discards back in (``shuffle_discards``), as a real dealer does: the cards on the table stay
    counted, the round goes on, the history records it and replays exactly."""
    ev = cast.event.id
    srv = servers()
    dealer = sign_in(srv, ev, "Bokuden")
    real = dealer.open_table("Real", overrides=RULES, cards="real")
    ranks = [r for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K") for _ in range(4)]
    random.Random(5).shuffle(ranks)

    async def play() -> tuple[dict[str, Any], TableClient]:
        d = await TableClient.connect(srv.url, real["id"], dealer.token)
        await d.act("seat_walk_in", seat=1, name="Kenji", amount=50_000)
        deck = iter(ranks)
        shuffled = None
        while shuffled is None:
            await d.act("start_round")
            await d.act("bet", seat=1, amount=BET)
            version = (await d.act("deal"))["version"]
            while True:
                st = await d.wait(lambda s, v=version: s["version"] >= v)
                rd = st["round"]
                if rd["phase"] == "settled":
                    break
                if rd["card_needed"] is None:  # the walk-in stands (or declines what is offered)
                    move = next(a for a in ("stand", "no_insurance", "play_on") if a in st["seats"][0]["legal_actions"])
                    version = (await d.act(move, seat=1))["version"]
                    continue
                c = next(deck, None)
                if c is not None:
                    version = (await d.act("card", card=c))["version"]
                    continue
                assert rd["shoe"]["remaining"] == 0
                e = await refused(d, "card", card="2")
                assert e.rule == "shoe_count" and "the shoe is empty" in e.message
                e = await refused(d, "new_shoe")
                assert e.rule == "round_in_play"
                on_table = sum(len(h["cards"]) for h in rd["seats"][0]["hands"]) + len(rd["dealer"]["cards"])
                version = (await d.act("shuffle_discards"))["version"]
                shuffled = await d.wait(lambda s, v=version: s["version"] >= v)
                assert shuffled["round"]["shoe"]["remaining"] == 52 - on_table
                assert shuffled["round"]["card_needed"] == rd["card_needed"]  # the same card, now from the shoe
                deck = iter(["2", "3", "4", "5", "6", "7", "8", "9"] * 4)  # back from the discard tray
        await d.close()
        return shuffled, d

    asyncio.run(play())
    hands = hands_of(room, ev, real["id"])
    last = max(hands, key=lambda h: h.number)
    rnd = last.history["rounds"][0]
    (at,) = [i for i, r in enumerate(rnd["log"]) if r["type"] == "shuffle"]
    assert rnd["log"][at]["on_table"] + rnd["log"][at]["returned"] == 52
    assert [e["by"] for e in rnd["entered_by"] if e["at"] == at] == [cast.dealer.id]
    check = sign_in(srv, ev, "admin").request("GET", f"/api/hands/{last.id}/check")
    assert check["replay"]["matches"] is True
    assert room.ledger.audit(ev) == []
