"""One scripted test per sentence of the seed's poker section ("The Blackjack Syndicate —
Rules of Play", Poker (5 Draw)), each quoting the sentence it enforces, on stacked decks."""

from __future__ import annotations

import pytest

from syndicate.core.cards import parse
from syndicate.core.errors import BadAmount, IllegalAction, OutOfTurn
from syndicate.core.shoe import Shoe
from syndicate.poker import evaluate
from syndicate.poker.rules import DrawRules
from syndicate.poker.state import DRAW, FIRST_BETTING, SECOND_BETTING, SETTLED
from syndicate.poker.table import DrawTable
from syndicate.poker.views import log_view, view

from .conftest import deal, finish_checking

# Three players: seat 3 deals (the button), so seat 1 is left of the dealer.
HANDS = {1: "As Ad Kc Qh 2s", 2: "7c 7d 7h 9s 3c", 3: "Jh Th 8c 4h 2h"}


def test_everyone_antes_the_same_amount_each_hand() -> None:
    """ "Everyone antes the same amount each hand." """
    hand = deal(HANDS, button=3, rules=DrawRules(ante=150))
    antes = [r for r in hand.log if r.type == "ante"]
    assert [(r.seat, r.amount) for r in antes] == [(1, 150), (2, 150), (3, 150)]
    assert hand.pot == 450 and all(hand.stacks[s] == 10_000 - 150 for s in (1, 2, 3))


def test_standard_ante_is_fifty_cents_agreed_between_fifty_cents_and_five_dollars() -> None:
    """ "The standard ante is $0.50, but players may agree before the game to use any amount
    between $0.50 and $5." """
    assert DrawRules().ante == 50
    assert DrawRules(ante=500).ante == 500 and DrawRules(ante=50).ante == 50
    from syndicate.core.errors import ConfigError
    for bad in (0, 25, 550, 1000):
        with pytest.raises(ConfigError, match="ante"):
            DrawRules(ante=bad)


def test_host_may_raise_the_ante_before_a_hand_if_all_players_agree() -> None:
    """ "The host/dealer may raise the ante before a hand begins, provided all players agree." """
    table = DrawTable({1: 5000, 2: 5000, 3: 5000})
    table.propose_ante("dealer", 100)
    table.accept_ante(1)
    table.accept_ante(2)
    assert table.rules.ante == 50 and table.waiting_for == [3]  # not everyone yet
    hand = table.start_hand(Shoe.from_seed(bytes(32), decks=1, penetration=1.0, burn=0))
    assert {r.amount for r in hand.log if r.type == "ante"} == {50}
    with pytest.raises(OutOfTurn, match="before a hand"):
        table.accept_ante(3)  # not while a hand is being played
    finish_checking(hand)
    table.finish()
    table.accept_ante(3)
    assert table.rules.ante == 100
    hand = table.start_hand(Shoe.from_seed(bytes(range(32)), decks=1, penetration=1.0, burn=0))
    assert {r.amount for r in hand.log if r.type == "ante"} == {100}
    with pytest.raises(OutOfTurn):
        table.propose_ante("dealer", 200)  # "before a hand begins"


def test_no_player_may_unilaterally_increase_their_own_ante() -> None:
    """ "No player may unilaterally increase their own ante." """
    table = DrawTable({1: 5000, 2: 5000, 3: 5000}, host=1)
    with pytest.raises(IllegalAction, match="only the host"):
        table.propose_ante(2, 500)
    assert table.proposal is None and table.rules.ante == 50
    table.propose_ante(1, 500)  # even the host only proposes: the others must agree
    assert table.rules.ante == 50
    table.accept_ante(2)
    assert table.rules.ante == 50
    table.accept_ante(3)
    assert table.rules.ante == 500


def test_bad_ante_proposals_change_nothing() -> None:
    table = DrawTable({1: 5000, 2: 5000})
    for bad, err in ((25, BadAmount), (600, BadAmount), (75, BadAmount), ("1", BadAmount)):
        with pytest.raises(err):
            table.propose_ante("dealer", bad)  # type: ignore[arg-type]
    assert table.proposal is None and table.rules.ante == 50
    with pytest.raises(IllegalAction, match="no ante proposal"):
        table.accept_ante(1)


