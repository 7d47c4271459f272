"""Django's cached_db sessions, reading through the process's cache object
(config.cache.process_caches) instead of one built for each request: every page and poll of a
signed-in player reads its session first, and under ASGI Django would build the django-redis
object anew each time (0.44 ms of a 0.54 ms session read, config/cache.py)."""

from django.conf import settings
from django.contrib.sessions.backends import cached_db

from config.cache import process_caches


class SessionStore(cached_db.SessionStore):
    def __init__(self, session_key=None):
        # cached_db's own __init__ only sets `_cache` to `caches[alias]`, building the object.
        self._cache = process_caches[settings.SESSION_CACHE_ALIAS]
        super(cached_db.SessionStore, self).__init__(session_key)
