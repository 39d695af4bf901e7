"""One scripted test per rule sentence of the three house-rules documents (../shared/seeds/).

Each test quotes the sentence it checks and plays it with a stacked shoe.
"""

from __future__ import annotations

import pytest

from syndicate.blackjack import views
from syndicate.blackjack.course import (
    DOUBLE,
    EARLY_SURRENDER,
    HIT,
    INSURANCE,
    PLAYING,
    SETTLED,
    SPLIT,
    STAND,
    SURRENDER,
)
from syndicate.blackjack.hands import hand_total
from syndicate.blackjack.round import Round
from syndicate.blackjack.rules import preset
from syndicate.blackjack.session import Session
from syndicate.core.cards import parse
from syndicate.core.errors import BadAmount, IllegalAction, OutOfTurn
from syndicate.core.play import take_back
from syndicate.core.shoe import Shoe

from .stack import payouts, stacked_round, strings

SYNDICATE = preset("syndicate")
JUPITERS = preset("jupiters")
NOTICE = preset("notice")


def play_out(rd, action=STAND):
    """Everyone left to act stands (or declines insurance) until the round is over."""
    while not rd.is_terminal:
        seat = rd.to_act
        if rd.phase == INSURANCE:
            rd.no_insurance(seat)
        elif rd.phase == EARLY_SURRENDER:
            rd.play_on(seat)
        else:
            getattr(rd, action)(seat)


