"""Exact expectation of Blackjack by combinatorial analysis of a full shoe.

:func:`analyze` computes, for a set of house rules and a freshly shuffled shoe:

* the player's expectation under the optimal composition-dependent strategy, split hands
  played by the same strategy as unsplit hands of the same cards (the "CDZ-" convention of
  published analyzers);
* the expectation under the total-dependent basic strategy chart derived from the same
  analysis (:mod:`syndicate.blackjack.strategy` draws it);
* the variance per round and the dealer's final-total probabilities per up card.

Everything is computed over the shoe's composition with every card seen removed (the
player's cards and the dealer's up card); in peek games the hole card is conditioned on
no dealer blackjack. The method and its agreement with published figures are in
``docs/maths.md``. Pure: no I/O, no clock except the ``seconds`` it reports.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from .rules import Rules


class _OnFirstUse:
    """A module imported on first use. numba (importing it and loading the compiled kernels of
    :mod:`._ca`) and numpy are most of a second of start-up, which an answer from the disk
    cache never needs."""

    def __init__(self, module: str, name: str) -> None:
        self._module, self._name = module, name

    def __getattr__(self, attr: str) -> Any:
        import importlib

        mod = importlib.import_module(self._module, __package__)
        globals()[self._name] = mod  # later uses go straight to the module
        return getattr(mod, attr)


_ca: Any = _OnFirstUse("._ca", "_ca")
np: Any = _OnFirstUse("numpy", "np")

#: Up cards in the order charts show them.
#: Threads for the per-up-card work (the numba kernels release the GIL).
_THREADS = 2

UPCARD_ORDER = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0)
UPCARD_LABELS = {0: "A", 1: "2", 2: "3", 3: "4", 4: "5", 5: "6", 6: "7", 7: "8", 8: "9", 9: "10"}
OUTCOME_LABELS = ("17", "18", "19", "20", "21", "blackjack", "bust")
# Action slots of the per-hand tables.
A_STAND, A_HIT, A_DOUBLE, A_SPLIT, A_SURRENDER = range(5)


@dataclass(frozen=True)
class ChartCells:
    """Total-dependent basic strategy cells, by row and up card (see strategy.Chart)."""

    hard: dict[int, dict[str, str]]
    soft: dict[int, dict[str, str]]
    pairs: dict[int, dict[str, str]]


@dataclass(frozen=True)
class Analysis:
    """Result of :func:`analyze`. Percentages are of the initial bet, from the player's side."""

    rules: Rules
    expectation_pct: float
    basic_strategy_expectation_pct: float
    variance: float
    basic_strategy_variance: float
    dealer_probabilities: dict[str, dict[str, float]]
    seconds: float
    chart_cells: ChartCells = field(repr=False)
    #: Per up card label and two-card hand ("8,8"): EV of each action (nan if not allowed).
    hand_values: dict[str, dict[str, dict[str, float]]] = field(repr=False)
    #: Read from the disk cache (``seconds`` is then the original computation's).
    from_cache: bool = field(default=False, compare=False)

    @property
    def house_edge_pct(self) -> float:
        return -self.expectation_pct

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(),
            "expectation_pct": self.expectation_pct,
            "basic_strategy_expectation_pct": self.basic_strategy_expectation_pct,
            "house_edge_pct": -self.expectation_pct,
            "variance": self.variance,
            "basic_strategy_variance": self.basic_strategy_variance,
            "dealer_probabilities": self.dealer_probabilities,
            "seconds": self.seconds,
            "method": "combinatorial analysis of the full shoe (CDZ-); see docs/maths.md",
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2)


# -- rules helpers ----------------------------------------------------------------------------

def shoe_counts(decks: int) -> np.ndarray:
    c = np.full(10, 4 * decks, dtype=np.int64)
    c[_ca.TEN] = 16 * decks
    return c


def may_double(rules: Rules, total: int, soft: bool) -> bool:
    """``double_on`` looks at the best total of the two-card hand."""
    if rules.double_on == "any":
        return True
    lo = 9 if rules.double_on == "9-11" else 10
    return lo <= total <= 11 and not soft


