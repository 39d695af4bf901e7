"""Tables and numba kernels of the combinatorial analysis (see docs/maths.md).

Card values are indexed 0..9 for Ace, 2, ..., 9, ten-valued. A *composition* is a multiset of
card values (how many of each), which is all that matters to a hand's future: the probability
of any particular sequence of draws from a shoe depends only on the multiset drawn.

Two precomputed structures make the kernels fast:

* the player's compositions: every multiset with a hard total of at most 21, ordered by hard
  total so that a composition's children (one more card) always come later;
* per dealer up card, a trie of the dealer's drawing multisets in sorted order, depth first.
  Each terminal node (a multiset on which the dealer stops) carries its final total and the
  number of orders in which the dealer can draw it without stopping early. The probability of
  drawing one such order from a shoe with counts ``c`` (``n`` cards) is
  ``prod_v c_v (c_v - 1) ... / (n (n - 1) ...)``: one multiplication per trie node, and a
  node the shoe cannot supply skips its whole subtree.

The dealer's outcomes are computed for many shoes at once (:func:`dealer_batch`). The whole
analysis of one up card runs in one kernel (:mod:`._ca_play`), the splits in :mod:`._ca_splits`.
"""

from __future__ import annotations

from functools import cache, lru_cache

import numpy as np
from numba import njit

ACE = 0
TEN = 9
#: Dealer outcome slots: final 17, 18, 19, 20, 21, blackjack, bust.
D17, D21, DBJ, DBUST = 0, 4, 5, 6
NOUT = 7

# Actions in kernels.
STAND, HIT, DOUBLE, SPLIT, SURRENDER = 0, 1, 2, 3, 4

# Dealer-blackjack accounting modes.
#: Peek, or no peek with original bets only: values are E[result * 1{no dealer BJ}]; the
#: dealer's blackjack costs exactly the original bet whatever the player did, added at the root.
MODE_EXCLUDE_BJ = 0
#: No peek, every bet lost: the dealer's blackjack is an ordinary losing outcome of each hand.
MODE_ALL_BETS = 1
#: No peek, original bets only, a busted split hand lost on its own (``obo_split_bust="lost"``):
#: as MODE_EXCLUDE_BJ, except that a bust is lost whatever the hole card (its bet was collected
#: before the blackjack showed). An unsplit hand's bust is the one bet the blackjack would have
#: taken anyway, so there only the doubled part of a bust is added; after a split each hand's
#: bust counts in full and the caller adds back P(every hand bust and a dealer blackjack).
MODE_OBO_LOST = 2

#: Chart codes in kernels (odds.CODES names them): hit, stand, double else hit, double else
#: stand, surrender else hit, surrender else stand, split, surrender else split.
C_H, C_S, C_D, C_DS, C_RH, C_RS, C_P, C_RP = range(8)
#: Surrender in kernels: none, late, early.
SUR_NONE, SUR_LATE, SUR_EARLY = 0, 1, 2
#: double_on in kernels: any two cards, 9-11, 10-11.
DBL_ANY, DBL_9_11, DBL_10_11 = 0, 1, 2


def best_total(hard: int, aces: int) -> tuple[int, bool]:
    if aces and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


# -- player compositions --------------------------------------------------------------------

