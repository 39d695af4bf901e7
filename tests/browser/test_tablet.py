"""The dealer's tablet (docs/dealer.md): the console of one table at /dealer/tables/{id}, held in
one hand at a busy table, at 1024×768 (landscape) and 768×1024 (portrait).

At each size the dealer runs a real-cards Blackjack table for two walk-ins, entering their bets
and decisions and every card from the tablet: a split and two doubles, a card taken back, a card
the one-deck shoe cannot hold refused; the payouts shown and the chips after are checked against
the ledger. Then a five-card draw hand between two walk-ins where one bets and the other folds:
the cards are dealt face down and nothing is entered (the showdown's entry, its refusals and
take-backs are tests/browser/test_real_draw.py's). All the while the page does not scroll, every
tap target is at least 48 px, and only the legal decisions of the seat to act are offered. The
table's join code (a QR code of its page) is read back from the screen by a decoder, as the
lobby's is. Pictures at phone, tablet (both ways) and desktop sizes when asked for
(conftest.PICTURES).
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from playwright.sync_api import expect

from syndicate.room.seating import stack_key

from .axe import violations
from .conftest import picture
from .steps import hand_id, sign_in
from .test_real_cards import Console, open_real_table

SIZES = {"landscape": (1024, 768), "portrait": (768, 1024)}
PHONE, DESKTOP = (390, 844), (1440, 900)
#: Walk-ins per size (a walk-in sits at one table at a time).
NAMES = {"landscape": ("Kenji", "Mariko", "Hana", "Taro"), "portrait": ("Hiro", "Yuki", "Sora", "Ren")}


def decode_qr(locator: Any) -> str:
    """What a scanner reads in the QR code as the screen shows it (zxing-cpp, over a screenshot).
    Like a scanner, it looks again for a few seconds: on a busy machine the first screenshot may
    come before the code is painted (an image can be loaded and decoded a frame before)."""
    import time

    import zxingcpp
    from PIL import Image

    deadline = time.monotonic() + 5
    while True:
        found = zxingcpp.read_barcodes(Image.open(io.BytesIO(locator.screenshot())))
        if len(found) == 1 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert len(found) == 1, found
    return str(found[0].text)


def loaded(page: Any, img: Any) -> None:
    """The image is loaded, decoded and painted (two animation frames after its decode)."""
    expect(img).to_be_visible()
    page.wait_for_function("(el) => el.complete && el.naturalWidth > 0", arg=img.element_handle())
    page.evaluate("(el) => el.decode().then(() => new Promise((done) => requestAnimationFrame(() => "
                  "requestAnimationFrame(done))))", img.element_handle())


def fits(page: Any) -> None:
    """No scrolling: the page is no taller and no wider than the screen."""
    height, inner, width, inner_w = page.evaluate(
        "() => [document.documentElement.scrollHeight, innerHeight, document.documentElement.scrollWidth, innerWidth]")
    assert height <= inner and width <= inner_w, (height, inner, width, inner_w)


def small_targets(page: Any) -> list[str]:
    """The tablet's visible controls smaller than 48 px (an input: less than 48 px high)."""
    return page.evaluate("""() => [...document.querySelectorAll('.tv button, .tv a.button, .tv input, .tv select')]
      .filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden')
      .map((el) => [el.getAttribute('aria-label') || el.textContent.trim() || el.outerHTML.slice(0, 60), el.getBoundingClientRect(), el.tagName])
      .filter(([, r, tag]) => r.height < 48 || (tag !== 'INPUT' && tag !== 'SELECT' && r.width < 48))
      .map(([name, r]) => `${name}: ${Math.round(r.width)}x${Math.round(r.height)}`)""")


def small_text(page: Any) -> list[str]:
    """The tablet's visible text smaller than 14 px (the faces of the cards are pictures, with
    their names for a screen reader: not counted)."""
    return page.evaluate("""() => [...document.querySelectorAll('.tv *')]
      .filter((el) => !el.closest('svg') && el.getClientRects().length
        && [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim()))
      .map((el) => [el.textContent.trim().slice(0, 40), parseFloat(getComputedStyle(el).fontSize)])
      .filter(([, px]) => px < 14)
      .map(([text, px]) => `${text}: ${px}px`)""")


def check_screen(page: Any) -> None:
    fits(page)
    assert small_targets(page) == []
    assert small_text(page) == []


