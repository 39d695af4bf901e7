"""Five-card draw at a live table: the adapter between the table actor and a
:class:`~syndicate.poker.table.DrawTable` (button, antes agreed by all, the odd chips carried to
the next pot), dealing each hand from a fresh one-deck shoe. Its seed is revealed when the table
closes; when a hand ends, each card shown is checked by its opening (docs/fairness.md).

At a real-cards table each hand has an ``EnteredShoe(1, shown_only=True)``: the table runs on what
a real dealer sees. The cards are dealt face down and counted, never named; at the draw each
player says how many they throw; only the hands shown at the showdown are entered (a card twice
refused), and a four-card draw shown down without an Ace waits for the dealer's ruling
(docs/dealer.md). A bot there sees no card either: it checks or calls, and stands pat.

In the ledger the table's account holds the pot while a hand is played and the carried
remainder between hands; there is no house edge, so after each hand that account holds exactly
the carry.
"""

from __future__ import annotations

import dataclasses
import random
import secrets
from collections.abc import Mapping
from typing import Any

from ...core import money
from ...core.play import take_back
from ...core.shoe import EnteredShoe, Shoe
from ...poker import bots as poker_bots
from ...poker import history as draw_history
from ...poker import records as draw_records
from ...poker import served as draw_served
from ...poker.dealing import ShuffledDeck
from ...poker.draw import DrawHand
from ...poker.evaluator import spoken
from ...poker.history import hand_to_json, to_history, to_phh
from ...poker.records import redact
from ...poker.rules import DrawRules
from ...poker.state import DRAW as DRAW_PHASE
from ...poker.state import Dealing
from ...poker.table import HOST_DEALER, DrawTable
from ...poker.views import log_view, public_view, view
from ..errors import BadRequest, Conflict
from ..game import (
    ChipCount,
    Game,
    Leaving,
    Players,
    RecordDocs,
    RoundAccessors,
    card_awaited,
    entered_key,
    hand_in_play,
    misdeal_allowed,
    real_only,
)
from ..values import Table
from .overrides import check_types
from .registry import GameKind, HistoryFormat, NewShoe

MAX_DISCARDS = 5
#: The passive choices, in order: for a player whose clock ran out; and how a notice says the
#: clock made each.
PASSIVE = {"check": "checked", "stand_pat": "stood pat", "fold": "folded"}


