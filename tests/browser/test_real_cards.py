"""A table with real cards in the browser (docs/dealer.md): the dealer opens it from the console
and enters a Blackjack round's cards as they land, one tap each on the rank pad (one typed), with
a card taken back and a card the shoe cannot hold refused; the players play from their own
pages, which never hold the hole card before it is turned nor hear of the refusal; the console
lists the payouts, and the ledger moved exactly that.

Then the figures docs/dealer.md records: the taps the console needs for a typical 5-seat
Blackjack round and a 4-player draw hand, counted here as the test makes them (every click it
sends to the dealer's page from "Start round" to the payouts, nothing else), with bots in the
seats so that only the dealer's work is counted (at draw a bot sees no card: it checks and stands
pat, so every hand goes to a showdown of four hands, the only cards the dealer enters). They go
to build/browser/real-cards-taps.json (reported, never asserted as a timing).
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from playwright.sync_api import expect

from syndicate.room.seating import stack_key

from .conftest import IMG, picture
from .steps import hand_id, sign_in

TAPS = IMG / "real-cards-taps.json"


class Console:
    """The dealer's page, counting the taps (clicks) and keys it is sent."""

    def __init__(self, page: Any, table: str, table_id: int) -> None:
        self.page, self.table, self.id = page, table, table_id
        self.taps = 0
        self.keys = 0

    def button(self, label: str) -> None:
        self.page.get_by_role("button", name=f"{label} at {self.table}", exact=True).click()
        self.taps += 1

    def rank(self, rank: str) -> None:
        self.page.get_by_role("group", name=f"Rank pad at {self.table}").get_by_role("button", name=rank, exact=True).click()
        self.taps += 1

    def card(self, text: str) -> None:
        """A poker card on the 52-card pad ("A♠")."""
        self.page.get_by_role("group", name=f"Card pad at {self.table}").get_by_role("button", name=text, exact=True).click()
        self.taps += 1

    def suit(self, word: str) -> None:
        self.page.get_by_role("button", name=f"Suit {word} (optional)").click()
        self.taps += 1

    def typed(self, text: str) -> None:
        """Type a card and press Enter: one key a character, one for Enter."""
        box = self.page.get_by_role("form", name=f"Type a card at {self.table}").get_by_label("Type a card")
        box.press_sequentially(text)
        box.press("Enter")
        self.keys += len(text) + 1

    @property
    def awaited(self) -> Any:
        return self.page.locator(f"#need-{self.id}")

    def expect_next(self, what: str) -> None:
        expect(self.awaited).to_have_text(f"Next card: {what}")


def open_real_table(world: Any, name: str, game: str = "blackjack", **fields: str) -> tuple[Any, int]:
    dealer = sign_in(world, "dealer", "Bokuden", "/dealer") if "dealer" not in world.pages else world.page("dealer")
    dealer.goto(world.url + "/dealer")
    form = dealer.get_by_role("form", name="Open a table")
    form.get_by_label("Table name").fill(name)
    form.get_by_label("Game").select_option(game)
    form.get_by_label("Cards").select_option("real")
    for label, value in fields.items():
        field = form.get_by_role("spinbutton", name=label) if label == "Decks" else form.get_by_label(label, exact=True)
        field.fill(value)
    form.get_by_role("button", name="Open table").click()
    region = dealer.get_by_role("region", name=name, exact=True)
    expect(region).to_be_visible()
    expect(region).to_contain_text("real cards")
    return dealer, int(region.get_attribute("data-table"))


def sit(world: Any, who: str, name: str, seat: int, table: str) -> Any:
    page = sign_in(world, who, name)
    page.get_by_role("link", name=f"Join a seat at {table}").click()
    expect(page.get_by_test_id("connection")).to_have_text("connected")
    page.get_by_label("Chips to bring, dollars").fill("200")
    page.get_by_role("button", name=f"Sit at seat {seat}").click()
    expect(page.get_by_test_id("stack")).to_have_text("At this table: $200.00")
    return page


def bet(page: Any, dollars: str) -> None:
    """Type a bet and place it. A state arriving as the bet is typed redraws the box (keeping
    what was typed once it is in): type again until the box holds it."""
    box = page.get_by_label("Bet, dollars")
    for _ in range(5):
        box.fill(dollars)
        try:
            expect(box).to_have_value(dollars, timeout=1_000)
            break
        except AssertionError:
            continue
    page.get_by_role("button", name="Place bet").click()


def card_texts(html: str) -> set[str]:
    return set(re.findall(r'data-card="([^"]+)"', html))


def record(key: str, figures: dict[str, Any]) -> None:
    IMG.mkdir(parents=True, exist_ok=True)
    done = json.loads(TAPS.read_text()) if TAPS.exists() else {}
    done[key] = figures
    TAPS.write_text(json.dumps(done, indent=2) + "\n")


