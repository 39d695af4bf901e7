"""Shoes, shuffles and the fairness commitment.

A shoe's order is a pure function of a 32-byte secret seed, so any round can be replayed
exactly and anyone can check that the cards came from the order committed to before the
first card was dealt:

1. The seed comes from the operating system's CSPRNG (:func:`secrets.token_bytes`).
2. The order is a Fisher–Yates shuffle of ``decks`` standard decks in index order, driven
   by a SHA-256 counter stream over the seed (see :func:`shuffled`).
3. Each position *i* of the order gets a salt ``HMAC-SHA256(seed, "position" || i)`` and a
   commitment ``SHA-256(salt || i || card)`` (:func:`position_commitment`). Before dealing, the
   room publishes ``commitment``, the SHA-256 of all the position commitments in order: one
   card can then be *opened* (position, card, salt) without telling anything about the others.
4. When the seed is revealed (the table closes), ``syndicate verify`` recomputes everything.

The whole scheme is in ``docs/fairness.md``, precisely enough to re-implement.

A shoe can also be *stacked* from an explicit card order (tests, puzzles); its commitment
is then the SHA-256 of the order's text.

At a real-cards table the engine does not draw: an :class:`EnteredShoe` stands for the
physical shoe, the engine says which card it needs next (a :class:`CardNeed`) and the dealer
enters the card that landed. The entered shoe counts what came out, so it can refuse a card
it cannot hold (docs/dealer.md).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import struct
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple, Protocol

from .cards import Card, decks, parse, text
from .errors import ShoeError

__all__ = [
    "SEED_BYTES", "CardNeed", "CardSource", "EnteredShoe", "Shoe", "ShoeError", "commitment_of", "position_commitment", "position_salt",
    "root_of", "shuffled",
]

SEED_BYTES = 32
_U32 = 1 << 32




def commitment_of(seed: bytes) -> str:
    """SHA-256 of a seed's 32 bytes, in hex (the ``seed_hash`` a history carries)."""
    return hashlib.sha256(seed).hexdigest()


def position_salt(seed: bytes, position: int) -> bytes:
    """The salt of one position: HMAC-SHA256 keyed by the seed over ``"position"`` and the
    position as 4 bytes big-endian. Opening one card gives its salt and nothing of the seed."""
    return hmac.new(seed, b"position" + position.to_bytes(4, "big"), hashlib.sha256).digest()


def position_commitment(salt: bytes, position: int, card: str) -> bytes:
    """SHA-256(salt || position as 4 bytes big-endian || the card's text in ASCII)."""
    return hashlib.sha256(salt + position.to_bytes(4, "big") + card.encode("ascii")).digest()


def root_of(commitments: Iterable[bytes]) -> str:
    """The shoe's published commitment: SHA-256 of the position commitments, concatenated."""
    return hashlib.sha256(b"".join(commitments)).hexdigest()


