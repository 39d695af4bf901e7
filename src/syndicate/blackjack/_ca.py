"""Tables and numba kernels of the combinatorial analysis (see docs/maths.md).

Card values are indexed 0..9 for Ace, 2, ..., 9, ten-valued. A *composition* is a multiset of
card values (how many of each), which is all that matters to a hand's future: the probability
of any particular sequence of draws from a shoe depends only on the multiset drawn.

Two precomputed structures make the kernels fast:

* the player's compositions: every multiset with a hard total of at most 21, ordered by hard
  total so that a composition's children (one more card) always come later;
* per dealer up card, a trie of the dealer's drawing multisets in sorted order. Each terminal
  node (a multiset on which the dealer stops) carries its final total and the number of
  orders in which the dealer can draw it without stopping early. The probability of drawing
  one such order from a shoe with counts ``c`` (``n`` cards) is
  ``prod_v c_v (c_v - 1) ... / (n (n - 1) ...)``: one multiplication per trie node.
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
        self.hard = np.array(
            [sum((i + 1) * k for i, k in enumerate(c)) for c in found], dtype=np.int64
        )
        self.ncards = self.counts.sum(axis=1)
        self.total = np.zeros(n, dtype=np.int64)
        self.soft = np.zeros(n, dtype=np.bool_)
        for i, c in enumerate(found):
            t, s = best_total(int(self.hard[i]), c[ACE])
            self.total[i] = t
            self.soft[i] = s
        self.child = np.full((n, 10), -1, dtype=np.int64)
        for i, c in enumerate(found):
            for v in range(10):
                d = list(c)
                d[v] += 1
                j = self.index.get(tuple(d))
                if j is not None:
                    self.child[i, v] = j

    def of(self, values: list[int] | tuple[int, ...]) -> int:
        c = [0] * 10
        for v in values:
            c[v] += 1
        return self.index[tuple(c)]


@lru_cache(maxsize=1)
def compositions() -> Compositions:
    return Compositions()


# -- dealer tries ---------------------------------------------------------------------------

def _dealer_state(up: int, counts: tuple[int, ...], h17: bool) -> int:
    """-1 if the dealer draws again, else the outcome slot."""
    hard = up + 1 + sum((i + 1) * k for i, k in enumerate(counts))
    aces = counts[ACE] + (1 if up == ACE else 0)
    n = sum(counts) + 1
    if hard > 21:
        return DBUST
    total, soft = best_total(hard, aces)
    if total == 21 and n == 2:
        return DBJ
    if total < 17 or (total == 17 and soft and h17):
        return -1
    return total - 17


@cache
def dealer_trie(up: int, h17: bool) -> tuple[np.ndarray, ...]:
    """(parent, value, multiplicity before, depth before, outcome, orders) per trie node."""
    g: dict[tuple[int, ...], int] = {}

    def orders_hitting(c: tuple[int, ...]) -> int:
        # Orders of c in which the dealer never stops (every prefix, and c itself, hits).
        if c in g:
            return g[c]
        if sum(c) == 0:
            g[c] = 1
            return 1
        if _dealer_state(up, c, h17) != -1:
            g[c] = 0
            return 0
        total = 0
        for v in range(10):
            if c[v]:
                d = list(c)
                d[v] -= 1
                total += orders_hitting(tuple(d))
        g[c] = total
        return total

    # Every multiset the dealer can hold while still drawing.
    hitting: list[tuple[int, ...]] = []

    def rec(start: int, counts: list[int], hard: int) -> None:
        t = tuple(counts)
        if orders_hitting(t) > 0:
            hitting.append(t)
        for v in range(start, 10):
            if hard + v + 1 <= 17:
                counts[v] += 1
                rec(v, counts, hard + v + 1)
                counts[v] -= 1

    rec(0, [0] * 10, up + 1)
    terminals: dict[tuple[int, ...], tuple[int, int]] = {}
    for m in hitting:
        for v in range(10):
            d = list(m)
            d[v] += 1
            t = tuple(d)
            if t in terminals:
                continue
            out = _dealer_state(up, t, h17)
            if out == -1:
                continue
            n_orders = 0
            for w in range(10):
                if t[w]:
                    e = list(t)
                    e[w] -= 1
                    n_orders += orders_hitting(tuple(e))
            terminals[t] = (out, n_orders)

    # Sorted-order trie, breadth first so that parents precede children.
    seqs = {}
    for t, info in terminals.items():
        seq = tuple(v for v in range(10) for _ in range(t[v]))
        seqs[seq] = info
    prefixes: set[tuple[int, ...]] = {()}
    for s in seqs:
        for k in range(1, len(s) + 1):
            prefixes.add(s[:k])
    ordered = sorted(prefixes, key=lambda s: (len(s), s))
    node = {s: i for i, s in enumerate(ordered)}
    n = len(ordered)
    parent = np.zeros(n, dtype=np.int64)
    value = np.zeros(n, dtype=np.int64)
    mult = np.zeros(n, dtype=np.int64)
    depth = np.zeros(n, dtype=np.int64)
    outcome = np.full(n, -1, dtype=np.int64)
    orders = np.zeros(n, dtype=np.float64)
    for s, i in node.items():
        if not s:
            parent[i] = -1
            continue
        parent[i] = node[s[:-1]]
        value[i] = s[-1]
        mult[i] = s[:-1].count(s[-1])
        depth[i] = len(s) - 1
        if s in seqs:
            outcome[i], n_orders = seqs[s]
            orders[i] = float(n_orders)
    return parent, value, mult, depth, outcome, orders


# -- kernels --------------------------------------------------------------------------------

@njit(cache=True, nogil=True)
def dealer_probs(rem, parent, value, mult, depth, outcome, orders, prod, out):
    """Dealer outcome probabilities (7 slots) drawing from counts ``rem``."""
    n = 0
    for v in range(10):
        n += rem[v]
    for k in range(NOUT):
        out[k] = 0.0
    prod[0] = 1.0
    for i in range(1, parent.shape[0]):
        c = rem[value[i]] - mult[i]
        if c <= 0:
            prod[i] = 0.0
            continue
        p = prod[parent[i]]
        if p == 0.0:
            prod[i] = 0.0
            continue
        p = p * c / (n - depth[i])
        prod[i] = p
        o = outcome[i]
        if o >= 0:
            out[o] += orders[i] * p


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
def bust_weight(rem, up, mode):
    """Weight of a bust (its value is minus this): P(no dealer BJ) when BJ is excluded; 1 when
    a bust is lost whatever the hole card (every bet lost; a split hand under MODE_OBO_LOST)."""
    if mode != MODE_EXCLUDE_BJ:
        return 1.0
    return 1.0 - p_dealer_bj(rem, up)


@njit(cache=True, nogil=True)
def main_pass(base, up, mode, comp_counts, comp_total, comp_ncards, child,
              parent, value, mult, depth, outcome, orders,
              given_policy, policy_hit,
              stand_v, stand_m2, hit_v, hit_m2, dbl_v, dbl_m2, cont_v, cont_m2, cont_hit):
    """Values of every composition of two or more cards against up card ``up``.

    ``base`` is the shoe without the up card. ``cont_*`` is the value of playing on with hit
    or stand only (after a hit): the better of the two, or the one ``policy_hit`` names when
    ``given_policy`` (the total-dependent chart).
    """
    ncomp = comp_counts.shape[0]
    rem = np.zeros(10, dtype=np.int64)
    crem = np.zeros(10, dtype=np.int64)
    prod = np.zeros(parent.shape[0], dtype=np.float64)
    dp = np.zeros(NOUT, dtype=np.float64)
    for i in range(ncomp - 1, -1, -1):
        if comp_ncards[i] < 2:
            continue
        n = 0
        ok = True
        for v in range(10):
            rem[v] = base[v] - comp_counts[i, v]
            if rem[v] < 0:
                ok = False
            n += max(0, rem[v])
        if not ok:
            stand_v[i] = 0.0
            stand_m2[i] = 0.0
            hit_v[i] = 0.0
            hit_m2[i] = 0.0
            dbl_v[i] = 0.0
            dbl_m2[i] = 0.0
            cont_v[i] = 0.0
            cont_m2[i] = 0.0
            cont_hit[i] = False
            continue
        dealer_probs(rem, parent, value, mult, depth, outcome, orders, prod, dp)
        sv, sm = stand_value(dp, comp_total[i], mode)
        stand_v[i] = sv
        stand_m2[i] = sm
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
            cont_m2[i] = sm


@njit(cache=True, nogil=True)
def split_hand_pass(base, up, mode, pair, comp_counts, comp_total, comp_ncards, child,
                    parent, value, mult, depth, outcome, orders,
                    act2, cont_hit, stop_after_one, out_v, out_m2, out_vec, out_bj):
    """Value of each two-card split hand {pair, X} played from ``base``.

    ``base`` is the shoe without the up card and without the *other* hands' pair cards.
    ``act2[c]`` is the action (STAND, HIT, DOUBLE) for the two-card split hand c, and
    ``cont_hit`` the hit/stand policy after that. ``stop_after_one``: split aces take one card.
    Writes, per second card X, the hand's value ``out_v[X]``, its second moment and its
    value split by the dealer's outcome ``out_vec[X, k]`` (for the covariance of split hands)
    and ``out_bj[X]``, the probability that the hand busts and the dealer has blackjack (for
    MODE_OBO_LOST's every-hand-bust term). Only compositions the policy can reach are evaluated.
    """
    ncomp = comp_counts.shape[0]
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
    # Forward: mark what the policy reaches (children come after parents).
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
    sv = np.zeros(ncomp, dtype=np.float64)
    sm = np.zeros(ncomp, dtype=np.float64)
    svec = np.zeros((ncomp, NOUT), dtype=np.float64)
    vv = np.zeros(ncomp, dtype=np.float64)
    vm = np.zeros(ncomp, dtype=np.float64)
    vvec = np.zeros((ncomp, NOUT), dtype=np.float64)
    vbj = np.zeros(ncomp, dtype=np.float64)
    rem = np.zeros(10, dtype=np.int64)
    crem = np.zeros(10, dtype=np.int64)
    prod = np.zeros(parent.shape[0], dtype=np.float64)
    dp = np.zeros(NOUT, dtype=np.float64)
    q = np.zeros(NOUT, dtype=np.float64)
    # Dealer distribution for the split base: spreads a bust over the dealer's outcomes.
    for v in range(10):
        rem[v] = base[v] - comp_counts[start, v]
    dealer_probs(rem, parent, value, mult, depth, outcome, orders, prod, q)
    if mode != MODE_ALL_BETS:
        q[DBJ] = 0.0
    for i in range(ncomp - 1, -1, -1):
        if not (reach[i] or need_stand[i]):
            continue
        n = 0
        ok = True
        for v in range(10):
            rem[v] = base[v] - comp_counts[i, v]
            if rem[v] < 0:
                ok = False
            n += max(0, rem[v])
        if not ok:
            continue
        if need_stand[i]:
            dealer_probs(rem, parent, value, mult, depth, outcome, orders, prod, dp)
            s, m = stand_value(dp, comp_total[i], mode)
            sv[i] = s
            sm[i] = m
            t = comp_total[i]
            for k in range(5):
                d = 17 + k
                if t > d:
                    svec[i, k] = dp[k]
                elif t < d:
                    svec[i, k] = -dp[k]
            svec[i, DBUST] = dp[DBUST]
            if mode == MODE_ALL_BETS:
                svec[i, DBJ] = -dp[DBJ]
        if not reach[i]:
            continue
        two = comp_ncards[i] == 2
        if two and (stop_after_one or act2[i] == STAND):
            vv[i] = sv[i]
            vm[i] = sm[i]
            for k in range(NOUT):
                vvec[i, k] = svec[i, k]
            continue
        if (not two) and not cont_hit[i]:
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
                    vvec[i, k] -= mul * p * q[k]
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
        out_vec[10, k] = q[k]


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
def dealer_probs_weighted(rem, pair, kmax, parent, value, mult, depth, outcome, orders, prod,
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
    for i in range(1, parent.shape[0]):
        c = rem[value[i]] - mult[i]
        cnt[i] = cnt[parent[i]] + (1 if value[i] == pair else 0)
        if c <= 0:
            prod[i] = 0.0
            continue
        p = prod[parent[i]]
        if p == 0.0:
            prod[i] = 0.0
            continue
        p = p * c / (n - depth[i])
        prod[i] = p
        o = outcome[i]
        if o >= 0:
            d = depth[i] + 1
            for k in range(kmax + 1):
                w = _ff_ratio(non_pair - (d - cnt[i]), n - d, k)
                out[k, o] += orders[i] * p * w


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
                          child, parent, value, mult, depth, outcome, orders,
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
        n = 0
        ok = True
        for v in range(10):
            rem[v] = base[v] - comp_counts[i, v]
            if rem[v] < 0:
                ok = False
            n += rem[v] if rem[v] > 0 else 0
        if not ok:
            continue
        if need_stand[i]:
            dealer_probs_weighted(rem, pair, kmax, parent, value, mult, depth, outcome, orders,
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
