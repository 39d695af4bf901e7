"""Blackjack at a live table: the adapter between the table actor and :class:`Round`.

At a real-cards table the rounds are dealt from an :class:`EnteredShoe` of the rules' decks,
one per physical shoe: it counts every card entered until the dealer says the shoe was changed
(``new_shoe``), so a card the shoe cannot hold is refused (docs/dealer.md)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from ...blackjack import basic, views
from ...blackjack import fairness as bj_fairness
from ...blackjack import history as bj_history
from ...blackjack import records as rec
from ...blackjack.course import BETTING
from ...blackjack.maths import odds, strategy
from ...blackjack.real_cards import shuffle_discards
from ...blackjack.round import Round, shuffled
from ...blackjack.rules import PRESET_TITLES, PRESETS, Rules, preset
from ...blackjack.session import HISTORY_FORMAT, HISTORY_VERSION, round_json, shoe_json
from ...core import money, play
from ...core.shoe import EnteredShoe, Shoe
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
    move_text,
    real_only,
)
from ..values import Table
from .overrides import check_types
from .registry import GameKind, HistoryFormat, NewShoe, Odds

#: What a player who lets the turn clock run out does: the passive choice, and how a notice
#: says the clock made it.
PASSIVE = {"stand": "stood", "no_insurance": "declined insurance", "play_on": "played on (no surrender)"}
#: Why the dealer pays or takes, by the engine's outcome of a bet (blackjack is the rules' ratio).
OUTCOMES = {"win": "win 1:1", "push": "", "lose": "", "bust": "bust", "surrender": "surrender: half the bet back",
            "forfeit": "left the table", "even_money": "even money 1:1", "insurance_win": "insurance 2:1",
            "insurance_lose": "insurance lost", "insurance_forfeit": "insurance, left the table"}


#: What a bet settled during the round says, in the refusal of a misdeal declared after it.
SETTLED_WORDS = {
    "bust": "seat {seat}'s bust is collected", "blackjack": "seat {seat}'s blackjack is paid",
    "even_money": "seat {seat} is paid even money", "forfeit": "seat {seat} left once the dealing started and "
    "forfeited the bet (\"a player who leaves at this stage will forfeit his bet\")",
    "insurance_forfeit": "seat {seat} left once the dealing started and forfeited the bet",
    "insurance_lose": "seat {seat}'s insurance is collected", "insurance_win": "seat {seat}'s insurance is paid",
    "surrender": "seat {seat}'s surrender is settled",
}


def standard_shoe(rules: Rules) -> Shoe:
    """A freshly shuffled shoe for ``rules`` from the OS's CSPRNG."""
    return Shoe.new(rules.decks, rules.penetration, 1 if rules.burn_card else 0)


