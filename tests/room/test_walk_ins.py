"""Walk-ins in the room's services (docs/walk-ins.md): a walk-in's stack left at a table by a
crash is cashed out at the table (they have no bankroll to keep chips in), and the cash check
tells a short count, a stale one and a closed table's uncounted cash apart."""

from __future__ import annotations

import pytest

from syndicate.room.errors import BadRequest, Forbidden
from syndicate.room.ledger import cash_key, player_key
from syndicate.room.recovery import void_table
from syndicate.room.seating import seat_walk_in, stack_key


def test_a_crash_cashes_a_walk_in_out_at_the_table(room, cast) -> None:
    ev = cast.event.id
    t = room.tables.open(cast.dealer, "Crashed")
    with room.store.transaction() as repo:
        kenji, _ = seat_walk_in(repo, t, cast.dealer, "Kenji", 1, 2_000)
    assert room.ledger.balance(ev, stack_key(t.id, kenji.id)) == 2_000
    assert room.ledger.balance(ev, cash_key(t.id)) == -2_000
    with room.store.transaction() as repo:
        void_table(repo, t)
    assert room.ledger.balance(ev, stack_key(t.id, kenji.id)) == 0
    assert room.ledger.balance(ev, player_key(kenji.id)) == 0
    assert room.ledger.balance(ev, cash_key(t.id)) == 0
    assert room.ledger.audit(ev) == []
    lines = room.ledger.explain(ev, cash_key(t.id))
    assert [x.line.kind for x in lines] == ["walk_in_buy_in", "walk_in_cash_out"]


def test_the_cash_check(room, cast) -> None:
    ev = cast.event.id
    t = room.tables.open(cast.dealer, "Counted")
    assert room.walk_ins.check(ev) == ([], [])  # no cash taken: nothing to count
    with room.store.transaction() as repo:
        seat_walk_in(repo, t, cast.dealer, "Mariko", 2, 3_000)
    problems, warnings = room.walk_ins.check(ev)
    assert problems == [] and len(warnings) == 1 and "never counted" in warnings[0]  # open: a warning
    c = room.walk_ins.count_cash(cast.dealer, t.id, 2_900)
    assert (c.expected, c.counted) == (3_000, 2_900)
    problems, warnings = room.walk_ins.check(ev)
    assert len(problems) == 1 and "short by $1.00" in problems[0] and warnings == []
    room.walk_ins.count_cash(cast.boss, t.id, 3_000)  # counted again, right this time
    assert room.walk_ins.check(ev) == ([], [])
    with room.store.transaction() as repo:  # a sale after the count: count again (a warning while open)
        seat_walk_in(repo, t, cast.dealer, "Hiro", 3, 1_000)
    problems, warnings = room.walk_ins.check(ev)
    assert problems == [] and "count again" in warnings[0]
    room.tables.set_status(cast.dealer, t.id, "closed")  # closed: the same is a problem
    problems, warnings = room.walk_ins.check(ev)
    assert len(problems) == 1 and "count again" in problems[0] and warnings == []
    # Refusals change nothing: a player counts nothing, a dealer counts only their own tables.
    other = room.tables.open(cast.boss, "Jean-Marc's")
    before = room.walk_ins.cash(cast.admin)
    with pytest.raises(Forbidden) as e:
        room.walk_ins.count_cash(cast.alice, t.id, 4_000)
    assert e.value.rule == "count_cash"
    with pytest.raises(Forbidden) as e:
        room.walk_ins.count_cash(cast.dealer, other.id, 0)
    assert e.value.rule == "own_table"
    with pytest.raises(BadRequest) as e:
        room.walk_ins.count_cash(cast.dealer, t.id, 1.5)
    assert e.value.rule == "counted"
    assert room.walk_ins.cash(cast.admin) == before
