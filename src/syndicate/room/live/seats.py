"""Who may act at a live table, and the seats' lifecycle: sitting down, leaving, walk-ins'
seats and the chips sold to them, bots' seats. Each function is a step of the table's actor
(:class:`~syndicate.room.live.actor.TableActor`), run from its queue; the ledger work behind a
seat is :mod:`syndicate.room.seating`'s.
"""

from __future__ import annotations

import logging
from functools import partial
from typing import TYPE_CHECKING, Any

from ...core import money
from ...core.errors import RuleError
from ..accounts import canonical_name
from ..errors import BadRequest, Conflict, Forbidden, RoomError
from ..ledger import check_amount
from ..roles import ADMIN, PIT_BOSS, require
from ..seating import (
    BOT_STAKE,
    STACK_LIMIT,
    Seat,
    carry_out,
    seat_bots,
    seat_walk_in,
    sell_or_ask,
    sit_down,
    stand_up,
)
from ..values import Account

if TYPE_CHECKING:
    from .actor import TableActor

log = logging.getLogger(__name__)


def acting_seat(actor: TableActor, account: Account, msg: dict[str, Any]) -> int:
    """The seat an action is for. A player acts for their own seat (rule ``own_seat``). The
    table's dealer names the seat (``"seat": n``) and may act for a walk-in's, or for a
    player who let them (``let_dealer_act``); for no one else (rule ``dealer_acts``)."""
    claimed = msg.get("seat")
    if account.id == actor.table.dealer_id and not any(s.account.id == account.id for s in actor.seats.values()):
        if isinstance(claimed, bool) or not isinstance(claimed, int) or claimed not in actor.seats:
            raise BadRequest("seat", "the dealer acts for a seated player: \"seat\" names an occupied seat, "
                                     f"got {claimed!r}")
        s = actor.seats[claimed]
        if not (s.walk_in or s.dealer_acts):
            raise Forbidden("dealer_acts", f"seat {claimed} is {s.account.name}'s, who acts from their own "
                            "phone: the dealer acts for a walk-in, or for a player who let them "
                            "(let_dealer_act)")
        return claimed
    if "seat" in msg and not any(s.account.id == account.id for s in actor.seats.values()):
        raise Forbidden("table_dealer", "only this table's dealer enters an action for a seat (a walk-in's, or a "
                                        "player's who lets them): a pit boss, the admin or a watcher does not")
    seat = seat_of(actor, account)
    if "seat" in msg and claimed != seat:  # a seat of null is not yours either
        raise Forbidden("own_seat", f"you play seat {seat} only, not {claimed!r}")
    return seat


def let_dealer_act(actor: TableActor, account: Account, allow: Any) -> bool:
    """A seated player lets the table's dealer enter their actions (or stops them). They
    may still act from their own phone: every action records who entered it."""
    seat = seat_of(actor, account)
    if not isinstance(allow, bool):
        raise BadRequest("allow", f"allow is true or false, got {allow!r}")
    actor.seats[seat].dealer_acts = allow
    actor.version += 1
    return True


def require_table_dealer(actor: TableActor, account: Account) -> None:
    """The cash taken for walk-ins' chips is the table's dealer's to answer for: only they
    handle it (not a pit boss or the admin passing by)."""
    if account.id != actor.table.dealer_id:
        raise Forbidden("table_dealer", "only this table's dealer seats walk-ins and sells or cashes out their "
                                        "chips: the table's cash is theirs to answer for")


def walk_in_seat(actor: TableActor, seat: Any) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or seat not in actor.seats:
        raise BadRequest("seat", f"seat names an occupied seat, got {seat!r}")
    s = actor.seats[seat]
    if not s.walk_in:
        raise Conflict("walk_in", f"seat {seat} is {s.account.name}'s, a player with an account: their chips "
                                  "come from their bankroll at the cashier's window, not from the table's cash")
    return seat


def require_dealer(actor: TableActor, account: Account) -> None:
    if account.id != actor.table.dealer_id and account.role not in (ADMIN, PIT_BOSS):
        raise Forbidden("table_dealer", "only this table's dealer (or a pit boss, or the admin) deals here")


def seat_of(actor: TableActor, account: Account) -> int:
    for n, s in actor.seats.items():
        if s.account.id == account.id:
            return n
    require(account.role, "play")
    raise Conflict("not_seated", "take a seat first")


def held_in_hand(actor: TableActor, seat: int) -> bool:
    """A seat just left whose chips are still in the hand in play: free from the next one."""
    return actor.game.in_play and seat in actor.game.hand_stacks()


