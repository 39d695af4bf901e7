"""The house rules of a Blackjack table: one value, every option, one preset per seed document.

Every key is documented in ``docs/rules.md`` together with the sentence of the seed document
that each preset setting implements. The command line, the API and the web page all use
these names.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Final

from ..core import money
from ..core.errors import ConfigError

BLACKJACK_PAYS: Final = ("3:2", "6:5", "1:1")
DOUBLE_ON: Final = ("any", "9-11", "10-11")
SPLIT_BY: Final = ("rank", "value")
SURRENDER: Final = ("none", "late", "early")
HOLE_CARD: Final = ("peek", "no_peek_obo", "no_peek_all")
OBO_SPLIT_BUST: Final = ("counts", "lost")


@dataclass(frozen=True, slots=True)
class Rules:
    """House rules. Money keys are integer cents."""

    decks: int = 6
    penetration: float = 0.75
    burn_card: bool = True
    dealer_hits_soft_17: bool = False
    blackjack_pays: str = "3:2"
    double_on: str = "any"
    double_for_less: bool = False
    double_after_split: bool = True
    max_split_hands: int = 4
    split_by: str = "rank"
    resplit_aces: bool = False
    hit_split_aces: bool = False
    surrender: str = "none"
    hole_card: str = "peek"
    # Under no_peek_obo, a split hand that busted before the dealer's blackjack showed:
    # "counts" toward the original bet the blackjack collects, or was "lost" on its own.
    obo_split_bust: str = "counts"
    pay_naturals_immediately: bool = False
    insurance: bool = True
    even_money: bool = True
    min_bet: int = 100
    max_bet: int = 10_000
    seats: int = 7
    # Not rule keys: derived once, used on every hand.
    _bj_num: int = field(default=3, init=False, repr=False, compare=False)
    _bj_den: int = field(default=2, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _check(self)
        num, den = (int(x) for x in self.blackjack_pays.split(":"))
        object.__setattr__(self, "_bj_num", num)
        object.__setattr__(self, "_bj_den", den)

    # -- derived -------------------------------------------------------------------------
    def blackjack_win(self, bet: int) -> int:
        """What a natural wins on ``bet`` cents, rounded down to the cent (the house keeps the
        fraction: 3:2 on $0.25 wins $0.37). See docs/rules.md, "Rounding"."""
        return bet * self._bj_num // self._bj_den

    @property
    def peeks(self) -> bool:
        return self.hole_card == "peek"

    # -- conversion ----------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Every key with its value (money in cents), in declaration order."""
        return {k: getattr(self, k) for k in KEYS}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        unknown = sorted(set(data) - set(KEYS))
        if unknown:
            raise ConfigError(f"unknown rule key(s) {', '.join(unknown)}; valid keys: {', '.join(KEYS)}")
        return cls(**data)

    def with_(self, **changes: Any) -> Rules:
        return Rules.from_dict({**self.to_dict(), **changes})

    def with_overrides(self, assignments: list[str] | tuple[str, ...]) -> Rules:
        """Apply ``key=value`` strings as given to ``--set`` (values parsed per key)."""
        changes: dict[str, Any] = {}
        for item in assignments:
            if "=" not in item:
                raise ConfigError(f"--set takes key=value, got {item!r}; valid keys: {', '.join(KEYS)}")
            key, raw = (s.strip() for s in item.split("=", 1))
            changes[key] = parse_value(key, raw)
        return self.with_(**changes)


KEYS: Final[tuple[str, ...]] = tuple(
    f.name for f in dataclasses.fields(Rules) if not f.name.startswith("_")
)
_CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "blackjack_pays": BLACKJACK_PAYS,
    "double_on": DOUBLE_ON,
    "split_by": SPLIT_BY,
    "surrender": SURRENDER,
    "hole_card": HOLE_CARD,
    "obo_split_bust": OBO_SPLIT_BUST,
}
_INT_RANGES: Final[dict[str, tuple[int, int]]] = {
    "decks": (1, 8),
    "max_split_hands": (1, 4),
    "seats": (1, 7),
}
_MONEY: Final = ("min_bet", "max_bet")
_BOOLS: Final = tuple(
    f.name for f in dataclasses.fields(Rules) if f.type in ("bool", bool) and not f.name.startswith("_")
)
_TRUE: Final = {"true", "yes", "on", "1", "y"}
_FALSE: Final = {"false", "no", "off", "0", "n"}


