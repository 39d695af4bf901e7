"""Settlement: what each bet of a Blackjack round returns once the dealer's hand is known.

A bet was taken from the seat's stack when made; settling it adds back what it returns (the
stake and the win, the stake alone on a push, nothing on a loss) and logs a ``payout`` record.
"""

from __future__ import annotations

from typing import Any

from ..core.cards import Card
from . import records as rec
from .hands import PlayerHand, Seat, hand_total
from .rules import Rules


def pay(s: Seat, h: PlayerHand, outcome: str, returned: int, log: list[Any]) -> None:
    """Settle hand ``h`` of seat ``s``: it returns ``returned`` cents to the stack."""
    h.settled = True
    h.outcome = outcome
    h.returned = returned
    s.stack += returned
    log.append(rec.Paid(h.seat, h.index, outcome, returned, returned - h.bet))


def pay_insurance(s: Seat, outcome: str, returned: int, log: list[Any]) -> None:
    """Settle seat ``s``'s insurance bet (logged as hand -1)."""
    s.insurance_settled = True
    s.stack += returned
    log.append(rec.Paid(s.number, -1, "insurance_" + outcome, returned, returned - s.insurance))


def settle_all(rules: Rules, order: list[Seat], dealer: list[Card], dealer_bj: bool, log: list[Any]) -> None:
    """Settle every bet still on the table against the dealer's final hand."""
    r = rules
    dealer_total = hand_total(dealer)[0]
    dealer_bust = dealer_total > 21
    # Read only against a dealer blackjack: the common round pays no rule lookup for it.
    counts_busts = dealer_bj and r.obo_split_bust == "counts"
    for s in order:
        if s.insurance and not s.insurance_settled:
            if dealer_bj:
                pay_insurance(s, "win", 3 * s.insurance, log)
            else:
                pay_insurance(s, "lose", 0, log)
        # no_peek_obo: a dealer blackjack collects, over all of a seat's hands still on the
        # table, only the original bet. A split hand that busted was collected when it
        # busted: under obo_split_bust="counts" that payment counts toward the original bet,
        # under "lost" it does not (Jupiter's 5.5.3 before 7.3).
        owed = 0
        if dealer_bj:
            owed = s.bet
            if counts_busts:
                for h in s.hands:
                    if h.bust:
                        owed -= h.bet
                if owed < 0:
                    owed = 0
        for h in s.hands:
            if h.settled:
                continue
            if h.surrendered:
                if dealer_bj and r.surrender == "late":
                    pay(s, h, "lose", 0, log)  # late surrender cannot escape a blackjack
                else:
                    pay(s, h, "surrender", h.bet // 2, log)  # the house keeps an odd cent
            elif h.natural:
                if dealer_bj:
                    pay(s, h, "push", h.bet, log)
                else:
                    pay(s, h, "blackjack", h.bet + r.blackjack_win(h.bet), log)
            elif dealer_bj:
                if r.hole_card == "no_peek_all":
                    pay(s, h, "lose", 0, log)
                else:
                    take = min(owed, h.bet)
                    owed -= take
                    pay(s, h, "lose" if take else "push", h.bet - take, log)
            else:
                t = h.total
                if dealer_bust or t > dealer_total:
                    pay(s, h, "win", 2 * h.bet, log)
                elif t == dealer_total:
                    pay(s, h, "push", h.bet, log)
                else:
                    pay(s, h, "lose", 0, log)
