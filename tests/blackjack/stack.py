"""Stacked shoes for scripted rounds: say who gets which card, get a dealt round."""

from __future__ import annotations

from syndicate.blackjack.round import Round, shuffled
from syndicate.blackjack.rules import Rules
from syndicate.core.cards import parse
from syndicate.core.shoe import Shoe


def stacked_round(
    rules: Rules,
    players: list[str],
    dealer: str,
    draws: str = "",
    bets: dict[int, int] | None = None,
    stacks: dict[int, int] | None = None,
) -> Round:
    """Seats 1..n get ``players[i]`` ("8s 8d"), the dealer ``dealer`` ("Ac 7s": up card
    first, hole card second); ``draws`` are the cards dealt after that, in order."""
    hands = [parse(p, distinct=False) for p in players]
    d = parse(dealer, distinct=False)
    order = [h[0] for h in hands] + [d[0]] + [h[1] for h in hands] + [d[1]] + parse(draws, distinct=False)
    seats = list(range(1, len(players) + 1))
    rd = shuffled(rules, Shoe.stacked(order, decks=8), stacks or {s: 100_000 for s in seats})
    for s in seats:
        rd.bet(s, (bets or {}).get(s, 1000))
    rd.deal()
    return rd


def payouts(rd: Round) -> list[tuple[int, int, str, int]]:
    """(seat, hand, outcome, net) of every settlement, in order."""
    return [(r.seat, r.hand, r.outcome, r.net) for r in rd.log if r.type == "payout"]


def strings(obj: object) -> set[str]:
    """Every string value inside a JSON-like structure (to look for a card's text)."""
    out: set[str] = set()
    stack = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            out.add(x)
        elif isinstance(x, dict):
            stack.extend(x.values())
        elif isinstance(x, (list, tuple)):
            stack.extend(x)
    return out
