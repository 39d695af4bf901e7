"""The house's view of an evening: expected result and spread at one table.

From the exact expectation and variance per round (:mod:`.odds`), ``n`` independent rounds
at an average bet ``B`` give the house an expected result of ``-n * E * B`` with standard
deviation ``sqrt(n * Var) * B``. Rounds at one table share the dealer's hand, which makes
the true spread somewhat wider when several seats play; the figure is per sequence of
independent rounds, the usual convention. Money is integer cents.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

from .odds import Analysis

#: One-sided 95% point of the normal distribution.
Z95 = 1.6448536269514722


@dataclass(frozen=True)
class Evening:
    """Expected house result and its spread for ``rounds`` rounds (cents, house's view)."""

    rounds: int
    average_bet_cents: int
    expected_house_result_cents: int
    standard_deviation_cents: int
    #: The house does at least this well with probability 95% (normal approximation);
    #: negative means a loss the bankroll must cover.
    house_result_5th_percentile_cents: int
    probability_house_loses: float

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def evening(
    analysis: Analysis, hands_per_hour: int, average_bet_cents: int, hours: float
) -> Evening:
    """The house's expected result and standard deviation for an evening at one table."""
    if hands_per_hour <= 0 or hours <= 0:
        raise ValueError("hands per hour and hours must be positive")
    if average_bet_cents <= 0:
        raise ValueError("the average bet must be at least one cent")
    rounds = int(round(hands_per_hour * hours))
    edge = -analysis.expectation_pct / 100.0
    mean = rounds * edge * average_bet_cents
    sd = math.sqrt(rounds * analysis.variance) * average_bet_cents
    p_lose = 0.5 * math.erfc(mean / (sd * math.sqrt(2))) if sd > 0 else float(mean < 0)
    return Evening(
        rounds=rounds,
        average_bet_cents=average_bet_cents,
        expected_house_result_cents=int(round(mean)),
        standard_deviation_cents=int(round(sd)),
        house_result_5th_percentile_cents=int(round(mean - Z95 * sd)),
        probability_house_loses=p_lose,
    )
