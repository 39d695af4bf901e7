"""Ports for the servers a test starts. A port the kernel hands out for ``bind(0)`` lies in its
ephemeral range, where any outgoing connection of any process (another xdist worker's client,
say) may take it between the moment the test reads it and the moment its server binds it. So a
test's port comes from below that range, from a block of its own per xdist worker, each one
checked free on every interface before it is handed out, and not handed out again by the same
worker until its block wraps around."""

from __future__ import annotations

import itertools
import os
import socket

#: Below Linux's default ephemeral range (32768-60999) and above the well-known services.
_FIRST = 20000
_BLOCK = 600


def _worker() -> int:
    name = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    digits = "".join(c for c in name if c.isdigit())
    return int(digits or 0) % 20


_next = itertools.cycle(range(_BLOCK))


def _free(port: int) -> bool:
    for host in ("0.0.0.0", "127.0.0.1"):
        with socket.socket() as s:
            try:
                s.bind((host, port))
            except OSError:
                return False
    return True


def free_port() -> int:
    """A loopback port no other test worker will pick and nothing listens on now."""
    base = _FIRST + _worker() * _BLOCK
    for _ in range(_BLOCK):
        port = base + next(_next)
        if _free(port):
            return port
    raise RuntimeError(f"no free port in {base}-{base + _BLOCK - 1}")
