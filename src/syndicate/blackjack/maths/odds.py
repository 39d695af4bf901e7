"""Exact expectation of Blackjack by combinatorial analysis of a full shoe.

:func:`analyze` computes, for a set of house rules and a freshly shuffled shoe:

* the player's expectation under the optimal composition-dependent strategy, split hands
  played by the same strategy as unsplit hands of the same cards (the "CDZ-" convention of
  published analyzers);
* the expectation under the total-dependent basic strategy chart derived from the same
  analysis (:mod:`syndicate.blackjack.maths.strategy` draws it);
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

from ..rules import Rules


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
_play: Any = _OnFirstUse("._ca_play", "_play")
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


def _bj_payout(rules: Rules) -> float:
    num, den = (int(x) for x in rules.blackjack_pays.split(":"))
    return num / den


def _mode(rules: Rules) -> int:
    if rules.hole_card == "no_peek_all":
        return _ca.MODE_ALL_BETS
    if rules.hole_card == "no_peek_obo" and rules.obo_split_bust == "lost":
        return _ca.MODE_OBO_LOST
    return _ca.MODE_EXCLUDE_BJ


def _ten_rank_same(decks: int) -> float:
    """P(two ten-valued cards have the same rank): the only ten pairs ``split_by=rank`` splits."""
    return (4 * decks - 1) / (16 * decks - 1)


# -- the analysis -------------------------------------------------------------------------------

#: The chart's codes by their number in the kernels (``_ca.C_H`` ...).
CODES = ("H", "S", "D", "Ds", "Rh", "Rs", "P", "Rp")
_CODE_NUMBER = {c: i for i, c in enumerate(CODES)}
_ACTIONS = ("stand", "hit", "double", "split", "surrender")
_LABEL = {0: "A", 9: "10"}


def _hand_label(a: int, b: int) -> str:
    return f"{_LABEL.get(b, str(b + 1))},{_LABEL.get(a, str(a + 1))}"


@dataclass
class _UpCard:
    """What :func:`_ca.analyze_upcard` writes for one up card."""

    dealer: np.ndarray = field(default_factory=lambda: np.zeros(_ca.NOUT))
    roots: np.ndarray = field(default_factory=lambda: np.full((10, 10, 5, 2), np.nan))
    moments: np.ndarray = field(default_factory=lambda: np.zeros(4))
    hard: np.ndarray = field(default_factory=lambda: np.zeros(22, dtype=np.int64))
    soft: np.ndarray = field(default_factory=lambda: np.zeros(22, dtype=np.int64))
    pairs: np.ndarray = field(default_factory=lambda: np.zeros(10, dtype=np.int64))


def _run(rules: Rules, exact_resplits: bool, chart: ChartCells | None) -> list[_UpCard]:
    """Every up card's analysis (:func:`_ca.analyze_upcard`), two at a time: the kernel
    releases the GIL, so two threads keep both cores of a small machine busy. With ``chart``
    only the chart's play is valued."""
    comps = _ca.compositions()
    shoe = shoe_counts(rules.decks)
    tries = [_ca.dealer_trie(up, rules.dealer_hits_soft_17) for up in range(10)]  # built before the threads
    ten_rank = _ten_rank_same(rules.decks) if rules.split_by == "rank" else -1.0
    out = [_UpCard() for _ in range(10)]
    if chart is not None:
        for up, u in enumerate(out):
            lab = UPCARD_LABELS[up]
            for t, row in chart.hard.items():
                u.hard[t] = _CODE_NUMBER[row[lab]]
            for t, row in chart.soft.items():
                u.soft[t] = _CODE_NUMBER[row[lab]]
            for v, row in chart.pairs.items():
                u.pairs[v - 1] = _CODE_NUMBER[row[lab]]
    args = (_mode(rules), _bj_payout(rules), ("none", "late", "early").index(rules.surrender),
            ("any", "9-11", "10-11").index(rules.double_on), rules.double_after_split, rules.max_split_hands,
            rules.resplit_aces, rules.hit_split_aces, ten_rank, exact_resplits, comps)

    def one(up: int) -> None:
        u = out[up]
        _play.analyze_upcard(shoe, up, *args, tries[up], chart is not None, u.hard, u.soft, u.pairs,
                           u.dealer, u.roots, u.moments)

    with ThreadPoolExecutor(max_workers=_THREADS) as pool:
        list(pool.map(one, range(10)))
    return out