def _stream(seed: bytes, domain: bytes, count: int) -> list[int]:
    """``count`` unsigned 32-bit integers: SHA-256(seed || domain || block counter), each
    32-byte block read as eight big-endian u32, blocks numbered 0, 1, 2, ... (8-byte big-endian)."""
    prefix = seed + domain
    blocks = -(-count // 8)
    raw = b"".join(hashlib.sha256(prefix + k.to_bytes(8, "big")).digest() for k in range(blocks))
    return list(struct.unpack(f">{blocks * 8}I", raw))


def shuffled(cards: Sequence[Card], seed: bytes, domain: bytes = b"") -> list[Card]:
    """Fisher–Yates shuffle of ``cards`` driven by the seed's SHA-256 stream.

    For ``i`` from ``n-1`` down to 1, take the next ``u`` (u32) until
    ``u < 2**32 - 2**32 % (i+1)`` (rejection keeps it unbiased), let ``j = u % (i+1)`` and swap
    positions ``i`` and ``j``.
    """
    out = list(cards)
    n = len(out)
    # One u32 per position, plus spares for the rare rejections (p < 2e-7 each).
    values = _stream(seed, domain, n + 64)
    k = 0
    for i in range(n - 1, 0, -1):
        m = i + 1
        u = values[k]
        k += 1
        limit = _U32 - _U32 % m
        while u >= limit:
            if k >= len(values):
                values = _stream(seed, domain, 2 * len(values))
            u = values[k]
            k += 1
        j = u % m
        out[i], out[j] = out[j], out[i]
    return out


class Shoe:
    """A dealing shoe: the cards in order, where the next card is, and where the cut card is.

    ``draw()`` deals the next card. Once the cut card has come out, ``needs_shuffle`` is true
    and the table starts the next round from a new shoe. If a round runs the shoe dry, the
    discards of earlier rounds are reshuffled (from the same seed, domain ``b"restub" + k``)
    and dealing goes on; a stacked shoe with no seed cannot do that and raises :class:`ShoeError`.
    """

    __slots__ = (
        "_commitment",
        "_committed",
        "_discards",
        "_restubs",
        "_revealed",
        "_round_start",
        "_seed",
        "burn",
        "cut",
        "decks",
        "order",
        "penetration",
        "position",
    )

    def __init__(
        self,
        order: list[Card],
        *,
        decks: int,
        penetration: float = 1.0,
        burn: int = 0,
        seed: bytes | None = None,
        commitment: str | None = None,
    ) -> None:
        if not 0 < penetration <= 1:
            raise ValueError(f"penetration must be in (0, 1], got {penetration}")
        self.decks = decks
        self.penetration = penetration
        self.order = order
        self.burn = burn
        self.position = burn
        self.cut = max(burn + 1, int(len(order) * penetration))
        self._seed = seed
        self._revealed = False
        self._commitment = commitment
        self._committed = len(order)  # positions the root covers; a re-stub adds more
        self._round_start = burn
        self._discards: list[Card] = list(order[:burn])
        self._restubs = 0

    # -- construction -------------------------------------------------------------------
    @classmethod
    def new(cls, decks: int = 6, penetration: float = 0.75, burn: int = 1) -> Shoe:
        """A freshly shuffled shoe from a CSPRNG seed: the way every shoe in play is made."""
        return cls.from_seed(secrets.token_bytes(SEED_BYTES), decks, penetration, burn)

    @classmethod
    def from_seed(
        cls, seed: bytes | str, decks: int = 6, penetration: float = 0.75, burn: int = 1
    ) -> Shoe:
        """The shoe a given seed makes (bytes, or 64 hex digits as revealed in a history)."""
        raw = bytes.fromhex(seed) if isinstance(seed, str) else seed
        if len(raw) != SEED_BYTES:
            raise ValueError(f"a shoe seed is {SEED_BYTES} bytes (64 hex digits), got {len(raw)}")
        if not 1 <= decks <= 8:
            raise ValueError(f"decks must be 1..8, got {decks}")
        return cls(
            shuffled(_fresh(decks), raw), decks=decks, penetration=penetration, burn=burn, seed=raw
        )

    @classmethod
    def stacked(
        cls, cards: str | Iterable[str | Card], *, penetration: float = 1.0, burn: int = 0,
        decks: int = 1,
    ) -> Shoe:
        """A shoe dealing exactly ``cards`` in order (tests, replays of stacked rounds)."""
        return cls(parse(cards, distinct=False), decks=decks, penetration=penetration, burn=burn)

    # -- dealing --------------------------------------------------------------------------
    def draw(self) -> Card:
        """Deal the next card."""
        pos = self.position
        if pos >= len(self.order) or self._revealed:
            if self._revealed:
                raise ShoeError("the shoe is finished: its seed has been revealed")
            self._restub()
        c = self.order[pos]
        self.position = pos + 1
        return c

    def begin_round(self) -> None:
        """Mark where a round's cards start: what comes before is in the discard tray."""
        self._discards.extend(self.order[self._round_start:self.position])
        self._round_start = self.position

    def _restub(self) -> None:
        if self._seed is None:
            raise ShoeError("the stacked shoe has run out of cards")
        if not self._discards:
            raise ShoeError("the shoe has run out of cards and the discard tray is empty")
        self._restubs += 1
        stub = shuffled(self._discards, self._seed, b"restub" + self._restubs.to_bytes(4, "big"))
        self._discards = []
        self.extend(stub)
        self.cut = len(self.order)  # the shoe is finished after this round whatever happens

    @property
    def needs_shuffle(self) -> bool:
        """The cut card is out (or the shoe ran dry): shuffle before the next round."""
        return self.position >= self.cut

    @property
    def remaining(self) -> int:
        return len(self.order) - self.position

    @property
    def dealt(self) -> list[Card]:
        """The cards dealt so far, burn cards excluded."""
        return self.order[self.burn:self.position]

    def extend(self, stub: Sequence[Card]) -> None:
        """Append a re-stub to the order. Its positions carry on the numbering, so their salts
        and commitments follow the same rule; they are outside the root published before the
        first card (they did not exist), and :meth:`positions` lists them after it."""
        if self._commitment is None:
            _ = self.commitment  # the root covers the order as it was before the stub
        self.order.extend(stub)

    # -- counting what a driver dealt (see CardSource) --------------------------------------
    def refusal(self, c: Card) -> str | None:
        """Nothing to refuse: the driver drew ``c`` from this shoe, whose order it is."""
        return None

    def take(self, c: Card) -> None:
        """Nothing to count: :meth:`draw` moved the position already."""

    def put_back(self, c: Card) -> None:
        """Nothing to uncount: a committed shoe's cards are never taken back."""

    # -- fairness -------------------------------------------------------------------------
    @property
    def commitment(self) -> str:
        """What is published before the first card: the root over the position commitments
        (a seeded shoe), or SHA-256 of the order's text (a stacked shoe). Computed on first
        use, so a simulation that never shows it does not pay for the hashing."""
        if self._commitment is None:
            if self._seed is not None:
                self._commitment = root_of(self._position_bytes(0, self._committed))
            else:
                self._commitment = hashlib.sha256(text(self.order[:self._committed]).encode()).hexdigest()
        return self._commitment

    @property
    def committed(self) -> int:
        """How many positions the published root covers (the order before any re-stub)."""
        return self._committed

    def _position_bytes(self, start: int, stop: int) -> list[bytes]:
        assert self._seed is not None
        return [position_commitment(position_salt(self._seed, i), i, self.order[i].text) for i in range(start, stop)]

    def positions(self) -> list[str]:
        """Every position's commitment, in hex, re-stub positions after the root's: public,
        since each hides its card behind a salt only the seed makes."""
        if self._seed is None:
            raise ShoeError("a stacked shoe has no position commitments")
        return [c.hex() for c in self._position_bytes(0, len(self.order))]

    def opening(self, position: int) -> dict[str, Any]:
        """What proves the card at ``position`` was committed to: the card and its salt. For the
        server only, to hand to whoever may see that card."""
        if self._seed is None:
            raise ShoeError("a stacked shoe has no position commitments")
        if not 0 <= position < len(self.order):
            raise ShoeError(f"the shoe has no position {position}")
        return {"position": position, "card": self.order[position].text,
                "salt": position_salt(self._seed, position).hex()}

    @property
    def seed_hash(self) -> str | None:
        """SHA-256 of the seed (published with the root), so a revealed seed checks at once."""
        return commitment_of(self._seed) if self._seed is not None else None

    @property
    def seed_hex(self) -> str | None:
        """The seed, once revealed; ``None`` before (and always for a stacked shoe)."""
        return self._seed.hex() if self._revealed and self._seed is not None else None

    def escrow_hex(self) -> str | None:
        """The seed, for safekeeping by the server before the first card is dealt (never to be
        shown to anyone before :meth:`reveal`): a shoe cut short by a crash can then still be
        revealed and verified. ``None`` for a stacked shoe."""
        return self._seed.hex() if self._seed is not None else None

    def reveal(self) -> str | None:
        """Finish the shoe and reveal its seed. No more cards may be dealt after this."""
        self._revealed = True
        self.cut = self.position
        return self.seed_hex

    @property
    def revealed(self) -> bool:
        return self._revealed

    @property
    def has_seed(self) -> bool:
        """Whether the order comes from a seed (every shoe in play) rather than a stacked list."""
        return self._seed is not None

    def shuffle_from_seed(self, cards: Sequence[Card], domain: bytes) -> list[Card]:
        """``cards`` shuffled by this shoe's seed under ``domain`` (a game's own re-stub rule).
        Deterministic, so a replay from the revealed seed deals the same stub."""
        if self._seed is None:
            raise ShoeError("a stacked shoe has no seed to shuffle with")
        return shuffled(cards, self._seed, domain)

    @classmethod
    def for_replay(cls, cards: Sequence[Card], start: int, decks: int = 1) -> Shoe:
        """A shoe that deals ``cards`` from position ``start`` (what a replayed round saw).
        The positions before ``start`` hold placeholders that are never dealt."""
        shoe = cls([_PLACEHOLDER] * start + list(cards), decks=decks, burn=0)
        shoe.position = shoe._round_start = start
        shoe._discards = []
        return shoe

    def __repr__(self) -> str:  # never shows the order or the seed
        return (
            f"<Shoe {self.decks} deck(s), {self.position}/{len(self.order)} dealt, "
            f"commitment {self.commitment[:12]}…>"
        )


_PLACEHOLDER = decks(1)[0]


def _fresh(n: int) -> list[Card]:
    return decks(n)


class CardNeed(NamedTuple):
    """A chance node: the card the engine needs next, and for whom.

    ``seat`` is a seat number, or -1 for the Blackjack dealer; ``hand`` the hand of that seat
    (a Blackjack seat has several after splitting; always 0 at poker); ``slot`` where the card
    goes in that hand (0 is its first card: seat 3's second card has slot 1); ``face_up``
    whether everyone may see it (False for the Blackjack hole card and every poker card);
    ``why`` one of ``"deal"`` (the deal: the players' cards and the dealer's up card),
    ``"hole"``, ``"hit"``, ``"double"``, ``"split"`` (a split hand's second card),
    ``"dealer"`` (the dealer drawing), ``"draw"`` (poker's draw), ``"show"`` (a hand shown at
    poker's showdown, when the face-down cards were never entered: face up).
    """

    seat: int
    hand: int
    slot: int
    face_up: bool
    why: str

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "hand": self.hand, "slot": self.slot, "face_up": self.face_up,
                "why": self.why}

    def describe(self) -> str:
        """In words, for a refusal or a dealer's screen: "seat 3's second card"."""
        nth = _ORDINALS[self.slot] if self.slot < len(_ORDINALS) else f"card no. {self.slot + 1}"
        if self.seat == -1:
            if self.why == "hole":
                return "the dealer's hole card (face down)"
            return "the dealer's up card" if self.slot == 0 else f"the dealer's {nth} card"
        on = f" on hand {self.hand + 1}" if self.hand else ""
        what = {"hit": " (a hit)", "double": " (a double)", "split": " (after a split)",
                "draw": " (the draw)", "show": " (the showdown)"}.get(self.why, "")
        return f"seat {self.seat}'s {nth} card{on}{what}"


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
             "tenth", "eleventh")


