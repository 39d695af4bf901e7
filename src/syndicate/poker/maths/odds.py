"""Exact draw odds for five-card draw: every way the draw can come, enumerated.

After a discard of ``k`` cards the new cards are ``k`` of the 47 unseen ones, every choice
equally likely (other players' hands are unknown, so they count as unseen). For each discard
we enumerate all C(47, k) draws with the batch evaluator and count final categories, how
often the hand improves, and the expected *strength* of the final hand: the share of all
2,598,960 five-card hands it beats (ties count half), a measure in which every category is
weighed by how often it occurs.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ...core.cards import DECK, Card, CardError, parse
from ..evaluator import CATEGORIES, evaluate

#: The house rule of the seed: up to three, or four when the card kept is an Ace.
MAX_DISCARD = 3


@dataclass(frozen=True)
class DrawOdds:
    """What one discard leads to. Probabilities are exact fractions of ``draws``."""

    discard: tuple[Card, ...]
    draws: int  # how many equally likely draws were enumerated
    categories: dict[str, float]  # final category → probability
    improve: float  # probability the final hand is of a better category than the current one
    strength: float  # expected share of all five-card hands the final hand beats

    def to_json(self) -> dict[str, object]:
        return {
            "discard": [c.text for c in self.discard],
            "draws": self.draws,
            "improve": self.improve,
            "strength": self.strength,
            "categories": self.categories,
        }


@lru_cache(maxsize=8)
def _combos(k: int) -> np.ndarray:
    """Every k-subset of 47 positions, as an (C(47, k), k) array (the same for every hand)."""
    if k == 0:
        return np.zeros((1, 0), dtype=np.int8)
    return np.array(list(itertools.combinations(range(47), k)), dtype=np.int8)


@lru_cache(maxsize=1)
def _strength_by_rank() -> np.ndarray:
    """rank → share of all five-card hands this rank beats (ties half): 7,463 floats."""
    from .batch import all_hands, evaluate_batch

    ranks = evaluate_batch(all_hands())
    counts = np.bincount(ranks, minlength=7463).astype(np.float64)
    counts[0] = 0.0
    total = counts.sum()
    # Rank 1 is best: the hands a rank beats are those with a larger rank.
    worse = total - np.cumsum(counts)
    return (worse + counts / 2) / total


def _check_hand(cards: Sequence[Card | str] | str) -> list[Card]:
    hand = parse(cards) if isinstance(cards, str) else parse(list(cards))
    if len(hand) != 5:
        raise CardError(f"a draw hand is five cards, got {len(hand)}")
    return hand


def allowed(hand: Sequence[Card], discard: Sequence[Card], *, ace_discard: bool = True) -> bool:
    """The seed's draw rule: up to three cards, or four when the card kept is an Ace."""
    n = len(discard)
    if n <= MAX_DISCARD:
        return True
    kept = [c for c in hand if c not in discard]
    return ace_discard and n == 4 and len(kept) == 1 and kept[0].is_ace


def draw_odds(cards: Sequence[Card | str] | str, discard: Sequence[Card | str] | str = ()) -> DrawOdds:
    """Exact odds after throwing ``discard`` from the five ``cards`` and drawing as many."""
    from .batch import RANK_CATEGORY, evaluate_batch

    hand = _check_hand(cards)
    thrown = parse(discard) if isinstance(discard, str) else parse(list(discard))
    if any(c not in hand for c in thrown):
        raise CardError("the discard must be cards of the hand: " + " ".join(c.text for c in thrown if c not in hand))
    kept = [c for c in hand if c not in thrown]
    unseen = np.array([c.index for c in DECK if c not in hand], dtype=np.int8)
    combos = _combos(len(thrown))
    hands = np.empty((len(combos), 5), dtype=np.int8)
    hands[:, : len(kept)] = [c.index for c in kept]
    hands[:, len(kept):] = unseen[combos]
    ranks = evaluate_batch(hands)
    final = RANK_CATEGORY[ranks]
    cats = np.bincount(final, minlength=len(CATEGORIES)) / len(ranks)
    return DrawOdds(
        discard=tuple(thrown),
        draws=len(ranks),
        categories={name: float(p) for name, p in zip(CATEGORIES, cats) if p > 0},
        # Improving means a better category: a pair from nothing, trips from a pair, ...
        improve=float(np.mean(final < evaluate(hand).category_index)),
        strength=float(_strength_by_rank()[ranks].mean()),
    )


def discard_options(cards: Sequence[Card | str] | str, *, ace_discard: bool = True) -> list[DrawOdds]:
    """Every discard the rules allow, with its odds, best first: the most likely to improve,
    then the strongest on average, then the fewest cards thrown."""
    hand = _check_hand(cards)
    options = [
        draw_odds(hand, thrown)
        for k in range(5)
        for thrown in itertools.combinations(hand, k)
        if allowed(hand, thrown, ace_discard=ace_discard)
    ]
    options.sort(key=lambda o: (-o.improve, -o.strength, len(o.discard)))
    return options
