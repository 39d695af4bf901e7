"""The betting rounds of a hand of five-card draw: check, bet, call, raise and fold (each a
``verify_x`` / ``can_x`` / ``x`` triad), and moving the turn round the table until the round
is closed. Limits: docs/poker.md."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..core import money
from ..core.errors import BadAmount, IllegalAction
from . import records as rec
from .state import DRAW, FIRST_BETTING, HandState, can


class Betting(HandState):
    """The betting of a hand: what a seat may do, and doing it."""

    def legal_actions(self, seat: Any = None) -> list[str]:
        """What ``seat`` (default: whoever is to act) may do now, in the order a UI offers them."""
        actor = self.to_act
        if actor is None or (seat is not None and seat != actor):
            return []
        if self.phase == DRAW:
            return ["draw", "stand_pat"]
        stack = self.stacks[actor]
        owe = self.to_call(actor)
        if owe <= 0:
            return ["check", "bet", "fold"] if self._others_can_act(actor) else ["check", "fold"]
        out = ["call"]
        if stack > owe and self._raises_left() and self._others_can_act(actor):
            out.append("raise")
        out.append("fold")
        return out

    def bet_range(self, seat: Any = None) -> tuple[int, int] | None:
        """(smallest, largest) bet ``seat`` may make now, or ``None`` if it cannot bet.

        Below the minimum only an all-in (the whole stack) is allowed."""
        s = self.to_act if seat is None else seat
        if s is None or "bet" not in self.legal_actions(s):
            return None
        stack = self.stacks[s]
        return (min(self.rules.min_bet, stack), min(self.rules.max_bet, stack))

    def raise_range(self, seat: Any = None) -> tuple[int, int] | None:
        """(smallest, largest) raise *by* ``seat`` may make now, or ``None`` if it cannot raise."""
        s = self.to_act if seat is None else seat
        if s is None or "raise" not in self.legal_actions(s):
            return None
        room = self.stacks[s] - self.to_call(s)
        return (min(self.rules.min_raise, room), min(self.rules.max_raise, room))

    def _check_amount(self, amount: object, lo: int, hi: int, room: int, what: str) -> None:
        f = money.format
        if amount is None:
            raise BadAmount(f"{what}.amount", f"type an amount to {what}")
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise BadAmount(
                f"{what}.amount", f"a {what} is a whole number of cents, got {amount!r}"
            )
        if amount <= 0:
            raise BadAmount(f"{what}.amount", f"a {what} must be positive, got {f(amount)}")
        if amount > room:
            raise BadAmount(
                f"{what}.amount",
                f"a {what} of {f(amount)} is more than your {f(room)} (table stakes)",
            )
        if amount > hi:
            raise BadAmount(f"{what}.amount", f"a {what} is at most {f(hi)}, got {f(amount)}")
        if amount == room:
            return  # all-in: any amount up to the limit, even under the minimum or an odd chip
        if amount < lo:
            raise BadAmount(
                f"{what}.amount", f"a {what} is at least {f(lo)} (or all-in), got {f(amount)}"
            )
        if amount % self.rules.chip:
            raise BadAmount(
                f"{what}.chip", f"amounts are whole chips of {f(self.rules.chip)}, got {f(amount)}"
            )

    # -- check -----------------------------------------------------------------------------
    def verify_check(self, seat: Any) -> None:
        self._turn(seat, "check", True)
        if self.to_call(seat) > 0:
            raise IllegalAction(
                "check", "you can't check once a bet has been made: call, raise or fold"
            )

    def can_check(self, seat: Any) -> bool:
        return can(self.verify_check, seat)

    def check(self, seat: Any) -> rec.Checked:
        self.verify_check(seat)
        r = rec.Checked(seat)
        self._acted(seat, r)
        return r

    # -- bet -------------------------------------------------------------------------------
    def verify_bet(self, seat: Any, amount: Any) -> None:
        self._turn(seat, "bet", True)
        if self.current_bet > 0:
            raise IllegalAction(
                "bet", "a bet has already been made this round: call, raise or fold"
            )
        if not self._others_can_act(seat):
            raise IllegalAction("bet", "no other player has chips left to call a bet")
        self._check_amount(amount, self.rules.min_bet, self.rules.max_bet, self.stacks[seat], "bet")

    def can_bet(self, seat: Any, amount: Any) -> bool:
        return can(self.verify_bet, seat, amount)

    def bet(self, seat: Any, amount: Any) -> rec.Bet:
        self.verify_bet(seat, amount)
        self._put_in(seat, amount)
        self.current_bet = self.street[seat]
        r = rec.Bet(seat, amount, self.stacks[seat] == 0)
        self._reopen(seat)
        self._acted(seat, r)
        return r

    # -- call ------------------------------------------------------------------------------
    def verify_call(self, seat: Any) -> None:
        self._turn(seat, "call", True)
        if self.to_call(seat) <= 0:
            raise IllegalAction("call", "there is no bet to call: check or bet")

    def can_call(self, seat: Any) -> bool:
        return can(self.verify_call, seat)

    def call(self, seat: Any) -> rec.Called:
        self.verify_call(seat)
        amount = min(self.to_call(seat), self.stacks[seat])  # table stakes: all-in for less
        self._put_in(seat, amount)
        r = rec.Called(seat, amount, self.stacks[seat] == 0)
        self._acted(seat, r)
        return r

    # -- raise -----------------------------------------------------------------------------
    def verify_raise(self, seat: Any, by: Any) -> None:
        self._turn(seat, "raise", True)
        if self.current_bet <= 0:
            raise IllegalAction("raise", "there is no bet to raise: bet instead")
        if not self._raises_left():
            raise IllegalAction(
                "raise.cap",
                f"the cap of {self.rules.raise_cap} raises this round is reached: call or fold",
            )
        owe = self.to_call(seat)
        if self.stacks[seat] <= owe:
            raise IllegalAction(
                "raise", "your chips only cover a call (table stakes): call or fold"
            )
        if not self._others_can_act(seat):
            raise IllegalAction("raise", "every other player is all-in: call or fold")
        self._check_amount(
            by, self.rules.min_raise, self.rules.max_raise, self.stacks[seat] - owe, "raise"
        )

    def can_raise(self, seat: Any, by: Any) -> bool:
        return can(self.verify_raise, seat, by)

    def raise_(self, seat: Any, by: Any) -> rec.Raised:
        """Raise *by* ``by`` cents over the bet to call (the seed: "increase the bet")."""
        self.verify_raise(seat, by)
        amount = self.to_call(seat) + by
        self._put_in(seat, amount)
        self.current_bet = self.street[seat]
        self.raises += 1
        r = rec.Raised(seat, by, amount, self.current_bet, self.stacks[seat] == 0)
        self._reopen(seat)
        self._acted(seat, r)
        return r

    # -- fold ------------------------------------------------------------------------------
    def verify_fold(self, seat: Any) -> None:
        self._turn(seat, "fold", True)

    def can_fold(self, seat: Any) -> bool:
        return can(self.verify_fold, seat)

    def fold(self, seat: Any) -> rec.Folded:
        self.verify_fold(seat)
        self.folded.add(seat)
        # Face down into the muck: never shown to anyone, and free to be re-stubbed.
        self.muck.extend(self.cards[seat])
        self.mucked += self.held[seat]  # face down: counted into the muck
        self.held[seat] = 0
        r = rec.Folded(seat)
        self._acted(seat, r)
        return r

    # -- moving the hand along -------------------------------------------------------------
    def _reopen(self, seat: Any) -> None:
        """After a bet or raise every other player with chips must act again."""
        self._pending = [
            s for s in self.order if s != seat and s not in self.folded and self.stacks[s] > 0
        ]

    def _next_after(self, seat: Any, candidates: Iterable[int]) -> int:
        cand = candidates if isinstance(candidates, (list, set)) else set(candidates)  # a few seats
        n = len(self.order)
        i = self.order.index(seat)
        for k in range(1, n + 1):
            s = self.order[(i + k) % n]
            if s in cand:
                return s
        raise AssertionError("no candidate to act")

    def _acted(self, seat: Any, r: Any) -> None:
        self.to_deal = None  # whatever was to be dealt is on the felt once someone acts
        self.log.append(r)
        self.version += 1
        if seat in self._pending:
            self._pending.remove(seat)
        if len(self.folded) == len(self.order) - 1:  # one player left: no need to list them first
            self._finish_by_folds(self.live[0])
            return
        if not self._pending:
            self._end_betting()
            return
        self.to_act = self._next_after(seat, self._pending)

    def _start_betting(self, phase: str) -> None:
        self.phase = phase
        self.current_bet = 0
        self.raises = 0
        for s in self.order:
            self.street[s] = 0
        self.log.append(rec.PhaseStarted(phase))
        able = [s for s in self.order if s not in self.folded and self.stacks[s] > 0]
        if len(able) < 2:
            # At most one player has chips behind: nobody can bet against anybody.
            self._pending = []
            self._end_betting()
            return
        self._pending = able
        self.to_act = able[0]

    def _return_uncalled(self) -> None:
        if not self.order:
            return
        total = self.total  # seats in order of play: the first of the largest is the top
        top = max(total, key=total.__getitem__)
        second, highest = sorted(total.values())[-2:]
        excess = highest - second
        if excess > 0:
            self.total[top] -= excess
            self.street[top] = max(0, self.street[top] - excess)
            self.stacks[top] += excess
            self.pot -= excess
            self.log.append(rec.Returned(top, excess))

    def _end_betting(self) -> None:
        self._return_uncalled()
        self.to_act = None
        if self.phase == FIRST_BETTING:
            self.phase = DRAW
            self.log.append(rec.PhaseStarted(DRAW))
            self._pending = self.live
            self.to_act = self._pending[0]
        else:
            self._showdown()
