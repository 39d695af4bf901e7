"""In the browser: the pages open the deployment's current event even after an admin creates a
newer one, and the admin sets the bots' float on the admin page."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.kit.room import PASSWORD


def test_a_newer_event_does_not_take_over_the_sign_in_form(world) -> None:
    evil = world.room.accounts.create_event("Evil night")
    world.room.accounts.add(evil.id, "admin", "admin", PASSWORD)  # same name, other event
    page = world.page("visitor")
    page.goto(world.url + "/")
    picked = page.evaluate("async () => (await import('/static/js/common.js')).eventId()")
    assert picked == world.cast.event.id != evil.id
    form = page.get_by_role("form", name="Sign in")
    form.get_by_label("Name").fill("admin")
    form.get_by_label("Password").fill(PASSWORD)
    form.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()
    me = page.evaluate("async () => (await (await fetch('/api/me')).json()).account")
    assert me["event_id"] == world.cast.event.id  # signed in to the current event, not Evil night


def test_the_admin_sets_the_bots_float(world) -> None:
    page = world.page("admin")
    page.goto(world.url + "/admin")
    form = page.get_by_role("form", name="Sign in")
    panel = page.get_by_role("form", name="Set the bots' float")
    # The page draws one or the other once it knows who is there: wait for it before looking
    # (a look before it was drawn saw no sign-in form, and the panel never came).
    expect(form.or_(panel).first).to_be_visible()
    if form.is_visible():
        form.get_by_label("Name").fill("admin")
        form.get_by_label("Password").fill(PASSWORD)
        form.get_by_role("button", name="Sign in").click()
    panel.get_by_label("Float in dollars").fill("1000")
    panel.get_by_role("button", name="Set").click()
    expect(page.locator("#float-figures")).to_contain_text("remaining $1,000.00")
    assert world.room.cashier.float_status(world.cast.event.id)["remaining"] == 100_000
