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

from collections.abc import Callable, Collection
from dataclasses import dataclass

from ..core import money
from .accounts import account_name, canonical_name, check_look_alike, check_not_bot_name
from .errors import BadRequest, Conflict
from .ledger import (
    cash_account,
    float_account,
    is_bot,
    is_walk_in,
    now,
    player_account,
    stacks_of,
    transfer,
)
from .ports import Repo
from .values import BOT, NO_PASSWORD, WALK_IN, Account, ChipSale, Move, Table

BOT_STAKE = 100  # a bot sits down with this many maximum bets (Blackjack) or antes (poker)
#: The most chips a walk-in's stack may reach by buying them at the table (the typo guard's
#: $10,000,000): a sale past it is refused (rule ``stack_limit``). Chips won may take a stack
#: beyond it, and the ledger moves them all the same.
STACK_LIMIT = money.MAX_CENTS


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
    #: A walk-in's chip sale above the event's limit, waiting for approval (or approved and
    #: waiting for the round's cards to be in), and the dealer who asked: no chip moved yet.
    sale: ChipSale | None = None
    seller: Account | None = None


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
    repo.take_seat(table.id, seat, account.id)
    return stack.id


def stand_up(repo: Repo, table: Table, seat: Seat, number: int) -> None:
    """The seat's stack back to the bankroll (a bot's straight on to the float it came from, a
    walk-in's to the table's cash: they cash out at the table), and seat ``number`` is free. A
    chip sale still waiting for the seat is cancelled: nothing of it moved, and nothing will."""
    repo.free_seat(table.id, number)
    if seat.sale is not None:
        repo.cancel_chip_sales(table.id, number)
    amount = seat.stack
    if amount <= 0:
        return
    wallet = player_account(repo, table.event_id, seat.account.id, seat.account.name)
    moves = [Move(seat.ledger_id, wallet.id, amount)]
    if seat.bot:
        moves.append(Move(wallet.id, float_account(repo, table.event_id).id, amount))
    if seat.walk_in and keeps_chips(repo, table.event_id):
        transfer(repo, table.event_id, moves, "stand_up",
                 f"walk-in {seat.account.name} leaves table {table.id} with {money.format(amount)}: chips have no "
                 "cash value tonight, they stay on their name for the prize draws")
        return
    if seat.walk_in:
        moves.append(Move(wallet.id, cash_account(repo, table.event_id, table.id).id, amount))
        transfer(repo, table.event_id, moves, "walk_in_cash_out",
                 f"walk-in {seat.account.name} cashes out {money.format(amount)} at table {table.id}: "
                 "cash paid by its dealer")
        return
    transfer(repo, table.event_id, moves, "stand_up",
             f"{seat.account.name} leaves table {table.id} with {money.format(amount)}")


def keeps_chips(repo: Repo, event_id: int) -> bool:
    """Whether a walk-in's chips stay on their name when they leave a table (a night whose chips
    have no cash value: they count for the prize draws) rather than being cashed out there."""
    ev = repo.event(event_id)
    return ev is not None and ev.play_money


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
        return repo.add_account(event_id, name, "player", NO_PASSWORD, now(), kind=WALK_IN)
    if not is_walk_in(holder):
        raise Conflict("name", f"{name!r} is the name of {holder.name!r}, an account that signs in: a walk-in "
                       "takes another name (a surname's initial, say), or that player sits from their own "
                       "phone and may let the dealer act for them")
    return holder


def sell_chips(repo: Repo, table: Table, dealer: Account, walk_in: Account, seat: int, amount: int,
               approved_by: str | None = None) -> int:
    """The dealer sells ``amount`` of chips to a walk-in for cash: from the table's cash through
    the walk-in's bankroll to their stack here. The stack's ledger id. ``approved_by``: who
    approved a sale above the event's limit (the memo names them)."""
    ev = table.event_id
    wallet = player_account(repo, ev, walk_in.id, walk_in.name)
    stack = repo.ledger_account(ev, stack_key(table.id, walk_in.id), "player",
                                f"{walk_in.name}'s stack at table {table.id}")
    cash = cash_account(repo, ev, table.id)
    approved = f", approved by {approved_by}" if approved_by else ""
    transfer(repo, ev, [Move(cash.id, wallet.id, amount), Move(wallet.id, stack.id, amount)], "walk_in_buy_in",
             f"dealer {dealer.name} sells {money.format(amount)} of chips for cash to walk-in {walk_in.name} "
             f"at table {table.id} seat {seat}{approved}", by=dealer.id)
    return stack.id


