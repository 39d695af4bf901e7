"""The cashier's window: chips in (buy-in) and out (cash-out), by the admin or a pit boss."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from ..core import money
from .errors import BadRequest, Conflict, NotFound
from .ledger import (
    HOUSE_FLOAT,
    MAX_FLOAT,
    cashier_account,
    check_amount,
    float_account,
    is_bot,
    is_walk_in,
    player_account,
    stacks_of,
    transfer,
)
from .ports import Repo, Store
from .roles import PLAYER, require
from .values import Account, Move


def refuse_cash_out(repo: Repo, event_id: int) -> None:
    """Refuse to pay chips out as money at a night whose chips have no cash value (rule
    ``play_money``): they stay in the bankroll, and count for the prize draws."""
    ev = repo.event(event_id)
    if ev is not None and ev.play_money:
        raise Conflict("play_money", f"chips have no cash value at {ev.name}: they are not bought back for money. "
                                     "They stay in the player's bankroll and count for the prize draws")


class Cashier:
    def __init__(self, store: Store) -> None:
        self.store = store

    def buy_in(self, actor: Account, player_id: Any, amount: Any) -> int:
        """Sell ``amount`` cents of chips to a player; returns the player's new balance."""
        return self._move(actor, "buy_in", player_id, amount)

    def cash_out(self, actor: Account, player_id: Any, amount: Any) -> int:
        """Buy back ``amount`` cents of chips; refused beyond the player's balance."""
        return self._move(actor, "cash_out", player_id, amount)

    def cash_out_all(self, actor: Account, player_id: Any, seated: Callable[[int], Collection[int]]) -> int:
        """Buy back the player's whole bankroll in one move; returns the amount paid. Refused
        while any of their chips are at a table (rule ``at_table``: a seat, a stack, a hand in
        play; ``seated`` gives the live tables they sit at) and for an empty bankroll (rule
        ``empty_bankroll``). The amount is what the bankroll holds, whatever it is: no typed
        amount, so no typo guard."""
        require(actor.role, "cash_out")
        with self.store.transaction() as repo:
            player = self._player(repo, actor, player_id)
            refuse_cash_out(repo, actor.event_id)
            tables = sorted({*seated(player.id), *(t for t, _ in stacks_of(repo.ledger_accounts(actor.event_id),
                                                                            player.id)),
                             *(h.table_id for h in repo.hands(actor.event_id, status="playing", player=player.id))})
            if tables:
                where = ", ".join(str(t) for t in tables)
                raise Conflict("at_table", f"{player.name} has chips at table {where}: they leave the table first "
                                           "(their stack goes back to their bankroll), then cash out everything")
            cashier = cashier_account(repo, actor.event_id)
            wallet = player_account(repo, actor.event_id, player.id, player.name)
            amount = repo.lock_balances([wallet.id])[wallet.id].balance
            if amount <= 0:
                raise Conflict("empty_bankroll", f"{player.name}'s bankroll is empty: nothing to cash out")
            transfer(repo, actor.event_id, [Move(wallet.id, cashier.id, amount)], "cash_out",
                     f"cash-out of the whole bankroll, {money.format(amount)}, by {actor.name}", by=actor.id)
            return amount

    @staticmethod
    def _player(repo: Repo, actor: Account, player_id: Any) -> Account:
        """The player of the actor's event whose bankroll the cashier moves (a walk-in has none
        here: rule ``walk_in``)."""
        if isinstance(player_id, bool) or not isinstance(player_id, int):
            raise BadRequest("player", f"player is an account id, got {player_id!r}")
        player = repo.account(player_id)
        if player is None or player.event_id != actor.event_id:
            raise NotFound("player", f"no account {player_id} in this event")
        if player.role != PLAYER:
            raise BadRequest("player", f"{player.name} is a {player.role}, not a player: no bankroll")
        if is_walk_in(player):
            raise BadRequest("walk_in", f"{player.name} is a walk-in: they buy and cash out chips at their "
                                        "table, from its dealer, for the table's cash count")
        return player

    def _move(self, actor: Account, action: str, player_id: Any, amount: Any) -> int:
        require(actor.role, action)
        check_amount(amount)
        if isinstance(player_id, bool) or not isinstance(player_id, int):
            raise BadRequest("player", f"player is an account id, got {player_id!r}")
        with self.store.transaction() as repo:
            player = self._player(repo, actor, player_id)
            cashier = cashier_account(repo, actor.event_id)
            wallet = player_account(repo, actor.event_id, player.id, player.name)
            if action == "buy_in":
                move, memo = Move(cashier.id, wallet.id, amount), f"buy-in of {money.format(amount)} by {actor.name}"
            else:
                refuse_cash_out(repo, actor.event_id)
                move, memo = Move(wallet.id, cashier.id, amount), f"cash-out of {money.format(amount)} by {actor.name}"
            transfer(repo, actor.event_id, [move], action, memo, by=actor.id)
            return repo.lock_balances([wallet.id])[wallet.id].balance

    # -- the house float for bots ------------------------------------------------------------
    def float_status(self, event_id: int) -> dict[str, int]:
        """``used``: the chips bots hold now (bankrolls and stacks); ``remaining``: what is left
        in the float for more bots; ``float``: their sum, what the admin set."""
        with self.store.transaction() as repo:
            return self._float_status(repo, event_id)

    @staticmethod
    def _float_status(repo: Repo, event_id: int) -> dict[str, int]:
        bots = {a.id for a in repo.accounts(event_id) if is_bot(a)}
        used = remaining = 0
        for a in repo.ledger_accounts(event_id):
            if a.key == HOUSE_FLOAT:
                remaining = a.balance
            elif a.key.startswith(("player:", "stack:")) and int(a.key.rsplit(":", 1)[1]) in bots:
                used += a.balance
        return {"float": used + remaining, "used": used, "remaining": remaining, "max": MAX_FLOAT}

    def set_float(self, actor: Account, amount: Any) -> dict[str, int]:
        """The admin sets the event's float: the cashier's chips that bots may play with, at
        most :data:`MAX_FLOAT`. The difference moves between the cashier and the float, in the
        ledger; it cannot go below what the bots hold now."""
        require(actor.role, "set_float")
        if isinstance(amount, bool) or not isinstance(amount, int) or not 0 <= amount <= MAX_FLOAT:
            raise BadRequest("house_float", f"the float is a whole number of cents from 0 to "
                             f"{money.format(MAX_FLOAT)}, got {amount!r}")
        with self.store.transaction() as repo:
            status = self._float_status(repo, actor.event_id)
            if amount < status["used"]:
                raise Conflict("house_float", f"the bots hold {money.format(status['used'])} of the float now: "
                               "remove them first to set it lower")
            cashier, pool = cashier_account(repo, actor.event_id), float_account(repo, actor.event_id)
            delta = amount - status["float"]
            memo = f"house float set to {money.format(amount)} by {actor.name}"
            if delta > 0:
                transfer(repo, actor.event_id, [Move(cashier.id, pool.id, delta)], "house_float", memo, by=actor.id)
            elif delta < 0:
                transfer(repo, actor.event_id, [Move(pool.id, cashier.id, -delta)], "house_float", memo, by=actor.id)
            return self._float_status(repo, actor.event_id)
