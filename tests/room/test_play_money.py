"""A night whose chips have no cash value (docs/charity-night.md), on both databases: nothing
pays chips out as money (the cashier's cash-outs are refused, naming the rule, and nothing
moves), a walk-in leaves a table with their chips on their name and sits with them again at
the next, the draws convert walk-ins' chips too (a linked walk-in's for their guest), the prizes
stay under the event's cap, and the report speaks of chips. A cash night is unchanged."""

from __future__ import annotations

import asyncio
import secrets

import pytest

from syndicate.room import report as night_report
from syndicate.room.errors import BadRequest, Conflict, Forbidden
from syndicate.room.ledger import cash_key, now, player_key
from syndicate.room.live.clocks import Timers
from syndicate.room.seating import stack_key
from tests.kit.table import local_room

pytestmark = pytest.mark.both_databases


def _guest(room, cast, name: str, paid: int) -> int:  # type: ignore[no-untyped-def]
    room.door.import_guests(cast.admin, f"name\n{name}\n")
    room.door.set_rate(cast.admin, 100, 100)
    [g] = room.door.guests(cast.admin, name)
    room.door.check_in(cast.admin, g["id"], "cash", paid)
    return int(g["id"])


def _named(room, cast, name: str):  # type: ignore[no-untyped-def]
    return next(a for a in room.accounts.all(cast.event.id) if a.name == name)


def _balances(room, cast) -> list[tuple[str, int]]:  # type: ignore[no-untyped-def]
    return [(a.key, a.balance) for a in room.ledger.accounts(cast.event.id)]


def test_the_setting_is_the_admins_and_fixed_once_a_hand_was_dealt(room, cast) -> None:
    ev = cast.event.id
    assert room.events.set_play_money(cast.admin, ev, True).play_money is True
    for who in (cast.boss, cast.dealer, cast.alice):
        with pytest.raises(Forbidden) as e:
            room.events.set_play_money(who, ev, False)
        assert e.value.rule == "event_settings"
    with pytest.raises(BadRequest) as b:
        room.events.set_play_money(cast.admin, ev, "yes")
    assert b.value.rule == "play_money"
    t = room.tables.open(cast.dealer, "Dealt")
    with room.store.transaction() as repo:
        repo.add_hand(t.id, 1, "blackjack", secrets.token_hex(32), {"rounds": []}, now())
    with pytest.raises(Conflict) as c:
        room.events.set_play_money(cast.admin, ev, False)
    assert c.value.rule == "play_money_fixed" and "no cash value" in c.value.message
    assert room.events.set_play_money(cast.admin, ev, True).play_money is True  # unchanged: no refusal


def test_nothing_pays_chips_out_as_money(room, cast) -> None:
    ev = cast.event.id
    room.events.set_play_money(cast.admin, ev, True)
    ako = _guest(room, cast, "Ako", 20_000)
    before = _balances(room, cast)
    for call in (lambda: room.cashier.cash_out(cast.admin, ako, 5_000),
                 lambda: room.cashier.cash_out(cast.boss, ako, 5_000),
                 lambda: room.cashier.cash_out_all(cast.admin, ako, lambda _: ())):
        with pytest.raises(Conflict) as e:
            call()
        assert e.value.rule == "play_money" and "no cash value" in e.value.message and "prize draws" in e.value.message
    assert _balances(room, cast) == before
    assert room.cashier.buy_in(cast.admin, ako, 5_000) == 25_000  # the host may still issue chips