def _bj_payout(rules: Rules) -> float:
    num, den = (int(x) for x in rules.blackjack_pays.split(":"))
    return num / den


def _mode(rules: Rules) -> int:
    if rules.hole_card == "no_peek_all":
        return _ca.MODE_ALL_BETS
    if rules.hole_card == "no_peek_obo" and rules.obo_split_bust == "lost":
        return _ca.MODE_OBO_LOST
    return _ca.MODE_EXCLUDE_BJ


def _max_hands(rules: Rules, pair: int) -> int:
    if rules.max_split_hands < 2:
        return 1
    if pair == _ca.ACE and not rules.resplit_aces:
        return 2
    return rules.max_split_hands


# -- the analysis -------------------------------------------------------------------------------

@dataclass
class _Pass:
    """Arrays of one main pass (one up card, one policy)."""

    stand_v: np.ndarray
    stand_m2: np.ndarray
    hit_v: np.ndarray
    hit_m2: np.ndarray
    dbl_v: np.ndarray
    dbl_m2: np.ndarray
    cont_v: np.ndarray
    cont_m2: np.ndarray
    cont_hit: np.ndarray


def _main_pass(base: np.ndarray, up: int, rules: Rules, policy_hit: np.ndarray | None) -> _Pass:
    comps = _ca.compositions()
    trie = _ca.dealer_trie(up, rules.dealer_hits_soft_17)
    n = len(comps.keys)
    arrays = [np.zeros(n) for _ in range(8)] + [np.zeros(n, dtype=np.bool_)]
    given = policy_hit is not None
    _ca.main_pass(  # type: ignore[call-arg]  # numba's Dispatcher hides the signature
        base, up, _mode(rules), comps.counts, comps.total, comps.ncards, comps.child, *trie,
        given, policy_hit if given else np.zeros(n, dtype=np.bool_), *arrays,
    )
    return _Pass(*arrays)


def _two_card_pairs() -> list[tuple[int, int]]:
    return [(a, b) for a in range(10) for b in range(a, 10)]


