"""A live table's clocks, in process on a virtual clock (tests/kit/table.py): a silent player
stood by the turn clock, then sitting out; rounds that run themselves on the auto-deal window;
bots that fill a table. Minutes of play take milliseconds, and a clock runs out exactly when
the test lets the time move: nothing here depends on how fast the machine is."""

from __future__ import annotations

import asyncio

import pytest

from syndicate.apps.client import ActionRefused
from syndicate.core.cards import parse
from syndicate.core.shoe import Shoe
from syndicate.room.live.clocks import Timers
from syndicate.room.seating import stack_key
from syndicate.room.values import NO_PASSWORD
from tests.kit.room import deal_until_someone_must_act
from tests.kit.table import local_room

TIMERS = Timers(turn=0.3, sit_out_after=2)


def _shoe_of(round_cards: str):  # noqa: ANN202
    """Every round dealt from ``round_cards`` (Alice, the dealer's up card, Alice, the hole card),
    the dealer standing on what they hold, so each round takes exactly these four cards."""
    return lambda rules: Shoe.stacked(parse(" ".join([round_cards] * 12), distinct=False), decks=rules.decks)


@pytest.mark.parametrize(("up_card", "rounds"), [("9c", 2), ("Ac", 1)], ids=["a timeout a round", "insurance then the hand"])
def test_a_silent_player_is_stood_by_the_clock_then_sits_out(room, cast, up_card: str, rounds: int) -> None:
    """Two timeouts in a row sit a player out: over two rounds, or in one when the dealer's ace
    asks for insurance first (the clock declines it, then stands her hand)."""
    ev = cast.event.id
    room.cashier.buy_in(cast.admin, cast.alice.id, 10_000)
    table = room.tables.open(cast.dealer, "Clock", overrides={"min_bet": 100, "max_bet": 500})

    async def go() -> None:
        async with local_room(room, TIMERS, _shoe_of(f"Th {up_card} 5d 8s")) as local:
            dealer = await local.connect(table.id, cast.dealer)
            alice = await local.connect(table.id, cast.alice)
            await alice.act("sit", seat=1, amount=5_000)
            timeouts = 0
            while True:
                st = await deal_until_someone_must_act(dealer, [(alice, 100)])
                assert st["clock"]["seat"] == st["round"]["to_act"] == 1
                assert st["clock"]["seconds"] == 0.3 and 0 <= st["clock"]["left"] <= 0.3
                assert st["clock"]["left"] == 0.3  # no time has passed since her turn began
                # Alice says nothing: the clock makes the passive choice and the round finishes.
                st = await local.nobody_acts(dealer, lambda s: s["round"]["phase"] == "settled")
                timeouts += 1
                if any(s["sitting_out"] for s in st["seats"]):
                    break
            assert timeouts == rounds
            log = [r["type"] for r in st["log"]]
            assert "stand" in log and ("no_insurance" in log) == (up_card == "Ac")
            told = [m["text"] for m in alice.messages if m["type"] == "timed_out"]
            assert len(told) == 2 and told[-1].endswith("(2 in a row: sitting out until sitting in again)")
            # Sitting out: no more rounds for her until she sits in.
            with pytest.raises(ActionRefused) as e:
                await dealer.act("start_round")
            assert e.value.rule == "no_players"
            await alice.act("sit_in")
            await dealer.act("start_round")

    asyncio.run(go())
    assert room.ledger.audit(ev) == []


