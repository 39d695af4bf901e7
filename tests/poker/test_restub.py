"""The draw when the deck runs out: the muck and discards become a new stub, never giving a
player back their own discards (docs/poker.md, "Re-stub")."""

from __future__ import annotations

from syndicate.core.cards import DECK, parse
from syndicate.core.shoe import Shoe
from syndicate.poker.dealing import deal_hand
from syndicate.poker.draw import DrawHand
from syndicate.poker.rules import DrawRules
from syndicate.poker.state import SETTLED

from .conftest import deal


def seven_player_hand(seed: bytes) -> DrawHand:
    shoe = Shoe.from_seed(seed, decks=1, penetration=1.0, burn=0)
    return deal_hand(DrawRules(), {s: 5000 for s in range(1, 8)}, 7, shoe)


def test_restub_from_a_seeded_shoe_never_returns_own_discards() -> None:
    for k in range(20):
        hand = seven_player_hand(bytes([k]) * 32)
        for s in range(1, 8):
            hand.check(s)
        assert hand.dealer.shoe.remaining == 17
        for s in range(1, 8):
            own = list(hand.cards[s][:3])
            r = hand.draw(s, own)
            assert not set(r.received) & set(own)  # never your own discards back
            # no card twice anywhere: hands, muck and the undealt stub together are the deck
            held = [c for cards in hand.cards.values() for c in cards]
            rest = hand.dealer.shoe.order[hand.dealer.shoe.position:]
            assert sorted(c.index for c in held + hand.muck + rest) == list(range(52))
        restubs = [r for r in hand.log if r.type == "restub"]
        assert len(restubs) == 1 and restubs[0].shuffled
        # 15 cards discarded by seats 1..5 when seat 6 needed 3 with 2 left in the deck.
        assert restubs[0].cards == 15


def test_restub_is_reproducible_from_the_seed() -> None:
    a, b = seven_player_hand(bytes(32)), seven_player_hand(bytes(32))
    for hand in (a, b):
        for s in range(1, 8):
            hand.check(s)
        for s in range(1, 8):
            hand.draw(s, list(hand.cards[s][:3]))
    assert [r.to_json() for r in a.log] == [r.to_json() for r in b.log]


def test_stacked_shoe_restubs_in_muck_order() -> None:
    hands = {1: "As Ad Kc Qh 2s", 2: "7c 7d 7h 9s 3c", 3: "Jh Th 8c 4h 2h"}
    # Only three cards after the deal: seat 1 takes them, seat 2 draws from the re-stub.
    hand = deal(hands, button=3, draws="Ks Kh Kd", fill=False)
    for s in (1, 2, 3):
        hand.check(s)
    hand.draw(1, "Kc Qh 2s")
    r = hand.draw(2, "9s 3c")
    assert r.received == tuple(parse("Kc Qh"))  # the muck, in the order it was mucked
    assert [x.to_json() for x in hand.log if x.type == "restub"] == [
        {"type": "restub", "number": 1, "cards": 3, "shuffled": False}]
    r = hand.draw(3, "Jh Th")
    assert r.received == tuple(parse("2s 9s"))  # seat 2's discards joined the muck after it drew
    assert hand.phase != SETTLED
    assert len(set(c for cs in hand.cards.values() for c in cs)) == 15
    assert set(DECK) >= set(hand.muck)


def test_restubbed_hand_verifies_from_the_seed() -> None:
    from syndicate.poker.history import replay, to_history, verify

    hand = seven_player_hand(bytes([7]) * 32)
    for s in range(1, 8):
        hand.check(s)
    for s in range(1, 8):
        hand.draw(s, list(hand.cards[s][:3]))
    while not hand.is_terminal:
        hand.check(hand.to_act)
    doc = to_history(hand)
    assert any(d["type"] == "restub" for d in doc["hands"][0]["log"])
    assert replay(doc).reproduced
    res = verify(doc)
    assert res.ok, res.messages
