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

The whole analysis of one up card runs in one kernel (:func:`analyze_upcard`): the dealer's
outcomes for every player composition are computed once and shared by the optimal play, the
chart's play and every split pass.
"""

from __future__ import annotations

from functools import cache, lru_cache

import numpy as np
from numba import njit, types
from numba.typed import Dict

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
def _code(counts):
    """A multiset as one integer: five bits a value (no value is drawn 32 times)."""
    k = 0
    for v in range(10):
        k = k * 32 + counts[v]
    return k


@njit(cache=True)
def _orders_hitting(counts, up, h17, memo):
    """Orders of ``counts`` in which the dealer never stops (every prefix, and the whole, hits)."""
    key = _code(counts)
    if key in memo:
        return memo[key]
    m = 0
    for v in range(10):
        m += counts[v]
    if m == 0:
        memo[key] = 1
        return 1
    if _dealer_state(up, counts, h17) != -1:
        memo[key] = 0
        return 0
    total = 0
    for v in range(10):
        if counts[v] > 0:
            counts[v] -= 1
            total += _orders_hitting(counts, up, h17, memo)
            counts[v] += 1
    memo[key] = total
    return total


@njit(cache=True)
def _build_trie(up, h17):
    """The sorted-order trie of the dealer's terminal multisets, depth first (see the module)."""
    memo = Dict.empty(key_type=types.int64, value_type=types.int64)
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
                        n_orders += _orders_hitting(counts, up, h17, memo)
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
def _dealer_table(base, comp_counts, comp_ncards, trie_args, dp, valid):
    """Dealer outcomes against every composition of two or more cards the shoe can hold
    (``dp``: 7 rows, a column per composition)."""
    parent, value, mult, depth, outcome, orders, skip = trie_args
    ncomp = comp_counts.shape[0]
    rems = np.empty((10, ncomp))
    where = np.empty(ncomp, dtype=np.int64)
    count = 0
    for i in range(ncomp):
        ok = comp_ncards[i] >= 2
        for v in range(10):
            if base[v] < comp_counts[i, v]:
                ok = False
        valid[i] = ok
        if ok:
            for v in range(10):
                rems[v, count] = base[v] - comp_counts[i, v]
            where[count] = i
            count += 1
    out = np.empty((NOUT, count))
    dealer_batch(rems, count, parent, value, mult, depth, outcome, orders, skip, out)
    dp[:, :] = 0.0
    for k in range(count):
        for o in range(NOUT):
            dp[o, where[k]] = out[o, k]


@njit(cache=True, nogil=True)
def _stand_pass(comp_total, valid, dp, mode, stand_v, stand_m2):
    for i in range(comp_total.shape[0]):
        if valid[i]:
            stand_v[i], stand_m2[i] = stand_value(dp[:, i], comp_total[i], mode)
        else:
            stand_v[i] = 0.0
            stand_m2[i] = 0.0


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


@njit(cache=True, nogil=True)
def main_pass(base, up, mode, comp_counts, comp_ncards, child, valid, stand_v, stand_m2,
              given_policy, policy_hit, hit_v, hit_m2, dbl_v, dbl_m2, cont_v, cont_m2, cont_hit):
    """Values of every composition of two or more cards against up card ``up``, given the
    stand values (:func:`_stand_pass`).

    ``base`` is the shoe without the up card. ``cont_*`` is the value of playing on with hit
    or stand only (after a hit): the better of the two, or the one ``policy_hit`` names when
    ``given_policy`` (the total-dependent chart).
    """
    ncomp = comp_counts.shape[0]
    rem = np.zeros(10, dtype=np.int64)
    crem = np.zeros(10, dtype=np.int64)
    for i in range(ncomp - 1, -1, -1):
        if comp_ncards[i] < 2:
            continue
        if not valid[i]:
            hit_v[i] = 0.0
            hit_m2[i] = 0.0
            dbl_v[i] = 0.0
            dbl_m2[i] = 0.0
            cont_v[i] = 0.0
            cont_m2[i] = 0.0
            cont_hit[i] = False
            continue
        n = _remaining(base, comp_counts, i, rem)
        sv = stand_v[i]
        hv = 0.0
        hm = 0.0
        dv = 0.0
        dm = 0.0
        for v in range(10):
            if rem[v] <= 0:
                continue
            p = rem[v] / n
            j = child[i, v]
            if j < 0:
                for w in range(10):
                    crem[w] = rem[w]
                crem[v] -= 1
                if mode == MODE_OBO_LOST:
                    # Unsplit: a hit's bust costs the one bet a blackjack takes anyway (added
                    # at the root); a doubled bust loses the double too, blackjack or not.
                    bw = 1.0 - p_dealer_bj(crem, up)
                    hv -= p * bw
                    hm += p * bw
                    dv -= p * (1.0 + bw)
                    dm += p * (3.0 + bw)
                else:
                    bw = bust_weight(crem, up, mode)
                    hv -= p * bw
                    hm += p * bw
                    dv -= 2.0 * p * bw
                    dm += 4.0 * p * bw
            else:
                hv += p * cont_v[j]
                hm += p * cont_m2[j]
                dv += 2.0 * p * stand_v[j]
                dm += 4.0 * p * stand_m2[j]
        hit_v[i] = hv
        hit_m2[i] = hm
        dbl_v[i] = dv
        dbl_m2[i] = dm
        if given_policy:
            h = policy_hit[i]
        else:
            h = hv > sv
        cont_hit[i] = h
        if h:
            cont_v[i] = hv
            cont_m2[i] = hm
        else:
            cont_v[i] = sv
            cont_m2[i] = stand_m2[i]