def payouts_in_view(page: Any, table: str) -> None:
    """Every line of the payouts that moves money is on the screen whole, without scrolling the
    box (a crowded table's box may scroll, but only for the seats with nothing to pay or take)."""
    hidden = page.get_by_role("region", name=f"Payouts at {table}").evaluate("""(box) => {
      const b = box.getBoundingClientRect();
      return [...box.querySelectorAll('li.pay, li.take')].map((li) => [li.textContent, li.getBoundingClientRect()])
        .filter(([, r]) => r.top < b.top || r.bottom > b.bottom || r.left < b.left || r.right > b.right)
        .map(([text]) => text); }""")
    assert hidden == []


def shot(page: Any, name: str) -> None:
    picture(page, f"tablet-{name}")


def other_sizes(page: Any, back: tuple[int, int], name: str) -> None:
    """The same moment at a phone's size and a desktop's (pictures only: the phone scrolls)."""
    for label, (w, h) in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size({"width": w, "height": h})
        expect(page.locator(".tv-body")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), label  # never sideways
        picture(page, f"tablet-{name}-{label}", full_page=label == "phone")
    page.set_viewport_size({"width": back[0], "height": back[1]})


def seat_tile(page: Any, n: int, table: str) -> Any:
    return page.get_by_role("group", name=f"Seat {n} at {table}", exact=True)


def expect_offered(page: Any, n: int, table: str, labels: list[str]) -> None:
    """The tablet offers exactly these decisions for seat ``n`` (its visible buttons), once the
    state says so."""
    buttons = page.get_by_role("group", name=f"Act for seat {n} at {table}", exact=True).get_by_role("button")
    visible = buttons.filter(visible=True)
    if labels:
        expect(visible).to_have_text(labels)
    else:
        expect(visible).to_have_count(0)


def open_tablet(world: Any, name: str, game: str, size: tuple[int, int], **fields: str) -> tuple[Any, int]:
    """Open a real-cards table from the console, then its tablet view."""
    dealer, table_id = open_real_table(world, name, game, **fields)
    dealer.set_viewport_size({"width": size[0], "height": size[1]})
    dealer.get_by_role("link", name=f"Tablet view of {name}").click()
    expect(dealer).to_have_url(f"{world.url}/dealer/tables/{table_id}")
    expect(dealer.get_by_role("region", name=name, exact=True)).to_contain_text("real cards")
    expect(dealer.locator(f"#live-{table_id}")).to_contain_text("0 seated")
    return dealer, table_id


def seat_walk_ins(page: Any, table: str, walk_ins: list[tuple[int, str, str]]) -> None:
    setup = page.get_by_role("button", name="Setup")
    setup.click()
    expect(setup).to_have_attribute("aria-expanded", "true")
    form = page.get_by_role("form", name=f"Seat a walk-in at {table}")
    for seat, name, chips in walk_ins:
        form.get_by_label("Seat", exact=True).fill(str(seat))
        form.get_by_label("Walk-in's name").fill(name)
        form.get_by_label("Chips bought ($)").fill(chips)
        form.get_by_role("button", name="Seat a walk-in").click()
        expect(page.get_by_role("group", name=f"Walk-ins' chips at {table}")).to_contain_text(f"Seat {seat}: {name}")
    check_screen(page)
    assert violations(page) == []
    page.get_by_role("button", name="Back to the round").click()
    expect(page.get_by_role("group", name=f"Setup at {table}")).to_be_hidden()


def join_code_reads_back(world: Any, page: Any, table: str, table_id: int) -> None:
    page.get_by_role("button", name=f"Show the join code of {table}").click()
    dialog = page.get_by_role("dialog", name=f"Scan to join {table}")
    url = f"{world.url}/tables/{table_id}"
    expect(dialog).to_contain_text(url)
    img = dialog.get_by_role("img", name=f"QR code of {url}")
    loaded(page, img)
    assert decode_qr(img) == url
    shot(page, "join-code")
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_be_hidden()


def decide(page: Any, con: Console, n: int, table: str, action: str, amount: str | None = None) -> None:
    """The dealer enters seat ``n``'s decision: in its tile while bets are open, over the pad when
    it is that seat's turn."""
    group = page.get_by_role("group", name=f"Act for seat {n} at {table}", exact=True)
    if amount is not None:
        group.get_by_label(f"Amount, dollars, for seat {n} at {table}").fill(amount)
    group.get_by_role("button", name=f"{action} for seat {n} at {table}", exact=True).click()
    con.taps += 1


