"""The cache backend: Django's Redis cache, failing open.

The cache holds only counters and hints that the site can do without (API rate limits,
allauth's login limits); nothing in it is the only copy of anything. When Redis cannot be
reached, each operation logs a warning and answers as an empty cache would (a read misses, a
write is dropped, `add` succeeds so that allauth's short lock does not refuse the login), so a
Redis outage degrades the site instead of failing every request that counts something.
"""

from __future__ import annotations

import functools
import logging

import redis.exceptions
from django.core.cache.backends.redis import RedisCache

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


class FailOpenRedisCache(RedisCache):
    """RedisCache whose operations fall back as described above instead of raising."""


for _name in _FALLBACKS:
    setattr(FailOpenRedisCache, _name, _failing_open(_name))