def test_rounds_on_a_timer(room, cast) -> None:
    ev = cast.event.id
    room.cashier.buy_in(cast.admin, cast.alice.id, 10_000)
    table = room.tables.open(cast.dealer, "Auto", overrides={"min_bet": 100, "max_bet": 500})

    async def go() -> None:
        async with local_room(room, TIMERS) as local:
            dealer = await local.connect(table.id, cast.dealer)
            alice = await local.connect(table.id, cast.alice)
            await alice.act("sit", seat=1, amount=5_000)
            with pytest.raises(ActionRefused) as e:
                await dealer.act("auto_deal", seconds=-1)
            assert e.value.rule == "seconds"
            with pytest.raises(ActionRefused):
                await alice.act("auto_deal", seconds=1)
            await dealer.act("auto_deal", seconds=0.2)
            hands = set()
            while len(hands) < 3:
                st = await local.time_passes(alice, lambda s: s["round"] is not None and s["round"]["phase"] == "betting"
                                             and s["hand"] not in hands, step=0.2)
                hands.add(st["hand"])
                await alice.act("bet", amount=100)
                # Nobody deals: the timer does; Alice plays her hand out.
                while True:
                    st = await local.time_passes(alice, lambda s: s["round"]["phase"] != "betting" and (
                        s["round"]["phase"] == "settled" or bool(s["round"]["legal_actions"])), step=0.2)
                    if st["round"]["phase"] == "settled":
                        break
                    legal = st["round"]["legal_actions"]
                    await alice.act("stand" if "stand" in legal else "no_insurance" if "no_insurance" in legal
                                    else "play_on")
            await dealer.act("auto_deal", seconds=None)

    asyncio.run(go())
    with room.store.transaction() as repo:
        assert len([h for h in repo.hands(ev, table.id) if h.status == "settled"]) >= 3
    assert room.ledger.audit(ev) == []


@pytest.mark.parametrize("game", ["blackjack", "poker"])
def test_bots_fill_a_table(room, cast, game) -> None:
    ev = cast.event.id
    room.cashier.buy_in(cast.admin, cast.alice.id, 50_000)
    room.cashier.set_float(cast.admin, 3 * 100 * 500)  # the house's chips for the three bots
    overrides = {"min_bet": 100, "max_bet": 500} if game == "blackjack" else {}
    table = room.tables.open(cast.dealer, f"Bots {game}", game=game, overrides=overrides)
    done = "settled" if game == "blackjack" else "complete"

    async def go() -> None:
        async with local_room(room, TIMERS) as local:
            dealer = await local.connect(table.id, cast.dealer)
            alice = await local.connect(table.id, cast.alice)
            watcher = await local.connect(table.id, cast.spectator)
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
                st = await local.time_passes(alice, lambda s: s["round"] is not None and (
                    s["round"]["phase"] == done or bool(s["round"]["legal_actions"])
                    or (s["round"]["phase"] == "betting" and next(x for x in s["round"]["seats"]
                                                                  if x["seat"] == 1)["bet"] == 0)), step=0.3)
                rd = st["round"]
                if rd["phase"] == done:
                    hands.add(st["hand"])
                    await local.time_passes(alice, lambda s: s["hand"] != st["hand"], step=0.3)
                    continue
                if rd["phase"] == "betting":
                    await alice.act("bet", amount=100)  # the window is open until the time moves
                    await local.time_passes(alice, lambda s: s["round"]["phase"] != "betting"
                                            or s["hand"] != st["hand"], step=0.3)
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
            await local.nobody_acts(watcher, lambda s: len(s["seats"]) == 1)
            # Whatever they won or lost, the bots' chips are back in the float, every cent in the ledger.
            status = room.cashier.float_status(ev)
            assert status["used"] == 0
            assert status["remaining"] == status["float"] and room.ledger.audit(ev) == []
            bots = [x for x in room.ledger.accounts(ev) if x.name.startswith("Bot ")]
            assert bots and all(x.balance == 0 for x in bots)

    asyncio.run(go())
    assert room.ledger.audit(ev) == []
    # Every bot chip went back to the cashier: what is out is Alice's, and the table's.
    balances = {a.key: a.balance for a in room.ledger.accounts(ev)}
    bots = [a for a in room.accounts.list(cast.admin) if a.name.startswith(f"Bot {table.id}-")]
    assert len(bots) == 3
    for b in bots:
        assert balances.get(f"player:{b.id}", 0) == 0
        assert balances.get(stack_key(table.id, b.id), 0) == 0
    with pytest.raises(Exception):
        room.accounts.sign_in(ev, bots[0].name, NO_PASSWORD)
