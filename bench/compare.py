"""One benchmark on two versions of the code, side by side in one run: the runs alternate
(A, B, A, B, ...) so that the machine's noise falls on both alike, and the medians and their
ratio are printed.

Each version is a checkout (a ``git worktree`` of the other commit, say): its bench script runs
with that checkout's ``src`` first on the path, in this project's environment. Compiled modules
(mypyc's ``.so`` files) are the checkout's own: copy them over when comparing pure-Python changes,
so both sides run the same compiled engine.

    git worktree add --detach ../base d10b825
    python bench/compare.py --base ../base --runs 5 --metric 'CPU ([0-9.]+) ms per change' \\
        -- bench/bench_room_cpu.py --tables 20 --seconds 10

``--same-driver`` runs this checkout's bench script (and so its load generator) for both, and
only the processes it starts (``syndicate serve``, which finds the package on ``PYTHONPATH``)
run each checkout's code: for benchmarks of the server, such as bench_cluster.py.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def run(tree: Path, script: list[str], metric: re.Pattern[str], timeout: float,
        driver: Path | None = None) -> tuple[float | None, str]:
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    home = driver or tree
    out = subprocess.run([sys.executable, str(home / script[0]), *script[1:]], cwd=home, env=env,
                         capture_output=True, text=True, timeout=timeout)
    text = out.stdout + out.stderr
    found = metric.findall(text)
    if out.returncode != 0 or not found:
        return None, text
    value = found[-1]
    return float(value[0] if isinstance(value, tuple) else value), text


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", type=Path, required=True, help="the other checkout (A)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--metric", required=True, help="a regular expression whose first group is the figure")
    ap.add_argument("--timeout", type=float, default=900)
    ap.add_argument("--same-driver", action="store_true",
                    help="this checkout's bench script drives both; only the servers it starts differ")
    ap.add_argument("script", nargs="+", help="the bench script (relative to the checkouts) and its arguments")
    args = ap.parse_args()
    metric = re.compile(args.metric)
    trees = {"base": args.base.resolve(), "this": HERE}
    figures: dict[str, list[float]] = {k: [] for k in trees}
    for i in range(args.runs):
        for label, tree in trees.items():
            value, text = run(tree, args.script, metric, args.timeout, HERE if args.same_driver else None)
            if value is None:
                print(f"run {i + 1} {label}: no figure\n{text[-2000:]}", file=sys.stderr)
                return 1
            figures[label].append(value)
            print(f"run {i + 1} {label}: {value:g}", flush=True)
    base, this = (statistics.median(figures[k]) for k in ("base", "this"))
    print(f"median base {base:g}, this {this:g}: this/base = {this / base:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
