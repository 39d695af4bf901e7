"""A player's decision in view on every screen: at every decision of a Blackjack round (with a
split) and of a draw hand, the action buttons, the turn clock and the dealer's up card (Blackjack)
or the player's own hand (draw) are inside the viewport together, uncovered, without scrolling,
at 390×844, 768×1024, 1024×768 and 1280×800, with one, two and seven seats taken (a draw hand
needs two players: two and seven there). The page is never scrolled by the test: decisions are
taken by their keys, and each size is checked on the same state by resizing the window.

Alice plays in the browser; the other seats are the house's bots, seated by the dealer (a
TableClient); each Blackjack table's first shoe is stacked so that Alice holds a pair of eights
against the dealer's 6 and every bot a hard 17, which it stands on."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from syndicate.apps.client import RoomClient
from tests.kit.room import PASSWORD

from . import conftest
from .conftest import picture
from .steps import Dealer, sign_in

SIZES = {"phone": (390, 844), "tablet": (768, 1024), "landscape": (1024, 768), "desktop": (1280, 800)}

#: What must be in view at a decision, by game: the buttons of the actions (each has a key), the
#: clock, and the dealer's up card or the player's own hand.
IN_VIEW = """(game) => {
  const need = [...document.querySelectorAll('#controls [data-key]')].map((e) => ['action ' + e.dataset.key, e]);
  const clock = document.querySelector('[data-testid=my-timer]');
  need.push(['clock', clock]);
  if (game === 'blackjack') need.push(['up card', document.querySelector('[data-testid=dealer] [data-card]')]);
  else need.push(['own hand', document.querySelector('.seat.me .cards')]);
  const problems = [];
  for (const [what, el] of need) {
    if (!el) { problems.push(`${what}: not on the page`); continue; }
    const r = el.getBoundingClientRect();
    if (r.top < 0 || r.left < 0 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5) {
      problems.push(`${what}: outside the viewport (${Math.round(r.left)},${Math.round(r.top)})-(${Math.round(r.right)},${Math.round(r.bottom)})`);
      continue;
    }
    // Uncovered: what is drawn at its middle (and its corners, a little inside) is itself.
    const pts = [[(r.left + r.right) / 2, (r.top + r.bottom) / 2], [r.left + 3, r.top + 3], [r.right - 3, r.bottom - 3]];
    for (const [x, y] of pts) {
      const top = document.elementFromPoint(x, y);
      if (!top || !(el === top || el.contains(top))) {
        problems.push(`${what}: covered at (${Math.round(x)},${Math.round(y)}) by ${top ? top.outerHTML.slice(0, 80) : 'nothing'}`);
        break;
      }
    }
  }
  if (scrollY !== 0) problems.push(`the page is scrolled by ${scrollY}px`);
  if (document.documentElement.scrollWidth > innerWidth) problems.push(`wider than the screen: ${document.documentElement.scrollWidth}px`);
  return problems;
}"""


@pytest.fixture(scope="module")
def room(world) -> Iterator[dict[str, Any]]:
    cast, url = world.cast, world.url
    ev = cast.event.id
    world.room.cashier.set_float(cast.admin, 20 * 100 * 1_000)  # the bots' chips: 100 maximum bets each
    world.room.cashier.buy_in(cast.admin, cast.alice.id, 500_000)
    rest = RoomClient(url)
    rest.sign_in(ev, "Bokuden", PASSWORD)
    alice = sign_in(world, "alice", "Alice")
    yield {"rest": rest, "alice": alice}
    rest.close()


CLEAR = """() => {
  const toast = document.querySelector('#toasts .toast');
  if (!toast) return ['no message shown'];
  const t = toast.getBoundingClientRect();
  const problems = [];
  if (t.top < 0 || t.bottom > innerHeight || t.left < 0 || t.right > innerWidth) problems.push('the message is off the screen');
  const needed = [...document.querySelectorAll('#controls button, #controls input, .seat.me, [data-testid=dealer], #top')];
  for (const el of needed) {
    const r = el.getBoundingClientRect();
    if (r.width && r.height && r.left < t.right && t.left < r.right && r.top < t.bottom && t.top < r.bottom) {
      problems.push(`the message covers ${el.outerHTML.slice(0, 60)}`);
    }
  }
  return problems;
}"""


def messages_cover_nothing(page: Any) -> None:
    """A refusal's message, at every size: on the screen, over nothing a player needs (the
    actions, the bet field, their seat, the dealer's cards, the table's line), and in words."""
    found = {}
    for size, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        problems = page.evaluate(CLEAR)
        if problems:
            found[size] = problems
        picture(page, f"phone-message-{size}")
    assert not found, found
    toast = page.locator("#toasts .toast").first
    assert toast.get_attribute("data-rule")  # the rule is in the data, for tools
    assert not re.search(r"\([a-z_]+\)\s*$", toast.text_content() or ""), toast.text_content()


def check(page: Any, game: str, where: str, shots: str | None = None) -> None:
    """The decision in view at every size (the window resized over the same state)."""
    found = {}
    for size, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_function("() => document.querySelector('[data-testid=my-timer]') !== null")
        problems = page.evaluate(IN_VIEW, game)
        if problems:
            found[size] = problems
        if shots:
            picture(page, f"phone-{shots}-{size}")
    assert not found, f"{where}: {found}"


def blackjack_order(seats: list[int], alice: int) -> str:
    """The first round's cards for these seats: Alice 8s 8d, each bot Tc 7c (17: it stands), the
    dealer 6h up and Td in the hole; then Alice's split draws 3h (11), doubles on 9c (20), and her
    second hand draws Ts (18); the dealer's 16 draws 9d: 25, bust."""
    first = [("8s" if s == alice else "Tc") for s in seats] + ["6h"]
    second = [("8d" if s == alice else "7c") for s in seats] + ["Td"]
    return " ".join(first + second + ["3h", "9c", "Ts", "9d"])


