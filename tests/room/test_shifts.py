"""The dealers' shifts (docs/dealer.md, "Shifts, breaks and handovers"), on both databases: a
dealer clocks in once and out, takes a break and comes back; a table changes dealer between
hands only, to an authorized dealer who is clocked in and on the floor, keeping its seats, stacks
and the bets placed before the deal; every refusal names its rule and changes nothing; the
rotation follows its rule from the shift events and a given time; the report counts each
dealer's hands by who dealt them, and their time at tables."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from syndicate.apps.client import ActionRefused
from syndicate.room import report as night_report
from syndicate.room.errors import Conflict, Forbidden, RoomError
from syndicate.room.live.clocks import Timers
from syndicate.room.shifts import DEALING, ON_BREAK, WAITING, Standing, plan, standings
from syndicate.room.values import ShiftEvent
from tests.kit.room import PASSWORD
from tests.kit.table import local_room

pytestmark = pytest.mark.both_databases


def _second(room, cast):  # type: ignore[no-untyped-def]
    """Ryuusei, on the notice's roster under Jean-Marc, with an account: the second dealer."""
    return room.accounts.add(cast.event.id, "Ryuusei", "dealer", PASSWORD)


def _events(room, cast) -> list[tuple[int, str, int | None]]:  # type: ignore[no-untyped-def]
    with room.store.transaction() as repo:
        return [(e.account_id, e.kind, e.table_id) for e in repo.shift_events(cast.event.id)]


async def _no(client, action: str, **fields):  # type: ignore[no-untyped-def]
    with pytest.raises(ActionRefused) as e:
        await client.act(action, **fields)
    return e.value


def _refused(rule: str, call, *args):  # type: ignore[no-untyped-def]
    with pytest.raises(RoomError) as e:
        call(*args)
    assert e.value.rule == rule, e.value
    return e.value


def test_clocking_in_and_out_breaks_and_their_refusals(room, cast) -> None:
    shifts = room.shifts
    ryuusei = _second(room, cast)
    _refused("clocked_out", shifts.clock_out, ryuusei)  # never clocked in
    _refused("clocked_out", shifts.take_break, ryuusei)
    assert shifts.clock_in(ryuusei)["state"] == WAITING
    e = _refused("clocked_in", shifts.clock_in, ryuusei)  # twice
    assert "already clocked in" in e.message and "once a shift" in e.message
    e = _refused("clock_in", shifts.clock_in, cast.alice)  # a player
    assert isinstance(e, Forbidden) and "only a dealer" in e.message
    e = _refused("authorized_dealer", shifts.clock_in, cast.rogue)  # not on the roster
    assert "not on the roster" in e.message
    _refused("not_on_break", shifts.come_back, ryuusei)
    assert shifts.take_break(ryuusei)["state"] == ON_BREAK
    _refused("on_break", shifts.take_break, ryuusei)
    assert shifts.come_back(ryuusei)["state"] == WAITING
    # A dealer who opens a table is clocked in by it, and clocks out only once it is handed over
    t = room.tables.open(cast.dealer, "Shift table")
    mine = shifts.mine(cast.dealer)
    assert mine["state"] == DEALING and [x["name"] for x in mine["tables"]] == ["Shift table"]
    assert mine["free"] == ["Ryuusei"]
    before = _events(room, cast)
    e = _refused("holds_table", shifts.clock_out, cast.dealer)
    assert "Shift table" in e.message
    _refused("holds_table", shifts.take_break, cast.dealer)
    assert _events(room, cast) == before  # refusals change nothing
    room.tables.set_status(cast.dealer, t.id, "closed")
    assert shifts.clock_out(cast.dealer)["state"] == "clocked_out"
    assert _events(room, cast)[-2:] == [(cast.dealer.id, "leave", t.id), (cast.dealer.id, "clock_out", None)]
    floor = shifts.floor(cast.boss)
    assert {d["dealer"]: d["state"] for d in floor["dealers"]} == {"Bokuden": "clocked_out", "Ryuusei": "waiting",
                                                                   "Jean-Marc": "clocked_out", "Miles": "clocked_out"}
    _refused("view_floor", shifts.floor, cast.dealer)


