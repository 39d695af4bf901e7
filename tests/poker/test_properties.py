"""Property-based tests over thousands of random hands with random stacks (short stacks and
all-ins included): chips conserved (carry-over counted), no card twice, views hide what
they must, replay equals the original, betting always terminates."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from syndicate.core.cards import DECK
from syndicate.core.shoe import Shoe
from syndicate.poker.dealing import deal_hand
from syndicate.poker.draw import DrawHand
from syndicate.poker.history import replay, to_history, verify
from syndicate.poker.rules import DrawRules
from syndicate.poker.table import DrawTable
from syndicate.poker.views import log_view, view

CARD_TEXTS = {c.text for c in DECK}


def max_actions(rules: DrawRules, players: int, chips: int) -> int:
    """An upper bound on decisions in a hand: per betting round everyone may check once, and
    each bet or raise (at most cap + 1, or one per chip of min_raise when uncapped) is
    answered by everyone else; plus one draw each."""
    bets = rules.raise_cap + 1 if rules.raise_cap is not None else chips // rules.min_raise + 1
    return 2 * players * (bets + 1) + players


def random_action(hand: DrawHand, rng: random.Random) -> None:
    seat = hand.to_act
    assert seat is not None
    legal = hand.legal_actions()
    assert legal, "a player to act always has a legal action"
    action = rng.choice(legal)
    if action == "bet":
        lo, hi = hand.bet_range()  # type: ignore[misc]
        stack = hand.stacks[seat]
        if stack <= hi and rng.random() < 0.3:
            hand.bet(seat, stack)
        else:
            chip = hand.rules.chip
            amounts = list(range(-(-lo // chip) * chip, hi + 1, chip)) or [stack]
            hand.bet(seat, rng.choice(amounts))
    elif action == "raise":
        lo, hi = hand.raise_range()  # type: ignore[misc]
        room = hand.stacks[seat] - hand.to_call(seat)
        chip = hand.rules.chip
        amounts = list(range(-(-lo // chip) * chip, hi + 1, chip))
        if room <= hi:
            amounts.append(room)
        hand.raise_(seat, rng.choice(amounts))
    elif action == "draw":
        cards = list(hand.cards[seat])
        n = rng.choice([0, 1, 2, 3, 3, 4])
        aces = [c for c in cards if c.is_ace]
        if n == 4 and aces:
            keep = aces[0]
            hand.draw(seat, [c for c in cards if c is not keep])
        else:
            hand.draw(seat, rng.sample(cards, min(n, 3)))
    elif action == "fold" and "check" in legal and rng.random() < 0.8:
        hand.check(seat)
    else:
        getattr(hand, "raise_" if action == "raise" else action)(seat)


def card_tokens(obj: Any) -> set[str]:
    """Every string in a JSON-able value that is exactly a card's text."""
    out: set[str] = set()
    if isinstance(obj, dict):
        for v in obj.values():
            out |= card_tokens(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            out |= card_tokens(v)
    elif isinstance(obj, str) and obj in CARD_TEXTS:
        out.add(obj)
    return out


def check_invariants(hand: DrawHand, total: int, held: dict[int, set[str]]) -> None:
    assert hand.chips_total() == total
    assert all(v >= 0 for v in hand.stacks.values()) and hand.pot >= 0
    # No card twice: hands, muck and the rest of the shoe are the 52 cards exactly once.
    in_hands = [c for s, cs in hand.cards.items() if s not in hand.folded for c in cs]
    rest = hand.dealer.shoe.order[hand.dealer.shoe.position:]
    assert sorted(c.index for c in in_hands + hand.muck + rest) == list(range(52))
    for s, cs in hand.cards.items():
        held[s] |= {c.text for c in cs}
    public = {c.text for s in hand.order for c in hand.shown[s] if s not in hand.folded}
    public |= {c.text for s in hand.showed_down for c in hand.cards[s]}
    for viewer in (*hand.order, "spectator", "dealer"):
        seen = card_tokens(view(hand, viewer)) | card_tokens(log_view(hand, viewer))
        own = held[viewer] if isinstance(viewer, int) else set()
        others = set().union(*(held[s] for s in hand.order if s != viewer))
        leaked = (seen & others) - own - public - _shown_in_log(hand)
        assert not leaked, f"{viewer} sees {leaked}"


def _shown_in_log(hand: DrawHand) -> set[str]:
    out = set()
    for r in hand.log:
        if r.type == "draw" and r.shown is not None:
            out.add(r.shown.text)
        elif r.type == "show":
            out |= {c.text for c in r.cards}
    return out


def play(seed: int, stacks: dict[int, int], button: int, rules: DrawRules, carry_in: int = 0,
         check_views: bool = True) -> DrawHand:
    rng = random.Random(seed)
    shoe = Shoe.from_seed(seed.to_bytes(32, "big"), decks=1, penetration=1.0, burn=0)
    hand = deal_hand(rules, stacks, button, shoe, carry_in=carry_in)
    total = sum(stacks.values()) + carry_in
    held: dict[int, set[str]] = {s: set() for s in stacks}
    steps = 0
    limit = max_actions(rules, len(stacks), total)
    while not hand.is_terminal:
        if check_views:
            check_invariants(hand, total, held)
        random_action(hand, rng)
        steps += 1
        assert steps <= limit, "betting must terminate"
    check_invariants(hand, total, held)
    assert hand.pot == 0
    assert sum(hand.results().values()) == carry_in - hand.carry_out
    return hand


stacks_st = st.lists(
    st.one_of(st.integers(1, 120), st.integers(1, 40).map(lambda k: k * 50), st.integers(1, 4000)),
    min_size=2, max_size=7,
)
rules_st = st.builds(
    DrawRules,
    raise_cap=st.sampled_from([3, 1, 0, None]),
    odd_chip=st.sampled_from(["carry", "left_of_button"]),
    ante=st.sampled_from([50, 100, 500]),
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64), stacks=stacks_st, rules=rules_st, carry=st.sampled_from([0, 50, 100]),
       data=st.data())
