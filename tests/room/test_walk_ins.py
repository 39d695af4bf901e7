"""Walk-ins in the room's services (docs/walk-ins.md): a walk-in's stack left at a table by a
crash is cashed out at the table (they have no bankroll to keep chips in), and the cash check
tells a short count, a stale one and a closed table's uncounted cash apart."""

from __future__ import annotations

import pytest

from syndicate.room.errors import BadRequest, Forbidden
from syndicate.room.ledger import cash_key, now, player_key
from syndicate.room.recovery import void_table
from syndicate.room.seating import seat_walk_in, stack_key

# The ledger: walk-ins' cash and stacks, and their cash-out after a crash, on each backend.
pytestmark = pytest.mark.both_databases


def test_a_crash_cashes_a_walk_in_out_at_the_table(room, cast) -> None:
    ev = cast.event.id
    t = room.tables.open(cast.dealer, "Crashed")
    with room.store.transaction() as repo:
        kenji, *_ = seat_walk_in(repo, t, cast.dealer, "Kenji", 1, 2_000)
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
    """Someone other than the table's dealer counts its cash (a pit boss or the admin): the
    dealer's own count is refused (rule ``count_cash``; ``own_count`` for a pit boss who deals
    the table). ``admin check`` flags a table whose walk-in sales no one else counted (a warning
    while it is open, a problem once closed), a count that differs, and a stale one."""
    ev = cast.event.id
    t = room.tables.open(cast.dealer, "Counted")
    assert room.walk_ins.check(ev) == ([], [])  # no cash taken: nothing to count
    with room.store.transaction() as repo:
        seat_walk_in(repo, t, cast.dealer, "Mariko", 2, 3_000)
    problems, warnings = room.walk_ins.check(ev)
    assert problems == [] and len(warnings) == 1 and "never counted by anyone but its dealer" in warnings[0]
    with pytest.raises(Forbidden) as e:  # the dealer does not count their own sales
        room.walk_ins.count_cash(cast.dealer, t.id, 3_000)
    assert e.value.rule == "count_cash"
    c = room.walk_ins.count_cash(cast.boss, t.id, 2_900)
    assert (c.expected, c.counted, c.by) == (3_000, 2_900, cast.boss.id)
    problems, warnings = room.walk_ins.check(ev)
    assert len(problems) == 1 and "short by $1.00" in problems[0] and warnings == []
    room.walk_ins.count_cash(cast.admin, t.id, 3_000)  # counted again, right this time
    assert room.walk_ins.check(ev) == ([], [])
    with room.store.transaction() as repo:  # a sale after the count: count again (a warning while open)
        seat_walk_in(repo, t, cast.dealer, "Hiro", 3, 1_000)
    problems, warnings = room.walk_ins.check(ev)
    assert problems == [] and "count again" in warnings[0]
    room.tables.set_status(cast.dealer, t.id, "closed")  # closed: the same is a problem
    problems, warnings = room.walk_ins.check(ev)
    assert len(problems) == 1 and "count again" in problems[0] and warnings == []
    # Refusals change nothing: a player counts nothing, a pit boss does not count a table they deal.
    other = room.tables.open(cast.boss, "Jean-Marc's")
    before = room.walk_ins.cash(cast.admin)
    with pytest.raises(Forbidden) as e:
        room.walk_ins.count_cash(cast.alice, t.id, 4_000)
    assert e.value.rule == "count_cash"
    with pytest.raises(Forbidden) as e:
        room.walk_ins.count_cash(cast.boss, other.id, 0)
    assert e.value.rule == "own_count"
    with pytest.raises(BadRequest) as e:
        room.walk_ins.count_cash(cast.boss, t.id, 1.5)
    assert e.value.rule == "counted"
    assert room.walk_ins.cash(cast.admin) == before


def test_a_count_by_its_own_dealer_is_no_count(room, cast) -> None:
    """A count recorded by the table's own dealer (as an older version allowed) is the dealer's
    word, not a count: the check still asks for someone else's, and the cash list shows none."""
    ev = cast.event.id
    t = room.tables.open(cast.dealer, "Own count")
    with room.store.transaction() as repo:
        seat_walk_in(repo, t, cast.dealer, "Aki", 1, 2_000)
        repo.add_cash_count(t.id, 2_000, 2_000, cast.dealer.id, now())
    (tc,) = [x for x in room.walk_ins.cash(cast.admin) if x.table == t.id]
    assert (tc.counted, tc.sold, tc.expected, tc.stale) == (None, 2_000, 2_000, True)
    room.tables.set_status(cast.dealer, t.id, "closed")
    problems, _ = room.walk_ins.check(ev)
    assert len(problems) == 1 and "never counted by anyone but its dealer" in problems[0], problems
