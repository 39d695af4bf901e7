"""A run of rounds at one Blackjack table: shoes come and go, stacks carry over.

The session is still pure: new shoes come from a ``new_shoe`` callable (by default
:meth:`Shoe.new`, seeded from the OS's CSPRNG), so a test can hand it seeded shoes.
Every round played and every shoe used stays in the session, which is what the hand
history records.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from typing import Any

from ..core import play
from ..core.shoe import EnteredShoe, Shoe
from . import records as rec
from .round import Round, shuffled
from .rules import Rules

HISTORY_FORMAT = "syndicate-history"
HISTORY_VERSION = 1


class Session:
    """Rounds at one table. ``stacks`` maps seat numbers to chips behind."""

    def __init__(
        self,
        rules: Rules,
        stacks: Mapping[int, int],
        new_shoe: Callable[[Rules], Shoe | EnteredShoe] | None = None,
    ) -> None:
        self.rules = rules
        self.stacks: dict[int, int] = dict(stacks)
        self._new_shoe = new_shoe or _csprng_shoe
        self.shoes: list[Shoe | EnteredShoe] = []
        self.rounds: list[tuple[int, dict[int, int], Round]] = []  # (shoe index, stacks at start, round)
        self.current: Round | None = None

    @property
    def shoe(self) -> Shoe | EnteredShoe | None:
        return self.shoes[-1] if self.shoes else None

    def new_round(self) -> Round:
        """Start the next round (after the last one settled), reshuffling if the cut card is out."""
        if self.current is not None and not self.current.is_terminal:
            raise RuntimeError("the current round is not over")
        shoe = self.shoe
        if shoe is None or shoe.needs_shuffle:
            if shoe is not None:
                shoe.reveal()
            shoe = self._new_shoe(self.rules)
            self.shoes.append(shoe)
        stacks = {n: s for n, s in self.stacks.items()}
        # A shuffled shoe deals every card at once; the dealer enters a real shoe's.
        rd = shuffled(self.rules, shoe, stacks) if isinstance(shoe, Shoe) else Round(self.rules, shoe, stacks)
        self.rounds.append((len(self.shoes) - 1, stacks, rd))
        self.current = rd
        return rd

    def take_back(self) -> Round:
        """Take back the last card entered in the current round (see
        :func:`syndicate.core.play.take_back`); returns the rebuilt round, now the current one."""
        rd = self.current
        if rd is None:
            raise RuntimeError("no round to take a card back from")
        rebuilt, _ = play.take_back(rd)
        shoe_index, stacks, _ = self.rounds[-1]
        self.rounds[-1] = (shoe_index, stacks, rebuilt)
        self.current = rebuilt
        return rebuilt

    def finish_round(self) -> dict[int, int]:
        """Carry the settled round's stacks over; returns each seat's net for the round."""
        rd = self.current
        if rd is None or not rd.is_terminal:
            raise RuntimeError("no settled round to finish")
        self.stacks.update(rd.stacks())
        return rd.results()

    def close(self) -> None:
        """End the session: finish the current shoe and reveal its seed."""
        if self.shoe is not None and not self.shoe.revealed:
            self.shoe.reveal()

    def history(self, *, include_unsettled: bool = False) -> dict[str, Any]:
        """The session's hand history (see docs/hand-history.md). A seed appears only once its
        shoe is finished; an unsettled round is left out unless asked for."""
        return {
            "format": HISTORY_FORMAT,
            "version": HISTORY_VERSION,
            "game": "blackjack",
            "rules": self.rules.to_dict(),
            "shoes": [shoe_json(s) for s in self.shoes],
            "rounds": [
                round_json(i + 1, shoe_index, stacks, rd)
                for i, (shoe_index, stacks, rd) in enumerate(self.rounds)
                if rd.is_terminal or include_unsettled
            ],
        }


def shoe_json(shoe: Shoe | EnteredShoe) -> dict[str, Any]:
    if isinstance(shoe, EnteredShoe):
        # A real shoe dealt by hand: no order, no seed, nothing committed (docs/dealer.md).
        return {"decks": shoe.decks, "penetration": None, "burn": 0, "commitment": None,
                "seed": None, "order": None, "entered": True}
    stacked = shoe.revealed and not shoe.has_seed
    return {
        "decks": shoe.decks,
        "penetration": shoe.penetration,
        "burn": shoe.burn,
        "commitment": shoe.commitment,
        "seed": shoe.seed_hex,
        # A stacked shoe has no seed: once finished, its order is the reveal.
        "order": " ".join(c.text for c in shoe.order) if stacked else None,
    }


def round_json(number: int, shoe_index: int, stacks: Mapping[int, int], rd: Round,
               log: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """One round's entry in a history; ``log``: its records' JSON, when the caller keeps it
    already (a live table writes the round in play's history on every change)."""
    return {
        "number": number,
        "shoe": shoe_index,
        "stacks": {str(k): v for k, v in stacks.items()},
        "log": [rec.to_json(r) for r in rd.log] if log is None else log,
        "results": {str(k): v for k, v in rd.results().items()} if rd.is_terminal else None,
    }


def seeded_shoes(master: bytes) -> Callable[[Rules], Shoe]:
    """Shoes for practice and tests: shoe *n* gets the seed SHA-256(master || "blackjack-shoe" ||
    n as 4 bytes big-endian), so a whole session replays from one known seed. Never for real
    play: whoever knows the master seed knows every card."""
    counter = iter(range(1 << 32))

    def make(rules: Rules) -> Shoe:
        n = next(counter)
        seed = hashlib.sha256(master + b"blackjack-shoe" + n.to_bytes(4, "big")).digest()
        return Shoe.from_seed(seed, rules.decks, rules.penetration, 1 if rules.burn_card else 0)

    return make


def _csprng_shoe(rules: Rules) -> Shoe:
    return Shoe.new(rules.decks, rules.penetration, 1 if rules.burn_card else 0)
