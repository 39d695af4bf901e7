"""The door in the browser (docs/door.md), at the door's tablet held both ways and on a guest's
phone: the host sets the rate, the guest list comes from a CSV file chosen on the tablet (a bad
one refused in words, naming its line), a guest is found by name and checked in, their voucher's
QR code is read from the screen by a decoder and opened on their phone, which is signed in with
no password; the same code a second time is refused in words. axe finds nothing serious on
either page, and nothing is wider than the screen at any size."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .axe import violations
from .conftest import picture
from .steps import laid_out, sign_in
from .test_tablet import decode_qr, loaded

SIZES = {"portrait": (768, 1024), "landscape": (1024, 768)}
PHONE = (390, 844)
DESKTOP = (1280, 800)
GUESTS = {"portrait": ["Ines Duarte", "Jonas Berg", "Kofi Mensah"], "landscape": ["Lea Roux", "Mads Lund", "Nour Said"]}


def csv_file(names: list[str]) -> dict[str, Any]:
    text = "Name,Email\r\n" + "".join(f"{n},{n.split()[0].lower()}@example.org\r\n" for n in names)
    return {"name": "guests.csv", "mimeType": "text/csv", "buffer": text.encode()}


def fits(page: Any, what: str) -> None:
    laid_out(page)
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), what  # never sideways


@pytest.mark.parametrize("size", list(SIZES))
def test_a_guest_from_the_list_to_their_phone(world: Any, size: str) -> None:
    w, h = SIZES[size]
    names = GUESTS[size]
    door = sign_in(world, f"door-{size}", "admin", "/door")
    door.set_viewport_size({"width": w, "height": h})
    expect(door.get_by_role("heading", name="The door", level=1)).to_be_visible()

    rate = door.get_by_role("form", name="Set the exchange rate")
    rate.get_by_label("Paid, dollars").fill("20")
    rate.get_by_label("Buys chips, dollars").fill("1000")
    rate.get_by_role("button", name="Set the rate").click()
    expect(door.get_by_test_id("door-rate")).to_have_text("$20.00 paid buys $1,000.00 in chips.")

    # A list with a guest twice is refused whole, naming the line; the right one is imported.
    imp = door.get_by_role("form", name="Import the guest list")
    imp.get_by_label("Guest list file (CSV)").set_input_files(csv_file([names[0], names[0].upper()]))
    imp.get_by_role("button", name="Import").click()
    expect(door.get_by_test_id("import-result")).to_contain_text(
        f"nothing changed: line 3: '{names[0].upper()}' is already on the list at line 2")
    imp.get_by_label("Guest list file (CSV)").set_input_files(csv_file(names))
    imp.get_by_role("button", name="Import").click()
    expect(door.get_by_test_id("import-result")).to_have_text("3 guests imported.")

    guest = names[1]
    door.get_by_role("searchbox", name="Find a guest by name").fill(guest.split()[1][:3].lower())
    expect(door.get_by_text("1 guest, 0 checked in")).to_be_visible()
    row = door.get_by_role("listitem", name=guest)
    expect(row).to_contain_text("Not checked in")
    row.get_by_label(f"Paid, dollars for {guest}").fill("25")
    row.get_by_role("button", name=f"Check in for {guest}").click()
    expect(row).to_contain_text("paid $25.00, chips $1,250.00")
    expect(door.get_by_test_id("door-said")).to_have_text(
        re.compile(rf"^{guest}: receipt (\d+), cash \$25.00, chips \$1,250.00 Print receipt D-\1$"))
    fits(door, f"door {size}")
    picture(door, f"door-checked-in-{size}", full_page=True)
    receipt = door.get_by_test_id("door-said").get_by_role("link", name=re.compile(r"^Print receipt D-\d+$"))
    with door.context.expect_page() as opened:
        receipt.click()
    slip = opened.value
    expect(slip.get_by_role("region", name="the guest's copy")).to_contain_text("Chips issued")
    expect(slip.get_by_role("region", name="the house's copy")).to_contain_text(guest)
    picture(slip, f"door-receipt-{size}", full_page=True)
    slip.close()

    row.get_by_role("button", name=f"Voucher for {guest}").click()
    qr = row.get_by_role("img", name=f"QR code that signs {guest} in")
    loaded(door, qr)
    url = decode_qr(qr)
    assert url.startswith(f"{world.url}/voucher#")
    fits(door, f"door voucher {size}")
    picture(door, f"door-voucher-{size}", full_page=True)
    assert not violations(door), violations(door)

    phone = world.browser.new_context(viewport={"width": PHONE[0], "height": PHONE[1]}).new_page()
    phone.goto(url)
    expect(phone.get_by_test_id("voucher-result")).to_have_text(f"Welcome, {guest}: you are signed in.")
    assert "#" not in phone.url  # the secret left the address bar
    expect(phone.get_by_role("button", name="Sign out")).to_be_visible()
    fits(phone, "voucher phone")
    picture(phone, f"voucher-welcome-phone-{size}", full_page=True)
    assert not violations(phone), violations(phone)

    # The same card scanned again, on another phone: refused in words, no one signed in.
    other = world.browser.new_context(viewport={"width": PHONE[0], "height": PHONE[1]}).new_page()
    other.goto(url)
    result = other.get_by_test_id("voucher-result")
    expect(result).to_contain_text("This voucher already signed its guest in")
    expect(result).to_have_attribute("data-rule", "voucher_used")
    expect(other.get_by_role("button", name="Sign out")).to_have_count(0)
    picture(other, f"voucher-used-phone-{size}", full_page=True)

    # The door and the welcome at every other size: nothing wider than the screen.
    for label, (vw, vh) in (("phone", PHONE), ("desktop", DESKTOP)):
        door.set_viewport_size({"width": vw, "height": vh})
        fits(door, f"door {label}")
        picture(door, f"door-{label}-{size}", full_page=True)
    phone.set_viewport_size({"width": w, "height": h})
    fits(phone, f"voucher {size}")
    picture(phone, f"voucher-welcome-{size}", full_page=True)
    assert not world.notes.get("page_errors"), world.notes.get("page_errors")


def test_a_raffle_wave_from_the_admin_page_to_a_guests_phone(world: Any) -> None:
    """The host creates a draw on the admin page, closes it (the guests' chips into tickets) and
    draws it with a witness; a guest's phone shows their tickets, then what they won."""
    room, admin = world.room, world.cast.admin
    room.door.import_guests(admin, "name\nOla Berg\nPer Holm\n")
    room.door.set_rate(admin, 100, 100)
    guests = {g["name"]: g["id"] for g in room.door.guests(admin, "") if g["name"] in ("Ola Berg", "Per Holm")}
    for name, gid in guests.items():
        room.door.check_in(admin, gid, "cash", 30_000)
    secret, _ = room.door.issue_voucher(admin, guests["Ola Berg"])
    phone = world.browser.new_context(viewport={"width": PHONE[0], "height": PHONE[1]}).new_page()
    phone.goto(f"{world.url}/voucher#{secret}")
    expect(phone.get_by_test_id("voucher-result")).to_have_text("Welcome, Ola Berg: you are signed in.")

    page = sign_in(world, "draws-admin", "admin", "/admin")
    page.set_viewport_size({"width": 1280, "height": 800})
    form = page.get_by_role("form", name="New prize draw")
    form.get_by_label("Draw's name").fill("Wave 9")
    form.get_by_label("Chips per ticket, dollars").fill("100")
    form.get_by_label("Prizes, one a line: name, value in dollars").fill("Hamper, 150\nSigned ball, 60")
    form.get_by_label("One prize per guest").check()
    form.get_by_role("button", name="Create the draw").click()
    draw = page.get_by_role("article", name="Wave 9")
    expect(draw).to_contain_text("1 ticket per $100.00 of chips; one prize per guest; open: the seed is committed")
    draw.get_by_role("button", name="Close Wave 9: chips into tickets").click()
    expect(draw).to_contain_text("tickets,")
    phone.goto(f"{world.url}/me")
    mine = phone.get_by_test_id("my-tickets")
    expect(mine).to_contain_text(re.compile(r"Wave 9: tickets \d+, \d+, \d+: to be drawn"))
    draw.get_by_label("Witness for Wave 9").fill("a three and a five")
    draw.get_by_role("button", name="Draw Wave 9").click()
    expect(draw).to_have_attribute("data-status", "drawn")
    expect(draw.get_by_role("list", name="Prizes of Wave 9")).to_contain_text(re.compile(r"Hamper \(\$150\.00\): ticket \d+, "))
    expect(draw.get_by_role("link", name="The proof of Wave 9 (syndicate verify)")).to_be_visible()
    fits(page, "admin draws")
    picture(draw, "admin-draw-drawn")
    won = [prize for prize, line in zip(("Hamper", "Signed ball"), draw.get_by_role("list", name="Prizes of Wave 9")
                                        .get_by_role("listitem").all_text_contents(), strict=True)
           if line.endswith(", Ola Berg")]  # the winners as the host's page names them
    phone.reload()
    expect(mine).to_contain_text(re.compile(r"Wave 9: tickets \d+, \d+, \d+: " + (
        f"you won {won[0]}!" if won else "drawn, no prize this time")))
    fits(phone, "me phone")
    picture(phone, "me-tickets-phone", full_page=True)
    assert not violations(phone), violations(phone)
    assert not violations(page), violations(page)
