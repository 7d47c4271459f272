"""API rate limits that fail open: the counters live in the cache (Redis); when it cannot be
reached the request is let through with a logged warning, so a cache outage slows nothing down
and refuses nobody (a degraded service, not a down one). The production cache backend already
fails open (config/cache.py); this holds for any backend that raises."""

from __future__ import annotations

import logging

from rest_framework.throttling import AnonRateThrottle, ScopedRateThrottle, UserRateThrottle

from config.cache import CACHE_ERRORS

logger = logging.getLogger(__name__)


class FailOpenThrottleMixin:
    """Put first among the bases of a DRF throttle class."""

    def allow_request(self, request, view) -> bool:
        try:
            return super().allow_request(request, view)
        except CACHE_ERRORS as error:
            logger.warning("Rate limit %s not applied: the cache is unreachable (%s)",
                           type(self).__name__, error)
            return True


class FailOpenAnonRateThrottle(FailOpenThrottleMixin, AnonRateThrottle):
    pass


class FailOpenUserRateThrottle(FailOpenThrottleMixin, UserRateThrottle):
    pass


class FailOpenScopedRateThrottle(FailOpenThrottleMixin, ScopedRateThrottle):
    pass
