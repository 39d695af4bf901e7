"""The five-card hand evaluator: every hand to one of its 7,462 distinct values.

Two tables, built at import in a few milliseconds, do all the work:

* Each rank gets a weight from :data:`RANK_WEIGHTS`, a set found by a greedy search so that
  the sum of the weights of any five ranks (at most four alike) is different for every
  multiset of ranks. The sum is the index into a list of values (6,175 rank multisets).
* A flush is five cards of one suit; with five distinct cards its ranks are distinct, and
  the same sum indexes a second list for the 1,287 flush values.

The single-hand path (:func:`evaluate`) adds five small integers per hand; the module is
compiled with mypyc (compiled_modules.txt), where its typed locals read the cards directly. A card given twice always repeats a rank, so only hands whose
ranks pair up need the (cheap, identity-based) check for duplicates; the other half of all
hands go straight to the flush test. The batch path (:func:`evaluate_batch`) runs the same
arithmetic in a numba kernel over a numpy array.

Ranks follow the usual convention (as in Cactus Kev's evaluator and treys): 1 is the royal
flush, 7,462 is 7-5-4-3-2 offsuit.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from typing import Any, Final

from ..core.cards import DECK, RANK_NAMES, RANK_PLURALS, Card, CardError, card

CATEGORIES: Final = (
    "Royal Flush",
    "Straight Flush",
    "Four of a Kind",
    "Full House",
    "Flush",
    "Straight",
    "Three of a Kind",
    "Two Pair",
    "One Pair",
    "High Card",
)

#: Greedy search (smallest next weight keeping every 5-multiset sum distinct), ranks 2..A.
RANK_WEIGHTS: Final = (0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415)
_KEY_SIZE: Final = 5 * RANK_WEIGHTS[-1] + 1
DISTINCT_VALUES: Final = 7462

_SHORT = "23456789TJQKA"
_TEN = re.compile(r"(?<=[( ])T(?=[ )])")  # a ten among a name's kickers: "(K T 4 kickers)", "(T 9 8 7)"


class HandValue:
    """The value of a five-card hand. Compare with ``<``/``>``: the better hand is greater.

    ``rank`` is 1 (royal flush) … 7,462 (the worst high card); every distinct value is one
    interned object, so ``is``, ``==`` and hashing are all by rank.
    """

    __slots__ = ("category", "category_index", "name", "rank", "ranks")

    rank: int
    category: str
    category_index: int  # 0 = Royal Flush … 9 = High Card
    name: str
    ranks: tuple[int, ...]  # the card ranks (2..14) in the order that decides ties

    def __init__(self, rank: int, category_index: int, ranks: tuple[int, ...], name: str) -> None:
        self.rank = rank
        self.category_index = category_index
        self.category = CATEGORIES[category_index]
        self.ranks = ranks
        self.name = name

    def __lt__(self, other: HandValue) -> bool:
        return self.rank > other.rank

    def __le__(self, other: HandValue) -> bool:
        return self.rank >= other.rank

    def __gt__(self, other: HandValue) -> bool:
        return self.rank < other.rank

    def __ge__(self, other: HandValue) -> bool:
        return self.rank <= other.rank

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HandValue) and self.rank == other.rank

    def __hash__(self) -> int:
        return self.rank

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (value_of_rank, (self.rank,))

    def __repr__(self) -> str:
        return f"HandValue({self.rank}, {self.name!r})"

    def __str__(self) -> str:
        return self.name


def spoken(name: str) -> str:
    """A hand's name as a person reads it: a ten among the kickers is "10", not the "T" the
    name keeps (records store the name as the engine made it, and replays compare it)."""
    return _TEN.sub("10", name)


def _name(cat: int, r: tuple[int, ...]) -> str:
    n, p = RANK_NAMES, RANK_PLURALS

    def short(xs: Iterable[int]) -> str:
        return " ".join(_SHORT[x - 2] for x in xs)

    if cat == 0:
        return "Royal Flush"
    if cat == 1:
        return f"Straight Flush, {n[r[0]]} high"
    if cat == 2:
        return f"Four of a Kind, {p[r[0]]}, {n[r[4]]} kicker"
    if cat == 3:
        return f"Full House, {p[r[0]]} over {p[r[3]]}"
    if cat == 4:
        return f"Flush, {n[r[0]]} high ({short(r)})"
    if cat == 5:
        return f"Straight, {n[r[0]]} high"
    if cat == 6:
        return f"Three of a Kind, {p[r[0]]} ({short(r[3:])} kickers)"
    if cat == 7:
        return f"Two Pair, {p[r[0]]} and {p[r[2]]}, {n[r[4]]} kicker"
    if cat == 8:
        return f"One Pair, {p[r[0]]} ({short(r[2:])} kickers)"
    return f"High Card, {n[r[0]]} ({short(r[1:])})"


def _straight_high(ranks: tuple[int, ...]) -> int:
    """The high card of a straight given five distinct ranks sorted high to low, else 0."""
    if ranks[0] - ranks[4] == 4:
        return ranks[0]
    if ranks == (14, 5, 4, 3, 2):
        return 5  # the wheel: the Ace plays low
    return 0


def _build() -> tuple[
    list[HandValue], list[HandValue | None], list[HandValue | None], list[HandValue | None]
]:
    """All 7,462 values, best first, and the lookup lists keyed by the rank-weight sum: every
    non-flush value, the flushes, and the non-flush values with five distinct ranks."""
    # (category, tie-break ranks, rank multiset, is_flush) for every distinct value.
    entries: list[tuple[int, tuple[int, ...], tuple[int, ...], bool]] = []
    for combo in itertools.combinations(range(14, 1, -1), 5):
        high = _straight_high(combo)
        if high:
            order: tuple[int, ...] = (5, 4, 3, 2, 14) if high == 5 else combo
            entries.append((0 if high == 14 else 1, (high,), order, True))
            entries.append((5, (high,), order, False))
        else:
            entries.append((4, combo, combo, True))
            entries.append((9, combo, combo, False))
    ranks_desc = range(14, 1, -1)
    for q in ranks_desc:
        for k in ranks_desc:
            if k != q:
                entries.append((2, (q, k), (q, q, q, q, k), False))
    for t in ranks_desc:
        for pr in ranks_desc:
            if pr != t:
                entries.append((3, (t, pr), (t, t, t, pr, pr), False))
    for t in ranks_desc:
        for a, b in itertools.combinations([x for x in ranks_desc if x != t], 2):
            entries.append((6, (t, a, b), (t, t, t, a, b), False))
    for hi, lo in itertools.combinations(ranks_desc, 2):
        for k in ranks_desc:
            if k not in (hi, lo):
                entries.append((7, (hi, lo, k), (hi, hi, lo, lo, k), False))
    for pr in ranks_desc:
        for a, b, c in itertools.combinations([x for x in ranks_desc if x != pr], 3):
            entries.append((8, (pr, a, b, c), (pr, pr, a, b, c), False))
    # Straight flushes and the royal share category order with SF; sort by category then
    # tie-break ranks, higher first (a straight's tie-break is its high card, wheel = 5).
    entries.sort(key=lambda e: (e[0] if e[0] != 0 else 1, [-x for x in e[1]]))
    values: list[HandValue] = []
    plain: list[HandValue | None] = [None] * _KEY_SIZE
    flush: list[HandValue | None] = [None] * _KEY_SIZE
    w = RANK_WEIGHTS
    for i, (cat, _tb, order, is_flush) in enumerate(entries):
        v = HandValue(i + 1, cat, order, _name(cat, order))
        values.append(v)
        key = sum(w[x - 2] for x in order)
        (flush if is_flush else plain)[key] = v
    assert len(values) == DISTINCT_VALUES
    distinct = [v if v is not None and v.category_index in (5, 9) else None for v in plain]
    # Five copies of one card sum to 5 x its weight; that must never look like five distinct
    # ranks, or evaluate() would skip its duplicate check.
    assert all(distinct[5 * x] is None for x in w)
    return values, plain, flush, distinct


_values, _PLAIN, _FLUSH, _DISTINCT = _build()
#: Every distinct value, best first: ``VALUES[rank - 1]``.
VALUES: Final[tuple[HandValue, ...]] = tuple(_values)
del _values
#: Per card index: the weight of its rank.
_CODE: Final = [RANK_WEIGHTS[c.rank - 2] for c in DECK]


def value_of_rank(rank: int) -> HandValue:
    """The :class:`HandValue` whose ``rank`` is ``rank`` (1..7,462)."""
    if not 1 <= rank <= DISTINCT_VALUES:
        raise ValueError(f"a hand rank is 1..{DISTINCT_VALUES}, got {rank}")
    return VALUES[rank - 1]


def evaluate(cards: Any) -> HandValue:
    """The value of five cards: ``Card`` objects, indices, or text such as ``"As Kd 7h 7c 2s"``.

    Unknown cards, a card given twice, or a count other than five raise :class:`CardError`.
    """
    # Typed locals let the mypyc build read the cards' fields directly; anything that is not
    # five Card objects takes the checked path.
    try:
        if len(cards) != 5:
            return _evaluate_checked(cards)
        a: Card = cards[0]
        b: Card = cards[1]
        c: Card = cards[2]
        d: Card = cards[3]
        e: Card = cards[4]
        code = _CODE
        k: int = code[a.index] + code[b.index] + code[c.index] + code[d.index] + code[e.index]
    except (ValueError, TypeError, AttributeError, IndexError):
        return _evaluate_checked(cards)
    v = _DISTINCT[k]
    if v is None:
        # Ranks pair up: the only hands where a card can have been given twice. Cards
        # are interned, so identity is equality.
        if (a is b or a is c or a is d or a is e or b is c or b is d or b is e
                or c is d or c is e or d is e):
            return _evaluate_checked(cards)
        return _PLAIN[k]  # type: ignore[return-value]
    if a.suit is b.suit and a.suit is c.suit and a.suit is d.suit and a.suit is e.suit:
        return _FLUSH[k]  # type: ignore[return-value]
    return v


def _as_cards(cards: Any) -> list[Card]:
    if isinstance(cards, str):
        return _parse_distinct(cards.replace(",", " ").split())
    try:
        items = list(cards)
    except TypeError:
        raise CardError(f"expected cards, got {type(cards).__name__}") from None
    return _parse_distinct(items)


def _parse_distinct(items: Sequence[Any]) -> list[Card]:
    out = [card(x if isinstance(x, (Card, str, int)) or not hasattr(x, "__index__") else int(x))
           for x in items]
    if len(set(out)) != len(out):
        seen: set[Card] = set()
        dupes = [c.text for c in out
                 if c in seen or seen.add(c)]  # type: ignore[func-returns-value]
        raise CardError(f"card given twice: {', '.join(dupes)} (one deck has one of each card)")
    return out


def _evaluate_checked(cards: Any) -> HandValue:
    hand = _as_cards(cards)
    if len(hand) != 5:
        raise CardError(f"a poker hand is five cards, got {len(hand)}")
    return evaluate(hand)


def best_of(cards: Any) -> HandValue:
    """The best five-card value among five, six or seven cards."""
    hand = _as_cards(cards)
    if not 5 <= len(hand) <= 7:
        raise CardError(f"best_of takes five to seven cards, got {len(hand)}")
    return max(evaluate(five) for five in itertools.combinations(hand, 5))


def best_five(cards: Any) -> tuple[HandValue, tuple[Card, ...]]:
    """Like :func:`best_of`, also returning the five cards that make the value."""
    hand = _as_cards(cards)
    if not 5 <= len(hand) <= 7:
        raise CardError(f"best_five takes five to seven cards, got {len(hand)}")
    return max(((evaluate(f), f) for f in itertools.combinations(hand, 5)), key=lambda x: x[0])
