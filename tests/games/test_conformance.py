"""One test over every registered game, in the manner of OpenSpiel's games_sim_test: random
legal hands played through the game's room adapter (:class:`syndicate.room.game.Game`), for each
card source the game has (a shuffled committed shoe; real cards entered by the dealer), with
the room's promises checked at every step:

- no chip is made or lost (:meth:`Game.chip_count` against the stacks);
- no view shows a card its viewer must not see (:meth:`Game.hidden_cards`, read off the
  engine's cards; at real cards a card the test entered face down is among them);
- a refused action (out of turn, not legal now, a bad amount or argument, a bad card) raises the
  room's or the engine's typed error and changes no one's view;
- a card taken back leaves every view as it was before the card (the log says it was taken back);
- the hand's stored history replays to the same log and results, and verifies against the
  committed shoe.

Nothing here names a game: the moves come from :meth:`Game.random_move`, the hidden cards from
:meth:`Game.hidden_cards`. The shoes are shuffled from the test's seed (``Shoe.new`` patched),
so every case deals and plays the same hands on every run.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from syndicate.core.cards import card as parse_card
from syndicate.core.errors import RuleError
from syndicate.core.shoe import SEED_BYTES, Shoe
from syndicate.room import games
from syndicate.room.errors import RoomError
from syndicate.room.game import Game
from syndicate.room.values import CARDS_KEY, Table
from tests.games.high_card import HIGH_CARD

HANDS = 30  # per game and card source
SEATS = 3
MAX_STEPS = 400  # per hand: a hand that does not end by then is stuck
SOURCES = ("shuffled", "real")
REFUSED = (RoomError, RuleError)
#: Bad values for a move's arguments: wrong type, negative, far too large, no such card.
BAD = ("x", -1, 10**12, None, ["Zz"], True)

CASES = [(kind.id, cards) for kind in (*games.kinds(), HIGH_CARD) for cards in SOURCES]


@pytest.fixture
def kind(request: pytest.FixtureRequest) -> Iterator[games.GameKind]:
    game_id = request.param
    toy = game_id == HIGH_CARD.id and HIGH_CARD not in games.kinds()
    if toy:
        games.register(HIGH_CARD)
    try:
        yield games.kind_of(game_id)
    finally:
        if toy:
            games.unregister(HIGH_CARD.id)


@pytest.mark.parametrize(("kind", "cards"), CASES, indirect=["kind"],
                         ids=[f"{g}-{c}" for g, c in CASES])
def test_random_hands_keep_the_rooms_promises(kind: games.GameKind, cards: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(f"{kind.id}/{cards}")
    shuffle_rng = random.Random(f"{kind.id}/{cards}/shoes")
    monkeypatch.setattr(Shoe, "new", classmethod(lambda cls, decks=6, penetration=0.75, burn=1: cls.from_seed(
        shuffle_rng.randbytes(SEED_BYTES), decks, penetration, burn)))
    rules, seat_count = kind.table_rules(None, {})
    if cards == "real":
        rules = {**rules, CARDS_KEY: "real"}
    table = Table(id=1, event_id=1, name="conformance", game=kind.id, rules=rules, seats=seat_count,
                  dealer_id=1, status="open")
    stacks: dict[int, int] = {}
    game = kind.adapter(table, lambda: {s: c for s, c in stacks.items() if c > 0}, None)
    if game.cards != cards:
        pytest.skip(f"{kind.title} has no {cards} cards")
    Play(kind, game, stacks, rng).hands(HANDS)


class Play:
    """The hands of one case, and the checks made at every step of them."""

    def __init__(self, kind: games.GameKind, game: Game, stacks: dict[int, int], rng: random.Random) -> None:
        self.kind, self.game, self.stacks, self.rng = kind, game, stacks, rng
        self.unit = game.bot_unit
        self.seats = list(range(1, min(SEATS, game.seat_count) + 1))
        self.viewers: list[int | str] = [*self.seats, "spectator", "dealer"]
        self.bought = 0  # every chip the players brought to the table
        self.house = 0  # the house's result over the hands so far
        self.carry = 0  # chips the last hand left in the middle for the next
        self.refusals = self.take_backs = self.steps = 0
        self.shoes: dict[str, list[dict[str, Any]]] = {}  # the histories of each shoe's hands

    def hands(self, count: int) -> None:
        for number in range(1, count + 1):
            self.top_up()
            self.game.start_hand(number)
            assert self.game.chip_count().brought == self.carry, "a hand began with other chips than the last left"
            self.play(number)
        if self.game.seat_actions:  # a game with decisions: they were played and refused
            assert self.steps > count and self.refusals > 0
        if self.game.cards == "real" and self.game.dealer_actions:
            assert self.take_backs > 0
        self.game.close()
        if self.game.shoe is not None:  # the seed is out: the last shoe's cards all check
            doc = json.loads(json.dumps(self.game.history(1, count, self.game.start_stacks())))
            verified = self.kind.history.verify(self.served(doc))
            assert verified.ok and verified.to_json().get("pending", 0) == 0, verified.to_json()

    def top_up(self) -> None:
        """Every seat has chips for a few hands (a busted player buys in again)."""
        for s in self.seats:
            if self.stacks.get(s, 0) < 3 * self.unit:
                more = 20 * self.unit - self.stacks.get(s, 0)
                self.stacks[s] = self.stacks.get(s, 0) + more
                self.bought += more

    # -- one hand ---------------------------------------------------------------------------
    def play(self, number: int) -> None:
        game, deck = self.game, self.deck()
        for _ in range(MAX_STEPS):
            self.check_chips()
            self.check_views()
            if not game.in_play:
                break
            self.steps += 1
            self.refuse_some()
            if game.card_needed is not None:
                self.enter_card(deck)
                continue
            who, move = self.pick()
            if move is None:
                assert game.betting_window() and game.close_window(), "no one has a move and the hand waits"
                continue
            action, message = move
            if isinstance(who, int):
                game.seat_action(who, action, message)
            else:
                game.dealer_action(action, message)
        else:
            pytest.fail(f"hand {number} did not end in {MAX_STEPS} steps")
        self.end(number)

    def pick(self) -> tuple[int | str, tuple[str, dict[str, Any]] | None]:
        """The seat to act's move, or else the first move of any seat or the dealer (bets,
        the deal, a ruling), in random order."""
        to_act = self.game.to_act
        candidates: list[int | str] = [to_act] if to_act is not None else [*self.seats, "dealer"]
        self.rng.shuffle(candidates)
        for who in candidates:
            move = self.game.random_move(who, self.rng)
            if move is not None:
                return who, move
        return "dealer", None

    def end(self, number: int) -> None:
        """The hand is over: its history replays and verifies; its chips go back to the seats."""
        game, kind = self.game, self.kind
        start, after = game.start_stacks(), game.hand_stacks()
        doc = json.loads(json.dumps(game.history(1, number, start)))  # as stored
        nets = {str(s): after[s] - start[s] for s in after}
        shoe = game.shoe
        house = self.served(doc)
        replayed = kind.history.replay(house)
        assert replayed.matches, getattr(replayed, "problems", None) or getattr(replayed, "messages", None)
        results = kind.history.results(doc)
        assert results is not None and {s: n for s, n in results.items() if n} == {s: n for s, n in nets.items() if n}
        verified = kind.history.verify(house)
        assert verified.ok, verified.to_json()
        if shoe is not None:
            assert kind.history.commitment(doc) == shoe.commitment
        count = game.chip_count()
        self.house += count.house
        self.carry = count.middle
        self.stacks.update(after)
        assert sum(self.stacks.values()) + self.carry + self.house == self.bought, "chips made or lost over the hands"
        game.hand_over()

    def served(self, doc: dict[str, Any]) -> dict[str, Any]:
        """``doc`` as the room has it for its own checks: the hands of its shoe so far joined
        into one history (a real shoe's count runs over its hands; ``doc`` replaces an earlier
        copy of the same hand), with the escrowed seed where the replay needs it."""
        game, history = self.game, self.kind.history
        same_shoe = self.shoes.setdefault(game.shoe_key, [])
        if same_shoe and same_shoe[-1][history.key][-1]["number"] == doc[history.key][-1]["number"]:
            same_shoe.pop()
        same_shoe.append(doc)
        joined = {k: v for k, v in copy.deepcopy(doc).items() if k != "hand"}
        joined[history.key] = [entry for d in same_shoe for entry in copy.deepcopy(d[history.key])]
        shoe = game.shoe
        return history.house_copy(joined, shoe.escrow_hex() if shoe is not None else None)

    # -- the checks ---------------------------------------------------------------------------
    def check_chips(self) -> None:
        game = self.game
        if not game.has_hand:
            return
        count, stacks, start = game.chip_count(), game.hand_stacks(), game.start_stacks()
        assert set(stacks) == set(start)
        assert min(stacks.values(), default=0) >= 0
        assert sum(stacks.values()) + count.middle + count.house == sum(start.values()) + count.brought, (
            f"chips made or lost: stacks {stacks} from {start}, {count}")

    def views(self) -> dict[str, str]:
        """Every viewer's view as JSON text: the hand and its log as the actor sends them
        (``memo`` shared by one broadcast) and as one viewer's request has them, and the
        viewer's legal actions."""
        game, memo = self.game, {}  # type: ignore[var-annotated]
        return {str(v): json.dumps([game.round_view(v, memo), game.log_view(v, memo), game.round_view(v, None),
                                    game.log_view(v, None), game.legal_actions(v) if isinstance(v, int) else None],
                                   ensure_ascii=False) for v in self.viewers}

    def check_views(self) -> None:
        if not self.game.has_hand:
            return
        views = self.views()
        for v in self.viewers:
            seen = self.game.hidden_cards(v) & cards_in(views[str(v)])
            assert not seen, f"{v!r} sees {sorted(seen)}"

    def state(self) -> Any:
        """What the actor reads of the hand after a change."""
        game = self.game
        return (game.has_hand, game.in_play, game.to_act, game.card_needed, game.turn(), game.hand_stacks(),
                game.chip_count(), game.settlements(), game.payouts())

    def unchanged(self, before: dict[str, str], state: Any, what: str) -> None:
        after = self.views()
        for v in before:
            assert after[v] == before[v], f"{what} changed {v}'s view"
        assert self.state() == state, f"{what} changed the hand"

    def refuse_some(self) -> None:
        """Moves the game must refuse, each changing nothing: a seat's action out of turn or
        not legal now, a legal move with a bad argument, a card at a table that deals its own,
        a card no card is needed for or no such card."""
        game, rng = self.game, self.rng
        if rng.random() > 0.3:
            return
        before, state = self.views(), self.state()
        tries: list[tuple[int | str, str, dict[str, Any]]] = []
        for s in self.seats:
            legal = set(game.legal_actions(s))
            wrong = [a for a in game.seat_actions if a not in legal]
            if wrong:
                tries.append((s, rng.choice(wrong), {"amount": game.rules.min_bet}))
        for who in self.viewers:
            move = game.random_move(who, rng)
            if move is not None and move[1]:
                action, message = move
                key = rng.choice(sorted(message))
                bad = rng.choice([b for b in BAD if repr(b) != repr(message[key])])
                tries.append((who, action, {**message, key: bad}))
        if "card" in game.dealer_actions:
            if game.cards != "real" or game.card_needed is None:
                tries.append(("dealer", "card", {"card": "As"}))
            else:
                tries.append(("dealer", "card", {"card": "Zz"}))
        for who, action, message in tries:
            with pytest.raises(REFUSED):
                if isinstance(who, int):
                    game.seat_action(who, action, message)
                else:
                    game.dealer_action(action, message)
            self.refusals += 1
        self.unchanged(before, state, "a refused move")

    # -- real cards -------------------------------------------------------------------------
    def deck(self) -> list[str]:
        """The physical cards the dealer deals from in this hand, in order (real cards)."""
        cards = [f"{r}{s}" for r in "23456789TJQKA" for s in "cdhs"]
        self.rng.shuffle(cards)
        return cards

    def enter_card(self, deck: list[str]) -> None:
        """The next card of ``deck`` the game takes (one it refuses changes nothing); now and
        then taken back at once, which must leave every view as before, and entered again."""
        game = self.game
        need = game.card_needed
        assert need is not None
        before, state = self.views(), self.state()
        while True:
            assert deck, "no card of a whole deck was taken"
            card = deck.pop(0)
            try:
                game.dealer_action("card", {"card": card})
            except REFUSED:
                self.refusals += 1
                self.unchanged(before, state, "a refused card")
                continue
            break
        if not need.face_up:  # hidden from everyone, unless its text is face up too (several decks)
            shown = cards_in(self.views()["spectator"])
            for v in self.viewers:
                assert card in game.hidden_cards(v) or card in shown, f"the card entered face down is not hidden from {v!r}"
        if game.can_take_back() and self.rng.random() < 0.4:
            game.dealer_action("take_back", {})
            self.take_backs += 1
            for v, text in self.views().items():
                round_, _log, round_alone, log_alone, legal = json.loads(text)
                b = json.loads(before[v])
                assert legal == b[4], f"a take-back changed {v}'s legal actions"
                for mine, was in ((round_, b[0]), (round_alone, b[2])):
                    # a view's version counts the changes, and the take-back is one more
                    mine, was = {**mine, "version": None}, {**was, "version": None}
                    assert mine == was, f"a take-back left {v}'s view changed: " + ", ".join(
                        f"{k}: {was.get(k)!r} -> {mine.get(k)!r}" for k in sorted({*mine, *was})
                        if mine.get(k) != was.get(k))
                for log in (_log, log_alone):
                    assert log[:len(b[1])] == b[1], f"a take-back changed {v}'s log"
                    assert all(r["type"] == "take_back" for r in log[len(b[1]):])
            assert game.card_needed == need
            game.dealer_action("card", {"card": card})


#: A card's text ("Td", "As", also "10d") or its pretty form ("A♠"), as a whole word.
_CARD = re.compile(r"(?<![A-Za-z0-9])(10|[2-9TJQKA])([cdhs♠♥♦♣])(?![A-Za-z0-9])")
_SUITS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}


def cards_in(text: str) -> set[str]:
    """Every card named anywhere in ``text`` (JSON), as its text."""
    return {parse_card(rank + _SUITS.get(suit, suit)).text for rank, suit in _CARD.findall(text)}
