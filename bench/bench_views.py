"""What a live draw table makes on every change, in process: each viewer's view of
the hand (the round and its log, for five seats and the dealer, as one broadcast does) and the
hand's history (what the table stores on every change), timed per change over random hands.

    python bench/bench_views.py --hands 300

For a before/after, run it on two checkouts with bench/compare.py (``--metric 'views ([0-9.]+)
us'``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from syndicate.poker.draw import DrawHand
from syndicate.poker.rules import DrawRules
from syndicate.room.games.draw import DrawGame

VIEWERS: list[int | str] = [1, 2, 3, 4, 5, "dealer"]


def act(hand: DrawHand, rng: random.Random) -> None:
    """One random legal decision of the seat to act."""
    seat = hand.to_act
    assert seat is not None
    action = rng.choice(hand.legal_actions())
    if action in ("bet", "raise"):
        lo, hi = hand.bet_range() if action == "bet" else hand.raise_range()  # type: ignore[misc]
        getattr(hand, "bet" if action == "bet" else "raise_")(seat, rng.choice([lo, hi]))
    elif action == "draw":
        cards = list(hand.cards[seat])
        hand.draw(seat, cards[: rng.choice([1, 2, 3])])
    else:
        getattr(hand, action)(seat)


def run(hands: int) -> tuple[float, float, int]:
    views = history = 0.0
    changes = 0
    for k in range(hands):
        rng = random.Random(k)
        players = {s: 5_000 for s in range(1, 6)}
        game = DrawGame(DrawRules(), lambda players=players: players)
        game.start_hand(k + 1)
        hand = game.round
        assert hand is not None
        while True:
            t0 = time.perf_counter()
            memo: dict = {}  # one broadcast's
            for v in VIEWERS:
                game.round_view(v, memo)
                game.log_view(v, memo)
            t1 = time.perf_counter()
            game.history(1, k + 1, players)
            t2 = time.perf_counter()
            views, history, changes = views + t1 - t0, history + t2 - t1, changes + 1
            if hand.is_terminal:
                break
            act(hand, rng)
    return views, history, changes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=300)
    args = ap.parse_args()
    views, history, changes = run(args.hands)
    print(f"draw, {args.hands} hands, {changes} changes: views {1e6 * views / changes:.1f} us per change "
          f"(6 viewers), history {1e6 * history / changes:.1f} us per change")


if __name__ == "__main__":
    main()
