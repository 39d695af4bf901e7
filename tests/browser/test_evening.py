"""The whole evening in the browser, as "The host's evening" played it: the admin builds the
room (accounts, the roster: authorize a dealer, revoke one after a confirmation, buy-ins), the
dealer opens a Blackjack and a Five-card draw table, two players play a whole Blackjack round
and a whole draw hand with the keyboard alone (the screen-reader announcements checked as they
go), and the ledger view agrees with the leaderboard while they sit.

One step per test, in order, on one server (the ``world`` fixture). Later steps (the end-of-
night report, charts, a hand replay) are steps 7 and 8. Pictures, when asked
for (conftest.PICTURES): evening-*.png.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from syndicate.room.ledger import player_key
from syndicate.room.seating import stack_key
from tests.kit.room import PASSWORD

from .axe import violations
from .conftest import picture
from .steps import dollars, sign_in


def shot(page, name: str) -> None:
    picture(page, f"evening-{name}", full_page=True)

FOCUSED = """() => { const e = document.activeElement; if (!e || e === document.body) return "";
  return e.getAttribute("aria-label") || (e.labels && e.labels[0] && e.labels[0].textContent) || e.textContent.trim(); }"""


def tab_to(page, name: str, limit: int = 80) -> None:
    """Tab (the keyboard alone) until the control named ``name`` has the focus."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED) == name:
            return
    raise AssertionError(f"{name!r} is not reachable with Tab")


def keyboard_sit(page, seat: int) -> None:
    """Sit with the chips suggested (the bankroll, up to 50 maximum bets), keys only."""
    expect(page.get_by_test_id("connection")).to_have_text("connected")
    # the bankroll's suggestion (the field is drawn empty and takes it when the bankroll arrives)
    expect(page.get_by_label("Chips to bring, dollars")).to_have_value(re.compile(r"^[1-9][0-9]*\.[0-9]{2}$"))
    tab_to(page, f"Sit at seat {seat}")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("stack")).to_contain_text("At this table: $")


def test_step_1_admin_builds_the_room(world) -> None:
    admin = sign_in(world, "admin", "admin", "/admin")
    accounts = admin.get_by_role("form", name="Create an account")
    accounts.get_by_label("Name").fill("Nova")
    accounts.get_by_label("Role").select_option("dealer")
    accounts.get_by_label("Password").fill(PASSWORD)
    accounts.get_by_role("button", name="Create account").click()
    expect(admin.get_by_role("table", name="Accounts").get_by_role("cell", name="Nova", exact=True)).to_be_visible()
    roster = admin.get_by_role("form", name="Authorize a dealer")
    roster.get_by_label("Dealer").fill("Nova")
    roster.get_by_label("Pit boss").select_option("Miles")
    roster.get_by_role("button", name="Authorize").click()
    expect(admin.get_by_role("list", name="Dealers under Miles").get_by_text("Nova")).to_be_visible()
    # Revoke: one click only asks; the dealer goes when the host says yes.
    admin.once("dialog", lambda d: d.dismiss())
    admin.get_by_role("button", name="Revoke Taede").click()
    expect(admin.get_by_role("button", name="Revoke Taede")).to_be_visible()
    admin.once("dialog", lambda d: d.accept())
    admin.get_by_role("button", name="Revoke Taede").click()
    expect(admin.get_by_role("button", name="Revoke Taede")).to_have_count(0)
    for player in ("Alice", "Bob"):
        cashier = admin.locator("#cashier")
        cashier.get_by_label("Player").select_option(label=player)
        cashier.get_by_label("Amount ($)").fill("500")
        cashier.get_by_role("button", name="Buy in").click()
        expect(admin.get_by_text(f"Bought in $500.00 for {player}: bankroll $500.00")).to_be_visible()
    assert world.room.ledger.balance(world.cast.event.id, player_key(world.cast.bob.id)) == 50_000
    shot(admin, "admin")
    assert violations(admin) == []