def _split_value(
    base: np.ndarray, up: int, pair: int, rules: Rules, act2: np.ndarray, cont_hit: np.ndarray,
    exact_resplits: bool = False,
) -> tuple[float, float]:
    """(E[sum of split hands' results], E[(sum)^2]) for splitting ``pair`` against ``up``.

    ``base`` is the shoe without the up card (the pair cards are still in it: each pass
    removes the hands' own cards). Exact for two hands; with resplits each hand's value
    removes the pair cards of all hands but not their other cards (docs/maths.md, "Splits"),
    unless ``exact_resplits``: then each hand's value is conditioned on the other hands'
    second cards being non-pair cards, which is exact (the variance keeps the approximation).
    """
    comps = _ca.compositions()
    trie = _ca.dealer_trie(up, rules.dealer_hits_soft_17)
    mode = _mode(rules)
    max_h = _max_hands(rules, pair)
    one_card = pair == _ca.ACE and not rules.hit_split_aces
    per_h: dict[int, tuple[float, float, float, float, np.ndarray, np.ndarray, np.ndarray]] = {}
    bust_bj: dict[int, tuple[float, float]] = {}
    # MODE_OBO_LOST: every split hand's bust is counted in full, but when all of them bust the
    # dealer's blackjack finds no hand left to take the original bet from: P(every hand busts
    # and the dealer has blackjack) is added back, with the hands' busts taken as independent
    # given the blackjack (docs/maths.md, "Splits").
    lost = mode == _ca.MODE_OBO_LOST
    b0 = base.copy()
    b0[pair] -= 2
    pbj_root = float(_ca.p_dealer_bj(np.clip(b0, 0, None), up)) if lost else 0.0
    for h in range(2, max_h + 1):
        b = base.copy()
        b[pair] -= h - 1
        out_v = np.zeros(10)
        out_m2 = np.zeros(10)
        out_vec = np.zeros((11, _ca.NOUT))
        out_bj = np.zeros(10)
        _ca.split_hand_pass(  # type: ignore[call-arg]  # numba Dispatcher
            b, up, mode, pair, comps.counts, comps.total, comps.ncards, comps.child, *trie,
            act2, cont_hit, one_card, out_v, out_m2, out_vec, out_bj,
        )
        rem = b.copy()
        rem[pair] -= 1
        p = np.clip(rem, 0, None) / max(1, int(np.clip(rem, 0, None).sum()))
        w_any = float(p @ out_v)
        m_any = float(p @ out_m2)
        vec_any = p @ out_vec[:10]
        p_np = p.copy()
        p_np[pair] = 0.0
        s = p_np.sum()
        p_np = p_np / s if s > 0 else p_np
        w_np = float(p_np @ out_v)
        m_np = float(p_np @ out_m2)
        vec_np = p_np @ out_vec[:10]
        per_h[h] = (w_any, m_any, w_np, m_np, vec_any, vec_np, out_vec[10])
        # P(this hand busts | dealer blackjack), for a hand of any second card / a non-pair one.
        pbj_h = float(_ca.p_dealer_bj(np.clip(rem, 0, None), up))
        bust_bj[h] = ((float(p @ out_bj) / pbj_h, float(p_np @ out_bj) / pbj_h) if pbj_h > 0
                      else (0.0, 0.0))

    exact: dict[tuple[int, str, int], float] = {}
    if exact_resplits and max_h > 2:
        kmax = max_h - 1
        for h in range(2, max_h + 1):
            b = base.copy()
            b[pair] -= h - 1
            num = np.zeros((10, kmax + 1))
            _ca.split_hand_pass_exact(  # type: ignore[call-arg]  # numba Dispatcher
                b, up, mode, pair, kmax, comps.counts, comps.total, comps.ncards, comps.child,
                *trie, act2, cont_hit, one_card, num,
            )
            rem = b.copy()
            rem[pair] -= 1
            n_h = int(rem.sum())
            non_pair = n_h - int(rem[pair])
            p = rem / n_h
            for k in range(kmax + 1):
                w_np = float(_ca._ff_ratio(non_pair - 1, n_h - 1, k))
                w_p = float(_ca._ff_ratio(non_pair, n_h - 1, k))
                mask = np.arange(10) != pair
                num_np = float(p[mask] @ num[mask, k])
                den_np = float(p[mask].sum()) * w_np
                num_any = float(p @ num[:, k])
                den_any = den_np + float(p[pair]) * w_p
                exact[(h, "np", k)] = num_np / den_np if den_np > 0 else 0.0
                exact[(h, "any", k)] = num_any / den_any if den_any > 0 else 0.0

    # Phase 1: deal second cards; a pair card starts a new hand while hands < max_h.
    c0 = int(base[pair]) - 2
    n0 = int(base.sum()) - 2
    ev = 0.0
    m2 = 0.0
    # state: (hands, open slots, closed with a non-pair card) -> probability
    states: dict[tuple[int, int, int], float] = {(2, 2, 0): 1.0}
    while states:
        nxt: dict[tuple[int, int, int], float] = {}
        for (h, open_, closed), pr in states.items():
            if h == max_h or open_ == 0:
                n_np, n_any = closed, open_
                w_any, m_any, w_np, m_np, vec_any, vec_np, q = per_h[h]
                safe_q = np.where(q > 0, q, 1.0)
                c_nn = float(np.sum(vec_np * vec_np / safe_q))
                c_na = float(np.sum(vec_np * vec_any / safe_q))
                c_aa = float(np.sum(vec_any * vec_any / safe_q))
                if exact:
                    w_np = exact[(h, "np", max(0, n_np - 1))]
                    w_any = exact[(h, "any", n_np)]
                ev += pr * (n_np * w_np + n_any * w_any)
                if lost:
                    b_any, b_np = bust_bj[h]
                    ev += pr * pbj_root * b_np**n_np * b_any**n_any
                m2 += pr * (
                    n_np * m_np + n_any * m_any + n_np * (n_np - 1) * c_nn
                    + 2 * n_np * n_any * c_na + n_any * (n_any - 1) * c_aa
                )
                continue
            drawn = (h - 2) + closed
            left = n0 - drawn
            pp = max(0, c0 - (h - 2)) / left if left > 0 else 0.0
            if pp > 0:
                key = (h + 1, open_ + 1, closed)
                nxt[key] = nxt.get(key, 0.0) + pr * pp
            if pp < 1:
                key = (h, open_ - 1, closed + 1)
                nxt[key] = nxt.get(key, 0.0) + pr * (1 - pp)
        states = nxt
    return ev, m2


