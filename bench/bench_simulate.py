"""Rounds per second of our simulator against py21, side by side in one run.

Run: .venv/bin/python bench/bench_simulate.py [--quick]
Not a pass/fail test: prints a markdown table and writes it to docs/benchmarks.md
(``--quick``: a few hundred thousand rounds, one run, printed only; the smoke test's run).
Without py21 installed (it comes with ``./run bench``) ours is measured alone.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import os
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from syndicate.blackjack.maths.simulate import simulate, warm_up
from syndicate.blackjack.rules import Rules

RULES = Rules(decks=6, surrender="late")
OUR_ROUNDS = 40_000_000
PY21_ROUNDS = 30_000
REPEATS = 3


def py21_rate(rounds: int) -> float | None:
    """py21's rounds per second, None when it is not installed."""
    try:
        import py21
    except ImportError:
        return None
    game = py21.Game([py21.Player(10**12)], seed=1)
    t = time.perf_counter()
    for _ in range(rounds):
        game.play_round()
    return rounds / (time.perf_counter() - t)


_HEADER = """# Benchmarks: odds and simulation

Written by `bench/bench_odds.py` and `bench/bench_simulate.py` (each rewrites its own section).
Timings are informative, never pass/fail tests. The peers: py21 1.6.0 from PyPI, run side by
side in the same process; the C++ analyzer and numba simulator quoted in issue 4 are not
installed here, so only their published figures are mentioned.
"""


def write_section(path: Path, key: str, text: str) -> None:
    """Replace (or add) the section between markers ``key`` in the benchmarks file."""
    start, end = f"<!-- bench:{key} -->", f"<!-- /bench:{key} -->"
    block = f"{start}\n{text}\n{end}"
    old = path.read_text() if path.exists() else _HEADER
    if start in old:
        new = re.sub(re.escape(start) + ".*?" + re.escape(end), lambda _m: block, old, flags=re.DOTALL)
    else:
        new = old.rstrip("\n") + "\n\n" + block + "\n"
    path.write_text(new)


def main(quick: bool = False) -> str:
    ours_rounds, py21_rounds, repeats = (200_000, 1_000, 1) if quick else (OUR_ROUNDS, PY21_ROUNDS, REPEATS)
    warm_up(RULES)
    simulate(RULES, ours_rounds // 40 if quick else 1_000_000, seed=0, workers=2)  # threads and analysis warm
    rows = {}
    for workers in (1, 2):
        rates = [simulate(RULES, ours_rounds, seed=r, workers=workers).rounds_per_second
                 for r in range(repeats)]
        rows[f"syndicate simulate, {workers} worker(s)"] = statistics.median(rates)
    peer = "py21 1.6.0 (`Game.play_round` loop)"
    peer_rates = [py21_rate(py21_rounds) for _ in range(repeats)]
    base = statistics.median(r for r in peer_rates if r is not None) if None not in peer_rates else None
    if base is not None:
        rows[peer] = base
    lines = [
        "## Simulation (`bench/bench_simulate.py`)",
        "",
        f"Command: `.venv/bin/python bench/bench_simulate.py{' --quick' if quick else ''}` — "
        f"{_dt.datetime.now(_dt.UTC):%Y-%m-%d %H:%M} UTC, "
        f"{os.cpu_count()} CPUs. 6 decks S17 DAS LS, cut card at 75%, basic-strategy chart, "
        f"{ours_rounds:,} rounds per run for ours and {py21_rounds:,} for py21 "
        f"(`py21.Game([py21.Player(10**12)], seed=1).play_round()`); median of {repeats} runs.",
        "",
        "| Simulator | Rounds/s (median) | Ratio to py21 |",
        "|---|---:|---:|",
    ]
    for name, rate in rows.items():
        lines.append(f"| {name} | {rate:,.0f} | {f'{rate / base:,.0f}×' if base else ''} |")
    if base is None:
        lines.append("| py21 (not installed: `./run bench` installs it) | | |")
    lines += ["", f"Load average during the run: {os.getloadavg()[0]:.2f} (the machine is shared: "
              "with another job on one core, two workers run no faster than one)."]
    lines += ["", "Target: at least 10 million rounds/s on this 2-core machine.", ""]
    return "\n".join(lines)

if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a few hundred thousand rounds, one run, print only")
    args = ap.parse_args()
    text = main(args.quick)
    print(text)
    if not args.quick:  # a quick run's figures are too rough for the document
        write_section(Path(__file__).resolve().parents[1] / "docs" / "benchmarks.md", "simulate", text)
