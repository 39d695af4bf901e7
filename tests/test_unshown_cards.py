"""Who gets which card of a finished hand (docs/fairness.md): the holder their own, the admin
every card, everyone the cards shown at the table (a showdown, the Ace shown with a four-card
draw), nobody else a card never shown; each card served opens its committed position."""

from __future__ import annotations

import random

from syndicate.blackjack.history import verify as bj_verify
from syndicate.blackjack.round import shuffled
from syndicate.blackjack.rules import Rules
from syndicate.blackjack.session import round_json, shoe_json
from syndicate.core.shoe import Shoe
from syndicate.poker.dealing import deal_hand
from syndicate.poker.draw import DrawHand
from syndicate.poker.fairness import positions as poker_positions
from syndicate.poker.history import to_history, to_phh
from syndicate.poker.history import verify as pk_verify
from syndicate.poker.rules import DrawRules
from syndicate.room.histories import for_viewer


def _ace_hand() -> tuple[DrawHand, Shoe]:
    """Seat 1 keeps an Ace and throws four (the Ace is shown), then folds; seats 2 and 3 show down."""
    while True:
        shoe = Shoe.new(1, penetration=1.0, burn=0)
        hand = deal_hand(DrawRules(), {1: 5_000, 2: 5_000, 3: 5_000}, 3, shoe)
        if sum(c.text[0] == "A" for c in hand.cards[1]) == 1:
            break
    drew = False
    while not hand.is_terminal:
        s = hand.to_act
        legal = hand.legal_actions(s)
        if "draw" in legal or "stand_pat" in legal:
            if s == 1:
                hand.draw(1, [c.text for c in hand.cards[1] if c.text[0] != "A"])
                drew = True
            else:
                hand.stand_pat(s)
        elif s == 1 and drew and "fold" in legal:
            hand.fold(1)
        else:
            hand.check(s) if "check" in legal else hand.call(s)
    return hand, shoe


def test_each_viewer_gets_only_the_cards_they_may_see() -> None:
    hand, shoe = _ace_hand()
    stored = to_history(hand)
    stored["hands"][0]["shoe"]["seed"] = None  # the live room keeps it until the table closes
    truth = poker_positions(stored["hands"][0])
    ace = next(r["shown"] for r in stored["hands"][0]["log"] if r["type"] == "draw" and r.get("shown"))
    assert ace[0] == "A" and 1 in hand.folded
    assert any(r["type"] == "show" for r in stored["hands"][0]["log"])
    views = {"spectator": {}, "seat 2": {1: 2}, "holder": {1: 1}}
    for name, seats in views.items():
        doc = for_viewer(stored, shoe.escrow_hex(), house=False, seats=seats)
        entry = doc["hands"][0]
        mine = seats.get(1)
        served = poker_positions(entry)
        for (p, seat, card, shown), (p2, _s, got, _sh) in zip(truth, served, strict=True):
            assert p == p2
            may = shown or seat == mine
            assert got == (card if may else "??"), (name, p, seat, card, got)
        opened = {o["position"] for o in entry["shoe"]["openings"]}
        assert opened == {p for p, seat, _c, shown in truth if shown or seat == mine}
        assert entry["shoe"]["seed"] is None and shoe.escrow_hex() not in str(doc)
        assert pk_verify(doc).ok
        # The folded seat 1's cards other than the shown Ace go to nobody else, PHH included.
        hidden = {c for _p, seat, c, shown in truth if seat == 1 and not shown}
        visible = {c for _p, seat, c, shown in truth if shown or seat == mine}
        actions = [line for line in to_phh(doc).splitlines() if line.startswith("actions")]
        for c in hidden - visible:
            assert (c in actions[0]) == (mine == 1), (name, c)
        assert ace in actions[0]
    house = for_viewer(stored, shoe.escrow_hex(), house=True, seats={})["hands"][0]
    assert [c for _p, _s, c, _sh in poker_positions(house)] == [c for _p, _s, c, _sh in truth]
    assert len(house["shoe"]["openings"]) == len(truth)


def test_a_blackjack_round_verifies_when_it_ends_with_the_seed_secret() -> None:
    rules = Rules()
    shoe = Shoe.new(rules.decks, rules.penetration, 1 if rules.burn_card else 0)
    rd = shuffled(rules, shoe, {1: 10_000, 2: 10_000})
    rd.bet(1, rules.min_bet)
    rd.bet(2, rules.min_bet)
    rd.deal()
    rng = random.Random(3)
    while not rd.is_terminal:
        s = rd.to_act
        legal = rd.legal_actions(s)
        choice = next((a for a in ("no_insurance", "play_on") if a in legal), None) or rng.choice(
            [a for a in legal if a in ("hit", "stand")])
        getattr(rd, choice)(s)
    doc = {"format": "syndicate-history", "version": 1, "game": "blackjack", "rules": rules.to_dict(),
           "shoes": [shoe_json(shoe)], "rounds": [round_json(1, 0, {1: 10_000, 2: 10_000}, rd)]}
    assert doc["shoes"][0]["seed"] is None
    served = for_viewer(doc, shoe.escrow_hex(), house=False, seats={})
    assert shoe.escrow_hex() not in str(served)
    result = bj_verify(served)
    cards = [r for r in served["rounds"][0]["log"] if r["type"] == "card"]
    assert result.ok and result.cards_checked == sum(r["card"] is not None for r in cards) >= 4, result
    # A forged card fails.
    first = next(r for r in served["rounds"][0]["log"] if r["type"] == "card")
    first["card"] = "As" if first["card"] != "As" else "Ks"
    assert not bj_verify(served).ok


