"""The game adapters at a real-cards table, without a server: the payouts the dealer is told for
each kind of settlement (insurance, a push, a surrender, a pot won by folds with its uncalled bet
back), always summing to the engine's results; a misdeal drops the hand; a new shoe only between
rounds; a shuffled table refuses every real-cards action (docs/dealer.md)."""

from __future__ import annotations

from typing import Any

import pytest

from syndicate.blackjack.rules import preset
from syndicate.core.errors import RuleError
from syndicate.poker.rules import DrawRules
from syndicate.room.errors import RoomError
from syndicate.room.games.blackjack import BlackjackGame
from syndicate.room.games.draw import DrawGame

STACKS = {1: 10_000, 2: 10_000, 3: 10_000}


def blackjack(real: bool = True, **rules: Any) -> BlackjackGame:
    game = BlackjackGame(preset("syndicate").with_(**rules), lambda: dict(STACKS), real=real)
    game.start_hand(1)
    return game


def deal(game: Any, *cards: str) -> None:
    for c in cards:
        assert game.card_needed is not None, f"no card needed for {c}"
        game.dealer_action("card", {"card": c})


def bets(game: BlackjackGame, amount: int = 1_000) -> None:
    for seat in STACKS:
        game.seat_action(seat, "bet", {"amount": amount})
    game.dealer_action("deal", {})


def texts(game: Any) -> dict[int | None, str]:
    return {p["seat"]: p["text"] for p in game.payouts()}


def test_insurance_and_the_dealer_blackjack_found_by_the_peek() -> None:
    game = blackjack()
    bets(game)
    deal(game, "9", "5", "A", "A", "9", "7", "K", "K")  # seat 3 has blackjack; the dealer A up, K in the hole
    assert game.payouts() is None  # in play: nothing to pay yet
    game.seat_action(1, "insurance", {})
    game.seat_action(2, "no_insurance", {})
    game.seat_action(3, "no_insurance", {})  # even money declined: the natural is played out
    assert not game.in_play  # the peek found the blackjack
    assert texts(game) == {
        1: "seat 1: push (insurance: pay $10.00 (insurance 2:1); hand 1: take $10.00)",
        2: "seat 2: take $10.00",
        3: "seat 3: push",
    }
    assert {p["seat"]: p["amount"] for p in game.payouts()} == game.round.results()


def test_a_surrender_and_a_win() -> None:
    game = blackjack()
    bets(game, 2_000)
    deal(game, "10", "10", "9", "6", "6", "9", "10", "10")  # up 6, hole 10: 16
    game.seat_action(1, "surrender", {})  # 16
    game.seat_action(2, "stand", {})  # 19
    game.seat_action(3, "stand", {})  # 20
    deal(game, "8")  # the dealer busts
    assert texts(game) == {1: "seat 1: take $10.00 (surrender: half the bet back)",
                           2: "seat 2: pay $20.00 (win 1:1)", 3: "seat 3: pay $20.00 (win 1:1)"}
    assert sum(p["amount"] for p in game.payouts()) == sum(game.round.results().values())


def test_a_misdeal_drops_the_round_and_a_new_shoe_waits_for_the_next() -> None:
    game = blackjack()
    bets(game)
    deal(game, "9", "5")
    key = game.shoe_key
    assert game.shoe is None and key.startswith("entered-")
    with pytest.raises(RoomError) as e:
        game.dealer_action("new_shoe", {})
    assert e.value.rule == "round_in_play"
    game.void_hand()
    assert not game.in_play and not game.has_hand and game.table_view() == {"cards": "real", "voided": 1}
    assert game.dealer_action("new_shoe", {}) is False  # the table changed, not a hand
    game.start_hand(2)
    assert game.shoe_key != key and game.table_view()["voided"] is None


def test_a_shuffled_table_refuses_every_real_cards_action() -> None:
    game = blackjack(real=False)
    bets(game)
    for action in ("card", "take_back", "new_shoe"):
        with pytest.raises(RoomError) as e:
            game.dealer_action(action, {"card": "K"})
        assert e.value.rule == "card_source"
    with pytest.raises(RoomError) as e:
        game.void_hand()
    assert e.value.rule == "card_source"
    assert game.shoe is not None and game.shoe_key == game.shoe.commitment


def test_a_draw_pot_won_by_folds_returns_the_uncalled_bet() -> None:
    """Nothing is entered: the cards are dealt face down and nobody shows (docs/dealer.md)."""
    rules = DrawRules()
    game = DrawGame(rules, lambda: {1: 1_000, 2: 1_000, 3: 1_000}, real=True)
    game.start_hand(1)
    assert game.card_needed is None
    first = game.to_act
    assert first is not None
    game.seat_action(first, "bet", {"amount": rules.min_bet})
    while game.in_play:
        game.seat_action(game.to_act, "fold", {})  # type: ignore[arg-type]
    ante = rules.ante
    (won,) = [p for p in game.payouts() if p["amount"] > 0]
    assert won["seat"] == first and won["net"] == 2 * ante
    assert won["text"] == (f"seat {first}: give ${(3 * ante + rules.min_bet) // 100}.{(3 * ante + rules.min_bet) % 100:02d} "
                           f"(${rules.min_bet // 100}.{rules.min_bet % 100:02d}: uncalled bet back; "
                           f"${3 * ante // 100}.{3 * ante % 100:02d}: the pot, everyone else folded)")
    assert sum(p["net"] for p in game.payouts()) == 0
    assert {p["seat"]: p["net"] for p in game.payouts()} == game.round.results()
    assert not [r for r in game.round.log if r.type in ("card", "show")]


