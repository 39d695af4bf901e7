"""Invariants over thousands of random rounds under random rule sets."""

from __future__ import annotations

import json
import random

from hypothesis import given
from hypothesis import strategies as st

from syndicate.blackjack import history, views
from syndicate.blackjack.round import Round
from syndicate.blackjack.rules import (
    BLACKJACK_PAYS,
    DOUBLE_ON,
    HOLE_CARD,
    SPLIT_BY,
    SURRENDER,
    Rules,
)
from syndicate.blackjack.session import Session
from syndicate.core.errors import RuleError
from syndicate.core.shoe import Shoe

from .stack import strings

rules_strategy = st.builds(
    Rules,
    decks=st.integers(1, 8),
    penetration=st.sampled_from([0.25, 0.5, 0.75, 0.9, 1.0]),
    burn_card=st.booleans(),
    dealer_hits_soft_17=st.booleans(),
    blackjack_pays=st.sampled_from(BLACKJACK_PAYS),
    double_on=st.sampled_from(DOUBLE_ON),
    double_for_less=st.booleans(),
    double_after_split=st.booleans(),
    max_split_hands=st.integers(1, 4),
    split_by=st.sampled_from(SPLIT_BY),
    resplit_aces=st.booleans(),
    hit_split_aces=st.booleans(),
    surrender=st.sampled_from(SURRENDER),
    hole_card=st.sampled_from(HOLE_CARD),
    pay_naturals_immediately=st.booleans(),
    insurance=st.booleans(),
    even_money=st.booleans(),
    min_bet=st.sampled_from([1, 25, 100]),
    max_bet=st.sampled_from([100, 2_000, 50_000]),
    seats=st.integers(1, 7),
)


def chips_accounted(rd: Round) -> int:
    """Stacks + chips still on the table + what the house has taken so far."""
    house = -sum(r.net for r in rd.log if r.type == "payout")
    return sum(s.stack + s.at_risk for s in rd.seats.values()) + house


