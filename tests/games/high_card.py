"""High card, a toy third game that lives only in the tests: each seat antes, gets one card
face down, and the highest rank takes the pot (a tie splits it, the odd chips to the lowest
seats). It is here to follow docs/architecture.md, "Adding a game", literally: the game's
package (this module), one :class:`~syndicate.room.games.GameKind`, one ``register`` call."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from typing import Any

from syndicate.core.shoe import Shoe
from syndicate.room.errors import BadRequest, Conflict
from syndicate.room.game import ChipCount, Game, Leaving, Players
from syndicate.room.games import GameKind, HistoryFormat, NewShoe
from syndicate.room.games.overrides import check_types
from syndicate.room.values import Table

ID = "high_card"
FORMAT = "syndicate-history"


# -- the rules and the engine (a real game's own package) ---------------------------------------
@dataclasses.dataclass(frozen=True)
class HighCardRules:
    ante: int = 100  # cents
    seats: int = 6

    def __post_init__(self) -> None:
        if not 0 < self.ante <= 100_000 or not 2 <= self.seats <= 10:
            raise ValueError("the ante is $0.01 to $1,000 and a table has 2 to 10 seats")

    # what the room reads of any game's rules
    @property
    def min_bet(self) -> int:
        return self.ante

    @property
    def max_bet(self) -> int:
        return self.ante

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HighCardRules:
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})


@dataclasses.dataclass
class Hand:
    """One hand: the antes, one card each, the pot to the highest. It is over once dealt."""

    number: int
    start: dict[int, int]
    stacks: dict[int, int]
    cards: dict[int, str]
    log: list[dict[str, Any]]
    to_act: int | None = None
    card_needed: None = None
    is_terminal: bool = True


def play(number: int, stacks: dict[int, int], ante: int, shoe: Shoe) -> Hand:
    seats = sorted(stacks)
    after = dict(stacks)
    log: list[dict[str, Any]] = []
    for s in seats:
        after[s] -= ante
        log.append({"type": "ante", "seat": s, "amount": ante})
    cards = {s: shoe.draw() for s in seats}
    for s in seats:
        log.append({"type": "card", "seat": s, "card": cards[s].text})
    best = max(c.rank for c in cards.values())
    winners = [s for s in seats if cards[s].rank == best]
    pot = ante * len(seats)
    share, odd = divmod(pot, len(winners))
    net = {}
    for i, s in enumerate(winners):
        after[s] += share + (1 if i < odd else 0)
    for s in seats:
        net[s] = after[s] - stacks[s]
    log.append({"type": "showdown", "winners": winners, "net": [[s, net[s]] for s in seats]})
    return Hand(number, dict(stacks), after, {s: c.text for s, c in cards.items()}, log)


# -- the adapter behind room/game.py's Game -----------------------------------------------------
class HighCardGame:
    name = ID
    hand_word = "hand"
    seat_actions: tuple[str, ...] = ()
    dealer_actions: tuple[str, ...] = ()
    cards = "shuffled"
    passive: dict[str, str] = {}

    def __init__(self, rules: HighCardRules, players: Players) -> None:
        self.rules = rules
        self._players = players
        self.round: Hand | None = None
        self._shoe: Shoe | None = None

    seat_count = property(lambda self: self.rules.seats)
    bot_unit = property(lambda self: self.rules.ante)
    has_hand = property(lambda self: self.round is not None)
    in_play = property(lambda self: False)  # a hand is over the moment it is dealt
    to_act = property(lambda self: None)
    card_needed = property(lambda self: None)

    def turn(self) -> int:
        return len(self.round.log) if self.round is not None else -1

    def start_hand(self, number: int) -> str | None:
        stacks = {s: c for s, c in self._players().items() if c >= self.rules.ante}
        if len(stacks) < 2:
            raise Conflict("no_players", "high card needs two players who can ante")
        self._shoe = Shoe.new(decks=1, penetration=1.0, burn=0)
        self.round = play(number, stacks, self.rules.ante, self._shoe)
        return "antes, one card each, the highest takes the pot"

    def hand_stacks(self) -> dict[int, int]:
        return dict(self.round.stacks) if self.round is not None else {}

    def start_stacks(self) -> dict[int, int]:
        return dict(self.round.start) if self.round is not None else {}

    def verify_add_chips(self, seat: int, amount: int) -> None:
        raise Conflict("cards_out", "no hand takes chips at high card")

    def add_chips(self, seat: int, amount: int) -> None:
        self.verify_add_chips(seat, amount)

    def legal_actions(self, seat: int) -> list[str]:
        return []

    def seat_action(self, seat: int, action: str, message: dict[str, Any]) -> bool:
        raise Conflict("no_round", "high card has no decisions")

    def dealer_action(self, action: str, message: dict[str, Any]) -> bool:
        raise Conflict("no_round", "high card has no dealer actions")

    def leave(self, seat: int) -> Leaving:
        return Leaving(at_stake=False, changed=False)

    def leaver_move(self, seat: int) -> str:
        raise Conflict("no_round", "nothing to do")

    def timeout_move(self, seat: int) -> str:
        raise Conflict("no_round", "nothing to do")

    def bot_pending(self, bots: frozenset[int]) -> int | None:
        return None

    def bot_move(self, seat: int) -> str:
        raise Conflict("no_round", "nothing to do")

    def betting_window(self) -> bool:
        return False

    def close_window(self) -> bool:
        return False

    def hand_over(self) -> None:
        pass

    def close(self) -> None:
        self._shoe = None

    def can_take_back(self) -> bool:
        return False

    def misdeal_refusal(self) -> str | None:
        return "the hand is settled as it is dealt"

    def void_hand(self) -> None:
        raise Conflict("card_source", "this table deals from a shuffled shoe: no misdeal")

    def settlements(self) -> list[dict[str, Any]]:
        return []

    def payouts(self, items: list[dict[str, Any]] | None = None) -> list[dict[str, Any]] | None:
        return None

    def dealt_in(self) -> frozenset[int]:
        return frozenset(self.round.start) if self.round is not None else frozenset()

    def chip_count(self) -> ChipCount:
        return ChipCount(0, 0, 0)  # the pot is pushed as the hand is dealt, odd chips and all

    def hidden_cards(self, viewer: int | str) -> frozenset[str]:
        return frozenset()  # every card is shown down at once

    def random_move(self, who: int | str, rng: random.Random) -> tuple[str, dict[str, Any]] | None:
        return None  # no decisions

    def history(self, table_id: int, number: int, start_stacks: dict[int, int]) -> dict[str, Any]:
        assert self.round is not None and self._shoe is not None
        return {"format": FORMAT, "game": ID, "table": table_id, "rules": self.rules.to_dict(),
                "hands": [{"number": number, "shoe": {"commitment": self._shoe.commitment},
                           "start": {str(s): c for s, c in start_stacks.items()},
                           "cards": {str(s): c for s, c in self.round.cards.items()},
                           "log": list(self.round.log)}]}

    @property
    def shoe(self) -> Shoe | None:
        return self._shoe

    @property
    def shoe_key(self) -> str:
        return self._shoe.commitment if self._shoe is not None else ""

    def table_view(self) -> dict[str, Any]:
        return {"ante": self.rules.ante}

    def round_view(self, viewer: int | str, memo: dict[str, Any] | None) -> dict[str, Any]:
        assert self.round is not None
        return {"phase": "settled", "to_act": None, "legal_actions": [], "cards": dict(self.round.cards),
                "stacks": dict(self.round.stacks)}

    def log_view(self, viewer: int | str, memo: dict[str, Any] | None) -> list[dict[str, Any]]:
        return list(self.round.log) if self.round is not None else []


# -- what the registry needs ------------------------------------------------------------------
def _table_rules(preset: str | None, overrides: Mapping[str, Any]) -> tuple[dict[str, Any], int]:
    check_types(HighCardRules, overrides)
    if preset not in (None, "default"):
        raise BadRequest("preset", "high card has one preset, 'default'")
    rules = HighCardRules(**overrides)
    return rules.to_dict(), rules.seats


def _adapter(table: Table, players: Players, new_shoe: NewShoe | None) -> Game:
    return HighCardGame(HighCardRules.from_dict(table.game_rules), players)


def _replay(doc: dict[str, Any]) -> Any:
    ok = all(sum(n for _s, n in h["log"][-1]["net"]) == 0 for h in doc["hands"])
    return type("Replay", (), {"matches": ok, "problems": []})()


def _verify(doc: dict[str, Any]) -> Any:
    """Nothing to check against: the toy's shoe is made and finished within its hand."""
    return type("Verified", (), {"ok": True, "to_json": lambda self: {"ok": True}})()


def _results(history: dict[str, Any]) -> dict[str, int] | None:
    return {str(s): n for s, n in history["hands"][0]["log"][-1]["net"]}


HIGH_CARD = GameKind(
    id=ID, title="High card", rules=HighCardRules, table_rules=_table_rules,
    stake_keys=("ante",), bounds=(100, 1_000), adapter=_adapter,
    history=HistoryFormat(
        key="hands", replay=_replay, verify=_verify, steps=lambda doc: [str(r) for h in doc["hands"] for r in h["log"]],
        served=lambda doc, seed, house, seats: None,  # every card is shown down at once
        house_copy=lambda doc, seed: doc, results=_results,
        commitment=lambda doc: str(doc["hands"][-1]["shoe"]["commitment"])),
    summary=lambda rules: f"High card, ante ${rules['ante'] // 100}.{rules['ante'] % 100:02d}",
    presets=lambda: HighCardRules().to_dict(),
)
