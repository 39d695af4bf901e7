"""A whole charity night in the browser (docs/charity-night.md): the host makes it a night whose
chips have no cash value on the admin page; 20 guests come from a CSV file chosen on the door's
tablet (held upright, then sideways), each is checked in and their voucher's QR code is read from
the tablet's screen and opened on their own phone, which is signed in with no password; two of
them play Blackjack from their phones' sessions and a walk-in leaves a table with their chips,
linked to a guest; the host runs two raffle waves and a prize to the most chips from the admin
page; each proof, downloaded from the page, passes the check written from the doc alone; the
guests' phones show their tickets and what they won; and the report's figures are the ledger's
to the cent."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import expect

from syndicate.prizes import draw as raffle
from syndicate.room import report as night_report
from syndicate.room.ledger import player_key
from syndicate.web.auth import COOKIE
from tests.kit.room import PASSWORD
from tests.test_prize_draw_doc import doc_top, doc_verify

from .axe import violations
from .conftest import picture
from .steps import Dealer, laid_out, sign_in
from .test_door import csv_file
from .test_tablet import decode_qr, loaded

NAMES = ["Ako Tanaka", "Ben Ortiz", "Cleo Park", "Dan Wu", "Eve Moreau", "Femi Adeyemi", "Gus Lind", "Hana Sato",
         "Ivo Petrov", "Jin Ito", "Kai Berg", "Lila Das", "Milo Ruiz", "Nia Okafor", "Omar Haddad", "Pia Falk",
         "Quinn Roy", "Rosa Vidal", "Sami Laine", "Tove Ek"]
PHONE = (390, 844)
TABLET = {0: (768, 1024), 1: (1024, 768)}  # upright for the first ten guests, then sideways


def fits(page: Any, what: str) -> None:
    laid_out(page)
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), what


def draw_on_the_admin_page(page: Any, name: str, kind: str, prizes: str, per_ticket: str = "100") -> Any:
    """Create, close and draw one draw from the admin page's form; its box once drawn."""
    form = page.get_by_role("form", name="New prize draw")
    form.get_by_label("Draw's name").fill(name)
    form.get_by_label("Kind of draw").select_option(kind)
    if kind == "raffle":
        form.get_by_label("Chips per ticket, dollars").fill(per_ticket)
        form.get_by_label("Rounding").select_option("up")
        form.get_by_label("Tickets every guest gets at least").fill("1")
        form.get_by_label("One prize per guest").check()
    form.get_by_label("Prizes, one a line: name, value in dollars").fill(prizes)
    form.get_by_role("button", name="Create the draw").click()
    box = page.get_by_role("article", name=name)
    expect(box).to_have_attribute("data-status", "open")
    box.get_by_role("button", name=re.compile(f"^Close {name}: ")).click()
    expect(box).to_have_attribute("data-status", "closed")
    box.get_by_label(f"Witness for {name}").fill(f"{name}: a four and a one")
    box.get_by_role("button", name=f"Draw {name}").click()
    expect(box).to_have_attribute("data-status", "drawn")
    return box


def proof_of(page: Any, box: Any, name: str) -> dict[str, Any]:
    """The proof as the host downloads it from the page."""
    with page.expect_download() as got:
        box.get_by_role("link", name=f"The proof of {name} (syndicate verify)").click()
    return json.loads(open(got.value.path(), encoding="utf-8").read())


def play(world: Any, tokens: list[str], table: int) -> None:
    """Two guests play three rounds of Blackjack from their phones' sessions, standing each time."""
    dealer = Dealer(world.url, table, _token(world, world.cast.dealer.name))
    players = [Dealer(world.url, table, t) for t in tokens]
    try:
        for i, p in enumerate(players, 1):
            p.act("sit", seat=i, amount=20_000)
        for _ in range(3):
            dealer.act("start_round")
            for p in players:
                p.act("bet", amount=1_000)
            ack = dealer.act("deal")
            st = dealer.run(dealer.client.wait(lambda s, v=ack["version"]: s["version"] >= v))
            while st["round"]["phase"] != "settled":
                p = players[st["round"]["to_act"] - 1]
                mine = p.run(p.client.wait(lambda s, v=st["version"]: s["version"] >= v))
                legal = mine["round"]["legal_actions"]
                ack = p.act(next(a for a in ("stand", "no_insurance", "play_on") if a in legal))
                st = dealer.run(dealer.client.wait(lambda s, v=ack["version"]: s["version"] >= v))
        for p in players:
            p.act("leave_seat")
    finally:
        for x in (dealer, *players):
            x.close()


def _token(world: Any, name: str) -> str:
    return world.room.accounts.sign_in(world.cast.event.id, name, PASSWORD)[0]


