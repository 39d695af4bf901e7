"""What a newcomer met running an evening in the browser, each as they met it: one hand number on
the table page and in the admin's search, replay and ledger; an admin page that keeps itself
current (a hand played shows in the house's figures, the totals and the chart without a reload;
a player just created is in the cashier's list at once); a replay in words ("Insurance lost",
"10♠", "26, bust") whose draw hands stay in their seats; a hint that never offers a surrender
that has lapsed; the bet field keeping the last bet; bots tagged "bot"; the open-table form's
name following the game; and, last, every player page saying that the event has ended and to
see the cashier.

The tests run in order on one server (the ``world`` fixture). Alice's Blackjack round is stacked
(tests/browser/conftest.py, NEXT_FIRST_ROUNDS): Alice 9c 5d against the dealer's Ah up and 7c in
the hole (18, no blackjack): she insures, hits 2h (16, where the chart would surrender) and hits
Ts: 26, bust."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from syndicate.apps.client import RoomClient
from syndicate.room.ledger import player_key
from tests.kit.room import PASSWORD

from . import conftest
from .conftest import picture
from .steps import Dealer, dollars, sign_in

DESKTOP = {"width": 1280, "height": 800}
ROUND = "9c Ah 5d 7c 2h Ts"


def shot(page: Any, name: str) -> None:
    picture(page, f"newcomer-{name}", full_page=True)


@pytest.fixture(scope="module")
def night(world) -> dict[str, Any]:
    cast = world.cast
    world.room.cashier.buy_in(cast.admin, cast.alice.id, 50_000)
    world.room.cashier.set_float(cast.admin, 10 * 100 * 500)
    rest = RoomClient(world.url)
    rest.sign_in(cast.event.id, "Bokuden", PASSWORD)
    return {"rest": rest, "token": rest.token or ""}


def test_one_hand_number_and_an_admin_page_that_keeps_up(world, night) -> None:
    admin = sign_in(world, "admin", "admin", "/admin")
    admin.set_viewport_size(DESKTOP)
    figures = admin.get_by_role("table", name="House figures")
    expect(figures).to_be_visible()
    house = admin.get_by_test_id("chart-house")
    summary = admin.get_by_test_id("report-summary")
    expect(summary).to_contain_text("The totals agree")

    # A player created on the page is in the cashier's list at once, and can be bought in.
    accounts = admin.get_by_role("form", name="Create an account")
    accounts.get_by_label("Name").fill("Yuki")
    accounts.get_by_label("Role").select_option("player")
    accounts.get_by_label("Password").fill(PASSWORD)
    accounts.get_by_role("button", name="Create account").click()
    cashier = admin.locator("#cashier")
    expect(cashier.get_by_label("Player").locator("option", has_text="Yuki")).to_have_count(1)
    cashier.get_by_label("Player").select_option(label="Yuki")
    cashier.get_by_label("Amount ($)").fill("50")
    cashier.get_by_role("button", name="Buy in").click()
    expect(admin.get_by_text("Bought in $50.00 for Yuki: bankroll $50.00")).to_be_visible()
    yuki = next(a for a in world.room.accounts.all(world.cast.event.id) if a.name == "Yuki")
    assert world.room.ledger.balance(world.cast.event.id, player_key(yuki.id)) == 5_000
    # ...and in the other lists of players: the ledger and the hand search.
    expect(admin.locator("#ledger").get_by_label("Player whose ledger to show").locator("option", has_text="Yuki")).to_have_count(1)
    expect(admin.locator("#hands").get_by_label("Player").locator("option", has_text="Yuki")).to_have_count(1)

    # A Blackjack round at a table opened after the admin page was loaded.
    conftest.NEXT_FIRST_ROUNDS.append(ROUND)
    table = night["rest"].open_table("Newcomer 21", overrides={"min_bet": 100, "max_bet": 2_000})["id"]
    world.tables["newcomer"] = table
    dealer = Dealer(world.url, table, night["token"])
    try:
        alice = sign_in(world, "alice", "Alice")
        alice.set_viewport_size(DESKTOP)
        alice.goto(f"{world.url}/tables/{table}")
        expect(alice.get_by_test_id("connection")).to_have_text("connected")
        alice.get_by_label("Chips to bring, dollars").fill("200")
        alice.get_by_role("button", name="Sit at seat 1").click()
        expect(alice.get_by_test_id("stack")).to_have_text("At this table: $200.00")
        dealer.act("start_round")
        expect(alice.get_by_test_id("hand-number")).to_have_text("New hand")  # no bet yet: not stored
        bet = alice.get_by_label("Bet, dollars")
        expect(bet).to_have_value("1.00")  # her first round here: the table's minimum
        bet.fill("10")
        alice.get_by_role("button", name="Place bet").click()
        expect(alice.get_by_role("region", name="Seat 1")).to_contain_text("Bet $10.00")
        shown = alice.get_by_test_id("hand-number").text_content()
        assert re.fullmatch(r"Hand \d+", shown or ""), shown
        number = int(shown.split()[1])
        with world.room.store.transaction() as repo:
            stored = repo.hand(number)
        assert stored is not None and stored.table_id == table  # the number is the hand's own id
        dealer.act("deal")

        # Insurance against the Ace (the full amount, by its key), then her 14.
        expect(alice.get_by_role("button", name="Insurance", exact=True)).to_be_visible()
        alice.keyboard.press("i")
        expect(alice.get_by_role("region", name="Seat 1")).to_contain_text("Insurance $5.00")
        expect(alice.get_by_role("group", name="Alice, hand 1, to play")).to_contain_text("14")
        alice.get_by_role("button", name="Hit").click()
        expect(alice.get_by_role("group", name="Alice, hand 1, to play")).to_contain_text("16")
        # Hard 16 against an Ace: this table's chart surrenders, but a surrender has lapsed
        # after a hit; the hint names what she may do.
        odds = alice.request.get(f"{world.url}/api/tables/{table}/odds").json()
        assert odds["chart"]["hard"]["16"]["A"].startswith("R"), odds["chart"]["hard"]["16"]
        legal = alice.evaluate("window.__syndicate.state.round.legal_actions")
        assert "surrender" not in legal and "hit" in legal
        expect(alice.get_by_test_id("hint")).to_have_text("Basic strategy: hit", timeout=20_000)
        alice.get_by_role("button", name="Hit").click()
        expect(alice.get_by_role("heading", name="Results of the round")).to_be_visible()
        own = alice.get_by_role("group", name="Alice, hand 1")
        expect(own).to_contain_text("26 · $10.00 bust")  # "bust" beside the total over 21
        expect(alice.get_by_test_id("hand-number")).to_have_text(f"Hand {number}")
        shot(alice, "table-bust")

        # The admin's page, not reloaded: the figures, the totals and the chart have the hand.
        row = figures.get_by_role("row", name=re.compile("Newcomer 21"))
        expect(row).to_contain_text(dollars(1_500), timeout=15_000)  # her $10 bet and $5 insurance
        expect(summary).to_contain_text(f"House result {dollars(1_500)}", timeout=15_000)
        expect(house.locator(".u-legend")).to_contain_text(f"Newcomer 21 (table {table})", timeout=15_000)
        shot(admin, "admin-live")
        for w, h in ((390, 844), (768, 1024), (1024, 768), (1280, 800)):  # the charts' labels at each size
            admin.set_viewport_size({"width": w, "height": h})
            picture(admin.locator("#evening"), f"newcomer-evening-{w}")
        admin.set_viewport_size(DESKTOP)

        # The same number in the admin's search by player, the replay and her ledger.
        admin.reload()
        search = admin.get_by_role("form", name="Search hands")
        search.get_by_label("Player").select_option(label="Alice")
        search.get_by_role("button", name="Search").click()
        found = admin.get_by_role("table", name="Hands found")
        expect(found.get_by_role("row", name=re.compile(f"Hand {number} "))).to_contain_text(f"table {table}")
        admin.get_by_role("button", name=f"Replay hand {number}").click()
        replay = admin.get_by_role("region", name=f"Replay of hand {number}")
        expect(replay.get_by_role("heading", name=re.compile(f"^Hand {number} "))).to_be_visible()
        log = replay.get_by_test_id("replay-log")
        expect(log).to_contain_text("The dealer shows A♥")
        expect(log).to_contain_text("Alice is dealt 10♠")  # a ten as people write it, never "T"
        expect(log).to_contain_text("Alice: Insurance lost, −$5.00")
        expect(log).not_to_contain_text("insurance_lose")
        expect(log).not_to_contain_text("insurance lose")
        replay.get_by_role("button", name="Last step").click()
        expect(replay.get_by_test_id("replay-table")).to_contain_text("26, bust")
        replay.scroll_into_view_if_needed()
        shot(admin, "replay-words")
        # the ledger's CSV: the hand's lines carry its number, and their memos say it too
        rows = list(csv.DictReader(io.StringIO(admin.request.get(world.url + "/api/report/ledger.csv").text())))
        mine = [x for x in rows if x["hand"] == str(number)]
        assert mine and all(x["memo"].endswith(f", hand {number}") for x in mine), mine
        assert any(x["memo"] == f"Alice at seat 1: bet, hand {number}" for x in mine), mine

        # The next round: the bet field offers her last bet, and so does the page reloaded.
        dealer.act("start_round")
        expect(alice.get_by_label("Bet, dollars")).to_have_value("10.00")
        alice.reload()
        expect(alice.get_by_label("Bet, dollars")).to_have_value("10.00")
        # ...within the table's limits: a kept bet over the maximum offers the maximum
        alice.evaluate(f"localStorage.setItem('syndicate.bet.{table}', '99900')")
        alice.reload()
        expect(alice.get_by_label("Bet, dollars")).to_have_value("20.00")
    finally:
        dealer.close()
    assert not world.notes.get("page_errors"), world.notes.get("page_errors")


def test_the_replay_says_a_take_back_in_words(world) -> None:
    """At a real-cards table the dealer takes back a card entered wrongly: the replay says whose
    and which card (a hole card never shown stays "face down"), a ten is 10."""
    doc = {"game": "blackjack", "rounds": [{"number": 1, "hand_id": 41, "stacks": {"1": 1000}, "log": [
        {"type": "bet", "seat": 1, "amount": 100}, {"type": "deal", "seats": [1], "shoe_position": 0},
        {"type": "take_back", "seat": 1, "hand": 0, "card": "Ks", "face_up": True},
        {"type": "card", "seat": 1, "hand": 0, "card": "Ts", "face_up": True},
        {"type": "card", "seat": -1, "hand": 0, "card": "9h", "face_up": True},
        {"type": "take_back", "seat": -1, "hand": 0, "card": None, "face_up": False}]}]}
    page = world.page("admin")
    page.goto(world.url + "/admin")
    texts = page.evaluate("""async ([doc]) => { const m = await import("/static/js/replay.js");
      return m.frames(doc, { id: 41, number: 1, players: [{ seat: 1, name: "Ann" }] }).map((f) => f.text); }""", [doc])
    assert "Ann's card taken back (K♠): a correction" in texts
    assert "Ann is dealt 10♠" in texts
    assert "The dealer's hole card taken back (face down): a correction" in texts
    assert not any("take_back" in t or "Ts" in t for t in texts), texts


def test_bots_are_tagged_and_a_draw_replay_keeps_each_hand_in_its_seat(world, night) -> None:
    table = night["rest"].open_table("Newcomer draw", game="poker")["id"]
    dealer = Dealer(world.url, table, night["token"])
    try:
        alice = world.page("alice")
        alice.set_viewport_size(DESKTOP)
        alice.goto(f"{world.url}/tables/{table}?watch=1")
        expect(alice.get_by_test_id("connection")).to_have_text("connected")
        dealer.act("add_bots", count=5)
        seats = alice.locator("#table .seat:not(.empty)")
        expect(seats).to_have_count(5)
        for i in range(5):
            expect(seats.nth(i).locator(".tag")).to_have_text("bot")
        dealer.act("start_round")  # the bots play it out among themselves
        alice.wait_for_function("() => window.__syndicate.state.round && window.__syndicate.state.round.phase === 'complete'",
                                timeout=20_000)
        # The dealer's tablet tags each bot "bot", not "own phone".
        tablet = sign_in(world, "dealer", "Bokuden", f"/dealer/tables/{table}")
        tiles = tablet.get_by_role("group", name=re.compile(r"^Seat \d at Newcomer draw$"))
        expect(tiles).to_have_count(5)
        for i in range(5):
            expect(tiles.nth(i).locator(".tag.kind")).to_have_text("bot")
        shot(tablet, "tablet-bots")
    finally:
        dealer.close()

    admin = world.page("admin")
    admin.goto(world.url + "/admin")
    search = admin.get_by_role("form", name="Search hands")
    search.get_by_label("Table number").fill(str(table))
    search.get_by_role("button", name="Search").click()
    admin.get_by_role("button", name=re.compile("^Replay hand")).first.click()
    replay = admin.get_by_role("region", name=re.compile("^Replay of hand"))
    replay.get_by_role("button", name="Last step").click()
    for size in ((1280, 800), (390, 844)):
        admin.set_viewport_size({"width": size[0], "height": size[1]})
        outside = admin.evaluate("""() => {
          const bad = [];
          for (const seat of document.querySelectorAll('[data-testid=replay-table] .seat')) {
            const s = seat.getBoundingClientRect();
            for (const c of seat.querySelectorAll('[data-card]')) {
              const r = c.getBoundingClientRect();
              if (r.left < s.left - 0.5 || r.right > s.right + 0.5) bad.push(`${seat.textContent.slice(0, 20)}: ${c.dataset.card}`);
            }
          }
          return bad; }""")
        assert outside == [], (size, outside)
        replay.scroll_into_view_if_needed()
        picture(replay, f"newcomer-draw-replay-{size[0]}")


def test_the_open_table_form_names_the_table_after_its_game(world) -> None:
    dealer = world.page("dealer")  # signed in at the tablet above
    dealer.goto(world.url + "/dealer")
    form = dealer.get_by_role("form", name="Open a table")
    name = form.get_by_label("Table name")
    expect(name).to_have_value("Bokuden's 21")
    form.get_by_label("Game").select_option("poker")
    expect(name).to_have_value("Bokuden's draw")
    form.get_by_label("Game").select_option("blackjack")
    expect(name).to_have_value("Bokuden's 21")
    name.fill("The back room")  # a name the dealer typed stays
    form.get_by_label("Game").select_option("poker")
    expect(name).to_have_value("The back room")


def test_every_player_page_says_the_event_has_ended(world) -> None:
    admin = world.page("admin")
    alice = world.page("alice")
    alice.goto(world.url + "/")
    expect(alice.get_by_role("table", name="Leaderboard")).to_be_visible()
    r = admin.request.get(world.url + "/api/events")
    ev = next(e for e in r.json() if e["current"])
    assert admin.request.post(f"{world.url}/api/events/{ev['id']}/end").ok
    # The lobby that was open says so by itself, as it refreshes.
    notice = alice.get_by_role("alert").filter(has_text="has ended")
    expect(notice).to_contain_text("See the cashier", timeout=10_000)
    for path in ("/me", "/", f"/tables/{world.tables['newcomer']}"):
        alice.goto(world.url + path)
        expect(alice.get_by_role("alert").filter(has_text="has ended")).to_contain_text(
            "No more hands are dealt. See the cashier")
    for size in ((390, 844), (1280, 800)):
        alice.set_viewport_size({"width": size[0], "height": size[1]})
        alice.goto(world.url + "/")
        expect(alice.get_by_role("alert").filter(has_text="has ended")).to_be_visible()
        shot(alice, f"ended-{size[0]}")
    admin.goto(world.url + "/admin")
    expect(admin.get_by_role("alert").filter(has_text="has ended")).to_contain_text("players cash out")