# -- splits ---------------------------------------------------------------------------------

@njit(cache=True, nogil=True)
def split_reach(pair, comp_counts, comp_ncards, child, act2, cont_hit, stop_after_one, reach, need_stand):
    """Which compositions a hand split from ``pair`` reaches under the policy (``act2[c]``,
    STAND, HIT or DOUBLE, for a two-card split hand; ``cont_hit`` after that;
    ``stop_after_one``: split aces take one card), and on which it stands. Returns the
    one-card composition the hands start from. The same whatever the number of hands."""
    ncomp = comp_counts.shape[0]
    reach[:] = False
    need_stand[:] = False
    start = -1
    for i in range(ncomp):
        if comp_ncards[i] == 1 and comp_counts[i, pair] == 1:
            start = i
    for v in range(10):
        j = child[start, v]
        if j >= 0:
            reach[j] = True
    # Forward: children come after parents.
    for i in range(ncomp):
        if not reach[i]:
            continue
        if comp_ncards[i] == 2:
            a = act2[i]
            if stop_after_one or a == STAND:
                need_stand[i] = True
            elif a == DOUBLE:
                for v in range(10):
                    j = child[i, v]
                    if j >= 0:
                        need_stand[j] = True
            else:
                for v in range(10):
                    j = child[i, v]
                    if j >= 0:
                        reach[j] = True
        else:
            if cont_hit[i]:
                for v in range(10):
                    j = child[i, v]
                    if j >= 0:
                        reach[j] = True
            else:
                need_stand[i] = True
    return start


@njit(cache=True, nogil=True)
def _from_main(i, pair, h, child, valid):
    """The composition of the main table whose shoe is the split hand ``i``'s with ``h`` hands
    (``i`` and the other hands' pair cards), or -1."""
    j = i
    for _ in range(h - 1):
        if j >= 0:
            j = child[j, pair]
    return j if j >= 0 and valid[j] else -1


@njit(cache=True, nogil=True)
def split_dealer_batch(base, pairs, max_hands, starts, needs, comp_counts, child, valid, trie_args,
                       index, start_index, table):
    """Dealer outcomes for every split hand the passes will stand on: per pair in ``pairs``
    (``max_hands``, its ``starts`` and ``needs`` from :func:`split_reach`) and number of hands,
    those the main table does not hold and ``index`` (pair, hands - 2, composition; -1 when
    not yet computed) does not point to yet, and the start's (``start_index``). Computed in one
    :func:`dealer_batch` and appended to ``table`` (7 rows); returns the grown table."""
    parent, value, mult, depth, outcome, orders, skip = trie_args
    ncomp = comp_counts.shape[0]
    have = table.shape[1]
    count = 0
    for t in range(pairs.shape[0]):
        pair = pairs[t]
        for h in range(2, max_hands[t] + 1):
            if base[pair] - 2 < h - 2:
                continue
            if start_index[pair, h - 2] < 0:
                count += 1
            for i in range(ncomp):
                if needs[t, i] and index[pair, h - 2, i] < 0 and _from_main(i, pair, h, child, valid) < 0:
                    count += 1
    if count == 0:
        return table
    rems = np.empty((10, count))
    k = 0
    for t in range(pairs.shape[0]):
        pair = pairs[t]
        for h in range(2, max_hands[t] + 1):
            if base[pair] - 2 < h - 2:
                continue
            if start_index[pair, h - 2] < 0:
                for v in range(10):
                    rems[v, k] = base[v] - (h if v == pair else 0)
                start_index[pair, h - 2] = have + k
                k += 1
            for i in range(ncomp):
                if not needs[t, i] or index[pair, h - 2, i] >= 0 or _from_main(i, pair, h, child, valid) >= 0:
                    continue
                ok = True
                for v in range(10):
                    r = base[v] - (h - 1 if v == pair else 0) - comp_counts[i, v]
                    if r < 0:
                        ok = False
                    rems[v, k] = r
                if not ok:  # the shoe cannot hold this hand with these many pair cards out
                    count -= 1
                    continue
                index[pair, h - 2, i] = have + k
                k += 1
    out = np.empty((NOUT, have + count))
    out[:, :have] = table
    dealer_batch(rems, count, parent, value, mult, depth, outcome, orders, skip, out[:, have:])
    return out


