"""`syndicate play --server URL` at a five-card draw table: the terminal player (scripted input,
captured output) plays real hands on a real server against the dealer's bots, to a showdown or
a fold, and leaves with a bankroll that agrees with the ledger to the cent. The input loop is
also driven against scripted states, for what a live server cannot be made to show on cue
(an ante proposal)."""

from __future__ import annotations

import asyncio
import re
import threading
from typing import Any

import pytest

from syndicate.apps.client import ActionRefused, RoomClient, TableClient
from syndicate.apps.poker_remote import parse_draw_command, render_draw
from syndicate.apps.poker_remote import play as _play_draw
from syndicate.apps.remote_play import play_remote
from syndicate.room.ledger import player_key
from syndicate.room.seating import stack_key
from tests.kit.room import PASSWORD

SEAT = 5


class Typist:
    """Answers the terminal's prompts like a careful player who makes a few typos first."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines  # what the terminal printed, to read the refusals from
        self.prompts: list[str] = []
        self.typed: list[str] = []
        self.hands_started = 0

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        answer = self._answer(prompt)
        self.typed.append(answer)
        return answer

    def _answer(self, prompt: str) -> str:
        legal = re.search(r"\[([^\]]*)\]", prompt)
        assert legal is not None, prompt
        options = [o.strip() for o in legal.group(1).split("/")]
        if not self.typed:
            return "b"  # no amount: the terminal itself asks again
        if "draw" in options:
            if "d Zz" not in self.typed:
                return "d Zz"  # not a card of ours: refused by the terminal, which names our cards
            said = next(x for x in reversed(self.lines) if "your cards are" in x)
            held = re.search(r"your cards are (.*)$", said)
            assert held is not None, said
            return "draw " + " ".join(held.group(1).split()[:2])  # two of them, by name
        if not any(t.endswith(" 999") for t in self.typed):
            for verb in ("bet", "raise"):
                if verb in options:
                    return f"{verb} 999"  # over the limit and the stack: the server refuses
        if "fold" in options and any(t.startswith("draw ") for t in self.typed):
            return "f"  # after a hand played to the showdown, fold the next at once
        # Otherwise passive: someone else's bet is called, so the hand always reaches the draw.
        for answer, verb in (("c", "call"), ("k", "check")):
            if verb in options:
                return answer
        return "f"


def test_the_terminal_plays_a_draw_table_against_bots(server, room, cast) -> None:
    ev = cast.event.id
    room.cashier.buy_in(cast.admin, cast.alice.id, 10_000)
    room.cashier.set_float(cast.admin, 2 * 100 * 500)  # the house's chips for the two bots
    dealer_rest = RoomClient(server.url)
    dealer_rest.sign_in(ev, "Bokuden", PASSWORD)
    table = dealer_rest.open_table("Terminal draw", game="poker", overrides={"ante": 50})

    async def dealer_with_bots() -> TableClient:
        d = await TableClient.connect(server.url, table["id"], dealer_rest.token or "")
        await d.act("add_bots", count=2)
        await d.act("auto_deal", seconds=0.2)
        return d

    loop = asyncio.new_event_loop()
    dealer = loop.run_until_complete(dealer_with_bots())
    threading.Thread(target=loop.run_forever, daemon=True).start()
    lines: list[str] = []
    typist = Typist(lines)
    try:
        back = play_remote(server.url, ev, "Alice", PASSWORD, table["id"], seat=SEAT, buy_in=3_000, rounds=2,
                           input_fn=typist, out=lines.append)
    finally:
        asyncio.run_coroutine_threadsafe(dealer.close(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)

    text = "\n".join(lines)
    assert "Five-card draw" in lines[0] and "check (k)" in lines[0]
    assert "◀ to act" in text  # the draw view was drawn
    # each hand by its evening-wide number, the one the admin's search finds
    with room.store.transaction() as repo:
        ids = {h.id for h in repo.hands(ev, table["id"], limit=100)}
    shown = {int(n) for n in re.findall(r"^Hand (\d+) · ", text, re.M)}
    assert shown and shown <= ids
    assert "bet needs an amount" in text  # the typo was caught by the terminal
    assert "refused:" in text  # the server's refusal of $999 was shown, and play went on
    assert "you do not hold Zz" in text and any(t.startswith("draw ") for t in typist.typed)
    assert len([x for x in lines if x.endswith("this hand.")]) == 2  # two hands to the end
    assert "Your bankroll" in lines[-1]

    # The bankroll agrees with the ledger, and with the hands' own results.
    assert room.ledger.balance(ev, player_key(cast.alice.id)) == back
    assert room.ledger.balance(ev, stack_key(table["id"], cast.alice.id)) == 0
    assert room.ledger.audit(ev) == []
    with room.store.transaction() as repo:
        hands = [h for h in repo.hands(ev, table["id"], limit=10_000) if h.status == "settled"]
    nets = [dict(h.history["hands"][0]["result"]["net"]) for h in hands]
    mine = [n[SEAT] for n in nets if SEAT in n]
    assert len(mine) >= 2  # the two played (and one she folds on leaving, if it had begun)
    assert back == 10_000 + sum(mine)


# -- the input loop against scripted states --------------------------------------------------
class ScriptedTable:
    """Stands in for TableClient: a list of states served in turn, and the actions sent."""

    def __init__(self, states: list[dict[str, Any]], refuse: set[str] = frozenset()) -> None:  # type: ignore[assignment]
        self.states = states
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.refuse = refuse
        self.i = 0

    async def wait(self, predicate, timeout: float = 10.0) -> dict[str, Any]:  # type: ignore[no-untyped-def]
        while self.i < len(self.states):
            st = self.states[self.i]
            if predicate(st):
                return st
            self.i += 1
        raise AssertionError("the script ran out of states")

    async def act(self, action: str, **fields: Any) -> dict[str, Any]:
        self.sent.append((action, fields))
        if action in self.refuse:
            raise ActionRefused(409, "ante.proposal", "there is no ante proposal to accept")
        self.i += 1
        return {"type": "ack"}


def _seat(seat: int, cards: list[str] | None, **kw: Any) -> dict[str, Any]:
    return {"seat": seat, "stack": 2_000, "bet": 0, "total": 50, "folded": cards is None, "all_in": False,
            "cards": cards, "value": None, "won": None, **kw}


def _state(version: int, rd: dict[str, Any] | None, **table: Any) -> dict[str, Any]:
    return {"type": "state", "version": version, "hand": rd and rd["hand"], "hand_id": rd and rd["hand"] + 40,
            "table": {"id": 1, "name": "T", "game": "poker", **table},
            "seats": [{"seat": 1, "player": "Alice", "account": 6, "stack": 2_000, "sitting_out": False},
                      {"seat": 2, "player": "Bot 1-2", "account": 9, "stack": 2_000, "sitting_out": False}],
            "you": {"account": 6, "seat": 1}, "round": rd, "log": []}


def _round(phase: str, to_act: int | None, legal: list[str], mine: list[str] | None, **kw: Any) -> dict[str, Any]:
    return {"game": "poker", "hand": 1, "phase": phase, "to_act": to_act, "legal_actions": legal, "button": 2,
            "ante": 50, "current_bet": 0, "pot": 100, "pots": [{"amount": 100, "eligible": [1, 2]}],
            "carry_in": 0, "carry_out": 0, "seats": [_seat(1, mine), _seat(2, ["??"] * 5)], **kw}


def test_the_terminal_puts_an_ante_proposal_to_the_player_and_plays_the_draw() -> None:
    hand = ["As", "Kd", "7h", "7c", "2s"]
    states = [
        _state(1, None, ante_proposal={"amount": 100, "waiting_for": [1]}),
        _state(2, _round("draw", 1, ["draw", "stand_pat"], hand, to_call=0)),
        _state(3, _round("complete", None, [], ["As", "Kd", "7h", "7c", "9d"])),
    ]
    table = ScriptedTable(states)
    answers = iter(["y", "d 2s kd", "q"])
    out: list[str] = []
    asyncio.run(_play_draw(table, 1, 1, lambda _prompt: next(answers), out.append))
    assert table.sent == [("accept_ante", {}), ("draw", {"discards": ["2s", "Kd"]})]
    assert "You accept the $1.00 ante." in out
    assert any("You lose $0.50 this hand." == x for x in out)


def test_a_declined_or_refused_ante_changes_nothing_and_play_goes_on() -> None:
    states = [_state(1, None, ante_proposal={"amount": 100, "waiting_for": [1]}),
              _state(2, None, ante_proposal={"amount": 200, "waiting_for": [1]}),
              _state(3, _round("first_betting", 1, ["check", "bet", "fold"], ["As", "Kd", "7h", "7c", "2s"],
                               to_call=0, bet_range=[50, 500], raise_range=None))]
    table = ScriptedTable(states, refuse={"accept_ante"})
    prompts: list[str] = []
    answers = iter(["n", "y", "q", "n", "q", "y"])
    out: list[str] = []

    def typist(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    asyncio.run(_play_draw(table, 1, None, typist, out.append))
    assert table.sent == [("accept_ante", {})]  # only the second proposal was accepted (and refused)
    assert "refused: there is no ante proposal to accept" in out
    assert "$1.00" in prompts[0] and "$2.00" in prompts[1]
    assert prompts[2] == "Your move [check / bet / fold / q] (bet $0.50–$5.00): "
    # q in a hand folds it: asked first; n stays (the move is asked again), y leaves
    assert prompts[3].startswith("Leave now? You fold and lose the $0.50 you put in the pot.")
    assert "You stay: play on." in out and prompts[4] == prompts[2] and prompts[5] == prompts[3]


@pytest.mark.parametrize("typed,expected", [
    ("k", ("check", {})), ("x", ("check", {})), ("call", ("call", {})), ("f", ("fold", {})),
    ("b 1.50", ("bet", {"amount": 150})), ("raise $1", ("raise", {"amount": 100})),
    ("p", ("stand_pat", {})), ("d 1 5", ("draw", {"discards": ["As", "2s"]})),
    ("draw 7H 2s", ("draw", {"discards": ["7h", "2s"]})),
])
def test_draw_commands_parse_to_protocol_actions(typed: str, expected: tuple[str, dict[str, Any]]) -> None:
    assert parse_draw_command(typed, ["As", "Kd", "7h", "7c", "2s"]) == expected


@pytest.mark.parametrize("typed,problem", [
    ("", "type a command"), ("b", "needs an amount"), ("bet 1.234", "cent"), ("d 6", "positions are 1..5"),
    ("d 1 1", "each once"), ("d Qs", "you do not hold Qs"), ("shove", "unknown command"),
])
def test_bad_draw_commands_are_named(typed: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        parse_draw_command(typed, ["As", "Kd", "7h", "7c", "2s"])


def test_the_draw_view_hides_nothing_it_was_not_given() -> None:
    st = _state(2, _round("first_betting", 1, ["check", "bet", "fold"], ["As", "Kd", "7h", "7c", "2s"]))
    text = render_draw(st, 1)
    # the evening-wide number (hand_id), as the pages and the admin say it, not the table's count
    assert "Hand 41 · first betting · pot $1.00 · ante $0.50" in text
    assert "You" in text and "Bot 1-2" in text and "[??] [??] [??] [??] [??]" in text and "◀ to act" in text