def open_table(room: dict[str, Any], world: Any, name: str, game: str, alice_seat: int, taken: int) -> tuple[Any, Dealer, int]:
    overrides = {"min_bet": 100, "max_bet": 1_000} if game == "blackjack" else {}
    table = room["rest"].open_table(name, game=game, overrides=overrides)
    dealer = Dealer(world.url, table["id"], room["rest"].token or "")
    page = room["alice"]
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{world.url}/tables/{table['id']}")
    expect(page.get_by_test_id("connection")).to_have_text("connected")
    page.get_by_label("Chips to bring, dollars").fill("200")
    page.get_by_role("button", name=f"Sit at seat {alice_seat}").click()
    expect(page.get_by_test_id("stack")).to_have_text("At this table: $200.00")
    if taken > 1:
        dealer.act("add_bots", count=taken - 1)
    expect(page.locator("#table .seat:not(.empty)")).to_have_count(taken)
    return page, dealer, table["id"]


@pytest.mark.parametrize("taken,alice_seat", [(1, 1), (2, 2), (7, 6)])
def test_a_blackjack_decision_is_in_view_at_every_size(world, room, taken: int, alice_seat: int) -> None:
    seats = sorted({alice_seat, *[s for s in range(1, 8) if s != alice_seat][: taken - 1]})
    conftest.NEXT_FIRST_ROUNDS.append(blackjack_order(seats, alice_seat))
    page, dealer, table = open_table(room, world, f"Phone 21 - {taken} taken", "blackjack", alice_seat, taken)
    try:
        dealer.act("start_round")
        if taken == 1:  # a bet over the table's maximum: refused, in words, over nothing needed
            page.get_by_label("Bet, dollars").fill("50")
            page.evaluate("document.activeElement.blur()")
            page.keyboard.press("b")
            expect(page.locator("#toasts .toast")).to_be_visible()
            messages_cover_nothing(page)
            page.set_viewport_size({"width": 390, "height": 844})
        page.get_by_label("Bet, dollars").fill("5")
        page.evaluate("document.activeElement.blur()")
        page.keyboard.press("b")
        expect(page.locator(f"#table .seat[data-seat='{alice_seat}']")).to_contain_text("Bet $5.00")
        # every bot has bet too (they bet on their own): the stacked cards are dealt to every seat
        expect(page.locator("#table .seat", has_text="Bet $")).to_have_count(taken)
        dealer.act("deal")
        expect(page.locator("#controls [data-action=split]")).to_be_visible()
        check(page, "blackjack", "the pair", shots=f"blackjack-{taken}-pair")
        page.keyboard.press("p")
        expect(page.get_by_role("group", name="Alice, hand 1, to play")).to_contain_text("11")
        check(page, "blackjack", "the first hand of the split", shots=f"blackjack-{taken}-split" if taken == 7 else None)
        page.keyboard.press("d")
        expect(page.get_by_role("group", name="Alice, hand 2, to play")).to_contain_text("18")
        check(page, "blackjack", "the second hand of the split")
        page.keyboard.press("s")
        expect(page.get_by_role("heading", name="Results of the round")).to_be_visible()
        expect(page.get_by_test_id("dealer")).to_contain_text("25, bust")  # "bust" beside the total
        if taken == 1:  # and on the dealer's tablet
            tablet = sign_in(world, "dealer", "Bokuden", f"/dealer/tables/{table}")
            expect(tablet.get_by_role("group", name=re.compile("^Dealer's hand at"))).to_contain_text("25, bust")
    finally:
        dealer.close()


@pytest.mark.parametrize("taken,alice_seat", [(2, 2), (7, 6)])
def test_a_draw_decision_is_in_view_at_every_size(world, room, taken: int, alice_seat: int) -> None:
    page, dealer, _ = open_table(room, world, f"Phone draw - {taken} taken", "poker", alice_seat, taken)
    try:
        dealer.act("start_round")
        decisions = 0
        while True:
            page.wait_for_function("() => document.querySelector('#controls [data-key]') !== null"
                                   " || window.__syndicate.state.round.phase === 'complete'")
            if page.evaluate("window.__syndicate.state.round.phase") == "complete":
                break
            page.wait_for_function("() => document.querySelector('[data-testid=my-timer]') !== null")
            phase = page.evaluate("window.__syndicate.state.round.phase")
            check(page, "poker", f"decision {decisions + 1} ({phase})",
                  shots=f"draw-{taken}-{phase}" if decisions < 2 else None)
            legal = page.evaluate("window.__syndicate.state.round.legal_actions")
            version = page.evaluate("window.__syndicate.state.version")
            if "draw" in legal:
                page.keyboard.press("1")
                page.keyboard.press("d")
            else:
                page.keyboard.press("k" if "check" in legal else "c" if "call" in legal else "f")
            page.wait_for_function("(v) => window.__syndicate.state.version > v", arg=version)
            decisions += 1
        assert decisions >= 3  # both betting rounds and the draw
    finally:
        dealer.close()