async def place_walk_in(actor: TableActor, dealer: Account, seat: Any, name: Any, amount: Any) -> bool:
    """The dealer seats a walk-in by name with chips sold for cash (:func:`seat_walk_in`)."""
    if actor.table.status != "open":
        raise Conflict("table_status", f"the table is {actor.table.status}")
    seats = actor.game.seat_count
    if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= seats:
        raise BadRequest("seat", f"seats here are 1 to {seats}")
    if not isinstance(name, str) or not name.strip():
        raise BadRequest("name", "a walk-in is seated by name")
    if seat in actor.seats:
        raise Conflict("seat_taken", f"seat {seat} is taken")
    if held_in_hand(actor, seat):
        raise Conflict("seat_taken", f"seat {seat} was just left in this round: free from the next one")
    here = next((n for n, s in actor.seats.items()
                 if s.walk_in and canonical_name(s.account.name) == canonical_name(name)), None)
    if here is not None:
        raise Conflict("seated", f"{name.strip()!r} already sits at seat {here} of this table")
    if not (type(amount) is int and amount == 0):  # 0: they sit with the chips they kept (a night whose chips have no cash value)
        check_amount(amount)
    walk_in, ledger_id, sale, kept = await actor.db(partial(seat_walk_in, table=actor.table, dealer=dealer,
                                                            name=name, seat=seat, amount=amount,
                                                            seated=actor.seated))
    # Above the event's limit the sale waits for approval: they sit with what they kept until then.
    actor.seats[seat] = Seat(walk_in, ledger_id, kept + (0 if sale else amount), walk_in=True, sale=sale,
                            seller=dealer if sale else None)
    actor.version += 1
    return True


async def sell_to_walk_in(actor: TableActor, dealer: Account, seat: int, amount: Any) -> bool:
    """More chips for a walk-in, for cash: between rounds, or in the round in play while bets
    are open and no card is out (then the engine's stack for the seat grows with the
    ledger's, after the write; rule ``cards_out`` once a card is out)."""
    check_amount(amount)
    in_hand = held_in_hand(actor, seat)
    if in_hand:
        actor.game.verify_add_chips(seat, amount)
    s = actor.seats[seat]
    if s.sale is not None:
        raise Conflict("sale_pending", f"seat {seat} has a sale of {money.format(s.sale.amount)} waiting for a pit "
                                       "boss's or the admin's approval: one at a time")
    if s.stack + amount > STACK_LIMIT:
        raise Conflict("stack_limit", f"seat {seat} has {money.format(s.stack)}: a stack is sold chips up to "
                                      f"{money.format(STACK_LIMIT)}, so {money.format(amount)} more is too much")
    _, sale = await actor.db(partial(sell_or_ask, table=actor.table, dealer=dealer, walk_in=s.account, seat=seat,
                                     amount=amount))
    if sale is not None:  # above the event's limit: it waits for approval, no chip moved
        s.sale, s.seller = sale, dealer
        actor.version += 1
        return True
    s.stack += amount
    if in_hand:  # the same moment for the engine, its starting stacks and the ledger
        actor.game.add_chips(seat, amount)
        actor.start_stacks[seat] = actor.start_stacks.get(seat, 0) + amount
    actor.version += 1
    return True


async def sit(actor: TableActor, account: Account, seat: Any, amount: Any) -> bool:
    require(account.role, "play")
    if actor.table.status != "open":
        raise Conflict("table_status", f"the table is {actor.table.status}")
    seats = actor.game.seat_count
    if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= seats:
        raise BadRequest("seat", f"seats here are 1 to {seats}")
    if any(s.account.id == account.id for s in actor.seats.values()):
        raise Conflict("seated", "you already have a seat at this table")
    if seat in actor.seats:
        raise Conflict("seat_taken", f"seat {seat} is taken")
    if held_in_hand(actor, seat):
        raise Conflict("seat_taken", f"seat {seat} was just left in this round: free from the next one")
    check_amount(amount)
    ledger_id = await actor.db(partial(sit_down, table=actor.table, account=account, seat=seat, amount=amount))
    actor.seats[seat] = Seat(account, ledger_id, amount)
    actor.version += 1
    return True