def test_the_rotation_follows_its_rule() -> None:
    """The dealer dealing longest without a break goes first when their shift is up; whoever is
    available longest takes the table; a dealer sent on a break takes a later table after it."""
    t0 = datetime(2026, 12, 5, 20, 0, tzinfo=UTC)
    m = lambda n: t0 + timedelta(minutes=n)  # noqa: E731
    ev = [ShiftEvent(i, *e) for i, e in enumerate([
        (1, "clock_in", None, 1, m(0)), (1, "take", 10, 1, m(0)),  # A at table 10 since 20:00
        (2, "clock_in", None, 2, m(5)), (2, "take", 11, 2, m(10)),  # B at table 11 since 20:10
        (3, "clock_in", None, 3, m(20)),  # C waits since 20:20
        (4, "clock_in", None, 4, m(0)), (4, "break", None, 4, m(30)),  # D's break ends at 20:45
    ])]
    names = {1: "A", 2: "B", 3: "C", 4: "D"}
    stand = standings(ev, m(40))
    assert stand[1].dealt == timedelta(minutes=40) and stand[3].state == WAITING
    got = [(r.table, names[r.dealer_out], names[r.dealer_in], r.at) for r in
           plan(stand, timedelta(minutes=60), timedelta(minutes=15), m(40), names)]
    # C (waiting since 20:20) before D (back at 20:45) takes A's table at 21:00; D takes B's at 21:10
    assert got == [(10, "A", "C", m(60)), (11, "B", "D", m(70))]
    # with one spare dealer, A rests after 21:00 and takes B's table when the break is over
    alone = {k: v for k, v in stand.items() if k != 4}
    got = [(r.table, names[r.dealer_out], names[r.dealer_in], r.at) for r in
           plan(alone, timedelta(minutes=60), timedelta(minutes=15), m(40), names)]
    assert got == [(10, "A", "C", m(60)), (11, "B", "A", m(75))]
    assert plan({1: Standing(1, DEALING, m(0), {10: m(0)}, m(0))}, timedelta(hours=1), timedelta(minutes=15),
                m(40), names) == []  # nobody to take the table