class Compositions:
    """Every player composition with hard total <= 21, children after parents."""

    def __init__(self) -> None:
        found: list[tuple[int, ...]] = []

        def rec(start: int, counts: list[int], hard: int) -> None:
            if hard > 0:
                found.append(tuple(counts))
            for v in range(start, 10):
                if hard + v + 1 <= 21:
                    counts[v] += 1
                    rec(v, counts, hard + v + 1)
                    counts[v] -= 1

        rec(0, [0] * 10, 0)
        found.sort(key=lambda c: (sum((i + 1) * n for i, n in enumerate(c)), sum(c), c))
        self.keys = found
        self.index = {c: i for i, c in enumerate(found)}
        n = len(found)
        self.counts = np.array(found, dtype=np.int64)
        self.hard = self.counts @ np.arange(1, 11, dtype=np.int64)
        self.ncards = self.counts.sum(axis=1)
        self.total = np.where((self.counts[:, ACE] > 0) & (self.hard + 10 <= 21), self.hard + 10, self.hard)
        self.soft = self.total != self.hard
        self.child = np.full((n, 10), -1, dtype=np.int64)
        for i, c in enumerate(found):
            for v in range(10):
                d = list(c)
                d[v] += 1
                j = self.index.get(tuple(d))
                if j is not None:
                    self.child[i, v] = j
        #: The composition of each two-card hand {a, b}, a <= b.
        self.pair_index = np.full((10, 10), -1, dtype=np.int64)
        for a in range(10):
            for b in range(a, 10):
                self.pair_index[a, b] = self.pair_index[b, a] = self.of((a, b))

    def of(self, values: list[int] | tuple[int, ...]) -> int:
        c = [0] * 10
        for v in values:
            c[v] += 1
        return self.index[tuple(c)]


@lru_cache(maxsize=1)
def compositions() -> Compositions:
    return Compositions()


# -- dealer tries ---------------------------------------------------------------------------

@njit(cache=True)
def _dealer_state(up, counts, h17):
    """-1 if the dealer draws again, else the outcome slot (``counts``: the cards after the up card)."""
    hard = up + 1
    n = 1
    for v in range(10):
        hard += (v + 1) * counts[v]
        n += counts[v]
    aces = counts[ACE] + (1 if up == ACE else 0)
    if hard > 21:
        return DBUST
    total = hard + 10 if aces > 0 and hard + 10 <= 21 else hard
    if total == 21 and n == 2:
        return DBJ
    if total < 17 or (total == 17 and total != hard and h17):
        return -1
    return total - 17


@njit(cache=True)
def _orders_hitting(counts, up, h17, radix, memo):
    """Orders of ``counts`` in which the dealer never stops (every prefix, and the whole, hits).

    Only a hand of hard total 16 or less hits, so each value's count is below its ``radix``
    in any hand worth remembering: ``memo`` (one more than the answer, 0 unknown) is indexed
    by the counts in that mixed radix."""
    key = 0
    for v in range(10):
        if counts[v] >= radix[v]:
            return 0  # more than a hitting hand holds
        key = key * radix[v] + counts[v]
    if memo[key] > 0:
        return memo[key] - 1
    m = 0
    for v in range(10):
        m += counts[v]
    total = 0
    if m == 0:
        total = 1
    elif _dealer_state(up, counts, h17) == -1:
        for v in range(10):
            if counts[v] > 0:
                counts[v] -= 1
                total += _orders_hitting(counts, up, h17, radix, memo)
                counts[v] += 1
    memo[key] = total + 1
    return total


