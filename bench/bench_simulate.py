"""Rounds per second of our simulator against py21, side by side in one run.

Run: .venv/bin/python bench/bench_simulate.py
Not a pass/fail test: prints a markdown table and writes it to docs/benchmarks.md.
"""

from __future__ import annotations

import datetime as _dt
import os
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from syndicate.blackjack.rules import Rules
from syndicate.blackjack.simulate import simulate, warm_up

RULES = Rules(decks=6, surrender="late")
OUR_ROUNDS = 40_000_000
PY21_ROUNDS = 30_000
REPEATS = 3


def py21_rate() -> float:
    import py21

    game = py21.Game([py21.Player(10**12)], seed=1)
    t = time.perf_counter()
    for _ in range(PY21_ROUNDS):
        game.play_round()
    return PY21_ROUNDS / (time.perf_counter() - t)


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


def main() -> str:
    warm_up(RULES)
    simulate(RULES, 1_000_000, seed=0, workers=2)  # threads and analysis warm
    rows = {}
    for workers in (1, 2):
        rates = [simulate(RULES, OUR_ROUNDS, seed=r, workers=workers).rounds_per_second
                 for r in range(REPEATS)]
        rows[f"syndicate simulate, {workers} worker(s)"] = statistics.median(rates)
    peer = "py21 1.6.0 (`Game.play_round` loop)"
    rows[peer] = statistics.median(py21_rate() for _ in range(REPEATS))
    base = rows[peer]
    lines = [
        "## Simulation (`bench/bench_simulate.py`)",
        "",
        f"Command: `.venv/bin/python bench/bench_simulate.py` — "
        f"{_dt.datetime.now(_dt.UTC):%Y-%m-%d %H:%M} UTC, "
        f"{os.cpu_count()} CPUs. 6 decks S17 DAS LS, cut card at 75%, basic-strategy chart, "
        f"{OUR_ROUNDS:,} rounds per run for ours and {PY21_ROUNDS:,} for py21 "
        f"(`py21.Game([py21.Player(10**12)], seed=1).play_round()`); median of {REPEATS} runs.",
        "",
        "| Simulator | Rounds/s (median) | Ratio to py21 |",
        "|---|---:|---:|",
    ]
    for name, rate in rows.items():
        lines.append(f"| {name} | {rate:,.0f} | {rate / base:,.0f}× |")
    lines += ["", f"Load average during the run: {os.getloadavg()[0]:.2f} (the machine is shared: "
              "with another job on one core, two workers run no faster than one)."]
    lines += ["", "Target: at least 10 million rounds/s on this 2-core machine.", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    text = main()
    print(text)
    out = Path(__file__).resolve().parents[1] / "docs" / "benchmarks.md"
    write_section(out, "simulate", text)
