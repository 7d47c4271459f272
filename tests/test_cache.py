"""The Redis cache (config/cache.py, django-redis): its connections belong to the process, and
with Redis unreachable it answers as an empty cache would, logged, and sessions fall back to the
database."""

from __future__ import annotations

import logging
import socket
import threading

import pytest
from django.core.cache import cache, caches

from config.cache import FailOpenRedisCache, process_cache, process_caches
from tests.factories import UserFactory

pytestmark = pytest.mark.redis


def _in_threads(work, count: int) -> list:
    """`work()` once in each of `count` new threads, one after the other, as ASGI requests are."""
    results = []
    for _ in range(count):
        thread = threading.Thread(target=lambda: results.append(work()))
        thread.start()
        thread.join()
    return results


def _redis_cache():
    if not isinstance(caches["default"], FailOpenRedisCache):
        pytest.skip("the cache is not Redis here")
    return caches["default"]


def _pool_of(cache, write: bool):
    return cache.client.get_client(write=write).connection_pool


def unreachable_cache(settings) -> None:
    """The site's cache settings, pointed at a port where nothing listens."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings.CACHES = {"default": {
        **settings.CACHES["default"], "BACKEND": "config.cache.FailOpenRedisCache",
        "LOCATION": f"redis://127.0.0.1:{port}/0",
        "OPTIONS": {"IGNORE_EXCEPTIONS": True, "SOCKET_CONNECT_TIMEOUT": 0.5,
                    "SOCKET_TIMEOUT": 0.5}}}


def test_the_cache_objects_of_every_thread_share_one_pool():
    _redis_cache()
    objects = _in_threads(lambda: caches["default"], 3)
    assert len({id(each) for each in objects}) == 3  # Django's own: one per thread
    assert len({id(_pool_of(each, write=True)) for each in objects}) == 1


def test_threads_that_use_the_cache_open_no_new_connections():
    shared = _redis_cache()
    shared.set("shared-connections", "yes", 60)
    pool = _pool_of(shared, write=True)
    opened = pool._created_connections

    def request():
        each = caches["default"]
        return each.get("shared-connections"), _pool_of(each, write=False)

    answers = _in_threads(request, 20)
    assert [value for value, _ in answers] == ["yes"] * 20
    assert all(used is pool for _, used in answers)
    assert pool._created_connections == opened  # one at a time: the same connection each time


def test_unreachable_the_cache_answers_as_an_empty_one_and_says_so(settings, caplog):
    unreachable_cache(settings)
    with caplog.at_level(logging.ERROR, logger="config.cache"):
        assert cache.get("anything", "default") == "default"
        assert cache.get_many(["a", "b"]) == {}
        cache.set("anything", 1, 60)
        cache.delete("anything")
        # allauth's rate-limit lock: refused, it would refuse the login.
        assert cache.add("a-lock", True, 10) is True
    assert caplog.text.count("Exception ignored") == 5


@pytest.mark.django_db
def test_unreachable_a_signed_in_player_stays_signed_in(client, settings, caplog):
    """Sessions are the database's, read through the cache: a Redis outage logs nobody out."""
    user = UserFactory()
    client.force_login(user)
    assert client.get("/").wsgi_request.user == user
    unreachable_cache(settings)
    page = client.get("/")
    assert page.status_code == 200 and page.wsgi_request.user == user
    assert "Exception ignored" in caplog.text
    client.logout()
    assert client.get("/").wsgi_request.user.is_authenticated is False


def test_sessions_and_throttles_use_one_cache_object_in_every_thread(settings):
    """Django builds `caches[alias]` anew in each thread and async context (each ASGI request);
    the session store and the API throttles take the process's one object instead."""
    from accounts.sessions import SessionStore
    from config.throttling import AnonRateThrottle, ScopedRateThrottle, UserRateThrottle

    sessions = _in_threads(lambda: SessionStore()._cache, 3)
    assert len({id(each) for each in sessions}) == 1
    assert sessions[0] is process_caches[settings.SESSION_CACHE_ALIAS]
    for throttle in (AnonRateThrottle, UserRateThrottle, ScopedRateThrottle):
        seen = _in_threads(lambda throttle=throttle: throttle().cache == sessions[0], 3)
        assert seen == [True] * 3


def test_the_process_cache_follows_a_change_of_the_cache_setting(settings, caplog):
    before = process_caches["default"]
    unreachable_cache(settings)
    assert process_caches["default"] is not before
    with caplog.at_level(logging.ERROR, logger="config.cache"):
        assert process_cache.get("anything", "default") == "default"
    assert "Exception ignored" in caplog.text
