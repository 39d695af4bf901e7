"""The house's view of an evening."""

from __future__ import annotations

import math

import pytest

from syndicate.blackjack.maths.house import evening
from syndicate.blackjack.maths.odds import analyze
from syndicate.blackjack.rules import Rules


def test_evening_mean_and_sd_follow_from_edge_and_variance() -> None:
    a = analyze(Rules(decks=6, surrender="none"))
    ev = evening(a, hands_per_hour=200, average_bet_cents=2_500, hours=4.0)
    assert ev.rounds == 800
    edge = -a.expectation_pct / 100
    assert ev.expected_house_result_cents == round(800 * edge * 2_500)
    assert ev.standard_deviation_cents == round(math.sqrt(800 * a.variance) * 2_500)
    assert isinstance(ev.expected_house_result_cents, int)
    # An evening is mostly noise: the house ends behind a good share of nights.
    assert 0.3 < ev.probability_house_loses < 0.5
    assert ev.house_result_5th_percentile_cents < 0


def test_evening_rejects_nonsense() -> None:
    a = analyze(Rules(decks=6))
    with pytest.raises(ValueError):
        evening(a, 0, 100, 1.0)
    with pytest.raises(ValueError):
        evening(a, 100, 0, 1.0)
