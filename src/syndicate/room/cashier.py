"""The cashier's window: chips in (buy-in) and out (cash-out), by the admin or a pit boss."""

from __future__ import annotations

from typing import Any

from .. import money
from .errors import BadRequest, NotFound
from .ledger import cashier_account, check_amount, player_account, transfer
from .ports import Store
from .roles import PLAYER, require
from .values import Account, Move


class Cashier:
    def __init__(self, store: Store) -> None:
        self.store = store

    def buy_in(self, actor: Account, player_id: Any, amount: Any) -> int:
        """Sell ``amount`` cents of chips to a player; returns the player's new balance."""
        return self._move(actor, "buy_in", player_id, amount)

    def cash_out(self, actor: Account, player_id: Any, amount: Any) -> int:
        """Buy back ``amount`` cents of chips; refused beyond the player's balance."""
        return self._move(actor, "cash_out", player_id, amount)

    def _move(self, actor: Account, action: str, player_id: Any, amount: Any) -> int:
        require(actor.role, action)
        check_amount(amount)
        if isinstance(player_id, bool) or not isinstance(player_id, int):
            raise BadRequest("player", f"player is an account id, got {player_id!r}")
        with self.store.transaction() as repo:
            player = repo.account(player_id)
            if player is None or player.event_id != actor.event_id:
                raise NotFound("player", f"no account {player_id} in this event")
            if player.role != PLAYER:
                raise BadRequest("player", f"{player.name} is a {player.role}, not a player: no bankroll")
            cashier = cashier_account(repo, actor.event_id)
            wallet = player_account(repo, actor.event_id, player.id, player.name)
            if action == "buy_in":
                move, memo = Move(cashier.id, wallet.id, amount), f"buy-in of {money.format(amount)} by {actor.name}"
            else:
                move, memo = Move(wallet.id, cashier.id, amount), f"cash-out of {money.format(amount)} by {actor.name}"
            transfer(repo, actor.event_id, [move], action, memo, by=actor.id)
            return repo.lock_balances([wallet.id])[wallet.id].balance