@pytest.mark.parametrize("size", list(SIZES))
def test_the_dealer_runs_a_table_from_the_tablet(world: Any, size: str) -> None:
    w, h = SIZES[size]
    first, second, third, fourth = NAMES[size]
    table = f"Tablet 21 {size}"
    page, t = open_tablet(world, table, "blackjack", (w, h), Decks="1",
                          **{"Minimum bet ($)": "5", "Maximum bet ($)": "50"})
    con = Console(page, table, t)
    seat_walk_ins(page, table, [(1, first, "100"), (2, second, "100")])
    join_code_reads_back(world, page, table, t)

    con.button("Start round")
    expect(con.awaited).to_have_text("Bets are open: deal when they are in")
    expect_offered(page, 1, table, ["Bet"])  # only what the seat may do now
    # Seat 2's bet is being typed when a state arrives (seat 1's bet, entered on a second console,
    # the list at /dealer): the field keeps the focus and every key.
    amount = page.get_by_label(f"Amount, dollars, for seat 2 at {table}")
    amount.click()
    page.keyboard.type("1")
    other = sign_in(world, f"console-{size}", "Bokuden", "/dealer")
    elsewhere = other.get_by_role("group", name=f"Act for seat 1 at {table}", exact=True)
    elsewhere.get_by_label(f"Amount, dollars, for seat 1 at {table}").fill("10")
    elsewhere.get_by_role("button", name=f"Bet for seat 1 at {table}").click()
    expect(seat_tile(page, 1, table)).to_contain_text("Bet $10.00")
    expect(amount).to_be_focused()
    page.keyboard.type("0")
    expect(amount).to_have_value("10")
    page.get_by_role("button", name=f"Bet for seat 2 at {table}").click()
    con.taps += 2  # the field, and Bet
    expect(seat_tile(page, 2, table)).to_contain_text("Bet $10.00")
    check_screen(page)
    con.button("Deal")
    con.expect_next("seat 1's first card")
    con.suit("spades")
    con.rank("8")  # 8♠
    con.expect_next("seat 2's first card")
    con.rank("7")  # a mistake: the card is a 5 ...
    con.expect_next("the dealer's up card")
    con.button("Take back the last card")  # ... taken back before anyone acts on it
    con.expect_next("seat 2's first card")
    con.rank("5")
    con.rank("6")
    con.expect_next("seat 1's second card")
    con.suit("spades")
    con.rank("8")  # 8♠ again: a one-deck shoe holds one, so it is refused, naming it
    alert = page.get_by_role("region", name=f"Cards at {table}").get_by_role("alert")
    expect(alert).to_contain_text("8♠ has already been dealt from this deck")
    con.expect_next("seat 1's second card")
    check_screen(page)
    con.rank("8")  # the rank alone: an 8 of another suit
    con.rank("6")
    con.expect_next("the dealer's hole card (face down)")
    con.rank("Q")
    expect(con.awaited).to_have_text("No card needed: seat 1 to act")
    expect(seat_tile(page, 1, table)).to_contain_text("to act")
    expect_offered(page, 1, table, ["Hit", "Stand", "Double", "Split", "Surrender"])  # no insurance: a 6 up
    expect_offered(page, 2, table, [])
    check_screen(page)
    shot(page, f"blackjack-{size}")
    if size == "landscape":
        other_sizes(page, (w, h), "blackjack")
        assert violations(page) == []
    decide(page, con, 1, table, "Split")
    con.expect_next("seat 1's second card (after a split)")
    con.rank("3")
    decide(page, con, 1, table, "Double")
    con.expect_next("seat 1's third card (a double)")
    con.rank("9")  # 20
    con.expect_next("seat 1's second card on hand 2 (after a split)")
    con.rank("10")  # 18
    check_screen(page)
    decide(page, con, 1, table, "Stand")
    decide(page, con, 2, table, "Double")
    con.expect_next("seat 2's third card (a double)")
    con.rank("K")  # 21
    con.expect_next("the dealer's third card")  # the hole card is turned: 16
    con.rank("4")  # 20

    payouts = page.get_by_role("region", name=f"Payouts at {table}")
    expect(payouts).to_contain_text(f"seat 1 ({first}): take $10.00 (hand 1: push; hand 2: take $10.00)")
    expect(payouts).to_contain_text(f"seat 2 ({second}): pay $20.00 (win 1:1)")
    expect(con.awaited).to_have_text(f"Hand {hand_id(world, t, 1)} is over: pay out, then start the next")
    expect(seat_tile(page, 1, table)).to_contain_text("Chips $90.00")
    expect(seat_tile(page, 2, table)).to_contain_text("Chips $120.00")
    check_screen(page)
    shot(page, f"payouts-{size}")
    ev = world.cast.event.id
    with world.room.store.transaction() as repo:
        kenji, mariko = (repo.account_by_name(ev, n) for n in (first, second))
    assert kenji is not None and mariko is not None
    assert world.room.ledger.balance(ev, stack_key(t, kenji.id)) == 9_000
    assert world.room.ledger.balance(ev, stack_key(t, mariko.id)) == 12_000
    # Start, Deal; 13 cards tapped (11 dealt, a wrong one and a refused one), its take-back,
    # two optional suits; a bet (its field and the button), a split, a double, a stand, a double.
    assert con.taps == 2 + 13 + 1 + 2 + 2 + 4

    # The second game: a draw hand between two walk-ins, one bets and the other folds.
    draw = f"Tablet draw {size}"
    page, d = open_tablet(world, draw, "poker", (w, h))
    con = Console(page, draw, d)
    seat_walk_ins(page, draw, [(1, third, "20"), (2, fourth, "20")])
    con.button("Deal a hand")
    # The deal is dealt face down and never entered: the tablet says so, and who acts first.
    expect(con.awaited).to_have_text("Deal five cards face down to each player (seats 2, 1); then seat 2 to act")
    expect(seat_tile(page, 1, draw).locator('[data-card="back"]')).to_have_count(5)
    check_screen(page)
    shot(page, f"draw-{size}")
    bettor, folder = 2, 1
    expect_offered(page, bettor, draw, ["Check", "Bet", "Fold"])
    shot(page, f"draw-decision-{size}")
    check_screen(page)
    decide(page, con, bettor, draw, "Bet", "1")
    expect_offered(page, folder, draw, ["Call", "Raise", "Fold"])
    decide(page, con, folder, draw, "Fold")
    payouts = page.get_by_role("region", name=f"Payouts at {draw}")
    names = {1: third, 2: fourth}
    expect(payouts).to_contain_text(f"seat {bettor} ({names[bettor]}): give $2.00")
    expect(payouts).to_contain_text("everyone else folded")
    expect(payouts).to_contain_text(f"seat {folder} ({names[folder]}): nothing")
    expect(seat_tile(page, bettor, draw)).to_contain_text("Chips $20.50")
    expect(seat_tile(page, folder, draw)).to_contain_text("Chips $19.50")
    check_screen(page)
    with world.room.store.transaction() as repo:
        ids = {n: repo.account_by_name(ev, names[n]).id for n in (1, 2)}  # type: ignore[union-attr]
    assert world.room.ledger.balance(ev, stack_key(d, ids[bettor])) == 2_050
    assert world.room.ledger.balance(ev, stack_key(d, ids[folder])) == 1_950
    with world.room.store.transaction() as repo:
        (won,) = repo.hands(ev, d, limit=5)
    assert not [r for r in won.history["hands"][0]["log"] if r["type"] in ("card", "show")]  # nothing entered
    # A walk-in cashes out at the table, from the setup.
    page.get_by_role("button", name="Setup").click()
    asked: list[str] = []
    page.once("dialog", lambda d: (asked.append(d.message), d.accept()))  # it asks first
    page.get_by_role("button", name=f"Cash out seat {folder} of {draw}").click()
    expect(page.locator(f"#live-{d}")).to_contain_text("1 seated")
    assert asked == [f"Cash {names[folder]} out at {draw}? Pay them $19.50 in cash."]
    assert world.room.ledger.audit(ev) == []
    assert not world.notes.get("page_errors"), world.notes.get("page_errors")


