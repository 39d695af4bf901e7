"""The browser-page fixes of "The host's evening": each finding of a newcomer's evening, seen
in the browser as a person would (the house's figures in view, the draw table's limits, the
chips to bring, the ledger agreeing with the leaderboard, a confirmation before revoking, the
favicon). The tests run in order on one server (the ``world`` fixture)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from syndicate.room.ledger import player_key

from .conftest import picture
from .steps import sign_in

SIZES = {"phone": (390, 844), "tablet": (768, 1024), "desktop": (1280, 800), "wide": (1600, 900)}


def shot(page, name: str) -> None:
    picture(page, f"pages-{name}", full_page=True)


def boxes_apart(page, selector: str) -> list[str]:
    """Pairs of the elements matched that touch or overlap (less than 8 px apart)."""
    return page.evaluate("""(sel) => {
      const r = [...document.querySelectorAll(sel)].map((e) => [e.id || e.getAttribute('aria-labelledby'), e.getBoundingClientRect()]);
      const bad = [];
      for (let i = 0; i < r.length; i++) for (let j = i + 1; j < r.length; j++) {
        const [a, A] = r[i], [b, B] = r[j];
        const gapX = Math.max(B.left - A.right, A.left - B.right), gapY = Math.max(B.top - A.bottom, A.top - B.bottom);
        if (Math.max(gapX, gapY) < 8) bad.push(`${a} / ${b}`);
      }
      return bad; }""", selector)


def test_the_house_figures_are_in_view_and_the_panels_apart(world) -> None:
    admin = sign_in(world, "admin", "admin", "/admin")
    world.room.cashier.buy_in(world.cast.admin, world.cast.alice.id, 20_000)
    for size in ("desktop", "wide"):
        w, h = SIZES[size]
        admin.set_viewport_size({"width": w, "height": h})
        admin.reload()
        figures = admin.get_by_role("table", name="House figures")
        expect(figures).to_be_visible()
        for col in ("Hands", "House result"):
            head = figures.get_by_role("columnheader", name=col)
            expect(head).to_be_visible()
            box, panel = head.bounding_box(), admin.locator("#figures").bounding_box()
            assert box["x"] + box["width"] <= panel["x"] + panel["width"] + 1, (size, col)
        scroll = admin.evaluate("(() => { const s = document.getElementById('figures').closest('section');"
                                " return [s.scrollWidth, s.clientWidth]; })()")
        assert scroll[0] <= scroll[1], (size, scroll)  # nothing behind a horizontal scroll
        assert boxes_apart(admin, "main section.card-box") == [], size
        # The pit-boss list shows a whole name.
        boss = admin.get_by_role("form", name="Authorize a dealer").get_by_label("Pit boss")
        fits = admin.evaluate("""(el) => { const c = document.createElement('canvas').getContext('2d');
          c.font = getComputedStyle(el).font; return el.clientWidth - c.measureText('Jean-Marc').width; }""",
                              boss.element_handle())
        assert fits > 28, (size, fits)  # the name and the native arrow beside it
        shot(admin, f"admin-{size}")


def test_revoke_asks_first(world) -> None:
    admin = world.page("admin")
    admin.set_viewport_size({"width": 1280, "height": 800})
    admin.goto(world.url + "/admin")
    under = admin.get_by_role("list", name="Dealers under Jean-Marc")
    expect(under).to_contain_text("Kyohei")
    asked: list[str] = []
    admin.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    admin.get_by_role("button", name="Revoke Kyohei").click()
    expect(admin.get_by_role("button", name="Revoke Kyohei")).to_be_visible()
    assert asked and "Revoke Kyohei?" in asked[0] and "tables" in asked[0]
    active = {e.dealer for e in world.room.roster.entries(world.cast.event.id) if e.active}
    assert "Kyohei" in active  # dismissed: nothing changed
    admin.reload()
    expect(admin.get_by_role("list", name="Dealers under Jean-Marc")).to_contain_text("Kyohei")
    admin.once("dialog", lambda d: d.accept())
    admin.get_by_role("button", name="Revoke Kyohei").click()
    expect(admin.get_by_role("button", name="Revoke Kyohei")).to_have_count(0)
    expect(admin.get_by_text(re.compile("Revoked: .*Kyohei"))).to_be_visible()
    assert "Kyohei" not in {e.dealer for e in world.room.roster.entries(world.cast.event.id) if e.active}


def test_switching_the_game_resets_the_form_to_its_preset(world) -> None:
    dealer = sign_in(world, "dealer", "Bokuden", "/dealer")
    form = dealer.get_by_role("form", name="Open a table")
    expect(form.get_by_label("Minimum bet ($)")).to_have_value("1.00")  # the syndicate preset
    expect(form.get_by_label("Maximum bet ($)")).to_have_value("100.00")
    expect(form.get_by_label("Decks", exact=True)).to_have_value("6")
    form.get_by_label("Minimum bet ($)").fill("5")  # the newcomer's Blackjack limits
    form.get_by_label("Maximum bet ($)").fill("50")
    form.get_by_label("Game").select_option("poker")
    expect(form.get_by_label("Game").locator("option:checked")).to_have_text("Five-card draw")
    expect(form.get_by_label("Minimum bet ($)")).to_have_value("0.50")
    expect(form.get_by_label("Maximum bet ($)")).to_have_value("5.00")
    expect(form.get_by_label("Ante ($)")).to_have_value("0.50")
    form.get_by_label("Table name").fill("Bokuden's draw")
    form.get_by_role("button", name="Open table").click()
    box = dealer.get_by_role("region", name="Bokuden's draw")
    expect(box).to_contain_text("Five-card draw")
    expect(box).not_to_contain_text("(poker")
    # Every input has a label a person can see, not only a name for screen readers.
    expect(box.locator("label", has_text="Bots to seat").locator("input")).to_be_visible()
    expect(box.locator("label", has_text="New ante ($)").locator("input")).to_be_visible()
    t = next(x for x in world.room.tables.lobby(world.cast.event.id) if x.name == "Bokuden's draw")
    assert (t.rules["min_bet"], t.rules["max_bet"]) == (50, 500)
    assert (t.rules["min_raise"], t.rules["max_raise"]) == (50, 500)
    world.tables["draw"] = t.id
    form.get_by_label("Game").select_option("blackjack")
    expect(form.get_by_label("Minimum bet ($)")).to_have_value("1.00")
    form.get_by_label("Preset").select_option("jupiters")
    jupiters = next(p for p in dealer.request.get(world.url + "/api/presets").json()["blackjack"] if p["name"] == "jupiters")
    expect(form.get_by_label("Minimum bet ($)")).to_have_value(f"{jupiters['rules']['min_bet'] / 100:.2f}")
    form.get_by_label("Game").select_option("blackjack")
    form.get_by_label("Preset").select_option("syndicate")
    form.get_by_label("Table name").fill("Bokuden's 21")
    form.get_by_role("button", name="Open table").click()
    expect(dealer.get_by_role("region", name="Bokuden's 21")).to_be_visible()
    world.tables["blackjack"] = next(x.id for x in world.room.tables.lobby(world.cast.event.id) if x.name == "Bokuden's 21")
    shot(dealer, "dealer")


def test_chips_to_bring_follow_the_bankroll_and_the_ledger_agrees_with_the_leaderboard(world) -> None:
    ev = world.cast.event.id
    alice = sign_in(world, "alice", "Alice")
    alice.goto(f"{world.url}/tables/{world.tables['draw']}")
    expect(alice.get_by_test_id("connection")).to_have_text("connected")
    bring = alice.get_by_label("Chips to bring, dollars")
    # max_bet $5 at this table: 50 bets of it ($250) is more than her $200 bankroll.
    expect(bring).to_have_value("200.00")
    alice.get_by_role("button", name="Sit at seat 1").click()  # without typing: the suggestion
    expect(alice.get_by_test_id("stack")).to_have_text("At this table: $200.00")
    assert world.room.ledger.balance(ev, player_key(world.cast.alice.id)) == 0

    # While she sits: the ledger view shows her chips at the table, and its total is the
    # leaderboard's.
    admin = world.page("admin")
    admin.goto(world.url + "/admin")
    ledger = admin.locator("#ledger")
    ledger.get_by_label("Player whose ledger to show").select_option(label="Alice")
    ledger.get_by_role("button", name="Show ledger").click()
    chips = admin.get_by_role("table", name="Chips of Alice")
    expect(chips.get_by_role("row", name=re.compile(f"Chips at table {world.tables['draw']}"))).to_contain_text("$200.00")
    board = {r["player"]: r["balance"] for r in admin.request.get(f"{world.url}/api/events/{ev}/leaderboard").json()}
    expect(admin.get_by_test_id("ledger-total")).to_have_text(f"${board['Alice'] // 100:,}.{board['Alice'] % 100:02d}")
    assert board["Alice"] == 20_000

    # Leaving brings the chips back, and the field says the bankroll now, not a stale figure.
    world.room.cashier.buy_in(world.cast.admin, world.cast.alice.id, 750)
    alice.get_by_role("button", name="Leave seat").click()
    expect(alice.get_by_role("button", name="Sit at seat 1")).to_be_visible()
    expect(alice.get_by_test_id("bankroll")).to_have_text("Bankroll: $207.50")
    expect(bring).to_have_value("207.50")


def test_favicon_is_served(world) -> None:
    page = world.page("alice")
    r = page.request.get(world.url + "/favicon.ico")
    assert r.status == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert "<svg" in r.text()
    assert page.evaluate("document.querySelector('link[rel=icon]').href").endswith("/static/favicon.svg")


def test_axe_finds_no_serious_violation_on_any_page(world) -> None:
    from .axe import violations

    found: dict[str, list[str]] = {}
    for who, name in ((None, None), ("alice", "Alice"), ("dealer", "Bokuden"), ("admin", "admin")):
        ctx = world.browser.new_context(viewport={"width": 1280, "height": 800}) if who is None else None
        page = ctx.new_page() if ctx else world.page(who)
        paths = {None: ["/", f"/tables/{world.tables['draw']}", f"/tables/{world.tables['blackjack']}/rules"],
                 "alice": ["/", f"/tables/{world.tables['draw']}", f"/tables/{world.tables['blackjack']}",
                           f"/tables/{world.tables['blackjack']}/rules"],
                 "dealer": ["/dealer"], "admin": ["/admin"]}[who]
        for path in paths:
            page.goto(world.url + path)
            # A function, not an expression: Playwright evaluates an expression string with eval,
            # which the pages' CSP (no 'unsafe-eval') rightly refuses.
            page.wait_for_function("() => !document.querySelector('main [aria-busy=true]') && "
                                   "!/Loading…|Connecting…/.test(document.querySelector('main').textContent)")
            found[f"{who or 'signed out'} {path}"] = violations(page)
        if ctx:
            ctx.close()
    assert not any(found.values()), {k: v for k, v in found.items() if v}


def test_a_signed_out_table_says_what_to_do(world) -> None:
    ctx = world.browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    failed: list[str] = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status == 404 else None)
    page.goto(f"{world.url}/tables/{world.tables['draw']}")
    expect(page.get_by_test_id("signed-out")).to_contain_text("Sign in above to watch or play")
    expect(page.get_by_role("form", name="Sign in")).to_be_visible()
    expect(page.get_by_role("group", name="Table")).to_be_hidden()
    expect(page.locator("#keys")).to_be_hidden()
    assert not failed, failed  # the favicon too
    shot(page, "table-signed-out-phone")
    ctx.close()


def test_a_signed_out_page_asks_who_without_an_error(world) -> None:
    ctx = world.browser.new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.goto(world.url + "/")
    expect(page.get_by_role("form", name="Sign in")).to_be_visible()
    expect(page.get_by_role("table", name="Leaderboard")).to_be_visible()
    assert not errors, errors  # no 401 from /api/me, no 404 for the favicon
    r = page.request.get(world.url + "/api/session")
    assert r.status == 200 and r.json() == {"account": None, "may": []}
    assert page.request.get(world.url + "/api/me").status == 401  # programs still get the 401
    ctx.close()
