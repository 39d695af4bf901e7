"""Explicit chance at five-card draw: the same cards entered one by one by the dealer, or dealt
from a stacked deck, make the same hand; refusals name the card and change nothing."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from syndicate.core.cards import DECK
from syndicate.core.errors import IllegalAction, OutOfTurn
from syndicate.core.play import take_back
from syndicate.core.shoe import CardNeed, EnteredShoe, Shoe
from syndicate.poker.dealing import ShuffledDeck, deal_hand
from syndicate.poker.draw import DrawHand
from syndicate.poker.history import replay, to_history, to_phh, verify
from syndicate.poker.rules import DrawRules
from syndicate.poker.state import DEALING, DRAW, FIRST_BETTING, SETTLED
from syndicate.poker.table import DrawTable
from syndicate.poker.views import log_view, view
from syndicate.room import histories

from .conftest import deck_order
from .test_properties import card_tokens, random_action

ENTERED_ONLY = ("card", "take_back", "discard")


def enter_from(stacked: DrawHand, entered: DrawHand) -> None:
    """Enter the cards the stacked deck dealt, in the order it dealt them (its re-stub included)."""
    while entered.card_needed is not None:
        assert entered.entered and isinstance(stacked.dealer, ShuffledDeck)
        entered.deal_card(stacked.dealer.shoe.order[_entered_count(entered)])


def _entered_count(hand: DrawHand) -> int:
    n = 0
    for r in hand.log:
        if r.type == "card":
            n += 1
    return n


def comparable_log(hand: DrawHand, viewer: int | str) -> list[dict[str, Any]]:
    out = []
    for d in log_view(hand, viewer):
        if d["type"] in ENTERED_ONLY:
            continue
        if d["type"] == "restub":
            d = {**d, "shuffled": None}  # by hand at a real table; a stacked deck's stub is unshuffled
        out.append(d)
    return out


def comparable_view(hand: DrawHand, viewer: int | str) -> dict[str, Any]:
    return {k: v for k, v in view(hand, viewer).items() if k not in ("version", "commitment", "entered", "card_needed")}


def assert_same(stacked: DrawHand, entered: DrawHand) -> None:
    assert entered.results() == stacked.results()
    assert entered.carry_out == stacked.carry_out
    for viewer in [*stacked.order, "spectator", "dealer"]:
        assert comparable_log(entered, viewer) == comparable_log(stacked, viewer)
        assert comparable_view(entered, viewer) == comparable_view(stacked, viewer)


def both(hands: dict[int, str], draws: str = "", *, button: int | None = None,
         stacks: dict[int, int] | None = None, rules: DrawRules | None = None) -> tuple[DrawHand, DrawHand]:
    button = min(hands) if button is None else button
    stacks = stacks or {s: 10_000 for s in hands}
    rules = rules or DrawRules()
    stacked = deal_hand(rules, stacks, button, Shoe.stacked(" ".join(deck_order(hands, button, draws))))
    entered = deal_hand(rules, stacks, button, EnteredShoe(1))
    enter_from(stacked, entered)
    return stacked, entered


def act_both(stacked: DrawHand, entered: DrawHand, action: str, *args: Any) -> None:
    getattr(stacked, action)(*args)
    getattr(entered, action)(*args)
    enter_from(stacked, entered)


class TestSameCardsSameHand:
    def test_a_scripted_hand_with_a_four_card_draw_and_a_fold(self):
        stacked, entered = both({1: "As 7d 8c 2h 3s", 2: "Kh Kd 5c 9s 4d", 3: "Qc Jc 2c 6h 6d"},
                                "4h 2s 3h Ad Ac Ah Kc")
        assert entered.phase == FIRST_BETTING and entered.to_act == 2
        act_both(stacked, entered, "bet", 2, 100)
        act_both(stacked, entered, "call", 3)
        act_both(stacked, entered, "raise_", 1, 100)
        act_both(stacked, entered, "fold", 2)
        act_both(stacked, entered, "call", 3)
        assert entered.phase == DRAW
        act_both(stacked, entered, "draw", 3, ["Qc", "Jc", "2c"])
        act_both(stacked, entered, "draw", 1, ["7d", "8c", "2h", "3s"])  # keeps the Ace, shown
        act_both(stacked, entered, "check", 3)
        act_both(stacked, entered, "bet", 1, 500)
        act_both(stacked, entered, "call", 3)
        assert entered.is_terminal
        assert_same(stacked, entered)
        assert [c.text for c in entered.cards[1]] == ["As", "Ad", "Ac", "Ah", "Kc"]
        assert entered.results()[1] > 0

    def test_all_in_and_side_pots(self):
        stacked, entered = both({1: "As Ad 7c 7d 2h", 2: "Kh Kd 5c 9s 4d", 3: "Qc Jc Tc 9c 8c"},
                                stacks={1: 300, 2: 1000, 3: 2000})
        act_both(stacked, entered, "bet", 2, 500)
        act_both(stacked, entered, "call", 3)
        act_both(stacked, entered, "call", 1)  # all-in for less
        for seat in (2, 3, 1):  # all-in, seat 1 still draws
            act_both(stacked, entered, "stand_pat", seat)
        act_both(stacked, entered, "check", 2)
        act_both(stacked, entered, "check", 3)
        assert entered.is_terminal and len(entered.pots) == 2
        assert_same(stacked, entered)


class TestChanceNodes:
    def test_the_deal_asks_one_card_at_a_time_round_the_table(self):
        hand = deal_hand(DrawRules(), {1: 1000, 4: 1000, 6: 1000}, 4, EnteredShoe(1))
        asked = []
        for c in DECK[:15]:
            need = hand.card_needed
            assert need is not None and hand.phase == DEALING and hand.to_act is None
            assert hand.legal_actions() == [] and view(hand, 6)["legal_actions"] == []
            asked.append(need)
            hand.deal_card(c)
        assert asked[:4] == [CardNeed(6, 0, 0, False, "deal"), CardNeed(1, 0, 0, False, "deal"),
                             CardNeed(4, 0, 0, False, "deal"), CardNeed(6, 0, 1, False, "deal")]
        assert asked[-1] == CardNeed(4, 0, 4, False, "deal")
        assert hand.card_needed is None and hand.phase == FIRST_BETTING and hand.to_act == 6

    def test_the_draw_waits_for_its_cards(self):
        hand = deal_hand(DrawRules(), {1: 1000, 2: 1000}, 1, EnteredShoe(1))
        for c in "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc".split():
            hand.deal_card(c)
        hand.check(2)
        hand.check(1)
        d = hand.draw(2, ["2c", "4c"])
        assert d.type == "discard" and hand.to_act is None
        assert hand.card_needed == CardNeed(2, 0, 3, False, "draw")
        assert hand.card_needed.describe() == "seat 2's fourth card (the draw)"
        with pytest.raises(OutOfTurn) as e:
            hand.stand_pat(1)
        assert e.value.rule == "card_needed"
        hand.deal_card("Ah")
        hand.deal_card("Ad")
        assert hand.log[-1].type == "draw" and hand.to_act == 1
        assert [c.text for c in hand.cards[2]] == ["6c", "8c", "Tc", "Ah", "Ad"]
        hand.draw(1, ["3c"])
        with pytest.raises(IllegalAction, match="2♣ has already been dealt"):  # a discard is not back in the deck
            hand.deal_card("2c")

    def test_a_shuffled_deck_deals_at_once(self):
        hand = deal_hand(DrawRules(), {1: 1000, 2: 1000}, 1, Shoe.from_seed(bytes(32), 1, 1.0, 0))
        assert hand.card_needed is None and not hand.entered and view(hand, 1)["card_needed"] is None
        with pytest.raises(IllegalAction) as e:
            hand.deal_card("As")
        assert e.value.rule == "card_source"


def fresh() -> DrawHand:
    return deal_hand(DrawRules(), {1: 1000, 2: 1000, 3: 1000}, 1, EnteredShoe(1))


def snapshot(hand: DrawHand) -> Any:
    return (json.dumps(log_view(hand, "dealer")), json.dumps([view(hand, v) for v in (1, 2, 3, "spectator")]),
            hand.card_needed, hand.stub_left, list(hand.muck))


class TestRefusals:
    def test_a_card_twice_in_a_one_deck_hand(self):
        hand = fresh()
        hand.deal_card("As")
        before = snapshot(hand)
        with pytest.raises(IllegalAction) as e:
            hand.deal_card("A♠")
        assert e.value.rule == "shoe_count" and "A♠ has already been dealt" in str(e.value)
        assert snapshot(hand) == before

    @pytest.mark.parametrize("bad", ["A", "10", "Zz", "", 12, None])
    def test_not_a_poker_card(self, bad):
        hand = fresh()
        before = snapshot(hand)
        with pytest.raises(IllegalAction) as e:
            hand.deal_card(bad)
        assert e.value.rule == "card"
        if bad in ("A", "10"):
            assert "needs its suit" in str(e.value)
        assert snapshot(hand) == before

    def test_a_card_when_a_decision_is_due_and_a_decision_when_a_card_is(self):
        hand = fresh()
        hand.deal_card("2c")
        with pytest.raises(OutOfTurn) as e:
            hand.check(2)
        assert e.value.rule == "card_needed" and "seat 3's first card" in str(e.value)
        for c in DECK[1:15]:
            hand.deal_card(c)
        before = snapshot(hand)
        with pytest.raises(OutOfTurn) as e:
            hand.deal_card("As")
        assert e.value.rule == "card_not_needed" and "seat 2's turn" in str(e.value)
        assert snapshot(hand) == before

    def test_take_back_after_an_action_is_refused(self):
        hand = fresh()
        for c in DECK[:15]:
            hand.deal_card(c)
        hand.check(2)
        before = snapshot(hand)
        with pytest.raises(IllegalAction) as e:
            take_back(hand)
        assert e.value.rule == "take_back" and "'check' came after it" in str(e.value)
        assert snapshot(hand) == before


class TestTakeBack:
    def test_taking_back_the_last_card_of_the_deal(self):
        hand = fresh()
        for c in DECK[:14]:
            hand.deal_card(c)
        before = snapshot(hand)
        hand.deal_card("As")
        assert hand.phase == FIRST_BETTING
        hand, r = take_back(hand)
        assert (r.seat, r.card.text) == (1, "As")
        assert hand.phase == DEALING and not any(x.type == "deal" for x in hand.log)
        assert snapshot(hand)[2:] == before[2:]
        assert log_view(hand, 2)[-1] == {"type": "take_back", "seat": 1, "card": "??"}
        assert log_view(hand, 1)[-1] == {"type": "take_back", "seat": 1, "card": "As"}
        hand.deal_card("Ks")
        assert hand.cards[1][-1].text == "Ks" and hand.to_act == 2

    def test_version_only_goes_up(self):
        hand = fresh()
        for c in DECK[:3]:
            hand.deal_card(c)
        v = hand.version
        hand, _ = take_back(hand)
        assert hand.version > v


def test_a_re_stub_at_a_real_table():
    """Seven players draw three each: the deck runs out and the muck goes back in."""
    stacks = {s: 1000 for s in range(1, 8)}
    order = [c.text for c in DECK]
    random.Random(3).shuffle(order)
    stacked = deal_hand(DrawRules(), stacks, 7, Shoe.stacked(" ".join(order)))
    entered = deal_hand(DrawRules(), stacks, 7, EnteredShoe(1))
    enter_from(stacked, entered)
    for s in range(1, 8):
        act_both(stacked, entered, "check", s)
    for s in range(1, 6):
        act_both(stacked, entered, "draw", s, [c.text for c in stacked.cards[s][:3]])
    sixth = [c.text for c in stacked.cards[6][:3]]
    stacked.draw(6, sixth)
    entered.draw(6, sixth)
    entered.deal_card(stacked.dealer.shoe.order[50])
    entered.deal_card(stacked.dealer.shoe.order[51])
    assert entered.log[-1].type == "restub" and entered.log[-1].cards == 15
    with pytest.raises(IllegalAction, match="already been dealt"):
        entered.deal_card(sixth[0])  # the drawer's own discards stay out of the re-stub
    with pytest.raises(IllegalAction, match="already been dealt"):
        entered.deal_card(stacked.cards[7][0].text)  # a card in a hand
    enter_from(stacked, entered)
    act_both(stacked, entered, "draw", 7, [c.text for c in stacked.cards[7][:3]])
    for s in range(1, 8):
        act_both(stacked, entered, "check", s)
    assert entered.is_terminal
    assert_same(stacked, entered)


# -- random hands both ways -----------------------------------------------------------------
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 7), seed=st.integers(0, 2**32 - 1), short=st.booleans(),
       take_back_rate=st.sampled_from([0.0, 0.3]))
def test_random_hands_entered_or_stacked_are_the_same(players, seed, short, take_back_rate):
    rng = random.Random(seed)
    order = [c.text for c in DECK]
    rng.shuffle(order)
    stacks = {s: rng.choice([50, 120, 600]) if short else 5000 for s in range(1, players + 1)}
    stacked = deal_hand(DrawRules(), stacks, 1, Shoe.stacked(" ".join(order)))
    entered = deal_hand(DrawRules(), stacks, 1, EnteredShoe(1))
    a, b = random.Random(seed), random.Random(seed)
    while True:
        while entered.card_needed is not None:
            if take_back_rate and rng.random() < take_back_rate:
                wrong = next(c for c in DECK if entered.can_deal_card(c))
                entered.deal_card(wrong)
                entered, _ = take_back(entered)
            entered.deal_card(stacked.dealer.shoe.order[_entered_count(entered)])
        assert (entered.phase, entered.to_act) == (stacked.phase, stacked.to_act)
        if stacked.is_terminal:
            break
        random_action(stacked, a)
        random_action(entered, b)
    assert entered.phase == SETTLED
    assert_same(stacked, entered)
    assert entered.chips_total() == sum(stacks.values())


def play_entered_table(take_backs: bool) -> DrawTable:
    table = DrawTable({1: 2000, 2: 2000, 3: 2000})
    rng = random.Random(11)
    for _ in range(3):
        hand = table.start_hand(EnteredShoe(1))
        deck = [c.text for c in DECK]
        rng.shuffle(deck)
        while not hand.is_terminal:
            if hand.card_needed is not None:
                if take_backs and rng.random() < 0.2:
                    hand.deal_card(next(c for c in deck if hand.can_deal_card(c)))
                    hand, _ = table.take_back()
                hand.deal_card(next(c for c in deck if hand.can_deal_card(c)))
            else:
                random_action(hand, rng)
        table.finish()
    return table


class TestHistory:
    @pytest.mark.parametrize("take_backs", [False, True])
    def test_entered_hands_replay_exactly(self, take_backs):
        doc = json.loads(json.dumps(to_history(play_entered_table(take_backs))))
        assert all(h["shoe"]["entered"] and h["shoe"]["commitment"] is None for h in doc["hands"])
        assert take_backs == any(d["type"] == "take_back" for h in doc["hands"] for d in h["log"])
        out = replay(doc)
        assert out.reproduced, out.messages
        assert out.hands == 3
        assert 'variant = "S5D"' in to_phh(doc)

    def test_verify_says_there_is_no_shuffle_to_verify(self):
        result = verify(to_history(play_entered_table(True)))
        assert result.ok and result.entered == 3 and result.pending == 0
        assert all("no shuffle to verify" in m for m in result.messages)

    def test_the_served_copy_shows_a_player_only_their_own_cards(self):
        table = play_entered_table(True)
        doc = to_history(table)
        for entry in doc["hands"]:
            hand_no = entry["number"]
            for seat in (1, 2, 3):
                served = histories.for_viewer({**doc, "hands": [entry]}, None, house=False, seats={hand_no: seat})
                hand = table.hands[hand_no - 1]
                mine = {c.text for r in hand.log if r.type in ("card", "take_back") and r.seat == seat
                        for c in [r.card]} | {c.text for c in hand.cards[seat]}
                shown = {c.text for s in hand.showed_down for c in hand.cards[s]}
                shown |= {c.text for s in hand.order for c in hand.shown[s]}
                assert card_tokens(served) <= mine | shown, (hand_no, seat)


def test_syndicate_verify_an_entered_poker_history(tmp_path):
    from typer.testing import CliRunner

    from syndicate.apps.cli import app

    path = tmp_path / "real-cards.json"
    path.write_text(json.dumps(to_history(play_entered_table(True))))
    ver = CliRunner().invoke(app, ["verify", str(path)])
    assert ver.exit_code == 0, ver.stdout
    said = " ".join(ver.stdout.split())  # the console wraps long lines
    assert "nothing to verify" in said and "there is no shuffle to verify" in said
    assert "verified" not in said