class DrawGame(RoundAccessors):
    """Hands of five-card draw at one table, with the ante agreed by every seated player."""

    name: str = "poker"
    hand_word: str = "hand"
    passive: dict[str, str] = PASSIVE
    seat_actions: tuple[str, ...] = ("check", "bet", "call", "raise", "fold", "draw", "stand_pat", "accept_ante", "refuse_ante")
    #: card, take_back, ruling and misdeal are for a real-cards table (docs/dealer.md); the actor
    #: completes a misdeal (void_hand here, every bet returned there).
    dealer_actions: tuple[str, ...] = ("propose_ante", "card", "take_back", "ruling", "misdeal")

    def __init__(self, rules: DrawRules, players: Players, *, real: bool = False) -> None:
        self.rules = rules
        self.cards = "real" if real else "shuffled"
        self._players = players
        self.draw_table: DrawTable | None = None
        self.round: DrawHand | None = None
        self._rng: random.Random | None = None
        self._entered_key = ""  # the hand's deck's name (real cards)
        self._voided: int | None = None  # the number of the hand a misdeal voided, until the next
        self._logs = _LogViews()
        self._rules_json: tuple[DrawRules, dict[str, Any]] | None = None  # the hand's rules, as JSON

    @property
    def seat_count(self) -> int:
        return int(self.rules.max_players)

    @property
    def bot_unit(self) -> int:
        return int(self.rules.max_bet)

    def _playing(self) -> dict[int, int]:
        return {n: stack for n, stack in self._players().items() if stack > 0}

    def _sync_seats(self) -> DrawTable:
        """Between hands the draw table's seats are whoever sits here with chips."""
        stacks = self._playing()
        if self.draw_table is None:
            if len(stacks) < self.rules.min_players:
                raise Conflict("no_players", f"a hand needs at least {self.rules.min_players} players with chips")
            self.draw_table = DrawTable(stacks, self.rules, host=HOST_DEALER)
        elif not self.draw_table.in_hand:
            self.draw_table.finish()
            self.draw_table.seats = dict(stacks)
        return self.draw_table

    # -- the hand ---------------------------------------------------------------------------
    # has_hand, in_play, to_act, turn and card_needed: RoundAccessors, from self.round
    def start_hand(self, number: int) -> str | None:
        if len(self._playing()) < self.rules.min_players:
            raise Conflict("no_players", f"a hand needs at least {self.rules.min_players} players with chips")
        table = self._sync_seats()
        # A fresh one-deck shoe per hand from the OS's CSPRNG; its seed is kept until the table
        # closes (see history()). With real cards, the deck the dealer deals from: its face-down
        # cards counted, the hands shown down entered.
        shoe: Shoe | EnteredShoe
        if self.cards == "real":
            shoe, self._entered_key = EnteredShoe(1, shown_only=True), entered_key()
        else:
            shoe = Shoe.new(1, penetration=1.0, burn=0)
        self.round = table.start_hand(shoe)
        self.round.number = number
        self._voided = None
        return "dealt, antes in"

    def hand_stacks(self) -> dict[int, int]:
        return dict(self.round.stacks) if self.round is not None else {}

    def start_stacks(self) -> dict[int, int]:
        return dict(self.round.start_stacks) if self.round is not None else {}

    def verify_add_chips(self, seat: int, amount: int) -> None:
        """A hand of draw starts with the antes in and its cards on their way: no moment of it
        has bets open before a card, so a seat dealt in buys chips between hands."""
        raise Conflict("cards_out", "this hand is dealt (the antes are in): chips are sold between hands")

    def add_chips(self, seat: int, amount: int) -> None:
        self.verify_add_chips(seat, amount)

    def seat_action(self, seat: int, action: str, message: dict[str, Any]) -> bool:
        if action in ("accept_ante", "refuse_ante"):
            table = self._sync_seats()
            if action == "accept_ante":
                table.accept_ante(seat)
            else:  # the change needs everyone: one refusal withdraws it, the ante stays
                table.verify_accept_ante(seat)
                table.withdraw_ante_proposal()
            self.rules = table.rules
            return False
        hand_in_play(self)
        hand = self.round
        assert hand is not None
        if seat not in hand.stacks:
            raise Conflict("not_dealt_in", "you sat down after this hand started: wait for the next one")
        if action in ("bet", "raise"):
            amount = message.get("amount")
            hand.bet(seat, amount) if action == "bet" else hand.raise_(seat, amount)  # type: ignore[arg-type]
        elif action == "draw" and hand.shown_only:
            count = message.get("count")
            if isinstance(count, bool) or not isinstance(count, int):
                raise BadRequest("count", "the cards are dealt face down: say how many you throw, \"count\": 1 to 3, "
                                          "or 4 keeping an Ace (shown to the dealer); not which")
            hand.draw(seat, count)
        elif action == "draw":
            discards = message.get("discards")
            if not isinstance(discards, list) or len(discards) > MAX_DISCARDS or not all(
                    isinstance(c, str) and len(c) <= 3 for c in discards):
                raise BadRequest("discards", "discards is a list of up to 5 of your cards, such as [\"7h\", \"Kd\"]")
            hand.draw(seat, discards)
        else:
            getattr(hand, action)(seat)
        return True

    def dealer_action(self, action: str, message: dict[str, Any]) -> bool:
        if action == "ruling":
            real_only(self, "a ruling on a hand shown down")
            hand_in_play(self)
            assert self.round is not None
            seat, dead = message.get("seat"), message.get("dead")
            if isinstance(seat, bool) or not isinstance(seat, int) or not isinstance(dead, bool):
                raise BadRequest("ruling", "a ruling names the \"seat\" whose hand waits for it and whether it is "
                                           "\"dead\" (true) or stands (false)")
            self.round.ruling(seat, dead)
            return True
        if action in ("card", "take_back"):
            real_only(self, "entering a card")
            hand = self.round
            if action == "card":
                card_awaited(self)
                assert hand is not None  # the engine refuses a card it cannot take
                hand.deal_card(message.get("card"))
                return True
            # Also the card that settled the hand, while the table has not taken its result in
            # (hand_over leaves it to the next hand then): the room says until when (docs/dealer.md).
            if hand is None or (hand.is_terminal and (self.draw_table is None or self.draw_table.hand is not hand)):
                raise Conflict("take_back", "there is no card to take back: the last hand is over and "
                                            "the table has taken its result in")
            fresh, _taken = take_back(hand)  # the engine refuses (rule take_back) past a decision
            if self.draw_table is not None and self.draw_table.hand is hand:
                self.draw_table.hand = fresh
            self.round = fresh
            return True
        # propose_ante: it applies once every seated player has accepted.
        table = self._sync_seats()
        amount: Any = message.get("amount")  # the engine checks it
        table.propose_ante(HOST_DEALER, amount)
        self.rules = table.rules
        return False

    def leave(self, seat: int) -> Leaving:
        """Mid-hand a leaving player folds when their turn comes (at once if it is theirs); the
        stack goes back to the bankroll when the hand is over."""
        hand = self.round
        at_stake = hand is not None and seat in hand.stacks and seat not in hand.folded
        return Leaving(at_stake=at_stake, changed=False)

    def leaver_move(self, seat: int) -> str:
        hand = self.round
        assert hand is not None
        hand.fold(seat) if "fold" in hand.legal_actions(seat) else hand.stand_pat(seat)
        return "folds"

    def legal_actions(self, seat: int) -> list[str]:
        """The hand's decision of ``seat`` if it is theirs now, and the ante change while it waits
        for them."""
        hand = self.round
        out = hand.legal_actions(seat) if hand is not None and not hand.is_terminal and seat in hand.stacks else []
        dt = self.draw_table
        if dt is not None and dt.proposal is not None and seat in dt.waiting_for:
            out = [*out, "accept_ante", "refuse_ante"]
        return out

    def timeout_move(self, seat: int) -> str:
        hand = self.round
        assert hand is not None
        legal = hand.legal_actions(seat)
        choice = next(a for a in PASSIVE if a in legal)
        getattr(hand, choice)(seat)
        return choice

    def bot_pending(self, bots: frozenset[int]) -> int | None:
        hand = self.round
        if hand is None or hand.is_terminal:
            return None
        actor = hand.to_act
        return actor if actor in bots else None

    def bot_move(self, seat: int) -> str:
        hand = self.round
        assert hand is not None
        if hand.shown_only:  # its cards lie face down before its chair: nobody sees them
            legal = hand.legal_actions(seat)
            choice = next(a for a in ("check", "call", "stand_pat", "fold") if a in legal)
            getattr(hand, choice)(seat)
            return choice
        if self._rng is None:
            self._rng = random.Random(secrets.randbits(64))
        record = poker_bots.act(hand, seat, self._rng)
        return str(record.type)

    def betting_window(self) -> bool:
        return False  # the antes are in as the hand is dealt: no window to wait for

    def close_window(self) -> bool:
        return False

    def hand_over(self) -> None:
        hand = self.round
        if self.draw_table is not None and not (hand is not None and hand.can_take_back()):
            self.draw_table.finish()  # the carry and the button move on
        # A hand settled by a card leaves it to the next hand's start (_sync_seats): until then
        # that card can be taken back.

    def close(self) -> None:
        pass  # each hand's shoe was finished with its hand

    def can_take_back(self) -> bool:
        hand = self.round
        if self.cards != "real" or hand is None:
            return False
        taken_in = hand.is_terminal and (self.draw_table is None or self.draw_table.hand is not hand)
        return not taken_in and hand.can_take_back()

    def misdeal_refusal(self) -> str | None:
        """Why a misdeal may no longer void the hand in play: someone folded (their ante and
        bets are lost to the pot). None while it may (docs/dealer.md, "Misdeal: the rule")."""
        hand = self.round
        if hand is None or hand.is_terminal:
            return None
        folded = next((r.seat for r in hand.log if r.type == "fold"), None)
        return None if folded is None else f"seat {folded} has folded: their chips in the pot are lost"

    def void_hand(self) -> None:
        real_only(self, "a misdeal")
        hand_in_play(self)
        misdeal_allowed(self)
        hand, table = self.round, self.draw_table
        assert hand is not None and table is not None
        # As if it had not been dealt: the carry goes back in the middle for the next hand, and
        # the button stays, so the same seat deals (antes again) the hand that replaces it.
        table.hand, table.carry = None, hand.carry_in
        self.round, self._voided = None, hand.number

    def settlements(self) -> list[dict[str, Any]]:
        """What the hand has paid so far: each pot pushed and each uncalled bet returned (only
        at its end), with ``at`` (its record's index in the log), the seat, ``amount`` and
        ``why``."""
        hand = self.round
        if hand is None:
            return []
        shown = {r.seat: spoken(r.name) for r in hand.log if r.type == "show"}
        out = []
        for i, r in enumerate(hand.log):
            if r.type == "award":
                pot = "the pot" if r.pot == 0 else f"side pot {r.pot}"
                how = f"{shown[r.seat]}" if r.seat in shown else "everyone else folded"
                out.append({"at": i, "seat": r.seat, "amount": r.amount, "why": f"{pot}, {how}"})
            elif r.type == "uncalled":
                out.append({"at": i, "seat": r.seat, "amount": r.amount, "why": "uncalled bet back"})
        return out

    def payouts(self, items: list[dict[str, Any]] | None = None) -> list[dict[str, Any]] | None:
        """The pots pushed and the uncalled bets returned, seat by seat: of ``items``
        (:meth:`settlements`), or, once the hand is over, all of them, every seat of the hand
        and any odd chips carried; ``net`` is the seat's result in the hand (what the ledger
        moved). Nothing is paid before the showdown, so nothing is ever ``paid`` early."""
        hand = self.round
        if hand is None or (items is None and not hand.is_terminal):
            return None
        everything = items is None
        got_by: dict[int, list[dict[str, Any]]] = {}
        for i in self.settlements() if items is None else items:
            got_by.setdefault(i["seat"], []).append(i)
        out = []
        for seat in hand.order if everything else sorted(got_by):
            got = got_by.get(seat, [])
            amount = sum(i["amount"] for i in got)
            net = hand.stacks[seat] - hand.start_stacks[seat]
            said = "; ".join(f"{money.format(i['amount'])}: {i['why']}" for i in got)
            text = f"seat {seat}: give {money.format(amount)} ({said})" if got else f"seat {seat}: nothing"
            out.append({"seat": seat, "amount": amount, "paid": 0, "net": net, "text": text,
                        "items": [{**i, "text": f"give {money.format(i['amount'])} ({i['why']})"} for i in got]})
        carried = sum(r.amount for r in hand.log if r.type == "carry") if everything else 0
        if carried:
            out.append({"seat": None, "amount": 0, "paid": 0, "net": 0, "items": [],
                        "text": f"leave {money.format(carried)} in the middle for the next pot (odd chips)"})
        return out

    def dealt_in(self) -> frozenset[int]:
        return frozenset(self.round.stacks) if self.round is not None else frozenset()

    # -- storage ------------------------------------------------------------------------------
    def history(self, table_id: int, number: int, start_stacks: dict[int, int]) -> dict[str, Any]:
        """The hand as a one-hand history in the poker format (docs/hand-history-poker.md)."""
        rd = self.round
        assert rd is not None
        if self._rules_json is None or self._rules_json[0] is not rd.rules:
            self._rules_json = (rd.rules, rd.rules.to_dict())
        doc = to_history([])
        # each record's JSON made once (the views share them)
        doc["hands"] = [hand_to_json(rd, log=self._logs.of(rd.log), rules=self._rules_json[1])]
        doc["table"] = table_id
        for entry in doc["hands"]:  # the engine finished the deck, but its seed waits for the table to close
            entry["shoe"]["seed"] = None
        return doc

    @property
    def shoe(self) -> Shoe | None:
        assert self.round is not None
        deck = self.round.dealer
        return deck.shoe if isinstance(deck, ShuffledDeck) else None

    @property
    def shoe_key(self) -> str:
        shoe = self.shoe
        return shoe.commitment if shoe is not None else self._entered_key

    # -- what a conformance test asks (room/game.py) ----------------------------------------
    def chip_count(self) -> ChipCount:
        """The pot and the odd chips left for the next hand; the carry the hand began with."""
        hand = self.round
        if hand is None:
            return ChipCount(0, 0, 0)
        return ChipCount(hand.pot + hand.carry_out, 0, hand.carry_in)

    def hidden_cards(self, viewer: int | str) -> frozenset[str]:
        """Every card another seat was dealt, drew, threw or had entered face down, less the
        hands shown down and an Ace shown with a four-card draw (one deck: no card is there
        twice)."""
        hand = self.round
        if hand is None:
            return frozenset()
        private: set[str] = set()
        public = {c.text for shown in hand.shown.values() for c in shown}
        for r in hand.log:
            if isinstance(r, draw_records.Shown):
                public.update(c.text for c in r.cards)
            elif getattr(r, "seat", viewer) == viewer:
                continue
            elif isinstance(r, draw_records.Dealt):  # face-down cards never entered have no name
                private.update(c.text for c in r.cards)
            elif isinstance(r, draw_records.Drew):
                private.update(c.text for c in (*r.discards, *r.received))
            elif isinstance(r, draw_records.Discarded):
                private.update(c.text for c in r.discards)
            elif isinstance(r, (draw_records.CardEntered, draw_records.TakenBack)) and not hand.shown_only:
                private.add(r.card.text)  # (where only the hands shown are entered, face up: public)
        return frozenset(private - public)

    def random_move(self, who: int | str, rng: random.Random) -> tuple[str, dict[str, Any]] | None:
        """The dealer's ruling on a hand that waits for one; any of the seat to act's legal
        actions, with an amount in its range (whole chips, or all-in) or, at the draw, one to
        ``max_discard`` of its cards, or four keeping an Ace (at real cards: how many)."""
        hand = self.round
        if hand is None or hand.is_terminal or hand.card_needed is not None:
            return None
        if who == "dealer":
            seat = hand.ruling_needed if hand.shown_only else None
            return None if seat is None else ("ruling", {"seat": seat, "dead": rng.random() < 0.5})
        if who != hand.to_act or not isinstance(who, int):
            return None
        legal = hand.legal_actions(who)
        staying = [a for a in legal if a != "fold"]  # a fold now and then: most hands reach the showdown
        action = rng.choice(staying) if staying and rng.random() > 0.1 else rng.choice(legal)
        span = hand.bet_range(who) if action == "bet" else hand.raise_range(who) if action == "raise" else None
        if span is not None:
            low, high = span
            return action, {"amount": rng.choice((low, low + self.rules.chip * rng.randint(0, (high - low) // self.rules.chip)))}
        if action == "draw" and hand.phase == DRAW_PHASE:
            most = min(self.rules.max_discard, MAX_DISCARDS)
            own = list(hand.cards[who])
            aces = [c for c in own if c.is_ace]
            if self.rules.ace_discard and rng.random() < 0.25:  # four, keeping an Ace (shown)
                if hand.shown_only:  # the Ace is not entered: the showdown may want a ruling
                    return "draw", {"count": 4}
                if aces:
                    return "draw", {"discards": [c.text for c in own if c is not aces[0]]}
            if most < 1:
                return "stand_pat", {}
            if hand.shown_only:
                return "draw", {"count": rng.randint(1, most)}
            return "draw", {"discards": [c.text for c in rng.sample(own, rng.randint(1, most))]}
        return action, {}

    # -- views ----------------------------------------------------------------------------------
    def table_view(self) -> dict[str, Any]:
        """The ante in force and any ante proposal waiting for acceptances
        (``{"amount", "waiting_for": [seats]}``, else null); where the cards come from, and the
        hand a misdeal just voided."""
        dt = self.draw_table
        return {
            "cards": self.cards, "voided": self._voided,
            "ante": int(dt.rules.ante if dt is not None else self.rules.ante),
            "ante_proposal": ({"amount": dt.proposal, "waiting_for": dt.waiting_for}
                              if dt is not None and dt.proposal is not None else None),
        }

    def round_view(self, viewer: int | str, memo: dict[str, Any] | None) -> dict[str, Any]:
        """``views.view(hand, viewer)``: each seat sees its own cards. During a broadcast the part
        every viewer sees alike (:func:`~syndicate.poker.views.public_view`, no card in it) is made once."""
        rd = self.round
        assert rd is not None
        public = None
        if memo is not None:
            public = memo.get("public")
            if public is None:
                public = memo["public"] = public_view(rd)
        seen = view(rd, viewer, public)
        need = rd.card_needed
        seen["card_needed_text"] = need.describe() if need is not None else None
        if rd.shown_only:
            seen["deal_text"] = deal_text(rd.to_deal) if rd.to_deal is not None else None
            ruling = rd.ruling_needed
            seen["ruling_text"] = (f"seat {ruling} drew four cards but shows no Ace: the hand is dead (it wins "
                                   "nothing), or it stands" if ruling is not None else None)
        if viewer == "dealer":
            seen["payouts"] = self.payouts()
        return seen

    def log_view(self, viewer: int | str, memo: dict[str, Any] | None) -> list[dict[str, Any]]:
        """``views.log_view(hand, viewer)``, kept from change to change (:class:`_LogViews`)."""
        assert self.round is not None
        if memo is None:
            return log_view(self.round, viewer)
        if "log_synced" not in memo:
            self._logs.sync(self.round.log)
            memo["log_synced"] = True
        return self._logs.view(viewer)


_NUMBERS = ("no", "one", "two", "three", "four", "five")


def deal_text(d: Dealing) -> str:
    """What the dealer deals now, in words: the deal, or one player's draw (and, when the deck
    runs out, what to do then)."""
    if len(d.seats) > 1:
        return f"deal {_NUMBERS[d.cards]} cards face down to each player (seats {', '.join(map(str, d.seats))})"
    seat, n = d.seats[0], d.cards
    cards = f"{_NUMBERS[n]} card{'s' if n > 1 else ''}"
    out = f"the deck is out: shuffle the discards (keep seat {seat}'s own discards aside)"
    if not d.from_muck:
        return f"deal seat {seat} {cards} face down"
    if not d.from_deck:
        return f"{out} and deal seat {seat} {cards} from them"
    return (f"deal seat {seat} the last {_NUMBERS[d.from_deck]} of the deck; then {out} and deal "
            f"{_NUMBERS[d.from_muck]} more from them")


class _LogViews(RecordDocs):
    """Each viewer's log of the hand in play, as ``views.log_view`` makes it, but extended
    as records are added rather than made again for every viewer on every change: each seat's
    copy has the others' cards hidden (:func:`redact`)."""

    def __init__(self) -> None:
        super().__init__(lambda r: r.to_json())
        self.views: dict[int | str, list[dict[str, Any]]] = {}

    def sync(self, log: list[Any]) -> int:
        keep = super().sync(log)
        for v in self.views.values():
            del v[keep:]
        return keep

    def view(self, viewer: int | str) -> list[dict[str, Any]]:
        """A new list each time (the message keeps it as it was); its records are shared."""
        mine = self.views.setdefault(viewer, [])
        mine.extend(redact(d, viewer) for d in self.docs[len(mine):])
        return list(mine)


# -- the game, as the room's registry knows it ---------------------------------------------------
def _table_rules(preset_name: str | None, overrides: Mapping[str, Any]) -> tuple[dict[str, Any], int]:
    check_types(DrawRules, overrides, nullable=("raise_cap",))
    if preset_name not in (None, "default"):
        raise BadRequest("preset", "poker tables have one preset, 'default'")
    fields = {f.name: f for f in dataclasses.fields(DrawRules)}
    values: dict[str, Any] = {}
    for k, v in overrides.items():
        if k not in fields:
            raise BadRequest("overrides", f"unknown poker setting {k!r}; known: {', '.join(fields)}")
        values[k] = v
    draw = DrawRules(**values)
    return dataclasses.asdict(draw), draw.max_players


def _adapter(table: Table, players: Players, new_shoe: NewShoe | None) -> Game:
    return DrawGame(DrawRules.from_dict(table.game_rules), players, real=table.cards == "real")


def _dollars(cents: int) -> str:
    return f"${cents // 100}.{cents % 100:02d}"


def _summary(r: dict[str, Any]) -> str:
    return (f"Five-card draw, ante {_dollars(r['ante'])}, bets {_dollars(r['min_bet'])}–"
            f"{_dollars(r['max_bet'])}, draw up to {r['max_discard']}"
            + (" (4 keeping an Ace)" if r.get("ace_discard") else ""))


#: Five-card draw keeps the id "poker" in stored rows, histories and the protocol.
DRAW = GameKind(
    id="poker", title="Five-card draw", rules=DrawRules, table_rules=_table_rules,
    stake_keys=("ante", "min_bet", "max_bet", "min_raise", "max_raise", "min_ante", "max_ante"),
    bounds=(50, 500),  # the house rule's: "Bet → between $0.50 and $5"
    adapter=_adapter,
    history=HistoryFormat(
        key="hands", replay=draw_history.replay, verify=draw_history.verify, steps=draw_history.steps_of,
        served=draw_served.served, house_copy=draw_served.house_copy, results=draw_served.results,
        commitment=draw_served.commitment, phh=to_phh),
    summary=_summary,
    presets=lambda: DrawRules().to_dict(),
)
