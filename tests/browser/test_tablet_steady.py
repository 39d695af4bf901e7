"""The dealer's tablet as the audit met it (docs/dealer.md): the rank pad stays put under the
finger whatever the prompt or a message says; Take back and Misdeal are enabled only when they
can apply; a bet with no amount is answered in a host's words; the card that settled a round is
taken back and the payouts told are withdrawn on the screen; a natural paid at once is told at
once and marked done at the end; the turn clock shows for the seat to act and says when it ran
out; the shoe runs out and the discards are shuffled back in. Each changed page is laid out at
390x844, 768x1024, 1024x768 and 1280x800, and pictured there when pictures are asked for
(conftest.PICTURES).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import picture
from .steps import laid_out, sign_in
from .test_real_cards import Console, sit
from .test_tablet import check_screen, decide, open_tablet, seat_tile, seat_walk_ins

#: The sizes the pages are checked and pictured at.
SIZES = {"phone": (390, 844), "portrait": (768, 1024), "landscape": (1024, 768), "desktop": (1280, 800)}
#: The tablet sizes where the round never scrolls (a phone's page stacks and scrolls).
STEADY = ("portrait", "landscape", "desktop")
NAMES = {"portrait": ("Hiro", "Yuki"), "landscape": ("Kenji", "Mariko"), "desktop": ("Sora", "Ren")}


def shot(page: Any, name: str, full: bool = False) -> None:
    picture(page, f"{name}", full_page=full)


def every_size(page: Any, name: str, back: tuple[int, int] | None = None, part: Any = None) -> None:
    """The page as it is now at each size (a phone's whole page: it scrolls), or ``part`` of it."""
    for label, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        laid_out(page)
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), label  # never sideways
        if part is not None:
            picture(part, f"{name}-{label}")
        else:
            shot(page, f"{name}-{label}", full=label == "phone")
    if back is not None:
        page.set_viewport_size({"width": back[0], "height": back[1]})


class Pad:
    """Where the rank pad is, step after step: it must never move."""

    def __init__(self, page: Any, table: str) -> None:
        self.page, self.table = page, table
        self.seen: list[tuple[str, tuple[float, float, float, float]]] = []

    def at(self, step: str) -> None:
        box = self.page.get_by_role("group", name=f"Rank pad at {self.table}").bounding_box()
        self.seen.append((step, (box["x"], box["y"], box["width"], box["height"])))

    def still(self) -> None:
        first = self.seen[0][1]
        moved = [(step, box) for step, box in self.seen if max(abs(a - b) for a, b in zip(box, first)) > 0.5]
        assert moved == [], f"the pad moved from {first}: {moved}"
        assert len(self.seen) > 15


def buttons(page: Any, table: str) -> dict[str, bool]:
    """The round's correction buttons: enabled or not."""
    out = {}
    for label in ("Take back the last card", "Declare a misdeal"):
        out[label] = page.get_by_role("button", name=f"{label} at {table}", exact=True).is_enabled()
    return out