def _split_act2(
    rules: Rules, values: _Pass | None, chart_act: dict[tuple[int, bool], str] | None
) -> np.ndarray:
    """Action of each two-card split hand: from pre-split values (CDZ-) or from the chart."""
    comps = _ca.compositions()
    n = len(comps.keys)
    act = np.zeros(n, dtype=np.int64)
    for i in range(n):
        if comps.ncards[i] != 2:
            continue
        total, soft = int(comps.total[i]), bool(comps.soft[i])
        can_double = rules.double_after_split and may_double(rules, total, soft)
        if values is not None:
            best, a = values.stand_v[i], _ca.STAND
            if values.hit_v[i] > best:
                best, a = values.hit_v[i], _ca.HIT
            if can_double and values.dbl_v[i] > best:
                a = _ca.DOUBLE
            act[i] = a
        else:
            assert chart_act is not None
            code = chart_act[(total, soft)]
            act[i] = _code_action(code, can_double=can_double, can_surrender=False)
    return act


def _code_action(code: str, *, can_double: bool, can_surrender: bool) -> int:
    """Kernel action for a chart code when splitting is not an option."""
    if code in ("D", "Ds"):
        if can_double:
            return _ca.DOUBLE
        return _ca.HIT if code == "D" else _ca.STAND
    if code in ("Rh", "Rs"):
        if can_surrender:
            return _ca.SURRENDER
        return _ca.HIT if code == "Rh" else _ca.STAND
    return _ca.HIT if code == "H" else _ca.STAND


def _deal_weights(shoe: np.ndarray) -> dict[tuple[int, int, int], float]:
    """P(up card u, player's two cards {a, b}) off the top of ``shoe``."""
    n = int(shoe.sum())
    out = {}
    for u in range(10):
        pu = shoe[u] / n
        base = shoe.copy()
        base[u] -= 1
        m = n - 1
        for a, b in _two_card_pairs():
            if a == b:
                pab = base[a] * (base[a] - 1) / (m * (m - 1))
            else:
                pab = 2 * base[a] * base[b] / (m * (m - 1))
            out[(u, a, b)] = float(pu * pab)
    return out


_LABEL = {0: "A", 9: "10"}


def _hand_label(a: int, b: int) -> str:
    return f"{_LABEL.get(b, str(b + 1))},{_LABEL.get(a, str(a + 1))}"


def _root_values(
    rules: Rules, up: int, base: np.ndarray, p: _Pass, split_ev: dict[int, tuple[float, float]]
) -> dict[tuple[int, int], np.ndarray]:
    """Per two-card hand: [EV, E[X^2]] of each action, in whole-round terms (nan: not allowed)."""
    comps = _ca.compositions()
    mode = _mode(rules)
    bj = _bj_payout(rules)
    out: dict[tuple[int, int], np.ndarray] = {}
    for a, b in _two_card_pairs():
        i = comps.of((a, b))
        rem = base.copy()
        rem[a] -= 1
        rem[b] -= 1
        pbj = float(_ca.p_dealer_bj(rem, up))
        vals = np.full((5, 2), np.nan)
        if a == _ca.ACE and b == _ca.TEN:
            p_no = 1.0 - pbj
            vals[A_STAND] = (bj * p_no, bj * bj * p_no)
            out[(a, b)] = vals
            continue
        off, moff = (-pbj, pbj) if mode != _ca.MODE_ALL_BETS else (0.0, 0.0)
        vals[A_STAND] = (off + p.stand_v[i], moff + p.stand_m2[i])
        vals[A_HIT] = (off + p.hit_v[i], moff + p.hit_m2[i])
        if may_double(rules, int(comps.total[i]), bool(comps.soft[i])):
            vals[A_DOUBLE] = (off + p.dbl_v[i], moff + p.dbl_m2[i])
        if a == b and a in split_ev:
            sv, sm = split_ev[a]
            vals[A_SPLIT] = (off + sv, moff + sm)
        if rules.surrender == "early":
            vals[A_SURRENDER] = (-0.5, 0.25)
        elif rules.surrender == "late":
            vals[A_SURRENDER] = (-0.5 * (1 - pbj) - pbj, 0.25 * (1 - pbj) + pbj)
        out[(a, b)] = vals
    return out