async def leave(actor: TableActor, seat: int) -> bool:
    """Before the deal a player's bet comes back and they go at once; with chips in the hand
    they go once it is over (Blackjack: "a player who leaves at this stage will forfeit his
    bet"; draw: they fold when their turn comes)."""
    s = actor.seats[seat]
    if actor.game.in_play:
        how = actor.game.leave(seat)
        if how.changed or how.at_stake:
            s.leaving = True  # the stack goes back to the bankroll when the hand is over
            if how.changed:
                await actor.after(f"{s.account.name} leaves seat {seat}")
            else:
                actor.version += 1
            if not how.at_stake and seat in actor.seats:  # nothing of theirs is at stake
                await cash_out_seat(actor, seat)
                actor.version += 1
            elif actor.game.to_act == seat:
                await leaver_moves(actor, seat)
            return True
    await cash_out_seat(actor, seat)
    actor.version += 1
    return True


async def leaver_moves(actor: TableActor, seat: int) -> None:
    move = actor.game.leaver_move(seat)
    await actor.after(f"seat {seat} left the table: {move}")


async def cash_out_seat(actor: TableActor, seat: int) -> None:
    """The seat's stack back where it came from (:func:`stand_up`), then the seat is free.
    The seat and its chips stay until the write has committed: a write the ledger refuses
    leaves the seat as it was (the refusal goes to whoever asked); any other failure stops
    the table with the seat still in the database's stack, where a restart returns it."""
    s = actor.seats[seat]
    await actor.db(partial(stand_up, table=actor.table, seat=s, number=seat))
    del actor.seats[seat]


async def cash_out_each(actor: TableActor, seats: list[int], why: str) -> None:
    """:func:`cash_out_seat` for each of ``seats``; one the ledger refuses stays seated
    (logged) and the others go: one seat's trouble does not stop the table."""
    for n in seats:
        try:
            await cash_out_seat(actor, n)
        except RoomError as e:
            log.error("table %s: seat %s could not be cashed out (%s): %s; it stays seated with its chips",
                      actor.table.id, n, why, e)


async def carry_out_sales(actor: TableActor) -> bool:
    """The chip sales waiting at this table's seats, as a pit boss or the admin decided them:
    an approved one moves its chips now if the seat may have them (between rounds, or while
    bets are open and no card is out: else once the round is over), a refused or cancelled
    one is dropped. Whether a seat changed."""
    changed = False
    for n, s in list(actor.seats.items()):
        if s.sale is None:
            continue
        may = True
        if held_in_hand(actor, n):
            try:
                actor.game.verify_add_chips(n, s.sale.amount)
            except (RoomError, RuleError):
                may = False  # the cards are out: once the round is over
        sale = await actor.db(partial(carry_out, table=actor.table, seat=s, number=n, may=may))
        if sale is not None and sale.status == "done":
            s.stack += sale.amount
            if held_in_hand(actor, n):
                actor.game.add_chips(n, sale.amount)
                actor.start_stacks[n] = actor.start_stacks.get(n, 0) + sale.amount
        if sale is None or sale.status in ("done", "refused", "cancelled"):
            s.sale = s.seller = None
            changed = True
        elif sale.status != s.sale.status:  # approved: its chips come when the round is over
            s.sale = sale
            changed = True
    return changed


async def add_bots(actor: TableActor, count: Any, amount: Any = None) -> bool:
    """Fill free seats with bots, each sitting down with ``amount`` (the dealer's choice
    within the table's stakes: one minimum bet to ``BOT_STAKE`` maximum bets, the default).
    Their chips come from the event's house float (through a bot's bankroll, a ledger
    account of its own) and go back to the float when they leave."""
    free = [n for n in range(1, actor.game.seat_count + 1) if n not in actor.seats and not held_in_hand(actor, n)]
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= len(free):
        raise BadRequest("count", f"count is a number of bots from 1 to {len(free)} (the free seats)")
    most = BOT_STAKE * actor.game.bot_unit
    least = int(actor.game.rules.min_bet)
    if amount is not None:
        check_amount(amount)
        if not least <= amount <= most:
            raise BadRequest("amount", f"a bot sits down here with {money.format(least)} (one minimum bet) to "
                                       f"{money.format(most)} ({BOT_STAKE} maximum bets), not {money.format(amount)}")
    stake = most if amount is None else amount
    for n, bot, ledger_id in await actor.db(partial(seat_bots, table=actor.table, seats=free[:count],
                                                    stake=stake)):
        actor.seats[n] = Seat(bot, ledger_id, stake, bot=True)
    actor.version += 1
    return True


async def remove_bots(actor: TableActor) -> bool:
    """Bots leave (after the round in play, like anyone) and their chips go back to the house
    float they came from."""
    bots = [n for n, s in actor.seats.items() if s.bot]
    if not bots:
        raise Conflict("no_bots", "there are no bots at this table")
    for n in bots:
        await leave(actor, n)
    actor.version += 1
    return True
