"""The names the card room answers to: a request or a WebSocket whose ``Host`` is none of them is
refused (400, rule ``host``) before anything else reads it.

A page on another site can make a browser send requests to this server under the other site's
name (DNS rebinding: the attacker's name resolves to this server's address). The browser then
treats the answers as that site's own, and the CSRF check passes, since ``Origin`` equals
``Host``. So the ``Host`` must be a name of this room:

- the address the connection reached (the server's own address and port: ``192.168.1.20:8000``
  on a LAN, ``127.0.0.1:8000`` on this machine);
- ``localhost`` (and ``*.localhost``, or another loopback address) at the server's port, when
  the connection reached a loopback address: a name no other site can take;
- the public URL's host (``--public-url``), the trusted origins' hosts, and each
  ``--allowed-host`` (``casino.local``, or ``casino.local:8000`` for that port only).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

from ..room.errors import BadRequest
from .connections import CLIENT_LOG

#: a Host header: a name or an IPv4 address, or an IPv6 address in brackets; then a port
HOST = re.compile(r"(?:\[(?P<ip6>[0-9A-Fa-f:.]+)\]|(?P<name>[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})))(?::(?P<port>\d{1,5}))?")
DEFAULT_PORT = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def split_host(text: str) -> tuple[str, int | None] | None:
    """``"Casino.local:8000"`` → ``("casino.local", 8000)``, ``"[::1]"`` → ``("::1", None)``;
    None for anything else (a path, credentials, a bad port)."""
    m = HOST.fullmatch(text)
    if m is None:
        return None
    port = int(m["port"]) if m["port"] else None
    if port is not None and not 0 < port < 65536:
        return None
    name = (m["ip6"] or m["name"]).lower().rstrip(".")
    if m["ip6"]:
        try:
            name = str(ipaddress.IPv6Address(name))
        except ValueError:
            return None
    return name, port


def allowed_host(text: str) -> str:
    """An ``--allowed-host`` checked: a host name or address, with a port or not
    (``casino.local``, ``casino.local:8000``, ``[fe80::1]:8000``); refused (rule
    ``allowed_host``) otherwise, a URL included."""
    parts = split_host(text.strip())
    if parts is None:
        raise BadRequest("allowed_host", f"an allowed host is a name or an address, with a port or not "
                                         f"(casino.local, casino.local:8000), not a URL: got {text[:100]!r}")
    return _shown(*parts)


def _shown(name: str, port: int | None) -> str:
    host = f"[{name}]" if ":" in name else name
    return host if port is None else f"{host}:{port}"


def _ip(name: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(name)
    except ValueError:
        return None


def reached(name: str, port: int, server: Any) -> bool:
    """Whether ``name:port`` is the address the connection reached (``server``, the ASGI
    scope's ``(address, port)``)."""
    there = tuple(server) if isinstance(server, (tuple, list)) and len(server) == 2 else None
    if there is None or there[1] != port:
        return False
    own = str(there[0]).lower()
    ip = _ip(name)
    return name == own or (ip is not None and ip == _ip(own))


def _loopback(name: str) -> bool:
    ip = _ip(name)
    return ip.is_loopback if ip is not None else name == "localhost" or name.endswith(".localhost")


@dataclass(frozen=True)
class Hosts:
    """The names this room is served under, besides the address each connection reached."""

    #: the public URL's host (at any port), the trusted origins' (at their port, if they name one)
    known: tuple[tuple[str, int | None], ...] = ()
    #: the ``--allowed-host`` names, each at its port if it names one
    added: tuple[tuple[str, int | None], ...] = ()

    @classmethod
    def of(cls, public_url: str | None = None, trusted_origins: Iterable[str] = (),
           allowed: Iterable[str] = ()) -> Hosts:
        known: list[tuple[str, int | None]] = []
        for url in ([public_url] if public_url else []) + list(trusted_origins):
            parts = split_host(urlsplit(url).netloc)
            if parts is not None:  # behind a proxy the server sees its own port, not the public one
                known.append((parts[0], None if url == public_url else parts[1]))
        added = []
        for text in allowed:
            parts = split_host(allowed_host(text))
            assert parts is not None
            added.append(parts)
        return cls(tuple(dict.fromkeys(known)), tuple(dict.fromkeys(added)))

    def is_added(self, name: str, port: int) -> bool:
        """Whether ``name`` at ``port`` is one of the ``--allowed-host`` names."""
        return any(name == n and (p is None or p == port) for n, p in self.added)

    def allows(self, host: str | None, scheme: str, server: Any) -> bool:
        """Whether a request with this ``Host`` header, over ``scheme``, that reached the
        server's address ``server`` (``(address, port)``), is for this room."""
        parts = split_host(host or "")
        if parts is None:
            return False
        name, port = parts
        at = port if port is not None else DEFAULT_PORT.get(scheme, 80)
        if reached(name, at, server):
            return True
        there = tuple(server) if isinstance(server, (tuple, list)) and len(server) == 2 else None
        if there is not None and there[1] == at and _loopback(str(there[0]).lower()) and _loopback(name):
            return True  # localhost, reached over loopback: a name no other site can take
        return self.is_added(name, at) or any(name == n and (p is None or p == at) for n, p in self.known)

    def refusal(self, host: str | None) -> BadRequest:
        shown = (host or "")[:100]
        return BadRequest("host", f"this card room is not served under the name {shown!r} (the Host the request "
                                  "was sent to): open it at its own address, or, if the name is yours, start the "
                                  "server with --allowed-host for it (or --public-url, the address players use)")


class HostGuard:
    """Refuse (400, rule ``host``) an HTTP request or a WebSocket whose ``Host`` is not one of
    the room's (:class:`Hosts`), before the app sees it. A WebSocket is refused with the same
    answer where the server can send one, else closed (1008) before it is accepted."""

    def __init__(self, app: ASGIApp, hosts: Hosts) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        from starlette.datastructures import Headers

        host = Headers(scope=scope).get("host")
        if self.hosts.allows(host, scope.get("scheme", "http"), scope.get("server")):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        CLIENT_LOG.warning(client[0] if client else None, "request for the host %r refused", (host or "")[:100])
        e = self.hosts.refusal(host)
        from starlette.responses import JSONResponse

        answer = JSONResponse({"error": {"rule": e.rule, "message": e.message}}, status_code=e.status)
        if scope["type"] == "http":
            await answer(scope, receive, send)
        elif "websocket.http.response" in scope.get("extensions", {}):
            await send({"type": "websocket.http.response.start", "status": e.status, "headers": answer.raw_headers})
            await send({"type": "websocket.http.response.body", "body": answer.body})
        else:
            await send({"type": "websocket.close", "code": 1008, "reason": "host"})
