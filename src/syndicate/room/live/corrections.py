"""A real-cards table's corrections, as the table actor decides them (docs/dealer.md): until when
the card that settled a hand may be taken back, when a misdeal may be declared, and what the
dealer is told to pay and take as the hand's bets are settled, once each.

Pure decisions over the actor's seats and the game: the actor applies them, in its one order.
"""

from __future__ import annotations

from typing import Any

from ..game import Game
from ..seating import Seat
from ..values import Account

#: A bet the dealer was told of, by what identifies it from one change to the next.
Told = dict[tuple[Any, ...], dict[str, Any]]


def reopen_refusal(game: Game, seats: dict[int, Seat], dealt: dict[int, Account]) -> str | None:
    """The card that settled the hand may be taken back until the next hand starts, as long as
    nothing has changed at its seats since (``dealt``: who sat where when it was dealt): each seat
    of the hand is still its player's, with the chips the settlement left (no one left, sat down,
    bought or cashed out since; the ledger mirrors the engine's stacks). Else its result stands:
    why, in words (None: it may be taken back)."""
    engine = game.hand_stacks()
    dealt_in = game.dealt_in()
    for n in sorted(engine):
        s, was = seats.get(n), dealt.get(n)
        who = f"seat {n} ({was.name})" if was is not None else f"seat {n}"
        if s is not None and (was is None or s.account.id != was.id):
            why = f"{s.account.name} has sat down at seat {n} since"
        elif s is None and n in dealt_in:
            why = f"{who} has left the table with their chips since"
        elif s is not None and s.stack != engine[n]:
            why = f"{who}'s chips have changed since (chips sold or cashed out)"
        else:
            continue
        return f"the {game.hand_word} is settled and {why}: its result stands"
    return None


def misdeal_refusal(game: Game, seats: dict[int, Seat]) -> str | None:
    """Why a misdeal may not void the hand in play now ("Misdeal: the rule"): a player left it
    once the dealing started ("A player who leaves at this stage will forfeit his bet": a misdeal
    must not refund them), or something in it is settled (the game says what)."""
    left = next((n for n in sorted(game.hand_stacks()) if n in seats and seats[n].leaving), None)
    if left is not None:
        return (f"seat {left} ({seats[left].account.name}) left once the dealing started and forfeits "
                "(\"a player who leaves at this stage will forfeit his bet\")")
    return game.misdeal_refusal()


def corrections(game: Game, seats: dict[int, Seat], dealt: dict[int, Account]) -> list[str]:
    """The dealer's corrections that would be accepted now (the tablet enables only those)."""
    out = []
    if game.can_take_back() and (game.in_play or reopen_refusal(game, seats, dealt) is None):
        out.append("take_back")
    if game.in_play and misdeal_refusal(game, seats) is None:
        out.append("misdeal")
    return out


def payout_messages(game: Game, told: Told, hand: int) -> tuple[Told, list[dict[str, Any]]]:
    """What the dealer is told after a change of hand ``hand``, given what they were told
    before: the bets a take-back undid (``when: "withdrawn"``), and the bets just settled during
    the hand, to pay or take now (``"now"``), each once. The whole list, what was moved during
    the hand marked ``paid``, is in the dealer's view (``round.payouts``), not told again here.
    Returns what has been told now."""
    now = {(i["at"], i["seat"], i.get("hand"), i["amount"], i["why"]): i for i in game.settlements()}
    withdrawn = [i for k, i in told.items() if k not in now]
    new = [i for k, i in now.items() if k not in told]
    messages = []
    if withdrawn:
        messages.append({"type": "payouts", "hand": hand, "when": "withdrawn", "payouts": game.payouts(withdrawn)})
    if new and game.in_play:
        messages.append({"type": "payouts", "hand": hand, "when": "now", "payouts": game.payouts(new)})
    return now, messages
