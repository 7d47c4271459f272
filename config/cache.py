"""The Redis cache: django-redis, failing open (IGNORE_EXCEPTIONS in settings), except that `add`
answers True while Redis is unreachable."""

from __future__ import annotations

from django_redis.cache import RedisCache, omit_exception


class FailOpenRedisCache(RedisCache):
    # allauth's rate limits take a short lock with cache.add and refuse the login when it is not
    # taken: the library's None for an ignored error would refuse every login during an outage.
    @omit_exception(return_value=True)
    def add(self, *args, **kwargs):
        return self.client.add(*args, **kwargs)