@pytest.mark.parametrize("size", STEADY)
def test_the_pad_stays_put_and_the_corrections_apply(world: Any, size: str) -> None:
    w, h = SIZES[size]
    first, second = NAMES[size]
    table = f"Steady 21 {size}"
    page, t = open_tablet(world, table, "blackjack", (w, h), Decks="1",
                          **{"Minimum bet ($)": "5", "Maximum bet ($)": "50"})
    con = Console(page, table, t)
    pad = Pad(page, table)
    pad.at("no round")
    seat_walk_ins(page, table, [(1, first, "100"), (2, second, "100")])
    pad.at("seated")
    note = page.locator(f"section[data-table='{t}'] .tv-status")

    # Nothing to take back or void before a card is dealt.
    assert buttons(page, table) == {"Take back the last card": False, "Declare a misdeal": False}
    con.button("Start round")
    pad.at("bets open")
    assert buttons(page, table) == {"Take back the last card": False, "Declare a misdeal": False}
    # A bet with no amount: a host's words, and nothing sent.
    page.get_by_role("button", name=f"Bet for seat 1 at {table}", exact=True).click()
    expect(note).to_have_text("Type an amount to bet")
    expect(seat_tile(page, 1, table)).not_to_contain_text("Bet $")
    pad.at("a refusal in the note")
    decide(page, con, 1, table, "Bet", "10")
    expect(note).to_contain_text("Seat 1: Bet $10.00")
    pad.at("a note")
    decide(page, con, 2, table, "Bet", "10")
    con.button("Deal")
    con.expect_next("seat 1's first card")
    assert buttons(page, table) == {"Take back the last card": False, "Declare a misdeal": False}
    for rank in ("8", "5", "10", "8", "6"):  # seat 1 a pair of 8s, seat 2 11, the dealer's 10 up
        con.rank(rank)
        pad.at(f"card {rank}")
    assert buttons(page, table) == {"Take back the last card": True, "Declare a misdeal": True}

    # The hole card mistyped as an Ace under the ten: blackjack at the peek ends the round.
    con.expect_next("the dealer's hole card (face down)")
    con.rank("A")
    payouts = page.get_by_role("region", name=f"Payouts at {table}")
    expect(payouts).to_contain_text(f"seat 1 ({first}): take $10.00")
    expect(con.awaited).to_have_text(re.compile(r"Hand \d+ is over: pay out, then start the next"))
    pad.at("settled at the peek")
    assert buttons(page, table) == {"Take back the last card": True, "Declare a misdeal": False}
    shot(page, f"tablet-peek-settled-{size}")
    con.button("Take back the last card")  # the settlement is reversed, the payouts withdrawn
    con.expect_next("the dealer's hole card (face down)")
    expect(payouts).to_contain_text("Withdrawn: the card that settled these was taken back")
    expect(payouts).to_contain_text(f"seat 1 ({first}): take $10.00: withdrawn, give the $10.00 back if you took it")
    expect(seat_tile(page, 1, table)).to_contain_text("Chips $90.00")
    pad.at("withdrawn")
    check_screen(page)
    shot(page, f"tablet-withdrawn-{size}")
    con.rank("7")  # the hole card that was dealt: 17, no blackjack
    expect(con.awaited).to_have_text("No card needed: seat 1 to act")
    decide(page, con, 1, table, "Split")
    con.expect_next("seat 1's second card (after a split)")
    con.rank("8")  # a third 8
    pad.at("after a split")
    decide(page, con, 1, table, "Stand")
    con.expect_next("seat 1's second card on hand 2 (after a split)")  # the long prompt
    pad.at("the long prompt")
    con.rank("8")  # the fourth 8
    decide(page, con, 1, table, "Stand")
    decide(page, con, 2, table, "Hit")
    con.expect_next("seat 2's third card (a hit)")
    con.rank("8")  # a fifth 8 from a one-deck shoe: refused, at length
    alert = page.get_by_role("region", name=f"Cards at {table}").get_by_role("alert")
    expect(alert).to_contain_text("8 cannot come out again: a 1-deck shoe holds 4 of that rank")
    pad.at("a long refusal")
    check_screen(page)
    shot(page, f"tablet-refusal-{size}")
    con.rank("K")  # 21: the dealer stands on 17, the round is over
    expect(payouts).to_contain_text(f"seat 2 ({second}): pay $10.00 (win 1:1)")
    pad.at("payouts")
    check_screen(page)
    pad.still()
    assert not world.notes.get("page_errors"), world.notes.get("page_errors")