def draw_game(stacks: dict[int, int] | None = None) -> DrawGame:
    game = DrawGame(DrawRules(), lambda: dict(stacks or STACKS), real=True)
    game.start_hand(1)
    return game


def test_a_real_draw_runs_on_counts_and_the_showdown_is_entered() -> None:
    game = draw_game()
    rd = game.round
    assert rd is not None and rd.shown_only and game.card_needed is None
    view = game.round_view("dealer", None)
    assert view["deal_text"] == "deal five cards face down to each player (seats 2, 3, 1)"
    assert view["ruling_text"] is None and view["card_needed_text"] is None
    for seat in (2, 3, 1):
        game.seat_action(seat, "check", {})
    assert game.round_view(2, None)["deal_text"] is None  # dealt: betting began
    for bad in ({"discards": ["7h", "2c"]}, {"count": "2"}, {"count": True}, {}):
        with pytest.raises(RoomError) as e:
            game.seat_action(2, "draw", bad)
        assert e.value.rule == "count" and "say how many you throw" in e.value.message
    with pytest.raises(RuleError) as e2:
        game.seat_action(2, "draw", {"count": 5})
    assert e2.value.rule == "draw.limit"
    game.seat_action(2, "draw", {"count": 3})
    assert game.round_view(1, None)["deal_text"] == "deal seat 2 three cards face down"
    game.seat_action(3, "draw", {"count": 4})
    game.seat_action(1, "stand_pat", {})
    for seat in (2, 3, 1):
        game.seat_action(seat, "check", {})
    assert game.round_view("spectator", None)["card_needed_text"] == "seat 2's first card (the showdown)"
    deal(game, *"As Ks Qs Js 9s 2c 3d 4h 5s 7c 8h 8d 8c 6d 6s".split())  # seat 3 drew four: no Ace
    view = game.round_view("dealer", None)
    assert view["ruling_text"] == ("seat 3 drew four cards but shows no Ace: the hand is dead (it wins nothing), "
                                   "or it stands")
    assert game.in_play and game.payouts() is None
    for bad in ({"seat": 3}, {"seat": 3, "dead": "yes"}, {"dead": True}):
        with pytest.raises(RoomError) as e:
            game.dealer_action("ruling", bad)
        assert e.value.rule == "ruling"
    assert game.dealer_action("ruling", {"seat": 3, "dead": True}) is True
    assert not game.in_play
    assert texts(game) == {2: "seat 2: nothing", 3: "seat 3: nothing",
                           1: "seat 1: give $1.50 ($1.50: the pot, Full House, Eights over Sixes)"}
    assert {p["seat"]: p["net"] for p in game.payouts()} == game.round.results() == {1: 100, 2: -50, 3: -50}


def test_the_deck_running_out_tells_the_dealer_what_to_do() -> None:
    game = draw_game({s: 1_000 for s in range(1, 8)})
    order = game.round.order  # type: ignore[union-attr]
    for seat in order:
        game.seat_action(seat, "check", {})
    for seat in order[:5]:
        game.seat_action(seat, "draw", {"count": 3})
    sixth = order[5]
    game.seat_action(sixth, "draw", {"count": 3})
    assert game.round_view("dealer", None)["deal_text"] == (
        f"deal seat {sixth} the last two of the deck; then the deck is out: shuffle the discards (keep seat "
        f"{sixth}'s own discards aside) and deal one more from them")
    assert game.round_view("dealer", None)["deck"] == {"left": 14, "mucked": 3}


def test_a_bot_at_a_real_draw_table_plays_blind() -> None:
    """Its cards lie face down before its chair and nobody sees them: it checks or calls and
    stands pat, and the dealer enters its hand at the showdown."""
    game = draw_game()
    bots = frozenset({1, 2, 3})
    moves = []
    while game.bot_pending(bots) is not None:
        seat = game.bot_pending(bots)
        moves.append(game.bot_move(seat))  # type: ignore[arg-type]
    assert moves == ["check"] * 3 + ["stand_pat"] * 3 + ["check"] * 3
    assert game.card_needed is not None and game.card_needed.why == "show"


def test_a_ruling_at_a_shuffled_table_is_refused() -> None:
    game = DrawGame(DrawRules(), lambda: dict(STACKS), real=False)
    game.start_hand(1)
    with pytest.raises(RoomError) as e:
        game.dealer_action("ruling", {"seat": 1, "dead": True})
    assert e.value.rule == "card_source"
    assert "deal_text" not in game.round_view("dealer", None)


