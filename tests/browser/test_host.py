"""The host's views in the browser: the hand search lists players by name, the replay of a
Blackjack hand holds that round's steps only and draws its cards, the evening's charts draw
their data, the report downloads, and a player sees their own chips. Pictures at desktop
and phone size, when asked for (conftest.PICTURES), are browser-host-*.png.

Two Blackjack rounds are played through the live API first (Alice at seat 1, Bob at seat 2,
both standing on everything) from the stacked shoe of conftest.py, so the first round is
known: Alice 8s 8d, Bob 5c 6d, the dealer 6h up, Qc in the hole.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import csv
import io
import re

from playwright.sync_api import expect

from syndicate.apps.client import RoomClient, TableClient
from syndicate.poker.dealing import deal_hand
from syndicate.room import report
from tests.kit.room import PASSWORD

from .conftest import picture
from .steps import dollars, sign_in_page

PHONE = {"width": 390, "height": 844}


def shot(page, name: str) -> None:
    picture(page, f"browser-host-{name}", full_page=True)

async def stand_rounds(url: str, table_id: int, tokens: dict[str, str], rounds: int) -> None:
    dealer = await TableClient.connect(url, table_id, tokens["Bokuden"])
    alice = await TableClient.connect(url, table_id, tokens["Alice"])
    bob = await TableClient.connect(url, table_id, tokens["Bob"])
    players = {1: alice, 2: bob}
    await alice.act("sit", seat=1, amount=5_000)
    await bob.act("sit", seat=2, amount=5_000)
    for _ in range(rounds):
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
    await alice.act("leave_seat")
    for x in (dealer, alice, bob):
        await x.close()


def test_the_hosts_views(world) -> None:
    cast, room, url = world.cast, world.room, world.url
    ev = cast.event.id
    room.cashier.buy_in(cast.admin, cast.alice.id, 20_000)
    room.cashier.buy_in(cast.admin, cast.bob.id, 20_000)
    tokens = {}
    for name in ("Bokuden", "Alice", "Bob"):
        c = RoomClient(url)
        c.sign_in(ev, name, PASSWORD)
        tokens[name] = c.token
    dealer = RoomClient(url, tokens["Bokuden"])
    table = dealer.open_table("Host's 21", overrides={"min_bet": 100, "max_bet": 5_000})
    # in a thread of its own: Playwright's sync API keeps an event loop running in this one
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, stand_rounds(url, table["id"], tokens, 2)).result(120)
    room.cashier.cash_out(cast.admin, cast.alice.id, 1_000)
    with room.store.transaction() as repo:
        hands = [x for x in repo.hands(ev, table["id"], limit=100) if x.status == "settled"]
    assert len(hands) == 2 and hands[0].commitment == hands[1].commitment  # two rounds of one shoe
    first = hands[0]

    admin = world.page("admin")
    sign_in_page(admin, url, "admin", "/admin")
    # the search lists each hand's players by name with their result, and one hand number
    search = admin.get_by_role("form", name="Search hands")
    search.get_by_label("Table number").fill(str(table["id"]))
    search.get_by_role("button", name="Search").click()
    found = admin.get_by_role("table", name="Hands found")
    expect(found.get_by_role("row")).to_have_count(3)
    row = found.get_by_role("row").nth(1)
    expect(row.get_by_role("cell").first).to_have_text(f"Hand {first.id}")
    players = row.get_by_role("list", name=f"Players of hand {first.id}")
    nets = first.history["rounds"][0]["results"]
    alice_net, bob_net = nets["1"], nets["2"]
    expect(players).to_contain_text(f"Alice: {dollars(alice_net)}")
    expect(players).to_contain_text(f"Bob: {dollars(bob_net)}")
    assert "seat 1:" not in found.text_content()

    # the replay: this round's steps only (not the shoe's), the table drawn, the log beside it
    admin.get_by_role("button", name=f"Replay hand {first.id}").click()
    region = admin.get_by_role("region", name=f"Replay of hand {first.id}")
    expect(region.get_by_role("heading", name=re.compile(f"^Hand {first.id} "))).to_be_visible()
    log = region.get_by_test_id("replay-log")
    own = len(first.history["rounds"][0]["log"]) + 1  # and the opening frame: who sits with what
    expect(log.get_by_role("listitem")).to_have_count(own)
    assert own < 30
    step = region.get_by_test_id("replay-step")
    expect(step).to_contain_text(f"Step 1 of {own}")
    board = region.get_by_test_id("replay-table")
    expect(board.locator("[data-card]")).to_have_count(0)
    region.get_by_role("button", name="Last step").click()
    expect(step).to_contain_text(f"Step {own} of {own}")
    # Alice 8s 8d and Bob 5c 6d, the dealer's 6h and, turned over, the Qc, then what they drew
    drawn = {c.get_attribute("data-card") for c in board.locator("[data-card]").all()}
    assert {"8s", "8d", "5c", "6d", "6h", "Qc"} <= drawn
    assert "back" not in drawn
    # the step after the deal, before the reveal: the hole card is face down
    cards_dealt = next(i for i, r in enumerate(first.history["rounds"][0]["log"]) if r["type"] == "card"
                       and r["seat"] == -1 and not r["face_up"]) + 2
    log.get_by_role("listitem").nth(cards_dealt - 1).get_by_role("button").click()
    expect(step).to_contain_text(f"Step {cards_dealt} of {own}")
    expect(board.locator('[data-card="back"]')).to_have_count(1)
    expect(board.locator('[data-card="Qc"]')).to_have_count(0)
    region.scroll_into_view_if_needed()
    shot(admin, "replay-desktop")
    picture(region, "browser-host-replay")  # the pictures of docs/report.md

    # the charts draw the ledger's series
    rep = report.build(room.store, ev)
    house = admin.get_by_test_id("chart-house")
    expect(house.locator("canvas")).to_have_count(1)
    with room.store.transaction() as repo:
        n_tables = len(repo.tables(ev))
    expect(house).to_have_attribute("data-series", str(n_tables))
    # one point per settled hand: a hand counts for the house once it is settled (docs/report.md)
    assert int(house.get_attribute("data-points")) == len(hands) == 2
    leaders = admin.get_by_test_id("chart-leaders")
    expect(leaders.locator("canvas")).to_have_count(1)
    assert int(leaders.get_attribute("data-series")) >= 2
    expect(admin.get_by_test_id("report-summary")).to_contain_text("The totals agree with the ledger audit.")
    expect(admin.get_by_test_id("report-summary")).to_contain_text(dollars(rep.totals.house_result))
    admin.locator("#evening").scroll_into_view_if_needed()
    shot(admin, "evening-desktop")
    picture(admin.locator("#evening"), "browser-host-evening")

    # the report downloads: the ledger's CSV, every line
    with admin.expect_download() as dl:
        admin.get_by_test_id("report-csv").click()
    rows = list(csv.DictReader(io.StringIO(open(dl.value.path(), encoding="utf-8").read())))
    assert len(rows) == len(report.build(room.store, ev).entries)
    # the printable page
    printable = admin.context.new_page()
    printable.goto(url + "/api/report/page")
    expect(printable.get_by_role("heading", level=1)).to_contain_text("end-of-night report")
    expect(printable.get_by_role("table").first).to_contain_text("Alice")
    printable.emulate_media(media="print")
    shot(printable, "report-print")
    printable.close()

    # at phone size
    admin.set_viewport_size(PHONE)
    region.get_by_role("button", name="Previous step").click()
    expect(step).to_contain_text(f"Step {cards_dealt - 1} of {own}")
    region.scroll_into_view_if_needed()
    shot(admin, "admin-phone")
    picture(region, "browser-host-replay-phone")
    picture(admin.locator("#evening"), "browser-host-evening-phone")

    # a player's own chips, on /me
    alice = world.page("alice-host")
    sign_in_page(alice, url, "Alice", "/")
    alice.get_by_role("link", name="My evening").click()
    expect(alice).to_have_url(url + "/me")
    mine = alice.get_by_test_id("chart-mine")
    expect(mine.locator("canvas")).to_have_count(1)
    assert int(mine.get_attribute("data-points")) >= 4
    chips = rep.players[[p.name for p in rep.players].index("Alice")].chips
    expect(alice.get_by_test_id("my-chips")).to_contain_text(dollars(chips))
    alice.set_viewport_size(PHONE)
    shot(alice, "me-phone")
    assert not world.notes.get("page_errors"), world.notes.get("page_errors")

def test_the_replay_draws_a_draw_hand_and_only_what_the_history_shows(world) -> None:
    """A draw hand's frames follow its log to the showdown; a card the history does not hold
    (a history redacted for its viewer: "??" or null) is drawn face down, never guessed."""
    import copy

    from syndicate.core.shoe import Shoe
    from syndicate.poker.history import to_history
    from syndicate.poker.rules import DrawRules

    shoe = Shoe.from_seed(bytes(range(32)), decks=1, penetration=1.0, burn=0)
    hand = deal_hand(DrawRules(), {1: 1000, 2: 1000, 3: 300}, 3, shoe)
    hand.bet(1, 100)
    hand.raise_(2, 150)
    hand.call(3)
    hand.call(1)
    hand.draw(1, hand.cards[1][:3])
    hand.stand_pat(2)
    hand.draw(3, hand.cards[3][:1])
    hand.bet(1, 200)
    hand.fold(2)
    doc = to_history(hand)
    rd = doc["hands"][0]
    row = {"id": 99, "table": 1, "game": "poker", "number": rd["number"],
           "players": [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}, {"seat": 3, "name": "Cy"}]}
    hidden = copy.deepcopy(doc)
    for r in hidden["hands"][0]["log"]:
        if r["type"] == "deal" and r["seat"] == 2:
            r["cards"] = ["??"] * 5
    page = world.page("admin")
    run = """async ([doc, row]) => { const m = await import("/static/js/replay.js");
      const f = m.frames(doc, row);
      return f.map((x) => ({ text: x.text, seats: Object.fromEntries(Object.entries(x.st.seats).map(([n, s]) =>
        [n, s.hands[0].cards.map((c) => (c.down ? null : c.card))])) })); }"""
    frames = page.evaluate(run, [doc, row])
    assert len(frames) == len(rd["log"]) + 1
    dealt = {r["seat"]: r["cards"] for r in rd["log"] if r["type"] == "deal"}
    after_deal = next(f for f in frames if f["text"].startswith("Cy is dealt"))
    assert after_deal["seats"]["3"] == dealt[3]
    assert any(f["text"].startswith("Ben folds") for f in frames)
    assert frames[-1]["seats"]["2"] == [None] * 5  # folded: face down
    assert sorted(frames[-1]["seats"]["1"]) == sorted(str(c) for c in hand.cards[1])  # after the draw, her five
    redacted = page.evaluate(run, [hidden, row])
    ben_dealt = next(f for f in redacted if f["text"].startswith("Ben is dealt"))
    assert ben_dealt["seats"]["2"] == [None] * 5
    # a Blackjack round whose hole card the history leaves out stays face down, even revealed
    bj = {"game": "blackjack", "rounds": [{"number": 1, "stacks": {"1": 1000}, "log": [
        {"type": "bet", "seat": 1, "amount": 100}, {"type": "deal", "seats": [1], "shoe_position": 0},
        {"type": "card", "seat": 1, "hand": 0, "card": "Ts", "face_up": True},
        {"type": "card", "seat": -1, "hand": 0, "card": "9h", "face_up": True},
        {"type": "card", "seat": 1, "hand": 0, "card": None, "face_up": True},
        {"type": "card", "seat": -1, "hand": 0, "card": None, "face_up": False}]}]}
    got = page.evaluate("""async ([doc]) => { const m = await import("/static/js/replay.js");
      const f = m.frames(doc, { number: 1, players: [{ seat: 1, name: "Ann" }] }).at(-1).st;
      return { dealer: f.dealer.map((c) => (c.down ? null : c.card)), ann: f.seats[1].hands[0].cards.map((c) => (c.down ? null : c.card)) }; }""",
                        [bj])
    assert got == {"dealer": ["9h", None], "ann": ["Ts", None]}


def test_the_replay_follows_a_split_and_a_double(world) -> None:
    """The engine's own log of a split round (Alice 8s 8d against the 6h: she splits, doubles
    the first hand, 8s 3h, and draws the 9c; the second, 8d Ts, stands) ends with her two hands
    side by side, each with its own bet."""
    from syndicate.blackjack.rules import PRESETS
    from syndicate.blackjack.session import round_json
    from tests.blackjack.stack import stacked_round

    rd = stacked_round(PRESETS["syndicate"], ["8s 8d"], "6h Qc", "3h 9c Ts 4c", bets={1: 1000})
    rd.split(1)
    rd.double(1)
    rd.stand(1)
    assert rd.is_terminal
    doc = {"game": "blackjack", "rounds": [round_json(7, 0, {1: 100_000}, rd)]}
    hands = [[str(c) for c in h.cards] for h in rd.seats[1].hands]
    page = world.page("admin")
    got = page.evaluate("""async ([doc]) => { const m = await import("/static/js/replay.js");
      const f = m.frames(doc, { number: 7, players: [{ seat: 1, name: "Alice" }] });
      const s = f.at(-1).st.seats[1];
      return { n: f.length, hands: s.hands.map((x) => x.cards.map((c) => c.card)), bets: s.hands.map((x) => x.bet) }; }""",
                        [doc])
    assert got["n"] == len(doc["rounds"][0]["log"]) + 1
    assert got["hands"] == hands and len(hands) == 2
    assert got["bets"] == [h.bet for h in rd.seats[1].hands] == [2000, 1000]