def _ten_rank_same(decks: int) -> float:
    """P(two ten-valued cards have the same rank): the only ten pairs ``split_by=rank`` splits."""
    return (4 * decks - 1) / (16 * decks - 1)


def _best(vals: np.ndarray, rules: Rules, pair_ten_rank: float | None) -> tuple[float, float]:
    ev = vals[:, 0]
    if pair_ten_rank is not None and not np.isnan(ev[A_SPLIT]):
        no_split = ev.copy()
        no_split[A_SPLIT] = np.nan
        k_no = int(np.nanargmax(no_split))
        k_yes = int(np.nanargmax(ev))
        q = pair_ten_rank
        return (
            q * ev[k_yes] + (1 - q) * ev[k_no],
            q * vals[k_yes, 1] + (1 - q) * vals[k_no, 1],
        )
    k = int(np.nanargmax(ev))
    return float(ev[k]), float(vals[k, 1])


def _build_chart(
    rules: Rules, weights: dict[tuple[int, int, int], float],
    roots: dict[int, dict[tuple[int, int], np.ndarray]],
) -> ChartCells:
    """Total-dependent chart: per row and up card, the action with the best EV summed over
    the two-card hands of that row, each weighted by its probability."""
    hard: dict[int, dict[str, str]] = {t: {} for t in range(4, 22)}
    soft: dict[int, dict[str, str]] = {t: {} for t in range(12, 22)}
    pairs: dict[int, dict[str, str]] = {v: {} for v in range(10)}
    rows: dict[tuple[int, bool], list[tuple[int, int]]] = {}
    for a, b in _two_card_pairs():
        if a == _ca.ACE and b == _ca.TEN:
            continue
        hard_sum = a + b + 2
        total, is_soft = _ca.best_total(hard_sum, int(a == _ca.ACE) + int(b == _ca.ACE))
        rows.setdefault((total, is_soft), []).append((a, b))
    for up in range(10):
        lab = UPCARD_LABELS[up]
        for (total, is_soft), hands in rows.items():
            non_pairs = [h for h in hands if h[0] != h[1]] or hands
            agg = np.zeros(5)
            for a, b in non_pairs:
                ev_row = roots[up][(a, b)][:, 0].copy()
                ev_row[A_SPLIT] = np.nan
                agg += weights[(up, a, b)] * ev_row
            code = _code_of(agg)
            (soft if is_soft else hard)[total][lab] = code
        hard[21][lab] = "S"
        soft[21][lab] = "S"
        for t in range(4, 21):
            hard[t].setdefault(lab, "H")
        for v in range(10):
            vals = roots[up][(v, v)][:, 0]
            total, is_soft = _ca.best_total(2 * v + 2, 2 if v == _ca.ACE else 0)
            row_code = (soft if is_soft else hard)[total][lab]
            if np.isnan(vals[A_SPLIT]):
                pairs[v][lab] = row_code
                continue
            # Split against the row's play without surrender; surrender may still beat both.
            no_sur = {"Rh": "H", "Rs": "S"}.get(row_code, row_code)
            if vals[A_SPLIT] >= _code_value(no_sur, vals):
                sur = vals[A_SURRENDER]
                pairs[v][lab] = "Rp" if not np.isnan(sur) and sur > vals[A_SPLIT] else "P"
            else:
                pairs[v][lab] = row_code
    return ChartCells(hard=hard, soft=soft, pairs={v + 1: row for v, row in pairs.items()})