# ---------------------------------------------------------------------------------------
# The Blackjack Syndicate — Rules of Play (seed 000), preset "syndicate"
# ---------------------------------------------------------------------------------------
class TestSyndicateRulesOfPlay:
    def test_each_player_places_their_own_bet(self):
        """'Each player places their own bet in front of them.'"""
        rd = stacked_round(SYNDICATE, ["Ts 9s", "Th 8h"], "Tc 8c", bets={1: 500, 2: 2500})
        assert [h.bet for h in rd.seats[1].hands] == [500]
        assert [h.bet for h in rd.seats[2].hands] == [2500]

    def test_no_shared_pot_each_bet_independent(self):
        """'There is no shared pot; each bet is independent.'"""
        rd = stacked_round(SYNDICATE, ["Ts 9s", "Th 7h"], "Tc 8c", bets={1: 500, 2: 2500})
        play_out(rd)
        assert rd.results() == {1: 500, 2: -2500}
        assert rd.house_result == 2000

    def test_players_get_two_cards_face_up(self):
        """'Dealer gives each player 2 cards face up.'"""
        rd = stacked_round(SYNDICATE, ["Ts 9s", "Th 7h"], "Tc 8c")
        spectator = views.view(rd, "spectator")
        assert [h["cards"] for s in spectator["seats"] for h in s["hands"]] == [["Ts", "9s"], ["Th", "7h"]]

    def test_dealer_one_up_one_hole(self):
        """'Dealer gives themselves 2 cards: 1 face up, 1 face down (the “hole card”).'"""
        rd = stacked_round(SYNDICATE, ["Ts 9s"], "Tc 8c")
        for viewer in (1, "spectator", "dealer"):
            assert views.view(rd, viewer)["dealer"]["cards"] == ["Tc", None]
        assert "8c" not in strings(views.view(rd, 1)) and "8c" not in strings(views.log_view(rd, 1))

    def test_players_act_in_turn_left_of_dealer_clockwise(self):
        """'Player Options (in turn, left of dealer → clockwise)'"""
        rd = stacked_round(SYNDICATE, ["Ts 6s", "Th 5h", "9d 5d"], "Tc 8c")
        order = []
        while rd.phase == PLAYING:
            order.append(rd.to_act)
            with pytest.raises(OutOfTurn):
                rd.stand(rd.to_act % 3 + 1)
            rd.stand(rd.to_act)
        assert order == [1, 2, 3]

    def test_hit_takes_another_card(self):
        """'Hit → take another card.'"""
        rd = stacked_round(SYNDICATE, ["Ts 2s"], "Tc 8c", "5d")
        rd.hit(1)
        assert [c.text for c in rd.seats[1].hands[0].cards] == ["Ts", "2s", "5d"]

    def test_stand_stops_taking_cards(self):
        """'Stand → stop taking cards.'"""
        rd = stacked_round(SYNDICATE, ["Ts 7s"], "Tc 8c")
        rd.stand(1)
        assert rd.is_terminal and len(rd.seats[1].hands[0].cards) == 2

    def test_double_down_doubles_takes_one_card_then_stands(self):
        """'Double Down → double your original bet, take exactly 1 more card, then stand.'"""
        rd = stacked_round(SYNDICATE, ["5s 6s"], "Tc 7c", "2d 9h")
        rd.double(1)
        hand = rd.seats[1].hands[0]
        assert hand.bet == 2000 and [c.text for c in hand.cards] == ["5s", "6s", "2d"]
        assert rd.is_terminal  # stood after one card: 13 against 17 loses double
        assert rd.results() == {1: -2000}

    def test_split_a_pair_with_an_equal_extra_bet(self):
        """'Split → if you have a pair, you can split them into two separate hands (must place an
        extra bet equal to your first).'"""
        rd = stacked_round(SYNDICATE, ["8s 8d"], "Tc 7c", "Ts Th", stacks={1: 5000}, bets={1: 1000})
        rd.split(1)
        hands = rd.seats[1].hands
        assert [h.bet for h in hands] == [1000, 1000]
        assert rd.seats[1].stack == 3000
        rd.stand(1)
        rd.stand(1)
        assert rd.results() == {1: 2000}  # 18 and 18 against 17

    def test_split_refused_without_a_pair(self):
        """'... if you have a pair ...' — two different ranks cannot be split."""
        rd = stacked_round(SYNDICATE, ["8s 9d"], "Tc 7c")
        with pytest.raises(IllegalAction) as e:
            rd.split(1)
        assert e.value.rule == "split"
        rd = stacked_round(SYNDICATE, ["Ks Td"], "Tc 7c")  # split_by=rank: a king and a ten are no pair
        with pytest.raises(IllegalAction) as e:
            rd.split(1)
        assert e.value.rule == "split_by"

    def test_surrender_loses_half(self):
        """'Surrender (some casinos allow) → forfeit your hand immediately and lose only half your bet.'"""
        rd = stacked_round(SYNDICATE, ["Ts 6s"], "Tc 7c")
        rd.surrender(1)
        assert rd.is_terminal and rd.results() == {1: -500}

    def test_surrender_only_where_allowed(self):
        """'(some casinos allow)' — with surrender=none the option is refused by name."""
        rd = stacked_round(SYNDICATE.with_(surrender="none"), ["Ts 6s"], "Tc 7c")
        assert SURRENDER not in rd.legal_actions()
        with pytest.raises(IllegalAction) as e:
            rd.surrender(1)
        assert e.value.rule == "surrender"

    def test_insurance_up_to_half_pays_two_to_one(self):
        """'Insurance (when dealer shows an Ace) → side bet, up to half your original bet, that the
        dealer's hidden card is a 10-value. Pays 2:1 if dealer has Blackjack.'"""
        rd = stacked_round(SYNDICATE, ["Ts 9s"], "Ac Kd")
        assert rd.phase == INSURANCE
        with pytest.raises(BadAmount) as e:
            rd.insurance(1, 501)
        assert e.value.rule == "insurance"
        rd.insurance(1, 500)
        assert rd.is_terminal
        # loses the $10 bet, wins 2:1 on $5 insurance: net 0
        assert payouts(rd) == [(1, -1, "insurance_win", 1000), (1, 0, "lose", -1000)]
        assert rd.results() == {1: 0}

    def test_insurance_not_offered_without_ace(self):
        """'(when dealer shows an Ace)'"""
        rd = stacked_round(SYNDICATE, ["Ts 9s"], "Kc Ad")
        assert rd.phase != INSURANCE
        with pytest.raises(OutOfTurn):
            rd.insurance(1, 500)

    def test_dealer_reveals_hole_card(self):
        """'Dealer reveals their hole card.'"""
        rd = stacked_round(SYNDICATE, ["Ts 9s"], "Tc 8c")
        rd.stand(1)
        assert views.view(rd, "spectator")["dealer"]["cards"] == ["Tc", "8c"]
        assert any(r.type == "reveal" and r.card.text == "8c" for r in rd.log)

    def test_dealer_hits_until_17(self):
        """'Dealer must hit until 17 or higher.'"""
        rd = stacked_round(SYNDICATE, ["Ts 9s"], "Tc 2c", "3d 4h 5s")
        rd.stand(1)
        assert [c.text for c in rd.dealer] == ["Tc", "2c", "3d", "4h"]  # 19, stops
        assert rd.results() == {1: 0}

    @pytest.mark.parametrize("h17, expected", [(False, ["6c", "Ac"]), (True, ["6c", "Ac", "Th"])])
    def test_soft_17_is_a_house_option(self, h17, expected):
        """'Rule detail: Some casinos make the dealer hit a “soft 17” (Ace+6), others make them stand.'"""
        rules = SYNDICATE.with_(dealer_hits_soft_17=h17)
        rd = stacked_round(rules, ["Ts 8s"], "6c Ac", "Th 9d")
        rd.stand(1)
        assert [c.text for c in rd.dealer] == expected

    def test_player_bust_loses_immediately(self):
        """'Player busts (>21) → loses immediately.'"""
        rd = stacked_round(SYNDICATE, ["Ts 6s", "9h 9d"], "Tc 6c", "Kd 2h 3s")
        rd.hit(1)
        # Settled at once, before the next seat or the dealer acts.
        assert payouts(rd) == [(1, 0, "bust", -1000)]
        assert rd.to_act == 2

    def test_dealer_bust_pays_all_remaining(self):
        """'Dealer busts → all remaining players win their bet (1:1).'"""
        rd = stacked_round(SYNDICATE, ["Ts 2s", "9h 4d", "Td Kd"], "Tc 6c", "Ks 9s")
        rd.hit(1)  # bust
        rd.stand(2)
        rd.stand(3)
        assert rd.results() == {1: -1000, 2: 1000, 3: 1000}

    def test_player_higher_wins(self):
        """'Player higher than dealer → player wins (1:1).'"""
        rd = stacked_round(SYNDICATE, ["Ts 9s"], "Tc 8c")
        rd.stand(1)
        assert rd.results() == {1: 1000}

    def test_dealer_higher_wins(self):
        """'Dealer higher than player → dealer wins, player loses bet.'"""
        rd = stacked_round(SYNDICATE, ["Ts 7s"], "Tc 8c")
        rd.stand(1)
        assert rd.results() == {1: -1000}

    def test_tie_is_a_push(self):
        """'Tie (Push) → bet returned to player.'"""
        rd = stacked_round(SYNDICATE, ["Ts 8s"], "Tc 8c")
        rd.stand(1)
        assert payouts(rd) == [(1, 0, "push", 0)] and rd.results() == {1: 0}

    def test_blackjack_pays_3_to_2(self):
        """'Blackjack (Ace + 10-value on first 2 cards) → pays 3:2 (e.g. $10 bet → win $15).'"""
        rd = stacked_round(SYNDICATE, ["As Ks"], "9c 8c")
        assert rd.is_terminal and rd.results() == {1: 1500}


