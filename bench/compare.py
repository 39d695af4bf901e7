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

``--metric`` may be given several times (each figure gets its medians and ratio). With
``--same-script`` both sides run *this* checkout's bench script, with the other checkout's
``src`` on ``PYTHONPATH``: for a bench whose measured code runs in processes it starts (the
servers of ``bench_cluster.py``), so the instrument is the same and only the servers differ.
The machine's load average is printed with each run.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def run(tree: Path, script: list[str], metrics: list[re.Pattern[str]], timeout: float,
        script_tree: Path | None = None) -> tuple[list[float] | None, str, int]:
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    where = script_tree or tree
    out = subprocess.run([sys.executable, str(where / script[0]), *script[1:]], cwd=where, env=env,
                         capture_output=True, text=True, timeout=timeout)
    text = out.stdout + out.stderr
    values = []
    for metric in metrics:
        found = metric.findall(text)
        if not found:  # this figure is missing (a configuration that could not run): NaN, the others count
            values.append(math.nan)
            continue
        value = found[-1]
        values.append(float(value[0] if isinstance(value, tuple) else value))
    if all(math.isnan(v) for v in values):
        return None, text, out.returncode
    # A bench that measured and then failed (bench_cluster: some clients failed) still has its
    # figures; the caller says that it failed.
    return values, text, out.returncode


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", type=Path, required=True, help="the other checkout (A)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--metric", required=True, action="append",
                    help="a regular expression whose first group is the figure (repeat for several)")
    ap.add_argument("--timeout", type=float, default=900)
    ap.add_argument("--same-script", "--same-driver", dest="same_script", action="store_true",
                    help="run this checkout's bench script on both sides (see above)")
    ap.add_argument("--log", type=Path, default=None, help="append each run's whole output to this file")
    ap.add_argument("script", nargs="+", help="the bench script (relative to the checkouts) and its arguments")
    args = ap.parse_args()
    metrics = [re.compile(m, re.MULTILINE) for m in args.metric]
    trees = {"base": args.base.resolve(), "this": HERE}
    figures: dict[str, list[list[float]]] = {k: [] for k in trees}
    for i in range(args.runs):
        for label, tree in trees.items():
            load = " ".join(f"{x:.2f}" for x in os.getloadavg())
            values, text, code = run(tree, args.script, metrics, args.timeout, HERE if args.same_script else None)
            if args.log:
                with args.log.open("a") as f:
                    f.write(f"=== run {i + 1} {label} (load average before: {load})\n{text}\n")
            if values is None:
                print(f"run {i + 1} {label}: no figure\n{text[-2000:]}", file=sys.stderr)
                return 1
            figures[label].append(values)
            shown = ", ".join(f"{v:g}" for v in values)
            failed = f", exit code {code}: see its output" if code else ""
            print(f"run {i + 1} {label}: {shown} (load average before the run: {load}{failed})", flush=True)
    for j, metric in enumerate(args.metric):
        base, this = (statistics.median([v[j] for v in figures[k] if not math.isnan(v[j])] or [math.nan])
                      for k in ("base", "this"))
        ratio = f"{this / base:.3f}" if base else "n/a"
        print(f"{metric}: median base {base:g}, this {this:g}: this/base = {ratio}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
