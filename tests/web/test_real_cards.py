"""A table with real cards, end to end over the WebSocket protocol (docs/dealer.md).

Full rounds of both games are played at a real-cards table with every card entered by the
dealer through the protocol, and the same cards are played at an ordinary table (Blackjack: a
stacked shoe; draw: the cards the ordinary table's deck dealt, read back from its stored hand):
the chip results must be exactly equal. On the way: take-backs, refused cards (only the dealer
hears of them, and nothing changes), a misdeal voiding the hand with every bet returned, the
hole card in no player's or spectator's message before it is turned, the payouts the dealer is
told summing to what the ledger moved, and who entered each correction.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from syndicate.apps.client import ActionRefused, RoomClient, TableClient
from syndicate.core.cards import parse
from syndicate.core.shoe import Shoe
from syndicate.room.live.clocks import Timers
from syndicate.room.seating import stack_key
from syndicate.web import create_app
from syndicate.web.security import Limits
from tests.kit.room import FAST_HASHER, PASSWORD, LiveServer

PLAYERS = ("Alice", "Bob", "Carol", "Dave", "Erin")
BET = 1_000
STAKE = 20_000

# A typical 5-seat round: a blackjack, a split with a double, a bust, a stand, a hit, the dealer
# busting. The cards in the order the dealer deals them (two passes from the dealer's left, the
# up card after the first, the hole card after the second; then the play's cards in turn).
BJ_CARDS = [
    "As", "8h", "Td", "Kc", "5s", "6d",   # first pass and the dealer's up card
    "Kh", "8d", "5c", "Qh", "7s", "Qc",   # second pass and the hole card (Qc: only there)
    "3h", "Th",                           # seat 2 splits: hand 1's second card, then its double
    "9c",                                 # seat 2 hand 2's second card
    "Ts",                                 # seat 3 hits: bust
    "4d",                                 # seat 5 hits
    "7h",                                 # the dealer draws to 23
]
FILLER = " ".join(["2c", "3c", "4c", "2d", "3d"] * 40)
# What each seat does when its turn comes, in order (the same at both tables).
BJ_DECISIONS = {2: ["split", "double", "stand"], 3: ["hit"], 4: ["stand"], 5: ["hit", "stand"]}
SCHEMA = json.loads((Path(__file__).parents[2] / "docs" / "protocol.schema.json").read_text())


def one_tap(text: str) -> str:
    """How a dealer enters a Blackjack card: its rank alone ("T" as "10")."""
    rank = text[:-1]
    return "10" if rank == "T" else rank


@pytest.fixture
def servers(database) -> Iterator[Callable[..., LiveServer]]:  # noqa: ANN001
    """Make a real server on the test database (``new_shoe``: the Blackjack shoes it deals)."""
    made: list[LiveServer] = []

    def make(new_shoe: Any = None) -> LiveServer:
        app = create_app(database=database, hasher=FAST_HASHER, migrate=False, timers=Timers(turn=None),
                         limits=Limits(actions_per_second=10_000, action_burst=10_000), new_shoe=new_shoe)
        srv = LiveServer(app)
        made.append(srv)
        return srv

    yield make
    for srv in made:
        srv.stop()


def stacked(rules: Any) -> Shoe:
    return Shoe.stacked(parse(" ".join(BJ_CARDS) + " " + FILLER, distinct=False), decks=rules.decks)


def sign_in(server: LiveServer, event_id: int, name: str) -> RoomClient:
    c = RoomClient(server.url)
    c.sign_in(event_id, name, PASSWORD)
    return c


def players(room, cast, count: int) -> list[str]:  # noqa: ANN001
    """``count`` players with chips at the cashier (Alice and Bob are the cast's)."""
    names = PLAYERS[:count]
    for name in names:
        acct = next((a for a in (cast.alice, cast.bob) if a.name == name), None)
        if acct is None:
            acct = room.accounts.add(cast.event.id, name, "player", PASSWORD)
        room.cashier.buy_in(cast.admin, acct.id, 100_000)
    return list(names)


class Table:
    """A dealer, seated players and a spectator on one table's sockets."""

    def __init__(self, dealer: TableClient, seats: dict[int, TableClient], watcher: TableClient) -> None:
        self.dealer, self.seats, self.watcher = dealer, seats, watcher

    @classmethod
    async def open(cls, server: LiveServer, ev: int, table_id: int, names: list[str]) -> Table:
        token = {n: sign_in(server, ev, n).token for n in ["Bokuden", "Sam", *names]}
        dealer = await TableClient.connect(server.url, table_id, token["Bokuden"])
        watcher = await TableClient.connect(server.url, table_id, token["Sam"])
        seats = {}
        for n, name in enumerate(names, start=1):
            seats[n] = await TableClient.connect(server.url, table_id, token[name])
            await seats[n].act("sit", seat=n, amount=STAKE)
        return cls(dealer, seats, watcher)

    async def settle(self, version: int) -> dict[str, Any]:
        """The dealer's state once it has caught up with ``version``."""
        return await self.dealer.wait(lambda s: s["version"] >= version)

    async def close(self) -> None:
        for c in (self.dealer, self.watcher, *self.seats.values()):
            await c.close()

    def others(self) -> list[dict[str, Any]]:
        """Every message a player or the spectator received."""
        return [m for c in (self.watcher, *self.seats.values()) for m in c.messages]


async def enter(t: Table, cards: Iterator[str], version: int, on_card: Callable[..., Any] | None = None) -> int:
    """Enter cards while the table waits for one (``on_card`` may make a mistake and correct
    it first); the version reached."""
    st = await t.settle(version)
    while st["round"] is not None and st["round"]["card_needed"] is not None:
        if on_card is not None:
            version = await on_card(t, version)
        version = (await t.dealer.act("card", card=next(cards)))["version"]
        st = await t.settle(version)
    return version


async def blackjack_round(t: Table, cards: Iterator[str] | None, on_card: Callable[..., Any] | None = None
                          ) -> dict[str, Any]:
    """The scripted round: every seat bets, the dealer deals, each seat plays its decisions;
    with ``cards`` (a real-cards table) the dealer enters each card as it is needed."""
    version = (await t.dealer.act("start_round"))["version"]
    for p in t.seats.values():
        version = (await p.act("bet", amount=BET))["version"]
    version = (await t.dealer.act("deal"))["version"]
    todo = {seat: list(moves) for seat, moves in BJ_DECISIONS.items()}
    while True:
        if cards is not None:
            version = await enter(t, cards, version, on_card)
        st = await t.settle(version)
        rd = st["round"]
        if rd["phase"] == "settled":
            return st
        seat = rd["to_act"]
        version = (await t.seats[seat].act(todo[seat].pop(0)))["version"]


def results(st: dict[str, Any]) -> dict[int, int]:
    return {s["seat"]: s["net"] for s in st["round"]["seats"]}


def hands_of(room, ev: int, table_id: int) -> list[Any]:  # noqa: ANN001
    with room.store.transaction() as repo:
        return repo.hands(ev, table_id, limit=1_000)


def seat_nets(room, ev: int, hand_id: int, keys: dict[int, str]) -> dict[int, int]:  # noqa: ANN001
    """What the ledger moved to each seat's stack over one hand (seat -> cents)."""
    with room.store.transaction() as repo:
        net = repo.hand_net(hand_id)
        ids = {a.key: a.id for a in repo.ledger_accounts(ev)}
    return {seat: net.get(ids[key], 0) for seat, key in keys.items()}


def stack_keys(table_id: int, st: dict[str, Any]) -> dict[int, str]:
    return {s["seat"]: stack_key(table_id, s["account"]) for s in st["seats"]}


def assert_schema(messages: list[dict[str, Any]]) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(
        {**{k: v for k, v in SCHEMA.items() if k != "oneOf"}, "$ref": "#/$defs/server_message"})
    for m in messages:
        validator.validate(m)


def assert_hole_hidden(messages: list[dict[str, Any]], hidden: tuple[str, ...]) -> int:
    """No message before the reveal names a card in ``hidden`` (the hole card, and a hole card
    entered wrongly and taken back); the count of messages checked."""
    checked = 0
    for m in messages:
        if m.get("type") not in ("welcome", "state") or m.get("round") is None:
            assert m.get("type") != "payouts"
            continue
        if any(r["type"] == "reveal" for r in m["log"]):
            continue
        text = json.dumps(m)
        for card in hidden:
            assert f'"{card}"' not in text, f"{card} leaked before the reveal"
        checked += 1
    return checked


# -- Blackjack ---------------------------------------------------------------------------------
def test_blackjack_round_with_real_cards_equals_the_stacked_shoe(servers, room, cast, caplog) -> None:
    caplog.set_level(logging.DEBUG)
    ev = cast.event.id
    names = players(room, cast, 5)
    stacked_srv, real_srv = servers(stacked), servers()
    dealer = sign_in(real_srv, ev, "Bokuden")
    rules = {"decks": 5, "min_bet": 100, "max_bet": 1_000}
    ordinary = sign_in(stacked_srv, ev, "Bokuden").open_table("Stacked", overrides=rules)
    real = dealer.open_table("Real", overrides=rules, cards="real")
    assert (ordinary["cards"], real["cards"]) == ("shuffled", "real")

    async def both() -> tuple[dict[str, Any], dict[str, Any], Table]:
        a = await Table.open(stacked_srv, ev, ordinary["id"], names)
        want = await blackjack_round(a, None)
        await a.close()
        b = await Table.open(real_srv, ev, real["id"], names)
        steps = iter(one_tap(c) if c != "Qc" else c for c in BJ_CARDS)
        fixes = {"hole": False, "hit": False}

        async def mistakes(t: Table, version: int) -> int:
            """Two mistakes, each taken back before anyone acts: a wrong hole card (entered face
            down, so its take-back is hidden too) and a wrong card for seat 3's hit."""
            st = await t.settle(version)
            need = st["round"]["card_needed"]
            if need is None:
                return version
            if need["why"] == "hole" and not fixes["hole"]:
                fixes["hole"] = True
                version = (await t.dealer.act("card", card="Kd"))["version"]
                version = (await t.dealer.act("take_back"))["version"]
                assert (await t.settle(version))["round"]["card_needed"] == need  # the same card again
            elif need["why"] == "hit" and need["seat"] == 3 and not fixes["hit"]:
                fixes["hit"] = True
                assert st["round"]["card_needed_text"] == "seat 3's third card (a hit)"
                version = (await t.dealer.act("card", card="5"))["version"]  # 20: seat 3 would stand
                version = (await t.dealer.act("take_back"))["version"]
            return version

        got = await blackjack_round(b, steps, mistakes)
        assert fixes == {"hole": True, "hit": True}
        await b.close()  # what each client received stays in its messages
        return want, got, b

    want, got, t = asyncio.run(both())

    # The exact chip results are the stacked shoe's.
    assert results(got) == results(want) == {1: 1_500, 2: 2_000 + 1_000, 3: -1_000, 4: 1_000, 5: 1_000}
    assert [s["stack"] for s in got["seats"]] == [s["stack"] for s in want["seats"]]

    # The dealer is told each payment when it is due, once: seat 1's natural is paid at once
    # (the dealer's 6 cannot make a blackjack: 001 5.1.2) as soon as the hole card is in, and
    # withdrawn when that (wrong) hole card is taken back, then told again with the right one;
    # seat 3's bust is collected at once (5.5.3); the list at the end (the dealer's view) marks
    # them paid and asks only for the rest. The ledger moved exactly what was told.
    told = [(m["when"], [p["text"] for p in m["payouts"]]) for m in t.dealer.messages if m["type"] == "payouts"]
    natural = ["seat 1: pay $15.00 (blackjack 3:2)"]
    assert told == [("now", natural), ("withdrawn", natural), ("now", natural),
                    ("now", ["seat 3: take $10.00 (bust)"])]
    payouts = got["round"]["payouts"]
    texts = [p["text"] for p in payouts]
    assert texts[0] == "seat 1: done: paid $15.00 during the round (blackjack 3:2)"
    assert texts[1] == "seat 2: pay $30.00 (hand 1: pay $20.00 (win 1:1); hand 2: pay $10.00 (win 1:1))"
    assert texts[2] == "seat 3: done: took $10.00 during the round (bust)"
    assert [(p["amount"], p["paid"]) for p in payouts[:3]] == [(0, 1_500), (3_000, 0), (0, -1_000)]
    (hand,) = hands_of(room, ev, real["id"])
    moved = seat_nets(room, ev, hand.id, stack_keys(real["id"], got))
    assert {p["seat"]: p["net"] for p in payouts} == moved
    assert all(p["amount"] + p["paid"] == p["net"] for p in payouts)

    # The hole card (and the wrong one taken back) reached no player or spectator before the
    # reveal; no refusal or payouts message reached them at all.
    others = t.others()
    assert assert_hole_hidden(others, ("Qc", "Kd")) > 20
    assert not [m for m in others if m["type"] == "error"]
    assert_schema(others + t.dealer.messages)
    # Nor any line the server logged (the websockets client's own debug lines are the test's).
    logged = "\n".join(r.getMessage() for r in caplog.records if r.name.startswith(("syndicate", "uvicorn")))
    assert not [c for c in ("Qc", "Q♣", "Kd", "K♦") if c in logged]

    # The stored hand: real cards, no commitment, each correction with who made it.
    assert hand.status == "settled" and hand.commitment.startswith("entered-")
    assert hand.history["shoes"][0]["entered"] is True
    log = hand.history["rounds"][0]["log"]
    entered = hand.history["rounds"][0]["entered_by"]
    by_type = {kind: [e for e in entered if log[e["at"]]["type"] == kind] for kind in ("take_back", "card", "deal")}
    assert len(by_type["take_back"]) == 2 and len(by_type["card"]) == len(BJ_CARDS) and len(by_type["deal"]) == 1
    dealer_entries = by_type["take_back"] + by_type["card"] + by_type["deal"]
    assert all(e["by"] == cast.dealer.id and e["name"] == "Bokuden" and e["for_seat"] is None for e in dealer_entries)
    # The engine replays it exactly from the entered cards; there is no shuffle to verify.
    check = sign_in(real_srv, ev, "admin").request("GET", f"/api/hands/{hand.id}/check")
    assert check["replay"]["matches"] is True and check["commitment"] is None
    assert check["verify"]["entered"] == 1 and "no shuffle to verify" in " ".join(check["verify"]["messages"])
    assert room.ledger.audit(ev) == []


def test_refusals_go_to_the_dealer_alone_and_change_nothing(servers, room, cast) -> None:
    """A sixth A♠ from a 5-deck shoe is refused, naming the card; a player cannot enter a card;
    a shuffled table has no card to enter, no misdeal and no new shoe."""
    ev = cast.event.id
    names = players(room, cast, 2)
    srv = servers()
    dealer = sign_in(srv, ev, "Bokuden")
    real = dealer.open_table("Real", overrides={"decks": 5, "min_bet": 100, "max_bet": 1_000}, cards="real")
    shuffled = dealer.open_table("Shuffled", overrides={"min_bet": 100, "max_bet": 1_000})

    async def play() -> None:
        t = await Table.open(srv, ev, real["id"], names)
        await t.dealer.act("start_round")
        for p in t.seats.values():
            await p.act("bet", amount=BET)
        version = (await t.dealer.act("deal"))["version"]
        for _ in range(5):  # seat 1, seat 2, the up card, seat 1, seat 2: five A♠
            version = (await t.dealer.act("card", card="As"))["version"]
        before = await t.settle(version)
        assert before["round"]["card_needed"]["why"] == "hole"
        counts = [len(c.messages) for c in t.seats.values()] + [len(t.watcher.messages)]
        with pytest.raises(ActionRefused) as refused:
            await t.dealer.act("card", card="A♠")
        assert refused.value.rule == "shoe_count"
        assert "A♠ cannot come out again: a 5-deck shoe holds 5" in refused.value.message
        with pytest.raises(ActionRefused) as bad:
            await t.dealer.act("card", card="Zz")
        assert bad.value.rule == "card"
        with pytest.raises(ActionRefused) as player:
            await t.seats[1].act("card", card="K")
        assert player.value.rule == "table_dealer"
        with pytest.raises(ActionRefused) as mid:
            await t.dealer.act("new_shoe")
        assert mid.value.rule == "round_in_play"
        await asyncio.sleep(0.2)
        # Nothing changed, and only whoever sent a refused action heard of it.
        assert t.dealer.version == before["version"]
        assert [len(c.messages) for c in t.seats.values()][1:] + [len(t.watcher.messages)] == counts[1:]
        assert [m["rule"] for m in t.seats[1].messages if m["type"] == "error"] == ["table_dealer"]
        assert "A♠" not in json.dumps(t.others()).replace('"As"', "")
        version = (await t.dealer.act("card", card="Ah"))["version"]  # a seventh Ace, another suit: fine
        assert (await t.settle(version))["round"]["card_needed"] is None
        await t.close()

        s = await Table.open(srv, ev, shuffled["id"], [])
        for action, fields in (("card", {"card": "K"}), ("take_back", {}), ("misdeal", {}), ("new_shoe", {})):
            with pytest.raises(ActionRefused) as e:
                await s.dealer.act(action, **fields)
            assert e.value.rule == "card_source", (action, e.value.rule)
        await s.close()

    asyncio.run(play())
    assert room.ledger.audit(ev) == []


def test_a_misdeal_voids_the_hand_with_every_bet_returned(servers, room, cast) -> None:
    ev = cast.event.id
    names = players(room, cast, 3)
    srv = servers()
    real = sign_in(srv, ev, "Bokuden").open_table("Real", overrides={"min_bet": 100, "max_bet": 1_000},
                                                  cards="real")

    async def play() -> tuple[dict[str, Any], dict[str, Any], Table]:
        t = await Table.open(srv, ev, real["id"], names)
        start = await t.settle(0)
        await t.dealer.act("start_round")
        for p in t.seats.values():
            await p.act("bet", amount=BET)
        version = (await t.dealer.act("deal"))["version"]
        for c in ("9", "5", "7", "6", "8", "4", "3", "Jd"):  # the deal, the hole card (Jd) last
            version = (await t.dealer.act("card", card=c))["version"]
        assert (await t.settle(version))["round"]["to_act"] == 1
        with pytest.raises(ActionRefused) as e:
            await t.seats[2].act("misdeal")
        assert e.value.rule == "table_dealer"
        version = (await t.dealer.act("misdeal"))["version"]
        after = await t.settle(version)
        # The table is ready for the next round, dealt from the same shoe.
        version = (await t.dealer.act("start_round"))["version"]
        assert (await t.settle(version))["hand"] == 2
        await t.close()
        return start, after, t

    start, after, t = asyncio.run(play())
    assert after["round"] is None and after["table"]["voided"] == 1
    assert [s["stack"] for s in after["seats"]] == [STAKE] * 3 == [s["stack"] for s in start["seats"]]
    (hand,) = [h for h in hands_of(room, ev, real["id"]) if h.number == 1]
    assert hand.status == "voided" and hand.history["voided"] is True
    assert hand.history["misdeal"]["by"] == cast.dealer.id
    moved = seat_nets(room, ev, hand.id, stack_keys(real["id"], after))
    assert moved == {1: 0, 2: 0, 3: 0}  # every bet returned
    for s in after["seats"]:
        assert room.ledger.balance(ev, stack_key(real["id"], s["account"])) == STAKE
    assert room.ledger.audit(ev) == []
    # The voided hand is served like any finished hand, its hole card never turned still hidden.
    served = sign_in(srv, ev, "Alice").request("GET", f"/api/hands/{hand.id}/history")
    assert served["voided"] is True and served["misdeal"]["by"] == cast.dealer.id
    assert '"Jd"' not in json.dumps(served)
    assert '"Jd"' not in json.dumps([m for c in (t.watcher, *t.seats.values()) for m in c.messages])


# -- Five-card draw ---------------------------------------------------------------------------
CARD = re.compile(r'"([2-9TJQKA][cdhs])"')


def draw_policy(st: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """What the seat to act does, decided from its own view only (the same choice at both
    tables): the first to act bets, seat 3 folds, others call; at the draw seat 4 stands pat and
    the others throw two (their first two cards; at a real-cards table, "two": nobody sees them);
    then everyone checks."""
    rd = st["round"]
    seat, legal = st["you"]["seat"], rd["legal_actions"]
    if rd["phase"] == "first_betting":
        if seat == 3:
            return "fold", {}
        if "bet" in legal:
            return "bet", {"amount": rd["bet_range"][0]}
        return "call", {}
    if rd["phase"] == "draw":
        if seat == 4:
            return "stand_pat", {}
        if rd.get("shown_only"):
            return "draw", {"count": 2}
        mine = next(s for s in rd["seats"] if s["seat"] == seat)
        return "draw", {"discards": mine["cards"][:2]}
    return "check", {}


async def draw_hand(t: Table, cards: Callable[[dict[str, Any]], str] | None) -> dict[str, Any]:
    version = (await t.dealer.act("start_round"))["version"]
    while True:
        st = await t.settle(version)
        rd = st["round"]
        if rd["phase"] == "complete":
            return st
        if rd["card_needed"] is not None:
            assert cards is not None
            version = (await t.dealer.act("card", card=cards(rd["card_needed"])))["version"]
            continue
        p = t.seats[rd["to_act"]]
        mine = await p.wait(lambda s: s["version"] >= version)
        action, fields = draw_policy(mine)
        version = (await p.act(action, **fields))["version"]


def shown_down(room, ev: int, table_id: int) -> dict[int, list[str]]:  # noqa: ANN001
    """The ordinary table's hands at its showdown, from its stored (house) hand."""
    (h,) = hands_of(room, ev, table_id)
    return {r["seat"]: list(r["cards"]) for r in h.history["hands"][0]["log"] if r["type"] == "show"}


def test_draw_hand_with_real_cards_equals_the_ordinary_table(servers, room, cast) -> None:
    """The dealer enters nothing at the deal nor the draw (the players say how many they throw);
    the hands shown at the showdown are entered, one card at a time, with a card twice refused
    and a wrong one taken back; the pot goes exactly as at an ordinary table with those cards."""
    ev = cast.event.id
    names = players(room, cast, 4)
    srv = servers()
    dealer = sign_in(srv, ev, "Bokuden")
    ordinary = dealer.open_table("Shuffled draw", game="poker")
    real = dealer.open_table("Real draw", game="poker", cards="real")
    refused: list[ActionRefused] = []
    asked: list[dict[str, Any]] = []
    taken_back: list[tuple[int, str]] = []

    async def both() -> tuple[dict[str, Any], dict[str, Any], Table]:
        a = await Table.open(srv, ev, ordinary["id"], names)
        want = await draw_hand(a, None)
        await a.close()
        hands = shown_down(room, ev, ordinary["id"])
        b = await Table.open(srv, ev, real["id"], names)
        fixed = {"dup": False, "back": False}

        async def showdown_with_mistakes() -> dict[str, Any]:
            version = (await b.dealer.act("start_round"))["version"]
            while True:
                st = await b.settle(version)
                rd = st["round"]
                if rd["phase"] == "complete":
                    return st
                need = rd["card_needed"]
                if need is not None:
                    asked.append(need)
                    seat, slot = need["seat"], need["slot"]
                    if slot == 1 and not fixed["dup"]:  # the card just entered, again
                        fixed["dup"] = True
                        with pytest.raises(ActionRefused) as e:
                            await b.dealer.act("card", card=hands[seat][0])
                        refused.append(e.value)
                    if slot == 2 and not fixed["back"]:  # a wrong card, taken back
                        fixed["back"] = True
                        shown = {c for cs in hands.values() for c in cs}
                        wrong = next(c for c in ("2c", "3d", "4h", "5s", "6c", "7d", "8h") if c not in shown)
                        await b.dealer.act("card", card=wrong)
                        await b.dealer.act("take_back")
                        taken_back.append((seat, wrong))
                    version = (await b.dealer.act("card", card=hands[seat][slot]))["version"]
                    continue
                p = b.seats[rd["to_act"]]
                mine = await p.wait(lambda s: s["version"] >= version)
                action, fields = draw_policy(mine)
                version = (await p.act(action, **fields))["version"]

        got = await showdown_with_mistakes()
        assert fixed == {"dup": True, "back": True}
        await b.close()
        return want, got, b

    want, got, t = asyncio.run(both())
    hands = shown_down(room, ev, ordinary["id"])
    assert sorted(hands) == [1, 2, 4]  # seat 3 folded: never entered
    assert all(n["why"] == "show" and n["face_up"] for n in asked)
    assert {(n["seat"], n["slot"]) for n in asked} == {(s, k) for s in (1, 2, 4) for k in range(5)}
    assert {s["seat"]: s["stack"] for s in got["round"]["seats"]} == {s["seat"]: s["stack"] for s in want["round"]["seats"]}
    assert {s["seat"]: s["won"] for s in got["round"]["seats"]} == {s["seat"]: s["won"] for s in want["round"]["seats"]}
    assert [s["stack"] for s in got["seats"]] == [s["stack"] for s in want["seats"]]
    assert {s["seat"]: s["cards"] for s in got["round"]["seats"] if s["seat"] in hands} == hands

    (dup,) = refused
    assert dup.rule == "shoe_count" and "is already entered in this hand at this showdown" in dup.message
    others = t.others()
    assert not [m for m in others if m["type"] in ("error", "payouts")]
    assert_schema(others + t.dealer.messages)
    # No card reached a player or the spectator before the showdown; during it a player saw the
    # cards entered for their own hand only (the wrong one too, until taken back); once settled,
    # the hands shown down.
    everyone = {c for cs in hands.values() for c in cs}
    wrong = {asked_seat: c for asked_seat, c in taken_back}
    for who, client in (("spectator", t.watcher), *t.seats.items()):
        for m in client.messages:
            if m.get("type") not in ("welcome", "state") or m.get("round") is None:
                continue
            seen = set(CARD.findall(json.dumps(m)))
            phase = m["round"]["phase"]
            mine = {wrong.get(who)} if who in wrong else set()  # a card taken back: in their log's correction
            if phase == "complete":
                assert seen <= everyone | mine, (who, seen - everyone)
            elif phase == "showdown" and who != "spectator":
                assert seen <= set(hands.get(who, [])) | mine, (who, phase, seen)  # type: ignore[call-overload]
            else:
                assert seen == set(), (who, phase, seen)

    payouts = got["round"]["payouts"]
    (hand,) = hands_of(room, ev, real["id"])
    moved = seat_nets(room, ev, hand.id, stack_keys(real["id"], got))
    assert {p["seat"]: p["net"] for p in payouts if p["seat"] is not None} == moved
    winners = [p for p in payouts if p["amount"] > 0]
    assert winners and all(p["text"].startswith(f"seat {p['seat']}: give $") for p in winners)
    assert hand.commitment.startswith("entered-")
    entry = hand.history["hands"][0]
    assert entry["shoe"]["entered"] is True and entry["shoe"]["shown_only"] is True
    assert [r["cards"] for r in entry["log"] if r["type"] == "deal"] == [["??"] * 5] * 4
    assert [len(r["received"]) for r in entry["log"] if r["type"] == "draw"] == [2, 2]
    check = sign_in(srv, ev, "admin").request("GET", f"/api/hands/{hand.id}/check")
    assert check["replay"]["matches"] is True and check["verify"]["ok"] is True
    (fix,) = [e for e in entry["entered_by"] if entry["log"][e["at"]]["type"] == "take_back"]
    assert fix["by"] == cast.dealer.id and fix["for_seat"] is None
    served = sign_in(srv, ev, "Carol").request("GET", f"/api/hands/{hand.id}/history")
    assert set(CARD.findall(json.dumps(served))) <= everyone  # the folded player: the hands shown, no more
    alice = sign_in(srv, ev, "Alice")
    phh = alice.http.get(f"/api/hands/{hand.id}/phh", headers={"Authorization": f"Bearer {alice.token}"})
    assert phh.status_code == 200
    for seat in (1, 2, 3, 4):  # every hand dealt face down, never named: unknown, as PHH writes them
        assert f'"d dh p{seat} ??????????"' in phh.text
    assert set(CARD.findall(phh.text.replace("sm ", 'sm "'))) <= everyone
    assert room.ledger.audit(ev) == []


def test_a_player_at_a_real_draw_table_names_no_card_and_rules_on_nothing(servers, room, cast) -> None:
    """The attacker is a seated player: they cannot enter a card, rule on a hand, draw by naming
    cards, nor draw for another seat; each refusal names the rule and changes nothing."""
    ev = cast.event.id
    names = players(room, cast, 2)
    srv = servers()
    real = sign_in(srv, ev, "Bokuden").open_table("Real draw", game="poker", cards="real")

    async def play() -> tuple[list[tuple[str, str]], dict[str, Any], dict[str, Any]]:
        t = await Table.open(srv, ev, real["id"], names)
        version = (await t.dealer.act("start_round"))["version"]
        st = await t.settle(version)
        first = st["round"]["to_act"]
        for seat in (first, 3 - first):
            version = (await t.seats[seat].act("check"))["version"]
        before = await t.settle(version)
        drawer = before["round"]["to_act"]
        rules = []
        for client, action, fields in (
                (t.seats[drawer], "card", {"card": "As"}),
                (t.seats[drawer], "ruling", {"seat": drawer, "dead": False}),
                (t.seats[drawer], "draw", {"discards": ["7h", "2c"]}),
                (t.seats[drawer], "draw", {"count": 5}),
                (t.seats[3 - drawer], "draw", {"count": 2}),
                (t.seats[3 - drawer], "draw", {"count": 2, "seat": drawer}),
                (t.dealer, "ruling", {"seat": drawer, "dead": True})):
            with pytest.raises(ActionRefused) as e:
                await client.act(action, **fields)
            rules.append((action, e.value.rule))
        after = await t.dealer.wait(lambda s: True)
        await t.close()
        return rules, before, after

    rules, before, after = asyncio.run(play())
    assert rules == [("card", "table_dealer"), ("ruling", "table_dealer"), ("draw", "count"), ("draw", "draw.limit"),
                     ("draw", "turn"), ("draw", "own_seat"), ("ruling", "ruling")]
    assert after["version"] == before["version"] and after["round"] == before["round"]


def test_a_draw_misdeal_returns_the_antes_and_keeps_the_button(servers, room, cast) -> None:
    ev = cast.event.id
    names = players(room, cast, 3)
    srv = servers()
    real = sign_in(srv, ev, "Bokuden").open_table("Real draw", game="poker", cards="real")

    async def play() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], Table]:
        t = await Table.open(srv, ev, real["id"], names)
        version = (await t.dealer.act("start_round"))["version"]
        first = await t.settle(version)
        assert first["round"]["card_needed"] is None  # nothing to enter: the cards are dealt face down
        version = (await t.seats[first["round"]["to_act"]].act("bet", amount=100))["version"]
        version = (await t.dealer.act("misdeal"))["version"]
        after = await t.settle(version)
        version = (await t.dealer.act("start_round"))["version"]
        again = await t.settle(version)
        await t.close()
        return first, after, again, t

    first, after, again, t = asyncio.run(play())
    assert after["round"] is None and after["table"]["voided"] == 1
    assert [s["stack"] for s in after["seats"]] == [STAKE] * 3  # the antes came back
    assert again["round"]["button"] == first["round"]["button"]  # the same dealer deals again
    (voided,) = [h for h in hands_of(room, ev, real["id"]) if h.status == "voided"]
    assert voided.history["misdeal"]["by"] == cast.dealer.id
    assert room.ledger.audit(ev) == []
