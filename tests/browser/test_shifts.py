"""The dealers' shifts in the browser (docs/dealer.md, "Shifts, breaks and handovers"): at a
real-cards Blackjack table run from the tablet, Bokuden (clocked in by opening it) deals a round;
Ryuusei clocks in on his phone; with the next round's bets placed and no card out, Bokuden hands
the table to Ryuusei and goes on a break, his console refused from then on; Ryuusei signs in on
the same tablet page and deals that round with its bets as they were; Bokuden comes back from
his break on his phone and takes the table again, on the same tablet. No seat, stack or bet is
touched by either handover. The admin page shows who is on the floor and the rotation, and the
report each dealer's hands and time at tables. Pictures at a phone's, both tablet and a
desktop's sizes when asked for."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from syndicate.room.seating import stack_key
from tests.kit.room import PASSWORD

from .conftest import picture
from .steps import sign_in, sign_in_page
from .test_real_cards import Console
from .test_tablet import check_screen, decide, open_tablet, seat_tile, seat_walk_ins

TABLE = "Shift table"
PHONE, PORTRAIT, LANDSCAPE, DESKTOP = (390, 844), (768, 1024), (1024, 768), (1280, 800)


def _round(page: Any, con: Console, cards: str) -> None:
    """Deal the round whose bets are in: two cards each and the dealer's (9 up), both stand."""
    con.button("Deal")
    for rank in cards.split():
        con.rank(rank)
    decide(page, con, 1, TABLE, "Stand")
    decide(page, con, 2, TABLE, "Stand")
    expect(con.awaited).to_contain_text("over")


def _tiles(page: Any) -> list[str]:
    """Each seat as its tile shows it: who, chips and bet (not the controls, which are the
    table's dealer's only)."""
    return [seat_tile(page, n, TABLE).inner_text().split("\nAmount")[0] for n in (1, 2)]


def _shift_setup(page: Any) -> Any:
    page.get_by_role("button", name="Setup").click()
    return page.get_by_role("form", name=f"Hand the table over at {TABLE}")


def _hand_over(page: Any, to: str) -> None:
    form = _shift_setup(page)
    expect(form.get_by_label(f"Dealer who takes the table at {TABLE}")).to_contain_text(to)
    form.get_by_label(f"Dealer who takes the table at {TABLE}").select_option(to)
    form.get_by_role("button", name="Hand over and go on a break").click()
    expect(page.locator(".tv-note").first).to_contain_text(f"{to} deals {TABLE} now")
    page.get_by_role("button", name="Back to the round").click()


def _sign_in_here(page: Any, name: str) -> None:
    """Sign out of the tablet's page and sign in as ``name`` on it: the same page, the same table."""
    page.get_by_role("button", name="Sign out").click()
    form = page.get_by_role("form", name="Sign in")  # the page reloads signed out, at the same address
    form.get_by_label("Name").fill(name)
    form.get_by_label("Password").fill(PASSWORD)
    form.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("region", name=TABLE, exact=True)).to_contain_text(f"dealt by {name}")