def test_the_dealer_enters_a_blackjack_round_from_the_console(world) -> None:
    cast, room = world.cast, world.room
    ev = cast.event.id
    for p in (cast.alice, cast.bob):
        room.cashier.buy_in(cast.admin, p.id, 50_000)
    page, t = open_real_table(world, "Real 21", Decks="1")
    con = Console(page, "Real 21", t)
    alice = sit(world, "alice", "Alice", 1, "Real 21")
    bob = sit(world, "bob", "Bob", 2, "Real 21")
    seen: list[str] = []

    def snap() -> None:
        seen.extend(p.content() for p in (alice, bob))

    con.button("Start round")
    for n, p in ((1, alice), (2, bob)):
        bet(p, "10")
        expect(p.get_by_role("region", name=f"Seat {n}")).to_contain_text("$10.00")
    con.button("Deal")
    con.expect_next("seat 1's first card")
    expect(page.get_by_role("region", name="Cards at Real 21")).to_be_visible()
    # Typed, with its suit, and across one of the console's refreshes of its tables (every few
    # seconds): the boxes are updated in place, so the focus stays in the box and no key is lost.
    box = page.get_by_role("form", name="Type a card at Real 21").get_by_label("Type a card")
    box.press_sequentially("8")
    refreshes = page.evaluate("() => Number(document.getElementById('mine').dataset.refreshed)")
    page.wait_for_function(f"() => Number(document.getElementById('mine').dataset.refreshed) > {refreshes}")
    expect(box).to_be_focused()
    page.keyboard.type("s")
    page.keyboard.press("Enter")
    con.keys += 3
    con.expect_next("seat 2's first card")
    expect(alice.get_by_test_id("awaited")).to_contain_text("seat 2's first card")  # the players see what is awaited
    con.rank("7")  # a mistake: Bob's card is a 5 ...
    con.expect_next("the dealer's up card")
    con.button("Take back the last card")  # ... taken back before anyone acts on it
    con.expect_next("seat 2's first card")
    con.rank("5")
    con.rank("6")
    con.expect_next("seat 1's second card")
    snap()
    con.typed("8s")  # one deck holds one 8♠: refused, naming the card, and nothing changes
    alert = page.get_by_role("region", name="Cards at Real 21").get_by_role("alert")
    expect(alert).to_contain_text("8♠ has already been dealt from this deck")
    expect(alert).to_have_attribute("data-rule", "shoe_count")  # the rule in the data, the text in words
    con.expect_next("seat 1's second card")
    con.rank("8")  # an 8 of another suit: the rank alone
    con.rank("6")
    con.expect_next("the dealer's hole card (face down)")
    con.suit("clubs")  # the suit is optional at Blackjack; this hole card gets one
    con.rank("Q")
    split = alice.get_by_role("button", name="Split")
    expect(split).to_be_visible()
    snap()
    split.click()
    con.expect_next("seat 1's second card (after a split)")
    snap()
    page.get_by_role("region", name="Cards at Real 21").scroll_into_view_if_needed()
    picture(page, "browser-real-cards-console")
    con.rank("3")
    alice.get_by_role("button", name="Double").click()
    con.expect_next("seat 1's third card (a double)")
    con.rank("9")
    con.expect_next("seat 1's second card on hand 2 (after a split)")
    con.rank("10")
    snap()
    expect(alice.locator('#controls [data-key="s"]')).to_be_visible()  # her turn has reached her page: the key acts
    alice.keyboard.press("s")
    expect(bob.get_by_role("button", name="Double")).to_be_visible()
    snap()
    bob.keyboard.press("d")
    con.expect_next("seat 2's third card (a double)")
    snap()
    con.rank("K")
    con.expect_next("the dealer's third card")  # the hole card is turned: the dealer's turn
    con.rank("4")  # the dealer's 16 draws to 20

    payouts = page.get_by_role("region", name="Payouts at Real 21")
    expect(payouts).to_contain_text("seat 1 (Alice): take $10.00 (hand 1: push; hand 2: take $10.00)")
    picture(page, "browser-real-cards-payouts")
    expect(payouts).to_contain_text("seat 2 (Bob): pay $20.00 (win 1:1)")
    # the hand by its evening-wide number, as the admin's search finds it
    expect(con.awaited).to_have_text(f"Hand {hand_id(world, t, 1)} is over: pay out, then start the next")
    for p in (alice, bob):
        expect(p.get_by_role("heading", name="Results of the round")).to_be_visible()

    # No player's page held the hole card before it was turned, nor the refusal.
    for html in seen:
        assert "Qc" not in card_texts(html) and "Queen of clubs" not in html
        assert "already been dealt" not in html
    assert "Qc" in card_texts(alice.content())  # turned now

    # The ledger moved exactly what the console said: -$10 for Alice, +$20 for Bob.
    for acct, stack in ((cast.alice, 19_000), (cast.bob, 22_000)):
        assert room.ledger.balance(ev, stack_key(t, acct.id)) == stack
    assert room.ledger.audit(ev) == []
    assert not world.notes.get("page_errors"), world.notes.get("page_errors")
    # Start and Deal; 11 cards, one typed (with the refused one typed too) and 10 tapped, plus
    # the wrong card tapped; its take-back; the optional suit of the hole card.
    assert (con.taps, con.keys) == (2 + 10 + 1 + 1 + 1, 3 + 3)
    record("blackjack_2_seats_with_mistakes", {"taps": con.taps, "keys": con.keys, "cards": 11})


