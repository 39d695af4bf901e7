"""Table stakes: all-ins, side pots (each split on its own), uncalled bets, short antes.

The seed is silent here; these are the card-room rules we implement (docs/poker.md).
"""

from __future__ import annotations

import pytest

from syndicate.core.errors import IllegalAction
from syndicate.poker.pots import Pot, side_pots, split
from syndicate.poker.rules import DrawRules
from syndicate.poker.state import DRAW, SETTLED

from .conftest import deal, finish_checking

BEST, SECOND, THIRD, WORST = "As Ah Ad Kc Kd", "Qs Qh Qd 2c 3d", "Js Jh 9d 8c 4d", "7s 5h 4c 3h 2d"


def chips(hand) -> int:  # type: ignore[no-untyped-def]
    return hand.chips_total()


def test_three_stacks_three_pots_short_stack_wins_main() -> None:
    hand = deal({1: BEST, 2: SECOND, 3: WORST}, button=3, stacks={1: 300, 2: 700, 3: 2000})
    start = chips(hand)
    r = hand.bet(1, 250)
    assert r.all_in and hand.is_all_in(1)
    r2 = hand.raise_(2, 400)
    assert r2.all_in and r2.amount == 650
    hand.call(3)
    assert hand.phase == DRAW
    assert hand.current_pots() == [Pot(900, (1, 2, 3)), Pot(800, (2, 3))]
    finish_checking(hand)  # only seat 3 has chips: no second betting round
    assert hand.phase == SETTLED
    assert hand.awards == {1: 900, 2: 800}
    assert hand.results() == {1: 600, 2: 100, 3: -700}
    assert chips(hand) == start and hand.pot == 0


def test_short_stack_cannot_win_more_than_it_put_in_from_each_player() -> None:
    hand = deal({1: WORST, 2: BEST, 3: SECOND}, button=3, stacks={1: 5000, 2: 200, 3: 5000})
    hand.bet(1, 500)
    assert hand.legal_actions() == ["call", "fold"]  # seat 2's chips only cover a call
    with pytest.raises(IllegalAction, match="only cover a call"):
        hand.raise_(2, 50)
    c = hand.call(2)
    assert c.amount == 150 and c.all_in
    hand.call(3)
    # Seat 1 and 3 keep betting in the second round; the side pot grows, the main pot doesn't.
    hand.stand_pat(1)
    hand.stand_pat(2)
    hand.stand_pat(3)
    hand.bet(1, 500)
    hand.call(3)
    assert hand.awards == {2: 600, 3: 1700}
    assert hand.results() == {1: -1050, 2: 400, 3: 650}


def test_uncalled_part_of_a_bet_is_returned() -> None:
    hand = deal({1: BEST, 2: SECOND}, button=2, stacks={1: 5000, 2: 250})
    hand.bet(1, 500)
    hand.call(2)  # all-in for $2.00
    returned = [r for r in hand.log if r.type == "uncalled"]
    assert [(r.seat, r.amount) for r in returned] == [(1, 300)]
    assert hand.total == {1: 250, 2: 250}
    finish_checking(hand)
    assert hand.results() == {1: 250, 2: -250}


def test_bet_folded_to_is_returned_and_wins_without_showdown() -> None:
    hand = deal({1: WORST, 2: BEST, 3: SECOND}, button=3)
    hand.check(1)
    hand.bet(2, 500)
    hand.fold(3)
    hand.fold(1)
    assert hand.phase == SETTLED
    assert [(r.seat, r.amount) for r in hand.log if r.type == "uncalled"] == [(2, 500)]
    assert hand.awards == {2: 150}
    assert not [r for r in hand.log if r.type == "show"]


def test_folded_chips_stay_in_the_pots_they_reached() -> None:
    # Seat 1 (short) is all-in; seat 3 folds in the second round: its chips stay in both pots,
    # seat 2 takes the side pot unopposed and shows down against seat 1 for the main pot.
    hand = deal({1: BEST, 2: THIRD, 3: SECOND}, button=3, stacks={1: 250, 2: 5000, 3: 5000})
    hand.bet(1, 200)
    hand.raise_(2, 300)
    hand.call(3)
    for s in (1, 2, 3):
        hand.stand_pat(s)
    hand.bet(2, 500)
    hand.fold(3)
    assert hand.phase == SETTLED
    # main: 3 x 250 = 750 to seat 1; side: (550 - 250) x 2 = 600 to seat 2; 500 returned.
    assert hand.awards == {1: 750, 2: 600}
    assert hand.results() == {1: 500, 2: 50, 3: -550}


def test_short_ante_is_all_in_for_what_the_player_has() -> None:
    hand = deal({1: BEST, 2: SECOND, 3: THIRD}, button=3, stacks={1: 30, 2: 5000, 3: 5000})
    antes = {r.seat: (r.amount, r.all_in) for r in hand.log if r.type == "ante"}
    assert antes == {1: (30, True), 2: (50, False), 3: (50, False)}
    assert hand.to_act == 2  # seat 1 has nothing left to bet
    finish_checking(hand)
    assert hand.awards == {1: 90, 2: 40}
    assert hand.results() == {1: 60, 2: -10, 3: -50}


def test_everyone_all_in_on_the_ante_still_draws_then_shows_down() -> None:
    hand = deal({1: WORST, 2: BEST}, button=2, stacks={1: 40, 2: 50}, draws="2c 3c 4s")
    assert hand.phase == DRAW
    # The 10 cents nobody matched come back to seat 2.
    assert [(r.seat, r.amount) for r in hand.log if r.type == "uncalled"] == [(2, 10)]
    hand.draw(1, "7s 5h 4c")
    hand.stand_pat(2)
    assert hand.phase == SETTLED and hand.awards == {2: 80}