class BlackjackGame(RoundAccessors):
    """Rounds dealt from a shoe that lasts until its cut card: one :class:`Round` per hand."""

    name: str = "blackjack"
    hand_word: str = "round"
    passive: dict[str, str] = PASSIVE
    seat_actions: tuple[str, ...] = ("bet", "hit", "stand", "double", "split", "surrender", "insurance", "no_insurance",
                    "even_money", "play_on")
    #: card, take_back, new_shoe, shuffle_discards and misdeal are for a real-cards table
    #: (docs/dealer.md); the actor completes a misdeal (void_hand here, every bet returned there).
    dealer_actions: tuple[str, ...] = ("deal", "card", "take_back", "new_shoe", "shuffle_discards", "misdeal")

    def __init__(self, rules: Rules, players: Players, new_shoe: Callable[[Rules], Shoe] | None = None, *,
                 real: bool = False) -> None:
        self.rules = rules
        self.cards = "real" if real else "shuffled"
        self._players = players
        self._new_shoe = new_shoe or standard_shoe
        self._shoe: Shoe | EnteredShoe | None = None
        self._entered_key = ""  # the physical shoe's name (real cards)
        self.round: Round | None = None
        self._start: dict[int, int] = {}
        self._voided: int | None = None  # the number of the hand a misdeal voided, until the next
        self._number = 0
        self._docs = RecordDocs(rec.to_json)  # the round in play's records as JSON, each made once

    @property
    def seat_count(self) -> int:
        return int(self.rules.seats)

    @property
    def bot_unit(self) -> int:
        return int(self.rules.max_bet)

    # -- the hand ---------------------------------------------------------------------------
    # has_hand, in_play, to_act, turn and card_needed: RoundAccessors, from self.round
    def start_hand(self, number: int) -> str | None:
        stacks = self._players()
        if not stacks:
            raise Conflict("no_players", "no one is seated")
        finished = None
        if self.cards == "real":
            if self._shoe is None:  # until the dealer says the shoe was changed (new_shoe)
                self._shoe, self._entered_key = EnteredShoe(self.rules.decks), entered_key()
        elif self._shoe is None or self._shoe.needs_shuffle:
            finished, self._shoe = self._shoe, self._new_shoe(self.rules)
        shoe = self._shoe
        self.round = shuffled(self.rules, shoe, stacks) if isinstance(shoe, Shoe) else Round(self.rules, shoe, stacks)
        self._start = dict(stacks)
        self._number, self._voided = number, None
        if finished is not None:
            # No more cards from it. Its seed stays secret until the table closes
            # (docs/fairness.md): the cards shown are checked by their openings.
            finished.reveal()
        return None  # no chips move until the bets

    def hand_stacks(self) -> dict[int, int]:
        return {n: s.stack for n, s in self.round.seats.items()} if self.round is not None else {}

    def start_stacks(self) -> dict[int, int]:
        return dict(self._start)

    def verify_add_chips(self, seat: int, amount: int) -> None:
        hand_in_play(self)
        assert self.round is not None
        self.round.verify_add_chips(seat, amount)  # bets open, no card out: "cards_out" otherwise

    def add_chips(self, seat: int, amount: int) -> None:
        assert self.round is not None
        self.round.add_chips(seat, amount)
        self._start[seat] = self._start.get(seat, 0) + amount

    def seat_action(self, seat: int, action: str, message: dict[str, Any]) -> bool:
        hand_in_play(self)
        rd = self.round
        assert rd is not None
        if seat not in rd.seats:
            raise Conflict("not_dealt_in", "you sat down after this round started: wait for the next one")
        amount = message.get("amount")
        if action in ("bet", "double", "insurance"):
            args: tuple[Any, ...] = (seat, amount) if action == "bet" or amount is not None else (seat,)
        else:
            args = (seat,)
        getattr(rd, action)(*args)  # the engine verifies first: a refusal raises and changes nothing
        return True

    def dealer_action(self, action: str, message: dict[str, Any]) -> bool:
        if action == "new_shoe":
            return self._change_shoe()
        if action == "shuffle_discards":
            real_only(self, "shuffling the discards in")
            if not self.in_play:
                raise Conflict("no_round", "no round is in play: between rounds, a new shoe starts the count again")
            assert self.round is not None and isinstance(self._shoe, EnteredShoe)
            shuffle_discards(self.round, self._shoe)  # the cards of the round in play stay counted
            return True
        if action != "deal":
            real_only(self, "entering a card")
        if action == "card":
            card_awaited(self)
        elif action == "take_back":
            # Also the card that settled the round: the room says until when (docs/dealer.md).
            if self.round is None:
                raise Conflict("take_back", "there is no card to take back: no round has been dealt since")
            # The engine refuses (rule take_back) past a decision; the round is rebuilt.
            self.round, _ = play.take_back(self.round)
            return True
        hand_in_play(self)
        rd = self.round
        assert rd is not None
        if action == "card":  # the engine refuses a card it cannot take
            rd.deal_card(message.get("card"))
        elif action == "deal":
            rd.deal()
        else:  # misdeal: the actor's to complete, through void_hand
            raise BadRequest("action", f"{action!r} is not for the round to apply")
        return True

    def _change_shoe(self) -> bool:
        """The dealer filled the shoe again (or changed it): the count starts afresh. Between
        rounds only: a round's cards all come from one shoe."""
        real_only(self, "a new shoe")
        if self.in_play:
            raise Conflict("round_in_play", "the shoe is changed between rounds: finish this round first "
                                            "(or declare a misdeal)")
        self._shoe = None
        return False

    def can_take_back(self) -> bool:
        return self.cards == "real" and self.round is not None and self.round.can_take_back()

    def misdeal_refusal(self) -> str | None:
        """Why a misdeal may no longer void the round in play: a bet of it is settled (a bust
        collected, a natural paid, even money, insurance at the peek, a leaver's forfeit) or the
        hole card is turned. None while it may (docs/dealer.md, "Misdeal: the rule")."""
        rd = self.round
        if rd is None or rd.is_terminal:
            return None
        if not any(r.type == "card" for r in rd.log):
            return "no card has been dealt yet: there is nothing to void"
        for r in rd.log:
            if r.type == "payout":
                return SETTLED_WORDS.get(r.outcome, "seat {seat}'s bet is settled").format(seat=r.seat)
        if rd.hole_revealed:
            return "the hole card is turned: the round's outcome is seen"
        return None

    def void_hand(self) -> None:
        real_only(self, "a misdeal")
        hand_in_play(self)
        misdeal_allowed(self)
        # The cards of the voided round stay counted: they are out of the shoe, in the discard tray.
        self.round, self._voided = None, self._number

    def leave(self, seat: int) -> Leaving:
        rd = self.round
        if rd is None or seat not in rd.seats or rd.seats[seat].left:
            return Leaving(at_stake=False, changed=False)
        betting = rd.phase == "betting"
        rd.leave(seat)  # before the deal the bet comes back; after it, "will forfeit his bet"
        return Leaving(at_stake=not betting, changed=True)

    def leaver_move(self, seat: int) -> str:
        return self.timeout_move(seat)  # never needed: a seat that left is out of the round

    def legal_actions(self, seat: int) -> list[str]:
        rd = self.round
        if rd is None or rd.is_terminal or seat not in rd.seats or rd.seats[seat].left:
            return []
        return rd.legal_actions(seat)

    def timeout_move(self, seat: int) -> str:
        rd = self.round
        assert rd is not None
        legal = rd.legal_actions(seat)
        choice = next(a for a in PASSIVE if a in legal)
        getattr(rd, choice)(seat)
        return choice

    def bot_pending(self, bots: frozenset[int]) -> int | None:
        rd = self.round
        if rd is None or rd.is_terminal:
            return None
        if rd.phase == "betting":
            for n, seat in rd.seats.items():
                if n in bots and not seat.left and seat.bet == 0 and seat.stack >= self.rules.min_bet:
                    return int(n)
            return None
        actor = rd.to_act
        return actor if actor in bots else None

    def bot_move(self, seat: int) -> str:
        rd = self.round
        assert rd is not None
        if rd.phase == "betting":
            rd.bet(seat, self.rules.min_bet)
            return "bet"
        legal = rd.legal_actions(seat)
        if rd.phase == "insurance":
            choice = "even_money" if "even_money" in legal else "no_insurance"
        elif rd.phase == "early_surrender":
            choice = "play_on"
        else:
            hand, up = rd.current_hand, rd.up_card
            assert hand is not None and up is not None  # a player is to act: their hand, the dealer's card
            choice = basic.decide(self.rules, hand.cards, up, legal)
            if choice not in legal:
                choice = "stand" if "stand" in legal else legal[0]
        getattr(rd, choice)(seat)
        return choice

    def betting_window(self) -> bool:
        return self.in_play and self.round is not None and self.round.phase == "betting"

    def close_window(self) -> bool:
        rd = self.round
        if rd is None or not rd.can_deal():
            return False
        rd.deal()
        return True

    def hand_over(self) -> None:
        pass  # the shoe carries on to the next round

    def close(self) -> None:
        if self._shoe is not None:
            self._shoe.reveal()

    # -- storage ------------------------------------------------------------------------------
    def history(self, table_id: int, number: int, start_stacks: dict[int, int]) -> dict[str, Any]:
        assert self.round is not None and self._shoe is not None
        return {
            "format": HISTORY_FORMAT, "version": HISTORY_VERSION, "game": "blackjack",
            "rules": self.rules.to_dict(), "table": table_id, "hand": number,
            "shoes": [shoe_json(self._shoe)],
            "rounds": [round_json(number, 0, start_stacks, self.round, log=self._docs.of(self.round.log))],
        }

    @property
    def shoe(self) -> Shoe | None:
        assert self._shoe is not None
        return self._shoe if isinstance(self._shoe, Shoe) else None

    @property
    def shoe_key(self) -> str:
        assert self._shoe is not None
        return self._shoe.commitment if isinstance(self._shoe, Shoe) else self._entered_key

    def settlements(self) -> list[dict[str, Any]]:
        """Every bet of the round settled so far, in the order of its ``payout`` record: ``at``
        (the record's index in the log), the seat, the hand (-1: insurance), the outcome,
        ``amount`` (the bet's net: what the dealer pays, or takes when negative) and ``why``."""
        rd = self.round
        if rd is None:
            return []
        out = []
        for i, r in enumerate(rd.log):
            if r.type == "payout":
                why = f"blackjack {self.rules.blackjack_pays}" if r.outcome == "blackjack" else OUTCOMES.get(
                    r.outcome, r.outcome)
                out.append({"at": i, "seat": r.seat, "hand": r.hand, "outcome": r.outcome, "amount": r.net,
                            "why": why})
        return out

    def payouts(self, items: list[dict[str, Any]] | None = None) -> list[dict[str, Any]] | None:
        """Seat by seat, what the dealer moves: of ``items`` (:meth:`settlements`), all due
        now; by default of every bet settled so far, where those settled before the round's
        last step (a bust collected, a natural paid at once, even money, insurance at the peek,
        a leaver's forfeit) were told, and moved, when they were settled: they are ``paid``,
        not due again. A bet was taken from the stack when made, so ``net`` (the seat's result,
        what the ledger moved) is ``amount`` (due) plus ``paid``."""
        rd = self.round
        if rd is None:
            return None
        if items is None:
            items = self.settlements()
            end = rd.last_input() if rd.is_terminal else len(rd.log)
            for i in items:
                i["during"] = i["at"] < end
        if not items:
            return None
        by_seat: dict[int, list[dict[str, Any]]] = {}
        for i in items:
            by_seat.setdefault(i["seat"], []).append(i)
        return [_entry(seat, by_seat[seat]) for seat in sorted(by_seat)]

    def dealt_in(self) -> frozenset[int]:
        rd = self.round
        return frozenset(n for n, s in rd.seats.items() if s.hands) if rd is not None else frozenset()

    # -- what a conformance test asks (room/game.py) ----------------------------------------
    def chip_count(self) -> ChipCount:
        """The bets on the table not yet settled, and the house's result so far: minus the
        net of every bet settled (a ``payout`` record)."""
        rd = self.round
        if rd is None:
            return ChipCount(0, 0, 0)
        return ChipCount(sum(s.at_risk for s in rd.seats.values()),
                         -sum(r.net for r in rd.log if r.type == "payout"), 0)

    def hidden_cards(self, viewer: int | str) -> frozenset[str]:
        """The hole card until it is turned, for every viewer alike: a player's cards are face up."""
        rd = self.round
        if rd is None or len(rd.dealer) < 2 or rd.hole_revealed:
            return frozenset()
        up = {rd.dealer[0].text} | {c.text for s in rd.seats.values() for h in s.hands for c in h.cards}
        return frozenset({rd.dealer[1].text} - up)

    def random_move(self, who: int | str, rng: random.Random) -> tuple[str, dict[str, Any]] | None:
        """A bet (an amount within the limits and the stack) from a seat that has none yet,
        the deal once someone bet, then any of the seat to act's legal actions (a double and
        insurance for the full amount)."""
        rd = self.round
        if rd is None or rd.is_terminal or rd.card_needed is not None:
            return None
        if rd.phase == BETTING:
            if who == "dealer":
                return ("deal", {}) if rd.can_deal() else None
            seat = rd.seats.get(who) if isinstance(who, int) else None
            low, high = self.rules.min_bet, min(self.rules.max_bet, seat.stack if seat is not None else 0)
            if seat is None or seat.left or seat.bet or high < low:
                return None
            return "bet", {"amount": rng.choice((low, high, rng.randint(low, high)))}
        if who != rd.to_act:
            return None
        return rng.choice(rd.legal_actions(who)), {}

    # -- views ----------------------------------------------------------------------------------
    def table_view(self) -> dict[str, Any]:
        return {"cards": self.cards, "voided": self._voided}

    def round_view(self, viewer: int | str, memo: dict[str, Any] | None) -> dict[str, Any]:
        """``views.view(round, viewer)``. During a broadcast it is built once and each seat's copy
        differs only in ``viewer`` and ``legal_actions``: at Blackjack every player's cards are
        face up and the hole card is hidden from everyone alike, so there is nothing else a
        seat sees that another does not."""
        rd = self.round
        assert rd is not None
        if memo is None:
            return self._with_dealer(rd, viewer, self._base(rd, viewer))
        base = memo.get("round")
        if base is None:
            base = memo["round"] = self._base(rd, "spectator")
        if viewer == "spectator":
            return base  # type: ignore[no-any-return]
        legal = rd.legal_actions(viewer) if isinstance(viewer, int) and viewer in rd.seats else []
        return self._with_dealer(rd, viewer, {**base, "viewer": viewer, "legal_actions": legal})

    @staticmethod
    def _base(rd: Round, viewer: int | str) -> dict[str, Any]:
        """The engine's view and the awaited card in words ("seat 3's second card"): who waits
        for what is public; the hole card itself is in no view until it is turned."""
        view = views.view(rd, viewer)
        need = rd.card_needed
        view["card_needed_text"] = need.describe() if need is not None else None
        return view

    def _with_dealer(self, rd: Round, viewer: int | str, view: dict[str, Any]) -> dict[str, Any]:
        """The dealer's view also says what to pay and take once the round is settled."""
        if viewer == "dealer":
            view["payouts"] = self.payouts()
        return view

    def log_view(self, viewer: int | str, memo: dict[str, Any] | None) -> list[dict[str, Any]]:
        """``views.log_view(round, viewer)``: the same list for every viewer at Blackjack (see above),
        so during a broadcast one list serves every message and is encoded once."""
        rd = self.round
        assert rd is not None
        if memo is None:
            return views.log_view(rd, viewer)
        log = memo.get("log")
        if log is None:
            log = memo["log"] = views.log_view(rd, "spectator")
        return log  # type: ignore[no-any-return]


