"""Five-card draw at a real-cards table on what a real dealer sees (docs/dealer.md), in the browser:
the dealer's tablet at 1024×768 and 768×1024, two walk-ins the dealer acts for and a player on
her own phone (390×844).

Hand 1: the deal enters nothing (the tablet says to deal five face down to each); a betting round;
the draw by counts (a walk-in throws two with one tap, the phone's player throws three with one,
the other walk-in stands pat), the tablet saying what to deal; the second round, where a walk-in
folds; the showdown entered on the 52-card pad, where a card already entered is dimmed and
refused by its tap and a wrong card is taken back; the pot paid by the evaluator. The phone never
holds a card before the showdown: the player's hand is face down, with what she threw and drew.
Hand 2 is won by folds and enters nothing. Hand 3: a walk-in throws four (keeping an Ace) and shows
no Ace: the tablet asks for the ruling and the hand is dead. The ledger moves exactly the payouts.

Pictures at each size of both pages when asked for (conftest.PICTURES)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from syndicate.room.seating import stack_key
from tests.kit.room import PASSWORD

from .axe import violations
from .conftest import picture
from .steps import hand_id, laid_out, sign_in_page
from .test_real_cards import Console, card_texts
from .test_tablet import (
    SIZES,
    check_screen,
    decide,
    expect_offered,
    open_tablet,
    seat_tile,
    seat_walk_ins,
    shot,
)

PHONE = (390, 844)
#: The other sizes each page is looked at (the tablet's two are the test's own).
LOOKS = {"phone": PHONE, "portrait": (768, 1024), "landscape": (1024, 768), "desktop": (1280, 800)}
#: Per size: the two walk-ins (seats 1 and 2) and the player on her phone (seat 3).
CAST = {"landscape": ("Kiyoshi", "Naomi", "Phone Ayumi"), "portrait": ("Masaru", "Reiko", "Phone Sayuri")}
HAND_2 = ["K♠", "K♥", "7♣", "7♦", "2♠"]  # seat 2's five at the showdown: two pair
HAND_3 = ["Q♠", "Q♥", "Q♦", "5♣", "3♦"]  # seat 3's (the phone's): three Queens


def phone_player(world: Any, name: str, table_id: int, seat: int) -> Any:
    """A player signed in on her own phone, seated at the table with $50."""
    ctx = world.browser.new_context(viewport={"width": PHONE[0], "height": PHONE[1]}, has_touch=True, is_mobile=True)
    ctx.set_default_timeout(10_000)
    page = ctx.new_page()
    page.on("pageerror", lambda e: world.notes.setdefault("page_errors", []).append(f"{name}: {e}"))
    sign_in_page(page, world.url, name, f"/tables/{table_id}")
    expect(page.get_by_test_id("connection")).to_have_text("connected")
    page.get_by_label("Chips to bring, dollars").fill("50")
    page.get_by_role("button", name=f"Sit at seat {seat}").click()
    expect(page.get_by_test_id("stack")).to_have_text("At this table: $50.00")
    return page


def looks(page: Any, back: tuple[int, int], name: str) -> None:
    """The page at each size it is looked at (a phone and a desktop scroll: the whole page)."""
    for label, (w, h) in LOOKS.items():
        page.set_viewport_size({"width": w, "height": h})
        laid_out(page)
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), (name, label)  # never sideways
        picture(page, f"{name}-{label}", full_page=label in ("phone", "desktop"))
    page.set_viewport_size({"width": back[0], "height": back[1]})


def my_seat(phone: Any, seat: int) -> Any:
    return phone.get_by_role("region", name=f"Seat {seat}")


@pytest.mark.parametrize("size", list(SIZES))
def test_a_real_draw_hand_on_what_the_dealer_sees(world: Any, size: str) -> None:
    w, h = SIZES[size]
    first, second, player = CAST[size]
    cast, room = world.cast, world.room
    ev = cast.event.id
    acct = room.accounts.add(ev, player, "player", PASSWORD)
    room.cashier.buy_in(cast.admin, acct.id, 10_000)
    table = f"Real draw {size}"
    page, t = open_tablet(world, table, "poker", (w, h))
    con = Console(page, table, t)
    seat_walk_ins(page, table, [(1, first, "20"), (2, second, "20")])
    phone = phone_player(world, player, t, 3)
    expect(page.locator(f"#live-{t}")).to_contain_text("3 seated")
    seen: list[str] = []  # the phone's page at every step before the showdown

    # Hand 1. The deal: five face down to each, nothing entered.
    con.button("Deal a hand")
    expect(con.awaited).to_have_text("Deal five cards face down to each player (seats 2, 3, 1); then seat 2 to act")
    expect(my_seat(phone, 3).locator("[data-card]")).to_have_count(5)
    assert card_texts(phone.content()) == {"back"}
    expect(phone.get_by_test_id("dealing")).to_contain_text("deal five cards face down to each player")
    check_screen(page)
    # The first betting round: a walk-in bets, the phone calls, the other walk-in calls.
    decide(page, con, 2, table, "Bet", "1")
    expect(con.awaited).to_have_text("No card needed: seat 3 to act")
    phone.get_by_role("button", name="Call $1.00").click()
    expect_offered(page, 1, table, ["Call", "Raise", "Fold"])
    decide(page, con, 1, table, "Call")
    # The draw by counts: one tap for a walk-in, one on the phone.
    expect_offered(page, 2, table, ["Stand pat", "Throw 1", "Throw 2", "Throw 3", "Throw 4 (Ace)"])
    check_screen(page)
    shot(page, f"real-draw-counts-{size}")
    if size == "landscape":
        assert violations(page) == []
    decide(page, con, 2, table, "Throw 2")
    expect(con.awaited).to_have_text("Deal seat 2 two cards face down; then seat 3 to act")
    expect(seat_tile(page, 2, table)).to_contain_text("drew 2")
    throws = phone.get_by_role("button", name="Throw 3")
    expect(throws).to_be_visible()
    expect(phone.get_by_role("button", name="Throw 4 (show your Ace)")).to_be_visible()
    seen.append(phone.content())
    picture(phone, f"real-draw-phone-draw-{size}", full_page=True)
    if size == "landscape":
        looks(phone, PHONE, "real-draw-player")
        assert violations(phone) == []
    throws.click()
    expect(phone.get_by_test_id("my-draw")).to_have_text("You threw 3 and drew 3")
    expect(con.awaited).to_have_text("Deal seat 3 three cards face down; then seat 1 to act")
    decide(page, con, 1, table, "Stand pat")
    expect(seat_tile(page, 1, table)).to_contain_text("stood pat")
    # The second round: a check, the phone bets, a walk-in folds, the other calls.
    decide(page, con, 2, table, "Check")
    phone.get_by_label("Bet amount, dollars ($0.50 to $5.00)").fill("2.00")
    phone.get_by_role("button", name="Bet", exact=True).click()
    decide(page, con, 1, table, "Fold")
    seen.append(phone.content())
    decide(page, con, 2, table, "Call")
    # The showdown: seat 2's hand, then seat 3's; the folded seat 1 is never asked for.
    con.expect_next("seat 2's first card (the showdown)")
    expect(phone.get_by_test_id("awaited")).to_contain_text("enters the hands shown down: seat 2's first card")
    for k, c in enumerate(HAND_2):
        con.card(c)
        if k == 2:
            seen.append(phone.content())  # seat 2's cards are entered: still none on the phone
    con.expect_next("seat 3's first card (the showdown)")
    pad = page.get_by_role("group", name=f"Card pad at {table}")
    expect(pad.get_by_role("button", name="K♠", exact=True)).to_have_attribute("aria-disabled", "true")
    pad.get_by_role("button", name="K♠", exact=True).click(force=True)  # dimmed: its tap refused, naming
    con.taps += 1  # the hand that holds it; nothing is sent
    alert = page.get_by_role("region", name=f"Cards at {table}").get_by_role("alert")
    expect(alert).to_have_text("K♠: already entered in seat 2's hand: one deck holds one of each card")
    con.expect_next("seat 3's first card (the showdown)")
    con.card("4♣")  # a wrong card ...
    con.expect_next("seat 3's second card (the showdown)")
    con.button("Take back the last card")  # ... taken back
    con.expect_next("seat 3's first card (the showdown)")
    for c in HAND_3[:4]:
        con.card(c)
    expect(my_seat(phone, 3).locator('[data-card="5c"]')).to_be_visible()  # her own hand, as entered
    assert card_texts(phone.content()) == {"back", "Qs", "Qh", "Qd", "5c"}  # none of seat 2's
    check_screen(page)
    shot(page, f"real-draw-showdown-{size}")
    if size == "landscape":
        looks(page, (w, h), "tablet-real-draw-showdown")
        page.set_viewport_size({"width": w, "height": h})
    con.card(HAND_3[4])
    payouts = page.get_by_role("region", name=f"Payouts at {table}")
    expect(payouts).to_contain_text(f"seat 3 ({player}): give $8.50 ($8.50: the pot, Three of a Kind, Queens")
    expect(payouts).to_contain_text(f"seat 2 ({second}): nothing")
    expect(con.awaited).to_have_text(f"Hand {hand_id(world, t, 1)} is over: pay out, then start the next")
    check_screen(page)
    shot(page, f"real-draw-payouts-{size}")
    expect(phone.get_by_test_id("winner")).to_contain_text(f"{player} wins $8.50 with Three of a Kind, Queens")
    expect(phone.get_by_role("table", name="Hands shown")).to_contain_text("Two Pair")
    picture(phone, f"real-draw-phone-showdown-{size}", full_page=True)
    for html in seen:  # before the showdown was over, the phone never held anyone's card
        assert card_texts(html) <= {"back"}, card_texts(html)
    with room.store.transaction() as repo:
        ids = {n: repo.account_by_name(ev, name).id for n, name in ((1, first), (2, second), (3, player))}  # type: ignore[union-attr]
    balances = {n: room.ledger.balance(ev, stack_key(t, ids[n])) for n in ids}
    assert balances == {1: 2_000 - 150, 2: 2_000 - 350, 3: 5_000 + 500}

    # Hand 2: won by folds; nothing is entered.
    con.button("Deal a hand")
    expect(con.awaited).to_have_text("Deal five cards face down to each player (seats 3, 1, 2); then seat 3 to act")
    phone.get_by_label("Bet amount, dollars ($0.50 to $5.00)").fill("1.00")
    phone.get_by_role("button", name="Bet", exact=True).click()
    decide(page, con, 1, table, "Fold")
    decide(page, con, 2, table, "Fold")
    expect(payouts).to_contain_text(f"seat 3 ({player}): give $2.50")
    expect(payouts).to_contain_text("everyone else folded")
    with room.store.transaction() as repo:
        hands = repo.hands(ev, t, limit=10)
    second_hand = next(x for x in hands if x.number == 2)
    assert not [r for r in second_hand.history["hands"][0]["log"] if r["type"] in ("card", "show")]

    # Hand 3: a walk-in throws four, keeping an Ace, but shows none: the tablet asks for a ruling.
    con.button("Deal a hand")
    for n in (1, 2):
        expect(con.awaited).to_contain_text(f"seat {n} to act")
        decide(page, con, n, table, "Check")
    phone.get_by_role("button", name="Check").click()
    decide(page, con, 1, table, "Throw 4 (Ace)")
    expect(seat_tile(page, 1, table)).to_contain_text("drew 4, an Ace shown")
    decide(page, con, 2, table, "Stand pat")
    phone.get_by_role("button", name="Stand pat").click()
    for n in (1, 2):
        expect(con.awaited).to_contain_text(f"seat {n} to act")
        decide(page, con, n, table, "Check")
    phone.get_by_role("button", name="Check").click()
    for c in ["K♣", "K♦", "9♠", "9♥", "4♦", "J♠", "J♥", "3♠", "3♥", "2♦", "A♣", "8♦", "8♣", "6♠", "6♥"]:
        con.card(c)
    expect(con.awaited).to_have_text("Ruling: seat 1 drew four cards but shows no Ace: the hand is dead (it wins "
                                     "nothing), or it stands")
    expect(seat_tile(page, 1, table)).to_contain_text("drew 4: no Ace in the hand")
    check_screen(page)
    shot(page, f"real-draw-ruling-{size}")
    page.get_by_role("button", name=f"Seat 1's hand is dead at {table}").click()
    con.taps += 1
    expect(payouts).to_contain_text(f"seat 2 ({second}): give $1.50 ($1.50: the pot, Two Pair, Jacks and Threes")
    expect(seat_tile(page, 1, table)).to_contain_text("dead hand")
    with room.store.transaction() as repo:
        third = next(x for x in repo.hands(ev, t, limit=10) if x.number == 3)
    log = third.history["hands"][0]["log"]
    assert [r for r in log if r["type"] == "ruling"] == [{"type": "ruling", "seat": 1, "dead": True, "rule": "draw.ace"}]
    (ruled,) = [e for e in third.history["hands"][0]["entered_by"] if log[e["at"]]["type"] == "ruling"]
    assert ruled["by"] == cast.dealer.id
    assert world.room.ledger.audit(ev) == []
    if size == "landscape":
        replay_page(world, t, third)
    assert not world.notes.get("page_errors"), world.notes.get("page_errors")
    phone.context.close()


def replay_page(world: Any, table_id: int, hand: Any) -> None:
    """The host replays hand 3 on the admin page: its log step by step, the hands face down until
    the showdown's cards are entered, the ruling, the shown hands at the end (the house sees the
    dead hand's cards too)."""
    admin = world.page("admin")
    sign_in_page(admin, world.url, "admin", "/admin")
    search = admin.get_by_role("form", name="Search hands")
    search.get_by_label("Table number").fill(str(table_id))
    search.get_by_role("button", name="Search").click()
    admin.get_by_role("button", name=f"Replay hand {hand.id}").click()
    region = admin.get_by_role("region", name=f"Replay of hand {hand.id}")
    log = hand.history["hands"][0]["log"]
    steps = region.get_by_test_id("replay-log").get_by_role("listitem")
    expect(steps).to_have_count(len(log) + 1)
    board = region.get_by_test_id("replay-table")
    first_card = next(i for i, r in enumerate(log) if r["type"] == "card") + 1
    steps.nth(first_card - 1).get_by_role("button").click()  # before the showdown: all face down
    expect(board.locator('[data-card="back"]')).to_have_count(15)
    steps.nth(first_card).get_by_role("button").click()  # the showdown's first card entered
    expect(board.locator('[data-card="Kc"]')).to_have_count(1)
    expect(region.get_by_test_id("replay-step")).to_contain_text("the dealer enters K♣")
    expect(region.get_by_test_id("replay-log")).to_contain_text("drew four but shows no Ace: the hand is dead")
    region.get_by_role("button", name="Last step").click()
    drawn = {c.get_attribute("data-card") for c in board.locator("[data-card]").all()}
    assert drawn == {"Kc", "Kd", "9s", "9h", "4d", "Js", "Jh", "3s", "3h", "2d", "Ac", "8d", "8c", "6s", "6h"}
    expect(region).to_contain_text("dead hand")
    region.scroll_into_view_if_needed()
    picture(region, "real-draw-replay")
