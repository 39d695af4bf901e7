"""Printable receipts (docs/door.md): a payment at the door and a walk-in's cash at a table, two
copies a page, numbered, for the people who may see them."""

from __future__ import annotations

import pytest

from syndicate.room import receipts
from syndicate.room.errors import Forbidden, NotFound
from syndicate.room.recovery import void_table
from syndicate.room.seating import seat_walk_in

pytestmark = pytest.mark.both_databases


def test_a_door_receipt(room, cast) -> None:
    room.door.import_guests(cast.admin, "name\nAko Tanaka\n")
    room.door.set_rate(cast.admin, 2_000, 100_000)
    [g] = room.door.guests(cast.admin, "Ako")
    p = room.door.check_in(cast.boss, g["id"], "card", 2_500)
    r = receipts.door_receipt(room.store, cast.admin, p.id)
    assert r.number == f"D-{p.id}" and r.event == cast.event.name
    assert r.lines == [("Guest", "Ako Tanaka"), ("Paid", "$25.00 (card)"), ("Chips issued", "$1,250.00"),
                       ("Taken by", "Jean-Marc")]
    page = receipts.html_page(r, stylesheet="/x.css")
    assert page.count(f"Receipt D-{p.id}") == 3  # the title and both copies
    assert "the guest's copy" in page and "the house's copy" in page and "<script" not in page
    with pytest.raises(Forbidden):
        receipts.door_receipt(room.store, cast.alice, p.id)
    with pytest.raises(NotFound):
        receipts.door_receipt(room.store, cast.admin, p.id + 1)


def test_a_walk_ins_cash_at_a_table(room, cast) -> None:
    t = room.tables.open(cast.dealer, "Cash table")
    with room.store.transaction() as repo:
        seat_walk_in(repo, t, cast.dealer, "Kenji", 1, 2_000)
    with room.store.transaction() as repo:
        void_table(repo, t)  # the walk-in cashed out at the table
    sold, paid = [x.line for x in room.ledger.explain(cast.event.id, f"cash:{t.id}")]
    r = receipts.table_receipt(room.store, cast.dealer, sold.transaction_id)
    assert r.number == f"T-{sold.transaction_id}"
    assert r.lines[:4] == [("Table", f"Cash table ({t.id})"), ("Player", "Kenji"), ("What", "chips sold for cash"),
                           ("Amount", "$20.00")]
    r = receipts.table_receipt(room.store, cast.boss, paid.transaction_id)
    assert r.lines[1:4] == [("Player", "Kenji"), ("What", "chips bought back for cash"), ("Amount", "$20.00")]
    with pytest.raises(Forbidden):
        receipts.table_receipt(room.store, cast.alice, sold.transaction_id)
    with pytest.raises(NotFound):
        receipts.table_receipt(room.store, cast.admin, 10**6)
