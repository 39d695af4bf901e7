"""A five-card draw table: hand after hand, the moving button, the carry-over and the ante.

:class:`DrawHand` plays one hand; the table carries what lives between hands: each seat's
chips, the button (it moves one seat left after every hand), the remainder of a tied pot
that could not be split in whole chips (it joins the next hand's pot), and the ante, which
changes only when the host proposes a new one and every seated player accepts it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from ..core import money
from ..core.errors import BadAmount, ConfigError, IllegalAction, OutOfTurn
from ..core.play import take_back
from ..core.shoe import EnteredShoe, Shoe
from . import records as rec
from .dealing import deal_hand
from .draw import DrawHand
from .rules import DrawRules

HOST_DEALER = "dealer"


class AnteProposed(NamedTuple):
    by: int | str
    amount: int
    @property
    def type(self) -> str:
        return "ante_proposed"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "by": self.by, "amount": self.amount}


class AnteAccepted(NamedTuple):
    seat: int
    @property
    def type(self) -> str:
        return "ante_accepted"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat}


class AnteChanged(NamedTuple):
    amount: int
    @property
    def type(self) -> str:
        return "ante_changed"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "amount": self.amount}


class SeatLeft(NamedTuple):
    seat: int
    reason: str
    @property
    def type(self) -> str:
        return "seat_left"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "reason": self.reason}


class DrawTable:
    """Seats with chips, playing consecutive hands of five-card draw.

    ``host`` is who may propose a new ante: a seat number or ``"dealer"`` (the card room's
    dealer running the table). A proposal takes effect once every seated player has
    accepted it (the host's proposal counts as the host's acceptance); there is no way for a
    player to set their own ante, because everyone antes the same amount.
    """

    def __init__(
        self,
        stacks: Mapping[int, int],
        rules: DrawRules | None = None,
        *,
        button: int | None = None,
        host: int | str = HOST_DEALER,
    ) -> None:
        self.rules = rules or DrawRules()
        for seat, stack in stacks.items():
            if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
                raise ConfigError(f"seats are non-negative integers, got {seat!r}")
            money.check_held(stack)
        self.seats: dict[int, int] = {s: stacks[s] for s in sorted(stacks)}
        if not self.rules.min_players <= len(self.seats) <= self.rules.max_players:
            raise ConfigError(
                f"a draw table seats {self.rules.min_players}..{self.rules.max_players} players, "
                f"got {len(self.seats)}"
            )
        if host != HOST_DEALER and host not in self.seats:
            raise ConfigError(f"the host must be a seat or 'dealer', got {host!r}")
        self.host = host
        self.button = button if button is not None else min(self.seats)
        if self.button not in self.seats:
            raise ConfigError(f"the button must be on a seat, got {self.button!r}")
        self.carry = 0
        self.hand: DrawHand | None = None
        self.hands: list[DrawHand] = []
        self.proposal: int | None = None
        self.accepted: set[int] = set()
        self.log: list[Any] = []

    # -- between hands ---------------------------------------------------------------------
    @property
    def in_hand(self) -> bool:
        return self.hand is not None and not self.hand.is_terminal

    def chips_total(self) -> int:
        """Stacks plus the carried remainder (plus the pot while a hand is on)."""
        if self.hand is not None and not self.hand.is_terminal:
            return self.hand.chips_total(
                ) + sum(v for s, v in self.seats.items() if s not in self.hand.stacks
            )
        return sum(self.seats.values()) + self.carry

    def _settle(self) -> None:
        hand = self.hand
        if hand is None or not hand.is_terminal:
            return
        self.seats.update(hand.stacks)
        self.carry = hand.carry_out
        self.hands.append(hand)
        self.hand = None
        for s in [s for s, v in self.seats.items() if v == 0]:
            del self.seats[s]
            self.accepted.discard(s)
            self.log.append(SeatLeft(s, "out of chips"))
        self._move_button()
        self._maybe_change_ante()

    def _move_button(self) -> None:
        """The button moves one seat to the left (the next seat still playing)."""
        if not self.seats:
            return
        order = sorted(self.seats)
        later = [s for s in order if s > self.button]
        self.button = later[0] if later else order[0]

    def start_hand(self, shoe: Shoe | EnteredShoe) -> DrawHand:
        """Deal the next hand from ``shoe``: a fresh one-deck shoe for every hand, shuffled and
        committed, or an ``EnteredShoe(1)`` when the dealer deals real cards and enters them."""
        if self.in_hand:
            raise OutOfTurn("hand", "a hand is in progress: finish it first")
        self._settle()
        playing = {s: v for s, v in self.seats.items() if v > 0}
        if len(playing) < self.rules.min_players:
            raise IllegalAction(
                "players", f"a hand needs at least {self.rules.min_players} players with chips"
            )
        if self.button not in playing:
            self._move_button()
        self.hand = deal_hand(self.rules, playing, self.button, shoe, carry_in=self.carry,
                              number=len(self.hands) + 1)
        self.carry = 0
        return self.hand

    def take_back(self) -> tuple[DrawHand, rec.CardEntered]:
        """The last card entered in the hand in play taken back (:func:`~syndicate.core.play.take_back`):
        the rebuilt hand, now the table's, and the card's record. Refused as the hand refuses."""
        if self.hand is None:
            raise IllegalAction("take_back", "there is no hand in play to take a card back from")
        self.hand, taken = take_back(self.hand)
        return self.hand, taken

    def finish(self) -> None:
        """Take the finished hand's results into the table (the next ``start_hand`` does too)."""
        self._settle()

    # -- the ante --------------------------------------------------------------------------
    def verify_propose_ante(self, by: int | str, amount: int) -> None:
        if by != self.host:
            raise IllegalAction(
                "ante.host",
                "only the host may propose a new ante; no player can change their own ante",
            )
        if self.in_hand:
            raise OutOfTurn("ante.timing", "a new ante can only be proposed before a hand begins")
        r = self.rules
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise BadAmount("ante.amount", f"an ante is a whole number of cents, got {amount!r}")
        if not r.min_ante <= amount <= r.max_ante:
            raise BadAmount(
                "ante.amount",
                f"the ante must be between {money.format(r.min_ante)} and "
                f"{money.format(r.max_ante)}, got {money.format(amount)}",
            )
        if amount % r.chip:
            raise BadAmount("ante.chip", f"the ante must be whole chips of {money.format(r.chip)}")

    def can_propose_ante(self, by: int | str, amount: int) -> bool:
        try:
            self.verify_propose_ante(by, amount)
        except (IllegalAction, OutOfTurn, BadAmount):
            return False
        return True

    def propose_ante(self, by: int | str, amount: int) -> AnteProposed:
        """The host proposes ``amount``; it applies once every seated player has accepted."""
        self.verify_propose_ante(by, amount)
        self._settle()
        self.proposal = amount
        self.accepted = {by} if isinstance(by, int) else set()
        r = AnteProposed(by, amount)
        self.log.append(r)
        self._maybe_change_ante()
        return r

    def verify_accept_ante(self, seat: int) -> None:
        if self.proposal is None:
            raise IllegalAction("ante.proposal", "there is no ante proposal to accept")
        if seat not in self.seats:
            raise IllegalAction("ante.seat", f"seat {seat!r} is not seated at this table")
        if self.in_hand:
            raise OutOfTurn("ante.timing", "the ante can only change before a hand begins")

    def can_accept_ante(self, seat: int) -> bool:
        try:
            self.verify_accept_ante(seat)
        except (IllegalAction, OutOfTurn):
            return False
        return True

    def accept_ante(self, seat: int) -> AnteAccepted:
        self.verify_accept_ante(seat)
        self.accepted.add(seat)
        r = AnteAccepted(seat)
        self.log.append(r)
        self._maybe_change_ante()
        return r

    def withdraw_ante_proposal(self) -> None:
        """Drop a proposal that not everyone accepts; the ante stays as it was."""
        self.proposal = None
        self.accepted = set()

    @property
    def waiting_for(self) -> list[int]:
        """Seated players who have not yet accepted the proposed ante."""
        if self.proposal is None:
            return []
        return [s for s in self.seats if s not in self.accepted]

    def _maybe_change_ante(self) -> None:
        if self.proposal is None or self.in_hand or self.waiting_for:
            return
        self.rules = self.rules.with_(ante=self.proposal)
        self.log.append(AnteChanged(self.proposal))
        self.proposal = None
        self.accepted = set()
