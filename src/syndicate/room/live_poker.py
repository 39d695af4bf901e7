"""Live five-card draw: the same single writer as Blackjack, with a draw table inside.

Everything about versions, action ids, seats, stacks, the ledger mirror, timers and views is
:class:`~syndicate.room.live.BlackjackTable`'s; this class supplies the game: a
:class:`~syndicate.poker.table.DrawTable` (button, antes agreed by all, the odd chips carried
to the next pot) dealing each hand from a fresh one-deck shoe. Its seed is revealed when the table
closes; when a hand ends, each card shown is checked by its opening (docs/fairness.md).

In the ledger the table's account holds the pot while a hand is played and the carried
remainder between hands; there is no house edge, so after each hand that account holds exactly
the carry.
"""

from __future__ import annotations

import random
import secrets
from typing import Any

from ..poker import bots as poker_bots
from ..poker.draw import DrawRules
from ..poker.history import to_history
from ..poker.table import HOST_DEALER, DrawTable
from ..shoe import Shoe
from .errors import BadRequest, Conflict
from .live import BlackjackTable
from .values import Account, Table

MAX_DISCARDS = 5


class PokerTable(BlackjackTable):
    game = "poker"
    seat_actions = ("check", "bet", "call", "raise", "fold", "draw", "stand_pat", "accept_ante", "refuse_ante")
    dealer_actions = ("start_round", "auto_deal", "propose_ante", "add_bots", "remove_bots")
    passive = ("check", "stand_pat", "fold")

    draw_table: DrawTable | None = None

    def _view(self, viewer: int | str, account_id: int | None, seat: int | None, welcome: bool) -> dict[str, Any]:
        """The common view, and in ``table`` the ante in force and any ante proposal waiting
        for acceptances (``{"amount", "waiting_for": [seats]}``, else null)."""
        out = super()._view(viewer, account_id, seat, welcome)
        dt = self.draw_table
        out["table"]["ante"] = int(dt.rules.ante if dt is not None else self.rules.ante)
        out["table"]["ante_proposal"] = (
            {"amount": dt.proposal, "waiting_for": dt.waiting_for} if dt is not None and dt.proposal is not None
            else None)
        return out

    def _round_view(self, viewer: int | str) -> dict[str, Any]:
        return self.round.view(viewer)  # type: ignore[no-any-return]  # each seat sees its own cards

    def _log_view(self, viewer: int | str) -> list[dict[str, Any]]:
        return self.round.log_view(viewer)  # type: ignore[no-any-return]

    def _rules(self, table: Table) -> Any:
        return DrawRules.from_dict(table.rules)

    def _seat_count(self) -> int:
        return int(self.rules.max_players)

    def _round_stacks(self) -> dict[int, int]:
        return dict(self.round.stacks) if self.round is not None else {}

    def _commitment(self) -> str:
        return str(self.round.shoe.commitment)

    def _dealing_shoe(self) -> Shoe:
        return self.round.shoe  # type: ignore[no-any-return]

    def _playing(self) -> dict[int, int]:
        return {n: s.stack for n, s in self.seats.items() if s.stack > 0 and not s.sitting_out and not s.leaving}

    def _sync_seats(self) -> DrawTable:
        """Between hands the draw table's seats are whoever sits here with chips."""
        stacks = self._playing()
        if self.draw_table is None:
            if len(stacks) < self.rules.min_players:
                raise Conflict("no_players", f"a hand needs at least {self.rules.min_players} players with chips")
            self.draw_table = DrawTable(stacks, self.rules, host=HOST_DEALER)
        elif not self.draw_table.in_hand:
            self.draw_table.finish()
            self.draw_table.seats = dict(stacks)
        return self.draw_table

    def _new_round(self, stacks: dict[int, int]) -> bool:
        table = self._sync_seats()
        # A fresh one-deck shoe per hand from the OS's CSPRNG; its seed is kept until the table
        # closes (see history()).
        self.round = table.start_hand(Shoe.new(1, penetration=1.0, burn=0))
        self.round.number = self.hand_number + 1
        self._start_stacks = dict(self.round.start_stacks)
        return True  # the antes are in

    async def _start_round(self) -> bool:
        if self.round is not None and not self.round.is_terminal:
            raise Conflict("round_in_play", "the current hand is not over")
        if self.table.status != "open":
            raise Conflict("table_status", f"the table is {self.table.status}: no new hands")
        stacks = self._playing()
        if len(stacks) < self.rules.min_players:
            raise Conflict("no_players", f"a hand needs at least {self.rules.min_players} players with chips")
        self._new_round(stacks)
        self.hand_id = None
        self.hand_number += 1
        self.version += 1
        await self._after(f"hand {self.hand_number} dealt, antes in")
        return True

    def history(self) -> dict[str, Any]:
        """The hand as a one-hand history in the poker format (docs/hand-history-poker.md)."""
        doc = to_history(self.round)
        doc["table"] = self.table.id
        for entry in doc["hands"]:  # the engine finished the deck, but its seed waits for the table to close
            entry["shoe"]["seed"] = None
        return doc

    async def _dealer_action(self, account: Account, action: str, msg: dict[str, Any]) -> bool:
        # propose_ante: it applies once every seated player has accepted.
        table = self._sync_seats()
        amount: Any = msg.get("amount")  # the engine checks it
        table.propose_ante(HOST_DEALER, amount)
        self.rules = table.rules
        self.version += 1
        return True

    async def _seat_action(self, account: Account, seat: int, action: str, msg: dict[str, Any]) -> bool:
        if action in ("accept_ante", "refuse_ante"):
            table = self._sync_seats()
            if action == "accept_ante":
                table.accept_ante(seat)
            else:  # the change needs everyone: one refusal withdraws it, the ante stays
                table.verify_accept_ante(seat)
                table.withdraw_ante_proposal()
            self.rules = table.rules
            self.version += 1
            return True
        hand = self._round_in_play()
        if seat not in hand.stacks:
            raise Conflict("not_dealt_in", "you sat down after this hand started: wait for the next one")
        if action in ("bet", "raise"):
            amount = msg.get("amount")
            hand.bet(seat, amount) if action == "bet" else hand.raise_(seat, amount)
        elif action == "draw":
            discards = msg.get("discards")
            if not isinstance(discards, list) or len(discards) > MAX_DISCARDS or not all(
                    isinstance(c, str) and len(c) <= 3 for c in discards):
                raise BadRequest("discards", "discards is a list of up to 5 of your cards, such as [\"7h\", \"Kd\"]")
            hand.draw(seat, discards)
        else:
            getattr(hand, action)(seat)
        if action not in ("bet",):
            self.seats[seat].timeouts = 0
        await self._after(f"{account.name} at seat {seat}: {action}")
        return True

    async def _leave(self, seat: int) -> bool:
        """Mid-hand a leaving player folds when their turn comes (at once if it is theirs); the
        stack goes back to the bankroll when the hand is over."""
        hand = self.round
        s = self.seats[seat]
        if hand is not None and not hand.is_terminal and seat in hand.stacks and seat not in hand.folded:
            s.leaving = True
            self.version += 1
            if hand.to_act == seat:
                await self._fold_leaver(seat)
            return True
        await self._cash_out_seat(seat)
        self.version += 1
        return True

    async def _fold_leaver(self, seat: int) -> None:
        hand = self.round
        hand.fold(seat) if "fold" in hand.legal_actions(seat) else hand.stand_pat(seat)
        await self._after(f"seat {seat} left the table: folds")

    def _arm_turn_timer(self) -> None:
        hand = self.round
        if hand is not None and not hand.is_terminal and hand.to_act in self.seats \
                and self.seats[hand.to_act].leaving:
            self._queue.put_nowait(self._timeout_command(self._turn()))
            return
        super()._arm_turn_timer()

    async def _timeout(self, turn: tuple[int, int]) -> None:
        hand = self.round
        if turn == self._turn() and hand is not None and not hand.is_terminal and hand.to_act in self.seats \
                and self.seats[hand.to_act].leaving:
            await self._fold_leaver(hand.to_act)
            self._broadcast()
            return
        await super()._timeout(turn)

    # -- bots ------------------------------------------------------------------------------
    def _bot_unit(self) -> int:
        return int(self.rules.max_bet)

    def _bot_pending(self) -> int | None:
        hand = self.round
        if hand is None or hand.is_terminal:
            return None
        actor = hand.to_act
        return actor if actor in self.seats and self.seats[actor].bot else None

    def _bot_move(self, seat: int) -> str:
        if self._rng is None:
            self._rng = random.Random(secrets.randbits(64))
        record = poker_bots.act(self.round, seat, self._rng)
        return str(record.type)

    _rng: random.Random | None = None

    async def _round_over(self) -> None:
        if self.draw_table is not None:
            self.draw_table.finish()  # the carry and the button move on
        await super()._round_over()