def _code_of(agg: np.ndarray) -> str:
    k = int(np.nanargmax(agg))
    hs = "H" if agg[A_HIT] > agg[A_STAND] else "S"
    if k == A_DOUBLE:
        return "D" if hs == "H" else "Ds"
    if k == A_SURRENDER:
        return "Rh" if hs == "H" else "Rs"
    return hs


def _code_value(code: str, vals: np.ndarray) -> float:
    """EV of following a total-row code on one hand, with its fallbacks."""
    def ok(k: int) -> bool:
        return not np.isnan(vals[k])

    if code in ("D", "Ds") and ok(A_DOUBLE):
        return float(vals[A_DOUBLE])
    if code in ("Rh", "Rs") and ok(A_SURRENDER):
        return float(vals[A_SURRENDER])
    return float(vals[A_HIT] if code in ("H", "D", "Rh") else vals[A_STAND])


def _chart_arrays(chart: ChartCells, up: int) -> tuple[np.ndarray, dict[tuple[int, bool], str]]:
    comps = _ca.compositions()
    lab = UPCARD_LABELS[up]
    codes: dict[tuple[int, bool], str] = {}
    for t, row in chart.hard.items():
        codes[(t, False)] = row[lab]
    for t, row in chart.soft.items():
        codes[(t, True)] = row[lab]
    n = len(comps.keys)
    hit = np.zeros(n, dtype=np.bool_)
    for i in range(n):
        key = (int(comps.total[i]), bool(comps.soft[i]))
        code = codes.get(key, "S")
        hit[i] = code in ("H", "D", "Rh")
    return hit, codes


def _chart_root(
    vals: np.ndarray, pair_code: str | None, row_code: str
) -> tuple[float, float]:
    """EV and second moment of following the chart on one two-card hand."""
    def ok(k: int) -> bool:
        return not np.isnan(vals[k, 0])

    if pair_code in ("P", "Rp") and ok(A_SPLIT):
        if pair_code == "Rp" and ok(A_SURRENDER):
            return float(vals[A_SURRENDER, 0]), float(vals[A_SURRENDER, 1])
        return float(vals[A_SPLIT, 0]), float(vals[A_SPLIT, 1])
    code = row_code
    if code in ("D", "Ds") and ok(A_DOUBLE):
        k = A_DOUBLE
    elif code in ("Rh", "Rs") and ok(A_SURRENDER):
        k = A_SURRENDER
    else:
        k = A_HIT if code in ("H", "D", "Rh") else A_STAND
    return float(vals[k, 0]), float(vals[k, 1])


#: Keys that change nothing off the top of a full shoe (timing, bets, table, and doubling
#: for less, which optimal play never uses): analyses are shared across them.
IRRELEVANT_KEYS = {
    "penetration": 0.75, "burn_card": True, "pay_naturals_immediately": False,
    "insurance": True, "even_money": True, "min_bet": 100, "max_bet": 10_000, "seats": 7,
    "double_for_less": False,
}


def canonical(rules: Rules) -> Rules:
    """``rules`` with the keys of :data:`IRRELEVANT_KEYS` set to fixed values (and
    ``obo_split_bust``, which only a ``no_peek_obo`` game reads, to its default elsewhere)."""
    fixed = rules.with_(**IRRELEVANT_KEYS)
    if fixed.hole_card != "no_peek_obo" and fixed.obo_split_bust != "counts":
        fixed = fixed.with_(obo_split_bust="counts")
    return fixed


def analyze(rules: Rules, *, exact_resplits: bool = False) -> Analysis:
    """Exact expectation, basic-strategy expectation, variance and dealer probabilities.

    Resplit values use pair-card removal, the method of the published tables the figures
    are checked against; ``exact_resplits=True`` conditions them exactly instead (slower;
    the difference is in docs/maths.md). Cached: tables that differ only in bets, seats,
    penetration and the like share one analysis (about half a second the first time).
    """
    a = _analyze(canonical(rules), exact_resplits)
    return a if a.rules == rules else replace(a, rules=rules)