def test_a_dealer_hands_the_table_over_between_hands_and_comes_back(world: Any) -> None:
    room, cast = world.room, world.cast
    room.accounts.add(cast.event.id, "Ryuusei", "dealer", PASSWORD)
    # Ryuusei clocks in on his phone
    phone = world.page("ryuusei-phone")
    phone.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    sign_in_page(phone, world.url, "Ryuusei", "/dealer")
    phone.get_by_role("button", name="Clock in").click()
    expect(phone.locator("#shift-line")).to_contain_text("You are on the floor since")
    picture(phone, "shifts-phone-clocked-in", full_page=True)

    page, t = open_tablet(world, TABLE, "blackjack", LANDSCAPE, Decks="2",
                          **{"Minimum bet ($)": "5", "Maximum bet ($)": "50"})
    con = Console(page, TABLE, t)
    seat_walk_ins(page, TABLE, [(1, "Aiko", "100"), (2, "Daichi", "100")])
    con.button("Start round")
    decide(page, con, 1, TABLE, "Bet", "10")
    decide(page, con, 2, TABLE, "Bet", "10")
    _round(page, con, "K Q 9 9 8 8")  # 19 and 18 against 17: both win
    # The next round's bets are placed; no card is out. Bokuden hands the table over.
    con.button("Start round")
    decide(page, con, 1, TABLE, "Bet", "15")
    decide(page, con, 2, TABLE, "Bet", "20")
    expect(seat_tile(page, 2, TABLE)).to_contain_text("Bet $20.00")
    before = _tiles(page)
    stacks = lambda: sorted(a.balance for a in room.ledger.accounts(cast.event.id)  # noqa: E731
                            if a.key.startswith(stack_key(t, 0)[:-1]))
    chips = stacks()
    form = _shift_setup(page)
    expect(page.locator(f"#shift-{t}-line")).to_contain_text(f"You are dealing {TABLE}")
    form.scroll_into_view_if_needed()
    check_screen(page)
    picture(page, "shifts-tablet-hand-over-landscape")
    page.set_viewport_size({"width": PORTRAIT[0], "height": PORTRAIT[1]})
    form.scroll_into_view_if_needed()
    check_screen(page)
    picture(page, "shifts-tablet-hand-over-portrait")
    page.set_viewport_size({"width": LANDSCAPE[0], "height": LANDSCAPE[1]})
    page.get_by_role("button", name="Back to the round").click()
    assert form.is_hidden()
    _hand_over(page, "Ryuusei")
    # Bokuden, on a break, is refused at the table with the rule in words
    con.button("Deal")
    refusal = page.locator(".tv-note.error")
    expect(refusal).to_contain_text("You are on a break since")
    expect(refusal).to_contain_text(f"Ryuusei deals {TABLE} now")
    assert _tiles(page) == before and stacks() == chips
    picture(page, "shifts-tablet-refused-landscape")

    _sign_in_here(page, "Ryuusei")
    expect(seat_tile(page, 2, TABLE)).to_contain_text("Bet $20.00")
    assert _tiles(page) == before and stacks() == chips  # no seat disturbed, no bet touched
    _round(page, con, "10 10 9 7 9 8")  # 17 and 19 against 17: a push and a win
    assert room.tables.get(cast.event.id, t).dealer_id != cast.dealer.id

    # Bokuden comes back from his break on his phone, and takes his table again
    boku_phone = world.page("bokuden-phone")
    boku_phone.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    sign_in_page(boku_phone, world.url, "Bokuden", "/dealer")
    expect(boku_phone.locator("#shift-line")).to_contain_text("You are on a break since")
    boku_phone.get_by_role("button", name="Back from my break").click()
    expect(boku_phone.locator("#shift-line")).to_contain_text("You are on the floor since")
    con.button("Start round")
    decide(page, con, 1, TABLE, "Bet", "5")
    decide(page, con, 2, TABLE, "Bet", "5")
    expect(seat_tile(page, 2, TABLE)).to_contain_text("Bet $5.00")
    between = _tiles(page)
    _hand_over(page, "Bokuden")
    _sign_in_here(page, "Bokuden")
    assert _tiles(page) == between
    _round(page, con, "8 8 9 10 10 8")  # 18 and 18 against 17
    assert room.tables.get(cast.event.id, t).dealer_id == cast.dealer.id

    # The admin sees the floor and the rotation: Ryuusei, on his break, is next at the table
    admin = sign_in(world, "admin", "admin", "/admin")
    admin.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
    floor = admin.get_by_role("table", name="Dealers on the floor")
    expect(floor.get_by_role("row", name="Bokuden")).to_contain_text(f"dealing {TABLE}")
    expect(floor.get_by_role("row", name="Ryuusei")).to_contain_text("on a break")
    expect(admin.get_by_role("list", name="The rotation")).to_contain_text(
        f"{TABLE}: Bokuden goes on a break, Ryuusei takes the table")
    panel = admin.get_by_role("region", name="Dealers on the floor")
    panel.scroll_into_view_if_needed()
    picture(panel, "shifts-admin-floor")
    # The report: hands by who dealt them, and the time at tables
    report = admin.context.request.get(world.url + "/api/report").json()
    dealers = {d["dealer"]: d for d in report["dealers"]}
    assert (dealers["Bokuden"]["hands"], dealers["Ryuusei"]["hands"]) == (2, 1)
    assert dealers["Ryuusei"]["tables"] == 1 and dealers["Bokuden"]["seconds"] > 0
    admin.goto(world.url + "/api/report/page")
    dealt = admin.get_by_role("table", name="Dealers: the hands each dealt, and their time at tables")
    expect(dealt.get_by_role("row", name="Ryuusei")).to_contain_text("0 h 0")
    assert world.notes.get("page_errors") is None
