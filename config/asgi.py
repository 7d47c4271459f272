"""ASGI entry point: the site, and its event streams on a lighter path.

Event streams (`/api/v1/games/{id}/stream`, `/api/v1/stream/events`) stay open for hours.
Django's handler gives every request a thread of its own for its synchronous parts (request
signals, middleware hooks) that lives as long as the response: one parked thread per open
stream. So streams are served by a handler without middleware and without that per-request
thread (its few synchronous calls share one thread); the stream views check the host, the token
or the session cookie themselves (games/api/streams.py) and hold no thread while they wait.
"""

import os
import re

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
site = get_asgi_application()

from django.core.handlers.asgi import ASGIHandler  # noqa: E402 - after Django is set up
from django.core.handlers.exception import convert_exception_to_response  # noqa: E402

STREAM_PATHS = re.compile(r"^/api/v1/(games/[0-9]+/stream|stream/events)/?$")


class StreamHandler(ASGIHandler):
    async def __call__(self, scope, receive, send):
        await self.handle(scope, receive, send)

    def load_middleware(self, is_async=False):
        self._view_middleware, self._template_response_middleware = [], []
        self._exception_middleware = []
        self._middleware_chain = convert_exception_to_response(self._get_response_async)


streams = StreamHandler()


async def application(scope, receive, send):
    if scope["type"] == "http" and STREAM_PATHS.match(scope.get("path", "")):
        return await streams(scope, receive, send)
    return await site(scope, receive, send)