def describe_valid(key: str) -> str:
    """What values ``key`` accepts, in words."""
    if key in _CHOICES:
        return "one of " + ", ".join(repr(c) for c in _CHOICES[key])
    if key in _INT_RANGES:
        lo, hi = _INT_RANGES[key]
        return f"a whole number from {lo} to {hi}"
    if key in _MONEY:
        return "an amount such as 5 or $0.50 (at least one cent)"
    if key == "penetration":
        return "a fraction of the shoe dealt before the cut card, from 0.25 to 1.0"
    return "true or false"


def parse_value(key: str, raw: str) -> Any:
    """Turn the text of ``--set key=value`` into the key's type, or raise a clear error."""
    if key not in KEYS:
        raise ConfigError(f"unknown rule key {key!r}; valid keys: {', '.join(KEYS)}")
    try:
        if key in _BOOLS:
            low = raw.lower()
            if low in _TRUE:
                return True
            if low in _FALSE:
                return False
            raise ValueError
        if key in _MONEY:
            return money.parse(raw)
        if key in _INT_RANGES:
            return int(raw)
        if key == "penetration":
            return float(raw)
        return raw
    except (ValueError, money.MoneyError):
        raise ConfigError(f"bad value {raw!r} for {key}: it must be {describe_valid(key)}") from None


def _check(r: Rules) -> None:
    for key in KEYS:
        v = getattr(r, key)
        ok: bool
        if key in _CHOICES:
            ok = v in _CHOICES[key]
        elif key in _BOOLS:
            ok = isinstance(v, bool)
        elif key in _INT_RANGES:
            lo, hi = _INT_RANGES[key]
            ok = isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi
        elif key in _MONEY:
            ok = isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= money.MAX_CENTS
        elif key == "penetration":
            ok = isinstance(v, (int, float)) and not isinstance(v, bool) and 0.25 <= v <= 1.0
        else:  # pragma: no cover - every key has a kind
            raise AssertionError(key)
        if not ok:
            raise ConfigError(f"bad value {v!r} for {key}: it must be {describe_valid(key)}")
    if r.min_bet > r.max_bet:
        raise ConfigError(
            f"min_bet ({money.format(r.min_bet)}) is above max_bet ({money.format(r.max_bet)})"
        )


# -- presets: one per seed document (see docs/rules.md for the sentence behind each key) --

PRESETS: Final[dict[str, Rules]] = {
    # "The Blackjack Syndicate — Rules of Play" (seed 000).
    "syndicate": Rules(
        decks=6,
        dealer_hits_soft_17=False,
        blackjack_pays="3:2",
        double_on="any",
        double_after_split=True,
        max_split_hands=4,
        split_by="rank",
        resplit_aces=False,
        hit_split_aces=False,
        surrender="late",
        hole_card="peek",
        pay_naturals_immediately=False,
        insurance=True,
        even_money=True,
    ),
    # "Casino Blackjack (Group 53), Appendix A", from Jupiter's Blackjack Manual (seed 001).
    "jupiters": Rules(
        decks=6,
        dealer_hits_soft_17=False,
        blackjack_pays="3:2",
        double_on="9-11",
        double_after_split=True,
        max_split_hands=4,
        split_by="value",
        resplit_aces=False,
        hit_split_aces=False,
        surrender="none",
        hole_card="no_peek_obo",
        obo_split_bust="lost",
        pay_naturals_immediately=True,
        insurance=True,
        even_money=True,
    ),
    # The event notice: "Blackjack or '21' ..." with the list of authorized dealers (seed 002).
    "notice": Rules(
        decks=6,
        dealer_hits_soft_17=False,
        blackjack_pays="3:2",
        double_on="any",
        double_after_split=True,
        max_split_hands=4,
        split_by="value",
        resplit_aces=False,
        hit_split_aces=False,
        surrender="none",
        hole_card="no_peek_all",
        pay_naturals_immediately=False,
        insurance=False,
        even_money=False,
    ),
}
PRESET_TITLES: Final[dict[str, str]] = {
    "syndicate": "The Blackjack Syndicate — Rules of Play",
    "jupiters": "Casino Blackjack (Group 53), from Jupiter's Blackjack Manual",
    "notice": "The event notice (Blackjack or \"21\", with the authorized dealers)",
}
DEFAULT_PRESET: Final = "syndicate"


def preset(name: str, overrides: list[str] | tuple[str, ...] = ()) -> Rules:
    """The named preset with ``key=value`` overrides applied."""
    try:
        base = PRESETS[name]
    except KeyError:
        raise ConfigError(f"unknown preset {name!r}; presets: {', '.join(PRESETS)}") from None
    return base.with_overrides(overrides) if overrides else base