def test_a_walk_in_keeps_their_chips_and_they_count_for_their_guest(room, cast) -> None:
    ev = cast.event.id
    room.events.set_play_money(cast.admin, ev, True)
    ako = _guest(room, cast, "Ako", 10_000)
    first, second = room.tables.open(cast.dealer, "First"), room.tables.open(cast.dealer, "Second")

    async def go() -> None:
        async with local_room(room, Timers()) as local:
            dealer = await local.connect(first.id, cast.dealer)
            await dealer.act("seat_walk_in", seat=1, name="Kenji", amount=2_000)
            await dealer.act("cash_out_walk_in", seat=1)
            there = await local.connect(second.id, cast.dealer)
            await there.act("seat_walk_in", seat=3, name="Kenji", amount=0)  # with the chips kept
            st = await there.wait(lambda s: any(x["seat"] == 3 for x in s["seats"]))
            assert next(x["stack"] for x in st["seats"] if x["seat"] == 3) == 2_000
            await there.act("sell_chips", seat=3, amount=500)
            await there.act("cash_out_walk_in", seat=3)
            await there.act("seat_walk_in", seat=2, name="Hiro", amount=1_000)
            await there.act("cash_out_walk_in", seat=2)

    asyncio.run(go())
    kenji = _named(room, cast, "Kenji")
    hiro = _named(room, cast, "Hiro")
    assert room.ledger.balance(ev, player_key(kenji.id)) == 2_500  # on their name, not paid in cash
    assert room.ledger.balance(ev, cash_key(first.id)) == -2_000  # the donation the dealer holds
    assert room.ledger.balance(ev, cash_key(second.id)) == -1_500
    assert room.ledger.balance(ev, stack_key(second.id, kenji.id)) == 0
    room.walk_ins.link(cast.admin, kenji.id, ako, lambda _: ())
    d = room.draws.create(cast.admin, "Wave 1", {"rate": 1_000}, [{"name": "Hamper", "value": 5_000}])
    d = room.draws.close(cast.admin, d.id)
    held = {h: sum(1 for _, x in d.tickets if x == h) for _, h in d.tickets}
    assert held == {ako: 12, hiro.id: 1}  # Ako: $100 + Kenji's $25; Hiro: $10
    assert room.ledger.balance(ev, player_key(kenji.id)) == 0 and room.ledger.balance(ev, player_key(hiro.id)) == 0
    assert room.ledger.total(ev) == 0 and room.ledger.audit(ev) == []
    rep = night_report.build(room.store, ev)
    assert rep.play_money and rep.agrees and rep.charity is not None and rep.charity.at_tables == 3_500
    text = night_report.text(rep)
    assert "Chips issued" in text and "Chips converted" in text and "Cash-outs" not in text
    assert "no cash value" in text and "Donations at the tables" in text and "$35.00" in text
    page = night_report.html_page(rep)
    assert "<th class=\"num\">Chips converted</th>" in page and "Donations taken at tables" in page
    assert rep.to_json()["play_money"] is True


def test_a_cash_night_is_unchanged(room, cast) -> None:
    """Walk-ins cash out at their table; a draw converts no walk-in's (empty) bankroll."""
    ev = cast.event.id
    ako = _guest(room, cast, "Ako", 10_000)
    t = room.tables.open(cast.dealer, "Cash")

    async def go() -> None:
        async with local_room(room, Timers()) as local:
            dealer = await local.connect(t.id, cast.dealer)
            await dealer.act("seat_walk_in", seat=1, name="Kenji", amount=2_000)
            await dealer.act("cash_out_walk_in", seat=1)
            with pytest.raises(Exception) as e:  # nothing kept: they buy chips to sit
                await dealer.act("seat_walk_in", seat=1, name="Kenji", amount=0)
            assert "no chips kept" in str(e.value)

    asyncio.run(go())
    kenji = _named(room, cast, "Kenji")
    assert room.ledger.balance(ev, player_key(kenji.id)) == 0 and room.ledger.balance(ev, cash_key(t.id)) == 0
    d = room.draws.close(cast.admin, room.draws.create(cast.admin, "W", {"rate": 1_000, "minimum": 1},
                                                       [{"name": "Wine", "value": 0}]).id)
    assert {h for _, h in d.tickets} == {ako}
    room.cashier.buy_in(cast.admin, ako, 1_000)
    assert room.cashier.cash_out(cast.admin, ako, 1_000) == 0  # paid out in money, as ever
    text = night_report.text(night_report.build(room.store, ev))
    assert "Cash-outs" in text and "Chips issued" not in text


def test_the_prizes_stay_under_the_events_cap(room, cast) -> None:
    ev = cast.event.id
    room.events.set_prize_cap(cast.admin, ev, 20_000)
    room.draws.create(cast.admin, "Wave 1", {"rate": 1_000}, [{"name": "Hamper", "value": 15_000}])
    with pytest.raises(Conflict) as e:
        room.draws.create(cast.admin, "Top", None, [{"name": "Wine", "value": 5_001}], kind="top")
    assert e.value.rule == "prize_cap" and "$200.00" in e.value.message and "$150.00" in e.value.message
    assert [d.name for d in room.draws.all(cast.admin)] == ["Wave 1"]
    room.draws.create(cast.admin, "Top", None, [{"name": "Wine", "value": 5_000}], kind="top")  # exactly the cap
    with pytest.raises(Conflict) as c:
        room.events.set_prize_cap(cast.admin, ev, 19_999)
    assert c.value.rule == "prize_cap"
    with pytest.raises(BadRequest):
        room.events.set_prize_cap(cast.admin, ev, -1)
    assert room.events.set_prize_cap(cast.admin, ev, None).prize_cap is None