@njit(cache=True, nogil=True)
def split_hand_pass(base, up, mode, pair, h, start, reach, need_stand, comp_counts, comp_total, comp_ncards,
                    child, valid, dp, index, table, q, act2, cont_hit, stop_after_one, bufs,
                    out_v, out_m2, out_vec, out_bj):
    """Value of each two-card split hand {pair, X} played from ``base``.

    ``base`` is the shoe without the up card and without the *other* ``h - 1`` hands' pair
    cards; ``reach``, ``need_stand`` and ``start`` from :func:`split_reach`; the dealer's
    outcomes from the main table ``dp`` or, where it has none, ``table`` at ``index`` (the
    hands' own: :func:`split_dealer_batch`), and ``q`` for the start's shoe. Writes, per
    second card X, the hand's value ``out_v[X]``, its second moment and its value split by
    the dealer's outcome ``out_vec[X, k]`` (for the covariance of split hands) and
    ``out_bj[X]``, the probability that the hand busts and the dealer has blackjack (for
    MODE_OBO_LOST's every-hand-bust term). Only compositions the policy reaches are evaluated.
    """
    ncomp = comp_counts.shape[0]
    sv, sm, vv, vm, vbj, svec, vvec = bufs
    rem = np.zeros(10, dtype=np.int64)
    crem = np.zeros(10, dtype=np.int64)
    qq = np.zeros(NOUT)
    for k in range(NOUT):
        qq[k] = q[k]
    # The dealer distribution of the split base spreads a bust over the dealer's outcomes.
    if mode != MODE_ALL_BETS:
        qq[DBJ] = 0.0
    for i in range(ncomp - 1, -1, -1):
        if not (reach[i] or need_stand[i]):
            continue
        n = _remaining(base, comp_counts, i, rem)
        if n < 0:
            continue
        sv[i] = 0.0
        sm[i] = 0.0
        vbj[i] = 0.0
        svec[i, :] = 0.0
        vvec[i, :] = 0.0
        if need_stand[i]:
            j = _from_main(i, pair, h, child, valid)
            dpi = dp[:, j] if j >= 0 else table[:, index[i]]
            s, m = stand_value(dpi, comp_total[i], mode)
            sv[i] = s
            sm[i] = m
            t = comp_total[i]
            for k in range(5):
                d = 17 + k
                if t > d:
                    svec[i, k] = dpi[k]
                elif t < d:
                    svec[i, k] = -dpi[k]
            svec[i, DBUST] = dpi[DBUST]
            if mode == MODE_ALL_BETS:
                svec[i, DBJ] = -dpi[DBJ]
        if not reach[i]:
            continue
        two = comp_ncards[i] == 2
        if (two and (stop_after_one or act2[i] == STAND)) or ((not two) and not cont_hit[i]):
            vv[i] = sv[i]
            vm[i] = sm[i]
            for k in range(NOUT):
                vvec[i, k] = svec[i, k]
            continue
        dbl = two and act2[i] == DOUBLE
        mul = 2.0 if dbl else 1.0
        a = 0.0
        b = 0.0
        c = 0.0
        for v in range(10):
            if rem[v] <= 0:
                continue
            p = rem[v] / n
            j = child[i, v]
            if j < 0:
                for w in range(10):
                    crem[w] = rem[w]
                crem[v] -= 1
                bw = bust_weight(crem, up, mode)
                a -= mul * p * bw
                b += mul * mul * p * bw
                c += p * p_dealer_bj(crem, up)
                for k in range(NOUT):
                    vvec[i, k] -= mul * p * qq[k]
            elif dbl:
                a += 2.0 * p * sv[j]
                b += 4.0 * p * sm[j]
                for k in range(NOUT):
                    vvec[i, k] += 2.0 * p * svec[j, k]
            else:
                a += p * vv[j]
                b += p * vm[j]
                c += p * vbj[j]
                for k in range(NOUT):
                    vvec[i, k] += p * vvec[j, k]
        vv[i] = a
        vm[i] = b
        vbj[i] = c
    for v in range(10):
        j = child[start, v]
        if j >= 0:
            out_v[v] = vv[j]
            out_m2[v] = vm[j]
            out_bj[v] = vbj[j]
            for k in range(NOUT):
                out_vec[v, k] = vvec[j, k]
    for k in range(NOUT):
        out_vec[10, k] = qq[k]


# -- exact resplits (validation of the pair-card-removal approximation) ------------------------

@njit(cache=True, nogil=True)
def _ff_ratio(a, b, k):
    """(a)_k / (b)_k: probability that k more cards drawn from b are all among a."""
    r = 1.0
    for i in range(k):
        if a - i <= 0:
            return 0.0
        r *= (a - i) / (b - i)
    return r


@njit(cache=True, nogil=True)
def dealer_probs_weighted(rem, pair, kmax, parent, value, mult, depth, outcome, orders, skip, prod,
                          cnt, out):
    """Dealer outcome weights times P(k more cards are all non-pair), for k = 0..kmax."""
    n = 0
    for v in range(10):
        n += rem[v]
    non_pair = n - rem[pair]
    for k in range(kmax + 1):
        for o in range(NOUT):
            out[k, o] = 0.0
    prod[0] = 1.0
    cnt[0] = 0
    i = 1
    end = parent.shape[0]
    while i < end:
        c = rem[value[i]] - mult[i]
        if c <= 0:
            i = skip[i]
            continue
        cnt[i] = cnt[parent[i]] + (1 if value[i] == pair else 0)
        p = prod[parent[i]] * c / (n - depth[i])
        prod[i] = p
        o = outcome[i]
        if o >= 0:
            d = depth[i] + 1
            for k in range(kmax + 1):
                w = _ff_ratio(non_pair - (d - cnt[i]), n - d, k)
                out[k, o] += orders[i] * p * w
        i += 1


@njit(cache=True, nogil=True)
def bust_weight_k(rem, up, mode, pair, k):
    """E[1{no dealer BJ, if excluded} * 1{k more cards non-pair}] after a bust, from ``rem``."""
    n = 0
    for v in range(10):
        n += rem[v]
    non_pair = n - rem[pair]
    if mode != MODE_EXCLUDE_BJ or (up != ACE and up != TEN):
        return _ff_ratio(non_pair, n, k)
    b = TEN if up == ACE else ACE
    hole_pair = rem[pair] if pair != b else 0
    hole_other = non_pair - (rem[b] if b != pair else 0)
    return (hole_pair * _ff_ratio(non_pair, n - 1, k)
            + hole_other * _ff_ratio(non_pair - 1, n - 1, k)) / n


