"""Five-card draw: the table's rules and the state machine of one hand.

The same shape as the Blackjack engine (and PokerKit's): :attr:`DrawHand.phase` and
:attr:`DrawHand.to_act` say whose turn it is, :meth:`DrawHand.legal_actions` lists what they
may do, and every action ``x`` is a triad ``verify_x`` (raises a :class:`RuleError` naming
the rule) / ``can_x`` / ``x`` (applies it and returns a frozen record, also appended to
:attr:`DrawHand.log`). A refused action changes nothing.

The engine is pure, and chance is explicit (OpenSpiel's chance nodes): with a committed
:class:`Shoe` the hand draws each card itself, so a hand is a function of (rules, stacks,
button, shoe, decisions) and replays exactly; with an :class:`EnteredShoe` (a real-cards table)
it stops at every card, says which it needs (:attr:`DrawHand.card_needed`) and waits for the
dealer's :meth:`DrawHand.deal_card`; the last card entered can be taken back until someone acts
on it (:meth:`DrawHand.take_back`). With an ``EnteredShoe(shown_only=True)`` (what a real
dealer sees) the face-down cards are counted, never named: a draw is a number of cards, and only
the hands shown at the showdown are entered (:attr:`DrawHand.to_deal` says what the dealer deals
meanwhile). See docs/dealer.md.

Seats are integers; play goes clockwise, which is increasing seat number, wrapping round.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

from ..core import money
from ..core.cards import Card, CardError, card
from ..core.errors import BadAmount, ConfigError, IllegalAction, OutOfTurn
from ..core.shoe import CardNeed, EnteredShoe, Shoe, ShoeError
from . import records as rec
from .evaluator import HandValue, evaluate, spoken
from .pots import ODD_CHIP_RULES, Pot, settle, side_pots

DEALING: Final = "dealing"  # only with entered cards: the deal waits for the dealer's cards
FIRST_BETTING: Final = "first_betting"
DRAW: Final = "draw"
SECOND_BETTING: Final = "second_betting"
SHOWDOWN: Final = "showdown"  # only when the cards shown are entered: the hands, then any ruling
COMPLETE: Final = "complete"
PHASES: Final = (DEALING, FIRST_BETTING, DRAW, SECOND_BETTING, SHOWDOWN, COMPLETE)

#: Domain of the re-stub shuffle: SHA-256 stream over seed || this || restub number (u32 BE).
RESTUB_DOMAIN: Final = b"syndicate/poker/restub/"


@dataclass(frozen=True, slots=True)
class DrawRules:
    """A five-card draw table's settings. Money is integer cents.

    ``raise_cap`` is the number of raises allowed in a betting round after the opening bet
    (``None``: no cap). The default, 3 ("a bet and three raises"), is the usual card-room
    limit rule: it keeps the most anyone can be asked to put in per round at four bets, and
    stops two players from raising back and forth to squeeze a third caught in the middle.
    """

    ante: int = 50
    chip: int = 50
    min_bet: int = 50
    max_bet: int = 500
    min_raise: int = 50
    max_raise: int = 500
    raise_cap: int | None = 3
    max_discard: int = 3
    ace_discard: bool = True  # four may be thrown when the card kept is an Ace, shown
    odd_chip: str = "carry"  # or "left_of_button"
    min_ante: int = 50
    max_ante: int = 500
    min_players: int = 2
    max_players: int = 7

    def __post_init__(self) -> None:
        ints = ("ante", "chip", "min_bet", "max_bet", "min_raise", "max_raise", "max_discard",
                "min_ante", "max_ante", "min_players", "max_players")
        for key in ints:
            v = getattr(self, key)
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise ConfigError(
                    f"{key} must be a non-negative integer (cents for money), got {v!r}"
                )
        if self.chip <= 0:
            raise ConfigError(f"chip must be positive, got {self.chip}")
        for key in ("ante", "min_bet", "max_bet", "min_raise", "max_raise", "min_ante", "max_ante"):
            if getattr(self, key) % self.chip:
                raise ConfigError(
                    f"{key} must be a whole number of chips ({money.format(self.chip)})"
                )
        if not 0 < self.min_bet <= self.max_bet or not 0 < self.min_raise <= self.max_raise:
            raise ConfigError("bet and raise limits need 0 < min <= max")
        if not 0 < self.min_ante <= self.ante <= self.max_ante:
            raise ConfigError(
                f"ante must be between {money.format(self.min_ante)} and "
                f"{money.format(self.max_ante)}, got {money.format(self.ante)}"
            )
        cap = self.raise_cap
        if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int) or cap < 0):
            raise ConfigError(
                f"raise_cap must be a non-negative integer or None, got {self.raise_cap!r}"
            )
        if not 0 <= self.max_discard <= 4:
            raise ConfigError(f"max_discard must be 0..4, got {self.max_discard}")
        if self.odd_chip not in ODD_CHIP_RULES:
            raise ConfigError(
                f"odd_chip must be one of {', '.join(ODD_CHIP_RULES)}, got {self.odd_chip!r}"
            )
        if not 2 <= self.min_players <= self.max_players <= 7:
            raise ConfigError("players must be 2..7 (five cards each and draws from one deck)")

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DrawRules:
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise ConfigError(
                f"unknown poker rule key(s) {', '.join(unknown)}; valid: {', '.join(sorted(names))}"
            )
        return cls(**data)

    def with_(self, **changes: Any) -> DrawRules:
        return dataclasses.replace(self, **changes)


class DrawHand:
    """One hand of five-card draw, from the antes to the last chip pushed.

    ``stacks`` maps each seat dealt in to the chips in front of it (all positive). Antes
    are posted and five cards dealt as the hand is created; it then waits for the first
    decision. ``carry_in`` is the remainder a previous tied pot could not split: it joins
    this hand's main pot. Chips are conserved at every step:
    ``sum(stacks) + pot + carry_out == sum(starting stacks) + carry_in``.
    """

    def __init__(
        self,
        rules: DrawRules,
        stacks: Mapping[int, int],
        button: int,
        shoe: Shoe | EnteredShoe,
        *,
        carry_in: int = 0,
        number: int = 1,
    ) -> None:
        if not rules.min_players <= len(stacks) <= rules.max_players:
            raise ConfigError(
                f"five-card draw seats {rules.min_players}..{rules.max_players} players, "
                f"got {len(stacks)}"
            )
        for seat, stack in stacks.items():
            if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
                raise ConfigError(f"seats are non-negative integers, got {seat!r}")
            money.check_held(stack)
            if stack <= 0:
                raise BadAmount("stack", f"seat {seat} has no chips and cannot be dealt in")
        if button not in stacks:
            raise ConfigError(f"the button must be on a seat dealt in, got {button!r}")
        money.check_held(carry_in)
        if not isinstance(shoe, (Shoe, EnteredShoe)):
            raise TypeError(f"a hand's cards come from a Shoe or an EnteredShoe, not {type(shoe).__name__}")
        self.rules = rules
        self.shoe = shoe
        self._entered = shoe if isinstance(shoe, EnteredShoe) else None
        self._entered_at = self._entered.state() if self._entered is not None else None
        #: Only the cards shown are entered: the face-down ones are counted (docs/dealer.md).
        self.shown_only = self._entered is not None and self._entered.shown_only
        self._need: CardNeed | None = None
        self._deal_k = 0  # entered cards: how many of the deal's cards have come
        self._drawing: _Drawing | None = None  # entered cards: the draw waiting for its cards
        self.number = number
        self.button = button
        self.carry_in = carry_in
        self.carry_out = 0
        seats = sorted(stacks)
        i = seats.index(button)
        #: Seats in order of play: the button's left first, the dealer (button) last.
        self.order: tuple[int, ...] = tuple(seats[i + 1:] + seats[:i + 1])
        self.start_stacks: dict[int, int] = {s: stacks[s] for s in self.order}
        self.stacks: dict[int, int] = dict(self.start_stacks)
        self.total: dict[int, int] = {s: 0 for s in self.order}  # put in this hand, antes included
        self.street: dict[int, int] = {s: 0 for s in self.order}  # put in this betting round
        self.folded: set[int] = set()
        self.cards: dict[int, list[Card]] = {s: [] for s in self.order}
        self.shown: dict[int, set[Card]] = {s: set() for s in self.order}
        self.showed_down: set[int] = set()
        self.values: dict[int, HandValue] = {}
        self.pot = carry_in  # chips in the middle
        self.pots: list[Pot] = []  # set at the end: how the pot was sliced
        self.awards: dict[int, int] = {}
        self.muck: list[Card] = []
        self.log: list[Any] = []
        self.version = 0
        self.phase = FIRST_BETTING
        self.to_act: int | None = None
        self.current_bet = 0
        self.raises = 0
        self._pending: list[int] = []
        self._restubs = 0
        self._shoe_start = shoe.position
        self._shoe_len = len(shoe.order) if isinstance(shoe, Shoe) else 0
        self._in_play: set[Card] = set()
        # Only the cards shown are entered: what each seat holds face down, what each threw and
        # drew, the physical deck's stub and muck, the hands the showdown flagged and ruled.
        self.held: dict[int, int] = {s: 0 for s in self.order}
        self.drew: dict[int, int] = {}
        self.to_deal: Dealing | None = None
        self._stub = 0
        self._mucked = 0
        self.ruled: set[int] = set()
        self.dead: set[int] = set()
        self._post_antes()
        if self._deal():
            self._start_betting(FIRST_BETTING)

    # -- setup -----------------------------------------------------------------------------
    def _post_antes(self) -> None:
        for s in self.order:
            amount = min(self.rules.ante, self.stacks[s])
            self._put_in(s, amount, street=False)
            self.log.append(rec.Ante(s, amount, self.stacks[s] == 0))

    def _deal_card(self) -> Card:
        if self.shoe.remaining <= 0:
            raise ShoeError("the deck ran out while dealing")
        c = self.shoe.draw()
        if c in self._in_play:
            raise ShoeError(
                "the shoe dealt a card that is already in play: it is not a single deck"
            )
        self._in_play.add(c)
        return c

    def _deal(self) -> bool:
        """Deal five cards each, one at a time round the table. With entered cards, ask for
        the first and return False: :meth:`deal_card` goes on from there."""
        if self.shown_only:  # dealt face down by the dealer: counted, never named
            assert self._entered is not None
            self._stub = 52 * self._entered.decks - 5 * len(self.order)
            for s in self.order:
                self.held[s] = 5
                self.log.append(rec.DealtFaceDown(s, 5))
            self.to_deal = Dealing(self.order, 5, 5 * len(self.order), 0)
            return True
        if self._entered is not None:
            self.phase = DEALING
            self._need = self._deal_need()
            return False
        for _ in range(5):
            for s in self.order:
                self.cards[s].append(self._deal_card())
        for s in self.order:
            self.log.append(rec.Dealt(s, tuple(self.cards[s])))
        return True

    def _deal_need(self) -> CardNeed:
        n = len(self.order)
        return CardNeed(self.order[self._deal_k % n], 0, self._deal_k // n, False, "deal")

    # -- chance: the cards a dealer enters -------------------------------------------------
    @property
    def card_needed(self) -> CardNeed | None:
        """The card the dealer must enter next and for whom (``None``: none is needed; always
        ``None`` with a shuffled shoe, which deals at once)."""
        return self._need

    @property
    def entered(self) -> bool:
        """Whether the dealer enters this hand's cards (a real-cards table)."""
        return self._entered is not None

    def _entered_card(self, c: object) -> Card:
        if self._entered is None:
            raise IllegalAction("card_source", "this hand deals from a shuffled deck: the engine draws its cards")
        if self._need is None:
            ruling = self.ruling_needed
            waiting = ("the hand is over" if self.is_terminal
                       else f"seat {ruling}'s hand waits for the dealer's ruling" if ruling is not None
                       else f"it is seat {self.to_act}'s turn to act")
            raise OutOfTurn("card_not_needed", f"no card is needed now: {waiting}")
        if not isinstance(c, (str, Card)):
            raise IllegalAction("card", f"a card is written as its rank and suit, as in 'As', got {c!r}")
        try:
            found = card(c)
        except CardError as e:
            try:
                card(c, suitless=True)
            except CardError:
                raise IllegalAction("card", str(e)) from None
            raise IllegalAction("card", f"a poker card needs its suit: {str(c).strip()!r} is a rank alone") from None
        holder = next((s for s, cs in self.cards.items() if found in cs), None) if self.shown_only else None
        if holder is not None:
            where = "this hand" if holder == self._need.seat else f"seat {holder}'s hand"
            raise IllegalAction("shoe_count", f"{found.pretty} is already entered in {where} at this showdown: "
                                              "one deck holds one of each card")
        why = self._entered.refusal(found)
        if why is not None:
            raise IllegalAction("shoe_count", why)
        return found

    def verify_deal_card(self, c: object) -> None:
        """A card the dealer entered: refused if none is needed, if it is not a card with its
        suit, or if the deck cannot hold it (one deck: no card twice in a hand)."""
        self._entered_card(c)

    def can_deal_card(self, c: object) -> bool:
        return _can(self.verify_deal_card, c)

    def deal_card(self, c: object) -> rec.CardEntered:
        """The card that landed where :attr:`card_needed` said ("As", "10h")."""
        found = self._entered_card(c)
        assert self._entered is not None and self._need is not None
        self._entered.take(found)
        need = self._need
        self._need = None
        self._in_play.add(found)
        self.cards[need.seat].append(found)
        r = rec.CardEntered(need.seat, found)
        self.log.append(r)
        self.version += 1
        if need.why == "show":
            self.to_deal = None  # the dealing is done: the hands are turned over
            self._need = self._show_need()
            if self._need is None and self.ruling_needed is None:
                self._settle_showdown()
        elif need.why == "deal":
            self._deal_k += 1
            if self._deal_k < 5 * len(self.order):
                self._need = self._deal_need()
            else:
                for s in self.order:
                    self.log.append(rec.Dealt(s, tuple(self.cards[s])))
                self._start_betting(FIRST_BETTING)
        else:
            assert self._drawing is not None
            self._drawing.received.append(found)
            self._next_draw_card()
        return r

    def _next_draw_card(self) -> None:
        d = self._drawing
        assert d is not None and self._entered is not None
        if len(d.received) < len(d.discards):
            if self._entered.remaining <= 0:
                self._restub()
            self._need = CardNeed(d.seat, 0, len(self.cards[d.seat]), False, "draw")
            return
        self._drawing = None
        for c in d.discards:
            self._in_play.discard(c)
        self.muck.extend(d.discards)
        self._drew(d.seat, rec.Drew(d.seat, d.discards, tuple(d.received), d.shown))

    def _last_input(self) -> int:
        inputs = rec.SHOWN_ONLY_INPUTS if self.shown_only else rec.ENTERED_INPUTS
        for i in range(len(self.log) - 1, -1, -1):
            if self.log[i].type in inputs:
                return i
        return -1

    def verify_take_back(self) -> None:
        if self._entered is None:
            raise IllegalAction("take_back", "this hand deals from a shuffled deck: there is no entered card to take back")
        i = self._last_input()
        if i < 0 or self.log[i].type != "card":
            raise IllegalAction(
                "take_back", "only the last card entered can be taken back, until someone acts on it"
                + (f": {self.log[i].type!r} came after it" if i >= 0 else ": no card has been entered"))

    def can_take_back(self) -> bool:
        return _can(self.verify_take_back)

    def take_back(self) -> rec.TakenBack:
        """Undo the last card entered: the hand is again exactly as before it (the same card is
        needed again), with a ``take_back`` note in the log."""
        self.verify_take_back()
        i = self._last_input()
        taken = self.log[i]
        inputs = [r.to_json() for r in self.log[:i]]
        assert self._entered is not None and self._entered_at is not None
        self._entered.restore(self._entered_at)
        fresh = DrawHand(self.rules, self.start_stacks, self.button, self._entered,
                         carry_in=self.carry_in, number=self.number)
        for d in inputs:
            fresh.apply(d)
        version = self.version
        vars(self).clear()
        vars(self).update(vars(fresh))
        r = rec.TakenBack(taken.seat, taken.card)
        self.log.append(r)
        self.version = version + 1  # versions only go up, whatever the replay counted
        return r

    def apply(self, d: Mapping[str, Any]) -> None:
        """Apply one logged input again, given as its JSON record: a decision, or an entered
        card. Records the engine writes by itself are skipped (with a shuffled deck the cards
        too); a ``take_back`` note is copied, the card it took back not being in the log.
        Replays and take-backs go through here."""
        kind = d["type"]
        if kind == "card":
            if self._entered is not None:
                self.deal_card(d["card"])
        elif kind == "check":
            self.check(d["seat"])
        elif kind == "bet":
            self.bet(d["seat"], d["amount"])
        elif kind == "call":
            self.call(d["seat"])
        elif kind == "raise":
            self.raise_(d["seat"], d["by"])
        elif kind == "fold":
            self.fold(d["seat"])
        elif kind == "draw" and self.shown_only:
            self.draw(d["seat"], len(d["discards"]))
        elif kind == "discard" or (kind == "draw" and self._entered is None):
            self.draw(d["seat"], d["discards"])
        elif kind == "stand_pat":
            self.stand_pat(d["seat"])
        elif kind == "ruling":
            self.ruling(d["seat"], d["dead"])
        elif kind == "take_back":
            self.log.append(rec.TakenBack(d["seat"], card(d["card"])))

    # -- state queries ---------------------------------------------------------------------
    @property
    def is_terminal(self) -> bool:
        return self.phase == COMPLETE

    @property
    def live(self) -> list[int]:
        """Seats still in the hand (not folded), in order of play."""
        return [s for s in self.order if s not in self.folded]

    def is_all_in(self, seat: int) -> bool:
        return seat not in self.folded and self.stacks[seat] == 0

    def to_call(self, seat: int) -> int:
        """What ``seat`` must put in to match the bet (before capping at its stack)."""
        return self.current_bet - self.street[seat]

    def chips_total(self) -> int:
        """All chips this hand accounts for: stacks, the pot and the carried remainder."""
        return sum(self.stacks.values()) + self.pot + self.carry_out

    def results(self) -> dict[int, int]:
        """Net cents won (+) or lost (-) per seat; final once the hand is complete."""
        return {s: self.stacks[s] - self.start_stacks[s] for s in self.order}

    def current_pots(self) -> list[Pot]:
        """The main pot and side pots as they stand (the carry-in counts in the main pot)."""
        if self.is_terminal:
            return list(self.pots)
        pots = side_pots(self.total, set(self.live) - self.dead)
        if pots and self.carry_in:
            pots[0] = Pot(pots[0].amount + self.carry_in, pots[0].eligible)
        return pots

    def _others_can_act(self, seat: int) -> bool:
        return any(s != seat and s not in self.folded and self.stacks[s] > 0 for s in self.order)

    def _raises_left(self) -> bool:
        cap = self.rules.raise_cap
        return cap is None or self.raises < cap

    def legal_actions(self, seat: int | None = None) -> list[str]:
        """What ``seat`` (default: whoever is to act) may do now, in the order a UI offers them."""
        actor = self.to_act
        if actor is None or (seat is not None and seat != actor):
            return []
        if self.phase == DRAW:
            return ["draw", "stand_pat"]
        stack = self.stacks[actor]
        owe = self.to_call(actor)
        if owe <= 0:
            return ["check", "bet", "fold"] if self._others_can_act(actor) else ["check", "fold"]
        out = ["call"]
        if stack > owe and self._raises_left() and self._others_can_act(actor):
            out.append("raise")
        out.append("fold")
        return out

    def bet_range(self, seat: int | None = None) -> tuple[int, int] | None:
        """(smallest, largest) bet ``seat`` may make now, or ``None`` if it cannot bet.

        Below the minimum only an all-in (the whole stack) is allowed."""
        s = self.to_act if seat is None else seat
        if s is None or "bet" not in self.legal_actions(s):
            return None
        stack = self.stacks[s]
        return (min(self.rules.min_bet, stack), min(self.rules.max_bet, stack))

    def raise_range(self, seat: int | None = None) -> tuple[int, int] | None:
        """(smallest, largest) raise *by* ``seat`` may make now, or ``None`` if it cannot raise."""
        s = self.to_act if seat is None else seat
        if s is None or "raise" not in self.legal_actions(s):
            return None
        room = self.stacks[s] - self.to_call(s)
        return (min(self.rules.min_raise, room), min(self.rules.max_raise, room))

    # -- checks shared by the verify_* methods ---------------------------------------------
    def _turn(self, seat: int, action: str, betting: bool) -> None:
        need = self._need
        if need is not None:  # no decision jumps the queue while a card is due
            raise OutOfTurn("card_needed", f"cannot {action}: the dealer must first deal {need.describe()}")
        if self.phase == COMPLETE:
            raise OutOfTurn("turn", f"cannot {action}: the hand is over")
        if self.phase == SHOWDOWN:
            raise OutOfTurn("turn", f"cannot {action}: it is the showdown")
        in_betting = self.phase in (FIRST_BETTING, SECOND_BETTING)
        if in_betting != betting:
            raise OutOfTurn("phase", f"cannot {action} during the {self.phase.replace('_', ' ')}")
        if seat != self.to_act:
            if seat not in self.stacks:
                raise OutOfTurn("turn", f"seat {seat!r} is not in this hand")
            raise OutOfTurn("turn", f"it is seat {self.to_act}'s turn, not seat {seat}'s")

    def _check_amount(self, amount: object, lo: int, hi: int, room: int, what: str) -> None:
        f = money.format
        if amount is None:
            raise BadAmount(f"{what}.amount", f"type an amount to {what}")
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise BadAmount(
                f"{what}.amount", f"a {what} is a whole number of cents, got {amount!r}"
            )
        if amount <= 0:
            raise BadAmount(f"{what}.amount", f"a {what} must be positive, got {f(amount)}")
        if amount > room:
            raise BadAmount(
                f"{what}.amount",
                f"a {what} of {f(amount)} is more than your {f(room)} (table stakes)",
            )
        if amount > hi:
            raise BadAmount(f"{what}.amount", f"a {what} is at most {f(hi)}, got {f(amount)}")
        if amount == room:
            return  # all-in: any amount up to the limit, even under the minimum or an odd chip
        if amount < lo:
            raise BadAmount(
                f"{what}.amount", f"a {what} is at least {f(lo)} (or all-in), got {f(amount)}"
            )
        if amount % self.rules.chip:
            raise BadAmount(
                f"{what}.chip", f"amounts are whole chips of {f(self.rules.chip)}, got {f(amount)}"
            )

    # -- check -----------------------------------------------------------------------------
    def verify_check(self, seat: int) -> None:
        self._turn(seat, "check", True)
        if self.to_call(seat) > 0:
            raise IllegalAction(
                "check", "you can't check once a bet has been made: call, raise or fold"
            )

    def can_check(self, seat: int) -> bool:
        return _can(self.verify_check, seat)

    def check(self, seat: int) -> rec.Checked:
        self.verify_check(seat)
        r = rec.Checked(seat)
        self._acted(seat, r)
        return r

    # -- bet -------------------------------------------------------------------------------
    def verify_bet(self, seat: int, amount: int) -> None:
        self._turn(seat, "bet", True)
        if self.current_bet > 0:
            raise IllegalAction(
                "bet", "a bet has already been made this round: call, raise or fold"
            )
        if not self._others_can_act(seat):
            raise IllegalAction("bet", "no other player has chips left to call a bet")
        self._check_amount(amount, self.rules.min_bet, self.rules.max_bet, self.stacks[seat], "bet")

    def can_bet(self, seat: int, amount: int) -> bool:
        return _can(self.verify_bet, seat, amount)

    def bet(self, seat: int, amount: int) -> rec.Bet:
        self.verify_bet(seat, amount)
        self._put_in(seat, amount)
        self.current_bet = self.street[seat]
        r = rec.Bet(seat, amount, self.stacks[seat] == 0)
        self._reopen(seat)
        self._acted(seat, r)
        return r

    # -- call ------------------------------------------------------------------------------
    def verify_call(self, seat: int) -> None:
        self._turn(seat, "call", True)
        if self.to_call(seat) <= 0:
            raise IllegalAction("call", "there is no bet to call: check or bet")

    def can_call(self, seat: int) -> bool:
        return _can(self.verify_call, seat)

    def call(self, seat: int) -> rec.Called:
        self.verify_call(seat)
        amount = min(self.to_call(seat), self.stacks[seat])  # table stakes: all-in for less
        self._put_in(seat, amount)
        r = rec.Called(seat, amount, self.stacks[seat] == 0)
        self._acted(seat, r)
        return r

    # -- raise -----------------------------------------------------------------------------
    def verify_raise(self, seat: int, by: int) -> None:
        self._turn(seat, "raise", True)
        if self.current_bet <= 0:
            raise IllegalAction("raise", "there is no bet to raise: bet instead")
        if not self._raises_left():
            raise IllegalAction(
                "raise.cap",
                f"the cap of {self.rules.raise_cap} raises this round is reached: call or fold",
            )
        owe = self.to_call(seat)
        if self.stacks[seat] <= owe:
            raise IllegalAction(
                "raise", "your chips only cover a call (table stakes): call or fold"
            )
        if not self._others_can_act(seat):
            raise IllegalAction("raise", "every other player is all-in: call or fold")
        self._check_amount(
            by, self.rules.min_raise, self.rules.max_raise, self.stacks[seat] - owe, "raise"
        )

    def can_raise(self, seat: int, by: int) -> bool:
        return _can(self.verify_raise, seat, by)

    def raise_(self, seat: int, by: int) -> rec.Raised:
        """Raise *by* ``by`` cents over the bet to call (the seed: "increase the bet")."""
        self.verify_raise(seat, by)
        amount = self.to_call(seat) + by
        self._put_in(seat, amount)
        self.current_bet = self.street[seat]
        self.raises += 1
        r = rec.Raised(seat, by, amount, self.current_bet, self.stacks[seat] == 0)
        self._reopen(seat)
        self._acted(seat, r)
        return r

    # -- fold ------------------------------------------------------------------------------
    def verify_fold(self, seat: int) -> None:
        self._turn(seat, "fold", True)

    def can_fold(self, seat: int) -> bool:
        return _can(self.verify_fold, seat)

    def fold(self, seat: int) -> rec.Folded:
        self.verify_fold(seat)
        self.folded.add(seat)
        # Face down into the muck: never shown to anyone, and free to be re-stubbed.
        self.muck.extend(self.cards[seat])
        self._in_play.difference_update(self.cards[seat])
        self._mucked += self.held[seat]  # face down: counted into the muck
        self.held[seat] = 0
        r = rec.Folded(seat)
        self._acted(seat, r)
        return r

    # -- draw ------------------------------------------------------------------------------
    def _discards(self, seat: int, discards: object) -> list[Card]:
        try:
            if isinstance(discards, str):
                items: list[Any] = discards.replace(",", " ").split()
            elif isinstance(discards, Iterable):
                items = list(discards)
            else:
                raise IllegalAction(
                    "draw.cards", f"discards are a list of cards, got {type(discards).__name__}"
                )
            out = [card(x) for x in items]
        except CardError as e:
            raise IllegalAction("draw.cards", str(e)) from None
        if len(set(out)) != len(out):
            raise IllegalAction("draw.cards", "the same card is named twice in the discards")
        hand = self.cards[seat]
        if any(c not in hand for c in out):
            raise IllegalAction("draw.cards", "you can only discard cards from your own hand")
        n = len(out)
        limit = self.rules.max_discard
        if n > limit:
            kept = [c for c in hand if c not in out]
            ace_ok = self.rules.ace_discard and n == 4 and len(kept) == 1 and kept[0].is_ace
            if not ace_ok:
                raise IllegalAction(
                    "draw.limit",
                    f"you may discard up to {limit} cards"
                    + (", or 4 when the card you keep is an Ace (which you show)"
                       if self.rules.ace_discard else ""),
                )
        return out

    def _discard_count(self, discards: object) -> int:
        """How many cards a player throws when the room does not see them (only the cards
        shown are entered): 0 to ``max_discard``, or 4 keeping an Ace, shown to the table."""
        if isinstance(discards, bool) or not isinstance(discards, int):
            raise IllegalAction(
                "draw.cards", "the cards are dealt face down and never entered: say how many you throw "
                f"(a number), not which; got {type(discards).__name__}")
        limit = self.rules.max_discard
        if discards < 0 or (discards > limit and not (self.rules.ace_discard and discards == 4)):
            raise IllegalAction(
                "draw.limit",
                f"you may discard up to {limit} cards"
                + (", or 4 when the card you keep is an Ace (which you show)" if self.rules.ace_discard else "")
                + f", not {discards}",
            )
        return discards

    def verify_draw(self, seat: int, discards: Sequence[Card | str] | str | int) -> None:
        """``discards``: the cards thrown, or with only the cards shown entered, how many."""
        self._turn(seat, "draw", False)
        if self.shown_only:
            self._discard_count(discards)
        else:
            self._discards(seat, discards)

    def can_draw(self, seat: int, discards: Sequence[Card | str] | str | int) -> bool:
        return _can(self.verify_draw, seat, discards)

    def draw(
        self, seat: int, discards: Sequence[Card | str] | str | int
    ) -> rec.Drew | rec.DrewFaceDown | rec.StoodPat | rec.Discarded:
        """Throw away ``discards`` and take as many new cards. No discards is standing pat.
        With entered cards the answer is a ``discard`` record and the hand waits for the cards
        (the ``draw`` record follows the last of them). With only the cards shown entered,
        ``discards`` is how many: the room counts them out of the deck at once (re-stubbing the
        muck when it runs out) and :attr:`to_deal` says what the dealer deals."""
        self.verify_draw(seat, discards)
        if self.shown_only:
            assert isinstance(discards, int)
            return self._draw_face_down(seat, discards)
        out = self._discards(seat, discards)
        if not out:
            return self.stand_pat(seat)
        hand = self.cards[seat]
        kept = [c for c in hand if c not in out]
        shown = kept[0] if len(out) == 4 else None
        if shown is not None:
            self.shown[seat].add(shown)
        if self._entered is not None:
            self.cards[seat] = kept
            d = rec.Discarded(seat, tuple(out), shown)
            self.log.append(d)
            self.version += 1
            self.to_act = None
            self._drawing = _Drawing(seat, tuple(out), shown)
            self._next_draw_card()
            return d
        # The player's own discards stay out of any re-stub made while they draw.
        received: list[Card] = []
        for _ in out:
            if self.shoe.remaining <= 0:
                self._restub()
            received.append(self._deal_card())
        for c in out:
            self._in_play.discard(c)
        self.muck.extend(out)
        self.cards[seat] = kept + received
        r = rec.Drew(seat, tuple(out), tuple(received), shown)
        self._drew(seat, r)
        return r

    def _draw_face_down(self, seat: int, n: int) -> rec.DrewFaceDown | rec.StoodPat:
        if n == 0:
            return self.stand_pat(seat)
        from_deck = min(n, self._stub)
        from_muck = n - from_deck
        self._stub -= from_deck
        if from_muck:
            # The deck is out: the muck (folded hands, earlier draws' discards; not this player's
            # own, set aside) is shuffled by hand into a new stub, and the dealing goes on from it.
            if self._mucked < from_muck:
                raise ShoeError("the deck ran out and the muck cannot make up the draw")
            self._restubs += 1
            self.log.append(rec.Restubbed(self._restubs, self._mucked, True))
            self._stub, self._mucked = self._mucked - from_muck, 0
        self._mucked += n  # the player's own discards go to the muck once their cards are dealt
        self.drew[seat] = n
        self.to_deal = Dealing((seat,), n, from_deck, from_muck)
        r = rec.DrewFaceDown(seat, n)
        self._drew(seat, r)
        return r

    def verify_stand_pat(self, seat: int) -> None:
        self._turn(seat, "stand pat", False)

    def can_stand_pat(self, seat: int) -> bool:
        return _can(self.verify_stand_pat, seat)

    def stand_pat(self, seat: int) -> rec.StoodPat:
        self.verify_stand_pat(seat)
        if self.shown_only:
            self.drew[seat] = 0
            self.to_deal = None
        r = rec.StoodPat(seat)
        self._drew(seat, r)
        return r

    # -- the showdown, when only the cards shown are entered -----------------------------
    def _show_need(self) -> CardNeed | None:
        """The next card of the hands shown down: seat by seat in order of play, five each."""
        for s in self.live:
            if len(self.cards[s]) < 5:
                return CardNeed(s, 0, len(self.cards[s]), True, "show")
        return None

    def _unjustified(self, seat: int) -> bool:
        """A four-card draw (an Ace kept and shown, by the rule) whose five cards shown down,
        all entered, hold no Ace."""
        cards = self.cards[seat]
        return self.drew.get(seat) == 4 and len(cards) == 5 and not any(c.is_ace for c in cards)

    @property
    def flagged(self) -> list[int]:
        """Seats whose hand, shown down, does not justify their four-card draw (no Ace)."""
        return [s for s in self.live if self.shown_only and self._unjustified(s)]

    @property
    def ruling_needed(self) -> int | None:
        """The flagged seat whose hand waits for the dealer's :meth:`ruling` (every hand shown
        down is entered); ``None`` when none does."""
        if self.phase != SHOWDOWN or self._need is not None:
            return None
        return next((s for s in self.flagged if s not in self.ruled), None)

    def verify_ruling(self, seat: int, dead: bool) -> None:
        """The dealer rules on a flagged hand: ``dead`` (it wins nothing) or it stands."""
        need = self.ruling_needed
        if need is None:
            raise IllegalAction("ruling", "no hand waits for a ruling: one does when a player who drew four cards "
                                          "(keeping an Ace) shows down no Ace")
        if seat != need:
            raise IllegalAction("ruling", f"seat {need}'s hand waits for the ruling, not seat {seat}'s")
        if not isinstance(dead, bool):
            raise IllegalAction("ruling", f"a ruling says whether the hand is dead: true or false, got {dead!r}")
        alone = next((i for i, p in enumerate(self.current_pots()) if p.eligible == (seat,)), None) if dead else None
        if alone is not None:
            pot = "the pot" if alone == 0 else f"side pot {alone}"
            raise IllegalAction("ruling", f"seat {seat}'s hand is the last one in {pot}: it cannot be dead too, or "
                                          "nobody takes that pot; rule that it stands, or declare a misdeal")

    def can_ruling(self, seat: int, dead: bool) -> bool:
        return _can(self.verify_ruling, seat, dead)

    def ruling(self, seat: int, dead: bool) -> rec.Ruled:
        """The house rule (docs/poker.md): a four-card draw keeps an Ace; a hand shown down
        without one is flagged, and the dealer rules it dead (it wins nothing, its chips stay in
        the pot) or lets it stand (a count entered wrong at the draw)."""
        self.verify_ruling(seat, dead)
        self.ruled.add(seat)
        if dead:
            self.dead.add(seat)
        r = rec.Ruled(seat, dead)
        self.log.append(r)
        self.version += 1
        if self.ruling_needed is None:
            self._settle_showdown()
        return r

    def _restub(self) -> None:
        """The deck is out: the muck (folded hands and earlier discards) becomes a new stub.

        A seeded shoe shuffles it with the shoe's seed, domain ``RESTUB_DOMAIN`` + the
        re-stub number (u32 big-endian), so the draw replays exactly from the revealed seed.
        A stacked shoe has no seed: its stub is the muck in the order it was mucked.
        """
        if not self.muck:
            raise ShoeError("the deck ran out and there is nothing in the muck to re-stub")
        self._restubs += 1
        if self._entered is not None:  # the dealer shuffles the muck by hand: it is back in the deck
            for c in self.muck:
                self._entered.put_back(c)
            self.log.append(rec.Restubbed(self._restubs, len(self.muck), True))
            self.muck = []
            return
        shoe = self.shoe
        assert isinstance(shoe, Shoe)
        seeded = shoe.has_seed
        stub = list(self.muck)
        if seeded:
            stub = shoe.shuffle_from_seed(stub, RESTUB_DOMAIN + self._restubs.to_bytes(4, "big"))
        self.muck = []
        shoe.extend(stub)
        self.log.append(rec.Restubbed(self._restubs, len(stub), seeded))

    # -- moving the hand along -------------------------------------------------------------
    def _put_in(self, seat: int, amount: int, street: bool = True) -> None:
        self.stacks[seat] -= amount
        self.total[seat] += amount
        if street:
            self.street[seat] += amount
        self.pot += amount

    def _reopen(self, seat: int) -> None:
        """After a bet or raise every other player with chips must act again."""
        self._pending = [
            s for s in self.order if s != seat and s not in self.folded and self.stacks[s] > 0
        ]

    def _next_after(self, seat: int, candidates: Iterable[int]) -> int:
        cand = set(candidates)
        n = len(self.order)
        i = self.order.index(seat)
        for k in range(1, n + 1):
            s = self.order[(i + k) % n]
            if s in cand:
                return s
        raise AssertionError("no candidate to act")

    def _acted(self, seat: int, r: Any) -> None:
        self.to_deal = None  # whatever was to be dealt is on the felt once someone acts
        self.log.append(r)
        self.version += 1
        if seat in self._pending:
            self._pending.remove(seat)
        live = self.live
        if len(live) == 1:
            self._finish_by_folds(live[0])
            return
        if not self._pending:
            self._end_betting()
            return
        self.to_act = self._next_after(seat, self._pending)

    def _start_betting(self, phase: str) -> None:
        self.phase = phase
        self.current_bet = 0
        self.raises = 0
        for s in self.order:
            self.street[s] = 0
        self.log.append(rec.PhaseStarted(phase))
        able = [s for s in self.order if s not in self.folded and self.stacks[s] > 0]
        if len(able) < 2:
            # At most one player has chips behind: nobody can bet against anybody.
            self._pending = []
            self._end_betting()
            return
        self._pending = able
        self.to_act = able[0]

    def _return_uncalled(self) -> None:
        if not self.order:
            return
        top = max(self.order, key=lambda s: self.total[s])
        others = max(self.total[s] for s in self.order if s != top)
        excess = self.total[top] - others
        if excess > 0:
            self.total[top] -= excess
            self.street[top] = max(0, self.street[top] - excess)
            self.stacks[top] += excess
            self.pot -= excess
            self.log.append(rec.Returned(top, excess))

    def _end_betting(self) -> None:
        self._return_uncalled()
        self.to_act = None
        if self.phase == FIRST_BETTING:
            self.phase = DRAW
            self.log.append(rec.PhaseStarted(DRAW))
            self._pending = self.live
            self.to_act = self._pending[0]
        else:
            self._showdown()

    def _drew(self, seat: int, r: Any) -> None:
        self.log.append(r)
        self.version += 1
        self._pending.remove(seat)
        if self._pending:
            self.to_act = self._pending[0]
        else:
            self.to_act = None
            self._start_betting(SECOND_BETTING)

    def _finish_by_folds(self, winner: int) -> None:
        """Everyone else folded: the last player takes every pot, unseen (no showdown)."""
        self._return_uncalled()
        self.pots = self.current_pots()
        for i, pot in enumerate(self.pots):
            self._award(winner, pot.amount, i)
        self._complete()

    def _showdown(self) -> None:
        """The seed: "All players still in the hand reveal their cards. The best 5-card Poker
        hand wins the pot. If multiple players tie, the pot is split evenly." """
        self.log.append(rec.PhaseStarted("showdown"))
        if self.shown_only:  # the hands are turned over: the dealer enters them
            self.phase = SHOWDOWN
            self._need = self._show_need()
            return
        self._settle_showdown()

    def _settle_showdown(self) -> None:
        live = [s for s in self.live if s not in self.dead]
        for s in live:
            v = evaluate(self.cards[s])
            self.values[s] = v
            self.showed_down.add(s)
            self.log.append(rec.Shown(s, tuple(self.cards[s]), v.rank, v.name))
        self.pots = self.current_pots()
        awards, carried = settle(self.pots, self.values, self.order, self.rules.chip,
                                 self.rules.odd_chip)
        for i, s, amount in awards:
            self._award(s, amount, i)
        for i, rest in carried:
            self.pot -= rest
            self.carry_out += rest
            self.log.append(rec.CarriedOver(rest, i))
        self._complete()

    def _award(self, seat: int, amount: int, pot: int) -> None:
        self.stacks[seat] += amount
        self.pot -= amount
        self.awards[seat] = self.awards.get(seat, 0) + amount
        self.log.append(rec.Awarded(seat, amount, pot))

    def _complete(self) -> None:
        self.phase = COMPLETE
        self.to_act = None
        self._pending = []
        self.version += 1
        if self.shoe.has_seed and not self.shoe.revealed:
            self.shoe.reveal()  # the hand is over: its deck's seed can be published

    # -- what each viewer sees -------------------------------------------------------------
    def visible_cards(self, seat: int, viewer: int | str) -> list[str] | None:
        """``seat``'s cards as ``viewer`` may see them: ``"??"`` for a hidden card, ``None`` for
        a folded (mucked) hand that is not the viewer's own."""
        hand = self.cards[seat]
        if self.shown_only:
            return self._visible_face_down(seat, viewer)
        if seat == viewer:
            return [c.text for c in hand]
        if seat in self.folded:
            return None
        if seat in self.showed_down:
            return [c.text for c in hand]
        shown = self.shown[seat]
        return [c.text if c in shown else rec.HIDDEN for c in hand]

    def _visible_face_down(self, seat: int, viewer: int | str) -> list[str] | None:
        """Only the cards shown are entered: a hand is face-down cards until the showdown; the
        cards entered there go to the seat and the dealer who entered them, and to everyone
        once the hand is settled. A folded (or dead) hand is in the muck: nobody's."""
        if seat in self.folded or seat in self.dead:
            return None
        known = [c.text for c in self.cards[seat]]
        if not (seat in self.showed_down or viewer == seat or viewer == "dealer"):
            known = []
        return known + [rec.HIDDEN] * (self.held[seat] - len(known))

    def view(self, viewer: int | str = "spectator", public: dict[str, Any] | None = None) -> dict[str, Any]:
        """The hand as ``viewer`` (a seat, ``"spectator"`` or ``"dealer"``) may see it, as JSON.

        Another player's private cards never appear before the showdown, nor a folded hand
        ever; the card room's dealer runs the table but is not a player and sees no private card.
        ``public``: :meth:`public_view` of the hand as it stands, when one is already made (a
        table sends every viewer their view of the same moment: the part all of them see alike
        is made once).
        """
        if not (viewer in ("spectator", "dealer") or viewer in self.stacks):
            raise ValueError(
                f"viewer must be a seat in this hand, 'spectator' or 'dealer', got {viewer!r}"
            )
        if public is None:
            public = self.public_view()
        out = dict(public)
        out["viewer"] = viewer
        out["seats"] = [{**p, "cards": self.visible_cards(p["seat"], viewer)} for p in public["seats"]]
        actor = self.to_act
        if actor is not None and actor == viewer:
            out["legal_actions"] = self.legal_actions(actor)
            out["to_call"] = max(0, self.to_call(actor)) if self.phase != DRAW else 0
            out["bet_range"] = self.bet_range(actor)
            out["raise_range"] = self.raise_range(actor)
        return out

    def public_view(self) -> dict[str, Any]:
        """What every viewer of the hand sees alike: :meth:`view` without a viewer, the seats
        without their cards (``cards`` is filled in per viewer). It names no private card."""
        seats = [{
            "seat": s,
            "stack": self.stacks[s],
            "bet": self.street[s],
            "total": self.total[s],
            "folded": s in self.folded,
            "all_in": self.is_all_in(s),
            "cards": None,
            "value": spoken(self.values[s].name) if s in self.values else None,
            "won": self.awards.get(s, 0) if self.is_terminal else None,
        } for s in self.order]
        out = {
            "game": "poker",
            "hand": self.number,
            "version": self.version,
            "viewer": None,
            "phase": self.phase,
            "to_act": self.to_act,
            "legal_actions": [],
            "button": self.button,
            "ante": self.rules.ante,
            "current_bet": self.current_bet,
            "raises": self.raises,
            "raise_cap": self.rules.raise_cap,
            "pot": self.pot,
            "pots": [p.to_json() for p in self.current_pots()],
            "carry_in": self.carry_in,
            "carry_out": self.carry_out,
            "commitment": self.shoe.commitment,
            "entered": self._entered is not None,
            "card_needed": self._need.to_json() if self._need is not None else None,
            "seats": seats,
        }
        if self.shown_only:
            self._public_face_down(out)
        return out

    def _public_face_down(self, out: dict[str, Any]) -> None:
        """What :meth:`public_view` adds when only the cards shown are entered: what each seat
        threw and drew (``drew``: ``None`` before the draw, 0 standing pat), a hand the showdown
        flagged and a dead one, the deck and the muck as counted, what the dealer deals now, and
        the flagged hand that waits for the dealer's ruling."""
        flagged = set(self.flagged)
        for p in out["seats"]:
            s = p["seat"]
            p["drew"] = self.drew.get(s)
            p["flag"] = "drew four cards (an Ace kept) but shows no Ace" if s in flagged else None
            p["dead"] = s in self.dead
        out["shown_only"] = True
        out["deck"] = {"left": self._stub, "mucked": self._mucked}
        out["to_deal"] = self.to_deal.to_json() if self.to_deal is not None else None
        out["ruling_needed"] = self.ruling_needed

    def log_view(self, viewer: int | str = "spectator") -> list[dict[str, Any]]:
        """The log as ``viewer`` may see it: other seats' private cards redacted to ``"??"``."""
        return [rec.redact(r.to_json(), viewer) for r in self.log]

    def __repr__(self) -> str:  # no cards: a repr ends up in logs and error reports
        return (
            f"<DrawHand #{self.number} {self.phase} to_act={self.to_act} "
            f"pot={money.format(self.pot)} seats={list(self.order)}>"
        )


class Dealing(NamedTuple):
    """What the dealer deals now when the room counts the face-down cards: ``cards`` cards to
    each of ``seats`` (the deal, five each; a draw, one seat); of all these, ``from_deck`` from
    the deck and ``from_muck`` from the muck shuffled into a new stub once the deck is out (the
    drawing player's own discards set aside)."""

    seats: tuple[int, ...]
    cards: int
    from_deck: int
    from_muck: int

    def to_json(self) -> dict[str, Any]:
        return {"seats": list(self.seats), "cards": self.cards, "from_deck": self.from_deck,
                "from_muck": self.from_muck}


@dataclass
class _Drawing:
    """A draw at a real-cards table, between the discard and its last card."""

    seat: int
    discards: tuple[Card, ...]
    shown: Card | None
    received: list[Card] = dataclasses.field(default_factory=list)


def _can(verify: Any, *args: Any) -> bool:
    try:
        verify(*args)
    except (IllegalAction, OutOfTurn, BadAmount):
        return False
    return True