def _said(amount: int, why: str) -> str:
    """"pay $15.00 (blackjack 3:2)", "take $10.00", "push"."""
    return move_text(amount) + (f" ({why})" if why and amount else "")


def _done(amount: int) -> str:
    """What the dealer did with ``amount`` cents during the round: "paid $15.00", "took $10.00"."""
    if amount > 0:
        return f"paid {money.format(amount)}"
    return f"took {money.format(-amount)}" if amount < 0 else "nothing moved"


def _label(item: dict[str, Any]) -> str:
    return "insurance" if item["hand"] < 0 else f"hand {item['hand'] + 1}"


def _entry(seat: int, items: list[dict[str, Any]]) -> dict[str, Any]:
    """One seat's line: what is due now, then what was settled (and moved) during the round."""
    due = [i for i in items if not i.get("during")]
    done = [i for i in items if i.get("during")]
    amount, paid = sum(i["amount"] for i in due), sum(i["amount"] for i in done)
    parts = []
    if due:
        if len(due) == 1:
            parts.append(_said(amount, due[0]["why"]))
        else:
            parts.append(f"{move_text(amount)} ({'; '.join(_label(i) + ': ' + _said(i['amount'], i['why']) for i in due)})")
    if done:
        if len(done) == 1:
            said = done[0]["why"] or done[0]["outcome"]
        else:
            said = "; ".join(f"{_label(i)}: {_done(i['amount'])} ({i['why'] or i['outcome']})" for i in done)
        parts.append(f"{_done(paid)} during the round ({said})")
    text = f"seat {seat}: {'; '.join(parts)}" if due else f"seat {seat}: done: {parts[0]}"
    shown = [{**i, "text": _said(i["amount"], i["why"])} for i in items]
    return {"seat": seat, "amount": amount, "paid": paid, "net": amount + paid, "text": text, "items": shown}