@njit(cache=True, nogil=True)
def split_hand_pass_exact(base, up, mode, pair, kmax, comp_counts, comp_total, comp_ncards,
                          child, parent, value, mult, depth, outcome, orders, skip,
                          act2, cont_hit, stop_after_one, out_num):
    """``out_num[X, k]`` = E[value of the split hand {pair, X} * 1{k more cards non-pair}]:
    the exact value of a split hand given that k other hands took non-pair second cards."""
    ncomp = comp_counts.shape[0]
    K = kmax + 1
    reach = np.zeros(ncomp, dtype=np.bool_)
    need_stand = np.zeros(ncomp, dtype=np.bool_)
    start = -1
    for i in range(ncomp):
        if comp_ncards[i] == 1 and comp_counts[i, pair] == 1:
            start = i
    for v in range(10):
        j = child[start, v]
        if j >= 0:
            reach[j] = True
    for i in range(ncomp):
        if not reach[i]:
            continue
        if comp_ncards[i] == 2:
            a = act2[i]
            if stop_after_one or a == STAND:
                need_stand[i] = True
            elif a == DOUBLE:
                for v in range(10):
                    j = child[i, v]
                    if j >= 0:
                        need_stand[j] = True
            else:
                for v in range(10):
                    j = child[i, v]
                    if j >= 0:
                        reach[j] = True
        else:
            if cont_hit[i]:
                for v in range(10):
                    j = child[i, v]
                    if j >= 0:
                        reach[j] = True
            else:
                need_stand[i] = True
    sv = np.zeros((ncomp, K), dtype=np.float64)
    vv = np.zeros((ncomp, K), dtype=np.float64)
    rem = np.zeros(10, dtype=np.int64)
    crem = np.zeros(10, dtype=np.int64)
    prod = np.zeros(parent.shape[0], dtype=np.float64)
    cnt = np.zeros(parent.shape[0], dtype=np.int64)
    dpk = np.zeros((K, NOUT), dtype=np.float64)
    for i in range(ncomp - 1, -1, -1):
        if not (reach[i] or need_stand[i]):
            continue
        n = _remaining(base, comp_counts, i, rem)
        if n < 0:
            continue
        if need_stand[i]:
            dealer_probs_weighted(rem, pair, kmax, parent, value, mult, depth, outcome, orders, skip,
                                  prod, cnt, dpk)
            for k in range(K):
                s, _m = stand_value(dpk[k], comp_total[i], mode)
                sv[i, k] = s
        if not reach[i]:
            continue
        two = comp_ncards[i] == 2
        if (two and (stop_after_one or act2[i] == STAND)) or ((not two) and not cont_hit[i]):
            for k in range(K):
                vv[i, k] = sv[i, k]
            continue
        dbl = two and act2[i] == DOUBLE
        mul = 2.0 if dbl else 1.0
        for v in range(10):
            if rem[v] <= 0:
                continue
            p = rem[v] / n
            j = child[i, v]
            if j < 0:
                for w in range(10):
                    crem[w] = rem[w]
                crem[v] -= 1
                for k in range(K):
                    vv[i, k] -= mul * p * bust_weight_k(crem, up, mode, pair, k)
            elif dbl:
                for k in range(K):
                    vv[i, k] += 2.0 * p * sv[j, k]
            else:
                for k in range(K):
                    vv[i, k] += p * vv[j, k]
    for v in range(10):
        j = child[start, v]
        if j >= 0:
            for k in range(K):
                out_num[v, k] = vv[j, k]


# -- one up card, whole ---------------------------------------------------------------------

@njit(cache=True, nogil=True)
def _may_double(double_on, total, soft):
    """``double_on`` looks at the best total of the two-card hand."""
    if double_on == DBL_ANY:
        return True
    lo = 9 if double_on == DBL_9_11 else 10
    return lo <= total <= 11 and not soft


@njit(cache=True, nogil=True)
def _nanargmax(x):
    """The first index of the largest value that is not NaN (numpy's ``nanargmax``)."""
    k = -1
    for i in range(x.shape[0]):
        if not np.isnan(x[i]) and (k < 0 or x[i] > x[k]):
            k = i
    return k


