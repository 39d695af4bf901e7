"""A seat is its whole number: ``True`` and ``1.0`` equal 1 in Python, and neither may bet or act
for seat 1 (the refusal names the rule, and nothing changes)."""

from __future__ import annotations

import pytest

from syndicate.blackjack.round import shuffled
from syndicate.blackjack.rules import Rules
from syndicate.core.errors import RuleError
from syndicate.core.shoe import Shoe
from syndicate.poker.dealing import deal_hand
from syndicate.poker.rules import DrawRules


@pytest.mark.parametrize("bad", [True, 1.0])
def test_a_blackjack_seat_is_a_whole_number(bad: object) -> None:
    rd = shuffled(Rules(), Shoe.from_seed(bytes(32), decks=6, penetration=0.75, burn=0), {1: 10_000})
    with pytest.raises(RuleError) as e:
        rd.bet(bad, 100)
    assert e.value.rule == "seat" and rd.log == []
    rd.bet(1, 100)
    rd.deal()
    assert rd.to_act == 1
    before = list(rd.log)
    for act in (rd.hit, rd.stand, rd.double):
        with pytest.raises(RuleError) as e:
            act(bad)
        assert e.value.rule == "turn" and rd.log == before


@pytest.mark.parametrize("bad", [True, 1.0])
def test_a_draw_seat_is_a_whole_number(bad: object) -> None:
    hand = deal_hand(DrawRules(), {1: 10_000, 2: 10_000}, 2,
                     Shoe.from_seed(bytes(32), decks=1, penetration=1.0, burn=0))
    assert hand.to_act == 1
    before = list(hand.log)
    with pytest.raises(RuleError) as e:
        hand.check(bad)
    assert e.value.rule == "turn" and hand.log == before and hand.to_act == 1
