"""Terminal play at a real terminal (a pty): the Blackjack actions are single keys with no
Enter, ``?`` prints only the hint line, and the bankroll line fits 80 columns. Piped input
keeps working line by line (tests/test_cli.py)."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SEED = "00" * 32
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class Terminal:
    """``syndicate`` on the slave side of a pty, 80 columns wide."""

    def __init__(self, *args: str) -> None:
        self.master, slave = pty.openpty()
        import fcntl
        import struct
        import termios

        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 80, 0, 0))
        env = {**os.environ, "COLUMNS": "80", "LINES": "50", "TERM": "xterm"}
        self.proc = subprocess.Popen([sys.executable, "-m", "syndicate.apps.cli", *args], stdin=slave, stdout=slave,
                                     stderr=slave, env=env, cwd=ROOT, close_fds=True)
        os.close(slave)
        self.out = ""

    def read_until(self, pattern: str, timeout: float = 60) -> str:
        """Everything read so far once ``pattern`` (a regex) appears after ``self.mark``."""
        deadline = time.monotonic() + timeout
        while not re.search(pattern, ANSI.sub("", self.out[self.mark:])):
            left = deadline - time.monotonic()
            assert left > 0, f"no {pattern!r} in:\n{ANSI.sub('', self.out[self.mark:])}"
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:
                    chunk = b""
                assert chunk, f"the game ended before {pattern!r}:\n{ANSI.sub('', self.out)}"
                self.out += chunk.decode("utf-8", errors="replace")
        return ANSI.sub("", self.out[self.mark:])

    mark = 0

    def send(self, keys: str) -> None:
        self.mark = len(self.out)
        os.write(self.master, keys.encode())

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait(10)
        os.close(self.master)


def test_blackjack_actions_are_single_keys_at_a_terminal() -> None:
    t = Terminal("play", "blackjack", "--seed", SEED, "--bankroll", "1000")
    try:
        t.read_until(r"Bet \(")
        t.send("10\r")  # a bet is an amount: typed, then Enter
        t.read_until(r"\[\?\] hint  \[q\]uit: $")
        t.send("?")  # no Enter: the key alone answers
        hint = t.read_until(r"Basic strategy: .*\n.*\[q\]uit: $")
        assert "Dealer" not in hint and "Bankroll:" not in hint  # the hint line, not the table again
        t.send("s")  # stand, no Enter (a hand needing insurance first: 'n' declines it the same way)
        after = t.read_until(r"(This round|\[q\]uit: $)")
        assert "Unknown key" not in after
        whole = ANSI.sub("", t.out)
        bankroll = [line for line in whole.splitlines() if "Bankroll:" in line]
        assert bankroll and all(len(line.rstrip()) <= 80 for line in bankroll)
        assert all(line.rstrip().endswith("on the table") for line in bankroll)  # not wrapped
    finally:
        t.close()


def test_help_names_the_test_and_bench_commands() -> None:
    out = subprocess.run([sys.executable, "-m", "syndicate.apps.cli", "--help"], capture_output=True, text=True,
                         cwd=ROOT, env={**os.environ, "COLUMNS": "200"}, timeout=60)
    assert "./run test" in out.stdout and "./run bench" in out.stdout
