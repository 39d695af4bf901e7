"""What the browser tests do the same way on every page: sign in through the page's form, and
write an amount as the pages do, run a table's dealer over the live protocol."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from playwright.sync_api import expect

from syndicate.apps.client import TableClient
from tests.kit.room import PASSWORD


def laid_out(page: Any) -> None:
    """After a resize: wait until the page has drawn a frame at its new size (two animation
    frames: the layout and media queries of the new size have applied), not a guessed time."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def sign_in_page(page: Any, url: str, name: str, path: str = "/") -> Any:
    """Open ``path`` and sign in as ``name`` with its form; waits until the sign-in has landed."""
    page.goto(url + path)
    form = page.get_by_role("form", name="Sign in")
    form.get_by_label("Name").fill(name)
    form.get_by_label("Password").fill(PASSWORD)
    form.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()
    return page


def sign_in(world: Any, who: str, name: str, path: str = "/") -> Any:
    """:func:`sign_in_page` in the world's browser context ``who``."""
    return sign_in_page(world.page(who), world.url, name, path)


def dollars(cents: int) -> str:
    """An amount as the pages show it: ``$1,234.50``, ``−$5.00`` (a minus sign, not a hyphen)."""
    sign = "−" if cents < 0 else ""
    c = abs(cents)
    return f"{sign}${c // 100:,}.{c % 100:02d}"


def hand_id(world: Any, table: int, number: int) -> int:
    """The evening-wide number of the ``number``-th hand of ``table``: the number every page says."""
    ev = world.cast.event.id
    with world.room.store.transaction() as repo:
        return next(h.id for h in repo.hands(ev, table, limit=10_000) if h.number == number)


class Dealer:
    """A table's dealer over the live protocol, on an event loop of its own (Playwright's sync
    API keeps one running in the test's thread)."""

    def __init__(self, url: str, table: int, token: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.client: TableClient = self.run(TableClient.connect(url, table, token))

    def run(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(30)

    def act(self, action: str, **fields: Any) -> dict[str, Any]:
        return self.run(self.client.act(action, **fields))

    def close(self) -> None:
        self.run(self.client.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
