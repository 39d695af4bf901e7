"""What the browser tests do the same way on every page: sign in through the page's form, and
write an amount as the pages do."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.room.kit import PASSWORD


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