def test_a_charity_night_of_twenty_guests(world: Any) -> None:
    room, cast = world.room, world.cast
    ev = cast.event.id

    # The host makes it a night whose chips have no cash value: the cashier pays nothing out.
    admin = sign_in(world, "charity-admin", "admin", "/admin")
    admin.set_viewport_size({"width": 1280, "height": 800})
    rules = admin.get_by_role("form", name="The night's rules")
    rules.get_by_label("Chips have no cash value (a charity night)").check()
    expect(rules.get_by_role("status")).to_contain_text("Chips have no cash value")
    expect(admin.get_by_role("heading", name="Cashier: chips issued (no cash value)")).to_be_visible()
    expect(admin.locator("#cashier").get_by_role("button", name="Cash out")).to_have_count(0)
    picture(admin.get_by_role("region", name="Prize draws"), "charity-night-rules")

    # The host sets the door's rate; the pit boss runs the door on a tablet.
    host_door = admin.context.new_page()
    host_door.goto(f"{world.url}/door")
    rate = host_door.get_by_role("form", name="Set the exchange rate")
    rate.get_by_label("Paid, dollars").fill("20")
    rate.get_by_label("Buys chips, dollars").fill("1000")
    rate.get_by_role("button", name="Set the rate").click()
    expect(host_door.get_by_test_id("door-rate")).to_have_text("$20.00 paid buys $1,000.00 in chips.")
    host_door.close()
    door = sign_in(world, "charity-door", cast.boss.name, "/door")
    door.set_viewport_size({"width": TABLET[0][0], "height": TABLET[0][1]})
    expect(door.get_by_test_id("door-rate")).to_have_text("$20.00 paid buys $1,000.00 in chips.")
    imp = door.get_by_role("form", name="Import the guest list")
    imp.get_by_label("Guest list file (CSV)").set_input_files(csv_file(NAMES))
    imp.get_by_role("button", name="Import").click()
    expect(door.get_by_test_id("import-result")).to_have_text("20 guests imported.")

    phones: dict[str, Any] = {}
    passed_along = world.browser.new_context(viewport={"width": PHONE[0], "height": PHONE[1]}).new_page()
    tokens: dict[str, str] = {}
    for i, guest in enumerate(NAMES):
        if i in (0, 10):
            w, h = TABLET[i // 10]
            door.set_viewport_size({"width": w, "height": h})
        door.get_by_role("searchbox", name="Find a guest by name").fill(guest)
        row = door.get_by_role("listitem", name=guest)
        row.get_by_label(f"Payment for {guest}").select_option("card" if i % 3 == 0 else "cash")
        row.get_by_label(f"Paid, dollars for {guest}").fill(str(20 + i))
        row.get_by_role("button", name=f"Check in for {guest}").click()
        expect(row).to_contain_text(f"paid ${20 + i}.00, chips ${(20 + i) * 50:,}.00")
        row.get_by_role("button", name=f"Voucher for {guest}").click()
        qr = row.get_by_role("img", name=f"QR code that signs {guest} in")
        loaded(door, qr)
        url = decode_qr(qr)  # read from the tablet's screen, as the guest's camera reads it
        assert url.startswith(f"{world.url}/voucher#")
        if i < 3:  # three guests keep their phone for the draws; the others pass one phone along
            phone = phones[guest] = world.browser.new_context(viewport={"width": PHONE[0], "height": PHONE[1]}).new_page()
        else:
            phone = passed_along
            phone.context.clear_cookies()
        phone.goto(url)
        expect(phone.get_by_test_id("voucher-result")).to_have_text(f"Welcome, {guest}: you are signed in.")
        tokens[guest] = next(c["value"] for c in phone.context.cookies() if c["name"] == COOKIE)
        if i in (9, 19):
            fits(door, f"door with guest {i + 1}")
            picture(door, f"charity-door-{'portrait' if i < 10 else 'landscape'}", full_page=True)
    assert not violations(door), violations(door)

    # Play: two guests from their phones' sessions; a walk-in leaves with their chips, linked to Cleo.
    table = room.tables.open(cast.dealer, "Charity 21", overrides={"min_bet": 500, "max_bet": 5_000})
    play(world, [tokens["Ako Tanaka"], tokens["Ben Ortiz"]], table.id)
    dealer = Dealer(world.url, table.id, _token(world, cast.dealer.name))
    try:
        dealer.act("seat_walk_in", seat=4, name="Kenji Mori", amount=4_000)
    finally:
        dealer.close()
    # On the dealer's tablet the walk-in leaves with their chips: nothing is paid in cash.
    tablet = sign_in(world, "charity-dealer", cast.dealer.name, f"/dealer/tables/{table.id}")
    tablet.set_viewport_size({"width": TABLET[1][0], "height": TABLET[1][1]})
    expect(tablet.locator(f"#live-{table.id}")).to_contain_text("1 seated")
    tablet.get_by_role("button", name="Setup").click()
    asked: list[str] = []
    tablet.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    tablet.get_by_role("button", name="Seat 4 leaves Charity 21").click()
    expect(tablet.locator(f"#live-{table.id}")).to_contain_text("0 seated")
    assert asked == ["Kenji Mori leaves Charity 21 with $40.00 in chips? Chips have no cash value tonight: they "
                     "stay on their name for the prize draws."]
    guests = {g["name"]: g["id"] for g in room.door.guests(cast.admin, "") if g["name"] in NAMES}
    kenji = next(a for a in room.accounts.all(ev) if a.name == "Kenji Mori")
    assert room.ledger.balance(ev, player_key(kenji.id)) == 4_000  # kept on their name, not paid in cash
    room.walk_ins.link(cast.admin, kenji.id, guests["Cleo Park"], lambda _: ())

    # Wave 1, then more donations at the door, the prize to the most chips, more, and Wave 2.
    chips = {g: room.ledger.balance(ev, player_key(gid)) for g, gid in guests.items()}
    chips["Cleo Park"] += room.ledger.balance(ev, player_key(kenji.id))
    assert chips["Cleo Park"] == 22 * 50 * 100 + 4_000  # her check-in's chips and the walk-in's, linked to her
    admin.reload()
    w1 = draw_on_the_admin_page(admin, "Wave 1", "raffle", "Hamper, 150\nSigned ball, 60")
    for name in NAMES[:8]:
        room.door.pay(cast.admin, guests[name], "cash", 1_000)
    top = draw_on_the_admin_page(admin, "Top chips", "top", "Trophy, 40")
    for name in NAMES[5:15]:
        room.door.pay(cast.admin, guests[name], "card", 500)
    w2 = draw_on_the_admin_page(admin, "Wave 2", "raffle", "Dinner for two, 80\nWine, 25\nBook, 15", "50")
    fits(admin, "admin draws")
    picture(admin.get_by_role("region", name="Prize draws"), "charity-draws-drawn")
    assert not violations(admin), violations(admin)

    # Each proof from the page passes the doc's check and syndicate's own.
    draws = {d.name: d for d in room.draws.all(cast.admin)}
    for name, box in (("Wave 1", w1), ("Top chips", top), ("Wave 2", w2)):
        doc = proof_of(admin, box, name)
        if name == "Top chips":
            assert doc_top(bytes.fromhex(doc["seed"]), doc["standings"], 1, doc["witness"]) == doc["winners"]
        else:
            assert doc_verify(doc), name
        assert [(w["prize"], w["holder"]) for w in doc["winners"]] == [(p, h) for p, _, h in draws[name].winners or []]
        verdict = raffle.verify(doc)
        assert verdict.ok and not verdict.pending, verdict.messages
    w1_tickets = draws["Wave 1"].tickets or []
    for g, gid in guests.items():  # $100 of chips a ticket, rounded up
        assert sum(1 for _, h in w1_tickets if h == gid) == -(-chips[g] // 10_000), g

    # The guests' phones: their tickets in each wave, and what they won.
    for guest, phone in phones.items():
        phone.goto(f"{world.url}/me")
        mine = phone.get_by_test_id("my-tickets")
        numbers = [n for n, h in w1_tickets if h == guests[guest]]
        expect(mine).to_contain_text(f"Wave 1: tickets {', '.join(map(str, numbers))}: ")
        won = [draws[d].prizes[p - 1]["name"] for d in ("Wave 1", "Wave 2") for p, _, h in draws[d].winners or []
               if h == guests[guest]]
        for prize in won:
            expect(mine).to_contain_text(f"you won {prize}!")
        fits(phone, f"{guest}'s phone")
        assert not violations(phone), violations(phone)
    picture(next(iter(phones.values())), "charity-me-phone", full_page=True)

    # The report: the donations and the chips are the ledger's, to the cent.
    rep = night_report.build(room.store, ev)
    assert rep.agrees and rep.play_money and rep.charity is not None
    entries = rep.entries
    assert rep.charity.chips_converted == sum(e.amount for e in entries if e.kind == "prizes")
    assert rep.charity.chips_issued == sum(e.amount for e in entries if e.kind == "door")
    paid = sum(20 + i for i in range(20)) * 100 + 8 * 1_000 + 10 * 500
    assert rep.charity.donations == paid and rep.charity.at_tables == 4_000
    assert rep.charity.paid["card"] == sum(20 + i for i in range(0, 20, 3)) * 100 + 10 * 500
    report = admin.context.new_page()
    report.goto(f"{world.url}/api/report/page")
    expect(report.get_by_text("chips have no cash value tonight", exact=False)).to_be_visible()
    expect(report.get_by_role("table", name=re.compile("Donations and chips at the door"))).to_contain_text(
        night_report.money.format(rep.charity.paid["cash"]))
    expect(report.get_by_text("The totals agree.", exact=False)).to_be_visible()
    assert not world.notes.get("page_errors"), world.notes.get("page_errors")