def _chart_cells(ups: list[_UpCard]) -> ChartCells:
    hard: dict[int, dict[str, str]] = {t: {} for t in range(4, 22)}
    soft: dict[int, dict[str, str]] = {t: {} for t in range(12, 22)}
    pairs: dict[int, dict[str, str]] = {v: {} for v in range(1, 11)}
    for up, u in enumerate(ups):
        lab = UPCARD_LABELS[up]
        for t in hard:
            hard[t][lab] = CODES[u.hard[t]]
        for t in soft:
            soft[t][lab] = CODES[u.soft[t]]
        for v in pairs:
            pairs[v][lab] = CODES[u.pairs[v - 1]]
    return ChartCells(hard=hard, soft=soft, pairs=pairs)


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
    penetration and the like share one analysis (a tenth of a second of CPU the first time:
    docs/benchmarks.md).
    """
    a = _analyze(canonical(rules), exact_resplits)
    return a if a.rules == rules else replace(a, rules=rules)


# -- the disk cache ----------------------------------------------------------------------------
# An analysis depends only on the canonical rules and this code, so it is kept on disk between
# processes: `syndicate odds blackjack` for a rule set seen before answers without numba.
_CODE_FILES = ("odds.py", "_ca.py", "_ca_splits.py", "_ca_play.py", "../rules.py")


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
    ups = _run(rules, exact_resplits, None)
    ev = sum(float(u.moments[0]) for u in ups)
    m2 = sum(float(u.moments[1]) for u in ups)
    bs_ev = sum(float(u.moments[2]) for u in ups)
    bs_m2 = sum(float(u.moments[3]) for u in ups)
    pairs = [(a, b) for a in range(10) for b in range(a, 10)]
    return Analysis(
        rules=rules,
        expectation_pct=float(100.0 * ev),
        basic_strategy_expectation_pct=float(100.0 * bs_ev),
        variance=float(m2 - ev * ev),
        basic_strategy_variance=float(bs_m2 - bs_ev * bs_ev),
        dealer_probabilities={UPCARD_LABELS[up]: dict(zip(OUTCOME_LABELS, map(float, u.dealer)))
                              for up, u in enumerate(ups)},
        seconds=time.perf_counter() - t0,
        chart_cells=_chart_cells(ups),
        hand_values={UPCARD_LABELS[up]: {_hand_label(a, b): dict(zip(_ACTIONS, map(float, u.roots[a, b, :, 0])))
                                         for a, b in pairs}
                     for up, u in enumerate(ups)},
    )


def compile_kernels() -> None:
    """Compile the kernels into numba's cache (``./run`` does it once after installing): the
    first analysis of a fresh install otherwise waits for it, and so would every test process
    that meets it first, each compiling its own copy. Exact resplits' kernel is compiled too
    (the simulator's: :func:`syndicate.blackjack.maths.simulate.warm_up`)."""
    _compute(Rules(decks=1), False)
    _compute(Rules(decks=1), True)


def _chart_moments(rules: Rules, chart: ChartCells, exact_resplits: bool = False) -> tuple[float, float]:
    """(E[result], E[result^2]) of playing ``chart`` under ``rules``, off the top of the shoe.
    Separate from :func:`_compute` so that a test can play one chart under two rule sets."""
    ups = _run(rules, exact_resplits, chart)
    return sum(float(u.moments[2]) for u in ups), sum(float(u.moments[3]) for u in ups)
