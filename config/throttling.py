"""DRF's throttles, counting in the process's cache object (config.cache.process_cache) rather
than in one built for each request: DRF's documented way to give a throttle another cache."""

from rest_framework import throttling

from config.cache import process_cache


class AnonRateThrottle(throttling.AnonRateThrottle):
    cache = process_cache


class UserRateThrottle(throttling.UserRateThrottle):
    cache = process_cache


class ScopedRateThrottle(throttling.ScopedRateThrottle):
    cache = process_cache