def test_syndicate_verify_checks_a_served_history_file(tmp_path) -> None:
    import json

    from typer.testing import CliRunner

    from syndicate.apps.cli import app

    hand, shoe = _ace_hand()
    stored = to_history(hand)
    stored["hands"][0]["shoe"]["seed"] = None
    doc = for_viewer(stored, shoe.escrow_hex(), house=False, seats={1: 2})
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(doc))
    runner = CliRunner()
    ok = runner.invoke(app, ["verify", str(path)])
    assert ok.exit_code == 0 and "open their committed" in ok.output, ok.output
    salt = doc["hands"][0]["shoe"]["openings"][0]["salt"]
    doc["hands"][0]["shoe"]["openings"][0]["salt"] = ("0" if salt[0] != "0" else "1") + salt[1:]
    path.write_text(json.dumps(doc))
    bad = runner.invoke(app, ["verify", str(path)])
    assert bad.exit_code == 1 and "does not match its commitment" in bad.output, bad.output


def test_a_restubbed_hand_opens_its_new_positions_too() -> None:
    """Seven seats each drawing three need 56 cards from a 52-card deck: the muck is re-stubbed.
    The stub's positions carry on from 52, outside the root, and open like the others."""
    shoe = Shoe.new(1, penetration=1.0, burn=0)
    seats = {s: 5_000 for s in range(1, 8)}
    hand = deal_hand(DrawRules(max_players=7), seats, 7, shoe)
    while not hand.is_terminal:
        s = hand.to_act
        legal = hand.legal_actions(s)
        if "draw" in legal:
            hand.draw(s, [c.text for c in hand.cards[s][:3]])
        else:
            hand.check(s) if "check" in legal else hand.call(s)
    stored = to_history(hand)
    assert any(r["type"] == "restub" for r in stored["hands"][0]["log"])
    stored["hands"][0]["shoe"]["seed"] = None
    for house in (True, False):
        doc = for_viewer(stored, shoe.escrow_hex(), house=house, seats={1: 7})
        s = doc["hands"][0]["shoe"]
        assert s["committed"] == 52 and len(s["positions"]) > 52
        assert any(o["position"] >= 52 for o in s["openings"])  # seat 7 draws last, from the stub
        result = pk_verify(doc)
        assert result.ok, result.messages
        # A stub's commitments came after the published root: the message must not say they open
        # a committed position, only that they check against the listed ones until the seed is out.
        stub = sum(o["position"] >= 52 for o in s["openings"])
        message = result.messages[0]
        assert f"the {len(s['openings']) - stub} card(s) shown here each open their committed position" in message
        assert (f"{stub} card(s) of a re-stub (after the published root) check against the listed "
                "position commitments only, which the seed's reveal proves") in message, message


def test_a_blackjack_restub_is_not_claimed_to_open_a_committed_position() -> None:
    """Seven seats dealt from one deck until it runs dry mid-round: the stub's positions (52 on)
    came after the published root, so the message says they check against the listed position
    commitments only, which the seed's reveal proves."""
    rules = Rules()
    shoe = Shoe.new(1, penetration=1.0, burn=0)
    rounds = []
    rng = random.Random(11)
    while len(shoe.order) == 52:
        assert not shoe.needs_shuffle, "the deck ended on a round's last card: no re-stub"
        shoe.begin_round()
        stacks = {s: 100_000 for s in range(1, 8)}
        rd = shuffled(rules, shoe, stacks)
        for s in stacks:
            rd.bet(s, rules.min_bet)
        rd.deal()
        while not rd.is_terminal:
            legal = rd.legal_actions(rd.to_act)
            choice = next((a for a in ("no_insurance", "play_on") if a in legal), None) or (
                "hit" if "hit" in legal and rng.random() < 0.6 else "stand")
            getattr(rd, choice)(rd.to_act)
        rounds.append(round_json(len(rounds) + 1, 0, stacks, rd))
    doc = {"format": "syndicate-history", "version": 1, "game": "blackjack", "rules": rules.to_dict(),
           "shoes": [shoe_json(shoe)], "rounds": rounds}
    served = for_viewer(doc, shoe.escrow_hex(), house=False, seats={})
    s = served["shoes"][0]
    stub = sum(o["position"] >= s["committed"] for o in s["openings"])
    assert s["committed"] == 52 and stub > 0
    result = bj_verify(served)
    assert result.ok, result.messages
    message = result.messages[0]
    assert f"each of the {len(s['openings']) - stub} card(s) shown opens its committed position" in message
    assert (f"{stub} card(s) of a re-stub (after the published root) check against the listed "
            "position commitments only, which the seed's reveal proves") in message, message
