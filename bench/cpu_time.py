"""Run a benchmark script timed in CPU time: ``time.perf_counter`` becomes
``time.process_time`` for the script, and its figures are printed without thousands separators
(so that ``bench/compare.py --metric`` can read them).

On a shared machine a benchmark's wall time is mostly the neighbours'; the process's own CPU time
is what an engine change moves. For benchmarks whose work runs in this one process (the engines),
not for those whose servers run elsewhere.

    .venv/bin/python bench/cpu_time.py bench/bench_blackjack.py --rounds 20000 --repeats 3
"""

from __future__ import annotations

import contextlib
import io
import runpy
import sys
import time


def main() -> None:
    if len(sys.argv) < 2:
        raise SystemExit("usage: cpu_time.py SCRIPT [ARGS...]")
    script = sys.argv[1]
    sys.argv = [script, *sys.argv[2:]]
    time.perf_counter = time.process_time  # type: ignore[assignment]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        runpy.run_path(script, run_name="__main__")
    print(out.getvalue().replace(",", ""))


if __name__ == "__main__":
    main()