def test_paid_at_once_the_clock_and_the_shoe_running_out(world: Any) -> None:
    """Landscape, with a player on her phone beside a walk-in: a natural paid at once is told at
    once and marked done at the end; the turn clock runs on the tablet's tile and bar for the seat
    to act and on the player's page, and when it runs out both are told the clock moved; then the
    one-deck shoe runs out mid-round and the discards are shuffled back in."""
    w, h = SIZES["landscape"]
    table = "Clock 21"
    world.room.cashier.buy_in(world.cast.admin, world.cast.alice.id, 100_000)
    page, t = open_tablet(world, table, "blackjack", (w, h), Decks="1",
                          **{"Minimum bet ($)": "5", "Maximum bet ($)": "50"})
    con = Console(page, table, t)
    seat_walk_ins(page, table, [(1, "Taro", "200"), (3, "Hana", "200")])
    # The dealer sets a clock from the setup: the shortest the page offers.
    page.get_by_role("button", name="Setup").click()
    page.get_by_role("combobox", name=f"Turn clock at {table}").select_option("15")
    page.get_by_role("button", name=f"Set the turn clock at {table}").click()
    expect(page.get_by_role("status", name=f"Turn clock at {table}")).to_contain_text("Turn clock: 15 s a decision")
    shot(page, "tablet-setup-clock-landscape")
    page.get_by_role("button", name="Back to the round").click()
    alice = sit(world, "alice", "Alice", 2, table)

    con.button("Start round")
    decide(page, con, 1, table, "Bet", "10")
    decide(page, con, 3, table, "Bet", "10")
    alice.get_by_label("Bet, dollars").fill("10")
    alice.get_by_role("button", name="Place bet").click()
    expect(seat_tile(page, 2, table)).to_contain_text("Bet $10.00")
    con.button("Deal")
    # Taro a blackjack, Alice 18, Hana 17; the dealer's 6 up and a 10 in the hole.
    for rank in ("A", "9", "10", "6", "K", "9", "7", "10"):
        con.rank(rank)
    payouts = page.get_by_role("region", name=f"Payouts at {table}")
    expect(payouts).to_contain_text("Pay now")
    expect(payouts).to_contain_text("seat 1 (Taro): pay $15.00 (blackjack 3:2)")  # told at once: 001 5.1.2
    expect(con.awaited).to_have_text("No card needed: seat 2 to act")
    # Alice's clock runs: on her tile on the tablet, and on her own page.
    expect(seat_tile(page, 2, table).get_by_role("timer")).to_contain_text(" s")
    expect(alice.get_by_test_id("my-timer")).to_be_visible()
    shot(page, "tablet-clock-player-landscape")
    # Nobody decides: the clock stands her 18, and says so to her and to the dealer. Its 15 s pass
    # at once (the server's clocks skip ahead).
    world.clock.skip(15)
    expect(page.locator(f"section[data-table='{t}'] .tv-status")).to_have_text(
        "Time ran out for seat 2 (Alice): the clock stood for them")
    expect(alice.locator("#toasts")).to_contain_text("Time ran out: you stood")
    # Hana's turn: the dealer acts for her, her clock over the pad beside her decision.
    expect(con.awaited).to_have_text("No card needed: seat 3 to act")
    expect(page.locator(".tv-act .who")).to_contain_text("Seat 3: Hana to act")
    expect(page.locator(".tv-act .who").get_by_role("timer")).to_contain_text(" s")
    check_screen(page)
    shot(page, "tablet-clock-landscape")
    every_size(page, "tablet-clock", (w, h))
    decide(page, con, 3, table, "Stand")
    con.rank("2")  # the dealer: 18
    expect(payouts).to_contain_text("seat 1 (Taro): done: paid $15.00 during the round (blackjack 3:2)")
    expect(payouts).to_contain_text("seat 2 (Alice): push")
    expect(payouts).to_contain_text("seat 3 (Hana): take $10.00")
    check_screen(page)
    every_size(page, "tablet-paid-at-once", (w, h))

    # The shoe runs out: the walk-ins play on (Alice leaves), hitting, until no card is left.
    alice.get_by_role("button", name="Leave seat").click()
    expect(page.locator(f"#live-{t}")).to_contain_text("2 seated")
    left = [r for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K") for _ in range(4)]
    for used in ("A", "9", "10", "6", "K", "9", "7", "10", "2"):
        left.remove(used)
    on_table: list[str] = []  # the round's cards: they stay out when the discards go back
    while True:
        text = con.awaited.text_content()
        if text.startswith("Hand") or text == "No hand in play":
            on_table.clear()
            con.button("Start round")
            decide(page, con, 1, table, "Bet", "10")
            decide(page, con, 3, table, "Bet", "10")
            con.button("Deal")
            # A card counts once the deal is in: a tap on the pad before that enters nothing.
            expect(con.awaited).to_have_text(re.compile(r"^Next card: "))
        elif text.startswith("No card needed"):
            seat = int(text.split("seat ")[1].split(" ")[0])
            move = next(a for a in ("Hit", "Stand", "No insurance", "Play on")
                        if page.get_by_role("button", name=f"{a} for seat {seat} at {table}", exact=True).is_visible())
            decide(page, con, seat, table, move)
            expect(con.awaited).not_to_have_text(text)
        elif not left:
            break
        else:
            assert text.startswith("Next card: "), text
            on_table.append(left.pop())
            con.rank(on_table[-1])
            expect(con.awaited).not_to_have_text(text)
    hint = page.get_by_role("region", name=f"Cards at {table}").get_by_role("status")
    expect(hint).to_have_text("The shoe is empty: shuffle the discards in")
    shuffle = page.get_by_role("button", name=f"Shuffle in the discards at {table}")
    expect(shuffle).to_be_enabled()
    check_screen(page)
    every_size(page, "tablet-shoe-empty", (w, h))
    waited = con.awaited.text_content()
    page.once("dialog", lambda d: d.accept())
    shuffle.click()
    expect(hint).to_be_hidden()
    expect(con.awaited).to_have_text(waited)  # the same card, now from the shoe
    back = next(r for r in ("2", "3", "4", "5", "6") if on_table.count(r) < 4)  # from the discards, back in
    con.rank(back)
    expect(con.awaited).not_to_have_text(waited)
    assert world.room.ledger.audit(world.cast.event.id) == []
    assert not world.notes.get("page_errors"), world.notes.get("page_errors")


def test_the_clock_is_set_when_opening_and_defaulted_by_the_admin(world: Any) -> None:
    """The console's form opens a table with its turn clock; the admin page sets the event's
    default for the tables opened afterwards. Pictured at every size."""
    admin = sign_in(world, "admin", "admin", "/admin") if "admin" not in world.pages else world.page("admin")
    box = admin.get_by_role("region", name="Turn clock at new tables")
    expect(box).to_contain_text("Real-cards tables: off (not set)")
    box.get_by_label("Turn clock at new real-cards tables").select_option("20")
    box.get_by_role("button", name="Save").click()
    expect(box).to_contain_text("Real-cards tables: 20 s")
    expect(admin.locator(".toast")).to_have_count(0, timeout=10_000)
    every_size(admin, "admin-turn-clock", part=box)

    dealer = sign_in(world, "dealer", "Bokuden", "/dealer") if "dealer" not in world.pages else world.page("dealer")
    dealer.set_viewport_size({"width": 1200, "height": 800})
    dealer.goto(world.url + "/dealer")
    form = dealer.get_by_role("form", name="Open a table")
    for name, clock, shown in (("Default 21", "default", "20 s"), ("Timed 21", "45", "45 s"), ("Untimed 21", "off", "off")):
        form.get_by_label("Table name").fill(name)
        form.get_by_label("Cards").select_option("real")
        form.get_by_label("Turn clock").select_option(clock)
        if name == "Timed 21":
            every_size(dealer, "dealer-open-form", (1200, 800), part=form)
        form.get_by_role("button", name="Open table").click()
        region = dealer.get_by_role("region", name=name, exact=True)
        expect(region.get_by_role("status", name=f"Turn clock at {name}")).to_contain_text(f"Turn clock: {shown}")
    assert not world.notes.get("page_errors"), world.notes.get("page_errors")