def test_step_2_the_dealer_opens_both_games(world) -> None:
    dealer = sign_in(world, "dealer", "Nova", "/dealer")
    form = dealer.get_by_role("form", name="Open a table")
    form.get_by_label("Table name").fill("Nova's 21")
    form.get_by_label("Preset").select_option("syndicate")
    form.get_by_role("button", name="Open table").click()
    expect(dealer.get_by_role("region", name="Nova's 21")).to_be_visible()
    form.get_by_label("Table name").fill("Nova's draw")
    form.get_by_label("Game").select_option("poker")
    expect(form.get_by_label("Minimum bet ($)")).to_have_value("0.50")  # the draw preset, not 21's
    form.get_by_role("button", name="Open table").click()
    expect(dealer.get_by_role("region", name="Nova's draw")).to_contain_text("Five-card draw")
    world.tables = {t.game: t.id for t in world.room.tables.lobby(world.cast.event.id) if t.name.startswith("Nova")}
    assert set(world.tables) == {"blackjack", "poker"}
    shot(dealer, "dealer")
    assert violations(dealer) == []
    dealer.set_viewport_size({"width": 1024, "height": 768})  # the dealer's tablet, landscape
    assert dealer.evaluate("document.documentElement.scrollWidth") <= 1024
    shot(dealer, "dealer-tablet")
    dealer.set_viewport_size({"width": 1200, "height": 900})


def test_step_3_a_blackjack_round_with_the_keyboard_alone(world) -> None:
    t = world.tables["blackjack"]
    alice, bob = sign_in(world, "alice", "Alice"), sign_in(world, "bob", "Bob")
    for page, seat in ((alice, 1), (bob, 2)):
        page.goto(f"{world.url}/tables/{t}")
        keyboard_sit(page, seat)
    dealer = world.page("dealer")
    dealer.reload()
    dealer.get_by_role("button", name="Start round at Nova's 21").click()
    for seat, page in ((1, alice), (2, bob)):
        expect(page.get_by_role("button", name="Place bet")).to_be_visible()
        if seat == 2:  # Alice's bet is on Bob's page: no redraw comes while he types
            expect(page.get_by_role("region", name="Seat 1")).to_contain_text("Bet $10.00")
        tab_to(page, "Bet, dollars")
        page.keyboard.press("Control+A")
        page.keyboard.type("10")
        tab_to(page, "Place bet")
        page.keyboard.press("Enter")
    expect(alice.get_by_role("region", name="Seat 2")).to_contain_text("Bet $10.00")
    dealer.get_by_role("button", name="Deal at Nova's 21").click()
    # The first shoe (conftest): Alice 8s 8d, Bob 5c 6d, the dealer 6h up.
    expect(alice.get_by_test_id("announce")).to_contain_text("Dealt to you: 8 of spades, 8 of diamonds.")
    expect(alice.get_by_test_id("announce")).to_contain_text("Your turn.")
    expect(alice.get_by_role("button", name="Stand", exact=True)).to_be_visible()
    alice.keyboard.press("s")
    expect(bob.get_by_test_id("announce")).to_contain_text("Your turn.")
    expect(bob.get_by_role("button", name="Stand", exact=True)).to_be_visible()
    bob.keyboard.press("s")
    for page in (alice, bob):
        expect(page.get_by_role("heading", name="Results of the round")).to_be_visible()
    shot(alice, "blackjack")
    assert violations(alice) == []


def test_step_4_the_ledger_agrees_with_the_leaderboard_while_seated(world) -> None:
    ev = world.cast.event.id
    admin = world.page("admin")
    admin.goto(world.url + "/admin")
    board = {r["player"]: r["balance"] for r in admin.request.get(f"{world.url}/api/events/{ev}/leaderboard").json()}
    ledger = admin.locator("#ledger")
    for acct in (world.cast.alice, world.cast.bob):
        stack = world.room.ledger.balance(ev, stack_key(world.tables["blackjack"], acct.id))
        assert stack > 0  # still seated
        ledger.get_by_label("Player whose ledger to show").select_option(label=acct.name)
        ledger.get_by_role("button", name="Show ledger").click()
        cents = board[acct.name]
        expect(admin.get_by_test_id("ledger-total")).to_have_text(f"${cents // 100:,}.{cents % 100:02d}")
        expect(admin.get_by_role("table", name=f"Chips of {acct.name}")).to_contain_text(
            f"${stack // 100:,}.{stack % 100:02d}")
    shot(admin, "ledger")


