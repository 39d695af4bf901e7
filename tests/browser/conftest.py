"""Browser tests: Python Playwright driving Debian's Chromium (headless) against a real uvicorn
server in a thread of the test process, on a fresh SQLite file, with a stacked first shoe so
the Blackjack round is known in advance (a split and a double). See docs/browser.md."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

# Chromium's presence is checked before the run (tests/prerequisites.py); under CI a skip here
# fails (tests/conftest.py).
sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright (the test extra)")

from syndicate.core.cards import parse  # noqa: E402
from syndicate.core.shoe import Shoe  # noqa: E402
from syndicate.room.cardroom import CardRoom  # noqa: E402
from syndicate.room.live.clocks import Timers  # noqa: E402
from syndicate.store import Database, SqlStore  # noqa: E402
from syndicate.web import create_app  # noqa: E402
from tests.kit.clock import SkippingClock  # noqa: E402
from tests.kit.room import CHROMIUM, FAST_HASHER, LiveServer, make_cast  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
#: The pictures are taken only when asked for, into the folder named: build/browser (ignored by
#: git) to look at the pages (SYNDICATE_SCREENSHOTS=build/browser ./run test tests/browser),
#: docs/img to refresh the ones the README and docs show. A picture costs more CPU than the step
#: it shows, so the everyday run checks the layout at every size and saves none.
PICTURES = os.environ.get("SYNDICATE_SCREENSHOTS", "")
#: Where the pictures and the measured figures (taps, first render) go.
IMG = ROOT / (PICTURES or "build/browser")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
VIEWPORT = {"width": 1200, "height": 800}

#: The first Blackjack round, dealt in this order: Alice (seat 1) 8s 8d, Bob (seat 2) 5c 6d,
#: the dealer 6h up and Qc in the hole. Alice splits; her first hand draws 3h (11) and doubles
#: on 9c (20); her second draws Ts (18) and stands. Bob doubles his 11 on Kd (21). The dealer
#: turns the Qc (16) and draws 4c: 20. Alice pushes one hand and loses the other, Bob wins.
FIRST_ROUND = "8s 5c 6h 8d 6d Qc 3h 9c Ts Kd 4c"
HOLE = "Qc"
FILLER = " ".join(r + s for _ in range(6) for r in "23456789TJQKA" for s in "cdhs")


#: At a table that doubles for less, Alice plays alone: 6c 5d (11) against the dealer's Ah up
#: and 9s in the hole. She insures for less ($2 of $5), the dealer has no blackjack; she doubles
#: for less ($4 on $10) on Tc: 21 beats the dealer's 20. Then the plain decks: her next round is
#: 2c 2h against 2d (the 2s in the hole), and the dealer draws to 20.
FOR_LESS_ROUND = "6c Ah 5d 9s Tc"


#: The first round of the next Blackjack shoes, in the order they are made (a test that needs its
#: own cards puts them here before its table's first round).
NEXT_FIRST_ROUNDS: list[str] = []


def stacked_shoe(rules: Any) -> Shoe:
    """Every Blackjack shoe of these tests: the scripted round, then six plain decks in order."""
    first = NEXT_FIRST_ROUNDS.pop(0) if NEXT_FIRST_ROUNDS else FOR_LESS_ROUND if rules.double_for_less else FIRST_ROUND
    return Shoe.stacked(parse(first + " " + FILLER, distinct=False), decks=rules.decks)


@dataclass
class World:
    server: LiveServer
    room: CardRoom
    cast: Any
    browser: Any
    #: the tables' clocks: real time, and a test may skip ahead (a turn clock running out)
    clock: SkippingClock = field(default_factory=SkippingClock)
    pages: dict[str, Any] = field(default_factory=dict)
    tables: dict[str, int] = field(default_factory=dict)
    notes: dict[str, Any] = field(default_factory=dict)

    @property
    def url(self) -> str:
        return self.server.url

    def page(self, who: str) -> Any:
        """One browser context (its own cookies) and page per person."""
        if who not in self.pages:
            ctx = self.browser.new_context(viewport=VIEWPORT)
            ctx.set_default_timeout(10_000)
            page = ctx.new_page()
            page.on("pageerror", lambda e, who=who: self.notes.setdefault("page_errors", []).append(f"{who}: {e}"))
            self.pages[who] = page
        return self.pages[who]


@pytest.fixture(scope="package")
def chromium() -> Iterator[Any]:
    """One Chromium for the browser tests a worker runs one after another (each module opens its
    own contexts in it, and closes them). Package-scoped, not session-scoped: Playwright's sync
    API keeps an event loop of its own, which must be gone before a test of another package
    runs its own with ``asyncio.run``."""
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory, chromium: Any) -> Iterator[World]:
    url = f"sqlite:///{tmp_path_factory.mktemp('browser') / 'syndicate.db'}"
    db = Database(url)
    db.migrate()
    room = CardRoom(SqlStore(db), FAST_HASHER)
    cast = make_cast(room)
    clock = SkippingClock()
    app = create_app(database=db, hasher=FAST_HASHER, migrate=False, timers=Timers(turn=120, source=clock),
                     new_shoe=stacked_shoe)
    server = LiveServer(app)
    w = World(server, room, cast, chromium, clock)
    try:
        yield w
    finally:
        for ctx in chromium.contexts:  # every context this module's tests opened
            ctx.close()
        server.stop()
        db.dispose()


def picture(target: Any, name: str, **options: Any) -> None:
    """``target`` (a page, or a locator for one part of it) as ``IMG/<name>.png`` when pictures are
    asked for. Either way a part must be on the screen, as its picture would need it to be."""
    if not PICTURES:
        if hasattr(target, "wait_for"):
            target.wait_for(state="visible")
        return
    IMG.mkdir(parents=True, exist_ok=True)
    target.screenshot(path=str(IMG / f"{name}.png"), **options)