@njit(cache=True, nogil=True)
def _split_value(base, up, mode, pair, max_h, one_card, exact, comp_counts, comp_total, comp_ncards, child,
                 valid, dp, index, start_index, table, start, reach, need_stand, trie_args, act2, cont_hit, bufs):
    """(E[sum of split hands' results], E[(sum)^2]) for splitting ``pair`` against ``up``.

    ``base`` is the shoe without the up card (the pair cards are still in it: each pass
    removes the hands' own cards). Exact for two hands; with resplits each hand's value
    removes the pair cards of all hands but not their other cards (docs/maths.md, "Splits"),
    unless ``exact``: then each hand's value is conditioned on the other hands' second cards
    being non-pair cards, which is exact (the variance keeps the approximation). The split
    hands' dealer outcomes are in ``dp``, or ``table`` at ``index`` (:func:`split_dealer_batch`).
    """
    lost = mode == MODE_OBO_LOST
    c0 = base[pair] - 2
    n0 = 0
    for v in range(10):
        n0 += base[v]
    n0 -= 2
    clipped = np.zeros(10, dtype=np.int64)
    pbj_root = 0.0
    if lost:
        for v in range(10):
            clipped[v] = max(0, base[v] - (2 if v == pair else 0))
        pbj_root = p_dealer_bj(clipped, up)
    H = max_h + 1
    w_any = np.zeros(H)
    m_any = np.zeros(H)
    w_np = np.zeros(H)
    m_np = np.zeros(H)
    b_any = np.zeros(H)
    b_np = np.zeros(H)
    c_nn = np.zeros(H)
    c_na = np.zeros(H)
    c_aa = np.zeros(H)
    out_v = np.zeros(10)
    out_m2 = np.zeros(10)
    out_vec = np.zeros((11, NOUT))
    out_bj = np.zeros(10)
    b = np.zeros(10, dtype=np.int64)
    p = np.zeros(10)
    p_np = np.zeros(10)
    for h in range(2, max_h + 1):
        if c0 < h - 2:  # not enough pair cards for h hands: no deal reaches it
            continue
        for v in range(10):
            b[v] = base[v] - (h - 1 if v == pair else 0)
        out_v[:] = 0.0
        out_m2[:] = 0.0
        out_vec[:, :] = 0.0
        out_bj[:] = 0.0
        split_hand_pass(b, up, mode, pair, h, start, reach, need_stand, comp_counts, comp_total, comp_ncards,
                        child, valid, dp, index[h - 2], table, table[:, start_index[h - 2]], act2, cont_hit,
                        one_card, bufs, out_v, out_m2, out_vec, out_bj)
        tot = 0
        for v in range(10):
            clipped[v] = max(0, b[v] - (1 if v == pair else 0))
            tot += clipped[v]
        s = 0.0
        for v in range(10):
            p[v] = clipped[v] / max(1, tot)
            p_np[v] = 0.0 if v == pair else p[v]
            s += p_np[v]
        if s > 0:
            for v in range(10):
                p_np[v] = p_np[v] / s
        wa = ma = wn = mn = ba = bn = 0.0
        for v in range(10):
            wa += p[v] * out_v[v]
            ma += p[v] * out_m2[v]
            wn += p_np[v] * out_v[v]
            mn += p_np[v] * out_m2[v]
            ba += p[v] * out_bj[v]
            bn += p_np[v] * out_bj[v]
        w_any[h], m_any[h], w_np[h], m_np[h] = wa, ma, wn, mn
        # P(this hand busts | dealer blackjack), for a hand of any second card / a non-pair one.
        pbj_h = p_dealer_bj(clipped, up)
        if pbj_h > 0:
            b_any[h], b_np[h] = ba / pbj_h, bn / pbj_h
        # The covariance terms of two hands, each split by the dealer's outcome.
        nn = na = aa = 0.0
        for k in range(NOUT):
            va = 0.0
            vn = 0.0
            for v in range(10):
                va += p[v] * out_vec[v, k]
                vn += p_np[v] * out_vec[v, k]
            q = out_vec[10, k]
            sq = q if q > 0 else 1.0
            nn += vn * vn / sq
            na += vn * va / sq
            aa += va * va / sq
        c_nn[h], c_na[h], c_aa[h] = nn, na, aa

    use_exact = exact and max_h > 2
    kmax = max_h - 1
    ex_np = np.zeros((H, kmax + 1))
    ex_any = np.zeros((H, kmax + 1))
    if use_exact:
        parent, value, mult, depth, outcome, orders, skip = trie_args
        num = np.zeros((10, kmax + 1))
        rem = np.zeros(10, dtype=np.int64)
        for h in range(2, max_h + 1):
            for v in range(10):
                b[v] = base[v] - (h - 1 if v == pair else 0)
            num[:, :] = 0.0
            split_hand_pass_exact(b, up, mode, pair, kmax, comp_counts, comp_total, comp_ncards, child,
                                  parent, value, mult, depth, outcome, orders, skip, act2, cont_hit, one_card, num)
            n_h = 0
            for v in range(10):
                rem[v] = b[v] - (1 if v == pair else 0)
                n_h += rem[v]
            non_pair = n_h - rem[pair]
            for k in range(kmax + 1):
                wnp = _ff_ratio(non_pair - 1, n_h - 1, k)
                wp = _ff_ratio(non_pair, n_h - 1, k)
                num_np = 0.0
                p_sum = 0.0
                num_any = 0.0
                for v in range(10):
                    pv = rem[v] / n_h
                    num_any += pv * num[v, k]
                    if v != pair:
                        num_np += pv * num[v, k]
                        p_sum += pv
                den_np = p_sum * wnp
                den_any = den_np + rem[pair] / n_h * wp
                ex_np[h, k] = num_np / den_np if den_np > 0 else 0.0
                ex_any[h, k] = num_any / den_any if den_any > 0 else 0.0

    # Phase 1: deal second cards; a pair card starts a new hand while hands < max_h. A state
    # (hands, open slots, closed with a non-pair card) is reached after (hands - 2) + closed
    # cards, so the states are visited in that order.
    states = np.zeros((max_h + 2, max_h + 2, max_h + 2))
    states[2, 2, 0] = 1.0
    ev = 0.0
    m2 = 0.0
    for g in range(2 * max_h + 1):
        for h in range(2, max_h + 1):
            closed = g - (h - 2)
            if closed < 0 or closed > max_h:
                continue
            for open_ in range(max_h + 1):
                pr = states[h, open_, closed]
                if pr == 0.0:
                    continue
                if h == max_h or open_ == 0:
                    n_np, n_any = closed, open_
                    wn, wa = w_np[h], w_any[h]
                    if use_exact:
                        wn = ex_np[h, max(0, n_np - 1)]
                        wa = ex_any[h, n_np]
                    ev += pr * (n_np * wn + n_any * wa)
                    if lost:
                        ev += pr * pbj_root * b_np[h] ** n_np * b_any[h] ** n_any
                    m2 += pr * (n_np * m_np[h] + n_any * m_any[h] + n_np * (n_np - 1) * c_nn[h]
                                + 2 * n_np * n_any * c_na[h] + n_any * (n_any - 1) * c_aa[h])
                    continue
                drawn = (h - 2) + closed
                left = n0 - drawn
                pp = max(0, c0 - (h - 2)) / left if left > 0 else 0.0
                if pp > 0:
                    states[h + 1, open_ + 1, closed] += pr * pp
                if pp < 1:
                    states[h, open_ - 1, closed + 1] += pr * (1 - pp)
    return ev, m2


