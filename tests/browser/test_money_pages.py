"""The money pages in the browser (docs/walk-ins.md, docs/server.md): the host sets the chip sale
limit on the admin page; a sale above it waits on the dealer's tablet (no chip moves) until a
pit boss approves it on the admin page; the tablet seats bots with the chips the dealer chose;
the count form picks its table from those that took walk-ins' cash, and the dealer's own table
is not offered to a pit boss who deals it; the cashier cashes out a player's whole bankroll
(refused, with its rule, while their chips are at a table). The admin page and the tablet laid
out at 390x844, 768x1024, 1024x768 and 1280x800, pictured when asked for (money-*.png)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from syndicate.room.ledger import cash_key, player_key
from syndicate.room.seating import stack_key

from .axe import violations
from .conftest import picture
from .steps import laid_out, sign_in

SIZES = {"phone": (390, 844), "portrait": (768, 1024), "landscape": (1024, 768), "desktop": (1280, 800)}


def shots(page: Any, name: str, region: Any = None) -> None:
    """``page`` (or one ``region`` of it) at every size, as money-<name>-<size>.png."""
    for size, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        laid_out(page)
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 1, f"{name} at {size}: {overflow}px wider than the screen"
        target = region if region is not None else page
        kw = {} if region is not None else {"full_page": True}
        picture(target, f"money-{name}-{size}", **kw)
    page.set_viewport_size({"width": 1280, "height": 800})


def tile(page: Any, seat: int, table: str) -> Any:
    return page.get_by_role("group", name=f"Seat {seat} at {table}", exact=True)


def test_a_big_sale_waits_on_the_tablet_until_a_pit_boss_approves(world: Any) -> None:
    ev = world.cast.event.id
    table = "Big sales"
    admin = sign_in(world, "host", "admin", "/admin")
    limit = admin.get_by_role("form", name="Set the chip sale limit")
    limit.get_by_label("Sales above ($) wait for approval").fill("100")
    limit.get_by_role("button", name="Set limit").click()
    expect(admin.get_by_test_id("sale-limit")).to_contain_text("A chip sale above $100.00 waits")
    assert world.room.accounts.event(ev).sale_limit == 10_000
    expect(admin.locator("#walk-ins")).to_contain_text("No table has taken walk-ins' cash for you to count yet.")
    shots(admin, "admin-sale-limit", admin.locator("#chip-sales").locator("xpath=.."))

    t = world.room.tables.open(world.cast.dealer, table, overrides={"min_bet": 100, "max_bet": 2_000})
    dealer = sign_in(world, "dealer", "Bokuden", f"/dealer/tables/{t.id}")
    dealer.set_viewport_size({"width": 1024, "height": 768})
    expect(dealer.locator(f"#live-{t.id}")).to_contain_text("0 seated")
    dealer.get_by_role("button", name="Setup").click()
    form = dealer.get_by_role("form", name=f"Seat a walk-in at {table}")
    form.get_by_label("Seat", exact=True).fill("1")
    form.get_by_label("Walk-in's name").fill("Kaito")
    form.get_by_label("Chips bought ($)").fill("500")
    form.get_by_role("button", name="Seat a walk-in").click()
    rows = dealer.get_by_role("group", name=f"Walk-ins' chips at {table}")
    expect(rows).to_contain_text("Seat 1: Kaito, $0.00 ($500.00 waiting for a pit boss's approval)")
    dealer.get_by_role("button", name="Back to the round").click()
    seat = tile(dealer, 1, table)
    expect(seat).to_contain_text("Chips $0.00")
    expect(seat).to_contain_text("$500.00 waiting for a pit boss's approval")
    assert violations(dealer) == []
    shots(dealer, "tablet-sale-waiting")
    assert [a.key for a in world.room.ledger.accounts(ev) if a.key == cash_key(t.id)] == []  # no chip moved

    boss = sign_in(world, "boss", "Jean-Marc", "/admin")
    waiting = boss.get_by_role("list", name="Chip sales waiting for approval")
    expect(waiting).to_contain_text("Kaito")  # it shows up by itself
    expect(waiting).to_contain_text("$500.00")
    expect(waiting).to_contain_text("Bokuden")
    assert violations(boss) == []
    shots(boss, "admin-sale-waiting", boss.locator("#chip-sales").locator("xpath=.."))
    shots(boss, "admin")
    boss.get_by_role("button", name="Approve $500.00 for Kaito").click()
    expect(boss.locator("#chip-sales")).to_contain_text("No sale is waiting.")
    expect(seat).to_contain_text("Chips $500.00")
    expect(seat).not_to_contain_text("waiting")
    with world.room.store.transaction() as repo:
        kaito = repo.account_by_name(ev, "Kaito")
    assert kaito is not None and world.room.ledger.balance(ev, stack_key(t.id, kaito.id)) == 50_000
    assert world.room.ledger.balance(ev, cash_key(t.id)) == -50_000

    # Bots with the chips the dealer chose, from the tablet's setup.
    world.room.cashier.set_float(world.cast.admin, 10_000)
    dealer.get_by_role("button", name="Setup").click()
    chips = dealer.get_by_label(f"Chips per bot at {table}, dollars")
    expect(chips).to_have_attribute("placeholder", "2000.00")  # the default: 100 maximum bets
    dealer.get_by_label(f"Bots to seat at {table}").fill("2")
    chips.fill("25")
    dealer.get_by_role("button", name=f"Seat bots at {table}").click()
    expect(dealer.locator(f"#live-{t.id}")).to_contain_text("3 seated")
    shots(dealer, "tablet-setup-bots")
    dealer.get_by_role("button", name="Back to the round").click()
    expect(tile(dealer, 2, table)).to_contain_text("Chips $25.00")
    expect(tile(dealer, 3, table)).to_contain_text("Chips $25.00")
    expect(tile(dealer, 1, table).locator(".tile-info")).to_have_text("Seat 1: Kaitowalk-inChips $500.00")  # nothing more
    shots(dealer, "tablet-approved")
    assert world.room.cashier.float_status(ev)["remaining"] == 5_000
    assert not world.notes.get("page_errors"), world.notes.get("page_errors")


def test_the_count_picks_its_table_and_the_cashier_cashes_out_everything(world: Any) -> None:
    ev = world.cast.event.id
    world.room.cashier.buy_in(world.cast.admin, world.cast.alice.id, 4_000)
    counted = world.room.tables.open(world.cast.dealer, "Counted table")
    own = world.room.tables.open(world.cast.boss, "Jean-Marc deals")
    from syndicate.room.seating import seat_walk_in, sit_down

    with world.room.store.transaction() as repo:
        seat_walk_in(repo, counted, world.cast.dealer, "Sachi", 1, 3_000)
        seat_walk_in(repo, own, world.cast.boss, "Riku", 1, 1_000)
        sit_down(repo, own, world.cast.alice, 2, 1_500)  # Alice's chips at a table, in the ledger
    boss = sign_in(world, "boss2", "Jean-Marc", "/admin")
    form = boss.get_by_role("form", name="Record a cash count")
    picker = form.get_by_label("Table")
    expect(picker.locator("option", has_text="Counted table (dealer Bokuden)")).to_have_count(1)
    assert picker.locator("option", has_text="Jean-Marc deals").count() == 0  # his own: another counts it
    picker.select_option(label="Counted table (dealer Bokuden)")
    form.get_by_label("Cash counted ($)").fill("30")
    form.get_by_role("button", name="Record count").click()
    row = boss.get_by_role("table", name="Tables' cash").locator("tbody tr").filter(has_text="Counted table")
    expect(row).to_contain_text("$30.00")
    expect(row).to_contain_text("no")  # count again: no
    shots(boss, "admin-count", boss.locator("#walk-ins").locator("xpath=.."))
    ((_, count),) = [(c.table, c) for c in world.room.walk_ins.cash(world.cast.admin) if c.table == counted.id]
    assert (count.counted, count.difference) == (3_000, 0)

    # The cashier: everything, refused while Alice's chips are at a table, then paid once she left.
    cashier = boss.locator("#cashier")
    cashier.get_by_label("Player").select_option(label="Alice")
    asked: list[str] = []
    boss.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    cashier.get_by_role("button", name="Cash out everything").click()
    expect(boss.locator('#toasts [data-rule="at_table"]')).to_contain_text("Alice has chips at table")
    assert asked == ["Cash out all of Alice's bankroll? Pay them every chip it holds."]
    assert world.room.ledger.balance(ev, player_key(world.cast.alice.id)) == 2_500
    from syndicate.room.recovery import void_table

    with world.room.store.transaction() as repo:
        void_table(repo, own)  # she leaves: her stack back to her bankroll
    boss.once("dialog", lambda d: d.accept())
    cashier.get_by_role("button", name="Cash out everything").click()
    expect(boss.locator("#toasts")).to_contain_text("Cashed out everything for Alice: $40.00")
    assert world.room.ledger.balance(ev, player_key(world.cast.alice.id)) == 0
    assert violations(boss) == []
    shots(boss, "admin-cashier", cashier.locator("xpath=.."))
    assert world.room.ledger.audit(ev) == []
    assert not world.notes.get("page_errors"), world.notes.get("page_errors")