# ---------------------------------------------------------------------------------------
# Casino Blackjack (Group 53), Appendix A — from Jupiter's Blackjack Manual (seed 001)
# ---------------------------------------------------------------------------------------
class TestJupitersManual:
    def test_1_1_other_players_are_of_no_concern(self):
        """'1.1) ... closer to 21 than that of the dealer, without going over 21. Other players at the
        table are of no concern.'"""
        rd = stacked_round(JUPITERS, ["Ts 9s", "Th 2d"], "Tc 7c", "Kd")
        rd.stand(1)
        rd.hit(2)  # seat 2 busts; seat 1's 19 against 17 still wins
        assert rd.results() == {1: 1000, 2: -1000}

    def test_2_1_1_ace_counts_one_or_eleven(self):
        """'2.1.1) An Ace can count as either 1 or 11, and is assumed to always have the value that
        makes the best hand.'"""
        assert hand_total(parse("As 6d")) == (17, True)
        assert hand_total(parse("As 6d 9c")) == (16, False)
        assert hand_total(parse("As Ad 9c")) == (21, True)

    def test_2_1_2_number_cards_face_value(self):
        """'2.1.2) The cards from 2 through 9 are valued as indicated.'"""
        for r in "23456789":
            assert hand_total(parse(f"{r}s"))[0] == int(r)

    def test_2_1_3_tens_and_faces_are_ten(self):
        """'2.1.3) The 10, Jack, Queen, and King cards are all valued at 10.'"""
        assert {hand_total(parse(t))[0] for t in ("Ts", "Js", "Qs", "Ks", "10h")} == {10}

    def test_3_1_all_players_bet_before_the_hand(self):
        """'3.1) Before each hand begins, all players place their desired bets on the table.'"""
        rd = Session(JUPITERS, {1: 10_000, 2: 10_000}, lambda r: Shoe.stacked("9s 9h 9c 9d Ts Th " * 8)).new_round()
        rd.bet(1, 300)
        rd.bet(2, 700)
        rd.bet(1, 400)  # a player may change their bet until the deal
        rd.deal()
        assert [rd.seats[s].hands[0].bet for s in (1, 2)] == [400, 700]

    def test_3_2_table_minimum_and_maximum(self):
        """'3.2) Most casino tables have a minimum and maximum bet.'"""
        rd = Session(JUPITERS, {1: 100_000}, lambda r: Shoe.new(1)).new_round()
        for bad in (JUPITERS.min_bet - 1, JUPITERS.max_bet + 1):
            with pytest.raises(BadAmount) as e:
                rd.bet(1, bad)
            assert e.value.rule == "table_limits"
        assert rd.seats[1].bet == 0 and rd.seats[1].stack == 100_000

    def test_3_3_bets_locked_once_dealing_starts(self):
        """'3.3) Once the dealer starts dealing cards no player is allowed to touch their bet.'"""
        rd = stacked_round(JUPITERS, ["Ts 9s"], "Tc 7c")
        with pytest.raises(OutOfTurn) as e:
            rd.bet(1, 2000)
        assert e.value.rule == "bets_locked"
        assert rd.seats[1].hands[0].bet == 1000

    def test_3_1_chips_bought_while_bets_are_open(self):
        """'3.1) Before each hand begins, all players place their desired bets on the table.'
        Chips bought then (a walk-in paying the dealer before the deal) are the seat's from the
        start of the round: its stack and starting stack grow alike, its net does not move, and
        a take-back (which replays the round from its starting stacks) keeps them. Once the
        dealer starts dealing they are refused (rule ``cards_out``), and nothing changes."""
        from syndicate.core.shoe import EnteredShoe

        rd = Round(JUPITERS, EnteredShoe(JUPITERS.decks), {1: 1_000, 2: 5_000})
        rd.bet(1, 1_000)
        rd.add_chips(1, 2_500)
        assert (rd.seats[1].stack, rd.seats[1].start_stack, rd.seats[1].net) == (2_500, 3_500, 0)
        rd.bet(1, 3_000)  # the chips bought may be bet
        for bad, rule in ((0, "amount"), (-5, "amount"), (1.5, "amount"), (True, "amount")):
            with pytest.raises(BadAmount) as e:
                rd.add_chips(1, bad)
            assert e.value.rule == rule
        rd.bet(2, 1_000)
        rd.deal()
        rd.deal_card("Ts")
        with pytest.raises(OutOfTurn) as e:
            rd.add_chips(1, 100)
        assert e.value.rule == "cards_out" and not rd.can_add_chips(2, 100)
        assert (rd.seats[1].stack, rd.seats[1].start_stack) == (500, 3_500)
        rd, _ = take_back(rd)  # replayed from the starting stacks: the chips bought are still there
        assert (rd.seats[1].stack, rd.seats[1].start_stack, rd.seats[1].bet) == (500, 3_500, 3_000)

    def test_3_4_leaving_after_the_deal_forfeits(self):
        """'3.4) A player who leaves at this stage will forfeit his bet.'"""
        rd = stacked_round(JUPITERS, ["Ts 9s", "Th 8h"], "9c 7c", "Kd")
        rd.leave(1)
        assert rd.to_act == 2
        rd.stand(2)
        assert rd.results() == {1: -1000, 2: 1000}

    def test_leaving_before_the_deal_takes_the_bet_back(self):
        """3.4 applies once dealing starts; before it, the bet comes back."""
        rd = Session(JUPITERS, {1: 10_000}, lambda r: Shoe.new(1)).new_round()
        rd.bet(1, 500)
        rd.leave(1)
        assert rd.seats[1].stack == 10_000

    def test_4_1_two_clockwise_passes_from_the_dealers_left(self):
        """'4.1) ... He'll make two clockwise passes around the table starting at his left (the
        player's right) so that the players and the dealer have two cards each.'"""
        rd = stacked_round(JUPITERS, ["2s 5s", "3s 6s", "4s 7s"], "8c 9c")
        dealt = [(r.seat, r.card.text) for r in rd.log if r.type == "card"]
        assert dealt == [(1, "2s"), (2, "3s"), (3, "4s"), (-1, "8c"), (1, "5s"), (2, "6s"), (3, "7s"), (-1, "9c")]

    def test_4_2_dealer_exposes_one_card(self):
        """'4.2) The dealer will flip one of his two cards over (exposing its value).'"""
        rd = stacked_round(JUPITERS, ["Ts 9s"], "8c 9c")
        faces = [r.face_up for r in rd.log if r.type == "card" and r.seat == -1]
        assert faces == [True, False]
        assert views.view(rd, 1)["dealer"]["cards"] == ["8c", None]

    def test_4_3_player_cards_face_up(self):
        """'4.3) In all "shoe games", the players cards will be dealt face-up ...'"""
        rd = stacked_round(JUPITERS, ["Ts 9s", "7h 7d"], "8c 9c")
        assert all(r.face_up for r in rd.log if r.type == "card" and r.seat != -1)
        assert views.view(rd, 2)["seats"][0]["hands"][0]["cards"] == ["Ts", "9s"]

    def test_5_each_player_in_turn_clockwise(self):
        """'5. ... each player in turn (clockwise from the dealer) plays his hand.'"""
        rd = stacked_round(JUPITERS, ["Ts 6s", "Th 5h"], "8c 9c")
        assert rd.to_act == 1
        with pytest.raises(OutOfTurn) as e:
            rd.hit(2)
        assert e.value.rule == "turn"

    def test_5_1_1_ten_on_split_ace_is_21_not_blackjack(self):
        """'5.1.1) ... If the player splits a pair of Aces for example, and then draws a ten-valued
        card on one of the Aces, this is not a blackjack, but rather a total of 21.'"""
        rd = stacked_round(JUPITERS, ["As Ad"], "9c Td", "Kh 7s")
        rd.split(1)
        hands = rd.seats[1].hands
        assert hands[0].total == 21 and not hands[0].natural
        assert rd.is_terminal
        # 21 beats 19 at even money (not 3:2); the 18 loses.
        assert payouts(rd) == [(1, 0, "win", 1000), (1, 1, "lose", -1000)]

    def test_5_1_2_naturals_paid_immediately_unless_ace_or_ten_showing(self):
        """'5.1.2) Anyone who is dealt a blackjack is paid immediately at one and a half times the
        amount of the bet (3 to 2) unless the dealer has an Ace or 10 value card showing.'"""
        rd = stacked_round(JUPITERS, ["As Ks", "Th 6h"], "9c 8c")
        assert rd.to_act == 2
        assert payouts(rd) == [(1, 0, "blackjack", 1500)]  # before seat 2 has played
        rd = stacked_round(JUPITERS, ["As Ks", "Th 6h"], "Tc 8c")
        assert rd.to_act == 2 and payouts(rd) == []  # waits for the dealer's hand
        rd.stand(2)
        assert payouts(rd)[0] == (1, 0, "blackjack", 1500)

    def test_5_1_3_blackjack_against_dealer_blackjack_is_a_standoff(self):
        """'5.1.3) If after all hands are played, the dealer also gets a Blackjack, there is a
        stand-off and neither the dealer nor the player(s) having Blackjack wins.'"""
        rd = stacked_round(JUPITERS, ["As Ks", "Th 6h"], "Tc Ac")
        rd.stand(2)
        assert payouts(rd) == [(1, 0, "push", 0), (2, 0, "lose", -1000)]

    def test_5_2_1_insurance_offered_on_an_ace(self):
        """'5.2.1) ... when the dealer's first card is an Ace, the players will be given the
        opportunity to make an "insurance" bet before play continues.'"""
        rd = stacked_round(JUPITERS, ["Ts 9s", "Th 6h"], "Ac 8c")
        assert rd.phase == INSURANCE and rd.to_act == 1
        with pytest.raises(OutOfTurn):
            rd.hit(1)

    def test_5_2_2_insurance_optional_up_to_half(self):
        """'5.2.2) This bet is optional and may be up to one half of the player's original bet.'"""
        rd = stacked_round(JUPITERS, ["Ts 9s", "Th 6h"], "Ac 8c", bets={1: 1001, 2: 1000})
        with pytest.raises(BadAmount):
            rd.insurance(1, 501)
        rd.insurance(1, 500)
        rd.no_insurance(2)
        assert rd.phase == PLAYING and rd.seats[1].insurance == 500 and rd.seats[2].insurance == 0

    def test_5_2_3_insurance_pays_two_to_one(self):
        """'5.2.3) In the event that the dealer does get a Blackjack, the winning insurance bets will
        be paid at the rate of 2 to 1.'"""
        rd = stacked_round(JUPITERS, ["Ts 9s"], "Ac Kc")
        rd.insurance(1, 400)
        rd.stand(1)
        assert (1, -1, "insurance_win", 800) in payouts(rd)

    def test_5_2_4_only_original_bets_lose_and_insurance_loses_without_blackjack(self):
        """'5.2.4) Only the original bet on each player's hand (not split or double down bets) which
        are not also Blackjacks will lose. If the dealer does not get a Blackjack, all insurance bets
        lose.'"""
        rd = stacked_round(JUPITERS, ["5s 5d"], "Ac Kc", "6h")
        rd.no_insurance(1)
        rd.double(1)  # 16, doubled to $20, then the dealer turns up blackjack
        assert payouts(rd) == [(1, 0, "lose", -1000)]  # only the original $10 is lost
        rd = stacked_round(JUPITERS, ["Ts 9s"], "Ac 6c", "Th")
        rd.insurance(1, 500)
        rd.stand(1)
        assert (1, -1, "insurance_lose", -500) in payouts(rd)

    def test_5_2_5_even_money_on_a_blackjack(self):
        """'5.2.5) A player who has a Blackjack may elect to accept an even money payout instead of
        making an insurance bet.'"""
        rd = stacked_round(JUPITERS, ["As Ks"], "Ac Kc")
        rd.even_money(1)
        assert payouts(rd) == [(1, 0, "even_money", 1000)]
        assert rd.is_terminal and rd.results() == {1: 1000}

    def test_even_money_only_on_a_blackjack(self):
        rd = stacked_round(JUPITERS, ["Ts 9s"], "Ac Kc")
        with pytest.raises(IllegalAction) as e:
            rd.even_money(1)
        assert e.value.rule == "even_money"

    def test_5_3_1_split_cards_identical_in_value(self):
        """'5.3.1) A player whose first two cards are identical in value has the option of
        "splitting" them to make two hands.'"""
        rd = stacked_round(JUPITERS, ["Ks Th"], "9c 8c", "9d 9h")
        assert SPLIT in rd.legal_actions()  # split_by=value: a king and a ten
        rd = stacked_round(JUPITERS.with_(split_by="rank"), ["Ks Th"], "9c 8c")
        assert SPLIT not in rd.legal_actions()

    def test_5_3_2_split_duplicates_the_original_bet(self):
        """'5.3.2) When doing this, the original bet must be duplicated.'"""
        rd = stacked_round(JUPITERS, ["8s 8d"], "9c 8c", "2h 3h", stacks={1: 1500})
        with pytest.raises(BadAmount) as e:  # $5 behind cannot duplicate a $10 bet
            rd.split(1)
        assert e.value.rule == "stack"
        assert rd.seats[1].stack == 500 and len(rd.seats[1].hands) == 1

    def test_5_3_3_split_aces_get_one_card_each(self):
        """'5.3.3) Each hand is then played normally except a player splitting Aces may only
        receive one card on each Ace.'"""
        rd = stacked_round(JUPITERS, ["As Ad"], "9c 8c", "5h 6h")
        rd.split(1)
        hands = rd.seats[1].hands
        assert [len(h.cards) for h in hands] == [2, 2] and rd.is_terminal
        assert [h.total for h in hands] == [16, 17]

    def test_5_3_4_resplit_pairs(self):
        """'5.3.4) If the player get additional pairs (in the first two cards of a hand), most
        casinos will allow that player to re-split, making yet another hand.'"""
        rd = stacked_round(JUPITERS, ["8s 8d"], "9c 8c", "8h Th Tc Td")
        rd.split(1)
        assert SPLIT in rd.legal_actions()
        rd.split(1)
        assert len(rd.seats[1].hands) == 3

    def test_5_3_5_up_to_four_hands(self):
        """'5.3.5) The most common rule allows a player to split up to 3 times, making 4 separate
        hands, with 4 separate bets.'"""
        rd = stacked_round(JUPITERS, ["8s 8d"], "9c 8c", "8h 8c 8s Th Tc Td Ts")
        for _ in range(3):
            rd.split(1)
        assert len(rd.seats[1].hands) == 4
        with pytest.raises(IllegalAction) as e:
            rd.split(1)
        assert e.value.rule == "max_split_hands"
        assert [h.bet for h in rd.seats[1].hands] == [1000] * 4

    def test_5_4_1_double_on_9_10_11_only(self):
        """'5.4.1) On any two cards which total 9, 10, or 11, the player may "double down"; that is,
        increase the bet by as much as the original bet, and agree to take only one more card.'"""
        rd = stacked_round(JUPITERS, ["Ts 2s"], "9c 8c")
        assert DOUBLE not in rd.legal_actions()
        with pytest.raises(IllegalAction) as e:
            rd.double(1)
        assert e.value.rule == "double_on"
        for cards in ("5s 4s", "6s 4s", "7s 4s"):
            rd = stacked_round(JUPITERS, [cards], "9c 8c", "2h")
            assert DOUBLE in rd.legal_actions()
            rd.double(1)
            assert rd.seats[1].hands[0].bet == 2000 and len(rd.seats[1].hands[0].cards) == 3

    def test_5_4_1_as_much_as_the_original_bet(self):
        """'... increase the bet by as much as the original bet' — with double_for_less, less too."""
        rd = stacked_round(JUPITERS.with_(double_for_less=True), ["6s 4s"], "9c 8c", "2h")
        with pytest.raises(BadAmount):
            rd.double(1, 1001)
        rd.double(1, 400)
        assert rd.seats[1].hands[0].bet == 1400
        rd = stacked_round(JUPITERS, ["6s 4s"], "9c 8c", "2h")
        with pytest.raises(BadAmount) as e:
            rd.double(1, 400)
        assert e.value.rule == "double_for_less"

    def test_5_5_3_bust_collected_and_removed_immediately(self):
        """'5.5.3) When a player goes over 21, the hand is "bust" and the dealer collects their bet,
        and removes their hand from the table immediately.'"""
        rd = stacked_round(JUPITERS, ["Ts 6s", "Th 7h"], "9c 8c", "Kd")
        rd.hit(1)
        assert payouts(rd) == [(1, 0, "bust", -1000)] and rd.seats[1].at_risk == 0

    def test_5_5_4_no_hitting_21(self):
        """'5.5.4) A player may not hit any hand having a value of 21.'"""
        rd = stacked_round(JUPITERS, ["Ts 6s", "Th 7h"], "9c 8c", "5d")
        rd.hit(1)  # 21: the hand stands by rule, the turn passes
        assert rd.to_act == 2
        assert any(r.type == "stand" and r.auto and r.seat == 1 for r in rd.log)
        with pytest.raises(OutOfTurn):
            rd.hit(1)

    def test_6_1_dealer_has_no_decisions(self):
        """'6.1) ... The rules of play for the dealer are strictly dictated, leaving no decisions up
        to the dealer.'"""
        rd = stacked_round(JUPITERS, ["Ts 9s"], "9c 7c", "4d")
        rd.stand(1)  # the dealer's hand plays itself out: 16 → hits to 20
        assert rd.is_terminal and rd.to_act is None and [c.text for c in rd.dealer] == ["9c", "7c", "4d"]

    def test_6_2_dealer_hits_16_stands_17(self):
        """'6.2) The dealer must hit on any hand value of 16 or less, and stand on any 17 or more.'"""
        rd = stacked_round(JUPITERS, ["Ts 9s"], "Tc 6c", "Ad 5h")
        rd.stand(1)
        assert [c.text for c in rd.dealer] == ["Tc", "6c", "Ad"]  # 17 stands
        rd = stacked_round(JUPITERS, ["Ts 9s"], "6c Ac", "5h")
        rd.stand(1)
        assert [c.text for c in rd.dealer] == ["6c", "Ac"]  # soft 17 stands too under this preset

    def test_7_1_dealer_bust_pays_remaining_hands(self):
        """'7.1) Should the dealer "bust", all remaining players' hands will be paid accordingly.'"""
        rd = stacked_round(JUPITERS, ["Ts 2s", "Th 3h"], "9c 6c", "Tc 9d")
        rd.stand(1)
        rd.stand(2)
        assert rd.results() == {1: 1000, 2: 1000}

    def test_7_2_same_total_is_a_standoff(self):
        """'7.2) Player's hands with the same total as the dealer's hands will be a stand-off. The
        player gets his money back.'"""
        rd = stacked_round(JUPITERS, ["Ts 8s"], "9c 9d")
        rd.stand(1)
        assert rd.results() == {1: 0}

    def test_7_3_dealer_blackjack_takes_only_the_original_bet(self):
        """'7.3) In the event that the dealer's second card makes a blackjack, only the original bet
        will be collected by the dealer on all split and double down hands.'"""
        rd = stacked_round(JUPITERS, ["8s 8d"], "Tc Ac", "2h 5h 3h 6h")
        rd.split(1)
        rd.double(1)  # hand 1: 8+2, doubled
        rd.double(1)  # hand 2: 8+3, doubled
        assert rd.is_terminal
        assert rd.results() == {1: -1000}  # $40 on the table, only the original $10 collected

    def test_5_5_3_and_7_3_a_busted_split_hand_was_lost_when_it_busted(self):
        """'5.5.3) When a player goes over 21, the hand is "bust" and the dealer collects their bet,
        and removes their hand from the table immediately.' and '7.3) In the event that the
        dealer's second card makes a blackjack, only the original bet will be collected by the
        dealer on all split and double down hands.' The busted hand is off the table before the
        blackjack shows: its bet was collected then, and the blackjack still collects the original
        bet from the hands left (obo_split_bust="lost")."""
        rd = stacked_round(JUPITERS, ["8s 8d"], "Tc Ac", "5h Kh 3h")
        rd.split(1)
        rd.hit(1)  # 8+5 = 13, hit: K → 23, bust
        assert payouts(rd) == [(1, 0, "bust", -1000)] and rd.seats[1].hands[0].settled
        rd.stand(1)  # 8+3 = 11 stands
        assert payouts(rd) == [(1, 0, "bust", -1000), (1, 1, "lose", -1000)]
        assert rd.results() == {1: -2000}

    def test_7_3_after_a_bust_the_other_split_hand_loses_only_the_original_bet(self):
        """7.3 "only the original bet will be collected ... on all split and double down hands":
        the hand left after a bust was doubled ($20 on it), and the blackjack takes $10 of it."""
        rd = stacked_round(JUPITERS, ["8s 8d"], "Tc Ac", "5h Kh 3h 4d")
        rd.split(1)
        rd.hit(1)  # 8+5, K: bust
        rd.double(1)  # 8+3 = 11 doubled, draws 4: 15
        assert rd.is_terminal
        assert payouts(rd) == [(1, 0, "bust", -1000), (1, 1, "lose", -1000)]
        assert [h.bet for h in rd.seats[1].hands] == [1000, 2000]
        assert rd.results() == {1: -2000} and rd.house_result == 2000

    def test_7_3_option_no_peek_all_takes_every_bet(self):
        """The other house option ("no_peek_all"): the dealer's blackjack takes doubles and splits too."""
        rd = stacked_round(JUPITERS.with_(hole_card="no_peek_all"), ["8s 8d"], "Tc Ac", "2h 5h 3h 6h")
        rd.split(1)
        rd.double(1)
        rd.double(1)
        assert rd.results() == {1: -4000}

    def test_7_4_even_money_except_blackjack_and_insurance(self):
        """'7.4) All winning bets are paid even money, except: 7.4.1) Blackjack, which is paid 3 to 2
        (when the player has a Blackjack & the dealer doesn't), and 7.4.2) Insurance, which is paid
        2 to 1 (when the dealer gets a Blackjack) and loses when the dealer does not get a Blackjack.'"""
        rd = stacked_round(JUPITERS, ["Ts 9s", "Ah Kh"], "9c 8c")
        rd.stand(1)
        assert rd.results() == {1: 1000, 2: 1500}

    def test_7_5_losing_bets_collected_including_insurance(self):
        """'7.5) Any bet (inital bet, double down bet or insurance), which loses is collected by the
        dealer.'"""
        rd = stacked_round(JUPITERS, ["5s 4s"], "Ac 7c", "3d")
        rd.insurance(1, 500)
        rd.double(1)  # 12 against 18
        assert rd.results() == {1: -2500} and rd.house_result == 2500

    def test_7_6_new_bets_for_the_next_round(self):
        """'7.6) Once all bets have been taken or paid, the players may then place new bets for the
        next round of play.'"""
        session = Session(JUPITERS, {1: 10_000}, lambda r: Shoe.stacked("Ts 9c 9s 8c Th 9h 9d 7h " * 4))
        rd = session.new_round()
        with pytest.raises(RuntimeError):
            session.new_round()  # not before the round is over
        rd.bet(1, 1000)
        rd.deal()
        rd.stand(1)
        session.finish_round()
        rd2 = session.new_round()
        assert rd2.phase == "betting" and rd2.seats[1].stack == 11_000


