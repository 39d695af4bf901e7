"""Chips into raffle tickets: one ticket per ``rate`` cents of chips, rounded as the host chose,
with a minimum each guest is guaranteed and a cap no guest goes over (docs/prize-draw.md)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from ..core import money
from ..core.errors import RuleError

#: How a part of a ticket's worth of chips counts.
ROUNDINGS: Final = ("down", "up", "nearest")


class TicketRuleError(RuleError):
    """A conversion rule that cannot be applied (a rate of zero, a cap under the minimum)."""


@dataclass(frozen=True, slots=True)
class TicketRate:
    """One ticket for every ``rate`` cents of chips (``rounding`` for the part left over), at
    least ``minimum`` for every guest taking part, at most ``cap`` (``None``: no cap)."""

    rate: int
    rounding: str = "down"
    minimum: int = 0
    cap: int | None = None

    def __post_init__(self) -> None:
        if type(self.rate) is not int or self.rate <= 0:
            raise TicketRuleError("ticket_rate", f"a ticket's worth of chips must be a positive whole number "
                                  f"of cents, not {self.rate!r}")
        if self.rounding not in ROUNDINGS:
            raise TicketRuleError("ticket_rounding", f"rounding is one of {', '.join(ROUNDINGS)}, "
                                  f"not {self.rounding!r}")
        if type(self.minimum) is not int or self.minimum < 0:
            raise TicketRuleError("ticket_minimum", f"the tickets each guest is guaranteed are a whole number "
                                  f"from 0, not {self.minimum!r}")
        if self.cap is not None and (type(self.cap) is not int or self.cap < max(1, self.minimum)):
            raise TicketRuleError("ticket_cap", f"the most tickets a guest may have is a whole number of at "
                                  f"least the minimum ({max(1, self.minimum)}), not {self.cap!r}")

    def tickets(self, chips: int) -> int:
        """The tickets ``chips`` cents of chips buy under this rate."""
        if type(chips) is not int or chips < 0:
            raise TicketRuleError("ticket_chips", f"chips to convert are a whole number of cents from 0, "
                                  f"not {chips!r}")
        whole, part = divmod(chips, self.rate)
        if part and (self.rounding == "up" or (self.rounding == "nearest" and 2 * part >= self.rate)):
            whole += 1
        whole = max(whole, self.minimum)
        return whole if self.cap is None else min(whole, self.cap)

    def describe(self) -> str:
        """The rule in a host's words: "1 ticket per $100.00 of chips, rounded up, at least 1"."""
        words = [f"1 ticket per {money.format(self.rate)} of chips"]
        if self.rounding != "down":
            words.append("rounded up" if self.rounding == "up" else "rounded to the nearest")
        if self.minimum:
            words.append(f"at least {self.minimum}")
        if self.cap is not None:
            words.append(f"at most {self.cap}")
        return ", ".join(words)


def convert(chips: Mapping[int, int], rate: TicketRate) -> dict[int, int]:
    """Each guest's tickets (guest id: tickets) from their chips (guest id: cents); a guest with
    no ticket is left out."""
    out = {guest: rate.tickets(c) for guest, c in sorted(chips.items())}
    return {g: n for g, n in out.items() if n > 0}