def test_each_player_including_the_dealer_receives_five_private_cards() -> None:
    """ "Each player, including the dealer, receives 5 private cards face down." """
    hand = deal(HANDS, button=3)
    assert {s: parse(HANDS[s]) for s in HANDS} == hand.cards
    assert hand.button == 3 and len(hand.cards[3]) == 5
    for viewer in (1, 2, 3, "spectator", "dealer"):
        seen = {d["seat"]: d["cards"] for d in view(hand, viewer)["seats"]}
        for s in (1, 2, 3):
            assert seen[s] == (HANDS[s].split() if s == viewer else ["??"] * 5)


def test_betting_starts_left_of_the_dealer_and_moves_clockwise() -> None:
    """ "Starting left of the dealer and moving clockwise, players may:" """
    hand = deal({2: HANDS[1], 4: HANDS[2], 6: HANDS[3], 7: "Kd Ks 5c 5d 6c"}, button=4)
    assert hand.phase == FIRST_BETTING
    seen = []
    while hand.phase == FIRST_BETTING:
        seen.append(hand.to_act)
        hand.check(hand.to_act)
    assert seen == [6, 7, 2, 4]  # the dealer (seat 4) acts last
    assert hand.phase == DRAW and hand.to_act == 6


def test_check_only_until_a_bet_is_made() -> None:
    """ "Check → (no bet) (But you can’t check anymore once a bet has been made — then you
    either match (call), raise, or fold.)" """
    hand = deal(HANDS, button=3)
    assert hand.legal_actions() == ["check", "bet", "fold"]
    hand.check(1)
    hand.bet(2, 100)
    assert hand.legal_actions() == ["call", "raise", "fold"]
    assert not hand.can_check(3)
    with pytest.raises(IllegalAction, match="can't check once a bet") as info:
        hand.check(3)
    assert info.value.rule == "check"
    hand.call(3)
    assert not hand.can_check(1)
    hand.fold(1)
    assert hand.phase == DRAW


def test_bet_between_fifty_cents_and_five_dollars() -> None:
    """ "Bet → between $0.50 and $5" """
    hand = deal(HANDS, button=3)
    for bad in (0, 25, 49, 501, 550, 1000, -50):
        assert not hand.can_bet(1, bad)
        with pytest.raises(BadAmount):
            hand.bet(1, bad)
    with pytest.raises(BadAmount, match="whole chips"):
        hand.bet(1, 75)  # amounts are in the table's chips of $0.50
    assert hand.can_bet(1, 50) and hand.can_bet(1, 500)
    assert hand.bet_range(1) == (50, 500)
    r = hand.bet(1, 500)
    assert r.to_json() == {"type": "bet", "seat": 1, "amount": 500, "all_in": False}
    with pytest.raises(IllegalAction, match="already been made"):
        hand.bet(2, 100)


def test_call_matches_the_highest_bet() -> None:
    """ "Call → match the highest bet already made" """
    hand = deal(HANDS, button=3)
    hand.bet(1, 100)
    hand.raise_(2, 300)
    r = hand.call(3)
    assert r.amount == 400 and hand.street[3] == 400 == hand.current_bet
    r = hand.call(1)
    assert r.amount == 300 and hand.street[1] == 400
    assert hand.phase == DRAW


def test_raise_increases_the_bet_by_fifty_cents_to_five_dollars() -> None:
    """ "Raise → increase the bet (in increments between $0.50 and $5)." """
    hand = deal(HANDS, button=3)
    hand.bet(1, 200)
    for bad in (25, 501, 600, 0):
        with pytest.raises(BadAmount):
            hand.raise_(2, bad)
    with pytest.raises(BadAmount, match="whole chips"):
        hand.raise_(2, 125)
    assert hand.raise_range(2) == (50, 500)
    r = hand.raise_(2, 500)
    assert (r.by, r.amount, r.to) == (500, 700, 700)
    r = hand.raise_(3, 50)
    assert (r.by, r.amount, r.to) == (50, 750, 750)