# -- the disk cache ----------------------------------------------------------------------------
# An analysis depends only on the canonical rules and this code, so it is kept on disk between
# processes: `syndicate odds blackjack` for a rule set seen before answers without numba.
_CODE_FILES = ("odds.py", "_ca.py", "rules.py")


def cache_dir() -> Path | None:
    """``$SYNDICATE_CACHE_DIR`` (``off`` disables), else ``$XDG_CACHE_HOME/syndicate`` or
    ``~/.cache/syndicate``."""
    env = os.environ.get("SYNDICATE_CACHE_DIR")
    if env == "off":
        return None
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "syndicate"


@lru_cache(maxsize=1)
def _code_hash() -> str:
    h = hashlib.sha256()
    for name in _CODE_FILES:
        h.update((Path(__file__).parent / name).read_bytes())
    return h.hexdigest()[:16]


def _cache_path(rules: Rules, exact_resplits: bool) -> Path | None:
    where = cache_dir()
    if where is None:
        return None
    key = json.dumps([rules.to_dict(), exact_resplits, _code_hash()], sort_keys=True)
    return where / "odds" / f"{hashlib.sha256(key.encode()).hexdigest()[:32]}.json"


def _cells(d: dict[str, dict[str, str]]) -> dict[int, dict[str, str]]:
    return {int(k): v for k, v in d.items()}


def _load(path: Path, rules: Rules) -> Analysis | None:
    try:
        d = json.loads(path.read_text(encoding="utf-8"))
        if Rules.from_dict(d["rules"]) != rules:
            return None
        return Analysis(
            rules=rules, expectation_pct=d["expectation_pct"],
            basic_strategy_expectation_pct=d["basic_strategy_expectation_pct"],
            variance=d["variance"], basic_strategy_variance=d["basic_strategy_variance"],
            dealer_probabilities=d["dealer_probabilities"], seconds=d["seconds"],
            chart_cells=ChartCells(**{k: _cells(v) for k, v in d["chart_cells"].items()}),
            hand_values=d["hand_values"], from_cache=True,
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None  # absent, from another version, or damaged: compute afresh


def _store(path: Path, a: Analysis) -> None:
    doc = {**a.to_dict(), "chart_cells": {"hard": a.chart_cells.hard, "soft": a.chart_cells.soft,
                                          "pairs": a.chart_cells.pairs},
           "hand_values": a.hand_values}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(doc), encoding="utf-8")
        os.replace(tmp, path)  # readers see the whole file or none
    except OSError:
        pass  # a read-only home: the answer is still right, only not kept


@lru_cache(maxsize=64)
def _analyze(rules: Rules, exact_resplits: bool = False) -> Analysis:
    path = _cache_path(rules, exact_resplits)
    kept = _load(path, rules) if path is not None else None
    if kept is not None:
        return kept
    a = _compute(rules, exact_resplits)
    if path is not None:
        _store(path, a)
    return a


