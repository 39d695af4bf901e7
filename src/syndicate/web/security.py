"""Hostile input: rate limits on sign-in and on live actions, the CSRF check of the browser's
cookie, and the registry that closes the sockets of a signed-out account.

The counters live in the memory of the server process, so a restart forgets them; with several
processes (``serve --redis``) the sign-in failures are counted in Redis, shared by all
(:class:`SharedSignInLimiter`).
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

from ..room.errors import RoomError

log = logging.getLogger(__name__)
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


@dataclass(frozen=True)
class Limits:
    """The limits ``create_app(limits=...)`` enforces (docs/server.md, docs/protocol.md)."""

    #: failed sign-ins for one account name (in one event) within ``sign_in_window`` seconds
    sign_in_failures_per_name: int = 10
    #: failed sign-ins from one client address within the window (a casino's players may share one)
    sign_in_failures_per_address: int = 50
    sign_in_window: float = 300.0
    #: live messages per connection: a token bucket refilled at this rate, holding at most ``burst``
    actions_per_second: float = 100.0
    action_burst: int = 200
    #: seconds one outgoing message may wait for a client's TCP window: a client that stopped
    #: reading is let go after this (its socket handler ends and it leaves the table)
    send_timeout: float = 10.0


class RateLimited(RoomError):
    status = 429

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__("rate_limit", message)
        self.retry_after = max(1, math.ceil(retry_after))


class SignInLimiter:
    """Failed sign-ins in a sliding window, per account name and per client address. A key over
    its limit is refused (429) before the password is even checked, until its oldest failure
    leaves the window; a successful sign-in neither counts nor is blocked by another name's
    failures (only by its own name's or its address's)."""

    MAX_KEYS = 100_000  # memory bound: the oldest keys are forgotten first

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self._failures: OrderedDict[tuple[str, ...], deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def _keys(self, event_id: int, name: object, address: str | None) -> list[tuple[tuple[str, ...], int]]:
        keys: list[tuple[tuple[str, ...], int]] = [
            (("name", str(event_id), str(name).casefold()), self.limits.sign_in_failures_per_name)]
        if address:
            keys.append((("address", address), self.limits.sign_in_failures_per_address))
        return keys

    def check(self, event_id: int, name: object, address: str | None) -> None:
        """Raise :class:`RateLimited` if this name or address has failed too often lately."""
        now = self.clock()
        window = self.limits.sign_in_window
        with self._lock:
            for key, limit in self._keys(event_id, name, address):
                q = self._failures.get(key)
                if q is None:
                    continue
                while q and q[0] <= now - window:
                    q.popleft()
                if len(q) >= limit:
                    what = "this account" if key[0] == "name" else "your address"
                    raise RateLimited(f"too many failed sign-ins for {what}: try again later",
                                      q[0] + window - now)

    def failed(self, event_id: int, name: object, address: str | None) -> None:
        now = self.clock()
        with self._lock:
            for key, _ in self._keys(event_id, name, address):
                q = self._failures.pop(key, None) or deque()
                q.append(now)
                self._failures[key] = q  # most recently failed last
            while len(self._failures) > self.MAX_KEYS:
                self._failures.popitem(last=False)


class SharedSignInLimiter(SignInLimiter):
    """:class:`SignInLimiter` for several processes: each key's failures are a sorted set in
    Redis (scored by wall-clock time), so trying names or passwords on every process in turn
    gains nothing. If Redis cannot be reached it falls back to this process's own counters
    rather than refusing every sign-in."""

    def __init__(self, limits: Limits, redis_url: str, prefix: str,
                 clock: Callable[[], float] = time.time) -> None:
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        super().__init__(limits, clock)
        self.prefix = prefix
        self.redis = redis.Redis.from_url(redis_url, socket_timeout=1, socket_connect_timeout=1,
                                          retry=Retry(NoBackoff(), 0))

    def _rkey(self, key: tuple[str, ...]) -> str:
        return f"{self.prefix}:signin:" + ":".join(key)

    def check(self, event_id: int, name: object, address: str | None) -> None:
        import redis

        now, window = self.clock(), self.limits.sign_in_window
        keys = self._keys(event_id, name, address)
        try:
            pipe = self.redis.pipeline(transaction=False)
            for key, _ in keys:
                pipe.zremrangebyscore(self._rkey(key), "-inf", now - window)
                pipe.zrange(self._rkey(key), 0, 0, withscores=True)
                pipe.zcard(self._rkey(key))
            got = pipe.execute()
        except redis.RedisError as e:
            log.warning("sign-in limits: Redis unreachable (%s); counting in this process", e)
            return super().check(event_id, name, address)
        for i, (key, limit) in enumerate(keys):
            oldest, count = got[3 * i + 1], got[3 * i + 2]
            if count >= limit:
                what = "this account" if key[0] == "name" else "your address"
                raise RateLimited(f"too many failed sign-ins for {what}: try again later",
                                  oldest[0][1] + window - now)

    def failed(self, event_id: int, name: object, address: str | None) -> None:
        import redis

        now = self.clock()
        try:
            pipe = self.redis.pipeline(transaction=False)
            for key, _ in self._keys(event_id, name, address):
                member = f"{now!r}:{os.urandom(4).hex()}"
                pipe.zadd(self._rkey(key), {member: now})
                pipe.expire(self._rkey(key), math.ceil(self.limits.sign_in_window))
            pipe.execute()
        except redis.RedisError:
            super().failed(event_id, name, address)


class TokenBucket:
    """``rate`` tokens a second, at most ``burst`` saved up; each message takes one."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.clock = clock
        self.at = clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