def test_raises_are_capped_per_round() -> None:
    """The seed sets no limit on raises; the default cap is a bet and three raises."""
    hand = deal(HANDS, button=3)
    hand.bet(1, 100)
    hand.raise_(2, 100)
    hand.raise_(3, 100)
    hand.raise_(1, 100)
    assert "raise" not in hand.legal_actions()
    with pytest.raises(IllegalAction) as info:
        hand.raise_(2, 100)
    assert info.value.rule == "raise.cap"
    hand.call(2)
    hand.call(3)
    assert hand.phase == DRAW
    uncapped = deal(HANDS, button=3, rules=DrawRules(raise_cap=None))
    uncapped.bet(1, 50)
    for _ in range(10):
        uncapped.raise_(uncapped.to_act, 50)
    assert uncapped.raises == 10


def test_fold_drops_out_and_loses_the_ante() -> None:
    """ "Fold → drop out and lose their ante." """
    hand = deal(HANDS, button=3)
    hand.bet(1, 100)
    hand.fold(2)
    hand.fold(3)
    assert hand.phase == SETTLED
    assert hand.results() == {1: 100, 2: -50, 3: -50}
    # The winner's hand is not shown, and folded hands never are.
    assert not [r for r in hand.log if r.type == "show"]
    for viewer in ("spectator", 2, 3):
        cards = {d["seat"]: d["cards"] for d in view(hand, viewer)["seats"]}
        assert cards[1] == ["??"] * 5
    assert view(hand, 1)["seats"][1]["cards"] is None


def test_discard_and_replace_up_to_three_cards() -> None:
    """ "Each player may discard and replace up to 3 cards (sometimes 4 if the 5th is an Ace)." """
    hand = deal(HANDS, button=3, draws="Ks Kh Kd 5c 6c 2c 3d 4d")
    finish_round = [hand.check(s) for s in (1, 2, 3)]
    assert len(finish_round) == 3 and hand.phase == DRAW
    with pytest.raises(IllegalAction) as info:
        hand.draw(1, "As Ad Kc Qh")  # four, keeping the 2s: not an Ace
    assert info.value.rule == "draw.limit"
    r = hand.draw(1, "Kc Qh 2s")
    assert r.received == tuple(parse("Ks Kh Kd")) and r.shown is None
    assert hand.cards[1] == parse("As Ad Ks Kh Kd")
    # Four only when the card kept is an Ace, which the player shows.
    with pytest.raises(IllegalAction, match="4 when the card you keep is an Ace"):
        hand.draw(2, "7c 7d 7h 9s")
    hand.stand_pat(2)
    hand3 = deal({1: "As Kd 9c 5h 2s", 2: HANDS[2], 3: HANDS[3]}, button=3, draws="Ah Kh Qh 9h")
    for s in (1, 2, 3):
        hand3.check(s)
    r = hand3.draw(1, "Kd 9c 5h 2s")
    assert r.shown == parse("As")[0] and len(r.received) == 4
    assert hand3.cards[1] == parse("As Ah Kh Qh 9h")
    for viewer in (2, 3, "spectator"):
        assert view(hand3, viewer)["seats"][0]["cards"] == ["As", "??", "??", "??", "??"]
        logged = [d for d in log_view(hand3, viewer) if d["type"] == "draw"][0]
        assert logged["shown"] == "As" and logged["received"] == ["??"] * 4
    with pytest.raises(IllegalAction):
        hand3.draw(2, "7c 7d 7h 9s 3c")  # never five
    assert DrawRules(ace_discard=False).ace_discard is False
    strict = deal({1: "As Kd 9c 5h 2s", 2: HANDS[2]}, button=2, rules=DrawRules(ace_discard=False))
    strict.check(1)
    strict.check(2)
    with pytest.raises(IllegalAction, match="up to 3"):
        strict.draw(1, "Kd 9c 5h 2s")


