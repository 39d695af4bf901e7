"""The room's big screen (docs/screen.md) through an evening, at 1920x1080 and 1280x720: a table
opens and its join code reads back, the host sets an announcement, a countdown and a featured
table from the admin page, hands are played (the leaderboard moves; the featured table's hand
comes up only once the next one has started, never the hand in play), the network drops and
comes back, a prize draw is drawn winner by winner; and at 720p nothing is cut off."""

from __future__ import annotations

import asyncio
import concurrent.futures
import re
from typing import Any

from playwright.sync_api import expect

from syndicate.apps.client import RoomClient, TableClient
from tests.kit.room import PASSWORD

from .axe import violations
from .conftest import picture
from .steps import dollars, hand_id, laid_out, sign_in
from .test_tablet import decode_qr, loaded

FULL_HD = {"width": 1920, "height": 1080}
HD = {"width": 1280, "height": 720}


def screen(world: Any, size: dict[str, int], path: str = "/screen") -> Any:
    """The big screen in a browser context of its own (no sign-in), at ``size``."""
    ctx = world.browser.new_context(viewport=size)
    ctx.set_default_timeout(15_000)
    page = ctx.new_page()
    page.on("pageerror", lambda e: world.notes.setdefault("page_errors", []).append(f"screen: {e}"))
    page.goto(world.url + path)
    return page


async def rounds(url: str, table_id: int, tokens: dict[str, str], settled: int) -> None:
    """``settled`` Blackjack rounds, every hand standing; then one more round opened and bet on,
    left in play."""
    dealer = await TableClient.connect(url, table_id, tokens["Bokuden"])
    alice = await TableClient.connect(url, table_id, tokens["Alice"])
    bob = await TableClient.connect(url, table_id, tokens["Bob"])
    players = {1: alice, 2: bob}
    await alice.act("sit", seat=1, amount=5_000)
    await bob.act("sit", seat=2, amount=5_000)
    for _ in range(settled):
        await dealer.act("start_round")
        await alice.act("bet", amount=500)
        await bob.act("bet", amount=300)
        ack = await dealer.act("deal")
        st = await dealer.wait(lambda s, v=ack["version"]: s["version"] >= v)
        while st["round"]["phase"] != "settled":
            seat = st["round"]["to_act"]
            mine = await players[seat].wait(lambda s, v=st["version"]: s["version"] >= v)
            legal = mine["round"]["legal_actions"]
            ack = await players[seat].act(next(a for a in ("stand", "no_insurance", "play_on") if a in legal))
            st = await dealer.wait(lambda s, v=ack["version"]: s["version"] >= v)
    await dealer.act("start_round")
    await alice.act("bet", amount=500)  # the round in play: stored from its first bet
    for x in (dealer, alice, bob):
        await x.close()


def inside(page: Any, selector: str) -> None:
    """Every element of ``selector`` lies wholly on the screen, and none holds more than it shows."""
    boxes = page.evaluate("""(sel) => [...document.querySelectorAll(sel)].map((el) => {
        const r = el.getBoundingClientRect();
        return {sel, text: el.textContent.slice(0, 40), left: r.left, top: r.top, right: r.right, bottom: r.bottom,
                over: el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1};
      })""", selector)
    assert boxes, f"nothing matches {selector}"
    w, h = page.viewport_size["width"], page.viewport_size["height"]
    for b in boxes:
        assert b["left"] >= 0 and b["top"] >= 0 and b["right"] <= w + 0.5 and b["bottom"] <= h + 0.5, b
        assert not b["over"], b


