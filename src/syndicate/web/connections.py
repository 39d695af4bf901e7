"""Hostile connections: what the server does before a request reaches the app.

uvicorn has no timeout for an unfinished request header and no cap per client address, so a
few hundred half-sent requests (slowloris) hold as many sockets, and with them the process's
open files, for ever. :func:`uvicorn_options` gives ``syndicate serve`` an HTTP protocol that

- closes a connection whose request line and headers have not all arrived ``header_timeout``
  seconds after it opened (or after its first byte, on a kept-alive connection): 408;
- closes one whose request body stops arriving for ``body_idle_timeout`` seconds: 408;
- refuses a connection beyond ``per_address`` open ones from the same address, or beyond
  ``total`` open ones in all, at once (503 and close), before reading anything.

Kept-alive connections idle between requests close after ``keep_alive_timeout`` (uvicorn's
own timer); an open WebSocket says hello within 10 s and answers pings (docs/protocol.md).
Behind a front proxy every connection comes from the proxy's address: list it in ``exempt``
(``--proxy-address``) and let the proxy cap each client (docs/deployment.md, docs/security.md).

:data:`CLIENT_LOG` writes the server's lines about a client's misbehaviour at most ``burst``
times a ``window`` per address, so a client cannot fill the disk through the log.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

log = logging.getLogger(__name__)


class ClientLog:
    """Log lines keyed by client address, at most ``burst`` per ``window`` seconds each; the
    next line after a quiet spell says how many were left out."""

    MAX_CLIENTS = 10_000  # memory bound: the least recently heard-of addresses are forgotten

    def __init__(self, logger: logging.Logger, burst: int = 10, window: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.logger, self.burst, self.window, self.clock = logger, burst, window, clock
        self._seen: OrderedDict[str | None, list[float | int]] = OrderedDict()  # start, lines, dropped

    def warning(self, client: str | None, msg: str, *args: Any) -> bool:
        """Log ``msg % args`` about ``client`` unless it is over its budget; whether it was."""
        now = self.clock()
        entry = self._seen.pop(client, None)
        if entry is None or now - entry[0] >= self.window:
            dropped = int(entry[2]) if entry is not None else 0
            entry = [now, 0, 0]
            if dropped:
                msg += f" ({dropped} more lines about {client} were left out)"
        self._seen[client] = entry
        while len(self._seen) > self.MAX_CLIENTS:
            self._seen.popitem(last=False)
        if entry[1] >= self.burst:
            entry[2] += 1
            return False
        entry[1] += 1
        self.logger.warning("%s: " + msg, client, *args)
        return True


CLIENT_LOG = ClientLog(logging.getLogger("syndicate.web.clients"))


def where(e: BaseException) -> str:
    """``TypeError at live.py:123``: enough to find a bug, nothing of what the client sent
    (an exception's message may quote it)."""
    tb = e.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    at = f" at {os.path.basename(tb.tb_frame.f_code.co_filename)}:{tb.tb_lineno}" if tb is not None else ""
    return f"{type(e).__name__}{at}"


@dataclass(frozen=True)
class ConnectionLimits:
    """The limits of :func:`uvicorn_options` (docs/deployment.md)."""

    header_timeout: float = 10.0
    body_idle_timeout: float = 30.0
    keep_alive_timeout: int = 5
    per_address: int = 256  # a casino's players may share one address (NAT): a few sockets each
    total: int = 8192  # keep well under LimitNOFILE: each connection is one open file
    exempt: frozenset[str] = frozenset()  # front proxies: capped by ``total`` only


REFUSED_LINGER = 1.0  # seconds a refused connection is read (and ignored) before it is closed


def _response(status: bytes, rule: str, message: str) -> bytes:
    body = ('{"error": {"rule": "%s", "message": "%s"}}' % (rule, message)).encode()
    return (b"HTTP/1.1 " + status + b"\r\ncontent-type: application/json\r\nconnection: close\r\n"
            b"content-length: " + str(len(body)).encode() + b"\r\n\r\n" + body)


def guarded_protocol(limits: ConnectionLimits, base: type[asyncio.Protocol] | None = None) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol class (``base``, default the one uvicorn picks) with the limits.
    Each call makes a class with its own count of open connections (one per server)."""
    if base is None:
        from uvicorn.protocols.http.auto import AutoHTTPProtocol as base  # noqa: N813
    # transports by address; a closed one is dropped when next counted (after a WebSocket
    # upgrade the transport's protocol is uvicorn's, so connection_lost never reaches us)
    open_by_address: dict[str, weakref.WeakSet[asyncio.BaseTransport]] = {}
    every: weakref.WeakSet[asyncio.BaseTransport] = weakref.WeakSet()

    def live(transports: weakref.WeakSet[asyncio.BaseTransport]) -> int:
        for t in [t for t in transports if t.is_closing()]:
            transports.discard(t)
        return len(transports)

    def full(transports: weakref.WeakSet[asyncio.BaseTransport], limit: int) -> bool:
        """At least ``limit`` open. The set may still hold closed transports, so it is swept
        only when its size reaches the limit: a sweep per new connection made a storm of N
        connections cost N² (2,400 players reconnecting after a restart)."""
        return len(transports) >= limit and live(transports) >= limit

    class Guarded(base):  # type: ignore[misc, valid-type]
        _refused = False
        _phase: str | None = None  # "headers" or "body" while a deadline runs
        _timer: asyncio.TimerHandle | None = None
        _cycle_seen: object = None

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            peer = transport.get_extra_info("peername")
            address = str(peer[0]) if isinstance(peer, tuple) and peer else "unix"
            self._address = address
            over = None
            if full(every, limits.total):
                over = "the server has as many connections as it takes: try again shortly"
            elif address not in limits.exempt:
                mine = open_by_address.setdefault(address, weakref.WeakSet())
                if full(mine, limits.per_address):
                    over = f"at most {limits.per_address} connections from one address"
            if over is not None:
                self._refused = True
                self.transport = transport
                CLIENT_LOG.warning(address, "connection refused: %s", over)
                transport.write(_response(b"503 Service Unavailable", "connections", over))  # type: ignore[attr-defined]
                # Closing with the client's request unread would reset the connection and lose
                # the answer: end our side, read and drop what comes, close in a moment.
                if transport.can_write_eof():  # type: ignore[attr-defined]
                    transport.write_eof()  # type: ignore[attr-defined]
                asyncio.get_running_loop().call_later(REFUSED_LINGER, transport.close)
                return
            every.add(transport)
            if address not in limits.exempt:
                open_by_address[address].add(transport)
                if len(open_by_address) > 4 * limits.total:  # forget addresses long gone
                    for a in [a for a, ts in open_by_address.items() if not live(ts)]:
                        del open_by_address[a]
            super().connection_made(transport)
            self._await_headers()

        def _await_headers(self) -> None:
            self._phase, self._cycle_seen = "headers", self.cycle
            self._arm(limits.header_timeout)

        def _arm(self, seconds: float) -> None:
            if self._timer is not None:
                self._timer.cancel()
            self._timer = asyncio.get_running_loop().call_later(seconds, self._expired)

        def _disarm(self) -> None:
            self._phase = None
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

        def _expired(self) -> None:
            self._timer = None
            cycle = self.cycle
            if self._phase == "body" and (cycle is None or cycle.response_complete or self.flow.read_paused):
                self._phase = None  # answered already, or the app is slow to read: not the client's doing
                return
            what = "request headers" if self._phase == "headers" else "request body"
            CLIENT_LOG.warning(self._address, "%s not received in time: connection closed", what)
            self._phase = None
            transport = cast(asyncio.Transport, self.transport)  # uvicorn's: a stream transport
            if not transport.is_closing():
                transport.write(_response(b"408 Request Timeout", "timeout", f"the {what} did not arrive in time"))
                transport.close()

        def data_received(self, data: bytes) -> None:
            if self._refused:
                return
            if self._phase is None and (self.cycle is None or self.cycle.response_complete):
                self._await_headers()  # the next request on a kept-alive connection
            super().data_received(data)
            if self._phase is None or self.transport.is_closing():
                return
            cycle = self.cycle
            if cycle is self._cycle_seen and self._phase == "headers":
                return  # the headers are still coming: the deadline stands
            if cycle is None or not cycle.more_body or cycle.response_complete:
                self._disarm()
            else:  # headers in; the body is still coming: it may pause, not stop
                self._phase, self._cycle_seen = "body", cycle
                self._arm(limits.body_idle_timeout)

        def handle_websocket_upgrade(self, *args: Any) -> None:
            self._disarm()  # the socket says hello within its own deadline (live.py)
            super().handle_websocket_upgrade(*args)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if not self._refused:
                super().connection_lost(exc)

        def shutdown(self) -> None:
            if not self._refused:
                super().shutdown()

    Guarded.__name__ = Guarded.__qualname__ = f"Guarded{Guarded.__mro__[1].__name__}"
    return Guarded


def uvicorn_options(limits: ConnectionLimits | None = None) -> dict[str, Any]:
    """The options ``syndicate serve`` gives uvicorn for hostile connections."""
    limits = limits or ConnectionLimits()
    return {"http": guarded_protocol(limits), "timeout_keep_alive": limits.keep_alive_timeout}
