"""Playing cards.

There are exactly 52 :class:`Card` objects, made once and shared, so a card compares by
identity, hashes fast and costs nothing to deal. Each has an ``index`` 0..51
(``4 * rank_index + suit_index``, ranks 2..A, suits c, d, h, s): the encoding the numpy
batch APIs and the hand-history files use.

A Blackjack dealer entering the cards of a real shoe may give the rank alone (its suit changes
nothing at Blackjack). Such a card is one of 13 *suitless* cards, :data:`SUITLESS`, index
52 + rank_index, with ``suit == ""`` and a text of the rank alone (``"A"``, ``"T"``, ``"7"``);
only ``card(text, suitless=True)`` makes one, so no poker path ever meets it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

RANKS: Final = "23456789TJQKA"
SUITS: Final = "cdhs"
SUIT_SYMBOLS: Final = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
RANK_NAMES: Final = {
    2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven", 8: "Eight",
    9: "Nine", 10: "Ten", 11: "Jack", 12: "Queen", 13: "King", 14: "Ace",
}
RANK_PLURALS: Final = {r: ("Sixes" if r == 6 else n + "s") for r, n in RANK_NAMES.items()}


class CardError(ValueError):
    """Text that does not name a card, or a card given twice where that is impossible."""


class Card:
    """One of the 52 cards. Never construct one: use :func:`card`, :func:`parse` or :data:`DECK`."""

    __slots__ = ("index", "rank", "suit", "text", "value")

    index: int
    rank: int  # 2..14, Ace high
    suit: str  # one of "cdhs"
    text: str  # "As", "Td", ...
    value: int  # blackjack value: 2..10, Ace counts 1 here (the hand decides on 11)

    def __init__(self, index: int) -> None:
        if index >= 52:  # a rank without a suit (entered Blackjack cards)
            rank_index = index - 52
            self.suit = ""
        else:
            rank_index, suit_index = divmod(index, 4)
            self.suit = SUITS[suit_index]
        self.index = index
        self.rank = rank_index + 2
        self.text = RANKS[rank_index] + self.suit
        self.value = 1 if self.rank == 14 else min(self.rank, 10)

    def __repr__(self) -> str:
        return f"Card({self.text!r})"

    def __str__(self) -> str:
        return self.text

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (_by_index, (self.index,))

    @property
    def pretty(self) -> str:
        """The card with a suit symbol: ``"A♠"``, ``"10♥"``."""
        r = "10" if self.rank == 10 else RANKS[self.rank - 2]
        return r + SUIT_SYMBOLS[self.suit] if self.suit else r

    @property
    def suited(self) -> bool:
        """False for a rank entered without its suit (see the module's docstring)."""
        return self.suit != ""

    @property
    def is_ace(self) -> bool:
        return self.rank == 14


#: All 52 cards in index order (2c, 2d, 2h, 2s, 3c, ... As).
DECK: Final[tuple[Card, ...]] = tuple(Card(i) for i in range(52))
_BY_TEXT: Final[dict[str, Card]] = {c.text: c for c in DECK}
# Accept the common spellings too: "10h", lower-case ranks, suit symbols.
for _c in DECK:
    _r = _c.text[0]
    for _rank in {_r, _r.lower()} | ({"10"} if _r == "T" else set()):
        for _suit in {_c.suit, _c.suit.upper(), SUIT_SYMBOLS[_c.suit]}:
            _BY_TEXT.setdefault(_rank + _suit, _c)


#: The 13 ranks without a suit (2 .. A), index 52..64: what a Blackjack dealer may enter.
SUITLESS: Final[tuple[Card, ...]] = tuple(Card(52 + i) for i in range(13))
_BY_RANK: Final[dict[str, Card]] = {}
for _c in SUITLESS:
    for _rank in {_c.text, _c.text.lower()} | ({"10"} if _c.text == "T" else set()):
        _BY_RANK[_rank] = _c


def _by_index(index: int) -> Card:
    return DECK[index] if index < 52 else SUITLESS[index - 52]


def card(text: object, *, suitless: bool = False) -> Card:
    """The card named by ``text`` ("As", "10h", "T♥"), by its index 0..51, or the card itself.

    With ``suitless`` a rank alone ("A", "10", "t") is a card too: one of :data:`SUITLESS`.
    """
    if isinstance(text, Card):
        if text.index >= 52 and not suitless:
            raise CardError(f"a card needs a suit here: {text.text!r} is a rank alone")
        return text
    if suitless and isinstance(text, str):
        rank_only = _BY_RANK.get(text.strip())
        if rank_only is not None:
            return rank_only
    if isinstance(text, int) and not isinstance(text, bool):
        if 0 <= text < 52:
            return DECK[text]
        raise CardError(f"card index must be 0..51, got {text}")
    if isinstance(text, str):
        found = _BY_TEXT.get(text.strip())
        if found is not None:
            return found
        raise CardError(
            f"unknown card {text!r}: write a rank {'/'.join(RANKS)} (or 10) and a suit c/d/h/s, as in 'As' or 'Td'"
            + (", or the rank alone" if suitless else "")
        )
    raise CardError(f"not a card: {text!r}")


def parse(text: object, *, distinct: bool = True) -> list[Card]:
    """Cards from text such as ``"As Kd 7h"`` (spaces or commas) or from an iterable.

    With ``distinct`` (the default) a card named twice is an error: one deck has one of each.
    """
    if isinstance(text, str):
        items: Iterable[object] = text.replace(",", " ").split()
    elif isinstance(text, Iterable):
        items = text
    else:
        raise CardError(f"not a list of cards: {text!r}")
    cards = [card(x) for x in items]
    if distinct and len(set(cards)) != len(cards):
        seen: set[Card] = set()
        dupes = [c.text for c in cards if c in seen or seen.add(c)]  # type: ignore[func-returns-value]
        raise CardError(f"card given twice: {', '.join(dupes)}")
    return cards


def text(cards: Iterable[Card]) -> str:
    """``"As Kd 7h"``: the inverse of :func:`parse`."""
    return " ".join(c.text for c in cards)


def decks(n: int) -> list[Card]:
    """``n`` standard decks in index order."""
    return list(DECK) * n
