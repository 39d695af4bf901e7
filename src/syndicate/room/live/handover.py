"""A table changes dealer between hands (docs/dealer.md, "Shifts, breaks and handovers"): a step
of the table's actor (:class:`~syndicate.room.live.actor.TableActor`), run from its queue, so no
hand can be dealt between the check and the change. The seats, their stacks, the bets placed
before the deal, the shoe and the history stay as they are: only the table's dealer changes,
and the shifts' rules are :mod:`syndicate.room.shifts`'s."""

from __future__ import annotations

import dataclasses
from functools import partial
from typing import TYPE_CHECKING, Any

from ..errors import BadRequest, Conflict, Forbidden
from ..roles import DEALER
from ..shifts import hand_over as write_hand_over
from ..shifts import refusal_at_table
from ..values import Account

if TYPE_CHECKING:
    from .actor import TableActor


def between_hands(actor: TableActor) -> None:
    """Refuse a handover while a hand's cards are out; before the deal (bets open) it may go on."""
    game = actor.game
    if game.in_play and not game.betting_window():
        raise Conflict("between_hands", f"a table changes dealer between hands: the {game.hand_word} in play is "
                                        f"dealt to its end first (bets placed before the deal stay and go with the "
                                        "table)")


async def hand_over(actor: TableActor, account: Account, msg: dict[str, Any]) -> bool:
    """The ``hand_over`` action: ``to`` (a dealer's name) takes the table; its dealer goes on a
    break unless ``break`` is false."""
    rest = msg.get("break", True)
    if not isinstance(rest, bool):
        raise BadRequest("break", f"break is true or false, got {rest!r}")
    between_hands(actor)
    hand_id = actor.hand_id if actor.game.in_play else None
    incoming = await actor.db(partial(write_hand_over, table=actor.table, by=account, to=msg.get("to"), rest=rest,
                                      hand_id=hand_id))
    actor.table = dataclasses.replace(actor.table, dealer_id=incoming.id)
    actor.version += 1
    return True


async def off_shift(actor: TableActor, account: Account) -> None:
    """A dealer who is not the table's and is on a break or clocked out is told so, naming who
    deals now (rules ``on_break``, ``clocked_out``); any other refusal is the action's own."""
    if account.role != DEALER or account.id == actor.table.dealer_id:
        return
    why = await actor.db(partial(refusal_at_table, account=account, table=actor.table))
    if why is not None:
        raise Forbidden(*why)
