"""Monte Carlo play of the basic-strategy chart through real shoes (numba).

One player, heads up against the dealer, plays :func:`syndicate.blackjack.maths.strategy.chart`
for the rules. With a cut card the shoe is dealt until the cut card (``penetration``) comes
out before a round, then reshuffled (and a card burnt if the rules burn one); with
``continuous=True`` every round starts from a full shoe, as off-the-top analysis assumes.

Reproducibility: the rounds are cut into fixed chunks of :data:`CHUNK` rounds; chunk ``k``
draws from its own generator seeded by ``splitmix64(seed, k)`` and starts from a fresh
shoe, and the chunk sums are added in chunk order. Workers only decide which thread runs
which chunk, so a seeded run gives the same figures whatever ``workers`` is.

Cards are dealt in the engine's order (player, dealer up, player, dealer hole), the hole card
being looked at only as the rules allow. Dealing is a lazy Fisher-Yates shuffle: the next
card is drawn uniformly from the cards not yet dealt and swapped into place, which deals
exactly the distribution of a shuffled shoe and costs one random number per card dealt
rather than per card in the shoe.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass

import numpy as np
from numba import njit

from ..rules import Rules
from . import odds
from .strategy import UPCARDS, Chart, chart

#: Rounds per reproducibility chunk.
CHUNK = 1 << 20

# Chart codes as small ints for the kernel.
C_H, C_S, C_D, C_DS, C_P, C_RH, C_RS, C_RP = range(8)
_CODE = {"H": C_H, "S": C_S, "D": C_D, "Ds": C_DS, "P": C_P, "Rh": C_RH, "Rs": C_RS, "Rp": C_RP}
_MASK64 = (1 << 64) - 1
_NO_ORDER = np.zeros(0, dtype=np.int64)


@dataclass(frozen=True)
class SimResult:
    """Simulated expectation (percent of the initial bet, player's view) and its error."""

    rules: Rules
    rounds: int
    seed: int
    workers: int
    continuous: bool
    mean_pct: float
    std_error_pct: float
    ci95_low_pct: float
    ci95_high_pct: float
    variance: float
    seconds: float
    exact_basic_strategy_pct: float

    @property
    def rounds_per_second(self) -> float:
        return self.rounds / self.seconds if self.seconds > 0 else float("inf")

    @property
    def z_score(self) -> float:
        """How many standard errors the simulated mean lies from the exact figure."""
        return (self.mean_pct - self.exact_basic_strategy_pct) / self.std_error_pct

    def to_dict(self) -> dict[str, object]:
        d = asdict(self)
        d["rules"] = self.rules.to_dict()
        d["rounds_per_second"] = self.rounds_per_second
        return d


def splitmix64(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & _MASK64
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


def chunk_seed(seed: int, index: int) -> np.ndarray:
    """The four xoshiro256** state words of chunk ``index`` of a run seeded ``seed``."""
    x = splitmix64((seed & _MASK64) ^ splitmix64(index))
    out = []
    for _ in range(4):
        x = splitmix64(x)
        out.append(x)
    return np.array(out, dtype=np.uint64)


def strategy_tables(c: Chart) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(hard[total, up], soft[total, up], pairs[value, up]) codes; up and value 0 is the ace."""
    hard = np.full((32, 10), C_S, dtype=np.int8)
    soft = np.full((32, 10), C_S, dtype=np.int8)
    pairs = np.full((10, 10), C_S, dtype=np.int8)
    hard[:4, :] = C_H
    for k, lab in enumerate(UPCARDS):
        up = 0 if lab == "A" else int(lab) - 1
        for t, row in c.hard.items():
            hard[t, up] = _CODE[row[lab]]
        for t, row in c.soft.items():
            soft[t, up] = _CODE[row[lab]]
        for v, row in c.pairs.items():
            pairs[v - 1, up] = _CODE[row[lab]]
    return hard, soft, pairs


# -- kernel -------------------------------------------------------------------------------------

@njit(inline="always")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(inline="always")
def _next(s):
    result = _rotl(s[1] * np.uint64(5), 7) * np.uint64(9)
    t = s[1] << np.uint64(17)
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = _rotl(s[3], 45)
    return result


@njit(inline="always")
def _draw(shoe, st, n, s):
    """Deal the next card of a lazily shuffled shoe of ``n`` cards.

    ``st`` holds [next position, first position of this round, reshuffle-next-round flag].
    If the shoe runs dry mid-round, the discards (cards of earlier rounds) are reshuffled
    and dealing goes on, as at a real table; the shoe is then shuffled after the round.
    """
    pos = st[0]
    if pos >= n:
        k = pos - st[1]
        in_play = shoe[st[1]:].copy()  # the cards in play go to the front, the discards follow
        discards = shoe[: st[1]].copy()
        shoe[:k] = in_play
        shoe[k:] = discards
        st[1] = 0
        st[0] = k
        st[2] = 1
        pos = k
    r = _next(s) >> np.uint64(32)
    j = pos + np.int64((r * np.uint64(n - pos)) >> np.uint64(32))
    c = shoe[j]
    shoe[j] = shoe[pos]
    shoe[pos] = c
    st[0] = pos + 1
    return c


@njit(inline="always")
def _may_double(total, soft, double_on):
    if double_on == 0:
        return True
    lo = 9 if double_on == 1 else 10
    return (not soft) and lo <= total <= 11


@njit(cache=True, nogil=True)
def sim_chunk(state, rounds, decks, cut, burn, continuous, h17, bj_pay, double_on, das,
              max_hands, rsa, hsa, surrender, hole, hard_t, soft_t, pair_t, order):
    """Play ``rounds`` rounds; returns (sum of results, sum of squares) in initial bets.

    surrender: 0 none, 1 late, 2 early. hole: 0 peek, 1 no peek (original bets only),
    2 no peek (all bets), 3 no peek (original bets only, a busted split hand lost on its own). A non-empty ``order`` (card values, 0 = ace) replaces the fresh
    shoe; with an all-zero ``state`` (the generator then returns 0 for ever) it is dealt as
    it stands: the round-by-round cross-check against the engine.
    """
    if order.shape[0] > 0:
        n = order.shape[0]
        shoe = order.copy()
    else:
        n = 52 * decks
        shoe = np.empty(n, dtype=np.int64)
        k = 0
        for d in range(decks):
            for v in range(10):
                cnt = 16 if v == 9 else 4
                for _ in range(cnt):
                    shoe[k] = v
                    k += 1
    s = state.copy()
    st = np.zeros(3, dtype=np.int64)
    for _ in range(burn):
        _draw(shoe, st, n, s)
    h_hard = np.zeros(4, dtype=np.int64)
    h_aces = np.zeros(4, dtype=np.int64)
    h_n = np.zeros(4, dtype=np.int64)
    h_first = np.zeros(4, dtype=np.int64)
    h_bet = np.zeros(4, dtype=np.float64)
    h_done = np.zeros(4, dtype=np.bool_)
    h_bust = np.zeros(4, dtype=np.bool_)
    total_sum = 0.0
    total_sq = 0.0
    for _r in range(rounds):
        if continuous:
            st[0] = 0
        elif st[0] >= cut or st[2] == 1:
            st[0] = 0
            st[1] = 0
            st[2] = 0
            for _ in range(burn):
                _draw(shoe, st, n, s)
        st[1] = st[0]
        p1 = _draw(shoe, st, n, s)
        up = _draw(shoe, st, n, s)
        p2 = _draw(shoe, st, n, s)
        hole_c = _draw(shoe, st, n, s)  # dealt now in every game, as the engine does
        p_hard = p1 + p2 + 2
        p_aces = (1 if p1 == 0 else 0) + (1 if p2 == 0 else 0)
        p_soft = p_aces > 0 and p_hard + 10 <= 21
        p_total = p_hard + 10 if p_soft else p_hard
        natural = p_total == 21
        is_pair = p1 == p2
        # The two-card cell: the pair row when it says split or surrender-else-split.
        code = soft_t[p_total, up] if p_soft else hard_t[p_total, up]
        if is_pair and max_hands >= 2:
            pc = pair_t[p1, up]
            if pc == C_P or pc == C_RP:
                code = pc
        wants_surrender = code == C_RH or code == C_RS or code == C_RP
        result = 0.0
        if surrender == 2 and wants_surrender and not natural:
            result = -0.5
            total_sum += result
            total_sq += result * result
            continue
        up_bj_card = up == 0 or up == 9
        if hole == 0 and up_bj_card:
            dealer_bj = (up == 0 and hole_c == 9) or (up == 9 and hole_c == 0)
            if dealer_bj:
                result = 0.0 if natural else -1.0
                total_sum += result
                total_sq += result * result
                continue
        if natural:
            if hole != 0:
                if (up == 0 and hole_c == 9) or (up == 9 and hole_c == 0):
                    continue  # push
            result = bj_pay
            total_sum += result
            total_sq += result * result
            continue
        if surrender == 1 and wants_surrender:
            result = -0.5
            if hole != 0:
                if (up == 0 and hole_c == 9) or (up == 9 and hole_c == 0):
                    result = -1.0
            total_sum += result
            total_sq += result * result
            continue
        # Play the hands.
        nh = 1
        h_hard[0] = p_hard
        h_aces[0] = p_aces
        h_n[0] = 2
        h_first[0] = p1
        h_bet[0] = 1.0
        h_done[0] = False
        h_bust[0] = False
        hi = 0
        split_aces = False
        while hi < nh:
            if h_n[hi] == 1:
                c = _draw(shoe, st, n, s)
                h_hard[hi] += c + 1
                h_aces[hi] += 1 if c == 0 else 0
                h_n[hi] = 2
            while True:
                hard = h_hard[hi]
                soft = h_aces[hi] > 0 and hard + 10 <= 21
                total = hard + 10 if soft else hard
                if hard > 21:
                    h_bust[hi] = True
                    break
                if total == 21:
                    break
                aces_only = split_aces and not hsa
                if aces_only and not (rsa and h_n[hi] == 2 and hard == 2 and nh < max_hands):
                    break  # one card to each split ace, unless it makes a pair to resplit
                two = h_n[hi] == 2
                code = soft_t[total, up] if soft else hard_t[total, up]
                pairnow = two and (h_first[hi] + 1) * 2 == hard
                can_split = pairnow and nh < max_hands and (h_first[hi] != 0 or nh == 1 or rsa)
                if can_split:
                    pc = pair_t[h_first[hi], up]
                    if pc == C_P or pc == C_RP:
                        # Split: this hand keeps one card, a new hand gets the other.
                        v = h_first[hi]
                        h_hard[hi] = v + 1
                        h_aces[hi] = 1 if v == 0 else 0
                        h_n[hi] = 1
                        h_hard[nh] = v + 1
                        h_aces[nh] = 1 if v == 0 else 0
                        h_n[nh] = 1
                        h_first[nh] = v
                        h_bet[nh] = 1.0
                        h_done[nh] = False
                        h_bust[nh] = False
                        nh += 1
                        if v == 0:
                            split_aces = True
                        c = _draw(shoe, st, n, s)
                        h_hard[hi] += c + 1
                        h_aces[hi] += 1 if c == 0 else 0
                        h_n[hi] = 2
                        continue
                if aces_only:
                    break
                can_double = two and _may_double(total, soft, double_on) and (nh == 1 or das)
                if (code == C_D or code == C_DS) and can_double:
                    h_bet[hi] = 2.0
                    c = _draw(shoe, st, n, s)
                    h_hard[hi] += c + 1
                    h_aces[hi] += 1 if c == 0 else 0
                    h_n[hi] += 1
                    if h_hard[hi] > 21:
                        h_bust[hi] = True
                    break
                hit = code == C_H or code == C_D or code == C_RH
                if code == C_P or code == C_RP:
                    # A pair row that cannot split here: play the total's row.
                    tc = soft_t[total, up] if soft else hard_t[total, up]
                    hit = tc == C_H or tc == C_D or tc == C_RH
                if not hit:
                    break
                c = _draw(shoe, st, n, s)
                h_hard[hi] += c + 1
                h_aces[hi] += 1 if c == 0 else 0
                h_n[hi] += 1
            hi += 1
        # Dealer.
        if hole != 0:
            if (up == 0 and hole_c == 9) or (up == 9 and hole_c == 0):
                if hole == 1:
                    result = -1.0
                elif hole == 3:
                    # Busted hands were collected as they busted; the blackjack takes the
                    # original bet from the hands left, if any (the engine's settlement).
                    live = False
                    for i in range(nh):
                        if h_bust[i]:
                            result -= h_bet[i]
                        else:
                            live = True
                    if live:
                        result -= 1.0
                else:
                    result = 0.0
                    for i in range(nh):
                        result -= h_bet[i]
                total_sum += result
                total_sq += result * result
                continue
        live = False
        for i in range(nh):
            if not h_bust[i]:
                live = True
        d_hard = up + hole_c + 2
        d_aces = (1 if up == 0 else 0) + (1 if hole_c == 0 else 0)
        while live:
            d_soft = d_aces > 0 and d_hard + 10 <= 21
            d_total = d_hard + 10 if d_soft else d_hard
            if d_total > 17 or (d_total == 17 and not (d_soft and h17)):
                break
            c = _draw(shoe, st, n, s)
            d_hard += c + 1
            d_aces += 1 if c == 0 else 0
        d_soft = d_aces > 0 and d_hard + 10 <= 21
        d_total = d_hard + 10 if d_soft else d_hard
        for i in range(nh):
            if h_bust[i]:
                result -= h_bet[i]
                continue
            hard = h_hard[i]
            total = hard + 10 if (h_aces[i] > 0 and hard + 10 <= 21) else hard
            if d_total > 21 or total > d_total:
                result += h_bet[i]
            elif total < d_total:
                result -= h_bet[i]
        total_sum += result
        total_sq += result * result
    return total_sum, total_sq


def _hole_code(rules: Rules) -> int:
    if rules.hole_card == "no_peek_obo" and rules.obo_split_bust == "lost":
        return 3
    return {"peek": 0, "no_peek_obo": 1, "no_peek_all": 2}[rules.hole_card]


def _kernel_args(rules: Rules, continuous: bool) -> tuple[object, ...]:
    hard, soft, pairs = strategy_tables(chart(rules))
    n = 52 * rules.decks
    burn = 1 if rules.burn_card else 0
    cut = max(burn + 1, int(n * rules.penetration))
    num, den = (int(x) for x in rules.blackjack_pays.split(":"))
    return (
        rules.decks, cut, burn, continuous, rules.dealer_hits_soft_17, num / den,
        {"any": 0, "9-11": 1, "10-11": 2}[rules.double_on], rules.double_after_split,
        rules.max_split_hands, rules.resplit_aces, rules.hit_split_aces,
        {"none": 0, "late": 1, "early": 2}[rules.surrender],
        _hole_code(rules),
        hard, soft, pairs, _NO_ORDER,
    )


def simulate(
    rules: Rules,
    rounds: int,
    seed: int = 1,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
    continuous: bool = False,
) -> SimResult:
    """Play ``rounds`` rounds of the basic-strategy chart; see the module docstring."""
    if rounds < 2:
        raise ValueError("simulate needs at least 2 rounds")
    if workers < 1:
        raise ValueError("workers must be at least 1")
    args = _kernel_args(rules, continuous)
    exact = odds.analyze(rules).basic_strategy_expectation_pct
    sizes = [CHUNK] * (rounds // CHUNK) + ([rounds % CHUNK] if rounds % CHUNK else [])
    sums = [0.0] * len(sizes)
    sqs = [0.0] * len(sizes)
    t0 = time.perf_counter()

    def run(k: int) -> int:
        sums[k], sqs[k] = sim_chunk(chunk_seed(seed, k), sizes[k], *args)
        return sizes[k]

    done = 0
    if workers == 1 or len(sizes) == 1:
        for k in range(len(sizes)):
            done += run(k)
            if progress:
                progress(done, rounds)
    else:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            for size in pool.map(run, range(len(sizes))):
                done += size
                if progress:
                    progress(done, rounds)
    seconds = time.perf_counter() - t0
    total = math.fsum(sums)
    sq = math.fsum(sqs)
    mean = total / rounds
    var = max(0.0, (sq - rounds * mean * mean) / (rounds - 1))
    se = math.sqrt(var / rounds)
    return SimResult(
        rules=rules, rounds=rounds, seed=seed, workers=workers, continuous=continuous,
        mean_pct=100 * mean, std_error_pct=100 * se,
        ci95_low_pct=100 * (mean - 1.96 * se), ci95_high_pct=100 * (mean + 1.96 * se),
        variance=var, seconds=seconds, exact_basic_strategy_pct=exact,
    )


def warm_up(rules: Rules | None = None) -> None:
    """Compile the kernel (numba caches it on disk afterwards)."""
    r = rules or Rules()
    sim_chunk(chunk_seed(0, 0), 10, *_kernel_args(r, True))