@njit(cache=True)
def _build_trie(up, h17):
    """The sorted-order trie of the dealer's terminal multisets, depth first (see the module)."""
    radix = np.empty(10, np.int64)
    size = 1
    for v in range(10):
        radix[v] = (16 - (up + 1)) // (v + 1) + 1
        size *= radix[v]
    memo = np.zeros(size, np.int64)  # zeroed lazily by the system: only the pages used are touched
    cap = 8192
    parent = np.empty(cap, np.int64)
    value = np.empty(cap, np.int64)
    mult = np.empty(cap, np.int64)
    depth = np.empty(cap, np.int64)
    outcome = np.empty(cap, np.int64)
    orders = np.empty(cap, np.float64)
    skip = np.empty(cap, np.int64)
    parent[0], value[0], mult[0], depth[0], outcome[0], orders[0] = -1, 0, 0, -1, -1, 0.0
    counts = np.zeros(10, np.int64)
    # An explicit depth-first walk: node i extends its parent by value[i]; each node keeps the
    # next value to try for a child. A node stays only if it or a descendant is terminal.
    stack_node = np.empty(32, np.int64)
    stack_next = np.empty(32, np.int64)
    stack_keep = np.zeros(32, np.bool_)
    n = 1
    top = 0
    stack_node[0], stack_next[0], stack_keep[0] = 0, 0, False
    while top >= 0:
        node = stack_node[top]
        v = stack_next[top]
        if v < 10:
            stack_next[top] = v + 1
            counts[v] += 1
            hard = up + 1
            for w in range(10):
                hard += (w + 1) * counts[w]
            if hard > 26:  # beyond any terminal (a hitting 16 and a ten): nothing below either
                counts[v] -= 1
                stack_next[top] = 10
                continue
            # Terminal: the dealer stops here, and some order of it keeps drawing until the end.
            state = _dealer_state(up, counts, h17)
            n_orders = 0
            if state != -1:
                for w in range(10):
                    if counts[w] > 0:
                        counts[w] -= 1
                        n_orders += _orders_hitting(counts, up, h17, radix, memo)
                        counts[w] += 1
            if n == cap:
                cap *= 2
                parent = np.concatenate((parent, np.empty(cap - n, np.int64)))
                value = np.concatenate((value, np.empty(cap - n, np.int64)))
                mult = np.concatenate((mult, np.empty(cap - n, np.int64)))
                depth = np.concatenate((depth, np.empty(cap - n, np.int64)))
                outcome = np.concatenate((outcome, np.empty(cap - n, np.int64)))
                orders = np.concatenate((orders, np.empty(cap - n, np.float64)))
                skip = np.concatenate((skip, np.empty(cap - n, np.int64)))
            i = n
            n += 1
            parent[i] = node
            value[i] = v
            mult[i] = counts[v] - 1
            depth[i] = depth[node] + 1
            outcome[i] = state if n_orders > 0 else -1
            orders[i] = float(n_orders)
            top += 1
            stack_node[top], stack_next[top], stack_keep[top] = i, v, n_orders > 0
        else:
            # Leaving ``node``: drop it (it was the last one added, its subtree empty) unless it
            # or something below it is terminal.
            keep = stack_keep[top]
            top -= 1
            if node != 0:
                counts[value[node]] -= 1
                if keep:
                    stack_keep[top] = True
                    skip[node] = n
                else:
                    n = node
    skip[0] = n
    return (parent[:n].copy(), value[:n].copy(), mult[:n].copy(), depth[:n].copy(), outcome[:n].copy(),
            orders[:n].copy(), skip[:n].copy())


@cache
def dealer_trie(up: int, h17: bool) -> tuple[np.ndarray, ...]:
    """(parent, value, multiplicity before, depth before, outcome, orders, end of subtree) per
    trie node, depth first: a node's subtree is the nodes from it up to its end."""
    return tuple(_build_trie(up, h17))


# -- kernels --------------------------------------------------------------------------------

@njit(cache=True, nogil=True)
def dealer_probs(rem, parent, value, mult, depth, outcome, orders, skip, prod, out):
    """Dealer outcome probabilities (7 slots) drawing from counts ``rem``."""
    n = 0
    for v in range(10):
        n += rem[v]
    for k in range(NOUT):
        out[k] = 0.0
    inv = np.empty(32)
    for d in range(32):
        inv[d] = 1.0 / (n - d) if n - d > 0 else 0.0
    prod[0] = 1.0
    i = 1
    end = parent.shape[0]
    while i < end:
        c = rem[value[i]] - mult[i]
        if c <= 0:  # the shoe cannot supply this node: nor anything below it
            i = skip[i]
            continue
        p = prod[parent[i]] * c * inv[depth[i]]
        prod[i] = p
        o = outcome[i]
        if o >= 0:
            out[o] += orders[i] * p
        i += 1