def test_a_table_changes_dealer_between_hands_only_and_keeps_everything(room, cast) -> None:
    ryuusei = _second(room, cast)
    t = room.tables.open(cast.dealer, "Handover", cards="real")
    for who in (cast.alice, cast.bob):
        room.cashier.buy_in(cast.admin, who.id, 10_000)

    async def go() -> None:
        async with local_room(room, Timers()) as local:
            bokuden = await local.connect(t.id, cast.dealer)
            alice = await local.connect(t.id, cast.alice)
            bob = await local.connect(t.id, cast.bob)
            await alice.act("sit", seat=1, amount=5_000)
            await bob.act("sit", seat=2, amount=5_000)
            # a hand dealt by Bokuden: its cards out, the handover waits for its end
            await bokuden.act("start_round")
            await alice.act("bet", amount=500)
            await bob.act("bet", amount=300)
            await bokuden.act("deal")
            st = await local.settle(bokuden)
            refusals = [
                ({"to": "Ryuusei"}, "between_hands", "between hands"),  # and Ryuusei is not clocked in either
            ]
            for fields, rule, words in refusals:
                e = await _no(bokuden, "hand_over", **fields)
                assert e.rule == rule and words in e.message, e
            for card in ("K", "7", "9", "Q", "10", "8"):  # seat 1: 17, seat 2: 17, dealer: 19
                if (await local.settle(bokuden))["round"]["phase"] == "settled":
                    break
                await bokuden.act("card", card=card)
            st = await local.settle(bokuden)
            if st["round"]["phase"] != "settled":
                for seat, client in ((1, alice), (2, bob)):
                    while (await local.settle(bokuden))["round"]["to_act"] == seat:
                        await client.act("stand")
                while (await local.settle(bokuden))["round"]["phase"] != "settled":
                    await bokuden.act("card", card="10")
            # the next round's bets are placed; the cards are not out
            await bokuden.act("start_round")
            await alice.act("bet", amount=700)
            await bob.act("bet", amount=200)
            before = await local.settle(bokuden)
            version = before["version"]
            for fields, rule in [({"to": "Ryuusei"}, "clocked_out"), ({"to": "Bokuden"}, "hand_over_self"),
                                 ({"to": "Ghost"}, "authorized_dealer"), ({"to": "Alice"}, "authorized_dealer"),
                                 ({"to": ""}, "to")]:
                e = await _no(bokuden, "hand_over", **fields)
                assert e.rule == rule, e
            e = await _no(alice, "hand_over", to="Ryuusei")  # a player
            assert e.rule == "manage_table"
            assert (await local.settle(bokuden))["version"] == version  # nothing changed
            assert room.tables.get(cast.event.id, t.id).dealer_id == cast.dealer.id
            room.shifts.clock_in(ryuusei)
            room.shifts.take_break(ryuusei)
            e = await _no(bokuden, "hand_over", to="Ryuusei")
            assert e.rule == "on_break" and "Ryuusei is on a break" in e.message
            room.shifts.come_back(ryuusei)
            await bokuden.act("hand_over", to="Ryuusei")
            after = await local.settle(bokuden)
            assert room.tables.get(cast.event.id, t.id).dealer_id == ryuusei.id
            keep = lambda s: ([(x["seat"], x["player"], x["stack"]) for x in s["seats"]],  # noqa: E731
                              [(x["seat"], x["bet"]) for x in s["round"]["seats"]], s["round"]["phase"], s["hand"])
            assert keep(after) == keep(before)
            assert room.shifts.mine(cast.dealer)["state"] == ON_BREAK
            # Bokuden, on his break, is refused at the console; Ryuusei deals on
            e = await _no(bokuden, "deal")
            assert e.rule == "on_break" and "Ryuusei deals Handover now" in e.message, e
            ryu = await local.connect(t.id, ryuusei)
            await ryu.act("deal")
            while (st := await local.settle(ryu))["round"]["phase"] != "settled":
                if st["round"]["card_needed"]:
                    await ryu.act("card", card="10")
                else:
                    await (alice if st["round"]["to_act"] == 1 else bob).act("stand")
            # Bokuden comes back and takes the table again
            room.shifts.come_back(cast.dealer)
            await ryu.act("hand_over", to="Bokuden", **{"break": False})
            await bokuden.act("start_round")
            assert room.shifts.mine(ryuusei)["state"] == WAITING
            room.shifts.clock_out(ryuusei)  # clocked out, Ryuusei is refused at the table in words
            e = await _no(ryu, "deal")
            assert e.rule == "clocked_out" and "you are not clocked in: Bokuden deals Handover now" in e.message

    asyncio.run(go())
    with room.store.transaction() as repo:
        hands = repo.hands(cast.event.id, table_id=t.id)
    assert [h.dealer_id for h in hands if h.status == "settled"] == [cast.dealer.id, ryuusei.id]
    rep = night_report.build(room.store, cast.event.id)
    dealers = {d.dealer: d for d in rep.dealers}
    assert (dealers["Bokuden"].hands, dealers["Ryuusei"].hands) == (1, 1)
    assert dealers["Ryuusei"].tables == 1 and dealers["Bokuden"].seconds >= 0
    assert "Ryuusei" in night_report.text(rep) and "Dealt" in night_report.html_page(rep)


def test_the_report_counts_the_time_dealt(room, cast) -> None:
    """Time at tables from the shift events, up to the report's moment."""
    t = room.tables.open(cast.dealer, "Timed")
    with room.store.transaction() as repo:
        opened = repo.shift_events(cast.event.id)[-1].at
    rep = night_report.build(room.store, cast.event.id, at=opened + timedelta(hours=1, minutes=5))
    line = next(d for d in rep.dealers if d.dealer == "Bokuden")
    assert line.seconds == 3900 and night_report.hours(line.seconds) == "1 h 05"
    assert "1 h 05" in night_report.text(rep)
    room.tables.set_status(cast.admin, t.id, "closed")
    with pytest.raises(Conflict):
        room.shifts.come_back(cast.dealer)