def test_the_lobby_shows_its_join_code(world: Any) -> None:
    ctx = world.browser.new_context(viewport={"width": 1440, "height": 900})
    page = ctx.new_page()
    page.goto(world.url + "/")
    box = page.get_by_role("region", name="Join from your phone")
    img = box.get_by_role("img", name=f"QR code of {world.url}/")
    loaded(page, img)
    assert decode_qr(img) == world.url + "/"
    expect(box).to_contain_text(world.url + "/")
    assert violations(page) == []
    page.evaluate("window.scrollTo(0, 0)")
    picture(page, "tablet-lobby-qr", full_page=True)
    # The code alone fills the host's screen: the SVG scales to the window.
    box.get_by_role("link", name="The code alone, to fill a screen").click()
    expect(page).to_have_url(world.url + "/qr.svg")
    assert decode_qr(page.locator("svg")) == world.url + "/"
    ctx.close()


#: A full table per size: every seat the rules allow (Blackjack's ``Rules.seats`` and draw's
#: ``DrawRules.max_players`` are both 7), each a walk-in.
FULL = {
    "landscape": (("Akira", "Benkei", "Chiyo", "Daichi", "Emi", "Fumiko", "Goro"),
                  ("Haruto", "Isamu", "Junko", "Kaede", "Kaito", "Midori", "Naoki")),
    "portrait": (("Osamu", "Rina", "Satoshi", "Tomoko", "Umeko", "Wataru", "Yoshi"),
                 ("Aiko", "Botan", "Chika", "Daisuke", "Eiji", "Fuyumi", "Gin")),
}
#: The full Blackjack round's cards as the engine asks for them: the deal (seats 1 to 7, the up
#: card, seats 1 to 7, the hole card), then each seat's cards as it plays. Seat 1 splits 8s and
#: doubles its first hand (8 3 9: 20), stands on the second (8 10: 18); seat 2 doubles 11 (K: 21);
#: seat 3 stands on 17; seat 4 hits 14 and busts (10); seat 5 has a blackjack; seat 6 splits 7s
#: (7 10: 17, stands; 7 3, hits 8: 18); seat 7 stands on 20. The dealer turns 16 and draws 4: 20.
FULL_DEAL = ["8", "5", "10", "10", "A", "7", "10", "6", "8", "6", "7", "4", "K", "7", "10", "Q"]


