"""Chips are integer cents, always.

Amounts are parsed and formatted only at the edges (the command line, the web page);
everything inside works on ``int`` cents, so a pot split three ways never leaves a
fraction of a cent lying around.
"""

from __future__ import annotations

import re

#: The largest amount a person types (a buy-in, chips sold, a bet limit): $10,000,000.00.
#: Anything larger is a typo. It bounds what is typed, not what is held: a stack that wins
#: goes past it, and the ledger moves whatever exists (:data:`MAX_HELD`).
MAX_CENTS = 1_000_000_000
#: The most a balance or one ledger move can hold: the database's 64-bit integer (``BIGINT``
#: on PostgreSQL, ``INTEGER`` on SQLite), some 92 quadrillion dollars.
MAX_HELD = 2**63 - 1

_AMOUNT = re.compile(r"^\$?\s*(?P<whole>\d{1,3}(?:,\d{3})+|\d+)?(?:\.(?P<frac>\d+))?$")


class MoneyError(ValueError):
    """An amount that is not a valid number of chips."""


def parse(text: str | int) -> int:
    """Parse a dollar amount such as ``"$0.50"``, ``"0.5"``, ``"5"`` or ``"1,250.00"`` into cents.

    An ``int`` is taken as cents already and only range-checked. Negative amounts,
    fractions of a cent and amounts over :data:`MAX_CENTS` are rejected.
    """
    if isinstance(text, bool):
        raise MoneyError(f"not an amount: {text!r}")
    if isinstance(text, int):
        return check(text)
    if not isinstance(text, str):
        raise MoneyError(f"not an amount: {text!r}")
    raw = text.strip()
    if raw.startswith("-") or raw.startswith("$-"):
        raise MoneyError(f"amounts cannot be negative: {text!r}")
    m = _AMOUNT.match(raw)
    if not m or (m.group("whole") is None and m.group("frac") is None):
        raise MoneyError(f"not an amount: {text!r} (write dollars such as 5, 0.50 or $12.25)")
    whole = int((m.group("whole") or "0").replace(",", ""))
    frac = m.group("frac") or ""
    if len(frac) > 2 and set(frac[2:]) != {"0"}:
        raise MoneyError(f"amounts are whole cents; {text!r} has a fraction of a cent")
    frac = (frac + "00")[:2]
    if whole > MAX_CENTS // 100:
        raise MoneyError(f"amount too large: {text!r} (the most is {format(MAX_CENTS)})")
    return check(whole * 100 + int(frac))


def _whole_cents(cents: int) -> int:
    """``cents`` if it is a whole, non-negative number of cents, else :class:`MoneyError`."""
    if isinstance(cents, bool) or not isinstance(cents, int):
        raise MoneyError(f"amounts are whole cents (int), got {type(cents).__name__}")
    if cents < 0:
        raise MoneyError(f"amounts cannot be negative: {cents} cents")
    return cents


def check(cents: int) -> int:
    """Return ``cents`` if it is a valid amount of chips, else raise :class:`MoneyError`."""
    if _whole_cents(cents) > MAX_CENTS:
        raise MoneyError(f"amount too large: {cents} cents (the most is {format(MAX_CENTS)})")
    return cents


def check_held(cents: int) -> int:
    """Return ``cents`` if it is an amount of chips someone may hold (a stack, a balance), else
    raise :class:`MoneyError`: whole, not negative, within :data:`MAX_HELD`. No typo guard
    here: chips won are never "too large"."""
    if _whole_cents(cents) > MAX_HELD:
        raise MoneyError(f"amount beyond what the ledger holds: {cents} cents")
    return cents


def format(cents: int) -> str:
    """Format cents as dollars: ``50`` → ``"$0.50"``, ``-1250`` → ``"-$12.50"``."""
    sign = "-" if cents < 0 else ""
    whole, frac = divmod(abs(cents), 100)
    return f"{sign}${whole:,}.{frac:02d}"