# -- CSRF ----------------------------------------------------------------------------------
_DEFAULT_PORT = {"http": "80", "https": "443", "ws": "80", "wss": "443"}


def _netloc(scheme: str, netloc: str) -> str:
    netloc = netloc.lower()
    host, _, port = netloc.rpartition(":") if not netloc.endswith("]") else (netloc, "", "")
    if host and port and port == _DEFAULT_PORT.get(scheme):
        return host
    return netloc


def origin_of(headers: Any) -> str | None:
    """The request's ``Origin``, else the scheme and host of its ``Referer``, else ``None``."""
    origin = headers.get("origin")
    if origin is not None:
        return str(origin)
    referer = headers.get("referer")
    if referer is None:
        return None
    parts = urlsplit(str(referer))
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else "null"


def same_origin(origin: str, host: str | None, scheme: str, trusted: frozenset[str] = frozenset()) -> bool:
    """Whether ``origin`` is this server (the ``Host`` the request was sent to) or trusted.
    The schemes need not agree (behind a TLS proxy the server sees http for an https page)."""
    if origin.rstrip("/").lower() in trusted:
        return True
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not parts.netloc or not host:
        return False
    server_scheme = "https" if scheme in ("https", "wss") else "http"
    return _netloc(parts.scheme, parts.netloc) == _netloc(server_scheme, host) or \
        _netloc(parts.scheme, parts.netloc) == _netloc(parts.scheme, host)


def has_bearer(headers: Any) -> bool:
    return str(headers.get("authorization", "")).lower().startswith("bearer ")


class CsrfMiddleware:
    """Refuse a state-changing request (POST, PUT, PATCH, DELETE) that is not authenticated by a
    bearer token and comes from another site: its ``Origin`` (or ``Referer``) is present and is
    not this server's. The browser's session cookie is SameSite=Strict already; this is the
    second lock. Programs (a bearer token, or no Origin at all) are not affected, nor are the
    pages' own same-origin requests, which need no extra header."""

    def __init__(self, app: ASGIApp, trusted_origins: frozenset[str] = frozenset()) -> None:
        self.app = app
        self.trusted = trusted_origins

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in UNSAFE_METHODS:
            from starlette.datastructures import Headers
            from starlette.responses import JSONResponse

            headers = Headers(scope=scope)
            origin = origin_of(headers)
            if not has_bearer(headers) and origin is not None and \
                    not same_origin(origin, headers.get("host"), scope.get("scheme", "http"), self.trusted):
                client = scope.get("client")
                log.warning("cross-site %s %s refused (origin %r, from %s)", scope["method"], scope["path"],
                            origin[:100], client[0] if client else None)
                response = JSONResponse(
                    {"error": {"rule": "csrf", "message": "a cross-site request may not change anything here: "
                                                          "use the card room's own pages or a bearer token"}},
                    status_code=403)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


# -- live sockets of signed-in accounts ----------------------------------------------------
class Revocable(Protocol):
    def revoke(self, rule: str, message: str) -> None: ...


class Sessions:
    """The open sockets by account and token, so that signing out (the token) and a role change
    (every token of the account) also close the sockets they opened. Called from the thread
    pool: the socket is told on its own event loop."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: dict[Revocable, tuple[int, str, asyncio.AbstractEventLoop]] = {}

    def add(self, conn: Revocable, account_id: int, token_hash: str) -> None:
        with self._lock:
            self._open[conn] = (account_id, token_hash, asyncio.get_running_loop())

    def discard(self, conn: Revocable) -> None:
        with self._lock:
            self._open.pop(conn, None)

    def _revoke(self, match: Callable[[int, str], bool], message: str) -> int:
        with self._lock:
            hit = [(c, loop) for c, (a, t, loop) in self._open.items() if match(a, t)]
        for conn, loop in hit:
            conn_revoke = conn.revoke
            try:
                loop.call_soon_threadsafe(conn_revoke, "signed_in", message)
            except RuntimeError:  # that loop is closed: the socket is gone
                pass
        return len(hit)

    def signed_out(self, token_hash: str) -> int:
        return self._revoke(lambda _, t: t == token_hash, "you signed out: sign in again")

    def account_changed(self, account_id: int) -> int:
        return self._revoke(lambda a, _: a == account_id,
                            "your role changed and every sign-in of yours ended: sign in again")
