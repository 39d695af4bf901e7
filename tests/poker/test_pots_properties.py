"""Side pots against rules stated independently of how they are computed.

Table stakes in one sentence: a player can win from each other player at most what they
themselves put in. The checks below hold for any contributions, any set of folded players
and any hand values, with ties."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from syndicate.poker.pots import settle, side_pots

hands_st = st.lists(
    st.tuples(st.integers(1, 3000), st.booleans(), st.integers(0, 4)), min_size=2, max_size=7
)


@settings(max_examples=1000, deadline=None)
@given(hands_st, st.sampled_from(["carry", "left_of_button"]), st.sampled_from([1, 25, 50]))
def test_side_pots_obey_table_stakes(hands: list[tuple[int, bool, int]], odd_chip: str, chip: int) -> None:
    seats = list(range(len(hands)))
    live = {s for s in seats if not hands[s][1]} or {0}
    # In a hand, uncalled bets come back, so nobody folded has more in than the biggest
    # live contribution.
    cap = max(hands[s][0] for s in live)
    total = {s: hands[s][0] if s in live else min(hands[s][0], cap) for s in seats}
    value = {s: hands[s][2] for s in seats}
    pots = side_pots(total, live)
    # Every chip is in exactly one pot; only live players are eligible.
    assert sum(p.amount for p in pots) == sum(total.values())
    assert all(set(p.eligible) <= live and p.eligible for p in pots)
    awards, carried = settle(pots, value, seats, chip, odd_chip)
    won = {s: 0 for s in seats}
    for _i, s, amount in awards:
        won[s] += amount
    assert sum(won.values()) + sum(a for _i, a in carried) == sum(total.values())
    if odd_chip == "left_of_button":
        assert not carried
    for s in seats:
        if s not in live:
            assert won[s] == 0  # folded players win nothing
        # Table stakes: at most what s put in, from each player (s included).
        assert won[s] <= sum(min(total[s], total[o]) for o in seats)
    # A unique best live hand wins exactly that much: all it can, and no more.
    best = max(value[s] for s in live)
    top = [s for s in live if value[s] == best]
    if len(top) == 1:
        (s,) = top
        assert won[s] == sum(min(total[s], total[o]) for o in seats)


@settings(max_examples=300, deadline=None)
@given(hands_st)
def test_a_tie_between_everyone_returns_each_their_own_chips_up_to_the_chip(
    hands: list[tuple[int, bool, int]]
) -> None:
    seats = list(range(len(hands)))
    total = {s: hands[s][0] * 50 for s in seats}  # whole chips
    pots = side_pots(total, set(seats))
    awards, carried = settle(pots, {s: 0 for s in seats}, seats, 50, "carry")
    won = {s: 0 for s in seats}
    for _i, s, amount in awards:
        won[s] += amount
    # Everyone ties: each gets back their own contribution except what cannot be split
    # in whole chips, which carries.
    assert all(won[s] <= total[s] for s in seats)
    assert sum(total[s] - won[s] for s in seats) == sum(a for _i, a in carried)
