"""The cache's Redis connections belong to the process (config/cache.py): Django makes a cache
object per thread, and under ASGI per request, and each used to open a connection of its own."""

from __future__ import annotations

import threading

import pytest
from django.core.cache import caches

from config.cache import FailOpenRedisCache

pytestmark = pytest.mark.redis


def _in_threads(work, count: int) -> list:
    """`work()` once in each of `count` new threads, one after the other, as ASGI requests are."""
    results = []
    for _ in range(count):
        thread = threading.Thread(target=lambda: results.append(work()))
        thread.start()
        thread.join()
    return results


def test_the_cache_objects_of_every_thread_share_one_pool_and_one_client():
    if not isinstance(caches["default"], FailOpenRedisCache):
        pytest.skip("the cache is not Redis here")
    objects = _in_threads(lambda: caches["default"], 3)
    assert len({id(cache) for cache in objects}) == 3  # Django's own: one per thread
    clients = {id(cache._cache.get_client(write=True)) for cache in objects}
    pools = {id(cache._cache._get_connection_pool(True)) for cache in objects}
    assert len(clients) == 1 and len(pools) == 1


def test_threads_that_use_the_cache_open_no_new_connections():
    if not isinstance(caches["default"], FailOpenRedisCache):
        pytest.skip("the cache is not Redis here")
    caches["default"].set("shared-connections", "yes", 60)
    pool = caches["default"]._cache._get_connection_pool(True)
    opened = pool._created_connections

    def request():
        cache = caches["default"]
        return cache.get("shared-connections"), cache._cache._get_connection_pool(False)

    answers = _in_threads(request, 20)
    assert [value for value, _ in answers] == ["yes"] * 20
    assert all(used is pool for _, used in answers)
    assert pool._created_connections == opened  # one at a time: the same connection each time
