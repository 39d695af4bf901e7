"""`syndicate replay` says what happened in words: a card taken back with who and which card, an
outcome as a person says it ("insurance lost", not "insurance_lose"), tens as "10♠", never "T";
and a history the card room served names each hand by its evening-wide number."""

from __future__ import annotations

from syndicate.blackjack import Round, history, shuffled
from syndicate.blackjack.rules import Rules
from syndicate.core.cards import parse
from syndicate.core.play import take_back
from syndicate.core.shoe import EnteredShoe, Shoe
from syndicate.poker import history as poker_history


def test_a_card_taken_back_says_whose_and_which() -> None:
    rd = Round(Rules(decks=1), EnteredShoe(1), {1: 10_000})
    rd.bet(1, 100)
    rd.deal()
    rd.deal_card("Ks")  # meant for seat 1, entered wrongly: taken back
    rd, _ = take_back(rd)
    steps = [history.describe(r) for r in rd.log]
    assert "card taken back (K♠): seat 1 hand 1's card, a correction" in steps


def test_insurance_lost_and_tens_in_words() -> None:
    # Seat 1: Ts 9c (19) against the dealer's Ah up, 7d in the hole: insurance is lost.
    shoe = Shoe.stacked(parse("Ts Ah 9c 7d 2c 3c 4c 5c 6c", distinct=False), decks=1)
    rd = shuffled(Rules(decks=1), shoe, {1: 10_000})
    rd.bet(1, 1_000)
    rd.deal()
    rd.insurance(1)
    while not rd.is_terminal:
        rd.stand(rd.to_act)
    steps = [history.describe(r) for r in rd.log]
    text = "\n".join(steps)
    assert "seat 1 hand 1 gets 10♠" in steps and "T♠" not in text and "Ts" not in text
    assert "seat 1: insurance lost, $0.00 back (net -$5.00)" in steps
    assert "insurance_lose" not in text and "insurance lose" not in text


def test_a_served_history_names_the_hand_by_its_evening_wide_number() -> None:
    shoe = Shoe.stacked(parse("Ts 9h 9c 7d 2c 3c 4c 5c 6c", distinct=False), decks=1)
    rd = shuffled(Rules(decks=1), shoe, {1: 10_000})
    rd.bet(1, 100)
    rd.deal()
    rd.stand(1)
    from syndicate.blackjack import records as rec

    log = [rec.to_json(r) for r in rd.log]
    assert history.steps_of({"rounds": [{"number": 3, "hand_id": 17, "log": log}]})[0] == "— hand 17 —"
    assert history.steps_of({"rounds": [{"number": 3, "log": log}]})[0] == "— round 3 —"


def test_draw_cards_in_words() -> None:
    assert poker_history.describe({"type": "deal", "seat": 2, "cards": ["Ts", "Kh", "??", "2c", "Ad"]}) == \
        "Seat 2 is dealt 10♠ K♥ ?? 2♣ A♦"
    assert poker_history.describe({"type": "take_back", "seat": 3, "card": "Td"}) == \
        "Card taken back (10♦): Seat 3's, a correction"
    assert poker_history.describe({"type": "show", "seat": 1, "cards": ["Th", "Jh", "Qh", "Kh", "Ah"],
                                   "name": "a royal flush"}) == "Seat 1 shows 10♥ J♥ Q♥ K♥ A♥: a royal flush"
    entry = {"number": 2, "hand_id": 31, "button": 1, "log": []}
    assert poker_history.hand_name(entry) == "hand 31"


def test_a_hands_name_writes_a_ten_as_10() -> None:
    from syndicate.poker.evaluator import evaluate, spoken

    assert evaluate("Kh Tc 9d 8s 7c").name == "High Card, King (T 9 8 7)"  # the engine's record keeps it
    assert spoken(evaluate("Kh Tc 9d 8s 7c").name) == "High Card, King (10 9 8 7)"
    assert spoken(evaluate("As Td 7h 7c 2s").name) == "One Pair, Sevens (A 10 2 kickers)"
    assert spoken(evaluate("Th Td 4h 4s 9c").name) == "Two Pair, Tens and Fours, Nine kicker"  # "Tens" is a word
    assert spoken(evaluate("Ah Th 7h 3h 2h").name) == "Flush, Ace high (A 10 7 3 2)"
    assert poker_history.describe({"type": "show", "seat": 2, "cards": ["Kh", "Tc", "9d", "8s", "7c"],
                                   "name": "High Card, King (T 9 8 7)"}) == \
        "Seat 2 shows K♥ 10♣ 9♦ 8♠ 7♣: High Card, King (10 9 8 7)"
