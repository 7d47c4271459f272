"""DRF's throttles, counting in the process's cache object (config.cache.process_cache) rather
than in one built for each request: DRF's documented way to give a throttle another cache.

Each throttle also notes on the request what it counted, so that every API answer can tell its
client what it has left (`RateLimitHeadersMiddleware`: the IETF httpapi draft's `RateLimit-Policy`
and `RateLimit`, and GitHub's `X-RateLimit-*`), and so that a `304 Not Modified` is given back
its request: revalidating what one holds costs no budget."""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.db import DatabaseError
from rest_framework import throttling

from config.cache import process_cache


@dataclass
class RateCount:
    """One throttle's count for this request: its policy and its window after this request."""

    scope: str
    limit: int
    window_seconds: int
    key: str
    history: list[float]
    charged_at: float | None  # the timestamp this request added, None when it added none

    @property
    def remaining(self) -> int:
        return max(0, self.limit - len(self.history))

    @property
    def reset_seconds(self) -> int:
        """Seconds until the whole window is free again (the newest request leaves it)."""
        if not self.history:
            return 0
        return max(0, int(self.history[0] + self.window_seconds - time.time()) + 1)


class _Counted:
    """Notes this throttle's count on the request (`request.rate_counts`)."""

    def allow_request(self, request, view):
        allowed = super().allow_request(request, view)
        if self.rate is not None and getattr(self, "key", None) is not None:
            counts = request._request.__dict__.setdefault("rate_counts", [])
            counts.append(RateCount(
                scope=self.scope, limit=self.num_requests, window_seconds=self.duration,
                key=self.key, history=list(self.history),
                charged_at=self.now if allowed else None))
        return allowed

    def peek(self, request) -> RateCount | None:
        """The count as it stands, for an answer no throttle counted (refused before them)."""
        if self.rate is None:
            return None
        key = self.get_cache_key(request, None)
        if key is None:
            return None
        now = time.time()
        history = [moment for moment in self.cache.get(key, [])
                   if moment > now - self.duration]
        return RateCount(scope=self.scope, limit=self.num_requests,
                         window_seconds=self.duration, key=key, history=history,
                         charged_at=None)


class AnonRateThrottle(_Counted, throttling.AnonRateThrottle):
    cache = process_cache


class UserRateThrottle(_Counted, throttling.UserRateThrottle):
    cache = process_cache


class ScopedRateThrottle(_Counted, throttling.ScopedRateThrottle):
    cache = process_cache


def refund(count: RateCount) -> None:
    """Takes this request's mark out of its window again (a 304)."""
    history = process_cache.get(count.key, [])
    if count.charged_at in history:
        history.remove(count.charged_at)
        process_cache.set(count.key, history, count.window_seconds)
    count.history = [moment for moment in count.history if moment != count.charged_at]
    count.charged_at = None


def describe_budget(request, response) -> None:
    """The rate-limit headers of an answer served outside RateLimitHeadersMiddleware (the event
    streams, config/asgi.py): the caller's budget as it stands. A stream is not counted against
    it (streams have their own limit, on how many are open at once); its answer still tells a
    client where it stands, as every other API answer does. A caller not known (a refused token)
    is told the anonymous budget of its address, as elsewhere."""
    if not hasattr(request, "user"):
        from django.contrib.auth.models import AnonymousUser

        request.user = AnonymousUser()
    counts = RateLimitHeadersMiddleware._peeked(request)
    if counts:
        RateLimitHeadersMiddleware._describe(response, counts)


class RateLimitHeadersMiddleware:
    """Every answer under /api/ says the caller's limits: `RateLimit-Policy` and `RateLimit`
    (draft-ietf-httpapi-ratelimit-headers, one item per throttle that counted the request) and
    `X-RateLimit-Limit/Remaining/Reset` (GitHub's names; Reset in epoch seconds) of the
    tightest one. Placed outside ConditionalGetMiddleware, so it sees the final 304."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if not request.path.startswith("/api/"):
            return response
        counts = request.__dict__.get("rate_counts") or self._peeked(request)
        if response.status_code == 304:
            for count in counts:
                if count.charged_at is not None:
                    refund(count)
        if counts:
            self._describe(response, counts)
        return response

    @staticmethod
    def _peeked(request) -> list[RateCount]:
        if not hasattr(request, "user"):
            # Refused before authentication (a control character in the query): who is asking,
            # and so which budget applies, is unknown, and nothing was counted.
            return []
        try:
            user = request.user
            throttle = (UserRateThrottle() if user is not None and user.is_authenticated
                        else AnonRateThrottle())
            count = throttle.peek(request)
        except DatabaseError:  # a session read while the database is down: no headers, no 500
            return []
        return [count] if count is not None else []

    @staticmethod
    def _describe(response, counts: list[RateCount]) -> None:
        response["RateLimit-Policy"] = ", ".join(
            f'"{count.scope}";q={count.limit};w={count.window_seconds}' for count in counts)
        response["RateLimit"] = ", ".join(
            f'"{count.scope}";r={count.remaining};t={count.reset_seconds}' for count in counts)
        tightest = min(counts, key=lambda count: count.remaining)
        response["X-RateLimit-Limit"] = str(tightest.limit)
        response["X-RateLimit-Remaining"] = str(tightest.remaining)
        response["X-RateLimit-Reset"] = str(int(time.time()) + tightest.reset_seconds)
        response["X-RateLimit-Resource"] = tightest.scope