def test_the_big_screen_through_an_evening(world: Any) -> None:
    cast, room, url = world.cast, world.room, world.url
    ev = cast.event.id
    for who in (cast.alice, cast.bob):
        room.cashier.buy_in(cast.admin, who.id, 20_000)
    tokens = {}
    for name in ("Bokuden", "Alice", "Bob"):
        c = RoomClient(url)
        c.sign_in(ev, name, PASSWORD)
        tokens[name] = c.token

    tv = screen(world, FULL_HD)
    expect(tv.get_by_role("heading", level=1)).to_have_text(cast.event.name)
    expect(tv.locator("#table-list")).to_contain_text("No table is open yet.")

    # a table opens: it comes up with its join code, which a phone reads as the table's address
    table = RoomClient(url, tokens["Bokuden"]).open_table("Bokuden's 21", overrides={"min_bet": 100, "max_bet": 5_000})
    card = tv.locator(f'.table-card[data-table="{table["id"]}"]')
    expect(card).to_contain_text("Bokuden's 21")
    expect(card).to_contain_text("$1.00–$50.00")
    expect(card).to_contain_text("free seats")
    img = card.get_by_role("img", name="Join code of Bokuden's 21")
    loaded(tv, img)
    assert decode_qr(img) == f"{url}/tables/{table['id']}"

    # the host sets the screen from the admin page
    admin = sign_in(world, "admin", "admin", "/admin")
    box = admin.get_by_role("region", name="The big screen")
    expect(box.get_by_role("link", name="the big screen")).to_have_attribute("href", "/screen")
    box.get_by_label("Announcements, one a line").fill("Raffle at 10 pm\nLast orders at the bar at 11")
    box.get_by_role("button", name="Show the announcements").click()
    expect(box.get_by_role("status")).to_contain_text("2 announcements")
    box.get_by_label("Countdown to", exact=True).fill("Tables close")
    box.get_by_label("In minutes").fill("15")
    box.get_by_role("button", name="Start the countdown").click()
    expect(box.get_by_role("status")).to_contain_text('the countdown "Tables close"')
    box.get_by_label("Featured table", exact=True).select_option(str(table["id"]))
    box.get_by_label("Hands behind").fill("1")
    box.get_by_role("button", name="Feature the table").click()
    expect(box.get_by_role("status")).to_contain_text("the featured table Bokuden's 21, 1 hand behind")

    expect(tv.locator("#announcements")).to_contain_text("Raffle at 10 pm")
    expect(tv.locator("#announcements")).to_contain_text("Last orders at the bar at 11")
    expect(tv.get_by_role("timer")).to_contain_text("Tables close")
    expect(tv.get_by_role("timer")).to_contain_text(re.compile(r"1[45]:\d\d"))
    featured = tv.get_by_role("region", name="Featured: Bokuden's 21")
    expect(featured).to_contain_text("A hand shows here once 1 hand more has started")

    # play: two rounds settled, a third bet on and left in play
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, rounds(url, table["id"], tokens, 2)).result(120)
    first, second, playing = (hand_id(world, table["id"], n) for n in (1, 2, 3))
    board = {s.player: s.won for s in room.ledger.leaderboard(ev)}
    assert set(board) >= {"Alice", "Bob"} and (board["Alice"], board["Bob"]) != (0, 0)
    for name in ("Alice", "Bob"):
        expect(tv.locator(".leader", has_text=name)).to_contain_text(dollars(board[name]))
    # the screen is one hand behind: round 2 (finished before round 3 started), never round 3
    expect(featured).to_have_attribute("data-hand", str(second))
    expect(featured).to_contain_text(f"Hand {second}")
    assert featured.get_attribute("data-hand") not in (str(playing), str(first))
    assert f"Hand {playing}" not in tv.locator("#side").inner_text()
    expect(featured.locator(".seat-line", has_text="Alice").locator(".card")).not_to_have_count(0)

    # a name is read across the room: at least 40 px high at 1920x1080
    name = tv.locator(".leader .name", has_text="Alice")
    size = float(name.evaluate("(el) => parseFloat(getComputedStyle(el).fontSize)"))
    assert size >= 40 and name.bounding_box()["height"] >= 40, size
    assert violations(tv) == []
    picture(tv, "screen-1080")

    # the network drops: the screen keeps what it shows and says it is reconnecting; back, it is current
    note = tv.get_by_role("status").filter(has_text="Reconnecting")
    tv.context.set_offline(True)
    expect(note).to_be_visible(timeout=10_000)  # by design within a poll (2 s) and an answer's wait (3 s)
    expect(tv.locator(".leader", has_text="Alice")).to_be_visible()
    room.screen.change(cast.admin, ev, {"announcements": ["Back on the screen"]})
    tv.context.set_offline(False)
    expect(note).to_be_hidden(timeout=25_000)
    expect(tv.locator("#announcements")).to_have_text("Back on the screen")

    # a prize draw: its status, then its winners one at a time
    d = room.draws.create(cast.admin, "Wave 1", {"rate": 1_000}, [{"name": "Hamper", "value": 5_000},
                                                                   {"name": "Dinner for two", "value": 8_000}])
    draw = tv.get_by_role("region", name="Prize draw: Wave 1")
    expect(draw).to_contain_text("Open: chips become tickets when it closes")
    room.draws.close(cast.admin, d.id)
    expect(draw).to_contain_text(re.compile(r"Closed: \d+ tickets, 2 guests"))
    drawn = room.draws.draw(cast.admin, d.id, "a die rolled 4")
    names = {cast.alice.id: "Alice", cast.bob.id: "Bob"}
    expect(draw).to_have_attribute("data-shown", "1")
    expect(draw.locator(".winner")).to_have_count(1)
    expect(draw).to_contain_text("And the next prize goes to")
    expect(draw).to_have_attribute("data-shown", "2")
    for prize, _ticket, holder in drawn.winners or []:
        expect(draw.locator(".winner").nth(prize - 1)).to_contain_text(names[holder])
    expect(draw.locator(".winner").first).to_contain_text("Hamper ($50.00)")
    assert violations(tv) == []
    assert world.notes.get("page_errors", []) == []


