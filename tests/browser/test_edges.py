"""The edges as a person meets them in the browser, at a phone's, a tablet's (both ways) and a
desktop's size: the sign-in form when the server says to wait (a 429's wait in words, and word
when it is over), and the lobby's join code of a room served on this machine alone (it says
phones cannot open it, and how to serve them), and the admin creating an account whose name is a
walk-in's or reads like a player's (the refusal stays under the form, naming the link)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from syndicate.room.cardroom import CardRoom
from syndicate.room.seating import walk_in_account
from syndicate.store import Database, SqlStore
from syndicate.web import create_app
from syndicate.web.security import Limits
from tests.kit.room import FAST_HASHER, PASSWORD, LiveServer, make_cast

from .conftest import picture

SIZES = {"phone": (390, 844), "tablet": (768, 1024), "tablet-landscape": (1024, 768), "desktop": (1280, 800)}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, chromium: Any) -> Iterator[tuple[str, Any, Any]]:
    db = Database(f"sqlite:///{tmp_path_factory.mktemp('sign-in') / 'syndicate.db'}")
    db.migrate()
    room = CardRoom(SqlStore(db), FAST_HASHER)
    cast = make_cast(room)
    # two free failures of a name, then 130 s: a wait long enough to be said in minutes
    app = create_app(database=db, hasher=FAST_HASHER, migrate=False,
                     limits=Limits(sign_in_failures_per_name=2, sign_in_backoff=130))
    server = LiveServer(app)
    try:
        with room.store.transaction() as repo:  # a walk-in a dealer seated earlier tonight
            walk_in_account(repo, cast.event.id, "Hana")
        yield server.url, chromium, cast
    finally:
        for ctx in chromium.contexts:  # the contexts this module's tests opened
            ctx.close()
        server.stop()
        db.dispose()


def _try(form: Any, name: str, password: str) -> None:
    form.get_by_label("Name").fill(name)
    form.get_by_label("Password").fill(password)
    form.get_by_role("button", name="Sign in").click()


@pytest.mark.parametrize("size", SIZES)
def test_the_sign_in_form_says_how_long_to_wait(site, size) -> None:
    url, browser, _ = site
    width, height = SIZES[size]
    ctx = browser.new_context(viewport={"width": width, "height": height})
    page = ctx.new_page()
    name = f"Nobody {size}"  # each size guesses its own name: its own count at this address
    page.goto(url + "/")
    form = page.get_by_role("form", name="Sign in")
    alert = form.get_by_role("alert")
    for attempt in range(2):
        _try(form, name, f"guess {attempt}")
        expect(alert).to_have_text("wrong name or password")
    with page.expect_response(lambda r: r.url.endswith("/session") and r.status == 429) as answer:
        _try(form, name, "guess 3")
    wait = int(answer.value.headers["retry-after"])
    assert 125 <= wait <= 130, wait
    expect(alert).to_have_text(
        f"Too many failed sign-ins for this name from here. Try again in 2 minutes {wait - 120} seconds.")
    box = alert.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, box  # readable, not cut off
    picture(page, f"sign-in-wait-{size}", full_page=True)
    # another name from here is not held up: a player sharing the address signs in
    _try(form, "Alice", PASSWORD)
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()
    ctx.close()


def test_the_form_says_when_the_wait_is_over(site) -> None:
    """The page counts the wait itself: once Retry-After has passed it says so (one more
    announcement, not one a second)."""
    url, browser, _ = site
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    page.clock.install()
    page.goto(url + "/")
    form = page.get_by_role("form", name="Sign in")
    for attempt in range(3):
        _try(form, "Nobody at all", f"guess {attempt}")
        if attempt < 2:
            expect(form.get_by_role("alert")).to_have_text("wrong name or password")
    expect(form.get_by_role("alert")).to_contain_text("Try again in 2 minutes")
    page.clock.run_for(131_000)
    expect(form.get_by_role("alert")).to_have_text("You can try again now.")
    ctx.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_lobby_says_when_phones_cannot_open_its_code(site, size) -> None:
    """A room served on 127.0.0.1 (``./run``): its code is of an address only this machine can
    open, and the lobby says so and names ``./run serve --lan``. Opened at ``localhost`` there is
    no code at all, and the panel says why and what to do."""
    url, browser, _ = site
    width, height = SIZES[size]
    ctx = browser.new_context(viewport={"width": width, "height": height})
    page = ctx.new_page()
    page.goto(url + "/")
    box = page.get_by_role("region", name="Join from your phone")
    expect(box.get_by_role("img", name=f"QR code of {url}/")).to_be_visible()
    hint = box.locator("#join-hint")
    expect(hint).to_have_text("Only this computer can open this address. To let phones join, serve the room on "
                              "the local network: ./run serve --lan")
    hint.scroll_into_view_if_needed()
    picture(page, f"lobby-join-here-only-{size}", full_page=True)
    page.goto(url.replace("127.0.0.1", "localhost") + "/")
    box = page.get_by_role("region", name="Join from your phone")
    expect(box).to_contain_text("No code: a phone cannot reach the address")
    expect(box).to_contain_text("./run serve --lan")
    expect(box.locator("img.qr")).to_be_hidden()
    expect(box.locator("#join-hint")).to_have_count(0)
    ctx.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_admin_is_told_of_a_walk_ins_name_and_a_look_alike(site, size) -> None:
    url, browser, _ = site
    width, height = SIZES[size]
    ctx = browser.new_context(viewport={"width": width, "height": height})
    page = ctx.new_page()
    page.goto(url + "/admin")
    form = page.get_by_role("form", name="Sign in")
    _try(form, "admin", PASSWORD)
    accounts = page.get_by_role("form", name="Create an account")
    why = accounts.get_by_role("alert")
    for name, says in (("aIice", "'aIice' reads like 'Alice' (an account of this event"),
                       ("Hana", "'Hana' is a walk-in's name tonight")):
        accounts.get_by_label("Name").fill(name)
        accounts.get_by_label("Password").fill("a password")
        accounts.get_by_role("button", name="Create account").click()
        expect(why).to_contain_text(says)
    expect(why).to_contain_text("then link the walk-in to it (Walk-ins on the admin page")
    expect(why).to_have_attribute("data-rule", "walk_in_name")  # the rule for tools; the words for the host
    expect(why).not_to_contain_text("(walk_in_name)")
    box = why.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, box
    why.scroll_into_view_if_needed()
    picture(page, f"admin-walk-in-name-{size}")
    ctx.close()