def test_step_5_a_draw_hand_with_the_keyboard_alone(world) -> None:
    t = world.tables["poker"]
    players = {"alice": world.page("alice"), "bob": world.page("bob")}
    for page in players.values():
        page.keyboard.press("Tab")  # focus off any redrawn control before leaving by key
        tab_to(page, "Leave seat")
        page.keyboard.press("Enter")
        expect(page.get_by_role("button", name="Sit at seat 1")).to_be_visible()
    for page, seat in ((players["alice"], 1), (players["bob"], 2)):
        page.goto(f"{world.url}/tables/{t}")
        keyboard_sit(page, seat)
    world.page("dealer").reload()
    world.page("dealer").get_by_role("button", name="Deal a hand at Nova's draw").click()
    expect(players["alice"].get_by_test_id("announce")).to_contain_text(re.compile("Dealt to you|Your cards"))
    for _ in range(60):
        if players["alice"].get_by_role("heading", name="Showdown").is_visible():
            break
        for page in players.values():
            version = page.evaluate("window.__syndicate.state.version")
            if page.get_by_role("button", name="Stand pat").count():
                page.keyboard.press("s")
            elif page.locator("[data-action=check]").count():
                page.keyboard.press("k")
            elif page.locator("[data-action=call]").count():
                page.keyboard.press("c")
            else:
                continue
            # The key took: the table moved on (a new state version came).
            page.wait_for_function("(v) => window.__syndicate.state.version > v", arg=version)
    for page in players.values():
        expect(page.get_by_role("heading", name="Showdown")).to_be_visible()
    assert players["alice"].get_by_test_id("winner").all_text_contents()
    # The seat's title on one line, its five cards in one row (at 1200 px, two seats taken).
    alice = players["alice"]
    tops = alice.evaluate("[...document.querySelectorAll('#table .seat.me [data-card]')].map((c) => Math.round(c.getBoundingClientRect().top))")
    assert len(tops) == 5 and len(set(tops)) == 1, tops
    lines = alice.evaluate("""(() => { const t = document.querySelector('#table .seat.me h3 > :first-child');
      return t.getBoundingClientRect().height / parseFloat(getComputedStyle(t).lineHeight || 20); })()""")
    assert lines < 1.5, lines
    shot(players["alice"], "draw")
    assert violations(players["alice"]) == []
    # At tablet size (portrait) the table still fits its width: nothing scrolls sideways.
    alice.set_viewport_size({"width": 768, "height": 1024})
    assert alice.evaluate("document.documentElement.scrollWidth") <= 768
    shot(alice, "draw-tablet")
    alice.set_viewport_size({"width": 1200, "height": 900})


def test_step_6_the_lobby_at_the_end(world) -> None:
    page = world.page("alice")
    page.goto(world.url + "/")
    expect(page.get_by_role("table", name="Leaderboard")).to_contain_text("Bob")
    assert world.room.ledger.audit(world.cast.event.id) == []
    assert not world.notes.get("page_errors"), world.notes.get("page_errors")
    shot(page, "lobby")
    assert violations(page) == []
    # On a phone the rows stack, and each cell still says its column.
    page.set_viewport_size({"width": 390, "height": 844})
    cell = page.get_by_role("table", name="Blackjack tables").locator("tbody td").first
    assert "Table" in cell.evaluate("(td) => getComputedStyle(td, '::before').content")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "lobby-phone")


def test_step_7_the_hands_by_player_and_a_round_replayed(world) -> None:
    """Hand search by player: each hand's players by name with their result, one hand number;
    the Blackjack round of step 3 replayed alone (not its shoe), drawn as the table."""
    ev, t = world.cast.event.id, world.tables["blackjack"]
    with world.room.store.transaction() as repo:
        (hand,) = [x for x in repo.hands(ev, t, limit=100) if x.status == "settled"]
    admin = world.page("admin")
    admin.goto(world.url + "/admin")
    search = admin.get_by_role("form", name="Search hands")
    search.get_by_label("Player").select_option(label="Alice")
    search.get_by_role("button", name="Search").click()
    found = admin.get_by_role("table", name="Hands found")
    row = found.get_by_role("row").filter(has_text=f"Hand {hand.id}")
    expect(row).to_have_count(1)
    nets = hand.history["rounds"][0]["results"]
    players = row.get_by_role("list", name=f"Players of hand {hand.id}")
    for seat, name in (("1", "Alice"), ("2", "Bob")):
        expect(players).to_contain_text(f"{name}: {dollars(nets[seat])}")
    assert "seat 1:" not in found.text_content()
    admin.get_by_role("button", name=f"Replay hand {hand.id}").click()
    region = admin.get_by_role("region", name=f"Replay of hand {hand.id}")
    expect(region.get_by_role("heading", name=re.compile(f"^Hand {hand.id} "))).to_be_visible()
    steps = len(hand.history["rounds"][0]["log"]) + 1  # and the opening frame
    expect(region.get_by_test_id("replay-log").get_by_role("listitem")).to_have_count(steps)
    region.get_by_role("button", name="Last step").click()
    expect(region.get_by_test_id("replay-step")).to_contain_text(f"Step {steps} of {steps}")
    drawn = {c.get_attribute("data-card") for c in region.get_by_test_id("replay-table").locator("[data-card]").all()}
    assert {"8s", "8d", "5c", "6d", "6h"} <= drawn  # the first shoe's deal (conftest)
    region.scroll_into_view_if_needed()
    shot(admin, "replay")
    assert violations(admin) == []


