"""Hands dealt before per-position commitments (docs/fairness.md, "Histories from before
per-position commitments"): their shoes published ``commitment = SHA-256(seed)``, carry no
position commitments, and keep their seed escrowed in the shoes table. Such a hand must still
be served (history, PHH, check) to every viewer with its unshown cards hidden and its seed kept
until its reveal, and must verify the old way once the seed is out."""

from __future__ import annotations

import hashlib
import json
import random

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from syndicate.apps.cli import app as cli
from syndicate.apps.history import verify
from syndicate.blackjack.round import shuffled
from syndicate.blackjack.rules import Rules
from syndicate.blackjack.session import round_json, shoe_json
from syndicate.core.shoe import Shoe
from syndicate.poker.dealing import deal_hand
from syndicate.poker.fairness import positions as poker_positions
from syndicate.poker.history import to_history
from syndicate.poker.rules import DrawRules
from syndicate.room.ledger import now
from syndicate.web import create_app
from tests.kit.room import FAST_HASHER, bearer


@pytest.fixture
def client(database, room, cast):
    app = create_app(database=database, hasher=FAST_HASHER, migrate=False, current_event=cast.event.name)
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def _legacy(shoe: Shoe) -> str:
    """The commitment the old code published for a seeded shoe."""
    return hashlib.sha256(bytes.fromhex(shoe.escrow_hex())).hexdigest()


def _blackjack() -> tuple[dict, Shoe, dict[int, int]]:
    rules = Rules()
    shoe = Shoe.new(rules.decks, rules.penetration, 1 if rules.burn_card else 0)
    rd = shuffled(rules, shoe, {1: 10_000})
    rd.bet(1, rules.min_bet)
    rd.deal()
    rng = random.Random(7)
    while not rd.is_terminal:
        legal = rd.legal_actions(rd.to_act)
        choice = next((a for a in ("no_insurance", "play_on") if a in legal), None) or rng.choice(
            [a for a in legal if a in ("hit", "stand")])
        getattr(rd, choice)(rd.to_act)
    doc = {"format": "syndicate-history", "version": 1, "game": "blackjack", "rules": rules.to_dict(),
           "shoes": [shoe_json(shoe)], "rounds": [round_json(1, 0, {1: 10_000}, rd)]}
    doc["shoes"][0]["commitment"] = _legacy(shoe)  # as the old code wrote it
    return doc, shoe, {1: 0}


def _draw() -> tuple[dict, Shoe, dict[int, int]]:
    """Seat 1 folds before the draw (its five cards are never shown); seats 2 and 3 show down."""
    shoe = Shoe.new(1, penetration=1.0, burn=0)
    hand = deal_hand(DrawRules(), {1: 5_000, 2: 5_000, 3: 5_000}, 3, shoe)
    while not hand.is_terminal:
        s = hand.to_act
        legal = hand.legal_actions(s)
        if s == 1 and "fold" in legal:
            hand.fold(1)
        elif "stand_pat" in legal:
            hand.stand_pat(s)
        else:
            hand.check(s) if "check" in legal else hand.call(s)
    assert 1 in hand.folded
    doc = to_history(hand)
    doc["hands"][0]["shoe"]["seed"] = None  # the room keeps it in the shoes table until the reveal
    doc["hands"][0]["shoe"]["commitment"] = _legacy(shoe)
    return doc, shoe, {1: 0, 2: 1, 3: 2}


@pytest.mark.parametrize("revealed", [False, True], ids=["secret", "revealed"])
@pytest.mark.parametrize("make", [_blackjack, _draw], ids=["blackjack", "draw"])
def test_a_hand_dealt_before_per_position_commitments_is_served_and_verifies(
        client, room, cast, make, revealed, tmp_path) -> None:
    doc, shoe, seat_of = make()
    game = doc["game"]
    seed = shoe.escrow_hex()
    commitment = _legacy(shoe)
    people = [cast.alice, cast.bob, cast.dealer]
    t = room.tables.open(cast.dealer, "Old hands")
    with room.store.transaction() as repo:
        repo.add_shoe(t.id, commitment, seed, now())
        hand_id = repo.add_hand(t.id, 1, game, commitment, doc, now(),
                                [(seat, people[i].id) for seat, i in seat_of.items()])
        repo.update_hand(hand_id, "settled", doc, now())
        if revealed:
            repo.reveal_seed(commitment, seed)
    truth = poker_positions(doc["hands"][0]) if game == "poker" else None
    viewers = {"spectator": "Sam", "holder": "Alice", "admin": "admin"}
    runner = CliRunner()
    for who, name in viewers.items():
        headers = bearer(client, cast.event.id, name)
        answers = {}
        for what in ("history", "phh", "check"):
            if what == "phh" and game != "poker":
                continue
            r = client.get(f"/api/hands/{hand_id}/{what}", headers=headers)
            assert r.status_code == 200, (who, what, r.text)
            answers[what] = r
        served = answers["history"].json()
        everything = "".join(r.text for r in answers.values())
        if not revealed:  # not even the admin gets a seed before its reveal
            assert seed not in everything, who
        s = served["shoes"][0] if game == "blackjack" else served["hands"][0]["shoe"]
        assert s["commitment"] == commitment and "positions" not in s and "openings" not in s
        if game == "poker":
            seat = 1 if who == "holder" else None
            for (p, holder, card, shown), (_p, _h, got, _s) in zip(truth, poker_positions(served["hands"][0]),
                                                                   strict=True):
                may = revealed or who == "admin" or shown or holder == seat
                assert got == (card if may else "??"), (who, p)
            folded = {c for _p, holder, c, _s in truth if holder == 1}
            if not revealed and who == "spectator":
                actions = next(line for line in answers["phh"].text.splitlines() if line.startswith("actions"))
                log = json.dumps(served["hands"][0]["log"])
                for card in folded:
                    assert card not in actions and f'"{card}"' not in log, card
        check = answers["check"].json()
        assert check["verify"]["ok"] and check["replay"]["matches"], check
        result = verify(served)
        assert result.ok, result.messages
        path = tmp_path / f"{who}.json"
        path.write_text(answers["history"].text)
        out = runner.invoke(cli, ["verify", str(path)])
        assert out.exit_code == 0, out.output
        if revealed:
            assert result.pending == 0 and "NOT verified" not in out.output
            assert out.output.strip().endswith("verified") and "not yet verifiable" not in out.output
            proof = "every card dealt came from it" if game == "blackjack" else "all from the committed order"
            assert proof in " ".join(result.messages), result.messages
        else:
            assert result.pending == 1 and "not yet verifiable" in " ".join(result.messages)
            assert "not yet verifiable" in out.output and "NOT verified" not in out.output


@pytest.mark.parametrize("make", [_blackjack, _draw], ids=["blackjack", "draw"])
def test_a_file_downloaded_before_the_upgrade_still_verifies(make) -> None:
    """What the old server served: the commitment SHA-256(seed), no positions, the seed once
    revealed. It checks the old way; a wrong seed or a forged card still fails."""
    doc, shoe, _ = make()
    shoes = doc["shoes"] if doc["game"] == "blackjack" else [doc["hands"][0]["shoe"]]
    shoes[0]["seed"] = shoe.escrow_hex()
    result = verify(doc)
    assert result.ok and result.pending == 0, result.messages
    assert "position commitments" not in " ".join(result.messages)
    shoes[0]["seed"] = "00" * 32  # a seed that is not the committed one
    bad = verify(doc)
    assert not bad.ok and "commitment" in " ".join(bad.messages), bad.messages