def full_table(page: Any, table: str, names: tuple[str, ...], chips: str) -> None:
    seat_walk_ins(page, table, [(n, name, chips) for n, name in enumerate(names, 1)])
    expect(page.locator(".tv-seats > .tile[data-seat]")).to_have_count(len(names))


@pytest.mark.parametrize("size", list(SIZES))
def test_a_full_table_fits_the_tablet(world: Any, size: str) -> None:
    """Every seat taken, at Blackjack (two splits, a double, a bust, a blackjack) and at draw
    (seven hands to a showdown with the 52-card pad): the round never scrolls, at any step, and
    every target stays 48 px or more."""
    w, h = SIZES[size]
    bj_names, draw_names = FULL[size]
    table = f"Full 21 {size}"
    page, t = open_tablet(world, table, "blackjack", (w, h), **{"Minimum bet ($)": "5", "Maximum bet ($)": "50"})
    con = Console(page, table, t)
    full_table(page, table, bj_names, "100")
    con.button("Start round")
    for n in range(1, 8):
        decide(page, con, n, table, "Bet", "10")
        expect(seat_tile(page, n, table)).to_contain_text("Bet $10.00")
        check_screen(page)
    con.button("Deal")
    for card in FULL_DEAL:
        expect(con.awaited).to_contain_text("Next card: ")
        before = con.awaited.text_content()
        con.rank(card)
        expect(con.awaited).not_to_have_text(before)
        check_screen(page)

    def play(n: int, action: str, *cards: str) -> None:
        expect(con.awaited).to_have_text(f"No card needed: seat {n} to act")
        check_screen(page)
        decide(page, con, n, table, action)
        for card in cards:
            expect(con.awaited).to_contain_text(f"Next card: seat {n}'s")
            con.rank(card)
            check_screen(page)

    play(1, "Split", "3")
    play(1, "Double", "9", "10")
    play(1, "Stand")
    play(2, "Double", "K")
    play(3, "Stand")
    play(4, "Hit", "10")  # 24: bust; seat 5's blackjack has nothing to decide
    play(6, "Split", "10")
    expect(seat_tile(page, 6, table).locator(".tile-hand")).to_have_count(2)
    play(6, "Stand", "3")
    shot(page, f"full-blackjack-{size}")
    play(6, "Hit", "8")
    play(6, "Stand")
    play(7, "Stand")
    con.expect_next("the dealer's third card")
    con.rank("4")
    expect(con.awaited).to_have_text(f"Hand {hand_id(world, t, 1)} is over: pay out, then start the next")
    payouts = page.get_by_role("region", name=f"Payouts at {table}")
    said = {  # the bust and the natural were settled, told and moved during the round: not due again
        1: "take $10.00 (hand 1: push; hand 2: take $10.00)", 2: "pay $20.00 (win 1:1)", 3: "take $10.00",
        4: "done: took $10.00 during the round (bust)", 5: "done: paid $15.00 during the round (blackjack 3:2)",
        6: "take $20.00 (hand 1: take $10.00; hand 2: take $10.00)", 7: "push",
    }
    for n, text in said.items():
        expect(payouts).to_contain_text(f"seat {n} ({bj_names[n - 1]}): {text}")
    check_screen(page)
    payouts_in_view(page, table)
    shot(page, f"full-payouts-{size}")
    if size == "landscape":
        other_sizes(page, (w, h), "full-payouts")
    after = {1: 9_000, 2: 12_000, 3: 9_000, 4: 9_000, 5: 11_500, 6: 8_000, 7: 10_000}
    ev = world.cast.event.id
    with world.room.store.transaction() as repo:
        ids = {n: repo.account_by_name(ev, bj_names[n - 1]).id for n in after}  # type: ignore[union-attr]
    assert {n: world.room.ledger.balance(ev, stack_key(t, ids[n])) for n in after} == after

    # Draw: seven players, dealt face down (nothing entered); all check; each throws three, one
    # tap each, and the deck runs out at seat 7: the tablet says to shuffle the discards, seat 7's
    # own set aside; all check again; the seven hands shown down, 35 cards from the 52-card pad.
    draw = f"Full draw {size}"
    page, d = open_tablet(world, draw, "poker", (w, h))
    con = Console(page, draw, d)
    full_table(page, draw, draw_names, "20")
    con.button("Deal a hand")
    order = [2, 3, 4, 5, 6, 7, 1]  # the button is seat 1's
    expect(con.awaited).to_have_text("Deal five cards face down to each player (seats 2, 3, 4, 5, 6, 7, 1); then "
                                     "seat 2 to act")
    check_screen(page)
    for n in order:
        expect(con.awaited).to_contain_text(f"seat {n} to act")
        decide(page, con, n, draw, "Check")
    for k, n in enumerate(order):
        expect(con.awaited).to_contain_text(f"seat {n} to act")
        check_screen(page)
        decide(page, con, n, draw, "Throw 3")
        then = f"; then seat {order[k + 1]} to act" if k < 6 else "; then seat 2 to act"
        if n == 7:  # 35 dealt, 15 drawn: two left in the deck
            expect(con.awaited).to_have_text(
                f"Deal seat 7 the last two of the deck; then the deck is out: shuffle the discards (keep seat "
                f"7's own discards aside) and deal one more from them{then}")
            expect(page.get_by_label(f"Deck at {draw}")).to_have_text("Deck: 14 left, 3 in the muck")
            check_screen(page)
            shot(page, f"full-draw-{size}")
        else:
            expect(con.awaited).to_have_text(f"Deal seat {n} three cards face down{then}")
    for n in order:
        expect(con.awaited).to_contain_text(f"seat {n} to act")
        decide(page, con, n, draw, "Check")
    deck = [r + s for s in "♠♥♦♣" for r in ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]]
    payouts = page.get_by_role("region", name=f"Payouts at {draw}")
    for k, card in enumerate(deck[:35]):
        con.expect_next(f"seat {order[k // 5]}'s {('first', 'second', 'third', 'fourth', 'fifth')[k % 5]} card "
                        "(the showdown)")
        con.card(card)
        if k < 34:
            check_screen(page)
    expect(payouts).to_be_visible()
    for n, name in enumerate(draw_names, 1):
        expect(payouts).to_contain_text(f"seat {n} ({name}): ")
    check_screen(page)
    payouts_in_view(page, draw)
    shot(page, f"full-draw-payouts-{size}")
    with world.room.store.transaction() as repo:
        ids = {n: repo.account_by_name(ev, draw_names[n - 1]).id for n in range(1, 8)}  # type: ignore[union-attr]
    assert sum(world.room.ledger.balance(ev, stack_key(d, ids[n])) for n in ids) == 7 * 2_000
    assert world.room.ledger.audit(ev) == []
    assert not world.notes.get("page_errors"), world.notes.get("page_errors")