@njit(cache=True, nogil=True)
def _roots(base, up, mode, bj, surrender, double_on, pair_index, comp_total, comp_soft,
           stand_v, stand_m2, hit_v, hit_m2, dbl_v, dbl_m2, split_ev, has_split, out):
    """Per two-card hand {a, b} (a <= b): [EV, E[X^2]] of each action in whole-round terms
    (NaN: not allowed), in ``out[a, b]``."""
    rem = np.zeros(10, dtype=np.int64)
    for a in range(10):
        for b in range(a, 10):
            vals = out[a, b]
            vals[:, :] = np.nan
            for v in range(10):
                rem[v] = base[v]
            rem[a] -= 1
            rem[b] -= 1
            pbj = p_dealer_bj(rem, up)
            if a == ACE and b == TEN:
                p_no = 1.0 - pbj
                vals[STAND, 0] = bj * p_no
                vals[STAND, 1] = bj * bj * p_no
                continue
            i = pair_index[a, b]
            off, moff = (-pbj, pbj) if mode != MODE_ALL_BETS else (0.0, 0.0)
            vals[STAND, 0], vals[STAND, 1] = off + stand_v[i], moff + stand_m2[i]
            vals[HIT, 0], vals[HIT, 1] = off + hit_v[i], moff + hit_m2[i]
            if _may_double(double_on, comp_total[i], comp_soft[i]):
                vals[DOUBLE, 0], vals[DOUBLE, 1] = off + dbl_v[i], moff + dbl_m2[i]
            if a == b and has_split[a]:
                vals[SPLIT, 0], vals[SPLIT, 1] = off + split_ev[a, 0], moff + split_ev[a, 1]
            if surrender == SUR_EARLY:
                vals[SURRENDER, 0], vals[SURRENDER, 1] = -0.5, 0.25
            elif surrender == SUR_LATE:
                vals[SURRENDER, 0] = -0.5 * (1 - pbj) - pbj
                vals[SURRENDER, 1] = 0.25 * (1 - pbj) + pbj


@njit(cache=True, nogil=True)
def _deal_weight(shoe, up, a, b):
    """P(up card ``up``, player's two cards {a, b}) off the top of ``shoe``."""
    n = 0
    for v in range(10):
        n += shoe[v]
    pu = shoe[up] / n
    ba = shoe[a] - (1 if a == up else 0)
    bb = shoe[b] - (1 if b == up else 0)
    m = n - 1
    if a == b:
        pab = ba * (ba - 1) / (m * (m - 1))
    else:
        pab = 2 * ba * bb / (m * (m - 1))
    return pu * pab


@njit(cache=True, nogil=True)
def _code_value(code, vals):
    """EV of following a total-row code on one hand, with its fallbacks."""
    if (code == C_D or code == C_DS) and not np.isnan(vals[DOUBLE]):
        return vals[DOUBLE]
    if (code == C_RH or code == C_RS) and not np.isnan(vals[SURRENDER]):
        return vals[SURRENDER]
    return vals[HIT] if code == C_H or code == C_D or code == C_RH else vals[STAND]


@njit(cache=True, nogil=True)
def _chart_column(shoe, up, roots, hard_codes, soft_codes, pair_codes):
    """The total-dependent chart against ``up``: per row, the action with the best EV summed
    over the two-card hands of that row, each weighted by its probability; then the pairs."""
    for t in range(22):
        hard_codes[t] = C_H if 4 <= t <= 20 else C_S
        soft_codes[t] = C_S
    agg = np.zeros(5)
    row = np.zeros(5)
    for total in range(4, 22):
        for soft in (False, True):
            # The row's non-pair hands, or its pairs when it has nothing else.
            has_other = False
            has_any = False
            for a in range(10):
                for b in range(a, 10):
                    if a == ACE and b == TEN:
                        continue
                    hard = a + b + 2
                    aces = (1 if a == ACE else 0) + (1 if b == ACE else 0)
                    t = hard + 10 if aces > 0 and hard + 10 <= 21 else hard
                    if t == total and (t != hard) == soft:
                        has_any = True
                        if a != b:
                            has_other = True
            if not has_any:
                continue
            agg[:] = 0.0
            for a in range(10):
                for b in range(a, 10):
                    if (a == ACE and b == TEN) or (has_other and a == b):
                        continue
                    hard = a + b + 2
                    aces = (1 if a == ACE else 0) + (1 if b == ACE else 0)
                    t = hard + 10 if aces > 0 and hard + 10 <= 21 else hard
                    if t != total or (t != hard) != soft:
                        continue
                    w = _deal_weight(shoe, up, a, b)
                    for k in range(5):
                        row[k] = roots[a, b, k, 0]
                    row[SPLIT] = np.nan
                    for k in range(5):
                        agg[k] += w * row[k]
            k = _nanargmax(agg)
            hs_hit = agg[HIT] > agg[STAND]
            if k == DOUBLE:
                code = C_D if hs_hit else C_DS
            elif k == SURRENDER:
                code = C_RH if hs_hit else C_RS
            else:
                code = C_H if hs_hit else C_S
            if soft:
                soft_codes[total] = code
            else:
                hard_codes[total] = code
    hard_codes[21] = C_S
    soft_codes[21] = C_S
    for v in range(10):
        vals = roots[v, v, :, 0]
        if v == ACE:
            row_code = soft_codes[12]
        else:
            row_code = hard_codes[2 * v + 2]
        if np.isnan(vals[SPLIT]):
            pair_codes[v] = row_code
            continue
        # Split against the row's play without surrender; surrender may still beat both.
        no_sur = C_H if row_code == C_RH else (C_S if row_code == C_RS else row_code)
        if vals[SPLIT] >= _code_value(no_sur, vals):
            sur = vals[SURRENDER]
            pair_codes[v] = C_RP if not np.isnan(sur) and sur > vals[SPLIT] else C_P
        else:
            pair_codes[v] = row_code