# ---------------------------------------------------------------------------------------
# The event notice: Blackjack or "21" (seed 002), preset "notice"
# ---------------------------------------------------------------------------------------
class TestEventNotice:
    def test_payout_is_3_to_2(self):
        """'The payout is 3:2.'"""
        rd = stacked_round(NOTICE, ["As Ks"], "9c 8c", bets={1: 2000})
        assert rd.results() == {1: 3000}

    def test_two_revealed_cards_dealer_one_revealed_one_hole(self):
        """'all players will be dealt two revealed cards and the dealer will be dealt one revealed
        card and a hidden or "hole" card.'"""
        rd = stacked_round(NOTICE, ["Ts 9s", "8h 7h"], "9c Kc")
        view = views.view(rd, "spectator")
        assert view["dealer"]["cards"] == ["9c", None]
        assert [len(s["hands"][0]["cards"]) for s in view["seats"]] == [2, 2]

    def test_hit_me(self):
        """'Hit me: The player is dealt another card from the deck, the value of which is added to
        their current hand.'"""
        rd = stacked_round(NOTICE, ["Ts 2s"], "9c Kc", "5d")
        rd.hit(1)
        assert rd.seats[1].hands[0].total == 17

    def test_stay(self):
        """'Stay: The player sits on their current hand until the end of the round.'"""
        rd = stacked_round(NOTICE, ["Ts 2s"], "9c Kc", "5d")
        rd.stand(1)
        assert rd.seats[1].hands[0].total == 12 and rd.is_terminal

    def test_double_one_card(self):
        """'Double: The player doubles their initial bet on this round and receives ONE card.'"""
        rd = stacked_round(NOTICE, ["Ts 2s"], "9c Kc", "5d 4h")
        rd.double(1)  # any two cards at this table
        assert rd.seats[1].hands[0].bet == 2000 and len(rd.seats[1].hands[0].cards) == 3

    def test_split_any_two_tens(self):
        """'Split: Should the player have a pair (or any two 10 point value cards) they may choose to
        "split" their bet. Each card is then given a second card and may be played out as their own
        hand. (Note: Splitting also involves doubling up on your initial bet)'"""
        rd = stacked_round(NOTICE, ["Qs Jd"], "9c Kc", "9h 8h", stacks={1: 5000})
        rd.split(1)
        hands = rd.seats[1].hands
        assert [c.text for c in hands[0].cards] == ["Qs", "9h"]
        rd.stand(1)
        assert [c.text for c in hands[1].cards] == ["Jd", "8h"]
        assert rd.seats[1].stack == 3000 and [h.bet for h in hands] == [1000, 1000]

    def test_split_up_to_four_hands(self):
        """'Splitting can be done up to a maximum of 4 hands.'"""
        rd = stacked_round(NOTICE, ["9s 9d"], "9c Kc", "9h 9c 9s 2h 2d 2c 2s")
        for _ in range(3):
            rd.split(1)
        assert SPLIT not in rd.legal_actions()
        with pytest.raises(IllegalAction) as e:
            rd.split(1)
        assert e.value.rule == "max_split_hands"

    def test_split_aces_one_card_no_hit(self):
        """'Split aces may only receive the one card and can not be hit again.'"""
        rd = stacked_round(NOTICE, ["As Ad"], "9c Kc", "2h 3h")
        rd.split(1)
        assert rd.is_terminal
        assert [len(h.cards) for h in rd.seats[1].hands] == [2, 2]
        rd = stacked_round(NOTICE.with_(resplit_aces=True), ["As Ad"], "9c Kc", "Ah 3h 4h")
        rd.split(1)  # first ace draws another ace: it may be re-split, but never hit
        assert rd.legal_actions() == [STAND, SPLIT]
        with pytest.raises(IllegalAction) as e:
            rd.hit(1)
        assert e.value.rule == "hit_split_aces"

    def test_rule_1_number_cards_face_value(self):
        """'1.) All number cards represent their face value. (i.e. A 9 is worth 9)'"""
        assert hand_total(parse("9s"))[0] == 9 and hand_total(parse("2s 3d 4h"))[0] == 9

    def test_rule_2_faces_are_ten(self):
        """'2.) All "face" cards (Jack, Queen, or King) hold a value of 10.'"""
        assert hand_total(parse("Js Qd Kh")) == (30, False)

    def test_rule_3_ace_one_or_eleven_not_both(self):
        """'3.) An ace can be treated as either a value of 1 or 11, but not both, in any given hand.'"""
        assert hand_total(parse("Ad Ac")) == (12, True)  # 1 + 11, never 22 nor 2
        assert hand_total(parse("Ad Ac Kh")) == (12, False)

    def test_rule_4_hand_value_is_the_sum(self):
        """'4.) A hand's value is the sum of the value of all cards in it.'"""
        assert hand_total(parse("2s 3d 4h 5c 6s")) == (20, False)

    def test_rule_5_blackjack_beats_other_21(self):
        """'5.) ... Unless another blackjack is on the table, a blackjack is counted as the winning
        hand, even if there is another 21 point value hand on the table.'"""
        rd = stacked_round(NOTICE, ["As Ks"], "9c 7c", "5d")
        assert rd.results() == {1: 1500}  # the dealer's later 21 does not matter
        rd = stacked_round(NOTICE, ["Ts 6s", "Ah Kh"], "Tc Ac", "5d")
        rd.hit(1)  # seat 1 makes 21 with three cards, the dealer has blackjack
        assert payouts(rd) == [(1, 0, "lose", -1000), (2, 0, "push", 0)]

    @pytest.mark.parametrize("dealer", ["Ac Kc", "Kc Ac"])
    def test_players_play_knowing_half_the_dealers_hand_every_bet_stands(self, dealer):
        """'Having knowledge of their own hand and half the dealer's they may choose from a range
        of options for how they will play their hand.' and '6.) After all players have completed
        their turns, the dealer will reveal their second card.' No one looks at the hole card
        before the players have played: with an Ace up and a ten in the hole (or a ten up and an
        Ace in the hole) the players still play, and the doubles and splits they make stand and
        are lost to the blackjack (hole_card="no_peek_all")."""
        rd = stacked_round(NOTICE, ["8s 8d", "5h 6h"], dealer, "3h 2d 9c Td")
        assert rd.phase == PLAYING and rd.to_act == 1
        assert not any(r.type == "peek" for r in rd.log)
        assert views.view(rd, "spectator")["dealer"]["cards"] == [dealer.split()[0], None]
        rd.split(1)  # 8+3
        rd.double(1)  # 8+3+2 = 13, $20 on it
        rd.stand(1)  # 8+9 = 17
        assert rd.to_act == 2 and not rd.hole_revealed and payouts(rd) == []
        rd.double(2)  # 5+6+T = 21, $20 on it
        assert rd.hole_revealed and rd.is_terminal
        assert payouts(rd) == [(1, 0, "lose", -2000), (1, 1, "lose", -1000), (2, 0, "lose", -2000)]
        assert rd.results() == {1: -3000, 2: -2000}

    def test_rule_6_dealer_reveals_and_hits_16(self):
        """'6.) After all players have completed their turns, the dealer will reveal their second
        card. The dealer must hit on any value 16 or below.'"""
        rd = stacked_round(NOTICE, ["Ts 9s"], "9c 7c", "Td")
        assert not rd.hole_revealed
        rd.stand(1)
        assert rd.hole_revealed and [c.text for c in rd.dealer] == ["9c", "7c", "Td"]

    def test_rule_7_dealer_bust_pays_unbusted(self):
        """'7.) Should the dealer bust, any player who has not yet busted shall win their hand.'"""
        rd = stacked_round(NOTICE, ["Ts 5s", "Th 4h"], "9c 7c", "Kd Td")
        rd.hit(1)
        rd.stand(2)
        assert rd.results() == {1: -1000, 2: 1000}

    def test_rule_8_higher_total_wins(self):
        """'8.) In the event that the dealer does not bust, the higher point total between the dealer
        and the player wins the hand.'"""
        rd = stacked_round(NOTICE, ["Ts 9s", "Th 6h"], "9c 9d")
        rd.stand(1)
        rd.stand(2)
        assert rd.results() == {1: 1000, 2: -1000}

    def test_rule_9_tie_pushes(self):
        """'9.) In the event of a tie between dealer and player, the game will be a "push" and the
        player receives back their bet.'"""
        rd = stacked_round(NOTICE, ["Ts 9s"], "9c Td")
        rd.stand(1)
        assert payouts(rd) == [(1, 0, "push", 0)]

    def test_insurance_not_offered_at_this_table(self):
        """The notice lists Hit, Stay, Double and Split only: no insurance at this preset."""
        rd = stacked_round(NOTICE, ["Ts 9s"], "Ac 7c")
        assert rd.phase == PLAYING
        with pytest.raises(OutOfTurn):
            rd.insurance(1, 500)


