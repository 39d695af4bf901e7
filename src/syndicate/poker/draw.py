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
on it (:meth:`DrawHand.take_back`). See docs/dealer.md.

Seats are integers; play goes clockwise, which is increasing seat number, wrapping round.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from .. import money
from ..cards import Card, CardError, card
from ..errors import BadAmount, ConfigError, IllegalAction, OutOfTurn
from ..shoe import CardNeed, EnteredShoe, Shoe, ShoeError
from . import records as rec
from .evaluator import HandValue, evaluate
from .pots import ODD_CHIP_RULES, Pot, settle, side_pots

DEALING: Final = "dealing"  # only with entered cards: the deal waits for the dealer's cards
FIRST_BETTING: Final = "first_betting"
DRAW: Final = "draw"
SECOND_BETTING: Final = "second_betting"
COMPLETE: Final = "complete"
PHASES: Final = (DEALING, FIRST_BETTING, DRAW, SECOND_BETTING, COMPLETE)

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
            waiting = "the hand is over" if self.is_terminal else f"it is seat {self.to_act}'s turn to act"
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
        if need.why == "deal":
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
        inputs = rec.ENTERED_INPUTS
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
        elif kind == "discard" or (kind == "draw" and self._entered is None):
            self.draw(d["seat"], d["discards"])
        elif kind == "stand_pat":
            self.stand_pat(d["seat"])
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
        pots = side_pots(self.total, set(self.live))
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
        in_betting = self.phase in (FIRST_BETTING, SECOND_BETTING)
        if in_betting != betting:
            raise OutOfTurn("phase", f"cannot {action} during the {self.phase.replace('_', ' ')}")
        if seat != self.to_act:
            if seat not in self.stacks:
                raise OutOfTurn("turn", f"seat {seat!r} is not in this hand")
            raise OutOfTurn("turn", f"it is seat {self.to_act}'s turn, not seat {seat}'s")

    def _check_amount(self, amount: object, lo: int, hi: int, room: int, what: str) -> None:
        f = money.format
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

    def verify_draw(self, seat: int, discards: Sequence[Card | str] | str) -> None:
        self._turn(seat, "draw", False)
        self._discards(seat, discards)

    def can_draw(self, seat: int, discards: Sequence[Card | str] | str) -> bool:
        return _can(self.verify_draw, seat, discards)

    def draw(
        self, seat: int, discards: Sequence[Card | str] | str
    ) -> rec.Drew | rec.StoodPat | rec.Discarded:
        """Throw away ``discards`` and take as many new cards. No discards is standing pat.
        With entered cards the answer is a ``discard`` record and the hand waits for the cards
        (the ``draw`` record follows the last of them)."""
        self.verify_draw(seat, discards)
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

    def verify_stand_pat(self, seat: int) -> None:
        self._turn(seat, "stand pat", False)

    def can_stand_pat(self, seat: int) -> bool:
        return _can(self.verify_stand_pat, seat)

    def stand_pat(self, seat: int) -> rec.StoodPat:
        self.verify_stand_pat(seat)
        r = rec.StoodPat(seat)
        self._drew(seat, r)
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
        live = self.live
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
        if seat == viewer:
            return [c.text for c in hand]
        if seat in self.folded:
            return None
        if seat in self.showed_down:
            return [c.text for c in hand]
        shown = self.shown[seat]
        return [c.text if c in shown else rec.HIDDEN for c in hand]

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
            "value": self.values[s].name if s in self.values else None,
            "won": self.awards.get(s, 0) if self.is_terminal else None,
        } for s in self.order]
        return {
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

    def log_view(self, viewer: int | str = "spectator") -> list[dict[str, Any]]:
        """The log as ``viewer`` may see it: other seats' private cards redacted to ``"??"``."""
        return [rec.redact(r.to_json(), viewer) for r in self.log]

    def __repr__(self) -> str:  # no cards: a repr ends up in logs and error reports
        return (
            f"<DrawHand #{self.number} {self.phase} to_act={self.to_act} "
            f"pot={money.format(self.pot)} seats={list(self.order)}>"
        )


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