@njit(cache=True, nogil=True)
def _row_code(hard_codes, soft_codes, total, soft):
    if soft:
        return soft_codes[total] if 12 <= total <= 21 else C_S
    return hard_codes[total] if 4 <= total <= 21 else C_S


@njit(cache=True, nogil=True)
def _chart_root(vals, pair_code, row_code):
    """EV and second moment of following the chart on one two-card hand."""
    if (pair_code == C_P or pair_code == C_RP) and not np.isnan(vals[SPLIT, 0]):
        if pair_code == C_RP and not np.isnan(vals[SURRENDER, 0]):
            return vals[SURRENDER, 0], vals[SURRENDER, 1]
        return vals[SPLIT, 0], vals[SPLIT, 1]
    code = row_code
    if (code == C_D or code == C_DS) and not np.isnan(vals[DOUBLE, 0]):
        k = DOUBLE
    elif (code == C_RH or code == C_RS) and not np.isnan(vals[SURRENDER, 0]):
        k = SURRENDER
    else:
        k = HIT if code == C_H or code == C_D or code == C_RH else STAND
    return vals[k, 0], vals[k, 1]


@njit(cache=True, nogil=True)
def _splits(base, up, mode, pairs, max_split_hands, resplit_aces, hit_split_aces, exact, comp_counts, comp_total,
            comp_ncards, child, valid, dp, index, start_index, table, reaches, needs, starts, trie_args, act2,
            cont_hit, bufs, split_ev, has_split):
    """The value of splitting each of ``pairs`` under one policy (``act2``, ``cont_hit``), into
    ``split_ev`` and ``has_split``: what each split reaches, then the dealer's outcomes it needs
    in one batch, then the values. Returns the grown table of split dealer outcomes."""
    npairs = pairs.shape[0]
    max_hands = np.zeros(npairs, dtype=np.int64)
    for t in range(npairs):
        pair = pairs[t]
        max_hands[t] = 2 if pair == ACE and not resplit_aces else max_split_hands
        starts[t] = split_reach(pair, comp_counts, comp_ncards, child, act2, cont_hit,
                                pair == ACE and not hit_split_aces, reaches[t], needs[t])
    table = split_dealer_batch(base, pairs, max_hands, starts, needs, comp_counts, child, valid, trie_args, index,
                               start_index, table)
    for t in range(npairs):
        pair = pairs[t]
        split_ev[pair, 0], split_ev[pair, 1] = _split_value(
            base, up, mode, pair, max_hands[t], pair == ACE and not hit_split_aces, exact, comp_counts, comp_total,
            comp_ncards, child, valid, dp, index[pair], start_index[pair], table, starts[t], reaches[t], needs[t],
            trie_args, act2, cont_hit, bufs)
        has_split[pair] = True
    return table


