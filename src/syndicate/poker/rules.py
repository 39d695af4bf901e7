"""A five-card draw table's settings (:class:`DrawRules`): the ante, the limits, the draw and
the odd chip. Money is integer cents."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..core import money
from ..core.errors import ConfigError
from .pots import ODD_CHIP_RULES


@dataclass(frozen=True, slots=True)
class DrawRules:
    """A five-card draw table's settings. Money is integer cents.

    ``raise_cap`` is the number of raises allowed in a betting round after the opening bet
    (``None``: no cap). The default, 3 ("a bet and three raises"), is the usual card-room
    limit rule: it keeps the most anyone can be asked to put in per round at four bets, and
    stops two players from raising back and forth to squeeze a third caught in the middle.
    """

    ante: int = 50
    chip: int = 50
    min_bet: int = 50
    max_bet: int = 500
    min_raise: int = 50
    max_raise: int = 500
    raise_cap: int | None = 3
    max_discard: int = 3
    ace_discard: bool = True  # four may be thrown when the card kept is an Ace, shown
    odd_chip: str = "carry"  # or "left_of_button"
    min_ante: int = 50
    max_ante: int = 500
    min_players: int = 2
    max_players: int = 7

    def __post_init__(self) -> None:
        ints = ("ante", "chip", "min_bet", "max_bet", "min_raise", "max_raise", "max_discard",
                "min_ante", "max_ante", "min_players", "max_players")
        for key in ints:
            v = getattr(self, key)
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise ConfigError(
                    f"{key} must be a non-negative integer (cents for money), got {v!r}"
                )
        if self.chip <= 0:
            raise ConfigError(f"chip must be positive, got {self.chip}")
        for key in ("ante", "min_bet", "max_bet", "min_raise", "max_raise", "min_ante", "max_ante"):
            if getattr(self, key) % self.chip:
                raise ConfigError(
                    f"{key} must be a whole number of chips ({money.format(self.chip)})"
                )
        if not 0 < self.min_bet <= self.max_bet or not 0 < self.min_raise <= self.max_raise:
            raise ConfigError("bet and raise limits need 0 < min <= max")
        if not 0 < self.min_ante <= self.ante <= self.max_ante:
            raise ConfigError(
                f"ante must be between {money.format(self.min_ante)} and "
                f"{money.format(self.max_ante)}, got {money.format(self.ante)}"
            )
        cap = self.raise_cap
        if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int) or cap < 0):
            raise ConfigError(
                f"raise_cap must be a non-negative integer or None, got {self.raise_cap!r}"
            )
        if not 0 <= self.max_discard <= 4:
            raise ConfigError(f"max_discard must be 0..4, got {self.max_discard}")
        if self.odd_chip not in ODD_CHIP_RULES:
            raise ConfigError(
                f"odd_chip must be one of {', '.join(ODD_CHIP_RULES)}, got {self.odd_chip!r}"
            )
        if not 2 <= self.min_players <= self.max_players <= 7:
            raise ConfigError("players must be 2..7 (five cards each and draws from one deck)")

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DrawRules:
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise ConfigError(
                f"unknown poker rule key(s) {', '.join(unknown)}; valid: {', '.join(sorted(names))}"
            )
        return cls(**data)

    def with_(self, **changes: Any) -> DrawRules:
        return dataclasses.replace(self, **changes)