def bets_in(world: Any, table_id: int, count: int) -> None:
    """Wait until ``count`` bets of the round in play are stored."""
    import time

    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with world.room.store.transaction() as repo:
            hands = repo.hands(world.cast.event.id, table_id, status="playing", limit=5)
        if hands and sum(r["type"] == "bet" for r in hands[0].history["rounds"][0]["log"]) >= count:
            return
        time.sleep(0.05)
    raise AssertionError(f"{count} bets did not come in")


def enter_all(con: Console, payouts: str, tap: Any) -> int:
    """Tap the awaited card (``tap``) until the hand is settled (the payouts may show before: a
    bust or a natural is settled, and told, as it happens); how many cards it took."""
    region = con.page.get_by_role("region", name=payouts)
    expect(region).to_be_hidden()
    cards = 0
    while "is over" not in (text := con.awaited.text_content() or ""):
        if text.startswith("Next card:"):
            tap()
            cards += 1
            expect(con.awaited).not_to_have_text(text)
        else:
            con.page.wait_for_timeout(50)
    expect(region).to_be_visible()
    return cards


ROUNDS = 5  # Blackjack rounds at 5 seats
HANDS = 3  # draw hands at 4 seats
RANK_CYCLE = ["10", "7", "9", "5", "K", "2", "8", "A", "6", "Q", "3", "4", "J"]


def test_taps_for_a_5_seat_blackjack_round_and_a_4_player_draw_hand(world) -> None:
    cast, room = world.cast, world.room
    room.cashier.set_float(cast.admin, 5_000_000)

    page, t = open_real_table(world, "Real five", **{"Minimum bet ($)": "5", "Maximum bet ($)": "10"})
    con = Console(page, "Real five", t)
    page.get_by_label("Bots to seat at Real five").fill("5")
    page.get_by_role("button", name="Seat bots at Real five").click()  # setting up: not counted
    live = page.get_by_role("region", name="Real five", exact=True)
    expect(live).to_contain_text("5 seated")
    rounds = []
    dealt = 0
    for _ in range(ROUNDS):
        before = con.taps
        con.button("Start round")
        expect(con.awaited).to_have_text("Bets are open: deal when they are in")
        bets_in(world, t, 5)  # the bots bet at once, as the table asks them
        con.button("Deal")
        start = dealt  # the cycle of ranks goes on from round to round
        cards = enter_all(con, "Payouts at Real five",
                          lambda start=start: con.rank(RANK_CYCLE[(start + con.taps - before - 2) % len(RANK_CYCLE)]))
        rounds.append({"taps": con.taps - before, "cards": cards, "keys_typed": sum(
            len(RANK_CYCLE[(dealt + k) % len(RANK_CYCLE)]) + 1 for k in range(cards))})
        dealt += cards
        assert rounds[-1]["taps"] == cards + 2  # one tap a card, and Start round and Deal
    record("blackjack_5_seats", {"rounds": rounds, "mean_taps": sum(r["taps"] for r in rounds) / len(rounds),
                                 "mean_cards": dealt / len(rounds)})

    page, d = open_real_table(world, "Real draw", game="poker")
    con = Console(page, "Real draw", d)
    page.get_by_label("Bots to seat at Real draw").fill("4")
    page.get_by_role("button", name="Seat bots at Real draw").click()
    expect(page.get_by_role("region", name="Real draw", exact=True)).to_contain_text("4 seated")
    deck = [r + s for s in "♠♥♦♣" for r in ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]]
    hands = []
    for k in range(HANDS):
        order = random.Random(k).sample(deck, len(deck))  # each hand its own deck, in its own order
        before = con.taps
        con.button("Deal a hand")
        used = enter_all(con, "Payouts at Real draw", lambda: con.card(order[con.taps - before - 1]))
        typed = sum(len(c.replace("10", "T")) + 1 for c in order[:used])  # "Ah" + Enter; "Th" for a ten
        hands.append({"taps": con.taps - before, "cards": used, "keys_typed": typed})
        # Deal a hand, and a tap a card of the four hands shown down: the deal and the draw are
        # dealt face down and counted, never entered.
        assert con.taps - before == used + 1 and used == 20
    record("draw_4_players", {"hands": hands, "mean_taps": sum(h["taps"] for h in hands) / len(hands),
                              "mean_cards": sum(h["cards"] for h in hands) / len(hands)})
    assert room.ledger.audit(cast.event.id) == []
