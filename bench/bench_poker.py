"""Poker benchmark: our evaluator and draw engine side by side with their peers, in one run.

    .venv/bin/python bench/bench_poker.py            # full run (results go in docs/benchmarks.md)
    .venv/bin/python bench/bench_poker.py --quick    # smaller samples, prints only
    .venv/bin/python bench/bench_poker.py --hands 5000 --repeats 1   # smaller still (the smoke test)

Every figure is the median of several repeats over the same pre-generated hands, each
library fed its own native card objects (conversion is not timed). Ratios are ours / peer.
Timings are information, never a pass/fail test.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from syndicate.core.cards import DECK
from syndicate.core.shoe import Shoe
from syndicate.poker import evaluate, evaluate_batch
from syndicate.poker.dealing import deal_hand
from syndicate.poker.draw import DrawHand
from syndicate.poker.rules import DrawRules
from syndicate.poker.state import DRAW, SETTLED


# -- evaluators -------------------------------------------------------------------------------
def interleaved(runs: dict[str, Callable[[], int]], repeats: int) -> dict[str, float]:
    """Median rate per entry, the entries taking turns in every repeat, so that a burst of
    load on the machine hits every library alike rather than whichever ran at the time."""
    rates: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeats):
        for name, fn in runs.items():
            t = time.perf_counter()
            count = fn()
            rates[name].append(count / (time.perf_counter() - t))
    return {name: statistics.median(r) for name, r in rates.items()}


def evaluator_rates(n: int, batch_n: int, repeats: int) -> dict[str, float]:
    rng = np.random.default_rng(20261201)
    idx = np.argsort(rng.random((n, 52)), axis=1)[:, :5].astype(np.uint8)
    texts = [[DECK[i].text for i in row] for row in idx.tolist()]
    out: dict[str, Callable[[], int]] = {}

    ours = [[DECK[i] for i in row] for row in idx.tolist()]

    def run_ours() -> int:
        ev = evaluate
        for h in ours:
            ev(h)
        return n

    out["syndicate evaluate"] = run_ours

    big = np.argsort(rng.random((batch_n, 52)), axis=1)[:, :5].astype(np.uint8)
    evaluate_batch(big[:1000])  # compile (or load the cached kernel) before timing

    def run_batch() -> int:
        evaluate_batch(big)
        return batch_n

    out["syndicate evaluate_batch"] = run_batch

    try:
        from treys import Card as TCard
        from treys import Evaluator

        tev = Evaluator()
        tsplit = [([TCard.new(t) for t in h[:2]], [TCard.new(t) for t in h[2:]]) for h in texts]

        def run_treys() -> int:
            f = tev.evaluate
            for a, b in tsplit:
                f(a, b)
            return n

        out["treys evaluate"] = run_treys
    except ImportError:
        pass
    try:
        import eval7

        e7 = [[eval7.Card(t) for t in h] for h in texts]

        def run_eval7() -> int:
            f = eval7.evaluate
            for h in e7:
                f(h)
            return n

        out["eval7 evaluate"] = run_eval7
    except ImportError:
        pass
    try:
        # The raw C entry point: phevaluator's fastest Python-callable API.
        from phevaluator import _pheval  # type: ignore[import-untyped]
        from phevaluator.evaluator import Card as PCard  # type: ignore[import-untyped]

        ph = [tuple(PCard(t).id_ for t in h) for h in texts]
        # Same 1..7462 convention: check we are timing the same answers.
        assert all(_pheval.evaluate_5cards(*p) == evaluate(h).rank for p, h in zip(ph[:2000], ours))

        def run_ph() -> int:
            f = _pheval.evaluate_5cards
            for a, b, c, d, e in ph:
                f(a, b, c, d, e)
            return n

        out["phevaluator evaluate_5cards (C)"] = run_ph
    except ImportError:
        pass
    try:
        from pokerkit import Card as KCard
        from pokerkit import StandardHighHand

        kn = min(n, 50_000)
        pk = [tuple(KCard.parse("".join(h))) for h in texts[:kn]]

        def run_pk() -> int:
            for h in pk:
                StandardHighHand(h)
            return kn

        out["pokerkit StandardHighHand"] = run_pk
    except ImportError:
        pass
    return interleaved(out, repeats)


# -- full hands -------------------------------------------------------------------------------
RULES = DrawRules()


def play_ours(players: int, k: int) -> DrawHand:
    """The scripted hand both engines play: the first player bets $1, everyone calls, each
    player draws three, everyone checks the second round, showdown."""
    shoe = Shoe.from_seed(k.to_bytes(32, "big"), decks=1, penetration=1.0, burn=0)
    hand = deal_hand(RULES, {s: 10_000 for s in range(players)}, players - 1, shoe)
    opened = False
    while hand.phase != SETTLED:
        s = hand.to_act
        assert s is not None
        if hand.phase == DRAW:
            hand.draw(s, hand.cards[s][:3])
        elif not opened:
            hand.bet(s, 100)
            opened = True
        elif hand.current_bet > hand.street[s]:
            hand.call(s)
        else:
            hand.check(s)
    return hand


def pokerkit_player() -> Callable[[int], object] | None:
    try:
        from pokerkit import Automation, Mode, NoLimitDeuceToSevenLowballSingleDraw
    except ImportError:
        return None
    autos = (Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
             Automation.CARD_BURNING, Automation.HOLE_DEALING, Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
             Automation.HAND_KILLING, Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING)

    def play(players: int) -> object:
        st = NoLimitDeuceToSevenLowballSingleDraw.create_state(
            autos, True, 50, 0, 50, (10_000,) * players, players, mode=Mode.CASH_GAME)
        opened = False
        while st.status:
            if st.can_stand_pat_or_discard():
                who = st.stand_patter_or_discarder_index
                assert who is not None
                st.stand_pat_or_discard(st.hole_cards[who][:3])
            elif not opened and st.can_complete_bet_or_raise_to():
                st.complete_bet_or_raise_to(100)
                opened = True
            else:
                st.check_or_call()
        return st

    return play


def hand_rates(n_ours: int, n_pk: int, repeats: int) -> dict[tuple[str, int], float]:
    runs: dict[str, Callable[[], int]] = {}
    pk = pokerkit_player()
    for players in (3, 6):
        def ours(players: int = players) -> int:
            for k in range(n_ours):
                play_ours(players, k)
            return n_ours

        runs[f"syndicate DrawHand|{players}"] = ours
        if pk is not None:
            def theirs(players: int = players) -> int:
                for _ in range(n_pk):
                    pk(players)  # type: ignore[misc]
                return n_pk

            runs[f"pokerkit NoLimitDeuceToSevenLowballSingleDraw|{players}"] = theirs
    rates = interleaved(runs, repeats)
    return {(k.split("|")[0], int(k.split("|")[1])): v for k, v in rates.items()}


def fmt(rate: float) -> str:
    return f"{rate / 1e6:,.2f}M" if rate >= 1e6 else f"{rate:,.0f}"


def report(ev: dict[str, float], hands: dict[tuple[str, int], float], command: str) -> str:
    ours_single = ev["syndicate evaluate"]
    ours_batch = ev["syndicate evaluate_batch"]
    lines = [
        "# Poker benchmarks",
        "",
        f"Measured {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC on {platform.machine()} "
        f"({os.cpu_count()} cores), Python {platform.python_version()}, with:",
        "",
        f"    {command}",
        "",
        "Medians of several repeats, in one run, over the same random hands (each library fed",
        "its own card objects; conversion not timed). The libraries take turns within every",
        "repeat, so load on the machine falls on all alike. Ratios are ours divided by the peer.",
        "",
        "## Five-card hand evaluation (hands/s)",
        "",
        "| evaluator | hands/s | `evaluate` vs it | `evaluate_batch` vs it |",
        "|---|---:|---:|---:|",
    ]
    for name, rate in sorted(ev.items(), key=lambda kv: -kv[1]):
        lines.append(f"| {name} | {fmt(rate)} | {ours_single / rate:.2f}x | {ours_batch / rate:.1f}x |")
    lines += [
        "",
        "Targets: `evaluate` at least 2x treys; `evaluate_batch` at least 3x phevaluator's raw C.",
        "",
        "## Full five-card draw hands (hands/s)",
        "",
        "The same scripted hand in both engines: antes, deal, the first player bets $1 and",
        "everyone calls, everyone draws three, the second round is checked, showdown. Ours",
        "includes shuffling a fresh committed deck per hand. PokerKit has no high-hand",
        "five-card draw; its closest game is No-Limit Deuce-to-Seven Lowball Single Draw (same",
        "structure: five private cards, a betting round, one draw, a betting round).",
        "",
        "| engine | 3 players | 6 players |",
        "|---|---:|---:|",
    ]
    engines = sorted({name for name, _p in hands})
    for name in engines:
        lines.append(f"| {name} | {fmt(hands[(name, 3)])} | {fmt(hands[(name, 6)])} |")
    pk = "pokerkit NoLimitDeuceToSevenLowballSingleDraw"
    if (pk, 3) in hands:
        lines.append(
            f"| **ratio ours / PokerKit** | **{hands[('syndicate DrawHand', 3)] / hands[(pk, 3)]:.1f}x** | "
            f"**{hands[('syndicate DrawHand', 6)] / hands[(pk, 6)]:.1f}x** |"
        )
    lines += ["", "Target: at least 10x PokerKit.", ""]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller samples, do not write the doc")
    ap.add_argument("--out", default=None, help="also write the report to this file")
    ap.add_argument("--hands", type=int, default=None,
                    help="hands per evaluator run (default 200,000, --quick 50,000); the batch and "
                         "full-hand samples scale with it")
    ap.add_argument("--repeats", type=int, default=None, help="repeats per figure (default 5, --quick 3)")
    args = ap.parse_args()
    # evaluator hands, batch hands, our full hands, PokerKit's full hands, repeats
    n, batch_n, ours_n, pk_n, repeats = (50_000, 2_000_000, 300, 40, 3) if args.quick \
        else (200_000, 10_000_000, 2000, 200, 5)
    if args.hands:  # every sample in proportion
        scale = args.hands / n
        n, batch_n, ours_n, pk_n = (max(least, round(x * scale)) for x, least in
                                    ((n, 100), (batch_n, 1000), (ours_n, 10), (pk_n, 2)))
    repeats = args.repeats or repeats
    ev = evaluator_rates(n, batch_n, repeats)
    hands = hand_rates(ours_n, pk_n, repeats)
    command = " ".join([".venv/bin/python bench/bench_poker.py", *sys.argv[1:]])
    text = report(ev, hands, command)
    print(text)
    if args.out:
        Path(args.out).write_text(text)
        print(f"written to {args.out}")


if __name__ == "__main__":
    main()