def sell_or_ask(repo: Repo, table: Table, dealer: Account, walk_in: Account, seat: int,
                amount: int) -> tuple[int, ChipSale | None]:
    """:func:`sell_chips`, unless ``amount`` is above the event's limit on a chip sale: then the
    sale is asked for (a pending :class:`ChipSale` a pit boss or the admin approves or refuses)
    and no chip moves. The stack's ledger id, and the sale waiting if any."""
    ev = repo.event(table.event_id)
    if ev is not None and ev.sale_limit is not None and amount > ev.sale_limit:
        stack = repo.ledger_account(table.event_id, stack_key(table.id, walk_in.id), "player",
                                    f"{walk_in.name}'s stack at table {table.id}")
        return stack.id, repo.add_chip_sale(table.id, seat, walk_in.id, amount, dealer.id, now())
    return sell_chips(repo, table, dealer, walk_in, seat, amount), None


def carry_out(repo: Repo, table: Table, seat: Seat, number: int, may: bool) -> ChipSale | None:
    """The seat's chip sale as it stands (None if it is gone). An approved one moves its chips
    now if the seat ``may`` have them, once: its status goes from ``approved`` to ``done`` in the
    same transaction as the chips."""
    assert seat.sale is not None and seat.seller is not None
    sale = repo.chip_sale(seat.sale.id)
    if sale is None or sale.status != "approved" or not may:
        return sale
    if repo.move_chip_sale(sale.id, ("approved",), "done", None, now()):
        approver = repo.account(sale.decided_by) if sale.decided_by is not None else None
        sell_chips(repo, table, seat.seller, seat.account, number, sale.amount, approver.name if approver else None)
    return repo.chip_sale(sale.id)


def seat_walk_in(repo: Repo, table: Table, dealer: Account, name: str, seat: int, amount: int,
                 seated: Callable[[int], Collection[int]] = lambda _: ()
                 ) -> tuple[Account, int, ChipSale | None, int]:
    """A walk-in (:func:`walk_in_account`) sits at ``seat`` with ``amount`` bought for cash
    (:func:`sell_or_ask`: above the event's limit the sale waits for approval and they sit with
    nothing bought yet), and the chips they kept from an earlier table on a night whose chips
    have no cash value (``amount`` may then be 0): the walk-in, their stack's ledger id, the
    sale waiting, if any, and the chips they kept. A walk-in
    sits at one table at a time: a name
    seated at another table of the event is refused (rule ``seated_elsewhere``, naming it), or
    two people would share one history. ``seated`` gives the live tables where an account sits
    (this process's); the database adds the seats held at every table (any process's), the
    stacks holding chips and the hands of theirs in play."""
    walk_in = walk_in_account(repo, table.event_id, name)
    ev = table.event_id
    elsewhere = {*seated(walk_in.id), *(t for t, _, a in repo.seats_held(ev) if a == walk_in.id),
                 *(t for t, _ in stacks_of(repo.ledger_accounts(ev), walk_in.id)),
                 *(h.table_id for h in repo.hands(ev, status="playing", player=walk_in.id))} - {table.id}
    if elsewhere:
        there = repo.table(min(elsewhere))
        where = f"table {there.id} ({there.name})" if there is not None else f"table {min(elsewhere)}"
        raise Conflict("seated_elsewhere", f"{walk_in.name!r} is seated at {where}: a walk-in sits at one table at a "
                       "time. Cash them out there first, or seat this player under another name (\"Kenji T.\")")
    wallet = player_account(repo, ev, walk_in.id, walk_in.name)
    kept = max(repo.lock_balances([wallet.id])[wallet.id].balance, 0)
    if kept:  # chips kept from an earlier table (a night whose chips have no cash value) sit with them
        stack = sit_down(repo, table, walk_in, seat, kept)
        if amount == 0:
            return walk_in, stack, None, kept
    elif amount == 0:
        raise BadRequest("amount", f"{walk_in.name} has no chips kept from earlier: say how many chips they buy")
    stack, sale = sell_or_ask(repo, table, dealer, walk_in, seat, amount)
    if not kept:
        repo.take_seat(table.id, seat, walk_in.id)
    return walk_in, stack, sale, kept


def seat_bots(repo: Repo, table: Table, seats: list[int], stake: int) -> list[tuple[int, Account, int]]:
    """A bot in each of ``seats`` with ``stake`` from the house float: (seat, bot, stack's ledger
    id) each. Only an account of the kind bot (:func:`is_bot`) is reused as a bot's seat: a
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
        bot = bot or repo.add_account(table.event_id, name, "player", NO_PASSWORD, now(), kind=BOT)
        wallet = player_account(repo, table.event_id, bot.id, bot.name)
        stack = repo.ledger_account(table.event_id, stack_key(table.id, bot.id), "player",
                                    f"{bot.name}'s stack at table {table.id}")
        transfer(repo, table.event_id, [Move(pool.id, wallet.id, stake), Move(wallet.id, stack.id, stake)],
                 "bot_buy_in", f"{bot.name} sits at table {table.id} seat {n}")
        repo.take_seat(table.id, n, bot.id)
        out.append((n, bot, stack.id))
    return out