def test_side_pots_are_split_on_their_own_with_their_own_remainder() -> None:
    # Seats 2 and 3 tie for the side pot; seat 1 (short) wins the main pot alone.
    hand = deal({1: "As Ah Ad Qc Qd", 2: "Ks Kh 9c 8d 4s", 3: "Kc Kd 9h 8s 4d"}, button=3,
                stacks={1: 100, 2: 5000, 3: 5000})
    hand.bet(1, 50)  # all-in
    hand.raise_(2, 100)
    hand.call(3)
    finish_checking(hand)
    # main 3 x 100 = 300 to seat 1; side 2 x 100 = 200 split: 100 each, nothing left over.
    assert hand.awards == {1: 300, 2: 100, 3: 100} and hand.carry_out == 0
    hand = deal({1: WORST, 2: "Ks Kh 9c 8d 4s", 3: "Kc Kd 9h 8s 4d"}, button=3,
                stacks={1: 100, 2: 5000, 3: 5000})
    hand.bet(1, 50)
    hand.raise_(2, 100)
    hand.call(3)
    finish_checking(hand)
    # main 300 split two ways (150 each), side 200 split on its own (100 each).
    assert hand.awards == {2: 250, 3: 250} and hand.carry_out == 0
    assert [(r.seat, r.amount, r.pot) for r in hand.log if r.type == "award"] == [
        (2, 150, 0), (3, 150, 0), (2, 100, 1), (3, 100, 1)]


def test_side_pot_remainder_carries_while_main_pot_goes_whole() -> None:
    hands = {1: "As Ah Ad Qc Qd", 2: "Ks Kh 9c 8d 4s", 3: "Kc Kd 9h 8s 4d", 4: "7s 5h 4c 3h 2d"}
    hand = deal(hands, button=4, stacks={1: 100, 2: 5000, 3: 5000, 4: 5000})
    hand.bet(1, 50)  # all-in
    hand.raise_(2, 50)
    hand.call(3)
    hand.fold(4)
    finish_checking(hand)
    # main: 3 x 100 + seat 4's ante = 350 to seat 1; side: 50 x 2 = 100, a tie: 50 each.
    assert hand.awards == {1: 350, 2: 50, 3: 50} and hand.carry_out == 0
    hand = deal(hands, button=4, stacks={1: 100, 2: 5000, 3: 5000, 4: 5000})
    hand.bet(1, 50)
    hand.raise_(2, 50)
    hand.call(3)
    hand.call(4)
    for s in (1, 2, 3, 4):
        hand.stand_pat(s)
    hand.bet(2, 100)
    hand.call(3)
    hand.fold(4)
    # side pot: 50 x 3 + 100 x 2 = 350 for seats 2 and 3 (a tie): 3 chips each, one carries.
    assert hand.awards == {1: 400, 2: 150, 3: 150} and hand.carry_out == 50
    assert [(r.amount, r.pot) for r in hand.log if r.type == "carry"] == [(50, 1)]
    assert hand.chips_total() == 15_100


def test_raise_not_allowed_when_everyone_else_is_all_in() -> None:
    hand = deal({1: BEST, 2: SECOND}, button=2, stacks={1: 200, 2: 5000})
    hand.bet(1, 150)
    assert hand.legal_actions() == ["call", "fold"]
    with pytest.raises(IllegalAction, match="all-in"):
        hand.raise_(2, 100)


def test_all_in_bet_below_the_minimum_and_off_chip() -> None:
    hand = deal({1: BEST, 2: SECOND}, button=2, stacks={1: 85, 2: 5000})
    assert hand.bet_range(1) == (35, 35)
    hand.bet(1, 35)  # the whole stack: under $0.50 and not a whole chip, allowed all-in
    assert hand.is_all_in(1)
    hand.call(2)
    finish_checking(hand)
    assert hand.awards == {1: 170}


def test_side_pots_function_directly() -> None:
    assert side_pots({1: 100, 2: 300, 3: 300}, {1, 2, 3}) == [Pot(300, (1, 2, 3)), Pot(400, (2, 3))]
    assert side_pots({1: 100, 2: 300, 3: 200}, {1, 2}) == [Pot(300, (1, 2)), Pot(300, (2,))]
    assert side_pots({1: 50, 2: 50}, {1}) == [Pot(100, (1,))]
    assert split(450, [1, 2], 50) == ({1: 200, 2: 200}, 50)
    assert split(450, [1, 2], 50, "left_of_button") == ({1: 250, 2: 200}, 0)
    assert split(175, [3], 50) == ({3: 175}, 0)
    assert split(175, [1, 2], 50) == ({1: 50, 2: 50}, 75)
    assert split(175, [1, 2], 50, "left_of_button") == ({1: 100, 2: 75}, 0)
    with pytest.raises(ValueError):
        split(100, [], 50)


def test_rules_validation() -> None:
    from syndicate.core.errors import ConfigError
    for bad in ({"chip": 0}, {"min_bet": 600}, {"raise_cap": -1}, {"odd_chip": "house"},
                {"max_discard": 5}, {"max_players": 9}, {"min_bet": 75}):
        with pytest.raises(ConfigError):
            DrawRules(**bad)  # type: ignore[arg-type]
    assert DrawRules.from_dict(DrawRules().to_dict()) == DrawRules()
    with pytest.raises(ConfigError, match="unknown"):
        DrawRules.from_dict({"antes": 50})
