"""Seats at a live table and the chips behind them, in the ledger.

A player sits down with chips from their bankroll (ledger account ``player:<id>``), which go to
their stack at this table (``stack:<table>:<id>``). The engine's seat stack and that ledger
balance are equal at every moment. Bets go from the stack to the table's account
(``table:<id>``, the house's float) and pay-outs come back from it. A bot's chips come from the
event's house float and go back to it.

The functions here are one transaction's database work (they run on the table's writer); the
table actor changes its memory only once they have committed.

A walk-in (a player the dealer seats by name, with no account that signs in) buys chips from the
table's dealer for cash: they come from the table's cash account (``cash:<table>``) through the
walk-in's bankroll to their stack, and go back the same way when they cash out at the table, so a
walk-in's bankroll holds nothing between sittings and the cash account's balance is always minus
the cash the dealer should hold.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import money
from .accounts import account_name, canonical_name, check_look_alike, check_not_bot_name
from .errors import Conflict
from .ledger import (
    BOT_HASH,
    WALK_IN_HASH,
    cash_account,
    float_account,
    is_bot,
    is_walk_in,
    now,
    player_account,
    transfer,
)
from .ports import Repo
from .values import Account, Move, Table

BOT_STAKE = 100  # a bot sits down with this many maximum bets (Blackjack) or antes (poker)


@dataclass
class Seat:
    account: Account
    ledger_id: int  # the stack's ledger account
    stack: int  # mirrors the ledger balance
    leaving: bool = False
    timeouts: int = 0
    sitting_out: bool = False
    bot: bool = False
    walk_in: bool = False  # seated by the dealer by name: the dealer enters their every action
    dealer_acts: bool = False  # a player with an account let the dealer act for them (let_dealer_act)


def stack_key(table_id: int, account_id: int) -> str:
    return f"stack:{table_id}:{account_id}"


def sit_down(repo: Repo, table: Table, account: Account, seat: int, amount: int) -> int:
    """Chips from the player's bankroll to a new stack at the table; the stack's ledger id."""
    ev = table.event_id
    wallet = player_account(repo, ev, account.id, account.name)
    stack = repo.ledger_account(ev, stack_key(table.id, account.id), "player",
                                f"{account.name}'s stack at table {table.id}")
    transfer(repo, ev, [Move(wallet.id, stack.id, amount)], "sit_down",
             f"{account.name} sits at table {table.id} seat {seat} with {money.format(amount)}", by=account.id)
    return stack.id


def stand_up(repo: Repo, table: Table, seat: Seat) -> None:
    """The seat's stack back to the bankroll (a bot's straight on to the float it came from, a
    walk-in's to the table's cash: they cash out at the table)."""
    amount = seat.stack
    wallet = player_account(repo, table.event_id, seat.account.id, seat.account.name)
    moves = [Move(seat.ledger_id, wallet.id, amount)]
    if seat.bot:
        moves.append(Move(wallet.id, float_account(repo, table.event_id).id, amount))
    if seat.walk_in:
        moves.append(Move(wallet.id, cash_account(repo, table.event_id, table.id).id, amount))
        transfer(repo, table.event_id, moves, "walk_in_cash_out",
                 f"walk-in {seat.account.name} cashes out {money.format(amount)} at table {table.id}: "
                 "cash paid by its dealer")
        return
    transfer(repo, table.event_id, moves, "stand_up",
             f"{seat.account.name} leaves table {table.id} with {money.format(amount)}")


def walk_in_account(repo: Repo, event_id: int, name: str) -> Account:
    """The walk-in called ``name`` (made now if new). Names follow the accounts' rules (one
    account per canonical name): a name held by an account that signs in, or a bot's, is
    refused, since chips sold under it would land in someone else's history; so is a name kept
    for an authorized dealer's account (on the roster), and one that reads like another
    account's or a dealer's (``aIice`` for ``alice``: rule ``look_alike``)."""
    name = account_name(name)
    check_not_bot_name(name)
    holder = repo.account_by_name(event_id, name)
    if holder is None:
        dealer = next((e.dealer for e in repo.roster(event_id)
                       if canonical_name(e.dealer) == canonical_name(name)), None)
        if dealer is not None:
            raise Conflict("roster_name", f"{name!r} is on the roster of authorized dealers ({dealer}): the name is "
                                          "kept for their account; seat the walk-in under another name")
        check_look_alike(repo, event_id, name)
        return repo.add_account(event_id, name, "player", WALK_IN_HASH, now())
    if not is_walk_in(holder):
        raise Conflict("name", f"{name!r} is the name of {holder.name!r}, an account that signs in: a walk-in "
                       "takes another name (a surname's initial, say), or that player sits from their own "
                       "phone and may let the dealer act for them")
    return holder


def sell_chips(repo: Repo, table: Table, dealer: Account, walk_in: Account, seat: int, amount: int) -> int:
    """The dealer sells ``amount`` of chips to a walk-in for cash: from the table's cash through
    the walk-in's bankroll to their stack here. The stack's ledger id."""
    ev = table.event_id
    wallet = player_account(repo, ev, walk_in.id, walk_in.name)
    stack = repo.ledger_account(ev, stack_key(table.id, walk_in.id), "player",
                                f"{walk_in.name}'s stack at table {table.id}")
    cash = cash_account(repo, ev, table.id)
    transfer(repo, ev, [Move(cash.id, wallet.id, amount), Move(wallet.id, stack.id, amount)], "walk_in_buy_in",
             f"dealer {dealer.name} sells {money.format(amount)} of chips for cash to walk-in {walk_in.name} "
             f"at table {table.id} seat {seat}", by=dealer.id)
    return stack.id


def seat_walk_in(repo: Repo, table: Table, dealer: Account, name: str, seat: int,
                 amount: int) -> tuple[Account, int]:
    """A walk-in (:func:`walk_in_account`) sits at ``seat`` with ``amount`` bought for cash:
    the walk-in and their stack's ledger id."""
    walk_in = walk_in_account(repo, table.event_id, name)
    return walk_in, sell_chips(repo, table, dealer, walk_in, seat, amount)


def seat_bots(repo: Repo, table: Table, seats: list[int], stake: int) -> list[tuple[int, Account, int]]:
    """A bot in each of ``seats`` with ``stake`` from the house float: (seat, bot, stack's ledger
    id) each. Only an account marked as a bot (:func:`is_bot`) is reused as a bot's seat: a
    person's account under a bot's name (made before such names were reserved) is refused."""
    out = []
    pool = float_account(repo, table.event_id)
    count = len(seats)
    if pool.balance < stake * count:
        raise Conflict("house_float", f"{count} bots need {money.format(stake * count)} and the house "
                       f"float for bots has {money.format(pool.balance)}: the admin sets the float")
    for n in seats:
        name = f"Bot {table.id}-{n}"
        bot = repo.account_by_name(table.event_id, name)
        if bot is not None and not is_bot(bot):
            raise Conflict("bot_name", f"{bot.name!r} is a person's account, not a bot: it cannot take "
                           "a bot's seat or the float's chips (rename or remove it first)")
        bot = bot or repo.add_account(table.event_id, name, "player", BOT_HASH, now())
        wallet = player_account(repo, table.event_id, bot.id, bot.name)
        stack = repo.ledger_account(table.event_id, stack_key(table.id, bot.id), "player",
                                    f"{bot.name}'s stack at table {table.id}")
        transfer(repo, table.event_id, [Move(pool.id, wallet.id, stake), Move(wallet.id, stack.id, stake)],
                 "bot_buy_in", f"{bot.name} sits at table {table.id} seat {n}")
        out.append((n, bot, stack.id))
    return out