@njit(cache=True, nogil=True)
def analyze_upcard(shoe, up, mode, bj, surrender, double_on, das, max_split_hands, resplit_aces,
                   hit_split_aces, ten_rank, exact, comp_counts, comp_total, comp_soft, comp_ncards, child,
                   pair_index, trie_args, given_chart, hard_codes, soft_codes, pair_codes, out_dealer, out_roots,
                   out_moments):
    """The whole analysis against one up card, off the top of ``shoe``.

    Unless ``given_chart``: the dealer's outcomes (``out_dealer``), every two-card hand's action
    values under optimal composition-dependent play (``out_roots``, as :func:`_roots`), that
    play's (E, E[X^2]) weighted by the deal (``out_moments[0:2]``) and the chart's column
    (``hard_codes``, ``soft_codes``, ``pair_codes``: written). Then the chart's (E, E[X^2])
    weighted by the deal (``out_moments[2:4]``), for the chart given or just derived.
    ``ten_rank``: P(two tens are of one rank) when only such tens split, else below zero.
    """
    parent, value, mult, depth, outcome, orders, skip = trie_args
    ncomp = comp_counts.shape[0]
    base = shoe.copy()
    base[up] -= 1
    prod = np.zeros(parent.shape[0])
    dealer_probs(base, parent, value, mult, depth, outcome, orders, skip, prod, out_dealer)
    # The dealer against every composition: shared by both plays and every split pass.
    dp = np.zeros((NOUT, ncomp))
    valid = np.zeros(ncomp, dtype=np.bool_)
    _dealer_table(base, comp_counts, comp_ncards, trie_args, dp, valid)
    # The split hands' own dealer outcomes, computed as the passes need them and kept for both plays.
    index = np.full((10, 3, ncomp), -1, dtype=np.int64)
    start_index = np.full((10, 3), -1, dtype=np.int64)
    table = np.empty((NOUT, 0))
    reaches = np.zeros((10, ncomp), dtype=np.bool_)
    needs = np.zeros((10, ncomp), dtype=np.bool_)
    starts = np.zeros(10, dtype=np.int64)
    bufs = (np.zeros(ncomp), np.zeros(ncomp), np.zeros(ncomp), np.zeros(ncomp), np.zeros(ncomp),
            np.zeros((ncomp, NOUT)), np.zeros((ncomp, NOUT)))
    stand_v = np.zeros(ncomp)
    stand_m2 = np.zeros(ncomp)
    _stand_pass(comp_total, valid, dp, mode, stand_v, stand_m2)
    hit_v = np.zeros(ncomp)
    hit_m2 = np.zeros(ncomp)
    dbl_v = np.zeros(ncomp)
    dbl_m2 = np.zeros(ncomp)
    cont_v = np.zeros(ncomp)
    cont_m2 = np.zeros(ncomp)
    cont_hit = np.zeros(ncomp, dtype=np.bool_)
    act2 = np.zeros(ncomp, dtype=np.int64)
    split_ev = np.zeros((10, 2))
    has_split = np.zeros(10, dtype=np.bool_)
    roots = out_roots

    if not given_chart:
        main_pass(base, up, mode, comp_counts, comp_ncards, child, valid, stand_v, stand_m2, False, cont_hit,
                  hit_v, hit_m2, dbl_v, dbl_m2, cont_v, cont_m2, cont_hit)
        for i in range(ncomp):  # each two-card split hand plays as the same cards unsplit would
            if comp_ncards[i] != 2:
                continue
            can_double = das and _may_double(double_on, comp_total[i], comp_soft[i])
            best, a = stand_v[i], STAND
            if hit_v[i] > best:
                best, a = hit_v[i], HIT
            if can_double and dbl_v[i] > best:
                a = DOUBLE
            act2[i] = a
        if max_split_hands >= 2:
            table = _splits(base, up, mode, np.arange(10), max_split_hands, resplit_aces, hit_split_aces, exact,
                            comp_counts, comp_total, comp_ncards, child, valid, dp, index, start_index, table,
                            reaches, needs, starts, trie_args, act2, cont_hit, bufs, split_ev, has_split)
        _roots(base, up, mode, bj, surrender, double_on, pair_index, comp_total, comp_soft, stand_v, stand_m2,
               hit_v, hit_m2, dbl_v, dbl_m2, split_ev, has_split, roots)
        ev = 0.0
        m2 = 0.0
        for a in range(10):
            for b in range(a, 10):
                w = _deal_weight(shoe, up, a, b)
                vals = roots[a, b]
                ks = _nanargmax(vals[:, 0])
                if ten_rank >= 0 and a == TEN and b == TEN and not np.isnan(vals[SPLIT, 0]):
                    no_split = vals[:, 0].copy()
                    no_split[SPLIT] = np.nan
                    kn = _nanargmax(no_split)
                    e = ten_rank * vals[ks, 0] + (1 - ten_rank) * vals[kn, 0]
                    m = ten_rank * vals[ks, 1] + (1 - ten_rank) * vals[kn, 1]
                else:
                    e, m = vals[ks, 0], vals[ks, 1]
                ev += w * e
                m2 += w * m
        out_moments[0], out_moments[1] = ev, m2
        _chart_column(shoe, up, roots, hard_codes, soft_codes, pair_codes)

    # The chart's play: the same stand values, its own hits and splits.
    hit = np.zeros(ncomp, dtype=np.bool_)
    for i in range(ncomp):
        c = _row_code(hard_codes, soft_codes, comp_total[i], comp_soft[i])
        hit[i] = c == C_H or c == C_D or c == C_RH
    main_pass(base, up, mode, comp_counts, comp_ncards, child, valid, stand_v, stand_m2, True, hit,
              hit_v, hit_m2, dbl_v, dbl_m2, cont_v, cont_m2, cont_hit)
    for i in range(ncomp):
        act2[i] = STAND
        if comp_ncards[i] != 2:
            continue
        code = _row_code(hard_codes, soft_codes, comp_total[i], comp_soft[i])
        can_double = das and _may_double(double_on, comp_total[i], comp_soft[i])
        if code == C_D or code == C_DS:
            act2[i] = DOUBLE if can_double else (HIT if code == C_D else STAND)
        elif code == C_RH or code == C_RS:
            act2[i] = HIT if code == C_RH else STAND
        else:
            act2[i] = HIT if code == C_H else STAND
    has_split[:] = False
    if max_split_hands >= 2:
        chart_pairs = np.array([p for p in range(10) if pair_codes[p] == C_P or pair_codes[p] == C_RP],
                               dtype=np.int64)
        table = _splits(base, up, mode, chart_pairs, max_split_hands, resplit_aces, hit_split_aces, exact,
                        comp_counts, comp_total, comp_ncards, child, valid, dp, index, start_index, table,
                        reaches, needs, starts, trie_args, act2, hit, bufs, split_ev, has_split)
    croots = np.empty((10, 10, 5, 2))
    _roots(base, up, mode, bj, surrender, double_on, pair_index, comp_total, comp_soft, stand_v, stand_m2,
           hit_v, hit_m2, dbl_v, dbl_m2, split_ev, has_split, croots)
    e_sum = 0.0
    m_sum = 0.0
    for a in range(10):
        for b in range(a, 10):
            w = _deal_weight(shoe, up, a, b)
            vals = croots[a, b]
            if a == ACE and b == TEN:
                e, m = vals[STAND, 0], vals[STAND, 1]
            else:
                hard = a + b + 2
                aces = (1 if a == ACE else 0) + (1 if b == ACE else 0)
                t = hard + 10 if aces > 0 and hard + 10 <= 21 else hard
                row_code = _row_code(hard_codes, soft_codes, t, t != hard)
                pair_code = pair_codes[a] if a == b else -1
                e, m = _chart_root(vals, pair_code, row_code)
                if a == TEN and b == TEN and ten_rank >= 0 and (pair_code == C_P or pair_code == C_RP):
                    e0, m0 = _chart_root(vals, -1, row_code)
                    e, m = ten_rank * e + (1 - ten_rank) * e0, ten_rank * m + (1 - ten_rank) * m0
            e_sum += w * e
            m_sum += w * m
    out_moments[2], out_moments[3] = e_sum, m_sum
