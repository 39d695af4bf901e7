"""The split passes of the combinatorial analysis (see docs/maths.md, "Splits").

A split hand is valued like any hand, from the shoe without the up card and the other hands'
pair cards. What a split reaches under a policy is found first (:func:`split_reach`); the
dealer's outcomes the passes will stand on are then computed in one batch
(:func:`split_dealer_batch`), unless the main table already holds them (the same shoe as a
composition of its own); the values come last (:func:`split_hand_pass`, :func:`_split_value`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._ca import (
    ACE,
    DBJ,
    DBUST,
    DOUBLE,
    MODE_ALL_BETS,
    MODE_EXCLUDE_BJ,
    MODE_OBO_LOST,
    NOUT,
    STAND,
    TEN,
    _remaining,
    bust_weight,
    dealer_batch,
    p_dealer_bj,
    stand_value,
)

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
    new = np.empty((NOUT, count))
    dealer_batch(rems, count, parent, value, mult, depth, outcome, orders, skip, new)
    return np.concatenate((table, new), axis=1)


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
    start = split_reach(pair, comp_counts, comp_ncards, child, act2, cont_hit, stop_after_one, reach, need_stand)
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


@njit(cache=True, nogil=True)
def exact_tables(base, up, mode, pairs, max_split_hands, resplit_aces, hit_split_aces, comp_counts, comp_total,
                 comp_ncards, child, trie_args, act2, cont_hit, ex_np, ex_any):
    """For ``exact_resplits``: per pair in ``pairs`` with resplits, number of hands ``h`` and
    number ``k`` of other hands closed by a non-pair card, the split hand's value given that
    those k cards are non-pair (``ex_np``: its own second card non-pair too; ``ex_any``: any),
    indexed [pair, h, k]. Its own kernel: a game without it never compiles it."""
    parent, value, mult, depth, outcome, orders, skip = trie_args
    b = np.zeros(10, dtype=np.int64)
    rem = np.zeros(10, dtype=np.int64)
    for t in range(pairs.shape[0]):
        pair = pairs[t]
        max_h = 2 if pair == ACE and not resplit_aces else max_split_hands
        if max_h <= 2:
            continue
        kmax = max_h - 1
        num = np.zeros((10, kmax + 1))
        for h in range(2, max_h + 1):
            for v in range(10):
                b[v] = base[v] - (h - 1 if v == pair else 0)
            num[:, :] = 0.0
            split_hand_pass_exact(b, up, mode, pair, kmax, comp_counts, comp_total, comp_ncards, child, parent,
                                  value, mult, depth, outcome, orders, skip, act2, cont_hit,
                                  pair == ACE and not hit_split_aces, num)
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
                ex_np[pair, h, k] = num_np / den_np if den_np > 0 else 0.0
                ex_any[pair, h, k] = num_any / den_any if den_any > 0 else 0.0


@njit(cache=True, nogil=True)
def _split_value(base, up, mode, pair, max_h, one_card, use_exact, ex_np, ex_any, comp_counts, comp_total,
                 comp_ncards, child, valid, dp, index, start_index, table, start, reach, need_stand, act2, cont_hit,
                 bufs):
    """(E[sum of split hands' results], E[(sum)^2]) for splitting ``pair`` against ``up``.

    ``base`` is the shoe without the up card (the pair cards are still in it: each pass
    removes the hands' own cards). Exact for two hands; with resplits each hand's value
    removes the pair cards of all hands but not their other cards (docs/maths.md, "Splits"),
    unless ``use_exact``: then each hand's value is conditioned on the other hands' second
    cards being non-pair cards, which is exact (the variance keeps the approximation; the
    conditioned values ``ex_np`` and ``ex_any`` by hands and k: :func:`exact_tables`). The split
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
                    if use_exact and max_h > 2:
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
def splits(base, up, mode, pairs, max_split_hands, resplit_aces, hit_split_aces, use_exact, ex_np, ex_any,
           comp_counts, comp_total, comp_ncards, child, valid, dp, index, start_index, table, reaches, needs, starts,
           trie_args, act2, cont_hit, bufs, split_ev, has_split):
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
            base, up, mode, pair, max_hands[t], pair == ACE and not hit_split_aces, use_exact, ex_np[pair],
            ex_any[pair], comp_counts, comp_total, comp_ncards, child, valid, dp, index[pair], start_index[pair],
            table, starts[t], reaches[t], needs[t], act2, cont_hit, bufs)
        has_split[pair] = True
    return table
