"""Bots for five-card draw: a simple, sensible strategy from hand strength and draw odds.

Not a solver: the aim is an opponent that plays like a careful regular, so a human at the
terminal gets a fair game. The bot

* draws by the textbook: stands pat on a straight or better, keeps trips (draws 2), two pair
  (draws 1), a pair (draws 3), four to a flush or an open-ended straight (draws 1), an Ace
  with nothing (draws 4, showing the Ace), else its two highest cards (draws 3);
* bets and raises for value with strong hands, calls when the pot pays for its chance of
  winning (drawing odds before the draw, made-hand strength after), folds otherwise, and
  bluffs rarely (with its own ``random.Random``, so games replay from a seed).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ..core.cards import Card
from .draw import DrawHand
from .evaluator import CATEGORIES, evaluate
from .maths.odds import draw_odds
from .state import DRAW, FIRST_BETTING

# Rough chance to end with the best hand at a 3–4 handed table, by what the bot holds after
# the draw (category index: 0 royal … 9 high card); pairs are refined by rank below.
_MADE = {0: 1.0, 1: 0.99, 2: 0.98, 3: 0.95, 4: 0.9, 5: 0.85, 6: 0.75, 7: 0.6, 8: 0.35, 9: 0.1}


def _straight_draw(cards: Sequence[Card]) -> list[Card] | None:
    """Four cards to an open-ended straight (or to the wheel/broadway ends), if any."""
    ranks = {c.rank for c in cards}
    if 14 in ranks:
        ranks.add(1)
    for low in range(1, 11):
        window = set(range(low, low + 5))
        have = window & ranks
        if len(have) == 4:
            missing = (window - have).pop()
            if missing in (low, low + 4):  # open-ended or a one-ended end run: still 4 outs+
                keep_ranks = {14 if r == 1 else r for r in have}
                keep: list[Card] = []
                for c in cards:
                    if c.rank in keep_ranks and c.rank not in {k.rank for k in keep}:
                        keep.append(c)
                return keep
    return None


def choose_discards(cards: Sequence[Card]) -> list[Card]:
    """The cards to throw away (empty: stand pat)."""
    value = evaluate(list(cards))
    cat = value.category_index
    if cat <= 5:  # straight or better
        return []
    counts = Counter(c.rank for c in cards)
    if cat == 6:
        t = next(r for r, n in counts.items() if n == 3)
        return [c for c in cards if c.rank != t]
    if cat == 7:
        pairs = {r for r, n in counts.items() if n == 2}
        return [c for c in cards if c.rank not in pairs]
    suits = Counter(c.suit for c in cards)
    suit, n = suits.most_common(1)[0]
    if n == 4:
        return [c for c in cards if c.suit != suit]
    straight = _straight_draw(cards)
    if straight is not None:
        return [c for c in cards if c not in straight]
    if cat == 8:
        p = next(r for r, k in counts.items() if k == 2)
        return [c for c in cards if c.rank != p]
    aces = [c for c in cards if c.is_ace]
    if aces:
        return [c for c in cards if c is not aces[0]]
    keep = sorted(cards, key=lambda c: c.rank, reverse=True)[:2]
    return [c for c in cards if c not in keep]


def strength(cards: Sequence[Card], before_draw: bool) -> float:
    """A rough chance (0..1) that these cards win, before or after the draw. Before the draw,
    a hand below a straight is worth what its textbook draw makes of it, by the exact odds."""
    value = evaluate(list(cards))
    cat = value.category_index
    s = _MADE[cat]
    if cat == 8:  # one pair: Jacks or better is a real hand, small pairs are not
        s = 0.2 + 0.03 * (value.ranks[0] - 2)
    if before_draw and cat >= 6:
        # What the draw it will make leads to, enumerated exactly (syndicate.poker.maths.odds).
        odds = draw_odds(cards, choose_discards(cards))
        drawn = sum(p * _MADE[CATEGORIES.index(name)] for name, p in odds.categories.items())
        s = max(s, drawn)
    return s


def decide(hand: DrawHand, seat: int, rng: random.Random | None = None) -> tuple[str, Any]:
    """The bot's decision for ``seat``: (action, argument) with argument an amount, the
    discards, or ``None``."""
    rng = rng or random.Random(0)
    legal = hand.legal_actions(seat)
    if not legal:
        raise ValueError(f"seat {seat} has nothing to decide")
    cards = hand.cards[seat]
    if hand.phase == DRAW:
        discards = choose_discards(cards)
        return ("draw", discards) if discards else ("stand_pat", None)
    before = hand.phase == FIRST_BETTING
    s = strength(cards, before)
    opponents = max(1, len(hand.live) - 1)
    win = s ** (0.5 + 0.5 * opponents)  # harder to beat several players
    owe = max(0, hand.to_call(seat))
    pot = hand.pot
    bluff = rng.random() < 0.05
    if owe == 0:
        if "bet" in legal and (win > 0.55 or bluff):
            lo, hi = hand.bet_range(seat) or (0, 0)
            return "bet", _size(hand, lo, hi, win)
        return "check", None
    pot_odds = owe / (pot + owe)
    if "raise" in legal and win > 0.7:
        lo, hi = hand.raise_range(seat) or (0, 0)
        return "raise", _size(hand, lo, hi, win)
    if win >= pot_odds or (bluff and owe <= hand.rules.min_bet):
        return "call", None
    return "fold", None


def _size(hand: DrawHand, lo: int, hi: int, win: float) -> int:
    """Stronger hands bet more; whole chips, or the whole stack when that is all there is."""
    if lo >= hi:
        return hi
    chip = hand.rules.chip
    target = lo + (hi - lo) * max(0.0, min(1.0, (win - 0.5) * 2))
    amount = max(lo, min(hi, int(target) // chip * chip))
    if amount % chip and amount != hi:
        amount = hi
    return amount


def act(hand: DrawHand, seat: int, rng: random.Random | None = None) -> Any:
    """Decide and apply: returns the record the action appended to the log."""
    action, arg = decide(hand, seat, rng)
    if action == "draw":
        return hand.draw(seat, arg)
    if action == "bet":
        return hand.bet(seat, arg)
    if action == "raise":
        return hand.raise_(seat, arg)
    return getattr(hand, action)(seat)