def test_random_hands_conserve_chips_hide_cards_and_replay(
    seed: int, stacks: list[int], rules: DrawRules, carry: int, data: st.DataObject
) -> None:
    seats = dict(enumerate(stacks, start=1))
    button = data.draw(st.sampled_from(sorted(seats)))
    hand = play(seed, seats, button, rules, carry)
    doc = to_history(hand)
    doc = json.loads(json.dumps(doc))  # survives a round trip through a file
    result = replay(doc)
    assert result.reproduced, result.messages
    assert result.net == hand.results()
    assert verify(doc).ok


def test_thousands_of_hands_conserve_chips_and_terminate() -> None:
    """2,000 more hands with cheaper checks (views sampled), uncapped raises included."""
    rng = random.Random(1201)
    for k in range(2000):
        n = rng.randint(2, 7)
        seats = {s: rng.choice([rng.randint(1, 200), rng.randint(50, 5000)]) for s in range(n)}
        rules = DrawRules(raise_cap=rng.choice([3, None]) if k % 10 else None)
        hand = play(k, seats, rng.randrange(n), rules, check_views=(k % 20 == 0))
        assert hand.is_terminal


def test_a_table_session_conserves_chips_across_hands_with_carry_over() -> None:
    rng = random.Random(5)
    table = DrawTable({s: rng.randint(100, 1500) for s in range(1, 7)})
    total = table.chips_total()
    for k in range(300):
        if len([v for v in table.seats.values() if v > 0]) < 2:
            break
        hand = table.start_hand(Shoe.from_seed(k.to_bytes(32, "big"), decks=1, penetration=1.0, burn=0))
        while not hand.is_terminal:
            random_action(hand, rng)
            assert table.chips_total() == total
        table.finish()
        assert table.chips_total() == total
    table.propose_ante("dealer", 100)
    for s in list(table.seats):
        table.accept_ante(s)
    assert table.rules.ante == 100
    doc = to_history(table)
    assert [d["type"] for d in doc["table_log"]][-1] == "ante_changed"
    result = replay(doc)
    assert result.reproduced and verify(doc).ok
    assert len(doc["hands"]) == len(table.hands) > 10
