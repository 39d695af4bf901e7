"""The message bus between server processes over Redis pub/sub
(:class:`syndicate.room.ports.Bus`, used by :mod:`syndicate.room.live.cluster`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class RedisSubscription:
    def __init__(self, pubsub: Any) -> None:
        self._pubsub = pubsub

    async def subscribe(self, *channels: str) -> None:
        await self._pubsub.subscribe(*channels)

    async def get_message(self, timeout: float) -> bytes | None:
        msg = await self._pubsub.get_message(timeout=timeout)
        return None if msg is None else msg["data"]  # type: ignore[no-any-return]

    async def aclose(self) -> None:
        await self._pubsub.aclose()


class RedisBus:
    """Redis at ``url``. The client is made on first use, so a bus that is never used (a test
    of the leases alone) needs no Redis."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._client: Any = None

    def _redis(self) -> Any:
        if self._client is None:
            import redis.asyncio as aioredis
            from redis.asyncio.retry import Retry
            from redis.backoff import NoBackoff

            # No retries inside the client: a lost connection surfaces at once, so the listener
            # knows to resync its clients and the publisher does not hold every table's messages
            # back while it waits.
            self._client = aioredis.Redis.from_url(self.url, socket_timeout=5, socket_connect_timeout=2,
                                                   health_check_interval=10, retry=Retry(NoBackoff(), 0))
        return self._client

    def subscription(self) -> RedisSubscription:
        return RedisSubscription(self._redis().pubsub(ignore_subscribe_messages=True))

    async def publish(self, messages: Sequence[tuple[str, str]]) -> list[int]:
        pipe = self._redis().pipeline(transaction=False)
        for channel, payload in messages:
            pipe.publish(channel, payload)
        return list(await pipe.execute())

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