class CardSource(Protocol):
    """Where a round's cards come from, as far as the round needs to know: how many decks (for
    the views), where the round's cards start (:meth:`begin_round`, then ``position``), and a
    count that may refuse a card a dealer enters (:meth:`refusal`, :meth:`take`,
    :meth:`put_back` when it is taken back). A :class:`Shoe` counts by drawing, so it refuses
    nothing; an :class:`EnteredShoe` counts every card since it was filled."""

    decks: int
    position: int

    @property
    def remaining(self) -> int: ...

    @property
    def commitment(self) -> str | None: ...

    def begin_round(self) -> None: ...

    def refusal(self, c: Card) -> str | None: ...

    def take(self, c: Card) -> None: ...

    def put_back(self, c: Card) -> None: ...


class EnteredShoe:
    """The physical shoe of a real-cards table: the dealer enters each card as it lands.

    The engine never draws from it. It counts every card entered since the shoe was filled
    (``decks`` standard decks), so that a card it cannot hold (a sixth A♠ in a 5-deck shoe, a
    card twice in a one-deck poker hand) is refused, naming the card. A Blackjack card entered
    by its rank alone (a suitless card) counts against its rank: ``4 * decks`` of each rank.
    There is no commitment and nothing to verify: the cards are whatever the dealer's hand dealt.

    ``shown_only``: the dealer enters only the cards shown face up (a real-cards draw table: the
    hands at the showdown); the face-down cards are counted by the engine, never named.
    """

    __slots__ = ("_ranks", "_round_start", "_suited", "decks", "position", "shown_only")

    has_seed = False
    revealed = False
    needs_shuffle = False  # the dealer sees the cut card: a new shoe is the room's call
    commitment = None
    seed_hex = None
    seed_hash = None

    def __init__(self, decks: int = 1, *, shown_only: bool = False) -> None:
        if isinstance(decks, bool) or not isinstance(decks, int) or not 1 <= decks <= 8:
            raise ValueError(f"decks must be 1..8, got {decks!r}")
        self.decks = decks
        self.shown_only = shown_only
        self.position = 0  # cards entered since the shoe was filled (taken-back ones excluded)
        self._round_start = 0
        self._suited = [0] * 52  # by card index
        self._ranks = [0] * 13  # by rank index, suited and suitless together

    @property
    def remaining(self) -> int:
        """Cards still in the shoe (it holds ``52 * decks``)."""
        return 52 * self.decks - self.position

    def refusal(self, c: Card) -> str | None:
        """Why the shoe cannot hold ``c`` now (``None``: it can)."""
        d = self.decks
        if self.position >= 52 * d:
            return (f"the shoe is empty: all {52 * d} cards of the {d}-deck shoe are out since it was filled "
                    "(shuffle the discards back in)")
        if c.index < 52 and self._suited[c.index] >= d:
            if d == 1:
                return f"{c.pretty} has already been dealt from this deck (one of each card)"
            return (f"{c.pretty} cannot come out again: a {d}-deck shoe holds {d} and all {d} have been "
                    "dealt since it was filled")
        if self._ranks[c.rank - 2] >= 4 * d:
            return (f"{c.pretty} cannot come out again: a {d}-deck shoe holds {4 * d} of that rank and "
                    f"all {4 * d} have been dealt since it was filled")
        return None

    def take(self, c: Card) -> None:
        """Count ``c`` as dealt (the engine checked :meth:`refusal` first)."""
        if c.index < 52:
            self._suited[c.index] += 1
        self._ranks[c.rank - 2] += 1
        self.position += 1

    def put_back(self, c: Card) -> None:
        """Uncount ``c``: a card taken back, or a discard shuffled into a re-stub."""
        if c.index < 52:
            self._suited[c.index] -= 1
        self._ranks[c.rank - 2] -= 1
        self.position -= 1

    def begin_round(self) -> None:
        self._round_start = self.position

    def reshuffle(self, on_table: Iterable[Card]) -> int:
        """The dealer shuffled the discard tray back into the shoe: only ``on_table`` (the cards
        of the round in play) stay counted as out. Returns how many cards went back."""
        before = self.position
        self.position = 0
        self._suited = [0] * 52
        self._ranks = [0] * 13
        for c in on_table:
            self.take(c)
        return before - self.position

    def state(self) -> tuple[int, list[int], list[int]]:
        """The counts as they are, for :meth:`restore` (a take-back replays a round from its start)."""
        return (self.position, list(self._suited), list(self._ranks))

    def restore(self, state: tuple[int, list[int], list[int]]) -> None:
        self.position = state[0]
        self._suited = list(state[1])
        self._ranks = list(state[2])

    def draw(self) -> Card:
        raise ShoeError("the dealer enters the cards of this shoe: the engine cannot draw from it")

    def reveal(self) -> None:
        """Nothing to reveal: there is no seed."""
        return None

    def __repr__(self) -> str:
        shown = ", the cards shown only" if self.shown_only else ""
        return f"<EnteredShoe {self.decks} deck(s){shown}, {self.position} card(s) entered>"
