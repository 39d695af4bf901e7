"""One up card's whole analysis in one kernel (see docs/maths.md).

:func:`analyze_upcard` computes the dealer's outcomes against every player composition once
(:func:`_dealer_table`) and shares them between the optimal composition-dependent play, the
chart derived from it and the chart's own play, with their split passes (:mod:`._ca_splits`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from ._ca import (
    ACE,
    C_D,
    C_DS,
    C_H,
    C_P,
    C_RH,
    C_RP,
    C_RS,
    C_S,
    DBL_9_11,
    DBL_ANY,
    DOUBLE,
    HIT,
    MODE_ALL_BETS,
    MODE_OBO_LOST,
    NOUT,
    SPLIT,
    STAND,
    SUR_EARLY,
    SUR_LATE,
    SURRENDER,
    TEN,
    _remaining,
    bust_weight,
    dealer_batch,
    dealer_probs,
    p_dealer_bj,
    stand_value,
)
from ._ca_splits import exact_tables, splits


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
                    t, t_soft = _two_card_total(a, b)
                    if t == total and t_soft == soft:
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
                    t, t_soft = _two_card_total(a, b)
                    if t != total or t_soft != soft:
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
def _two_card_total(a, b):
    """(best total, soft) of the two-card hand {a, b}."""
    hard = a + b + 2
    aces = (1 if a == ACE else 0) + (1 if b == ACE else 0)
    total = hard + 10 if aces > 0 and hard + 10 <= 21 else hard
    return total, total != hard


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
def prepare(base, mode, comp_counts, comp_ncards, comp_total, trie_args, out_dealer, dp, valid, stand_v, stand_m2):
    """The dealer's outcomes off the top (``out_dealer``) and against every composition the shoe
    can hold (``dp``, ``valid``), and the stand values they give: shared by every play."""
    parent, value, mult, depth, outcome, orders, skip = trie_args
    dealer_probs(base, parent, value, mult, depth, outcome, orders, skip, np.zeros(parent.shape[0]), out_dealer)
    _dealer_table(base, comp_counts, comp_ncards, trie_args, dp, valid)
    _stand_pass(comp_total, valid, dp, mode, stand_v, stand_m2)


@njit(cache=True, nogil=True)
def optimal_play(base, up, mode, das, double_on, comp_counts, comp_total, comp_soft, comp_ncards, child, valid,
                 stand_v, stand_m2, hit_v, hit_m2, dbl_v, dbl_m2, cont_v, cont_m2, cont_hit, act2):
    """Optimal composition-dependent play: the backward sweep, and each two-card split hand's
    action (``act2``), as the same cards unsplit would play it."""
    main_pass(base, up, mode, comp_counts, comp_ncards, child, valid, stand_v, stand_m2, False, cont_hit,
              hit_v, hit_m2, dbl_v, dbl_m2, cont_v, cont_m2, cont_hit)
    for i in range(comp_counts.shape[0]):
        act2[i] = STAND
        if comp_ncards[i] != 2:
            continue
        can_double = das and _may_double(double_on, comp_total[i], comp_soft[i])
        best, a = stand_v[i], STAND
        if hit_v[i] > best:
            best, a = hit_v[i], HIT
        if can_double and dbl_v[i] > best:
            a = DOUBLE
        act2[i] = a


@njit(cache=True, nogil=True)
def optimal_result(shoe, up, mode, bj, surrender, double_on, ten_rank, pair_index, comp_total, comp_soft,
                   stand_v, stand_m2, hit_v, hit_m2, dbl_v, dbl_m2, split_ev, has_split, roots, moments,
                   hard_codes, soft_codes, pair_codes):
    """The optimal play's values of every two-card hand (``roots``), its (E, E[X^2]) weighted
    by the deal (``moments[0:2]``), and the chart's column for this up card."""
    base = shoe.copy()
    base[up] -= 1
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
    moments[0], moments[1] = ev, m2
    _chart_column(shoe, up, roots, hard_codes, soft_codes, pair_codes)


@njit(cache=True, nogil=True)
def chart_play(base, up, mode, das, double_on, comp_counts, comp_total, comp_soft, comp_ncards, child, valid,
               hard_codes, soft_codes, stand_v, stand_m2, hit_v, hit_m2, dbl_v, dbl_m2, cont_v, cont_m2, cont_hit,
               hit, act2):
    """The chart's play: its hits (``hit``), its sweep over the same stand values, and each
    two-card split hand's action by its row."""
    for i in range(comp_counts.shape[0]):
        c = _row_code(hard_codes, soft_codes, comp_total[i], comp_soft[i])
        hit[i] = c == C_H or c == C_D or c == C_RH
    main_pass(base, up, mode, comp_counts, comp_ncards, child, valid, stand_v, stand_m2, True, hit,
              hit_v, hit_m2, dbl_v, dbl_m2, cont_v, cont_m2, cont_hit)
    for i in range(comp_counts.shape[0]):
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


