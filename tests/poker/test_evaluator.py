"""The hand evaluator: exact counts over every hand, agreement with treys, clear errors."""

from __future__ import annotations

import random

import numpy as np
import pytest

from syndicate.core.cards import DECK, CardError, parse
from syndicate.poker import (
    CATEGORIES,
    HandValue,
    all_hands,
    best_five,
    best_of,
    evaluate,
    evaluate_batch,
    frequency_table,
    value_of_rank,
)
from syndicate.poker.maths.batch import RANK_CATEGORY

EXPECTED = {
    "Royal Flush": 4,
    "Straight Flush": 36,
    "Four of a Kind": 624,
    "Full House": 3744,
    "Flush": 5108,
    "Straight": 10200,
    "Three of a Kind": 54912,
    "Two Pair": 123552,
    "One Pair": 1098240,
    "High Card": 1302540,
}


@pytest.fixture(scope="module")
def every_rank() -> np.ndarray:
    return evaluate_batch(all_hands())


def test_every_hand_category_counts(every_rank: np.ndarray) -> None:
    assert every_rank.shape == (2_598_960,)
    counts = np.bincount(RANK_CATEGORY[every_rank], minlength=10)
    assert dict(zip(CATEGORIES, counts.tolist())) == EXPECTED
    # 40 straight flushes of which 4 royal
    assert counts[0] + counts[1] == 40


def test_exactly_7462_distinct_values(every_rank: np.ndarray) -> None:
    distinct = np.unique(every_rank)
    assert distinct.size == 7462
    assert distinct[0] == 1 and distinct[-1] == 7462


def test_frequency_table_matches_counts() -> None:
    table = frequency_table()
    assert [(name, n) for name, n, _p in table] == list(EXPECTED.items())
    assert sum(n for _name, n, _p in table) == 2_598_960
    assert abs(sum(p for *_x, p in table) - 1.0) < 1e-12


def test_single_and_batch_agree_on_a_sample(every_rank: np.ndarray) -> None:
    hands = all_hands()
    rng = np.random.default_rng(7)
    for i in rng.integers(0, len(hands), 3000):
        row = hands[i]
        assert evaluate([DECK[j] for j in row]).rank == every_rank[i]


def test_agrees_with_treys_on_a_fixed_sample() -> None:
    treys = pytest.importorskip("treys")
    ev = treys.Evaluator()
    rng = random.Random(20261201)
    ours, theirs = [], []
    for _ in range(20_000):
        hand = rng.sample(DECK, 5)
        ours.append(evaluate(hand))
        theirs.append(ev.evaluate([treys.Card.new(c.text) for c in hand[:2]],
                                  [treys.Card.new(c.text) for c in hand[2:]]))
    # Both use the 1 = royal flush … 7462 convention, so the ranks agree exactly, which
    # implies that every pair of hands is ordered the same way.
    assert [v.rank for v in ours] == theirs
    assert sorted(range(len(ours)), key=lambda i: ours[i].rank) == sorted(
        range(len(ours)), key=lambda i: theirs[i])


@pytest.mark.parametrize(("text", "category", "name"), [
    ("As Ks Qs Js Ts", "Royal Flush", "Royal Flush"),
    ("9h Kh Th Qh Jh", "Straight Flush", "Straight Flush, King high"),
    ("5d 4d 3d 2d Ad", "Straight Flush", "Straight Flush, Five high"),
    ("7c 7d 7h 7s Kd", "Four of a Kind", "Four of a Kind, Sevens, King kicker"),
    ("Kc Kd Ks 7h 7c", "Full House", "Full House, Kings over Sevens"),
    ("As Kd 7h 7c 2s", "One Pair", "One Pair, Sevens (A K 2 kickers)"),
    ("Ah 9h 7h 3h 2h", "Flush", "Flush, Ace high (A 9 7 3 2)"),
    ("Ah 2d 3c 4s 5s", "Straight", "Straight, Five high"),
    ("Tc Jd Qh Ks Ac", "Straight", "Straight, Ace high"),
    ("6c 6d 6h As 2c", "Three of a Kind", "Three of a Kind, Sixes (A 2 kickers)"),
    ("Qc Qd 4h 4s 9c", "Two Pair", "Two Pair, Queens and Fours, Nine kicker"),
    ("7d 5c 4h 3s 2c", "High Card", "High Card, Seven (5 4 3 2)"),
])
def test_categories_and_names(text: str, category: str, name: str) -> None:
    v = evaluate(text)
    assert v.category == category
    assert v.name == name == str(v)


def test_royal_is_rank_1_and_seven_high_is_7462() -> None:
    assert evaluate("As Ks Qs Js Ts").rank == 1
    assert evaluate("7d 5c 4h 3s 2c").rank == 7462