# -- the game, as the room's registry knows it ---------------------------------------------------
MONEY_KEYS = ("min_bet", "max_bet")


def _table_rules(preset_name: str | None, overrides: Mapping[str, Any]) -> tuple[dict[str, Any], int]:
    check_types(Rules, overrides, money_text=MONEY_KEYS)
    if preset_name is not None and preset_name not in PRESETS:
        raise BadRequest("preset", f"preset is one of {', '.join(PRESETS)}, got {preset_name!r}")
    assignments = tuple(f"{k}={_text(k, v)}" for k, v in overrides.items())
    rules: Rules = preset(preset_name or "syndicate", assignments)
    return rules.to_dict(), rules.seats


def _text(key: str, v: Any) -> str:
    """An override as ``syndicate rules --set`` text. In the API money is cents, so a JSON
    integer for a money key is cents; a string is read as on the command line ("$5", "0.50")."""
    if key in MONEY_KEYS and isinstance(v, int) and not isinstance(v, bool):
        money.check(v)
        return f"{v // 100}.{v % 100:02d}"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float, str)):
        return str(v)
    raise BadRequest("overrides", f"an override value is a string, number or boolean, got {type(v).__name__}")


def _adapter(table: Table, players: Players, new_shoe: NewShoe | None) -> Game:
    return BlackjackGame(Rules.from_dict(table.game_rules), players, new_shoe, real=table.cards == "real")


