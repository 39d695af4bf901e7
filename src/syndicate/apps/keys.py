"""One key, no Enter: terminal play reads a single keypress when standard input is a terminal,
and whole lines otherwise (a script or a pipe, as the tests drive the games)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import TextIO


def read_key(prompt: str, *, stdin: TextIO | None = None, stdout: TextIO | None = None) -> str:
    """Show ``prompt``, wait for one keypress and return it (echoed, then a new line).

    The terminal is in cbreak mode only while waiting: Ctrl-C still interrupts, and Ctrl-D
    raises EOFError as ``input`` does. A key that sends several bytes at once (an arrow, F1)
    comes back whole, so it is refused as one unknown key rather than read as several."""
    import termios
    import tty

    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stdout.write(prompt)
    stdout.flush()
    fd = stdin.fileno()
    old = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd, termios.TCSANOW)
        data = os.read(fd, 32)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)
    key = data.decode("utf-8", errors="replace")
    if key in ("", "\x04"):
        stdout.write("\n")
        raise EOFError
    shown = key if key.isprintable() else repr(key)
    stdout.write(("" if key in ("\r", "\n") else shown) + "\n")
    stdout.flush()
    return "" if key in ("\r", "\n") else key


def key_reader(input_fn: Callable[[str], str]) -> Callable[[str], str]:
    """``read_key`` when play reads the real terminal (``input_fn`` is ``input`` and standard
    input is a TTY); otherwise ``input_fn`` itself, one line per answer."""
    if input_fn is input and sys.stdin.isatty():
        return read_key
    return input_fn
