"""Terminal play with scripted input, the bots, and the odds table."""

from __future__ import annotations

import io
import json
import random

from rich.console import Console

from syndicate.apps.poker_cli import play_poker, print_poker_table
from syndicate.core.cards import parse
from syndicate.core.shoe import Shoe
from syndicate.poker.bots import act, choose_discards, decide
from syndicate.poker.dealing import deal_hand
from syndicate.poker.history import replay, verify
from syndicate.poker.rules import DrawRules


def console() -> Console:
    return Console(file=io.StringIO(), width=120, color_system=None)


def test_scripted_session_plays_saves_and_replays(tmp_path) -> None:  # type: ignore[no-untyped-def]
    script = iter(["nonsense", "bet 0.25", "check", "d 1 2", "k", "", "fold", "", "q"])
    prompts: list[str] = []

    def inp(prompt: str) -> str:
        prompts.append(prompt)
        try:
            return next(script)
        except StopIteration:
            raise EOFError from None

    con = console()
    path = tmp_path / "session.json"
    table = play_poker(players=3, ante="0.50", seed="ab" * 32, console=con, input_fn=inp, save=str(path))
    out = con.file.getvalue()  # type: ignore[attr-defined]
    assert "unknown command 'nonsense'" in out
    assert "at least $0.50" in out  # the bet of $0.25 was refused with the rule's message
    assert prompts and prompts[0].startswith("Your move [")
    doc = json.loads(path.read_text())
    assert doc["game"] == "poker" and len(doc["hands"]) == len(table.hands) >= 2
    assert replay(doc).reproduced and verify(doc).ok
    assert sum(table.seats.values()) + table.carry == 3 * 2000
    # The same seed deals the same first hand.
    con2 = console()
    play_poker(players=3, seed="ab" * 32, console=con2, input_fn=lambda p: "q")
    def first(text: str) -> str:
        return text.split("Seat 1 is dealt ")[1][:14]

    assert first(out) == first(con2.file.getvalue())  # type: ignore[attr-defined]


def test_bots_draw_by_the_book() -> None:
    cases = {
        "2c 3d 4h 5s 6c": "",
        "7c 7d 7h 9s 3c": "9s 3c",
        "Qc Qd 4h 4s 9c": "9c",
        "As Ad Kc Qh 2s": "Kc Qh 2s",
        "Jh Th 8h 4h 2c": "2c",
        "9c Th Jd Qs 2c": "2c",
        "As Kd 9c 5h 2s": "Kd 9c 5h 2s",
        "Kd 9c 7h 5s 2d": "7h 5s 2d",
    }
    for hand, discards in cases.items():
        assert choose_discards(parse(hand)) == parse(discards), hand


def test_bots_play_legal_actions_only() -> None:
    rng = random.Random(9)
    for k in range(300):
        n = rng.randint(2, 7)
        stacks = {s: rng.randint(1, 3000) for s in range(n)}
        hand = deal_hand(DrawRules(), stacks, 0, Shoe.from_seed(k.to_bytes(32, "big"), decks=1,
                                                               penetration=1.0, burn=0))
        while not hand.is_terminal:
            seat = hand.to_act
            assert seat is not None
            action, _arg = decide(hand, seat, rng)
            assert action in hand.legal_actions()
            act(hand, seat, rng)
        assert sum(hand.results().values()) == -hand.carry_out


def test_bot_bets_strong_hands_and_folds_trash_to_a_big_bet() -> None:
    from .conftest import deal
    hand = deal({1: "Ac Ad Ah As Kc", 2: "7s 5h 4c 3h 2d"}, button=2)
    assert decide(hand, 1)[0] == "bet"
    hand.bet(1, 500)
    assert decide(hand, 2)[0] == "fold"


def test_odds_table_prints_every_category() -> None:
    con = console()
    rows = print_poker_table(con)
    out = con.file.getvalue()  # type: ignore[attr-defined]
    assert "2,598,960" in out and "1,302,540" in out and "Royal Flush" in out
    assert [n for _c, n, _p in rows][:2] == [4, 36]


def test_quitting_mid_hand_asks_before_folding() -> None:
    script = iter(["q", "n", "fold", "q"])
    prompts: list[str] = []

    def inp(prompt: str) -> str:
        prompts.append(prompt)
        return next(script)

    con = console()
    table = play_poker(players=3, ante="0.50", seed="ab" * 32, console=con, input_fn=inp)
    out = con.file.getvalue()  # type: ignore[attr-defined]
    assert any(p.startswith("Leave now? You fold and lose the $0.50 you put in the pot.") for p in prompts)
    assert "You stay: play on." in out
    assert len(table.hands) == 1  # the hand was played to its end: her fold, then q between hands
    assert any(r.type == "fold" and r.seat == 1 for r in table.hands[0].log)
