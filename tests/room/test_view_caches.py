"""What a live table keeps from change to change (issue 16) equals what it would make afresh:
a draw seat's view built on the broadcast's shared public part, each viewer's log extended
record by record, and the histories written on every change that reuse the records' JSON."""

from __future__ import annotations

import json
import random

import pytest

from syndicate.blackjack.rules import Rules
from syndicate.blackjack.session import round_json
from syndicate.poker.draw import DrawRules
from syndicate.poker.history import to_history
from syndicate.room.game import RecordDocs
from syndicate.room.games.blackjack import BlackjackGame
from syndicate.room.games.draw import DrawGame
from syndicate.room.live.messages import dumps, encode, sharing
from tests.poker.test_properties import random_action


def _same(a: object, b: object) -> bool:
    return json.dumps(a) == json.dumps(b)  # the same JSON text, key order included


@pytest.mark.parametrize("seed", range(40))
def test_draw_views_and_history_kept_between_changes_equal_fresh_ones(seed: int) -> None:
    rng = random.Random(seed)
    stacks = {s: rng.choice([150, 1_000, 5_000]) for s in range(1, rng.randint(2, 7) + 1)}
    game = DrawGame(DrawRules(), lambda: dict(stacks))
    for number in (1, 2, 3):  # the caches follow a new hand
        if sum(1 for chips in stacks.values() if chips > 0) < 2:
            break  # one player has every chip
        game.start_hand(number)
        hand = game.round
        assert hand is not None
        while True:
            memo: dict = {}  # one broadcast's
            for viewer in [*hand.stacks, "spectator", "dealer"]:
                assert _same(game.round_view(viewer, memo), game.round_view(viewer, None))
                assert _same(game.log_view(viewer, memo), hand.log_view(viewer))
            fresh = to_history(hand)
            fresh["table"] = 7
            fresh["hands"][0]["shoe"]["seed"] = None
            assert _same(game.history(7, number, stacks), fresh)
            if hand.is_terminal:
                break
            random_action(hand, rng)
        game.hand_over()
        stacks = dict(hand.stacks)


def test_blackjack_history_kept_between_changes_equals_a_fresh_one() -> None:
    players = {1: 10_000, 2: 10_000, 3: 10_000}
    game = BlackjackGame(Rules(), lambda: dict(players))
    for number in range(1, 30):
        game.start_hand(number)
        rd = game.round
        assert rd is not None
        for seat in players:
            rd.bet(seat, 100)
        rd.deal()
        while True:
            history = game.history(1, number, players)
            assert _same(history["rounds"], [round_json(number, 0, players, rd)])
            if rd.is_terminal:
                break
            seat = rd.to_act
            legal = rd.legal_actions(seat)
            getattr(rd, random.Random(number).choice(legal))(seat)
        game.hand_over()


def test_record_docs_follow_a_log_cut_back_and_extended() -> None:
    """A card taken back cuts the log at its end; what comes after is new records (here equal
    in value but other objects, as the engine makes them): their JSON is made again."""
    made = []

    def to_json(r: tuple) -> dict:
        made.append(r)
        return {"type": r[0], "n": r[1]}

    docs = RecordDocs(to_json)
    log = [("card", 1), ("card", 2), ("hit", 3)]
    assert docs.sync(log) == 0 and docs.docs == [{"type": "card", "n": 1}, {"type": "card", "n": 2},
                                                 {"type": "hit", "n": 3}]
    log.append(("stand", 4))
    assert docs.sync(log) == 3 and len(made) == 4  # only the new record's JSON is made
    del log[2:]
    log.append(tuple(["hit", 3]))  # equal to the one cut, another object (a literal would be the same one)
    log.append(("take_back", 5))
    assert docs.sync(log) == 2
    assert docs.docs == [{"type": t, "n": n} for t, n in log]
    assert docs.sync([]) == 0 and docs.docs == []


def _messages(game: object, viewers: list, version: int, memo: dict) -> list[dict]:
    """One broadcast's messages as the table actor makes them: the table, the seats and the clock
    the same objects in all; the round and the log from the game's views with the broadcast's
    memo; the dealer's own copy of the seats; a spectator's copy carrying an answer."""
    table = {"id": 7, "name": "Zoë's 🂡", "game": "x", "results": {1: -500, 2: 0}}
    seats = [{"seat": n, "player": f"p{n}", "stack": 1_000 * n} for n in (1, 2, 3)]
    clock = {"seat": 1, "seconds": 30}
    out = []
    for viewer in viewers:
        mine = [{**e, "legal_actions": ["hit"]} for e in seats] if viewer == "dealer" else seats
        out.append({"type": "state", "protocol": 2, "version": version, "table": table, "seats": mine,
                    "you": {"account": 9, "seat": viewer if isinstance(viewer, int) else None}, "clock": clock,
                    "round": game.round_view(viewer, memo), "log": game.log_view(viewer, memo)})  # type: ignore[attr-defined]
    out.append({**out[-1], "ack": "a1"})
    return out


def _check_broadcast(game: object, viewers: list, version: int) -> None:
    msgs = _messages(game, viewers, version, {})
    with sharing():
        texts = [encode(m) for m in msgs]
        assert encode(msgs[0]) is texts[0]  # a message sent to several clients: encoded once
    assert texts == [dumps(m) for m in msgs]
    # and not kept once the broadcast is over: the next encoding is a new text
    assert encode(msgs[0]) is not texts[0]


@pytest.mark.parametrize("seed", range(10))
def test_a_broadcasts_messages_are_encoded_once_and_kept_only_for_it(seed: int) -> None:
    """Within one broadcast (messages.sharing) a message is encoded once however many clients it
    goes to, into the text it has alone, at every change of both games; after it, the messages
    are not kept (kept among the 512 newest, they reached the collector's older generations)."""
    rng = random.Random(seed)
    stacks = {s: 1_000 for s in range(1, 5)}
    draw = DrawGame(DrawRules(), lambda: dict(stacks))
    draw.start_hand(1)
    hand = draw.round
    assert hand is not None
    for version in range(200):
        _check_broadcast(draw, [*hand.stacks, "spectator", "dealer"], version)
        if hand.is_terminal:
            break
        random_action(hand, rng)
    players = {1: 10_000, 2: 10_000, 3: 10_000}
    bj = BlackjackGame(Rules(), lambda: dict(players))
    bj.start_hand(1)
    rd = bj.round
    assert rd is not None
    for seat in players:
        rd.bet(seat, 100)
    rd.deal()
    for version in range(200):
        _check_broadcast(bj, [1, 2, 3, "spectator", "dealer"], version)
        if rd.is_terminal:
            break
        getattr(rd, rng.choice(rd.legal_actions(rd.to_act)))(rd.to_act)
