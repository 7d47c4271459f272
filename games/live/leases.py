"""How many event streams one player and one address hold open at once.

Each open stream holds a lease on its address (every stream) and on its player (signed-in
streams); a stream past STREAM_MAX_PER_USER or STREAM_MAX_PER_ADDRESS is refused (a 429,
games/api/streams.py). With Redis the leases of all web processes are counted together: one
sorted set per player and per address, each lease scored by the moment it lapses. The hub
renews its process's leases every LEASE_RENEW_SECONDS, so the leases of a process that was
killed lapse after LEASE_SECONDS. Without Redis (`make run`: one web process) they are counted
in the process. A lease is given back when its stream ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field

from django.conf import settings

logger = logging.getLogger(__name__)

#: A lease lapses this long after its last renewal (a process killed without giving its leases
#: back blocks no one for longer).
LEASE_SECONDS = 60
LEASE_RENEW_SECONDS = 20

#: Checks every set, then adds the lease to all of them or to none: KEYS are the sets, ARGV
#: the time now, the lapse, the lease and each set's limit. Returns 0, or the number (from 1)
#: of the first set that is full.
_ACQUIRE = """
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', ARGV[1])
  if redis.call('ZCARD', key) >= tonumber(ARGV[3 + i]) then return i end
end
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, ARGV[2], ARGV[3])
  redis.call('EXPIRE', key, ARGV[#ARGV])
end
return 0
"""


@dataclass(eq=False)
class Lease:
    keys: tuple[str, ...]
    member: str = field(default_factory=lambda: uuid.uuid4().hex)


def lease_keys(user_id: int | None, address: str) -> list[tuple[str, int]]:
    """The sets a stream counts in, each with its limit: its address, and its player's."""
    prefix = f"{settings.EVENTS_CHANNEL_PREFIX}:streams"
    keys = [(f"{prefix}:address:{address}", settings.STREAM_MAX_PER_ADDRESS)]
    if user_id is not None:
        keys.append((f"{prefix}:user:{user_id}", settings.STREAM_MAX_PER_USER))
    return keys


class Leases:
    """The leases of one process's streams (one per hub)."""

    def __init__(self) -> None:
        self._held: set[Lease] = set()
        self._counts: Counter[str] = Counter()
        self._redis = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pending: set[asyncio.Task] = set()

    def _client(self):
        if self._redis is None:
            import redis.asyncio as aioredis

            self._redis = aioredis.Redis.from_url(settings.REDIS_URL)
        return self._redis

    async def acquire(self, user_id: int | None, address: str) -> Lease | None:
        """A lease for one more stream, or None if the player or the address has its limit."""
        keys = lease_keys(user_id, address)
        if any(self._counts[key] >= limit for key, limit in keys):
            return None  # full in this process alone
        lease = Lease(tuple(key for key, _ in keys))
        if settings.REDIS_URL:
            self._loop = asyncio.get_running_loop()
            now = time.time()
            try:
                full = await self._client().eval(
                    _ACQUIRE, len(keys), *lease.keys, now, now + LEASE_SECONDS, lease.member,
                    *(limit for _, limit in keys), LEASE_SECONDS)
            except Exception:
                # The bus is down too; the process's own count still holds.
                logger.warning("Stream leases: Redis unreachable; counting in this process",
                               exc_info=True)
                full = 0
            if full:
                return None
        self._held.add(lease)
        self._counts.update(lease.keys)
        return lease

    def release(self, lease: Lease) -> None:
        """Gives the lease back (again is harmless); callable from any thread."""
        if lease not in self._held:
            return
        self._held.discard(lease)
        self._counts.subtract(lease.keys)
        for key in lease.keys:
            if self._counts[key] <= 0:
                del self._counts[key]
        if self._redis is not None and self._loop is not None:
            # A closed loop (the process is ending) raises: its leases lapse.
            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(self._forget, lease)

    def _forget(self, lease: Lease) -> None:
        task = asyncio.get_running_loop().create_task(self._remove(lease))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _remove(self, lease: Lease) -> None:
        try:
            async with self._client().pipeline(transaction=False) as pipe:
                for key in lease.keys:
                    pipe.zrem(key, lease.member)
                await pipe.execute()
        except Exception:
            logger.warning("Stream leases: a lease was not given back (it lapses)",
                           exc_info=True)

    async def renew(self) -> None:
        """Pushes back the lapse of every lease this process holds: one round trip."""
        if not self._held or not settings.REDIS_URL:
            return
        lapse = time.time() + LEASE_SECONDS
        keys = set()
        async with self._client().pipeline(transaction=False) as pipe:
            for lease in list(self._held):
                for key in lease.keys:
                    pipe.zadd(key, {lease.member: lapse}, xx=True)
                    keys.add(key)
            for key in keys:
                pipe.expire(key, LEASE_SECONDS)
            await pipe.execute()

    @property
    def held(self) -> int:
        return len(self._held)