# ---------------------------------------------------------------------------------------
# Options that are not sentences of one document but are named house rules.
# ---------------------------------------------------------------------------------------
class TestHouseOptions:
    def test_three_to_two_rounds_down_to_the_cent(self):
        """docs/rules.md "Rounding": 3:2 on an odd number of cents rounds down."""
        rd = stacked_round(SYNDICATE.with_(min_bet=1), ["As Ks"], "9c 8c", bets={1: 25})
        assert rd.results() == {1: 37}

    def test_surrender_of_an_odd_bet_rounds_for_the_house(self):
        """docs/rules.md "Rounding": surrendering $0.25 returns $0.12."""
        rd = stacked_round(SYNDICATE.with_(min_bet=1), ["Ts 6s"], "Tc 7c", bets={1: 25})
        rd.surrender(1)
        assert payouts(rd) == [(1, 0, "surrender", -13)]

    @pytest.mark.parametrize("pays, win", [("6:5", 1200), ("1:1", 1000)])
    def test_blackjack_pays_option(self, pays, win):
        rd = stacked_round(SYNDICATE.with_(blackjack_pays=pays), ["As Ks"], "9c 8c")
        assert rd.results() == {1: win}

    def test_double_10_11(self):
        rules = SYNDICATE.with_(double_on="10-11")
        assert DOUBLE not in stacked_round(rules, ["5s 4s"], "9c 8c").legal_actions()
        assert DOUBLE in stacked_round(rules, ["6s 4s"], "9c 8c").legal_actions()

    def test_no_double_after_split(self):
        rd = stacked_round(SYNDICATE.with_(double_after_split=False), ["8s 8d"], "9c 8c", "3h 2h")
        rd.split(1)
        with pytest.raises(IllegalAction) as e:
            rd.double(1)
        assert e.value.rule == "double_after_split"

    def test_hit_split_aces_option(self):
        rd = stacked_round(SYNDICATE.with_(hit_split_aces=True), ["As Ad"], "9c 8c", "2h 3h 4h")
        rd.split(1)
        assert HIT in rd.legal_actions()
        rd.hit(1)
        assert rd.seats[1].hands[0].total == 16  # A-2 hit with a 3

    def test_late_surrender_after_the_peek(self):
        """Late surrender: offered only after the dealer has checked for blackjack."""
        rd = stacked_round(SYNDICATE, ["Ts 6s"], "Ac Kd")
        rd.no_insurance(1)
        assert rd.is_terminal and rd.results() == {1: -1000}  # no chance to surrender

    def test_early_surrender_against_a_blackjack(self):
        """Early surrender: offered before the peek, so it saves half even against a blackjack."""
        rd = stacked_round(SYNDICATE.with_(surrender="early", insurance=False, even_money=False),
                           ["Ts 6s", "9h 9d"], "Ac Kd")
        assert rd.phase == EARLY_SURRENDER
        assert rd.legal_actions() == [SURRENDER, "play_on"]
        rd.surrender(1)
        rd.play_on(2)
        assert rd.is_terminal and rd.results() == {1: -500, 2: -1000}

    def test_late_surrender_without_peek_loses_all_to_blackjack(self):
        rd = stacked_round(SYNDICATE.with_(hole_card="no_peek_obo", insurance=False, even_money=False),
                           ["Ts 6s"], "Tc Ad")
        rd.surrender(1)
        assert payouts(rd) == [(1, 0, "lose", -1000)]

    def test_obo_split_bust_counts_toward_the_original_bet(self):
        """The other reading of 7.3 (obo_split_bust="counts"): the busted split hand has paid the
        original bet, so the dealer's blackjack collects nothing more and the other bet comes back."""
        rd = stacked_round(JUPITERS.with_(obo_split_bust="counts"), ["8s 8d"], "Tc Ac", "5h Kh 3h")
        rd.split(1)
        rd.hit(1)  # 8+5 = 13, hit: K → 23, bust
        rd.stand(1)  # 8+3 = 11 stands
        assert payouts(rd) == [(1, 0, "bust", -1000), (1, 1, "push", 0)]
        assert rd.results() == {1: -1000}

    @pytest.mark.parametrize("reading", ["counts", "lost"])
    def test_obo_split_bust_is_the_same_without_a_bust(self, reading):
        """Without a bust both readings collect the original bet once from split and doubled hands."""
        rd = stacked_round(JUPITERS.with_(obo_split_bust=reading), ["8s 8d"], "Tc Ac", "2h 5h 3h 6h")
        rd.split(1)
        rd.double(1)
        rd.double(1)
        assert rd.results() == {1: -1000}

    def test_peek_ends_the_round_on_a_dealer_blackjack(self):
        rd = stacked_round(SYNDICATE, ["8s 8d"], "Tc Ad")
        assert rd.is_terminal and payouts(rd) == [(1, 0, "lose", -1000)]
        assert any(r.type == "peek" and r.blackjack for r in rd.log)

    def test_pay_naturals_at_the_end_without_the_option(self):
        rules = JUPITERS.with_(pay_naturals_immediately=False)
        rd = stacked_round(rules, ["As Ks", "Th 6h"], "9c 8c")
        assert payouts(rd) == []
        rd.stand(2)
        assert payouts(rd)[0] == (1, 0, "blackjack", 1500)

    def test_bets_fixed_at_rules_min_and_max(self):
        rd = Session(SYNDICATE.with_(min_bet=500, max_bet=600), {1: 10_000}, lambda r: Shoe.new(1)).new_round()
        rd.bet(1, 500)
        rd.bet(1, 600)
        with pytest.raises(BadAmount):
            rd.bet(1, 601)
        assert rd.seats[1].bet == 600
        assert rd.phase != SETTLED
