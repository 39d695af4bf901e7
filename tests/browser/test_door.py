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