def random_action(rd: Round, rng: random.Random) -> None:
    """Any legal action, with random (legal or not) amounts; sometimes a player walks away."""
    seat = rd.to_act
    assert seat is not None, "a live round always has someone to act"
    legal = rd.legal_actions()
    assert legal, "a live round always offers at least one action"
    if rng.random() < 0.01:
        rd.leave(seat)
        return
    action = rng.choice(legal)
    if action == "insurance":
        amount = rng.choice([None, 1, rd.seats[seat].bet // 2]) or None
        rd.insurance(seat, amount if rd.can_insurance(seat, amount) else None)
    elif action == "double" and rd.rules.double_for_less and rng.random() < 0.5:
        amount = rng.randint(1, rd.current_hand.bet)
        if rd.can_double(seat, amount):
            rd.double(seat, amount)
        else:
            rd.double(seat)
    else:
        getattr(rd, action)(seat)


def play_session(rules: Rules, seed: bytes, rng: random.Random, rounds: int) -> Session:
    nseats = rng.randint(1, rules.seats)
    seats = rng.sample(range(1, rules.seats + 1), nseats)
    stacks = {s: rng.choice([rules.min_bet, rules.min_bet * 3, 5_000, 1_000_000]) for s in seats}
    counter = iter(range(10**6))
    session = Session(
        rules, stacks,
        lambda r: Shoe.from_seed(
            bytes(a ^ b for a, b in zip(seed, next(counter).to_bytes(32, "big"))),
            r.decks, r.penetration, 1 if r.burn_card else 0,
        ),
    )
    total = sum(stacks.values())
    for _ in range(rounds):
        rd = session.new_round()
        round_total = sum(session.stacks.values())
        for s, stack in session.stacks.items():
            if stack >= rules.min_bet and rng.random() < 0.9:
                rd.bet(s, rng.randint(rules.min_bet, min(stack, rules.max_bet)))
        if not rd.can_deal():
            break
        start = rd.shoe.position
        rd.deal()
        hole = rd.dealer[1]
        steps = 0
        while not rd.is_terminal:
            assert chips_accounted(rd) == round_total
            check_views_hide(rd, hole)
            random_action(rd, rng)
            steps += 1
            assert steps < 200, "a round must end"
        assert chips_accounted(rd) == round_total
        # Every seat's hands and insurance are settled at the end.
        assert all(h.settled for s in rd.seats.values() for h in s.hands)
        assert all(s.at_risk == 0 for s in rd.seats.values())
        # No card dealt twice: the round's cards are the next cards of the shoe, in order.
        dealt = [r.card for r in rd.log if r.type == "card"]
        assert dealt == rd.shoe.order[start:rd.shoe.position]
        assert rd.house_result == -sum(rd.results().values())
        session.finish_round()
        assert sum(session.stacks.values()) + sum(
            -sum(rr.results().values()) for _, _, rr in session.rounds
        ) == total
    session.close()
    return session


def check_views_hide(rd: Round, hole) -> None:
    if rd.hole_revealed:
        return
    visible = {c.text for s in rd.seats.values() for h in s.hands for c in h.cards} | {rd.dealer[0].text}
    for viewer in [*rd.seats, "spectator", "dealer"]:
        view = views.view(rd, viewer)
        assert view["dealer"]["cards"][1] is None
        if hole.text not in visible:
            assert hole.text not in strings(view)
            assert hole.text not in strings(views.log_view(rd, viewer))
    assert hole.text not in repr(rd)


@given(rules=rules_strategy, seed=st.binary(min_size=32, max_size=32), rng=st.randoms(use_true_random=False))
def test_random_rounds_conserve_chips_hide_cards_and_replay(rules, seed, rng):
    session = play_session(rules, seed, rng, rounds=8)
    doc = json.loads(json.dumps(session.history()))  # through JSON, as a file would be
    result = history.replay(doc)
    assert result.matches, result.problems
    expected: dict[int, int] = {}
    for _, _, rd in session.rounds:
        if rd.is_terminal:
            for seat, net in rd.results().items():
                expected[seat] = expected.get(seat, 0) + net
    assert result.results == expected
    check = history.verify(doc)
    assert check.ok, check.messages


def test_thousands_of_rounds_under_random_rules():
    """A plain loop (cheaper than hypothesis) over 4,000 rounds: the same invariants."""
    master = random.Random(20261130)
    played = 0
    while played < 4_000:
        rules = _random_rules(master)
        seed = master.randbytes(32)
        session = play_session(rules, seed, random.Random(master.random()), rounds=20)
        played += sum(1 for _, _, rd in session.rounds if rd.is_terminal)
        result = history.replay(session.history())
        assert result.matches, result.problems
    assert played >= 4_000


def _random_rules(rng: random.Random) -> Rules:
    return Rules(
        decks=rng.randint(1, 8),
        penetration=rng.choice([0.25, 0.5, 0.75, 1.0]),
        burn_card=rng.random() < 0.5,
        dealer_hits_soft_17=rng.random() < 0.5,
        blackjack_pays=rng.choice(BLACKJACK_PAYS),
        double_on=rng.choice(DOUBLE_ON),
        double_for_less=rng.random() < 0.5,
        double_after_split=rng.random() < 0.5,
        max_split_hands=rng.randint(1, 4),
        split_by=rng.choice(SPLIT_BY),
        resplit_aces=rng.random() < 0.5,
        hit_split_aces=rng.random() < 0.5,
        surrender=rng.choice(SURRENDER),
        hole_card=rng.choice(HOLE_CARD),
        pay_naturals_immediately=rng.random() < 0.5,
        insurance=rng.random() < 0.5,
        even_money=rng.random() < 0.5,
        min_bet=rng.choice([1, 100]),
        max_bet=rng.choice([1_000, 100_000]),
        seats=rng.randint(1, 7),
    )


def test_restub_when_a_round_runs_the_shoe_dry():
    """One deck, cut card at the very end, seven seats hitting everything: rounds run out of
    cards; the discards are reshuffled from the same seed and every card is still verifiable."""
    rules = Rules(decks=1, penetration=1.0, seats=7, insurance=False, even_money=False)
    seeds = iter(range(1, 100))
    session = Session(rules, {s: 100_000 for s in range(1, 8)},
                      lambda r: Shoe.from_seed(next(seeds).to_bytes(32, "big"), 1, 1.0, 1))
    for _ in range(12):
        rd = session.new_round()
        for s in rd.seats:
            rd.bet(s, 100)
        rd.deal()
        while not rd.is_terminal:
            rd.hit(rd.to_act) if "hit" in rd.legal_actions() else rd.stand(rd.to_act)
        dealt = [r.card for r in rd.log if r.type == "card"]
        for card in set(dealt):  # one deck: no physical card twice in a round
            assert dealt.count(card) == 1
        session.finish_round()
    session.close()
    assert any(len(s.order) > 52 for s in session.shoes), "some shoe needed a re-stub"
    doc = session.history()
    assert history.verify(doc).ok
    assert history.replay(doc).matches


def test_random_states_refuse_illegal_actions_and_change_nothing():
    """Bad input: every action that is not legal for a seat, and every bad amount, raises a
    RuleError naming a rule, and leaves the round exactly as it was."""
    rng = random.Random(99)
    bad_amounts = [-100, 0, 10**12, 1.5, "10", True]
    states = 0
    for _ in range(200):
        rules = _random_rules(rng)
        session = play_session(rules, rng.randbytes(32), rng, rounds=0)
        rd = session.new_round()
        for s in rd.seats:
            if rd.seats[s].stack >= rules.min_bet:
                rd.bet(s, rules.min_bet)
        if not rd.can_deal():
            continue
        rd.deal()
        while not rd.is_terminal:
            states += 1
            before = snapshot(rd)
            for seat in [*rd.seats, 99, -1, "x"]:
                legal = set(rd.legal_actions(seat)) if isinstance(seat, int) else set()
                for action in ("hit", "stand", "double", "split", "surrender", "no_insurance",
                               "even_money", "play_on", "insurance"):
                    if action in legal:
                        continue
                    try:
                        getattr(rd, action)(seat)
                    except RuleError as e:
                        assert e.rule and e.message
                    else:
                        raise AssertionError(f"{action} by seat {seat} was accepted but not legal")
                    assert snapshot(rd) == before, (action, seat)
                for action in ("insurance", "double", "bet"):
                    for amount in bad_amounts:
                        try:
                            getattr(rd, action)(seat, amount)
                        except RuleError as e:
                            assert e.rule and e.message
                        else:
                            raise AssertionError(f"{action}({seat}, {amount!r}) was accepted")
                        assert snapshot(rd) == before, (action, seat, amount)
            random_action(rd, rng)
    assert states > 500


def snapshot(rd: Round) -> str:
    return json.dumps([len(rd.log), rd.phase, rd.to_act, rd.stacks(), views.view(rd, "dealer")], sort_keys=True)
