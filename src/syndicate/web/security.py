"""Hostile input: rate limits on sign-in and on live actions, the CSRF check of the browser's
cookie, and the registry that closes the sockets of a signed-out account.

The counters live in the memory of the server process, so a restart forgets them; with several
processes (``serve --redis``) the sign-in failures are counted in Redis, shared by all
(:class:`SharedSignInLimiter`, the same rule).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
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

from ..room.accounts import canonical_name
from ..room.errors import RoomError

log = logging.getLogger(__name__)
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


@dataclass(frozen=True)
class Limits:
    """The limits ``create_app(limits=...)`` enforces (docs/server.md, docs/protocol.md)."""

    #: failed sign-ins for one account name (in one event) from one client address before that
    #: address must wait before each further try of that name: ``sign_in_backoff`` seconds, twice
    #: as long after each further failure, at most ``sign_in_backoff_cap``. Only that address
    #: waits: names are public, so a limit on the name alone would let anyone lock a player out.
    sign_in_failures_per_name: int = 5
    sign_in_backoff: float = 2.0
    sign_in_backoff_cap: float = 300.0
    #: failed sign-ins from one client address within ``sign_in_window`` seconds, whatever the
    #: names tried (a casino's players may share one address, hence the margin). Past it the
    #: address is not shut out: only names that exist have their password checked, each name's
    #: first failure there earns a wait, and an unknown name is refused without the work
    sign_in_failures_per_address: int = 50
    #: how long failures are remembered: an address's for this long each (a sliding window); a
    #: name's from an address until this long after its last wait ended
    sign_in_window: float = 300.0
    #: live messages per connection: a token bucket refilled at this rate, holding at most ``burst``
    actions_per_second: float = 100.0
    action_burst: int = 200
    #: seconds one outgoing message may wait for a client's TCP window: a client that stopped
    #: reading is let go after this (its socket handler ends and it leaves the table)
    send_timeout: float = 10.0
    #: where the live token buckets read the time, in seconds (a test may move it itself)
    clock: Callable[[], float] = time.monotonic

    def backoff(self, failures: int) -> float:
        """Seconds one name must wait at one address after its ``failures``-th failure there."""
        over = failures - self.sign_in_failures_per_name
        if over < 0:
            return 0.0
        return min(self.sign_in_backoff * 2.0 ** min(over, 64), self.sign_in_backoff_cap)


class RateLimited(RoomError):
    status = 429

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__("rate_limit", message)
        self.retry_after = max(1, math.ceil(retry_after))


def in_words(seconds: float) -> str:
    """``130`` → ``"2 minutes 10 seconds"``: a wait as the sign-in page says it."""
    total = max(1, math.ceil(seconds))
    minutes, secs = divmod(total, 60)
    parts = [f"{minutes} minute{'s' if minutes != 1 else ''}"] if minutes else []
    if secs or not minutes:
        parts.append(f"{secs} second{'s' if secs != 1 else ''}")
    return " ".join(parts)


def _pair_refused(wait: float) -> RateLimited:
    return RateLimited(f"too many failed sign-ins for this name from your address: try again in {in_words(wait)} "
                       "(signing in from another device is not held up)", wait)


class SignInLimiter:
    """Failed sign-ins per (account name, client address) with a growing wait, and per client
    address across names in a sliding window.

    A name that must wait at an address is refused there (429) before its password is checked,
    the right one too: else the wait would not stop guessing it. Nothing else is refused: an
    address over its limit across names (someone trying many names from it) still signs in any
    name that is not itself being guessed from it, but from then on (:meth:`check` answers True)
    only a name that exists has its password checked, and its first failure there already earns
    a wait. So one client cannot make the server verify passwords without end (the checks it
    earns are bounded by the event's accounts and their waits), while a player sharing its
    address, a casino's Wi-Fi, signs in. An unknown name is then refused without the argon2
    work, after the same time (the caller waits it out: :attr:`syndicate.room.accounts.Accounts.
    verify_seconds`), with the same answer.

    Nothing is counted per name alone: someone hammering a name from their address holds up
    that address, never the player signing in from their own. A successful sign-in is not
    counted and forgets its pair's failures (not its address's: an attacker with an account of
    their own must not reset it)."""

    MAX_KEYS = 100_000  # memory bound for each kind of key: the oldest are forgotten first

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self._pairs: OrderedDict[tuple[str, ...], tuple[int, float]] = OrderedDict()  # → (failures, last)
        # an address's latest failures: only as many as the limit, so a flood keeps no more
        self._addresses: OrderedDict[tuple[str, ...], deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def _pair_key(event_id: int, name: object, address: str | None) -> tuple[str, ...]:
        # the canonical name: "ALICE " is the same account as "alice", so the same count
        key = canonical_name(name) if isinstance(name, str) else str(name)
        return ("pair", str(event_id), key, address or "-")

    @staticmethod
    def _address_key(address: str | None) -> tuple[str, ...] | None:
        return ("address", address) if address else None

    def _pair_wait(self, failures: int, last: float, now: float) -> float:
        return last + self.limits.backoff(failures) - now

    def _pair_expired(self, failures: int, last: float, now: float) -> bool:
        return now >= last + self.limits.backoff(failures) + self.limits.sign_in_window

    def _over(self, addr: tuple[str, ...] | None, now: float) -> bool:
        q = self._addresses.get(addr) if addr else None
        if q is None:
            return False
        while q and q[0] <= now - self.limits.sign_in_window:
            q.popleft()
        return len(q) >= self.limits.sign_in_failures_per_address

    def check(self, event_id: int, name: object, address: str | None) -> bool:
        """Raise :class:`RateLimited` if this name from this address must wait. Otherwise,
        whether this address failed too often lately across names: then only a name that exists
        may have its password checked."""
        now = self.clock()
        pair, addr = self._pair_key(event_id, name, address), self._address_key(address)
        with self._lock:
            rec = self._pairs.get(pair)
            if rec is not None:
                if self._pair_expired(*rec, now):
                    del self._pairs[pair]
                elif (wait := self._pair_wait(*rec, now)) > 0:
                    raise _pair_refused(wait)
            return self._over(addr, now)

    def failed(self, event_id: int, name: object, address: str | None) -> None:
        now = self.clock()
        pair, addr = self._pair_key(event_id, name, address), self._address_key(address)
        with self._lock:
            over = self._over(addr, now)
            rec = self._pairs.pop(pair, None)
            failures = 1 if rec is None or self._pair_expired(*rec, now) else rec[0] + 1
            if over:  # past the address's limit a name's free tries are spent at once
                failures = max(failures, self.limits.sign_in_failures_per_name)
            self._pairs[pair] = (failures, now)  # most recently failed last
            if addr is not None:
                q = self._addresses.pop(addr, None) or deque(maxlen=max(1, self.limits.sign_in_failures_per_address))
                q.append(now)
                self._addresses[addr] = q
            for d in (self._pairs, self._addresses):
                while len(d) > self.MAX_KEYS:
                    d.popitem(last=False)

    def succeeded(self, event_id: int, name: object, address: str | None) -> None:
        """The right password from this address: its earlier typos there are forgiven."""
        with self._lock:
            self._pairs.pop(self._pair_key(event_id, name, address), None)


# One failure of a name from an address, atomically (the same rule as SignInLimiter.failed):
# the address's failures in the window (its newest ``limit`` kept), whether it was over its limit
# already, the name's count (at least the free tries when it was), and the hash kept until
# ``sign_in_window`` after the wait it earns ends. KEYS: the pair's hash [, the address's set].
_FAILED = """
local now, free, backoff, cap, window, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]),
    tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local over = false
