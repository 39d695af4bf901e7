"""Walk-ins from the dealer console (docs/walk-ins.md): the dealer opens a table, seats a walk-in
by name with chips sold for cash, starts a round and enters the walk-in's bet with the keyboard
and the console's labelled controls. The ledger and the stored hand agree."""

from __future__ import annotations

from playwright.sync_api import expect

from syndicate.room.ledger import cash_key
from syndicate.room.seating import stack_key
from tests.browser.axe import violations
from tests.browser.steps import sign_in


def test_the_dealer_seats_a_walk_in_and_enters_a_bet(world) -> None:
    dealer = sign_in(world, "dealer", "Bokuden", "/dealer")
    form = dealer.get_by_role("form", name="Open a table")
    form.get_by_label("Table name").fill("Bokuden's walk-ins")
    form.get_by_role("button", name="Open table").click()
    box = dealer.get_by_role("region", name="Bokuden's walk-ins")
    expect(box).to_be_visible()
    with world.room.store.transaction() as repo:
        (table,) = [t for t in repo.tables(world.cast.event.id) if t.name == "Bokuden's walk-ins"]

    walk_in = box.get_by_role("form", name="Seat a walk-in at Bokuden's walk-ins")
    walk_in.get_by_label("Seat").fill("3")
    walk_in.get_by_label("Walk-in's name").fill("Kenji")
    walk_in.get_by_label("Chips bought ($)").fill("50")
    walk_in.get_by_label("Chips bought ($)").press("Enter")  # the keyboard submits the form
    seat = box.get_by_role("group", name="Seat 3 at Bokuden's walk-ins", exact=True)
    expect(seat).to_contain_text("Seat 3: Kenji")
    expect(seat).to_contain_text("walk-in")
    expect(seat).to_contain_text("Chips $50.00")

    box.get_by_role("button", name="Start round at Bokuden's walk-ins").click()
    seat.get_by_label("Amount, dollars, for seat 3 at Bokuden's walk-ins").fill("5")
    bet = seat.get_by_role("button", name="Bet for seat 3 at Bokuden's walk-ins")
    bet.focus()
    dealer.keyboard.press("Enter")
    expect(seat).to_contain_text("Chips $45.00")
    expect(seat).to_contain_text("Bet $5.00")
    assert violations(dealer) == []

    ev = world.cast.event.id
    with world.room.store.transaction() as repo:
        kenji = repo.account_by_name(ev, "Kenji")
        (hand,) = repo.hands(ev, table.id, limit=10)
    assert kenji is not None
    assert world.room.ledger.balance(ev, stack_key(table.id, kenji.id)) == 4_500
    assert world.room.ledger.balance(ev, cash_key(table.id)) == -5_000
    (entry,) = hand.history["rounds"][0]["entered_by"]
    assert (entry["by"], entry["for_seat"], entry["name"]) == (world.cast.dealer.id, 3, "Bokuden")
    assert hand.history["rounds"][0]["log"][entry["at"]]["type"] == "bet"
    # The host's page shows the table's cash: $50.00 expected, not yet counted; a count of $45.00
    # shows as $5.00 short.
    admin = sign_in(world, "host", "admin", "/admin")
    cash = admin.get_by_role("table", name="Tables' cash")
    expect(cash).to_contain_text("Bokuden's walk-ins")
    expect(cash).to_contain_text("$50.00")
    expect(cash).to_contain_text("not counted")
    form = admin.get_by_role("form", name="Record a cash count")
    form.get_by_label("Table").select_option(label="Bokuden's walk-ins (dealer Bokuden)")  # picked, not typed
    form.get_by_label("Cash counted ($)").fill("45")
    form.get_by_role("button", name="Record count").click()
    expect(cash.locator("tbody tr").filter(has_text="Bokuden's walk-ins")).to_contain_text("−$5.00")
    assert not world.notes.get("page_errors")
