"""Explicit chance: the same cards entered one by one by a dealer, or dealt from a stacked
shoe, make the same round (issue 15: "Each compares the exact chip results with the same cards
dealt from a stacked shoe at an ordinary table")."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from syndicate.blackjack import history
from syndicate.blackjack.course import DEALING, PLAYING, SETTLED
from syndicate.blackjack.real_cards import shuffle_discards
from syndicate.blackjack.round import Round, shuffled
from syndicate.blackjack.rules import HOLE_CARD, SURRENDER, Rules
from syndicate.blackjack.session import Session
from syndicate.blackjack.views import log_view, view
from syndicate.core.cards import SUITLESS, card, decks
from syndicate.core.errors import IllegalAction, OutOfTurn
from syndicate.core.play import take_back
from syndicate.core.shoe import CardNeed, EnteredShoe, Shoe
from syndicate.room import histories

from .stack import strings

Script = list[tuple[int, str]]


def order_of(players: list[str], dealer: str, draws: str = "") -> list[str]:
    """The order a shoe deals ``players`` and ``dealer`` (as in stack.stacked_round), then ``draws``."""
    hands = [p.split() for p in players]
    d = dealer.split()
    return [h[0] for h in hands] + [d[0]] + [h[1] for h in hands] + [d[1]] + draws.split()


def feed(rd: Round, cards: Iterator[str]) -> None:
    """Enter cards while the round asks for them."""
    while rd.card_needed is not None:
        rd.deal_card(next(cards))


def play(rd: Round, cards: list[str], script: Script, bets: dict[int, int]) -> Round:
    """Bet, deal, then make the scripted decisions; with entered cards, enter each as asked."""
    for s, amount in bets.items():
        rd.bet(s, amount)
    rd.deal()
    it = iter(cards)
    feed(rd, it)
    for seat, action in script:
        getattr(rd, action)(seat)
        feed(rd, it)
    assert rd.is_terminal, rd
    return rd


def without_chance(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in log if r["type"] != "take_back"]


def view_without_shoe(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in ("shoe", "card_needed")}


def assert_same(stacked: Round, entered: Round) -> None:
    assert entered.results() == stacked.results()
    assert without_chance(log_view(entered, "dealer")) == log_view(stacked, "dealer")
    for viewer in [*stacked.seats, "spectator", "dealer"]:
        assert view_without_shoe(view(entered, viewer)) == view_without_shoe(view(stacked, viewer))
        assert without_chance(log_view(entered, viewer)) == log_view(stacked, viewer)


def both_ways(rules: Rules, cards: list[str], script: Script, bets: dict[int, int],
              stacks: dict[int, int] | None = None) -> tuple[Round, Round]:
    stacks = stacks or {s: 100_000 for s in bets}
    stacked = play(shuffled(rules, Shoe.stacked(cards, decks=rules.decks), stacks), cards, script, bets)
    entered = play(Round(rules, EnteredShoe(rules.decks), stacks), cards, script, bets)
    assert_same(stacked, entered)
    return stacked, entered


class TestSameCardsSameRound:
    def test_split_then_double_after_split(self):
        rules = Rules(decks=6)
        cards = order_of(["8s 8d", "Tc 9c"], "6h Th", "3c Kd 2d 9h Ks")
        stacked, _ = both_ways(rules, cards, [(1, "split"), (1, "double"), (1, "hit"), (1, "stand"),
                                              (2, "stand")], {1: 1000, 2: 500})
        assert stacked.results() == {1: 3000, 2: 500}  # 21 doubled and 19 against a busted 26; 19 wins

    def test_split_aces_one_card_each(self):
        rules = Rules(decks=6)
        cards = order_of(["As Ad"], "9h 8c", "Kd 5s")
        stacked, entered = both_ways(rules, cards, [(1, "split")], {1: 1000})
        assert [h.total for h in entered.seats[1].hands] == [21, 16]
        assert stacked.results() == {1: 0}  # 21 wins, 16 loses to 17

    def test_insurance_and_peek_dealer_blackjack(self):
        rules = Rules(decks=6)
        cards = order_of(["Ts 9s", "As Kh"], "Ac Kd")
        stacked, _ = both_ways(rules, cards, [(1, "insurance"), (2, "no_insurance")], {1: 1000, 2: 1000})
        assert stacked.results() == {1: 0, 2: 0}  # insurance pays 2:1 on half; a natural pushes

    def test_insurance_declined_no_dealer_blackjack_even_money(self):
        rules = Rules(decks=6)
        cards = order_of(["Ts 6s", "As Kh"], "Ac 7d", "5c")
        stacked, _ = both_ways(rules, cards, [(1, "no_insurance"), (2, "even_money"), (1, "hit")],
                               {1: 1000, 2: 1000})
        assert stacked.results() == {1: 1000, 2: 1000}

    def test_late_surrender_and_dealer_draws(self):
        rules = Rules(decks=6, surrender="late")
        cards = order_of(["Ts 6s", "9d 9c"], "5c 6d", "2c 3h 4s")
        stacked, _ = both_ways(rules, cards, [(1, "surrender"), (2, "stand")], {1: 1000, 2: 1000})
        assert stacked.results() == {1: -500, 2: -1000}  # dealer 5 6 2 3 4 = 20

    def test_early_surrender_against_a_ten(self):
        rules = Rules(decks=6, surrender="early", hole_card="no_peek_obo")
        cards = order_of(["Ts 6s"], "Kc Ad")
        stacked, _ = both_ways(rules, cards, [(1, "surrender")], {1: 1000})
        assert stacked.results() == {1: -500}

    def test_bust_then_dealer_stands(self):
        rules = Rules(decks=2)
        cards = order_of(["Ts 6s", "9d 2c"], "Tc 7d", "Kh 9s")
        stacked, _ = both_ways(rules, cards, [(1, "hit"), (2, "double")], {1: 1000, 2: 1000})
        assert stacked.results() == {1: -1000, 2: 2000}

    def test_suitless_cards_play_like_suited_ones(self):
        rules = Rules(decks=6)
        suited = order_of(["8s 8d"], "6h Th", "3c Kd 9h")
        ranks = [c[0] for c in suited]
        entered = play(Round(rules, EnteredShoe(6), {1: 100_000}), ranks,
                       [(1, "split"), (1, "stand"), (1, "stand")], {1: 1000})
        stacked = play(shuffled(rules, Shoe.stacked(suited, decks=6), {1: 100_000}), suited,
                       [(1, "split"), (1, "stand"), (1, "stand")], {1: 1000})
        assert entered.results() == stacked.results()
        assert [c.text for c in entered.seats[1].hands[0].cards] == ["8", "3"]
        assert view(entered, 1)["dealer"]["cards"] == ["6", "T", "9"]


class TestChanceNodes:
    def test_the_deal_asks_for_each_card_in_order(self):
        rd = Round(Rules(), EnteredShoe(6), {1: 10_000, 3: 10_000})
        rd.bet(1, 100)
        rd.bet(3, 100)
        rd.deal()
        asked = []
        for c in ["2c", "3c", "4c", "5c", "6c", "Tc"]:
            need = rd.card_needed
            assert need is not None and rd.to_act is None and rd.phase == DEALING
            assert rd.legal_actions() == [] and rd.legal_actions(1) == []
            asked.append((need, need.describe()))
            rd.deal_card(c)
        assert asked == [
            (CardNeed(1, 0, 0, True, "deal"), "seat 1's first card"),
            (CardNeed(3, 0, 0, True, "deal"), "seat 3's first card"),
            (CardNeed(-1, 0, 0, True, "deal"), "the dealer's up card"),
            (CardNeed(1, 0, 1, True, "deal"), "seat 1's second card"),
            (CardNeed(3, 0, 1, True, "deal"), "seat 3's second card"),
            (CardNeed(-1, 0, 1, False, "hole"), "the dealer's hole card (face down)"),
        ]
        assert rd.card_needed is None and rd.phase == PLAYING and rd.to_act == 1

    def test_a_shuffled_shoe_never_stops_at_a_chance_node(self):
        rd = shuffled(Rules(), Shoe.from_seed(bytes(32)), {1: 10_000})
        rd.bet(1, 100)
        rd.deal()
        assert rd.card_needed is None and not rd.entered
        assert view(rd, 1)["card_needed"] is None
        with pytest.raises(IllegalAction) as e:
            rd.deal_card("As")
        assert e.value.rule == "card_source"
        with pytest.raises(IllegalAction) as e:
            take_back(rd)
        assert e.value.rule == "take_back"

    def test_hit_double_split_and_dealer_say_why(self):
        rd = Round(Rules(decks=6), EnteredShoe(6), {1: 10_000})
        rd.bet(1, 100)
        rd.deal()
        feed(rd, iter(["8s", "6h", "8d", "Th"]))
        rd.split(1)
        assert rd.card_needed == CardNeed(1, 0, 1, True, "split")
        rd.deal_card("3c")
        rd.double(1)
        assert rd.card_needed == CardNeed(1, 0, 2, True, "double")
        rd.deal_card("Kd")
        assert rd.card_needed == CardNeed(1, 1, 1, True, "split")
        assert rd.card_needed.describe() == "seat 1's second card on hand 2 (after a split)"
        rd.deal_card("2c")
        rd.hit(1)
        assert rd.card_needed == CardNeed(1, 1, 2, True, "hit")
        rd.deal_card("2d")
        rd.stand(1)
        assert rd.card_needed == CardNeed(-1, 0, 2, True, "dealer")
        assert view(rd, "spectator")["card_needed"] == {"seat": -1, "hand": 0, "slot": 2, "face_up": True,
                                                        "why": "dealer"}
        rd.deal_card("2h")  # 6 + 10 + 2: the dealer stands on 18
        assert rd.card_needed is None and rd.phase == SETTLED


def fresh_dealt(decks: int = 5, seats: int = 3) -> Round:
    rd = Round(Rules(decks=decks), EnteredShoe(decks), {s: 10_000 for s in range(1, seats + 1)})
    for s in range(1, seats + 1):
        rd.bet(s, 100)
    rd.deal()
    return rd


def snapshot(rd: Round) -> Any:
    return (json.dumps(log_view(rd, "dealer")), json.dumps([view(rd, v) for v in [*rd.seats, "dealer"]]),
            rd.card_needed, rd.shoe.state())  # type: ignore[union-attr]


class TestRefusals:
    def test_a_sixth_ace_of_spades_in_a_five_deck_shoe(self):
        rd = fresh_dealt(5)
        for _ in range(5):
            rd.deal_card("As")
        before = snapshot(rd)
        with pytest.raises(IllegalAction) as e:
            rd.deal_card("A♠")
        assert e.value.rule == "shoe_count" and "A♠" in str(e.value) and "5-deck" in str(e.value)
        assert not rd.can_deal_card("As") and rd.can_deal_card("Ah") and rd.can_deal_card("A")
        assert snapshot(rd) == before

    def test_the_count_runs_over_the_whole_shoe(self):
        shoe = EnteredShoe(1)
        first = Round(Rules(decks=1), shoe, {1: 10_000})
        first.bet(1, 100)
        first.deal()
        feed(first, iter(["Ks", "5d", "Qh", "4c"]))  # 20 against 5 4
        first.stand(1)
        feed(first, iter(["8d"]))  # the dealer stands on 17
        assert first.is_terminal
        second = Round(Rules(decks=1), shoe, {1: 10_000})
        second.bet(1, 100)
        second.deal()
        with pytest.raises(IllegalAction, match="K♠ has already been dealt"):
            second.deal_card("Ks")

    def test_suitless_ranks_count_against_every_suit(self):
        rd = fresh_dealt(1, seats=2)
        rd.deal_card("A")
        rd.deal_card("As")
        rd.deal_card("Ad")
        rd.deal_card("A")
        for text in ("A", "Ah", "ac"):  # four aces are out: one deck has no fifth
            with pytest.raises(IllegalAction) as e:
                rd.deal_card(text)
            assert e.value.rule == "shoe_count" and "A" in str(e.value)

    @pytest.mark.parametrize("bad", ["Zz", "1s", "", "A♠♠", 7, None, card("As").index])
    def test_not_a_card(self, bad):
        rd = fresh_dealt()
        before = snapshot(rd)
        with pytest.raises(IllegalAction) as e:
            rd.deal_card(bad)
        assert e.value.rule == "card"
        assert snapshot(rd) == before

    def test_a_card_when_a_decision_is_due(self):
        rd = fresh_dealt(seats=1)
        feed(rd, iter(["9s", "6h", "7d", "Th"]))
        before = snapshot(rd)
        with pytest.raises(OutOfTurn) as e:
            rd.deal_card("5h")
        assert e.value.rule == "card_not_needed" and "seat 1's turn" in str(e.value)
        assert snapshot(rd) == before

    def test_a_decision_when_a_card_is_due(self):
        rd = fresh_dealt(seats=1)
        feed(rd, iter(["9s", "6h", "7d", "Th"]))
        rd.hit(1)
        before = snapshot(rd)
        for action in ("hit", "stand", "double", "leave"):
            with pytest.raises(OutOfTurn) as e:
                getattr(rd, action)(1)
            assert e.value.rule == "card_needed" and "seat 1's third card (a hit)" in str(e.value)
        assert snapshot(rd) == before

    def test_no_bet_or_decision_during_the_deal(self):
        rd = fresh_dealt(seats=2)
        rd.deal_card("9s")
        with pytest.raises(OutOfTurn):
            rd.bet(1, 200)
        with pytest.raises(OutOfTurn):
            rd.stand(1)

    def test_take_back_after_an_action_is_refused(self):
        rd = fresh_dealt(seats=1)
        feed(rd, iter(["9s", "6h", "7d", "Th"]))
        rd.hit(1)
        rd.deal_card("2c")
        rd.hit(1)
        before = snapshot(rd)
        with pytest.raises(IllegalAction) as e:
            take_back(rd)
        assert e.value.rule == "take_back" and "'hit' came after it" in str(e.value)
        assert snapshot(rd) == before

    def test_a_card_when_the_round_is_over(self):
        rd = fresh_dealt(seats=1)
        feed(rd, iter(["9s", "6h", "7d", "Th"]))
        rd.stand(1)
        feed(rd, iter(["Ks"]))
        assert rd.is_terminal
        with pytest.raises(OutOfTurn, match="the round is over"):
            rd.deal_card("2c")


class TestTakeBack:
    def test_take_back_restores_the_round_exactly(self):
        rd = fresh_dealt(seats=2)
        for c in ["9s", "8s", "6h", "7d"]:
            rd.deal_card(c)
        before = snapshot(rd)
        log_before = log_view(rd, "dealer")
        rd.deal_card("2c")
        assert rd.can_take_back()
        rd, taken = take_back(rd)
        assert (taken.seat, taken.hand, taken.card.text, taken.face_up) == (2, 0, "2c", True)
        assert log_view(rd, "dealer") == [*log_before, {"type": "take_back", "seat": 2, "hand": 0,
                                                       "card": "2c", "face_up": True}]
        assert snapshot(rd)[2:] == before[2:]  # the same card is needed, the shoe counts as before
        rd.deal_card("3c")
        assert [c.text for c in rd.seats[2].hands[0].cards] == ["8s", "3c"]

    def test_taking_back_the_card_that_settled_the_round(self):
        rd = fresh_dealt(seats=1)
        feed(rd, iter(["Ts", "6h", "9d", "Th"]))
        rd.stand(1)
        rd.deal_card("Kc")  # the dealer busts: the player is paid
        assert rd.is_terminal and rd.results() == {1: 100}
        rd, _ = take_back(rd)
        assert not rd.is_terminal and rd.results() == {1: -100}  # the bet is on the table again
        assert rd.card_needed == CardNeed(-1, 0, 2, True, "dealer")
        rd.deal_card("2c")  # 18 against the player's 19
        assert rd.is_terminal and rd.results() == {1: 100}
        assert [r.type for r in rd.log].count("payout") == 1

    def test_chained_take_backs_back_to_the_deal(self):
        rd = fresh_dealt(seats=1)
        rd.deal_card("Ts")
        rd.deal_card("6h")
        rd, _ = take_back(rd)
        rd, _ = take_back(rd)
        assert rd.card_needed == CardNeed(1, 0, 0, True, "deal")
        with pytest.raises(IllegalAction, match="no card has been entered"):
            take_back(rd)
        assert rd.shoe.position == 0  # type: ignore[union-attr]

    def test_a_natural_paid_at_the_peek_is_taken_back_with_its_card(self):
        rd = Round(Rules(decks=6), EnteredShoe(6), {1: 10_000, 2: 10_000})
        rd.bet(1, 1000)
        rd.bet(2, 1000)
        rd.deal()
        for c in ["As", "9c", "Td", "Kh", "8c"]:
            rd.deal_card(c)
        rd.deal_card("6d")  # the hole card: no blackjack for the dealer; seat 1's natural is paid
        assert rd.seats[1].stack == 10_000 + 1500
        rd, _ = take_back(rd)
        assert rd.seats[1].stack == 9_000 and rd.phase == DEALING
        assert not any(r.type == "payout" for r in rd.log)


class TestHoleCard:
    def test_the_hole_card_shows_in_no_view_until_revealed(self):
        rules = Rules(decks=1)
        rd = Round(rules, EnteredShoe(1), {1: 10_000, 2: 10_000})
        rd.bet(1, 100)
        rd.bet(2, 100)
        rd.deal()
        for c in ["9s", "8s", "6h", "7d", "7c"]:
            rd.deal_card(c)
        rd.deal_card("Js")  # the wrong hole card: taken back, face down
        rd, _ = take_back(rd)
        rd.deal_card("Qs")
        viewers = [1, 2, "spectator", "dealer"]
        while not rd.hole_revealed:
            for v in viewers:
                seen = strings([view(rd, v), log_view(rd, v)])
                assert "Qs" not in seen and "Js" not in seen, v
            steps = history.steps_of({"rounds": [{"number": 1, "log": log_view(rd, 1)}]})
            assert not any("Q♠" in s or "J♠" in s for s in steps)
            rd.stand(rd.to_act)
            if rd.card_needed is not None:
                rd.deal_card("2d")
        assert "Qs" in strings(view(rd, 1)) and "Qs" in strings(log_view(rd, 1))

    def test_the_peek_works_on_the_entered_hole_card(self):
        rd = Round(Rules(decks=6, hole_card="peek"), EnteredShoe(6), {1: 10_000})
        rd.bet(1, 1000)
        rd.deal()
        for c in ["9s", "Ah", "9c"]:
            rd.deal_card(c)
        assert rd.phase == DEALING
        rd.deal_card("K")  # the hole card: blackjack
        assert rd.phase == "insurance"
        rd.no_insurance(1)
        assert rd.is_terminal and rd.hole_revealed and rd.results() == {1: -1000}


def session_history(take_backs: bool) -> dict[str, Any]:
    rules = Rules(decks=2)
    sess = Session(rules, {1: 10_000, 2: 10_000}, new_shoe=lambda r: EnteredShoe(r.decks))
    rng = random.Random(7)
    deck = [c.text for c in decks(2)]
    rng.shuffle(deck)
    it = iter(deck)
    for _ in range(4):
        rd = sess.new_round()
        rd.bet(1, 500)
        rd.bet(2, 300)
        rd.deal()
        while not rd.is_terminal:
            if rd.card_needed is not None:
                if take_backs and rng.random() < 0.3:
                    wrong = next(c for c in SUITLESS if rd.can_deal_card(c))
                    rd.deal_card(wrong)
                    rd = sess.take_back()
                rd.deal_card(next(it))
            else:
                getattr(rd, rng.choice(rd.legal_actions()))(rd.to_act)
        sess.finish_round()
    return json.loads(json.dumps(sess.history()))


class TestHistory:
    @pytest.mark.parametrize("take_backs", [False, True])
    def test_entered_rounds_replay_exactly(self, take_backs):
        doc = session_history(take_backs)
        assert doc["shoes"] == [{"decks": 2, "penetration": None, "burn": 0, "commitment": None, "seed": None,
                                 "order": None, "entered": True}]
        assert take_backs == any(r["type"] == "take_back" for rnd in doc["rounds"] for r in rnd["log"])
        out = history.replay(doc)
        assert out.matches, out.problems
        assert out.rounds == 4

    def test_a_tampered_entered_history_does_not_replay(self):
        doc = session_history(False)
        first = next(r for r in doc["rounds"][0]["log"] if r["type"] == "card")
        first["card"] = "2s" if first["card"] != "2s" else "3s"
        assert not history.replay(doc).matches

    def test_verify_says_there_is_no_shuffle_to_verify(self):
        result = history.verify(session_history(True))
        assert result.ok and result.entered == 1 and result.cards_checked == 0 and result.pending == 0
        assert "no shuffle to verify" in result.messages[0]

    def test_the_served_copy_hides_a_hole_card_not_yet_turned(self):
        rd = Round(Rules(decks=1), EnteredShoe(1), {1: 10_000})
        rd.bet(1, 100)
        rd.deal()
        for c in ["Ts", "9h", "Kd"]:
            rd.deal_card(c)
        rd.deal_card("Qs")
        rd, _ = take_back(rd)
        rd.deal_card("Qh")
        assert rd.to_act == 1 and not rd.hole_revealed  # a round served while in play
        from syndicate.blackjack.session import round_json, shoe_json

        doc = {"format": "syndicate-history", "version": 1, "game": "blackjack", "rules": Rules(decks=1).to_dict(),
               "shoes": [shoe_json(rd.shoe)], "rounds": [round_json(1, 0, {1: 10_000}, rd)]}
        served = histories.for_viewer(doc, None, house=False, seats={})
        assert "Qs" not in strings(served) and "Qh" not in strings(served)
        assert "Qh" in strings(histories.for_viewer(doc, None, house=True, seats={}))


# -- random rounds both ways ----------------------------------------------------------------
rules_strategy = st.builds(
    Rules,
    decks=st.integers(1, 8),
    dealer_hits_soft_17=st.booleans(),
    double_after_split=st.booleans(),
    max_split_hands=st.integers(2, 4),
    resplit_aces=st.booleans(),
    hit_split_aces=st.booleans(),
    surrender=st.sampled_from(SURRENDER),
    hole_card=st.sampled_from(HOLE_CARD),
    pay_naturals_immediately=st.booleans(),
    double_for_less=st.booleans(),
)


def random_decisions(seed: int) -> Callable[[Round], None]:
    rng = random.Random(seed)

    def decide(rd: Round) -> None:
        seat = rd.to_act
        assert seat is not None
        action = rng.choice(rd.legal_actions())
        getattr(rd, action)(seat)

    return decide


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_strategy, seats=st.integers(1, 5), seed=st.integers(0, 2**32 - 1),
       take_back_rate=st.sampled_from([0.0, 0.3]))
def test_random_rounds_entered_or_stacked_are_the_same(rules, seats, seed, take_back_rate):
    """Random rules, seats, shoes and decisions; the entered round sometimes gets a wrong card
    first, taken back at once."""
    rng = random.Random(seed)
    order = [c.text for c in decks(rules.decks)]
    rng.shuffle(order)
    stacks = {s: 20_000 for s in range(1, seats + 1)}
    bets = {s: rng.choice([100, 250, 1000]) for s in stacks}

    stacked = shuffled(rules, Shoe.stacked(order, decks=rules.decks), stacks)
    entered = Round(rules, EnteredShoe(rules.decks), stacks)
    for rd in (stacked, entered):
        for s, b in bets.items():
            rd.bet(s, b)
        rd.deal()
    decide_a, decide_b = random_decisions(seed), random_decisions(seed)
    it = iter(order)
    while not stacked.is_terminal:
        while entered.card_needed is not None:
            c = next(it)
            if take_back_rate and rng.random() < take_back_rate:
                wrong = next((x for x in ("2c", "7h", "K", "A") if entered.can_deal_card(x)), None)
                if wrong is not None:
                    entered.deal_card(wrong)
                    entered, _ = take_back(entered)
            entered.deal_card(c)
        assert entered.to_act == stacked.to_act and entered.phase == stacked.phase
        decide_a(stacked)
        decide_b(entered)
    while entered.card_needed is not None:
        entered.deal_card(next(it))
    assert entered.is_terminal
    assert_same(stacked, entered)
    shoe = entered.shoe
    assert isinstance(shoe, EnteredShoe)
    assert shoe.position == sum(r.type == "card" for r in entered.log) == stacked.shoe.position


def test_syndicate_verify_and_replay_an_entered_history(tmp_path):
    """The command line: replay matches; verify says there is nothing to verify, exit code 0."""
    from typer.testing import CliRunner

    from syndicate.apps.cli import app

    path = tmp_path / "real-cards.json"
    path.write_text(json.dumps(session_history(True)))
    runner = CliRunner()
    rep = runner.invoke(app, ["replay", str(path), "--json"])
    assert rep.exit_code == 0 and json.loads(rep.stdout)["matches"] is True
    ver = runner.invoke(app, ["verify", str(path)])
    assert ver.exit_code == 0, ver.stdout
    said = " ".join(ver.stdout.split())  # the console wraps long lines
    assert "nothing to verify" in said and "there is no shuffle to verify" in said
    assert "verified" not in said


def test_the_discards_shuffled_back_in_mid_round():
    """A one-deck shoe runs out during a round: every card is refused ("the shoe is empty"),
    until the dealer shuffles the discards back in. The cards of the round in play stay counted
    as out, the rest come back; the round's log records it, and the history replays exactly
    (the rounds of one shoe share its count, shuffle included)."""
    rules = Rules(decks=1)
    sess = Session(rules, {1: 100_000}, new_shoe=lambda r: EnteredShoe(r.decks))
    deck = [c.text for c in decks(1)]
    random.Random(3).shuffle(deck)
    it = iter(deck)
    reshuffled = None
    while reshuffled is None:
        rd = sess.new_round()
        rd.bet(1, 500)
        rd.deal()
        while not rd.is_terminal:
            if rd.card_needed is None:
                rd.stand(1) if "stand" in rd.legal_actions() else getattr(rd, rd.legal_actions()[-1])(1)
                continue
            c = next(it, None)
            if c is not None:
                rd.deal_card(c)
                continue
            on_table = [r.card for r in rd.log if r.type == "card"]
            assert rd.shoe.remaining == 0
            with pytest.raises(IllegalAction) as e:
                rd.deal_card("2")
            assert e.value.rule == "shoe_count" and e.value.message.startswith("the shoe is empty")
            reshuffled = shuffle_discards(rd, rd.shoe)
            assert (reshuffled.returned, reshuffled.on_table) == (52 - len(on_table), len(on_table))
            assert rd.shoe.remaining == 52 - len(on_table)
            with pytest.raises(IllegalAction) as e:
                take_back(rd)  # the shuffle came after the last card
            assert e.value.rule == "take_back"
            back = next(x.text for x in decks(1) if x not in on_table)
            rd.deal_card(back)
            it = iter([x.text for x in decks(1) if x not in on_table and x.text != back])
        sess.finish_round()
    doc = json.loads(json.dumps(sess.history()))
    assert any(r["type"] == "shuffle" for rnd in doc["rounds"] for r in rnd["log"])
    out = history.replay(doc)
    assert out.matches, out.problems
    assert any("shuffles the discards back into the shoe" in s for s in out.steps)
    with pytest.raises(IllegalAction) as e:
        shuffle_discards(rd, rd.shoe)  # the round is over: between rounds a new shoe starts the count again
    assert e.value.rule == "shuffle_discards"
