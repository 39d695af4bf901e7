"""Full Blackjack rounds per second: our engine against py21, side by side in one run.

Both play basic strategy at one seat and at five seats with the same rules (8 decks, dealer
stands on soft 17, double any two, double after split, late surrender, reshuffle at 75%),
through real shuffled shoes. Repeats alternate between the engines so that machine noise hits
both alike; the report gives medians and the ratio.

    .venv/bin/python bench/bench_blackjack.py [--rounds 20000] [--repeats 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from syndicate.blackjack.bots import act, advisor
from syndicate.blackjack.course import SETTLED
from syndicate.blackjack.round import shuffled
from syndicate.blackjack.rules import Rules
from syndicate.core.shoe import Shoe

RULES = Rules(decks=8, penetration=0.75, burn_card=True, dealer_hits_soft_17=False, double_on="any",
              double_after_split=True, max_split_hands=3, surrender="late", min_bet=500, max_bet=50_000)


def ours(seats: int, rounds: int) -> float:
    """Rounds per second through the engine with basic-strategy bots."""
    rules = RULES
    advise = advisor(rules)
    stacks = {s: 10**8 for s in range(1, seats + 1)}
    shoe = Shoe.new(rules.decks, rules.penetration, 1)
    start = time.perf_counter()
    for _ in range(rounds):
        if shoe.needs_shuffle:
            shoe = Shoe.new(rules.decks, rules.penetration, 1)
        rd = shuffled(rules, shoe, stacks)
        for s in stacks:
            rd.bet(s, 500)
        rd.deal()
        while rd.phase != SETTLED:
            act(rd, advise)
        stacks = rd.stacks()
    return rounds / (time.perf_counter() - start)


def py21_rounds(seats: int, rounds: int) -> float | None:
    try:
        import py21
    except ImportError:
        return None
    game = py21.Game([py21.Player(10**12) for _ in range(seats)], seed=1)
    start = time.perf_counter()
    for _ in range(rounds):
        game.play_round()
    return rounds / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=20_000)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    print("| seats | syndicate rounds/s | py21 rounds/s | ratio |")
    print("|---:|---:|---:|---:|")
    for seats in (1, 5):
        a: list[float] = []
        b: list[float] = []
        n = args.rounds // seats
        for _ in range(args.repeats):
            a.append(ours(seats, n))
            r = py21_rounds(seats, n)
            if r is not None:
                b.append(r)
        ma = statistics.median(a)
        if b:
            mb = statistics.median(b)
            print(f"| {seats} | {ma:,.0f} | {mb:,.0f} | {ma / mb:.2f}x |")
        else:
            print(f"| {seats} | {ma:,.0f} | (py21 not installed) | |")


if __name__ == "__main__":
    main()