def test_wheel_is_the_lowest_straight() -> None:
    wheel = evaluate("Ah 2d 3c 4s 5s")
    six_high = evaluate("2h 3d 4c 5s 6s")
    best_trips = evaluate("Ah Ad Ac Ks Qs")
    assert best_trips < wheel < six_high
    # A-K-Q-J-T is a straight; K-A-2-3-4 does not wrap around.
    assert evaluate("Kh Ad 2c 3s 4s").category == "High Card"
    # The wheel as a straight flush is the lowest straight flush, above every four of a kind.
    assert evaluate("Ah 2h 3h 4h 5h") > evaluate("Ac Ad Ah As Ks")
    assert evaluate("Ah 2h 3h 4h 5h") < evaluate("2h 3h 4h 5h 6h")


def test_values_are_comparable_and_hashable() -> None:
    a, b = evaluate("Kc Kd Ks 7h 7c"), evaluate("Kh Kd Ks 7d 7s")
    assert a == b and hash(a) == hash(b) and a is b
    assert len({a, b, evaluate("2c 3d 4h 5s 7c")}) == 2
    assert max(evaluate("2c 3d 4h 5s 7c"), a) is a
    assert value_of_rank(a.rank) is a
    assert isinstance(a, HandValue)
    assert sorted([a, evaluate("As Ks Qs Js Ts")])[-1].category == "Royal Flush"


def test_inputs_cards_indices_and_text_agree() -> None:
    cards = parse("As Kd 7h 7c 2s")
    assert evaluate(cards) is evaluate("As Kd 7h 7c 2s") is evaluate([c.index for c in cards])
    assert evaluate(tuple(cards)) is evaluate("as,KD,7h,7c,2s")
    assert evaluate(np.array([c.index for c in cards])) is evaluate(cards)


@pytest.mark.parametrize("bad", [
    "As Kd 7h 7c", "As Kd 7h 7c 2s 3s", "As As 7h 7c 2s", "As Kd 7h 7c Xx", "As Kd 7h 7c 1s",
    [0, 1, 2, 3, 52], [0, 0, 1, 2, 3], 12345, None,
])
def test_bad_hands_are_a_clear_error(bad: object) -> None:
    with pytest.raises(CardError) as info:
        evaluate(bad)  # type: ignore[arg-type]
    assert str(info.value)


def test_duplicate_named_in_the_error() -> None:
    with pytest.raises(CardError, match="card given twice: As"):
        evaluate("As Kd As 7c 2s")
    # Duplicates that look like a legal pair must not slip through the fast path.
    with pytest.raises(CardError, match="twice"):
        evaluate(parse("Kh 2c 5d 9s", distinct=True) + parse("Kh"))


def test_best_of_six_and_seven() -> None:
    assert best_of("As Ks Qs Js Ts 2c 2d").category == "Royal Flush"
    assert best_of("2c 2d 2h 9s 9c 9d").name == "Full House, Nines over Twos"
    value, five = best_five("Ah 2d 3c 4s 5s 5d 9c")
    assert value.name == "Straight, Five high"
    assert evaluate(list(five)) is value
    with pytest.raises(CardError):
        best_of("As Ks Qs Js")
    with pytest.raises(CardError):
        best_of("As Ks Qs Js Ts 9s 8s 7s")
    with pytest.raises(CardError, match="twice"):
        best_of("As Ks Qs Js Ts As")


def test_batch_agrees_with_single_on_random_hands() -> None:
    rng = np.random.default_rng(3)
    hands = np.array([rng.permutation(52)[:5] for _ in range(2000)], dtype=np.int64)
    ranks = evaluate_batch(hands)
    assert ranks.tolist() == [evaluate([DECK[j] for j in row]).rank for row in hands]
    assert evaluate_batch(hands.astype(np.uint8)).tolist() == ranks.tolist()


@pytest.mark.parametrize("bad", [
    np.array([[0, 1, 2, 3, 52]]), np.array([[0, 1, 2, 3, 3]]), np.array([[0, 1, 2, 3, -1]]),
    np.zeros((3, 4), dtype=np.uint8), np.zeros((3, 5), dtype=np.float64),
])
def test_batch_bad_rows_are_a_clear_error(bad: np.ndarray) -> None:
    with pytest.raises(CardError):
        evaluate_batch(bad)


def test_batch_error_names_the_row() -> None:
    hands = np.array([[0, 1, 2, 3, 4], [5, 6, 7, 8, 8]], dtype=np.uint8)
    with pytest.raises(CardError, match="row 1"):
        evaluate_batch(hands)


def test_five_copies_of_a_card_are_refused_for_every_card() -> None:
    for c in DECK:
        with pytest.raises(CardError, match="twice"):
            evaluate([c] * 5)


def test_any_repeated_card_is_refused_and_distinct_cards_never_are() -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=3000, deadline=None)
    @given(st.lists(st.sampled_from(DECK), min_size=5, max_size=5))
    def check(cards: list) -> None:  # type: ignore[type-arg]
        if len(set(cards)) == 5:
            assert evaluate(cards) is evaluate([c.text for c in cards])
        else:
            with pytest.raises(CardError, match="twice"):
                evaluate(cards)

    check()