def _compute(rules: Rules, exact_resplits: bool) -> Analysis:
    t0 = time.perf_counter()
    _ca.compositions()  # built once, before the threads
    shoe = shoe_counts(rules.decks)
    weights = _deal_weights(shoe)
    ten_rank = _ten_rank_same(rules.decks) if rules.split_by == "rank" else None

    bases: dict[int, np.ndarray] = {}
    for up in range(10):
        base = shoe.copy()
        base[up] -= 1
        bases[up] = base
        _ca.dealer_trie(up, rules.dealer_hits_soft_17)  # built once, before the threads

    def cd_upcard(up: int) -> tuple[dict[str, float], dict[tuple[int, int], np.ndarray]]:
        base = bases[up]
        trie = _ca.dealer_trie(up, rules.dealer_hits_soft_17)
        dp = np.zeros(_ca.NOUT)
        _ca.dealer_probs(base, *trie, np.zeros(len(trie[0])), dp)  # type: ignore[call-arg]
        p = _main_pass(base, up, rules, None)
        act2 = _split_act2(rules, p, None)
        split_ev = {}
        if rules.max_split_hands >= 2:
            for pair in range(10):
                split_ev[pair] = _split_value(
                    base, up, pair, rules, act2, p.cont_hit, exact_resplits
                )
        return dict(zip(OUTCOME_LABELS, map(float, dp))), _root_values(rules, up, base, p, split_ev)

    # The kernels release the GIL: two threads keep both cores of a small machine busy.
    with ThreadPoolExecutor(max_workers=_THREADS) as pool:
        done = list(pool.map(cd_upcard, range(10)))
    dealer = {UPCARD_LABELS[up]: done[up][0] for up in range(10)}
    cd_roots = {up: done[up][1] for up in range(10)}

    ev = m2 = 0.0
    for (u, a, b), w in weights.items():
        tr = ten_rank if (a == b == _ca.TEN) else None
        e, m = _best(cd_roots[u][(a, b)], rules, tr)
        ev += w * e
        m2 += w * m

    chart = _build_chart(rules, weights, cd_roots)
    bs_ev, bs_m2 = _chart_moments(rules, chart, exact_resplits)

    hand_values = {
        UPCARD_LABELS[u]: {
            _hand_label(a, b): {
                name: float(cd_roots[u][(a, b)][k, 0])
                for k, name in enumerate(("stand", "hit", "double", "split", "surrender"))
            }
            for (a, b) in _two_card_pairs()
        }
        for u in range(10)
    }
    return Analysis(
        rules=rules,
        expectation_pct=float(100.0 * ev),
        basic_strategy_expectation_pct=float(100.0 * bs_ev),
        variance=float(m2 - ev * ev),
        basic_strategy_variance=float(bs_m2 - bs_ev * bs_ev),
        dealer_probabilities=dealer,
        seconds=time.perf_counter() - t0,
        chart_cells=chart,
        hand_values=hand_values,
    )


def _chart_moments(rules: Rules, chart: ChartCells, exact_resplits: bool = False) -> tuple[float, float]:
    """(E[result], E[result^2]) of playing ``chart`` under ``rules``, off the top of the shoe.
    Separate from :func:`_compute` so that a test can play one chart under two rule sets."""
    shoe = shoe_counts(rules.decks)
    weights = _deal_weights(shoe)
    ten_rank = _ten_rank_same(rules.decks) if rules.split_by == "rank" else None
    bases: dict[int, np.ndarray] = {}
    for up in range(10):
        base = shoe.copy()
        base[up] -= 1
        bases[up] = base
        _ca.dealer_trie(up, rules.dealer_hits_soft_17)  # built once, before the threads

    def chart_upcard(up: int) -> tuple[float, float]:
        hit, codes = _chart_arrays(chart, up)
        p = _main_pass(bases[up], up, rules, hit)
        act2 = _split_act2(rules, None, codes)
        lab = UPCARD_LABELS[up]
        split_ev = {}
        if rules.max_split_hands >= 2:
            for pair in range(10):
                if chart.pairs[pair + 1][lab] in ("P", "Rp"):
                    split_ev[pair] = _split_value(
                        bases[up], up, pair, rules, act2, hit, exact_resplits
                    )
        roots = _root_values(rules, up, bases[up], p, split_ev)
        e_sum = m_sum = 0.0
        for (a, b), vals in roots.items():
            w = weights[(up, a, b)]
            total, is_soft = _ca.best_total(a + b + 2, int(a == 0) + int(b == 0))
            if a == _ca.ACE and b == _ca.TEN:
                e, m = float(vals[A_STAND, 0]), float(vals[A_STAND, 1])
            else:
                pair_code = chart.pairs[a + 1][lab] if a == b else None
                e, m = _chart_root(vals, pair_code, codes[(total, is_soft)])
                if a == b == _ca.TEN and ten_rank is not None and pair_code in ("P", "Rp"):
                    e0, m0 = _chart_root(vals, None, codes[(total, is_soft)])
                    e, m = ten_rank * e + (1 - ten_rank) * e0, ten_rank * m + (1 - ten_rank) * m0
            e_sum += w * e
            m_sum += w * m
        return e_sum, m_sum

    with ThreadPoolExecutor(max_workers=_THREADS) as pool:
        per_up = list(pool.map(chart_upcard, range(10)))
    return sum(e for e, _ in per_up), sum(m for _, m in per_up)
