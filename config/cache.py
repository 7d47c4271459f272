"""The cache backend: Django's Redis cache, failing open, with the process's connections.

The cache holds only counters and hints that the site can do without (API rate limits,
allauth's login limits); nothing in it is the only copy of anything. When Redis cannot be
reached, each operation logs a warning and answers as an empty cache would (a read misses, a
write is dropped, `add` succeeds so that allauth's short lock does not refuse the login), so a
Redis outage degrades the site instead of failing every request that counts something.

Django makes a cache object per thread, and so under ASGI one per request (each request's
synchronous part runs in a thread of its own), each with connection pools of its own and a new
redis.Redis per operation: every API request opened a new connection to Redis for its rate
limit (and left the socket to the garbage collector). Here the pools, and one redis.Redis per
pool (both thread-safe), belong to the process.
"""

from __future__ import annotations

import functools
import logging
import threading

import redis.exceptions
from django.core.cache.backends.redis import RedisCache, RedisCacheClient

logger = logging.getLogger(__name__)

#: What a cache raises when its server is down or unreachable (Redis; OSError for the
#: file-based cache of the embedded defaults and for sockets).
CACHE_ERRORS = (redis.exceptions.RedisError, OSError)


def _get_fallback(key, default=None, version=None):
    return default


#: What each operation answers when Redis is unreachable: what an empty cache would answer,
#: except `add` (True: the caller may go on, as it would with a working cache) and `set_many`
#: (every key failed).
_FALLBACKS = {
    "get": _get_fallback,
    "get_many": lambda *args, **kwargs: {},
    "has_key": lambda *args, **kwargs: False,
    "add": lambda *args, **kwargs: True,
    "set": lambda *args, **kwargs: None,
    "set_many": lambda data, *args, **kwargs: list(data),
    "touch": lambda *args, **kwargs: False,
    "delete": lambda *args, **kwargs: False,
    "delete_many": lambda *args, **kwargs: None,
    "clear": lambda *args, **kwargs: False,
}


def _failing_open(name: str):
    method = getattr(RedisCache, name)
    fallback = _FALLBACKS[name]

    @functools.wraps(method)
    def guarded(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except CACHE_ERRORS as error:
            logger.warning("Cache %s skipped: the cache is unreachable (%s)", name, error)
            return fallback(*args, **kwargs)

    return guarded


#: The process's pools and clients: (pools by server index, clients by server index), by the
#: servers and pool options they were made for.
_PROCESS_POOLS: dict[str, tuple[dict, dict]] = {}
_PROCESS_POOLS_LOCK = threading.Lock()


class ProcessRedisCacheClient(RedisCacheClient):
    """RedisCacheClient whose connection pools and clients are shared by every cache object of
    the process with the same servers and options."""

    def __init__(self, servers, **options):
        super().__init__(servers, **options)
        key = repr((servers, sorted(self._pool_options.items())))
        with _PROCESS_POOLS_LOCK:
            self._pools, self._clients = _PROCESS_POOLS.setdefault(key, ({}, {}))

    def _pool_at(self, index: int):
        pool = self._pools.get(index)
        if pool is None:
            with _PROCESS_POOLS_LOCK:  # two threads must not make two pools for one server
                pool = self._pools.get(index)
                if pool is None:
                    pool = self._pools[index] = self._pool_class.from_url(
                        self._servers[index], **self._pool_options)
        return pool

    def _get_connection_pool(self, write):
        return self._pool_at(self._get_connection_pool_index(write))

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            client = self._clients.setdefault(
                index, self._client(connection_pool=self._pool_at(index)))
        return client


class FailOpenRedisCache(RedisCache):
    """RedisCache whose operations fall back as described above instead of raising, over the
    process's connections."""

    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = ProcessRedisCacheClient


for _name in _FALLBACKS:
    setattr(FailOpenRedisCache, _name, _failing_open(_name))