if #KEYS > 1 then
    redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - window)
    over = redis.call('ZCARD', KEYS[2]) >= limit
    redis.call('ZADD', KEYS[2], now, ARGV[7])
    redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -(limit + 1))
    redis.call('PEXPIRE', KEYS[2], math.ceil(window * 1000))
end
local n = (tonumber(redis.call('HGET', KEYS[1], 'n')) or 0) + 1
if over and n < free then n = free end
local wait = 0
if n >= free then wait = math.min(backoff * 2 ^ math.min(n - free, 64), cap) end
redis.call('HSET', KEYS[1], 'n', n, 'last', ARGV[1])
redis.call('PEXPIRE', KEYS[1], math.ceil((wait + window) * 1000))
return n
"""


class SharedSignInLimiter(SignInLimiter):
    """:class:`SignInLimiter` for several processes, by the same rule: each (name, address)
    pair is a hash in Redis (its failures and the last one's wall-clock time, expiring when the
    in-process counter would be forgotten), each address a sorted set of its latest failures, so
    trying names or passwords on every process in turn gains nothing. If Redis cannot be reached
    it falls back to this process's own counters rather than refusing every sign-in."""

    def __init__(self, limits: Limits, redis_url: str, prefix: str,
                 clock: Callable[[], float] = time.time) -> None:
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        super().__init__(limits, clock)
        self.prefix = prefix
        self.redis = redis.Redis.from_url(redis_url, socket_timeout=1, socket_connect_timeout=1,
                                          retry=Retry(NoBackoff(), 0))
        self._failed = self.redis.register_script(_FAILED)

    def _rkey(self, key: tuple[str, ...]) -> str:
        # hashed: no two keys run together (an IPv6 address has colons, a name tried anything),
        # and a password typed in the name field by mistake is not kept in Redis
        digest = hashlib.sha256(json.dumps(key).encode()).hexdigest()
        return f"{self.prefix}:signin:{key[0]}:{digest}"

    def check(self, event_id: int, name: object, address: str | None) -> bool:
        import redis

        now, window = self.clock(), self.limits.sign_in_window
        pair, addr = self._pair_key(event_id, name, address), self._address_key(address)
        try:
            pipe = self.redis.pipeline(transaction=False)
            pipe.hmget(self._rkey(pair), "n", "last")
            if addr is not None:
                pipe.zremrangebyscore(self._rkey(addr), "-inf", now - window)
                pipe.zcard(self._rkey(addr))
            got = pipe.execute()
        except redis.RedisError as e:
            log.warning("sign-in limits: Redis unreachable (%s); counting in this process", e)
            return super().check(event_id, name, address)
        failures, last = got[0]
        if failures is not None and last is not None and (wait := self._pair_wait(int(failures), float(last), now)) > 0:
            raise _pair_refused(wait)
        return addr is not None and got[2] >= self.limits.sign_in_failures_per_address

    def failed(self, event_id: int, name: object, address: str | None) -> None:
        import redis

        now, lim = self.clock(), self.limits
        pair, addr = self._pair_key(event_id, name, address), self._address_key(address)
        keys = [self._rkey(pair)] + ([self._rkey(addr)] if addr is not None else [])
        try:
            self._failed(keys=keys, args=[repr(now), lim.sign_in_failures_per_name, lim.sign_in_backoff,
                                          lim.sign_in_backoff_cap, lim.sign_in_window,
                                          max(1, lim.sign_in_failures_per_address),
                                          f"{now!r}:{os.urandom(4).hex()}"])
        except redis.RedisError:
            super().failed(event_id, name, address)

    def succeeded(self, event_id: int, name: object, address: str | None) -> None:
        import redis

        try:
            self.redis.delete(self._rkey(self._pair_key(event_id, name, address)))
        except redis.RedisError:
            pass
        super().succeeded(event_id, name, address)  # and any count kept here while Redis was away


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
