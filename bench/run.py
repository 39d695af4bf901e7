"""Run the benchmarks in bench/, one after the other (`./run bench`).

    ./run bench                      every benchmark with its own defaults (many minutes)
    ./run bench --quick              every benchmark on its smallest real run (what the smoke test runs)
    ./run bench --list               the benchmarks and their quick arguments
    ./run bench bench_room bench_odds --quick    only these

A benchmark that fails does not stop the others; the run ends with the list of those that
failed and a non-zero exit.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: The smallest arguments that still run each benchmark's real code path end to end (servers,
#: load processes, peers when installed) in a few seconds. tests/test_bench_smoke.py runs
#: exactly these, and fails for a benchmark missing here.
QUICK: dict[str, list[str]] = {
    "bench_blackjack.py": ["--rounds", "200", "--repeats", "1"],
    "bench_cluster.py": ["--tables", "2", "--players", "2", "--seconds", "1", "--think", "0", "--warmup", "0.5",
                         "--procs", "1", "--configs", "sqlite,pg1"],
    "bench_odds.py": ["--quick"],
    "bench_poker.py": ["--hands", "5000", "--repeats", "1"],
    "bench_room.py": ["--tables", "1", "--players", "2", "--spectators", "1", "--seconds", "1", "--think", "0",
                      "--warmup", "0.5", "--procs", "1"],
    "bench_room_cpu.py": ["--tables", "1", "--seconds", "1"],
    "bench_simulate.py": ["--quick"],
    "bench_startup.py": ["--repeats", "1"],
    "bench_transport.py": ["--sockets", "20", "--think", "0", "--seconds", "1"],
    "bench_views.py": ["--hands", "5"],
    "bench_writer.py": ["--seconds", "0.5", "--rounds", "1"],
}


def scripts() -> list[Path]:
    """Every benchmark, by name."""
    return sorted(HERE.glob("bench_*.py"))


def command(script: Path, quick: bool) -> list[str]:
    """How to run ``script``: with its defaults, or with its quick arguments."""
    if quick and script.name not in QUICK:
        raise SystemExit(f"{script.name} has no quick arguments: add it to QUICK in {Path(__file__).name}")
    return [sys.executable, str(script), *(QUICK[script.name] if quick else [])]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="*", help="only these benchmarks (bench_room or bench_room.py)")
    ap.add_argument("--quick", action="store_true", help="each on its smallest real run")
    ap.add_argument("--list", action="store_true", help="list the benchmarks and their quick arguments")
    args = ap.parse_args(argv)
    chosen = scripts()
    if args.names:
        wanted = {n.removesuffix(".py") for n in args.names}
        unknown = wanted - {s.stem for s in chosen}
        if unknown:
            ap.error(f"no such benchmark: {', '.join(sorted(unknown))} (see --list)")
        chosen = [s for s in chosen if s.stem in wanted]
    if args.list:
        for s in chosen:
            print(f"{s.name:<20} --quick: {' '.join(QUICK.get(s.name, ['(none)']))}")
        return 0
    failed = []
    for script in chosen:
        print(f"\n## {script.name}\n", flush=True)
        if subprocess.run(command(script, args.quick), check=False).returncode != 0:
            failed.append(script.name)
    if failed:
        print(f"\nFailed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
