"""Every benchmark in bench/ still runs (issue 16): each on its smallest real run (the arguments in
bench/run.py's QUICK, the same as ``./run bench --quick``), as a subprocess, ends with exit code 0
and prints its figures. Peers that are not installed (the ``bench`` extra) are reported as missing,
not a crash. Two run at a time (the machine has two cores); the figures themselves are never
checked: timings are not pass/fail."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"
sys.path.insert(0, str(BENCH))
import run as bench_run  # noqa: E402  (bench/run.py: the benchmarks and their quick arguments)

#: A benchmark still running after this many seconds hangs: it is stopped, with its servers and
#: load processes (a liveness bound, generous for a first numba compile on a busy machine).
HANG = 300

#: The line of figures each benchmark prints (a number where the figure is).
FIGURES = {
    "bench_blackjack.py": r"^\| 5 \| [\d,]+ \| ",
    "bench_cluster.py": r"^\s+pg1\s+1\s+[\d.]+\s+\d+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s",
    "bench_odds.py": r"^\| 8 decks S17 DAS split-4 LS \| \d+\.\d+ \| ",
    "bench_poker.py": r"^\| syndicate DrawHand \| [\d,.]+M? \| [\d,.]+M? \|$",
    "bench_room.py": r"^\s+1\s+4\s+0\.0\s+[\d.]+\s+0\s+[\d.]+\s+[\d.]+\s+[\d.]+\s",
    "bench_room_cpu.py": r"^1 tables: \d+ hands, \d+ table changes in [\d.]+ s",
    "bench_simulate.py": r"^\| syndicate simulate, 2 worker\(s\) \| [\d,]+ \| ",
    "bench_startup.py": r"^\| `GET /api/tables/\{id\}/odds`, the same again \| \d+\.\d+ \| ",
    "bench_transport.py": r"^20 sockets, think 0 ms, 7 frames of 2500 bytes per action: [\d.]+ actions/s, server CPU ",
    "bench_views.py": r"^draw, 5 hands, \d+ changes: views [\d.]+ us per change \(6 viewers\), history [\d.]+ us",
    "bench_writer.py": r"^writer CPU per table change, median of \d+ \(\d+ writes\): pooled \d+ us, serial \d+ us",
}
SCRIPTS = [s.name for s in bench_run.scripts()]
# The slowest first, so that the two lanes end together.
ORDER = ["bench_cluster.py", "bench_room.py", "bench_startup.py", "bench_room_cpu.py", "bench_odds.py"]


def _run(name: str) -> tuple[int, str]:
    """The benchmark's quick run: exit code and output (stdout and stderr)."""
    p = subprocess.Popen(bench_run.command(BENCH / name, quick=True), cwd=ROOT, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        out, _ = p.communicate(timeout=HANG)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)  # the bench and every server and process it started
        out, _ = p.communicate()
        return -1, f"{out}\n[still running after {HANG} s: stopped]"
    return p.returncode, out


@pytest.fixture(scope="module")
def runs(request: pytest.FixtureRequest) -> Iterator[dict[str, Future[tuple[int, str]]]]:
    """The selected benchmarks' runs, started together, two at a time."""
    chosen = {item.callspec.params["script"] for item in request.session.items
              if item.module is request.module and "script" in getattr(getattr(item, "callspec", None), "params", {})}
    pool = ThreadPoolExecutor(2)
    ordered = sorted(chosen, key=lambda n: ORDER.index(n) if n in ORDER else len(ORDER))
    yield {name: pool.submit(_run, name) for name in ordered}
    pool.shutdown(cancel_futures=True)


def test_every_benchmark_has_quick_arguments_and_a_figures_line() -> None:
    assert SCRIPTS, "no benchmark found in bench/"
    assert set(bench_run.QUICK) == set(SCRIPTS), "bench/run.py QUICK: one entry per bench_*.py, no other"
    assert set(FIGURES) == set(SCRIPTS), "FIGURES: the figures line of every benchmark"


def test_run_lists_every_benchmark_with_its_quick_arguments() -> None:
    out = subprocess.run([sys.executable, str(BENCH / "run.py"), "--list"], capture_output=True, text=True,
                         timeout=60, check=True).stdout
    for name in SCRIPTS:
        assert re.search(rf"^{re.escape(name)}\s+--quick: {re.escape(' '.join(bench_run.QUICK[name]))}$", out, re.M)
    wrong = subprocess.run([sys.executable, str(BENCH / "run.py"), "bench_nothing"], capture_output=True, text=True,
                           timeout=60)
    assert wrong.returncode == 2 and "no such benchmark: bench_nothing" in wrong.stderr


@pytest.mark.parametrize("script", SCRIPTS)
def test_the_benchmark_runs_and_prints_its_figures(script: str, runs: dict[str, Future[tuple[int, str]]]) -> None:
    docs = (ROOT / "docs" / "benchmarks.md").read_text()
    code, out = runs[script].result()
    assert code == 0, f"{script} {' '.join(bench_run.QUICK[script])} ended with {code}:\n{out[-3000:]}"
    assert re.search(FIGURES[script], out, re.M), f"{script} printed no figures line:\n{out[-3000:]}"
    assert "Traceback" not in out, out[-3000:]
    assert (ROOT / "docs" / "benchmarks.md").read_text() == docs, "a quick run must not rewrite the document"