def test_step_8_the_end_of_night_report_and_the_pictures(world) -> None:
    """The host's pictures and the report: the charts draw, the report's totals agree with the
    ledger audit, the CSV holds every ledger line, the printable page; a player's own chips."""
    import csv
    import io

    from syndicate.room import report

    ev = world.cast.event.id
    rep = report.build(world.room.store, ev)
    assert rep.agrees and rep.audit == [] and world.room.ledger.audit(ev) == []
    admin = world.page("admin")
    admin.goto(world.url + "/admin")
    for chart in ("chart-house", "chart-leaders"):
        expect(admin.get_by_test_id(chart).locator("canvas")).to_have_count(1)
    summary = admin.get_by_test_id("report-summary")
    expect(summary).to_contain_text("The totals agree with the ledger audit.")
    expect(summary).to_contain_text(dollars(rep.totals.house_result))
    with admin.expect_download() as dl:
        admin.get_by_test_id("report-csv").click()
    rows = list(csv.DictReader(io.StringIO(open(dl.value.path(), encoding="utf-8").read())))
    assert len(rows) == len(rep.entries) > 0
    admin.locator("#evening").scroll_into_view_if_needed()
    shot(admin, "report")
    assert violations(admin) == []
    printable = admin.context.new_page()
    printable.goto(world.url + "/api/report/page")
    expect(printable.get_by_role("heading", level=1)).to_contain_text("end-of-night report")
    for name in ("Alice", "Bob"):
        expect(printable.get_by_role("table").first).to_contain_text(name)
    assert violations(printable) == []
    printable.close()
    alice = world.page("alice")
    alice.goto(world.url + "/")
    alice.get_by_role("link", name="My evening").click()
    expect(alice.get_by_test_id("chart-mine").locator("canvas")).to_have_count(1)
    mine = rep.players[[p.name for p in rep.players].index("Alice")].chips
    expect(alice.get_by_test_id("my-chips")).to_contain_text(dollars(mine))
    shot(alice, "me")
    assert violations(alice) == []
    assert not world.notes.get("page_errors"), world.notes.get("page_errors")



def test_step_9_the_host_ends_the_night(world) -> None:
    """Ending the event asks first; then every table is closed, none opens, and the page says
    so. The ledger still audits clean."""
    ev = world.cast.event.id
    admin = world.page("admin")
    admin.goto(world.url + "/admin")
    status = admin.get_by_test_id("event-status")
    expect(status).to_contain_text("is on")
    admin.once("dialog", lambda d: d.dismiss())
    admin.get_by_role("button", name="End the event").click()
    expect(status).to_contain_text("is on")
    assert world.room.tables.lobby(ev)  # dismissed: nothing closed
    admin.once("dialog", lambda d: d.accept())
    admin.get_by_role("button", name="End the event").click()
    expect(status).to_contain_text("ended at")
    with world.room.store.transaction() as repo:
        assert {t.status for t in repo.tables(ev)} == {"closed"}
    dealer = world.page("dealer")  # Nova, authorized: only the event's end stops her now
    refused = dealer.request.post(f"{world.url}/api/tables", data={"name": "Late", "game": "blackjack"},
                                  headers={"Origin": world.url})
    assert refused.status == 409 and refused.json()["error"]["rule"] == "event_ended"
    assert world.room.ledger.audit(ev) == []
    shot(admin, "ended")
    assert violations(admin) == []