def test_the_card_that_settles_a_hand_can_be_taken_back() -> None:
    """A peek game: a hole card mistyped as an Ace under a ten ends the round at the peek. The
    card that settled it can be taken back (the room says until when): the round is in play
    again at that card, nothing of the settlement left in its stacks or payouts."""
    game = blackjack()
    bets(game)
    deal(game, "10", "9", "8", "10", "7", "7", "7")  # seats 17, 16, 15; the dealer's 10 up
    before = game.hand_stacks()
    deal(game, "A")  # the hole card, mistyped: blackjack at the peek
    assert not game.in_play and game.round.hole_revealed and game.can_take_back()
    assert {p["seat"]: p["net"] for p in game.payouts()} == {1: -1_000, 2: -1_000, 3: -1_000}
    assert game.dealer_action("take_back", {}) is True
    assert game.in_play and game.hand_stacks() == before and game.payouts() is None
    assert game.card_needed is not None and game.card_needed.why == "hole"
    deal(game, "6")  # the card that was dealt: 16, no blackjack
    assert game.in_play and game.to_act == 1


def test_a_card_is_not_taken_back_past_a_decision_even_once_settled() -> None:
    game = blackjack()
    bets(game)
    deal(game, "10", "10", "10", "10", "10", "10", "10", "7")  # everyone 20, the dealer 17
    for seat in STACKS:
        game.seat_action(seat, "stand", {})
    assert not game.in_play and not game.can_take_back()  # the last input was a stand
    with pytest.raises(RuleError) as e:
        game.dealer_action("take_back", {})
    assert e.value.rule == "take_back" and "'stand' came after it" in e.value.message


def test_a_misdeal_once_the_hole_card_is_turned_is_refused() -> None:
    """The dealer's turn: the hole card is turned and the round's outcome is seen, though no bet
    is settled yet; a misdeal then would let the house (or a friend of the dealer's) void a
    round it saw going wrong (docs/dealer.md, "Misdeal: the rule")."""
    game = blackjack()
    bets(game)
    deal(game, "10", "10", "10", "9", "8", "7", "6", "5")  # the dealer 6 up, 5 in the hole: 11
    for seat in STACKS:
        assert game.misdeal_refusal() is None
        game.seat_action(seat, "stand", {})
    assert game.card_needed is not None and game.card_needed.why == "dealer"
    with pytest.raises(RoomError) as e:
        game.void_hand()
    assert e.value.rule == "misdeal" and "the hole card is turned" in e.value.message
    assert game.in_play and game.round.hole_revealed  # nothing changed


def test_a_draw_hand_settled_by_a_card_can_be_taken_back_until_the_next() -> None:
    """The last card entered at the showdown settles a draw hand. It can be taken back until the
    next hand starts (the table takes the hand's result in then, or at an ante proposal), and
    the showdown then ends with the right card."""
    stacks = {1: 1_000, 2: 1_000}
    game = draw_game(stacks)
    order = game.round.order  # type: ignore[union-attr]
    for action in ("check", "stand_pat", "check"):
        for seat in order:
            game.seat_action(seat, action, {})
    first, second = order
    deal(game, *"Ac Ad 4h 5s 9s Kc Kd 7h 8d".split())  # the first shows a pair of Aces, the second two Kings so far
    deal(game, "2s")  # the showdown's last card, mistyped: the Aces win, the hand is settled
    assert [p["seat"] for p in game.payouts() if p["amount"] > 0] == [first]
    game.hand_over()  # the hand's last card can still go back: the table waits
    assert not game.in_play and game.can_take_back() and game.draw_table.hand is game.round
    game.dealer_action("take_back", {})
    assert game.in_play and game.card_needed is not None and game.card_needed.why == "show"
    assert game.payouts() is None and sum(game.hand_stacks().values()) == 2_000 - 2 * DrawRules().ante
    deal(game, "Kh")  # the card shown: three Kings
    assert not game.in_play and [p["seat"] for p in game.payouts() if p["amount"] > 0] == [second]
    game.hand_over()
    assert game.can_take_back()  # settled by a card again
    stacks.update(game.hand_stacks())  # the table's seats, as the actor keeps them
    game.dealer_action("propose_ante", {"amount": 2 * DrawRules().ante})  # between hands: the result taken in
    assert game.draw_table.hand is None and not game.can_take_back()
    with pytest.raises(RoomError) as e:
        game.dealer_action("take_back", {})
    assert e.value.rule == "take_back" and "the table has taken its result in" in e.value.message


def test_no_misdeal_before_the_first_card() -> None:
    """Nothing is dealt yet: there is nothing to void (the tablet's Misdeal is disabled then)."""
    game = blackjack()
    for seat in STACKS:
        game.seat_action(seat, "bet", {"amount": 1_000})
    assert game.misdeal_refusal() == "no card has been dealt yet: there is nothing to void"  # bets open
    game.dealer_action("deal", {})
    with pytest.raises(RoomError) as e:
        game.void_hand()
    assert e.value.rule == "misdeal" and "no card has been dealt yet" in e.value.message
    deal(game, "9")
    assert game.misdeal_refusal() is None