@njit(cache=True, nogil=True)
def p_dealer_bj(rem, up):
    """Probability that the hole card makes a dealer blackjack, drawing from ``rem``."""
    n = 0
    for v in range(10):
        n += rem[v]
    if up == ACE:
        return rem[TEN] / n
    if up == TEN:
        return rem[ACE] / n
    return 0.0


@njit(cache=True, nogil=True)
def stand_value(dp, total, mode):
    """(E[result], E[result^2]) of standing on ``total`` given dealer outcome weights dp."""
    v = dp[DBUST]
    m2 = dp[DBUST]
    for k in range(5):
        d = 17 + k
        if total > d:
            v += dp[k]
            m2 += dp[k]
        elif total < d:
            v -= dp[k]
            m2 += dp[k]
    if mode == MODE_ALL_BETS:
        v -= dp[DBJ]
        m2 += dp[DBJ]
    return v, m2


@njit(cache=True, nogil=True)
def bust_weight(rem, up, mode):
    """Weight of a bust (its value is minus this): P(no dealer BJ) when BJ is excluded; 1 when
    a bust is lost whatever the hole card (every bet lost; a split hand under MODE_OBO_LOST)."""
    if mode != MODE_EXCLUDE_BJ:
        return 1.0
    return 1.0 - p_dealer_bj(rem, up)


#: Rows of shoe compositions the batch kernel takes at once (the lanes of its vector loops).
LANES = 128


@njit(cache=True, nogil=True)
def dealer_batch(rems, count, parent, value, mult, depth, outcome, orders, skip, out):
    """Dealer outcome probabilities drawing from each of ``count`` shoes at once: shoe ``k`` is
    column ``k`` of ``rems`` (10 rows, card counts as floats, none below zero) and its outcomes
    go to column ``k`` of ``out`` (7 rows).

    The same walk of the trie as :func:`dealer_probs`, with the shoes side by side in the
    innermost loop, so that each node is one vector operation over many shoes. Depth first, the
    parent of a node at level ``d + 1`` is the last node seen at level ``d``: one row of
    products per level. A subtree none of the shoes can supply is skipped. Each shoe's figures
    are those of :func:`dealer_probs` to the last bit (the same products in the same order).
    """
    prod = np.empty((34, LANES))
    inv = np.empty((33, LANES))
    acc = np.empty((NOUT, LANES))
    end = parent.shape[0]
    for s in range(0, count, LANES):
        lanes = min(LANES, count - s)
        for k in range(lanes):
            n = 0.0
            for v in range(10):
                n += rems[v, s + k]
            for d in range(33):
                inv[d, k] = 1.0 / (n - d) if n - d > 0 else 0.0
            prod[0, k] = 1.0
        acc[:, :] = 0.0
        i = 1
        while i < end:
            v = value[i]
            m = mult[i]
            d = depth[i]
            row = rems[v, s:s + lanes]
            up_ = prod[d]
            here = prod[d + 1]
            w = inv[d]
            alive = 0
            for k in range(lanes):
                c = row[k] - m
                x = up_[k] * (c if c > 0.0 else 0.0) * w[k]
                here[k] = x
                alive += x > 0.0
            if alive == 0:  # none of these shoes can supply this node, nor anything below it
                i = skip[i]
                continue
            o = outcome[i]
            if o >= 0:
                weight = orders[i]
                a = acc[o]
                for k in range(lanes):
                    a[k] += weight * here[k]
            i += 1
        for o in range(NOUT):
            for k in range(lanes):
                out[o, s + k] = acc[o, k]


@njit(cache=True, nogil=True)
def _remaining(base, comp_counts, i, rem):
    """``rem`` = ``base`` less composition ``i``; its card count, or -1 if ``base`` lacks a card."""
    n = 0
    ok = True
    for v in range(10):
        rem[v] = base[v] - comp_counts[i, v]
        if rem[v] < 0:
            ok = False
        n += max(0, rem[v])
    return n if ok else -1


