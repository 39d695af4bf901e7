"""Bad input: a clear error naming the rule, and nothing changes."""

from __future__ import annotations

import copy

import pytest

from syndicate.core.errors import BadAmount, ConfigError, IllegalAction, OutOfTurn, RuleError
from syndicate.core.shoe import Shoe
from syndicate.poker.dealing import deal_hand
from syndicate.poker.draw import DrawHand
from syndicate.poker.rules import DrawRules
from syndicate.poker.views import log_view, view

from .conftest import deal

HANDS = {1: "As Ad Kc Qh 2s", 2: "7c 7d 7h 9s 3c", 3: "Jh Th 8c 4h 2h"}


def snapshot(hand: DrawHand) -> tuple:  # type: ignore[type-arg]
    return (hand.phase, hand.to_act, dict(hand.stacks), dict(hand.total), dict(hand.street),
            set(hand.folded), {s: list(c) for s, c in hand.cards.items()}, len(hand.log),
            hand.version, hand.pot, hand.dealer.shoe.position, list(hand.muck), hand.current_bet, hand.raises)


def refused(hand: DrawHand, call, err: type[RuleError], rule: str | None = None) -> RuleError:  # type: ignore[no-untyped-def]
    before = snapshot(hand)
    with pytest.raises(err) as info:
        call()
    assert snapshot(hand) == before
    if rule is not None:
        assert info.value.rule == rule
    assert str(info.value)
    return info.value


def test_out_of_turn_names_whose_turn() -> None:
    hand = deal(HANDS, button=3)
    e = refused(hand, lambda: hand.bet(2, 100), OutOfTurn, "turn")
    assert "seat 1's turn" in str(e)
    refused(hand, lambda: hand.check(3), OutOfTurn, "turn")
    refused(hand, lambda: hand.fold(9), OutOfTurn, "turn")
    assert not hand.can_check(2) and hand.can_check(1)


def test_wrong_phase() -> None:
    hand = deal(HANDS, button=3)
    refused(hand, lambda: hand.draw(1, "2s"), OutOfTurn, "phase")
    refused(hand, lambda: hand.stand_pat(1), OutOfTurn, "phase")
    for s in (1, 2, 3):
        hand.check(s)
    refused(hand, lambda: hand.check(1), OutOfTurn, "phase")
    refused(hand, lambda: hand.bet(1, 100), OutOfTurn, "phase")


def test_after_the_hand_is_over() -> None:
    hand = deal(HANDS, button=3)
    hand.fold(1)
    hand.fold(2)
    assert hand.is_terminal and hand.legal_actions() == []
    refused(hand, lambda: hand.check(3), OutOfTurn, "turn")


@pytest.mark.parametrize("amount", [0, -50, 25, 75, 501, 10**9, 1.5, "100", None, True])
def test_bad_bet_amounts(amount: object) -> None:
    hand = deal(HANDS, button=3)
    refused(hand, lambda: hand.bet(1, amount), BadAmount)  # type: ignore[arg-type]


def test_bet_more_than_the_stack_is_table_stakes() -> None:
    hand = deal(HANDS, button=3, stacks={1: 200, 2: 5000, 3: 5000})
    e = refused(hand, lambda: hand.bet(1, 200), BadAmount, "bet.amount")
    assert "table stakes" in str(e)


@pytest.mark.parametrize("by", [0, 25, 501, 75, "50"])
def test_bad_raise_amounts(by: object) -> None:
    hand = deal(HANDS, button=3)
    hand.bet(1, 100)
    refused(hand, lambda: hand.raise_(2, by), BadAmount)  # type: ignore[arg-type]


def test_call_check_raise_when_not_allowed() -> None:
    hand = deal(HANDS, button=3)
    refused(hand, lambda: hand.call(1), IllegalAction, "call")
    refused(hand, lambda: hand.raise_(1, 100), IllegalAction, "raise")
    hand.bet(1, 100)
    refused(hand, lambda: hand.bet(2, 100), IllegalAction, "bet")


@pytest.mark.parametrize(("discards", "rule"), [
    ("As Ad Kc Qh", "draw.limit"),  # four keeping the 2s
    ("As Ad Kc Qh 2s", "draw.limit"),  # five
    ("7c", "draw.cards"),  # not in the hand
    ("Kc Kc", "draw.cards"),  # twice
    ("Xx", "draw.cards"),  # not a card
    ("1s", "draw.cards"),
    (42, "draw.cards"),
])
def test_bad_draws(discards: object, rule: str) -> None:
    hand = deal(HANDS, button=3)
    for s in (1, 2, 3):
        hand.check(s)
    e = refused(hand, lambda: hand.draw(1, discards), IllegalAction, rule)  # type: ignore[arg-type]
    # Errors never name another player's cards.
    for s in (2, 3):
        for c in HANDS[s].split():
            assert c not in str(e)


def test_four_discards_keeping_an_ace_is_allowed() -> None:
    hand = deal(HANDS, button=3)
    for s in (1, 2, 3):
        hand.check(s)
    assert hand.can_draw(1, "Kc Qh 2s Ad")  # keeps the As
    assert not hand.can_draw(1, "As Ad Kc Qh")  # keeps the 2s


def test_unknown_card_error_is_clear() -> None:
    hand = deal(HANDS, button=3)
    for s in (1, 2, 3):
        hand.check(s)
    e = refused(hand, lambda: hand.draw(1, "Zz"), IllegalAction, "draw.cards")
    assert "unknown card 'Zz'" in str(e)


def test_bad_hand_setup() -> None:
    shoe = Shoe.from_seed(bytes(32), decks=1, penetration=1.0, burn=0)
    with pytest.raises(ConfigError):
        deal_hand(DrawRules(), {1: 100}, 1, shoe)
    with pytest.raises(ConfigError):
        deal_hand(DrawRules(), {s: 100 for s in range(8)}, 0, shoe)
    with pytest.raises(ConfigError, match="button"):
        deal_hand(DrawRules(), {1: 100, 2: 100}, 3, shoe)
    with pytest.raises(BadAmount, match="no chips"):
        deal_hand(DrawRules(), {1: 100, 2: 0}, 1, shoe)


def test_repr_and_views_never_show_hidden_cards() -> None:
    hand = deal(HANDS, button=3)
    text = repr(hand) + str(view(hand, "spectator")) + str(view(hand, "dealer")) + str(log_view(hand, "dealer"))
    for s in HANDS:
        for c in HANDS[s].split():
            assert c not in text
    with pytest.raises(ValueError):
        view(hand, 9)
    assert "Shoe" in repr(hand.dealer.shoe) and "As" not in repr(hand.dealer.shoe)


def test_failed_actions_leave_the_log_untouched_deepcopy() -> None:
    hand = deal(HANDS, button=3)
    log = copy.deepcopy([r.to_json() for r in hand.log])
    for bad in (lambda: hand.bet(1, 7), lambda: hand.call(1), lambda: hand.draw(1, "As")):
        with pytest.raises(RuleError):
            bad()
    assert [r.to_json() for r in hand.log] == log