def test_stand_pat_keeps_all_five() -> None:
    """ "A player may also “stand pat” and keep all 5 cards." """
    hand = deal(HANDS, button=3)
    for s in (1, 2, 3):
        hand.check(s)
    assert hand.legal_actions() == ["draw", "stand_pat"]
    r = hand.stand_pat(1)
    assert r.to_json() == {"type": "stand_pat", "seat": 1}
    assert hand.cards[1] == parse(HANDS[1])
    hand.draw(2, [])  # drawing nothing is standing pat too
    assert hand.log[-1].type == "stand_pat"


def test_second_betting_round_same_as_the_first() -> None:
    """ "Another betting round, same as the first." (check, bet, call, raise, fold) """
    hand = deal(HANDS, button=3)
    for s in (1, 2, 3):
        hand.check(s)
    for s in (1, 2, 3):
        hand.stand_pat(s)
    assert hand.phase == SECOND_BETTING and hand.to_act == 1
    assert hand.legal_actions() == ["check", "bet", "fold"]
    hand.check(1)
    with pytest.raises(BadAmount):
        hand.bet(2, 600)
    hand.bet(2, 500)
    with pytest.raises(IllegalAction):
        hand.check(3)
    hand.raise_(3, 500)
    hand.call(1)
    hand.call(2)
    assert hand.phase == SETTLED


def test_fold_in_the_second_round_loses_ante_and_first_bet() -> None:
    """ "Fold → drop out and lose their ante and first bet (if any placed)." """
    hand = deal(HANDS, button=3)
    hand.bet(1, 200)
    hand.call(2)
    hand.call(3)
    for s in (1, 2, 3):
        hand.stand_pat(s)
    hand.bet(1, 100)
    hand.fold(2)
    hand.fold(3)
    assert hand.results() == {1: 500, 2: -250, 3: -250}


def test_showdown_everyone_reveals_and_best_hand_wins() -> None:
    """ "All players still in the hand reveal their cards." and "The best 5-card Poker hand
    wins the pot." """
    hand = deal(HANDS, button=3)
    hand.bet(1, 100)
    hand.call(2)
    hand.fold(3)
    hand.stand_pat(1)
    hand.stand_pat(2)
    hand.check(1)
    hand.check(2)
    shows = {r.seat: r.name for r in hand.log if r.type == "show"}
    assert shows == {1: "One Pair, Aces (K Q 2 kickers)", 2: "Three of a Kind, Sevens (9 3 kickers)"}
    assert hand.results() == {1: -150, 2: 200, 3: -50}
    spectator = {d["seat"]: d["cards"] for d in view(hand, "spectator")["seats"]}
    assert spectator == {1: HANDS[1].split(), 2: HANDS[2].split(), 3: None}


def test_tie_splits_the_pot_evenly() -> None:
    """ "If multiple players tie, the pot is split evenly." """
    hand = deal({1: "As Kd Qc Jh 9s", 2: "Ac Kh Qd Js 9d", 3: "2c 3d 4h 5s 7c"}, button=3)
    hand.bet(1, 100)
    hand.call(2)
    hand.call(3)
    finish_checking(hand)
    # $4.50 is nine chips: four each, one carries (see the next test).
    assert hand.awards == {1: 200, 2: 200} and hand.carry_out == 50
    two = deal({1: "As Kd Qc Jh 9s", 2: "Ac Kh Qd Js 9d"}, button=2)
    two.bet(1, 100)
    two.call(2)
    finish_checking(two)
    assert two.results() == {1: 0, 2: 0} and two.awards == {1: 150, 2: 150}
    assert two.carry_out == 0


def test_remainder_in_whole_chips_carries_over() -> None:
    """ "If the pot cannot be divided evenly using available chips, each winning player
    receives the nearest whole chip value. Any leftover chips (the remainder) carry over into
    the next pot." """
    # Three antes of $0.50 ($1.50, three chips) split two ways: $0.50 each, one chip carries.
    hand = deal({1: "As Kd Qc Jh 9s", 2: "Ac Kh Qd Js 9d", 3: "2c 3d 4h 5s 7c"}, button=3)
    finish_checking(hand)
    assert hand.awards == {1: 50, 2: 50}
    assert hand.carry_out == 50
    assert [r.to_json() for r in hand.log if r.type == "carry"] == [{"type": "carry", "amount": 50, "pot": 0}]
    assert hand.chips_total() == 30_000
    # ... into the next pot, which the next hand's winner takes.
    nxt = deal(HANDS, button=1, carry_in=hand.carry_out)
    assert nxt.pot == 200
    finish_checking(nxt)
    assert nxt.awards == {2: 200}