@njit(cache=True, nogil=True)
def chart_result(shoe, up, mode, bj, surrender, double_on, ten_rank, pair_index, comp_total, comp_soft,
                 stand_v, stand_m2, hit_v, hit_m2, dbl_v, dbl_m2, split_ev, has_split, hard_codes, soft_codes,
                 pair_codes, moments):
    """The chart's (E, E[X^2]) weighted by the deal, into ``moments[2:4]``."""
    base = shoe.copy()
    base[up] -= 1
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
                t, t_soft = _two_card_total(a, b)
                row_code = _row_code(hard_codes, soft_codes, t, t_soft)
                pair_code = pair_codes[a] if a == b else -1
                e, m = _chart_root(vals, pair_code, row_code)
                if a == TEN and b == TEN and ten_rank >= 0 and (pair_code == C_P or pair_code == C_RP):
                    e0, m0 = _chart_root(vals, -1, row_code)
                    e, m = ten_rank * e + (1 - ten_rank) * e0, ten_rank * m + (1 - ten_rank) * m0
            e_sum += w * e
            m_sum += w * m
    moments[2], moments[3] = e_sum, m_sum


def analyze_upcard(shoe: Any, up: int, mode: int, bj: float, surrender: int, double_on: int, das: bool,
                   max_split_hands: int, resplit_aces: bool, hit_split_aces: bool, ten_rank: float, exact: bool,
                   comps: Any, trie: tuple[Any, ...], given_chart: bool, hard_codes: Any, soft_codes: Any,
                   pair_codes: Any, out_dealer: Any, out_roots: Any, out_moments: Any) -> None:
    """The whole analysis against one up card, off the top of ``shoe``: the kernels above in
    turn (each its own compiled unit, so that none is compiled again inside another).

    Unless ``given_chart``: the dealer's outcomes (``out_dealer``), every two-card hand's action
    values under optimal composition-dependent play (``out_roots``, as :func:`_roots`), that
    play's (E, E[X^2]) weighted by the deal (``out_moments[0:2]``) and the chart's column
    (``hard_codes``, ``soft_codes``, ``pair_codes``: written). Then the chart's (E, E[X^2])
    weighted by the deal (``out_moments[2:4]``), for the chart given or just derived.
    ``ten_rank``: P(two tens are of one rank) when only such tens split, else below zero.
    """
    n = comps.counts.shape[0]
    base = shoe.copy()
    base[up] -= 1
    dp = np.zeros((NOUT, n))
    valid = np.zeros(n, dtype=np.bool_)
    stand_v, stand_m2 = np.zeros(n), np.zeros(n)
    prepare(base, mode, comps.counts, comps.ncards, comps.total, trie, out_dealer, dp, valid, stand_v, stand_m2)
    play = [np.zeros(n) for _ in range(6)]  # hit, its square, double, its square, play on, its square
    cont_hit = np.zeros(n, dtype=np.bool_)
    act2 = np.zeros(n, dtype=np.int64)
    # The split hands' own dealer outcomes, computed as the passes need them and kept for both plays.
    kept = {"table": np.empty((NOUT, 0)), "index": np.full((10, 3, n), -1, dtype=np.int64),
            "start": np.full((10, 3), -1, dtype=np.int64)}
    scratch = (np.zeros((10, n), dtype=np.bool_), np.zeros((10, n), dtype=np.bool_), np.zeros(10, dtype=np.int64),
               (np.zeros(n), np.zeros(n), np.zeros(n), np.zeros(n), np.zeros(n), np.zeros((n, NOUT)),
                np.zeros((n, NOUT))))
    split_ev = np.zeros((10, 2))
    has_split = np.zeros(10, dtype=np.bool_)
    common = (comps.counts, comps.total, comps.soft, comps.ncards, comps.child, valid)

    def split_all(pairs: Any, cont: Any) -> None:
        split_ev[:] = 0.0
        has_split[:] = False
        if max_split_hands < 2 or len(pairs) == 0:
            return
        ex_np, ex_any = np.zeros((10, 5, 4)), np.zeros((10, 5, 4))
        if exact:
            exact_tables(base, up, mode, pairs, max_split_hands, resplit_aces, hit_split_aces, comps.counts,
                         comps.total, comps.ncards, comps.child, trie, act2, cont, ex_np, ex_any)
        kept["table"] = splits(base, up, mode, pairs, max_split_hands, resplit_aces, hit_split_aces, exact, ex_np,
                               ex_any, comps.counts, comps.total, comps.ncards, comps.child, valid, dp,
                               kept["index"], kept["start"], kept["table"], *scratch[:3], trie, act2, cont,
                               scratch[3], split_ev, has_split)

    if not given_chart:
        optimal_play(base, up, mode, das, double_on, *common, stand_v, stand_m2, *play, cont_hit, act2)  # type: ignore[call-arg]
        split_all(np.arange(10, dtype=np.int64), cont_hit)
        optimal_result(shoe, up, mode, bj, surrender, double_on, ten_rank, comps.pair_index, comps.total, comps.soft,  # type: ignore[call-arg]
                       stand_v, stand_m2, *play[:4], split_ev, has_split, out_roots, out_moments, hard_codes,
                       soft_codes, pair_codes)
    hit = np.zeros(n, dtype=np.bool_)
    chart_play(base, up, mode, das, double_on, *common, hard_codes, soft_codes, stand_v, stand_m2, *play, cont_hit,  # type: ignore[call-arg]
               hit, act2)
    split_all(np.array([p for p in range(10) if pair_codes[p] in (C_P, C_RP)], dtype=np.int64), hit)
    chart_result(shoe, up, mode, bj, surrender, double_on, ten_rank, comps.pair_index, comps.total, comps.soft,  # type: ignore[call-arg]
                 stand_v, stand_m2, *play[:4], split_ev, has_split, hard_codes, soft_codes, pair_codes, out_moments)
