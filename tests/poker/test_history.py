"""Hand histories: the JSON document, replay, verify and the PHH export."""

from __future__ import annotations

import copy
import json
import tomllib

import pytest

from syndicate.core.shoe import Shoe
from syndicate.poker import records as rec
from syndicate.poker.dealing import deal_hand
from syndicate.poker.draw import DrawHand
from syndicate.poker.history import HistoryError, replay, to_history, to_phh, verify
from syndicate.poker.rules import DrawRules

from .conftest import deal


def seeded_hand() -> DrawHand:
    shoe = Shoe.from_seed(bytes(range(32)), decks=1, penetration=1.0, burn=0)
    hand = deal_hand(DrawRules(), {1: 1000, 2: 1000, 3: 300}, 3, shoe)
    commitment = shoe.commitment
    hand.bet(1, 100)
    hand.raise_(2, 150)
    hand.call(3)
    hand.call(1)
    hand.draw(1, hand.cards[1][:3])
    hand.stand_pat(2)
    hand.draw(3, hand.cards[3][:1])
    hand.bet(1, 200)
    hand.fold(2)
    assert hand.dealer.shoe.commitment == commitment
    return hand


def test_document_shape() -> None:
    hand = seeded_hand()
    doc = to_history(hand)
    assert doc["format"] == "syndicate-history" and doc["version"] == 1 and doc["game"] == "poker"
    entry = doc["hands"][0]
    assert entry["shoe"]["seed"] == bytes(range(32)).hex()  # revealed once the hand is over
    assert entry["shoe"]["commitment"] == hand.dealer.shoe.commitment
    assert entry["rules"]["ante"] == 50 and entry["stacks"] == [[1, 1000], [2, 1000], [3, 300]]
    assert entry["log"] == [r.to_json() for r in hand.log]
    json.dumps(doc)


def test_replay_reproduces_and_reports_net() -> None:
    hand = seeded_hand()
    result = replay(to_history(hand))
    assert result.reproduced
    assert result.net == hand.results()
    assert any("Seat 2 raises $1.50 to $2.50" in line for line in result.steps)
    assert any("Seat 3 calls $2.50 (all-in)" in line for line in result.steps)
    assert any(line.strip().startswith("Seat 3 wins $9.00 from the main pot") for line in result.steps)


def test_replay_detects_a_doctored_log() -> None:
    doc = to_history(seeded_hand())
    bad = copy.deepcopy(doc)
    award = next(d for d in bad["hands"][0]["log"] if d["type"] == "award")
    award["amount"] += 50
    assert not replay(bad).reproduced
    assert not verify(bad).ok


def test_verify_checks_commitment_and_cards() -> None:
    doc = to_history(seeded_hand())
    ok = verify(doc)
    assert ok.ok, ok.messages
    wrong_seed = copy.deepcopy(doc)
    wrong_seed["hands"][0]["shoe"]["seed"] = bytes(32).hex()
    res = verify(wrong_seed)
    assert not res.ok and "commitment" in res.messages[0]
    swapped = copy.deepcopy(doc)
    deal0 = next(d for d in swapped["hands"][0]["log"] if d["type"] == "deal")
    deal0["cards"][0], deal0["cards"][1] = deal0["cards"][1], deal0["cards"][0]
    assert not verify(swapped).ok


def test_unrevealed_or_foreign_documents() -> None:
    shoe = Shoe.from_seed(bytes(32), decks=1, penetration=1.0, burn=0)
    hand = deal_hand(DrawRules(), {1: 1000, 2: 1000}, 2, shoe)
    doc = to_history(hand)  # the hand is not over: the seed stays secret
    assert doc["hands"][0]["shoe"]["seed"] is None
    # A copy with a hidden card cannot be re-run without the seed (the house's copy, with every
    # card in dealing order, can: test_house_copy_replays_without_the_seed).
    hidden = copy.deepcopy(doc)
    hidden["hands"][0]["log"] = [rec.redact(d, "spectator") for d in hidden["hands"][0]["log"]]
    assert not replay(hidden).reproduced
    # No seed and no openings: no claim either way, "not yet verifiable" (docs/fairness.md).
    pending = verify(doc)
    assert pending.pending == 1 and "not yet verifiable" in pending.messages[0], pending
    with pytest.raises(HistoryError):
        replay({"format": "syndicate-history", "version": 1, "game": "blackjack", "hands": []})
    with pytest.raises(HistoryError):
        verify({"format": "other"})


def test_house_copy_replays_without_the_seed() -> None:
    shoe = Shoe.from_seed(bytes(32), decks=1, penetration=1.0, burn=0)
    hand = deal_hand(DrawRules(), {1: 1000, 2: 1000}, 2, shoe)
    hand.check(1)
    hand.check(2)
    doc = to_history(hand)
    assert doc["hands"][0]["shoe"]["seed"] is None
    assert replay(doc).reproduced
    doc["hands"][0]["log"][-1] = {**doc["hands"][0]["log"][-1], "seat": 1}  # a changed record
    assert not replay(doc).reproduced


def test_stacked_hands_replay() -> None:
    hand = deal({1: "As Ad Kc Qh 2s", 2: "7c 7d 7h 9s 3c"}, button=2, draws="Ks Kh Kd")
    hand.check(1)
    hand.check(2)
    hand.draw(1, "Kc Qh 2s")
    hand.stand_pat(2)
    hand.check(1)
    hand.check(2)
    doc = to_history(hand)
    assert doc["hands"][0]["shoe"]["stacked"].startswith("As 7c Ad 7d")
    assert replay(doc).reproduced
    res = verify(doc)
    assert res.ok and any("stacked" in m for m in res.messages)


def test_phh_export_is_toml_with_our_variant() -> None:
    doc = to_history(seeded_hand())
    text = to_phh(doc)
    phh = tomllib.loads(text)
    assert phh["variant"] == "S5D"
    assert phh["antes"] == [50, 50, 50]
    assert phh["starting_stacks"] == [1000, 1000, 300]
    actions = phh["actions"]
    assert actions[0].startswith("d dh p1 ") and len(actions[0].split()[-1]) == 10
    assert actions[3:7] == ["p1 cbr 100", "p2 cbr 250", "p3 cc", "p1 cc"]
    assert "p2 sd" in actions and "p2 f" in actions
    assert any(a.startswith("p1 sd ") for a in actions)
    assert sum(phh["finishing_stacks"]) + phh["_carry_out"] == 2300
    two = {"format": "syndicate-history", "version": 1, "game": "poker",
           "hands": doc["hands"] + [dict(doc["hands"][0], number=2)]}
    multi = tomllib.loads(to_phh(two))
    assert set(multi) == {"1", "2"}