def test_the_big_screen_at_720p_cuts_nothing_off(world: Any) -> None:
    cast, room = world.cast, world.room
    ev = cast.event.id
    for n, name in enumerate(("Maximilian Oyelaran-Featherstonehaugh", "Zoe", "Kenji", "Priya", "Olu", "Mateus",
                              "Ingrid", "Farah", "Tomasz", "Aiyana", "Seo-yeon", "Luca", "Nadia", "Rafael")):
        guest = room.accounts.add(ev, name, "player", PASSWORD)
        room.cashier.buy_in(cast.admin, guest.id, 1_000 * (n + 1))
    for name in ("The long table by the window", "Draw at eight", "Twenty-one"):
        room.tables.open(cast.dealer, name)
    room.screen.change(cast.admin, ev, {"announcements": [
        "The raffle is drawn at 10 pm: every chip in your bankroll then becomes tickets",
        "Last orders at the bar at 11"], "countdown": {"label": "Raffle", "minutes": 90}})

    tv = screen(world, HD, "/screen?seconds=3")
    expect(tv.locator("#announcements")).to_contain_text("The raffle is drawn at 10 pm")
    expect(tv.locator(".table-card")).not_to_have_count(0)
    expect(tv.locator("#board-pages")).to_contain_text(re.compile(r"Page 1 of [2-9]"))
    laid_out(tv)
    size = tv.evaluate("() => [document.documentElement.scrollWidth, innerWidth, document.documentElement.scrollHeight, innerHeight]")
    assert size[0] <= size[1] and size[2] <= size[3], size
    for selector in (".panel", ".leader", ".table-card", ".announcement", ".countdown", "#leaders", "#table-list",
                     ".screen-top h1", ".qr-box"):
        inside(tv, selector)
    picture(tv, "screen-720")
    # the long list pages itself: the next page comes up, and it too fits
    expect(tv.locator("#board-pages")).to_contain_text(re.compile(r"Page 2 of [2-9]"))
    inside(tv, ".leader")
    assert violations(tv) == []