def test_table_carries_the_remainder_into_the_next_hand() -> None:
    table = DrawTable({1: 1000, 2: 1000, 3: 1000}, button=3)
    from .conftest import deck_order
    tie = deck_order({1: "As Kd Qc Jh 9s", 2: "Ac Kh Qd Js 9d", 3: "2c 3d 4h 5s 7c"}, 3)
    hand = table.start_hand(Shoe.stacked(" ".join(tie)))
    finish_checking(hand)
    table.finish()
    assert table.carry == 50 and sum(table.seats.values()) + table.carry == 3000
    assert table.button == 1  # the button moves left
    nxt = deck_order(HANDS, 1)
    hand2 = table.start_hand(Shoe.stacked(" ".join(nxt)))
    assert hand2.carry_in == 50 and table.carry == 0
    finish_checking(hand2)
    table.finish()
    assert table.carry == 0 and table.seats[2] == 1000 + 200 - 50
    assert sum(table.seats.values()) == 3000


def test_odd_chip_alternative_left_of_button() -> None:
    rules = DrawRules(odd_chip="left_of_button")
    hand = deal({1: "2c 3d 4h 5s 7c", 2: "As Kd Qc Jh 9s", 3: "Ac Kh Qd Js 9d"}, button=3, rules=rules)
    finish_checking(hand)
    # Seat 2 is nearer the button's left than seat 3: it gets the odd chip.
    assert hand.awards == {2: 100, 3: 50} and hand.carry_out == 0


@pytest.mark.parametrize(("quote", "text"), [
    ("Royal Flush – A, K, Q, J, 10 of the same suit.", "As Ks Qs Js Ts"),
    ("Straight Flush – Five cards in sequence, all same suit.", "9d 8d 7d 6d 5d"),
    ("Four of a Kind – Four cards of the same rank.", "9d 9c 9h 9s 5d"),
    ("Full House – Three of a kind + a pair.", "9d 9c 9h 5s 5d"),
    ("Flush – Five cards of the same suit (not in sequence).", "Kd 9d 7d 6d 5d"),
    ("Straight – Five cards in sequence (any suits).", "9d 8c 7d 6h 5d"),
    ("Three of a Kind – Three cards of the same rank.", "9d 9c 9h Ks 5d"),
    ("Two Pair – Two different pairs.", "9d 9c 5h 5s Kd"),
    ("One Pair – Two cards of the same rank.", "9d 9c 5h 4s Kd"),
    ("High Card – None of the above; highest single card wins.", "Ad 9c 5h 4s Kd"),
])
def test_hand_rankings_highest_to_lowest(quote: str, text: str) -> None:
    """ "Poker Hand Rankings (Highest to lowest – use the best 5 cards)" """
    category = quote.split(" – ")[0]
    assert evaluate(text).category == category


def test_rankings_are_ordered_highest_to_lowest() -> None:
    ladder = ["As Ks Qs Js Ts", "9d 8d 7d 6d 5d", "9d 9c 9h 9s 5d", "9d 9c 9h 5s 5d",
              "Kd 9d 7d 6d 5d", "9d 8c 7d 6h 5d", "9d 9c 9h Ks 5d", "9d 9c 5h 5s Kd",
              "9d 9c 5h 4s Kd", "Ad 9c 5h 4s Kd"]
    values = [evaluate(t) for t in ladder]
    assert values == sorted(values, reverse=True)
    # "highest single card wins"
    assert evaluate("Ad 9c 5h 4s 2d") > evaluate("Kd Qc Jh 9s 7d")


def test_ten_high_straight_flush_below_royal() -> None:
    """ "Royal Flush ... The best possible hand is the combination of ten, jack, queen, king,
    ace, all of the same suit" """
    assert evaluate("As Ks Qs Js Ts").rank == 1
    assert evaluate("Ks Qs Js Ts 9s").rank == 2