def _odds(rules: Rules) -> dict[str, Any]:
    a = odds.analyze(rules)
    return {
        "house_edge_pct": -a.expectation_pct,
        "basic_strategy_house_edge_pct": -a.basic_strategy_expectation_pct,
        "player_expectation_pct": a.expectation_pct,
        "standard_deviation": a.variance ** 0.5,
        "caption": strategy._rules_caption(rules),
        "chart": strategy.chart(rules).to_dict(),
    }


BLACKJACK = GameKind(
    id="blackjack", title="Blackjack", rules=Rules, table_rules=_table_rules,
    stake_keys=MONEY_KEYS,
    # $1 to $500: the default preset's minimum and five times its maximum.
    bounds=(100, 50_000),
    adapter=_adapter,
    history=HistoryFormat(
        key="rounds", replay=bj_history.replay, verify=bj_history.verify, steps=bj_history.steps_of,
        served=bj_fairness.served, house_copy=bj_fairness.house_copy, results=bj_fairness.results,
        commitment=bj_fairness.commitment),
    summary=lambda rules: strategy._rules_caption(Rules.from_dict(rules)),
    presets=lambda: [{"name": k, "title": PRESET_TITLES.get(k, k), "rules": v.to_dict(),
                      "summary": strategy._rules_caption(v)} for k, v in PRESETS.items()],
    odds=Odds(key=lambda rules: odds.canonical(Rules.from_dict(rules)), compute=_odds,
              warm=lambda: [odds.canonical(r) for r in PRESETS.values()]),
)
