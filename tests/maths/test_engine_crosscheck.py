"""Round by round, the simulator's kernel plays the same game as the engine.

Both deal the same stacked shoe (no shuffling) to one seat that follows the computed chart;
every round must end with the same result. This ties the exact analysis (which the
simulator matches statistically) to the rules as the engine implements them.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from syndicate.blackjack.bots import act, advisor
from syndicate.blackjack.course import SETTLED
from syndicate.blackjack.maths.simulate import _kernel_args, sim_chunk
from syndicate.blackjack.round import shuffled
from syndicate.blackjack.rules import Rules, preset
from syndicate.core.cards import decks as fresh_decks
from syndicate.core.shoe import Shoe

BET = 1_000  # cents: even, so half a bet and 3:2 / 6:5 wins are whole cents


def _engine_result(rules: Rules, order: list) -> float:
    """One seat playing the computed chart (the bots' own move) through a stacked shoe."""
    advise = advisor(rules)
    rd = shuffled(rules, Shoe.stacked(order, penetration=1.0, burn=0, decks=rules.decks), {1: 10**9})
    rd.bet(1, BET)
    rd.deal()
    while rd.phase != SETTLED:
        act(rd, advise)
    return (rd.stacks()[1] - 10**9) / BET


def _stacked_order(rules: Rules, rng: random.Random, with_pair: bool) -> list:
    """A shuffled shoe; with ``with_pair``, the player's second card made to pair the first
    (rich in splits, resplits and doubles after splits)."""
    order = fresh_decks(rules.decks)
    rng.shuffle(order)
    if with_pair:
        for j in range(3, len(order)):
            if order[j].value == order[0].value:
                order[2], order[j] = order[j], order[2]
                break
    return order


def _kernel_result(rules: Rules, order: list) -> float:
    args = list(_kernel_args(rules, True))
    args[2] = 0  # no burn card
    args[-1] = np.array([card.value - 1 for card in order], dtype=np.int64)
    total, _ = sim_chunk(np.zeros(4, dtype=np.uint64), 1, *args)  # zero state: no shuffle
    return float(total)


RULE_SETS = {
    "syndicate": preset("syndicate"),
    "notice": preset("notice"),
    "h17-es-rsa-hsa": Rules(decks=2, dealer_hits_soft_17=True, surrender="early",
                            resplit_aces=True, hit_split_aces=True, blackjack_pays="6:5"),
    "enhc-all-d1011-split2": Rules(decks=8, hole_card="no_peek_all", double_on="10-11",
                                   max_split_hands=2, surrender="late"),
    "1d-nodas-nosplit": Rules(decks=1, double_after_split=False, max_split_hands=1),
}


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_kernel_and_engine_agree_round_by_round(name: str) -> None:
    rules = RULE_SETS[name]
    rng = random.Random(f"crosscheck-{name}")
    # Rich in pairs and small cards, so splits, resplits and doubles after splits occur often.
    mismatches = []
    for i in range(1500):
        order = _stacked_order(rules, rng, with_pair=bool(i % 2))
        e = _engine_result(rules, order)
        k = _kernel_result(rules, order)
        if e != k:
            mismatches.append((i, " ".join(c.text for c in order[:14]), e, k))
    assert mismatches == []


def test_original_bets_only_agrees_with_the_engine() -> None:
    rules = preset("jupiters")
    rng = random.Random(1)
    for i in range(4000):
        order = _stacked_order(rules, rng, with_pair=bool(i % 2))
        assert _engine_result(rules, order) == _kernel_result(rules, order)
